//! The certify report ([CONF.REPORT.*]): sections with counts and explained failures, rendered
//! as a table for people or as one JSON object (schema `onepath.certify-report`, version 1).

use serde::Serialize;

/// How many failures a section keeps in full (the counts stay exact).
pub const KEPT_FAILURES: usize = 50;

/// One explained failure.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Failure {
    /// Vector id when the failure concerns a committed vector.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vector: Option<String>,
    /// Generated case name (kind and seed) when it concerns a generated case.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
    /// Implementation that failed.
    pub implementation: String,
    /// Variant (matrix column), when one applies.
    pub variant: Option<String>,
    /// Query index, when one applies.
    pub query: Option<usize>,
    /// What differs or is wrong.
    pub what: String,
    /// Expected value, rendered.
    pub expected: String,
    /// Found value, rendered.
    pub found: String,
    /// Expansion step index, when the difference is in the expansion list.
    pub step: Option<usize>,
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
        format!(
            "{}: {}: expected {}, found {}",
            parts.join(" / "),
            self.what,
            self.expected,
            self.found
        )
    }
}

/// One named check section.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
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
    /// 1.
    pub version: u32,
    /// True when no check failed.
    pub ok: bool,
    /// Implementation names, the reference first.
    pub implementations: Vec<String>,
    /// Sections in run order.
    pub sections: Vec<Section>,
}

impl Report {
    /// Assembles a report.
    pub fn new(implementations: Vec<String>, sections: Vec<Section>) -> Self {
        let ok = sections.iter().all(|s| s.failed == 0);
        Report {
            schema: "onepath.certify-report",
            version: 1,
            ok,
            implementations,
            sections,
        }
    }

    /// The JSON form (one object, one line).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("report serializes")
    }

    /// The table for people, followed by the first failure of each failing section.
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        out.push_str(&format!(
            "implementations: {}\n",
            self.implementations.join(", ")
        ));
        out.push_str(&format!(
            "{:<14} {:>10} {:>10} {:>8}\n",
            "section", "checks", "passed", "failed"
        ));
        for s in &self.sections {
            out.push_str(&format!(
                "{:<14} {:>10} {:>10} {:>8}\n",
                s.name, s.checks, s.passed, s.failed
            ));
        }
        for s in &self.sections {
            if let Some(f) = s.failures.first() {
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
