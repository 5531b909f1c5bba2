//! Friends, requests and blocks (docs/social.md, "Friends (request and accept) and blocks"),
//! and when a player's sockets were last seen open (`players.seen_at`, presence).
//!
//! A pair of players has one `friendships` row (the lower id first), a request or a
//! friendship, so two players asking each other at once meet on its primary key: the second
//! insert finds the first's request and turns it into a friendship. Each change takes the two
//! players' named locks (in id order) first, so the caps hold across processes.

use super::{Player, Store, StoreResult, lock_name, parse_uuid};
use crate::clock::now_millis;
use uuid::Uuid;

/// Most friends and requests (either way) a player may have; as many blocks.
pub const MAX_FRIENDS: i64 = 500;
/// Most players one may block.
pub const MAX_BLOCKS: i64 = 500;

/// What a friend request came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AskFriend {
    /// A block stands between the two: nothing was written.
    Blocked,
    /// One of the two has [`MAX_FRIENDS`] friends and requests already: nothing was written.
    TooMany,
    /// The request stands (`new`: written by this call).
    Requested { new: bool },
    /// The two are friends (`new`: this call made them, the other had asked).
    Friends { new: bool },
}

/// What removing a friend ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unfriended {
    Friendship,
    /// The caller's own request, withdrawn.
    Withdrawn,
    /// The other's request, declined.
    Declined,
}

/// A friend, as the caller's list shows one.
#[derive(Debug, Clone)]
pub struct Friend {
    pub player: Player,
    /// Friends since (Unix ms).
    pub since: i64,
    /// When a socket of theirs was last seen open (Unix ms).
    pub seen_at: Option<i64>,
    /// The public table (open or playing) they hold a seat at, newest first: id, game, status.
    pub table: Option<(Uuid, String, String)>,
}

/// A player's friends and requests.
#[derive(Debug, Clone, Default)]
pub struct FriendLists {
    pub friends: Vec<Friend>,
    /// Requests to the caller: who asked, when.
    pub incoming: Vec<(Player, i64)>,
    /// The caller's requests: to whom, when.
    pub outgoing: Vec<(Player, i64)>,
}

/// What a block ended.
#[derive(Debug, Clone, Default)]
pub struct Blocked {
    /// Whether the blocker was over [`MAX_BLOCKS`]: nothing was written.
    pub too_many: bool,
    /// A friendship or a request between the two, ended.
    pub unfriended: bool,
    /// The pending challenges between the two, cancelled.
    pub cancelled: Vec<Uuid>,
}

/// The pair's key in `friendships`: the lower id first.
fn pair(a: Uuid, b: Uuid) -> (String, String) {
    let (a, b) = (a.to_string(), b.to_string());
    if a < b { (a, b) } else { (b, a) }
}

/// Whether a block stands between `a` and `b`, either way.
pub(super) async fn blocked_between(conn: &mut sqlx::AnyConnection, a: Uuid, b: Uuid) -> StoreResult<bool> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM blocks WHERE (player_id = $1 AND blocked_id = $2) OR (player_id = $2 AND blocked_id = $1)",
    )
    .bind(a.to_string())
    .bind(b.to_string())
    .fetch_one(&mut *conn)
    .await?;
    Ok(n > 0)
}

/// A player's friends and requests, counted.
async fn friend_rows(conn: &mut sqlx::AnyConnection, player: &str) -> StoreResult<i64> {
    Ok(sqlx::query_scalar("SELECT COUNT(*) FROM friendships WHERE low_id = $1 OR high_id = $1")
        .bind(player)
        .fetch_one(&mut *conn)
        .await?)
}

/// Rows of (player id, name, created_at, time) into players and times.
fn players_at(rows: Vec<(String, String, i64, i64)>) -> StoreResult<Vec<(Player, i64)>> {
    rows.into_iter()
        .map(|(id, name, created_at, at)| Ok((Player { id: parse_uuid(&id)?, name, created_at }, at)))
        .collect()
}

impl Store {
    /// Takes the named locks of `a` and `b` (in id order), so that two changes touching one
    /// player run one after the other on every process.
    async fn lock_pair(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        a: Uuid,
        b: Uuid,
    ) -> StoreResult<()> {
        let (low, high) = pair(a, b);
        lock_name(tx, self.backend, &format!("friends\n{low}")).await?;
        lock_name(tx, self.backend, &format!("friends\n{high}")).await
    }

    /// `me` asks `other` to be friends (both exist, and differ): a request, or a friendship if
    /// `other` had asked `me`.
    pub async fn ask_friend(&self, me: Uuid, other: Uuid) -> StoreResult<AskFriend> {
        let now = now_millis();
        let (low, high) = pair(me, other);
        let mut tx = self.writes.begin().await?;
        self.lock_pair(&mut tx, me, other).await?;
        if blocked_between(&mut tx, me, other).await? {
            tx.rollback().await?;
            return Ok(AskFriend::Blocked);
        }
        let row: Option<(String, String)> =
            sqlx::query_as("SELECT requester_id, status FROM friendships WHERE low_id = $1 AND high_id = $2")
                .bind(&low)
                .bind(&high)
                .fetch_optional(&mut *tx)
                .await?;
        let outcome = match row {
            Some((_, status)) if status == "friends" => AskFriend::Friends { new: false },
            Some((requester, _)) if requester == me.to_string() => AskFriend::Requested { new: false },
            Some(_) => {
                sqlx::query(
                    "UPDATE friendships SET status = 'friends', since = $1 WHERE low_id = $2 AND high_id = $3",
                )
                .bind(now)
                .bind(&low)
                .bind(&high)
                .execute(&mut *tx)
                .await?;
                AskFriend::Friends { new: true }
            }
            None => {
                for p in [me, other] {
                    if friend_rows(&mut tx, &p.to_string()).await? >= MAX_FRIENDS {
                        tx.rollback().await?;
                        return Ok(AskFriend::TooMany);
                    }
                }
                sqlx::query(
                    "INSERT INTO friendships (low_id, high_id, requester_id, status, at)
                     VALUES ($1, $2, $3, 'requested', $4)",
                )
                .bind(&low)
                .bind(&high)
                .bind(me.to_string())
                .bind(now)
                .execute(&mut *tx)
                .await?;
                AskFriend::Requested { new: true }
            }
        };
        tx.commit().await?;
        Ok(outcome)
    }

    /// Ends the friendship of `me` and `other`, withdraws `me`'s request or declines
    /// `other`'s; `None` if there was none.
    pub async fn remove_friend(&self, me: Uuid, other: Uuid) -> StoreResult<Option<Unfriended>> {
        let (low, high) = pair(me, other);
        let mut tx = self.writes.begin().await?;
        let row: Option<(String, String)> = sqlx::query_as(
            "DELETE FROM friendships WHERE low_id = $1 AND high_id = $2 RETURNING requester_id, status",
        )
        .bind(&low)
        .bind(&high)
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(row.map(|(requester, status)| match status.as_str() {
            "friends" => Unfriended::Friendship,
            _ if requester == me.to_string() => Unfriended::Withdrawn,
            _ => Unfriended::Declined,
        }))
    }

    /// Whether `a` and `b` are friends.
    pub async fn are_friends(&self, a: Uuid, b: Uuid) -> StoreResult<bool> {
        let (low, high) = pair(a, b);
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM friendships WHERE low_id = $1 AND high_id = $2 AND status = 'friends'",
        )
        .bind(&low)
        .bind(&high)
        .fetch_one(&self.pool)
        .await?;
        Ok(n > 0)
    }

    /// `me`'s friends (oldest friendship first), with where they sit; and the requests either
    /// way, oldest first.
    pub async fn friend_lists(&self, me: Uuid) -> StoreResult<FriendLists> {
        let key = me.to_string();
        let other = "CASE WHEN f.low_id = $1 THEN f.high_id ELSE f.low_id END";
        #[allow(clippy::type_complexity)]
        let rows: Vec<(String, String, i64, String, String, i64, Option<i64>, Option<i64>)> =
            sqlx::query_as(&format!(
                "SELECT p.id, p.name, p.created_at, f.requester_id, f.status, f.at, f.since, p.seen_at
                 FROM friendships f JOIN players p ON p.id = {other}
                 WHERE f.low_id = $1 OR f.high_id = $1
                 ORDER BY COALESCE(f.since, f.at), p.id"
            ))
            .bind(&key)
            .fetch_all(&self.pool)
            .await?;
        let tables: Vec<(String, String, String, String)> = sqlx::query_as(&format!(
            "SELECT s.player_id, t.id, t.game, t.status
             FROM friendships f JOIN seats s ON s.player_id = {other}
             JOIN game_tables t ON t.id = s.table_id
             WHERE (f.low_id = $1 OR f.high_id = $1) AND f.status = 'friends'
             AND t.visibility = 'public' AND t.status IN ('open', 'playing')
             ORDER BY t.created_at DESC"
        ))
        .bind(&key)
        .fetch_all(&self.pool)
        .await?;
        let mut lists = FriendLists::default();
        for (id, name, created_at, requester, status, at, since, seen_at) in rows {
            let player = Player { id: parse_uuid(&id)?, name, created_at };
            if status == "friends" {
                let table = match tables.iter().find(|(p, ..)| *p == id) {
                    Some((_, t, game, status)) => Some((parse_uuid(t)?, game.clone(), status.clone())),
                    None => None,
                };
                lists.friends.push(Friend { player, since: since.unwrap_or(at), seen_at, table });
            } else if requester == key {
                lists.outgoing.push((player, at));
            } else {
                lists.incoming.push((player, at));
            }
        }
        Ok(lists)
    }

    /// `me` blocks `other`: ends a friendship or request between them and cancels the pending
    /// challenges between them, in one transaction.
    pub async fn block(&self, me: Uuid, other: Uuid) -> StoreResult<Blocked> {
        let now = now_millis();
        let (low, high) = pair(me, other);
        let (me_key, other_key) = (me.to_string(), other.to_string());
        let mut tx = self.writes.begin().await?;
        self.lock_pair(&mut tx, me, other).await?;
        let (count, already): (i64, i64) = sqlx::query_as(
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN blocked_id = $2 THEN 1 ELSE 0 END), 0)
             FROM blocks WHERE player_id = $1",
        )
        .bind(&me_key)
        .bind(&other_key)
        .fetch_one(&mut *tx)
        .await?;
        if already == 0 && count >= MAX_BLOCKS {
            tx.rollback().await?;
            return Ok(Blocked { too_many: true, ..Blocked::default() });
        }
        sqlx::query(
            "INSERT INTO blocks (player_id, blocked_id, at) VALUES ($1, $2, $3)
             ON CONFLICT (player_id, blocked_id) DO NOTHING",
        )
        .bind(&me_key)
        .bind(&other_key)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let unfriended = sqlx::query("DELETE FROM friendships WHERE low_id = $1 AND high_id = $2")
            .bind(&low)
            .bind(&high)
            .execute(&mut *tx)
            .await?
            .rows_affected()
            > 0;
        let cancelled: Vec<String> = sqlx::query_scalar(
            "UPDATE challenges SET status = 'cancelled' WHERE status = 'pending' AND (
                (from_id = $1 AND id IN (SELECT challenge_id FROM challenge_invitees WHERE player_id = $2))
                OR (from_id = $2 AND id IN (SELECT challenge_id FROM challenge_invitees WHERE player_id = $1)))
             RETURNING id",
        )
        .bind(&me_key)
        .bind(&other_key)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        let cancelled = cancelled.iter().map(|c| parse_uuid(c)).collect::<StoreResult<_>>()?;
        Ok(Blocked { too_many: false, unfriended, cancelled })
    }

    /// `me` unblocks `other` (nothing if there was no block).
    pub async fn unblock(&self, me: Uuid, other: Uuid) -> StoreResult<()> {
        let mut tx = self.writes.begin().await?;
        sqlx::query("DELETE FROM blocks WHERE player_id = $1 AND blocked_id = $2")
            .bind(me.to_string())
            .bind(other.to_string())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The players `me` blocks, oldest block first, with when.
    pub async fn blocks(&self, me: Uuid) -> StoreResult<Vec<(Player, i64)>> {
        let rows = sqlx::query_as(
            "SELECT p.id, p.name, p.created_at, b.at FROM blocks b JOIN players p ON p.id = b.blocked_id
             WHERE b.player_id = $1 ORDER BY b.at, p.id",
        )
        .bind(me.to_string())
        .fetch_all(&self.pool)
        .await?;
        players_at(rows)
    }

    /// Whether a block stands between `a` and `b`, either way.
    pub async fn is_blocked(&self, a: Uuid, b: Uuid) -> StoreResult<bool> {
        let mut conn = self.pool.acquire().await?;
        blocked_between(&mut conn, a, b).await
    }

    /// Marks `players` seen now (their sockets are open on this process): one statement.
    pub async fn mark_seen(&self, players: &[Uuid]) -> StoreResult<()> {
        if players.is_empty() {
            return Ok(());
        }
        let now = now_millis();
        for chunk in players.chunks(1000) {
            let mut sql = super::Numbered::new(self.backend, "UPDATE players SET seen_at = ? WHERE id IN (");
            for i in 0..chunk.len() {
                sql.push(if i == 0 { "?" } else { ", ?" });
            }
            sql.push(")");
            let mut query = sqlx::query(sql.as_str()).bind(now);
            for p in chunk {
                query = query.bind(p.to_string());
            }
            let mut tx = self.writes.begin().await?;
            query.execute(&mut *tx).await?;
            tx.commit().await?;
        }
        Ok(())
    }
}
