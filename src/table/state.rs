//! The synchronous core of a table in play: the game, its seats and their clocks, and the log
//! entries each step stages — no tokio, no store, no wall clock (every step is given `now`).
//!
//! It decides everything RULES.md §7 asks of an online table: which seat's clock runs and
//! until when, what a timeout plays, when a bot takes a seat (timeouts in a row, stalling, away)
//! and when the player gets it back, that bots and forced moves are played at once, and that
//! nothing follows the finish. Each step stages log entries; the actor ([`super::actor`])
//! takes them ([`Table::take_staged`]), stores them in one append and only then tells anyone.
//! A table is rebuilt by replaying its log through the same bookkeeping ([`Table::load`]), so
//! the state rebuilt from the log is the live state.

use super::{
    HISTORY,
    messages::{ActOk, PlayError, PlayView, SeatPresence},
    seats::{SeatBook, SeatChange},
};
use crate::{
    bots::Level,
    clock::rfc3339,
    config::{Config, TakeoverRule},
    games::{Applied, DynGame, GameKind, JsonText},
    rules::{
        Outcome, RuleErrorKind, Seat,
        dice::{FairDice, ScriptedDice, ServerSeed, combine_client_seeds, reveal_follows},
    },
    store::{
        Controller, EntryEvents, Finish, LogEntry, LoggedAction, NewShame, PlayedBy, TableEntry, TableRecord,
        TakeoverReason,
    },
};
use serde_json::Value;
use std::time::Duration;
use uuid::Uuid;

/// Staged entries written at once at most while bots play on (well under the subscribers'
/// queue, so a table of bots playing to its end does not make its followers lag).
const STAGED_AT_MOST: usize = 64;

/// One seat: who holds it, what the log says of it, and whether its player is here.
struct SeatState {
    player: Option<(Uuid, String)>,
    /// What the log says of the seat (controller, timeouts).
    book: SeatBook,
    /// Open connections of the player (not logged: a process starts with nobody connected).
    connections: u32,
    /// Wall millis since which the player has had no connection.
    away_since: i64,
    /// Fresh dice: the seat's dice chain, if its player committed one at a `fresh_dice` table.
    chain: Option<Chain>,
}

/// Where a seat's dice chain stands: its last link revealed (the committed head at first) and
/// how many were revealed. The next reveal `R` must have `SHA-256(R) = last`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Chain {
    last: String,
    reveals: u32,
}

/// What a table staged since it was last stored: one append, all of it or none of it.
#[derive(Debug)]
pub struct Staged {
    /// The next entries of the log, in order (at least one).
    pub entries: Vec<LogEntry>,
    /// Seats whose controller changed, in order.
    pub controllers: Vec<(Seat, Controller)>,
    /// The game ended with the last entry.
    pub finish: Option<Finish>,
    /// When the clock of the seat to act runs out after them.
    pub deadline: Option<i64>,
}

/// A table in play, as a plain value.
pub struct Table {
    game_kind: GameKind,
    game: Box<dyn DynGame>,
    /// The table's dice: a test's script first (if any), then the fair dice, which mix in the
    /// reveal of the entry being applied (fresh dice).
    dice: ScriptedDice<FairDice>,
    /// Fresh dice: whether the start entry lists the seats' chains.
    fresh_dice: bool,
    /// The server seed, hex; revealed in the `finish` entry.
    seed: String,
    /// The latest entry's `seq` (staged or stored).
    seq: i64,
    /// Entries played since the last [`Table::take_staged`], and what they change besides
    /// the log.
    staged: Vec<LogEntry>,
    staged_controllers: Vec<(Seat, Controller)>,
    staged_finish: Option<Finish>,
    seats: Vec<SeatState>,
    /// How well the bots of seats without a player play.
    bot_level: Level,
    turn: Duration,
    away: Duration,
    takeover: TakeoverRule,
    /// Wall millis when the clock of the seat to act runs out.
    deadline: Option<i64>,
    /// The log holds the `start` entry (the lobby's entries come before it).
    started: bool,
    finished: bool,
    /// The state after each of the last [`HISTORY`] replayed entries whose row has none (rows
    /// written before entries stored it), by `seq`: the actor puts it in the messages it
    /// keeps for reconnects ([`Table::take_replayed_states`]).
    replayed_states: Vec<(i64, JsonText)>,
}

fn replay_error(e: impl std::fmt::Display) -> PlayError {
    PlayError::Corrupt(e.to_string())
}

impl Table {
    /// Rebuilds a started table from its log, or stages its `start` entry if the log is empty.
    /// It may then have bots or forced moves to play: [`Table::settle`].
    pub fn load(
        record: &TableRecord,
        config: &Config,
        log: &[LogEntry],
        now: i64,
    ) -> Result<Self, PlayError> {
        let game_kind = record.game;
        let seed = ServerSeed::from_hex(&record.seed).ok_or_else(|| replay_error("bad seed"))?;
        let fair = FairDice::new(seed, record.client_seed.clone(), 0);
        let script = record.dice_script.iter().flatten().copied();
        let mut dice = ScriptedDice::then(script, fair);
        let (game, opening) = game_kind
            .start(&record.options, record.seat_count, &mut dice)
            .map_err(|e| replay_error(format!("cannot start the game: {e}")))?;
        let seats = record
            .seats
            .iter()
            .map(|s| SeatState {
                player: s.player_id.map(|id| (id, s.player_name.clone().unwrap_or_default())),
                book: SeatBook::new(if s.player_id.is_some() { Controller::Human } else { Controller::Bot }),
                connections: 0,
                away_since: now,
                chain: s
                    .dice_chain
                    .clone()
                    .filter(|_| record.fresh_dice && s.player_id.is_some())
                    .map(|last| Chain { last, reveals: 0 }),
            })
            .collect();
        let clock = record.clock(&config.timers);
        let mut table = Self {
            game_kind,
            game,
            dice,
            fresh_dice: record.fresh_dice,
            seed: record.seed.clone(),
            seq: 0,
            staged: vec![],
            staged_controllers: vec![],
            staged_finish: None,
            seats,
            bot_level: record.bot_level,
            turn: clock.turn,
            away: clock.away,
            takeover: config.takeover,
            deadline: None,
            started: false,
            finished: false,
            replayed_states: vec![],
        };
        // The lobby's entries (seats, settings) come first; they change nothing in play.
        let tail = log.len().saturating_sub(HISTORY);
        for (i, entry) in log.iter().enumerate() {
            table.replay(entry)?;
            if i >= tail && table.started && entry.events.state.is_none() {
                table.replayed_states.push((entry.seq, table.game.state_json()));
            }
        }
        if !table.started {
            // The seeds the dice are drawn with, fixed at the start, for anyone to check
            // (docs/fairness.md). A table started before per-seat seeds (and stopped before its
            // first entry) drew with its host's seed: its seats' seeds are not what it uses.
            let seeds: Vec<&str> = record.seats.iter().map(|s| s.client_seed.as_str()).collect();
            let dice_chains = table
                .fresh_dice
                .then(|| table.seats.iter().map(|s| s.chain.as_ref().map(|c| c.last.clone())).collect());
            let start = if combine_client_seeds(&seeds) == record.client_seed {
                let client_seeds = Some(seeds.iter().map(|s| s.to_string()).collect());
                TableEntry::Start { client_seeds, client_seed: Some(record.client_seed.clone()), dice_chains }
            } else {
                TableEntry::Start { client_seeds: None, client_seed: None, dice_chains }
            };
            let entry = table.entry(None, PlayedBy::Server, LoggedAction::Table(start), opening, now);
            table.started = true;
            table.stage(entry, now);
        } else {
            // A clock that ran out while no process drove the table restarts with a full turn:
            // the player never had the chance to act.
            table.deadline = record.turn_deadline.filter(|&d| d > now).or_else(|| table.next_deadline(now));
        }
        Ok(table)
    }

    /// Applies one logged entry again, exactly as it was first applied.
    fn replay(&mut self, entry: &LogEntry) -> Result<(), PlayError> {
        if entry.seq != self.seq + 1 {
            return Err(replay_error(format!("gap in the log before seq {}", entry.seq)));
        }
        match &entry.action {
            LoggedAction::Table(table) => {
                match table.seat() {
                    Some(seat) if entry.seat != Some(seat) || seat >= self.seats.len() => {
                        return Err(replay_error(format!("seq {}: no seat {seat}", entry.seq)));
                    }
                    _ => {}
                }
                match (table, self.started) {
                    (TableEntry::Lobby(_), true) => {
                        return Err(replay_error(format!(
                            "seq {}: a lobby entry after the start",
                            entry.seq
                        )));
                    }
                    (TableEntry::Lobby(_), false) => {}
                    (TableEntry::Start { .. }, _) => self.started = true,
                    (_, false) => {
                        return Err(replay_error(format!(
                            "seq {}: a table entry before the start",
                            entry.seq
                        )));
                    }
                    (TableEntry::Finish { .. }, true) => self.finished = true,
                    (_, true) => {}
                }
            }
            LoggedAction::Engine(action) => {
                if !self.started {
                    return Err(replay_error(format!("seq {}: an action before the start", entry.seq)));
                }
                let seat = entry.seat.ok_or_else(|| replay_error("an action without a seat"))?;
                let reveal = entry.events.reveal.clone();
                if let Some(reveal) = &reveal {
                    match self.seats.get(seat).and_then(|s| s.chain.as_ref()) {
                        Some(chain) if reveal_follows(reveal, &chain.last) => {}
                        _ => return Err(replay_error(format!("seq {}: a reveal off its chain", entry.seq))),
                    }
                }
                self.dice.then_mut().set_reveal(reveal.clone());
                let replayed = self.game.replay(seat, action, &mut self.dice);
                self.dice.then_mut().set_reveal(None);
                replayed.map_err(|e| replay_error(format!("seq {}: {e}", entry.seq)))?;
                if let Some(reveal) = reveal {
                    self.consume(seat, reveal);
                }
            }
        }
        self.book(entry);
        self.seq = entry.seq;
        Ok(())
    }

    /// The states [`Table::load`] rebuilt for the last entries of the log whose rows lack one
    /// (written before entries stored it), by `seq`.
    pub fn take_replayed_states(&mut self) -> Vec<(i64, JsonText)> {
        std::mem::take(&mut self.replayed_states)
    }

    /// The latest entry's `seq`.
    pub fn seq(&self) -> i64 {
        self.seq
    }

    /// Whether the game is over (its `finish` entry is staged or stored).
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// When the running clock runs out (wall millis); `None` when no clock runs.
    pub fn deadline(&self) -> Option<i64> {
        self.deadline.filter(|_| !self.finished)
    }

    /// The seat `player` holds here, if any.
    pub fn seat_of(&self, player: Uuid) -> Option<Seat> {
        self.seats.iter().position(|s| s.player.as_ref().is_some_and(|(id, _)| *id == player))
    }

    /// `player` posts `action`, seen at `seq`, with the next link of the seat's dice chain if
    /// it sent one (staged; [`Table::settle`] then plays on).
    pub fn act(
        &mut self,
        player: Uuid,
        action: Value,
        seq: i64,
        reveal: Option<String>,
        now: i64,
    ) -> Result<ActOk, PlayError> {
        let seat = self.seat_of(player).ok_or(PlayError::NotSeated)?;
        if seq < self.seq {
            return Err(PlayError::StaleSeq { current: self.seq });
        }
        if seq > self.seq {
            return Err(PlayError::SeqAhead { sent: seq, current: self.seq });
        }
        if self.finished {
            return Err(PlayError::GameOver);
        }
        // Fresh dice: an action of a chained seat that draws dice takes the chain's next link,
        // checked before anything is played; a reveal with an action that draws none is ignored.
        let reveal = match &self.seats[seat].chain {
            Some(chain) if self.game.draws_dice(seat, &action) => match reveal {
                None => return Err(PlayError::RevealRequired),
                Some(r) if !reveal_follows(&r, &chain.last) => return Err(PlayError::RevealMismatch),
                Some(r) => Some(r),
            },
            _ => None,
        };
        // Acting takes the seat back from a bot; the action must still be legal.
        if self.seats[seat].book.controller == Controller::Bot
            && self.game.legal_action(seat, &action).is_ok()
        {
            self.reclaim_seat(seat, now);
        }
        let seq = self.play_revealing(seat, action, PlayedBy::Human, reveal, now)?;
        let events = self.staged.last().map(|e| e.events.events.clone());
        Ok(ActOk { seq, events: events.unwrap_or_default() })
    }

    /// `player` takes their seat back from the bot (staged); never once the game is over.
    pub fn reclaim(&mut self, player: Uuid, now: i64) -> Result<ActOk, PlayError> {
        match self.seat_of(player) {
            None => Err(PlayError::NotSeated),
            // No entry ever follows `finish`.
            Some(_) if self.finished => Err(PlayError::GameOver),
            Some(seat) if self.seats[seat].book.controller != Controller::Bot => {
                Err(PlayError::NotBotControlled)
            }
            Some(seat) => Ok(ActOk { seq: self.reclaim_seat(seat, now), events: vec![] }),
        }
    }

    /// A connection of `player`'s opened; returns their seat (whose presence changed).
    pub fn connect(&mut self, player: Uuid) -> Option<Seat> {
        let seat = self.seat_of(player)?;
        self.seats[seat].connections += 1;
        Some(seat)
    }

    /// A connection of `player`'s closed; returns their seat (whose presence changed).
    pub fn disconnect(&mut self, player: Uuid, now: i64) -> Option<Seat> {
        let seat = self.seat_of(player)?;
        let s = &mut self.seats[seat];
        s.connections = s.connections.saturating_sub(1);
        if s.connections == 0 {
            s.away_since = now;
        }
        Some(seat)
    }

    /// How well the bot playing `seat` plays: the table's level for a seat bots filled, the
    /// strongest for a player's seat taken over. With no seat left to a human (bots play each
    /// other to the end, nobody to play against), `normal`: the searches of `strong` cost
    /// milliseconds a move, which a whole bot match would spend in one go on the actor.
    fn bot_level(&self, seat: Seat) -> Level {
        if self.seats.iter().all(|s| s.book.controller == Controller::Bot) {
            Level::Normal
        } else if self.seats[seat].player.is_some() {
            Level::Strong
        } else {
            self.bot_level
        }
    }

    /// The clock ran out: the bot plays for the seat; a bot takes the seat after three in a
    /// row, after too many of the player's recent decisions ([`TakeoverRule`]), or after one
    /// while the player has been away long enough. Staged; [`Table::settle`] then plays on.
    pub fn timeout(&mut self, now: i64) -> Result<(), PlayError> {
        let Some(seat) = self.game.to_act() else {
            self.deadline = None;
            return Ok(());
        };
        // Playing for a player who let the clock run out: the strongest bot.
        let Some(action) = self.game.bot_action(seat, Level::Strong) else {
            return Err(replay_error("the bot found no action"));
        };
        self.play(seat, action, PlayedBy::Timeout, now)?;
        let s = &self.seats[seat];
        let away = s.connections == 0 && now - s.away_since >= self.away.as_millis() as i64;
        let reason = s.book.takeover_due(&self.takeover).or(away.then_some(TakeoverReason::Away));
        if let (Some(reason), false) = (reason, self.finished || self.game.outcome().is_some()) {
            self.table_entry(TableEntry::Takeover { seat, reason }, now);
        }
        Ok(())
    }

    /// Plays bots and forced moves, records the end, and leaves the clock running for the next
    /// human decision. `Ok(true)` if it stopped early, with [`STAGED_AT_MOST`] entries staged:
    /// store them, then settle again.
    pub fn settle(&mut self, now: i64) -> Result<bool, PlayError> {
        loop {
            if self.finished {
                return Ok(false);
            }
            if let Some(outcome) = self.game.outcome() {
                self.finish(outcome, now);
                return Ok(false);
            }
            let Some(seat) = self.game.to_act() else { return Ok(false) };
            let (action, actor) = if self.seats[seat].book.controller == Controller::Bot {
                (self.game.bot_action(seat, self.bot_level(seat)), PlayedBy::Bot)
            } else if let Some(forced) = self.forced_action() {
                (Some(forced), PlayedBy::Forced)
            } else {
                if self.deadline.is_none() {
                    // A human decision with no clock yet (a seat reclaimed mid-turn, say).
                    self.deadline = self.next_deadline(now);
                }
                return Ok(false);
            };
            let Some(action) = action else {
                return Err(replay_error(format!("no action for seat {seat} to play")));
            };
            if let Err(e) = self.play(seat, action, actor, now) {
                return Err(replay_error(format!("the {} chose an illegal action: {e}", actor.as_str())));
            }
            if self.staged.len() >= STAGED_AT_MOST {
                return Ok(true);
            }
        }
    }

    /// What was staged since the last call, to be stored in one append; `None` if nothing.
    pub fn take_staged(&mut self) -> Option<Staged> {
        if self.staged.is_empty() {
            return None;
        }
        Some(Staged {
            entries: std::mem::take(&mut self.staged),
            controllers: std::mem::take(&mut self.staged_controllers),
            finish: self.staged_finish.take(),
            deadline: self.deadline,
        })
    }

    /// A seat's controller and presence.
    pub fn presence(&self, seat: Seat) -> SeatPresence {
        let s = &self.seats[seat];
        SeatPresence {
            seat,
            controller: s.book.controller,
            connected: s.connections > 0,
            away_since: (s.connections == 0 && s.player.is_some()).then(|| rfc3339(s.away_since)),
            timeouts: s.book.timeouts_in_a_row,
        }
    }

    /// The table as `viewer` sees it.
    pub fn view(&self, viewer: Option<Uuid>) -> PlayView {
        let your_seat = viewer.and_then(|v| self.seat_of(v));
        PlayView {
            seq: self.seq,
            state: self.game.state_json(),
            to_act: if self.finished { None } else { self.game.to_act() },
            deadline: self.deadline().map(rfc3339),
            your_seat,
            legal_actions: match your_seat {
                Some(seat) if self.listing() => self.game.legal_actions(seat),
                _ => vec![],
            },
            presence: (0..self.seats.len()).map(|s| self.presence(s)).collect(),
            outcome: self.game.outcome().and_then(|o| serde_json::to_value(o).ok()),
            reveals: self.seats.iter().map(|s| s.chain.as_ref().map_or(0, |c| c.reveals)).collect(),
        }
    }

    /// The move the server makes at once for the seat to act because there is no real
    /// choice; never one that draws dice for a chained seat its player holds (fresh dice: the
    /// player's own request brings the reveal).
    fn forced_action(&self) -> Option<Value> {
        let forced = self.game.forced_action()?;
        match self.game.to_act() {
            Some(seat)
                if self.seats[seat].chain.is_some()
                    && self.seats[seat].book.controller == Controller::Human
                    && self.game.draws_dice(seat, &forced) =>
            {
                None
            }
            _ => Some(forced),
        }
    }

    /// Applies an engine action for `seat` and stages its entry, with the action as the game
    /// lists it. Returns the new `seq`.
    fn play(&mut self, seat: Seat, action: Value, actor: PlayedBy, now: i64) -> Result<i64, PlayError> {
        self.play_revealing(seat, action, actor, None, now)
    }

    /// [`Table::play`], the dice drawn with `reveal` mixed in (checked by the caller against
    /// the seat's chain), which the entry then carries and the chain consumes.
    fn play_revealing(
        &mut self,
        seat: Seat,
        action: Value,
        actor: PlayedBy,
        reveal: Option<String>,
        now: i64,
    ) -> Result<i64, PlayError> {
        self.dice.then_mut().set_reveal(reveal.clone());
        let applied = self.game.apply(seat, &action, &mut self.dice);
        self.dice.then_mut().set_reveal(None);
        let Applied { action, events } = applied.map_err(|e| match e.kind {
            RuleErrorKind::GameOver => PlayError::GameOver,
            _ => PlayError::Rules(e),
        })?;
        let mut entry = self.entry(Some(seat), actor, LoggedAction::Engine(action), events, now);
        if let Some(reveal) = reveal {
            self.consume(seat, reveal.clone());
            entry.events.reveal = Some(reveal);
        }
        Ok(self.stage(entry, now))
    }

    /// `seat`'s chain moves one link back: `reveal` is its new last link.
    fn consume(&mut self, seat: Seat, reveal: String) {
        if let Some(chain) = self.seats.get_mut(seat).and_then(|s| s.chain.as_mut()) {
            chain.last = reveal;
            chain.reveals += 1;
        }
    }

    /// Stages a table-level entry: takeover, reclaim or finish.
    fn table_entry(&mut self, table: TableEntry, now: i64) -> i64 {
        let entry = self.entry(table.seat(), PlayedBy::Server, LoggedAction::Table(table), vec![], now);
        self.stage(entry, now)
    }

    /// Hands `seat` back to its player (staged).
    fn reclaim_seat(&mut self, seat: Seat, now: i64) -> i64 {
        self.table_entry(TableEntry::Reclaim { seat }, now)
    }

    /// The next entry; its `deadline` and `legal` are set when it is staged.
    fn entry(
        &self,
        seat: Option<Seat>,
        actor: PlayedBy,
        action: LoggedAction,
        events: Vec<Value>,
        now: i64,
    ) -> LogEntry {
        LogEntry {
            seq: self.seq + 1,
            seat,
            actor,
            action,
            events: EntryEvents {
                deadline: None,
                events,
                legal: vec![],
                state: Some(self.game.state_json()),
                to_act: self.game.to_act(),
                reveal: None,
            },
            at: now,
        }
    }

    /// Whether the table lists what seats may post: not once the game is over, nor while the
    /// server plays on at once, since a post would then find the table moved on (409
    /// `stale_seq`) whatever it chose.
    fn listing(&self) -> bool {
        !self.finished && !self.plays_on()
    }

    /// Whether [`Table::settle`] plays on from here without waiting for anyone: the finish, a
    /// bot's move or a forced move comes next.
    fn plays_on(&self) -> bool {
        if self.finished {
            return false;
        }
        self.game.outcome().is_some()
            || self.game.to_act().is_some_and(|seat| {
                self.seats[seat].book.controller == Controller::Bot || self.forced_action().is_some()
            })
    }

    /// What each seat may post now, by seat (see [`Table::listing`]).
    fn legal_actions(&self) -> Vec<JsonText> {
        let listing = self.listing();
        (0..self.seats.len())
            .map(|s| if listing { self.game.legal_actions_json(s) } else { JsonText::empty_list() })
            .collect()
    }

    /// Takes an entry as the table's latest, exactly as a replay of it would (its seat's book,
    /// then the clock and the lists for what comes next).
    fn stage(&mut self, mut entry: LogEntry, now: i64) -> i64 {
        if let Some(change) = self.book(&entry) {
            self.staged_controllers.push(change);
        }
        // Staged entries are stored and told together: one followed by another (a timeout by
        // the takeover it caused, a reclaim by the action that made it) was never a moment
        // anyone could act in.
        if let Some(previous) = self.staged.last_mut() {
            previous.events.legal = vec![JsonText::empty_list(); self.seats.len()];
        }
        entry.events.legal = self.legal_actions();
        let deadline = self.next_deadline(now);
        entry.events.deadline = deadline;
        self.seq = entry.seq;
        self.deadline = deadline;
        self.staged.push(entry);
        self.seq
    }

    /// Books `entry` on its seat (live and on replay alike); returns the seat's new controller
    /// if the entry changed it.
    fn book(&mut self, entry: &LogEntry) -> Option<(Seat, Controller)> {
        let change = SeatChange::of(entry.actor, entry.action.table())?;
        let seat = entry.seat?;
        let book = &mut self.seats.get_mut(seat)?.book;
        let before = book.controller;
        book.apply(change);
        (book.controller != before).then_some((seat, book.controller))
    }

    /// When the clock of the next decision runs out: `None` when nobody needs a clock (the
    /// game is over, or a bot or the server moves next).
    fn next_deadline(&self, now: i64) -> Option<i64> {
        let waits = self.game.to_act().is_some() && self.game.outcome().is_none() && !self.plays_on();
        waits.then(|| now + self.turn.as_millis() as i64)
    }

    /// Records the end of the game: the outcome, the revealed seed, the hall of shame.
    fn finish(&mut self, outcome: Outcome, now: i64) {
        let outcome_json = serde_json::to_value(&outcome).unwrap_or(Value::Null);
        let mut shame = vec![];
        for entry in &outcome.shame {
            for &seat in &entry.seats {
                let (player_id, name) = match self.seats.get(seat).and_then(|s| s.player.clone()) {
                    Some((id, name)) => (Some(id), name),
                    None => (None, format!("Bot (seat {seat})")),
                };
                shame.push(NewShame {
                    game: self.game_kind,
                    player_id,
                    name,
                    kind: entry.kind,
                    pieces_home: entry.pieces_home as i64,
                });
            }
        }
        self.finished = true;
        self.table_entry(TableEntry::Finish { outcome: outcome_json.clone(), seed: self.seed.clone() }, now);
        self.staged_finish =
            Some(Finish { game: self.game_kind, outcome: outcome_json, places: outcome.places, shame });
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::{
        config::Timers,
        store::{SeatRecord, TableStatus, Visibility},
    };
    use proptest::prelude::*;

    const T0: i64 = 1_700_000_000_000;

    /// A started Luddo table whose seat `s` has player `players[s]` (a bot where `None`).
    pub(in crate::table) fn record(players: &[Option<Uuid>]) -> TableRecord {
        let seed = ServerSeed::generate();
        let seats: Vec<SeatRecord> = players
            .iter()
            .enumerate()
            .map(|(seat, p)| SeatRecord {
                seat,
                player_id: *p,
                player_name: p.map(|_| format!("P{seat}")),
                controller: if p.is_some() { Controller::Human } else { Controller::Bot },
                joined_at: p.map(|_| T0),
                client_seed: String::new(),
                dice_chain: None,
            })
            .collect();
        TableRecord {
            id: Uuid::new_v4(),
            game: GameKind::Luddo,
            options: serde_json::json!({}),
            seat_count: players.len(),
            visibility: Visibility::Public,
            bot_level: Level::Strong,
            party: false,
            long_clock: false,
            fresh_dice: false,
            invite_code: None,
            status: TableStatus::Playing,
            host_id: Uuid::new_v4(),
            seed: seed.to_hex(),
            seed_commitment: seed.commitment(),
            client_seed: combine_client_seeds(&vec![""; players.len()]),
            dice_script: None,
            outcome: None,
            turn_deadline: None,
            created_at: T0,
            started_at: Some(T0),
            finished_at: None,
            rematch_id: None,
            bots_at: None,
            seats,
        }
    }

    /// A table driven the way its actor drives it, with the log it wrote.
    struct Fixture {
        table: Table,
        players: Vec<Uuid>,
        record: TableRecord,
        config: Config,
        log: Vec<LogEntry>,
        now: i64,
        /// Fresh dice: each seat's chain `[h_0, …, h_n]` (empty for a seat without one).
        links: Vec<Vec<String>>,
    }

    impl Fixture {
        fn new(humans: usize, config: Config) -> Self {
            Self::with_seed(humans, config, None)
        }

        /// A fixture whose dice come from `seed` (hex), when the test needs one game, not any.
        fn with_seed(humans: usize, config: Config, seed: Option<&str>) -> Self {
            Self::with_chains(humans, config, seed, &[])
        }

        /// A fresh-dice fixture: the seats in `chained` (of those with a player) commit to a
        /// chain of 64 links each.
        fn with_chains(humans: usize, config: Config, seed: Option<&str>, chained: &[Seat]) -> Self {
            let players: Vec<Uuid> = (0..humans).map(|_| Uuid::new_v4()).collect();
            let seats: Vec<Option<Uuid>> = (0..2).map(|s| players.get(s).copied()).collect();
            let mut record = record(&seats);
            if let Some(seed) = seed {
                record.seed = seed.to_string();
            }
            let mut links = vec![vec![]; 2];
            if !chained.is_empty() {
                record.fresh_dice = true;
                for &seat in chained {
                    links[seat] = crate::rules::dice::chain([seat as u8 + 1; 32], 64);
                    record.seats[seat].dice_chain = links[seat].last().cloned();
                }
            }
            let table = Table::load(&record, &config, &[], T0).unwrap();
            let mut f = Self { table, players, record, config, log: vec![], now: T0, links };
            f.settle();
            f
        }

        /// The next link `seat` reveals, if it has a chain.
        fn reveal(&self, seat: Seat) -> Option<String> {
            let links = &self.links[seat];
            let reveals = self.table.seats[seat].chain.as_ref()?.reveals as usize;
            links.get(links.len().checked_sub(2 + reveals)?).cloned()
        }

        /// Settles, then stores what was staged: returns the new entries.
        fn settle(&mut self) -> Vec<LogEntry> {
            let start = self.log.len();
            while self.table.settle(self.now).unwrap() {
                self.store();
            }
            self.store();
            self.log[start..].to_vec()
        }

        /// Stores what was staged, as the actor's flush does.
        fn store(&mut self) {
            if let Some(staged) = self.table.take_staged() {
                self.record.turn_deadline = staged.deadline;
                self.log.extend(staged.entries);
            }
        }

        fn to_act(&self) -> Option<Seat> {
            self.table.game.to_act().filter(|_| !self.table.finished)
        }

        /// The clock of the seat to act runs out.
        fn timeout(&mut self) -> Vec<LogEntry> {
            self.now += 15_000;
            self.table.timeout(self.now).unwrap();
            self.settle()
        }

        /// The seat to act plays its first legal action.
        fn act(&mut self) -> Vec<LogEntry> {
            let seat = self.to_act().unwrap();
            let action = self.table.game.legal_actions(seat)[0].clone();
            self.now += 1_000;
            let reveal = self.reveal(seat);
            self.table.act(self.players[seat], action, self.table.seq(), reveal, self.now).unwrap();
            self.settle()
        }

        fn takeover(entries: &[LogEntry]) -> Option<TableEntry> {
            entries
                .iter()
                .filter_map(|e| e.action.table())
                .find(|t| matches!(t, TableEntry::Takeover { .. }))
                .cloned()
        }

        /// Times the game out until a bot takes a seat; returns the takeover.
        fn time_out_until_takeover(&mut self) -> (Seat, TakeoverReason) {
            for _ in 0..50 {
                if let Some(TableEntry::Takeover { seat, reason }) = Self::takeover(&self.timeout()) {
                    return (seat, reason);
                }
            }
            panic!("no takeover");
        }
    }

    #[test]
    fn three_timeouts_in_a_row_hand_the_seat_over() {
        let mut f = Fixture::new(2, Config::default());
        for p in f.players.clone() {
            f.table.connect(p);
        }
        let (seat, reason) = f.time_out_until_takeover();
        assert_eq!(reason, TakeoverReason::Timeouts);
        let timeouts = f.log.iter().filter(|e| e.actor == PlayedBy::Timeout && e.seat == Some(seat)).count();
        assert_eq!(timeouts, 3);
        assert_eq!(f.table.presence(seat).controller, Controller::Bot);
        // The takeover is stored with the controller change.
        assert!(f.log.iter().all(|e| e.actor != PlayedBy::Bot || e.seat == Some(seat)));
    }

    #[test]
    fn four_timeouts_in_six_decisions_hand_the_seat_over_as_stalling() {
        let mut f = Fixture::new(2, Config::default());
        for p in f.players.clone() {
            f.table.connect(p);
        }
        // Seat 0 lets its clock run out on decisions 1, 2, 4 and 5; seat 1 always acts.
        let mut pattern = "TTHTT".chars();
        let mut decisions = 0;
        for _ in 0..100 {
            let entries = match f.to_act() {
                Some(0) => {
                    decisions += 1;
                    match pattern.next() {
                        Some('T') => f.timeout(),
                        Some(_) => f.act(),
                        None => panic!("no takeover after the pattern"),
                    }
                }
                Some(_) => f.act(),
                None => panic!("the game ended first"),
            };
            if let Some(TableEntry::Takeover { seat, reason }) = Fixture::takeover(&entries) {
                assert_eq!((seat, reason, decisions), (0, TakeoverReason::Stalling, 5));
                return;
            }
        }
        panic!("no takeover");
    }

    #[test]
    fn one_timeout_while_away_hands_the_seat_over() {
        let mut f = Fixture::new(2, Config::default());
        let seat = f.to_act().unwrap();
        f.table.connect(f.players[1 - seat]);
        // Away since the table was loaded; the timeout comes 15 s later: not away long enough.
        let entries = f.timeout();
        assert_eq!(Fixture::takeover(&entries), None);
        f.now += 45_000;
        while f.to_act() != Some(seat) {
            f.act();
        }
        let entries = f.timeout();
        assert_eq!(
            Fixture::takeover(&entries),
            Some(TableEntry::Takeover { seat, reason: TakeoverReason::Away })
        );
        assert_eq!(f.table.presence(1 - seat).controller, Controller::Human);
    }

    #[test]
    fn a_reclaim_hands_the_seat_back_and_starts_it_afresh() {
        let mut f = Fixture::new(2, Config::default());
        let (seat, _) = f.time_out_until_takeover();
        let player = f.players[seat];
        let ok = f.table.reclaim(player, f.now).unwrap();
        let entries = f.settle();
        assert_eq!(entries[0].seq, ok.seq);
        assert_eq!(entries[0].action, LoggedAction::Table(TableEntry::Reclaim { seat }));
        let presence = f.table.presence(seat);
        assert_eq!((presence.controller, presence.timeouts), (Controller::Human, 0));
        assert!(matches!(f.table.reclaim(player, f.now), Err(PlayError::NotBotControlled)));
        assert!(matches!(f.table.reclaim(Uuid::new_v4(), f.now), Err(PlayError::NotSeated)));
    }

    #[test]
    fn bots_and_forced_moves_are_played_at_once() {
        let mut f = Fixture::new(1, Config::default());
        f.table.connect(f.players[0]);
        for step in 0..40 {
            // Whenever the table waits, it waits for the human's own decision, on a clock.
            let Some(seat) = f.to_act() else { break };
            assert_eq!(seat, 0);
            assert!(f.table.game.forced_action().is_none());
            assert!(f.table.deadline().is_some());
            if step % 2 == 0 {
                f.act()
            } else {
                f.timeout()
            };
        }
        assert!(f.log.iter().filter(|e| e.seat == Some(1)).all(|e| e.actor == PlayedBy::Bot));
        assert!(f.log.iter().any(|e| e.actor == PlayedBy::Bot));
        // Clocks run for the human's decisions only.
        assert!(f.log.iter().filter(|e| e.events.deadline.is_some()).all(|e| e.events.to_act == Some(0)));
    }

    /// An entry lists only what its seats can still post: nothing where the server plays on at
    /// once (a forced move, a bot, a takeover, the finish), since a post with its `seq` would
    /// find the table moved on; the entry the table waits after lists what the view shows.
    #[test]
    fn an_entry_the_server_plays_on_from_at_once_lists_no_actions() {
        // One game, not any: with random dice the game now and then ended before the
        // timeouts that bring the takeover this test needs.
        let mut f = Fixture::with_seed(1, Config::default(), Some(&"5e".repeat(32)));
        f.table.connect(f.players[0]);
        let mut batches = vec![f.log.clone()];
        // Now and then a timeout (never enough for a takeover), then timeouts until a bot takes
        // the seat and the bots play to the end.
        for step in 0..1_000 {
            if f.to_act().is_none() {
                break;
            }
            batches.push(if step < 60 && step % 5 != 4 { f.act() } else { f.timeout() });
        }
        assert!(f.table.finished());
        for actor in [PlayedBy::Forced, PlayedBy::Bot, PlayedBy::Timeout] {
            assert!(f.log.iter().any(|e| e.actor == actor), "no {} entry came up", actor.as_str());
        }
        assert!(Fixture::takeover(&f.log).is_some());
        let nothing = vec![JsonText::empty_list(); 2];
        for batch in &batches {
            let (last, followed) = batch.split_last().unwrap();
            for entry in followed {
                assert_eq!(entry.events.legal, nothing, "entry {} is followed at once", entry.seq);
            }
            if f.table.finished() && last.seq == f.table.seq() {
                continue;
            }
            let waiting = last.events.to_act.unwrap();
            assert_ne!(last.events.legal[waiting], JsonText::empty_list(), "entry {}", last.seq);
        }
        let view = f.table.view(Some(f.players[0]));
        let last = f.log.last().unwrap();
        assert_eq!(JsonText::of(&view.legal_actions), last.events.legal[0]);
    }

    #[test]
    fn bots_of_empty_seats_play_at_the_tables_level_takeovers_strong_and_bots_alone_normal() {
        let player = Uuid::new_v4();
        for level in [Level::Easy, Level::Normal, Level::Strong] {
            let mut r = record(&[Some(player), None]);
            r.bot_level = level;
            let mut table = Table::load(&r, &Config::default(), &[], T0).unwrap();
            assert_eq!(table.bot_level(0), Level::Strong, "the player's seat, if a bot takes it over");
            assert_eq!(table.bot_level(1), level, "the seat a bot filled");
            // Taken over: bots play each other, at the cheaper level.
            table.seats[0].book.controller = Controller::Bot;
            assert_eq!(table.bot_level(0), Level::Normal);
            assert_eq!(table.bot_level(1), Level::Normal);
        }
    }

    #[test]
    fn nothing_follows_the_finish() {
        let mut f = Fixture::new(1, Config::default());
        // Three timeouts hand seat 0 to a bot, and the bots play to the end.
        f.time_out_until_takeover();
        assert!(f.table.finished());
        let last = f.log.last().unwrap();
        assert!(matches!(last.action, LoggedAction::Table(TableEntry::Finish { .. })));
        assert!(last.events.legal.iter().all(|l| l.get() == "[]"));
        assert_eq!(f.table.deadline(), None);
        let player = f.players[0];
        assert!(matches!(f.table.reclaim(player, f.now), Err(PlayError::GameOver)));
        let seq = f.table.seq();
        assert!(matches!(
            f.table.act(player, serde_json::json!({"type": "roll"}), seq, None, f.now),
            Err(PlayError::GameOver)
        ));
        assert!(!f.table.settle(f.now).unwrap());
        assert!(f.table.take_staged().is_none());
    }

    #[test]
    fn a_clock_that_ran_out_while_no_server_drove_the_table_restarts() {
        let mut f = Fixture::new(2, Config::default());
        let stored = f.record.turn_deadline.unwrap();
        let later = stored + 60_000;
        let table = Table::load(&f.record, &f.config, &f.log, later).unwrap();
        assert_eq!(table.deadline(), Some(later + 15_000));
        f.record.turn_deadline = Some(stored);
        let table = Table::load(&f.record, &f.config, &f.log, stored - 1).unwrap();
        assert_eq!(table.deadline(), Some(stored));
    }

    /// The lobby's entries before the start (written by the store): the start follows them in
    /// the same numbering, and a log beginning with them replays to the live state; one after
    /// the start is a corrupt log.
    #[test]
    fn the_lobbys_entries_come_before_the_start_and_replay() {
        use crate::store::LobbyEntry;
        let players = [Uuid::new_v4(), Uuid::new_v4()];
        let record = record(&[Some(players[0]), Some(players[1])]);
        let config = Config::default();
        let lobby: Vec<LogEntry> = [
            LobbyEntry::SeatTaken { seat: 0, player_id: players[0], name: "P0".into() },
            LobbyEntry::SeatTaken { seat: 1, player_id: players[1], name: "P1".into() },
        ]
        .iter()
        .enumerate()
        .map(|(i, l)| LogEntry {
            seq: i as i64 + 1,
            seat: l.seat(),
            actor: PlayedBy::Server,
            action: LoggedAction::Table(TableEntry::Lobby(l.clone())),
            events: EntryEvents::default(),
            at: T0,
        })
        .collect();
        let mut table = Table::load(&record, &config, &lobby, T0).unwrap();
        while table.settle(T0).unwrap() {}
        let staged = table.take_staged().unwrap().entries;
        assert_eq!(staged[0].seq, 3);
        assert!(matches!(staged[0].action, LoggedAction::Table(TableEntry::Start { .. })));
        let log: Vec<LogEntry> = lobby.iter().chain(&staged).map(stored).collect();
        let replayed = Table::load(&record, &config, &log, T0).unwrap();
        assert_eq!(logged(&replayed), logged(&table));
        assert!(replayed.staged.is_empty(), "nothing to write again");

        let mut late = lobby[0].clone();
        late.seq = log.len() as i64 + 1;
        let corrupt = [log, vec![late]].concat();
        assert!(matches!(Table::load(&record, &config, &corrupt, T0), Err(PlayError::Corrupt(_))));
    }

    /// A log as older servers wrote it (a start entry without seeds, entries without `legal`
    /// or `state`) still replays, to the same state.
    #[test]
    fn old_logs_replay() {
        let mut f = Fixture::new(2, Config::default());
        f.time_out_until_takeover();
        for _ in 0..10 {
            if f.to_act().is_none() {
                break;
            }
            f.act();
        }
        let old: Vec<LogEntry> = f
            .log
            .iter()
            .map(|e| {
                let action = match e.action {
                    LoggedAction::Table(TableEntry::Start { .. }) => LoggedAction::Table(TableEntry::Start {
                        client_seeds: None,
                        client_seed: None,
                        dice_chains: None,
                    }),
                    _ => e.action.clone(),
                };
                let events = serde_json::json!({
                    "events": e.events.events, "to_act": e.events.to_act, "deadline": e.events.deadline,
                });
                LogEntry { action, events: serde_json::from_str(&events.to_string()).unwrap(), ..e.clone() }
            })
            .collect();
        let mut replayed = Table::load(&f.record, &f.config, &old, f.now).unwrap();
        assert_eq!(logged(&replayed), logged(&f.table));
        // Their rows have no state: the replay rebuilt it, as the live entries carried it.
        let rebuilt = replayed.take_replayed_states();
        let tail = &f.log[f.log.len().saturating_sub(HISTORY)..];
        assert_eq!(rebuilt.len(), tail.len());
        for ((seq, state), live) in rebuilt.iter().zip(tail) {
            assert_eq!((*seq, Some(state)), (live.seq, live.events.state.as_ref()));
        }
    }

    /// Fresh dice: a chained seat's roll needs the next link (422 `reveal_required` without,
    /// `reveal_mismatch` with a wrong one, nothing played either way); the right one is
    /// consumed and logged, and its dice are the recipe's with it; the server never rolls for
    /// the seat on its own, but a timeout does, from its own source.
    #[test]
    fn a_chained_seats_roll_takes_its_next_link() {
        let mut f = Fixture::with_chains(2, Config::default(), None, &[0, 1]);
        let start = f.log.iter().find_map(|e| match &e.action {
            LoggedAction::Table(TableEntry::Start { dice_chains, .. }) => dice_chains.clone(),
            _ => None,
        });
        assert_eq!(start, Some(vec![f.links[0].last().cloned(), f.links[1].last().cloned()]));
        let seat = f.to_act().unwrap();
        let player = f.players[seat];
        // Waiting for the roll: the server does not roll (no forced roll), a clock runs.
        assert!(f.table.deadline().is_some());
        let roll = f.table.game.legal_actions(seat)[0].clone();
        assert!(f.table.game.draws_dice(seat, &roll));
        let seq = f.table.seq();
        assert!(matches!(
            f.table.act(player, roll.clone(), seq, None, f.now),
            Err(PlayError::RevealRequired)
        ));
        let wrong = f.links[seat][0].clone();
        assert!(matches!(
            f.table.act(player, roll.clone(), seq, Some(wrong), f.now),
            Err(PlayError::RevealMismatch)
        ));
        assert_eq!((f.table.seq(), f.table.take_staged().is_none()), (seq, true), "nothing played");
        let reveal = f.reveal(seat).unwrap();
        f.table.act(player, roll, seq, Some(reveal.clone()), f.now).unwrap();
        let entries = f.settle();
        assert_eq!(entries[0].events.reveal.as_deref(), Some(reveal.as_str()));
        assert_eq!(f.table.seats[seat].chain.as_ref().unwrap().reveals, 1);
        assert_eq!(f.table.view(None).reveals[seat], 1);
        // A timeout rolls from the server's source: no reveal consumed.
        while f.to_act().is_some() {
            let entries = f.timeout();
            if entries.iter().any(|e| e.actor == PlayedBy::Timeout && e.events.reveal.is_some()) {
                panic!("a timeout consumed a reveal");
            }
            if f.table.seats.iter().any(|s| s.book.controller == Controller::Bot) {
                break;
            }
        }
        let replayed = Table::load(&f.record, &f.config, &f.log, f.now).unwrap();
        assert_eq!(logged(&replayed), logged(&f.table));
    }

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

    /// Everything of a table that its log decides: its seq, state, seats (book and dice
    /// chain), clock and end.
    type Logged = (i64, Value, Vec<(SeatBook, Option<Chain>)>, Option<i64>, bool);

    /// Everything of a table that its log decides.
    fn logged(table: &Table) -> Logged {
        let books = table.seats.iter().map(|s| (s.book.clone(), s.chain.clone())).collect();
        (table.seq, table.game.state(), books, table.deadline, table.finished)
    }

    /// An entry as the store gives it back: its JSON columns written out and read again.
    fn stored(entry: &LogEntry) -> LogEntry {
        let events = serde_json::to_string(&entry.events).unwrap();
        LogEntry {
            action: LoggedAction::parse(entry.actor, &entry.action.to_text()).unwrap(),
            events: serde_json::from_str(&events).unwrap(),
            ..entry.clone()
        }
    }

    /// Runs `steps` on a live table as its actor would, then rebuilds the table from its log:
    /// the two must agree.
    fn live_equals_replayed(steps: Vec<Step>, chained: &[Seat]) -> Result<(), TestCaseError> {
        // Away counts at once: a timeout while disconnected hands the seat over.
        let config =
            Config { timers: Timers { away: Duration::ZERO, ..Timers::default() }, ..Config::default() };
        let mut f = Fixture::with_chains(2, config, None, chained);
        for step in steps {
            f.now += 1_000;
            let now = f.now;
            match step {
                Step::Act(n) => {
                    let Some(seat) = f.to_act() else { continue };
                    let legal = f.table.game.legal_actions(seat);
                    let Some(action) = legal.get(n % legal.len().max(1)).cloned() else { continue };
                    let seq = f.table.seq();
                    let reveal = f.reveal(seat);
                    if f.table.act(f.players[seat], action, seq, reveal, now).is_ok() {
                        f.settle();
                    }
                }
                Step::Timeout if !f.table.finished() => {
                    f.table.timeout(now).unwrap();
                    f.settle();
                }
                Step::Timeout => {}
                Step::Reclaim(seat) => {
                    if f.table.reclaim(f.players[seat], now).is_ok() {
                        f.settle();
                    }
                }
                Step::Connect { seat, reclaim } => {
                    f.table.connect(f.players[seat]);
                    if reclaim && f.table.reclaim(f.players[seat], now).is_ok() {
                        f.settle();
                    }
                }
                Step::Disconnect(seat) => {
                    f.table.disconnect(f.players[seat], now);
                }
            }
            // Whatever a refused command staged is stored too (the actor flushes, not settles).
            f.store();
        }
        let log: Vec<LogEntry> = f.log.iter().map(stored).collect();
        prop_assert_eq!(&log, &f.log);
        let mut replayed = Table::load(&f.record, &f.config, &log, f.now).unwrap();
        prop_assert!(!replayed.settle(f.now).unwrap());
        prop_assert!(replayed.take_staged().is_none());
        prop_assert_eq!(logged(&f.table), logged(&replayed));
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        #[test]
        fn the_state_replayed_from_the_log_is_the_live_state(steps in prop::collection::vec(step(), 1..80)) {
            live_equals_replayed(steps, &[])?;
        }

        /// Fresh dice: random games (seats with and without chains, the players' own moves,
        /// timeouts, bots after takeovers) played to the end verify with `luddo verify`'s
        /// function, every die of them and every reveal.
        #[test]
        fn every_die_of_a_fresh_dice_table_verifies(
            steps in prop::collection::vec(step(), 1..60),
            chained in prop::sample::subsequence(vec![0usize, 1], 0..=2),
        ) {
            let config = Config { timers: Timers { away: Duration::ZERO, ..Timers::default() }, ..Config::default() };
            let mut f = Fixture::with_chains(2, config, None, &chained);
            f.record.fresh_dice = true;
            for step in steps.into_iter().chain(std::iter::repeat_n(Step::Timeout, 2_000)) {
                if f.table.finished() {
                    break;
                }
                f.now += 1_000;
                match step {
                    Step::Act(n) => {
                        let Some(seat) = f.to_act() else { continue };
                        let legal = f.table.game.legal_actions(seat);
                        let Some(action) = legal.get(n % legal.len().max(1)).cloned() else { continue };
                        let (seq, reveal) = (f.table.seq(), f.reveal(seat));
                        if f.table.act(f.players[seat], action, seq, reveal, f.now).is_ok() {
                            f.settle();
                        }
                    }
                    Step::Reclaim(seat) => {
                        if f.table.reclaim(f.players[seat], f.now).is_ok() {
                            f.settle();
                        }
                    }
                    _ => {
                        f.table.timeout(f.now).unwrap();
                        f.settle();
                    }
                }
            }
            prop_assert!(f.table.finished());
            let entries: Vec<Value> = f
                .log
                .iter()
                .map(|e| serde_json::from_str(&crate::table::EntryMessage::new(e).to_text()).unwrap())
                .collect();
            let seats: Vec<Value> = f
                .record
                .seats
                .iter()
                .map(|s| serde_json::json!({"client_seed": s.client_seed, "dice_chain": s.dice_chain}))
                .collect();
            let table = serde_json::json!({"seed_commitment": f.record.seed_commitment, "seed": f.record.seed,
                "client_seed": f.record.client_seed, "seats": seats});
            let verified = crate::verify::verify(&crate::verify::TableLog::new(table, entries));
            prop_assert!(verified.is_ok(), "{:?}", verified);
            let reveals = f.log.iter().filter(|e| e.events.reveal.is_some()).count() as u64;
            prop_assert_eq!(verified.unwrap().reveals, reveals);
        }

        /// Fresh dice: seats with chains, their reveals consumed live and re-supplied by the
        /// log on replay, give the same table.
        #[test]
        fn a_fresh_dice_table_replayed_from_its_log_is_the_live_table(
            steps in prop::collection::vec(step(), 1..80),
            chained in prop::sample::subsequence(vec![0usize, 1], 1..=2),
        ) {
            live_equals_replayed(steps, &chained)?;
        }
    }
}
