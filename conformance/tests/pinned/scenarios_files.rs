//! Named checks for the kit's own scenario, encoding, file and interface rules
//! (spec/conformance.md: [CONF.ENC.*], [CONF.SCN.*], [CONF.VAR.*], [CONF.MATRIX.*],
//! [CONF.MANIFEST.FILE], [CONF.FILES.LAYOUT], [CONF.GEN.*], [CONF.ORACLE.*], [CONF.DIFF.ORDER],
//! [CONF.IMPL.HOOK_RULES] and the default bodies of the `Implementation` trait). Each test
//! states the rule independently of the code that implements it (hand-built bytes, known
//! SplitMix64 outputs, a layout renderer of its own, the committed files) so that a change of
//! the kit that breaks the rule fails here.

use onepath_conformance::checks::default_vectors_dir;
use onepath_conformance::checks::generated::generated_case;
use onepath_conformance::error::ErrorKind;
use onepath_conformance::generators::{directed_edges, generate, Kind, PointMode};
use onepath_conformance::implementation::{
    BlockedRule, BuildFailure, CancelTrace, CostRule, GraphOp, HeuristicRule, HookedQuery,
    HookedRun, LinkRequest, LinkResult, OplmError, RunOptions,
};
use onepath_conformance::oracle::{costs_agree, distances};
use onepath_conformance::outcome::{
    cell_hash, first_difference, sha256_hex, AlgorithmCode, Outcome, PathOutcome, StatusCode,
};
use onepath_conformance::prng::SplitMix64;
use onepath_conformance::scenario::{Case, GraphSpec, Scenario, Variant};
use onepath_conformance::vectors::{list_files, read_scenarios, Manifest, Matrix};
use onepath_conformance::{Implementation, OptimizedCrate, ReferenceCrate};
use serde_json::Value;
use std::sync::Mutex;

fn committed(rel: &str) -> String {
    std::fs::read_to_string(default_vectors_dir().join(rel)).expect("committed file")
}

fn edited(rel: &str, edit: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(&committed(rel)).unwrap();
    edit(&mut v);
    v.to_string()
}

fn scenarios() -> Vec<Scenario> {
    let s = read_scenarios(&default_vectors_dir()).expect("committed scenarios");
    assert!(s.len() >= 25, "only {} scenarios", s.len());
    s
}

fn path(algorithm: AlgorithmCode, status: StatusCode, cost: f64) -> PathOutcome {
    PathOutcome {
        algorithm,
        status,
        cost,
        iterations: 7,
        expanded_count: 9,
        nodes: vec![1, 2],
        expanded: vec![3],
    }
}

// pins [CONF.ENC.RESULT] [CONF.ENC.ERROR] [CONF.MATRIX.CELL]: hand-built little-endian bytes of a
// result and an error; another tag, field order, width or byte order, or a cell not the SHA-256 of
// the encodings in query order, fails
#[test]
fn outcomes_encode_to_the_spec_bytes_and_cells_hash_their_concatenation() {
    let r = Outcome::Path(path(
        AlgorithmCode::BidirectionalAstar,
        StatusCode::BudgetExhausted,
        2.5,
    ));
    let mut want = vec![1u8, 4, 2];
    want.extend_from_slice(&0x4004_0000_0000_0000u64.to_le_bytes());
    want.extend_from_slice(&7u64.to_le_bytes());
    want.extend_from_slice(&9u64.to_le_bytes());
    want.extend_from_slice(&[2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]);
    want.extend_from_slice(&[1, 0, 0, 0, 3, 0, 0, 0]);
    assert_eq!(r.encode(), want);
    assert_eq!(want.len(), 3 + 24 + 4 + 4 * 2 + 4 + 4);
    for (a, byte) in [
        (AlgorithmCode::Dijkstra, 1u8),
        (AlgorithmCode::Astar, 2),
        (AlgorithmCode::BidirectionalDijkstra, 3),
    ] {
        assert_eq!(
            Outcome::Path(path(a, StatusCode::Found, 1.0)).encode()[1],
            byte
        );
    }
    assert_eq!(
        Outcome::Path(path(
            AlgorithmCode::Astar,
            StatusCode::NotFound,
            f64::INFINITY
        ))
        .encode()[2..11],
        [1, 0, 0, 0, 0, 0, 0, 0xf0, 0x7f]
    );
    let e = Outcome::Error("stale_landmarks".into());
    let mut want_e = vec![2u8, 15, 0];
    want_e.extend_from_slice(b"stale_landmarks");
    assert_eq!(e.encode(), want_e);
    let mut both = want.clone();
    both.extend_from_slice(&want_e);
    assert_eq!(cell_hash(&[r.clone(), e.clone()]), sha256_hex(&both));
    assert_ne!(cell_hash(&[e, r]), sha256_hex(&both), "query order matters");
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

// pins [CONF.DIFF.ORDER]: outcomes differing in several fields at once must be reported at the
// earliest field of the spec's order; a -0.0 cost against +0.0 must differ in cost bits
#[test]
fn the_first_difference_follows_the_field_order() {
    let base = PathOutcome {
        algorithm: AlgorithmCode::Astar,
        status: StatusCode::Found,
        cost: 3.0,
        iterations: 4,
        expanded_count: 3,
        nodes: vec![0, 1, 2],
        expanded: vec![0, 1, 2],
    };
    // Each step breaks one more field, earlier in the order than the ones already broken, so
    // each comparison sees every later field broken too.
    let steps: [(&str, Option<usize>); 7] = [
        ("expanded_count", None),
        ("iterations", None),
        ("path position 1", None),
        ("cost bits", None),
        ("status", None),
        ("expansion step 2", Some(2)),
        ("algorithm", None),
    ];
    let mut o = base.clone();
    type Setter = Box<dyn Fn(&mut PathOutcome)>;
    let setters: Vec<Setter> = vec![
        Box::new(|p| p.expanded_count = 5),
        Box::new(|p| p.iterations = 9),
        Box::new(|p| p.nodes = vec![0, 2]),
        Box::new(|p| p.cost = f64::from_bits(3.0f64.to_bits() + 1)),
        Box::new(|p| p.status = StatusCode::NotFound),
        Box::new(|p| p.expanded = vec![0, 1]),
        Box::new(|p| p.algorithm = AlgorithmCode::Dijkstra),
    ];
    for (set, (what, step)) in setters.iter().zip(&steps) {
        set(&mut o);
        let d = first_difference(&Outcome::Path(base.clone()), &Outcome::Path(o.clone()))
            .expect("a difference");
        assert_eq!((d.what.as_str(), d.step), (*what, *step), "{d}");
    }
    // A list that ends early differs at its length; an error differs by kind, then class.
    let mut short = base.clone();
    short.expanded.pop();
    let d = first_difference(&Outcome::Path(base.clone()), &Outcome::Path(short)).unwrap();
    assert_eq!(
        (d.what.as_str(), d.found.as_str()),
        ("expansion step 2", "end of list")
    );
    let d = first_difference(&Outcome::Path(o), &Outcome::Error("x".into())).unwrap();
    assert_eq!(d.what, "kind");
    let d = first_difference(&Outcome::Error("a".into()), &Outcome::Error("b".into())).unwrap();
    assert_eq!(d.what, "error class");
    // Equal exactly when the encodings are byte-identical: -0.0 and +0.0 costs differ.
    let mut z = base.clone();
    z.cost = 0.0;
    let mut nz = z.clone();
    nz.cost = -0.0;
    let d = first_difference(&Outcome::Path(z.clone()), &Outcome::Path(nz)).unwrap();
    assert_eq!(d.what, "cost bits");
    assert!(first_difference(&Outcome::Path(z.clone()), &Outcome::Path(z)).is_none());
}

// pins [CONF.ORACLE.DIJKSTRA] [CONF.ORACLE.TOLERANCE]: hand-computed distances (zero weights,
// unreachable, undirected) and costs one ulp off an integer, 2e-9 off a fractional cost, or finite
// against infinity must disagree
#[test]
fn the_oracle_gives_true_distances_and_compares_by_weight_kind() {
    // Directed: 0 -> 1 (0), 1 -> 2 (4), 0 -> 2 (5), 2 -> 3 (1), 3 -> 1 (0); node 4 unreachable.
    let edges = [
        (0, 1, 0.0),
        (1, 2, 4.0),
        (0, 2, 5.0),
        (2, 3, 1.0),
        (3, 1, 0.0),
    ];
    let d = distances(5, &edges, 0);
    assert_eq!(&d[..4], &[0.0, 0.0, 4.0, 5.0]);
    assert!(d[4].is_infinite());
    assert_eq!(distances(5, &edges, 3)[..4], [f64::INFINITY, 0.0, 4.0, 0.0]);
    // An undirected list is expanded in both directions for the oracle.
    let g = GraphSpec::Edges {
        node_count: 3,
        directed: false,
        edges: vec![(0, 1, 2.0), (1, 2, 3.0)],
        positions: None,
    };
    let both = directed_edges(&g).unwrap();
    assert_eq!(distances(3, &both, 2), [5.0, 3.0, 0.0]);
    // Tolerance: exact for integer weights, 1e-9 relative otherwise, infinity only equals itself.
    let up = |c: f64| f64::from_bits(c.to_bits() + 1);
    assert!(costs_agree(7.0, 7.0, true));
    assert!(!costs_agree(7.0, up(7.0), true));
    assert!(costs_agree(7.0, up(7.0), false));
    assert!(costs_agree(1000.0, 1000.0 * (1.0 + 0.9e-9), false));
    assert!(!costs_agree(1000.0, 1000.0 * (1.0 + 2e-9), false));
    assert!(costs_agree(f64::INFINITY, f64::INFINITY, false));
    assert!(!costs_agree(f64::INFINITY, f64::MAX, false));
    assert!(!costs_agree(1e300, f64::INFINITY, false));
}

// pins [CONF.GEN.PRNG]: known SplitMix64 outputs of seed 0, a rejected first draw in below(6),
// unit() from the top 53 bits, and generated cases rebuilt from their name's kind and seed
#[test]
fn splitmix64_is_the_published_generator_and_names_reproduce_cases() {
    let mut r = SplitMix64::new(0);
    assert_eq!(
        [r.next_u64(), r.next_u64(), r.next_u64()],
        [0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f]
    );
    // Seed 17595026016420499197 first draws 2^64 - 3, which a uniform draw below 6 rejects:
    // the value comes from the second draw (15751815470758978706 % 6 = 2), not 2^64 - 3 % 6 = 1.
    let seed = 17595026016420499197;
    assert_eq!(SplitMix64::new(seed).next_u64(), u64::MAX - 2);
    assert_eq!(SplitMix64::new(seed).below(6), 2);
    // A real is the top 53 bits of a draw times 2^-53.
    assert_eq!(SplitMix64::new(seed).unit(), 0.9999999999999999);
    let mut u = SplitMix64::new(0);
    assert_eq!(
        u.unit(),
        (0xe220a8397b1dcdafu64 >> 11) as f64 / (1u64 << 53) as f64
    );
    // kind#seed: the name's kind and seed (with the size recorded beside them) give the case.
    for index in 0..18 {
        let (name, g) = generated_case(11, index);
        let (kind, seed) = name.split_once('#').unwrap();
        let seed: u64 = seed.parse().unwrap();
        assert_eq!(g.provenance["kind"], kind);
        assert_eq!(g.provenance["seed"], seed);
        let kind = *Kind::ALL.iter().find(|k| k.name() == kind).unwrap();
        let size = g.provenance["size"].as_u64().unwrap() as usize;
        let again = generate(kind, seed, size, 3);
        assert_eq!(
            (&again.case, &again.queries),
            (&g.case, &g.queries),
            "{name}"
        );
        assert_eq!(generated_case(11, index).0, name);
    }
}

fn is_int(w: f64) -> bool {
    w.fract() == 0.0
}

// pins [CONF.GEN.KINDS]: over 40 seeds per kind: edge counts, weight ranges and integrality,
// directedness, positions and point-link modes, and zeros, self-loops, parallel edges and explicit
// links occur
#[test]
fn generated_kinds_have_their_shapes_and_weights() {
    let (mut zeros, mut loops, mut parallel) = (0, 0, 0);
    for seed in 1..=40u64 {
        match generate(Kind::Sparse, seed, 12, 3).case.graph {
            GraphSpec::Edges {
                node_count,
                directed,
                edges,
                positions,
            } => {
                let n = node_count as usize;
                assert!(directed && positions.is_none());
                assert!((2 * n..3 * n).contains(&edges.len()), "{}", edges.len());
                assert!(edges
                    .iter()
                    .all(|e| is_int(e.2) && (0.0..=9.0).contains(&e.2)));
                zeros += edges.iter().filter(|e| e.2 == 0.0).count();
                loops += edges.iter().filter(|e| e.0 == e.1).count();
                let mut pairs: Vec<_> = edges.iter().map(|e| (e.0, e.1)).collect();
                pairs.sort();
                parallel += pairs.windows(2).filter(|w| w[0] == w[1]).count();
            }
            g => panic!("sparse gave {g:?}"),
        }
        match generate(Kind::Dense, seed, 12, 3).case.graph {
            GraphSpec::Edges {
                node_count,
                directed,
                edges,
                ..
            } => {
                let n = node_count as usize;
                let pairs = if directed {
                    n * (n - 1)
                } else {
                    n * (n - 1) / 2
                };
                assert!(edges
                    .iter()
                    .all(|e| is_int(e.2) && (1.0..=20.0).contains(&e.2)));
                assert!(edges.iter().all(|e| e.0 != e.1 && (directed || e.0 < e.1)));
                // Probability 0.3..0.8 per pair (loose bounds for 66 or 132 draws).
                assert!(edges.len() * 10 >= pairs && edges.len() * 10 <= pairs * 95 / 10);
            }
            g => panic!("dense gave {g:?}"),
        }
        for (kind, road) in [(Kind::Grid, false), (Kind::Road, true)] {
            match generate(kind, seed, 16, 3).case.graph {
                GraphSpec::Edges {
                    edges, positions, ..
                } => {
                    let p = positions.expect("lattice positions");
                    assert_eq!(p.iter().all(|q| q.iter().all(|c| is_int(*c))), !road);
                    for &(a, b, w) in &edges {
                        let len =
                            onepath_conformance::generators::distance(p[a as usize], p[b as usize]);
                        if road {
                            assert!(w >= len && w < len * 1.3 + 1e-9, "{w} {len}");
                        } else {
                            assert!(is_int(w) && w >= len.ceil() && w <= len.ceil() + 2.0);
                        }
                    }
                    if road {
                        assert!(edges.iter().any(|e| !is_int(e.2)));
                    }
                }
                g => panic!("{} gave {g:?}", kind.name()),
            }
        }
    }
    assert!(
        zeros > 0 && loops > 0 && parallel > 0,
        "{zeros} {loops} {parallel}"
    );
    for (kind, radius, nearest) in [
        (Kind::Points(PointMode::Radius), true, false),
        (Kind::Points(PointMode::Nearest), false, true),
        (Kind::Points(PointMode::Both), true, true),
        (Kind::Points(PointMode::Explicit), false, false),
        (Kind::Points3d, true, false),
    ] {
        let mut explicit_links = 0;
        let mut fractional = 0;
        let mut z = 0;
        for seed in 1..=40u64 {
            match generate(kind, seed, 12, 3).case.graph {
                GraphSpec::Points {
                    points,
                    explicit,
                    max_distance,
                    nearest_count,
                } => {
                    assert_eq!(max_distance > 0.0, radius, "{}", kind.name());
                    assert_eq!(nearest_count > 0, nearest, "{}", kind.name());
                    explicit_links += explicit.len();
                    fractional += points.iter().flatten().filter(|c| !is_int(**c)).count();
                    z += points.iter().filter(|p| p[2] != 0.0).count();
                }
                g => panic!("{} gave {g:?}", kind.name()),
            }
        }
        assert!(explicit_links > 0 && fractional > 0, "{}", kind.name());
        assert_eq!(z > 0, kind == Kind::Points3d, "{}", kind.name());
    }
}

// pins [CONF.SCN.FILE]: every graphs/GRAPH-NNNN.json must hold exactly one case whose members are,
// in text order, generator, graph, landmarks, queries, csr_edges_sha256, oplm_sha256, outcomes
#[test]
fn committed_scenarios_have_one_case_with_the_members_in_order() {
    let mut seen = 0;
    for rel in list_files(&default_vectors_dir()).unwrap() {
        let Some(name) = rel.strip_prefix("graphs/GRAPH-") else {
            continue;
        };
        let digits = name.strip_suffix(".json").unwrap();
        assert!(
            digits.len() == 4 && digits.bytes().all(|b| b.is_ascii_digit()),
            "{rel}"
        );
        let text = committed(&rel);
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["family"], "graph", "{rel}");
        assert_eq!(v["cases"].as_array().unwrap().len(), 1, "{rel}");
        // The case's members: the lines indented by exactly six spaces.
        let keys: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("      \""))
            .filter_map(|l| l.split('"').next())
            .collect();
        assert_eq!(
            keys,
            [
                "generator",
                "graph",
                "landmarks",
                "queries",
                "csr_edges_sha256",
                "oplm_sha256",
                "outcomes"
            ],
            "{rel}"
        );
        assert_eq!(v["cases"][0].as_object().unwrap().len(), 7, "{rel}");
        seen += 1;
    }
    assert_eq!(seen, scenarios().len());
}

fn parse_err(text: &str) -> String {
    match Scenario::parse(text) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.to_string(),
    }
}

// pins [CONF.SCN.STRICT]: a nullable member (positions, a hash, cost) left out, version 0, another
// schema, or an unknown landmark or outcome member must each be refused, never defaulted
#[test]
fn scenario_readers_have_no_defaults() {
    let rel = "graphs/GRAPH-0001.json";
    assert!(Scenario::parse(&committed(rel)).is_ok());
    for (pointer, member) in [
        ("/cases/0/graph", "positions"),
        ("/cases/0", "csr_edges_sha256"),
        ("/cases/0", "oplm_sha256"),
        ("/cases/0/landmarks", "seed"),
        ("/cases/0", "generator"),
    ] {
        let text = edited(rel, |v| {
            v.pointer_mut(pointer)
                .unwrap()
                .as_object_mut()
                .unwrap()
                .remove(member);
        });
        let e = parse_err(&text);
        assert!(
            e.contains(&format!("missing field `{member}`")),
            "{member}: {e}"
        );
    }
    // A null cost (an infinite one) must be written as null, not left out.
    let e = parse_err(&edited("graphs/GRAPH-0002.json", |v| {
        let list = v["cases"][0]["outcomes"]["dijkstra"]
            .as_array_mut()
            .unwrap();
        let o = list
            .iter_mut()
            .find(|o| o.get("cost") == Some(&Value::Null))
            .expect("an infinite cost");
        o.as_object_mut().unwrap().remove("cost");
    }));
    assert!(e.contains("DecodedOutcome"), "{e}");
    for (edit, says) in [
        (
            Box::new(|v: &mut Value| v["version"] = 0.into()) as Box<dyn Fn(&mut Value)>,
            "unsupported version 0",
        ),
        (
            Box::new(|v: &mut Value| v["schema"] = "onepath.vectors".into()),
            "onepath.vectors",
        ),
        (
            Box::new(|v: &mut Value| v["cases"][0]["landmarks"]["extra"] = 1.into()),
            "unknown field `extra`",
        ),
        (
            Box::new(|v: &mut Value| v["cases"][0]["outcomes"]["dijkstra"][0]["note"] = 1.into()),
            "DecodedOutcome",
        ),
    ] {
        let mut v: Value = serde_json::from_str(&committed(rel)).unwrap();
        edit(&mut v);
        let e = parse_err(&v.to_string());
        assert!(e.contains(says), "{says}: {e}");
    }
}

// pins [CONF.SCN.GENERATOR]: a generator without kind or seed is refused; a changed seed or extra
// parameter must leave the graph, queries and outcomes as the file gives them
#[test]
fn the_generator_is_provenance_the_reader_never_replays() {
    let rel = "graphs/GRAPH-0003.json";
    let original = Scenario::parse(&committed(rel)).unwrap();
    for key in ["kind", "seed"] {
        let e = parse_err(&edited(rel, |v| {
            v["cases"][0]["generator"]
                .as_object_mut()
                .unwrap()
                .remove(key);
        }));
        assert!(e.contains(&format!("generator has no \"{key}\"")), "{e}");
    }
    let changed = Scenario::parse(&edited(rel, |v| {
        v["cases"][0]["generator"]["seed"] = 987654321.into();
        v["cases"][0]["generator"]["size"] = 3.into();
        v["cases"][0]["generator"]["note"] = "hand edit".into();
    }))
    .expect("the generator is informative");
    assert_eq!(changed.graph, original.graph);
    assert_eq!(changed.queries, original.queries);
    assert_eq!(changed.outcomes, original.outcomes);
    assert_eq!(changed.generator["seed"], 987654321);
}

// pins [CONF.SCN.COMPLETE]: outcomes missing an applicable variant, holding a geo variant of a
// graph without positions, or one short of the queries must be refused; committed files obey it
#[test]
fn outcomes_cover_exactly_the_applicable_variants_and_every_query() {
    let no_positions = "graphs/GRAPH-0003.json";
    let e = parse_err(&edited(no_positions, |v| {
        v["cases"][0]["outcomes"]
            .as_object_mut()
            .unwrap()
            .remove("bidi_alt");
    }));
    assert!(e.contains("no outcomes for variant bidi_alt"), "{e}");
    let e = parse_err(&edited(no_positions, |v| {
        let d = v["cases"][0]["outcomes"]["dijkstra"].clone();
        v["cases"][0]["outcomes"]["astar_geo"] = d;
    }));
    assert!(e.contains("outcomes for n/a variant astar_geo"), "{e}");
    let e = parse_err(&edited("graphs/GRAPH-0008.json", |v| {
        v["cases"][0]["outcomes"]["bidi_geo"]
            .as_array_mut()
            .unwrap()
            .pop();
    }));
    assert!(e.contains("4 outcomes for 5 queries"), "{e}");
    // And the committed files obey it.
    for s in scenarios() {
        for v in Variant::ALL {
            let list = s.outcomes.get(&v);
            assert_eq!(
                list.is_some(),
                v.applies_to(&s.graph),
                "{} {}",
                s.id,
                v.name()
            );
            if let Some(l) = list {
                assert_eq!(l.len(), s.queries.len(), "{} {}", s.id, v.name());
            }
        }
    }
}

// pins [CONF.SCN.OUTCOME]: a cost disagreeing with cost_bits, uppercase or short cost_bits, or an
// unknown status is refused; committed non-finite costs are null with bits 7ff0000000000000
#[test]
fn cost_bits_are_authoritative_and_must_agree_with_cost() {
    let rel = "graphs/GRAPH-0002.json";
    let at = |v: &mut Value| -> usize {
        v["cases"][0]["outcomes"]["dijkstra"]
            .as_array()
            .unwrap()
            .iter()
            .position(|o| o.get("status").is_some_and(|s| s == "found") && o["cost"] != 0.0)
            .expect("a found result with a nonzero cost")
    };
    let e = parse_err(&edited(rel, |v| {
        let i = at(v);
        let c = v["cases"][0]["outcomes"]["dijkstra"][i]["cost"]
            .as_f64()
            .unwrap();
        v["cases"][0]["outcomes"]["dijkstra"][i]["cost"] = (c + 1.0).into();
    }));
    assert!(e.contains("disagrees with cost_bits"), "{e}");
    for (bits, says) in [
        ("7FF0000000000000", "not 16 lowercase hex digits"),
        ("3ff00000", "not 16 lowercase hex digits"),
        ("7ff0000000000000", "disagrees with cost_bits"),
    ] {
        let e = parse_err(&edited(rel, |v| {
            let i = at(v);
            v["cases"][0]["outcomes"]["dijkstra"][i]["cost_bits"] = bits.into();
        }));
        assert!(e.contains(says), "{bits}: {e}");
    }
    let e = parse_err(&edited(rel, |v| {
        let i = at(v);
        v["cases"][0]["outcomes"]["dijkstra"][i]["status"] = "done".into();
    }));
    assert!(e.contains("DecodedOutcome"), "{e}");
    let mut infinite = 0;
    for s in scenarios() {
        let text = committed(&format!("graphs/{}.json", s.id));
        let v: Value = serde_json::from_str(&text).unwrap();
        for (_, list) in v["cases"][0]["outcomes"].as_object().unwrap() {
            for o in list.as_array().unwrap() {
                if o.get("error").is_some() {
                    assert_eq!(o.as_object().unwrap().len(), 1);
                    continue;
                }
                let bits = o["cost_bits"].as_str().unwrap();
                if o["cost"].is_null() {
                    assert_eq!(bits, "7ff0000000000000");
                    infinite += 1;
                } else {
                    assert_eq!(
                        format!("{:016x}", o["cost"].as_f64().unwrap().to_bits()),
                        bits
                    );
                }
            }
        }
    }
    assert!(infinite > 0);
}

// pins [CONF.SCN.FLOATS]: GRAPH-0019's -0.0 weights must keep their sign bit, and 0.1 + 0.2,
// 5e-324, f64::MAX, -0.0 and 1/3 must be written shortest and read back bit for bit
#[test]
fn reals_round_trip_bit_for_bit() {
    let s = Scenario::parse(&committed("graphs/GRAPH-0019.json")).unwrap();
    let GraphSpec::Edges { edges, .. } = &s.graph else {
        panic!("edges graph")
    };
    let negative_zeros = edges
        .iter()
        .filter(|e| e.2.to_bits() == (-0.0f64).to_bits())
        .count();
    assert_eq!(negative_zeros, 5);
    let mut t = s.clone();
    let weights = [0.1 + 0.2, 5e-324, f64::MAX, -0.0, 1.0 / 3.0];
    if let GraphSpec::Edges { edges, .. } = &mut t.graph {
        for (e, w) in edges.iter_mut().zip(weights) {
            e.2 = w;
        }
    }
    let text = onepath_conformance::json_text::to_text(&t.envelope());
    for written in [
        "0.30000000000000004",
        "5e-324",
        "1.7976931348623157e+308",
        "-0.0",
        "0.3333333333333333",
    ] {
        assert!(text.contains(written), "{written} not written");
    }
    let back = Scenario::parse(&text).unwrap();
    let GraphSpec::Edges { edges, .. } = &back.graph else {
        panic!("edges graph")
    };
    for (e, w) in edges.iter().zip(weights) {
        assert_eq!(e.2.to_bits(), w.to_bits());
    }
}

// pins [CONF.SCN.LANDMARKS] [CONF.SCN.HASHES] [CONF.ENC.LINKS]: each committed oplm_sha256 must
// hash the reference's table on the queried graph (or the error encoding), csr_edges_sha256 the
// links bytes built here (null for edges graphs)
#[test]
fn scenario_hashes_are_the_table_and_the_links_encoding() {
    fn links_bytes(n: usize, edges: &[(u32, u32, f64)]) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&(n as u32).to_le_bytes());
        out.extend_from_slice(&(edges.len() as u32).to_le_bytes());
        for &(a, b, w) in edges {
            out.extend_from_slice(&a.to_le_bytes());
            out.extend_from_slice(&b.to_le_bytes());
            out.extend_from_slice(&w.to_bits().to_le_bytes());
        }
        out
    }
    let mut points = 0;
    let mut failed_tables = 0;
    for s in scenarios() {
        let case = s.case();
        let oplm = match ReferenceCrate.build_landmarks(&case) {
            Ok(bytes) => {
                assert_eq!(&bytes[..4], b"OPLM", "{}", s.id);
                sha256_hex(&bytes)
            }
            Err(e) => {
                failed_tables += 1;
                let mut enc = vec![2u8];
                enc.extend_from_slice(&(e.text().len() as u16).to_le_bytes());
                enc.extend_from_slice(e.text().as_bytes());
                sha256_hex(&enc)
            }
        };
        assert_eq!(s.oplm_sha256.as_deref(), Some(oplm.as_str()), "{}", s.id);
        match &s.graph {
            GraphSpec::Points {
                points: p,
                explicit,
                max_distance,
                nearest_count,
            } => {
                points += 1;
                let links = ReferenceCrate
                    .build_links(&LinkRequest {
                        points: p.clone(),
                        explicit: explicit.clone(),
                        max_distance: *max_distance,
                        nearest_count: *nearest_count,
                        rule: None,
                    })
                    .unwrap();
                let bytes = links_bytes(p.len(), &links.edges);
                assert_eq!(
                    bytes,
                    onepath_conformance::vectors::encode_csr_edges(p.len(), &links.edges)
                );
                assert_eq!(
                    s.csr_edges_sha256.as_deref(),
                    Some(sha256_hex(&bytes).as_str()),
                    "{}",
                    s.id
                );
            }
            GraphSpec::Edges { .. } => assert_eq!(s.csr_edges_sha256, None, "{}", s.id),
        }
    }
    assert!(
        points >= 6 && failed_tables >= 1,
        "{points} {failed_tables}"
    );
    let e = parse_err(&edited("graphs/GRAPH-0001.json", |v| {
        v["cases"][0]["landmarks"]["strategy"] = "random".into();
    }));
    assert!(e.contains("random"), "{e}");
}

// pins [CONF.SCN.QUERIES]: GRAPH-0002's out-of-range query must hold the error in every variant,
// and each committed found path must run from its own query's start to its goal
#[test]
fn queries_may_leave_the_graph_and_outcomes_follow_their_order() {
    let s = Scenario::parse(&committed("graphs/GRAPH-0002.json")).unwrap();
    let n = s.graph.node_count() as u32;
    let outside: Vec<usize> = (0..s.queries.len())
        .filter(|&i| s.queries[i].0 >= n || s.queries[i].1 >= n)
        .collect();
    assert!(!outside.is_empty());
    for (v, list) in &s.outcomes {
        for &i in &outside {
            match list[i].to_outcome().unwrap() {
                Outcome::Error(c) => assert!(c.contains("out_of_range"), "{c}"),
                o => panic!("{} query {i}: {o:?}", v.name()),
            }
        }
    }
    for s in scenarios() {
        for list in s.outcomes.values() {
            for (o, q) in list.iter().zip(&s.queries) {
                if let Outcome::Path(p) = o.to_outcome().unwrap() {
                    if p.status == StatusCode::Found {
                        assert_eq!(
                            (p.nodes.first(), p.nodes.last()),
                            (Some(&q.0), Some(&q.1)),
                            "{}",
                            s.id
                        );
                    }
                }
            }
        }
    }
}

// pins [CONF.VAR.LIST] [CONF.VAR.TIER1] [CONF.VAR.ALT] [CONF.VAR.GEO]: each committed result must
// report its variant's algorithm (alt or geo without its estimate reports Dijkstra), never
// budget_exhausted, with a list as long as expanded_count
#[test]
fn committed_outcomes_show_each_variant_s_algorithm_budget_and_recording() {
    let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    assert_eq!(
        names,
        [
            "dijkstra",
            "astar_alt",
            "astar_geo",
            "astar_both",
            "bidi_dijkstra",
            "bidi_alt",
            "bidi_geo",
            "bidi_both"
        ]
    );
    let want = |v: Variant| match v.name() {
        "dijkstra" => AlgorithmCode::Dijkstra,
        "bidi_dijkstra" => AlgorithmCode::BidirectionalDijkstra,
        n if n.starts_with("astar_") => AlgorithmCode::Astar,
        _ => AlgorithmCode::BidirectionalAstar,
    };
    let mut results = std::collections::BTreeMap::<&str, usize>::new();
    let mut recorded = 0;
    for s in scenarios() {
        for (v, list) in &s.outcomes {
            for o in list {
                if let Outcome::Path(p) = o.to_outcome().unwrap() {
                    assert_eq!(p.algorithm, want(*v), "{} {}", s.id, v.name());
                    assert_ne!(p.status, StatusCode::BudgetExhausted, "{}", s.id);
                    assert_eq!(p.expanded.len() as u64, p.expanded_count, "{}", s.id);
                    recorded += p.expanded.len();
                    *results.entry(v.name()).or_default() += 1;
                }
            }
        }
    }
    assert!(recorded > 0);
    // Every variant has results, geo ones on edges graphs with positions and on point graphs.
    for n in names {
        assert!(
            results.get(n).copied().unwrap_or(0) >= 20,
            "{n}: {results:?}"
        );
    }
    // Live: without landmarks an alt variant would report Dijkstra; the adapter sets them.
    let s = Scenario::parse(&committed("graphs/GRAPH-0003.json")).unwrap();
    let r = ReferenceCrate.run_case(
        &s.case(),
        &[Variant::AstarAlt, Variant::BidiAlt],
        &s.queries,
        RunOptions::MATRIX,
    );
    for o in r.iter().flatten() {
        if let Outcome::Path(p) = o {
            assert!(
                matches!(
                    p.algorithm,
                    AlgorithmCode::Astar | AlgorithmCode::BidirectionalAstar
                ),
                "{p:?}"
            );
        }
    }
}

// pins [CONF.VAR.POINTS]: for every committed point scenario, both crates' non-geo variants must
// answer as Graph::from_edges(CSR edges, N, true) does, with the same landmark table bytes
#[test]
fn point_graph_non_geo_variants_query_the_csr_graph() {
    let non_geo = [
        Variant::Dijkstra,
        Variant::AstarAlt,
        Variant::BidiDijkstra,
        Variant::BidiAlt,
    ];
    let mut seen = 0;
    for s in scenarios() {
        let GraphSpec::Points {
            points,
            explicit,
            max_distance,
            nearest_count,
        } = &s.graph
        else {
            continue;
        };
        seen += 1;
        let links = ReferenceCrate
            .build_links(&LinkRequest {
                points: points.clone(),
                explicit: explicit.clone(),
                max_distance: *max_distance,
                nearest_count: *nearest_count,
                rule: None,
            })
            .unwrap();
        let csr = Case {
            graph: GraphSpec::Edges {
                node_count: points.len() as u32,
                directed: true,
                edges: links.edges.clone(),
                positions: None,
            },
            landmarks: s.landmarks,
        };
        for imp in [&ReferenceCrate as &dyn Implementation, &OptimizedCrate] {
            let a = imp.run_case(&s.case(), &non_geo, &s.queries, RunOptions::MATRIX);
            let b = imp.run_case(&csr, &non_geo, &s.queries, RunOptions::MATRIX);
            assert_eq!(a, b, "{} {}", s.id, imp.name());
            assert_eq!(
                imp.build_landmarks(&s.case()).unwrap(),
                imp.build_landmarks(&csr).unwrap(),
                "{}",
                s.id
            );
        }
    }
    assert!(seen >= 6);
}

// pins [CONF.MATRIX.FILE] [CONF.MATRIX.EXTRA]: matrix.json must have its schema, 8 variant columns
// then links and oplm, one row per scenario in id order, every column in sorted keys equal to the
// hashes, no unknown member
#[test]
fn the_hash_matrix_is_one_row_per_scenario_with_every_column() {
    let text = committed("graphs/matrix.json");
    let m: Matrix = serde_json::from_str(&text).unwrap();
    assert_eq!((m.schema.as_str(), m.version), ("onepath.hash-matrix", 1));
    let mut columns: Vec<String> = Variant::ALL.iter().map(|v| v.name().to_string()).collect();
    columns.extend(["links".to_string(), "oplm".to_string()]);
    assert_eq!(m.columns, columns);
    let scenarios = scenarios();
    let ids: Vec<&str> = m.rows.iter().map(|r| r.scenario.as_str()).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(ids, sorted);
    assert_eq!(
        ids,
        scenarios.iter().map(|s| s.id.as_str()).collect::<Vec<_>>()
    );
    for (row, s) in m.rows.iter().zip(&scenarios) {
        let keys: Vec<&String> = row.cells.keys().collect();
        let mut want: Vec<&String> = columns.iter().collect();
        want.sort();
        assert_eq!(keys, want, "{}", s.id);
        assert_eq!(row.cells["links"], s.csr_edges_sha256, "{}", s.id);
        assert_eq!(row.cells["oplm"], s.oplm_sha256, "{}", s.id);
        for v in Variant::ALL {
            let cell = s.outcomes.get(&v).map(|list| {
                let outcomes: Vec<Outcome> = list.iter().map(|o| o.to_outcome().unwrap()).collect();
                cell_hash(&outcomes)
            });
            assert_eq!(row.cells[v.name()], cell, "{} {}", s.id, v.name());
        }
    }
    // Keys sorted by name in the text too, and an unknown member refused.
    let first_row = text.find("\"cells\"").unwrap();
    let line = &text[first_row..text[first_row..].find('}').unwrap() + first_row];
    let at = |k: &str| line.find(&format!("\"{k}\"")).unwrap();
    assert!(at("astar_alt") < at("bidi_both") && at("bidi_both") < at("dijkstra"));
    assert!(at("dijkstra") < at("links") && at("links") < at("oplm"));
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["rows"][0]["extra"] = 1.into();
    assert!(serde_json::from_str::<Matrix>(&v.to_string()).is_err());
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["extra"] = 1.into();
    assert!(serde_json::from_str::<Matrix>(&v.to_string()).is_err());
}

// pins [CONF.MANIFEST.FILE]: MANIFEST.json must list every other file under vectors/ once,
// /-separated and in byte order, each with the SHA-256 of its bytes, under its schema and version
#[test]
fn the_manifest_lists_every_other_file_with_its_hash() {
    let dir = default_vectors_dir();
    let m: Manifest = serde_json::from_str(&committed("MANIFEST.json")).unwrap();
    assert_eq!(
        (m.schema.as_str(), m.version),
        ("onepath.vectors-manifest", 1)
    );
    let paths: Vec<&str> = m.files.iter().map(|f| f.path.as_str()).collect();
    let mut sorted = paths.clone();
    sorted.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    assert_eq!(paths, sorted);
    let listed: Vec<String> = list_files(&dir)
        .unwrap()
        .into_iter()
        .filter(|p| p != "MANIFEST.json")
        .collect();
    assert_eq!(paths, listed.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(paths.iter().any(|p| p.starts_with("state/hostile/")));
    for f in &m.files {
        assert!(!f.path.contains('\\') && !f.path.starts_with('/'));
        let bytes = std::fs::read(dir.join(&f.path)).unwrap();
        assert_eq!(f.sha256, sha256_hex(&bytes), "{}", f.path);
    }
}

/// A JSON value with its members in file order and scalars as written.
enum Node {
    Scalar(String),
    Array(Vec<Node>),
    Object(Vec<(String, Node)>),
}

/// Parses compact JSON text (no white space outside strings).
fn node(t: &[u8], at: &mut usize) -> Node {
    let string = |at: &mut usize| {
        let start = *at;
        *at += 1;
        while t[*at] != b'"' {
            *at += if t[*at] == b'\\' { 2 } else { 1 };
        }
        *at += 1;
        String::from_utf8(t[start..*at].to_vec()).unwrap()
    };
    match t[*at] {
        b'[' | b'{' => {
            let object = t[*at] == b'{';
            *at += 1;
            let (mut items, mut members) = (Vec::new(), Vec::new());
            while t[*at] != b']' && t[*at] != b'}' {
                if object {
                    let k = string(at);
                    *at += 1; // ':'
                    members.push((k, node(t, at)));
                } else {
                    items.push(node(t, at));
                }
                if t[*at] == b',' {
                    *at += 1;
                }
            }
            *at += 1;
            if object {
                Node::Object(members)
            } else {
                Node::Array(items)
            }
        }
        b'"' => Node::Scalar(string(at)),
        _ => {
            let start = *at;
            while !matches!(t[*at], b',' | b']' | b'}') {
                *at += 1;
            }
            Node::Scalar(String::from_utf8(t[start..*at].to_vec()).unwrap())
        }
    }
}

/// Compact JSON of a node (no white space).
fn compact_node(n: &Node) -> String {
    match n {
        Node::Scalar(s) => s.clone(),
        Node::Array(items) => format!(
            "[{}]",
            items.iter().map(compact_node).collect::<Vec<_>>().join(",")
        ),
        Node::Object(members) => format!(
            "{{{}}}",
            members
                .iter()
                .map(|(k, v)| format!("{k}:{}", compact_node(v)))
                .collect::<Vec<_>>()
                .join(",")
        ),
    }
}

/// The layout of [CONF.FILES.LAYOUT], written from the spec's words. `one_per_line` names the
/// member whose array holds one compact item per line ([CONF.STATE.HOSTILE]'s mutations).
fn render(n: &Node, depth: usize, out: &mut String, one_per_line: Option<&str>) {
    let leaf = |n: &Node| matches!(n, Node::Scalar(_));
    let pad = |d: usize| "  ".repeat(d);
    match n {
        Node::Scalar(s) => out.push_str(s),
        Node::Array(items) if items.iter().all(leaf) => {
            let parts: Vec<String> = items
                .iter()
                .map(|i| {
                    let mut s = String::new();
                    render(i, depth, &mut s, one_per_line);
                    s
                })
                .collect();
            out.push_str(&format!("[{}]", parts.join(", ")));
        }
        Node::Object(members) if members.iter().all(|(_, v)| leaf(v)) => {
            let parts: Vec<String> = members
                .iter()
                .map(|(k, v)| {
                    let mut s = format!("{k}: ");
                    render(v, depth, &mut s, one_per_line);
                    s
                })
                .collect();
            out.push_str(&format!("{{{}}}", parts.join(", ")));
        }
        Node::Array(items) => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                out.push_str(&pad(depth + 1));
                render(item, depth + 1, out, one_per_line);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(depth));
            out.push(']');
        }
        Node::Object(members) => {
            out.push_str("{\n");
            for (i, (k, v)) in members.iter().enumerate() {
                out.push_str(&pad(depth + 1));
                out.push_str(k);
                out.push_str(": ");
                match v {
                    Node::Array(items)
                        if !items.is_empty()
                            && one_per_line.is_some_and(|m| k == &format!("\"{m}\"")) =>
                    {
                        let lines: Vec<String> = items
                            .iter()
                            .map(|i| format!("{}{}", pad(depth + 2), compact_node(i)))
                            .collect();
                        out.push_str(&format!("[\n{}\n{}]", lines.join(",\n"), pad(depth + 1)));
                    }
                    _ => render(v, depth + 1, out, one_per_line),
                }
                out.push_str(if i + 1 < members.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(depth));
            out.push('}');
        }
    }
}

/// The text without white space outside strings.
fn compact(text: &str) -> String {
    let mut out = String::new();
    let mut in_string = false;
    let mut escaped = false;
    for c in text.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}

// pins [CONF.FILES.LAYOUT]: every committed JSON file must equal its content re-laid out by a
// renderer written here (two-space indent, leaf containers on one line, one final newline)
#[test]
fn committed_json_files_keep_the_layout() {
    let dir = default_vectors_dir();
    let mut checked = 0;
    for rel in list_files(&dir).unwrap() {
        if !rel.ends_with(".json") {
            continue;
        }
        let text = std::fs::read_to_string(dir.join(&rel)).unwrap();
        let c = compact(&text);
        let mut at = 0;
        let tree = node(c.as_bytes(), &mut at);
        assert_eq!(at, c.len(), "{rel}");
        let mut want = String::new();
        let one_per_line = rel.starts_with("state/hostile/").then_some("mutations");
        render(&tree, 0, &mut want, one_per_line);
        want.push('\n');
        if text != want {
            let line = text
                .lines()
                .zip(want.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            panic!(
                "{rel}: layout differs at line {}: {:?} vs {:?}",
                line + 1,
                text.lines().nth(line),
                want.lines().nth(line)
            );
        }
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
}

// pins [CONF.IMPL.HOOK_RULES]: each edge_cost, blocked and heuristic rule is checked against values
// computed here: weight * num / den in that order, the hit values, and 64-bit sums and products
#[test]
fn hook_rules_compute_the_spec_values() {
    // (0.1 * 3) / 7 differs from 0.1 * (3 / 7) and from (0.1 / 7) * 3.
    let scaled = CostRule::Scale { num: 3, den: 7 }.cost(1, 2, 0.1);
    assert_eq!(scaled, 0.042857142857142864);
    assert_ne!(scaled, 0.1 * (3.0 / 7.0));
    assert_eq!(CostRule::AddConst(0.5).cost(1, 2, 2.25), 2.75);
    // (1 + 2) % 3 == 0 hits; (1 + 3) % 3 != 0 keeps the weight.
    assert!(CostRule::NanWhere(3).cost(1, 2, 4.0).is_nan());
    assert_eq!(CostRule::NanWhere(3).cost(1, 3, 4.0), 4.0);
    assert_eq!(CostRule::NegativeWhere(3).cost(1, 2, 4.0), -1.0);
    assert_eq!(CostRule::NegativeWhere(3).cost(1, 3, 4.0), 4.0);
    assert_eq!(
        CostRule::NegativeZeroWhere(3).cost(1, 2, 4.0).to_bits(),
        (-0.0f64).to_bits()
    );
    assert_eq!(CostRule::NegativeZeroWhere(3).cost(1, 3, 4.0), 4.0);
    assert_eq!(CostRule::InfinityWhere(3).cost(1, 2, 4.0), f64::INFINITY);
    assert_eq!(CostRule::InfinityWhere(3).cost(1, 3, 4.0), 4.0);
    assert_eq!(CostRule::MaxWhere(3).cost(1, 2, 4.0), f64::MAX);
    assert_eq!(CostRule::MaxWhere(3).cost(1, 3, 4.0), 4.0);
    // from + to past 2^32: (2^32 - 1) * 2 = 2^33 - 2 is a multiple of 3; wrapped to 32 bits
    // (2^32 - 2) it is not.
    let big = u32::MAX;
    assert!(CostRule::NanWhere(3).cost(big, big, 1.0).is_nan());
    let blocked = BlockedRule {
        modulus: 3,
        residue: 1,
    };
    assert!(blocked.blocked(4) && blocked.blocked(1) && !blocked.blocked(5) && !blocked.blocked(3));
    // heuristic: base = (from * 7 + to) % 5.
    let m = HeuristicRule::Mod { mul: 3, modulus: 7 };
    assert_eq!(m.estimate(4, 5), ((4 * 3 + 5) % 7) as f64);
    let wide = HeuristicRule::Mod {
        mul: big,
        modulus: 1000,
    };
    let exact = ((u128::from(big) * u128::from(big) + 1) % 1000) as f64;
    assert_eq!(wide.estimate(big, 1), exact);
    let inf = HeuristicRule::InfinityWhere { m: 2, r: 1 };
    assert_eq!(inf.estimate(3, 0), f64::INFINITY);
    assert_eq!(inf.estimate(4, 3), ((4 * 7 + 3) % 5) as f64);
    assert!(HeuristicRule::NanWhere(4).estimate(1, 3).is_nan());
    assert_eq!(
        HeuristicRule::NanWhere(4).estimate(1, 2),
        ((7 + 2) % 5) as f64
    );
    assert_eq!(HeuristicRule::NegativeWhere(4).estimate(1, 3), -2.5);
    assert_eq!(
        HeuristicRule::NegativeWhere(4).estimate(2, 3),
        ((14 + 3) % 5) as f64
    );
}

/// The recorded `run_sliced` calls: the query and the budgets.
type SlicedCalls = Mutex<Vec<((u32, u32), Vec<u64>)>>;

/// An implementation with only the required methods (graph family, delegated to the
/// reference); it records the budgets of every `run_sliced` call.
struct Bare {
    sliced: SlicedCalls,
}

impl Implementation for Bare {
    fn name(&self) -> &str {
        "bare"
    }
    fn run_case(
        &self,
        case: &Case,
        variants: &[Variant],
        queries: &[(u32, u32)],
        opts: RunOptions,
    ) -> Vec<Vec<Outcome>> {
        ReferenceCrate.run_case(case, variants, queries, opts)
    }
    fn run_sliced(
        &self,
        case: &Case,
        variant: Variant,
        query: (u32, u32),
        budgets: &[u64],
    ) -> Outcome {
        self.sliced.lock().unwrap().push((query, budgets.to_vec()));
        ReferenceCrate.run_sliced(case, variant, query, budgets)
    }
    fn build_links(&self, request: &LinkRequest) -> Result<LinkResult, BuildFailure> {
        ReferenceCrate.build_links(request)
    }
    fn run_hooked(&self, case: &Case, query: &HookedQuery) -> HookedRun {
        ReferenceCrate.run_hooked(case, query)
    }
    fn run_cancelled(
        &self,
        case: &Case,
        variant: Variant,
        query: (u32, u32),
        first_steps: u64,
    ) -> Result<CancelTrace, onepath_conformance::error::CallError> {
        ReferenceCrate.run_cancelled(case, variant, query, first_steps)
    }
    fn run_ops(&self, ops: &[GraphOp]) -> Vec<Result<u64, BuildFailure>> {
        ReferenceCrate.run_ops(ops)
    }
    fn build_landmarks(
        &self,
        case: &Case,
    ) -> Result<Vec<u8>, onepath_conformance::error::CallError> {
        ReferenceCrate.build_landmarks(case)
    }
    fn lower_bounds(
        &self,
        case: &Case,
        pairs: &[(u32, u32)],
    ) -> Result<Vec<f64>, onepath_conformance::error::CallError> {
        ReferenceCrate.lower_bounds(case, pairs)
    }
    fn deserialize_oplm(&self, case: &Case, bytes: &[u8]) -> Result<Vec<u8>, OplmError> {
        ReferenceCrate.deserialize_oplm(case, bytes)
    }
}

fn request<T: serde::de::DeserializeOwned + serde::Serialize>(rel: &str) -> (T, Value) {
    let v: Value = serde_json::from_str(&committed(rel)).unwrap();
    let wire = v["cases"][0]["request"].clone();
    let r: T = serde_json::from_value(wire.clone()).unwrap();
    // The vector's case is the request's own serde form.
    assert_eq!(serde_json::to_value(&r).unwrap(), wire, "{rel}");
    (r, wire)
}

fn unimplemented<T: std::fmt::Debug>(r: Result<T, onepath_conformance::error::HarnessError>) {
    let e = r.expect_err("a default body answered");
    assert_eq!(e.kind(), ErrorKind::Unimplemented, "{e}");
    assert_eq!(e.to_string(), "harness: unimplemented");
}

// pins [CONF.IMPL.STATE] [CONF.IMPL.GRID] [CONF.IMPL.REPLAN] [CONF.IMPL.FLOW] [CONF.IMPL.LATTICE] [CONF.IMPL.HPA] [CONF.IMPL.BIDI]: each
// default body must answer `harness: unimplemented` (never an empty reply) while the crates answer,
// and committed requests must be the args of their driver messages
#[test]
fn default_bodies_report_unimplemented_and_requests_are_their_wire_form() {
    use onepath_conformance::port::messages::{
        BidiOpRequest, FlowFieldRequest, HpaOpRequest, LatticeOpRequest, ReplanningRequest,
    };
    let bare = Bare {
        sliced: Mutex::new(Vec::new()),
    };
    let args = |m: Value, op: &str| {
        assert_eq!(m["op"], op);
        m["args"].clone()
    };
    let (replan, wire) =
        request::<onepath_conformance::replan::ReplanRequest>("replanning/REPLAN-0001.json");
    unimplemented(bare.run_replan(&replan));
    assert!(OptimizedCrate.run_replan(&replan).is_ok());
    let m = serde_json::to_value(ReplanningRequest::RunReplan(replan)).unwrap();
    assert_eq!(args(m, "run_replan"), wire);
    let (flow, wire) =
        request::<onepath_conformance::flow::FlowRequest>("flow-field/FLOW-0001.json");
    unimplemented(bare.run_flow(&flow));
    assert!(OptimizedCrate.run_flow(&flow).is_ok());
    let m = serde_json::to_value(FlowFieldRequest::RunFlow(flow)).unwrap();
    assert_eq!(args(m, "run_flow"), wire);
    for rel in ["hex-search/HEX-0001.json", "voxel-search/VOXEL-0001.json"] {
        let (lattice, wire) = request::<onepath_conformance::lattice::LatticeRequest>(rel);
        unimplemented(bare.run_lattice(&lattice));
        assert!(OptimizedCrate.run_lattice(&lattice).is_ok());
        let m = serde_json::to_value(LatticeOpRequest::RunLattice(lattice)).unwrap();
        assert_eq!(args(m, "run_lattice"), wire);
    }
    let (hpa, wire) = request::<onepath_conformance::hpa::HpaRequest>("hpa/HPA-0001.json");
    unimplemented(bare.run_hpa(&hpa));
    assert!(OptimizedCrate.run_hpa(&hpa).is_ok());
    let m = serde_json::to_value(HpaOpRequest::RunHpa(hpa)).unwrap();
    assert_eq!(args(m, "run_hpa"), wire);
    let (bidi, wire) =
        request::<onepath_conformance::bidi::BidiRequest>("grid-bidi/BIDI-0001.json");
    unimplemented(bare.run_bidi(&bidi));
    assert!(OptimizedCrate.run_bidi(&bidi).is_ok());
    let m = serde_json::to_value(BidiOpRequest::RunBidi(bidi)).unwrap();
    assert_eq!(args(m, "run_bidi"), wire);
    let grid =
        onepath_conformance::grid::vectors::GridVector::parse(&committed("grids/GRID-0001.json"))
            .unwrap();
    let g = grid.request(&grid.runs[0]);
    unimplemented(bare.run_grid(&g));
    assert!(OptimizedCrate.run_grid(&g).is_ok());
    let mut graph = onepath_reference::Graph::new(2).unwrap();
    graph.add_edge(0, 1, 1.5).unwrap();
    let state = onepath_conformance::state::StateRequest::FromState {
        kind: onepath_conformance::state::StateKind::Graph,
        bytes: graph.save_state(),
    };
    unimplemented(bare.run_state(&state));
    unimplemented(bare.run_state_as("STATE-GRAPH-0001", &state));
    assert!(OptimizedCrate.run_state(&state).is_ok());
}

// pins [CONF.IMPL.TRAIT]: the default run_query must equal run_case for one query, and
// run_sliced_case must call run_sliced with no schedule then the schedule, per variant and query,
// as the adapters answer
#[test]
fn default_trait_bodies_are_the_documented_sequences() {
    let bare = Bare {
        sliced: Mutex::new(Vec::new()),
    };
    let s = Scenario::parse(&committed("graphs/GRAPH-0003.json")).unwrap();
    let case = s.case();
    let queries = &s.queries[..2];
    let variants = [Variant::AstarAlt, Variant::BidiDijkstra];
    let got = bare.run_sliced_case(&case, &variants, queries, &[3, 1]);
    let calls = bare.sliced.lock().unwrap().clone();
    let mut want_calls = Vec::new();
    for _ in variants {
        for &q in queries {
            want_calls.push((q, vec![]));
            want_calls.push((q, vec![3, 1]));
        }
    }
    assert_eq!(calls, want_calls);
    assert_eq!(
        got,
        ReferenceCrate.run_sliced_case(&case, &variants, queries, &[3, 1])
    );
    for &v in &variants {
        for &q in queries {
            assert_eq!(
                bare.run_query(&case, v, q, RunOptions::MATRIX),
                ReferenceCrate.run_case(&case, &[v], &[q], RunOptions::MATRIX)[0][0]
            );
        }
    }
}

// pins [CONF.IMPL.LINK_RULE]: both adapters must log every link_valid call of a radius build in
// call order; (a + b) mod 3 = 0 must reject (1, 2) and (4, 5) only, the sum taken in 64 bits
#[test]
fn the_link_rule_rejects_index_sums_and_every_call_is_logged() {
    use onepath_conformance::implementation::LinkRule;
    let rule = LinkRule::RejectIndexSumMultipleOf(3);
    assert!(rule.accepts(0, 1) && !rule.accepts(1, 2) && !rule.accepts(4, 5));
    // (2^32 - 1) * 2 = 2^33 - 2 is a multiple of 3; wrapped to 32 bits it is not.
    assert!(!rule.accepts(u32::MAX, u32::MAX));
    let request = LinkRequest {
        points: (0..6).map(|i| [f64::from(i), 0.0, 0.0]).collect(),
        explicit: vec![],
        max_distance: 1.5,
        nearest_count: 0,
        rule: Some(rule),
    };
    for imp in [&ReferenceCrate as &dyn Implementation, &OptimizedCrate] {
        let r = imp.build_links(&request).unwrap();
        assert_eq!(
            r.calls,
            [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)],
            "{}",
            imp.name()
        );
        let mut pairs: Vec<(u32, u32)> = r.edges.iter().map(|e| (e.0, e.1)).collect();
        pairs.sort();
        assert_eq!(
            pairs,
            [(0, 1), (1, 0), (2, 3), (3, 2), (3, 4), (4, 3)],
            "{}",
            imp.name()
        );
    }
}

// pins [CONF.INPUT.LIMITS]: the six limits must be 64, 64, 16, 64, 256 MiB and 2 GiB, and an
// --expect file of exactly 16 MiB must be read while one byte more is refused naming the limit
#[test]
fn input_limits_are_the_spec_values_at_their_boundary() {
    use onepath_conformance::input::{
        MAX_EXPECT, MAX_MOVINGAI, MAX_REPORT, MAX_ROAD, MAX_SESSION, MAX_VECTOR_FILE,
    };
    const MIB: u64 = 1 << 20;
    assert_eq!(
        [
            MAX_VECTOR_FILE,
            MAX_REPORT,
            MAX_EXPECT,
            MAX_SESSION,
            MAX_MOVINGAI,
            MAX_ROAD
        ],
        [
            64 * MIB,
            64 * MIB,
            16 * MIB,
            64 * MIB,
            256 * MIB,
            2048 * MIB
        ]
    );
    let dir = std::env::temp_dir().join(format!("onepath-pinned-limits-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let run = |size: u64| {
        let path = dir.join(format!("expect-{size}.json"));
        // Sparse: the zero bytes cost no disk.
        std::fs::File::create(&path).unwrap().set_len(size).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
            .args([
                "certify",
                "--port",
                "true",
                "--expect",
                path.to_str().unwrap(),
            ])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run(16 * MIB + 1);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(&format!("{}-byte limit", 16 * MIB)), "{err}");
    let (code, err) = run(16 * MIB);
    assert_eq!(code, Some(2), "{err}");
    assert!(!err.contains("-byte limit"), "read up to the limit: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}
