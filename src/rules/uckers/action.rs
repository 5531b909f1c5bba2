//! What a seat may do in Uckers, and what the engine reports happened.

use super::board::{Colour, Partnership, PieceId};
use crate::rules::{ExtraRollReason, Seat};
use serde::{Deserialize, Serialize};

/// One piece moved by one die. A piece in base with a die of 6 is brought out onto its start
/// square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Step {
    pub piece: PieceId,
    pub die: u8,
}

/// An action, tagged by `"type"`:
///
/// ```json
/// {"type": "roll"}
/// {"type": "move", "steps": [{"piece": {"colour": "yellow", "index": 0}, "die": 6},
///                            {"piece": {"colour": "yellow", "index": 2}, "die": 3}]}
/// {"type": "total", "piece": {"colour": "red", "index": 1}}
/// {"type": "challenge", "piece": {"colour": "red", "index": 1}, "target": 17}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Throw both dice.
    Roll,
    /// Use the throw die by die, in this order: two steps (a split: different pieces), or one
    /// step when only one die can be played (the other is forfeited).
    Move { steps: Vec<Step> },
    /// One piece moves the sum of both dice, touching only the final square.
    Total { piece: PieceId },
    /// Declare a challenge with the throw's 6 against the blob on track square `target`, from
    /// `piece` on the square directly before it (or in base, against a blob on its start
    /// square). The throw's other die is forfeited.
    Challenge { piece: PieceId, target: u8 },
    /// Decline the challenges this throw allows when nothing can move: both dice forfeited.
    Pass,
    /// WAFU snake eyes: call "snake eyes" before the first throw.
    CallSnakeEyes,
    /// Declare a suck-back from `piece` at the mouth of an opponent's pipe against `target` in
    /// that pipe, and throw for it.
    SuckBack { piece: PieceId, target: PieceId },
    /// Declare a blow-back from `piece` in the own pipe at the opponent piece(s) on the pipe's
    /// mouth, and throw for it.
    BlowBack { piece: PieceId },
    /// Declare a stand-up finish and throw: the winning play, if the dice allow one, is made at
    /// once.
    StandUp,
    /// Resign ("up board"): the partnership loses and the seat goes on the back of the board.
    UpBoard,
}

/// Why dice went unused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ForfeitReason {
    /// No piece could use them.
    NoLegalMove,
    /// Only one die could be played.
    OnlyOneDieUsable,
    /// The other die of the throw that declared a challenge.
    ChallengeDeclared,
    /// Dice other than 6 while the player's challenge stands.
    ChallengeStands,
    /// Dice left over when the blob fell.
    BlobCaptured,
    /// A finished player's throw while waiting for a 6.
    ThrowingForSix,
    /// The player declined a challenge with nothing to move.
    Passed,
}

/// What happened, tagged by `"type"`. Progress values follow [`super::board::Piece`]; squares
/// are track indices 0..52.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A seat's throw for the opening.
    OpeningRolled { seat: Seat, dice: [u8; 2] },
    /// These seats tied on the highest opening throw and throw again.
    OpeningTie { seats: Vec<Seat> },
    /// The opening is decided: this seat and colour play first.
    FirstToPlay { seat: Seat, colour: Colour },
    /// WAFU: the player called snake eyes before the first throw.
    SnakeEyesCalled { seat: Seat, colour: Colour },
    /// The seat threw both dice for `colour`'s turn.
    Rolled { seat: Seat, colour: Colour, dice: [u8; 2] },
    /// A piece came out of base onto its start square.
    Entered { piece: PieceId, square: u8 },
    /// A piece moved by one die (`dice` = [d]) or by the total (`dice` = [a, b]).
    Moved { piece: PieceId, dice: Vec<u8>, from: u8, to: u8 },
    /// `seat`'s piece `by` sent `piece` back to base from `square`.
    Captured { seat: Seat, square: u8, piece: PieceId, by: PieceId },
    /// A piece reached home; `seat` plays its colour.
    PieceHome { seat: Seat, piece: PieceId },
    /// All four pieces of a colour are home.
    ColourHome { colour: Colour },
    /// Dice that went unused.
    DiceForfeited { dice: Vec<u8>, reason: ForfeitReason },
    /// The throw held a 6 (`reason` is always `six`): the same player throws again for
    /// `colour`.
    ExtraRoll { seat: Seat, colour: Colour, reason: ExtraRollReason },
    /// The turn passes to `colour`, played by `seat`.
    TurnPassed { seat: Seat, colour: Colour },
    /// Snake eyes on a first throw: these pieces came out onto their start squares.
    AllPiecesOut { colour: Colour, pieces: Vec<PieceId> },
    /// Snake eyes again on the second throw: these pieces went back to base.
    SnakeEyesAgain { colour: Colour, pieces: Vec<PieceId> },
    /// A challenge was declared: `needed` sixes in all, `sixes` thrown so far.
    ChallengeDeclared { piece: PieceId, target: u8, blob: Colour, sixes: u8, needed: u8 },
    /// Sixes counted towards a standing challenge.
    ChallengeSixes { colour: Colour, sixes: u8, needed: u8 },
    /// The challenge succeeded: `piece` moved onto `square`, `captured` went back to base.
    BlobCaptured { piece: PieceId, square: u8, captured: Vec<PieceId> },
    /// `colour`'s challenge against the blob on `target` lapsed.
    ChallengeLapsed { colour: Colour, target: u8 },
    /// A suck-back: `hit` tells whether `target` went back to base.
    SuckBack { piece: PieceId, target: PieceId, distance: u8, hit: bool },
    /// A blow-back at the pieces on `square`: `hit` tells whether they went back to base.
    BlowBack { piece: PieceId, square: u8, distance: u8, hit: bool },
    /// A stand-up finish was declared; `came_off` tells whether the throw won the game.
    StandUpFinish { seat: Seat, came_off: bool },
    /// A finished colour threw its 6: from its next turn it moves its partner's pieces.
    PartnerUnlocked { colour: Colour, partner: Colour },
    /// The seat resigned.
    UpBoard { seat: Seat },
    /// The game is over: `places` per seat (the winning partnership's seats 1, the others 2).
    GameOver { places: Vec<u8>, winners: Partnership },
}
