//! The `records` family ([RECORD.VECTOR], [RECORD.CASES.CHECK]): no section of its own; its
//! part of the `vectors` section checks the record vectors under `vectors/records/` and runs
//! every record of the other families' vectors on every implementation.

use super::{Host, KitFamily, Run, VectorRef};

use crate::claims::Family;
use crate::config::{Config, FamilySet, Shard};
use crate::implementation::Implementation;
use crate::records::vectors;
use crate::report::Section;
use std::collections::BTreeMap;
use std::path::Path;

/// The registry entry.
pub struct Records;

impl KitFamily for Records {
    fn name(&self) -> &'static str {
        vectors::FAMILY
    }

    fn generate(
        &self,
        _imp: &dyn Implementation,
        earlier: &BTreeMap<String, Vec<u8>>,
    ) -> BTreeMap<String, Vec<u8>> {
        // The records' worlds and replies are the other families' vectors, read back from
        // the files generated before this family's.
        vectors::generate_from(earlier)
    }

    fn vectors(&self, _dir: &Path) -> Vec<VectorRef> {
        // [RECORD.VECTOR] The record vectors are judged by the kit's reader; a port's record
        // requests carry their source vector's labels, so no port consumes a RECORD file.
        Vec::new()
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

    fn sections(&self, _run: &Run<'_>) -> Vec<Section> {
        Vec::new()
    }

    fn name_cases(&self, _host: &dyn Host, _config: &Config, _vectors: Option<&Path>) {}

    fn claim_of(&self, label: &str, _what: &str) -> Option<Family> {
        vectors::claim_of_id(label)
    }
}
