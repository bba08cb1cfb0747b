//! The family registry ([CONF.FAMILY.*]): one [`KitFamily`] per family of the kit, and the walks
//! every command makes over [`REGISTRY`].
//!
//! A family owns its vectors (generate, check, list), its certify sections, the names of its
//! cases in a port's requests and the labels of its failures. `certify`, `certify --port`,
//! `vectors`, `vectors --check`, the consumed check, the unclaimed-family rule, JUnit and the JSON
//! reports walk the registry; none of them names a family. Adding a family is a new module here
//! and one line of [`REGISTRY`].

mod bidi;
mod debug;
mod flow_field;
mod graph;
mod grid_search;
mod hpa;
mod lattice;
mod records;
mod replanning;
mod state;
mod walk;
mod world;

use crate::claims::Family;
use crate::config::{Config, FamilySet, Shard};
use crate::grid::GridMap;
use crate::implementation::{GraphOp, Implementation, LinkRequest};
use crate::report::Section;
use crate::scenario::Case;
use indicatif::ProgressBar;
use std::collections::BTreeMap;
use std::path::Path;

pub use walk::{
    certify, certify_sections, check_dir, check_manifest, claim_of, generate_files, name_cases,
    names, selected, vector_refs, vectors_section, vectors_section_parallel,
    vectors_section_select, vectors_section_shard,
};

/// Every family of the kit, in section order ([CONF.FAMILY.REGISTRY]).
pub static REGISTRY: [&dyn KitFamily; 12] = [
    &graph::Graph,
    &grid_search::GridSearch,
    &replanning::Replanning,
    &flow_field::FlowField,
    &lattice::Lattice(crate::lattice::Shape::Hex),
    &lattice::Lattice(crate::lattice::Shape::Voxel),
    &hpa::Hpa,
    &bidi::Bidi,
    &state::State,
    &debug::Debug,
    &records::Records,
    &world::World,
];

/// What a run gives a family's sections: the implementations, the sizes and the host's hooks.
pub struct Run<'a> {
    /// The implementation of record (the reference crate).
    pub reference: &'a dyn Implementation,
    /// The implementations under test.
    pub candidates: &'a [&'a dyn Implementation],
    /// `reference` then `candidates`.
    pub all: &'a [&'a dyn Implementation],
    /// Sizes, seed, shard.
    pub config: &'a Config,
    /// A progress bar, if any.
    pub progress: Option<&'a ProgressBar>,
    /// The host: an in-process run's does nothing, a port run's names sections and cases.
    pub host: &'a dyn Host,
}

/// What a port run needs to know while the sections run; an in-process run uses [`NoHost`].
pub trait Host: Sync {
    /// The section whose calls follow.
    fn enter(&self, section: &str) {
        let _ = section;
    }
    /// Runs `f`, keeping no trace of its calls in the host's ledger (a shard's copy of the
    /// once-per-run probes, [CONF.CLI.SHARD]).
    fn without_trace(&self, f: &mut dyn FnMut()) {
        f()
    }
    /// Names the requests of a graph case.
    fn name_case(&self, case: &Case, name: &str) {
        let _ = (case, name);
    }
    /// Names the requests on a grid map.
    fn name_grid_map(&self, map: &GridMap, name: &str) {
        let _ = (map, name);
    }
    /// Names a link request.
    fn name_links(&self, request: &LinkRequest, name: &str) {
        let _ = (request, name);
    }
    /// Names an error script.
    fn name_ops(&self, ops: &[GraphOp], name: &str) {
        let _ = (ops, name);
    }
}

/// The host of an in-process run: every hook does nothing.
pub struct NoHost;

impl Host for NoHost {}

/// A committed vector as the walks see it ([CONF.FAMILY.VECTORS]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VectorRef {
    /// The vector id (`GRAPH-0001`, `GRID-0007`, `STATE-ASTAR-0003`).
    pub id: String,
    /// The family a port claims to be judged on it.
    pub claim: Family,
    /// Whether hostile cases derived from it are labelled `<id>-H<nnnn>`.
    pub hostile: bool,
}

impl VectorRef {
    /// Whether a request or failure label belongs to this vector.
    pub fn owns(&self, label: &str) -> bool {
        label == self.id
            || (self.hostile
                && label
                    .strip_prefix(self.id.as_str())
                    .is_some_and(|rest| rest.starts_with("-H")))
    }
}

/// One family of the kit.
pub trait KitFamily: Sync {
    /// The family's name (the `family` member of its vector files).
    fn name(&self) -> &'static str;

    /// Every vector file of the family, generated from `imp`: path relative to `vectors/`, bytes.
    /// `earlier` holds the files of the families before it in [`REGISTRY`] (the records family
    /// derives its vectors from them).
    fn generate(
        &self,
        imp: &dyn Implementation,
        earlier: &BTreeMap<String, Vec<u8>>,
    ) -> BTreeMap<String, Vec<u8>>;

    /// The family's committed vectors under `dir`, in their shard order; unreadable files are
    /// reported by [`KitFamily::check_vectors`], not here.
    fn vectors(&self, dir: &Path) -> Vec<VectorRef>;

    /// The family's part of the `vectors` section: the vectors of `shard` whose claim family is in
    /// `families` into `s`, the folder-level checks into `once` (counted by shard 1 only).
    fn check_vectors(
        &self,
        dir: &Path,
        all: &[&dyn Implementation],
        shard: Shard,
        families: FamilySet,
        once: &mut Section,
        s: &mut Section,
    );

    /// The claim families the family's sections and vectors serve ([CONF.CLI.FAMILY]): a run
    /// whose selection holds none of them skips the family.
    fn claims(&self) -> &'static [Family];

    /// The family's certify sections, in order.
    fn sections(&self, run: &Run<'_>) -> Vec<Section>;

    /// Names the family's cases in `host` (so a port's requests and failures carry them).
    fn name_cases(&self, host: &dyn Host, config: &Config, vectors: Option<&Path>);

    /// The claim family of a failure label (or of a failure's `what`) the family owns.
    fn claim_of(&self, label: &str, what: &str) -> Option<Family>;
}
