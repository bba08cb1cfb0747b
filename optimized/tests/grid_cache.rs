//! The grid-owned search cache (`grid_search::cache`) is invisible: after edits and restores,
//! every algorithm on a grid whose cache was built (and repaired) answers exactly as on a fresh
//! copy of the same grid, and many live search handles share the scratch pool safely.

use onepath::{find_grid_path, Connectivity, DiagonalRule, Grid, GridAlgorithm, GridOptions, WALL};

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
