//! The certify report ([CONF.REPORT.*]): sections with counts and explained failures, rendered
//! as a table for people or as one JSON object (schema `onepath.certify-report`, version 4),
//! with the run parameters a merge of shards needs ([CONF.REPORT.RUN]).

use crate::config::{Config, Shard};
use serde::{Deserialize, Deserializer, Serialize};

/// The schema name of the JSON report.
pub const REPORT_SCHEMA: &str = "onepath.certify-report";
/// The version of the JSON report's shape (2: `kit`, `run`, `port` always present, every
/// failure member always present; 3: `run.families` and each failure's `clauses`; 4: the port
/// member's `clauses_since` and `failed_vectors` and each first difference's
/// `first_divergence`).
pub const REPORT_VERSION: u32 = 4;

/// The kit's name and version, as reports and certificates carry it.
pub fn kit() -> String {
    format!("onepath-conformance {}", env!("CARGO_PKG_VERSION"))
}

/// Deserializes an `Option` member that must be present (`null` for none): a missing member is
/// an error, never a default.
pub fn required<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d)
}

/// The section sizes of a run ([`Config`]'s counts).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sizes {
    /// Generated graphs of `oracle` and `differential`.
    pub oracle_graphs: usize,
    /// Graphs of `landmarks`.
    pub landmark_graphs: usize,
    /// Graphs of `sliced`.
    pub sliced_graphs: usize,
    /// Point sets of `links`.
    pub link_sets: usize,
    /// Graphs of `hooks`.
    pub hook_graphs: usize,
    /// Graphs of `cancel`.
    pub cancel_graphs: usize,
    /// Maps of `grid-search`.
    pub grid_cases: usize,
    /// Edit scripts of `replanning`.
    pub replan_cases: usize,
    /// Edit scripts of `flow-field`.
    pub flow_cases: usize,
    /// Side of the `movingai` maps.
    pub movingai_side: usize,
    /// Length buckets of `movingai`.
    pub movingai_buckets: u32,
}

/// What identifies a run, so that shards of one run can be told from shards of another
/// ([CONF.REPORT.RUN]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunInfo {
    /// Base seed.
    pub seed: u64,
    /// Which shard this report is (`1/1` unsharded or merged).
    pub shard: Shard,
    /// Section sizes.
    pub sizes: Sizes,
    /// The vectors folder verified, or `null`.
    #[serde(deserialize_with = "required")]
    pub vectors_dir: Option<String>,
    /// SHA-256 of its `MANIFEST.json`, or `null` (no folder, or no manifest).
    #[serde(deserialize_with = "required")]
    pub vectors_manifest_sha256: Option<String>,
    /// The claim families the run covers ([CONF.CLI.FAMILY]; all nine without `--family`).
    pub families: Vec<String>,
}

impl RunInfo {
    /// The run parameters of `config`.
    pub fn of(config: &Config) -> RunInfo {
        RunInfo {
            seed: config.seed,
            shard: config.shard,
            sizes: Sizes {
                oracle_graphs: config.oracle_graphs,
                landmark_graphs: config.landmark_graphs,
                sliced_graphs: config.sliced_graphs,
                link_sets: config.link_sets,
                hook_graphs: config.hook_graphs,
                cancel_graphs: config.cancel_graphs,
                grid_cases: config.grid_cases,
                replan_cases: config.replan_cases,
                flow_cases: config.flow_cases,
                movingai_side: config.movingai_side,
                movingai_buckets: config.movingai_buckets,
            },
            vectors_dir: config.vectors_dir.as_ref().map(|d| d.display().to_string()),
            vectors_manifest_sha256: config
                .vectors_dir
                .as_ref()
                .and_then(|d| {
                    crate::input::read_in_folder(d, crate::vector_files::MANIFEST_PATH).ok()
                })
                .map(|b| crate::outcome::sha256_hex(&b)),
            families: config.families.names(),
        }
    }
}

/// How many failures a section keeps in full (the counts stay exact).
pub const KEPT_FAILURES: usize = 50;

/// One explained failure.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Failure {
    /// Vector id when the failure concerns a committed vector.
    #[serde(deserialize_with = "required")]
    pub vector: Option<String>,
    /// Generated case name (kind and seed) when it concerns a generated case.
    #[serde(deserialize_with = "required")]
    pub case: Option<String>,
    /// Implementation that failed.
    pub implementation: String,
    /// Variant (matrix column), when one applies.
    #[serde(deserialize_with = "required")]
    pub variant: Option<String>,
    /// Query index, when one applies.
    #[serde(deserialize_with = "required")]
    pub query: Option<usize>,
    /// What differs or is wrong.
    pub what: String,
    /// Expected value, rendered.
    pub expected: String,
    /// Found value, rendered.
    pub found: String,
    /// Expansion step index, when the difference is in the expansion list.
    #[serde(deserialize_with = "required")]
    pub step: Option<usize>,
    /// The clauses the failing vector pins ([CONF.REPORT.CLAUSES]); empty for a generated case.
    pub clauses: Vec<String>,
}

impl Failure {
    /// The one-line explanation: `GRAPH-0007 / bidi_alt / query 2: expansion step 41: expected node 17, found node 12`.
    pub fn line(&self) -> String {
        let mut parts = Vec::new();
        if let Some(v) = &self.vector {
            parts.push(v.clone());
        }
        if let Some(c) = &self.case {
            parts.push(c.clone());
        }
        parts.push(self.implementation.clone());
        if let Some(v) = &self.variant {
            parts.push(v.clone());
        }
        if let Some(q) = self.query {
            parts.push(format!("query {q}"));
        }
        let pins = if self.clauses.is_empty() {
            String::new()
        } else {
            format!(" (the vector pins [{}])", self.clauses.join("] ["))
        };
        format!(
            "{}: {}: expected {}, found {}{pins}",
            parts.join(" / "),
            self.what,
            self.expected,
            self.found
        )
    }
}

/// One named check section.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Section {
    /// Section name (`oracle`, `differential`, `landmarks`, `sliced`, `links`, `hooks`, `cancel`, `errors`, `vectors`).
    pub name: String,
    /// Checks run.
    pub checks: u64,
    /// Checks passed.
    pub passed: u64,
    /// Checks failed.
    pub failed: u64,
    /// The first [`KEPT_FAILURES`] failures.
    pub failures: Vec<Failure>,
}

impl Section {
    /// An empty section.
    pub fn new(name: &str) -> Self {
        Section {
            name: name.to_string(),
            ..Default::default()
        }
    }

    /// Counts a passed check.
    pub fn pass(&mut self) {
        self.checks += 1;
        self.passed += 1;
    }

    /// Counts a failed check and keeps its explanation.
    pub fn fail(&mut self, failure: Failure) {
        self.checks += 1;
        self.failed += 1;
        if self.failures.len() < KEPT_FAILURES {
            self.failures.push(failure);
        }
    }

    /// Counts a check: passes when `problem` is `None`.
    pub fn record(&mut self, problem: Option<Failure>) {
        match problem {
            None => self.pass(),
            Some(f) => self.fail(f),
        }
    }

    /// Adds another section's counts and failures into this one.
    pub fn merge(&mut self, other: Section) {
        self.checks += other.checks;
        self.passed += other.passed;
        self.failed += other.failed;
        for f in other.failures {
            if self.failures.len() < KEPT_FAILURES {
                self.failures.push(f);
            }
        }
    }
}

/// The whole report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// `onepath.certify-report`.
    pub schema: &'static str,
    /// [`REPORT_VERSION`].
    pub version: u32,
    /// True when no check failed.
    pub ok: bool,
    /// The kit that ran ([`kit`]).
    pub kit: String,
    /// The run parameters.
    pub run: RunInfo,
    /// Implementation names, the reference first.
    pub implementations: Vec<String>,
    /// Sections in run order.
    pub sections: Vec<Section>,
    /// The port member of a port run ([DRIVER.REPORT.JSON]); `null` otherwise.
    pub port: Option<serde_json::Value>,
}

impl Report {
    /// Assembles a report.
    pub fn new(implementations: Vec<String>, sections: Vec<Section>, run: RunInfo) -> Self {
        let ok = sections.iter().all(|s| s.failed == 0);
        Report {
            schema: REPORT_SCHEMA,
            version: REPORT_VERSION,
            ok,
            kit: kit(),
            run,
            implementations,
            sections,
            port: None,
        }
    }

    /// JUnit XML of an in-process run: one test case per section.
    pub fn to_junit(&self) -> String {
        use crate::report_junit::{render, Case, Suite};
        let cases = self
            .sections
            .iter()
            .map(|s| Case {
                name: format!("{} ({} checks)", s.name, s.checks),
                failure: (s.failed > 0).then(|| {
                    (
                        format!("{}: {} of {} checks failed", s.name, s.failed, s.checks),
                        s.failures
                            .iter()
                            .take(10)
                            .map(Failure::line)
                            .collect::<Vec<_>>()
                            .join("\n"),
                    )
                }),
                skipped: None,
            })
            .collect();
        render(
            "onepath-conformance certify",
            &[Suite {
                name: "sections".into(),
                cases,
            }],
        )
    }

    /// [CONF.REPORT.JSON]
    /// The JSON form (one object, one line).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("report serializes")
    }

    /// The table for people, followed by the first failure of each failing section.
    pub fn to_table(&self) -> String {
        self.to_table_with_notes(&[])
    }

    /// As [`Report::to_table`], with `notes` (one line each) under the section rows.
    pub fn to_table_with_notes(&self, notes: &[String]) -> String {
        self.to_table_with(notes, &|s: &Section| s.failures.first())
    }

    /// As [`Report::to_table_with_notes`], with `first` choosing each section's failure to show
    /// (none: the section gets no `first failure` block; a port run leaves out the failures of
    /// families the port does not claim, [DRIVER.REPORT.UNCLAIMED]).
    pub fn to_table_with(
        &self,
        notes: &[String],
        first: &dyn Fn(&Section) -> Option<&Failure>,
    ) -> String {
        let mut out = String::new();
        out.push_str(&format!(
            "implementations: {}\n",
            self.implementations.join(", ")
        ));
        if self.run.shard.count > 1 {
            out.push_str(&format!(
                "shard {} (merge the shards' --json reports for the run's verdict)\n",
                self.run.shard
            ));
        }
        let w = self
            .sections
            .iter()
            .map(|s| s.name.len())
            .chain(["section".len()])
            .max()
            .unwrap_or(0)
            .max(14);
        out.push_str(&format!(
            "{:<w$} {:>10} {:>10} {:>8}\n",
            "section", "checks", "passed", "failed"
        ));
        for s in &self.sections {
            out.push_str(&format!(
                "{:<w$} {:>10} {:>10} {:>8}\n",
                s.name, s.checks, s.passed, s.failed
            ));
        }
        for n in notes {
            out.push_str(&format!("  {n}\n"));
        }
        for s in &self.sections {
            if let Some(f) = first(s) {
                out.push_str(&format!(
                    "\nfirst failure in {} ({} failed):\n  {}\n",
                    s.name,
                    s.failed,
                    f.line()
                ));
            }
        }
        out.push_str(if self.ok {
            "\nresult: PASS\n"
        } else {
            "\nresult: FAIL\n"
        });
        out
    }
}
