//! [WORLD.SAVE] [WORLD.READ] [WORLD.STAGE] [WORLD.ATOMIC] [WORLD.COMMIT] World snapshots on both
//! crates: the same session gives the same container bytes frame by frame; a container whose
//! first, middle or last member is corrupt (and every header fault) is refused with the same
//! class and absolute offset by both crates, leaves every member's bytes as they were, calls no
//! listener, and the world goes on exactly as a twin that never saw the bad bytes; a good
//! restore tells the grid's listeners of each cell that differs.

use onepath_conformance::synctest::adapter::{optimized_adapter as opt, reference_adapter as refa};
use onepath_conformance::synctest::{generate, parse_inputs, SyncOp, SyncWorld, MEMBERS};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

const FRAMES: usize = 400;

fn frames() -> Vec<Vec<SyncOp>> {
    parse_inputs(&generate::session(7, FRAMES)).expect("generated ops parse")
}

fn run<W: SyncWorld>(w: &mut W, ops: &[SyncOp]) {
    let mut out = Vec::new();
    for &op in ops {
        w.run_op(op, &mut out);
    }
}

fn save<W: SyncWorld>(w: &W) -> Vec<u8> {
    let mut out = Vec::new();
    w.save(&mut out);
    out
}

fn members<W: SyncWorld>(w: &W) -> Vec<Vec<u8>> {
    (0..MEMBERS)
        .map(|i| {
            let mut b = Vec::new();
            w.member_bytes(i, &mut b);
            b
        })
        .collect()
}

/// The start of each member's bytes and their length, read from the container's headers.
fn spans(c: &[u8]) -> Vec<(usize, usize)> {
    let mut at = 10;
    let mut out = Vec::new();
    for _ in 0..MEMBERS {
        let len = u32::from_le_bytes(c[at + 6..at + 10].try_into().unwrap()) as usize;
        out.push((at + 10, len));
        at += 10 + len;
    }
    assert_eq!(at, c.len());
    out
}

macro_rules! world_with_listener {
    ($m:ident) => {{
        let session = generate::session(7, FRAMES);
        let mut w = $m::build(&session)
            .ok()
            .expect("the session's world builds");
        let heard = Arc::new(AtomicUsize::new(0));
        let h = heard.clone();
        w.world
            .grid_mut(0)
            .unwrap()
            .add_listener(Box::new(move |_, _, _| {
                h.fetch_add(1, Ordering::SeqCst);
            }));
        (w, heard)
    }};
}

#[test]
fn both_crates_save_the_same_container_every_frame() {
    let session = generate::session(7, FRAMES);
    let mut a = refa::build(&session).ok().unwrap();
    let mut b = opt::build(&session).ok().unwrap();
    for (f, ops) in frames().iter().enumerate() {
        run(&mut a, ops);
        run(&mut b, ops);
        assert_eq!(save(&a), save(&b), "frame {f}");
        // [WORLD.SAVE] Saving twice without a change gives the same bytes.
        assert_eq!(save(&a), save(&a));
    }
    let c = save(&a);
    assert_eq!(&c[..4], b"OPWS");
    assert_eq!(u16::from_le_bytes([c[4], c[5]]), 1);
    assert_eq!(
        i32::from_le_bytes(c[6..10].try_into().unwrap()),
        MEMBERS as i32
    );
    let types: Vec<u16> = (0..MEMBERS)
        .map(|i| a.world.member_type(i).unwrap())
        .collect();
    assert_eq!(types, [1, 4, 5, 7, 12, 11]);
}

/// One corruption of a container and the error both crates must give (`None`: any member
/// error, its class and offset only compared between the crates).
struct Fault {
    name: &'static str,
    bytes: Vec<u8>,
    class: &'static str,
    offset: Option<usize>,
}

fn faults(good: &[u8]) -> Vec<Fault> {
    let sp = spans(good);
    let n = good.len();
    let with = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = good.to_vec();
        f(&mut b);
        b
    };
    let (first, last, middle) = (sp[0], sp[MEMBERS - 1], sp[2]);
    vec![
        Fault {
            name: "empty",
            bytes: vec![],
            class: "truncated",
            offset: Some(0),
        },
        Fault {
            name: "3 bytes",
            bytes: good[..3].to_vec(),
            class: "truncated",
            offset: Some(3),
        },
        Fault {
            name: "bad magic",
            bytes: with(&|b| b[1] = b'X'),
            class: "bad_magic",
            offset: Some(0),
        },
        Fault {
            name: "5 bytes",
            bytes: good[..5].to_vec(),
            class: "truncated",
            offset: Some(5),
        },
        Fault {
            name: "version 0",
            bytes: with(&|b| b[4] = 0),
            class: "unsupported_version",
            offset: Some(4),
        },
        Fault {
            name: "version 2",
            bytes: with(&|b| b[4] = 2),
            class: "unsupported_version",
            offset: Some(4),
        },
        Fault {
            name: "9 bytes",
            bytes: good[..9].to_vec(),
            class: "truncated",
            offset: Some(9),
        },
        Fault {
            name: "count 5",
            bytes: with(&|b| b[6] = 5),
            class: "shape_mismatch",
            offset: Some(6),
        },
        Fault {
            name: "count -1",
            bytes: with(&|b| b[6..10].copy_from_slice(&(-1i32).to_le_bytes())),
            class: "shape_mismatch",
            offset: Some(6),
        },
        Fault {
            name: "member header cut",
            bytes: good[..15].to_vec(),
            class: "truncated",
            offset: Some(15),
        },
        Fault {
            name: "first member type 2",
            bytes: with(&|b| b[10] = 2),
            class: "shape_mismatch",
            offset: Some(10),
        },
        Fault {
            name: "first member owner 0",
            bytes: with(&|b| b[12] = 0),
            class: "shape_mismatch",
            offset: Some(12),
        },
        Fault {
            name: "last member owner 0",
            bytes: with(&|b| b[last.0 - 8] = 0),
            class: "shape_mismatch",
            offset: Some(last.0 - 8),
        },
        Fault {
            name: "first member longer than the rest",
            bytes: with(&|b| b[16..20].copy_from_slice(&u32::MAX.to_le_bytes())),
            class: "truncated",
            offset: Some(n),
        },
        Fault {
            name: "last member one byte short",
            bytes: good[..n - 1].to_vec(),
            class: "truncated",
            offset: Some(n - 1),
        },
        Fault {
            name: "trailing byte",
            bytes: with(&|b| b.push(0)),
            class: "trailing_bytes",
            offset: Some(n),
        },
        // Early: the first member's state header (its magic) is wrong.
        Fault {
            name: "first member bad magic",
            bytes: with(&|b| b[first.0] ^= 0xFF),
            class: "member",
            offset: Some(first.0),
        },
        // Late: the last member (staged last, a parked graph search) names another kind.
        Fault {
            name: "last member wrong kind",
            bytes: with(&|b| b[last.0 + 6] = 4),
            class: "member",
            offset: Some(last.0 + 6),
        },
        // Late and deep: the last byte of the last member.
        Fault {
            name: "last member last byte",
            bytes: with(&|b| b[last.0 + last.1 - 1] ^= 0x5A),
            class: "member",
            offset: None,
        },
        Fault {
            name: "middle member (replanner) kind",
            bytes: with(&|b| b[middle.0 + 6] = 7),
            class: "member",
            offset: Some(middle.0 + 6),
        },
    ]
}

macro_rules! check_faults {
    ($m:ident, $label:expr) => {{
        let ops = frames();
        // The container of frame 150, restored into the world at frame 300 (so a restore would
        // change every member).
        let (mut w, heard) = world_with_listener!($m);
        let (mut twin, _) = world_with_listener!($m);
        let mut snapshot = Vec::new();
        for (f, frame) in ops.iter().enumerate().take(300) {
            run(&mut w, frame);
            run(&mut twin, frame);
            if f == 150 {
                snapshot = save(&w);
            }
        }
        let before_members = members(&w);
        let before = save(&w);
        assert_ne!(
            before, snapshot,
            "{}: the restore would change the world",
            $label
        );
        let mut results = Vec::new();
        for fault in faults(&snapshot) {
            let heard_before = heard.load(Ordering::SeqCst);
            let err = w.world.restore_state(&fault.bytes).expect_err(fault.name);
            assert_eq!(
                err.class(),
                fault.class,
                "{}: {}: {err}",
                $label,
                fault.name
            );
            if let Some(o) = fault.offset {
                assert_eq!(err.offset(), Some(o), "{}: {}: {err}", $label, fault.name);
            }
            if fault.class == "member" {
                assert!(
                    err.member_index().is_some() && err.state_class().is_some(),
                    "{err}"
                );
            }
            // [WORLD.ATOMIC] Nothing changed and no listener was called.
            assert_eq!(members(&w), before_members, "{}: {}", $label, fault.name);
            assert_eq!(save(&w), before, "{}: {}", $label, fault.name);
            assert_eq!(
                heard.load(Ordering::SeqCst),
                heard_before,
                "{}: {}: a listener was called",
                $label,
                fault.name
            );
            results.push((
                fault.name,
                err.class(),
                err.offset(),
                err.member_index(),
                err.state_class(),
                err.to_string(),
            ));
        }
        // The world goes on exactly as its twin, which never saw a bad container.
        for frame in &ops[300..] {
            run(&mut w, frame);
            run(&mut twin, frame);
            assert_eq!(
                save(&w),
                save(&twin),
                "{}: after the refused restores",
                $label
            );
        }
        results
    }};
}

#[test]
fn corrupt_containers_change_nothing_and_both_crates_name_the_same_fault() {
    let a = check_faults!(refa, "onepath-reference");
    let b = check_faults!(opt, "onepath");
    assert_eq!(a, b);
    let last = a.iter().find(|r| r.0 == "last member wrong kind").unwrap();
    assert_eq!(last.3, Some(MEMBERS - 1));
    assert_eq!(last.4, Some("wrong_kind"));
    assert!(
        last.5
            .starts_with("world member 5 (type 11): wrong_kind at byte "),
        "{}",
        last.5
    );
    let first = a.iter().find(|r| r.0 == "first member bad magic").unwrap();
    assert_eq!((first.3, first.4), (Some(0), Some("bad_magic")));
}

macro_rules! single_byte_mutations {
    ($m:ident) => {{
        let ops = frames();
        let (mut w, heard) = world_with_listener!($m);
        let mut snapshot = Vec::new();
        for (f, frame) in ops.iter().enumerate().take(200) {
            run(&mut w, frame);
            if f == 120 {
                snapshot = save(&w);
            }
        }
        let before = save(&w);
        let mut seen = Vec::new();
        let mut x = 0x9E37_79B9u64;
        for _ in 0..1500 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let at = (x % snapshot.len() as u64) as usize;
            let mut bad = snapshot.clone();
            bad[at] ^= 1 << ((x >> 32) % 8);
            let h = heard.load(Ordering::SeqCst);
            match w.world.restore_state(&bad) {
                Ok(()) => {
                    // Accepted (a flipped cost, say): restore the saved world back.
                    seen.push((at, None));
                    w.world
                        .restore_state(&before)
                        .expect("the world's own bytes restore");
                    assert_eq!(save(&w), before);
                }
                Err(e) => {
                    assert_eq!(save(&w), before, "byte {at}: {e}");
                    assert_eq!(
                        heard.load(Ordering::SeqCst),
                        h,
                        "byte {at}: a listener was called"
                    );
                    seen.push((at, Some((e.class(), e.offset()))));
                }
            }
        }
        seen
    }};
}

#[test]
fn any_single_bit_flip_is_refused_atomically_or_accepted_alike() {
    let a = single_byte_mutations!(refa);
    let b = single_byte_mutations!(opt);
    assert_eq!(a, b);
    let refused = a.iter().filter(|r| r.1.is_some()).count();
    assert!(refused > 300, "only {refused} of {} flips refused", a.len());
}

macro_rules! good_restore_tells_listeners {
    ($m:ident) => {{
        let (mut w, heard) = world_with_listener!($m);
        let before = save(&w);
        // Edit three cells, then restore the container from before the edits.
        for (x, y) in [(0, 0), (5, 5), (9, 3)] {
            w.world.grid_mut(0).unwrap().set_cell(x, y, 255).unwrap();
        }
        let edits = heard.load(Ordering::SeqCst);
        w.world.restore_state(&before).expect("restores");
        let told = heard.load(Ordering::SeqCst) - edits;
        assert_eq!(save(&w), before);
        (edits, told)
    }};
}

#[test]
fn a_good_restore_tells_the_grid_listeners_of_each_cell_that_differs() {
    let a = good_restore_tells_listeners!(refa);
    let b = good_restore_tells_listeners!(opt);
    assert_eq!(a, b);
    assert!(
        a.0 >= 1 && a.1 == a.0,
        "edits heard {}, restore told {}",
        a.0,
        a.1
    );
}

#[test]
fn accessors_name_unknown_and_wrong_members() {
    let session = generate::session(7, 1);
    let mut a = refa::build(&session).ok().unwrap();
    let mut b = opt::build(&session).ok().unwrap();
    let ea = a.world.grid(9).unwrap_err();
    let eb = b.world.grid(9).unwrap_err();
    assert_eq!((ea.class(), ea.member_index()), ("unknown_member", Some(9)));
    assert_eq!(ea.to_string(), eb.to_string());
    let ea = a.world.replanner_mut(3).unwrap_err();
    let eb = b.world.replanner_mut(3).unwrap_err();
    assert_eq!(ea.class(), "wrong_member_type");
    assert_eq!(ea.to_string(), "world member 3 has type 7, not 5");
    assert_eq!(ea.to_string(), eb.to_string());
    let ea = a
        .world
        .add_flow_field(1, Default::default(), &[(0, 0)])
        .unwrap_err();
    let eb = b
        .world
        .add_flow_field(1, Default::default(), &[(0, 0)])
        .unwrap_err();
    assert_eq!(
        (ea.class(), eb.class()),
        ("wrong_member_type", "wrong_member_type")
    );
    let ea = a
        .world
        .add_flow_field(0, Default::default(), &[(99, 0)])
        .unwrap_err();
    let eb = b
        .world
        .add_flow_field(0, Default::default(), &[(99, 0)])
        .unwrap_err();
    assert_eq!((ea.class(), eb.class()), ("build", "build"));
    assert_eq!(a.world.member_count(), MEMBERS);
    assert_eq!(b.world.member_count(), MEMBERS);
}

macro_rules! parked_reset_on_edit {
    ($m:ident) => {{
        let session = generate::session(7, 1);
        let mut w = $m::build(&session).ok().unwrap();
        let fresh = members(&w)[4].clone();
        let begun = w
            .world
            .with_grid_search(4, |h| h.begin((0, 0), (15, 15)).is_ok())
            .unwrap();
        let _ = w.world.with_grid_search(4, |h| h.step(3));
        let running = members(&w)[4].clone();
        // A shared access keeps the parked search; a mutable one resets it ([WORLD.PARKED.EDIT]).
        let _ = w.world.grid(0).unwrap();
        let kept = members(&w)[4].clone();
        let _ = w.world.grid_mut(0).unwrap();
        (
            begun,
            running != fresh,
            kept == running,
            members(&w)[4] == fresh,
        )
    }};
}

#[test]
fn a_mutable_access_to_a_root_resets_its_parked_searches() {
    let a = parked_reset_on_edit!(refa);
    let b = parked_reset_on_edit!(opt);
    assert_eq!(a, b);
    assert!(a.1, "stepping changed the parked bytes");
    assert!(a.2 && a.3, "{a:?}");
}

/// [CONF.SYNC.VECTOR] The hostile containers of the committed vector are refused as their
/// names say (header faults by their class, member faults by `member` naming that member), and
/// the good one restores; on both crates alike.
#[test]
fn the_vector_containers_are_refused_as_their_names_say() {
    use onepath_conformance::synctest::vectors::hostile_containers;
    let session = generate::session(11, 240);
    let mut a = refa::build(&session).ok().unwrap();
    let mut b = opt::build(&session).ok().unwrap();
    for frame in frames().iter().take(60) {
        run(&mut a, frame);
        run(&mut b, frame);
    }
    let good = save(&a);
    let mut member_faults = 0;
    for (name, bytes) in hostile_containers(&good) {
        let (ra, rb) = (a.world.restore_state(&bytes), b.world.restore_state(&bytes));
        assert_eq!(
            ra.as_ref().map_err(|e| e.to_string()),
            rb.as_ref().map_err(|e| e.to_string()),
            "{name}"
        );
        match ra {
            Ok(()) => assert!(
                name == "the good container"
                    || name.contains("middle")
                    || name.contains("last byte"),
                "{name} restored"
            ),
            Err(e) => {
                if let Some((i, _)) = name
                    .strip_prefix("member ")
                    .and_then(|r| r.split_once(": "))
                {
                    assert_eq!(e.class(), "member", "{name}: {e}");
                    assert_eq!(e.member_index(), i.parse().ok(), "{name}: {e}");
                    member_faults += 1;
                } else {
                    assert_ne!(e.class(), "member", "{name}: {e}");
                }
            }
        }
    }
    assert!(member_faults >= 12, "{member_faults} member faults refused");
}

macro_rules! graph_growth {
    ($m:ident) => {{
        let session = generate::session(7, 1);
        let mut w = $m::build(&session).ok().unwrap();
        w.world
            .with_graph_search(5, |h| h.begin(0, 35).unwrap())
            .unwrap();
        let _ = w.world.with_graph_search(5, |h| h.step(4));
        // The reset comes before the edit; the not-begun search's bytes follow the owner as it
        // is when they are read, so growing the graph leaves the search usable.
        w.world.graph_mut(1).unwrap().add_node().unwrap();
        let fresh = members(&w)[5].clone();
        let begun = w
            .world
            .with_graph_search(5, |h| h.begin(36, 0).is_ok())
            .unwrap();
        let status = w.world.with_graph_search(5, |h| h.step(100) as u8).unwrap();
        (fresh, begun, status, save(&w))
    }};
}

#[test]
fn a_parked_search_survives_its_graph_growing() {
    let a = graph_growth!(refa);
    let b = graph_growth!(opt);
    assert_eq!(a, b);
    // Node 36 is new and has no edge: begun, then not found.
    assert_eq!((a.1, a.2), (true, 3));
}

/// The `world_restore` fuzz target's function over its seeds, each cut, extended and with
/// bytes overwritten at pseudo-random places (what a short fuzzing run does, in every test run).
#[test]
fn the_world_restore_target_holds_on_mutated_seeds() {
    use onepath_conformance::fuzzing::world::{world_restore, world_seeds};
    let seeds = world_seeds();
    assert!(seeds.len() > 30);
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for (name, seed) in &seeds {
        world_restore(seed).unwrap_or_else(|f| panic!("{name}: {f}"));
        for _ in 0..25 {
            let mut b = seed.clone();
            match next() % 4 {
                0 if !b.is_empty() => b.truncate((next() % b.len() as u64) as usize),
                1 => b.extend((0..next() % 9).map(|_| next() as u8)),
                _ => {
                    for _ in 0..1 + next() % 4 {
                        if !b.is_empty() {
                            let at = (next() % b.len() as u64) as usize;
                            b[at] = next() as u8;
                        }
                    }
                }
            }
            world_restore(&b).unwrap_or_else(|f| panic!("{name} mutated: {f}"));
        }
    }
}
