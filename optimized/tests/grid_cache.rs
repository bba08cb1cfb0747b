//! The grid-owned search cache (`grid_search::cache`, `voxel_cache`) is invisible: after edits
//! and restores, every algorithm on a grid whose cache was built (and repaired) answers exactly
//! as on a fresh copy of the same grid (square grids with every algorithm, HPA* and the
//! bidirectional search; hex and voxel grids), and many live search handles share the scratch
//! pool safely.

use onepath::{
    find_grid_path, find_grid_path_bidirectional, find_hex_path, find_hpa_path, find_voxel_path,
    Connectivity, DiagonalRule, Grid, GridAlgorithm, GridOptions, HexGrid, HexLayout, HpaOptions,
    VoxelGrid, VoxelOptions, WALL,
};

fn lcg(seed: &mut u64, n: u64) -> u64 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (*seed >> 33) % n
}

fn option_sets() -> Vec<GridOptions> {
    let mut out = Vec::new();
    for algorithm in [
        GridAlgorithm::AStar,
        GridAlgorithm::Dijkstra,
        GridAlgorithm::Jps,
        GridAlgorithm::JpsPlus,
        GridAlgorithm::Theta,
        GridAlgorithm::LazyTheta,
    ] {
        for (connectivity, diagonal, agent_size) in [
            (Connectivity::Eight, DiagonalRule::NoneBlocked, 1),
            (Connectivity::Eight, DiagonalRule::Always, 1),
            (Connectivity::Four, DiagonalRule::NoneBlocked, 1),
            (Connectivity::Eight, DiagonalRule::NoneBlocked, 2),
        ] {
            out.push(GridOptions {
                algorithm,
                connectivity,
                diagonal,
                agent_size,
                record_expansions: true,
                ..GridOptions::default()
            });
        }
    }
    out
}

fn same_as_fresh(grid: &Grid, seed: &mut u64, opts: &[GridOptions]) {
    let fresh = Grid::from_state(&grid.save_state()).unwrap();
    let (w, h) = (grid.width() as u64, grid.height() as u64);
    for o in opts {
        for _ in 0..3 {
            let s = (lcg(seed, w) as usize, lcg(seed, h) as usize);
            let g = (lcg(seed, w) as usize, lcg(seed, h) as usize);
            let a = find_grid_path(grid, s, g, o).unwrap();
            let b = find_grid_path(&fresh, s, g, o).unwrap();
            assert_eq!(a, b, "{o:?} {s:?} -> {g:?}");
        }
    }
}

#[test]
fn edits_and_restores_leave_no_stale_cache() {
    let mut seed = 7u64;
    let opts = option_sets();
    let mut grid = Grid::new(23, 17).unwrap();
    for _ in 0..80 {
        let (x, y) = (lcg(&mut seed, 23) as usize, lcg(&mut seed, 17) as usize);
        grid.set_cell(x, y, WALL).unwrap();
    }
    let saved = grid.save_state();
    same_as_fresh(&grid, &mut seed, &opts);
    for round in 0..12 {
        for _ in 0..1 + round % 4 {
            let (x, y) = (lcg(&mut seed, 23) as usize, lcg(&mut seed, 17) as usize);
            let area = [0u8, 3, WALL][lcg(&mut seed, 3) as usize];
            grid.set_cell(x, y, area).unwrap();
        }
        if round % 3 == 1 {
            // A multiplier change: the cached multiplier table must follow it (and a restore
            // below must bring back the saved one).
            let m = [0.5, 2.0, 3.25][lcg(&mut seed, 3) as usize];
            grid.set_area_multiplier(3, m).unwrap();
        }
        same_as_fresh(&grid, &mut seed, &opts);
        if round % 5 == 4 {
            grid.restore_state(&saved).unwrap();
            same_as_fresh(&grid, &mut seed, &opts);
        }
    }
}

#[test]
fn handles_alive_together_share_the_pool_safely() {
    use onepath::{GridSearch, SearchStatus};
    let mut seed = 3u64;
    let mut grid = Grid::new(64, 64).unwrap();
    for _ in 0..900 {
        let (x, y) = (lcg(&mut seed, 64) as usize, lcg(&mut seed, 64) as usize);
        grid.set_cell(x, y, WALL).unwrap();
    }
    let fresh = Grid::from_state(&grid.save_state()).unwrap();
    for o in option_sets()
        .into_iter()
        .filter(|o| !matches!(o.algorithm, GridAlgorithm::Theta | GridAlgorithm::LazyTheta))
    {
        // More live handles than the pool keeps, stepped in turns, then dropped and made again.
        for _ in 0..2 {
            let ends: Vec<_> = (0..7)
                .map(|_| {
                    let s = (lcg(&mut seed, 64) as usize, lcg(&mut seed, 64) as usize);
                    let g = (lcg(&mut seed, 64) as usize, lcg(&mut seed, 64) as usize);
                    (s, g)
                })
                .collect();
            let mut hs: Vec<_> = ends
                .iter()
                .map(|&(s, g)| {
                    let mut h = GridSearch::new(&grid, o.clone()).unwrap();
                    h.begin(s, g).unwrap();
                    h
                })
                .collect();
            while hs
                .iter_mut()
                .fold(false, |any, h| (h.step(3) == SearchStatus::Running) | any)
            {}
            for (h, &(s, g)) in hs.iter().zip(&ends) {
                let want = find_grid_path(&fresh, s, g, &o).unwrap();
                assert_eq!((h.path(), h.path_cost()), (want.cells, want.cost), "{o:?}");
                assert_eq!(h.expansions(), &want.expanded[..]);
            }
        }
    }
}

// pins [HPA.TIER1] [HPA.REFRESH.EQUAL] [GBIDI.TIER1] [HEX.TIER1] [VOXEL.TIER1]: the grid-kept HPA* hierarchy of find_hpa_path and the pooled scratch of find_grid_path_bidirectional, hex and voxel tier 1: after wall and area edits, multiplier changes and restores, each answers exactly as on a fresh copy (Grid/HexGrid/VoxelGrid::from_state); an HPA* cache that is not marked stale on an edit, restore or multiplier change, or a voxel flat copy not repaired on an edit or not rewritten after a restore, fails it.
#[test]
fn hpa_bidi_hex_voxel_tier1_follow_edits_and_restores() {
    let mut seed = 11u64;
    let (w, h) = (29usize, 21usize);
    let mut grid = Grid::new(w, h).unwrap();
    let mut hex = HexGrid::new(w, h, HexLayout::EvenQ).unwrap();
    let mut vox = VoxelGrid::new(13, 11, 9, 0).unwrap();
    for _ in 0..110 {
        let (x, y) = (
            lcg(&mut seed, w as u64) as usize,
            lcg(&mut seed, h as u64) as usize,
        );
        grid.set_cell(x, y, WALL).unwrap();
        hex.set_cell(x, y, WALL).unwrap();
        let (a, b, c) = (x % 13, y % 11, (x + y) % 9);
        vox.set_voxel(a, b, c, 255).unwrap();
    }
    let hpa: Vec<HpaOptions> = [
        (8, false, Connectivity::Eight),
        (5, true, Connectivity::Four),
    ]
    .into_iter()
    .map(|(chunk_size, smooth, connectivity)| HpaOptions {
        chunk_size,
        smooth,
        connectivity,
        record_expansions: true,
        ..HpaOptions::default()
    })
    .collect();
    let two = [GridAlgorithm::AStar, GridAlgorithm::Dijkstra].map(|algorithm| GridOptions {
        algorithm,
        record_expansions: true,
        ..GridOptions::default()
    });
    let check = |grid: &Grid, hex: &HexGrid, vox: &VoxelGrid, seed: &mut u64| {
        let fresh = Grid::from_state(&grid.save_state()).unwrap();
        let fresh_hex = HexGrid::from_state(&hex.save_state()).unwrap();
        let fresh_vox = VoxelGrid::from_state(&vox.save_state()).unwrap();
        for _ in 0..4 {
            let s = (lcg(seed, w as u64) as usize, lcg(seed, h as u64) as usize);
            let g = (lcg(seed, w as u64) as usize, lcg(seed, h as u64) as usize);
            for o in &hpa {
                let a = find_hpa_path(grid, s, g, o).unwrap();
                assert_eq!(a, find_hpa_path(&fresh, s, g, o).unwrap(), "hpa {o:?}");
            }
            for o in &two {
                let a = find_grid_path_bidirectional(grid, s, g, o).unwrap();
                let b = find_grid_path_bidirectional(&fresh, s, g, o).unwrap();
                assert_eq!(a, b, "bidi {o:?}");
                let a = find_hex_path(hex, s, g, o).unwrap();
                assert_eq!(a, find_hex_path(&fresh_hex, s, g, o).unwrap(), "hex");
                let vo = VoxelOptions {
                    algorithm: o.algorithm,
                    record_expansions: true,
                    ..VoxelOptions::default()
                };
                let (vs, vg) = ((s.0 % 13, s.1 % 11, s.0 % 9), (g.0 % 13, g.1 % 11, g.1 % 9));
                let a = find_voxel_path(vox, vs, vg, &vo).unwrap();
                assert_eq!(
                    a,
                    find_voxel_path(&fresh_vox, vs, vg, &vo).unwrap(),
                    "voxel"
                );
            }
        }
    };
    let (saved, saved_hex, saved_vox) = (grid.save_state(), hex.save_state(), vox.save_state());
    check(&grid, &hex, &vox, &mut seed);
    for round in 0..12 {
        for _ in 0..1 + round % 3 {
            let (x, y) = (
                lcg(&mut seed, w as u64) as usize,
                lcg(&mut seed, h as u64) as usize,
            );
            let area = [0u8, 3, WALL][lcg(&mut seed, 3) as usize];
            grid.set_cell(x, y, area).unwrap();
            hex.set_cell(x, y, area).unwrap();
            vox.set_voxel(x % 13, y % 11, (x * y) % 9, area).unwrap();
        }
        check(&grid, &hex, &vox, &mut seed);
        if round % 4 == 2 {
            // A multiplier change alone (the caches were used since the last edit).
            let m = 1.0 + round as f64 / 4.0;
            grid.set_area_multiplier(3, m).unwrap();
            hex.set_area_multiplier(3, m).unwrap();
            vox.set_area_multiplier(3, m).unwrap();
            check(&grid, &hex, &vox, &mut seed);
        }
        if round % 5 == 4 {
            grid.restore_state(&saved).unwrap();
            hex.restore_state(&saved_hex).unwrap();
            vox.restore_state(&saved_vox).unwrap();
            check(&grid, &hex, &vox, &mut seed);
        }
    }
}

// pins [HPA.REFRESH.REBUILT]: on a sliced search (tier 1's skipped refresh must not leak into it) every `begin` of an HpaSearch refreshes, so on a new hierarchy the first begin rebuilds every chunk and a second begin of the same search on the unchanged grid rebuilds none; a search that skipped the refresh of its second begin (as tier 1's kept hierarchy does) would still list every chunk and fail it.
#[test]
fn a_sliced_hpa_search_refreshes_at_every_begin() {
    use onepath::{HpaHierarchy, HpaSearch};
    let mut grid = Grid::new(20, 12).unwrap();
    grid.set_cell(5, 5, WALL).unwrap();
    let mut h = HpaHierarchy::new(HpaOptions::default()).unwrap();
    {
        let mut s = HpaSearch::new(&grid, &mut h);
        s.begin((0, 0), (19, 11)).unwrap();
        s.run(None);
    }
    assert_eq!(h.rebuilt_chunks(), &[0, 1, 2, 3, 4, 5]);
    let mut h = HpaHierarchy::new(HpaOptions::default()).unwrap();
    {
        let mut s = HpaSearch::new(&grid, &mut h);
        s.begin((0, 0), (19, 11)).unwrap();
        s.run(None);
        s.begin((1, 0), (18, 11)).unwrap();
        s.run(None);
    }
    assert_eq!(h.rebuilt_chunks(), &[] as &[u32]);
}
