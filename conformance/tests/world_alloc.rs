//! The `world_restore` fuzz regressions of [WORLD.STAGE.GRAPH_BOUND] replayed under a counting
//! allocator: no single allocation may exceed the target's `malloc_limit_mb = 64`
//! (`fuzz/world_restore.options`), the limit under which libFuzzer found a 6,344-byte container
//! that made onepath-reference allocate 134 MB in one call (`World::restore_state` -> `stage` ->
//! `Graph::compile`). The same files run without the allocator check in `fuzz_regressions.rs`.

use onepath_conformance::fuzzing::world::world_restore;
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Largest;
static LARGEST: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Largest {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LARGEST.fetch_max(l.size(), Ordering::Relaxed);
        System.alloc(l)
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        LARGEST.fetch_max(l.size(), Ordering::Relaxed);
        System.alloc_zeroed(l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        LARGEST.fetch_max(new, Ordering::Relaxed);
        System.realloc(p, l, new)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
}

#[global_allocator]
static A: Largest = Largest;

/// `malloc_limit_mb` of `fuzz/world_restore.options`.
const LIMIT: usize = 64 << 20;

fn le_i32(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

// pins [WORLD.STAGE.GRAPH_BOUND] [STATE.BOUNDED]: a world that stages the type-11 member over a graph of 2^26 nodes named by the container (compiling it, sizing a search by it) allocates hundreds of MB in one call and fails the 64 MiB bound; one that refuses it elsewhere than the graph's node_count field fails the outcome check.
#[test]
fn world_restore_regressions_stay_under_the_malloc_limit() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions/world_restore");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("fuzz/regressions/world_restore")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no regressions under {}", dir.display());
    // Prepare the target's world (its 40 frames) before measuring.
    world_restore(&[]).expect("an empty container is refused alike");
    for path in paths {
        let bytes = std::fs::read(&path).expect("read regression");
        LARGEST.store(0, Ordering::Relaxed);
        let r = world_restore(&bytes);
        let largest = LARGEST.load(Ordering::Relaxed);
        assert!(r.is_ok(), "{}: {}", path.display(), r.unwrap_err());
        assert!(
            largest <= LIMIT,
            "{}: one allocation of {largest} bytes, over the target's 64 MiB",
            path.display()
        );
    }
    // The edge: both crates refuse the graph's node count itself, before anything is sized by it.
    let bytes = std::fs::read(dir.join("graph-bound-2p26-with-search")).expect("read");
    let graph_nodes_at = 2374 + 8; // member 1's bytes start at 2374; node_count after its header
    assert_eq!(le_i32(&bytes, graph_nodes_at), 1 << 26);
    let s = onepath_conformance::synctest::generate::session(0x574F_524C, 0);
    let mut a = onepath_conformance::synctest::adapter::reference_adapter::build(&s)
        .unwrap_or_else(|_| panic!("build"));
    let mut b = onepath_conformance::synctest::adapter::optimized_adapter::build(&s)
        .unwrap_or_else(|_| panic!("build"));
    let ea = a.world.restore_state(&bytes).expect_err("refused");
    let eb = b.world.restore_state(&bytes).expect_err("refused");
    for (class, offset, member, state) in [
        (ea.class(), ea.offset(), ea.member_index(), ea.state_class()),
        (eb.class(), eb.offset(), eb.member_index(), eb.state_class()),
    ] {
        assert_eq!(
            (class, offset, member, state),
            (
                "member",
                Some(graph_nodes_at),
                Some(1),
                Some("count_out_of_range")
            )
        );
    }
}

// pins [WORLD.STAGE.GRAPH_BOUND]: SYNC-0023's containers restored into its freshly built world on both crates: a bound below the container's length refuses the last one, a bound above it (or none) accepts the first two, and a check placed anywhere but the graph's node_count field names another member or offset.
#[test]
fn graph_bound_at_and_past_the_edge() {
    use onepath_conformance::synctest::adapter::{optimized_adapter, reference_adapter};
    let (comment, s) = onepath_conformance::synctest::vectors::sessions()
        .into_iter()
        .find(|(c, _)| c.contains("[WORLD.STAGE.GRAPH_BOUND]"))
        .expect("SYNC-0023 among the sync vectors' sessions");
    assert!(comment.contains("[WORLD.STAGE.GRAPH_BOUND]"), "{comment}");
    assert_eq!(s.containers.len(), 4);
    let len = s.containers[0].0.len();
    // Member 1 (the graph) starts after the header (10), member 0's header (10) and its bytes.
    let m0 = u32::from_le_bytes(s.containers[0].0[16..20].try_into().unwrap()) as usize;
    let graph_nodes_at = 10 + 10 + m0 + 10 + 8;
    let refused = Some((
        "member",
        Some(graph_nodes_at),
        Some(1),
        Some("count_out_of_range"),
    ));
    let want = [
        (len + 1, refused),
        (1 << 26, refused),
        ((1 << 26) + 1, refused),
        (len, None),
    ];
    for (c, (nodes, outcome)) in s.containers.iter().zip(want) {
        assert_eq!(le_i32(&c.0, graph_nodes_at) as usize, nodes);
        let mut a = reference_adapter::build(&s).unwrap_or_else(|_| panic!("build"));
        let mut b = optimized_adapter::build(&s).unwrap_or_else(|_| panic!("build"));
        let ea = a.world.restore_state(&c.0).err();
        let eb = b.world.restore_state(&c.0).err();
        let ka = ea
            .as_ref()
            .map(|e| (e.class(), e.offset(), e.member_index(), e.state_class()));
        let kb = eb
            .as_ref()
            .map(|e| (e.class(), e.offset(), e.member_index(), e.state_class()));
        assert_eq!(ka, outcome, "onepath-reference, node count {nodes}");
        assert_eq!(kb, outcome, "onepath, node count {nodes}");
    }
}
