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
//! live process holds it — and keeps a lease on all of its tables alive ([`Leases`]).
//! Taking a table bumps its epoch, which every append checks, so a process that lost a table
//! (its lease ran out while it was stalled, say) cannot write to its log any more.

mod actor;
pub mod cursor;
pub mod feeds;
mod leases;
pub mod messages;
mod seats;
mod state;

pub use crate::store::{TableEntry, TakeoverReason};
pub use leases::Leases;
pub use messages::{ActOk, EntryMessage, PlayError, PlayView, SeatPresence, Subscription};

use crate::{
    clock::{Clock, now_millis},
    config::Config,
    store::{Store, StoreError, TableRecord, TableStatus, Visibility},
};
use futures_util::FutureExt;
use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
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

/// What goes out on a table's (or the lobby's) broadcast, shared by every subscriber.
#[derive(Debug)]
pub enum Broadcast {
    /// A log entry's WebSocket message, with its `seq`.
    Entry { seq: i64, text: Arc<str> },
    /// A message that is not logged (a presence change, a lobby stream message).
    Unlogged(Arc<str>),
    /// A lobby stream message for some players only (a friend request, a challenge, a rematch
    /// offer): sent to their lobby sockets, never to an anonymous one or a table's.
    ForPlayers { players: Arc<[Uuid]>, text: Arc<str> },
    /// Not a message: word that the log reaches `seq` now (written by another process, or by
    /// this one's log writer), for the sockets that read the log themselves from the store.
    Nudge { seq: i64 },
}

impl Broadcast {
    /// The log `seq` it is about; `None` for an unlogged message.
    pub fn seq(&self) -> Option<i64> {
        match self {
            Broadcast::Entry { seq, .. } | Broadcast::Nudge { seq } => Some(*seq),
            Broadcast::Unlogged(_) | Broadcast::ForPlayers { .. } => None,
        }
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
    /// Hand the table to another process, then stop (boxed, as an action is).
    HandOver(Box<HandOver>),
}

/// Hand the table from process `from` to live process `to` (see `crate::cluster`,
/// "Hand-over"), then stop: everything before it is stored by then. `moved` (the handle's) is
/// set before the actor stops, so the callers whose commands come after it hear that the
/// table moved.
#[derive(Debug)]
pub(crate) struct HandOver {
    from: Arc<str>,
    to: Arc<str>,
    moved: Arc<AtomicBool>,
    reply: oneshot::Sender<Result<bool, PlayError>>,
}

/// A player's action, for [`Command::Act`].
#[derive(Debug)]
pub(crate) struct Act {
    player: Uuid,
    action: serde_json::Value,
    seq: i64,
    /// Fresh dice: the seat's next chain link, if sent.
    reveal: Option<String>,
    reply: oneshot::Sender<Result<ActOk, PlayError>>,
}

/// An open WebSocket, counted while it lives (see [`Tables::socket_opened`]).
pub struct OpenSocket(Arc<tokio::sync::watch::Sender<usize>>);

impl Drop for OpenSocket {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n = n.saturating_sub(1));
    }
}

/// Who may see a table in play, as it was when its actor loaded it. Nobody joins or leaves a
/// table and its visibility stays as it is once the game has started, so this stays true for
/// as long as the actor runs, and a call asks its handle instead of the store.
#[derive(Debug)]
struct Members {
    /// Whether only its members may see it.
    private: bool,
    /// Its host and its seats' players.
    players: Box<[Uuid]>,
}

impl Members {
    fn of(record: &TableRecord) -> Self {
        let seated = record.seats.iter().filter_map(|s| s.player_id);
        Self {
            private: record.visibility == Visibility::Private,
            players: std::iter::once(record.host_id).chain(seated).collect(),
        }
    }
}

/// A way to talk to one table's actor; cheap to clone.
#[derive(Debug, Clone)]
pub struct TableHandle {
    commands: mpsc::Sender<Command>,
    /// Who may see the table, answered without asking the actor.
    members: Arc<Members>,
    /// Set when the actor handed the table to another process: a call it did not serve was
    /// not refused, the table moved (and the call may be made again where it is now).
    moved: Arc<AtomicBool>,
}

impl TableHandle {
    /// Whether `player` may see the table: anyone a public one; a private one, its host and the
    /// players of its seats (to anyone else it is a table that does not exist).
    pub fn visible_to(&self, player: Uuid) -> bool {
        !self.members.private || self.members.players.contains(&player)
    }

    async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> Command) -> Result<T, PlayError> {
        let (tx, rx) = oneshot::channel();
        let stopped = || match self.moved.load(Ordering::SeqCst) {
            true => PlayError::Store(StoreError::Fenced),
            false => PlayError::TableStopped,
        };
        self.commands.send(make(tx)).await.map_err(|_| stopped())?;
        rx.await.map_err(|_| stopped())
    }

    /// Hands the table, which process `from` (this one) drives, to live process `to` once the
    /// actor has served and stored every command before this one, and stops the actor; `false`
    /// (the table stays here) if `to` is not live, or the table is not this process's to hand.
    pub async fn hand_over(&self, from: &Arc<str>, to: &Arc<str>) -> Result<bool, PlayError> {
        let moved = self.moved.clone();
        let (from, to) = (from.clone(), to.clone());
        self.ask(|reply| Command::HandOver(Box::new(HandOver { from, to, moved, reply }))).await?
    }

    /// Plays `action` for `player`'s seat, if `seq` is the table's latest, with the seat's
    /// next dice-chain link `reveal` if it sent one (fresh dice).
    pub async fn act(
        &self,
        player: Uuid,
        action: serde_json::Value,
        seq: i64,
        reveal: Option<String>,
    ) -> Result<ActOk, PlayError> {
        self.ask(|reply| Command::Act(Box::new(Act { player, action, seq, reveal, reply }))).await?
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
    /// The WebSockets open on this process, which shutdown lets close (see [`OpenSocket`]).
    sockets: Arc<tokio::sync::watch::Sender<usize>>,
}

impl Tables {
    pub fn new(store: Store, config: Arc<Config>, clock: Clock) -> Self {
        let (stop, _) = tokio::sync::watch::channel(false);
        let feeds = Arc::default();
        let live = Arc::new(Mutex::new(HashMap::new()));
        let sockets = Arc::new(tokio::sync::watch::channel(0).0);
        Self { store, config, clock, live, starting: Arc::default(), feeds, stop, sockets }
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
        // answers any request, and [`Leases::keep`] from then on.)
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
        let members = Arc::new(Members::of(&record));
        let actor =
            actor::Actor::load(record, epoch, self.store.clone(), self.config.clone(), self.clock, feeds)
                .await?;
        let (commands, rx) = mpsc::channel(COMMAND_QUEUE);
        let handle = TableHandle { commands, members, moved: Arc::default() };
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

    /// Stops the actor of table `id`, which another process has taken, writing nothing more.
    fn stop_taken(&self, id: Uuid) {
        let lost = self.live.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
        if let Some(handle) = lost {
            tracing::warn!(table = %id, "another process took the table; stopping its actor here");
            let _ = handle.commands.try_send(Command::Stop);
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handle(record: &TableRecord) -> TableHandle {
        TableHandle {
            commands: mpsc::channel(1).0,
            members: Arc::new(Members::of(record)),
            moved: Arc::default(),
        }
    }

    #[test]
    fn a_private_table_is_seen_by_its_host_and_seated_players_alone() {
        let seated = Uuid::new_v4();
        let stranger = Uuid::new_v4();
        let mut record = state::tests::record(&[Some(seated), None]);
        assert!(handle(&record).visible_to(stranger), "a public table is anyone's to see");
        record.visibility = Visibility::Private;
        let private = handle(&record);
        assert!(private.visible_to(seated));
        assert!(private.visible_to(record.host_id));
        assert!(!private.visible_to(stranger));
    }

    #[tokio::test]
    async fn a_call_the_actor_never_served_is_moved_once_the_table_was_handed_over_else_stopped() {
        let record = state::tests::record(&[Some(Uuid::new_v4()), None]);
        let (commands, queued) = mpsc::channel(4);
        let handle = TableHandle { commands, members: Arc::new(Members::of(&record)), moved: Arc::default() };
        // Queued, then dropped unserved with the actor's end of the channel.
        let call = tokio::spawn({
            let handle = handle.clone();
            async move { handle.view(None).await }
        });
        while queued.is_empty() {
            tokio::task::yield_now().await;
        }
        handle.moved.store(true, Ordering::SeqCst);
        drop(queued);
        assert!(matches!(call.await.unwrap(), Err(PlayError::Store(StoreError::Fenced))), "queued: moved");
        assert!(matches!(handle.view(None).await, Err(PlayError::Store(StoreError::Fenced))), "after: moved");
        // An actor that stopped without handing the table over: stopped.
        handle.moved.store(false, Ordering::SeqCst);
        assert!(matches!(handle.view(None).await, Err(PlayError::TableStopped)));
    }
}
