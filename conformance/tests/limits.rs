//! [GRAPH.ALT.LIMIT] [GRAPH.PT.LINK_LIMIT] The limits of both crates side by side (moved from
//! optimized/tests/limits.rs, so that `onepath` never names the reference crate): the same
//! request is refused with the same class and index, and a request that only looks huge builds
//! the same graph.

use onepath::*;

/// Both crates refuse the same request with the same class and index, and build the same
/// graph from a request that only looks huge (a nearest count beyond `N - 1`).
#[test]
fn both_crates_agree_on_the_limits() {
    use onepath_reference as r;
    assert_eq!(MAX_LANDMARK_ENTRIES, r::MAX_LANDMARK_ENTRIES);
    assert_eq!(MAX_GENERATED_LINKS, r::MAX_GENERATED_LINKS);
    let n = MAX_LANDMARK_ENTRIES / 16 + 1;
    let mine = Landmarks::build(&CsrGraph::new(n, &[]).unwrap(), &LandmarkOptions::default())
        .err()
        .map(|e| (e.class(), e.index()));
    let theirs = r::Landmarks::build(
        &r::CsrGraph::new(n, &[]).unwrap(),
        &r::LandmarkOptions::default(),
    )
    .err()
    .map(|e| (e.class(), e.index()));
    assert_eq!(mine, Some(("too_many_nodes", None)));
    assert_eq!(mine, theirs);

    let xs = [0.0, 1.0, 3.0, 7.0, 15.0];
    let mine = PointGraph::new(
        &xs.map(|x| Point3::new(x, 0.0, 0.0)),
        &LinkOptions {
            nearest_count: usize::MAX,
            ..Default::default()
        },
    )
    .unwrap();
    let theirs = r::PointGraph::new(
        &xs.map(|x| r::Point3::new(x, 0.0, 0.0)),
        &r::LinkOptions {
            nearest_count: usize::MAX,
            ..Default::default()
        },
    )
    .unwrap();
    let (a, b) = (mine.csr(), theirs.csr());
    assert_eq!(a.edge_count(), 2 * xs.len() * (xs.len() - 1) / 2);
    assert_eq!(
        (a.offsets(), a.targets(), a.weights(), a.fingerprint()),
        (b.offsets(), b.targets(), b.weights(), b.fingerprint())
    );
}
