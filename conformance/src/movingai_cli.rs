//! The `movingai` subcommand ([CONF.CLI.MOVINGAI]): every scenario of a user's MovingAI `.scen`
//! on its `.map`, through tier 1 of `onepath-reference` (the oracle of record) and of a
//! candidate (`onepath` in process, or a port over the driver protocol), with each selected
//! optimal algorithm. Each answer must be `Found` with a valid path whose length is within
//! [`ABSOLUTE_TOLERANCE`] / [`RELATIVE_TOLERANCE`] of the scenario's optimal length, and the
//! candidate's status, cost bits and path must equal the reference's.
//!
//! The files are read with the strict readers of [`crate::movingai`] ([CONF.MOVINGAI.MAP_FORMAT],
//! [CONF.MOVINGAI.SCEN_FORMAT]); every input fault is a [`MovingAiRunError`] with a
//! [`MovingAiRunErrorKind`], the file and the 1-based line, never a panic.

use crate::error::CallError;
use crate::grid::{GridApi, GridMap, GridOptionsData, GridRequest, ALGORITHM_NAMES, FOUND};
use crate::movingai::{move_allowed, MovingAiMap, OctileCost, ScenEntry, ScenFile};
pub use crate::movingai_report::{
    BucketCount, Mismatch, MismatchKind, MovingAiReport, Timing, ABSOLUTE_TOLERANCE,
    RELATIVE_TOLERANCE, SCHEMA, VERSION,
};
use crate::Implementation;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The most mismatches a report lists (all are counted).
pub const MAX_LISTED: usize = 50;
/// The algorithms a MovingAI scenario can be checked with (the optimal ones), by
/// [GS.OPT.ALGORITHM] value: A*, Dijkstra, JPS, JPS+.
pub const OPTIMAL_ALGORITHMS: [u8; 4] = [0, 1, 2, 3];

/// The class of a [`MovingAiRunError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MovingAiRunErrorKind {
    /// A file cannot be read.
    Io,
    /// The `.map` text breaks [CONF.MOVINGAI.MAP_FORMAT].
    Map,
    /// The `.scen` text breaks [CONF.MOVINGAI.SCEN_FORMAT].
    Scen,
    /// A scenario names another map file than `--map`.
    MapName,
    /// A scenario's width and height are not the map's.
    Size,
    /// A scenario's start or goal is not a passable cell of the map.
    Blocked,
    /// A command-line argument out of its range (an unknown or non-optimal algorithm).
    Argument,
    /// The port did not start or complete its handshake.
    Port,
    /// A crate rejected the map.
    Library,
}

/// A failure to read or run a MovingAI benchmark: its class, what went wrong and where (file,
/// 1-based line and column when known). Displayed as `[<file>: ][line L[, column C]: ]<what>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovingAiRunError {
    kind: MovingAiRunErrorKind,
    what: String,
    path: Option<PathBuf>,
    line: Option<u64>,
    column: Option<u64>,
}

impl MovingAiRunError {
    /// An error of `kind` saying `what`, without a location.
    pub fn new(kind: MovingAiRunErrorKind, what: impl Into<String>) -> MovingAiRunError {
        MovingAiRunError {
            kind,
            what: what.into(),
            path: None,
            line: None,
            column: None,
        }
    }
    fn at(mut self, path: &Path, line: u64, column: Option<u64>) -> MovingAiRunError {
        self.path = Some(path.to_path_buf());
        self.line = Some(line);
        self.column = column;
        self
    }
    /// The class.
    pub fn kind(&self) -> MovingAiRunErrorKind {
        self.kind
    }
    /// The message, without the location.
    pub fn what(&self) -> &str {
        &self.what
    }
    /// The file, when known.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
    /// The 1-based line, when known.
    pub fn line(&self) -> Option<u64> {
        self.line
    }
    /// The 1-based byte column, when known.
    pub fn column(&self) -> Option<u64> {
        self.column
    }
}

impl fmt::Display for MovingAiRunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.path {
            write!(f, "{}: ", p.display())?;
        }
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "line {l}, column {c}: ")?,
            (Some(l), None) => write!(f, "line {l}: ")?,
            _ => {}
        }
        f.write_str(&self.what)
    }
}

impl std::error::Error for MovingAiRunError {}

/// The [GS.OPT.ALGORITHM] value of an optimal algorithm's name (`astar`, `dijkstra`, `jps`,
/// `jps_plus`); any other name is a [`MovingAiRunErrorKind::Argument`] error.
pub fn parse_algorithm(name: &str) -> Result<u8, MovingAiRunError> {
    OPTIMAL_ALGORITHMS
        .iter()
        .copied()
        .find(|&a| ALGORITHM_NAMES[a as usize] == name)
        .ok_or_else(|| {
            MovingAiRunError::new(
                MovingAiRunErrorKind::Argument,
                format!(
                    "{name:?} is not one of astar, dijkstra, jps, jps_plus (any-angle searches \
                     have no octile optimum)"
                ),
            )
        })
}

/// True when `found` is within the tolerance of `optimal` ([`ABSOLUTE_TOLERANCE`]).
pub fn within_tolerance(optimal: f64, found: f64) -> bool {
    found.is_finite()
        && (found - optimal).abs() <= ABSOLUTE_TOLERANCE.max(RELATIVE_TOLERANCE * optimal.abs())
}

/// A map and its scenarios, read and checked against each other.
#[derive(Clone, Debug)]
pub struct Benchmark {
    /// The map.
    pub map: MovingAiMap,
    /// The scenarios, in file order (entry `i` is line `i + 2`).
    pub scen: ScenFile,
}

fn read_file(path: &Path) -> Result<Vec<u8>, MovingAiRunError> {
    crate::input::read_bytes(path, crate::input::MAX_MOVINGAI).map_err(|e| {
        let mut err = MovingAiRunError::new(
            MovingAiRunErrorKind::Io,
            format!("cannot read: {}", e.what()),
        );
        err.path = Some(path.to_path_buf());
        err
    })
}

/// The last component of a scenario's map name (`maps/dao/arena.map` → `arena.map`).
fn base_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

/// Reads `map_path` and `scen_path` strictly and checks every scenario against the map: its map
/// name's last path component is the map file's name (unless `check_map_name` is false), its
/// width and height are the map's, and its start and goal are passable cells.
pub fn load(
    map_path: &Path,
    scen_path: &Path,
    check_map_name: bool,
) -> Result<Benchmark, MovingAiRunError> {
    let reader = |kind, path: &Path, e: crate::movingai::MovingAiError| {
        let what = e.to_string();
        // The reader's message starts with its own `line L, column C: `; keep only the what.
        let what = what
            .split_once(": ")
            .map_or(what.clone(), |(_, w)| w.to_string());
        MovingAiRunError::new(kind, what).at(path, e.line as u64, Some(e.column as u64))
    };
    let map = MovingAiMap::read(&read_file(map_path)?)
        .map_err(|e| reader(MovingAiRunErrorKind::Map, map_path, e))?;
    let scen = ScenFile::read(&read_file(scen_path)?)
        .map_err(|e| reader(MovingAiRunErrorKind::Scen, scen_path, e))?;
    let file_name = map_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for (i, e) in scen.entries.iter().enumerate() {
        let line = i as u64 + 2;
        let bad = |kind, what: String| MovingAiRunError::new(kind, what).at(scen_path, line, None);
        if check_map_name && base_name(&e.map) != file_name {
            return Err(bad(
                MovingAiRunErrorKind::MapName,
                format!(
                    "the scenario's map is {:?}, --map is {file_name:?} (--ignore-map-name \
                     accepts it)",
                    e.map
                ),
            ));
        }
        if (e.width as usize, e.height as usize) != (map.width(), map.height()) {
            return Err(bad(
                MovingAiRunErrorKind::Size,
                format!(
                    "the scenario's map is {}x{}, the map is {}x{}",
                    e.width,
                    e.height,
                    map.width(),
                    map.height()
                ),
            ));
        }
        for (end, x, y) in [
            ("start", e.start_x, e.start_y),
            ("goal", e.goal_x, e.goal_y),
        ] {
            if !map.passable(i64::from(x), i64::from(y)) {
                return Err(bad(
                    MovingAiRunErrorKind::Blocked,
                    format!(
                        "the {end} ({x}, {y}) is not a passable cell (map character {:?})",
                        map.get(x as usize, y as usize) as char
                    ),
                ));
            }
        }
    }
    Ok(Benchmark { map, scen })
}

/// One tier-1 answer: status ([CONF.GRID.REPLY] tier-1 values), cost bits and path cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// 2 Found, 3 NotFound, 4 BudgetExhausted.
    pub status: u8,
    /// The cost's bits.
    pub cost_bits: u64,
    /// The path cells (row-major indexes).
    pub path: Vec<u32>,
}

/// Something that answers a scenario with an algorithm: the answer, or the error it gave
/// instead ([`CallError::Class`] for the API's error class, [`CallError::Harness`] when a port
/// gave no answer).
pub trait ScenarioRunner {
    /// The implementation's name in reports.
    fn name(&self) -> String;
    /// Runs one scenario with `algorithm` ([GS.OPT.ALGORITHM] value) through tier 1, 8-connected,
    /// `NoneBlocked` ([CONF.MOVINGAI.MOVES]), recording off.
    fn run(&self, entry: &ScenEntry, algorithm: u8) -> Result<Answer, CallError>;
}

/// The options of a MovingAI run with `algorithm`.
pub fn options(algorithm: u8) -> GridOptionsData {
    GridOptionsData {
        algorithm,
        record: false,
        ..GridOptionsData::default()
    }
}

macro_rules! crate_runner {
    ($ty:ident, $krate:ident, $adapter:ident, $doc:literal) => {
        #[doc = $doc]
        pub struct $ty {
            grid: ::$krate::Grid,
        }

        impl $ty {
            /// Builds the crate's grid of `map` once.
            pub fn new(map: &GridMap) -> Result<$ty, MovingAiRunError> {
                crate::grid::adapter::$adapter::build_grid(map)
                    .map(|grid| $ty { grid })
                    .map_err(|e| MovingAiRunError::new(MovingAiRunErrorKind::Library, e))
            }
        }

        impl ScenarioRunner for $ty {
            fn name(&self) -> String {
                stringify!($krate).replace('_', "-")
            }
            fn run(&self, e: &ScenEntry, algorithm: u8) -> Result<Answer, CallError> {
                let opts = crate::grid::adapter::$adapter::options(&options(algorithm));
                let start = (e.start_x as usize, e.start_y as usize);
                let goal = (e.goal_x as usize, e.goal_y as usize);
                match ::$krate::find_grid_path(&self.grid, start, goal, &opts) {
                    Err(err) => Err(CallError::Class(err.class().to_string())),
                    Ok(p) => Ok(Answer {
                        status: match p.status {
                            ::$krate::PathStatus::Found => 2,
                            ::$krate::PathStatus::NotFound => 3,
                            ::$krate::PathStatus::BudgetExhausted => 4,
                        },
                        cost_bits: p.cost.to_bits(),
                        path: p.cells,
                    }),
                }
            }
        }
    };
}

crate_runner!(
    ReferenceRunner,
    onepath_reference,
    reference_adapter,
    "`onepath-reference` in process, its grid built once."
);
crate_runner!(
    OptimizedRunner,
    onepath,
    optimized_adapter,
    "`onepath` in process, its grid built once."
);

/// Any [`Implementation`] (a port) through `run_grid`, one request per scenario.
pub struct ImplementationRunner<'a> {
    /// The implementation.
    pub implementation: &'a dyn Implementation,
    /// The map as grid data.
    pub map: GridMap,
}

impl ScenarioRunner for ImplementationRunner<'_> {
    fn name(&self) -> String {
        self.implementation.name().to_string()
    }
    fn run(&self, e: &ScenEntry, algorithm: u8) -> Result<Answer, CallError> {
        let request = GridRequest {
            map: self.map.clone(),
            options: options(algorithm),
            api: GridApi::Tier1,
            start: (e.start_x, e.start_y),
            goal: (e.goal_x, e.goal_y),
            schedule: vec![],
            snapshot_after: None,
        };
        match self.implementation.run_grid(&request) {
            Err(h) => Err(CallError::Harness(h)),
            Ok(Err(class)) => Err(CallError::Class(class)),
            Ok(Ok(r)) => Ok(Answer {
                status: r.status,
                cost_bits: r.cost_bits,
                path: r.path,
            }),
        }
    }
}

/// Why `answer` does not solve scenario `e` (kind, what), if it does not.
fn check_answer(
    map: &MovingAiMap,
    e: &ScenEntry,
    answer: &Result<Answer, CallError>,
) -> Option<(MismatchKind, String)> {
    let a = match answer {
        Err(class) => return Some((MismatchKind::Length, format!("error {class}"))),
        Ok(a) if a.status != FOUND => {
            return Some((
                MismatchKind::Length,
                format!("status {} (not Found)", a.status),
            ))
        }
        Ok(a) => a,
    };
    let w = map.width() as u32;
    let cell = |x: u32, y: u32| y * w + x;
    if a.path.first() != Some(&cell(e.start_x, e.start_y))
        || a.path.last() != Some(&cell(e.goal_x, e.goal_y))
    {
        return Some((
            MismatchKind::Path,
            "the path does not run from start to goal".into(),
        ));
    }
    let mut pair = OctileCost::default();
    for (i, step) in a.path.windows(2).enumerate() {
        let (x0, y0) = (i64::from(step[0] % w), i64::from(step[0] / w));
        let (x1, y1) = (i64::from(step[1] % w), i64::from(step[1] / w));
        let (dx, dy) = (x1 - x0, y1 - y0);
        let one = dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0);
        if step[1] as usize >= map.cells().len() || !one || !move_allowed(map, x0, y0, dx, dy) {
            return Some((
                MismatchKind::Path,
                format!(
                    "path step {i}: cell {} -> {} is not an allowed move",
                    step[0], step[1]
                ),
            ));
        }
        pair = pair.step(dx != 0 && dy != 0);
    }
    let cost = f64::from_bits(a.cost_bits);
    let own = pair.value();
    if !((own - cost).abs() <= 1e-9 * own.abs().max(1.0)) {
        return Some((
            MismatchKind::Path,
            format!("the path's octile length {own:?} is not the reported cost"),
        ));
    }
    (!within_tolerance(e.optimal_length, cost)).then(|| {
        (
            MismatchKind::Length,
            "length outside the tolerance of the optimum".into(),
        )
    })
}

/// Why candidate answer `c` differs from reference answer `r`, if it does.
fn compare(r: &Result<Answer, CallError>, c: &Result<Answer, CallError>) -> Option<String> {
    match (r, c) {
        (Ok(r), Ok(c)) if r == c => None,
        (Err(a), Err(b)) if a == b => None,
        (Ok(r), Ok(c)) if r.status != c.status => {
            Some(format!("status {} (reference {})", c.status, r.status))
        }
        (Ok(r), Ok(c)) if r.cost_bits != c.cost_bits => Some(format!(
            "cost bits {:016x} (reference {:016x})",
            c.cost_bits, r.cost_bits
        )),
        (Ok(r), Ok(c)) => {
            let i = r
                .path
                .iter()
                .zip(&c.path)
                .position(|(a, b)| a != b)
                .unwrap_or(r.path.len().min(c.path.len()));
            Some(format!("path differs from the reference's at entry {i}"))
        }
        (Ok(_), Err(b)) => Some(format!("error {b} (the reference answered)")),
        (Err(a), Ok(_)) => Some(format!("an answer (the reference gave error {a})")),
        (Err(a), Err(b)) => Some(format!("error {b} (reference error {a})")),
    }
}

fn cost_of(a: &Result<Answer, CallError>) -> Option<f64> {
    a.as_ref().ok().map(|a| f64::from_bits(a.cost_bits))
}

/// Runs every scenario of `bench` with every algorithm on every runner (the first is the
/// reference) and returns the report. `map` and `scen` are the paths shown in it.
pub fn run(
    bench: &Benchmark,
    runners: &[&dyn ScenarioRunner],
    algorithms: &[u8],
    map: &str,
    scen: &str,
) -> MovingAiReport {
    let mut buckets: BTreeMap<u32, BucketCount> = BTreeMap::new();
    // Per runner and algorithm (index into `algorithms`): all runs, and the first alone.
    let mut seconds = vec![vec![0.0f64; algorithms.len()]; runners.len()];
    let mut first = vec![vec![0.0f64; algorithms.len()]; runners.len()];
    let mut runs = vec![vec![0u64; algorithms.len()]; runners.len()];
    let mut mismatches = Vec::new();
    let mut mismatch_count = 0u64;
    for (i, e) in bench.scen.entries.iter().enumerate() {
        let mut scenario_ok = true;
        for (j, &algorithm) in algorithms.iter().enumerate() {
            let answers: Vec<Result<Answer, CallError>> = runners
                .iter()
                .enumerate()
                .map(|(k, r)| {
                    let t = Instant::now();
                    let a = r.run(e, algorithm);
                    let took = t.elapsed().as_secs_f64();
                    if runs[k][j] == 0 {
                        first[k][j] = took;
                    }
                    seconds[k][j] += took;
                    runs[k][j] += 1;
                    a
                })
                .collect();
            for (k, answer) in answers.iter().enumerate() {
                let mut found: Vec<(MismatchKind, String, f64)> = Vec::new();
                if let Some((kind, what)) = check_answer(&bench.map, e, answer) {
                    found.push((kind, what, e.optimal_length));
                }
                if k > 0 {
                    if let Some(what) = compare(&answers[0], answer) {
                        let expected = cost_of(&answers[0]).unwrap_or(f64::NAN);
                        found.push((MismatchKind::Reference, what, expected));
                    }
                }
                for (kind, what, expected) in found {
                    scenario_ok = false;
                    mismatch_count += 1;
                    if mismatches.len() < MAX_LISTED {
                        mismatches.push(Mismatch {
                            scenario: i,
                            line: i + 2,
                            bucket: e.bucket,
                            algorithm: ALGORITHM_NAMES[algorithm as usize].to_string(),
                            implementation: runners[k].name(),
                            kind,
                            what,
                            expected,
                            found: cost_of(answer),
                        });
                    }
                }
            }
        }
        let b = buckets.entry(e.bucket).or_insert(BucketCount {
            bucket: e.bucket,
            scenarios: 0,
            matches: 0,
            mismatches: 0,
        });
        b.scenarios += 1;
        if scenario_ok {
            b.matches += 1;
        } else {
            b.mismatches += 1;
        }
    }
    MovingAiReport {
        map: map.to_string(),
        scen: scen.to_string(),
        width: bench.map.width(),
        height: bench.map.height(),
        algorithms: algorithms
            .iter()
            .map(|&a| ALGORITHM_NAMES[a as usize].to_string())
            .collect(),
        implementations: runners.iter().map(|r| r.name()).collect(),
        buckets: buckets.into_values().collect(),
        mismatch_count,
        mismatches,
        timings: runners
            .iter()
            .enumerate()
            .flat_map(|(k, r)| {
                let (seconds, first, runs) = (&seconds[k], &first[k], &runs[k]);
                algorithms.iter().enumerate().map(move |(j, &a)| Timing {
                    implementation: r.name(),
                    algorithm: ALGORITHM_NAMES[a as usize].to_string(),
                    runs: runs[j],
                    seconds: seconds[j],
                    first_seconds: first[j],
                })
            })
            .collect(),
    }
}
