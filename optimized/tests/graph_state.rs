//! Graph state (kind 4): bytes, round trips, hostile classes, and the 2^26-node state that must
//! not allocate per node (checked with a counting global allocator).
use onepath::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCATED: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(l.size(), Ordering::Relaxed);
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
}

#[global_allocator]
static A: Counting = Counting;

fn le32(v: i32) -> [u8; 4] {
    v.to_le_bytes()
}

fn header() -> Vec<u8> {
    vec![0x4F, 0x50, 0x47, 0x53, 1, 0, 4, 0]
}

// pins [STATE.GRAPH.RESTORE]: a restore that kept the compiled form of the graph it replaced (not stale, the old edge 0 -> 5 compiled, no path 2 -> 0) or lost the removed edge's id fails an assertion.
#[test]
fn graph_state_bytes_and_round_trip() {
    let mut g = Graph::new(3).unwrap();
    g.add_edge(0, 1, 1.5).unwrap();
    g.add_edge(2, 0, -0.0).unwrap();
    g.remove_edge(0).unwrap();
    let mut want = header();
    want.extend(le32(3));
    want.extend(le32(2));
    want.extend(le32(0));
    want.extend(le32(1));
    want.extend(1.5f64.to_bits().to_le_bytes());
    want.push(0);
    want.extend(le32(2));
    want.extend(le32(0));
    want.extend(0.0f64.to_bits().to_le_bytes()); // -0.0 stored as +0.0
    want.push(1);
    let s = g.save_state();
    assert_eq!(s, want);
    assert_eq!(g.save_state(), s);
    let h = Graph::from_state(&s).unwrap();
    assert_eq!(
        (h.node_count(), h.edge_count(), h.edge(0).unwrap().1),
        (3, 2, false)
    );
    assert_eq!(h.save_state(), s);
    let mut k = Graph::from_edges(&[GraphEdge::new(0, 5, 2.0)], None, false).unwrap();
    k.compile();
    k.restore_state(&s).unwrap();
    assert!(k.is_stale());
    assert_eq!((k.save_state(), k.compile().edge_count()), (s.clone(), 1));
    let p = k.find_path(2, 0, &GraphOptions::default()).unwrap();
    assert_eq!((p.status, p.cost), (PathStatus::Found, 0.0));
}

#[test]
fn graph_hostile_classes_and_atomicity() {
    let mut g = Graph::new(3).unwrap();
    g.add_edge(0, 1, 1.5).unwrap();
    let s = g.save_state();
    let m = |at: usize, b: &[u8]| {
        let mut v = s.clone();
        v[at..at + b.len()].copy_from_slice(b);
        v
    };
    let cases: Vec<(Vec<u8>, &str, usize)> = vec![
        (m(0, &[0]), "bad_magic", 0),
        (m(4, &[0, 1]), "unsupported_version", 4),
        (m(6, &[11, 0]), "wrong_kind", 6),
        (m(8, &le32(-1)), "count_out_of_range", 8),
        (m(8, &le32((1 << 26) + 1)), "count_out_of_range", 8),
        (m(12, &le32(2)), "count_out_of_range", 12),
        (m(12, &le32(-1)), "count_out_of_range", 12),
        (m(16, &le32(3)), "index_out_of_range", 16),
        (m(20, &le32(-1)), "index_out_of_range", 20),
        (m(24, &f64::NAN.to_bits().to_le_bytes()), "nan", 24),
        (
            m(24, &(-0.0f64).to_bits().to_le_bytes()),
            "out_of_range",
            24,
        ),
        (
            m(24, &f64::INFINITY.to_bits().to_le_bytes()),
            "out_of_range",
            24,
        ),
        (m(32, &[2]), "bad_flag", 32),
        ([s.clone(), vec![9, 9]].concat(), "trailing_bytes", 33),
    ];
    for (b, class, off) in cases {
        let e = g.restore_state(&b).unwrap_err();
        assert_eq!(
            (e.class(), e.offset(), e.category()),
            (class, off, "format"),
            "{e}"
        );
        assert_eq!(g.save_state(), s);
        let e = Graph::from_state(&b).err().unwrap();
        assert_eq!((e.class(), e.offset()), (class, off));
    }
    for cut in 0..s.len() {
        let e = g.restore_state(&s[..cut]).unwrap_err();
        let want = if (12..16).contains(&cut) || cut < 12 {
            "truncated"
        } else {
            "count_out_of_range"
        };
        // a list cut short fails at its count (offset 12), anything else is `truncated`
        let off = if want == "truncated" { cut } else { 12 };
        assert_eq!((e.class(), e.offset()), (want, off), "cut {cut}");
    }
    assert_eq!(g.save_state(), s);
}

#[test]
fn huge_node_count_allocates_nothing_per_node() {
    let mut b = header();
    b.extend(le32(1 << 26));
    b.extend(le32(0));
    let before = ALLOCATED.load(Ordering::Relaxed);
    let g = Graph::from_state(&b).unwrap();
    let mut h = Graph::new(1).unwrap();
    h.restore_state(&b).unwrap();
    let used = ALLOCATED.load(Ordering::Relaxed) - before;
    assert!(used < 1 << 16, "allocated {used} bytes");
    assert_eq!(
        (g.node_count(), g.edge_count(), h.node_count()),
        (1 << 26, 0, 1 << 26)
    );
    assert_eq!(g.save_state(), b);
    // A lying edge count is refused at the count, before anything is allocated for it.
    let mut lie = b.clone();
    lie[12..16].copy_from_slice(&le32(i32::MAX));
    let before = ALLOCATED.load(Ordering::Relaxed);
    let e = Graph::from_state(&lie).err().unwrap();
    assert!(ALLOCATED.load(Ordering::Relaxed) - before < 1 << 12);
    assert_eq!((e.class(), e.offset()), ("count_out_of_range", 12));
}
