//! [CONF.DEBUG.SVG] [CONF.DEBUG.EXPLAIN] The pictures of descriptions, read back with an XML
//! parser: descriptions of every kind, made by hand and by the reference crate
//! (`Implementation::describe`), are drawn and each picture is checked for what it must show (the
//! root `<svg>` with its sizes, one polyline point per path point at the description's world
//! points, one mark per expansion in order colours, one arrow per flow step, two colours for a
//! replan's settled and reset nodes, the hierarchy's dashed and solid edges, a graph's nodes and
//! edges, the ring of a mark), that no attribute holds `NaN` or `inf`, and that hostile
//! descriptions draw without a panic. The side-by-side document and the HTML page are parsed too.

use onepath_conformance::debug::html::{html_page, StepRow, StepTable, MAX_ROWS};
use onepath_conformance::debug::svg::style::{self, fmt_num};
use onepath_conformance::debug::svg::{
    render_svg, side_by_side, Backdrop, Mark, Picture, MAX_MARKS,
};
use onepath_conformance::debug::{
    DescribeEntry, DescribeReply, DescribeRequest, Description, EdgeData, ExpansionKind, FlowData,
    GraphPathData, HierarchyData, PathData, ReplanData, VoxelPathData,
};
use onepath_conformance::port::wire::Real;
use onepath_conformance::{Implementation, ReferenceCrate};
use roxmltree::{Document, Node};
use serde_json::{json, Value};

// ---------------------------------------------------------------------------------------------
// Reading pictures back.

fn parse(text: &str) -> Document<'_> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    Document::parse_with_options(text, options).unwrap_or_else(|e| {
        panic!(
            "not well-formed XML: {e}\n{}",
            &text[..text.len().min(2000)]
        )
    })
}

fn num(s: &str) -> f64 {
    s.trim()
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {s:?}"))
}

fn attr<'a>(n: Node<'a, '_>, name: &str) -> &'a str {
    n.attribute(name)
        .unwrap_or_else(|| panic!("<{}> has no {name}", n.tag_name().name()))
}

/// The root is `<svg>` with positive `width` and `height` and a four-number `viewBox` of positive
/// size; returns `(width, height)`.
fn check_root(doc: &Document) -> (f64, f64) {
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let (w, h) = (num(attr(root, "width")), num(attr(root, "height")));
    assert!(w > 0.0 && h > 0.0, "size {w}x{h}");
    let vb: Vec<f64> = attr(root, "viewBox").split_whitespace().map(num).collect();
    assert_eq!(vb.len(), 4, "viewBox {vb:?}");
    assert!(vb[2] > 0.0 && vb[3] > 0.0, "viewBox {vb:?}");
    (w, h)
}

/// No attribute anywhere holds `NaN` or `inf` (in any case).
fn check_finite(doc: &Document) {
    for n in doc.descendants().filter(|n| n.is_element()) {
        for a in n.attributes() {
            let v = a.value().to_ascii_lowercase();
            assert!(
                !v.contains("nan") && !v.contains("inf"),
                "<{} {}={:?}>",
                n.tag_name().name(),
                a.name(),
                a.value()
            );
        }
    }
}

fn by_id<'a, 'i>(doc: &'a Document<'i>, id: &str) -> Option<Node<'a, 'i>> {
    doc.descendants()
        .find(|n| n.is_element() && n.attribute("id") == Some(id))
}

fn layer<'a, 'i>(doc: &'a Document<'i>, id: &str) -> Node<'a, 'i> {
    let g = by_id(doc, id).unwrap_or_else(|| panic!("no layer {id}"));
    assert_eq!(g.tag_name().name(), "g");
    assert!(
        g.children()
            .any(|c| c.is_element() && c.tag_name().name() == "title"),
        "layer {id} has no <title>"
    );
    g
}

fn with_class<'a, 'i>(n: Node<'a, 'i>, class: &str) -> Vec<Node<'a, 'i>> {
    n.descendants()
        .filter(|d| d.is_element() && d.attribute("class") == Some(class))
        .collect()
}

/// The points of the path layer's polyline (none when it has no polyline).
fn route(doc: &Document, prefix: &str) -> Vec<[f64; 2]> {
    let g = layer(doc, &format!("{prefix}path"));
    let lines = with_class(g, "route");
    assert!(lines.len() <= 1, "one polyline at most");
    lines.first().map_or(Vec::new(), |l| {
        assert_eq!(l.tag_name().name(), "polyline");
        attr(*l, "points")
            .split_whitespace()
            .map(|p| {
                let (x, y) = p.split_once(',').expect("x,y");
                [num(x), num(y)]
            })
            .collect()
    })
}

/// Equal up to the pictures' rounding (a hundredth of a pixel, well under 1e-3 of a unit here).
fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= 1e-3 * (1.0 + b.abs()),
        "{what}: {a} vs {b}"
    );
}

/// The polyline goes through the description's points, in order.
fn check_route(doc: &Document, points: &[[f64; 2]]) {
    let got = route(doc, "");
    assert_eq!(got.len(), points.len(), "one polyline point per path point");
    for (i, (g, p)) in got.iter().zip(points).enumerate() {
        close(g[0], p[0], &format!("point {i} x"));
        close(g[1], p[1], &format!("point {i} y"));
    }
}

/// The centre of a mark (`rect` or `circle`).
fn centre(n: Node) -> [f64; 2] {
    match n.tag_name().name() {
        "rect" => [
            num(attr(n, "x")) + num(attr(n, "width")) / 2.0,
            num(attr(n, "y")) + num(attr(n, "height")) / 2.0,
        ],
        "circle" => [num(attr(n, "cx")), num(attr(n, "cy"))],
        other => panic!("no centre for <{other}>"),
    }
}

/// One expansion mark per entry, at its point, and returns their fills.
fn check_expanded(doc: &Document, points: &[[f64; 2]]) -> Vec<String> {
    let marks = with_class(layer(doc, "expanded"), "exp");
    assert_eq!(marks.len(), points.len(), "one mark per expansion");
    for (i, (m, p)) in marks.iter().zip(points).enumerate() {
        let c = centre(*m);
        close(c[0], p[0], &format!("expansion {i} x"));
        close(c[1], p[1], &format!("expansion {i} y"));
    }
    marks.iter().map(|m| attr(*m, "fill").to_string()).collect()
}

fn render_checked(p: &Picture) -> String {
    let svg = render_svg(p);
    let doc = parse(&svg);
    check_root(&doc);
    check_finite(&doc);
    svg
}

fn r2(p: &[[Real; 2]]) -> Vec<[f64; 2]> {
    p.iter().map(|q| [q[0].0, q[1].0]).collect()
}

fn r3xy(p: &[[Real; 3]]) -> Vec<[f64; 2]> {
    p.iter().map(|q| [q[0].0, q[1].0]).collect()
}

// ---------------------------------------------------------------------------------------------
// Descriptions from the reference crate.

fn describe(request: Value) -> (DescribeRequest, Vec<Description>) {
    let request: DescribeRequest = serde_json::from_value(request).expect("a describe request");
    let reply = ReferenceCrate
        .describe(&request)
        .expect("the reference describes");
    let DescribeReply::Ran(entries) = reply else {
        panic!("failed: {reply:?}");
    };
    let out = entries
        .into_iter()
        .map(|e| match e {
            DescribeEntry::Described(d) => d,
            DescribeEntry::Error(e) => panic!("error entry {e:?}"),
        })
        .collect();
    (request, out)
}

/// A `w` x `h` map: a wall column with one gap at `x = w/2`, area 1 (cheap) in the top rows and
/// area 2 (dear) in a bottom-right block.
fn map(w: u32, h: u32, space: Option<[f64; 3]>) -> Value {
    let mut cells = String::new();
    for y in 0..h {
        for x in 0..w {
            let a = if x == w / 2 && y != 1 {
                255
            } else if y < 2 {
                1
            } else if x > w / 2 + 1 && y > h / 2 {
                2
            } else {
                0
            };
            cells += &format!("{a:02x}");
        }
    }
    json!({"width": w, "height": h, "cells": cells,
           "multipliers": [[1, 0.5], [2, 4.0]], "space": space})
}

fn grid_options(algorithm: u8) -> Value {
    json!({"agent_size": 1, "connectivity": 8, "diagonal": 2, "algorithm": algorithm,
           "cell_cost": null, "blocked": null, "weight": 1.0, "record": true, "budget": 0})
}

fn vector_request(path: &str) -> Value {
    let text = std::fs::read_to_string(format!("{}/../vectors/{path}", env!("CARGO_MANIFEST_DIR")))
        .expect("a committed vector");
    let v: Value = serde_json::from_str(&text).expect("JSON");
    v["cases"][0]["request"].clone()
}

fn no_mark<'a>(title: &'a str, b: &'a Backdrop, d: &'a Description) -> Picture<'a> {
    Picture {
        title,
        backdrop: b,
        description: d,
        mark: None,
    }
}

#[test]
fn grid_search_picture_shows_walls_expansions_and_the_path_in_world_coordinates() {
    let space = [10.0, -5.0, 2.0];
    let (req, ds) = describe(json!({"grid": {
        "map": map(12, 8, Some(space)), "options": grid_options(0),
        "queries": [{"start": [0, 7], "goal": [11, 7], "schedule": []}]}}));
    let b = Backdrop::of_request(&req, 0);
    let Description::Path(p) = &ds[0] else {
        panic!("a path")
    };
    assert!(p.points.len() > 5 && p.expanded.len() > 10, "a real search");
    let svg = render_checked(&no_mark("reference", &b, &ds[0]));
    let doc = parse(&svg);
    check_route(&doc, &r2(&p.points));
    // The first point is the start cell's centre in world units: (ox + 0.5 s, oy + 7.5 s).
    close(p.points[0][0].0, 10.0 + 0.5 * 2.0, "start x");
    close(p.points[0][1].0, -5.0 + 7.5 * 2.0, "start y");
    let fills = check_expanded(&doc, &r2(&p.expanded_points));
    assert_eq!(
        fills[0],
        style::order(0, fills.len()),
        "first expansion blue"
    );
    assert_eq!(
        fills.last().unwrap(),
        &style::order(1, 2),
        "last expansion yellow"
    );
    assert_ne!(fills[0], *fills.last().unwrap());
    // Start and goal: distinct shapes at the path's ends.
    let g = layer(&doc, "path");
    let (start, goal) = (with_class(g, "start"), with_class(g, "goal"));
    assert_eq!((start.len(), goal.len()), (1, 1));
    assert_eq!(start[0].tag_name().name(), "circle");
    assert_eq!(goal[0].tag_name().name(), "rect");
    assert_ne!(attr(start[0], "fill"), attr(goal[0], "fill"));
    let last = p.points.last().unwrap();
    let c = centre(goal[0]);
    close(c[0], last[0].0, "goal x");
    close(c[1], last[1].0, "goal y");
    // Walls: one rect per wall run, dark; the column x = 6 is a wall but for row 1 (7 runs).
    let walls: Vec<_> = layer(&doc, "walls")
        .children()
        .filter(|n| n.tag_name().name() == "rect")
        .collect();
    assert_eq!(walls.len(), 7);
    assert!(walls.iter().all(|w| attr(*w, "fill") == style::WALL));
    close(num(attr(walls[0], "x")), 10.0 + 6.0 * 2.0, "wall x");
    // Areas: cheaper is lighter (area 1 at 0.5 vs area 2 at 4.0).
    let areas = layer(&doc, "areas");
    let fills: Vec<&str> = areas
        .children()
        .filter(|n| n.tag_name().name() == "rect")
        .map(|n| attr(n, "fill"))
        .collect();
    assert!(
        fills.contains(&style::area(0.5).as_str()) && fills.contains(&style::area(4.0).as_str())
    );
    let lum = |c: &str| u32::from_str_radix(&c[1..3], 16).unwrap();
    assert!(lum(&style::area(0.5)) > lum(&style::area(4.0)));
    // The viewBox is in world units: it holds the grid's world rectangle.
    let vb: Vec<f64> = attr(doc.root_element(), "viewBox")
        .split_whitespace()
        .map(num)
        .collect();
    assert!(vb[0] <= 10.0 && vb[1] <= -5.0 && vb[0] + vb[2] >= 34.0 && vb[1] + vb[3] >= 11.0);
    assert!(num(attr(doc.root_element(), "width")) <= 800.0);
}

#[test]
fn bidi_and_hex_pictures() {
    let (req, ds) = describe(json!({"bidi": {
        "map": map(14, 9, None), "options": grid_options(0),
        "queries": [{"start": [0, 8], "goal": [13, 8], "schedule": []},
                    {"start": [0, 0], "goal": [13, 0], "schedule": []}]}}));
    let b = Backdrop::of_request(&req, 0);
    for d in &ds {
        let Description::Path(p) = d else { panic!() };
        let doc_text = render_checked(&no_mark("bidi", &b, d));
        let doc = parse(&doc_text);
        check_route(&doc, &r2(&p.points));
        check_expanded(&doc, &r2(&p.expanded_points));
    }
    let (req, ds) = describe(json!({"hex": {"layout": 1,
        "map": map(9, 7, None), "options": grid_options(0),
        "queries": [{"start": [0, 6], "goal": [8, 6], "schedule": []}]}}));
    let b = Backdrop::of_request(&req, 0);
    let Description::Path(p) = &ds[0] else {
        panic!()
    };
    assert!(!p.points.is_empty());
    let text = render_checked(&no_mark("hex", &b, &ds[0]));
    let doc = parse(&text);
    check_route(&doc, &r2(&p.points));
    check_expanded(&doc, &r2(&p.expanded_points));
    // Every cell a hexagon: 63 cells, 6 of them walls.
    let hexes = |id: &str| {
        layer(&doc, id)
            .children()
            .filter(|n| n.tag_name().name() == "polygon")
            .map(|n| attr(n, "points").split_whitespace().count())
            .collect::<Vec<_>>()
    };
    let (areas, walls) = (hexes("areas"), hexes("walls"));
    assert_eq!((areas.len(), walls.len()), (57, 6));
    assert!(areas.iter().chain(&walls).all(|&k| k == 6));
}

#[test]
fn voxel_picture_projects_the_path_with_height_as_colour() {
    let (sx, sy, sz) = (5u32, 4u32, 3u32);
    let mut cells = String::new();
    for z in 0..sz {
        for y in 0..sy {
            for x in 0..sx {
                cells += if x == 2 && z < 2 && y > 0 { "ff" } else { "00" };
            }
        }
    }
    let (req, ds) = describe(json!({"voxel": {"size": [sx, sy, sz], "cells": cells,
        "multipliers": [], "space": [1.0, 2.0, 3.0, 0.5],
        "options": {"connectivity": 6, "diagonal": 0, "algorithm": 0, "cell_cost": null,
                    "blocked": null, "weight": 1.0, "record": true, "budget": 0},
        "queries": [{"start": [0, 3, 0], "goal": [4, 3, 0], "schedule": []}]}}));
    let b = Backdrop::of_request(&req, 0);
    let Description::VoxelPath(v) = &ds[0] else {
        panic!()
    };
    let text = render_checked(&no_mark("voxel", &b, &ds[0]));
    let doc = parse(&text);
    check_route(&doc, &r3xy(&v.points));
    check_expanded(&doc, &r3xy(&v.expanded_points));
    let heights = layer(&doc, "heights");
    let segs: Vec<_> = heights
        .children()
        .filter(|n| n.tag_name().name() == "line")
        .collect();
    assert_eq!(segs.len(), v.points.len() - 1);
    // The path climbs over the wall (z 0 -> 2 -> 0): low and high segments differ in colour.
    let zs: Vec<f64> = v.points.iter().map(|p| p[2].0).collect();
    assert!(
        zs.iter().any(|&z| z > 1.0 * 0.5 + 3.0),
        "the path climbs: {zs:?}"
    );
    let colours: std::collections::BTreeSet<&str> =
        segs.iter().map(|s| attr(*s, "stroke")).collect();
    assert!(colours.len() >= 2, "{colours:?}");
    assert_eq!(with_class(heights, "height").len(), v.points.len());
    // Walls are projected: the x = 2 columns with walls are drawn.
    assert!(layer(&doc, "walls")
        .children()
        .any(|n| n.tag_name().name() == "rect"));
}

#[test]
fn hpa_hierarchy_picture_has_chunks_entrances_and_both_edge_kinds() {
    let (req, ds) = describe(json!({"hpa": {"map": map(16, 12, None),
        "options": {"chunk_size": 4, "connectivity": 8, "diagonal": 2, "weight": 1.0,
                    "smooth": false, "record": true, "budget": 0},
        "queries": [{"edits": [[3, 3, 255]], "start": [0, 11], "goal": [15, 11], "schedule": []}]}}));
    assert_eq!(ds.len(), 2);
    let Description::Path(p) = &ds[0] else {
        panic!()
    };
    let doc_text = render_checked(&no_mark("hpa", &Backdrop::of_request(&req, 0), &ds[0]));
    let doc = parse(&doc_text);
    check_route(&doc, &r2(&p.points));
    check_expanded(&doc, &r2(&p.expanded_points));
    let Description::Hierarchy(h) = &ds[1] else {
        panic!()
    };
    assert!(h.built && !h.nodes.is_empty());
    assert!(h.edges.iter().any(|e| e.inter) && h.edges.iter().any(|e| !e.inter));
    let b = Backdrop::of_request(&req, 1);
    // The edit of query 0 is in the hierarchy's backdrop.
    let Backdrop::Plane { cells, .. } = &b else {
        panic!()
    };
    assert_eq!(cells[3 * 16 + 3], 255);
    let text = render_checked(&no_mark("hierarchy", &b, &ds[1]));
    let doc = parse(&text);
    let g = layer(&doc, "hierarchy");
    let nodes = with_class(g, "node");
    assert_eq!(nodes.len(), h.nodes.len());
    for (n, p) in nodes.iter().zip(&h.node_points) {
        let c = centre(*n);
        close(c[0], p[0].0, "node x");
        close(c[1], p[1].0, "node y");
    }
    let (inter, intra) = (with_class(g, "inter"), with_class(g, "intra"));
    assert_eq!(inter.len(), h.edges.iter().filter(|e| e.inter).count());
    assert_eq!(intra.len(), h.edges.iter().filter(|e| !e.inter).count());
    assert!(intra
        .iter()
        .all(|e| e.attribute("stroke-dasharray").is_some()));
    assert!(inter
        .iter()
        .all(|e| e.attribute("stroke-dasharray").is_none()));
    // Chunk borders: x = 0, 4, 8, 12, 16 and y = 0, 4, 8, 12 (and the closing lines again).
    let chunks = with_class(g, "chunks");
    assert_eq!(chunks.len(), 1);
    let d = attr(chunks[0], "d");
    for k in ["M4,0V12", "M8,0V12", "M0,4H16", "M0,8H16"] {
        assert!(d.contains(k), "{k} in {d}");
    }
}

fn real_replan(record: bool) -> Vec<(DescribeRequest, ReplanData)> {
    let dir = format!("{}/../vectors/replanning", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .iter()
        .take(12)
        .map(|f| {
            let name = f.strip_prefix(f.parent().unwrap()).unwrap();
            let mut r = vector_request(&format!("replanning/{}", name.display()));
            r["options"]["record"] = json!(record);
            let (req, ds) = describe(json!({ "replan": r }));
            let Description::Replan(d) = &ds[0] else {
                panic!()
            };
            (req, d.clone())
        })
        .collect()
}

#[test]
fn replan_pictures_colour_settled_and_reset_nodes_apart() {
    let mut both = 0;
    for (req, r) in real_replan(true) {
        let b = Backdrop::of_request(&req, 0);
        let d = Description::Replan(r.clone());
        let text = render_checked(&no_mark("replan", &b, &d));
        let doc = parse(&text);
        check_route(&doc, &r2(&r.points));
        let fills = check_expanded(&doc, &r2(&r.expanded_points));
        for (f, k) in fills.iter().zip(&r.expanded_kinds) {
            let want = match k {
                ExpansionKind::Settle => style::SETTLE,
                ExpansionKind::Reset => style::RESET,
            };
            assert_eq!(f, want);
        }
        let kinds: std::collections::BTreeSet<&String> = fills.iter().collect();
        if r.expanded_kinds.contains(&ExpansionKind::Settle)
            && r.expanded_kinds.contains(&ExpansionKind::Reset)
        {
            assert_eq!(kinds.len(), 2);
            both += 1;
        }
    }
    assert!(both > 0, "some replan vector settles and resets");
    assert_ne!(style::SETTLE, style::RESET);
}

#[test]
fn flow_picture_has_an_arrow_per_step_toward_the_next_cell() {
    let (req, ds) = describe(json!({"flow": vector_request("flow-field/FLOW-0001.json")}));
    let Description::Flow(f) = &ds[0] else {
        panic!()
    };
    let steps: Vec<(usize, u32)> = f
        .next
        .iter()
        .enumerate()
        .filter_map(|(i, n)| n.map(|n| (i, n)))
        .collect();
    assert!(steps.len() > 10);
    let b = Backdrop::of_request(&req, 0);
    let text = render_checked(&no_mark("flow", &b, &ds[0]));
    let doc = parse(&text);
    let arrows = with_class(layer(&doc, "flow"), "arrow");
    assert_eq!(arrows.len(), steps.len(), "one arrow per cell with a step");
    let w = f.width as usize;
    for (a, &(i, n)) in arrows.iter().zip(&steps) {
        // The shaft runs from behind cell i's centre toward cell n's.
        let d = attr(*a, "d");
        let nums: Vec<f64> = d
            .split(['M', 'L', ','])
            .filter(|s| !s.is_empty())
            .map(num)
            .collect();
        let (ci, cn) = (
            [(i % w) as f64 + 0.5, (i / w) as f64 + 0.5],
            [(n as usize % w) as f64 + 0.5, (n as usize / w) as f64 + 0.5],
        );
        let (shaft, want) = (
            [nums[2] - nums[0], nums[3] - nums[1]],
            [cn[0] - ci[0], cn[1] - ci[1]],
        );
        close(shaft[0], 0.75 * want[0], "arrow dx");
        close(shaft[1], 0.75 * want[1], "arrow dy");
    }
    assert_eq!(
        with_class(layer(&doc, "goals"), "goal").len(),
        f.goals.len()
    );
    assert!(layer(&doc, "costs")
        .children()
        .any(|n| n.tag_name().name() == "rect"));
}

fn graph_request(file: &str) -> Value {
    let text = std::fs::read_to_string(format!(
        "{}/../vectors/graphs/{file}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let c = &v["cases"][0];
    json!({"graph": {"case": {"graph": c["graph"], "landmarks": c["landmarks"]},
                     "variant": "dijkstra", "query": c["queries"][0]}})
}

#[test]
fn graph_pictures_draw_nodes_edges_and_the_path() {
    // An edges case without positions: laid out on a circle.
    let (req, ds) = describe(graph_request("GRAPH-0003.json"));
    let b = Backdrop::of_request(&req, 0);
    let Backdrop::Graph {
        node_count,
        edges,
        positions,
    } = &b
    else {
        panic!()
    };
    assert!(positions.is_none());
    let Description::GraphPath(g) = &ds[0] else {
        panic!()
    };
    assert!(g.positions.is_empty() && g.nodes.len() >= 2);
    let text = render_checked(&no_mark("graph", &b, &ds[0]));
    let doc = parse(&text);
    let graph = layer(&doc, "graph");
    let nodes = with_class(graph, "node");
    assert_eq!(nodes.len(), *node_count as usize);
    assert_eq!(with_class(graph, "edge").len(), edges.len());
    let on_circle: Vec<[f64; 2]> = nodes.iter().map(|n| centre(*n)).collect();
    for p in &on_circle {
        close(p[0].hypot(p[1]), 1.0, "radius");
    }
    let path: Vec<[f64; 2]> = g.nodes.iter().map(|&n| on_circle[n as usize]).collect();
    check_route(&doc, &path);
    let exp: Vec<[f64; 2]> = g.expanded.iter().map(|&n| on_circle[n as usize]).collect();
    check_expanded(&doc, &exp);
    // The path is thicker than the edges.
    let thick = num(attr(
        with_class(layer(&doc, "path"), "route")[0],
        "stroke-width",
    ));
    let thin = num(attr(with_class(graph, "edge")[0], "stroke-width"));
    assert!(thick > thin);

    // A points case: positions from its points, links from the reference's PointGraph.
    let (req, ds) = describe(graph_request("GRAPH-0012.json"));
    let b = Backdrop::of_request(&req, 0);
    let Description::GraphPath(g) = &ds[0] else {
        panic!()
    };
    assert_eq!(g.positions.len(), g.nodes.len());
    let Backdrop::Graph { edges, .. } = &b else {
        panic!()
    };
    assert!(!edges.is_empty());
    let text = render_checked(&no_mark("points", &b, &ds[0]));
    let doc = parse(&text);
    check_route(&doc, &r3xy(&g.positions));
    check_expanded(&doc, &r3xy(&g.expanded_positions));
    assert_eq!(with_class(layer(&doc, "graph"), "edge").len(), edges.len());
}

// ---------------------------------------------------------------------------------------------
// Hand-made descriptions, marks and hostile inputs.

fn rp(v: &[[f64; 2]]) -> Vec<[Real; 2]> {
    v.iter().map(|p| [Real(p[0]), Real(p[1])]).collect()
}

fn plane(w: u32, h: u32) -> Backdrop {
    let mut cells = vec![0u8; (w * h) as usize];
    cells[(w + 1) as usize] = 255;
    Backdrop::Plane {
        width: w,
        height: h,
        cells,
        multipliers: vec![],
        space: None,
        hex_layout: None,
    }
}

fn path_data(w: u32, h: u32, cells: Vec<u32>, expanded: Vec<u32>) -> PathData {
    let pt = |c: &u32| [(c % w) as f64 + 0.5, (c / w) as f64 + 0.5];
    PathData {
        width: w,
        height: h,
        algorithm: 0,
        status: 2,
        cost: Real(cells.len() as f64),
        points: rp(&cells.iter().map(pt).collect::<Vec<_>>()),
        expanded_points: rp(&expanded.iter().map(pt).collect::<Vec<_>>()),
        expanded_count: expanded.len() as u64,
        iterations: expanded.len() as u64,
        cells,
        expanded,
    }
}

fn rings(doc: &Document, prefix: &str) -> Vec<[f64; 2]> {
    let g = layer(doc, &format!("{prefix}mark"));
    with_class(g, "ring").iter().map(|n| centre(*n)).collect()
}

#[test]
fn marks_ring_the_named_entry_or_frame_the_whole() {
    let b = plane(6, 5);
    let d = Description::Path(path_data(
        6,
        5,
        vec![0, 7, 14, 21],
        vec![0, 1, 7, 8, 14, 21],
    ));
    let pic = |m: Option<&Mark>| {
        render_checked(&Picture {
            title: "t",
            backdrop: &b,
            description: &d,
            mark: m,
        })
    };
    let m = |member: &str, index: Option<usize>| Mark {
        member: member.to_string(),
        index,
    };
    let text = pic(None);
    assert!(
        by_id(&parse(&text), "mark").is_none(),
        "no mark without a Mark"
    );
    for (mark, want) in [
        (m("cells", Some(2)), [2.5, 2.5]),
        (m("points", Some(0)), [0.5, 0.5]),
        (m("expanded", Some(3)), [2.5, 1.5]),
        (m("expanded_points", Some(5)), [3.5, 3.5]),
    ] {
        let text = pic(Some(&mark));
        let doc = parse(&text);
        assert_eq!(rings(&doc, ""), vec![want], "{mark:?}");
    }
    for (mark, dashed) in [(m("cost", None), false), (m("cells", Some(99)), true)] {
        let text = pic(Some(&mark));
        let doc = parse(&text);
        let g = layer(&doc, "mark");
        assert!(rings(&doc, "").is_empty());
        let frames = with_class(g, "frame");
        assert_eq!(frames.len(), 1, "{mark:?}");
        assert_eq!(frames[0].attribute("stroke-dasharray").is_some(), dashed);
    }
    // Flow cells, hierarchy nodes and edges, graph nodes, replan start.
    let flow = Description::Flow(FlowData {
        width: 6,
        height: 5,
        costs: vec![Real(1.0); 30],
        next: vec![None; 30],
        goals: vec![8],
        status: 2,
        settled: 30,
    });
    let hier = Description::Hierarchy(HierarchyData {
        built: true,
        chunk_size: 3,
        chunks: [2, 2],
        nodes: vec![[2, 0], [3, 1]],
        node_points: rp(&[[2.5, 0.5], [3.5, 0.5]]),
        edges: vec![EdgeData {
            from: 0,
            to: 1,
            cost: Real(1.0),
            inter: true,
            path: vec![2, 3],
        }],
    });
    let replan = Description::Replan(replan_data());
    for (d, mark, want) in [
        (&flow, m("next", Some(13)), vec![[1.5, 2.5]]),
        (&flow, m("goals", Some(0)), vec![[2.5, 1.5]]),
        (&hier, m("node_points", Some(1)), vec![[3.5, 0.5]]),
        (&hier, m("edges", Some(0)), vec![[2.5, 0.5], [3.5, 0.5]]),
        (&replan, m("start", None), vec![[0.5, 0.5]]),
        (&replan, m("expanded_kinds", Some(1)), vec![[1.5, 0.5]]),
    ] {
        let text = render_checked(&Picture {
            title: "t",
            backdrop: &b,
            description: d,
            mark: Some(&mark),
        });
        assert_eq!(rings(&parse(&text), ""), want, "{mark:?}");
    }
}

fn replan_data() -> ReplanData {
    ReplanData {
        width: 6,
        height: 5,
        mode: 1,
        start: 0,
        goal: 29,
        initialized: true,
        found: true,
        cost: Real(7.0),
        cells: vec![0, 7, 14, 21, 28, 29],
        path_error: None,
        points: rp(&[
            [0.5, 0.5],
            [1.5, 1.5],
            [2.5, 2.5],
            [3.5, 3.5],
            [4.5, 4.5],
            [5.5, 4.5],
        ]),
        expanded: vec![0, 1, 2],
        expanded_kinds: vec![
            ExpansionKind::Settle,
            ExpansionKind::Reset,
            ExpansionKind::Settle,
        ],
        expanded_points: rp(&[[0.5, 0.5], [1.5, 0.5], [2.5, 0.5]]),
        expanded_count: 3,
        iterations: 9,
        pending: 2,
    }
}

#[test]
fn hand_made_replan_uses_two_colours_in_kind_order() {
    let b = plane(6, 5);
    let d = Description::Replan(replan_data());
    let text = render_checked(&no_mark("replan", &b, &d));
    let doc = parse(&text);
    let fills = check_expanded(&doc, &[[0.5, 0.5], [1.5, 0.5], [2.5, 0.5]]);
    assert_eq!(fills, vec![style::SETTLE, style::RESET, style::SETTLE]);
    check_route(&doc, &r2(&replan_data().points));
}

fn hostile() -> Vec<(Backdrop, Description)> {
    let nan = Real(f64::NAN);
    let inf = Real(f64::INFINITY);
    let mut out = Vec::new();
    let empty_path = PathData {
        width: 0,
        height: 0,
        algorithm: 0,
        status: 3,
        cost: inf,
        cells: vec![],
        points: vec![],
        expanded: vec![],
        expanded_points: vec![],
        expanded_count: 0,
        iterations: 0,
    };
    // Empty, cells past the grid, mismatched lengths, non-finite and huge points.
    out.push((plane(4, 4), Description::Path(empty_path.clone())));
    out.push((
        plane(4, 4),
        Description::Path(PathData {
            width: 4,
            height: 4,
            cells: vec![0, 1_000_000, u32::MAX, 5],
            points: vec![
                [nan, Real(1.0)],
                [inf, Real(-inf.0)],
                [Real(1e300), Real(-1e300)],
            ],
            expanded: vec![u32::MAX, 3],
            expanded_points: vec![[Real(0.5), nan]; 7],
            expanded_count: 1 << 40,
            cost: Real(1e308),
            ..empty_path.clone()
        }),
    ));
    // A backdrop of another size and a broken space.
    out.push((
        Backdrop::Plane {
            width: 3,
            height: 2,
            cells: vec![255; 2],
            multipliers: vec![(0, f64::NAN), (1, -2.0), (2, f64::INFINITY)],
            space: Some([f64::NAN, f64::INFINITY, -1.0]),
            hex_layout: Some(7),
        },
        Description::Path(path_data(40, 30, vec![0, 41, 1199], vec![5, 6])),
    ));
    out.push((
        Backdrop::Plane {
            width: 0,
            height: 0,
            cells: vec![],
            multipliers: vec![],
            space: Some([0.0, 0.0, 0.0]),
            hex_layout: None,
        },
        Description::Flow(FlowData {
            width: 3,
            height: 3,
            costs: vec![inf, nan, Real(1e300), Real(-1e300), Real(0.0)],
            next: vec![
                Some(u32::MAX),
                None,
                Some(0),
                Some(1),
                Some(2),
                Some(3),
                Some(9),
            ],
            goals: vec![u32::MAX],
            status: 99,
            settled: 0,
        }),
    ));
    out.push((
        plane(5, 5),
        Description::Hierarchy(HierarchyData {
            built: false,
            chunk_size: 0,
            chunks: [u32::MAX, u32::MAX],
            nodes: vec![[u32::MAX, 0]],
            node_points: vec![[nan, inf]; 3],
            edges: vec![EdgeData {
                from: 7,
                to: u32::MAX,
                cost: nan,
                inter: false,
                path: vec![],
            }],
        }),
    ));
    out.push((
        plane(5, 5),
        Description::Hierarchy(HierarchyData {
            built: true,
            chunk_size: 1,
            chunks: [u32::MAX, 3],
            nodes: vec![],
            node_points: vec![],
            edges: vec![],
        }),
    ));
    out.push((
        Backdrop::Volume {
            size: [u32::MAX, u32::MAX, u32::MAX],
            cells: vec![255; 10],
            space: Some([f64::NAN; 4]),
        },
        Description::VoxelPath(VoxelPathData {
            size: [0, 0, 0],
            algorithm: 9,
            status: 0,
            cost: nan,
            cells: vec![u32::MAX, 0],
            points: vec![[nan, nan, nan]],
            expanded: vec![1, 2, 3],
            expanded_points: vec![],
            expanded_count: 0,
            iterations: 0,
        }),
    ));
    out.push((
        Backdrop::Graph {
            node_count: 0,
            edges: vec![(0, 1), (u32::MAX, 2)],
            positions: Some(vec![[f64::NAN, 0.0, 0.0], [1.0, 1.0, 1.0]]),
        },
        Description::GraphPath(GraphPathData {
            algorithm: "<&\"'>".to_string(),
            status: 2,
            cost: inf,
            nodes: vec![0, 1, u32::MAX],
            positions: vec![[inf, inf, inf]],
            expanded: vec![u32::MAX; 4],
            expanded_positions: vec![],
            expanded_count: 4,
            iterations: 4,
        }),
    ));
    out.push((
        Backdrop::Graph {
            node_count: 3,
            edges: vec![(0, 0), (0, 2)],
            positions: Some(vec![[2.0, 2.0, 0.0]; 3]),
        },
        Description::GraphPath(GraphPathData {
            algorithm: "astar".to_string(),
            status: 2,
            cost: Real(0.0),
            nodes: vec![0, 2],
            positions: vec![],
            expanded: vec![0, 1, 2],
            expanded_positions: vec![],
            expanded_count: 3,
            iterations: 3,
        }),
    ));
    // A graph description over a grid, a grid description over a graph.
    out.push((
        plane(3, 3),
        Description::GraphPath(GraphPathData {
            algorithm: "dijkstra".to_string(),
            status: 2,
            cost: Real(1.0),
            nodes: vec![5, 9],
            positions: vec![],
            expanded: vec![],
            expanded_positions: vec![],
            expanded_count: 0,
            iterations: 0,
        }),
    ));
    out.push((
        Backdrop::Graph {
            node_count: 4,
            edges: vec![],
            positions: None,
        },
        Description::Replan(ReplanData {
            expanded_kinds: vec![],
            cells: vec![99, 100],
            points: vec![],
            path_error: Some("size_mismatch".to_string()),
            cost: inf,
            ..replan_data()
        }),
    ));
    out
}

#[test]
fn hostile_descriptions_draw_without_panic_and_with_finite_numbers() {
    let marks = [
        None,
        Some(Mark {
            member: "cells".to_string(),
            index: Some(usize::MAX),
        }),
        Some(Mark {
            member: "edges".to_string(),
            index: Some(0),
        }),
        Some(Mark {
            member: "nodes".to_string(),
            index: Some(2),
        }),
        Some(Mark {
            member: "next".to_string(),
            index: Some(0),
        }),
        Some(Mark {
            member: "no such member".to_string(),
            index: Some(3),
        }),
        Some(Mark {
            member: "goal".to_string(),
            index: None,
        }),
    ];
    let cases = hostile();
    assert!(cases.len() >= 10);
    for (k, (b, d)) in cases.iter().enumerate() {
        for m in &marks {
            let title = format!("hostile {k} <&\"'>\u{1}\u{fffe}");
            let p = Picture {
                title: &title,
                backdrop: b,
                description: d,
                mark: m.as_ref(),
            };
            let text = render_checked(&p);
            let doc = parse(&text);
            assert!(doc.descendants().any(|n| n.tag_name().name() == "desc"));
            if m.is_some() {
                layer(&doc, "mark");
            }
            let t = doc
                .root_element()
                .children()
                .find(|n| n.tag_name().name() == "title")
                .and_then(|n| n.text())
                .unwrap();
            assert_eq!(t, format!("hostile {k} <&\"'>"));
            let pair = side_by_side(&p, &p, "caption <&>");
            let doc = parse(&pair);
            check_root(&doc);
            check_finite(&doc);
        }
    }
}

#[test]
fn large_inputs_are_capped_and_noted() {
    let n = MAX_MARKS + 1_000;
    let d = Description::Path(PathData {
        expanded: (0..n as u32).map(|i| i % 400).collect(),
        expanded_points: vec![],
        ..path_data(20, 20, vec![0, 21], vec![])
    });
    let b = plane(20, 20);
    let text = render_checked(&no_mark("big", &b, &d));
    let doc = parse(&text);
    assert_eq!(with_class(layer(&doc, "expanded"), "exp").len(), MAX_MARKS);
    let desc = doc
        .descendants()
        .find(|n| n.tag_name().name() == "desc")
        .and_then(|n| n.text())
        .unwrap();
    assert!(
        desc.contains(&format!("the first {MAX_MARKS} of {n}")),
        "{desc}"
    );
}

#[test]
fn side_by_side_nests_both_pictures_over_one_frame_with_a_caption() {
    let b = plane(6, 5);
    let e = Description::Path(path_data(6, 5, vec![0, 7, 14], vec![0, 1, 7, 14]));
    let f = Description::Path(path_data(6, 5, vec![0, 7, 13, 14], vec![0, 7, 13, 14]));
    let m = Mark {
        member: "cells".to_string(),
        index: Some(2),
    };
    let left = Picture {
        title: "expected: reference",
        backdrop: &b,
        description: &e,
        mark: Some(&m),
    };
    let right = Picture {
        title: "found: port",
        description: &f,
        ..left
    };
    let caption = "query 0: path.cells[2] differs: expected 14, found 13 <&>";
    let text = side_by_side(&left, &right, caption);
    let doc = parse(&text);
    check_root(&doc);
    check_finite(&doc);
    let nested: Vec<_> = doc
        .root_element()
        .children()
        .filter(|n| n.tag_name().name() == "svg")
        .collect();
    assert_eq!(nested.len(), 2);
    assert_eq!(
        nested[0].attribute("viewBox"),
        nested[1].attribute("viewBox")
    );
    assert!(num(attr(nested[1], "x")) >= num(attr(nested[0], "width")));
    assert_eq!(route(&doc, "left-").len(), 3);
    assert_eq!(route(&doc, "right-").len(), 4);
    assert_eq!(rings(&doc, "left-"), vec![[2.5, 2.5]]);
    assert_eq!(rings(&doc, "right-"), vec![[1.5, 2.5]]);
    let caption_text: String = layer(&doc, "caption")
        .descendants()
        .filter(|n| n.tag_name().name() == "text")
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(caption_text, caption);
    let titles: Vec<&str> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "text")
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect();
    assert!(titles.contains(&"expected: reference") && titles.contains(&"found: port"));
}

#[test]
fn html_page_is_self_contained_escaped_and_marks_the_first_row() {
    let b = plane(6, 5);
    let e = Description::Path(path_data(6, 5, vec![0, 7, 14], vec![0, 1, 7]));
    let f = Description::Path(path_data(6, 5, vec![0, 7, 14], vec![0, 2, 7]));
    let m = Mark {
        member: "expanded".to_string(),
        index: Some(1),
    };
    let left = Picture {
        title: "expected <ref> & \"co\"",
        backdrop: &b,
        description: &e,
        mark: Some(&m),
    };
    let right = Picture {
        title: "found 'port'",
        description: &f,
        ..left
    };
    let rows = vec![
        StepRow {
            index: 0,
            expected: "0".into(),
            found: "0".into(),
        },
        StepRow {
            index: 1,
            expected: "1 <a> & \"b\"".into(),
            found: "2 'c'".into(),
        },
        StepRow {
            index: 2,
            expected: "7".into(),
            found: String::new(),
        },
    ];
    let table = StepTable {
        member: "expanded".into(),
        rows,
        first: Some(1),
    };
    let title = "explain <GRID-0001> & more";
    let page = html_page(
        title,
        &left,
        &right,
        "query 0: expanded[1] <differs>",
        &table,
    );
    assert!(page.starts_with("<!DOCTYPE html>"));
    let doc = parse(&page);
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "html");
    let texts = |tag: &str| -> Vec<String> {
        doc.descendants()
            .filter(|n| n.tag_name().name() == tag)
            .map(|n| {
                let t = n
                    .descendants()
                    .filter(|t| t.is_text())
                    .filter_map(|t| t.text())
                    .collect::<String>();
                t.trim().to_string()
            })
            .collect()
    };
    assert_eq!(texts("title")[0], title);
    assert_eq!(texts("h1"), vec![title.to_string()]);
    assert!(texts("p").contains(&"query 0: expanded[1] <differs>".to_string()));
    // Both pictures inline, titled; no scripts, no external resources.
    let svgs: Vec<_> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "svg" && n.attribute("class").is_none())
        .filter(|n| n.parent_element().map(|p| p.tag_name().name()) == Some("figure"))
        .collect();
    assert_eq!(svgs.len(), 2);
    assert!(by_id(&doc, "left-mark").is_some() && by_id(&doc, "right-mark").is_some());
    assert!(texts("text").contains(&"expected <ref> & \"co\"".to_string()));
    assert!(texts("text").contains(&"found 'port'".to_string()));
    for n in doc.descendants().filter(|n| n.is_element()) {
        assert_ne!(n.tag_name().name(), "script");
        assert!(n.attribute("src").is_none());
        if let Some(h) = n.attribute("href") {
            assert!(h.starts_with('#'), "external link {h}");
        }
    }
    // The step table: three rows, the second marked.
    let trs: Vec<_> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "tr")
        .filter(|n| n.parent_element().map(|p| p.tag_name().name()) == Some("tbody"))
        .collect();
    assert_eq!(trs.len(), 3);
    let marked: Vec<usize> = trs
        .iter()
        .enumerate()
        .filter(|(_, r)| r.attribute("class") == Some("first"))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(marked, vec![1]);
    assert_eq!(trs[1].attribute("id"), Some("first-difference"));
    let cells: Vec<String> = trs[1]
        .children()
        .filter(|n| n.is_element())
        .map(|n| n.text().unwrap_or("").to_string())
        .collect();
    assert_eq!(cells, vec!["1", "1 <a> & \"b\"", "2 'c'"]);

    // A long table keeps a window around the first difference.
    let long = StepTable {
        member: "expanded".into(),
        rows: (0..10_000)
            .map(|i| StepRow {
                index: i,
                expected: i.to_string(),
                found: i.to_string(),
            })
            .collect(),
        first: Some(9_000),
    };
    let page = html_page("long", &left, &right, "c", &long);
    let doc = parse(&page);
    let trs: Vec<_> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "tr")
        .filter(|n| n.parent_element().map(|p| p.tag_name().name()) == Some("tbody"))
        .collect();
    assert_eq!(trs.len(), MAX_ROWS);
    let first = by_id(&doc, "first-difference").expect("the first row is in the window");
    assert_eq!(
        first
            .children()
            .find(|n| n.is_element())
            .and_then(|n| n.text()),
        Some("9000")
    );
}

#[test]
fn numbers_are_finite_and_short() {
    assert_eq!(fmt_num(1.5, 3), "1.5");
    assert_eq!(fmt_num(2.0, 3), "2");
    assert_eq!(fmt_num(-0.0001, 2), "0");
    assert_eq!(fmt_num(f64::INFINITY, 2), "0");
    assert_eq!(fmt_num(f64::NAN, 2), "0");
    assert_eq!(style::order(0, 5), "#3b528b");
    assert_eq!(style::order(4, 5), "#fde725");
    assert_eq!(style::clean("a\u{1}b\nc"), "ab\nc");
}
