//! The replanner targets: `replan_script` (a small grid, options and edit script decoded from the
//! bytes, run on both crates, compared step by step, and checked by the oracle on one input in
//! [`super::DEEP_ONE_IN`], [`super::deep`], issue 36) and
//! `state_restore_replanner` (hostile bytes restored into a replanner of both crates after a
//! short history, then a budgeted replan and a path query on whatever was accepted).

use super::{deep, pick, Finding, Res, OPT, REF, U};
use crate::grid::vectors::MapFile;
use crate::grid::GridOptionsData;
use crate::implementation::Implementation;
use crate::port::wire::Hex;
use crate::replan::adapter::{optimized_adapter as opt_adapter, reference_adapter as ref_adapter};
use crate::replan::{
    first_difference, oracle, ModeName, ReplanGrid, ReplanReply, ReplanRequest, ReplanStep,
};
use arbitrary::Unstructured;

/// The bound on a decoded script's length (40 before issue 36, 20 in its third round: each step
/// is a reply on both crates with a path and a state hash; 12 still saves, rolls back and edits
/// several times).
const MAX_STEPS: usize = 12;

/// A small grid, options, mode and ends from the bytes (sides 1..=10, areas 0-3 and walls).
fn base(u: &mut U) -> Res<ReplanRequest> {
    let w = u.int_in_range(1u32..=10)?;
    let h = u.int_in_range(1u32..=10)?;
    let hex = pick(u, &[None, None, Some(0), Some(1), Some(2), Some(3)])?;
    let mut cells = Vec::with_capacity((w * h) as usize);
    for _ in 0..w * h {
        cells.push(pick(u, &[0u8, 0, 0, 1, 2, 3, 255, 255])?);
    }
    let options = GridOptionsData {
        agent_size: if hex.is_some() {
            1
        } else {
            u.int_in_range(1u32..=3)?
        },
        connectivity: pick(u, &[4u8, 8])?,
        diagonal: u.int_in_range(0u8..=2)?,
        algorithm: pick(u, &[0u8, 0, 1, 2])?,
        cell_cost: None,
        blocked: None,
        weight: 1.0,
        record: true,
        budget: 0,
    };
    let mode = pick(u, &[ModeName::Lpa, ModeName::DStarLite])?;
    let cell = |u: &mut U| -> Res<(u32, u32)> {
        Ok((u.int_in_range(0..=w - 1)?, u.int_in_range(0..=h - 1)?))
    };
    let start = cell(u)?;
    let goal = cell(u)?;
    Ok(ReplanRequest {
        grid: ReplanGrid {
            hex_layout: hex,
            map: MapFile {
                width: w,
                height: h,
                cells: hex::encode(&cells),
                multipliers: vec![(1, 0.5), (2, 2.0), (3, 3.25)],
                space: None,
            },
        },
        options,
        mode,
        start,
        goal,
        script: Vec::new(),
    })
}

/// One step from the bytes (cells may lie one past the edge: error steps).
fn step(u: &mut U, w: u32, h: u32, saved: &mut bool) -> Res<ReplanStep> {
    let x = u.int_in_range(0..=w)?;
    let y = u.int_in_range(0..=h.saturating_sub(1))?;
    Ok(match u.int_in_range(0u8..=11)? {
        0..=2 => ReplanStep::Replan { budget: 0 },
        3 => ReplanStep::Replan {
            budget: u.int_in_range(1u64..=6)?,
        },
        4..=6 => ReplanStep::SetCell {
            x,
            y,
            area: pick(u, &[0u8, 1, 2, 3, 255, 255])?,
        },
        7 => ReplanStep::SetArea {
            area: u.int_in_range(0u8..=3)?,
            multiplier: pick(u, &[0.5, 1.0, 2.0])?,
        },
        8 => ReplanStep::SetStart { x, y },
        9 => ReplanStep::SetGoal { x, y },
        10 => {
            *saved = true;
            ReplanStep::Save {}
        }
        _ if *saved => ReplanStep::Rollback {},
        _ => ReplanStep::InvalidateAll {},
    })
}

/// Runs a request on both crates: the replies must agree and pass the oracle (when
/// `with_oracle` is set).
fn both(r: &ReplanRequest, with_oracle: bool) -> Result<ReplanReply, Finding> {
    let a = REF.run_replan(r)?;
    let b = OPT.run_replan(r)?;
    if let Some(d) = first_difference(&a, &b) {
        return Err(Finding::new(format!("the crates differ: {d}")));
    }
    if let Some(p) = with_oracle.then(|| oracle::check(r, &a)).flatten() {
        return Err(Finding::new(format!("oracle: {p}")));
    }
    Ok(a)
}

/// `replan_script`: a decoded request run on both crates.
pub fn replan_script(data: &[u8]) -> Result<(), Finding> {
    let mut u = Unstructured::new(data);
    let Ok(mut r) = base(&mut u) else {
        return Ok(());
    };
    let (w, h) = (r.grid.map.width, r.grid.map.height);
    let mut saved = false;
    while r.script.len() < MAX_STEPS && !u.is_empty() {
        match step(&mut u, w, h, &mut saved) {
            Ok(s) => r.script.push(s),
            Err(_) => break,
        }
    }
    // The oracle on one input in DEEP_ONE_IN (issue 36); the crates on every input.
    both(&r, deep(data)).map(|_| ())
}

/// The requests of the golden replanner states ([CONF.STATE.REPLANNER]), in id order.
fn golden_requests() -> &'static [ReplanRequest] {
    static CELL: std::sync::OnceLock<Vec<ReplanRequest>> = std::sync::OnceLock::new();
    CELL.get_or_init(|| {
        crate::state::recipes::goldens()
            .into_iter()
            .filter_map(|g| match g.recipe {
                crate::state::StateRecipe::Replanner { request } => Some(request),
                _ => None,
            })
            .collect()
    })
}

/// Golden replanner `index` prepared once per process ([`GoldenPrepared`]).
struct GoldenPrepared {
    /// The grid's save after the golden's history (equal on both crates).
    grid: Vec<u8>,
    /// The replanner's save after it (equal on both crates).
    state: Vec<u8>,
    /// `sha256_hex(state)`: what a rejected restore must leave ([REPLAN.STATE.ATOMIC]).
    state_sha256: String,
}

/// [`GoldenPrepared`] of golden replanner `index`, made on first use: its whole script on both
/// crates must give the same replies and pass the oracle, as `state_restore_replanner` checked
/// on every execution before issue 36 (the oracle stops at the restore, so it only ever saw this
/// history); both crates must save the same grid and replanner after it; and restoring those
/// saves into a new grid and replanner must continue as the replanner that ran the history
/// ([REPLAN.STATE.RESTORE]: the replies of a replan with budget 50, a full replan, an edit at
/// the centre and a replan after it are equal), on both crates.
fn golden_prepared(index: usize) -> Result<&'static GoldenPrepared, Finding> {
    type Cell = std::sync::OnceLock<Result<GoldenPrepared, String>>;
    static CELLS: std::sync::OnceLock<Vec<Cell>> = std::sync::OnceLock::new();
    let cells = CELLS.get_or_init(|| {
        (0..golden_requests().len())
            .map(|_| std::sync::OnceLock::new())
            .collect()
    });
    cells[index]
        .get_or_init(|| {
            let r = &golden_requests()[index];
            let err = |f: &dyn std::fmt::Display| format!("golden replanner {index}: {f}");
            both(r, true).map_err(|f| err(&f))?;
            let a = ref_adapter::saves(r).map_err(|e| err(&e))?;
            let b = opt_adapter::saves(r).map_err(|e| err(&e))?;
            let Some((grid, state)) = a else {
                return Err(err(&"the replanner does not build"));
            };
            if b.as_ref() != Some(&(grid.clone(), state.clone())) {
                return Err(err(&"the crates save different bytes after the history"));
            }
            let mut whole = r.clone();
            let k = whole.script.len();
            let (w, h) = (r.grid.map.width, r.grid.map.height);
            let tail = [
                ReplanStep::Replan { budget: 50 },
                ReplanStep::Replan { budget: 0 },
                ReplanStep::SetCell {
                    x: w / 2,
                    y: h / 2,
                    area: 255,
                },
                ReplanStep::Replan { budget: 0 },
            ];
            whole.script.extend(tail.iter().cloned());
            let mut restored = r.clone();
            restored.script = tail.to_vec();
            let continued = [
                (
                    ref_adapter::run_from(&whole, k),
                    ref_adapter::run_restored(&restored, &grid, &state),
                ),
                (
                    opt_adapter::run_from(&whole, k),
                    opt_adapter::run_restored(&restored, &grid, &state),
                ),
            ];
            for (x, y) in continued {
                let (x, y) = (x.map_err(|e| err(&e))?, y.map_err(|e| err(&e))?);
                if let Some(d) = first_difference(&x, &y) {
                    return Err(err(&format!(
                        "restored from its saves, the replanner continues differently: {d} \
                         [REPLAN.STATE.RESTORE]"
                    )));
                }
            }
            let state_sha256 = crate::replan::sha256_hex(&state);
            Ok(GoldenPrepared {
                grid,
                state,
                state_sha256,
            })
        })
        .as_ref()
        .map_err(|e| Finding::new(e.clone()))
}

/// `state_restore_replanner`: the first byte picks a golden replanner's request (below the
/// count of goldens) or a decoded one with a short history (up to 8 steps); the rest of the input
/// is restored into it, then a budgeted replan (50 iterations) and a path query run. Both crates
/// must agree, and a rejected restore must leave the state bytes as they were.
///
/// A golden's history does not run per input: its grid and replanner are restored from their
/// saves after it ([`golden_prepared`] checked once per process that the crates agree on the
/// history and that the restored pair continues as the one that ran it; issue 36: the history
/// took most of an execution).
pub fn state_restore_replanner(data: &[u8]) -> Result<(), Finding> {
    let mut u = Unstructured::new(data);
    let Ok(sel) = u.arbitrary::<u8>() else {
        return Ok(());
    };
    let goldens = golden_requests();
    if (sel as usize) < goldens.len() {
        let p = golden_prepared(sel as usize)?;
        let mut r = goldens[sel as usize].clone();
        r.script = vec![
            ReplanStep::Restore {
                bytes: Hex(u.take_rest().to_vec()),
            },
            ReplanStep::Replan { budget: 50 },
        ];
        let a = ref_adapter::run_restored(&r, &p.grid, &p.state)?;
        let b = opt_adapter::run_restored(&r, &p.grid, &p.state)?;
        if let Some(d) = first_difference(&a, &b) {
            return Err(Finding::new(format!("the crates differ: {d}")));
        }
        if let ReplanReply::Ran { steps, .. } = &a {
            if steps[0].error.is_some() && steps[0].state_sha256 != p.state_sha256 {
                return Err(Finding::new(
                    "a rejected restore changed the replanner [REPLAN.STATE.ATOMIC]",
                ));
            }
        }
        return Ok(());
    }
    let Ok(mut r) = base(&mut u) else {
        return Ok(());
    };
    let (w, h) = (r.grid.map.width, r.grid.map.height);
    let Ok(n) = u.int_in_range(0usize..=8) else {
        return Ok(());
    };
    let mut saved = false;
    for _ in 0..n {
        match step(&mut u, w, h, &mut saved) {
            Ok(ReplanStep::Rollback {}) | Ok(ReplanStep::Save {}) => {}
            Ok(s) => r.script.push(s),
            Err(_) => break,
        }
    }
    let bytes = u.take_rest().to_vec();
    r.script.push(ReplanStep::Restore { bytes: Hex(bytes) });
    r.script.push(ReplanStep::Replan { budget: 50 });
    if let ReplanReply::Ran { steps, .. } = &both(&r, deep(data))? {
        let k = steps.len() - 2;
        if steps[k].error.is_some() && k > 0 && steps[k - 1].state_sha256 != steps[k].state_sha256 {
            return Err(Finding::new(
                "a rejected restore changed the replanner [REPLAN.STATE.ATOMIC]",
            ));
        }
    }
    Ok(())
}

/// The seeds of `state_restore_replanner`: for each golden replanner state, its index byte and
/// the reference crate's bytes (restored into the same replanner, so the restore is accepted).
pub fn replanner_seeds() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let ids: Vec<String> = crate::state::recipes::goldens()
        .into_iter()
        .filter(|g| g.recipe.kind().is_replanner())
        .map(|g| g.id)
        .collect();
    for (i, (id, r)) in ids.iter().zip(golden_requests()).enumerate() {
        let recipe = crate::state::StateRecipe::Replanner { request: r.clone() };
        let Ok(reply) = REF.run_state(&crate::state::StateRequest::Restore {
            recipe,
            bytes: None,
            finish: false,
        }) else {
            continue;
        };
        let mut seed = vec![i as u8];
        seed.extend_from_slice(&reply.before);
        out.push((id.to_lowercase(), seed));
    }
    out
}
