//! The square Ludo board as Uckers uses it (RULES.md §1): colours, partnerships, a piece's
//! progress along its own path, and who stands on which track square.
//!
//! Self-contained on purpose: the Ludo engine grows its own geometry on another branch, and the
//! two can be unified later without touching the Uckers rules.

use serde::{Deserialize, Serialize};

/// Track squares on the square board.
pub const TRACK_LEN: u8 = 52;
/// The last progress value on the shared track (the square at the mouth of the own pipe).
pub const LAST_TRACK: u8 = 50;
/// The first square of the home column ("pipe"): progress 51..=55.
pub const PIPE_START: u8 = 51;
/// Progress of a piece that is home (the centre).
pub const HOME: u8 = 56;

/// The four colours, clockwise from arm 0. Yellow+green and red+blue are partners.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Yellow,
    Red,
    Green,
    Blue,
}

impl Colour {
    /// Clockwise order, which is also the order of turns.
    pub const ALL: [Colour; 4] = [Colour::Yellow, Colour::Red, Colour::Green, Colour::Blue];

    /// The arm the colour sits on (0..4), which is also its index in per-colour arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Colour {
        Self::ALL[i % 4]
    }

    /// The colour opposite, its partner.
    pub fn partner(self) -> Colour {
        Self::from_index(self.index() + 2)
    }

    /// The next colour clockwise: whose turn follows.
    pub fn next(self) -> Colour {
        Self::from_index(self.index() + 1)
    }

    pub fn partnership(self) -> Partnership {
        if self.index().is_multiple_of(2) { Partnership::YellowGreen } else { Partnership::RedBlue }
    }

    /// Whether `other` plays for the other partnership.
    pub fn is_opponent(self, other: Colour) -> bool {
        self.partnership() != other.partnership()
    }

    /// The track square a piece of this colour leaves base onto (progress 0).
    pub fn start_square(self) -> u8 {
        13 * self.index() as u8
    }

    /// The track square at the mouth of this colour's pipe (its progress 50): where a suck-back
    /// is declared from and what a blow-back aims at.
    pub fn mouth_square(self) -> u8 {
        track_square(self, LAST_TRACK).unwrap_or(0)
    }

    pub fn name(self) -> &'static str {
        match self {
            Colour::Yellow => "yellow",
            Colour::Red => "red",
            Colour::Green => "green",
            Colour::Blue => "blue",
        }
    }
}

/// The two sides of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Partnership {
    YellowGreen,
    RedBlue,
}

impl Partnership {
    pub fn colours(self) -> [Colour; 2] {
        match self {
            Partnership::YellowGreen => [Colour::Yellow, Colour::Green],
            Partnership::RedBlue => [Colour::Red, Colour::Blue],
        }
    }

    pub fn other(self) -> Partnership {
        match self {
            Partnership::YellowGreen => Partnership::RedBlue,
            Partnership::RedBlue => Partnership::YellowGreen,
        }
    }
}

/// The track square (0..52) at `progress` along `colour`'s path, or `None` once the piece is in
/// its pipe or home.
pub fn track_square(colour: Colour, progress: u8) -> Option<u8> {
    (progress <= LAST_TRACK).then(|| (colour.start_square() + progress) % TRACK_LEN)
}

/// One piece: its colour and which of the colour's four it is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct PieceId {
    pub colour: Colour,
    /// 0..4.
    pub index: u8,
}

impl PieceId {
    pub fn new(colour: Colour, index: u8) -> Self {
        Self { colour, index }
    }

    /// The four pieces of a colour.
    pub fn all_of(colour: Colour) -> impl Iterator<Item = PieceId> {
        (0..4).map(move |index| PieceId { colour, index })
    }
}

impl std::fmt::Display for PieceId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} piece {}", self.colour.name(), self.index)
    }
}

/// Where one piece is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Piece {
    /// `null` in base; 0..=50 on the track (0 = own start square), 51..=55 in the pipe,
    /// 56 home. The track square is `(13·arm + progress) mod 52`.
    pub progress: Option<u8>,
    /// When the piece last arrived on its square (a board-wide counter): the last to arrive
    /// is the top of a stack under `mixed_blob_stacking`.
    pub arrived: u32,
}

/// All sixteen pieces.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Board {
    /// Indexed by colour (yellow, red, green, blue), then by piece index.
    pub pieces: [[Piece; 4]; 4],
    /// The arrival counter last handed out.
    pub arrivals: u32,
}

impl Board {
    pub fn piece(&self, id: PieceId) -> Piece {
        self.pieces[id.colour.index()][usize::from(id.index % 4)]
    }

    pub fn progress(&self, id: PieceId) -> Option<u8> {
        self.piece(id).progress
    }

    /// The track square the piece stands on, if it is on the shared track.
    pub fn square_of(&self, id: PieceId) -> Option<u8> {
        self.progress(id).and_then(|p| track_square(id.colour, p))
    }

    /// Moves a piece (to `None` = base) and stamps its arrival.
    pub fn set(&mut self, id: PieceId, progress: Option<u8>) {
        self.arrivals += 1;
        let arrived = self.arrivals;
        self.pieces[id.colour.index()][usize::from(id.index % 4)] = Piece { progress, arrived };
    }

    /// Every piece on the board, colour by colour.
    pub fn all(&self) -> impl Iterator<Item = (PieceId, Piece)> + '_ {
        Colour::ALL.into_iter().flat_map(PieceId::all_of).map(|id| (id, self.piece(id)))
    }

    /// The pieces on a track square.
    pub fn at_square(&self, square: u8) -> Vec<PieceId> {
        let mut out = Vec::new();
        for c in Colour::ALL {
            for (i, piece) in self.pieces[c.index()].iter().enumerate() {
                if piece.progress.and_then(|p| track_square(c, p)) == Some(square) {
                    out.push(PieceId::new(c, i as u8));
                }
            }
        }
        out
    }

    /// Who stands where on the track, for answering many questions about one position.
    pub fn occupancy(&self) -> Occupancy {
        let mut counts = [[0u8; 4]; TRACK_LEN as usize];
        for c in Colour::ALL {
            for piece in &self.pieces[c.index()] {
                if let Some(square) = piece.progress.and_then(|p| track_square(c, p)) {
                    counts[usize::from(square)][c.index()] += 1;
                }
            }
        }
        Occupancy { counts }
    }

    /// How many pieces of each colour stand on a track square.
    pub fn counts(&self, square: u8) -> [u8; 4] {
        self.occupancy().counts(square)
    }

    /// The colour of the blob on a square: two or more pieces, all of one colour.
    pub fn blob_at(&self, square: u8) -> Option<Colour> {
        self.occupancy().blob_at(square)
    }

    /// How many pieces a blob on this square has (0 when there is no blob).
    pub fn blob_size(&self, square: u8) -> u8 {
        self.occupancy().blob_size(square)
    }

    /// Whether the square holds pieces of two colours (a mixed blob: it blocks nobody).
    pub fn is_mixed(&self, square: u8) -> bool {
        self.occupancy().is_mixed(square)
    }

    /// Whether a blob that `mover` may neither pass nor land on stands on this square.
    pub fn blocks(&self, square: u8, mover: Colour) -> bool {
        self.occupancy().blocks(square, mover)
    }

    /// The piece that arrived last on a square (the top of a stack).
    pub fn top_of(&self, square: u8) -> Option<PieceId> {
        self.at_square(square).into_iter().max_by_key(|&id| self.piece(id).arrived)
    }

    pub fn home_count(&self, colour: Colour) -> u8 {
        PieceId::all_of(colour).filter(|&id| self.progress(id) == Some(HOME)).count() as u8
    }

    pub fn all_home(&self, colour: Colour) -> bool {
        self.home_count(colour) == 4
    }

    /// Each colour's progress values, sorted: two boards with the same key differ only in
    /// which of a colour's interchangeable pieces stands where.
    pub fn key(&self) -> [[Option<u8>; 4]; 4] {
        let mut key = [[None; 4]; 4];
        for c in Colour::ALL {
            let mut ps: [Option<u8>; 4] = std::array::from_fn(|i| self.pieces[c.index()][i].progress);
            ps.sort();
            key[c.index()] = ps;
        }
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_and_mouth_squares_follow_rules_section_1() {
        assert_eq!(Colour::Yellow.start_square(), 0);
        assert_eq!(Colour::Blue.start_square(), 39);
        assert_eq!(Colour::Yellow.mouth_square(), 50);
        assert_eq!(Colour::Red.mouth_square(), 11);
        assert_eq!(track_square(Colour::Green, 30), Some(4));
        assert_eq!(track_square(Colour::Green, 51), None);
    }

    #[test]
    fn partnerships_face_each_other() {
        assert_eq!(Colour::Yellow.partner(), Colour::Green);
        assert_eq!(Colour::Red.partner(), Colour::Blue);
        assert!(Colour::Yellow.is_opponent(Colour::Red));
        assert!(!Colour::Blue.is_opponent(Colour::Red));
    }
}

/// How many pieces of each colour stand on each track square of one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occupancy {
    counts: [[u8; 4]; TRACK_LEN as usize],
}

impl Occupancy {
    pub fn counts(&self, square: u8) -> [u8; 4] {
        self.counts.get(usize::from(square)).copied().unwrap_or_default()
    }

    /// The colour of the blob on a square: two or more pieces, all of one colour.
    pub fn blob_at(&self, square: u8) -> Option<Colour> {
        let counts = self.counts(square);
        let mut colours = (0..4).filter(|&c| counts[c] > 0);
        match (colours.next(), colours.next()) {
            (Some(c), None) if counts[c] >= 2 => Some(Colour::from_index(c)),
            _ => None,
        }
    }

    /// How many pieces a blob on this square has (0 when there is no blob).
    pub fn blob_size(&self, square: u8) -> u8 {
        match self.blob_at(square) {
            Some(c) => self.counts(square)[c.index()],
            None => 0,
        }
    }

    /// Whether the square holds pieces of two colours (a mixed blob: it blocks nobody).
    pub fn is_mixed(&self, square: u8) -> bool {
        self.counts(square).iter().filter(|&&n| n > 0).count() >= 2
    }

    /// Whether a blob that `mover` may neither pass nor land on stands on this square.
    pub fn blocks(&self, square: u8, mover: Colour) -> bool {
        self.blob_at(square).is_some_and(|c| c.is_opponent(mover))
    }
}
