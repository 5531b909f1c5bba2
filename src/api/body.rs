//! Serde helpers that make request bodies read exactly as the spec's JSON Schemas say.
//!
//! Two places where serde's defaults and JSON Schema part ways:
//! - JSON Schema's `integer` is any number with a zero fractional part, so `3.0` is an integer
//!   there while serde refuses it for a `u64`: [`whole`] and its kin accept both spellings.
//! - An optional field's `null` is not its absence: the spec gives such fields a type without
//!   `null`, so [`some`] refuses `null` like any other wrong type (a missing field stays `None`
//!   through `#[serde(default)]`).

use serde::{Deserialize, Deserializer, de};
use std::{fmt, marker::PhantomData};

/// A whole number ≥ 0 written as an integer or as a float with no fractional part.
struct Whole<T>(T);

impl<'de, T: TryFrom<u64>> Deserialize<'de> for Whole<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit<T>(PhantomData<T>);
        impl<T: TryFrom<u64>> de::Visitor<'_> for Visit<T> {
            type Value = Whole<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a whole number")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                T::try_from(v).map(Whole).map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                let unexpected = || E::invalid_value(de::Unexpected::Signed(v), &self);
                u64::try_from(v).map_err(|_| unexpected()).and_then(|v| self.visit_u64(v))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
                // 2^64 is exactly representable; anything from it up does not fit a u64.
                if v.fract() == 0.0 && (0.0..18_446_744_073_709_551_616.0).contains(&v) {
                    self.visit_u64(v as u64)
                } else {
                    Err(E::invalid_value(de::Unexpected::Float(v), &self))
                }
            }
        }
        d.deserialize_any(Visit(PhantomData))
    }
}

/// A whole number (`3` or `3.0`).
pub fn whole<'de, D: Deserializer<'de>, T: TryFrom<u64>>(d: D) -> Result<T, D::Error> {
    Whole::deserialize(d).map(|w| w.0)
}

/// An optional field that, when present, is a whole number (not `null`).
pub fn some_whole<'de, D: Deserializer<'de>, T: TryFrom<u64>>(d: D) -> Result<Option<T>, D::Error> {
    whole(d).map(Some)
}

/// An optional field that, when present, is a `T` (not `null`).
pub fn some<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    // Through Option, so that `null` is told apart for every T (an enum's own error for it
    // reads as a JSON syntax error).
    match Option::<T>::deserialize(d)? {
        Some(value) => Ok(Some(value)),
        None => Err(de::Error::invalid_type(
            de::Unexpected::Unit,
            &"a value (leave the field out instead of null)",
        )),
    }
}

/// An optional list of whole numbers (not `null`).
pub fn some_whole_list<'de, D: Deserializer<'de>, T: TryFrom<u64>>(d: D) -> Result<Option<Vec<T>>, D::Error> {
    Vec::<Whole<T>>::deserialize(d).map(|v| Some(v.into_iter().map(|w| w.0).collect()))
}

/// A pair of whole numbers.
pub fn whole_pair<'de, D: Deserializer<'de>, T: TryFrom<u64>>(d: D) -> Result<[T; 2], D::Error> {
    <[Whole<T>; 2]>::deserialize(d).map(|[a, b]| [a.0, b.0])
}

/// An optional pair of whole numbers (not `null`).
pub fn some_whole_pair<'de, D: Deserializer<'de>, T: TryFrom<u64>>(d: D) -> Result<Option<[T; 2]>, D::Error> {
    whole_pair(d).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Body {
        #[serde(deserialize_with = "whole")]
        seq: i64,
        #[serde(default, deserialize_with = "some_whole")]
        seat: Option<usize>,
        #[serde(default, deserialize_with = "some")]
        party: Option<bool>,
        #[serde(default, deserialize_with = "some")]
        visibility: Option<Side>,
        #[serde(default, deserialize_with = "some_whole_list")]
        dice: Option<Vec<u8>>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Side {
        Left,
    }

    fn read(text: &str) -> Result<Body, serde_json::Error> {
        serde_json::from_str(text)
    }

    #[test]
    fn integers_may_be_written_as_floats_with_no_fraction() {
        let body = read(r#"{"seq": 1892.0, "seat": 1.0, "dice": [6.0, 1]}"#).unwrap();
        assert_eq!(
            body,
            Body { seq: 1892, seat: Some(1), party: None, visibility: None, dice: Some(vec![6, 1]) }
        );
        assert_eq!(read(r#"{"seq": 7}"#).unwrap().seq, 7);
    }

    #[test]
    fn fractions_negatives_and_overflows_are_refused() {
        for bad in [
            r#"{"seq": 1.5}"#,
            r#"{"seq": -1}"#,
            r#"{"seq": -0.5}"#,
            r#"{"seq": 1e300}"#,
            r#"{"seq": 9223372036854775808}"#,
            r#"{"seq": 1, "dice": [256]}"#,
            r#"{"seq": "1"}"#,
        ] {
            assert!(read(bad).is_err(), "{bad} was accepted");
        }
    }

    #[test]
    fn null_is_not_absence() {
        assert_eq!(read(r#"{"seq": 1}"#).unwrap().party, None);
        assert_eq!(read(r#"{"seq": 1, "visibility": "left"}"#).unwrap().visibility, Some(Side::Left));
        for bad in [
            r#"{"seq": 1, "party": null}"#,
            r#"{"seq": 1, "seat": null}"#,
            r#"{"seq": 1, "dice": null}"#,
            r#"{"seq": 1, "visibility": null}"#,
        ] {
            let e = read(bad).unwrap_err();
            // A data error (422 at the edge), not a syntax error (400).
            assert!(e.is_data(), "{bad}: {e}");
        }
    }
}
