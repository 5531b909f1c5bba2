//! Serde's error messages in the words of the JSON a client sent.
//!
//! serde describes what it expected in Rust's terms: "expected internally tagged enum Action",
//! "invalid type: map, expected struct CreateTable", "expected u8", "unknown variant". A client
//! writes JSON and has never seen those types, so every message of a refused body, query,
//! action or options goes through [`plain`] before it becomes a problem's `detail`: objects,
//! arrays, names and whole numbers instead, and no Rust type name left.

/// Phrases that name a Rust type, with what a client reads instead; the type's name (and a
/// variant path such as `Action::Move`) that follows each is dropped. Longest first.
const NAMED: &[(&str, &str)] = &[
    ("data did not match any variant of untagged enum", "a value of one of the accepted forms"),
    ("expected string or map", "expected one of the listed names"),
    ("internally tagged enum", "an object with a \"type\" field"),
    ("adjacently tagged enum", "an object with a \"type\" field"),
    ("struct variant", "an object"),
    ("tuple variant", "an array"),
    ("newtype variant", "a value"),
    ("unit variant", "a name"),
    ("tuple struct", "an array"),
    ("newtype struct", "a value"),
    ("unit struct", "null"),
    ("struct", "an object"),
    ("enum", "one of the listed names"),
];

/// Rust and serde words with their JSON counterparts (whole words only).
const WORDS: &[(&str, &str)] = &[
    ("unknown variant", "unknown value"),
    ("variant identifier", "a name"),
    ("field identifier", "a field name"),
    ("invalid type: map", "invalid type: object"),
    ("invalid type: sequence", "invalid type: array"),
    ("invalid type: unit value", "invalid type: null"),
    ("expected a map", "expected an object"),
    ("expected a sequence", "expected an array"),
    ("expected unit", "expected null"),
    ("expected option", "expected a value or null"),
    ("a tuple of size", "an array of length"),
    ("expected u8", "expected a whole number from 0 to 255"),
    ("expected u16", "expected a whole number from 0 to 65535"),
    ("expected u32", "expected a whole number of 0 or more"),
    ("expected u64", "expected a whole number of 0 or more"),
    ("expected usize", "expected a whole number of 0 or more"),
    ("expected i8", "expected a whole number"),
    ("expected i16", "expected a whole number"),
    ("expected i32", "expected a whole number"),
    ("expected i64", "expected a whole number"),
    ("expected isize", "expected a whole number"),
    ("expected f32", "expected a number"),
    ("expected f64", "expected a number"),
    ("expected char", "expected a single character"),
];

/// `message` (one of serde's) in a client's words: see the module docs. Text the client sent,
/// quoted in backticks or double quotes, is left as it is.
pub fn plain(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while !rest.is_empty() {
        // Quoted text (the client's own words) is copied unchanged.
        if let Some(quote) = rest.chars().next().filter(|c| *c == '`' || *c == '"') {
            let end = rest[1..].find(quote).map_or(rest.len(), |i| i + 2);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
            continue;
        }
        let at_word_start = out.chars().last().is_none_or(|c| !is_name_char(c));
        if at_word_start && let Some((phrase, with)) = starting_phrase(rest, NAMED) {
            out.push_str(with);
            rest = &rest[phrase.len()..];
            // Drop the type's name (` Action`, ` Action::Move`, ` Options<T>`).
            let name = rest.trim_start_matches(' ');
            let len =
                name.find(|c: char| !(is_name_char(c) || matches!(c, ':' | '<' | '>'))).unwrap_or(name.len());
            if len > 0 && name.len() < rest.len() {
                rest = &name[len..];
            }
            // serde reads a struct from an array too, and then counts its fields as elements
            // ("expected struct CreateTable with 8 elements"): an array is not what is asked.
            if let Some(count) = rest.strip_prefix(" with ") {
                let digits = count.len() - count.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                let after = &count[digits..];
                if digits > 0
                    && let Some(after) = after.strip_prefix(" elements").or(after.strip_prefix(" element"))
                {
                    rest = after;
                }
            }
            continue;
        }
        if at_word_start && let Some((phrase, with)) = starting_phrase(rest, WORDS) {
            out.push_str(with);
            rest = &rest[phrase.len()..];
            continue;
        }
        let c = rest.chars().next().unwrap_or_default();
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The first of `phrases` that `text` starts with as whole words, and its replacement.
fn starting_phrase(
    text: &str,
    phrases: &'static [(&'static str, &'static str)],
) -> Option<(&'static str, &'static str)> {
    phrases.iter().copied().find(|(phrase, _)| {
        text.starts_with(phrase) && !text[phrase.len()..].chars().next().is_some_and(is_name_char)
    })
}

/// `text` in Unicode NFC without surrounding white space, unless it holds a character that does
/// not show as itself: a control character (Cc), a format character (Cf: zero-width spaces and
/// joiners, bidi overrides and isolates, the BOM, soft hyphens…) or a line or paragraph
/// separator (Zl, Zp); then that character. What players write for others to read (names,
/// chat) shows as what it says: nothing invisible, nothing that reorders the text around it.
pub fn visible_text(text: &str) -> Result<String, char> {
    use unicode_normalization::UnicodeNormalization;
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    let text: String = text.nfc().collect();
    let hidden = |c: char| {
        matches!(
            c.general_category(),
            GeneralCategory::Control
                | GeneralCategory::Format
                | GeneralCategory::LineSeparator
                | GeneralCategory::ParagraphSeparator
        )
    };
    let text = text.trim();
    match text.chars().find(|&c| hidden(c)) {
        Some(c) => Err(c),
        None => Ok(text.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a client must never read in a problem's detail.
    pub const RUST_WORDS: &[&str] =
        &["internally tagged", "enum", "struct", "variant", "::", "usize", "u8", "u32", "u64", "i64", "map,"];

    fn rust_free(text: &str) -> bool {
        !RUST_WORDS.iter().any(|w| text.contains(w))
    }

    #[test]
    fn serde_messages_read_in_json_words() {
        let cases = [
            (
                "invalid type: string \"roll\", expected internally tagged enum Action",
                "invalid type: string \"roll\", expected an object with a \"type\" field",
            ),
            (
                "unknown variant `jump`, expected `roll` or `move`",
                "unknown value `jump`, expected `roll` or `move`",
            ),
            ("invalid type: map, expected struct CreateTable", "invalid type: object, expected an object"),
            (
                "invalid type: sequence, expected struct variant Action::Move",
                "invalid type: array, expected an object",
            ),
            (
                "invalid value: integer `-1`, expected u8 at line 1 column 9",
                "invalid value: integer `-1`, expected a whole number from 0 to 255 at line 1 column 9",
            ),
            (
                "invalid type: string \"x\", expected usize",
                "invalid type: string \"x\", expected a whole number of 0 or more",
            ),
            ("missing field `seat_count`", "missing field `seat_count`"),
            (
                "invalid length 0, expected struct CreateTable with 8 elements at line 1 column 2",
                "invalid length 0, expected an object at line 1 column 2",
            ),
            (
                "invalid type: integer `3`, expected enum Visibility",
                "invalid type: integer `3`, expected one of the listed names",
            ),
            ("data did not match any variant of untagged enum Board", "a value of one of the accepted forms"),
            (
                "invalid length 3, expected a tuple of size 2",
                "invalid length 3, expected an array of length 2",
            ),
        ];
        for (serde, plain_words) in cases {
            assert_eq!(plain(serde), plain_words);
            assert!(rust_free(&plain(serde)), "{}", plain(serde));
        }
    }

    #[test]
    fn the_clients_own_words_are_quoted_unchanged() {
        assert_eq!(
            plain("unknown field `struct`, expected `board`"),
            "unknown field `struct`, expected `board`"
        );
        assert_eq!(
            plain("invalid type: string \"enum Foo\", expected u8"),
            "invalid type: string \"enum Foo\", expected a whole number from 0 to 255"
        );
        // Words that only contain a phrase are not touched.
        assert_eq!(plain("structure of the enumeration"), "structure of the enumeration");
    }
}
