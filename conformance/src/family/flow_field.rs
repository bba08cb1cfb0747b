//! The `flow-field` family: flow fields on square and hex grids — the `flow-field` section and
//! the vectors under `vectors/flow-field/`.

use super::{Host, KitFamily, Run, VectorRef};
use crate::checks::flow_field;
use crate::claims::Family;
use crate::config::{Config, FamilySet, Shard};
use crate::implementation::Implementation;
use crate::report::Section;
use std::collections::BTreeMap;
use std::path::Path;

/// The registry entry.
pub struct FlowField;

/// Label prefixes of the family's cases: vector ids, vector files, generated scripts.
const LABELS: [&str; 3] = ["FLOW-", "flow-field/", "flow#"];

impl KitFamily for FlowField {
    fn name(&self) -> &'static str {
        "flow-field"
    }

    fn generate(
        &self,
        imp: &dyn Implementation,
        _earlier: &BTreeMap<String, Vec<u8>>,
    ) -> BTreeMap<String, Vec<u8>> {
        crate::flow::vectors::generate_files(imp)
    }

    fn vectors(&self, dir: &Path) -> Vec<VectorRef> {
        crate::flow::vectors::read_dir(dir)
            .unwrap_or_default()
            .into_iter()
            .map(|v| VectorRef {
                id: v.id,
                claim: Family::FlowField,
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
        crate::flow::vectors::certify(dir, all, shard, once, s)
    }

    fn claims(&self) -> &'static [Family] {
        &[Family::FlowField]
    }

    fn sections(&self, run: &Run<'_>) -> Vec<Section> {
        run.host.enter("flow-field");
        vec![flow_field::run(run.all, run.config, run.progress)]
    }

    fn name_cases(&self, _host: &dyn Host, _config: &Config, _vectors: Option<&Path>) {
        // Flow-field requests carry their label themselves (`run_flow_as`).
    }

    fn claim_of(&self, label: &str, _what: &str) -> Option<Family> {
        LABELS
            .iter()
            .any(|p| label.starts_with(p))
            .then_some(Family::FlowField)
    }
}
