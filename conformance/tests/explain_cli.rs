//! [CONF.DEBUG.EXPLAIN] The `explain` command: the picture on stdout or in a file, the report on
//! stderr, exit 0 when the two sides agree, 1 when they differ (the Python port with a defect
//! switch), 2 on an unknown id or a bad argument.

mod tools;

use std::process::{Command, Output};

fn explain(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .arg("explain")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the kit runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn the_optimized_crate_agrees_and_the_svg_goes_to_stdout() {
    let o = explain(&["HEX-0002"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("HEX-0002: no difference"),
        "{}",
        stderr(&o)
    );
    let svg = String::from_utf8(o.stdout).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
}

// pins [CONF.DEBUG.EXPLAIN]: an explain that does not run the port beside the reference, exits
// other than 1 on a difference, misnames it on stderr, or writes a page without both pictures and
// the marked row fails
#[test]
fn a_python_port_with_a_defect_is_drawn_with_its_first_difference() {
    tools::require_python3();
    let dir = std::env::temp_dir().join(format!("explain-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("hex.html");
    let port = "ONEPATH_PY_DEFECT=hex_tie python3 ports/python/driver.py";
    let o = explain(&[
        "HEX-0002",
        "--port",
        port,
        "--timeout",
        "60",
        "--html",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let report = stderr(&o);
    assert!(
        report.starts_with("HEX-0002: onepath_py differs from onepath-reference: query 0: expanded entry 2: expected 50, found 73"),
        "{report}"
    );
    let page = std::fs::read_to_string(&out).unwrap();
    assert_eq!(page.matches("<svg").count(), 2);
    assert!(page.contains("found: onepath_py") && page.contains("id=\"first-difference\""));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unknown_id_and_a_bad_out_path_exit_2() {
    let o = explain(&["GRID-9999"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("GRID-9999: no committed vector"),
        "{}",
        stderr(&o)
    );
    let o = explain(&["HEX-0002", "--out", "/nonexistent-dir/x.svg"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--out"), "{}", stderr(&o));
    let o = explain(&["HEX-0002", "--timeout", "0"]);
    assert_eq!(o.status.code(), Some(2));
}
