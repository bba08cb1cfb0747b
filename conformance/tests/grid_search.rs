//! Grid-search properties shown directly on committed data (spec/grid-search.md):
//! - a mode-3 `GridSearch` state saved with stale open-list entries (cells closed after they were
//!   pushed, [GS.SJ.SETTLE]) restores into a fresh search in both crates and finishes exactly as
//!   the uninterrupted run ([GS.STATE.RESTORE]);
//! - the `grid-search` and `movingai` sections pass for both crates at a size larger than the CI
//!   certify run's, and a wrong reply is caught by the oracle.
use onepath_conformance::checks::{grid_search, Config, DEFAULT_SEED};
use onepath_conformance::state::files::StateVector;
use onepath_conformance::state::layout::walk;
use onepath_conformance::state::{StateKind, StateRequest};
use onepath_conformance::{Implementation, OptimizedCrate, ReferenceCrate};
use std::collections::BTreeSet;
use std::path::Path;

fn vector(id: &str) -> StateVector {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../vectors/state/{id}.json"));
    StateVector::parse(&std::fs::read_to_string(p).expect("committed vector")).expect("valid")
}

/// Entries of cells that are already closed: stale by [GS.SJ.SETTLE].
fn stale_entries(bytes: &[u8]) -> usize {
    let h = walk(StateKind::GridSearch, bytes)
        .handle
        .expect("mode 1 or 3");
    assert_eq!(h.mode, 3);
    let closed: BTreeSet<i32> = h
        .cells
        .iter()
        .filter(|c| c.flags & 1 == 1)
        .map(|c| c.cell)
        .collect();
    h.heap.iter().filter(|e| closed.contains(&e.2)).count()
        + h.stack.iter().filter(|e| closed.contains(&e.1)).count()
}

#[test]
fn mode3_state_with_stale_entries_restores_and_finishes_identically() {
    for id in ["STATE-GRIDSEARCH-0007", "STATE-GRIDSEARCH-0008"] {
        let v = vector(id);
        let golden = v.decoded().expect("hex");
        let stale = stale_entries(&golden);
        assert!(
            stale >= 1,
            "{id}: expected stale entries in the saved open list, found none"
        );
        let steps = match &v.recipe {
            onepath_conformance::state::StateRecipe::GridSearch { steps, .. } => steps.clone(),
            _ => panic!("{id}: not a grid-search recipe"),
        };
        let whole = v.recipe.with_schedule(steps, true);
        let fresh = v.recipe.fresh_search().expect("search");
        for imp in [&ReferenceCrate as &dyn Implementation, &OptimizedCrate] {
            let saved = imp
                .run_state(&StateRequest::Restore {
                    recipe: v.recipe.clone(),
                    bytes: None,
                    finish: false,
                })
                .unwrap();
            assert_eq!(
                saved.before,
                golden,
                "{id} / {}: the recipe no longer saves the golden bytes",
                imp.name()
            );
            let u = imp
                .run_state(&StateRequest::Restore {
                    recipe: whole.clone(),
                    bytes: None,
                    finish: false,
                })
                .unwrap();
            let r = imp
                .run_state(&StateRequest::Restore {
                    recipe: fresh.clone(),
                    bytes: Some(golden.clone()),
                    finish: true,
                })
                .unwrap();
            assert_eq!(r.restore, Some(Ok(())), "{id} / {}", imp.name());
            let final_bytes = u.before.clone();
            let (u, rs) = (u.search.unwrap(), r.search.clone().unwrap());
            assert_eq!(
                (u.status, u.iterations, u.expanded, u.cost_bits, &u.path),
                (
                    rs.status,
                    rs.iterations,
                    rs.expanded,
                    rs.cost_bits,
                    &rs.path
                ),
                "{id} / {}",
                imp.name()
            );
            // [GS.HANDLE.RECORD] the restored handle records from the restore on: a tail.
            assert!(
                u.expansions.ends_with(&rs.expansions),
                "{id} / {}: expansions",
                imp.name()
            );
            assert_eq!(
                final_bytes,
                r.after,
                "{id} / {}: final bytes differ from the uninterrupted run's",
                imp.name()
            );
        }
    }
}

#[test]
fn grid_sections_pass_for_both_crates() {
    let config = Config {
        grid_cases: 96,
        replan_cases: 0,
        flow_cases: 0,
        movingai_side: 96,
        movingai_buckets: 24,
        threads: 2,
        ..Config::ci(DEFAULT_SEED ^ 0x61)
    };
    let all: [&dyn Implementation; 2] = [&ReferenceCrate, &OptimizedCrate];
    let grid = grid_search::run(&all, &config, None);
    assert!(
        grid.checks > 10_000,
        "grid-search ran only {} checks",
        grid.checks
    );
    assert_eq!(grid.failed, 0, "{:#?}", grid.failures.first());
    let m = grid_search::movingai(&all, &config);
    assert!(m.checks > 500, "movingai ran only {} checks", m.checks);
    assert_eq!(m.failed, 0, "{:#?}", m.failures.first());
}

/// [GS.CLEAR.VALUE] computed here from the clause's recurrence (walls 0, saturating at 255).
fn clearance_oracle(w: usize, h: usize, cells: &[u8]) -> Vec<u8> {
    let mut c = vec![0u32; w * h];
    for y in (0..h).rev() {
        for x in (0..w).rev() {
            if cells[y * w + x] == 255 {
                continue;
            }
            let at = |xx: usize, yy: usize| if xx < w && yy < h { c[yy * w + xx] } else { 0 };
            c[y * w + x] = 1 + at(x + 1, y).min(at(x, y + 1)).min(at(x + 1, y + 1));
        }
    }
    c.into_iter().map(|v| v.min(255) as u8).collect()
}

macro_rules! clearance_case {
    ($krate:ident) => {{
        use $krate as op;
        let (w, h) = (23usize, 17usize);
        let mut r = onepath_conformance::prng::SplitMix64::new(0xC1EA);
        let mut g = op::Grid::new(w, h).unwrap();
        assert_eq!(
            g.clearance(0, 0).unwrap(),
            None,
            "not computed before compute_clearance"
        );
        for _ in 0..40 {
            g.set_cell(r.below(w as u64) as usize, r.below(h as u64) as usize, 255)
                .unwrap();
        }
        g.compute_clearance();
        let check = |g: &op::Grid, what: &str| {
            let want = clearance_oracle(w, h, g.cells());
            for y in 0..h {
                for x in 0..w {
                    assert_eq!(
                        g.clearance(x, y).unwrap(),
                        Some(want[y * w + x]),
                        "{what}: cell ({x}, {y})"
                    );
                }
            }
        };
        check(&g, "computed");
        let saved = g.save_state();
        // [GS.CLEAR.GRID] edits that change a cell recompute it ...
        g.set_cell(5, 5, 255).unwrap();
        g.set_cell(0, 0, 0).unwrap();
        check(&g, "after edits");
        // ... and so does a successful restore.
        g.restore_state(&saved).unwrap();
        check(&g, "after a restore");
        assert!(g.clearance(w, 0).is_err(), "x out of range");
    }};
}

// pins [GS.CLEAR.GRID]: a clearance not None before compute_clearance, or left stale by an edit that changes a cell or by a successful restore, differs from the oracle's.
#[test]
fn clearance_is_recomputed_after_edits_and_restores_in_both_crates() {
    clearance_case!(onepath_reference);
    clearance_case!(onepath);
}

/// The optimized crate's mode-1 open list used to switch to its exact pair heap past about
/// 2.8 million cells (the limit of its former f64-quantised keys); its fixed-point keys now
/// serve such grids too. The kit's generated maps are small, so this test covers a grid past
/// that old limit: 1700 × 1700, local queries with ties, A* and Dijkstra through the handle,
/// whole and sliced with a snapshot, equal bit for bit to the reference.
#[test]
fn mode1_on_a_grid_past_the_old_quantised_key_limit_matches_the_reference() {
    use onepath_conformance::grid::{GridApi, GridMap, GridOptionsData, GridRequest};
    let (w, h) = (1700u32, 1700u32);
    let mut cells = vec![0u8; (w * h) as usize];
    for y in 800..900 {
        cells[(y * w + 850) as usize] = 255; // a wall the queries must go around
    }
    for x in 830..870 {
        cells[(880 * w + x) as usize] = 255;
    }
    let map = GridMap {
        width: w,
        height: h,
        cells,
        multipliers: vec![],
        space: None,
    };
    let queries = [
        ((840, 850), (860, 851)),
        ((845, 870), (855, 890)),
        ((0, 0), (12, 7)),
        ((1699, 1699), (1680, 1690)),
    ];
    let mut runs = 0;
    for (start, goal) in queries {
        for algorithm in [0u8, 1] {
            for (schedule, snapshot_after) in [(vec![], None), (vec![7], Some(2))] {
                let req = GridRequest {
                    map: map.clone(),
                    options: GridOptionsData {
                        algorithm,
                        ..GridOptionsData::default()
                    },
                    api: GridApi::Handle,
                    start,
                    goal,
                    schedule,
                    snapshot_after,
                };
                let a = ReferenceCrate.run_grid(&req).unwrap();
                let b = OptimizedCrate.run_grid(&req).unwrap();
                let reply = a.as_ref().expect("a reply");
                assert_eq!(reply.mode, 1, "the handle runs the specialised A* engine");
                assert_eq!(reply.status, 2, "{start:?} -> {goal:?} is reachable");
                assert_eq!(
                    onepath_conformance::grid::first_difference(&a, &b),
                    None,
                    "{start:?} -> {goal:?} algorithm {algorithm}"
                );
                runs += 1;
            }
        }
    }
    assert_eq!(runs, 16);
}
