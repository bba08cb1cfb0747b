//! Flow-field state bytes (spec/flow-fields.md §6): every check of [FLOW.STATE.HEADER_CHECKS]
//! and [FLOW.STATE.SEARCH_CHECKS] with its class and offset, truncations at every length,
//! trailing bytes, the unusable field after a failed restore ([FLOW.STATE.UNUSABLE]) and
//! inconsistent but accepted states ([FLOW.STATE.STRUCTURAL], [FLOW.PATH.BROKEN]).
mod flow_support;

use flow_support::*;
use onepath::*;
use std::collections::HashMap;

/// A kind-7 state written field by field, with every field's offset by name.
#[derive(Clone)]
struct St {
    w: i32,
    h: i32,
    area: i32,
    goals: Vec<i32>,
    pending: Vec<i32>,
    nodes: i32,
    status: u8,
    settled: i32,
    repairing: u8,
    goal_set: Vec<i32>,
    reached: Vec<(i32, f64)>,
    steps: Vec<(i32, i32)>,
    open: Vec<(i32, f64, f64)>,
    touched: Option<Vec<i32>>,
    /// Overrides of a count field: (name, value).
    counts: Vec<(&'static str, i32)>,
}

impl St {
    fn bytes(&self) -> (Vec<u8>, HashMap<String, usize>) {
        let mut b = Vec::new();
        let mut at = HashMap::new();
        b.extend_from_slice(b"OPGS");
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&7u16.to_le_bytes());
        let count = |name: &str, n: usize| {
            self.counts
                .iter()
                .find(|c| c.0 == name)
                .map_or(n as i32, |c| c.1)
        };
        macro_rules! put {
            ($name:expr, $v:expr) => {{
                at.insert($name.to_string(), b.len());
                b.extend_from_slice(&$v.to_le_bytes());
            }};
        }
        put!("width", self.w);
        put!("height", self.h);
        put!("area", self.area);
        put!("goal_count", count("goal_count", self.goals.len()));
        for (i, g) in self.goals.iter().enumerate() {
            put!(format!("goal{i}"), *g);
        }
        put!("pending_count", count("pending_count", self.pending.len()));
        for (i, p) in self.pending.iter().enumerate() {
            put!(format!("pending{i}"), *p);
        }
        put!("nodes", self.nodes);
        put!("status", self.status);
        put!("settled", self.settled);
        put!("repairing", self.repairing);
        put!("gs_count", count("gs_count", self.goal_set.len()));
        for (i, g) in self.goal_set.iter().enumerate() {
            put!(format!("gs{i}"), *g);
        }
        put!("reached_count", count("reached_count", self.reached.len()));
        for (i, (c, v)) in self.reached.iter().enumerate() {
            put!(format!("reached{i}"), *c);
            put!(format!("cost{i}"), v.to_bits());
        }
        put!("step_count", count("step_count", self.steps.len()));
        for (i, (c, n)) in self.steps.iter().enumerate() {
            put!(format!("step{i}"), *c);
            put!(format!("next{i}"), *n);
        }
        put!("open_count", count("open_count", self.open.len()));
        for (i, (n, f, g)) in self.open.iter().enumerate() {
            put!(format!("open{i}"), *n);
            put!(format!("f{i}"), f.to_bits());
            put!(format!("g{i}"), g.to_bits());
        }
        if let Some(t) = &self.touched {
            put!("touched_count", count("touched_count", t.len()));
            for (i, c) in t.iter().enumerate() {
                put!(format!("touched{i}"), *c);
            }
        }
        (b, at)
    }
}

const R2: f64 = std::f64::consts::SQRT_2;

/// A 4 x 3 grid and a field with goals (0, 0), (3, 2), (0, 0).
fn setup() -> (Grid, GridFlowField) {
    let mut g = Grid::new(4, 3).unwrap();
    let f = GridFlowField::new(&mut g, GridOptions::default(), &[(0, 0), (3, 2), (0, 0)]).unwrap();
    (g, f)
}

/// A valid mid-repair state of `setup`'s field (consistent enough to pass every check).
fn base() -> St {
    St {
        w: 4,
        h: 3,
        area: 2,
        goals: vec![0, 11, 0],
        pending: vec![5, 2],
        nodes: 12,
        status: 1,
        settled: 3,
        repairing: 1,
        goal_set: vec![0, 11],
        reached: vec![(0, 0.0), (1, 1.0), (4, 1.0), (5, R2), (11, 0.0)],
        steps: vec![(1, 0), (4, 0), (5, 0)],
        open: vec![(1, 1.0, 1.0), (5, R2, R2), (4, 1.0, 1.0)],
        touched: Some(vec![5, 4]),
        counts: vec![],
    }
}

/// Restores `s` into a fresh field and expects `class` at the offset of field `at` (or at the
/// input length for `truncated`); the field is then unusable and saves the not-started bytes.
fn expect(s: &St, class: &str, at: &str) {
    let (b, off) = s.bytes();
    let (g, mut f) = setup();
    let blank = f.save_state();
    let e = f.restore_state(&g, &b).unwrap_err();
    let want = if at == "len" { b.len() } else { off[at] };
    assert_eq!((e.class(), e.offset()), (class, want), "{e}");
    assert_eq!(e.category(), "format");
    assert!(!f.is_usable());
    assert_eq!(f.save_state(), blank);
}

#[test]
fn base_state_is_valid_and_round_trips() {
    let (b, _) = base().bytes();
    let (g, mut f) = setup();
    f.restore_state(&g, &b).unwrap();
    assert_eq!(f.save_state(), b);
    assert!(f.is_repairing());
    assert_eq!(f.pending_count(), 2);
    assert_eq!(f.settled(), 3);
    assert_eq!(f.next(1, 1).unwrap(), Some(0));
    assert_eq!(f.cost(1, 1).unwrap(), R2);
    let mut c = base();
    c.status = 2;
    c.repairing = 0;
    c.touched = None;
    c.open.clear();
    let (b, _) = c.bytes();
    f.restore_state(&g, &b).unwrap();
    assert_eq!(f.save_state(), b);
    assert_eq!(f.status(), FlowStatus::Complete);
}

/// [STATE.HEADER] [FLOW.STATE.HEADER_CHECKS] in byte order.
#[test]
fn header_checks() {
    let (b, _) = base().bytes();
    let (g, mut f) = setup();
    for (i, v, class, at) in [
        (0usize, b'X', "bad_magic", 0usize),
        (4, 2, "unsupported_version", 4),
        (6, 5, "wrong_kind", 6),
    ] {
        let mut x = b.clone();
        x[i] = v;
        let e = f.restore_state(&g, &x).unwrap_err();
        assert_eq!((e.class(), e.offset()), (class, at));
    }
    let mut s = base();
    s.w = 5;
    expect(&s, "size_mismatch", "width");
    let mut s = base();
    s.h = -3;
    expect(&s, "size_mismatch", "height");
    let mut s = base();
    s.area = -1;
    expect(&s, "out_of_range", "area");
    let mut s = base();
    s.goals.push(0);
    expect(&s, "goal_mismatch", "goal_count");
    let mut s = base();
    s.counts = vec![("goal_count", -1)];
    expect(&s, "goal_mismatch", "goal_count");
    let mut s = base();
    s.goals[2] = 11;
    expect(&s, "goal_mismatch", "goal2");
    let mut s = base();
    s.goals[0] = -1;
    expect(&s, "goal_mismatch", "goal0");
    let mut s = base();
    s.counts = vec![("pending_count", -1)];
    expect(&s, "count_out_of_range", "pending_count");
    let mut s = base();
    s.pending = (0..12).collect();
    s.pending.push(0);
    expect(&s, "count_out_of_range", "pending_count");
    let mut s = base();
    s.pending[1] = 12;
    expect(&s, "index_out_of_range", "pending1");
    let mut s = base();
    s.pending[0] = -1;
    expect(&s, "index_out_of_range", "pending0");
    let mut s = base();
    s.pending[1] = 5;
    expect(&s, "duplicate_node", "pending1");
    // Every pending cell once is accepted (the list's maximum).
    let mut s = base();
    s.pending = (0..12).rev().collect();
    let (b, _) = s.bytes();
    let (g, mut f) = setup();
    f.restore_state(&g, &b).unwrap();
    assert_eq!(f.pending_count(), 12);
}

/// [FLOW.STATE.SEARCH_CHECKS] status, settled, repairing and the goal set.
#[test]
fn search_scalar_and_goal_checks() {
    let mut s = base();
    s.nodes = 13;
    expect(&s, "size_mismatch", "nodes");
    let mut s = base();
    s.status = 3;
    expect(&s, "out_of_range", "status");
    let mut s = base();
    s.settled = -1;
    expect(&s, "out_of_range", "settled");
    let mut s = base();
    s.status = 0;
    expect(&s, "out_of_range", "settled");
    let mut s = base();
    s.repairing = 2;
    expect(&s, "bad_flag", "repairing");
    let mut s = base();
    s.status = 2;
    expect(&s, "out_of_range", "repairing");
    let mut s = base();
    s.goal_set.pop();
    expect(&s, "goal_mismatch", "gs_count");
    let mut s = base();
    s.goal_set[0] = 12;
    expect(&s, "index_out_of_range", "gs0");
    let mut s = base();
    s.goal_set = vec![0, 0];
    expect(&s, "not_increasing", "gs1");
    // Range, then order, then equality: a first cell that is in range but not the goal set's.
    let mut s = base();
    s.goal_set = vec![11, 0];
    expect(&s, "goal_mismatch", "gs0");
    let mut s = base();
    s.goal_set[1] = 10;
    expect(&s, "goal_mismatch", "gs1");
}

/// [FLOW.STATE.SEARCH_CHECKS] reached cells and steps.
#[test]
fn reached_and_step_checks() {
    let mut s = base();
    s.counts = vec![("reached_count", 13)];
    expect(&s, "count_out_of_range", "reached_count");
    let mut s = base();
    s.counts = vec![("reached_count", 6)];
    // 6 * 12 bytes still fit (the steps and the rest follow), so the entries misread: the
    // sixth "cell" is the step count 3, not above 11: not increasing.
    expect(&s, "not_increasing", "step_count");
    // A count that fits the cell count but not the bytes left.
    let (b, off) = base().bytes();
    let cut = &b[..off["reached_count"] + 4 + 20];
    let (g, mut f) = setup();
    let e = f.restore_state(&g, cut).unwrap_err();
    assert_eq!(
        (e.class(), e.offset()),
        ("count_out_of_range", off["reached_count"])
    );
    let mut s = base();
    s.status = 0;
    s.settled = 0;
    s.repairing = 0;
    expect(&s, "count_out_of_range", "reached_count");
    let mut s = base();
    s.reached[4].0 = 12;
    expect(&s, "index_out_of_range", "reached4");
    let mut s = base();
    s.reached[2].0 = 1;
    expect(&s, "not_increasing", "reached2");
    for (v, class) in [
        (f64::NAN, "nan"),
        (f64::from_bits(0x7FF0_0000_0000_0001), "nan"),
        (-1.0, "out_of_range"),
        (f64::INFINITY, "out_of_range"),
        (f64::NEG_INFINITY, "out_of_range"),
    ] {
        let mut s = base();
        s.reached[3].1 = v;
        expect(&s, class, "cost3");
    }
    // -0.0 is accepted and kept.
    let mut s = base();
    s.reached[0].1 = -0.0;
    let (b, _) = s.bytes();
    let (g, mut f) = setup();
    f.restore_state(&g, &b).unwrap();
    assert_eq!(f.save_state(), b);
    assert_eq!(f.cost(0, 0).unwrap().to_bits(), (-0.0f64).to_bits());
    let mut s = base();
    s.counts = vec![("step_count", 6)];
    expect(&s, "count_out_of_range", "step_count");
    let mut s = base();
    s.steps[0].0 = -5;
    expect(&s, "index_out_of_range", "step0");
    let mut s = base();
    s.steps[1].0 = 1;
    expect(&s, "not_increasing", "step1");
    let mut s = base();
    s.steps[1].0 = 3;
    expect(&s, "bad_parent", "step1");
    let mut s = base();
    s.steps[1].1 = 12;
    expect(&s, "index_out_of_range", "next1");
    let mut s = base();
    s.steps[1].1 = 2;
    expect(&s, "bad_parent", "next1");
    let mut s = base();
    s.steps[1].1 = 5;
    expect(&s, "bad_parent", "next1");
    // A step to a cell of equal cost, or to itself, is accepted.
    let mut s = base();
    s.steps[1].1 = 1;
    s.steps[2].1 = 5;
    let (b, _) = s.bytes();
    let (g, mut f) = setup();
    f.restore_state(&g, &b).unwrap();
}

/// [FLOW.STATE.SEARCH_CHECKS] [STATE.HEAP.VALID] the open set and the touched list.
#[test]
fn open_and_touched_checks() {
    let mut s = base();
    s.counts = vec![("open_count", 6)];
    expect(&s, "count_out_of_range", "open_count");
    let mut s = base();
    s.counts = vec![("open_count", -1)];
    expect(&s, "count_out_of_range", "open_count");
    let mut s = base();
    s.status = 2;
    s.repairing = 0;
    s.touched = None;
    expect(&s, "count_out_of_range", "open_count");
    let mut s = base();
    s.open[1].0 = 3;
    expect(&s, "bad_heap_node", "open1");
    let mut s = base();
    s.open[2].0 = -1;
    expect(&s, "bad_heap_node", "open2");
    let mut s = base();
    s.open[2].0 = 1;
    expect(&s, "duplicate_node", "open2");
    let mut s = base();
    s.open[1].1 = f64::NAN;
    expect(&s, "nan", "f1");
    let mut s = base();
    s.open[1].2 = f64::NAN;
    expect(&s, "nan", "g1");
    let mut s = base();
    s.open.swap(0, 1);
    expect(&s, "heap_order", "open1");
    // Equal f: the larger g precedes; then the smaller node.
    let mut s = base();
    s.open = vec![(4, 1.0, 1.0), (1, 1.0, 1.0)];
    expect(&s, "heap_order", "open1");
    let mut s = base();
    s.open = vec![(4, 1.0, 2.0), (1, 1.0, 1.0)];
    let (b, _) = s.bytes();
    let (g, mut f) = setup();
    f.restore_state(&g, &b).unwrap();
    // Infinite keys are accepted (only NaN is not).
    let mut s = base();
    s.open = vec![(4, f64::NEG_INFINITY, f64::INFINITY)];
    let (b, _) = s.bytes();
    f.restore_state(&g, &b).unwrap();
    let mut s = base();
    s.counts = vec![("touched_count", 3)];
    expect(&s, "count_out_of_range", "touched_count");
    let mut s = base();
    s.touched = Some((0..13).collect());
    expect(&s, "count_out_of_range", "touched_count");
    let mut s = base();
    s.touched = Some(vec![5, 12]);
    expect(&s, "index_out_of_range", "touched1");
    let mut s = base();
    s.touched = Some(vec![5, 5]);
    expect(&s, "duplicate_node", "touched1");
    // A touched list is read only when repairing: otherwise it is trailing.
    let mut s = base();
    s.repairing = 0;
    let (b, off) = s.bytes();
    let (g, mut f) = setup();
    let e = f.restore_state(&g, &b).unwrap_err();
    assert_eq!(
        (e.class(), e.offset()),
        ("trailing_bytes", off["touched_count"])
    );
    let mut s = base();
    s.touched = None;
    expect(&s, "truncated", "len");
}

/// [STATE.ORDER] [STATE.BOUNDED] Every prefix of valid states fails with `truncated` at the
/// input length or `count_out_of_range`, never panics, and leaves the field unusable; a
/// trailing byte is `trailing_bytes` at it.
#[test]
fn truncations_and_trailing_bytes() {
    let mut states = vec![base().bytes().0];
    let mut r = SeededRandom::new(0xF10E_0010);
    for _ in 0..20 {
        let mut g = Grid::new(6, 5).unwrap();
        for _ in 0..8 {
            g.set_cell(
                r.next_int(6) as usize,
                r.next_int(5) as usize,
                random_area(&mut r),
            )
            .unwrap();
        }
        let mut f = GridFlowField::new(&mut g, GridOptions::default(), &[(0, 0), (5, 4)]).unwrap();
        f.run(&g).unwrap();
        g.set_cell(
            r.next_int(6) as usize,
            r.next_int(5) as usize,
            random_area(&mut r),
        )
        .unwrap();
        f.step(&g, 1 + r.next_int(3) as u64).unwrap();
        g.set_cell(
            r.next_int(6) as usize,
            r.next_int(5) as usize,
            random_area(&mut r),
        )
        .unwrap();
        states.push(f.save_state());
    }
    for (k, b) in states.iter().enumerate() {
        let (g, mut f) = if k == 0 {
            setup()
        } else {
            let mut g = Grid::new(6, 5).unwrap();
            let f = GridFlowField::new(&mut g, GridOptions::default(), &[(0, 0), (5, 4)]).unwrap();
            (g, f)
        };
        let blank = f.save_state();
        f.restore_state(&g, b).unwrap();
        assert_eq!(&f.save_state(), b);
        for len in 0..b.len() {
            let e = f.restore_state(&g, &b[..len]).unwrap_err();
            match e.class() {
                "truncated" => assert_eq!(e.offset(), len),
                "count_out_of_range" => assert!(e.offset() + 4 <= len),
                c => panic!("length {len}: {c}"),
            }
            assert!(!f.is_usable());
            assert_eq!(f.save_state(), blank);
        }
        let mut x = b.clone();
        x.push(0);
        let e = f.restore_state(&g, &x).unwrap_err();
        assert_eq!((e.class(), e.offset()), ("trailing_bytes", b.len()));
        f.restore_state(&g, b).unwrap();
        assert!(f.is_usable());
    }
}

/// [FLOW.STATE.UNUSABLE] After a failed restore: every query and step fails with `unusable`
/// (after the size check of `step`), the listener ignores edits, the save is the not-started
/// bytes; `recompute` or a successful restore makes it usable again.
#[test]
fn unusable_after_failed_restore() {
    let (mut g, mut f) = setup();
    f.run(&g).unwrap();
    let good = f.save_state();
    g.set_cell(2, 2, WALL).unwrap();
    assert_eq!(f.pending_count(), 1);
    assert!(f.restore_state(&g, &good[..good.len() - 1]).is_err());
    assert!(!f.is_usable());
    assert_eq!(f.status(), FlowStatus::NotStarted);
    assert_eq!(f.pending_count(), 0);
    assert_eq!(f.settled(), 0);
    for e in [
        f.step(&g, 0).unwrap_err(),
        f.run(&g).unwrap_err(),
        f.cost(0, 0).unwrap_err(),
        f.cost(9, 9).unwrap_err(),
        f.next(0, 0).unwrap_err(),
        f.path(0, 0).unwrap_err(),
        f.path(9, 0).unwrap_err(),
    ] {
        assert_eq!(e.class(), "unusable");
    }
    let other = Grid::new(3, 3).unwrap();
    assert_eq!(f.step(&other, 0).unwrap_err().class(), "size_mismatch");
    g.set_cell(1, 1, WALL).unwrap();
    assert_eq!(f.pending_count(), 0);
    let (_, fresh) = setup();
    assert_eq!(f.save_state(), fresh.save_state());
    // The describe of an unusable field is the not-started one.
    let d = f.describe();
    assert!(d.costs.iter().all(|&c| c == f64::INFINITY) && d.next.iter().all(|n| n.is_none()));
    // recompute: usable again, begun on the grid as it is.
    assert_eq!(f.recompute(&g, 0).unwrap(), FlowStatus::Complete);
    assert!(f.is_usable());
    assert_eq!(f.cost(3, 2).unwrap(), 0.0);
    // A successful restore also makes it usable.
    assert!(f.restore_state(&g, b"OPGS").is_err());
    f.restore_state(&g, &good).unwrap();
    assert!(f.is_usable());
    assert_eq!(f.save_state(), good);
    // The grid was edited since the save but the field recorded its restore count now: the
    // saved pending list (empty) is what it repairs, so the next step does nothing.
    assert_eq!(f.step(&g, 0).unwrap(), FlowStatus::Complete);
    assert_eq!(f.save_state(), good);
}

/// [FLOW.STATE.STRUCTURAL] [FLOW.PATH.BROKEN] Inconsistent states are accepted; paths report
/// `path_cycle` and `broken_path`; a budgeted step does at most the budget.
#[test]
fn structural_states() {
    let mut g = Grid::new(4, 1).unwrap();
    let mut f = GridFlowField::new(&mut g, GridOptions::default(), &[(0, 0)]).unwrap();
    let s = St {
        w: 4,
        h: 1,
        area: 0,
        goals: vec![0],
        pending: vec![],
        nodes: 4,
        status: 2,
        settled: 7,
        repairing: 0,
        goal_set: vec![0],
        reached: vec![(0, 5.0), (1, 1.0), (2, 1.0), (3, 2.0)],
        steps: vec![(1, 2), (2, 1)],
        open: vec![],
        touched: None,
        counts: vec![],
    };
    let (b, _) = s.bytes();
    f.restore_state(&g, &b).unwrap();
    let e = f.path(1, 0).unwrap_err();
    assert_eq!(e.class(), "path_cycle");
    let e = f.path(3, 0).unwrap_err();
    assert_eq!(e.class(), "broken_path");
    assert!(e.to_string().contains('3'), "{e}");
    assert_eq!(f.path(0, 0).unwrap(), vec![0]);
    // Running with nonsense keys: a budget of 2 does at most 2 iterations.
    let mut s2 = s.clone();
    s2.status = 1;
    s2.settled = 0;
    s2.open = vec![(3, -5.0, 9.0), (1, 7.0, 0.0), (2, 7.0, 0.0)];
    let (b, _) = s2.bytes();
    f.restore_state(&g, &b).unwrap();
    assert_eq!(f.step(&g, 2).unwrap(), FlowStatus::Running);
    assert_eq!(f.settled(), 2);
    assert_eq!(f.run(&g).unwrap(), FlowStatus::Complete);
    // The restored run finishes with the full direction pass over the costs as they lie: the
    // goal's cost was lowered to 2 through cell 1, which has no cheaper neighbour now.
    assert_eq!(f.cost(0, 0).unwrap(), 2.0);
    assert_eq!(f.next(1, 0).unwrap(), None);
    assert_eq!(f.next(3, 0).unwrap(), Some(2));
    assert_eq!(f.next(2, 0).unwrap(), None);
    assert_eq!(f.path(1, 0).unwrap_err().class(), "broken_path");
    assert_eq!(f.path(0, 0).unwrap(), vec![0]);
}

/// [STATE.BOUNDED] [FLOW.STATE.STRUCTURAL] Random byte mutations of valid states never panic:
/// a restore either fails (leaving the field unusable with the not-started bytes) or succeeds,
/// and then a budgeted step does at most its budget, the run finishes and every query answers.
#[test]
fn mutated_bytes_never_panic() {
    let mut r = SeededRandom::new(0xF10E_0011);
    let mut accepted = 0;
    for case in 0..400 {
        let shape = random_shape(&mut r);
        let mut g = random_grid(&mut r, shape, 7);
        let goals = random_goals(&mut r, &g);
        let mut f = F::new(&mut g, options(shape), &goals);
        f.run(&g).unwrap();
        random_edit_cell(&mut r, &mut g);
        f.step(&g, r.next_int(3) as u64).unwrap();
        random_edit_cell(&mut r, &mut g);
        let mut b = f.save();
        for _ in 0..1 + r.next_int(3) {
            let at = 8 + r.next_int((b.len() - 8) as u32) as usize;
            b[at] = match r.next_int(4) {
                0 => 0,
                1 => 0xFF,
                2 => b[at] ^ (1 << r.next_int(8)),
                _ => r.next_int(256) as u8,
            };
        }
        let mut x = F::new(&mut g, options(shape), &goals);
        let blank = x.save();
        match x.restore(&g, &b) {
            Err(_) => {
                assert!(!x.usable(), "case {case}");
                assert_eq!(x.save(), blank, "case {case}");
            }
            Ok(()) => {
                accepted += 1;
                let before = x.settled();
                // Continuing, beginning again or repairing: at most 2 more iterations.
                x.step(&g, 2).unwrap();
                assert!(x.settled() <= before + 2, "case {case}");
                x.run(&g).unwrap();
                let (w, h) = (g.width(), g.height());
                for c in 0..w * h {
                    let _ = x.path(c % w, c / w);
                    let _ = x.next(c % w, c / w).unwrap();
                }
                let again = x.save();
                let mut y = F::new(&mut g, options(shape), &goals);
                y.restore(&g, &again).unwrap();
                assert_eq!(y.save(), again);
            }
        }
    }
    assert!(accepted > 20, "{accepted}");
}

fn random_edit_cell(r: &mut SeededRandom, g: &mut G) {
    let (x, y) = (
        r.next_int(g.width() as u32) as usize,
        r.next_int(g.height() as u32) as usize,
    );
    let a = random_area(r);
    g.set(x, y, a);
}
