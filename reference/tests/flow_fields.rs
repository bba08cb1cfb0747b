//! Hand-worked flow fields and repair = recompute on seeded edit scripts (spec/flow-fields.md).

use onepath_reference::{
    FlowStatus, Grid, GridFlowField, GridOptions, HexFlowField, HexGrid, HexLayout, SeededRandom,
    WALL,
};

fn opts() -> GridOptions {
    GridOptions::default()
}

#[test]
fn a_corridor_costs_one_per_cell_and_points_to_the_goal() {
    // [FLOW.RUN.ITERATE] [FLOW.DIR.RULE]
    let mut grid = Grid::new(3, 1).unwrap();
    let mut f = GridFlowField::new(&mut grid, opts(), &[(0, 0)]).unwrap();
    assert_eq!(f.run(&grid).unwrap(), FlowStatus::Complete);
    assert_eq!(f.cost(0, 0).unwrap(), 0.0);
    assert_eq!(f.cost(1, 0).unwrap(), 1.0);
    assert_eq!(f.cost(2, 0).unwrap(), 2.0);
    assert_eq!(f.next(2, 0).unwrap(), Some(1));
    assert_eq!(f.next(0, 0).unwrap(), None);
    assert_eq!(f.path(2, 0).unwrap(), vec![2, 1, 0]);
    assert_eq!(f.settled(), 3);
}

#[test]
fn a_diagonal_costs_sqrt_two_and_ties_pick_the_first_neighbour() {
    // [FLOW.DIR.RULE] From (1,1) toward goals (0,0): W (0,1) costs 1 + 1 = 2, N (1,0) 1 + 1 = 2,
    // NW (0,0) sqrt 2 — the diagonal wins; from (2,0) only W.
    let mut grid = Grid::new(3, 3).unwrap();
    let mut f = GridFlowField::new(&mut grid, opts(), &[(0, 0)]).unwrap();
    f.run(&grid).unwrap();
    assert_eq!(f.cost(1, 1).unwrap(), std::f64::consts::SQRT_2);
    assert_eq!(f.next(1, 1).unwrap(), Some(0));
    // (2,1): N (2,0) = 2 + 1 = 3; W (1,1) = sqrt2 + 1; NW (1,0) = 1 + sqrt2: equal to W's value,
    // W comes first in [GS.DIR] order.
    assert_eq!(f.next(2, 1).unwrap(), Some(4));
}

fn field_bits(f: &GridFlowField, w: usize, h: usize) -> Vec<(u64, Option<u32>)> {
    let mut out = Vec::new();
    for y in 0..h {
        for x in 0..w {
            out.push((f.cost(x, y).unwrap().to_bits(), f.next(x, y).unwrap()));
        }
    }
    out
}

#[test]
fn repair_equals_recompute_on_seeded_edit_scripts() {
    // [FLOW.REPAIR.EQUAL]
    for seed in 0..40u64 {
        let mut rng = SeededRandom::new(seed);
        let (w, h) = (3 + rng.next_int(14) as usize, 3 + rng.next_int(14) as usize);
        let mut grid = Grid::new(w, h).unwrap();
        for a in 1..4u8 {
            grid.set_area_multiplier(a, 1.0 + f64::from(a) * 0.75)
                .unwrap();
        }
        for y in 0..h {
            for x in 0..w {
                let r = rng.next_int(10);
                let v = if r < 2 { WALL } else { (r % 4) as u8 };
                grid.set_cell(x, y, v).unwrap();
            }
        }
        let mut o = opts();
        o.agent_size = 1 + rng.next_int(2);
        let goals = [(0, 0), (w - 1, h - 1), (w / 2, h / 2)];
        let mut f =
            GridFlowField::new(&mut grid, o.clone(), &goals[..1 + seed as usize % 3]).unwrap();
        f.run(&grid).unwrap();
        for round in 0..15 {
            for _ in 0..1 + rng.next_int(4) {
                let (x, y) = (
                    rng.next_int(w as u32) as usize,
                    rng.next_int(h as u32) as usize,
                );
                let r = rng.next_int(10);
                let v = if r < 3 { WALL } else { (r % 4) as u8 };
                grid.set_cell(x, y, v).unwrap();
            }
            let budget = u64::from(rng.next_int(4));
            while f.step(&grid, budget).unwrap() != FlowStatus::Complete {}
            let mut fresh =
                GridFlowField::new(&mut grid, o.clone(), &goals[..1 + seed as usize % 3]).unwrap();
            fresh.run(&grid).unwrap();
            assert_eq!(
                field_bits(&f, w, h),
                field_bits(&fresh, w, h),
                "seed {seed} round {round}"
            );
        }
    }
}

#[test]
fn save_restore_mid_repair_continues_identically() {
    // [FLOW.STATE.RESTORE] [STATE.STABLE]
    let mut grid = Grid::new(12, 9).unwrap();
    let mut f = GridFlowField::new(&mut grid, opts(), &[(1, 1), (10, 7)]).unwrap();
    f.run(&grid).unwrap();
    for x in 2..9 {
        grid.set_cell(x, 4, WALL).unwrap();
    }
    assert_eq!(f.step(&grid, 3).unwrap(), FlowStatus::Running);
    assert!(f.is_repairing());
    let bytes = f.save_state();
    let grid_bytes = grid.save_state();
    let mut a = Vec::new();
    while f.step(&grid, 2).unwrap() != FlowStatus::Complete {
        a.push(f.save_state());
    }
    let end = f.save_state();
    grid.set_cell(0, 0, WALL).unwrap();
    grid.restore_state(&grid_bytes).unwrap();
    f.restore_state(&grid, &bytes).unwrap();
    assert_eq!(f.save_state(), bytes);
    let mut b = Vec::new();
    while f.step(&grid, 2).unwrap() != FlowStatus::Complete {
        b.push(f.save_state());
    }
    assert_eq!(a, b);
    assert_eq!(f.save_state(), end);
}

#[test]
fn a_failed_restore_leaves_the_field_unusable_until_recompute() {
    // [FLOW.STATE.UNUSABLE]
    let mut grid = Grid::new(4, 4).unwrap();
    let mut f = GridFlowField::new(&mut grid, opts(), &[(0, 0)]).unwrap();
    f.run(&grid).unwrap();
    let mut bytes = f.save_state();
    bytes.push(0);
    let e = f.restore_state(&grid, &bytes).unwrap_err();
    assert_eq!(e.class(), "trailing_bytes");
    assert!(!f.is_usable());
    assert_eq!(f.cost(1, 1).unwrap_err().class(), "unusable");
    assert_eq!(f.step(&grid, 0).unwrap_err().class(), "unusable");
    assert_eq!(f.recompute(&grid, 0).unwrap(), FlowStatus::Complete);
    assert_eq!(f.cost(1, 1).unwrap(), std::f64::consts::SQRT_2);
}

#[test]
fn hex_fields_cost_one_per_step() {
    // [FLOW.MOVE] [GRID.HEX.COST]
    let mut grid = HexGrid::new(5, 5, HexLayout::OddR).unwrap();
    let mut f = HexFlowField::new(&mut grid, opts(), &[(2, 2)]).unwrap();
    f.run(&grid).unwrap();
    assert_eq!(f.cost(0, 0).unwrap(), 3.0);
    assert_eq!(f.path(0, 0).unwrap().len(), 4);
}
