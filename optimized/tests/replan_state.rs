//! Replanner budgets and state bytes (spec/replanning.md §4, §7): budgeted replans end in the
//! bytes of unbudgeted ones ([REPLAN.COMPUTE.LOOP]); save -> restore -> save is stable and a
//! restored replanner continues exactly as the original ([REPLAN.STATE.RESTORE]); truncated and
//! corrupted bytes give typed errors, never a panic, and leave the replanner unchanged
//! ([REPLAN.STATE.ATOMIC], [REPLAN.STATE.CHECKS]); inconsistent restored values make the path
//! walk fail ([REPLAN.PATH.BROKEN]).
mod replan_support;

use onepath::*;
use replan_support::sim::{make, mutate, Sim};
use replan_support::*;

const LAST_EXPANDED: std::ops::Range<usize> = 60..64;

fn shapes(rng: &mut Xs) -> Shape {
    let rules = [
        DiagonalRule::Always,
        DiagonalRule::AtMostOneBlocked,
        DiagonalRule::NoneBlocked,
    ];
    let layouts = [
        HexLayout::OddR,
        HexLayout::EvenR,
        HexLayout::OddQ,
        HexLayout::EvenQ,
    ];
    if rng.below(2) == 0 {
        Shape::Square {
            w: 2 + rng.below(9) as usize,
            h: 2 + rng.below(9) as usize,
            k: 1 + rng.below(3) as usize,
            four: rng.below(3) == 0,
            rule: rules[rng.below(3) as usize],
        }
    } else {
        Shape::Hex {
            w: 1 + rng.below(10) as usize,
            h: 1 + rng.below(10) as usize,
            layout: layouts[rng.below(4) as usize],
        }
    }
}

fn iterations(sim: &Sim) -> u64 {
    match sim {
        Sim::Square(_, r) => r.iterations(),
        Sim::Hex(_, r) => r.iterations(),
    }
}

#[test]
fn budgeted_replans_end_in_the_same_bytes() {
    for i in 0..120u64 {
        let seed = 0xB0D6E7 + 31 * i;
        let shape = shapes(&mut Xs(seed));
        for mode in [ReplanMode::Lpa, ReplanMode::DStarLite] {
            for budget in [1u64, 3, 7] {
                let (mut ra, mut rb) = (Xs(seed ^ 0x55), Xs(seed ^ 0x55));
                let mut a = make(&mut ra, &shape, mode, GridAlgorithm::AStar);
                let mut b = make(&mut rb, &shape, mode, GridAlgorithm::AStar);
                for round in 0..8 {
                    let sa = a.replan(0);
                    let mut calls = 0;
                    let sb = loop {
                        let before = iterations(&b);
                        let s = b.replan(budget);
                        assert!(iterations(&b) - before <= budget);
                        calls += 1;
                        assert!(calls < 100_000);
                        if s != SearchStatus::Running {
                            break s;
                        }
                    };
                    assert_eq!(sa, sb, "case {i} round {round}");
                    let (mut x, mut y) = (a.save(), b.save());
                    // [REPLAN.RUN.COUNTERS] last_expanded counts the latest call only.
                    x[LAST_EXPANDED].fill(0);
                    y[LAST_EXPANDED].fill(0);
                    assert_eq!(
                        x, y,
                        "case {i} {shape:?} {mode:?} budget {budget} round {round}"
                    );
                    assert_eq!(a.path(), b.path());
                    mutate(&mut ra, &mut a, &shape);
                    mutate(&mut rb, &mut b, &shape);
                }
            }
        }
    }
}

fn grid_bytes(sim: &Sim) -> Vec<u8> {
    match sim {
        Sim::Square(g, _) => g.save_state(),
        Sim::Hex(g, _) => g.save_state(),
    }
}

/// Restores grid bytes then replanner bytes (the order of [REPLAN.STATE.ORDER]).
fn restore(sim: &mut Sim, grid: &[u8], bytes: &[u8]) -> Result<(), GridStateError> {
    match sim {
        Sim::Square(g, r) => {
            g.restore_state(grid).unwrap();
            r.restore_state(g, bytes)
        }
        Sim::Hex(g, r) => {
            g.restore_state(grid).unwrap();
            r.restore_state(g, bytes)
        }
    }
}

fn restore_only(sim: &mut Sim, bytes: &[u8]) -> Result<(), GridStateError> {
    match sim {
        Sim::Square(g, r) => r.restore_state(g, bytes),
        Sim::Hex(g, r) => r.restore_state(g, bytes),
    }
}

#[test]
fn restored_replanners_continue_exactly() {
    for i in 0..150u64 {
        let seed = 0x7E57 + 97 * i;
        let shape = shapes(&mut Xs(seed));
        for mode in [ReplanMode::Lpa, ReplanMode::DStarLite] {
            let alg = if i % 3 == 0 {
                GridAlgorithm::Dijkstra
            } else {
                GridAlgorithm::AStar
            };
            let mut ra = Xs(seed ^ 0xA);
            let mut a = make(&mut ra, &shape, mode, alg);
            let mut b = make(&mut Xs(seed ^ 0xA), &shape, mode, alg);
            let saved_at = i % 5;
            for round in 0..5 {
                if round > 0 {
                    a.replan(if i % 2 == 0 { 0 } else { 4 });
                }
                mutate(&mut ra, &mut a, &shape);
                if round == saved_at {
                    break;
                }
            }
            let bytes = a.save();
            // [STATE.STABLE] Saving twice gives the same bytes.
            assert_eq!(bytes, a.save());
            restore(&mut b, &grid_bytes(&a), &bytes).unwrap();
            assert_eq!(b.save(), bytes, "case {i}: save -> restore -> save");
            let mut rb = Xs(ra.0);
            for round in 0..6 {
                let budget = [0u64, 2, 5][(round % 3) as usize];
                let (sa, sb) = (a.replan(budget), b.replan(budget));
                assert_eq!(sa, sb, "case {i} round {round}");
                assert_eq!(
                    a.save(),
                    b.save(),
                    "case {i} {shape:?} {mode:?} round {round}"
                );
                assert_eq!(a.path(), b.path());
                assert_eq!(a.cost().to_bits(), b.cost().to_bits());
                mutate(&mut ra, &mut a, &shape);
                mutate(&mut rb, &mut b, &shape);
            }
        }
    }
}

/// A few planned states of both kinds, each with its replanner.
fn samples() -> Vec<Sim> {
    let mut out = Vec::new();
    for i in 0..12u64 {
        let mut rng = Xs(0xC0FFEE + i);
        let shape = shapes(&mut rng);
        let mode = if i % 2 == 0 {
            ReplanMode::Lpa
        } else {
            ReplanMode::DStarLite
        };
        let mut sim = make(&mut rng, &shape, mode, GridAlgorithm::AStar);
        sim.replan(if i % 3 == 0 { 3 } else { 0 });
        for _ in 0..3 {
            mutate(&mut rng, &mut sim, &shape);
        }
        if i % 4 == 1 {
            sim.replan(2);
            mutate(&mut rng, &mut sim, &shape);
        }
        out.push(sim);
    }
    out
}

#[test]
fn truncated_and_corrupted_bytes_are_typed_errors_and_change_nothing() {
    const CLASSES: [&str; 20] = [
        "truncated",
        "bad_magic",
        "unsupported_version",
        "wrong_kind",
        "size_mismatch",
        "count_out_of_range",
        "index_out_of_range",
        "out_of_range",
        "nan",
        "bad_flag",
        "not_increasing",
        "duplicate_node",
        "bad_heap_node",
        "heap_order",
        "missing_open_node",
        "bad_parent",
        "parent_cycle",
        "trailing_bytes",
        "engine_mismatch",
        "not_walkable",
    ];
    let mut rng = Xs(0xBAD);
    for mut sim in samples() {
        let good = sim.save();
        // A different state to restore into, so "unchanged" is not trivially the same bytes.
        sim.replan(0);
        let before = sim.save();
        for len in 0..good.len() {
            let e = restore_only(&mut sim, &good[..len]).unwrap_err();
            assert!(
                ["truncated", "count_out_of_range"].contains(&e.class()),
                "length {len}: {e}"
            );
            assert_eq!(e.category(), "format");
            assert_eq!(sim.save(), before, "a failed restore changed the replanner");
        }
        let mut long = good.clone();
        long.push(0);
        let e = restore_only(&mut sim, &long).unwrap_err();
        assert_eq!((e.class(), e.offset()), ("trailing_bytes", good.len()));
        for _ in 0..3000 {
            let mut bad = good.clone();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(bad.len() as u64) as usize;
                bad[at] = if rng.below(2) == 0 {
                    rng.below(256) as u8
                } else {
                    bad[at] ^ (1 << rng.below(8))
                };
            }
            match restore_only(&mut sim, &bad) {
                Err(e) => {
                    assert!(CLASSES.contains(&e.class()), "{e}");
                    assert!(e.offset() <= bad.len());
                    assert_eq!(sim.save(), before, "a failed restore changed the replanner");
                }
                Ok(()) => {
                    // [REPLAN.STATE.STRUCTURAL] An accepted hostile state never panics and a
                    // budgeted replan does at most its budget.
                    assert_eq!(sim.save(), bad, "an accepted state saves back as read");
                    let _ = sim.try_path();
                    let it = iterations(&sim);
                    sim.replan(25);
                    assert!(iterations(&sim) - it <= 25);
                    let _ = sim.try_path();
                    restore_only(&mut sim, &before).unwrap();
                }
            }
        }
    }
}

fn le(v: i32) -> [u8; 4] {
    v.to_le_bytes()
}

#[test]
fn named_faults_and_broken_paths() {
    let mut g = Grid::new(4, 1).unwrap();
    let o = GridOptions::default();
    let mut r = GridReplanner::new(&mut g, o.clone(), ReplanMode::Lpa, (0, 0), (3, 0)).unwrap();
    assert_eq!(r.replan(&g, 0).unwrap(), SearchStatus::Found);
    assert_eq!(r.path(&g).unwrap(), vec![0, 1, 2, 3]);
    assert_eq!(r.path_cost(), 3.0);
    let good = r.save_state();
    // Layout: header 8, width 8, height 12, algorithm 16, area_version 17, start 21, goal 25,
    // node_count 29, mode 33, start 34, goal 38, initialized 42, found 43, iterations 44,
    // expanded 52, last_expanded 60, km 64, overflow 72, pending_count 73.
    let fault = |r: &mut GridReplanner, g: &Grid, at: usize, bytes: &[u8]| {
        let mut b = good.clone();
        b[at..at + bytes.len()].copy_from_slice(bytes);
        let e = r.restore_state(g, &b).unwrap_err();
        (e.class(), e.offset())
    };
    assert_eq!(fault(&mut r, &g, 6, &[6, 0]), ("wrong_kind", 6));
    assert_eq!(fault(&mut r, &g, 8, &le(5)), ("size_mismatch", 8));
    assert_eq!(fault(&mut r, &g, 16, &[1]), ("engine_mismatch", 16));
    assert_eq!(fault(&mut r, &g, 17, &le(-1)), ("out_of_range", 17));
    assert_eq!(fault(&mut r, &g, 21, &le(4)), ("index_out_of_range", 21));
    assert_eq!(fault(&mut r, &g, 29, &le(5)), ("size_mismatch", 29));
    assert_eq!(fault(&mut r, &g, 33, &[2]), ("out_of_range", 33));
    assert_eq!(fault(&mut r, &g, 33, &[1]), ("engine_mismatch", 33));
    assert_eq!(fault(&mut r, &g, 34, &le(1)), ("out_of_range", 34));
    assert_eq!(fault(&mut r, &g, 42, &[2]), ("bad_flag", 42));
    assert_eq!(fault(&mut r, &g, 60, &le(99)), ("out_of_range", 60));
    assert_eq!(
        fault(&mut r, &g, 64, &1.0f64.to_le_bytes()),
        ("out_of_range", 64)
    );
    assert_eq!(fault(&mut r, &g, 64, &f64::NAN.to_le_bytes()), ("nan", 64));
    assert_eq!(fault(&mut r, &g, 73, &le(-1)), ("count_out_of_range", 73));
    assert_eq!(fault(&mut r, &g, 73, &le(65)), ("count_out_of_range", 73));
    // One pending entry: it reads the planned count (4), a cell outside the grid.
    assert_eq!(fault(&mut r, &g, 73, &le(1)), ("index_out_of_range", 77));
    let other = Grid::new(5, 1).unwrap();
    assert_eq!(
        r.restore_state(&other, &good).unwrap_err().class(),
        "size_mismatch"
    );
    // Planned cells start at 81 (no pending entries): cell, g, rhs per 20 bytes.
    assert_eq!(i32::from_le_bytes(good[77..81].try_into().unwrap()), 4);
    let g_of = |c: usize| 81 + 20 * c + 4;
    assert_eq!(fault(&mut r, &g, 81 + 20, &le(0)), ("not_increasing", 101));
    // [REPLAN.PATH.BROKEN] g(2) = +infinity: the walk from the goal finds no finite neighbour.
    let mut b = good.clone();
    b[g_of(2)..g_of(2) + 8].copy_from_slice(&f64::INFINITY.to_le_bytes());
    r.restore_state(&g, &b).unwrap();
    let e = r.path(&g).unwrap_err();
    assert_eq!(e.class(), "broken_path");
    // g(0) = +infinity and g(1) = g(2) = g(3) = 1: the walk loops between 3 and 2.
    let mut b = good.clone();
    b[g_of(0)..g_of(0) + 8].copy_from_slice(&f64::INFINITY.to_le_bytes());
    for c in 1..4 {
        b[g_of(c)..g_of(c) + 8].copy_from_slice(&1.0f64.to_le_bytes());
    }
    r.restore_state(&g, &b).unwrap();
    assert_eq!(r.path(&g).unwrap_err().class(), "path_cycle");
    assert_eq!(r.save_state(), b);
    // An uninitialised state is 64 bytes and restores as such.
    let mut h = Grid::new(4, 1).unwrap();
    let fresh = GridReplanner::new(&mut h, o, ReplanMode::Lpa, (0, 0), (3, 0)).unwrap();
    let un = fresh.save_state();
    assert_eq!(un.len(), 64);
    r.restore_state(&g, &un).unwrap();
    assert!(!r.is_initialized() && !r.found());
    assert_eq!(r.save_state(), un);
}
