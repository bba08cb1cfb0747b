//! Debug geometry in the kit (spec/debug.md, [CONF.DEBUG.*]): describe requests and their
//! replies ([`model`]), the in-process adapters ([`adapter`]), the comparison of two replies
//! ([`compare`]), the kit's own consistency reading ([`consistent`]), and the pictures: SVG
//! ([`svg`], [CONF.DEBUG.SVG]) and the `--html` page ([`html`], [CONF.DEBUG.EXPLAIN]); which
//! requests are sent ([`targets`]) and the `explain` command ([`explain`], [`explain_cli`]).

pub mod adapter;
pub mod compare;
pub mod consistent;
pub mod explain;
pub mod explain_cli;
pub mod html;
pub mod model;
pub mod svg;
pub mod targets;
pub mod vectors;

pub use model::{
    DescribeEntry, DescribeReply, DescribeRequest, Description, EdgeData, ErrorEntry,
    ExpansionKind, FlowData, GraphCase, GraphPathData, GraphTarget, HierarchyData, PathData,
    ReplanData, Target, VoxelPathData,
};
