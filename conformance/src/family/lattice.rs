//! The `hex-search` and `voxel-search` families: A* and Dijkstra on hex and voxel grids — the
//! `hex-search` and `voxel-search` sections and the vectors under `vectors/hex-search/` and
//! `vectors/voxel-search/`. One entry type serves both shapes.

use super::{Host, KitFamily, Run, VectorRef};
use crate::checks::lattice;
use crate::claims::Family;
use crate::config::{Config, FamilySet, Shard};
use crate::implementation::Implementation;
use crate::lattice::{vectors, Shape};
use crate::report::Section;
use std::collections::BTreeMap;
use std::path::Path;

/// The registry entry of one shape.
pub struct Lattice(pub Shape);

impl Lattice {
    fn claim(&self) -> Family {
        match self.0 {
            Shape::Hex => Family::HexSearch,
            Shape::Voxel => Family::VoxelSearch,
        }
    }

    /// Label prefixes of the family's cases: vector ids, vector files, generated cases.
    fn labels(&self) -> [&'static str; 3] {
        match self.0 {
            Shape::Hex => ["HEX-", "hex-search/", "hex#"],
            Shape::Voxel => ["VOXEL-", "voxel-search/", "voxel#"],
        }
    }
}

impl KitFamily for Lattice {
    fn name(&self) -> &'static str {
        self.0.family()
    }

    fn generate(
        &self,
        imp: &dyn Implementation,
        _earlier: &BTreeMap<String, Vec<u8>>,
    ) -> BTreeMap<String, Vec<u8>> {
        vectors::generate_files(self.0, imp)
    }

    fn vectors(&self, dir: &Path) -> Vec<VectorRef> {
        vectors::read_dir(self.0, dir)
            .unwrap_or_default()
            .into_iter()
            .map(|v| VectorRef {
                id: v.id,
                claim: self.claim(),
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
        vectors::certify(self.0, dir, all, shard, once, s)
    }

    fn claims(&self) -> &'static [Family] {
        match self.0 {
            Shape::Hex => &[Family::HexSearch],
            Shape::Voxel => &[Family::VoxelSearch],
        }
    }

    fn sections(&self, run: &Run<'_>) -> Vec<Section> {
        run.host.enter(self.0.family());
        vec![lattice::run(self.0, run.all, run.config, run.progress)]
    }

    fn name_cases(&self, _host: &dyn Host, _config: &Config, _vectors: Option<&Path>) {
        // Lattice requests carry their label themselves (`run_lattice_as`).
    }

    fn claim_of(&self, label: &str, _what: &str) -> Option<Family> {
        self.labels()
            .iter()
            .any(|p| label.starts_with(p))
            .then_some(self.claim())
    }
}
