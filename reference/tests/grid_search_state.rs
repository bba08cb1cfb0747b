//! Grid search slicing and state bytes (spec/grid-search.md §10): sliced = unsliced, save →
//! restore → save, restored searches continue identically, error classes at their offsets.

mod common;

use std::sync::Arc;

use common::Lcg;
use onepath_reference::{
    AStar, Grid, GridAlgorithm, GridEngine, GridOptions, GridSearch, JumpSearch, SearchStatus,
    ThetaSearch,
};

fn random_grid(rng: &mut Lcg, w: usize, h: usize, pct: u64) -> Grid {
    let mut g = Grid::new(w, h).unwrap();
    for y in 0..h {
        for x in 0..w {
            if rng.below(100) < pct && (x, y) != (0, 0) && (x, y) != (w - 1, h - 1) {
                g.set_cell(x, y, 255).unwrap();
            }
        }
    }
    g
}

/// The options of every engine kind, with the expected handle engine (None: ThetaSearch).
fn variants() -> Vec<(GridOptions, Option<GridEngine>)> {
    let o = |a| GridOptions {
        algorithm: a,
        record_expansions: true,
        ..GridOptions::default()
    };
    let mut blocked = o(GridAlgorithm::Jps);
    blocked.blocked = Some(Arc::new(|c| c == 1_000_000));
    let mut weighted = o(GridAlgorithm::AStar);
    weighted.heuristic_weight = 1.25;
    vec![
        (o(GridAlgorithm::AStar), Some(GridEngine::SpecialisedAStar)),
        (
            o(GridAlgorithm::Dijkstra),
            Some(GridEngine::SpecialisedAStar),
        ),
        (weighted, Some(GridEngine::GenericAStar)),
        (blocked, Some(GridEngine::GenericJump)),
        (
            o(GridAlgorithm::Jps),
            Some(GridEngine::SpecialisedJump { finder: 0 }),
        ),
        (
            o(GridAlgorithm::JpsPlus),
            Some(GridEngine::SpecialisedJump { finder: 1 }),
        ),
        (o(GridAlgorithm::Theta), None),
        (o(GridAlgorithm::LazyTheta), None),
    ]
}

/// A uniform view over a handle and a ThetaSearch.
enum S<'g> {
    H(GridSearch<'g>),
    T(ThetaSearch<'g>),
}

impl<'g> S<'g> {
    fn new(g: &'g Grid, o: &GridOptions, theta: bool) -> S<'g> {
        if theta {
            S::T(ThetaSearch::new(g, o.clone()).unwrap())
        } else {
            S::H(GridSearch::new(g, o.clone()).unwrap())
        }
    }
    fn begin(&mut self, s: (usize, usize), t: (usize, usize)) {
        match self {
            S::H(h) => h.begin(s, t).unwrap(),
            S::T(h) => h.begin(s, t).unwrap(),
        }
    }
    fn step(&mut self, b: u64) -> SearchStatus {
        match self {
            S::H(h) => h.step(b),
            S::T(h) => h.step(b),
        }
    }
    fn save(&self) -> Vec<u8> {
        match self {
            S::H(h) => h.save_state(),
            S::T(h) => h.save_state(),
        }
    }
    fn restore(&mut self, b: &[u8]) -> Result<(), String> {
        match self {
            S::H(h) => h.restore_state(b).map_err(|e| e.class().to_string()),
            S::T(h) => h.restore_state(b).map_err(|e| e.class().to_string()),
        }
    }
    /// Everything observable, with the cost as bits.
    fn outcome(&self) -> (SearchStatus, Vec<u32>, u64, u64, u64, Vec<u32>) {
        match self {
            S::H(h) => (
                h.status(),
                h.path(),
                h.path_cost().to_bits(),
                h.iterations(),
                h.expanded_count(),
                h.expansions().to_vec(),
            ),
            S::T(h) => (
                h.status(),
                h.path(),
                h.path_cost().to_bits(),
                h.iterations(),
                h.expanded_count(),
                h.expansions().to_vec(),
            ),
        }
    }
}

#[test]
fn sliced_equals_unsliced_and_state_round_trips() {
    let mut rng = Lcg(11);
    for round in 0..4 {
        let g = random_grid(&mut rng, 14, 11, 22 + round * 3);
        let (s, t) = ((0, 0), (13, 10));
        for (o, engine) in variants() {
            let theta = engine.is_none();
            let mut whole = S::new(&g, &o, theta);
            whole.begin(s, t);
            while whole.step(u64::MAX) == SearchStatus::Running {}
            let want = whole.outcome();
            if let (S::H(h), Some(e)) = (&whole, engine) {
                assert_eq!(h.engine(), e);
            }
            for budget in [1u64, 2, 3, 7] {
                let mut a = S::new(&g, &o, theta);
                a.begin(s, t);
                let mut steps = 0;
                loop {
                    // save -> restore into a fresh search -> save gives equal bytes
                    let bytes = a.save();
                    let mut b = S::new(&g, &o, theta);
                    b.restore(&bytes).unwrap();
                    assert_eq!(b.save(), bytes, "{o:?} budget {budget} step {steps}");
                    if a.step(budget) != SearchStatus::Running {
                        break;
                    }
                    steps += 1;
                    // the restored copy continues exactly like the original (recorded lists
                    // differ for modes 1 and 3 by [GS.HANDLE.RECORD], so compare bytes)
                    b.step(budget);
                    assert_eq!(b.save(), a.save(), "{o:?} continue after restore");
                }
                let got = a.outcome();
                assert_eq!(got, want, "{o:?} budget {budget}");
            }
        }
    }
}

#[test]
fn kind8_9_10_checks() {
    let g = Grid::new(4, 4).unwrap();
    let mut a = AStar::new(&g, GridOptions::default()).unwrap();
    a.begin((0, 0), (3, 3)).unwrap();
    a.step(2);
    let bytes = a.save_state();
    // weight mismatch: a search with weight 2 reads weight 1 at offset 8 + 4 + 1.
    let mut other = AStar::new(
        &g,
        GridOptions {
            heuristic_weight: 2.0,
            ..GridOptions::default()
        },
    )
    .unwrap();
    let e = other.restore_state(&bytes).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("size_mismatch", 13));
    assert_eq!(other.status(), SearchStatus::NotStarted);
    // wrong kind
    let mut b = bytes.clone();
    b[6] = 9;
    let e = a.restore_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("wrong_kind", 6));
    assert_eq!((a.status(), a.iterations()), (SearchStatus::NotStarted, 0));
    // node count
    let mut b = bytes.clone();
    b[8] = 15;
    assert_eq!(a.restore_state(&b).unwrap_err().offset(), 8);
    a.restore_state(&bytes).unwrap();
    assert_eq!(a.save_state(), bytes);
    // Kind 9 requires start -1 (offset 8 + 4 + 1 + 8 = 21).
    let jo = GridOptions {
        algorithm: GridAlgorithm::Jps,
        ..GridOptions::default()
    };
    let mut j = JumpSearch::new(&g, jo).unwrap();
    j.begin((0, 0), (3, 2)).unwrap();
    j.step(1);
    let mut b = j.save_state();
    assert_eq!(&b[21..25], &(-1i32).to_le_bytes());
    b[21..25].copy_from_slice(&0i32.to_le_bytes());
    let e = j.restore_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("index_out_of_range", 21));
    // Kind 10: trailing bytes.
    let to = GridOptions {
        algorithm: GridAlgorithm::Theta,
        ..GridOptions::default()
    };
    let mut th = ThetaSearch::new(&g, to).unwrap();
    th.begin((0, 0), (3, 2)).unwrap();
    th.step(1);
    let mut b = th.save_state();
    let n = b.len();
    b.push(0);
    let e = th.restore_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("trailing_bytes", n));
    assert_eq!(th.status(), SearchStatus::NotStarted);
}

fn err(h: &mut GridSearch<'_>, b: &[u8]) -> (String, usize) {
    let e = h.restore_state(b).unwrap_err();
    assert_eq!(h.engine(), GridEngine::NotBegun);
    assert_eq!(h.status(), SearchStatus::NotStarted);
    (e.class().to_string(), e.offset())
}

#[test]
fn kind12_mode1_checks() {
    let g = Grid::new(4, 4).unwrap();
    let mut h = GridSearch::new(&g, GridOptions::default()).unwrap();
    assert_eq!(h.save_state().len(), 8 + 9); // mode 0: header, mode, width, height
    h.begin((0, 0), (3, 3)).unwrap();
    h.step(2);
    let bytes = h.save_state();
    assert_eq!(bytes[8], 1);
    // layout: 17 status, 18 zero, 19 start, 23 goal, 27 expanded, 31 iterations, 35 pathA,
    // 39 pathB, 43 visited, then 13 bytes per cell from 47.
    assert_eq!(&bytes[35..43], &[255u8; 8]);
    let cases: Vec<(usize, u8, &str)> = vec![
        (8, 9, "out_of_range"),         // mode
        (9, 5, "size_mismatch"),        // width
        (17, 0, "out_of_range"),        // status
        (18, 1, "engine_mismatch"),     // zeroEstimate
        (18, 2, "bad_flag"),            // zeroEstimate not a flag
        (19, 16, "index_out_of_range"), // start
        (27, 9, "out_of_range"),        // expanded > iterations
        (47 + 12, 0x10, "bad_flag"),    // first cell's flags
        (47 + 4, 1, "bad_parent"),      // start's pair a = 1
        (31, 3, "out_of_range"),        // iterations != closed
    ];
    for (at, v, class) in cases {
        let mut b = bytes.clone();
        b[at] = v;
        let (c, off) = err(&mut h, &b);
        let want_at = match (class, at) {
            ("bad_parent", _) => 47,
            (_, 27) => 31,
            _ => at,
        };
        assert_eq!((c.as_str(), off), (class, want_at), "byte {at} = {v}");
    }
    let (c, off) = err(&mut h, &bytes[..3]);
    assert_eq!((c.as_str(), off), ("truncated", 3));
    let (c, off) = err(&mut h, &bytes[..bytes.len() - 1]);
    assert_eq!((c.as_str(), off), ("count_out_of_range", 43));
    // mode 3 bytes into a handle that selects mode 1: engine_mismatch at the mode byte.
    let mut b = bytes.clone();
    b[8] = 3;
    assert_eq!(err(&mut h, &b), ("engine_mismatch".to_string(), 8));
    // not_walkable: the same search restored over a grid with the start walled.
    let mut walled = Grid::new(4, 4).unwrap();
    walled.set_cell(0, 0, 255).unwrap();
    let mut hw = GridSearch::new(&walled, GridOptions::default()).unwrap();
    assert_eq!(err(&mut hw, &bytes), ("not_walkable".to_string(), 47));
    h.restore_state(&bytes).unwrap();
    assert_eq!(h.save_state(), bytes);
    assert_eq!(h.run(None), SearchStatus::Found);
}

#[test]
fn kind12_mode2_and_mode3_checks() {
    let g = Grid::new(5, 4).unwrap();
    // Mode 3.
    let o3 = GridOptions {
        algorithm: GridAlgorithm::Jps,
        ..GridOptions::default()
    };
    let mut h = GridSearch::new(&g, o3.clone()).unwrap();
    h.begin((0, 1), (4, 3)).unwrap();
    h.step(1);
    let bytes = h.save_state();
    assert_eq!((bytes[8], bytes[17]), (3, 0));
    // finder at 17; fixed fields 18..44; visited count at 44; cells of 17 bytes from 48.
    let visited = i32::from_le_bytes(bytes[44..48].try_into().unwrap()) as usize;
    let level_at = 48 + 17 * visited;
    let mut b = bytes.clone();
    b[17] = 1;
    assert_eq!(err(&mut h, &b), ("engine_mismatch".to_string(), 17));
    let mut b = bytes.clone();
    b[17] = 2;
    assert_eq!(err(&mut h, &b), ("out_of_range".to_string(), 17));
    let mut b = bytes.clone();
    b[level_at..level_at + 8].copy_from_slice(&0x7FF8_0000_0000_0001u64.to_le_bytes());
    assert_eq!(err(&mut h, &b), ("nan".to_string(), level_at));
    let mut b = bytes.clone();
    b[level_at..level_at + 8].copy_from_slice(&f64::INFINITY.to_bits().to_le_bytes());
    assert_eq!(err(&mut h, &b), ("out_of_range".to_string(), level_at));
    // heap count too large for the bytes left
    let mut b = bytes.clone();
    b[level_at + 8..level_at + 12].copy_from_slice(&1000i32.to_le_bytes());
    assert_eq!(
        err(&mut h, &b),
        ("count_out_of_range".to_string(), level_at + 8)
    );
    // JpsPlus handle refuses a finder-0 state.
    let mut hp = GridSearch::new(
        &g,
        GridOptions {
            algorithm: GridAlgorithm::JpsPlus,
            ..o3.clone()
        },
    )
    .unwrap();
    assert_eq!(err(&mut hp, &bytes), ("engine_mismatch".to_string(), 17));
    h.restore_state(&bytes).unwrap();
    assert_eq!(h.save_state(), bytes);
    // Mode 2 (generic A* via weight 1.5).
    let o2 = GridOptions {
        heuristic_weight: 1.5,
        ..GridOptions::default()
    };
    let mut h = GridSearch::new(&g, o2).unwrap();
    h.begin((1, 1), (4, 3)).unwrap();
    h.step(2);
    let bytes = h.save_state();
    assert_eq!(bytes[8], 2);
    // startX 17, startY 21, goalX 25, goalY 29, length 33, embedded header from 37 (kind at 43).
    let mut b = bytes.clone();
    b[43] = 10;
    assert_eq!(err(&mut h, &b), ("wrong_kind".to_string(), 43));
    let mut b = bytes.clone();
    b[43] = 9;
    assert_eq!(err(&mut h, &b), ("engine_mismatch".to_string(), 43));
    let mut b = bytes.clone();
    b[33] ^= 1;
    assert_eq!(err(&mut h, &b), ("count_out_of_range".to_string(), 33));
    let mut b = bytes.clone();
    b[17] = 5;
    assert_eq!(err(&mut h, &b), ("index_out_of_range".to_string(), 17));
    // header goal differs from the embedded goal: out_of_range at the embedded goal field
    // (embedded: 37 header, 45 node count, 49 status, 50 weight, 58 start, 62 goal).
    let mut b = bytes.clone();
    b[25] = 3;
    assert_eq!(err(&mut h, &b), ("out_of_range".to_string(), 62));
    h.restore_state(&bytes).unwrap();
    assert_eq!(h.save_state(), bytes);
    assert_eq!(h.run(None), SearchStatus::Found);
}

#[test]
fn large_grid_every_engine_finishes_and_agrees() {
    let mut rng = Lcg(3);
    let g = random_grid(&mut rng, 256, 256, 20);
    let mut costs = Vec::new();
    for (o, engine) in variants() {
        let mut s = S::new(&g, &o, engine.is_none());
        s.begin((0, 0), (255, 255));
        while s.step(u64::MAX) == SearchStatus::Running {}
        let out = s.outcome();
        assert_eq!(out.0, SearchStatus::Found, "{o:?}");
        costs.push((f64::from_bits(out.2), engine.is_none()));
    }
    // every grid engine (weight 1.25 aside) finds the same optimal cost up to rounding
    let best = costs[0].0;
    for (i, &(c, theta)) in costs.iter().enumerate() {
        if theta {
            assert!(c <= best + 1e-9);
        } else if i != 2 {
            assert!((c - best).abs() < 1e-9, "variant {i}: {c} vs {best}");
        }
    }
}
