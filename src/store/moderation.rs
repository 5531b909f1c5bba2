//! Moderation (docs/social.md): the admin role, reports, a moderator's mutes, bans and hidden
//! messages, and the log of every moderation action, each written in the action's transaction.

use super::{Backend, KEYSET_AT, KEYSET_CREATED, Numbered, StoreResult, TOKENS_CHANNEL, parse_uuid};
use sqlx::{Row, any::AnyRow};
use uuid::Uuid;

/// What a moderation action did (the log's `action` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ModerationAction {
    GrantAdmin,
    RevokeAdmin,
    Mute,
    Unmute,
    Ban,
    Unban,
    HideMessage,
    CloseReport,
}

/// Each action as the log's column spells it (serde's spelling too).
const ACTIONS: &[(ModerationAction, &str)] = &[
    (ModerationAction::GrantAdmin, "grant_admin"),
    (ModerationAction::RevokeAdmin, "revoke_admin"),
    (ModerationAction::Mute, "mute"),
    (ModerationAction::Unmute, "unmute"),
    (ModerationAction::Ban, "ban"),
    (ModerationAction::Unban, "unban"),
    (ModerationAction::HideMessage, "hide_message"),
    (ModerationAction::CloseReport, "close_report"),
];

impl ModerationAction {
    /// How the `moderation_log.action` column spells it.
    pub fn as_str(self) -> &'static str {
        ACTIONS.iter().find(|(a, _)| *a == self).map_or("", |(_, s)| s)
    }

    fn parse(column: &str) -> Option<Self> {
        ACTIONS.iter().find(|(_, s)| *s == column).map(|(a, _)| *a)
    }
}

/// One line of the moderation log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModerationEntry {
    pub id: Uuid,
    pub at: i64,
    /// The admin; `None` for the command line.
    pub actor: Option<Uuid>,
    pub action: ModerationAction,
    pub player: Option<Uuid>,
    pub table: Option<Uuid>,
    pub message: Option<i64>,
    pub report: Option<Uuid>,
    pub until: Option<i64>,
    pub reason: Option<String>,
}

/// A moderation action to log (and do).
#[derive(Debug, Clone)]
pub struct Moderation {
    pub actor: Option<Uuid>,
    pub action: ModerationAction,
    pub player: Option<Uuid>,
    pub table: Option<Uuid>,
    pub message: Option<i64>,
    pub report: Option<Uuid>,
    pub until: Option<i64>,
    pub reason: Option<String>,
    pub at: i64,
}

impl Moderation {
    /// `action` by `actor` at `at`, about nothing yet.
    pub fn new(actor: Option<Uuid>, action: ModerationAction, at: i64) -> Self {
        Self {
            actor,
            action,
            player: None,
            table: None,
            message: None,
            report: None,
            until: None,
            reason: None,
            at,
        }
    }
}

/// A report of a player, or of one of their messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub id: Uuid,
    pub reporter: Uuid,
    pub player: Uuid,
    pub table: Option<Uuid>,
    pub message: Option<i64>,
    pub reason: String,
    pub open: bool,
    pub created_at: i64,
    pub closed_at: Option<i64>,
    pub closed_by: Option<Uuid>,
    pub note: Option<String>,
}

/// A report to file.
#[derive(Debug, Clone)]
pub struct NewReport {
    pub reporter: Uuid,
    pub player: Uuid,
    pub table: Option<Uuid>,
    pub message: Option<i64>,
    pub reason: String,
    pub at: i64,
}

/// A moderator's standing limits on a player (Unix ms; `None`: none).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sanctions {
    pub chat_muted_until: Option<i64>,
    pub banned_until: Option<i64>,
}

fn optional_uuid(r: &AnyRow, column: &str) -> StoreResult<Option<Uuid>> {
    r.try_get::<Option<String>, _>(column)?.as_deref().map(parse_uuid).transpose()
}

impl Report {
    fn from_row(r: &AnyRow) -> StoreResult<Self> {
        Ok(Self {
            id: parse_uuid(&r.try_get::<String, _>("id")?)?,
            reporter: parse_uuid(&r.try_get::<String, _>("reporter_id")?)?,
            player: parse_uuid(&r.try_get::<String, _>("player_id")?)?,
            table: optional_uuid(r, "table_id")?,
            message: r.try_get("message_n")?,
            reason: r.try_get("reason")?,
            open: r.try_get::<String, _>("status")? == "open",
            created_at: r.try_get("created_at")?,
            closed_at: r.try_get("closed_at")?,
            closed_by: optional_uuid(r, "closed_by")?,
            note: r.try_get("note")?,
        })
    }
}

impl ModerationEntry {
    fn from_row(r: &AnyRow) -> StoreResult<Self> {
        let action: String = r.try_get("action")?;
        Ok(Self {
            id: parse_uuid(&r.try_get::<String, _>("id")?)?,
            at: r.try_get("at")?,
            actor: optional_uuid(r, "actor_id")?,
            action: ModerationAction::parse(&action)
                .ok_or_else(|| super::StoreError::Corrupt(format!("moderation action {action:?}")))?,
            player: optional_uuid(r, "player_id")?,
            table: optional_uuid(r, "table_id")?,
            message: r.try_get("message_n")?,
            report: optional_uuid(r, "report_id")?,
            until: r.try_get("until_at")?,
            reason: r.try_get("reason")?,
        })
    }
}

const REPORT_COLUMNS: &str = "id, reporter_id, player_id, table_id, message_n, reason, status, created_at, \
     closed_at, closed_by, note";

/// Writes `m` into the moderation log, in `tx`.
async fn log(tx: &mut sqlx::AnyConnection, m: &Moderation) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO moderation_log (id, at, actor_id, action, player_id, table_id, message_n, report_id, \
         until_at, reason) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(Uuid::new_v4().to_string())
    .bind(m.at)
    .bind(m.actor.map(|a| a.to_string()))
    .bind(m.action.as_str())
    .bind(m.player.map(|p| p.to_string()))
    .bind(m.table.map(|t| t.to_string()))
    .bind(m.message)
    .bind(m.report.map(|r| r.to_string()))
    .bind(m.until)
    .bind(m.reason.as_deref())
    .execute(tx)
    .await?;
    Ok(())
}

impl super::Store {
    /// Whether player `id` holds the admin role.
    pub async fn is_admin(&self, id: Uuid) -> StoreResult<bool> {
        let row: Option<(i64,)> = sqlx::query_as("SELECT admin FROM players WHERE id = $1")
            .bind(id.to_string())
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some_and(|(admin,)| admin != 0))
    }

    /// Grants (or takes) the admin role of player `m.player`, logged; false if there is no
    /// such player.
    pub async fn set_admin(&self, m: &Moderation) -> StoreResult<bool> {
        let admin = m.action == ModerationAction::GrantAdmin;
        let mut tx = self.writes.begin().await?;
        let done = sqlx::query("UPDATE players SET admin = $1 WHERE id = $2")
            .bind(i64::from(admin))
            .bind(m.player.map(|p| p.to_string()))
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() == 0 {
            return Ok(false);
        }
        log(&mut tx, m).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Player `id`'s standing mute and ban.
    pub async fn sanctions(&self, id: Uuid) -> StoreResult<Sanctions> {
        let row: Option<(Option<i64>, Option<i64>)> =
            sqlx::query_as("SELECT chat_muted_until, banned_until FROM players WHERE id = $1")
                .bind(id.to_string())
                .fetch_optional(&self.pool)
                .await?;
        Ok(row
            .map(|(chat_muted_until, banned_until)| Sanctions { chat_muted_until, banned_until })
            .unwrap_or_default())
    }

    /// A moderator's mute or ban of `m.player` until `m.until` (lifted: `Unmute`, `Unban`),
    /// logged. A ban or its lifting also tells every process, at the commit, to forget the
    /// player's sessions and (a ban) close their sockets: the player's token ids are returned
    /// for this process to do the same. `None` if there is no such player.
    pub async fn sanction(&self, m: &Moderation) -> StoreResult<Option<Vec<Uuid>>> {
        let player = m.player.map(|p| p.to_string());
        let column = match m.action {
            ModerationAction::Mute | ModerationAction::Unmute => "chat_muted_until",
            _ => "banned_until",
        };
        let until = match m.action {
            ModerationAction::Mute | ModerationAction::Ban => m.until,
            _ => None,
        };
        let mut tx = self.writes.begin().await?;
        let done = sqlx::query(&format!("UPDATE players SET {column} = $1 WHERE id = $2"))
            .bind(until)
            .bind(&player)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() == 0 {
            return Ok(None);
        }
        log(&mut tx, m).await?;
        let tokens: Vec<(String,)> = match m.action {
            ModerationAction::Ban | ModerationAction::Unban => {
                sqlx::query_as("SELECT id FROM tokens WHERE player_id = $1")
                    .bind(&player)
                    .fetch_all(&mut *tx)
                    .await?
            }
            _ => vec![],
        };
        let tokens = tokens.iter().map(|(id,)| parse_uuid(id)).collect::<StoreResult<Vec<_>>>()?;
        if self.backend == Backend::Postgres {
            let suffix = if m.action == ModerationAction::Ban { " banned" } else { " session" };
            for token in &tokens {
                super::leases::notify_on(&mut tx, TOKENS_CHANNEL, &format!("{token}{suffix}")).await?;
            }
        }
        tx.commit().await?;
        Ok(Some(tokens))
    }

    /// Hides message `m.message` of table `m.table`, logged; false if there is no such
    /// message or it was hidden already.
    pub async fn hide_chat(&self, m: &Moderation) -> StoreResult<bool> {
        let mut tx = self.writes.begin().await?;
        let done = sqlx::query(
            "UPDATE chat_messages SET hidden_at = $1 WHERE table_id = $2 AND n = $3 AND hidden_at IS NULL",
        )
        .bind(m.at)
        .bind(m.table.map(|t| t.to_string()))
        .bind(m.message)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            return Ok(false);
        }
        log(&mut tx, m).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Files `new`, unless its reporter filed `cap` reports since `since` (`None`).
    pub async fn file_report(&self, new: &NewReport, since: i64, cap: i64) -> StoreResult<Option<Report>> {
        let mut tx = self.writes.begin().await?;
        super::lock_name(&mut tx, self.backend, &format!("reports {}", new.reporter)).await?;
        let (filed,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM reports WHERE reporter_id = $1 AND created_at > $2")
                .bind(new.reporter.to_string())
                .bind(since)
                .fetch_one(&mut *tx)
                .await?;
        if filed >= cap {
            return Ok(None);
        }
        let id = Uuid::new_v4();
        sqlx::query(
            "INSERT INTO reports (id, reporter_id, player_id, table_id, message_n, reason, status, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, 'open', $7)",
        )
        .bind(id.to_string())
        .bind(new.reporter.to_string())
        .bind(new.player.to_string())
        .bind(new.table.map(|t| t.to_string()))
        .bind(new.message)
        .bind(&new.reason)
        .bind(new.at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(Report {
            id,
            reporter: new.reporter,
            player: new.player,
            table: new.table,
            message: new.message,
            reason: new.reason.clone(),
            open: true,
            created_at: new.at,
            closed_at: None,
            closed_by: None,
            note: None,
        }))
    }

    /// Reports newest first (open ones, or closed ones), after `after`, at most `limit`.
    pub async fn reports(
        &self,
        open: bool,
        after: Option<(i64, Uuid)>,
        limit: usize,
    ) -> StoreResult<Vec<Report>> {
        let mut sql =
            Numbered::new(self.backend, &format!("SELECT {REPORT_COLUMNS} FROM reports WHERE status = ?"));
        if after.is_some() {
            sql.push(KEYSET_CREATED);
        }
        sql.push(" ORDER BY created_at DESC, id DESC LIMIT ?");
        let mut q = sqlx::query(sql.as_str()).bind(if open { "open" } else { "closed" });
        if let Some((at, id)) = after {
            q = q.bind(at).bind(at).bind(id.to_string());
        }
        let rows = q.bind(limit as i64).fetch_all(&self.pool).await?;
        rows.iter().map(Report::from_row).collect()
    }

    /// Closes report `m.report` with `m.reason` as its note, logged; `None` if there is no
    /// such report, `Some(false)` if it was closed already.
    pub async fn close_report(&self, m: &Moderation) -> StoreResult<Option<Report>> {
        let id = m.report.map(|r| r.to_string());
        let mut tx = self.writes.begin().await?;
        let done = sqlx::query(
            "UPDATE reports SET status = 'closed', closed_at = $1, closed_by = $2, note = $3 \
             WHERE id = $4 AND status = 'open'",
        )
        .bind(m.at)
        .bind(m.actor.map(|a| a.to_string()))
        .bind(m.reason.as_deref())
        .bind(&id)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() > 0 {
            log(&mut tx, m).await?;
        }
        let row = sqlx::query(&format!("SELECT {REPORT_COLUMNS} FROM reports WHERE id = $1"))
            .bind(&id)
            .fetch_optional(&mut *tx)
            .await?;
        tx.commit().await?;
        row.as_ref().map(Report::from_row).transpose()
    }

    /// The moderation log newest first, after `after`, at most `limit`.
    pub async fn moderation_log(
        &self,
        after: Option<(i64, Uuid)>,
        limit: usize,
    ) -> StoreResult<Vec<ModerationEntry>> {
        let mut sql = Numbered::new(
            self.backend,
            "SELECT id, at, actor_id, action, player_id, table_id, message_n, report_id, until_at, reason \
             FROM moderation_log WHERE 1 = 1",
        );
        if after.is_some() {
            sql.push(KEYSET_AT);
        }
        sql.push(" ORDER BY at DESC, id DESC LIMIT ?");
        let mut q = sqlx::query(sql.as_str());
        if let Some((at, id)) = after {
            q = q.bind(at).bind(at).bind(id.to_string());
        }
        let rows = q.bind(limit as i64).fetch_all(&self.pool).await?;
        rows.iter().map(ModerationEntry::from_row).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::testing::scratch_store;

    /// Every moderation action is in the log, newest first, with whom and why.
    #[test]
    fn each_action_is_spelled_as_serde_spells_it() {
        for (action, spelled) in ACTIONS {
            assert_eq!(serde_json::to_value(action).unwrap(), *spelled);
            assert_eq!(ModerationAction::parse(spelled), Some(*action));
        }
    }

    #[tokio::test]
    async fn moderation_actions_are_logged() {
        let (store, _dir) = scratch_store().await;
        let player = store.create_player("mallory", "h1", None).await.unwrap().id;
        let admin = store.create_player("ada", "h2", None).await.unwrap().id;
        let grant =
            Moderation { player: Some(admin), ..Moderation::new(None, ModerationAction::GrantAdmin, 1) };
        assert!(store.set_admin(&grant).await.unwrap());
        assert!(store.is_admin(admin).await.unwrap());
        let ban = Moderation {
            player: Some(player),
            until: Some(10_000),
            reason: Some("spam".into()),
            ..Moderation::new(Some(admin), ModerationAction::Ban, 2)
        };
        assert_eq!(store.sanction(&ban).await.unwrap().map(|t| t.len()), Some(1), "its one token");
        assert_eq!(store.sanctions(player).await.unwrap().banned_until, Some(10_000));
        let lift =
            Moderation { player: Some(player), ..Moderation::new(Some(admin), ModerationAction::Unban, 3) };
        store.sanction(&lift).await.unwrap();
        assert_eq!(store.sanctions(player).await.unwrap(), Sanctions::default());
        let log = store.moderation_log(None, 10).await.unwrap();
        let actions: Vec<_> = log.iter().map(|e| e.action).collect();
        assert_eq!(actions, [ModerationAction::Unban, ModerationAction::Ban, ModerationAction::GrantAdmin]);
        assert_eq!(log[1].reason.as_deref(), Some("spam"));
        assert_eq!(log[2].actor, None, "the command line");
        let page = store.moderation_log(Some((log[0].at, log[0].id)), 10).await.unwrap();
        assert_eq!(page.len(), 2);
    }

    /// A reporter files at most the cap in the window; a report closes once.
    #[tokio::test]
    async fn reports_are_bounded_per_reporter_and_close_once() {
        let (store, _dir) = scratch_store().await;
        let reporter = store.create_player("rita", "h1", None).await.unwrap().id;
        let player = store.create_player("mallory", "h2", None).await.unwrap().id;
        let new = NewReport { reporter, player, table: None, message: None, reason: "rude".into(), at: 100 };
        let report = store.file_report(&new, 0, 1).await.unwrap().unwrap();
        assert!(store.file_report(&new, 0, 1).await.unwrap().is_none());
        assert_eq!(store.reports(true, None, 10).await.unwrap(), std::slice::from_ref(&report));
        let close = Moderation {
            report: Some(report.id),
            ..Moderation::new(Some(reporter), ModerationAction::CloseReport, 5)
        };
        let closed = store.close_report(&close).await.unwrap().unwrap();
        assert!(!closed.open);
        assert!(store.reports(true, None, 10).await.unwrap().is_empty());
        assert_eq!(store.moderation_log(None, 10).await.unwrap().len(), 1);
        store.close_report(&close).await.unwrap();
        assert_eq!(store.moderation_log(None, 10).await.unwrap().len(), 1, "closed once");
    }
}
