//! What every handler can reach: the store, the settings, the limits, the table actors, the
//! open-table workflow, the cluster's routing, the sockets' token watches and the recent
//! sessions, built once per server.

use super::limits::{self, RateLimiter};
use crate::{
    chat::Chat, clock::Clock, cluster::Cluster, config::Config, lobby::Lobby, store::Store, table::Tables,
};
use std::sync::Arc;

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub config: Arc<Config>,
    pub limiter: Arc<RateLimiter>,
    /// Open WebSockets, per player and per table's spectators.
    pub sockets: Arc<limits::Slots>,
    /// The actors of the tables in play.
    pub tables: Tables,
    /// Opening, seating, changing and starting tables.
    pub lobby: Lobby,
    /// The tables' chat.
    pub chat: Chat,
    /// Where each table in play is served: here, or (cluster mode) on the process that drives it.
    pub cluster: Cluster,
    /// The tokens this process's WebSockets authenticated with, to close them when revoked, and
    /// the sessions it authenticated lately (`authenticate`), forgotten when revoked.
    pub revocations: Arc<crate::revocations::Revocations>,
    /// What signs the history's checkpoints (docs/history.md): `LUDDO_SIGNING_KEY`'s key, or a
    /// key of this run's own.
    pub signer: crate::history::Signer,
}

impl AppState {
    pub fn new(store: Store, config: Config) -> Self {
        Self::with_clock(store, config, Clock::new())
    }

    /// A state whose game clocks read `clock` (tests restarting a server keep its clock).
    pub fn with_clock(store: Store, config: Config, clock: Clock) -> Self {
        let limiter = Arc::new(RateLimiter::new());
        let config = Arc::new(config);
        let tables = Tables::new(store.clone(), config.clone(), clock);
        let lobby = Lobby::new(store.clone(), tables.clone(), config.clone());
        let chat = Chat::new(store.clone());
        let cluster = Cluster::new(store.clone(), tables.clone(), &config.instance_id);
        let signer =
            config.signing_key.map_or_else(crate::history::Signer::random, crate::history::Signer::new);
        Self {
            store,
            config,
            limiter,
            sockets: Arc::default(),
            tables,
            lobby,
            chat,
            cluster,
            revocations: Arc::default(),
            signer,
        }
    }
}
