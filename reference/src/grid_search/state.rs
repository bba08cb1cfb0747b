//! [GS.STATE] State kinds 8 (`AStar`), 9 (`JumpSearch`), 10 (`ThetaSearch`) and 12
//! (`GridSearch`) (spec/grid-search.md §10, layouts of spec/state.md).

use super::astar::{AStar, Core};
use super::handle::{select, Engine, GridSearch};
use super::jump::{sign_dir, JumpSearch};
use super::moves::{octile_pair, Pair, Terrain, DIRS};
use super::options::{Connectivity, GridEngine};
use super::specialised_astar::{SpecialisedAStar, SA_DIRS};
use super::specialised_jump::{ft_precedes, Ft, SpecialisedJump};
use super::theta::ThetaSearch;
use crate::astar::SearchStatus;
use crate::grid_error::GridStateError;
use crate::state::graph::{read_search_body, SearchRules, SearchState};
use crate::state::{fault, read_header, Fault, Reader, Writer, MAGIC, VERSION};

/// [STATE.KINDS] Kind 8.
const KIND_ASTAR: u16 = 8;
/// [STATE.KINDS] Kind 9.
const KIND_JUMP: u16 = 9;
/// [STATE.KINDS] Kind 10.
const KIND_THETA: u16 = 10;
/// [STATE.KINDS] Kind 12.
const KIND_GRID_SEARCH: u16 = 12;
/// [GS.STATE.WRITE] The bits of an unpopped level.
const LEVEL_NAN: u64 = 0x7FF8_0000_0000_0000;

/// A fault at `at` with the class and detail.
fn bad<T>(class: &'static str, at: usize, what: String) -> Result<T, Fault> {
    fault(class, at, format!("{class} at byte {at}: {what}"))
}

/// [STATE.SEARCH.WIDE] [GS.STATE.WRITE] A counter as an `i32`, saturating at `2^31 - 1`.
fn wide(v: u64) -> i32 {
    v.min(i32::MAX as u64) as i32
}

// ---------------------------------------------------------------------------------------------
// Kinds 8, 9, 10: the search layout of [STATE.SEARCH] over the cells.

/// [GS.STATE.SEARCHES] [STATE.SEARCH] [STATE.SEARCH.FIELDS] [STATE.BUFFERS] Writes a generic
/// engine's state; kinds 9 and 10 write start `-1`.
fn save_core(kind: u16, core: &Core, weight: f64, start_unused: bool) -> Vec<u8> {
    let n = core.g.len();
    let mut w = Writer::with_header(kind);
    w.i32(n as i32);
    w.u8(core.status as u8);
    w.f64(weight);
    if core.status == SearchStatus::NotStarted {
        w.i32(-1);
        w.i32(-1);
        w.i32(0);
        w.i32(0);
        w.f64(f64::INFINITY);
        return w.out;
    }
    w.i32(if start_unused { -1 } else { core.start as i32 });
    w.i32(core.goal as i32);
    w.i32(wide(core.expanded));
    w.i32(wide(core.iterations));
    w.f64(core.path_cost());
    let count = core.reached.iter().filter(|&&r| r).count();
    w.i32(count as i32);
    for v in 0..n {
        if core.reached[v] {
            w.i32(v as i32);
            w.u8(u8::from(core.closed[v]));
            w.f64(core.g[v]);
            w.i32(core.parent[v].map_or(-1, |p| p as i32));
        }
    }
    let heap = core.open.entries();
    w.i32(heap.len() as i32);
    for e in heap {
        w.i32(e.node as i32);
        w.f64(e.f);
        w.f64(e.g);
    }
    w.i32(core.recorded.len() as i32);
    for &v in &core.recorded {
        w.i32(v as i32);
    }
    w.out
}

/// [STATE.SEARCH.RESTORE] [STATE.SEARCH.RECORD] Installs a validated state into `core`.
fn install_core(core: &mut Core, s: SearchState) {
    core.reset(0, 0);
    core.reset_not_started();
    for e in &s.visited {
        let v = e.node as usize;
        core.g[v] = e.g;
        core.parent[v] = e.parent;
        core.reached[v] = true;
        core.closed[v] = e.closed;
    }
    core.open.install(s.heap);
    core.status = s.status;
    if s.status != SearchStatus::NotStarted {
        core.start = s.start;
        core.goal = s.goal;
    }
    core.iterations = s.iterations;
    core.expanded = s.expanded;
    core.path_cost = s.path_cost;
    core.recorded = s.recorded;
}

/// [GS.STATE.SEARCHES] Reads a whole kind 8/9/10 state (header, payload, trailing check).
fn read_core(bytes: &[u8], kind: u16, rules: &SearchRules) -> Result<SearchState, Fault> {
    let mut r = Reader::new(bytes);
    read_header(&mut r, kind)?;
    let s = read_search_body(&mut r, rules)?;
    r.finish()?;
    Ok(s)
}

/// [GS.STATE.FAILED] Installs `res` or leaves `core` as newly created.
fn restore_core(core: &mut Core, res: Result<SearchState, Fault>) -> Result<(), GridStateError> {
    match res {
        Ok(s) => {
            install_core(core, s);
            Ok(())
        }
        Err(f) => {
            core.reset_not_started();
            Err(f.into())
        }
    }
}

/// [GS.STATE.SEARCHES] The rules of kind 8: the search's weight, a start field.
fn astar_rules(a: &AStar<'_>) -> SearchRules {
    SearchRules {
        n: a.terrain.cell_count(),
        weight: a.options.heuristic_weight,
        start_unused: false,
    }
}

/// [GS.STATE.SEARCHES] The rules of kind 9: weight 1.0, start `-1`.
fn jump_rules(j: &JumpSearch<'_>) -> SearchRules {
    SearchRules {
        n: j.terrain.cell_count(),
        weight: 1.0,
        start_unused: true,
    }
}

impl AStar<'_> {
    /// [GS.STATE.SEARCHES] [STATE.STABLE] The state bytes (kind 8).
    pub fn save_state(&self) -> Vec<u8> {
        save_core(KIND_ASTAR, &self.core, self.options.heuristic_weight, false)
    }

    /// [GS.STATE.SEARCHES] [GS.STATE.FAILED] Restores a kind 8 state; a failure leaves the
    /// search as newly created.
    pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), GridStateError> {
        let res = read_core(bytes, KIND_ASTAR, &astar_rules(self));
        restore_core(&mut self.core, res)
    }
}

impl JumpSearch<'_> {
    /// [GS.STATE.SEARCHES] [STATE.STABLE] The state bytes (kind 9; weight 1.0, start `-1`).
    pub fn save_state(&self) -> Vec<u8> {
        save_core(KIND_JUMP, &self.core, 1.0, true)
    }

    /// [GS.STATE.SEARCHES] [GS.STATE.FAILED] Restores a kind 9 state; a failure leaves the
    /// search as newly created.
    pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), GridStateError> {
        let res = read_core(bytes, KIND_JUMP, &jump_rules(self));
        restore_core(&mut self.core, res)
    }
}

impl ThetaSearch<'_> {
    /// [GS.STATE.SEARCHES] [STATE.STABLE] The state bytes (kind 10; start `-1`).
    pub fn save_state(&self) -> Vec<u8> {
        save_core(KIND_THETA, &self.core, self.options.heuristic_weight, true)
    }

    /// [GS.STATE.SEARCHES] [GS.STATE.FAILED] Restores a kind 10 state; a failure leaves the
    /// search as newly created.
    pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), GridStateError> {
        let rules = SearchRules {
            n: self.terrain.cell_count(),
            weight: self.options.heuristic_weight,
            start_unused: true,
        };
        let res = read_core(bytes, KIND_THETA, &rules);
        restore_core(&mut self.core, res)
    }
}

// ---------------------------------------------------------------------------------------------
// Kind 12: the handle.

/// [GS.STATE.MODE1] [GS.STATE.MODE3] The fixed fields shared by modes 1 and 3.
struct Fixed {
    status: SearchStatus,
    start: u32,
    start_at: usize,
    goal: u32,
    expanded: u64,
    expanded_at: usize,
    iterations: u64,
    iterations_at: usize,
    path: Pair,
    path_a_at: usize,
}

/// One visited cell of mode 1 or 3 as read.
struct Cell {
    cell: u32,
    pair: Pair,
    /// Mode 3 only (`-1` for none).
    parent: i32,
    closed: bool,
    dir: u8,
    at: usize,
}

/// [GS.STATE.MODE1] [GS.STATE.MODE3] The fixed fields of a handle's own payload.
fn write_fixed(
    w: &mut Writer,
    status: SearchStatus,
    zero: bool,
    start: u32,
    goal: u32,
    counters: (u64, u64),
    path: Option<Pair>,
) {
    w.u8(status as u8);
    w.u8(u8::from(zero));
    w.i32(start as i32);
    w.i32(goal as i32);
    w.i32(wide(counters.0));
    w.i32(wide(counters.1));
    // [GS.STATE.WRITE] not Found: -1, -1.
    match path {
        Some(p) if status == SearchStatus::Found => {
            w.i32(p.a as i32);
            w.i32(p.b as i32);
        }
        _ => {
            w.i32(-1);
            w.i32(-1);
        }
    }
}

impl<'g> GridSearch<'g> {
    /// [GS.STATE.HEADER12] [GS.STATE.MODE1] [GS.STATE.MODE2] [GS.STATE.MODE3] [GS.STATE.WRITE]
    /// The state bytes (kind 12).
    pub fn save_state(&self) -> Vec<u8> {
        let mut w = Writer::with_header(KIND_GRID_SEARCH);
        let mode = match &self.engine {
            Engine::NotBegun => 0,
            Engine::Sa(_) => 1,
            Engine::GenericAStar(_) | Engine::GenericJump(_) => 2,
            Engine::Sj(_) => 3,
        };
        w.u8(mode);
        w.i32(self.terrain.width as i32);
        w.i32(self.terrain.height as i32);
        match &self.engine {
            Engine::NotBegun => {}
            Engine::Sa(e) => {
                let path = Some(e.pair[e.goal as usize]);
                let counters = (e.expanded, e.iterations);
                write_fixed(
                    &mut w,
                    e.status,
                    e.zero_estimate,
                    e.start,
                    e.goal,
                    counters,
                    path,
                );
                let n = e.visited.len();
                w.i32(e.visited.iter().filter(|&&v| v).count() as i32);
                for c in 0..n {
                    if e.visited[c] {
                        w.i32(c as i32);
                        w.i32(e.pair[c].a as i32);
                        w.i32(e.pair[c].b as i32);
                        w.u8(u8::from(e.closed[c]) | (e.dir[c] << 1));
                    }
                }
            }
            Engine::GenericAStar(_) | Engine::GenericJump(_) => {
                for v in [
                    self.start_xy.0,
                    self.start_xy.1,
                    self.goal_xy.0,
                    self.goal_xy.1,
                ] {
                    w.i32(v as i32);
                }
                let inner = match &self.engine {
                    Engine::GenericAStar(a) => a.save_state(),
                    Engine::GenericJump(j) => j.save_state(),
                    _ => Vec::new(),
                };
                w.i32(inner.len() as i32);
                w.bytes(&inner);
            }
            Engine::Sj(e) => {
                w.u8(e.finder);
                let path = Some(e.pair[e.goal as usize]);
                let counters = (e.expanded, e.iterations);
                write_fixed(&mut w, e.status, false, e.start, e.goal, counters, path);
                let n = e.visited.len();
                w.i32(e.visited.iter().filter(|&&v| v).count() as i32);
                for c in 0..n {
                    if e.visited[c] {
                        w.i32(c as i32);
                        w.i32(e.pair[c].a as i32);
                        w.i32(e.pair[c].b as i32);
                        w.i32(e.parent[c]);
                        w.u8(u8::from(e.closed[c]) | (e.dir[c] << 1));
                    }
                }
                if e.level.is_nan() {
                    w.u64(LEVEL_NAN);
                } else {
                    w.f64(e.level);
                }
                w.i32(e.heap.len() as i32);
                for s in &e.heap {
                    w.f64(s.f);
                    w.u64(s.t);
                }
                w.i32(e.stack.len() as i32);
                for &c in &e.stack {
                    w.i32(c as i32);
                }
            }
        }
        w.out
    }

    /// [GS.STATE.HEADER12] [GS.STATE.FAILED] [GS.STATE.RESTORE] [GS.HANDLE.RECORD] Restores a
    /// kind 12 state; every check runs first and a failure leaves the handle in mode 0.
    pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), GridStateError> {
        match self.read_handle(bytes) {
            Ok(engine) => {
                let ends = match &engine {
                    Engine::NotBegun => None,
                    Engine::Sa(e) => Some((e.start, e.goal)),
                    Engine::GenericAStar(a) => Some((a.core.start, a.core.goal)),
                    Engine::GenericJump(j) => Some((j.core.start, j.core.goal)),
                    Engine::Sj(e) => Some((e.start, e.goal)),
                };
                if let Some((s, g)) = ends {
                    let w = self.terrain.width;
                    self.start_xy = (s as usize % w, s as usize / w);
                    self.goal_xy = (g as usize % w, g as usize / w);
                }
                self.engine = engine;
                Ok(())
            }
            Err(f) => {
                self.engine = Engine::NotBegun;
                Err(f.into())
            }
        }
    }

    /// [GS.STATE.HEADER12] Reads and validates a kind 12 state into a new engine.
    fn read_handle(&self, bytes: &[u8]) -> Result<Engine<'g>, Fault> {
        let mut r = Reader::new(bytes);
        read_header(&mut r, KIND_GRID_SEARCH)?;
        let mode_at = r.pos();
        let mode = r.u8()?;
        if mode > 3 {
            return bad("out_of_range", mode_at, format!("mode {mode} is not 0..=3"));
        }
        let (w, h) = (self.terrain.width, self.terrain.height);
        for (name, size) in [("width", w), ("height", h)] {
            let at = r.pos();
            let v = r.i32()?;
            if i64::from(v) != size as i64 {
                return bad(
                    "size_mismatch",
                    at,
                    format!("{name} {v}, the grid's is {size}"),
                );
            }
        }
        let (sel, algorithm) = select(self.grid, &self.options);
        let sel_mode = match sel {
            GridEngine::NotBegun => 0,
            GridEngine::SpecialisedAStar => 1,
            GridEngine::GenericAStar | GridEngine::GenericJump => 2,
            GridEngine::SpecialisedJump { .. } => 3,
        };
        if mode != 0 && mode != sel_mode {
            return bad(
                "engine_mismatch",
                mode_at,
                format!("mode {mode}, the search selects mode {sel_mode}"),
            );
        }
        match mode {
            0 => {
                r.finish()?;
                Ok(Engine::NotBegun)
            }
            1 => {
                let zero = algorithm == super::options::GridAlgorithm::Dijkstra;
                let e = read_mode1(&mut r, &self.terrain, zero, self.options.record_expansions)?;
                r.finish()?;
                Ok(Engine::Sa(e))
            }
            3 => {
                let finder = match sel {
                    GridEngine::SpecialisedJump { finder } => finder,
                    _ => 0,
                };
                let e = read_mode3(
                    &mut r,
                    &self.terrain,
                    finder,
                    self.options.record_expansions,
                )?;
                r.finish()?;
                Ok(Engine::Sj(e))
            }
            _ => self.read_mode2(&mut r, sel, algorithm),
        }
    }
}

/// [GS.STATE.MODE1.CHECKS] Reads the fixed fields in byte order; `zero_expected` is the search's
/// zeroEstimate.
fn read_fixed(r: &mut Reader<'_>, n: usize, zero_expected: bool) -> Result<Fixed, Fault> {
    let at = r.pos();
    let status = match r.u8()? {
        1 => SearchStatus::Running,
        2 => SearchStatus::Found,
        3 => SearchStatus::NotFound,
        s => return bad("out_of_range", at, format!("status {s} is not 1..=3")),
    };
    let at = r.pos();
    let zero = r.flag("zeroEstimate")?;
    if zero != zero_expected {
        return bad(
            "engine_mismatch",
            at,
            format!("zeroEstimate {zero}, the search's is {zero_expected}"),
        );
    }
    let mut ends = [(0u32, 0usize); 2];
    for (k, name) in ["start", "goal"].iter().enumerate() {
        let at = r.pos();
        let v = r.i32()?;
        if v < 0 || v as usize >= n {
            return bad(
                "index_out_of_range",
                at,
                format!("{name} {v} is outside 0..{n}"),
            );
        }
        ends[k] = (v as u32, at);
    }
    let expanded_at = r.pos();
    let expanded = r.i32()?;
    if expanded < 0 {
        return bad(
            "out_of_range",
            expanded_at,
            format!("expanded {expanded} < 0"),
        );
    }
    let iterations_at = r.pos();
    let iterations = r.i32()?;
    if iterations < 0 || expanded > iterations {
        return bad(
            "out_of_range",
            iterations_at,
            format!("iterations {iterations} is < 0 or < expanded {expanded}"),
        );
    }
    let found = status == SearchStatus::Found;
    let mut path = [0u64; 2];
    let path_a_at = r.pos();
    for (k, name) in ["pathA", "pathB"].iter().enumerate() {
        let at = r.pos();
        let v = r.i32()?;
        let ok = if found { v >= 0 } else { v == -1 };
        if !ok {
            return bad(
                "out_of_range",
                at,
                format!("{name} {v} does not fit status {status:?}"),
            );
        }
        path[k] = v.max(0) as u64;
    }
    Ok(Fixed {
        status,
        start: ends[0].0,
        start_at: ends[0].1,
        goal: ends[1].0,
        expanded: expanded as u64,
        expanded_at,
        iterations: iterations as u64,
        iterations_at,
        path: Pair::new(path[0], path[1]),
        path_a_at,
    })
}

/// [GS.STATE.MODE1.CHECKS] [GS.STATE.MODE3.CHECKS] The visited count and each cell: range,
/// increasing, passable, `a`, `b`, then (mode 3) the parent, then the flags.
fn read_cells(r: &mut Reader<'_>, t: &Terrain<'_>, with_parent: bool) -> Result<Vec<Cell>, Fault> {
    let n = t.cell_count();
    let per = if with_parent { 17 } else { 13 };
    let at = r.pos();
    let count = r.i32()?;
    let bound = (n as u64).min((r.remaining() / per) as u64);
    if count < 0 || count as u64 > bound {
        return bad(
            "count_out_of_range",
            at,
            format!("visited count {count} is outside 0..={bound}"),
        );
    }
    let mut cells: Vec<Cell> = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let at = r.pos();
        let v = r.i32()?;
        if v < 0 || v as usize >= n {
            return bad(
                "index_out_of_range",
                at,
                format!("cell {v} is outside 0..{n}"),
            );
        }
        let cell = v as u32;
        if cells.last().is_some_and(|p| cell <= p.cell) {
            return bad(
                "not_increasing",
                at,
                format!("cell {cell} does not increase"),
            );
        }
        if !t.passable(t.xy(cell)) {
            return bad("not_walkable", at, format!("cell {cell} is not passable"));
        }
        let mut ab = [0u64; 2];
        for (k, name) in ["a", "b"].iter().enumerate() {
            let at = r.pos();
            let x = r.i32()?;
            if x < 0 {
                return bad("out_of_range", at, format!("{name} {x} of cell {cell} < 0"));
            }
            ab[k] = x as u64;
        }
        let mut parent = -1;
        if with_parent {
            let at = r.pos();
            parent = r.i32()?;
            if parent < -1 || (parent >= 0 && parent as usize >= n) {
                return bad(
                    "index_out_of_range",
                    at,
                    format!("parent {parent} of cell {cell} is not -1 or 0..{n}"),
                );
            }
        }
        let at_flags = r.pos();
        let flags = r.u8()?;
        if flags & 0xF0 != 0 {
            return bad(
                "bad_flag",
                at_flags,
                format!("flags {flags:#04x} of cell {cell} set bits 4-7"),
            );
        }
        cells.push(Cell {
            cell,
            pair: Pair::new(ab[0], ab[1]),
            parent,
            closed: flags & 1 == 1,
            dir: (flags >> 1) & 7,
            at,
        });
    }
    Ok(cells)
}

/// The position of `cell` in the (increasing) visited list.
fn find(cells: &[Cell], cell: u32) -> Option<usize> {
    cells.binary_search_by(|c| c.cell.cmp(&cell)).ok()
}

/// [GS.STATE.MODE1.CHECKS] (3) `iterations` equals the closed cells; `expanded` equals
/// `iterations`, minus 1 when Found.
fn check_counters(f: &Fixed, cells: &[Cell]) -> Result<(), Fault> {
    let closed = cells.iter().filter(|c| c.closed).count() as u64;
    if f.iterations != closed {
        return bad(
            "out_of_range",
            f.iterations_at,
            format!("iterations {} but {closed} closed cells", f.iterations),
        );
    }
    let want = f.iterations as i64 - i64::from(f.status == SearchStatus::Found);
    if f.expanded as i64 != want {
        return bad(
            "out_of_range",
            f.expanded_at,
            format!("expanded {} but {want} expected", f.expanded),
        );
    }
    Ok(())
}

/// [GS.STATE.MODE1] [GS.STATE.MODE1.CHECKS] Reads mode 1 and builds the engine, open list rebuilt.
fn read_mode1(
    r: &mut Reader<'_>,
    t: &Terrain<'_>,
    zero: bool,
    record: bool,
) -> Result<SpecialisedAStar, Fault> {
    let n = t.cell_count();
    let f = read_fixed(r, n, zero)?;
    let cells = read_cells(r, t, false)?;
    // (1) the start.
    if !cells.is_empty() {
        match find(&cells, f.start) {
            None => return bad("bad_parent", f.start_at, "the start is not visited".into()),
            Some(i) if cells[i].pair != Pair::default() => {
                return bad(
                    "bad_parent",
                    cells[i].at,
                    "the start's pair is not (0, 0)".into(),
                )
            }
            _ => {}
        }
    }
    // (2) every other cell's parent.
    for c in &cells {
        if c.cell == f.start {
            continue;
        }
        let (dx, dy) = SA_DIRS[c.dir as usize];
        let (x, y) = t.xy(c.cell);
        let p = (x + dx, y + dy);
        let step = if c.dir < 4 {
            Pair::new(1, 0)
        } else {
            Pair::new(0, 1)
        };
        let ok = t.inside(p)
            && find(&cells, t.index(p))
                .is_some_and(|j| cells[j].closed && cells[j].pair.add(step) == c.pair);
        if !ok {
            return bad(
                "bad_parent",
                c.at,
                format!(
                    "cell {} has no closed visited parent one step below",
                    c.cell
                ),
            );
        }
    }
    check_counters(&f, &cells)?;
    // (4) a Found goal.
    if f.status == SearchStatus::Found {
        let ok = find(&cells, f.goal).is_some_and(|j| cells[j].closed && cells[j].pair == f.path);
        if !ok {
            return bad(
                "out_of_range",
                f.path_a_at,
                "the Found goal is not closed with pair (pathA, pathB)".into(),
            );
        }
    }
    let mut e = SpecialisedAStar::new(n, zero, record);
    e.start = f.start;
    e.goal = f.goal;
    e.status = f.status;
    e.iterations = f.iterations;
    e.expanded = f.expanded;
    for c in &cells {
        let i = c.cell as usize;
        e.visited[i] = true;
        e.pair[i] = c.pair;
        e.dir[i] = c.dir;
        e.closed[i] = c.closed;
    }
    e.rebuild_open(t);
    Ok(e)
}

/// [GS.STATE.MODE3] [GS.STATE.MODE3.CHECKS] Reads mode 3 (after the mode header) and builds the
/// engine with its open list as it lay.
fn read_mode3(
    r: &mut Reader<'_>,
    t: &Terrain<'_>,
    finder: u8,
    record: bool,
) -> Result<SpecialisedJump, Fault> {
    let n = t.cell_count();
    let at = r.pos();
    let fb = r.u8()?;
    if fb > 1 {
        return bad("out_of_range", at, format!("finder {fb} is not 0..=1"));
    }
    if fb != finder {
        return bad(
            "engine_mismatch",
            at,
            format!("finder {fb}, the search selects {finder}"),
        );
    }
    let f = read_fixed(r, n, false)?;
    let cells = read_cells(r, t, true)?;
    // level: finite or the canonical NaN.
    let level_at = r.pos();
    let bits = r.u64()?;
    let level = f64::from_bits(bits);
    if level.is_nan() && bits != LEVEL_NAN {
        return bad(
            "nan",
            level_at,
            format!("level bits {bits:#018x} are not the canonical NaN"),
        );
    }
    if level.is_infinite() {
        return bad(
            "out_of_range",
            level_at,
            format!("level {level:?} is infinite"),
        );
    }
    // The heap.
    let heap_count_at = r.pos();
    let hc = r.i32()?;
    let hb = (r.remaining() / 16) as i64;
    if hc < 0 || i64::from(hc) > hb {
        return bad(
            "count_out_of_range",
            heap_count_at,
            format!("heap count {hc} is outside 0..={hb}"),
        );
    }
    let mut heap = Vec::with_capacity(hc as usize);
    let mut heap_at = Vec::with_capacity(hc as usize);
    let mut has_entry = vec![false; cells.len()];
    for _ in 0..hc {
        let f_at = r.pos();
        let fv = r.f64("heap F")?;
        if !fv.is_finite() {
            return bad("out_of_range", f_at, format!("heap F {fv:?} is infinite"));
        }
        let t_at = r.pos();
        let tv = r.u64()?;
        let cell = tv & 0xFFFF_FFFF;
        let Some(i) = (cell < n as u64)
            .then(|| find(&cells, cell as u32))
            .flatten()
        else {
            return bad(
                "bad_heap_node",
                t_at,
                format!("heap cell {cell} is not visited"),
            );
        };
        has_entry[i] = true;
        heap.push(Ft { f: fv, t: tv });
        heap_at.push(f_at);
    }
    for i in 1..heap.len() {
        if ft_precedes(&heap[i], &heap[(i - 1) / 2]) {
            return bad(
                "heap_order",
                heap_at[i],
                format!("heap slot {i} precedes its parent"),
            );
        }
    }
    // The stack.
    let at = r.pos();
    let sc = r.i32()?;
    let sb = (r.remaining() / 4) as i64;
    if sc < 0 || i64::from(sc) > sb {
        return bad(
            "count_out_of_range",
            at,
            format!("stack count {sc} is outside 0..={sb}"),
        );
    }
    let mut stack = Vec::with_capacity(sc as usize);
    for _ in 0..sc {
        let at = r.pos();
        let v = r.i32()?;
        let Some(i) = (v >= 0 && (v as usize) < n)
            .then(|| find(&cells, v as u32))
            .flatten()
        else {
            return bad(
                "bad_heap_node",
                at,
                format!("stack cell {v} is not visited"),
            );
        };
        has_entry[i] = true;
        stack.push(v as u32);
    }
    // Cross check (1): the start and the parent-less cells.
    // [GS.STATE.MODE3.CHECKS]: (1) mixes a whole-list condition ("the start is
    // visited") with per-cell ones; the reference checks "start visited" first (at the start
    // field), then passes over the cells in increasing order.
    if !cells.is_empty() {
        if find(&cells, f.start).is_none() {
            return bad("bad_parent", f.start_at, "the start is not visited".into());
        }
        for c in &cells {
            let ok = if c.cell == f.start {
                c.pair == Pair::default() && c.parent == -1 && (c.closed || f.iterations == 0)
            } else {
                c.parent != -1
            };
            if !ok {
                return bad(
                    "bad_parent",
                    c.at,
                    format!("cell {} breaks the start / parent rule", c.cell),
                );
            }
        }
    }
    // (2) every other cell's parent is a closed visited cell one valid hop back.
    for c in &cells {
        if c.cell == f.start {
            continue;
        }
        let ok = find(&cells, c.parent as u32).is_some_and(|j| {
            let p = &cells[j];
            let (pp, pc) = (t.xy(p.cell), t.xy(c.cell));
            let (dx, dy) = ((pc.0 - pp.0).abs(), (pc.1 - pp.1).abs());
            let hop_ok = (dx, dy) != (0, 0) && (dx == 0 || dy == 0 || dx == dy);
            let oct = octile_pair(pp, pc, Connectivity::Eight);
            hop_ok
                && p.closed
                && p.pair.add(oct) == c.pair
                && DIRS[c.dir as usize] == sign_dir(pp, pc)
        });
        if !ok {
            return bad(
                "bad_parent",
                c.at,
                format!(
                    "cell {} has no closed visited parent one valid hop back",
                    c.cell
                ),
            );
        }
    }
    // (3) counters.
    check_counters(&f, &cells)?;
    // (4) the goal is closed exactly when Found, then with pair (pathA, pathB).
    let goal_closed = find(&cells, f.goal).is_some_and(|j| cells[j].closed);
    let found = f.status == SearchStatus::Found;
    let goal_ok = if found {
        goal_closed && find(&cells, f.goal).is_some_and(|j| cells[j].pair == f.path)
    } else {
        !goal_closed
    };
    if !goal_ok {
        return bad(
            "out_of_range",
            f.path_a_at,
            "the goal is not closed exactly when Found with pair (pathA, pathB)".into(),
        );
    }
    // (5) level NaN exactly when nothing has popped.
    if level.is_nan() != (f.iterations == 0) {
        return bad(
            "out_of_range",
            level_at,
            format!("level {level:?} with iterations {}", f.iterations),
        );
    }
    // (6) every open cell has an entry.
    for (i, c) in cells.iter().enumerate() {
        if !c.closed && !has_entry[i] {
            return bad(
                "missing_open_node",
                c.at,
                format!("open cell {} has no heap or stack entry", c.cell),
            );
        }
    }
    // (7) a NotFound search has no entries.
    if f.status == SearchStatus::NotFound && !(heap.is_empty() && stack.is_empty()) {
        return bad(
            "out_of_range",
            heap_count_at,
            "a NotFound search has open entries".into(),
        );
    }
    let mut e = SpecialisedJump::new(n, finder, record);
    e.start = f.start;
    e.goal = f.goal;
    e.status = f.status;
    e.iterations = f.iterations;
    e.expanded = f.expanded;
    for c in &cells {
        let i = c.cell as usize;
        e.visited[i] = true;
        e.pair[i] = c.pair;
        e.parent[i] = c.parent;
        e.dir[i] = c.dir;
        e.closed[i] = c.closed;
    }
    e.level = level;
    e.heap = heap;
    e.stack = stack;
    Ok(e)
}

impl<'g> GridSearch<'g> {
    /// [GS.STATE.MODE2] Reads the begun cells, the length and the embedded kind 8 or 9 state
    /// (absolute offsets), then compares its ends with the header's.
    fn read_mode2(
        &self,
        r: &mut Reader<'_>,
        sel: GridEngine,
        algorithm: super::options::GridAlgorithm,
    ) -> Result<Engine<'g>, Fault> {
        let (w, h) = (self.terrain.width, self.terrain.height);
        let mut xy = [0usize; 4];
        for (k, (name, size)) in [("startX", w), ("startY", h), ("goalX", w), ("goalY", h)]
            .into_iter()
            .enumerate()
        {
            let at = r.pos();
            let v = r.i32()?;
            if v < 0 || v as usize >= size {
                return bad(
                    "index_out_of_range",
                    at,
                    format!("{name} {v} is outside 0..{size}"),
                );
            }
            xy[k] = v as usize;
        }
        let at = r.pos();
        let len = r.i32()?;
        if len < 0 || len as usize != r.remaining() {
            return bad(
                "count_out_of_range",
                at,
                format!("length {len}, {} bytes are left", r.remaining()),
            );
        }
        // [STATE.HEADER] of the embedded state, at absolute offsets.
        let base = r.pos();
        if r.u32()? != MAGIC {
            return bad("bad_magic", base, "embedded magic is not \"OPGS\"".into());
        }
        if r.u16()? != VERSION {
            return bad(
                "unsupported_version",
                base + 4,
                "embedded version is not 1".into(),
            );
        }
        let kind_at = r.pos();
        let kind = r.u16()?;
        if kind != KIND_ASTAR && kind != KIND_JUMP {
            return bad(
                "wrong_kind",
                kind_at,
                format!("embedded kind {kind} is not 8 or 9"),
            );
        }
        let want = if sel == GridEngine::GenericJump {
            KIND_JUMP
        } else {
            KIND_ASTAR
        };
        if kind != want {
            return bad(
                "engine_mismatch",
                kind_at,
                format!("embedded kind {kind}, the search selects {want}"),
            );
        }
        let mut engine = self.fresh_engine(sel, algorithm);
        let rules = match &engine {
            Engine::GenericAStar(a) => astar_rules(a),
            Engine::GenericJump(j) => jump_rules(j),
            _ => return bad("engine_mismatch", kind_at, "no generic engine".into()),
        };
        let s = read_search_body(r, &rules)?;
        r.finish()?;
        if s.status == SearchStatus::NotStarted {
            return bad(
                "engine_mismatch",
                s.status_at,
                "the embedded state is NotStarted".into(),
            );
        }
        // [GS.STATE.MODE2] the embedded start (kind 8 only), then the goal, in byte order.
        let start = (xy[1] * w + xy[0]) as u32;
        if kind == KIND_ASTAR && s.start != start {
            return bad(
                "out_of_range",
                s.start_at,
                format!("embedded start {} is not the header's {start}", s.start),
            );
        }
        let goal = (xy[3] * w + xy[2]) as u32;
        if s.goal != goal {
            return bad(
                "out_of_range",
                s.goal_at,
                format!("embedded goal {} is not the header's {goal}", s.goal),
            );
        }
        match &mut engine {
            Engine::GenericAStar(a) => install_core(&mut a.core, s),
            Engine::GenericJump(j) => {
                install_core(&mut j.core, s);
                // [GS.STATE.SEARCHES] kind 9 saves no start; the header names it.
                j.core.start = start;
            }
            _ => {}
        }
        Ok(engine)
    }
}
