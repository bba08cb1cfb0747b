//! The mid-run restore of a grid vector's mode-3 handle runs ([CONF.GRID.VECTOR]): a port that
//! only replays the vectors is pinned on what a restored handle reports, not only the generated
//! `grid-search` cases that happen to draw a mode-3 handle.

use super::vectors::Expected;
use super::{GridOutcome, GridRequest};

/// Whether a run is sliced again: a handle run whose expected reply is mode 3 after at least two
/// iterations (so it is still running after the first call of one iteration).
pub fn applies(api: super::GridApi, e: &Expected) -> bool {
    api == super::GridApi::Handle && e.error.is_none() && e.mode == 3 && e.iterations >= 2
}

/// The run's request stepped by 1 with a snapshot after the first call (save, `Grid::from_state`,
/// a new handle, restore, re-save, continue; [CONF.GRID.REQUEST]) must reply as the vector says in
/// everything a restore keeps ([GS.STATE.MODE3], [GS.STATE.RESTORE]): status, mode, finder,
/// algorithm, cost bits, path, iterations and expanded count (the recorded list restarts at the
/// restore, [GS.HANDLE.RECORD]), and the re-saved bytes must equal the snapshot. The first
/// difference as `(what, expected, found)`. `run` sends a request (an implementation's `run_grid`).
pub fn snapshot_problem<E: std::fmt::Display>(
    run: impl Fn(&GridRequest) -> Result<GridOutcome, E>,
    req: &GridRequest,
    e: &Expected,
) -> Option<(String, String, String)> {
    let mut sliced = req.clone();
    sliced.schedule = vec![1];
    sliced.snapshot_after = Some(1);
    let what = |w: &str| format!("snapshot after step(1), restored: {w}");
    let got = match run(&sliced) {
        Ok(Ok(g)) => g,
        Ok(Err(class)) => {
            return Some((what("reply"), "a result".into(), format!("error {class}")))
        }
        Err(h) => return Some((what("reply"), "a result".into(), h.to_string())),
    };
    if got.snapshot.is_empty() || got.snapshot != got.resaved {
        return Some((
            what("save, restore, save"),
            format!("equal non-empty bytes ({} bytes)", got.snapshot.len()),
            format!("{} bytes re-saved", got.resaved.len()),
        ));
    }
    let cost = format!("{:016x}", got.cost_bits);
    let pairs: [(&str, String, String); 8] = [
        ("status", e.status.to_string(), got.status.to_string()),
        ("mode", e.mode.to_string(), got.mode.to_string()),
        ("finder", e.finder.to_string(), got.finder.to_string()),
        (
            "algorithm",
            e.algorithm.to_string(),
            got.algorithm.to_string(),
        ),
        ("cost bits", e.cost_bits.clone(), cost),
        ("path", format!("{:?}", e.path), format!("{:?}", got.path)),
        (
            "iterations",
            e.iterations.to_string(),
            got.iterations.to_string(),
        ),
        ("expanded", e.expanded.to_string(), got.expanded.to_string()),
    ];
    pairs
        .into_iter()
        .find(|(_, a, b)| a != b)
        .map(|(name, a, b)| (what(name), a, b))
}
