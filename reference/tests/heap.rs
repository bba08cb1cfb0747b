//! [STATE.HEAP.*] The open-set heap discipline, observed through the heap array that a GraphAStar
//! state holds "as it lies" (hand-worked sequences).

use onepath_reference::{
    CsrGraph, DefaultGraphCost, GraphAStar, GraphEdge, GraphHeuristic, SearchStatus,
};

/// A per-node table estimate.
struct Table(Vec<f64>);
impl GraphHeuristic for Table {
    fn estimate(&self, from: u32, _to: u32) -> f64 {
        self.0[from as usize]
    }
}

fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn f64_at(b: &[u8], at: usize) -> f64 {
    f64::from_bits(u64::from_le_bytes(b[at..at + 8].try_into().unwrap()))
}

/// The heap slots `(node, f, g)` of a kind-11 state.
fn heap_of(b: &[u8]) -> Vec<(u32, f64, f64)> {
    let visited = i32_at(b, 45) as usize;
    let mut at = 49 + 17 * visited;
    let count = i32_at(b, at) as usize;
    at += 4;
    (0..count)
        .map(|i| {
            let s = at + 20 * i;
            (i32_at(b, s) as u32, f64_at(b, s + 4), f64_at(b, s + 12))
        })
        .collect()
}

fn nodes(h: &[(u32, f64, f64)]) -> Vec<u32> {
    h.iter().map(|e| e.0).collect()
}

#[test]
fn push_pop_and_update_earlier() {
    // Node 0 pushes 1 (f5), 2 (f3), 3 (f4), 4 (f1), 5 (f2) in CSR order; 4 -> 1 (0.5) improves 1.
    let edges = [
        GraphEdge::new(0, 1, 5.0),
        GraphEdge::new(0, 2, 3.0),
        GraphEdge::new(0, 3, 4.0),
        GraphEdge::new(0, 4, 1.0),
        GraphEdge::new(0, 5, 2.0),
        GraphEdge::new(4, 1, 0.5),
    ];
    let g = CsrGraph::new(10, &edges).unwrap();
    let mut s = GraphAStar::new(&g, DefaultGraphCost, Table(vec![0.0; 10]));
    s.begin(0, 9).unwrap();
    assert_eq!(heap_of(&s.save_state()), vec![(0, 0.0, 0.0)]);
    assert_eq!(s.step(1), SearchStatus::Running);
    // [STATE.HEAP.PUSH] push 1: [1]; push 2: [2,1]; push 3: [2,1,3]; push 4: up twice -> [4,2,3,1];
    // push 5: up once -> [4,5,3,1,2].
    let h = heap_of(&s.save_state());
    assert_eq!(nodes(&h), vec![4, 5, 3, 1, 2]);
    assert_eq!(
        h.iter().map(|e| e.1).collect::<Vec<_>>(),
        vec![1.0, 2.0, 4.0, 5.0, 3.0]
    );
    // [STATE.HEAP.POP] pop 4: 2 moves to slot 0 -> [2,5,3,1], sifts down past 5 -> [5,2,3,1];
    // [STATE.HEAP.UPDATE] then 4 -> 1 sets 1 (slot 3) to f = g = 1.5, which sifts up twice.
    assert_eq!(s.step(1), SearchStatus::Running);
    let h = heap_of(&s.save_state());
    assert_eq!(
        h,
        vec![(1, 1.5, 1.5), (5, 2.0, 2.0), (3, 4.0, 4.0), (2, 3.0, 3.0)]
    );
}

#[test]
fn update_with_equal_f_and_lower_g_moves_later() {
    // h = 2^60 for nodes 1..=3 absorbs every small g: their f is exactly 2^60.
    let big = (1u64 << 60) as f64;
    let edges = [
        GraphEdge::new(0, 1, 10.0),
        GraphEdge::new(0, 2, 5.0),
        GraphEdge::new(0, 3, 7.0),
        GraphEdge::new(0, 4, 1.0),
        GraphEdge::new(4, 1, 0.0),
    ];
    let g = CsrGraph::new(6, &edges).unwrap();
    let mut s = GraphAStar::new(
        &g,
        DefaultGraphCost,
        Table(vec![0.0, big, big, big, 0.0, 0.0]),
    );
    s.begin(0, 5).unwrap();
    s.step(1);
    // push 1 (g10): [1]; 2 (g5) does not precede 1: [1,2]; 3 (g7): [1,2,3]; 4 (f1): up twice.
    let h = heap_of(&s.save_state());
    assert_eq!(nodes(&h), vec![4, 1, 3, 2]);
    assert_eq!(h[1], (1, big, 10.0));
    // pop 4: 2 to slot 0, sifts down past 1 (g10 > g5) -> [1,2,3]; expanding 4 updates 1 to
    // (2^60, g1): equal f, lower g, so it sifts down, to the child 3 (g7 beats g5) -> [3,2,1].
    s.step(1);
    let h = heap_of(&s.save_state());
    assert_eq!(h, vec![(3, big, 7.0), (2, big, 5.0), (1, big, 1.0)]);
    // The pop order follows [GRAPH.OPEN.ORDER]: 3, 2, 1.
    s.set_record_expansions(true);
    s.step(3);
    assert_eq!(s.expansions(), &[3, 2, 1]);
}
