//! The `grid-search` section ([CONF.CHECK.GRID_SEARCH]): seeded maps of the four kinds, every
//! algorithm / rule / agent size / hook / weight in rotation, each query through every API that
//! applies; every implementation checked against the independent oracle of
//! [`crate::grid::oracle`], candidates against the reference bit for bit, and each tier-2 run
//! sliced and snapshotted (save → restore into a fresh search over a restored grid → finish).

use super::{parallel_cases, Config};
use crate::grid::cases::{apis, grid_case, request, GridCase};
use crate::grid::oracle::MoveGraph;
use crate::grid::{
    first_difference, GridApi, GridOptionsData, GridOutcome, GridReply, GridRequest,
    BUDGET_EXHAUSTED, FOUND, NOT_FOUND,
};
use crate::implementation::Implementation;
use crate::prng::derive_seed;
use crate::report::{Failure, Section};
use indicatif::ProgressBar;

/// Slicing schedules: `(budgets, snapshot after this many calls)`.
pub const SLICES: [(&[u64], Option<usize>); 4] = [
    (&[1], None),
    (&[3], Some(2)),
    (&[2, 7], Some(1)),
    (&[5], Some(3)),
];

/// What the oracle knows about one query.
pub struct Truth {
    /// Exact optimal pair value when costs are pairs; else the f64 Dijkstra distance.
    pub opt: Option<f64>,
    /// The exact optimal pair (uniform grids).
    pub pair: Option<crate::movingai::OctileCost>,
    /// Euclidean-step grid distance (any-angle bound).
    pub euclid: f64,
}

/// What the oracle knows about the query `start -> goal` on the move graph `g`.
pub fn truth(g: &MoveGraph, map_w: u32, start: (u32, u32), goal: (u32, u32)) -> Truth {
    let (s, t) = (
        (start.1 * map_w + start.0) as usize,
        (goal.1 * map_w + goal.0) as usize,
    );
    let euclid = g.euclid_distance(s as u32, t as u32);
    if g.pairs_apply() {
        let pair = g.pair_distance(s as u32, t as u32);
        Truth {
            opt: pair.map(|p| p.value()),
            pair,
            euclid,
        }
    } else {
        let d = g.f64_distance(s as u32, t as u32);
        Truth {
            opt: d.is_finite().then_some(d),
            pair: None,
            euclid,
        }
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

/// The oracle checks of one reply ([CONF.GRID.ORACLE], [CONF.GRID.THETA]); `None` when all hold.
pub fn oracle_problem(
    g: &MoveGraph,
    r: &GridRequest,
    reply: &GridReply,
    t: &Truth,
) -> Option<(String, String, String)> {
    let w = r.map.width;
    let (s, goal) = (r.start.1 * w + r.start.0, r.goal.1 * w + r.goal.0);
    let o = &r.options;
    if r.api == crate::grid::GridApi::Tier1 {
        // [GS.TIER1] [GRID.SPACE.CENTER] one world point per path cell, its centre.
        let [ox, oy, size] = r.map.space.unwrap_or([0.0, 0.0, 1.0]);
        let want: Vec<(u64, u64)> = reply
            .path
            .iter()
            .map(|&c| {
                let (x, y) = (f64::from(c % w), f64::from(c / w));
                (
                    (ox + (x + 0.5) * size).to_bits(),
                    (oy + (y + 0.5) * size).to_bits(),
                )
            })
            .collect();
        if want != reply.points {
            return Some((
                "world points [GRID.SPACE.CENTER]".into(),
                format!("{} cell centres", want.len()),
                format!("{} points, not the centres", reply.points.len()),
            ));
        }
    }
    let theta = o.algorithm >= 4;
    let cost = f64::from_bits(reply.cost_bits);
    // Theta* ignores the cost hook ([GS.THETA.COST]): reachability is over the moves alone.
    let reachable = if theta {
        t.euclid.is_finite()
    } else {
        t.opt.is_some()
    };
    if reply.status == BUDGET_EXHAUSTED {
        return None;
    }
    if (reply.status == FOUND) != reachable || (reply.status != FOUND && reply.status != NOT_FOUND)
    {
        return Some((
            "status against the oracle".into(),
            if reachable { "found" } else { "not found" }.into(),
            format!("status {}", reply.status),
        ));
    }
    if !reachable {
        return (cost != f64::INFINITY || !reply.path.is_empty()).then(|| {
            (
                "NotFound result".into(),
                "cost +inf, empty path".into(),
                format!("cost {cost}, {} cells", reply.path.len()),
            )
        });
    }
    if reply.path.first() != Some(&s) || reply.path.last() != Some(&goal) {
        return Some((
            "path ends".into(),
            format!("{s} .. {goal}"),
            format!(
                "{} .. {}",
                crate::words::opt(reply.path.first(), "no cell"),
                crate::words::opt(reply.path.last(), "no cell")
            ),
        ));
    }
    if theta {
        let mut sum = 0.0;
        for (k, pair) in reply.path.windows(2).enumerate() {
            let (p, q) = (pair[0], pair[1]);
            let (px, py, qx, qy) = (
                (p % w) as i64,
                (p / w) as i64,
                (q % w) as i64,
                (q / w) as i64,
            );
            let adjacent_move =
                (px - qx).abs() <= 1 && (py - qy).abs() <= 1 && g.allowed(px, py, qx - px, qy - py);
            if !adjacent_move && !g.line_of_sight(p, q) {
                return Some((
                    format!("segment {k} ({p} -> {q})"),
                    "in line of sight [GS.LOS] or one allowed move".into(),
                    "neither".into(),
                ));
            }
            sum += g.euclid(p, q);
        }
        if sum.to_bits() != reply.cost_bits {
            return Some((
                "cost vs the sum of segment lengths".into(),
                format!("{sum:?}"),
                format!("{cost:?}"),
            ));
        }
        // Theta* never exceeds the grid distance (the path through grid moves is always a
        // candidate when a cell is closed); Lazy Theta* can, since it fixes a parent only after
        // the pop (fuzz regression lazy-theta-longer-than-grid-79a38c73): for it only the
        // straight-line lower bound holds.
        let (sx, sy) = (i64::from(r.start.0), i64::from(r.start.1));
        let (gx, gy) = (i64::from(r.goal.0), i64::from(r.goal.1));
        let straight = (((gx - sx) * (gx - sx) + (gy - sy) * (gy - sy)) as f64).sqrt();
        // Sums of segment lengths round: 4 diagonal steps give 5.65685424949238 < sqrt(32).
        if cost < straight * (1.0 - 1e-12) {
            return Some((
                "any-angle cost vs the straight-line distance".into(),
                format!(">= {straight:?}"),
                format!("{cost:?}"),
            ));
        }
        if o.algorithm == 4 && cost > t.euclid * o.weight * (1.0 + 1e-9) + 1e-9 {
            return Some((
                "Theta* cost vs the grid-optimal length".into(),
                format!("<= {:?}", t.euclid * o.weight),
                format!("{cost:?}"),
            ));
        }
        return None;
    }
    // Grid paths: every step an allowed move; the path's own cost.
    let mut sum = 0.0;
    let mut pair = crate::movingai::OctileCost::default();
    for (k, step) in reply.path.windows(2).enumerate() {
        let (p, q) = (step[0], step[1]);
        let (px, py, qx, qy) = (
            (p % w) as i64,
            (p / w) as i64,
            (q % w) as i64,
            (q / w) as i64,
        );
        let (dx, dy) = (qx - px, qy - py);
        if dx.abs() > 1 || dy.abs() > 1 || (dx, dy) == (0, 0) || !g.allowed(px, py, dx, dy) {
            return Some((
                format!("path step {k} ({p} -> {q})"),
                "an allowed move [GS.MOVE.*]".into(),
                "not allowed".into(),
            ));
        }
        let diag = dx != 0 && dy != 0;
        let Some(c) = g.move_cost(p, q, diag) else {
            return Some((
                format!("path step {k} ({p} -> {q})"),
                "a move the cost hook allows".into(),
                "forbidden move".into(),
            ));
        };
        sum += c;
        pair = pair.step(diag);
    }
    if !close(sum, cost) {
        return Some((
            "cost vs the path's own cost".into(),
            format!("{sum:?}"),
            format!("{cost:?}"),
        ));
    }
    let opt = t.opt.expect("reachable");
    if o.weight == 1.0 {
        if let Some(p) = t.pair {
            if pair != p {
                return Some((
                    "path length (exact pair)".into(),
                    format!("{}+{}√2", p.straight, p.diagonal),
                    format!("{}+{}√2", pair.straight, pair.diagonal),
                ));
            }
            if (reply.mode == 1 || reply.mode == 3) && reply.cost_bits != p.value().to_bits() {
                return Some((
                    "exact cost of the specialised engine".into(),
                    format!("{:?}", p.value()),
                    format!("{cost:?}"),
                ));
            }
        } else if !close(cost, opt) {
            return Some((
                "optimal cost".into(),
                format!("{opt:?}"),
                format!("{cost:?}"),
            ));
        }
    } else if cost > opt * o.weight * (1.0 + 1e-9) + 1e-9 {
        return Some((
            "weighted cost bound".into(),
            format!("<= {:?}", opt * o.weight),
            format!("{cost:?}"),
        ));
    }
    None
}

/// The slicing checks of a tier-2 request against its unsliced reply ([CONF.GRID.SLICED]).
pub fn sliced_problem(
    full: &GridReply,
    sliced: &GridOutcome,
    snap: bool,
) -> Option<(String, String, String)> {
    let got = match sliced {
        Ok(g) => g,
        Err(e) => return Some(("sliced run".into(), "a result".into(), format!("error {e}"))),
    };
    if snap && !got.snapshot.is_empty() && got.snapshot != got.resaved {
        let i = got
            .snapshot
            .iter()
            .zip(&got.resaved)
            .position(|(a, b)| a != b)
            .unwrap_or(got.snapshot.len().min(got.resaved.len()));
        return Some((
            "save → restore → save".into(),
            format!("equal bytes ({} bytes)", got.snapshot.len()),
            format!("byte {i} differs ({} bytes)", got.resaved.len()),
        ));
    }
    let mut expected = full.clone();
    expected.snapshot = got.snapshot.clone();
    expected.resaved = got.resaved.clone();
    if !got.snapshot.is_empty() && got.expansions.len() < full.expansions.len() {
        // Modes 1 and 3 keep no expansion list across a restore ([GS.HANDLE.RECORD]).
        let tail = &full.expansions[full.expansions.len() - got.expansions.len()..];
        if tail != got.expansions.as_slice() {
            return Some((
                "expansions after the restore".into(),
                "a suffix of the unsliced list".into(),
                "a different list".into(),
            ));
        }
        expected.expansions = got.expansions.clone();
    }
    first_difference(&Ok(expected), sliced)
}

/// The `k`-th (0..4) map of the `movingai` section and its seed.
pub fn movingai_map(config: &Config, k: u64) -> (u64, crate::movingai::MovingAiMap) {
    use crate::grid::cases::map_kind;
    let seed = derive_seed(config.seed, 0x30F1_0000 + k);
    let side = config.movingai_side;
    (
        seed,
        crate::movingai::generate_map(map_kind(k), side, side, seed),
    )
}

/// A MovingAI map as a grid: walls 255, everything else area 0, no multipliers, no space.
pub fn movingai_grid(map: &crate::movingai::MovingAiMap) -> crate::grid::GridMap {
    crate::grid::GridMap {
        width: map.width() as u32,
        height: map.height() as u32,
        cells: crate::grid::cases::cells_of(map),
        multipliers: vec![],
        space: None,
    }
}

/// The maps the `grid-search` and `movingai` sections query, with the labels their failures
/// carry (`grid#<seed>`, `movingai#<seed>`): a port's requests are named by them.
pub fn generated_maps(config: &Config) -> Vec<(String, crate::grid::GridMap)> {
    let base = derive_seed(config.seed, 0x6121D);
    let mut out: Vec<(String, crate::grid::GridMap)> = (0..config.grid_cases)
        .map(|i| {
            let case = grid_case(base, i, 24 + 8 * (i % 3));
            (case.name, case.map)
        })
        .collect();
    if config.movingai_side > 0 {
        for k in 0..4u64 {
            let (seed, map) = movingai_map(config, k);
            out.push((format!("movingai#{seed}"), movingai_grid(&map)));
        }
    }
    out
}

/// Runs the section.
pub fn run(
    all: &[&dyn Implementation],
    config: &Config,
    progress: Option<&ProgressBar>,
) -> Section {
    let base = derive_seed(config.seed, 0x6121D);
    let mut sections = parallel_cases(
        config,
        config.grid_cases,
        &["grid-search"],
        |i, sections| {
            let s = &mut sections[0];
            let case = grid_case(base, i, 24 + 8 * (i % 3));
            run_case(all, &case, s);
            if let Some(p) = progress {
                p.inc(1);
            }
        },
    );
    sections.pop().expect("one section")
}

fn run_case(all: &[&dyn Implementation], case: &GridCase, s: &mut Section) {
    for o in &case.options {
        let g = MoveGraph::new(&case.map, o);
        for (qi, &q) in case.queries.iter().enumerate() {
            let t = truth(&g, case.map.width, q.0, q.1);
            for api in apis(&case.map, o) {
                let req = request(case, o, api, q);
                let variant = format!("{api:?}/{}", o.label());
                let fail =
                    |imp: &dyn Implementation,
                     (what, expected, found): (String, String, String)| {
                        Failure {
                            vector: None,
                            case: Some(case.name.clone()),
                            implementation: imp.name().to_string(),
                            variant: Some(variant.clone()),
                            query: Some(qi),
                            what,
                            expected,
                            found,
                            step: None,
                            clauses: Vec::new(),
                        }
                    };
                let mut reference: Option<GridOutcome> = None;
                for &imp in all {
                    let out = match imp.run_grid(&req) {
                        Ok(o) => o,
                        Err(e) => {
                            s.fail(fail(imp, ("run".into(), "a result".into(), e.to_string())));
                            continue;
                        }
                    };
                    // Oracle.
                    s.record(match &out {
                        Ok(reply) => oracle_problem(&g, &req, reply, &t).map(|p| fail(imp, p)),
                        Err(e) => Some(fail(
                            imp,
                            ("new/begin".into(), "success".into(), format!("error {e}")),
                        )),
                    });
                    // Differential.
                    match &reference {
                        None => reference = Some(out.clone()),
                        Some(r) => s.record(first_difference(r, &out).map(|d| {
                            let mut f = fail(imp, d);
                            f.what = format!("vs {}: {}", all[0].name(), f.what);
                            f
                        })),
                    }
                    let Ok(full) = &out else { continue };
                    if api == GridApi::Tier1 {
                        // Budget one below the full run: BudgetExhausted, a prefix of the list.
                        if full.status == FOUND && full.iterations >= 2 {
                            let mut b = req.clone();
                            b.options.budget = full.iterations - 1;
                            s.record(match imp.run_grid(&b) {
                                Ok(Ok(r))
                                    if r.status == BUDGET_EXHAUSTED
                                        && r.iterations == full.iterations - 1
                                        && full.expansions.starts_with(&r.expansions) =>
                                {
                                    None
                                }
                                other => Some(fail(
                                    imp,
                                    (
                                        format!("tier-1 budget {}", full.iterations - 1),
                                        "BudgetExhausted with a prefix of the expansions".into(),
                                        format!("{other:?}").chars().take(200).collect(),
                                    ),
                                )),
                            });
                        }
                        continue;
                    }
                    for &(budgets, snap) in &SLICES {
                        let mut sl = req.clone();
                        sl.schedule = budgets.to_vec();
                        sl.snapshot_after = snap;
                        let got = imp.run_grid(&sl).unwrap_or_else(|e| Err(e.to_string()));
                        s.record(
                            sliced_problem(full, &got, snap.is_some()).map(|(what, e, f)| {
                                fail(
                                    imp,
                                    (
                                        format!(
                                            "step budgets {budgets:?}{}: {what}",
                                            snap.map(|k| format!(", snapshot after call {k}"))
                                                .unwrap_or_default()
                                        ),
                                        e,
                                        f,
                                    ),
                                )
                            }),
                        );
                    }
                }
            }
        }
    }
}

/// The `movingai` section ([CONF.CHECK.MOVINGAI]): per map kind, a generated map and its
/// scenarios are written in the MovingAI formats, read back (equal), and every scenario is run
/// through tier 1 with each optimal algorithm (A*, Dijkstra, JPS, JPS+) under the MovingAI rule
/// (8-connected, `NoneBlocked`): `Found` with a cost equal bit for bit to the scenario's length.
pub fn movingai(all: &[&dyn Implementation], config: &Config) -> Section {
    use crate::movingai::{generate_scen, MovingAiMap, ScenFile};
    let mut s = Section::new("movingai");
    // Cases: the four maps (ordinals 0-3: both round trips) and the scenarios, numbered across
    // the maps in order ([CONF.CLI.SHARD]).
    let mut scenario_ordinal = 0usize;
    for k in 0..4u64 {
        let map_in_shard = config.shard.contains(k as usize);
        let (seed, map) = movingai_map(config, k);
        let name = format!("generated-{k}.map");
        let text = map.write();
        let back = MovingAiMap::read(&text);
        let fail = |what: String, e: String, f: String| Failure {
            vector: None,
            case: Some(format!("movingai#{seed}")),
            implementation: "harness".into(),
            variant: Some(name.clone()),
            query: None,
            what,
            expected: e,
            found: f,
            step: None,
            clauses: Vec::new(),
        };
        let round_trip = |s: &mut Section, f: Option<Failure>| {
            if map_in_shard {
                s.record(f)
            }
        };
        round_trip(
            &mut s,
            match &back {
                Ok(m) if m == &map && m.write() == text => None,
                Ok(_) => Some(fail(
                    ".map round trip".into(),
                    "the same map and text".into(),
                    "a different map".into(),
                )),
                Err(e) => Some(fail(
                    ".map round trip".into(),
                    "accepted".into(),
                    e.to_string(),
                )),
            },
        );
        let scen = generate_scen(&map, &name, 2, config.movingai_buckets, seed ^ 0x5CE2);
        let stext = scen.write();
        let sback = ScenFile::read(&stext);
        round_trip(
            &mut s,
            match &sback {
                Ok(f) if f == &scen && f.write() == stext => None,
                Ok(_) => Some(fail(
                    ".scen round trip".into(),
                    "the same entries and text".into(),
                    "different entries".into(),
                )),
                Err(e) => Some(fail(
                    ".scen round trip".into(),
                    "accepted".into(),
                    e.to_string(),
                )),
            },
        );
        let Ok(sfile) = sback else { continue };
        let grid = movingai_grid(&map);
        for (qi, e) in sfile.entries.iter().enumerate() {
            scenario_ordinal += 1;
            if !config.shard.contains(scenario_ordinal - 1) {
                continue;
            }
            for algorithm in 0..4u8 {
                let options = GridOptionsData {
                    algorithm,
                    record: false,
                    ..GridOptionsData::default()
                };
                let req = GridRequest {
                    map: grid.clone(),
                    options,
                    api: GridApi::Tier1,
                    start: (e.start_x, e.start_y),
                    goal: (e.goal_x, e.goal_y),
                    schedule: vec![],
                    snapshot_after: None,
                };
                for &imp in all {
                    let got = imp.run_grid(&req);
                    let ok = matches!(&got, Ok(Ok(r)) if r.status == FOUND && r.cost_bits == e.optimal_length.to_bits());
                    s.record((!ok).then(|| Failure {
                        implementation: imp.name().to_string(),
                        query: Some(qi),
                        variant: Some(format!(
                            "{name}/{}",
                            crate::grid::ALGORITHM_NAMES[algorithm as usize]
                        )),
                        ..fail(
                            format!(
                                "scenario {qi} ({},{}) -> ({},{}) optimal length",
                                e.start_x, e.start_y, e.goal_x, e.goal_y
                            ),
                            format!("{:?}", e.optimal_length),
                            match &got {
                                Ok(Ok(r)) => format!(
                                    "status {} cost {:?}",
                                    r.status,
                                    f64::from_bits(r.cost_bits)
                                ),
                                Ok(Err(c)) => format!("error {c}"),
                                Err(h) => h.to_string(),
                            },
                        )
                    }));
                }
            }
        }
    }
    s
}
