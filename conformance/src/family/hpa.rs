//! The `hpa` family: HPA* on square grids — the `hpa` section and the vectors under
//! `vectors/hpa/`.

use super::{Host, KitFamily, Run, VectorRef};
use crate::checks::hpa;
use crate::claims::Family;
use crate::config::{Config, FamilySet, Shard};
use crate::hpa::{vectors, FAMILY};
use crate::implementation::Implementation;
use crate::report::Section;
use std::collections::BTreeMap;
use std::path::Path;

/// The registry entry.
pub struct Hpa;

/// Label prefixes of the family's cases: vector ids, vector files, generated cases.
const LABELS: [&str; 3] = ["HPA-", "hpa/", "hpa#"];

impl KitFamily for Hpa {
    fn name(&self) -> &'static str {
        FAMILY
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
                id: v.id,
                claim: Family::Hpa,
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
        vectors::certify(dir, all, shard, once, s)
    }

    fn claims(&self) -> &'static [Family] {
        &[Family::Hpa]
    }

    fn sections(&self, run: &Run<'_>) -> Vec<Section> {
        run.host.enter(FAMILY);
        vec![hpa::run(run.all, run.config, run.progress)]
    }

    fn name_cases(&self, _host: &dyn Host, _config: &Config, _vectors: Option<&Path>) {
        // HPA requests carry their label themselves (`run_hpa_as`).
    }

    fn claim_of(&self, label: &str, _what: &str) -> Option<Family> {
        LABELS
            .iter()
            .any(|p| label.starts_with(p))
            .then_some(Family::Hpa)
    }
}
