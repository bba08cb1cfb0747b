//! Shared helpers of the flow-field tests: one enum over square and hex grids and fields, and
//! a spec-literal oracle (spec/flow-fields.md §2): the moves of [REPLAN.MOVE.SQUARE] /
//! [REPLAN.MOVE.HEX] written out again, the costs of [FLOW.COST.FIXED] as a Bellman-Ford fixed
//! point (relaxed from above until nothing changes), the directions of [FLOW.DIR.RULE].
#![allow(dead_code)]

use onepath::*;

pub const INF: f64 = f64::INFINITY;
pub const SQRT_2: f64 = std::f64::consts::SQRT_2;

#[derive(Clone, Copy, Debug)]
pub enum Shape {
    Square {
        k: usize,
        four: bool,
        rule: DiagonalRule,
    },
    Hex(HexLayout),
}

pub enum G {
    Sq(Grid),
    Hx(HexGrid),
}

pub enum F {
    Sq(GridFlowField),
    Hx(HexFlowField),
}

macro_rules! both {
    ($f:expr, $g:expr, |$a:ident, $b:ident| $e:expr) => {
        match ($f, $g) {
            (F::Sq($a), G::Sq($b)) => $e,
            (F::Hx($a), G::Hx($b)) => $e,
            _ => panic!("shape mismatch"),
        }
    };
}

macro_rules! each_f {
    ($f:expr, |$a:ident| $e:expr) => {
        match $f {
            F::Sq($a) => $e,
            F::Hx($a) => $e,
        }
    };
}

macro_rules! each_g {
    ($g:expr, |$a:ident| $e:expr) => {
        match $g {
            G::Sq($a) => $e,
            G::Hx($a) => $e,
        }
    };
}

impl G {
    pub fn new(shape: Shape, w: usize, h: usize) -> G {
        match shape {
            Shape::Square { .. } => G::Sq(Grid::new(w, h).unwrap()),
            Shape::Hex(l) => G::Hx(HexGrid::new(w, h, l).unwrap()),
        }
    }
    pub fn width(&self) -> usize {
        each_g!(self, |g| g.width())
    }
    pub fn height(&self) -> usize {
        each_g!(self, |g| g.height())
    }
    pub fn cells(&self) -> Vec<u8> {
        each_g!(self, |g| g.cells().to_vec())
    }
    pub fn set(&mut self, x: usize, y: usize, a: u8) {
        each_g!(self, |g| g.set_cell(x, y, a).unwrap())
    }
    pub fn set_mult(&mut self, a: u8, m: f64) {
        each_g!(self, |g| g.set_area_multiplier(a, m).unwrap())
    }
    pub fn mult(&self) -> [f64; 256] {
        let mut m = [1.0; 256];
        for a in 0..255u8 {
            m[a as usize] = each_g!(self, |g| g.area_multiplier(a).unwrap());
        }
        m
    }
    pub fn save(&self) -> Vec<u8> {
        each_g!(self, |g| g.save_state())
    }
    pub fn restore(&mut self, b: &[u8]) {
        each_g!(self, |g| g.restore_state(b).unwrap())
    }
}

pub fn options(shape: Shape) -> GridOptions {
    match shape {
        Shape::Square { k, four, rule } => GridOptions {
            agent_size: k as u32,
            connectivity: if four {
                Connectivity::Four
            } else {
                Connectivity::Eight
            },
            diagonal: rule,
            ..GridOptions::default()
        },
        Shape::Hex(_) => GridOptions::default(),
    }
}

impl F {
    pub fn new(g: &mut G, o: GridOptions, goals: &[(usize, usize)]) -> F {
        match g {
            G::Sq(g) => F::Sq(GridFlowField::new(g, o, goals).unwrap()),
            G::Hx(g) => F::Hx(HexFlowField::new(g, o, goals).unwrap()),
        }
    }
    pub fn step(&mut self, g: &G, b: u64) -> Result<FlowStatus, GridSearchError> {
        both!(self, g, |f, g| f.step(g, b))
    }
    pub fn run(&mut self, g: &G) -> Result<FlowStatus, GridSearchError> {
        both!(self, g, |f, g| f.run(g))
    }
    pub fn recompute(&mut self, g: &G, b: u64) -> Result<FlowStatus, GridSearchError> {
        both!(self, g, |f, g| f.recompute(g, b))
    }
    pub fn describe(&self) -> FlowFieldDescription {
        each_f!(self, |f| f.describe())
    }
    pub fn save(&self) -> Vec<u8> {
        each_f!(self, |f| f.save_state())
    }
    pub fn save_into(&self, out: &mut Vec<u8>) {
        each_f!(self, |f| f.save_state_into(out))
    }
    pub fn restore(&mut self, g: &G, b: &[u8]) -> Result<(), GridStateError> {
        both!(self, g, |f, g| f.restore_state(g, b))
    }
    pub fn status(&self) -> FlowStatus {
        each_f!(self, |f| f.status())
    }
    pub fn repairing(&self) -> bool {
        each_f!(self, |f| f.is_repairing())
    }
    pub fn usable(&self) -> bool {
        each_f!(self, |f| f.is_usable())
    }
    pub fn settled(&self) -> u64 {
        each_f!(self, |f| f.settled())
    }
    pub fn pending(&self) -> usize {
        each_f!(self, |f| f.pending_count())
    }
    pub fn path(&self, x: usize, y: usize) -> Result<Vec<u32>, GridSearchError> {
        each_f!(self, |f| f.path(x, y))
    }
    pub fn cost(&self, x: usize, y: usize) -> Result<f64, GridSearchError> {
        each_f!(self, |f| f.cost(x, y))
    }
    pub fn next(&self, x: usize, y: usize) -> Result<Option<u32>, GridSearchError> {
        each_f!(self, |f| f.next(x, y))
    }
    pub fn detach(&self, g: &mut G) -> bool {
        both!(self, g, |f, g| f.detach(g))
    }
}

/// [GS.DIR] N, E, S, W, NE, SE, SW, NW.
pub const DIRS: [(i64, i64); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// [GRID.HEX.OFFSETS] The offsets of `(x, y)` in hex neighbour order.
pub fn hex_offsets(l: HexLayout, x: i64, y: i64) -> [(i64, i64); 6] {
    const RE: [(i64, i64); 6] = [(0, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1)];
    const RO: [(i64, i64); 6] = [(1, -1), (1, 0), (1, 1), (0, 1), (-1, 0), (0, -1)];
    const QE: [(i64, i64); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)];
    const QO: [(i64, i64); 6] = [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)];
    let (ey, ex) = (y % 2 == 0, x % 2 == 0);
    match l {
        HexLayout::OddR => {
            if ey {
                RE
            } else {
                RO
            }
        }
        HexLayout::EvenR => {
            if ey {
                RO
            } else {
                RE
            }
        }
        HexLayout::OddQ => {
            if ex {
                QE
            } else {
                QO
            }
        }
        HexLayout::EvenQ => {
            if ex {
                QO
            } else {
                QE
            }
        }
    }
}

/// The oracle's world: sizes, shape, cells, multipliers.
pub struct World {
    pub w: usize,
    pub h: usize,
    pub shape: Shape,
    pub cells: Vec<u8>,
    pub mult: [f64; 256],
}

impl World {
    pub fn of(g: &G, shape: Shape) -> World {
        World {
            w: g.width(),
            h: g.height(),
            shape,
            cells: g.cells(),
            mult: g.mult(),
        }
    }

    /// [GS.PASS] with agent size `k`: the `k x k` square at `(x, y)` inside and wall-free.
    fn pass(&self, x: i64, y: i64, k: usize) -> bool {
        let k = k as i64;
        if x < 0 || y < 0 || x + k > self.w as i64 || y + k > self.h as i64 {
            return false;
        }
        (y..y + k)
            .all(|yy| (x..x + k).all(|xx| self.cells[(yy * self.w as i64 + xx) as usize] != 255))
    }

    /// [FLOW.MOVE] The neighbours of `u` with `c(u, v)`.
    pub fn moves(&self, u: usize) -> Vec<(usize, f64)> {
        let (x, y) = ((u % self.w) as i64, (u / self.w) as i64);
        let mut out = Vec::new();
        match self.shape {
            Shape::Square { k, four, rule } => {
                if !self.pass(x, y, k) {
                    return out;
                }
                for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                    if four && d >= 4 {
                        break;
                    }
                    let (vx, vy) = (x + dx, y + dy);
                    if !self.pass(vx, vy, k) {
                        continue;
                    }
                    let base = if d < 4 {
                        1.0
                    } else {
                        let a = self.pass(vx, y, k);
                        let b = self.pass(x, vy, k);
                        let ok = match rule {
                            DiagonalRule::Always => true,
                            DiagonalRule::AtMostOneBlocked => a || b,
                            DiagonalRule::NoneBlocked => a && b,
                        };
                        if !ok {
                            continue;
                        }
                        SQRT_2
                    };
                    let v = (vy * self.w as i64 + vx) as usize;
                    out.push((v, base * self.mult[self.cells[v] as usize]));
                }
            }
            Shape::Hex(l) => {
                if self.cells[u] == 255 {
                    return out;
                }
                for (dx, dy) in hex_offsets(l, x, y) {
                    let (vx, vy) = (x + dx, y + dy);
                    if vx < 0 || vy < 0 || vx >= self.w as i64 || vy >= self.h as i64 {
                        continue;
                    }
                    let v = (vy * self.w as i64 + vx) as usize;
                    if self.cells[v] != 255 {
                        out.push((v, self.mult[self.cells[v] as usize]));
                    }
                }
            }
        }
        out
    }

    /// [FLOW.COST.FIXED] [FLOW.DIR.RULE] The costs and steps a completed field must hold.
    pub fn solve(&self, goals: &[u32]) -> (Vec<f64>, Vec<Option<u32>>) {
        let n = self.w * self.h;
        let mut goal = vec![false; n];
        for &g in goals {
            goal[g as usize] = true;
        }
        let mut cost = vec![INF; n];
        for c in 0..n {
            if goal[c] {
                cost[c] = 0.0;
            }
        }
        let moves: Vec<Vec<(usize, f64)>> = (0..n).map(|u| self.moves(u)).collect();
        loop {
            let mut changed = false;
            for c in 0..n {
                if goal[c] {
                    continue;
                }
                let mut best = INF;
                for &(v, cv) in &moves[c] {
                    if cost[v] < INF && cv + cost[v] < best {
                        best = cv + cost[v];
                    }
                }
                if best < cost[c] {
                    cost[c] = best;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let next = (0..n)
            .map(|c| {
                if goal[c] || cost[c] == INF {
                    return None;
                }
                let mut best: Option<(u32, f64)> = None;
                for &(v, cv) in &moves[c] {
                    if cost[v] < cost[c] {
                        let val = cv + cost[v];
                        if best.is_none_or(|(_, b)| val < b) {
                            best = Some((v as u32, val));
                        }
                    }
                }
                best.map(|b| b.0)
            })
            .collect();
        (cost, next)
    }
}

/// Bits of every cost.
pub fn bits(c: &[f64]) -> Vec<u64> {
    c.iter().map(|v| v.to_bits()).collect()
}

/// A random shape.
pub fn random_shape(r: &mut SeededRandom) -> Shape {
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
    if r.next_int(3) == 0 {
        Shape::Hex(layouts[r.next_int(4) as usize])
    } else {
        Shape::Square {
            k: 1 + (r.next_int(4) == 0) as usize + (r.next_int(6) == 0) as usize,
            four: r.next_int(4) == 0,
            rule: rules[r.next_int(3) as usize],
        }
    }
}

/// A random area value: walls about one time in five, else areas 0..=3.
pub fn random_area(r: &mut SeededRandom) -> u8 {
    if r.next_int(5) == 0 {
        255
    } else {
        r.next_int(4) as u8
    }
}

pub const MULTS: [f64; 6] = [1.0, 0.5, 2.5, 1.1, 3.0, 0.3];

/// A random grid with random cells and multipliers for areas 1..=3.
pub fn random_grid(r: &mut SeededRandom, shape: Shape, max: u32) -> G {
    let w = 1 + r.next_int(max) as usize;
    let h = 1 + r.next_int(max) as usize;
    let mut g = G::new(shape, w, h);
    for a in 1..=3u8 {
        g.set_mult(a, MULTS[r.next_int(6) as usize]);
    }
    for y in 0..h {
        for x in 0..w {
            let a = random_area(r);
            g.set(x, y, a);
        }
    }
    g
}

/// Random goals (1..=3, maybe repeated, maybe walls).
pub fn random_goals(r: &mut SeededRandom, g: &G) -> Vec<(usize, usize)> {
    let k = 1 + r.next_int(3.min((g.width() * g.height()) as u32)) as usize;
    (0..k)
        .map(|_| {
            (
                r.next_int(g.width() as u32) as usize,
                r.next_int(g.height() as u32) as usize,
            )
        })
        .collect()
}

/// A heap slot `(node, f, g)` and the precedes test.
pub type Slot = (u32, f64, f64);
pub type Prec<'a> = &'a dyn Fn(&Slot, &Slot) -> bool;

/// [FLOW.RUN.BEGIN] [FLOW.RUN.ITERATE] [STATE.HEAP.ARRAY] .. [STATE.HEAP.UPDATE] A begun run
/// written out literally with a textbook heap: the costs and the heap array after `k`
/// iterations (or fewer when the open set empties).
pub fn sim_begun(world: &World, goal_set: &[u32], k: usize) -> (Vec<f64>, Vec<(u32, f64, f64)>) {
    sim_from(world, vec![INF; world.w * world.h], Vec::new(), goal_set, k)
}

/// [FLOW.RUN.ITERATE] The literal run from a given state: the `seed` cells cost 0 and are
/// queued, then `k` iterations (or fewer when the open set empties).
pub fn sim_from(
    world: &World,
    mut cost: Vec<f64>,
    mut heap: Vec<Slot>,
    seed: &[u32],
    k: usize,
) -> (Vec<f64>, Vec<Slot>) {
    let prec = |a: &(u32, f64, f64), b: &(u32, f64, f64)| {
        a.1 < b.1 || (a.1 == b.1 && (a.2 > b.2 || (a.2 == b.2 && a.0 < b.0)))
    };
    fn up(h: &mut [Slot], mut i: usize, p: Prec<'_>) {
        while i > 0 && p(&h[i], &h[(i - 1) / 2]) {
            h.swap(i, (i - 1) / 2);
            i = (i - 1) / 2;
        }
    }
    fn down(h: &mut [Slot], mut i: usize, p: Prec<'_>) {
        loop {
            let mut c = 2 * i + 1;
            if c >= h.len() {
                return;
            }
            if c + 1 < h.len() && p(&h[c + 1], &h[c]) {
                c += 1;
            }
            if p(&h[c], &h[i]) {
                h.swap(c, i);
                i = c;
            } else {
                return;
            }
        }
    }
    let queue = |heap: &mut Vec<(u32, f64, f64)>, v: u32, key: f64| {
        let e = (v, key, key);
        if let Some(i) = heap.iter().position(|x| x.0 == v) {
            let old = heap[i];
            heap[i] = e;
            if prec(&e, &old) {
                up(heap, i, &prec);
            } else {
                down(heap, i, &prec);
            }
        } else {
            heap.push(e);
            let i = heap.len() - 1;
            up(heap, i, &prec);
        }
    };
    for &g in seed {
        cost[g as usize] = 0.0;
        queue(&mut heap, g, 0.0);
    }
    for _ in 0..k {
        if heap.is_empty() {
            break;
        }
        let u = heap[0].0;
        let last = heap.pop().unwrap();
        if !heap.is_empty() {
            heap[0] = last;
            down(&mut heap, 0, &prec);
        }
        for (v, _) in world.moves(u as usize) {
            // c(v, u): the cost of entering u from v (moves are symmetric).
            let cvu = world
                .moves(v)
                .into_iter()
                .find(|m| m.0 == u as usize)
                .unwrap()
                .1;
            let cand = cost[u as usize] + cvu;
            if cand < cost[v] {
                cost[v] = cand;
                queue(&mut heap, v as u32, cand);
            }
        }
    }
    (cost, heap)
}

/// The open set of a saved kind-7 state.
pub fn saved_open(b: &[u8]) -> Vec<(u32, f64, f64)> {
    let i32_at = |p: usize| i32::from_le_bytes(b[p..p + 4].try_into().unwrap());
    let f64_at = |p: usize| f64::from_le_bytes(b[p..p + 8].try_into().unwrap());
    let mut p = 8 + 12;
    p += 4 + 4 * i32_at(p) as usize; // goals
    p += 4 + 4 * i32_at(p) as usize; // pending
    p += 4 + 1 + 4 + 1;
    p += 4 + 4 * i32_at(p) as usize; // goal set
    p += 4 + 12 * i32_at(p) as usize; // reached
    p += 4 + 8 * i32_at(p) as usize; // steps
    let n = i32_at(p) as usize;
    p += 4;
    (0..n)
        .map(|i| {
            let q = p + 20 * i;
            (i32_at(q) as u32, f64_at(q + 4), f64_at(q + 12))
        })
        .collect()
}
