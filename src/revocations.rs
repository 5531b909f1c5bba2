//! A WebSocket lives no longer than the token it authenticated with: revoked (one of the
//! player's tokens deleted, a logout) or expired, its sockets close with
//! [`CLOSE_TOKEN_ENDED`], on every process.
//!
//! Each process keeps which tokens its sockets authenticated with ([`Revocations`]: one entry
//! per token that has a socket open here, gone with its last socket, so as many as the
//! sockets at most), each with a signal its sockets wait on. A revocation signals the entry
//! here and, in cluster mode, is notified on [`crate::store::TOKENS_CHANNEL`] in the
//! revocation's transaction, which every process's fan-out hears
//! (`crate::cluster::fanout`). An expiry needs no signal: each socket of an expiring token
//! waits for it with a timer in its own loop ([`TokenWatch::ended`]).
//!
//! The same revocation drops the token's session from the cache of authenticated sessions
//! ([`Sessions`]), which [`Revocations`] holds so that nothing revokes a token without it.

use crate::{clock::now_millis, sessions::Sessions};
use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Duration,
};
use tokio::sync::watch;
use uuid::Uuid;

/// The close code of a socket whose token was revoked or expired: authenticate again (a new
/// token) and reconnect with `since`.
pub const CLOSE_TOKEN_ENDED: u16 = 4401;

/// The close code of a socket whose player a moderator banned: nothing to do until the ban
/// ends (docs/social.md).
pub const CLOSE_BANNED: u16 = 4403;

/// The tokens this process's sockets authenticated with, each with the signal of its
/// revocation, and the sessions it authenticated lately.
#[derive(Default)]
pub struct Revocations {
    sockets: Mutex<HashMap<Uuid, watch::Sender<Option<Ended>>>>,
    sessions: Sessions,
}

impl Revocations {
    /// Forgets the session of `token` and closes its sockets on this process (a token they do
    /// not hold: none).
    pub fn revoke(&self, token: Uuid) {
        self.end(token, Some(Ended::Revoked));
    }

    /// A moderator banned the holder of `token`: forgets its session and closes its sockets
    /// here with [`CLOSE_BANNED`].
    pub fn ban(&self, token: Uuid) {
        self.end(token, Some(Ended::Banned));
    }

    /// Forgets the session of `token` (its player's standing changed: a ban lifted), leaving
    /// its sockets open.
    pub fn forget_session(&self, token: Uuid) {
        self.end(token, None);
    }

    fn end(&self, token: Uuid, ended: Option<Ended>) {
        self.sessions.revoke(token);
        if let Some(ended) = ended
            && let Some(signal) = self.lock().get(&token)
        {
            signal.send_replace(Some(ended));
        }
    }

    /// The sessions this process authenticated lately, which every revocation here updates.
    pub fn sessions(&self) -> &Sessions {
        &self.sessions
    }

    /// The tokens sockets here authenticated with.
    pub fn held(&self) -> Vec<Uuid> {
        self.lock().keys().copied().collect()
    }

    /// A socket's watch on `token`, which expires at `expires_at` (Unix ms) if ever.
    pub fn watch(self: &Arc<Self>, token: Uuid, expires_at: Option<i64>) -> TokenWatch {
        let revoked = self.lock().entry(token).or_insert_with(|| watch::channel(None).0).subscribe();
        let expiry = expires_at.map(|at| {
            let left = Duration::from_millis(at.saturating_sub(now_millis()).max(0) as u64);
            Box::pin(tokio::time::sleep(left))
        });
        TokenWatch(Some(Box::new(Held { registry: self.clone(), token, revoked, expiry })))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, watch::Sender<Option<Ended>>>> {
        self.sockets.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A socket's hold on the token it authenticated with ([`TokenWatch::none`] for an anonymous
/// one): boxed, so a socket's task carries one pointer for it.
pub struct TokenWatch(Option<Box<Held>>);

struct Held {
    registry: Arc<Revocations>,
    token: Uuid,
    revoked: watch::Receiver<Option<Ended>>,
    /// The token's expiry, if it has one.
    expiry: Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
}

/// Why a socket's token no longer lets it stay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    Revoked,
    Expired,
    /// A moderator banned the player.
    Banned,
}

impl Ended {
    /// The reason of the close frame.
    pub fn reason(self) -> &'static str {
        match self {
            Ended::Revoked => "token revoked; sign in again",
            Ended::Expired => "token expired; sign in again",
            Ended::Banned => "banned",
        }
    }

    /// The code of the close frame.
    pub fn code(self) -> u16 {
        match self {
            Ended::Banned => CLOSE_BANNED,
            Ended::Revoked | Ended::Expired => CLOSE_TOKEN_ENDED,
        }
    }
}

impl TokenWatch {
    /// The watch of a socket that holds no token: never ends.
    pub fn none() -> Self {
        Self(None)
    }

    /// When the token is revoked or expires (at once if it already has); never without one.
    pub async fn ended(&mut self) -> Ended {
        let Some(held) = &mut self.0 else { return std::future::pending().await };
        let expired = async {
            match &mut held.expiry {
                Some(sleep) => sleep.as_mut().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            ended = held.revoked.wait_for(Option::is_some) => match ended {
                Ok(ended) => (*ended).unwrap_or(Ended::Revoked),
                // The registry outlives its sockets' watches: never here.
                Err(_) => Ended::Revoked,
            },
            () = expired => Ended::Expired,
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut tokens = self.registry.lock();
        // This socket's receiver is still counted here: it was the last one if it is alone.
        if tokens.get(&self.token).is_some_and(|signal| signal.receiver_count() <= 1) {
            tokens.remove(&self.token);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_revocation_ends_every_watch_of_the_token_and_no_other() {
        let registry = Arc::new(Revocations::default());
        let (token, other) = (Uuid::new_v4(), Uuid::new_v4());
        let (mut first, mut second, mut third) =
            (registry.watch(token, None), registry.watch(token, None), registry.watch(other, None));
        registry.revoke(token);
        assert_eq!(first.ended().await, Ended::Revoked);
        assert_eq!(second.ended().await, Ended::Revoked);
        let still = tokio::time::timeout(Duration::from_millis(20), third.ended()).await;
        assert!(still.is_err(), "another token's socket stays");
    }

    #[tokio::test(start_paused = true)]
    async fn an_expiring_token_ends_its_watch_at_its_expiry() {
        let registry = Arc::new(Revocations::default());
        let mut watch = registry.watch(Uuid::new_v4(), Some(now_millis() + 5_000));
        let early = tokio::time::timeout(Duration::from_millis(4_900), watch.ended()).await;
        assert!(early.is_err(), "not before its expiry");
        assert_eq!(watch.ended().await, Ended::Expired);
    }

    #[test]
    fn the_registry_holds_a_token_while_a_socket_holds_it() {
        let registry = Arc::new(Revocations::default());
        let token = Uuid::new_v4();
        let first = registry.watch(token, None);
        let second = registry.watch(token, None);
        drop(first);
        assert_eq!(registry.held(), vec![token]);
        drop(second);
        assert!(registry.held().is_empty(), "gone with its last socket");
        drop(TokenWatch::none());
    }
}
