//! Named checks of driver-protocol rules that no other test asserts ([DRIVER.PROC.START],
//! [DRIVER.PROC.ORDER], [DRIVER.PROC.STDERR], [DRIVER.PROC.EOF], [DRIVER.MSG.HELLO],
//! [DRIVER.MSG.REQUEST], [DRIVER.MSG.REPLY], [DRIVER.ENC.CASE], [DRIVER.ENC.REAL],
//! [DRIVER.ENC.OUTCOME], [DRIVER.ENC.U64], [DRIVER.ENC.GRID]): small drivers (sh or python3
//! scripts written here) against the kit's driver pool and `certify --port`, and one logged
//! port run (graph and grid-search, one generated case) whose request lines are read back and
//! compared with the committed vectors they came from.

use crate::tools;

use onepath_conformance::implementation::GraphOp;
use onepath_conformance::port::driver::{parse_hello, parse_reply, Pool, Reply};
use onepath_conformance::port::messages::{BoundsReply, OpsReply, OutcomeReply};
use onepath_conformance::port::protocol::{self, PROTOCOL, PROTOCOL_VERSION, SPEC_VERSION};
use onepath_conformance::port::run::{certify_port, PortOptions};
use onepath_conformance::port::wire::{decode_outcome, parse_real, Real};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

/// A handshake answer claiming `graph` at L4.
fn hello_reply() -> String {
    serde_json::json!({
        "protocol": PROTOCOL, "version": PROTOCOL_VERSION, "port": "pinned",
        "port_version": "0", "spec_version": SPEC_VERSION, "claims": {"graph": 4},
    })
    .to_string()
}

/// A fresh folder of this test binary.
fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("onepath-pinned-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A small request of the graph family.
fn small_request() -> onepath_conformance::port::messages::Request {
    protocol::run_ops(&[GraphOp::AddNode])
}

// ------------------------------------------------------------------ the logged port run

/// What the logged run produced: every line the kit wrote to the driver, and the report's
/// verdict and protocol / unimplemented failures.
struct Logged {
    lines: Vec<String>,
    problems: Vec<String>,
    /// (what, found) of the protocol section.
    protocol: Vec<(String, String)>,
    /// (case, what) of the unimplemented section.
    unimplemented: Vec<(String, String)>,
}

/// Logs every line it reads (bytes as received), answers the handshake claiming graph and
/// grid-search, answers every request `unimplemented`, and exits with status 3 at end of input.
const LOG_DRIVER: &str = r#"import sys, json
log = open(sys.argv[1], "ab")
inp = sys.stdin.buffer
log.write(inp.readline()); log.flush()
sys.stdout.write(json.dumps({"protocol": "onepath-driver", "version": 2, "port": "logged",
    "port_version": "0", "spec_version": "1.1.0", "claims": {"graph": 4, "grid-search": 4}}) + "\n")
sys.stdout.flush()
for line in inp:
    log.write(line); log.flush()
    sys.stdout.write(json.dumps({"id": json.loads(line)["id"], "unimplemented": True}) + "\n")
    sys.stdout.flush()
sys.exit(3)
"#;

fn logged() -> &'static Logged {
    static RUN: OnceLock<Logged> = OnceLock::new();
    RUN.get_or_init(|| {
        tools::require_python3();
        let dir = temp("logged");
        let script = dir.join("driver.py");
        std::fs::write(&script, LOG_DRIVER).unwrap();
        let log = dir.join("lines.log");
        let mut o = PortOptions::new(&format!("python3 {} {}", script.display(), log.display()));
        o.cases = 1;
        o.threads = 1;
        o.timeout = Duration::from_secs(60);
        o.families =
            onepath_conformance::config::FamilySet::parse("graph,grid-search").expect("families");
        let r = certify_port(o);
        let section = |name: &str| {
            r.report
                .sections
                .iter()
                .find(|s| s.name == name)
                .unwrap_or_else(|| panic!("no section {name}"))
        };
        let text = std::fs::read_to_string(&log).expect("the driver logged its input");
        let out = Logged {
            lines: text.split_inclusive('\n').map(str::to_string).collect(),
            problems: r.problems.clone(),
            protocol: section("protocol")
                .failures
                .iter()
                .map(|f| (f.what.clone(), f.found.clone()))
                .collect(),
            unimplemented: section("unimplemented")
                .failures
                .iter()
                .map(|f| (f.case.clone().unwrap_or_default(), f.what.clone()))
                .collect(),
        };
        let _ = std::fs::remove_dir_all(&dir);
        out
    })
}

/// The request lines of the logged run (the handshake line left out), parsed.
fn requests() -> Vec<Value> {
    logged().lines[1..]
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l:.200}")))
        .collect()
}

fn vector(family_dir: &str, id: &str) -> Value {
    let p = tools::vectors_dir()
        .join(family_dir)
        .join(format!("{id}.json"));
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap()
}

/// `GRAPH-0007` → true.
fn is_vector_id(label: &str, prefix: &str) -> bool {
    label
        .strip_prefix(prefix)
        .is_some_and(|n| n.len() == 4 && n.bytes().all(|b| b.is_ascii_digit()))
}

fn is_hex(s: &str) -> bool {
    s.bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn is_real_bits(v: &Value) -> bool {
    v.as_str().is_some_and(|s| s.len() == 16 && is_hex(s))
}

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    k.sort_unstable();
    k
}

// pins [DRIVER.MSG.REQUEST]: every request line the kit wrote in a logged run must be
// {id,case,op,args} with positive strictly increasing ids, vector ids or case:<12 hex> labels, the
// report naming each by them
#[test]
fn requests_carry_increasing_ids_and_the_labels_the_report_uses() {
    let reqs = requests();
    assert!(reqs.len() > 1000, "{} requests", reqs.len());
    let mut last = 0u64;
    let mut by_id = std::collections::BTreeMap::new();
    for r in &reqs {
        assert_eq!(keys(r), ["args", "case", "id", "op"], "{r:.200}");
        assert!(r["args"].is_object(), "{r:.200}");
        let id = r["id"].as_u64().expect("an integer id");
        assert!(
            id > last,
            "id {id} after {last}: ids are positive and increase"
        );
        last = id;
        let label = r["case"].as_str().expect("a string label");
        if let Some(h) = label.strip_prefix("case:") {
            assert!(h.len() == 12 && is_hex(h), "{label}");
        }
        by_id.insert(
            id,
            (label.to_string(), r["op"].as_str().unwrap().to_string()),
        );
    }
    for (prefix, op) in [("GRAPH-", "run_case"), ("GRID-", "run_grid")] {
        assert!(
            reqs.iter()
                .any(|r| is_vector_id(r["case"].as_str().unwrap(), prefix) && r["op"] == op),
            "no {op} request labelled by its {prefix} vector id"
        );
    }
    assert!(reqs
        .iter()
        .any(|r| r["case"].as_str().unwrap().starts_with("sparse#")));
    // The unimplemented section names each request by the label and op it was sent with.
    let u = &logged().unimplemented;
    assert!(!u.is_empty());
    for (case, what) in u {
        // `port: unimplemented (<op>, request <id>, section <s>)`
        let inner = what
            .strip_prefix("port: unimplemented (")
            .unwrap_or_else(|| panic!("{what}"));
        let mut parts = inner.split(", ");
        let op = parts.next().unwrap();
        let id: u64 = parts
            .next()
            .and_then(|p| p.strip_prefix("request "))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{what}"));
        let (sent_label, sent_op) = by_id
            .get(&id)
            .unwrap_or_else(|| panic!("request {id} was never sent"));
        assert_eq!(
            (case.as_str(), op),
            (sent_label.as_str(), sent_op.as_str()),
            "{what}"
        );
    }
}

// pins [DRIVER.MSG.HELLO]: the kit's first line must be exactly the spec's hello, and a handshake
// answer with another protocol or version, a missing or unknown member, an unknown family or a
// level outside 1-4 is refused
#[test]
fn the_hello_is_exact_and_a_handshake_out_of_schema_is_refused() {
    assert_eq!(
        logged().lines[0],
        "{\"protocol\":\"onepath-driver\",\"version\":2,\"spec_version\":\"1.1.0\"}\n"
    );
    let good: Value = serde_json::from_str(&hello_reply()).unwrap();
    let h = parse_hello(&good.to_string()).expect("a valid handshake");
    assert_eq!(
        (h.port.as_str(), h.claims.get("graph")),
        ("pinned", Some(&4))
    );
    let with = |key: &str, v: Value| {
        let mut m = good.clone();
        m[key] = v;
        m.to_string()
    };
    let without = |key: &str| {
        let mut m = good.clone();
        m.as_object_mut().unwrap().remove(key);
        m.to_string()
    };
    let bad = [
        ("another protocol", with("protocol", "onepath".into())),
        ("version 3", with("version", 3.into())),
        ("version 1", with("version", 1.into())),
        ("no port_version", without("port_version")),
        ("no claims", without("claims")),
        ("unknown member", with("extra", 1.into())),
        ("port not a string", with("port", 7.into())),
        (
            "unknown family",
            with("claims", serde_json::json!({"graphs": 4})),
        ),
        ("level 0", with("claims", serde_json::json!({"graph": 0}))),
        ("level 5", with("claims", serde_json::json!({"graph": 5}))),
    ];
    for (what, line) in bad {
        assert!(parse_hello(&line).is_err(), "{what} accepted: {line}");
    }
    for family in [
        "graph",
        "grids",
        "grid-search",
        "replanning",
        "flow-field",
        "hex-search",
        "voxel-search",
        "hpa",
        "grid-bidi",
    ] {
        let line = with("claims", serde_json::json!({ family: 1 }));
        assert!(parse_hello(&line).is_ok(), "{family} refused");
    }
}

// pins [DRIVER.ENC.CASE]: every logged request of a graph vector must carry as `case` exactly
// {graph, landmarks} of the vector's scenario, numbers as written there; another shape or
// re-encoded reals differ
#[test]
fn a_vector_case_travels_as_its_scenario_members() {
    let mut compared = 0;
    for r in requests() {
        let label = r["case"].as_str().unwrap();
        let Some(case) = r["args"].get("case") else {
            continue;
        };
        assert_eq!(keys(case), ["graph", "landmarks"], "{label}");
        if !is_vector_id(label, "GRAPH-") {
            continue;
        }
        let v = vector("graphs", label);
        let scenarios: Vec<Value> = v["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| serde_json::json!({"graph": c["graph"], "landmarks": c["landmarks"]}))
            .collect();
        assert!(
            scenarios.contains(case),
            "{label} / {}: the case is not the vector's scenario: {case:.300}",
            r["op"]
        );
        compared += 1;
    }
    assert!(compared > 20, "{compared} vector requests compared");
}

/// Every JSON number in `v` that is not an integer, with its path.
fn floats(v: &Value, path: String, out: &mut Vec<String>) {
    match v {
        Value::Number(n) if n.is_f64() => out.push(path),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| floats(x, format!("{path}/{i}"), out)),
        Value::Object(m) => m
            .iter()
            .for_each(|(k, x)| floats(x, format!("{path}/{k}"), out)),
        _ => {}
    }
}

// pins [DRIVER.ENC.REAL]: the reals of logged graph requests outside `case` (link points,
// distances, script weights) must be 16 lowercase hex digits and never JSON numbers, and a reply
// real must be one too
#[test]
fn graph_reals_travel_as_bit_patterns() {
    let reqs = requests();
    let (mut links, mut weights) = (0, 0);
    for r in &reqs {
        let op = r["op"].as_str().unwrap();
        if [
            "run_case",
            "run_sliced",
            "build_links",
            "run_hooked",
            "run_cancelled",
            "run_ops",
            "build_landmarks",
            "lower_bounds",
            "deserialize_oplm",
        ]
        .contains(&op)
        {
            let mut args = r["args"].clone();
            args.as_object_mut().unwrap().remove("case");
            let mut f = Vec::new();
            floats(&args, String::new(), &mut f);
            assert!(f.is_empty(), "{op}: JSON numbers for reals at {f:?}");
        }
        if op == "build_links" {
            let a = &r["args"];
            assert!(is_real_bits(&a["max_distance"]), "{a:.200}");
            for p in a["points"].as_array().unwrap() {
                assert!(p.as_array().unwrap().iter().all(is_real_bits), "{p}");
                links += 1;
            }
        }
        if op == "run_ops" {
            for o in r["args"]["ops"].as_array().unwrap() {
                for kind in ["csr", "from_edges"] {
                    if let Some(e) = o.get(kind).and_then(|x| x["edges"].as_array()) {
                        for edge in e {
                            assert!(is_real_bits(&edge[2]), "{kind} edge {edge}");
                            weights += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(
        links > 0 && weights > 0,
        "{links} points, {weights} weights"
    );
    // The kit's side of the encoding, and its strict reading of a reply's real.
    assert_eq!(
        serde_json::to_string(&Real(1.5)).unwrap(),
        "\"3ff8000000000000\""
    );
    assert_eq!(
        serde_json::to_string(&Real(-0.0)).unwrap(),
        "\"8000000000000000\""
    );
    assert_eq!(parse_real("3ff8000000000000").unwrap(), 1.5);
    for s in [
        "3FF8000000000000",
        "3ff800000000000",
        "3ff80000000000000",
        "1.5",
    ] {
        assert!(parse_real(s).is_err(), "{s}");
    }
    match serde_json::from_str::<BoundsReply>(r#"{"bounds":["3ff8000000000000"]}"#) {
        Ok(BoundsReply::Bounds(b)) => assert_eq!(b.bounds, [Real(1.5)]),
        other => panic!("{other:?}"),
    }
    assert!(serde_json::from_str::<BoundsReply>(r#"{"bounds":[1.5]}"#).is_err());
}

// pins [DRIVER.ENC.U64]: run_ops node and landmark counts in logged requests must be canonical
// decimal strings, and a result value that is a JSON number or has a leading zero must not decode
#[test]
fn run_ops_counts_and_values_travel_as_decimal_strings() {
    let dec = |v: &Value| {
        v.as_str().is_some_and(|s| {
            !s.is_empty()
                && s.bytes().all(|b| b.is_ascii_digit())
                && (s == "0" || !s.starts_with('0'))
        })
    };
    let mut seen = [0usize; 3];
    for r in requests().iter().filter(|r| r["op"] == "run_ops") {
        for o in r["args"]["ops"].as_array().unwrap() {
            if let Some(n) = o.get("new_graph") {
                assert!(dec(n), "new_graph {n}");
                seen[0] += 1;
            }
            if let Some(n) = o.get("build_landmarks") {
                assert!(dec(n), "build_landmarks {n}");
                seen[1] += 1;
            }
            if let Some(n) = o.get("csr").map(|c| &c["node_count"]) {
                assert!(dec(n), "csr node_count {n}");
                seen[2] += 1;
            }
            if let Some(n) = o.get("from_edges").map(|c| &c["node_count"]) {
                assert!(n.is_null() || dec(n), "from_edges node_count {n}");
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    let v = serde_json::from_str::<OpsReply>(r#"{"results":[{"value":"18446744073709551615"}]}"#)
        .expect("a decimal value");
    assert_eq!(
        protocol::ops_reply(v, 1).unwrap(),
        [Ok(u64::MAX)],
        "the value is read whole"
    );
    for bad in [
        r#"{"results":[{"value":5}]}"#,
        r#"{"results":[{"value":"05"}]}"#,
        r#"{"results":[{"value":"-5"}]}"#,
        r#"{"results":[{"value":"18446744073709551616"}]}"#,
    ] {
        assert!(serde_json::from_str::<OpsReply>(bad).is_err(), "{bad}");
    }
}

// pins [DRIVER.ENC.GRID]: a logged run_grid request of a grid vector must carry one of the vector's
// maps exactly, cells as lowercase hex, and the nine option members with numbers for reals
#[test]
fn grid_maps_travel_in_the_vector_map_form() {
    let mut compared = 0;
    for r in requests().iter().filter(|r| r["op"] == "run_grid") {
        let label = r["case"].as_str().unwrap();
        let map = &r["args"]["map"];
        assert_eq!(
            keys(map),
            ["cells", "height", "multipliers", "space", "width"],
            "{label}"
        );
        let (w, h) = (
            map["width"].as_u64().unwrap(),
            map["height"].as_u64().unwrap(),
        );
        let cells = map["cells"].as_str().unwrap();
        assert!(
            cells.len() as u64 == 2 * w * h && is_hex(cells),
            "{label}: cells"
        );
        let o = &r["args"]["options"];
        assert_eq!(
            keys(o),
            [
                "agent_size",
                "algorithm",
                "blocked",
                "budget",
                "cell_cost",
                "connectivity",
                "diagonal",
                "record",
                "weight"
            ],
            "{label}"
        );
        assert!(matches!(o["connectivity"].as_u64(), Some(4 | 8)), "{o}");
        assert!(matches!(o["diagonal"].as_u64(), Some(0..=2)), "{o}");
        assert!(o["weight"].is_number(), "the weight is a JSON number: {o}");
        if is_vector_id(label, "GRID-") {
            let v = vector("grids", label);
            assert!(
                v["cases"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|c| c["map"] == *map),
                "{label}: the map is not one of the vector's"
            );
            compared += 1;
        }
    }
    assert!(compared > 10, "{compared} vector maps compared");
}

// pins [DRIVER.ENC.OUTCOME]: an outcome must decode only from its exact lowercase hex: trailing
// bytes, uppercase or odd digits are refused, and the kit writes the lowercase hex of the canonical
// bytes
#[test]
fn outcomes_are_lowercase_hex_decoded_strictly() {
    use onepath_conformance::outcome::{AlgorithmCode, Outcome, PathOutcome, StatusCode};
    let path = Outcome::Path(PathOutcome {
        algorithm: AlgorithmCode::Astar,
        status: StatusCode::Found,
        // 0x3fb999999999999a: hex letters, so an uppercase copy differs.
        cost: 0.1,
        iterations: 3,
        expanded_count: 2,
        nodes: vec![0, 4, 1],
        expanded: vec![0, 4],
    });
    for o in [path, Outcome::Error("no".into())] {
        let bytes = o.encode();
        assert_eq!(decode_outcome(&bytes).unwrap(), o);
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode_outcome(&longer).is_err(), "trailing byte accepted");
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let reply =
            |h: &str| serde_json::from_str::<OutcomeReply>(&format!(r#"{{"outcome":"{h}"}}"#));
        assert_eq!(reply(&hex).expect("the exact hex").outcome.0, o);
        assert_eq!(
            serde_json::to_value(reply(&hex).unwrap()).unwrap()["outcome"],
            Value::String(hex.clone())
        );
        assert_ne!(hex, hex.to_uppercase());
        for bad in [format!("{hex}00"), hex.to_uppercase(), format!("{hex}0")] {
            assert!(reply(&bad).is_err(), "{bad}");
        }
    }
}

// pins [DRIVER.PROC.EOF]: a driver that exits 3 once its stdin is closed must fail the logged run
// (protocol failure and verdict problem), while exit 0, a signal or a driver still running after
// 0.5 s is not judged
#[test]
fn a_nonzero_exit_after_end_of_input_fails_the_run() {
    let l = logged();
    assert!(
        l.protocol.iter().any(
            |(what, found)| what == "port: exit status after end of input"
                && found == "exit status 3"
        ),
        "{:?}",
        l.protocol
    );
    assert!(
        l.problems.iter().any(|p| p.contains(
            "driver(s) exited with a status other than 0 after the kit closed their stdin (first: 3)"
        )),
        "{:?}",
        l.problems
    );
    let hello = hello_reply();
    let pool_after = |tail: &str| {
        let pool = Pool::new(
            &format!("read -r l; echo '{hello}'; {tail}"),
            Duration::from_secs(20),
        );
        pool.hello().expect("a handshake");
        let t = std::time::Instant::now();
        let bad = pool.shutdown();
        (bad, t.elapsed())
    };
    assert_eq!(pool_after("cat >/dev/null; exit 3").0, [3]);
    assert_eq!(pool_after("cat >/dev/null; exit 0").0, Vec::<i32>::new());
    assert_eq!(
        pool_after("cat >/dev/null; kill -9 $$").0,
        Vec::<i32>::new()
    );
    let (bad, took) = pool_after("exec sleep 30");
    assert_eq!(
        bad,
        Vec::<i32>::new(),
        "a driver still running is not judged"
    );
    assert!(took < Duration::from_secs(5), "the wait is short: {took:?}");
}

// ------------------------------------------------------------------ small drivers

/// The JSON report of `certify --json --port command --family graph` with `extra` flags, and
/// the exit code.
fn certify(command: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .args([
            "certify",
            "--json",
            "--port",
            command,
            "--family",
            "graph",
            "--port-cases",
            "1",
            "--threads",
            "1",
        ])
        .args(extra)
        .output()
        .unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON report ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), v)
}

/// The `name=value` word of `text`.
fn word<'a>(text: &'a str, name: &str) -> &'a str {
    let at = text
        .find(&format!("{name}="))
        .unwrap_or_else(|| panic!("no {name}= in {text}"))
        + name.len()
        + 1;
    text[at..]
        .split(|c: char| c.is_whitespace() || c == '"' || c == '\\')
        .next()
        .unwrap()
}

// pins [DRIVER.PROC.START]: a driver started by certify --port must be sh -c in a process group it
// leads, with ONEPATH_DRIVER=1 and ulimit -v of the flag's MiB (default 4096, 0 none), reading the
// hello on stdin
#[test]
fn certify_starts_the_driver_with_sh_in_its_own_group_under_the_memory_limit() {
    // The driver reports how it was started in place of a handshake (the run then fails at once).
    let command = format!(
        "read -r l; [ \"$l\" = '{}' ] && h=exact || h=other; \
         echo \"pgid=$(cut -d' ' -f5 /proc/$$/stat) pid=$$ vm=$(ulimit -v) \
         env=${{ONEPATH_DRIVER:-unset}} hello=$h\"",
        serde_json::to_string(&protocol::hello()).unwrap()
    );
    let mine = std::process::Command::new("sh")
        .args(["-c", "ulimit -v"])
        .output()
        .unwrap();
    let mine = String::from_utf8_lossy(&mine.stdout).trim().to_string();
    for (extra, vm) in [
        (vec![], "4194304".to_string()),
        (vec!["--memory-limit-mb", "100"], "102400".to_string()),
        (vec!["--memory-limit-mb", "0"], mine.clone()),
    ] {
        let (code, v) = certify(&command, &extra);
        assert_eq!(code, Some(1), "{extra:?}: {v}");
        let problem = v["port"]["problems"][0].as_str().unwrap();
        assert!(problem.starts_with("handshake"), "{problem}");
        assert_eq!(word(problem, "pgid"), word(problem, "pid"), "{problem}");
        assert_eq!(word(problem, "vm"), vm, "{extra:?}: {problem}");
        assert_eq!(word(problem, "env"), "1", "{problem}");
        assert_eq!(
            word(problem, "hello"),
            "exact",
            "the hello came on stdin: {problem}"
        );
    }
}

/// Reads stdin with `os.read`: a line read together with more input means the kit sent a line
/// before the previous one was answered (exit 4), as does input that arrives while a request is
/// being answered; a first line that is not the hello exits 3; ids that do not increase exit 5.
const DISCIPLINE: &str = r#"import os, sys, json, select, time
buf = b""
def line():
    global buf
    while b"\n" not in buf:
        chunk = os.read(0, 1 << 16)
        if not chunk:
            sys.exit(0)
        buf += chunk
    l, _, buf = buf.partition(b"\n")
    if buf:
        os._exit(4)
    return json.loads(l)
h = line()
if h.get("protocol") != "onepath-driver" or "id" in h:
    os._exit(3)
os.write(1, (sys.argv[1] + "\n").encode())
last = 0
while True:
    r = line()
    if r["id"] <= last:
        os._exit(5)
    last = r["id"]
    time.sleep(0.05)
    if select.select([0], [], [], 0)[0]:
        os._exit(4)
    os.write(1, (json.dumps({"id": r["id"], "unimplemented": True}) + "\n").encode())
"#;

// pins [DRIVER.PROC.ORDER]: two threads sharing a pool must get one driver each, each opened by its
// own hello and sent one request at a time with increasing ids; a pipelined, shared or hello-less
// driver exits and crashes
#[test]
fn each_driver_gets_its_own_hello_and_one_request_at_a_time() {
    tools::require_python3();
    let dir = temp("order");
    let script = dir.join("driver.py");
    std::fs::write(&script, DISCIPLINE).unwrap();
    let pool = Pool::new(
        &format!("python3 {} '{}'", script.display(), hello_reply()),
        Duration::from_secs(30),
    );
    let barrier = std::sync::Barrier::new(2);
    let replies: Vec<Reply> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    barrier.wait();
                    (0..6)
                        .map(|i| pool.request(&format!("order#{i}"), &small_request()).1)
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    assert!(
        replies.iter().all(|r| *r == Reply::Unimplemented),
        "{replies:?}"
    );
    assert_eq!(
        pool.starts.load(std::sync::atomic::Ordering::SeqCst),
        2,
        "one driver per concurrent caller"
    );
    drop(pool);
    let _ = std::fs::remove_dir_all(&dir);
}

// pins [DRIVER.PROC.STDERR]: a crash report must quote the last 4 stderr lines, each cut to its
// first 120 bytes: a longer tail, a longer line or the first lines instead fail
#[test]
fn a_crash_quotes_the_last_four_stderr_lines_cut_to_120_bytes() {
    let long = "e".repeat(1000);
    let pool = Pool::new(
        &format!(
            "read -r l; echo '{}'; read -r l; for i in 1 2 3; do echo l$i >&2; done; \
             echo {long} >&2; echo l5 >&2; echo l6 >&2; sleep 0.3; exit 7",
            hello_reply()
        ),
        Duration::from_secs(20),
    );
    let (_, reply) = pool.request("stderr", &small_request());
    let Reply::Crash(m) = reply else {
        panic!("{reply:?}")
    };
    let tail = format!("; stderr: l3 | {} | l5 | l6", "e".repeat(120));
    assert!(m.ends_with(&tail), "{m}");
    assert!(!m.contains("l2") && !m.contains(&"e".repeat(121)), "{m}");
}

// pins [DRIVER.MSG.REPLY]: only {id, ok|unimplemented|error} with the pending id is a reply,
// anything else is malformed, and an `error` reply is a driver error whose driver is kept (one
// start for three)
#[test]
fn a_reply_has_exactly_two_members_and_an_error_keeps_its_driver() {
    assert_eq!(
        parse_reply("{\"id\":3,\"ok\":{\"a\":1}}", 3),
        Reply::Ok("{\"a\":1}".into())
    );
    assert_eq!(
        parse_reply("{\"id\":3,\"unimplemented\":true}", 3),
        Reply::Unimplemented
    );
    assert_eq!(
        parse_reply("{\"id\":3,\"error\":\"m\"}", 3),
        Reply::DriverError("m".into())
    );
    for line in [
        "{\"id\":4,\"ok\":{}}",
        "{\"ok\":{}}",
        "{\"id\":3}",
        "{\"id\":3,\"ok\":{},\"error\":\"m\"}",
        "{\"id\":3,\"ok\":{},\"x\":1}",
        "{\"id\":3,\"unimplemented\":false}",
        "{\"id\":3,\"error\":7}",
        "{\"id\":3,\"result\":{}}",
        "[3,{}]",
        "not json",
    ] {
        assert!(
            matches!(parse_reply(line, 3), Reply::Malformed(_)),
            "{line}: {:?}",
            parse_reply(line, 3)
        );
    }
    let pool = Pool::new(
        &format!(
            "read -r l; echo '{}'; while read -r l; do id=${{l#*\\\"id\\\":}}; id=${{id%%,*}}; \
             printf '{{\"id\":%s,\"error\":\"boom\"}}\\n' \"$id\"; done",
            hello_reply()
        ),
        Duration::from_secs(20),
    );
    for i in 0..3 {
        let (_, reply) = pool.request(&format!("error#{i}"), &small_request());
        assert_eq!(reply, Reply::DriverError("boom".into()));
    }
    assert_eq!(
        pool.starts.load(std::sync::atomic::Ordering::SeqCst),
        1,
        "the driver is kept"
    );
}
