//! The `GridSearch` handle (kind 12) and `find_grid_path`: [GS.HANDLE.SELECT],
//! [GS.HANDLE.API], [GS.HANDLE.RECORD], [GS.TIER1], [GS.STATE.HEADER12], [GS.STATE.MODE2].

use super::astar::AStar;
use super::ctx::Ctx;
use super::jump::{jump_applies, JumpSearch};
use super::options::{
    unsupported, GridAlgorithm, GridEngine, GridOptions, GridPath, GridSearchError,
};
use super::special_astar::SpecA;
use super::special_jump::SpecJ;
use super::theta::ThetaSearch;
use crate::astar::SearchStatus;
use crate::grid_error::GridStateError;
use crate::plane::Grid;
use crate::tier1::PathStatus;
use crate::wire::{fail, Class, Fault, Put, Reader, KIND_ASTAR, KIND_GRID_SEARCH, KIND_JUMP};
use std::sync::atomic::AtomicBool;

/// The engine behind modes 1, 2 and 3.
enum Engine<'g> {
    SpecA(SpecA),
    AStar(AStar<'g>),
    Jump(JumpSearch<'g>),
    SpecJ(SpecJ),
}

/// [GS.HANDLE.SELECT] [GS.HANDLE.API] The grid search handle (kind 12): picks the specialised
/// A* (mode 1), a generic engine (mode 2) or the specialised jump engine (mode 3) from the
/// options and the grid. One handle serves any number of `begin` calls without reallocating.
pub struct GridSearch<'g> {
    ctx: Ctx<'g>,
    /// The mode `begin` selects (1, 2 or 3).
    selected: u8,
    algorithm: GridAlgorithm,
    engine: Engine<'g>,
    /// 0 until the first `begin` (or after a failed restore).
    mode: u8,
    start: (usize, usize),
    goal: (usize, usize),
}

impl Drop for GridSearch<'_> {
    /// Gives the specialised engines' scratch back to the grid's pool ([`super::cache`]).
    fn drop(&mut self) {
        let cache = self.ctx.grid.derived();
        match &mut self.engine {
            Engine::SpecA(e) => {
                let mut e = std::mem::replace(e, SpecA::empty(0));
                e.unshare();
                cache.give_spec_a(e);
            }
            Engine::SpecJ(e) => {
                let mut e = std::mem::replace(e, SpecJ::empty(0));
                e.unshare();
                cache.give_spec_j(e);
            }
            Engine::AStar(_) | Engine::Jump(_) => {}
        }
    }
}

impl<'g> GridSearch<'g> {
    /// Creates a resumable search on `grid`. After `begin(start, goal)`, `step(budget)` does at
    /// most `budget` iterations and returns `Running` until the search ends, so a caller can
    /// spread one search over many calls; `save_state` writes the search's bytes and
    /// `restore_state` loads them into a handle made with the same grid and options. Options are
    /// validated here; `Theta` and `LazyTheta` are `unsupported_algorithm` (they have
    /// `ThetaSearch`).
    ///
    /// ```
    /// use onepath::{Grid, GridOptions, GridSearch, SearchStatus};
    ///
    /// let grid = Grid::new(8, 8).unwrap();
    /// let mut slices = GridSearch::new(&grid, GridOptions::default()).unwrap();
    /// slices.begin((0, 0), (7, 7)).unwrap();
    /// let mut saved = None;
    /// let mut calls = 0;
    /// while slices.step(2) == SearchStatus::Running {
    ///     calls += 1;
    ///     if calls == 2 {
    ///         saved = Some(slices.save_state()); // after 4 iterations
    ///     }
    /// }
    /// assert_eq!(slices.status(), SearchStatus::Found);
    /// // Seven diagonal steps across the open grid.
    /// assert_eq!(slices.path_cost(), 7.0 * std::f64::consts::SQRT_2);
    ///
    /// let mut again = GridSearch::new(&grid, GridOptions::default()).unwrap();
    /// again.restore_state(&saved.unwrap()).unwrap();
    /// assert_eq!(again.status(), SearchStatus::Running);
    /// assert_eq!(again.run(None), SearchStatus::Found);
    /// assert_eq!((again.path(), again.path_cost()), (slices.path(), slices.path_cost()));
    /// ```
    ///
    /// [GS.HANDLE.SELECT] [GS.OPT.VALID] [STATE.API]
    pub fn new(grid: &'g Grid, options: GridOptions) -> Result<Self, GridSearchError> {
        let ctx = Ctx::new(grid, options.clone())?;
        let alg = options.algorithm;
        let o = &ctx.opts;
        let no_hooks = o.cell_cost.is_none() && o.blocked.is_none();
        let (selected, algorithm, engine) = match alg {
            GridAlgorithm::Theta | GridAlgorithm::LazyTheta => {
                return Err(unsupported(alg, "GridSearch"))
            }
            GridAlgorithm::AStar | GridAlgorithm::Dijkstra => {
                if ctx.uniform && no_hooks && o.heuristic_weight == 1.0 {
                    let zero = alg == GridAlgorithm::Dijkstra;
                    (1, alg, Engine::SpecA(SpecA::new(&ctx, zero)))
                } else {
                    (2, alg, Engine::AStar(AStar::new(grid, options)?))
                }
            }
            GridAlgorithm::Jps | GridAlgorithm::JpsPlus => {
                if !jump_applies(&ctx) {
                    let mut a = options;
                    a.algorithm = GridAlgorithm::AStar;
                    (2, GridAlgorithm::AStar, Engine::AStar(AStar::new(grid, a)?))
                } else if o.blocked.is_none() && o.agent_size == 1 {
                    let finder = (alg == GridAlgorithm::JpsPlus) as u8;
                    (3, alg, Engine::SpecJ(SpecJ::new(&ctx, finder)))
                } else {
                    (2, alg, Engine::Jump(JumpSearch::new(grid, options)?))
                }
            }
        };
        Ok(GridSearch {
            ctx,
            selected,
            algorithm,
            engine,
            mode: 0,
            start: (0, 0),
            goal: (0, 0),
        })
    }

    /// [GS.HANDLE.API] The engine in use (`NotBegun` before the first `begin`).
    pub fn engine(&self) -> GridEngine {
        if self.mode == 0 {
            return GridEngine::NotBegun;
        }
        match &self.engine {
            Engine::SpecA(_) => GridEngine::SpecialisedAStar,
            Engine::AStar(_) => GridEngine::GenericAStar,
            Engine::Jump(_) => GridEngine::GenericJump,
            Engine::SpecJ(j) => GridEngine::SpecialisedJump { finder: j.finder },
        }
    }

    /// [GS.HANDLE.API] [GS.HANDLE.SELECT] The algorithm that runs.
    // [GS.HANDLE.API]: before the first begin this is the algorithm begin would run.
    pub fn algorithm(&self) -> GridAlgorithm {
        self.algorithm
    }

    /// [GS.HANDLE.API] [GS.ASTAR.BEGIN] [GS.SA.BEGIN] [GS.SJ.BEGIN] Starts a search;
    /// `cell_out_of_range` (start first, x before y) changes nothing.
    pub fn begin(
        &mut self,
        start: (usize, usize),
        goal: (usize, usize),
    ) -> Result<(), GridSearchError> {
        let (s, g) = self.ctx.cells_of(start, goal)?;
        match &mut self.engine {
            Engine::SpecA(e) => e.begin(&self.ctx, s, g),
            Engine::AStar(e) => e.begin(start, goal)?,
            Engine::Jump(e) => e.begin(start, goal)?,
            Engine::SpecJ(e) => e.begin(&self.ctx, s, g),
        }
        self.mode = self.selected;
        self.start = start;
        self.goal = goal;
        Ok(())
    }

    fn advance(&mut self, max: u64, cancel: Option<&AtomicBool>) -> SearchStatus {
        if self.mode == 0 {
            return SearchStatus::NotStarted;
        }
        match &mut self.engine {
            Engine::SpecA(e) => e.advance(&self.ctx, max, cancel),
            Engine::AStar(e) => e.core.advance(max, cancel),
            Engine::Jump(e) => e.core.advance(max, cancel),
            Engine::SpecJ(e) => e.advance(&self.ctx, max, cancel),
        }
    }

    /// [GS.SA.STEP] [GS.SJ.STEP] [GRAPH.ASTAR.STEP] At most `budget` iterations.
    pub fn step(&mut self, budget: u64) -> SearchStatus {
        self.advance(budget, None)
    }

    /// [GRAPH.ASTAR.RUN] `step` without a budget, reading `cancel` every 256 iterations.
    pub fn run(&mut self, cancel: Option<&AtomicBool>) -> SearchStatus {
        self.advance(u64::MAX, cancel)
    }

    /// [GRAPH.ASTAR.STATUS] The current status.
    pub fn status(&self) -> SearchStatus {
        if self.mode == 0 {
            return SearchStatus::NotStarted;
        }
        match &self.engine {
            Engine::SpecA(e) => e.status,
            Engine::AStar(e) => e.core.status,
            Engine::Jump(e) => e.core.status,
            Engine::SpecJ(e) => e.status,
        }
    }

    /// [GS.SA.PATH] [GS.JUMP.PATH] [GRAPH.ASTAR.PATH] The path cells, start first.
    pub fn path(&self) -> Vec<u32> {
        if self.mode == 0 {
            return Vec::new();
        }
        match &self.engine {
            Engine::SpecA(e) => e.path(&self.ctx),
            Engine::AStar(e) => e.core.path(),
            Engine::Jump(e) => e.core.path(),
            Engine::SpecJ(e) => e.path(&self.ctx),
        }
    }

    /// [GS.SA.PATH] [GRAPH.ASTAR.NOT_FOUND] The path cost (`+infinity` unless Found).
    pub fn path_cost(&self) -> f64 {
        if self.mode == 0 {
            return f64::INFINITY;
        }
        match &self.engine {
            Engine::SpecA(e) => e.path_cost(&self.ctx),
            Engine::AStar(e) => e.core.path_cost(),
            Engine::Jump(e) => e.core.path_cost(),
            Engine::SpecJ(e) => e.path_cost(&self.ctx),
        }
    }

    /// [GRAPH.ASTAR.COUNTERS] Pops so far.
    pub fn iterations(&self) -> u64 {
        if self.mode == 0 {
            return 0;
        }
        match &self.engine {
            Engine::SpecA(e) => e.iterations,
            Engine::AStar(e) => e.core.iterations,
            Engine::Jump(e) => e.core.iterations,
            Engine::SpecJ(e) => e.iterations,
        }
    }

    /// [GRAPH.ASTAR.COUNTERS] Expansions so far.
    pub fn expanded_count(&self) -> u64 {
        if self.mode == 0 {
            return 0;
        }
        match &self.engine {
            Engine::SpecA(e) => e.expanded,
            Engine::AStar(e) => e.core.expanded,
            Engine::Jump(e) => e.core.expanded,
            Engine::SpecJ(e) => e.expanded,
        }
    }

    /// [GRAPH.ASTAR.COUNTERS] [GS.HANDLE.RECORD] The recorded expanded cells.
    pub fn expansions(&self) -> &[u32] {
        if self.mode == 0 {
            return &[];
        }
        match &self.engine {
            Engine::SpecA(e) => &e.record,
            Engine::AStar(e) => &e.core.buf.record,
            Engine::Jump(e) => &e.core.buf.record,
            Engine::SpecJ(e) => &e.record,
        }
    }

    /// [GS.STATE.HEADER12] [GS.STATE.MODE1] [GS.STATE.MODE2] [GS.STATE.MODE3] The state bytes.
    pub fn save_state(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.save_state_into(&mut out);
        out
    }

    /// [STATE.API.INTO] The bytes of [`GridSearch::save_state`] written into `out` (cleared
    /// first; its allocation is reused). A mode-2 state writes its embedded state in place and
    /// patches the length field afterwards.
    pub fn save_state_into(&self, out: &mut Vec<u8>) {
        out.clear();
        out.put_header(KIND_GRID_SEARCH);
        out.put_u8(self.mode);
        out.put_i32(self.ctx.w as i32);
        out.put_i32(self.ctx.h as i32);
        if self.mode == 0 {
            return;
        }
        match &self.engine {
            Engine::SpecA(e) => e.save(&self.ctx, out),
            Engine::SpecJ(e) => e.save(&self.ctx, out),
            Engine::AStar(_) | Engine::Jump(_) => {
                for v in [self.start.0, self.start.1, self.goal.0, self.goal.1] {
                    out.put_i32(v as i32);
                }
                let len_at = out.len();
                out.put_i32(0);
                match &self.engine {
                    Engine::AStar(e) => e.core.save(out),
                    Engine::Jump(e) => e.core.save(out),
                    _ => {}
                }
                let len = (out.len() - len_at - 4) as i32;
                out[len_at..len_at + 4].copy_from_slice(&len.to_le_bytes());
            }
        }
    }

    fn clear(&mut self) {
        self.mode = 0;
        match &mut self.engine {
            Engine::SpecA(e) => e.clear(),
            Engine::AStar(e) => e.core.clear(),
            Engine::Jump(e) => e.core.clear(),
            Engine::SpecJ(e) => e.clear(),
        }
    }

    /// [GS.STATE.HEADER12] .. [GS.STATE.MODE3.CHECKS] [GS.STATE.RESTORE] [GS.STATE.FAILED]
    /// [GS.HANDLE.RECORD] Restores a state saved by a handle created the same way; on error the
    /// handle is in mode 0.
    pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), GridStateError> {
        self.clear();
        match self.restore(bytes) {
            Ok(mode) => {
                self.mode = mode;
                Ok(())
            }
            Err(f) => {
                self.clear();
                Err(GridStateError::from_fault(f))
            }
        }
    }

    fn restore(&mut self, bytes: &[u8]) -> Result<u8, Fault> {
        let mut r = Reader::new(bytes);
        r.header(KIND_GRID_SEARCH)?;
        let mode = r.u8("mode")?;
        if mode > 3 {
            return fail(Class::OutOfRange, 8, "mode");
        }
        if r.i32("width")? as i64 != self.ctx.w as i64 {
            return fail(Class::SizeMismatch, 9, "width");
        }
        if r.i32("height")? as i64 != self.ctx.h as i64 {
            return fail(Class::SizeMismatch, 13, "height");
        }
        // [GS.STATE.HEADER12]: engine_mismatch (at the mode byte) is checked after
        // width and height, in the clause's listed order, though the mode byte comes first.
        if mode != 0 && mode != self.selected {
            return fail(Class::EngineMismatch, 8, "mode");
        }
        match (mode, &mut self.engine) {
            (0, _) => r.finish()?,
            (1, Engine::SpecA(e)) => e.restore(&self.ctx, bytes, &mut r)?,
            (3, Engine::SpecJ(e)) => e.restore(&self.ctx, bytes, &mut r)?,
            _ => self.restore_mode2(bytes, &mut r)?,
        }
        Ok(mode)
    }

    /// [GS.STATE.MODE2] Cells, length, the embedded kind-8 or kind-9 state.
    fn restore_mode2(&mut self, bytes: &[u8], r: &mut Reader<'_>) -> Result<(), Fault> {
        let mut v = [0usize; 4];
        for (k, name) in ["startX", "startY", "goalX", "goalY"]
            .into_iter()
            .enumerate()
        {
            let at = r.pos;
            let x = r.i32(name)?;
            let lim = if k % 2 == 0 { self.ctx.w } else { self.ctx.h };
            if x < 0 || x as usize >= lim {
                return fail(Class::IndexOutOfRange, at, name);
            }
            v[k] = x as usize;
        }
        let at = r.pos;
        let len = r.i32("length")?;
        if len < 0 || len as usize != r.left() {
            return fail(Class::CountOutOfRange, at, "length");
        }
        let base = r.pos;
        if r.u32("magic")? != crate::wire::MAGIC {
            return fail(Class::BadMagic, base, "magic");
        }
        if r.u16("version")? != crate::wire::VERSION {
            return fail(Class::UnsupportedVersion, base + 4, "version");
        }
        let kind = r.u16("kind")?;
        if kind != KIND_ASTAR && kind != KIND_JUMP {
            return fail(Class::WrongKind, base + 6, "kind");
        }
        let core = match &mut self.engine {
            Engine::AStar(e) if kind == KIND_ASTAR => &mut e.core,
            Engine::Jump(e) if kind == KIND_JUMP => &mut e.core,
            _ => return fail(Class::EngineMismatch, base + 6, "kind"),
        };
        core.restore_body(bytes, base)?;
        if core.status == SearchStatus::NotStarted {
            return fail(Class::EngineMismatch, base + 12, "status");
        }
        let w = self.ctx.w;
        // [GS.STATE.MODE2]: the start (kind 8) is compared before the goal (byte order).
        if kind == KIND_ASTAR && core.start as usize != v[1] * w + v[0] {
            return fail(Class::OutOfRange, base + 21, "start");
        }
        if core.goal as usize != v[3] * w + v[2] {
            return fail(Class::OutOfRange, base + 25, "goal");
        }
        self.start = (v[0], v[1]);
        self.goal = (v[2], v[3]);
        Ok(())
    }
}

/// [GRID.SPACE.CENTER] The centre of cell `c`.
pub(crate) fn centre(grid: &Grid, c: u32) -> (f64, f64) {
    let s = grid.space();
    let (ox, oy, cs) = if s.origin_x == 0.0 && s.origin_y == 0.0 && s.cell_size == 0.0 {
        (0.0, 0.0, 1.0)
    } else {
        (s.origin_x, s.origin_y, s.cell_size)
    };
    let w = grid.width();
    let (x, y) = ((c as usize % w) as f64, (c as usize / w) as f64);
    (ox + (x + 0.5) * cs, oy + (y + 0.5) * cs)
}

/// One-call grid search from cell `start` to cell `goal` (each `(x, y)`), configured by the
/// options; returns the status, cost, cells (flat `x + width * y`) and their centre points.
/// Internally a `GridSearch` (a `ThetaSearch` for `Theta`/`LazyTheta`) stepped by
/// `iteration_budget` when it is non-zero, else run to the end.
///
/// ```
/// use onepath::{find_grid_path, Grid, GridAlgorithm, GridOptions, PathStatus, WALL};
///
/// // A 4 x 2 grid whose top row is walled except at both ends: the way from (0, 0) to (3, 0)
/// // runs along the bottom row.
/// let mut grid = Grid::new(4, 2).unwrap();
/// grid.set_cell(1, 0, WALL).unwrap();
/// grid.set_cell(2, 0, WALL).unwrap();
/// let options = GridOptions { algorithm: GridAlgorithm::Dijkstra, ..Default::default() };
/// let path = find_grid_path(&grid, (0, 0), (3, 0), &options).unwrap();
/// assert_eq!(path.status, PathStatus::Found);
/// // Down, two steps right, up: corner-cutting diagonals are refused by the default rule.
/// assert_eq!(path.cells, vec![0, 4, 5, 6, 7, 3]);
/// assert_eq!(path.cost, 5.0);
/// assert!(find_grid_path(&grid, (0, 0), (4, 0), &options).is_err());
/// ```
///
/// [GS.TIER1]
pub fn find_grid_path(
    grid: &Grid,
    start: (usize, usize),
    goal: (usize, usize),
    options: &GridOptions,
) -> Result<GridPath, GridSearchError> {
    let budget = options.iteration_budget;
    let go = |status: SearchStatus| match status {
        SearchStatus::Found => PathStatus::Found,
        SearchStatus::Running => PathStatus::BudgetExhausted,
        _ => PathStatus::NotFound,
    };
    macro_rules! finish {
        ($s:expr, $alg:expr) => {{
            let mut s = $s;
            s.begin(start, goal)?;
            let st = if budget > 0 {
                s.step(budget)
            } else {
                s.run(None)
            };
            let cells = s.path();
            Ok(GridPath {
                algorithm: $alg,
                status: go(st),
                cost: s.path_cost(),
                points: cells.iter().map(|&c| centre(grid, c)).collect(),
                cells,
                expanded: s.expansions().to_vec(),
                expanded_count: s.expanded_count(),
                iterations: s.iterations(),
            })
        }};
    }
    match options.algorithm {
        GridAlgorithm::Theta | GridAlgorithm::LazyTheta => {
            finish!(ThetaSearch::new(grid, options.clone())?, options.algorithm)
        }
        _ => {
            let s = GridSearch::new(grid, options.clone())?;
            let alg = s.algorithm();
            finish!(s, alg)
        }
    }
}
