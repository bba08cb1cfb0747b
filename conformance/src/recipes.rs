//! The named scenario recipes behind the committed vectors ([CONF.VEC.IDS]). Ids are assigned
//! here, once: a recipe is never renumbered or changed in place; a new one takes the next id.

use crate::generators::{generate, random_queries, Generated, Kind, PointMode};
use crate::prng::SplitMix64;
use crate::scenario::{Case, GraphSpec, LandmarkSpec, StrategySpec};
use serde_json::{json, Value};

/// How a recipe makes its case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A seeded generator of [`crate::generators`].
    Generated(Kind),
    /// Small hand-written graph: equal-cost paths that only the tie-breaking rules order.
    HandTies,
    /// Small hand-written graph: zero weights, self-loops, parallel edges, an unreachable node
    /// and an out-of-range query (an error outcome).
    HandEdgeCases,
    /// Small hand-written graph whose edges include `-0.0` weights on the only cheapest routes.
    HandNegativeZero,
    /// 16,385 nodes, no edge, and a landmark table of 16,384 landmarks: `k * N` is over
    /// `MAX_LANDMARK_ENTRIES` ([GRAPH.ALT.LIMIT]), so the build fails before any allocation.
    HandLandmarkLimit,
    /// A directed 6-cycle with one Farthest landmark and a seed whose first SplitMix64 output,
    /// `2^64 - 3`, is rejected by `next_int(6)` ([GRAPH.RNG.NEXT_INT]), so the root is the second
    /// draw's.
    HandRngReject,
    /// Six points on a unit lattice linked to their nearest neighbours capped at distance 1.0:
    /// every accepted candidate lies exactly at `max_distance` ([GRAPH.PT.MAXDIST]).
    HandPointsRim,
    /// A star of three unit legs with two Farthest landmarks: whatever the root, the second
    /// slot's greatest `m(v)` is shared by two leaves ([GRAPH.ALT.FARTHEST], ties: smaller id).
    HandFarthestTie,
    /// A directed path 0 -> 1 (1.0) -> 2 (0.0) with two Farthest landmarks: after the landmark 1
    /// the only candidate is at distance 0, which [GRAPH.ALT.FARTHEST] does not accept.
    HandFarthestZero,
    /// A directed graph of 3 nodes with the one edge 0 -> 1 and one Farthest landmark whose
    /// root is the sink 1: the root reaches no node at a distance > 0, so slot 0 has no
    /// candidate ([GRAPH.ALT.FARTHEST]) and falls back to node 0 ([GRAPH.ALT.FALLBACK]).
    HandFarthestSink,
    /// An undirected 4-cycle with two Avoid landmarks whose second slot has two unblocked
    /// candidates of equal greatest size ([GRAPH.ALT.AVOID], ties: smaller id).
    HandAvoidTie,
}

/// One named recipe.
#[derive(Clone, Copy, Debug)]
pub struct Recipe {
    /// Vector id.
    pub id: &'static str,
    /// What the scenario exercises (its `_comment`).
    pub comment: &'static str,
    /// Generator or hand-made graph.
    pub source: Source,
    /// Generator seed.
    pub seed: u64,
    /// Approximate node count.
    pub size: usize,
    /// Number of queries.
    pub queries: usize,
}

const fn r(
    id: &'static str,
    comment: &'static str,
    source: Source,
    seed: u64,
    size: usize,
    queries: usize,
) -> Recipe {
    Recipe {
        id,
        comment,
        source,
        seed,
        size,
        queries,
    }
}

use Kind::*;
use PointMode::*;
use Source::{
    Generated as G, HandAvoidTie, HandEdgeCases, HandFarthestSink, HandFarthestTie,
    HandFarthestZero, HandLandmarkLimit, HandNegativeZero, HandPointsRim, HandRngReject, HandTies,
};

/// Every recipe, in id order.
pub const RECIPES: &[Recipe] = &[
    r("GRAPH-0001", "hand-made ties: equal-cost routes ordered only by the open-set tie-breaks", HandTies, 1, 8, 4),
    r("GRAPH-0002", "hand-made edge cases: zero weights, self-loops, parallel edges, an unreachable node, start == goal, an out-of-range goal; the edges are directed and the zero weights accepted (an undirected reading or a rejected 0 changes the fingerprint in oplm_sha256 and the paths) [GRAPH.VAL.EDGE]; the parallel edges 1->2 (3.0 then 2.0) and the self-loops 1->1 and 3->3 each keep their own forward slot in input order, which the fingerprint hashes slot by slot [GRAPH.CSR.KEEP] [GRAPH.CSR.ORDER] [GRAPH.MUT.COMPILE]; expanding 1, the second parallel edge 1->2 improves node 2 from 3 to 2 while it is open, and the push replaces its entry's f and g, so 2 pops before 3 (equal f and g, smaller id) and dijkstra 0->4 expands 0, 1, 2, 3 (an open set keeping the old f = 3 pops 3 first) [GRAPH.OPEN.PUSH]", HandEdgeCases, 2, 6, 6),
    r("GRAPH-0003", "small sparse directed graph with zero weights", G(Sparse), 3, 12, 5),
    r("GRAPH-0004", "sparse directed graph, many unreachable pairs", G(Sparse), 4, 40, 6),
    r("GRAPH-0005", "larger sparse directed graph", G(Sparse), 5, 150, 5),
    r("GRAPH-0006", "small dense graph", G(Dense), 6, 10, 5),
    r("GRAPH-0007", "dense graph", G(Dense), 7, 30, 5),
    r("GRAPH-0008", "small lattice with integer positions and weights", G(Grid), 8, 16, 5),
    r("GRAPH-0009", "lattice with diagonals and removed edges", G(Grid), 9, 100, 5),
    r("GRAPH-0010", "road-like jittered lattice, fractional weights; astar_both expands other nodes than astar_alt and astar_geo: it takes the maximum of the Euclidean and ALT estimates [GRAPH.EST.COMBINE]", G(Road), 10, 36, 5),
    r("GRAPH-0011", "larger road-like graph", G(Road), 11, 196, 5),
    r("GRAPH-0012", "point graph linked by radius: csr_edges_sha256 holds every pair within max_distance [GRAPH.PT.RADIUS], merged with the explicit link as sorted pairs, each emitting min -> max then max -> min weighted by the distance [GRAPH.PT.MERGE]; the geo variants expand fewer nodes than dijkstra by the Euclidean estimate [GRAPH.PT.ESTIMATE]", G(Points(Radius)), 12, 40, 5),
    r("GRAPH-0013", "point graph linked to nearest neighbours: csr_edges_sha256 holds, for each point, its 2 nearest candidates by ascending d2, made mutual [GRAPH.PT.NEAREST] [GRAPH.PT.ORDER]", G(Points(Nearest)), 13, 40, 5),
    r("GRAPH-0014", "point graph: nearest neighbours capped by a radius: only each point's nearest neighbour is linked, none of the 147 further pairs within max_distance is (a union reading adds them to csr_edges_sha256) [GRAPH.PT.BOTH]", G(Points(Both)), 14, 40, 5),
    r("GRAPH-0015", "point graph with explicit links only: csr_edges_sha256 holds exactly the explicit pairs [GRAPH.PT.EXPLICIT], with the self-link 8-8 and the repeated pairs 27-29, 7-23 and 9-25 dropped and the rest sorted by (min, max) [GRAPH.PT.MERGE]", G(Points(Explicit)), 15, 30, 5),
    r("GRAPH-0016", "3D point graph linked by radius: z counts in every distance, so the links and weights in csr_edges_sha256 are those of the 3D positions [GRAPH.VAL.POINT]", G(Points3d), 16, 50, 5),
    r("GRAPH-0017", "tiny sparse graph (2 nodes)", G(Sparse), 17, 2, 4),
    r("GRAPH-0018", "lattice, many queries", G(Grid), 18, 49, 12),
    r("GRAPH-0019", "hand-made -0.0 weights: from_edges stores them as +0.0, so the table's fingerprint (oplm_sha256) is that of +0.0 weights [GRAPH.VAL.NEG_ZERO] [GRAPH.CSR.FINGERPRINT]; a -0.0 cost is not negative and is used, so the cheapest routes run over them [GRAPH.ASTAR.EXPAND]", HandNegativeZero, 19, 6, 6),
    r("GRAPH-0020", "hand-made landmark limit: 16385 nodes without edges and a table of 16384 landmarks; k = min(count, N) = 16384 and k * N = 2^28 + 2^14 is over MAX_LANDMARK_ENTRIES = 2^28, so build_landmarks fails with too_many_nodes and no index [GRAPH.ALT.LIMIT], before any root is drawn or table allocated (oplm_sha256 is the hash of that error, every alt variant answers it); the other variants find no path from 0 (no edges), find start == goal at once and reject the goal 16385 (node_out_of_range)", HandLandmarkLimit, 20, 16385, 3),
    r("GRAPH-0021", "hand-made rejection draw: a directed 6-cycle 0->1->...->5->0 of unit weights and one Farthest landmark with seed 17595026016420499197 (above 2^63, so the seed is a u64 [GRAPH.RNG.SEED]); the first SplitMix64 output of that seed is 2^64 - 3, which is not below the limit 2^64 - (2^64 mod 6) = 2^64 - 4, so next_int(6) rejects it and returns the second output mod 6 = 2 [GRAPH.RNG.NEXT_INT] [GRAPH.ALT.ROOTS]; the root 2's farthest node is 1, the landmark in oplm_sha256 (without the rejection the root is (2^64 - 3) mod 6 = 1 and the landmark 0; the seed rounded to a double, 17595026016420499456, draws root 0 and the landmark 5)", HandRngReject, 17_595_026_016_420_499_197, 6, 4),
    r("GRAPH-0022", "hand-made points at max_distance: six points on a unit lattice (x 0..2, y 0..1) with nearest_count 3 capped by max_distance 1.0; every lattice neighbour is at d2 = 1.0 exactly, which is within the cap (d2 <= max_distance * max_distance, inclusive [GRAPH.PT.MAXDIST]), and the diagonals (d2 = 2.0) are skipped [GRAPH.PT.BOTH], so csr_edges_sha256 holds the 7 unit links, each both ways; a strict cap links nothing and finds no path between distinct points", HandPointsRim, 22, 6, 6),
    r("GRAPH-0023", "hand-made Farthest tie: an undirected star 0-1, 0-2, 0-3 of unit weights and two Farthest landmarks (seed 23); whatever the root, the first landmark is a leaf (the smallest id among the leaves farthest from the root, or the leaf 1 from the centre) and in the second slot the other two leaves share the greatest m(v) = 2, so the smaller id of the two is the landmark in oplm_sha256 (ties: smaller id [GRAPH.ALT.FARTHEST]); the alt variants' bounds come from those two leaves", HandFarthestTie, 23, 4, 6),
    r("GRAPH-0024", "hand-made Farthest threshold: a directed path 0->1 (weight 1) ->2 (weight 0) and two Farthest landmarks with seed 24, whose first root is 0; slot 0 takes 1 (nodes 1 and 2 tie at distance 1, ties: smaller id); in slot 1 node 0 is not reached from 1 and node 2 is at m(2) = 0, which m(v) > 0 refuses [GRAPH.ALT.FARTHEST], so no candidate is left and the slot falls back to the smallest non-landmark, 0 [GRAPH.ALT.FALLBACK]; the table in oplm_sha256 is [1, 0] (accepting m = 0 would give [1, 2])", HandFarthestZero, 24, 3, 5),
    r("GRAPH-0025", "hand-made Farthest root without a reach: a directed graph of 3 nodes whose one edge is 0->1 (weight 1) and one Farthest landmark with seed 26, whose root (next_int(3) = 1) is the sink 1; slot 0 takes the farthest node at a finite distance > 0 from the root [GRAPH.ALT.FARTHEST], and the root reaches none (its own distance 0 does not count), so the slot falls back to the smallest non-landmark, 0 [GRAPH.ALT.FALLBACK]; the table in oplm_sha256 is [0] (accepting distance 0 would give [1], the root itself), and the alt variants' bounds come from landmark 0", HandFarthestSink, 26, 3, 5),
    r("GRAPH-0026", "hand-made Avoid candidate tie: an undirected 4-cycle 0-1 (weight 2), 1-3 (1), 3-2 (2), 2-0 (3) and two Avoid landmarks with seed 30, whose roots are 2 then 0 [GRAPH.ALT.ROOTS]; slot 0's tree from 2 gives the landmark 1 (the root's size 8, then its child 3 of size 5, then 3's child 1); in slot 1 the tree from 0 has the landmark 1 and its parent 0 blocked, and the unblocked nodes 2 and 3 each have the weight d(0, v) - lower_bound(0, v) = 3 - 1 = 2 and no child, so they tie for the greatest size and the smaller id, 2, is the landmark in oplm_sha256 (ties: smaller id [GRAPH.ALT.AVOID]; taking the later candidate gives the table [1, 3])", HandAvoidTie, 30, 4, 6),
];

fn hand_ties() -> (GraphSpec, Vec<(u32, u32)>) {
    // Two layers of equal-cost detours between 0 and 7, undirected, with positions.
    let edges = vec![
        (0, 1, 1.0),
        (0, 2, 1.0),
        (0, 3, 1.0),
        (1, 4, 1.0),
        (2, 4, 1.0),
        (2, 5, 1.0),
        (3, 5, 1.0),
        (4, 6, 1.0),
        (5, 6, 1.0),
        (4, 7, 2.0),
        (5, 7, 2.0),
        (6, 7, 1.0),
    ];
    let positions = vec![
        [0.0, 0.0, 0.0],
        [1.0, -1.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [2.0, -0.5, 0.0],
        [2.0, 0.5, 0.0],
        [3.0, 0.0, 0.0],
        [3.0, 1.0, 0.0],
    ];
    let graph = GraphSpec::Edges {
        node_count: 8,
        directed: false,
        edges,
        positions: Some(positions),
    };
    (graph, vec![(0, 7), (7, 0), (1, 5), (3, 4)])
}

fn hand_edge_cases() -> (GraphSpec, Vec<(u32, u32)>) {
    let edges = vec![
        (0, 1, 0.0),
        (1, 1, 0.0),
        (1, 2, 3.0),
        (1, 2, 2.0),
        (2, 0, 0.0),
        (2, 3, 0.0),
        (3, 3, 5.0),
        (0, 3, 2.0),
        (3, 4, 1.0),
    ];
    let graph = GraphSpec::Edges {
        node_count: 6,
        directed: true,
        edges,
        positions: None,
    };
    (graph, vec![(0, 4), (4, 0), (2, 2), (0, 5), (3, 1), (0, 6)])
}

fn hand_landmark_limit() -> (GraphSpec, Vec<(u32, u32)>) {
    let graph = GraphSpec::Edges {
        node_count: 16_385,
        directed: true,
        edges: vec![],
        positions: None,
    };
    (graph, vec![(0, 16_384), (16_384, 16_384), (3, 16_385)])
}

fn hand_rng_reject() -> (GraphSpec, Vec<(u32, u32)>) {
    // A directed cycle: the farthest node from root r is r - 1 (mod 6), at distance 5.
    let edges = (0..6u32).map(|v| (v, (v + 1) % 6, 1.0)).collect();
    let graph = GraphSpec::Edges {
        node_count: 6,
        directed: true,
        edges,
        positions: None,
    };
    (graph, vec![(0, 5), (2, 1), (4, 0), (1, 1)])
}

fn hand_points_rim() -> (GraphSpec, Vec<(u32, u32)>) {
    // 0 1 2 (y = 0) and 3 4 5 (y = 1): neighbours at distance 1.0, diagonals at sqrt(2).
    let points = (0..6u32)
        .map(|i| [f64::from(i % 3), f64::from(i / 3), 0.0])
        .collect();
    let graph = GraphSpec::Points {
        points,
        explicit: vec![],
        max_distance: 1.0,
        nearest_count: 3,
    };
    (graph, vec![(0, 5), (5, 0), (3, 2), (1, 4), (2, 2)])
}

fn hand_farthest_tie() -> (GraphSpec, Vec<(u32, u32)>) {
    // The centre 0 and the leaves 1, 2, 3: any two leaves are 2 apart.
    let edges = vec![(0, 1, 1.0), (0, 2, 1.0), (0, 3, 1.0)];
    let graph = GraphSpec::Edges {
        node_count: 4,
        directed: false,
        edges,
        positions: None,
    };
    (graph, vec![(1, 3), (3, 2), (2, 0), (0, 1)])
}

fn hand_farthest_zero() -> (GraphSpec, Vec<(u32, u32)>) {
    // 0 -> 1 -> 2 with a zero-weight second edge: 2 is at distance 0 from 1.
    let edges = vec![(0, 1, 1.0), (1, 2, 0.0)];
    let graph = GraphSpec::Edges {
        node_count: 3,
        directed: true,
        edges,
        positions: None,
    };
    (graph, vec![(0, 2), (1, 2), (2, 0)])
}

fn hand_farthest_sink() -> (GraphSpec, Vec<(u32, u32)>) {
    // 0 -> 1 only: the sink 1 and the isolated 2 reach nothing but themselves.
    let graph = GraphSpec::Edges {
        node_count: 3,
        directed: true,
        edges: vec![(0, 1, 1.0)],
        positions: None,
    };
    (graph, vec![(0, 1), (1, 0), (2, 1)])
}

fn hand_avoid_tie() -> (GraphSpec, Vec<(u32, u32)>) {
    // A 4-cycle 0-1-3-2-0; from 0 the nodes 2 and 3 are both 3 away and 1 away from the
    // bound of the landmark 1.
    let edges = vec![(1, 0, 2.0), (2, 3, 2.0), (1, 3, 1.0), (0, 2, 3.0)];
    let graph = GraphSpec::Edges {
        node_count: 4,
        directed: false,
        edges,
        positions: None,
    };
    (graph, vec![(0, 3), (3, 0), (2, 1)])
}

fn hand_negative_zero() -> (GraphSpec, Vec<(u32, u32)>) {
    // 0 -> 1 -> 2 -> 3 costs 1 over two -0.0 edges (the direct 0 -> 3 costs 2); 3 -> 4 and
    // 5 -> 0 are -0.0 too, and 2 has a -0.0 self-loop.
    let edges = vec![
        (0, 1, -0.0),
        (1, 2, -0.0),
        (2, 3, 1.0),
        (0, 3, 2.0),
        (3, 4, -0.0),
        (4, 5, 0.5),
        (1, 4, 3.0),
        (5, 0, -0.0),
        (2, 2, -0.0),
    ];
    let graph = GraphSpec::Edges {
        node_count: 6,
        directed: true,
        edges,
        positions: None,
    };
    (graph, vec![(0, 3), (0, 5), (5, 4), (1, 1), (4, 2), (2, 0)])
}

impl Recipe {
    /// Builds the recipe's case, queries and `generator` provenance.
    pub fn build(&self) -> Generated {
        match self.source {
            Source::Generated(kind) => {
                let mut g = generate(kind, self.seed, self.size, self.queries);
                g.provenance.insert("recipe".into(), Value::from(self.id));
                g
            }
            Source::HandTies
            | Source::HandEdgeCases
            | Source::HandNegativeZero
            | Source::HandLandmarkLimit
            | Source::HandRngReject
            | Source::HandPointsRim
            | Source::HandFarthestTie
            | Source::HandFarthestZero
            | Source::HandFarthestSink
            | Source::HandAvoidTie => {
                let (graph, queries) = match self.source {
                    Source::HandTies => hand_ties(),
                    Source::HandEdgeCases => hand_edge_cases(),
                    Source::HandLandmarkLimit => hand_landmark_limit(),
                    Source::HandRngReject => hand_rng_reject(),
                    Source::HandPointsRim => hand_points_rim(),
                    Source::HandFarthestTie => hand_farthest_tie(),
                    Source::HandFarthestZero => hand_farthest_zero(),
                    Source::HandFarthestSink => hand_farthest_sink(),
                    Source::HandAvoidTie => hand_avoid_tie(),
                    _ => hand_negative_zero(),
                };
                let mut rng = SplitMix64::new(self.seed);
                let mut queries = queries;
                if queries.len() < self.queries {
                    queries.extend(random_queries(
                        &mut rng,
                        graph.node_count(),
                        self.queries - queries.len(),
                    ));
                }
                let landmarks = LandmarkSpec {
                    count: match self.source {
                        Source::HandLandmarkLimit => 16_384,
                        Source::HandRngReject | Source::HandFarthestSink => 1,
                        _ => 2,
                    },
                    strategy: if matches!(
                        self.source,
                        Source::HandRngReject
                            | Source::HandFarthestTie
                            | Source::HandFarthestZero
                            | Source::HandFarthestSink
                    ) {
                        StrategySpec::Farthest
                    } else {
                        StrategySpec::Avoid
                    },
                    seed: self.seed,
                };
                let name = match self.source {
                    Source::HandTies => "hand_ties",
                    Source::HandEdgeCases => "hand_edge_cases",
                    Source::HandLandmarkLimit => "hand_landmark_limit",
                    Source::HandRngReject => "hand_rng_reject",
                    Source::HandPointsRim => "hand_points_rim",
                    Source::HandFarthestTie => "hand_farthest_tie",
                    Source::HandFarthestZero => "hand_farthest_zero",
                    Source::HandFarthestSink => "hand_farthest_sink",
                    Source::HandAvoidTie => "hand_avoid_tie",
                    _ => "hand_negative_zero",
                };
                let provenance = match json!({"kind": name, "seed": self.seed, "recipe": self.id}) {
                    Value::Object(m) => m,
                    _ => unreachable!(),
                };
                Generated {
                    case: Case { graph, landmarks },
                    queries,
                    integer_weights: true,
                    provenance,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_sequential_and_unique() {
        for (i, recipe) in RECIPES.iter().enumerate() {
            assert_eq!(recipe.id, format!("GRAPH-{:04}", i + 1));
        }
    }
}
