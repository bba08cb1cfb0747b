//! Colours, sizes and number formatting of the pictures ([CONF.DEBUG.SVG]): the ramps that
//! colour expansions by order, heights and flow costs, the shading of areas by multiplier, and
//! the [`Pen`] every layer is drawn with (world units per pixel, clamped coordinates, bounded
//! decimals, so no attribute ever holds `NaN` or `inf`).

use svg::node::element::{Group, Title};

/// Wall cells.
pub const WALL: &str = "#2e2e33";
/// The path's line.
pub const PATH: &str = "#d62728";
/// The start marker (a circle).
pub const START: &str = "#12a150";
/// The goal marker (a square).
pub const GOAL: &str = "#7b2cbf";
/// The ring of a marked difference.
pub const MARK: &str = "#ff00ff";
/// A replan's settled nodes ([DEBUG.REPLAN.KINDS]).
pub const SETTLE: &str = "#2166ac";
/// A replan's reset nodes ([DEBUG.REPLAN.KINDS]).
pub const RESET: &str = "#f4761b";
/// An expansion whose kind is missing (a kinds list shorter than the expansions).
pub const UNKNOWN_KIND: &str = "#8c8c8c";
/// Hierarchy chunk borders, nodes and edges.
pub const HIERARCHY: &str = "#1f4e79";
/// Inter-chunk hierarchy edges.
pub const INTER: &str = "#c2185b";
/// Flow-field arrows.
pub const ARROW: &str = "#202020";
/// Graph edges.
pub const EDGE: &str = "#9aa0a6";
/// Graph nodes.
pub const NODE: &str = "#3c4043";

type Rgb = [f64; 3];

/// Viridis-like stops: blue, teal, green, yellow (expansion order, first to last).
const ORDER_RAMP: [Rgb; 4] = [
    [59.0, 82.0, 139.0],
    [33.0, 145.0, 140.0],
    [94.0, 201.0, 98.0],
    [253.0, 231.0, 37.0],
];
/// Magma-like stops: dark purple, red, orange, pale yellow (height, low to high).
const HEIGHT_RAMP: [Rgb; 4] = [
    [40.0, 11.0, 84.0],
    [183.0, 55.0, 121.0],
    [252.0, 137.0, 97.0],
    [252.0, 253.0, 191.0],
];
/// Flow costs, cheap (pale) to dear (deep blue).
const COST_RAMP: [Rgb; 3] = [
    [255.0, 250.0, 220.0],
    [120.0, 198.0, 190.0],
    [37.0, 52.0, 148.0],
];
/// Area shading, cheap (pale) to dear (dark tan); lighter is cheaper.
const AREA_RAMP: [Rgb; 2] = [[247.0, 247.0, 238.0], [140.0, 122.0, 95.0]];

fn hex(c: Rgb) -> String {
    let b = |v: f64| v.round().clamp(0.0, 255.0) as u8;
    format!("#{:02x}{:02x}{:02x}", b(c[0]), b(c[1]), b(c[2]))
}

fn ramp(stops: &[Rgb], t: f64) -> String {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let seg = (stops.len() - 1) as f64 * t;
    let i = (seg.floor() as usize).min(stops.len() - 2);
    let f = seg - i as f64;
    let (a, b) = (stops[i], stops[i + 1]);
    hex([
        a[0] + (b[0] - a[0]) * f,
        a[1] + (b[1] - a[1]) * f,
        a[2] + (b[2] - a[2]) * f,
    ])
}

/// The colour of entry `i` of `n` in order (first blue, last yellow).
pub fn order(i: usize, n: usize) -> String {
    ramp(
        &ORDER_RAMP,
        if n > 1 {
            i as f64 / (n - 1) as f64
        } else {
            0.0
        },
    )
}

/// The colour of height `t` in `0..=1` (low dark, high pale).
pub fn height(t: f64) -> String {
    ramp(&HEIGHT_RAMP, t)
}

/// The colour of flow cost `t` in `0..=1` (cheap pale, dear deep blue).
pub fn cost(t: f64) -> String {
    ramp(&COST_RAMP, t)
}

/// The shading of an area of multiplier `m` on a log scale (`1/2` and below palest, `8` and
/// above darkest, `1` light); a non-finite or non-positive multiplier gets the darkest shade.
pub fn area(m: f64) -> String {
    let t = if m.is_finite() && m > 0.0 {
        (m.log2() + 1.0) / 4.0
    } else {
        1.0
    };
    ramp(&AREA_RAMP, t)
}

/// Text that XML 1.0 can carry: control characters other than tab, newline and carriage return
/// (and the non-characters U+FFFE, U+FFFF) are dropped. The svg crate escapes the rest.
pub fn clean(text: &str) -> String {
    text.chars()
        .filter(|&c| {
            (c >= ' ' || matches!(c, '\t' | '\n' | '\r')) && c != '\u{fffe}' && c != '\u{ffff}'
        })
        .collect()
}

/// An axis-aligned world rectangle `[x0, y0, x1, y1]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left.
    pub x0: f64,
    /// Top.
    pub y0: f64,
    /// Right.
    pub x1: f64,
    /// Bottom.
    pub y1: f64,
}

impl Rect {
    /// Width.
    pub fn w(&self) -> f64 {
        self.x1 - self.x0
    }
    /// Height.
    pub fn h(&self) -> f64 {
        self.y1 - self.y0
    }
    /// The smallest rectangle holding both.
    pub fn union(&self, o: &Rect) -> Rect {
        Rect {
            x0: self.x0.min(o.x0),
            y0: self.y0.min(o.y0),
            x1: self.x1.max(o.x1),
            y1: self.y1.max(o.y1),
        }
    }
    /// Grown by `d` on every side.
    pub fn grow(&self, d: f64) -> Rect {
        Rect {
            x0: self.x0 - d,
            y0: self.y0 - d,
            x1: self.x1 + d,
            y1: self.y1 + d,
        }
    }
    /// Whether `(x, y)` lies inside (borders included).
    pub fn contains(&self, x: f64, y: f64) -> bool {
        x >= self.x0 && x <= self.x1 && y >= self.y0 && y <= self.y1
    }
}

/// How a layer turns world numbers into attributes: `ppu` pixels per world unit, `unit` the
/// world size that marks scale with (a cell, or a graph's typical node spacing), `limit` the box
/// coordinates are clamped to, and `prefix` put before every layer id (`left-`, `right-` when
/// two pictures share a document).
#[derive(Clone, Debug)]
pub struct Pen {
    /// Pixels per world unit.
    pub ppu: f64,
    /// The world size marks scale with.
    pub unit: f64,
    /// Coordinates are clamped into this box (well outside the viewBox).
    pub limit: Rect,
    /// Prefix of layer ids.
    pub prefix: String,
    decimals: usize,
}

impl Pen {
    /// A pen for `ppu` pixels per unit; coordinates keep 1/100 px of precision.
    pub fn new(ppu: f64, unit: f64, limit: Rect, prefix: &str) -> Pen {
        let decimals = (ppu * 100.0).log10().ceil().clamp(0.0, 12.0) as usize;
        Pen {
            ppu,
            unit,
            limit,
            prefix: prefix.to_string(),
            decimals,
        }
    }

    /// A length of `k` units, held between `min_px` and `max_px` pixels.
    pub fn size(&self, k: f64, min_px: f64, max_px: f64) -> f64 {
        (k * self.unit * self.ppu).clamp(min_px, max_px) / self.ppu
    }

    /// A length of `px` pixels in world units.
    pub fn px(&self, px: f64) -> f64 {
        px / self.ppu
    }

    /// A finite number as an attribute value (trailing zeros dropped; non-finite as `0`).
    pub fn num(&self, v: f64) -> String {
        fmt_num(v, self.decimals)
    }

    /// An x coordinate, clamped into the limit box.
    pub fn x(&self, v: f64) -> String {
        self.num(clamp(v, self.limit.x0, self.limit.x1))
    }

    /// A y coordinate, clamped into the limit box.
    pub fn y(&self, v: f64) -> String {
        self.num(clamp(v, self.limit.y0, self.limit.y1))
    }

    /// A point list for a polyline's `points` attribute.
    pub fn points(&self, pts: &[[f64; 2]]) -> String {
        pts.iter()
            .map(|p| format!("{},{}", self.x(p[0]), self.y(p[1])))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A layer: `<g id="{prefix}{name}" class="{name}">` with a `<title>`.
    pub fn layer(&self, name: &str, title: &str) -> Group {
        Group::new()
            .set("id", format!("{}{}", self.prefix, name))
            .set("class", name)
            .add(Title::new(clean(title)))
    }
}

fn clamp(v: f64, lo: f64, hi: f64) -> f64 {
    if v.is_nan() {
        lo
    } else {
        v.clamp(lo, hi)
    }
}

/// `v` with at most `decimals` decimals and no trailing zeros; `0` for a non-finite value.
pub fn fmt_num(v: f64, decimals: usize) -> String {
    if !v.is_finite() {
        return "0".to_string();
    }
    let mut s = format!("{:.*}", decimals, v);
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
    if s == "-0" {
        s = "0".to_string();
    }
    s
}
