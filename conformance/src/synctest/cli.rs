//! The `synctest` command line ([CONF.SYNC.CLI]): builds or reads a session, runs it on the
//! reference, the optimized crate and optionally a port, judges each against the reference and
//! prints one line per subject (or one JSON object).

use super::{generate, judge, Session, SyncReply};
use crate::implementation::Implementation;
use crate::{OptimizedCrate, ReferenceCrate};
use std::path::PathBuf;
use std::process::ExitCode;

/// The default frame count of [CONF.SYNC.CLI].
pub const DEFAULT_FRAMES: usize = 10_000;
/// The default per-request timeout of a port run (seconds).
pub const DEFAULT_TIMEOUT_SECS: f64 = 600.0;

/// `synctest` arguments.
#[derive(clap::Args, Debug)]
pub struct SynctestArgs {
    /// The session's seed ([CONF.SYNC.GENERATE]).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The number of frames.
    #[arg(long, default_value_t = DEFAULT_FRAMES)]
    pub frames: usize,
    /// Run this session file (schema onepath.synctest) instead of generating one.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["seed", "frames"])]
    pub session: Option<PathBuf>,
    /// Write the session to this file and exit (what a port author replays by hand).
    #[arg(long, value_name = "FILE")]
    pub write_session: Option<PathBuf>,
    /// Also run a port (its driver command, run with `sh -c`, spec/driver.md).
    #[arg(long)]
    pub port: Option<String>,
    /// The port request's timeout in seconds.
    #[arg(long, default_value_t = DEFAULT_TIMEOUT_SECS, value_parser = crate::port::flags::parse_timeout)]
    pub timeout: f64,
    /// Print one JSON object (schema onepath.synctest-report) instead of lines.
    #[arg(long)]
    pub json: bool,
}

/// One subject's verdict.
#[derive(Debug, serde::Serialize)]
pub struct SubjectVerdict {
    /// The implementation's name.
    pub subject: String,
    /// Whether it passed.
    pub pass: bool,
    /// The first failure's frame.
    pub frame: Option<u64>,
    /// The first failure's object.
    pub object: Option<String>,
    /// What failed (empty on a pass).
    pub what: String,
    /// Frames resimulated by the subject.
    pub resimulated: Option<u64>,
}

/// Judges `found` (the subject's run) against the reference's.
pub fn verdict(
    subject: &str,
    reference: &SyncReply,
    found: Result<SyncReply, crate::error::HarnessError>,
    frames: usize,
) -> SubjectVerdict {
    let resimulated = match &found {
        Ok(SyncReply::Ran(r)) => Some(r.resimulated),
        _ => None,
    };
    let result = match found {
        Ok(reply) => judge(reference, &reply, frames),
        Err(e) => Err(super::SyncFailure {
            frame: None,
            object: None,
            what: format!("no run: {e}"),
        }),
    };
    match result {
        Ok(()) => SubjectVerdict {
            subject: subject.to_string(),
            pass: true,
            frame: None,
            object: None,
            what: String::new(),
            resimulated,
        },
        Err(f) => SubjectVerdict {
            subject: subject.to_string(),
            pass: false,
            frame: f.frame,
            object: f.object.clone(),
            what: f.to_string(),
            resimulated,
        },
    }
}

fn load(path: &PathBuf) -> Result<Session, String> {
    let text =
        crate::input::read_text(path, crate::input::MAX_SESSION).map_err(|e| e.to_string())?;
    crate::json_text::check_unique_members(&text)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let session: Session =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    super::check_schema(&session).map_err(|e| format!("{}: {e}", path.display()))?;
    super::check_work(&session).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(session)
}

/// Runs `synctest`: exit 0 when every subject passes, 1 otherwise, 2 on a usage error.
pub fn run(args: SynctestArgs) -> ExitCode {
    if let Err(e) = crate::port::flags::check_timeout(args.timeout) {
        eprintln!("synctest: --timeout: {e}");
        return ExitCode::from(2);
    }
    if args.frames > super::MAX_FRAMES {
        eprintln!(
            "synctest: --frames {} is over the limit of {}",
            args.frames,
            super::MAX_FRAMES
        );
        return ExitCode::from(2);
    }
    let session = match &args.session {
        Some(path) => match load(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("synctest: --session {e}");
                return ExitCode::from(2);
            }
        },
        None => generate::session(args.seed, args.frames),
    };
    if let Some(path) = &args.write_session {
        let text = serde_json::to_string(&session).unwrap_or_default();
        if let Err(e) = crate::atomic::write(path, text + "\n") {
            eprintln!("synctest: --write-session {}: {e}", path.display());
            return ExitCode::from(2);
        }
        return ExitCode::SUCCESS;
    }
    let frames = session.inputs.len();
    let reference = match ReferenceCrate.run_synctest(&session) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("synctest: the session does not run on the reference: {e}");
            return ExitCode::from(2);
        }
    };
    if let SyncReply::Failed(text) = &reference {
        eprintln!("synctest: the session does not run: {text}");
        return ExitCode::from(2);
    }
    let mut verdicts = vec![
        verdict(
            "onepath-reference",
            &reference,
            Ok(reference.clone()),
            frames,
        ),
        verdict(
            "onepath",
            &reference,
            OptimizedCrate.run_synctest(&session),
            frames,
        ),
    ];
    if let Some(cmd) = &args.port {
        use crate::port::{process, PortImpl};
        if let Err(e) = process::install_signal_handlers() {
            eprintln!("synctest: cannot install signal handlers: {e}");
            return ExitCode::from(2);
        }
        let mut imp = PortImpl::new(cmd, std::time::Duration::from_secs_f64(args.timeout));
        let v = match imp.pool.hello() {
            Ok(hello) => {
                imp.set_name(&hello.port);
                let found = imp.run_synctest(&session);
                verdict(&hello.port, &reference, found, frames)
            }
            Err(e) => verdict(
                "port",
                &reference,
                Err(crate::error::HarnessError::no_answer(e.to_string())),
                frames,
            ),
        };
        process::kill_all_drivers();
        verdicts.push(v);
    }
    let ok = verdicts.iter().all(|v| v.pass);
    if args.json {
        let report = serde_json::json!({
            "schema": "onepath.synctest-report",
            "version": 1,
            "frames": frames,
            "seed": if args.session.is_some() { None } else { Some(args.seed) },
            "subjects": verdicts,
            "ok": ok,
        });
        println!("{report}");
    } else {
        for v in &verdicts {
            if v.pass {
                println!(
                    "{}: pass ({frames} frames, {} resimulated)",
                    v.subject,
                    v.resimulated.unwrap_or(0)
                );
            } else {
                println!("{}: FAIL: {}", v.subject, v.what);
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
