//! Counter families of [CONF.STATE.MUTATIONS] appended after every family of `mutations.rs`,
//! `replan_mutations.rs` and `flow_mutations.rs` (port-mutation judge, issue 35): rules between
//! two counters, or between a counter and the visited cells, that a one-field value cannot reach.

use super::layout::Layout;
use super::mutations::{read_i32, set, set_i32};
use super::recipes::Splice;
use super::StateKind;

/// - Kinds 8, 9, 10 and 11, a started search: `expanded = iterations + 1`, in range on its own
///   but larger than the iterations ([STATE.SEARCH]: `out_of_range` at `iterations`; kinds 8-10
///   since session 17, when a port whose check read `expanded > iterations and (not started
///   and iterations != 0)` passed every vector).
/// - Kind 12 mode 1, a Found state: the goal's closed flag cleared and `iterations` and
///   `expanded` each lowered by 1, so rule (3) of [GS.STATE.MODE1.CHECKS] (iterations = closed
///   cells, expanded = iterations - 1) still holds and rule (4), the goal visited and closed,
///   reports `out_of_range` at `path_a`.
/// - Kind 12 mode 1 or 3, a Found state: `path_a = -1`, then `path_b = -1` (session 14): a
///   Found state's path ends are at least 0 ([GS.STATE.MODE1.CHECKS]), and -1 is the one value
///   below 0 that a sign check written as `< -1` (the value of a state that is not Found) lets
///   through, to fail later at another field or not at all.
pub(super) fn counter_mutations(
    kind: StateKind,
    l: &Layout,
    golden: &[u8],
    m: &mut impl FnMut(String, Vec<Splice>),
) {
    let at = |name: &str| l.fields.iter().find(|f| f.name == name).map(|f| f.offset);
    if matches!(
        kind,
        StateKind::GraphAStar | StateKind::AStar | StateKind::JumpSearch | StateKind::ThetaSearch
    ) {
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
    if let Some(h) = l.handle.as_ref().filter(|h| h.status == 2) {
        m("path_a = -1 (Found)".into(), vec![set_i32(h.path_a_at, -1)]);
        m(
            "path_b = -1 (Found)".into(),
            vec![set_i32(h.path_a_at + 4, -1)],
        );
    }
}
