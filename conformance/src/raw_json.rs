//! Reading a driver's reply without a generic JSON tree ([DRIVER.PROC.CAP]): a value is kept as
//! its raw text (`RawValue`, at most the reply cap) and decoded straight into its type; the
//! choices the strict readers make first (which member a reply or a payload has, which hook a
//! call names) look at the text's top level only, skipping every value (`IgnoredAny`). A line of
//! 16 MiB of `[{"":0},...]` cost 3.17 GB as a `serde_json::Value` before its typed error.

use serde::de::{DeserializeOwned, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserializer as _;
use serde_json::value::RawValue;

/// The top-level members of a JSON object's text, each value kept raw (borrowed).
pub fn members(text: &str) -> Result<Vec<(String, &RawValue)>, serde_json::Error> {
    struct Members;
    impl<'de> Visitor<'de> for Members {
        type Value = Vec<(String, &'de RawValue)>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(k) = a.next_key::<String>()? {
                out.push((k, a.next_value::<&RawValue>()?));
            }
            Ok(out)
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let m = de.deserialize_map(Members)?;
    de.end()?;
    Ok(m)
}

/// True when `raw` is an object with a top-level member `key` (values are skipped, not built).
pub fn has_member(raw: &RawValue, key: &str) -> bool {
    struct Has<'k>(&'k str);
    impl<'de> Visitor<'de> for Has<'_> {
        type Value = bool;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<bool, A::Error> {
            let mut found = false;
            while let Some(k) = a.next_key::<std::borrow::Cow<'de, str>>()? {
                found |= k == self.0;
                a.next_value::<IgnoredAny>()?;
            }
            Ok(found)
        }
    }
    let mut de = serde_json::Deserializer::from_str(raw.get());
    de.deserialize_map(Has(key)).unwrap_or(false)
}

/// The first element of `raw` when it is an array whose first element is a string.
pub fn first_string(raw: &RawValue) -> Option<String> {
    struct First;
    impl<'de> Visitor<'de> for First {
        type Value = Option<&'de RawValue>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON array")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
            let first = a.next_element::<&RawValue>()?;
            while a.next_element::<IgnoredAny>()?.is_some() {}
            Ok(first)
        }
    }
    let mut de = serde_json::Deserializer::from_str(raw.get());
    let first = de.deserialize_seq(First).ok().flatten()?;
    decode::<String>(first).ok()
}

/// Decodes `raw` as `T`.
pub fn decode<T: DeserializeOwned>(raw: &RawValue) -> Result<T, serde_json::Error> {
    serde_json::from_str(raw.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(s: &str) -> Box<RawValue> {
        RawValue::from_string(s.to_string()).unwrap()
    }

    #[test]
    fn members_keep_raw_values_in_order() {
        let m = members(r#"{"id":3,"ok":{"a":[1,2]}}"#).unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!((m[0].0.as_str(), m[0].1.get()), ("id", "3"));
        assert_eq!((m[1].0.as_str(), m[1].1.get()), ("ok", r#"{"a":[1,2]}"#));
        assert!(members("[1]").is_err());
        assert!(members(r#"{"id":1} x"#).is_err());
        assert!(members(r#"{"id":1"#).is_err());
    }

    #[test]
    fn has_member_and_first_string_look_at_the_top_level_only() {
        assert!(has_member(&raw(r#"{"x":1,"failure":{"a":2}}"#), "failure"));
        assert!(!has_member(&raw(r#"{"x":{"failure":1}}"#), "failure"));
        assert!(!has_member(&raw(r#"["failure"]"#), "failure"));
        assert_eq!(
            first_string(&raw(r#"["blocked",3]"#)).as_deref(),
            Some("blocked")
        );
        assert_eq!(first_string(&raw(r#"[1,"blocked"]"#)), None);
        assert_eq!(first_string(&raw(r#"{"a":"b"}"#)), None);
    }
}
