//! A reader of one table's committed log, after a given `seq`, a page at a time: what a socket
//! sends when it catches up (its backlog, a gap, a nudge from another process) or looks for an
//! entry (the one that made an open table private).
//!
//! At most one page of entries is held at once, however long the log. The entries come as the
//! store reads them, the table's own decoded ([`crate::store::LoggedAction`]), so a reader
//! matches on their type rather than on the stored JSON.

use crate::store::{LogEntry, Store, StoreResult};
use std::collections::VecDeque;
use uuid::Uuid;

/// Reads a table's log entries with `after < seq <= upto`, oldest first, a page at a time.
pub struct Cursor<'a> {
    store: &'a Store,
    table_id: Uuid,
    /// The last `seq` read from the store (yielded, or waiting in `page`).
    after: i64,
    upto: i64,
    page_size: i64,
    /// What was read and not yet yielded: at most one page.
    page: VecDeque<LogEntry>,
}

impl<'a> Cursor<'a> {
    /// The entries after `after`, read `page_size` (the configured backlog page) at a time.
    pub fn new(store: &'a Store, table_id: Uuid, after: i64, page_size: usize) -> Self {
        let page_size = i64::try_from(page_size).unwrap_or(i64::MAX).max(1);
        Self { store, table_id, after, upto: i64::MAX, page_size, page: VecDeque::new() }
    }

    /// Stops after the entry `upto` (included).
    pub fn upto(self, upto: i64) -> Self {
        Self { upto, ..self }
    }

    /// The next entry, reading the next page when the last is done; `None` once the log (as
    /// far as it is committed, and up to `upto`) is read. Asked again, it reads on from there.
    pub async fn next(&mut self) -> StoreResult<Option<LogEntry>> {
        if self.page.is_empty() && self.after < self.upto {
            let page = self.store.entries_page(self.table_id, self.after, self.upto, self.page_size).await?;
            if let Some(last) = page.last() {
                self.after = last.seq;
            }
            self.page = page.into();
        }
        Ok(self.page.pop_front())
    }

    /// Reads on to the first entry that `stop` holds for, and tells its `seq`; `None` if no
    /// entry read does.
    pub async fn find(mut self, stop: impl Fn(&LogEntry) -> bool) -> StoreResult<Option<i64>> {
        while let Some(entry) = self.next().await? {
            if stop(&entry) {
                return Ok(Some(entry.seq));
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        clock::now_millis,
        store::{
            Append, EntryEvents, LoggedAction, PlayedBy, TableEntry,
            testing::{TempDir, luddo_for_two, scratch_store},
        },
    };
    use serde_json::json;

    /// The entries of a started two-seat table's lobby (the host's seat, the bot's).
    const LOBBY: i64 = 2;

    /// A started table whose log holds, after its lobby's entries, a roll for each of `rolls`
    /// and then the host's seat reclaimed.
    async fn table_with_log(rolls: i64) -> (Store, Uuid, TempDir) {
        let (store, dir) = scratch_store().await;
        let host = store.create_player("host", &Uuid::new_v4().to_string(), None).await.unwrap();
        let new = luddo_for_two(host.id);
        store.create_table(&new, 0, usize::MAX).await.unwrap();
        store.start_table(new.id, host.id, "me", true).await.unwrap();
        let epoch = store.claim_table(new.id, "me", now_millis()).await.unwrap().unwrap();
        let entry = |seq, actor, action| LogEntry {
            seq,
            seat: Some(0),
            actor,
            action,
            events: EntryEvents::default(),
            at: now_millis(),
        };
        let mut entries: Vec<_> = (1..=rolls)
            .map(|i| entry(LOBBY + i, PlayedBy::Human, LoggedAction::Engine(json!({"type": "roll"}))))
            .collect();
        let reclaim = LoggedAction::Table(TableEntry::Reclaim { seat: 0 });
        entries.push(entry(LOBBY + rolls + 1, PlayedBy::Server, reclaim));
        let append = Append {
            table_id: new.id,
            epoch,
            entries,
            messages: vec![],
            deadline: None,
            controllers: vec![],
            finish: None,
        };
        store.append(append).await.unwrap();
        (store, new.id, dir)
    }

    /// Every `seq` the cursor yields, checking it never holds more than a page.
    async fn seqs(mut cursor: Cursor<'_>) -> Vec<i64> {
        let mut seqs = vec![];
        while let Some(entry) = cursor.next().await.unwrap() {
            assert!(cursor.page.len() < cursor.page_size as usize, "more than a page held");
            seqs.push(entry.seq);
        }
        seqs
    }

    #[tokio::test]
    async fn a_cursor_yields_the_log_after_its_seq_a_page_at_a_time() {
        let (store, id, _dir) = table_with_log(5).await;
        let last = LOBBY + 6;
        for page in [1, 2, 3, 64] {
            assert_eq!(seqs(Cursor::new(&store, id, 0, page)).await, (1..=last).collect::<Vec<_>>());
            assert_eq!(seqs(Cursor::new(&store, id, 3, page)).await, (4..=last).collect::<Vec<_>>());
            assert_eq!(seqs(Cursor::new(&store, id, last, page)).await, Vec::<i64>::new());
        }
    }

    #[tokio::test]
    async fn a_cursor_stops_at_its_upto() {
        let (store, id, _dir) = table_with_log(5).await;
        assert_eq!(seqs(Cursor::new(&store, id, 1, 2).upto(4)).await, vec![2, 3, 4]);
        assert_eq!(seqs(Cursor::new(&store, id, 4, 2).upto(4)).await, Vec::<i64>::new());
    }

    /// The table's own entries come decoded, engine actions not; `find` stops at the first
    /// entry its predicate holds for.
    #[tokio::test]
    async fn a_cursor_yields_the_tables_entries_decoded_and_finds_the_first_that_stops_it() {
        let (store, id, _dir) = table_with_log(3).await;
        let reclaim = LOBBY + 4;
        let mut cursor = Cursor::new(&store, id, LOBBY, 2);
        let mut read = vec![];
        while let Some(entry) = cursor.next().await.unwrap() {
            read.push(entry.action.table().cloned());
        }
        assert_eq!(read, vec![None, None, None, Some(TableEntry::Reclaim { seat: 0 })]);

        let reclaimed = |e: &LogEntry| matches!(e.action, LoggedAction::Table(TableEntry::Reclaim { .. }));
        assert_eq!(Cursor::new(&store, id, 0, 2).find(reclaimed).await.unwrap(), Some(reclaim));
        assert_eq!(Cursor::new(&store, id, reclaim, 2).find(reclaimed).await.unwrap(), None);
        assert_eq!(Cursor::new(&store, id, 0, 2).upto(reclaim - 1).find(reclaimed).await.unwrap(), None);
        let seated = |e: &LogEntry| e.action.table().is_some_and(|t| t.seat().is_some());
        assert_eq!(Cursor::new(&store, id, 0, 1).find(seated).await.unwrap(), Some(1));
    }
}
