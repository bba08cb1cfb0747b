//! Golden vectors ([CONF.VEC.*], [CONF.MATRIX.*], [CONF.MANIFEST.*]): generating `vectors/` from
//! an implementation (the reference), checking a committed copy for staleness, and the `vectors`
//! section of certify, which re-runs every committed scenario on every implementation.
//! [CONF.MATRIX.EXTRA] The matrix's `links` and `oplm` columns are the scenario hashes.

use crate::error::HarnessError;
use crate::implementation::{Implementation, LinkRequest, RunOptions};
use crate::json_text::to_text;
use crate::outcome::{cell_hash, first_difference, sha256_hex, Outcome};
use crate::recipes::RECIPES;
use crate::report::{Failure, Section};
use crate::scenario::{Case, DecodedOutcome, GraphSpec, Scenario, Variant};
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
        Err(e) => sha256_hex(&Outcome::Error(e.text()).encode()),
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
        Err(e) => {
            if let Some(m) = e.no_answer() {
                unanswered.insert("oplm".into(), m.to_string());
            }
            sha256_hex(&Outcome::Error(e.text()).encode())
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

/// Generates the graph family's files of `vectors/` from `imp` (its scenarios and their hash
/// matrix): relative path to bytes.
pub fn generate_graph_files(imp: &dyn Implementation) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut rows = Vec::new();
    for recipe in RECIPES {
        let g = recipe.build();
        let (outcomes, row) = run_row(imp, recipe.id, &g.case, &g.queries);
        let scenario = Scenario {
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
            to_text(&scenario.envelope()).into_bytes(),
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
    files
}

/// The committed graph scenarios under `dir`, sorted by path.
pub fn read_scenarios(dir: &Path) -> Result<Vec<Scenario>, HarnessError> {
    let files = crate::envelope::read_family(
        dir,
        "graphs",
        "GRAPH-",
        crate::scenario::SCENARIO_FAMILY,
        Scenario::from_envelope,
    )?;
    Ok(files.into_iter().map(|(_, s)| s).collect())
}

/// The graph part of the `vectors` section ([CONF.VEC.CHECK]): every committed scenario of
/// `shard` (ordinal: position in the sorted scenario list) on every implementation, into `s`;
/// the folder-level checks (readable scenario files, the matrix file) into `once`.
pub fn check_graph_vectors(
    dir: &Path,
    all: &[&dyn Implementation],
    shard: crate::config::Shard,
    once: &mut Section,
    s: &mut Section,
) {
    let fail = |vector: &str, imp: &str, what: String, expected: String, found: String| Failure {
        vector: Some(vector.to_string()),
        implementation: imp.to_string(),
        what,
        expected,
        found,
        ..Default::default()
    };
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
            return;
        }
    };
    let matrix: Option<Matrix> = crate::input::read_text_in_folder(dir, MATRIX_PATH)
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
                        crate::words::opt(recorded.as_deref(), "null (not applicable)"),
                        crate::words::opt(found.as_deref(), "null (not applicable)"),
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
                                crate::words::opt(e.as_deref(), "null (not applicable)"),
                                crate::words::opt(f.as_deref(), "null (not applicable)"),
                            )
                        }));
                    }
                }
            }
        }
    }
}
