//! The `explain` command line ([CONF.DEBUG.EXPLAIN]): arguments, the implementation under test
//! (a port or the optimized crate), the picture to a file or stdout, the report on stderr and
//! the exit status.

use super::explain::{explain, picture, ExplainError};
use crate::implementation::Implementation;
use crate::OptimizedCrate;
use std::path::PathBuf;
use std::process::ExitCode;

/// `explain` arguments.
#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// The committed vector to explain (`GRID-0003`, `HEX-0002`, `REPLAN-0010`, `GRAPH-0007`...).
    pub id: String,
    /// Run a port (its driver command, run with `sh -c`) instead of the optimized crate.
    #[arg(long)]
    pub port: Option<String>,
    /// Write the picture here instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write one self-contained HTML page (both pictures and the step table) instead of SVG.
    #[arg(long)]
    pub html: bool,
    /// Per-request timeout in seconds (port runs).
    #[arg(long, default_value_t = crate::port::run::DEFAULT_TIMEOUT_SECS, value_parser = crate::port::flags::parse_timeout)]
    pub timeout: f64,
    /// The vectors folder (default: the checkout's `vectors/`, else the one the kit was built
    /// from).
    #[arg(long, value_name = "DIR")]
    pub vectors: Option<PathBuf>,
}

/// Runs `explain`: exit 0 when the two agree, 1 when they differ, 2 on a bad argument, an
/// unknown id or a port that does not start.
pub fn run(args: ExplainArgs) -> ExitCode {
    use crate::port::{process, PortImpl};
    let dir = args
        .vectors
        .clone()
        .or_else(|| crate::clauses::cli::checkout_root().map(|d| d.join("vectors")))
        .unwrap_or_else(crate::config::default_vectors_dir);
    if !dir.is_dir() {
        eprintln!("explain: --vectors {}: not a directory", dir.display());
        return ExitCode::from(2);
    }
    if let Some(out) = &args.out {
        let parent = out.parent().filter(|p| !p.as_os_str().is_empty());
        if parent.is_some_and(|p| !p.is_dir()) || out.is_dir() {
            eprintln!("explain: --out {}: not a writable file path", out.display());
            return ExitCode::from(2);
        }
    }
    if let Err(e) = crate::port::flags::check_timeout(args.timeout) {
        eprintln!("explain: --timeout: {e}");
        return ExitCode::from(2);
    }
    let outcome = match &args.port {
        None => explain(&dir, &args.id, &OptimizedCrate),
        Some(cmd) => {
            if let Err(e) = process::install_signal_handlers() {
                eprintln!("explain: cannot install signal handlers: {e}");
                return ExitCode::from(2);
            }
            let result = std::panic::catch_unwind(|| {
                let mut imp = PortImpl::new(cmd, std::time::Duration::from_secs_f64(args.timeout));
                match imp.pool.hello() {
                    Ok(h) => imp.set_name(&h.port),
                    Err(e) => return Err(format!("the port's handshake failed: {e}")),
                }
                let e = explain(&dir, &args.id, &imp as &dyn Implementation);
                imp.pool.shutdown();
                Ok(e)
            });
            process::kill_all_drivers();
            match result {
                Ok(Ok(e)) => e,
                Ok(Err(why)) => {
                    eprintln!("explain: {why}");
                    return ExitCode::from(2);
                }
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    };
    let e = match outcome {
        Ok(e) => e,
        Err(err @ ExplainError::UnknownId { .. }) | Err(err @ ExplainError::Harness(_)) => {
            eprintln!("explain: {err}");
            return ExitCode::from(2);
        }
    };
    let text = picture(&e, args.html);
    match &args.out {
        Some(path) => {
            if let Err(err) = crate::atomic::write(path, text) {
                eprintln!("explain: writing {}: {err}", path.display());
                return ExitCode::from(2);
            }
        }
        None => print!("{text}"),
    }
    eprintln!("{}", e.report());
    if e.difference.is_some() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
