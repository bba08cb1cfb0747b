//! The `debug` family: descriptions of every result — the `describe` section
//! ([CONF.CHECK.DESCRIBE]), whose requests are built from the other families' vectors and
//! generated cases and carry their labels, and the description vectors under `vectors/debug/`
//! ([CONF.DEBUG.VECTOR]), each claimed by its target's family.

use super::{Host, KitFamily, Run, VectorRef};
use crate::checks::describe;
use crate::claims::Family;
use crate::config::{Config, FamilySet, Shard};
use crate::debug::vectors;
use crate::implementation::Implementation;
use crate::report::Section;
use std::collections::BTreeMap;
use std::path::Path;

/// The registry entry.
pub struct Debug;

impl KitFamily for Debug {
    fn name(&self) -> &'static str {
        "debug"
    }

    fn generate(
        &self,
        imp: &dyn Implementation,
        _earlier: &BTreeMap<String, Vec<u8>>,
    ) -> BTreeMap<String, Vec<u8>> {
        vectors::generate_files(imp)
    }

    fn vectors(&self, dir: &Path) -> Vec<VectorRef> {
        vectors::read_dir(dir)
            .unwrap_or_default()
            .into_iter()
            .map(|v| VectorRef {
                claim: vectors::claim(&v.case.request),
                id: v.id,
                hostile: false,
            })
            .collect()
    }

    fn check_vectors(
        &self,
        dir: &Path,
        all: &[&dyn Implementation],
        shard: Shard,
        families: FamilySet,
        once: &mut Section,
        s: &mut Section,
    ) {
        vectors::certify(dir, all, shard, families, once, s)
    }

    fn claims(&self) -> &'static [Family] {
        &[
            Family::Graph,
            Family::GridSearch,
            Family::Replanning,
            Family::FlowField,
            Family::HexSearch,
            Family::VoxelSearch,
            Family::Hpa,
            Family::GridBidi,
        ]
    }

    fn sections(&self, run: &Run<'_>) -> Vec<Section> {
        run.host.enter(describe::SECTION);
        let (targets, setup) = crate::debug::targets::section_targets(run.config);
        vec![describe::run(
            run.all,
            run.config,
            &targets,
            setup,
            run.progress,
        )]
    }

    fn name_cases(&self, _host: &dyn Host, _config: &Config, _vectors: Option<&Path>) {
        // Describe requests carry their label themselves (`describe_as`).
    }

    fn claim_of(&self, label: &str, _what: &str) -> Option<Family> {
        // A description vector is claimed by its target's family; the section's other
        // requests carry their own family's labels.
        vectors::claim_of_id(label)
    }
}
