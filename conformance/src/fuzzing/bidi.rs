//! The bidirectional grid-search target (spec/grid-bidi.md): `grid_bidi` decodes a seed and a
//! case index into a generated `run_bidi` request ([`crate::bidi::cases::request`]: a square map
//! of 3-20 cells a side, of which the target takes those of at most [`MAX_SIDE`] a side,
//! [`small_request`]; agent sizes, both connectivities, every corner rule, A* or Dijkstra and
//! now and then an option `new` rejects, hooks, recording, budgets and four queries), lets the
//! remaining bytes set the map's cells one by one (a byte >= 192 is a wall), and runs it as the
//! `grid-bidi` section does ([CONF.CHECK.BIDI]): both crates through the in-process adapters,
//! compared reply for reply; the reference's reply against the family's oracle
//! ([`crate::bidi::oracle`]); and the tier-1 queries sliced against their tier-1 replies, on one
//! crate per input chosen by the seed's lowest bit ([`check_on`]; issue 36); the oracle and the
//! sliced queries on one input in [`super::DEEP_ONE_IN`] ([`super::deep`]; issue 36): the crates
//! are compared on every input.

use super::{deep, Finding, Res, U};
use crate::adapters::{OptimizedCrate, ReferenceCrate};
use crate::bidi::cases::{request, request_sides};
use crate::bidi::{first_difference, oracle, BidiReply, BidiRequest};
use crate::checks::bidi::{sliced, sliced_check};
use crate::implementation::Implementation;
use crate::prng::SplitMix64;

/// The largest side of a fuzzed map (issue 36: [CONF.BIDI.CASES] draws 3-20; the searches and
/// the oracle's Dijkstras of the large maps took most of the executions).
pub const MAX_SIDE: u32 = 12;

/// The first request of [CONF.BIDI.CASES] case `case` from `seed`, `seed + 1`, ... whose map is
/// at most [`MAX_SIDE`] a side (about one seed in three is; at most 64 tried, then the last).
pub fn small_request(seed: u64, case: u64) -> BidiRequest {
    let tries = 64u64;
    let fits = |k: u64| {
        let (w, h) = request_sides(seed.wrapping_add(k), case);
        w <= MAX_SIDE && h <= MAX_SIDE
    };
    let k = (0..tries).find(|&k| fits(k)).unwrap_or(tries - 1);
    request(seed.wrapping_add(k), case)
}

/// A request from fuzz bytes: the generated request of a seed ([`small_request`]), its cells
/// then set by the bytes; and the seed.
fn decode(u: &mut U) -> Res<(BidiRequest, u64)> {
    let seed: u64 = u.arbitrary()?;
    let case = u.int_in_range(0u64..=8)?;
    let mut r = small_request(seed, case);
    let mut cells = hex::decode(&r.map.cells).unwrap_or_default();
    for c in cells.iter_mut() {
        if u.is_empty() {
            break;
        }
        let b: u8 = u.arbitrary()?;
        *c = if b >= 192 { 255 } else { b % 4 };
    }
    r.map.cells = hex::encode(cells);
    Ok((r, seed))
}

fn run(imp: &dyn Implementation, r: &BidiRequest) -> Result<BidiReply, Finding> {
    imp.run_bidi(r)
        .map_err(|e| Finding::new(format!("{}: harness error {e} on {r:?}", imp.name())))
}

/// [CONF.CHECK.BIDI] Both crates agree on `r`, the reference's reply passes the oracle, and on
/// both crates the sliced tier-1 queries equal their tier-1 replies.
pub fn check(r: &BidiRequest) -> Result<BidiReply, Finding> {
    check_on(r, &[&ReferenceCrate, &OptimizedCrate], true)
}

/// As [`check`], with the sliced queries run only on `sliced_on` (the fuzz target passes one
/// crate per input: the two crates' tier-1 replies are equal, so each crate's sliced run is
/// compared with the same reply); the oracle only when `with_oracle` is set (the fuzz target
/// sets it, and passes a crate, on one input in [`super::DEEP_ONE_IN`]).
pub fn check_on(
    r: &BidiRequest,
    sliced_on: &[&dyn Implementation],
    with_oracle: bool,
) -> Result<BidiReply, Finding> {
    let a = run(&ReferenceCrate, r)?;
    let b = run(&OptimizedCrate, r)?;
    if let Some(d) = first_difference(&a, &b) {
        return Err(Finding::new(format!(
            "onepath differs from the reference: {d} on {r:?}"
        )));
    }
    if let Some(p) = with_oracle.then(|| oracle::check(r, &a)).flatten() {
        return Err(Finding::new(format!("oracle: {p} on {r:?}")));
    }
    if r.options.budget == 0 && !sliced_on.is_empty() {
        let (parts, tier1) = sliced(r, &mut SplitMix64::new(r.queries.len() as u64));
        for &imp in sliced_on {
            if let Some(d) = sliced_check(&a, &tier1, &run(imp, &parts)?) {
                return Err(Finding::new(format!(
                    "{}: sliced: {d} on {r:?}",
                    imp.name()
                )));
            }
        }
    }
    Ok(a)
}

/// Target `grid_bidi`.
pub fn grid_bidi(data: &[u8]) -> Result<(), Finding> {
    let mut u = U::new(data);
    let Ok((r, seed)) = decode(&mut u) else {
        return Ok(());
    };
    let on: &dyn Implementation = if seed & 1 == 0 {
        &ReferenceCrate
    } else {
        &OptimizedCrate
    };
    let deep = deep(data);
    let ons = [on];
    check_on(&r, if deep { &ons } else { &[] }, deep).map(|_| ())
}
