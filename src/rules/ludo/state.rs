//! The rules shared by Luddo (RULES.md §3) and classic Ludo (§2): one state type, [`LudoState`],
//! whose [`Variant`] switches the handful of places where the two differ (blocks, safe stars,
//! what earns another roll, how a turn's numbers are thrown).
//!
//! The state is a fixed-size value (no heap), so cloning it is cheap and the hot path of a
//! simulation allocates nothing: events go to an [`EventSink`] that simulations switch off.

use super::board::{BoardKind, MAX_SEATS, PIECES, distance, start_square, track_square};
use super::{Action, CapturedPiece, Event, Numbers};
use crate::rules::{DiceSource, ExtraRollReason, Outcome, RuleError, Seat, opening};

/// The progress stored for a piece waiting in its base.
pub(crate) const BASE: u8 = u8::MAX;
/// The most numbers one Luddo sequence holds: two 6s and a last number (a third 6 cancels).
const MAX_SEQUENCE: usize = 3;

/// Which rule set a state follows, with its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// RULES.md §3.
    Luddo {
        /// Bringing a token home earns the extra roll (house rule, on by default).
        home_bonus: bool,
    },
    /// RULES.md §2.
    Classic {
        /// A 1 also brings a piece out of base (the children's variant).
        enter_on_one: bool,
        /// With 3+ players the others play on for places after the winner.
        play_for_places: bool,
    },
}

/// What the seat to act must do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Throw the die (Luddo: the whole sequence up to the first number that is not a 6).
    Roll,
    /// Move a piece by the first pending number.
    Move,
    /// The game is over.
    Over,
}

/// Where events go: a `Vec<Event>` for the server, [`NoEvents`] for simulations.
pub(crate) trait EventSink {
    /// `false` lets the compiler drop event construction entirely.
    const ENABLED: bool;
    fn push(&mut self, event: Event);
}

impl EventSink for Vec<Event> {
    const ENABLED: bool = true;
    fn push(&mut self, event: Event) {
        Vec::push(self, event)
    }
}

/// Discards events (simulations, benchmarks).
pub(crate) struct NoEvents;

impl EventSink for NoEvents {
    const ENABLED: bool = false;
    fn push(&mut self, _: Event) {}
}

macro_rules! emit {
    ($sink:expr, $event:expr) => {
        if S::ENABLED {
            $sink.push($event)
        }
    };
}

/// The pieces the seat to act may move with the current number: a set of piece indices, held as
/// a bitmask so that generating moves never allocates. Iterates in piece order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Moves(u8);

impl Moves {
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn contains(self, piece: u8) -> bool {
        piece < PIECES as u8 && self.0 & (1 << piece) != 0
    }
    /// The `i`-th movable piece in piece order.
    pub fn get(self, i: usize) -> Option<u8> {
        self.iter().nth(i)
    }
    /// The movable pieces in piece order.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        (0..PIECES as u8).filter(move |&p| self.0 & (1 << p) != 0)
    }
}

/// Why a piece may not move by a number (the message of the refusal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Blocked {
    AtHome,
    NeedsToEnter,
    Overshoots,
    ByBlock,
    StartHeld,
}

impl Blocked {
    fn message(self, piece: u8, number: u8, enter_on_one: bool) -> String {
        match self {
            Self::AtHome => format!("piece {piece} is already home"),
            Self::NeedsToEnter if enter_on_one => {
                format!("piece {piece} is in base and needs a 1 or a 6 to come out, not a {number}")
            }
            Self::NeedsToEnter => {
                format!("piece {piece} is in base and needs a 6 to come out, not a {number}")
            }
            Self::Overshoots => {
                format!("a {number} would take piece {piece} past home; home needs an exact number")
            }
            Self::ByBlock => {
                format!("an opposing block stands in the way of piece {piece} moving {number}")
            }
            Self::StartHeld => {
                format!("an opposing block holds the start square; piece {piece} cannot come out")
            }
        }
    }
}

/// The whole state of one Ludo-family game. Its JSON form (see `json.rs`) lists each seat's
/// pieces by progress, the pending numbers, whose turn it is and the places so far.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(into = "super::json::StateJson", try_from = "super::json::StateJson")]
pub struct LudoState {
    pub(crate) variant: Variant,
    pub(crate) kind: BoardKind,
    pub(crate) seats: u8,
    /// Progress of every piece ([`BASE`] in base); rows beyond `seats` are unused.
    pub(crate) pos: [[u8; PIECES]; MAX_SEATS],
    pub(crate) to_act: u8,
    pub(crate) phase: Phase,
    /// The numbers of the current sequence; `numbers[next..len]` are still to be used.
    pub(crate) numbers: [u8; MAX_SEQUENCE],
    pub(crate) len: u8,
    pub(crate) next: u8,
    /// Luddo: what the current sequence has earned toward one extra roll.
    pub(crate) bonus: Option<ExtraRollReason>,
    /// The pieces that may move with the current number (derived: set whenever a move falls
    /// due, so that the legal moves are computed once per number).
    pub(crate) movable: Moves,
    /// Each seat's final place, 0 while it still plays.
    pub(crate) places: [u8; MAX_SEATS],
}

impl LudoState {
    /// A new game of `seats` players, all pieces in base, with the opening thrown.
    pub(crate) fn new_game<D: DiceSource + ?Sized, S: EventSink>(
        variant: Variant,
        seats: usize,
        dice: &mut D,
        sink: &mut S,
    ) -> Result<Self, RuleError> {
        let kind = BoardKind::for_seats(seats).ok_or_else(|| {
            RuleError::invalid_options(format!(
                "Ludo is played by 2 to 6 players (2–4 on the square board, 5–6 on the hexagonal \
                 one), not {seats}"
            ))
        })?;
        let mut state = Self {
            variant,
            kind,
            seats: seats as u8,
            pos: [[BASE; PIECES]; MAX_SEATS],
            to_act: 0,
            phase: Phase::Roll,
            numbers: [0; MAX_SEQUENCE],
            len: 0,
            next: 0,
            bonus: None,
            movable: Moves(0),
            places: [0; MAX_SEATS],
        };
        state.to_act = Self::opening(seats, dice, sink) as u8;
        emit!(sink, Event::FirstToPlay { seat: state.to_act as Seat });
        Ok(state)
    }

    /// Every seat throws one die; the highest starts; only the seats tied on the highest throw
    /// again (`opening_tie` lists them).
    fn opening<D: DiceSource + ?Sized, S: EventSink>(seats: usize, dice: &mut D, sink: &mut S) -> Seat {
        opening::first_to_play::<1, D>(seats, dice, |round| {
            for (seat, throw) in round.throws.iter().enumerate() {
                if let Some([value]) = *throw {
                    emit!(sink, Event::OpeningRolled { seat, dice: [value] });
                }
            }
            if round.starts.is_none() {
                emit!(sink, Event::OpeningTie { seats: round.highest.to_vec() });
            }
        })
    }

    /// The rule set and its options.
    pub fn variant(&self) -> Variant {
        self.variant
    }
    /// The board the game is played on.
    pub fn board(&self) -> BoardKind {
        self.kind
    }
    /// How many seats play.
    pub fn seats(&self) -> usize {
        self.seats as usize
    }
    /// The arm a seat sits on (0 for a seat that is not at the table).
    pub fn arm(&self, seat: Seat) -> u8 {
        // `board::arms_for`, as arithmetic: two players face each other, more fill arms in order.
        if seat >= self.seats as usize {
            0
        } else if self.seats == 2 {
            2 * seat as u8
        } else {
            seat as u8
        }
    }
    /// A piece's progress (`None` in base; `board().home()` once home).
    pub fn progress(&self, seat: Seat, piece: usize) -> Option<u8> {
        match *self.pos.get(seat)?.get(piece)? {
            BASE => None,
            p => Some(p),
        }
    }
    /// What the seat to act must do.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The seat whose decision the game waits for; `None` once it is over.
    pub fn to_act(&self) -> Option<Seat> {
        (self.phase != Phase::Over).then_some(self.to_act as Seat)
    }
    /// The numbers of the turn still to be used, the current one first.
    pub fn pending(&self) -> &[u8] {
        &self.numbers[self.next as usize..self.len as usize]
    }
    /// The number the next move uses.
    pub fn current_number(&self) -> Option<u8> {
        (self.phase == Phase::Move).then(|| self.pending().first().copied())?
    }
    /// A seat's final place (1 = winner), once it has one.
    pub fn place(&self, seat: Seat) -> Option<u8> {
        self.places.get(seat).copied().filter(|&p| p != 0)
    }
    /// The track square of a piece, if it stands on the shared track.
    pub fn square_of(&self, seat: Seat, piece: usize) -> Option<u8> {
        track_square(self.kind, self.arm(seat), self.progress(seat, piece)?)
    }
    /// Whether `square` is safe from capture for a lone piece (Luddo's stars; classic Ludo has
    /// no safe squares on the track).
    pub fn is_safe_square(&self, square: u8) -> bool {
        matches!(self.variant, Variant::Luddo { .. }) && self.kind.is_star(square)
    }
    pub(crate) fn is_classic(&self) -> bool {
        matches!(self.variant, Variant::Classic { .. })
    }
    fn enter_on_one(&self) -> bool {
        matches!(self.variant, Variant::Classic { enter_on_one: true, .. })
    }

    /// The progress a seat on `other` needs to stand on the square `rel` squares ahead of `seat`'s
    /// start, or `None` if `other` can never stand there (its home-column turn).
    #[inline]
    fn progress_of_square(&self, seat: usize, other: usize, rel: u8) -> Option<u8> {
        let square = track_square(self.kind, self.arm(seat), rel)?;
        let q = distance(self.kind, start_square(self.arm(other)), square);
        (q <= self.kind.last_track()).then_some(q)
    }

    /// How many of `other`'s pieces stand on progress `q`.
    #[inline]
    fn count_at(&self, other: usize, q: u8) -> usize {
        self.pos[other].iter().filter(|&&p| p == q).count()
    }

    /// Classic Ludo: the squares holding an opposing block, as bits of `seat`'s relative
    /// progress (bit `r` = the square `r` ahead of its start). Empty in Luddo, which has no
    /// blocks.
    fn opposing_blocks(&self, seat: usize) -> u128 {
        if !self.is_classic() {
            return 0;
        }
        let last = self.kind.last_track();
        let mut mask = 0u128;
        for other in 0..self.seats as usize {
            if other == seat {
                continue;
            }
            let row = &self.pos[other];
            for i in 0..PIECES {
                let q = row[i];
                if q > last || !row[i + 1..].contains(&q) {
                    continue;
                }
                // A block of `other` on its progress `q`: how far ahead of `seat`'s start?
                let Some(square) = track_square(self.kind, self.arm(other), q) else {
                    continue;
                };
                let rel = distance(self.kind, start_square(self.arm(seat)), square);
                mask |= 1u128 << rel;
            }
        }
        mask
    }

    /// Where `piece` of `seat` would go with `number`, or why it cannot; `blocks` is
    /// [`Self::opposing_blocks`] of `seat`.
    fn target_with(&self, seat: usize, piece: usize, number: u8, blocks: u128) -> Result<u8, Blocked> {
        let p = self.pos[seat][piece];
        let home = self.kind.home();
        if p == BASE {
            if number != 6 && !(number == 1 && self.enter_on_one()) {
                return Err(Blocked::NeedsToEnter);
            }
            if blocks & 1 != 0 {
                return Err(Blocked::StartHeld);
            }
            return Ok(0);
        }
        if p >= home {
            return Err(Blocked::AtHome);
        }
        let to = p + number;
        if to > home {
            return Err(Blocked::Overshoots);
        }
        // The track squares passed or landed on: relative p+1 ..= min(to, L−2).
        let end = to.min(self.kind.last_track());
        if end > p {
            let path = (u128::MAX >> (127 - end)) & !(u128::MAX >> (127 - p));
            if blocks & path != 0 {
                return Err(Blocked::ByBlock);
            }
        }
        Ok(to)
    }

    /// Where `piece` of `seat` would go with `number`, or why it cannot.
    fn target(&self, seat: usize, piece: usize, number: u8) -> Result<u8, Blocked> {
        self.target_with(seat, piece, number, self.opposing_blocks(seat))
    }

    /// Whether `seat`'s piece could move by `number` in this position.
    pub fn can_move(&self, seat: Seat, piece: usize, number: u8) -> bool {
        seat < self.seats as usize && piece < PIECES && self.target(seat, piece, number).is_ok()
    }

    /// Where a piece would land with `number` (its new progress), if it may move.
    pub fn destination(&self, seat: Seat, piece: usize, number: u8) -> Option<u8> {
        if seat >= self.seats as usize || piece >= PIECES {
            return None;
        }
        self.target(seat, piece, number).ok()
    }

    /// The pieces of `seat` that may move by `number` (the same rules as [`Self::target`], in
    /// one pass: this is the engine's hot path).
    pub(crate) fn moves_for(&self, seat: usize, number: u8) -> Moves {
        let row = self.pos[seat];
        let blocks = self.opposing_blocks(seat);
        let enters = (number == 6 || (number == 1 && self.enter_on_one())) && blocks & 1 == 0;
        // A piece at progress p moves if p + number stays within home; home itself never moves.
        let limit = self.kind.home() - number;
        let mut mask = 0u8;
        for (piece, &p) in row.iter().enumerate() {
            let ok = if p == BASE {
                enters
            } else {
                p <= limit && (blocks == 0 || self.target_with(seat, piece, number, blocks).is_ok())
            };
            mask |= (ok as u8) << piece;
        }
        Moves(mask)
    }

    /// The pieces the seat to act may move now, in piece order (empty unless a move is due).
    pub fn legal_moves(&self) -> Moves {
        match self.phase {
            Phase::Move => self.movable,
            _ => Moves::default(),
        }
    }

    /// The legal actions of `seat`, in a stable order: a roll, or moves by piece index.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.to_act() != Some(seat) {
            return Vec::new();
        }
        match self.phase {
            Phase::Roll => vec![Action::Roll],
            Phase::Move => {
                let moves = self.legal_moves();
                let mut actions = Vec::with_capacity(moves.len());
                actions.extend(moves.iter().map(|piece| Action::Move { piece }));
                actions
            }
            Phase::Over => Vec::new(),
        }
    }

    /// The move to make at once when every legal move leads to the same position (pieces that
    /// stand together move alike); never a roll.
    pub fn forced_action(&self) -> Option<Action> {
        let mut moves = self.legal_moves().iter();
        let first = moves.next()?;
        let row = &self.pos[self.to_act as usize];
        moves.all(|p| row[p as usize] == row[first as usize]).then_some(Action::Move { piece: first })
    }

    /// The places of a finished game.
    pub fn outcome(&self) -> Option<Outcome> {
        (self.phase == Phase::Over).then(|| Outcome {
            places: self.places[..self.seats as usize].to_vec(),
            points: None,
            shame: Vec::new(),
        })
    }

    /// Checks `seat`'s action and plays it; on `Err` nothing changed and no die was drawn.
    pub(crate) fn apply_with<D: DiceSource + ?Sized, S: EventSink>(
        &mut self,
        seat: Seat,
        action: &Action,
        dice: &mut D,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        if self.phase == Phase::Over {
            return Err(RuleError::game_over());
        }
        if seat != self.to_act as usize {
            return Err(RuleError::not_your_turn(format!(
                "it is seat {}'s turn, not seat {seat}'s",
                self.to_act
            )));
        }
        match (*action, self.phase) {
            (Action::Roll, Phase::Roll) => {
                self.roll(dice, sink);
                Ok(())
            }
            (Action::Roll, _) => Err(RuleError::illegal(format!(
                "move a piece with the {} first",
                self.pending().first().copied().unwrap_or(0)
            ))),
            (Action::Move { .. }, Phase::Roll) => Err(RuleError::illegal("roll the die before moving")),
            (Action::Move { piece }, _) => {
                let number = self.pending().first().copied().unwrap_or(0);
                if piece as usize >= PIECES {
                    return Err(RuleError::illegal(format!(
                        "there is no piece {piece}: pieces are numbered 0 to 3"
                    )));
                }
                if self.movable.contains(piece) {
                    let from = self.pos[seat][piece as usize];
                    let to = if from == BASE { 0 } else { from + number };
                    self.play_move(piece as usize, number, to, sink);
                    return Ok(());
                }
                // Not movable: say why (the rules of `moves_for`, one piece at a time).
                let why = match self.target(seat, piece as usize, number) {
                    Err(why) => why.message(piece, number, self.enter_on_one()),
                    Ok(_) => format!("piece {piece} cannot move now"),
                };
                Err(RuleError::illegal(why))
            }
        }
    }

    fn roll<D: DiceSource + ?Sized, S: EventSink>(&mut self, dice: &mut D, sink: &mut S) {
        let seat = self.to_act as Seat;
        self.numbers = [0; MAX_SEQUENCE];
        self.next = 0;
        self.len = 0;
        loop {
            let value = dice.die();
            emit!(sink, Event::Rolled { seat, dice: [value] });
            self.numbers[self.len as usize] = value;
            self.len += 1;
            // Classic Ludo: one die per throw; the 6's extra throw comes after the move.
            if value != 6 || self.is_classic() {
                break;
            }
            if self.len as usize == MAX_SEQUENCE {
                emit!(sink, Event::ThreeSixes { seat });
                self.end_turn(sink);
                return;
            }
        }
        self.next_number(sink);
    }

    /// Moves on to the next number of the sequence: waits for a move if one is possible,
    /// otherwise forfeits what is left, and once everything is used grants the extra roll or
    /// passes the turn.
    fn next_number<S: EventSink>(&mut self, sink: &mut S) {
        let seat = self.to_act as Seat;
        if self.next < self.len {
            let number = self.numbers[self.next as usize];
            self.movable = self.moves_for(seat, number);
            if !self.movable.is_empty() {
                self.phase = Phase::Move;
                return;
            }
            emit!(sink, Event::NumbersForfeited { seat, numbers: Numbers::new(self.pending()) });
            // A classic 6 gives another throw even when it could not move; in Luddo the turn
            // ends here and whatever the sequence had earned is lost with the numbers.
            if self.is_classic() && number == 6 {
                self.grant_roll(ExtraRollReason::Six, sink);
            } else {
                self.end_turn(sink);
            }
            return;
        }
        let earned = if self.is_classic() {
            (self.numbers[0] == 6).then_some(ExtraRollReason::Six)
        } else {
            self.bonus
        };
        match earned {
            Some(reason) => self.grant_roll(reason, sink),
            None => self.end_turn(sink),
        }
    }

    fn grant_roll<S: EventSink>(&mut self, reason: ExtraRollReason, sink: &mut S) {
        emit!(sink, Event::ExtraRoll { seat: self.to_act as Seat, reason });
        self.numbers = [0; MAX_SEQUENCE];
        self.next = 0;
        self.len = 0;
        self.bonus = None;
        self.movable = Moves(0);
        self.phase = Phase::Roll;
    }

    fn play_move<S: EventSink>(&mut self, piece: usize, number: u8, to: u8, sink: &mut S) {
        let seat = self.to_act as usize;
        let from = self.pos[seat][piece];
        self.pos[seat][piece] = to;
        self.next += 1;
        emit!(
            sink,
            Event::Moved { seat, piece: piece as u8, number, from: (from != BASE).then_some(from), to }
        );
        if to <= self.kind.last_track() && self.capture(seat, to, sink) {
            self.earn(ExtraRollReason::Capture);
        }
        if to == self.kind.home() {
            emit!(sink, Event::PieceHome { seat, piece: piece as u8 });
            if matches!(self.variant, Variant::Luddo { home_bonus: true }) {
                self.earn(ExtraRollReason::Home);
            }
            if self.pos[seat].iter().all(|&p| p == to) {
                self.finish(seat, sink);
                if self.phase != Phase::Over {
                    self.end_turn(sink);
                }
                return;
            }
        }
        self.next_number(sink);
    }

    fn earn(&mut self, reason: ExtraRollReason) {
        if self.is_classic() {
            return;
        }
        self.bonus = Some(match (self.bonus, reason) {
            (None, r) => r,
            (Some(a), b) if a == b => a,
            _ => ExtraRollReason::CaptureAndHome,
        });
    }

    /// Sends opposing pieces on `seat`'s landing square `to` back to base: in Luddo every
    /// opposing piece unless the square is a star, in classic Ludo a lone opposing piece (a
    /// block could not have been landed on). Returns whether anything was captured.
    fn capture<S: EventSink>(&mut self, seat: usize, to: u8, sink: &mut S) -> bool {
        let classic = self.is_classic();
        if !classic && track_square(self.kind, self.arm(seat), to).is_some_and(|sq| self.kind.is_star(sq)) {
            return false;
        }
        let mut any = false;
        let mut captured: Vec<CapturedPiece> = Vec::new();
        for other in 0..self.seats as usize {
            if other == seat {
                continue;
            }
            let Some(q) = self.progress_of_square(seat, other, to) else {
                continue;
            };
            if classic && self.count_at(other, q) != 1 {
                continue;
            }
            for piece in 0..PIECES {
                if self.pos[other][piece] == q {
                    self.pos[other][piece] = BASE;
                    any = true;
                    if S::ENABLED {
                        captured.push(CapturedPiece { seat: other, piece: piece as u8, progress: q });
                    }
                }
            }
        }
        if any {
            emit!(
                sink,
                Event::Captured {
                    seat,
                    square: track_square(self.kind, self.arm(seat), to).unwrap_or(0),
                    pieces: captured,
                }
            );
        }
        any
    }

    /// `seat` has all its pieces home: give it the next place, and end the game when nobody is
    /// left to play for a place.
    fn finish<S: EventSink>(&mut self, seat: usize, sink: &mut S) {
        let n = self.seats as usize;
        let done = self.places[..n].iter().filter(|&&p| p != 0).count() as u8;
        let place = done + 1;
        self.places[seat] = place;
        emit!(sink, Event::SeatFinished { seat, place });
        let play_on = match self.variant {
            Variant::Luddo { .. } => true,
            Variant::Classic { play_for_places, .. } => play_for_places,
        };
        let left = n - place as usize;
        if left <= 1 || !play_on {
            for p in &mut self.places[..n] {
                if *p == 0 {
                    *p = place + 1;
                }
            }
            self.phase = Phase::Over;
            self.numbers = [0; MAX_SEQUENCE];
            self.movable = Moves(0);
            self.len = 0;
            self.next = 0;
            self.bonus = None;
            emit!(sink, Event::GameOver { places: self.places[..n].to_vec() });
        }
    }

    /// Passes the turn clockwise to the next seat still playing.
    fn end_turn<S: EventSink>(&mut self, sink: &mut S) {
        self.numbers = [0; MAX_SEQUENCE];
        self.len = 0;
        self.next = 0;
        self.bonus = None;
        self.movable = Moves(0);
        let n = self.seats as usize;
        let mut seat = self.to_act as usize;
        for _ in 0..n {
            seat = (seat + 1) % n;
            if self.places[seat] == 0 {
                self.to_act = seat as u8;
                self.phase = Phase::Roll;
                emit!(sink, Event::TurnPassed { seat });
                return;
            }
        }
        // Nobody left to play (only reachable from a hand-made state): the game is over.
        self.phase = Phase::Over;
    }
}
