//! The walks over [`REGISTRY`](super::REGISTRY): certify's sections, the `vectors` section,
//! `vectors` and `vectors --check`, the committed vector list and the claim family of a label.

use super::{Host, KitFamily, NoHost, Run, VectorRef, REGISTRY};
use crate::claims::Family;
use crate::config::{Config, FamilySet, Shard};
use crate::implementation::Implementation;
use crate::json_text::to_text;
use crate::outcome::sha256_hex;
use crate::report::{Failure, Report, Section};
use crate::vector_files::{list_files, Manifest, ManifestEntry, MANIFEST_PATH};
use indicatif::ProgressBar;
use std::collections::BTreeMap;
use std::path::Path;

/// Runs every section for `reference` and `candidates` and assembles the report.
pub fn certify(
    reference: &dyn Implementation,
    candidates: &[&dyn Implementation],
    config: &Config,
    progress: Option<&ProgressBar>,
) -> Report {
    let mut all: Vec<&dyn Implementation> = vec![reference];
    all.extend_from_slice(candidates);
    let run = Run {
        reference,
        candidates,
        all: &all,
        config,
        progress,
        host: &NoHost,
    };
    Report::new(
        all.iter().map(|i| i.name().to_string()).collect(),
        certify_sections(&run),
        crate::report::RunInfo::of(config),
    )
}

/// Every family's sections in registry order, then the `vectors` section when the run has a
/// vectors folder ([CONF.FAMILY.REGISTRY]).
pub fn certify_sections(run: &Run<'_>) -> Vec<Section> {
    let mut sections = Vec::new();
    for family in selected(run.config.families) {
        sections.extend(family.sections(run));
    }
    if let Some(dir) = &run.config.vectors_dir {
        run.host.enter("vectors");
        sections.push(vectors_section_parallel(
            dir,
            run.all,
            run.config.shard,
            run.config.families,
            run.config.threads,
        ));
        // [CONF.REPORT.CLAUSES] A failure on a vector names the clauses the vector pins.
        crate::vector_clauses::VectorClauses::read(dir).annotate(&mut sections);
    }
    sections
}

/// The registry families that serve at least one family of `families` ([CONF.CLI.FAMILY]), in
/// registry order.
pub fn selected(families: FamilySet) -> impl Iterator<Item = &'static dyn KitFamily> {
    REGISTRY
        .into_iter()
        .filter(move |f| f.claims().iter().any(|&c| families.contains(c)))
}

/// Names every selected family's cases in `host`.
pub fn name_cases(host: &dyn Host, config: &Config) {
    for family in selected(config.families) {
        family.name_cases(host, config, config.vectors_dir.as_deref());
    }
}

/// The `vectors` section of certify (every vector).
pub fn vectors_section(dir: &Path, all: &[&dyn Implementation]) -> Section {
    vectors_section_shard(dir, all, Shard::ALL)
}

/// The `vectors` section for one shard ([CONF.CLI.SHARD]): the manifest, then each family's
/// vectors; a family's vectors are in `shard` by their ordinal in its own list, and the
/// folder-level checks count in shard 1 only.
pub fn vectors_section_shard(dir: &Path, all: &[&dyn Implementation], shard: Shard) -> Section {
    vectors_section_select(dir, all, shard, FamilySet::ALL)
}

/// The `vectors` section for one shard and the vectors of the selected claim families
/// ([CONF.CLI.FAMILY]); the manifest is checked whatever the selection.
pub fn vectors_section_select(
    dir: &Path,
    all: &[&dyn Implementation],
    shard: Shard,
    families: FamilySet,
) -> Section {
    vectors_section_parallel(dir, all, shard, families, 1)
}

/// [`vectors_section_select`] with the families' vectors checked on `threads` workers (a port
/// run's `--threads` driver processes). The section does not depend on the thread count: each
/// family records into sections of its own, merged in registry order as one worker would record
/// them ([`crate::checks::parallel`]). Workers take the families from the end of the registry,
/// whose vectors (the sync-test sessions of `world`) are the longest, so that a long family does
/// not start last and leave the other workers idle.
pub fn vectors_section_parallel(
    dir: &Path,
    all: &[&dyn Implementation],
    shard: Shard,
    families: FamilySet,
    threads: usize,
) -> Section {
    let mut s = Section::new("vectors");
    let mut once = Section::new("vectors");
    for problem in check_manifest(dir) {
        once.fail(Failure {
            vector: Some(MANIFEST_PATH.to_string()),
            implementation: "-".into(),
            what: "manifest".into(),
            expected: "recorded SHA-256".into(),
            found: problem,
            ..Default::default()
        });
    }
    let chosen: Vec<&'static dyn KitFamily> = selected(families).collect();
    // Slots 2k and 2k + 1 hold family k's folder-level failures and its vectors' checks; each
    // unit fills the two slots of its family only.
    let names = vec!["vectors"; 2 * chosen.len()];
    let slots = crate::checks::parallel(chosen.len(), threads, &names, |j, sections| {
        let k = chosen.len() - 1 - j;
        let (before, rest) = sections.split_at_mut(2 * k + 1);
        chosen[k].check_vectors(dir, all, shard, families, &mut before[2 * k], &mut rest[0]);
    });
    let mut slots = slots.into_iter();
    let mut per_family = Vec::new();
    while let (Some(family_once), Some(part)) = (slots.next(), slots.next()) {
        once.merge(family_once);
        per_family.push(part);
    }
    // The folder-level failures first (a report keeps the first failures in full).
    if shard.is_first() {
        s.merge(once);
    }
    for part in per_family {
        s.merge(part);
    }
    s
}

/// The committed vectors of every family under `dir`, in registry order.
pub fn vector_refs(dir: &Path) -> Vec<VectorRef> {
    REGISTRY.iter().flat_map(|f| f.vectors(dir)).collect()
}

/// The claim family a failure label belongs to: the first family that owns it, else `graph`
/// (generated graph cases, error scripts, link sets).
pub fn claim_of(label: &str, what: &str) -> Family {
    REGISTRY
        .iter()
        .find_map(|f| f.claim_of(label, what))
        .unwrap_or(Family::Graph)
}

/// Generates every file of `vectors/` from `imp` (every family's, then the manifest): relative
/// path to bytes.
pub fn generate_files(imp: &dyn Implementation) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for family in REGISTRY {
        let more = family.generate(imp, &files);
        files.extend(more);
    }
    // [CONF.CLAUSES.INDEX] The clause index of the spec these vectors were generated with, when
    // the kit runs from its checkout (a kit binary without its spec/ writes none).
    let spec_root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if spec_root.join("spec").is_dir() {
        if let Ok(index) = crate::clauses::index::ClauseIndex::of_checkout(&spec_root) {
            files.insert(
                crate::clauses::index::INDEX_PATH.to_string(),
                index.to_text().into_bytes(),
            );
        }
    }
    let manifest = Manifest {
        schema: "onepath.vectors-manifest".into(),
        version: 1,
        comment: "SHA-256 of every file under vectors/ except this one, sorted by path (spec/conformance.md CONF.MANIFEST.FILE).".into(),
        files: files
            .iter()
            .map(|(p, b)| ManifestEntry {
                path: p.clone(),
                sha256: sha256_hex(b),
            })
            .collect(),
    };
    files.insert(MANIFEST_PATH.to_string(), to_text(&manifest).into_bytes());
    files
}

/// Checks the manifest's recorded hashes against the files in `dir`; returns one line per problem.
pub fn check_manifest(dir: &Path) -> Vec<String> {
    let text = match crate::input::read_text_in_folder(dir, MANIFEST_PATH) {
        Ok(t) => t,
        Err(e) => return vec![format!("{MANIFEST_PATH}: cannot read: {}", e.what())],
    };
    if let Err(e) = crate::json_text::check_unique_members(&text) {
        return vec![format!("{MANIFEST_PATH}: invalid: {e}")];
    }
    let manifest: Manifest = match serde_json::from_str(&text) {
        Ok(m) => m,
        Err(e) => return vec![format!("{MANIFEST_PATH}: invalid: {e}")],
    };
    let mut problems = Vec::new();
    let listed: Vec<&str> = manifest.files.iter().map(|e| e.path.as_str()).collect();
    for entry in &manifest.files {
        // [CONF.MANIFEST.PATHS] A listed path stays inside the folder.
        if let Err(e) = crate::input::check_rel(&entry.path) {
            problems.push(format!("{MANIFEST_PATH}: {e}"));
            continue;
        }
        match crate::input::read_in_folder(dir, &entry.path) {
            Ok(bytes) if sha256_hex(&bytes) == entry.sha256 => {}
            Ok(bytes) => problems.push(format!(
                "{}: SHA-256 {} differs from the manifest's {}",
                entry.path,
                sha256_hex(&bytes),
                entry.sha256
            )),
            Err(_) if std::fs::symlink_metadata(dir.join(&entry.path)).is_err() => problems.push(
                format!("{}: listed in the manifest but missing", entry.path),
            ),
            Err(e) => problems.push(e.to_string()),
        }
    }
    for f in list_files(dir).unwrap_or_default() {
        if f != MANIFEST_PATH && !listed.contains(&f.as_str()) {
            problems.push(format!("{f}: not listed in the manifest"));
        }
    }
    problems
}

/// `vectors --check`: one line per stale, missing, unexpected or mis-hashed file.
pub fn check_dir(dir: &Path, imp: &dyn Implementation) -> Vec<String> {
    let expected = generate_files(imp);
    let mut problems = check_manifest(dir);
    let present = list_files(dir).unwrap_or_default();
    for (rel, bytes) in &expected {
        match crate::input::read_in_folder(dir, rel) {
            Ok(b) if &b == bytes => {}
            Ok(_) => problems.push(format!(
                "{rel}: stale (differs from what `vectors` would generate)"
            )),
            Err(_) if std::fs::symlink_metadata(dir.join(rel)).is_err() => {
                problems.push(format!("{rel}: missing"))
            }
            Err(e) => problems.push(e.to_string()),
        }
    }
    for f in present {
        if !expected.contains_key(&f) {
            problems.push(format!("{f}: unexpected (not generated by any recipe)"));
        }
    }
    problems
}

/// The family names of the registry, in order (for reports and tests).
pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|f| KitFamily::name(*f)).collect()
}
