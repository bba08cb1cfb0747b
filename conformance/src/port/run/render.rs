//! The reports of a port run ([DRIVER.REPORT.*]): the `port` member of the JSON report, the
//! terminal table (sections, unclaimed-family notes, family levels, verdict), JUnit XML and the
//! certificate.

use super::{failure_family, shard_subset, PortRun};
use crate::levels::Level;
use crate::port::protocol::SPEC_VERSION;
use crate::port::LedgerEntry;
use crate::report::Failure;
use crate::report_junit;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Failures of a section in families the port does not claim (kept failures only).
struct Unclaimed {
    /// Family to count.
    by_family: BTreeMap<&'static str, u64>,
    /// Sum of `by_family`.
    total: u64,
}

impl Unclaimed {
    fn families(&self) -> String {
        self.by_family
            .iter()
            .map(|(f, n)| format!("{f} ({n})"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn skipped_message(&self) -> String {
        let names: Vec<&str> = self.by_family.keys().copied().collect();
        if names.len() == 1 {
            format!("family {} not claimed", names[0])
        } else {
            format!("families {} not claimed", names.join(", "))
        }
    }
}

/// One ledger record as JSON (a family's `first_difference`).
pub fn entry_json(e: &LedgerEntry) -> Value {
    json!({
        "section": e.section, "label": e.label, "op": e.op, "variant": e.variant, "query": e.query,
        "level": e.brk.level.name(), "what": e.brk.what, "expected": e.brk.expected, "found": e.brk.found, "step": e.brk.step,
        "context": e.brk.context.as_ref().map(|(a, b)| json!({"expected": a, "found": b})),
        "clauses": e.clauses,
        "first_divergence": e.brk.first,
    })
}

impl PortRun {
    /// The `port` member of the JSON report ([DRIVER.REPORT.JSON]).
    pub fn port_json(&self) -> Value {
        json!({
            "command": self.options.command,
            "handshake": match &self.hello {
                Ok(h) => json!({"port": h.port, "port_version": h.port_version, "spec_version": h.spec_version, "claims": h.claims}),
                Err(e) => json!({"error": e.to_string()}),
            },
            "port_cases": self.options.cases,
            "timeout_seconds": self.options.timeout.as_secs_f64(),
            "limits": {
                "max_reply_mb": self.options.max_reply_mb,
                "max_consecutive_failures": self.options.max_consecutive_failures,
                "max_failures": self.options.max_failures,
                "deadline_seconds": self.options.deadline.map(|d| d.as_secs_f64()),
            },
            "driver_starts": self.starts,
            "not_run": self.report.sections.iter().find(|s| s.name == "not run").map_or(0, |s| s.failed),
            "families": self.families.iter().map(|f| json!({
                "family": f.family,
                "claimed": f.claimed.map(|l| l.name()),
                "reached": f.reached.name(),
                "reached_by_differences": f.by_differences.name(),
                "requests": f.requests,
                "answered": f.answered,
                "unimplemented": f.unimplemented,
                "first_difference": f.first_break.as_ref().map(entry_json),
            })).collect::<Vec<_>>(),
            "expectations": self.expect.as_ref().map(|e| e.known_failures.iter().enumerate().map(|(i, k)| json!({
                "section": k.section, "match": k.pattern, "reason": k.reason, "excused": self.excused.get(&i).copied().unwrap_or(0),
            })).collect::<Vec<_>>()),
            "ok": self.ok(),
            "problems": self.problems,
            "clauses_since": self.options.since,
            "failed_vectors": self.failed_vectors,
        })
    }

    /// The whole JSON report: the certify report with `ok` set to the verdict and a `port` member.
    pub fn to_json(&self) -> String {
        let mut v = serde_json::to_value(&self.report).expect("report");
        v["ok"] = Value::Bool(self.ok());
        v["port"] = self.port_json();
        v.to_string()
    }

    /// The family a failure belongs to, when the port does not claim it (the reference's own
    /// failures and the vectors folder's always count, [`super::always_counts`]).
    fn unclaimed_family(&self, section: &str, f: &Failure) -> Option<&'static str> {
        let claims = self.hello.as_ref().ok().map(|h| &h.claims)?;
        let label = f.vector.as_deref().or(f.case.as_deref()).unwrap_or("-");
        let fam = failure_family(section, label, &f.what);
        (!super::always_counts(f) && !claims.contains_key(fam)).then_some(fam)
    }

    fn unclaimed(&self, s: &crate::report::Section) -> Unclaimed {
        let mut by_family: BTreeMap<&'static str, u64> = BTreeMap::new();
        for f in &s.failures {
            if let Some(fam) = self.unclaimed_family(&s.name, f) {
                *by_family.entry(fam).or_default() += 1;
            }
        }
        let total = by_family.values().sum();
        Unclaimed { by_family, total }
    }

    /// The lines under the section rows: failures in families the port does not claim, which
    /// do not count ([DRIVER.REPORT.UNCLAIMED]). A section whose kept failures are all in
    /// unclaimed families adds to one summary line; a section with failures of both kinds gets
    /// a line of its own.
    pub fn unclaimed_notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        let mut whole: BTreeMap<&'static str, u64> = BTreeMap::new();
        let (mut whole_sections, mut whole_failed) = (0u64, 0u64);
        for s in &self.report.sections {
            let u = self.unclaimed(s);
            if u.total == 0 {
                continue;
            }
            // Whole: every kept failure is unclaimed and none past them counts (no problem of
            // the verdict names the section, [DRIVER.VERDICT]).
            let counted = self
                .problems
                .iter()
                .any(|p| p.starts_with(&super::section_problem_prefix(&s.name)));
            if u.total == s.failures.len() as u64 && !counted {
                whole_sections += 1;
                whole_failed += s.failed;
                for (f, n) in &u.by_family {
                    *whole.entry(f).or_default() += n;
                }
                continue;
            }
            let plural = if u.by_family.len() == 1 {
                "family"
            } else {
                "families"
            };
            let scope = if s.failed > s.failures.len() as u64 {
                format!("{} of the {} kept", u.total, s.failures.len())
            } else {
                u.total.to_string()
            };
            notes.push(format!(
                "{} {} failed: {scope} in unclaimed {plural} {} (not counted, [DRIVER.VERDICT])",
                s.name,
                s.failed,
                u.families()
            ));
        }
        if whole_sections > 0 {
            let claimed: Vec<&str> = self
                .families
                .iter()
                .filter(|f| f.claimed.is_some())
                .map(|f| f.family.as_str())
                .collect();
            let hint = if claimed.is_empty() {
                String::new()
            } else {
                format!("; `certify --family {}` runs only those", claimed.join(","))
            };
            let kept: Vec<String> = whole
                .iter()
                .map(|(f, n)| format!("{f} ({n} kept)"))
                .collect();
            notes.insert(
                0,
                format!(
                    "unclaimed {} {}: {whole_failed} failures in {whole_sections} {}, not counted ([DRIVER.VERDICT]){hint}",
                    if kept.len() == 1 { "family" } else { "families" },
                    kept.join(", "),
                    if whole_sections == 1 { "section" } else { "sections" }
                ),
            );
        }
        notes
    }

    /// The failure a section's `first failure` block shows: its first kept failure that is
    /// not in an unclaimed family, none when every kept one is ([DRIVER.REPORT.UNCLAIMED]).
    fn first_counted<'a>(&self, s: &'a crate::report::Section) -> Option<&'a Failure> {
        s.failures
            .iter()
            .find(|f| self.unclaimed_family(&s.name, f).is_none())
    }

    /// The terminal table: sections, then the family / level table and the verdict.
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        let mut sections = self
            .report
            .to_table_with(&self.unclaimed_notes(), &|s| self.first_counted(s));
        if let Some(i) = sections.rfind("\nresult:") {
            sections.truncate(i + 1);
        }
        out.push_str(&sections);
        match &self.hello {
            Ok(h) => out.push_str(&format!(
                "\nport {} {} (spec {}), driver `{}`, {} process start(s), {} generated cases\n",
                h.port,
                h.port_version,
                h.spec_version,
                self.options.command,
                self.starts,
                self.options.cases
            )),
            Err(e) => out.push_str(&format!(
                "\nport driver `{}` failed its handshake: {e}\n",
                self.options.command
            )),
        }
        let w = self
            .families
            .iter()
            .map(|f| f.family.len())
            .chain(["family".len()])
            .max()
            .unwrap_or(0);
        out.push_str(&format!(
            "{:<w$} {:>8} {:>9} {:>9} {:>10} {:>9} {:>8}\n",
            "family", "claimed", "L1 costs", "L2 paths", "L3 traces", "L4 bytes", "reached"
        ));
        for f in &self.families {
            let cell = |l: Level| {
                if f.reached >= l {
                    "pass"
                } else if f.reached.number() + 1 == l.number() {
                    "FAIL"
                } else {
                    "-"
                }
            };
            out.push_str(&format!(
                "{:<w$} {:>8} {:>9} {:>9} {:>10} {:>9} {:>8}\n",
                f.family,
                f.claimed.map_or("-", |l| l.name()),
                cell(Level::L1),
                cell(Level::L2),
                cell(Level::L3),
                cell(Level::L4),
                f.reached.name()
            ));
        }
        for f in &self.families {
            if let Some(text) = f.first_difference_text() {
                out.push('\n');
                out.push_str(&text);
            }
            // An unclaimed family's unimplemented ops are expected: the summary line covers them.
            if !f.unimplemented.is_empty() && f.claimed.is_some() {
                let list: Vec<String> = f
                    .unimplemented
                    .iter()
                    .map(|(op, n)| format!("{op} ({n})"))
                    .collect();
                out.push_str(&format!(
                    "{}: unimplemented ops (never a pass): {}\n",
                    f.family,
                    list.join(", ")
                ));
            }
        }
        if let Some(e) = &self.expect {
            for (i, k) in e.known_failures.iter().enumerate() {
                out.push_str(&format!(
                    "expected failure {} / {} ({}): {} excused\n",
                    k.section,
                    k.pattern,
                    k.reason,
                    self.excused.get(&i).copied().unwrap_or(0)
                ));
            }
        }
        if let Some(d) = &self.options.since {
            out.push('\n');
            out.push_str(&d.to_text());
        }
        if self.ok() {
            out.push_str("\nverdict: PASS\n");
        } else {
            out.push_str("\nverdict: FAIL\n");
            for p in &self.problems {
                out.push_str(&format!("  - {p}\n"));
            }
        }
        out
    }

    /// JUnit XML ([DRIVER.REPORT.JUNIT]).
    pub fn to_junit(&self) -> String {
        use report_junit::{Case, Suite};
        let mut suites = Vec::new();
        // Every committed vector of this run's shard, family by family ([CONF.FAMILY.VECTORS]):
        // its failures in the vectors, state and consumed sections; a vector of a family the
        // port does not claim is skipped with the reason.
        let claims = self.hello.as_ref().ok().map(|h| &h.claims);
        let refs: Vec<crate::family::VectorRef> = match self.options.vectors_dir.as_deref() {
            Some(dir) => crate::family::REGISTRY
                .iter()
                .flat_map(|f| {
                    let refs = f.vectors(dir);
                    shard_subset(&refs, self.options.shard)
                        .cloned()
                        .collect::<Vec<_>>()
                })
                .collect(),
            None => Vec::new(),
        };
        let mut vec_suite = Suite {
            name: "vectors".into(),
            cases: Vec::new(),
        };
        let vector_failures = |owns: &dyn Fn(&str) -> bool| -> Vec<&Failure> {
            self.report
                .sections
                .iter()
                .flat_map(|s| s.failures.iter())
                .filter(|f| f.vector.as_deref().is_some_and(owns))
                .collect()
        };
        let lines = |fails: &[&Failure]| {
            (
                fails[0].line(),
                fails
                    .iter()
                    .map(|f| f.line())
                    .collect::<Vec<_>>()
                    .join("\n"),
            )
        };
        for v in &refs {
            let fails = vector_failures(&|id| v.owns(id));
            let excused = self
                .expect
                .as_ref()
                .and_then(|e| e.find("vectors", &v.id))
                .is_some();
            let unclaimed = claims.is_some_and(|c| !c.contains_key(v.claim.name()));
            // A failure no section kept (past its 50) still fails the vector: the ledger's line.
            let ledger_line = self.failed_vectors.get(&v.id);
            let (failure, skipped) = if unclaimed {
                (None, Some(format!("family {} not claimed", v.claim.name())))
            } else if fails.is_empty() && ledger_line.is_none() {
                (None, None)
            } else if excused {
                (None, Some("known failure (expectations file)".to_string()))
            } else if fails.is_empty() {
                let line = ledger_line.cloned().unwrap_or_default();
                (Some((line.clone(), line)), None)
            } else {
                (Some(lines(&fails)), None)
            };
            vec_suite.cases.push(Case {
                name: v.id.clone(),
                failure,
                skipped,
            });
        }
        // Failures of other files (the manifest, a matrix, an unreadable vector).
        let mut others: BTreeMap<String, Vec<&Failure>> = BTreeMap::new();
        for sec in &self.report.sections {
            if sec.name != "vectors" {
                continue;
            }
            for f in &sec.failures {
                match f.vector.as_deref() {
                    Some(id) if id != "-" && !refs.iter().any(|v| v.owns(id)) => {
                        others.entry(id.to_string()).or_default().push(f)
                    }
                    _ => {}
                }
            }
        }
        for (id, fails) in others {
            vec_suite.cases.push(Case {
                name: id,
                failure: Some(lines(&fails)),
                skipped: None,
            });
        }
        suites.push(vec_suite);
        let mut sec_suite = Suite {
            name: "sections".into(),
            cases: Vec::new(),
        };
        for s in &self.report.sections {
            let problem = self
                .problems
                .iter()
                .find(|p| p.starts_with(&format!("section {}:", s.name)));
            let failure = problem.map(|p| {
                (
                    p.clone(),
                    s.failures
                        .iter()
                        .take(10)
                        .map(|f| f.line())
                        .collect::<Vec<_>>()
                        .join("\n"),
                )
            });
            let u = self.unclaimed(s);
            let skipped = if failure.is_some() {
                None
            } else if u.total > 0 {
                Some(format!(
                    "{} ({} failures in {}, not counted)",
                    u.skipped_message(),
                    u.total,
                    u.families()
                ))
            } else if s.name == "unimplemented" && s.failed > 0 {
                Some(format!("{} requests unimplemented", s.failed))
            } else {
                None
            };
            sec_suite.cases.push(Case {
                name: format!("{} ({} checks)", s.name, s.checks),
                failure,
                skipped,
            });
        }
        suites.push(sec_suite);
        let mut lvl = Suite {
            name: "levels".into(),
            cases: Vec::new(),
        };
        for f in &self.families {
            let failure = match f.claimed {
                Some(c) if f.reached < c => Some((
                    format!(
                        "{}: claimed {}, reached {}",
                        f.family,
                        c.name(),
                        f.reached.name()
                    ),
                    f.first_difference_text().unwrap_or_default(),
                )),
                _ => None,
            };
            let unclaimed = self.hello.is_ok() && f.claimed.is_none();
            lvl.cases.push(Case {
                name: format!("{} reaches {}", f.family, f.reached.name()),
                failure,
                skipped: unclaimed.then(|| format!("family {} not claimed", f.family)),
            });
        }
        suites.push(lvl);
        if let Some(e) = &self.expect {
            let mut ex = Suite {
                name: "expectations".into(),
                cases: Vec::new(),
            };
            for (i, k) in e.known_failures.iter().enumerate() {
                let stale = !self.excused.contains_key(&i);
                ex.cases.push(Case {
                    name: format!("{} / {}", k.section, k.pattern),
                    failure: stale.then(|| {
                        (
                            "expectation matches no failure".to_string(),
                            k.reason.clone(),
                        )
                    }),
                    skipped: None,
                });
            }
            suites.push(ex);
        }
        report_junit::render("onepath-conformance port certification", &suites)
    }

    /// The certificate of a passing port ([DRIVER.CERT]); `date` is `YYYY-MM-DD`.
    pub fn certificate(&self, date: &str) -> Option<String> {
        let h = self.hello.as_ref().ok()?;
        if !self.ok() {
            return None;
        }
        let levels: BTreeMap<&str, &str> = self
            .families
            .iter()
            .filter(|f| f.claimed.is_some())
            .map(|f| (f.family.as_str(), f.reached.name()))
            .collect();
        let v = json!({
            "schema": "onepath.port-certificate",
            "version": 1,
            "spec_version": SPEC_VERSION,
            "vectors_manifest_sha256": self.manifest_sha256,
            "port": h.port,
            "port_version": h.port_version,
            "levels": levels,
            "known_failures": self.expect.as_ref().map(|e| e.known_failures.iter().map(|k| json!({"section": k.section, "match": k.pattern, "reason": k.reason})).collect::<Vec<_>>()).unwrap_or_default(),
            "seed": self.options.seed,
            "port_cases": self.options.cases,
            "kit": format!("onepath-conformance {}", env!("CARGO_PKG_VERSION")),
            "date": date,
        });
        Some(serde_json::to_string_pretty(&v).expect("certificate") + "\n")
    }
}
