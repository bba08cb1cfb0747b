//! `onepath-conformance explain` ([CONF.DEBUG.EXPLAIN]): one committed vector's describe
//! requests on the reference and on the implementation under test, the first difference, and
//! the picture (or page) that shows it on both sides.

use super::compare::{differences, entry_name, render, MemberDifference};
use super::html::{html_page, StepRow, StepTable};
use super::model::{DescribeEntry, DescribeReply, DescribeRequest, Description, PathData};
use super::svg::{render_svg, side_by_side, Backdrop, Mark, Picture};
use super::targets::{vector_targets, Target};
use crate::error::HarnessError;
use crate::implementation::Implementation;
use crate::port::wire::Real;
use crate::ReferenceCrate;
use std::path::Path;

/// What `explain` found for one vector.
pub struct Explanation {
    /// The target drawn: the first whose replies differ, else the vector's first.
    pub target: Target,
    /// The reference's reply.
    pub expected: DescribeReply,
    /// The implementation's reply (or its harness error, as a failed reply).
    pub found: DescribeReply,
    /// The first difference of the drawn target, if any.
    pub difference: Option<MemberDifference>,
    /// The implementation's name.
    pub name: String,
}

impl Explanation {
    /// The text report: `<id>: <difference>` or `<id>: no difference`.
    pub fn report(&self) -> String {
        match &self.difference {
            Some(d) => format!(
                "{}: {} differs from {}: {}",
                self.target.label,
                self.name,
                ReferenceCrate.name(),
                render(&self.target.request, d)
            ),
            None => format!(
                "{}: no difference ({} against {})",
                self.target.label,
                self.name,
                ReferenceCrate.name()
            ),
        }
    }
}

/// Why `explain` could not explain.
#[derive(Debug)]
pub enum ExplainError {
    /// No committed vector of that id has a describe target (exit 2).
    UnknownId {
        /// The id asked for.
        id: String,
        /// The vectors folder searched.
        dir: std::path::PathBuf,
    },
    /// The vectors could not be read, or the reference failed (exit 2).
    Harness(HarnessError),
}

impl std::fmt::Display for ExplainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExplainError::UnknownId { id, dir } => write!(
                f,
                "{id}: no committed vector with a describe target under {}",
                dir.display()
            ),
            ExplainError::Harness(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ExplainError {}

/// [CONF.DEBUG.EXPLAIN] Runs every describe request of vector `id` on the reference and on
/// `imp` and keeps the first target whose replies differ (else the first).
pub fn explain(
    dir: &Path,
    id: &str,
    imp: &dyn Implementation,
) -> Result<Explanation, ExplainError> {
    let targets: Vec<Target> = vector_targets(dir)
        .map_err(ExplainError::Harness)?
        .into_iter()
        .filter(|t| t.label == id)
        .collect();
    if targets.is_empty() {
        return Err(ExplainError::UnknownId {
            id: id.to_string(),
            dir: dir.to_path_buf(),
        });
    }
    let mut chosen: Option<Explanation> = None;
    for t in targets {
        let expected = ReferenceCrate
            .describe(&t.request)
            .map_err(ExplainError::Harness)?;
        let found = imp
            .describe_as(&t.label, &t.request)
            .unwrap_or_else(|e| DescribeReply::Failed(format!("harness: {e}")));
        let difference = differences(&expected, &found).into_iter().next();
        let differs = difference.is_some();
        let e = Explanation {
            target: t,
            expected,
            found,
            difference,
            name: imp.name().to_string(),
        };
        if differs {
            return Ok(e);
        }
        chosen.get_or_insert(e);
    }
    Ok(chosen.expect("at least one target"))
}

/// The picture of an explanation: one SVG with both sides, or (`html`) one page with both
/// pictures and the step table.
pub fn picture(e: &Explanation, html: bool) -> String {
    let entry = e.difference.as_ref().and_then(|d| d.entry).unwrap_or(0);
    let backdrop = Backdrop::of_request(&e.target.request, entry);
    let mark = e.difference.as_ref().map(|d| Mark {
        member: d.member.clone(),
        index: d.index,
    });
    let (left_d, left_note) = shown(&e.expected, entry, &e.target.request);
    let (right_d, right_note) = shown(&e.found, entry, &e.target.request);
    let left_title = format!("expected: {}{left_note}", ReferenceCrate.name());
    let right_title = format!("found: {}{right_note}", e.name);
    let left = Picture {
        title: &left_title,
        backdrop: &backdrop,
        description: &left_d,
        mark: mark.as_ref(),
    };
    let right = Picture {
        title: &right_title,
        backdrop: &backdrop,
        description: &right_d,
        mark: mark.as_ref(),
    };
    let caption = format!(
        "{} (entry drawn: {})",
        e.report(),
        entry_name(&e.target.request, entry)
    );
    if html {
        let table = step_table(e, &left_d, &right_d);
        html_page(
            &format!("explain {}", e.target.label),
            &left,
            &right,
            &caption,
            &table,
        )
    } else if e.difference.is_none() {
        render_svg(&left)
    } else {
        side_by_side(&left, &right, &caption)
    }
}

/// The description drawn for entry `i` of a reply, and a note when there is none (a failed
/// reply or an error entry is drawn as an empty path over the backdrop).
fn shown(reply: &DescribeReply, i: usize, request: &DescribeRequest) -> (Description, String) {
    match reply {
        DescribeReply::Ran(entries) => match entries.get(i) {
            Some(DescribeEntry::Described(d)) => (d.clone(), String::new()),
            Some(DescribeEntry::Error(e)) => (empty(request), format!(" (error {})", e.error)),
            None => (empty(request), format!(" (no entry {i})")),
        },
        DescribeReply::Failed(c) => (empty(request), format!(" (failed: {c})")),
    }
}

fn empty(request: &DescribeRequest) -> Description {
    let (width, height) = match request {
        DescribeRequest::Grid(b) | DescribeRequest::Bidi(b) => (b.map.width, b.map.height),
        DescribeRequest::Hex(h) => (h.map.width, h.map.height),
        DescribeRequest::Hpa(h) => (h.map.width, h.map.height),
        DescribeRequest::Replan(r) => (r.grid.map.width, r.grid.map.height),
        DescribeRequest::Flow(f) => (f.grid.map.width, f.grid.map.height),
        DescribeRequest::Voxel(v) => (v.size[0], v.size[1]),
        DescribeRequest::Graph(_) => (0, 0),
    };
    Description::Path(PathData {
        width,
        height,
        algorithm: 0,
        status: 3,
        cost: Real(f64::INFINITY),
        cells: vec![],
        points: vec![],
        expanded: vec![],
        expanded_points: vec![],
        expanded_count: 0,
        iterations: 0,
    })
}

/// One member of a description as rendered list entries (`None` for a scalar member).
fn member_list(d: &Description, member: &str) -> Option<Vec<String>> {
    fn show<T: std::fmt::Debug>(v: &[T]) -> Option<Vec<String>> {
        Some(v.iter().map(|x| format!("{x:?}")).collect())
    }
    match (d, member) {
        (Description::Path(p), "cells") => show(&p.cells),
        (Description::Path(p), "points") => show(&p.points),
        (Description::Path(p), "expanded") => show(&p.expanded),
        (Description::Path(p), "expanded_points") => show(&p.expanded_points),
        (Description::VoxelPath(p), "cells") => show(&p.cells),
        (Description::VoxelPath(p), "points") => show(&p.points),
        (Description::VoxelPath(p), "expanded") => show(&p.expanded),
        (Description::VoxelPath(p), "expanded_points") => show(&p.expanded_points),
        (Description::GraphPath(g), "nodes") => show(&g.nodes),
        (Description::GraphPath(g), "positions") => show(&g.positions),
        (Description::GraphPath(g), "expanded") => show(&g.expanded),
        (Description::GraphPath(g), "expanded_positions") => show(&g.expanded_positions),
        (Description::Replan(r), "cells") => show(&r.cells),
        (Description::Replan(r), "points") => show(&r.points),
        (Description::Replan(r), "expanded") => show(&r.expanded),
        (Description::Replan(r), "expanded_kinds") => show(&r.expanded_kinds),
        (Description::Replan(r), "expanded_points") => show(&r.expanded_points),
        (Description::Hierarchy(h), "nodes") => show(&h.nodes),
        (Description::Hierarchy(h), "node_points") => show(&h.node_points),
        (Description::Hierarchy(h), "edges") => show(&h.edges),
        (Description::Flow(f), "costs") => show(&f.costs),
        (Description::Flow(f), "next") => show(&f.next),
        (Description::Flow(f), "goals") => show(&f.goals),
        _ => None,
    }
}

/// Rows shown around the first difference of a list (the whole list when it is short).
const TABLE_CONTEXT: usize = 40;

/// [CONF.DEBUG.EXPLAIN] The step table: the differing list entry by entry on both sides (a
/// window around the first difference), or the one differing value.
fn step_table(e: &Explanation, left: &Description, right: &Description) -> StepTable {
    let Some(d) = &e.difference else {
        return StepTable {
            member: "no difference".into(),
            rows: Vec::new(),
            first: None,
        };
    };
    let (a, b) = (member_list(left, &d.member), member_list(right, &d.member));
    let (Some(a), Some(b), Some(at)) = (a, b, d.index) else {
        return StepTable {
            member: d.member.clone(),
            rows: vec![StepRow {
                index: 0,
                expected: d.expected.clone(),
                found: d.found.clone(),
            }],
            first: Some(0),
        };
    };
    let n = a.len().max(b.len());
    let lo = at.saturating_sub(TABLE_CONTEXT);
    let hi = (at + TABLE_CONTEXT + 1).min(n);
    let cell = |v: &[String], i: usize| v.get(i).cloned().unwrap_or_else(|| "—".into());
    StepTable {
        member: d.member.clone(),
        rows: (lo..hi)
            .map(|i| StepRow {
                index: i,
                expected: cell(&a, i),
                found: cell(&b, i),
            })
            .collect(),
        first: Some(at - lo),
    }
}
