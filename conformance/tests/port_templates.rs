//! The driver templates of `port init` ([CONF.CLI.PORT_INIT], conformance/ports/templates/):
//! each is written into a temp folder and certified with `--family hex-search` wherever its
//! toolchain is on PATH (`node`; `go`; `mcs` and `mono`), and the `--json` report must be that
//! of a port that claims nothing and answers every op `unimplemented`: the handshake read, no
//! protocol failure, every request of the family unimplemented, the family at L0, and the only
//! problem of the verdict the unclaimed family. A missing toolchain is a visible skip line:
//!
//! ```text
//! test port_templates::go ... skipped: `go` is not on PATH
//! ```
//!
//! `ONEPATH_REQUIRE_TEMPLATES=1` turns a skip into a failure. A faulty variant of the
//! JavaScript template (a reply with a third member) must be rejected by the same judgement,
//! so the test is shown to fail on a template that breaks the protocol.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const BIN: &str = env!("CARGO_BIN_EXE_onepath-conformance");

enum Outcome {
    Passed(String),
    Skipped(String),
    Failed(String),
}

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(tool).is_file()))
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "onepath-port-templates-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn init(lang: &str, dir: &Path) -> Result<(), String> {
    let out = Command::new(BIN)
        .args(["port", "init", "--lang", lang])
        .arg(dir)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "port init --lang {lang} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(())
}

fn run(cmd: &mut Command, what: &str) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{what}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Certifies `port` on hex-search with the smallest case count and returns the exit status and
/// the `--json` report.
fn certify(port: &str) -> Result<(Option<i32>, Value), String> {
    let out = Command::new(BIN)
        .args([
            "certify",
            "--port",
            port,
            "--family",
            "hex-search",
            "--port-cases",
            "1",
        ])
        .args([
            "--timeout",
            "20",
            "--threads",
            "1",
            "--heartbeat",
            "0",
            "--json",
        ])
        .output()
        .map_err(|e| e.to_string())?;
    let report: Value = serde_json::from_slice(&out.stdout).map_err(|e| {
        format!(
            "no JSON report ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })?;
    Ok((out.status.code(), report))
}

/// The judgement: the report of a port that claims nothing and answers every op unimplemented.
fn judge(status: Option<i32>, r: &Value) -> Result<String, String> {
    let p = &r["port"];
    let mut bad = Vec::new();
    if status != Some(1) {
        bad.push(format!(
            "exit status {status:?}, expected 1 (a port that claims nothing fails)"
        ));
    }
    if r["ok"] != Value::Bool(false) {
        bad.push(format!("ok = {}", r["ok"]));
    }
    let h = &p["handshake"];
    if h["claims"] != serde_json::json!({})
        || h["spec_version"] != "1.1.0"
        || h["port"] != "my-port"
    {
        bad.push(format!("handshake {h}"));
    }
    let problems = serde_json::json!(["--family hex-search: the port does not claim it"]);
    if p["problems"] != problems {
        bad.push(format!("problems {}, expected {problems}", p["problems"]));
    }
    if p["not_run"] != 0 {
        bad.push(format!("not_run {}", p["not_run"]));
    }
    let fams = p["families"].as_array().cloned().unwrap_or_default();
    let mut requests = 0;
    match fams.as_slice() {
        [f] => {
            requests = f["requests"].as_u64().unwrap_or(0);
            let unimplemented: u64 = f["unimplemented"]
                .as_object()
                .map(|m| m.values().filter_map(Value::as_u64).sum())
                .unwrap_or(0);
            let run_lattice = f["unimplemented"]["run_lattice:hex-search"]
                .as_u64()
                .unwrap_or(0);
            if f["family"] != "hex-search"
                || !f["claimed"].is_null()
                || f["reached"] != "L0"
                || f["answered"] != 0
                || requests == 0
                || unimplemented != requests
                || run_lattice == 0
            {
                bad.push(format!("family {f}"));
            }
        }
        _ => bad.push(format!("families {}", p["families"])),
    }
    let section = |name: &str| {
        r["sections"]
            .as_array()
            .and_then(|s| s.iter().find(|s| s["name"] == name))
            .cloned()
            .unwrap_or(Value::Null)
    };
    let protocol = section("protocol");
    if protocol["failed"] != 0 || protocol["checks"] != requests {
        bad.push(format!(
            "protocol section {} (expected {requests} checks, 0 failed)",
            serde_json::to_string(&protocol["failures"].get(0)).unwrap_or_default()
        ));
        bad.push(format!(
            "protocol counts: checks {} failed {}",
            protocol["checks"], protocol["failed"]
        ));
    }
    let un = section("unimplemented");
    if un["checks"] != requests || un["failed"] != requests {
        bad.push(format!(
            "unimplemented section checks {} failed {}",
            un["checks"], un["failed"]
        ));
    }
    if bad.is_empty() {
        Ok(format!("{requests} requests, all unimplemented"))
    } else {
        Err(bad.join("; "))
    }
}

fn template(lang: &str, tools: &[&str], port: impl Fn(&Path) -> Result<String, String>) -> Outcome {
    if let Some(t) = tools.iter().find(|t| !on_path(t)) {
        return Outcome::Skipped(format!("`{t}` is not on PATH"));
    }
    let dir = temp_dir(lang);
    let result = (|| {
        init(lang, &dir)?;
        let cmd = port(&dir)?;
        let t0 = std::time::Instant::now();
        let (status, report) = certify(&cmd)?;
        judge(status, &report).map(|s| format!("{s}; certify took {:.1?}", t0.elapsed()))
    })();
    let _ = std::fs::remove_dir_all(&dir);
    match result {
        Ok(s) => Outcome::Passed(s),
        Err(e) => Outcome::Failed(e),
    }
}

fn ts() -> Outcome {
    template("ts", &["node"], |d| {
        Ok(format!("node {}/driver.mjs", d.display()))
    })
}

fn go() -> Outcome {
    template("go", &["go"], |d| {
        let cache = d.join(".gocache");
        run(
            Command::new("go")
                .args(["build", "-o", "driver", "."])
                .current_dir(d)
                .env("GOCACHE", &cache)
                .env("GOPATH", d.join(".gopath"))
                .env("GOFLAGS", "-mod=mod")
                .env("GOPROXY", "off"),
            "go build",
        )?;
        Ok(format!("{}/driver", d.display()))
    })
}

fn cs() -> Outcome {
    template("cs", &["mcs", "mono"], |d| {
        run(
            Command::new("mcs")
                .args(["-out:driver.exe", "Driver.cs"])
                .current_dir(d),
            "mcs",
        )?;
        Ok(format!("mono {}/driver.exe", d.display()))
    })
}

/// The judgement rejects a faulty template: replies with a third member are malformed.
fn ts_faulty() -> Outcome {
    if !on_path("node") {
        return Outcome::Skipped("`node` is not on PATH".into());
    }
    let dir = temp_dir("ts-faulty");
    let result = (|| {
        init("ts", &dir)?;
        let path = dir.join("driver.mjs");
        let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        let good = "send({ id, [kind]: value });";
        if !text.contains(good) {
            return Err(format!("the template no longer has `{good}`"));
        }
        std::fs::write(
            &path,
            text.replace(good, "send({ id, [kind]: value, extra: 1 });"),
        )
        .map_err(|e| e.to_string())?;
        let (status, report) = certify(&format!("node {}", path.display()))?;
        match judge(status, &report) {
            Ok(s) => Err(format!("a reply with an extra member was accepted: {s}")),
            Err(why) if why.contains("protocol") => {
                Ok(format!("rejected: {}", &why[..why.len().min(160)]))
            }
            Err(why) => Err(format!(
                "rejected, but not for its protocol failures: {why}"
            )),
        }
    })();
    let _ = std::fs::remove_dir_all(&dir);
    match result {
        Ok(s) => Outcome::Passed(s),
        Err(e) => Outcome::Failed(e),
    }
}

/// `port init` refuses a folder that is not empty, with exit 2, and writes nothing into it.
fn refuses_non_empty() -> Outcome {
    let dir = temp_dir("non-empty");
    let result = (|| {
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        std::fs::write(dir.join("keep.txt"), "mine").map_err(|e| e.to_string())?;
        let out = Command::new(BIN)
            .args(["port", "init", "--lang", "go"])
            .arg(&dir)
            .output()
            .map_err(|e| e.to_string())?;
        let err = String::from_utf8_lossy(&out.stderr);
        let names: Vec<_> = std::fs::read_dir(&dir)
            .map_err(|e| e.to_string())?
            .filter_map(|e| e.ok().map(|e| e.file_name()))
            .collect();
        if out.status.code() != Some(2) || !err.contains("is not empty") || names.len() != 1 {
            return Err(format!(
                "status {:?}, stderr {err:?}, folder {names:?}",
                out.status.code()
            ));
        }
        let file = dir.join("keep.txt");
        let out = Command::new(BIN)
            .args(["port", "init", "--lang", "ts"])
            .arg(&file)
            .output();
        match out {
            Ok(o) if o.status.code() == Some(2) => Ok("exit 2, nothing written".to_string()),
            other => Err(format!("a file as DIR: {other:?}")),
        }
    })();
    let _ = std::fs::remove_dir_all(&dir);
    match result {
        Ok(s) => Outcome::Passed(s),
        Err(e) => Outcome::Failed(e),
    }
}

/// protocol.d.ts is what scripts/gen_port_template_types.py makes of the committed schemas.
fn types_fresh() -> Outcome {
    if !on_path("python3") {
        return Outcome::Skipped("`python3` is not on PATH".into());
    }
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/gen_port_template_types.py");
    match run(
        Command::new("python3").arg(&script).arg("--check"),
        "gen_port_template_types.py --check",
    ) {
        Ok(()) => Outcome::Passed("fresh".into()),
        Err(e) => Outcome::Failed(e),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tests: [(&str, fn() -> Outcome); 6] = [
        ("refuses_non_empty", refuses_non_empty),
        ("types_fresh", types_fresh),
        ("ts", ts),
        ("ts_faulty_rejected", ts_faulty),
        ("go", go),
        ("cs", cs),
    ];
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let chosen: Vec<_> = tests
        .iter()
        .filter(|(n, _)| {
            filters.is_empty()
                || filters
                    .iter()
                    .any(|f| format!("port_templates::{n}").contains(f.as_str()))
        })
        .collect();
    if args.iter().any(|a| a == "--list") {
        for (n, _) in &chosen {
            println!("port_templates::{n}: test");
        }
        return ExitCode::SUCCESS;
    }
    let require = std::env::var("ONEPATH_REQUIRE_TEMPLATES").is_ok_and(|v| v == "1");
    println!("\nrunning {} tests", chosen.len());
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    for (name, f) in &chosen {
        let line = match f() {
            Outcome::Passed(s) => {
                passed += 1;
                format!("ok ({s})")
            }
            Outcome::Skipped(why) if !require => {
                skipped += 1;
                format!("skipped: {why}")
            }
            Outcome::Skipped(why) => {
                failed += 1;
                format!("FAILED: ONEPATH_REQUIRE_TEMPLATES=1 but {why}")
            }
            Outcome::Failed(why) => {
                failed += 1;
                format!("FAILED: {why}")
            }
        };
        println!("test port_templates::{name} ... {line}");
    }
    let verdict = if failed == 0 { "ok" } else { "FAILED" };
    println!("\ntest result: {verdict}. {passed} passed; {failed} failed; {skipped} skipped; 0 measured; {} filtered out\n", tests.len() - chosen.len());
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(101)
    }
}
