//! The replanner family of [CONF.STATE.MUTATIONS] (kinds 5 and 6, [CONF.STATE.REPLANNER]),
//! appended after every generic family of `mutations.rs`.

use super::layout::Layout;
use super::mutations::{read_i32, set, set_f64, set_i32};
use super::recipes::Splice;

/// [CONF.STATE.REPLANNER] The replanner family ([REPLAN.STATE.CHECKS]): values each field's range
/// rule rejects that the generic families above do not write (a mode of 2, a found flag without
/// initialisation, counters out of order, km out of range, LPA*'s km, pending entries outside
/// the grid and past the limit, planned cells out of order or without a value, queue nodes
/// repeated or out of heap order).
pub(super) fn replanner_mutations(
    l: &Layout,
    golden: &[u8],
    m: &mut impl FnMut(String, Vec<Splice>),
) {
    let at = |name: &str| l.fields.iter().find(|f| f.name == name).map(|f| f.offset);
    let i64_at = |o: usize| i64::from_le_bytes(golden[o..o + 8].try_into().expect("i64"));
    let cells = read_i32(golden, 8).saturating_mul(read_i32(golden, 12));
    if let Some(o) = at("mode") {
        m("mode = 2".into(), vec![set(o, &[2])]);
    }
    if let Some(o) = at("algorithm") {
        m("algorithm = 4 (Theta)".into(), vec![set(o, &[4])]);
    }
    if let (Some(o), Some(i)) = (at("found"), at("initialized")) {
        if golden[i] == 0 {
            m("found = 1 while not initialised".into(), vec![set(o, &[1])]);
        }
    }
    if let (Some(it), Some(ex)) = (at("iterations"), at("expanded")) {
        let n = i64_at(it);
        m(
            format!("expanded = {} (more than the iterations)", n + 1),
            vec![set(ex, &(n + 1).to_le_bytes())],
        );
        if let Some(le) = at("last_expanded") {
            let e = i64_at(ex);
            if let Ok(v) = i32::try_from(e + 1) {
                m(
                    format!("last_expanded = {v} (more than expanded)"),
                    vec![set_i32(le, v)],
                );
            }
        }
    }
    if let Some(o) = at("inner_start") {
        let v = read_i32(golden, o);
        m(
            format!(
                "inner_start = {} (another cell than the header's)",
                (v + 1) % cells.max(1)
            ),
            vec![set_i32(o, (v + 1) % cells.max(1))],
        );
    }
    if let Some(o) = at("km") {
        for v in [-1.0, f64::INFINITY, 0.5] {
            m(format!("km = {v:?}"), vec![set_f64(o, v)]);
        }
    }
    if let Some(o) = at("overflow") {
        if golden[o] == 0 && read_i32(golden, o + 1) > 0 {
            m(
                "overflow = 1 with pending entries".into(),
                vec![set(o, &[1])],
            );
        }
    }
    if let Some(o) = at("pending[0]") {
        m(
            format!("pending[0] = {cells} (outside the grid)"),
            vec![set_i32(o, cells)],
        );
        m(
            format!("pending[0] = !{cells} (complement outside the grid)"),
            vec![set_i32(o, !cells)],
        );
        m("pending[0] = i32::MIN".into(), vec![set_i32(o, i32::MIN)]);
    }
    if let (Some(a), Some(b)) = (at("planned[0].cell"), at("planned[1].cell")) {
        let (x, y) = (read_i32(golden, a), read_i32(golden, b));
        m(
            "planned cells 0 and 1 swapped (not increasing)".into(),
            vec![set_i32(a, y), set_i32(b, x)],
        );
        m("planned cell 1 equal to cell 0".into(), vec![set_i32(b, x)]);
    }
    if let (Some(g), Some(r)) = (at("planned[0].g"), at("planned[0].rhs")) {
        m(
            "planned[0]: g = rhs = +inf".into(),
            vec![set_f64(g, f64::INFINITY), set_f64(r, f64::INFINITY)],
        );
        m("planned[0].g = -1".into(), vec![set_f64(g, -1.0)]);
        m(
            "planned[0].rhs = -inf".into(),
            vec![set_f64(r, f64::NEG_INFINITY)],
        );
    }
    if let (Some(g), Some(r)) = (at("planned[0].g"), at("planned[0].rhs")) {
        // Byte order within a planned cell: g's range is checked before rhs is read.
        m(
            "planned[0].g = -1 and planned[0].rhs = NaN (g first)".into(),
            vec![
                set_f64(g, -1.0),
                set(r, &0x7FF8_0000_0000_0000u64.to_le_bytes()),
            ],
        );
    }
    if let Some(a) = at("queue[0].node") {
        // A queue node outside the grid is bad_heap_node, not index_out_of_range.
        m(
            format!("queue[0].node = {cells} (outside the grid)"),
            vec![set_i32(a, cells)],
        );
    }
    if let (Some(a), Some(b)) = (at("queue[0].node"), at("queue[1].node")) {
        let x = read_i32(golden, a);
        m(
            "queue[1].node = queue[0].node (duplicate)".into(),
            vec![set_i32(b, x)],
        );
        // Swap the two slots whole: heap order breaks unless the keys are equal.
        let sa = golden[a..a + 20].to_vec();
        let sb = golden[b..b + 20].to_vec();
        m(
            "queue slots 0 and 1 swapped (heap order)".into(),
            vec![set(a, &sb), set(b, &sa)],
        );
    }
    if let Some(a) = at("queue[0].node") {
        // A node that is not planned: the first cell index missing from the planned list.
        let planned: Vec<i32> = (0..)
            .map_while(|i| at(&format!("planned[{i}].cell")).map(|o| read_i32(golden, o)))
            .collect();
        if let Some(v) = (0..cells).find(|v| !planned.contains(v)) {
            m(
                format!("queue[0].node = {v} (not planned)"),
                vec![set_i32(a, v)],
            );
        }
    }
}
