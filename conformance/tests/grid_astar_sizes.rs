//! Issue 14 (here, not in `optimized/tests`: onepath never names the reference): the
//! specialised grid A* (`GridSearch` mode 1) on grids past the size where its old f64-keyed
//! open list gave way to the slow exact one (about 1670 x 1670), against
//! onepath-reference, whose open list compares the exact pairs of [GS.SA.ORDER]: expansions in
//! order, path, cost bits, counters and the saved state, on maps with many ties (open maps, 4
//! and 8 directions, every diagonal rule, the zero estimate), a serpentine with paths of about
//! a million steps, and a search saved and restored half way.

use onepath_reference as r;

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

/// Walls of a `w x h` map: `pct`% random, or (`pct` = 101) a serpentine: every other row a wall
/// with a gap alternately at its right and left end.
fn walls(w: usize, h: usize, pct: u64, seed: u64) -> Vec<bool> {
    let mut rng = Lcg(seed);
    let mut out = Vec::with_capacity(w * h);
    for y in 0..h {
        for x in 0..w {
            out.push(if pct == 101 {
                y % 2 == 1 && x != if y % 4 == 1 { w - 1 } else { 0 }
            } else {
                rng.next(100) < pct
            });
        }
    }
    out
}

/// Everything a mode-1 search shows after `step(budget)` (or `run` for `u64::MAX`).
type Seen = (u8, Vec<u32>, u64, u64, u64, Vec<u32>, Vec<u8>);

macro_rules! observe {
    ($c:ident, $g:expr, $o:expr, $s:expr, $t:expr, $budget:expr) => {{
        let mut a = $c::GridSearch::new($g, $o).unwrap();
        a.begin($s, $t).unwrap();
        let st = if $budget == u64::MAX {
            a.run(None)
        } else {
            a.step($budget)
        };
        assert_eq!(a.engine(), $c::GridEngine::SpecialisedAStar);
        (
            st as u8,
            a.path(),
            a.path_cost().to_bits(),
            a.iterations(),
            a.expanded_count(),
            a.expansions().to_vec(),
            a.save_state(),
        )
    }};
}

macro_rules! options {
    ($c:ident, $alg:ident, $conn:ident, $diag:ident) => {
        $c::GridOptions {
            algorithm: $c::GridAlgorithm::$alg,
            connectivity: $c::Connectivity::$conn,
            diagonal: $c::DiagonalRule::$diag,
            record_expansions: true,
            ..$c::GridOptions::default()
        }
    };
}

fn grids(w: usize, h: usize, wall: &[bool]) -> (onepath::Grid, r::Grid) {
    let mut o = onepath::Grid::new(w, h).unwrap();
    let mut g = r::Grid::new(w, h).unwrap();
    for (i, _) in wall.iter().enumerate().filter(|(_, &b)| b) {
        o.set_cell(i % w, i / w, onepath::WALL).unwrap();
        g.set_cell(i % w, i / w, r::WALL).unwrap();
    }
    (o, g)
}

/// The old list's test: exact only while `(cells + w + h + 4) * 1.5 < 2^22`.
fn past_the_old_cliff(w: usize, h: usize) -> bool {
    (w as f64 * h as f64 + w as f64 + h as f64 + 4.0) * 1.5 >= (1u64 << 22) as f64
}

/// Runs both crates on the map and queries and compares everything.
macro_rules! same {
    ($w:expr, $h:expr, $pct:expr, $seed:expr, $alg:ident, $conn:ident, $diag:ident, $budget:expr, $queries:expr) => {{
        let (w, h): (usize, usize) = ($w, $h);
        assert!(past_the_old_cliff(w, h));
        let wall = walls(w, h, $pct, $seed);
        let (go, gr) = grids(w, h, &wall);
        let mut rng = Lcg($seed ^ 0x51);
        // A passable cell within 64 of `(x, y)` (towards the middle).
        let mut pick = |x: usize, y: usize| loop {
            let px = if x < w / 2 {
                x + rng.next(64) as usize
            } else {
                x - rng.next(64) as usize
            };
            let py = if y < h / 2 {
                y + rng.next(64) as usize
            } else {
                y - rng.next(64) as usize
            };
            if !wall[py * w + px] {
                return (px, py);
            }
        };
        let mut qs: Vec<((usize, usize), (usize, usize))> = $queries;
        let far = (pick(0, 0), pick(w - 1, h - 1));
        let half = (pick(w - 1, 0), pick(w / 2, h / 2));
        qs.extend([far, half]);
        let mut expansions = 0;
        for (s, t) in qs {
            let mine: Seen = observe!(
                onepath,
                &go,
                options!(onepath, $alg, $conn, $diag),
                s,
                t,
                $budget
            );
            let theirs: Seen = observe!(r, &gr, options!(r, $alg, $conn, $diag), s, t, $budget);
            expansions += mine.5.len();
            assert!(
                mine == theirs,
                "{w} x {h} {s:?} -> {t:?}: status {} vs {}, iterations {} vs {}",
                mine.0,
                theirs.0,
                mine.3,
                theirs.3
            );
        }
        assert!(expansions > 2000, "{expansions} expansions");
    }};
}

#[test]
fn open_maps_eight_directions() {
    // [GS.SA.ORDER] Every f ties along the way: larger g, then the cell decide.
    let corners = vec![((0, 0), (1799, 1699)), ((900, 850), (1799, 3))];
    same!(1800, 1700, 0, 1, AStar, Eight, Always, u64::MAX, corners);
    // The zero estimate: g ties everywhere, the cell decides.
    let mid = vec![((900, 850), (0, 0))];
    same!(1800, 1700, 0, 2, Dijkstra, Eight, NoneBlocked, 300_000, mid);
}

#[test]
fn open_maps_four_directions() {
    // Manhattan: every cell of the start-goal rectangle has the same f.
    let corners = vec![((0, 0), (1699, 1749)), ((1699, 0), (3, 1700))];
    same!(
        1700,
        1750,
        0,
        3,
        AStar,
        Four,
        NoneBlocked,
        u64::MAX,
        corners
    );
    let mid = vec![((850, 875), (0, 0))];
    same!(1700, 1750, 0, 4, Dijkstra, Four, NoneBlocked, 300_000, mid);
}

#[test]
fn random_walls_every_diagonal_rule() {
    same!(
        1750,
        1700,
        12,
        5,
        AStar,
        Eight,
        AtMostOneBlocked,
        u64::MAX,
        vec![]
    );
    same!(
        1750,
        1700,
        30,
        6,
        AStar,
        Eight,
        NoneBlocked,
        u64::MAX,
        vec![]
    );
    same!(1750, 1700, 5, 7, Dijkstra, Eight, Always, 200_000, vec![]);
    same!(2048, 1900, 3, 8, AStar, Four, NoneBlocked, u64::MAX, vec![]);
}

#[test]
fn serpentine_long_paths() {
    // A path of about 1700² / 2 steps (g pairs near 10^6), diagonals cutting the turns.
    let ends = vec![((0, 0), (1699, 1698))];
    same!(1700, 1700, 101, 9, AStar, Eight, Always, u64::MAX, ends);
}

#[test]
fn saved_half_way_and_restored() {
    // [GS.STATE.RESTORE] The restored open list (rebuilt from the visited cells) continues as
    // the saved search would have.
    let (w, h) = (1800, 1700);
    let wall = walls(w, h, 10, 10);
    let (go, _) = grids(w, h, &wall);
    let (s, t) = ((0, 1), (1799, 1698));
    for (opts, budget) in [
        (options!(onepath, AStar, Eight, AtMostOneBlocked), 40_000),
        (options!(onepath, Dijkstra, Four, NoneBlocked), 250_000),
    ] {
        let full: Seen = observe!(onepath, &go, opts.clone(), s, t, u64::MAX);
        let mut a = onepath::GridSearch::new(&go, opts.clone()).unwrap();
        a.begin(s, t).unwrap();
        assert_eq!(a.step(budget), onepath::SearchStatus::Running);
        let bytes = a.save_state();
        let mut b = onepath::GridSearch::new(&go, opts).unwrap();
        b.restore_state(&bytes).unwrap();
        assert_eq!(b.save_state(), bytes);
        assert_eq!(b.run(None), onepath::SearchStatus::Found);
        let tail = &full.5[full.5.len() - b.expansions().len()..];
        assert_eq!(
            (
                b.path(),
                b.path_cost().to_bits(),
                b.iterations(),
                b.expanded_count()
            ),
            (full.1.clone(), full.2, full.3, full.4)
        );
        assert_eq!(b.expansions(), tail);
        assert_eq!(b.save_state(), full.6);
    }
}
