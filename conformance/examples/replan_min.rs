//! Shrinks a failing generated replanner script by deleting steps while the oracle still fails
//! (a development aid): `replan_min CASE SIDE SAVE ROLLBACK END`.
use onepath_conformance::replan::{cases, oracle, ReplanStep};
use onepath_conformance::{Implementation, ReferenceCrate};
fn main() {
    let a: Vec<usize> = std::env::args()
        .skip(1)
        .map(|s| s.parse().unwrap())
        .collect();
    let r = cases::request(0x5CA4, a[0] as u64, a[1] as u32, 100);
    let mut q = r.clone();
    q.script = r.script[..a[2]]
        .iter()
        .cloned()
        .chain(r.script[a[3] + 1..=a[4]].iter().cloned())
        .collect();
    let fails = |q: &onepath_conformance::replan::ReplanRequest| match ReferenceCrate.run_replan(q)
    {
        Ok(reply) => oracle::check(q, &reply).is_some(),
        Err(_) => false,
    };
    assert!(fails(&q));
    let mut changed = true;
    while changed {
        changed = false;
        let mut i = 0;
        while i < q.script.len() {
            let mut t = q.clone();
            t.script.remove(i);
            if fails(&t) {
                q = t;
                changed = true;
            } else {
                i += 1;
            }
        }
    }
    println!(
        "mode {:?} options {:?} {}x{} start {:?} goal {:?}",
        q.mode, q.options, q.grid.map.width, q.grid.map.height, q.start, q.goal
    );
    println!("cells {}", q.grid.map.cells);
    for s in &q.script {
        println!("  {s:?}");
    }
    let reply = ReferenceCrate.run_replan(&q).unwrap();
    println!("{:?}", oracle::check(&q, &reply));
    let _ = ReplanStep::Save {};
}
