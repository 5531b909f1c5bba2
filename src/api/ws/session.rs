//! What every WebSocket does as it opens: who it is (a header's token, `?token=`, or a
//! spectator), what ends it (its token's revocation or expiry), the caps it counts against,
//! the limits it is upgraded with, and its count while it lives.

use super::transport::SEND_TIMEOUT;
use crate::{
    api::{
        error::{ApiError, ApiResult, ErrorCode},
        extract::{Session, authenticate},
        state::AppState,
    },
    revocations::TokenWatch,
};
use axum::extract::WebSocketUpgrade;

/// Largest WebSocket message a client may send.
const MAX_WS_MESSAGE: usize = 16 * 1024;
/// Read buffer of each socket. tungstenite's default (128 KiB) is allocated per connection and
/// zero-filled up to its capacity before every read: that costs 128 KiB of RSS per socket and a
/// 128 KiB memset each time the relay loop polls the socket (once per message sent). Client
/// messages are small (an action is about 100 bytes); a larger one still grows the buffer, up
/// to `MAX_WS_MESSAGE`. Every open socket holds one, idle or not: 256 bytes rather than 4 KiB
/// saves 15 KiB per idle 4-seat table (an action of a few hundred bytes takes two reads).
const WS_READ_BUFFER: usize = 256;

/// Who opens a WebSocket: the bearer token of the `Authorization` header, else the `token`
/// query parameter (browsers cannot set headers on a WebSocket), else nobody (a spectator).
pub(super) async fn socket_session(
    state: &AppState,
    header_auth: Option<Session>,
    token: Option<&str>,
) -> ApiResult<Option<Session>> {
    Ok(match (header_auth, token) {
        (Some(session), _) => Some(session),
        (None, Some(token)) => Some(authenticate(state, token).await?),
        (None, None) => None,
    })
}

/// What ends a socket opened by `session`: its token's revocation or expiry (nothing for a
/// spectator's).
pub(super) fn token_watch(state: &AppState, session: Option<&Session>) -> TokenWatch {
    match session {
        Some(s) => state.revocations.watch(s.token_id, s.expires_at),
        None => TokenWatch::none(),
    }
}

/// The answer to a socket over its cap (a player's sockets, a table's spectators, the lobby's
/// anonymous sockets per address). A slot frees when a socket closes; a stalled one is dropped
/// within the send timeout, so the client is told to retry after that.
pub(super) fn too_many_sockets() -> ApiError {
    ApiError::too_many(
        ErrorCode::TooManyConnections,
        "too many open connections; close one first",
        SEND_TIMEOUT,
    )
}

/// The limits every WebSocket of the server is upgraded with.
pub(super) fn upgrade(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.read_buffer_size(WS_READ_BUFFER).max_message_size(MAX_WS_MESSAGE).max_frame_size(MAX_WS_MESSAGE)
}

/// An open WebSocket as the metrics count it (`luddo_websockets_open`, `…_opened_total`,
/// `…_closed_total`), and as shutdown waits for it to close: counted while the guard lives.
pub(super) struct OpenSocket {
    /// Shutdown waits for this to drop.
    _open: crate::table::OpenSocket,
}

impl OpenSocket {
    pub(super) fn count(state: &AppState) -> Self {
        metrics::counter!("luddo_websockets_opened_total").increment(1);
        metrics::gauge!("luddo_websockets_open").increment(1.0);
        Self { _open: state.tables.socket_opened() }
    }
}

impl Drop for OpenSocket {
    fn drop(&mut self) {
        metrics::gauge!("luddo_websockets_open").decrement(1.0);
        metrics::counter!("luddo_websockets_closed_total").increment(1);
    }
}
