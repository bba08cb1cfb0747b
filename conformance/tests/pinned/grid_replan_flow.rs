//! Named checks for the kit's MovingAI, grid-search, replanning and flow-field clauses that no
//! other test pinned: the generators redone here from the clauses' text (map kinds, scenarios,
//! buckets), the line and scenario-writer rules, the grid reply's encoding, naming and engines,
//! the grid oracle and slicing checks fed wrong replies, the generated requests' ranges, and the
//! replanning and flow-field oracles fed wrong replies.

use onepath_conformance::checks::grid_search::{oracle_problem, sliced_problem, truth, SLICES};
use onepath_conformance::grid::cases::{apis, grid_case, option_sets};
use onepath_conformance::grid::oracle::MoveGraph;
use onepath_conformance::grid::vectors::encode;
use onepath_conformance::grid::{
    first_difference, GridApi, GridMap, GridOptionsData, GridReply, GridRequest,
};
use onepath_conformance::movingai::*;
use onepath_conformance::prng::{derive_seed, SplitMix64};
use onepath_conformance::{Implementation, ReferenceCrate};

// ------------------------------------------------------------------ MovingAI

/// [CONF.GEN.PRNG] a uniform real: the top 53 bits.
fn unit(rng: &mut SplitMix64) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// [CONF.MOVINGAI.GEN_KINDS] written again from the clause's text (row-major cells).
fn spec_map(kind: MapKind, w: usize, h: usize, seed: u64) -> Vec<u8> {
    let mut rng = SplitMix64::new(seed);
    match kind {
        MapKind::Random { density } => (0..w * h)
            .map(|_| if unit(&mut rng) < density { b'@' } else { b'.' })
            .collect(),
        MapKind::Rooms { room_size: r } => {
            let p = r + 1;
            let mut m: Vec<u8> = (0..w * h)
                .map(|i| {
                    if (i % w) % p == 0 || (i / w) % p == 0 {
                        b'@'
                    } else {
                        b'.'
                    }
                })
                .collect();
            // Vertical lines x = k p (k >= 1), segments top to bottom; then horizontal lines.
            let mut k = 1;
            while k * p < w {
                let mut j = 0;
                while j * p + 1 < h {
                    let (lo, hi) = (j * p + 1, ((j + 1) * p - 1).min(h - 1));
                    if unit(&mut rng) < 0.75 {
                        let y = lo + rng.below((hi - lo + 1) as u64) as usize;
                        m[y * w + k * p] = b'.';
                    }
                    j += 1;
                }
                k += 1;
            }
            let mut k = 1;
            while k * p < h {
                let mut j = 0;
                while j * p + 1 < w {
                    let (lo, hi) = (j * p + 1, ((j + 1) * p - 1).min(w - 1));
                    if unit(&mut rng) < 0.75 {
                        let x = lo + rng.below((hi - lo + 1) as u64) as usize;
                        m[k * p * w + x] = b'.';
                    }
                    j += 1;
                }
                k += 1;
            }
            m
        }
        MapKind::Maze { corridor_width: c } => {
            let p = c + 1;
            let mut m = vec![b'@'; w * h];
            // Lattice cells of c x c at (i p + 1, j p + 1), a wall all round.
            let (nx, ny) = ((w - 1) / p, (h - 1) / p);
            if nx == 0 || ny == 0 {
                return m;
            }
            let mut open = |x0: usize, y0: usize, ww: usize, hh: usize| {
                for y in y0..y0 + hh {
                    for x in x0..x0 + ww {
                        m[y * w + x] = b'.';
                    }
                }
            };
            let mut seen = vec![false; nx * ny];
            let first = rng.below((nx * ny) as u64) as usize;
            seen[first] = true;
            open((first % nx) * p + 1, (first / nx) * p + 1, c, c);
            let mut stack = vec![first];
            while let Some(&cur) = stack.last() {
                let (cx, cy) = ((cur % nx) as i64, (cur / nx) as i64);
                let next: Vec<(i64, i64)> = [(1, 0), (-1, 0), (0, 1), (0, -1)]
                    .into_iter()
                    .map(|(dx, dy)| (cx + dx, cy + dy))
                    .filter(|&(x, y)| {
                        x >= 0
                            && y >= 0
                            && (x as usize) < nx
                            && (y as usize) < ny
                            && !seen[y as usize * nx + x as usize]
                    })
                    .collect();
                if next.is_empty() {
                    stack.pop();
                    continue;
                }
                let (ux, uy) = next[rng.below(next.len() as u64) as usize];
                let (ux, uy) = (ux as usize, uy as usize);
                seen[uy * nx + ux] = true;
                open(ux * p + 1, uy * p + 1, c, c);
                let (cx, cy) = (cx as usize, cy as usize);
                if uy == cy {
                    open(cx.max(ux) * p, cy * p + 1, 1, c);
                } else {
                    open(cx * p + 1, cy.max(uy) * p, c, 1);
                }
                stack.push(uy * nx + ux);
            }
            m
        }
        MapKind::Scattered { count, max_side } => {
            let mut m = vec![b'.'; w * h];
            for _ in 0..count {
                let rw = 1 + rng.below(max_side as u64) as usize;
                let rh = 1 + rng.below(max_side as u64) as usize;
                let x0 = rng.below(w as u64) as usize;
                let y0 = rng.below(h as u64) as usize;
                for y in y0..(y0 + rh).min(h) {
                    for x in x0..(x0 + rw).min(w) {
                        m[y * w + x] = b'T';
                    }
                }
            }
            m
        }
    }
}

// pins [CONF.MOVINGAI.GEN_KINDS]: every kind's map equals, cell for cell, the clause's draws redone
// here (row-major chances, door order and position, maze neighbour order, rectangle draws).
#[test]
fn generated_maps_follow_the_clause_draw_for_draw() {
    let kinds = [
        MapKind::Random { density: 0.25 },
        MapKind::Random { density: 0.6 },
        MapKind::Rooms { room_size: 5 },
        MapKind::Rooms { room_size: 3 },
        MapKind::Maze { corridor_width: 1 },
        MapKind::Maze { corridor_width: 2 },
        MapKind::Scattered {
            count: 12,
            max_side: 4,
        },
    ];
    let mut checked = 0;
    for (k, kind) in kinds.into_iter().enumerate() {
        for (w, h) in [(24, 24), (31, 19), (20, 33), (7, 5)] {
            for seed in [1u64, 77, 1000 + k as u64] {
                let m = generate_map(kind, w, h, seed);
                assert_eq!((m.width(), m.height()), (w, h));
                assert_eq!(
                    m.cells(),
                    spec_map(kind, w, h, seed).as_slice(),
                    "{kind:?} {w}x{h} seed {seed}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 84);
}

/// [CONF.MOVINGAI.GEN_SCEN] written again from the clause's text (the oracle's distances are the
/// kit's, pinned by `movingai.rs`).
fn spec_scen(m: &MovingAiMap, name: &str, per: usize, buckets: u32, seed: u64) -> Vec<ScenEntry> {
    let mut rng = SplitMix64::new(seed);
    let w = m.width();
    let passable: Vec<usize> = (0..m.cells().len())
        .filter(|&i| b".GS".contains(&m.cells()[i]))
        .collect();
    let mut filled: Vec<Vec<ScenEntry>> = vec![Vec::new(); buckets as usize];
    if passable.is_empty() || per == 0 {
        return Vec::new();
    }
    for _ in 0..8 * per * buckets as usize + 16 {
        if filled.iter().all(|b| b.len() >= per) {
            break;
        }
        let s = passable[rng.below(passable.len() as u64) as usize];
        let d = oracle_distances(m, (s % w) as u32, (s / w) as u32);
        for b in 0..buckets as usize {
            if filled[b].len() >= per {
                continue;
            }
            let cands: Vec<(usize, OctileCost)> = d
                .iter()
                .enumerate()
                .filter_map(|(g, c)| c.map(|c| (g, c)))
                .filter(|&(g, c)| g != s && (c.value() / 4.0).floor() as usize == b)
                .collect();
            if cands.is_empty() {
                continue;
            }
            let (g, c) = cands[rng.below(cands.len() as u64) as usize];
            filled[b].push(ScenEntry {
                bucket: b as u32,
                map: name.into(),
                width: w as u32,
                height: m.height() as u32,
                start_x: (s % w) as u32,
                start_y: (s / w) as u32,
                goal_x: (g % w) as u32,
                goal_y: (g / w) as u32,
                optimal_length: c.value(),
            });
        }
    }
    filled.into_iter().flatten().collect()
}

// pins [CONF.MOVINGAI.GEN_SCEN]: the generated scenarios equal, entry for entry, the clause's
// procedure redone here (start draws, per-bucket uniform goals in cell order, attempt limit,
// bucket-sorted output).
#[test]
fn generated_scenarios_follow_the_clause_draw_for_draw() {
    let maps = [
        generate_map(MapKind::Random { density: 0.3 }, 40, 30, 5),
        generate_map(MapKind::Rooms { room_size: 4 }, 33, 27, 6),
        generate_map(MapKind::Maze { corridor_width: 1 }, 25, 25, 7),
        // Few cells: the attempt limit ends the draws before the buckets fill.
        generate_map(MapKind::Random { density: 0.8 }, 9, 9, 8),
    ];
    for (i, m) in maps.iter().enumerate() {
        for (per, buckets, seed) in [(3usize, 10u32, 11u64), (1, 25, 12), (5, 4, 13), (0, 4, 14)] {
            let got = generate_scen(m, "x.map", per, buckets, seed);
            assert_eq!(
                got.entries,
                spec_scen(m, "x.map", per, buckets, seed),
                "map {i}, {per} per bucket, {buckets} buckets, seed {seed}"
            );
        }
    }
}

// pins [CONF.MOVINGAI.BUCKET]: bucket_of is floor(length / 4) at and around the boundaries, and
// every generated entry's bucket is floor(optimalLength / 4) computed here.
#[test]
fn a_bucket_is_the_floor_of_a_quarter_length() {
    for (len, b) in [
        (0.0, 0),
        (3.999_999_999_999_999_6, 0),
        (4.0, 1),
        (7.9, 1),
        (8.0, 2),
        (1.0 + 2.0 * std::f64::consts::SQRT_2, 0),
        (41.0, 10),
        (1e6, 250_000),
    ] {
        assert_eq!(bucket_of(len), b, "{len}");
    }
    let m = generate_map(MapKind::Rooms { room_size: 6 }, 50, 40, 3);
    let s = generate_scen(&m, "r.map", 3, 20, 4);
    assert!(s.entries.len() > 20);
    for e in &s.entries {
        assert_eq!(e.bucket, (e.optimal_length / 4.0).floor() as u32, "{e:?}");
    }
}

// pins [CONF.MOVINGAI.LINES]: one CR before LF or at the end of the text is dropped and only one (a
// second CR stays in the line and fails it), a lone inner CR is text, and a final LF adds no line.
#[test]
fn only_one_carriage_return_is_dropped_per_line() {
    let want = MovingAiMap::read(b"type octile\nheight 1\nwidth 2\nmap\n..\n").unwrap();
    // A CR at the very end of the text (no LF) is dropped.
    assert_eq!(
        MovingAiMap::read(b"type octile\r\nheight 1\r\nwidth 2\r\nmap\r\n..\r").unwrap(),
        want
    );
    // Two CRs before a LF: the second stays, so the header line is wrong.
    let e = MovingAiMap::read(b"type octile\r\r\nheight 1\nwidth 2\nmap\n..\n").unwrap_err();
    assert_eq!((e.line, e.column), (1, 1));
    let e = MovingAiMap::read(b"type octile\nheight 1\nwidth 2\nmap\n..\r\r\n").unwrap_err();
    assert_eq!((e.line, e.column), (5, 3), "{e}");
    // A CR inside a line does not split it.
    let e = MovingAiMap::read(b"type octile\nheight 1\rwidth 2\nmap\n..\n").unwrap_err();
    assert_eq!(e.line, 2);
    // Scenario files split the same way.
    let s = ScenFile::read(b"version 1\r\n0\tm\t1\t1\t0\t0\t0\t0\t1\r").unwrap();
    assert_eq!(s.entries.len(), 1);
    assert_eq!(s.entries[0].optimal_length, 1.0);
    assert!(ScenFile::read(b"version 1\r\r\n").is_err());
    // One final LF adds no line; a second one is a blank (trailing) line.
    assert!(ScenFile::read(b"version 1\n0\tm\t1\t1\t0\t0\t0\t0\t1\n").is_ok());
    assert_eq!(
        ScenFile::read(b"version 1\n0\tm\t1\t1\t0\t0\t0\t0\t1\n\n")
            .unwrap_err()
            .line,
        3
    );
}

// pins [CONF.MOVINGAI.SCEN_FORMAT]: the writer's exact bytes: tab-separated fields, LF-terminated
// lines, lengths as Rust's shortest plain decimal (no exponent) and -0 written 0.
#[test]
fn the_scenario_writer_writes_shortest_plain_decimals() {
    let entry = |len: f64| ScenEntry {
        bucket: 3,
        map: "maps/a b.map".into(),
        width: 5,
        height: 4,
        start_x: 0,
        start_y: 1,
        goal_x: 4,
        goal_y: 3,
        optimal_length: len,
    };
    let text = |len: f64| {
        String::from_utf8(
            ScenFile {
                entries: vec![entry(len)],
            }
            .write(),
        )
        .unwrap()
    };
    assert_eq!(
        text(12.5),
        "version 1\n3\tmaps/a b.map\t5\t4\t0\t1\t4\t3\t12.5\n"
    );
    for (len, written) in [
        (-0.0, "0"),
        (0.0, "0"),
        (1e20, "100000000000000000000"),
        (1e-7, "0.0000001"),
        (0.1, "0.1"),
        (std::f64::consts::SQRT_2, "1.4142135623730951"),
        (7.0, "7"),
    ] {
        assert_eq!(
            text(len),
            format!("version 1\n3\tmaps/a b.map\t5\t4\t0\t1\t4\t3\t{written}\n"),
            "{len:?}"
        );
        let back = ScenFile::read(text(len).as_bytes()).unwrap();
        assert_eq!(
            back.entries[0].optimal_length.to_bits(),
            (len + 0.0).to_bits()
        );
    }
    assert_eq!(ScenFile::default().write(), b"version 1\n");
}

// ------------------------------------------------------------------ grid search

fn open_map(w: u32, h: u32) -> GridMap {
    GridMap {
        width: w,
        height: h,
        cells: vec![0; (w * h) as usize],
        multipliers: vec![],
        space: None,
    }
}

fn sample_reply() -> GridReply {
    GridReply {
        status: 2,
        mode: 1,
        finder: 0,
        algorithm: 0,
        cost_bits: 5.0f64.to_bits(),
        path: vec![0, 1, 2, 3],
        points: vec![(1, 2)],
        expansions: (0..12).map(|i| 30 + i).collect(),
        iterations: 9,
        expanded: 8,
        state: (0..120u8).collect(),
        snapshot: vec![],
        resaved: vec![],
    }
}

// pins [CONF.GRID.REPLY]: the first difference is named by field in the order status, mode, finder,
// algorithm, cost, then the lists by entry (`expansion entry 7`, cell 41 vs 40), the counters and
// `state byte 93`.
#[test]
fn grid_reply_differences_are_named_by_field_and_entry() {
    let a = sample_reply();
    let named = |b: &GridReply| first_difference(&Ok(a.clone()), &Ok(b.clone())).map(|d| d.0);
    assert_eq!(first_difference(&Ok(a.clone()), &Ok(a.clone())), None);
    let mut b = a.clone();
    b.expansions[7] = 40;
    let mut e = a.clone();
    e.expansions[7] = 41;
    assert_eq!(
        first_difference(&Ok(e), &Ok(b.clone())),
        Some((
            "expansion entry 7".into(),
            "cell 41".into(),
            "cell 40".into()
        ))
    );
    let mut b = a.clone();
    b.state[93] ^= 1;
    assert_eq!(named(&b).as_deref(), Some("state byte 93"));
    // Earlier fields are named before later ones.
    let mut b = a.clone();
    b.status = 3;
    b.mode = 2;
    b.cost_bits += 1;
    b.state[0] ^= 1;
    assert_eq!(named(&b).as_deref(), Some("status"));
    b.status = a.status;
    assert_eq!(named(&b).as_deref(), Some("engine mode"));
    b.mode = a.mode;
    b.finder = 1;
    b.algorithm = 1;
    assert_eq!(named(&b).as_deref(), Some("finder"));
    b.finder = a.finder;
    assert_eq!(named(&b).as_deref(), Some("algorithm"));
    b.algorithm = a.algorithm;
    b.path[2] = 9;
    b.iterations += 1;
    assert_eq!(named(&b).as_deref(), Some("cost"));
    b.cost_bits = a.cost_bits;
    assert_eq!(named(&b).as_deref(), Some("path entry 2"));
    b.path = a.path.clone();
    b.expanded += 1;
    assert_eq!(named(&b).as_deref(), Some("iterations"));
    b.iterations = a.iterations;
    assert_eq!(named(&b).as_deref(), Some("expanded count"));
    b.expanded = a.expanded;
    assert_eq!(named(&b).as_deref(), Some("state byte 0"));
    // A shorter list ends first; an error against a reply is a different result.
    let mut b = a.clone();
    b.expansions.truncate(5);
    assert_eq!(
        first_difference(&Ok(a.clone()), &Ok(b)),
        Some((
            "expansion entry 5".into(),
            "cell 35".into(),
            "end of list".into()
        ))
    );
    assert_eq!(
        first_difference(&Ok(a.clone()), &Err("invalid_options".into())).map(|d| d.0),
        Some("result".into())
    );
}

// pins [CONF.GRID.ENCODING]: the canonical bytes equal the clause's layout built here field by
// field (little-endian), an error is 0xFF and its class, and snapshot bytes are left out.
#[test]
fn grid_reply_encoding_is_the_clause_layout() {
    let mut r = sample_reply();
    r.finder = 3;
    r.algorithm = 2;
    r.points = vec![(0x1122, 0x3344), (5, 6)];
    let mut want = vec![2u8, 1, 3, 2];
    want.extend_from_slice(&5.0f64.to_bits().to_le_bytes());
    want.extend_from_slice(&4u32.to_le_bytes());
    for c in [0u32, 1, 2, 3] {
        want.extend_from_slice(&c.to_le_bytes());
    }
    want.extend_from_slice(&2u32.to_le_bytes());
    for v in [0x1122u64, 0x3344, 5, 6] {
        want.extend_from_slice(&v.to_le_bytes());
    }
    want.extend_from_slice(&12u32.to_le_bytes());
    for c in 30u32..42 {
        want.extend_from_slice(&c.to_le_bytes());
    }
    want.extend_from_slice(&9u64.to_le_bytes());
    want.extend_from_slice(&8u64.to_le_bytes());
    want.extend_from_slice(&120u32.to_le_bytes());
    want.extend(0..120u8);
    assert_eq!(encode(&Ok(r.clone())), want);
    r.snapshot = vec![7; 30];
    r.resaved = vec![8; 31];
    assert_eq!(encode(&Ok(r)), want, "snapshot bytes are not encoded");
    let mut e = vec![0xFFu8];
    e.extend_from_slice(b"invalid_size");
    assert_eq!(encode(&Err("invalid_size".into())), e);
}

// pins [CONF.GRID.ENGINES]: tier 1 always; the handle and AStar for A*/Dijkstra; the handle, and
// JumpSearch only when [GS.JUMP.APPLIES] holds, for JPS/JPS+; ThetaSearch for Theta*/Lazy Theta*.
#[test]
fn each_algorithm_runs_through_its_engines() {
    use GridApi::*;
    let uniform = open_map(8, 6);
    let mut areas = open_map(8, 6);
    areas.cells[3] = 1;
    areas.multipliers = vec![(1, 2.0)];
    let o = |algorithm: u8| GridOptionsData {
        algorithm,
        ..GridOptionsData::default()
    };
    for a in [0, 1] {
        assert_eq!(apis(&uniform, &o(a)), [Tier1, Handle, AStar]);
    }
    for a in [2, 3] {
        assert_eq!(apis(&uniform, &o(a)), [Tier1, Handle, Jump]);
        assert_eq!(apis(&areas, &o(a)), [Tier1, Handle], "not uniform");
        let no_jump = [
            GridOptionsData {
                weight: 1.5,
                ..o(a)
            },
            GridOptionsData {
                connectivity: 4,
                ..o(a)
            },
            GridOptionsData {
                diagonal: 1,
                ..o(a)
            },
            GridOptionsData {
                cell_cost: Some(onepath_conformance::grid::CellCostRule::ExtraWhere {
                    modulus: 3,
                    extra: 1.0,
                }),
                ..o(a)
            },
        ];
        for n in no_jump {
            assert_eq!(apis(&uniform, &n), [Tier1, Handle], "{}", n.label());
        }
    }
    for a in [4, 5] {
        assert_eq!(apis(&uniform, &o(a)), [Tier1, Theta]);
    }
}

fn run(req: &GridRequest) -> GridReply {
    ReferenceCrate
        .run_grid(req)
        .expect("the reference runs")
        .expect("a reply")
}

fn request(
    map: GridMap,
    options: GridOptionsData,
    api: GridApi,
    s: (u32, u32),
    g: (u32, u32),
) -> GridRequest {
    GridRequest {
        map,
        options,
        api,
        start: s,
        goal: g,
        schedule: vec![],
        snapshot_after: None,
    }
}

/// The oracle's verdict on `reply` for `req` (the `what` of the problem).
fn verdict(req: &GridRequest, reply: &GridReply) -> Option<String> {
    let g = MoveGraph::new(&req.map, &req.options);
    let t = truth(&g, req.map.width, req.start, req.goal);
    oracle_problem(&g, req, reply, &t).map(|p| p.0)
}

// pins [CONF.GRID.ORACLE]: the oracle accepts the reference's replies and names each wrong one:
// status vs reachability, a NotFound with a cost, wrong world points, a disallowed step, a
// non-optimal pair, an inexact mode-1 cost and a weighted path over w times the optimum.
#[test]
fn the_grid_oracle_rejects_wrong_replies() {
    let (s, g) = ((0, 0), (5, 4));
    let tier1 = request(
        open_map(6, 5),
        GridOptionsData::default(),
        GridApi::Tier1,
        s,
        g,
    );
    let r = run(&tier1);
    assert_eq!(verdict(&tier1, &r), None);
    let mut b = r.clone();
    b.status = 3;
    assert_eq!(
        verdict(&tier1, &b).as_deref(),
        Some("status against the oracle")
    );
    let mut b = r.clone();
    b.points[1].0 ^= 1;
    assert_eq!(
        verdict(&tier1, &b).as_deref(),
        Some("world points [GRID.SPACE.CENTER]")
    );

    let handle = request(
        open_map(6, 5),
        GridOptionsData::default(),
        GridApi::Handle,
        s,
        g,
    );
    let r = run(&handle);
    assert_eq!((r.status, r.mode), (2, 1));
    assert_eq!(verdict(&handle, &r), None);
    // A step of two cells.
    let mut b = r.clone();
    b.path.remove(2);
    assert!(
        verdict(&handle, &b)
            .unwrap_or_default()
            .starts_with("path step 1"),
        "{:?}",
        verdict(&handle, &b)
    );
    // A valid path of nine straight steps, honestly costed, is not the optimal pair 1 + 4√2.
    let mut b = r.clone();
    b.path = vec![0, 1, 2, 3, 4, 5, 11, 17, 23, 29];
    b.cost_bits = 9.0f64.to_bits();
    assert_eq!(
        verdict(&handle, &b).as_deref(),
        Some("path length (exact pair)")
    );
    // Mode 1 must report the pair's exact f64 value.
    let mut b = r.clone();
    b.cost_bits += 1;
    assert_eq!(
        verdict(&handle, &b).as_deref(),
        Some("exact cost of the specialised engine")
    );

    // Unreachable: a wall column.
    let mut walled = open_map(6, 5);
    for y in 0..5 {
        walled.cells[y * 6 + 3] = 255;
    }
    let cut = request(walled, GridOptionsData::default(), GridApi::Handle, s, g);
    let r = run(&cut);
    assert_eq!(r.status, 3);
    assert_eq!(verdict(&cut, &r), None);
    let mut b = r.clone();
    b.cost_bits = 5.0f64.to_bits();
    assert_eq!(verdict(&cut, &b).as_deref(), Some("NotFound result"));
    let mut b = r;
    b.status = 2;
    assert_eq!(
        verdict(&cut, &b).as_deref(),
        Some("status against the oracle")
    );

    // Weight 1.5: a detour of 13 where the optimum is 5.
    let weighted = request(
        open_map(6, 5),
        GridOptionsData {
            weight: 1.5,
            ..GridOptionsData::default()
        },
        GridApi::Handle,
        (0, 0),
        (5, 0),
    );
    let r = run(&weighted);
    assert_eq!(verdict(&weighted, &r), None);
    let mut b = r;
    b.path = vec![0, 6, 12, 18, 24, 25, 26, 27, 28, 29, 23, 17, 11, 5];
    b.cost_bits = 13.0f64.to_bits();
    assert_eq!(
        verdict(&weighted, &b).as_deref(),
        Some("weighted cost bound")
    );
}

// pins [CONF.GRID.THETA]: a segment neither in line of sight nor one move, a cost one ulp off the
// segments' sum, and (Theta* only) a path longer than the grid optimum are each named; Lazy Theta*
// has no such bound.
#[test]
fn the_any_angle_checks_reject_wrong_replies() {
    let theta = |algorithm: u8, map: GridMap, s: (u32, u32), g: (u32, u32)| {
        request(
            map,
            GridOptionsData {
                algorithm,
                ..GridOptionsData::default()
            },
            GridApi::Theta,
            s,
            g,
        )
    };
    let req = theta(4, open_map(9, 7), (0, 0), (8, 6));
    let r = run(&req);
    assert_eq!(verdict(&req, &r), None);
    let mut b = r.clone();
    b.cost_bits += 1;
    assert_eq!(
        verdict(&req, &b).as_deref(),
        Some("cost vs the sum of segment lengths")
    );
    // Through a corner far from the line: valid segments, but 8 + 6 > 10 (the grid optimum is
    // 2 + 6√2 < 14).
    for algorithm in [4u8, 5] {
        let req = theta(algorithm, open_map(9, 7), (0, 0), (8, 6));
        let mut b = run(&req);
        b.path = vec![0, 8, 62];
        b.cost_bits = (8.0f64 + 6.0).to_bits();
        let v = verdict(&req, &b);
        if algorithm == 4 {
            assert_eq!(v.as_deref(), Some("Theta* cost vs the grid-optimal length"));
        } else {
            assert_eq!(v, None, "Lazy Theta* has no grid bound");
        }
    }
    // A segment through a wall.
    let mut walled = open_map(9, 7);
    for y in 0..6 {
        walled.cells[y * 9 + 4] = 255;
    }
    let req = theta(4, walled.clone(), (0, 0), (8, 0));
    let r = run(&req);
    assert_eq!(verdict(&req, &r), None);
    let mut b = r;
    b.path = vec![0, 8];
    b.cost_bits = 8.0f64.to_bits();
    assert_eq!(verdict(&req, &b).as_deref(), Some("segment 0 (0 -> 8)"));
}

// pins [CONF.GRID.SLICED]: the schedules are [1], [3]/2, [2, 7]/1, [5]/3; a sliced reply equal to
// the whole run passes, and a re-save unlike the snapshot, a recorded list that is not a tail, or
// another status, cost or final byte is named.
#[test]
fn the_slicing_check_names_what_a_restore_lost() {
    let want: [(&[u64], Option<usize>); 4] = [
        (&[1], None),
        (&[3], Some(2)),
        (&[2, 7], Some(1)),
        (&[5], Some(3)),
    ];
    assert_eq!(SLICES, want);
    let mut map = open_map(14, 10);
    for y in 0..8 {
        map.cells[y * 14 + 6] = 255;
    }
    let whole = request(
        map,
        GridOptionsData::default(),
        GridApi::Handle,
        (0, 0),
        (13, 2),
    );
    let full = run(&whole);
    assert!(full.iterations > 10);
    let mut snapshots = 0;
    for (budgets, snap) in SLICES {
        let mut sl = whole.clone();
        sl.schedule = budgets.to_vec();
        sl.snapshot_after = snap;
        let got = run(&sl);
        assert_eq!(
            sliced_problem(&full, &Ok(got.clone()), snap.is_some()),
            None
        );
        let named =
            |b: &GridReply| sliced_problem(&full, &Ok(b.clone()), snap.is_some()).map(|p| p.0);
        let mut b = got.clone();
        b.cost_bits += 1;
        assert_eq!(named(&b).as_deref(), Some("cost"));
        let mut b = got.clone();
        b.status = 3;
        assert_eq!(named(&b).as_deref(), Some("status"));
        let mut b = got.clone();
        let last = b.state.len() - 1;
        b.state[last] ^= 1;
        assert_eq!(named(&b), Some(format!("state byte {last}")));
        if snap.is_some() {
            snapshots += 1;
            assert!(!got.snapshot.is_empty());
            let mut b = got.clone();
            b.resaved[0] ^= 1;
            assert_eq!(named(&b).as_deref(), Some("save → restore → save"));
            // Mode 1 records from the restore on: the list is a tail of the whole run's.
            assert!(got.expansions.len() < full.expansions.len());
            let mut b = got.clone();
            b.expansions[0] = u32::MAX;
            assert_eq!(named(&b).as_deref(), Some("expansions after the restore"));
        }
    }
    assert_eq!(snapshots, 3);
}

// pins [CONF.GRID.GEN]: case i's map is generate_map of kind i % 4 with the clause's parameters,
// its side 24 + 8 (i % 3) less 0-4, areas and multipliers, space, six listed option sets and four
// queries are as stated.
#[test]
fn generated_grid_cases_follow_the_clause() {
    let all = option_sets();
    assert_eq!(all.len(), 60);
    for a in 0..6u8 {
        let of: Vec<&GridOptionsData> = all.iter().filter(|o| o.algorithm == a).collect();
        for (c, d) in [(8, 2), (8, 1), (8, 0), (4, 2)] {
            assert!(of.iter().any(|o| o.connectivity == c
                && o.diagonal == d
                && o.agent_size == 1
                && o.cell_cost.is_none()
                && o.blocked.is_none()));
        }
        assert!(of
            .iter()
            .any(|o| o.agent_size == 2 && o.blocked.is_none() && o.record));
        assert!(of.iter().any(|o| o.blocked.is_some() && o.agent_size == 1));
        assert!(of.iter().any(|o| matches!(
            o.cell_cost,
            Some(onepath_conformance::grid::CellCostRule::ExtraWhere { .. })
        )));
        assert!(of.iter().any(|o| matches!(
            o.cell_cost,
            Some(onepath_conformance::grid::CellCostRule::InvalidWhere { .. })
        )));
        assert!(of.iter().any(|o| o.weight == 1.5));
        assert!(of
            .iter()
            .any(|o| !o.record && o.agent_size == 2 && o.blocked.is_some()));
    }
    let base = 0x5EED_u64;
    for i in 0..48usize {
        let side = 24 + 8 * (i % 3) as u32;
        let c = grid_case(base, i, side as usize);
        let seed = derive_seed(base, i as u64);
        assert_eq!(c.name, format!("grid#{seed}"));
        let (w, h) = (c.map.width, c.map.height);
        assert!(
            (side - 4..=side).contains(&w) && (side - 4..=side).contains(&h),
            "{i}: {w}x{h}"
        );
        let kind = match i % 4 {
            0 => MapKind::Random { density: 0.25 },
            1 => MapKind::Rooms { room_size: 5 },
            2 => MapKind::Maze { corridor_width: 2 },
            _ => MapKind::Scattered {
                count: 12,
                max_side: 4,
            },
        };
        let m = generate_map(kind, w as usize, h as usize, seed);
        let areas = i % 4 == 1 || i % 8 == 2 || i % 8 == 6;
        let mut with_area = 0;
        for (k, &cell) in c.map.cells.iter().enumerate() {
            let passable = is_passable_char(m.cells()[k]);
            assert_eq!(cell == 255, !passable, "{i}: cell {k}");
            if passable && cell != 0 {
                assert!(
                    areas && (1..=4).contains(&cell),
                    "{i}: cell {k} area {cell}"
                );
                with_area += 1;
            }
        }
        let open = c.map.cells.iter().filter(|&&v| v != 255).count();
        if areas {
            let share = with_area as f64 / open as f64;
            assert!((0.2..0.4).contains(&share), "{i}: {share}");
            let want: Vec<(u8, f64)> = if i % 8 == 6 {
                vec![(1, 0.1), (2, 1e308), (3, 1.7e308), (4, 3.0)]
            } else {
                vec![(1, 0.5), (2, 2.0), (3, 3.25), (4, 1.0)]
            };
            assert_eq!(c.map.multipliers, want, "{i}");
        } else {
            assert!(c.map.multipliers.is_empty(), "{i}");
        }
        assert_eq!(c.map.space.is_some(), i % 3 == 0, "{i}");
        assert_eq!(c.options.len(), 6);
        assert!(c.options.iter().all(|o| all.contains(o)));
        assert_eq!(c.queries.len(), 4);
        assert_eq!(
            c.queries[3],
            (c.queries[0].0, c.queries[0].0),
            "start = goal"
        );
        if open > 0 {
            for &(s, g) in &c.queries[..3] {
                for (x, y) in [s, g] {
                    assert_ne!(c.map.cells[(y * w + x) as usize], 255, "{i}: an open cell");
                }
            }
        }
    }
}

// ------------------------------------------------------------------ replanning and flow fields

fn cells(hexed: &str) -> Vec<u8> {
    hex::decode(hexed).expect("hex cells")
}

// pins [CONF.REPLAN.CASES]: over generated requests: sides 4-20, the three square kinds' wall
// shares and every hex layout, areas 0-3 with 1, 0.5, 2, 3.25, the option ranges, both modes, and
// every step kind of the clause.
#[test]
fn generated_replanning_requests_follow_the_clause() {
    use onepath_conformance::replan::{cases, ModeName, ReplanStep};
    let mut layouts = std::collections::BTreeSet::new();
    let (mut modes, mut agents) = (
        std::collections::BTreeSet::new(),
        std::collections::BTreeSet::new(),
    );
    let mut kinds = std::collections::BTreeMap::<&str, usize>::new();
    let mut walls = [(0usize, 0usize); 3];
    let (mut edits, mut wall_edits) = (0usize, 0usize);
    for i in 0..90u64 {
        let r = cases::request(0xCA5E, i, 20, 120);
        let m = &r.grid.map;
        assert!(
            (4..=20).contains(&m.width) && (4..=20).contains(&m.height),
            "{i}"
        );
        assert_eq!(m.multipliers, vec![(1, 0.5), (2, 2.0), (3, 3.25)]);
        let c = cells(&m.cells);
        assert!(c.iter().all(|&a| a <= 3 || a == 255));
        let kind = (i / 3 % 3) as usize;
        walls[kind].0 += c.iter().filter(|&&a| a == 255).count();
        walls[kind].1 += c.len();
        assert_eq!(r.grid.hex_layout.is_some(), i % 3 == 2);
        if let Some(l) = r.grid.hex_layout {
            layouts.insert(l);
            assert_eq!(r.options.agent_size, 1);
        }
        let o = &r.options;
        assert!((1..=3).contains(&o.agent_size) && [4, 8].contains(&o.connectivity));
        assert!(o.diagonal <= 2 && o.algorithm <= 1 && o.weight == 1.0);
        agents.insert(o.agent_size);
        modes.insert(format!("{:?}", r.mode));
        let (w, h) = (m.width, m.height);
        let mut start = r.start;
        let mut saved = false;
        for s in &r.script {
            let k = match s {
                ReplanStep::Replan { budget: 0 } => "unbudgeted",
                ReplanStep::Replan { budget } => {
                    assert!((1..=8).contains(budget));
                    "budgeted"
                }
                ReplanStep::SetCell { x, y, area } if *x < w && *y < h => {
                    edits += 1;
                    wall_edits += usize::from(*area == 255);
                    "cell"
                }
                ReplanStep::SetCell { .. } => "outside",
                ReplanStep::SetArea { area, multiplier } => {
                    assert!(*area <= 3 && [0.5, 1.0, 2.0, 3.25].contains(multiplier));
                    "area"
                }
                ReplanStep::SetStart { x, y } => {
                    if r.mode == ModeName::DStarLite {
                        assert!(x.abs_diff(start.0) <= 1 && y.abs_diff(start.1) <= 1);
                    }
                    start = (*x, *y);
                    "start"
                }
                ReplanStep::SetGoal { .. } => "goal",
                ReplanStep::InvalidateAll {} => "restart",
                ReplanStep::Save {} => {
                    saved = true;
                    "save"
                }
                ReplanStep::Rollback {} => {
                    assert!(saved, "a rollback after a save");
                    "rollback"
                }
                other => panic!("{i}: a step the generator does not make: {other:?}"),
            };
            *kinds.entry(k).or_default() += 1;
        }
    }
    assert_eq!(layouts.len(), 4);
    assert_eq!(modes.len(), 2);
    assert_eq!(agents.len(), 3);
    assert_eq!(kinds.len(), 10, "{kinds:?}");
    let share = |k: usize| walls[k].0 as f64 / walls[k].1 as f64;
    assert!(
        share(0) < 0.1 && (0.2..0.4).contains(&share(1)),
        "{walls:?}"
    );
    assert!((0.1..0.3).contains(&share(2)), "rooms: {walls:?}");
    let w = wall_edits as f64 / edits as f64;
    assert!((0.28..0.42).contains(&w), "{w}");
}

// pins [CONF.FLOW.CASES]: over generated requests: sides 3-20, every hex layout, the option ranges
// and run budgets 0-6, one to four goals (some repeated), the four corners and centre as probes,
// and every step kind with budgets 1-12.
#[test]
fn generated_flow_requests_follow_the_clause() {
    use onepath_conformance::flow::{cases, FlowStep};
    let mut layouts = std::collections::BTreeSet::new();
    let mut budgets = std::collections::BTreeSet::new();
    let mut goal_counts = std::collections::BTreeSet::new();
    let mut kinds = std::collections::BTreeMap::<&str, usize>::new();
    let (mut repeated, mut edits, mut near, mut wall_edits) = (0, 0usize, 0usize, 0usize);
    for i in 0..90u64 {
        let r = cases::request(0xF10E, i, 20, 120);
        let m = &r.grid.map;
        let (w, h) = (m.width, m.height);
        assert!((3..=20).contains(&w) && (3..=20).contains(&h), "{i}");
        assert_eq!(r.grid.hex_layout.is_some(), i % 3 == 2);
        if let Some(l) = r.grid.hex_layout {
            layouts.insert(l);
            assert_eq!(r.options.agent_size, 1);
        }
        let o = &r.options;
        assert!((1..=3).contains(&o.agent_size) && [4, 8].contains(&o.connectivity));
        assert!(o.diagonal <= 2 && o.budget <= 6);
        budgets.insert(o.budget);
        assert!((1..=4).contains(&r.goals.len()));
        assert!(r.goals.iter().all(|&(x, y)| x < w && y < h));
        goal_counts.insert(r.goals.len());
        let mut distinct = r.goals.clone();
        distinct.sort();
        distinct.dedup();
        repeated += usize::from(distinct.len() < r.goals.len());
        let mut probes = vec![
            (0, 0),
            (w - 1, 0),
            (0, h - 1),
            (w - 1, h - 1),
            (w / 2, h / 2),
        ];
        probes.dedup();
        assert_eq!(r.probes, probes, "{i}");
        let mut saved = false;
        for s in &r.script {
            let k = match s {
                FlowStep::Step { budget: 0 } => "unbudgeted",
                FlowStep::Step { budget } => {
                    assert!((1..=12).contains(budget));
                    "budgeted"
                }
                FlowStep::Run {} => "run",
                FlowStep::SetCell { x, y, area } if *x < w && *y < h => {
                    edits += 1;
                    wall_edits += usize::from(*area == 255);
                    near += usize::from(
                        r.goals
                            .iter()
                            .any(|g| g.0.abs_diff(*x) <= 3 && g.1.abs_diff(*y) <= 3),
                    );
                    "cell"
                }
                FlowStep::SetCell { .. } => "outside",
                FlowStep::SetArea { area, multiplier } => {
                    assert!(*area <= 3 && [0.5, 1.0, 2.0, 3.25].contains(multiplier));
                    "area"
                }
                FlowStep::Recompute { .. } => "recompute",
                FlowStep::Save {} => {
                    saved = true;
                    "save"
                }
                FlowStep::Rollback {} => {
                    assert!(saved);
                    "rollback"
                }
                FlowStep::RollbackGrid {} => {
                    assert!(saved);
                    "rollback_grid"
                }
                FlowStep::StepUntilDone { .. } => "until_done",
                other => panic!("{i}: a step the generator does not make: {other:?}"),
            };
            *kinds.entry(k).or_default() += 1;
        }
    }
    assert_eq!(layouts.len(), 4);
    assert_eq!(budgets.len(), 7, "{budgets:?}");
    assert_eq!(goal_counts.len(), 4);
    assert!(repeated > 0);
    assert_eq!(kinds.len(), 11, "{kinds:?}");
    // Half the edits aim within 3 cells of a goal (the others land there by chance too).
    assert!(near as f64 / edits as f64 > 0.5, "{near} of {edits}");
    let w = wall_edits as f64 / edits as f64;
    assert!((0.28..0.42).contains(&w), "{w}");
}

// pins [CONF.REPLAN.ORACLE]: the oracle accepts the reference's replies and names the step of a
// found replan whose cost is one ulp off, whose status says not found, or whose path is reversed.
#[test]
fn the_replanning_oracle_rejects_wrong_replies() {
    use onepath_conformance::replan::{cases, oracle, ReplanReply};
    let mut caught = 0;
    for i in 0..12u64 {
        let r = cases::request(0x0AC1E, i, 12, 40);
        let reply = ReferenceCrate.run_replan(&r).expect("reference");
        assert_eq!(oracle::check(&r, &reply), None, "case {i}");
        let ReplanReply::Ran { steps, .. } = &reply else {
            continue;
        };
        // The first found replan before any restore (the generator makes none).
        let Some(k) = steps
            .iter()
            .position(|s| s.status == Some(2) && s.path.len() > 1)
        else {
            continue;
        };
        let corrupt = |f: &dyn Fn(&mut onepath_conformance::replan::StepReply)| {
            let mut bad = reply.clone();
            if let ReplanReply::Ran { steps, .. } = &mut bad {
                f(&mut steps[k]);
            }
            oracle::check(&r, &bad).unwrap_or_default()
        };
        let cost = corrupt(&|s| s.cost.0 = f64::from_bits(s.cost.0.to_bits() + 1));
        assert!(cost.starts_with(&format!("step {k}: cost")), "{cost}");
        let status = corrupt(&|s| s.status = Some(3));
        assert!(status.starts_with(&format!("step {k}: status")), "{status}");
        let path = corrupt(&|s| s.path.reverse());
        assert!(
            path.starts_with(&format!("step {k}: the path runs")),
            "{path}"
        );
        caught += 1;
    }
    assert!(caught >= 6, "{caught}");
}

// pins [CONF.FLOW.ORACLE]: the oracle accepts the reference's replies and names a completed step
// whose field hash is not its Dijkstra field's, and a final field cell one ulp off when the last
// completed step is current.
#[test]
fn the_flow_field_oracle_rejects_wrong_replies() {
    use onepath_conformance::flow::{cases, oracle, FlowReply, FlowStep};
    let (mut steps_caught, mut finals_caught) = (0, 0);
    for i in 0..12u64 {
        let mut r = cases::request(0xF1E1D, i, 12, 40);
        let reply = ReferenceCrate.run_flow(&r).expect("reference");
        assert_eq!(oracle::check(&r, &reply), None, "case {i}");
        let FlowReply::Ran { steps, .. } = &reply else {
            continue;
        };
        if let Some(k) = steps.iter().position(|s| s.returned == Some(2)) {
            let mut bad = reply.clone();
            if let FlowReply::Ran { steps, .. } = &mut bad {
                steps[k].field_sha256 = "0".repeat(64);
            }
            let p = oracle::check(&r, &bad).unwrap_or_default();
            assert!(
                p.starts_with(&format!("step {k}: the completed field's hash")),
                "{p}"
            );
            steps_caught += 1;
        }
        // End the script with an unbudgeted step: the final field is the oracle's.
        r.script.push(FlowStep::Step { budget: 0 });
        let reply = ReferenceCrate.run_flow(&r).expect("reference");
        let FlowReply::Ran { steps, costs, .. } = &reply else {
            continue;
        };
        if steps.last().and_then(|s| s.returned) != Some(2) {
            continue;
        }
        assert_eq!(oracle::check(&r, &reply), None, "case {i}, finished");
        let Some(c) = costs.iter().position(|c| c.0.is_finite() && c.0 > 0.0) else {
            continue;
        };
        let mut bad = reply.clone();
        if let FlowReply::Ran { costs, .. } = &mut bad {
            costs[c].0 = f64::from_bits(costs[c].0.to_bits() + 1);
        }
        let p = oracle::check(&r, &bad).unwrap_or_default();
        assert!(
            p.starts_with(&format!("final field: cell {c} costs")),
            "{p}"
        );
        finals_caught += 1;
    }
    assert!(
        steps_caught >= 6 && finals_caught >= 6,
        "{steps_caught} {finals_caught}"
    );
}

// pins [CONF.FLOW.REPLY]: the field hash is the SHA-256 of each cell's cost bits (u64 LE) then its
// step (i32 LE, -1 for none), as built here, and a changed cost bit or step changes it.
#[test]
fn the_flow_field_hash_is_the_clause_layout() {
    use onepath_conformance::flow::field_sha256;
    use sha2::{Digest, Sha256};
    let costs = [0.0, 1.5, f64::INFINITY, std::f64::consts::SQRT_2];
    let next = [None, Some(0), None, Some(70_000)];
    let mut bytes = Vec::new();
    for (c, n) in costs.iter().zip(&next) {
        bytes.extend_from_slice(&c.to_bits().to_le_bytes());
        bytes.extend_from_slice(&n.map_or(-1i32, |v| v as i32).to_le_bytes());
    }
    let want = hex::encode(Sha256::digest(&bytes));
    assert_eq!(field_sha256(&costs, &next), want);
    let mut c2 = costs;
    c2[1] = f64::from_bits(c2[1].to_bits() + 1);
    assert_ne!(field_sha256(&c2, &next), want);
    let mut n2 = next;
    n2[3] = Some(1);
    assert_ne!(field_sha256(&costs, &n2), want);
}
