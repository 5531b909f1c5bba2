//! The WebSockets: a table's events (`GET /v1/tables/{id}/events`, before the start and in
//! play) and the lobby stream (`GET /v1/lobby/events`), on one transport and one protocol.
//!
//! - `session`: what every socket does as it opens (who it is, its caps and limits, its count);
//! - `transport`: moving messages (bounded writes, pings, closing, relaying a broadcast);
//! - `protocol`: the client's messages, parsed once, and each socket's answers to them;
//! - `backlog`: sending the committed log from a `seq`, the one way every socket catches up;
//! - `table`: a table's socket in play, served by this process's actor;
//! - `open_table`: a table's socket before the start, until it hands over to `table`;
//! - `store_follower`: cluster mode, a table's socket where another process drives it;
//! - `lobby`: the lobby stream.

mod backlog;
mod lobby;
mod open_table;
mod protocol;
mod session;
mod store_follower;
mod table;
mod transport;

pub(super) use transport::SEND_TIMEOUT;

use super::state::AppState;
use axum::Router;

pub fn router() -> Router<AppState> {
    Router::new().merge(table::router()).merge(lobby::router())
}
