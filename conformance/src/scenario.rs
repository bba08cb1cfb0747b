//! Scenario files ([CONF.SCN.*]): the graph, landmark options and queries of one case, the
//! variants (matrix columns) and the decoded JSON form of outcomes.
//! [CONF.SCN.GENERATOR] [CONF.SCN.QUERIES] [CONF.SCN.HASHES] [CONF.SCN.COMPLETE] are read and
//! written here; [CONF.SCN.FLOATS] reals round-trip through serde_json's exact float parsing;
//! [CONF.VAR.ALT] the `alt` and `both` variants set the scenario's landmark table.

use crate::error::{ErrorKind, HarnessError};
use crate::outcome::{AlgorithmCode, Outcome, PathOutcome, StatusCode};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A query: `(start, goal)`.
pub type Query = (u32, u32);

/// The graph of a case ([CONF.SCN.GRAPH]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum GraphSpec {
    /// Built with `Graph::from_edges(edges, Some(node_count), directed)`.
    Edges {
        /// Node count `N`.
        node_count: u32,
        /// Whether the edges are directed.
        directed: bool,
        /// `[from, to, weight]` triples in input order.
        edges: Vec<(u32, u32, f64)>,
        /// One position per node (enables the geo variants), or null.
        #[serde(deserialize_with = "required")]
        positions: Option<Vec<[f64; 3]>>,
    },
    /// Built with `PointGraph::new(points, options)` (no `link_valid`).
    Points {
        /// The points.
        points: Vec<[f64; 3]>,
        /// Explicit links.
        explicit: Vec<[u32; 2]>,
        /// Link radius (0 = off).
        max_distance: f64,
        /// Nearest count (0 = off).
        nearest_count: u32,
    },
}

/// Makes an `Option` field required (serde would otherwise default a missing one to `None`).
fn required<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    Option::<T>::deserialize(d)
}

impl GraphSpec {
    /// Node count of the graph.
    pub fn node_count(&self) -> usize {
        match self {
            GraphSpec::Edges { node_count, .. } => *node_count as usize,
            GraphSpec::Points { points, .. } => points.len(),
        }
    }

    /// True when the geo variants apply ([CONF.VAR.GEO]).
    pub fn has_positions(&self) -> bool {
        match self {
            GraphSpec::Edges { positions, .. } => positions.is_some(),
            GraphSpec::Points { .. } => true,
        }
    }

    /// True for a point graph.
    pub fn is_points(&self) -> bool {
        matches!(self, GraphSpec::Points { .. })
    }
}

/// Landmark strategy names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StrategySpec {
    /// `LandmarkStrategy::Avoid`.
    Avoid,
    /// `LandmarkStrategy::Farthest`.
    Farthest,
}

/// Landmark options of a case ([GRAPH.ALT.OPTIONS]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LandmarkSpec {
    /// Requested count.
    pub count: u32,
    /// Strategy.
    pub strategy: StrategySpec,
    /// Seed of the landmark generator.
    pub seed: u64,
}

/// What crosses the [`crate::Implementation`] trait: a graph and its landmark options.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// The graph.
    pub graph: GraphSpec,
    /// The landmark options (used by the alt variants and the oplm column).
    pub landmarks: LandmarkSpec,
}

/// The eight query variants (matrix columns) of [CONF.VAR.LIST], in column order.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Dijkstra, no estimate.
    Dijkstra,
    /// A* with the landmark estimate.
    AstarAlt,
    /// A* with the Euclidean estimate.
    AstarGeo,
    /// A* with both estimates.
    AstarBoth,
    /// Bidirectional Dijkstra.
    BidiDijkstra,
    /// Bidirectional A* with the landmark estimate.
    BidiAlt,
    /// Bidirectional A* with the Euclidean estimate.
    BidiGeo,
    /// Bidirectional A* with both estimates.
    BidiBoth,
}

impl Variant {
    /// All variants in column order.
    pub const ALL: [Variant; 8] = [
        Variant::Dijkstra,
        Variant::AstarAlt,
        Variant::AstarGeo,
        Variant::AstarBoth,
        Variant::BidiDijkstra,
        Variant::BidiAlt,
        Variant::BidiGeo,
        Variant::BidiBoth,
    ];

    /// The column name.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Dijkstra => "dijkstra",
            Variant::AstarAlt => "astar_alt",
            Variant::AstarGeo => "astar_geo",
            Variant::AstarBoth => "astar_both",
            Variant::BidiDijkstra => "bidi_dijkstra",
            Variant::BidiAlt => "bidi_alt",
            Variant::BidiGeo => "bidi_geo",
            Variant::BidiBoth => "bidi_both",
        }
    }

    /// Parses a column name.
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.iter().copied().find(|v| v.name() == name)
    }

    /// Uses the landmark table.
    pub fn uses_alt(self) -> bool {
        matches!(
            self,
            Variant::AstarAlt | Variant::AstarBoth | Variant::BidiAlt | Variant::BidiBoth
        )
    }

    /// Uses the Euclidean estimate.
    pub fn uses_geo(self) -> bool {
        matches!(
            self,
            Variant::AstarGeo | Variant::AstarBoth | Variant::BidiGeo | Variant::BidiBoth
        )
    }

    /// Bidirectional search.
    pub fn bidirectional(self) -> bool {
        matches!(
            self,
            Variant::BidiDijkstra | Variant::BidiAlt | Variant::BidiGeo | Variant::BidiBoth
        )
    }

    /// The algorithm a conforming tier-1 query reports for this variant.
    pub fn algorithm(self) -> AlgorithmCode {
        match (self.bidirectional(), self.uses_alt() || self.uses_geo()) {
            (false, false) => AlgorithmCode::Dijkstra,
            (false, true) => AlgorithmCode::Astar,
            (true, false) => AlgorithmCode::BidirectionalDijkstra,
            (true, true) => AlgorithmCode::BidirectionalAstar,
        }
    }

    /// Whether the variant applies to a graph (geo needs positions).
    pub fn applies_to(self, graph: &GraphSpec) -> bool {
        !self.uses_geo() || graph.has_positions()
    }

    /// [CONF.VAR.NOT_APPLICABLE] The variant without the Euclidean estimate: what a geo variant
    /// answers on an edges graph without positions (`astar_geo` → `dijkstra`, `astar_both` →
    /// `astar_alt`, `bidi_geo` → `bidi_dijkstra`, `bidi_both` → `bidi_alt`); a variant without
    /// geo is itself.
    pub fn without_geo(self) -> Variant {
        match self {
            Variant::AstarGeo => Variant::Dijkstra,
            Variant::AstarBoth => Variant::AstarAlt,
            Variant::BidiGeo => Variant::BidiDijkstra,
            Variant::BidiBoth => Variant::BidiAlt,
            v => v,
        }
    }
}

/// A query outcome in the JSON form of [CONF.SCN.OUTCOME].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum DecodedOutcome {
    /// A result.
    Path(DecodedPath),
    /// An error.
    Error(DecodedError),
}

/// The JSON form of a result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecodedPath {
    /// Status.
    pub status: StatusCode,
    /// Algorithm that ran.
    pub algorithm: AlgorithmCode,
    /// Cost as a number, null when not finite.
    #[serde(deserialize_with = "required")]
    pub cost: Option<f64>,
    /// Cost bit pattern, 16 lowercase hex digits (authoritative).
    pub cost_bits: String,
    /// Path nodes.
    pub nodes: Vec<u32>,
    /// Iterations.
    pub iterations: u64,
    /// Expansions.
    pub expanded_count: u64,
    /// Recorded expansion list.
    pub expanded: Vec<u32>,
}

/// The JSON form of an error outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecodedError {
    /// The error class.
    pub error: String,
}

impl DecodedOutcome {
    /// The JSON form of an outcome.
    pub fn from_outcome(o: &Outcome) -> Self {
        match o {
            Outcome::Error(c) => DecodedOutcome::Error(DecodedError { error: c.clone() }),
            Outcome::Path(p) => DecodedOutcome::Path(DecodedPath {
                status: p.status,
                algorithm: p.algorithm,
                cost: if p.cost.is_finite() {
                    Some(p.cost)
                } else {
                    None
                },
                cost_bits: format!("{:016x}", p.cost.to_bits()),
                nodes: p.nodes.clone(),
                iterations: p.iterations,
                expanded_count: p.expanded_count,
                expanded: p.expanded.clone(),
            }),
        }
    }

    /// Back to an outcome; fails when `cost_bits` is malformed or disagrees with `cost`.
    pub fn to_outcome(&self) -> Result<Outcome, HarnessError> {
        match self {
            DecodedOutcome::Error(e) => Ok(Outcome::Error(e.error.clone())),
            DecodedOutcome::Path(p) => {
                if p.cost_bits.len() != 16
                    || !p
                        .cost_bits
                        .bytes()
                        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
                {
                    return Err(HarnessError::new(
                        ErrorKind::Schema,
                        format!("cost_bits {:?} is not 16 lowercase hex digits", p.cost_bits),
                    ));
                }
                let bits = u64::from_str_radix(&p.cost_bits, 16)
                    .map_err(|e| HarnessError::new(ErrorKind::Schema, e.to_string()))?;
                let cost = f64::from_bits(bits);
                let consistent = match p.cost {
                    Some(c) => c.to_bits() == bits,
                    None => !cost.is_finite(),
                };
                if !consistent {
                    return Err(HarnessError::new(
                        ErrorKind::Mismatch,
                        format!("cost {:?} disagrees with cost_bits {}", p.cost, p.cost_bits),
                    ));
                }
                Ok(Outcome::Path(PathOutcome {
                    algorithm: p.algorithm,
                    status: p.status,
                    cost,
                    iterations: p.iterations,
                    expanded_count: p.expanded_count,
                    nodes: p.nodes.clone(),
                    expanded: p.expanded.clone(),
                }))
            }
        }
    }
}

/// A scenario: vector `GRAPH-NNNN`, the one case of its file ([CONF.SCN.FILE]).
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// Vector id, `GRAPH-0001`...
    pub id: String,
    /// What the scenario exercises.
    pub comment: String,
    /// Informative provenance: `kind`, `seed` and the recipe's parameters.
    pub generator: serde_json::Map<String, serde_json::Value>,
    /// The graph.
    pub graph: GraphSpec,
    /// Landmark options.
    pub landmarks: LandmarkSpec,
    /// Queries, in order.
    pub queries: Vec<Query>,
    /// Points graphs: SHA-256 of the emitted CSR edge list ([CONF.ENC.LINKS]); null for edges graphs.
    pub csr_edges_sha256: Option<String>,
    /// SHA-256 of the landmark table's OPLM bytes, or null when building it fails.
    pub oplm_sha256: Option<String>,
    /// Per applicable variant, one outcome per query.
    pub outcomes: BTreeMap<Variant, Vec<DecodedOutcome>>,
}

/// The case of a scenario file, as written in its envelope's `cases` ([CONF.SCN.FILE]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioCase {
    /// Informative provenance: `kind`, `seed` and the recipe's parameters.
    pub generator: serde_json::Map<String, serde_json::Value>,
    /// The graph.
    pub graph: GraphSpec,
    /// Landmark options.
    pub landmarks: LandmarkSpec,
    /// Queries, in order.
    pub queries: Vec<Query>,
    /// Points graphs: SHA-256 of the emitted CSR edge list; null for edges graphs.
    #[serde(deserialize_with = "required")]
    pub csr_edges_sha256: Option<String>,
    /// SHA-256 of the landmark table's OPLM bytes, or null when building it fails.
    #[serde(deserialize_with = "required")]
    pub oplm_sha256: Option<String>,
    /// Per applicable variant, one outcome per query.
    pub outcomes: BTreeMap<Variant, Vec<DecodedOutcome>>,
}

/// The `family` of scenario files.
pub const SCENARIO_FAMILY: &str = "graph";

impl Scenario {
    /// The case this scenario runs.
    pub fn case(&self) -> Case {
        Case {
            graph: self.graph.clone(),
            landmarks: self.landmarks,
        }
    }

    /// Parses and validates a scenario file's text (an envelope of family `graph` with one case).
    pub fn parse(text: &str) -> Result<Scenario, HarnessError> {
        Scenario::from_envelope(crate::envelope::Envelope::parse(text, SCENARIO_FAMILY)?)
    }

    /// Validates a parsed envelope.
    pub fn from_envelope(
        envelope: crate::envelope::Envelope<ScenarioCase>,
    ) -> Result<Scenario, HarnessError> {
        let (id, comment, c) = envelope.single()?;
        let s = Scenario {
            id,
            comment,
            generator: c.generator,
            graph: c.graph,
            landmarks: c.landmarks,
            queries: c.queries,
            csr_edges_sha256: c.csr_edges_sha256,
            oplm_sha256: c.oplm_sha256,
            outcomes: c.outcomes,
        };
        s.validate()?;
        Ok(s)
    }

    /// The file's envelope.
    pub fn envelope(&self) -> crate::envelope::Envelope<ScenarioCase> {
        crate::envelope::Envelope::new(
            &self.id,
            SCENARIO_FAMILY,
            &self.comment,
            vec![ScenarioCase {
                generator: self.generator.clone(),
                graph: self.graph.clone(),
                landmarks: self.landmarks,
                queries: self.queries.clone(),
                csr_edges_sha256: self.csr_edges_sha256.clone(),
                oplm_sha256: self.oplm_sha256.clone(),
                outcomes: self.outcomes.clone(),
            }],
        )
    }

    /// Checks the rules serde cannot express.
    pub fn validate(&self) -> Result<(), HarnessError> {
        // [CONF.SCN.GRAPH] one position per node: the Euclidean estimate reads the position of
        // every node a search reaches.
        if let GraphSpec::Edges {
            node_count,
            positions: Some(p),
            ..
        } = &self.graph
        {
            if p.len() as u64 != u64::from(*node_count) {
                return Err(HarnessError::new(
                    ErrorKind::Schema,
                    format!("{} positions for {node_count} nodes", p.len()),
                )
                .in_member("graph.positions"));
            }
        }
        for key in ["kind", "seed"] {
            if !self.generator.contains_key(key) {
                return Err(HarnessError::new(
                    ErrorKind::Schema,
                    format!("generator has no {key:?}"),
                ));
            }
        }
        for variant in Variant::ALL {
            let applies = variant.applies_to(&self.graph);
            match self.outcomes.get(&variant) {
                Some(_) if !applies => {
                    return Err(HarnessError::new(
                        ErrorKind::Schema,
                        format!("outcomes for n/a variant {}", variant.name()),
                    ))
                }
                None if applies => {
                    return Err(HarnessError::new(
                        ErrorKind::Schema,
                        format!("no outcomes for variant {}", variant.name()),
                    ))
                }
                Some(list) if list.len() != self.queries.len() => {
                    return Err(HarnessError::new(
                        ErrorKind::Schema,
                        format!("{} outcomes for {} queries", list.len(), self.queries.len()),
                    )
                    .in_member(format!("variant {}", variant.name())))
                }
                Some(list) => {
                    for (i, o) in list.iter().enumerate() {
                        o.to_outcome().map_err(|e| {
                            e.in_member(format!("variant {} query {i}", variant.name()))
                        })?;
                    }
                }
                None => {}
            }
        }
        Ok(())
    }
}
