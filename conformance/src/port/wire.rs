//! The exact value encodings of driver protocol version 2 ([DRIVER.ENC.*]) as serde types: a
//! real by its bit pattern, a u64 as a decimal string, bytes and outcomes as lowercase hex.
//! Every message type of `messages.rs` is built from these and from the kit's plain-data types,
//! so the wire form *is* the serde encoding and the JSON Schemas under `spec/schemas/` are
//! generated from the same types.

use crate::outcome::{AlgorithmCode, Outcome, PathOutcome, StatusCode};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;

/// Which encoding a [`WireError`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireErrorKind {
    /// A real's bit pattern ([DRIVER.ENC.REAL]).
    Real,
    /// Bytes as lowercase hex.
    Hex,
    /// A canonical outcome encoding ([CONF.ENC.RESULT]); the message names the byte offset.
    Outcome,
}

/// A value that breaks its wire encoding: which encoding, and what (with the byte offset for
/// an outcome).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireError {
    kind: WireErrorKind,
    what: String,
}

impl WireError {
    fn new(kind: WireErrorKind, what: String) -> WireError {
        WireError { kind, what }
    }
    /// Which encoding.
    pub fn kind(&self) -> WireErrorKind {
        self.kind
    }
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.what)
    }
}

impl std::error::Error for WireError {}

/// A binary64 real as the 16 lowercase hex digits of its bit pattern ([DRIVER.ENC.REAL]): the
/// only JSON form that carries NaN payloads, infinities and `-0.0` exactly.
#[derive(Clone, Copy, Debug)]
pub struct Real(pub f64);

impl PartialEq for Real {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl Serialize for Real {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{:016x}", self.0.to_bits()))
    }
}

impl<'de> Deserialize<'de> for Real {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = Cow::<str>::deserialize(d)?;
        parse_real(&s).map(Real).map_err(D::Error::custom)
    }
}

/// Parses 16 lowercase hex digits into the real with that bit pattern.
pub fn parse_real(s: &str) -> Result<f64, WireError> {
    real_bits(s).map_err(|what| WireError::new(WireErrorKind::Real, what))
}

fn real_bits(s: &str) -> Result<f64, String> {
    if s.len() != 16
        || !s
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return Err(format!(
            "{:?} is not 16 lowercase hex digits (a real's bit pattern)",
            clip(s)
        ));
    }
    u64::from_str_radix(s, 16)
        .map(f64::from_bits)
        .map_err(|e| e.to_string())
}

impl JsonSchema for Real {
    fn schema_name() -> Cow<'static, str> {
        "Real".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A binary64 real: the 16 lowercase hex digits of its bit pattern ([DRIVER.ENC.REAL]).",
            "type": "string",
            "pattern": "^[0-9a-f]{16}$"
        })
    }
}

/// A u64 as a decimal string ([DRIVER.ENC.U64]): JavaScript numbers are exact only to 2^53.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dec(pub u64);

impl Serialize for Dec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.to_string())
    }
}

impl<'de> Deserialize<'de> for Dec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = Cow::<str>::deserialize(d)?;
        let canonical = !s.is_empty()
            && s.bytes().all(|b| b.is_ascii_digit())
            && (s.len() == 1 || !s.starts_with('0'));
        match s.parse::<u64>() {
            Ok(v) if canonical => Ok(Dec(v)),
            _ => Err(D::Error::custom(format!(
                "{:?} is not a decimal u64 (digits only, no leading zero)",
                clip(&s)
            ))),
        }
    }
}

impl JsonSchema for Dec {
    fn schema_name() -> Cow<'static, str> {
        "DecimalU64".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "An unsigned 64-bit integer as a decimal string ([DRIVER.ENC.U64]).",
            "type": "string",
            "pattern": "^(0|[1-9][0-9]{0,19})$"
        })
    }
}

/// Bytes as lowercase hex ([DRIVER.ENC.OUTCOME]): OPLM, state and link encodings.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Hex(pub Vec<u8>);

impl Serialize for Hex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&hex::encode(&self.0))
    }
}

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = Cow::<str>::deserialize(d)?;
        parse_hex(&s).map(Hex).map_err(D::Error::custom)
    }
}

/// Parses lowercase hex (an even number of `0-9a-f` digits).
pub fn parse_hex(s: &str) -> Result<Vec<u8>, WireError> {
    hex_bytes(s).map_err(|what| WireError::new(WireErrorKind::Hex, what))
}

fn hex_bytes(s: &str) -> Result<Vec<u8>, String> {
    if s.len() % 2 != 0
        || !s
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return Err(format!(
            "not lowercase hex with an even number of digits: {:?}",
            clip(s)
        ));
    }
    hex::decode(s).map_err(|e| e.to_string())
}

impl JsonSchema for Hex {
    fn schema_name() -> Cow<'static, str> {
        "HexBytes".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Bytes as lowercase hex, two digits per byte.",
            "type": "string",
            "pattern": "^([0-9a-f]{2})*$"
        })
    }
}

/// An outcome as the lowercase hex of its canonical encoding ([CONF.ENC.RESULT],
/// [CONF.ENC.ERROR]); decoded strictly (trailing bytes are an error).
#[derive(Clone, Debug, PartialEq)]
pub struct HexOutcome(pub Outcome);

impl Serialize for HexOutcome {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&hex::encode(self.0.encode()))
    }
}

impl<'de> Deserialize<'de> for HexOutcome {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = Cow::<str>::deserialize(d)?;
        let bytes = parse_hex(&s).map_err(D::Error::custom)?;
        decode_outcome(&bytes)
            .map(HexOutcome)
            .map_err(|e| D::Error::custom(format!("outcome encoding: {e}")))
    }
}

impl JsonSchema for HexOutcome {
    fn schema_name() -> Cow<'static, str> {
        "Outcome".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "An outcome: the lowercase hex of its canonical encoding ([CONF.ENC.RESULT] starts with 01, [CONF.ENC.ERROR] with 02).",
            "type": "string",
            "pattern": "^0[12]([0-9a-f]{2})*$"
        })
    }
}

fn clip(s: &str) -> String {
    let t: String = s.chars().take(40).collect();
    if t.len() < s.len() {
        format!("{t}...")
    } else {
        t
    }
}

fn take<'a>(b: &'a [u8], at: &mut usize, n: usize) -> Result<&'a [u8], String> {
    let s = b
        .get(*at..at.saturating_add(n))
        .ok_or_else(|| format!("encoding cut short at byte {}", *at))?;
    *at += n;
    Ok(s)
}

fn u32_at(b: &[u8], at: &mut usize) -> Result<u32, String> {
    take(b, at, 4).map(|s| u32::from_le_bytes(s.try_into().expect("4 bytes")))
}

fn u64_at(b: &[u8], at: &mut usize) -> Result<u64, String> {
    take(b, at, 8).map(|s| u64::from_le_bytes(s.try_into().expect("8 bytes")))
}

/// Decodes one canonical outcome encoding ([CONF.ENC.RESULT], [CONF.ENC.ERROR]); the whole
/// input must be consumed. Errors name the byte offset.
pub fn decode_outcome(bytes: &[u8]) -> Result<Outcome, WireError> {
    outcome_of(bytes).map_err(|what| WireError::new(WireErrorKind::Outcome, what))
}

fn outcome_of(bytes: &[u8]) -> Result<Outcome, String> {
    let mut at = 0usize;
    let kind = take(bytes, &mut at, 1)?[0];
    let o = match kind {
        1 => {
            let algorithm = match take(bytes, &mut at, 1)?[0] {
                1 => AlgorithmCode::Dijkstra,
                2 => AlgorithmCode::Astar,
                3 => AlgorithmCode::BidirectionalDijkstra,
                4 => AlgorithmCode::BidirectionalAstar,
                x => return Err(format!("algorithm byte {x} at byte 1")),
            };
            let status = match take(bytes, &mut at, 1)?[0] {
                0 => StatusCode::Found,
                1 => StatusCode::NotFound,
                2 => StatusCode::BudgetExhausted,
                x => return Err(format!("status byte {x} at byte 2")),
            };
            let cost = f64::from_bits(u64_at(bytes, &mut at)?);
            let iterations = u64_at(bytes, &mut at)?;
            let expanded_count = u64_at(bytes, &mut at)?;
            let list = |at: &mut usize| -> Result<Vec<u32>, String> {
                let start = *at;
                let n = u32_at(bytes, at)? as usize;
                if n > (bytes.len() - *at) / 4 {
                    return Err(format!(
                        "list length {n} at byte {start} runs past the encoding"
                    ));
                }
                (0..n).map(|_| u32_at(bytes, at)).collect()
            };
            let nodes = list(&mut at)?;
            let expanded = list(&mut at)?;
            Outcome::Path(PathOutcome {
                algorithm,
                status,
                cost,
                iterations,
                expanded_count,
                nodes,
                expanded,
            })
        }
        2 => {
            let n = take(bytes, &mut at, 2).map(|s| u16::from_le_bytes([s[0], s[1]]))? as usize;
            let s = take(bytes, &mut at, n)?;
            Outcome::Error(
                String::from_utf8(s.to_vec()).map_err(|e| format!("error class at byte 3: {e}"))?,
            )
        }
        x => return Err(format!("outcome kind byte {x} at byte 0")),
    };
    if at != bytes.len() {
        return Err(format!(
            "{} bytes after the outcome (at byte {at})",
            bytes.len() - at
        ));
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reals_travel_as_bits() {
        for x in [f64::NAN, -0.0, f64::INFINITY, 1.5e-300, f64::MAX] {
            let t = serde_json::to_string(&Real(x)).unwrap();
            let back: Real = serde_json::from_str(&t).unwrap();
            assert_eq!(back.0.to_bits(), x.to_bits());
        }
        assert_eq!(
            serde_json::to_string(&Real(1.5)).unwrap(),
            "\"3ff8000000000000\""
        );
        for bad in [
            "\"3FF8000000000000\"",
            "\"3ff800000000000\"",
            "1.5",
            "\"3ff80000000000000\"",
        ] {
            assert!(serde_json::from_str::<Real>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn decimals_are_canonical() {
        assert_eq!(
            serde_json::from_str::<Dec>("\"18446744073709551615\"")
                .unwrap()
                .0,
            u64::MAX
        );
        for bad in [
            "\"18446744073709551616\"",
            "\"01\"",
            "\"\"",
            "\"-1\"",
            "\"+1\"",
            "1",
        ] {
            assert!(serde_json::from_str::<Dec>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn outcome_round_trip_is_strict() {
        let o = Outcome::Path(PathOutcome {
            algorithm: AlgorithmCode::BidirectionalAstar,
            status: StatusCode::NotFound,
            cost: f64::INFINITY,
            iterations: 9,
            expanded_count: 9,
            nodes: vec![],
            expanded: vec![1, 2, 3],
        });
        assert_eq!(decode_outcome(&o.encode()).unwrap(), o);
        let e = Outcome::Error("stale_landmarks".into());
        assert_eq!(decode_outcome(&e.encode()).unwrap(), e);
        assert!(decode_outcome(&[1, 9]).is_err());
        let mut extra = e.encode();
        extra.push(0);
        let err = decode_outcome(&extra).unwrap_err();
        assert_eq!(err.kind(), WireErrorKind::Outcome);
        assert!(err.to_string().contains("after the outcome"), "{err}");
        assert_eq!(parse_real("xyz").unwrap_err().kind(), WireErrorKind::Real);
        assert_eq!(parse_hex("abc").unwrap_err().kind(), WireErrorKind::Hex);
        assert!(serde_json::from_str::<Hex>("\"ABCD\"").is_err());
        assert!(serde_json::from_str::<Hex>("\"abc\"").is_err());
    }
}
