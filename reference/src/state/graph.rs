//! [STATE.GRAPH] [STATE.SEARCH] Graph states: kinds 4 (Graph) and 11 (GraphAStar).

use std::sync::OnceLock;

use super::{fault, read_header, read_i32_in, Fault, Reader, Writer, KIND_GRAPH, KIND_GRAPH_ASTAR};
use crate::astar::{GraphAStar, GraphCost, GraphHeuristic, SearchStatus};
use crate::csr::{GraphEdge, MAX_NODES};
use crate::error::GraphStateError;
use crate::graph::Graph;
use crate::open_set::{precedes, Entry};

/// [STATE.GRAPH] Bytes per saved edge.
const EDGE_BYTES: usize = 17;
/// [STATE.BUFFERS] Bytes per visited entry.
const VISITED_BYTES: usize = 17;
/// [STATE.HEAP] Bytes per saved heap slot: `i32 node, f64 f, f64 g`.
const HEAP_SLOT_BYTES: usize = 20;
/// No entry.
const NONE: u32 = u32::MAX;

/// [STATE.GRAPH] Writes a graph: node count, then every edge ever added in id order.
pub(crate) fn save_graph(g: &Graph) -> Vec<u8> {
    let mut w = Writer::with_header(KIND_GRAPH);
    w.i32(g.node_count as i32);
    w.i32(g.edges.len() as i32);
    for (e, alive) in &g.edges {
        w.i32(e.from as i32);
        w.i32(e.to as i32);
        w.f64(e.weight);
        w.u8(u8::from(*alive));
    }
    w.out
}

/// [STATE.GRAPH] [STATE.ORDER] [STATE.BOUNDED] Reads and validates a graph state: returns the
/// node count (a number, nothing allocated per node) and the edge list (bounded by the input).
pub(crate) fn read_graph(bytes: &[u8]) -> Result<(usize, Vec<(GraphEdge, bool)>), Fault> {
    let mut r = Reader::new(bytes);
    read_header(&mut r, KIND_GRAPH)?;
    let n = read_i32_in(
        &mut r,
        "node_count",
        0,
        MAX_NODES as i64,
        "count_out_of_range",
    )?;
    let at = r.pos();
    let m = r.i32()?;
    let bound = (r.remaining() / EDGE_BYTES) as i64;
    if m < 0 || i64::from(m) > bound {
        return fault(
            "count_out_of_range",
            at,
            format!("count_out_of_range at byte {at}: edge_count {m} is outside 0..={bound} (bytes left / 17)"),
        );
    }
    let mut edges = Vec::with_capacity(m as usize);
    for id in 0..m {
        let mut ends = [0u32; 2];
        for (k, name) in ["from", "to"].iter().enumerate() {
            let at = r.pos();
            let v = r.i32()?;
            if v < 0 || v >= n {
                return fault(
                    "index_out_of_range",
                    at,
                    format!(
                        "index_out_of_range at byte {at}: edge {id} {name} = {v} is outside 0..{n}"
                    ),
                );
            }
            ends[k] = v as u32;
        }
        let at = r.pos();
        let w = r.f64("weight")?;
        if !(w.is_finite() && w >= 0.0 && !w.is_sign_negative()) {
            return fault(
                "out_of_range",
                at,
                format!("out_of_range at byte {at}: edge {id} weight {w:?} is not finite, >= 0, sign clear"),
            );
        }
        let alive = r.flag("alive")?;
        edges.push((GraphEdge::new(ends[0], ends[1], w), alive));
    }
    r.finish()?;
    Ok((n as usize, edges))
}

impl Graph {
    /// [STATE.API] [STATE.STABLE] [STATE.GRAPH] The state bytes (kind 4).
    pub fn save_state(&self) -> Vec<u8> {
        save_graph(self)
    }

    /// [STATE.API.INTO] The bytes of `save_state()` left in `out` (cleared first; its
    /// allocation is reused).
    pub fn save_state_into(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(&self.save_state());
    }

    /// [STATE.API] [STATE.ATOMIC] [STATE.GRAPH.RESTORE] Replaces the node count and the whole edge
    /// list (validated first); the compiled form is dropped.
    pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), GraphStateError> {
        let (n, edges) = read_graph(bytes)?;
        self.node_count = n;
        self.edges = edges;
        self.compiled = OnceLock::new();
        Ok(())
    }

    /// [STATE.API] [STATE.GRAPH] [STATE.BOUNDED] A new graph from state bytes.
    pub fn from_state(bytes: &[u8]) -> Result<Graph, GraphStateError> {
        let (n, edges) = read_graph(bytes)?;
        let mut g = Graph::new(n).map_err(|e| {
            GraphStateError::from(Fault {
                class: "count_out_of_range",
                offset: 8,
                detail: e.to_string(),
            })
        })?;
        g.edges = edges;
        Ok(g)
    }
}

/// [STATE.SEARCH.WIDE] A counter as an `i32`, saturating at `2^31 - 1`.
pub(crate) fn wide(v: u64) -> i32 {
    v.min(i32::MAX as u64) as i32
}

/// One visited entry as read, with the offset of its node field.
pub(crate) struct Visited {
    pub(crate) node: u32,
    pub(crate) closed: bool,
    pub(crate) g: f64,
    pub(crate) parent: Option<u32>,
    pub(crate) at: usize,
}

/// A fully validated search state ([STATE.SEARCH_FAILED]: installed only after every check).
pub(crate) struct SearchState {
    pub(crate) status: SearchStatus,
    pub(crate) start: u32,
    pub(crate) goal: u32,
    pub(crate) expanded: u64,
    pub(crate) iterations: u64,
    pub(crate) path_cost: f64,
    pub(crate) visited: Vec<Visited>,
    pub(crate) heap: Vec<Entry>,
    pub(crate) recorded: Vec<u32>,
    /// The offsets of the status, start and goal fields ([GS.STATE.MODE2] reports at them).
    pub(crate) status_at: usize,
    pub(crate) start_at: usize,
    pub(crate) goal_at: usize,
}

/// [STATE.SEARCH] [STATE.BUFFERS] [GS.STATE.SEARCHES] What a search state holds, as the writer
/// reads it: `start` is `None` for the kinds that write `-1` (9 and 10).
pub(crate) struct SearchView<'a> {
    pub(crate) kind: u16,
    pub(crate) status: SearchStatus,
    pub(crate) weight: f64,
    pub(crate) start: Option<u32>,
    pub(crate) goal: u32,
    pub(crate) expanded: u64,
    pub(crate) iterations: u64,
    pub(crate) path_cost: f64,
    pub(crate) reached: &'a [bool],
    pub(crate) closed: &'a [bool],
    pub(crate) g: &'a [f64],
    pub(crate) parent: &'a [Option<u32>],
    pub(crate) heap: &'a [Entry],
    pub(crate) recorded: &'a [u32],
}

/// [STATE.SEARCH] [STATE.SEARCH.FIELDS] [STATE.BUFFERS] [STATE.SEARCH.WIDE] The bytes of a search
/// (kinds 8-11): the fields, then (unless `NotStarted`) the visited nodes in increasing index,
/// the heap array as it lies and the recorded list.
pub(crate) fn write_search(v: &SearchView<'_>) -> Vec<u8> {
    let n = v.g.len();
    let mut w = Writer::with_header(v.kind);
    w.i32(n as i32);
    w.u8(v.status as u8);
    w.f64(v.weight);
    if v.status == SearchStatus::NotStarted {
        w.i32(-1);
        w.i32(-1);
        w.i32(0);
        w.i32(0);
        w.f64(f64::INFINITY);
        return w.out;
    }
    w.i32(v.start.map_or(-1, |s| s as i32));
    w.i32(v.goal as i32);
    w.i32(wide(v.expanded));
    w.i32(wide(v.iterations));
    w.f64(v.path_cost);
    let count = v.reached.iter().filter(|&&r| r).count();
    w.i32(count as i32);
    for node in 0..n {
        if v.reached[node] {
            w.i32(node as i32);
            w.u8(u8::from(v.closed[node]));
            w.f64(v.g[node]);
            w.i32(v.parent[node].map_or(-1, |p| p as i32));
        }
    }
    w.i32(v.heap.len() as i32);
    for e in v.heap {
        w.i32(e.node as i32);
        w.f64(e.f);
        w.f64(e.g);
    }
    w.i32(v.recorded.len() as i32);
    for &node in v.recorded {
        w.i32(node as i32);
    }
    w.out
}

/// [STATE.SEARCH] [GS.STATE.SEARCHES] What a search layout is checked against: the node count,
/// the weight the restoring search requires, and whether the start field is unused (`-1`; kinds 9
/// and 10), which also replaces the start rule of pass (2).
pub(crate) struct SearchRules {
    pub(crate) n: usize,
    pub(crate) weight: f64,
    pub(crate) start_unused: bool,
}

impl<C: GraphCost, H: GraphHeuristic> GraphAStar<'_, C, H> {
    /// [STATE.API] [STATE.SEARCH] [STATE.SEARCH.FIELDS] [STATE.BUFFERS] [STATE.SEARCH.WIDE] The state
    /// bytes (kind 11): the fields, then (unless `NotStarted`) the visited nodes in increasing
    /// index, the heap array as it lies and the recorded list.
    pub fn save_state(&self) -> Vec<u8> {
        write_search(&SearchView {
            kind: KIND_GRAPH_ASTAR,
            status: self.status,
            weight: 1.0,
            start: Some(self.start),
            goal: self.goal,
            expanded: self.expanded_count,
            iterations: self.iterations,
            path_cost: self.path_cost(),
            reached: &self.reached,
            closed: &self.closed,
            g: &self.g,
            parent: &self.parent,
            heap: self.open.entries(),
            recorded: &self.recorded,
        })
    }

    /// [STATE.API.INTO] The bytes of `save_state()` left in `out` (cleared first; its
    /// allocation is reused).
    pub fn save_state_into(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(&self.save_state());
    }

    /// [STATE.API] [STATE.SEARCH.CHECKS] [STATE.SEARCH_FAILED] [STATE.SEARCH.RECORD]
    /// [STATE.SEARCH.RESTORE] Restores a search saved by a search created the same way. Every check
    /// runs first; on failure the search is left `NotStarted`.
    pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), GraphStateError> {
        match read_search(bytes, self.graph.node_count()) {
            Ok(s) => {
                self.install(s);
                Ok(())
            }
            Err(f) => {
                self.reset_not_started();
                Err(f.into())
            }
        }
    }

    /// [STATE.SEARCH_FAILED] [STATE.SEARCH.FIELDS] The `NotStarted` state.
    fn reset_not_started(&mut self) {
        self.status = SearchStatus::NotStarted;
        self.start = 0;
        self.goal = 0;
        self.iterations = 0;
        self.expanded_count = 0;
        self.path_cost = f64::INFINITY;
        self.recorded.clear();
        self.open.clear();
    }

    /// [STATE.SEARCH.RESTORE] Installs a validated state.
    fn install(&mut self, s: SearchState) {
        self.reset_not_started();
        for v in 0..self.g.len() {
            self.g[v] = f64::INFINITY;
            self.parent[v] = None;
            self.reached[v] = false;
            self.closed[v] = false;
        }
        for e in &s.visited {
            let v = e.node as usize;
            self.g[v] = e.g;
            self.parent[v] = e.parent;
            self.reached[v] = true;
            self.closed[v] = e.closed;
        }
        self.open.install(s.heap);
        self.status = s.status;
        if s.status != SearchStatus::NotStarted {
            self.start = s.start;
            self.goal = s.goal;
        }
        self.iterations = s.iterations;
        self.expanded_count = s.expanded;
        self.path_cost = s.path_cost;
        self.recorded = s.recorded;
    }
}

/// A fault at `at` with the class and detail.
fn bad<T>(class: &'static str, at: usize, what: String) -> Result<T, Fault> {
    fault(class, at, format!("{class} at byte {at}: {what}"))
}

/// [STATE.SEARCH] [GS.STATE.SEARCHES] The start or goal field: `-1` when `NotStarted` (or unused),
/// else `< n`.
fn read_end(r: &mut Reader<'_>, name: &str, not_started: bool, n: usize) -> Result<u32, Fault> {
    let at = r.pos();
    let v = r.i32()?;
    let ok = if not_started {
        v == -1
    } else {
        v >= 0 && (v as usize) < n
    };
    if !ok {
        let want = if not_started {
            "-1 (NotStarted)".to_string()
        } else {
            format!("0..{n}")
        };
        return bad(
            "index_out_of_range",
            at,
            format!("{name} = {v}, expected {want}"),
        );
    }
    Ok(if not_started { 0 } else { v as u32 })
}

/// [STATE.SEARCH.CHECKS] [STATE.SEARCH.BASE_CHECKS] [STATE.ORDER] Reads and validates a GraphAStar
/// state for a search over `n` nodes, in byte order, then the cross checks.
fn read_search(bytes: &[u8], n: usize) -> Result<SearchState, Fault> {
    let mut r = Reader::new(bytes);
    read_header(&mut r, KIND_GRAPH_ASTAR)?;
    let rules = SearchRules {
        n,
        weight: 1.0,
        start_unused: false,
    };
    let s = read_search_body(&mut r, &rules)?;
    r.finish()?;
    Ok(s)
}

/// [STATE.SEARCH.CHECKS] [STATE.ORDER] [GS.STATE.SEARCHES] Reads and validates the payload of a
/// search layout (after its header) by `rules`, in byte order, then the cross checks; the caller
/// checks for trailing bytes.
pub(crate) fn read_search_body(
    r: &mut Reader<'_>,
    rules: &SearchRules,
) -> Result<SearchState, Fault> {
    let n = rules.n;
    let at = r.pos();
    let nc = r.i32()?;
    if i64::from(nc) != n as i64 {
        return bad(
            "size_mismatch",
            at,
            format!("node_count = {nc}, the search's graph has {n}"),
        );
    }
    let at = r.pos();
    let status = match r.u8()? {
        0 => SearchStatus::NotStarted,
        1 => SearchStatus::Running,
        2 => SearchStatus::Found,
        3 => SearchStatus::NotFound,
        s => return bad("out_of_range", at, format!("status {s} is not 0..=3")),
    };
    let at = r.pos();
    let weight = r.f64("heuristic_weight")?;
    if weight != rules.weight {
        return bad(
            "size_mismatch",
            at,
            format!(
                "heuristic_weight {weight:?}, the search's is {:?}",
                rules.weight
            ),
        );
    }
    let ns = status == SearchStatus::NotStarted;
    let status_at = at - 1;
    let start_at = r.pos();
    let start = read_end(r, "start", ns || rules.start_unused, n)?;
    let goal_at = r.pos();
    let goal = read_end(r, "goal", ns, n)?;
    let hi = if ns { 0 } else { i64::from(i32::MAX) };
    let expanded = read_i32_in(r, "expanded", 0, hi, "out_of_range")?;
    let iterations = read_i32_in(r, "iterations", i64::from(expanded), hi, "out_of_range")?;
    let cost_at = r.pos();
    let path_cost = r.f64("path_cost")?;
    let cost_ok = if status == SearchStatus::Found {
        path_cost.is_finite() && path_cost >= 0.0
    } else {
        path_cost == f64::INFINITY
    };
    if !cost_ok {
        return bad(
            "out_of_range",
            cost_at,
            format!("path_cost {path_cost:?} does not fit status {status:?}"),
        );
    }
    let mut s = SearchState {
        status,
        start,
        goal,
        expanded: expanded as u64,
        iterations: iterations as u64,
        path_cost,
        visited: Vec::new(),
        heap: Vec::new(),
        recorded: Vec::new(),
        status_at,
        start_at,
        goal_at,
    };
    if ns {
        return Ok(s);
    }
    // [STATE.BUFFERS] visited entries.
    let at = r.pos();
    let count = r.i32()?;
    let bound = (n as u64).min((r.remaining() / VISITED_BYTES) as u64);
    if count < 0 || count as u64 > bound {
        return bad(
            "count_out_of_range",
            at,
            format!("visited count {count} is outside 0..={bound}"),
        );
    }
    // Per-node position in the visited list (the object's size justifies N entries).
    let mut pos = vec![NONE; n];
    s.visited.reserve(count as usize);
    let mut prev: Option<u32> = None;
    for _ in 0..count {
        let at = r.pos();
        let node = r.i32()? as u32; // [GRAPH.VAL.PORT_INTS] negative = too large
        if prev.is_some_and(|p| node <= p) {
            return bad(
                "not_increasing",
                at,
                format!("visited node {} does not increase", node as i32),
            );
        }
        if node as usize >= n {
            return bad(
                "index_out_of_range",
                at,
                format!("visited node {} is outside 0..{n}", node as i32),
            );
        }
        prev = Some(node);
        let closed = r.flag("closed")?;
        let g_at = r.pos();
        let g = r.f64("g")?;
        if !(g.is_finite() && g >= 0.0) {
            return bad(
                "out_of_range",
                g_at,
                format!("g {g:?} of node {node} is not finite and >= 0"),
            );
        }
        let p_at = r.pos();
        let p = r.i32()?;
        if p < -1 || (p >= 0 && p as usize >= n) {
            return bad(
                "index_out_of_range",
                p_at,
                format!("parent {p} of node {node} is not -1 or 0..{n}"),
            );
        }
        let parent = if p == -1 { None } else { Some(p as u32) };
        pos[node as usize] = s.visited.len() as u32;
        s.visited.push(Visited {
            node,
            closed,
            g,
            parent,
            at,
        });
    }
    let entry = |pos: &Vec<u32>, v: u32| -> Option<usize> {
        pos.get(v as usize)
            .copied()
            .filter(|&i| i != NONE)
            .map(|i| i as usize)
    };
    // [STATE.HEAP] the open set.
    let at = r.pos();
    let hc = r.i32()?;
    let heap_bound = i64::from(count).min((r.remaining() / HEAP_SLOT_BYTES) as i64);
    if hc < 0 || i64::from(hc) > heap_bound {
        return bad(
            "count_out_of_range",
            at,
            format!("heap count {hc} is outside 0..={heap_bound}"),
        );
    }
    let mut in_heap = vec![false; s.visited.len()];
    let mut heap_at = Vec::with_capacity(hc as usize);
    for _ in 0..hc {
        let at = r.pos();
        let node = r.i32()? as u32;
        let Some(i) = entry(&pos, node).filter(|&i| !s.visited[i].closed) else {
            return bad(
                "bad_heap_node",
                at,
                format!("heap node {} is not a visited open node", node as i32),
            );
        };
        if in_heap[i] {
            return bad(
                "duplicate_node",
                at,
                format!("heap node {node} appears twice"),
            );
        }
        in_heap[i] = true;
        let f = r.f64("heap f")?;
        let g_at = r.pos();
        let g = r.f64("heap g")?;
        if g.to_bits() != s.visited[i].g.to_bits() {
            return bad(
                "out_of_range",
                g_at,
                format!("heap g {g:?} of node {node} differs from its g"),
            );
        }
        s.heap.push(Entry { f, g, node });
        heap_at.push(at);
    }
    // [STATE.HEAP.VALID]
    for i in 1..s.heap.len() {
        if precedes(&s.heap[i], &s.heap[(i - 1) / 2]) {
            return bad(
                "heap_order",
                heap_at[i],
                format!("heap slot {i} precedes its parent"),
            );
        }
    }
    // [STATE.BUFFERS] recorded list.
    let at = r.pos();
    let rc = r.i32()?;
    let recorded_bound = i64::from(expanded).min((r.remaining() / 4) as i64);
    if rc < 0 || i64::from(rc) > recorded_bound {
        return bad(
            "count_out_of_range",
            at,
            format!("recorded count {rc} is outside 0..={recorded_bound}"),
        );
    }
    s.recorded.reserve((rc as usize).min(r.remaining() / 4));
    for _ in 0..rc {
        let at = r.pos();
        let node = r.i32()? as u32;
        if entry(&pos, node).is_none() {
            return bad(
                "bad_heap_node",
                at,
                format!("recorded node {} is not a visited node", node as i32),
            );
        }
        s.recorded.push(node);
    }
    cross_checks(&s, &pos, &in_heap, cost_at, rules.start_unused)?;
    Ok(s)
}

/// [STATE.SEARCH.CHECKS] The cross checks, each a pass over the visited entries in increasing
/// index: open nodes in the heap, parent rules, no parent cycle, the `Found` goal.
fn cross_checks(
    s: &SearchState,
    pos: &[u32],
    in_heap: &[bool],
    cost_at: usize,
    start_unused: bool,
) -> Result<(), Fault> {
    let vis = &s.visited;
    for (i, e) in vis.iter().enumerate() {
        if !e.closed && !in_heap[i] {
            return bad(
                "missing_open_node",
                e.at,
                format!("open node {} is not in the heap", e.node),
            );
        }
    }
    let find = |v: u32| {
        pos.get(v as usize)
            .copied()
            .filter(|&i| i != NONE)
            .map(|i| i as usize)
    };
    // Pass (2): the start rule; [GS.STATE.SEARCHES] without a start field only "a visited node
    // with parent -1 has g 0".
    for e in vis {
        if start_unused {
            if e.parent.is_none() && e.g != 0.0 {
                return bad(
                    "bad_parent",
                    e.at,
                    format!("node {} has no parent but g {:?}, not 0", e.node, e.g),
                );
            }
            continue;
        }
        let is_start = e.node == s.start;
        match e.parent {
            None if !is_start => {
                return bad(
                    "bad_parent",
                    e.at,
                    format!("node {} has no parent but is not the start", e.node),
                )
            }
            Some(p) if is_start => {
                return bad(
                    "bad_parent",
                    e.at,
                    format!("the start {} has parent {p}", e.node),
                )
            }
            None if e.g != 0.0 => {
                return bad(
                    "bad_parent",
                    e.at,
                    format!("the start's g is {:?}, not 0", e.g),
                )
            }
            _ => {}
        }
    }
    // Pass (3): the parent-cost rule.
    for e in vis {
        if let Some(p) = e.parent {
            match find(p) {
                None => {
                    return bad(
                        "bad_parent",
                        e.at,
                        format!("parent {p} of node {} is not visited", e.node),
                    )
                }
                Some(j) if vis[j].g > e.g => {
                    return bad(
                        "bad_parent",
                        e.at,
                        format!("parent {p} of node {} has a larger g", e.node),
                    )
                }
                _ => {}
            }
        }
    }
    // Parent cycles: iterative walks with colours 0 (new), 1 (on the current walk), 2 (done).
    let mut colour = vec![0u8; vis.len()];
    let mut walk = Vec::new();
    for i in 0..vis.len() {
        let mut cur = Some(i);
        while let Some(c) = cur {
            if colour[c] != 0 {
                break;
            }
            colour[c] = 1;
            walk.push(c);
            cur = vis[c].parent.and_then(find);
        }
        if let Some(c) = cur {
            if colour[c] == 1 {
                // The cycle is the walk from `c` on; report its smallest node.
                let from = walk.iter().position(|&x| x == c).unwrap_or(0);
                let least = walk[from..].iter().copied().min().unwrap_or(c);
                return bad(
                    "parent_cycle",
                    vis[least].at,
                    format!("node {} lies on a parent cycle", vis[least].node),
                );
            }
        }
        for &w in &walk {
            colour[w] = 2;
        }
        walk.clear();
    }
    if s.status == SearchStatus::Found {
        match find(s.goal) {
            Some(j) if vis[j].closed && vis[j].g == s.path_cost => {}
            Some(j) => {
                return bad(
                    "out_of_range",
                    vis[j].at,
                    "the Found goal is not closed with g = path cost".into(),
                )
            }
            None => {
                return bad(
                    "out_of_range",
                    cost_at,
                    "the Found goal is not visited".into(),
                )
            }
        }
    }
    Ok(())
}
