//! Backgammon reviews' rows (docs/analysis.md, migration `0018_reviews.sql`): each finished
//! backgammon table's decisions rated once by [`crate::review::replay::Reviewer`].
//!
//! As the ledger (`ledger.rs`): [`Store::keep_reviews`] (started in `lib.rs`) reviews the finished
//! tables not yet reviewed, reading each log a page at a time and rating it off the async
//! threads; one transaction then claims the table (`game_tables.reviewed` from 0 to 1, so two
//! processes never both write it) and writes its totals and decisions. A log that does not
//! replay is set aside (`reviewed = 2`) and its analysis answered as unavailable. The finish
//! itself pays nothing: a review searches every play at 1 ply, thousands of network evaluations
//! a decision.

use super::{Store, StoreError, StoreResult, parse_uuid};
use crate::clock::now_millis;
use crate::review::replay::{Decision, LogStep, Reviewer, SeatReview};
use crate::rules::backgammon::{Backgammon, BackgammonOptions};
use crate::store::{LoggedAction, TableEntry};
use sqlx::Row;
use uuid::Uuid;

/// Log entries read at a time while reviewing a table.
const PAGE: i64 = 256;
/// Tables the worker reviews per round.
const BATCH: i64 = 4;

/// Where a finished backgammon table's review stands.
#[derive(Debug, Clone, PartialEq)]
pub enum ReviewState {
    /// Not written yet: the worker reviews finished tables in the order they finished.
    Pending,
    /// The log could not be replayed.
    Failed,
    /// Written: each seat's totals.
    Done(Vec<SeatReview>),
}

/// A reviewed table, to be written.
struct Reviewed {
    seats: Vec<SeatReview>,
    decisions: Vec<Decision>,
}

impl Store {
    /// The review worker: every second, reviews the finished backgammon tables not yet reviewed
    /// (a batch at a time, until none is left), until `stopped`. Any number of processes may
    /// run it: each table is claimed by one.
    pub async fn keep_reviews(self, stopped: impl Future<Output = ()>) {
        super::every_second_until_caught_up(
            stopped,
            BATCH,
            "the review worker could not review finished tables",
            |limit| self.review_catch_up(limit),
        )
        .await
    }

    /// Reviews up to `limit` finished backgammon tables not yet reviewed, oldest finish first;
    /// returns how many it looked at (written or set aside).
    pub async fn review_catch_up(&self, limit: i64) -> StoreResult<usize> {
        let rows = sqlx::query(
            "SELECT id FROM game_tables WHERE status = 'finished' AND game = 'backgammon' AND reviewed = 0
             ORDER BY finished_at LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut done = 0;
        for r in rows {
            let id = parse_uuid(&r.try_get::<String, _>("id")?)?;
            match self.review_table(id).await {
                Ok(Some(review)) => {
                    self.write_review(id, &review).await?;
                }
                Ok(None) | Err(StoreError::Corrupt(_)) => {
                    tracing::warn!(table = %id, "this finished table's log does not replay for a review: set aside");
                    sqlx::query("UPDATE game_tables SET reviewed = 2 WHERE id = $1 AND reviewed = 0")
                        .bind(id.to_string())
                        .execute(&self.writes)
                        .await?;
                }
                Err(e) => return Err(e),
            }
            done += 1;
        }
        Ok(done)
    }

    /// Replays a finished table's log and rates it; `None` if the log does not replay.
    async fn review_table(&self, id: Uuid) -> StoreResult<Option<Reviewed>> {
        let Some(table) = self.table(id).await? else { return Ok(None) };
        let Ok(options) = serde_json::from_value::<BackgammonOptions>(table.options.clone()) else {
            return Ok(None);
        };
        let mut reviewer = Reviewer::new(options);
        let mut decisions = vec![];
        let mut after = 0;
        loop {
            let page = self.entries_page(id, after, i64::MAX, PAGE).await?;
            let Some(last) = page.last() else { break };
            after = last.seq;
            // Network evaluations: off the async threads.
            let (back, rated) = tokio::task::spawn_blocking(move || {
                let net = crate::bots::backgammon::network();
                for e in &page {
                    let step = match (&e.action, e.seat) {
                        (LoggedAction::Table(TableEntry::Start { .. }), _) => {
                            LogStep::Start { seq: e.seq, events: &e.events.events }
                        }
                        (LoggedAction::Engine(action), Some(seat)) => {
                            LogStep::Action { seq: e.seq, seat, action, events: &e.events.events }
                        }
                        _ => LogStep::Other,
                    };
                    if let Err(error) = reviewer.feed(net, step) {
                        return (reviewer, Err(error));
                    }
                }
                let rows = reviewer.take_rows();
                (reviewer, Ok(rows))
            })
            .await
            .map_err(|e| StoreError::Corrupt(format!("review: {e}")))?;
            reviewer = back;
            match rated {
                Ok(rows) => decisions.extend(rows),
                Err(error) => {
                    tracing::warn!(table = %id, %error, "a review's replay failed");
                    return Ok(None);
                }
            }
        }
        Ok(Some(Reviewed { seats: reviewer.seats().to_vec(), decisions }))
    }

    /// Claims the table and writes its review in one transaction; false if it was written
    /// already.
    async fn write_review(&self, id: Uuid, review: &Reviewed) -> StoreResult<bool> {
        let mut tx = self.writes.begin().await?;
        let claimed = sqlx::query("UPDATE game_tables SET reviewed = 1 WHERE id = $1 AND reviewed = 0")
            .bind(id.to_string())
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if claimed == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        sqlx::query("INSERT INTO reviews (table_id, seats, reviewed_at) VALUES ($1, $2, $3)")
            .bind(id.to_string())
            .bind(json(&review.seats))
            .bind(now_millis())
            .execute(&mut *tx)
            .await?;
        for d in &review.decisions {
            sqlx::query("INSERT INTO review_decisions (table_id, number, decision) VALUES ($1, $2, $3)")
                .bind(id.to_string())
                .bind(d.number as i64)
                .bind(json(d))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Where a finished table's review stands.
    pub async fn review_state(&self, id: Uuid) -> StoreResult<ReviewState> {
        let row = sqlx::query(
            "SELECT t.reviewed, r.seats FROM game_tables t LEFT JOIN reviews r ON r.table_id = t.id WHERE t.id = $1",
        )
        .bind(id.to_string())
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(ReviewState::Pending) };
        Ok(match (row.try_get::<i64, _>("reviewed")?, row.try_get::<Option<String>, _>("seats")?) {
            (1, Some(seats)) => ReviewState::Done(
                serde_json::from_str(&seats)
                    .map_err(|e| StoreError::Corrupt(format!("review seats: {e}")))?,
            ),
            (2, _) => ReviewState::Failed,
            _ => ReviewState::Pending,
        })
    }

    /// Up to `limit` of a reviewed table's decisions numbered after `after`, in order.
    pub async fn review_decisions(&self, id: Uuid, after: i64, limit: i64) -> StoreResult<Vec<Decision>> {
        let rows = sqlx::query(
            "SELECT decision FROM review_decisions WHERE table_id = $1 AND number > $2 ORDER BY number LIMIT $3",
        )
        .bind(id.to_string())
        .bind(after)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                serde_json::from_str(&r.try_get::<String, _>("decision")?)
                    .map_err(|e| StoreError::Corrupt(format!("review decision: {e}")))
            })
            .collect()
    }

    /// The state of a backgammon table after its latest entry that stored one (a table in
    /// play: the table's own entries, takeovers and reclaims, change no state); `None` before
    /// its start.
    pub async fn latest_backgammon(&self, id: Uuid) -> StoreResult<Option<Backgammon>> {
        let rows = sqlx::query("SELECT events FROM actions WHERE table_id = $1 ORDER BY seq DESC LIMIT 16")
            .bind(id.to_string())
            .fetch_all(&self.pool)
            .await?;
        for row in rows {
            let events: super::EntryEvents = serde_json::from_str(&row.try_get::<String, _>("events")?)
                .map_err(|e| StoreError::Corrupt(format!("events: {e}")))?;
            if let Some(state) = events.state {
                return serde_json::from_str(state.get())
                    .map(Some)
                    .map_err(|e| StoreError::Corrupt(format!("backgammon state: {e}")));
            }
        }
        Ok(None)
    }
}

/// JSON text of what a review writes.
fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("a review's rows serialize to JSON")
}
