//! The sessions this process authenticated lately, kept in memory so that a token used again is
//! answered without the store.
//!
//! An entry maps a token's SHA-256 to its [`Session`] for at most [`MAX_AGE`], never past the
//! token's expiry (checked on every hit), nor past the moment its `last_used_at` is due to be
//! written again (an hour after its last write, `crate::store::Token::last_used_due`): the
//! lookup that reads the store then writes it, so the tokens' list shows it to within an hour
//! as before. A revocation drops the token's entry
//! ([`crate::revocations::Revocations::revoke`], here and, through the cluster's fan-out, on
//! every process); a lookup that read the store before a revocation does not cache what it read
//! after it (the [`Generation`] it holds has moved on). What a session carries does not change
//! while its token lives: a player's id, name and creation time are never written again, nor is
//! a token's expiry. In cluster mode the cache is used only while the fan-out listens: while its
//! connection is down, revocations of other processes may be missed, so every lookup reads the
//! store, and the cache starts empty when it is back ([`Sessions::suspend`],
//! [`Sessions::resume`]).

use crate::store::Player;
use std::{
    collections::HashMap,
    sync::{Mutex, MutexGuard},
    time::Duration,
};
use tokio::time::Instant;
use uuid::Uuid;

/// How long an entry answers before the store is read again.
pub const MAX_AGE: Duration = Duration::from_secs(600);

/// Entries at most; a full cache is emptied (each entry is one token's; the next use of each
/// reads the store again).
pub const MAX_ENTRIES: usize = 65_536;

/// The authenticated player and the token it authenticated with (to list it as `current`, or
/// to revoke it at logout).
#[derive(Debug, Clone)]
pub struct Session {
    pub player: Player,
    pub token_id: Uuid,
    /// When the token expires (Unix ms), if it does.
    pub expires_at: Option<i64>,
    /// Until when a moderator banned the player (Unix ms), if they did (docs/social.md): its
    /// requests are refused until then.
    pub banned_until: Option<i64>,
}

/// The sessions this process authenticated lately, by their token's SHA-256 (hex).
#[derive(Default)]
pub struct Sessions(Mutex<Cache>);

#[derive(Default)]
struct Cache {
    entries: HashMap<String, Cached>,
    /// Moves on at every revocation, suspension and resumption: a lookup caches what it read
    /// only if it did not move while the lookup read the store.
    generation: u64,
    /// Revocations may be missed (cluster mode, the fan-out not listening): the cache is not
    /// used.
    suspended: bool,
}

struct Cached {
    session: Session,
    at: Instant,
    /// Unix ms: the token's expiry or when its `last_used_at` is due, the earlier.
    until: i64,
}

/// The cache's generation when a lookup began to read the store ([`Sessions::before_read`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Generation(u64);

impl Sessions {
    /// The session of the token whose SHA-256 is `hash`, if cached within [`MAX_AGE`] and
    /// neither expired nor due for its `last_used_at` at `now` (Unix ms).
    pub fn get(&self, hash: &str, now: i64) -> Option<Session> {
        let mut cache = self.lock();
        if cache.suspended {
            return None;
        }
        let cached = cache.entries.get(hash)?;
        let live = cached.at.elapsed() < MAX_AGE && now < cached.until;
        if live {
            return Some(cached.session.clone());
        }
        cache.entries.remove(hash);
        None
    }

    /// To call before reading the store for a token: what [`Sessions::insert`] checks.
    pub fn before_read(&self) -> Generation {
        Generation(self.lock().generation)
    }

    /// Caches `session` under `hash`, read from the store after `read` was taken, unless a
    /// revocation (or a suspension) came since; it answers until the token's `last_used_at` is
    /// due (`last_used_due`, Unix ms) at the latest.
    pub fn insert(&self, hash: String, session: Session, read: Generation, last_used_due: i64) {
        let mut cache = self.lock();
        if cache.suspended || cache.generation != read.0 {
            return;
        }
        if cache.entries.len() >= MAX_ENTRIES {
            cache.entries.clear();
        }
        let until = session.expires_at.map_or(last_used_due, |at| at.min(last_used_due));
        cache.entries.insert(hash, Cached { session, at: Instant::now(), until });
    }

    /// Forgets token `token`: it was revoked.
    pub fn revoke(&self, token: Uuid) {
        let mut cache = self.lock();
        cache.generation += 1;
        cache.entries.retain(|_, cached| cached.session.token_id != token);
    }

    /// Stops answering from memory: revocations may be missed from now on.
    pub fn suspend(&self) {
        let mut cache = self.lock();
        cache.suspended = true;
        cache.generation += 1;
        cache.entries.clear();
    }

    /// Answers from memory again, starting empty: revocations are heard again, and those made
    /// meanwhile are in the store.
    pub fn resume(&self) {
        let mut cache = self.lock();
        cache.suspended = false;
        cache.generation += 1;
        cache.entries.clear();
    }

    fn lock(&self) -> MutexGuard<'_, Cache> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(expires_at: Option<i64>) -> Session {
        let player = Player { id: Uuid::new_v4(), name: "Ann".into(), created_at: 0 };
        Session { player, token_id: Uuid::new_v4(), expires_at, banned_until: None }
    }

    #[test]
    fn a_cached_session_answers_until_its_token_is_revoked() {
        let sessions = Sessions::default();
        let (ann, bob) = (session(None), session(None));
        sessions.insert("ann".into(), ann.clone(), sessions.before_read(), i64::MAX);
        sessions.insert("bob".into(), bob.clone(), sessions.before_read(), i64::MAX);
        assert_eq!(sessions.get("ann", 0).map(|s| s.token_id), Some(ann.token_id));
        sessions.revoke(ann.token_id);
        assert!(sessions.get("ann", 0).is_none());
        assert_eq!(sessions.get("bob", 0).map(|s| s.token_id), Some(bob.token_id), "another token's stays");
    }

    #[test]
    fn a_revocation_between_the_read_and_the_insert_leaves_no_entry() {
        let sessions = Sessions::default();
        let ann = session(None);
        let read = sessions.before_read();
        // The store answered with the token, then the token was revoked.
        sessions.revoke(ann.token_id);
        sessions.insert("ann".into(), ann, read, i64::MAX);
        assert!(sessions.get("ann", 0).is_none());
    }

    #[test]
    fn an_expired_token_is_not_answered_from_memory() {
        let sessions = Sessions::default();
        sessions.insert("ann".into(), session(Some(1_000)), sessions.before_read(), i64::MAX);
        assert!(sessions.get("ann", 999).is_some());
        assert!(sessions.get("ann", 1_000).is_none());
    }

    #[test]
    fn an_entry_answers_until_its_last_use_is_due_to_be_written() {
        let sessions = Sessions::default();
        sessions.insert("ann".into(), session(None), sessions.before_read(), 5_000);
        assert!(sessions.get("ann", 4_999).is_some());
        assert!(sessions.get("ann", 5_000).is_none(), "the store is read, and writes it");
    }

    #[tokio::test(start_paused = true)]
    async fn an_entry_answers_for_its_max_age_at_most() {
        let sessions = Sessions::default();
        sessions.insert("ann".into(), session(None), sessions.before_read(), i64::MAX);
        tokio::time::advance(MAX_AGE - Duration::from_millis(1)).await;
        assert!(sessions.get("ann", 0).is_some());
        tokio::time::advance(Duration::from_millis(1)).await;
        assert!(sessions.get("ann", 0).is_none());
    }

    #[test]
    fn a_suspended_cache_answers_nothing_and_resumes_empty() {
        let sessions = Sessions::default();
        sessions.insert("ann".into(), session(None), sessions.before_read(), i64::MAX);
        let read = sessions.before_read();
        sessions.suspend();
        assert!(sessions.get("ann", 0).is_none());
        sessions.insert("bob".into(), session(None), sessions.before_read(), i64::MAX);
        sessions.resume();
        sessions.insert("cid".into(), session(None), read, i64::MAX);
        assert!(["ann", "bob", "cid"].iter().all(|hash| sessions.get(hash, 0).is_none()));
        sessions.insert("dan".into(), session(None), sessions.before_read(), i64::MAX);
        assert!(sessions.get("dan", 0).is_some());
    }

    #[test]
    fn a_full_cache_is_emptied_before_the_next_entry() {
        let sessions = Sessions::default();
        for i in 0..MAX_ENTRIES {
            sessions.insert(i.to_string(), session(None), sessions.before_read(), i64::MAX);
        }
        assert!(sessions.get("0", 0).is_some());
        sessions.insert("one more".into(), session(None), sessions.before_read(), i64::MAX);
        assert!(sessions.get("0", 0).is_none());
        assert!(sessions.get("one more", 0).is_some());
        assert_eq!(sessions.lock().entries.len(), 1);
    }
}
