//! The `state` family: snapshot / restore of every state kind — the state section (golden and
//! hostile vectors, snapshots, random mutations) and the files under `vectors/state/`. Its
//! vectors are judged in the state section; a port claims each kind through the family of the
//! kind ([`StateKind::family`]).

use super::{Host, KitFamily, Run, VectorRef};
use crate::claims::Family;
use crate::config::{Config, FamilySet, Shard};
use crate::implementation::Implementation;
use crate::report::Section;
use crate::state::StateKind;
use std::collections::BTreeMap;
use std::path::Path;

/// The registry entry.
pub struct State;

/// Every kind, for the claim of a label (`STATE-<TAG>-`).
const KINDS: [StateKind; 12] = [
    StateKind::Grid,
    StateKind::HexGrid,
    StateKind::VoxelGrid,
    StateKind::Graph,
    StateKind::GraphAStar,
    StateKind::AStar,
    StateKind::JumpSearch,
    StateKind::ThetaSearch,
    StateKind::GridSearch,
    StateKind::GridReplanner,
    StateKind::HexReplanner,
    StateKind::FlowField,
];

impl KitFamily for State {
    fn name(&self) -> &'static str {
        "state"
    }

    fn generate(
        &self,
        imp: &dyn Implementation,
        _earlier: &BTreeMap<String, Vec<u8>>,
    ) -> BTreeMap<String, Vec<u8>> {
        crate::state::files::generate_files(imp)
    }

    fn vectors(&self, dir: &Path) -> Vec<VectorRef> {
        crate::state::files::read_dir(dir)
            .unwrap_or_default()
            .into_iter()
            .map(|(v, _)| VectorRef {
                claim: v.recipe.kind().family(),
                id: v.id,
                hostile: true,
            })
            .collect()
    }

    /// None: the state section judges the golden and hostile vectors (with generated ones when
    /// the run has no vectors folder).
    fn check_vectors(
        &self,
        _dir: &Path,
        _all: &[&dyn Implementation],
        _shard: Shard,
        _families: FamilySet,
        _once: &mut Section,
        _s: &mut Section,
    ) {
    }

    fn claims(&self) -> &'static [Family] {
        &[
            Family::Graph,
            Family::Grids,
            Family::GridSearch,
            Family::Replanning,
            Family::FlowField,
        ]
    }

    fn sections(&self, run: &Run<'_>) -> Vec<Section> {
        use crate::checks::state;
        run.host.enter("state");
        // The probes belong to shard 1; other shards run them too (they need the answers) but
        // leave no trace in a port's ledger, so merged request counts equal the unsharded run's
        // ([CONF.CLI.SHARD]).
        let mut found = None;
        let mut probe = || found = Some(state::probe(run.all, run.config));
        if run.config.shard.is_first() {
            probe();
        } else {
            run.host.without_trace(&mut probe);
        }
        let (section, probed) = found.expect("the probe ran");
        vec![match probed {
            Some(p) => state::run_probed(&p, run.config, section),
            None => section,
        }]
    }

    fn name_cases(&self, _host: &dyn Host, _config: &Config, _vectors: Option<&Path>) {
        // State requests are named by the vector or generated case that built them.
    }

    fn claim_of(&self, label: &str, what: &str) -> Option<Family> {
        let by_label = label.strip_prefix("STATE-").and_then(|rest| {
            KINDS
                .iter()
                .find(|k| rest.starts_with(&format!("{}-", k.tag())))
                .map(|k| k.family())
        });
        by_label.or_else(|| {
            Family::ALL
                .into_iter()
                .find(|f| what.contains(&format!("state_run:{}", f.name())))
        })
    }
}
