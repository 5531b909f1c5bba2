//! Uckers: the Royal Navy's partnered two-dice Ludo (RULES.md §5; the rules as implemented,
//! with every choice where the sources are silent, are in docs/rules/uckers.md).
//!
//! - [`board`]: the square board, colours, partnerships and pieces.
//! - [`options`]: the table options.
//! - [`action`]: actions and events (the JSON a client sees).
//! - `moves`: how one piece moves, and the distinct plays of a throw.
//!
//! Turns belong to colours, clockwise: yellow, red, green, blue. With four seats each seat plays
//! one colour (seat = arm); with two seats, seat 0 plays yellow and green, seat 1 red and blue,
//! each colour on its own turn.

pub mod action;
pub mod board;
mod moves;
pub mod options;

#[cfg(test)]
mod props;
#[cfg(test)]
mod tests;

pub use action::{Action, Event, ForfeitReason, Step};
pub use board::{Board, Colour, HOME, Partnership, Piece, PieceId};
pub use options::{SnakeEyes, UckersOptions};

use super::{DiceSource, Engine, Outcome, RuleError, Seat, ShameEntry, ShameKind, opening};
use board::{LAST_TRACK, PIPE_START, track_square};
use moves::{Blocked, Effect, Mover};
use serde::{Deserialize, Serialize};

/// The whole state of one game of Uckers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
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

/// A standing challenge against a blob.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    /// The challenging piece (for a challenge from base, a piece in base).
    pub piece: PieceId,
    /// The blob's track square.
    pub target: u8,
    /// The blob's colour.
    pub blob: Colour,
    /// Sixes thrown so far, the challenge 6 included.
    pub sixes: u8,
    /// Declared from base against a blob on the own start square (one more 6 needed).
    pub from_base: bool,
}

impl Challenge {
    /// Whether the challenge still stands on `board`: the square still holds a blob of its
    /// colour and the challenger still stands before it (or in base, for one from base).
    pub(crate) fn stands(&self, board: &Board) -> bool {
        let in_place = match board.progress(self.piece) {
            None => self.from_base,
            Some(p) => {
                !self.from_base
                    && p < LAST_TRACK
                    && track_square(self.piece.colour, p + 1) == Some(self.target)
            }
        };
        in_place && board.blob_at(self.target) == Some(self.blob)
    }
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

    fn challenge_stands(&self) -> bool {
        self.colours[self.turn.index()].challenge.is_some()
    }

    /// What the colour to play may do before throwing (the throw itself first).
    fn before_throw(&self) -> Vec<Action> {
        let mut out = vec![Action::Roll];
        if self.throwing_for_six() || self.challenge_stands() {
            return out;
        }
        let state = &self.colours[self.turn.index()];
        if self.options.snake_eyes == SnakeEyes::Wafu && state.throws == 0 && !state.called_snake_eyes {
            out.push(Action::CallSnakeEyes);
        }
        let playing = self.playing_colour();
        if self.options.suck_back {
            out.extend(self.suck_backs(playing));
        }
        if self.options.blow_back && playing == self.turn {
            out.extend(self.blow_backs(playing));
        }
        if self.options.stand_up_finish && self.needs_one_throw() {
            out.push(Action::StandUp);
        }
        out
    }

    fn suck_backs(&self, playing: Colour) -> Vec<Action> {
        let mut out = Vec::new();
        let mut seen = Vec::new();
        for piece in PieceId::all_of(playing) {
            let Some(square) = self.board.square_of(piece) else {
                continue;
            };
            if seen.contains(&square) {
                continue;
            }
            seen.push(square);
            for opponent in Colour::ALL.into_iter().filter(|c| c.is_opponent(playing)) {
                if opponent.mouth_square() != square {
                    continue;
                }
                let mut targets_seen = Vec::new();
                for target in PieceId::all_of(opponent) {
                    match self.board.progress(target) {
                        Some(p) if (PIPE_START..HOME).contains(&p) && !targets_seen.contains(&p) => {
                            targets_seen.push(p);
                            out.push(Action::SuckBack { piece, target });
                        }
                        _ => {}
                    }
                }
            }
        }
        out
    }

    fn blow_backs(&self, playing: Colour) -> Vec<Action> {
        let mouth = playing.mouth_square();
        if !self.board.at_square(mouth).iter().any(|p| p.colour.is_opponent(playing)) {
            return Vec::new();
        }
        let mut seen = Vec::new();
        let mut out = Vec::new();
        for piece in PieceId::all_of(playing) {
            match self.board.progress(piece) {
                Some(p) if (PIPE_START..HOME).contains(&p) && !seen.contains(&p) => {
                    seen.push(p);
                    out.push(Action::BlowBack { piece });
                }
                _ => {}
            }
        }
        out
    }

    /// Whether some throw would win the game for the playing colour's partnership now.
    fn needs_one_throw(&self) -> bool {
        let playing = self.playing_colour();
        let team = playing.partnership();
        let left: Vec<PieceId> = team
            .colours()
            .into_iter()
            .flat_map(PieceId::all_of)
            .filter(|&p| self.board.progress(p) != Some(HOME))
            .collect();
        if left.len() > 2 || left.iter().any(|p| p.colour != playing || self.board.progress(*p).is_none()) {
            return false;
        }
        (1..=6u8).any(|a| (a..=6u8).any(|b| self.winning_play([a, b]).is_some()))
    }

    /// A play of `dice` that brings the playing partnership's last pieces home.
    fn winning_play(&self, dice: [u8; 2]) -> Option<Action> {
        let mover = self.mover();
        let team = mover.playing.partnership();
        mover.plays(&self.board, dice).into_iter().find(|play| {
            mover
                .after(&self.board, play, dice)
                .is_some_and(|(after, _)| team.colours().iter().all(|&c| after.all_home(c)))
        })
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
        let state = self.colours[t.index()];
        let has_six = dice.contains(&6);
        if dice == [1, 1] {
            let benefits = match self.options.snake_eyes {
                SnakeEyes::Off => false,
                SnakeEyes::Navy => true,
                SnakeEyes::Wafu => state.called_snake_eyes,
            };
            if benefits && state.throws == 1 {
                self.colours[t.index()].snake_eyes_out = true;
                let mut colours = vec![t];
                if self.options.snake_eyes == SnakeEyes::Navy {
                    colours.push(t.partner());
                }
                for c in colours {
                    self.all_pieces_out(c, events);
                }
                self.check_challenges(events);
                return self.pass_turn(events);
            }
            if state.snake_eyes_out && state.throws == 2 {
                let pieces: Vec<PieceId> = PieceId::all_of(t)
                    .filter(|&p| self.board.progress(p).is_some() && self.board.progress(p) != Some(HOME))
                    .collect();
                for &p in &pieces {
                    self.board.set(p, None);
                }
                events.push(Event::SnakeEyesAgain { colour: t, pieces });
                self.check_challenges(events);
                return self.pass_turn(events);
            }
        }
        if self.throwing_for_six() {
            events.push(Event::DiceForfeited { dice: dice.to_vec(), reason: ForfeitReason::ThrowingForSix });
            if has_six {
                self.colours[t.index()].helping = true;
                events.push(Event::PartnerUnlocked { colour: t, partner: t.partner() });
            }
            return self.pass_turn(events);
        }
        if let Some(mut ch) = state.challenge {
            let needed = self.sixes_needed(&ch);
            if ch.sixes >= needed {
                // The blob shrank after the sixes were counted: they already suffice (rule 3),
                // and this throw captures whatever it shows (docs/rules/uckers.md).
                events.push(Event::ChallengeSixes { colour: t, sixes: ch.sixes, needed });
                return self.capture_blob(ch, dice.to_vec(), events);
            }
            let mut unused = Vec::new();
            for (i, &d) in dice.iter().enumerate() {
                if d != 6 {
                    unused.push(d);
                    continue;
                }
                ch.sixes += 1;
                if ch.sixes >= needed {
                    unused.extend(&dice[i + 1..]);
                    self.colours[t.index()].challenge = Some(ch);
                    events.push(Event::ChallengeSixes { colour: t, sixes: ch.sixes, needed });
                    return self.capture_blob(ch, unused, events);
                }
            }
            self.colours[t.index()].challenge = Some(ch);
            events.push(Event::ChallengeSixes { colour: t, sixes: ch.sixes, needed });
            if !unused.is_empty() {
                events.push(Event::DiceForfeited { dice: unused, reason: ForfeitReason::ChallengeStands });
            }
            return self.end_throw(has_six, events);
        }
        self.phase = Phase::Play { dice };
        if self.choices(dice).is_empty() {
            events.push(Event::DiceForfeited { dice: dice.to_vec(), reason: ForfeitReason::NoLegalMove });
            self.end_throw(has_six, events);
        }
    }

    fn all_pieces_out(&mut self, colour: Colour, events: &mut Vec<Event>) {
        let options = self.options.clone();
        let mover =
            Mover { options: &options, turn: colour, playing: colour, frozen: true, challenges: [None; 4] };
        let mut pieces = Vec::new();
        for piece in PieceId::all_of(colour) {
            if self.board.progress(piece).is_some() {
                continue;
            }
            let Ok(effect) = mover.enter(&self.board, piece) else {
                continue;
            };
            self.make(&effect, events);
            pieces.push(piece);
        }
        events.push(Event::AllPiecesOut { colour, pieces });
    }

    /// Sixes a challenge needs in all: the challenge 6, one per blob piece, one more from base.
    fn sixes_needed(&self, ch: &Challenge) -> u8 {
        1 + self.board.blob_size(ch.target) + u8::from(ch.from_base)
    }

    /// The last 6 of a challenge: the blob goes to base, the challenger onto its square, and
    /// the turn ends at once.
    fn capture_blob(&mut self, ch: Challenge, unused: Vec<u8>, events: &mut Vec<Event>) {
        let captured = self.board.at_square(ch.target);
        for &p in &captured {
            self.board.set(p, None);
        }
        let to = match self.board.progress(ch.piece) {
            Some(p) => p + 1,
            None => 0,
        };
        self.board.set(ch.piece, Some(to));
        self.colours[self.turn.index()].challenge = None;
        events.push(Event::BlobCaptured { piece: ch.piece, square: ch.target, captured });
        if !unused.is_empty() {
            events.push(Event::DiceForfeited { dice: unused, reason: ForfeitReason::BlobCaptured });
        }
        self.check_challenges(events);
        self.pass_turn(events);
    }

    /// Drops every challenge whose blob is no longer a blob of its colour on its square, or
    /// whose challenger no longer stands before it.
    fn check_challenges(&mut self, events: &mut Vec<Event>) {
        for c in Colour::ALL {
            let Some(ch) = self.colours[c.index()].challenge else {
                continue;
            };
            if !ch.stands(&self.board) {
                self.colours[c.index()].challenge = None;
                events.push(Event::ChallengeLapsed { colour: c, target: ch.target });
            }
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
            events.push(Event::Captured { piece: captured, by: piece, square: landing.unwrap_or(0) });
        }
        if effect.to == HOME {
            events.push(Event::ReachedHome { piece });
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
            events.push(Event::ExtraThrow { colour: self.turn });
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
        events.push(Event::GameOver { winners, seats: self.seats_of(winners) });
    }

    /// Why `action` is not legal now (it is not among the legal actions).
    fn explain(&self, action: &Action) -> RuleError {
        let why = match (self.phase, action) {
            (Phase::Play { .. }, Action::Roll) => "the dice are thrown: play them first".into(),
            (
                Phase::Play { .. },
                Action::CallSnakeEyes | Action::SuckBack { .. } | Action::BlowBack { .. } | Action::StandUp,
            ) => "that is declared before throwing".into(),
            (
                Phase::Roll,
                Action::Move { .. } | Action::Total { .. } | Action::Challenge { .. } | Action::Pass,
            ) => {
                if self.challenge_stands() {
                    "your challenge stands: just throw for your sixes".into()
                } else {
                    "throw the dice first".into()
                }
            }
            (Phase::Play { dice }, Action::Move { steps }) => self.explain_move(steps, dice),
            (Phase::Play { dice }, Action::Total { piece }) => {
                match self
                    .check_piece(*piece)
                    .and_then(|()| self.mover().advance(&self.board, *piece, dice[0] + dice[1]).map(|_| ()))
                {
                    Err(why) => why.message(*piece),
                    Ok(()) => "that play is not open: another play uses the throw".into(),
                }
            }
            (Phase::Play { dice }, Action::Challenge { .. }) => {
                if dice.contains(&6) {
                    "a challenge needs a piece (not in a mixed blob) directly before an opposing blob, or in base against a blob on its start square".into()
                } else {
                    "a challenge is declared with a 6".into()
                }
            }
            (Phase::Play { .. }, Action::Pass) => {
                "passing is allowed only when nothing can move and a challenge could be declared".into()
            }
            (_, Action::CallSnakeEyes) => {
                if self.options.snake_eyes != SnakeEyes::Wafu {
                    "snake eyes is called only under WAFU rules".into()
                } else {
                    "snake eyes is called once, before the player's first throw".into()
                }
            }
            (_, Action::SuckBack { .. }) if !self.options.suck_back => {
                "suck-backs are not played at this table".into()
            }
            (_, Action::BlowBack { .. }) if !self.options.blow_back => {
                "blow-backs are not played at this table".into()
            }
            (_, Action::StandUp) if !self.options.stand_up_finish => {
                "stand-up finishes are not played at this table".into()
            }
            (_, Action::StandUp) => "a stand-up finish needs a position one throw from winning".into(),
            (_, Action::SuckBack { .. }) => {
                "a suck-back needs your piece on the mouth of an opponent's pipe and the target in that pipe"
                    .into()
            }
            (_, Action::BlowBack { .. }) => {
                "a blow-back needs your piece in your pipe and an opponent on its mouth".into()
            }
            _ if self.challenge_stands() || self.throwing_for_six() => "only a throw is open now".into(),
            _ => "that action is not open now".into(),
        };
        RuleError::illegal(why)
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

    /// Whether `piece` is one this turn may move at all.
    fn check_piece(&self, piece: PieceId) -> Result<(), Blocked> {
        let playing = self.playing_colour();
        if piece.index > 3 {
            Err(Blocked::NoSuchPiece)
        } else if piece.colour != playing {
            Err(Blocked::NotPlaying { playing })
        } else {
            Ok(())
        }
    }

    fn explain_move(&self, steps: &[Step], dice: [u8; 2]) -> String {
        if steps.is_empty() || steps.len() > 2 {
            return "a move uses one or two dice".into();
        }
        let mut left = dice.to_vec();
        for s in steps {
            match left.iter().position(|&d| d == s.die) {
                Some(i) => {
                    left.remove(i);
                }
                None => return format!("the throw is {} and {}", dice[0], dice[1]),
            }
        }
        let mover = self.mover();
        let mut board = self.board.clone();
        for s in steps {
            match self.check_piece(s.piece).and_then(|()| mover.step(&board, s.piece, s.die)) {
                Ok(effect) => moves::apply(&mut board, &effect),
                Err(why) => return why.message(s.piece),
            }
        }
        if steps.len() == 2 && steps[0].piece == steps[1].piece {
            "a split moves two different pieces: to move one piece by both dice, play the total".into()
        } else if steps.len() == 1 {
            let larger = dice[0].max(dice[1]);
            if steps[0].die < larger
                && self.mover().plays(&self.board, dice).iter().any(
                    |a| matches!(a, Action::Move { steps } if steps.len() == 1 && steps[0].die == larger),
                )
            {
                "when only one die can be played, the larger must be".into()
            } else {
                "both dice must be used when they can be".into()
            }
        } else {
            "that play is not open".into()
        }
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
                    events.push(Event::OpeningThrow { seat, dice });
                }
            }
        });
        game.turn = Colour::from_index(first);
        events.push(Event::Starts { seat: first, colour: game.turn });
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
        let t = self.turn;
        match (self.phase, action) {
            (_, Action::Roll) => {
                let thrown = self.throw(dice, &mut events);
                self.after_throw(thrown, &mut events);
            }
            (_, Action::CallSnakeEyes) => {
                self.colours[t.index()].called_snake_eyes = true;
                events.push(Event::SnakeEyesCalled { seat, colour: t });
            }
            (Phase::Play { dice }, Action::Move { .. } | Action::Total { .. }) => {
                self.play(action, dice, &mut events);
            }
            (Phase::Play { dice }, Action::Challenge { piece, target }) => {
                let ch = Challenge {
                    piece: *piece,
                    target: *target,
                    blob: self.board.blob_at(*target).unwrap_or(t),
                    sixes: 1,
                    from_base: self.board.progress(*piece).is_none(),
                };
                self.colours[t.index()].challenge = Some(ch);
                events.push(Event::ChallengeDeclared {
                    piece: *piece,
                    target: *target,
                    blob: ch.blob,
                    sixes: 1,
                    needed: self.sixes_needed(&ch),
                });
                let other = if dice[0] == 6 { dice[1] } else { dice[0] };
                events.push(Event::DiceForfeited {
                    dice: vec![other],
                    reason: ForfeitReason::ChallengeDeclared,
                });
                self.end_throw(true, &mut events);
            }
            (Phase::Play { dice }, Action::Pass) => {
                events.push(Event::DiceForfeited { dice: dice.to_vec(), reason: ForfeitReason::Passed });
                self.end_throw(dice.contains(&6), &mut events);
            }
            (_, Action::SuckBack { piece, target }) => {
                let thrown = self.throw(dice, &mut events);
                let distance = self.board.progress(*target).unwrap_or(HOME) - LAST_TRACK;
                let hit = hits(thrown, distance);
                events.push(Event::SuckBack { piece: *piece, target: *target, distance, hit });
                if hit {
                    self.board.set(*target, None);
                } else if let Ok(effect) = self.mover().advance(&self.board, *piece, 1) {
                    events.push(Event::Moved {
                        piece: *piece,
                        dice: Vec::new(),
                        from: effect.from.unwrap_or(0),
                        to: effect.to,
                    });
                    self.make(&effect, &mut events);
                }
                self.check_challenges(&mut events);
                self.end_throw(thrown.contains(&6), &mut events);
            }
            (_, Action::BlowBack { piece }) => {
                let thrown = self.throw(dice, &mut events);
                let distance = self.board.progress(*piece).unwrap_or(HOME) - LAST_TRACK;
                let square = t.mouth_square();
                let hit = hits(thrown, distance);
                events.push(Event::BlowBack { piece: *piece, square, distance, hit });
                if hit {
                    for p in self.board.at_square(square) {
                        if p.colour.is_opponent(t) {
                            self.board.set(p, None);
                            events.push(Event::Captured { piece: p, by: *piece, square });
                        }
                    }
                }
                self.check_challenges(&mut events);
                self.end_throw(thrown.contains(&6), &mut events);
            }
            (_, Action::StandUp) => {
                let thrown = self.throw(dice, &mut events);
                self.after_throw(thrown, &mut events);
                let winning = match self.phase {
                    Phase::Play { dice } if self.turn == t => self.winning_play(dice),
                    _ => None,
                };
                events.push(Event::StandUpFinish { seat, came_off: winning.is_some() });
                if let (Some(play), Phase::Play { dice }) = (winning, self.phase) {
                    self.play(&play, dice, &mut events);
                }
            }
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

/// Whether either die or their sum is `distance` (suck-backs and blow-backs).
fn hits(dice: [u8; 2], distance: u8) -> bool {
    dice[0] == distance || dice[1] == distance || dice[0] + dice[1] == distance
}
