//! A grid with a replanner on it (either shape), random maps and edits, and the oracle check.
use super::*;

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
    pub fn try_path(&self) -> Result<Vec<u32>, GridSearchError> {
        match self {
            Sim::Square(g, r) => r.path(g),
            Sim::Hex(g, r) => r.path(g),
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
        assert_eq!(
            c.to_bits(),
            want.to_bits(),
            "{what}: path sum {c} vs {want}"
        );
    } else {
        assert!(path.is_empty());
    }
}
