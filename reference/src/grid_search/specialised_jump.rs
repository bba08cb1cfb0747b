//! [GS.SJ] The specialised jump point engine (GridSearch mode 3): exact cost pairs, a level, an
//! `(F, T)` heap and a LIFO stack of the current level (spec/grid-search.md §8).

use super::jump::{expand_jump_path, jump, successor_dirs};
use super::moves::{dir_index, octile_pair, Pair, Terrain, DIRS};
use super::options::Connectivity;
use crate::astar::SearchStatus;

/// [GS.SJ.OPEN] One heap entry `(F, T)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Ft {
    pub(crate) f: f64,
    pub(crate) t: u64,
}

/// [GS.SJ.OPEN] `a` precedes `b` when `a.F < b.F`, or equal `F` and `a.T < b.T`.
pub(crate) fn ft_precedes(a: &Ft, b: &Ft) -> bool {
    a.f < b.f || (a.f == b.f && a.t < b.t)
}

/// [GS.SJ.OPEN] The high half of `T`: `!bits(gf as f32)`.
pub(crate) fn t_high(gf: f64) -> u32 {
    !(gf as f32).to_bits()
}

/// [GS.SJ.OPEN] [STATE.HEAP.UP] Sift up from slot `i`.
fn sift_up(heap: &mut [Ft], mut i: usize) {
    while i > 0 {
        let p = (i - 1) / 2;
        if ft_precedes(&heap[i], &heap[p]) {
            heap.swap(i, p);
            i = p;
        } else {
            break;
        }
    }
}

/// [GS.SJ.OPEN] [STATE.HEAP.DOWN] Sift down from slot `i`.
fn sift_down(heap: &mut [Ft], mut i: usize) {
    let count = heap.len();
    loop {
        let mut c = 2 * i + 1;
        if c >= count {
            return;
        }
        if c + 1 < count && ft_precedes(&heap[c + 1], &heap[c]) {
            c += 1;
        }
        if ft_precedes(&heap[c], &heap[i]) {
            heap.swap(c, i);
            i = c;
        } else {
            return;
        }
    }
}

/// [GS.SJ.CELLS] [GS.SJ.OPEN] The specialised jump point engine.
pub(crate) struct SpecialisedJump {
    /// [GS.STATE.MODE3] 0 JPS (block scans), 1 JPS+ (tables); both find the jump points of
    /// [GS.JUMP.STRAIGHT] and [GS.JUMP.DIAGONAL] ([GS.JUMP.TABLES]), so the reference runs the
    /// definition for both.
    pub(crate) finder: u8,
    pub(crate) visited: Vec<bool>,
    pub(crate) pair: Vec<Pair>,
    /// [GS.SJ.CELLS] `-1` for the start.
    pub(crate) parent: Vec<i32>,
    /// [GS.SJ.CELLS] The direction of the last move in, as its [GS.DIR] neighbour-order index.
    pub(crate) dir: Vec<u8>,
    pub(crate) closed: Vec<bool>,
    pub(crate) level: f64,
    pub(crate) heap: Vec<Ft>,
    pub(crate) stack: Vec<u32>,
    pub(crate) start: u32,
    pub(crate) goal: u32,
    pub(crate) status: SearchStatus,
    pub(crate) iterations: u64,
    pub(crate) expanded: u64,
    pub(crate) recorded: Vec<u32>,
    pub(crate) record: bool,
}

impl SpecialisedJump {
    /// An engine over `n` cells, `NotStarted`.
    pub(crate) fn new(n: usize, finder: u8, record: bool) -> Self {
        SpecialisedJump {
            finder,
            visited: vec![false; n],
            pair: vec![Pair::default(); n],
            parent: vec![-1; n],
            dir: vec![0; n],
            closed: vec![false; n],
            level: f64::NAN,
            heap: Vec::new(),
            stack: Vec::new(),
            start: 0,
            goal: 0,
            status: SearchStatus::NotStarted,
            iterations: 0,
            expanded: 0,
            recorded: Vec::new(),
            record,
        }
    }

    /// [GS.SJ.PUSH] Pushes cell `c` with its current pair: onto the stack when `F == level`,
    /// else `(F, T)` onto the heap ([STATE.HEAP.PUSH]).
    fn push(&mut self, t: &Terrain<'_>, c: u32) {
        let gf = self.pair[c as usize].value();
        let hf = octile_pair(t.xy(c), t.xy(self.goal), Connectivity::Eight).value();
        let f = gf + hf;
        if f == self.level {
            self.stack.push(c);
        } else {
            let tt = (u64::from(t_high(gf)) << 32) | u64::from(c);
            self.heap.push(Ft { f, t: tt });
            let i = self.heap.len() - 1;
            sift_up(&mut self.heap, i);
        }
    }

    /// [STATE.HEAP.POP] Takes slot 0; the last entry moves to slot 0 and sifts down.
    fn pop_heap(&mut self) -> Option<Ft> {
        if self.heap.is_empty() {
            return None;
        }
        let top = self.heap.swap_remove(0);
        if !self.heap.is_empty() {
            sift_down(&mut self.heap, 0);
        }
        Some(top)
    }

    /// [GS.SJ.SETTLE] Whether heap entry `e` is stale: its cell closed, or `T >> 32` differs from
    /// `!bits(gf as f32)` of the cell's current pair.
    fn stale(&self, e: &Ft) -> bool {
        let c = (e.t & 0xFFFF_FFFF) as usize;
        self.closed[c] || (e.t >> 32) as u32 != t_high(self.pair[c].value())
    }

    /// [GS.SJ.SETTLE] Drops stale stack tops, and (with an empty stack) stale heap tops, setting
    /// `level` to each popped `F`.
    fn settle(&mut self) {
        loop {
            if let Some(&top) = self.stack.last() {
                if self.closed[top as usize] {
                    self.stack.pop();
                    continue;
                }
                return;
            }
            match self.heap.first() {
                Some(e) if self.stale(e) => {
                    let f = e.f;
                    self.pop_heap();
                    self.level = f;
                }
                _ => return,
            }
        }
    }

    /// [GS.SJ.BEGIN] Resets every cell, the counters, the recorded list, `level` (NaN), the heap
    /// and the stack, sets `Running`; `NotFound` at once when the start or goal is not passable;
    /// otherwise visits the start with `(0, 0)` and pushes it.
    pub(crate) fn begin(&mut self, t: &Terrain<'_>, start: u32, goal: u32) {
        for c in 0..self.visited.len() {
            self.visited[c] = false;
            self.pair[c] = Pair::default();
            self.parent[c] = -1;
            self.dir[c] = 0;
            self.closed[c] = false;
        }
        self.iterations = 0;
        self.expanded = 0;
        self.recorded.clear();
        self.level = f64::NAN;
        self.heap.clear();
        self.stack.clear();
        self.start = start;
        self.goal = goal;
        self.status = SearchStatus::Running;
        if !t.passable(t.xy(start)) || !t.passable(t.xy(goal)) {
            self.status = SearchStatus::NotFound;
            return;
        }
        self.visited[start as usize] = true;
        self.push(t, start);
    }

    /// [GS.SJ.STEP] At most `budget` iterations.
    pub(crate) fn step(&mut self, t: &Terrain<'_>, budget: u64) -> SearchStatus {
        if self.status != SearchStatus::Running {
            return self.status;
        }
        let mut done = 0u64;
        loop {
            // (1) settle; empty first
            self.settle();
            if self.stack.is_empty() && self.heap.is_empty() {
                self.status = SearchStatus::NotFound;
                return self.status;
            }
            // (2) budget
            if done == budget {
                return SearchStatus::Running;
            }
            // (3) the stack's top, else the heap's first entry (setting the level)
            let c = match self.stack.pop() {
                Some(c) => c,
                None => {
                    let Some(e) = self.pop_heap() else {
                        self.status = SearchStatus::NotFound;
                        return self.status;
                    };
                    self.level = e.f;
                    (e.t & 0xFFFF_FFFF) as u32
                }
            };
            // (4) count, close, goal test
            done += 1;
            self.iterations += 1;
            self.closed[c as usize] = true;
            if c == self.goal {
                self.status = SearchStatus::Found;
                return self.status;
            }
            // (5) count, record, successors
            self.expanded += 1;
            if self.record {
                self.recorded.push(c);
            }
            self.expand(t, c);
        }
    }

    /// [GS.SJ.STEP] [GS.SJ.DIRECTION] For each successor `j` of [GS.JUMP.SUCCESSORS] with hop
    /// pair `h`: `g2 = g(c) + h`; set (pair, parent, direction tried) and push when `j` is
    /// unvisited, or not closed and `g2 < g(j)`.
    fn expand(&mut self, t: &Terrain<'_>, c: u32) {
        let pc = t.xy(c);
        let goal = t.xy(self.goal);
        let reached_by = if self.parent[c as usize] == -1 {
            None
        } else {
            Some(DIRS[self.dir[c as usize] as usize & 7])
        };
        for d in successor_dirs(t, pc, reached_by) {
            let Some(pj) = jump(t, pc, d, goal) else {
                continue;
            };
            let j = t.index(pj);
            let ji = j as usize;
            let g2 = self.pair[c as usize].add(octile_pair(pc, pj, Connectivity::Eight));
            if !self.visited[ji] || (!self.closed[ji] && g2.less(self.pair[ji])) {
                self.visited[ji] = true;
                self.pair[ji] = g2;
                self.parent[ji] = c as i32;
                self.dir[ji] = dir_index(d) as u8;
                self.push(t, j);
            }
        }
    }

    /// [GS.JUMP.PATH] Every cell start..goal when `Found`, else empty.
    pub(crate) fn path(&self, t: &Terrain<'_>) -> Vec<u32> {
        if self.status != SearchStatus::Found {
            return Vec::new();
        }
        let mut points = vec![self.goal];
        let mut c = self.goal;
        while self.parent[c as usize] >= 0 && points.len() <= self.visited.len() {
            c = self.parent[c as usize] as u32;
            points.push(c);
        }
        points.reverse();
        expand_jump_path(t, &points)
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
