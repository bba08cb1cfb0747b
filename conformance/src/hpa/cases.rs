//! Seeded HPA* requests ([CONF.HPA.CASES]): square maps of the replanners' kinds, chunk sizes
//! 2-8 (now and then an invalid option), both connectivities, every corner rule, weights,
//! smoothing, recording and budgets, and four queries (two tier 1, two sliced) with cell edits
//! between them; and the two self-checks of [CONF.CHECK.HPA] built from a request.

use super::{HpaOptionsData, HpaQuery, HpaQueryReply, HpaReply, HpaRequest};
use crate::prng::{derive_seed, SplitMix64};
use crate::replan::cases::map;

/// The options: chunk sizes 2-8 (one in twenty 1 or 65), weight 1, 1.5 or (one in twenty) 0.5.
fn options(rng: &mut SplitMix64, i: u64) -> HpaOptionsData {
    let chunk_size = if rng.chance(0.05) {
        if rng.chance(0.5) {
            1
        } else {
            65
        }
    } else {
        rng.range(2, 9) as u32
    };
    let weight = if rng.chance(0.05) {
        0.5
    } else if rng.chance(0.3) {
        1.5
    } else {
        1.0
    };
    HpaOptionsData {
        chunk_size,
        connectivity: if rng.chance(0.8) { 8 } else { 4 },
        diagonal: (i % 3) as u8,
        weight,
        smooth: rng.chance(0.5),
        record: rng.chance(0.8),
        budget: if rng.chance(0.2) { rng.range(1, 41) } else { 0 },
    }
}

/// Four queries between random cells (one end in twenty outside the grid), the last two sliced;
/// 0-2 edits before every query but the first (a wall one time in three, else an area 0-3).
fn queries(rng: &mut SplitMix64, w: u32, h: u32) -> Vec<HpaQuery> {
    let end = |rng: &mut SplitMix64| -> Vec<u32> {
        let out = rng.chance(0.05);
        [w, h]
            .iter()
            .map(|&s| {
                if out && rng.chance(0.5) {
                    s + rng.below(2) as u32
                } else {
                    rng.below(u64::from(s)) as u32
                }
            })
            .collect()
    };
    (0..4)
        .map(|i| {
            let edits = if i == 0 {
                vec![]
            } else {
                (0..rng.below(3))
                    .map(|_| {
                        let (x, y) = (
                            rng.below(u64::from(w)) as u32,
                            rng.below(u64::from(h)) as u32,
                        );
                        let area = if rng.chance(1.0 / 3.0) {
                            255
                        } else {
                            rng.below(4) as u8
                        };
                        (x, y, area)
                    })
                    .collect()
            };
            let start = end(rng);
            let goal = end(rng);
            let schedule = if i >= 2 {
                let mut s: Vec<u64> = (0..rng.range(1, 4)).map(|_| rng.below(8)).collect();
                if let Some(last) = s.last_mut() {
                    *last = (*last).max(1);
                }
                s
            } else {
                vec![]
            };
            HpaQuery {
                edits,
                start,
                goal,
                schedule,
                cancel: None,
            }
        })
        .collect()
}

/// The generator of request `i` from `base` after its first two draws, and the map's
/// `(width, height)` they drew (the fuzz target picks a small map without generating it).
fn sized(base: u64, i: u64) -> (SplitMix64, (u32, u32)) {
    let mut rng = SplitMix64::new(derive_seed(base, i));
    let (w, h) = (rng.range(3, 25) as u32, rng.range(3, 25) as u32);
    (rng, (w, h))
}

/// The `(width, height)` of [`request`]`(base, i)`'s map, without generating the request.
pub fn request_sides(base: u64, i: u64) -> (u32, u32) {
    sized(base, i).1
}

/// Request `i` of the seed `base`: map kind cycles with `i`, 3-24 cells a side.
pub fn request(base: u64, i: u64) -> HpaRequest {
    let (mut rng, (w, h)) = sized(base, i);
    let mut m = map(&mut rng, w, h, i / 3);
    if rng.chance(0.25) {
        m.space = Some([-3.5, 2.25, 0.75]);
    }
    let options = options(&mut rng, i);
    HpaRequest {
        map: m,
        options,
        queries: queries(&mut rng, w, h),
    }
}

/// [CONF.CHECK.HPA] The sliced form of `r`: every query sliced with one to three budgets of 1-5
/// drawn from `rng`, the edits kept.
pub fn sliced(r: &HpaRequest, rng: &mut SplitMix64) -> HpaRequest {
    let mut out = r.clone();
    for q in &mut out.queries {
        q.schedule = (0..rng.range(1, 4)).map(|_| rng.range(1, 6)).collect();
    }
    out
}

/// The index of the last sliced or cancel query ([CONF.HPA.CANCEL]) whose reply is not an error
/// (the hierarchy's last refresh), if any.
pub fn last_refresh(r: &HpaRequest, reply: &HpaReply) -> Option<usize> {
    let HpaReply::Ran(ran) = reply else {
        return None;
    };
    (0..r.queries.len()).rev().find(|&i| {
        (!r.queries[i].schedule.is_empty() || r.queries[i].cancel.is_some())
            && matches!(ran.queries.get(i), Some(HpaQueryReply::Path(_)))
    })
}

/// The map's cells with the edits of queries `0..=last` applied.
pub fn cells_after(r: &HpaRequest, last: usize) -> Option<Vec<u8>> {
    let mut cells = hex::decode(&r.map.cells).ok()?;
    let w = r.map.width as usize;
    for q in &r.queries[..=last] {
        for &(x, y, a) in &q.edits {
            *cells.get_mut(y as usize * w + x as usize)? = a;
        }
    }
    Some(cells)
}

/// [CONF.CHECK.HPA] The rebuild check's request: the map as of the last refresh and one sliced
/// query from `(0, 0)` to `(0, 0)` with schedule `[1]`.
pub fn rebuilt(r: &HpaRequest, last: usize) -> Option<HpaRequest> {
    let mut map = r.map.clone();
    map.cells = hex::encode(cells_after(r, last)?);
    Some(HpaRequest {
        map,
        options: r.options.clone(),
        queries: vec![HpaQuery {
            edits: vec![],
            start: vec![0, 0],
            goal: vec![0, 0],
            schedule: vec![1],
            cancel: None,
        }],
    })
}
