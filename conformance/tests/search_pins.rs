//! Named checks ([CONF.CLAUSES.PINS]) of the search families' rules that no vector can show:
//! option structs, the absence of a state API, a search borrowing its grid, the status and
//! cancel rules of the grid bidirectional search (run_bidi has no cancelled form), the HPA*
//! rebuild after a grid restore and the replanner's detach and restore-count rules. Each test
//! runs on both crates.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// What the probe methods below return: a type no crate method returns, so a search that has
/// its own `save_state` / `restore_state` / `save_state_into` makes the `let _: Absent = ...`
/// lines fail to compile (an inherent method is always chosen over a trait method).
struct Absent;

#[allow(dead_code)]
trait NoStateApi {
    fn save_state(&self) -> Absent {
        Absent
    }
    fn save_state_into(&self, _out: &mut Vec<u8>) -> Absent {
        Absent
    }
    fn restore_state(&mut self, _bytes: &[u8]) -> Absent {
        Absent
    }
}
impl<T: ?Sized> NoStateApi for T {}

macro_rules! hpa_options {
    ($c:ident) => {{
        use $c::*;
        let crate_name = stringify!($c);
        // Exhaustive: a field more (agent_size, cell_cost, blocked, algorithm, ...) or less
        // does not compile.
        let HpaOptions {
            chunk_size,
            connectivity,
            diagonal,
            heuristic_weight,
            smooth,
            iteration_budget,
            record_expansions,
        } = HpaOptions::default();
        let _: (u32, Connectivity, DiagonalRule, f64, bool, u64, bool) = (
            chunk_size,
            connectivity,
            diagonal,
            heuristic_weight,
            smooth,
            iteration_budget,
            record_expansions,
        );
        assert_eq!(
            (
                chunk_size,
                connectivity,
                diagonal,
                heuristic_weight.to_bits(),
                smooth,
                iteration_budget,
                record_expansions
            ),
            (
                8,
                Connectivity::Eight,
                DiagonalRule::NoneBlocked,
                1.0f64.to_bits(),
                false,
                0,
                false
            ),
            "{crate_name}: HpaOptions::default()"
        );
    }};
}

// pins [HPA.OPT.FIELDS] [HPA.OPT.NO_HOOKS]: another default (chunk size, connectivity, rule, weight, smoothing, budget, recording) fails the comparison, and a field more (an agent size, a cell_cost or blocked hook, an algorithm) or less, or of another type, fails to compile the exhaustive pattern.
#[test]
fn hpa_options_fields_and_defaults() {
    hpa_options!(onepath_reference);
    hpa_options!(onepath);
}

macro_rules! voxel_options {
    ($c:ident) => {{
        use $c::*;
        let crate_name = stringify!($c);
        let VoxelOptions {
            connectivity,
            diagonal,
            algorithm,
            cell_cost,
            blocked,
            heuristic_weight,
            iteration_budget,
            record_expansions,
        } = VoxelOptions::default();
        let _: (
            &VoxelConnectivity,
            &DiagonalRule,
            &GridAlgorithm,
            &Option<CellCostFn>,
            &Option<CellBlockedFn>,
            f64,
            u64,
            bool,
        ) = (
            &connectivity,
            &diagonal,
            &algorithm,
            &cell_cost,
            &blocked,
            heuristic_weight,
            iteration_budget,
            record_expansions,
        );
        assert_eq!(
            (
                connectivity,
                diagonal,
                algorithm,
                cell_cost.is_none(),
                blocked.is_none(),
                heuristic_weight.to_bits(),
                iteration_budget,
                record_expansions
            ),
            (
                VoxelConnectivity::TwentySix,
                DiagonalRule::NoneBlocked,
                GridAlgorithm::AStar,
                true,
                true,
                1.0f64.to_bits(),
                0,
                false
            ),
            "{crate_name}: VoxelOptions::default()"
        );
        assert_eq!(
            VoxelConnectivity::default(),
            VoxelConnectivity::TwentySix,
            "{crate_name}"
        );
    }};
}

// pins [VOXEL.OPT.FIELDS]: another default (connectivity, rule, algorithm, a hook, weight, budget, recording) fails the comparison, and a field more (an agent size) or less, or of another type, fails to compile the exhaustive pattern.
#[test]
fn voxel_options_fields_and_defaults() {
    voxel_options!(onepath_reference);
    voxel_options!(onepath);
}

macro_rules! no_state_api {
    ($c:ident) => {{
        use $c::*;
        let grid = Grid::new(4, 3).unwrap();
        let mut bidi = GridBidiSearch::new(&grid, GridOptions::default()).unwrap();
        let _: Absent = bidi.save_state();
        let _: Absent = bidi.save_state_into(&mut Vec::new());
        let _: Absent = bidi.restore_state(&[]);

        let hex = HexGrid::new(4, 3, HexLayout::OddR).unwrap();
        let mut h = HexSearch::new(&hex, GridOptions::default()).unwrap();
        let _: Absent = h.save_state();
        let _: Absent = h.save_state_into(&mut Vec::new());
        let _: Absent = h.restore_state(&[]);

        let voxels = VoxelGrid::new(3, 3, 3, 0).unwrap();
        let mut v = VoxelSearch::new(&voxels, VoxelOptions::default()).unwrap();
        let _: Absent = v.save_state();
        let _: Absent = v.save_state_into(&mut Vec::new());
        let _: Absent = v.restore_state(&[]);

        let mut hierarchy = HpaHierarchy::new(HpaOptions::default()).unwrap();
        let mut s = HpaSearch::new(&grid, &mut hierarchy);
        let _: Absent = s.save_state();
        let _: Absent = s.save_state_into(&mut Vec::new());
        let _: Absent = s.restore_state(&[]);
        // The hierarchy holds no state bytes either ([HPA.SLICED.NOT_SAVED]: it rebuilds).
        let _: Absent = hierarchy.save_state();
        let _: Absent = hierarchy.restore_state(&[]);
    }};
}

// pins [GBIDI.NOT_SAVED] [HEX.SEARCH.NOT_SAVED] [VOXEL.SEARCH.NOT_SAVED] [HPA.SLICED.NOT_SAVED]: a save_state, save_state_into or restore_state method on GridBidiSearch, HexSearch, VoxelSearch, HpaSearch or HpaHierarchy is chosen over the probe trait's, so its result is not `Absent` (or its arguments differ) and the test fails to compile.
#[test]
fn searches_have_no_state_api() {
    no_state_api!(onepath_reference);
    no_state_api!(onepath);
}

macro_rules! borrow_grid {
    ($c:ident) => {{
        use $c::*;
        let crate_name = stringify!($c);
        // The searches' types carry the grid's lifetime: a search that owned (a copy of) its
        // grid would have no lifetime to tie, and these do not compile.
        fn bidi<'g>(g: &'g Grid, o: GridOptions) -> GridBidiSearch<'g> {
            GridBidiSearch::new(g, o).unwrap()
        }
        fn hex<'g>(g: &'g HexGrid, o: GridOptions) -> HexSearch<'g> {
            HexSearch::new(g, o).unwrap()
        }
        fn voxel<'g>(g: &'g VoxelGrid, o: VoxelOptions) -> VoxelSearch<'g> {
            VoxelSearch::new(g, o).unwrap()
        }

        let counting = |calls: &Arc<AtomicU64>| -> CellCostFn {
            let calls = calls.clone();
            Arc::new(move |_from: u32, _to: u32| {
                calls.fetch_add(1, Ordering::SeqCst);
                0.0
            })
        };

        // Hex: the hook is read at each move, so every step that expands asks it again.
        let hg = HexGrid::new(6, 5, HexLayout::EvenR).unwrap();
        let calls = Arc::new(AtomicU64::new(0));
        let mut h = hex(
            &hg,
            GridOptions {
                cell_cost: Some(counting(&calls)),
                ..GridOptions::default()
            },
        );
        h.begin((0, 0), (5, 4)).unwrap();
        let mut seen = calls.load(Ordering::SeqCst);
        for i in 0..4 {
            assert_eq!(
                h.step(1),
                SearchStatus::Running,
                "{crate_name}: hex step {i}"
            );
            let now = calls.load(Ordering::SeqCst);
            assert!(now > seen, "{crate_name}: hex step {i} asked no cell_cost");
            seen = now;
        }
        assert_eq!(h.run(None), SearchStatus::Found, "{crate_name}: hex");

        // Voxel: the same.
        let vg = VoxelGrid::new(4, 4, 4, 0).unwrap();
        let calls = Arc::new(AtomicU64::new(0));
        let mut v = voxel(
            &vg,
            VoxelOptions {
                cell_cost: Some(counting(&calls)),
                ..VoxelOptions::default()
            },
        );
        v.begin((0, 0, 0), (3, 3, 3)).unwrap();
        let mut seen = calls.load(Ordering::SeqCst);
        for i in 0..2 {
            assert_eq!(
                v.step(1),
                SearchStatus::Running,
                "{crate_name}: voxel step {i}"
            );
            let now = calls.load(Ordering::SeqCst);
            assert!(
                now > seen,
                "{crate_name}: voxel step {i} asked no cell_cost"
            );
            seen = now;
        }
        assert_eq!(v.run(None), SearchStatus::Found, "{crate_name}: voxel");

        // Bidirectional: borrowed for its life, mmin and clearance fixed at creation, so the
        // same search begun twice on the unchanged grid repeats itself.
        let mut g = Grid::new(9, 7).unwrap();
        g.set_area_multiplier(1, 0.5).unwrap();
        g.set_cell(4, 3, 1).unwrap();
        g.set_cell(4, 2, WALL).unwrap();
        let mut b = bidi(
            &g,
            GridOptions {
                agent_size: 2,
                record_expansions: true,
                ..GridOptions::default()
            },
        );
        let mut once = || {
            b.begin((0, 0), (7, 5)).unwrap();
            let status = b.run(None);
            (
                status,
                b.path(),
                b.path_cost().to_bits(),
                b.expansions().to_vec(),
                b.meeting_cell(),
            )
        };
        let first = once();
        assert_eq!(first.0, SearchStatus::Found, "{crate_name}: bidi");
        assert_eq!(once(), first, "{crate_name}: bidi begun again");
    }};
}

// pins [GBIDI.GRID] [HEX.SEARCH.GRID] [VOXEL.SEARCH.GRID]: a search type without the grid's lifetime (one that copied or did not hold its grid) fails to compile the signatures, a hex or voxel search that asked its cell_cost hook only when created (not at each move) fails the per-step call count, and a bidirectional search whose second begin on the unchanged grid differs fails the comparison.
#[test]
fn searches_borrow_their_grid() {
    borrow_grid!(onepath_reference);
    borrow_grid!(onepath);
}

macro_rules! bidi_status {
    ($c:ident) => {{
        use $c::*;
        let crate_name = stringify!($c);
        let mut g = Grid::new(8, 6).unwrap();
        // (7, 5) walled in: reachable from nowhere.
        g.set_cell(6, 5, WALL).unwrap();
        g.set_cell(6, 4, WALL).unwrap();
        g.set_cell(7, 4, WALL).unwrap();
        let o = GridOptions {
            record_expansions: true,
            ..GridOptions::default()
        };
        let mut s = GridBidiSearch::new(&g, o).unwrap();
        assert_eq!(s.status(), SearchStatus::NotStarted, "{crate_name}: new");
        assert_eq!(
            s.step(10),
            SearchStatus::NotStarted,
            "{crate_name}: step on new"
        );
        assert_eq!(
            s.run(None),
            SearchStatus::NotStarted,
            "{crate_name}: run on new"
        );
        let flag = AtomicBool::new(false);
        assert_eq!(s.run(Some(&flag)), SearchStatus::NotStarted, "{crate_name}");
        assert_eq!(
            (s.iterations(), s.expanded_count(), s.expansions().len()),
            (0, 0, 0),
            "{crate_name}: new search counters"
        );
        assert!(s.path().is_empty(), "{crate_name}");
        assert_eq!(s.meeting_cell(), None, "{crate_name}");

        let snapshot = |s: &GridBidiSearch| {
            (
                s.status(),
                s.path(),
                s.path_cost().to_bits(),
                s.iterations(),
                s.expanded_count(),
                s.expansions().to_vec(),
                s.meeting_cell(),
            )
        };
        for (goal, end) in [
            ((5, 3), SearchStatus::Found),
            ((7, 5), SearchStatus::NotFound),
        ] {
            s.begin((0, 0), goal).unwrap();
            assert_eq!(s.status(), SearchStatus::Running, "{crate_name}: {goal:?}");
            assert_eq!(s.run(None), end, "{crate_name}: {goal:?}");
            let done = snapshot(&s);
            assert!(done.3 > 0, "{crate_name}: {goal:?} iterations");
            assert_eq!(s.step(5), end, "{crate_name}: step after {end:?}");
            assert_eq!(s.step(0), end, "{crate_name}: step(0) after {end:?}");
            assert_eq!(s.run(None), end, "{crate_name}: run after {end:?}");
            assert_eq!(s.run(Some(&flag)), end, "{crate_name}: run after {end:?}");
            assert_eq!(snapshot(&s), done, "{crate_name}: {end:?} search changed");
        }
        // NotFound at begin (a wall end) is not Running either.
        s.begin((0, 0), (6, 5)).unwrap();
        assert_eq!(
            s.status(),
            SearchStatus::NotFound,
            "{crate_name}: wall goal"
        );
        assert_eq!(s.step(3), SearchStatus::NotFound, "{crate_name}");
        assert_eq!(s.iterations(), 0, "{crate_name}: wall goal iterations");
    }};
}

// pins [GBIDI.STATUS]: a new search that is not NotStarted, or a step or run on a NotStarted, Found or NotFound search that does anything (another status, a counter, the path, the cost, the recorded list or the meeting cell changes) fails an assertion.
#[test]
fn bidi_status_and_idle_calls() {
    bidi_status!(onepath_reference);
    bidi_status!(onepath);
}

macro_rules! bidi_cancel {
    ($c:ident) => {{
        use $c::*;
        let crate_name = stringify!($c);
        // An open 48 x 48 map under Dijkstra: both sides flood it, well over 1,000 iterations.
        let g = Grid::new(48, 48).unwrap();
        let calls = Arc::new(AtomicU64::new(0));
        let trip_at = Arc::new(AtomicU64::new(u64::MAX));
        let flag = Arc::new(AtomicBool::new(false));
        let hook: CellCostFn = {
            let (calls, trip_at, flag) = (calls.clone(), trip_at.clone(), flag.clone());
            Arc::new(move |_from: u32, _to: u32| {
                let n = calls.fetch_add(1, Ordering::SeqCst) + 1;
                if n == trip_at.load(Ordering::SeqCst) {
                    flag.store(true, Ordering::SeqCst);
                }
                0.0
            })
        };
        let o = GridOptions {
            connectivity: Connectivity::Four,
            algorithm: GridAlgorithm::Dijkstra,
            cell_cost: Some(hook),
            record_expansions: true,
            ..GridOptions::default()
        };
        let mut s = GridBidiSearch::new(&g, o).unwrap();
        let outcome = |s: &GridBidiSearch| {
            (
                s.status(),
                s.path(),
                s.path_cost().to_bits(),
                s.iterations(),
                s.expanded_count(),
                s.expansions().to_vec(),
                s.meeting_cell(),
            )
        };
        s.begin((0, 0), (47, 47)).unwrap();
        assert_eq!(s.run(None), SearchStatus::Found, "{crate_name}");
        let whole = outcome(&s);
        let total = whole.3;
        assert!(total > 1200, "{crate_name}: {total} iterations");

        // A flag set before the call: read at 0 iterations done, so nothing is popped, twice;
        // after step(k) the count is of this call, so k = 255, 256, 257 change nothing either.
        for k in [0u64, 1, 255, 256, 257] {
            flag.store(true, Ordering::SeqCst);
            s.begin((0, 0), (47, 47)).unwrap();
            if k > 0 {
                assert_eq!(s.step(k), SearchStatus::Running, "{crate_name}: step({k})");
            }
            assert_eq!(s.iterations(), k, "{crate_name}");
            for again in 0..2 {
                assert_eq!(
                    s.run(Some(&flag)),
                    SearchStatus::Running,
                    "{crate_name}: k {k} cancelled run {again}"
                );
                assert_eq!(
                    s.iterations(),
                    k,
                    "{crate_name}: k {k} cancelled run {again}"
                );
            }
            flag.store(false, Ordering::SeqCst);
            assert_eq!(
                s.run(Some(&flag)),
                SearchStatus::Found,
                "{crate_name}: k {k}"
            );
            assert_eq!(outcome(&s), whole, "{crate_name}: k {k} resumed");
        }

        // A flag set during the call (by the hook, after a few more moves): the run stops at
        // the next multiple of 256 iterations done in this call, whatever was done before it.
        for (k, extra) in [
            (0u64, 10u64),
            (0, 700),
            (100, 10),
            (255, 300),
            (256, 10),
            (257, 5),
        ] {
            flag.store(false, Ordering::SeqCst);
            s.begin((0, 0), (47, 47)).unwrap();
            if k > 0 {
                s.step(k);
            }
            trip_at.store(calls.load(Ordering::SeqCst) + extra, Ordering::SeqCst);
            assert_eq!(
                s.run(Some(&flag)),
                SearchStatus::Running,
                "{crate_name}: k {k} extra {extra}"
            );
            assert!(
                flag.load(Ordering::SeqCst),
                "{crate_name}: the hook set no flag"
            );
            let done = s.iterations() - k;
            assert!(
                done > 0 && done % 256 == 0,
                "{crate_name}: k {k} extra {extra}: {done} iterations done in the cancelled run"
            );
            trip_at.store(u64::MAX, Ordering::SeqCst);
            flag.store(false, Ordering::SeqCst);
            assert_eq!(s.run(Some(&flag)), SearchStatus::Found, "{crate_name}");
            assert_eq!(
                outcome(&s),
                whole,
                "{crate_name}: k {k} extra {extra} resumed"
            );
        }

        // A search whose stop condition holds finishes even when cancelled: with every
        // multiplier at 1e308 the ends' potentials overflow, so begin pushes nothing and the
        // first stop check (before the cancel read) ends it NotFound.
        let mut w = Grid::new(6, 6).unwrap();
        for area in 0..=254u8 {
            w.set_area_multiplier(area, 1e308).unwrap();
        }
        let mut s = GridBidiSearch::new(&w, GridOptions::default()).unwrap();
        s.begin((0, 0), (5, 5)).unwrap();
        assert_eq!(
            s.status(),
            SearchStatus::Running,
            "{crate_name}: overflowing ends"
        );
        flag.store(true, Ordering::SeqCst);
        assert_eq!(
            s.run(Some(&flag)),
            SearchStatus::NotFound,
            "{crate_name}: stop first"
        );
        assert_eq!(s.iterations(), 0, "{crate_name}");
    }};
}

// pins [GBIDI.RUN]: a run that reads the flag at other counts than multiples of 256 iterations done in this call (never, at 0 only, every iteration, 255, counted since begin), returns other than Running with the count unchanged when cancelled, cannot be resumed to the uncancelled outcome, or lets a cancel win over a stop condition that holds, fails an assertion.
#[test]
fn bidi_run_reads_cancel_every_256_iterations() {
    bidi_cancel!(onepath_reference);
    bidi_cancel!(onepath);
}

macro_rules! hpa_restore {
    ($c:ident) => {{
        use $c::*;
        let crate_name = stringify!($c);
        let mut g = Grid::new(16, 12).unwrap();
        for y in 0..9 {
            g.set_cell(7, y, WALL).unwrap();
        }
        let o = HpaOptions {
            chunk_size: 4,
            ..HpaOptions::default()
        };
        let all: Vec<u32> = (0..12).collect();
        let mut h = HpaHierarchy::new(o).unwrap();
        h.refresh(&g);
        assert_eq!(h.rebuilt_chunks(), &all[..], "{crate_name}: first build");
        h.refresh(&g);
        assert!(
            h.rebuilt_chunks().is_empty(),
            "{crate_name}: nothing changed"
        );
        g.set_cell(1, 1, 2).unwrap();
        h.refresh(&g);
        assert_eq!(
            h.rebuilt_chunks(),
            &[0][..],
            "{crate_name}: one dirty chunk"
        );
        let (nodes, edges) = (h.nodes(), h.edges());

        // A restore that changes no cell still counts ([GRID.RESTORE_COUNT]): full rebuild.
        let bytes = g.save_state();
        g.restore_state(&bytes).unwrap();
        h.refresh(&g);
        assert_eq!(
            h.rebuilt_chunks(),
            &all[..],
            "{crate_name}: refresh after a restore"
        );
        assert_eq!((h.nodes(), h.edges()), (nodes, edges), "{crate_name}");
        h.refresh(&g);
        assert!(h.rebuilt_chunks().is_empty(), "{crate_name}: count taken");

        // The same through a search begun again after a restore that changes one cell.
        let mut other = Grid::new(16, 12).unwrap();
        for (i, &a) in g.cells().iter().enumerate() {
            if a != 0 {
                other.set_cell(i % 16, i / 16, a).unwrap();
            }
        }
        other.set_cell(13, 10, 1).unwrap();
        g.restore_state(&other.save_state()).unwrap();
        let mut s = HpaSearch::new(&g, &mut h);
        s.begin((0, 0), (15, 0)).unwrap();
        assert_eq!(s.run(None), SearchStatus::Found, "{crate_name}");
        drop(s);
        assert_eq!(
            h.rebuilt_chunks(),
            &all[..],
            "{crate_name}: begin after a restore"
        );
    }};
}

// pins [HPA.REFRESH.RESTORE] [HPA.SLICED.NOT_SAVED]: a refresh or begin after a successful grid restore (one that changes no cell, or one cell) that rebuilds only the dirty chunks (none, or one) instead of every chunk, or keeps rebuilding once the count was taken, fails an assertion.
#[test]
fn hpa_rebuilds_after_a_grid_restore() {
    hpa_restore!(onepath_reference);
    hpa_restore!(onepath);
}

macro_rules! replan_detach {
    ($c:ident) => {{
        use $c::*;
        let crate_name = stringify!($c);
        let mut g = Grid::new(8, 5).unwrap();
        let o = GridOptions::default();
        let mut r = GridReplanner::new(&mut g, o.clone(), ReplanMode::Lpa, (0, 2), (7, 2)).unwrap();
        // A replanner on another grid whose listener has the same id: untouched by r.
        let mut g2 = Grid::new(8, 5).unwrap();
        let mut r2 =
            GridReplanner::new(&mut g2, o.clone(), ReplanMode::Lpa, (0, 2), (7, 2)).unwrap();
        assert_eq!(r.replan(&g, 0), Ok(SearchStatus::Found), "{crate_name}");
        assert_eq!(r2.replan(&g2, 0), Ok(SearchStatus::Found), "{crate_name}");
        let (path, cost) = (r.path(&g).unwrap(), r.path_cost().to_bits());

        g.set_cell(3, 2, WALL).unwrap();
        assert_eq!(
            r.pending_count(),
            1,
            "{crate_name}: attached, the edit is pending"
        );
        assert_eq!(r.replan(&g, 0), Ok(SearchStatus::Found), "{crate_name}");
        assert_ne!(r.path(&g).unwrap(), path, "{crate_name}: the wall was seen");
        g.set_cell(3, 2, 0).unwrap();
        assert_eq!(r.replan(&g, 0), Ok(SearchStatus::Found), "{crate_name}");
        assert_eq!(r.path_cost().to_bits(), cost, "{crate_name}");

        assert!(r.detach(&mut g), "{crate_name}: detach");
        assert!(!r.detach(&mut g), "{crate_name}: detached already");
        g.set_cell(3, 2, WALL).unwrap();
        g.set_cell(4, 2, WALL).unwrap();
        assert_eq!(
            r.pending_count(),
            0,
            "{crate_name}: a detached replanner sees no edit"
        );
        assert_eq!(r.replan(&g, 0), Ok(SearchStatus::Found), "{crate_name}");
        assert_eq!(r.last_expanded(), 0, "{crate_name}: nothing to do");
        assert_eq!(r.path_cost().to_bits(), cost, "{crate_name}: old plan kept");

        // The other grid's replanner still hears its edits.
        g2.set_cell(3, 2, WALL).unwrap();
        assert_eq!(r2.pending_count(), 1, "{crate_name}: other grid's listener");

        // A dropped replanner's listener does nothing (no panic) when its grid is edited.
        let r3 = GridReplanner::new(&mut g2, o, ReplanMode::DStarLite, (0, 0), (7, 4)).unwrap();
        drop(r3);
        g2.set_cell(5, 1, WALL).unwrap();
        assert_eq!(r2.pending_count(), 2, "{crate_name}");
    }};
}

// pins [REPLAN.API.DETACH]: a detach that does not remove the listener (edits still pending and replanned), returns true twice, or removes another grid's listener, or a dropped replanner's listener that panics on an edit, fails an assertion.
#[test]
fn replanner_detach() {
    replan_detach!(onepath_reference);
    replan_detach!(onepath);
}

macro_rules! replan_grid_restore {
    ($c:ident) => {{
        use $c::*;
        let crate_name = stringify!($c);
        let mut g = Grid::new(9, 6).unwrap();
        g.set_cell(4, 1, WALL).unwrap();
        g.set_cell(4, 2, WALL).unwrap();
        for mode in [ReplanMode::Lpa, ReplanMode::DStarLite] {
            let mut r =
                GridReplanner::new(&mut g, GridOptions::default(), mode, (0, 2), (8, 3)).unwrap();
            assert_eq!(r.replan(&g, 0), Ok(SearchStatus::Found), "{crate_name}");
            let full = r.last_expanded();
            assert!(full > 0, "{crate_name}");
            assert_eq!(r.replan(&g, 0), Ok(SearchStatus::Found), "{crate_name}");
            assert_eq!(r.last_expanded(), 0, "{crate_name}: {mode:?} nothing to do");
            let saved = r.save_state();

            // A restore that changes no cell calls no listener but counts: the replan restarts
            // and plans from scratch, then takes the count.
            let bytes = g.save_state();
            g.restore_state(&bytes).unwrap();
            assert_eq!(r.pending_count(), 0, "{crate_name}");
            assert_eq!(r.replan(&g, 0), Ok(SearchStatus::Found), "{crate_name}");
            assert_eq!(r.last_expanded(), full, "{crate_name}: {mode:?} restarted");
            assert_eq!(r.replan(&g, 0), Ok(SearchStatus::Found), "{crate_name}");
            assert_eq!(r.last_expanded(), 0, "{crate_name}: {mode:?} count taken");

            // A successful restore of the replanner takes the grid's count too.
            g.restore_state(&bytes).unwrap();
            r.restore_state(&g, &saved).unwrap();
            assert_eq!(r.replan(&g, 0), Ok(SearchStatus::Found), "{crate_name}");
            assert_eq!(
                r.last_expanded(),
                0,
                "{crate_name}: {mode:?} restored replanner took the count"
            );
            assert!(r.detach(&mut g), "{crate_name}");
        }
    }};
}

// pins [REPLAN.EDIT.GRID_RESTORE]: a replan that ignores a changed grid restore_count (no restart after a restore that changes no cell), keeps restarting once the count was taken, or a replanner restore that does not take the grid's count, gives another last_expanded and fails an assertion.
#[test]
fn replanner_restarts_after_a_grid_restore() {
    replan_grid_restore!(onepath_reference);
    replan_grid_restore!(onepath);
}
