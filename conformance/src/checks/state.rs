//! The `state` section ([CONF.CHECK.STATE]): golden state vectors decode and re-encode byte-exact
//! on every implementation, every hostile case is rejected with the recorded class and offset and
//! leaves the object unchanged (or, for a search, newly created), listeners see exactly the
//! changed cells, snapshots of generated searches resume exactly, and seeded random mutations of
//! golden states get identical answers from every implementation without a panic.

use super::Config;
use crate::error::{ErrorKind, HarnessError};
use crate::implementation::{Implementation, SearchCode};
use crate::prng::{derive_seed, SplitMix64};
use crate::report::{Failure, Section};
use crate::state::files::{read_dir, HostileFile, StateVector};
use crate::state::finish::{finish_divergence, finish_words};
use crate::state::layout::{not_started_bytes, try_walk, Field, Ty};
use crate::state::recipes::{apply, search_graph, Splice};
use crate::state::{
    HeuristicName, SearchSummary, StateError, StateKind, StateRecipe, StateReply, StateRequest,
};
use std::panic::{catch_unwind, AssertUnwindSafe};

mod random;
mod section;
use random::random_case;
pub use random::random_mutation;
pub use section::{probe, run, run_probed, Probed};

/// The step budgets of the snapshot check.
pub const SNAPSHOT_BUDGETS: [u64; 4] = [1, 2, 3, 7];

/// Runs a request, reporting a panic as an error (`panicked: ...`).
pub fn call(imp: &dyn Implementation, request: &StateRequest) -> Result<StateReply, HarnessError> {
    call_as(imp, None, request)
}

/// As [`call`], naming the request after the vector id or generated case it belongs to (a port
/// sends the name with the request and reports by it, [DRIVER.MSG.REQUEST]).
pub fn call_as(
    imp: &dyn Implementation,
    label: Option<&str>,
    request: &StateRequest,
) -> Result<StateReply, HarnessError> {
    match catch_unwind(AssertUnwindSafe(|| match label {
        Some(l) => imp.run_state_as(l, request),
        None => imp.run_state(request),
    })) {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(HarnessError::new(
                ErrorKind::Panicked,
                format!("panicked: {msg}"),
            ))
        }
    }
}

/// The first difference of two byte strings, naming the field when the layout is known.
pub fn byte_diff(kind: StateKind, expected: &[u8], found: &[u8]) -> Option<(String, String)> {
    if expected == found {
        return None;
    }
    let at = expected
        .iter()
        .zip(found)
        .position(|(a, b)| a != b)
        .unwrap_or(expected.len().min(found.len()));
    let field = try_walk(kind, expected).and_then(|l| {
        l.fields
            .iter()
            .rev()
            .find(|f| f.offset <= at)
            .map(|f| f.name.clone())
    });
    let show = |b: &[u8]| {
        if at < b.len() {
            format!("{} bytes, byte {at} = {:#04x}", b.len(), b[at])
        } else {
            format!("{} bytes (ends at {at})", b.len())
        }
    };
    Some((
        format!(
            "{} (first difference at byte {at}{})",
            show(expected),
            field.map(|f| format!(", field {f}")).unwrap_or_default()
        ),
        show(found),
    ))
}

/// The listener calls a restore from `old` to `new` bytes must make ([GRID.LISTEN.RESTORE]).
/// Bytes that do not have a state's shape give no calls (the restore must not have succeeded).
pub fn expected_cells(kind: StateKind, old: &[u8], new: &[u8]) -> Vec<(u32, u8, u8)> {
    let cells = |b: &[u8]| try_walk(kind, b).and_then(|l| l.cells).unwrap_or_default();
    let (a, b) = (cells(old), cells(new));
    a.iter()
        .zip(&b)
        .enumerate()
        .filter(|(_, (x, y))| x != y)
        .map(|(i, (x, y))| (i as u32, *x, *y))
        .collect()
}

fn show_cells(c: &[(u32, u8, u8)]) -> String {
    let head: Vec<String> = c
        .iter()
        .take(6)
        .map(|(i, a, b)| format!("({i}, {a}, {b})"))
        .collect();
    format!(
        "{} calls [{}{}]",
        c.len(),
        head.join(", "),
        if c.len() > 6 { ", ..." } else { "" }
    )
}

fn show_result(r: &Option<Result<(), StateError>>) -> String {
    match r {
        None => "no result".into(),
        Some(Ok(())) => "accepted".into(),
        Some(Err(e)) => e.compact(),
    }
}

struct Ctx<'a> {
    imp: &'a dyn Implementation,
}

impl Ctx<'_> {
    /// [CONF.STATE.DIVERGENCE] A failure when two finishes differ, naming the first member that
    /// differs (`path[3]`, `status`) and its two values, never the structures' debug forms.
    fn finish_fail(
        &self,
        vector: &str,
        what: &str,
        expected: Option<&SearchSummary>,
        found: Option<&SearchSummary>,
    ) -> Option<Failure> {
        let (member, e, f) = finish_divergence(expected, found)?;
        Some(self.fail(vector, format!("{what}: search {member}"), e, f))
    }

    fn fail(
        &self,
        vector: &str,
        what: impl Into<String>,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Failure {
        Failure {
            vector: Some(vector.to_string()),
            implementation: self.imp.name().to_string(),
            what: what.into(),
            expected: expected.into(),
            found: found.into(),
            ..Default::default()
        }
    }
}

/// The golden vectors and hostile files the section runs: the committed ones under
/// `config.vectors_dir`, else generated from the reference in memory.
pub fn load(
    reference: &dyn Implementation,
    config: &Config,
) -> Result<Vec<(StateVector, HostileFile)>, HarnessError> {
    match &config.vectors_dir {
        Some(dir) => read_dir(dir),
        None => Ok(crate::state::files::generate(reference)?
            .into_iter()
            .map(|g| (g.vector, g.hostile))
            .collect()),
    }
}

fn valid(c: &Ctx<'_>, v: &StateVector, s: &mut Section) {
    let golden = v.decoded().expect("validated");
    let kind = v.recipe.kind();
    let id = v.id.as_str();
    // Replaying the recipe gives the bytes ([STATE.STABLE]).
    let built = match call_as(
        c.imp,
        Some(id),
        &StateRequest::Restore {
            recipe: v.recipe.clone(),
            bytes: None,
            finish: false,
        },
    ) {
        Ok(r) => r,
        Err(e) => return s.fail(c.fail(id, "recipe replay", "the recipe's object", e)),
    };
    let replayed = apply(&built.before, &v.splices());
    s.record(
        byte_diff(kind, &golden, &replayed)
            .map(|(e, f)| c.fail(id, "recipe replay: save_state bytes", e, f)),
    );
    // from_state then save is byte-exact.
    if kind.has_from_state() {
        match call_as(
            c.imp,
            Some(id),
            &StateRequest::FromState {
                kind,
                bytes: golden.clone(),
            },
        ) {
            Ok(r) if r.restore == Some(Ok(())) => s.record(
                byte_diff(kind, &golden, &r.after)
                    .map(|(e, f)| c.fail(id, "from_state then save_state", e, f)),
            ),
            Ok(r) => s.fail(c.fail(id, "from_state", "accepted", show_result(&r.restore))),
            Err(e) => s.fail(c.fail(id, "from_state", "accepted", e)),
        }
    }
    // Restore into the target (a blank object of the same shape / a fresh search).
    let target = match kind {
        k if k.is_search() => v.recipe.fresh_search().expect("search"),
        _ => v.recipe.target(),
    };
    let into = match call_as(
        c.imp,
        Some(id),
        &StateRequest::Restore {
            recipe: target.clone(),
            bytes: Some(golden.clone()),
            finish: false,
        },
    ) {
        Ok(r) => r,
        Err(e) => return s.fail(c.fail(id, "restore into the target", "accepted", e)),
    };
    if into.restore != Some(Ok(())) {
        return s.fail(c.fail(
            id,
            "restore into the target",
            "accepted",
            show_result(&into.restore),
        ));
    }
    s.pass();
    s.record(
        byte_diff(kind, &golden, &into.after)
            .map(|(e, f)| c.fail(id, "restore then save_state", e, f)),
    );
    if matches!(
        kind,
        StateKind::Grid | StateKind::HexGrid | StateKind::VoxelGrid
    ) {
        let want = expected_cells(kind, &into.before, &golden);
        s.record((into.cells != want).then(|| {
            c.fail(
                id,
                "listener calls of the restore [GRID.LISTEN.RESTORE]",
                show_cells(&want),
                show_cells(&into.cells),
            )
        }));
        // The reverse restore: the recipe's object back to the blank target's bytes.
        if v.patch.is_empty() {
            match call_as(
                c.imp,
                Some(id),
                &StateRequest::Restore {
                    recipe: v.recipe.clone(),
                    bytes: Some(into.before.clone()),
                    finish: false,
                },
            ) {
                Ok(r) if r.restore == Some(Ok(())) => {
                    s.record(
                        byte_diff(kind, &into.before, &r.after)
                            .map(|(e, f)| c.fail(id, "reverse restore then save_state", e, f)),
                    );
                    let want = expected_cells(kind, &golden, &into.before);
                    s.record((r.cells != want).then(|| {
                        c.fail(
                            id,
                            "listener calls of the reverse restore [GRID.LISTEN.RESTORE]",
                            show_cells(&want),
                            show_cells(&r.cells),
                        )
                    }));
                }
                Ok(r) => s.fail(c.fail(id, "reverse restore", "accepted", show_result(&r.restore))),
                Err(e) => s.fail(c.fail(id, "reverse restore", "accepted", e)),
            }
        }
    }
    // A patched search golden (bytes no run produces) is finished as on the first implementation
    // instead ([`dependent_finish`]).
    if kind.is_search() && v.patch.is_empty() {
        // [STATE.SEARCH.RESTORE] the restored search finishes exactly as the uninterrupted one;
        // a handle in mode 1 or 3 with the recorded list it kept since the restore.
        let recorded_before = handle_expanded(kind, &golden);
        let mut whole = v.recipe.clone();
        if let StateRecipe::GraphAstar { run, .. } | StateRecipe::GridSearch { run, .. } =
            &mut whole
        {
            *run = true;
        }
        let u = call_as(
            c.imp,
            Some(id),
            &StateRequest::Restore {
                recipe: whole,
                bytes: None,
                finish: false,
            },
        );
        let r = call_as(
            c.imp,
            Some(id),
            &StateRequest::Restore {
                recipe: target,
                bytes: Some(golden.clone()),
                finish: true,
            },
        );
        match (u, r) {
            (Ok(u), Ok(r)) => {
                s.record(c.finish_fail(
                    id,
                    "restored search run to the end vs the uninterrupted run [STATE.SEARCH.RESTORE]",
                    comparable_finish(recorded_before, &u.search).as_ref(),
                    r.search.as_ref(),
                ));
                s.record(
                    byte_diff(kind, &u.before, &r.after)
                        .map(|(e, f)| c.fail(id, "final bytes of the restored search", e, f)),
                );
            }
            (Err(e), _) | (_, Err(e)) => {
                s.fail(c.fail(id, "restored search run to the end", "a result", e))
            }
        }
    }
}

/// The finished recipe of a replanner or flow-field golden vector on the first implementation
/// that ran it: its name, `search` part and final bytes, and for a patched golden the `search`
/// part and final bytes of its restored bytes finished ([`dependent_finish`]).
pub type FirstFinish = (
    String,
    Option<crate::state::SearchSummary>,
    Vec<u8>,
    Option<(Option<crate::state::SearchSummary>, Vec<u8>)>,
);

/// [REPLAN.STATE.RESTORE] [FLOW.STATE.RESTORE] For a replanner or flow-field golden vector: the
/// recipe's object finished (`replan(grid, 0)`, `step(grid, 0)`) reports the same `search` part
/// and saves the same final bytes as on the first implementation (`first`, set by the first call),
/// and the same object that restores its own saved bytes (the golden) before finishing "continues
/// exactly as the saved one would have": the same summary and bytes again. A patched golden
/// (bytes no run produces) is instead finished as on the first implementation ([CONF.CHECK.STATE]),
/// and so is a patched search golden (`run(None)`). Other kinds: nothing.
pub fn dependent_finish(
    imp: &dyn Implementation,
    v: &StateVector,
    first: &mut Option<FirstFinish>,
    s: &mut Section,
) {
    let kind = v.recipe.kind();
    let replayed = matches!(
        kind,
        StateKind::GridReplanner | StateKind::HexReplanner | StateKind::FlowField
    );
    if !replayed && !(kind.is_search() && !v.patch.is_empty()) {
        return;
    }
    let c = Ctx { imp };
    let id = v.id.as_str();
    let Ok(golden) = v.decoded() else {
        return; // reported by `valid`
    };
    let finished = |bytes: Option<Vec<u8>>| {
        call_as(
            imp,
            Some(id),
            &StateRequest::Restore {
                recipe: v.recipe.clone(),
                bytes,
                finish: true,
            },
        )
    };
    let u = match finished(None) {
        Ok(u) => u,
        Err(e) => return s.fail(c.fail(id, "recipe finished", "a result", e)),
    };
    let patched = !v.patch.is_empty();
    let restored = finished(Some(golden));
    let accepted = match &restored {
        Ok(r) if r.restore == Some(Ok(())) => Some(r),
        _ => None,
    };
    match first {
        None => {
            let golden_finish = accepted
                .filter(|_| patched)
                .map(|r| (r.search.clone(), r.after.clone()));
            *first = Some((
                imp.name().to_string(),
                u.search.clone(),
                u.after.clone(),
                golden_finish,
            ))
        }
        Some((name, search, after, golden_finish)) => {
            if let (Some((gs, ga)), Some(r)) = (golden_finish, accepted) {
                s.record(c.finish_fail(
                    id,
                    &format!("patched bytes restored and finished vs {name} [CONF.CHECK.STATE]"),
                    gs.as_ref(),
                    r.search.as_ref(),
                ));
                s.record(byte_diff(v.recipe.kind(), ga, &r.after).map(|(e, f)| {
                    c.fail(
                        id,
                        format!("final bytes of the patched bytes finished vs {name}"),
                        e,
                        f,
                    )
                }));
            }
            s.record(c.finish_fail(
                id,
                &format!(
                    "recipe finished vs {name} [CONF.STATE.REPLANNER] [CONF.STATE.FLOW_FIELD]"
                ),
                search.as_ref(),
                u.search.as_ref(),
            ));
            s.record(byte_diff(v.recipe.kind(), after, &u.after).map(|(e, f)| {
                c.fail(
                    id,
                    format!("final bytes of the finished recipe vs {name}"),
                    e,
                    f,
                )
            }));
        }
    }
    let r = match restored {
        Ok(r) if r.restore == Some(Ok(())) => r,
        Ok(r) => {
            return s.fail(c.fail(
                id,
                "restore of its own bytes before finishing",
                "accepted",
                show_result(&r.restore),
            ))
        }
        Err(e) => {
            return s.fail(c.fail(id, "finished after restoring its own bytes", "a result", e))
        }
    };
    if patched {
        return;
    }
    s.record(c.finish_fail(
        id,
        "finished after restoring its own bytes vs finished without the restore [REPLAN.STATE.RESTORE] [FLOW.STATE.RESTORE]",
        u.search.as_ref(),
        r.search.as_ref(),
    ));
    s.record(
        byte_diff(v.recipe.kind(), &u.after, &r.after).map(|(e, f)| {
            c.fail(
                id,
                "final bytes after restoring its own bytes and finishing",
                e,
                f,
            )
        }),
    );
}

/// Whether a restored search's final summary matches the uninterrupted run's: equal, except that
/// a kind-12 handle restored in mode 1 or 3 keeps only the expansions made after the restore
/// ([GS.HANDLE.RECORD]), which must be the tail of the uninterrupted list.
/// The uninterrupted run's finish as a restored handle reports it ([GS.HANDLE.RECORD]): a
/// handle restored in mode 1 or 3 records from the restore on, so its list is the
/// uninterrupted run's without the `recorded_before` expansions made before the restore point.
fn comparable_finish(
    recorded_before: Option<usize>,
    whole: &Option<SearchSummary>,
) -> Option<SearchSummary> {
    let mut w = whole.clone()?;
    if let Some(before) = recorded_before {
        w.expansions = w.expansions[before.min(w.expansions.len())..].to_vec();
    }
    Some(w)
}

/// The expansions a mode-1 or mode-3 handle state had made when it was saved (its `expanded`
/// field), or `None` for every other state.
fn handle_expanded(kind: StateKind, bytes: &[u8]) -> Option<usize> {
    let layout = try_walk(kind, bytes)?;
    layout.handle.as_ref()?;
    let f = layout.fields.iter().find(|f| f.name == "expanded")?;
    let b: [u8; 4] = bytes.get(f.offset..f.offset + 4)?.try_into().ok()?;
    usize::try_from(i32::from_le_bytes(b)).ok()
}

/// What a failed restore must leave: the bytes before ([STATE.ATOMIC]) or the NotStarted search.
fn check_failed_restore(
    c: &Ctx<'_>,
    id: &str,
    kind: StateKind,
    r: &StateReply,
    not_started: &[u8],
    s: &mut Section,
) {
    if kind.atomic() {
        s.record(
            byte_diff(kind, &r.before, &r.after)
                .map(|(e, f)| c.fail(id, "object after a failed restore [STATE.ATOMIC]", e, f)),
        );
        s.record((!r.cells.is_empty()).then(|| {
            c.fail(
                id,
                "listener calls of a failed restore [STATE.ATOMIC]",
                "none",
                show_cells(&r.cells),
            )
        }));
    } else {
        s.record(byte_diff(kind, not_started, &r.after).map(|(e, f)| {
            c.fail(
                id,
                "search after a failed restore [STATE.SEARCH_FAILED]",
                e,
                f,
            )
        }));
        let ok = r.search.as_ref().is_some_and(|x| {
            x.status == SearchCode::NotStarted
                && x.iterations == 0
                && x.expanded == 0
                && x.expansions.is_empty()
        });
        s.record((!ok).then(|| {
            c.fail(
                id,
                "search after a failed restore [STATE.SEARCH_FAILED]",
                "status 0 (not started), iterations 0, expanded 0, 0 expansions",
                finish_words(r.search.as_ref()),
            )
        }));
    }
}

fn hostile(c: &Ctx<'_>, v: &StateVector, h: &HostileFile, s: &mut Section) {
    let golden = v.decoded().expect("validated");
    let kind = v.recipe.kind();
    let n = not_started_bytes(&h.target);
    for case in &h.cases {
        let bytes = case.bytes(&golden);
        match call_as(
            c.imp,
            Some(&case.id),
            &StateRequest::Restore {
                recipe: h.target.clone(),
                bytes: Some(bytes.clone()),
                finish: false,
            },
        ) {
            Ok(r) => {
                let found = show_result(&r.restore);
                s.record((found != case.restore).then(|| {
                    c.fail(
                        &case.id,
                        format!("restore: {}", case.what),
                        &case.restore,
                        found,
                    )
                }));
                check_failed_restore(c, &case.id, kind, &r, &n, s);
            }
            Err(e) => s.fail(c.fail(
                &case.id,
                format!("restore: {}", case.what),
                &case.restore,
                e,
            )),
        }
        if let Some(want) = &case.from_state {
            match call_as(
                c.imp,
                Some(&case.id),
                &StateRequest::FromState {
                    kind,
                    bytes: bytes.clone(),
                },
            ) {
                Ok(r) => {
                    let found = match &r.restore {
                        Some(Ok(())) => "ok".to_string(),
                        other => show_result(other),
                    };
                    s.record((&found != want).then(|| {
                        c.fail(&case.id, format!("from_state: {}", case.what), want, &found)
                    }));
                    if found == "ok" {
                        s.record(
                            byte_diff(kind, &bytes, &r.after)
                                .map(|(e, f)| c.fail(&case.id, "from_state then save_state", e, f)),
                        );
                    }
                }
                Err(e) => s.fail(c.fail(&case.id, format!("from_state: {}", case.what), want, e)),
            }
        }
    }
}

/// [CONF.STATE.SNAPSHOT]
/// A generated search recipe for the snapshot check: `search_graph` with 8..=40 nodes, sometimes
/// extra isolated nodes, the zero or mod5 estimate, recording off one time in five.
pub fn snapshot_recipe(seed: u64) -> StateRecipe {
    let mut r = SplitMix64::new(seed);
    let n = r.range(8, 40) as u32;
    let mut graph = search_graph(r.next_u64(), n);
    graph.added_nodes = r.below(3) as u32;
    let total = (n + graph.added_nodes) as u64;
    StateRecipe::GraphAstar {
        graph,
        heuristic: if r.chance(0.5) {
            HeuristicName::Zero
        } else {
            HeuristicName::Mod5
        },
        record: !r.chance(0.2),
        start: Some(r.below(total) as u32),
        goal: Some(r.below(total) as u32),
        steps: vec![],
        run: false,
    }
}

fn with_steps(recipe: &StateRecipe, k: u64, m: usize, run_: bool) -> StateRecipe {
    let mut out = recipe.clone();
    if let StateRecipe::GraphAstar { steps, run, .. } = &mut out {
        *steps = vec![k; m];
        *run = run_;
    }
    out
}

/// The snapshot check of one generated search on every implementation: after every `step(k)`
/// (k in [`SNAPSHOT_BUDGETS`]), save, restore into a fresh search, finish; the outcome and the
/// final bytes equal the uninterrupted run's; the snapshots equal the reference's.
fn snapshots(all: &[&dyn Implementation], name: &str, recipe: &StateRecipe, s: &mut Section) {
    let fresh = recipe.fresh_search().expect("search");
    let mut reference_snaps: Vec<Vec<u8>> = Vec::new();
    for (ii, imp) in all.iter().enumerate() {
        let c = Ctx { imp: *imp };
        let fail = |what: String, e: String, f: String| Failure {
            case: Some(name.to_string()),
            vector: None,
            ..c.fail("", what, e, f)
        };
        let whole = match call_as(
            *imp,
            Some(name),
            &StateRequest::Restore {
                recipe: with_steps(recipe, 1, 0, true),
                bytes: None,
                finish: false,
            },
        ) {
            Ok(r) => r,
            Err(e) => {
                return s.fail(fail(
                    "uninterrupted run".into(),
                    "a result".into(),
                    e.to_string(),
                ))
            }
        };
        let mut snaps = Vec::new();
        for k in SNAPSHOT_BUDGETS {
            for m in 1..=400usize {
                let snap = match call_as(
                    *imp,
                    Some(name),
                    &StateRequest::Restore {
                        recipe: with_steps(recipe, k, m, false),
                        bytes: None,
                        finish: false,
                    },
                ) {
                    Ok(r) => r,
                    Err(e) => {
                        return s.fail(fail(
                            format!("{m} x step({k})"),
                            "a result".into(),
                            e.to_string(),
                        ))
                    }
                };
                let resumed = call_as(
                    *imp,
                    Some(name),
                    &StateRequest::Restore {
                        recipe: fresh.clone(),
                        bytes: Some(snap.before.clone()),
                        finish: true,
                    },
                );
                match resumed {
                    Ok(r) if r.restore == Some(Ok(())) => {
                        if let Some((member, e, f)) =
                            finish_divergence(whole.search.as_ref(), r.search.as_ref())
                        {
                            s.fail(fail(format!("snapshot after {m} x step({k}) restored into a fresh search and finished: search {member}"), e, f));
                        }
                        s.record(
                            byte_diff(StateKind::GraphAStar, &whole.before, &r.after).map(
                                |(e, f)| {
                                    fail(
                                        format!(
                                            "final bytes after the snapshot of {m} x step({k})"
                                        ),
                                        e,
                                        f,
                                    )
                                },
                            ),
                        );
                    }
                    Ok(r) => s.fail(fail(
                        format!("restore of the snapshot after {m} x step({k})"),
                        "accepted".into(),
                        show_result(&r.restore),
                    )),
                    Err(e) => s.fail(fail(
                        format!("restore of the snapshot after {m} x step({k})"),
                        "accepted".into(),
                        e.to_string(),
                    )),
                }
                snaps.push(snap.before);
                if snap.search.as_ref().map(|x| x.status) != Some(SearchCode::Running) {
                    break;
                }
            }
        }
        if ii == 0 {
            reference_snaps = snaps;
        } else {
            s.record((snaps.len() != reference_snaps.len()).then(|| {
                fail(
                    format!("snapshot count vs {}", all[0].name()),
                    reference_snaps.len().to_string(),
                    snaps.len().to_string(),
                )
            }));
            for (j, (a, b)) in reference_snaps.iter().zip(&snaps).enumerate() {
                s.record(
                    byte_diff(StateKind::GraphAStar, a, b).map(|(e, f)| {
                        fail(format!("snapshot {j} bytes vs {}", all[0].name()), e, f)
                    }),
                );
            }
        }
    }
}

/// Random mutations in a run: 1.5 per oracle graph (3,000 in the CI run).
pub fn random_count(config: &Config) -> usize {
    config.oracle_graphs * 3 / 2
}

/// Generated searches of the snapshot check: a third of the sliced graphs (100 in the CI run).
pub fn snapshot_count(config: &Config) -> usize {
    config.sliced_graphs.div_ceil(3)
}
