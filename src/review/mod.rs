//! Backgammon analysis for players (docs/analysis.md): hints ([`hint`]) and the review of a
//! finished table ([`replay`]), both from the trained network searched one ply deeper
//! ([`eval`]).
//!
//! Pure, like the ledger below the store: the store feeds [`replay::Reviewer`] a finished
//! table's log a page at a time and keeps what it returns.

pub mod eval;
pub mod hint;
pub mod replay;

use serde::{Deserialize, Serialize};

/// A decision that lost at least this much equity (per unit of cube) is an error.
pub const ERROR_FROM: f32 = 0.040;
/// A decision that lost at least this much is a blunder (GNU Backgammon's "bad" mark).
pub const BLUNDER_FROM: f32 = 0.080;

/// How bad a decision was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// Lost at least 0.040 (40 millipoints).
    Error,
    /// Lost at least 0.080 (80 millipoints).
    Blunder,
}

impl Mark {
    pub fn of(loss: f32) -> Option<Self> {
        if loss >= BLUNDER_FROM {
            Some(Mark::Blunder)
        } else if loss >= ERROR_FROM {
            Some(Mark::Error)
        } else {
            None
        }
    }
}

/// GNU Backgammon's rating of an error rate (millipoints lost per decision).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Band {
    /// Below 2.
    #[default]
    Supernatural,
    /// 2 to 5.
    WorldClass,
    /// 5 to 8.
    Expert,
    /// 8 to 12.
    Advanced,
    /// 12 to 18.
    Intermediate,
    /// 18 to 26.
    CasualPlayer,
    /// 26 to 35.
    Beginner,
    /// 35 and more.
    Awful,
}

impl Band {
    /// The band of an error rate in millipoints per decision (GNU Backgammon's thresholds).
    pub fn of(mp: f64) -> Self {
        match mp {
            x if x < 2.0 => Band::Supernatural,
            x if x < 5.0 => Band::WorldClass,
            x if x < 8.0 => Band::Expert,
            x if x < 12.0 => Band::Advanced,
            x if x < 18.0 => Band::Intermediate,
            x if x < 26.0 => Band::CasualPlayer,
            x if x < 35.0 => Band::Beginner,
            _ => Band::Awful,
        }
    }

    /// GNU Backgammon's name of the band.
    pub fn gnubg_name(self) -> &'static str {
        match self {
            Band::Supernatural => "Supernatural",
            Band::WorldClass => "World class",
            Band::Expert => "Expert",
            Band::Advanced => "Advanced",
            Band::Intermediate => "Intermediate",
            Band::CasualPlayer => "Casual player",
            Band::Beginner => "Beginner",
            Band::Awful => "Awful!",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_and_marks_follow_the_documented_thresholds() {
        assert_eq!(Band::of(0.0), Band::Supernatural);
        assert_eq!(Band::of(4.99), Band::WorldClass);
        assert_eq!(Band::of(7.3), Band::Expert);
        assert_eq!(Band::of(8.0), Band::Advanced);
        assert_eq!(Band::of(17.9), Band::Intermediate);
        assert_eq!(Band::of(25.0), Band::CasualPlayer);
        assert_eq!(Band::of(30.0), Band::Beginner);
        assert_eq!(Band::of(35.0), Band::Awful);
        assert_eq!(Mark::of(0.039), None);
        assert_eq!(Mark::of(0.04), Some(Mark::Error));
        assert_eq!(Mark::of(0.08), Some(Mark::Blunder));
    }
}
