//! The flow-field targets (spec/flow-fields.md): `flow_script` (a small square or hex map, options
//! a flow field accepts and some it rejects, 0-5 goals, a script of steps, edits, area edits,
//! recomputes, saves, rollbacks and foreign restores decoded from the bytes, run on both crates,
//! compared step by step, and checked by the oracle on one input in [`super::DEEP_ONE_IN`],
//! [`super::deep`], issue 36) and `state_restore_flow_field` (bytes restored
//! into a field of both crates after a short history, raw or a mutation of the field's own save,
//! then budgeted steps, an edit and its repair, and path queries on whatever was accepted).
//!
//! Every size is bounded: maps of at most 10 x 10 cells (14 x 14 for the fixed requests of the
//! state target), scripts of at most [`MAX_STEPS`] steps, foreign states of at most 16 reached
//! cells, so one input runs in a few milliseconds.

use super::{deep, pick, Finding, Res, OPT, REF, U};
use crate::flow::{
    field_sha256, first_difference, oracle, sha256_hex, FlowGrid, FlowReply, FlowRequest, FlowStep,
};
use crate::grid::vectors::MapFile;
use crate::grid::{CellBlockRule, CellCostRule, GridOptionsData};
use crate::implementation::Implementation;
use crate::port::wire::Hex;
use arbitrary::Unstructured;

/// The bound on a decoded script's length (40, then 20 in issue 36's third round, 8 in its
/// fourth: each step is a reply on both crates with a field and a state hash; 8 still saves,
/// edits, restores and rolls back within one script).
pub const MAX_STEPS: usize = 8;

/// The multipliers of every decoded map (areas 1-3), as the kit's generated maps.
const MULTIPLIERS: [(u8, f64); 3] = [(1, 0.5), (2, 2.0), (3, 3.25)];

/// Options from the bytes: mostly ones a flow field accepts (agent size 1-3 on square grids,
/// both connectivities, every diagonal rule; the ignored algorithm, weight and recording vary; an
/// iteration budget 0-6 for `run`), one time in eight one it rejects ([FLOW.API.OPTIONS]: agent
/// size 0, a hex agent of size 2, a weight below 1 or NaN, a `cell_cost` or `blocked` hook).
fn options(u: &mut U, hex: bool) -> Res<GridOptionsData> {
    let mut o = GridOptionsData {
        agent_size: if hex { 1 } else { u.int_in_range(1u32..=3)? },
        connectivity: pick(u, &[4u8, 8, 8])?,
        diagonal: u.int_in_range(0u8..=2)?,
        algorithm: u.int_in_range(0u8..=5)?,
        cell_cost: None,
        blocked: None,
        weight: pick(u, &[1.0, 1.0, 2.5])?,
        record: u.arbitrary()?,
        budget: pick(u, &[0u64, 0, 1, 2, 3, 6])?,
    };
    if u.ratio(1u8, 8)? {
        match u.int_in_range(0u8..=5)? {
            0 => o.agent_size = 0,
            1 => o.agent_size = 2,
            2 => o.weight = 0.5,
            3 => o.weight = f64::NAN,
            4 => {
                o.cell_cost = Some(CellCostRule::ExtraWhere {
                    modulus: 2,
                    extra: 1.0,
                })
            }
            _ => {
                o.blocked = Some(CellBlockRule {
                    modulus: 3,
                    residue: 1,
                })
            }
        }
    }
    Ok(o)
}

/// 1-4 goals (a repeat now and then); one time in sixteen a list `new` rejects: empty, longer
/// than the grid, or with a goal one past the edge ([FLOW.API.GOALS]).
fn goals(u: &mut U, w: u32, h: u32) -> Res<Vec<(u32, u32)>> {
    let cell = |u: &mut U| -> Res<(u32, u32)> {
        Ok((u.int_in_range(0..=w - 1)?, u.int_in_range(0..=h - 1)?))
    };
    if u.ratio(1u8, 16)? {
        return Ok(match u.int_in_range(0u8..=2)? {
            0 => Vec::new(),
            1 => vec![(0, 0); (w * h + 1) as usize],
            _ => vec![cell(u)?, (w, 0), (0, h)],
        });
    }
    let n = u.int_in_range(1usize..=4)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(if !out.is_empty() && u.ratio(1u8, 6)? {
            out[0]
        } else {
            cell(u)?
        });
    }
    Ok(out)
}

/// A small map, options, goals and probes from the bytes (sides 1..=10, areas 0-3 and walls).
fn base(u: &mut U) -> Res<FlowRequest> {
    let w = u.int_in_range(1u32..=10)?;
    let h = u.int_in_range(1u32..=10)?;
    let hex = pick(u, &[None, None, None, Some(0), Some(1), Some(2), Some(3)])?;
    let mut cells = Vec::with_capacity((w * h) as usize);
    for _ in 0..w * h {
        cells.push(pick(u, &[0u8, 0, 0, 0, 1, 2, 3, 255, 255])?);
    }
    let options = options(u, hex.is_some())?;
    let goals = goals(u, w, h)?;
    let mut probes = crate::flow::cases::probes(w, h);
    for _ in 0..u.int_in_range(0u8..=2)? {
        // A probe may lie one past the edge: cell_out_of_range.
        probes.push((u.int_in_range(0..=w)?, u.int_in_range(0..=h - 1)?));
    }
    Ok(FlowRequest {
        grid: FlowGrid {
            hex_layout: hex,
            map: MapFile {
                width: w,
                height: h,
                cells: hex::encode(&cells),
                multipliers: MULTIPLIERS.to_vec(),
                space: None,
            },
        },
        options,
        goals,
        script: Vec::new(),
        probes,
    })
}

/// Kind-7 bytes written field by field ([FLOW.STATE.HEADER], [FLOW.STATE.SEARCH]).
struct Kind7(Vec<u8>);

impl Kind7 {
    fn new() -> Kind7 {
        let mut b = Vec::with_capacity(256);
        b.extend_from_slice(&0x5347_504Fu32.to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&7u16.to_le_bytes());
        Kind7(b)
    }
    fn i32(&mut self, v: i32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn f64(&mut self, v: f64) {
        self.0.extend_from_slice(&v.to_bits().to_le_bytes());
    }
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
}

/// Costs of a foreign state: mostly finite and `>= 0` (`-0.0` included), rarely a value every
/// restore rejects.
fn cost(u: &mut U) -> Res<f64> {
    let b = u.arbitrary::<u8>()?;
    Ok(match b {
        0 => f64::NAN,
        1 => f64::INFINITY,
        2 => -1.0,
        _ => [0.0, -0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.25, 4.0, 7.0, 1e300][b as usize % 11],
    })
}

/// A foreign kind-7 state for `r`'s grid from the bytes: the request's creation goals and goal
/// set, a status, up to 16 reached cells with costs, steps to reached cells (mostly to cells no
/// dearer, so most are accepted, [FLOW.STATE.STRUCTURAL]), an open set in heap order and a touched
/// list; then, now and then, one field damaged (a byte overwritten, a cut, a trailing byte).
fn foreign_state(u: &mut U, r: &FlowRequest) -> Res<Vec<u8>> {
    let (w, h) = (r.grid.map.width as i32, r.grid.map.height as i32);
    let n = w * h;
    let mut k = Kind7::new();
    k.i32(w);
    k.i32(h);
    k.i32(pick(u, &[0, 0, 3, 4, 7])?);
    k.i32(r.goals.len() as i32);
    for &(x, y) in &r.goals {
        k.i32(y as i32 * w + x as i32);
    }
    let pending = u.int_in_range(0..=3.min(n))?;
    k.i32(pending);
    for i in 0..pending {
        k.i32((i * 7 + u.int_in_range(0..=n - 1)?) % n);
    }
    k.i32(n);
    let status = pick(u, &[0u8, 1, 1, 2, 2, 2])?;
    k.u8(status);
    k.i32(if status == 0 {
        0
    } else {
        u.int_in_range(0..=50)?
    });
    let repairing = status == 1 && u.arbitrary()?;
    k.u8(repairing as u8);
    let mut set: Vec<i32> = r
        .goals
        .iter()
        .map(|&(x, y)| y as i32 * w + x as i32)
        .collect();
    set.sort_unstable();
    set.dedup();
    k.i32(set.len() as i32);
    for &g in &set {
        k.i32(g);
    }
    // Reached cells: the goals at 0 and a few others, in increasing index.
    let mut reached: Vec<(i32, f64)> = Vec::new();
    if status != 0 {
        let mut cells: Vec<i32> = set.clone();
        for _ in 0..u.int_in_range(0..=12)? {
            cells.push(u.int_in_range(0..=n - 1)?);
        }
        cells.sort_unstable();
        cells.dedup();
        cells.truncate(16);
        for c in cells {
            let v = if set.contains(&c) && u.ratio(3u8, 4)? {
                0.0
            } else {
                cost(u)?
            };
            reached.push((c, v));
        }
    }
    k.i32(reached.len() as i32);
    for &(c, v) in &reached {
        k.i32(c);
        k.f64(v);
    }
    // Steps: per reached cell, maybe, to a reached cell (the cheapest one no dearer, or any).
    let mut steps: Vec<(i32, i32)> = Vec::new();
    for &(c, v) in &reached {
        if reached.len() < 2 || !u.arbitrary::<bool>()? {
            continue;
        }
        let cheaper: Vec<i32> = reached
            .iter()
            .filter(|&&(d, dv)| d != c && dv <= v)
            .map(|&(d, _)| d)
            .collect();
        let next = if !cheaper.is_empty() && u.ratio(7u8, 8)? {
            *u.choose(&cheaper)?
        } else {
            reached[u.choose_index(reached.len())?].0
        };
        steps.push((c, next));
    }
    k.i32(steps.len() as i32);
    for &(c, next) in &steps {
        k.i32(c);
        k.i32(next);
    }
    // The open set (Running only): reached cells keyed by their cost, sorted in heap order
    // (a sorted array is a heap, [STATE.HEAP.ARRAY]).
    let mut open: Vec<(i32, f64, f64)> = Vec::new();
    if status == 1 {
        for &(c, v) in &reached {
            if u.arbitrary::<bool>()? {
                let f = if v.is_nan() { 0.0 } else { v };
                open.push((c, f, f));
            }
        }
        open.sort_by(|a, b| {
            a.1.total_cmp(&b.1)
                .then(b.2.total_cmp(&a.2))
                .then(a.0.cmp(&b.0))
        });
    }
    k.i32(open.len() as i32);
    for &(c, f, g) in &open {
        k.i32(c);
        k.f64(f);
        k.f64(g);
    }
    if repairing {
        let t = u.int_in_range(0..=4.min(n))?;
        k.i32(t);
        for i in 0..t {
            k.i32((i * 5 + u.int_in_range(0..=n - 1)?) % n);
        }
    }
    let mut b = k.0;
    if u.ratio(1u8, 4)? {
        match u.int_in_range(0u8..=2)? {
            0 => {
                let at = u.choose_index(b.len())?;
                b[at] = u.arbitrary()?;
            }
            1 => b.truncate(u.choose_index(b.len())?),
            _ => b.push(u.arbitrary()?),
        }
    }
    Ok(b)
}

/// Raw foreign bytes: 0-48 arbitrary bytes, or a valid kind-7 header followed by them.
fn raw_state(u: &mut U) -> Res<Vec<u8>> {
    let len = u.int_in_range(0usize..=48)?;
    let mut b = if u.arbitrary()? {
        Kind7::new().0
    } else {
        Vec::new()
    };
    b.extend_from_slice(u.bytes(len.min(u.len()))?);
    Ok(b)
}

/// One step from the bytes (cells may lie one past the edge: error steps; multipliers and areas
/// may be invalid: error steps).
fn step(u: &mut U, r: &FlowRequest, saved: &mut bool) -> Res<FlowStep> {
    let (w, h) = (r.grid.map.width, r.grid.map.height);
    let x = u.int_in_range(0..=w)?;
    let y = u.int_in_range(0..=h - 1)?;
    Ok(match u.int_in_range(0u8..=31)? {
        0..=4 => FlowStep::Step { budget: 0 },
        5..=7 => FlowStep::Step {
            budget: u.int_in_range(1u64..=12)?,
        },
        8 | 9 => FlowStep::StepUntilDone {
            budget: u.int_in_range(1u64..=6)?,
        },
        10 => FlowStep::Run {},
        11 => FlowStep::Recompute {
            budget: pick(u, &[0u64, 0, 3, 10])?,
        },
        12..=20 => FlowStep::SetCell {
            x,
            y,
            area: pick(u, &[0u8, 0, 1, 2, 3, 255, 255])?,
        },
        21 | 22 => FlowStep::SetArea {
            area: pick(u, &[0u8, 1, 2, 3, 3, 255])?,
            multiplier: pick(u, &[0.5, 1.0, 2.0, 3.25, TINY, 1e6, 0.0, -1.0, f64::NAN])?,
        },
        23..=25 => {
            *saved = true;
            FlowStep::Save {}
        }
        26 | 27 if *saved => FlowStep::Rollback {},
        28 if *saved => FlowStep::RollbackGrid {},
        29 => FlowStep::Restore {
            bytes: Hex(foreign_state(u, r)?),
        },
        30 => FlowStep::Restore {
            bytes: Hex(raw_state(u)?),
        },
        _ => FlowStep::Step { budget: 0 },
    })
}

/// Runs a request on both crates: the replies must agree; the reference's must pass the oracle
/// (when `with_oracle` is set).
fn both(r: &FlowRequest, with_oracle: bool) -> Result<FlowReply, Finding> {
    let a = REF.run_flow(r)?;
    let b = OPT.run_flow(r)?;
    if let Some(d) = first_difference(&a, &b) {
        return Err(Finding::new(format!("the crates differ: {d}")));
    }
    if let Some(p) = with_oracle.then(|| oracle::check(r, &a)).flatten() {
        // With a multiplier of 1e-20 an addition can round back ([FLOW.DIR.PLATEAU]); a repair
        // on such a field is not always the recomputed field (see fuzz/known-open.txt), so those
        // findings are labelled apart from the others.
        let tiny = r
            .script
            .iter()
            .any(|s| matches!(s, FlowStep::SetArea { multiplier, .. } if *multiplier == TINY));
        let label = if tiny {
            " (with rounding plateaus)"
        } else {
            ""
        };
        return Err(Finding::new(format!("oracle{label}: {p}")));
    }
    Ok(a)
}

/// The multiplier small enough for additions to round back on the decoded maps.
const TINY: f64 = 1e-20;

/// Decodes the `flow_script` request of `data` (`None` when the bytes run out before the map).
pub fn decode_flow_script(data: &[u8]) -> Option<FlowRequest> {
    let mut u = Unstructured::new(data);
    let mut r = base(&mut u).ok()?;
    let mut saved = false;
    while r.script.len() < MAX_STEPS && !u.is_empty() {
        match step(&mut u, &r, &mut saved) {
            Ok(s) => r.script.push(s),
            Err(_) => break,
        }
    }
    Some(r)
}

/// `flow_script`: a decoded request run on both crates and, on one input in
/// [`super::DEEP_ONE_IN`] ([`deep`]; issue 36), checked by the oracle.
pub fn flow_script(data: &[u8]) -> Result<(), Finding> {
    match decode_flow_script(data) {
        Some(r) => both(&r, deep(data)).map(|_| ()),
        None => Ok(()),
    }
}

/// The fixed requests of `state_restore_flow_field` (the first byte, below their count, picks
/// one): the committed vectors' requests that build a field and restore no foreign bytes
/// (`flow::vectors::requests`, square and every hex layout), and for the first 12 generated ones
/// the script cut after its first step that leaves the field running (a begun run or a repair),
/// so the seeds hold NotStarted, Running, repairing and Complete fields with pending cells.
pub fn fixed_requests() -> &'static [FlowRequest] {
    static CELL: std::sync::OnceLock<Vec<FlowRequest>> = std::sync::OnceLock::new();
    CELL.get_or_init(|| {
        let mut out = Vec::new();
        let mut cut = Vec::new();
        for (i, (_, r)) in crate::flow::vectors::requests().into_iter().enumerate() {
            if r.script
                .iter()
                .any(|s| matches!(s, FlowStep::Restore { .. }))
            {
                continue;
            }
            let Ok(FlowReply::Ran { steps, .. }) = REF.run_flow(&r) else {
                continue;
            };
            if i < 12 {
                if let Some(k) = steps.iter().position(|s| s.status == 1) {
                    let mut c = r.clone();
                    c.script.truncate(k + 1);
                    cut.push(c);
                }
            }
            out.push(r);
        }
        out.extend(cut);
        // A field never stepped (NotStarted), square and hex.
        let mut fresh = out[0].clone();
        fresh.script.clear();
        out.push(fresh);
        if let Some(h) = out.iter().find(|r| r.grid.hex_layout.is_some()) {
            let mut h = h.clone();
            h.script.clear();
            out.push(h);
        }
        out
    })
}

/// A fixed request prepared once per process: its whole script on both crates (the replies
/// must not differ, as `state_restore_flow_field` checked on every execution before issue 36),
/// the reference's final save, and the grid's and field's saves the executions restore.
struct FixedPrepared {
    /// The field's final save (equal on both crates).
    saved: Vec<u8>,
    /// The grid's save after the history (equal on both crates); `None` when the history
    /// detaches the field, whose continuation a restored (attached) field does not have: such
    /// a request runs its history per execution.
    grid: Option<Vec<u8>>,
}

/// The steps after the restore of every `state_restore_flow_field` execution.
fn tail(r: &FlowRequest) -> [FlowStep; 4] {
    let (w, h) = (r.grid.map.width, r.grid.map.height);
    [
        FlowStep::Step { budget: 25 },
        FlowStep::Step { budget: 0 },
        FlowStep::SetCell {
            x: w / 2,
            y: h / 2,
            area: 3,
        },
        FlowStep::Step { budget: 0 },
    ]
}

/// [`FixedPrepared`] of fixed request `index` (below the count), made on first use. Besides the
/// comparison of the whole script, both crates must save the same grid and field after it, and
/// (unless the history detaches the field) the pair restored from those saves must continue as
/// the pair that ran the history ([FLOW.STATE.RESTORE]: the replies of the steps after the
/// restore ([`tail`]), the final field, paths and bytes are equal), on both crates.
fn fixed_prepared(index: usize) -> Result<&'static FixedPrepared, Finding> {
    use crate::flow::adapter::{optimized_adapter as opt, reference_adapter as refa};
    type Cell = std::sync::OnceLock<Result<FixedPrepared, String>>;
    static CELLS: std::sync::OnceLock<Vec<Cell>> = std::sync::OnceLock::new();
    let cells = CELLS.get_or_init(|| {
        (0..fixed_requests().len())
            .map(|_| std::sync::OnceLock::new())
            .collect()
    });
    cells[index]
        .get_or_init(|| {
            let r = &fixed_requests()[index];
            let a = REF.run_flow(r).map_err(|e| e.to_string())?;
            let b = OPT.run_flow(r).map_err(|e| e.to_string())?;
            if let Some(d) = first_difference(&a, &b) {
                return Err(format!("the crates differ on fixed request {index}: {d}"));
            }
            let saved = match a {
                FlowReply::Ran { state, .. } => state.0,
                _ => Vec::new(),
            };
            let detaches = r.script.iter().any(|s| matches!(s, FlowStep::Detach {}));
            let err = |e: &dyn std::fmt::Display| format!("fixed request {index}: {e}");
            let saves = refa::saves(r).map_err(|e| err(&e))?;
            if opt::saves(r).map_err(|e| err(&e))? != saves {
                return Err(err(&"the crates save different bytes after the history"));
            }
            let grid = match saves {
                Some((grid, field)) if !detaches => {
                    let mut whole = r.clone();
                    let k = whole.script.len();
                    whole.script.extend(tail(r));
                    let mut restored = r.clone();
                    restored.script = tail(r).to_vec();
                    let continued = [
                        (
                            refa::run_from(&whole, k),
                            refa::run_restored(&restored, &grid, &field),
                        ),
                        (
                            opt::run_from(&whole, k),
                            opt::run_restored(&restored, &grid, &field),
                        ),
                    ];
                    for (x, y) in continued {
                        let (x, y) = (x.map_err(|e| err(&e))?, y.map_err(|e| err(&e))?);
                        if let Some(d) = first_difference(&x, &y) {
                            return Err(err(&format!(
                                "restored from its saves, the field continues differently: \
                                 {d} [FLOW.STATE.RESTORE]"
                            )));
                        }
                    }
                    Some(grid)
                }
                _ => None,
            };
            Ok(FixedPrepared { saved, grid })
        })
        .as_ref()
        .map_err(|e| Finding::new(e.clone()))
}

/// The final save of `r`'s field on the reference crate (empty when `new` fails or the script
/// is refused). The script runs without step replies (`saves`: no field hash, state hash or
/// path per step; issue 36): the same bytes as the `state` of `run_flow`'s reply.
fn saved_by_reference(r: &FlowRequest) -> Vec<u8> {
    match crate::flow::adapter::reference_adapter::saves(r) {
        Ok(Some((_, field))) => field,
        _ => Vec::new(),
    }
}

/// A short history (up to 8 steps, no snapshot steps) for a decoded request.
fn history(u: &mut U, r: &mut FlowRequest) {
    let Ok(n) = u.int_in_range(0usize..=8) else {
        return;
    };
    let mut saved = false;
    for _ in 0..n {
        match step(u, r, &mut saved) {
            Ok(FlowStep::Save {} | FlowStep::Rollback {} | FlowStep::RollbackGrid {}) => {}
            Ok(FlowStep::Restore { .. }) => {}
            Ok(s) => r.script.push(s),
            Err(_) => break,
        }
    }
}

/// Byte damage from `u` applied to `b`: 1-6 overwrites (mostly in the first 96 bytes, where the
/// header and counts are), maybe a cut, maybe 1-3 appended bytes.
fn mutate(u: &mut U, b: &mut Vec<u8>) -> Res<()> {
    for _ in 0..u.int_in_range(1u8..=6)? {
        if b.is_empty() {
            break;
        }
        let at = u.arbitrary::<u16>()? as usize;
        let at = if at % 3 == 0 {
            at % b.len()
        } else {
            at % b.len().min(96)
        };
        b[at] = u.arbitrary()?;
    }
    if u.ratio(1u8, 5)? && !b.is_empty() {
        let at = u.choose_index(b.len())?;
        b.truncate(at);
    }
    if u.ratio(1u8, 5)? {
        for _ in 0..u.int_in_range(1u8..=3)? {
            b.push(u.arbitrary()?);
        }
    }
    Ok(())
}

/// `state_restore_flow_field`: the first byte `s` picks the field: `s & 0x7f` below the count of
/// [`fixed_requests`] is that request, otherwise one decoded from the bytes with a short history
/// (up to 8 steps, run without step replies). With `s & 0x80` clear the rest of the input is the
/// bytes to restore; with it
/// set the rest mutates the field's own save (`mutate`). The restore is followed by a step with
/// budget 25, an unbudgeted step, an edit at the centre with its repair and the probes' paths.
/// Both crates must agree on everything (restore class and offset, status, counters, field and
/// state hashes, paths, final bytes), an accepted restore must re-save the bytes unchanged and
/// leave the field usable, and a rejected one must leave it reset and unusable
/// ([FLOW.STATE.UNUSABLE]).
pub fn state_restore_flow_field(data: &[u8]) -> Result<(), Finding> {
    let mut u = Unstructured::new(data);
    let Ok(sel) = u.arbitrary::<u8>() else {
        return Ok(());
    };
    let fixed = fixed_requests();
    let index = (sel & 0x7f) as usize;
    let mut r = if index < fixed.len() {
        fixed_prepared(index)?;
        fixed[index].clone()
    } else {
        let Ok(mut r) = base(&mut u) else {
            return Ok(());
        };
        history(&mut u, &mut r);
        r
    };
    let bytes = if sel & 0x80 == 0 {
        u.take_rest().to_vec()
    } else {
        let mut b = if index < fixed.len() {
            fixed_prepared(index)?.saved.clone()
        } else {
            saved_by_reference(&r)
        };
        if mutate(&mut u, &mut b).is_err() {
            return Ok(());
        }
        b
    };
    let (w, h) = (r.grid.map.width, r.grid.map.height);
    let restore = FlowStep::Restore {
        bytes: Hex(bytes.clone()),
    };
    // A fixed request's history does not run per execution: the grid and the field restore
    // their saves after it ([`fixed_prepared`] compared the history's replies between the
    // crates and checked the restored pair continues alike, once per process; issue 36).
    let prepared_grid = match index < fixed.len() {
        true => fixed_prepared(index)?.grid.as_ref(),
        false => None,
    };
    let (a, b) = if let Some(grid) = prepared_grid {
        let field = &fixed_prepared(index)?.saved;
        r.script = std::iter::once(restore).chain(tail(&r)).collect();
        (
            crate::flow::adapter::reference_adapter::run_restored(&r, grid, field)?,
            crate::flow::adapter::optimized_adapter::run_restored(&r, grid, field)?,
        )
    } else {
        // The history (a decoded request's, or that of the fixed request that detaches its
        // field) runs without step replies: replies from the restore on (issue 36; a decoded
        // script's replies step by step are `flow_script`'s check).
        let quiet = r.script.len();
        r.script.push(restore);
        r.script.extend(tail(&r));
        (
            crate::flow::adapter::reference_adapter::run_from(&r, quiet)?,
            crate::flow::adapter::optimized_adapter::run_from(&r, quiet)?,
        )
    };
    if let Some(d) = first_difference(&a, &b) {
        return Err(Finding::new(format!("the crates differ: {d}")));
    }
    let FlowReply::Ran { steps, .. } = &a else {
        return Ok(());
    };
    let restored = &steps[0];
    match &restored.error {
        None => {
            if restored.state_sha256 != sha256_hex(&bytes) {
                return Err(Finding::new(
                    "an accepted restore does not save the same bytes [FLOW.STATE.SAVE] [FLOW.STATE.RESTORE]",
                ));
            }
            if !restored.usable {
                return Err(Finding::new(
                    "an accepted restore left the field unusable [FLOW.STATE.RESTORE]",
                ));
            }
        }
        Some(_) => {
            let n = (w * h) as usize;
            let reset = field_sha256(&vec![f64::INFINITY; n], &vec![None; n]);
            if restored.usable
                || restored.status != 0
                || restored.settled != 0
                || restored.pending != 0
                || restored.field_sha256 != reset
            {
                return Err(Finding::new(format!(
                    "a rejected restore did not leave the field reset and unusable [FLOW.STATE.UNUSABLE]: {restored:?}"
                )));
            }
            if steps[1].error.as_deref() != Some("unusable") {
                return Err(Finding::new(format!(
                    "a step after a rejected restore gave {:?}, expected unusable [FLOW.STATE.UNUSABLE]",
                    steps[1].error
                )));
            }
        }
    }
    Ok(())
}

/// The seeds of `state_restore_flow_field`: for each fixed request, its index byte and the
/// reference crate's final save of that field (restored into the same field, so accepted).
pub fn flow_field_seeds() -> Vec<(String, Vec<u8>)> {
    flow_field_seeds_of(&REF)
}

/// [`flow_field_seeds`] saved by `imp` (the replay test checks both crates save the same).
pub fn flow_field_seeds_of(imp: &dyn Implementation) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for (i, r) in fixed_requests().iter().enumerate() {
        let Ok(FlowReply::Ran { steps, state, .. }) = imp.run_flow(r) else {
            continue;
        };
        let last = steps.last();
        let status = match last.map(|s| (s.status, s.repairing)) {
            None | Some((0, _)) => "notstarted",
            Some((1, true)) => "repairing",
            Some((1, false)) => "running",
            _ => "complete",
        };
        let shape = match r.grid.hex_layout {
            None => "square".to_string(),
            Some(l) => format!("hex{l}"),
        };
        let mut seed = vec![i as u8];
        seed.extend_from_slice(&state.0);
        out.push((format!("flow-{i:02}-{shape}-{status}"), seed));
    }
    out
}
