//! The JSON shape of a [`LudoState`]: what a frontend renders and what a stored game reloads
//! from. Reading one back checks it thoroughly, so that no hand-made or corrupted state can make
//! the engine misbehave.

use serde::{Deserialize, Serialize};

use super::ClassicOptions;
use super::board::{BoardKind, MAX_SEATS, PIECES, arms_for};
use super::state::{BASE, LudoState, Phase, Variant};
use crate::rules::{ExtraRollReason, RuleError, Seat};

/// The rule set and its options, tagged by the game's name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "game", rename_all = "snake_case", deny_unknown_fields)]
#[schemars(rename = "Rules")]
pub(crate) enum RulesJson {
    Luddo { home_bonus: bool },
    Ludo { enter_on: Vec<u8>, play_for_places: bool },
}

/// One seat: where it sits, its pieces, its place once finished.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Seat")]
pub(crate) struct SeatJson {
    arm: u8,
    colour: String,
    /// Progress of each piece; `null` in base, `home` once home.
    pieces: [Option<u8>; PIECES],
    place: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "State")]
pub(crate) struct StateJson {
    rules: RulesJson,
    board: BoardKind,
    /// L: track squares (52 or 78); a piece's track square is `(13·arm + progress) mod L`
    /// while `progress ≤ L − 2`.
    track_len: u8,
    /// The progress of a piece that is home (L + 4).
    home: u8,
    seats: Vec<SeatJson>,
    /// Whose decision the game waits for; `null` once it is over.
    to_act: Option<Seat>,
    phase: Phase,
    /// The numbers thrown this sequence, and how many of them are used.
    rolled: Vec<u8>,
    used: u8,
    /// `rolled[used..]`: the numbers still to move, the current one first.
    pending: Vec<u8>,
    /// Luddo: what this sequence has earned toward the extra roll so far.
    bonus: Option<ExtraRollReason>,
}

impl From<LudoState> for StateJson {
    fn from(s: LudoState) -> Self {
        let kind = s.kind;
        let rules = match s.variant {
            Variant::Luddo { home_bonus } => RulesJson::Luddo { home_bonus },
            Variant::Classic { enter_on_one, play_for_places } => {
                RulesJson::Ludo { enter_on: if enter_on_one { vec![1, 6] } else { vec![6] }, play_for_places }
            }
        };
        let seats = (0..s.seats())
            .map(|seat| SeatJson {
                arm: s.arm(seat),
                colour: kind.colour(s.arm(seat)).to_string(),
                pieces: std::array::from_fn(|piece| s.progress(seat, piece)),
                place: s.place(seat),
            })
            .collect();
        Self {
            rules,
            board: kind,
            track_len: kind.track_len(),
            home: kind.home(),
            seats,
            to_act: s.to_act(),
            phase: s.phase,
            rolled: s.numbers[..s.len as usize].to_vec(),
            used: s.next,
            pending: s.pending().to_vec(),
            bonus: s.bonus,
        }
    }
}

impl TryFrom<StateJson> for LudoState {
    type Error = RuleError;

    fn try_from(j: StateJson) -> Result<Self, RuleError> {
        let bad = |why: &str| RuleError::invalid_options(format!("invalid Ludo state: {why}"));
        let variant = match &j.rules {
            RulesJson::Luddo { home_bonus } => Variant::Luddo { home_bonus: *home_bonus },
            RulesJson::Ludo { enter_on, play_for_places } => Variant::Classic {
                enter_on_one: ClassicOptions {
                    enter_on: enter_on.clone(),
                    play_for_places: *play_for_places,
                }
                .enter_on_one()?,
                play_for_places: *play_for_places,
            },
        };
        let n = j.seats.len();
        let kind = BoardKind::for_seats(n).ok_or_else(|| bad("2 to 6 seats"))?;
        if kind != j.board || j.track_len != kind.track_len() || j.home != kind.home() {
            return Err(bad("the board does not match the number of seats"));
        }
        let mut pos = [[BASE; PIECES]; MAX_SEATS];
        let mut places = [0u8; MAX_SEATS];
        for (seat, sj) in j.seats.iter().enumerate() {
            if sj.arm != arms_for(n)[seat] || sj.colour != kind.colour(sj.arm) {
                return Err(bad("a seat sits on the wrong arm"));
            }
            for (piece, p) in sj.pieces.iter().enumerate() {
                pos[seat][piece] = match *p {
                    None => BASE,
                    Some(p) if p <= kind.home() => p,
                    Some(_) => return Err(bad("a piece is beyond home")),
                };
            }
            let all_home = pos[seat].iter().all(|&p| p == kind.home());
            places[seat] = match sj.place {
                None => 0,
                Some(p) if (1..=n as u8).contains(&p) && (all_home || j.to_act.is_none()) => p,
                Some(_) => return Err(bad("a place is out of range or not earned")),
            };
        }
        let len = j.rolled.len();
        let used = j.used as usize;
        let classic = matches!(variant, Variant::Classic { .. });
        if len > 3
            || (classic && len > 1)
            || used > len
            || j.rolled.iter().any(|d| !(1..=6).contains(d))
            || j.pending.as_slice() != &j.rolled[used..]
            || (classic && j.bonus.is_some())
        {
            return Err(bad("the numbers of the turn do not add up"));
        }
        let to_act = match (j.phase, j.to_act) {
            (Phase::Over, None) if len == 0 => 0,
            (Phase::Roll, Some(s)) if s < n && places[s] == 0 && len == 0 => s,
            (Phase::Move, Some(s)) if s < n && places[s] == 0 && used < len => s,
            _ => return Err(bad("the phase, the seat to act and the numbers disagree")),
        };
        let mut numbers = [0u8; 3];
        numbers[..len].copy_from_slice(&j.rolled);
        let mut state = LudoState {
            variant,
            kind,
            seats: n as u8,
            pos,
            to_act: to_act as u8,
            phase: j.phase,
            numbers,
            len: len as u8,
            next: used as u8,
            bonus: j.bonus,
            movable: Default::default(),
            places,
        };
        if state.phase == Phase::Move {
            state.movable = state.moves_for(to_act, state.numbers[used]);
            if state.movable.is_empty() {
                return Err(bad("a move is due but no piece can make it"));
            }
        }
        Ok(state)
    }
}
