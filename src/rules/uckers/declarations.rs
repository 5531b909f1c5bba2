//! What a player declares before throwing (RULES.md §5, "Options beyond the basics"): snake
//! eyes, suck-backs, blow-backs and stand-up finishes; what each is open to, and what its throw
//! does.

use super::action::{Action, Event};
use super::board::{Colour, HOME, LAST_TRACK, PIPE_START, PieceId};
use super::moves::Mover;
use super::options::SnakeEyes;
use super::{Phase, Uckers};
use crate::rules::{DiceSource, Seat};

impl Uckers {
    /// What the colour to play may do before throwing (the throw itself first).
    pub(super) fn before_throw(&self) -> Vec<Action> {
        let mut out = vec![Action::Roll];
        if self.throwing_for_six() || self.challenge_stands() {
            return out;
        }
        let state = &self.colours[self.turn.index()];
        if self.options.snake_eyes == SnakeEyes::Wafu && state.throws == 0 && !state.called_snake_eyes {
            out.push(Action::CallSnakeEyes);
        }
        let playing = self.playing_colour();
        if self.options.suck_back {
            out.extend(self.suck_backs(playing));
        }
        if self.options.blow_back && playing == self.turn {
            out.extend(self.blow_backs(playing));
        }
        if self.options.stand_up_finish && self.needs_one_throw() {
            out.push(Action::StandUp);
        }
        out
    }

    /// WAFU: the colour to play calls "snake eyes" before its first throw.
    pub(super) fn call_snake_eyes(&mut self, seat: Seat, events: &mut Vec<Event>) {
        let t = self.turn;
        self.colours[t.index()].called_snake_eyes = true;
        events.push(Event::SnakeEyesCalled { seat, colour: t });
    }

    /// Snake eyes (double 1) just thrown: on the colour's first throw, if the table's rule
    /// gives it the benefit, its pieces come out (and its partner's, under navy rules); on
    /// the second throw after that, its pieces go back to base. Whether it took the throw.
    pub(super) fn snake_eyes(&mut self, events: &mut Vec<Event>) -> bool {
        let t = self.turn;
        let state = self.colours[t.index()];
        let benefits = match self.options.snake_eyes {
            SnakeEyes::Off => false,
            SnakeEyes::Navy => true,
            SnakeEyes::Wafu => state.called_snake_eyes,
        };
        if benefits && state.throws == 1 {
            self.colours[t.index()].snake_eyes_out = true;
            let mut colours = vec![t];
            if self.options.snake_eyes == SnakeEyes::Navy {
                colours.push(t.partner());
            }
            for c in colours {
                self.all_pieces_out(c, events);
            }
            self.check_challenges(events);
            self.pass_turn(events);
            return true;
        }
        if state.snake_eyes_out && state.throws == 2 {
            let pieces: Vec<PieceId> = PieceId::all_of(t)
                .filter(|&p| self.board.progress(p).is_some() && self.board.progress(p) != Some(HOME))
                .collect();
            for &p in &pieces {
                self.board.set(p, None);
            }
            events.push(Event::SnakeEyesAgain { colour: t, pieces });
            self.check_challenges(events);
            self.pass_turn(events);
            return true;
        }
        false
    }

    /// Snake eyes on a first throw: every piece of `colour` in base comes out, as far as its
    /// start square lets it.
    pub(super) fn all_pieces_out(&mut self, colour: Colour, events: &mut Vec<Event>) {
        let options = self.options.clone();
        let mover =
            Mover { options: &options, turn: colour, playing: colour, frozen: true, challenges: [None; 4] };
        let mut pieces = Vec::new();
        for piece in PieceId::all_of(colour) {
            if self.board.progress(piece).is_some() {
                continue;
            }
            let Ok(effect) = mover.enter(&self.board, piece) else {
                continue;
            };
            self.make(&effect, events);
            pieces.push(piece);
        }
        events.push(Event::AllPiecesOut { colour, pieces });
    }

    pub(super) fn suck_backs(&self, playing: Colour) -> Vec<Action> {
        let mut out = Vec::new();
        let mut seen = Vec::new();
        for piece in PieceId::all_of(playing) {
            let Some(square) = self.board.square_of(piece) else {
                continue;
            };
            if seen.contains(&square) {
                continue;
            }
            seen.push(square);
            for opponent in Colour::ALL.into_iter().filter(|c| c.is_opponent(playing)) {
                if opponent.mouth_square() != square {
                    continue;
                }
                let mut targets_seen = Vec::new();
                for target in PieceId::all_of(opponent) {
                    match self.board.progress(target) {
                        Some(p) if (PIPE_START..HOME).contains(&p) && !targets_seen.contains(&p) => {
                            targets_seen.push(p);
                            out.push(Action::SuckBack { piece, target });
                        }
                        _ => {}
                    }
                }
            }
        }
        out
    }

    pub(super) fn blow_backs(&self, playing: Colour) -> Vec<Action> {
        let mouth = playing.mouth_square();
        if !self.board.at_square(mouth).iter().any(|p| p.colour.is_opponent(playing)) {
            return Vec::new();
        }
        let mut seen = Vec::new();
        let mut out = Vec::new();
        for piece in PieceId::all_of(playing) {
            match self.board.progress(piece) {
                Some(p) if (PIPE_START..HOME).contains(&p) && !seen.contains(&p) => {
                    seen.push(p);
                    out.push(Action::BlowBack { piece });
                }
                _ => {}
            }
        }
        out
    }

    /// Whether some throw would win the game for the playing colour's partnership now.
    pub(super) fn needs_one_throw(&self) -> bool {
        let playing = self.playing_colour();
        let team = playing.partnership();
        let left: Vec<PieceId> = team
            .colours()
            .into_iter()
            .flat_map(PieceId::all_of)
            .filter(|&p| self.board.progress(p) != Some(HOME))
            .collect();
        if left.len() > 2 || left.iter().any(|p| p.colour != playing || self.board.progress(*p).is_none()) {
            return false;
        }
        (1..=6u8).any(|a| (a..=6u8).any(|b| self.winning_play([a, b]).is_some()))
    }

    /// A play of `dice` that brings the playing partnership's last pieces home.
    pub(super) fn winning_play(&self, dice: [u8; 2]) -> Option<Action> {
        let mover = self.mover();
        let team = mover.playing.partnership();
        mover.plays(&self.board, dice).into_iter().find(|play| {
            mover
                .after(&self.board, play, dice)
                .is_some_and(|(after, _)| team.colours().iter().all(|&c| after.all_home(c)))
        })
    }

    /// A suck-back from `piece` against `target`: throw, and a hit sends the target back to
    /// base; a miss moves `piece` one square on.
    pub(super) fn suck_back(
        &mut self,
        piece: PieceId,
        target: PieceId,
        dice: &mut dyn DiceSource,
        events: &mut Vec<Event>,
    ) {
        let thrown = self.throw(dice, events);
        let distance = self.board.progress(target).unwrap_or(HOME) - LAST_TRACK;
        let hit = hits(thrown, distance);
        events.push(Event::SuckBack { piece, target, distance, hit });
        if hit {
            self.board.set(target, None);
        } else if let Ok(effect) = self.mover().advance(&self.board, piece, 1) {
            events.push(Event::Moved {
                piece,
                dice: Vec::new(),
                from: effect.from.unwrap_or(0),
                to: effect.to,
            });
            self.make(&effect, events);
        }
        self.check_challenges(events);
        self.end_throw(thrown.contains(&6), events);
    }

    /// A blow-back from `piece` in the own pipe: throw, and a hit sends the opponents on the
    /// pipe's mouth back to base.
    pub(super) fn blow_back(&mut self, piece: PieceId, dice: &mut dyn DiceSource, events: &mut Vec<Event>) {
        let t = self.turn;
        let thrown = self.throw(dice, events);
        let distance = self.board.progress(piece).unwrap_or(HOME) - LAST_TRACK;
        let square = t.mouth_square();
        let hit = hits(thrown, distance);
        events.push(Event::BlowBack { piece, square, distance, hit });
        if hit {
            for p in self.board.at_square(square) {
                if p.colour.is_opponent(t) {
                    self.board.set(p, None);
                    events.push(Event::Captured { seat: self.seat_of(t), square, piece: p, by: piece });
                }
            }
        }
        self.check_challenges(events);
        self.end_throw(thrown.contains(&6), events);
    }

    /// A stand-up finish: throw, and the winning play, if the dice allow one, is made at once.
    pub(super) fn stand_up(&mut self, seat: Seat, dice: &mut dyn DiceSource, events: &mut Vec<Event>) {
        let t = self.turn;
        let thrown = self.throw(dice, events);
        self.after_throw(thrown, events);
        let winning = match self.phase {
            Phase::Play { dice } if self.turn == t => self.winning_play(dice),
            _ => None,
        };
        events.push(Event::StandUpFinish { seat, came_off: winning.is_some() });
        if let (Some(play), Phase::Play { dice }) = (winning, self.phase) {
            self.play(&play, dice, events);
        }
    }
}

/// Whether either die or their sum is `distance` (suck-backs and blow-backs).
fn hits(dice: [u8; 2], distance: u8) -> bool {
    dice[0] == distance || dice[1] == distance || dice[0] + dice[1] == distance
}
