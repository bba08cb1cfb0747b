//! Tests of the fast open list: the constants and bounds of [`Layout`]'s proofs, the decision's
//! edges, and the fast list against the exact one on grids past the old f64 list's limit.

use super::*;
use crate::grid_search::options::{Connectivity, DiagonalRule, GridOptions};
use crate::plane::Grid;

/// `Layout::new` for a `w x h` grid (padded `(w + 2)(h + 2)`, as [`Ctx::new`]).
fn layout(w: usize, h: usize, nd: usize, zero: bool) -> Option<Layout> {
    Layout::new(w, h, nd, zero, (w + 2) * (h + 2))
}

/// `fbits + hbits + cbits` of a `w x h` grid.
fn width(w: usize, h: usize, nd: usize, zero: bool) -> u32 {
    let (f, e) = Layout::classes(w, h, nd, zero);
    Layout::scale(f).unwrap().1
        + Layout::scale(e).unwrap().1
        + bits(((w + 2) * (h + 2) - 1) as u128)
}

#[test]
fn s62_is_the_floor_of_sqrt2_times_2_62() {
    let s = S62 as u128;
    assert!(s * s <= 1u128 << 125);
    assert!((s + 1) * (s + 1) > 1u128 << 125);
}

/// The pairs `(p, q)` with `p² - 2q² = ±1` (Pell), the closest to `p = q√2`, up to `max`.
fn pell(max: u64) -> Vec<(u64, u64)> {
    let (mut p, mut q) = (1u64, 1u64);
    let mut out = Vec::new();
    while p <= max {
        out.push((p, q));
        (p, q) = (p + 2 * q, p + q);
    }
    out
}

/// [`fix`] at scale `k` orders the pairs of class `c` as [`pair_less`], equal pairs equal:
/// the nearest pairs `(a + p, b)`, `(a, b + q)` for the Pell `(p, q)` placed at the top and
/// the bottom of the class, and a sweep of neighbours of pairs spread over it.
fn check_class(c: Bound, k: u32) {
    let cmp = |x: (u64, u64), y: (u64, u64)| {
        let (x, y) = ((x.0 as u32, x.1 as u32), (y.0 as u32, y.1 as u32));
        let kx = fix(x.0, x.1, k);
        let ky = fix(y.0, y.1, k);
        let want = if x == y {
            std::cmp::Ordering::Equal
        } else if pair_less(x.0, x.1, y.0, y.1) {
            std::cmp::Ordering::Less
        } else {
            std::cmp::Ordering::Greater
        };
        assert_eq!(kx.cmp(&ky), want, "{x:?} {y:?} k {k} {c:?}");
    };
    let mut n = 0;
    for (p, q) in pell(c.a_max) {
        if q > c.b_max {
            break;
        }
        let (a, b) = (c.a_max - p, c.b_max - q);
        cmp((a + p, b), (a, b + q));
        cmp((p, 0), (0, q));
        cmp((a + p, c.b_max - q), (a, c.b_max));
        n += 1;
    }
    assert!(c.b_max == 0 || n > 0, "{c:?}");
    assert!(c.b_max < 1 << 20 || n >= 15, "{c:?}");
    let mut seed = 7u64;
    let mut next = |m: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 11) % (m + 1)
    };
    for _ in 0..2000 {
        let (a, b) = (next(c.a_max), next(c.b_max));
        for da in -2i64..=2 {
            for db in -2i64..=2 {
                let (a2, b2) = (a as i64 + da, b as i64 + db);
                if a2 >= 0 && b2 >= 0 && a2 as u64 <= c.a_max && b2 as u64 <= c.b_max {
                    cmp((a, b), (a2 as u64, b2 as u64));
                }
            }
        }
    }
}

/// The grids at the edges of the decision, the largest grids and some small ones.
const EDGES: [(usize, usize, usize, bool); 12] = [
    (8192, 8192, 8, false),
    (8192, 8192, 4, false),
    (8192, 8192, 8, true),
    (1, 16777214, 8, false),
    (1, 16777215, 4, false),
    (16, 4194282, 8, false),
    (4194288, 16, 4, false),
    (17, 3947580, 8, false),
    (1, 1 << 26, 8, true),
    (1700, 1700, 8, false),
    (3, 2, 8, false),
    (1, 1, 4, false),
];

#[test]
fn keys_order_pairs_exactly_at_the_class_bounds() {
    for (w, h, nd, zero) in EDGES {
        let (f, e) = Layout::classes(w, h, nd, zero);
        let l = layout(w, h, nd, zero).expect("fits");
        check_class(f, l.kf);
        check_class(e, l.kh);
        // The largest keys fit their fields: f of value `(n - 1)√2` plus the largest
        // estimate, the largest estimate, the last padded cell.
        let (n, x, m) = (
            (w * h - 1) as u32,
            (w.max(h) - 1) as u32,
            (w.min(h) - 1) as u32,
        );
        let hmax = match (zero, nd) {
            (true, _) => (0, 0),
            (false, 4) => (x + m, 0),
            _ => (x - m, m),
        };
        let key = |fa, fb, ha, hb, p| {
            let k = l.key(fa, fb, ha, hb, p);
            let f = fix(fa, fb, l.kf) as u128;
            assert_eq!(k >> l.fshift, f, "{w} x {h}");
            assert_eq!(f << l.fshift >> l.fshift, f, "{w} x {h}: f overflows");
            assert_eq!(
                (k >> l.hshift) & ((1u128 << (l.fshift - l.hshift)) - 1),
                fix(ha, hb, l.kh) as u128
            );
            assert_eq!(k as u64 & l.cmask, p as u64);
        };
        let last = (w + 2) * (h + 2) - 1;
        key(hmax.0, n + hmax.1, hmax.0, hmax.1, last);
        key(n + hmax.0 + hmax.1, 0, hmax.0, hmax.1, last);
    }
}

#[test]
fn layout_edges() {
    // Every square grid, and the squarish s x (s + 1), takes the fast list.
    for s in 1..=8192usize {
        for (nd, zero) in [(4, false), (8, false), (8, true)] {
            assert!(layout(s, s, nd, zero).is_some(), "{s}² {nd} {zero}");
            if s < 8192 {
                assert!(layout(s, s + 1, nd, zero).is_some(), "{s} {nd} {zero}");
            }
        }
    }
    assert_eq!(width(8192, 8192, 8, false), 113);
    assert_eq!(width(8192, 8192, 4, false), 112);
    assert_eq!(width(8192, 8192, 8, true), 83);
    // Every grid with a side of at least 17, at its longest (the widths grow with both
    // sides), and every zero-estimate grid.
    for m in 1..=8192usize {
        let long = (1usize << 26) / m;
        for nd in [4, 8] {
            assert!(layout(m, long, nd, true).is_some(), "{m} x {long}");
            if m >= 17 {
                assert!(layout(m, long, nd, false).is_some(), "{m} x {long}");
                assert!(layout(long, m, nd, false).is_some(), "{long} x {m}");
            }
        }
    }
    // The edges: the longest thin grids that fit and the next ones.
    for (w, h, nd) in [
        (1, 16777214, 8),
        (1, 16777215, 4),
        (2, 11514060, 8),
        (16, 4194282, 8),
        (16, 4194288, 4),
    ] {
        assert!(layout(w, h, nd, false).is_some(), "{w} x {h}");
        assert!(layout(h, w, nd, false).is_some(), "{h} x {w}");
        assert_eq!(width(w, h, nd, false), 128, "{w} x {h}");
        assert!(layout(w, h + 1, nd, false).is_none(), "{w} x {}", h + 1);
        assert!(layout(h + 1, w, nd, false).is_none(), "{} x {w}", h + 1);
    }
}

/// Whether the old f64-quantised list (exact below pair values of 2^22) fell back here.
fn past_the_old_cliff(w: usize, h: usize) -> bool {
    (w as f64 * h as f64 + w as f64 + h as f64 + 4.0) * 1.5 >= (1u64 << 22) as f64
}

struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// A `w x h` grid with `pct`% random walls, or (`pct` = 101) a serpentine: every other row
/// a wall with a gap alternately at its right and left end.
fn grid(w: usize, h: usize, pct: u64, seed: u64) -> Grid {
    let mut g = Grid::new(w, h).unwrap();
    let mut rng = Lcg(seed);
    for y in 0..h {
        for x in 0..w {
            let wall = if pct == 101 {
                y % 2 == 1 && x != if y % 4 == 1 { w - 1 } else { 0 }
            } else {
                rng.next(100) < pct
            };
            if wall {
                g.set_cell(x, y, crate::WALL).unwrap();
            }
        }
    }
    g
}

/// Runs mode 1 with the fast or the exact list, `budget` iterations; everything observable.
fn run(
    g: &Grid,
    o: &GridOptions,
    zero: bool,
    (s, t): (u32, u32),
    fast: bool,
    budget: u64,
) -> (SearchStatus, Vec<u32>, Vec<u32>, u64, u64, u64) {
    let ctx = Ctx::new(g, o.clone()).unwrap();
    let mut e = SpecA::new(&ctx, zero);
    assert!(e.fast, "{} x {} takes the fast list", ctx.w, ctx.h);
    e.fast = fast;
    e.begin(&ctx, s, t);
    let status = e.advance(&ctx, budget, None);
    let path = e.path(&ctx);
    let cost = e.path_cost(&ctx).to_bits();
    (
        status,
        path,
        std::mem::take(&mut e.record),
        cost,
        e.iterations,
        e.expanded,
    )
}

/// [GS.SA.ORDER] On grids past the old f64 list's size limit, with many ties (open maps,
/// 4 and 8 directions, each diagonal rule, the zero estimate, a serpentine with long
/// paths), the fast list pops exactly as the exact one: same expansions in the same order,
/// path, cost bits and counters.
#[test]
fn fast_open_list_equals_exact_open_list_past_the_old_cliff() {
    let cases: [(usize, usize, u64, Connectivity, DiagonalRule, bool, u64); 9] = [
        (
            1800,
            1700,
            0,
            Connectivity::Eight,
            DiagonalRule::Always,
            false,
            u64::MAX,
        ),
        (
            1800,
            1700,
            0,
            Connectivity::Eight,
            DiagonalRule::NoneBlocked,
            true,
            600_000,
        ),
        (
            1700,
            1750,
            0,
            Connectivity::Four,
            DiagonalRule::NoneBlocked,
            false,
            u64::MAX,
        ),
        (
            1700,
            1750,
            0,
            Connectivity::Four,
            DiagonalRule::NoneBlocked,
            true,
            600_000,
        ),
        (
            1750,
            1700,
            12,
            Connectivity::Eight,
            DiagonalRule::AtMostOneBlocked,
            false,
            1 << 40,
        ),
        (
            1750,
            1700,
            30,
            Connectivity::Eight,
            DiagonalRule::NoneBlocked,
            false,
            1 << 40,
        ),
        (
            1750,
            1700,
            5,
            Connectivity::Eight,
            DiagonalRule::Always,
            true,
            400_000,
        ),
        (
            1700,
            1700,
            101,
            Connectivity::Eight,
            DiagonalRule::Always,
            false,
            u64::MAX,
        ),
        (
            2048,
            1900,
            3,
            Connectivity::Four,
            DiagonalRule::NoneBlocked,
            false,
            1 << 40,
        ),
    ];
    let mut rng = Lcg(99);
    for (k, &(w, h, pct, connectivity, diagonal, zero, budget)) in cases.iter().enumerate() {
        assert!(past_the_old_cliff(w, h));
        let g = grid(w, h, pct, k as u64);
        let o = GridOptions {
            connectivity,
            diagonal,
            record_expansions: true,
            ..GridOptions::default()
        };
        let ctx = Ctx::new(&g, o.clone()).unwrap();
        let mut pick = |far: bool| loop {
            let (x, y) = if far {
                (w - 1 - rng.next(40) as usize, h - 1 - rng.next(40) as usize)
            } else {
                (rng.next(w as u64) as usize, rng.next(h as u64) as usize)
            };
            let c = (y * w + x) as u32;
            if ctx.passable(c) {
                return c;
            }
        };
        let mut queries = vec![(0, (w * h - 1) as u32), (pick(false), pick(false))];
        if pct > 0 && pct <= 100 {
            queries.push((pick(false), pick(true)));
        } else {
            queries.push(((h / 2 * w + w / 2) as u32, (h / 3 * w + w - 1) as u32));
        }
        let mut expansions = 0;
        for q in queries {
            if !ctx.passable(q.0) || !ctx.passable(q.1) {
                continue;
            }
            let fast = run(&g, &o, zero, q, true, budget);
            let exact = run(&g, &o, zero, q, false, budget);
            assert!(
                fast == exact,
                "case {k} {q:?}: {:?} vs {:?}",
                fast.0,
                exact.0
            );
            expansions += fast.2.len();
        }
        assert!(expansions > 2000, "case {k}: {expansions} expansions");
    }
}
