//! The `world_restore` target ([WORLD.READ], [WORLD.STAGE], [WORLD.ATOMIC], [WORLD.COMMIT]): any
//! bytes restored into the world of a small fixed session (six members, 40 frames in) on both
//! crates must give the same outcome (restored, or the same class, offset, member and state
//! class), never a panic; a refused restore leaves both worlds' containers as they were, and an
//! accepted one leaves them equal to each other and to the restored bytes re-saved.

use super::Finding;
use crate::synctest::adapter::{optimized_adapter as opt, reference_adapter as refa};
use crate::synctest::{generate, parse_inputs, Session, SyncWorld};

/// Frames run before the restore.
const FRAMES: usize = 40;

fn session() -> Session {
    generate::session(0x574F_524C, FRAMES) // "WORL"
}

fn drive<W: SyncWorld>(w: &mut W, s: &Session) {
    let mut out = Vec::new();
    for frame in parse_inputs(s).unwrap_or_default() {
        for op in frame {
            w.run_op(op, &mut out);
        }
    }
}

fn saved<W: SyncWorld>(w: &W) -> Vec<u8> {
    let mut out = Vec::new();
    w.save(&mut out);
    out
}

/// A refused restore: class, offset, member, state class.
type Refusal = (String, Option<usize>, Option<usize>, Option<String>);

type Outcome = Result<(), Refusal>;

/// The target.
pub fn world_restore(data: &[u8]) -> Result<(), Finding> {
    let s = session();
    let (mut a, mut b) = match (refa::build(&s), opt::build(&s)) {
        (Ok(a), Ok(b)) => (a, b),
        _ => return Err(Finding::new("the target's session does not build")),
    };
    drive(&mut a, &s);
    drive(&mut b, &s);
    let (before_a, before_b) = (saved(&a), saved(&b));
    if before_a != before_b {
        return Err(Finding::new(
            "the two crates' worlds differ before the restore",
        ));
    }
    let outcome = |r: Result<(), String>, e: Option<Refusal>| -> Outcome {
        match r {
            Ok(()) => Ok(()),
            Err(_) => Err(e.unwrap_or_default()),
        }
    };
    let ea = a.world.restore_state(data).err();
    let eb = b.world.restore_state(data).err();
    let key = |e: &Option<onepath_reference::WorldError>| {
        e.as_ref().map(|e| {
            (
                e.class().to_string(),
                e.offset(),
                e.member_index(),
                e.state_class().map(String::from),
            )
        })
    };
    let key_b = |e: &Option<onepath::WorldError>| {
        e.as_ref().map(|e| {
            (
                e.class().to_string(),
                e.offset(),
                e.member_index(),
                e.state_class().map(String::from),
            )
        })
    };
    let (oa, ob) = (
        outcome(ea.as_ref().map_or(Ok(()), |e| Err(e.to_string())), key(&ea)),
        outcome(
            eb.as_ref().map_or(Ok(()), |e| Err(e.to_string())),
            key_b(&eb),
        ),
    );
    if oa != ob {
        return Err(Finding::new(format!(
            "the crates restore differently: onepath-reference {oa:?}, onepath {ob:?}"
        )));
    }
    let (after_a, after_b) = (saved(&a), saved(&b));
    match oa {
        Err(_) if after_a != before_a || after_b != before_b => Err(Finding::new(format!(
            "a refused restore ({oa:?}) changed a world"
        ))),
        Ok(()) if after_a != after_b => Err(Finding::new(
            "an accepted restore leaves the two crates' worlds different",
        )),
        _ => Ok(()),
    }
}

/// Seeds: the world's own container, and the hostile containers of [CONF.SYNC.VECTOR] built
/// from it.
pub fn world_seeds() -> Vec<(String, Vec<u8>)> {
    let s = session();
    let Ok(mut w) = refa::build(&s) else {
        return Vec::new();
    };
    drive(&mut w, &s);
    crate::synctest::vectors::hostile_containers(&saved(&w))
        .into_iter()
        .enumerate()
        .map(|(i, (_, bytes))| (format!("container-{i:02}"), bytes))
        .collect()
}
