//! `onepath-conformance movingai` ([CONF.CLI.MOVINGAI]) through the binary: generated maps and
//! scenarios of every map kind match (exit 0, table and `--json`), a wrong optimum is a mismatch
//! (exit 1) naming its scenario, and every malformed input exits 2 with a typed error naming the
//! file and the 1-based line, never a panic.
mod cli;
use cli::write;
mod tools;

use onepath_conformance::grid::cases::map_kind;
use onepath_conformance::movingai::{generate_map, generate_scen, MovingAiMap, ScenFile};
use onepath_conformance::movingai_cli::{self, MovingAiRunErrorKind as K};
use std::path::{Path, PathBuf};

fn scratch(test: &str) -> PathBuf {
    cli::scratch("mai", test)
}

fn movingai(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["movingai"];
    all.extend_from_slice(args);
    cli::run(&all)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A generated map of kind `k` and its scenarios, written to `dir` as `gen-<k>.map` / `.scen`.
fn generated(dir: &Path, k: u64, side: usize) -> (PathBuf, PathBuf, MovingAiMap, ScenFile) {
    let name = format!("gen-{k}.map");
    let map = generate_map(map_kind(k), side, side, 0x4D41 + k);
    let scen = generate_scen(&map, &name, 2, 10, 0x5CE2 + k);
    assert!(scen.entries.len() >= 8, "kind {k}: too few scenarios");
    let m = write(dir, &name, &map.write());
    let sc = write(dir, &format!("gen-{k}.map.scen"), &scen.write());
    (m, sc, map, scen)
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"))
}

// pins [CONF.CLI.MOVINGAI]: one timing per implementation and algorithm, in that order, each with
// its first run apart (version 2); a report with one timing per implementation, or without the
// first run, fails here
#[test]
fn generated_maps_of_every_kind_match_on_both_crates() {
    let dir = scratch("generated");
    for k in 0..4 {
        let (m, sc, _, scen) = generated(&dir, k, 40);
        let (code, out, err) = movingai(&["--map", s(&m), "--scen", s(&sc)]);
        assert_eq!(code, 0, "kind {k}: {out}{err}");
        let n = scen.entries.len();
        assert!(
            out.contains(&format!("ok: all {n} scenarios match")),
            "{out}"
        );
        assert!(out.contains("astar, dijkstra, jps, jps_plus"), "{out}");
        // One time line per implementation and algorithm, the first run apart.
        for i in ["onepath-reference", "onepath"] {
            for a in ["astar", "dijkstra", "jps", "jps_plus"] {
                let line = format!("time {i} {a}: ");
                assert!(out.contains(&line), "no {line:?} in\n{out}");
            }
        }
        assert_eq!(out.matches(": first ").count(), 8, "{out}");
        // One table row per bucket present in the file.
        let mut buckets: Vec<u32> = scen.entries.iter().map(|e| e.bucket).collect();
        buckets.dedup();
        for b in &buckets {
            let count = scen.entries.iter().filter(|e| e.bucket == *b).count();
            let row = format!("{b:>8} {count:>10} {count:>10} {:>11}", 0);
            assert!(out.contains(&row), "kind {k}: no row {row:?} in\n{out}");
        }

        let (code, out, err) = movingai(&["--map", s(&m), "--scen", s(&sc), "--json"]);
        assert_eq!(code, 0, "{err}");
        let v = json(&out);
        assert_eq!(v["schema"], "onepath.movingai-report");
        assert_eq!(v["version"], 2);
        assert_eq!(v["ok"], true);
        assert_eq!(v["scenarios"], n as u64);
        assert_eq!(v["matches"], n as u64);
        assert_eq!(v["mismatches"], 0);
        assert_eq!(v["implementations"][0], "onepath-reference");
        assert_eq!(v["implementations"][1], "onepath");
        let listed: Vec<u64> = v["buckets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["bucket"].as_u64().unwrap())
            .collect();
        assert_eq!(
            listed,
            buckets.iter().map(|&b| b as u64).collect::<Vec<_>>()
        );
        // Per implementation, then per algorithm in run order: every scenario once each, the
        // first run's time apart and part of the total.
        let timings = v["timings"].as_array().unwrap();
        assert_eq!(timings.len(), 8);
        for (t, (i, a)) in timings.iter().zip(
            ["onepath-reference", "onepath"]
                .iter()
                .flat_map(|i| ["astar", "dijkstra", "jps", "jps_plus"].map(|a| (*i, a))),
        ) {
            assert_eq!(t["implementation"], i);
            assert_eq!(t["algorithm"], a);
            assert_eq!(t["runs"], n as u64);
            let (all, first) = (
                t["seconds"].as_f64().unwrap(),
                t["first_seconds"].as_f64().unwrap(),
            );
            assert!(first > 0.0 && first <= all, "{t}");
            let keys: Vec<&String> = t.as_object().unwrap().keys().collect();
            assert_eq!(keys.len(), 5, "{t}");
        }
        assert_eq!(v["tolerance"]["absolute"], 1e-6);
    }
}

// pins [CONF.CLI.MOVINGAI]: movingai must report a scenario whose optimal length is wrong as a
// mismatch with exit 1, its 0-based index, line I+2 and bits; a lax tolerance or another report
// shape fails here
#[test]
fn a_wrong_optimum_is_a_mismatch_naming_the_scenario() {
    let dir = scratch("wrong");
    let (m, _, _, mut scen) = generated(&dir, 1, 40);
    let truth = scen.entries[3].optimal_length;
    scen.entries[3].optimal_length = truth + 1.0;
    let bucket = scen.entries[3].bucket;
    let sc = write(&dir, "wrong.scen", &scen.write());
    let (code, out, err) = movingai(&["--map", s(&m), "--scen", s(&sc), "--algorithm", "astar"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains(&format!(
            "scenario 3 (line 5), bucket {bucket}, astar, onepath-reference: length outside"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!("FAILED: 1 of {} scenarios", scen.entries.len())),
        "{out}"
    );
    let (code, out, _) = movingai(&["--map", s(&m), "--scen", s(&sc), "--json"]);
    assert_eq!(code, 1);
    let v = json(&out);
    assert_eq!(v["ok"], false);
    assert_eq!(v["mismatches"], 1);
    // Four algorithms on two implementations, all against the same wrong optimum.
    assert_eq!(v["mismatched_runs"], 8);
    let first = &v["first_mismatches"][0];
    assert_eq!(first["scenario"], 3);
    assert_eq!(first["line"], 5);
    assert_eq!(first["kind"], "length");
    assert_eq!(
        first["expected"]["bits"],
        format!("{:016x}", (truth + 1.0).to_bits())
    );
    assert_eq!(first["found"]["bits"], format!("{:016x}", truth.to_bits()));
    assert_eq!(first["found"]["value"].as_f64(), Some(truth));
}

#[test]
fn the_tolerance_accepts_printed_decimals_and_nothing_looser() {
    let dir = scratch("tolerance");
    let (m, _, _, scen) = generated(&dir, 0, 40);
    // MovingAI sets print 8 decimals: within the tolerance.
    let mut printed = scen.clone();
    for e in &mut printed.entries {
        e.optimal_length = format!("{:.8}", e.optimal_length).parse().unwrap();
    }
    let sc = write(&dir, "printed.scen", &printed.write());
    let (code, out, err) = movingai(&["--map", s(&m), "--scen", s(&sc), "--algorithm", "jps"]);
    assert_eq!(code, 0, "{out}{err}");
    // 1e-5 off: outside.
    let mut off = scen.clone();
    let i = off.entries.len() - 1;
    off.entries[i].optimal_length += 1e-5;
    let sc = write(&dir, "off.scen", &off.write());
    let (code, out, _) = movingai(&["--map", s(&m), "--scen", s(&sc), "--algorithm", "jps"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!("scenario {i} (line {})", i + 2)),
        "{out}"
    );
    assert!(movingai_cli::within_tolerance(100.0, 100.0 + 0.9e-6));
    assert!(!movingai_cli::within_tolerance(100.0, 100.0 + 1.1e-6));
    assert!(!movingai_cli::within_tolerance(1e4, 1e4 + 9e-6));
    assert!(movingai_cli::within_tolerance(1e6, 1e6 + 9e-6));
    assert!(!movingai_cli::within_tolerance(1e6, 1e6 + 1.1e-5));
    // The closest distinct octile lengths below 10^5 steps are outside each other's tolerance.
    let (a, b) = (47321.0f64, 33461.0 * std::f64::consts::SQRT_2);
    assert!(!movingai_cli::within_tolerance(a, b));
    assert!(!movingai_cli::within_tolerance(1.0, f64::INFINITY));
}

const MAP: &str = "type octile\nheight 4\nwidth 5\nmap\n.....\n.@@..\n.....\n..T..\n";

fn scen_line(name: &str, w: u32, h: u32, s: (u32, u32), g: (u32, u32), len: &str) -> String {
    format!(
        "0\t{name}\t{w}\t{h}\t{}\t{}\t{}\t{}\t{len}\n",
        s.0, s.1, g.0, g.1
    )
}

/// Runs `movingai` on `map` and `scen` texts; returns (exit, stderr).
fn bad(dir: &Path, map: &str, scen: &str, extra: &[&str]) -> (i32, String, PathBuf, PathBuf) {
    let m = write(dir, "t.map", map.as_bytes());
    let sc = write(dir, "t.map.scen", scen.as_bytes());
    let mut args = vec!["--map", s(&m), "--scen", s(&sc)];
    args.extend_from_slice(extra);
    let (code, out, err) = movingai(&args);
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        code != 2 || out.is_empty(),
        "nothing on stdout on bad input: {out}"
    );
    (code, err, m, sc)
}

#[test]
fn a_hand_made_file_matches() {
    let dir = scratch("hand");
    // (0,0) -> (4,2) around the wall (1,1)-(2,1): no corner cutting, so 4 straight + 1 diagonal.
    let map = MovingAiMap::read(MAP.as_bytes()).unwrap();
    let pair = onepath_conformance::movingai::oracle_path_cost(&map, 0, 0, 4, 2).unwrap();
    assert_eq!((pair.straight, pair.diagonal), (4, 1));
    let len = pair.value();
    let scen = format!(
        "version 1\n{}{}",
        scen_line("t.map", 5, 4, (0, 0), (4, 2), &len.to_string()),
        scen_line("maps/x/t.map", 5, 4, (3, 3), (3, 3), "0")
    );
    let (code, err, ..) = bad(&dir, MAP, &scen, &[]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn every_malformed_input_is_a_typed_error_with_file_and_line() {
    let dir = scratch("malformed");
    let ok_scen = format!(
        "version 1\n{}",
        scen_line("t.map", 5, 4, (0, 0), (4, 0), "4")
    );
    // (map text, scen text, extra args, file is the scen, line, text in the message)
    let cases: Vec<(String, String, bool, u64, &str)> = vec![
        (
            MAP.replace("octile", "octil"),
            ok_scen.clone(),
            false,
            1,
            "type octile",
        ),
        (
            MAP.replace("width 5", "width five"),
            ok_scen.clone(),
            false,
            3,
            "decimal integer",
        ),
        (
            MAP.replace(".@@..", ".@X.."),
            ok_scen.clone(),
            false,
            6,
            "0x58",
        ),
        (
            MAP.replace(".@@..", ".@@."),
            ok_scen.clone(),
            false,
            6,
            "width is 5",
        ),
        (
            MAP.replace("..T..\n", ""),
            ok_scen.clone(),
            false,
            8,
            "end of text",
        ),
        (format!("{MAP}\n"), ok_scen.clone(), false, 9, "extra text"),
        (MAP.into(), "version 2\n".into(), true, 1, "version 1"),
        (
            MAP.into(),
            format!("{ok_scen}0\tt.map\t5\n"),
            true,
            3,
            "3 tab-separated",
        ),
        (
            MAP.into(),
            format!(
                "version 1\n{}",
                scen_line("t.map", 5, 4, (0, 0), (4, 0), "four")
            ),
            true,
            2,
            "optimal length",
        ),
        (
            MAP.into(),
            format!(
                "version 1\n{}",
                scen_line("t.map", 5, 4, (0, 0), (4, 0), "-1")
            ),
            true,
            2,
            "optimal length",
        ),
        (
            MAP.into(),
            format!(
                "version 1\n{}",
                scen_line("t.map", 5, 4, (0, 0), (4, 0), "inf")
            ),
            true,
            2,
            "optimal length",
        ),
        (
            MAP.into(),
            format!(
                "version 1\n{}",
                scen_line("t.map", 5, 4, (0, 0), (4, 0), "1e999")
            ),
            true,
            2,
            "optimal length",
        ),
        (
            MAP.into(),
            format!("{ok_scen}0\tt.map\t5\t4\tx\t0\t4\t0\t4\n"),
            true,
            3,
            "decimal integer",
        ),
        // Out of the scenario's own declared size, then out of the map's.
        (
            MAP.into(),
            format!("{ok_scen}{}", scen_line("t.map", 5, 4, (5, 0), (4, 0), "4")),
            true,
            3,
            "outside",
        ),
        (
            MAP.into(),
            format!("{ok_scen}{}", scen_line("t.map", 9, 9, (7, 7), (4, 0), "4")),
            true,
            3,
            "the map is 5x4",
        ),
        (
            MAP.into(),
            format!(
                "{ok_scen}{}",
                scen_line("other.map", 5, 4, (0, 0), (4, 0), "4")
            ),
            true,
            3,
            "--ignore-map-name",
        ),
        (
            MAP.into(),
            format!("{ok_scen}{}", scen_line("t.map", 5, 4, (1, 1), (4, 0), "4")),
            true,
            3,
            "start (1, 1) is not a passable",
        ),
        (
            MAP.into(),
            format!("{ok_scen}{}", scen_line("t.map", 5, 4, (0, 0), (2, 3), "4")),
            true,
            3,
            "goal (2, 3)",
        ),
        (MAP.into(), format!("{ok_scen}\n"), true, 3, "extra text"),
    ];
    for (i, (map, scen, in_scen, line, what)) in cases.iter().enumerate() {
        let (code, err, m, sc) = bad(&dir, map, scen, &[]);
        assert_eq!(code, 2, "case {i}: {err}");
        let file = if *in_scen { &sc } else { &m };
        assert!(
            err.starts_with(&format!("movingai: {}: line {line}", file.display())),
            "case {i}: expected {}: line {line}: {err}",
            file.display()
        );
        assert!(err.contains(what), "case {i}: expected {what:?} in {err}");
    }
    // The same through the library: typed kinds.
    let kind = |map: &str, scen: &str| {
        let m = write(&dir, "k.map", map.as_bytes());
        let sc = write(&dir, "k.scen", scen.as_bytes());
        let e = movingai_cli::load(&m, &sc, true).unwrap_err();
        (e.kind(), e.line())
    };
    assert_eq!(
        kind(&MAP.replace("map\n", "mop\n"), &ok_scen),
        (K::Map, Some(4))
    );
    assert_eq!(kind(MAP, "version 1\n\n"), (K::Scen, Some(2)));
    let named = |n: &str| format!("version 1\n{}", scen_line(n, 5, 4, (0, 0), (4, 0), "4"));
    assert_eq!(kind(MAP, &named("x.map")), (K::MapName, Some(2)));
    let e = movingai_cli::load(
        &write(&dir, "k.map", MAP.as_bytes()),
        &write(&dir, "k.scen", named("x.map").as_bytes()),
        false,
    );
    assert!(e.is_ok(), "{e:?}");
    let sized = format!(
        "version 1\n{}",
        scen_line("k.map", 4, 4, (0, 0), (3, 0), "3")
    );
    assert_eq!(kind(MAP, &sized), (K::Size, Some(2)));
    let walled = format!(
        "version 1\n{}",
        scen_line("k.map", 5, 4, (2, 1), (3, 0), "3")
    );
    assert_eq!(kind(MAP, &walled), (K::Blocked, Some(2)));
    assert_eq!(
        movingai_cli::parse_algorithm("theta").unwrap_err().kind(),
        K::Argument
    );
}

#[test]
fn missing_files_and_bad_arguments_exit_2() {
    let dir = scratch("missing");
    let m = write(&dir, "t.map", MAP.as_bytes());
    let nowhere = dir.join("nowhere.scen");
    let (code, _, err) = movingai(&["--map", s(&m), "--scen", s(&nowhere)]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(s(&nowhere)) && err.contains("cannot read"),
        "{err}"
    );
    let (code, _, err) = movingai(&["--map", s(&dir.join("no.map")), "--scen", s(&nowhere)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no.map"), "{err}");
    let sc = write(&dir, "t.map.scen", b"version 1\n");
    for algo in ["theta", "lazy_theta", "bogus"] {
        let (code, _, err) = movingai(&["--map", s(&m), "--scen", s(&sc), "--algorithm", algo]);
        assert_eq!(code, 2, "{algo}: {err}");
        assert!(err.contains("astar, dijkstra, jps, jps_plus"), "{err}");
    }
    // An empty scenario list is valid: nothing to mismatch.
    let (code, out, err) = movingai(&["--map", s(&m), "--scen", s(&sc)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("ok: all 0 scenarios match"), "{out}");
}

#[test]
fn a_port_runs_in_place_of_onepath() {
    tools::require_python3();
    let dir = scratch("port");
    let (m, sc, ..) = generated(&dir, 2, 24);
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("ports/python/driver.py");
    let cmd = format!("python3 -B {}", driver.display());
    let (code, out, err) = movingai(&[
        "--map",
        s(&m),
        "--scen",
        s(&sc),
        "--algorithm",
        "astar,jps",
        "--port",
        &cmd,
        "--json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let v = json(&out);
    assert_eq!(v["implementations"][0], "onepath-reference");
    assert_ne!(v["implementations"][1], "onepath");
    assert_eq!(v["algorithms"], serde_json::json!(["astar", "jps"]));
    assert_eq!(v["ok"], true);
    let (code, _, err) = movingai(&["--map", s(&m), "--scen", s(&sc), "--port", "exit 3"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("handshake") || err.contains("driver"), "{err}");
}

/// A runner that answers as `onepath` and then damages the answer.
struct Damaged {
    inner: movingai_cli::OptimizedRunner,
    damage: fn(&mut movingai_cli::Answer),
}

impl movingai_cli::ScenarioRunner for Damaged {
    fn name(&self) -> String {
        "damaged".into()
    }
    fn run(
        &self,
        e: &onepath_conformance::movingai::ScenEntry,
        algorithm: u8,
    ) -> Result<movingai_cli::Answer, onepath_conformance::error::CallError> {
        let mut a = self.inner.run(e, algorithm)?;
        (self.damage)(&mut a);
        Ok(a)
    }
}

#[test]
fn a_candidate_that_differs_from_the_reference_is_reported() {
    use movingai_cli::{MismatchKind, OptimizedRunner, ReferenceRunner};
    let dir = scratch("damaged");
    let (m, sc, ..) = generated(&dir, 3, 32);
    let bench = movingai_cli::load(&m, &sc, true).unwrap();
    let grid = onepath_conformance::checks::grid_search::movingai_grid(&bench.map);
    let reference = ReferenceRunner::new(&grid).unwrap();
    let n = bench.scen.entries.len();
    let cases: [(fn(&mut movingai_cli::Answer), &[MismatchKind]); 3] = [
        // One ulp more: within the tolerance, but not the reference's bits.
        (|a| a.cost_bits += 1, &[MismatchKind::Reference]),
        // A path that skips a cell: not an allowed move.
        (
            |a| {
                if a.path.len() > 2 {
                    a.path.remove(1);
                }
            },
            &[MismatchKind::Path, MismatchKind::Reference],
        ),
        // NotFound.
        (
            |a| a.status = 3,
            &[MismatchKind::Length, MismatchKind::Reference],
        ),
    ];
    for (i, (damage, kinds)) in cases.into_iter().enumerate() {
        let damaged = Damaged {
            inner: OptimizedRunner::new(&grid).unwrap(),
            damage,
        };
        let r = movingai_cli::run(&bench, &[&reference, &damaged], &[0], "m", "s");
        assert!(!r.ok(), "case {i}");
        let first = &r.mismatches[0];
        assert_eq!(first.implementation, "damaged", "case {i}");
        assert_eq!(first.kind, kinds[0], "case {i}: {first:?}");
        assert!(
            r.mismatches.iter().all(|m| kinds.contains(&m.kind)),
            "case {i}"
        );
        assert!(r.mismatches.iter().all(|m| m.implementation == "damaged"));
        // Every scenario with a path of more than two cells (case 1) or every scenario mismatches.
        assert!(r.buckets.iter().map(|b| b.mismatches).sum::<u64>() >= (n as u64) / 2);
        let v = json(&r.to_json());
        assert_eq!(v["ok"], false);
        assert_eq!(v["implementations"][1], "damaged");
    }
    let undamaged = OptimizedRunner::new(&grid).unwrap();
    assert!(movingai_cli::run(&bench, &[&reference, &undamaged], &[0, 2], "m", "s").ok());
}
