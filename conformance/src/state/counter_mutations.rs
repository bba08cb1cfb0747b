//! Counter families of [CONF.STATE.MUTATIONS] appended after every family of `mutations.rs`,
//! `replan_mutations.rs` and `flow_mutations.rs` (port-mutation judge, issue 35): rules between
//! two counters, or between a counter and the visited cells, that a one-field value cannot reach.

use super::layout::Layout;
use super::mutations::{read_i32, set, set_i32};
use super::recipes::Splice;
use super::StateKind;

/// - Kind 11, a started search: `expanded = iterations + 1`, in range on its own but larger than
///   the iterations ([STATE.SEARCH]: `out_of_range` at `iterations`).
/// - Kind 12 mode 1, a Found state: the goal's closed flag cleared and `iterations` and
///   `expanded` each lowered by 1, so rule (3) of [GS.STATE.MODE1.CHECKS] (iterations = closed
///   cells, expanded = iterations - 1) still holds and rule (4), the goal visited and closed,
///   reports `out_of_range` at `path_a`.
pub(super) fn counter_mutations(
    kind: StateKind,
    l: &Layout,
    golden: &[u8],
    m: &mut impl FnMut(String, Vec<Splice>),
) {
    let at = |name: &str| l.fields.iter().find(|f| f.name == name).map(|f| f.offset);
    if kind == StateKind::GraphAStar {
        if let (Some(s), Some(ex), Some(it)) = (&l.search, at("expanded"), at("iterations")) {
            if s.status != 0 {
                if let Some(v) = read_i32(golden, it).checked_add(1) {
                    m(
                        format!("expanded = {v} (iterations + 1)"),
                        vec![set_i32(ex, v)],
                    );
                }
            }
        }
    }
    if let Some(h) = l.handle.as_ref().filter(|h| h.mode == 1 && h.status == 2) {
        if let Some(g) = h
            .cells
            .iter()
            .find(|c| c.cell == h.goal && c.flags & 1 == 1)
        {
            let it = read_i32(golden, h.iterations_at);
            let ex = read_i32(golden, h.iterations_at - 4);
            m(
                "the goal's closed flag cleared, iterations and expanded each - 1".into(),
                vec![
                    set(g.at + 12, &[g.flags & !1]),
                    set_i32(h.iterations_at, it - 1),
                    set_i32(h.iterations_at - 4, ex - 1),
                ],
            );
        }
    }
}
