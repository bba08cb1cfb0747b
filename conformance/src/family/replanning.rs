//! The `replanning` family: LPA* and D* Lite replanners on square and hex grids — the
//! `replanning` section and the vectors under `vectors/replanning/`.

use super::{Host, KitFamily, Run, VectorRef};
use crate::checks::replanning;
use crate::claims::Family;
use crate::config::{Config, FamilySet, Shard};
use crate::implementation::Implementation;
use crate::report::Section;
use std::collections::BTreeMap;
use std::path::Path;

/// The registry entry.
pub struct Replanning;

/// Label prefixes of the family's cases: vector ids, vector files, generated scripts.
const LABELS: [&str; 3] = ["REPLAN-", "replanning/", "replan#"];

impl KitFamily for Replanning {
    fn name(&self) -> &'static str {
        "replanning"
    }

    fn generate(
        &self,
        imp: &dyn Implementation,
        _earlier: &BTreeMap<String, Vec<u8>>,
    ) -> BTreeMap<String, Vec<u8>> {
        crate::replan::vectors::generate_files(imp)
    }

    fn vectors(&self, dir: &Path) -> Vec<VectorRef> {
        crate::replan::vectors::read_dir(dir)
            .unwrap_or_default()
            .into_iter()
            .map(|v| VectorRef {
                id: v.id,
                claim: Family::Replanning,
                hostile: false,
            })
            .collect()
    }

    fn check_vectors(
        &self,
        dir: &Path,
        all: &[&dyn Implementation],
        shard: Shard,
        _families: FamilySet,
        once: &mut Section,
        s: &mut Section,
    ) {
        crate::replan::vectors::certify(dir, all, shard, once, s)
    }

    fn claims(&self) -> &'static [Family] {
        &[Family::Replanning]
    }

    fn sections(&self, run: &Run<'_>) -> Vec<Section> {
        run.host.enter("replanning");
        vec![replanning::run(run.all, run.config, run.progress)]
    }

    fn name_cases(&self, _host: &dyn Host, _config: &Config, _vectors: Option<&Path>) {
        // Replanner requests carry their label themselves (`run_replan_as`).
    }

    fn claim_of(&self, label: &str, _what: &str) -> Option<Family> {
        LABELS
            .iter()
            .any(|p| label.starts_with(p))
            .then_some(Family::Replanning)
    }
}
