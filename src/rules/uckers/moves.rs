//! How pieces move: one piece by one die or by the total, and the full list of distinct plays
//! a throw allows (RULES.md §5, "A throw is used in one of two ways").

use super::Challenge;
use super::action::{Action, Step};
use super::board::{Board, Colour, HOME, LAST_TRACK, PieceId, TRACK_LEN, track_square};
use super::options::UckersOptions;
use std::collections::HashSet;

/// What one piece's move does to the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Effect {
    pub piece: PieceId,
    /// Progress before (`None` = base).
    pub from: Option<u8>,
    pub to: u8,
    /// Opposing pieces on the landing square, sent back to base.
    pub captures: Vec<PieceId>,
}

/// Why one piece cannot move by a number. Move generation tries many candidates and drops the
/// blocked ones, so the reason stays a value; [`Blocked::message`] words it only when a refused
/// action is explained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Blocked {
    /// Not a piece: its index is above 3.
    NoSuchPiece,
    /// Not a piece of the colour this turn moves.
    NotPlaying {
        playing: Colour,
    },
    /// In base, and the die is not a 6.
    InBase,
    /// An opposing blob holds the piece's start square.
    StartHeld {
        square: u8,
    },
    AtHome,
    /// In its pipe, and the partner (not the owner) is moving.
    InPipe,
    /// In a superblob, which stays put.
    InSuperblob {
        square: u8,
    },
    /// Under another piece of a stack (mixed blob stacking).
    UnderStack {
        square: u8,
    },
    /// Past home: `needs` is the exact distance left.
    Overshoots {
        needs: u8,
    },
    /// An opposing blob stands on the way.
    CannotPass {
        square: u8,
    },
    /// An opposing blob stands on the landing square.
    CannotLand {
        square: u8,
    },
}

impl Blocked {
    /// The reason in a player's words, for `piece`.
    pub fn message(self, piece: PieceId) -> String {
        match self {
            Self::NoSuchPiece => "pieces are numbered 0 to 3".into(),
            Self::NotPlaying { playing } => format!("this turn moves {} pieces", playing.name()),
            Self::InBase => format!("{piece} is in base: only a 6 brings it out"),
            Self::StartHeld { square } => format!(
                "an opposing blob holds {}'s start square {square}: it can only be challenged",
                piece.colour.name()
            ),
            Self::AtHome => format!("{piece} is already home"),
            Self::InPipe => format!("{piece} is in its pipe: only its owner may move it now"),
            Self::InSuperblob { square } => {
                format!("{piece} is in a superblob on square {square}: it cannot move")
            }
            Self::UnderStack { square } => format!(
                "{piece} is under another piece of the stack on square {square}: only the top piece may move"
            ),
            Self::Overshoots { needs } => format!("{piece} would overshoot home: it needs exactly {needs}"),
            Self::CannotPass { square } => {
                format!("{piece} cannot pass the opposing blob on square {square}")
            }
            Self::CannotLand { square } => {
                format!("{piece} cannot land on the opposing blob on square {square}")
            }
        }
    }
}

/// Who is moving this turn: the colour whose turn it is, and the colour whose pieces it moves
/// (its partner's, once it has finished and thrown its 6).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mover<'a> {
    pub options: &'a UckersOptions,
    pub turn: Colour,
    pub playing: Colour,
    /// Superblobs stay put: with the option, unless the game is [`deadlocked`].
    pub frozen: bool,
    /// The challenges standing, by challenging colour: two plays that leave the same position
    /// are still different plays when one of them makes a challenge lapse on the way.
    pub challenges: [Option<Challenge>; 4],
}

impl Mover<'_> {
    /// Moving `piece` by one die: bringing it out of base with a 6, or advancing it.
    pub fn step(&self, board: &Board, piece: PieceId, die: u8) -> Result<Effect, Blocked> {
        match board.progress(piece) {
            None if die == 6 => self.enter(board, piece),
            None => Err(Blocked::InBase),
            Some(_) => self.advance(board, piece, die),
        }
    }

    /// Bringing `piece` out of base onto its start square.
    pub fn enter(&self, board: &Board, piece: PieceId) -> Result<Effect, Blocked> {
        let square = piece.colour.start_square();
        if board.blocks(square, piece.colour) {
            return Err(Blocked::StartHeld { square });
        }
        Ok(Effect { piece, from: None, to: 0, captures: opponents_at(board, square, piece.colour) })
    }

    /// Advancing `piece` on the board by `distance` squares, touching only the final square.
    pub fn advance(&self, board: &Board, piece: PieceId, distance: u8) -> Result<Effect, Blocked> {
        let Some(from) = board.progress(piece) else {
            return Err(Blocked::InBase);
        };
        if from == HOME {
            return Err(Blocked::AtHome);
        }
        if piece.colour != self.turn && from > LAST_TRACK {
            return Err(Blocked::InPipe);
        }
        let occ = board.occupancy();
        if let Some(square) = track_square(piece.colour, from) {
            if self.frozen && occ.blob_size(square) >= 3 {
                return Err(Blocked::InSuperblob { square });
            }
            if self.options.mixed_blob_stacking && occ.is_mixed(square) && board.top_of(square) != Some(piece)
            {
                return Err(Blocked::UnderStack { square });
            }
        }
        let to = from + distance;
        if to > HOME {
            return Err(Blocked::Overshoots { needs: HOME - from });
        }
        for p in from + 1..to {
            if let Some(square) = track_square(piece.colour, p)
                && occ.blocks(square, piece.colour)
            {
                return Err(Blocked::CannotPass { square });
            }
        }
        let captures = match track_square(piece.colour, to) {
            Some(square) if occ.blocks(square, piece.colour) => {
                return Err(Blocked::CannotLand { square });
            }
            Some(square) => {
                let counts = occ.counts(square);
                if (0..4).any(|c| counts[c] > 0 && Colour::from_index(c).is_opponent(piece.colour)) {
                    opponents_at(board, square, piece.colour)
                } else {
                    Vec::new()
                }
            }
            None => Vec::new(),
        };
        Ok(Effect { piece, from: Some(from), to, captures })
    }

    /// Every distinct play of the throw, in a stable order: splits and totals when both dice
    /// can be used, else the larger die, else the smaller; empty when nothing can move. Plays
    /// are told apart by the position they leave and the challenges they leave standing.
    pub fn plays(&self, board: &Board, [a, b]: [u8; 2]) -> Vec<Action> {
        // Plays are few (at most a few dozen): a list finds repeats faster than a hash set.
        let mut seen = Vec::new();
        let mut out = Vec::new();
        let mut offer = |action: Action, (after, standing): (Board, u8), out: &mut Vec<Action>| {
            let key = (after.key(), standing);
            if !seen.contains(&key) {
                seen.push(key);
                out.push(action);
            }
        };
        let pieces: Vec<PieceId> = PieceId::all_of(self.playing).collect();
        // Pieces on the same spot are interchangeable, except in a stack where only the top
        // one moves: trying the first of them is enough.
        let leaders: Vec<PieceId> = if self.options.mixed_blob_stacking {
            pieces.clone()
        } else {
            pieces
                .iter()
                .copied()
                .filter(|&p| pieces.iter().find(|q| board.progress(**q) == board.progress(p)) == Some(&p))
                .collect()
        };
        let orders: &[(u8, u8)] = if a == b { &[(a, b)] } else { &[(a, b), (b, a)] };
        for &(x, y) in orders {
            for &first in &leaders {
                let Ok(e1) = self.step(board, first, x) else {
                    continue;
                };
                let mut b1 = board.clone();
                apply(&mut b1, &e1);
                let standing = self.standing(&b1, 0b1111);
                for &second in pieces.iter().filter(|&&p| p != first) {
                    if let Ok(e2) = self.step(&b1, second, y) {
                        let mut b2 = b1.clone();
                        apply(&mut b2, &e2);
                        let standing = self.standing(&b2, standing);
                        let steps = vec![Step { piece: first, die: x }, Step { piece: second, die: y }];
                        offer(Action::Move { steps }, (b2, standing), &mut out);
                    }
                }
            }
        }
        for &piece in &leaders {
            if let Ok(e) = self.advance(board, piece, a + b) {
                let mut after = board.clone();
                apply(&mut after, &e);
                let standing = self.standing(&after, 0b1111);
                offer(Action::Total { piece }, (after, standing), &mut out);
            }
        }
        if !out.is_empty() {
            return out;
        }
        let mut singles = vec![a.max(b)];
        if a != b {
            singles.push(a.min(b));
        }
        for die in singles {
            for &piece in &leaders {
                if let Ok(e) = self.step(board, piece, die) {
                    let mut after = board.clone();
                    apply(&mut after, &e);
                    let standing = self.standing(&after, 0b1111);
                    let steps = vec![Step { piece, die }];
                    offer(Action::Move { steps }, (after, standing), &mut out);
                }
            }
            if !out.is_empty() {
                break;
            }
        }
        out
    }

    /// The challenges the playing colour may declare with a 6: from a piece directly before an
    /// opposing blob (not from a mixed blob), or from base against a blob on its start square.
    pub fn challenges(&self, board: &Board) -> Vec<Action> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let occ = board.occupancy();
        for piece in PieceId::all_of(self.playing) {
            let progress = board.progress(piece);
            if !seen.insert(progress) {
                continue;
            }
            let target = match progress {
                None => Some(self.playing.start_square()),
                Some(p) if p < LAST_TRACK => {
                    let here = track_square(self.playing, p).unwrap_or(0);
                    if occ.is_mixed(here) { None } else { track_square(self.playing, p + 1) }
                }
                Some(_) => None,
            };
            if let Some(target) = target
                && occ.blocks(target, self.playing)
            {
                out.push(Action::Challenge { piece, target });
            }
        }
        out
    }

    /// Of the standing challenges in `standing` (a bit per challenging colour), those that
    /// still stand on `board`.
    fn standing(&self, board: &Board, standing: u8) -> u8 {
        let mut out = 0;
        for (i, ch) in self.challenges.iter().enumerate() {
            if standing & (1 << i) != 0 && ch.is_some_and(|ch| ch.stands(board)) {
                out |= 1 << i;
            }
        }
        out
    }

    /// The board after a play (`Move` or `Total`) of this throw, its steps made in the order
    /// given, with the challenges still standing after every step; `None` if it cannot be made.
    pub fn after(&self, board: &Board, action: &Action, dice: [u8; 2]) -> Option<(Board, u8)> {
        let mut after = board.clone();
        let mut standing = 0b1111;
        match action {
            Action::Move { steps } => {
                for s in steps {
                    let e = self.step(&after, s.piece, s.die).ok()?;
                    apply(&mut after, &e);
                    standing = self.standing(&after, standing);
                }
            }
            Action::Total { piece } => {
                let e = self.advance(&after, *piece, dice[0] + dice[1]).ok()?;
                apply(&mut after, &e);
                standing = self.standing(&after, standing);
            }
            _ => return None,
        }
        Some((after, standing))
    }
}

/// Every throw, the 6s first (they open the most plays).
const THROWS: [[u8; 2]; 21] = {
    let mut out = [[0; 2]; 21];
    let mut i = 0;
    let mut a = 6;
    while a >= 1 {
        let mut b = a;
        while b >= 1 {
            out[i] = [a, b];
            i += 1;
            b -= 1;
        }
        a -= 1;
    }
    out
};

/// Whether the superblob rule would stall the game forever: a superblob stands, and no colour
/// with pieces still out could make a play with any throw or declare a challenge. Nothing on
/// the board could then ever change, so superblobs may move until something has (see
/// docs/rules/uckers.md).
pub(crate) fn deadlocked(options: &UckersOptions, board: &Board) -> bool {
    let occ = board.occupancy();
    if !options.superblobs || !(0..TRACK_LEN).any(|square| occ.blob_size(square) >= 3) {
        return false;
    }
    Colour::ALL.into_iter().filter(|&c| !board.all_home(c)).all(|c| {
        let mover = Mover { options, turn: c, playing: c, frozen: true, challenges: [None; 4] };
        mover.challenges(board).is_empty() && THROWS.iter().all(|&dice| mover.plays(board, dice).is_empty())
    })
}

/// The pieces on `square` that play against `colour`.
fn opponents_at(board: &Board, square: u8, colour: Colour) -> Vec<PieceId> {
    board.at_square(square).into_iter().filter(|p| p.colour.is_opponent(colour)).collect()
}

/// Makes a move on the board: captured pieces go to base, the piece to its new place.
pub(crate) fn apply(board: &mut Board, effect: &Effect) {
    for &captured in &effect.captures {
        board.set(captured, None);
    }
    board.set(effect.piece, Some(effect.to));
}
