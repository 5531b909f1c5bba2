//! What the log decides about one seat: who controls it, how many of its clocks ran out in a
//! row, and how its player's recent decisions went.
//!
//! Plain and synchronous (no tokio, no store), with one way in: [`SeatBook::apply`] takes what
//! each log entry does to the seat ([`SeatChange::of`]), both when the entry is written and when
//! the log is replayed, so the state rebuilt from the log cannot differ from the live one. Presence (connections, away since) is not here:
//! it is not logged, and a restart begins with nobody connected.

use crate::{
    config::TakeoverRule,
    store::{Controller, PlayedBy, TableEntry, TakeoverReason},
};
use std::collections::VecDeque;

pub use crate::config::MAX_STALL_WINDOW;

/// One seat's logged bookkeeping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatBook {
    pub controller: Controller,
    /// Clock expiries in a row (shown as `timeouts`).
    pub timeouts_in_a_row: u32,
    /// The player's latest decisions, oldest first: `true` where the clock ran out. Bot and
    /// forced moves are not the player's decisions. At most [`MAX_STALL_WINDOW`].
    recent: VecDeque<bool>,
}

/// What one log entry does to the book of its seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatChange {
    /// The player decided (`human`), or the clock ran out and the bot decided (`timeout`).
    Decided {
        timed_out: bool,
    },
    TakenOver,
    Reclaimed,
}

impl SeatChange {
    /// What an entry played `by` (with `table`, the table's own entry, for `server`) does to
    /// its seat: bot and forced moves are not the player's decisions, and change nothing.
    pub fn of(by: PlayedBy, table: Option<&TableEntry>) -> Option<Self> {
        match (by, table) {
            (PlayedBy::Human, _) => Some(SeatChange::Decided { timed_out: false }),
            (PlayedBy::Timeout, _) => Some(SeatChange::Decided { timed_out: true }),
            (PlayedBy::Server, Some(TableEntry::Takeover { .. })) => Some(SeatChange::TakenOver),
            (PlayedBy::Server, Some(TableEntry::Reclaim { .. })) => Some(SeatChange::Reclaimed),
            _ => None,
        }
    }
}

impl SeatBook {
    pub fn new(controller: Controller) -> Self {
        Self { controller, timeouts_in_a_row: 0, recent: VecDeque::with_capacity(MAX_STALL_WINDOW as usize) }
    }

    /// Takes one change of this seat's into account.
    pub fn apply(&mut self, change: SeatChange) {
        match change {
            SeatChange::Decided { timed_out } => {
                self.timeouts_in_a_row = if timed_out { self.timeouts_in_a_row + 1 } else { 0 };
                if self.recent.len() == MAX_STALL_WINDOW as usize {
                    self.recent.pop_front();
                }
                self.recent.push_back(timed_out);
            }
            SeatChange::TakenOver => self.controller = Controller::Bot,
            // The player starts afresh: past timeouts were paid for by the takeover.
            SeatChange::Reclaimed => {
                self.controller = Controller::Human;
                self.timeouts_in_a_row = 0;
                self.recent.clear();
            }
        }
    }

    /// Whether a bot is due to take the seat by its timeouts alone (after one ran out).
    pub fn takeover_due(&self, rule: &TakeoverRule) -> Option<TakeoverReason> {
        let window = rule.window.min(MAX_STALL_WINDOW) as usize;
        let stalled = self.recent.iter().rev().take(window).filter(|&&t| t).count() as u32;
        if self.timeouts_in_a_row >= rule.in_a_row {
            Some(TakeoverReason::Timeouts)
        } else if stalled >= rule.stalled {
            Some(TakeoverReason::Stalling)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The metrics' `reason` label is the logged spelling.
    #[test]
    fn each_takeover_reason_is_spelled_as_logged() {
        for reason in TakeoverReason::ALL {
            assert_eq!(serde_json::to_value(reason).unwrap(), reason.as_str());
        }
    }

    fn decide(book: &mut SeatBook, pattern: &str) {
        for c in pattern.chars() {
            let by = if c == 'T' { PlayedBy::Timeout } else { PlayedBy::Human };
            book.apply(SeatChange::of(by, None).unwrap());
        }
    }

    #[test]
    fn three_timeouts_in_a_row_hand_the_seat_over() {
        let mut book = SeatBook::new(Controller::Human);
        decide(&mut book, "TT");
        assert_eq!(book.takeover_due(&TakeoverRule::default()), None);
        decide(&mut book, "T");
        assert_eq!(book.takeover_due(&TakeoverRule::default()), Some(TakeoverReason::Timeouts));
    }

    #[test]
    fn four_timeouts_in_six_decisions_hand_the_seat_over() {
        let mut book = SeatBook::new(Controller::Human);
        decide(&mut book, "TTHT");
        assert_eq!(book.takeover_due(&TakeoverRule::default()), None);
        decide(&mut book, "T");
        assert_eq!(book.takeover_due(&TakeoverRule::default()), Some(TakeoverReason::Stalling));
    }

    #[test]
    fn acting_twice_in_three_is_not_stalling() {
        let mut book = SeatBook::new(Controller::Human);
        decide(&mut book, "THHTHHTHHTHHT");
        assert_eq!(book.takeover_due(&TakeoverRule::default()), None);
    }

    #[test]
    fn bot_and_forced_moves_are_not_decisions() {
        assert_eq!(SeatChange::of(PlayedBy::Forced, None), None);
        assert_eq!(SeatChange::of(PlayedBy::Bot, None), None);
        let start = TableEntry::Start { client_seeds: None, client_seed: None, dice_chains: None };
        assert_eq!(SeatChange::of(PlayedBy::Server, Some(&start)), None);
    }

    #[test]
    fn a_reclaim_starts_the_seat_afresh() {
        let mut book = SeatBook::new(Controller::Human);
        decide(&mut book, "TTT");
        let takeover = TableEntry::Takeover { seat: 0, reason: TakeoverReason::Timeouts };
        book.apply(SeatChange::of(PlayedBy::Server, Some(&takeover)).unwrap());
        assert_eq!(book.controller, Controller::Bot);
        book.apply(SeatChange::of(PlayedBy::Server, Some(&TableEntry::Reclaim { seat: 0 })).unwrap());
        assert_eq!(book, SeatBook::new(Controller::Human));
    }
}
