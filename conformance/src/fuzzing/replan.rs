//! The replanner targets: `replan_script` (a small grid, options and edit script decoded from the
//! bytes, run on both crates, compared step by step and checked by the oracle) and
//! `state_restore_replanner` (hostile bytes restored into a replanner of both crates after a
//! short history, then a budgeted replan and a path query on whatever was accepted).

use super::{pick, Finding, Res, OPT, REF, U};
use crate::grid::vectors::MapFile;
use crate::grid::GridOptionsData;
use crate::implementation::Implementation;
use crate::port::wire::Hex;
use crate::replan::{
    first_difference, oracle, ModeName, ReplanGrid, ReplanReply, ReplanRequest, ReplanStep,
};
use arbitrary::Unstructured;

/// The bound on a decoded script's length.
const MAX_STEPS: usize = 40;

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

/// Runs a request on both crates: the replies must agree and pass the oracle.
fn both(r: &ReplanRequest) -> Result<ReplanReply, Finding> {
    let a = REF.run_replan(r)?;
    let b = OPT.run_replan(r)?;
    if let Some(d) = first_difference(&a, &b) {
        return Err(Finding::new(format!("the crates differ: {d}")));
    }
    if let Some(p) = oracle::check(r, &a) {
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
    both(&r).map(|_| ())
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

/// Golden replanner `index` run once per process: its whole script on both crates must give the
/// same replies and pass the oracle, as `state_restore_replanner` checked on every execution
/// before issue 36 (the oracle stops at the restore, so it only ever saw this history).
fn golden_checked(index: usize) -> Result<(), Finding> {
    static CELLS: std::sync::OnceLock<Vec<std::sync::OnceLock<Result<(), String>>>> =
        std::sync::OnceLock::new();
    let cells = CELLS.get_or_init(|| {
        (0..golden_requests().len())
            .map(|_| std::sync::OnceLock::new())
            .collect()
    });
    cells[index]
        .get_or_init(|| {
            both(&golden_requests()[index])
                .map(|_| ())
                .map_err(|f| format!("golden replanner {index}: {f}"))
        })
        .clone()
        .map_err(Finding::new)
}

/// `state_restore_replanner`: the first byte picks a golden replanner's request (below the
/// count of goldens) or a decoded one with a short history (up to 8 steps); the rest of the input
/// is restored into it, then a budgeted replan (50 iterations) and a path query run. Both crates
/// must agree, and a rejected restore must leave the state bytes as they were.
///
/// A golden's history runs without step replies but its last ([`golden_checked`] compared and
/// checked them once per process; issue 36: a path, a state hash and the oracle after every
/// history step took most of an execution).
pub fn state_restore_replanner(data: &[u8]) -> Result<(), Finding> {
    let mut u = Unstructured::new(data);
    let Ok(sel) = u.arbitrary::<u8>() else {
        return Ok(());
    };
    let goldens = golden_requests();
    let golden = (sel as usize) < goldens.len();
    let mut r = if golden {
        golden_checked(sel as usize)?;
        goldens[sel as usize].clone()
    } else {
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
        r
    };
    // Replies from the last history step on (a golden), or for every step (a decoded request).
    let quiet = if golden {
        r.script.len().saturating_sub(1)
    } else {
        0
    };
    let bytes = u.take_rest().to_vec();
    r.script.push(ReplanStep::Restore { bytes: Hex(bytes) });
    r.script.push(ReplanStep::Replan { budget: 50 });
    let reply = if golden {
        let a = crate::replan::adapter::reference_adapter::run_from(&r, quiet)?;
        let b = crate::replan::adapter::optimized_adapter::run_from(&r, quiet)?;
        if let Some(d) = first_difference(&a, &b) {
            return Err(Finding::new(format!("the crates differ: {d}")));
        }
        a
    } else {
        both(&r)?
    };
    if let ReplanReply::Ran { steps, .. } = &reply {
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
