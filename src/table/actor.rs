//! The actor of one table in play: the only owner of its game state.
//!
//! Its loop waits for a command or for the clock of the seat to act. Handling one applies the
//! action and settles the table (bots and forced moves are played at once, the game's end is
//! recorded, the clock is set for the next human decision), staging a log entry for each step;
//! then all of them are appended to the log in one transaction (with the new deadline, and the
//! epoch this process took the table with) before the actor replies or broadcasts. Should the
//! store fail, or another process have taken the table, the actor stops; the next request
//! rebuilds it from the log, so nothing is ever half-applied.

use super::{
    Broadcast, Command, HISTORY, SUBSCRIBER_QUEUE,
    entry::TableEntry,
    messages::{ActOk, PlayError, PlayView, PresenceMessage, SeatPresence, Subscription, entry_message},
    seats::{SeatBook, SeatChange, TakeoverReason},
};
use crate::{
    api::rfc3339,
    clock::Clock,
    config::{Config, TakeoverRule},
    games::{Applied, DynGame, GameKind},
    rules::{
        RuleErrorKind, Seat,
        dice::{DiceSource, FairDice, ScriptedDice, ServerSeed, combine_client_seeds},
    },
    store::{
        Append, Controller, EntryEvents, Finish, LogEntry, NewShame, PlayedBy, Store, StoreError, TableRecord,
    },
};
use serde_json::Value;
use std::{collections::VecDeque, sync::Arc, time::Duration};
use tokio::sync::{broadcast, mpsc, watch};
use uuid::Uuid;

/// A finished table's actor stops after this long without commands or subscribers.
const IDLE_AFTER_FINISH: Duration = Duration::from_secs(60);
/// Staged entries written at once at most while bots play on (well under the subscribers'
/// queue, so a table of bots playing to its end does not make its followers lag).
const STAGED_AT_MOST: usize = 64;

struct SeatState {
    player: Option<(Uuid, String)>,
    /// What the log says of the seat (controller, timeouts).
    book: SeatBook,
    connections: u32,
    /// Wall millis since which the player has had no connection.
    away_since: i64,
}

pub(super) struct Actor {
    id: Uuid,
    game_kind: GameKind,
    game: Box<dyn DynGame>,
    dice: Box<dyn DiceSource + Send + Sync>,
    seed: String,
    /// The latest entry's `seq` (staged or stored).
    seq: i64,
    /// The epoch this process took the table with; every append carries it.
    epoch: i64,
    /// Entries played since the last append, and what they change besides the log.
    staged: Vec<LogEntry>,
    staged_controllers: Vec<(Seat, Controller)>,
    staged_finish: Option<Finish>,
    seats: Vec<SeatState>,
    turn: Duration,
    away: Duration,
    takeover: TakeoverRule,
    /// Wall millis when the clock of the seat to act runs out.
    deadline: Option<i64>,
    finished: bool,
    store: Store,
    clock: Clock,
    events: broadcast::Sender<Arc<Broadcast>>,
    history: VecDeque<Arc<Broadcast>>,
}

fn replay_error(e: impl std::fmt::Display) -> PlayError {
    PlayError::Corrupt(e.to_string())
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
    ) -> Result<Self, PlayError> {
        let game_kind = GameKind::parse(&record.game).ok_or_else(|| replay_error("unknown game"))?;
        let seed = ServerSeed::from_hex(&record.seed).ok_or_else(|| replay_error("bad seed"))?;
        let fair = FairDice::new(seed, record.client_seed.clone(), 0);
        let mut dice: Box<dyn DiceSource + Send + Sync> = match &record.dice_script {
            Some(script) => Box::new(ScriptedDice::then(script.iter().copied(), fair)),
            None => Box::new(fair),
        };
        let (game, opening) = game_kind
            .start(&record.options, record.seat_count, &mut dice)
            .map_err(|e| replay_error(format!("cannot start the game: {e}")))?;
        let now = clock.now_millis();
        let seats = record
            .seats
            .iter()
            .map(|s| SeatState {
                player: s.player_id.map(|id| (id, s.player_name.clone().unwrap_or_default())),
                book: SeatBook::new(if s.player_id.is_some() { Controller::Human } else { Controller::Bot }),
                connections: 0,
                away_since: now,
            })
            .collect();
        let timers = config.timers;
        let (events, _) = broadcast::channel(SUBSCRIBER_QUEUE);
        let mut actor = Self {
            id: record.id,
            game_kind,
            game,
            dice,
            seed: record.seed.clone(),
            seq: 0,
            epoch,
            staged: vec![],
            staged_controllers: vec![],
            staged_finish: None,
            seats,
            turn: if record.party { timers.party_turn } else { timers.turn },
            away: timers.away,
            takeover: config.takeover,
            deadline: None,
            finished: false,
            store,
            clock,
            events,
            history: VecDeque::with_capacity(HISTORY),
        };
        let log = actor.store.entries(record.id, 0, i64::MAX).await?;
        if log.is_empty() {
            // The seeds the dice are drawn with, fixed at the start, for anyone to check
            // (docs/fairness.md). A table started before per-seat seeds (and stopped before its
            // first entry) drew with its host's seed: its seats' seeds are not what it uses.
            let seeds: Vec<&str> = record.seats.iter().map(|s| s.client_seed.as_str()).collect();
            let start = if combine_client_seeds(&seeds) == record.client_seed {
                let client_seeds = Some(seeds.iter().map(|s| s.to_string()).collect());
                TableEntry::Start { client_seeds, client_seed: Some(record.client_seed.clone()) }
            } else {
                TableEntry::Start { client_seeds: None, client_seed: None }
            };
            let entry = actor.entry(None, PlayedBy::Server, start.to_action(), opening);
            actor.stage(entry, Some(&start));
        } else {
            for entry in &log {
                actor.replay(entry)?;
            }
            // A clock that ran out while no process drove the table restarts with a full turn:
            // the player never had the chance to act.
            actor.deadline = record.turn_deadline.filter(|&d| d > now).or_else(|| actor.next_deadline());
        }
        actor.settle().await?;
        actor.flush().await?;
        Ok(actor)
    }

    /// Applies one logged entry again, exactly as it was first applied.
    fn replay(&mut self, entry: &LogEntry) -> Result<(), PlayError> {
        if entry.seq != self.seq + 1 {
            return Err(replay_error(format!("gap in the log before seq {}", entry.seq)));
        }
        let table = if entry.actor == PlayedBy::Server {
            let table = TableEntry::from_action(&entry.action).map_err(|e| {
                replay_error(format!("seq {}: unknown table entry {}: {e}", entry.seq, entry.action))
            })?;
            match table.seat() {
                Some(seat) if entry.seat != Some(seat) || seat >= self.seats.len() => {
                    return Err(replay_error(format!("seq {}: no seat {seat}", entry.seq)));
                }
                _ => {}
            }
            if let TableEntry::Finish { .. } = table {
                self.finished = true;
            }
            Some(table)
        } else {
            let seat = entry.seat.ok_or_else(|| replay_error("an action without a seat"))?;
            self.game
                .replay(seat, &entry.action, &mut self.dice)
                .map_err(|e| replay_error(format!("seq {}: {e}", entry.seq)))?;
            None
        };
        self.book(entry, table.as_ref());
        self.seq = entry.seq;
        self.remember(Arc::new(Broadcast { seq: Some(entry.seq), text: entry_message(entry).into() }));
        Ok(())
    }

    pub(super) async fn run(
        mut self,
        mut commands: mpsc::Receiver<Command>,
        mut stop: watch::Receiver<bool>,
    ) {
        loop {
            let deadline = self.deadline.filter(|_| !self.finished).map(|d| self.clock.instant_at(d));
            let idle = self.finished && self.events.receiver_count() == 0;
            tokio::select! {
                command = commands.recv() => {
                    // Closed, or another process took the table: stop, writing nothing more.
                    let Some(command) = command.filter(|c| !matches!(c, Command::Stop)) else { return };
                    if let Err(e) = self.handle(command).await {
                        tracing::error!(table = %self.id, error = %e, "table stopped; it will be reloaded from its log");
                        return;
                    }
                }
                _ = tokio::time::sleep_until(deadline.unwrap_or_else(tokio::time::Instant::now)), if deadline.is_some() => {
                    if let Err(e) = self.on_timeout().await {
                        tracing::error!(table = %self.id, error = %e, "table stopped; it will be reloaded from its log");
                        return;
                    }
                }
                _ = tokio::time::sleep(IDLE_AFTER_FINISH), if idle => return,
                _ = stop.changed() => return,
            }
        }
    }

    /// Handles one command. An `Err` means the store failed: the actor must stop.
    async fn handle(&mut self, command: Command) -> Result<(), PlayError> {
        match command {
            Command::Act { player, action, seq, reply } => {
                let result = self.act(player, action, seq).await;
                self.reply_then_settle(result, reply).await?;
            }
            Command::Reclaim { player, reply } => {
                let result = match self.seat_of(player) {
                    None => Err(PlayError::NotSeated),
                    // No entry ever follows `finish`.
                    Some(_) if self.finished => Err(PlayError::GameOver),
                    Some(seat) if self.seats[seat].book.controller != Controller::Bot => {
                        Err(PlayError::NotBotControlled)
                    }
                    Some(seat) => Ok(ActOk { seq: self.reclaim(seat), events: vec![] }),
                };
                self.reply_then_settle(result, reply).await?;
            }
            Command::View { viewer, reply } => {
                let _ = reply.send(self.view(viewer));
            }
            Command::Subscribe { player, reclaim, reply } => {
                let receiver = self.events.subscribe();
                let seat = player.and_then(|p| self.seat_of(p));
                if let Some(seat) = seat {
                    self.seats[seat].connections += 1;
                    self.broadcast_presence(seat);
                }
                let _ = reply.send(Subscription {
                    receiver,
                    seq: self.seq,
                    recent: self.history.iter().cloned().collect(),
                });
                let reclaimed =
                    |s: &Seat| reclaim && !self.finished && self.seats[*s].book.controller == Controller::Bot;
                if let Some(seat) = seat.filter(reclaimed) {
                    self.reclaim(seat);
                    self.settle().await?;
                    self.flush().await?;
                }
            }
            // The run loop stops before handling it.
            Command::Stop => {}
            Command::Disconnected { player } => {
                if let Some(seat) = self.seat_of(player) {
                    let s = &mut self.seats[seat];
                    s.connections = s.connections.saturating_sub(1);
                    if s.connections == 0 {
                        s.away_since = self.clock.now_millis();
                    }
                    self.broadcast_presence(seat);
                }
            }
        }
        Ok(())
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

    fn seat_of(&self, player: Uuid) -> Option<Seat> {
        self.seats.iter().position(|s| s.player.as_ref().is_some_and(|(id, _)| *id == player))
    }

    async fn act(&mut self, player: Uuid, action: Value, seq: i64) -> Result<ActOk, PlayError> {
        let seat = self.seat_of(player).ok_or(PlayError::NotSeated)?;
        if seq != self.seq {
            return Err(PlayError::StaleSeq { current: self.seq });
        }
        if self.finished {
            return Err(PlayError::GameOver);
        }
        // Acting takes the seat back from a bot; the action must still be legal.
        if self.seats[seat].book.controller == Controller::Bot
            && self.game.legal_action(seat, &action).is_ok()
        {
            self.reclaim(seat);
        }
        let seq = self.play(seat, action, PlayedBy::Human)?;
        let events = self.staged.last().map(|e| e.events.events.clone());
        Ok(ActOk { seq, events: events.unwrap_or_default() })
    }

    /// Applies an engine action for `seat` and stages its entry, with the action as the game
    /// lists it. Returns the new `seq`.
    fn play(&mut self, seat: Seat, action: Value, actor: PlayedBy) -> Result<i64, PlayError> {
        let Applied { action, events } =
            self.game.apply(seat, &action, &mut self.dice).map_err(|e| match e.kind {
                RuleErrorKind::NotYourTurn => PlayError::NotYourTurn(e.message),
                RuleErrorKind::GameOver => PlayError::GameOver,
                _ => PlayError::Illegal(e.message),
            })?;
        let entry = self.entry(Some(seat), actor, action, events);
        Ok(self.stage(entry, None))
    }

    /// Stages a table-level entry: takeover, reclaim or finish.
    fn table_entry(&mut self, table: TableEntry) -> i64 {
        let entry = self.entry(table.seat(), PlayedBy::Server, table.to_action(), vec![]);
        self.stage(entry, Some(&table))
    }

    /// The next entry; its `deadline` is set when it is staged.
    fn entry(&self, seat: Option<Seat>, actor: PlayedBy, action: Value, events: Vec<Value>) -> LogEntry {
        LogEntry {
            seq: self.seq + 1,
            seat,
            actor,
            action,
            events: EntryEvents {
                deadline: None,
                events,
                legal: self.legal_actions(),
                to_act: self.game.to_act(),
            },
            at: self.clock.now_millis(),
        }
    }

    /// What each seat may post now, by seat (nothing once the game is over).
    fn legal_actions(&self) -> Vec<Vec<Value>> {
        let over = self.finished || self.game.outcome().is_some();
        (0..self.seats.len()).map(|s| if over { vec![] } else { self.game.legal_actions(s) }).collect()
    }

    /// Takes an entry (and `table`, what it is if it is the table's own) as the table's latest,
    /// exactly as a replay of it would (its seat's book, then the clock for what comes next);
    /// it is stored and told at the next [`Self::flush`].
    fn stage(&mut self, mut entry: LogEntry, table: Option<&TableEntry>) -> i64 {
        if let Some(change) = self.book(&entry, table) {
            self.staged_controllers.push(change);
        }
        let deadline = self.next_deadline();
        entry.events.deadline = deadline;
        self.seq = entry.seq;
        self.deadline = deadline;
        self.staged.push(entry);
        self.seq
    }

    /// Books `entry` on its seat (live and on replay alike); returns the seat's new controller
    /// if the entry changed it.
    fn book(&mut self, entry: &LogEntry, table: Option<&TableEntry>) -> Option<(Seat, Controller)> {
        let change = SeatChange::of(entry.actor, table)?;
        let seat = entry.seat?;
        let book = &mut self.seats.get_mut(seat)?.book;
        let before = book.controller;
        book.apply(change);
        (book.controller != before).then_some((seat, book.controller))
    }

    /// Stores the staged entries (and what they change) in one append, then tells everyone.
    async fn flush(&mut self) -> Result<(), PlayError> {
        if self.staged.is_empty() {
            return Ok(());
        }
        let entries = std::mem::take(&mut self.staged);
        let append = Append {
            table_id: self.id,
            epoch: self.epoch,
            entries,
            deadline: self.deadline,
            controllers: std::mem::take(&mut self.staged_controllers),
            finish: self.staged_finish.take(),
        };
        let messages: Vec<Arc<Broadcast>> = append
            .entries
            .iter()
            .map(|e| Arc::new(Broadcast { seq: Some(e.seq), text: entry_message(e).into() }))
            .collect();
        let finished = append.finish.is_some();
        self.store.append(append).await?;
        if finished {
            tracing::info!(table = %self.id, "game over");
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
        let presence = self.presence(seat);
        let text = PresenceMessage::new(seat, presence).to_text();
        let _ = self.events.send(Arc::new(Broadcast { seq: None, text: text.into() }));
    }

    /// When the clock of the next decision runs out: `None` when nobody needs a clock (the
    /// game is over, or a bot or the server moves next).
    fn next_deadline(&self) -> Option<i64> {
        let seat = self.game.to_act()?;
        if self.game.outcome().is_some()
            || self.seats[seat].book.controller == Controller::Bot
            || self.game.forced_action().is_some()
        {
            return None;
        }
        Some(self.clock.now_millis() + self.turn.as_millis() as i64)
    }

    /// Plays bots and forced moves, records the end, and leaves the clock running for the next
    /// human decision.
    async fn settle(&mut self) -> Result<(), PlayError> {
        loop {
            if self.finished {
                return Ok(());
            }
            if let Some(outcome) = self.game.outcome() {
                self.finish(outcome);
                return Ok(());
            }
            let Some(seat) = self.game.to_act() else { return Ok(()) };
            let (action, actor) = if self.seats[seat].book.controller == Controller::Bot {
                (self.game.bot_action(seat), PlayedBy::Bot)
            } else if let Some(forced) = self.game.forced_action() {
                (Some(forced), PlayedBy::Forced)
            } else {
                if self.deadline.is_none() {
                    // A human decision with no clock yet (a seat reclaimed mid-turn, say).
                    self.deadline = self.next_deadline();
                }
                return Ok(());
            };
            let Some(action) = action else {
                return Err(replay_error(format!("no action for seat {seat} to play")));
            };
            if let Err(e) = self.play(seat, action, actor) {
                return Err(replay_error(format!("the {} chose an illegal action: {e}", actor.as_str())));
            }
            if self.staged.len() >= STAGED_AT_MOST {
                self.flush().await?;
            }
        }
    }

    /// The clock ran out: the bot plays for the seat; a bot takes the seat after three in a
    /// row, after too many of the player's recent decisions ([`TakeoverRule`]), or after one
    /// while the player has been away long enough.
    async fn on_timeout(&mut self) -> Result<(), PlayError> {
        let Some(seat) = self.game.to_act() else {
            self.deadline = None;
            return Ok(());
        };
        let Some(action) = self.game.bot_action(seat) else {
            return Err(replay_error("the bot found no action"));
        };
        self.play(seat, action, PlayedBy::Timeout)?;
        let now = self.clock.now_millis();
        let s = &self.seats[seat];
        let away = s.connections == 0 && now - s.away_since >= self.away.as_millis() as i64;
        let reason = s.book.takeover_due(&self.takeover).or(away.then_some(TakeoverReason::Away));
        if let (Some(reason), false) = (reason, self.finished || self.game.outcome().is_some()) {
            self.table_entry(TableEntry::Takeover { seat, reason });
        }
        self.settle().await?;
        self.flush().await
    }

    /// Hands `seat` back to its player (staged).
    fn reclaim(&mut self, seat: Seat) -> i64 {
        self.table_entry(TableEntry::Reclaim { seat })
    }

    /// Records the end of the game: the outcome, the revealed seed, the hall of shame.
    fn finish(&mut self, outcome: crate::rules::Outcome) {
        let outcome_json = serde_json::to_value(&outcome).unwrap_or(Value::Null);
        let mut shame = vec![];
        for entry in &outcome.shame {
            for &seat in &entry.seats {
                let (player_id, name) = match self.seats.get(seat).and_then(|s| s.player.clone()) {
                    Some((id, name)) => (Some(id), name),
                    None => (None, format!("Bot (seat {seat})")),
                };
                shame.push(NewShame {
                    game: self.game_kind.as_str().to_string(),
                    player_id,
                    name,
                    kind: match entry.kind {
                        crate::rules::ShameKind::Dicking => "dicking".into(),
                        crate::rules::ShameKind::UpBoard => "up_board".into(),
                    },
                    pieces_home: entry.pieces_home as i64,
                });
            }
        }
        let finish = TableEntry::Finish { outcome: outcome_json.clone(), seed: self.seed.clone() };
        self.finished = true;
        self.table_entry(finish);
        self.staged_finish = Some(Finish { outcome: outcome_json, shame });
    }

    fn presence(&self, seat: Seat) -> SeatPresence {
        let s = &self.seats[seat];
        SeatPresence {
            seat,
            controller: s.book.controller,
            connected: s.connections > 0,
            away_since: (s.connections == 0 && s.player.is_some()).then(|| rfc3339(s.away_since)),
            timeouts: s.book.timeouts_in_a_row,
        }
    }

    fn view(&self, viewer: Option<Uuid>) -> PlayView {
        let your_seat = viewer.and_then(|v| self.seat_of(v));
        PlayView {
            seq: self.seq,
            state: self.game.state(),
            to_act: if self.finished { None } else { self.game.to_act() },
            deadline: self.deadline.filter(|_| !self.finished).map(rfc3339),
            your_seat,
            legal_actions: match your_seat {
                Some(seat) if !self.finished => self.game.legal_actions(seat),
                _ => vec![],
            },
            seats: (0..self.seats.len()).map(|s| self.presence(s)).collect(),
            outcome: self.game.outcome().and_then(|o| serde_json::to_value(o).ok()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        config::Timers,
        store::{
            StartOutcome, now_millis,
            testing::{luddo_for_two, scratch_store},
        },
    };
    use proptest::prelude::*;
    use tokio::sync::oneshot;

    /// One thing that can happen to a 2-seat table in play.
    #[derive(Debug, Clone)]
    enum Step {
        /// The seat to act plays its legal action number `n` (modulo how many there are).
        Act(usize),
        Timeout,
        Reclaim(Seat),
        Connect {
            seat: Seat,
            reclaim: bool,
        },
        Disconnect(Seat),
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            3 => any::<usize>().prop_map(Step::Act),
            4 => Just(Step::Timeout),
            1 => (0..2usize).prop_map(Step::Reclaim),
            1 => (0..2usize, any::<bool>()).prop_map(|(seat, reclaim)| Step::Connect { seat, reclaim }),
            1 => (0..2usize).prop_map(Step::Disconnect),
        ]
    }

    /// Everything of a table that its log decides.
    fn logged(actor: &Actor) -> (i64, Value, Vec<SeatBook>, Option<i64>, bool) {
        let books = actor.seats.iter().map(|s| s.book.clone()).collect();
        (actor.seq, actor.game.state(), books, actor.deadline, actor.finished)
    }

    /// Runs `steps` on a live actor, then rebuilds the table from its log: the two must agree.
    async fn live_equals_replayed(steps: Vec<Step>) -> Result<(), TestCaseError> {
        let (store, _dir) = scratch_store().await;
        let mut players = vec![];
        for name in ["A", "B"] {
            players.push(store.create_player(name, &Uuid::new_v4().to_string()).await.unwrap().id);
        }
        let new = luddo_for_two(players[0]);
        store.create_table(&new, 0).await.unwrap();
        assert!(store.take_seat(new.id, 1, players[1], "").await.unwrap());
        let started = store.start_table(new.id, players[0], "me", false).await.unwrap();
        assert_eq!(started, StartOutcome::Started);
        // Away counts at once: a timeout while disconnected hands the seat over.
        let config = Arc::new(Config {
            timers: Timers { away: Duration::ZERO, ..Timers::default() },
            ..Config::default()
        });
        let load = || async {
            // A finished table cannot be taken (nor written to): 0 will do.
            let epoch = store.claim_table(new.id, "me", now_millis()).await.unwrap().unwrap_or(0);
            let record = store.table(new.id).await.unwrap().unwrap();
            Actor::load(record, epoch, store.clone(), config.clone(), Clock::new()).await.unwrap()
        };
        let mut live = load().await;
        for step in steps {
            match step {
                Step::Act(n) => {
                    let Some(seat) = live.game.to_act().filter(|_| !live.finished) else { continue };
                    let legal = live.game.legal_actions(seat);
                    let Some(action) = legal.get(n % legal.len().max(1)).cloned() else { continue };
                    let (reply, _) = oneshot::channel();
                    let command = Command::Act { player: players[seat], action, seq: live.seq, reply };
                    live.handle(command).await.unwrap();
                }
                Step::Timeout if !live.finished => live.on_timeout().await.unwrap(),
                Step::Timeout => {}
                Step::Reclaim(seat) => {
                    let (reply, _) = oneshot::channel();
                    live.handle(Command::Reclaim { player: players[seat], reply }).await.unwrap();
                }
                Step::Connect { seat, reclaim } => {
                    let (reply, _) = oneshot::channel();
                    let command = Command::Subscribe { player: Some(players[seat]), reclaim, reply };
                    live.handle(command).await.unwrap();
                }
                Step::Disconnect(seat) => {
                    live.handle(Command::Disconnected { player: players[seat] }).await.unwrap();
                }
            }
        }
        let replayed = load().await;
        prop_assert_eq!(logged(&live), logged(&replayed));
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        #[test]
        fn the_state_replayed_from_the_log_is_the_live_state(steps in prop::collection::vec(step(), 1..80)) {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            runtime.block_on(live_equals_replayed(steps))?;
        }
    }
}
