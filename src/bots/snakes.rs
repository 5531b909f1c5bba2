//! The Snakes and Ladders bot: the only decision is to roll, so it rolls when it may.

use crate::rules::snakes::{Snakes, SnakesAction};
use crate::rules::{Engine, Seat};

/// Rolls for `seat` when it is that seat's turn; `None` otherwise.
pub fn choose(game: &Snakes, seat: Seat) -> Option<SnakesAction> {
    game.legal_actions(seat).into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ScriptedDice;
    use crate::rules::snakes::SnakesOptions;

    #[test]
    fn the_bot_rolls_on_its_turn_only() {
        let (g, _) = Snakes::new(SnakesOptions::default(), 2, &mut ScriptedDice::new([6, 1])).unwrap();
        assert_eq!(choose(&g, 0), Some(SnakesAction::Roll));
        assert_eq!(choose(&g, 1), None);
    }
}
