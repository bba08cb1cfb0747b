//! The `graph` family: graphs, graph searches, links and landmarks — the oracle, differential,
//! landmarks, sliced, links, hooks, cancel and errors sections, and the scenario files under
//! `vectors/graphs/` with their hash matrix.

use super::{Host, KitFamily, Run, VectorRef};
use crate::checks::{cancel, errors, generated, hooks, landmarks, links, sliced};
use crate::claims::Family;
use crate::config::{Config, FamilySet, Shard};
use crate::implementation::Implementation;
use crate::prng::derive_seed;
use crate::report::Section;
use std::collections::BTreeMap;
use std::path::Path;

/// The registry entry.
pub struct Graph;

impl KitFamily for Graph {
    fn name(&self) -> &'static str {
        "graph"
    }

    fn generate(
        &self,
        imp: &dyn Implementation,
        _earlier: &BTreeMap<String, Vec<u8>>,
    ) -> BTreeMap<String, Vec<u8>> {
        crate::vectors::generate_graph_files(imp)
    }

    fn vectors(&self, dir: &Path) -> Vec<VectorRef> {
        crate::vectors::read_scenarios(dir)
            .unwrap_or_default()
            .into_iter()
            .map(|s| VectorRef {
                id: s.id,
                claim: Family::Graph,
                hostile: false,
            })
            .collect()
    }

    /// [CONF.CHECK.VECTORS] Scenarios re-run, hashes and matrix cells recomputed, per implementation.
    fn check_vectors(
        &self,
        dir: &Path,
        all: &[&dyn Implementation],
        shard: Shard,
        _families: FamilySet,
        once: &mut Section,
        s: &mut Section,
    ) {
        crate::vectors::check_graph_vectors(dir, all, shard, once, s)
    }

    fn claims(&self) -> &'static [Family] {
        &[Family::Graph]
    }

    fn sections(&self, run: &Run<'_>) -> Vec<Section> {
        let (all, config, progress) = (run.all, run.config, run.progress);
        run.host.enter("differential");
        let mut out = generated::run(run.reference, run.candidates, config, progress);
        let rest: [(&str, &dyn Fn() -> Section); 6] = [
            ("landmarks", &|| landmarks::run(all, config, progress)),
            ("sliced", &|| sliced::run(all, config, progress)),
            ("links", &|| links::run(all, config, progress)),
            ("hooks", &|| hooks::run(all, config, progress)),
            ("cancel", &|| cancel::run(all, config, progress)),
            ("errors", &|| errors::run_shard(all, config.shard)),
        ];
        for (name, section) in rest {
            run.host.enter(name);
            out.push(section());
        }
        out
    }

    fn name_cases(&self, host: &dyn Host, config: &Config, vectors: Option<&Path>) {
        for s in vectors
            .and_then(|d| crate::vectors::read_scenarios(d).ok())
            .unwrap_or_default()
        {
            host.name_case(&s.case(), &s.id);
        }
        let seed = config.seed;
        for i in 0..config.oracle_graphs {
            let (name, g) = generated::generated_case(seed, i);
            host.name_case(&g.case, &name);
        }
        for (base, count) in [
            (derive_seed(seed, 0x511CED), config.sliced_graphs),
            (derive_seed(seed, 0x400C5), config.hook_graphs),
            (derive_seed(seed, 0xCA9CE1), config.cancel_graphs),
        ] {
            for i in 0..count {
                let (name, g) = generated::generated_case(base, i);
                host.name_case(&g.case, &name);
            }
        }
        for (name, case, _) in cancel::hand_cases() {
            host.name_case(&case, &name);
        }
        for (name, case, ..) in hooks::hand_cases() {
            host.name_case(&case, &name);
        }
        for i in 0..config.landmark_graphs {
            let (name, case, _) = landmarks::landmark_case(seed, i);
            host.name_case(&case, &name);
        }
        for i in 0..config.link_sets {
            let (name, req) = links::link_case(seed, i);
            host.name_links(&req, &name);
        }
        for (name, script) in errors::scripts() {
            let ops: Vec<_> = script.into_iter().map(|(op, _)| op).collect();
            let short: String = name
                .split(']')
                .next()
                .map(|s| format!("{s}]"))
                .unwrap_or_else(|| name.to_string());
            host.name_ops(&ops, &format!("errors {short}"));
        }
    }

    fn claim_of(&self, label: &str, _what: &str) -> Option<Family> {
        label.starts_with("GRAPH-").then_some(Family::Graph)
    }
}
