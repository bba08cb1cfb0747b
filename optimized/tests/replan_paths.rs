//! Replanners against a plain Dijkstra over the same moves and costs (spec/replanning.md §2, §4,
//! §6): random small square grids (every connectivity and corner rule, agent sizes 1-3) and hex
//! grids (all four layouts), both modes, A* and Dijkstra, after random cell edits, area edits
//! and moves of the ends. LPA* is compared with a forward Dijkstra from the start, D* Lite with a
//! Dijkstra from the goal over reversed moves ([REPLAN.UPDATE] sums), bit for bit, and every path
//! is checked move by move ([REPLAN.PATH.WALK]).
mod replan_support;

use onepath::*;
use replan_support::sim::*;
use replan_support::*;

fn scenarios(shape_of: &dyn Fn(&mut Xs) -> Shape, count: u64, seed: u64) {
    let (mut found, mut total) = (0, 0);
    for i in 0..count {
        let mut rng = Xs(seed + 7919 * i);
        let shape = shape_of(&mut rng);
        for mode in [ReplanMode::Lpa, ReplanMode::DStarLite] {
            for alg in [GridAlgorithm::AStar, GridAlgorithm::Dijkstra] {
                let mut sim = make(&mut rng, &shape, mode, alg);
                for round in 0..10 {
                    let st = sim.replan(0);
                    let what = format!("case {i} {shape:?} {mode:?} {alg:?} round {round}");
                    check(&sim, &shape, mode, st, &what);
                    found += (st == SearchStatus::Found) as usize;
                    total += 1;
                    mutate(&mut rng, &mut sim, &shape);
                }
            }
        }
    }
    // The random maps must exercise both outcomes.
    assert!(
        found * 8 > total && found < total,
        "{found} of {total} found"
    );
}

#[test]
fn square_replanners_match_dijkstra() {
    let rules = [
        DiagonalRule::Always,
        DiagonalRule::AtMostOneBlocked,
        DiagonalRule::NoneBlocked,
    ];
    scenarios(
        &|rng| Shape::Square {
            w: 2 + rng.below(9) as usize,
            h: 2 + rng.below(9) as usize,
            k: 1 + rng.below(3) as usize,
            four: rng.below(3) == 0,
            rule: rules[rng.below(3) as usize],
        },
        150,
        0x5EED_0001,
    );
}

#[test]
fn hex_replanners_match_dijkstra() {
    let layouts = [
        HexLayout::OddR,
        HexLayout::EvenR,
        HexLayout::OddQ,
        HexLayout::EvenQ,
    ];
    scenarios(
        &|rng| Shape::Hex {
            w: 1 + rng.below(10) as usize,
            h: 1 + rng.below(10) as usize,
            layout: layouts[rng.below(4) as usize],
        },
        150,
        0x5EED_0002,
    );
}

#[test]
fn edits_in_one_replan_and_overflow() {
    // [REPLAN.EDIT.LIMIT] More edits than 64 + cells / 16 overflow the pending list: the next
    // replan restarts and is still exact.
    let shape = Shape::Square {
        w: 12,
        h: 12,
        k: 1,
        four: false,
        rule: DiagonalRule::NoneBlocked,
    };
    let mut rng = Xs(42);
    for mode in [ReplanMode::Lpa, ReplanMode::DStarLite] {
        let mut sim = make(&mut rng, &shape, mode, GridAlgorithm::AStar);
        let st = sim.replan(0);
        check(&sim, &shape, mode, st, "first");
        for _ in 0..80 {
            let (x, y) = (rng.below(12) as usize, rng.below(12) as usize);
            let a = if rng.below(4) == 0 {
                WALL
            } else {
                rng.below(4) as u8
            };
            sim.set_cell(x, y, a);
        }
        let pending = match &sim {
            Sim::Square(_, r) => r.pending_count(),
            Sim::Hex(_, r) => r.pending_count(),
        };
        assert!(pending <= 64 + 144 / 16);
        let st = sim.replan(0);
        check(&sim, &shape, mode, st, "after many edits");
    }
}

#[test]
fn options_and_ends_errors() {
    let mut g = Grid::new(4, 3).unwrap();
    let o = GridOptions::default();
    let e = |r: Result<GridReplanner, GridSearchError>| r.unwrap_err().class();
    let jps = GridOptions {
        algorithm: GridAlgorithm::Jps,
        ..o.clone()
    };
    assert_eq!(
        e(GridReplanner::new(
            &mut g,
            jps,
            ReplanMode::Lpa,
            (0, 0),
            (1, 1)
        )),
        "unsupported_algorithm"
    );
    let hook = GridOptions {
        blocked: Some(std::sync::Arc::new(|_| false)),
        algorithm: GridAlgorithm::Theta,
        ..o.clone()
    };
    assert_eq!(
        e(GridReplanner::new(
            &mut g,
            hook,
            ReplanMode::Lpa,
            (0, 0),
            (1, 1)
        )),
        "invalid_options"
    );
    assert_eq!(
        e(GridReplanner::new(
            &mut g,
            o.clone(),
            ReplanMode::Lpa,
            (4, 0),
            (1, 9)
        )),
        "cell_out_of_range"
    );
    let mut r =
        GridReplanner::new(&mut g, o.clone(), ReplanMode::DStarLite, (0, 0), (3, 2)).unwrap();
    assert_eq!(r.set_start(0, 3).unwrap_err().class(), "cell_out_of_range");
    let other = Grid::new(3, 4).unwrap();
    assert_eq!(r.replan(&other, 0).unwrap_err().class(), "size_mismatch");
    assert_eq!(r.path(&other).unwrap_err().class(), "size_mismatch");
    assert!(!r.is_initialized());
    assert_eq!(r.replan(&g, 0).unwrap(), SearchStatus::Found);
    assert_eq!(r.path(&g).unwrap().first(), Some(&0));
    // [REPLAN.API.DETACH] After detach, edits are not seen; a dropped replanner's listener is
    // inert.
    assert!(r.detach(&mut g));
    assert!(!r.detach(&mut g));
    g.set_cell(1, 1, WALL).unwrap();
    assert_eq!(r.pending_count(), 0);
    let r2 = GridReplanner::new(&mut g, o.clone(), ReplanMode::Lpa, (0, 0), (3, 2)).unwrap();
    drop(r2);
    g.set_cell(2, 1, WALL).unwrap();
    let mut hg = HexGrid::new(3, 3, HexLayout::OddQ).unwrap();
    let big = GridOptions {
        agent_size: 2,
        ..o.clone()
    };
    assert_eq!(
        HexReplanner::new(&mut hg, big, ReplanMode::Lpa, (0, 0), (1, 1))
            .unwrap_err()
            .class(),
        "invalid_options"
    );
    // [REPLAN.API.OPTIONS] The fields of [GS.OPT.VALID] come before the hex agent size.
    let both = GridOptions {
        agent_size: 2,
        heuristic_weight: 0.5,
        ..o.clone()
    };
    let e = HexReplanner::new(&mut hg, both, ReplanMode::Lpa, (0, 0), (1, 1)).unwrap_err();
    assert!(e.to_string().contains("heuristic_weight"), "{e}");
    let e = HexReplanner::new(&mut hg, o.clone(), ReplanMode::Lpa, (3, 0), (0, 0)).unwrap_err();
    assert_eq!(e.class(), "cell_out_of_range");
}
