//! Replanning bench (issue 12, "Speed"): onepath's D* Lite `GridReplanner` after k edits near
//! the current path, against a fresh optimized A* from scratch on the edited grid, and against
//! `condor-pathfinding-grid`'s replanners on the workload its rules allow.
//!
//! Maps (`common/grids.rs`, 1024²): `rooms` (rooms of 15, one-cell walls, doors) and `open`
//! (~600 small rectangular obstacles). Per map `QUERIES` long queries (Manhattan distance >= 512,
//! same component). Per query the replanner is created and planned once (untimed), its state
//! saved; the path of that plan is the "current path".
//!
//! Edits (precomputed, seeded): k distinct cells, each a uniform cell of the current path or one
//! of its 8 neighbours (never the start, the moved start or the goal); a wall becomes passable
//! (area 0), a passable cell a wall, or (terrain workloads only, half of the passable cells)
//! its area toggles 0 <-> 1. An edit set after which the query has no path is redrawn.
//!
//! Groups (every group: `QUERIES` queries per iteration, time per query in the tables):
//! - `replan_<map>_edits_<k>`: 8-connected, no corner cutting, uniform costs (walls only), the
//!   default `GridOptions`. `dstar`: the k `set_cell`s + `replan(0)` + `path()`. `astar`: the k
//!   `set_cell`s + `find_grid_path` with the same options (the specialised engine, mode 1,
//!   asserted).
//! - `replan_<map>_move_<k>`: the same, and the start moves one step along the current path
//!   (`set_start`, D* Lite's km shift) before the replan; A* searches from the new start.
//! - `condor_<map>_<k>`: 4-connected, integer costs (terrain patches of area 1 with multiplier
//!   3, else 1), edits toggling walls and areas. `dstar` and `lpa` (onepath, both modes),
//!   `condor` (`condor_grid::algorithms::d_star_lite::DStarLite`: the k `update_cell` /
//!   `update_cost` calls + `replan()`, which returns the path), `astar` (onepath
//!   `find_grid_path`, Four connectivity; non-uniform multipliers select the generic engine,
//!   mode 2). condor's `GridReplanner` has no start move, so there is no move variant.
//!
//! Every timed iteration does the same work: before each query's timed run (untimed) the
//! previous run's edits are undone with `set_cell` and the replanner is restored from its saved
//! bytes (`restore_state`, which replaces the pending entries the undo queued), so each replan
//! starts from the identical state; condor's replanner has no state bytes and no `Clone`, so it
//! is re-created and `initialize`d on the unedited map (untimed) before each timed run.
//!
//! Correctness before timing (asserted, every group and query): every path is checked move by
//! move and its exact cost recomputed as an integer pair (straight part, diagonal part; see
//! `grids::exact_pair`); all entries' pairs are equal. On the 8-connected maps the costs are
//! `s + d * sqrt(2)` summed in different orders (D* Lite from the goal, A* from the start), so
//! they are compared through the pairs, never as f64; on the 4-connected integer maps every
//! partial sum is an exact integer, so the f64 costs of onepath and condor's usize cost are also
//! asserted identical. The pre-pass prints `bench-stat` lines (mean expansions per query: D*
//! Lite / LPA* `last_expanded()`, A* `expanded_count`, condor `visited_nodes()`), which
//! `scripts/bench-tables replan` puts beside the times.
//!
//! `ONEPATH_BENCH_REVERSE=1` reverses the order of the groups and of the entries in each group.

mod common;

use common::graphs::{reverse_order, Prng};
use common::grids;
use condor_grid::algorithms::d_star_lite::DStarLite as CondorDStarLite;
use condor_grid::{Cell as CCell, Grid as CGrid, GridReplanner as _, Point, SearchRequest};
use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use onepath::{
    find_grid_path, Connectivity, Grid, GridEngine, GridOptions, GridReplanner, GridSearch,
    PathStatus, ReplanMode, SearchStatus, WALL,
};
use std::hint::black_box;
use std::time::{Duration, Instant};

const SIDE: usize = 1024;
const QUERIES: usize = 4;
const KS: [usize; 3] = [1, 10, 100];
/// Multiplier of area 1 on the terrain (condor) workloads.
const TERRAIN_MULT: f64 = 3.0;

#[derive(Clone, Copy, Debug)]
struct Edit {
    x: usize,
    y: usize,
    old: u8,
    new: u8,
}

/// One query on one map: its own grid copy (the replanners' listeners are on it), the
/// replanners and their saved states.
struct Query {
    grid: Grid,
    start: (usize, usize),
    goal: (usize, usize),
    /// The current path: the initial D* Lite plan's.
    path: Vec<u32>,
    dstar: GridReplanner,
    dstar_bytes: Vec<u8>,
    /// Terrain workloads: the LPA* replanner and its state.
    lpa: Option<(GridReplanner, Vec<u8>)>,
}

struct Map {
    name: &'static str,
    terrain: bool,
    opts: GridOptions,
    queries: Vec<Query>,
    /// Terrain workloads: the same map as a condor grid.
    condor: Option<CGrid>,
}

fn xy(w: usize, c: u32) -> (usize, usize) {
    (c as usize % w, c as usize / w)
}

fn build_map(name: &'static str, terrain: bool, seed: u64) -> Map {
    let mut base = match name {
        "rooms" => grids::rooms(SIDE, 15, seed),
        "open" => grids::open(SIDE, seed),
        _ => unreachable!(),
    };
    let mut opts = GridOptions::default();
    if terrain {
        grids::add_terrain(&mut base, 400, 1, seed ^ 0x7E44);
        base.set_area_multiplier(1, TERRAIN_MULT).unwrap();
        opts.connectivity = Connectivity::Four;
    }
    let bytes = base.save_state();
    let walls = base.cells().iter().filter(|&&c| c == WALL).count();
    let t = std::time::Instant::now();
    let mut queries = Vec::new();
    for (start, goal) in grids::long_pairs(&base, QUERIES, SIDE / 2, seed ^ 0x51) {
        let mut grid = Grid::from_state(&bytes).unwrap();
        let mut dstar =
            GridReplanner::new(&mut grid, opts.clone(), ReplanMode::DStarLite, start, goal)
                .unwrap();
        assert_eq!(dstar.replan(&grid, 0).unwrap(), SearchStatus::Found);
        let path = dstar.path(&grid).unwrap();
        let dstar_bytes = dstar.save_state();
        let lpa = terrain.then(|| {
            let mut l =
                GridReplanner::new(&mut grid, opts.clone(), ReplanMode::Lpa, start, goal).unwrap();
            assert_eq!(l.replan(&grid, 0).unwrap(), SearchStatus::Found);
            let b = l.save_state();
            (l, b)
        });
        queries.push(Query {
            grid,
            start,
            goal,
            path,
            dstar,
            dstar_bytes,
            lpa,
        });
    }
    let condor = terrain.then(|| {
        let mut c = CGrid::new(SIDE, SIDE).unwrap();
        for (i, &a) in base.cells().iter().enumerate() {
            let p = Point::new(i % SIDE, i / SIDE);
            if a == WALL {
                c.set_cell(p, CCell::Blocked).unwrap();
            } else if a != 0 {
                let m = base.area_multiplier(a).unwrap();
                c.set_traversal_cost(p, m as usize).unwrap();
            }
        }
        c
    });
    eprintln!(
        "map {name}{}: {SIDE}x{SIDE}, {walls} walls, {} queries (path lengths {:?}, D* Lite state bytes {:?}), built in {:?}",
        if terrain { " (4-connected, terrain)" } else { "" },
        queries.len(),
        queries.iter().map(|q| q.path.len()).collect::<Vec<_>>(),
        queries.iter().map(|q| q.dstar_bytes.len()).collect::<Vec<_>>(),
        t.elapsed()
    );
    Map {
        name,
        terrain,
        opts,
        queries,
        condor,
    }
}

/// The start of a query in a variant: the query's, or one step along the current path.
fn start_of(q: &Query, moved: bool) -> (usize, usize) {
    if moved {
        xy(q.grid.width(), q.path[1])
    } else {
        q.start
    }
}

/// k seeded edits near the current path of `q`, redrawn until the query still has a path.
fn draw_edits(
    q: &mut Query,
    terrain: bool,
    moved: bool,
    opts: &GridOptions,
    k: usize,
    seed: u64,
) -> Vec<Edit> {
    let w = q.grid.width() as isize;
    let h = q.grid.height() as isize;
    let start = start_of(q, moved);
    let forbidden = [q.start, start, q.goal];
    let mut r = Prng(seed);
    loop {
        let mut edits: Vec<Edit> = Vec::new();
        while edits.len() < k {
            let c = q.path[r.below(q.path.len() as u64) as usize];
            let (cx, cy) = xy(w as usize, c);
            let (x, y) = (
                cx as isize + r.below(3) as isize - 1,
                cy as isize + r.below(3) as isize - 1,
            );
            if x < 0 || y < 0 || x >= w || y >= h {
                continue;
            }
            let (x, y) = (x as usize, y as usize);
            if forbidden.contains(&(x, y)) || edits.iter().any(|e| (e.x, e.y) == (x, y)) {
                continue;
            }
            let old = q.grid.cell(x, y).unwrap();
            let new = if old == WALL {
                0
            } else if terrain && r.below(2) == 0 {
                old ^ 1
            } else {
                WALL
            };
            edits.push(Edit { x, y, old, new });
        }
        apply(&mut q.grid, &edits);
        let p = find_grid_path(&q.grid, start, q.goal, opts).unwrap();
        undo(&mut q.grid, &edits);
        if p.status == PathStatus::Found {
            return edits;
        }
    }
}

fn apply(g: &mut Grid, edits: &[Edit]) {
    for e in edits {
        g.set_cell(e.x, e.y, e.new).unwrap();
    }
}

fn undo(g: &mut Grid, edits: &[Edit]) {
    for e in edits.iter().rev() {
        g.set_cell(e.x, e.y, e.old).unwrap();
    }
}

fn condor_apply(r: &mut CondorDStarLite, edits: &[Edit]) {
    for e in edits {
        let p = Point::new(e.x, e.y);
        if e.new == WALL {
            r.update_cell(p, CCell::Blocked);
        } else if e.old == WALL {
            debug_assert_eq!(e.new, 0);
            r.update_cell(p, CCell::Open);
        } else {
            let m = if e.new == 1 { TERRAIN_MULT as usize } else { 1 };
            r.update_cost(p, m).unwrap();
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Engine {
    DStar,
    Lpa,
    Condor,
    AStar,
    AStarRun,
}

impl Engine {
    fn label(self) -> &'static str {
        match self {
            Engine::DStar => "dstar",
            Engine::Lpa => "lpa",
            Engine::Condor => "condor",
            Engine::AStar => "astar",
            Engine::AStarRun => "astar_run",
        }
    }
}

/// One timed run of `engine` on query `q` (its setup untimed): returns the time of the edits
/// plus the search (plus the path), the exact cost pair of the path found, the f64 cost the
/// engine reports, and its expansions.
fn run_once(
    engine: Engine,
    q: &mut Query,
    condor_base: Option<&CGrid>,
    opts: &GridOptions,
    edits: &[Edit],
    moved: bool,
    check: bool,
) -> (Duration, Option<((u64, u64), f64, u64)>) {
    let start = start_of(q, moved);
    let w = q.grid.width();
    let eight = opts.connectivity == Connectivity::Eight;
    let cell = |(x, y): (usize, usize)| (y * w + x) as u32;
    match engine {
        Engine::DStar | Engine::Lpa => {
            let (r, bytes) = match engine {
                Engine::DStar => (&mut q.dstar, &q.dstar_bytes),
                _ => {
                    let (r, b) = q.lpa.as_mut().unwrap();
                    (r, &*b)
                }
            };
            r.restore_state(&q.grid, bytes).unwrap();
            let t = Instant::now();
            apply(&mut q.grid, edits);
            if moved {
                r.set_start(start.0, start.1).unwrap();
            }
            let st = r.replan(&q.grid, 0).unwrap();
            let path = r.path(&q.grid).unwrap();
            let dt = t.elapsed();
            let out = check.then(|| {
                assert_eq!(st, SearchStatus::Found);
                let pair = grids::exact_pair(&q.grid, &path, cell(start), cell(q.goal), eight);
                (pair, r.path_cost(), r.last_expanded())
            });
            black_box(path);
            undo(&mut q.grid, edits);
            (dt, out)
        }
        Engine::AStar => {
            let t = Instant::now();
            apply(&mut q.grid, edits);
            let p = find_grid_path(&q.grid, start, q.goal, opts).unwrap();
            let dt = t.elapsed();
            let out = check.then(|| {
                assert_eq!(p.status, PathStatus::Found);
                let pair = grids::exact_pair(&q.grid, &p.cells, cell(start), cell(q.goal), eight);
                (pair, p.cost, p.expanded_count)
            });
            black_box(p);
            undo(&mut q.grid, edits);
            (dt, out)
        }
        Engine::AStarRun => {
            apply(&mut q.grid, edits);
            let (dt, out) = {
                let mut s = GridSearch::new(&q.grid, opts.clone()).unwrap();
                let t = Instant::now();
                s.begin(start, q.goal).unwrap();
                let st = s.run(None);
                let p = s.path();
                let dt = t.elapsed();
                let out = check.then(|| {
                    assert_eq!(st, SearchStatus::Found);
                    let pair = grids::exact_pair(&q.grid, &p, cell(start), cell(q.goal), eight);
                    (pair, s.path_cost(), s.expanded_count())
                });
                black_box(p);
                (dt, out)
            };
            undo(&mut q.grid, edits);
            (dt, out)
        }
        Engine::Condor => {
            assert!(!moved);
            let req =
                SearchRequest::new(Point::new(start.0, start.1), Point::new(q.goal.0, q.goal.1));
            let mut r = CondorDStarLite::new();
            assert!(r.initialize(condor_base.unwrap(), req).unwrap().is_found());
            let t = Instant::now();
            condor_apply(&mut r, edits);
            let res = r.replan();
            let dt = t.elapsed();
            let out = check.then(|| {
                let o = res.as_ref().unwrap();
                assert!(o.is_found());
                let path: Vec<u32> = o
                    .path()
                    .unwrap()
                    .steps()
                    .iter()
                    .map(|p| cell((p.x, p.y)))
                    .collect();
                // The pair is checked on the onepath grid with the same edits.
                apply(&mut q.grid, edits);
                let pair = grids::exact_pair(&q.grid, &path, cell(start), cell(q.goal), false);
                undo(&mut q.grid, edits);
                (
                    pair,
                    o.path().unwrap().cost() as f64,
                    o.visited_nodes() as u64,
                )
            });
            black_box(res.ok());
            drop(r);
            (dt, out)
        }
    }
}

/// Prints what a fresh A*, a fresh D* Lite and the restored-and-repaired D* Lite report on the
/// edited grid of `q`, then shrinks the edit list to a minimal one that still shows a wrong
/// repaired cost (one edit removed at a time), for a reproducer.
fn diagnose(q: &mut Query, opts: &GridOptions, edits: &[Edit], moved: bool) {
    let start = start_of(q, moved);
    let w = q.grid.width();
    let cell = |(x, y): (usize, usize)| (y * w + x) as u32;
    let goal = q.goal;
    let exact = |g: &Grid, p: &[u32]| {
        let pr = grids::exact_pair(
            g,
            p,
            cell(start),
            cell(goal),
            opts.connectivity == Connectivity::Eight,
        );
        pr.0 as f64 + pr.1 as f64 * std::f64::consts::SQRT_2
    };
    // (repaired g(start), cost of the repaired path, fresh A* cost)
    let trial = |q: &mut Query, ed: &[Edit]| {
        q.dstar.restore_state(&q.grid, &q.dstar_bytes).unwrap();
        apply(&mut q.grid, ed);
        if moved {
            q.dstar.set_start(start.0, start.1).unwrap();
        }
        q.dstar.replan(&q.grid, 0).unwrap();
        let p = q.dstar.path(&q.grid).unwrap();
        let r = (
            q.dstar.path_cost(),
            exact(&q.grid, &p),
            find_grid_path(&q.grid, start, q.goal, opts).unwrap().cost,
        );
        undo(&mut q.grid, ed);
        r
    };
    let bad = |r: (f64, f64, f64)| (r.0 - r.1).abs() > 1e-9 * r.1 || (r.1 - r.2).abs() > 1e-9 * r.2;
    let r = trial(q, edits);
    apply(&mut q.grid, edits);
    let mut fresh_grid = Grid::from_state(&q.grid.save_state()).unwrap();
    undo(&mut q.grid, edits);
    let mut f = GridReplanner::new(
        &mut fresh_grid,
        opts.clone(),
        ReplanMode::DStarLite,
        start,
        q.goal,
    )
    .unwrap();
    f.replan(&fresh_grid, 0).unwrap();
    eprintln!(
        "DIAG start {:?} (moved {moved}) goal {:?}: repaired g(start) {} / its path {} ; fresh A* {} ; fresh D* Lite {}",
        start, q.goal, r.0, r.1, r.2, f.path_cost()
    );
    let mut keep: Vec<Edit> = edits.to_vec();
    let mut i = 0;
    while i < keep.len() {
        let mut less = keep.clone();
        less.remove(i);
        if bad(trial(q, &less)) {
            keep = less;
        } else {
            i += 1;
        }
    }
    let r = trial(q, &keep);
    eprintln!(
        "DIAG minimal edit list ({} edits) still wrong: {:?} -> {r:?}",
        keep.len(),
        keep
    );
    // The repaired state's g and rhs along the returned path (parsed from the state bytes).
    q.dstar.restore_state(&q.grid, &q.dstar_bytes).unwrap();
    apply(&mut q.grid, &keep);
    if moved {
        q.dstar.set_start(start.0, start.1).unwrap();
    }
    q.dstar.replan(&q.grid, 0).unwrap();
    let p = q.dstar.path(&q.grid).unwrap();
    let (km, planned) = parse_planned(&q.dstar.save_state());
    let fresh = find_grid_path(&q.grid, start, q.goal, opts).unwrap();
    undo(&mut q.grid, &keep);
    let show = |label: &str, path: &[u32]| {
        let bad: Vec<_> = path
            .iter()
            .filter_map(|c| {
                let (g, rhs) = planned
                    .get(c)
                    .copied()
                    .unwrap_or((f64::INFINITY, f64::INFINITY));
                (g != rhs).then(|| (xy(w, *c), g, rhs))
            })
            .collect();
        eprintln!(
            "DIAG {label}: {} cells, {} inconsistent (g != rhs): {:?}",
            path.len(),
            bad.len(),
            &bad[..bad.len().min(12)]
        );
    };
    eprintln!("DIAG km {km}, g(start) {:?}", planned.get(&cell(start)));
    show("returned path", &p);
    show("fresh A* path", &fresh.cells);
    eprintln!(
        "DIAG initial path: {:?}",
        q.path.iter().map(|&c| xy(w, c)).collect::<Vec<_>>()
    );
}

/// `km` and the planned cells `(g, rhs)` of D* Lite state bytes (spec/replanning.md §7).
fn parse_planned(b: &[u8]) -> (f64, std::collections::HashMap<u32, (f64, f64)>) {
    let i32_at = |o: usize| i32::from_le_bytes(b[o..o + 4].try_into().unwrap());
    let f64_at = |o: usize| f64::from_le_bytes(b[o..o + 8].try_into().unwrap());
    // Header (8) + width, height (8) + algorithm (1) + area version, start, goal (12).
    let mut o = 8 + 8 + 1 + 12;
    // node_count, mode, start, goal, initialized, found, iterations, expanded, last_expanded.
    o += 4 + 1 + 4 + 4;
    assert_eq!(b[o], 1, "initialized");
    o += 1 + 1 + 8 + 8 + 4;
    let km = f64_at(o);
    o += 8 + 1;
    let pending = i32_at(o) as usize;
    o += 4 + 4 * pending;
    let n = i32_at(o) as usize;
    o += 4;
    let mut m = std::collections::HashMap::new();
    for _ in 0..n {
        m.insert(i32_at(o) as u32, (f64_at(o + 4), f64_at(o + 12)));
        o += 20;
    }
    (km, m)
}

/// A group: one variant (`moved`), one k, on one map, with its precomputed edits per query.
struct Group {
    name: String,
    map: usize,
    moved: bool,
    engines: Vec<Engine>,
    edits: Vec<Vec<Edit>>,
}

fn bench(c: &mut Criterion) {
    let t0 = Instant::now();
    let mut maps = vec![
        build_map("rooms", false, 0xC1),
        build_map("open", false, 0xC2),
        build_map("rooms", true, 0xC1),
        build_map("open", true, 0xC2),
    ];
    let mut groups = Vec::new();
    for (mi, m) in maps.iter_mut().enumerate() {
        let variants: &[bool] = if m.terrain { &[false] } else { &[false, true] };
        for &moved in variants {
            for &k in &KS {
                let name = if m.terrain {
                    format!("condor_{}_{k}", m.name)
                } else {
                    format!(
                        "replan_{}_{}_{k}",
                        m.name,
                        if moved { "move" } else { "edits" }
                    )
                };
                let opts = m.opts.clone();
                let terrain = m.terrain;
                let edits = m
                    .queries
                    .iter_mut()
                    .enumerate()
                    .map(|(qi, q)| {
                        draw_edits(
                            q,
                            terrain,
                            moved,
                            &opts,
                            k,
                            0xED17 ^ (k as u64) << 8 ^ (qi as u64) << 20 ^ moved as u64,
                        )
                    })
                    .collect();
                let engines = if m.terrain {
                    vec![
                        Engine::DStar,
                        Engine::Lpa,
                        Engine::Condor,
                        Engine::AStar,
                        Engine::AStarRun,
                    ]
                } else {
                    vec![Engine::DStar, Engine::AStar, Engine::AStarRun]
                };
                groups.push(Group {
                    name,
                    map: mi,
                    moved,
                    engines,
                    edits,
                });
            }
        }
    }
    // The fresh A* of the uniform maps must be the specialised engine (mode 1).
    for m in &maps {
        let q = &m.queries[0];
        let mut s = GridSearch::new(&q.grid, m.opts.clone()).unwrap();
        s.begin(q.start, q.goal).unwrap();
        let want = if m.terrain {
            GridEngine::GenericAStar
        } else {
            GridEngine::SpecialisedAStar
        };
        assert_eq!(s.engine(), want, "{}", m.name);
        eprintln!(
            "map {}{}: fresh A* engine {:?}",
            m.name,
            if m.terrain { " (terrain)" } else { "" },
            s.engine()
        );
    }

    // Correctness pre-pass: one checked run of every engine on every query of every group.
    for g in &groups {
        let m = &mut maps[g.map];
        let mut line = format!("check {}:", g.name);
        let mut pairs: Vec<Vec<((u64, u64), f64)>> = Vec::new();
        let mut walk_bad = 0usize;
        for &e in &g.engines {
            let mut exp = 0u64;
            let mut time = Duration::ZERO;
            let mut ps = Vec::new();
            for (qi, q) in m.queries.iter_mut().enumerate() {
                let (dt, out) = run_once(
                    e,
                    q,
                    m.condor.as_ref(),
                    &m.opts,
                    &g.edits[qi],
                    g.moved,
                    true,
                );
                let (pair, cost, x) = out.unwrap();
                let exact = pair.0 as f64 + pair.1 as f64 * std::f64::consts::SQRT_2;
                if (cost - exact).abs() > 1e-9 * exact {
                    // The reported cost is checked against the fresh A* below; here the returned
                    // path costs more than the reported cost (see BENCHMARKS.md, replanning).
                    eprintln!(
                        "WARN {} {}: query {qi}: reported cost {cost} but the path it returns costs {exact} ({pair:?})",
                        g.name,
                        e.label()
                    );
                    walk_bad += 1;
                    if std::env::var("ONEPATH_REPLAN_DIAG").is_ok_and(|v| v == "1") {
                        diagnose(q, &m.opts, &g.edits[qi], g.moved);
                    }
                }
                if pair.1 == 0 {
                    assert_eq!(
                        cost,
                        pair.0 as f64,
                        "{} {}: integer cost must be exact",
                        g.name,
                        e.label()
                    );
                }
                exp += x;
                time += dt;
                ps.push((pair, cost));
            }
            let mean = exp as f64 / m.queries.len() as f64;
            println!(
                "bench-stat group={} function={} expanded={mean:.1}",
                g.name,
                e.label()
            );
            line += &format!(
                " {} {:.0} exp/query {:?}/query;",
                e.label(),
                mean,
                time / m.queries.len() as u32
            );
            pairs.push(ps);
        }
        // Every engine's reported cost equals the fresh A*'s exact cost (A*'s path pair); every
        // returned path has A*'s pair unless counted in `walk_bad` above.
        let a = g.engines.iter().position(|&e| e == Engine::AStar).unwrap();
        let mut pair_diff = 0;
        for (i, ps) in pairs.iter().enumerate() {
            for (qi, (want, got)) in pairs[a].iter().zip(ps).enumerate() {
                let exact = want.0 .0 as f64 + want.0 .1 as f64 * std::f64::consts::SQRT_2;
                assert!(
                    (got.1 - exact).abs() <= 1e-9 * exact,
                    "{}: query {qi}: {} reports cost {} but the fresh A* finds {exact}",
                    g.name,
                    g.engines[i].label(),
                    got.1
                );
                if m.terrain {
                    assert_eq!(
                        want.0,
                        got.0,
                        "{}: query {qi}: {}: integer path costs differ",
                        g.name,
                        g.engines[i].label()
                    );
                    assert_eq!(
                        want.1,
                        got.1,
                        "{}: query {qi}: {}: integer costs differ",
                        g.name,
                        g.engines[i].label()
                    );
                }
                pair_diff += (want.0 != got.0) as usize;
            }
        }
        assert_eq!(
            pair_diff, walk_bad,
            "{}: every differing path pair is a walk mismatch",
            g.name
        );
        println!(
            "bench-stat group={} function=walk_mismatch expanded={walk_bad}",
            g.name
        );
        eprintln!(
            "{line} reported costs equal to the fresh A*'s on all {} queries; returned paths costlier than reported: {walk_bad}",
            m.queries.len()
        );
    }
    eprintln!("setup and checks: {:?}", t0.elapsed());

    if reverse_order() {
        groups.reverse();
    }
    for g in &groups {
        let mut engines = g.engines.clone();
        if reverse_order() {
            engines.reverse();
        }
        let mut cg = c.benchmark_group(&g.name);
        cg.sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_millis(1))
            .measurement_time(Duration::from_millis(20))
            .throughput(Throughput::Elements(QUERIES as u64));
        let m = &mut maps[g.map];
        for e in engines {
            cg.bench_function(e.label(), |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        for (qi, q) in m.queries.iter_mut().enumerate() {
                            total += run_once(
                                e,
                                q,
                                m.condor.as_ref(),
                                &m.opts,
                                &g.edits[qi],
                                g.moved,
                                false,
                            )
                            .0;
                        }
                    }
                    total
                })
            });
        }
        cg.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
