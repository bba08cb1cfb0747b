//! The TypeScript example port `conformance/ports/examples/ts-hex/` (issue 34): a driver made
//! with `port init --lang ts` and filled in for the `hex-search` family from `spec/` alone.
//!
//! - `from_template`: the example is the template with only its stubs filled in: every line of a
//!   fresh `port init --lang ts` driver is in the example except the name, the claims and the two
//!   op stubs it implements, and its `protocol.d.ts` is the kit's current one.
//! - `certifies_l4`: the README's quick-start command (`certify --port "node .../driver.mjs"
//!   --family hex-search`) passes with hex-search at L4, every section without a failure, and a
//!   certificate naming `hex-search: L4`.
//! - `faulty_rejected`: the same command on a temp copy whose open set breaks `f` ties towards
//!   the smaller `g` ([STATE.HEAP.ARRAY], one flipped comparison) must fail below L4, so
//!   `certifies_l4`'s judgement is shown to fail for a wrong port.
//!
//! Without `node` on PATH each is a visible skip line (`ONEPATH_REQUIRE_TEMPLATES=1` makes it a
//! failure, as in `port_templates.rs`).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

const BIN: &str = env!("CARGO_BIN_EXE_onepath-conformance");

enum Outcome {
    Passed(String),
    Skipped(String),
    Failed(String),
}

fn example_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("ports/examples/ts-hex")
}

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(tool).is_file()))
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "onepath-port-example-ts-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The quick-start command of the README with `--json` and a certificate; returns the exit
/// status, the report and the certificate (null when none was written).
fn certify(driver: &Path, dir: &Path) -> Result<(Option<i32>, Value, Value), String> {
    let cert = dir.join("certificate.json");
    let out = Command::new(BIN)
        .args(["certify", "--port"])
        .arg(format!("node {}", driver.display()))
        .args(["--family", "hex-search", "--heartbeat", "0", "--json"])
        .arg("--certificate")
        .arg(&cert)
        .args(["--date", "2026-12-06"])
        .output()
        .map_err(|e| e.to_string())?;
    let report: Value = serde_json::from_slice(&out.stdout).map_err(|e| {
        format!(
            "no JSON report ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })?;
    let certificate = match std::fs::read(&cert) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| e.to_string())?,
        Err(_) => Value::Null,
    };
    Ok((out.status.code(), report, certificate))
}

/// The judgement of a passing one-family port: exit 0, verdict ok, hex-search claimed and
/// reached L4, every section without a failure, and a certificate for hex-search L4.
fn judge(status: Option<i32>, r: &Value, cert: &Value) -> Result<String, String> {
    let p = &r["port"];
    let mut bad = Vec::new();
    if status != Some(0) {
        bad.push(format!("exit status {status:?}, expected 0"));
    }
    if r["ok"] != Value::Bool(true) || p["ok"] != Value::Bool(true) {
        bad.push(format!(
            "verdict ok = {}, problems {}",
            r["ok"], p["problems"]
        ));
    }
    let fams = p["families"].as_array().cloned().unwrap_or_default();
    let requests = match fams.as_slice() {
        [f] if f["family"] == "hex-search"
            && f["claimed"] == "L4"
            && f["reached"] == "L4"
            && f["first_difference"].is_null()
            && f["unimplemented"].as_object().is_some_and(|m| m.is_empty()) =>
        {
            f["requests"].as_u64().unwrap_or(0)
        }
        _ => {
            bad.push(format!("families {}", p["families"]));
            0
        }
    };
    for s in r["sections"].as_array().into_iter().flatten() {
        if s["failed"] != 0 {
            bad.push(format!("section {} failed {}", s["name"], s["failed"]));
        }
    }
    let vectors = r["sections"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["name"] == "consumed"))
        .and_then(|s| s["checks"].as_u64())
        .unwrap_or(0);
    if vectors < 28 {
        bad.push(format!(
            "consumed {vectors} vectors, expected HEX-0001..0028 and more"
        ));
    }
    if cert["levels"] != serde_json::json!({"hex-search": "L4"}) {
        bad.push(format!("certificate levels {}", cert["levels"]));
    }
    if bad.is_empty() {
        Ok(format!(
            "hex-search L4, {requests} requests, {vectors} vectors consumed"
        ))
    } else {
        Err(bad.join("; "))
    }
}

fn needs_node() -> Option<Outcome> {
    (!on_path("node")).then(|| Outcome::Skipped("`node` is not on PATH".into()))
}

/// The template's lines the example replaces when it fills in hex-search.
const FILLED_STUBS: [&str; 4] = [
    "const PORT_NAME = \"my-port\"; // your port's name",
    "const CLAIMS = {};",
    "  run_lattice: (args) => undefined,",
    "  describe: (args) => undefined,",
];

fn from_template() -> Outcome {
    let dir = temp_dir("template");
    let result = (|| {
        let out = Command::new(BIN)
            .args(["port", "init", "--lang", "ts"])
            .arg(&dir)
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!(
                "port init: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let ex = example_dir();
        if read(&dir.join("protocol.d.ts"))? != read(&ex.join("protocol.d.ts"))? {
            return Err("ports/examples/ts-hex/protocol.d.ts is not the kit's current one: copy it from a fresh `port init --lang ts`".into());
        }
        let example = read(&ex.join("driver.mjs"))?;
        let lines: std::collections::HashSet<&str> = example.lines().collect();
        let template = read(&dir.join("driver.mjs"))?;
        let missing: Vec<&str> = template.lines().filter(|l| !lines.contains(l)).collect();
        if missing != FILLED_STUBS {
            return Err(format!(
                "the example's driver.mjs differs from the template in more than its stubs: template lines not in it: {missing:?}"
            ));
        }
        Ok(format!(
            "{} template lines kept, {} stubs filled in",
            template.lines().count() - missing.len(),
            missing.len()
        ))
    })();
    let _ = std::fs::remove_dir_all(&dir);
    match result {
        Ok(s) => Outcome::Passed(s),
        Err(e) => Outcome::Failed(e),
    }
}

fn certifies_l4() -> Outcome {
    if let Some(skip) = needs_node() {
        return skip;
    }
    let dir = temp_dir("l4");
    let result = (|| {
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let t0 = Instant::now();
        let (status, report, cert) = certify(&example_dir().join("driver.mjs"), &dir)?;
        judge(status, &report, &cert).map(|s| format!("{s}; certify took {:.1?}", t0.elapsed()))
    })();
    let _ = std::fs::remove_dir_all(&dir);
    match result {
        Ok(s) => Outcome::Passed(s),
        Err(e) => Outcome::Failed(e),
    }
}

fn faulty_rejected() -> Outcome {
    if let Some(skip) = needs_node() {
        return skip;
    }
    let dir = temp_dir("faulty");
    let result = (|| {
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        for entry in std::fs::read_dir(example_dir()).map_err(|e| e.to_string())? {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.is_file() {
                let name = path.file_name().unwrap_or_default();
                std::fs::copy(&path, dir.join(name)).map_err(|e| e.to_string())?;
            }
        }
        let open_set = dir.join("openset.mjs");
        let text = read(&open_set)?;
        let good = "return this.g[a] > this.g[b];";
        if text.matches(good).count() != 1 {
            return Err(format!("openset.mjs no longer has `{good}` once"));
        }
        std::fs::write(
            &open_set,
            text.replace(good, "return this.g[a] < this.g[b];"),
        )
        .map_err(|e| e.to_string())?;
        let (status, report, cert) = certify(&dir.join("driver.mjs"), &dir)?;
        let fam = &report["port"]["families"][0];
        match judge(status, &report, &cert) {
            Ok(s) => Err(format!("a flipped g tie-break was certified: {s}")),
            Err(_) if fam["reached"] != "L4" && cert.is_null() && status == Some(1) => Ok(format!(
                "rejected: reached {}, first difference {}",
                fam["reached"], fam["first_difference"]["what"]
            )),
            Err(why) => Err(format!("rejected, but not as a wrong search: {why}")),
        }
    })();
    let _ = std::fs::remove_dir_all(&dir);
    match result {
        Ok(s) => Outcome::Passed(s),
        Err(e) => Outcome::Failed(e),
    }
}

/// A named test of this harness.
type Test = (&'static str, fn() -> Outcome);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tests: [Test; 3] = [
        ("from_template", from_template),
        ("certifies_l4", certifies_l4),
        ("faulty_rejected", faulty_rejected),
    ];
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let chosen: Vec<_> = tests
        .iter()
        .filter(|(n, _)| {
            filters.is_empty()
                || filters
                    .iter()
                    .any(|f| format!("port_example_ts::{n}").contains(f.as_str()))
        })
        .collect();
    if args.iter().any(|a| a == "--list") {
        for (n, _) in &chosen {
            println!("port_example_ts::{n}: test");
        }
        return ExitCode::SUCCESS;
    }
    let require = std::env::var("ONEPATH_REQUIRE_TEMPLATES").is_ok_and(|v| v == "1");
    println!("\nrunning {} tests", chosen.len());
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    for (name, f) in &chosen {
        let t0 = Instant::now();
        let line = match f() {
            Outcome::Passed(s) => {
                passed += 1;
                format!("ok ({s}; {:.1?})", t0.elapsed())
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
        println!("test port_example_ts::{name} ... {line}");
    }
    let verdict = if failed == 0 { "ok" } else { "FAILED" };
    println!("\ntest result: {verdict}. {passed} passed; {failed} failed; {skipped} skipped; 0 measured; {} filtered out\n", tests.len() - chosen.len());
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(101)
    }
}
