//! Uckers: the Royal Navy's partnered two-dice Ludo (RULES.md §5; the rules as implemented,
//! with every choice where the sources are silent, are in docs/rules/uckers.md).
//!
//! - [`board`]: the square board, colours, partnerships and pieces.
//! - [`options`]: the table options.
//! - [`action`]: actions and events (the JSON a client sees).
//! - `moves`: how one piece moves, and the distinct plays of a throw.
//! - `challenges`: challenges against blobs, from declaration to capture or lapse.
//! - `declarations`: what a player declares before throwing (snake eyes, suck-backs,
//!   blow-backs, stand-up finishes).
//! - `explain`: why a refused action is refused, in a player's words.
//!
//! This file holds the state and the turn: a throw, a play, the end of a throw, and
//! [`Engine::apply`], which hands each action to the rule it belongs to.
//!
//! Turns belong to colours, clockwise: yellow, red, green, blue. With four seats each seat plays
//! one colour (seat = arm); with two seats, seat 0 plays yellow and green, seat 1 red and blue,
//! each colour on its own turn.

pub mod action;
pub mod board;
mod challenges;
mod declarations;
mod explain;
mod moves;
pub mod options;

#[cfg(test)]
mod props;
#[cfg(test)]
mod tests;

pub use action::{Action, Event, ForfeitReason, Step};
pub use board::{Board, Colour, HOME, Partnership, Piece, PieceId};
pub use challenges::Challenge;
pub use options::{SnakeEyes, UckersOptions};

use super::{DiceSource, Engine, ExtraRollReason, Outcome, RuleError, Seat, ShameEntry, ShameKind, opening};
use board::track_square;
use moves::{Effect, Mover};
use serde::{Deserialize, Serialize};

/// The whole state of one game of Uckers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Uckers {
    options: UckersOptions,
    /// 2 or 4.
    seats: usize,
    board: Board,
    /// The colour whose turn it is.
    turn: Colour,
    phase: Phase,
    /// Per colour (yellow, red, green, blue): what the rules remember about it.
    colours: [ColourState; 4],
    /// The seat that up-boarded, if the game ended that way.
    resigned: Option<Seat>,
    /// The partnership that won, once the game is over.
    winner: Option<Partnership>,
}

/// What the game waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The colour to play throws (or declares something before throwing).
    Roll,
    /// The dice are thrown; the colour to play chooses how to use them.
    Play { dice: [u8; 2] },
    /// The game is over.
    Over,
}

/// What the rules remember about one colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ColourState {
    /// Throws this colour has made (the opening excluded): snake eyes counts first and second
    /// throws.
    pub throws: u32,
    /// WAFU: "snake eyes" was called before the first throw.
    pub called_snake_eyes: bool,
    /// Snake eyes on the first throw brought pieces out; snake eyes on the second sends them
    /// back.
    pub snake_eyes_out: bool,
    /// All four home and the 6 thrown: this colour now moves its partner's pieces.
    pub helping: bool,
    /// The challenge this colour has declared and that still stands.
    pub challenge: Option<Challenge>,
}

impl Uckers {
    /// A game set up in any legal position, `turn`'s colour to throw. For tests, puzzles and
    /// analysis: every colour counts as having thrown twice (no snake-eyes rule applies) and no
    /// challenge stands. `pieces[colour][i]` is each piece's progress (`None` = base).
    pub fn from_position(
        options: UckersOptions,
        seats: usize,
        turn: Colour,
        pieces: [[Option<u8>; 4]; 4],
    ) -> Result<Self, RuleError> {
        Self::validate(&options, seats)?;
        let mut board = Board::default();
        for c in Colour::ALL {
            for (i, &p) in pieces[c.index()].iter().enumerate() {
                if p.is_some_and(|p| p > HOME) {
                    return Err(RuleError::invalid_options(format!("progress runs from 0 to {HOME}")));
                }
                board.set(PieceId::new(c, i as u8), p);
            }
        }
        for square in 0..board::TRACK_LEN {
            let c = board.counts(square);
            if (c[0] + c[2] > 0) && (c[1] + c[3] > 0) {
                return Err(RuleError::invalid_options(format!("opponents cannot share square {square}")));
            }
        }
        let colours = [ColourState { throws: 2, ..ColourState::default() }; 4];
        Ok(Self { options, seats, board, turn, phase: Phase::Roll, colours, resigned: None, winner: None })
    }

    pub fn options(&self) -> &UckersOptions {
        &self.options
    }

    pub fn seats(&self) -> usize {
        self.seats
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The colour whose turn it is.
    pub fn turn(&self) -> Colour {
        self.turn
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn colour_state(&self, colour: Colour) -> &ColourState {
        &self.colours[colour.index()]
    }

    pub fn winner(&self) -> Option<Partnership> {
        self.winner
    }

    /// The seat that plays `colour`.
    pub fn seat_of(&self, colour: Colour) -> Seat {
        colour.index() % self.seats.max(1)
    }

    /// The partnership a seat plays for.
    pub fn partnership_of(&self, seat: Seat) -> Partnership {
        Colour::from_index(seat).partnership()
    }

    /// The seats of a partnership.
    pub fn seats_of(&self, partnership: Partnership) -> Vec<Seat> {
        let mut seats: Vec<Seat> = partnership.colours().iter().map(|&c| self.seat_of(c)).collect();
        seats.dedup();
        seats
    }

    /// The colour whose pieces move this turn: the turn's own, or its partner's once the turn's
    /// colour has finished and thrown its 6.
    pub fn playing_colour(&self) -> Colour {
        if self.colours[self.turn.index()].helping { self.turn.partner() } else { self.turn }
    }

    fn mover(&self) -> Mover<'_> {
        Mover {
            options: &self.options,
            turn: self.turn,
            playing: self.playing_colour(),
            frozen: self.options.superblobs && !moves::deadlocked(&self.options, &self.board),
            challenges: self.colours.map(|c| c.challenge),
        }
    }

    /// The turn's colour has all four home and still waits for its 6.
    fn throwing_for_six(&self) -> bool {
        self.board.all_home(self.turn) && !self.colours[self.turn.index()].helping
    }

    /// The distinct choices for a thrown pair of dice.
    fn choices(&self, dice: [u8; 2]) -> Vec<Action> {
        let mover = self.mover();
        let mut out = mover.plays(&self.board, dice);
        if dice.contains(&6) {
            let challenges = mover.challenges(&self.board);
            if out.is_empty() && !challenges.is_empty() {
                out.extend(challenges);
                out.push(Action::Pass);
            } else {
                out.extend(challenges);
            }
        }
        out
    }

    fn throw(&mut self, dice: &mut dyn DiceSource, events: &mut Vec<Event>) -> [u8; 2] {
        let thrown = [dice.die(), dice.die()];
        self.colours[self.turn.index()].throws += 1;
        events.push(Event::Rolled { seat: self.seat_of(self.turn), colour: self.turn, dice: thrown });
        thrown
    }

    /// Everything a throw does before the player chooses: snake eyes, a finished player's
    /// throw for a 6, a standing challenge, or no legal move at all.
    fn after_throw(&mut self, dice: [u8; 2], events: &mut Vec<Event>) {
        let t = self.turn;
        let has_six = dice.contains(&6);
        if dice == [1, 1] && self.snake_eyes(events) {
            return;
        }
        if self.throwing_for_six() {
            events.push(Event::DiceForfeited { dice: dice.to_vec(), reason: ForfeitReason::ThrowingForSix });
            if has_six {
                self.colours[t.index()].helping = true;
                events.push(Event::PartnerUnlocked { colour: t, partner: t.partner() });
            }
            return self.pass_turn(events);
        }
        if let Some(ch) = self.colours[t.index()].challenge {
            return self.count_sixes(ch, dice, events);
        }
        self.phase = Phase::Play { dice };
        if self.choices(dice).is_empty() {
            events.push(Event::DiceForfeited { dice: dice.to_vec(), reason: ForfeitReason::NoLegalMove });
            self.end_throw(has_six, events);
        }
    }

    /// Makes one piece's move and reports it.
    fn make(&mut self, effect: &Effect, events: &mut Vec<Event>) {
        moves::apply(&mut self.board, effect);
        let piece = effect.piece;
        let landing = track_square(piece.colour, effect.to);
        if effect.from.is_none() {
            events.push(Event::Entered { piece, square: piece.colour.start_square() });
        }
        for &captured in &effect.captures {
            events.push(Event::Captured {
                seat: self.seat_of(piece.colour),
                square: landing.unwrap_or(0),
                piece: captured,
                by: piece,
            });
        }
        if effect.to == HOME {
            events.push(Event::PieceHome { seat: self.seat_of(piece.colour), piece });
            if self.board.all_home(piece.colour) {
                events.push(Event::ColourHome { colour: piece.colour });
            }
        }
    }

    /// Plays a `Move` or `Total` (already checked to be legal), its steps in the order given:
    /// a challenge against the mover's blob lapses on that order (RULES §5 rule 7).
    fn play(&mut self, action: &Action, dice: [u8; 2], events: &mut Vec<Event>) {
        let mut used = Vec::new();
        // The play was checked against the board before it: so is every step (a superblob
        // freed by a deadlock stays free for the whole play).
        let options = self.options.clone();
        let mover = Mover { options: &options, ..self.mover() };
        match action {
            Action::Move { steps } => {
                for s in steps {
                    let Ok(effect) = mover.step(&self.board, s.piece, s.die) else {
                        continue;
                    };
                    if let Some(from) = effect.from {
                        events.push(Event::Moved { piece: s.piece, dice: vec![s.die], from, to: effect.to });
                    }
                    self.make(&effect, events);
                    self.check_challenges(events);
                    used.push(s.die);
                }
            }
            Action::Total { piece } => {
                let total = dice[0] + dice[1];
                if let Ok(effect) = mover.advance(&self.board, *piece, total) {
                    events.push(Event::Moved {
                        piece: *piece,
                        dice: dice.to_vec(),
                        from: effect.from.unwrap_or(0),
                        to: effect.to,
                    });
                    self.make(&effect, events);
                    self.check_challenges(events);
                    used.extend(dice);
                }
            }
            _ => {}
        }
        let mut unused = dice.to_vec();
        for d in used {
            if let Some(i) = unused.iter().position(|&u| u == d) {
                unused.remove(i);
            }
        }
        if !unused.is_empty() {
            events.push(Event::DiceForfeited { dice: unused, reason: ForfeitReason::OnlyOneDieUsable });
        }
        self.end_throw(dice.contains(&6), events);
    }

    /// After a throw is used: the game may be won; a 6 earns another throw; else the turn
    /// passes.
    fn end_throw(&mut self, extra: bool, events: &mut Vec<Event>) {
        if self.check_win(events) {
            return;
        }
        if extra {
            self.phase = Phase::Roll;
            events.push(Event::ExtraRoll {
                seat: self.seat_of(self.turn),
                colour: self.turn,
                reason: ExtraRollReason::Six,
            });
        } else {
            self.pass_turn(events);
        }
    }

    fn pass_turn(&mut self, events: &mut Vec<Event>) {
        if self.check_win(events) {
            return;
        }
        self.turn = self.turn.next();
        self.phase = Phase::Roll;
        events.push(Event::TurnPassed { seat: self.seat_of(self.turn), colour: self.turn });
    }

    fn check_win(&mut self, events: &mut Vec<Event>) -> bool {
        if self.winner.is_some() {
            return true;
        }
        for team in [Partnership::YellowGreen, Partnership::RedBlue] {
            if team.colours().iter().all(|&c| self.board.all_home(c)) {
                self.finish(team, events);
                return true;
            }
        }
        false
    }

    fn finish(&mut self, winners: Partnership, events: &mut Vec<Event>) {
        self.winner = Some(winners);
        self.phase = Phase::Over;
        let places = (0..self.seats).map(|s| if self.partnership_of(s) == winners { 1 } else { 2 }).collect();
        events.push(Event::GameOver { places, winners });
    }

    /// The legal action `action` stands for, if any: itself, or for a play given in another
    /// order (or with another of two interchangeable pieces), the listed play that leaves the
    /// same position with the same challenges standing.
    pub(crate) fn canonical(&self, action: &Action) -> Option<Action> {
        let legal = self.legal_actions(self.to_act()?);
        if legal.contains(action) {
            return Some(action.clone());
        }
        let Phase::Play { dice } = self.phase else {
            return None;
        };
        if let Action::Move { steps } = action {
            let mut left = dice.to_vec();
            for s in steps {
                self.check_piece(s.piece).ok()?;
                let i = left.iter().position(|&d| d == s.die)?;
                left.remove(i);
            }
            if steps.is_empty() || (steps.len() == 2 && steps[0].piece == steps[1].piece) {
                return None;
            }
        }
        let mover = self.mover();
        let outcome =
            |play: &Action| mover.after(&self.board, play, dice).map(|(b, standing)| (b.key(), standing));
        let posted = outcome(action)?;
        legal.into_iter().find(|play| outcome(play) == Some(posted))
    }
}

impl Engine for Uckers {
    type Options = UckersOptions;
    type Action = Action;
    type Event = Event;

    fn validate(_options: &UckersOptions, seats: usize) -> Result<(), RuleError> {
        if seats == 2 || seats == 4 {
            Ok(())
        } else {
            Err(RuleError::invalid_options("Uckers is played by 2 or 4 players"))
        }
    }

    fn new(
        options: UckersOptions,
        seats: usize,
        dice: &mut dyn DiceSource,
    ) -> Result<(Self, Vec<Event>), RuleError> {
        let mut game = Self::from_position(options, seats, Colour::Yellow, [[None; 4]; 4])?;
        game.colours = [ColourState::default(); 4];
        let mut events = Vec::new();
        let first = opening::first_to_play::<2, _>(seats, dice, |round| {
            for (seat, throw) in round.throws.iter().enumerate() {
                if let Some(dice) = *throw {
                    events.push(Event::OpeningRolled { seat, dice });
                }
            }
            if round.starts.is_none() {
                events.push(Event::OpeningTie { seats: round.highest.to_vec() });
            }
        });
        game.turn = Colour::from_index(first);
        events.push(Event::FirstToPlay { seat: first, colour: game.turn });
        Ok((game, events))
    }

    fn to_act(&self) -> Option<Seat> {
        match self.phase {
            Phase::Over => None,
            _ => Some(self.seat_of(self.turn)),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.phase == Phase::Over || seat >= self.seats {
            return Vec::new();
        }
        let mut out = if self.to_act() == Some(seat) {
            match self.phase {
                Phase::Roll => self.before_throw(),
                Phase::Play { dice } => self.choices(dice),
                Phase::Over => Vec::new(),
            }
        } else {
            Vec::new()
        };
        out.push(Action::UpBoard);
        out
    }

    /// A play posted in another step order, or with the other of two interchangeable pieces, is
    /// the listed play with the same result ([`Uckers::canonical`]); other actions are listed
    /// as they are written.
    fn legal_action(&self, seat: Seat, action: &Action) -> Option<Action> {
        match action {
            Action::Move { .. } | Action::Total { .. } if self.to_act() == Some(seat) => {
                self.canonical(action)
            }
            _ => self.legal_actions(seat).into_iter().find(|a| a == action),
        }
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<Event>, RuleError> {
        if self.phase == Phase::Over {
            return Err(RuleError::game_over());
        }
        if seat >= self.seats {
            return Err(RuleError::not_your_turn(format!("there is no seat {seat} at this table")));
        }
        let mut events = Vec::new();
        if *action == Action::UpBoard {
            self.resigned = Some(seat);
            events.push(Event::UpBoard { seat });
            self.finish(self.partnership_of(seat).other(), &mut events);
            return Ok(events);
        }
        if self.to_act() != Some(seat) {
            return Err(RuleError::not_your_turn(format!(
                "it is {}'s turn (seat {})",
                self.turn.name(),
                self.seat_of(self.turn)
            )));
        }
        let Some(listed) = self.canonical(action) else {
            return Err(self.explain(action));
        };
        // A play is made as posted (its steps checked by `canonical`): the order decides lapses.
        let action =
            if matches!(action, Action::Move { .. } | Action::Total { .. }) { action } else { &listed };
        match (self.phase, action) {
            (_, Action::Roll) => {
                let thrown = self.throw(dice, &mut events);
                self.after_throw(thrown, &mut events);
            }
            (_, Action::CallSnakeEyes) => self.call_snake_eyes(seat, &mut events),
            (Phase::Play { dice }, Action::Move { .. } | Action::Total { .. }) => {
                self.play(action, dice, &mut events);
            }
            (Phase::Play { dice }, Action::Challenge { piece, target }) => {
                self.declare_challenge(*piece, *target, dice, &mut events);
            }
            (Phase::Play { dice }, Action::Pass) => {
                events.push(Event::DiceForfeited { dice: dice.to_vec(), reason: ForfeitReason::Passed });
                self.end_throw(dice.contains(&6), &mut events);
            }
            (_, Action::SuckBack { piece, target }) => self.suck_back(*piece, *target, dice, &mut events),
            (_, Action::BlowBack { piece }) => self.blow_back(*piece, dice, &mut events),
            (_, Action::StandUp) => self.stand_up(seat, dice, &mut events),
            _ => return Err(self.explain(action)),
        }
        Ok(events)
    }

    fn forced_action(&self) -> Option<Action> {
        let Phase::Play { dice } = self.phase else {
            return None;
        };
        let choices = self.choices(dice);
        match choices[..] {
            [ref only] => Some(only.clone()),
            _ => None,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let winners = self.winner?;
        let losers = winners.other();
        let places = (0..self.seats).map(|s| if self.partnership_of(s) == winners { 1 } else { 2 }).collect();
        let home =
            |team: Partnership| -> u8 { team.colours().iter().map(|&c| self.board.home_count(c)).sum() };
        let shame = match self.resigned {
            Some(seat) => vec![ShameEntry {
                seats: vec![seat],
                kind: ShameKind::UpBoard,
                pieces_home: home(self.partnership_of(seat)),
            }],
            None if home(losers) == 0 => {
                vec![ShameEntry { seats: self.seats_of(losers), kind: ShameKind::Dicking, pieces_home: 0 }]
            }
            None => Vec::new(),
        };
        Some(Outcome { places, points: None, shame })
    }
}
