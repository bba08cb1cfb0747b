//! State kind 4 of the mutable graph: [STATE.GRAPH], [STATE.GRAPH.RESTORE], [STATE.ATOMIC],
//! [STATE.BOUNDED] (a node count allocates nothing per node).

use crate::error::GraphStateError;
use crate::mutable::Graph;
use crate::wire::{fail, Class, Fault, Put, Reader, KIND_GRAPH};
use crate::{GraphEdge, MAX_NODES};
use std::sync::OnceLock;

/// Bytes per saved edge: `i32 from, i32 to, f64 weight, u8 alive`.
const EDGE_BYTES: usize = 17;
/// Offset of the first edge record (header, node count, edge count).
const EDGES_AT: usize = 16;

/// [STATE.GRAPH] Reads and checks a whole state without allocating: the node count and the
/// number of edges, whose 17-byte records start at byte 16.
fn parse(bytes: &[u8]) -> Result<(usize, usize), Fault> {
    let mut r = Reader::new(bytes);
    r.header(KIND_GRAPH)?;
    let at = r.pos;
    let n = r.i32("node_count")?;
    if n < 0 || n as usize > MAX_NODES {
        return fail(Class::CountOutOfRange, at, "node_count");
    }
    let n = n as usize;
    let m = r.count(usize::MAX, EDGE_BYTES, "edge_count")?;
    for _ in 0..m {
        for name in ["from", "to"] {
            let at = r.pos;
            let v = r.i32(name)? as u32;
            if v as usize >= n {
                return fail(Class::IndexOutOfRange, at, name);
            }
        }
        let at = r.pos;
        let w = r.f64("weight")?;
        if !(w.is_finite() && w >= 0.0 && !w.is_sign_negative()) {
            return fail(Class::OutOfRange, at, "weight");
        }
        r.flag("alive")?;
    }
    r.finish()?;
    Ok((n, m))
}

/// Replaces `g`'s edge list by the `m` validated records of `bytes` (reusing its buffers).
fn install_edges(g: &mut Graph, bytes: &[u8], m: usize) {
    g.edges.clear();
    g.alive.clear();
    g.edges.reserve(m);
    g.alive.reserve(m);
    let le32 = |c: &[u8]| u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    for c in bytes[EDGES_AT..EDGES_AT + EDGE_BYTES * m].chunks_exact(EDGE_BYTES) {
        let mut w = [0u8; 8];
        w.copy_from_slice(&c[8..16]);
        g.edges.push(GraphEdge::new(
            le32(&c[0..4]),
            le32(&c[4..8]),
            f64::from_bits(u64::from_le_bytes(w)),
        ));
        g.alive.push(c[16] == 1);
    }
}

impl Graph {
    /// [STATE.GRAPH] [STATE.STABLE] The state bytes (kind 4): node count, then every edge ever
    /// added in id order with its alive flag.
    pub fn save_state(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.save_state_into(&mut out);
        out
    }

    /// [STATE.API.INTO] The bytes of [`Graph::save_state`] written into `out` (cleared first;
    /// its allocation is reused). The edges are written into space reserved at once.
    pub fn save_state_into(&self, out: &mut Vec<u8>) {
        out.clear();
        out.put_header(KIND_GRAPH);
        out.put_i32(self.node_count as i32);
        out.put_i32(self.edges.len() as i32);
        let at = out.len();
        out.resize(at + EDGE_BYTES * self.edges.len(), 0);
        let chunks = out[at..].chunks_exact_mut(EDGE_BYTES);
        for ((c, e), &a) in chunks.zip(&self.edges).zip(&self.alive) {
            c[0..4].copy_from_slice(&e.from.to_le_bytes());
            c[4..8].copy_from_slice(&e.to.to_le_bytes());
            c[8..16].copy_from_slice(&e.weight.to_bits().to_le_bytes());
            c[16] = a as u8;
        }
    }

    /// [STATE.GRAPH.RESTORE] [STATE.ATOMIC] Validates everything, then replaces the node count
    /// and the whole edge list (removed edges keep their ids); the compiled form is dropped and
    /// rebuilt by the next query. On error nothing changed.
    pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), GraphStateError> {
        let (n, m) = parse(bytes).map_err(GraphStateError::from_fault)?;
        self.node_count = n;
        install_edges(self, bytes, m);
        self.compiled = OnceLock::new();
        Ok(())
    }

    /// [STATE.API] [STATE.GRAPH] A new graph from state bytes.
    pub fn from_state(bytes: &[u8]) -> Result<Graph, GraphStateError> {
        let (n, m) = parse(bytes).map_err(GraphStateError::from_fault)?;
        let mut g = Graph::new(n).map_err(|_| {
            GraphStateError::from_fault(Fault {
                class: Class::CountOutOfRange,
                offset: 8,
                field: "node_count",
            })
        })?;
        install_edges(&mut g, bytes, m);
        Ok(g)
    }
}
