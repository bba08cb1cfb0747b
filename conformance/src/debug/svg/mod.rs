//! [CONF.DEBUG.SVG] The pictures of descriptions: one description drawn as an SVG 1.1 document
//! over what it was computed on (a [`Backdrop`]: a square or hex grid, a voxel grid, a graph),
//! in world coordinates, with the first difference of [CONF.DEBUG.COMPARE] ringed when a
//! [`Mark`] is given; [`side_by_side`] puts an expected and a found picture in one document
//! ([CONF.DEBUG.EXPLAIN]).
//!
//! Every element is composed with the `svg` crate (which escapes text and attributes). Each
//! drawn layer is a `<g>` whose `class` names it (`background`, `header`, `areas`, `walls`,
//! `costs`, `flow`, `goals`, `hierarchy`, `graph`, `expanded`, `path`, `heights`, `mark`) and
//! whose `id` is the same name, prefixed `left-` / `right-` when two pictures share a document;
//! each layer starts with a `<title>` saying what it shows. What was left undrawn (caps, entries
//! without a point) is noted in the picture's `<desc>`.
//!
//! Drawing never fails and never panics: indexes past a list or a grid, lists of mismatched
//! lengths, non-finite reals and a backdrop of another size draw what can be drawn; non-finite
//! numbers never reach an attribute.

mod backdrop;
mod fields;
mod graph;
mod grid;
mod mark;
mod paths;
pub mod style;

use crate::debug::Description;
use crate::port::wire::Real;
use style::{clean, Pen, Rect};
use svg::node::element::{Description as Desc, Group, Rectangle, Text, Title, SVG};
use svg::Node;

/// At most this many marks of one kind (expansions, arrows, cells, nodes, edges) are drawn; the
/// rest is noted in the `<desc>`.
pub const MAX_MARKS: usize = 200_000;

/// What the picture is drawn over.
#[derive(Clone, Debug, PartialEq)]
pub enum Backdrop {
    /// A square (hex_layout None) or hex grid (hex_layout Some(GRID.HEX.LAYOUT value 0..3)).
    Plane {
        /// Width in cells.
        width: u32,
        /// Height in cells.
        height: u32,
        /// Row-major area ids, 255 = wall.
        cells: Vec<u8>,
        /// Area -> multiplier overrides (in order, the last wins), default 1.0.
        multipliers: Vec<(u8, f64)>,
        /// `(ox, oy, cell size)`; None = (0, 0, 1).
        space: Option<[f64; 3]>,
        /// None for a square grid, else the [GRID.HEX.LAYOUT] value.
        hex_layout: Option<i32>,
    },
    /// A voxel grid (x fastest, then y, then z; 255 = wall).
    Volume {
        /// `[sx, sy, sz]`.
        size: [u32; 3],
        /// Area ids, 255 = wall.
        cells: Vec<u8>,
        /// `(ox, oy, oz, voxel size)`; None = (0, 0, 0, 1).
        space: Option<[f64; 4]>,
    },
    /// A graph: edges as (from, to); positions by node id when known.
    Graph {
        /// Node count.
        node_count: u32,
        /// `(from, to)` per edge.
        edges: Vec<(u32, u32)>,
        /// One position per node id, when known.
        positions: Option<Vec<[f64; 3]>>,
    },
}

/// The entry to ring: which list of the description (its member name on the wire, e.g. "cells",
/// "points", "expanded", "expanded_points", "nodes", "positions", "costs", "next", "edges",
/// "node_points") and which index; index None = the whole description differs (a red frame; a
/// replan's `start` or `goal` rings that cell).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The member name on the wire.
    pub member: String,
    /// The list index, or None for the whole description.
    pub index: Option<usize>,
}

/// One picture.
#[derive(Clone, Copy, Debug)]
pub struct Picture<'a> {
    /// The heading (e.g. the implementation's name).
    pub title: &'a str,
    /// What the description is drawn over.
    pub backdrop: &'a Backdrop,
    /// The description.
    pub description: &'a Description,
    /// The difference to ring, if any.
    pub mark: Option<&'a Mark>,
}

/// Largest side of a standalone picture, in pixels.
const MAX_PX: f64 = 800.0;
/// Largest side of each picture of a pair.
const PAIR_PX: f64 = 560.0;
/// Largest size of one cell, in pixels.
const MAX_UNIT_PX: f64 = 40.0;
/// Largest size of a graph's typical node spacing, in pixels.
const MAX_NODE_PX: f64 = 120.0;
/// Smallest picture width, so the heading stays readable.
const MIN_W_PX: f64 = 400.0;
/// Margin around the drawing.
const MARGIN_PX: f64 = 10.0;
/// Gap between the pictures of a pair.
const GAP_PX: f64 = 16.0;

/// [CONF.DEBUG.SVG] A standalone SVG document of one picture: the root `<svg>` has `width` and
/// `height` in pixels (at most about 800 wide) and a `viewBox` in world units.
pub fn render_svg(p: &Picture) -> String {
    let (frame, unit) = frame_of(p);
    let (el, _, _) = picture(p, "", frame, unit, MAX_PX);
    el.set("version", "1.1").to_string()
}

/// [CONF.DEBUG.EXPLAIN] One SVG document with two pictures side by side (expected left, found
/// right, each a nested `<svg>` drawn over one shared world frame) and a caption line under both.
/// The layer ids are prefixed `left-` and `right-`.
pub fn side_by_side(left: &Picture, right: &Picture, caption: &str) -> String {
    let (l, r, w, h) = pair(left, right, PAIR_PX);
    let lines = wrap(
        &clean(caption),
        ((w - 2.0 * MARGIN_PX) / 7.2).max(20.0) as usize,
    );
    let line_h = 17.0;
    let total_h = h + MARGIN_PX + line_h * lines.len().max(1) as f64 + MARGIN_PX;
    let pen = Pen::new(
        1.0,
        1.0,
        Rect {
            x0: -1.0,
            y0: -1.0,
            x1: w + 1.0,
            y1: total_h + 1.0,
        },
        "",
    );
    let mut caption_g = pen.layer("caption", "The first difference");
    for (k, line) in lines.iter().enumerate() {
        caption_g.append(
            Text::new(line.as_str())
                .set("x", MARGIN_PX)
                .set("y", pen.num(h + MARGIN_PX + line_h * (k as f64 + 0.75)))
                .set("font-family", "sans-serif")
                .set("font-size", 13)
                .set("fill", "#202020"),
        );
    }
    SVG::new()
        .set("version", "1.1")
        .set("width", pen.num(w.ceil()))
        .set("height", pen.num(total_h.ceil()))
        .set(
            "viewBox",
            format!("0 0 {} {}", pen.num(w.ceil()), pen.num(total_h.ceil())),
        )
        .add(Title::new(clean(&format!(
            "{} | {}",
            left.title, right.title
        ))))
        .add(
            Rectangle::new()
                .set("width", "100%")
                .set("height", "100%")
                .set("fill", "#ffffff"),
        )
        .add(l)
        .add(r)
        .add(caption_g)
        .to_string()
}

/// The two pictures of a pair as nested `<svg>` elements placed at `x` 0 and right of the first,
/// over one shared frame; returns them, the total width and the height of the taller.
pub(crate) fn pair(left: &Picture, right: &Picture, max_px: f64) -> (SVG, SVG, f64, f64) {
    let (fl, ul) = frame_of(left);
    let (fr, _) = frame_of(right);
    let frame = fl.union(&fr);
    let (l, wl, hl) = picture(left, "left-", frame, ul, max_px);
    let (r, wr, hr) = picture(right, "right-", frame, ul, max_px);
    let l = l.set("x", 0).set("y", 0);
    let r = r
        .set("x", Pen::new(1.0, 1.0, frame, "").num(wl + GAP_PX))
        .set("y", 0);
    (l, r, wl + GAP_PX + wr, hl.max(hr))
}

/// One picture as an `<svg>` element of pixel size `(w, h)` (returned) whose viewBox is the
/// world `frame` with a margin and a heading band.
pub(crate) fn picture(
    p: &Picture,
    prefix: &str,
    frame: Rect,
    unit: f64,
    max_px: f64,
) -> (SVG, f64, f64) {
    let (fw, fh) = (frame.w().max(1e-300), frame.h().max(1e-300));
    let room = max_px - 2.0 * MARGIN_PX;
    let max_unit = match p.backdrop {
        Backdrop::Graph { .. } => MAX_NODE_PX,
        _ => MAX_UNIT_PX,
    };
    let mut ppu = (room / fw).min(room / fh).min(max_unit / unit);
    if !(ppu.is_finite() && ppu > 0.0) {
        ppu = 1.0;
    }
    let draw_w = fw * ppu + 2.0 * MARGIN_PX;
    let w_px = draw_w.max(MIN_W_PX).ceil();
    // Coordinates are clamped well outside anything the viewBox can show.
    let reach = (fw.max(fh) * 2.0 + (w_px + 400.0) / ppu).min(f64::MAX / 4.0);
    let pen = Pen::new(ppu, unit, frame.grow(reach), prefix);
    let mut notes = Vec::new();

    let geo = Geo::new(p.backdrop, p.description);
    let mut layers = grid::backdrop(&pen, p.backdrop, &mut notes);
    if let Backdrop::Graph { .. } = p.backdrop {
        layers.push(graph::backdrop(&pen, p.backdrop, &geo.layout, &mut notes));
    }
    let (drawn, legend) = match p.description {
        Description::GraphPath(d) => graph::describe(&pen, d, &geo.layout, &mut notes),
        d => paths::describe(&pen, d, &geo, p.backdrop, &mut notes),
    };
    layers.extend(drawn);
    if let Some(m) = p.mark {
        layers.push(mark::layer(&pen, p.description, m, &geo, frame, &mut notes));
    }

    let text_w = w_px - 2.0 * MARGIN_PX;
    let summary = wrap(&clean(&summary(p.description)), (text_w / 6.0) as usize);
    let legend = wrap(&clean(&legend), (text_w / 5.5) as usize);
    let header_px = 28.0 + 15.0 * summary.len() as f64 + 14.0 * legend.len() as f64;
    let h_px = (fh * ppu + 2.0 * MARGIN_PX + header_px).ceil();
    let x0 = frame.x0 - (MARGIN_PX + (w_px - draw_w) / 2.0) / ppu;
    let y0 = frame.y0 - (MARGIN_PX + header_px) / ppu;
    let view = Rect {
        x0,
        y0,
        x1: x0 + w_px / ppu,
        y1: y0 + h_px / ppu,
    };

    let mut doc = SVG::new()
        .set("width", pen.num(w_px))
        .set("height", pen.num(h_px))
        .set(
            "viewBox",
            format!(
                "{} {} {} {}",
                pen.x(view.x0),
                pen.y(view.y0),
                pen.num(view.w()),
                pen.num(view.h())
            ),
        )
        .add(Title::new(clean(p.title)));
    doc.append(
        pen.layer("background", "Background").add(
            Rectangle::new()
                .set("x", pen.x(view.x0))
                .set("y", pen.y(view.y0))
                .set("width", pen.num(view.w()))
                .set("height", pen.num(view.h()))
                .set("fill", "#ffffff"),
        ),
    );
    for layer in layers {
        doc.append(layer);
    }
    doc.append(header(&pen, view, p.title, &summary, &legend));
    let desc = if notes.is_empty() {
        format!("{} drawn in full", p.description.kind())
    } else {
        notes.join("; ")
    };
    doc.append(Desc::new().add(svg::node::Text::new(clean(&desc))));
    (doc, w_px, h_px)
}

/// The heading band: the title, the summary of the description and the legend, one `<text>`
/// per (wrapped) line.
fn header(pen: &Pen, view: Rect, title: &str, summary: &[String], legend: &[String]) -> Group {
    let x = pen.x(view.x0 + pen.px(MARGIN_PX));
    let line = |text: &str, y_px: f64, size_px: f64, colour: &str| {
        Text::new(clean(text))
            .set("x", x.clone())
            .set("y", pen.y(view.y0 + pen.px(y_px)))
            .set("font-family", "sans-serif")
            .set("font-size", pen.num(pen.px(size_px)))
            .set("fill", colour)
    };
    let mut g = pen
        .layer("header", "Title, summary and legend")
        .add(line(title, 20.0, 15.0, "#111111").set("font-weight", "bold"));
    let mut y = 20.0;
    for s in summary {
        y += 15.0;
        g.append(line(s, y, 12.0, "#333333"));
    }
    for l in legend {
        y += 14.0;
        g.append(line(l, y, 11.0, "#666666"));
    }
    g
}

/// One line saying what the description holds.
fn summary(d: &Description) -> String {
    let status = |s: u8| match s {
        2 => "Found".to_string(),
        3 => "NotFound".to_string(),
        4 => "BudgetExhausted".to_string(),
        s => format!("status {s}"),
    };
    match d {
        Description::Path(p) => format!(
            "path {}x{}: {}, cost {}, {} cells, {} expanded (count {}), {} iterations",
            p.width,
            p.height,
            status(p.status),
            real(p.cost),
            p.cells.len(),
            p.expanded.len(),
            p.expanded_count,
            p.iterations
        ),
        Description::VoxelPath(p) => format!(
            "voxel path {}x{}x{}: {}, cost {}, {} cells, {} expanded (count {}), {} iterations",
            p.size[0],
            p.size[1],
            p.size[2],
            status(p.status),
            real(p.cost),
            p.cells.len(),
            p.expanded.len(),
            p.expanded_count,
            p.iterations
        ),
        Description::GraphPath(p) => format!(
            "graph path ({}): {}, cost {}, {} nodes, {} expanded (count {}), {} iterations",
            p.algorithm,
            status(p.status),
            real(p.cost),
            p.nodes.len(),
            p.expanded.len(),
            p.expanded_count,
            p.iterations
        ),
        Description::Replan(r) => format!(
            "replan {}x{} ({}): found {}, cost {}, {} cells, {} expanded (count {}), {} pending",
            r.width,
            r.height,
            if r.mode == 1 { "D* Lite" } else { "LPA*" },
            r.found,
            real(r.cost),
            r.cells.len(),
            r.expanded.len(),
            r.expanded_count,
            r.pending
        ),
        Description::Hierarchy(h) => format!(
            "hierarchy: built {}, chunk size {}, {}x{} chunks, {} nodes, {} edges",
            h.built,
            h.chunk_size,
            h.chunks[0],
            h.chunks[1],
            h.nodes.len(),
            h.edges.len()
        ),
        Description::Flow(f) => format!(
            "flow field {}x{}: status {}, {} goals, {} settled, {} steps",
            f.width,
            f.height,
            f.status,
            f.goals.len(),
            f.settled,
            f.next.iter().filter(|n| n.is_some()).count()
        ),
    }
}

/// A real for text (never an attribute).
fn real(r: Real) -> String {
    let v = r.0;
    if v.is_nan() {
        "NaN".to_string()
    } else if v.is_infinite() {
        if v > 0.0 { "+infinity" } else { "-infinity" }.to_string()
    } else {
        format!("{v}")
    }
}

/// Splits `text` into lines of at most `width` characters at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for para in text.lines() {
        let mut line = String::new();
        for word in para.split(' ') {
            if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        lines.push(line);
    }
    lines.truncate(12);
    lines
}

/// How cell and node indexes become world points for one picture ([DEBUG.POINTS]).
pub(crate) struct Geo {
    /// Square and hex cells: the description's width, the backdrop's space.
    pub cells: grid::Cells,
    /// Voxels: the description's size, the backdrop's space.
    pub voxels: grid::Voxels,
    /// Graph nodes.
    pub layout: graph::Layout,
}

impl Geo {
    fn new(b: &Backdrop, d: &Description) -> Geo {
        Geo {
            cells: grid::Cells::new(b, d),
            voxels: grid::Voxels::new(b, d),
            layout: graph::Layout::new(b, d),
        }
    }
}

/// The world frame a picture shows and the size its marks scale with: the backdrop's extent,
/// grown to the description's own points and grid extent, but never past twice the backdrop's
/// larger side on any side (points further out are clipped).
pub(crate) fn frame_of(p: &Picture) -> (Rect, f64) {
    let geo = Geo::new(p.backdrop, p.description);
    let (base, unit) = match p.backdrop {
        Backdrop::Graph { .. } => geo.layout.extent(),
        Backdrop::Plane { width, height, .. } => {
            (geo.cells.extent(*width as u64, *height as u64), geo.cells.s)
        }
        Backdrop::Volume { size, .. } => (
            geo.voxels.extent(size[0] as u64, size[1] as u64),
            geo.voxels.s,
        ),
    };
    let reach = base.grow(base.w().max(base.h()) * 2.0);
    let mut frame = base;
    let mut add = |x: f64, y: f64| {
        if x.is_finite() && y.is_finite() && reach.contains(x, y) {
            frame = frame.union(&Rect {
                x0: x,
                y0: y,
                x1: x,
                y1: y,
            });
        }
    };
    let own = match p.description {
        Description::Path(d) => Some(geo.cells.extent(d.width as u64, d.height as u64)),
        Description::Replan(d) => Some(geo.cells.extent(d.width as u64, d.height as u64)),
        Description::Flow(d) => Some(geo.cells.extent(d.width as u64, d.height as u64)),
        Description::VoxelPath(d) => Some(geo.voxels.extent(d.size[0] as u64, d.size[1] as u64)),
        _ => None,
    };
    if let Some(r) = own {
        add(r.x0, r.y0);
        add(r.x1, r.y1);
    }
    let pad = unit * 0.5;
    for pt in description_points(p.description).take(4 * MAX_MARKS) {
        add(pt[0] - pad, pt[1] - pad);
        add(pt[0] + pad, pt[1] + pad);
    }
    (frame, unit)
}

/// Every world point the description lists (x and y).
fn description_points(d: &Description) -> Box<dyn Iterator<Item = [f64; 2]> + '_> {
    let two = |l: &'_ [[Real; 2]]| l.iter().map(|p| [p[0].0, p[1].0]).collect::<Vec<_>>();
    let three = |l: &'_ [[Real; 3]]| l.iter().map(|p| [p[0].0, p[1].0]).collect::<Vec<_>>();
    match d {
        Description::Path(p) => Box::new(two(&p.points).into_iter().chain(two(&p.expanded_points))),
        Description::Replan(p) => {
            Box::new(two(&p.points).into_iter().chain(two(&p.expanded_points)))
        }
        Description::VoxelPath(p) => Box::new(
            three(&p.points)
                .into_iter()
                .chain(three(&p.expanded_points)),
        ),
        Description::Hierarchy(h) => Box::new(two(&h.node_points).into_iter()),
        Description::GraphPath(p) => Box::new(
            three(&p.positions)
                .into_iter()
                .chain(three(&p.expanded_positions)),
        ),
        Description::Flow(_) => Box::new(std::iter::empty()),
    }
}

/// A finite 2-D point of a wire list.
pub(crate) fn finite2(p: &[Real; 2]) -> Option<[f64; 2]> {
    (p[0].0.is_finite() && p[1].0.is_finite()).then_some([p[0].0, p[1].0])
}

/// A finite 3-D point of a wire list.
pub(crate) fn finite3(p: &[Real; 3]) -> Option<[f64; 3]> {
    (p[0].0.is_finite() && p[1].0.is_finite() && p[2].0.is_finite())
        .then_some([p[0].0, p[1].0, p[2].0])
}
