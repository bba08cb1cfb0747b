//! [GS.SA] The specialised A* engine (GridSearch mode 1): exact cost pairs, an open list
//! ordered by [GS.SA.ORDER] (spec/grid-search.md §7).

use std::cmp::Ordering;
use std::collections::BTreeSet;

use super::moves::{octile_pair, Pair, Terrain, DIRS};
use crate::astar::SearchStatus;

/// [GS.SA.DIRECTION] The direction from a cell to its parent, by saved code: `0 S, 1 W, 2 N,
/// 3 E, 4 SW, 5 NW, 6 NE, 7 SE`.
pub(crate) const SA_DIRS: [(i64, i64); 8] = [
    (0, 1),
    (-1, 0),
    (0, -1),
    (1, 0),
    (-1, 1),
    (-1, -1),
    (1, -1),
    (1, 1),
];

/// [GS.SA.DIRECTION] The code of direction `d` (from a cell to its parent).
fn sa_code(d: (i64, i64)) -> u8 {
    SA_DIRS.iter().position(|&e| e == d).unwrap_or(0) as u8
}

/// [GS.SA.ORDER] An open-list key: smaller `f`, then larger `g`, then smaller cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key {
    f: Pair,
    g: Pair,
    cell: u32,
}

impl Ord for Key {
    fn cmp(&self, o: &Key) -> Ordering {
        self.f
            .cmp_real(o.f)
            .then(o.g.cmp_real(self.g))
            .then(self.cell.cmp(&o.cell))
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, o: &Key) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// [GS.SA.PAIRS] [GS.SA.ORDER] [GS.SA.STEP] The specialised A* engine.
pub(crate) struct SpecialisedAStar {
    /// [GS.SA.ORDER] Dijkstra: `hpair = (0, 0)`.
    pub(crate) zero_estimate: bool,
    pub(crate) visited: Vec<bool>,
    pub(crate) pair: Vec<Pair>,
    /// [GS.SA.DIRECTION] The saved code of the direction to the parent.
    pub(crate) dir: Vec<u8>,
    pub(crate) closed: Vec<bool>,
    open: BTreeSet<Key>,
    pub(crate) start: u32,
    pub(crate) goal: u32,
    pub(crate) status: SearchStatus,
    pub(crate) iterations: u64,
    pub(crate) expanded: u64,
    pub(crate) recorded: Vec<u32>,
    pub(crate) record: bool,
}

impl SpecialisedAStar {
    /// An engine over `n` cells, `NotStarted`.
    pub(crate) fn new(n: usize, zero_estimate: bool, record: bool) -> Self {
        SpecialisedAStar {
            zero_estimate,
            visited: vec![false; n],
            pair: vec![Pair::default(); n],
            dir: vec![0; n],
            closed: vec![false; n],
            open: BTreeSet::new(),
            start: 0,
            goal: 0,
            status: SearchStatus::NotStarted,
            iterations: 0,
            expanded: 0,
            recorded: Vec::new(),
            record,
        }
    }

    /// [GS.SA.ORDER] The key of open cell `c`: `f = g + hpair`.
    fn key(&self, t: &Terrain<'_>, c: u32) -> Key {
        let g = self.pair[c as usize];
        let h = if self.zero_estimate {
            Pair::default()
        } else {
            octile_pair(t.xy(c), t.xy(self.goal), t.connectivity)
        };
        Key {
            f: g.add(h),
            g,
            cell: c,
        }
    }

    /// [GS.SA.BEGIN] Resets every cell, the counters and the recorded list; `NotFound` at once
    /// when the start or goal is not passable; otherwise visits the start with `(0, 0)`, open.
    pub(crate) fn begin(&mut self, t: &Terrain<'_>, start: u32, goal: u32) {
        for c in 0..self.visited.len() {
            self.visited[c] = false;
            self.pair[c] = Pair::default();
            self.dir[c] = 0;
            self.closed[c] = false;
        }
        self.open.clear();
        self.iterations = 0;
        self.expanded = 0;
        self.recorded.clear();
        self.start = start;
        self.goal = goal;
        self.status = SearchStatus::Running;
        if !t.passable(t.xy(start)) || !t.passable(t.xy(goal)) {
            self.status = SearchStatus::NotFound;
            return;
        }
        self.visited[start as usize] = true;
        let k = self.key(t, start);
        self.open.insert(k);
    }

    /// [GS.STATE.RESTORE] Rebuilds the open list from the visited cells that are not closed.
    pub(crate) fn rebuild_open(&mut self, t: &Terrain<'_>) {
        self.open.clear();
        for c in 0..self.visited.len() {
            if self.visited[c] && !self.closed[c] {
                let k = self.key(t, c as u32);
                self.open.insert(k);
            }
        }
    }

    /// [GS.SA.STEP] [GRAPH.ASTAR.STEP] [GRAPH.ASTAR.EMPTY_FIRST] At most `budget` iterations.
    pub(crate) fn step(&mut self, t: &Terrain<'_>, budget: u64) -> SearchStatus {
        if self.status != SearchStatus::Running {
            return self.status;
        }
        let mut done = 0u64;
        loop {
            // (1) empty first
            let Some(&first) = self.open.first() else {
                self.status = SearchStatus::NotFound;
                return self.status;
            };
            // (2) budget
            if done == budget {
                return SearchStatus::Running;
            }
            // (3) pop, count, close
            self.open.remove(&first);
            let u = first.cell;
            done += 1;
            self.iterations += 1;
            self.closed[u as usize] = true;
            // (4) goal test
            if u == self.goal {
                self.status = SearchStatus::Found;
                return self.status;
            }
            // (5) expand, count, record
            self.expand(t, u);
            self.expanded += 1;
            if self.record {
                self.recorded.push(u);
            }
        }
    }

    /// [GS.SA.STEP] For each allowed move `u -> v` in neighbour order with `v` not closed:
    /// `g2 = g(u) + (1, 0)` or `+ (0, 1)`; set when `v` is unvisited or `g2 < g(v)`.
    fn expand(&mut self, t: &Terrain<'_>, u: u32) {
        let pu = t.xy(u);
        for d in DIRS {
            if !t.move_allowed(pu, d) {
                continue;
            }
            let v = t.index((pu.0 + d.0, pu.1 + d.1));
            let vi = v as usize;
            if self.closed[vi] {
                continue;
            }
            let step = if d.0 != 0 && d.1 != 0 {
                Pair::new(0, 1)
            } else {
                Pair::new(1, 0)
            };
            let g2 = self.pair[u as usize].add(step);
            if !self.visited[vi] || g2.less(self.pair[vi]) {
                if self.visited[vi] {
                    let old = self.key(t, v);
                    self.open.remove(&old);
                }
                self.visited[vi] = true;
                self.pair[vi] = g2;
                self.dir[vi] = sa_code((-d.0, -d.1));
                let k = self.key(t, v);
                self.open.insert(k);
            }
        }
    }

    /// [GS.SA.PATH] The directions followed back from the goal, start first (`Found` only).
    pub(crate) fn path(&self, t: &Terrain<'_>) -> Vec<u32> {
        if self.status != SearchStatus::Found {
            return Vec::new();
        }
        let mut out = vec![self.goal];
        let mut c = self.goal;
        while c != self.start && out.len() <= self.visited.len() {
            let (dx, dy) = SA_DIRS[self.dir[c as usize] as usize & 7];
            let (x, y) = t.xy(c);
            let p = (x + dx, y + dy);
            if !t.inside(p) {
                break;
            }
            c = t.index(p);
            out.push(c);
        }
        out.reverse();
        out
    }

    /// [GS.SA.PATH] The f64 value of the goal's pair when `Found`, else `+infinity`.
    pub(crate) fn path_cost(&self) -> f64 {
        if self.status == SearchStatus::Found {
            self.pair[self.goal as usize].value()
        } else {
            f64::INFINITY
        }
    }
}
