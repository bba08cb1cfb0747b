//! proptest: the two flow-field fuzz targets (conformance/src/fuzzing/flow.rs) on seeded random
//! inputs, so a plain `cargo test` exercises them without cargo-fuzz: `flow_script` (small square
//! and hex maps, accepted and rejected options and goals, scripts of steps, edits, area edits,
//! recomputes, saves, rollbacks and foreign restores: both crates equal, the oracle holds) and
//! `state_restore_flow_field` (the seeds, i.e. the fixed fields' own saves, with byte overwrites,
//! truncation and appended bytes, and raw byte strings: both crates agree on the restore and on
//! what the field does afterwards, accepted bytes re-save unchanged, a rejected restore leaves the
//! field reset and unusable).
use onepath_conformance::flow::{FlowReply, FlowStep};
use onepath_conformance::fuzzing::flow::{
    decode_flow_script, flow_field_seeds, flow_script, state_restore_flow_field,
};
use onepath_conformance::{Implementation, ReferenceCrate};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

mod common;
use common::{bytes, runner};

/// The panic-text patterns of `target`'s open bugs in fuzz/known-open.txt. Only the subset of
/// ERE that is literal text and `.*`-free escapes (`\(`, `\[`, `[0-9]+`) is used there, so it is
/// matched here by a small matcher rather than a regex crate.
fn known_open(target: &str) -> Vec<String> {
    known_open_entries(target)
        .into_iter()
        .map(|(_, e)| e)
        .collect()
}

/// `(regression id, ERE)` of `target`'s open bugs in fuzz/known-open.txt.
fn known_open_entries(target: &str) -> Vec<(String, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../fuzz/known-open.txt");
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut p = l.splitn(4, '|');
            (p.next()? == target).then(|| Some((p.next()?.to_string(), p.next()?.to_string())))?
        })
        .collect()
}

/// Whether `text` contains a match of `ere` (literal characters, `\x` escapes, `[0-9]+`).
fn ere_matches(ere: &str, text: &str) -> bool {
    enum Tok {
        Lit(char),
        Digits,
    }
    let mut toks = Vec::new();
    let mut it = ere.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '\\' => toks.push(Tok::Lit(it.next().expect("escape"))),
            '[' => {
                let class: String = it.by_ref().take_while(|&c| c != ']').collect();
                assert_eq!(class, "0-9", "unsupported class in {ere}");
                assert_eq!(it.next(), Some('+'), "[0-9] without + in {ere}");
                toks.push(Tok::Digits);
            }
            '(' | ')' | '*' | '+' | '?' | '|' | '.' | '^' | '$' | '{' => {
                panic!("unsupported ERE operator {c:?} in {ere}")
            }
            c => toks.push(Tok::Lit(c)),
        }
    }
    let t: Vec<char> = text.chars().collect();
    let at = |mut i: usize| -> bool {
        for tok in &toks {
            match tok {
                Tok::Lit(c) => {
                    if t.get(i) != Some(c) {
                        return false;
                    }
                    i += 1;
                }
                Tok::Digits => {
                    let s = i;
                    while t.get(i).is_some_and(|c| c.is_ascii_digit()) {
                        i += 1;
                    }
                    if i == s {
                        return false;
                    }
                }
            }
        }
        true
    };
    (0..=t.len()).any(at)
}

/// `f` on `b`, with a finding of an open bug of `target` counted in `hits` and passed.
fn check(
    target: &str,
    f: fn(&[u8]) -> Result<(), onepath_conformance::fuzzing::Finding>,
    b: &[u8],
    known: &[String],
    hits: &std::cell::Cell<usize>,
) -> Result<(), TestCaseError> {
    // The oracle on every input, not on the fuzz targets' sample (issue 36).
    onepath_conformance::fuzzing::set_always_deep();
    match f(b) {
        Ok(()) => Ok(()),
        Err(e) if known.iter().any(|k| ere_matches(k, e.what())) => {
            hits.set(hits.get() + 1);
            Ok(())
        }
        Err(e) => Err(TestCaseError::fail(format!("{target}: {e}"))),
    }
}

#[test]
fn flow_script_differential() {
    let known = known_open("flow_script");
    let hits = std::cell::Cell::new(0);
    let mut r = runner(6_000, 51);
    if let Err(e) = r.run(&bytes(700), |b| {
        check("flow_script", flow_script, &b, &known, &hits)
    }) {
        panic!("{e}");
    }
    println!(
        "{} inputs hit an open bug of fuzz/known-open.txt",
        hits.get()
    );
}

/// The decoder reaches what it is meant to: completed fields, repairs, rejected options and
/// goals, accepted and rejected foreign restores (counted over the same inputs as above).
#[test]
fn flow_script_inputs_reach_every_kind_of_step() {
    let mut rng = onepath_conformance::prng::SplitMix64::new(0x00F1_0F5C);
    let (mut failed_new, mut complete, mut repairs, mut restores_ok, mut restores_bad) =
        (0, 0, 0, 0, 0);
    for _ in 0..2_000 {
        let len = rng.below(700) as usize;
        let data: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        let Some(r) = decode_flow_script(&data) else {
            continue;
        };
        match ReferenceCrate.run_flow(&r).expect("reference") {
            FlowReply::Failed(_) => failed_new += 1,
            FlowReply::Ran { steps, .. } => {
                complete += steps.iter().filter(|s| s.returned == Some(2)).count();
                repairs += steps.iter().filter(|s| s.repairing).count();
                for (s, got) in r.script.iter().zip(&steps) {
                    if matches!(s, FlowStep::Restore { .. }) {
                        if got.error.is_none() {
                            restores_ok += 1;
                        } else {
                            restores_bad += 1;
                        }
                    }
                }
            }
        }
    }
    println!(
        "new failed {failed_new}, completed steps {complete}, repairing {repairs}, foreign restores accepted {restores_ok} / rejected {restores_bad}"
    );
    assert!(
        failed_new > 50 && complete > 2_000 && repairs > 50 && restores_ok > 20 && restores_bad > 50,
        "new failed {failed_new}, complete {complete}, repairing {repairs}, restores ok {restores_ok} / bad {restores_bad}"
    );
}

#[test]
fn flow_field_state_restore() {
    const T: &str = "state_restore_flow_field";
    let known = known_open(T);
    let hits = std::cell::Cell::new(0);
    let seeds = flow_field_seeds();
    assert!(
        seeds.len() > 40 && seeds.len() < 128,
        "{} seeds",
        seeds.len()
    );
    for (name, b) in &seeds {
        state_restore_flow_field(b).unwrap_or_else(|e| panic!("seed {name}: {e}"));
    }
    let edits = (
        any::<usize>(),
        proptest::collection::vec((any::<usize>(), any::<u8>()), 0..6),
        proptest::option::weighted(0.2, any::<usize>()),
        proptest::collection::vec(any::<u8>(), 0..3),
    );
    let mut r = runner(10_000, 52);
    let result = r.run(&edits, |(which, writes, cut, tail)| {
        let mut b = seeds[which % seeds.len()].1.clone();
        for (at, v) in writes {
            // Byte 0 picks the field; mostly damage the header and counts near the front.
            let i = 1 + at % (b.len() - 1).max(1);
            let i = if at % 3 == 0 {
                i
            } else {
                1 + (i - 1) % 96.min(b.len() - 1).max(1)
            };
            if i < b.len() {
                b[i] = v;
            }
        }
        if let Some(c) = cut {
            b.truncate(1 + c % b.len());
        }
        b.extend_from_slice(&tail);
        check(T, state_restore_flow_field, &b, &known, &hits)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    // Raw inputs: decoded fields, raw bytes and the target's own mutation mode (byte 0 >= 0x80).
    let mut r = runner(6_000, 53);
    if let Err(e) = r.run(&bytes(400), |b| {
        check(T, state_restore_flow_field, &b, &known, &hits)
    }) {
        panic!("{e}");
    }
    println!(
        "{} inputs hit an open bug of fuzz/known-open.txt",
        hits.get()
    );
}

/// Every open bug of the flow targets in fuzz/known-open.txt still fails its regression file
/// with a text its pattern matches (so the pattern the tests above and `fuzz/ci.sh` skip is the
/// bug's; when the bug is fixed this fails: delete the line).
#[test]
fn the_open_bug_patterns_match_their_regressions() {
    onepath_conformance::fuzzing::set_always_deep();
    type F = fn(&[u8]) -> Result<(), onepath_conformance::fuzzing::Finding>;
    for (t, f) in [
        ("flow_script", flow_script as F),
        ("state_restore_flow_field", state_restore_flow_field as F),
    ] {
        for (id, ere) in known_open_entries(t) {
            let path = format!(
                "{}/../fuzz/regressions/{t}/{id}",
                env!("CARGO_MANIFEST_DIR")
            );
            let b = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            match f(&b) {
                Ok(()) => panic!(
                    "{t}/{id} passes: the bug is fixed, delete its line in fuzz/known-open.txt"
                ),
                Err(e) => assert!(
                    ere_matches(&ere, e.what()),
                    "{t}/{id}: {e} does not match {ere}"
                ),
            }
        }
    }
    assert!(!ere_matches("a[0-9]+b", "ab"));
    assert!(ere_matches("a[0-9]+b", "xa12b"));
    assert!(ere_matches(r"\(x\)", "a(x)"));
}

/// The oracle (with its [FLOW.DIR.PLATEAU] allowance in the final walk) passes the reference's
/// reply to every vector request, the plateau vector included.
#[test]
fn the_oracle_passes_every_vector_request() {
    for (comment, r) in onepath_conformance::flow::vectors::requests() {
        let reply = ReferenceCrate.run_flow(&r).expect("reference");
        if let Some(p) = onepath_conformance::flow::oracle::check(&r, &reply) {
            panic!("{comment}: {p}");
        }
    }
}
