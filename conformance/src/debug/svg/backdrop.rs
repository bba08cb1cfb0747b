//! [CONF.DEBUG.SVG] The backdrop of a describe request ([CONF.DEBUG.REQUEST]): the grid or graph
//! a description was computed on, read from the request alone (the kit's own reading, no
//! implementation involved): a map's cells and multipliers, an HPA* request's edits up to the
//! entry drawn, a replan or flow script's cell and area edits with its saves and rollbacks, a
//! graph's edges and positions (a points case's links as the reference crate builds them).

use super::Backdrop;
use crate::debug::DescribeRequest;
use crate::grid::vectors::MapFile;
use crate::replan::ReplanStep;
use crate::scenario::GraphSpec;

/// A map's area ids (`cells` decoded from lowercase hex; empty when it is not hex).
fn decode(cells: &str) -> Vec<u8> {
    hex::decode(cells).unwrap_or_default()
}

/// The plane of a map.
fn plane(map: &MapFile, hex_layout: Option<i32>) -> Backdrop {
    Backdrop::Plane {
        width: map.width,
        height: map.height,
        cells: decode(&map.cells),
        multipliers: map.multipliers.clone(),
        space: map.space,
        hex_layout,
    }
}

/// One grid edit of a script.
enum Edit {
    Cell(u32, u32, u8),
    Area(u8, f64),
    Save,
    Rollback,
    Other,
}

/// A saved grid: its area ids and its multiplier calls.
type Saved = (Vec<u8>, Vec<(u8, f64)>);

/// The plane of a map after a script's edits: `set_cell` and `set_area_multiplier` calls that
/// the grid accepts, a save keeping the grid and a rollback restoring it.
fn edited(map: &MapFile, hex_layout: Option<i32>, edits: impl Iterator<Item = Edit>) -> Backdrop {
    let mut b = plane(map, hex_layout);
    let Backdrop::Plane {
        width,
        height,
        cells,
        multipliers,
        ..
    } = &mut b
    else {
        return b;
    };
    let mut slot: Option<Saved> = None;
    for e in edits {
        match e {
            Edit::Cell(x, y, area) if x < *width && y < *height => {
                let i = y as usize * *width as usize + x as usize;
                if let Some(c) = cells.get_mut(i) {
                    *c = area;
                }
            }
            Edit::Area(area, m) if area <= 254 && m.is_finite() && m > 0.0 => {
                multipliers.push((area, m))
            }
            Edit::Save => slot = Some((cells.clone(), multipliers.clone())),
            Edit::Rollback => {
                if let Some((c, m)) = &slot {
                    *cells = c.clone();
                    *multipliers = m.clone();
                }
            }
            _ => {}
        }
    }
    b
}

impl Backdrop {
    /// [CONF.DEBUG.SVG] What entry `entry` of the reply to `r` is drawn over ([CONF.DEBUG.REPLY]
    /// order): the request's grid (for `hpa`, after the edits of the queries up to that entry;
    /// the hierarchy entry after all of them; for `replan` and `flow`, after the script's
    /// edits), or its graph.
    pub fn of_request(r: &DescribeRequest, entry: usize) -> Backdrop {
        match r {
            DescribeRequest::Grid(b) | DescribeRequest::Bidi(b) => plane(&b.map, None),
            DescribeRequest::Hex(h) => plane(&h.map, Some(h.layout)),
            DescribeRequest::Voxel(v) => Backdrop::Volume {
                size: v.size,
                cells: decode(&v.cells),
                space: v.space,
            },
            DescribeRequest::Hpa(h) => edited(
                &h.map,
                None,
                h.queries
                    .iter()
                    .take(entry.saturating_add(1))
                    .flat_map(|q| q.edits.iter().map(|&(x, y, a)| Edit::Cell(x, y, a))),
            ),
            DescribeRequest::Replan(rq) => edited(
                &rq.grid.map,
                rq.grid.hex_layout,
                rq.script.iter().map(|s| match s {
                    ReplanStep::SetCell { x, y, area } => Edit::Cell(*x, *y, *area),
                    ReplanStep::SetArea { area, multiplier } => Edit::Area(*area, *multiplier),
                    ReplanStep::Save {} => Edit::Save,
                    ReplanStep::Rollback {} => Edit::Rollback,
                    _ => Edit::Other,
                }),
            ),
            DescribeRequest::Flow(rq) => {
                use crate::flow::FlowStep;
                edited(
                    &rq.grid.map,
                    rq.grid.hex_layout,
                    rq.script.iter().map(|s| match s {
                        FlowStep::SetCell { x, y, area } => Edit::Cell(*x, *y, *area),
                        FlowStep::SetArea { area, multiplier } => Edit::Area(*area, *multiplier),
                        FlowStep::Save {} => Edit::Save,
                        FlowStep::Rollback {} | FlowStep::RollbackGrid {} => Edit::Rollback,
                        _ => Edit::Other,
                    }),
                )
            }
            DescribeRequest::Graph(t) => graph(&t.case.graph),
        }
    }
}

/// The graph of a case: an edges case as listed, a points case with the links the reference
/// crate's `PointGraph` builds (each link once), positions its points.
fn graph(spec: &GraphSpec) -> Backdrop {
    match spec {
        GraphSpec::Edges {
            node_count,
            edges,
            positions,
            ..
        } => Backdrop::Graph {
            node_count: *node_count,
            edges: edges.iter().map(|&(a, b, _)| (a, b)).collect(),
            positions: positions.clone(),
        },
        GraphSpec::Points {
            points,
            explicit,
            max_distance,
            nearest_count,
        } => {
            use onepath_reference as op;
            let pts: Vec<op::Point3> = points
                .iter()
                .map(|p| op::Point3::new(p[0], p[1], p[2]))
                .collect();
            let options = op::LinkOptions {
                explicit: explicit.iter().map(|l| (l[0], l[1])).collect(),
                max_distance: *max_distance,
                nearest_count: *nearest_count as usize,
                link_valid: None,
            };
            let mut seen = std::collections::HashSet::new();
            let mut edges = Vec::new();
            if let Ok(pg) = op::PointGraph::new(&pts, &options) {
                let csr = pg.csr();
                let (offsets, targets) = (csr.offsets(), csr.targets());
                for v in 0..csr.node_count() {
                    let slots = offsets[v] as usize..offsets[v + 1] as usize;
                    for &t in &targets[slots] {
                        let v = v as u32;
                        if seen.insert((v.min(t), v.max(t))) {
                            edges.push((v, t));
                        }
                    }
                }
            }
            Backdrop::Graph {
                node_count: u32::try_from(points.len()).unwrap_or(u32::MAX),
                edges,
                positions: Some(points.clone()),
            }
        }
    }
}
