//! Seeded randomized checks of HPA* (spec/hpa.md): an independent plain Dijkstra on the
//! square-grid moves ([GS.MOVE.STRAIGHT], [GS.MOVE.DIAGONAL], [GS.COST.MOVE]) and an independent
//! entrance scan, both written here from the spec, over SplitMix64 maps.

use onepath_reference::{
    Connectivity, DiagonalRule, Grid, HpaEdgeKind, HpaHierarchy, HpaOptions, HpaSearch,
    SearchStatus, WALL,
};

const SQRT_2: f64 = std::f64::consts::SQRT_2;

/// SplitMix64 (Vigna), independent of the crate's generators.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The test's own view of the grid: passability, moves and their costs, written from the spec.
struct Moves<'g> {
    g: &'g Grid,
    four: bool,
    rule: DiagonalRule,
}

impl Moves<'_> {
    fn pass(&self, x: i64, y: i64) -> bool {
        x >= 0
            && y >= 0
            && (x as usize) < self.g.width()
            && (y as usize) < self.g.height()
            && self.g.cell(x as usize, y as usize).unwrap() != WALL
    }
    /// The allowed moves of `(x, y)` as `(x2, y2, cost)`.
    fn around(&self, x: i64, y: i64) -> Vec<(i64, i64, f64)> {
        let mut v = Vec::new();
        for (dx, dy) in [
            (0, -1),
            (1, 0),
            (0, 1),
            (-1, 0),
            (1, -1),
            (1, 1),
            (-1, 1),
            (-1, -1),
        ] {
            if let Some(c) = self.cost(x, y, dx, dy) {
                v.push((x + dx, y + dy, c));
            }
        }
        v
    }
    /// The cost of the move `(x, y) -> (x + dx, y + dy)`, `None` when not allowed.
    fn cost(&self, x: i64, y: i64, dx: i64, dy: i64) -> Option<f64> {
        if !self.pass(x + dx, y + dy) || dx.abs() > 1 || dy.abs() > 1 || (dx, dy) == (0, 0) {
            return None;
        }
        let diagonal = dx != 0 && dy != 0;
        if diagonal {
            let (a, b) = (self.pass(x + dx, y), self.pass(x, y + dy));
            let ok = !self.four
                && match self.rule {
                    DiagonalRule::Always => true,
                    DiagonalRule::AtMostOneBlocked => a || b,
                    DiagonalRule::NoneBlocked => a && b,
                };
            if !ok {
                return None;
            }
        }
        let area = self.g.cell((x + dx) as usize, (y + dy) as usize).unwrap();
        let m = self.g.area_multiplier(area).unwrap();
        Some(if diagonal { SQRT_2 } else { 1.0 } * m)
    }
    /// Dijkstra from `s` over every cell: the smallest `g + cost` fold to each cell.
    fn dijkstra(&self, s: usize) -> Vec<f64> {
        self.dijkstra_in(s, (0, 0, self.g.width() as i64, self.g.height() as i64))
    }
    /// Dijkstra from `s` over the cells of the rectangle `x0 <= x < x1`, `y0 <= y < y1`.
    fn dijkstra_in(&self, s: usize, rect: (i64, i64, i64, i64)) -> Vec<f64> {
        let w = self.g.width();
        let n = w * self.g.height();
        let mut dist = vec![f64::INFINITY; n];
        let mut heap = std::collections::BinaryHeap::new();
        dist[s] = 0.0;
        heap.push(std::cmp::Reverse((0u64, s)));
        while let Some(std::cmp::Reverse((bits, u))) = heap.pop() {
            let d = f64::from_bits(bits);
            if d > dist[u] {
                continue;
            }
            for (x2, y2, c) in self.around((u % w) as i64, (u / w) as i64) {
                if x2 < rect.0 || y2 < rect.1 || x2 >= rect.2 || y2 >= rect.3 {
                    continue;
                }
                let v = y2 as usize * w + x2 as usize;
                let nd = d + c;
                if nd < dist[v] {
                    dist[v] = nd;
                    // Non-negative f64 bit patterns order as the values do.
                    heap.push(std::cmp::Reverse((nd.to_bits(), v)));
                }
            }
        }
        dist
    }
    /// The left fold of the move costs along `cells`; `None` when a move is not allowed.
    fn fold(&self, cells: &[u32]) -> Option<f64> {
        let w = self.g.width() as i64;
        let mut c = 0.0;
        for p in cells.windows(2) {
            let (x, y) = (p[0] as i64 % w, p[0] as i64 / w);
            let (x2, y2) = (p[1] as i64 % w, p[1] as i64 / w);
            c += self.cost(x, y, x2 - x, y2 - y)?;
        }
        Some(c)
    }
}

/// A random map: size up to 40 × 40, walls with a random density, areas 0..=3 with random
/// multipliers.
fn random_map(r: &mut SplitMix64) -> Grid {
    let (w, h) = (1 + r.below(40) as usize, 1 + r.below(40) as usize);
    let mut g = Grid::new(w, h).unwrap();
    for a in 1..=3u8 {
        let m = [0.5, 1.0, 1.25, 2.0, 3.5][r.below(5) as usize];
        g.set_area_multiplier(a, m).unwrap();
    }
    let density = r.below(45);
    for y in 0..h {
        for x in 0..w {
            let v = if r.below(100) < density {
                WALL
            } else {
                r.below(4) as u8
            };
            g.set_cell(x, y, v).unwrap();
        }
    }
    g
}

fn random_options(r: &mut SplitMix64) -> HpaOptions {
    HpaOptions {
        chunk_size: 2 + r.below(9) as u32,
        connectivity: if r.below(4) == 0 {
            Connectivity::Four
        } else {
            Connectivity::Eight
        },
        diagonal: [
            DiagonalRule::Always,
            DiagonalRule::AtMostOneBlocked,
            DiagonalRule::NoneBlocked,
        ][r.below(3) as usize],
        heuristic_weight: [1.0, 1.0, 1.5, 4.0][r.below(4) as usize],
        smooth: r.below(3) == 0,
        iteration_budget: 0,
        record_expansions: r.below(2) == 0,
    }
}

/// [HPA.COMPLETE] [HPA.QUALITY] [HPA.COST.REPORTED] [HPA.COST.PATH] HPA* finds a path exactly
/// when Dijkstra does; the path is made of allowed moves from start to goal; its cost is the fold
/// along it and never below the optimum. Prints the measured suboptimality.
#[test]
fn random_maps_against_dijkstra() {
    let mut r = SplitMix64(0x4850_4121_2026);
    let (mut found, mut not_found) = (0u64, 0u64);
    let mut ratios: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut worst = (1.0f64, String::new());
    for map in 0..300 {
        let g = random_map(&mut r);
        let o = random_options(&mut r);
        let m = Moves {
            g: &g,
            four: o.connectivity == Connectivity::Four,
            rule: o.diagonal,
        };
        let mut h = HpaHierarchy::new(o.clone()).unwrap();
        let (w, ht) = (g.width(), g.height());
        for q in 0..6 {
            let s = (r.below(w as u64) as usize, r.below(ht as u64) as usize);
            let t = (r.below(w as u64) as usize, r.below(ht as u64) as usize);
            let dist = m.dijkstra(s.1 * w + s.0);
            let best = if m.pass(s.0 as i64, s.1 as i64) {
                dist[t.1 * w + t.0]
            } else {
                f64::INFINITY
            };
            let mut search = HpaSearch::new(&g, &mut h);
            search.begin(s, t).unwrap();
            let st = search.run(None);
            let what = format!("map {map} query {q} {o:?} {s:?} -> {t:?}");
            if best == f64::INFINITY {
                assert_eq!(st, SearchStatus::NotFound, "{what}");
                assert!(search.path().is_empty(), "{what}");
                not_found += 1;
                continue;
            }
            assert_eq!(st, SearchStatus::Found, "{what}: optimum {best}");
            let cells = search.path();
            assert_eq!(cells[0] as usize, s.1 * w + s.0, "{what}");
            assert_eq!(*cells.last().unwrap() as usize, t.1 * w + t.0, "{what}");
            let fold = m.fold(&cells).unwrap_or_else(|| panic!("{what}: bad move"));
            let cost = search.path_cost();
            assert_eq!(cost.to_bits(), fold.to_bits(), "{what}");
            assert!(cost >= best, "{what}: {cost} < {best}");
            let mut seen = cells.clone();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), cells.len(), "{what}: repeated cell");
            assert_eq!(search.expansions().len() as u64, {
                if o.record_expansions {
                    search.expanded_count()
                } else {
                    0
                }
            });
            found += 1;
            if best > 0.0 {
                let ratio = cost / best;
                if ratio > worst.0 {
                    worst = (ratio, what.clone());
                }
                ratios[usize::from(o.smooth)].push(ratio);
            }
            // [GRAPH.ASTAR.SLICED] Random budgets give the same result as one run.
            let (path, iterations) = (search.path(), search.iterations());
            search.begin(s, t).unwrap();
            while search.step(1 + r.below(3)) == SearchStatus::Running {}
            assert_eq!(
                (search.path(), search.iterations()),
                (path, iterations),
                "{what}"
            );
            assert_eq!(search.path_cost().to_bits(), cost.to_bits(), "{what}");
        }
    }
    println!("HPA* vs Dijkstra: {found} found, {not_found} not found; worst {worst:?}");
    for (smooth, rs) in ratios.iter().enumerate() {
        let mean = rs.iter().sum::<f64>() / rs.len() as f64;
        let max = rs.iter().fold(1.0f64, |a, &b| if b > a { b } else { a });
        let exact = rs.iter().filter(|&&x| x == 1.0).count();
        println!(
            "  smooth {}: cost/optimum over {} paths: mean {mean:.4}, max {max:.4}, {exact} optimal",
            smooth == 1,
            rs.len()
        );
    }
    assert!(found > 500 && not_found > 50, "{found} {not_found}");
}

/// [HPA.REFRESH.EQUAL] [HPA.REFRESH.DIRTY] After random edits (cells, sometimes a multiplier),
/// a refreshed hierarchy equals a fresh build: nodes, edges with costs bit for bit, stored paths,
/// and a query's result.
#[test]
fn random_refresh_equals_fresh_build() {
    let mut r = SplitMix64(0x0052_4546_5245_5348);
    for round in 0..200 {
        let mut g = random_map(&mut r);
        let o = random_options(&mut r);
        let mut h = HpaHierarchy::new(o.clone()).unwrap();
        h.refresh(&g);
        for _ in 0..3 {
            let edits = 1 + r.below(6);
            for _ in 0..edits {
                let (x, y) = (
                    r.below(g.width() as u64) as usize,
                    r.below(g.height() as u64) as usize,
                );
                let v = if r.below(2) == 0 {
                    WALL
                } else {
                    r.below(4) as u8
                };
                g.set_cell(x, y, v).unwrap();
            }
            if r.below(10) == 0 {
                g.set_area_multiplier(1, 1.0 + r.below(4) as f64).unwrap();
            }
            h.refresh(&g);
            let fresh = {
                let mut f = HpaHierarchy::new(o.clone()).unwrap();
                f.refresh(&g);
                f
            };
            assert_eq!(h.nodes(), fresh.nodes(), "round {round}");
            let (a, b) = (h.edges(), fresh.edges());
            assert_eq!(a.len(), b.len(), "round {round}");
            for (x, y) in a.iter().zip(&b) {
                assert_eq!(
                    (x.from, x.to, x.kind, x.cost.to_bits()),
                    (y.from, y.to, y.kind, y.cost.to_bits()),
                    "round {round}"
                );
                assert_eq!(h.edge_path(x.from, x.to), fresh.edge_path(y.from, y.to));
            }
            let (w, ht) = (g.width() as u64, g.height() as u64);
            let s = (r.below(w) as usize, r.below(ht) as usize);
            let t = (r.below(w) as usize, r.below(ht) as usize);
            let mut f = fresh;
            let run = |h: &mut HpaHierarchy| {
                let mut q = HpaSearch::new(&g, h);
                q.begin(s, t).unwrap();
                let st = q.run(None);
                (st, q.path(), q.path_cost().to_bits(), q.iterations())
            };
            assert_eq!(run(&mut h), run(&mut f), "round {round}");
        }
    }
}

/// [HPA.ENT.RUN] [HPA.ENT.PLACE] [HPA.ENT.DIAGONAL] [HPA.NODE.SET] The node cells by a scan
/// written here: every border segment between two chunks, its runs and their entrance positions,
/// and the diagonal crossings between two blocked side cells.
fn expected_nodes(m: &Moves<'_>, s: i64) -> Vec<u32> {
    let (w, h) = (m.g.width() as i64, m.g.height() as i64);
    let mut cells = Vec::new();
    let run = |cells: &mut Vec<u32>, line: &[(i64, i64, i64, i64)]| {
        // `line`: the positions of one border segment, each as (xa, ya, xb, yb).
        let mut i = 0;
        while i < line.len() {
            let open = |k: usize| m.pass(line[k].0, line[k].1) && m.pass(line[k].2, line[k].3);
            if !open(i) {
                i += 1;
                continue;
            }
            let mut j = i;
            while j + 1 < line.len() && open(j + 1) {
                j += 1;
            }
            let len = j - i + 1;
            let picks = if len < 6 {
                vec![i + (len - 1) / 2]
            } else {
                vec![i, j]
            };
            for k in picks {
                let (xa, ya, xb, yb) = line[k];
                cells.push((ya * w + xa) as u32);
                cells.push((yb * w + xb) as u32);
            }
            i = j + 1;
        }
    };
    let mut bx = s;
    while bx < w {
        let mut y0 = 0;
        while y0 < h {
            let seg: Vec<_> = (y0..(y0 + s).min(h)).map(|y| (bx - 1, y, bx, y)).collect();
            run(&mut cells, &seg);
            y0 += s;
        }
        bx += s;
    }
    let mut by = s;
    while by < h {
        let mut x0 = 0;
        while x0 < w {
            let seg: Vec<_> = (x0..(x0 + s).min(w)).map(|x| (x, by - 1, x, by)).collect();
            run(&mut cells, &seg);
            x0 += s;
        }
        by += s;
    }
    for y in 0..h {
        for x in 0..w {
            for dx in [-1, 1] {
                for dy in [-1, 1] {
                    let (x2, y2) = (x + dx, y + dy);
                    let other_chunk = x / s != x2.div_euclid(s) || y / s != y2.div_euclid(s);
                    let blocked_sides = !m.pass(x2, y) && !m.pass(x, y2);
                    if m.pass(x, y)
                        && other_chunk
                        && blocked_sides
                        && m.cost(x, y, dx, dy).is_some()
                    {
                        cells.push((y * w + x) as u32);
                    }
                }
            }
        }
    }
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// [HPA.NODE.ID] [HPA.INTER.EDGE] [HPA.INTRA.EDGE] [HPA.INTRA.COST] [HPA.INSPECT.EDGES] Random
/// hierarchies against the scan above and a chunk-restricted Dijkstra: the same node cells; an
/// inter edge is one allowed move between chunks priced by the move rule; an intra edge exists
/// for exactly the ordered pairs of one chunk joined inside it, with the optimal cost bit for bit;
/// every stored path is a path of allowed moves whose fold is the edge's cost.
#[test]
fn random_hierarchies_match_an_independent_scan() {
    let mut r = SplitMix64(0x4E4F_4445_5343_414E);
    for map in 0..200 {
        let g = random_map(&mut r);
        let o = random_options(&mut r);
        let m = Moves {
            g: &g,
            four: o.connectivity == Connectivity::Four,
            rule: o.diagonal,
        };
        let mut h = HpaHierarchy::new(o.clone()).unwrap();
        h.refresh(&g);
        let s = o.chunk_size as i64;
        let w = g.width() as i64;
        let nodes = h.nodes();
        let cells: Vec<u32> = nodes.iter().map(|n| n.cell).collect();
        assert_eq!(cells, expected_nodes(&m, s), "map {map} {o:?}");
        let xy = |c: u32| (c as i64 % w, c as i64 / w);
        let chunk_of = |c: u32| (xy(c).0 / s, xy(c).1 / s);
        let edges = h.edges();
        let mut intra = 0usize;
        for e in &edges {
            let (a, b) = (cells[e.from as usize], cells[e.to as usize]);
            let path = h.edge_path(e.from, e.to).unwrap();
            let fold = m.fold(&path).expect("a path of allowed moves");
            assert_eq!(fold.to_bits(), e.cost.to_bits(), "map {map} {e:?}");
            assert_eq!((path[0], *path.last().unwrap()), (a, b));
            match e.kind {
                HpaEdgeKind::Inter => {
                    assert_ne!(chunk_of(a), chunk_of(b));
                    assert_eq!(path.len(), 2);
                }
                HpaEdgeKind::Intra => {
                    assert_eq!(chunk_of(a), chunk_of(b));
                    intra += 1;
                }
            }
        }
        let mut want = 0usize;
        for (i, &a) in cells.iter().enumerate() {
            let (cx, cy) = chunk_of(a);
            let rect = (cx * s, cy * s, (cx + 1) * s, (cy + 1) * s);
            let dist = m.dijkstra_in(a as usize, rect);
            for (j, &b) in cells.iter().enumerate() {
                if i == j || chunk_of(b) != (cx, cy) || dist[b as usize] == f64::INFINITY {
                    continue;
                }
                want += 1;
                let e = edges
                    .iter()
                    .find(|e| e.from == i as u32 && e.to == j as u32)
                    .unwrap_or_else(|| panic!("map {map}: no edge {i} -> {j}"));
                assert_eq!(e.kind, HpaEdgeKind::Intra);
                assert_eq!(e.cost.to_bits(), dist[b as usize].to_bits(), "map {map}");
            }
        }
        assert_eq!(intra, want, "map {map}");
    }
}
