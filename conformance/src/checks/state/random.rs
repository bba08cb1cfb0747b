//! The random-mutation part of the state section ([CONF.CHECK.STATE] (4)): seeded mutations of
//! the golden bytes, each restored on every implementation, the results compared with the
//! reference's.
//! [CONF.STATE.RANDOM] The mutation kinds, counts and seeds.

use super::*;

/// One seeded random mutation of a golden state: 1 to 3 edits (bit flips, byte and field
/// overwrites with boundary values, truncation, insertion, deletion, field copies).
pub fn random_mutation(
    r: &mut SplitMix64,
    golden: &[u8],
    fields: &[Field],
) -> (String, Vec<Splice>) {
    let mut bytes = golden.to_vec();
    let mut edits = Vec::new();
    let mut what = Vec::new();
    for _ in 0..r.range(1, 3) {
        let len = bytes.len().max(1);
        let pick = |r: &mut SplitMix64, ty: Ty| -> Option<Field> {
            let c: Vec<&Field> = fields
                .iter()
                .filter(|f| f.ty == ty && f.offset + f.ty.width() <= bytes.len())
                .collect();
            (!c.is_empty()).then(|| c[r.below(c.len() as u64) as usize].clone())
        };
        let e: Splice = match r.below(9) {
            0 => {
                let at = r.below(len as u64) as usize;
                let b = bytes.get(at).copied().unwrap_or(0) ^ (1 << r.below(8));
                what.push(format!("bit flip at {at}"));
                (at, 1, vec![b])
            }
            1 => {
                let at = r.below(len as u64) as usize;
                what.push(format!("random byte at {at}"));
                (at, 1, vec![r.below(256) as u8])
            }
            2 => match pick(r, Ty::I32) {
                Some(f) => {
                    let cur =
                        i32::from_le_bytes(bytes[f.offset..f.offset + 4].try_into().expect("4"));
                    let n = if bytes.len() >= 12 {
                        i32::from_le_bytes(bytes[8..12].try_into().expect("4"))
                    } else {
                        0
                    };
                    let vals = [
                        -1,
                        0,
                        1,
                        n - 1,
                        n,
                        n.wrapping_add(1),
                        i32::MAX,
                        i32::MIN,
                        cur.wrapping_add(1),
                        cur.wrapping_sub(1),
                        r.below(64) as i32,
                    ];
                    let v = vals[r.below(vals.len() as u64) as usize];
                    what.push(format!("{} = {v}", f.name));
                    (f.offset, 4, v.to_le_bytes().to_vec())
                }
                None => continue,
            },
            3 => match pick(r, Ty::F64) {
                Some(f) => {
                    let cur = f64::from_bits(u64::from_le_bytes(
                        bytes[f.offset..f.offset + 8].try_into().expect("8"),
                    ));
                    let vals = [
                        f64::NAN,
                        -0.0,
                        -1.0,
                        f64::INFINITY,
                        f64::NEG_INFINITY,
                        0.0,
                        1e308,
                        cur * 2.0,
                        5e-324,
                        cur + 1.0,
                        cur - 1.0,
                    ];
                    let v = vals[r.below(vals.len() as u64) as usize];
                    what.push(format!("{} = {v:?}", f.name));
                    (f.offset, 8, v.to_bits().to_le_bytes().to_vec())
                }
                None => continue,
            },
            4 => {
                let at = r.below(len as u64) as usize;
                what.push(format!("truncated to {at}"));
                (at, bytes.len() - at.min(bytes.len()), vec![])
            }
            5 => {
                let at = r.below(len as u64 + 1) as usize;
                let k = r.range(1, 8) as usize;
                what.push(format!("{k} bytes inserted at {at}"));
                (at, 0, (0..k).map(|_| r.below(256) as u8).collect())
            }
            6 => {
                let at = r.below(len as u64) as usize;
                let k = r.range(1, 20) as usize;
                what.push(format!("{k} bytes deleted at {at}"));
                (at, k, vec![])
            }
            7 => match pick(r, Ty::Flag).or_else(|| pick(r, Ty::U8)) {
                Some(f) => {
                    let v = [0u8, 1, 2, 255][r.below(4) as usize];
                    what.push(format!("{} = {v}", f.name));
                    (f.offset, 1, vec![v])
                }
                None => continue,
            },
            _ => match (pick(r, Ty::I32), pick(r, Ty::I32)) {
                (Some(a), Some(b)) => {
                    what.push(format!("{} copied into {}", a.name, b.name));
                    (b.offset, 4, bytes[a.offset..a.offset + 4].to_vec())
                }
                _ => continue,
            },
        };
        bytes = apply(&bytes, std::slice::from_ref(&e));
        edits.push(e);
    }
    (what.join("; "), edits)
}

/// Everything one implementation shows for a random candidate.
#[derive(Debug, PartialEq)]
struct Seen {
    restore: Option<Result<(), StateError>>,
    from_state: Option<Option<Result<(), StateError>>>,
    after: Vec<u8>,
    cells: Vec<(u32, u8, u8)>,
}

pub(super) fn random_case(
    all: &[&dyn Implementation],
    goldens: &[(StateVector, Vec<u8>, Vec<Field>)],
    i: usize,
    seed: u64,
    supports: &dyn Fn(usize, StateKind) -> bool,
    s: &mut Section,
) {
    let mut r = SplitMix64::new(derive_seed(seed, i as u64));
    let (v, golden, fields) = &goldens[r.below(goldens.len() as u64) as usize];
    let kind = v.recipe.kind();
    let all: Vec<&dyn Implementation> = all
        .iter()
        .enumerate()
        .filter(|(k, _)| supports(*k, kind))
        .map(|(_, imp)| *imp)
        .collect();
    let all = all.as_slice();
    let (what, edits) = random_mutation(&mut r, golden, fields);
    let bytes = apply(golden, &edits);
    let name = format!("random#{i}");
    let target = v.recipe.target();
    let mut first: Option<Seen> = None;
    for imp in all {
        let c = Ctx { imp: *imp };
        let fail = |w: String, e: String, f: String| Failure {
            case: Some(name.clone()),
            ..c.fail(&v.id, format!("{w} ({what})"), e, f)
        };
        let r = match call_as(
            *imp,
            Some(&name),
            &StateRequest::Restore {
                recipe: target.clone(),
                bytes: Some(bytes.clone()),
                finish: false,
            },
        ) {
            Ok(r) => r,
            Err(e) => {
                s.fail(fail(
                    "restore".into(),
                    "a result without panic".into(),
                    e.to_string(),
                ));
                continue;
            }
        };
        let from_state = if kind.has_from_state() {
            match call_as(
                *imp,
                Some(&name),
                &StateRequest::FromState {
                    kind,
                    bytes: bytes.clone(),
                },
            ) {
                Ok(f) => {
                    if f.restore == Some(Ok(())) {
                        s.record(byte_diff(kind, &bytes, &f.after).map(|(e, g)| {
                            fail("from_state then save_state [STATE.STABLE]".into(), e, g)
                        }));
                    }
                    Some(f.restore)
                }
                Err(e) => {
                    s.fail(fail(
                        "from_state".into(),
                        "a result without panic".into(),
                        e.to_string(),
                    ));
                    continue;
                }
            }
        } else {
            None
        };
        match &r.restore {
            Some(Ok(())) => {
                s.record(
                    byte_diff(kind, &bytes, &r.after)
                        .map(|(e, g)| fail("restore then save_state [STATE.STABLE]".into(), e, g)),
                );
                if matches!(
                    kind,
                    StateKind::Grid | StateKind::HexGrid | StateKind::VoxelGrid
                ) {
                    let want = expected_cells(kind, &r.before, &bytes);
                    s.record((r.cells != want).then(|| {
                        fail(
                            "listener calls [GRID.LISTEN.RESTORE]".into(),
                            show_cells(&want),
                            show_cells(&r.cells),
                        )
                    }));
                }
            }
            _ => check_failed_restore(
                &c,
                &format!("{} {name}", v.id),
                kind,
                &r,
                &not_started_bytes(&target),
                s,
            ),
        }
        let seen = Seen {
            restore: r.restore,
            from_state,
            after: r.after,
            cells: r.cells,
        };
        match &first {
            None => first = Some(seen),
            Some(f) => {
                let same = f == &seen;
                s.record((!same).then(|| {
                    fail(
                        format!("restore / from_state vs {}", all[0].name()),
                        format!(
                            "restore {}, from_state {:?}",
                            show_result(&f.restore),
                            f.from_state.as_ref().map(show_result)
                        ),
                        format!(
                            "restore {}, from_state {:?}{}",
                            show_result(&seen.restore),
                            seen.from_state.as_ref().map(show_result),
                            if f.after != seen.after || f.cells != seen.cells {
                                " (bytes or listener calls differ)"
                            } else {
                                ""
                            }
                        ),
                    )
                }));
            }
        }
    }
}
