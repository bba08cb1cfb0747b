//! Which describe requests the `describe` section and `explain` send ([CONF.CHECK.DESCRIBE]):
//! the request of each committed vector of a family with a describe target, and the families'
//! generated requests, each labelled as its family labels it (so a port's request is judged in
//! the right family).

use super::model::{DescribeRequest, GraphTarget};
use crate::bidi::BidiRequest;
use crate::checks;
use crate::config::Config;
use crate::error::HarnessError;
use crate::lattice::{LatticeRequest, Query, Shape};
use std::path::Path;

pub use super::model::Target;

/// [CONF.CHECK.DESCRIBE] A query as tier 1: its schedule emptied, a cancel query's `cancel`
/// dropped.
fn tier1(queries: &[Query]) -> Vec<Query> {
    queries
        .iter()
        .map(|q| Query {
            schedule: Vec::new(),
            cancel: None,
            ..q.clone()
        })
        .collect()
}

fn path_bidi(r: &BidiRequest) -> BidiRequest {
    BidiRequest {
        queries: tier1(&r.queries),
        ..r.clone()
    }
}

fn path_lattice(r: &LatticeRequest) -> DescribeRequest {
    match r {
        LatticeRequest::Hex(h) => DescribeRequest::Hex(crate::lattice::HexRequest {
            queries: tier1(&h.queries),
            ..h.clone()
        }),
        LatticeRequest::Voxel(v) => DescribeRequest::Voxel(crate::lattice::VoxelRequest {
            queries: tier1(&v.queries),
            ..v.clone()
        }),
    }
}

fn path_hpa(r: &crate::hpa::HpaRequest) -> crate::hpa::HpaRequest {
    let mut r = r.clone();
    for q in &mut r.queries {
        q.schedule.clear();
        q.cancel = None;
    }
    r
}

/// [CONF.CHECK.DESCRIBE] The describe requests of every committed vector under `dir`, in
/// family order and each family's vector order: a grid vector gives one `grid` request per
/// tier-1 run (its query under the run's options), a graph vector one `graph` request of its
/// first query per variant it lists, the others their own request (sliced queries as tier 1).
pub fn vector_targets(dir: &Path) -> Result<Vec<Target>, HarnessError> {
    let mut out = Vec::new();
    let mut push = |label: &str, request: DescribeRequest| {
        out.push(Target {
            label: label.to_string(),
            request,
        })
    };
    for s in crate::vectors::read_scenarios(dir)? {
        let Some(&query) = s.queries.first() else {
            continue;
        };
        for &variant in s.outcomes.keys() {
            let case = super::model::GraphCase {
                graph: s.graph.clone(),
                landmarks: s.landmarks.clone(),
            };
            push(
                &s.id,
                DescribeRequest::Graph(GraphTarget {
                    case,
                    variant,
                    query,
                }),
            );
        }
    }
    for v in crate::grid::vectors::read_dir(dir)? {
        // A map that travels without its cells (a size Grid::new rejects, [CONF.GRID.MAP]) is
        // no describe request: [CONF.DEBUG.REQUEST] grids carry every cell.
        if v.map.cells.is_empty() && v.map.width as u64 * v.map.height as u64 > 0 {
            continue;
        }
        for run in v
            .runs
            .iter()
            .filter(|r| r.api == crate::grid::GridApi::Tier1)
        {
            let q = v.queries[run.query];
            let request = BidiRequest {
                map: v.map.clone(),
                options: run.options.clone(),
                queries: vec![Query {
                    start: vec![q[0], q[1]],
                    goal: vec![q[2], q[3]],
                    schedule: Vec::new(),
                    cancel: None,
                }],
            };
            push(&v.id, DescribeRequest::Grid(request));
        }
    }
    for v in crate::replan::vectors::read_dir(dir)? {
        push(&v.id, DescribeRequest::Replan(v.case.request));
    }
    for v in crate::flow::vectors::read_dir(dir)? {
        push(&v.id, DescribeRequest::Flow(v.case.request));
    }
    for shape in [Shape::Hex, Shape::Voxel] {
        for v in crate::lattice::vectors::read_dir(shape, dir)? {
            push(&v.id, path_lattice(&v.case.request));
        }
    }
    for v in crate::hpa::vectors::read_dir(dir)? {
        push(&v.id, DescribeRequest::Hpa(path_hpa(&v.case.request)));
    }
    for v in crate::bidi::vectors::read_dir(dir)? {
        push(&v.id, DescribeRequest::Bidi(path_bidi(&v.case.request)));
    }
    Ok(out)
}

/// [CONF.CHECK.DESCRIBE] The generated requests: per family the requests of its own section
/// (`config.grid_cases` each for the path targets, the `grid` target taking the bidirectional
/// section's maps under grid-search labels `grid#describe-<i>`; `replan_cases` and
/// `flow_cases` scripts from case 1, skipping the 10,000-step case 0 its own section runs).
pub fn generated_targets(config: &Config) -> Vec<Target> {
    let mut out = Vec::new();
    let n = config.grid_cases;
    for i in 0..n {
        let b = checks::bidi::case_request(config, i);
        out.push(Target {
            label: format!("grid#describe-{i}"),
            request: DescribeRequest::Grid(path_bidi(&b)),
        });
        out.push(Target {
            label: checks::bidi::case_name(i),
            request: DescribeRequest::Bidi(path_bidi(&b)),
        });
        for shape in [Shape::Hex, Shape::Voxel] {
            out.push(Target {
                label: checks::lattice::case_name(shape, i),
                request: path_lattice(&checks::lattice::case_request(shape, config, i)),
            });
        }
        out.push(Target {
            label: checks::hpa::case_name(i),
            request: DescribeRequest::Hpa(path_hpa(&checks::hpa::case_request(config, i))),
        });
    }
    for i in 1..=config.replan_cases {
        out.push(Target {
            label: checks::replanning::case_name(i),
            request: DescribeRequest::Replan(checks::replanning::case_request(config, i)),
        });
    }
    for i in 1..=config.flow_cases {
        out.push(Target {
            label: checks::flow_field::case_name(i),
            request: DescribeRequest::Flow(checks::flow_field::case_request(config, i)),
        });
    }
    out
}

/// [CONF.CHECK.DESCRIBE] The section's targets: the vectors of `config.vectors_dir` (when set)
/// then the generated ones, and a section holding the failure to read the vectors, if any.
pub fn section_targets(config: &Config) -> (Vec<Target>, crate::report::Section) {
    let mut setup = crate::report::Section::new("describe");
    let mut targets = Vec::new();
    if let Some(dir) = &config.vectors_dir {
        match vector_targets(dir) {
            Ok(t) => targets.extend(t),
            Err(e) => setup.fail(crate::report::Failure {
                implementation: "harness".into(),
                what: format!("describe targets of {}: {e}", dir.display()),
                ..Default::default()
            }),
        }
    }
    targets.extend(generated_targets(config));
    // [CONF.CLI.FAMILY]: a target runs when its family is selected.
    targets.retain(|t| config.families.contains(super::vectors::claim(&t.request)));
    (targets, setup)
}
