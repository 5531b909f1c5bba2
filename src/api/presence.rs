//! Presence (docs/social.md, "Online"): each process writes `players.seen_at` for the players
//! whose WebSockets it holds, as one opens and every [`HEARTBEAT`] for them all (one
//! statement), so any process tells whether a player is online: a socket of theirs open here
//! now, or `seen_at` within [`ONLINE_WITHIN`] (a heartbeat of the process holding it).

use super::state::AppState;
use crate::clock::now_millis;
use std::time::Duration;
use uuid::Uuid;

/// How often a process marks its sockets' players seen.
pub const HEARTBEAT: Duration = Duration::from_secs(30);
/// How long a mark says a player is online: two heartbeats, so one late write is no gap.
pub const ONLINE_WITHIN: Duration = Duration::from_secs(60);

/// A socket of `player` opened here: marks them seen now (a failure is logged: presence is a
/// hint, not a reason to refuse the socket).
pub async fn opened(state: &AppState, player: Uuid) {
    if let Err(e) = state.store.mark_seen(&[player]).await {
        tracing::debug!(error = %e, "could not mark a player seen");
    }
}

/// Whether `player`, last seen at `seen_at`, is online as of now.
pub fn online(state: &AppState, player: Uuid, seen_at: Option<i64>) -> bool {
    state.sockets.holds_player(player)
        || seen_at.is_some_and(|at| now_millis() - at <= ONLINE_WITHIN.as_millis() as i64)
}

/// Marks the players whose sockets this process holds seen, every [`HEARTBEAT`], until `stop`.
pub async fn heartbeat(state: AppState, stop: impl std::future::Future<Output = ()>) {
    tokio::pin!(stop);
    let mut every = tokio::time::interval_at(tokio::time::Instant::now() + HEARTBEAT, HEARTBEAT);
    loop {
        tokio::select! {
            _ = every.tick() => {}
            _ = &mut stop => return,
        }
        if let Err(e) = state.store.mark_seen(&state.sockets.players()).await {
            tracing::warn!(error = %e, "could not mark the players of this process's sockets seen");
        }
    }
}
