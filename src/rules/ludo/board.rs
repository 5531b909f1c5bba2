//! Board geometry shared by every Ludo-family game (RULES.md §1): one definition for the square
//! board (4 arms) and the hexagonal board (6 arms).
//!
//! A piece is described by its *progress* `p` relative to its own start square, so that the rules
//! never need to know which arm a seat sits on: `p = 0` is the start square, `0 ≤ p ≤ L−2` are
//! track squares (track index `(13·arm + p) mod L`), `L−1 ..= L+3` are the seat's private home
//! column and `L+4` is home. The square just behind the start square (`p = L−1` on the track) is
//! never visited: a piece turns into its home column there.

use serde::{Deserialize, Serialize};

/// Track squares per arm.
pub const SQUARES_PER_ARM: u8 = 13;
/// Squares in each home column.
pub const HOME_COLUMN: u8 = 5;
/// Pieces each seat plays with.
pub const PIECES: usize = 4;
/// The most seats any board holds (the hexagonal one).
pub const MAX_SEATS: usize = 6;

/// The two boards of the family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BoardKind {
    /// 4 arms, 52 track squares: 2–4 players.
    Square,
    /// 6 arms, 78 track squares: 5–6 players.
    Hex,
}

impl BoardKind {
    /// The board a table of `seats` players uses, or `None` if no board seats that many.
    pub fn for_seats(seats: usize) -> Option<Self> {
        match seats {
            2..=4 => Some(Self::Square),
            5 | 6 => Some(Self::Hex),
            _ => None,
        }
    }

    pub fn arms(self) -> u8 {
        match self {
            Self::Square => 4,
            Self::Hex => 6,
        }
    }

    /// L: the number of track squares.
    pub fn track_len(self) -> u8 {
        self.arms() * SQUARES_PER_ARM
    }

    /// The progress of a piece that is home (`L + 4`).
    pub fn home(self) -> u8 {
        self.track_len() + HOME_COLUMN - 1
    }

    /// The last progress on the shared track (`L − 2`); beyond it lies the home column.
    pub fn last_track(self) -> u8 {
        self.track_len() - 2
    }

    /// The colour painted on `arm`: clockwise yellow, red, green, blue on the square board, so
    /// that yellow faces green and red faces blue; the hexagonal board adds purple and orange.
    pub fn colour(self, arm: u8) -> &'static str {
        const SQUARE: [&str; 4] = ["yellow", "red", "green", "blue"];
        const HEX: [&str; 6] = ["yellow", "red", "green", "blue", "purple", "orange"];
        match self {
            Self::Square => SQUARE.get(arm as usize).copied().unwrap_or("grey"),
            Self::Hex => HEX.get(arm as usize).copied().unwrap_or("grey"),
        }
    }

    /// Whether a track square is a star (safe in Luddo): every start square `13·k` and the square
    /// `13·k + 8`, on every arm, occupied or not.
    pub fn is_star(self, square: u8) -> bool {
        let r = square % SQUARES_PER_ARM;
        square < self.track_len() && (r == 0 || r == 8)
    }
}

/// The arms `seats` players sit on, in seat (clockwise play) order: two players face each other
/// (arms 0 and 2), three take arms 0, 1, 2, four fill the square board; five leave the hexagonal
/// board's last arm empty, six fill it. Empty for a seat count no board holds.
pub fn arms_for(seats: usize) -> &'static [u8] {
    match seats {
        2 => &[0, 2],
        3 => &[0, 1, 2],
        4 => &[0, 1, 2, 3],
        5 => &[0, 1, 2, 3, 4],
        6 => &[0, 1, 2, 3, 4, 5],
        _ => &[],
    }
}

/// The start square (track index) of a seat on `arm`.
pub fn start_square(arm: u8) -> u8 {
    SQUARES_PER_ARM * arm
}

/// The track index of progress `p` for a seat on `arm`, or `None` when `p` is not on the shared
/// track (home column or home).
pub fn track_square(kind: BoardKind, arm: u8, p: u8) -> Option<u8> {
    if p > kind.last_track() {
        return None;
    }
    let len = kind.track_len();
    let t = start_square(arm) + p;
    Some(if t >= len { t - len } else { t })
}

/// How many squares clockwise from track square `from` to track square `to`, on `kind`'s track.
pub fn distance(kind: BoardKind, from: u8, to: u8) -> u8 {
    let len = kind.track_len();
    if to >= from { to - from } else { to + len - from }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_board_has_52_squares() {
        let k = BoardKind::Square;
        assert_eq!((k.arms(), k.track_len(), k.home()), (4, 52, 56));
        assert_eq!(BoardKind::for_seats(2), Some(k));
        assert_eq!(BoardKind::for_seats(4), Some(k));
    }

    #[test]
    fn hex_board_has_78_squares() {
        let k = BoardKind::Hex;
        assert_eq!((k.arms(), k.track_len(), k.home()), (6, 78, 82));
        assert_eq!(BoardKind::for_seats(5), Some(k));
        assert_eq!(BoardKind::for_seats(6), Some(k));
        assert_eq!(BoardKind::for_seats(7), None);
        assert_eq!(BoardKind::for_seats(1), None);
    }

    #[test]
    fn start_squares_are_13_k() {
        assert_eq!((0..6).map(start_square).collect::<Vec<_>>(), [0, 13, 26, 39, 52, 65]);
        assert_eq!(track_square(BoardKind::Square, 3, 0), Some(39));
    }

    #[test]
    fn progress_wraps_round_the_track_then_enters_the_home_column() {
        let k = BoardKind::Square;
        // Blue (arm 3) starts on 39, wraps past 51 to 0 and turns in at 37 (= L − 2 progress).
        assert_eq!(track_square(k, 3, 12), Some(51));
        assert_eq!(track_square(k, 3, 13), Some(0));
        assert_eq!(track_square(k, 3, 50), Some(37));
        assert_eq!(track_square(k, 3, 51), None, "p = L−1 is the home column");
        let h = BoardKind::Hex;
        assert_eq!(track_square(h, 5, 76), Some(63));
        assert_eq!(track_square(h, 5, 77), None);
        assert_eq!(distance(k, 50, 2), 4);
        assert_eq!(distance(k, 2, 50), 48);
    }

    #[test]
    fn star_squares_are_13_k_and_13_k_plus_8() {
        let stars: Vec<u8> = (0..52).filter(|&s| BoardKind::Square.is_star(s)).collect();
        assert_eq!(stars, [0, 8, 13, 21, 26, 34, 39, 47]);
        let hex: Vec<u8> = (0..78).filter(|&s| BoardKind::Hex.is_star(s)).collect();
        assert_eq!(hex.len(), 12);
        assert!(hex.contains(&73) && hex.contains(&65));
    }

    #[test]
    fn seats_sit_on_the_documented_arms() {
        assert_eq!(arms_for(2), [0, 2]);
        assert_eq!(arms_for(3), [0, 1, 2]);
        assert_eq!(arms_for(4), [0, 1, 2, 3]);
        assert_eq!(arms_for(5), [0, 1, 2, 3, 4]);
        assert_eq!(arms_for(6), [0, 1, 2, 3, 4, 5]);
        assert!(arms_for(7).is_empty());
        assert_eq!(BoardKind::Square.colour(0), "yellow");
        assert_eq!(BoardKind::Square.colour(2), "green");
    }
}
