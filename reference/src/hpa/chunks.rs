//! [HPA.CHUNK] [HPA.ENT] [HPA.NODE] [HPA.INTER] Chunk tiling, entrance detection, the abstract
//! node set and the inter-chunk edges (spec/hpa.md §2–§3).

use std::collections::BTreeMap;

use crate::grid_search::moves::Terrain;

/// [HPA.CHUNK.TILING] [HPA.CHUNK.ID] The tiling of a `width` × `height` grid into chunks of side
/// `s`, anchored at cell `(0, 0)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Chunks {
    pub(crate) s: usize,
    pub(crate) width: usize,
    pub(crate) height: usize,
    /// `ceil(width / s)`.
    pub(crate) count_x: usize,
    /// `ceil(height / s)`.
    pub(crate) count_y: usize,
}

impl Chunks {
    /// [HPA.CHUNK.TILING] `ceil(width / s)` by `ceil(height / s)` chunks.
    pub(crate) fn new(s: usize, width: usize, height: usize) -> Chunks {
        Chunks {
            s,
            width,
            height,
            count_x: width.div_ceil(s),
            count_y: height.div_ceil(s),
        }
    }

    /// The number of chunks.
    pub(crate) fn count(&self) -> usize {
        self.count_x * self.count_y
    }

    /// [HPA.CHUNK.ID] The chunk of cell `(x, y)`: `(x div s, y div s)`, as an id.
    pub(crate) fn chunk_of_xy(&self, x: usize, y: usize) -> u32 {
        ((y / self.s) * self.count_x + x / self.s) as u32
    }

    /// [HPA.CHUNK.ID] The chunk of cell index `c`.
    pub(crate) fn chunk_of(&self, c: u32) -> u32 {
        let c = c as usize;
        self.chunk_of_xy(c % self.width, c / self.width)
    }

    /// [HPA.CHUNK.TILING] The cells of chunk `id` as `(x0, y0, x1, y1)`, ends exclusive:
    /// `x0 = cx*s`, `x1 = min((cx+1)*s, width)`, likewise in `y`.
    pub(crate) fn bounds(&self, id: u32) -> (usize, usize, usize, usize) {
        let (cx, cy) = (id as usize % self.count_x, id as usize / self.count_x);
        (
            cx * self.s,
            cy * self.s,
            ((cx + 1) * self.s).min(self.width),
            ((cy + 1) * self.s).min(self.height),
        )
    }
}

/// [HPA.ENT.PLACE] [HPA.ENT.DIAGONAL] An entrance pair: two cells in different chunks joined by
/// one move, straight (a border position) or diagonal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EntrancePair {
    pub(crate) a: u32,
    pub(crate) b: u32,
    pub(crate) diagonal: bool,
}

/// [HPA.ENT.PLACE] The entrance positions of a run `p0 .. p0 + len - 1`: its lower middle
/// `p0 + (len - 1) div 2` when `len < 6`, else both ends.
pub(crate) fn ent_place(p0: usize, len: usize) -> Vec<usize> {
    if len < 6 {
        vec![p0 + (len - 1) / 2]
    } else {
        vec![p0, p0 + len - 1]
    }
}

/// [HPA.ENT.RUN] The maximal runs of crossable positions among `positions` (consecutive
/// integers), as `(first position, length)`.
pub(crate) fn ent_runs(
    positions: std::ops::Range<usize>,
    crossable: impl Fn(usize) -> bool,
) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut open: Option<usize> = None;
    for p in positions.clone() {
        match (crossable(p), open) {
            (true, None) => open = Some(p),
            (false, Some(p0)) => {
                runs.push((p0, p - p0));
                open = None;
            }
            _ => {}
        }
    }
    if let Some(p0) = open {
        runs.push((p0, positions.end - p0));
    }
    runs
}

/// [HPA.CHUNK.BORDERS] [HPA.ENT.RUN] [HPA.ENT.PLACE] The border entrance pairs: chunks in id
/// order, each its east border then its south border; on each border its runs in position order
/// and each run's positions of [HPA.ENT.PLACE]. `a` is the west (north) side, `b` the east (south).
pub(crate) fn border_pairs(t: &Terrain<'_>, ch: &Chunks) -> Vec<EntrancePair> {
    let mut pairs = Vec::new();
    let pass = |x: usize, y: usize| t.passable((x as i64, y as i64));
    let idx = |x: usize, y: usize| (y * ch.width + x) as u32;
    for id in 0..ch.count() as u32 {
        let (x0, y0, x1, y1) = ch.bounds(id);
        let (cx, cy) = (id as usize % ch.count_x, id as usize / ch.count_x);
        if cx + 1 < ch.count_x {
            // East border: west side x1 - 1, east side x1, positions y.
            for (p0, len) in ent_runs(y0..y1, |y| pass(x1 - 1, y) && pass(x1, y)) {
                for y in ent_place(p0, len) {
                    pairs.push(EntrancePair {
                        a: idx(x1 - 1, y),
                        b: idx(x1, y),
                        diagonal: false,
                    });
                }
            }
        }
        if cy + 1 < ch.count_y {
            // South border: north side y1 - 1, south side y1, positions x.
            for (p0, len) in ent_runs(x0..x1, |x| pass(x, y1 - 1) && pass(x, y1)) {
                for x in ent_place(p0, len) {
                    pairs.push(EntrancePair {
                        a: idx(x, y1 - 1),
                        b: idx(x, y1),
                        diagonal: false,
                    });
                }
            }
        }
    }
    pairs
}

/// [HPA.ENT.DIAGONAL] The diagonal entrance pairs: passable `u`, `v = u + (±1, ±1)` in
/// different chunks, the move allowed, both side cells not passable. Each unordered pair once, as
/// `(a, b)` with `a < b`, in ascending `a` then neighbour order.
pub(crate) fn ent_diagonal(t: &Terrain<'_>, ch: &Chunks) -> Vec<EntrancePair> {
    let mut pairs = Vec::new();
    for u in 0..(ch.width * ch.height) as u32 {
        let pu = t.xy(u);
        if !t.passable(pu) {
            continue;
        }
        for d in [(1, -1), (1, 1), (-1, 1), (-1, -1)] {
            let pv = (pu.0 + d.0, pu.1 + d.1);
            if !t.passable(pv) {
                continue;
            }
            let v = t.index(pv);
            if v < u || ch.chunk_of(u) == ch.chunk_of(v) {
                continue;
            }
            let sides_blocked = !t.passable((pu.0 + d.0, pu.1)) && !t.passable((pu.0, pu.1 + d.1));
            if sides_blocked && t.move_allowed(pu, d) {
                pairs.push(EntrancePair {
                    a: u,
                    b: v,
                    diagonal: true,
                });
            }
        }
    }
    pairs
}

/// [HPA.NODE.SET] [HPA.NODE.ID] The distinct cells of the pairs, ascending: the node ids are
/// the positions in this list.
pub(crate) fn node_set(pairs: &[EntrancePair]) -> Vec<u32> {
    let mut cells: Vec<u32> = pairs.iter().flat_map(|p| [p.a, p.b]).collect();
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// [HPA.INTER.EDGE] The directed inter-chunk edges, keyed by `(from cell, to cell)`: `a -> b`
/// costs `base * m(area(b))`, `b -> a` costs `base * m(area(a))`; the stored path is the pair.
pub(crate) fn inter_edges(t: &Terrain<'_>, pairs: &[EntrancePair]) -> BTreeMap<(u32, u32), f64> {
    let mut edges = BTreeMap::new();
    for p in pairs {
        for (from, to) in [(p.a, p.b), (p.b, p.a)] {
            // Both cells are passable, so the multiplier exists and there is no hook.
            if let Some(c) = t.move_cost(from, to, p.diagonal) {
                edges.insert((from, to), c);
            }
        }
    }
    edges
}
