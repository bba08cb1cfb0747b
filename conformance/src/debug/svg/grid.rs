//! [CONF.DEBUG.SVG] Grids: the cell and voxel geometry of [DEBUG.POINTS], and the backdrop layers
//! of square and hex cells (walls dark, areas shaded by multiplier, lighter is cheaper) and of a
//! voxel grid projected on the x-y plane (walls by their share of the column).

use super::style::{self, Pen, Rect};
use super::{Backdrop, MAX_MARKS};
use crate::debug::Description;
use svg::node::element::{Group, Path, Polygon, Rectangle};
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
pub(super) fn runs(
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

/// A filled rectangle.
pub(super) fn rect(pen: &Pen, x: f64, y: f64, w: f64, h: f64, fill: &str) -> Rectangle {
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
            .set("stroke", "#b8b8b8")
            .set("stroke-width", pen.num(pen.size(0.03, 0.3, 1.0)));
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
    let layers = n.checked_div(columns).map_or(0, |k| sz.min(k + 1));
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
