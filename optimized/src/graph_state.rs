//! State kind 4 of the mutable graph: [STATE.GRAPH], [STATE.GRAPH.RESTORE], [STATE.ATOMIC],
//! [STATE.BOUNDED] (a node count allocates nothing per node).

use crate::error::GraphStateError;
use crate::mutable::Graph;
use crate::wire::{fail, Class, Fault, Put, Reader, KIND_GRAPH};
use crate::{GraphEdge, MAX_NODES};
use std::sync::OnceLock;

/// Bytes per saved edge: `i32 from, i32 to, f64 weight, u8 alive`.
const EDGE_BYTES: usize = 17;

/// [STATE.GRAPH] Reads and checks a whole state; the edge list is allocated only up to the
/// bytes left / 17 ([STATE.BOUNDED]).
fn parse(bytes: &[u8]) -> Result<(usize, Vec<GraphEdge>, Vec<bool>), Fault> {
    let mut r = Reader::new(bytes);
    r.header(KIND_GRAPH)?;
    let at = r.pos;
    let n = r.i32("node_count")?;
    if n < 0 || n as usize > MAX_NODES {
        return fail(Class::CountOutOfRange, at, "node_count");
    }
    let n = n as usize;
    let m = r.count(usize::MAX, EDGE_BYTES, "edge_count")?;
    let mut edges = Vec::with_capacity(m);
    let mut alive = Vec::with_capacity(m);
    for _ in 0..m {
        let mut ends = [0u32; 2];
        for (end, name) in ends.iter_mut().zip(["from", "to"]) {
            let at = r.pos;
            let v = r.i32(name)? as u32;
            if v as usize >= n {
                return fail(Class::IndexOutOfRange, at, name);
            }
            *end = v;
        }
        let at = r.pos;
        let w = r.f64("weight")?;
        if !(w.is_finite() && w >= 0.0 && !w.is_sign_negative()) {
            return fail(Class::OutOfRange, at, "weight");
        }
        edges.push(GraphEdge::new(ends[0], ends[1], w));
        alive.push(r.flag("alive")?);
    }
    r.finish()?;
    Ok((n, edges, alive))
}

impl Graph {
    /// [STATE.GRAPH] [STATE.STABLE] The state bytes (kind 4): node count, then every edge ever
    /// added in id order with its alive flag.
    pub fn save_state(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + EDGE_BYTES * self.edges.len());
        out.put_header(KIND_GRAPH);
        out.put_i32(self.node_count as i32);
        out.put_i32(self.edges.len() as i32);
        for (e, &a) in self.edges.iter().zip(&self.alive) {
            out.put_i32(e.from as i32);
            out.put_i32(e.to as i32);
            out.put_f64(e.weight);
            out.put_u8(a as u8);
        }
        out
    }

    /// [STATE.GRAPH.RESTORE] [STATE.ATOMIC] Validates everything, then replaces the node count
    /// and the whole edge list (removed edges keep their ids); the compiled form is dropped and
    /// rebuilt by the next query. On error nothing changed.
    pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), GraphStateError> {
        let (n, edges, alive) = parse(bytes).map_err(GraphStateError::from_fault)?;
        self.node_count = n;
        self.edges = edges;
        self.alive = alive;
        self.compiled = OnceLock::new();
        Ok(())
    }

    /// [STATE.API] [STATE.GRAPH] A new graph from state bytes.
    pub fn from_state(bytes: &[u8]) -> Result<Graph, GraphStateError> {
        let (n, edges, alive) = parse(bytes).map_err(GraphStateError::from_fault)?;
        let mut g = Graph::new(n).map_err(|_| {
            GraphStateError::from_fault(Fault {
                class: Class::CountOutOfRange,
                offset: 8,
                field: "node_count",
            })
        })?;
        g.edges = edges;
        g.alive = alive;
        Ok(g)
    }
}
