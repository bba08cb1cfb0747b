//! Certification levels of a port ([DRIVER.LEVEL.*] in `spec/driver.md`): L1 costs, L2 paths,
//! L3 traces, L4 bytes. Every answer of a port is compared with the reference's answer to the
//! same call, and each difference is classified by the lowest level it breaks.
//! [DRIVER.LEVEL.COMPARE] Field-by-field comparison with the reference's answer.

mod bidi;
mod debug;
pub mod divergence;
mod flow;
mod hpa;
mod lattice;
mod replan;
mod synctest;
pub use bidi::bidi_break;
pub use debug::describe_break;
pub use flow::flow_break;
pub use hpa::hpa_break;
pub use lattice::lattice_break;
pub use replan::replan_break;
pub use synctest::synctest_break;

use crate::implementation::{BuildFailure, CancelTrace, HookCall, LinkResult, OplmError};
use crate::outcome::{cost_text, Outcome};

/// A certification level. `L0` means "not even L1".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Nothing certified.
    L0 = 0,
    /// Costs: same status found / not found and equal cost bits.
    L1 = 1,
    /// Paths: L1 plus identical algorithm, status and paths.
    L2 = 2,
    /// Traces: L2 plus identical expansion order, counters, sliced = unsliced, hook call logs.
    L3 = 3,
    /// Bytes: L3 plus identical OPLM and state bytes, hostile inputs rejected with the right
    /// class and offset, objects unchanged where required.
    L4 = 4,
}

impl Level {
    /// All levels from L0 to L4.
    pub const ALL: [Level; 5] = [Level::L0, Level::L1, Level::L2, Level::L3, Level::L4];

    /// The level of a number (clamped to 0..=4).
    pub fn from_number(n: u64) -> Level {
        Level::ALL[n.min(4) as usize]
    }

    /// 0..=4.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// `L0` .. `L4`.
    pub fn name(self) -> &'static str {
        ["L0", "L1", "L2", "L3", "L4"][self as usize]
    }

    /// What the level certifies.
    pub fn meaning(self) -> &'static str {
        match self {
            Level::L0 => "nothing",
            Level::L1 => "costs",
            Level::L2 => "paths",
            Level::L3 => "traces",
            Level::L4 => "bytes",
        }
    }

    /// The level just below (a difference that breaks `self` leaves `self.below()` reached).
    pub fn below(self) -> Level {
        Level::ALL[(self as usize).saturating_sub(1)]
    }
}

/// A difference between the reference's answer and the port's, with the lowest level it breaks.
#[derive(Clone, Debug, PartialEq)]
pub struct Break {
    /// The lowest level the difference breaks.
    pub level: Level,
    /// What differs (`cost bits`, `expansion step 4`, `hook call 7`, `OPLM bytes`...).
    pub what: String,
    /// Expected (reference) value, rendered.
    pub expected: String,
    /// Found (port) value, rendered.
    pub found: String,
    /// The expansion step or call index, when the difference is in a list.
    pub step: Option<usize>,
    /// A few entries of context around `step`: expected and found.
    pub context: Option<(String, String)>,
    /// The first place the two replies diverge in reply order, when the walker knows it
    /// ([DRIVER.LEVEL.FIRST]): `ran[0].expanded[2]: expected 50, found 73`.
    pub first: Option<String>,
}

impl Break {
    pub(crate) fn new(
        level: Level,
        what: impl Into<String>,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Self {
        Break {
            level,
            what: what.into(),
            expected: expected.into(),
            found: found.into(),
            step: None,
            context: None,
            first: None,
        }
    }
}

/// Renders `list[i-3 .. i+4]` with the entry at `i` in brackets.
pub fn window<T: std::fmt::Display>(list: &[T], i: usize) -> String {
    let lo = i.saturating_sub(3);
    let hi = (i + 4).min(list.len());
    let mut parts: Vec<String> = Vec::new();
    if lo > 0 {
        parts.push("...".into());
    }
    for (k, x) in list.iter().enumerate().take(hi).skip(lo) {
        parts.push(if k == i {
            format!("[{x}]")
        } else {
            x.to_string()
        });
    }
    if i >= list.len() {
        parts.push("[end]".into());
    } else if hi < list.len() {
        parts.push("...".into());
    }
    format!("steps {lo}..: {}", parts.join(" "))
}

fn first_index<T: PartialEq>(a: &[T], b: &[T]) -> Option<usize> {
    let n = a.len().max(b.len());
    (0..n).find(|&i| a.get(i) != b.get(i))
}

/// Compares two outcomes and returns the lowest level their difference breaks, or `None` when
/// they are byte-identical. The levels are decided field by field (not by the first differing
/// field of [CONF.DIFF.ORDER]): a cost difference breaks L1 even when the expansion lists part
/// earlier.
pub fn outcome_break(expected: &Outcome, found: &Outcome) -> Option<Break> {
    match (expected, found) {
        (Outcome::Error(a), Outcome::Error(b)) if a == b => None,
        (Outcome::Error(a), Outcome::Error(b)) => {
            Some(Break::new(Level::L1, "error class", a.clone(), b.clone()))
        }
        (Outcome::Path(_), Outcome::Error(b)) => Some(Break::new(
            Level::L1,
            "kind",
            "a result",
            format!("error {b}"),
        )),
        (Outcome::Error(a), Outcome::Path(_)) => Some(Break::new(
            Level::L1,
            "kind",
            format!("error {a}"),
            "a result",
        )),
        (Outcome::Path(a), Outcome::Path(b)) => {
            use crate::outcome::StatusCode::BudgetExhausted;
            // A budget that runs out in one and not the other is an iteration-count (trace)
            // difference, not a found / not-found one.
            let finished = a.status != BudgetExhausted && b.status != BudgetExhausted;
            if finished && a.status != b.status {
                return Some(Break::new(
                    Level::L1,
                    "status",
                    crate::words::wire(&a.status),
                    crate::words::wire(&b.status),
                ));
            }
            if finished && a.cost.to_bits() != b.cost.to_bits() {
                return Some(Break::new(
                    Level::L1,
                    "cost bits",
                    cost_text(a.cost),
                    cost_text(b.cost),
                ));
            }
            if a.algorithm != b.algorithm {
                return Some(Break::new(
                    Level::L2,
                    "algorithm",
                    crate::words::wire(&a.algorithm),
                    crate::words::wire(&b.algorithm),
                ));
            }
            if a.status != b.status && finished {
                return Some(Break::new(
                    Level::L2,
                    "status",
                    crate::words::wire(&a.status),
                    crate::words::wire(&b.status),
                ));
            }
            if let Some(i) = first_index(&a.nodes, &b.nodes) {
                let show = |l: &[u32]| {
                    l.get(i)
                        .map_or("end of path".to_string(), |n| format!("node {n}"))
                };
                let mut br = Break::new(
                    Level::L2,
                    format!("path position {i}"),
                    show(&a.nodes),
                    show(&b.nodes),
                );
                br.context = Some((window(&a.nodes, i), window(&b.nodes, i)));
                return Some(br);
            }
            if let Some(i) = first_index(&a.expanded, &b.expanded) {
                let show = |l: &[u32]| {
                    l.get(i)
                        .map_or("end of list".to_string(), |n| format!("node {n}"))
                };
                let mut br = Break::new(
                    Level::L3,
                    format!("expansion step {i}"),
                    show(&a.expanded),
                    show(&b.expanded),
                );
                br.step = Some(i);
                br.context = Some((window(&a.expanded, i), window(&b.expanded, i)));
                return Some(br);
            }
            if a.status != b.status {
                return Some(Break::new(
                    Level::L3,
                    "status (iteration budget)",
                    crate::words::wire(&a.status),
                    crate::words::wire(&b.status),
                ));
            }
            if a.cost.to_bits() != b.cost.to_bits() {
                return Some(Break::new(
                    Level::L3,
                    "cost bits (iteration budget)",
                    cost_text(a.cost),
                    cost_text(b.cost),
                ));
            }
            if a.iterations != b.iterations {
                return Some(Break::new(
                    Level::L3,
                    "iterations",
                    a.iterations.to_string(),
                    b.iterations.to_string(),
                ));
            }
            if a.expanded_count != b.expanded_count {
                return Some(Break::new(
                    Level::L3,
                    "expanded_count",
                    a.expanded_count.to_string(),
                    b.expanded_count.to_string(),
                ));
            }
            None
        }
    }
}

/// Build failures: value versus failure and the class break L1, the index breaks L4.
pub fn failure_break(expected: &BuildFailure, found: &BuildFailure) -> Option<Break> {
    if expected.class != found.class {
        return Some(Break::new(
            Level::L1,
            "error class",
            expected.to_string(),
            found.to_string(),
        ));
    }
    if expected.index != found.index {
        return Some(Break::new(
            Level::L4,
            "error index",
            expected.to_string(),
            found.to_string(),
        ));
    }
    None
}

/// Results of an error script ([CONF.IMPL.OPS]).
pub fn ops_break(
    expected: &[Result<u64, BuildFailure>],
    found: &[Result<u64, BuildFailure>],
) -> Option<Break> {
    if expected.len() != found.len() {
        return Some(Break::new(
            Level::L1,
            "result count",
            expected.len().to_string(),
            found.len().to_string(),
        ));
    }
    let mut worst: Option<Break> = None;
    for (i, (e, f)) in expected.iter().zip(found).enumerate() {
        let b = match (e, f) {
            (Ok(a), Ok(b)) if a == b => None,
            (Ok(a), Ok(b)) => Some(Break::new(
                Level::L1,
                format!("operation {i} value"),
                a.to_string(),
                b.to_string(),
            )),
            (Ok(a), Err(b)) => Some(Break::new(
                Level::L1,
                format!("operation {i}"),
                format!("value {a}"),
                b.to_string(),
            )),
            (Err(a), Ok(b)) => Some(Break::new(
                Level::L1,
                format!("operation {i}"),
                a.to_string(),
                format!("value {b}"),
            )),
            (Err(a), Err(b)) => failure_break(a, b).map(|mut x| {
                x.what = format!("operation {i} {}", x.what);
                x
            }),
        };
        worst = lowest(worst, b);
    }
    worst
}

/// The lower of two optional breaks (the first one on a tie).
pub fn lowest(a: Option<Break>, b: Option<Break>) -> Option<Break> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(a), Some(b)) => Some(if b.level < a.level { b } else { a }),
    }
}

/// Point-graph links: different CSR edges break L1 (the graph differs), a different
/// `link_valid` call log breaks L3.
pub fn links_break(
    expected: &Result<LinkResult, BuildFailure>,
    found: &Result<LinkResult, BuildFailure>,
) -> Option<Break> {
    match (expected, found) {
        (Err(a), Err(b)) => failure_break(a, b),
        (Ok(_), Err(b)) => Some(Break::new(Level::L1, "kind", "links", b.to_string())),
        (Err(a), Ok(_)) => Some(Break::new(Level::L1, "kind", a.to_string(), "links")),
        (Ok(a), Ok(b)) => {
            let same = |x: &(u32, u32, f64), y: &(u32, u32, f64)| {
                x.0 == y.0 && x.1 == y.1 && x.2.to_bits() == y.2.to_bits()
            };
            let n = a.edges.len().max(b.edges.len());
            if let Some(i) = (0..n).find(
                |&i| !matches!((a.edges.get(i), b.edges.get(i)), (Some(x), Some(y)) if same(x, y)),
            ) {
                let show = |e: Option<&(u32, u32, f64)>| {
                    e.map_or("end of edges".to_string(), |e| {
                        format!("{} -> {} weight {:?}", e.0, e.1, e.2)
                    })
                };
                return Some(Break::new(
                    Level::L1,
                    format!("CSR edge slot {i}"),
                    show(a.edges.get(i)),
                    show(b.edges.get(i)),
                ));
            }
            first_index(&a.calls, &b.calls).map(|i| {
                let mut br = Break::new(
                    Level::L3,
                    format!("link_valid call {i}"),
                    divergence::opt(
                        a.calls.get(i).map(|c| format!("[{}, {}]", c.0, c.1)),
                        "no call",
                    ),
                    divergence::opt(
                        b.calls.get(i).map(|c| format!("[{}, {}]", c.0, c.1)),
                        "no call",
                    ),
                );
                br.step = Some(i);
                br
            })
        }
    }
}

/// Hook call logs: a difference breaks L3.
pub fn calls_break(expected: &[HookCall], found: &[HookCall]) -> Option<Break> {
    first_index(expected, found).map(|i| {
        let show = |c: Option<&HookCall>| c.map_or("end of calls".to_string(), |c| c.to_string());
        let mut br = Break::new(
            Level::L3,
            format!("hook call {i}"),
            show(expected.get(i)),
            show(found.get(i)),
        );
        br.step = Some(i);
        br.context = Some((window(expected, i), window(found, i)));
        br
    })
}

/// Cancel traces: the resumed outcome by [`outcome_break`], the `(status, iterations)` pairs at L3.
pub fn cancel_break(
    expected: &Result<CancelTrace, crate::error::CallError>,
    found: &Result<CancelTrace, crate::error::CallError>,
) -> Option<Break> {
    match (expected, found) {
        (Err(a), Err(b)) if a == b => None,
        (Err(a), Err(b)) => Some(Break::new(
            Level::L1,
            "error class",
            a.to_string(),
            b.to_string(),
        )),
        (Ok(_), Err(b)) => Some(Break::new(
            Level::L1,
            "kind",
            "a trace",
            format!("error {b}"),
        )),
        (Err(a), Ok(_)) => Some(Break::new(
            Level::L1,
            "kind",
            format!("error {a}"),
            "a trace",
        )),
        (Ok(a), Ok(b)) => {
            let resumed = outcome_break(&a.resumed, &b.resumed).map(|mut x| {
                x.what = format!("resumed: {}", x.what);
                x
            });
            let trace = [
                ("before", a.before, b.before),
                ("cancelled", a.cancelled, b.cancelled),
                ("cancelled again", a.cancelled_again, b.cancelled_again),
            ]
            .into_iter()
            .find(|(_, x, y)| x != y)
            .map(|(what, x, y)| {
                let words = |(status, iterations): (crate::outcome::SearchCode, u64)| {
                    format!(
                        "status {}, iterations {iterations}",
                        crate::state::finish::status_words(status)
                    )
                };
                Break::new(
                    Level::L3,
                    format!("cancel trace {what}"),
                    words(x),
                    words(y),
                )
            });
            lowest(resumed, trace)
        }
    }
}

/// OPLM bytes of a build: different bytes break L4, build failures L1.
pub fn oplm_build_break(
    expected: &Result<Vec<u8>, crate::error::CallError>,
    found: &Result<Vec<u8>, crate::error::CallError>,
) -> Option<Break> {
    match (expected, found) {
        (Ok(a), Ok(b)) if a == b => None,
        (Ok(a), Ok(b)) => Some(bytes_break("OPLM bytes", a, b)),
        (Err(a), Err(b)) if a == b => None,
        (a, b) => {
            let show = |r: &Result<Vec<u8>, crate::error::CallError>| match r {
                Ok(b) => format!("{} bytes", b.len()),
                Err(e) => divergence::clip(&format!("error {}", e.text())),
            };
            Some(Break::new(Level::L1, "landmark build", show(a), show(b)))
        }
    }
}

/// Two byte strings that differ: L4, with the first differing offset and the field of the
/// expected bytes it falls in (state layout or OPLM layout, [DRIVER.LEVEL.FIRST]).
pub fn bytes_break(what: &str, a: &[u8], b: &[u8]) -> Break {
    let i = first_index(a, b).unwrap_or(0);
    let show = |x: &[u8]| {
        x.get(i).map_or(format!("end at {}", x.len()), |v| {
            format!("byte {v:#04x} (length {})", x.len())
        })
    };
    let field = divergence::byte_field(a, i)
        .map(|f| format!(", field {f}"))
        .unwrap_or_default();
    let mut br = Break::new(
        Level::L4,
        format!("{what} offset {i}{field}"),
        show(a),
        show(b),
    );
    br.step = Some(i);
    br
}

/// Lower bounds: L3 (they steer ALT searches but never change a cost).
pub fn bounds_break(
    expected: &Result<Vec<f64>, crate::error::CallError>,
    found: &Result<Vec<f64>, crate::error::CallError>,
) -> Option<Break> {
    match (expected, found) {
        (Ok(a), Ok(b)) => {
            let n = a.len().max(b.len());
            (0..n)
                .find(|&i| a.get(i).map(|x| x.to_bits()) != b.get(i).map(|x| x.to_bits()))
                .map(|i| {
                    Break::new(
                        Level::L3,
                        format!("lower bound {i}"),
                        divergence::opt(a.get(i), "no bound"),
                        divergence::opt(b.get(i), "no bound"),
                    )
                })
        }
        (Err(a), Err(b)) if a == b => None,
        (a, b) => Some(Break::new(
            Level::L1,
            "lower bounds",
            divergence::opt(a.as_ref().err().map(|e| e.text()), "bounds"),
            divergence::opt(b.as_ref().err().map(|e| e.text()), "bounds"),
        )),
    }
}

/// OPLM deserialization: everything breaks L4 (acceptance, class, offset, re-serialized bytes).
pub fn deserialize_break(
    expected: &Result<Vec<u8>, OplmError>,
    found: &Result<Vec<u8>, OplmError>,
) -> Option<Break> {
    let show = |r: &Result<Vec<u8>, OplmError>| match r {
        Ok(b) => format!("accepted ({} bytes)", b.len()),
        Err(e) => format!("{} at {}", e.class, e.offset),
    };
    match (expected, found) {
        (Ok(a), Ok(b)) if a == b => None,
        (Ok(a), Ok(b)) => Some(bytes_break("re-serialized OPLM", a, b)),
        (Err(a), Err(b)) if a == b => None,
        _ => Some(Break::new(
            Level::L4,
            "OPLM deserialize",
            show(expected),
            show(found),
        )),
    }
}

/// State replies: restore result, bytes and listener calls break L4; the search's final
/// status and cost L1, its path L2, its counters and recorded list L3.
pub fn state_break(
    expected: &Result<crate::state::StateReply, crate::error::HarnessError>,
    found: &Result<crate::state::StateReply, crate::error::HarnessError>,
) -> Option<Break> {
    let (e, f) = match (expected, found) {
        (Ok(e), Ok(f)) => (e, f),
        (Err(a), Err(b)) if a == b => return None,
        (a, b) => {
            return Some(Break::new(
                Level::L4,
                "state request",
                divergence::opt(a.as_ref().err(), "a reply"),
                divergence::opt(b.as_ref().err(), "a reply"),
            ))
        }
    };
    let show = |r: &Option<Result<(), crate::state::StateError>>| match r {
        None => "no restore".to_string(),
        Some(Ok(())) => "accepted".to_string(),
        Some(Err(x)) => x.to_string(),
    };
    if e.restore != f.restore {
        // The root cause: what the search does after a wrongly accepted (or rejected) state
        // follows from it.
        return Some(Break::new(
            Level::L4,
            "restore result",
            show(&e.restore),
            show(&f.restore),
        ));
    }
    let mut worst = None;
    if let (Some(a), Some(b)) = (&e.search, &f.search) {
        let pair = |x: &crate::state::SearchSummary| {
            format!(
                "status {} cost {:?}",
                crate::state::finish::status_words(x.status),
                f64::from_bits(x.cost_bits)
            )
        };
        worst = if a.status != b.status || a.cost_bits != b.cost_bits {
            Some(Break::new(
                Level::L1,
                "search after restore: status / cost",
                pair(a),
                pair(b),
            ))
        } else if let Some(i) = first_index(&a.path, &b.path) {
            Some(Break::new(
                Level::L2,
                format!("search after restore: path position {i}"),
                divergence::opt(a.path.get(i), "end of path"),
                divergence::opt(b.path.get(i), "end of path"),
            ))
        } else if let Some(i) = first_index(&a.expansions, &b.expansions) {
            let mut br = Break::new(
                Level::L3,
                format!("search after restore: expansion step {i}"),
                divergence::opt(a.expansions.get(i), "end of list"),
                divergence::opt(b.expansions.get(i), "end of list"),
            );
            br.step = Some(i);
            br.context = Some((window(&a.expansions, i), window(&b.expansions, i)));
            Some(br)
        } else if (a.iterations, a.expanded) != (b.iterations, b.expanded) {
            Some(Break::new(
                Level::L3,
                "search after restore: counters",
                format!("{} / {}", a.iterations, a.expanded),
                format!("{} / {}", b.iterations, b.expanded),
            ))
        } else {
            None
        };
    } else if e.search.is_some() != f.search.is_some() {
        worst = Some(Break::new(
            Level::L1,
            "search summary",
            format!("{:?}", e.search.is_some()),
            format!("{:?}", f.search.is_some()),
        ));
    }
    let bytes = if e.before != f.before {
        Some(bytes_break(
            "state bytes before restore",
            &e.before,
            &f.before,
        ))
    } else if e.after != f.after {
        Some(bytes_break("state bytes after restore", &e.after, &f.after))
    } else if e.cells != f.cells {
        Some(Break::new(
            Level::L4,
            "listener calls",
            format!("{} calls", e.cells.len()),
            format!("{} calls", f.cells.len()),
        ))
    } else {
        None
    };
    lowest(worst, bytes).map(|mut b| {
        b.first = state_first(e, f);
        b
    })
}

/// The first member of two state replies that differs, in the reply's order (`before`,
/// `restore`, `after`, `cells`, `search`), with the byte offset and state-layout field of a bytes
/// difference ([DRIVER.LEVEL.FIRST]).
fn state_first(e: &crate::state::StateReply, f: &crate::state::StateReply) -> Option<String> {
    let restore = |r: &Option<Result<(), crate::state::StateError>>| match r {
        None => "no restore".to_string(),
        Some(Ok(())) => "accepted".to_string(),
        Some(Err(x)) => x.to_string(),
    };
    if e.before != f.before {
        return divergence::bytes_divergence(&e.before, &f.before).map(|d| format!("before: {d}"));
    }
    if e.restore != f.restore {
        return Some(format!(
            "restore: expected {}, found {}",
            restore(&e.restore),
            restore(&f.restore)
        ));
    }
    if e.after != f.after {
        return divergence::bytes_divergence(&e.after, &f.after).map(|d| format!("after: {d}"));
    }
    if let Some(i) = first_index(&e.cells, &f.cells) {
        let call = |c: Option<&(u32, u8, u8)>| {
            c.map_or("no call".to_string(), |(i, o, n)| {
                format!("cell {i} from {o} to {n}")
            })
        };
        return Some(format!(
            "cells[{i}]: expected {}, found {}",
            call(e.cells.get(i)),
            call(f.cells.get(i))
        ));
    }
    None
}

/// The level a section failure's `what` most likely breaks, used only to decide whether a
/// failure lies above the level a port claims (the comparison with the reference decides the
/// level reached).
pub fn failure_level(section: &str, what: &str) -> Level {
    let w = what.to_ascii_lowercase();
    if w.starts_with("port:") || w.contains("unanswered") {
        return Level::L1;
    }
    if section == crate::checks::describe::SECTION {
        // [CONF.DEBUG.LEVEL] The section names the level in its `what`: `... (L2): ...`.
        for (tag, level) in [
            ("(l1)", Level::L1),
            ("(l2)", Level::L2),
            ("(l3)", Level::L3),
        ] {
            if w.contains(tag) {
                return level;
            }
        }
        return Level::L1;
    }
    if section == "landmarks" && (w.contains("oplm") || w.contains("hostile")) {
        return Level::L4;
    }
    if w.contains("index") && section == "errors" {
        return Level::L4;
    }
    if w.contains("expansion step")
        || w.contains("iterations")
        || w.contains("expanded_count")
        || w.contains("hook call")
        || w.contains("link_valid call")
        || w.contains("run(")
        || w.contains("step budgets")
        || w.contains("iteration_budget")
        || w.contains("budgeted run")
        || w.contains("cancel")
        || w.contains("resumed")
        || w.contains("lower_bound")
        || w.contains("consistency")
    {
        return Level::L3;
    }
    if w.contains("algorithm") || w.contains("path") {
        return Level::L2;
    }
    if w.contains("matrix cell") || w.contains("hash in scenario") {
        return Level::L3;
    }
    Level::L1
}

/// A grid-search reply's difference ([CONF.GRID.REPLY], [DRIVER.LEVEL.LIST]): the error or
/// status and the cost break L1; the algorithm, engine mode, finder, path and world points L2;
/// the expansion order and the counters L3; the state, snapshot and re-saved bytes L4.
pub fn grid_break(
    expected: &Result<crate::grid::GridOutcome, crate::error::HarnessError>,
    found: &Result<crate::grid::GridOutcome, crate::error::HarnessError>,
) -> Option<Break> {
    let show = |o: &Result<crate::grid::GridOutcome, crate::error::HarnessError>| match o {
        Ok(Ok(r)) => format!("status {} cost {:?}", r.status, f64::from_bits(r.cost_bits)),
        Ok(Err(class)) => format!("error {class}"),
        Err(h) => format!("harness: {h}"),
    };
    let (e, f) = match (expected, found) {
        (Ok(Ok(e)), Ok(Ok(f))) => (e, f),
        (a, b) if a == b => return None,
        (a, b) => return Some(Break::new(Level::L1, "grid result", show(a), show(b))),
    };
    if e.status != f.status || e.cost_bits != f.cost_bits {
        return Some(Break::new(
            Level::L1,
            "status / cost",
            show(expected),
            show(found),
        ));
    }
    let scalar = |what: &str, a: u64, b: u64, level: Level| {
        (a != b).then(|| Break::new(level, what, a.to_string(), b.to_string()))
    };
    if let Some(b) = scalar(
        "algorithm",
        e.algorithm.into(),
        f.algorithm.into(),
        Level::L2,
    )
    .or_else(|| scalar("engine mode", e.mode.into(), f.mode.into(), Level::L2))
    .or_else(|| scalar("finder", e.finder.into(), f.finder.into(), Level::L2))
    {
        return Some(b);
    }
    if let Some(i) = first_index(&e.path, &f.path) {
        return Some(Break::new(
            Level::L2,
            format!("path position {i}"),
            divergence::opt(e.path.get(i), "end of path"),
            divergence::opt(f.path.get(i), "end of path"),
        ));
    }
    if e.points != f.points {
        let i = first_index(&e.points, &f.points).unwrap_or(0);
        let pt = |p: Option<&(u64, u64)>| {
            p.map(|&(x, y)| format!("({:?}, {:?})", f64::from_bits(x), f64::from_bits(y)))
                .unwrap_or_else(|| "end of list".into())
        };
        return Some(Break::new(
            Level::L2,
            format!("world point {i}"),
            pt(e.points.get(i)),
            pt(f.points.get(i)),
        ));
    }
    if let Some(i) = first_index(&e.expansions, &f.expansions) {
        let mut br = Break::new(
            Level::L3,
            format!("expansion step {i}"),
            divergence::opt(e.expansions.get(i), "end of list"),
            divergence::opt(f.expansions.get(i), "end of list"),
        );
        br.step = Some(i);
        br.context = Some((window(&e.expansions, i), window(&f.expansions, i)));
        return Some(br);
    }
    if let Some(b) = scalar("iterations", e.iterations, f.iterations, Level::L3)
        .or_else(|| scalar("expanded count", e.expanded, f.expanded, Level::L3))
    {
        return Some(b);
    }
    let bytes = |what: &str, a: &[u8], b: &[u8]| {
        first_index(a, b).map(|i| {
            let at = |v: &[u8]| {
                v.get(i)
                    .map(|c| format!("{c:#04x}"))
                    .unwrap_or_else(|| format!("end ({} bytes)", v.len()))
            };
            Break::new(Level::L4, format!("{what} byte {i}"), at(a), at(b))
        })
    };
    bytes("state", &e.state, &f.state)
        .or_else(|| bytes("snapshot", &e.snapshot, &f.snapshot))
        .or_else(|| bytes("re-saved snapshot", &e.resaved, &f.resaved))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::{AlgorithmCode, PathOutcome, StatusCode};

    fn p() -> PathOutcome {
        PathOutcome {
            algorithm: AlgorithmCode::Astar,
            status: StatusCode::Found,
            cost: 4.0,
            iterations: 5,
            expanded_count: 4,
            nodes: vec![0, 2, 3],
            expanded: vec![0, 1, 2, 4],
        }
    }

    #[test]
    fn cost_beats_expansion_order() {
        let mut b = p();
        b.expanded.swap(0, 1);
        b.cost = 5.0;
        let br = outcome_break(&Outcome::Path(p()), &Outcome::Path(b)).unwrap();
        assert_eq!(br.level, Level::L1);
        let mut c = p();
        c.expanded.swap(2, 3);
        let br = outcome_break(&Outcome::Path(p()), &Outcome::Path(c)).unwrap();
        assert_eq!((br.level, br.step), (Level::L3, Some(2)));
        assert_eq!(br.context.unwrap().0, "steps 0..: 0 1 [2] 4");
    }

    #[test]
    fn path_breaks_l2() {
        let mut b = p();
        b.nodes[1] = 1;
        assert_eq!(
            outcome_break(&Outcome::Path(p()), &Outcome::Path(b))
                .unwrap()
                .level,
            Level::L2
        );
    }
}
