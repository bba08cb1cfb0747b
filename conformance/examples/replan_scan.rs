//! Scans generated replanner requests for oracle problems (a development aid).
use onepath_conformance::replan::{cases, oracle};
use onepath_conformance::{Implementation, ReferenceCrate};
fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let side: u32 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    for i in 0..n {
        let r = cases::request(0x5CA4, i, side, 100);
        let reply = ReferenceCrate.run_replan(&r).unwrap();
        if let Some(p) = oracle::check(&r, &reply) {
            println!("case {i} side<= {side}: {p}");
            if std::env::var("SHOW").is_ok() {
                println!(
                    "  mode {:?} hex {:?} options agent {} conn {} diag {} alg {} size {}x{}",
                    r.mode,
                    r.grid.hex_layout,
                    r.options.agent_size,
                    r.options.connectivity,
                    r.options.diagonal,
                    r.options.algorithm,
                    r.grid.map.width,
                    r.grid.map.height
                );
                let k: usize = p
                    .split_whitespace()
                    .nth(1)
                    .unwrap()
                    .trim_end_matches(':')
                    .parse()
                    .unwrap();
                for (j, s) in r.script.iter().enumerate().take(k + 1) {
                    println!("  {j}: {s:?}");
                }
            }
        }
    }
}
#[allow(dead_code)]
fn unused() {}
