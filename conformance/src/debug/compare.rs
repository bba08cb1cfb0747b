//! Comparing two describe replies ([CONF.DEBUG.COMPARE]) and the level each difference breaks
//! ([CONF.DEBUG.LEVEL]): every member of every entry in wire order, lists entry by entry.

use super::model::{
    DescribeEntry, DescribeReply, DescribeRequest, Description, FlowData, GraphPathData,
    HierarchyData, PathData, ReplanData, VoxelPathData,
};
use serde::Serialize;

/// A value as its wire form ([CONF.DEBUG.REPLY]), each real's bit pattern followed by its
/// decimal value: `"3ff8000000000000" (1.5)`.
pub fn wire_text<T: Serialize>(v: &T) -> String {
    fn text(v: &serde_json::Value, out: &mut String) {
        use serde_json::Value as V;
        match v {
            V::String(s) => match crate::port::wire::parse_real(s) {
                Ok(x) => out.push_str(&format!("\"{s}\" ({x:?})")),
                Err(_) => out.push_str(&v.to_string()),
            },
            V::Array(items) => {
                out.push('[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    text(x, out);
                }
                out.push(']');
            }
            V::Object(members) => {
                out.push('{');
                for (i, (k, x)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&format!("\"{k}\": "));
                    text(x, out);
                }
                out.push('}');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut out = String::new();
    match serde_json::to_value(v) {
        Ok(value) => text(&value, &mut out),
        Err(e) => out.push_str(&format!("(not JSON: {e})")),
    }
    out
}

/// One differing member of one entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberDifference {
    /// The entry index (`None`: the reply as a whole).
    pub entry: Option<usize>,
    /// The member (`cells`, `expanded_points`, `cost`, ...; `reply` or `entry` for a shape
    /// difference).
    pub member: String,
    /// The list index, for a list member.
    pub index: Option<usize>,
    /// The expected value, rendered.
    pub expected: String,
    /// The found value, rendered.
    pub found: String,
    /// The lowest level it breaks (1..=3).
    pub level: u8,
}

impl MemberDifference {
    /// `member entry i` or `member`.
    pub fn what(&self) -> String {
        match self.index {
            Some(i) => format!("{} entry {i}", self.member),
            None => self.member.clone(),
        }
    }
}

/// The name of entry `i` of a reply to `request` (`query 3`, `hierarchy`, `replanner`, ...).
pub fn entry_name(request: &DescribeRequest, i: usize) -> String {
    match request {
        DescribeRequest::Hpa(h) if i == h.queries.len() => "hierarchy".to_string(),
        DescribeRequest::Graph(_) => "graph path".to_string(),
        DescribeRequest::Replan(_) => "replanner".to_string(),
        DescribeRequest::Flow(_) => "flow field".to_string(),
        _ => format!("query {i}"),
    }
}

/// A difference as one line: `<entry>: <what>: expected <e>, found <f>`.
pub fn render(request: &DescribeRequest, d: &MemberDifference) -> String {
    let at = match d.entry {
        Some(i) => format!("{}: ", entry_name(request, i)),
        None => String::new(),
    };
    format!(
        "{at}{}: expected {}, found {}",
        d.what(),
        d.expected,
        d.found
    )
}

/// Collects the first difference of each member, in order.
struct Walker {
    entry: Option<usize>,
    out: Vec<MemberDifference>,
}

impl Walker {
    fn push(&mut self, member: &str, index: Option<usize>, e: String, f: String, level: u8) {
        self.out.push(MemberDifference {
            entry: self.entry,
            member: member.to_string(),
            index,
            expected: e,
            found: f,
            level,
        });
    }

    fn one<T: PartialEq + Serialize>(&mut self, member: &str, level: u8, a: &T, b: &T) {
        if a != b {
            self.push(member, None, wire_text(a), wire_text(b), level);
        }
    }

    fn list<T: PartialEq + Serialize>(&mut self, member: &str, level: u8, a: &[T], b: &[T]) {
        let n = a.len().max(b.len());
        if let Some(i) = (0..n).find(|&i| a.get(i) != b.get(i)) {
            let show = |v: Option<&T>| v.map_or("nothing (list ends)".to_string(), wire_text);
            self.push(member, Some(i), show(a.get(i)), show(b.get(i)), level);
        }
    }

    fn path(&mut self, a: &PathData, b: &PathData) {
        self.one("width", 2, &a.width, &b.width);
        self.one("height", 2, &a.height, &b.height);
        self.one("algorithm", 2, &a.algorithm, &b.algorithm);
        self.one("status", 1, &a.status, &b.status);
        self.one("cost", 1, &a.cost, &b.cost);
        self.list("cells", 2, &a.cells, &b.cells);
        self.list("points", 2, &a.points, &b.points);
        self.list("expanded", 3, &a.expanded, &b.expanded);
        self.list("expanded_points", 3, &a.expanded_points, &b.expanded_points);
        self.one("expanded_count", 3, &a.expanded_count, &b.expanded_count);
        self.one("iterations", 3, &a.iterations, &b.iterations);
    }

    fn voxel(&mut self, a: &VoxelPathData, b: &VoxelPathData) {
        self.one("size", 2, &a.size, &b.size);
        self.one("algorithm", 2, &a.algorithm, &b.algorithm);
        self.one("status", 1, &a.status, &b.status);
        self.one("cost", 1, &a.cost, &b.cost);
        self.list("cells", 2, &a.cells, &b.cells);
        self.list("points", 2, &a.points, &b.points);
        self.list("expanded", 3, &a.expanded, &b.expanded);
        self.list("expanded_points", 3, &a.expanded_points, &b.expanded_points);
        self.one("expanded_count", 3, &a.expanded_count, &b.expanded_count);
        self.one("iterations", 3, &a.iterations, &b.iterations);
    }

    fn graph(&mut self, a: &GraphPathData, b: &GraphPathData) {
        self.one("algorithm", 2, &a.algorithm, &b.algorithm);
        self.one("status", 1, &a.status, &b.status);
        self.one("cost", 1, &a.cost, &b.cost);
        self.list("nodes", 2, &a.nodes, &b.nodes);
        self.list("positions", 2, &a.positions, &b.positions);
        self.list("expanded", 3, &a.expanded, &b.expanded);
        self.list(
            "expanded_positions",
            3,
            &a.expanded_positions,
            &b.expanded_positions,
        );
        self.one("expanded_count", 3, &a.expanded_count, &b.expanded_count);
        self.one("iterations", 3, &a.iterations, &b.iterations);
    }

    fn replan(&mut self, a: &ReplanData, b: &ReplanData) {
        self.one("width", 2, &a.width, &b.width);
        self.one("height", 2, &a.height, &b.height);
        self.one("mode", 2, &a.mode, &b.mode);
        self.one("start", 2, &a.start, &b.start);
        self.one("goal", 2, &a.goal, &b.goal);
        self.one("initialized", 1, &a.initialized, &b.initialized);
        self.one("found", 1, &a.found, &b.found);
        self.one("cost", 1, &a.cost, &b.cost);
        self.list("cells", 2, &a.cells, &b.cells);
        self.one("path_error", 2, &a.path_error, &b.path_error);
        self.list("points", 2, &a.points, &b.points);
        self.list("expanded", 3, &a.expanded, &b.expanded);
        self.list("expanded_kinds", 3, &a.expanded_kinds, &b.expanded_kinds);
        self.list("expanded_points", 3, &a.expanded_points, &b.expanded_points);
        self.one("expanded_count", 3, &a.expanded_count, &b.expanded_count);
        self.one("iterations", 3, &a.iterations, &b.iterations);
        self.one("pending", 3, &a.pending, &b.pending);
    }

    fn hierarchy(&mut self, a: &HierarchyData, b: &HierarchyData) {
        self.one("built", 2, &a.built, &b.built);
        self.one("chunk_size", 2, &a.chunk_size, &b.chunk_size);
        self.one("chunks", 2, &a.chunks, &b.chunks);
        self.list("nodes", 2, &a.nodes, &b.nodes);
        self.list("node_points", 2, &a.node_points, &b.node_points);
        self.list("edges", 2, &a.edges, &b.edges);
    }

    fn flow(&mut self, a: &FlowData, b: &FlowData) {
        self.one("width", 2, &a.width, &b.width);
        self.one("height", 2, &a.height, &b.height);
        self.list("costs", 2, &a.costs, &b.costs);
        self.list("next", 2, &a.next, &b.next);
        self.list("goals", 2, &a.goals, &b.goals);
        self.one("status", 1, &a.status, &b.status);
        self.one("settled", 3, &a.settled, &b.settled);
    }

    fn entry(&mut self, a: &DescribeEntry, b: &DescribeEntry) {
        use Description as D;
        match (a, b) {
            (DescribeEntry::Described(x), DescribeEntry::Described(y)) => match (x, y) {
                (D::Path(a), D::Path(b)) => self.path(a, b),
                (D::VoxelPath(a), D::VoxelPath(b)) => self.voxel(a, b),
                (D::GraphPath(a), D::GraphPath(b)) => self.graph(a, b),
                (D::Replan(a), D::Replan(b)) => self.replan(a, b),
                (D::Hierarchy(a), D::Hierarchy(b)) => self.hierarchy(a, b),
                (D::Flow(a), D::Flow(b)) => self.flow(a, b),
                (x, y) => self.push("entry", None, x.kind().into(), y.kind().into(), 1),
            },
            (a, b) if a == b => {}
            (a, b) => self.push("entry", None, outline(a), outline(b), 1),
        }
    }
}

fn outline(e: &DescribeEntry) -> String {
    match e {
        DescribeEntry::Error(e) => format!("error {}", e.error),
        DescribeEntry::Described(d) => format!("a {} description", d.kind()),
    }
}

/// [CONF.DEBUG.COMPARE] Every differing member (the first difference of each), in the order
/// of the entries and of [CONF.DEBUG.REPLY].
pub fn differences(expected: &DescribeReply, found: &DescribeReply) -> Vec<MemberDifference> {
    let mut w = Walker {
        entry: None,
        out: Vec::new(),
    };
    match (expected, found) {
        (DescribeReply::Failed(a), DescribeReply::Failed(b)) => w.one("failed", 1, a, b),
        (DescribeReply::Ran(a), DescribeReply::Ran(b)) => {
            if a.len() != b.len() {
                w.push("entries", None, a.len().to_string(), b.len().to_string(), 1);
            }
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                w.entry = Some(i);
                w.entry(x, y);
            }
        }
        (a, b) => w.push("reply", None, reply_outline(a), reply_outline(b), 1),
    }
    w.out
}

fn reply_outline(r: &DescribeReply) -> String {
    match r {
        DescribeReply::Failed(c) => format!("failed with {c}"),
        DescribeReply::Ran(e) => format!("{} entries", e.len()),
    }
}

/// [CONF.DEBUG.COMPARE] The first difference, if any.
pub fn first_difference(
    expected: &DescribeReply,
    found: &DescribeReply,
) -> Option<MemberDifference> {
    differences(expected, found).into_iter().next()
}

/// [CONF.DEBUG.LEVEL] The first difference at the lowest level any member breaks.
pub fn lowest_difference(
    expected: &DescribeReply,
    found: &DescribeReply,
) -> Option<MemberDifference> {
    let all = differences(expected, found);
    let min = all.iter().map(|d| d.level).min()?;
    all.into_iter().find(|d| d.level == min)
}
