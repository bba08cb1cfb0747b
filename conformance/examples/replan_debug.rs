//! Replays one generated case as the run that never left a snapshot (a development aid):
//! `replan_debug CASE SIDE SAVE_STEP ROLLBACK_STEP END` compares the full script up to END with
//! the prefix up to SAVE_STEP followed by the steps after ROLLBACK_STEP.
use onepath_conformance::replan::{cases, oracle, ReplanReply};
use onepath_conformance::{Implementation, ReferenceCrate};
fn main() {
    let a: Vec<usize> = std::env::args()
        .skip(1)
        .map(|s| s.parse().unwrap())
        .collect();
    let r = cases::request(0x5CA4, a[0] as u64, a[1] as u32, 100);
    let mut full = r.clone();
    full.script.truncate(a[4] + 1);
    let mut never = r.clone();
    never.script = r.script[..a[2]]
        .iter()
        .cloned()
        .chain(r.script[a[3] + 1..=a[4]].iter().cloned())
        .collect();
    for (name, q) in [("full", &full), ("never left", &never)] {
        let reply = ReferenceCrate.run_replan(q).unwrap();
        let ReplanReply::Ran { steps, .. } = &reply else {
            return;
        };
        println!(
            "{name}: last cost {} oracle {:?}",
            steps.last().unwrap().cost.0,
            oracle::check(q, &reply)
        );
    }
}
