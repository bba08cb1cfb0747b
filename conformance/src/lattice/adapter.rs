//! The hex- and voxel-search half of the in-process adapters ([CONF.IMPL.ADAPTERS]): one
//! `macro_rules!` body instantiated for both crates, so a difference between them is always a
//! crate bug; `adapters.rs` forwards
//! [`Implementation::run_lattice`](crate::Implementation::run_lattice) here.

use super::{
    HexRequest, LatticeReply, LatticeRequest, PathReply, Query, QueryReply, VoxelRequest,
    MAX_STEP_CALLS,
};
use crate::error::{ErrorKind, HarnessError};
use crate::port::wire::Real;

/// A malformed request ([CONF.LATTICE.REQUEST]): a harness error naming what.
fn malformed(what: String) -> HarnessError {
    HarnessError::new(ErrorKind::Schema, format!("lattice request: {what}"))
}

/// The cells of a request, checked against the grid's size: `count` cells, or none for a size
/// `new` rejects (0 or more than 2^26 cells, [CONF.VEC.MAPS]).
pub(crate) fn cells(hex: &str, count: u64) -> Result<Vec<u8>, HarnessError> {
    let cells = hex::decode(hex).map_err(|e| malformed(format!("cells are not hex: {e}")))?;
    let rejected = crate::envelope::size_rejected(u128::from(count));
    if cells.len() as u64 != count && !(rejected && cells.is_empty()) {
        return Err(malformed(format!(
            "{} cells for a grid of {count}",
            cells.len()
        )));
    }
    Ok(cells)
}

/// Checks the shape-independent parts of a request: the ends' lengths, the layout, the voxel
/// connectivity, the diagonal rule and the algorithm code.
pub(crate) fn validate(r: &LatticeRequest) -> Result<(), HarnessError> {
    let (dims, diagonal, algorithm) = match r {
        LatticeRequest::Hex(h) => {
            if !(0..=3).contains(&h.layout) {
                return Err(malformed(format!("layout {} is not 0-3", h.layout)));
            }
            (2, h.options.diagonal, h.options.algorithm)
        }
        LatticeRequest::Voxel(v) => {
            if ![6, 18, 26].contains(&v.options.connectivity) {
                return Err(malformed(format!(
                    "connectivity {} is not 6, 18 or 26",
                    v.options.connectivity
                )));
            }
            (3, v.options.diagonal, v.options.algorithm)
        }
    };
    if diagonal > 2 {
        return Err(malformed(format!("diagonal {diagonal} is not 0-2")));
    }
    if algorithm > 5 {
        return Err(malformed(format!("algorithm {algorithm} is not 0-5")));
    }
    for (i, q) in r.queries().iter().enumerate() {
        if q.cancel.is_some() && !q.schedule.is_empty() {
            return Err(malformed(format!(
                "query {i}: a cancel query with a schedule"
            )));
        }
        if q.start.len() != dims || q.goal.len() != dims {
            return Err(malformed(format!(
                "query {i}: ends of {} and {} members on a grid of {dims} axes",
                q.start.len(),
                q.goal.len()
            )));
        }
    }
    Ok(())
}

/// [CONF.LATTICE.CANCEL] After `begin`: `step(k)` when `k > 0`, two runs with the
/// flag set and one with it cleared; the trace: `[status(), iterations()]`, then each
/// cancelled run's returned status and `iterations()` (`search_status` is the caller's, for
/// its crate).
macro_rules! cancel_trace {
    ($s:expr, $k:expr) => {{
        if $k > 0 {
            $s.step($k);
        }
        let flag = std::sync::atomic::AtomicBool::new(true);
        let mut t = vec![(search_status($s.status()), $s.iterations())];
        for _ in 0..2 {
            let returned = $s.run(Some(&flag));
            t.push((search_status(returned), $s.iterations()));
        }
        flag.store(false, std::sync::atomic::Ordering::SeqCst);
        $s.run(Some(&flag));
        t
    }};
}
pub(crate) use cancel_trace;

macro_rules! define_lattice_adapter {
    ($module:ident, $krate:ident, $grid_adapter:ident) => {
        /// Hex and voxel requests on one crate.
        pub mod $module {
            use super::*;
            use ::$krate as op;
            use std::sync::Arc;

            fn algorithm(code: u8) -> op::GridAlgorithm {
                match code {
                    1 => op::GridAlgorithm::Dijkstra,
                    2 => op::GridAlgorithm::Jps,
                    3 => op::GridAlgorithm::JpsPlus,
                    4 => op::GridAlgorithm::Theta,
                    5 => op::GridAlgorithm::LazyTheta,
                    _ => op::GridAlgorithm::AStar,
                }
            }

            fn search_status(s: op::SearchStatus) -> u8 {
                match s {
                    op::SearchStatus::NotStarted => 0,
                    op::SearchStatus::Running => 1,
                    op::SearchStatus::Found => 2,
                    op::SearchStatus::NotFound => 3,
                }
            }

            fn path_status(s: op::PathStatus) -> u8 {
                match s {
                    op::PathStatus::Found => 2,
                    op::PathStatus::NotFound => 3,
                    op::PathStatus::BudgetExhausted => 4,
                }
            }

            fn diagonal(code: u8) -> op::DiagonalRule {
                match code {
                    0 => op::DiagonalRule::Always,
                    1 => op::DiagonalRule::AtMostOneBlocked,
                    _ => op::DiagonalRule::NoneBlocked,
                }
            }

            /// The crate's voxel options for the data.
            pub(crate) fn voxel_options(o: &super::super::VoxelOptionsData) -> op::VoxelOptions {
                let cell_cost: Option<op::CellCostFn> = o.cell_cost.map(|r| {
                    let f: op::CellCostFn = Arc::new(move |a: u32, b: u32| r.extra(a, b));
                    f
                });
                let blocked: Option<op::CellBlockedFn> = o.blocked.map(|r| {
                    let f: op::CellBlockedFn = Arc::new(move |c: u32| r.blocked(c));
                    f
                });
                op::VoxelOptions {
                    connectivity: match o.connectivity {
                        6 => op::VoxelConnectivity::Six,
                        18 => op::VoxelConnectivity::Eighteen,
                        _ => op::VoxelConnectivity::TwentySix,
                    },
                    diagonal: diagonal(o.diagonal),
                    algorithm: algorithm(o.algorithm),
                    cell_cost,
                    blocked,
                    heuristic_weight: o.weight,
                    iteration_budget: o.budget,
                    record_expansions: o.record,
                }
            }

            /// [CONF.LATTICE.QUERY] One query: tier 1 with an empty schedule, else `new`,
            /// `begin` and the step loop; `$xy` turns the query's end into the crate's.
            macro_rules! query {
                ($grid:expr, $q:expr, $options:expr, $find:path, $search:path, $point:expr, $end:expr) => {{
                    let q: &Query = $q;
                    let (start, goal) = ($end(&q.start), $end(&q.goal));
                    if q.schedule.is_empty() && q.cancel.is_none() {
                        match $find(&$grid, start, goal, &$options) {
                            Err(e) => QueryReply::Error(e.class().to_string()),
                            Ok(p) => QueryReply::Path(PathReply {
                                status: path_status(p.status),
                                algorithm: p.algorithm as u8,
                                cost: Real(p.cost),
                                cells: p.cells,
                                points: p.points.iter().map($point).collect(),
                                expanded: p.expanded,
                                expanded_count: p.expanded_count,
                                iterations: p.iterations,
                                cancel: None,
                            }),
                        }
                    } else {
                        let mut s = match <$search>::new(&$grid, $options.clone()) {
                            Ok(s) => s,
                            Err(e) => return_query!(e),
                        };
                        match s.begin(start, goal) {
                            Ok(()) => {
                                let cancel = q.cancel.map(|k| {
                                    cancel_trace!(s, k)
                                });
                                let mut calls = 0u64;
                                while cancel.is_none()
                                    && s.status() == op::SearchStatus::Running
                                    && calls < MAX_STEP_CALLS
                                {
                                    s.step(q.schedule[(calls % q.schedule.len() as u64) as usize]);
                                    calls += 1;
                                }
                                QueryReply::Path(PathReply {
                                    status: search_status(s.status()),
                                    algorithm: $options.algorithm as u8,
                                    cost: Real(s.path_cost()),
                                    cells: s.path(),
                                    points: vec![],
                                    expanded: s.expansions().to_vec(),
                                    expanded_count: s.expanded_count(),
                                    iterations: s.iterations(),
                                    cancel,
                                })
                            }
                            Err(e) => QueryReply::Error(e.class().to_string()),
                        }
                    }
                }};
            }

            macro_rules! return_query {
                ($e:expr) => {
                    return QueryReply::Error($e.class().to_string())
                };
            }

            fn hex_query(grid: &op::HexGrid, q: &Query, o: &op::GridOptions) -> QueryReply {
                let end = |v: &Vec<u32>| (v[0] as usize, v[1] as usize);
                query!(
                    grid,
                    q,
                    o,
                    op::find_hex_path,
                    op::HexSearch,
                    |&(x, y): &(f64, f64)| vec![Real(x), Real(y)],
                    end
                )
            }

            fn voxel_query(grid: &op::VoxelGrid, q: &Query, o: &op::VoxelOptions) -> QueryReply {
                let end = |v: &Vec<u32>| (v[0] as usize, v[1] as usize, v[2] as usize);
                query!(
                    grid,
                    q,
                    o,
                    op::find_voxel_path,
                    op::VoxelSearch,
                    |&(x, y, z): &(f64, f64, f64)| vec![Real(x), Real(y), Real(z)],
                    end
                )
            }

            /// [CONF.LATTICE.REQUEST] The hex grid, then its queries.
            fn run_hex(r: &HexRequest) -> Result<LatticeReply, HarnessError> {
                let g = match hex_grid(r)? {
                    Ok(g) => g,
                    Err(class) => return Ok(LatticeReply::Failed(class)),
                };
                let o = crate::grid::adapter::$grid_adapter::options(&r.options);
                Ok(LatticeReply::Ran(
                    r.queries.iter().map(|q| hex_query(&g, q, &o)).collect(),
                ))
            }

            /// [CONF.LATTICE.REQUEST] The hex grid of a request; `Ok(Err(class))` when a
            /// constructor or setter failed.
            pub(crate) fn hex_grid(
                r: &HexRequest,
            ) -> Result<Result<op::HexGrid, String>, HarnessError> {
                let m = &r.map;
                let cells = cells(&m.cells, u64::from(m.width) * u64::from(m.height))?;
                let failed = |e: &dyn HasClass| Ok(Err(e.class_name()));
                let layout = match op::HexLayout::try_from(r.layout) {
                    Ok(l) => l,
                    Err(e) => return failed(&e),
                };
                let mut g = match op::HexGrid::new(m.width as usize, m.height as usize, layout) {
                    Ok(g) => g,
                    Err(e) => return failed(&e),
                };
                for &(a, v) in &m.multipliers {
                    if let Err(e) = g.set_area_multiplier(a, v) {
                        return failed(&e);
                    }
                }
                if let Some([ox, oy, s]) = m.space {
                    if let Err(e) = g.set_space(op::GridSpace {
                        origin_x: ox,
                        origin_y: oy,
                        cell_size: s,
                    }) {
                        return failed(&e);
                    }
                }
                let w = m.width as usize;
                for (i, &c) in cells.iter().enumerate() {
                    if c != 0 {
                        if let Err(e) = g.set_cell(i % w, i / w, c) {
                            return failed(&e);
                        }
                    }
                }
                Ok(Ok(g))
            }

            /// [CONF.LATTICE.REQUEST] The voxel grid, then its queries.
            fn run_voxel(r: &VoxelRequest) -> Result<LatticeReply, HarnessError> {
                let g = match voxel_grid(r)? {
                    Ok(g) => g,
                    Err(class) => return Ok(LatticeReply::Failed(class)),
                };
                let o = voxel_options(&r.options);
                Ok(LatticeReply::Ran(
                    r.queries.iter().map(|q| voxel_query(&g, q, &o)).collect(),
                ))
            }

            /// [CONF.LATTICE.REQUEST] The voxel grid of a request; `Ok(Err(class))` when a
            /// constructor or setter failed.
            pub(crate) fn voxel_grid(
                r: &VoxelRequest,
            ) -> Result<Result<op::VoxelGrid, String>, HarnessError> {
                let [sx, sy, sz] = r.size;
                let n = u64::from(sx) * u64::from(sy) * u64::from(sz);
                let cells = cells(&r.cells, n)?;
                let failed = |e: &dyn HasClass| Ok(Err(e.class_name()));
                let mut g = match op::VoxelGrid::new(sx as usize, sy as usize, sz as usize, 0) {
                    Ok(g) => g,
                    Err(e) => return failed(&e),
                };
                for &(a, v) in &r.multipliers {
                    if let Err(e) = g.set_area_multiplier(a, v) {
                        return failed(&e);
                    }
                }
                if let Some([ox, oy, oz, s]) = r.space {
                    if let Err(e) = g.set_space(op::VoxelSpace {
                        origin_x: ox,
                        origin_y: oy,
                        origin_z: oz,
                        cell_size: s,
                    }) {
                        return failed(&e);
                    }
                }
                let (sx, sy) = (sx as usize, sy as usize);
                for (i, &c) in cells.iter().enumerate() {
                    if c != 0 {
                        if let Err(e) = g.set_voxel(i % sx, (i / sx) % sy, i / (sx * sy), c) {
                            return failed(&e);
                        }
                    }
                }
                Ok(Ok(g))
            }

            /// [CONF.GRID.MAP] A square grid of a map: `Grid::new`, the multipliers in order, the
            /// space, then `set_cell` for every non-zero cell in index order (`cells` decoded).
            pub(crate) fn square_grid(
                m: &crate::grid::vectors::MapFile,
                cells: &[u8],
            ) -> Result<op::Grid, op::GridError> {
                let mut g = op::Grid::new(m.width as usize, m.height as usize)?;
                for &(a, v) in &m.multipliers {
                    g.set_area_multiplier(a, v)?;
                }
                if let Some([ox, oy, s]) = m.space {
                    g.set_space(op::GridSpace {
                        origin_x: ox,
                        origin_y: oy,
                        cell_size: s,
                    })?;
                }
                let w = m.width as usize;
                for (i, &c) in cells.iter().enumerate() {
                    if c != 0 {
                        g.set_cell(i % w, i / w, c)?;
                    }
                }
                Ok(g)
            }

            /// An error with a class, whatever its type.
            trait HasClass {
                fn class_name(&self) -> String;
            }
            impl HasClass for op::GridError {
                fn class_name(&self) -> String {
                    self.class().to_string()
                }
            }

            /// [CONF.IMPL.LATTICE] Builds the grid and runs the queries.
            pub fn run(r: &LatticeRequest) -> Result<LatticeReply, HarnessError> {
                validate(r)?;
                match r {
                    LatticeRequest::Hex(h) => run_hex(h),
                    LatticeRequest::Voxel(v) => run_voxel(v),
                }
            }
        }
    };
}

define_lattice_adapter!(reference_adapter, onepath_reference, reference_adapter);
define_lattice_adapter!(optimized_adapter, onepath, optimized_adapter);
