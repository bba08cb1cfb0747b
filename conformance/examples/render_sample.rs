//! Writes a sample picture and page of [CONF.DEBUG.SVG] / [CONF.DEBUG.EXPLAIN] for
//! `scripts/browser-check`: `render_sample OUT.svg OUT.html`.
//!
//! The reference crate describes a small A* grid search with expansions recorded
//! (`Implementation::describe`, a `grid` describe request); a copy with two expansions swapped
//! stands in for a found side that differs. `OUT.svg` is the bare picture of the reference's
//! description; `OUT.html` the page with both side by side, the swapped expansion ringed, and the
//! step table of the `expanded` list.
use onepath_conformance::bidi::BidiRequest;
use onepath_conformance::debug::html::{html_page, StepRow, StepTable};
use onepath_conformance::debug::svg::{render_svg, Backdrop, Mark, Picture};
use onepath_conformance::debug::{DescribeEntry, DescribeReply, DescribeRequest, Description};
use onepath_conformance::grid::vectors::MapFile;
use onepath_conformance::grid::GridOptionsData;
use onepath_conformance::lattice::Query;
use onepath_conformance::{Implementation, ReferenceCrate};

/// A 24 x 16 map: a wall with two gaps, a cheap band (area 1) and a dear patch (area 2).
fn map() -> MapFile {
    let (w, h) = (24u32, 16u32);
    let mut cells = String::new();
    for y in 0..h {
        for x in 0..w {
            let area = if x == 11 && y != 3 && y != 12 {
                255
            } else if (5..=7).contains(&y) && x < 9 {
                1
            } else if (14..=19).contains(&x) && (8..=13).contains(&y) {
                2
            } else {
                0
            };
            cells += &format!("{area:02x}");
        }
    }
    MapFile {
        width: w,
        height: h,
        cells,
        multipliers: vec![(1, 0.5), (2, 4.0)],
        space: None,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [svg_out, html_out] = args.as_slice() else {
        eprintln!("usage: render_sample OUT.svg OUT.html");
        std::process::exit(2);
    };
    let request = DescribeRequest::Grid(BidiRequest {
        map: map(),
        options: GridOptionsData {
            record: true,
            ..GridOptionsData::default()
        },
        queries: vec![Query {
            start: vec![1, 14],
            goal: vec![22, 1],
            schedule: vec![],
        }],
    });
    let reply = ReferenceCrate
        .describe(&request)
        .expect("the reference describes");
    let DescribeReply::Ran(entries) = reply else {
        panic!("the sample grid failed to build: {reply:?}");
    };
    let Some(DescribeEntry::Described(expected)) = entries.into_iter().next() else {
        panic!("no description");
    };
    let Description::Path(p) = &expected else {
        panic!("not a path description");
    };
    assert!(p.expanded.len() > 10, "the sample records expansions");
    let k = p.expanded.len() / 3;
    let mut perturbed = p.clone();
    perturbed.expanded.swap(k, k + 1);
    perturbed.expanded_points.swap(k, k + 1);
    let found = Description::Path(perturbed.clone());

    let backdrop = Backdrop::of_request(&request, 0);
    let mark = Mark {
        member: "expanded".to_string(),
        index: Some(k),
    };
    let left = Picture {
        title: "expected: onepath-reference",
        backdrop: &backdrop,
        description: &expected,
        mark: Some(&mark),
    };
    let right = Picture {
        title: "found: perturbed copy",
        backdrop: &backdrop,
        description: &found,
        mark: Some(&mark),
    };
    let caption = format!(
        "query 0: path.expanded[{k}] differs: expected {}, found {} (a deliberately perturbed copy)",
        p.expanded[k], perturbed.expanded[k]
    );
    let table = StepTable {
        member: "expanded".to_string(),
        rows: p
            .expanded
            .iter()
            .zip(&perturbed.expanded)
            .enumerate()
            .map(|(index, (e, f))| StepRow {
                index,
                expected: e.to_string(),
                found: f.to_string(),
            })
            .collect(),
        first: Some(k),
    };
    let bare = Picture {
        title: "onepath-reference: A* 24x16, expansions recorded",
        mark: None,
        ..left
    };
    std::fs::write(svg_out, render_svg(&bare)).expect("write the SVG");
    std::fs::write(
        html_out,
        html_page(
            "explain sample: grid query 0",
            &left,
            &right,
            &caption,
            &table,
        ),
    )
    .expect("write the HTML page");
    eprintln!(
        "render_sample: {} cells on the path, {} expansions; wrote {svg_out} and {html_out}",
        p.cells.len(),
        p.expanded.len()
    );
}
