//! Replanners against a plain Dijkstra over the same moves and costs (spec/replanning.md §2, §4,
//! §6): random small square grids (every connectivity and corner rule, agent sizes 1-3) and hex
//! grids (all four layouts), both modes, A* and Dijkstra, after random cell edits, area edits
//! and moves of the ends. LPA* is compared with a forward Dijkstra from the start, D* Lite with a
//! Dijkstra from the goal over reversed moves ([REPLAN.UPDATE] sums), bit for bit, and every path
//! is checked move by move ([REPLAN.PATH.WALK]).
mod replan_support;

use onepath::*;
use replan_support::*;

/// A grid and a replanner on it, either shape.
pub enum Sim {
    Square(Grid, GridReplanner),
    Hex(HexGrid, HexReplanner),
}

impl Sim {
    pub fn cells(&self) -> Vec<u8> {
        match self {
            Sim::Square(g, _) => g.cells().to_vec(),
            Sim::Hex(g, _) => g.cells().to_vec(),
        }
    }
    pub fn mult(&self) -> Vec<f64> {
        match self {
            Sim::Square(g, _) => mult_of(|a| g.area_multiplier(a)),
            Sim::Hex(g, _) => mult_of(|a| g.area_multiplier(a)),
        }
    }
    pub fn set_cell(&mut self, x: usize, y: usize, a: u8) {
        match self {
            Sim::Square(g, _) => g.set_cell(x, y, a).unwrap(),
            Sim::Hex(g, _) => g.set_cell(x, y, a).unwrap(),
        }
    }
    pub fn set_mult(&mut self, a: u8, m: f64) {
        match self {
            Sim::Square(g, _) => g.set_area_multiplier(a, m).unwrap(),
            Sim::Hex(g, _) => g.set_area_multiplier(a, m).unwrap(),
        }
    }
    pub fn replan(&mut self, budget: u64) -> SearchStatus {
        match self {
            Sim::Square(g, r) => r.replan(g, budget).unwrap(),
            Sim::Hex(g, r) => r.replan(g, budget).unwrap(),
        }
    }
    pub fn path(&self) -> Vec<u32> {
        match self {
            Sim::Square(g, r) => r.path(g).unwrap(),
            Sim::Hex(g, r) => r.path(g).unwrap(),
        }
    }
    pub fn cost(&self) -> f64 {
        match self {
            Sim::Square(_, r) => r.path_cost(),
            Sim::Hex(_, r) => r.path_cost(),
        }
    }
    pub fn ends(&self) -> (u32, u32) {
        match self {
            Sim::Square(_, r) => (r.start(), r.goal()),
            Sim::Hex(_, r) => (r.start(), r.goal()),
        }
    }
    pub fn set_start(&mut self, x: usize, y: usize) {
        match self {
            Sim::Square(_, r) => r.set_start(x, y).unwrap(),
            Sim::Hex(_, r) => r.set_start(x, y).unwrap(),
        }
    }
    pub fn set_goal(&mut self, x: usize, y: usize) {
        match self {
            Sim::Square(_, r) => r.set_goal(x, y).unwrap(),
            Sim::Hex(_, r) => r.set_goal(x, y).unwrap(),
        }
    }
    pub fn save(&self) -> Vec<u8> {
        match self {
            Sim::Square(_, r) => r.save_state(),
            Sim::Hex(_, r) => r.save_state(),
        }
    }
    pub fn found(&self) -> bool {
        match self {
            Sim::Square(_, r) => r.found(),
            Sim::Hex(_, r) => r.found(),
        }
    }
}

const MULTS: [f64; 6] = [0.5, 1.3, 2.0, 0.75, 3.1, 1.0];

/// A random grid of `shape`'s size (20% walls, areas 0..=3 with random multipliers) and a
/// replanner on it.
pub fn make(rng: &mut Xs, shape: &Shape, mode: ReplanMode, alg: GridAlgorithm) -> Sim {
    let (w, h) = shape.wh();
    let mut cells = Vec::new();
    for _ in 0..w * h {
        cells.push(if rng.below(100) < 20 {
            WALL
        } else {
            rng.below(4) as u8
        });
    }
    let start = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
    let goal = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
    let mut o = GridOptions {
        algorithm: alg,
        record_expansions: rng.below(2) == 0,
        ..GridOptions::default()
    };
    let mut sim = match *shape {
        Shape::Square { k, four, rule, .. } => {
            o.agent_size = k as u32;
            o.connectivity = if four {
                Connectivity::Four
            } else {
                Connectivity::Eight
            };
            o.diagonal = rule;
            let mut g = Grid::new(w, h).unwrap();
            for (i, &c) in cells.iter().enumerate() {
                g.set_cell(i % w, i / w, c).unwrap();
            }
            let r = GridReplanner::new(&mut g, o, mode, start, goal).unwrap();
            Sim::Square(g, r)
        }
        Shape::Hex { layout, .. } => {
            let mut g = HexGrid::new(w, h, layout).unwrap();
            for (i, &c) in cells.iter().enumerate() {
                g.set_cell(i % w, i / w, c).unwrap();
            }
            let r = HexReplanner::new(&mut g, o, mode, start, goal).unwrap();
            Sim::Hex(g, r)
        }
    };
    for a in 1..4u8 {
        sim.set_mult(a, MULTS[rng.below(6) as usize]);
    }
    sim
}

/// One random change: cell edits (walls and areas), sometimes an area multiplier, sometimes an
/// end moved.
pub fn mutate(rng: &mut Xs, sim: &mut Sim, shape: &Shape) {
    let (w, h) = shape.wh();
    for _ in 0..rng.below(5) {
        let (x, y) = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
        let a = if rng.below(3) == 0 {
            WALL
        } else {
            rng.below(4) as u8
        };
        sim.set_cell(x, y, a);
    }
    match rng.below(12) {
        0 => sim.set_mult(1 + rng.below(3) as u8, MULTS[rng.below(6) as usize]),
        1 | 2 => sim.set_start(rng.below(w as u64) as usize, rng.below(h as u64) as usize),
        3 => sim.set_goal(rng.below(w as u64) as usize, rng.below(h as u64) as usize),
        _ => {}
    }
}

/// The replanner's cost equals the oracle's bit for bit, and its path is valid.
pub fn check(sim: &Sim, shape: &Shape, mode: ReplanMode, status: SearchStatus, what: &str) {
    let cells = sim.cells();
    let mult = sim.mult();
    let (s, g) = sim.ends();
    let forward = mode == ReplanMode::Lpa;
    let want = if forward {
        dijkstra(shape, &cells, &mult, s as usize, true)[g as usize]
    } else {
        dijkstra(shape, &cells, &mult, g as usize, false)[s as usize]
    };
    assert_eq!(
        sim.cost().to_bits(),
        want.to_bits(),
        "{what}: cost {} vs oracle {want}",
        sim.cost()
    );
    let expect = if want < f64::INFINITY {
        SearchStatus::Found
    } else {
        SearchStatus::NotFound
    };
    assert_eq!(status, expect, "{what}");
    let path = sim.path();
    if sim.found() {
        let c = check_path(shape, &cells, &mult, &path, s, g, forward);
        assert_eq!(c.to_bits(), want.to_bits(), "{what}: path sum {c} vs {want}");
    } else {
        assert!(path.is_empty());
    }
}

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
    assert!(found * 8 > total && found < total, "{found} of {total} found");
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
            let a = if rng.below(4) == 0 { WALL } else { rng.below(4) as u8 };
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
        e(GridReplanner::new(&mut g, jps, ReplanMode::Lpa, (0, 0), (1, 1))),
        "unsupported_algorithm"
    );
    let hook = GridOptions {
        blocked: Some(std::sync::Arc::new(|_| false)),
        algorithm: GridAlgorithm::Theta,
        ..o.clone()
    };
    assert_eq!(
        e(GridReplanner::new(&mut g, hook, ReplanMode::Lpa, (0, 0), (1, 1))),
        "invalid_options"
    );
    assert_eq!(
        e(GridReplanner::new(&mut g, o.clone(), ReplanMode::Lpa, (4, 0), (1, 9))),
        "cell_out_of_range"
    );
    let mut r = GridReplanner::new(&mut g, o.clone(), ReplanMode::DStarLite, (0, 0), (3, 2)).unwrap();
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
}
