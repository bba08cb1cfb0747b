//! Hex search and voxel search against an independent plain Dijkstra (BinaryHeap) over the same
//! move rules on many seeded random maps, and a reused search against fresh ones.

mod lattice_support;
use lattice_support::*;

// ---------------------------------------------------------------- randomized vs Dijkstra

fn hooks(rng: &mut Rng) -> (Option<CellCostFn>, Option<CellBlockedFn>) {
    let salt = rng.next();
    let cost: Option<CellCostFn> = match rng.below(3) {
        0 => None,
        1 => Some(Arc::new(move |a, b| {
            ((a as u64 * 31 + b as u64 * 17 + salt) % 5) as f64 * 0.25
        })),
        _ => Some(Arc::new(move |a, b| {
            match (a as u64 * 7 + b as u64 * 3 + salt) % 11 {
                0 => f64::NAN,
                1 => -0.5,
                2 => -0.0,
                3 => f64::INFINITY,
                k => k as f64 * 0.1,
            }
        })),
    };
    let blocked: Option<CellBlockedFn> = if rng.below(2) == 0 {
        None
    } else {
        let m = 7 + rng.below(10);
        Some(Arc::new(move |c| {
            (c as u64 * 2654435761 + salt).is_multiple_of(m)
        }))
    };
    (cost, blocked)
}

#[test]
fn hex_random_vs_dijkstra() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut tally = [0u32; 2];
    for case in 0..160 {
        let layout = [
            HexLayout::OddR,
            HexLayout::EvenR,
            HexLayout::OddQ,
            HexLayout::EvenQ,
        ][case % 4];
        let (w, h) = (1 + rng.below(24) as usize, 1 + rng.below(24) as usize);
        let mut g = HexGrid::new(w, h, layout).unwrap();
        if rng.below(2) == 0 {
            g.set_area_multiplier(1, 0.5).unwrap();
            g.set_area_multiplier(2, 3.0).unwrap();
        }
        let density = rng.below(40);
        for y in 0..h {
            for x in 0..w {
                let r = rng.below(100);
                let a = if r < density {
                    WALL
                } else if r < density + 15 {
                    1 + (r % 2) as u8
                } else {
                    0
                };
                g.set_cell(x, y, a).unwrap();
            }
        }
        let (cost, blocked) = hooks(&mut rng);
        for q in 0..4 {
            let s = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
            let t = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
            let o = GridOptions {
                cell_cost: cost.clone(),
                blocked: blocked.clone(),
                ..Default::default()
            };
            let want = hex_ref(&g, &o, s, t);
            tally[want.is_some() as usize] += 1;
            for alg in [GridAlgorithm::Dijkstra, GridAlgorithm::AStar] {
                let o = GridOptions {
                    algorithm: alg,
                    record_expansions: q == 0,
                    ..o.clone()
                };
                let p = find_hex_path(&g, s, t, &o).unwrap();
                match want {
                    None => assert_eq!(p.status, PathStatus::NotFound, "case {case} {alg:?}"),
                    Some(c) => {
                        assert_eq!(p.status, PathStatus::Found, "case {case} {alg:?}");
                        assert!(close(p.cost, c), "case {case} {alg:?}: {} vs {c}", p.cost);
                        assert!(p.cost <= c * (1.0 + 1e-12) + 1e-12);
                        assert_eq!(p.cells.first(), Some(&((s.1 * w + s.0) as u32)));
                    }
                }
                assert_eq!(
                    p.expanded.len() as u64,
                    if q == 0 { p.expanded_count } else { 0 }
                );
            }
            // weighted A*: never better than optimal, found iff reachable
            let o = GridOptions {
                heuristic_weight: 2.5,
                ..o.clone()
            };
            let p = find_hex_path(&g, s, t, &o).unwrap();
            assert_eq!(p.status == PathStatus::Found, want.is_some());
            if let Some(c) = want {
                assert!(p.cost >= c * (1.0 - 1e-12));
            }
        }
    }
    assert!(tally[0] > 40 && tally[1] > 200, "{tally:?}");
}

#[test]
fn voxel_random_vs_dijkstra() {
    let mut rng = Rng(0xfeed_beef_cafe_0042);
    let conns = [
        VoxelConnectivity::Six,
        VoxelConnectivity::Eighteen,
        VoxelConnectivity::TwentySix,
    ];
    let rules = [
        DiagonalRule::Always,
        DiagonalRule::AtMostOneBlocked,
        DiagonalRule::NoneBlocked,
    ];
    let mut tally = [0u32; 2];
    for case in 0..135 {
        let conn = conns[case % 3];
        let rule = rules[case / 3 % 3];
        let (sx, sy, sz) = (
            1 + rng.below(9) as usize,
            1 + rng.below(9) as usize,
            1 + rng.below(9) as usize,
        );
        let mut g = VoxelGrid::new(sx, sy, sz, if rng.below(6) == 0 { 255 } else { 0 }).unwrap();
        if rng.below(2) == 0 {
            g.set_area_multiplier(1, 0.25).unwrap();
            g.set_area_multiplier(2, 4.0).unwrap();
        }
        let density = rng.below(45);
        for z in 0..sz {
            for y in 0..sy {
                for x in 0..sx {
                    let r = rng.below(100);
                    let a = if r < density {
                        255
                    } else if r < density + 15 {
                        1 + (r % 2) as u8
                    } else {
                        0
                    };
                    g.set_voxel(x, y, z, a).unwrap();
                }
            }
        }
        let (cost, blocked) = hooks(&mut rng);
        for q in 0..4 {
            let pick = |rng: &mut Rng| {
                (
                    rng.below(sx as u64) as usize,
                    rng.below(sy as u64) as usize,
                    rng.below(sz as u64) as usize,
                )
            };
            let (s, t) = (pick(&mut rng), pick(&mut rng));
            let o = VoxelOptions {
                connectivity: conn,
                diagonal: rule,
                cell_cost: cost.clone(),
                blocked: blocked.clone(),
                ..Default::default()
            };
            let want = vox_ref(&g, &o, s, t);
            tally[want.is_some() as usize] += 1;
            for alg in [GridAlgorithm::Dijkstra, GridAlgorithm::AStar] {
                let o = VoxelOptions {
                    algorithm: alg,
                    record_expansions: q == 0,
                    ..o.clone()
                };
                let p = find_voxel_path(&g, s, t, &o).unwrap();
                match want {
                    None => assert_eq!(p.status, PathStatus::NotFound, "case {case} {alg:?}"),
                    Some(c) => {
                        assert_eq!(
                            p.status,
                            PathStatus::Found,
                            "case {case} {alg:?} {conn:?} {rule:?}"
                        );
                        assert!(
                            close(p.cost, c),
                            "case {case} {alg:?} {conn:?} {rule:?}: {} vs {c}",
                            p.cost
                        );
                        assert!(p.cost <= c * (1.0 + 1e-12) + 1e-12);
                    }
                }
                assert_eq!(
                    p.expanded.len() as u64,
                    if q == 0 { p.expanded_count } else { 0 }
                );
            }
            let o = VoxelOptions {
                heuristic_weight: 1.7,
                ..o.clone()
            };
            let p = find_voxel_path(&g, s, t, &o).unwrap();
            assert_eq!(p.status == PathStatus::Found, want.is_some());
            if let Some(c) = want {
                assert!(p.cost >= c * (1.0 - 1e-12));
            }
        }
    }
    assert!(tally[0] > 40 && tally[1] > 200, "{tally:?}");
}

/// A reused search gives the same results as a fresh one (epoch reset hides the old search).
#[test]
fn reuse_equals_fresh() {
    let mut rng = Rng(7);
    let mut g = HexGrid::new(20, 17, HexLayout::OddQ).unwrap();
    for _ in 0..90 {
        g.set_cell(rng.below(20) as usize, rng.below(17) as usize, WALL)
            .unwrap();
    }
    let o = GridOptions {
        record_expansions: true,
        ..Default::default()
    };
    let mut reused = HexSearch::new(&g, o.clone()).unwrap();
    for _ in 0..50 {
        let s = (rng.below(20) as usize, rng.below(17) as usize);
        let t = (rng.below(20) as usize, rng.below(17) as usize);
        reused.begin(s, t).unwrap();
        reused.run(None);
        let mut fresh = HexSearch::new(&g, o.clone()).unwrap();
        fresh.begin(s, t).unwrap();
        fresh.run(None);
        assert_eq!(reused.path(), fresh.path());
        assert_eq!(reused.expansions(), fresh.expansions());
        assert_eq!(reused.path_cost().to_bits(), fresh.path_cost().to_bits());
    }
}
