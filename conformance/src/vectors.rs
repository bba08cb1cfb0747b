//! Golden vectors ([CONF.VEC.*], [CONF.MATRIX.*], [CONF.MANIFEST.*]): generating `vectors/` from
//! an implementation (the reference), checking a committed copy for staleness, and the `vectors`
//! section of certify, which re-runs every committed scenario on every implementation.

use crate::error::{ErrorKind, HarnessError};
use crate::implementation::{Implementation, LinkRequest, RunOptions};
use crate::json_text::to_text;
use crate::outcome::{cell_hash, first_difference, sha256_hex, Outcome};
use crate::recipes::RECIPES;
use crate::report::{Failure, Section};
use crate::scenario::{Case, DecodedOutcome, GraphSpec, Scenario, Variant, SCENARIO_SCHEMA};
use std::collections::BTreeMap;
use std::path::Path;

pub use crate::vector_files::{
    list_files, write_files, Manifest, ManifestEntry, Matrix, MatrixRow, EXTRA_COLUMNS,
    MANIFEST_PATH, MATRIX_PATH,
};

/// The CSR edge list encoding of [CONF.ENC.LINKS].
pub fn encode_csr_edges(node_count: usize, edges: &[(u32, u32, f64)]) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + 16 * edges.len());
    out.extend_from_slice(&(node_count as u32).to_le_bytes());
    out.extend_from_slice(&(edges.len() as u32).to_le_bytes());
    for &(a, b, w) in edges {
        out.extend_from_slice(&a.to_le_bytes());
        out.extend_from_slice(&b.to_le_bytes());
        out.extend_from_slice(&w.to_bits().to_le_bytes());
    }
    out
}

/// The `links` cell of a case: SHA-256 of the CSR edge list of a point graph, else `None`.
pub fn links_cell(imp: &dyn Implementation, case: &Case) -> Option<String> {
    links_cell_explained(imp, case, &mut BTreeMap::new())
}

/// As [`links_cell`]; a build that got no answer is noted in `unanswered` under `links`.
fn links_cell_explained(
    imp: &dyn Implementation,
    case: &Case,
    unanswered: &mut BTreeMap<String, String>,
) -> Option<String> {
    match &case.graph {
        GraphSpec::Points {
            points,
            explicit,
            max_distance,
            nearest_count,
        } => {
            let req = LinkRequest {
                points: points.clone(),
                explicit: explicit.clone(),
                max_distance: *max_distance,
                nearest_count: *nearest_count,
                rule: None,
            };
            Some(match imp.build_links(&req) {
                Ok(r) => sha256_hex(&encode_csr_edges(points.len(), &r.edges)),
                Err(e) => {
                    if let Some((_, m)) = no_answer(&e.class) {
                        unanswered.insert("links".into(), m.to_string());
                    }
                    sha256_hex(&Outcome::Error(e.class).encode())
                }
            })
        }
        GraphSpec::Edges { .. } => None,
    }
}

/// The `oplm` cell: SHA-256 of the landmark table bytes, or of the error encoding.
pub fn oplm_cell(imp: &dyn Implementation, case: &Case) -> String {
    match imp.build_landmarks(case) {
        Ok(bytes) => sha256_hex(&bytes),
        Err(class) => sha256_hex(&Outcome::Error(class).encode()),
    }
}

/// All matrix column names.
pub fn columns() -> Vec<String> {
    Variant::ALL
        .iter()
        .map(|v| v.name().to_string())
        .chain(EXTRA_COLUMNS.iter().map(|c| c.to_string()))
        .collect()
}

/// Runs a case on `imp` and returns its outcomes per applicable variant plus its matrix row.
pub fn run_row(
    imp: &dyn Implementation,
    id: &str,
    case: &Case,
    queries: &[(u32, u32)],
) -> (BTreeMap<Variant, Vec<Outcome>>, MatrixRow) {
    let (outcomes, row, _) = run_row_explained(imp, id, case, queries);
    (outcomes, row)
}

/// The port failure (`port: crash (request 4, build_landmarks, ...): ...`) in a rendered value,
/// when the value is a request that got no answer ([DRIVER.PROC.FAILURES]): `(kind, message)`.
pub fn no_answer(text: &str) -> Option<(&str, &str)> {
    let at = text.find("port: ")?;
    let message = &text[at..];
    let kind = message["port: ".len()..].split(" (").next()?;
    [
        "crash",
        "timeout",
        "malformed reply",
        "driver error",
        "unimplemented",
    ]
    .contains(&kind)
    .then_some((kind, message))
}

/// As [`run_row`], with the columns whose hash stands for a request that got no answer: column
/// name to the port failure message, so a report names the crash instead of a hash.
pub fn run_row_explained(
    imp: &dyn Implementation,
    id: &str,
    case: &Case,
    queries: &[(u32, u32)],
) -> (
    BTreeMap<Variant, Vec<Outcome>>,
    MatrixRow,
    BTreeMap<String, String>,
) {
    let variants: Vec<Variant> = Variant::ALL
        .iter()
        .copied()
        .filter(|v| v.applies_to(&case.graph))
        .collect();
    let results = imp.run_case(case, &variants, queries, RunOptions::MATRIX);
    let outcomes: BTreeMap<Variant, Vec<Outcome>> = variants.iter().copied().zip(results).collect();
    let mut cells = BTreeMap::new();
    let mut unanswered: BTreeMap<String, String> = BTreeMap::new();
    for v in Variant::ALL {
        let list = outcomes.get(&v);
        for o in list.into_iter().flatten() {
            if let Outcome::Error(e) = o {
                if let Some((_, m)) = no_answer(e) {
                    unanswered
                        .entry(v.name().to_string())
                        .or_insert_with(|| m.to_string());
                }
            }
        }
        cells.insert(v.name().to_string(), list.map(|o| cell_hash(o)));
    }
    cells.insert(
        "links".to_string(),
        links_cell_explained(imp, case, &mut unanswered),
    );
    let oplm = match imp.build_landmarks(case) {
        Ok(bytes) => sha256_hex(&bytes),
        Err(class) => {
            if let Some((_, m)) = no_answer(&class) {
                unanswered.insert("oplm".into(), m.to_string());
            }
            sha256_hex(&Outcome::Error(class).encode())
        }
    };
    cells.insert("oplm".to_string(), Some(oplm));
    (
        outcomes,
        MatrixRow {
            scenario: id.to_string(),
            cells,
        },
        unanswered,
    )
}

/// Generates every file of `vectors/` from `imp`: relative path to bytes.
pub fn generate_files(imp: &dyn Implementation) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut rows = Vec::new();
    for recipe in RECIPES {
        let g = recipe.build();
        let (outcomes, row) = run_row(imp, recipe.id, &g.case, &g.queries);
        let scenario = Scenario {
            schema: SCENARIO_SCHEMA.to_string(),
            version: 1,
            id: recipe.id.to_string(),
            comment: recipe.comment.to_string(),
            generator: g.provenance.clone(),
            graph: g.case.graph.clone(),
            landmarks: g.case.landmarks,
            queries: g.queries.clone(),
            csr_edges_sha256: row.cells["links"].clone(),
            oplm_sha256: row.cells["oplm"].clone(),
            outcomes: outcomes
                .iter()
                .map(|(v, o)| (*v, o.iter().map(DecodedOutcome::from_outcome).collect()))
                .collect(),
        };
        files.insert(
            format!("graphs/{}.json", recipe.id),
            to_text(&scenario).into_bytes(),
        );
        rows.push(row);
    }
    let matrix = Matrix {
        schema: "onepath.hash-matrix".into(),
        version: 1,
        comment: "One row per graph scenario; each cell is the SHA-256 of the concatenated canonical outcome encodings of the scenario's queries for that variant (spec/conformance.md CONF.MATRIX.CELL); links and oplm hash the CSR edge list and the landmark table; null = not applicable.".into(),
        columns: columns(),
        rows,
    };
    files.insert(MATRIX_PATH.to_string(), to_text(&matrix).into_bytes());
    // [CONF.STATE.VECTOR] golden state vectors and their hostile cases.
    files.extend(crate::state::files::generate_files(imp));
    // [CONF.GRID.VECTOR] grid-search vectors and their matrix.
    files.extend(crate::grid::vectors::generate_files(imp));
    let manifest = Manifest {
        schema: "onepath.vectors-manifest".into(),
        version: 1,
        comment: "SHA-256 of every file under vectors/ except this one, sorted by path (spec/conformance.md CONF.MANIFEST.FILE).".into(),
        files: files.iter().map(|(p, b)| ManifestEntry { path: p.clone(), sha256: sha256_hex(b) }).collect(),
    };
    files.insert(MANIFEST_PATH.to_string(), to_text(&manifest).into_bytes());
    files
}

/// Checks the manifest's recorded hashes against the files in `dir`; returns one line per problem.
pub fn check_manifest(dir: &Path) -> Vec<String> {
    let text = match std::fs::read_to_string(dir.join(MANIFEST_PATH)) {
        Ok(t) => t,
        Err(e) => return vec![format!("{MANIFEST_PATH}: cannot read: {e}")],
    };
    let manifest: Manifest = match serde_json::from_str(&text) {
        Ok(m) => m,
        Err(e) => return vec![format!("{MANIFEST_PATH}: invalid: {e}")],
    };
    let mut problems = Vec::new();
    let listed: Vec<&str> = manifest.files.iter().map(|e| e.path.as_str()).collect();
    for entry in &manifest.files {
        match std::fs::read(dir.join(&entry.path)) {
            Ok(bytes) if sha256_hex(&bytes) == entry.sha256 => {}
            Ok(bytes) => problems.push(format!(
                "{}: SHA-256 {} differs from the manifest's {}",
                entry.path,
                sha256_hex(&bytes),
                entry.sha256
            )),
            Err(_) => problems.push(format!(
                "{}: listed in the manifest but missing",
                entry.path
            )),
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
        match std::fs::read(dir.join(rel)) {
            Ok(b) if &b == bytes => {}
            Ok(_) => problems.push(format!(
                "{rel}: stale (differs from what `vectors` would generate)"
            )),
            Err(_) => problems.push(format!("{rel}: missing")),
        }
    }
    for f in present {
        if !expected.contains_key(&f) {
            problems.push(format!("{f}: unexpected (not generated by any recipe)"));
        }
    }
    problems
}

fn read_scenarios(dir: &Path) -> Result<Vec<Scenario>, HarnessError> {
    let mut out = Vec::new();
    let files = list_files(dir).map_err(|e| HarnessError::new(ErrorKind::Io, e.to_string()))?;
    for rel in files {
        if rel.starts_with("graphs/GRAPH-") && rel.ends_with(".json") {
            let text =
                std::fs::read_to_string(dir.join(&rel)).map_err(|e| HarnessError::io(&rel, &e))?;
            out.push(Scenario::parse(&text).map_err(|e| e.at_path(&rel))?);
        }
    }
    Ok(out)
}

/// The `vectors` section of certify (every vector).
pub fn certify_section(dir: &Path, all: &[&dyn Implementation]) -> Section {
    certify_section_shard(dir, all, crate::checks::Shard::ALL)
}

/// The `vectors` section for one shard ([CONF.CLI.SHARD]): the graph scenarios and the grid
/// vectors whose ordinal (position in the sorted file list of their kind) is in `shard`; the
/// folder-level checks (manifest, readable scenario files, matrix files) count in shard 1 only.
pub fn certify_section_shard(
    dir: &Path,
    all: &[&dyn Implementation],
    shard: crate::checks::Shard,
) -> Section {
    let mut s = Section::new("vectors");
    let mut once = Section::new("vectors");
    let fail = |vector: &str, imp: &str, what: String, expected: String, found: String| Failure {
        vector: Some(vector.to_string()),
        implementation: imp.to_string(),
        what,
        expected,
        found,
        ..Default::default()
    };
    for problem in check_manifest(dir) {
        once.fail(fail(
            MANIFEST_PATH,
            "-",
            "manifest".into(),
            "recorded SHA-256".into(),
            problem,
        ));
    }
    let scenarios = match read_scenarios(dir) {
        Ok(v) => v,
        Err(e) => {
            once.fail(fail(
                "-",
                "-",
                "scenario file".into(),
                "a valid scenario".into(),
                e.to_string(),
            ));
            if shard.is_first() {
                s.merge(once);
            }
            return s;
        }
    };
    let matrix: Option<Matrix> = std::fs::read_to_string(dir.join(MATRIX_PATH))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok());
    if matrix.is_none() {
        once.fail(fail(
            MATRIX_PATH,
            "-",
            "matrix".into(),
            "a valid matrix file".into(),
            "missing or invalid".into(),
        ));
    }
    crate::grid::vectors::certify(dir, all, shard, &mut once, &mut s);
    if shard.is_first() {
        s.merge(once);
    }
    for (ordinal, scenario) in scenarios.iter().enumerate() {
        if !shard.contains(ordinal) {
            continue;
        }
        let case = scenario.case();
        let committed_row = matrix
            .as_ref()
            .and_then(|m| m.rows.iter().find(|r| r.scenario == scenario.id));
        for imp in all {
            let (outcomes, row, unanswered) =
                run_row_explained(*imp, &scenario.id, &case, &scenario.queries);
            // A hash over a request that got no answer names the port failure, not the hash.
            let hash_failure =
                |column: &str, what: String, expected: String, found: String| match unanswered
                    .get(column)
                {
                    Some(m) => Failure {
                        variant: Some(column.to_string()),
                        ..fail(
                            &scenario.id,
                            imp.name(),
                            format!("{what} (no answer)"),
                            expected,
                            m.clone(),
                        )
                    },
                    None => Failure {
                        variant: Some(column.to_string()),
                        ..fail(&scenario.id, imp.name(), what, expected, found)
                    },
                };
            for (variant, expected) in &scenario.outcomes {
                for (qi, e) in expected.iter().enumerate() {
                    let e = e.to_outcome().expect("validated on load");
                    let found = &outcomes[variant][qi];
                    s.record(first_difference(&e, found).map(|d| Failure {
                        vector: Some(scenario.id.clone()),
                        implementation: imp.name().to_string(),
                        variant: Some(variant.name().to_string()),
                        query: Some(qi),
                        what: d.what,
                        expected: d.expected,
                        found: d.found,
                        step: d.step,
                        ..Default::default()
                    }));
                }
            }
            for (column, recorded) in [
                ("links", &scenario.csr_edges_sha256),
                ("oplm", &scenario.oplm_sha256),
            ] {
                let found = &row.cells[column];
                s.record((found != recorded).then(|| Failure {
                    variant: None,
                    ..hash_failure(
                        column,
                        format!("{column} hash in scenario file"),
                        format!("{recorded:?}"),
                        format!("{found:?}"),
                    )
                }));
            }
            match committed_row {
                None => s.fail(fail(
                    &scenario.id,
                    imp.name(),
                    "matrix row".into(),
                    "a row".into(),
                    "none".into(),
                )),
                Some(committed) => {
                    for column in columns() {
                        let (e, f) = (
                            committed.cells.get(&column).cloned().flatten(),
                            row.cells.get(&column).cloned().flatten(),
                        );
                        s.record((e != f).then(|| {
                            hash_failure(
                                &column,
                                "matrix cell".into(),
                                format!("{e:?}"),
                                format!("{f:?}"),
                            )
                        }));
                    }
                }
            }
        }
    }
    s
}
