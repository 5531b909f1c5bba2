//! Backgammon (RULES.md §6): money games and matches to N points with the doubling cube,
//! gammons, backgammons and the Crawford rule.
//!
//! - [`board`]: positions, legal-play generation, GNU Backgammon's move notation.
//! - [`ids`]: GNU Backgammon Position ID / Match ID and XGID, both ways.
//! - [`analysis`]: the legal plays of a position given by ID (for `POST /v1/backgammon/plays`).
//! - [`mat`]: a match as GNU Backgammon's `.mat` file (for `GET /v1/tables/{id}/record`).
//!
//! A turn is `roll` (or `double` first, when the cube may be turned), then one `play` holding
//! every checker move of the roll. Seats 0 and 1 are GNU Backgammon's players 0 and 1; each
//! seat numbers the points from its own side (its home board is 1–6, 25 is its bar, 0 is off).

pub mod analysis;
pub mod board;
pub mod ids;
pub mod mat;

use super::{DiceSource, Engine, Outcome, RuleError, Seat, opening};
use board::{Position, START, Step, notation};
use ids::{GameState, MatchState, PositionError, Xgid};
use serde::{Deserialize, Serialize};

/// The largest cube value: the Match ID stores its logarithm in 4 bits.
pub const MAX_CUBE: u32 = 1 << 15;

/// Table options. `{}` is a money game (one game) with the cube.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct BackgammonOptions {
    /// Points to win the match; 0 plays a single money game.
    #[schemars(title = "Match to (0: one money game)")]
    pub match_to: u32,
    /// Whether the doubling cube is used.
    #[schemars(title = "doubling cube")]
    pub cube: bool,
    /// Money games only: a doubled player may beaver (redouble at once, keeping the cube).
    #[schemars(title = "beavers")]
    pub beavers: bool,
    /// Money games only: gammons and backgammons count single unless the cube was turned.
    #[schemars(title = "Jacoby rule")]
    pub jacoby: bool,
    /// Matches only: no doubling in the game after a player first reaches match point.
    #[schemars(title = "Crawford rule")]
    pub crawford: bool,
    /// Private tables only: a seated player may ask for a hint (`POST /v1/backgammon/hint`
    /// with the table's id) on its own turn. Never at a rated table: private tables are never
    /// rated.
    #[schemars(title = "hints (private tables)")]
    pub hints: bool,
}

impl Default for BackgammonOptions {
    fn default() -> Self {
        Self { match_to: 0, cube: true, beavers: false, jacoby: false, crawford: true, hints: false }
    }
}

/// What a seat may do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BackgammonAction {
    Roll,
    /// Offer the cube (before rolling).
    Double,
    Take,
    Drop,
    /// Take and redouble at once, keeping the cube (money games with `beavers`).
    Beaver,
    /// The whole play of the roll: one step per die used, in the order played.
    Play {
        moves: Vec<Step>,
    },
}

impl BackgammonAction {
    /// The action's `"type"` tag, as a client writes it.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Roll => "roll",
            Self::Double => "double",
            Self::Take => "take",
            Self::Drop => "drop",
            Self::Beaver => "beaver",
            Self::Play { .. } => "play",
        }
    }
}

/// How a game was won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WinKind {
    Single,
    Gammon,
    Backgammon,
}

impl WinKind {
    fn multiplier(self) -> u32 {
        match self {
            WinKind::Single => 1,
            WinKind::Gammon => 2,
            WinKind::Backgammon => 3,
        }
    }
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BackgammonEvent {
    /// A game of the match begins (1 for the first).
    NewGame {
        game: u32,
        crawford: bool,
    },
    /// One seat's opening throw.
    OpeningRolled {
        seat: Seat,
        dice: [u8; 1],
    },
    /// Both seats threw the same: they throw again.
    OpeningTie {
        seats: Vec<Seat>,
    },
    /// The opening is decided: this seat plays the two opening dice, its own first.
    FirstToPlay {
        seat: Seat,
    },
    /// The seat on roll threw its two dice.
    Rolled {
        seat: Seat,
        dice: [u8; 2],
    },
    /// The roll cannot be played: the turn is lost.
    NoLegalPlay {
        seat: Seat,
    },
    /// `play` is GNU Backgammon's notation, from the mover's side.
    PlayMade {
        seat: Seat,
        moves: Vec<Step>,
        play: String,
    },
    /// `seat` hit the opponent's blot on `point` (the hitter's numbering) and sent it to the bar.
    Captured {
        seat: Seat,
        point: u8,
    },
    /// `seat` offers the cube at `value`.
    Doubled {
        seat: Seat,
        value: u32,
    },
    Taken {
        seat: Seat,
        value: u32,
    },
    Beavered {
        seat: Seat,
        value: u32,
    },
    Dropped {
        seat: Seat,
    },
    /// One game of the match is won (the match, and so the table's game, may go on):
    /// `points` = kind × cube (a dropped double wins the cube's value before the double).
    GameWon {
        seat: Seat,
        kind: WinKind,
        cube: u32,
        points: u32,
    },
    MatchScore {
        score: [u32; 2],
        match_to: u32,
    },
    /// The match (or money game) is over: `places` per seat (the winner 1), `score` the final
    /// match score.
    GameOver {
        places: Vec<u8>,
        score: [u32; 2],
    },
}

/// Where the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The seat on turn rolls (or doubles first).
    ToRoll,
    /// The seat on turn plays these dice.
    ToPlay { dice: [u8; 2] },
    /// The seat on turn doubled; the other takes, drops or beavers.
    CubeOffered,
    /// The match (or money game) is over.
    Over,
}

/// A money game or a match. Serialized (the state clients see) with the position in the
/// notations other programs read as well: see its `Serialize` impl.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Backgammon {
    options: BackgammonOptions,
    /// Each seat's checkers on its own points (index 0–23 = points 1–24, 24 = bar).
    board: [[u8; 25]; 2],
    /// The seat on roll (GNU Backgammon's "player on move").
    turn: Seat,
    phase: Phase,
    cube: u32,
    cube_owner: Option<Seat>,
    score: [u32; 2],
    /// 1 for the first game of the match.
    game: u32,
    /// This game is the Crawford game: no doubling.
    crawford_game: bool,
    /// The Crawford game has been played (or was decided against): later games are
    /// post-Crawford.
    crawford_done: bool,
    /// How the last game ended, for the Match ID once the match is over.
    last_state: GameState,
    winner: Option<Seat>,
}

/// The state as clients see it (`play.state` of `GET /v1/tables/{id}` and `state` of every
/// WebSocket entry): every field, then the position as GNU Backgammon's Position ID and
/// Match ID and eXtreme Gammon's XGID, so that a client can hand it to either program (or to
/// `POST /v1/backgammon/plays`) without rebuilding it from the board. Deserializing ignores
/// the three: they are derived from the fields.
impl Serialize for Backgammon {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        BackgammonWire::of(self).serialize(serializer)
    }
}

/// The schema of the state is the schema of what [`Backgammon`]'s `Serialize` writes.
impl schemars::JsonSchema for Backgammon {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Backgammon".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        BackgammonWire::json_schema(generator)
    }
}

/// [`Backgammon`] as it is serialized: every field, then the three IDs.
#[derive(Serialize, schemars::JsonSchema)]
struct BackgammonWire<'a> {
    options: &'a BackgammonOptions,
    /// Each seat's checkers on its own points (index 0–23 = points 1–24, 24 = bar).
    board: &'a [[u8; 25]; 2],
    /// The seat on roll (GNU Backgammon's "player on move").
    turn: Seat,
    phase: &'a Phase,
    cube: u32,
    cube_owner: Option<Seat>,
    score: [u32; 2],
    /// 1 for the first game of the match.
    game: u32,
    /// This game is the Crawford game: no doubling.
    crawford_game: bool,
    /// The Crawford game has been played (or was decided against).
    crawford_done: bool,
    /// How the last game ended, for the Match ID once the match is over.
    last_state: GameState,
    winner: Option<Seat>,
    /// GNU Backgammon's Position ID.
    position_id: String,
    /// GNU Backgammon's Match ID.
    match_id: String,
    /// eXtreme Gammon's XGID.
    xgid: String,
}

impl<'a> BackgammonWire<'a> {
    fn of(game: &'a Backgammon) -> Self {
        // Destructured, so that a new field cannot be forgotten here.
        let Backgammon {
            options,
            board,
            turn,
            phase,
            cube,
            cube_owner,
            score,
            game: number,
            crawford_game,
            crawford_done,
            last_state,
            winner,
        } = game;
        Self {
            options,
            board,
            turn: *turn,
            phase,
            cube: *cube,
            cube_owner: *cube_owner,
            score: *score,
            game: *number,
            crawford_game: *crawford_game,
            crawford_done: *crawford_done,
            last_state: *last_state,
            winner: *winner,
            position_id: game.position_id(),
            match_id: game.match_id(),
            xgid: game.xgid(),
        }
    }
}

fn other(seat: Seat) -> Seat {
    1 - seat
}

impl Backgammon {
    pub fn options(&self) -> &BackgammonOptions {
        &self.options
    }

    /// Seat `s`'s checkers on its own points (index 24 = bar).
    pub fn board(&self, seat: Seat) -> &[u8; 25] {
        &self.board[seat]
    }

    /// The seat on roll.
    pub fn turn(&self) -> Seat {
        self.turn
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The cube's value and owner (`None`: centred).
    pub fn cube(&self) -> (u32, Option<Seat>) {
        (self.cube, self.cube_owner)
    }

    pub fn score(&self) -> [u32; 2] {
        self.score
    }

    pub fn is_crawford_game(&self) -> bool {
        self.crawford_game
    }

    /// The position seen from the seat on roll.
    pub fn position(&self) -> Position {
        Position { me: self.board[self.turn], opp: self.board[other(self.turn)] }
    }

    fn new_game_state(options: BackgammonOptions) -> Self {
        Self {
            options,
            board: [START; 2],
            turn: 0,
            phase: Phase::ToRoll,
            cube: 1,
            cube_owner: None,
            score: [0, 0],
            game: 0,
            crawford_game: false,
            crawford_done: false,
            last_state: GameState::Playing,
            winner: None,
        }
    }

    /// Sets up the next game and throws for the opening.
    fn start_game(&mut self, dice: &mut dyn DiceSource, events: &mut Vec<BackgammonEvent>) {
        self.game += 1;
        self.board = [START; 2];
        self.cube = 1;
        self.cube_owner = None;
        let m = self.options.match_to;
        self.crawford_game = false;
        // As in GNU Backgammon, a 1-point match has no Crawford game: at 0-0 both players are at
        // match point already, and the game is an ordinary (post-Crawford) one.
        if m > 1 && self.options.crawford && !self.crawford_done && self.score.contains(&(m - 1)) {
            self.crawford_game = true;
            self.crawford_done = true;
        }
        events.push(BackgammonEvent::NewGame { game: self.game, crawford: self.crawford_game });
        let mut last = [0; 2];
        let first = opening::first_to_play::<1, _>(2, dice, |round| {
            for (seat, throw) in round.throws.iter().enumerate() {
                if let Some(dice) = *throw {
                    last[seat] = dice[0];
                    events.push(BackgammonEvent::OpeningRolled { seat, dice });
                }
            }
            if round.starts.is_none() {
                events.push(BackgammonEvent::OpeningTie { seats: round.highest.to_vec() });
            }
        });
        events.push(BackgammonEvent::FirstToPlay { seat: first });
        self.turn = first;
        // The starter plays both numbers: its own die first, then the opponent's. Should a
        // broken dice source tie until the opening gives up (`opening::MAX_ROUNDS`), there are
        // no two numbers to play: the starter rolls its first turn instead.
        self.phase = if last[0] == last[1] {
            Phase::ToRoll
        } else {
            Phase::ToPlay { dice: [last[first], last[other(first)]] }
        };
    }

    /// Whether the seat on roll may double now.
    fn may_double(&self) -> bool {
        self.options.cube
            && self.phase == Phase::ToRoll
            && !self.crawford_game
            && self.cube_owner.is_none_or(|o| o == self.turn)
            && self.cube * 2 <= MAX_CUBE
    }

    fn may_beaver(&self) -> bool {
        self.options.beavers && self.options.match_to == 0 && self.cube * 4 <= MAX_CUBE
    }

    /// Legal plays of the current roll with their notation (for clients that show them).
    pub fn legal_plays(&self) -> Vec<analysis::PlayInfo> {
        match self.phase {
            Phase::ToPlay { dice } => analysis::plays_of(&self.position(), dice),
            _ => Vec::new(),
        }
    }

    /// Runs `f` on the legal plays of the current roll (none unless a roll is to be played).
    fn with_plays<R>(&self, f: impl FnOnce(&[board::Play]) -> R) -> R {
        match self.phase {
            Phase::ToPlay { dice } => board::with_plays(&self.position(), dice, f),
            _ => f(&[]),
        }
    }

    /// Ends the game won by `seat`; starts the next one or ends the match.
    fn end_game(
        &mut self,
        seat: Seat,
        kind: WinKind,
        cube: u32,
        state: GameState,
        dice: &mut dyn DiceSource,
        events: &mut Vec<BackgammonEvent>,
    ) {
        let points = kind.multiplier() * cube;
        self.score[seat] += points;
        self.last_state = state;
        events.push(BackgammonEvent::GameWon { seat, kind, cube, points });
        let m = self.options.match_to;
        events.push(BackgammonEvent::MatchScore { score: self.score, match_to: m });
        if m == 0 || self.score[seat] >= m {
            self.phase = Phase::Over;
            self.winner = Some(seat);
            let places = (0..2).map(|s| if s == seat { 1 } else { 2 }).collect();
            events.push(BackgammonEvent::GameOver { places, score: self.score });
        } else {
            self.start_game(dice, events);
        }
    }

    /// How the game just won by the seat on roll counts.
    fn win_kind(&self) -> WinKind {
        let loser = &self.board[other(self.turn)];
        let kind = if loser.iter().sum::<u8>() < board::CHECKERS {
            WinKind::Single
        } else if loser[18..].iter().any(|&n| n > 0) {
            // On the bar (index 24) or in the winner's home board (the loser's 19–24).
            WinKind::Backgammon
        } else {
            WinKind::Gammon
        };
        if self.options.match_to == 0 && self.options.jacoby && self.cube == 1 {
            WinKind::Single
        } else {
            kind
        }
    }

    /// GNU Backgammon's match state of this game.
    pub fn match_state(&self) -> MatchState {
        let doubled = self.phase == Phase::CubeOffered;
        MatchState {
            cube: self.cube,
            cube_owner: self.cube_owner.map(|s| s as u8),
            on_roll: self.turn as u8,
            crawford: self.crawford_game,
            state: if self.phase == Phase::Over { self.last_state } else { GameState::Playing },
            turn: if doubled { other(self.turn) as u8 } else { self.turn as u8 },
            doubled,
            resigned: 0,
            dice: match self.phase {
                Phase::ToPlay { dice } => dice,
                _ => [0, 0],
            },
            match_to: self.options.match_to,
            score: self.score,
            jacoby: self.options.jacoby,
        }
    }

    /// GNU Backgammon Position ID (seen from the seat on roll).
    pub fn position_id(&self) -> String {
        ids::position_id(&self.position())
    }

    /// GNU Backgammon Match ID.
    pub fn match_id(&self) -> String {
        ids::match_id(&self.match_state())
    }

    /// `PositionID:MatchID`, as GNU Backgammon's `gnubgid` prints it.
    pub fn gnubg_id(&self) -> String {
        format!("{}:{}", self.position_id(), self.match_id())
    }

    /// XGID of the current position (seat 1 is the bottom player).
    pub fn xgid(&self) -> String {
        ids::xgid(&Xgid {
            position: self.position(),
            m: self.match_state(),
            beavers: self.options.beavers,
            // eXtreme Gammon's default maximum, raised to the cube when it is above it.
            max_cube_log2: self.cube.trailing_zeros().max(10),
        })
    }

    /// A game set up from a Position ID and Match ID. The match length, cube, scores and the
    /// Jacoby rule come from the Match ID; beavers, the Crawford option and `cube` from
    /// `options`.
    pub fn from_gnubg_ids(
        position_id: &str,
        match_id: &str,
        options: BackgammonOptions,
    ) -> Result<Self, PositionError> {
        let pos = ids::parse_position_id(position_id)?;
        let m = ids::parse_match_id(match_id)?;
        Self::from_parts(pos, &m, options)
    }

    /// A game set up from an XGID.
    pub fn from_xgid(xgid: &str, options: BackgammonOptions) -> Result<Self, PositionError> {
        let x = ids::parse_xgid(xgid)?;
        let options = BackgammonOptions { beavers: x.beavers, ..options };
        Self::from_parts(x.position, &x.m, options)
    }

    fn from_parts(pos: Position, m: &MatchState, options: BackgammonOptions) -> Result<Self, PositionError> {
        let bad = |r: &str| PositionError::MatchId { reason: r.into() };
        if m.state != GameState::Playing {
            return Err(bad("only games in progress can be loaded"));
        }
        if m.resigned != 0 {
            return Err(bad("resignations are not supported"));
        }
        let turn = m.on_roll as Seat;
        let mut board = [[0; 25]; 2];
        board[turn] = pos.me;
        board[other(turn)] = pos.opp;
        if pos.me.iter().sum::<u8>() == 0 || pos.opp.iter().sum::<u8>() == 0 {
            return Err(PositionError::Impossible { reason: "a side has borne off every checker".into() });
        }
        let phase = if m.doubled {
            Phase::CubeOffered
        } else if m.dice[0] > 0 {
            Phase::ToPlay { dice: m.dice }
        } else {
            Phase::ToRoll
        };
        let options = BackgammonOptions {
            match_to: m.match_to,
            jacoby: m.match_to == 0 && m.jacoby,
            beavers: m.match_to == 0 && options.beavers,
            ..options
        };
        // GNU Backgammon's SetMatchID: the Crawford flag holds only in a match longer than one
        // point with a player one point away.
        let one_away = m.match_to > 0 && m.score.contains(&(m.match_to - 1));
        let crawford = m.crawford && m.match_to > 1 && one_away;
        let s = Self {
            board,
            turn,
            phase,
            cube: m.cube,
            cube_owner: m.cube_owner.map(|o| o as Seat),
            score: m.score,
            game: 1,
            crawford_game: crawford,
            crawford_done: crawford || one_away,
            last_state: GameState::Playing,
            winner: None,
            options,
        };
        Ok(s)
    }

    /// The legal play of the roll that `moves` makes: the one leaving the same position,
    /// whatever the order or split of its steps.
    fn play_of(&self, moves: &[Step]) -> Result<board::Play, RuleError> {
        let before = self.position();
        let mut after = before;
        for (k, &step) in moves.iter().enumerate() {
            if after.apply_step(step).is_none() {
                return Err(RuleError::illegal(format!(
                    "move {} ({}/{}) is not possible",
                    k + 1,
                    step.from,
                    step.to
                )));
            }
        }
        let found = self.with_plays(|plays| {
            plays
                .iter()
                .find(|p| p.result == after)
                .copied()
                .ok_or_else(|| plays.first().map_or(0, |p| p.steps().len()))
        });
        found.map_err(|max| {
            RuleError::illegal(if moves.is_empty() {
                "the roll can be played: a play must use it".to_string()
            } else {
                format!(
                    "{} is not a legal play of this roll (legal plays use {} dice, \
                     each die a separate move onto open points)",
                    notation(&before, moves),
                    max
                )
            })
        })
    }

    /// Applies a whole play for the seat on roll.
    fn apply_play(
        &mut self,
        seat: Seat,
        moves: &[Step],
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<BackgammonEvent>, RuleError> {
        let before = self.position();
        let play = self.play_of(moves)?;
        let mut events = vec![BackgammonEvent::PlayMade {
            seat,
            moves: play.steps().to_vec(),
            play: notation(&before, play.steps()),
        }];
        // Hits: the opponent's checkers that went to the bar, by where they stood.
        for i in 0..24 {
            let lost = before.opp[i].saturating_sub(play.result.opp[i]);
            if lost > 0 {
                events.push(BackgammonEvent::Captured { seat, point: 24 - i as u8 });
            }
        }
        self.board[seat] = play.result.me;
        self.board[other(seat)] = play.result.opp;
        if self.board[seat].iter().all(|&n| n == 0) {
            let kind = self.win_kind();
            self.end_game(seat, kind, self.cube, GameState::Over, dice, &mut events);
        } else {
            self.turn = other(seat);
            self.phase = Phase::ToRoll;
        }
        Ok(events)
    }
}

impl Engine for Backgammon {
    type Options = BackgammonOptions;
    type Action = BackgammonAction;
    type Event = BackgammonEvent;

    fn validate(options: &BackgammonOptions, seats: usize) -> Result<(), RuleError> {
        if seats != 2 {
            return Err(RuleError::invalid_options(format!("backgammon is for 2 players, not {seats}")));
        }
        if options.match_to > 99 {
            return Err(RuleError::invalid_options("matches are played to at most 99 points"));
        }
        if options.match_to > 0 && (options.beavers || options.jacoby) {
            return Err(RuleError::invalid_options(
                "beavers and the Jacoby rule are for money games (match_to 0)",
            ));
        }
        if !options.cube && options.beavers {
            return Err(RuleError::invalid_options("beavers need the cube"));
        }
        Ok(())
    }

    fn new(
        options: BackgammonOptions,
        seats: usize,
        dice: &mut dyn DiceSource,
    ) -> Result<(Self, Vec<BackgammonEvent>), RuleError> {
        Self::validate(&options, seats)?;
        let mut g = Self::new_game_state(options);
        let mut events = Vec::new();
        g.start_game(dice, &mut events);
        Ok((g, events))
    }

    fn to_act(&self) -> Option<Seat> {
        match self.phase {
            Phase::Over => None,
            Phase::CubeOffered => Some(other(self.turn)),
            _ => Some(self.turn),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<BackgammonAction> {
        if self.to_act() != Some(seat) {
            return Vec::new();
        }
        match self.phase {
            Phase::ToRoll => {
                let mut v = vec![BackgammonAction::Roll];
                if self.may_double() {
                    v.push(BackgammonAction::Double);
                }
                v
            }
            Phase::ToPlay { .. } => self.with_plays(|plays| {
                plays.iter().map(|p| BackgammonAction::Play { moves: p.steps().to_vec() }).collect()
            }),
            Phase::CubeOffered => {
                let mut v = vec![BackgammonAction::Take, BackgammonAction::Drop];
                if self.may_beaver() {
                    v.push(BackgammonAction::Beaver);
                }
                v
            }
            Phase::Over => Vec::new(),
        }
    }

    /// A play is the one listed that leaves the same position (the steps in another order, or
    /// split at another point); other actions are listed as they are written.
    fn legal_action(&self, seat: Seat, action: &BackgammonAction) -> Option<BackgammonAction> {
        match (action, self.phase) {
            (BackgammonAction::Play { moves }, Phase::ToPlay { .. }) if self.to_act() == Some(seat) => {
                let play = self.play_of(moves).ok()?;
                Some(BackgammonAction::Play { moves: play.steps().to_vec() })
            }
            _ => self.legal_actions(seat).into_iter().find(|a| a == action),
        }
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &BackgammonAction,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<BackgammonEvent>, RuleError> {
        let Some(to_act) = self.to_act() else {
            return Err(RuleError::game_over());
        };
        if seat != to_act {
            return Err(RuleError::not_your_turn(format!("seat {to_act} is to act, not seat {seat}")));
        }
        use BackgammonAction as A;
        match (action, self.phase) {
            (A::Roll, Phase::ToRoll) => {
                let d = [dice.die(), dice.die()];
                let mut events = vec![BackgammonEvent::Rolled { seat, dice: d }];
                self.phase = Phase::ToPlay { dice: d };
                if self.with_plays(<[board::Play]>::is_empty) {
                    events.push(BackgammonEvent::NoLegalPlay { seat });
                    self.turn = other(seat);
                    self.phase = Phase::ToRoll;
                }
                Ok(events)
            }
            (A::Double, Phase::ToRoll) => {
                if !self.may_double() {
                    let why = if !self.options.cube {
                        "this table plays without the cube"
                    } else if self.crawford_game {
                        "no doubling in the Crawford game"
                    } else if self.cube_owner == Some(other(seat)) {
                        "the opponent owns the cube"
                    } else {
                        "the cube is at its maximum"
                    };
                    return Err(RuleError::illegal(why));
                }
                self.phase = Phase::CubeOffered;
                Ok(vec![BackgammonEvent::Doubled { seat, value: self.cube * 2 }])
            }
            (A::Take, Phase::CubeOffered) => {
                self.cube *= 2;
                self.cube_owner = Some(seat);
                self.phase = Phase::ToRoll;
                Ok(vec![BackgammonEvent::Taken { seat, value: self.cube }])
            }
            (A::Beaver, Phase::CubeOffered) => {
                if !self.may_beaver() {
                    return Err(RuleError::illegal("beavers are not allowed at this table"));
                }
                self.cube *= 4;
                self.cube_owner = Some(seat);
                self.phase = Phase::ToRoll;
                Ok(vec![BackgammonEvent::Beavered { seat, value: self.cube }])
            }
            (A::Drop, Phase::CubeOffered) => {
                let mut events = vec![BackgammonEvent::Dropped { seat }];
                let cube = self.cube;
                self.end_game(other(seat), WinKind::Single, cube, GameState::Dropped, dice, &mut events);
                Ok(events)
            }
            (A::Play { moves }, Phase::ToPlay { .. }) => self.apply_play(seat, moves, dice),
            (action, phase) => {
                let expected = match phase {
                    Phase::ToRoll => "roll or double",
                    Phase::ToPlay { .. } => "play the roll",
                    Phase::CubeOffered => "take or drop the cube",
                    Phase::Over => "nothing",
                };
                Err(RuleError::illegal(format!("cannot {} now: it is time to {expected}", action.name())))
            }
        }
    }

    fn forced_action(&self) -> Option<BackgammonAction> {
        let Phase::ToPlay { .. } = self.phase else {
            return None;
        };
        self.with_plays(|plays| match plays {
            [only] => Some(BackgammonAction::Play { moves: only.steps().to_vec() }),
            _ => None,
        })
    }

    fn outcome(&self) -> Option<Outcome> {
        let winner = self.winner?;
        let mut places = vec![2, 2];
        places[winner] = 1;
        Some(Outcome {
            places,
            points: Some(self.score.iter().map(|&s| s as i32).collect()),
            shame: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests;
