//! The bidirectional grid-search target (spec/grid-bidi.md): `grid_bidi` decodes a seed and a
//! case index into a generated `run_bidi` request ([`crate::bidi::cases::request`]: a square map
//! of 3-20 cells a side, agent sizes, both connectivities, every corner rule, A* or Dijkstra and
//! now and then an option `new` rejects, hooks, recording, budgets and four queries), lets the
//! remaining bytes set the map's cells one by one (a byte >= 192 is a wall), and runs it as the
//! `grid-bidi` section does ([CONF.CHECK.BIDI]): both crates through the in-process adapters,
//! compared reply for reply; the reference's reply against the family's oracle
//! ([`crate::bidi::oracle`]); and the tier-1 queries sliced against their tier-1 replies.

use super::{Finding, Res, U};
use crate::adapters::{OptimizedCrate, ReferenceCrate};
use crate::bidi::cases::request;
use crate::bidi::{first_difference, oracle, BidiReply, BidiRequest};
use crate::checks::bidi::{sliced, sliced_check};
use crate::implementation::Implementation;
use crate::prng::SplitMix64;

/// A request from fuzz bytes: the generated request of a seed, its cells then set by the bytes.
fn decode(u: &mut U) -> Res<BidiRequest> {
    let seed: u64 = u.arbitrary()?;
    let case = u.int_in_range(0u64..=8)?;
    let mut r = request(seed, case);
    let mut cells = hex::decode(&r.map.cells).unwrap_or_default();
    for c in cells.iter_mut() {
        if u.is_empty() {
            break;
        }
        let b: u8 = u.arbitrary()?;
        *c = if b >= 192 { 255 } else { b % 4 };
    }
    r.map.cells = hex::encode(cells);
    Ok(r)
}

fn run(imp: &dyn Implementation, r: &BidiRequest) -> Result<BidiReply, Finding> {
    imp.run_bidi(r)
        .map_err(|e| Finding::new(format!("{}: harness error {e} on {r:?}", imp.name())))
}

/// [CONF.CHECK.BIDI] Both crates agree on `r`, the reference's reply passes the oracle, and on
/// both crates the sliced tier-1 queries equal their tier-1 replies.
pub fn check(r: &BidiRequest) -> Result<BidiReply, Finding> {
    let a = run(&ReferenceCrate, r)?;
    let b = run(&OptimizedCrate, r)?;
    if let Some(d) = first_difference(&a, &b) {
        return Err(Finding::new(format!(
            "onepath differs from the reference: {d} on {r:?}"
        )));
    }
    if let Some(p) = oracle::check(r, &a) {
        return Err(Finding::new(format!("oracle: {p} on {r:?}")));
    }
    if r.options.budget == 0 {
        let (parts, tier1) = sliced(r, &mut SplitMix64::new(r.queries.len() as u64));
        for imp in [&ReferenceCrate as &dyn Implementation, &OptimizedCrate] {
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
    let Ok(r) = decode(&mut u) else {
        return Ok(());
    };
    check(&r).map(|_| ())
}
