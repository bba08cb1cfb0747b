//! The grid-search fuzz targets (see `fuzzing/mod.rs` for the conventions): `grid_search` (a small
//! fuzzed map, options and query through every API in both crates, checked against each other
//! and the oracle, and sliced/snapshotted = whole; the oracle and the sliced runs on one input in
//! [`super::DEEP_ONE_IN`], [`super::deep`], issue 36) and `state_restore_grid_search` (hostile
//! bytes of kinds 8, 9, 10 and 12 restored into host searches of both crates).

use super::{deep, Finding};
use crate::adapters::{OptimizedCrate, ReferenceCrate};
use crate::checks::grid_search::{oracle_problem, sliced_problem, truth};
use crate::grid::cases::apis;
use crate::grid::oracle::MoveGraph;
use crate::grid::{
    first_difference, CellBlockRule, CellCostRule, GridApi, GridMap, GridOptionsData, GridRequest,
};
use crate::implementation::Implementation;
use crate::state::layout::not_started_bytes;
use crate::state::{StateRecipe, StateRequest};
use arbitrary::Unstructured;

type Res<T> = arbitrary::Result<T>;

/// A decoded `grid_search` input.
#[derive(Clone, Debug)]
pub struct GridInput {
    /// The request (api and schedule set per run).
    pub request: GridRequest,
    /// Budgets of the sliced run.
    pub schedule: Vec<u64>,
    /// Snapshot point of the sliced run.
    pub snapshot: Option<usize>,
}

/// Decodes a small map (1-12 per side), options, a query and a schedule.
pub fn decode_grid(data: &[u8]) -> Res<GridInput> {
    let mut u = Unstructured::new(data);
    let width = u.int_in_range(1..=12u32)?;
    let height = u.int_in_range(1..=12u32)?;
    let density = u.int_in_range(0..=6u8)?;
    let areas = u.ratio(1, 3)?;
    let mut cells = Vec::with_capacity((width * height) as usize);
    for _ in 0..width * height {
        let r = u.int_in_range(0..=15u8)?;
        cells.push(if r < density * 2 {
            255
        } else if areas && r >= 13 {
            r - 12
        } else {
            0
        });
    }
    let multipliers = if areas {
        vec![(1, 0.5), (2, 3.0), (3, 1.0)]
    } else {
        vec![]
    };
    let options = GridOptionsData {
        agent_size: *u.choose(&[1, 1, 1, 2, 3])?,
        connectivity: *u.choose(&[8, 8, 4])?,
        diagonal: u.int_in_range(0..=2)?,
        algorithm: u.int_in_range(0..=5)?,
        cell_cost: match u.int_in_range(0..=5u8)? {
            0 => Some(CellCostRule::ExtraWhere {
                modulus: u.int_in_range(1..=7)?,
                extra: *u.choose(&[0.0, -0.0, 0.25, 1.0, 1e-300, 1e300])?,
            }),
            1 => Some(CellCostRule::InvalidWhere {
                modulus: u.int_in_range(1..=9)?,
            }),
            _ => None,
        },
        blocked: if u.ratio(1, 5)? {
            Some(CellBlockRule {
                modulus: u.int_in_range(1..=9)?,
                residue: u.int_in_range(0..=8)?,
            })
        } else {
            None
        },
        weight: *u.choose(&[1.0, 1.0, 1.0, 1.5, 2.0])?,
        record: u.ratio(3, 4)?,
        budget: 0,
    };
    let cell = |u: &mut Unstructured| -> Res<(u32, u32)> {
        Ok((
            u.int_in_range(0..=width - 1)?,
            u.int_in_range(0..=height - 1)?,
        ))
    };
    let start = cell(&mut u)?;
    let goal = cell(&mut u)?;
    let n = u.int_in_range(1..=3usize)?;
    let mut schedule = Vec::new();
    for _ in 0..n {
        schedule.push(u.int_in_range(1..=9u64)?);
    }
    let snapshot = if u.ratio(2, 3)? {
        Some(u.int_in_range(1..=6usize)?)
    } else {
        None
    };
    Ok(GridInput {
        request: GridRequest {
            map: GridMap {
                width,
                height,
                cells,
                multipliers,
                space: None,
            },
            options,
            api: GridApi::Tier1,
            start,
            goal,
            schedule: vec![],
            snapshot_after: None,
        },
        schedule,
        snapshot,
    })
}

/// `grid_search`: every applicable API; both crates equal; the reference's reply passes the
/// oracle; the sliced (and snapshotted) run equals the whole run, on the reference crate for an
/// input of even length and on `onepath` for one of odd length.
pub fn grid_search(data: &[u8]) -> Result<(), Finding> {
    let Ok(input) = decode_grid(data) else {
        return Ok(());
    };
    // The sliced runs on one crate per input, by the input's length (issue 36): the crates'
    // whole replies are equal, so each crate's sliced run is compared with the same reply.
    let on: &dyn Implementation = if data.len().is_multiple_of(2) {
        &ReferenceCrate
    } else {
        &OptimizedCrate
    };
    // The oracle and the sliced runs on one input in DEEP_ONE_IN (issue 36); the crates' whole
    // replies on every input.
    let deep = deep(data);
    let ons = [on];
    check_grid_on(&input, if deep { &ons } else { &[] }, deep)
}

/// The checks of [`grid_search`] on a decoded input, the sliced runs on both crates.
pub fn check_grid(input: &GridInput) -> Result<(), Finding> {
    check_grid_on(input, &[&ReferenceCrate, &OptimizedCrate], true)
}

/// As [`check_grid`], with the sliced (and snapshotted) runs only on `sliced_on` and the oracle
/// only when `with_oracle` is set.
pub fn check_grid_on(
    input: &GridInput,
    sliced_on: &[&dyn Implementation],
    with_oracle: bool,
) -> Result<(), Finding> {
    let base = &input.request;
    let oracle = with_oracle.then(|| {
        let g = MoveGraph::new(&base.map, &base.options);
        let t = truth(&g, base.map.width, base.start, base.goal);
        (g, t)
    });
    for api in apis(&base.map, &base.options) {
        let mut req = base.clone();
        req.api = api;
        let a = ReferenceCrate.run_grid(&req)?;
        let b = OptimizedCrate.run_grid(&req)?;
        if let Some((what, e, f)) = first_difference(&a, &b) {
            return Err(Finding::new(format!(
                "{api:?} {}: {what}: expected {e}, found {f}",
                base.options.label()
            )));
        }
        let Ok(full) = &a else {
            return Err(Finding::new(format!(
                "{api:?} {}: unexpected error {:?}",
                base.options.label(),
                a.err()
            )));
        };
        let problem = oracle
            .as_ref()
            .and_then(|(g, t)| oracle_problem(g, &req, full, t));
        if let Some((what, e, f)) = problem {
            return Err(Finding::new(format!(
                "{api:?} {}: oracle: {what}: expected {e}, found {f}",
                base.options.label()
            )));
        }
        if api == GridApi::Tier1 || sliced_on.is_empty() {
            continue;
        }
        let mut sl = req.clone();
        sl.schedule = input.schedule.clone();
        sl.snapshot_after = input.snapshot;
        for &imp in sliced_on {
            let got = imp.run_grid(&sl).unwrap_or_else(|e| Err(e.to_string()));
            if let Some((what, e, f)) = sliced_problem(full, &got, input.snapshot.is_some()) {
                return Err(Finding::new(format!(
                    "{} {api:?} {} sliced {:?}/{:?}: {what}: expected {e}, found {f}",
                    imp.name(),
                    base.options.label(),
                    input.schedule,
                    input.snapshot
                )));
            }
        }
    }
    Ok(())
}

/// The host searches of `state_restore_grid_search`: a 9 x 7 map with a wall, each search begun
/// at (0, 0) → (8, 6) and stepped 3 times. Index by the input's first byte.
pub fn grid_state_hosts() -> Vec<StateRecipe> {
    let edits: Vec<(u32, u32, u8)> = vec![
        (3, 1, 255),
        (3, 2, 255),
        (3, 3, 255),
        (3, 4, 255),
        (6, 2, 255),
        (6, 3, 255),
        (5, 5, 255),
    ];
    let host = |search: GridApi, options: GridOptionsData, areas: bool| StateRecipe::GridSearch {
        width: 9,
        height: 7,
        space: None,
        area_multipliers: if areas { vec![(1, 2.5)] } else { vec![] },
        edits: if areas {
            edits
                .iter()
                .copied()
                .chain([(1, 1, 1), (2, 5, 1)])
                .collect()
        } else {
            edits.clone()
        },
        search,
        options,
        start: Some((0, 0)),
        goal: Some((8, 6)),
        steps: vec![3],
        run: false,
    };
    let o = |algorithm: u8| GridOptionsData {
        algorithm,
        ..GridOptionsData::default()
    };
    vec![
        host(
            GridApi::AStar,
            GridOptionsData {
                weight: 1.5,
                ..o(0)
            },
            true,
        ),
        host(GridApi::Jump, o(2), false),
        host(GridApi::Theta, o(5), false),
        host(GridApi::Handle, o(0), false),
        host(GridApi::Handle, o(1), true),
        host(
            GridApi::Handle,
            GridOptionsData {
                agent_size: 2,
                ..o(2)
            },
            false,
        ),
        host(GridApi::Handle, o(2), false),
        host(GridApi::Handle, o(3), false),
    ]
}

/// `state_restore_grid_search`: the first byte picks a host, the rest is restored into it in
/// both crates: the same result (class and offset); accepted bytes re-encode unchanged and the
/// search finishes identically; a rejected restore leaves the NotStarted (mode 0) bytes.
pub fn state_restore_grid_search(data: &[u8]) -> Result<(), Finding> {
    let hosts = grid_state_hosts();
    let Some((&pick, bytes)) = data.split_first() else {
        return Ok(());
    };
    let host = &hosts[pick as usize % hosts.len()];
    let mut seen = Vec::new();
    for imp in [&ReferenceCrate as &dyn Implementation, &OptimizedCrate] {
        let r = imp.run_state(&StateRequest::Restore {
            recipe: host.clone(),
            bytes: Some(bytes.to_vec()),
            finish: false,
        })?;
        let f = imp.run_state(&StateRequest::Restore {
            recipe: host.clone(),
            bytes: Some(bytes.to_vec()),
            finish: true,
        })?;
        match &r.restore {
            Some(Ok(())) if r.after != bytes => {
                return Err(Finding::new(format!(
                    "{}: accepted state re-encodes differently",
                    imp.name()
                )))
            }
            Some(Err(e)) if r.after != not_started_bytes(host) => {
                return Err(Finding::new(format!(
                    "{}: after a failed restore ({e}) the save is not the NotStarted bytes",
                    imp.name()
                )))
            }
            None => return Err(Finding::new(format!("{}: no restore result", imp.name()))),
            _ => {}
        }
        seen.push((r.restore, r.after, f.after, f.search));
    }
    if seen[0] != seen[1] {
        return Err(Finding::new(format!(
            "restore: expected {:?} (then {:?}), found {:?} (then {:?})",
            seen[0].0,
            seen[0]
                .3
                .as_ref()
                .map(|s| (s.status, s.iterations, s.cost_bits)),
            seen[1].0,
            seen[1]
                .3
                .as_ref()
                .map(|s| (s.status, s.iterations, s.cost_bits))
        )));
    }
    Ok(())
}

/// Seeds of `state_restore_grid_search` saved by `imp`: `[host index] ++ host bytes` after 0, 1
/// and 3 steps and at the end.
pub fn grid_state_seeds(imp: &dyn Implementation) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for (i, host) in grid_state_hosts().iter().enumerate() {
        for (steps, run) in [
            (vec![], false),
            (vec![1], false),
            (vec![3], false),
            (vec![], true),
        ] {
            let name = format!(
                "host{i}-{}",
                if run {
                    "end".to_string()
                } else {
                    format!("steps{}", steps.iter().sum::<u64>())
                }
            );
            let recipe = host.with_schedule(steps, run);
            if let Ok(r) = imp.run_state(&StateRequest::Restore {
                recipe,
                bytes: None,
                finish: false,
            }) {
                let mut b = vec![i as u8];
                b.extend(r.before);
                out.push((name, b));
            }
        }
    }
    out
}
