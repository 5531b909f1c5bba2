//! Luddo: a game server for online Ludo-family dice games.
//!
//! - [`rules`]: pure game engines (no I/O): Luddo and classic Ludo, Uckers, Snakes and Ladders,
//!   Backgammon, and the provably fair dice they draw from.
//! - [`bots`]: a policy per game that chooses among the legal actions.
//! - [`games`]: the games a table can hold, their seat limits and options.
//! - [`store`]: players, tables, seats, the append-only action log, the hall of shame (SQLite or
//!   PostgreSQL).
//! - [`table`]: live tables, one actor task per table: clocks, bots, events.
//! - [`lobby`]: the open-table workflow (create, join, leave, settings, start, quick play,
//!   rematch), below the edge.
//! - [`api`]: the HTTP and WebSocket edge (axum), errors as problem+json.
//! - [`cluster`]: several processes on one PostgreSQL, each serving every table (forwarding to a
//!   table's driver, events fanned out by `LISTEN/NOTIFY`).
//! - [`config`]: settings from the environment; [`instance`]: the default instance id, kept in
//!   the data directory.
//! - [`revocations`]: the tokens this process's WebSockets authenticated with, to close them
//!   when revoked or expired; [`sessions`]: the sessions it authenticated lately, so that a
//!   token used again is answered without the store.
//! - [`social`]: friends, blocks, challenges and rematch offers as the lobby stream tells
//!   them to the players they name; the challenge workflow.
//! - [`tournament`]: arena pairing and points, knockout brackets, Swiss pairing and tie-breaks
//!   (pure functions over indices; no tables, clocks or store).
//! - [`verify`]: checks a finished table's dice against its commitment (`luddo verify`).
//! - [`wording`]: serde's error messages in a client's words, for problem details.
//!
//! [`serve`] runs the whole server on a listener until a shutdown signal; tests call it on
//! `127.0.0.1:0` with the same router production uses.

pub mod api;
pub mod bots;
pub mod chat;
pub mod clock;
pub mod cluster;
pub mod config;
pub mod games;
pub mod history;
pub mod instance;
pub mod ledger;
pub mod lobby;
pub mod review;
pub mod revocations;
pub mod rules;
pub mod sessions;
pub mod social;
pub mod store;
pub mod table;
/// Shared by the property tests, the fuzz targets and the programs that start a server under
/// test; not used by the server.
#[doc(hidden)]
pub mod testing;
pub mod tournament;
pub mod verify;
pub mod wording;

use std::{future::Future, time::Duration};
use tokio::net::TcpListener;

/// The size of the future `f` would return (it is never called). A task is one allocation as
/// large as the future it runs, for as long as it runs: tests bound the futures every table
/// and every socket keeps for its whole life.
#[cfg(test)]
pub(crate) fn future_size<A, F: Future>(_f: impl FnOnce(A) -> F) -> usize {
    std::mem::size_of::<F>()
}

/// Longest shutdown waits for the WebSockets it told to reconnect to close.
const SOCKETS_CLOSE_WAIT: Duration = Duration::from_secs(3);

pub use api::{AppState, router};

/// Resumes every table in play, serves the API on `listener` until `shutdown` completes,
/// finishes in-flight requests and stops the table actors. Connections are bounded as
/// [`api::connections`] says (header timeout, caps in all and per client address).
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    // Cluster mode: where the others reach this process (registered with its lease, so before
    // the first renewal), and the fan-out of their events to its sockets.
    let mut address = None;
    if state.cluster.enabled() {
        let local = listener.local_addr()?;
        address = cluster::internal_address(&state.config, local).await;
        match &address {
            Some(address) => tracing::info!(%address, "other processes reach this one at"),
            None => tracing::warn!(
                "no internal address (set LUDDO_INTERNAL_ADDR): other processes cannot forward calls here"
            ),
        }
        let (url, instance) = (state.config.database_url(), state.config.instance_id.clone());
        let to = cluster::fanout::Listeners {
            feeds: state.tables.feeds().clone(),
            revocations: state.revocations.clone(),
            chat: state.chat.clone(),
        };
        state.chat.tell_others_as(instance.clone());
        cluster::fanout::start(url, instance, state.store.clone(), to, state.tables.stopped());
    }
    let leases = table::Leases::new(state.store.clone(), state.config.clone(), state.tables.clone(), address);
    match leases.resume_all().await {
        Ok(0) => {}
        Ok(n) => tracing::info!(tables = n, "resumed tables in play"),
        Err(e) => tracing::error!(error = %e, "could not list the tables in play"),
    }
    // Keep the lease on this process's tables alive; take over those of processes that died.
    let kept = leases.clone();
    tokio::spawn(async move { kept.keep().await });
    // Quick-play tables whose wait for players is over: bots fill them and they start.
    let mut stop = state.tables.stopped();
    let stopped = async move {
        let _ = stop.wait_for(|stopped| *stopped).await;
    };
    tokio::spawn(state.lobby.clone().fill_waiting_tables(stopped));
    // Challenges whose time is up: expired, and their players told (docs/social.md).
    let mut stop = state.tables.stopped();
    let stopped = async move {
        let _ = stop.wait_for(|stopped| *stopped).await;
    };
    tokio::spawn(state.challenges.clone().expire_due(std::time::Duration::from_secs(1), stopped));
    // Presence: the players of this process's sockets marked seen (docs/social.md).
    let mut stop = state.tables.stopped();
    let stopped = async move {
        let _ = stop.wait_for(|stopped| *stopped).await;
    };
    tokio::spawn(api::presence::heartbeat(state.clone(), stopped));
    // Finished tables into the luck and fairness ledger (docs/luck.md).
    let mut stop = state.tables.stopped();
    let stopped = async move {
        let _ = stop.wait_for(|stopped| *stopped).await;
    };
    tokio::spawn(state.store.clone().keep_ledger(stopped));
    // Finished backgammon tables' reviews (docs/analysis.md).
    let mut stop = state.tables.stopped();
    let stopped = async move {
        let _ = stop.wait_for(|stopped| *stopped).await;
    };
    tokio::spawn(state.store.clone().keep_reviews(stopped));
    // The history's checkpoints (docs/history.md).
    tokio::spawn(history::sign_checkpoints(
        state.store.clone(),
        state.signer.clone(),
        state.config.checkpoint_every,
        state.config.checkpoint_links,
        state.tables.stopped(),
    ));
    let tables = state.tables.clone();
    // Stop the actors first: their subscribers' sockets close with them, so the graceful
    // shutdown does not wait on WebSockets forever. Then let go of the lease on their tables.
    let shutdown = async move {
        shutdown.await;
        tables.stop_all();
        leases.release().await;
    };
    let app = router(state.clone());
    let upkeep = state.config.metrics.then(|| tokio::spawn(api::metrics::upkeep()));
    api::connections::serve(listener, app, &state.config, shutdown).await;
    // The WebSockets were told to reconnect (1012) as the actors and feeds stopped: let their
    // close frames go out before the process ends.
    state.tables.sockets_closed(SOCKETS_CLOSE_WAIT).await;
    upkeep.inspect(tokio::task::JoinHandle::abort);
    Ok(())
}
