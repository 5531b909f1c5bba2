//! Why an action is refused: the reason a player reads in `RuleError.message`, worked out only
//! once an action is not among the legal ones.

use super::action::{Action, Step};
use super::board::PieceId;
use super::moves::{self, Blocked};
use super::options::SnakeEyes;
use super::{Phase, Uckers};
use crate::rules::RuleError;

impl Uckers {
    /// Why `action` is not legal now (it is not among the legal actions).
    pub(super) fn explain(&self, action: &Action) -> RuleError {
        let why = match (self.phase, action) {
            (Phase::Play { .. }, Action::Roll) => "the dice are thrown: play them first".into(),
            (
                Phase::Play { .. },
                Action::CallSnakeEyes | Action::SuckBack { .. } | Action::BlowBack { .. } | Action::StandUp,
            ) => "that is declared before throwing".into(),
            (
                Phase::Roll,
                Action::Move { .. } | Action::Total { .. } | Action::Challenge { .. } | Action::Pass,
            ) => {
                if self.challenge_stands() {
                    "your challenge stands: just throw for your sixes".into()
                } else {
                    "throw the dice first".into()
                }
            }
            (Phase::Play { dice }, Action::Move { steps }) => self.explain_move(steps, dice),
            (Phase::Play { dice }, Action::Total { piece }) => {
                match self
                    .check_piece(*piece)
                    .and_then(|()| self.mover().advance(&self.board, *piece, dice[0] + dice[1]).map(|_| ()))
                {
                    Err(why) => why.message(*piece),
                    Ok(()) => "that play is not open: another play uses the throw".into(),
                }
            }
            (Phase::Play { dice }, Action::Challenge { .. }) => {
                if dice.contains(&6) {
                    "a challenge needs a piece (not in a mixed blob) directly before an opposing blob, or in base against a blob on its start square".into()
                } else {
                    "a challenge is declared with a 6".into()
                }
            }
            (Phase::Play { .. }, Action::Pass) => {
                "passing is allowed only when nothing can move and a challenge could be declared".into()
            }
            (_, Action::CallSnakeEyes) => {
                if self.options.snake_eyes != SnakeEyes::Wafu {
                    "snake eyes is called only under WAFU rules".into()
                } else {
                    "snake eyes is called once, before the player's first throw".into()
                }
            }
            (_, Action::SuckBack { .. }) if !self.options.suck_back => {
                "suck-backs are not played at this table".into()
            }
            (_, Action::BlowBack { .. }) if !self.options.blow_back => {
                "blow-backs are not played at this table".into()
            }
            (_, Action::StandUp) if !self.options.stand_up_finish => {
                "stand-up finishes are not played at this table".into()
            }
            (_, Action::StandUp) => "a stand-up finish needs a position one throw from winning".into(),
            (_, Action::SuckBack { .. }) => {
                "a suck-back needs your piece on the mouth of an opponent's pipe and the target in that pipe"
                    .into()
            }
            (_, Action::BlowBack { .. }) => {
                "a blow-back needs your piece in your pipe and an opponent on its mouth".into()
            }
            _ if self.challenge_stands() || self.throwing_for_six() => "only a throw is open now".into(),
            _ => "that action is not open now".into(),
        };
        RuleError::illegal(why)
    }

    /// Whether `piece` is one this turn may move at all.
    pub(super) fn check_piece(&self, piece: PieceId) -> Result<(), Blocked> {
        let playing = self.playing_colour();
        if piece.index > 3 {
            Err(Blocked::NoSuchPiece)
        } else if piece.colour != playing {
            Err(Blocked::NotPlaying { playing })
        } else {
            Ok(())
        }
    }

    pub(super) fn explain_move(&self, steps: &[Step], dice: [u8; 2]) -> String {
        if steps.is_empty() || steps.len() > 2 {
            return "a move uses one or two dice".into();
        }
        let mut left = dice.to_vec();
        for s in steps {
            match left.iter().position(|&d| d == s.die) {
                Some(i) => {
                    left.remove(i);
                }
                None => return format!("the throw is {} and {}", dice[0], dice[1]),
            }
        }
        let mover = self.mover();
        let mut board = self.board.clone();
        for s in steps {
            match self.check_piece(s.piece).and_then(|()| mover.step(&board, s.piece, s.die)) {
                Ok(effect) => moves::apply(&mut board, &effect),
                Err(why) => return why.message(s.piece),
            }
        }
        if steps.len() == 2 && steps[0].piece == steps[1].piece {
            "a split moves two different pieces: to move one piece by both dice, play the total".into()
        } else if steps.len() == 1 {
            let larger = dice[0].max(dice[1]);
            if steps[0].die < larger
                && self.mover().plays(&self.board, dice).iter().any(
                    |a| matches!(a, Action::Move { steps } if steps.len() == 1 && steps[0].die == larger),
                )
            {
                "when only one die can be played, the larger must be".into()
            } else {
                "both dice must be used when they can be".into()
            }
        } else {
            "that play is not open".into()
        }
    }
}
