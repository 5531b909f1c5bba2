//! Challenges (docs/social.md, "Challenges"): one player invites one to five others to a table
//! with settings of their choosing; each invitee answers.
//!
//! The first acceptance claims the table: it writes the id the table will have onto the
//! challenge's row with a conditional `UPDATE … WHERE table_id IS NULL` in the same transaction
//! as its answer, so of two acceptances at once one opens the table and the other joins it. The
//! table itself is opened afterwards by the lobby (`crate::social`), which undoes the claim
//! ([`Store::undo_acceptance`]) if it cannot. Until the acceptor is seated their answer is
//! `accepting` (shown as `pending`), which no settling counts: a challenge is never settled
//! `accepted` on an acceptance that is then undone. Expiry is one conditional `UPDATE` too: of the
//! processes sweeping, each challenge is expired by one.

use super::{Player, Store, StoreResult, friends::blocked_between, lock_name, parse_uuid};
use crate::clock::now_millis;
use uuid::Uuid;

/// Most pending challenges a challenger may have.
pub const MAX_PENDING_CHALLENGES: i64 = 10;
/// Most invitees of one challenge.
pub const MAX_INVITEES: usize = 5;
/// Most incoming challenges listed (newest first).
pub const MAX_LISTED_INCOMING: i64 = 100;

/// A challenge as stored.
#[derive(Debug, Clone)]
pub struct ChallengeRecord {
    pub id: Uuid,
    pub from: Player,
    /// Each invitee, with their answer (`pending`, `accepting`: being seated, `accepted`,
    /// `declined`), by name.
    pub to: Vec<(Player, String)>,
    /// The table's settings as the challenger sent them.
    pub settings: serde_json::Value,
    pub table_id: Option<Uuid>,
    /// `pending`, `accepted`, `declined`, `cancelled` or `expired`.
    pub status: String,
    pub created_at: i64,
    pub expires_at: i64,
}

impl ChallengeRecord {
    /// Every player the challenge names: the challenger, then the invitees.
    pub fn players(&self) -> Vec<Uuid> {
        std::iter::once(self.from.id).chain(self.to.iter().map(|(p, _)| p.id)).collect()
    }

    /// Whether `player` is one of the invitees.
    pub fn invites(&self, player: Uuid) -> bool {
        self.to.iter().any(|(p, _)| p.id == player)
    }
}

/// What a new challenge came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewChallenge {
    Created(Uuid),
    /// A block stands between the challenger and this invitee: nothing was written.
    Blocked(Uuid),
    /// The challenger has [`MAX_PENDING_CHALLENGES`] pending: nothing was written.
    TooMany,
}

/// What an acceptance claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Acceptance {
    /// The challenge is not pending (answered, withdrawn, expired), or the player answered.
    NotPending,
    /// The first acceptance: open table `table_id` (the id is claimed, the table not yet made).
    Open(Uuid),
    /// A later one: join table `table_id` (opened, or being opened, by the first).
    Join(Uuid),
}

const CHALLENGE_COLUMNS: &str = "c.id, c.from_id, p.name, p.created_at, c.settings, c.table_id, c.status, c.created_at AS at, c.expires_at";

type ChallengeRow = (String, String, String, i64, String, Option<String>, String, i64, i64);

impl Store {
    /// Writes a challenge from `from` to `to` (existing players, not `from`, no repeats),
    /// pending until `expires_at`, unless a block stands between `from` and one of them or
    /// `from` has as many pending challenges as allowed.
    pub async fn create_challenge(
        &self,
        from: Uuid,
        to: &[Uuid],
        settings: &serde_json::Value,
        expires_at: i64,
    ) -> StoreResult<NewChallenge> {
        let now = now_millis();
        let id = Uuid::new_v4();
        let mut tx = self.writes.begin().await?;
        lock_name(&mut tx, self.backend, &format!("challenges\n{from}")).await?;
        for &other in to {
            if blocked_between(&mut tx, from, other).await? {
                tx.rollback().await?;
                return Ok(NewChallenge::Blocked(other));
            }
        }
        let pending: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM challenges WHERE from_id = $1 AND status = 'pending' AND expires_at > $2",
        )
        .bind(from.to_string())
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        if pending >= MAX_PENDING_CHALLENGES {
            tx.rollback().await?;
            return Ok(NewChallenge::TooMany);
        }
        sqlx::query(
            "INSERT INTO challenges (id, from_id, settings, status, created_at, expires_at)
             VALUES ($1, $2, $3, 'pending', $4, $5)",
        )
        .bind(id.to_string())
        .bind(from.to_string())
        .bind(settings.to_string())
        .bind(now)
        .bind(expires_at)
        .execute(&mut *tx)
        .await?;
        for other in to {
            sqlx::query(
                "INSERT INTO challenge_invitees (challenge_id, player_id, answer) VALUES ($1, $2, 'pending')",
            )
            .bind(id.to_string())
            .bind(other.to_string())
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(NewChallenge::Created(id))
    }

    /// Challenge `id`, if there is one.
    pub async fn challenge(&self, id: Uuid) -> StoreResult<Option<ChallengeRecord>> {
        let row: Option<ChallengeRow> = sqlx::query_as(&format!(
            "SELECT {CHALLENGE_COLUMNS} FROM challenges c JOIN players p ON p.id = c.from_id WHERE c.id = $1"
        ))
        .bind(id.to_string())
        .fetch_optional(&self.pool)
        .await?;
        match row {
            Some(row) => Ok(Some(self.challenge_of(row).await?)),
            None => Ok(None),
        }
    }

    /// The pending challenges to `player` (at most [`MAX_LISTED_INCOMING`]) and from them,
    /// newest first.
    pub async fn pending_challenges(
        &self,
        player: Uuid,
    ) -> StoreResult<(Vec<ChallengeRecord>, Vec<ChallengeRecord>)> {
        let key = player.to_string();
        let now = now_millis();
        let incoming: Vec<ChallengeRow> = sqlx::query_as(&format!(
            "SELECT {CHALLENGE_COLUMNS} FROM challenges c JOIN players p ON p.id = c.from_id
             JOIN challenge_invitees i ON i.challenge_id = c.id AND i.player_id = $1
             WHERE c.status = 'pending' AND c.expires_at > $2
             ORDER BY c.created_at DESC, c.id LIMIT $3"
        ))
        .bind(&key)
        .bind(now)
        .bind(MAX_LISTED_INCOMING)
        .fetch_all(&self.pool)
        .await?;
        let outgoing: Vec<ChallengeRow> = sqlx::query_as(&format!(
            "SELECT {CHALLENGE_COLUMNS} FROM challenges c JOIN players p ON p.id = c.from_id
             WHERE c.from_id = $1 AND c.status = 'pending' AND c.expires_at > $2
             ORDER BY c.created_at DESC, c.id"
        ))
        .bind(&key)
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        let mut lists = (vec![], vec![]);
        for row in incoming {
            lists.0.push(self.challenge_of(row).await?);
        }
        for row in outgoing {
            lists.1.push(self.challenge_of(row).await?);
        }
        Ok(lists)
    }

    /// A challenge's row with its invitees.
    async fn challenge_of(&self, row: ChallengeRow) -> StoreResult<ChallengeRecord> {
        let (id, from_id, name, player_created_at, settings, table_id, status, created_at, expires_at) = row;
        let to: Vec<(String, String, i64, String)> = sqlx::query_as(
            "SELECT p.id, p.name, p.created_at, i.answer FROM challenge_invitees i
             JOIN players p ON p.id = i.player_id WHERE i.challenge_id = $1 ORDER BY p.name, p.id",
        )
        .bind(&id)
        .fetch_all(&self.pool)
        .await?;
        Ok(ChallengeRecord {
            id: parse_uuid(&id)?,
            from: Player { id: parse_uuid(&from_id)?, name, created_at: player_created_at },
            to: to
                .into_iter()
                .map(|(id, name, created_at, answer)| {
                    Ok((Player { id: parse_uuid(&id)?, name, created_at }, answer))
                })
                .collect::<StoreResult<_>>()?,
            settings: serde_json::from_str(&settings)
                .map_err(|e| super::StoreError::Corrupt(format!("challenges.settings: {e}")))?,
            table_id: table_id.as_deref().map(parse_uuid).transpose()?,
            status,
            created_at,
            expires_at,
        })
    }

    /// `player` accepts challenge `id`: their answer, and the table's id if they are the first
    /// (`table_id`, the id the table will have), in one transaction.
    pub async fn accept_challenge(&self, id: Uuid, player: Uuid, table_id: Uuid) -> StoreResult<Acceptance> {
        let now = now_millis();
        let key = id.to_string();
        let mut tx = self.writes.begin().await?;
        // The challenge's row lock: answers to one challenge are decided one at a time.
        let locked = sqlx::query(
            "UPDATE challenges SET status = status WHERE id = $1 AND status = 'pending' AND expires_at > $2",
        )
        .bind(&key)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let answered = if locked.rows_affected() == 1 {
            sqlx::query(
                "UPDATE challenge_invitees SET answer = 'accepting'
                 WHERE challenge_id = $1 AND player_id = $2 AND answer = 'pending'",
            )
            .bind(&key)
            .bind(player.to_string())
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1
        } else {
            false
        };
        if !answered {
            tx.rollback().await?;
            return Ok(Acceptance::NotPending);
        }
        let claimed = sqlx::query("UPDATE challenges SET table_id = $1 WHERE id = $2 AND table_id IS NULL")
            .bind(table_id.to_string())
            .bind(&key)
            .execute(&mut *tx)
            .await?
            .rows_affected()
            == 1;
        let outcome = if claimed {
            Acceptance::Open(table_id)
        } else {
            let existing: String = sqlx::query_scalar("SELECT table_id FROM challenges WHERE id = $1")
                .bind(&key)
                .fetch_one(&mut *tx)
                .await?;
            Acceptance::Join(parse_uuid(&existing)?)
        };
        tx.commit().await?;
        Ok(outcome)
    }

    /// An acceptance whose table could not be opened or joined: the answer is pending again
    /// (and, `opened`, the table's claim is let go).
    pub async fn undo_acceptance(&self, id: Uuid, player: Uuid, opened: bool) -> StoreResult<()> {
        let mut tx = self.writes.begin().await?;
        sqlx::query(
            "UPDATE challenge_invitees SET answer = 'pending'
             WHERE challenge_id = $1 AND player_id = $2 AND answer = 'accepting'",
        )
        .bind(id.to_string())
        .bind(player.to_string())
        .execute(&mut *tx)
        .await?;
        if opened {
            sqlx::query("UPDATE challenges SET table_id = NULL WHERE id = $1")
                .bind(id.to_string())
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// `player`, seated at the challenge's table, has accepted challenge `id`.
    pub async fn confirm_acceptance(&self, id: Uuid, player: Uuid) -> StoreResult<()> {
        let mut tx = self.writes.begin().await?;
        sqlx::query(
            "UPDATE challenge_invitees SET answer = 'accepted'
             WHERE challenge_id = $1 AND player_id = $2 AND answer = 'accepting'",
        )
        .bind(id.to_string())
        .bind(player.to_string())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// `player` declines challenge `id`; false if it is not pending or they answered.
    pub async fn decline_challenge(&self, id: Uuid, player: Uuid) -> StoreResult<bool> {
        let mut tx = self.writes.begin().await?;
        let done = sqlx::query(
            "UPDATE challenge_invitees SET answer = 'declined'
             WHERE challenge_id = $1 AND player_id = $2 AND answer = 'pending'
             AND EXISTS (SELECT 1 FROM challenges c WHERE c.id = $1 AND c.status = 'pending' AND c.expires_at > $3)",
        )
        .bind(id.to_string())
        .bind(player.to_string())
        .bind(now_millis())
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        tx.commit().await?;
        Ok(done)
    }

    /// Settles challenge `id` once every invitee answered: `accepted` if one accepted, else
    /// `declined`. The new status, if this call set it.
    pub async fn settle_challenge(&self, id: Uuid) -> StoreResult<Option<String>> {
        let mut tx = self.writes.begin().await?;
        let status: Option<String> = sqlx::query_scalar(
            "UPDATE challenges SET status = CASE WHEN EXISTS
                (SELECT 1 FROM challenge_invitees i WHERE i.challenge_id = $1 AND i.answer = 'accepted')
                THEN 'accepted' ELSE 'declined' END
             WHERE id = $1 AND status = 'pending'
             AND NOT EXISTS (SELECT 1 FROM challenge_invitees i
                WHERE i.challenge_id = $1 AND i.answer IN ('pending', 'accepting'))
             RETURNING status",
        )
        .bind(id.to_string())
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(status)
    }

    /// The challenger `from` withdraws pending challenge `id`; false if it was not theirs or
    /// not pending.
    pub async fn withdraw_challenge(&self, id: Uuid, from: Uuid) -> StoreResult<bool> {
        let mut tx = self.writes.begin().await?;
        let done = sqlx::query(
            "UPDATE challenges SET status = 'cancelled' WHERE id = $1 AND from_id = $2 AND status = 'pending'",
        )
        .bind(id.to_string())
        .bind(from.to_string())
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        tx.commit().await?;
        Ok(done)
    }

    /// Marks pending challenges whose time is up (`expires_at <= now`) expired, at most
    /// `limit`: the ones this call expired.
    pub async fn expire_challenges(&self, now: i64, limit: i64) -> StoreResult<Vec<Uuid>> {
        let mut tx = self.writes.begin().await?;
        let ids: Vec<String> = sqlx::query_scalar(
            "UPDATE challenges SET status = 'expired' WHERE status = 'pending' AND id IN
             (SELECT id FROM challenges WHERE status = 'pending' AND expires_at <= $1 ORDER BY expires_at LIMIT $2)
             RETURNING id",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        ids.iter().map(|id| parse_uuid(id)).collect()
    }
}
