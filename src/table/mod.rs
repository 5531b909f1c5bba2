//! Live tables: one actor task per table in play, and the registry that finds or starts them.
//!
//! The actor ([`actor`]) owns the game state. Handlers talk to it through a [`TableHandle`]
//! (a bounded command channel with oneshot replies) and follow it through a broadcast of
//! serialized log entries. Every accepted action is appended to the store's log, with its `seq`,
//! before anyone hears of it. A table's state is a fold over its log: an actor that is not
//! running is rebuilt by replaying the log (after a restart, or after a store failure).
//!
//! Several server processes may share one database; each table in play is driven by one of
//! them. A process takes a table ([`Store::claim_table`]) before it loads it — only if no other
//! live process holds it — and keeps a lease on all of its tables alive ([`Tables::keep_leases`]).
//! Taking a table bumps its epoch, which every append checks, so a process that lost a table
//! (its lease ran out while it was stalled, say) cannot write to its log any more.

mod actor;
mod core;
pub mod cursor;
pub mod feeds;
pub mod messages;
mod seats;

pub use crate::store::{TableEntry, TakeoverReason};
pub use messages::{ActOk, EntryMessage, PlayError, PlayView, SeatPresence, Subscription};

use crate::{
    clock::{Clock, now_millis},
    config::Config,
    store::{Store, StoreError, TableStatus},
};
use futures_util::FutureExt;
use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};
use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

/// Commands waiting for a table's actor; senders wait when it is full.
const COMMAND_QUEUE: usize = 64;
/// Messages a subscriber may fall behind before it is dropped (it then resumes with `since`).
/// Every table allocates this many slots of its broadcast ring up front, idle or not (256 were
/// a sixth of an idle table's memory); a socket that keeps up is never more than a turn's
/// entries behind.
pub const SUBSCRIBER_QUEUE: usize = 64;
/// Recent messages an actor keeps to serve reconnects without a database read.
const HISTORY: usize = 256;

/// What the actor broadcasts: one serialized message, shared by every subscriber.
#[derive(Debug)]
pub struct Broadcast {
    /// The log `seq` for entries; `None` for presence changes, which are not logged.
    pub seq: Option<i64>,
    pub text: Arc<str>,
}

impl Broadcast {
    /// Not a message: word that the log reaches `seq` now (written by another process, or
    /// by this one's log writer), for the sockets that read the log themselves.
    pub fn nudge(seq: i64) -> Self {
        Self { seq: Some(seq), text: Arc::from("") }
    }

    /// Whether this is a [`Broadcast::nudge`]: the entries are in the store, not here.
    pub fn is_nudge(&self) -> bool {
        self.text.is_empty()
    }
}

/// A command for a table's actor. Every table's command channel allocates its first block of
/// 32 commands up front, idle or not: the largest command, an action, is boxed to keep it small.
#[derive(Debug)]
pub(crate) enum Command {
    Act(Box<Act>),
    Reclaim {
        player: Uuid,
        reply: oneshot::Sender<Result<ActOk, PlayError>>,
    },
    View {
        viewer: Option<Uuid>,
        reply: oneshot::Sender<PlayView>,
    },
    Subscribe {
        player: Option<Uuid>,
        reclaim: bool,
        reply: oneshot::Sender<Subscription>,
    },
    Disconnected {
        player: Uuid,
    },
    /// Another process took the table: stop without writing anything more.
    Stop,
}

/// A player's action, for [`Command::Act`].
#[derive(Debug)]
pub(crate) struct Act {
    player: Uuid,
    action: serde_json::Value,
    seq: i64,
    reply: oneshot::Sender<Result<ActOk, PlayError>>,
}

/// An open WebSocket, counted while it lives (see [`Tables::socket_opened`]).
pub struct OpenSocket(Arc<tokio::sync::watch::Sender<usize>>);

impl Drop for OpenSocket {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n = n.saturating_sub(1));
    }
}

/// A way to talk to one table's actor; cheap to clone.
#[derive(Debug, Clone)]
pub struct TableHandle {
    commands: mpsc::Sender<Command>,
}

impl TableHandle {
    async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> Command) -> Result<T, PlayError> {
        let (tx, rx) = oneshot::channel();
        self.commands.send(make(tx)).await.map_err(|_| PlayError::TableStopped)?;
        rx.await.map_err(|_| PlayError::TableStopped)
    }

    /// Plays `action` for `player`'s seat, if `seq` is the table's latest.
    pub async fn act(&self, player: Uuid, action: serde_json::Value, seq: i64) -> Result<ActOk, PlayError> {
        self.ask(|reply| Command::Act(Box::new(Act { player, action, seq, reply }))).await?
    }

    /// Takes `player`'s seat back from the bot.
    pub async fn reclaim(&self, player: Uuid) -> Result<ActOk, PlayError> {
        self.ask(|reply| Command::Reclaim { player, reply }).await?
    }

    /// The table as `viewer` sees it.
    pub async fn view(&self, viewer: Option<Uuid>) -> Result<PlayView, PlayError> {
        self.ask(|reply| Command::View { viewer, reply }).await
    }

    /// Follows the table: live messages from now on, and the latest `seq` at that moment. A
    /// player's subscription counts as presence until [`TableHandle::disconnected`].
    pub async fn subscribe(&self, player: Option<Uuid>, reclaim: bool) -> Result<Subscription, PlayError> {
        self.ask(|reply| Command::Subscribe { player, reclaim, reply }).await
    }

    /// A player's connection closed.
    pub async fn disconnected(&self, player: Uuid) {
        let _ = self.commands.send(Command::Disconnected { player }).await;
    }
}

/// The tables being started, each with the lock its starters take turns on.
type StartGates = Mutex<HashMap<Uuid, Arc<tokio::sync::Mutex<()>>>>;

/// A caller's place in the queue of those starting one table: the last to leave removes the
/// table's gate (also when its call is dropped midway).
struct StartTurn<'a> {
    gates: &'a StartGates,
    id: Uuid,
    gate: Arc<tokio::sync::Mutex<()>>,
}

impl<'a> StartTurn<'a> {
    fn take(gates: &'a StartGates, id: Uuid) -> Self {
        let gate = gates.lock().unwrap_or_else(|e| e.into_inner()).entry(id).or_default().clone();
        Self { gates, id, gate }
    }
}

impl Drop for StartTurn<'_> {
    fn drop(&mut self) {
        let mut gates = self.gates.lock().unwrap_or_else(|e| e.into_inner());
        // The map's and this one's: nobody else waits (a gate is only cloned under this lock).
        if Arc::strong_count(&self.gate) == 2 {
            gates.remove(&self.id);
        }
    }
}

/// Every running table actor, by table id.
#[derive(Clone)]
pub struct Tables {
    store: Store,
    config: Arc<Config>,
    clock: Clock,
    live: Arc<Mutex<HashMap<Uuid, TableHandle>>>,
    /// The tables being started, each with the turn its callers take ([`Tables::get`]).
    starting: Arc<StartGates>,
    /// The broadcasts of open tables and of the lobby.
    feeds: Arc<feeds::Feeds>,
    /// Flips to true to stop every actor (server shutdown).
    stop: tokio::sync::watch::Sender<bool>,
    /// Where the other processes reach this one (cluster mode), registered with the lease;
    /// set by `serve` once it listens.
    address: Arc<std::sync::OnceLock<Option<String>>>,
    /// The WebSockets open on this process, which shutdown lets close (see [`OpenSocket`]).
    sockets: Arc<tokio::sync::watch::Sender<usize>>,
}

impl Tables {
    pub fn new(store: Store, config: Arc<Config>, clock: Clock) -> Self {
        let (stop, _) = tokio::sync::watch::channel(false);
        let feeds = Arc::default();
        let live = Arc::new(Mutex::new(HashMap::new()));
        let address = Arc::default();
        let sockets = Arc::new(tokio::sync::watch::channel(0).0);
        Self { store, config, clock, live, starting: Arc::default(), feeds, stop, address, sockets }
    }

    /// Where the other processes reach this one, registered with its lease from now on. Set once.
    pub fn set_address(&self, address: Option<String>) {
        let _ = self.address.set(address);
    }

    /// Where the other processes reach this one, if it said.
    pub fn address(&self) -> Option<&str> {
        self.address.get().and_then(Option::as_deref)
    }

    /// Whether the process is shutting down (every actor told to stop).
    pub fn stopping(&self) -> bool {
        *self.stop.borrow()
    }

    /// Flips to true when the process shuts down.
    pub fn stopped(&self) -> tokio::sync::watch::Receiver<bool> {
        self.stop.subscribe()
    }

    /// Counts an open WebSocket until the guard drops.
    pub fn socket_opened(&self) -> OpenSocket {
        self.sockets.send_modify(|n| *n += 1);
        OpenSocket(self.sockets.clone())
    }

    /// Waits until every WebSocket of the process has closed, at most `patience` (at shutdown:
    /// they were told to reconnect, and their close frames are on their way).
    pub async fn sockets_closed(&self, patience: std::time::Duration) {
        let mut open = self.sockets.subscribe();
        let _ = tokio::time::timeout(patience, open.wait_for(|n| *n == 0)).await;
    }

    /// The broadcasts of open tables and of the lobby.
    pub fn feeds(&self) -> &Arc<feeds::Feeds> {
        &self.feeds
    }

    pub fn clock(&self) -> Clock {
        self.clock
    }

    /// The actor of a started table, starting it (by replaying the log) if it is not running.
    /// `None` if the table does not exist or has not started; [`StoreError::Fenced`] if another
    /// server process drives it. Calls that find the table not running take turns to start it
    /// (the first starts it, the others get its actor), and an actor is found by others only
    /// once it is loaded: a process that fails to take the table never hands one out.
    pub async fn get(&self, id: Uuid) -> Result<Option<TableHandle>, PlayError> {
        if let Some(handle) = self.running(id) {
            return Ok(Some(handle));
        }
        let turn = StartTurn::take(&self.starting, id);
        let _turn = turn.gate.lock().await;
        // Another call may have started it while this one waited its turn.
        if let Some(handle) = self.running(id) {
            return Ok(Some(handle));
        }
        // Take the table first, then read it: what another process wrote before it let go is
        // then all in the log. (This process's lease is alive: `serve` renews it before it
        // answers any request, and `keep_leases` from then on.)
        let epoch = self.store.claim_table(id, &self.config.instance_id, now_millis()).await?;
        let Some(record) = self.store.table(id).await? else { return Ok(None) };
        let epoch = match (epoch, record.status) {
            _ if record.started_at.is_none() => return Ok(None),
            (Some(epoch), _) => epoch,
            // A finished table's actor only serves views: it never writes.
            (None, TableStatus::Finished) => 0,
            (None, _) => return Err(PlayError::Store(StoreError::Fenced)),
        };
        let feeds = self.feeds.clone();
        let actor =
            actor::Actor::load(record, epoch, self.store.clone(), self.config.clone(), self.clock, feeds)
                .await?;
        let (commands, rx) = mpsc::channel(COMMAND_QUEUE);
        let handle = TableHandle { commands };
        self.live.lock().unwrap_or_else(|e| e.into_inner()).insert(id, handle.clone());
        let live = self.live.clone();
        let commands = handle.commands.clone();
        let stop = self.stop.subscribe();
        // `map` rather than an async block awaiting `run`: the block would keep the actor it
        // captured beside the future it moved it into, for as long as the table is in play.
        tokio::spawn(actor.run(rx, stop).map(move |()| {
            let mut live = live.lock().unwrap_or_else(|e| e.into_inner());
            if live.get(&id).is_some_and(|h| h.commands.same_channel(&commands)) {
                live.remove(&id);
            }
        }));
        Ok(Some(handle))
    }

    /// The actor of table `id` if it runs on this process.
    pub fn running(&self, id: Uuid) -> Option<TableHandle> {
        let live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        live.get(&id).filter(|h| !h.commands.is_closed()).cloned()
    }

    /// Renews this process's lease, stops the actors of tables another process has taken (this
    /// one stalled past its lease, say), then starts the actor of every table in play that it
    /// may drive and is not running: its own (at start, or after an actor stopped on a store
    /// failure) and those of processes whose lease ran out. Returns how many it started.
    pub async fn resume_all(&self) -> Result<usize, PlayError> {
        let instance = &self.config.instance_id;
        let now = now_millis();
        let until = now + self.config.lease.as_millis() as i64;
        self.store.renew_lease(instance, until, self.address()).await?;
        let tables = self.store.tables_in_play(instance, now).await?;
        for t in tables.iter().filter(|t| t.owner.as_ref().is_some_and(|o| o != instance)) {
            let lost = self.live.lock().unwrap_or_else(|e| e.into_inner()).remove(&t.id);
            if let Some(handle) = lost {
                tracing::warn!(table = %t.id, "another process took the table; stopping its actor here");
                let _ = handle.commands.try_send(Command::Stop);
            }
        }
        let mut resumed = 0;
        for t in tables.iter().filter(|t| t.claimable && self.running(t.id).is_none()) {
            let id = t.id;
            match self.get(id).await {
                Ok(Some(_)) => {
                    resumed += 1;
                    // Another process's, whose lease ran out.
                    if t.owner.as_ref().is_some_and(|o| o != instance) {
                        metrics::counter!("luddo_lease_takeovers_total").increment(1);
                    }
                }
                Ok(None) | Err(PlayError::Store(StoreError::Fenced)) => {}
                Err(e) => tracing::error!(table = %id, error = %e, "could not resume table"),
            }
        }
        Ok(resumed)
    }

    /// Runs [`Tables::resume_all`] every third of the lease, for as long as the server runs:
    /// the lease stays alive, and tables whose process died are taken over.
    pub async fn keep_leases(&self) {
        let mut stop = self.stop.subscribe();
        let mut every = tokio::time::interval(self.config.lease / 3);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        every.tick().await; // the first tick is at once: `serve` has just resumed the tables
        loop {
            tokio::select! {
                _ = every.tick() => {}
                _ = stop.changed() => return,
            }
            match self.resume_all().await {
                Ok(0) => {}
                Ok(n) => tracing::info!(tables = n, "took over tables"),
                Err(e) => tracing::warn!(error = %e, "could not renew the lease on this process's tables"),
            }
        }
    }

    /// Stops every actor (at shutdown; tests use it to drop a server's tables mid-game). What
    /// they accepted is already in the store.
    pub fn stop_all(&self) {
        self.stop.send_replace(true);
        self.live.lock().unwrap_or_else(|e| e.into_inner()).clear();
        // The sockets that follow open tables, other processes' tables and the lobby.
        self.feeds.close_all();
    }

    /// Gives up this process's lease, so that another may take its tables at once (after
    /// [`Tables::stop_all`], at shutdown).
    pub async fn release(&self) {
        if let Err(e) = self.store.release_lease(&self.config.instance_id).await {
            tracing::warn!(error = %e, "could not release the lease on this process's tables");
        }
    }
}
