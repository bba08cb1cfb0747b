//! [GS.STATE.HEADER12] [GS.STATE.MODE1] [GS.STATE.MODE2] Kind 12 (`GridSearch`): the header,
//! mode 1 and mode 2 (spec/grid-search.md §10); mode 3 is `state_mode3.rs`.

use super::handle::{select, Engine, GridSearch};
use super::moves::{Pair, Terrain};
use super::options::GridEngine;
use super::specialised_astar::{SpecialisedAStar, SA_DIRS};
use super::state::*;
use super::state_mode3::read_mode3;
use crate::astar::SearchStatus;
use crate::grid_error::GridStateError;
use crate::state::graph::read_search_body;
use crate::state::{read_header, Fault, Reader, Writer, MAGIC, VERSION};
// ---------------------------------------------------------------------------------------------
// Kind 12: the handle.

/// [GS.STATE.MODE1] [GS.STATE.MODE3] The fixed fields shared by modes 1 and 3.
pub(super) struct Fixed {
    pub(super) status: SearchStatus,
    pub(super) start: u32,
    pub(super) start_at: usize,
    pub(super) goal: u32,
    pub(super) expanded: u64,
    pub(super) expanded_at: usize,
    pub(super) iterations: u64,
    pub(super) iterations_at: usize,
    pub(super) path: Pair,
    pub(super) path_a_at: usize,
}

/// One visited cell of mode 1 or 3 as read.
pub(super) struct Cell {
    pub(super) cell: u32,
    pub(super) pair: Pair,
    /// Mode 3 only (`-1` for none).
    pub(super) parent: i32,
    pub(super) closed: bool,
    pub(super) dir: u8,
    pub(super) at: usize,
}

/// [GS.STATE.MODE1] [GS.STATE.MODE3] The fixed fields of a handle's own payload.
pub(super) fn write_fixed(
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

    /// [STATE.API.INTO] The bytes of `save_state()` left in `out` (cleared first; its
    /// allocation is reused).
    pub fn save_state_into(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(&self.save_state());
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
pub(super) fn read_fixed(
    r: &mut Reader<'_>,
    n: usize,
    zero_expected: bool,
) -> Result<Fixed, Fault> {
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
pub(super) fn read_cells(
    r: &mut Reader<'_>,
    t: &Terrain<'_>,
    with_parent: bool,
) -> Result<Vec<Cell>, Fault> {
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
pub(super) fn find(cells: &[Cell], cell: u32) -> Option<usize> {
    cells.binary_search_by(|c| c.cell.cmp(&cell)).ok()
}

/// [GS.STATE.MODE1.CHECKS] (3) `iterations` equals the closed cells; `expanded` equals
/// `iterations`, minus 1 when Found.
pub(super) fn check_counters(f: &Fixed, cells: &[Cell]) -> Result<(), Fault> {
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
