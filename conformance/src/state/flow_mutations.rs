//! The flow-field family of [CONF.STATE.MUTATIONS] (kind 7, [CONF.STATE.FLOW_FIELD]), appended
//! after every generic family of `mutations.rs`.

use super::layout::Layout;
use super::mutations::{read_i32, set, set_f64, set_i32};
use super::recipes::Splice;

/// [CONF.STATE.FLOW_FIELD] The flow-field family ([FLOW.STATE.HEADER_CHECKS],
/// [FLOW.STATE.SEARCH_CHECKS]): values each rule rejects that the generic families do not write
/// (a status of 3 and statuses that contradict the settled count, the repairing flag or the open
/// set; creation goals that differ from the field's; a goal set out of order, repeated or
/// another set; pending and touched cells repeated; reached cells out of order or with costs
/// out of range; steps from unreached cells, to unreached cells and to costlier cells; open
/// nodes repeated, unreached or out of heap order).
pub(super) fn flow_field_mutations(
    l: &Layout,
    golden: &[u8],
    m: &mut impl FnMut(String, Vec<Splice>),
) {
    let at = |name: &str| l.fields.iter().find(|f| f.name == name).map(|f| f.offset);
    let f64_at = |o: usize| {
        f64::from_bits(u64::from_le_bytes(
            golden[o..o + 8].try_into().expect("f64"),
        ))
    };
    let cells = read_i32(golden, 8).saturating_mul(read_i32(golden, 12));
    let list = |prefix: &str, suffix: &str| -> Vec<(usize, i32)> {
        (0..)
            .map_while(|i| at(&format!("{prefix}[{i}]{suffix}")))
            .map(|o| (o, read_i32(golden, o)))
            .collect()
    };
    let reached = list("reached", ".cell");
    let cost_of = |c: i32| {
        reached
            .iter()
            .find(|&&(_, v)| v == c)
            .map(|&(o, _)| f64_at(o + 4))
    };
    let unreached = (0..cells).find(|c| cost_of(*c).is_none());
    // Status and the fields that depend on it.
    if let Some(o) = at("status") {
        m("status = 3".into(), vec![set(o, &[3])]);
        for v in [0u8, 1, 2] {
            if v != golden[o] {
                m(
                    format!("status = {v} (the rest unchanged)"),
                    vec![set(o, &[v])],
                );
            }
        }
    }
    if let (Some(o), Some(s)) = (at("repairing"), at("status")) {
        if golden[o] == 0 && golden[s] != 1 {
            // Setting the flag would also make a touched list follow; the flag is checked first.
            m(
                "repairing = 1 while the status is not Running".into(),
                vec![set(o, &[1])],
            );
        }
    }
    if let (Some(o), Some(s)) = (at("settled"), at("status")) {
        if golden[s] == 0 {
            m("settled = 1 while not started".into(), vec![set_i32(o, 1)]);
        }
    }
    // Creation goals and the goal set.
    let goals = list("goals", "");
    if let Some(&(o, g)) = goals.first() {
        m(
            format!(
                "goals[0] = {} (another cell than the field's)",
                (g + 1) % cells.max(1)
            ),
            vec![set_i32(o, (g + 1) % cells.max(1))],
        );
    }
    if let (Some(&(a, x)), Some(&(b, y))) = (goals.first(), goals.get(1)) {
        if x != y {
            m(
                "goals 0 and 1 swapped (creation order)".into(),
                vec![set_i32(a, y), set_i32(b, x)],
            );
        }
    }
    let set_cells = list("goal_set", "");
    if let Some(&(o, g)) = set_cells.first() {
        if let Some(other) =
            (0..cells).find(|c| *c != g && !set_cells.iter().any(|&(_, v)| v == *c))
        {
            m(
                format!("goal_set[0] = {other} (not the field's goal)"),
                vec![set_i32(o, other)],
            );
        }
    }
    if let (Some(&(a, x)), Some(&(b, y))) = (set_cells.first(), set_cells.get(1)) {
        m(
            "goal set cells 0 and 1 swapped (not increasing)".into(),
            vec![set_i32(a, y), set_i32(b, x)],
        );
        m(
            "goal set cell 1 equal to cell 0 (not strictly increasing)".into(),
            vec![set_i32(b, x)],
        );
    }
    // Pending and touched cells.
    let pending = list("pending", "");
    if let (Some(&(_, x)), Some(&(b, _))) = (pending.first(), pending.get(1)) {
        m(
            "pending[1] = pending[0] (duplicate)".into(),
            vec![set_i32(b, x)],
        );
    }
    let touched = list("touched", "");
    if let (Some(&(_, x)), Some(&(b, _))) = (touched.first(), touched.get(1)) {
        m(
            "touched[1] = touched[0] (duplicate)".into(),
            vec![set_i32(b, x)],
        );
    }
    if let Some(&(o, _)) = touched.first() {
        m(
            format!("touched[0] = {cells} (outside the grid)"),
            vec![set_i32(o, cells)],
        );
    }
    // Reached cells.
    if let (Some(&(a, x)), Some(&(b, y))) = (reached.first(), reached.get(1)) {
        m(
            "reached cells 0 and 1 swapped (not increasing)".into(),
            vec![set_i32(a, y), set_i32(b, x)],
        );
        m("reached cell 1 equal to cell 0".into(), vec![set_i32(b, x)]);
    }
    if let Some(&(o, _)) = reached.last() {
        for v in [-1.0, f64::INFINITY, -f64::INFINITY] {
            m(
                format!("the last reached cost = {v:?}"),
                vec![set_f64(o + 4, v)],
            );
        }
        m(
            "the last reached cost = -0.0 (passes the cost check; a step from the cell may then fail)".into(),
            vec![set_f64(o + 4, -0.0)],
        );
    }
    // Steps.
    let steps: Vec<(usize, i32, i32)> = (0..)
        .map_while(|i| {
            let c = at(&format!("steps[{i}].cell"))?;
            Some((c, read_i32(golden, c), read_i32(golden, c + 4)))
        })
        .collect();
    if let Some(&(o, c, n)) = steps.first() {
        if let Some(u) = unreached {
            m(
                format!("steps[0].next = {u} (an unreached cell)"),
                vec![set_i32(o + 4, u)],
            );
            if u > c && steps.get(1).is_none_or(|s| u < s.1) {
                m(
                    format!("steps[0].cell = {u} (an unreached cell)"),
                    vec![set_i32(o, u)],
                );
            }
        }
        let here = cost_of(c).unwrap_or(f64::INFINITY);
        if let Some(&(_, dear)) = reached
            .iter()
            .find(|&&(ro, v)| v != n && f64_at(ro + 4) > here)
        {
            m(
                format!("steps[0].next = {dear} (a cell that costs more)"),
                vec![set_i32(o + 4, dear)],
            );
        }
        m(
            format!("steps[0].next = {c} (itself: accepted, the path query finds the cycle)"),
            vec![set_i32(o + 4, c)],
        );
    }
    if let (Some(&(a, x, _)), Some(&(b, y, _))) = (steps.first(), steps.get(1)) {
        m(
            "step cells 0 and 1 swapped (not increasing)".into(),
            vec![set_i32(a, y), set_i32(b, x)],
        );
    }
    // The open set.
    let open = list("open", ".node");
    if let Some(&(o, _)) = open.first() {
        if let Some(u) = unreached {
            m(
                format!("open[0].node = {u} (unreached)"),
                vec![set_i32(o, u)],
            );
        }
        m(
            format!("open[0].node = {cells} (outside the grid)"),
            vec![set_i32(o, cells)],
        );
    }
    if let (Some(&(a, x)), Some(&(b, _))) = (open.first(), open.get(1)) {
        m(
            "open[1].node = open[0].node (duplicate)".into(),
            vec![set_i32(b, x)],
        );
        let sa = golden[a..a + 20].to_vec();
        let sb = golden[b..b + 20].to_vec();
        m(
            "open slots 0 and 1 swapped (heap order)".into(),
            vec![set(a, &sb), set(b, &sa)],
        );
    }
    // Appended: heap order broken by `g` alone. The first slot whose node is larger than its
    // parent's gets the parent's `f` and a `g` one larger than the parent's: it precedes its
    // parent only through the larger-`g` rule of [STATE.HEAP.ARRAY] (a check that read `f`
    // where `g` belongs would see a tie broken by node in the parent's favour).
    let slot = |i: usize| {
        open.get(i)
            .map(|&(o, n)| (o, n, f64_at(o + 4), f64_at(o + 12)))
    };
    let by_g = (1..open.len()).find_map(|i| {
        let (o, n, _, _) = slot(i)?;
        let (_, pn, pf, pg) = slot((i - 1) / 2)?;
        (n > pn && (pg + 1.0).is_finite()).then_some((i, o, pf, pg))
    });
    if let Some((i, o, pf, pg)) = by_g {
        m(
            format!("open[{i}] given its parent's f and a g one larger (heap order by g alone)"),
            vec![set_f64(o + 4, pf), set_f64(o + 12, pg + 1.0)],
        );
    }
    // Appended (port-mutation judge, issue 35, session 12): the lower bound of a touched entry,
    // and a not-started field with reached cells.
    if let Some(&(o, _)) = touched.first() {
        m(
            "touched[0] = -1 (outside the grid)".into(),
            vec![set_i32(o, -1)],
        );
    }
    if let (Some(s), Some(t), Some(r)) = (at("status"), at("settled"), at("repairing")) {
        if golden[s] != 0 && golden[r] == 0 && !reached.is_empty() {
            // The settled rule and the repairing flag hold for NotStarted, so the reached count
            // is the first field that tells the state is not a not-started one.
            m(
                "status = 0 and settled = 0 (a started field's reached cells kept)".into(),
                vec![set(s, &[0]), set_i32(t, 0)],
            );
        }
    }
}
