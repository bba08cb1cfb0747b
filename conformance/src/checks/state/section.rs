//! Running the `state` section: the once-per-run probes (state API, state kinds, the vector
//! list), counted in shard 1 only, and the per-case part of a shard ([CONF.CLI.SHARD]).

use super::super::{parallel_cases, Config};
use super::{
    call, call_as, dependent_finish, hostile, load, random_case, random_count, snapshot_count,
    snapshot_recipe, snapshots, valid, Ctx,
};
use crate::claims::Family;
use crate::implementation::Implementation;
use crate::prng::derive_seed;
use crate::report::{Failure, Section};
use crate::state::files::{HostileFile, StateVector};
use crate::state::layout::{try_walk, Field};
use crate::state::recipes::search_graph;
use crate::state::{StateKind, StateRecipe, StateRequest};
use indicatif::ProgressBar;

/// What the section's once-per-run probes found: the implementations with the state API, the
/// kinds each of them lacks, and the vectors to run.
pub struct Probed<'a> {
    active: Vec<&'a dyn Implementation>,
    missing: Vec<(usize, StateKind)>,
    vectors: Vec<(StateVector, HostileFile)>,
}

/// Runs the section.
pub fn run(
    all: &[&dyn Implementation],
    config: &Config,
    progress: Option<&ProgressBar>,
) -> Section {
    let _ = progress;
    let (s, probed) = probe(all, config);
    match probed {
        Some(p) => run_probed(&p, config, s),
        None => s,
    }
}

/// The once-per-run part of the section: probes the state API and each state kind of every
/// implementation and loads the vectors. Its failures (a missing API or kind, no vectors) are
/// counted in shard 1 only ([CONF.CLI.SHARD]); every shard needs what it found.
pub fn probe<'a>(all: &[&'a dyn Implementation], config: &Config) -> (Section, Option<Probed<'a>>) {
    let mut s = Section::new("state");
    let first = config.shard.is_first();
    let once = |s: &mut Section, f: Failure| {
        if first {
            s.fail(f)
        }
    };
    // The vectors of the selected families ([CONF.CLI.FAMILY]); read before the probe, which
    // needs a recipe of a selected family, and reported after it.
    let families = config.families;
    let loaded = load(all[0], config).map(|v| {
        v.into_iter()
            .filter(|(v, _)| families.contains(v.recipe.kind().family()))
            .collect::<Vec<_>>()
    });
    // Implementations without the state API fail once and are left out. The probes are a graph
    // recipe when the graph family is selected, then the first selected vector of each kind:
    // an implementation lacks the state API only when it answers every probe `unimplemented`
    // (a port with some kinds, [DRIVER.OP.STATE], is judged in those kinds).
    let mut probes: Vec<StateRecipe> = Vec::new();
    if families.contains(Family::Graph) {
        probes.push(StateRecipe::Graph(search_graph(1, 3)));
    }
    if let Ok(v) = &loaded {
        let mut kinds: Vec<StateKind> = Vec::new();
        for (vector, _) in v {
            let kind = vector.recipe.kind();
            if !kinds.contains(&kind) {
                kinds.push(kind);
                probes.push(vector.recipe.clone());
            }
        }
    }
    if probes.is_empty() {
        probes.push(StateRecipe::Graph(search_graph(1, 3)));
    }
    let mut active: Vec<&dyn Implementation> = Vec::new();
    for imp in all {
        let mut lacking = None;
        for recipe in &probes {
            let probe = StateRequest::Restore {
                recipe: recipe.clone(),
                bytes: None,
                finish: false,
            };
            match call(*imp, &probe) {
                Err(e) if e.is_unimplemented() => {
                    lacking.get_or_insert(e);
                }
                _ => {
                    lacking = None;
                    break;
                }
            }
        }
        match lacking {
            Some(e) => once(
                &mut s,
                Ctx { imp: *imp }.fail("-", "state API", "implemented", e),
            ),
            None => active.push(*imp),
        }
    }
    if active.is_empty() {
        return (s, None);
    }
    let vectors = match loaded {
        Ok(v) if !v.is_empty() => v,
        Ok(_) => {
            once(
                &mut s,
                Ctx { imp: all[0] }.fail("-", "state vectors", "at least one", "none"),
            );
            return (s, None);
        }
        Err(e) => {
            once(
                &mut s,
                Ctx { imp: all[0] }.fail("-", "state vectors", "valid files", e),
            );
            return (s, None);
        }
    };
    // [CONF.STATE.KIND_MISSING] Kinds an implementation does not implement (a port's unclaimed
    // family) fail once, at their first vector, and are left out of the rest of the section.
    let mut missing: Vec<(usize, StateKind)> = Vec::new();
    for (k, imp) in active.iter().enumerate() {
        let mut seen: Vec<StateKind> = Vec::new();
        for (v, _) in &vectors {
            let kind = v.recipe.kind();
            if seen.contains(&kind) {
                continue;
            }
            seen.push(kind);
            let probe = StateRequest::Restore {
                recipe: v.recipe.clone(),
                bytes: None,
                finish: false,
            };
            if let Err(e) = call_as(*imp, Some(&v.id), &probe) {
                if e.is_unimplemented() {
                    once(
                        &mut s,
                        Ctx { imp: *imp }.fail(
                            &v.id,
                            format!("state kind {} ({kind:?})", kind.code()),
                            "implemented",
                            e,
                        ),
                    );
                    missing.push((k, kind));
                }
            }
        }
    }
    (
        s,
        Some(Probed {
            active,
            missing,
            vectors,
        }),
    )
}

/// The per-case part of the section for `config.shard`: golden vectors with their hostile
/// cases (ordinal: the vector's position in [`load`]'s list), snapshot recipes and random cases.
pub fn run_probed(p: &Probed<'_>, config: &Config, mut s: Section) -> Section {
    let (active, missing, vectors) = (&p.active, &p.missing, &p.vectors);
    let supports = |k: usize, kind: StateKind| !missing.contains(&(k, kind));
    let parts = parallel_cases(config, vectors.len(), &["state"], |i, sec| {
        let (v, h) = &vectors[i];
        let mut first = None;
        for (k, imp) in active.iter().enumerate() {
            if !supports(k, v.recipe.kind()) {
                continue;
            }
            let c = Ctx { imp: *imp };
            valid(&c, v, &mut sec[0]);
            hostile(&c, v, h, &mut sec[0]);
            dependent_finish(*imp, v, &mut first, &mut sec[0]);
        }
    });
    for p in parts {
        s.merge(p);
    }
    let base = derive_seed(config.seed, 0x5747_E5A9);
    // The snapshot recipes are GraphAStar searches: graph family only ([CONF.CLI.FAMILY]).
    let snapshots_run = if config.families.contains(Family::Graph) {
        snapshot_count(config)
    } else {
        0
    };
    let parts = parallel_cases(config, snapshots_run, &["state"], |i, sec| {
        let seed = derive_seed(base, i as u64);
        snapshots(
            active,
            &format!("search#{seed}"),
            &snapshot_recipe(seed),
            &mut sec[0],
        );
    });
    for p in parts {
        s.merge(p);
    }
    // Loading checked each golden's hex and shape ([CONF.STATE.SHAPE]); a vector that still
    // fails either is left out of the random cases rather than trusted.
    let goldens: Vec<(StateVector, Vec<u8>, Vec<Field>)> = vectors
        .iter()
        .filter_map(|(v, _)| {
            let b = v.decoded().ok()?;
            let fields = try_walk(v.recipe.kind(), &b)?.fields;
            Some((v.clone(), b, fields))
        })
        .collect();
    let rbase = derive_seed(config.seed, 0xBAD_5EED);
    let parts = parallel_cases(config, random_count(config), &["state"], |i, sec| {
        random_case(active, &goldens, i, rbase, &supports, &mut sec[0])
    });
    for p in parts {
        s.merge(p);
    }
    s
}
