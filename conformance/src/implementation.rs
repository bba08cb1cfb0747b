//! The implementation-under-test interface ([CONF.IMPL.*]). Everything that crosses it is plain
//! data (scenario structs, outcomes, bytes, error class strings), so an out-of-process port
//! driven over a pipe can implement it as well as the two in-process crates.
//! [CONF.IMPL.TRAIT] [`Implementation`] is the one interface; [CONF.IMPL.PLAIN_DATA] only plain
//! data crosses it; [CONF.IMPL.LINK_RULE] `link_valid` rules are data ([`LinkRule`]).

use crate::outcome::{AlgorithmCode, Outcome};
use crate::scenario::{Case, Query, Variant};

/// Per-query options of a tier-1 run ([CONF.VAR.TIER1]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// `iteration_budget` (0 = unlimited).
    pub iteration_budget: u64,
    /// `record_expansions`.
    pub record_expansions: bool,
}

impl RunOptions {
    /// The options of every matrix cell: no budget, recording on.
    pub const MATRIX: RunOptions = RunOptions {
        iteration_budget: 0,
        record_expansions: true,
    };
}

/// [CONF.IMPL.LINK_RULE]
/// A deterministic `link_valid` rule, as data so it can cross a process boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkRule {
    /// Rejects the pair `(a, b)` when `(a + b) % m == 0`.
    RejectIndexSumMultipleOf(u32),
}

impl LinkRule {
    /// Whether the rule accepts the pair.
    pub fn accepts(self, a: u32, b: u32) -> bool {
        match self {
            LinkRule::RejectIndexSumMultipleOf(m) => (a as u64 + b as u64) % m as u64 != 0,
        }
    }
}

/// A point-graph link build request ([GRAPH.PT.*]).
#[derive(Clone, Debug, PartialEq)]
pub struct LinkRequest {
    /// The points.
    pub points: Vec<[f64; 3]>,
    /// Explicit links.
    pub explicit: Vec<[u32; 2]>,
    /// Link radius (0 = off).
    pub max_distance: f64,
    /// Nearest count (0 = off).
    pub nearest_count: u32,
    /// `link_valid`, or none (accept everything).
    pub rule: Option<LinkRule>,
}

/// The result of a link build.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkResult {
    /// The CSR edge list in slot order: `(from, to, weight)`.
    pub edges: Vec<(u32, u32, f64)>,
    /// Every `link_valid(a, b)` call, in call order.
    pub calls: Vec<(u32, u32)>,
}

/// A build (or query) error as plain data: its class ([GRAPH.ERR.CLASSES]) and the index it
/// names ([GRAPH.API.INDEX]; always `None` for query errors) ([CONF.IMPL.BUILD_FAILURE]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildFailure {
    /// Error class.
    pub class: String,
    /// Edge index, link position or point index named by the error.
    pub index: Option<usize>,
}

impl BuildFailure {
    /// A failure with a class and an index.
    pub fn new(class: &str, index: Option<usize>) -> Self {
        BuildFailure {
            class: class.to_string(),
            index,
        }
    }
}

impl std::fmt::Display for BuildFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.index {
            Some(i) => write!(f, "{} (index {i})", self.class),
            None => write!(f, "{} (no index)", self.class),
        }
    }
}

/// A deterministic `edge_cost(from, to, weight)` hook, as data ([CONF.IMPL.HOOK_RULES]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CostRule {
    /// `weight * num / den` (evaluated in that order).
    Scale {
        /// Numerator.
        num: u32,
        /// Denominator (>= 1).
        den: u32,
    },
    /// `weight + k`.
    AddConst(f64),
    /// NaN when `(from + to) % m == 0`, else `weight`.
    NanWhere(u32),
    /// `-1.0` when `(from + to) % m == 0`, else `weight`.
    NegativeWhere(u32),
    /// `-0.0` when `(from + to) % m == 0`, else `weight`.
    NegativeZeroWhere(u32),
    /// `+infinity` when `(from + to) % m == 0`, else `weight`.
    InfinityWhere(u32),
    /// `f64::MAX` when `(from + to) % m == 0`, else `weight` (two such edges overflow `g`).
    MaxWhere(u32),
}

impl CostRule {
    /// The hook's value.
    pub fn cost(self, from: u32, to: u32, weight: f64) -> f64 {
        let hit = |m: u32| (from as u64 + to as u64) % m as u64 == 0;
        match self {
            CostRule::Scale { num, den } => weight * num as f64 / den as f64,
            CostRule::AddConst(k) => weight + k,
            CostRule::NanWhere(m) if hit(m) => f64::NAN,
            CostRule::NegativeWhere(m) if hit(m) => -1.0,
            CostRule::NegativeZeroWhere(m) if hit(m) => -0.0,
            CostRule::InfinityWhere(m) if hit(m) => f64::INFINITY,
            CostRule::MaxWhere(m) if hit(m) => f64::MAX,
            _ => weight,
        }
    }
}

/// A deterministic `blocked(node)` hook: blocks `node` when `node % modulus == residue`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockedRule {
    /// Modulus (>= 1).
    pub modulus: u32,
    /// Residue.
    pub residue: u32,
}

impl BlockedRule {
    /// Whether the node is blocked.
    pub fn blocked(self, node: u32) -> bool {
        node % self.modulus == self.residue
    }
}

/// A deterministic (and deliberately inconsistent) `heuristic(from, to)` hook.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HeuristicRule {
    /// `((from * mul + to) % modulus)` as a double.
    Mod {
        /// Multiplier.
        mul: u32,
        /// Modulus (>= 1).
        modulus: u32,
    },
    /// `+infinity` when `from % m == r`, else `(from * 7 + to) % 5`.
    InfinityWhere {
        /// Modulus (>= 1).
        m: u32,
        /// Residue.
        r: u32,
    },
    /// NaN when `(from + to) % m == 0`, else `(from * 7 + to) % 5`.
    NanWhere(u32),
    /// `-2.5` when `(from + to) % m == 0`, else `(from * 7 + to) % 5`.
    NegativeWhere(u32),
}

impl HeuristicRule {
    /// The hook's value.
    pub fn estimate(self, from: u32, to: u32) -> f64 {
        let base = ((from as u64 * 7 + to as u64) % 5) as f64;
        let hit = |m: u32| (from as u64 + to as u64) % m as u64 == 0;
        match self {
            HeuristicRule::Mod { mul, modulus } => {
                ((from as u64 * mul as u64 + to as u64) % modulus as u64) as f64
            }
            HeuristicRule::InfinityWhere { m, r } => {
                if from % m == r {
                    f64::INFINITY
                } else {
                    base
                }
            }
            HeuristicRule::NanWhere(m) if hit(m) => f64::NAN,
            HeuristicRule::NegativeWhere(m) if hit(m) => -2.5,
            _ => base,
        }
    }
}

/// The three tier-1 hooks of [GRAPH.T1.OPTIONS], each optional, as data.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HookSpec {
    /// `edge_cost`.
    pub cost: Option<CostRule>,
    /// `blocked`.
    pub blocked: Option<BlockedRule>,
    /// `heuristic`.
    pub heuristic: Option<HeuristicRule>,
}

/// One recorded hook call, in call order ([CONF.IMPL.HOOK_LOG]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookCall {
    /// `edge_cost(from, to, weight)` (weight by bit pattern).
    EdgeCost(u32, u32, u64),
    /// `blocked(node)`.
    Blocked(u32),
    /// `heuristic(from, to)`.
    Heuristic(u32, u32),
}

impl std::fmt::Display for HookCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            HookCall::EdgeCost(a, b, w) => {
                write!(f, "edge_cost({a}, {b}, {:?})", f64::from_bits(w))
            }
            HookCall::Blocked(n) => write!(f, "blocked({n})"),
            HookCall::Heuristic(a, b) => write!(f, "heuristic({a}, {b})"),
        }
    }
}

/// A tier-1 query with hooks ([CONF.CHECK.HOOKS]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HookedQuery {
    /// The requested algorithm (never `Auto`).
    pub algorithm: AlgorithmCode,
    /// Set the `landmarks` option to the case's table.
    pub landmarks: bool,
    /// For a points case, query the `PointGraph` itself (Euclidean estimate built in); otherwise
    /// the plain graph of [CONF.VAR.POINTS]. Ignored for edges cases.
    pub builtin_estimate: bool,
    /// The hooks.
    pub hooks: HookSpec,
    /// `(start, goal)`.
    pub query: Query,
    /// Budget and recording.
    pub opts: RunOptions,
}

/// The outcome of a hooked query and every hook call it made, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct HookedRun {
    /// The outcome.
    pub outcome: Outcome,
    /// The hook calls.
    pub calls: Vec<HookCall>,
}

/// A tier-2 status ([GRAPH.ASTAR.STATUS]); defined in `outcome.rs` (plain data shared with
/// `state`, which must not depend on this module).
pub use crate::outcome::SearchCode;

/// What a cancelled tier-2 run shows ([CONF.CHECK.CANCEL]): `(status, iterations)` after
/// `begin` and `step(first_steps)` (no step call when 0), after `run(Some(flag))` with the flag
/// already set, after a second such call, and the final outcome after `run(Some(flag))` with the
/// flag cleared.
#[derive(Clone, Debug, PartialEq)]
pub struct CancelTrace {
    /// After `begin` (and the optional `step`).
    pub before: (SearchCode, u64),
    /// After the first cancelled `run`.
    pub cancelled: (SearchCode, u64),
    /// After the second cancelled `run`.
    pub cancelled_again: (SearchCode, u64),
    /// After resuming with the flag cleared.
    pub resumed: Outcome,
}

/// One operation of an error script ([CONF.CHECK.ERRORS]). Scripts act on a current `Graph`,
/// a current `PointGraph` and a current landmark table.
#[derive(Clone, Debug, PartialEq)]
pub enum GraphOp {
    /// `Graph::from_edges(edges, node_count, directed)` becomes the current graph; `Ok(edge_count)`.
    FromEdges {
        /// Input edges.
        edges: Vec<(u32, u32, f64)>,
        /// Given node count, or absent.
        node_count: Option<u64>,
        /// Directed.
        directed: bool,
    },
    /// `Graph::new(n)` becomes the current graph; `Ok(node_count)`.
    NewGraph(u64),
    /// `CsrGraph::new(n, edges)` (standalone); `Ok(edge_count)`.
    Csr {
        /// Node count.
        node_count: u64,
        /// Edges.
        edges: Vec<(u32, u32, f64)>,
    },
    /// `add_node()`; `Ok(id)`.
    AddNode,
    /// `add_edge(from, to, w)`; `Ok(id)`.
    AddEdge(u32, u32, f64),
    /// `remove_edge(id)`; `Ok(0)`.
    RemoveEdge(u32),
    /// `set_weight(id, w)`; `Ok(0)`.
    SetWeight(u32, f64),
    /// `build_landmarks(count, Avoid, seed 1)` on the current graph; the table becomes current; `Ok(count used)`.
    BuildLandmarks(u64),
    /// Tier-1 `find_path` (Auto) on the current graph, with the current table when asked; `Ok(cost bits)`.
    FindPath {
        /// Start.
        start: u32,
        /// Goal.
        goal: u32,
        /// Set the `landmarks` option.
        landmarks: bool,
    },
    /// `PointGraph::new(points, options)` (no `link_valid`) becomes the current point graph; `Ok(edge_count)`.
    Points {
        /// Points.
        points: Vec<[f64; 3]>,
        /// Explicit links.
        explicit: Vec<[u32; 2]>,
        /// `max_distance`.
        max_distance: f64,
        /// `nearest_count`.
        nearest_count: u32,
    },
    /// `nearest_node(p)` on the current point graph; `Ok(id)`.
    NearestNode([f64; 3]),
    /// `find_path_between(a, b, default)` on the current point graph; `Ok(cost bits)`.
    FindPathBetween([f64; 3], [f64; 3]),
}

/// The op as a call with the protocol's op name and plain values (`f64` in Rust's shortest
/// round-trip form), for failure messages: `from_edges(edges [(0, 1, 1.0)], node_count 3,
/// directed true)`; never a Rust debug form.
impl std::fmt::Display for GraphOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        fn edges(f: &mut std::fmt::Formatter<'_>, e: &[(u32, u32, f64)]) -> std::fmt::Result {
            f.write_str("[")?;
            for (i, (a, b, w)) in e.iter().enumerate() {
                let sep = if i == 0 { "" } else { ", " };
                write!(f, "{sep}({a}, {b}, {w:?})")?;
            }
            f.write_str("]")
        }
        fn point(p: &[f64; 3]) -> String {
            format!("({:?}, {:?}, {:?})", p[0], p[1], p[2])
        }
        match self {
            GraphOp::FromEdges {
                edges: e,
                node_count,
                directed,
            } => {
                f.write_str("from_edges(edges ")?;
                edges(f, e)?;
                match node_count {
                    Some(n) => write!(f, ", node_count {n}")?,
                    None => f.write_str(", no node_count")?,
                }
                write!(f, ", directed {directed})")
            }
            GraphOp::NewGraph(n) => write!(f, "new_graph({n})"),
            GraphOp::Csr {
                node_count,
                edges: e,
            } => {
                write!(f, "csr(node_count {node_count}, edges ")?;
                edges(f, e)?;
                f.write_str(")")
            }
            GraphOp::AddNode => f.write_str("add_node()"),
            GraphOp::AddEdge(a, b, w) => write!(f, "add_edge({a}, {b}, {w:?})"),
            GraphOp::RemoveEdge(id) => write!(f, "remove_edge({id})"),
            GraphOp::SetWeight(id, w) => write!(f, "set_weight({id}, {w:?})"),
            GraphOp::BuildLandmarks(n) => write!(f, "build_landmarks({n})"),
            GraphOp::FindPath {
                start,
                goal,
                landmarks,
            } => write!(f, "find_path({start}, {goal}, landmarks {landmarks})"),
            GraphOp::Points {
                points,
                explicit,
                max_distance,
                nearest_count,
            } => {
                let pts: Vec<String> = points.iter().map(point).collect();
                let links: Vec<String> = explicit
                    .iter()
                    .map(|[a, b]| format!("({a}, {b})"))
                    .collect();
                write!(
                    f,
                    "points(points [{}], explicit [{}], max_distance {max_distance:?}, nearest_count {nearest_count})",
                    pts.join(", "),
                    links.join(", ")
                )
            }
            GraphOp::NearestNode(p) => write!(f, "nearest_node({})", point(p)),
            GraphOp::FindPathBetween(a, b) => {
                write!(f, "find_path_between({}, {})", point(a), point(b))
            }
        }
    }
}

/// A typed OPLM rejection: class and byte offset ([GRAPH.OPLM.CHECKS]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OplmError {
    /// Error class.
    pub class: String,
    /// Byte offset.
    pub offset: usize,
}

/// An implementation under test.
pub trait Implementation: Sync {
    /// A short name for reports (`onepath-reference`, `onepath`, a port's name).
    fn name(&self) -> &str;

    /// Builds the case's graph (and, for alt variants, its landmark table) and runs every query
    /// with every listed variant through tier-1 `find_path`. Returns one list of outcomes per
    /// variant, in the order given, each with one outcome per query. A graph or landmark build
    /// failure is reported as an error outcome for each affected query.
    fn run_case(
        &self,
        case: &Case,
        variants: &[Variant],
        queries: &[Query],
        opts: RunOptions,
    ) -> Vec<Vec<Outcome>>;

    /// One query of one variant (a convenience over [`Implementation::run_case`]).
    fn run_query(&self, case: &Case, variant: Variant, query: Query, opts: RunOptions) -> Outcome {
        self.run_case(case, &[variant], &[query], opts)
            .remove(0)
            .remove(0)
    }

    /// Runs one query on the tier-2 search of the variant (`GraphAStar` or
    /// `BidirectionalGraphSearch`, with recording on) and reports its final state. With
    /// `budgets` empty it calls `run(None)` once; otherwise it calls `step(budgets[i % len])`
    /// for `i = 0, 1, ...` until the status is no longer `Running`. Budgets are never 0.
    fn run_sliced(&self, case: &Case, variant: Variant, query: Query, budgets: &[u64]) -> Outcome;

    /// Every query of every variant on the tier-2 search, twice, as [`Implementation::run_sliced`]
    /// reports it: `[variant][query] = (run(None), the step schedule of budgets)`. The default
    /// calls `run_sliced`; the in-process adapters build the graph and the landmark table once
    /// for all of them (the `graph_query` fuzz target asks for a whole case per input).
    fn run_sliced_case(
        &self,
        case: &Case,
        variants: &[Variant],
        queries: &[Query],
        budgets: &[u64],
    ) -> Vec<Vec<(Outcome, Outcome)>> {
        variants
            .iter()
            .map(|&v| {
                queries
                    .iter()
                    .map(|&q| {
                        (
                            self.run_sliced(case, v, q, &[]),
                            self.run_sliced(case, v, q, budgets),
                        )
                    })
                    .collect()
            })
            .collect()
    }

    /// Builds a point graph with the given options and reports its CSR edges and `link_valid` calls.
    fn build_links(&self, request: &LinkRequest) -> Result<LinkResult, BuildFailure>;

    /// Runs one tier-1 query with hooks given as data and records every hook call in order.
    fn run_hooked(&self, case: &Case, query: &HookedQuery) -> HookedRun;

    /// Runs the tier-2 search of the variant (as [`Implementation::run_sliced`]) with a cancel
    /// flag set before the call ([GRAPH.ASTAR.RUN]); `Err` is the class of a failed `begin` or build.
    fn run_cancelled(
        &self,
        case: &Case,
        variant: Variant,
        query: Query,
        first_steps: u64,
    ) -> Result<CancelTrace, crate::error::CallError>;

    /// Runs an error script, one result per operation; an operation whose target does not exist
    /// yet (or after a failed constructor) reports a class starting with `harness:`.
    fn run_ops(&self, ops: &[GraphOp]) -> Vec<Result<u64, BuildFailure>>;

    /// Builds the case's landmark table and returns its OPLM bytes ([GRAPH.OPLM.LAYOUT]).
    fn build_landmarks(&self, case: &Case) -> Result<Vec<u8>, crate::error::CallError>;

    /// `lower_bound(u, v)` of the case's landmark table for each pair.
    fn lower_bounds(
        &self,
        case: &Case,
        pairs: &[(u32, u32)],
    ) -> Result<Vec<f64>, crate::error::CallError>;

    /// Deserializes OPLM bytes against the case's graph and, when accepted, serializes again.
    fn deserialize_oplm(&self, case: &Case, bytes: &[u8]) -> Result<Vec<u8>, OplmError>;

    /// Runs one state request ([CONF.IMPL.STATE]): builds a recipe's object and restores bytes
    /// into it, or calls `from_state`. `Err` is a harness problem (a recipe that cannot be built,
    /// a port request without an answer); the default body reports
    /// [`ErrorKind::Unimplemented`](crate::error::ErrorKind::Unimplemented).
    fn run_state(
        &self,
        request: &crate::state::StateRequest,
    ) -> Result<crate::state::StateReply, crate::error::HarnessError> {
        let _ = request;
        Err(crate::error::HarnessError::unimplemented())
    }

    /// Runs one grid-search request ([CONF.IMPL.GRID]). `Ok(Err(class))` is the error class
    /// `new`/`begin` reported; `Err` is a harness problem (the default body: the implementation
    /// has no grid searches, [`ErrorKind::Unimplemented`](crate::error::ErrorKind::Unimplemented)).
    fn run_grid(
        &self,
        request: &crate::grid::GridRequest,
    ) -> Result<crate::grid::GridOutcome, crate::error::HarnessError> {
        let _ = request;
        Err(crate::error::HarnessError::unimplemented())
    }

    /// Runs one replanner request ([CONF.IMPL.REPLAN]): builds the grid and the replanner and
    /// runs the script. `Ok(ReplanReply::Failed(class))` is the error class a constructor gave;
    /// `Err` is a harness problem (the default body: no replanners,
    /// [`ErrorKind::Unimplemented`](crate::error::ErrorKind::Unimplemented)).
    fn run_replan(
        &self,
        request: &crate::replan::ReplanRequest,
    ) -> Result<crate::replan::ReplanReply, crate::error::HarnessError> {
        let _ = request;
        Err(crate::error::HarnessError::unimplemented())
    }

    /// As [`Implementation::run_replan`], naming the request (a vector id or a generated case
    /// name); only a port uses the label ([DRIVER.MSG.REQUEST]).
    fn run_replan_as(
        &self,
        label: &str,
        request: &crate::replan::ReplanRequest,
    ) -> Result<crate::replan::ReplanReply, crate::error::HarnessError> {
        let _ = label;
        self.run_replan(request)
    }

    /// Runs one sync-test session ([CONF.SYNC.LOOP]): builds the world, runs the rollback loop
    /// and returns what it saw. `Ok(SyncReply::Failed(class))` is a session that could not run;
    /// `Err` is a harness problem (the default body: no world,
    /// [`ErrorKind::Unimplemented`](crate::error::ErrorKind::Unimplemented)).
    fn run_synctest(
        &self,
        session: &crate::synctest::Session,
    ) -> Result<crate::synctest::SyncReply, crate::error::HarnessError> {
        let _ = session;
        Err(crate::error::HarnessError::unimplemented())
    }

    /// As [`Implementation::run_synctest`], naming the session (a vector id or a generated
    /// case name); only a port uses the label ([DRIVER.MSG.REQUEST]).
    fn run_synctest_as(
        &self,
        label: &str,
        session: &crate::synctest::Session,
    ) -> Result<crate::synctest::SyncReply, crate::error::HarnessError> {
        let _ = label;
        self.run_synctest(session)
    }

    /// Runs one flow-field request ([CONF.IMPL.FLOW]): builds the grid and the field and runs
    /// the script. `Ok(FlowReply::Failed(class))` is the error class a constructor gave; `Err` is
    /// a harness problem (the default body: no flow fields,
    /// [`ErrorKind::Unimplemented`](crate::error::ErrorKind::Unimplemented)).
    fn run_flow(
        &self,
        request: &crate::flow::FlowRequest,
    ) -> Result<crate::flow::FlowReply, crate::error::HarnessError> {
        let _ = request;
        Err(crate::error::HarnessError::unimplemented())
    }

    /// As [`Implementation::run_flow`], naming the request (a vector id or a generated case
    /// name); only a port uses the label ([DRIVER.MSG.REQUEST]).
    fn run_flow_as(
        &self,
        label: &str,
        request: &crate::flow::FlowRequest,
    ) -> Result<crate::flow::FlowReply, crate::error::HarnessError> {
        let _ = label;
        self.run_flow(request)
    }

    /// Runs one hex or voxel request ([CONF.IMPL.LATTICE]): builds the grid and runs the
    /// queries. `Ok(LatticeReply::Failed(class))` is the error class a grid constructor or setter
    /// gave; `Err` is a harness problem (the default body: no hex or voxel searches,
    /// [`ErrorKind::Unimplemented`](crate::error::ErrorKind::Unimplemented)).
    fn run_lattice(
        &self,
        request: &crate::lattice::LatticeRequest,
    ) -> Result<crate::lattice::LatticeReply, crate::error::HarnessError> {
        let _ = request;
        Err(crate::error::HarnessError::unimplemented())
    }

    /// As [`Implementation::run_lattice`], naming the request (a vector id or a generated case
    /// name); only a port uses the label ([DRIVER.MSG.REQUEST]).
    fn run_lattice_as(
        &self,
        label: &str,
        request: &crate::lattice::LatticeRequest,
    ) -> Result<crate::lattice::LatticeReply, crate::error::HarnessError> {
        let _ = label;
        self.run_lattice(request)
    }

    /// Runs one HPA* request ([CONF.IMPL.HPA]): builds the grid and the hierarchy and runs the
    /// queries. `Ok(HpaReply::Failed(class))` is the error class a grid constructor or setter
    /// gave; `Err` is a harness problem (the default body: no HPA*,
    /// [`ErrorKind::Unimplemented`](crate::error::ErrorKind::Unimplemented)).
    fn run_hpa(
        &self,
        request: &crate::hpa::HpaRequest,
    ) -> Result<crate::hpa::HpaReply, crate::error::HarnessError> {
        let _ = request;
        Err(crate::error::HarnessError::unimplemented())
    }

    /// As [`Implementation::run_hpa`], naming the request (a vector id or a generated case
    /// name); only a port uses the label ([DRIVER.MSG.REQUEST]).
    fn run_hpa_as(
        &self,
        label: &str,
        request: &crate::hpa::HpaRequest,
    ) -> Result<crate::hpa::HpaReply, crate::error::HarnessError> {
        let _ = label;
        self.run_hpa(request)
    }

    /// Runs one bidirectional grid request ([CONF.IMPL.BIDI]): builds the grid and runs the
    /// queries. `Ok(BidiReply::Failed(class))` is the error class a grid constructor or setter
    /// gave; `Err` is a harness problem (the default body: no bidirectional grid search,
    /// [`ErrorKind::Unimplemented`](crate::error::ErrorKind::Unimplemented)).
    fn run_bidi(
        &self,
        request: &crate::bidi::BidiRequest,
    ) -> Result<crate::bidi::BidiReply, crate::error::HarnessError> {
        let _ = request;
        Err(crate::error::HarnessError::unimplemented())
    }

    /// As [`Implementation::run_bidi`], naming the request (a vector id or a generated case
    /// name); only a port uses the label ([DRIVER.MSG.REQUEST]).
    fn run_bidi_as(
        &self,
        label: &str,
        request: &crate::bidi::BidiRequest,
    ) -> Result<crate::bidi::BidiReply, crate::error::HarnessError> {
        let _ = label;
        self.run_bidi(request)
    }

    /// Runs one describe request ([CONF.DEBUG.REQUEST]): builds the target, runs its queries or
    /// script and returns the descriptions. `Ok(DescribeReply::Failed(class))` is the error class
    /// a constructor gave; `Err` is a harness problem (the default body: no descriptions,
    /// [`ErrorKind::Unimplemented`](crate::error::ErrorKind::Unimplemented)).
    fn describe(
        &self,
        request: &crate::debug::DescribeRequest,
    ) -> Result<crate::debug::DescribeReply, crate::error::HarnessError> {
        let _ = request;
        Err(crate::error::HarnessError::unimplemented())
    }

    /// As [`Implementation::describe`], naming the request (a vector id or a generated case
    /// name); only a port uses the label ([DRIVER.MSG.REQUEST]).
    fn describe_as(
        &self,
        label: &str,
        request: &crate::debug::DescribeRequest,
    ) -> Result<crate::debug::DescribeReply, crate::error::HarnessError> {
        let _ = label;
        self.describe(request)
    }

    /// As [`Implementation::run_state`], naming the request: the golden or hostile state vector id
    /// or the generated case name the state section built it for. Only a port uses the label
    /// (requests, ledger, reports, [DRIVER.MSG.REQUEST]); the default ignores it.
    fn run_state_as(
        &self,
        label: &str,
        request: &crate::state::StateRequest,
    ) -> Result<crate::state::StateReply, crate::error::HarnessError> {
        let _ = label;
        self.run_state(request)
    }
}
