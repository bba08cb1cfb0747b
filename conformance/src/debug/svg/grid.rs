//! [CONF.DEBUG.SVG] Grids: square and hex cells (walls dark, areas shaded by multiplier), a voxel
//! grid projected on the x-y plane, and the descriptions drawn over them: a path with its
//! expansions (square, hex, voxel with height as colour), a replanner (settled and reset nodes in
//! two colours), a flow field (cost shading and an arrow per step) and an HPA* hierarchy (chunk
//! borders, entrance nodes, intra edges dashed and inter edges solid).

use super::style::{self, Pen, Rect};
use super::{finite2, finite3, Backdrop, Geo, MAX_MARKS};
use crate::debug::{
    Description, ExpansionKind, FlowData, HierarchyData, PathData, ReplanData, VoxelPathData,
};
use crate::port::wire::Real;
use svg::node::element::{Circle, Group, Line, Path, Polygon, Polyline, Rectangle};
use svg::Node;

/// Square or hex cell geometry ([DEBUG.POINTS]): cell `c` is `(c mod w, c div w)`, its centre
/// `(ox + (x + 0.5) s, oy + (y + 0.5) s)` ([GRID.SPACE.CENTER]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cells {
    /// Width (at least 1).
    pub w: u64,
    /// Origin x.
    pub ox: f64,
    /// Origin y.
    pub oy: f64,
    /// Cell size (positive, finite).
    pub s: f64,
}

/// An origin coordinate: finite or 0.
fn origin(v: f64) -> f64 {
    if v.is_finite() {
        v
    } else {
        0.0
    }
}

/// A cell size: positive and finite, or 1.
fn cell_size(v: f64) -> f64 {
    if v.is_finite() && v > 0.0 {
        v
    } else {
        1.0
    }
}

impl Cells {
    /// Width `width` with a grid space (None = `(0, 0, 1)`).
    pub fn of(width: u64, space: Option<[f64; 3]>) -> Cells {
        let [ox, oy, s] = space.unwrap_or([0.0, 0.0, 1.0]);
        Cells {
            w: width.max(1),
            ox: origin(ox),
            oy: origin(oy),
            s: cell_size(s),
        }
    }

    /// The description's width (else the backdrop's) with the backdrop's space.
    pub fn new(b: &Backdrop, d: &Description) -> Cells {
        let (bw, space) = match b {
            Backdrop::Plane { width, space, .. } => (*width as u64, *space),
            Backdrop::Volume { size, space, .. } => {
                (size[0] as u64, space.map(|s| [s[0], s[1], s[3]]))
            }
            Backdrop::Graph { .. } => (1, None),
        };
        let w = match d {
            Description::Path(p) => p.width as u64,
            Description::Replan(r) => r.width as u64,
            Description::Flow(f) => f.width as u64,
            _ => 0,
        };
        Cells::of(if w > 0 { w } else { bw }, space)
    }

    /// The centre of cell `c`.
    pub fn centre(&self, c: u64) -> [f64; 2] {
        [
            self.ox + ((c % self.w) as f64 + 0.5) * self.s,
            self.oy + ((c / self.w) as f64 + 0.5) * self.s,
        ]
    }

    /// The world rectangle of a `w` x `h` grid (at least one cell).
    pub fn extent(&self, w: u64, h: u64) -> Rect {
        Rect {
            x0: self.ox,
            y0: self.oy,
            x1: self.ox + w.max(1) as f64 * self.s,
            y1: self.oy + h.max(1) as f64 * self.s,
        }
    }
}

/// Voxel geometry ([DEBUG.POINTS]): node `c` is `(c mod sx, (c div sx) mod sy, c div (sx sy))`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Voxels {
    /// Size x (at least 1).
    pub sx: u64,
    /// Size y (at least 1).
    pub sy: u64,
    /// Size z.
    pub sz: u64,
    /// Origin.
    pub o: [f64; 3],
    /// Voxel size.
    pub s: f64,
}

impl Voxels {
    /// The description's size (else the backdrop's) with the backdrop's space.
    pub fn new(b: &Backdrop, d: &Description) -> Voxels {
        let (bsize, space) = match b {
            Backdrop::Volume { size, space, .. } => (*size, *space),
            Backdrop::Plane {
                width,
                height,
                space,
                ..
            } => ([*width, *height, 1], space.map(|s| [s[0], s[1], 0.0, s[2]])),
            Backdrop::Graph { .. } => ([1, 1, 1], None),
        };
        let size = match d {
            Description::VoxelPath(v) if v.size.iter().all(|&n| n > 0) => v.size,
            _ => bsize,
        };
        let [ox, oy, oz, s] = space.unwrap_or([0.0, 0.0, 0.0, 1.0]);
        Voxels {
            sx: (size[0] as u64).max(1),
            sy: (size[1] as u64).max(1),
            sz: size[2] as u64,
            o: [origin(ox), origin(oy), origin(oz)],
            s: cell_size(s),
        }
    }

    /// The centre of node `c`.
    pub fn centre(&self, c: u64) -> [f64; 3] {
        [
            self.o[0] + ((c % self.sx) as f64 + 0.5) * self.s,
            self.o[1] + ((c / self.sx % self.sy) as f64 + 0.5) * self.s,
            self.o[2] + ((c / (self.sx * self.sy)) as f64 + 0.5) * self.s,
        ]
    }

    /// The x-y rectangle of an `sx` x `sy` grid.
    pub fn extent(&self, sx: u64, sy: u64) -> Rect {
        Cells {
            w: 1,
            ox: self.o[0],
            oy: self.o[1],
            s: self.s,
        }
        .extent(sx, sy)
    }

    /// A height in `0..=1` over the grid's z range (centres of the lowest and highest layers).
    pub fn height(&self, z: f64) -> f64 {
        if self.sz <= 1 {
            return 0.5;
        }
        (z - self.o[2] - 0.5 * self.s) / ((self.sz - 1) as f64 * self.s)
    }
}

/// The backdrop's grid layers (none for a graph).
pub(super) fn backdrop(pen: &Pen, b: &Backdrop, notes: &mut Vec<String>) -> Vec<Group> {
    match b {
        Backdrop::Plane {
            width,
            height,
            cells,
            multipliers,
            space,
            hex_layout,
        } => {
            let geo = Cells::of(*width as u64, *space);
            let mult = |a: u8| {
                multipliers
                    .iter()
                    .rev()
                    .find(|(m, _)| *m == a)
                    .map_or(1.0, |(_, v)| *v)
            };
            let (w, h) = (*width as u64, *height as u64);
            match hex_layout {
                Some(layout) => hex_plane(pen, geo, w, h, cells, &mult, *layout, notes),
                None => square_plane(pen, geo, w, h, cells, &mult, notes),
            }
        }
        Backdrop::Volume { size, cells, space } => volume(pen, *size, cells, *space, notes),
        Backdrop::Graph { .. } => Vec::new(),
    }
}

/// Row runs `(y, x0, x1, value)` of equal values (`value` None is skipped), at most `cap` runs.
fn runs(
    w: u64,
    h: u64,
    value: impl Fn(u64) -> Option<u32>,
    cap: usize,
) -> (Vec<(u64, u64, u64, u32)>, bool) {
    let mut out = Vec::new();
    for y in 0..h {
        let mut x = 0;
        while x < w {
            let v = value(y * w + x);
            let mut e = x + 1;
            while e < w && value(y * w + e) == v {
                e += 1;
            }
            if let Some(v) = v {
                if out.len() == cap {
                    return (out, true);
                }
                out.push((y, x, e, v));
            }
            x = e;
        }
    }
    (out, false)
}

fn rect(pen: &Pen, x: f64, y: f64, w: f64, h: f64, fill: &str) -> Rectangle {
    Rectangle::new()
        .set("x", pen.x(x))
        .set("y", pen.y(y))
        .set("width", pen.num(w))
        .set("height", pen.num(h))
        .set("fill", fill)
}

fn square_plane(
    pen: &Pen,
    geo: Cells,
    w: u64,
    h: u64,
    cells: &[u8],
    mult: &dyn Fn(u8) -> f64,
    notes: &mut Vec<String>,
) -> Vec<Group> {
    let n = cells.len() as u64;
    let area_of = |i: u64| if i < n { cells[i as usize] } else { 0 };
    let ext = geo.extent(w, h);
    let mut areas = pen.layer(
        "areas",
        "Areas: shaded by multiplier, lighter is cheaper (area 0 is the background)",
    );
    areas.append(rect(
        pen,
        ext.x0,
        ext.y0,
        ext.w(),
        ext.h(),
        &style::area(mult(0)),
    ));
    let (area_runs, cut) = runs(
        w,
        h,
        |i| match area_of(i) {
            0 | 255 => None,
            a => Some(a as u32),
        },
        MAX_MARKS,
    );
    for (y, x0, x1, a) in area_runs {
        areas.append(rect(
            pen,
            geo.ox + x0 as f64 * geo.s,
            geo.oy + y as f64 * geo.s,
            (x1 - x0) as f64 * geo.s,
            geo.s,
            &style::area(mult(a as u8)),
        ));
    }
    if cut {
        notes.push(format!("areas: the first {MAX_MARKS} runs drawn"));
    }
    if w <= 64 && h <= 64 {
        let mut d = String::new();
        for x in 0..=w {
            let gx = geo.ox + x as f64 * geo.s;
            d += &format!("M{},{}V{}", pen.x(gx), pen.y(ext.y0), pen.y(ext.y1));
        }
        for y in 0..=h {
            let gy = geo.oy + y as f64 * geo.s;
            d += &format!("M{},{}H{}", pen.x(ext.x0), pen.y(gy), pen.x(ext.x1));
        }
        areas.append(
            Path::new()
                .set("class", "gridlines")
                .set("d", d)
                .set("stroke", "#000000")
                .set("stroke-opacity", 0.12)
                .set("stroke-width", pen.num(pen.size(0.02, 0.5, 1.0)))
                .set("fill", "none"),
        );
    }
    let mut walls = pen.layer("walls", "Walls (area 255)");
    let (wall_runs, cut) = runs(w, h, |i| (area_of(i) == 255).then_some(1), MAX_MARKS);
    for (y, x0, x1, _) in wall_runs {
        walls.append(rect(
            pen,
            geo.ox + x0 as f64 * geo.s,
            geo.oy + y as f64 * geo.s,
            (x1 - x0) as f64 * geo.s,
            geo.s,
            style::WALL,
        ));
    }
    if cut {
        notes.push(format!("walls: the first {MAX_MARKS} runs drawn"));
    }
    vec![areas, walls]
}

/// The corners of a hexagon of diameter `s` centred on `c` (pointy-top for the row layouts 0
/// and 1, flat-top for the column layouts 2 and 3).
fn hexagon(pen: &Pen, c: [f64; 2], s: f64, layout: i32) -> String {
    let start = if matches!(layout, 2 | 3) { 0.0 } else { 30.0 };
    let pts: Vec<[f64; 2]> = (0..6)
        .map(|k| {
            let a = (start + 60.0 * k as f64).to_radians();
            [c[0] + 0.5 * s * a.cos(), c[1] + 0.5 * s * a.sin()]
        })
        .collect();
    pen.points(&pts)
}

#[allow(clippy::too_many_arguments)]
fn hex_plane(
    pen: &Pen,
    geo: Cells,
    w: u64,
    h: u64,
    cells: &[u8],
    mult: &dyn Fn(u8) -> f64,
    layout: i32,
    notes: &mut Vec<String>,
) -> Vec<Group> {
    let mut areas = pen.layer(
        "areas",
        "Hex cells: a hexagon on each cell's point, shaded by multiplier (lighter is cheaper)",
    );
    let mut walls = pen.layer("walls", "Walls (area 255)");
    let total = w.saturating_mul(h);
    let drawn = total.min(MAX_MARKS as u64);
    for i in 0..drawn {
        let a = cells.get(i as usize).copied().unwrap_or(0);
        let poly = Polygon::new()
            .set("points", hexagon(pen, geo.centre(i), geo.s, layout))
            .set("stroke", "#ffffff")
            .set("stroke-width", pen.num(pen.size(0.04, 0.3, 1.0)));
        if a == 255 {
            walls.append(poly.set("fill", style::WALL));
        } else {
            areas.append(poly.set("fill", style::area(mult(a))));
        }
    }
    if drawn < total {
        notes.push(format!("hex cells: the first {drawn} of {total} drawn"));
    }
    vec![areas, walls]
}

fn volume(
    pen: &Pen,
    size: [u32; 3],
    cells: &[u8],
    space: Option<[f64; 4]>,
    notes: &mut Vec<String>,
) -> Vec<Group> {
    let [sx, sy, sz] = size.map(|n| n as u64);
    let [ox, oy, _, s] = space.unwrap_or([0.0, 0.0, 0.0, 1.0]);
    let geo = Cells::of(sx, Some([ox, oy, s]));
    let ext = geo.extent(sx, sy);
    let mut areas = pen.layer("areas", "Voxel columns (x-y projection)");
    areas.append(rect(
        pen,
        ext.x0,
        ext.y0,
        ext.w(),
        ext.h(),
        &style::area(1.0),
    ));
    let n = cells.len() as u64;
    let columns = sx.saturating_mul(sy);
    let layers = if columns == 0 {
        0
    } else {
        sz.min(n / columns + 1)
    };
    let work = columns.saturating_mul(layers);
    let mut walls = pen.layer(
        "walls",
        "Walls projected on x-y: opacity is the share of the column's voxels that are walls",
    );
    if work > 16 * MAX_MARKS as u64 {
        notes.push(format!("voxel walls: {work} voxels, not drawn"));
        return vec![areas, walls];
    }
    let walls_in = |col: u64| {
        (0..layers)
            .filter(|z| {
                let i = col + z * columns;
                i < n && cells[i as usize] == 255
            })
            .count() as u32
    };
    let (wall_runs, cut) = runs(sx, sy, |i| Some(walls_in(i)).filter(|&k| k > 0), MAX_MARKS);
    for (y, x0, x1, k) in wall_runs {
        walls.append(
            rect(
                pen,
                geo.ox + x0 as f64 * geo.s,
                geo.oy + y as f64 * geo.s,
                (x1 - x0) as f64 * geo.s,
                geo.s,
                style::WALL,
            )
            .set(
                "fill-opacity",
                pen.num(0.15 + 0.85 * k as f64 / sz.max(1) as f64),
            ),
        );
    }
    if cut {
        notes.push(format!("voxel walls: the first {MAX_MARKS} runs drawn"));
    }
    vec![areas, walls]
}

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
        Description::Flow(f) => flow(pen, f, &geo.cells, notes),
        Description::Hierarchy(h) => hierarchy(pen, h, &geo.cells, b, notes),
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
    let width = pen.num(pen.size(0.14, 1.5, 6.0));
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

fn flow(pen: &Pen, f: &FlowData, geo: &Cells, notes: &mut Vec<String>) -> (Vec<Group>, String) {
    let (w, h) = (f.width as u64, f.height as u64);
    let finite: Vec<f64> = f
        .costs
        .iter()
        .map(|c| c.0)
        .filter(|c| c.is_finite())
        .collect();
    let lo = finite.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    const LEVELS: u32 = 24;
    let level = |i: u64| -> Option<u32> {
        let c = f.costs.get(usize::try_from(i).ok()?)?.0;
        if !c.is_finite() {
            return None;
        }
        let t = if hi > lo { (c - lo) / (hi - lo) } else { 0.0 };
        Some((t * (LEVELS - 1) as f64).round() as u32)
    };
    let mut costs = pen.layer(
        "costs",
        "Integration costs: pale cheap to deep blue dear; unreachable cells unshaded",
    );
    let (cost_runs, cut) = runs(w, h, level, MAX_MARKS);
    for (y, x0, x1, l) in cost_runs {
        costs.append(
            rect(
                pen,
                geo.ox + x0 as f64 * geo.s,
                geo.oy + y as f64 * geo.s,
                (x1 - x0) as f64 * geo.s,
                geo.s,
                &style::cost(l as f64 / (LEVELS - 1) as f64),
            )
            .set("fill-opacity", 0.75),
        );
    }
    if cut {
        notes.push(format!("costs: the first {MAX_MARKS} runs drawn"));
    }
    let steps: Vec<(usize, u32)> = f
        .next
        .iter()
        .enumerate()
        .filter_map(|(i, n)| n.map(|n| (i, n)))
        .collect();
    if steps.len() > MAX_MARKS {
        notes.push(format!(
            "steps: the first {MAX_MARKS} of {} drawn",
            steps.len()
        ));
    }
    let mut arrows = pen.layer(
        "flow",
        &format!(
            "Steps: {} arrows, each from a cell toward its next cell",
            steps.len()
        ),
    );
    let stroke = pen.num(pen.size(0.06, 0.6, 2.5));
    for &(i, n) in steps.iter().take(MAX_MARKS) {
        let (a, b) = (geo.centre(i as u64), geo.centre(n as u64));
        let v = [b[0] - a[0], b[1] - a[1]];
        let (p, q) = (
            [a[0] - 0.2 * v[0], a[1] - 0.2 * v[1]],
            [a[0] + 0.55 * v[0], a[1] + 0.55 * v[1]],
        );
        let len = (0.75 * v[0].hypot(v[1])).min(geo.s);
        let ang = v[1].atan2(v[0]);
        let head = |da: f64| {
            let t = ang + std::f64::consts::PI + da;
            [q[0] + 0.35 * len * t.cos(), q[1] + 0.35 * len * t.sin()]
        };
        let (h1, h2) = (head(0.5), head(-0.5));
        arrows.append(
            Path::new()
                .set("class", "arrow")
                .set(
                    "d",
                    format!(
                        "M{},{}L{},{}M{},{}L{},{}L{},{}",
                        pen.x(p[0]),
                        pen.y(p[1]),
                        pen.x(q[0]),
                        pen.y(q[1]),
                        pen.x(h1[0]),
                        pen.y(h1[1]),
                        pen.x(q[0]),
                        pen.y(q[1]),
                        pen.x(h2[0]),
                        pen.y(h2[1])
                    ),
                )
                .set("fill", "none")
                .set("stroke", style::ARROW)
                .set("stroke-opacity", 0.8)
                .set("stroke-width", stroke.clone())
                .set("stroke-linecap", "round")
                .set("stroke-linejoin", "round"),
        );
    }
    let mut goals = pen.layer("goals", &format!("Goals: {}", f.goals.len()));
    let side = pen.size(0.6, 5.0, 20.0);
    for &g in f.goals.iter().take(MAX_MARKS) {
        let c = geo.centre(g as u64);
        goals.append(
            rect(
                pen,
                c[0] - side / 2.0,
                c[1] - side / 2.0,
                side,
                side,
                style::GOAL,
            )
            .set("class", "goal")
            .set("stroke", "#ffffff")
            .set("stroke-width", pen.num(pen.px(1.5))),
        );
    }
    (
        vec![costs, arrows, goals],
        "shading: integration cost, pale cheap to deep blue dear; arrows: next cell; purple squares: goals".to_string(),
    )
}

fn hierarchy(
    pen: &Pen,
    hd: &HierarchyData,
    geo: &Cells,
    b: &Backdrop,
    notes: &mut Vec<String>,
) -> (Vec<Group>, String) {
    let mut g = pen.layer(
        "hierarchy",
        &format!(
            "HPA* hierarchy: chunk borders every {} cells, {} entrance nodes, {} edges (intra dashed, inter solid)",
            hd.chunk_size,
            hd.nodes.len(),
            hd.edges.len()
        ),
    );
    let cs = hd.chunk_size as u64;
    let (bw, bh) = match b {
        Backdrop::Plane { width, height, .. } => (*width as u64, *height as u64),
        _ => (u64::MAX, u64::MAX),
    };
    let [cx, cy] = hd.chunks.map(|c| c as u64);
    let (w, h) = (bw.min(cx.saturating_mul(cs)), bh.min(cy.saturating_mul(cs)));
    if cs > 0 && w > 0 && h > 0 && w.saturating_add(h) / cs <= 8_000 {
        let ext = geo.extent(w, h);
        let mut d = String::new();
        for k in (0..=w).step_by(cs as usize).chain(std::iter::once(w)) {
            let x = geo.ox + k as f64 * geo.s;
            d += &format!("M{},{}V{}", pen.x(x), pen.y(ext.y0), pen.y(ext.y1));
        }
        for k in (0..=h).step_by(cs as usize).chain(std::iter::once(h)) {
            let y = geo.oy + k as f64 * geo.s;
            d += &format!("M{},{}H{}", pen.x(ext.x0), pen.y(y), pen.x(ext.x1));
        }
        g.append(
            Path::new()
                .set("class", "chunks")
                .set("d", d)
                .set("fill", "none")
                .set("stroke", style::HIERARCHY)
                .set("stroke-opacity", 0.7)
                .set("stroke-width", pen.num(pen.size(0.08, 1.0, 3.0))),
        );
    } else if cs > 0 {
        notes.push("chunk borders: too many or no chunks, not drawn".to_string());
    }
    let node_at = |i: usize| -> Option<[f64; 2]> {
        hd.node_points
            .get(i)
            .and_then(finite2)
            .or_else(|| hd.nodes.get(i).map(|n| geo.centre(n[0] as u64)))
    };
    let mut edges = Group::new().set("class", "edges");
    let width = pen.size(0.07, 0.8, 3.0);
    let mut unplaced = 0;
    for e in hd.edges.iter().take(MAX_MARKS) {
        let (Some(a), Some(c)) = (node_at(e.from as usize), node_at(e.to as usize)) else {
            unplaced += 1;
            continue;
        };
        let line = Line::new()
            .set("x1", pen.x(a[0]))
            .set("y1", pen.y(a[1]))
            .set("x2", pen.x(c[0]))
            .set("y2", pen.y(c[1]))
            .set("stroke-linecap", "round");
        edges.append(if e.inter {
            line.set("class", "inter")
                .set("stroke", style::INTER)
                .set("stroke-width", pen.num(width * 1.6))
        } else {
            line.set("class", "intra")
                .set("stroke", style::HIERARCHY)
                .set("stroke-width", pen.num(width))
                .set(
                    "stroke-dasharray",
                    format!("{} {}", pen.num(width * 3.0), pen.num(width * 2.0)),
                )
        });
    }
    if hd.edges.len() > MAX_MARKS {
        notes.push(format!(
            "edges: the first {MAX_MARKS} of {} drawn",
            hd.edges.len()
        ));
    }
    if unplaced > 0 {
        notes.push(format!(
            "edges: {unplaced} with an endpoint past the node list"
        ));
    }
    g.append(edges);
    let mut nodes = Group::new().set("class", "entrances");
    let r = pen.size(0.22, 2.5, 8.0);
    let count = hd.nodes.len().max(hd.node_points.len());
    for i in 0..count.min(MAX_MARKS) {
        if let Some(p) = node_at(i) {
            nodes.append(
                Circle::new()
                    .set("class", "node")
                    .set("cx", pen.x(p[0]))
                    .set("cy", pen.y(p[1]))
                    .set("r", pen.num(r))
                    .set("fill", "#ffffff")
                    .set("stroke", style::HIERARCHY)
                    .set("stroke-width", pen.num(r * 0.45)),
            );
        }
    }
    g.append(nodes);
    (
        vec![g],
        "blue lines: chunk borders; circles: entrance nodes; dashed: intra-chunk edges; solid pink: inter-chunk edges".to_string(),
    )
}
