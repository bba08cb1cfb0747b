//! The `debug` family: descriptions of every result ([CONF.CHECK.DESCRIBE]) — the `describe`
//! section. It owns no vectors: its requests are built from the other families' vectors and
//! generated cases and carry their labels, so each request is judged in its target's family.

use super::{Host, KitFamily, Run, VectorRef};
use crate::checks::describe;
use crate::claims::Family;
use crate::config::{Config, Shard};
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

    fn generate(&self, _imp: &dyn Implementation) -> BTreeMap<String, Vec<u8>> {
        BTreeMap::new()
    }

    fn vectors(&self, _dir: &Path) -> Vec<VectorRef> {
        Vec::new()
    }

    fn check_vectors(
        &self,
        _dir: &Path,
        _all: &[&dyn Implementation],
        _shard: Shard,
        _once: &mut Section,
        _s: &mut Section,
    ) {
    }

    fn sections(&self, run: &Run<'_>) -> Vec<Section> {
        run.host.enter(describe::SECTION);
        vec![describe::run(run.all, run.config, run.progress)]
    }

    fn name_cases(&self, _host: &dyn Host, _config: &Config, _vectors: Option<&Path>) {
        // Describe requests carry their label themselves (`describe_as`).
    }

    fn claim_of(&self, _label: &str, _what: &str) -> Option<Family> {
        None
    }
}
