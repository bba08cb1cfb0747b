//! The report of the `movingai` subcommand ([CONF.CLI.MOVINGAI]): per-bucket counts, the
//! mismatching runs, times, and its table and `--json` forms (schema
//! `onepath.movingai-report`, version 1).

use serde::Serialize;

/// The `schema` member of the `--json` report.
pub const SCHEMA: &str = "onepath.movingai-report";
/// The `version` member of the `--json` report.
pub const VERSION: u32 = 2;
/// A length matches when `|found - optimal| <= max(ABSOLUTE_TOLERANCE, RELATIVE_TOLERANCE *
/// optimal)` ([CONF.CLI.MOVINGAI]): MovingAI sets print lengths with 8 decimals (an error up to
/// `5e-9`), while two distinct octile lengths whose straight and diagonal step counts differ by
/// less than `10^5` each differ by more than `1.05e-5` (`|47321 - 33461 sqrt(2)|`).
pub const ABSOLUTE_TOLERANCE: f64 = 1e-6;
/// The relative part of the length tolerance (see [`ABSOLUTE_TOLERANCE`]): it only matters above
/// a length of `10^5`, where f64 sums along a path drift by more than `1e-6`.
pub const RELATIVE_TOLERANCE: f64 = 1e-11;

/// What kind of mismatch a [`Mismatch`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MismatchKind {
    /// No path found, an error, or a length outside the tolerance of the scenario's optimum.
    Length,
    /// The path does not walk from start to goal by allowed moves, or its octile length is not
    /// the reported cost (within `1e-9` relative).
    Path,
    /// The candidate's status, cost bits or path differ from the reference's.
    Reference,
}

/// One mismatching run.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// 0-based scenario index in file order.
    pub scenario: usize,
    /// The scenario's 1-based line in the `.scen` file.
    pub line: usize,
    /// The scenario's bucket.
    pub bucket: u32,
    /// The algorithm's name.
    pub algorithm: String,
    /// The implementation that mismatched.
    pub implementation: String,
    /// The kind.
    pub kind: MismatchKind,
    /// What differs, in words.
    pub what: String,
    /// The expected cost: the scenario's optimal length (kinds `length`, `path`) or the
    /// reference's cost (kind `reference`).
    pub expected: f64,
    /// The cost found (none for an error).
    pub found: Option<f64>,
}

/// The counts of one bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BucketCount {
    /// The bucket.
    pub bucket: u32,
    /// Scenarios in it.
    pub scenarios: u64,
    /// Scenarios whose every run matched.
    pub matches: u64,
    /// Scenarios with at least one mismatching run.
    pub mismatches: u64,
}

/// The time one implementation spent in its runs of one algorithm.
#[derive(Clone, Debug, PartialEq)]
pub struct Timing {
    /// The implementation.
    pub implementation: String,
    /// The algorithm.
    pub algorithm: String,
    /// Runs made.
    pub runs: u64,
    /// Wall time of the runs (grid building excluded), seconds.
    pub seconds: f64,
    /// Wall time of the first of them, seconds: it includes whatever the implementation builds
    /// once per grid for the algorithm (`onepath`: the padded passability, move masks, JPS block
    /// masks or JPS+ tables), shown apart from the queries.
    pub first_seconds: f64,
}

impl Timing {
    /// Milliseconds per run after the first (0 when there is none).
    pub fn later_ms_per_run(&self) -> f64 {
        if self.runs > 1 {
            (self.seconds - self.first_seconds) * 1000.0 / (self.runs - 1) as f64
        } else {
            0.0
        }
    }
}

/// The result of a `movingai` run.
#[derive(Clone, Debug, PartialEq)]
pub struct MovingAiReport {
    /// The `.map` path as given.
    pub map: String,
    /// The `.scen` path as given.
    pub scen: String,
    /// The map's width.
    pub width: usize,
    /// The map's height.
    pub height: usize,
    /// The algorithms' names, in run order.
    pub algorithms: Vec<String>,
    /// The implementations, reference first.
    pub implementations: Vec<String>,
    /// Per bucket, ascending.
    pub buckets: Vec<BucketCount>,
    /// Every mismatching run, counted.
    pub mismatch_count: u64,
    /// The first [`MAX_LISTED`] mismatching runs, in scenario, algorithm, implementation order.
    pub mismatches: Vec<Mismatch>,
    /// Per implementation, reference first.
    pub timings: Vec<Timing>,
}

/// `value (0x<16 hex digits>)`, or `none`.
fn show(v: Option<f64>) -> String {
    match v {
        Some(v) => format!("{v:?} (0x{:016x})", v.to_bits()),
        None => "none".into(),
    }
}

impl MovingAiReport {
    /// True when every run matched.
    pub fn ok(&self) -> bool {
        self.mismatch_count == 0
    }

    fn total(&self) -> BucketCount {
        self.buckets.iter().fold(
            BucketCount {
                bucket: 0,
                scenarios: 0,
                matches: 0,
                mismatches: 0,
            },
            |t, b| BucketCount {
                scenarios: t.scenarios + b.scenarios,
                matches: t.matches + b.matches,
                mismatches: t.mismatches + b.mismatches,
                ..t
            },
        )
    }

    /// The human report: header, per-bucket table, times, the first 10 mismatches, verdict.
    pub fn to_table(&self) -> String {
        let total = self.total();
        let mut out = format!(
            "movingai: {} ({}x{}), {}: {} scenarios x {} on {}\n\
             length tolerance: |found - optimal| <= max({ABSOLUTE_TOLERANCE:e}, \
             {RELATIVE_TOLERANCE:e} * optimal)\n{:>8} {:>10} {:>10} {:>11}\n",
            self.map,
            self.width,
            self.height,
            self.scen,
            total.scenarios,
            self.algorithms.join(", "),
            self.implementations.join(" (reference), "),
            "bucket",
            "scenarios",
            "matches",
            "mismatches"
        );
        for b in &self.buckets {
            out += &format!(
                "{:>8} {:>10} {:>10} {:>11}\n",
                b.bucket, b.scenarios, b.matches, b.mismatches
            );
        }
        out += &format!(
            "{:>8} {:>10} {:>10} {:>11}\n",
            "total", total.scenarios, total.matches, total.mismatches
        );
        for t in &self.timings {
            out += &format!(
                "time {} {}: {:.3} s over {} runs: first {:.3} ms (with what the grid builds once), then {:.4} ms/run\n",
                t.implementation,
                t.algorithm,
                t.seconds,
                t.runs,
                t.first_seconds * 1000.0,
                t.later_ms_per_run()
            );
        }
        if !self.mismatches.is_empty() {
            out += &format!(
                "first mismatches ({} of {} runs):\n",
                self.mismatches.len().min(10),
                self.mismatch_count
            );
            for m in self.mismatches.iter().take(10) {
                out += &format!(
                    "  scenario {} (line {}), bucket {}, {}, {}: {}: expected {}, found {}\n",
                    m.scenario,
                    m.line,
                    m.bucket,
                    m.algorithm,
                    m.implementation,
                    m.what,
                    show(Some(m.expected)),
                    show(m.found)
                );
            }
        }
        out += &if self.ok() {
            format!("ok: all {} scenarios match\n", total.scenarios)
        } else {
            format!(
                "FAILED: {} of {} scenarios mismatch ({} runs)\n",
                total.mismatches, total.scenarios, self.mismatch_count
            )
        };
        out
    }

    /// The `--json` report ([CONF.CLI.MOVINGAI]): one object, members in the documented order.
    pub fn to_json(&self) -> String {
        #[derive(Serialize)]
        struct Cost {
            value: Option<f64>,
            bits: String,
        }
        let cost = |v: f64| Cost {
            value: v.is_finite().then_some(v),
            bits: format!("{:016x}", v.to_bits()),
        };
        #[derive(Serialize)]
        struct M {
            scenario: usize,
            line: usize,
            bucket: u32,
            algorithm: String,
            implementation: String,
            kind: MismatchKind,
            what: String,
            expected: Cost,
            found: Option<Cost>,
        }
        #[derive(Serialize)]
        struct T {
            implementation: String,
            algorithm: String,
            runs: u64,
            seconds: f64,
            first_seconds: f64,
        }
        #[derive(Serialize)]
        struct Tolerance {
            absolute: f64,
            relative: f64,
        }
        #[derive(Serialize)]
        struct R {
            schema: &'static str,
            version: u32,
            ok: bool,
            map: String,
            scen: String,
            width: usize,
            height: usize,
            algorithms: Vec<String>,
            implementations: Vec<String>,
            tolerance: Tolerance,
            scenarios: u64,
            matches: u64,
            mismatches: u64,
            mismatched_runs: u64,
            buckets: Vec<BucketCount>,
            first_mismatches: Vec<M>,
            timings: Vec<T>,
        }
        let total = self.total();
        let r = R {
            schema: SCHEMA,
            version: VERSION,
            ok: self.ok(),
            map: self.map.clone(),
            scen: self.scen.clone(),
            width: self.width,
            height: self.height,
            algorithms: self.algorithms.clone(),
            implementations: self.implementations.clone(),
            tolerance: Tolerance {
                absolute: ABSOLUTE_TOLERANCE,
                relative: RELATIVE_TOLERANCE,
            },
            scenarios: total.scenarios,
            matches: total.matches,
            mismatches: total.mismatches,
            mismatched_runs: self.mismatch_count,
            buckets: self.buckets.clone(),
            first_mismatches: self
                .mismatches
                .iter()
                .map(|m| M {
                    scenario: m.scenario,
                    line: m.line,
                    bucket: m.bucket,
                    algorithm: m.algorithm.clone(),
                    implementation: m.implementation.clone(),
                    kind: m.kind,
                    what: m.what.clone(),
                    expected: cost(m.expected),
                    found: m.found.map(cost),
                })
                .collect(),
            timings: self
                .timings
                .iter()
                .map(|t| T {
                    implementation: t.implementation.clone(),
                    algorithm: t.algorithm.clone(),
                    runs: t.runs,
                    seconds: t.seconds,
                    first_seconds: t.first_seconds,
                })
                .collect(),
        };
        serde_json::to_string(&r).expect("the report encodes")
    }
}
