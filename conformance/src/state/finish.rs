//! A search's finish in words, and the first member where two finishes differ
//! ([CONF.STATE.DIVERGENCE]): a state check names `path[3]` or `status` with the two values in
//! the wire reply's terms, never a dump of the structures in Rust's debug form (issue 34).

use super::SearchSummary;
use crate::outcome::SearchCode;

/// A tier-2 status as its wire code and name: `2 (found)` ([GRAPH.ASTAR.STATUS]).
pub fn status_words(code: SearchCode) -> &'static str {
    match code {
        SearchCode::NotStarted => "0 (not started)",
        SearchCode::Running => "1 (running)",
        SearchCode::Found => "2 (found)",
        SearchCode::NotFound => "3 (not found)",
    }
}

/// A path cost from its bits, in the shortest text that reads back to the same bits
/// (`-0.0` and `inf` kept apart from `0.0` and the largest finite value).
fn cost_words(bits: u64) -> String {
    let v = f64::from_bits(bits);
    if v.is_nan() {
        format!("NaN (bits {bits:#018x})")
    } else {
        format!("{v:?}")
    }
}

/// A whole finish in words, for a message that has no second finish to compare with:
/// `status 2 (found), iterations 9, expanded 9, cost 4.0, path of 5 nodes, 9 expansions`.
pub fn finish_words(s: Option<&SearchSummary>) -> String {
    match s {
        None => "no search".to_string(),
        Some(s) => format!(
            "status {}, iterations {}, expanded {}, cost {}, path of {} nodes, {} expansions",
            status_words(s.status),
            s.iterations,
            s.expanded,
            cost_words(s.cost_bits),
            s.path.len(),
            s.expansions.len()
        ),
    }
}

/// The first place two lists differ: `name[i]` with both values, or the end of the shorter.
fn list_divergence(name: &str, e: &[u32], f: &[u32]) -> Option<(String, String, String)> {
    let i = (0..e.len().max(f.len())).find(|&i| e.get(i) != f.get(i))?;
    let at = |x: &[u32]| {
        x.get(i).map_or_else(
            || format!("the end of the list (length {})", x.len()),
            u32::to_string,
        )
    };
    Some((format!("{name}[{i}]"), at(e), at(f)))
}

/// [CONF.STATE.DIVERGENCE] The first member, in the wire reply's member order (`status`,
/// `iterations`, `expanded`, `cost_bits`, `path`, `expansions`), where `found` differs from
/// `expected`: `(member, expected value, found value)`, or `None` when they are equal.
pub fn finish_divergence(
    expected: Option<&SearchSummary>,
    found: Option<&SearchSummary>,
) -> Option<(String, String, String)> {
    let (e, f) = match (expected, found) {
        (None, None) => return None,
        (Some(e), Some(f)) => (e, f),
        (e, f) => return Some(("search".into(), finish_words(e), finish_words(f))),
    };
    if e.status != f.status {
        return Some((
            "status".into(),
            status_words(e.status).into(),
            status_words(f.status).into(),
        ));
    }
    if e.iterations != f.iterations {
        return Some((
            "iterations".into(),
            e.iterations.to_string(),
            f.iterations.to_string(),
        ));
    }
    if e.expanded != f.expanded {
        return Some((
            "expanded".into(),
            e.expanded.to_string(),
            f.expanded.to_string(),
        ));
    }
    if e.cost_bits != f.cost_bits {
        return Some((
            "cost_bits".into(),
            cost_words(e.cost_bits),
            cost_words(f.cost_bits),
        ));
    }
    list_divergence("path", &e.path, &f.path)
        .or_else(|| list_divergence("expansions", &e.expansions, &f.expansions))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finish() -> SearchSummary {
        SearchSummary {
            status: SearchCode::Found,
            iterations: 4,
            expanded: 4,
            cost_bits: 3.5f64.to_bits(),
            path: vec![0, 2, 5],
            expansions: vec![0, 1, 2, 5],
        }
    }

    #[test]
    fn names_the_first_member_in_wire_order() {
        let a = finish();
        assert_eq!(finish_divergence(Some(&a), Some(&a)), None);
        let mut b = a.clone();
        b.expansions[2] = 3;
        b.path.push(6);
        assert_eq!(
            finish_divergence(Some(&a), Some(&b)),
            Some((
                "path[3]".into(),
                "the end of the list (length 3)".into(),
                "6".into()
            ))
        );
        b.path.pop();
        assert_eq!(
            finish_divergence(Some(&a), Some(&b)),
            Some(("expansions[2]".into(), "2".into(), "3".into()))
        );
        b.status = SearchCode::NotFound;
        assert_eq!(
            finish_divergence(Some(&a), Some(&b)),
            Some(("status".into(), "2 (found)".into(), "3 (not found)".into()))
        );
        let mut c = a.clone();
        c.cost_bits = (-0.0f64).to_bits();
        let mut d = a.clone();
        d.cost_bits = 0.0f64.to_bits();
        assert_eq!(
            finish_divergence(Some(&c), Some(&d)),
            Some(("cost_bits".into(), "-0.0".into(), "0.0".into()))
        );
    }

    #[test]
    fn a_missing_search_in_words() {
        let a = finish();
        let (member, e, f) = finish_divergence(None, Some(&a)).unwrap();
        assert_eq!(member, "search");
        assert_eq!(e, "no search");
        assert_eq!(
            f,
            "status 2 (found), iterations 4, expanded 4, cost 3.5, path of 3 nodes, 4 expansions"
        );
        assert!(!f.contains("Some") && !f.contains("Found"));
    }
}
