//! What the lobby handlers tell the sockets of a change they committed: an open table's
//! sockets (its new entries) and the lobby stream (a public table appeared, changed or went),
//! through `table::feeds`; the sockets themselves are `super::ws`'s.

use super::{state::AppState, view::TableView};
use crate::{
    store::{LogEntry, TableRecord, Visibility},
    table::feeds::{LobbyChange, LobbyMessage, Removal},
};
use uuid::Uuid;

/// Tells an open table's sockets of the entries a lobby change just committed.
pub(super) fn tell_table(state: &AppState, id: Uuid, entries: &[LogEntry]) {
    state.tables.feeds().publish_entries(id, entries);
}

/// Tells the lobby that a public `table` appeared or changed (private ones: nothing).
pub(super) fn tell_lobby(state: &AppState, table: &TableRecord, change: LobbyChange, seq: i64) {
    if table.visibility == Visibility::Public {
        let view = TableView::of(table, None, state);
        state.tables.feeds().publish_lobby(&LobbyMessage::Table { change, seq, table: &view });
    }
}

/// Tells the lobby that a table it listed is gone.
pub(super) fn tell_removed(state: &AppState, table_id: Uuid, reason: Removal, seq: i64) {
    state.tables.feeds().publish_lobby::<()>(&LobbyMessage::Removed { table_id, reason, seq });
}

/// The latest `seq` among `entries`, else `otherwise`.
pub(super) fn last_seq(entries: &[LogEntry], otherwise: i64) -> i64 {
    entries.last().map_or(otherwise, |e| e.seq)
}
