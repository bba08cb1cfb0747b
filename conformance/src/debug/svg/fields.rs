//! [CONF.DEBUG.SVG] Whole-grid descriptions: a flow field (cost shading, an arrow from each cell
//! toward its next cell, the goals) and an HPA* hierarchy (chunk borders, entrance nodes, intra
//! edges dashed and inter edges solid).

use super::grid::{rect, runs, Cells};
use super::style::{self, Pen};
use super::{finite2, Backdrop, MAX_MARKS};
use crate::debug::{FlowData, HierarchyData};
use svg::node::element::{Circle, Group, Line, Path};
use svg::Node;

/// The layers of a flow field and its legend.
pub(super) fn flow(
    pen: &Pen,
    f: &FlowData,
    geo: &Cells,
    notes: &mut Vec<String>,
) -> (Vec<Group>, String) {
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

/// The layer of an HPA* hierarchy and its legend.
pub(super) fn hierarchy(
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
