//! Descriptions of every kind from the reference crate (`Implementation::describe` on small
//! requests and committed vectors), drawn over `Backdrop::of_request` and read back.

use crate::read::*;
use onepath_conformance::debug::svg::{style, Backdrop};
use onepath_conformance::debug::{
    DescribeEntry, DescribeReply, DescribeRequest, Description, ExpansionKind, ReplanData,
};
use onepath_conformance::{Implementation, ReferenceCrate};
use serde_json::{json, Value};

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

// pins [CONF.DEBUG.SVG]: a renderer whose polyline misses the points, whose viewBox is not in world
// units, whose walls or areas are not shaded by cost, or whose expansions are not in order colours
// fails the parsed-XML checks
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
