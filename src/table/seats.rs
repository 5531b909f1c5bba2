//! What the log decides about one seat: who controls it, how many of its clocks ran out in a
//! row, and how its player's recent decisions went.
//!
//! Plain and synchronous (no tokio, no store), with one way in: [`SeatBook::apply`] takes each
//! log entry, both when the actor writes it and when the log is replayed, so the state rebuilt
//! from the log cannot differ from the live one. Presence (connections, away since) is not here:
//! it is not logged, and a restart begins with nobody connected.

use crate::{
    config::TakeoverRule,
    rules::Seat,
    store::{Controller, LogEntry},
};
use serde_json::Value;
use std::collections::VecDeque;

pub use crate::config::MAX_STALL_WINDOW;

/// Why a bot took a seat (the `reason` of a `takeover` entry).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TakeoverReason {
    /// `in_a_row` timeouts in a row.
    Timeouts,
    /// `stalled` timeouts among the last `window` decisions.
    Stalling,
    /// A timeout while the player had been away long enough.
    Away,
}

impl TakeoverReason {
    pub fn as_str(self) -> &'static str {
        match self {
            TakeoverReason::Timeouts => "timeouts",
            TakeoverReason::Stalling => "stalling",
            TakeoverReason::Away => "away",
        }
    }
}

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

/// What one log entry does to a seat's book.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SeatChange {
    Decided { timed_out: bool },
    TakenOver,
    Reclaimed,
}

impl SeatBook {
    pub fn new(controller: Controller) -> Self {
        Self { controller, timeouts_in_a_row: 0, recent: VecDeque::with_capacity(MAX_STALL_WINDOW as usize) }
    }

    /// The seat `entry` changes the book of, if any.
    pub fn seat_of(entry: &LogEntry) -> Option<Seat> {
        Self::change(entry).and(entry.seat)
    }

    fn change(entry: &LogEntry) -> Option<SeatChange> {
        entry.seat?;
        match (entry.actor.as_str(), entry.action.get("type").and_then(Value::as_str)) {
            ("human", _) => Some(SeatChange::Decided { timed_out: false }),
            ("timeout", _) => Some(SeatChange::Decided { timed_out: true }),
            ("server", Some("takeover")) => Some(SeatChange::TakenOver),
            ("server", Some("reclaim")) => Some(SeatChange::Reclaimed),
            _ => None,
        }
    }

    /// Takes one entry of this seat's into account (entries of other seats, and bot or forced
    /// moves, change nothing).
    pub fn apply(&mut self, entry: &LogEntry) {
        match Self::change(entry) {
            None => {}
            Some(SeatChange::Decided { timed_out }) => {
                self.timeouts_in_a_row = if timed_out { self.timeouts_in_a_row + 1 } else { 0 };
                if self.recent.len() == MAX_STALL_WINDOW as usize {
                    self.recent.pop_front();
                }
                self.recent.push_back(timed_out);
            }
            Some(SeatChange::TakenOver) => self.controller = Controller::Bot,
            // The player starts afresh: past timeouts were paid for by the takeover.
            Some(SeatChange::Reclaimed) => {
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
    use serde_json::json;

    fn entry(seat: Seat, actor: &str, action: Value) -> LogEntry {
        LogEntry { seq: 0, seat: Some(seat), actor: actor.into(), action, payload: json!({}), at: 0 }
    }

    fn decide(book: &mut SeatBook, pattern: &str) {
        for c in pattern.chars() {
            let actor = if c == 'T' { "timeout" } else { "human" };
            book.apply(&entry(0, actor, json!({"type": "roll"})));
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
        let mut book = SeatBook::new(Controller::Human);
        decide(&mut book, "TT");
        book.apply(&entry(0, "forced", json!({"type": "move"})));
        book.apply(&entry(0, "bot", json!({"type": "roll"})));
        assert_eq!(book.timeouts_in_a_row, 2);
    }

    #[test]
    fn a_reclaim_starts_the_seat_afresh() {
        let mut book = SeatBook::new(Controller::Human);
        decide(&mut book, "TTT");
        book.apply(&entry(0, "server", json!({"type": "takeover", "seat": 0, "reason": "timeouts"})));
        assert_eq!(book.controller, Controller::Bot);
        book.apply(&entry(0, "server", json!({"type": "reclaim", "seat": 0})));
        assert_eq!(book, SeatBook::new(Controller::Human));
    }
}
