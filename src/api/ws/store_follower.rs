//! Cluster mode: a table's socket on a process that does not drive the table, served from the
//! store. It reads the log after its `since`, then on each notification of an append
//! (`crate::cluster::fanout`) sends the notified entry if it is the next one it lacks, and reads
//! the store on from its last sent `seq` at anything else (a nudge, an entry after a gap).
//! Its actions and reclaims are forwarded to the driver, and its player's presence is held
//! there through a link (`crate::cluster::presence`).

use super::{
    backlog::{Sent, log_after, send_log},
    protocol::{ActionTarget, answer_in_play},
    transport::{Relayed, Socket, relay_until, send_close},
};
use crate::{
    api::{
        actions::{PlayRequest, play_elsewhere},
        state::AppState,
    },
    chat::feed::ChatFollow,
    cluster,
    revocations::TokenWatch,
};
use axum::http::HeaderValue;
use uuid::Uuid;

/// A task that ends with its owner.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Serves a socket of a table another process drives: its log from the store after `since`,
/// then whatever each nudge (a notification of an append, `crate::cluster::fanout`) says is
/// new, read from the store after the last `seq` sent — in order, without gap or duplicate,
/// as the actor's subscribers get it. Actions and reclaims are forwarded to the table's driver.
/// Seat presence is the driver's sockets' alone.
#[allow(clippy::too_many_arguments)] // what a socket is, each lent by its task
pub(super) async fn follow_store(
    socket: &mut impl Socket,
    state: &AppState,
    id: Uuid,
    player: Option<Uuid>,
    authorization: Option<&HeaderValue>,
    since: i64,
    reclaim: bool,
    token: &mut TokenWatch,
    chat: &mut ChatFollow,
) {
    tracing::debug!(table = %id, ?player, since, reclaim, "websocket open, following the store");
    let feeds = state.tables.feeds().clone();
    // Releases the table's channel however this ends, after the receiver below has gone.
    let _following = feeds.following(id);
    if let (Some(p), true) = (player, reclaim) {
        // As the actor's path does, a refused reclaim (nothing to take back) is not told.
        if let Err(e) = play_elsewhere(state, id, authorization, p, PlayRequest::Reclaim).await {
            tracing::debug!(table = %id, error = %e.detail, "reclaim on connecting refused");
        }
    }
    // A player's socket counts as the seat's presence on the driver, through a link held there
    // for as long as this socket lives.
    let _presence = match (player, authorization) {
        (Some(player), Some(authorization)) => {
            let link = cluster::presence::hold(state.cluster.clone(), id, player, authorization.clone());
            Some(AbortOnDrop(tokio::spawn(link)))
        }
        _ => None,
    };
    let mut last = since;
    loop {
        if state.tables.stopping() {
            send_close(socket, 1012, "server restarting; reconnect with since").await;
            return;
        }
        let mut receiver = feeds.subscribe_table(id);
        // Read after subscribing: whatever is committed after this read nudges `receiver`.
        match send_log(socket, log_after(state, id, last), &mut last, |_| false).await {
            Ok(Sent::All { .. }) => {}
            Ok(Sent::Dropped) => return,
            Err(_) => {
                send_close(socket, 1011, "database unavailable; reconnect with since").await;
                return;
            }
        }
        Box::pin(super::table::catch_up_chat(state, id, chat)).await;
        let target = ActionTarget::Elsewhere { table: id, authorization };
        let answer = |received| answer_in_play(state, target, player, received);
        match relay_until(socket, &mut receiver, &mut last, true, None, token, chat, answer).await {
            Relayed::Ended => return,
            Relayed::Gap | Relayed::SourceClosed => continue,
        }
    }
}
