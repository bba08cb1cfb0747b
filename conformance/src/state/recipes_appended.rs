//! Golden state vectors appended after the first lists of [`super::recipes`] (issue 35: states
//! that pin a port's restore checks no earlier golden reached). Each is pushed after every
//! golden of its kind, so no published id moves ([CONF.VEC.IDS]).

use super::recipes::Patch;
use super::{StateKind, StateRecipe};

type Push<'a> = &'a mut dyn FnMut(StateKind, &'static str, StateRecipe, Option<Patch>);

/// Every appended golden, in the order they were appended (each after every golden of its kind
/// in [`super::recipes`], so no published id moves).
pub fn all(push: Push<'_>) {
    grid_search_hops(push);
    patched_counts(push);
    patched_search_counts(push);
    voxel_version_count(push);
    patched_replanners(push);
    edge_goldens(push);
    parent_left_of_border(push);
    patched_graph_search_count(push);
    session12_goldens(push);
    session13_goldens(push);
    session15b_goldens(push);
    session15a_goldens(push);
    session18_goldens(push);
}

/// STATE-GRIDSEARCH-0017 and STATE-THETA-0006 (port-mutation judge, issue 35): a mode-1 state
/// whose last visited cell is on the last column (its `direction + 1` hostile case points its
/// parent past the right border), and a Lazy Theta* run whose parent fix takes a row-0 cell.
fn edge_goldens(push: Push<'_>) {
    use crate::grid::{GridApi, GridOptionsData};
    // A port that tested only one of a parent's two coordinates passed every earlier vector:
    // the parent (3, 0) of cell (2, 1) wraps to cell 3, (0, 1), closed with the pair (1, 0).
    push(
        StateKind::GridSearch,
        "Mode 1 (Dijkstra through the handle, diagonal rule Always) Found on a 3x2 map whose cell (1, 1) is a wall, from (0, 0) to (2, 1): the goal (2, 1) is reached diagonally from (1, 0) with the pair (1, 1), and (0, 1) is closed with the pair (1, 0). The hostile case `visited[4] direction + 1` gives the goal the direction (-1, 1), so its parent would be (3, 0), past the right border: pass (2) of [GS.STATE.MODE1.CHECKS] reports bad_parent at that cell's record (a range test of y alone reads the parent as cell 3, (0, 1), whose pair (1, 0) is one diagonal step below (1, 1), and accepts the state).",
        StateRecipe::GridSearch {
            width: 3,
            height: 2,
            space: None,
            area_multipliers: vec![],
            edits: vec![(1, 1, 255)],
            search: GridApi::Handle,
            options: GridOptionsData {
                algorithm: 1,
                diagonal: 0,
                ..GridOptionsData::default()
            },
            start: Some((0, 0)),
            goal: Some((2, 1)),
            steps: vec![],
            run: true,
        },
        None,
    );
    // A port whose parent fix skipped the neighbours in row 0 passed every earlier vector (it
    // kept the parent out of sight and cut the wall's corner).
    push(
        StateKind::ThetaSearch,
        "Lazy Theta* (diagonal rule NoneBlocked) run to the end on a 3x2 map whose cell (0, 1) is a wall, from (0, 0) to (1, 1): the goal is pushed with the start as its parent, and popped, the start is out of sight (the diagonal passes the wall's corner, [GS.LOS]), so its parent becomes the closed neighbour (1, 0) in row 0 with a move into it [GS.THETA.LAZY]: Found with cost 2 and the path (0, 0), (1, 0), (1, 1) (a parent fix that skips row 0 keeps the start as the parent, cost sqrt(2), and saves other bytes).",
        StateRecipe::GridSearch {
            width: 3,
            height: 2,
            space: None,
            area_multipliers: vec![],
            edits: vec![(0, 1, 255)],
            search: GridApi::Theta,
            options: GridOptionsData {
                algorithm: 5,
                ..GridOptionsData::default()
            },
            start: Some((0, 0)),
            goal: Some((1, 1)),
            steps: vec![],
            run: true,
        },
        None,
    );
}

/// STATE-VOXEL-0005: a voxel grid whose version counts past 61.
fn voxel_version_count(push: Push<'_>) {
    // 70 edits of 70 distinct voxels of a new 8x8x2 grid (one chunk, default area 0), each to a
    // nonzero area, so each changes a voxel and counts 1 ([GRID.VERSION.COUNT]): version 70.
    let edits = (0..70u32)
        .map(|i| (i % 8, (i / 8) % 8, i / 64, (1 + i % 9) as u8))
        .collect();
    push(
        StateKind::VoxelGrid,
        "An 8x8x2 voxel grid (one chunk, default area 0) after 70 edits, each of another voxel to a nonzero area: every edit changes a voxel, so the version counts 70 [GRID.VERSION.COUNT] and is saved as such [STATE.VOXEL]; it wraps to 0 only after 2^31 - 1 (a version that wrapped earlier, e.g. after 61, saves other bytes).",
        StateRecipe::VoxelGrid {
            size: [8, 8, 2],
            default_area: 0,
            space: None,
            area_multipliers: vec![],
            edits,
        },
        None,
    );
}

/// STATE-GRIDSEARCH-0016: a mode-3 state with a visited cell one row above its parent.
fn grid_search_hops(push: Push<'_>) {
    use crate::grid::{GridApi, GridOptionsData};
    // An 8x8 map with eight walls; JPS through the handle from (6, 2) to (1, 1) visits (6, 1),
    // cell 14, with the parent (6, 2), cell 22, the start: the hop (0, -1).
    let walls = [
        (5, 0),
        (6, 0),
        (7, 1),
        (5, 2),
        (1, 3),
        (5, 4),
        (6, 4),
        (7, 6),
    ];
    push(
        StateKind::GridSearch,
        "Mode 3 (JPS through the handle) Found on an 8x8 map with eight walls: the visited cell (6, 1) has the parent (6, 2), one row below it, the hop (0, -1), straight and of octile pair (1, 0), so pass (2) of [GS.STATE.MODE3.CHECKS] accepts it (a hop test that refuses dy = -1 with dx = 0, or any one-cell hop, reports bad_parent at that cell's record).",
        StateRecipe::GridSearch {
            width: 8,
            height: 8,
            space: None,
            area_multipliers: vec![],
            edits: walls.iter().map(|&(x, y)| (x, y, 255)).collect(),
            search: GridApi::Handle,
            options: GridOptionsData {
                algorithm: 2,
                ..GridOptionsData::default()
            },
            start: Some((6, 2)),
            goal: Some((1, 1)),
            steps: vec![],
            run: true,
        },
        None,
    );
}

/// A 6x1 open corridor as a request map.
fn corridor() -> crate::grid::vectors::MapFile {
    crate::grid::vectors::MapFile {
        width: 6,
        height: 1,
        cells: "00".repeat(6),
        multipliers: vec![],
        space: None,
    }
}

/// The offset of the first field of the walk of `bytes` named `name`.
fn field_at(kind: StateKind, bytes: &[u8], name: &str) -> usize {
    super::layout::walk(kind, bytes)
        .fields
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.offset)
        .unwrap_or_else(|| panic!("a {kind:?} state has the field {name}"))
}

/// The first open-set entry's cell made 0 (the goal, settled already).
fn flow_open_to_goal(bytes: &[u8]) -> Vec<super::recipes::Splice> {
    let at = field_at(StateKind::FlowField, bytes, "open[0].node");
    vec![(at, 4, 0i32.to_le_bytes().to_vec())]
}

/// `settled` made `2^31 - 1`.
fn flow_settled_max(bytes: &[u8]) -> Vec<super::recipes::Splice> {
    let at = field_at(StateKind::FlowField, bytes, "settled");
    vec![(at, 4, i32::MAX.to_le_bytes().to_vec())]
}

/// The cost of cell 26, `(2, 3)` on a width of 8, raised by 0.5.
fn flow_cost_raised(bytes: &[u8]) -> Vec<super::recipes::Splice> {
    let l = super::layout::walk(StateKind::FlowField, bytes);
    let cell = l
        .fields
        .iter()
        .find(|f| {
            f.name.starts_with("reached[")
                && f.name.ends_with("].cell")
                && bytes[f.offset..f.offset + 4] == 26i32.to_le_bytes()
        })
        .expect("cell 26 is reached");
    let at = cell.offset + 4;
    let cost = f64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    vec![(at, 8, (cost + 0.5).to_le_bytes().to_vec())]
}

/// A kind-8 search's `iterations` made `2^31 - 1`.
fn astar_iterations_max(bytes: &[u8]) -> Vec<super::recipes::Splice> {
    let at = field_at(StateKind::AStar, bytes, "iterations");
    vec![(at, 4, i32::MAX.to_le_bytes().to_vec())]
}

/// `iterations` made `2^63 - 1`.
fn replanner_iterations_max(bytes: &[u8]) -> Vec<super::recipes::Splice> {
    let at = field_at(StateKind::GridReplanner, bytes, "iterations");
    vec![(at, 8, i64::MAX.to_le_bytes().to_vec())]
}

/// Patched flow-field and replanner goldens: states no history produces, finished after the
/// restore and compared with the first implementation's finish ([CONF.CHECK.STATE]).
pub fn patched_counts(push: &mut dyn FnMut(StateKind, &'static str, StateRecipe, Option<Patch>)) {
    use crate::flow::{FlowGrid, FlowRequest, FlowStep};
    use crate::grid::GridOptionsData;
    use crate::replan::{ModeName, ReplanGrid, ReplanRequest, ReplanStep};
    let flow = StateRecipe::FlowField {
        request: FlowRequest {
            grid: FlowGrid {
                hex_layout: None,
                map: corridor(),
            },
            options: GridOptionsData::default(),
            goals: vec![(0, 0)],
            script: vec![FlowStep::Step { budget: 2 }],
            probes: vec![(5, 0), (3, 0)],
        },
    };
    push(
        StateKind::FlowField,
        "Patched (a state no run produces, [FLOW.STATE.STRUCTURAL]): a 6x1 corridor with the goal (0, 0), a begun run stopped after 2 iterations, whose one open entry, cell 2's, is patched to name cell 0 (settled, cost 0). Finished after the restore, the run pops that entry and the open set is empty: cell 2 keeps cost 2 but is never expanded, so cells 3-5 stay unreached, and the direction pass gives each unreached cell no step although cell 3 has a reached neighbour [FLOW.DIR.RULE] [FLOW.RUN.FINISH] (a pass that directs an unreached cell towards a smaller cost saves the step 3 -> 2).",
        flow.clone(),
        Some(flow_open_to_goal),
    );
    push(
        StateKind::FlowField,
        "Patched: the begun run of the previous vector with settled = 2^31 - 1. Finished after the restore it settles 4 more cells, so settled() passes 2^31 - 1 and the save writes 2^31 - 1 [FLOW.RUN.SETTLED] (a save that writes the count unclamped cannot encode it as an i32).",
        flow,
        Some(flow_settled_max),
    );
    push(
        StateKind::FlowField,
        "Patched: a complete field on an open 8x8 grid (goal (0, 0)) with one pending cell, (4, 4) made a wall, and the cost of cell (2, 3) raised by 0.5, so it no longer equals c(w, n) + cost(n) of its step n = (1, 2), which is a neighbour and not touched. Finished after the restore, the repair's walk reaches (2, 3) from the touched (3, 3): it is not derived through its step [FLOW.REPAIR.DERIVED], so it is invalidated and the repair gives it its cost again [FLOW.REPAIR.START] (a walk that keeps it saves the raised cost).",
        StateRecipe::FlowField {
            request: FlowRequest {
                grid: FlowGrid {
                    hex_layout: None,
                    map: crate::grid::vectors::MapFile {
                        width: 8,
                        height: 8,
                        cells: "00".repeat(64),
                        multipliers: vec![],
                        space: None,
                    },
                },
                options: GridOptionsData::default(),
                goals: vec![(0, 0)],
                script: vec![
                    FlowStep::Step { budget: 0 },
                    FlowStep::SetCell {
                        x: 4,
                        y: 4,
                        area: 255,
                    },
                ],
                probes: vec![(7, 7), (2, 3)],
            },
        },
        Some(flow_cost_raised),
    );
    push(
        StateKind::GridReplanner,
        "Patched: LPA* on a 6x1 corridor from (0, 0) to (5, 0) stopped by a budget of 2, with iterations = 2^63 - 1. Finished after the restore (replan(grid, 0)) it counts more iterations, and the save writes 2^63 - 1 [REPLAN.RUN.COUNTERS] [REPLAN.STATE.SAVE] (a save that writes the count unclamped cannot encode it as an i64).",
        StateRecipe::Replanner {
            request: ReplanRequest {
                grid: ReplanGrid {
                    hex_layout: None,
                    map: corridor(),
                },
                options: GridOptionsData::default(),
                mode: ModeName::Lpa,
                start: (0, 0),
                goal: (5, 0),
                script: vec![ReplanStep::Replan { budget: 2 }],
            },
        },
        Some(replanner_iterations_max),
    );
}

/// STATE-ASTAR-0005: a generic grid A* (kind 8) mid-run whose `iterations` is patched to the
/// largest count the format writes; then STATE-THETA-0005 ([`patched_lazy_theta`]).
pub fn patched_search_counts(
    push: &mut dyn FnMut(StateKind, &'static str, StateRecipe, Option<Patch>),
) {
    use crate::grid::{GridApi, GridOptionsData};
    push(
        StateKind::AStar,
        "Patched: the generic grid AStar (kind 8) on an open 8x8 grid from (0, 0) to (7, 7) after step(3), with iterations = 2^31 - 1 (a count above expanded is in range). Run to the end after the restore it counts more iterations, and the save writes 2^31 - 1 [STATE.SEARCH.WIDE] (a clamp at any other value saves other bytes; an unclamped count cannot be written as an i32).",
        StateRecipe::GridSearch {
            width: 8,
            height: 8,
            space: None,
            area_multipliers: vec![],
            edits: vec![],
            search: GridApi::AStar,
            options: GridOptionsData::default(),
            start: Some((0, 0)),
            goal: Some((7, 7)),
            steps: vec![3],
            run: false,
        },
        Some(astar_iterations_max),
    );
    patched_lazy_theta(push);
}

/// The begun Lazy Theta* search of STATE-THETA-0005 made one pop further by hand: the start,
/// cell 1, closed (`expanded = iterations = 1`, recorded `[1]`), and the goal, cell 3, open with
/// `g = 2` and the parent 1, across the wall at cell 2, the heap's one entry `(3, 2, 2)`.
fn lazy_theta_unseen_parent(bytes: &[u8]) -> Vec<super::recipes::Splice> {
    let kind = StateKind::ThetaSearch;
    let expanded = field_at(kind, bytes, "expanded");
    let iterations = field_at(kind, bytes, "iterations");
    let visited = field_at(kind, bytes, "visited_count");
    let mut tail = Vec::new();
    tail.extend(2i32.to_le_bytes());
    for (node, closed, g, parent) in [(1i32, 1u8, 0.0f64, -1i32), (3, 0, 2.0, 1)] {
        tail.extend(node.to_le_bytes());
        tail.push(closed);
        tail.extend(g.to_le_bytes());
        tail.extend(parent.to_le_bytes());
    }
    tail.extend(1i32.to_le_bytes());
    tail.extend(3i32.to_le_bytes());
    tail.extend(2.0f64.to_le_bytes());
    tail.extend(2.0f64.to_le_bytes());
    tail.extend(1i32.to_le_bytes());
    tail.extend(1i32.to_le_bytes());
    vec![
        (expanded, 4, 1i32.to_le_bytes().to_vec()),
        (iterations, 4, 1i32.to_le_bytes().to_vec()),
        (visited, bytes.len() - visited, tail),
    ]
}

/// STATE-THETA-0005: a patched Lazy Theta* state whose open cell's parent is out of sight and
/// has no closed neighbour to take its place.
fn patched_lazy_theta(push: &mut dyn FnMut(StateKind, &'static str, StateRecipe, Option<Patch>)) {
    use crate::grid::{GridApi, GridOptionsData};
    push(
        StateKind::ThetaSearch,
        "Patched (a state no run produces): Lazy Theta* on a 4x1 map whose cell (2, 0) is a wall, begun from (1, 0) to (3, 0), made one pop further by hand: the start, cell 1, closed with g 0, and the goal, cell 3, open with g 2 and the parent 1, across the wall, the heap's one entry. The restore accepts it (a parent need only be visited with a g not larger, [GS.STATE.SEARCHES], [STATE.SEARCH.CHECKS]). Finished after the restore, the pop of cell 3 finds its parent out of sight and no closed neighbour with a move into it (its one neighbour is the wall), so its parent 1 and g 2 are kept [GS.THETA.LAZY], and the run is Found with cost 2 and the path (1, 0), (3, 0) (a pop that took another parent, e.g. cell 0, or dropped g, reports another path or cost and saves other bytes).",
        StateRecipe::GridSearch {
            width: 4,
            height: 1,
            space: None,
            area_multipliers: vec![],
            edits: vec![(2, 0, 255)],
            search: GridApi::Theta,
            options: GridOptionsData {
                algorithm: 5,
                ..GridOptionsData::default()
            },
            start: Some((1, 0)),
            goal: Some((3, 0)),
            steps: vec![],
            run: false,
        },
        Some(lazy_theta_unseen_parent),
    );
}

/// The planned entry of cell 0 given `rhs = g + 4` (1 + 4: the middle cell of the path made
/// inconsistent).
fn replanner_cell0_rhs_raised(bytes: &[u8]) -> Vec<super::recipes::Splice> {
    replanner_rhs_raised(bytes, 0)
}

/// The offset of the `planned[i].cell` field that holds `cell` (its `g` follows at + 4, its
/// `rhs` at + 12, [REPLAN.STATE.SEARCH]).
fn planned_entry(bytes: &[u8], cell: i32) -> usize {
    super::layout::walk(StateKind::GridReplanner, bytes)
        .fields
        .iter()
        .find(|f| {
            f.name.starts_with("planned[")
                && f.name.ends_with("].cell")
                && bytes[f.offset..f.offset + 4] == cell.to_le_bytes()
        })
        .expect("the cell is planned")
        .offset
}

/// The planned entry of `cell` given `rhs = g + 4`.
fn replanner_rhs_raised(bytes: &[u8], cell: i32) -> Vec<super::recipes::Splice> {
    let at = planned_entry(bytes, cell);
    let g = f64::from_le_bytes(bytes[at + 4..at + 12].try_into().expect("8 bytes"));
    vec![(at + 12, 8, (g + 4.0).to_le_bytes().to_vec())]
}

/// A replanner request with connectivity 4 and one `Replan { budget }` step on a `w x h` map
/// (`cells` in hex), LPA* from `start` to `goal`.
fn lpa_four(
    (w, h): (u32, u32),
    cells: String,
    start: (u32, u32),
    goal: (u32, u32),
    budget: u64,
) -> StateRecipe {
    use crate::grid::GridOptionsData;
    use crate::replan::{ModeName, ReplanGrid, ReplanRequest, ReplanStep};
    StateRecipe::Replanner {
        request: ReplanRequest {
            grid: ReplanGrid {
                hex_layout: None,
                map: crate::grid::vectors::MapFile {
                    width: w,
                    height: h,
                    cells,
                    multipliers: vec![],
                    space: None,
                },
            },
            options: GridOptionsData {
                connectivity: 4,
                ..GridOptionsData::default()
            },
            mode: ModeName::Lpa,
            start,
            goal,
            script: vec![ReplanStep::Replan { budget }],
        },
    }
}

/// The queue `[(4, 6, 1), (2, 6, 2), (5, 6, 2)]` rewritten as `[(2, 6, 0.5), (4, 6, 1),
/// (5, 6, 2)]`: cell 2's key2 lowered below its own, so it lies on top in heap order.
fn replanner_queue_key2_lowered(bytes: &[u8]) -> Vec<super::recipes::Splice> {
    let kind = StateKind::GridReplanner;
    let at = field_at(kind, bytes, "queue[0].node");
    let mut old = Vec::new();
    for i in 0..3 {
        let o = at + 20 * i;
        old.push(i32::from_le_bytes(
            bytes[o..o + 4].try_into().expect("4 bytes"),
        ));
    }
    assert_eq!(old, [4, 2, 5], "the queue of the recipe");
    assert_eq!(field_at(kind, bytes, "queue[2].node"), at + 40);
    let mut tail = Vec::new();
    for (node, k1, k2) in [(2i32, 6.0f64, 0.5f64), (4, 6.0, 1.0), (5, 6.0, 2.0)] {
        tail.extend(node.to_le_bytes());
        tail.extend(k1.to_le_bytes());
        tail.extend(k2.to_le_bytes());
    }
    vec![(at, 60, tail)]
}

/// STATE-GRIDREPLANNER-0008's request, which 0010 and 0012 patch otherwise: LPA* with
/// connectivity 4 on a 4x2 map whose cell (1, 1) is a wall, from (1, 0) to (0, 1), planned to the
/// end.
fn lpa_four_by_two() -> StateRecipe {
    lpa_four(
        (4, 2),
        format!("{}00ff0000", "00".repeat(4)),
        (1, 0),
        (0, 1),
        0,
    )
}

/// The splice that sets the `g` of planned cell `cell` to `g` (its rhs kept).
fn planned_g(bytes: &[u8], cell: i32, g: f64) -> Vec<super::recipes::Splice> {
    let at = planned_entry(bytes, cell);
    vec![(at + 4, 8, g.to_le_bytes().to_vec())]
}

/// STATE-GRIDREPLANNER-0008 and 0009: patched LPA* states ([REPLAN.STATE.STRUCTURAL]: nothing
/// checks g, rhs or keys) whose finish pins the walk check and the re-key's sift.
fn patched_replanners(push: Push<'_>) {
    let request = lpa_four;
    push(
        StateKind::GridReplanner,
        "Patched: LPA* with connectivity 4 on a 4x2 map whose cell (1, 1) is a wall, from (1, 0) to (0, 1), planned to the end: the path (1, 0), (0, 0), (0, 1), cell (2, 0) still queued, and the rhs of the path's middle cell (0, 0), cell 0, patched from 1 to 5. Finished after the restore, the top key is not below key(target) and the target is consistent, but the walk check steps from the target to cell 0, finds g != rhs, so planning is not done [REPLAN.COMPUTE.STOP]: the replan expands cells 2, 6, 3 and 7 until the queue is empty (a walk check that ends at cell 0, or at any cell, without testing it stops at once: no expansion, other counters and bytes).",
        lpa_four_by_two(),
        Some(replanner_cell0_rhs_raised),
    );
    push(
        StateKind::GridReplanner,
        "Patched: LPA* with connectivity 4 on an open 4x4 map from (0, 0) to (3, 3) stopped by a budget of 2, its queue (cells 4, 2 and 5, each with key1 6) rewritten as (2, 6, 0.5), (4, 6, 1), (5, 6, 2): cell 2's key2 lowered from 2 to 0.5, so it lies on top. Finished after the restore, the first pop re-keys cell 2 to (6, 2), a larger key with the same key1, which sifts down below cell 4 [REPLAN.QUEUE.UPDATE] [REPLAN.KEY.ORDER] [REPLAN.COMPUTE.STEP]: cell 4 is expanded first, then 2 and 5 (an update that takes the new key for a smaller one when key1 ties sifts it up, keeps cell 2 on top and expands it before cell 4).",
        request((4, 4), "00".repeat(16), (0, 0), (3, 3), 2),
        Some(replanner_queue_key2_lowered),
    );
}

/// STATE-GRIDSEARCH-0018 (port-mutation judge, issue 35): a mode-1 state whose visited cell on
/// the first column has a `direction + 1` hostile case that points its parent past the left
/// border, where a range test of `x >= -1` reads the wrapped cell of the row above.
fn parent_left_of_border(push: Push<'_>) {
    use crate::grid::{GridApi, GridOptionsData};
    // A port whose parent test accepted x = -1 passed every earlier vector: the parent (-1, 2) of
    // the goal (0, 1) wraps to cell 5, (2, 1), closed with the pair (1, 0).
    push(
        StateKind::GridSearch,
        "Mode 1 (Dijkstra through the handle, 8-connected, diagonal rule NoneBlocked) Found on a 3x3 map whose cell (0, 0) is a wall, from (2, 0) to (0, 1): the goal (0, 1) is reached straight west from (1, 1) with the pair (1, 1), and (2, 1) is closed with the pair (1, 0). The hostile case `visited[2] direction + 1` gives the goal the direction (1, -1), so its parent would be (-1, 2), past the left border: pass (2) of [GS.STATE.MODE1.CHECKS] reports bad_parent at that cell's record (a range test that lets x = -1 through reads the parent as cell 2 * 3 - 1 = 5, (2, 1), whose pair (1, 0) is one diagonal step below (1, 1), and accepts the state).",
        StateRecipe::GridSearch {
            width: 3,
            height: 3,
            space: None,
            area_multipliers: vec![],
            edits: vec![(0, 0, 255)],
            search: GridApi::Handle,
            options: GridOptionsData {
                algorithm: 1,
                connectivity: 8,
                diagonal: 2,
                ..GridOptionsData::default()
            },
            start: Some((2, 0)),
            goal: Some((0, 1)),
            steps: vec![],
            run: true,
        },
        None,
    );
}

/// A kind-11 search's `iterations` made `2^31 - 1`.
fn graph_astar_iterations_max(bytes: &[u8]) -> Vec<super::recipes::Splice> {
    let at = field_at(StateKind::GraphAStar, bytes, "iterations");
    vec![(at, 4, i32::MAX.to_le_bytes().to_vec())]
}

/// STATE-GRAPHASTAR-NNNN (port-mutation judge, issue 35): as STATE-ASTAR-0005 for the graph
/// search (kind 11), whose save clamps its counters with its own constant.
fn patched_graph_search_count(push: Push<'_>) {
    // A port whose kind-11 clamp was 2^32 - 1 passed every earlier vector: no graph-search
    // golden counted past 2^31 - 1, so the unclamped count was never packed as an i32.
    push(
        StateKind::GraphAStar,
        "Patched: the graph A* (kind 11, zero estimate, recording) over the 24-node search graph from 0 to 17 after step(3), with iterations = 2^31 - 1 (a count above expanded is in range). Run to the end after the restore it counts more iterations, and the save writes 2^31 - 1 [STATE.SEARCH.WIDE] (a clamp at any other value saves other bytes; an unclamped count cannot be written as an i32).",
        StateRecipe::GraphAstar {
            graph: super::recipes::search_graph(0x6A57_0001, 24),
            heuristic: super::HeuristicName::Zero,
            record: true,
            start: Some(0),
            goal: Some(17),
            steps: vec![3],
            run: false,
        },
        Some(graph_astar_iterations_max),
    );
}

/// The planned entry of cell 0 given `g = +infinity` (its rhs kept).
fn replanner_cell0_g_infinite(bytes: &[u8]) -> Vec<super::recipes::Splice> {
    planned_g(bytes, 0, f64::INFINITY)
}

/// The touched list emptied: its count made 0 and its cells dropped.
fn flow_touched_emptied(bytes: &[u8]) -> Vec<super::recipes::Splice> {
    let at = field_at(StateKind::FlowField, bytes, "touched_count");
    let count = i32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let count = usize::try_from(count).expect("a count is not negative");
    vec![(at, 4 + 4 * count, 0i32.to_le_bytes().to_vec())]
}

/// Cell 1's rhs raised by 4.
fn replanner_cell1_rhs_raised(bytes: &[u8]) -> Vec<super::recipes::Splice> {
    replanner_rhs_raised(bytes, 1)
}

/// Session 12 (port-mutation judge, issue 35): STATE-GRIDSEARCH-0019, a mode-1 Found state whose
/// goal is the second visited entry; STATE-FLOWFIELD-0012, a repair with its touched list
/// emptied; STATE-GRIDREPLANNER-0010 and 0011, patched LPA* states whose finish pins the walk
/// check's first step and its step count.
fn session12_goldens(push: Push<'_>) {
    use crate::grid::{GridApi, GridOptionsData};
    // A port whose Found rule read the parity of the goal entry's offset instead of its closed
    // flag passed every earlier vector: both mode-1 Found goldens had the goal at an even index.
    push(
        StateKind::GridSearch,
        "Mode 1 (A* through the handle, default options) Found on an open 2x1 map from (0, 0) to (1, 0): the goal is the second entry of the visited list (index 1). A restore accepts it (rule (4) of [GS.STATE.MODE1.CHECKS]: the goal visited, closed and with the path's pair) and saves it back unchanged.",
        StateRecipe::GridSearch {
            width: 2,
            height: 1,
            space: None,
            area_multipliers: vec![],
            edits: vec![],
            search: GridApi::Handle,
            options: GridOptionsData::default(),
            start: Some((0, 0)),
            goal: Some((1, 0)),
            steps: vec![],
            run: true,
        },
        None,
    );
    // A port that refused a touched count of 0 passed every earlier vector: every repairing
    // golden had touched cells, and a hostile case the reference accepts is skipped.
    push(
        StateKind::FlowField,
        "Patched: a complete field on an open 8x8 grid (goal (0, 0)), the cell (4, 4) made a wall and a repair stopped by a budget of 1 (repairing, its touched list in order), with the touched list emptied: touched_count 0 and no cells, which [FLOW.STATE.SEARCH_CHECKS] accepts (touched_count >= 0; [FLOW.STATE.STRUCTURAL] checks no consistency of the list). Finished after the restore, the repair goes on from the open set as it lies and the direction pass directs the cells touched since [FLOW.REPAIR.DIRECT] (a restore that asks for a touched cell refuses the bytes with count_out_of_range).",
        StateRecipe::FlowField {
            request: crate::flow::FlowRequest {
                grid: crate::flow::FlowGrid {
                    hex_layout: None,
                    map: crate::grid::vectors::MapFile {
                        width: 8,
                        height: 8,
                        cells: "00".repeat(64),
                        multipliers: vec![],
                        space: None,
                    },
                },
                options: GridOptionsData::default(),
                goals: vec![(0, 0)],
                script: vec![
                    crate::flow::FlowStep::Step { budget: 0 },
                    crate::flow::FlowStep::SetCell {
                        x: 4,
                        y: 4,
                        area: 255,
                    },
                    crate::flow::FlowStep::Step { budget: 1 },
                ],
                probes: vec![(7, 7), (5, 5)],
            },
        },
        Some(flow_touched_emptied),
    );
    let request = |size, cells, start, goal| lpa_four(size, cells, start, goal, 0);
    // A walk check that kept the previous step's cell when no neighbour has a finite value
    // passed every earlier vector: no finish met a target without such a neighbour.
    push(
        StateKind::GridReplanner,
        "Patched: STATE-GRIDREPLANNER-0008's state (LPA*, connectivity 4, a 4x2 map whose cell (1, 1) is a wall, from (1, 0) to (0, 1), planned to the end with cell (2, 0) still queued) with g of cell 0, (0, 0), the target's one open neighbour, patched from 1 to +infinity (its rhs kept). Finished after the restore, the top key is not below key(target) and the target is consistent, and the walk check finds no neighbour of the target with a finite value, which ends planning [REPLAN.COMPUTE.STOP]: no iteration, Found with the target's g, and a path query that fails [REPLAN.PATH.WALK] (a walk check that needs a chosen neighbour before it can stop fails or walks on).",
        lpa_four_by_two(),
        Some(replanner_cell0_g_infinite),
    );
    // A walk check that counted two per step passed every earlier vector: it stopped after
    // ceil(cells / 2) steps, and no patched cell lay that far along a walk.
    push(
        StateKind::GridReplanner,
        "Patched: LPA* with connectivity 4 on a 7x3 map whose cells (0..5, 1) are walls, from (0, 0) to (1, 2), planned to the end (the walk from the target through the gap at (6, 1) is 13 steps long, over 21 cells), and the rhs of cell (1, 0), 12 steps along the walk, raised from 1 to 5. Finished after the restore, the walk check meets that cell before it has taken `cells` steps and finds it inconsistent, so planning is not done [REPLAN.COMPUTE.STOP] and the replan iterates (a walk check that stops after fewer steps, e.g. ceil(cells / 2), ends planning at once: other counters and bytes).",
        request(
            (7, 3),
            format!("{}{}00{}", "00".repeat(7), "ff".repeat(6), "00".repeat(7)),
            (0, 0),
            (1, 2),
        ),
        Some(replanner_cell1_rhs_raised),
    );
}

/// Session 13 (port-mutation judge, issue 35): STATE-GRIDSEARCH-0020, a mode-3 search that ends
/// NotFound at begin (the goal a wall), saved before any step.
fn session13_goldens(push: Push<'_>) {
    use crate::grid::{GridApi, GridOptionsData};
    // A port whose mode-3 begin left the status Running when an end is a wall passed every
    // earlier vector: the first step ends an empty search NotFound anyway, and no golden saved a
    // mode-3 search that ended at begin (STATE-GRIDSEARCH-0014 is mode 1).
    push(
        StateKind::GridSearch,
        "Mode 3 (JPS through the handle, default options) NotFound at begin: on an open 3x1 map whose cell (2, 0) is a wall, begin from (0, 0) to (2, 0) ends the search at once with nothing visited or pushed [GS.ASTAR.BEGIN] [GS.SJ.BEGIN], and the state is saved before any step: status NotFound, iterations 0, no visited cell, so the start-closed rule of [GS.STATE.MODE3.CHECKS] does not apply and the restore accepts it (a begin that left the status Running saves another status byte).",
        StateRecipe::GridSearch {
            width: 3,
            height: 1,
            space: None,
            area_multipliers: vec![],
            edits: vec![(2, 0, 255)],
            search: GridApi::Handle,
            options: GridOptionsData {
                algorithm: 2,
                ..GridOptionsData::default()
            },
            start: Some((0, 0)),
            goal: Some((2, 0)),
            steps: vec![],
            run: false,
        },
        None,
    );
}

/// Session 15 (port-mutation judge, issue 35): STATE-ASTAR-0006, a generic AStar (kind 8) state
/// whose derived parent cycle is entered at its larger node.
fn session15b_goldens(push: Push<'_>) {
    use crate::grid::{GridApi, GridOptionsData};
    // A port that reported `parent_cycle` at the first cycle entry its walk met (or at the first
    // open one) instead of the smallest node passed every earlier vector: in every derived
    // two-node cycle the walk from the smallest node met the smaller cycle node first.
    push(
        StateKind::AStar,
        "AStar (kind 8, Dijkstra, connectivity 4) on an open 2x2 map whose cells (0, 0) and (1, 0) cost 2 (area 1, multiplier 2), from (1, 1) to (0, 0), saved after step(3): the start (cell 3), then cell 2 (g 1) and cell 1 (g 2) are closed, and the goal, cell 0, is open with parent cell 2 (g 3). The derived hostile case that makes cells 1 and 2 each other's parent (equal g 1) has its cycle met first at cell 2 by the walk from cell 0, so [STATE.SEARCH.CHECKS] reports `parent_cycle` at the entry of cell 1, the cycle's smallest node (a restore that names the first cycle node its walk met, cell 2, reports another offset).",
        StateRecipe::GridSearch {
            width: 2,
            height: 2,
            space: None,
            area_multipliers: vec![(1, 2.0)],
            edits: vec![(0, 0, 1), (1, 0, 1)],
            search: GridApi::AStar,
            options: GridOptionsData {
                connectivity: 4,
                algorithm: 1,
                ..GridOptionsData::default()
            },
            start: Some((1, 1)),
            goal: Some((0, 0)),
            steps: vec![3],
            run: false,
        },
        None,
    );
}

/// The planned entry of cell 1 (the source of STATE-GRIDREPLANNER-0008's LPA* request) given
/// `g = 5` (its rhs kept at 0).
fn replanner_cell1_g_five(bytes: &[u8]) -> Vec<super::recipes::Splice> {
    planned_g(bytes, 1, 5.0)
}

/// Session 15 (port-mutation judge, seed-43 survivor 8eb5c7afca5d): STATE-GRIDREPLANNER-0012, a
/// patched LPA* state whose walk check cycles between two consistent cells until it has taken
/// `cells` steps.
fn session15a_goldens(push: Push<'_>) {
    // A walk check that never counted its steps passed every earlier vector: every walk of a
    // finish reached the source, a cell with no finite neighbour or an inconsistent cell, so
    // the `cells` bound was never what ended one; without it a cycling walk never ends.
    push(
        StateKind::GridReplanner,
        "Patched: STATE-GRIDREPLANNER-0008's state (LPA*, connectivity 4, a 4x2 map whose cell (1, 1) is a wall, from (1, 0) to (0, 1), planned to the end with cell (2, 0) still queued) with g of the source, cell 1 (1, 0), patched from 0 to 5 (its rhs kept at 0). Finished after the restore, the top key is not below key(target) and the target is consistent, so the walk check runs: from the target (0, 1) to (0, 0), whose smallest neighbour value is now the target's (g 2 + 1 against the source's 5 + 1), and back; both cells are consistent, so the walk cycles between them until it has taken `cells` = 8 steps, which ends planning [REPLAN.COMPUTE.STOP]: no iteration, Found with the target's g 2, and a path query that fails with path_cycle [REPLAN.PATH.BROKEN] (a walk check that does not count its steps never ends).",
        lpa_four_by_two(),
        Some(replanner_cell1_g_five),
    );
}

/// Session 18 (port-mutation judge, seed-43 survivor ded819e36179): STATE-VOXEL-0006, a voxel
/// grid three chunks deep whose restore reports voxels of chunk layers 1 and 2.
fn session18_goldens(push: Push<'_>) {
    // A listener pass that took the chunk of a voxel at z >= 16 from a wrong layer passed every
    // earlier vector: no voxel golden was more than two chunk layers deep, and with two layers a
    // chunk index that went negative by one layer's chunks wrapped (in a port whose lists take
    // negative indexes from the end) onto the right chunk.
    push(
        StateKind::VoxelGrid,
        "A 3x2x40 voxel grid (1x1x3 chunks, default area 0) with edits in chunk layers 0, 1 and 2: (0, 0, 0) area 1, (2, 1, 17) area 7, (1, 0, 31) area 4, (0, 1, 33) area 255 and (2, 0, 39) area 9. The restore into a new target and the reverse restore report each edited voxel once, in ascending node index, with the old and new value read from its own chunk, the one of layer z >> 4 [GRID.LISTEN.RESTORE] [GRID.VOXEL.CHUNKS] (a pass that reads a voxel of layer 1 or 2 from another layer reports other calls).",
        StateRecipe::VoxelGrid {
            size: [3, 2, 40],
            default_area: 0,
            space: None,
            area_multipliers: vec![],
            edits: vec![
                (0, 0, 0, 1),
                (2, 1, 17, 7),
                (1, 0, 31, 4),
                (0, 1, 33, 255),
                (2, 0, 39, 9),
            ],
        },
        None,
    );
    // A mode-3 heap check that refused a slot equal to its parent passed every earlier vector:
    // [GS.STATE.MODE3.CHECKS] asks only that no slot precede its parent, and no hostile case
    // copied a parent's entry into its child.
    push(
        StateKind::GridSearch,
        "Patched: mode 3 (JPS through the handle, default options) on an 8x8 map with walls at (3, 3) and (4, 5), from (0, 0) to (7, 7), saved after step(6), with heap slot 0 copied into a new slot 1 (the heap count 2 made 3, the old slot 1 moved to slot 2). The copy equals its parent, which [GS.STATE.MODE3.CHECKS] allows (heap_order only for a slot whose (F, T) precedes its parent's), so the restore succeeds (a check that also refuses an equal slot reports heap_order at slot 1).",
        StateRecipe::GridSearch {
            width: 8,
            height: 8,
            space: None,
            area_multipliers: vec![],
            edits: vec![(3, 3, 255), (4, 5, 255)],
            search: crate::grid::GridApi::Handle,
            options: crate::grid::GridOptionsData {
                algorithm: 2,
                ..crate::grid::GridOptionsData::default()
            },
            start: Some((0, 0)),
            goal: Some((7, 7)),
            steps: vec![6],
            run: false,
        },
        Some(handle_heap_slot0_doubled),
    );
}

/// A mode-3 state's heap with slot 0 copied into a new slot 1 (the heap count one more): the
/// copy equals its parent, and every later slot keeps a parent it does not precede as long as
/// the heap had at most five slots.
fn handle_heap_slot0_doubled(bytes: &[u8]) -> Vec<super::recipes::Splice> {
    let l = super::layout::walk(StateKind::GridSearch, bytes);
    let h = l.handle.expect("a kind-12 state in mode 1 or 3");
    assert!(
        h.mode == 3 && (1..=5).contains(&h.heap.len()),
        "mode {} heap {}",
        h.mode,
        h.heap.len()
    );
    let count = h.heap.len() as i32 + 1;
    let slot0 = h.heap[0].0;
    vec![
        (h.heap_count_at, 4, count.to_le_bytes().to_vec()),
        (slot0 + 16, 0, bytes[slot0..slot0 + 16].to_vec()),
    ]
}
