//! [HPA.REFINE] [HPA.SMOOTH] [HPA.COST] Refinement of an abstract path to cells, loop cutting,
//! smoothing and the reported cost (spec/hpa.md §8).

use crate::grid_search::moves::Terrain;
use crate::grid_search::Connectivity;

/// [HPA.REFINE.CONCAT] The stored paths in order, each but the first without its first cell.
pub(crate) fn refine_concat<'p>(segments: impl IntoIterator<Item = &'p [u32]>) -> Vec<u32> {
    let mut cells: Vec<u32> = Vec::new();
    for seg in segments {
        let skip = usize::from(!cells.is_empty());
        cells.extend_from_slice(&seg[skip.min(seg.len())..]);
    }
    cells
}

/// [HPA.REFINE.LOOPS] For `i = 0, 1, …`: with `j` the last index holding `cell[i]`, remove
/// `cell[i + 1 ..= j]` when `j > i`.
pub(crate) fn refine_loops(mut cells: Vec<u32>) -> Vec<u32> {
    let mut i = 0;
    while i < cells.len() {
        let j = cells.iter().rposition(|&c| c == cells[i]).unwrap_or(i);
        if j > i {
            cells.drain(i + 1..=j);
        }
        i += 1;
    }
    cells
}

/// The sign of `v` as `-1`, `0` or `1`.
fn sign(v: i64) -> i64 {
    v.signum()
}

/// [HPA.SMOOTH.LINE] The line from `p` to `q` (both listed): `Eight`: diagonal steps while both
/// coordinates differ, then straight; `Four`: along `x` first, then along `y`.
pub(crate) fn smooth_line(t: &Terrain<'_>, p: u32, q: u32) -> Vec<u32> {
    let (mut c, end) = (t.xy(p), t.xy(q));
    let mut line = vec![p];
    while c != end {
        let (sx, sy) = (sign(end.0 - c.0), sign(end.1 - c.1));
        let d = match t.connectivity {
            Connectivity::Eight => (sx, sy),
            Connectivity::Four if sx != 0 => (sx, 0),
            Connectivity::Four => (0, sy),
        };
        c = (c.0 + d.0, c.1 + d.1);
        line.push(t.index(c));
    }
    line
}

/// [HPA.MOVE] Whether every move of `cells` is allowed.
fn moves_allowed(t: &Terrain<'_>, cells: &[u32]) -> bool {
    cells.windows(2).all(|w| {
        let (u, v) = (t.xy(w[0]), t.xy(w[1]));
        t.move_allowed(u, (v.0 - u.0, v.1 - u.1))
    })
}

/// [HPA.COST.PATH] The left fold `((0 + cost(c0 -> c1)) + cost(c1 -> c2)) + …` of the move
/// costs ([HPA.MOVE]); 0 for one cell.
pub(crate) fn cost_path(t: &Terrain<'_>, cells: &[u32]) -> f64 {
    let mut cost = 0.0;
    for w in cells.windows(2) {
        let (u, v) = (t.xy(w[0]), t.xy(w[1]));
        let diagonal = u.0 != v.0 && u.1 != v.1;
        cost += t.move_cost(w[0], w[1], diagonal).unwrap_or(f64::INFINITY);
    }
    cost
}

/// [HPA.SMOOTH.RULE] Greedy string pulling: for `i = 0, 1, …` while `i + 2 < len`, the largest
/// `j >= i + 2` whose line from `cell[i]` is all allowed moves and strictly cheaper than
/// `cell[i ..= j]` replaces it; then loops are cut again.
pub(crate) fn smooth_rule(t: &Terrain<'_>, mut cells: Vec<u32>) -> Vec<u32> {
    let mut i = 0;
    while i + 2 < cells.len() {
        let mut j = cells.len() - 1;
        while j >= i + 2 {
            let line = smooth_line(t, cells[i], cells[j]);
            if moves_allowed(t, &line) && cost_path(t, &line) < cost_path(t, &cells[i..=j]) {
                cells.splice(i..=j, line);
                break;
            }
            j -= 1;
        }
        i += 1;
    }
    refine_loops(cells)
}
