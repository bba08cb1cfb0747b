//! The `onepath-conformance` command line: `certify [--shard k/n]`, `report merge`,
//! `vectors [--check]`, `road [--check]`, `movingai`, `clauses [import-mutants]` and `port init`.

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use onepath_conformance::checks::{Config, Shard, DEFAULT_SEED};
use onepath_conformance::config::FamilySet;
use onepath_conformance::port::cli_args::PortArgs;
use onepath_conformance::{road, Implementation, OptimizedCrate, ReferenceCrate};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "onepath-conformance",
    version,
    about = "Conformance kit for onepath-rs (spec/conformance.md)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run every check section on onepath-reference and onepath; exit 1 on any failure.
    Certify {
        /// The full run (12,000 oracle graphs instead of 2,000); not for `--port` runs.
        #[arg(long, conflicts_with = "port")]
        full: bool,
        /// Print one JSON object (schema onepath.certify-report) instead of the table.
        #[arg(long)]
        json: bool,
        /// Base seed of the generated cases.
        #[arg(long, default_value_t = DEFAULT_SEED)]
        seed: u64,
        /// The vectors folder to verify (an existing directory).
        #[arg(long, value_parser = parse_dir)]
        vectors: Option<PathBuf>,
        /// Worker threads, 1 to 256 (default: available parallelism).
        #[arg(long, value_parser = onepath_conformance::port::flags::parse_threads)]
        threads: Option<usize>,
        /// Certify an out-of-process port: its driver command, run with `sh -c` (spec/driver.md).
        #[arg(long)]
        port: Option<String>,
        /// Run only shard k of n (1 <= k <= n): the cases whose ordinal within their case list
        /// is k-1 modulo n; merge the shards' --json reports with `report merge`.
        #[arg(long, value_name = "K/N")]
        shard: Option<String>,
        /// Run only these claim families' sections, vectors and requests (comma-separated:
        /// graph, grids, grid-search, replanning, flow-field, hex-search, voxel-search, hpa,
        /// grid-bidi); a port is judged on its claims in them.
        #[arg(long, value_name = "F[,G]", value_parser = parse_families)]
        family: Option<FamilySet>,
        #[command(flatten)]
        port_args: PortArgs,
    },
    /// Work on --json reports.
    Report {
        #[command(subcommand)]
        command: ReportCommand,
    },
    /// Work on a port: `port init` writes a driver template.
    Port {
        #[command(subcommand)]
        command: PortCommand,
    },
    /// Regenerate the vectors folder from onepath-reference, or with --check verify it.
    ///
    /// The folder is --out DIR. Without --out, it is the `vectors/` folder of the onepath-rs
    /// checkout containing the current directory (a folder with `Cargo.toml`,
    /// `spec/conformance.md` and `vectors/MANIFEST.json`); outside a checkout, --out is
    /// required (exit 2). The folder the binary was built from is never used implicitly.
    #[command(verbatim_doc_comment)]
    Vectors {
        /// Fail (exit 1), naming each stale file, instead of writing.
        #[arg(long)]
        check: bool,
        /// The vectors folder to write or check (default: see above).
        #[arg(long, visible_alias = "dir", value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Write the driver protocol's JSON Schemas, or with --check verify them (exit 1 naming each
    /// missing, stale or unexpected file).
    Schemas {
        /// Fail instead of writing.
        #[arg(long)]
        check: bool,
        /// The schema folder (default: spec/schemas/driver-v2 under the current directory).
        #[arg(long, default_value = onepath_conformance::port::schemas::SCHEMA_DIR)]
        dir: PathBuf,
    },
    /// Expansion counts and wall times of the four searches on a road graph (optimized crate).
    Road {
        /// DIMACS .gr file.
        #[arg(long)]
        gr: Option<PathBuf>,
        /// DIMACS .co coordinates (enables the A* variants).
        #[arg(long, requires = "gr")]
        co: Option<PathBuf>,
        /// Generate a planar road-like graph of about N nodes (default when no --gr: 10000).
        #[arg(long, conflicts_with = "gr")]
        generate: Option<usize>,
        /// Number of random queries.
        #[arg(long, default_value_t = 100)]
        queries: usize,
        /// Seed of the queries (and of a generated graph).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Certify both crates on the graph instead: costs against a binary-heap Dijkstra oracle
        /// (exact for integer weights), paths checked, crates compared bit for bit; exit 1 on
        /// any difference.
        #[arg(long)]
        check: bool,
    },
    /// Run a MovingAI benchmark (.map + .scen) through onepath-reference and onepath (or a port):
    /// lengths against the .scen optimum, costs against the reference; exit 1 on any mismatch,
    /// 2 on bad input.
    Movingai {
        /// The MovingAI .map file.
        #[arg(long)]
        map: PathBuf,
        /// The MovingAI .scen file (version 1) of that map.
        #[arg(long)]
        scen: PathBuf,
        /// Algorithms to run: astar, dijkstra, jps, jps_plus (repeat or comma-separate;
        /// default: all four).
        #[arg(long, value_delimiter = ',', value_parser = parse_grid_algorithm)]
        algorithm: Vec<u8>,
        /// Print one JSON object (schema onepath.movingai-report) instead of the table.
        #[arg(long)]
        json: bool,
        /// Run a port (its driver command, run with `sh -c`) instead of onepath.
        #[arg(long)]
        port: Option<String>,
        /// Per-request timeout in seconds (port runs).
        #[arg(long, default_value_t = onepath_conformance::port::run::DEFAULT_TIMEOUT_SECS, requires = "port", value_parser = onepath_conformance::port::flags::parse_timeout)]
        timeout: f64,
        /// Accept scenarios whose map name is not the --map file's name.
        #[arg(long)]
        ignore_map_name: bool,
    },
    /// Per clause of spec/: the code and vectors that cite it and the mutants that survived in
    /// the code that cites it (MUTANTS.md); exit 1 when a behavioural clause is cited by no code,
    /// or implemented by the crates but pinned by no committed vector.
    Clauses {
        /// Print one JSON object (schema onepath.clauses) instead of the summary.
        #[arg(long)]
        json: bool,
        /// The checkout to read (default: the one containing the current directory).
        #[arg(long, value_parser = parse_dir)]
        root: Option<PathBuf>,
        #[command(subcommand)]
        command: Option<ClausesCommand>,
    },
    /// Draw a committed vector's descriptions from onepath-reference and from onepath (or a
    /// port) side by side, the first difference marked (SVG, or one HTML page with --html);
    /// exit 0 when they agree, 1 when they differ, 2 on bad input.
    Explain(onepath_conformance::debug::explain_cli::ExplainArgs),
    /// The rollback sync test over a seeded session (spec/synctest.md): every frame rolls back
    /// 1..8 frames through a world snapshot, resimulates and compares checksums.
    Synctest(onepath_conformance::synctest::cli::SynctestArgs),
}

#[derive(Subcommand)]
enum PortCommand {
    /// Write a driver template (a complete protocol loop that claims nothing and answers every
    /// op unimplemented, with a README) into DIR, a new or empty folder; exit 2 otherwise.
    Init {
        /// The template's language: ts (JavaScript ES module for Node 20, JSDoc types), go or cs.
        #[arg(long, value_enum)]
        lang: onepath_conformance::port::templates::Lang,
        /// The folder to write (created when missing; refused when not empty).
        dir: PathBuf,
    },
}

#[derive(Subcommand)]
enum ClausesCommand {
    /// The clauses added, changed (their text's SHA-256 differs) and retired between FROM and TO
    /// (default: the working tree's spec/), each an index file (schema onepath.clause-index, e.g.
    /// the vectors/CLAUSES.json a port was certified with) or a git revision of the checkout.
    Diff {
        /// The older index: an index file or a git revision.
        from: String,
        /// The newer index: an index file or a git revision (default: the working tree).
        to: Option<String>,
        /// Print one JSON object (schema onepath.clauses-diff) instead of the text.
        #[arg(long)]
        json: bool,
    },
    /// The working tree's clause index (schema onepath.clause-index), printed or written to --out.
    Index {
        /// The file to write (atomically) instead of printing.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Turn cargo-mutants output folders of one package into a summary (schema onepath.mutants)
    /// for mutants/ .
    ImportMutants {
        /// cargo-mutants output folders (`mutants.out`, or the folder given to `-o`) of runs under
        /// the vectors judge; a later folder's outcome for a mutant replaces an earlier one.
        #[arg(required = true, value_parser = parse_dir)]
        dirs: Vec<PathBuf>,
        /// Output folders of runs of the survivors under the second judge
        /// (.cargo/mutants-checks.toml).
        #[arg(long, value_parser = parse_dir)]
        checks: Vec<PathBuf>,
        /// Which mutants ran, in words (for example `shard 0/8, round-robin`).
        #[arg(long)]
        selection: String,
        /// The summary file to write.
        #[arg(long)]
        out: PathBuf,
    },
}

fn parse_grid_algorithm(
    s: &str,
) -> Result<u8, onepath_conformance::movingai_cli::MovingAiRunError> {
    onepath_conformance::movingai_cli::parse_algorithm(s)
}

#[derive(Subcommand)]
enum ReportCommand {
    /// Merge the --json reports of the shards 1/n..n/n of one run into the run's report.
    Merge {
        /// The shards' reports (each `certify --json --shard k/n` output).
        #[arg(required = true)]
        reports: Vec<PathBuf>,
        /// Print the merged JSON report instead of the table.
        #[arg(long)]
        json: bool,
        /// Write a JUnit XML report of the merged run.
        #[arg(long)]
        junit: Option<PathBuf>,
        /// Write the certificate when the merged port run passes.
        #[arg(long)]
        certificate: Option<PathBuf>,
        /// Certificate date (YYYY-MM-DD) instead of the system clock.
        #[arg(long, requires = "certificate")]
        date: Option<String>,
    },
}

/// `port init` ([CONF.CLI.PORT_INIT]).
fn port_init(lang: onepath_conformance::port::templates::Lang, dir: &std::path::Path) -> ExitCode {
    match onepath_conformance::port::templates::init(lang, dir) {
        Ok(files) => {
            for f in &files {
                println!("wrote {}", f.display());
            }
            println!("quick start: {}", lang.quick_start(dir));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

/// A `--vectors` folder: an existing directory, else the run would report (or, in a shard
/// other than 1, silently skip) a folder that is not there.
fn parse_dir(s: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(s);
    if p.is_dir() {
        Ok(p)
    } else {
        Err(format!("{s:?} is not a directory"))
    }
}

fn parse_families(s: &str) -> Result<FamilySet, onepath_conformance::config::FamilyError> {
    FamilySet::parse(s)
}

fn parse_shard(value: Option<String>) -> Result<Shard, ExitCode> {
    match value.as_deref().map(Shard::parse) {
        None => Ok(Shard::ALL),
        Some(Ok(s)) => Ok(s),
        Some(Err(e)) => {
            eprintln!("{e}");
            Err(ExitCode::from(2))
        }
    }
}

fn write_or_complain(path: &std::path::Path, text: String) -> Result<(), ExitCode> {
    onepath_conformance::atomic::write(path, text).map_err(|e| {
        eprintln!("{}: {e}", path.display());
        ExitCode::from(2)
    })
}

fn report_merge(
    reports: Vec<PathBuf>,
    json: bool,
    junit: Option<PathBuf>,
    certificate: Option<PathBuf>,
    date: Option<String>,
) -> ExitCode {
    use onepath_conformance::port::run;
    use onepath_conformance::report_merge::{merge, parse, Merged};
    if let Some(d) = &date {
        if !run::valid_date(d) {
            eprintln!("--date must be YYYY-MM-DD");
            return ExitCode::from(2);
        }
    }
    let mut files = Vec::new();
    for path in &reports {
        let name = path.display().to_string();
        let parsed =
            onepath_conformance::input::read_text(path, onepath_conformance::input::MAX_REPORT)
                .map_err(|e| format!("{name}: cannot read: {}", e.what()))
                .and_then(|t| parse(&name, &t).map_err(|e| e.to_string()));
        match parsed {
            Ok(f) => files.push((name, f)),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        }
    }
    let merged = match merge(files) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if json {
        println!("{}", merged.to_json());
    } else {
        print!("{}", merged.to_table());
    }
    if let Some(path) = &junit {
        if let Err(c) = write_or_complain(path, merged.to_junit()) {
            return c;
        }
    }
    if let Some(path) = &certificate {
        match &merged {
            Merged::Crates(_) => {
                eprintln!("--certificate: only a port run has a certificate");
                return ExitCode::from(2);
            }
            Merged::Port(p) => {
                let date = date.clone().unwrap_or_else(run::today);
                match p.certificate(&date) {
                    Some(text) => {
                        if let Err(c) = write_or_complain(path, text) {
                            return c;
                        }
                    }
                    None => eprintln!("no certificate written: the port did not pass"),
                }
            }
        }
    }
    if merged.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

#[allow(clippy::too_many_arguments)]
fn certify_port(
    command: String,
    a: PortArgs,
    json: bool,
    seed: u64,
    dir: Option<PathBuf>,
    threads: Option<usize>,
    shard: Shard,
    families: FamilySet,
) -> ExitCode {
    use onepath_conformance::port::run;
    let mut options = run::PortOptions::new(&command);
    options.seed = seed;
    options.shard = shard;
    options.families = families;
    options.cases = a.port_cases;
    // --timeout is in range: its parser checked it ([DRIVER.CLI.LIMITS]).
    options.timeout = std::time::Duration::from_secs_f64(a.timeout);
    options.memory_limit_mb = a.memory_limit_mb;
    options.max_reply_mb = a.max_reply_mb;
    options.max_consecutive_failures = a.max_consecutive_failures;
    options.max_failures = a.max_failures;
    options.deadline = Some(std::time::Duration::from_secs(a.deadline));
    options.heartbeat = (a.heartbeat > 0).then(|| std::time::Duration::from_secs(a.heartbeat));
    options.fail_fast = a.fail_fast;
    // Report files are checked before the run, not after an hour of it ([DRIVER.CLI.CHECKS]).
    for (flag, path) in [("--junit", &a.junit), ("--certificate", &a.certificate)] {
        if let Some(p) = path {
            if let Err(e) = onepath_conformance::port::flags::check_output_path(p) {
                eprintln!("{flag}: {e}");
                return ExitCode::from(2);
            }
        }
    }
    if let Some(d) = &a.failures_dir {
        if let Err(e) = onepath_conformance::port::failure_requests::check_dir(d) {
            eprintln!("--failures-dir: {e}");
            return ExitCode::from(2);
        }
        options.failures_dir = Some(d.clone());
    }
    if let Some(d) = dir {
        options.vectors_dir = Some(d);
    }
    if let Some(t) = threads {
        options.threads = t.max(1);
    }
    // [DRIVER.CLI.SINCE] The clause diff is read before any driver starts.
    if let Some(from) = &a.since {
        use onepath_conformance::port::since;
        let root = onepath_conformance::clauses::cli::checkout_root();
        let diff = match (
            since::read_since(root.as_deref(), from),
            &options.vectors_dir,
        ) {
            (Ok(old), Some(dir)) => since::since(&old, from, dir, options.families),
            (Ok(_), None) => Err("no vectors folder to compare with".to_string()),
            (Err(e), _) => Err(e),
        };
        match diff {
            Ok(d) => options.since = Some(d),
            Err(e) => {
                eprintln!("--since: {e}");
                return ExitCode::from(2);
            }
        }
    }
    if let Some(path) = &a.expect {
        match onepath_conformance::input::read_text(path, onepath_conformance::input::MAX_EXPECT)
            .map_err(|e| e.what().to_string())
            .and_then(|t| {
                onepath_conformance::expectations::Expectations::parse(&t).map_err(String::from)
            }) {
            Ok(e) => options.expect = Some(e),
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    use onepath_conformance::port::process;
    // SIGINT / SIGTERM kill every driver group, then exit 130 / 143 ([DRIVER.PROC.SIGNALS]).
    if let Err(e) = process::install_signal_handlers() {
        eprintln!("cannot install signal handlers: {e}");
        return ExitCode::from(2);
    }
    // Every driver group is killed on every way out of the run, a panic included.
    let result = std::panic::catch_unwind(|| run::certify_port(options));
    process::kill_all_drivers();
    let result = match result {
        Ok(r) => r,
        Err(panic) => std::panic::resume_unwind(panic),
    };
    if json {
        println!("{}", result.to_json());
    } else {
        print!("{}", result.to_table());
    }
    match &result.failure_files {
        Some(Ok(f)) => eprintln!(
            "--failures-dir: {} request file(s) written to {}{}",
            f.written,
            f.dir.display(),
            if f.left_out > 0 {
                format!(" ({} failing label(s) left out by the limits)", f.left_out)
            } else {
                String::new()
            }
        ),
        Some(Err(e)) => {
            eprintln!("--failures-dir: {e}");
            return ExitCode::from(2);
        }
        None => {}
    }
    if let Some(path) = &a.junit {
        if let Err(e) = onepath_conformance::atomic::write(path, result.to_junit()) {
            eprintln!("{}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    if let Some(path) = &a.certificate {
        let date = a.date.clone().unwrap_or_else(run::today);
        match result.certificate(&date) {
            Some(text) => {
                if let Err(e) = onepath_conformance::atomic::write(path, text) {
                    eprintln!("{}: {e}", path.display());
                    return ExitCode::from(2);
                }
            }
            None => eprintln!("no certificate written: the port did not pass"),
        }
    }
    if result.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn certify(
    full: bool,
    json: bool,
    seed: u64,
    dir: Option<PathBuf>,
    threads: Option<usize>,
    shard: Shard,
    families: FamilySet,
) -> ExitCode {
    let mut config = if full {
        Config::full(seed)
    } else {
        Config::ci(seed)
    };
    config.shard = shard;
    config.families = families;
    if let Some(d) = dir {
        config.vectors_dir = Some(d);
    }
    if let Some(t) = threads {
        config.threads = t.max(1);
    }
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(config.work());
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} cases")
                .expect("template"),
        );
        bar
    });
    let candidates: [&dyn Implementation; 1] = [&OptimizedCrate];
    let report =
        onepath_conformance::family::certify(&ReferenceCrate, &candidates, &config, bar.as_ref());
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if json {
        println!("{}", report.to_json());
    } else {
        print!("{}", report.to_table());
    }
    if report.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The `vectors/` folder of the onepath-rs checkout that contains the current directory.
fn checkout_vectors_dir() -> Option<PathBuf> {
    onepath_conformance::clauses::cli::checkout_root().map(|d| d.join("vectors"))
}

/// [CONF.CLI.VECTORS]
fn vectors_command(check: bool, out: Option<PathBuf>) -> ExitCode {
    let Some(dir) = out.or_else(checkout_vectors_dir) else {
        eprintln!(
            "vectors: the current directory is not inside an onepath-rs checkout; \
             pass --out DIR (the folder to {})",
            if check { "check" } else { "write" }
        );
        return ExitCode::from(2);
    };
    if check {
        let problems = onepath_conformance::family::check_dir(&dir, &ReferenceCrate);
        if problems.is_empty() {
            println!("vectors are up to date: {}", dir.display());
            return ExitCode::SUCCESS;
        }
        for p in &problems {
            println!("{p}");
        }
        println!(
            "{} problem(s); run `onepath-conformance vectors` to regenerate",
            problems.len()
        );
        return ExitCode::from(1);
    }
    let files = onepath_conformance::family::generate_files(&ReferenceCrate);
    match onepath_conformance::atomic::replace_dir(&dir, &files) {
        Ok(()) => {
            println!("wrote {} files to {}", files.len(), dir.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cannot write {}: {e}", dir.display());
            ExitCode::from(2)
        }
    }
}

fn road_command(
    gr: Option<PathBuf>,
    co: Option<PathBuf>,
    generate: Option<usize>,
    queries: usize,
    seed: u64,
    check: bool,
) -> ExitCode {
    // Every input fault is a typed road::RoadError naming the file and line; exit 2.
    let run = || -> Result<(String, bool), road::RoadError> {
        let graph = match gr {
            Some(path) => {
                let mut g = road::read_gr(&path)?;
                if let Some(co) = co {
                    g.positions = Some(road::read_co(&co, g.node_count)?);
                }
                g
            }
            None => road::generated(generate.unwrap_or(10_000), seed)?,
        };
        if check {
            let report = onepath_conformance::road_check::check(&graph, queries, seed)?;
            return Ok((report.to_table(), report.ok()));
        }
        Ok((road::benchmark(&graph, queries, seed)?, true))
    };
    match run() {
        Ok((table, ok)) => {
            print!("{table}");
            if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("road: {e}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Certify {
            port: Some(cmd),
            port_args,
            json,
            seed,
            vectors,
            threads,
            shard,
            family,
            ..
        } => match parse_shard(shard) {
            Ok(s) => certify_port(
                cmd,
                port_args,
                json,
                seed,
                vectors,
                threads,
                s,
                family.unwrap_or(FamilySet::ALL),
            ),
            Err(c) => c,
        },
        Command::Certify {
            full,
            json,
            seed,
            vectors,
            threads,
            shard,
            family,
            ..
        } => match parse_shard(shard) {
            Ok(s) => certify(
                full,
                json,
                seed,
                vectors,
                threads,
                s,
                family.unwrap_or(FamilySet::ALL),
            ),
            Err(c) => c,
        },
        Command::Report {
            command:
                ReportCommand::Merge {
                    reports,
                    json,
                    junit,
                    certificate,
                    date,
                },
        } => report_merge(reports, json, junit, certificate, date),
        Command::Vectors { check, out } => vectors_command(check, out),
        Command::Schemas { check, dir } => schemas_command(check, &dir),
        Command::Port {
            command: PortCommand::Init { lang, dir },
        } => port_init(lang, &dir),
        Command::Road {
            gr,
            co,
            generate,
            queries,
            seed,
            check,
        } => road_command(gr, co, generate, queries, seed, check),
        Command::Movingai {
            map,
            scen,
            algorithm,
            json,
            port,
            timeout,
            ignore_map_name,
        } => movingai_command(map, scen, algorithm, json, port, timeout, ignore_map_name),
        Command::Clauses {
            json,
            root,
            command: None,
        } => onepath_conformance::clauses::cli::clauses_command(root, json),
        Command::Clauses {
            root,
            command:
                Some(ClausesCommand::ImportMutants {
                    dirs,
                    checks,
                    selection,
                    out,
                }),
            ..
        } => onepath_conformance::clauses::cli::import_mutants_command(
            root, &dirs, &checks, &selection, &out,
        ),
        Command::Clauses {
            root,
            command: Some(ClausesCommand::Diff { from, to, json }),
            ..
        } => onepath_conformance::clauses::cli::diff_command(root, &from, to.as_deref(), json),
        Command::Clauses {
            root,
            command: Some(ClausesCommand::Index { out }),
            ..
        } => onepath_conformance::clauses::cli::index_command(root, out.as_deref()),
        Command::Explain(args) => onepath_conformance::debug::explain_cli::run(args),
        Command::Synctest(args) => onepath_conformance::synctest::cli::run(args),
    }
}

/// `movingai` ([CONF.CLI.MOVINGAI]): exit 0 all match, 1 any mismatch, 2 bad input.
fn movingai_command(
    map: PathBuf,
    scen: PathBuf,
    algorithms: Vec<u8>,
    json: bool,
    port: Option<String>,
    timeout: f64,
    ignore_map_name: bool,
) -> ExitCode {
    use onepath_conformance::movingai_cli as mc;
    use onepath_conformance::port::{process, PortImpl};
    let algorithms = if algorithms.is_empty() {
        mc::OPTIMAL_ALGORITHMS.to_vec()
    } else {
        algorithms
    };
    let bench = match mc::load(&map, &scen, !ignore_map_name) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("movingai: {e}");
            return ExitCode::from(2);
        }
    };
    let grid = onepath_conformance::checks::grid_search::movingai_grid(&bench.map);
    let (map_name, scen_name) = (map.display().to_string(), scen.display().to_string());
    let result = || -> Result<mc::MovingAiReport, mc::MovingAiRunError> {
        let reference = mc::ReferenceRunner::new(&grid)?;
        match &port {
            None => {
                let optimized = mc::OptimizedRunner::new(&grid)?;
                Ok(mc::run(
                    &bench,
                    &[&reference, &optimized],
                    &algorithms,
                    &map_name,
                    &scen_name,
                ))
            }
            Some(cmd) => {
                let mut imp = PortImpl::new(cmd, std::time::Duration::from_secs_f64(timeout));
                let hello = imp.pool.hello().map_err(|e| {
                    mc::MovingAiRunError::new(mc::MovingAiRunErrorKind::Port, e.to_string())
                })?;
                imp.set_name(&hello.port);
                imp.register_grid_map(&grid, &format!("movingai:{map_name}"));
                let port_runner = mc::ImplementationRunner {
                    implementation: &imp,
                    map: grid.clone(),
                };
                Ok(mc::run(
                    &bench,
                    &[&reference, &port_runner],
                    &algorithms,
                    &map_name,
                    &scen_name,
                ))
            }
        }
    };
    if port.is_some() {
        if let Err(e) = process::install_signal_handlers() {
            eprintln!("cannot install signal handlers: {e}");
            return ExitCode::from(2);
        }
    }
    // Every driver group is killed on every way out of the run, a panic included.
    let result = std::panic::catch_unwind(result);
    if port.is_some() {
        process::kill_all_drivers();
    }
    let report = match result {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => {
            eprintln!("movingai: {e}");
            return ExitCode::from(2);
        }
        Err(panic) => std::panic::resume_unwind(panic),
    };
    if json {
        println!("{}", report.to_json());
    } else {
        print!("{}", report.to_table());
    }
    if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn schemas_command(check: bool, dir: &std::path::Path) -> ExitCode {
    use onepath_conformance::port::schemas;
    if check {
        let stale = schemas::check(dir);
        for s in &stale {
            eprintln!("{}: {}", dir.join(&s.file).display(), s.problem);
        }
        if stale.is_empty() {
            println!(
                "{} schemas in {} are current",
                schemas::all().len(),
                dir.display()
            );
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        }
    } else {
        match schemas::write(dir) {
            Ok(n) => {
                println!("wrote {n} schemas to {}", dir.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("cannot write {}: {e}", dir.display());
                ExitCode::from(2)
            }
        }
    }
}
