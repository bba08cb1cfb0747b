//! Named checks ([CONF.CLAUSES.PINS]) of kit clauses that no vector can pin: the graph sections
//! (oracle, sliced, links, the hooks' oracle), the `movingai` section and the generated parts of
//! the `state` section (snapshots, random damage, the restore target) each catch a deliberately
//! wrong wrapper of the optimized crate with the failure their clause prescribes; a report's
//! `run` member and a vector failure's `clauses` are what the clauses say; and `port init`
//! writes its template and refuses a folder that is not empty.

use crate::cli;

use onepath_conformance::checks::{
    default_threads, default_vectors_dir, generated, grid_search, hooks, links, sliced, state,
};
use onepath_conformance::config::{FamilySet, Shard};
use onepath_conformance::implementation::{
    BuildFailure, CancelTrace, GraphOp, HookedQuery, HookedRun, LinkRequest, LinkResult, OplmError,
};
use onepath_conformance::outcome::StatusCode;
use onepath_conformance::report::RunInfo;
use onepath_conformance::state::{StateKind, StateReply, StateRequest};
use onepath_conformance::{
    Case, Config, Failure, Implementation, OptimizedCrate, Outcome, Report, RunOptions, Section,
    Variant,
};
use sha2::{Digest, Sha256};

/// How the wrapper goes wrong.
#[derive(Clone, Copy, PartialEq)]
enum Fault {
    /// Tier 1: one more than the true cost on every found path.
    CostPlusOne,
    /// Tier 1: the last node of every found path of two or more nodes dropped.
    DropLastNode,
    /// Tier 1: the last recorded expansion dropped (`expanded_count` kept).
    DropExpansion,
    /// Tier 2 stepped by `step(1)`: recorded expansions 0 and 1 swapped (when they differ).
    StepOneSwaps,
    /// Tier 1: the iteration budget ignored (the search runs to the end).
    IgnoreBudget,
    /// Point graphs: the last `link_valid` call not reported.
    DropLinkCall,
    /// Point graphs: build errors without their index.
    DropLinkIndex,
    /// Hooked runs: one more than the reported cost on every found path.
    HookedCostPlusOne,
    /// Grid searches: a found cost one ulp above its value.
    GridCostUlp,
    /// GraphAStar restored from bytes and finished: the first recorded expansion lost.
    ResumedLosesFirstExpansion,
    /// A random state case whose restore the crate rejects panics instead.
    PanicOnRandomRejection,
    /// Grids: an accepted restore installs nothing (the object keeps its own state).
    RestoreInstallsNothing,
}

struct Wrong(Fault);

impl Wrong {
    fn corrupt(&self, o: &mut Outcome) {
        let Outcome::Path(p) = o else { return };
        match self.0 {
            Fault::CostPlusOne if p.status == StatusCode::Found => p.cost += 1.0,
            Fault::DropLastNode if p.status == StatusCode::Found && p.nodes.len() > 1 => {
                p.nodes.pop();
            }
            Fault::DropExpansion => {
                p.expanded.pop();
            }
            _ => {}
        }
    }
}

impl Implementation for Wrong {
    fn name(&self) -> &str {
        "wrong"
    }
    fn run_case(
        &self,
        case: &Case,
        variants: &[Variant],
        queries: &[(u32, u32)],
        opts: RunOptions,
    ) -> Vec<Vec<Outcome>> {
        let opts = if self.0 == Fault::IgnoreBudget {
            RunOptions {
                iteration_budget: 0,
                ..opts
            }
        } else {
            opts
        };
        let mut r = OptimizedCrate.run_case(case, variants, queries, opts);
        r.iter_mut().flatten().for_each(|o| self.corrupt(o));
        r
    }
    fn run_sliced(
        &self,
        case: &Case,
        variant: Variant,
        query: (u32, u32),
        budgets: &[u64],
    ) -> Outcome {
        let mut o = OptimizedCrate.run_sliced(case, variant, query, budgets);
        if let (Fault::StepOneSwaps, [1], Outcome::Path(p)) = (self.0, budgets, &mut o) {
            if p.expanded.len() > 1 && p.expanded[0] != p.expanded[1] {
                p.expanded.swap(0, 1);
            }
        }
        o
    }
    fn build_links(&self, request: &LinkRequest) -> Result<LinkResult, BuildFailure> {
        match (self.0, OptimizedCrate.build_links(request)) {
            (Fault::DropLinkCall, Ok(mut r)) => {
                r.calls.pop();
                Ok(r)
            }
            (Fault::DropLinkIndex, Err(mut e)) => {
                e.index = None;
                Err(e)
            }
            (_, r) => r,
        }
    }
    fn run_hooked(&self, case: &Case, query: &HookedQuery) -> HookedRun {
        let mut r = OptimizedCrate.run_hooked(case, query);
        if let (Fault::HookedCostPlusOne, Outcome::Path(p)) = (self.0, &mut r.outcome) {
            if p.status == StatusCode::Found {
                p.cost += 1.0;
            }
        }
        r
    }
    fn run_cancelled(
        &self,
        case: &Case,
        variant: Variant,
        query: (u32, u32),
        first_steps: u64,
    ) -> Result<CancelTrace, onepath_conformance::error::CallError> {
        OptimizedCrate.run_cancelled(case, variant, query, first_steps)
    }
    fn run_ops(&self, ops: &[GraphOp]) -> Vec<Result<u64, BuildFailure>> {
        OptimizedCrate.run_ops(ops)
    }
    fn build_landmarks(
        &self,
        case: &Case,
    ) -> Result<Vec<u8>, onepath_conformance::error::CallError> {
        OptimizedCrate.build_landmarks(case)
    }
    fn lower_bounds(
        &self,
        case: &Case,
        pairs: &[(u32, u32)],
    ) -> Result<Vec<f64>, onepath_conformance::error::CallError> {
        OptimizedCrate.lower_bounds(case, pairs)
    }
    fn deserialize_oplm(&self, case: &Case, bytes: &[u8]) -> Result<Vec<u8>, OplmError> {
        OptimizedCrate.deserialize_oplm(case, bytes)
    }
    fn run_grid(
        &self,
        request: &onepath_conformance::grid::GridRequest,
    ) -> Result<onepath_conformance::grid::GridOutcome, onepath_conformance::error::HarnessError>
    {
        let mut r = OptimizedCrate.run_grid(request)?;
        if let (Fault::GridCostUlp, Ok(reply)) = (self.0, &mut r) {
            if reply.status == onepath_conformance::grid::FOUND {
                reply.cost_bits += 1;
            }
        }
        Ok(r)
    }
    fn run_state(
        &self,
        request: &StateRequest,
    ) -> Result<StateReply, onepath_conformance::error::HarnessError> {
        self.run_state_as("", request)
    }
    fn run_state_as(
        &self,
        label: &str,
        request: &StateRequest,
    ) -> Result<StateReply, onepath_conformance::error::HarnessError> {
        let mut r = OptimizedCrate.run_state(request)?;
        match (self.0, request) {
            (
                Fault::ResumedLosesFirstExpansion,
                StateRequest::Restore {
                    recipe,
                    bytes: Some(_),
                    finish: true,
                },
            ) if recipe.kind() == StateKind::GraphAStar => {
                if let Some(s) = r.search.as_mut().filter(|s| !s.expansions.is_empty()) {
                    s.expansions.remove(0);
                }
            }
            (Fault::PanicOnRandomRejection, StateRequest::Restore { .. })
                if label.starts_with("random#") && matches!(r.restore, Some(Err(_))) =>
            {
                panic!("a port that crashes on damaged bytes")
            }
            (Fault::RestoreInstallsNothing, StateRequest::Restore { recipe, .. })
                if matches!(
                    recipe.kind(),
                    StateKind::Grid | StateKind::HexGrid | StateKind::VoxelGrid
                ) && r.restore == Some(Ok(())) =>
            {
                r.after = r.before.clone();
                r.cells.clear();
            }
            _ => {}
        }
        Ok(r)
    }
}

fn small() -> Config {
    Config {
        oracle_graphs: 30,
        landmark_graphs: 0,
        sliced_graphs: 12,
        link_sets: 30,
        hook_graphs: 20,
        cancel_graphs: 0,
        grid_cases: 0,
        replan_cases: 0,
        flow_cases: 0,
        movingai_side: 32,
        movingai_buckets: 4,
        vectors_dir: None,
        threads: default_threads(),
        ..Config::ci(29)
    }
}

fn whats(s: &Section) -> Vec<&str> {
    s.failures.iter().map(|f| f.what.as_str()).collect()
}

/// The oracle section with `fault` on the wrapper alone (no reference to differ from).
fn oracle_alone(fault: Fault) -> Section {
    generated::run(&Wrong(fault), &[], &small(), None).remove(0)
}

// pins [CONF.CHECK.ORACLE]: an oracle section that, with no differential to help, lets a found cost
// 1 above the truth, a path cut before the goal or a recorded list shorter than expanded_count pass
// fails here.
#[test]
fn the_oracle_section_alone_catches_cost_path_and_expansion_count() {
    let clean = generated::run(&OptimizedCrate, &[], &small(), None).remove(0);
    assert!(clean.checks > 100, "{}", clean.checks);
    assert_eq!(clean.failed, 0, "{:?}", clean.failures.first());
    for (fault, what) in [
        (Fault::CostPlusOne, "cost"),
        (Fault::DropLastNode, "path"),
        (Fault::DropExpansion, "expanded list length"),
    ] {
        let s = oracle_alone(fault);
        assert_eq!(s.name, "oracle");
        assert!(s.failed > 0, "the oracle missed {what}");
        assert!(
            s.failures.iter().all(|f| f.what == what),
            "{what}: {:?}",
            whats(&s)
        );
    }
}

// pins [CONF.CHECK.SLICED]: a sliced section that lets a step(1) schedule differing from tier 1, or
// a tier-1 run ignoring iteration_budget I-1, pass fails here.
#[test]
fn the_sliced_section_catches_a_step_schedule_and_an_ignored_budget() {
    let clean = sliced::run(&[&OptimizedCrate], &small(), None);
    assert_eq!(clean.failed, 0, "{:?}", clean.failures.first());
    let s = sliced::run(&[&Wrong(Fault::StepOneSwaps)], &small(), None);
    assert!(s.failed > 0);
    assert!(
        s.failures.iter().all(|f| f
            .what
            .starts_with("step budgets [1] vs tier 1: expansion step")),
        "{:?}",
        whats(&s)
    );
    let s = sliced::run(&[&Wrong(Fault::IgnoreBudget)], &small(), None);
    assert!(
        s.failures
            .iter()
            .any(|f| f.what.starts_with("iteration_budget ")
                && f.expected.starts_with("BudgetExhausted after")),
        "{:?}",
        whats(&s)
    );
}

// pins [CONF.CHECK.LINKS]: a links section that lets a lost last link_valid call (brute-force
// comparison) or a build error without its index (bad inputs) pass fails here.
#[test]
fn the_links_section_catches_a_lost_call_and_a_lost_index() {
    let clean = links::run(&[&OptimizedCrate], &small(), None);
    assert_eq!(clean.failed, 0, "{:?}", clean.failures.first());
    let s = links::run(&[&Wrong(Fault::DropLinkCall)], &small(), None);
    assert!(
        s.failures
            .iter()
            .any(|f| f.what.starts_with("link_valid call ") && f.found == "no call"),
        "{:?}",
        whats(&s)
    );
    let s = links::run(&[&Wrong(Fault::DropLinkIndex)], &small(), None);
    let bad: Vec<&Failure> = s
        .failures
        .iter()
        .filter(|f| f.what.starts_with("rejects "))
        .collect();
    assert!(
        bad.iter()
            .any(|f| f.expected.contains("coordinate_out_of_range")),
        "{:?}",
        whats(&s)
    );
    assert!(
        bad.iter().any(|f| f.expected.contains("link_out_of_range")),
        "{:?}",
        whats(&s)
    );
}

// pins [CONF.CHECK.HOOKS_ORACLE]: a hooks section that, with no reference to compare with, lets a
// hooked found cost 1 above the transformed graph's distance pass (no `oracle cost` failure) fails
// here.
#[test]
fn the_hooks_oracle_catches_a_wrong_cost_without_a_reference() {
    let clean = hooks::run(&[&OptimizedCrate], &small(), None);
    assert_eq!(clean.failed, 0, "{:?}", clean.failures.first());
    let s = hooks::run(&[&Wrong(Fault::HookedCostPlusOne)], &small(), None);
    assert!(
        s.failures.iter().any(|f| f.what == "oracle cost"),
        "{:?}",
        whats(&s)
    );
}

// pins [CONF.CHECK.MOVINGAI]: a movingai section that accepts a found cost one ulp off the
// scenario's octile length (not bit for bit) fails here.
#[test]
fn the_movingai_section_wants_the_optimal_length_bit_for_bit() {
    let clean = grid_search::movingai(&[&OptimizedCrate], &small());
    assert!(clean.checks > 16, "{}", clean.checks);
    assert_eq!(clean.failed, 0, "{:?}", clean.failures.first());
    let s = grid_search::movingai(&[&Wrong(Fault::GridCostUlp)], &small());
    assert!(s.failed > 0);
    assert!(
        s.failures
            .iter()
            .all(|f| f.what.starts_with("scenario ") && f.what.ends_with("optimal length")),
        "{:?}",
        whats(&s)
    );
}

/// The state section of the selected families, on the optimized crate and then the wrapper.
fn state_section(fault: Fault, families: &str) -> Section {
    let config = Config {
        oracle_graphs: 40,
        sliced_graphs: 3,
        vectors_dir: Some(default_vectors_dir()),
        families: FamilySet::parse(families).expect("families"),
        ..small()
    };
    state::run(&[&OptimizedCrate, &Wrong(fault)], &config, None)
}

// pins [CONF.STATE.SNAPSHOT]: a state section whose generated search#seed snapshots let a
// restored-and-finished GraphAStar that lost its first recorded expansion pass fails here.
#[test]
fn a_resumed_search_that_differs_fails_the_snapshot_check() {
    let s = state_section(Fault::ResumedLosesFirstExpansion, "graph");
    let snaps: Vec<&Failure> = s
        .failures
        .iter()
        .filter(|f| f.case.as_deref().is_some_and(|c| c.starts_with("search#")))
        .collect();
    assert!(!snaps.is_empty(), "{:?}", whats(&s));
    assert!(
        snaps.iter().any(|f| f.what.starts_with("snapshot after ")
            && f.what
                .ends_with("restored into a fresh search and finished: search expansions[0]")),
        "{:?}",
        snaps.iter().map(|f| &f.what).collect::<Vec<_>>()
    );
}

// pins [CONF.STATE.RANDOM]: a state section whose random#i cases are not run, or not under
// catch_unwind, aborts or passes on a port that panics on damaged bytes, and fails here.
#[test]
fn a_panic_on_random_damage_is_a_failure_of_its_case() {
    let s = state_section(Fault::PanicOnRandomRejection, "graph");
    let random: Vec<&Failure> = s
        .failures
        .iter()
        .filter(|f| f.case.as_deref().is_some_and(|c| c.starts_with("random#")))
        .collect();
    assert!(!random.is_empty(), "{:?}", whats(&s));
    assert!(
        random.iter().all(|f| f.implementation == "wrong"
            && f.expected == "a result without panic"
            && f.found.contains("panicked")),
        "{:?}",
        random.first()
    );
}

// pins [CONF.STATE.TARGET]: restoring into an object already holding the golden state (not the bare
// constructor) lets a grid restore that installs nothing pass restore-then-save; it fails here.
#[test]
fn a_restore_that_installs_nothing_is_seen_in_the_bare_target() {
    let s = state_section(Fault::RestoreInstallsNothing, "grids");
    assert!(
        s.failures
            .iter()
            .any(|f| f.what == "restore then save_state"
                && f.vector
                    .as_deref()
                    .is_some_and(|v| v.starts_with("STATE-GRID-"))),
        "{:?}",
        whats(&s)
    );
}

// pins [CONF.REPORT.RUN]: a run member that drops or swaps a size, names another seed, shard or
// family list, or leaves out the vectors folder or its MANIFEST.json SHA-256 fails the equality.
#[test]
fn the_run_member_names_seed_shard_sizes_folder_manifest_and_families() {
    let dir = default_vectors_dir();
    let config = Config {
        seed: 12345,
        oracle_graphs: 1,
        landmark_graphs: 2,
        sliced_graphs: 3,
        link_sets: 4,
        hook_graphs: 5,
        cancel_graphs: 6,
        grid_cases: 7,
        replan_cases: 8,
        flow_cases: 9,
        movingai_side: 10,
        movingai_buckets: 11,
        vectors_dir: Some(dir.clone()),
        shard: Shard { index: 2, count: 3 },
        families: FamilySet::parse("hpa,graph").expect("families"),
        ..Config::ci(1)
    };
    let report = Report::new(
        vec!["onepath-reference".into()],
        vec![Section::new("oracle")],
        RunInfo::of(&config),
    );
    let v: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    let run = &v["run"];
    let manifest = std::fs::read(dir.join("MANIFEST.json")).unwrap();
    let want = serde_json::json!({
        "seed": 12345,
        "shard": {"index": 2, "count": 3},
        "sizes": {
            "oracle_graphs": 1, "landmark_graphs": 2, "sliced_graphs": 3, "link_sets": 4,
            "hook_graphs": 5, "cancel_graphs": 6, "grid_cases": 7, "replan_cases": 8,
            "flow_cases": 9, "movingai_side": 10, "movingai_buckets": 11
        },
        "vectors_dir": dir.display().to_string(),
        "vectors_manifest_sha256": hex::encode(Sha256::digest(&manifest)),
        "families": ["graph", "hpa"]
    });
    assert_eq!(run, &want);
    // Without a vectors folder both members are null, not absent.
    let none = Config {
        vectors_dir: None,
        ..config
    };
    let v = serde_json::to_value(RunInfo::of(&none)).unwrap();
    assert!(v["vectors_dir"].is_null() && v["vectors_manifest_sha256"].is_null());
    assert_eq!(v.as_object().unwrap().len(), 6, "{v}");
}

/// The bracketed clause ids of a text, in order of first citation, written here from
/// [SPEC.CLAUSE.FORM] (not the kit's reader).
fn bracketed_ids(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for piece in text.split('[').skip(1) {
        let Some(id) = piece.split(']').next() else {
            continue;
        };
        let words: Vec<&str> = id.split('.').collect();
        let ok = words.len() >= 2
            && words.iter().all(|w| {
                !w.is_empty()
                    && w.chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            })
            && id.starts_with(|c: char| c.is_ascii_uppercase());
        if ok && !out.iter().any(|o| o == id) {
            out.push(id.to_string());
        }
    }
    out
}

// pins [CONF.REPORT.CLAUSES]: a vector failure or its -H case without the vector's cited ids in
// order
// (a state vector's too, whose hostile file shares its id), a generated case's failure with any,
// or a line without ` (the vector pins [A] [B])` fails here.
#[test]
fn a_vector_failure_names_the_clauses_its_vector_cites() {
    let dir = default_vectors_dir();
    let text = std::fs::read_to_string(dir.join("hex-search/HEX-0001.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let want = bracketed_ids(v["_comment"].as_str().unwrap());
    assert!(want.len() >= 2, "HEX-0001 cites {want:?}");
    let failure = |vector: Option<&str>, case: Option<&str>| Failure {
        vector: vector.map(String::from),
        case: case.map(String::from),
        implementation: "wrong".into(),
        what: "w".into(),
        expected: "e".into(),
        found: "f".into(),
        ..Default::default()
    };
    let mut s = Section::new("vectors");
    s.fail(failure(Some("HEX-0001"), None));
    s.fail(failure(Some("HEX-0001-H0003"), None));
    s.fail(failure(None, Some("random#7")));
    let mut sections = vec![s];
    onepath_conformance::vector_clauses::VectorClauses::read(&dir).annotate(&mut sections);
    let f = &sections[0].failures;
    assert_eq!(f[0].clauses, want);
    assert_eq!(f[1].clauses, want, "a hostile case carries its vector's");
    assert!(f[2].clauses.is_empty(), "a generated case carries none");
    assert!(
        f[0].line()
            .ends_with(&format!(" (the vector pins [{}])", want.join("] ["))),
        "{}",
        f[0].line()
    );
    assert!(!f[2].line().contains("the vector pins"), "{}", f[2].line());
    // A golden state vector shares its id with its hostile file, read after it and citing
    // nothing: the golden's ids must survive (a table keyed by id that let the later file
    // replace the earlier one gave every state vector's failure no clauses).
    let clauses = onepath_conformance::vector_clauses::VectorClauses::read(&dir);
    assert_eq!(
        clauses.of("STATE-GRID-0005"),
        vec!["GRID.SPACE.UNASSIGNED", "STATE.SPACE"]
    );
    assert_eq!(
        clauses.of("STATE-GRID-0005-H0001"),
        vec!["GRID.SPACE.UNASSIGNED", "STATE.SPACE"]
    );
}

// pins [CONF.CLI.PORT_INIT]: a port init writing other bytes than the template, no protocol.d.ts, a
// stray file or no quick-start command, or writing into a non-empty folder fails here.
#[test]
fn port_init_writes_the_template_and_refuses_a_non_empty_folder() {
    let base = cli::scratch("pinned-port-init", "go");
    let dir = base.join("driver");
    let d = dir.to_str().unwrap();
    let (code, out, err) = cli::run(&["port", "init", "--lang", "go", d]);
    assert_eq!(code, 0, "{out}{err}");
    let templates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ports/templates");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["README.md", "go.mod", "main.go", "protocol.d.ts"]);
    for name in ["README.md", "go.mod", "main.go"] {
        assert_eq!(
            std::fs::read(dir.join(name)).unwrap(),
            std::fs::read(templates.join("go").join(name)).unwrap(),
            "{name}"
        );
    }
    assert_eq!(
        std::fs::read(dir.join("protocol.d.ts")).unwrap(),
        std::fs::read(templates.join("protocol.d.ts")).unwrap()
    );
    assert!(out.contains("--family hex-search"), "{out}");
    // The folder is no longer empty: refused, naming it, nothing changed.
    let before = std::fs::read(dir.join("main.go")).unwrap();
    let (code, _, err) = cli::run(&["port", "init", "--lang", "ts", d]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(d), "{err}");
    assert!(!dir.join("driver.mjs").exists());
    assert_eq!(std::fs::read(dir.join("main.go")).unwrap(), before);
    let _ = std::fs::remove_dir_all(&base);
}

// pins [CONF.STATE.RECIPE]: a recipe reader that takes an unknown member, a missing `edits` or a
// missing nullable `space` as a default, or a grid replay that applies the edits out of list order, fails an assertion.
#[test]
fn recipes_are_strict_and_replay_their_edits_in_list_order() {
    use onepath_conformance::state::files::StateVector;
    let text =
        std::fs::read_to_string(default_vectors_dir().join("state/STATE-GRID-0001.json")).unwrap();
    assert!(StateVector::parse(&text).is_ok());
    let recipe = "\"kind\": \"grid\",";
    assert!(text.contains(recipe));
    for (what, edited) in [
        (
            "an unknown member",
            text.replacen(recipe, "\"kind\": \"grid\", \"extra\": 1,", 1),
        ),
        (
            "no edits",
            text.replacen(",\n          \"edits\": []", "", 1),
        ),
        (
            "no space (a nullable member left out)",
            text.replacen("\n          \"space\": null,", "", 1),
        ),
    ] {
        assert_ne!(edited, text, "{what}: the edit applies");
        assert!(StateVector::parse(&edited).is_err(), "{what} is accepted");
    }
    // set_cell per edit in list order: the last write of a cell wins.
    let save = |edits: Vec<(u32, u32, u8)>| {
        let r = OptimizedCrate
            .run_state(&StateRequest::Restore {
                recipe: onepath_conformance::state::StateRecipe::Grid {
                    width: 4,
                    height: 3,
                    space: None,
                    area_multipliers: vec![],
                    edits,
                },
                bytes: None,
                finish: false,
            })
            .unwrap();
        // The 12 cell areas close the bytes (the version before them counts the writes).
        r.before[r.before.len() - 12..].to_vec()
    };
    let both = save(vec![(1, 2, 7), (1, 2, 9)]);
    assert_eq!(both[2 * 4 + 1], 9);
    assert_eq!(both, save(vec![(1, 2, 9)]));
    assert_ne!(both, save(vec![(1, 2, 7)]));
}
