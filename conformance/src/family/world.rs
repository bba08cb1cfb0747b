//! The `world` family: world snapshots and the rollback sync test — the `synctest` section and
//! the vectors under `vectors/world/` ([CONF.SYNC.VECTOR], [CONF.SYNC.SECTION]).

use super::{Host, KitFamily, Run, VectorRef};
use crate::claims::Family;
use crate::config::{Config, FamilySet, Shard};
use crate::implementation::Implementation;
use crate::report::Section;
use crate::synctest::vectors;
use std::collections::BTreeMap;
use std::path::Path;

/// The registry entry.
pub struct World;

/// Label prefixes of the family's cases: vector ids, vector files, generated sessions.
const LABELS: [&str; 3] = ["SYNC-", "world/", "synctest"];

impl KitFamily for World {
    fn name(&self) -> &'static str {
        vectors::FAMILY
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
                claim: Family::Grids,
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
        &[Family::Grids]
    }

    fn sections(&self, run: &Run<'_>) -> Vec<Section> {
        run.host.enter("synctest");
        if !run.config.shard.is_first() {
            // One session per run: a shard other than the first runs none.
            return vec![Section::new("synctest")];
        }
        vec![vectors::section(
            run.all,
            run.config.seed,
            vectors::SECTION_FRAMES,
        )]
    }

    fn name_cases(&self, _host: &dyn Host, _config: &Config, _vectors: Option<&Path>) {
        // Sync-test requests carry their label themselves (`run_synctest_as`).
    }

    fn claim_of(&self, label: &str, _what: &str) -> Option<Family> {
        LABELS
            .iter()
            .any(|p| label.starts_with(p))
            .then_some(Family::Grids)
    }
}
