//! Keyset pagination, the one way every list in the API pages: `limit` and an opaque `cursor`
//! in, a [`Page`] with `next_cursor` out.
//!
//! A cursor is the position of the last row handed out (`<millis>_<uuid>`, the list's sort key);
//! the next page starts after it, so rows added meanwhile never shift a page.

use super::error::{ApiError, ApiResult, ErrorCode};
use serde::{Serialize, Serializer, ser::SerializeMap};
use uuid::Uuid;

/// Rows on a page when the client names no `limit`.
const DEFAULT_LIMIT: usize = 20;
/// Most rows on one page.
const MAX_LIMIT: usize = 100;

/// Where a list's sort key puts a row: a time in Unix milliseconds, then an id to break ties.
pub type Position = (i64, Uuid);

/// A page asked for: how many rows, after which position.
#[derive(Debug, Clone, Copy)]
pub struct PageRequest {
    /// Rows on the page, 1 to [`MAX_LIMIT`].
    pub limit: usize,
    /// The position the page starts after; `None` for the first page.
    pub after: Option<Position>,
}

impl PageRequest {
    /// Reads the `limit` and `cursor` query parameters.
    pub fn parse(limit: Option<usize>, cursor: Option<&str>) -> ApiResult<Self> {
        let limit = limit.unwrap_or(DEFAULT_LIMIT);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(ApiError::bad_request(ErrorCode::InvalidQuery, format!("limit is 1 to {MAX_LIMIT}")));
        }
        Ok(Self { limit, after: parse_cursor(cursor)? })
    }

    /// Rows to ask the store for: one past the limit tells whether another page follows.
    pub fn fetch(&self) -> usize {
        self.limit + 1
    }
}

/// The position a page starts after: none for the first page (no cursor, or an empty one, as a
/// client that passes the last page's absent `next_cursor` on sends).
fn parse_cursor(cursor: Option<&str>) -> ApiResult<Option<Position>> {
    let Some(cursor) = cursor.filter(|c| !c.is_empty()) else { return Ok(None) };
    let bad = || ApiError::bad_request(ErrorCode::InvalidQuery, "cursor is not one this server handed out");
    let (at, id) = cursor.split_once('_').ok_or_else(bad)?;
    // The spec's `Cursor` pattern, exactly: up to 18 digits (every such number fits an i64), an
    // optional minus, and the UUID hyphenated as this server writes it.
    let digits = at.strip_prefix('-').unwrap_or(at);
    if !(1..=18).contains(&digits.len()) || !digits.bytes().all(|b| b.is_ascii_digit()) || id.len() != 36 {
        return Err(bad());
    }
    Ok(Some((at.parse().map_err(|_| bad())?, Uuid::parse_str(id).map_err(|_| bad())?)))
}

/// What a list's rows are called in its page (`{"tables": [..]}`, `{"entries": [..]}`).
pub trait Listed {
    /// The key of the rows in the page's JSON.
    const KEY: &'static str;
}

/// One page of a list: its rows, and the cursor of the next page unless this is the last.
#[derive(Debug)]
pub struct Page<T> {
    /// The rows, at most the request's limit.
    pub rows: Vec<T>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

impl<T> Page<T> {
    /// The page of `rows` (as fetched for `request`, one more than the limit if more follow),
    /// with `position` giving each row's place in the list.
    pub fn of(mut rows: Vec<T>, request: &PageRequest, position: impl Fn(&T) -> Position) -> Self {
        let next_cursor = if rows.len() > request.limit {
            rows.truncate(request.limit);
            rows.last().map(|row| {
                let (at, id) = position(row);
                format!("{at}_{id}")
            })
        } else {
            None
        };
        Self { rows, next_cursor }
    }

    /// The same page with each row turned into `U` (a view of it).
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Page<U> {
        Page { rows: self.rows.into_iter().map(f).collect(), next_cursor: self.next_cursor }
    }
}

impl<T: Listed + Serialize> Serialize for Page<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry(T::KEY, &self.rows)?;
        if let Some(cursor) = &self.next_cursor {
            map.serialize_entry("next_cursor", cursor)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Row(i64);
    impl Listed for Row {
        const KEY: &'static str = "rows";
    }

    fn position(row: &Row) -> Position {
        (row.0, Uuid::nil())
    }

    #[test]
    fn a_full_page_names_the_next_and_the_last_does_not() {
        let request = PageRequest::parse(Some(2), None).unwrap();
        let page = Page::of(vec![Row(1), Row(2), Row(3)], &request, position);
        assert_eq!(
            serde_json::to_string(&page).unwrap(),
            format!(r#"{{"rows":[1,2],"next_cursor":"2_{}"}}"#, Uuid::nil())
        );
        let next = PageRequest::parse(Some(2), page.next_cursor.as_deref()).unwrap();
        assert_eq!(next.after, Some((2, Uuid::nil())));
        let last = Page::of(vec![Row(3)], &next, position);
        assert_eq!(serde_json::to_string(&last).unwrap(), r#"{"rows":[3]}"#);
    }

    #[test]
    fn limits_and_cursors_are_checked() {
        assert_eq!(PageRequest::parse(None, Some("")).unwrap().limit, DEFAULT_LIMIT);
        assert!(PageRequest::parse(None, Some("")).unwrap().after.is_none());
        for limit in [0, MAX_LIMIT + 1] {
            assert!(PageRequest::parse(Some(limit), None).is_err());
        }
        let nil = Uuid::nil();
        for cursor in [
            "x".to_string(),
            "1_x".to_string(),
            format!("x_{nil}"),
            format!("{}_{nil}", "1".repeat(19)),
            format!("+1_{nil}"),
            format!("1_{}", nil.simple()),
        ] {
            assert!(PageRequest::parse(None, Some(&cursor)).is_err(), "{cursor}");
        }
    }
}
