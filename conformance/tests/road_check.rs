//! `onepath-conformance road --check` ([CONF.CLI.ROAD]): both crates on a user's DIMACS graph
//! against a binary-heap Dijkstra oracle and each other. Generated and hand-written `.gr`/`.co`
//! files pass through the binary (exit 0, counts per algorithm); malformed files exit 2 naming the
//! file and line; the oracle agrees with the kit's O(V^2) oracle; and the judge reports a wrong
//! cost, an invalid path and differing cost bits (so a broken crate exits 1).

mod cli;
use cli::write;
use onepath_conformance::prng::SplitMix64;
use onepath_conformance::road::RoadGraph;
use onepath_conformance::road_check::{self, Answer};
use std::path::PathBuf;

fn scratch(test: &str) -> PathBuf {
    cli::scratch("rc", test)
}

fn road(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["road"];
    all.extend_from_slice(args);
    cli::run(&all)
}

/// A `side` x `side` lattice: two-way streets with integer weights 1..=20 drawn from `seed`,
/// some one-way, plus one isolated node (so some queries have no path). Returns (.gr, .co).
fn lattice(side: u32, seed: u64) -> (String, String, usize) {
    let mut rng = SplitMix64::new(seed);
    let n = side * side + 1;
    let mut arcs = Vec::new();
    for y in 0..side {
        for x in 0..side {
            let u = y * side + x + 1;
            for (nx, ny) in [(x + 1, y), (x, y + 1)] {
                if nx < side && ny < side {
                    let v = ny * side + nx + 1;
                    let w = 1 + rng.below(20);
                    arcs.push((u, v, w));
                    if !rng.chance(0.1) {
                        arcs.push((v, u, w + rng.below(3)));
                    }
                }
            }
        }
    }
    let mut gr = format!("c lattice {side}\np sp {n} {}\n", arcs.len());
    for (u, v, w) in &arcs {
        gr += &format!("a {u} {v} {w}\n");
    }
    // Coordinates 100 per unit: every weight (>= 1) is at least the straight-line length / 100.
    let mut co = format!("p aux sp co {n}\n");
    for id in 1..=n {
        let (x, y) = ((id - 1) % side, (id - 1) / side);
        co += &format!("v {id} {} {}\n", x * 100, y * 100);
    }
    (gr, co, arcs.len())
}

#[test]
fn a_generated_graph_passes_the_check() {
    let (code, out, err) = road(&["--generate", "2000", "--queries", "40", "--check"]);
    assert_eq!(code, 0, "{out}{err}");
    for name in [
        "dijkstra",
        "bidirectional dijkstra",
        "astar (euclidean)",
        "bidirectional astar",
    ] {
        let row = format!("{name:<24} {:>8} {:>8} {:>8}", 40, 40, 0);
        assert!(out.contains(&row), "no row {row:?} in\n{out}");
    }
    assert!(out.contains("ok: both crates agree"), "{out}");
    assert!(out.contains("time: oracle"), "{out}");
}

#[test]
fn a_user_dimacs_graph_passes_with_and_without_coordinates() {
    let dir = scratch("user");
    let (gr, co, m) = lattice(24, 7);
    let g = write(&dir, "l.gr", &gr);
    let c = write(&dir, "l.co", &co);
    let args = [
        "--gr",
        g.to_str().unwrap(),
        "--queries",
        "60",
        "--seed",
        "3",
    ];
    let (code, out, err) = road(&[&args[..], &["--check"]].concat());
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with(&format!(
            "road check: 577 nodes, {m} arcs, costs compared exactly"
        )),
        "{out}"
    );
    assert!(out.contains(&format!("{:<24} {:>8} {:>8} {:>8}", "dijkstra", 60, 60, 0)));
    assert!(!out.contains("astar"), "no coordinates, no A*: {out}");
    let (code, out, err) = road(&[&args[..], &["--co", c.to_str().unwrap(), "--check"]].concat());
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(&format!(
        "{:<24} {:>8} {:>8} {:>8}",
        "bidirectional astar", 60, 60, 0
    )));
    // Non-integer weights: compared within 1e-9 relative.
    let halves = gr.replace(" 1\n", " 1.5\n");
    let h = write(&dir, "h.gr", &halves);
    let (code, out, err) = road(&["--gr", h.to_str().unwrap(), "--queries", "20", "--check"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("within 1e-9 relative"), "{out}");
}

// pins [CONF.CLI.ROAD]: road reading a malformed .gr or .co (p sp 0 0, an arc id past n, a NaN
// coordinate, missing nodes) must exit 2 with FILE: line L; a lax reader or a panic fails here
#[test]
fn malformed_inputs_exit_2_with_file_and_line() {
    let dir = scratch("bad");
    let (gr, co, _) = lattice(4, 1);
    let cases: Vec<(&str, String, Option<String>, &str)> = vec![
        ("z.gr", "p sp 0 0\n".into(), None, "line 1"),
        ("w.gr", gr.replacen("a 1 2", "a 1 99", 1), None, "line 3"),
        ("n.gr", gr.replace("p sp 17", "p sp banana"), None, "line 2"),
        (
            "c.gr",
            gr.clone(),
            Some(co.replace("v 3 200 0", "v 3 NaN 0")),
            "line 4",
        ),
        ("e.gr", gr.clone(), Some(String::new()), "0 of 17 nodes"),
    ];
    for (name, text, co_text, what) in cases {
        let g = write(&dir, name, &text);
        let mut args = vec![
            "--check".to_string(),
            "--gr".into(),
            g.display().to_string(),
            "--queries".into(),
            "5".into(),
        ];
        let c = co_text.map(|t| write(&dir, &format!("{name}.co"), &t));
        if let Some(c) = &c {
            args.extend(["--co".into(), c.display().to_string()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = road(&args);
        assert_eq!(code, 2, "{name}: {out}{err}");
        assert!(!err.contains("panicked"), "{err}");
        let file = c.as_ref().unwrap_or(&g);
        assert!(err.contains(&file.display().to_string()), "{name}: {err}");
        assert!(err.contains(what), "{name}: expected {what:?} in {err}");
        assert!(out.is_empty(), "{out}");
    }
    let (code, _, err) = road(&["--generate", "50", "--queries", "99999999", "--check"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn the_oracle_agrees_with_the_quadratic_oracle() {
    for seed in 0..6u64 {
        let (gr, _, _) = lattice(9, seed);
        let g = onepath_conformance::road::parse_gr(&gr).unwrap();
        let mut rng = SplitMix64::new(seed);
        let n = g.node_count as u64;
        let pairs: Vec<(u32, u32)> = (0..40)
            .map(|_| (rng.below(n) as u32, rng.below(n) as u32))
            .collect();
        let got = road_check::oracle_costs(&g, &pairs);
        for (i, &(s, t)) in pairs.iter().enumerate() {
            let want = onepath_conformance::oracle::distances(g.node_count, &g.arcs, s)[t as usize];
            assert_eq!(got[i].to_bits(), want.to_bits(), "seed {seed} {s} -> {t}");
        }
        // The isolated last node is unreachable from anywhere else.
        let last = g.node_count as u32 - 1;
        assert_eq!(road_check::oracle_costs(&g, &[(0, last)])[0], f64::INFINITY);
    }
}

#[test]
fn the_judge_reports_each_kind_of_difference() {
    let g = RoadGraph {
        node_count: 4,
        arcs: vec![(0, 1, 2.0), (1, 2, 3.0), (0, 2, 7.0), (2, 3, 1.0)],
        positions: None,
    };
    let found = |cost: f64, nodes: Vec<u32>| -> Answer { Ok(("Found".into(), cost, nodes)) };
    let good = found(5.0, vec![0, 1, 2]);
    assert_eq!(road_check::oracle_costs(&g, &[(0, 2)]), vec![5.0]);
    assert!(road_check::judge(&g, (0, 2), 5.0, &good, &good).is_empty());
    // A cost the oracle does not give, on the candidate only: its cost and the crates differ.
    let p = road_check::judge(&g, (0, 2), 5.0, &good, &found(7.0, vec![0, 2]));
    assert!(p[0].starts_with("onepath: cost 7.0, oracle 5.0"), "{p:?}");
    assert!(p[1].starts_with("crates differ"), "{p:?}");
    // The right cost over a path that is not one: no arc 0 -> 3.
    let p = road_check::judge(&g, (0, 2), 5.0, &found(5.0, vec![0, 3, 2]), &good);
    assert!(p[0].starts_with("onepath-reference: invalid path"), "{p:?}");
    // One ulp apart: both within no tolerance for integer weights.
    let ulp = f64::from_bits(5.0f64.to_bits() + 1);
    let p = road_check::judge(&g, (0, 2), 5.0, &good, &found(ulp, vec![0, 1, 2]));
    assert_eq!(p.len(), 2, "{p:?}");
    // An error, and NotFound where the oracle finds a path.
    let p = road_check::judge(&g, (0, 2), 5.0, &good, &Err("boom".into()));
    assert!(p[0].contains("error boom"), "{p:?}");
    let none: Answer = Ok(("NotFound".into(), f64::INFINITY, vec![]));
    let p = road_check::judge(&g, (0, 2), 5.0, &good, &none);
    assert!(p[0].contains("oracle 5.0"), "{p:?}");
    // Unreachable on both sides is agreement.
    assert!(road_check::judge(&g, (3, 0), f64::INFINITY, &none, &none).is_empty());
}
