//! [CONF.DEBUG.SVG] Searches drawn over a grid: a square or hex path with its expansions
//! coloured by order, a voxel path projected on x-y with its height as colour, a replanner's
//! settled and reset nodes in two colours; the expansion and path layers graphs share.

use super::grid::{rect, Cells, Voxels};
use super::style::{self, Pen};
use super::{fields, finite2, finite3, Backdrop, Geo, MAX_MARKS};
use crate::debug::{Description, ExpansionKind, PathData, ReplanData, VoxelPathData};
use crate::port::wire::Real;
use svg::node::element::{Circle, Group, Line, Polyline};
use svg::Node;

/// The layers of a grid description (everything but a graph path) and its legend.
pub(super) fn describe(
    pen: &Pen,
    d: &Description,
    geo: &Geo,
    b: &Backdrop,
    notes: &mut Vec<String>,
) -> (Vec<Group>, String) {
    match d {
        Description::Path(p) => path(pen, p, &geo.cells, notes),
        Description::Replan(r) => replan(pen, r, &geo.cells, notes),
        Description::VoxelPath(v) => voxel(pen, v, &geo.voxels, notes),
        Description::Flow(f) => fields::flow(pen, f, &geo.cells, notes),
        Description::Hierarchy(h) => fields::hierarchy(pen, h, &geo.cells, b, notes),
        Description::GraphPath(_) => (Vec::new(), String::new()),
    }
}

/// Entry `i` of a list of `points` beside a list of `cells`: the point when finite, else the
/// cell's centre.
pub(super) fn pick(points: &[[Real; 2]], cells: &[u32], i: usize, geo: &Cells) -> Option<[f64; 2]> {
    points
        .get(i)
        .and_then(finite2)
        .or_else(|| cells.get(i).map(|&c| geo.centre(c as u64)))
}

/// As [`pick`] for voxels (x, y and z).
pub(super) fn pick3(
    points: &[[Real; 3]],
    cells: &[u32],
    i: usize,
    geo: &Voxels,
) -> Option<[f64; 3]> {
    points
        .get(i)
        .and_then(finite3)
        .or_else(|| cells.get(i).map(|&c| geo.centre(c as u64)))
}

/// The resolvable entries of two parallel lists, at most `cap`.
fn resolved<T>(
    n: usize,
    cap: usize,
    what: &str,
    notes: &mut Vec<String>,
    at: impl Fn(usize) -> Option<T>,
) -> Vec<(usize, T)> {
    if n > cap {
        notes.push(format!("{what}: the first {cap} of {n} drawn"));
    }
    let out: Vec<(usize, T)> = (0..n.min(cap))
        .filter_map(|i| at(i).map(|p| (i, p)))
        .collect();
    let missing = n.min(cap) - out.len();
    if missing > 0 {
        notes.push(format!("{what}: {missing} entries without a point"));
    }
    out
}

/// One small square per expansion, `fill(i)` coloured.
pub(super) fn expansion_marks(
    pen: &Pen,
    title: &str,
    pts: &[(usize, [f64; 2])],
    fill: impl Fn(usize) -> String,
) -> Group {
    let mut g = pen.layer("expanded", title);
    let side = pen.size(0.45, 2.5, 18.0);
    for &(i, p) in pts {
        g.append(
            rect(
                pen,
                p[0] - side / 2.0,
                p[1] - side / 2.0,
                side,
                side,
                &fill(i),
            )
            .set("class", "exp")
            .set("fill-opacity", 0.9),
        );
    }
    g
}

/// The path layer: a polyline through the points, the start (circle) and goal (square).
pub(super) fn route(
    pen: &Pen,
    title: &str,
    pts: &[[f64; 2]],
    ends: Option<([f64; 2], [f64; 2])>,
) -> Group {
    let mut g = pen.layer("path", title);
    if !pts.is_empty() {
        g.append(
            Polyline::new()
                .set("class", "route")
                .set("points", pen.points(pts))
                .set("fill", "none")
                .set("stroke", style::PATH)
                .set("stroke-width", pen.num(pen.size(0.14, 1.5, 6.0)))
                .set("stroke-linejoin", "round")
                .set("stroke-linecap", "round")
                .set("stroke-opacity", 0.9),
        );
    }
    if let Some((start, goal)) = ends.or_else(|| Some((*pts.first()?, *pts.last()?))) {
        let r = pen.size(0.3, 4.0, 12.0);
        let edge = pen.num(pen.px(1.5));
        g.append(
            Circle::new()
                .set("class", "start")
                .set("cx", pen.x(start[0]))
                .set("cy", pen.y(start[1]))
                .set("r", pen.num(r))
                .set("fill", style::START)
                .set("stroke", "#ffffff")
                .set("stroke-width", edge.clone()),
        );
        g.append(
            rect(
                pen,
                goal[0] - 0.85 * r,
                goal[1] - 0.85 * r,
                1.7 * r,
                1.7 * r,
                style::GOAL,
            )
            .set("class", "goal")
            .set("stroke", "#ffffff")
            .set("stroke-width", edge),
        );
    }
    g
}

const ORDER_LEGEND: &str = "squares: expansions in order, first blue to last yellow";
const ROUTE_LEGEND: &str = "red line: path; green circle: start; purple square: goal";

fn path(pen: &Pen, p: &PathData, geo: &Cells, notes: &mut Vec<String>) -> (Vec<Group>, String) {
    let n = p.expanded.len().max(p.expanded_points.len());
    let exp = resolved(n, MAX_MARKS, "expanded", notes, |i| {
        pick(&p.expanded_points, &p.expanded, i, geo)
    });
    let m = p.cells.len().max(p.points.len());
    let pts: Vec<[f64; 2]> = resolved(m, MAX_MARKS, "path", notes, |i| {
        pick(&p.points, &p.cells, i, geo)
    })
    .into_iter()
    .map(|(_, q)| q)
    .collect();
    (
        vec![
            expansion_marks(
                pen,
                &format!("Expanded: {n} entries in order, first blue to last yellow"),
                &exp,
                |i| style::order(i, n),
            ),
            route(pen, &format!("Path: {} points", pts.len()), &pts, None),
        ],
        format!("{ORDER_LEGEND}; {ROUTE_LEGEND}"),
    )
}

fn replan(pen: &Pen, r: &ReplanData, geo: &Cells, notes: &mut Vec<String>) -> (Vec<Group>, String) {
    let n = r.expanded.len().max(r.expanded_points.len());
    let exp = resolved(n, MAX_MARKS, "expanded", notes, |i| {
        pick(&r.expanded_points, &r.expanded, i, geo)
    });
    if r.expanded_kinds.len() != n {
        notes.push(format!(
            "expanded_kinds: {} entries for {n} expansions (grey: no kind)",
            r.expanded_kinds.len()
        ));
    }
    let m = r.cells.len().max(r.points.len());
    let pts: Vec<[f64; 2]> = resolved(m, MAX_MARKS, "path", notes, |i| {
        pick(&r.points, &r.cells, i, geo)
    })
    .into_iter()
    .map(|(_, q)| q)
    .collect();
    let ends = (geo.centre(r.start as u64), geo.centre(r.goal as u64));
    (
        vec![
            expansion_marks(
                pen,
                &format!("Expanded: {n} nodes the last replan settled (blue) or reset (orange)"),
                &exp,
                |i| {
                    match r.expanded_kinds.get(i) {
                        Some(ExpansionKind::Settle) => style::SETTLE,
                        Some(ExpansionKind::Reset) => style::RESET,
                        None => style::UNKNOWN_KIND,
                    }
                    .to_string()
                },
            ),
            route(
                pen,
                &format!("Path: {} points; start and goal cells", pts.len()),
                &pts,
                Some(ends),
            ),
        ],
        format!("blue squares: settled; orange squares: reset; {ROUTE_LEGEND}"),
    )
}

fn voxel(
    pen: &Pen,
    v: &VoxelPathData,
    geo: &Voxels,
    notes: &mut Vec<String>,
) -> (Vec<Group>, String) {
    let n = v.expanded.len().max(v.expanded_points.len());
    let exp: Vec<(usize, [f64; 2])> = resolved(n, MAX_MARKS, "expanded", notes, |i| {
        pick3(&v.expanded_points, &v.expanded, i, geo)
    })
    .into_iter()
    .map(|(i, p)| (i, [p[0], p[1]]))
    .collect();
    let m = v.cells.len().max(v.points.len());
    let pts3: Vec<[f64; 3]> = resolved(m, MAX_MARKS, "path", notes, |i| {
        pick3(&v.points, &v.cells, i, geo)
    })
    .into_iter()
    .map(|(_, q)| q)
    .collect();
    let pts: Vec<[f64; 2]> = pts3.iter().map(|p| [p[0], p[1]]).collect();
    let mut heights = pen.layer(
        "heights",
        "Path height (z): segments and points coloured dark (low) to pale (high)",
    );
    // Thinner than the red route under it, which shows as an outline.
    let width = pen.num(0.55 * pen.size(0.14, 1.5, 6.0));
    for w in pts3.windows(2).take(MAX_MARKS) {
        let z = geo.height((w[0][2] + w[1][2]) / 2.0);
        heights.append(
            Line::new()
                .set("x1", pen.x(w[0][0]))
                .set("y1", pen.y(w[0][1]))
                .set("x2", pen.x(w[1][0]))
                .set("y2", pen.y(w[1][1]))
                .set("stroke", style::height(z))
                .set("stroke-width", width.clone())
                .set("stroke-linecap", "round"),
        );
    }
    let r = pen.size(0.12, 1.5, 4.0);
    for p in pts3.iter().take(MAX_MARKS) {
        heights.append(
            Circle::new()
                .set("class", "height")
                .set("cx", pen.x(p[0]))
                .set("cy", pen.y(p[1]))
                .set("r", pen.num(r))
                .set("fill", style::height(geo.height(p[2]))),
        );
    }
    (
        vec![
            expansion_marks(
                pen,
                &format!("Expanded: {n} voxels (x-y projection) in order, first blue to last yellow"),
                &exp,
                |i| style::order(i, n),
            ),
            route(
                pen,
                &format!("Path: {} points projected on x-y", pts.len()),
                &pts,
                None,
            ),
            heights,
        ],
        format!("{ORDER_LEGEND}; path coloured by height, dark low to pale high; green: start; purple: goal"),
    )
}
