//! Golden state vectors and their hostile cases ([CONF.STATE.VECTOR], [CONF.STATE.HOSTILE]):
//! generation from an implementation (the reference), the strict readers, and the systematic
//! mutation list that derives hostile cases from a golden vector.

pub use super::mutations::{mutations, Mutation};
use super::recipes::{apply, goldens, Golden, Splice};
use super::{StateError, StateKind, StateRecipe, StateRequest};
use crate::envelope::Envelope;
use crate::error::{ErrorKind, HarnessError};
use crate::implementation::Implementation;
use crate::json_text::to_text;
use crate::outcome::sha256_hex;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The `family` of state vector files.
pub const STATE_FAMILY: &str = "state";

/// A golden state vector `vectors/state/STATE-<KIND>-NNNN.json` ([CONF.STATE.VECTOR]).
#[derive(Clone, Debug, PartialEq)]
pub struct StateVector {
    /// `STATE-<KIND>-NNNN`.
    pub id: String,
    /// What it exercises.
    pub comment: String,
    /// How to build the object.
    pub recipe: StateRecipe,
    /// Splices `[offset, removed, "inserted hex"]` applied to the recipe's saved bytes (empty
    /// when the bytes are the recipe's own).
    pub patch: Vec<(usize, usize, String)>,
    /// The state bytes, lowercase hex.
    pub bytes: String,
    /// SHA-256 hex of the bytes.
    pub sha256: String,
}

/// A case of a state vector file, as written in its envelope's `cases`: the golden file holds
/// one `golden` case, the hostile file one `hostile` case ([CONF.STATE.VECTOR],
/// [CONF.STATE.HOSTILE]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum StateCase {
    /// The golden bytes and how to build them.
    Golden(GoldenCase),
    /// The hostile cases derived from the golden bytes.
    Hostile(HostileSet),
}

/// The `golden` case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoldenCase {
    /// How to build the object.
    pub recipe: StateRecipe,
    /// Splices applied to the recipe's saved bytes.
    pub patch: Vec<(usize, usize, String)>,
    /// The state bytes, lowercase hex.
    pub bytes: String,
    /// SHA-256 hex of the bytes.
    pub sha256: String,
}

/// The `hostile` case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostileSet {
    /// The object each mutation is restored into ([`StateRecipe::target`]).
    pub target: StateRecipe,
    /// `unchanged` ([STATE.ATOMIC]) or `not_started` ([STATE.SEARCH_FAILED]).
    pub after_failure: String,
    /// The mutations, in id order.
    pub mutations: Vec<HostileCase>,
}

/// The only case of a state file, which must be of the expected shape.
fn only_case(
    envelope: Envelope<StateCase>,
    golden: bool,
) -> Result<(String, String, StateCase), HarnessError> {
    let (id, comment, case) = envelope.single()?;
    if matches!(case, StateCase::Golden(_)) != golden {
        let want = if golden { "golden" } else { "hostile" };
        return Err(
            HarnessError::new(ErrorKind::Schema, format!("expected a {want} case"))
                .in_member("cases"),
        );
    }
    Ok((id, comment, case))
}

/// [CONF.STATE.SHAPE] Every size of `recipe` (an object with integer `width` and `height`, or a
/// `size` of three integers, at any depth) multiplies out to 1..=2^26 cells.
fn recipe_sizes(recipe: &StateRecipe) -> Result<(), HarnessError> {
    fn walk(v: &serde_json::Value) -> Result<(), HarnessError> {
        use serde_json::Value;
        match v {
            Value::Object(m) => {
                let sides: Option<Vec<u64>> = match (m.get("width"), m.get("height"), m.get("size"))
                {
                    (Some(w), Some(h), _) => w.as_u64().zip(h.as_u64()).map(|(w, h)| vec![w, h]),
                    (_, _, Some(Value::Array(s))) if s.len() == 3 => {
                        s.iter().map(Value::as_u64).collect()
                    }
                    _ => None,
                };
                if let Some(sides) = sides {
                    let cells = sides
                        .iter()
                        .fold(1u128, |a, &s| a.saturating_mul(u128::from(s)));
                    if cells == 0 || cells > 1 << 26 {
                        return Err(HarnessError::new(
                            ErrorKind::Schema,
                            format!("sizes {sides:?} are not 1 to 2^26 cells: no object to replay"),
                        ));
                    }
                }
                m.values().try_for_each(walk)
            }
            Value::Array(a) => a.iter().try_for_each(walk),
            _ => Ok(()),
        }
    }
    walk(&serde_json::to_value(recipe).unwrap_or_default())
}

impl StateVector {
    /// Strict parse ([CONF.SCN.STRICT] rules): the envelope, unknown or missing members, bad
    /// hex or a wrong hash are errors.
    pub fn parse(text: &str) -> Result<StateVector, HarnessError> {
        StateVector::from_envelope(Envelope::parse(text, STATE_FAMILY)?)
    }

    /// Validates a parsed golden file.
    pub fn from_envelope(envelope: Envelope<StateCase>) -> Result<StateVector, HarnessError> {
        let (id, comment, StateCase::Golden(c)) = only_case(envelope, true)? else {
            unreachable!("only_case checked the shape")
        };
        let v = StateVector {
            id,
            comment,
            recipe: c.recipe,
            patch: c.patch,
            bytes: c.bytes,
            sha256: c.sha256,
        };
        let b = v.decoded()?;
        if sha256_hex(&b) != v.sha256 {
            return Err(HarnessError::new(
                ErrorKind::Mismatch,
                "sha256 does not match the bytes",
            ));
        }
        // [CONF.STATE.SHAPE] A golden's recipe builds an object: its sizes are ones `new`
        // accepts (a replay of a 2^31-row grid would allocate before anything fails).
        recipe_sizes(&v.recipe).map_err(|e| e.in_member("recipe"))?;
        // [CONF.STATE.SHAPE] The bytes must have the shape of a valid state of the recipe's
        // kind before any check walks them.
        if super::layout::try_walk(v.recipe.kind(), &b).is_none() {
            return Err(HarnessError::new(
                ErrorKind::Schema,
                format!(
                    "{} bytes are not the shape of a valid {:?} state (kind {})",
                    b.len(),
                    v.recipe.kind(),
                    v.recipe.kind().code()
                ),
            )
            .in_member("bytes"));
        }
        if !v
            .id
            .starts_with(&format!("STATE-{}-", v.recipe.kind().tag()))
        {
            return Err(HarnessError::new(
                ErrorKind::Schema,
                format!("id {} does not match the recipe's kind", v.id),
            ));
        }
        for (_, _, h) in &v.patch {
            hex::decode(h).map_err(|e| {
                HarnessError::new(ErrorKind::Schema, e.to_string()).in_member("patch")
            })?;
        }
        Ok(v)
    }
    /// The file's envelope.
    pub fn envelope(&self) -> Envelope<StateCase> {
        Envelope::new(
            &self.id,
            STATE_FAMILY,
            &self.comment,
            vec![StateCase::Golden(GoldenCase {
                recipe: self.recipe.clone(),
                patch: self.patch.clone(),
                bytes: self.bytes.clone(),
                sha256: self.sha256.clone(),
            })],
        )
    }
    /// The bytes.
    pub fn decoded(&self) -> Result<Vec<u8>, HarnessError> {
        hex::decode(&self.bytes)
            .map_err(|e| HarnessError::new(ErrorKind::Schema, e.to_string()).in_member("bytes"))
    }
    /// The patch as splices.
    pub fn splices(&self) -> Vec<Splice> {
        self.patch
            .iter()
            .map(|(a, d, h)| (*a, *d, hex::decode(h).expect("validated")))
            .collect()
    }
}

/// One hostile case ([CONF.STATE.HOSTILE]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostileCase {
    /// `<vector id>-HNNNN`.
    pub id: String,
    /// The mutation for people.
    pub what: String,
    /// Splices `[offset, removed, "inserted hex"]` applied in order to the golden bytes.
    pub edits: Vec<(usize, usize, String)>,
    /// Expected restore failure, `class@offset`.
    pub restore: String,
    /// Expected `from_state` result: `class@offset`, `"ok"`, or null for kinds without it.
    pub from_state: Option<String>,
}

impl HostileCase {
    /// The mutated bytes.
    pub fn bytes(&self, golden: &[u8]) -> Vec<u8> {
        let s: Vec<Splice> = self
            .edits
            .iter()
            .map(|(a, d, h)| (*a, *d, hex::decode(h).expect("validated")))
            .collect();
        apply(golden, &s)
    }
}

/// A hostile file `vectors/state/hostile/STATE-<KIND>-NNNN.json`: the hostile cases of the
/// golden vector with the same id.
#[derive(Clone, Debug, PartialEq)]
pub struct HostileFile {
    /// The golden vector's id (also the file's id).
    pub vector: String,
    /// What the file is.
    pub comment: String,
    /// The object each case is restored into ([`StateRecipe::target`]).
    pub target: StateRecipe,
    /// `unchanged` ([STATE.ATOMIC]) or `not_started` ([STATE.SEARCH_FAILED]).
    pub after_failure: String,
    /// The cases, in id order (ids may skip numbers: a mutation the reference accepts is not hostile).
    pub cases: Vec<HostileCase>,
}

impl HostileFile {
    /// Strict parse.
    pub fn parse(text: &str) -> Result<HostileFile, HarnessError> {
        HostileFile::from_envelope(Envelope::parse(text, STATE_FAMILY)?)
    }

    /// Validates a parsed hostile file.
    pub fn from_envelope(envelope: Envelope<StateCase>) -> Result<HostileFile, HarnessError> {
        let (vector, comment, StateCase::Hostile(set)) = only_case(envelope, false)? else {
            unreachable!("only_case checked the shape")
        };
        let f = HostileFile {
            vector,
            comment,
            target: set.target,
            after_failure: set.after_failure,
            cases: set.mutations,
        };
        // [CONF.STATE.SHAPE] The target is built for every case.
        recipe_sizes(&f.target).map_err(|e| e.in_member("target"))?;
        for c in &f.cases {
            let schema = |what: String| HarnessError::new(ErrorKind::Schema, what);
            if !c.id.starts_with(&format!("{}-H", f.vector)) {
                return Err(schema(format!(
                    "case id {} does not belong to {}",
                    c.id, f.vector
                )));
            }
            for (_, _, h) in &c.edits {
                hex::decode(h).map_err(|e| schema(e.to_string()).in_member(&c.id))?;
            }
            if StateError::parse(&c.restore).is_none() {
                return Err(
                    schema(format!("restore {:?} is not class@offset", c.restore)).in_member(&c.id),
                );
            }
            if let Some(fs) = &c.from_state {
                if fs != "ok" && StateError::parse(fs).is_none() {
                    return Err(
                        schema(format!("from_state {fs:?} is not ok or class@offset"))
                            .in_member(&c.id),
                    );
                }
            }
        }
        Ok(f)
    }

    /// The file's envelope.
    pub fn envelope(&self) -> Envelope<StateCase> {
        Envelope::new(
            &self.vector,
            STATE_FAMILY,
            &self.comment,
            vec![StateCase::Hostile(HostileSet {
                target: self.target.clone(),
                after_failure: self.after_failure.clone(),
                mutations: self.cases.clone(),
            })],
        )
    }

    /// The committed layout: the envelope as [CONF.FILES.LAYOUT], one mutation per line.
    pub fn to_text(&self) -> String {
        let mut head = self.clone();
        head.cases.clear();
        let text = to_text(&head.envelope());
        let cases: Vec<String> = self
            .cases
            .iter()
            .map(|c| format!("          {}", serde_json::to_string(c).expect("case")))
            .collect();
        let body = if cases.is_empty() {
            "[]".to_string()
        } else {
            format!("[\n{}\n        ]", cases.join(",\n"))
        };
        text.replacen("\"mutations\": []", &format!("\"mutations\": {body}"), 1)
    }
}

/// What generation produced for one golden vector.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The vector.
    pub vector: StateVector,
    /// Its hostile file.
    pub hostile: HostileFile,
    /// Mutations the generating implementation accepted (not hostile, left out).
    pub accepted: usize,
}

/// The golden bytes of `g` on `imp`: the recipe's saved bytes, patched.
pub fn golden_bytes(imp: &dyn Implementation, g: &Golden) -> Result<Vec<u8>, HarnessError> {
    let reply = imp.run_state(&StateRequest::Restore {
        recipe: g.recipe.clone(),
        bytes: None,
        finish: false,
    })?;
    Ok(match g.patch {
        Some(p) => apply(&reply.before, &p(&reply.before)),
        None => reply.before,
    })
}

/// The restore result and the `from_state` result (none for kind 11) of one candidate.
pub type HostileResults = (Result<(), StateError>, Option<Result<(), StateError>>);

/// Runs `bytes` as a hostile candidate on `imp`: the restore result into the target and the
/// `from_state` result (kinds 1-4).
pub fn hostile_results(
    imp: &dyn Implementation,
    kind: StateKind,
    target: &StateRecipe,
    bytes: &[u8],
) -> Result<HostileResults, HarnessError> {
    let r = imp.run_state(&StateRequest::Restore {
        recipe: target.clone(),
        bytes: Some(bytes.to_vec()),
        finish: false,
    })?;
    let restore = r
        .restore
        .ok_or_else(|| HarnessError::new(ErrorKind::Build, "harness: no restore result"))?;
    let from = if kind.has_from_state() {
        Some(
            imp.run_state(&StateRequest::FromState {
                kind,
                bytes: bytes.to_vec(),
            })?
            .restore
            .ok_or_else(|| HarnessError::new(ErrorKind::Build, "harness: no from_state result"))?,
        )
    } else {
        None
    };
    Ok((restore, from))
}

/// Generates every golden vector and hostile file from `imp`.
pub fn generate(imp: &dyn Implementation) -> Result<Vec<Generated>, HarnessError> {
    let mut out = Vec::new();
    for g in goldens() {
        let kind = g.recipe.kind();
        let bytes = golden_bytes(imp, &g).map_err(|e| e.in_member(&g.id))?;
        let patch: Vec<(usize, usize, String)> = g
            .patch
            .map(|p| p(&golden_bytes_unpatched(imp, &g)))
            .unwrap_or_default()
            .into_iter()
            .map(|(a, d, i)| (a, d, hex::encode(i)))
            .collect();
        let vector = StateVector {
            id: g.id.clone(),
            comment: g.comment.into(),
            recipe: g.recipe.clone(),
            patch,
            bytes: hex::encode(&bytes),
            sha256: sha256_hex(&bytes),
        };
        let target = g.recipe.target();
        let mut cases = Vec::new();
        let mut accepted = 0;
        for (k, mu) in mutations(&g.id, kind, &bytes).into_iter().enumerate() {
            let mutated = apply(&bytes, &mu.edits);
            let (restore, from) =
                hostile_results(imp, kind, &target, &mutated).map_err(|e| e.in_member(&g.id))?;
            let Err(restore) = restore else {
                accepted += 1;
                continue;
            };
            cases.push(HostileCase {
                id: format!("{}-H{:04}", g.id, k + 1),
                what: mu.what,
                edits: mu
                    .edits
                    .iter()
                    .map(|(a, d, i)| (*a, *d, hex::encode(i)))
                    .collect(),
                restore: restore.compact(),
                from_state: from.map(|f| match f {
                    Ok(()) => "ok".to_string(),
                    Err(e) => e.compact(),
                }),
            });
        }
        let hostile = HostileFile {
            vector: g.id.clone(),
            comment: format!(
                "Hostile cases derived from {} by the fixed mutation list of spec/conformance.md CONF.STATE.MUTATIONS; expected results from onepath-reference; restore into target, from_state where the kind has it.",
                g.id
            ),
            target,
            after_failure: if kind.atomic() { "unchanged".into() } else { "not_started".into() },
            cases,
        };
        out.push(Generated {
            vector,
            hostile,
            accepted,
        });
    }
    Ok(out)
}

fn golden_bytes_unpatched(imp: &dyn Implementation, g: &Golden) -> Vec<u8> {
    imp.run_state(&StateRequest::Restore {
        recipe: g.recipe.clone(),
        bytes: None,
        finish: false,
    })
    .map(|r| r.before)
    .unwrap_or_default()
}

/// The files of `vectors/state/` (relative to `vectors/`), generated from `imp`.
pub fn generate_files(imp: &dyn Implementation) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    match generate(imp) {
        Ok(all) => {
            for g in all {
                files.insert(
                    format!("state/{}.json", g.vector.id),
                    to_text(&g.vector.envelope()).into_bytes(),
                );
                files.insert(
                    format!("state/hostile/{}.json", g.vector.id),
                    g.hostile.to_text().into_bytes(),
                );
            }
        }
        Err(e) => {
            files.insert(
                "state/GENERATION-FAILED.txt".into(),
                e.to_string().into_bytes(),
            );
        }
    }
    files
}

/// Reads every committed golden vector and hostile file under `dir` (the `vectors/` folder),
/// sorted by path; a golden vector without its hostile file is an error naming the file.
pub fn read_dir(dir: &std::path::Path) -> Result<Vec<(StateVector, HostileFile)>, HarnessError> {
    let goldens = crate::envelope::read_family(dir, "state", "STATE-", STATE_FAMILY, |e| {
        StateVector::from_envelope(e)
    })?;
    let mut hostile: BTreeMap<String, HostileFile> =
        crate::envelope::read_family(dir, "state/hostile", "STATE-", STATE_FAMILY, |e| {
            HostileFile::from_envelope(e)
        })?
        .into_iter()
        .collect();
    let mut out = Vec::new();
    for (id, v) in goldens {
        let h = hostile.remove(&id).ok_or_else(|| {
            HarnessError::new(
                ErrorKind::Io,
                "missing: the golden vector has no hostile file",
            )
            .at_path(format!("state/hostile/{id}.json"))
        })?;
        out.push((v, h));
    }
    if let Some(id) = hostile.keys().next() {
        return Err(
            HarnessError::new(ErrorKind::Schema, "no golden vector has this id")
                .at_path(format!("state/hostile/{id}.json")),
        );
    }
    Ok(out)
}
