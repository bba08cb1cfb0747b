//! [CONF.CHECK.HPA] Both crates' HPA* on 600 seeded requests (the section's cases, 12.5 times
//! the CI run's 48): replies equal query for query and the hierarchy edge for edge (costs by
//! bits, stored paths, rebuilt chunks), the reference's reply against the oracle, the sliced
//! check (every query sliced on one refreshed hierarchy equals tier 1) and the rebuild check.
//! The request form and checks are shared with the `hpa_search` fuzz target
//! (`onepath_conformance::fuzzing::hpa`), which also runs both self-checks on `onepath`.

use onepath_conformance::checks::hpa;
use onepath_conformance::{Config, OptimizedCrate, ReferenceCrate};

#[test]
fn both_crates_agree_on_many_requests() {
    let config = Config {
        grid_cases: 600,
        vectors_dir: None,
        ..Config::ci(0x4BA0)
    };
    let s = hpa::run(&[&ReferenceCrate, &OptimizedCrate], &config, None);
    assert_eq!(s.failed, 0, "{:?}", s.failures.first());
    assert!(s.passed >= 1200, "{}", s.passed);
}

#[test]
fn the_fuzz_check_passes_on_seeded_requests() {
    for seed in 0..150u64 {
        let r = onepath_conformance::hpa::cases::request(seed, seed % 9);
        if let Err(e) = onepath_conformance::fuzzing::hpa::check(&r) {
            panic!("seed {seed}: {e}");
        }
    }
}

/// One seeded cave-like map of `side`², built the same way in both crates: random walls
/// (`wall_pct` %) smoothed twice by the 4-5 rule, and areas 1–2 with multipliers 1.5 and 3.0 on
/// a quarter of the open cells.
fn cave_cells(side: usize, wall_pct: u64, seed: u64) -> Vec<u8> {
    let mut s = seed | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut wall: Vec<bool> = (0..side * side).map(|_| next() % 100 < wall_pct).collect();
    for _ in 0..2 {
        let old = wall.clone();
        for y in 0..side {
            for x in 0..side {
                let mut n = 0;
                for dy in -1i64..=1 {
                    for dx in -1i64..=1 {
                        let (a, b) = (x as i64 + dx, y as i64 + dy);
                        if a < 0 || b < 0 || a >= side as i64 || b >= side as i64 {
                            n += 1;
                        } else if old[b as usize * side + a as usize] {
                            n += 1;
                        }
                    }
                }
                wall[y * side + x] = n >= 5;
            }
        }
    }
    wall.iter()
        .map(|&w| match (w, next() % 8) {
            (true, _) => 255,
            (false, 0) => 1,
            (false, 1) => 2,
            _ => 0,
        })
        .collect()
}

/// Long smoothed paths (the onepath smoothing keeps clear-run tables and a lower-bound filter
/// that the small generated maps barely exercise): both crates give the same cells and cost bits
/// on 96² caves, for both connectivities and every corner rule.
#[test]
fn both_crates_smooth_long_paths_alike() {
    use onepath::{Connectivity as C, DiagonalRule as D};
    let side = 96;
    let mut compared = 0;
    for seed in 1..=6u64 {
        let cells = cave_cells(side, 40, seed);
        let mut a = onepath::Grid::new(side, side).unwrap();
        let mut b = onepath_reference::Grid::new(side, side).unwrap();
        a.set_area_multiplier(1, 1.5).unwrap();
        a.set_area_multiplier(2, 3.0).unwrap();
        b.set_area_multiplier(1, 1.5).unwrap();
        b.set_area_multiplier(2, 3.0).unwrap();
        for (i, &c) in cells.iter().enumerate() {
            a.set_cell(i % side, i / side, c).unwrap();
            b.set_cell(i % side, i / side, c).unwrap();
        }
        let (conn, rule) = match seed % 4 {
            0 => (C::Four, D::NoneBlocked),
            1 => (C::Eight, D::NoneBlocked),
            2 => (C::Eight, D::AtMostOneBlocked),
            _ => (C::Eight, D::Always),
        };
        let oa = onepath::HpaOptions {
            chunk_size: 8,
            connectivity: conn,
            diagonal: rule,
            smooth: true,
            ..Default::default()
        };
        let ob = onepath_reference::HpaOptions {
            chunk_size: 8,
            connectivity: match conn {
                C::Four => onepath_reference::Connectivity::Four,
                C::Eight => onepath_reference::Connectivity::Eight,
            },
            diagonal: match rule {
                D::NoneBlocked => onepath_reference::DiagonalRule::NoneBlocked,
                D::AtMostOneBlocked => onepath_reference::DiagonalRule::AtMostOneBlocked,
                D::Always => onepath_reference::DiagonalRule::Always,
            },
            smooth: true,
            ..Default::default()
        };
        let open: Vec<usize> = (0..side * side).filter(|&i| cells[i] != 255).collect();
        for k in 0..6 {
            let s = open[(k * 7919 + seed as usize * 104_729) % open.len()];
            let g = open[(k * 15_485_863 + seed as usize * 3) % open.len()];
            let (s, g) = ((s % side, s / side), (g % side, g / side));
            let pa = onepath::find_hpa_path(&a, s, g, &oa).unwrap();
            let pb = onepath_reference::find_hpa_path(&b, s, g, &ob).unwrap();
            assert_eq!(pa.cells, pb.cells, "seed {seed} query {k}: cells");
            assert_eq!(
                pa.cost.to_bits(),
                pb.cost.to_bits(),
                "seed {seed} query {k}: cost"
            );
            compared += pa.cells.len();
        }
    }
    assert!(
        compared > 1000,
        "{compared} path cells compared: the maps gave short paths"
    );
}

/// [HPA.REFINE.LOOPS] as the spec states it, transcribed here: for `i = 0, 1, …` while `i` is
/// below the length, with `j` the largest index holding `cell[i]`, remove `i + 1 ..= j`.
fn spec_cut_loops(cells: &[u32]) -> Vec<u32> {
    let mut c = cells.to_vec();
    let mut i = 0;
    while i < c.len() {
        let j = (0..c.len()).rev().find(|&j| c[j] == c[i]).unwrap_or(i);
        if j > i {
            c.drain(i + 1..=j);
        }
        i += 1;
    }
    c
}

// pins [HPA.REFINE.LOOPS]: no search result has a loop to cut (the clause's informative note), so the rule is checked on the crates' `cut_loops`, which their refinement calls: an implementation that keeps a loop, cuts at the first repeat instead of the last, or cuts from the wrong end fails here
#[test]
fn both_crates_cut_loops_as_the_spec_states() {
    // Worked cases: a loop back to the start, two nested loops (the outer one wins), a later
    // loop after an earlier one, a repeat of the last cell, no loop at all.
    let cases: [(&[u32], &[u32]); 6] = [
        (&[7, 1, 2, 7, 3], &[7, 3]),
        (&[1, 2, 3, 2, 1, 4], &[1, 4]),
        (&[1, 2, 3, 2, 4, 5, 4, 6], &[1, 2, 4, 6]),
        (&[5, 6, 5, 6], &[5, 6]),
        (&[9, 8, 7], &[9, 8, 7]),
        (&[], &[]),
    ];
    for (input, want) in cases {
        assert_eq!(
            spec_cut_loops(input),
            want,
            "the transcription on {input:?}"
        );
        assert_eq!(
            onepath_reference::cut_loops(input),
            want,
            "onepath-reference on {input:?}"
        );
        assert_eq!(onepath::cut_loops(input), want, "onepath on {input:?}");
    }
    // Seeded lists over few distinct cells, so that loops overlap and nest.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..2000 {
        let len = (next() % 24) as usize;
        let alphabet = 1 + next() % 8;
        let cells: Vec<u32> = (0..len).map(|_| (next() % alphabet) as u32).collect();
        let want = spec_cut_loops(&cells);
        assert_eq!(
            onepath_reference::cut_loops(&cells),
            want,
            "onepath-reference on {cells:?}"
        );
        assert_eq!(onepath::cut_loops(&cells), want, "onepath on {cells:?}");
        // A cut list repeats no cell.
        let mut seen = want.clone();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), want.len(), "{cells:?} -> {want:?}");
    }
}
