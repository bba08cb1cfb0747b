//! The HPA* target (spec/hpa.md): `hpa_search` decodes a seed and a case index into a generated
//! `run_hpa` request ([`crate::hpa::cases::request`]: a square map of 3-24 cells a side, of
//! which the target takes those of at most [`MAX_SIDE`] a side, [`small_request`]; chunk
//! sizes 2-8 or an invalid one, every corner rule, smoothing, budgets and four queries with edits
//! between them, of which the target keeps one chosen by the input's bytes, [`super::choice`];
//! issue 36, fifth round), lets the remaining bytes set the map's cells one by one (a byte >= 192 is a
//! wall), and runs it as the `hpa` section does ([CONF.CHECK.HPA]): both crates through the
//! in-process adapters, compared reply for reply; the reference's reply against the family's
//! oracle ([`crate::hpa::oracle`]); the request with every query sliced against the tier-1
//! replies; and the refreshed hierarchy against one built new on the same cells. The last two
//! run on one crate per input, chosen by the seed's lowest bit ([`check_on`]; issue 36), and
//! the last three (the oracle, the sliced form, the rebuilt hierarchy) on one input in
//! [`super::DEEP_ONE_IN`] ([`super::deep`]; issue 36): the crates are compared on every input.

use super::{deep, Finding, Res, U};
use crate::adapters::{OptimizedCrate, ReferenceCrate};
use crate::checks::hpa::sliced_difference;
use crate::hpa::cases::{last_refresh, rebuilt, request, request_sides, sliced};
use crate::hpa::{first_difference, hierarchy_difference, oracle, HpaReply, HpaRequest};
use crate::implementation::Implementation;
use crate::prng::SplitMix64;

/// The largest side of a fuzzed map (issue 36: [CONF.HPA.CASES] draws 3-24, and the hierarchy
/// builds, about as costly as the map's area, took most of the executions; 8 before the seventh
/// round). 7 still gives two chunks a side for every valid chunk size up to 6, so a border run
/// of 6 (two entrances, [HPA.ENT.PLACE]) still occurs.
pub const MAX_SIDE: u32 = 7;

/// The first request of [CONF.HPA.CASES] case `case` from `seed`, `seed + 1`, ... whose map is
/// at most [`MAX_SIDE`] a side (about one seed in nineteen is; at most 256 tried, then the last).
pub fn small_request(seed: u64, case: u64) -> HpaRequest {
    let tries = 256u64;
    let fits = |k: u64| {
        let (w, h) = request_sides(seed.wrapping_add(k), case);
        w <= MAX_SIDE && h <= MAX_SIDE
    };
    let k = (0..tries).find(|&k| fits(k)).unwrap_or(tries - 1);
    request(seed.wrapping_add(k), case)
}

/// A request from fuzz bytes: the generated request of a seed ([`small_request`]) cut to its
/// query `which` (with the edits before it), its cells then set by the bytes.
fn decode(u: &mut U, which: usize) -> Res<(HpaRequest, u64)> {
    let seed: u64 = u.arbitrary()?;
    let case = u.int_in_range(0u64..=8)?;
    let mut r = small_request(seed, case);
    // One of the four queries (issue 36, fifth round; two in the fourth, the first and the first
    // sliced one), chosen by the input's bytes: the two tier-1 queries (the second after edits)
    // and the two sliced ones (after edits: a refresh of the hierarchy) each one time in four.
    if !r.queries.is_empty() {
        let q = r.queries.swap_remove(which % r.queries.len());
        r.queries = vec![q];
    }
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

fn run(imp: &dyn Implementation, r: &HpaRequest) -> Result<HpaReply, Finding> {
    imp.run_hpa(r)
        .map_err(|e| Finding::new(format!("{}: harness error {e} on {r:?}", imp.name())))
}

/// [CONF.CHECK.HPA] Both crates agree on `r`, the reference's reply passes the oracle, the
/// sliced form equals tier 1 and the refreshed hierarchy equals a new one (on both crates).
pub fn check(r: &HpaRequest) -> Result<HpaReply, Finding> {
    check_on(r, &[&ReferenceCrate, &OptimizedCrate], true)
}

/// As [`check`], with the sliced form and the rebuilt hierarchy run only on `sliced_on` (the
/// fuzz target passes one crate per input: the two crates' tier-1 replies are equal, so each
/// crate's sliced and rebuilt runs are compared with the same reply); the oracle only when
/// `with_oracle` is set (the fuzz target sets it, and passes a crate, on one input in
/// [`super::DEEP_ONE_IN`]).
pub fn check_on(
    r: &HpaRequest,
    sliced_on: &[&dyn Implementation],
    with_oracle: bool,
) -> Result<HpaReply, Finding> {
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
    for &imp in sliced_on {
        if r.options.budget == 0 {
            let parts = sliced(r, &mut SplitMix64::new(r.queries.len() as u64));
            let got = run(imp, &parts)?;
            if let Some(d) = sliced_difference(&a, &got) {
                return Err(Finding::new(format!(
                    "{}: sliced: {d} on {r:?}",
                    imp.name()
                )));
            }
        }
        let HpaReply::Ran(ran) = &a else { continue };
        if let Some(fresh) = last_refresh(r, &a).and_then(|last| rebuilt(r, last)) {
            if let HpaReply::Ran(got) = run(imp, &fresh)? {
                if let Some(d) = hierarchy_difference(&got.hierarchy, &ran.hierarchy) {
                    return Err(Finding::new(format!(
                        "{}: the refreshed hierarchy differs from a new one: {d} on {r:?}",
                        imp.name()
                    )));
                }
            }
        }
    }
    Ok(a)
}

/// Target `hpa_search`.
pub fn hpa_search(data: &[u8]) -> Result<(), Finding> {
    let mut u = U::new(data);
    let Ok((r, seed)) = decode(&mut u, super::choice(data, 4)) else {
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
