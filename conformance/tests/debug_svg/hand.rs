//! Hand-made descriptions: marks on every kind, a replan's two colours, hostile inputs, caps,
//! the side-by-side document and the HTML page.

use crate::read::*;
use onepath_conformance::debug::html::{html_page, StepRow, StepTable, MAX_ROWS};
use onepath_conformance::debug::svg::style::{self, fmt_num};
use onepath_conformance::debug::svg::{side_by_side, Backdrop, Mark, Picture, MAX_MARKS};
use onepath_conformance::debug::{
    Description, EdgeData, ExpansionKind, FlowData, GraphPathData, HierarchyData, PathData,
    ReplanData, VoxelPathData,
};
use onepath_conformance::port::wire::Real;
use roxmltree::Document;

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
