//! Flow fields (spec/flow-fields.md): hand-worked maps, creation checks and error classes, the
//! spec-literal oracle of `flow_support` on random square and hex maps, repair == recompute
//! after random edit scripts, sliced == unsliced, save -> restore -> save and the
//! grid-then-field restore order.
mod flow_support;

use flow_support::World;
use flow_support::*;
use onepath::*;

/// [FLOW.RUN.ITERATE] [FLOW.DIR.RULE] A 3 x 3 open map with the goal in a corner, by hand.
#[test]
fn hand_worked_three_by_three() {
    let mut g = Grid::new(3, 3).unwrap();
    let mut f = GridFlowField::new(&mut g, GridOptions::default(), &[(0, 0)]).unwrap();
    assert_eq!(f.status(), FlowStatus::NotStarted);
    assert_eq!(f.run(&g).unwrap(), FlowStatus::Complete);
    let d = f.describe();
    let r2 = SQRT_2;
    let want = [0.0, 1.0, 2.0, 1.0, r2, 1.0 + r2, 2.0, 1.0 + r2, r2 + r2];
    assert_eq!(bits(&d.costs), bits(&want));
    // (1, 0) -> W (0); (2, 1): N gives 1 + 2 = 3, W gives 1 + sqrt2, NW gives sqrt2 + 1
    // (equal, not strictly smaller): W = cell 4. (2, 2): NW (4) with 2 sqrt2.
    assert_eq!(
        d.next,
        vec![
            None,
            Some(0),
            Some(1),
            Some(0),
            Some(0),
            Some(4),
            Some(3),
            Some(4),
            Some(4)
        ]
    );
    assert_eq!(d.settled, 9);
    assert_eq!(f.path(2, 2).unwrap(), vec![8, 4, 0]);
    assert_eq!(f.path(0, 0).unwrap(), vec![0]);
    assert_eq!(f.cost(2, 2).unwrap(), r2 + r2);
    assert_eq!(f.next(2, 1).unwrap(), Some(4));
}

/// [FLOW.MOVE] [REPLAN.MOVE.COST] A cell's cost pays the multiplier of every cell its walk
/// enters (not the cell itself); walls cut corners under `NoneBlocked`; an unreachable cell has
/// no cost and an empty path.
#[test]
fn hand_worked_areas_and_walls() {
    let mut g = Grid::new(3, 2).unwrap();
    g.set_area_multiplier(1, 1.5).unwrap();
    g.set_cell(1, 0, 1).unwrap();
    g.set_cell(1, 1, WALL).unwrap();
    let mut f = GridFlowField::new(&mut g, GridOptions::default(), &[(0, 0)]).unwrap();
    f.run(&g).unwrap();
    // (1, 0) enters (0, 0): 1; (2, 0) enters (1, 0): 1.5 + 1; (0, 1): 1; (2, 1) from (2, 0)
    // straight: 1 + 2.5 (the diagonal to (1, 0) is cut by the wall at (1, 1)).
    let d = f.describe();
    assert_eq!(bits(&d.costs), bits(&[0.0, 1.0, 2.5, 1.0, INF, 3.5]));
    assert_eq!(d.next, vec![None, Some(0), Some(1), Some(0), None, Some(2)]);
    assert_eq!(f.path(1, 1).unwrap(), Vec::<u32>::new());
    assert_eq!(f.path(2, 1).unwrap(), vec![5, 2, 1, 0]);
    // Under `Always` the diagonal (2, 1) -> (1, 0) exists: sqrt2 * 1.5 + 1 = 3.12.. < 3.5.
    let o = GridOptions {
        diagonal: DiagonalRule::Always,
        ..GridOptions::default()
    };
    let mut f = GridFlowField::new(&mut g, o, &[(0, 0)]).unwrap();
    f.run(&g).unwrap();
    assert_eq!(
        f.cost(2, 1).unwrap().to_bits(),
        (SQRT_2 * 1.5 + 1.0).to_bits()
    );
    assert_eq!(f.next(2, 1).unwrap(), Some(1));
    assert_eq!(f.path(2, 1).unwrap(), vec![5, 1, 0]);
}

/// [FLOW.API.GOALS] Two goals, a repeated goal and a wall goal: the wall goal costs 0 and
/// nothing enters it; the goal set is distinct and increasing, the creation list kept.
#[test]
fn goals_repeated_and_walls() {
    let mut g = Grid::new(4, 1).unwrap();
    g.set_cell(3, 0, WALL).unwrap();
    let goals = [(3, 0), (0, 0), (3, 0)];
    let mut f = GridFlowField::new(&mut g, GridOptions::default(), &goals).unwrap();
    assert_eq!(f.goals(), &[3, 0, 3]);
    f.run(&g).unwrap();
    let d = f.describe();
    assert_eq!(bits(&d.costs), bits(&[0.0, 1.0, 2.0, 0.0]));
    assert_eq!(d.next, vec![None, Some(0), Some(1), None]);
    assert_eq!(d.settled, 4);
    assert_eq!(f.path(3, 0).unwrap(), vec![3]);
}

/// [FLOW.API.OPTIONS] [FLOW.API.GOALS] [FLOW.API.CLASSES] Check order and classes.
#[test]
fn creation_checks() {
    let mut g = Grid::new(4, 3).unwrap();
    let mut h = HexGrid::new(4, 3, HexLayout::OddR).unwrap();
    let class = |r: Result<GridFlowField, GridSearchError>| r.unwrap_err().class();
    let d = GridOptions::default;
    let bad_agent = GridOptions {
        agent_size: 0,
        heuristic_weight: 0.5,
        ..d()
    };
    let e = GridFlowField::new(&mut g, bad_agent, &[]).unwrap_err();
    assert_eq!(e.class(), "invalid_options");
    assert!(e.to_string().contains("agent_size"), "{e}");
    let weight = GridOptions {
        heuristic_weight: f64::NAN,
        ..d()
    };
    let e = GridFlowField::new(&mut g, weight, &[(0, 0)]).unwrap_err();
    assert!(e.to_string().contains("heuristic_weight"), "{e}");
    // The weight is ignored when valid, as are the algorithm and recording.
    let ignored = GridOptions {
        heuristic_weight: 3.0,
        algorithm: GridAlgorithm::Theta,
        record_expansions: true,
        ..d()
    };
    assert!(GridFlowField::new(&mut g, ignored, &[(0, 0)]).is_ok());
    let hooks = GridOptions {
        cell_cost: Some(std::sync::Arc::new(|_, _| 0.0)),
        blocked: Some(std::sync::Arc::new(|_| false)),
        ..d()
    };
    let e = GridFlowField::new(&mut g, hooks.clone(), &[]).unwrap_err();
    assert!(e.to_string().contains("cell_cost"), "{e}");
    let blocked = GridOptions {
        cell_cost: None,
        ..hooks
    };
    let e = GridFlowField::new(&mut g, blocked, &[(0, 0)]).unwrap_err();
    assert!(e.to_string().contains("blocked"), "{e}");
    // Hex: agent size 2 is invalid_options (before the goals); square accepts it.
    let big = GridOptions {
        agent_size: 2,
        ..d()
    };
    let e = HexFlowField::new(&mut h, big.clone(), &[]).unwrap_err();
    assert_eq!(e.class(), "invalid_options");
    assert!(GridFlowField::new(&mut g, big, &[(0, 0)]).is_ok());
    assert_eq!(class(GridFlowField::new(&mut g, d(), &[])), "invalid_goals");
    let many = vec![(0, 0); 13];
    assert_eq!(
        class(GridFlowField::new(&mut g, d(), &many)),
        "invalid_goals"
    );
    let twelve = vec![(1, 1); 12];
    assert!(GridFlowField::new(&mut g, d(), &twelve).is_ok());
    let e = GridFlowField::new(&mut g, d(), &[(0, 0), (4, 3), (9, 9)]).unwrap_err();
    assert_eq!(e.class(), "cell_out_of_range");
    assert!(e.to_string().contains("x = 4"), "{e}");
    let e = GridFlowField::new(&mut g, d(), &[(3, 3)]).unwrap_err();
    assert!(e.to_string().contains("y = 3"), "{e}");
    let e = HexFlowField::new(&mut h, d(), &[]).unwrap_err();
    assert_eq!(e.class(), "invalid_goals");
    // [FLOW.API.DETACH] Only successful creations registered a listener: the fields above
    // that exist registered one each (4 on g, 0 on h).
    let f = GridFlowField::new(&mut g, d(), &[(0, 0)]).unwrap();
    assert!(f.detach(&mut g));
    assert!(!f.detach(&mut g));
}

/// [FLOW.RUN.STEP] [FLOW.QUERY.CELL] [FLOW.PATH.WALK] Query checks and their order.
#[test]
fn query_checks() {
    let mut g = Grid::new(3, 2).unwrap();
    let mut f = GridFlowField::new(&mut g, GridOptions::default(), &[(0, 0)]).unwrap();
    assert_eq!(f.path(0, 0).unwrap_err().class(), "not_complete");
    assert_eq!(f.cost(3, 0).unwrap_err().class(), "cell_out_of_range");
    assert_eq!(f.next(0, 2).unwrap_err().class(), "cell_out_of_range");
    assert_eq!(f.cost(1, 1).unwrap(), INF);
    assert_eq!(f.step(&g, 2).unwrap(), FlowStatus::Running);
    assert_eq!(f.settled(), 2);
    assert_eq!(f.path(0, 0).unwrap_err().class(), "not_complete");
    assert_eq!(f.path(5, 0).unwrap_err().class(), "cell_out_of_range");
    let other = Grid::new(2, 3).unwrap();
    assert_eq!(f.step(&other, 0).unwrap_err().class(), "size_mismatch");
    assert_eq!(f.recompute(&other, 0).unwrap_err().class(), "size_mismatch");
    assert_eq!(f.settled(), 2);
    assert_eq!(f.step(&g, 0).unwrap(), FlowStatus::Complete);
    assert_eq!(f.settled(), 6);
    // A complete field without edits does nothing.
    assert_eq!(f.step(&g, 1).unwrap(), FlowStatus::Complete);
    assert_eq!(f.settled(), 6);
}

/// Every completed field equals the oracle, on random square and hex maps.
#[test]
fn fields_match_oracle() {
    let mut r = SeededRandom::new(0xF10E_0001);
    for case in 0..400 {
        let shape = random_shape(&mut r);
        let mut g = random_grid(&mut r, shape, 9);
        let goals = random_goals(&mut r, &g);
        let mut f = F::new(&mut g, options(shape), &goals);
        assert_eq!(f.run(&g).unwrap(), FlowStatus::Complete);
        let d = f.describe();
        let (cost, next) = World::of(&g, shape).solve(&d.goals);
        assert_eq!(bits(&d.costs), bits(&cost), "case {case} {shape:?}");
        assert_eq!(d.next, next, "case {case} {shape:?}");
        check_paths(&f, &g);
    }
}

/// [FLOW.PATH.WALK] Every reached cell's path ends at a goal, each step lowering the cost.
fn check_paths(f: &F, g: &G) {
    let d = f.describe();
    let w = g.width();
    for c in 0..d.costs.len() {
        let p = f.path(c % w, c / w).unwrap();
        if d.costs[c] == INF {
            assert!(p.is_empty());
            continue;
        }
        assert_eq!(p[0] as usize, c);
        assert!(d.goals.contains(p.last().unwrap()));
        for s in p.windows(2) {
            assert!(d.costs[s[1] as usize] < d.costs[s[0] as usize]);
        }
    }
}

/// One random edit: usually a cell, sometimes (one in `area_odds`) an area multiplier.
fn random_edit(r: &mut SeededRandom, g: &mut G, area_odds: u32) {
    if area_odds > 0 && r.next_int(area_odds) == 0 {
        let a = 1 + r.next_int(3) as u8;
        g.set_mult(a, MULTS[r.next_int(6) as usize]);
    } else {
        let (x, y) = (
            r.next_int(g.width() as u32) as usize,
            r.next_int(g.height() as u32) as usize,
        );
        let a = random_area(r);
        g.set(x, y, a);
    }
}

/// [FLOW.REPAIR.EQUAL] After every edit batch, a repaired field equals a field recomputed on
/// the edited grid and the oracle, bit for bit (costs and steps); repairs really happen.
#[test]
fn repair_equals_recompute() {
    let mut r = SeededRandom::new(0xF10E_0002);
    let mut repairs = 0;
    for case in 0..250 {
        let shape = random_shape(&mut r);
        let mut g = random_grid(&mut r, shape, 10);
        let goals = random_goals(&mut r, &g);
        let mut f = F::new(&mut g, options(shape), &goals);
        f.run(&g).unwrap();
        for round in 0..8 {
            let edits = 1 + r.next_int(4);
            for _ in 0..edits {
                random_edit(&mut r, &mut g, 25);
            }
            let pending = f.pending();
            let st = f.step(&g, 1).unwrap();
            if st == FlowStatus::Running && f.repairing() {
                repairs += 1;
            }
            assert!(pending > 0 || st == FlowStatus::Complete || !f.repairing());
            f.run(&g).unwrap();
            let mut fresh = F::new(&mut g, options(shape), &goals);
            fresh.run(&g).unwrap();
            let (a, b) = (f.describe(), fresh.describe());
            let what = format!("case {case} round {round} {shape:?}");
            assert_eq!(bits(&a.costs), bits(&b.costs), "{what}");
            assert_eq!(a.next, b.next, "{what}");
            let (cost, next) = World::of(&g, shape).solve(&a.goals);
            assert_eq!(bits(&a.costs), bits(&cost), "{what}");
            assert_eq!(a.next, next, "{what}");
            fresh.detach(&mut g);
        }
    }
    assert!(repairs > 500, "{repairs} repairs");
}

/// Steps `f` with `budget` until complete, counting calls.
fn finish(f: &mut F, g: &G, budget: u64) -> usize {
    let mut calls = 0;
    loop {
        calls += 1;
        let before = f.settled();
        let st = f.step(g, budget).unwrap();
        if st == FlowStatus::Complete {
            return calls;
        }
        assert!(f.settled() - before <= budget || f.settled() <= budget);
        assert!(calls < 100_000);
    }
}

/// [FLOW.RUN.LOOP] Sliced runs and repairs (budgets 1..=5) end with the bytes of unsliced
/// ones, and every slice's save equals the save of a field driven the same way.
#[test]
fn sliced_equals_unsliced() {
    let mut r = SeededRandom::new(0xF10E_0003);
    for case in 0..120 {
        let shape = random_shape(&mut r);
        let mut g = random_grid(&mut r, shape, 9);
        let goals = random_goals(&mut r, &g);
        let budget = 1 + (case % 5) as u64;
        let mut a = F::new(&mut g, options(shape), &goals);
        let mut b = F::new(&mut g, options(shape), &goals);
        for round in 0..5 {
            finish(&mut a, &g, budget);
            b.run(&g).unwrap();
            assert_eq!(a.save(), b.save(), "case {case} round {round}");
            for _ in 0..1 + r.next_int(3) {
                random_edit(&mut r, &mut g, 0);
            }
        }
    }
}

/// [FLOW.RUN.SETTLED] A sliced run stops after exactly the budget; the finish pass is free.
#[test]
fn budget_counts_iterations() {
    let mut g = Grid::new(4, 4).unwrap();
    let mut f = GridFlowField::new(&mut g, GridOptions::default(), &[(0, 0), (3, 3)]).unwrap();
    assert_eq!(f.step(&g, 3).unwrap(), FlowStatus::Running);
    assert_eq!(f.settled(), 3);
    assert_eq!(f.step(&g, 12).unwrap(), FlowStatus::Running);
    assert_eq!(f.settled(), 15);
    // [FLOW.RUN.LOOP] The emptiness test comes before the budget test: a budget that ends
    // exactly on the last pop finishes the run in the same call.
    assert_eq!(f.step(&g, 1).unwrap(), FlowStatus::Complete);
    assert_eq!(f.settled(), 16);
    // An iteration budget in the options drives `run`.
    let o = GridOptions {
        iteration_budget: 5,
        ..GridOptions::default()
    };
    let mut f = GridFlowField::new(&mut g, o, &[(0, 0)]).unwrap();
    assert_eq!(f.run(&g).unwrap(), FlowStatus::Running);
    assert_eq!(f.settled(), 5);
}

/// [FLOW.EDIT.LISTEN] [FLOW.EDIT.DURING_RUN] [FLOW.EDIT.AREAS] [FLOW.REPAIR.START] When a
/// step begins and when it repairs.
#[test]
fn edits_begin_or_repair() {
    let mut g = Grid::new(5, 5).unwrap();
    let mut f = GridFlowField::new(&mut g, GridOptions::default(), &[(0, 0)]).unwrap();
    // Not started: edits are not recorded.
    g.set_cell(2, 2, 1).unwrap();
    assert_eq!(f.pending_count(), 0);
    f.step(&g, 3).unwrap();
    // Running: recorded once per cell, in order of first edit; the next step begins again.
    g.set_cell(4, 4, 1).unwrap();
    g.set_cell(1, 4, 1).unwrap();
    g.set_cell(4, 4, 2).unwrap();
    assert_eq!(f.pending_count(), 2);
    assert_eq!(f.step(&g, 2).unwrap(), FlowStatus::Running);
    assert!(!f.is_repairing());
    assert_eq!(f.settled(), 2);
    assert_eq!(f.pending_count(), 0);
    f.run(&g).unwrap();
    // Complete: an edit is repaired.
    g.set_cell(4, 4, WALL).unwrap();
    assert_eq!(f.step(&g, 1).unwrap(), FlowStatus::Running);
    assert!(f.is_repairing());
    assert_eq!(f.settled(), 1);
    assert_eq!(f.run(&g).unwrap(), FlowStatus::Complete);
    assert!(!f.is_repairing());
    // An area edit reaches no listener; the next step begins (settles all 24 open cells).
    g.set_area_multiplier(2, 5.0).unwrap();
    assert_eq!(f.pending_count(), 0);
    assert_eq!(f.run(&g).unwrap(), FlowStatus::Complete);
    assert_eq!(f.settled(), 24);
    // Detached: edits are not seen.
    assert!(f.detach(&mut g));
    g.set_cell(3, 3, WALL).unwrap();
    assert_eq!(f.pending_count(), 0);
    assert_eq!(f.run(&g).unwrap(), FlowStatus::Complete);
    assert_eq!(f.settled(), 24);
    // A dropped field's listener does nothing.
    let f2 = GridFlowField::new(&mut g, GridOptions::default(), &[(0, 0)]).unwrap();
    drop(f2);
    g.set_cell(3, 3, 0).unwrap();
}

/// Drives a field a random amount: several slices of a run, possibly an edit and a repair
/// slice; returns the field.
fn random_history(r: &mut SeededRandom, g: &mut G, shape: Shape, goals: &[(usize, usize)]) -> F {
    let mut f = F::new(g, options(shape), goals);
    for _ in 0..r.next_int(7) {
        match r.next_int(3) {
            0 => {
                f.run(g).unwrap();
            }
            1 => {
                f.step(g, 1 + r.next_int(3) as u64).unwrap();
            }
            _ => {
                for _ in 0..1 + r.next_int(3) {
                    random_edit(r, g, 0);
                }
            }
        }
    }
    f
}

/// [FLOW.STATE.SAVE] [FLOW.STATE.RESTORE] [STATE.STABLE] save -> restore -> save gives equal
/// bytes (not started, mid-run, mid-repair, complete, with pending cells), and the restored
/// field continues exactly as the saved one.
#[test]
fn save_restore_round_trip() {
    let mut r = SeededRandom::new(0xF10E_0004);
    let (mut mid_repair, mut mid_run) = (0, 0);
    for case in 0..300 {
        let shape = random_shape(&mut r);
        let mut g = random_grid(&mut r, shape, 9);
        let goals = random_goals(&mut r, &g);
        let mut f = random_history(&mut r, &mut g, shape, &goals);
        mid_repair += f.repairing() as usize;
        mid_run += (f.status() == FlowStatus::Running && !f.repairing()) as usize;
        let bytes = f.save();
        let mut into = vec![1, 2, 3];
        f.save_into(&mut into);
        assert_eq!(into, bytes);
        let mut other = F::new(&mut g, options(shape), &goals);
        other.restore(&g, &bytes).unwrap();
        assert_eq!(other.save(), bytes, "case {case}");
        assert_eq!(other.describe(), f.describe(), "case {case}");
        // The same future: run both, edit, run both.
        let budget = r.next_int(4) as u64;
        let (sa, sb) = (f.step(&g, budget).unwrap(), other.step(&g, budget).unwrap());
        assert_eq!(sa, sb);
        assert_eq!(f.save(), other.save(), "case {case} after a step");
        random_edit(&mut r, &mut g, 0);
        f.run(&g).unwrap();
        other.run(&g).unwrap();
        assert_eq!(f.save(), other.save(), "case {case} after an edit");
    }
    assert!(mid_repair > 10 && mid_run > 10, "{mid_repair} {mid_run}");
}

/// [FLOW.STATE.ORDER] [FLOW.EDIT.GRID_RESTORE] Restore the grid, then the field: the grid's
/// restore reports to the listener, the field's restore replaces those pending cells, and the
/// field continues as saved. Restoring only the grid makes the next step begin again.
#[test]
fn grid_then_field_restore_order() {
    let mut r = SeededRandom::new(0xF10E_0005);
    for case in 0..150 {
        let shape = random_shape(&mut r);
        let mut g = random_grid(&mut r, shape, 9);
        let goals = random_goals(&mut r, &g);
        let mut f = random_history(&mut r, &mut g, shape, &goals);
        let (gs, fs) = (g.save(), f.save());
        // The saved future.
        let mut twin = F::new(&mut g, options(shape), &goals);
        twin.restore(&g, &fs).unwrap();
        twin.run(&g).unwrap();
        let want = twin.save();
        twin.detach(&mut g);
        // Diverge: edits and a run, then roll back.
        for _ in 0..1 + r.next_int(4) {
            random_edit(&mut r, &mut g, 8);
        }
        f.run(&g).unwrap();
        g.restore(&gs);
        f.restore(&g, &fs).unwrap();
        assert_eq!(f.save(), fs, "case {case}");
        f.run(&g).unwrap();
        assert_eq!(f.save(), want, "case {case}");
        // Only the grid restored: the field begins again and ends as a fresh one.
        g.restore(&gs);
        f.run(&g).unwrap();
        let mut fresh = F::new(&mut g, options(shape), &goals);
        fresh.run(&g).unwrap();
        assert_eq!(bits(&f.describe().costs), bits(&fresh.describe().costs));
        assert_eq!(f.describe().next, fresh.describe().next);
        fresh.detach(&mut g);
    }
}

/// [FLOW.API.NEW] A square field's bytes restore into a hex field of the same size and are
/// read structurally.
#[test]
fn square_bytes_restore_into_hex() {
    let mut g = Grid::new(4, 3).unwrap();
    let mut f = GridFlowField::new(&mut g, GridOptions::default(), &[(1, 1)]).unwrap();
    f.run(&g).unwrap();
    let bytes = f.save_state();
    let mut h = HexGrid::new(4, 3, HexLayout::EvenQ).unwrap();
    let mut x = HexFlowField::new(&mut h, GridOptions::default(), &[(1, 1)]).unwrap();
    x.restore_state(&h, &bytes).unwrap();
    assert_eq!(x.save_state(), bytes);
    assert_eq!(x.describe(), f.describe());
}

/// [FLOW.REPAIR.REGION] Agent size 2: a wall edit changes the passability of the cells up and
/// left of it; repair and recompute agree through many wall edits on a larger map.
#[test]
fn agent_size_repairs() {
    let mut r = SeededRandom::new(0xF10E_0006);
    let shape = Shape::Square {
        k: 2,
        four: false,
        rule: DiagonalRule::AtMostOneBlocked,
    };
    let mut g = G::new(shape, 30, 20);
    let goals = [(0, 0), (29, 19)];
    let mut f = F::new(&mut g, options(shape), &goals);
    f.run(&g).unwrap();
    for round in 0..60 {
        for _ in 0..1 + r.next_int(3) {
            let (x, y) = (r.next_int(30) as usize, r.next_int(20) as usize);
            let a = if r.next_int(3) == 0 { 0 } else { WALL };
            g.set(x, y, a);
        }
        f.run(&g).unwrap();
        let (cost, next) = World::of(&g, shape).solve(&f.describe().goals);
        assert_eq!(bits(&f.describe().costs), bits(&cost), "round {round}");
        assert_eq!(f.describe().next, next, "round {round}");
    }
}

/// [FLOW.RUN.RECOMPUTE] Recompute begins again and steps with its own budget.
#[test]
fn recompute_begins() {
    let mut g = Grid::new(6, 6).unwrap();
    let mut f = GridFlowField::new(&mut g, GridOptions::default(), &[(0, 0)]).unwrap();
    f.run(&g).unwrap();
    assert_eq!(f.recompute(&g, 4).unwrap(), FlowStatus::Running);
    assert_eq!(f.settled(), 4);
    assert_eq!(f.recompute(&g, 0).unwrap(), FlowStatus::Complete);
    assert_eq!(f.settled(), 36);
}

/// [FLOW.RUN.OPEN] [STATE.HEAP.UPDATE] Mid-run costs and the saved open set, slot by slot,
/// equal a literal begun run with a textbook heap after every number of iterations.
#[test]
fn mid_run_heap_matches_literal_run() {
    let mut r = SeededRandom::new(0xF10E_0007);
    for case in 0..60 {
        let shape = random_shape(&mut r);
        let mut g = random_grid(&mut r, shape, 8);
        let goals = random_goals(&mut r, &g);
        let world = World::of(&g, shape);
        let n = g.width() * g.height();
        let mut f = F::new(&mut g, options(shape), &goals);
        let gs = {
            let mut v = f.describe().goals;
            v.sort_unstable();
            v.dedup();
            v
        };
        let mut done = 0;
        for k in 1..=n + 1 {
            if f.status() == FlowStatus::Complete {
                break;
            }
            f.step(&g, 1).unwrap();
            done += 1;
            if f.status() == FlowStatus::Complete {
                break;
            }
            let (cost, heap) = sim_begun(&world, &gs, k);
            assert_eq!(bits(&f.describe().costs), bits(&cost), "case {case} k {k}");
            let got = saved_open(&f.save());
            let key = |h: &[(u32, f64, f64)]| {
                h.iter()
                    .map(|e| (e.0, e.1.to_bits(), e.2.to_bits()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(key(&got), key(&heap), "case {case} k {k}");
        }
        assert!(done > 0);
    }
}

/// [FLOW.STATE.STRUCTURAL] [STATE.HEAP.ARRAY] A restored open set whose entries have `f != g`
/// (accepted when in heap order) pops and updates by the full `(f, g, node)` order: the costs and
/// the heap equal a literal run from the same state after every iteration.
#[test]
fn mixed_keys_follow_the_full_order() {
    let mut r = SeededRandom::new(0xF10E_0008);
    let mut mixed = 0;
    for case in 0..300 {
        let shape = random_shape(&mut r);
        let mut g = random_grid(&mut r, shape, 8);
        let goals = random_goals(&mut r, &g);
        let world = World::of(&g, shape);
        let mut f = F::new(&mut g, options(shape), &goals);
        f.step(&g, 1 + r.next_int(6) as u64).unwrap();
        if f.status() != FlowStatus::Running {
            continue;
        }
        // Rewrite each slot's g (f is kept, so only ties on f see it).
        let mut b = f.save();
        let heap = saved_open(&b);
        let open_at = b.len() - 20 * heap.len();
        for i in 0..heap.len() {
            let v: f64 = [0.0, 1.0, 2.5, 7.0][r.next_int(4) as usize];
            let at = open_at + 20 * i + 12;
            b[at..at + 8].copy_from_slice(&v.to_bits().to_le_bytes());
        }
        let mut x = F::new(&mut g, options(shape), &goals);
        if x.restore(&g, &b).is_err() {
            continue;
        }
        mixed += 1;
        let cost0 = x.describe().costs;
        let heap0 = saved_open(&b);
        for k in 1..=6 {
            x.step(&g, 1).unwrap();
            if x.status() == FlowStatus::Complete {
                break;
            }
            let (cost, heap) = sim_from(&world, cost0.clone(), heap0.clone(), &[], k);
            assert_eq!(bits(&x.describe().costs), bits(&cost), "case {case} k {k}");
            let key = |h: &[(u32, f64, f64)]| {
                h.iter()
                    .map(|e| (e.0, e.1.to_bits(), e.2.to_bits()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(key(&saved_open(&x.save())), key(&heap), "case {case} k {k}");
        }
    }
    assert!(mixed > 50, "{mixed}");
}
