//! Named checks of STATE, GRID and GS clauses that no vector can show (issue 35): API shapes and
//! defaults a vector never reads, counters that are not saved, the call pattern of edit listeners
//! and the structural (not semantic) acceptance of search states that no history produces, so no
//! golden recipe can make them ([CONF.STATE.VECTOR]: a search golden is replayed and its restored
//! run compared with the recipe's). Every check runs on both crates and names the crate that
//! fails it.

use std::sync::{Arc, Mutex};

type Log = Arc<Mutex<Vec<(u8, u32, u8, u8)>>>;

macro_rules! listen_edit {
    ($c:ident) => {{
        use $c::*;
        let crate_name = stringify!($c);
        let tagged = |log: &Log, tag: u8| -> CellListener {
            let l = log.clone();
            Box::new(move |i, a, b| l.lock().unwrap().push((tag, i, a, b)))
        };
        // Three listeners on one shared log: calls per changed cell, in the order added.
        let expect = vec![
            (1, 9, 0, 7),
            (2, 9, 0, 7),
            (3, 9, 0, 7),
            (1, 3, 0, 255),
            (2, 3, 0, 255),
            (3, 3, 0, 255),
            (1, 9, 7, 0),
            (2, 9, 7, 0),
            (3, 9, 7, 0),
            (1, 0, 0, 4),
            (3, 0, 0, 4),
        ];
        let log: Log = Arc::default();
        let mut g = Grid::new(4, 3).unwrap();
        g.add_listener(tagged(&log, 1));
        let second = g.add_listener(tagged(&log, 2));
        g.add_listener(tagged(&log, 3));
        g.set_cell(1, 2, 7).unwrap(); // index 9
        g.set_cell(1, 2, 7).unwrap(); // its current value: no edit, nobody called
        g.set_cell(3, 0, 255).unwrap(); // index 3
        g.set_cell(1, 2, 0).unwrap();
        assert!(g.remove_listener(second));
        g.set_cell(0, 0, 4).unwrap();
        assert_eq!(*log.lock().unwrap(), expect, "{crate_name}: Grid");
        assert_eq!(g.version(), 4, "{crate_name}: Grid version");
        let log: Log = Arc::default();
        let mut h = HexGrid::new(4, 3, HexLayout::EvenQ).unwrap();
        h.add_listener(tagged(&log, 1));
        let second = h.add_listener(tagged(&log, 2));
        h.add_listener(tagged(&log, 3));
        h.set_cell(1, 2, 7).unwrap();
        h.set_cell(1, 2, 7).unwrap();
        h.set_cell(3, 0, 255).unwrap();
        h.set_cell(1, 2, 0).unwrap();
        assert!(h.remove_listener(second));
        h.set_cell(0, 0, 4).unwrap();
        assert_eq!(*log.lock().unwrap(), expect, "{crate_name}: HexGrid");
        // Voxels: node index x + size_x * (y + size_y * z); 9 = (1, 0, 1) and 3 = (3, 0, 0) of 4x2x2.
        let log: Log = Arc::default();
        let mut v = VoxelGrid::new(4, 2, 2, 0).unwrap();
        v.add_listener(tagged(&log, 1));
        let second = v.add_listener(tagged(&log, 2));
        v.add_listener(tagged(&log, 3));
        v.set_voxel(1, 0, 1, 7).unwrap();
        v.set_voxel(1, 0, 1, 7).unwrap();
        v.set_voxel(3, 0, 0, 255).unwrap();
        v.set_voxel(1, 0, 1, 0).unwrap();
        assert!(v.remove_listener(second));
        v.set_voxel(0, 0, 0, 4).unwrap();
        assert_eq!(*log.lock().unwrap(), expect, "{crate_name}: VoxelGrid");
    }};
}

// pins [GRID.LISTEN.EDIT]: a listener called for a write of the current value, more than once per changed cell, with (index, new, old), out of the order added, or still after its removal, gives another log.
#[test]
fn edit_listeners_are_called_once_per_changed_cell_in_the_order_added() {
    listen_edit!(onepath_reference);
    listen_edit!(onepath);
}

macro_rules! restore_count {
    ($c:ident) => {{
        use $c::*;
        let crate_name = stringify!($c);
        macro_rules! case {
            ($what:expr, $new:expr, $edit:expr, $from:expr) => {{
                let mut g = $new;
                assert_eq!(g.restore_count(), 0, "{crate_name}: {} new", $what);
                let saved = g.save_state();
                $edit(&mut g);
                g.restore_state(&saved).unwrap();
                assert_eq!(g.restore_count(), 1, "{crate_name}: {} restored", $what);
                g.restore_state(&saved).unwrap(); // nothing differs: still a restore
                assert_eq!(
                    g.restore_count(),
                    2,
                    "{crate_name}: {} restored again",
                    $what
                );
                let mut bad = saved.clone();
                bad.push(0);
                assert!(g.restore_state(&bad).is_err());
                assert_eq!(
                    g.restore_count(),
                    2,
                    "{crate_name}: {} failed restore",
                    $what
                );
                // Not saved: the bytes do not carry it and a new object starts at 0.
                assert_eq!(g.save_state(), saved, "{crate_name}: {}", $what);
                assert_eq!(
                    $from(&saved).restore_count(),
                    0,
                    "{crate_name}: {} from_state",
                    $what
                );
            }};
        }
        case!(
            "Grid",
            Grid::new(3, 2).unwrap(),
            |g: &mut Grid| g.set_cell(0, 0, 5).unwrap(),
            |b: &[u8]| Grid::from_state(b).unwrap()
        );
        case!(
            "HexGrid",
            HexGrid::new(3, 2, HexLayout::OddR).unwrap(),
            |g: &mut HexGrid| g.set_cell(2, 1, 9).unwrap(),
            |b: &[u8]| HexGrid::from_state(b).unwrap()
        );
        case!(
            "VoxelGrid",
            VoxelGrid::new(3, 2, 2, 1).unwrap(),
            |g: &mut VoxelGrid| g.set_voxel(2, 1, 1, 9).unwrap(),
            |b: &[u8]| VoxelGrid::from_state(b).unwrap()
        );
    }};
}

// pins [GRID.RESTORE_COUNT]: a count that does not start at 0, misses a successful restore (one that changes no cell included), counts a failed one, or travels in the bytes (from_state then not 0) fails an assertion.
#[test]
fn restore_count_counts_successful_restores_and_is_not_saved() {
    restore_count!(onepath_reference);
    restore_count!(onepath);
}

macro_rules! option_defaults {
    ($c:ident) => {{
        use $c::*;
        let crate_name = stringify!($c);
        let o = GridOptions::default();
        assert_eq!(
            (
                o.agent_size,
                o.connectivity,
                o.diagonal,
                o.algorithm,
                o.cell_cost.is_none(),
                o.blocked.is_none(),
                o.heuristic_weight.to_bits(),
                o.iteration_budget,
                o.record_expansions,
            ),
            (
                1,
                Connectivity::Eight,
                DiagonalRule::NoneBlocked,
                GridAlgorithm::AStar,
                true,
                true,
                1.0f64.to_bits(),
                0,
                false
            ),
            "{crate_name}: GridOptions::default()"
        );
        assert_eq!(
            [
                GridAlgorithm::AStar as u8,
                GridAlgorithm::Dijkstra as u8,
                GridAlgorithm::Jps as u8,
                GridAlgorithm::JpsPlus as u8,
                GridAlgorithm::Theta as u8,
                GridAlgorithm::LazyTheta as u8,
            ],
            [0, 1, 2, 3, 4, 5],
            "{crate_name}: GridAlgorithm values"
        );
    }};
}

// pins [GS.OPT.FIELDS] [GS.OPT.ALGORITHM]: any other default (agent size, connectivity, rule, algorithm, a hook, weight, budget, recording) or another u8 value of a GridAlgorithm fails the comparison.
#[test]
fn grid_options_defaults_and_algorithm_values() {
    option_defaults!(onepath_reference);
    option_defaults!(onepath);
}

macro_rules! engine_algorithms {
    ($c:ident) => {{
        use $c::*;
        let crate_name = stringify!($c);
        let mut g = Grid::new(9, 7).unwrap();
        for (x, y) in [
            (2, 1),
            (2, 2),
            (2, 3),
            (2, 4),
            (5, 2),
            (5, 3),
            (5, 4),
            (5, 5),
            (6, 2),
        ] {
            g.set_cell(x, y, WALL).unwrap();
        }
        let opts = |algorithm| GridOptions {
            algorithm,
            record_expansions: true,
            ..GridOptions::default()
        };
        let astar_run = |algorithm| -> Result<_, &'static str> {
            let mut s = AStar::new(&g, opts(algorithm)).map_err(|e| e.class())?;
            s.begin((0, 3), (8, 3)).unwrap();
            s.run(None);
            Ok((
                s.status(),
                s.path(),
                s.path_cost().to_bits(),
                s.expansions().to_vec(),
            ))
        };
        let plain = astar_run(GridAlgorithm::AStar).unwrap();
        assert_eq!(plain.0, SearchStatus::Found, "{crate_name}");
        let dijkstra = astar_run(GridAlgorithm::Dijkstra).unwrap();
        assert_eq!(
            (dijkstra.0, dijkstra.2),
            (plain.0, plain.2),
            "{crate_name}: Dijkstra"
        );
        assert_ne!(
            dijkstra.3, plain.3,
            "{crate_name}: Dijkstra expands without the estimate"
        );
        // The handle's fallback: Jps and JpsPlus run as AStar.
        for a in [GridAlgorithm::Jps, GridAlgorithm::JpsPlus] {
            assert_eq!(
                astar_run(a),
                Ok(plain.clone()),
                "{crate_name}: AStar::new({a:?})"
            );
        }
        for a in [GridAlgorithm::Theta, GridAlgorithm::LazyTheta] {
            assert_eq!(
                astar_run(a).err(),
                Some("unsupported_algorithm"),
                "{crate_name}: AStar::new({a:?})"
            );
        }
        let theta_run = |algorithm| -> Result<_, &'static str> {
            let mut s = ThetaSearch::new(&g, opts(algorithm)).map_err(|e| e.class())?;
            s.begin((0, 3), (8, 3)).unwrap();
            s.run(None);
            Ok((s.status(), s.path(), s.path_cost().to_bits()))
        };
        for a in [GridAlgorithm::Theta, GridAlgorithm::LazyTheta] {
            assert_eq!(
                theta_run(a).map(|r| r.0),
                Ok(SearchStatus::Found),
                "{crate_name}: ThetaSearch::new({a:?})"
            );
        }
        for a in [
            GridAlgorithm::AStar,
            GridAlgorithm::Dijkstra,
            GridAlgorithm::Jps,
            GridAlgorithm::JpsPlus,
        ] {
            assert_eq!(
                theta_run(a).err(),
                Some("unsupported_algorithm"),
                "{crate_name}: ThetaSearch::new({a:?})"
            );
        }
    }};
}

// pins [GS.ASTAR.ALGORITHMS] [GS.THETA.ALGORITHMS]: AStar::new rejecting AStar, Dijkstra, Jps or JpsPlus, running Jps/JpsPlus other than as AStar, or accepting Theta/LazyTheta, and ThetaSearch::new accepting anything but Theta/LazyTheta, fail an assertion.
#[test]
fn astar_and_theta_accept_exactly_their_algorithms() {
    engine_algorithms!(onepath_reference);
    engine_algorithms!(onepath);
}

/// A GraphAStar state saved by a search from 0 to 3 over `0 -> 1`, `0 -> 2` (weight 1) after one
/// step, recording on (reference/tests/state_graph.rs builds it field by field). Offsets: status
/// 12, start 21, goal 25, visited count 45, heap count 100.
macro_rules! structural {
    ($c:ident) => {{
        use $c::*;
        let crate_name = stringify!($c);
        let g = CsrGraph::new(4, &[GraphEdge::new(0, 1, 1.0), GraphEdge::new(0, 2, 1.0)]).unwrap();
        let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
        s.set_record_expansions(true);
        s.begin(0, 3).unwrap();
        s.step(1);
        let running = s.save_state();
        assert_eq!(
            (running[12], running[100]),
            (1, 2),
            "{crate_name}: Running, two open nodes"
        );
        // A NotFound search with a non-empty heap, and a Running search whose goal (node 0) is
        // closed: well-formed, impossible, accepted and saved back as read.
        let mut not_found = running.clone();
        not_found[12] = 3;
        let mut goal_closed = running.clone();
        goal_closed[25..29].copy_from_slice(&0i32.to_le_bytes());
        for (what, bytes, status) in [
            (
                "NotFound with open nodes",
                &not_found,
                SearchStatus::NotFound,
            ),
            (
                "Running with the goal closed",
                &goal_closed,
                SearchStatus::Running,
            ),
        ] {
            let mut t = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
            t.set_record_expansions(true);
            assert!(
                t.restore_state(bytes).is_ok(),
                "{crate_name}: {what} rejected"
            );
            assert_eq!(t.status(), status, "{crate_name}: {what}");
            assert_eq!(t.save_state(), *bytes, "{crate_name}: {what} saved back");
            // It cannot index out of range or hang: a run ends.
            let end = t.run(None);
            assert_ne!(end, SearchStatus::Running, "{crate_name}: {what} run");
        }
    }};
}

// pins [STATE.SEARCH.STRUCTURAL]: a restore that rejected a state because it could not arise (a NotFound search with open nodes, a Running search whose goal is closed) fails the is_ok assertion.
#[test]
fn impossible_but_well_formed_search_states_are_accepted() {
    structural!(onepath_reference);
    structural!(onepath);
}

macro_rules! save_into {
    ($c:ident) => {{
        use $c::*;
        let crate_name = stringify!($c);
        let check = |what: &str, want: Vec<u8>, save: &dyn Fn(&mut Vec<u8>)| {
            // A dirty buffer with room: cleared, filled with exactly the bytes, same allocation.
            let mut buf = vec![0xAB; want.len() + 4096];
            let at = buf.as_ptr();
            save(&mut buf);
            assert_eq!(buf, want, "{crate_name}: {what}.save_state_into");
            assert_eq!(
                buf.as_ptr(),
                at,
                "{crate_name}: {what}: the allocation is reused"
            );
            // A short dirty buffer grows to the bytes.
            let mut small = vec![0xCD; 3];
            save(&mut small);
            assert_eq!(
                small, want,
                "{crate_name}: {what}.save_state_into (short buffer)"
            );
        };
        let mut grid = Grid::new(9, 7).unwrap();
        grid.set_cell(4, 2, WALL).unwrap();
        grid.set_cell(4, 3, 2).unwrap();
        grid.set_area_multiplier(2, 1.5).unwrap();
        check("Grid", grid.save_state(), &|b| grid.save_state_into(b));
        let mut hex = HexGrid::new(5, 4, HexLayout::OddQ).unwrap();
        hex.set_cell(1, 1, 3).unwrap();
        check("HexGrid", hex.save_state(), &|b| hex.save_state_into(b));
        let mut vox = VoxelGrid::new(20, 3, 2, 1).unwrap();
        vox.set_voxel(17, 2, 1, 4).unwrap();
        check("VoxelGrid", vox.save_state(), &|b| vox.save_state_into(b));
        let mut graph = Graph::new(3).unwrap();
        graph.add_edge(0, 1, 1.5).unwrap();
        graph.add_edge(1, 2, 2.0).unwrap();
        graph.remove_edge(0).unwrap();
        check("Graph", graph.save_state(), &|b| graph.save_state_into(b));
        let csr =
            CsrGraph::new(4, &[GraphEdge::new(0, 1, 1.0), GraphEdge::new(1, 3, 1.0)]).unwrap();
        let mut ga = GraphAStar::new(&csr, DefaultGraphCost, ZeroGraphHeuristic);
        ga.set_record_expansions(true);
        ga.begin(0, 3).unwrap();
        ga.step(1);
        check("GraphAStar", ga.save_state(), &|b| ga.save_state_into(b));
        let o = |algorithm| GridOptions {
            algorithm,
            ..GridOptions::default()
        };
        let mut a = AStar::new(&grid, o(GridAlgorithm::AStar)).unwrap();
        a.begin((0, 0), (8, 6)).unwrap();
        a.step(4);
        check("AStar", a.save_state(), &|b| a.save_state_into(b));
        let plain = Grid::new(9, 7).unwrap();
        let mut j = JumpSearch::new(&plain, o(GridAlgorithm::Jps)).unwrap();
        j.begin((0, 0), (8, 6)).unwrap();
        j.step(2);
        check("JumpSearch", j.save_state(), &|b| j.save_state_into(b));
        let mut t = ThetaSearch::new(&grid, o(GridAlgorithm::Theta)).unwrap();
        t.begin((0, 0), (8, 6)).unwrap();
        t.step(3);
        check("ThetaSearch", t.save_state(), &|b| t.save_state_into(b));
        for alg in [GridAlgorithm::AStar, GridAlgorithm::Jps] {
            let mut h = GridSearch::new(&plain, o(alg)).unwrap();
            h.begin((0, 0), (8, 6)).unwrap();
            h.step(3);
            check("GridSearch", h.save_state(), &|b| h.save_state_into(b));
        }
    }};
}

// pins [STATE.API.INTO]: a save_state_into that does not clear the buffer, leaves other bytes than save_state, or replaces an allocation that had room, fails an assertion for that kind.
#[test]
fn save_state_into_leaves_the_save_state_bytes_in_the_reused_buffer() {
    save_into!(onepath_reference);
    save_into!(onepath);
}
