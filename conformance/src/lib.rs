//! `onepath-conformance`: the conformance kit of onepath-rs.
//!
//! It certifies implementations of `spec/graphs.md` (the two Rust crates, and ports in other
//! languages through the [`Implementation`] trait) with:
//! - committed golden vectors (one envelope per file, hash matrices, a manifest) under
//!   `vectors/`, owned by the families of the registry ([`family`]),
//! - an O(V^2) oracle, a brute-force link builder and generated graphs,
//! - differential checks (byte-identical canonical outcomes, first differing step reported),
//! - the `certify` (whole or one shard), `report merge`, `vectors`, `schemas`, `clauses`, `road [--check]`
//!   and `movingai` commands of the binary.
//!
//! The formats and checks are specified in `spec/conformance.md` (clause ids `CONF.*`).
#![deny(missing_docs)]
// `!(a <= b)` is deliberate throughout: it is true when either side is NaN.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub mod adapters;
pub mod atomic;
pub mod bidi;
pub mod case_stop;
pub mod checks;
pub mod claims;
pub mod clauses;
pub mod config;
pub mod debug;
pub mod envelope;
pub mod error;
pub mod expectations;
pub mod family;
pub mod flow;
pub mod fuzzing;
pub mod generators;
pub mod grid;
pub mod hpa;
pub mod implementation;
pub mod input;
pub mod json_text;
pub mod lattice;
pub mod levels;
pub mod links_bf;
pub mod movingai;
pub mod movingai_cli;
pub mod movingai_report;
pub mod oracle;
pub mod outcome;
pub mod port;
pub mod prng;
pub mod raw_json;
pub mod recipes;
pub mod records;
pub mod replan;
pub mod report;
pub mod report_junit;
pub mod report_merge;
pub mod request_vectors;
pub mod road;
pub mod road_check;
pub mod scenario;
pub mod state;
pub mod synctest;
pub mod vector_clauses;
pub mod vector_files;
pub mod vectors;
pub mod words;

pub use adapters::{OptimizedCrate, ReferenceCrate};
pub use config::Config;
pub use family::certify;
/// The grid-search fuzz targets under their former path (now `fuzzing::grid`).
pub use fuzzing::grid as fuzzing_grid;
pub use implementation::{
    BlockedRule, BuildFailure, CancelTrace, CostRule, GraphOp, HeuristicRule, HookCall, HookSpec,
    HookedQuery, HookedRun, Implementation, LinkRequest, LinkResult, LinkRule, OplmError,
    RunOptions, SearchCode,
};
pub use outcome::{first_difference, Difference, Outcome, PathOutcome};
pub use report::{Failure, Report, Section};
pub use scenario::{Case, GraphSpec, LandmarkSpec, Scenario, Variant};
