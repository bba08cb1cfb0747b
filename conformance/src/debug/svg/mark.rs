//! [CONF.DEBUG.EXPLAIN] The marked difference: the entry a [`Mark`] names is ringed (a path
//! position, an expansion, a cell of a flow field, a hierarchy node; a hierarchy edge is ringed
//! at both ends and drawn over), the whole description framed in red when the mark has no index,
//! and a dashed frame when this side has no such entry.

use super::graph;
use super::paths::{pick, pick3};
use super::style::{self, Pen, Rect};
use super::{finite2, Geo, Mark};
use crate::debug::Description;
use svg::node::element::{Circle, Group, Line, Rectangle};
use svg::Node;

/// What a mark points at on one side.
enum Target {
    /// Ring these points.
    Points(Vec<[f64; 2]>),
    /// Ring both ends of an edge and draw it over.
    Segment([f64; 2], [f64; 2]),
    /// Frame the whole picture.
    Whole,
    /// The list has no such entry here.
    Missing,
}

fn target(d: &Description, m: &Mark, geo: &Geo) -> Target {
    let c = &geo.cells;
    let one = |p: Option<[f64; 2]>| p.map_or(Target::Missing, |p| Target::Points(vec![p]));
    let Some(i) = m.index else {
        return match (d, m.member.as_str()) {
            (Description::Replan(r), "start") => Target::Points(vec![c.centre(r.start as u64)]),
            (Description::Replan(r), "goal") => Target::Points(vec![c.centre(r.goal as u64)]),
            _ => Target::Whole,
        };
    };
    match (d, m.member.as_str()) {
        (Description::Path(p), "cells" | "points") => one(pick(&p.points, &p.cells, i, c)),
        (Description::Path(p), "expanded" | "expanded_points") => {
            one(pick(&p.expanded_points, &p.expanded, i, c))
        }
        (Description::Replan(p), "cells" | "points") => one(pick(&p.points, &p.cells, i, c)),
        (Description::Replan(p), "expanded" | "expanded_points" | "expanded_kinds") => {
            one(pick(&p.expanded_points, &p.expanded, i, c))
        }
        (Description::VoxelPath(p), "cells" | "points") => {
            one(pick3(&p.points, &p.cells, i, &geo.voxels).map(|q| [q[0], q[1]]))
        }
        (Description::VoxelPath(p), "expanded" | "expanded_points") => {
            one(pick3(&p.expanded_points, &p.expanded, i, &geo.voxels).map(|q| [q[0], q[1]]))
        }
        (Description::GraphPath(p), "nodes" | "positions") => {
            one(graph::pick(&p.positions, &p.nodes, i, &geo.layout))
        }
        (Description::GraphPath(p), "expanded" | "expanded_positions") => one(graph::pick(
            &p.expanded_positions,
            &p.expanded,
            i,
            &geo.layout,
        )),
        (Description::Flow(f), "costs" | "next") => {
            let len = if m.member == "costs" {
                f.costs.len()
            } else {
                f.next.len()
            };
            one((i < len).then(|| c.centre(i as u64)))
        }
        (Description::Flow(f), "goals") => one(f.goals.get(i).map(|&g| c.centre(g as u64))),
        (Description::Hierarchy(h), "nodes" | "node_points") => {
            let node = |k: usize| {
                h.node_points
                    .get(k)
                    .and_then(finite2)
                    .or_else(|| h.nodes.get(k).map(|n| c.centre(n[0] as u64)))
            };
            one(node(i))
        }
        (Description::Hierarchy(h), "edges") => {
            let node = |k: u32| {
                let k = k as usize;
                h.node_points
                    .get(k)
                    .and_then(finite2)
                    .or_else(|| h.nodes.get(k).map(|n| c.centre(n[0] as u64)))
            };
            match h.edges.get(i) {
                None => Target::Missing,
                Some(e) => match (node(e.from), node(e.to)) {
                    (Some(a), Some(b)) => Target::Segment(a, b),
                    (Some(a), None) | (None, Some(a)) => Target::Points(vec![a]),
                    (None, None) => Target::Missing,
                },
            }
        }
        _ => Target::Whole,
    }
}

fn ring(pen: &Pen, p: [f64; 2], g: &mut Group) {
    let r = pen.size(0.9, 9.0, 36.0);
    let w = pen.size(0.14, 2.5, 6.0);
    g.append(
        Circle::new()
            .set("class", "halo")
            .set("cx", pen.x(p[0]))
            .set("cy", pen.y(p[1]))
            .set("r", pen.num(r))
            .set("fill", "none")
            .set("stroke", "#ffffff")
            .set("stroke-width", pen.num(w * 2.2)),
    );
    g.append(
        Circle::new()
            .set("class", "ring")
            .set("cx", pen.x(p[0]))
            .set("cy", pen.y(p[1]))
            .set("r", pen.num(r))
            .set("fill", "none")
            .set("stroke", style::MARK)
            .set("stroke-width", pen.num(w)),
    );
}

fn frame_rect(pen: &Pen, frame: Rect, dashed: bool) -> Rectangle {
    let w = pen.px(4.0);
    let r = Rectangle::new()
        .set("class", "frame")
        .set("x", pen.x(frame.x0 + w / 2.0))
        .set("y", pen.y(frame.y0 + w / 2.0))
        .set("width", pen.num((frame.w() - w).max(0.0)))
        .set("height", pen.num((frame.h() - w).max(0.0)))
        .set("fill", "none")
        .set("stroke", style::PATH)
        .set("stroke-width", pen.num(w));
    if dashed {
        r.set(
            "stroke-dasharray",
            format!("{} {}", pen.num(pen.px(10.0)), pen.num(pen.px(6.0))),
        )
    } else {
        r
    }
}

/// The `mark` layer of one picture.
pub(super) fn layer(
    pen: &Pen,
    d: &Description,
    m: &Mark,
    geo: &Geo,
    frame: Rect,
    notes: &mut Vec<String>,
) -> Group {
    let name = match m.index {
        Some(i) => format!("{}[{i}]", m.member),
        None => m.member.clone(),
    };
    let t = target(d, m, geo);
    let title = match &t {
        Target::Missing => format!("First difference: {name} (no such entry on this side)"),
        Target::Whole => format!("First difference: {name} (the whole description)"),
        _ => format!("First difference: {name} (ringed)"),
    };
    let mut g = pen.layer("mark", &title);
    match t {
        Target::Points(ps) => ps.into_iter().for_each(|p| ring(pen, p, &mut g)),
        Target::Segment(a, b) => {
            g.append(
                Line::new()
                    .set("class", "marked-edge")
                    .set("x1", pen.x(a[0]))
                    .set("y1", pen.y(a[1]))
                    .set("x2", pen.x(b[0]))
                    .set("y2", pen.y(b[1]))
                    .set("stroke", style::MARK)
                    .set("stroke-width", pen.num(pen.size(0.14, 2.5, 6.0))),
            );
            ring(pen, a, &mut g);
            ring(pen, b, &mut g);
        }
        Target::Whole => g.append(frame_rect(pen, frame, false)),
        Target::Missing => {
            notes.push(format!("mark: no entry {name} here"));
            g.append(frame_rect(pen, frame, true));
        }
    }
    g
}
