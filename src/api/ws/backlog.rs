//! Sending a socket the committed log from a `seq`: the one way every socket catches up (a
//! table's backlog, an open table's entries, a gap or a nudge when following the store), read
//! through a [`Cursor`], so that what a socket holds of the log stays one page, however long
//! the log and however slowly the client reads (each write waits at most `SEND_TIMEOUT`).

use super::transport::{Socket, send};
use crate::{
    api::state::AppState,
    store::{LogEntry, StoreResult},
    table::{Broadcast, cursor::Cursor, messages::entry_message},
};
use axum::extract::ws::{Message, Utf8Bytes};
use std::sync::Arc;
use uuid::Uuid;

/// What [`send_log`] did.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Sent {
    /// Every entry read was sent; `noted`: whether any of them was one the caller notes.
    All { noted: bool },
    /// The connection is to be dropped.
    Dropped,
}

/// The entries of table `id` after `after`, read a `LUDDO_BACKLOG_PAGE` page at a time.
pub(super) fn log_after(state: &AppState, id: Uuid, after: i64) -> Cursor<'_> {
    Cursor::new(&state.store, id, after, state.config.backlog_page)
}

/// Sends every entry `cursor` reads, in order, moving `last` on to each one sent, and tells
/// whether any of them is one `note` holds for.
pub(super) async fn send_log(
    socket: &mut impl Socket,
    mut cursor: Cursor<'_>,
    last: &mut i64,
    note: impl Fn(&LogEntry) -> bool,
) -> StoreResult<Sent> {
    let mut noted = false;
    while let Some(entry) = cursor.next().await? {
        if !send(socket, Message::Text(entry_message(&entry).into())).await {
            return Ok(Sent::Dropped);
        }
        *last = entry.seq;
        noted |= note(&entry);
    }
    Ok(Sent::All { noted })
}

/// Sends the log entries with `since < seq <= upto`, in order: from the actor's `recent`
/// history when it reaches back far enough, else from the store. `Ok(false)` if the connection
/// is to be dropped.
pub(super) async fn send_backlog(
    socket: &mut impl Socket,
    state: &AppState,
    id: Uuid,
    since: i64,
    recent: Vec<Arc<Broadcast>>,
    upto: i64,
) -> StoreResult<bool> {
    let oldest = recent.first().and_then(|b| b.seq());
    if oldest.is_some_and(|o| o <= since + 1) {
        for b in recent.iter() {
            if let Broadcast::Entry { seq, text } = &**b
                && *seq > since
                && *seq <= upto
                && !send(socket, Message::Text(Utf8Bytes::from(text.as_ref()))).await
            {
                return Ok(false);
            }
        }
        return Ok(true);
    }
    drop(recent);
    let mut last = since;
    Ok(send_log(socket, log_after(state, id, since).upto(upto), &mut last, |_| false).await? != Sent::Dropped)
}
