//! Debug geometry in the kit (spec/debug.md, [CONF.DEBUG.*]): describe requests and their
//! replies ([`model`]), the in-process adapters ([`adapter`]), the comparison of two replies
//! ([`compare`]) and the kit's own consistency reading ([`consistent`]).

pub mod adapter;
pub mod compare;
pub mod consistent;
pub mod model;
pub mod targets;

pub use model::{
    DescribeEntry, DescribeReply, DescribeRequest, Description, EdgeData, ErrorEntry,
    ExpansionKind, FlowData, GraphPathData, GraphTarget, HierarchyData, PathData, ReplanData,
    VoxelPathData,
};
