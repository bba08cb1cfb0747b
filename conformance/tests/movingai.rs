//! MovingAI formats, generator and exact octile oracle ([CONF.MOVINGAI.MAP_FORMAT] and following).
//! [CONF.MOVINGAI.CHECK] is this file.

use onepath_conformance::movingai::*;
use onepath_conformance::prng::SplitMix64;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

fn map(rows: &[&str]) -> MovingAiMap {
    let text = format!(
        "type octile\nheight {}\nwidth {}\nmap\n{}\n",
        rows.len(),
        rows[0].len(),
        rows.join("\n")
    );
    MovingAiMap::read(text.as_bytes()).unwrap()
}

fn kinds() -> Vec<(&'static str, MapKind)> {
    vec![
        ("random10", MapKind::Random { density: 0.10 }),
        ("random30", MapKind::Random { density: 0.30 }),
        ("rooms4", MapKind::Rooms { room_size: 4 }),
        ("rooms7", MapKind::Rooms { room_size: 7 }),
        ("maze1", MapKind::Maze { corridor_width: 1 }),
        ("maze2", MapKind::Maze { corridor_width: 2 }),
        (
            "scattered",
            MapKind::Scattered {
                count: 25,
                max_side: 4,
            },
        ),
    ]
}

// ------------------------------------------------------------------ a second, independent oracle

/// Plain f64 Dijkstra with a binary heap: its own passability and move rule, costs summed in f64.
fn f64_dijkstra(m: &MovingAiMap, sx: usize, sy: usize) -> Vec<f64> {
    #[derive(PartialEq)]
    struct Item(f64, usize);
    impl Eq for Item {}
    impl Ord for Item {
        fn cmp(&self, o: &Self) -> Ordering {
            o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
        }
    }
    impl PartialOrd for Item {
        fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
            Some(self.cmp(o))
        }
    }
    let (w, h) = (m.width() as isize, m.height() as isize);
    let open = |x: isize, y: isize| {
        x >= 0 && y >= 0 && x < w && y < h && b".GS".contains(&m.get(x as usize, y as usize))
    };
    let mut d = vec![f64::INFINITY; (w * h) as usize];
    if !open(sx as isize, sy as isize) {
        return d;
    }
    let mut heap = BinaryHeap::new();
    d[sy * w as usize + sx] = 0.0;
    heap.push(Item(0.0, sy * w as usize + sx));
    while let Some(Item(du, u)) = heap.pop() {
        if du > d[u] {
            continue;
        }
        let (x, y) = ((u as isize) % w, (u as isize) / w);
        for dx in -1..=1isize {
            for dy in -1..=1isize {
                if (dx, dy) == (0, 0) || !open(x + dx, y + dy) {
                    continue;
                }
                let diag = dx != 0 && dy != 0;
                if diag && !(open(x + dx, y) && open(x, y + dy)) {
                    continue;
                }
                let v = ((y + dy) * w + x + dx) as usize;
                let nd = du + if diag { 2f64.sqrt() } else { 1.0 };
                if nd < d[v] {
                    d[v] = nd;
                    heap.push(Item(nd, v));
                }
            }
        }
    }
    d
}

// ------------------------------------------------------------------ formats

// pins [CONF.MOVINGAI.LINES]: a reader that keeps the CR of a CRLF line, or counts a final LF as a
// line, rejects the CRLF map and the LF-ended ones; a writer without LF line ends fails the byte
// compare
// pins [CONF.MOVINGAI.MAP_CHARS]: a legend that makes G or S impassable, or O, T or W passable,
// fails the passability list; a reader that normalises characters fails the written bytes
#[test]
fn map_chars_and_reader() {
    let m = map(&[".GS@", "OTW."]);
    assert_eq!((m.width(), m.height()), (4, 2));
    let pass: Vec<bool> = (0..8).map(|i| m.passable(i % 4, i / 4)).collect();
    assert_eq!(pass, [true, true, true, false, false, false, false, true]);
    assert!(!m.passable(-1, 0) && !m.passable(4, 0) && !m.passable(0, 2));
    // CRLF line ends and a missing final newline are accepted.
    let crlf =
        MovingAiMap::read(b"type octile\r\nheight 2\r\nwidth 4\r\nmap\r\n.GS@\r\nOTW.").unwrap();
    assert_eq!(crlf, m);
    assert_eq!(
        m.write(),
        b"type octile\nheight 2\nwidth 4\nmap\n.GS@\nOTW.\n"
    );
}

// pins [CONF.MOVINGAI.MAP_FORMAT]: a reader that accepts a sign, 0, over 2^26 cells, a wrong
// header, a row of the wrong length, a missing row or text after the rows returns Ok or another
// error and fails the compare
// pins [CONF.MOVINGAI.ERRORS]: a reader that reports another line or column (0-based, the field's
// end, the row's end for a short row) or another fault first fails the exact MovingAiError compare
#[test]
fn map_reader_errors_name_line_and_column() {
    use MovingAiErrorKind as K;
    let cases: Vec<(&[u8], usize, usize, K)> = vec![
        (b"", 1, 1, K::MissingLines),
        (b"type octal\n", 1, 1, K::Header("type octile")),
        (b"type octile\nheight x\n", 2, 8, K::Integer),
        (b"type octile\nheight 2", 3, 1, K::MissingLines),
        (b"type octile\nheight 0\nwidth 1\nmap\n", 2, 8, K::Size),
        (
            b"type octile\nheight 99999999999\nwidth 1\nmap\n",
            2,
            8,
            K::Integer,
        ),
        (
            b"type octile\nheight 65536\nwidth 65536\nmap\n",
            3,
            7,
            K::Size,
        ),
        (
            b"type octile\nheight 1\nwidht 1\nmap\n",
            3,
            1,
            K::Header("width W"),
        ),
        (
            b"type octile\nheight 1\nwidth 1\nmaps\n",
            4,
            1,
            K::Header("map"),
        ),
        (
            b"type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n",
            6,
            2,
            K::MapChar(b'x'),
        ),
        (
            b"type octile\nheight 2\nwidth 3\nmap\n...\n..\n",
            6,
            3,
            K::RowLength {
                expected: 3,
                found: 2,
            },
        ),
        (
            b"type octile\nheight 2\nwidth 3\nmap\n...\n....\n",
            6,
            4,
            K::RowLength {
                expected: 3,
                found: 4,
            },
        ),
        (
            b"type octile\nheight 2\nwidth 3\nmap\n...\n",
            6,
            1,
            K::MissingLines,
        ),
        (
            b"type octile\nheight 1\nwidth 3\nmap\n...\n\n",
            6,
            1,
            K::TrailingData,
        ),
        (
            b"type octile\nheight 1\nwidth 3\nmap\n...\n@@@\n",
            6,
            1,
            K::TrailingData,
        ),
        (
            b"type octile\nheight 1\nwidth +3\nmap\n...\n",
            3,
            7,
            K::Integer,
        ),
    ];
    for (text, line, column, kind) in cases {
        let e = MovingAiMap::read(text).unwrap_err();
        assert_eq!(
            e,
            MovingAiError { line, column, kind },
            "{:?}",
            String::from_utf8_lossy(text)
        );
        assert!(e
            .to_string()
            .starts_with(&format!("line {line}, column {column}: ")));
    }
}

// pins [CONF.MOVINGAI.SCEN_FORMAT]: a reader that takes another header, field count, sign, empty
// name, out-of-map coordinate or length form (`1.`, `.5`, nan, overflow) returns Ok or another
// error and fails the compare
#[test]
fn scen_reader_and_errors() {
    let ok = b"version 1\n3\tmaps/a b.map\t5\t4\t0\t1\t4\t3\t12.5\n0\tm.map\t5\t4\t2\t2\t2\t2\t0\n";
    let s = ScenFile::read(ok).unwrap();
    assert_eq!(s.entries.len(), 2);
    assert_eq!(s.entries[0].map, "maps/a b.map");
    assert_eq!(
        (
            s.entries[0].bucket,
            s.entries[0].goal_x,
            s.entries[0].goal_y
        ),
        (3, 4, 3)
    );
    assert_eq!(s.entries[0].optimal_length, 12.5);
    // Any decimal is read, correctly rounded.
    for (t, v) in [
        ("7", 7.0),
        ("0.1", 0.1),
        ("1.4142135623730951", std::f64::consts::SQRT_2),
        ("25e-1", 2.5),
        ("1E2", 100.0),
    ] {
        let text = format!("version 1\n0\tm\t1\t1\t0\t0\t0\t0\t{t}\n");
        assert_eq!(
            ScenFile::read(text.as_bytes()).unwrap().entries[0].optimal_length,
            v,
            "{t}"
        );
    }
    use MovingAiErrorKind as K;
    let line = |rest: &str| format!("version 1\n{rest}\n");
    let cases: Vec<(String, usize, usize, K)> = vec![
        (String::new(), 1, 1, K::MissingLines),
        ("version 1.0\n".into(), 1, 1, K::Header("version 1")),
        (line("0\tm\t5\t4\t0\t1\t4\t3"), 2, 1, K::FieldCount(8)),
        (line("0 m 5 4 0 1 4 3 1"), 2, 1, K::FieldCount(1)),
        (line("x\tm\t5\t4\t0\t1\t4\t3\t1"), 2, 1, K::Integer),
        (line("0\t\t5\t4\t0\t1\t4\t3\t1"), 2, 3, K::MapName),
        (line("0\tm\t0\t4\t0\t1\t4\t3\t1"), 2, 5, K::Size),
        (line("0\tm\t5\t4\t5\t1\t4\t3\t1"), 2, 9, K::OutOfMap),
        (line("0\tm\t5\t4\t0\t1\t4\t4\t1"), 2, 15, K::OutOfMap),
        (line("0\tm\t5\t4\t0\t-1\t4\t3\t1"), 2, 11, K::Integer),
        (line("0\tm\t5\t4\t0\t1\t4\t3\t-1"), 2, 17, K::Length),
        (line("0\tm\t5\t4\t0\t1\t4\t3\tnan"), 2, 17, K::Length),
        (line("0\tm\t5\t4\t0\t1\t4\t3\t1e999"), 2, 17, K::Length),
        (line("0\tm\t5\t4\t0\t1\t4\t3\t1."), 2, 17, K::Length),
        (line("0\tm\t5\t4\t0\t1\t4\t3\t.5"), 2, 17, K::Length),
        (line("0\tm\t5\t4\t0\t1\t4\t3\t1 "), 2, 17, K::Length),
        (
            "version 1\n0\tm\t1\t1\t0\t0\t0\t0\t1\n\n".into(),
            3,
            1,
            K::TrailingData,
        ),
    ];
    for (text, line, column, kind) in cases {
        let e = ScenFile::read(text.as_bytes()).unwrap_err();
        assert_eq!(e, MovingAiError { line, column, kind }, "{text:?}");
    }
    let bad_utf8 = b"version 1\n0\t\xff\t1\t1\t0\t0\t0\t0\t1\n";
    assert_eq!(ScenFile::read(bad_utf8).unwrap_err().kind, K::MapName);
}

#[test]
fn round_trips() {
    for (i, (name, kind)) in kinds().into_iter().enumerate() {
        let m = generate_map(kind, 37, 29, 100 + i as u64);
        let bytes = m.write();
        let back = MovingAiMap::read(&bytes).unwrap();
        assert_eq!(back, m, "{name}");
        assert_eq!(back.write(), bytes, "{name}");
        let scen = generate_scen(&m, &format!("{name}.map"), 3, 10, 7 + i as u64);
        let sb = scen.write();
        let sback = ScenFile::read(&sb).unwrap();
        assert_eq!(sback, scen, "{name}");
        assert_eq!(sback.write(), sb, "{name}");
        // Every optimal length round-trips bit for bit.
        for (a, b) in scen.entries.iter().zip(&sback.entries) {
            assert_eq!(a.optimal_length.to_bits(), b.optimal_length.to_bits());
        }
    }
    // Lengths that need all 17 significant digits, tiny and huge values.
    let mut rng = SplitMix64::new(5);
    let mut entries = Vec::new();
    for k in 0..300u32 {
        let v = match k % 4 {
            0 => rng.unit() * 1e6,
            1 => f64::from_bits(rng.next_u64() >> 2) % 1e300, // finite, non-negative
            2 => (k as f64) + (k as f64) * std::f64::consts::SQRT_2,
            _ => f64::from_bits(rng.below(1 << 52)), // subnormals
        };
        entries.push(ScenEntry {
            bucket: k,
            map: "x.map".into(),
            width: 9,
            height: 9,
            start_x: k % 9,
            start_y: 0,
            goal_x: 8,
            goal_y: k % 9,
            optimal_length: v,
        });
    }
    let f = ScenFile { entries };
    let b = f.write();
    let back = ScenFile::read(&b).unwrap();
    for (x, y) in f.entries.iter().zip(&back.entries) {
        assert_eq!(x.optimal_length.to_bits(), y.optimal_length.to_bits());
    }
    assert_eq!(back.write(), b);
}

// pins [CONF.MOVINGAI.CHECK]: a reader that panics (slicing, overflow) on a damaged map or scenario
// text, or accepts one that does not round-trip, fails one of the 4,000 rounds
#[test]
fn hostile_input_never_panics() {
    let m = generate_map(MapKind::Rooms { room_size: 3 }, 12, 9, 1);
    let mb = m.write();
    let sb = generate_scen(&m, "r.map", 2, 4, 2).write();
    let mut rng = SplitMix64::new(99);
    for round in 0..4000 {
        let mut b = if round % 2 == 0 {
            mb.clone()
        } else {
            sb.clone()
        };
        for _ in 0..rng.range(1, 3) {
            match rng.below(4) {
                0 if !b.is_empty() => {
                    let i = rng.below(b.len() as u64) as usize;
                    b[i] = rng.next_u64() as u8;
                }
                1 => b.truncate(rng.below(b.len() as u64 + 1) as usize),
                2 => {
                    let i = rng.below(b.len() as u64 + 1) as usize;
                    let c =
                        [b'\t', b'\n', b'\r', b'9', b'.', b'-', b'e', 0xff][rng.below(8) as usize];
                    b.insert(i, c);
                }
                _ if !b.is_empty() => {
                    let i = rng.below(b.len() as u64) as usize;
                    b.remove(i);
                }
                _ => {}
            }
        }
        // Whatever the readers accept writes back to text they read to the same data.
        if let Ok(m2) = MovingAiMap::read(&b) {
            assert_eq!(MovingAiMap::read(&m2.write()).unwrap(), m2);
        }
        if let Ok(s2) = ScenFile::read(&b) {
            assert_eq!(ScenFile::read(&s2.write()).unwrap(), s2);
        }
    }
}

// ------------------------------------------------------------------ exact costs

// pins [CONF.MOVINGAI.COST]: an order taken from f64 values ties the Pell pairs, one that compares
// the wrong squares or signs misorders some pair up to 24, and a value summed in another order
// differs in bits
#[test]
fn exact_cost_order() {
    let c = OctileCost::new;
    assert!(c(3, 0) > c(0, 2)); // 3 > 2.828
    assert!(c(1, 1) < c(0, 2)); // 2.414 < 2.828
    assert!(c(7, 0) < c(0, 5)); // 7 < 7.071
    assert!(c(17, 0) > c(0, 12)); // 17 > 16.97
    assert!(c(99, 0) > c(0, 70)); // Pell: 99^2 - 2 * 70^2 = 1
    assert_eq!(c(4, 2).cmp(&c(4, 2)), Ordering::Equal);
    assert!(c(5, 2) > c(4, 2) && c(4, 3) > c(4, 2));
    // Pell pairs where f64 evaluation ties but the reals differ: x^2 - 2 y^2 = +1 / -1.
    let (p, q) = (c(131_836_323, 0), c(0, 93_222_358));
    assert_eq!(p.value(), q.value());
    assert!(p > q);
    assert_eq!(q.cmp(&p), Ordering::Less);
    let (p, q) = (c(318_281_039, 0), c(0, 225_058_681));
    assert_eq!(p.value(), q.value());
    assert!(p < q);
    assert_eq!(q.cmp(&p), Ordering::Greater);
    // Against exact rational reasoning on small pairs: a1 + b1 r vs a2 + b2 r with r = sqrt(2).
    for a1 in 0..25u64 {
        for b1 in 0..25u64 {
            for a2 in 0..25u64 {
                for b2 in 0..25u64 {
                    let want = if (a1, b1) == (a2, b2) {
                        Ordering::Equal
                    } else {
                        (a1 as f64 + b1 as f64 * std::f64::consts::SQRT_2)
                            .partial_cmp(&(a2 as f64 + b2 as f64 * std::f64::consts::SQRT_2))
                            .unwrap()
                    };
                    assert_eq!(
                        c(a1, b1).cmp(&c(a2, b2)),
                        want,
                        "({a1},{b1}) vs ({a2},{b2})"
                    );
                }
            }
        }
    }
    // The stated evaluation order: product rounded first, then the sum.
    assert_eq!(c(3, 5).value(), 3.0 + 5.0 * std::f64::consts::SQRT_2);
}

// pins [CONF.MOVINGAI.OCTILE]: an estimate with straight = max, with dx + dy, or not symmetric in
// its two cells gives other pairs than (3, 1) and (3, 3)
#[test]
fn octile_heuristic_pairs() {
    assert_eq!(octile_heuristic(0, 0, 0, 0), OctileCost::new(0, 0));
    assert_eq!(octile_heuristic(0, 0, 4, 1), OctileCost::new(3, 1));
    assert_eq!(octile_heuristic(4, 1, 0, 0), OctileCost::new(3, 1));
    assert_eq!(octile_heuristic(2, 9, 5, 3), OctileCost::new(3, 3));
}

// ------------------------------------------------------------------ the oracle

// pins [CONF.MOVINGAI.MOVES]: a move rule that cuts corners, needs only one orthogonal cell, drops
// diagonals or prices them other than sqrt(2) gives other optimal pairs on the hand-computed maps
// pins [CONF.MOVINGAI.ORACLE]: an oracle that starts from an impassable cell, gives start = goal
// another cost or computes other optimal pairs fails the hand-computed maps
#[test]
fn oracle_hand_computed() {
    let c = OctileCost::new;
    let q = |rows: &[&str], s: (u32, u32), g: (u32, u32)| {
        oracle_path_cost(&map(rows), s.0, s.1, g.0, g.1)
    };
    assert_eq!(q(&["."], (0, 0), (0, 0)), Some(c(0, 0)));
    assert_eq!(q(&["...", "...", "..."], (0, 0), (2, 2)), Some(c(0, 2)));
    assert_eq!(q(&[".....", "....."], (0, 0), (4, 1)), Some(c(3, 1)));
    // No corner cutting: the diagonal past `@` is refused, either way round.
    assert_eq!(q(&[".@", ".."], (0, 0), (1, 1)), Some(c(2, 0)));
    assert_eq!(q(&["..", "@."], (0, 0), (1, 1)), Some(c(2, 0)));
    assert_eq!(q(&[".@", "@."], (0, 0), (1, 1)), None);
    // Around a wall: six straight steps, every diagonal cuts a corner.
    assert_eq!(q(&[".@.", ".@.", "..."], (0, 0), (2, 0)), Some(c(6, 0)));
    // Characters: S and G passable, T and W and O impassable.
    assert_eq!(q(&[".S."], (0, 0), (2, 0)), Some(c(2, 0)));
    assert_eq!(q(&[".G."], (0, 0), (2, 0)), Some(c(2, 0)));
    for blocked in [".T.", ".W.", ".O.", ".@."] {
        assert_eq!(q(&[blocked], (0, 0), (2, 0)), None, "{blocked}");
    }
    // Impassable start or goal, goal outside the map.
    assert_eq!(q(&["@.."], (0, 0), (2, 0)), None);
    assert_eq!(q(&["..@"], (0, 0), (2, 0)), None);
    assert_eq!(q(&["..."], (0, 0), (3, 0)), None);
    // A wall below the top row: the diagonal (3,0)->(4,1) would cut the corner of (3,1), so
    // 4 right, then 2 down.
    let rows = ["S....", "@@@@.", "....G"];
    assert_eq!(q(&rows, (0, 0), (4, 2)), Some(c(6, 0)));
    let rows = ["S....", "@@@..", "....G"];
    // (0,0)->(3,0) 3, (3,0)->(4,1) diagonal (needs (4,0), (3,1): both open), (4,1)->(4,2) 1.
    assert_eq!(q(&rows, (0, 0), (4, 2)), Some(c(4, 1)));
}

#[test]
fn oracle_matches_independent_f64_dijkstra() {
    let mut checked = 0;
    for (i, (name, kind)) in kinds().into_iter().enumerate() {
        for seed in 0..3u64 {
            let m = generate_map(kind, 41, 33, seed * 31 + i as u64);
            let mut rng = SplitMix64::new(seed);
            let passable: Vec<usize> = (0..m.cells().len())
                .filter(|&c| is_passable_char(m.cells()[c]))
                .collect();
            for _ in 0..3 {
                let s = passable[rng.below(passable.len() as u64) as usize];
                let (sx, sy) = (s % m.width(), s / m.width());
                let exact = oracle_distances(&m, sx as u32, sy as u32);
                let float = f64_dijkstra(&m, sx, sy);
                for (cell, (e, f)) in exact.iter().zip(&float).enumerate() {
                    match e {
                        None => assert!(f.is_infinite(), "{name} seed {seed} cell {cell}"),
                        Some(e) => {
                            assert!(
                                (e.value() - f).abs() <= 1e-9,
                                "{name} seed {seed} cell {cell}: {e:?} vs {f}"
                            );
                            let (gx, gy) = ((cell % m.width()) as u32, (cell / m.width()) as u32);
                            // The octile estimate is admissible (exactly).
                            assert!(octile_heuristic(sx as u32, sy as u32, gx, gy) <= *e);
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn octile_is_exact_on_open_maps() {
    let m = MovingAiMap::new(13, 8, b'.');
    let d = oracle_distances(&m, 4, 3);
    for (cell, e) in d.iter().enumerate() {
        let (x, y) = ((cell % 13) as u32, (cell / 13) as u32);
        assert_eq!(e.unwrap(), octile_heuristic(4, 3, x, y));
    }
}

// ------------------------------------------------------------------ generator

#[test]
fn generator_is_deterministic_and_scenarios_are_solvable() {
    for (i, (name, kind)) in kinds().into_iter().enumerate() {
        let a = generate_map(kind, 48, 40, 1234 + i as u64);
        assert_eq!(a, generate_map(kind, 48, 40, 1234 + i as u64), "{name}");
        assert_ne!(
            a,
            generate_map(kind, 48, 40, 4321 + i as u64),
            "{name}: the seed matters"
        );
        let scen = generate_scen(&a, &format!("{name}.map"), 4, 12, 77);
        assert_eq!(
            scen,
            generate_scen(&a, &format!("{name}.map"), 4, 12, 77),
            "{name}"
        );
        assert!(
            scen.entries.len() >= 12,
            "{name}: only {} scenarios",
            scen.entries.len()
        );
        let mut last_bucket = 0;
        let mut per = std::collections::BTreeMap::new();
        let read = ScenFile::read(&scen.write()).unwrap();
        for e in &read.entries {
            assert!(e.bucket >= last_bucket, "{name}: sorted by bucket");
            last_bucket = e.bucket;
            *per.entry(e.bucket).or_insert(0) += 1;
            assert_eq!(
                (e.width as usize, e.height as usize),
                (a.width(), a.height())
            );
            assert!(
                a.passable(e.start_x.into(), e.start_y.into())
                    && a.passable(e.goal_x.into(), e.goal_y.into())
            );
            assert_ne!((e.start_x, e.start_y), (e.goal_x, e.goal_y));
            let exact = oracle_path_cost(&a, e.start_x, e.start_y, e.goal_x, e.goal_y).unwrap();
            assert_eq!(
                exact.value().to_bits(),
                e.optimal_length.to_bits(),
                "{name}"
            );
            assert_eq!(e.bucket, bucket_of(e.optimal_length));
            let f = f64_dijkstra(&a, e.start_x as usize, e.start_y as usize)
                [e.goal_y as usize * a.width() + e.goal_x as usize];
            assert!(
                (f - e.optimal_length).abs() <= 1e-9,
                "{name}: {f} vs {}",
                e.optimal_length
            );
        }
        assert!(per.values().all(|&n| n <= 4));
    }
}

#[test]
fn generated_kinds_have_their_shape() {
    // Random: density is roughly honoured.
    let r = generate_map(MapKind::Random { density: 0.25 }, 100, 100, 3);
    let blocked = 10_000 - r.passable_count();
    assert!((2_200..2_800).contains(&blocked), "{blocked}");
    assert_eq!(
        generate_map(MapKind::Random { density: 0.0 }, 9, 9, 3).passable_count(),
        81
    );
    // Maze: a perfect maze connects every open cell; corridors are c wide (the first cell block).
    for c in [1usize, 2, 3] {
        let m = generate_map(MapKind::Maze { corridor_width: c }, 31, 25, 8);
        let open: Vec<usize> = (0..m.cells().len())
            .filter(|&i| is_passable_char(m.cells()[i]))
            .collect();
        let s = open[0];
        let d = oracle_distances(&m, (s % 31) as u32, (s / 31) as u32);
        assert!(open.iter().all(|&i| d[i].is_some()), "maze {c} connected");
        let cells = (30 / (c + 1)) * (24 / (c + 1));
        // A spanning tree over the cells: cells * c^2 open cells plus (cells - 1) * c passages.
        assert_eq!(open.len(), cells * c * c + (cells - 1) * c, "maze {c}");
    }
    // Rooms: walls on every (r + 1)-th line except the doors; rooms' interiors open.
    let m = generate_map(MapKind::Rooms { room_size: 5 }, 25, 19, 4);
    assert!(
        m.get(0, 0) == b'@' && m.get(1, 1) == b'.' && m.get(5, 5) == b'.' && m.get(6, 6) == b'@'
    );
    // Scattered: T obstacles on an open map.
    let m = generate_map(
        MapKind::Scattered {
            count: 10,
            max_side: 3,
        },
        30,
        30,
        2,
    );
    assert!(m.cells().iter().all(|&c| c == b'.' || c == b'T') && m.cells().contains(&b'T'));
}
