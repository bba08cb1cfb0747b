//! [GS.STATE.MODE3] [GS.STATE.MODE3.CHECKS] Kind 12 mode 3: the specialised jump engine's cells
//! and its open list as it lay (spec/grid-search.md §10).

use super::jump::sign_dir;
use super::moves::{octile_pair, Pair, Terrain, DIRS};
use super::options::Connectivity;
use super::specialised_jump::{ft_precedes, Ft, SpecialisedJump};
use super::state::*;
use super::state_handle::*;
use crate::astar::SearchStatus;
use crate::state::{Fault, Reader};
/// [GS.STATE.MODE3] [GS.STATE.MODE3.CHECKS] Reads mode 3 (after the mode header) and builds the
/// engine with its open list as it lay.
pub(super) fn read_mode3(
    r: &mut Reader<'_>,
    t: &Terrain<'_>,
    finder: u8,
    record: bool,
) -> Result<SpecialisedJump, Fault> {
    let n = t.cell_count();
    let at = r.pos();
    let fb = r.u8()?;
    if fb > 1 {
        return bad("out_of_range", at, format!("finder {fb} is not 0..=1"));
    }
    if fb != finder {
        return bad(
            "engine_mismatch",
            at,
            format!("finder {fb}, the search selects {finder}"),
        );
    }
    let f = read_fixed(r, n, false)?;
    let cells = read_cells(r, t, true)?;
    // level: finite or the canonical NaN.
    let level_at = r.pos();
    let bits = r.u64()?;
    let level = f64::from_bits(bits);
    if level.is_nan() && bits != LEVEL_NAN {
        return bad(
            "nan",
            level_at,
            format!("level bits {bits:#018x} are not the canonical NaN"),
        );
    }
    if level.is_infinite() {
        return bad(
            "out_of_range",
            level_at,
            format!("level {level:?} is infinite"),
        );
    }
    // The heap.
    let heap_count_at = r.pos();
    let hc = r.i32()?;
    let hb = (r.remaining() / 16) as i64;
    if hc < 0 || i64::from(hc) > hb {
        return bad(
            "count_out_of_range",
            heap_count_at,
            format!("heap count {hc} is outside 0..={hb}"),
        );
    }
    let mut heap = Vec::with_capacity(hc as usize);
    let mut heap_at = Vec::with_capacity(hc as usize);
    let mut has_entry = vec![false; cells.len()];
    for _ in 0..hc {
        let f_at = r.pos();
        let fv = r.f64("heap F")?;
        if !fv.is_finite() {
            return bad("out_of_range", f_at, format!("heap F {fv:?} is infinite"));
        }
        let t_at = r.pos();
        let tv = r.u64()?;
        let cell = tv & 0xFFFF_FFFF;
        let Some(i) = (cell < n as u64)
            .then(|| find(&cells, cell as u32))
            .flatten()
        else {
            return bad(
                "bad_heap_node",
                t_at,
                format!("heap cell {cell} is not visited"),
            );
        };
        has_entry[i] = true;
        heap.push(Ft { f: fv, t: tv });
        heap_at.push(f_at);
    }
    for i in 1..heap.len() {
        if ft_precedes(&heap[i], &heap[(i - 1) / 2]) {
            return bad(
                "heap_order",
                heap_at[i],
                format!("heap slot {i} precedes its parent"),
            );
        }
    }
    // The stack.
    let at = r.pos();
    let sc = r.i32()?;
    let sb = (r.remaining() / 4) as i64;
    if sc < 0 || i64::from(sc) > sb {
        return bad(
            "count_out_of_range",
            at,
            format!("stack count {sc} is outside 0..={sb}"),
        );
    }
    let mut stack = Vec::with_capacity(sc as usize);
    for _ in 0..sc {
        let at = r.pos();
        let v = r.i32()?;
        let Some(i) = (v >= 0 && (v as usize) < n)
            .then(|| find(&cells, v as u32))
            .flatten()
        else {
            return bad(
                "bad_heap_node",
                at,
                format!("stack cell {v} is not visited"),
            );
        };
        has_entry[i] = true;
        stack.push(v as u32);
    }
    // Cross check (1): the start and the parent-less cells.
    // [GS.STATE.MODE3.CHECKS]: (1) mixes a whole-list condition ("the start is
    // visited") with per-cell ones; the reference checks "start visited" first (at the start
    // field), then passes over the cells in increasing order.
    if !cells.is_empty() {
        if find(&cells, f.start).is_none() {
            return bad("bad_parent", f.start_at, "the start is not visited".into());
        }
        for c in &cells {
            let ok = if c.cell == f.start {
                c.pair == Pair::default() && c.parent == -1 && (c.closed || f.iterations == 0)
            } else {
                c.parent != -1
            };
            if !ok {
                return bad(
                    "bad_parent",
                    c.at,
                    format!("cell {} breaks the start / parent rule", c.cell),
                );
            }
        }
    }
    // (2) every other cell's parent is a closed visited cell one valid hop back.
    for c in &cells {
        if c.cell == f.start {
            continue;
        }
        let ok = find(&cells, c.parent as u32).is_some_and(|j| {
            let p = &cells[j];
            let (pp, pc) = (t.xy(p.cell), t.xy(c.cell));
            let (dx, dy) = ((pc.0 - pp.0).abs(), (pc.1 - pp.1).abs());
            let hop_ok = (dx, dy) != (0, 0) && (dx == 0 || dy == 0 || dx == dy);
            let oct = octile_pair(pp, pc, Connectivity::Eight);
            hop_ok
                && p.closed
                && p.pair.add(oct) == c.pair
                && DIRS[c.dir as usize] == sign_dir(pp, pc)
        });
        if !ok {
            return bad(
                "bad_parent",
                c.at,
                format!(
                    "cell {} has no closed visited parent one valid hop back",
                    c.cell
                ),
            );
        }
    }
    // (3) counters.
    check_counters(&f, &cells)?;
    // (4) the goal is closed exactly when Found, then with pair (pathA, pathB).
    let goal_closed = find(&cells, f.goal).is_some_and(|j| cells[j].closed);
    let found = f.status == SearchStatus::Found;
    let goal_ok = if found {
        goal_closed && find(&cells, f.goal).is_some_and(|j| cells[j].pair == f.path)
    } else {
        !goal_closed
    };
    if !goal_ok {
        return bad(
            "out_of_range",
            f.path_a_at,
            "the goal is not closed exactly when Found with pair (pathA, pathB)".into(),
        );
    }
    // (5) level NaN exactly when nothing has popped.
    if level.is_nan() != (f.iterations == 0) {
        return bad(
            "out_of_range",
            level_at,
            format!("level {level:?} with iterations {}", f.iterations),
        );
    }
    // (6) every open cell has an entry.
    for (i, c) in cells.iter().enumerate() {
        if !c.closed && !has_entry[i] {
            return bad(
                "missing_open_node",
                c.at,
                format!("open cell {} has no heap or stack entry", c.cell),
            );
        }
    }
    // (7) a NotFound search has no entries.
    if f.status == SearchStatus::NotFound && !(heap.is_empty() && stack.is_empty()) {
        return bad(
            "out_of_range",
            heap_count_at,
            "a NotFound search has open entries".into(),
        );
    }
    let mut e = SpecialisedJump::new(n, finder, record);
    e.start = f.start;
    e.goal = f.goal;
    e.status = f.status;
    e.iterations = f.iterations;
    e.expanded = f.expanded;
    for c in &cells {
        let i = c.cell as usize;
        e.visited[i] = true;
        e.pair[i] = c.pair;
        e.parent[i] = c.parent;
        e.dir[i] = c.dir;
        e.closed[i] = c.closed;
    }
    e.level = level;
    e.heap = heap;
    e.stack = stack;
    Ok(e)
}
