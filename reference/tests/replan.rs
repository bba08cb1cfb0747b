//! [REPLAN.COMPUTE.STEP] [REPLAN.EDIT.CELLS] [REPLAN.RUN.SET_START] The reference replanners
//! against a plain Dijkstra written here over the same moves ([REPLAN.MOVE.SQUARE],
//! [REPLAN.MOVE.HEX], [REPLAN.MOVE.COST]) after random edits and start moves; budgeted replans
//! against unbudgeted ones; save -> restore -> save.

use onepath_reference::{
    Connectivity, DiagonalRule, Grid, GridAlgorithm, GridOptions, GridReplanner, HexGrid,
    HexLayout, HexReplanner, ReplanMode, SearchStatus, WALL,
};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const MULTIPLIERS: [f64; 4] = [1.0, 2.0, 0.5, 3.0];

/// The neighbours `(v, c(u, v))` of `u` on a square grid, as the spec defines them.
fn square_moves(grid: &Grid, o: &GridOptions, u: usize) -> Vec<(usize, f64)> {
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let k = o.agent_size as i64;
    let passable = |x: i64, y: i64| -> bool {
        if x < 0 || y < 0 || x >= w || y >= h {
            return false;
        }
        for yy in y..y + k {
            for xx in x..x + k {
                if xx >= w || yy >= h || grid.cells()[(yy * w + xx) as usize] == WALL {
                    return false;
                }
            }
        }
        true
    };
    let (x, y) = (u as i64 % w, u as i64 / w);
    let mut out = Vec::new();
    if !passable(x, y) {
        return out;
    }
    let dirs = [
        (0, -1),
        (1, 0),
        (0, 1),
        (-1, 0),
        (1, -1),
        (1, 1),
        (-1, 1),
        (-1, -1),
    ];
    for (dx, dy) in dirs {
        let (vx, vy) = (x + dx, y + dy);
        if !passable(vx, vy) {
            continue;
        }
        let diagonal = dx != 0 && dy != 0;
        if diagonal {
            if o.connectivity == Connectivity::Four {
                continue;
            }
            let (a, b) = (passable(x + dx, y), passable(x, y + dy));
            let ok = match o.diagonal {
                DiagonalRule::Always => true,
                DiagonalRule::AtMostOneBlocked => a || b,
                DiagonalRule::NoneBlocked => a && b,
            };
            if !ok {
                continue;
            }
        }
        let v = (vy * w + vx) as usize;
        let base = if diagonal {
            std::f64::consts::SQRT_2
        } else {
            1.0
        };
        let m = grid.area_multiplier(grid.cells()[v]).unwrap();
        out.push((v, base * m));
    }
    out
}

fn hex_moves(grid: &HexGrid, u: usize) -> Vec<(usize, f64)> {
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let (x, y) = (u as i64 % w, u as i64 / w);
    let odd_r = [
        [(0, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1)],
        [(1, -1), (1, 0), (1, 1), (0, 1), (-1, 0), (0, -1)],
    ];
    let odd_q = [
        [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)],
        [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)],
    ];
    let offsets = match grid.layout() {
        HexLayout::OddR => odd_r[(y & 1) as usize],
        HexLayout::EvenR => odd_r[1 - (y & 1) as usize],
        HexLayout::OddQ => odd_q[(x & 1) as usize],
        HexLayout::EvenQ => odd_q[1 - (x & 1) as usize],
    };
    let mut out = Vec::new();
    if grid.cells()[u] == WALL {
        return out;
    }
    for (dx, dy) in offsets {
        let (vx, vy) = (x + dx, y + dy);
        if vx < 0 || vy < 0 || vx >= w || vy >= h {
            continue;
        }
        let v = (vy * w + vx) as usize;
        if grid.cells()[v] != WALL {
            out.push((v, grid.area_multiplier(grid.cells()[v]).unwrap()));
        }
    }
    out
}

/// Dijkstra from `source`: forward sums `d(u) + c(u, v)` (LPA*) or backward sums
/// `c(u, v) + d(v)` over the reversed moves (D* Lite), which is the order each replanner adds.
fn dijkstra(
    n: usize,
    moves: &dyn Fn(usize) -> Vec<(usize, f64)>,
    source: usize,
    target: usize,
    forward: bool,
) -> f64 {
    let mut d = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    d[source] = 0.0;
    loop {
        let mut best = None;
        for v in 0..n {
            if !done[v] && d[v] < f64::INFINITY && best.is_none_or(|b: usize| d[v] < d[b]) {
                best = Some(v);
            }
        }
        let Some(u) = best else { break };
        done[u] = true;
        // Moves are symmetric; backward, the move is `v -> u` with cost c(v, u).
        for (v, c) in moves(u) {
            let cand = if forward {
                d[u] + c
            } else {
                let back = moves(v)
                    .into_iter()
                    .find(|&(t, _)| t == u)
                    .map(|(_, c)| c)
                    .unwrap();
                back + d[u]
            };
            if cand < d[v] {
                d[v] = cand;
            }
        }
    }
    d[target]
}

fn options(rng: &mut Rng, hex: bool) -> GridOptions {
    let agent_size = if hex { 1 } else { 1 + rng.below(3) as u32 };
    let connectivity = if rng.below(2) == 0 {
        Connectivity::Four
    } else {
        Connectivity::Eight
    };
    let diagonal = [
        DiagonalRule::Always,
        DiagonalRule::AtMostOneBlocked,
        DiagonalRule::NoneBlocked,
    ][rng.below(3) as usize];
    let algorithm = if rng.below(2) == 0 {
        GridAlgorithm::AStar
    } else {
        GridAlgorithm::Dijkstra
    };
    GridOptions {
        agent_size,
        connectivity,
        diagonal,
        algorithm,
        record_expansions: true,
        ..GridOptions::default()
    }
}

fn random_area(rng: &mut Rng) -> u8 {
    if rng.below(4) == 0 {
        WALL
    } else {
        rng.below(4) as u8
    }
}

/// Zeroes `last_expanded` (bytes 60..64), the one field a sliced replan counts per call.
fn without_last(mut b: Vec<u8>) -> Vec<u8> {
    b[60..64].fill(0);
    b
}

#[test]
fn square_replanner_costs_equal_dijkstra_after_edits() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for case in 0..60 {
        let (w, h) = (4 + rng.below(9) as usize, 3 + rng.below(8) as usize);
        let mut grid = Grid::new(w, h).unwrap();
        for a in 0..4u8 {
            grid.set_area_multiplier(a, MULTIPLIERS[a as usize])
                .unwrap();
        }
        for y in 0..h {
            for x in 0..w {
                grid.set_cell(x, y, random_area(&mut rng)).unwrap();
            }
        }
        let o = options(&mut rng, false);
        let mode = if case % 2 == 0 {
            ReplanMode::Lpa
        } else {
            ReplanMode::DStarLite
        };
        let mut start = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
        let goal = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
        let mut r = GridReplanner::new(&mut grid, o.clone(), mode, start, goal).unwrap();
        let mut sliced = GridReplanner::new(&mut grid, o.clone(), mode, start, goal).unwrap();
        for round in 0..12 {
            let status = r.replan(&grid, 0).unwrap();
            let budget = 1 + (round % 3) as u64;
            while sliced.replan(&grid, budget).unwrap() == SearchStatus::Running {}
            assert_eq!(
                without_last(r.save_state()),
                without_last(sliced.save_state()),
                "case {case} round {round}"
            );
            let s = start.1 * w + start.0;
            let t = goal.1 * w + goal.0;
            let moves = |u: usize| square_moves(&grid, &o, u);
            let expect = if mode == ReplanMode::Lpa {
                dijkstra(w * h, &moves, s, t, true)
            } else {
                dijkstra(w * h, &moves, t, s, false)
            };
            assert_eq!(
                r.path_cost().to_bits(),
                expect.to_bits(),
                "case {case} round {round}"
            );
            assert_eq!(status == SearchStatus::Found, expect < f64::INFINITY);
            let path = r.path(&grid).unwrap();
            if status == SearchStatus::Found {
                assert_eq!(path[0] as usize, s);
                assert_eq!(*path.last().unwrap() as usize, t);
                for pair in path.windows(2) {
                    assert!(moves(pair[0] as usize)
                        .iter()
                        .any(|&(v, _)| v == pair[1] as usize));
                }
            }
            // Save -> restore -> save into a fresh replanner.
            let bytes = r.save_state();
            let mut copy = GridReplanner::new(&mut grid, o.clone(), mode, start, goal).unwrap();
            copy.restore_state(&grid, &bytes).unwrap();
            assert_eq!(copy.save_state(), bytes);
            // Edits, and for D* Lite a start move.
            for _ in 0..1 + rng.below(4) {
                let (x, y) = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
                grid.set_cell(x, y, random_area(&mut rng)).unwrap();
            }
            if mode == ReplanMode::DStarLite && rng.below(2) == 0 {
                start = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
                r.set_start(start.0, start.1).unwrap();
                sliced.set_start(start.0, start.1).unwrap();
            }
        }
    }
}

#[test]
fn hex_replanner_costs_equal_dijkstra_after_edits() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let layouts = [
        HexLayout::OddR,
        HexLayout::EvenR,
        HexLayout::OddQ,
        HexLayout::EvenQ,
    ];
    for case in 0..48 {
        let (w, h) = (3 + rng.below(9) as usize, 3 + rng.below(9) as usize);
        let mut grid = HexGrid::new(w, h, layouts[case % 4]).unwrap();
        for a in 0..4u8 {
            grid.set_area_multiplier(a, MULTIPLIERS[a as usize])
                .unwrap();
        }
        for y in 0..h {
            for x in 0..w {
                grid.set_cell(x, y, random_area(&mut rng)).unwrap();
            }
        }
        let o = options(&mut rng, true);
        let mode = if (case / 4) % 2 == 0 {
            ReplanMode::Lpa
        } else {
            ReplanMode::DStarLite
        };
        let mut start = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
        let goal = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
        let mut r = HexReplanner::new(&mut grid, o.clone(), mode, start, goal).unwrap();
        for round in 0..10 {
            let status = r.replan(&grid, 0).unwrap();
            let (s, t) = (start.1 * w + start.0, goal.1 * w + goal.0);
            let moves = |u: usize| hex_moves(&grid, u);
            let expect = if mode == ReplanMode::Lpa {
                dijkstra(w * h, &moves, s, t, true)
            } else {
                dijkstra(w * h, &moves, t, s, false)
            };
            assert_eq!(
                r.path_cost().to_bits(),
                expect.to_bits(),
                "case {case} round {round}"
            );
            assert_eq!(status == SearchStatus::Found, expect < f64::INFINITY);
            for pair in r.path(&grid).unwrap().windows(2) {
                assert!(moves(pair[0] as usize)
                    .iter()
                    .any(|&(v, _)| v == pair[1] as usize));
            }
            for _ in 0..1 + rng.below(4) {
                let (x, y) = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
                grid.set_cell(x, y, random_area(&mut rng)).unwrap();
            }
            if mode == ReplanMode::DStarLite && rng.below(2) == 0 {
                start = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
                r.set_start(start.0, start.1).unwrap();
            }
        }
    }
}
