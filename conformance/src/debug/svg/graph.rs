//! [CONF.DEBUG.SVG] Graphs: every node as a dot at its position and every edge as a thin line,
//! the path thicker, the expansions coloured by order. Positions come from the backdrop, else
//! from the description's own position lists; an edges case with neither is laid out on a
//! circle by node id (ids at or past the node count on a wider circle).

use super::paths::{expansion_marks, route};
use super::style::{self, Pen, Rect};
use super::{finite3, Backdrop, MAX_MARKS};
use crate::debug::{Description, GraphPathData};
use crate::port::wire::Real;
use std::collections::HashMap;
use svg::node::element::{Circle, Group, Line};
use svg::Node;

/// Where graph nodes are drawn.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// Positions by node id from the backdrop.
    known: Vec<Option<[f64; 2]>>,
    /// Positions from the description, for ids the backdrop does not place.
    extra: HashMap<u32, [f64; 2]>,
    /// The node count of the circle layout, when nothing has a position.
    circle: Option<u64>,
    /// The backdrop's node count (0 for another backdrop).
    node_count: u64,
}

/// The x-y part of a finite position.
fn xy(p: &[Real; 3]) -> Option<[f64; 2]> {
    finite3(p).map(|q| [q[0], q[1]])
}

impl Layout {
    /// The layout of a backdrop and a description.
    pub fn new(b: &Backdrop, d: &Description) -> Layout {
        let (node_count, known) = match b {
            Backdrop::Graph {
                node_count,
                positions,
                ..
            } => (
                *node_count as u64,
                positions
                    .iter()
                    .flatten()
                    .map(|p| (p.iter().all(|v| v.is_finite())).then_some([p[0], p[1]]))
                    .collect::<Vec<_>>(),
            ),
            _ => (0, Vec::new()),
        };
        let mut extra = HashMap::new();
        let mut max_id = 0u64;
        if let Description::GraphPath(g) = d {
            for (list, pos) in [
                (&g.nodes, &g.positions),
                (&g.expanded, &g.expanded_positions),
            ] {
                for (i, &id) in list.iter().enumerate().take(4 * MAX_MARKS) {
                    max_id = max_id.max(id as u64 + 1);
                    let placed = known.get(id as usize).is_some_and(|p| p.is_some());
                    if let (false, Some(p)) = (placed, pos.get(i).and_then(xy)) {
                        extra.entry(id).or_insert(p);
                    }
                }
            }
        }
        let circle = (known.iter().all(|p| p.is_none()) && extra.is_empty()).then(|| {
            if node_count > 0 {
                node_count
            } else {
                max_id.max(1)
            }
        });
        Layout {
            known,
            extra,
            circle,
            node_count,
        }
    }

    /// Where node `id` is drawn, when it is placed at all.
    pub fn at(&self, id: u32) -> Option<[f64; 2]> {
        if let Some(n) = self.circle {
            let k = id as u64;
            let r = if k < n { 1.0 } else { 1.2 };
            let a = 2.0 * std::f64::consts::PI * ((k % n) as f64 / n as f64)
                - std::f64::consts::FRAC_PI_2;
            return Some([r * a.cos(), r * a.sin()]);
        }
        self.known
            .get(id as usize)
            .copied()
            .flatten()
            .or_else(|| self.extra.get(&id).copied())
    }

    /// The world frame of the placed nodes and the size marks scale with (the typical spacing).
    pub fn extent(&self) -> (Rect, f64) {
        if let Some(n) = self.circle {
            let unit = (2.0 * std::f64::consts::PI / n as f64).clamp(0.01, 0.3);
            let r = 1.2 + 1.5 * unit;
            return (
                Rect {
                    x0: -r,
                    y0: -r,
                    x1: r,
                    y1: r,
                },
                unit,
            );
        }
        let pts = self
            .known
            .iter()
            .flatten()
            .chain(self.extra.values())
            .copied();
        let mut count = 0usize;
        let mut frame: Option<Rect> = None;
        for p in pts {
            count += 1;
            let r = Rect {
                x0: p[0],
                y0: p[1],
                x1: p[0],
                y1: p[1],
            };
            frame = Some(frame.map_or(r, |f| f.union(&r)));
        }
        let frame = frame.unwrap_or(Rect {
            x0: 0.0,
            y0: 0.0,
            x1: 1.0,
            y1: 1.0,
        });
        let side = frame.w().max(frame.h());
        let unit = if side.is_finite() && side > 0.0 {
            side / (count as f64).sqrt().max(1.0)
        } else {
            1.0
        };
        let unit = if unit.is_finite() && unit > 0.0 {
            unit
        } else {
            1.0
        };
        (frame.grow(unit * 0.6), unit)
    }
}

/// The backdrop layer of a graph: its edges as thin lines, then its nodes as dots.
pub(super) fn backdrop(pen: &Pen, b: &Backdrop, layout: &Layout, notes: &mut Vec<String>) -> Group {
    let Backdrop::Graph { edges, .. } = b else {
        return pen.layer("graph", "No graph");
    };
    let mut g = pen.layer(
        "graph",
        &format!(
            "Graph: {} nodes (dots) and {} edges (thin lines)",
            layout.node_count,
            edges.len()
        ),
    );
    let width = pen.num(pen.size(0.04, 0.6, 1.5));
    let mut unplaced = 0usize;
    for &(a, c) in edges.iter().take(MAX_MARKS) {
        let (Some(p), Some(q)) = (layout.at(a), layout.at(c)) else {
            unplaced += 1;
            continue;
        };
        g.append(
            Line::new()
                .set("class", "edge")
                .set("x1", pen.x(p[0]))
                .set("y1", pen.y(p[1]))
                .set("x2", pen.x(q[0]))
                .set("y2", pen.y(q[1]))
                .set("stroke", style::EDGE)
                .set("stroke-width", width.clone()),
        );
    }
    if edges.len() > MAX_MARKS {
        notes.push(format!(
            "graph edges: the first {MAX_MARKS} of {} drawn",
            edges.len()
        ));
    }
    if unplaced > 0 {
        notes.push(format!(
            "graph edges: {unplaced} with an endpoint without a position"
        ));
    }
    let r = pen.num(pen.size(0.12, 1.5, 5.0));
    let shown = layout.node_count.min(MAX_MARKS as u64);
    if shown < layout.node_count {
        notes.push(format!(
            "graph nodes: the first {shown} of {} drawn",
            layout.node_count
        ));
    }
    for id in 0..shown {
        if let Some(p) = layout.at(id as u32) {
            g.append(
                Circle::new()
                    .set("class", "node")
                    .set("cx", pen.x(p[0]))
                    .set("cy", pen.y(p[1]))
                    .set("r", r.clone())
                    .set("fill", style::NODE),
            );
        }
    }
    g
}

/// Entry `i` of a node list beside its position list: the position when finite, else the
/// node's place in the layout.
pub(super) fn pick(
    positions: &[[Real; 3]],
    nodes: &[u32],
    i: usize,
    layout: &Layout,
) -> Option<[f64; 2]> {
    positions
        .get(i)
        .and_then(xy)
        .or_else(|| nodes.get(i).and_then(|&n| layout.at(n)))
}

/// The layers of a graph path and its legend.
pub(super) fn describe(
    pen: &Pen,
    d: &GraphPathData,
    layout: &Layout,
    notes: &mut Vec<String>,
) -> (Vec<Group>, String) {
    let n = d.expanded.len().max(d.expanded_positions.len());
    if n > MAX_MARKS {
        notes.push(format!("expanded: the first {MAX_MARKS} of {n} drawn"));
    }
    let exp: Vec<(usize, [f64; 2])> = (0..n.min(MAX_MARKS))
        .filter_map(|i| pick(&d.expanded_positions, &d.expanded, i, layout).map(|p| (i, p)))
        .collect();
    if exp.len() < n.min(MAX_MARKS) {
        notes.push(format!(
            "expanded: {} entries without a position",
            n.min(MAX_MARKS) - exp.len()
        ));
    }
    let m = d.nodes.len().max(d.positions.len());
    let pts: Vec<[f64; 2]> = (0..m.min(MAX_MARKS))
        .filter_map(|i| pick(&d.positions, &d.nodes, i, layout))
        .collect();
    if pts.len() < m {
        notes.push(format!("path: {} of {m} nodes drawn", pts.len()));
    }
    (
        vec![
            expansion_marks(
                pen,
                &format!("Expanded: {n} nodes in order, first blue to last yellow"),
                &exp,
                |i| style::order(i, n),
            ),
            route(pen, &format!("Path: {} nodes", pts.len()), &pts, None),
        ],
        "dots: nodes; grey lines: edges; squares: expansions, first blue to last yellow; red: path; green: start; purple: goal".to_string(),
    )
}
