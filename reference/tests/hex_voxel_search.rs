//! Hand-checked cases of the hex and voxel searches (spec/hex-search.md, spec/voxel-search.md).

use onepath_reference::{
    find_hex_path, find_voxel_path, DiagonalRule, GridAlgorithm, GridOptions, HexGrid, HexLayout,
    PathStatus, SearchStatus, VoxelConnectivity, VoxelGrid, VoxelOptions, VoxelSearch, WALL,
};
use std::sync::Arc;

const SQRT_2: f64 = std::f64::consts::SQRT_2;
const SQRT_3: f64 = 1.7320508075688772;

fn voxel(c: VoxelConnectivity, d: DiagonalRule) -> VoxelOptions {
    VoxelOptions {
        connectivity: c,
        diagonal: d,
        record_expansions: true,
        ..VoxelOptions::default()
    }
}

/// [VOXEL.COST.BASE] [VOXEL.EST.DISTANCE] Corner to corner of an open 3×3×3 cube.
#[test]
fn an_open_cube_costs_the_lattice_distance_for_each_connectivity() {
    let g = VoxelGrid::new(3, 3, 3, 0).unwrap();
    for (c, cost, len) in [
        (VoxelConnectivity::Six, 6.0, 7),
        (VoxelConnectivity::Eighteen, 3.0 * SQRT_2, 4),
        (VoxelConnectivity::TwentySix, SQRT_3 + SQRT_3, 3),
    ] {
        for algorithm in [GridAlgorithm::AStar, GridAlgorithm::Dijkstra] {
            let o = VoxelOptions {
                algorithm,
                ..voxel(c, DiagonalRule::NoneBlocked)
            };
            let p = find_voxel_path(&g, (0, 0, 0), (2, 2, 2), &o).unwrap();
            assert_eq!(p.status, PathStatus::Found);
            assert!((p.cost - cost).abs() < 1e-12, "{c:?}: {}", p.cost);
            assert_eq!(p.cells.len(), len, "{c:?}");
            assert_eq!(p.expanded.len() as u64, p.expanded_count);
            assert_eq!(p.points[0], (0.5, 0.5, 0.5));
        }
    }
}

/// [VOXEL.DIR.ORDER] With an open world and equal keys, the first expansion's successors come in
/// voxel neighbour order: the path to a face neighbour is that single move.
#[test]
fn the_first_face_move_is_minus_z() {
    let g = VoxelGrid::new(3, 3, 3, 0).unwrap();
    let mut s = VoxelSearch::new(&g, voxel(VoxelConnectivity::Six, DiagonalRule::Always)).unwrap();
    s.begin((1, 1, 1), (1, 1, 0)).unwrap();
    assert_eq!(s.run(None), SearchStatus::Found);
    assert_eq!(s.path(), vec![13, 4]);
    assert_eq!(s.iterations(), 2);
}

/// [VOXEL.MOVE.PASSED] [VOXEL.MOVE.RULE] An edge move past one solid voxel: allowed by `Always`
/// and `AtMostOneBlocked`, not by `NoneBlocked`.
#[test]
fn the_corner_rule_counts_the_passed_voxels() {
    let mut g = VoxelGrid::new(2, 2, 1, 0).unwrap();
    g.set_voxel(1, 0, 0, WALL).unwrap();
    let run = |d| {
        find_voxel_path(
            &g,
            (0, 0, 0),
            (1, 1, 0),
            &voxel(VoxelConnectivity::Eighteen, d),
        )
        .unwrap()
    };
    assert!((run(DiagonalRule::Always).cost - SQRT_2).abs() < 1e-15);
    assert!((run(DiagonalRule::AtMostOneBlocked).cost - SQRT_2).abs() < 1e-15);
    assert_eq!(run(DiagonalRule::NoneBlocked).cost, 2.0);
    // A corner move past two solid voxels of six: only `Always` takes it.
    let mut g = VoxelGrid::new(2, 2, 2, 0).unwrap();
    g.set_voxel(1, 0, 0, WALL).unwrap();
    g.set_voxel(0, 1, 0, WALL).unwrap();
    let corner = |d| {
        find_voxel_path(
            &g,
            (0, 0, 0),
            (1, 1, 1),
            &voxel(VoxelConnectivity::TwentySix, d),
        )
        .unwrap()
        .cost
    };
    assert_eq!(corner(DiagonalRule::Always), SQRT_3);
    assert_eq!(corner(DiagonalRule::AtMostOneBlocked), 1.0 + SQRT_2);
    assert_eq!(corner(DiagonalRule::NoneBlocked), 1.0 + SQRT_2);
}

/// [VOXEL.OPT.VALID] [VOXEL.SEARCH.BEGIN] [VOXEL.TIER1] Errors, unreachable ends and budgets.
#[test]
fn errors_walls_and_budgets() {
    let g = VoxelGrid::new(4, 4, 4, 0).unwrap();
    let bad = VoxelOptions {
        heuristic_weight: 0.5,
        ..VoxelOptions::default()
    };
    let e = VoxelSearch::new(&g, bad).err().unwrap();
    assert_eq!(e.class(), "invalid_options");
    let jps = VoxelOptions {
        algorithm: GridAlgorithm::Jps,
        ..VoxelOptions::default()
    };
    assert_eq!(
        VoxelSearch::new(&g, jps).err().unwrap().class(),
        "unsupported_algorithm"
    );
    let e = find_voxel_path(&g, (0, 0, 0), (0, 0, 4), &VoxelOptions::default()).unwrap_err();
    assert_eq!(e.class(), "cell_out_of_range");
    assert!(e.to_string().contains("goal z = 4"), "{e}");
    let solid = VoxelGrid::new(4, 4, 4, WALL).unwrap();
    let p = find_voxel_path(&solid, (0, 0, 0), (1, 1, 1), &VoxelOptions::default()).unwrap();
    assert_eq!((p.status, p.iterations), (PathStatus::NotFound, 0));
    let budget = VoxelOptions {
        iteration_budget: 2,
        algorithm: GridAlgorithm::Dijkstra,
        ..VoxelOptions::default()
    };
    let p = find_voxel_path(&g, (0, 0, 0), (3, 3, 3), &budget).unwrap();
    assert_eq!((p.status, p.iterations), (PathStatus::BudgetExhausted, 2));
    assert_eq!(p.cost, f64::INFINITY);
}

/// [VOXEL.COST.MOVE] A hook's NaN, negative or infinite extra disallows the move; `-0.0` is 0.
#[test]
fn hook_extras_follow_the_square_rule() {
    let g = VoxelGrid::new(3, 1, 1, 0).unwrap();
    for (extra, found) in [(-0.0, true), (0.5, true), (f64::NAN, false), (-1.0, false)] {
        let o = VoxelOptions {
            cell_cost: Some(Arc::new(move |_, _| extra)),
            ..VoxelOptions::default()
        };
        let p = find_voxel_path(&g, (0, 0, 0), (2, 0, 0), &o).unwrap();
        assert_eq!(p.status == PathStatus::Found, found, "{extra}");
        if found {
            assert_eq!(p.cost, (1.0 + extra) + (1.0 + extra));
        }
    }
}

/// [HEX.MOVE.RULE] [HEX.EST.VALUE] A straight hex line costs its hex distance on every layout,
/// and a wall forces a detour of one step.
#[test]
fn hex_paths_on_every_layout() {
    for layout in [
        HexLayout::OddR,
        HexLayout::EvenR,
        HexLayout::OddQ,
        HexLayout::EvenQ,
    ] {
        let mut g = HexGrid::new(5, 5, layout).unwrap();
        let o = GridOptions {
            record_expansions: true,
            ..GridOptions::default()
        };
        let p = find_hex_path(&g, (0, 2), (4, 2), &o).unwrap();
        assert_eq!(p.status, PathStatus::Found);
        let straight = p.cost;
        assert!(straight <= 4.0, "{layout:?}: {straight}");
        assert_eq!(p.cells.len() as f64, straight + 1.0);
        assert_eq!(p.expanded.len() as u64, p.expanded_count);
        g.set_cell(2, 2, WALL).unwrap();
        let d = find_hex_path(&g, (0, 2), (4, 2), &o).unwrap();
        assert!(d.cost >= straight, "{layout:?}");
        assert!(!d.cells.contains(&12));
    }
}

/// [HEX.OPT.VALID] Agent size must be 1; JPS and Theta* are not hex searches.
#[test]
fn hex_options_are_checked() {
    let g = HexGrid::new(3, 3, HexLayout::OddR).unwrap();
    let big = GridOptions {
        agent_size: 2,
        ..GridOptions::default()
    };
    let e = find_hex_path(&g, (0, 0), (1, 1), &big).unwrap_err();
    assert_eq!(e.class(), "invalid_options");
    assert!(e.to_string().contains("agent_size"), "{e}");
    for algorithm in [GridAlgorithm::Jps, GridAlgorithm::Theta] {
        let o = GridOptions {
            algorithm,
            ..GridOptions::default()
        };
        assert_eq!(
            find_hex_path(&g, (0, 0), (1, 1), &o).unwrap_err().class(),
            "unsupported_algorithm"
        );
    }
    let e = find_hex_path(&g, (3, 0), (1, 1), &GridOptions::default()).unwrap_err();
    assert!(e.to_string().contains("start x = 3"), "{e}");
}
