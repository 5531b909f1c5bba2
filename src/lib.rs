//! Luddo: a game server for online Ludo-family dice games.
//!
//! - [`rules`]: pure game engines (no I/O): Luddo and classic Ludo, Uckers, Snakes and Ladders,
//!   Backgammon, and the provably fair dice they draw from.
//! - [`bots`]: a policy per game that chooses among the legal actions.
//! - [`games`]: the games a table can hold, their seat limits and options.
//! - [`store`]: players, tables, seats, the append-only action log, the hall of shame (SQLite or
//!   PostgreSQL).
//! - [`api`]: the HTTP edge (axum), errors as problem+json.
//! - [`config`]: settings from the environment.
//!
//! [`serve`] runs the whole server on a listener until a shutdown signal; tests call it on
//! `127.0.0.1:0` with the same router production uses.

pub mod api;
pub mod bots;
pub mod config;
pub mod games;
pub mod rules;
pub mod store;

use std::{future::Future, net::SocketAddr};
use tokio::net::TcpListener;

pub use api::{AppState, router};

/// Serves the API on `listener` until `shutdown` completes, then finishes in-flight requests.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = router(state);
    axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
        .with_graceful_shutdown(shutdown)
        .await
}
