//! The actor of one table in play: the only owner of its [`Table`], and what connects it to the
//! world — the command channel, the clock, the store, the broadcast to subscribers.
//!
//! Its loop waits for a command or for the table's deadline. Each step hands the command (or
//! the timeout) to the [`Table`], lets it settle (bots and forced moves are played at once, the
//! game's end is recorded), then appends everything the step staged to the log in one
//! transaction (with the new deadline, and the epoch this process took the table with) before
//! it replies or broadcasts. Should the store fail, or another process have taken the table,
//! the actor stops; the next request rebuilds it from the log, so nothing is ever half-applied.

use super::{
    Broadcast, Command, HISTORY, SUBSCRIBER_QUEUE,
    feeds::{Feeds, LobbyMessage, Removal},
    messages::{ActOk, PlayError, PresenceMessage, Subscription, entry_message},
    state::Table,
};
use crate::{
    clock::Clock,
    config::Config,
    games::GameKind,
    rules::Seat,
    store::{Append, LogEntry, PlayedBy, Store, StoreError, TableEntry, TableRecord, Visibility},
};
use std::{
    collections::VecDeque,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};
use tokio::sync::{broadcast, mpsc, watch};
use uuid::Uuid;

/// A finished table's actor stops after this long without commands or subscribers.
const IDLE_AFTER_FINISH: Duration = Duration::from_secs(60);

pub(super) struct Actor {
    id: Uuid,
    game: GameKind,
    /// Counts the table in `luddo_tables_in_play` until its game ends or the actor stops.
    in_play: InPlay,
    /// The epoch this process took the table with; every append carries it.
    epoch: i64,
    table: Table,
    store: Store,
    clock: Clock,
    events: broadcast::Sender<Arc<Broadcast>>,
    /// The latest entries, serialized, to serve reconnects without a database read.
    history: VecDeque<Arc<Broadcast>>,
    /// Where to tell the lobby that the game is over: a public table's only.
    lobby: Option<Arc<Feeds>>,
}

impl Actor {
    /// Rebuilds a started table from its log (writing the opening entry if the log is empty).
    /// `epoch` is what this process took the table with (see [`Store::claim_table`]).
    pub(super) async fn load(
        record: TableRecord,
        epoch: i64,
        store: Store,
        config: Arc<Config>,
        clock: Clock,
        feeds: Arc<Feeds>,
    ) -> Result<Self, PlayError> {
        let lobby = (record.visibility == Visibility::Public).then_some(feeds);
        let mut log = store.entries(record.id, 0, i64::MAX).await?;
        let mut table = Table::load(&record, &config, &log, clock.now_millis())?;
        let tail = log.len().saturating_sub(HISTORY);
        // Rows written before entries stored the state: the replay rebuilt it for the
        // messages kept here (the rows themselves stay as they are).
        for (seq, state) in table.take_replayed_states() {
            if let Some(entry) = log[tail..].iter_mut().find(|e| e.seq == seq) {
                entry.events.state = Some(state);
            }
        }
        // Grown as entries come (an idle table keeps a few, not room for all of them).
        let mut history = VecDeque::new();
        for entry in &log[tail..] {
            history
                .push_back(Arc::new(Broadcast::Entry { seq: entry.seq, text: entry_message(entry).into() }));
        }
        let (events, _) = broadcast::channel(SUBSCRIBER_QUEUE);
        let in_play = InPlay::start(record.game, table.finished());
        let mut actor = Self {
            id: record.id,
            game: record.game,
            in_play,
            epoch,
            table,
            store,
            clock,
            events,
            history,
            lobby,
        };
        actor.settle().await?;
        actor.flush().await?;
        Ok(actor)
    }

    /// Serves the table until its commands close, the process stops, another process takes it,
    /// or (finished) it has been idle a while. The table's task is this future for as long as
    /// the table is in play, idle or not: an async block (an async fn would hold the actor twice,
    /// as its argument and as the local it moves it to), and each step boxed while it runs.
    #[allow(clippy::manual_async_fn)] // on purpose: see above
    pub(super) fn run(
        mut self,
        mut commands: mpsc::Receiver<Command>,
        mut stop: watch::Receiver<bool>,
    ) -> impl Future<Output = ()> + Send {
        async move {
            loop {
                let deadline = self.table.deadline().map(|d| self.clock.instant_at(d));
                let idle = self.table.finished() && self.events.receiver_count() == 0;
                tokio::select! {
                    command = commands.recv() => {
                        // Closed, or another process took the table: stop, writing nothing more.
                        let Some(command) = command.filter(|c| !matches!(c, Command::Stop)) else { return };
                        if let Command::HandOver(hand_over) = command {
                            let super::HandOver { from, to, moved, reply } = *hand_over;
                            let handed = self.hand_over(&from, &to, &moved).await;
                            let stop = matches!(handed, Ok(true));
                            let _ = reply.send(handed);
                            if stop {
                                return;
                            }
                        } else if let Err(e) = Box::pin(self.handle(command)).await {
                            tracing::error!(table = %self.id, error = %e, "table stopped; it will be reloaded from its log");
                            return;
                        }
                    }
                    _ = tokio::time::sleep_until(deadline.unwrap_or_else(tokio::time::Instant::now)), if deadline.is_some() => {
                        if let Err(e) = Box::pin(self.on_timeout()).await {
                            tracing::error!(table = %self.id, error = %e, "table stopped; it will be reloaded from its log");
                            return;
                        }
                    }
                    _ = tokio::time::sleep(IDLE_AFTER_FINISH), if idle => return,
                    _ = stop.changed() => return,
                }
            }
        }
    }

    /// Handles one command. An `Err` means the store failed: the actor must stop.
    async fn handle(&mut self, command: Command) -> Result<(), PlayError> {
        let now = self.clock.now_millis();
        match command {
            Command::Act(act) => {
                let super::Act { player, action, seq, reveal, reply } = *act;
                let result = self.table.act(player, action, seq, reveal, now);
                self.reply_then_settle(result, reply).await?;
            }
            Command::Reclaim { player, reply } => {
                let result = self.table.reclaim(player, now);
                self.reply_then_settle(result, reply).await?;
            }
            Command::View { viewer, reply } => {
                let _ = reply.send(self.table.view(viewer));
            }
            Command::Subscribe { player, reclaim, reply } => {
                let receiver = self.events.subscribe();
                let seat = player.and_then(|p| self.table.connect(p));
                if let Some(seat) = seat {
                    self.broadcast_presence(seat);
                }
                let _ = reply.send(Subscription {
                    receiver,
                    seq: self.table.seq(),
                    recent: self.history.iter().cloned().collect(),
                });
                // After the reply: the subscriber hears of the reclaim as a live entry.
                if let (Some(player), Some(_), true) = (player, seat, reclaim)
                    && self.table.reclaim(player, now).is_ok()
                {
                    self.settle().await?;
                    self.flush().await?;
                }
            }
            // The run loop handles them.
            Command::Stop | Command::HandOver(_) => {}
            Command::Disconnected { player } => {
                if let Some(seat) = self.table.disconnect(player, now) {
                    self.broadcast_presence(seat);
                }
            }
        }
        Ok(())
    }

    /// Hands the table from process `from` (this one) to `to`: everything this actor accepted
    /// is stored (each command is stored before the next is taken), so the store only has to
    /// name the new owner, who takes it with a new epoch. `moved` is set before the actor stops,
    /// so that no caller queued behind the hand-over hears a refusal.
    async fn hand_over(&mut self, from: &str, to: &str, moved: &AtomicBool) -> Result<bool, PlayError> {
        let handed =
            self.store.hand_over_table(self.id, from, self.epoch, to, self.clock.now_millis()).await?;
        moved.store(handed, Ordering::SeqCst);
        Ok(handed)
    }

    /// Settles the table (bots, forced moves, the end) and stores everything before answering,
    /// so that a client hearing "accepted" finds its action in the log and the table already
    /// waiting for the next human decision. A store failure stops the actor, and the action is
    /// refused: nothing of it was stored.
    async fn reply_then_settle(
        &mut self,
        result: Result<ActOk, PlayError>,
        reply: tokio::sync::oneshot::Sender<Result<ActOk, PlayError>>,
    ) -> Result<(), PlayError> {
        let stored = match &result {
            Ok(_) => match self.settle().await {
                Ok(()) => self.flush().await,
                Err(e) => Err(e),
            },
            Err(_) => self.flush().await,
        };
        match stored {
            Ok(()) => {
                let _ = reply.send(result);
                Ok(())
            }
            Err(e) => {
                // Nothing of the action was stored: the client may try again (on the process
                // that drives the table now, if another took it).
                let fenced = matches!(e, PlayError::Store(StoreError::Fenced));
                let _ = reply.send(Err(if fenced {
                    PlayError::Store(StoreError::Fenced)
                } else {
                    PlayError::TableStopped
                }));
                Err(e)
            }
        }
    }

    /// Lets the table play bots and forced moves, storing what it staged whenever it pauses
    /// (a table of bots playing to its end writes every few dozen entries).
    async fn settle(&mut self) -> Result<(), PlayError> {
        while self.table.settle(self.clock.now_millis())? {
            self.flush().await?;
        }
        Ok(())
    }

    /// The clock ran out: the table plays the timeout, then settles.
    async fn on_timeout(&mut self) -> Result<(), PlayError> {
        self.table.timeout(self.clock.now_millis())?;
        self.settle().await?;
        self.flush().await
    }

    /// Stores the staged entries (and what they change) in one append, then tells everyone.
    async fn flush(&mut self) -> Result<(), PlayError> {
        let Some(staged) = self.table.take_staged() else { return Ok(()) };
        let texts: Vec<Arc<str>> = staged.entries.iter().map(|e| entry_message(e).into()).collect();
        let messages: Vec<Arc<Broadcast>> = (staged.entries.iter().zip(&texts))
            .map(|(e, text)| Arc::new(Broadcast::Entry { seq: e.seq, text: text.clone() }))
            .collect();
        let append = Append {
            table_id: self.id,
            epoch: self.epoch,
            entries: staged.entries,
            messages: texts,
            deadline: staged.deadline,
            controllers: staged.controllers,
            finish: staged.finish,
        };
        let finished = append.finish.is_some();
        let tally = Tally::of(self.game, &append.entries);
        self.store.append(append).await?;
        tally.record();
        if finished {
            tracing::info!(table = %self.id, "game over");
            self.in_play.end();
            if let Some(lobby) = &self.lobby {
                let gone = Removal::Finished;
                lobby.publish_lobby::<()>(&LobbyMessage::Removed {
                    table_id: self.id,
                    reason: gone,
                    seq: self.table.seq(),
                });
            }
        }
        for message in messages {
            self.remember(message.clone());
            let _ = self.events.send(message);
        }
        Ok(())
    }

    fn remember(&mut self, message: Arc<Broadcast>) {
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back(message);
    }

    fn broadcast_presence(&self, seat: Seat) {
        let text = PresenceMessage::new(seat, self.table.presence(seat)).to_text();
        let _ = self.events.send(Arc::new(Broadcast::Unlogged(text.into())));
    }
}

/// A table counted in `luddo_tables_in_play{game}`: from the start of its actor on an unfinished
/// game until the game ends or the actor stops (dropped), whichever comes first.
struct InPlay {
    game: GameKind,
    counted: bool,
}

impl InPlay {
    fn start(game: GameKind, finished: bool) -> Self {
        if !finished {
            metrics::gauge!("luddo_tables_in_play", "game" => game.as_str()).increment(1.0);
        }
        Self { game, counted: !finished }
    }

    fn end(&mut self) {
        if std::mem::take(&mut self.counted) {
            metrics::gauge!("luddo_tables_in_play", "game" => self.game.as_str()).decrement(1.0);
        }
    }
}

impl Drop for InPlay {
    fn drop(&mut self) {
        self.end();
    }
}

/// What one append adds to `luddo_actions_total`, `luddo_seat_takeovers_total` and
/// `luddo_seat_reclaims_total`: read before the append, recorded once it is stored.
struct Tally {
    game: GameKind,
    played_by: Vec<PlayedBy>,
    table_entries: Vec<TableEntry>,
}

impl Tally {
    fn of(game: GameKind, entries: &[LogEntry]) -> Self {
        let table_entries = entries.iter().filter_map(|e| e.action.table()).cloned().collect();
        Self { game, played_by: entries.iter().map(|e| e.actor).collect(), table_entries }
    }

    fn record(self) {
        let game = self.game.as_str();
        for by in self.played_by {
            metrics::counter!("luddo_actions_total", "game" => game, "played_by" => by.as_str()).increment(1);
        }
        for entry in self.table_entries {
            match entry {
                TableEntry::Takeover { reason, .. } => {
                    metrics::counter!("luddo_seat_takeovers_total", "reason" => reason.as_str()).increment(1)
                }
                TableEntry::Reclaim { .. } => metrics::counter!("luddo_seat_reclaims_total").increment(1),
                TableEntry::Start { .. } | TableEntry::Finish { .. } | TableEntry::Lobby(_) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::future_size;

    /// A table's task is as large as `run`'s future for as long as the table is in play, idle
    /// or not: it holds the actor once, and each step (a command, a timeout, with its append to
    /// the store) only while it runs (the figures are in BENCHMARKS.md, "An idle table's memory").
    #[test]
    fn an_idle_tables_task_is_its_actor_and_little_more() {
        type Run = (Actor, mpsc::Receiver<Command>, watch::Receiver<bool>);
        let run = future_size(|(actor, commands, stop): Run| actor.run(commands, stop));
        let step = future_size(|(actor, command): (&'static mut Actor, Command)| actor.handle(command));
        let actor = std::mem::size_of::<Actor>();
        assert!(run < step, "run: {run} bytes, a step: {step}");
        assert!(run <= actor + 1024, "run: {run} bytes, the actor: {actor}");
        // Every table's command channel allocates a block of 32 commands up front.
        assert!(std::mem::size_of::<Command>() <= 32);
    }
}
