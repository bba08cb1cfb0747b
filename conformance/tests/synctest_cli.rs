//! [CONF.SYNC.CLI] `onepath-conformance synctest`: both crates pass the default 10,000-frame
//! session; the JSON report; a written session replays to the same result; usage errors (bad
//! flags, sessions of another schema or version, a session with a bad op) exit 2 naming what.

use std::process::{Command, Output};

fn kit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .arg("synctest")
        .args(args)
        .output()
        .expect("the kit runs")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn both_crates_pass_ten_thousand_frames_with_every_distance() {
    let o = kit(&[]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert_eq!(
        out,
        "onepath-reference: pass (10000 frames, 45000 resimulated)\n\
         onepath: pass (10000 frames, 45000 resimulated)\n"
    );
}

// pins [CONF.SYNC.CLI]: a written session replayed with --json must give the report's members and
// exit 0, and sessions of another version or schema, with an unknown or missing member or a bad op
// must exit 2 naming it
#[test]
fn the_json_report_and_a_written_session() {
    let dir = std::env::temp_dir().join(format!("synctest-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("s.json");
    let f = file.to_str().unwrap();
    let o = kit(&["--seed", "5", "--frames", "300", "--write-session", f]);
    assert_eq!(o.status.code(), Some(0), "{:?}", text(&o));
    let o = kit(&["--session", f, "--json"]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["schema"], "onepath.synctest-report");
    assert_eq!(v["version"], 1);
    assert_eq!(v["frames"], 300);
    assert_eq!(v["seed"], serde_json::Value::Null);
    assert_eq!(v["ok"], true);
    assert_eq!(v["subjects"].as_array().unwrap().len(), 2);
    assert_eq!(v["subjects"][1]["subject"], "onepath");
    // 37 cycles of 1 + 2 + .. + 8 frames, then 1 + 2 + 3 + 4.
    assert_eq!(v["subjects"][1]["resimulated"], 37 * 36 + 10);

    let session: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let write = |name: &str, v: &serde_json::Value| {
        let p = dir.join(name);
        std::fs::write(&p, v.to_string()).unwrap();
        p.to_str().unwrap().to_string()
    };
    for (name, edit, expect) in [
        (
            "v2.json",
            ("version", serde_json::json!(2)),
            "unsupported_version",
        ),
        (
            "v0.json",
            ("version", serde_json::json!(0)),
            "unsupported_version",
        ),
        (
            "schema.json",
            ("schema", serde_json::json!("onepath.query")),
            "unknown_schema",
        ),
        (
            "extra.json",
            ("extra", serde_json::json!(1)),
            "unknown field `extra`",
        ),
    ] {
        let mut s = session.clone();
        s[edit.0] = edit.1;
        let p = write(name, &s);
        let o = kit(&["--session", &p]);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(expect), "{name}: {err}");
    }
    let mut s = session.clone();
    s.as_object_mut().unwrap().remove("flow_goals");
    let o = kit(&["--session", &write("missing.json", &s)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).1.contains("missing field `flow_goals`"),
        "{:?}",
        text(&o)
    );
    let mut s = session.clone();
    s["inputs"][4] = serde_json::json!([[9, 1]]);
    let o = kit(&["--session", &write("badop.json", &s)]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("bad_op: frame 4 op 0: [9, 1]"), "{err}");
    // [CONF.SYNC.OPS] Op integers decode as signed 128-bit: 2^127 - 1 is read (and is bad_op,
    // out of the budget's range), 2^127 and a non-integer do not decode (harness errors).
    for (value, expect) in [
        (
            "170141183460469231731687303715884105727",
            "bad_op: frame 2 op 0: [1, 170141183460469231731687303715884105727]",
        ),
        (
            "-170141183460469231731687303715884105728",
            "bad_op: frame 2 op 0",
        ),
        ("170141183460469231731687303715884105728", "out of range"),
        ("1.5", "wide.json: expected `,` or `]`"),
    ] {
        let mut s = session.clone();
        s["inputs"][2] = serde_json::json!([[1, 424242]]);
        let p = dir.join("wide.json");
        std::fs::write(&p, s.to_string().replace("424242", value)).unwrap();
        let o = kit(&["--session", p.to_str().unwrap()]);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{value}: {err}");
        assert!(err.contains(expect), "{value}: {err}");
    }
    let mut s = session.clone();
    s["inputs"][2] = serde_json::json!([[5, 0, 1, 0]]);
    let o = kit(&["--session", &write("den0.json", &s)]);
    assert!(
        text(&o).1.contains("bad_op: frame 2 op 0"),
        "{:?}",
        text(&o)
    );
    let mut s = session.clone();
    s["map"]["multipliers"] = serde_json::json!([[1, -1.0]]);
    let o = kit(&["--session", &write("multiplier.json", &s)]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the session does not run: invalid_multiplier"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_flags_exit_2() {
    for (args, expect) in [
        (vec!["--timeout", "0"], "--timeout"),
        (vec!["--frames", "1000001"], "over the limit"),
        (
            vec!["--session", "/nonexistent/s.json"],
            "/nonexistent/s.json",
        ),
        (
            vec!["--seed", "1", "--session", "x.json"],
            "cannot be used with",
        ),
    ] {
        let o = kit(&args);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expect), "{args:?}: {err}");
    }
}

/// [CONF.SYNC.WORK] A few-kilobyte session that asks for more than 2^30 units of work (frames x
/// (cells + nodes + edges + 1)) is refused before it runs, naming the file, the work and the
/// limit; exactly 2^30 is accepted by the same check.
// pins [CONF.SYNC.WORK]: a session whose declared work exceeds 2^30 must exit 2 naming the file and
// the limit before running (in under 5 s), and exactly 2^30 must be accepted; another bound or
// formula fails
#[test]
fn a_session_over_the_work_limit_is_refused_before_it_runs() {
    use onepath_conformance::synctest::{
        check_work, generate, session_work, Session, MAX_SESSION_WORK,
    };
    let base: Session = generate::session(1, 4);
    // 2^26 graph nodes, no edges, 16 frames: (256 + 2^26 + 120 + 1) x 16 > 2^30.
    let mut big = base.clone();
    big.graph.node_count = 1 << 26;
    big.inputs = (0..16)
        .map(|f| base.inputs[f % base.inputs.len()].clone())
        .collect();
    assert!(session_work(&big) > MAX_SESSION_WORK);
    let dir = std::env::temp_dir().join(format!("onepath-synctest-work-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.json");
    std::fs::write(&path, serde_json::to_string(&big).unwrap()).unwrap();
    let started = std::time::Instant::now();
    let o = kit(&["--session", path.to_str().unwrap()]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("big.json") && err.contains("over the limit of 1073741824"),
        "{err}"
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
    // At the edge: a world of 2^30 / 2^10 units for 2^10 frames is exactly the limit.
    let mut edge = base.clone();
    edge.inputs = (0..1024)
        .map(|f| base.inputs[f % base.inputs.len()].clone())
        .collect();
    let others = 16 * 16 + edge.graph.edges.len() as u64 + 1;
    edge.graph.node_count = u32::try_from((1u64 << 20) - others).unwrap();
    assert_eq!(check_work(&edge), Ok(MAX_SESSION_WORK));
    edge.graph.node_count += 1;
    assert!(check_work(&edge).unwrap_err().contains("[CONF.SYNC.WORK]"));
}
