//! [WORLD] A bundle of grids, graphs and what is built on them, saved as one container and
//! restored transactionally (spec/world.md). The reference validates by restoring every member
//! into a freshly built scratch copy, then repeats each restore on the live member.
//! [WORLD.NOT_SAVED] Creation arguments, listeners, compiled graphs and the engines of parked
//! searches are not in the container: a world is restored into one built the same way.

use std::fmt;

use crate::astar::{DefaultGraphCost, GraphAStar, ZeroGraphHeuristic};
use crate::flow::GridFlowField;
use crate::graph::Graph;
use crate::grid::Grid;
use crate::grid_search::{GridOptions, GridSearch};
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

/// [WORLD.HEADER] The container's magic, "OPWS".
const MAGIC: u32 = 0x5357_504F;
/// [WORLD.HEADER] The only container version.
const VERSION: u16 = 1;

/// [WORLD.PARKED] The sliced graph search a world parks.
pub type WorldGraphSearch<'g> = GraphAStar<'g, DefaultGraphCost, ZeroGraphHeuristic>;

#[allow(clippy::large_enum_variant)] // obviously right beats compact: one plain enum
enum Member {
    Grid(Grid),
    Graph(Graph),
    Replanner {
        owner: usize,
        options: GridOptions,
        mode: ReplanMode,
        start: (usize, usize),
        goal: (usize, usize),
        replanner: GridReplanner,
    },
    FlowField {
        owner: usize,
        options: GridOptions,
        goals: Vec<(usize, usize)>,
        field: GridFlowField,
    },
    GridSearch {
        owner: usize,
        options: GridOptions,
        parked: Parked,
    },
    GraphSearch {
        owner: usize,
        parked: Parked,
    },
}

/// [WORLD.PARKED] What a world keeps of a sliced search.
#[derive(Clone)]
enum Parked {
    /// [WORLD.PARKED.EDIT] Not begun: its bytes are those of a handle built over the owner as
    /// it is when they are read.
    NotBegun,
    /// The bytes the last access or restore left.
    Saved(Vec<u8>),
}

impl Member {
    fn member_type(&self) -> u16 {
        match self {
            Member::Grid(_) => MEMBER_GRID,
            Member::Graph(_) => MEMBER_GRAPH,
            Member::Replanner { .. } => MEMBER_REPLANNER,
            Member::FlowField { .. } => MEMBER_FLOW_FIELD,
            Member::GridSearch { .. } => MEMBER_GRID_SEARCH,
            Member::GraphSearch { .. } => MEMBER_GRAPH_SEARCH,
        }
    }

    /// [WORLD.MEMBER] `-1` for a root.
    fn owner(&self) -> i32 {
        match self {
            Member::Grid(_) | Member::Graph(_) => -1,
            Member::Replanner { owner, .. }
            | Member::FlowField { owner, .. }
            | Member::GridSearch { owner, .. }
            | Member::GraphSearch { owner, .. } => *owner as i32,
        }
    }
}

/// [WORLD.MODEL] Grids, graphs and the objects built on them, numbered in add order.
#[derive(Default)]
pub struct World {
    members: Vec<Member>,
}

impl fmt::Debug for World {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("World")
            .field("members", &self.member_count())
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
        self.members.len()
    }

    /// [WORLD.TYPES] The type of member `index`.
    pub fn member_type(&self, index: usize) -> Result<u16, WorldError> {
        Ok(self.member(index)?.member_type())
    }

    /// [WORLD.SAVE] Member `index`'s bytes as the container holds them.
    pub fn member_state(&self, index: usize) -> Result<Vec<u8>, WorldError> {
        Ok(match self.member(index)? {
            Member::Grid(g) => g.save_state(),
            Member::Graph(g) => g.save_state(),
            Member::Replanner { replanner, .. } => replanner.save_state(),
            Member::FlowField { field, .. } => field.save_state(),
            Member::GridSearch {
                owner,
                options,
                parked,
            } => match parked {
                Parked::Saved(b) => b.clone(),
                Parked::NotBegun => {
                    let grid = self.grid_member(*owner)?;
                    let search =
                        GridSearch::new(grid, options.clone()).map_err(WorldError::build)?;
                    search.save_state()
                }
            },
            Member::GraphSearch { owner, parked } => match parked {
                Parked::Saved(b) => b.clone(),
                Parked::NotBegun => fresh_graph_search_bytes(self.graph(*owner)?),
            },
        })
    }

    /// [WORLD.ADD] Adds a grid root.
    pub fn add_grid(&mut self, grid: Grid) -> usize {
        self.members.push(Member::Grid(grid));
        self.members.len() - 1
    }

    /// [WORLD.ADD] Adds a graph root.
    pub fn add_graph(&mut self, graph: Graph) -> usize {
        self.members.push(Member::Graph(graph));
        self.members.len() - 1
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
        let grid = self.grid_member_mut(owner)?;
        let replanner = GridReplanner::new(grid, options.clone(), mode, start, goal)
            .map_err(WorldError::build)?;
        self.members.push(Member::Replanner {
            owner,
            options,
            mode,
            start,
            goal,
            replanner,
        });
        Ok(self.members.len() - 1)
    }

    /// [WORLD.ADD] Adds `GridFlowField::new(owner, options, goals)`.
    pub fn add_flow_field(
        &mut self,
        owner: usize,
        options: GridOptions,
        goals: &[(usize, usize)],
    ) -> Result<usize, WorldError> {
        let grid = self.grid_member_mut(owner)?;
        let field = GridFlowField::new(grid, options.clone(), goals).map_err(WorldError::build)?;
        self.members.push(Member::FlowField {
            owner,
            options,
            goals: goals.to_vec(),
            field,
        });
        Ok(self.members.len() - 1)
    }

    /// [WORLD.ADD] [WORLD.PARKED] Adds a parked `GridSearch::new(owner, options)`.
    pub fn add_grid_search(
        &mut self,
        owner: usize,
        options: GridOptions,
    ) -> Result<usize, WorldError> {
        let grid = self.grid_member(owner)?;
        GridSearch::new(grid, options.clone()).map_err(WorldError::build)?;
        self.members.push(Member::GridSearch {
            owner,
            options,
            parked: Parked::NotBegun,
        });
        Ok(self.members.len() - 1)
    }

    /// [WORLD.ADD] [WORLD.PARKED] Adds a parked sliced `GraphAStar` over `owner` with the
    /// default cost and the zero estimate.
    pub fn add_graph_search(&mut self, owner: usize) -> Result<usize, WorldError> {
        self.graph(owner)?;
        self.members.push(Member::GraphSearch {
            owner,
            parked: Parked::NotBegun,
        });
        Ok(self.members.len() - 1)
    }

    /// [WORLD.ACCESS] A grid root.
    pub fn grid(&self, index: usize) -> Result<&Grid, WorldError> {
        self.grid_member(index)
    }

    /// [WORLD.ACCESS] [WORLD.PARKED.EDIT] A grid root to edit; the parked searches over it are
    /// reset first.
    pub fn grid_mut(&mut self, index: usize) -> Result<&mut Grid, WorldError> {
        self.grid_member(index)?;
        self.reset_parked_over(index);
        self.grid_member_mut(index)
    }

    /// [WORLD.ACCESS] A graph root.
    pub fn graph(&self, index: usize) -> Result<&Graph, WorldError> {
        match self.member(index)? {
            Member::Graph(g) => Ok(g),
            other => Err(WorldError::wrong_type(
                index,
                other.member_type(),
                MEMBER_GRAPH,
            )),
        }
    }

    /// [WORLD.ACCESS] [WORLD.PARKED.EDIT] A graph root to edit; the parked searches over it
    /// are reset first.
    pub fn graph_mut(&mut self, index: usize) -> Result<&mut Graph, WorldError> {
        self.graph(index)?;
        self.reset_parked_over(index);
        match &mut self.members[index] {
            Member::Graph(g) => Ok(g),
            _ => unreachable_type(),
        }
    }

    /// [WORLD.ACCESS] A replanner with its owner.
    pub fn replanner_mut(
        &mut self,
        index: usize,
    ) -> Result<(&Grid, &mut GridReplanner), WorldError> {
        let owner = match self.member(index)? {
            Member::Replanner { owner, .. } => *owner,
            other => {
                return Err(WorldError::wrong_type(
                    index,
                    other.member_type(),
                    MEMBER_REPLANNER,
                ))
            }
        };
        let (roots, rest) = self.members.split_at_mut(index);
        match (&roots[owner], &mut rest[0]) {
            (Member::Grid(grid), Member::Replanner { replanner, .. }) => Ok((grid, replanner)),
            _ => unreachable_type(),
        }
    }

    /// [WORLD.ACCESS] A flow field with its owner.
    pub fn flow_field_mut(
        &mut self,
        index: usize,
    ) -> Result<(&Grid, &mut GridFlowField), WorldError> {
        let owner = match self.member(index)? {
            Member::FlowField { owner, .. } => *owner,
            other => {
                return Err(WorldError::wrong_type(
                    index,
                    other.member_type(),
                    MEMBER_FLOW_FIELD,
                ))
            }
        };
        let (roots, rest) = self.members.split_at_mut(index);
        match (&roots[owner], &mut rest[0]) {
            (Member::Grid(grid), Member::FlowField { field, .. }) => Ok((grid, field)),
            _ => unreachable_type(),
        }
    }

    /// [WORLD.PARKED] Builds the grid search over its owner, restores the parked bytes, calls
    /// `f` and parks the search again.
    pub fn with_grid_search<R>(
        &mut self,
        index: usize,
        f: impl FnOnce(&mut GridSearch<'_>) -> R,
    ) -> Result<R, WorldError> {
        let owner = match self.member(index)? {
            Member::GridSearch { owner, .. } => *owner,
            other => {
                return Err(WorldError::wrong_type(
                    index,
                    other.member_type(),
                    MEMBER_GRID_SEARCH,
                ))
            }
        };
        let (roots, rest) = self.members.split_at_mut(index);
        let (grid, options, parked) = match (&roots[owner], &mut rest[0]) {
            (
                Member::Grid(grid),
                Member::GridSearch {
                    options, parked, ..
                },
            ) => (grid, options, parked),
            _ => unreachable_type(),
        };
        let mut search = GridSearch::new(grid, options.clone()).map_err(WorldError::build)?;
        if let Parked::Saved(bytes) = parked {
            search.restore_state(bytes).map_err(|e| {
                WorldError::member(index, MEMBER_GRID_SEARCH, e.class(), e.offset())
            })?;
        }
        let result = f(&mut search);
        *parked = Parked::Saved(search.save_state());
        Ok(result)
    }

    /// [WORLD.PARKED] Builds the graph search over its owner's compiled graph, restores the
    /// parked bytes, calls `f` and parks the search again.
    pub fn with_graph_search<R>(
        &mut self,
        index: usize,
        f: impl FnOnce(&mut WorldGraphSearch<'_>) -> R,
    ) -> Result<R, WorldError> {
        let owner = match self.member(index)? {
            Member::GraphSearch { owner, .. } => *owner,
            other => {
                return Err(WorldError::wrong_type(
                    index,
                    other.member_type(),
                    MEMBER_GRAPH_SEARCH,
                ))
            }
        };
        let (roots, rest) = self.members.split_at_mut(index);
        let (graph, parked) = match (&roots[owner], &mut rest[0]) {
            (Member::Graph(graph), Member::GraphSearch { parked, .. }) => (graph, parked),
            _ => unreachable_type(),
        };
        let mut search = GraphAStar::new(graph.compile(), DefaultGraphCost, ZeroGraphHeuristic);
        if let Parked::Saved(bytes) = parked {
            search.restore_state(bytes).map_err(|e| {
                WorldError::member(index, MEMBER_GRAPH_SEARCH, e.class(), e.offset())
            })?;
        }
        let result = f(&mut search);
        *parked = Parked::Saved(search.save_state());
        Ok(result)
    }

    /// [WORLD.SAVE] [WORLD.HEADER] [WORLD.MEMBER] The container.
    pub fn save_state(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC.to_le_bytes());
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.members.len() as i32).to_le_bytes());
        for (i, m) in self.members.iter().enumerate() {
            let bytes = self.member_state(i).unwrap_or_default();
            out.extend_from_slice(&m.member_type().to_le_bytes());
            out.extend_from_slice(&m.owner().to_le_bytes());
            out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
            out.extend_from_slice(&bytes);
        }
        out
    }

    /// [WORLD.SAVE] The container into `out` (cleared first).
    pub fn save_state_into(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(&self.save_state());
    }

    /// [WORLD.READ] [WORLD.STAGE] [WORLD.ATOMIC] [WORLD.COMMIT] Restores the container:
    /// everything is read and validated before any member changes.
    pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), WorldError> {
        let spans = self.read_container(bytes)?;
        self.stage(bytes, &spans)?;
        self.commit(bytes, &spans)
    }

    /// [WORLD.READ] The byte range of each member's bytes.
    fn read_container(&self, bytes: &[u8]) -> Result<Vec<(usize, usize)>, WorldError> {
        let len = bytes.len();
        let magic = read_u32(bytes, 0).ok_or_else(|| WorldError::format("truncated", len))?;
        if magic != MAGIC {
            return Err(WorldError::format("bad_magic", 0));
        }
        let version = read_u16(bytes, 4).ok_or_else(|| WorldError::format("truncated", len))?;
        if version != VERSION {
            return Err(WorldError::format("unsupported_version", 4));
        }
        let count = read_i32(bytes, 6).ok_or_else(|| WorldError::format("truncated", len))?;
        if count < 0 || count as usize != self.members.len() {
            return Err(WorldError::format("shape_mismatch", 6));
        }
        let mut spans = Vec::new();
        let mut at = 10;
        for m in &self.members {
            if len - at < 10 {
                return Err(WorldError::format("truncated", len));
            }
            if read_u16(bytes, at) != Some(m.member_type()) {
                return Err(WorldError::format("shape_mismatch", at));
            }
            if read_i32(bytes, at + 2) != Some(m.owner()) {
                return Err(WorldError::format("shape_mismatch", at + 2));
            }
            let length = read_u32(bytes, at + 6).unwrap_or(u32::MAX) as usize;
            let start = at + 10;
            if length > len - start {
                return Err(WorldError::format("truncated", len));
            }
            spans.push((start, start + length));
            at = start + length;
        }
        if at < len {
            return Err(WorldError::format("trailing_bytes", at));
        }
        Ok(spans)
    }

    /// [WORLD.STAGE] Restores every member's bytes into a scratch copy: roots first, then the
    /// dependents over their owners' scratch roots.
    fn stage(&self, bytes: &[u8], spans: &[(usize, usize)]) -> Result<(), WorldError> {
        let mut scratch_grids: Vec<Option<Grid>> = Vec::new();
        let mut scratch_graphs: Vec<Option<Graph>> = Vec::new();
        for (i, m) in self.members.iter().enumerate() {
            let (s, e) = spans[i];
            let own = &bytes[s..e];
            let mut grid_slot = None;
            let mut graph_slot = None;
            match m {
                Member::Grid(live) => {
                    let mut g = Grid::new(live.width(), live.height())
                        .map_err(|_| WorldError::internal())?;
                    g.restore_state(own).map_err(|err| {
                        WorldError::member(i, MEMBER_GRID, err.class(), s + err.offset())
                    })?;
                    grid_slot = Some(g);
                }
                Member::Graph(live) => {
                    let mut g = Graph::new(0).map_err(|_| WorldError::internal())?;
                    g.restore_state(own).map_err(|err| {
                        WorldError::member(i, MEMBER_GRAPH, err.class(), s + err.offset())
                    })?;
                    // [WORLD.STAGE.GRAPH_BOUND] A graph that a search member is staged over
                    // (compiled, and a search sized by its node count) names at most as many
                    // nodes as the live graph has or the container has bytes.
                    let searched = self
                        .members
                        .iter()
                        .any(|m| matches!(m, Member::GraphSearch { owner, .. } if *owner == i));
                    if searched && g.node_count() > live.node_count().max(bytes.len()) {
                        return Err(WorldError::member(
                            i,
                            MEMBER_GRAPH,
                            "count_out_of_range",
                            s + 8, // [STATE.GRAPH] node_count follows the 8-byte state header
                        ));
                    }
                    graph_slot = Some(g);
                }
                _ => {}
            }
            scratch_grids.push(grid_slot);
            scratch_graphs.push(graph_slot);
        }
        for (i, m) in self.members.iter().enumerate() {
            let (s, e) = spans[i];
            let own = &bytes[s..e];
            let at = |class: &'static str, offset: usize| {
                WorldError::member(i, m.member_type(), class, s + offset)
            };
            match m {
                Member::Grid(_) | Member::Graph(_) => {}
                Member::Replanner {
                    owner,
                    options,
                    mode,
                    start,
                    goal,
                    ..
                } => {
                    let grid = scratch_grids[*owner]
                        .as_mut()
                        .ok_or_else(WorldError::internal)?;
                    let mut r = GridReplanner::new(grid, options.clone(), *mode, *start, *goal)
                        .map_err(|_| WorldError::internal())?;
                    r.restore_state(grid, own)
                        .map_err(|err| at(err.class(), err.offset()))?;
                }
                Member::FlowField {
                    owner,
                    options,
                    goals,
                    ..
                } => {
                    let grid = scratch_grids[*owner]
                        .as_mut()
                        .ok_or_else(WorldError::internal)?;
                    let mut f = GridFlowField::new(grid, options.clone(), goals)
                        .map_err(|_| WorldError::internal())?;
                    f.restore_state(grid, own)
                        .map_err(|err| at(err.class(), err.offset()))?;
                }
                Member::GridSearch { owner, options, .. } => {
                    let grid = scratch_grids[*owner]
                        .as_ref()
                        .ok_or_else(WorldError::internal)?;
                    let mut search = GridSearch::new(grid, options.clone())
                        .map_err(|_| WorldError::internal())?;
                    search
                        .restore_state(own)
                        .map_err(|err| at(err.class(), err.offset()))?;
                }
                Member::GraphSearch { owner, .. } => {
                    let graph = scratch_graphs[*owner]
                        .as_ref()
                        .ok_or_else(WorldError::internal)?;
                    let mut search =
                        GraphAStar::new(graph.compile(), DefaultGraphCost, ZeroGraphHeuristic);
                    search
                        .restore_state(own)
                        .map_err(|err| at(err.class(), err.offset()))?;
                }
            }
        }
        Ok(())
    }

    /// [WORLD.COMMIT] Roots in index order, then replanners and flow fields over their
    /// restored owners, then the parked bytes.
    fn commit(&mut self, bytes: &[u8], spans: &[(usize, usize)]) -> Result<(), WorldError> {
        for (i, m) in self.members.iter_mut().enumerate() {
            let own = &bytes[spans[i].0..spans[i].1];
            match m {
                Member::Grid(g) => g.restore_state(own).map_err(|_| WorldError::internal())?,
                Member::Graph(g) => g.restore_state(own).map_err(|_| WorldError::internal())?,
                _ => {}
            }
        }
        for i in 0..self.members.len() {
            let own = &bytes[spans[i].0..spans[i].1];
            let (roots, rest) = self.members.split_at_mut(i);
            match &mut rest[0] {
                Member::Replanner {
                    owner, replanner, ..
                } => match &roots[*owner] {
                    Member::Grid(grid) => replanner
                        .restore_state(grid, own)
                        .map_err(|_| WorldError::internal())?,
                    _ => return Err(WorldError::internal()),
                },
                Member::FlowField { owner, field, .. } => match &roots[*owner] {
                    Member::Grid(grid) => field
                        .restore_state(grid, own)
                        .map_err(|_| WorldError::internal())?,
                    _ => return Err(WorldError::internal()),
                },
                _ => {}
            }
        }
        for (i, m) in self.members.iter_mut().enumerate() {
            if let Member::GridSearch { parked, .. } | Member::GraphSearch { parked, .. } = m {
                *parked = Parked::Saved(bytes[spans[i].0..spans[i].1].to_vec());
            }
        }
        Ok(())
    }

    fn member(&self, index: usize) -> Result<&Member, WorldError> {
        self.members.get(index).ok_or(WorldError::unknown(index))
    }

    fn grid_member(&self, index: usize) -> Result<&Grid, WorldError> {
        match self.member(index)? {
            Member::Grid(g) => Ok(g),
            other => Err(WorldError::wrong_type(
                index,
                other.member_type(),
                MEMBER_GRID,
            )),
        }
    }

    fn grid_member_mut(&mut self, index: usize) -> Result<&mut Grid, WorldError> {
        self.grid_member(index)?;
        match &mut self.members[index] {
            Member::Grid(g) => Ok(g),
            _ => unreachable_type(),
        }
    }

    /// [WORLD.PARKED.EDIT] Resets every parked search over `root`, in member order.
    fn reset_parked_over(&mut self, root: usize) {
        for m in &mut self.members {
            match m {
                Member::GridSearch { owner, parked, .. }
                | Member::GraphSearch { owner, parked }
                    if *owner == root =>
                {
                    *parked = Parked::NotBegun;
                }
                _ => {}
            }
        }
    }
}

/// [WORLD.PARKED] The bytes of a graph search over `graph` that has not begun.
fn fresh_graph_search_bytes(graph: &Graph) -> Vec<u8> {
    GraphAStar::new(graph.compile(), DefaultGraphCost, ZeroGraphHeuristic).save_state()
}

/// The member types were checked just before; this arm is never taken.
fn unreachable_type<T>() -> T {
    unreachable!("member type checked before")
}

fn read_u16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn read_u32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn read_i32(b: &[u8], at: usize) -> Option<i32> {
    Some(i32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}
