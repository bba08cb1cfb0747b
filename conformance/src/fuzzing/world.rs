//! The `world_restore` target ([WORLD.READ], [WORLD.STAGE], [WORLD.ATOMIC], [WORLD.COMMIT]): any
//! bytes restored into the world of a small fixed session (six members, 40 frames in) on both
//! crates must give the same outcome (restored, or the same class, offset, member and state
//! class), never a panic; a refused restore leaves both worlds' containers as they were, and an
//! accepted one leaves them equal to each other and to the restored bytes re-saved.
//!
//! Speed (issue 36): the 40 frames are run once per process ([`prepared`]); every execution
//! builds the session's world on both crates and restores that container into it (the world
//! the 40 frames leave, by [WORLD.RESTORE.SAME]; checked once, when it is prepared), instead of
//! running the frames again, which took about 87% of an execution. The two worlds are then kept
//! between executions ([`KEPT`], one pair per thread) and built again only after an accepted
//! restore or a finding: a refused restore leaves every member's saved bytes as they were
//! ([WORLD.ATOMIC]), which every execution checks anyway, so the next input restores into the
//! same worlds a new pair would be. A finding on kept worlds is run again on new ones: what
//! only kept worlds show is reported as an earlier refused restore changing what no save shows.

use super::Finding;
use crate::synctest::adapter::{optimized_adapter as opt, reference_adapter as refa};
use crate::synctest::{generate, parse_inputs, Session, SyncWorld};
use std::cell::RefCell;
use std::sync::OnceLock;

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

/// The session without its frames, and the container its world saves after them.
struct Prepared {
    built: Session,
    container: Vec<u8>,
}

/// [`Prepared`], made once per process: the frames run on both crates (their containers must
/// be equal), and a world built and restored from the container must save it unchanged on both.
fn prepared() -> Result<&'static Prepared, Finding> {
    static CELL: OnceLock<Result<Prepared, String>> = OnceLock::new();
    CELL.get_or_init(|| {
        let s = session();
        let (mut a, mut b) = match (refa::build(&s), opt::build(&s)) {
            (Ok(a), Ok(b)) => (a, b),
            _ => return Err("the target's session does not build".into()),
        };
        drive(&mut a, &s);
        drive(&mut b, &s);
        let container = saved(&a);
        if saved(&b) != container {
            return Err("the two crates' worlds differ before the restore".into());
        }
        let built = Session {
            inputs: Vec::new(),
            ..s
        };
        let p = Prepared { built, container };
        let (a, b) = fresh(&p)?;
        if saved(&a) != p.container || saved(&b) != p.container {
            return Err(
                "a world restored from the prepared container does not save it [WORLD.RESTORE.SAME]"
                    .into(),
            );
        }
        Ok(p)
    })
    .as_ref()
    .map_err(|e| Finding::new(e.clone()))
}

/// Both crates' worlds as the 40 frames leave them: built, then restored from the container.
fn fresh(p: &Prepared) -> Result<(refa::CrateWorld, opt::CrateWorld), String> {
    let (mut a, mut b) = match (refa::build(&p.built), opt::build(&p.built)) {
        (Ok(a), Ok(b)) => (a, b),
        _ => return Err("the target's session does not build".into()),
    };
    a.world
        .restore_state(&p.container)
        .map_err(|e| format!("onepath-reference refuses the prepared container: {e}"))?;
    b.world
        .restore_state(&p.container)
        .map_err(|e| format!("onepath refuses the prepared container: {e}"))?;
    Ok((a, b))
}

/// A refused restore: class, offset, member, state class.
type Refusal = (String, Option<usize>, Option<usize>, Option<String>);

type Outcome = Result<(), Refusal>;

/// The two worlds of the last execution when it refused alike and changed neither ([`KEPT`]).
type Worlds = (refa::CrateWorld, opt::CrateWorld);

thread_local! {
    /// Worlds a refused restore left as [`fresh`] makes them, for the next execution.
    static KEPT: RefCell<Option<Worlds>> = const { RefCell::new(None) };
}

/// The target.
pub fn world_restore(data: &[u8]) -> Result<(), Finding> {
    let p = prepared()?;
    let kept = KEPT.with(|k| k.borrow_mut().take());
    let reused = kept.is_some();
    let worlds = match kept {
        Some(w) => w,
        None => fresh(p).map_err(Finding::new)?,
    };
    match restore_into(worlds, data, &p.container) {
        Ok(Some(worlds)) => {
            KEPT.with(|k| *k.borrow_mut() = Some(worlds));
            Ok(())
        }
        Ok(None) => Ok(()),
        Err(f) if reused => {
            let again = fresh(p).map_err(Finding::new)?;
            match restore_into(again, data, &p.container) {
                Err(f) => Err(f),
                Ok(_) => Err(Finding::new(format!(
                    "on worlds that refused earlier inputs: {f}; on new worlds this input passes, \
                     so an earlier refused restore changed what no save shows [WORLD.ATOMIC]"
                ))),
            }
        }
        Err(f) => Err(f),
    }
}

/// Restores `data` into both worlds (each saving `before`) and checks the outcome; the worlds
/// back when both refused (and neither changed), `None` when both accepted.
fn restore_into(worlds: Worlds, data: &[u8], before: &[u8]) -> Result<Option<Worlds>, Finding> {
    let (mut a, mut b) = worlds;
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
    let (oa, ob): (Outcome, Outcome) =
        (key(&ea).map_or(Ok(()), Err), key_b(&eb).map_or(Ok(()), Err));
    if oa != ob {
        return Err(Finding::new(format!(
            "the crates restore differently: onepath-reference {oa:?}, onepath {ob:?}"
        )));
    }
    let (after_a, after_b) = (saved(&a), saved(&b));
    match oa {
        Err(_) if after_a != before || after_b != before => Err(Finding::new(format!(
            "a refused restore ({oa:?}) changed a world"
        ))),
        Ok(()) if after_a != after_b => Err(Finding::new(
            "an accepted restore leaves the two crates' worlds different",
        )),
        Err(_) => Ok(Some((a, b))),
        Ok(()) => Ok(None),
    }
}

/// Seeds: the world's own container, and the hostile containers of [CONF.SYNC.VECTOR] built
/// from it.
pub fn world_seeds() -> Vec<(String, Vec<u8>)> {
    let Ok(p) = prepared() else {
        return Vec::new();
    };
    crate::synctest::vectors::hostile_containers(&p.container)
        .into_iter()
        .enumerate()
        .map(|(i, (_, bytes))| (format!("container-{i:02}"), bytes))
        .collect()
}
