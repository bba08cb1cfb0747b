//! Tier-1 grid queries on real game maps (issue 33): MovingAI `.map` files with the scenarios of
//! their `.map.scen` files (start, goal and optimal length from MovingAI's own solver), through
//! `find_grid_path` as a user calls it (no reused handle), every octile algorithm (A*, Dijkstra,
//! JPS, JPS+) of `onepath` and of `onepath-reference`, beside `pathfinding`'s A*,
//! `grid_pathfinding`'s JPS (which precomputes per grid: the fair peer of JPS+) and a plain
//! hand-written A* (integer octile costs, a stamped g array kept across queries).
//!
//! Maps: every `NAME.map` with a `NAME.map.scen` beside it in the folder `ONEPATH_BENCH_MAPS`;
//! without it, the MovingAI maps shipped in the `movingai` crate's tests if cargo has fetched
//! that crate (`$CARGO_HOME/registry/src/*/movingai-*/tests`: `arena.map`, 49 x 49, from Dragon
//! Age: Origins, and `maze512-32-9.map`, 512 x 512). Scenarios are taken evenly from the file,
//! at most `ONEPATH_BENCH_SCENARIOS` (default 200) per map.
//!
//! Checked before timing: `onepath` and the reference agree bit for bit (cost and cells) with
//! every algorithm; the exact octile pair of each peer path is compared with `onepath`'s A* and
//! the differences counted and printed; `onepath`'s lengths against the scenario file's are
//! printed (old files print 5 decimals). Each group runs its entries in the listed order,
//! reversed under `ONEPATH_BENCH_REVERSE=1`; a group's warm-up builds the grid's cache (JPS+
//! tables), so the medians are "after the first query on that grid" (the first query, tables
//! included, is what `onepath-conformance movingai` reports apart).
//!
//! Run: `cargo bench -p onepath-benches --bench real_maps` (see BENCHMARKS.md).

use criterion::{criterion_group, criterion_main, Criterion};
mod common;
mod maps;

use common::{group, Entry};
use maps::{
    grid_pathfinding_grid, grid_pathfinding_path, onepath_grid, pair_of_path, pathfinding_astar,
    reference_grid,
};
use onepath_conformance::movingai::{move_allowed, MovingAiMap, ScenFile, MOVES};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::hint::black_box;
use std::path::{Path, PathBuf};

type Query = ((usize, usize), (usize, usize));

struct Bench {
    name: String,
    map: MovingAiMap,
    grid: onepath::Grid,
    rgrid: onepath_reference::Grid,
    queries: Vec<Query>,
    optimal: Vec<f64>,
}

/// The `(map, scen)` pairs of a folder, sorted by name.
fn pairs_in(dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "map") {
                let scen = PathBuf::from(format!("{}.scen", p.display()));
                if scen.is_file() {
                    out.push((p, scen));
                }
            }
        }
    }
    out.sort();
    out
}

fn map_files() -> Vec<(PathBuf, PathBuf)> {
    if let Ok(dir) = std::env::var("ONEPATH_BENCH_MAPS") {
        return pairs_in(Path::new(&dir));
    }
    let home = std::env::var("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|_| std::env::var("HOME").map(|h| Path::new(&h).join(".cargo")))
        .unwrap_or_default();
    let mut out = Vec::new();
    if let Ok(regs) = std::fs::read_dir(home.join("registry/src")) {
        for reg in regs.flatten() {
            if let Ok(crates) = std::fs::read_dir(reg.path()) {
                for c in crates.flatten() {
                    if c.file_name().to_string_lossy().starts_with("movingai-") {
                        out.extend(pairs_in(&c.path().join("tests")));
                    }
                }
            }
        }
    }
    out.sort();
    out.dedup_by(|a, b| a.0.file_name() == b.0.file_name());
    out
}

fn load(map: &Path, scen: &Path, limit: usize) -> Bench {
    let m = MovingAiMap::read(&std::fs::read(map).expect("map file")).expect("a valid .map");
    let s = ScenFile::read(&std::fs::read(scen).expect("scen file")).expect("a valid .scen");
    let usable: Vec<_> = s
        .entries
        .iter()
        .filter(|e| e.start_x != e.goal_x || e.start_y != e.goal_y)
        .collect();
    let step = usable.len().div_ceil(limit.max(1)).max(1);
    let picked: Vec<_> = usable.iter().step_by(step).collect();
    Bench {
        name: map.file_stem().unwrap().to_string_lossy().into_owned(),
        grid: onepath_grid(&m),
        rgrid: reference_grid(&m),
        queries: picked
            .iter()
            .map(|e| {
                (
                    (e.start_x as usize, e.start_y as usize),
                    (e.goal_x as usize, e.goal_y as usize),
                )
            })
            .collect(),
        optimal: picked.iter().map(|e| e.optimal_length).collect(),
        map: m,
    }
}

const ALGORITHMS: [(
    &str,
    onepath::GridAlgorithm,
    onepath_reference::GridAlgorithm,
); 4] = [
    (
        "astar",
        onepath::GridAlgorithm::AStar,
        onepath_reference::GridAlgorithm::AStar,
    ),
    (
        "dijkstra",
        onepath::GridAlgorithm::Dijkstra,
        onepath_reference::GridAlgorithm::Dijkstra,
    ),
    (
        "jps",
        onepath::GridAlgorithm::Jps,
        onepath_reference::GridAlgorithm::Jps,
    ),
    (
        "jps_plus",
        onepath::GridAlgorithm::JpsPlus,
        onepath_reference::GridAlgorithm::JpsPlus,
    ),
];

fn onepath_batch(b: &Bench, a: onepath::GridAlgorithm) -> Vec<(f64, Vec<u32>)> {
    let o = onepath::GridOptions {
        algorithm: a,
        ..Default::default()
    };
    b.queries
        .iter()
        .map(|&(s, g)| {
            let p = onepath::find_grid_path(&b.grid, s, g, &o).expect("query");
            (p.cost, p.cells)
        })
        .collect()
}

fn reference_batch(b: &Bench, a: onepath_reference::GridAlgorithm) -> Vec<(f64, Vec<u32>)> {
    let o = onepath_reference::GridOptions {
        algorithm: a,
        ..Default::default()
    };
    b.queries
        .iter()
        .map(|&(s, g)| {
            let p = onepath_reference::find_grid_path(&b.rgrid, s, g, &o).expect("query");
            (p.cost, p.cells)
        })
        .collect()
}

fn costs(v: Vec<(f64, Vec<u32>)>) -> Vec<f64> {
    v.into_iter()
        .map(|(c, cells)| {
            black_box(cells);
            c
        })
        .collect()
}

/// Octile distance in integer units (straight 10000, diagonal 14142).
fn octile(a: (usize, usize), b: (usize, usize)) -> u32 {
    let (dx, dy) = (a.0.abs_diff(b.0) as u32, a.1.abs_diff(b.1) as u32);
    let (lo, hi) = (dx.min(dy), dx.max(dy));
    10000 * (hi - lo) + 14142 * lo
}

/// The plain hand-written A*: a binary heap of (f, cell), a generation-stamped g array kept
/// across queries, integer octile costs, MovingAI moves.
struct Plain {
    g: Vec<u32>,
    stamp: Vec<u32>,
    gen: u32,
    heap: BinaryHeap<Reverse<(u32, u32)>>,
}

impl Plain {
    fn new(cells: usize) -> Plain {
        Plain {
            g: vec![0; cells],
            stamp: vec![0; cells],
            gen: 0,
            heap: BinaryHeap::new(),
        }
    }

    fn run(&mut self, m: &MovingAiMap, s: (usize, usize), goal: (usize, usize)) -> f64 {
        let w = m.width();
        self.gen += 1;
        self.heap.clear();
        let si = s.1 * w + s.0;
        self.g[si] = 0;
        self.stamp[si] = self.gen;
        self.heap.push(Reverse((octile(s, goal), si as u32)));
        while let Some(Reverse((f, c))) = self.heap.pop() {
            let c = c as usize;
            let p = (c % w, c / w);
            let gc = self.g[c];
            if f > gc + octile(p, goal) {
                continue;
            }
            if p == goal {
                return gc as f64 / 10000.0;
            }
            for &(dx, dy) in MOVES.iter() {
                if !move_allowed(m, p.0 as i64, p.1 as i64, dx, dy) {
                    continue;
                }
                let q = ((p.0 as i64 + dx) as usize, (p.1 as i64 + dy) as usize);
                let qi = q.1 * w + q.0;
                let ng = gc + if dx != 0 && dy != 0 { 14142 } else { 10000 };
                if self.stamp[qi] != self.gen || ng < self.g[qi] {
                    self.stamp[qi] = self.gen;
                    self.g[qi] = ng;
                    self.heap.push(Reverse((ng + octile(q, goal), qi as u32)));
                }
            }
        }
        f64::INFINITY
    }
}

fn check(b: &Bench, pg: &grid_pathfinding::PathingGrid) {
    let astar = onepath_batch(b, onepath::GridAlgorithm::AStar);
    for (name, a, ra) in ALGORITHMS {
        let mine = onepath_batch(b, a);
        let theirs = reference_batch(b, ra);
        for (q, (x, y)) in mine.iter().zip(&theirs).enumerate() {
            assert!(
                x.0.to_bits() == y.0.to_bits() && x.1 == y.1,
                "{} {name} query {q}: onepath and the reference differ",
                b.name
            );
        }
        for (q, x) in mine.iter().enumerate() {
            assert_eq!(
                x.0.to_bits(),
                astar[q].0.to_bits(),
                "{} {name} query {q}: cost differs from A*",
                b.name
            );
        }
    }
    let w = b.map.width();
    let pair = |cells: &[u32]| {
        let xy: Vec<(usize, usize)> = cells
            .iter()
            .map(|&c| (c as usize % w, c as usize / w))
            .collect();
        pair_of_path(&xy).0
    };
    let (mut pf_diff, mut gp_diff, mut gp_missing, mut file_diff) = (0, 0, 0, 0);
    for (q, &query) in b.queries.iter().enumerate() {
        let mine = pair(&astar[q].1);
        if pair_of_path(&pathfinding_astar(&b.map, query.0, query.1)).0 != mine {
            pf_diff += 1;
        }
        match grid_pathfinding_path(pg, query.0, query.1) {
            None => gp_missing += 1,
            Some(p) => {
                if pair_of_path(&p).0 != mine {
                    gp_diff += 1;
                }
            }
        }
        if (astar[q].0 - b.optimal[q]).abs() > 1e-4 {
            file_diff += 1;
        }
    }
    println!(
        "{}: {}x{}, {} queries; onepath = reference bit for bit with every algorithm; onepath's lengths off the file's by more than 1e-4: {file_diff}; pathfinding A* paths not of onepath's octile pair: {pf_diff}; grid_pathfinding JPS: {gp_missing} missing, {gp_diff} of another pair",
        b.name,
        b.map.width(),
        b.map.height(),
        b.queries.len()
    );
}

fn bench(c: &mut Criterion) {
    let limit = std::env::var("ONEPATH_BENCH_SCENARIOS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let files = map_files();
    if files.is_empty() {
        println!(
            "real_maps: no maps (set ONEPATH_BENCH_MAPS to a folder of NAME.map + NAME.map.scen, or `cargo fetch` a package depending on the movingai crate)"
        );
        return;
    }
    for (map, scen) in files {
        let b = load(&map, &scen, limit);
        let pg = grid_pathfinding_grid(&b.map);
        check(&b, &pg);
        let n = b.queries.len();
        for (name, a, ra) in ALGORITHMS {
            let b = &b;
            let entries: Vec<Entry<'_>> = vec![
                ("onepath", Box::new(move || costs(onepath_batch(b, a)))),
                ("reference", Box::new(move || costs(reference_batch(b, ra)))),
            ];
            group(c, &format!("real/{}/{name}", b.name), n, entries);
        }
        let bref = &b;
        let pgref = &pg;
        let mut plain = Plain::new(b.map.width() * b.map.height());
        let entries: Vec<Entry<'_>> = vec![
            (
                "onepath_astar",
                Box::new(move || costs(onepath_batch(bref, onepath::GridAlgorithm::AStar))),
            ),
            (
                "onepath_jps_plus",
                Box::new(move || costs(onepath_batch(bref, onepath::GridAlgorithm::JpsPlus))),
            ),
            (
                "pathfinding_astar",
                Box::new(move || {
                    bref.queries
                        .iter()
                        .map(|&(s, g)| pathfinding_astar(&bref.map, s, g).len() as f64)
                        .collect()
                }),
            ),
            (
                "grid_pathfinding_jps",
                Box::new(move || {
                    bref.queries
                        .iter()
                        .map(|&(s, g)| {
                            grid_pathfinding_path(pgref, s, g)
                                .map_or(f64::INFINITY, |p| p.len() as f64)
                        })
                        .collect()
                }),
            ),
            (
                "plain_astar",
                Box::new(move || {
                    bref.queries
                        .iter()
                        .map(|&(s, g)| plain.run(&bref.map, s, g))
                        .collect()
                }),
            ),
        ];
        group(c, &format!("real/{}/peers", b.name), n, entries);
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
