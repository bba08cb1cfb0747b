//! The `grid-search` family: square-grid searches — the grid-search and movingai sections, and
//! the grid vectors under `vectors/grids/` with their hash matrix.

use super::{Host, KitFamily, Run, VectorRef};
use crate::checks::grid_search;
use crate::claims::Family;
use crate::config::{Config, FamilySet, Shard};
use crate::implementation::Implementation;
use crate::report::Section;
use std::collections::BTreeMap;
use std::path::Path;

/// The registry entry.
pub struct GridSearch;

/// Label prefixes of the family's cases: vector ids, vector files, generated and MovingAI maps.
const LABELS: [&str; 4] = ["GRID-", "grids/", "grid#", "movingai#"];

impl KitFamily for GridSearch {
    fn name(&self) -> &'static str {
        "grid-search"
    }

    fn generate(
        &self,
        imp: &dyn Implementation,
        _earlier: &BTreeMap<String, Vec<u8>>,
    ) -> BTreeMap<String, Vec<u8>> {
        crate::grid::vectors::generate_files(imp)
    }

    fn vectors(&self, dir: &Path) -> Vec<VectorRef> {
        crate::grid::vectors::read_dir(dir)
            .unwrap_or_default()
            .into_iter()
            .map(|v| VectorRef {
                id: v.id,
                claim: Family::GridSearch,
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
        crate::grid::vectors::certify(dir, all, shard, once, s)
    }

    fn claims(&self) -> &'static [Family] {
        &[Family::GridSearch]
    }

    fn sections(&self, run: &Run<'_>) -> Vec<Section> {
        run.host.enter("grid-search");
        let mut out = vec![grid_search::run(run.all, run.config, run.progress)];
        if run.config.movingai_buckets > 0 {
            run.host.enter("movingai");
            out.push(grid_search::movingai(run.all, run.config));
        }
        out
    }

    fn name_cases(&self, host: &dyn Host, config: &Config, vectors: Option<&Path>) {
        // Grid requests are named by their map: a grid vector's id, a generated map's name.
        for v in vectors
            .and_then(|d| crate::grid::vectors::read_dir(d).ok())
            .unwrap_or_default()
        {
            host.name_grid_map(&v.grid_map(), &v.id);
        }
        for (name, map) in grid_search::generated_maps(config) {
            host.name_grid_map(&map, &name);
        }
    }

    fn claim_of(&self, label: &str, _what: &str) -> Option<Family> {
        LABELS
            .iter()
            .any(|p| label.starts_with(p))
            .then_some(Family::GridSearch)
    }
}
