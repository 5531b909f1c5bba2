//! Challenges against blobs (RULES.md §5, "Blobs and challenges"): the standing challenge a
//! colour remembers, declaring one with a 6, counting sixes towards it, capturing the blob, and
//! lapsing when the blob or the challenger moves.

use super::Uckers;
use super::action::{Event, ForfeitReason};
use super::board::{Board, Colour, LAST_TRACK, PieceId, track_square};
use serde::{Deserialize, Serialize};

/// A standing challenge against a blob.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Challenge {
    /// The challenging piece (for a challenge from base, a piece in base).
    pub piece: PieceId,
    /// The blob's track square.
    pub target: u8,
    /// The blob's colour.
    pub blob: Colour,
    /// Sixes thrown so far, the challenge 6 included.
    pub sixes: u8,
    /// Declared from base against a blob on the own start square (one more 6 needed).
    pub from_base: bool,
}

impl Challenge {
    /// Whether the challenge still stands on `board`: the square still holds a blob of its
    /// colour and the challenger still stands before it (or in base, for one from base).
    pub(crate) fn stands(&self, board: &Board) -> bool {
        let in_place = match board.progress(self.piece) {
            None => self.from_base,
            Some(p) => {
                !self.from_base
                    && p < LAST_TRACK
                    && track_square(self.piece.colour, p + 1) == Some(self.target)
            }
        };
        in_place && board.blob_at(self.target) == Some(self.blob)
    }
}

impl Uckers {
    /// The colour to play has a challenge standing: it may only throw.
    pub(super) fn challenge_stands(&self) -> bool {
        self.colours[self.turn.index()].challenge.is_some()
    }

    /// Declares a challenge with the throw's 6 (`dice`) from `piece` against the blob on
    /// `target`: the other die is forfeited, and the 6 earns another throw.
    pub(super) fn declare_challenge(
        &mut self,
        piece: PieceId,
        target: u8,
        dice: [u8; 2],
        events: &mut Vec<Event>,
    ) {
        let t = self.turn;
        let ch = Challenge {
            piece,
            target,
            blob: self.board.blob_at(target).unwrap_or(t),
            sixes: 1,
            from_base: self.board.progress(piece).is_none(),
        };
        self.colours[t.index()].challenge = Some(ch);
        events.push(Event::ChallengeDeclared {
            piece,
            target,
            blob: ch.blob,
            sixes: 1,
            needed: self.sixes_needed(&ch),
        });
        let other = if dice[0] == 6 { dice[1] } else { dice[0] };
        events.push(Event::DiceForfeited { dice: vec![other], reason: ForfeitReason::ChallengeDeclared });
        self.end_throw(true, events);
    }

    /// A throw while `ch` stands: its sixes count towards the challenge (the other dice are
    /// forfeited); the last one needed captures the blob and ends the turn.
    pub(super) fn count_sixes(&mut self, mut ch: Challenge, dice: [u8; 2], events: &mut Vec<Event>) {
        let t = self.turn;
        let needed = self.sixes_needed(&ch);
        if ch.sixes >= needed {
            // The blob shrank after the sixes were counted: they already suffice (rule 3),
            // and this throw captures whatever it shows (docs/rules/uckers.md).
            events.push(Event::ChallengeSixes { colour: t, sixes: ch.sixes, needed });
            return self.capture_blob(ch, dice.to_vec(), events);
        }
        let mut unused = Vec::new();
        for (i, &d) in dice.iter().enumerate() {
            if d != 6 {
                unused.push(d);
                continue;
            }
            ch.sixes += 1;
            if ch.sixes >= needed {
                unused.extend(&dice[i + 1..]);
                self.colours[t.index()].challenge = Some(ch);
                events.push(Event::ChallengeSixes { colour: t, sixes: ch.sixes, needed });
                return self.capture_blob(ch, unused, events);
            }
        }
        self.colours[t.index()].challenge = Some(ch);
        events.push(Event::ChallengeSixes { colour: t, sixes: ch.sixes, needed });
        if !unused.is_empty() {
            events.push(Event::DiceForfeited { dice: unused, reason: ForfeitReason::ChallengeStands });
        }
        self.end_throw(dice.contains(&6), events);
    }

    /// Sixes a challenge needs in all: the challenge 6, one per blob piece, one more from base.
    pub(super) fn sixes_needed(&self, ch: &Challenge) -> u8 {
        1 + self.board.blob_size(ch.target) + u8::from(ch.from_base)
    }

    /// The last 6 of a challenge: the blob goes to base, the challenger onto its square, and
    /// the turn ends at once.
    pub(super) fn capture_blob(&mut self, ch: Challenge, unused: Vec<u8>, events: &mut Vec<Event>) {
        let captured = self.board.at_square(ch.target);
        for &p in &captured {
            self.board.set(p, None);
        }
        let to = match self.board.progress(ch.piece) {
            Some(p) => p + 1,
            None => 0,
        };
        self.board.set(ch.piece, Some(to));
        self.colours[self.turn.index()].challenge = None;
        events.push(Event::BlobCaptured { piece: ch.piece, square: ch.target, captured });
        if !unused.is_empty() {
            events.push(Event::DiceForfeited { dice: unused, reason: ForfeitReason::BlobCaptured });
        }
        self.check_challenges(events);
        self.pass_turn(events);
    }

    /// Drops every challenge whose blob is no longer a blob of its colour on its square, or
    /// whose challenger no longer stands before it.
    pub(super) fn check_challenges(&mut self, events: &mut Vec<Event>) {
        for c in Colour::ALL {
            let Some(ch) = self.colours[c.index()].challenge else {
                continue;
            };
            if !ch.stands(&self.board) {
                self.colours[c.index()].challenge = None;
                events.push(Event::ChallengeLapsed { colour: c, target: ch.target });
            }
        }
    }
}
