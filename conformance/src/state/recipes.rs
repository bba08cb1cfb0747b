//! The fixed list of golden state vectors ([CONF.STATE.IDS]): each id names one recipe (and, for
//! states no history can produce, one byte patch of the recipe's bytes). Ids are never renumbered
//! or reused; a new vector takes the next number of its kind.

use super::layout::walk;
use super::{GraphRecipe, HeuristicName, StateKind, StateRecipe};
use crate::prng::SplitMix64;

/// A splice `(offset, bytes removed, bytes inserted)` applied to a byte string.
pub type Splice = (usize, usize, Vec<u8>);

/// Applies splices in order.
pub fn apply(bytes: &[u8], edits: &[Splice]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for (at, del, ins) in edits {
        let at = (*at).min(out.len());
        let end = at.saturating_add(*del).min(out.len());
        out.splice(at..end, ins.iter().copied());
    }
    out
}

/// A patch function: the splices that turn a recipe's bytes into the vector's.
pub type Patch = fn(&[u8]) -> Vec<Splice>;

/// One golden vector's definition.
#[derive(Clone, Debug)]
pub struct Golden {
    /// `STATE-<KIND>-NNNN`.
    pub id: String,
    /// What it exercises.
    pub comment: &'static str,
    /// How to build the object.
    pub recipe: StateRecipe,
    /// A patch of the recipe's bytes (states no history produces, e.g. padding bytes).
    pub patch: Option<Patch>,
}

/// A deterministic directed graph recipe for searches: `n` nodes, about `3n` edges with integer
/// weights 0..9 (zeros make equal-g parents possible), a few fractional reweights and removals.
pub fn search_graph(seed: u64, n: u32) -> GraphRecipe {
    let mut r = SplitMix64::new(seed);
    let mut edges = Vec::new();
    // A spine so that most nodes are reachable, then random edges.
    for v in 1..n {
        let u = r.below(v as u64) as u32;
        edges.push((u, v, r.below(10) as f64));
    }
    for _ in 0..2 * n {
        edges.push((
            r.below(n as u64) as u32,
            r.below(n as u64) as u32,
            r.below(10) as f64,
        ));
    }
    let m = edges.len() as u64;
    let reweights = (0..3)
        .map(|_| (r.below(m) as u32, r.below(40) as f64 / 4.0))
        .collect();
    let mut removals: Vec<u32> = (0..4).map(|_| r.below(m) as u32).collect();
    removals.sort_unstable();
    removals.dedup();
    GraphRecipe {
        node_count: n as u64,
        added_nodes: 0,
        edges,
        reweights,
        removals,
    }
}

fn grid(
    width: u32,
    height: u32,
    space: Option<[f64; 3]>,
    area_multipliers: Vec<(u8, f64)>,
    edits: Vec<(u32, u32, u8)>,
) -> StateRecipe {
    StateRecipe::Grid {
        width,
        height,
        space,
        area_multipliers,
        edits,
    }
}

fn pattern(width: u32, height: u32, seed: u64, count: usize) -> Vec<(u32, u32, u8)> {
    let mut r = SplitMix64::new(seed);
    (0..count)
        .map(|_| {
            let a = match r.below(4) {
                0 => 255,
                1 => 0,
                _ => r.below(255) as u8,
            };
            (
                r.below(width as u64) as u32,
                r.below(height as u64) as u32,
                a,
            )
        })
        .collect()
}

/// [GRID.VOXEL.PADDING] Sets three padding bytes of the first allocated chunk to 7, 255 and 1.
fn voxel_padding(bytes: &[u8]) -> Vec<Splice> {
    let l = walk(StateKind::VoxelGrid, bytes);
    let sx = i32::from_le_bytes(bytes[8..12].try_into().expect("size_x")) as usize;
    let (_, body) = l.chunks[0];
    // Local x >= size_x % 16 lies past the edge in the first chunk column when size_x < 16.
    let x = sx % 16;
    assert!(sx < 16 && x > 0, "padding patch needs size_x < 16");
    vec![
        (body + x, 1, vec![7]),
        (body + (15 | 3 << 4), 1, vec![255]),
        (body + (x | 1 << 8), 1, vec![1]),
    ]
}

fn search(
    graph: GraphRecipe,
    heuristic: HeuristicName,
    record: bool,
    q: Option<(u32, u32)>,
    steps: Vec<u64>,
    run: bool,
) -> StateRecipe {
    StateRecipe::GraphAstar {
        graph,
        heuristic,
        record,
        start: q.map(|q| q.0),
        goal: q.map(|q| q.1),
        steps,
        run,
    }
}

/// A grid-search recipe over a generated map ([CONF.STATE.GRID_SEARCH]): walls of
/// `generate_map(kind, width, height, seed)` as edits, areas on every seventh open cell when
/// `areas` (multipliers 0.5, 2.0, 3.25 for areas 1..3).
#[allow(clippy::too_many_arguments)]
fn grid_search(
    map: (crate::movingai::MapKind, u32, u32, u64),
    areas: bool,
    search: crate::grid::GridApi,
    options: crate::grid::GridOptionsData,
    q: Option<((u32, u32), (u32, u32))>,
    steps: Vec<u64>,
    run: bool,
) -> StateRecipe {
    let (kind, width, height, seed) = map;
    let m = crate::movingai::generate_map(kind, width as usize, height as usize, seed);
    let mut edits = Vec::new();
    let mut k = 0u32;
    for y in 0..height {
        for x in 0..width {
            if !m.passable(i64::from(x), i64::from(y)) {
                edits.push((x, y, 255));
            } else if areas {
                k += 1;
                if k % 7 == 0 {
                    edits.push((x, y, (1 + k / 7 % 3) as u8));
                }
            }
        }
    }
    StateRecipe::GridSearch {
        width,
        height,
        space: None,
        area_multipliers: if areas {
            vec![(1, 0.5), (2, 2.0), (3, 3.25)]
        } else {
            vec![]
        },
        edits,
        search,
        options,
        start: q.map(|q| q.0),
        goal: q.map(|q| q.1),
        steps,
        run,
    }
}

/// The grid-search goldens of kinds 8, 9, 10 and 12 ([CONF.STATE.GRID_SEARCH]).
fn grid_search_goldens(push: &mut dyn FnMut(StateKind, &'static str, StateRecipe, Option<Patch>)) {
    use crate::grid::{GridApi, GridOptionsData};
    use crate::movingai::MapKind;
    let rooms = (MapKind::Rooms { room_size: 3 }, 13, 11, 7);
    let open = (
        MapKind::Scattered {
            count: 6,
            max_side: 3,
        },
        16,
        12,
        11,
    );
    let o = |algorithm: u8| GridOptionsData {
        algorithm,
        ..GridOptionsData::default()
    };
    let q = Some(((1, 1), (11, 9)));
    let qo = Some(((0, 0), (15, 11)));
    // A goal cut off by walls: the bottom-right room of `rooms` sealed by extra walls is not
    // expressible through `grid_search`, so NotFound uses a goal that is a wall-free cell the
    // blocked hook closes off (handle mode 2) or an agent that does not fit (mode 1, agent 2).
    push(
        StateKind::AStar,
        "AStar (kind 8) NotStarted: new, no begin.",
        grid_search(rooms, false, GridApi::AStar, o(0), None, vec![], false),
        None,
    );
    push(
        StateKind::AStar,
        "AStar mid-run after step(5), weight 1.5, area multipliers.",
        grid_search(
            rooms,
            true,
            GridApi::AStar,
            GridOptionsData {
                weight: 1.5,
                ..o(0)
            },
            q,
            vec![5],
            false,
        ),
        None,
    );
    push(
        StateKind::AStar,
        "AStar Found on a grid with area multipliers (0.5, 2, 3.25).",
        grid_search(rooms, true, GridApi::AStar, o(0), q, vec![], true),
        None,
    );
    push(StateKind::AStar, "AStar (Dijkstra) NotFound: the blocked hook closes every cell with index % 3 == 1, cutting the goal off.", grid_search(rooms, false, GridApi::AStar, GridOptionsData { blocked: Some(crate::grid::CellBlockRule { modulus: 3, residue: 1 }), ..o(1) }, Some(((1, 1), (5, 5))), vec![], true), None);
    push(
        StateKind::JumpSearch,
        "JumpSearch (kind 9) NotStarted.",
        grid_search(open, false, GridApi::Jump, o(2), None, vec![], false),
        None,
    );
    push(
        StateKind::JumpSearch,
        "JumpSearch mid-run after step(3).",
        grid_search(open, false, GridApi::Jump, o(2), qo, vec![3], false),
        None,
    );
    push(
        StateKind::JumpSearch,
        "JumpSearch Found.",
        grid_search(rooms, false, GridApi::Jump, o(3), q, vec![], true),
        None,
    );
    push(
        StateKind::ThetaSearch,
        "ThetaSearch (kind 10) NotStarted.",
        grid_search(open, false, GridApi::Theta, o(4), None, vec![], false),
        None,
    );
    push(
        StateKind::ThetaSearch,
        "Theta* mid-run after step(6).",
        grid_search(open, false, GridApi::Theta, o(4), qo, vec![6], false),
        None,
    );
    push(
        StateKind::ThetaSearch,
        "Lazy Theta* Found, 4-connected moves.",
        grid_search(
            rooms,
            false,
            GridApi::Theta,
            GridOptionsData {
                connectivity: 4,
                ..o(5)
            },
            q,
            vec![],
            true,
        ),
        None,
    );
    push(
        StateKind::GridSearch,
        "GridSearch mode 0: created, never begun.",
        grid_search(rooms, false, GridApi::Handle, o(0), None, vec![], false),
        None,
    );
    push(
        StateKind::GridSearch,
        "Mode 1 (specialised A*) mid-run after step(6). Each visited cell saves its exact cost pair and closed flag, the start (0, 0) [GS.SA.PAIRS], and the direction from the cell to its parent in the code of [GS.SA.DIRECTION] (any other code saves other bytes); restored, the open list rebuilt from the visited cells pops in the order of [GS.SA.ORDER], so the run ends as the uninterrupted one. Its hostile file: a zeroEstimate of 1 is engine_mismatch and a visited cell moved onto a wall is not_walkable, the two classes of [GS.STATE.CLASSES].",
        grid_search(rooms, false, GridApi::Handle, o(0), q, vec![6], false),
        None,
    );
    push(
        StateKind::GridSearch,
        "Mode 1 Dijkstra (zeroEstimate 1) Found.",
        grid_search(rooms, false, GridApi::Handle, o(1), q, vec![], true),
        None,
    );
    push(
        StateKind::GridSearch,
        "Mode 1 NotFound: agent size 2 cannot pass the one-cell doors.",
        grid_search(
            rooms,
            false,
            GridApi::Handle,
            GridOptionsData {
                agent_size: 2,
                ..o(0)
            },
            Some(((1, 1), (9, 9))),
            vec![],
            true,
        ),
        None,
    );
    push(
        StateKind::GridSearch,
        "Mode 2 with an embedded AStar (area multipliers) mid-run after step(4).",
        grid_search(rooms, true, GridApi::Handle, o(0), q, vec![4], false),
        None,
    );
    push(
        StateKind::GridSearch,
        "Mode 2 with an embedded JumpSearch (a blocked hook) after step(2).",
        grid_search(
            open,
            false,
            GridApi::Handle,
            GridOptionsData {
                blocked: Some(crate::grid::CellBlockRule {
                    modulus: 97,
                    residue: 40,
                }),
                ..o(2)
            },
            qo,
            vec![2],
            false,
        ),
        None,
    );
    // A 20 % random map where JPS reaches cells twice: after step(3), step(7) the open list holds
    // entries of cells that have since been closed (stale, [GS.SJ.SETTLE]).
    let random = (MapKind::Random { density: 0.2 }, 16, 12, 5);
    let qr = Some(((2, 5), (13, 6)));
    push(StateKind::GridSearch, "Mode 3 finder 0 (JPS block scans) mid-run after step(3), step(7): the heap holds two stale entries (cells closed since they were pushed), saved as they lie. Each visited cell saves its pair, parent, direction of the last move into it and closed flag [GS.SJ.CELLS] (a cell that kept another parent or direction saves other bytes).", grid_search(random, false, GridApi::Handle, o(2), qr, vec![3, 7], false), None);
    push(StateKind::GridSearch, "Mode 3 finder 1 (JPS+ tables) mid-run after step(10): the same search as the previous vector through the tables, with the same stale entries. The tables give exactly the jump points of the block scans, the finder shows only in the saved finder byte [GS.JUMP.TABLES]: a table that stopped elsewhere saves other visited cells.", grid_search(random, false, GridApi::Handle, o(3), qr, vec![10], false), None);
    push(
        StateKind::GridSearch,
        "Mode 3 finder 1 Found.",
        grid_search(rooms, false, GridApi::Handle, o(3), q, vec![], true),
        None,
    );
    let mut sealed = grid_search(open, false, GridApi::Handle, o(2), qo, vec![], true);
    if let StateRecipe::GridSearch { edits, .. } = &mut sealed {
        edits.extend([(14, 11, 255), (14, 10, 255), (15, 10, 255)]);
    }
    push(StateKind::GridSearch, "Mode 3 finder 0 NotFound: three walls seal the goal corner (15, 11); the search ran out of cells. On its way it met entries of cells closed since they were pushed: settling dropped them without counting them [GS.SJ.SETTLE], so expanded and iterations count live pops only (a search that popped them as iterations saves larger counters).", sealed, None);
    // A 10 % random map where, after step(6), the open list of the JPS search holds a stack of two
    // cells (bottom 53, top 99) and eight heap entries. Both depend on the successor order after a
    // diagonal arrival: each of the five other orders of `(dx, 0)`, `(0, dy)`, `(dx, dy)` saves
    // other bytes (a straight before the diagonal changes the stack, the two straights swapped
    // the heap layout).
    let sparse = (MapKind::Random { density: 0.1 }, 16, 12, 9);
    let qs = Some(((11, 0), (1, 6)));
    push(StateKind::GridSearch, "Mode 3 finder 0 (JPS block scans) mid-run after step(6) with a non-empty stack: two cells of the current level, saved bottom first (53, then the top 99, the next to pop) [GS.STATE.MODE3]; the stack and the heap array depend on the successor order after a diagonal arrival, (dx, 0), (0, dy), (dx, dy) [GS.JUMP.SUCCESSORS]: each of the five other orders saves other bytes.", grid_search(sparse, false, GridApi::Handle, o(2), qs, vec![6], false), None);
    push(StateKind::GridSearch, "Mode 3 finder 1 (JPS+ tables) mid-run after step(2), step(4): the state of the previous vector through the tables, the same two stack cells bottom first [GS.STATE.MODE3] and the same dependence on the successor order after a diagonal arrival [GS.JUMP.SUCCESSORS].", grid_search(sparse, false, GridApi::Handle, o(3), qs, vec![2, 4], false), None);
    // JumpSearch keeps one heap entry per cell with a total order, so the successor order shows
    // only in the heap's array layout.
    push(StateKind::JumpSearch, "JumpSearch mid-run after step(6) on the 20 % random map, start (14, 11), goal (5, 3): the heap array layout depends on the successor order after a diagonal arrival, (dx, 0), (0, dy), (dx, dy) [GS.JUMP.SUCCESSORS] [STATE.HEAP.PUSH]: each of the five other orders saves other bytes.", grid_search(random, false, GridApi::Jump, o(2), Some(((14, 11), (5, 3))), vec![6], false), None);
    push(
        StateKind::ThetaSearch,
        "Theta* just begun, weight 1.5, start (0, 0), goal (15, 11): begin validates and resets as every engine, gives the start g 0 and no parent and pushes (start, euclid(start, goal) * 1.5, 0) onto the heap, its only slot, with no iteration [GS.THETA.BEGIN] (a begin that left out the weight, or pushed f = 0, saves another f; one that did not push the start, another heap count).",
        grid_search(
            open,
            false,
            GridApi::Theta,
            GridOptionsData {
                weight: 1.5,
                ..o(4)
            },
            qo,
            vec![],
            false,
        ),
        None,
    );
}

/// Every golden vector, in id order per kind.
pub fn goldens() -> Vec<Golden> {
    let mut out = Vec::new();
    let mut push =
        |kind: StateKind, comment: &'static str, recipe: StateRecipe, patch: Option<Patch>| {
            let n = out
                .iter()
                .filter(|g: &&Golden| g.recipe.kind() == kind)
                .count()
                + 1;
            out.push(Golden {
                id: format!("STATE-{}-{n:04}", kind.tag()),
                comment,
                recipe,
                patch,
            });
        };
    use StateKind::*;
    push(
        Grid,
        "A new 4x3 grid: version 0, unassigned space, every multiplier 1.0, every cell area 0 [GRID.CELL.DEFAULT] (a grid whose new cells held another area saves other cell bytes).",
        grid(4, 3, None, vec![], vec![]),
        None,
    );
    push(Grid, "A 16x9 grid after 60 edits (walls, area 0 rewrites that are no edit, random areas): version counts only changing edits. Every field is little-endian [STATE.LE] (a big-endian width, height or version saves other bytes). Restored into the new 16x9 target (version 0, every cell 0) the grid holds the saved cells and version and saves the bytes back, as from_state then save does [STATE.API] [STATE.STABLE] [STATE.GRID.RESTORE] [GRID.VERSION.RESTORE] (a restore that kept the target's version 0 saves other bytes); the listener sees each differing cell once, ascending, as (index, old, new), and the reverse restore each edited cell going back to 0 [GRID.LISTEN.RESTORE]. Its hostile file: each fault fails with the class and offset of [STATE.ERRORS], named from [STATE.CLASSES] (truncated at the input length, bad_magic, unsupported_version, wrong_kind, size_mismatch, out_of_range, nan in every space and multiplier field [STATE.NAN], trailing_bytes at the first extra byte [STATE.TRAILING]), and after each failure the grid saves its earlier bytes and no listener was called [STATE.ATOMIC].", grid(16, 9, None, vec![], pattern(16, 9, 0x5747_0002, 60)), None);
    push(
        Grid,
        "Non-default space and multipliers: origin (-12.5, 40.25), cell size 0.5; five multiplier calls (area version 5, area 1 set twice), edits. The grid keeps its GridSpace (origin_x, origin_y, cell_size) and saves it [GRID.SPACE.FIELDS]: a grid that dropped or mixed up a field saves other bytes.",
        grid(7, 5, Some([-12.5, 40.25, 0.5]), vec![(1, 2.5), (7, 0.125), (254, 1e6), (1, 3.0), (0, 1.0)], pattern(7, 5, 0x5747_0003, 20)),
        None,
    );
    push(
        Grid,
        "A 1x1 grid holding a wall, space at the range limits (|origin| = 2^21, cell size 2^21).",
        grid(
            1,
            1,
            Some([-2_097_152.0, 2_097_152.0, 2_097_152.0]),
            vec![(254, 0.001)],
            vec![(0, 0, 255)],
        ),
        None,
    );
    let hex = |width, height, layout, space, area_multipliers, edits| StateRecipe::HexGrid {
        width,
        height,
        layout,
        space,
        area_multipliers,
        edits,
    };
    push(
        HexGrid,
        "A new 5x4 odd-r hex grid.",
        hex(5, 4, 0, None, vec![], vec![]),
        None,
    );
    push(
        HexGrid,
        "A 7x6 even-q hex grid with space, multipliers and edits.",
        hex(
            7,
            6,
            3,
            Some([3.0, -4.0, 1.5]),
            vec![(3, 4.5), (200, 0.75)],
            pattern(7, 6, 0x4845_0002, 25),
        ),
        None,
    );
    push(
        HexGrid,
        "A 3x8 even-r hex grid with edits. Its cells are row-major, index y * width + x, as a square grid's [GRID.HEX.SIZE] (a 3x8 grid stored column-major saves its edits at other bytes); its hostile file's sizes past 2^26 cells (8192 x 8193, 8192 x 16384) are out_of_range at the height for from_state, and 8192 x 8192 passes the size check and is truncated.",
        hex(3, 8, 1, None, vec![], pattern(3, 8, 0x4845_0003, 12)),
        None,
    );
    push(
        HexGrid,
        "A 9x2 odd-q hex grid with one multiplier change.",
        hex(9, 2, 2, None, vec![(9, 9.0)], pattern(9, 2, 0x4845_0004, 5)),
        None,
    );
    let voxel = |size, default_area, space, area_multipliers, edits| StateRecipe::VoxelGrid {
        size,
        default_area,
        space,
        area_multipliers,
        edits,
    };
    push(
        VoxelGrid,
        "A new 4x4x4 voxel grid: one chunk, unallocated.",
        voxel([4, 4, 4], 0, None, vec![], vec![]),
        None,
    );
    push(
        VoxelGrid,
        "A 20x18x5 grid (2x2x1 chunks, default area 3): edits allocate 2 chunks sparsely; a rewrite of the default value allocates nothing [GRID.VOXEL.ALLOC]: an allocated chunk saves its 4096 bytes with every voxel not edited at the default area 3, an unallocated one only its flag 0. Voxels of unallocated chunks read as the default area [GRID.VOXEL.DEFAULT]: the restore into the new target and the reverse restore report each edited voxel with the default as its old or new value, so a grid that read them otherwise reports other listener calls.",
        voxel([20, 18, 5], 3, None, vec![], vec![(1, 2, 3, 9), (19, 17, 4, 255), (18, 1, 0, 3), (0, 0, 0, 0), (17, 17, 4, 3)]),
        None,
    );
    push(
        VoxelGrid,
        "A 5x20x3 grid whose first chunk has non-default padding bytes (set by patching the saved bytes; edits cannot reach padding). A restore and from_state keep the padding bytes and save them back [GRID.VOXEL.PADDING]: a grid that reset padding to the default area saves other bytes.",
        voxel([5, 20, 3], 2, None, vec![], vec![(4, 2, 2, 8), (0, 19, 0, 1)]),
        Some(voxel_padding),
    );
    push(
        VoxelGrid,
        "A 33x2x17 all-solid grid (default 255; 3x1x2 chunks) with space, multipliers and edits in two chunks. The grid keeps its VoxelSpace (origin_x, origin_y, origin_z, cell_size) and saves it [GRID.SPACE.FIELDS].",
        voxel([33, 2, 17], 255, Some([-1.0, 2.0, -3.0, 0.25]), vec![(4, 1.5), (4, 2.0), (100, 7.0)], vec![(32, 1, 16, 0), (0, 0, 0, 5), (32, 0, 0, 255)]),
        None,
    );
    let g =
        |node_count, added_nodes, edges: Vec<(u32, u32, f64)>, reweights, removals| GraphRecipe {
            node_count,
            added_nodes,
            edges,
            reweights,
            removals,
        };
    push(
        Graph,
        "The empty graph: 0 nodes, 0 edges.",
        StateRecipe::Graph(g(0, 0, vec![], vec![], vec![])),
        None,
    );
    push(
        Graph,
        "A graph naming 2^26 nodes and no edges ([STATE.BOUNDED]: nothing allocated per node).",
        StateRecipe::Graph(g(1 << 26, 0, vec![], vec![], vec![])),
        None,
    );
    push(
        Graph,
        "A 6-node graph grown by add_node, with removed edges (ids kept), reweights, a self-loop and parallel edges. Graph::new(4) then two add_node save node count 6 [GRAPH.MUT.NODES]; the removals (ids 2, 6) and reweights (ids 1, 7) land on the edges added 3rd, 7th, 2nd and 8th, as ids count the edges added before [GRAPH.MUT.EDGE_ID]. Restored into the one-node target with one edge, the graph takes the node count and the whole edge list, removed edges included with their ids, and saves the bytes back [STATE.GRAPH.RESTORE].",
        StateRecipe::Graph(g(4, 2, vec![(0, 1, 1.5), (1, 2, 2.0), (2, 3, 0.0), (3, 4, 7.25), (4, 5, 1.0), (0, 5, 10.0), (5, 5, 3.0), (1, 2, 2.0)], vec![(1, 4.5), (7, 0.125)], vec![2, 6])),
        None,
    );
    push(
        Graph,
        "Every edge removed.",
        StateRecipe::Graph(g(3, 0, vec![(0, 1, 1.0), (1, 2, 2.0)], vec![], vec![0, 1])),
        None,
    );
    push(
        Graph,
        "A 24-node random graph (the one the GraphAStar vectors search).",
        StateRecipe::Graph(search_graph(0x6A57_0001, 24)),
        None,
    );
    push(
        Graph,
        "Weights of -0.0, from add_edge and from set_weight: stored and saved as +0.0 ([GRAPH.VAL.NEG_ZERO]); a port that keeps the sign saves other bytes.",
        StateRecipe::Graph(g(3, 0, vec![(0, 1, -0.0), (1, 2, 2.5), (2, 0, 0.0)], vec![(1, -0.0)], vec![])),
        None,
    );
    let sg = search_graph(0x6A57_0001, 24);
    push(
        GraphAStar,
        "NotStarted: a new search, never begun (status byte 0, [GRAPH.ASTAR.STATUS]).",
        search(sg.clone(), HeuristicName::Zero, true, None, vec![], false),
        None,
    );
    push(
        GraphAStar,
        "Just begun: the start alone in the heap, no iteration (status byte 1, [GRAPH.ASTAR.STATUS]); with the zero estimate the start's entry has f = g = 0 [GRAPH.EST.ZERO].",
        search(
            sg.clone(),
            HeuristicName::Zero,
            true,
            Some((0, 17)),
            vec![],
            false,
        ),
        None,
    );
    push(
        GraphAStar,
        "Mid-run after step(3). Restored into a fresh search over the same graph and run to the end, it pops, counts, records and saves as the uninterrupted run [STATE.SEARCH.RESTORE]; the restoring search records, so the saved list is installed as it is and grows from there [STATE.SEARCH.RECORD] (a restore that dropped the saved list or stopped recording ends with another list). Its hostile file: a node count one larger or smaller and the weights 2 and -1 are size_mismatch, the search being restored into one created the same way [STATE.SAME_WAY]; after each failed restore the search saves the NotStarted bytes, with status NotStarted, counters 0 and no recorded list [STATE.SEARCH_FAILED].",
        search(
            sg.clone(),
            HeuristicName::Zero,
            true,
            Some((0, 17)),
            vec![3],
            false,
        ),
        None,
    );
    push(GraphAStar, "step(1), step(2), step(5) with the inconsistent mod5 estimate: the goal pops on iteration 2, so the state is Found and step(5) does nothing.", search(sg.clone(), HeuristicName::Mod5, true, Some((2, 21)), vec![1, 2, 5], false), None);
    push(
        GraphAStar,
        "Mid-run after step(12), recording off (recorded list empty, expanded > 0). The restoring search does not record either: recording is the search's setting, not state, so the restored run ends with an empty list as the uninterrupted one [STATE.SEARCH.RECORD] (a restore that switched recording on records the rest of the run).",
        search(
            sg.clone(),
            HeuristicName::Zero,
            false,
            Some((0, 23)),
            vec![12],
            false,
        ),
        None,
    );
    push(
        GraphAStar,
        "Found: run to the end (status byte 2, [GRAPH.ASTAR.STATUS]). The visited list holds exactly the reached nodes, each with its g, its parent (-1 for the start) and its closed flag, and no node the search never gave a g [GRAPH.ASTAR.BUFFERS]; with the zero estimate the search is Dijkstra: every open entry's f equals its g and the recorded nodes pop in nondecreasing g [GRAPH.EST.ZERO].",
        search(
            sg.clone(),
            HeuristicName::Zero,
            true,
            Some((0, 17)),
            vec![],
            true,
        ),
        None,
    );
    push(
        GraphAStar,
        "Found with the mod5 estimate after step(4) then run.",
        search(
            sg.clone(),
            HeuristicName::Mod5,
            true,
            Some((5, 11)),
            vec![4],
            true,
        ),
        None,
    );
    let mut island = sg.clone();
    island.added_nodes = 1; // node 24 has no edge: unreachable
    push(GraphAStar, "NotFound: the goal (an added node without edges) is unreachable; the search exhausted the open set (status byte 3, [GRAPH.ASTAR.STATUS]).", search(island, HeuristicName::Zero, true, Some((0, 24)), vec![], true), None);
    push(
        GraphAStar,
        "Found with start == goal after one iteration and no expansion.",
        search(
            sg.clone(),
            HeuristicName::Zero,
            true,
            Some((9, 9)),
            vec![],
            true,
        ),
        None,
    );
    push(
        GraphAStar,
        "Mid-run (Running) after step(1), step(2), step(4), step(5) with the mod5 estimate: an expanded node was reopened, so the recorded list names a visited node that is not closed.",
        search(sg, HeuristicName::Mod5, true, Some((2, 17)), vec![1, 2, 4, 5], false),
        None,
    );
    grid_search_goldens(&mut push);
    push(
        Grid,
        "A 4x3 grid whose space is set to (-0.0, 0.0, -0.0): every value zero, so the space is unassigned [GRID.SPACE.UNASSIGNED] and a cell size of -0.0 is accepted; saved with the signs as set, restored and saved back unchanged [STATE.SPACE].",
        grid(4, 3, Some([-0.0, 0.0, -0.0]), vec![], vec![(1, 1, 255), (2, 0, 7)]),
        None,
    );
    grid_search_mode1_edges(&mut push);
    replanner_goldens(&mut push);
    flow_field_goldens(&mut push);
    super::recipes_appended::all(&mut push);
    out
}

/// [CONF.STATE.FLOW_FIELD] The golden flow-field states (kind 7): not started, running a begun
/// run, complete, complete with pending cells, mid-repair with a touched list and an open set,
/// repeated creation goals, an agent of size 2, hex layouts.
fn flow_field_goldens(push: &mut dyn FnMut(StateKind, &'static str, StateRecipe, Option<Patch>)) {
    use crate::flow::cases::probes;
    use crate::flow::{FlowGrid, FlowRequest, FlowStep as S};
    use crate::grid::GridOptionsData;
    use crate::replan::cases::map;
    let req = |seed: u64,
               hex: Option<i32>,
               (w, h): (u32, u32),
               kind: u64,
               options: GridOptionsData,
               goals: Vec<(u32, u32)>,
               script: Vec<S>| {
        let mut rng = SplitMix64::new(seed);
        StateRecipe::FlowField {
            request: FlowRequest {
                grid: FlowGrid {
                    hex_layout: hex,
                    map: map(&mut rng, w, h, kind),
                },
                options,
                goals,
                script,
                probes: probes(w, h),
            },
        }
    };
    let o = GridOptionsData::default();
    let agent2 = GridOptionsData {
        agent_size: 2,
        connectivity: 4,
        ..GridOptionsData::default()
    };
    let f = StateKind::FlowField;
    push(f, "A flow field never stepped: status 0, no reached cell, no step, an empty open set [FLOW.STATE.SAVE] [FLOW.API.NEW]; its hostile file checks every field of [FLOW.STATE.HEADER_CHECKS] and [FLOW.STATE.SEARCH_CHECKS] that a not-started field has.", req(0x464C_0001, None, (9, 7), 0, o.clone(), vec![(0, 0), (8, 6)], vec![]), None);
    push(f, "A begun run stopped by a budget of 7: tentative costs, no steps yet, the open set as it lies [FLOW.RUN.LOOP] [FLOW.RUN.OPEN].", req(0x464C_0002, None, (10, 8), 1, o.clone(), vec![(2, 2), (7, 5)], vec![S::Step { budget: 7 }]), None);
    push(f, "A complete field on a rooms map with two goals: every reached cell, every step, an empty open set [FLOW.RUN.FINISH] [FLOW.DIR.RULE].", req(0x464C_0003, None, (12, 10), 2, o.clone(), vec![(0, 0), (11, 9)], vec![S::Step { budget: 0 }]), None);
    push(f, "A complete field with three pending cells (an area change, a wall, a wall removed), in order of first edit [FLOW.EDIT.LISTEN].", req(0x464C_0004, None, (10, 10), 0, o.clone(), vec![(5, 5)], vec![S::Step { budget: 0 }, S::SetCell { x: 3, y: 3, area: 2 }, S::SetCell { x: 6, y: 4, area: 255 }, S::SetCell { x: 3, y: 3, area: 1 }, S::SetCell { x: 6, y: 4, area: 0 }]), None);
    push(f, "Mid-repair: a wall line cut the field, a budget of 4 stopped the repair: the repairing flag, the touched list in order, re-seeded costs and the open set [FLOW.REPAIR.START] [FLOW.STATE.SEARCH]; its hostile file reaches the step, open-set and touched-list checks of [FLOW.STATE.SEARCH_CHECKS].", req(0x464C_0005, None, (12, 9), 0, o.clone(), vec![(0, 0), (11, 8)], vec![S::Step { budget: 0 }, S::SetCell { x: 4, y: 3, area: 255 }, S::SetCell { x: 5, y: 4, area: 255 }, S::SetCell { x: 6, y: 5, area: 255 }, S::Step { budget: 4 }]), None);
    push(f, "Repeated, unsorted creation goals (saved as given) and their goal set (sorted, distinct); agent size 2, connectivity 4 [FLOW.API.GOALS] [FLOW.STATE.HEADER].", req(0x464C_0006, None, (11, 9), 1, agent2, vec![(9, 7), (1, 1), (9, 7), (4, 6)], vec![S::Step { budget: 0 }, S::SetCell { x: 5, y: 4, area: 255 }, S::Step { budget: 0 }]), None);
    push(
        f,
        "Hex (odd-r) complete field with two pending cells [FLOW.MOVE] [GRID.HEX.OFFSETS].",
        req(
            0x464C_0007,
            Some(0),
            (9, 8),
            1,
            o.clone(),
            vec![(4, 4)],
            vec![
                S::Step { budget: 0 },
                S::SetCell {
                    x: 2,
                    y: 2,
                    area: 255,
                },
                S::SetCell {
                    x: 6,
                    y: 5,
                    area: 3,
                },
            ],
        ),
        None,
    );
    push(
        f,
        "Hex (even-q) mid-repair after a wall, stopped by a budget of 3 [FLOW.REPAIR.REGION].",
        req(
            0x464C_0008,
            Some(3),
            (10, 9),
            0,
            o,
            vec![(0, 0), (9, 8)],
            vec![
                S::Step { budget: 0 },
                S::SetCell {
                    x: 5,
                    y: 4,
                    area: 255,
                },
                S::Step { budget: 3 },
            ],
        ),
        None,
    );
}

/// [CONF.STATE.REPLANNER] The golden replanner states (kinds 5 and 6): uninitialised, planned
/// and complete, mid-replan with a queue, km shifted by start moves, pending entries of both
/// encodings, the overflow flag, an agent of size 2, hex layouts.
fn replanner_goldens(push: &mut dyn FnMut(StateKind, &'static str, StateRecipe, Option<Patch>)) {
    use crate::grid::GridOptionsData;
    use crate::replan::cases::map;
    use crate::replan::{ModeName, ReplanGrid, ReplanRequest, ReplanStep as S};
    let req = |seed: u64,
               hex: Option<i32>,
               (w, h): (u32, u32),
               kind: u64,
               options: GridOptionsData,
               mode: ModeName,
               ends: ((u32, u32), (u32, u32)),
               script: Vec<S>| {
        let mut rng = SplitMix64::new(seed);
        StateRecipe::Replanner {
            request: ReplanRequest {
                grid: ReplanGrid {
                    hex_layout: hex,
                    map: map(&mut rng, w, h, kind),
                },
                options,
                mode,
                start: ends.0,
                goal: ends.1,
                script,
            },
        }
    };
    let o = GridOptionsData::default();
    let dijkstra = GridOptionsData {
        algorithm: 1,
        ..GridOptionsData::default()
    };
    let agent2 = GridOptionsData {
        agent_size: 2,
        connectivity: 8,
        diagonal: 1,
        ..GridOptionsData::default()
    };
    use StateKind::{GridReplanner as G, HexReplanner as H};
    push(G, "LPA* never planned: uninitialised, so nothing follows last_expanded [REPLAN.STATE.SAVE] [REPLAN.INIT.STATE].", req(0x5250_0001, None, (9, 7), 0, o.clone(), ModeName::Lpa, ((0, 0), (8, 6)), vec![]), None);
    push(G, "LPA* after a complete replan on a rooms map: planned cells with g and rhs, the queue left as it lies [REPLAN.COMPUTE.STOP].", req(0x5250_0002, None, (12, 10), 2, o.clone(), ModeName::Lpa, ((0, 0), (11, 9)), vec![S::Replan { budget: 0 }]), None);
    push(G, "D* Lite stopped mid-replan by a budget of 9, then three edits (an area change: a plain entry; wall toggles: complemented entries) pending [REPLAN.EDIT.LISTEN].", req(0x5250_0003, None, (12, 10), 1, o.clone(), ModeName::DStarLite, ((1, 1), (10, 8)), vec![S::Replan { budget: 0 }, S::SetCell { x: 5, y: 4, area: 2 }, S::Replan { budget: 9 }, S::SetCell { x: 6, y: 5, area: 255 }, S::SetCell { x: 3, y: 3, area: 3 }, S::SetCell { x: 6, y: 5, area: 0 }]), None);
    push(G, "D* Lite after two start moves and replans: km is the sum of the two estimates, a non-zero, non-integer value [REPLAN.RUN.SET_START].", req(0x5250_0004, None, (10, 10), 0, o.clone(), ModeName::DStarLite, ((0, 0), (9, 9)), vec![S::Replan { budget: 0 }, S::SetStart { x: 1, y: 1 }, S::SetCell { x: 4, y: 4, area: 255 }, S::Replan { budget: 0 }, S::SetStart { x: 2, y: 1 }, S::Replan { budget: 4 }]), None);
    let mut overflow = vec![S::Replan { budget: 0 }];
    for k in 0..70u32 {
        overflow.push(S::SetCell {
            x: 1 + k % 3,
            y: 2,
            area: ((k / 3) % 2 + 1) as u8,
        });
    }
    push(G, "D* Lite whose pending list overflowed (L = 64 + 80/16 = 69, 70 edits): overflow set, no entries [REPLAN.EDIT.LIMIT].", req(0x5250_0005, None, (10, 8), 0, o.clone(), ModeName::DStarLite, ((0, 0), (9, 7)), overflow), None);
    push(G, "D* Lite with agent size 2, rule at_most_one_blocked, Dijkstra (estimate 0, km stays 0): a replan after edits that change passability of a 2x2 block [REPLAN.EDIT.CELLS]. The algorithm is saved as its u8 value, Dijkstra = 1 [GS.OPT.ALGORITHM].", req(0x5250_0006, None, (11, 9), 1, GridOptionsData { algorithm: 1, ..agent2 }, ModeName::DStarLite, ((0, 0), (9, 7)), vec![S::Replan { budget: 0 }, S::SetCell { x: 4, y: 4, area: 255 }, S::SetCell { x: 5, y: 3, area: 0 }, S::Replan { budget: 0 }, S::SetCell { x: 2, y: 2, area: 255 }]), None);
    push(
        H,
        "Hex (odd-r) LPA* after a complete replan and two edits pending [GRID.HEX.OFFSETS].",
        req(
            0x5250_0007,
            Some(0),
            (9, 8),
            1,
            o.clone(),
            ModeName::Lpa,
            ((0, 0), (8, 7)),
            vec![
                S::Replan { budget: 0 },
                S::SetCell {
                    x: 4,
                    y: 4,
                    area: 255,
                },
                S::SetCell {
                    x: 2,
                    y: 3,
                    area: 2,
                },
            ],
        ),
        None,
    );
    push(H, "Hex (even-q) D* Lite stopped by a budget of 6 after a start move: km, a queue in heap order [REPLAN.QUEUE.HEAP].", req(0x5250_0008, Some(3), (10, 9), 0, dijkstra.clone(), ModeName::DStarLite, ((0, 0), (9, 8)), vec![S::Replan { budget: 0 }, S::SetStart { x: 1, y: 0 }, S::SetCell { x: 5, y: 5, area: 255 }, S::Replan { budget: 6 }]), None);
    push(H, "Hex (even-r) D* Lite with the A* estimate after a start move and a complete replan: km > 0 [REPLAN.KEY.H]. On a map of areas 0-3 (multipliers 0.5, 2, 3.25), every g and rhs sums hex moves between neighbours inside the grid that are not walls [GRID.HEX.MOVE], each costing 1.0 times the multiplier of the area entered [GRID.HEX.COST]; the keys and km use the hex estimate, the hex distance times the smallest multiplier 0.5 [GRID.HEX.ESTIMATE] [GRID.HEX.DISTANCE], over the even-r axial coordinates [GRID.HEX.AXIAL].", req(0x5250_0009, Some(1), (8, 8), 2, o, ModeName::DStarLite, ((0, 0), (7, 7)), vec![S::Replan { budget: 0 }, S::SetStart { x: 1, y: 1 }, S::Replan { budget: 0 }]), None);
}

/// STATE-GRIDSEARCH-0013 and 0014: the two mode-1 states at the edges of [GS.STATE.MODE1.CHECKS]
/// that no earlier golden has, `expanded = 0` and no visited cell; STATE-GRIDSEARCH-0015 the mode-3
/// state just begun (`iterations = 0`, the start not closed).
fn grid_search_mode1_edges(
    push: &mut dyn FnMut(StateKind, &'static str, StateRecipe, Option<Patch>),
) {
    use crate::grid::{GridApi, GridOptionsData};
    use crate::movingai::MapKind;
    let rooms = (MapKind::Rooms { room_size: 3 }, 13, 11, 7);
    push(
        StateKind::GridSearch,
        "Mode 1 (specialised A*) just begun: begin, no step. The start alone is visited and open, expanded = iterations = 0 [GS.SA.BEGIN]; expanded >= 0 and expanded <= iterations accept 0 [GS.STATE.MODE1.CHECKS].",
        grid_search(
            rooms,
            false,
            GridApi::Handle,
            GridOptionsData::default(),
            Some(((1, 1), (11, 9))),
            vec![],
            false,
        ),
        None,
    );
    push(
        StateKind::GridSearch,
        "Mode 1 NotFound at begin: the goal (0, 5) is a wall, so the search ends at once with nothing visited, the start included [GS.ASTAR.BEGIN] [GS.SA.BEGIN]; the visited count is 0, so the start rule (1) of [GS.STATE.MODE1.CHECKS] does not apply and the restore accepts the state.",
        grid_search(
            rooms,
            false,
            GridApi::Handle,
            GridOptionsData::default(),
            Some(((1, 1), (0, 5))),
            vec![],
            false,
        ),
        None,
    );
    // STATE-GRIDSEARCH-0015: the same edge of [GS.STATE.MODE3.CHECKS].
    push(
        StateKind::GridSearch,
        "Mode 3 (JPS through the handle) just begun: begin, no step. The start alone is visited, on the heap and not closed, iterations = 0, so the rule that the start is closed does not apply [GS.STATE.MODE3.CHECKS] and the restore accepts the state.",
        grid_search(
            rooms,
            false,
            GridApi::Handle,
            GridOptionsData {
                algorithm: 2,
                ..GridOptionsData::default()
            },
            Some(((1, 1), (11, 9))),
            vec![],
            false,
        ),
        None,
    );
}
