//! [WORLD] World snapshots (spec/world.md): members live in typed arenas, each with a shadow
//! copy kept across restores; a restore parses the container into a reused span table, restores
//! every shadow (roots first), and only then replays the same bytes on the live members.
//! [WORLD.NOT_SAVED] Creation arguments, listeners, compiled graphs and the engines of parked
//! searches are not in the container: a world is restored into one built the same way.

use std::fmt;

use crate::astar::{DefaultGraphCost, GraphAStar, ZeroGraphHeuristic};
use crate::flow::GridFlowField;
use crate::grid_search::{GridOptions, GridSearch};
use crate::mutable::Graph;
use crate::plane::Grid;
use crate::replan::{GridReplanner, ReplanMode};
pub use crate::world_error::WorldError;

/// [WORLD.TYPES] Member type 1: a square `Grid`.
pub const MEMBER_GRID: u16 = 1;
/// [WORLD.TYPES] Member type 4: a `Graph`.
pub const MEMBER_GRAPH: u16 = 4;
/// [WORLD.TYPES] Member type 5: a `GridReplanner`.
pub const MEMBER_REPLANNER: u16 = 5;
/// [WORLD.TYPES] Member type 7: a `GridFlowField`.
pub const MEMBER_FLOW_FIELD: u16 = 7;
/// [WORLD.TYPES] Member type 11: a parked sliced `GraphAStar`.
pub const MEMBER_GRAPH_SEARCH: u16 = 11;
/// [WORLD.TYPES] Member type 12: a parked `GridSearch` handle.
pub const MEMBER_GRID_SEARCH: u16 = 12;

const MAGIC: [u8; 4] = *b"OPWS";
const VERSION: u16 = 1;
const HEADER: usize = 10;
const MEMBER_HEADER: usize = 10;
/// [STATE.GRAPH] The offset of `node_count` in a graph state (after its 8-byte header).
const GRAPH_NODE_COUNT_AT: usize = 8;

/// [WORLD.PARKED] The sliced graph search a world parks.
pub type WorldGraphSearch<'g> = GraphAStar<'g, DefaultGraphCost, ZeroGraphHeuristic>;

/// One member: its type, its owner's member index (roots: none) and its slot in the arena of
/// its type.
#[derive(Clone, Copy)]
struct Slot {
    ty: u16,
    owner: Option<usize>,
    at: usize,
}

struct GridRoot {
    live: Grid,
    shadow: Option<Grid>,
}

struct GraphRoot {
    live: Graph,
    shadow: Option<Graph>,
}

struct ReplannerSlot {
    options: GridOptions,
    mode: ReplanMode,
    start: (usize, usize),
    goal: (usize, usize),
    live: GridReplanner,
    shadow: Option<GridReplanner>,
}

struct FlowSlot {
    options: GridOptions,
    goals: Vec<(usize, usize)>,
    live: GridFlowField,
    shadow: Option<GridFlowField>,
}

struct ParkedGridSearch {
    options: GridOptions,
    /// [WORLD.PARKED.EDIT] False while not begun: the bytes are then written over the owner as
    /// it is whenever they are read.
    begun: bool,
    bytes: Vec<u8>,
}

struct ParkedGraphSearch {
    begun: bool,
    bytes: Vec<u8>,
}

/// [WORLD.MODEL] Grids, graphs and the objects built on them, numbered in add order.
#[derive(Default)]
pub struct World {
    slots: Vec<Slot>,
    grids: Vec<GridRoot>,
    graphs: Vec<GraphRoot>,
    replanners: Vec<ReplannerSlot>,
    flows: Vec<FlowSlot>,
    grid_searches: Vec<ParkedGridSearch>,
    graph_searches: Vec<ParkedGraphSearch>,
    /// Byte ranges of the members of the container being restored (reused).
    spans: Vec<(usize, usize)>,
}

impl fmt::Debug for World {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("World")
            .field("members", &self.slots.len())
            .finish_non_exhaustive()
    }
}

impl World {
    /// [WORLD.MODEL] An empty world.
    pub fn new() -> World {
        World::default()
    }

    /// [WORLD.MODEL] The number of members.
    pub fn member_count(&self) -> usize {
        self.slots.len()
    }

    /// [WORLD.TYPES] The type of member `index`.
    pub fn member_type(&self, index: usize) -> Result<u16, WorldError> {
        Ok(self.slot(index)?.ty)
    }

    /// [WORLD.SAVE] Member `index`'s bytes as the container holds them.
    pub fn member_state(&self, index: usize) -> Result<Vec<u8>, WorldError> {
        let mut out = Vec::new();
        self.member_state_into(index, &mut out)?;
        Ok(out)
    }

    /// [WORLD.SAVE] Member `index`'s bytes into `out` (cleared first).
    pub fn member_state_into(&self, index: usize, out: &mut Vec<u8>) -> Result<(), WorldError> {
        let slot = self.slot(index)?;
        out.clear();
        self.append_member(slot, out);
        Ok(())
    }

    fn append_member(&self, slot: Slot, out: &mut Vec<u8>) {
        let mut tmp = Vec::new();
        let owner_at = slot.owner.map(|o| self.slots[o].at);
        match (slot.ty, owner_at) {
            (MEMBER_GRID, _) => self.grids[slot.at].live.save_state_into(&mut tmp),
            (MEMBER_GRAPH, _) => self.graphs[slot.at].live.save_state_into(&mut tmp),
            (MEMBER_REPLANNER, _) => self.replanners[slot.at].live.save_state_into(&mut tmp),
            (MEMBER_FLOW_FIELD, _) => self.flows[slot.at].live.save_state_into(&mut tmp),
            (MEMBER_GRID_SEARCH, Some(g)) => {
                let parked = &self.grid_searches[slot.at];
                if parked.begun {
                    tmp.extend_from_slice(&parked.bytes);
                } else if let Ok(fresh) =
                    GridSearch::new(&self.grids[g].live, parked.options.clone())
                {
                    fresh.save_state_into(&mut tmp);
                }
            }
            (_, Some(g)) => {
                let parked = &self.graph_searches[slot.at];
                if parked.begun {
                    tmp.extend_from_slice(&parked.bytes);
                } else {
                    let graph = self.graphs[g].live.compile();
                    GraphAStar::new(graph, DefaultGraphCost, ZeroGraphHeuristic)
                        .save_state_into(&mut tmp);
                }
            }
            _ => {}
        }
        out.extend_from_slice(&tmp);
    }

    fn push(&mut self, ty: u16, owner: Option<usize>, at: usize) -> usize {
        self.slots.push(Slot { ty, owner, at });
        self.slots.len() - 1
    }

    /// [WORLD.ADD] Adds a grid root.
    pub fn add_grid(&mut self, grid: Grid) -> usize {
        self.grids.push(GridRoot {
            live: grid,
            shadow: None,
        });
        self.push(MEMBER_GRID, None, self.grids.len() - 1)
    }

    /// [WORLD.ADD] Adds a graph root.
    pub fn add_graph(&mut self, graph: Graph) -> usize {
        self.graphs.push(GraphRoot {
            live: graph,
            shadow: None,
        });
        self.push(MEMBER_GRAPH, None, self.graphs.len() - 1)
    }

    /// [WORLD.ADD] Adds `GridReplanner::new(owner, options, mode, start, goal)`.
    pub fn add_replanner(
        &mut self,
        owner: usize,
        options: GridOptions,
        mode: ReplanMode,
        start: (usize, usize),
        goal: (usize, usize),
    ) -> Result<usize, WorldError> {
        let g = self.root_at(owner, MEMBER_GRID)?;
        let live = GridReplanner::new(&mut self.grids[g].live, options.clone(), mode, start, goal)
            .map_err(WorldError::build)?;
        self.replanners.push(ReplannerSlot {
            options,
            mode,
            start,
            goal,
            live,
            shadow: None,
        });
        Ok(self.push(MEMBER_REPLANNER, Some(owner), self.replanners.len() - 1))
    }

    /// [WORLD.ADD] Adds `GridFlowField::new(owner, options, goals)`.
    pub fn add_flow_field(
        &mut self,
        owner: usize,
        options: GridOptions,
        goals: &[(usize, usize)],
    ) -> Result<usize, WorldError> {
        let g = self.root_at(owner, MEMBER_GRID)?;
        let live = GridFlowField::new(&mut self.grids[g].live, options.clone(), goals)
            .map_err(WorldError::build)?;
        self.flows.push(FlowSlot {
            options,
            goals: goals.to_vec(),
            live,
            shadow: None,
        });
        Ok(self.push(MEMBER_FLOW_FIELD, Some(owner), self.flows.len() - 1))
    }

    /// [WORLD.ADD] [WORLD.PARKED] Adds a parked `GridSearch::new(owner, options)`.
    pub fn add_grid_search(
        &mut self,
        owner: usize,
        options: GridOptions,
    ) -> Result<usize, WorldError> {
        let g = self.root_at(owner, MEMBER_GRID)?;
        GridSearch::new(&self.grids[g].live, options.clone()).map_err(WorldError::build)?;
        self.grid_searches.push(ParkedGridSearch {
            options,
            begun: false,
            bytes: Vec::new(),
        });
        Ok(self.push(
            MEMBER_GRID_SEARCH,
            Some(owner),
            self.grid_searches.len() - 1,
        ))
    }

    /// [WORLD.ADD] [WORLD.PARKED] Adds a parked sliced `GraphAStar` over `owner` with the
    /// default cost and the zero estimate.
    pub fn add_graph_search(&mut self, owner: usize) -> Result<usize, WorldError> {
        self.root_at(owner, MEMBER_GRAPH)?;
        self.graph_searches.push(ParkedGraphSearch {
            begun: false,
            bytes: Vec::new(),
        });
        Ok(self.push(
            MEMBER_GRAPH_SEARCH,
            Some(owner),
            self.graph_searches.len() - 1,
        ))
    }

    /// [WORLD.ACCESS] A grid root.
    pub fn grid(&self, index: usize) -> Result<&Grid, WorldError> {
        Ok(&self.grids[self.root_at(index, MEMBER_GRID)?].live)
    }

    /// [WORLD.ACCESS] [WORLD.PARKED.EDIT] A grid root to edit; the parked searches over it are
    /// reset first.
    pub fn grid_mut(&mut self, index: usize) -> Result<&mut Grid, WorldError> {
        let g = self.root_at(index, MEMBER_GRID)?;
        self.reset_parked(index);
        Ok(&mut self.grids[g].live)
    }

    /// [WORLD.ACCESS] A graph root.
    pub fn graph(&self, index: usize) -> Result<&Graph, WorldError> {
        Ok(&self.graphs[self.root_at(index, MEMBER_GRAPH)?].live)
    }

    /// [WORLD.ACCESS] [WORLD.PARKED.EDIT] A graph root to edit; the parked searches over it
    /// are reset first.
    pub fn graph_mut(&mut self, index: usize) -> Result<&mut Graph, WorldError> {
        let g = self.root_at(index, MEMBER_GRAPH)?;
        self.reset_parked(index);
        Ok(&mut self.graphs[g].live)
    }

    /// [WORLD.ACCESS] A replanner with its owner.
    pub fn replanner_mut(
        &mut self,
        index: usize,
    ) -> Result<(&Grid, &mut GridReplanner), WorldError> {
        let (at, owner) = self.dependent_at(index, MEMBER_REPLANNER)?;
        let g = self.slots[owner].at;
        Ok((&self.grids[g].live, &mut self.replanners[at].live))
    }

    /// [WORLD.ACCESS] A flow field with its owner.
    pub fn flow_field_mut(
        &mut self,
        index: usize,
    ) -> Result<(&Grid, &mut GridFlowField), WorldError> {
        let (at, owner) = self.dependent_at(index, MEMBER_FLOW_FIELD)?;
        let g = self.slots[owner].at;
        Ok((&self.grids[g].live, &mut self.flows[at].live))
    }

    /// [WORLD.PARKED] Builds the grid search over its owner, restores the parked bytes, calls
    /// `f` and parks the search again.
    pub fn with_grid_search<R>(
        &mut self,
        index: usize,
        f: impl FnOnce(&mut GridSearch<'_>) -> R,
    ) -> Result<R, WorldError> {
        let (at, owner) = self.dependent_at(index, MEMBER_GRID_SEARCH)?;
        let grid = &self.grids[self.slots[owner].at].live;
        let parked = &mut self.grid_searches[at];
        let mut search =
            GridSearch::new(grid, parked.options.clone()).map_err(WorldError::build)?;
        if parked.begun {
            search.restore_state(&parked.bytes).map_err(|e| {
                WorldError::member(index, MEMBER_GRID_SEARCH, e.class(), e.offset())
            })?;
        }
        let result = f(&mut search);
        search.save_state_into(&mut parked.bytes);
        parked.begun = true;
        Ok(result)
    }

    /// [WORLD.PARKED] Builds the graph search over its owner's compiled graph, restores the
    /// parked bytes, calls `f` and parks the search again.
    pub fn with_graph_search<R>(
        &mut self,
        index: usize,
        f: impl FnOnce(&mut WorldGraphSearch<'_>) -> R,
    ) -> Result<R, WorldError> {
        let (at, owner) = self.dependent_at(index, MEMBER_GRAPH_SEARCH)?;
        let graph = &self.graphs[self.slots[owner].at].live;
        let parked = &mut self.graph_searches[at];
        let mut search = GraphAStar::new(graph.compile(), DefaultGraphCost, ZeroGraphHeuristic);
        if parked.begun {
            search.restore_state(&parked.bytes).map_err(|e| {
                WorldError::member(index, MEMBER_GRAPH_SEARCH, e.class(), e.offset())
            })?;
        }
        let result = f(&mut search);
        search.save_state_into(&mut parked.bytes);
        parked.begun = true;
        Ok(result)
    }

    /// [WORLD.SAVE] The container.
    pub fn save_state(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.save_state_into(&mut out);
        out
    }

    /// [WORLD.SAVE] [WORLD.HEADER] [WORLD.MEMBER] The container into `out` (cleared first);
    /// each member's length is patched in after its bytes are written.
    pub fn save_state_into(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.slots.len() as i32).to_le_bytes());
        for slot in &self.slots {
            out.extend_from_slice(&slot.ty.to_le_bytes());
            out.extend_from_slice(&slot.owner.map_or(-1, |o| o as i32).to_le_bytes());
            let len_at = out.len();
            out.extend_from_slice(&[0; 4]);
            let start = out.len();
            self.append_member(*slot, out);
            let len = (out.len() - start) as u32;
            out[len_at..len_at + 4].copy_from_slice(&len.to_le_bytes());
        }
    }

    /// [WORLD.READ] [WORLD.STAGE] [WORLD.ATOMIC] [WORLD.COMMIT] Restores the container:
    /// everything is read and validated on the shadows before any live member changes.
    pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), WorldError> {
        let mut spans = std::mem::take(&mut self.spans);
        let result = self
            .parse(bytes, &mut spans)
            .and_then(|()| self.validate_on_shadows(bytes, &spans))
            .and_then(|()| self.apply(bytes, &spans));
        self.spans = spans;
        result
    }

    /// [WORLD.READ]
    fn parse(&self, b: &[u8], spans: &mut Vec<(usize, usize)>) -> Result<(), WorldError> {
        spans.clear();
        let n = b.len();
        let trunc = || WorldError::format("truncated", n);
        if n < 4 {
            return Err(trunc());
        }
        if b[..4] != MAGIC {
            return Err(WorldError::format("bad_magic", 0));
        }
        if n < 6 {
            return Err(trunc());
        }
        if u16::from_le_bytes([b[4], b[5]]) != VERSION {
            return Err(WorldError::format("unsupported_version", 4));
        }
        if n < HEADER {
            return Err(trunc());
        }
        let count = i32::from_le_bytes([b[6], b[7], b[8], b[9]]);
        if usize::try_from(count).ok() != Some(self.slots.len()) {
            return Err(WorldError::format("shape_mismatch", 6));
        }
        let mut h = HEADER;
        for slot in &self.slots {
            if n - h < MEMBER_HEADER {
                return Err(trunc());
            }
            if u16::from_le_bytes([b[h], b[h + 1]]) != slot.ty {
                return Err(WorldError::format("shape_mismatch", h));
            }
            let owner = i32::from_le_bytes([b[h + 2], b[h + 3], b[h + 4], b[h + 5]]);
            if owner != slot.owner.map_or(-1, |o| o as i32) {
                return Err(WorldError::format("shape_mismatch", h + 2));
            }
            let len = u32::from_le_bytes([b[h + 6], b[h + 7], b[h + 8], b[h + 9]]) as usize;
            let start = h + MEMBER_HEADER;
            if len > n - start {
                return Err(trunc());
            }
            spans.push((start, start + len));
            h = start + len;
        }
        if h != n {
            return Err(WorldError::format("trailing_bytes", h));
        }
        Ok(())
    }

    /// [WORLD.STAGE] Every member's bytes restored into its shadow, roots first.
    fn validate_on_shadows(
        &mut self,
        b: &[u8],
        spans: &[(usize, usize)],
    ) -> Result<(), WorldError> {
        for (i, &(s, e)) in spans.iter().enumerate() {
            let slot = self.slots[i];
            let fail =
                |class: &'static str, off: usize| WorldError::member(i, slot.ty, class, s + off);
            match slot.ty {
                MEMBER_GRID => {
                    let root = &mut self.grids[slot.at];
                    if root.shadow.is_none() {
                        root.shadow = Some(
                            Grid::new(root.live.width(), root.live.height())
                                .map_err(|_| WorldError::internal())?,
                        );
                    }
                    let shadow = root.shadow.as_mut().ok_or_else(WorldError::internal)?;
                    shadow
                        .restore_state(&b[s..e])
                        .map_err(|x| fail(x.class(), x.offset()))?;
                }
                MEMBER_GRAPH => {
                    let searched = self
                        .slots
                        .iter()
                        .any(|t| t.ty == MEMBER_GRAPH_SEARCH && t.owner == Some(i));
                    let root = &mut self.graphs[slot.at];
                    if root.shadow.is_none() {
                        root.shadow = Some(Graph::new(0).map_err(|_| WorldError::internal())?);
                    }
                    let shadow = root.shadow.as_mut().ok_or_else(WorldError::internal)?;
                    shadow
                        .restore_state(&b[s..e])
                        .map_err(|x| fail(x.class(), x.offset()))?;
                    // [WORLD.STAGE.GRAPH_BOUND] Before a search is staged over it.
                    if searched && shadow.node_count() > root.live.node_count().max(b.len()) {
                        return Err(fail("count_out_of_range", GRAPH_NODE_COUNT_AT));
                    }
                }
                _ => {}
            }
        }
        for (i, &(s, e)) in spans.iter().enumerate() {
            let slot = self.slots[i];
            let Some(owner) = slot.owner else { continue };
            let own = &b[s..e];
            let fail =
                |class: &'static str, off: usize| WorldError::member(i, slot.ty, class, s + off);
            let root_at = self.slots[owner].at;
            match slot.ty {
                MEMBER_REPLANNER => {
                    let grid = self.grids[root_at]
                        .shadow
                        .as_mut()
                        .ok_or_else(WorldError::internal)?;
                    let r = &mut self.replanners[slot.at];
                    if r.shadow.is_none() {
                        r.shadow = Some(
                            GridReplanner::new(grid, r.options.clone(), r.mode, r.start, r.goal)
                                .map_err(|_| WorldError::internal())?,
                        );
                    }
                    let shadow = r.shadow.as_mut().ok_or_else(WorldError::internal)?;
                    shadow
                        .restore_state(grid, own)
                        .map_err(|x| fail(x.class(), x.offset()))?;
                }
                MEMBER_FLOW_FIELD => {
                    let grid = self.grids[root_at]
                        .shadow
                        .as_mut()
                        .ok_or_else(WorldError::internal)?;
                    let f = &mut self.flows[slot.at];
                    if f.shadow.is_none() {
                        f.shadow = Some(
                            GridFlowField::new(grid, f.options.clone(), &f.goals)
                                .map_err(|_| WorldError::internal())?,
                        );
                    }
                    let shadow = f.shadow.as_mut().ok_or_else(WorldError::internal)?;
                    shadow
                        .restore_state(grid, own)
                        .map_err(|x| fail(x.class(), x.offset()))?;
                }
                MEMBER_GRID_SEARCH => {
                    let grid = self.grids[root_at]
                        .shadow
                        .as_ref()
                        .ok_or_else(WorldError::internal)?;
                    let options = self.grid_searches[slot.at].options.clone();
                    let mut search =
                        GridSearch::new(grid, options).map_err(|_| WorldError::internal())?;
                    search
                        .restore_state(own)
                        .map_err(|x| fail(x.class(), x.offset()))?;
                }
                _ => {
                    let graph = self.graphs[root_at]
                        .shadow
                        .as_ref()
                        .ok_or_else(WorldError::internal)?;
                    let mut search =
                        GraphAStar::new(graph.compile(), DefaultGraphCost, ZeroGraphHeuristic);
                    search
                        .restore_state(own)
                        .map_err(|x| fail(x.class(), x.offset()))?;
                }
            }
        }
        Ok(())
    }

    /// [WORLD.COMMIT] The validated bytes on the live members: roots, then replanners and flow
    /// fields, then the parked bytes.
    fn apply(&mut self, b: &[u8], spans: &[(usize, usize)]) -> Result<(), WorldError> {
        for (slot, &(s, e)) in self.slots.iter().zip(spans) {
            match slot.ty {
                MEMBER_GRID => self.grids[slot.at]
                    .live
                    .restore_state(&b[s..e])
                    .map_err(|_| WorldError::internal())?,
                MEMBER_GRAPH => self.graphs[slot.at]
                    .live
                    .restore_state(&b[s..e])
                    .map_err(|_| WorldError::internal())?,
                _ => {}
            }
        }
        for (slot, &(s, e)) in self.slots.iter().zip(spans) {
            let Some(owner) = slot.owner else { continue };
            let grid_at = self.slots[owner].at;
            match slot.ty {
                MEMBER_REPLANNER => self.replanners[slot.at]
                    .live
                    .restore_state(&self.grids[grid_at].live, &b[s..e])
                    .map_err(|_| WorldError::internal())?,
                MEMBER_FLOW_FIELD => self.flows[slot.at]
                    .live
                    .restore_state(&self.grids[grid_at].live, &b[s..e])
                    .map_err(|_| WorldError::internal())?,
                _ => {}
            }
        }
        for (slot, &(s, e)) in self.slots.iter().zip(spans) {
            match slot.ty {
                MEMBER_GRID_SEARCH => {
                    let parked = &mut self.grid_searches[slot.at];
                    parked.bytes.clear();
                    parked.bytes.extend_from_slice(&b[s..e]);
                    parked.begun = true;
                }
                MEMBER_GRAPH_SEARCH => {
                    let parked = &mut self.graph_searches[slot.at];
                    parked.bytes.clear();
                    parked.bytes.extend_from_slice(&b[s..e]);
                    parked.begun = true;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// [WORLD.PARKED.EDIT] Resets every parked search over member `root`, in member order.
    fn reset_parked(&mut self, root: usize) {
        for slot in &self.slots {
            if slot.owner != Some(root) {
                continue;
            }
            match slot.ty {
                MEMBER_GRID_SEARCH => self.grid_searches[slot.at].begun = false,
                MEMBER_GRAPH_SEARCH => self.graph_searches[slot.at].begun = false,
                _ => {}
            }
        }
    }

    fn slot(&self, index: usize) -> Result<Slot, WorldError> {
        self.slots
            .get(index)
            .copied()
            .ok_or(WorldError::unknown(index))
    }

    /// The arena position of root `index` of type `ty`.
    fn root_at(&self, index: usize, ty: u16) -> Result<usize, WorldError> {
        let slot = self.slot(index)?;
        if slot.ty != ty {
            return Err(WorldError::wrong_type(index, slot.ty, ty));
        }
        Ok(slot.at)
    }

    /// The arena position and owner of dependent `index` of type `ty`.
    fn dependent_at(&self, index: usize, ty: u16) -> Result<(usize, usize), WorldError> {
        let slot = self.slot(index)?;
        match slot.owner {
            Some(owner) if slot.ty == ty => Ok((slot.at, owner)),
            _ => Err(WorldError::wrong_type(index, slot.ty, ty)),
        }
    }
}
