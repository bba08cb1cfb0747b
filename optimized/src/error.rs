//! Error values with stable class names of [GRAPH.ERR.CLASSES] and [GRAPH.API.INDEX].
//! [GRAPH.ERR.DETAILS] Messages carry the details; classes and positions are compared.

use std::fmt;

/// Which endpoint of an edge or link an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    From,
    To,
}

impl End {
    fn name(self) -> &'static str {
        match self {
            End::From => "from",
            End::To => "to",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BuildKind {
    TooManyNodes {
        requested: u64,
    },
    TooManyEdges {
        requested: u64,
    },
    EndpointOutOfRange {
        index: usize,
        end: End,
        value: u32,
        node_count: usize,
    },
    InvalidWeight {
        index: usize,
        bits: u64,
    },
    UnknownEdge {
        id: u32,
        edge_count: usize,
    },
    RemovedEdge {
        id: u32,
    },
    CoordinateOutOfRange {
        index: usize,
        axis: char,
        bits: u64,
    },
    InvalidMaxDistance {
        bits: u64,
    },
    LinkOutOfRange {
        position: usize,
        end: End,
        value: u32,
        node_count: usize,
    },
    InvalidLandmarkCount {
        count: usize,
    },
    /// [GRAPH.ALT.LIMIT] `k * N` above the table limit.
    TableTooLarge {
        k: usize,
        n: usize,
    },
    /// [GRAPH.PT.LINK_LIMIT] More accepted generated links than the limit.
    LinkLimit {
        limit: usize,
    },
    EmptyGraph,
}

/// [GRAPH.ERR.CLASSES] [GRAPH.API.INDEX] An error building or editing a graph or landmark table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError {
    kind: BuildKind,
}

impl BuildError {
    pub(crate) fn new(kind: BuildKind) -> Self {
        BuildError { kind }
    }

    /// [GRAPH.ERR.CLASSES] The stable class name, e.g. `"invalid_weight"`.
    pub fn class(&self) -> &'static str {
        match self.kind {
            BuildKind::TooManyNodes { .. }
            | BuildKind::TooManyEdges { .. }
            | BuildKind::TableTooLarge { .. }
            | BuildKind::LinkLimit { .. } => "too_many_nodes",
            BuildKind::EndpointOutOfRange { .. } => "endpoint_out_of_range",
            BuildKind::InvalidWeight { .. } => "invalid_weight",
            BuildKind::UnknownEdge { .. } => "unknown_edge",
            BuildKind::RemovedEdge { .. } => "removed_edge",
            BuildKind::CoordinateOutOfRange { .. } => "coordinate_out_of_range",
            BuildKind::InvalidMaxDistance { .. } => "invalid_max_distance",
            BuildKind::LinkOutOfRange { .. } => "link_out_of_range",
            BuildKind::InvalidLandmarkCount { .. } => "invalid_landmark_count",
            BuildKind::EmptyGraph => "empty_graph",
        }
    }

    /// [GRAPH.API.INDEX] The edge index / edge id, link position or point index the error names.
    pub fn index(&self) -> Option<usize> {
        match self.kind {
            BuildKind::EndpointOutOfRange { index, .. } => Some(index),
            BuildKind::InvalidWeight { index, .. } => Some(index),
            BuildKind::UnknownEdge { id, .. } => Some(id as usize),
            BuildKind::RemovedEdge { id } => Some(id as usize),
            BuildKind::CoordinateOutOfRange { index, .. } => Some(index),
            BuildKind::LinkOutOfRange { position, .. } => Some(position),
            _ => None,
        }
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.class())?;
        match self.kind {
            BuildKind::TooManyNodes { requested } => {
                write!(f, "{requested} nodes requested, at most 2^26 = {} allowed", crate::MAX_NODES)
            }
            BuildKind::TooManyEdges { requested } => {
                write!(f, "{requested} edges cannot be indexed by 32-bit offsets")
            }
            BuildKind::TableTooLarge { k, n } => write!(
                f,
                "a landmark table of {k} x {n} distances per direction exceeds the limit 2^28 = {} \
                 (choose fewer landmarks)",
                crate::MAX_LANDMARK_ENTRIES
            ),
            BuildKind::LinkLimit { limit } => write!(
                f,
                "more than {limit} (2^24) generated links accepted (lower max_distance or \
                 nearest_count)"
            ),
            BuildKind::EndpointOutOfRange { index, end, value, node_count } => write!(
                f,
                "edge {index}: endpoint `{}` = {value} is not below the node count {node_count}",
                end.name()
            ),
            BuildKind::InvalidWeight { index, bits } => write!(
                f,
                "edge {index}: weight {} is not a finite number >= 0",
                f64::from_bits(bits)
            ),
            BuildKind::UnknownEdge { id, edge_count } => {
                write!(f, "edge id {id} was never added ({edge_count} edges added so far)")
            }
            BuildKind::RemovedEdge { id } => write!(f, "edge id {id} has been removed"),
            BuildKind::CoordinateOutOfRange { index, axis, bits } => write!(
                f,
                "point {index}: {axis} = {} is not finite with |{axis}| <= 2^21 = 2097152",
                f64::from_bits(bits)
            ),
            BuildKind::InvalidMaxDistance { bits } => write!(
                f,
                "max_distance {} must be 0 (off) or finite and >= 2^-30",
                f64::from_bits(bits)
            ),
            BuildKind::LinkOutOfRange { position, end, value, node_count } => write!(
                f,
                "explicit link {position}: {} index {value} is not below the point count {node_count}",
                if end == End::From { "first" } else { "second" }
            ),
            BuildKind::InvalidLandmarkCount { count } => {
                write!(f, "landmark count {count} must be at least 1")
            }
            BuildKind::EmptyGraph => write!(f, "the graph has no nodes"),
        }
    }
}

impl std::error::Error for BuildError {}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum QueryKind {
    NodeOutOfRange {
        end: End,
        node: u32,
        node_count: usize,
    },
    StaleLandmarks {
        table_nodes: usize,
        table_fp: u64,
        graph_nodes: usize,
        graph_fp: u64,
    },
    InvalidPosition {
        axis: char,
        bits: u64,
    },
    EmptyGraph,
}

/// [GRAPH.ERR.CLASSES] An error in the arguments of a query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryError {
    kind: QueryKind,
}

impl QueryError {
    pub(crate) fn new(kind: QueryKind) -> Self {
        QueryError { kind }
    }

    pub(crate) fn node(is_goal: bool, node: u32, node_count: usize) -> Self {
        let end = if is_goal { End::To } else { End::From };
        QueryError::new(QueryKind::NodeOutOfRange {
            end,
            node,
            node_count,
        })
    }

    /// [GRAPH.ERR.CLASSES] The stable class name, e.g. `"node_out_of_range"`.
    pub fn class(&self) -> &'static str {
        match self.kind {
            QueryKind::NodeOutOfRange { .. } => "node_out_of_range",
            QueryKind::StaleLandmarks { .. } => "stale_landmarks",
            QueryKind::InvalidPosition { .. } => "invalid_position",
            QueryKind::EmptyGraph => "empty_graph",
        }
    }
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.class())?;
        match self.kind {
            QueryKind::NodeOutOfRange {
                end,
                node,
                node_count,
            } => write!(
                f,
                "{} node {node} is not below the node count {node_count}",
                if end == End::From { "start" } else { "goal" }
            ),
            QueryKind::StaleLandmarks {
                table_nodes,
                table_fp,
                graph_nodes,
                graph_fp,
            } => write!(
                f,
                "landmarks built on {table_nodes} nodes / fingerprint {table_fp:#018x}, \
                 graph has {graph_nodes} nodes / fingerprint {graph_fp:#018x}"
            ),
            QueryKind::InvalidPosition { axis, bits } => write!(
                f,
                "position {axis} = {} is not finite with |{axis}| <= 2^21",
                f64::from_bits(bits)
            ),
            QueryKind::EmptyGraph => write!(f, "the graph has no nodes"),
        }
    }
}

impl std::error::Error for QueryError {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StateKind {
    Truncated,
    BadMagic,
    UnsupportedVersion(u32),
    NodeCountMismatch {
        found: i32,
        expected: usize,
    },
    CountOutOfRange(i32),
    LengthMismatch {
        found: usize,
        expected: u128,
    },
    FingerprintMismatch {
        found: u64,
        expected: u64,
    },
    IndexOutOfRange(i32),
    DuplicateNode(i32),
    BadDistance(u64),
    SelfDistance(u64),
    /// [STATE.CLASSES] A state-bytes check of spec/state.md.
    Format {
        class: crate::wire::Class,
        field: &'static str,
    },
}

/// [GRAPH.OPLM.CHECKS] [GRAPH.ERR.CLASSES] [STATE.ERRORS] [STATE.CLASSES] An error decoding
/// OPLM bytes or the state bytes of a graph kind (category `format`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphStateError {
    kind: StateKind,
    offset: usize,
}

impl GraphStateError {
    pub(crate) fn new(kind: StateKind, offset: usize) -> Self {
        GraphStateError { kind, offset }
    }

    pub(crate) fn from_fault(f: crate::wire::Fault) -> Self {
        GraphStateError::new(
            StateKind::Format {
                class: f.class,
                field: f.field,
            },
            f.offset,
        )
    }

    /// [GRAPH.ERR.CLASSES] The stable class name, e.g. `"bad_magic"`.
    pub fn class(&self) -> &'static str {
        match self.kind {
            StateKind::Truncated => "truncated",
            StateKind::BadMagic => "bad_magic",
            StateKind::UnsupportedVersion(_) => "unsupported_version",
            StateKind::NodeCountMismatch { .. } => "node_count_mismatch",
            StateKind::CountOutOfRange(_) => "count_out_of_range",
            StateKind::LengthMismatch { .. } => "length_mismatch",
            StateKind::FingerprintMismatch { .. } => "fingerprint_mismatch",
            StateKind::IndexOutOfRange(_) => "index_out_of_range",
            StateKind::DuplicateNode(_) => "duplicate_node",
            StateKind::BadDistance(_) => "bad_distance",
            StateKind::SelfDistance(_) => "self_distance",
            StateKind::Format { class, .. } => class.name(),
        }
    }

    /// [GRAPH.OPLM.CHECKS] [STATE.ERRORS] The byte offset the check reports.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// [GRAPH.ERR.CLASSES] The category of every state error: `"format"`.
    pub fn category(&self) -> &'static str {
        "format"
    }
}

impl fmt::Display for GraphStateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}: ", self.class(), self.offset)?;
        match self.kind {
            StateKind::Truncated => write!(f, "fewer than the 24 header bytes"),
            StateKind::BadMagic => write!(f, "the first 4 bytes are not \"OPLM\""),
            StateKind::UnsupportedVersion(v) => write!(f, "version {v}, only 1 is supported"),
            StateKind::NodeCountMismatch { found, expected } => {
                write!(f, "table has {found} nodes, the graph {expected}")
            }
            StateKind::CountOutOfRange(k) => write!(f, "landmark count {k} is outside 1..=N"),
            StateKind::LengthMismatch { found, expected } => {
                write!(f, "{found} bytes, the header implies {expected}")
            }
            StateKind::FingerprintMismatch { found, expected } => {
                write!(
                    f,
                    "fingerprint {found:#018x}, the graph's is {expected:#018x}"
                )
            }
            StateKind::IndexOutOfRange(id) => write!(f, "landmark id {id} is not a node"),
            StateKind::DuplicateNode(id) => write!(f, "landmark id {id} repeats an earlier id"),
            StateKind::BadDistance(bits) => {
                write!(
                    f,
                    "distance {} (bits {bits:#018x}) is NaN or negative",
                    f64::from_bits(bits)
                )
            }
            StateKind::SelfDistance(bits) => {
                write!(
                    f,
                    "a landmark's distance to itself is {}, not 0",
                    f64::from_bits(bits)
                )
            }
            StateKind::Format { field, .. } => write!(f, "field `{field}`"),
        }
    }
}

impl std::error::Error for GraphStateError {}
