//! [GRAPH.ERR] Errors of spec/graphs.md section 11: one struct per step (build, query, state bytes).
//! [GRAPH.ERR.DETAILS] Messages carry the details; classes and positions are compared.

use std::fmt;

/// The coordinate bound `2^21` of [GRAPH.PT.COORD], used in messages.
pub(crate) const COORD_BOUND: f64 = 2_097_152.0;

/// Which kind of build failure happened, with what and where.
#[derive(Clone, Debug, PartialEq)]
enum BuildKind {
    TooManyNodes {
        requested: u64,
    },
    TooManyEdges {
        requested: u64,
    },
    EndpointOutOfRange {
        edge: usize,
        endpoint: &'static str,
        value: u32,
        node_count: usize,
    },
    InvalidWeight {
        edge: usize,
        value: f64,
    },
    UnknownEdge {
        id: u32,
        edge_count: usize,
    },
    RemovedEdge {
        id: u32,
    },
    CoordinateOutOfRange {
        point: usize,
        axis: char,
        value: f64,
    },
    InvalidMaxDistance {
        value: f64,
    },
    LinkOutOfRange {
        link: usize,
        value: u32,
        node_count: usize,
    },
    InvalidLandmarkCount {
        count: usize,
    },
    LandmarkTableTooLarge {
        landmarks: usize,
        nodes: usize,
    },
    TooManyLinks {
        limit: usize,
    },
    EmptyGraph,
}

/// [GRAPH.ERR.CLASSES] [GRAPH.API.INDEX] A failure to build or edit a graph or a landmark table.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildError {
    kind: BuildKind,
}

impl BuildError {
    pub(crate) fn too_many_nodes(requested: u64) -> Self {
        Self {
            kind: BuildKind::TooManyNodes { requested },
        }
    }
    pub(crate) fn too_many_edges(requested: u64) -> Self {
        Self {
            kind: BuildKind::TooManyEdges { requested },
        }
    }
    pub(crate) fn endpoint(
        edge: usize,
        endpoint: &'static str,
        value: u32,
        node_count: usize,
    ) -> Self {
        Self {
            kind: BuildKind::EndpointOutOfRange {
                edge,
                endpoint,
                value,
                node_count,
            },
        }
    }
    pub(crate) fn invalid_weight(edge: usize, value: f64) -> Self {
        Self {
            kind: BuildKind::InvalidWeight { edge, value },
        }
    }
    pub(crate) fn unknown_edge(id: u32, edge_count: usize) -> Self {
        Self {
            kind: BuildKind::UnknownEdge { id, edge_count },
        }
    }
    pub(crate) fn removed_edge(id: u32) -> Self {
        Self {
            kind: BuildKind::RemovedEdge { id },
        }
    }
    pub(crate) fn coordinate(point: usize, axis: char, value: f64) -> Self {
        Self {
            kind: BuildKind::CoordinateOutOfRange { point, axis, value },
        }
    }
    pub(crate) fn invalid_max_distance(value: f64) -> Self {
        Self {
            kind: BuildKind::InvalidMaxDistance { value },
        }
    }
    pub(crate) fn link_out_of_range(link: usize, value: u32, node_count: usize) -> Self {
        Self {
            kind: BuildKind::LinkOutOfRange {
                link,
                value,
                node_count,
            },
        }
    }
    pub(crate) fn invalid_landmark_count(count: usize) -> Self {
        Self {
            kind: BuildKind::InvalidLandmarkCount { count },
        }
    }
    pub(crate) fn landmark_table_too_large(landmarks: usize, nodes: usize) -> Self {
        Self {
            kind: BuildKind::LandmarkTableTooLarge { landmarks, nodes },
        }
    }
    pub(crate) fn too_many_links(limit: usize) -> Self {
        Self {
            kind: BuildKind::TooManyLinks { limit },
        }
    }
    pub(crate) fn empty_graph() -> Self {
        Self {
            kind: BuildKind::EmptyGraph,
        }
    }

    /// [GRAPH.ERR.CLASSES] The stable class name of this error.
    ///
    /// An edge count that does not fit the 32-bit edge ids / CSR offsets (unreachable in practice:
    /// it needs more than 2^32 edges) has no class in the spec and reports `too_many_nodes`.
    pub fn class(&self) -> &'static str {
        match self.kind {
            BuildKind::TooManyNodes { .. }
            | BuildKind::TooManyEdges { .. }
            | BuildKind::LandmarkTableTooLarge { .. }
            | BuildKind::TooManyLinks { .. } => "too_many_nodes",
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

    /// [GRAPH.API.INDEX] The edge index / edge id, link position or point index this error names;
    /// `None` for the classes that name none.
    pub fn index(&self) -> Option<usize> {
        match self.kind {
            BuildKind::EndpointOutOfRange { edge, .. } | BuildKind::InvalidWeight { edge, .. } => {
                Some(edge)
            }
            BuildKind::UnknownEdge { id, .. } | BuildKind::RemovedEdge { id } => Some(id as usize),
            BuildKind::CoordinateOutOfRange { point, .. } => Some(point),
            BuildKind::LinkOutOfRange { link, .. } => Some(link),
            _ => None,
        }
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            BuildKind::TooManyNodes { requested } => write!(
                f,
                "too_many_nodes: {requested} nodes requested, at most {} (2^26) are allowed",
                crate::MAX_NODES
            ),
            BuildKind::TooManyEdges { requested } => write!(
                f,
                "too_many_nodes: {requested} edges do not fit 32-bit edge ids (at most 2^32 - 1)"
            ),
            BuildKind::EndpointOutOfRange { edge, endpoint, value, node_count } => write!(
                f,
                "edge {edge}: endpoint `{endpoint}` = {value} is out of range for {node_count} nodes"
            ),
            BuildKind::InvalidWeight { edge, value } => write!(
                f,
                "edge {edge}: weight {value:?} is invalid (it must be finite and 0 or more)"
            ),
            BuildKind::UnknownEdge { id, edge_count } => write!(
                f,
                "edge {id}: unknown edge id ({edge_count} edges have been added so far)"
            ),
            BuildKind::RemovedEdge { id } => write!(f, "edge {id}: the edge has been removed"),
            BuildKind::CoordinateOutOfRange { point, axis, value } => write!(
                f,
                "point {point}: coordinate {axis} = {value:?} is not finite or exceeds the bound \
                 {COORD_BOUND} (2^21) in magnitude"
            ),
            BuildKind::InvalidMaxDistance { value } => write!(
                f,
                "max_distance = {value:?} is invalid: it must be 0 (off) or finite and at least 2^-30"
            ),
            BuildKind::LinkOutOfRange { link, value, node_count } => write!(
                f,
                "link {link}: point index {value} is out of range for {node_count} points"
            ),
            BuildKind::InvalidLandmarkCount { count } => {
                write!(f, "landmark count {count} is invalid: it must be at least 1")
            }
            BuildKind::LandmarkTableTooLarge { landmarks, nodes } => write!(
                f,
                "too_many_nodes: {landmarks} landmarks on {nodes} nodes need {} distances per \
                 direction, at most {} (2^28) are allowed; use fewer landmarks",
                *landmarks as u128 * *nodes as u128,
                crate::MAX_LANDMARK_ENTRIES
            ),
            BuildKind::TooManyLinks { limit } => write!(
                f,
                "too_many_nodes: link generation accepted more than {limit} (2^24) links; use a \
                 smaller max_distance or nearest_count"
            ),
            BuildKind::EmptyGraph => write!(f, "empty_graph: the graph has no nodes"),
        }
    }
}

impl std::error::Error for BuildError {}

/// Which kind of query failure happened.
#[derive(Clone, Debug, PartialEq)]
enum QueryKind {
    NodeOutOfRange {
        which: &'static str,
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
        value: f64,
    },
    EmptyGraph,
}

/// [GRAPH.ERR.CLASSES] [GRAPH.T1.CHECKS] A failure of a query's arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct QueryError {
    kind: QueryKind,
}

impl QueryError {
    pub(crate) fn node_out_of_range(which: &'static str, node: u32, node_count: usize) -> Self {
        Self {
            kind: QueryKind::NodeOutOfRange {
                which,
                node,
                node_count,
            },
        }
    }
    pub(crate) fn stale(
        table_nodes: usize,
        table_fp: u64,
        graph_nodes: usize,
        graph_fp: u64,
    ) -> Self {
        Self {
            kind: QueryKind::StaleLandmarks {
                table_nodes,
                table_fp,
                graph_nodes,
                graph_fp,
            },
        }
    }
    pub(crate) fn invalid_position(axis: char, value: f64) -> Self {
        Self {
            kind: QueryKind::InvalidPosition { axis, value },
        }
    }
    pub(crate) fn empty_graph() -> Self {
        Self {
            kind: QueryKind::EmptyGraph,
        }
    }

    /// [GRAPH.ERR.CLASSES] [GRAPH.PT.NEAREST_NODE] The stable class name of this error
    /// (`node_out_of_range`, `stale_landmarks`, `invalid_position`, or `empty_graph` from
    /// `nearest_node` on a point graph without points).
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
        match &self.kind {
            QueryKind::NodeOutOfRange { which, node, node_count } => {
                write!(f, "{which} node {node} is out of range for {node_count} nodes")
            }
            QueryKind::StaleLandmarks { table_nodes, table_fp, graph_nodes, graph_fp } => write!(
                f,
                "stale_landmarks: the table was built for {table_nodes} nodes with fingerprint \
                 {table_fp:#018x}, the graph has {graph_nodes} nodes with fingerprint {graph_fp:#018x}"
            ),
            QueryKind::InvalidPosition { axis, value } => write!(
                f,
                "invalid_position: coordinate {axis} = {value:?} is not finite or exceeds the bound \
                 {COORD_BOUND} (2^21) in magnitude"
            ),
            QueryKind::EmptyGraph => write!(f, "empty_graph: the point graph has no nodes"),
        }
    }
}

impl std::error::Error for QueryError {}

/// Which check of [GRAPH.OPLM.CHECKS] failed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum StateKind {
    Truncated {
        length: usize,
    },
    BadMagic,
    UnsupportedVersion {
        version: u32,
    },
    NodeCountMismatch {
        stored: i32,
        graph: usize,
    },
    CountOutOfRange {
        count: i32,
        node_count: i32,
    },
    LengthMismatch {
        expected: u64,
        actual: usize,
    },
    FingerprintMismatch {
        stored: u64,
        graph: u64,
    },
    IndexOutOfRange {
        slot: usize,
        id: i32,
        node_count: i32,
    },
    DuplicateNode {
        slot: usize,
        id: i32,
    },
    BadDistance {
        value_bits: u64,
    },
    SelfDistance {
        landmark: usize,
        backward: bool,
        value_bits: u64,
    },
    /// [STATE.CLASSES] A failed check of a graph state (kinds 4 and 11).
    Format {
        class: &'static str,
        detail: String,
    },
}

/// [GRAPH.ERR.CLASSES] [GRAPH.OPLM.CHECKS] [STATE.ERRORS] [STATE.CLASSES] A rejected OPLM byte
/// string or graph state (kinds 4 and 11), with the byte offset of the failed check; category
/// `format`.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphStateError {
    kind: StateKind,
    offset: usize,
}

impl GraphStateError {
    pub(crate) fn new(kind: StateKind, offset: usize) -> Self {
        Self { kind, offset }
    }

    /// [GRAPH.ERR.CLASSES] The stable class name of this error.
    pub fn class(&self) -> &'static str {
        match self.kind {
            StateKind::Truncated { .. } => "truncated",
            StateKind::BadMagic => "bad_magic",
            StateKind::UnsupportedVersion { .. } => "unsupported_version",
            StateKind::NodeCountMismatch { .. } => "node_count_mismatch",
            StateKind::CountOutOfRange { .. } => "count_out_of_range",
            StateKind::LengthMismatch { .. } => "length_mismatch",
            StateKind::FingerprintMismatch { .. } => "fingerprint_mismatch",
            StateKind::IndexOutOfRange { .. } => "index_out_of_range",
            StateKind::DuplicateNode { .. } => "duplicate_node",
            StateKind::BadDistance { .. } => "bad_distance",
            StateKind::SelfDistance { .. } => "self_distance",
            StateKind::Format { class, .. } => class,
        }
    }

    /// [GRAPH.OPLM.CHECKS] [STATE.ERRORS] The byte offset the failed check reports.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// [GRAPH.ERR.CLASSES] The error category: always `"format"`.
    pub fn category(&self) -> &'static str {
        "format"
    }
}

impl fmt::Display for GraphStateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.offset;
        match &self.kind {
            StateKind::Truncated { length } => {
                write!(f, "truncated at byte {at}: {length} bytes is shorter than the 24-byte header")
            }
            StateKind::BadMagic => write!(f, "bad_magic at byte {at}: the bytes do not start with \"OPLM\""),
            StateKind::UnsupportedVersion { version } => {
                write!(f, "unsupported_version at byte {at}: version {version}, only 1 is supported")
            }
            StateKind::NodeCountMismatch { stored, graph } => write!(
                f,
                "node_count_mismatch at byte {at}: the bytes hold {stored} nodes, the graph has {graph}"
            ),
            StateKind::CountOutOfRange { count, node_count } => write!(
                f,
                "count_out_of_range at byte {at}: landmark count {count} is outside 1..={node_count}"
            ),
            StateKind::LengthMismatch { expected, actual } => write!(
                f,
                "length_mismatch at byte {at}: expected {expected} bytes, got {actual}"
            ),
            StateKind::FingerprintMismatch { stored, graph } => write!(
                f,
                "fingerprint_mismatch at byte {at}: the bytes hold {stored:#018x}, the graph has {graph:#018x}"
            ),
            StateKind::IndexOutOfRange { slot, id, node_count } => write!(
                f,
                "index_out_of_range at byte {at}: landmark {slot} has id {id}, outside 0..{node_count}"
            ),
            StateKind::DuplicateNode { slot, id } => write!(
                f,
                "duplicate_node at byte {at}: landmark {slot} repeats node {id}"
            ),
            StateKind::BadDistance { value_bits } => write!(
                f,
                "bad_distance at byte {at}: {:?} (bits {value_bits:#018x}) is NaN, negative or has the sign bit set",
                f64::from_bits(*value_bits)
            ),
            StateKind::SelfDistance { landmark, backward, value_bits } => write!(
                f,
                "self_distance at byte {at}: the {} distance of landmark {landmark} to itself is {:?}, not 0",
                if *backward { "backward" } else { "forward" },
                f64::from_bits(*value_bits)
            ),
            StateKind::Format { detail, .. } => f.write_str(detail),
        }
    }
}

impl From<crate::state::Fault> for GraphStateError {
    fn from(f: crate::state::Fault) -> Self {
        GraphStateError::new(
            StateKind::Format {
                class: f.class,
                detail: f.detail,
            },
            f.offset,
        )
    }
}

impl std::error::Error for GraphStateError {}
