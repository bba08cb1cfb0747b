//! Malformed DIMACS `.gr` / `.co` files and bad `road` arguments: each is a typed
//! `road::RoadError` naming the file and the 1-based line, and the `road` command exits 2 with
//! that message, never a panic (exit 101).

use onepath::MAX_NODES;
use onepath_conformance::road::{
    self, parse_gr, RoadErrorKind, MAX_GENERATED_NODES, MAX_ISOLATED_FLOOR, MAX_QUERIES,
};
use std::path::PathBuf;
use std::process::Command;

/// A fresh folder for this test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("onepath-road-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &std::path::Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The kind and line of the error `parse_gr` reports for `text`.
fn gr_error(text: &str) -> (RoadErrorKind, Option<u64>, String) {
    let e = road::parse_gr(text).expect_err(text);
    (e.kind(), e.line(), e.to_string())
}

/// The kind and line of the error `parse_co` reports for `text` and `n` nodes.
fn co_error(text: &str, n: usize) -> (RoadErrorKind, Option<u64>, String) {
    let e = road::parse_co(text, n).expect_err(text);
    (e.kind(), e.line(), e.to_string())
}

fn kl(e: (RoadErrorKind, Option<u64>, String)) -> (RoadErrorKind, Option<u64>) {
    (e.0, e.1)
}

fn run_road(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .arg("road")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn zero_node_graph_is_an_error_not_a_panic() {
    let dir = scratch("zero");
    let gr = write(&dir, "z.gr", b"p sp 0 0\n");
    let (code, _, err) = run_road(&["--gr", gr.to_str().unwrap(), "--queries", "3"]);
    assert_eq!(code, 2, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains(gr.to_str().unwrap()) && err.contains("line 1"),
        "{err}"
    );
    assert_eq!(gr_error("p sp 0 0\n").0, RoadErrorKind::Header);
}

#[test]
fn second_p_line_names_both_lines_one_based() {
    let (kind, line, text) = gr_error("c x\np sp 2 1\np sp 2 1\na 1 2 1\n");
    assert_eq!((kind, line), (RoadErrorKind::Header, Some(3)));
    assert!(text.contains("line 3") && text.contains("line 2"), "{text}");
}

#[test]
fn bad_counts_in_the_p_line() {
    for (text, line) in [
        ("p sp 4 banana\n", 1),
        ("c\np sp banana 4\n", 2),
        ("p sp -4 0\n", 1),
        ("p sp 4\n", 1),
        ("p max 4 0\n", 1),
    ] {
        assert_eq!(
            kl(gr_error(text)),
            (RoadErrorKind::Header, Some(line)),
            "{text}"
        );
    }
    // At the node limit the header is accepted (the arc count is then checked); past it not.
    let at = format!("p sp {MAX_NODES} {}\n", MAX_NODES / 2);
    assert_eq!(gr_error(&at).0, RoadErrorKind::Count);
    let past = format!("p sp {} {}\n", MAX_NODES + 1, MAX_NODES);
    assert_eq!(kl(gr_error(&past)), (RoadErrorKind::Header, Some(1)));
    // At most max(2^20, 2m) nodes: a tiny file cannot declare millions of isolated nodes.
    let floor = MAX_ISOLATED_FLOOR;
    assert!(parse_gr(&format!("p sp {floor} 0\n")).is_ok());
    let past_floor = gr_error(&format!("c\np sp {} 0\n", floor + 1));
    assert_eq!(kl(past_floor.clone()), (RoadErrorKind::Header, Some(2)));
    assert!(
        past_floor.2.contains("2 x the arc count 0"),
        "{}",
        past_floor.2
    );
    let at_twice = format!("p sp {} {}\n", 4 * floor, 2 * floor);
    assert_eq!(gr_error(&at_twice).0, RoadErrorKind::Count);
    let past_twice = format!("p sp {} {}\n", 4 * floor + 1, 2 * floor);
    assert_eq!(kl(gr_error(&past_twice)), (RoadErrorKind::Header, Some(1)));
    assert_eq!(gr_error("c only\n").0, RoadErrorKind::Header);
    assert_eq!(gr_error("").0, RoadErrorKind::Header);
}

#[test]
fn bad_arcs() {
    let cases = [
        ("p sp 2 1\na 0 2 1\n", RoadErrorKind::NodeId),
        ("p sp 2 1\na 1 3 1\n", RoadErrorKind::NodeId),
        ("p sp 2 1\na x 2 1\n", RoadErrorKind::NodeId),
        ("p sp 2 1\na 1 2 -1\n", RoadErrorKind::Weight),
        ("p sp 2 1\na 1 2 NaN\n", RoadErrorKind::Weight),
        ("p sp 2 1\na 1 2 inf\n", RoadErrorKind::Weight),
        ("p sp 2 1\na 1 2\n", RoadErrorKind::Syntax),
        ("p sp 2 1\nx 1 2 1\n", RoadErrorKind::Syntax),
    ];
    for (text, kind) in cases {
        assert_eq!(kl(gr_error(text)), (kind, Some(2)), "{text}");
    }
    // One arc more than declared: on the extra arc's line.
    assert_eq!(
        kl(gr_error("p sp 2 1\na 1 2 1\na 2 1 1\n")),
        (RoadErrorKind::Count, Some(3))
    );
    // Fewer arcs than declared: reported on the `p` line.
    assert_eq!(
        kl(gr_error("c\np sp 2 2\na 1 2 1\n")),
        (RoadErrorKind::Count, Some(2))
    );
}

#[test]
fn co_faults() {
    let n = 2;
    let cases = [
        ("v 1 0 0\nv 2 NaN 0\n", RoadErrorKind::Coordinate, Some(2)),
        ("v 1 0 0\nv 2 0 inf\n", RoadErrorKind::Coordinate, Some(2)),
        ("v 1 0 0\nv 2 0 -inf\n", RoadErrorKind::Coordinate, Some(2)),
        ("v 1 0 0\nv 2 zero 0\n", RoadErrorKind::Coordinate, Some(2)),
        ("garbage\n", RoadErrorKind::Syntax, Some(1)),
        ("v 1 0 0\nv 1 1 1\n", RoadErrorKind::NodeId, Some(2)),
        ("v 3 0 0\n", RoadErrorKind::NodeId, Some(1)),
        ("v 0 0 0\n", RoadErrorKind::NodeId, Some(1)),
        ("v 1 0\n", RoadErrorKind::Syntax, Some(1)),
        ("p aux sp co 3\n", RoadErrorKind::Count, Some(1)),
        ("v 1 0 0\np aux sp co 2\n", RoadErrorKind::Header, Some(2)),
        // Empty, or a node without coordinates: no line to point at.
        ("", RoadErrorKind::Count, None),
        ("c nothing\n", RoadErrorKind::Count, None),
        ("v 2 0 0\n", RoadErrorKind::Count, None),
    ];
    for (text, kind, line) in cases {
        assert_eq!(kl(co_error(text, n)), (kind, line), "{text:?}");
    }
    assert!(co_error("v 2 0 0\n", n).2.contains("node 1"));
    let ok = road::parse_co("p aux sp co 2\nv 2 1.5 -2\nc\nv 1 0 0\n", n).unwrap();
    assert_eq!(ok, vec![[0.0, 0.0, 0.0], [1.5, -2.0, 0.0]]);
}

#[test]
fn errors_name_the_file() {
    let dir = scratch("names");
    let gr = write(&dir, "g.gr", b"p sp 2 1\na 1 2 1\n");
    let bad_gr = write(&dir, "bad.gr", b"p sp 2 1\na 1 9 1\n");
    let bad_co = write(&dir, "bad.co", b"v 1 0 0\nv 2 0 nan\n");
    let utf = write(&dir, "utf.gr", b"p sp 2 1\n\xff\n");
    let e = road::read_gr(&bad_gr).unwrap_err();
    assert_eq!(e.path(), Some(bad_gr.as_path()));
    assert!(e
        .to_string()
        .starts_with(&format!("{}: line 2: ", bad_gr.display())));
    let e = road::read_co(&bad_co, 2).unwrap_err();
    assert_eq!((e.path(), e.line()), (Some(bad_co.as_path()), Some(2)));
    let e = road::read_gr(&utf).unwrap_err();
    assert_eq!((e.kind(), e.line()), (RoadErrorKind::Encoding, Some(2)));
    let missing = dir.join("missing.gr");
    let e = road::read_gr(&missing).unwrap_err();
    assert_eq!(
        (e.kind(), e.path()),
        (RoadErrorKind::Io, Some(missing.as_path()))
    );
    // The command line shows the file too, and still runs a good pair.
    let (code, _, err) = run_road(&[
        "--gr",
        gr.to_str().unwrap(),
        "--co",
        bad_co.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains(bad_co.to_str().unwrap()) && err.contains("line 2"),
        "{err}"
    );
    let good_co = write(&dir, "g.co", b"v 1 0 0\nv 2 3 4\n");
    let (code, out, err) = run_road(&[
        "--gr",
        gr.to_str().unwrap(),
        "--co",
        good_co.to_str().unwrap(),
        "--queries",
        "4",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("road graph: 2 nodes, 1 arcs, 4 queries"),
        "{out}"
    );
}

#[test]
fn argument_limits() {
    assert_eq!(
        road::generated(0, 1).unwrap_err().kind(),
        RoadErrorKind::Argument
    );
    assert_eq!(
        road::generated(MAX_GENERATED_NODES + 1, 1)
            .unwrap_err()
            .kind(),
        RoadErrorKind::Argument
    );
    let g = road::generated(16, 1).unwrap();
    assert!(road::benchmark(&g, MAX_QUERIES + 1, 1).is_err());
    assert!(road::benchmark(&g, 0, 1).is_ok());
    let empty = road::RoadGraph {
        node_count: 0,
        arcs: vec![],
        positions: None,
    };
    assert_eq!(
        road::benchmark(&empty, 1, 1).unwrap_err().kind(),
        RoadErrorKind::Argument
    );
    let mismatched = road::RoadGraph {
        positions: Some(vec![[0.0; 3]]),
        ..g.clone()
    };
    assert_eq!(
        road::benchmark(&mismatched, 1, 1).unwrap_err().kind(),
        RoadErrorKind::Argument
    );
    let (code, _, err) = run_road(&["--generate", "0"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run_road(&["--generate", "4", "--queries", &u64::MAX.to_string()]);
    assert_eq!(code, 2, "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
