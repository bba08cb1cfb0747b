//! [CONF.SYNC.LOOP] [CONF.SYNC.JUDGE] Deliberately faulty subjects are caught by the sync test
//! at the right frame and object: a wrapper that perturbs one cost after a restore (on either
//! crate), one that skips restores, and replies with a missing, malformed, changed or extra
//! checksum, a wrong resimulation digest, or a mismatch of their own.

use onepath_conformance::synctest::adapter::{optimized_adapter as opt, reference_adapter as refa};
use onepath_conformance::synctest::{
    generate, judge, parse_inputs, run_loop, SyncOp, SyncReply, SyncWorld,
};

const FRAMES: usize = 600;

/// After its `after`-th restore, sets the weight of edge 0 to 1000 (or, with `grid`, makes
/// cell (3, 3) a wall): a non-deterministic object as a host would see it.
struct Perturbed<W> {
    inner: W,
    restores: usize,
    after: usize,
    grid: bool,
}

macro_rules! perturbed_impl {
    ($m:ident) => {
        impl SyncWorld for Perturbed<$m::CrateWorld> {
            fn run_op(&mut self, op: SyncOp, out: &mut Vec<u8>) {
                self.inner.run_op(op, out)
            }
            fn member_bytes(&self, i: usize, out: &mut Vec<u8>) {
                self.inner.member_bytes(i, out)
            }
            fn save(&self, out: &mut Vec<u8>) {
                self.inner.save(out)
            }
            fn restore(&mut self, bytes: &[u8]) -> Result<(), String> {
                self.inner.restore(bytes)?;
                self.restores += 1;
                if self.restores == self.after {
                    if self.grid {
                        let g = self.inner.world.grid_mut(0).unwrap();
                        let area = if g.cell(3, 3).ok() == Some(255) {
                            1
                        } else {
                            255
                        };
                        g.set_cell(3, 3, area).unwrap();
                    } else {
                        self.inner
                            .world
                            .graph_mut(1)
                            .unwrap()
                            .set_weight(0, 1000.0)
                            .unwrap();
                    }
                }
                Ok(())
            }
        }
    };
}
perturbed_impl!(refa);
perturbed_impl!(opt);

/// Restores nothing: a host that forgot to load its snapshot.
struct NoRestore(opt::CrateWorld);

impl SyncWorld for NoRestore {
    fn run_op(&mut self, op: SyncOp, out: &mut Vec<u8>) {
        self.0.run_op(op, out)
    }
    fn member_bytes(&self, i: usize, out: &mut Vec<u8>) {
        self.0.member_bytes(i, out)
    }
    fn save(&self, out: &mut Vec<u8>) {
        self.0.save(out)
    }
    fn restore(&mut self, _: &[u8]) -> Result<(), String> {
        Ok(())
    }
}

/// Restore number `k` (1-based) and the first frame its rollback resimulates, worked by hand
/// from [CONF.SYNC.LOOP] and [CONF.SYNC.DISTANCE]: every frame rolls back, so restore `k`
/// happens at frame `f = k - 1` and goes back to `f + 1 - (1 + f mod 8)`.
/// k = 1: f = 0, d = 1, frame 0. k = 20: f = 19, d = 4, frame 16. k = 77: f = 76, d = 5, frame 72.
const PERTURBED_AFTER: [(usize, u64); 3] = [(1, 0), (20, 16), (77, 72)];

fn reference() -> (SyncReply, Vec<Vec<SyncOp>>) {
    let s = generate::session(3, FRAMES);
    (refa::run(&s).unwrap(), parse_inputs(&s).unwrap())
}

// pins [CONF.SYNC.DISTANCE]: a perturbation after restores 1, 20 and 77 is caught exactly at frames
// 0, 16 and 72, the first frames those rollbacks of distance 1 + f mod 8 resimulate; another
// distance names another frame
#[test]
fn a_cost_perturbed_after_a_restore_is_caught_at_the_first_resimulated_frame() {
    let s = generate::session(3, FRAMES);
    let frames = parse_inputs(&s).unwrap();
    for (after, expected_frame) in PERTURBED_AFTER {
        for grid in [false, true] {
            let mut a = Perturbed {
                inner: refa::build(&s).ok().unwrap(),
                restores: 0,
                after,
                grid,
            };
            let mut b = Perturbed {
                inner: opt::build(&s).ok().unwrap(),
                restores: 0,
                after,
                grid,
            };
            let (ra, rb) = (run_loop(&mut a, &frames), run_loop(&mut b, &frames));
            let m = ra.mismatch.clone().expect("the perturbation is caught");
            assert_eq!(
                rb.mismatch, ra.mismatch,
                "both crates see the same mismatch"
            );
            assert_eq!(
                m.frame, expected_frame,
                "after restore {after}, grid {grid}"
            );
            assert_eq!(m.object, if grid { "member 0" } else { "member 1" });
            assert_ne!(m.expected, m.found);
            // The judge names the same frame and object.
            let (reference, _) = reference();
            let f = judge(&reference, &SyncReply::Ran(ra), FRAMES).unwrap_err();
            assert_eq!(f.frame, Some(expected_frame));
            assert_eq!(f.object.as_deref(), Some(m.object.as_str()));
        }
    }
}

#[test]
fn a_world_that_skips_its_restores_is_caught() {
    let s = generate::session(3, FRAMES);
    let frames = parse_inputs(&s).unwrap();
    let mut w = NoRestore(opt::build(&s).ok().unwrap());
    let run = run_loop(&mut w, &frames);
    let m = run.mismatch.expect("caught");
    assert!(m.frame < 8, "caught at frame {}", m.frame);
}

#[test]
fn both_crates_pass_and_agree() {
    let s = generate::session(3, FRAMES);
    let (a, b) = (refa::run(&s).unwrap(), opt::run(&s).unwrap());
    judge(&a, &a, FRAMES).unwrap();
    judge(&a, &b, FRAMES).unwrap();
    assert_eq!(a, b);
}

fn ran(r: &SyncReply) -> onepath_conformance::synctest::SyncRun {
    match r {
        SyncReply::Ran(r) => r.clone(),
        SyncReply::Failed(f) => panic!("failed: {f}"),
    }
}

// pins [CONF.SYNC.JUDGE]: a missing, extra, malformed or changed checksum, a wrong resimulation
// count or digest, a reported mismatch or a failure where the reference ran must each fail, naming
// the frame and object
#[test]
fn the_judge_never_passes_a_missing_malformed_or_changed_checksum() {
    let (reference, _) = reference();
    let good = ran(&reference);
    let fail = |r: onepath_conformance::synctest::SyncRun| {
        judge(&reference, &SyncReply::Ran(r), FRAMES).unwrap_err()
    };
    // A frame with one checksum too few.
    let mut r = good.clone();
    r.checksums[41].pop();
    let f = fail(r);
    assert_eq!(f.frame, Some(41));
    assert!(f.what.starts_with("missing checksum"), "{f}");
    // The last frames missing.
    let mut r = good.clone();
    r.checksums.truncate(FRAMES - 3);
    let f = fail(r);
    assert_eq!(f.frame, Some(FRAMES as u64 - 3));
    assert!(f.what.starts_with("missing checksum"), "{f}");
    // One frame too many.
    let mut r = good.clone();
    r.checksums.push(r.checksums[0].clone());
    assert!(fail(r).what.contains("checksum lists for"));
    // Upper case, short, not hex.
    for bad in ["ABCDEF0123456789", "abc", "zzzzzzzzzzzzzzzz"] {
        let mut r = good.clone();
        r.checksums[7][3] = bad.to_string();
        let f = fail(r);
        assert_eq!((f.frame, f.object.as_deref()), (Some(7), Some("member 3")));
        assert!(f.what.starts_with("malformed checksum"), "{f}");
    }
    // A changed checksum: named by frame and object.
    let mut r = good.clone();
    let c = &mut r.checksums[123][6];
    *c = if c.starts_with('0') {
        c.replacen('0', "1", 1)
    } else {
        format!("0{}", &c[1..])
    };
    let f = fail(r);
    assert_eq!((f.frame, f.object.as_deref()), (Some(123), Some("outputs")));
    // Resimulation not done (count) or done on other values (digest).
    let mut r = good.clone();
    r.resimulated -= 1;
    assert!(fail(r).what.starts_with("resimulation"));
    let mut r = good.clone();
    r.resim_digest = "0".repeat(64);
    assert!(fail(r).what.starts_with("resimulation"));
    // A mismatch the subject reported itself.
    let mut r = good.clone();
    r.mismatch = Some(onepath_conformance::synctest::SyncMismatch {
        frame: 9,
        object: "member 2".into(),
        expected: "00".into(),
        found: "11".into(),
    });
    let f = fail(r);
    assert_eq!((f.frame, f.object.as_deref()), (Some(9), Some("member 2")));
    // Failed where the reference ran.
    let f = judge(&reference, &SyncReply::Failed("bad_op: x".into()), FRAMES).unwrap_err();
    assert!(f.what.contains("the reference ran"), "{f}");
}

/// The generated session reaches every outcome the checksums are meant to watch: found paths
/// of the replanner and both sliced searches, a complete flow field, and edits of both roots.
#[test]
fn the_generated_session_exercises_every_op_and_outcome() {
    let s = generate::session(1, 10_000);
    let frames = parse_inputs(&s).unwrap();
    let mut w = refa::build(&s).ok().unwrap();
    let mut seen = std::collections::BTreeMap::<(u8, u8), usize>::new();
    for ops in &frames {
        for &op in ops {
            let mut out = Vec::new();
            w.run_op(op, &mut out);
            *seen.entry((out[0], out[1])).or_default() += 1;
        }
    }
    for (what, key) in [
        ("a cell edit", (0, 0)),
        ("a replan that found a path", (1, 2)),
        ("a complete flow field", (2, 2)),
        ("a running flow field", (2, 1)),
        ("a grid-search begin", (3, 0)),
        ("a grid search that found a path", (4, 2)),
        ("a running grid search", (4, 1)),
        ("a weight edit", (5, 0)),
        ("a graph-search begin", (6, 0)),
        ("a graph search that found a path", (7, 2)),
        ("a running graph search", (7, 1)),
    ] {
        assert!(
            seen.get(&key).copied().unwrap_or(0) > 0,
            "no {what}: {seen:?}"
        );
    }
}
