//! The Uckers bot: a one-ply search over the throw's legal choices with a hand-made
//! evaluation of the position for its partnership.
//!
//! The evaluation counts every piece's progress (pieces home and in the pipe are worth most),
//! takes off what a lone piece may lose to opposing pieces up to 12 squares behind it (blobs
//! are safe, mixed blobs are not), and adds the partner's pieces as its own. Captures fall out
//! of it: an opposing piece sent to base loses its progress. Challenges are weighed by what the
//! blob would lose against the throws the challenger gives up. Before a throw it calls snake
//! eyes (WAFU) and takes every suck-back and worthwhile blow-back; it never resigns.

use crate::rules::uckers::board::{LAST_TRACK, TRACK_LEN, track_square};
use crate::rules::uckers::{Action, Colour, HOME, Partnership, Phase, PieceId, Uckers};
use crate::rules::{DiceSource, Engine, Seat};

/// The bot's choice for `seat`, or `None` when the seat has nothing to decide.
pub fn choose(game: &Uckers, seat: Seat) -> Option<Action> {
    decide(game, seat, |team, legal| best_play(game, team, legal))
}

/// What `seat` does: nothing unless it is to act; before a throw, the rules' calls
/// ([`before_throw`]); after it, `play`'s choice among the legal actions (never up-boarding).
fn decide(
    game: &Uckers,
    seat: Seat,
    play: impl FnOnce(Partnership, Vec<Action>) -> Option<Action>,
) -> Option<Action> {
    if game.to_act() != Some(seat) {
        return None;
    }
    let legal: Vec<Action> = game.legal_actions(seat).into_iter().filter(|a| *a != Action::UpBoard).collect();
    match game.phase() {
        Phase::Roll => Some(before_throw(game, &legal)),
        Phase::Play { .. } => play(game.partnership_of(seat), legal),
        Phase::Over => None,
    }
}

/// What the rule-based player compares, the greater the better: (wins the game, pieces brought
/// home, progress taken from the opponents, not a challenge, minus lone pieces exposed, own
/// progress).
type Priority = (bool, i32, i32, bool, i32, i32);

/// A rule-based player, the non-random opponent the bot is measured against
/// (`examples/uckers_bot_winrate.rs --against priority`). Before a throw it does what the bot
/// does (the rules' calls); then it plays the legal action that is best by, in order: winning
/// the game; bringing a piece of its side home; the progress it takes from the opponents
/// (captures); not challenging; leaving fewer of its side's lone pieces where an opposing
/// piece could land (blobs and safe squares); its side's total progress.
pub fn priority(game: &Uckers, seat: Seat) -> Option<Action> {
    decide(game, seat, |team, legal| {
        let side = |g: &Uckers, ours: bool| {
            g.board()
                .all()
                .filter(move |(id, _)| (id.colour.partnership() == team) == ours)
                .collect::<Vec<_>>()
        };
        let home = |g: &Uckers| side(g, true).iter().filter(|(_, p)| p.progress == Some(HOME)).count() as i32;
        let progress = |g: &Uckers, ours: bool| {
            side(g, ours).iter().map(|(_, p)| i32::from(p.progress.unwrap_or(0))).sum::<i32>()
        };
        let exposed = |g: &Uckers| {
            let occ = g.board().occupancy();
            side(g, true)
                .iter()
                .filter(|(id, p)| {
                    p.progress.and_then(|q| track_square(id.colour, q)).is_some_and(|square| {
                        occ.blob_at(square).is_none() && risk(g, id.colour, square) > 0.0
                    })
                })
                .count() as i32
        };
        let mut best: Option<(Priority, Action)> = None;
        for action in legal {
            let mut next = game.clone();
            if next.apply(seat, &action, &mut NoDice).is_err() {
                continue;
            }
            let key = (
                next.winner() == Some(team),
                home(&next) - home(game),
                progress(game, false) - progress(&next, false),
                !matches!(action, Action::Challenge { .. }),
                -exposed(&next),
                progress(&next, true),
            );
            if best.as_ref().is_none_or(|(k, _)| key > *k) {
                best = Some((key, action));
            }
        }
        best.map(|(_, a)| a)
    })
}

fn before_throw(game: &Uckers, legal: &[Action]) -> Action {
    let board = game.board();
    for action in legal {
        match action {
            Action::CallSnakeEyes | Action::SuckBack { .. } => return action.clone(),
            Action::BlowBack { .. } => {
                // Worth a throw when the piece at the mouth has come far.
                let mouth = game.turn().mouth_square();
                let far = board
                    .at_square(mouth)
                    .iter()
                    .filter(|p| p.colour.is_opponent(game.turn()))
                    .any(|&p| board.progress(p).unwrap_or(0) >= 20);
                if far {
                    return action.clone();
                }
            }
            _ => {}
        }
    }
    Action::Roll
}

/// Dice for looking ahead: plays never draw any.
struct NoDice;

impl DiceSource for NoDice {
    fn roll(&mut self) -> u8 {
        1
    }
}

fn best_play(game: &Uckers, team: Partnership, legal: Vec<Action>) -> Option<Action> {
    let mut best: Option<(f64, Action)> = None;
    for action in legal {
        let mut next = game.clone();
        let Ok(_) = next.apply(game.to_act()?, &action, &mut NoDice) else {
            continue;
        };
        let mut score = evaluate(&next, team);
        if let Action::Challenge { target, .. } = action {
            score += challenge_bonus(game, target);
        }
        if best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((score, action));
        }
    }
    best.map(|(_, a)| a)
}

/// What a challenge against the blob on `target` is worth beyond the position it leaves: a
/// share of what the blob's pieces would lose, less the moves the challenger gives up.
fn challenge_bonus(game: &Uckers, target: u8) -> f64 {
    let board = game.board();
    let blob: f64 = board.at_square(target).iter().map(|&p| piece_value(board.progress(p))).sum();
    let size = board.blob_size(target) as f64;
    let idle = PieceId::all_of(game.playing_colour())
        .filter(|&p| board.progress(p).is_some_and(|q| q <= LAST_TRACK && q > 0))
        .count() as f64;
    blob * 0.6 / size - 6.0 * idle
}

/// A piece's worth by its progress alone.
fn piece_value(progress: Option<u8>) -> f64 {
    match progress {
        None => 0.0,
        Some(HOME) => 110.0,
        Some(p) if p > LAST_TRACK => 75.0 + f64::from(p),
        Some(p) => 12.0 + f64::from(p),
    }
}

/// Throws out of 36 that move a piece exactly `d` squares by one die or by the total.
fn shots(d: u8) -> f64 {
    let ways = match d {
        1..=6 => 11 + u32::from(d) - 1,
        7..=12 => 13 - u32::from(d),
        _ => 0,
    };
    f64::from(ways) / 36.0
}

/// The position from `team`'s side: its pieces' worth less the opponents'.
pub fn evaluate(game: &Uckers, team: Partnership) -> f64 {
    if let Some(winner) = game.winner() {
        return if winner == team { 1e6 } else { -1e6 };
    }
    let board = game.board();
    let occ = board.occupancy();
    let mut total = 0.0;
    for (id, piece) in board.all() {
        let sign = if id.colour.partnership() == team { 1.0 } else { -1.0 };
        let mut value = piece_value(piece.progress);
        if let Some(square) = piece.progress.and_then(|p| track_square(id.colour, p))
            && occ.blob_at(square).is_none()
        {
            value -= risk(game, id.colour, square) * value;
        }
        total += sign * value;
    }
    total
}

/// The chance that an opposing piece lands on `square` (held by `colour`, not as a blob)
/// before `colour` moves again, roughly.
fn risk(game: &Uckers, colour: Colour, square: u8) -> f64 {
    let board = game.board();
    let mut safe = 1.0;
    for (id, piece) in board.all() {
        if !id.colour.is_opponent(colour) {
            continue;
        }
        match piece.progress {
            None if id.colour.start_square() == square => safe *= 1.0 - 11.0 / 36.0,
            Some(p) if p <= LAST_TRACK => {
                let Some(from) = track_square(id.colour, p) else {
                    continue;
                };
                let d = (square + TRACK_LEN - from) % TRACK_LEN;
                // Only squares still on the attacker's path count.
                if d > 0 && u16::from(p) + u16::from(d) <= u16::from(LAST_TRACK) {
                    safe *= 1.0 - shots(d);
                }
            }
            _ => {}
        }
    }
    1.0 - safe
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ScriptedDice;
    use crate::rules::uckers::UckersOptions;

    fn game(pieces: [[Option<u8>; 4]; 4], dice: [u8; 2]) -> Uckers {
        let mut g = Uckers::from_position(UckersOptions::default(), 4, Colour::Yellow, pieces).unwrap();
        g.apply(0, &Action::Roll, &mut ScriptedDice::new(dice)).unwrap();
        g
    }

    fn on(colour: Colour, square: u8) -> Option<u8> {
        Some((square + 52 - colour.start_square()) % 52)
    }

    #[test]
    fn bot_captures_when_it_can() {
        let mut pieces = [[None; 4]; 4];
        pieces[0] = [Some(0), Some(30), None, None];
        pieces[1] = [on(Colour::Red, 5), None, None, None];
        let g = game(pieces, [2, 3]);
        let choice = choose(&g, 0).unwrap();
        let mut next = g.clone();
        next.apply(0, &choice, &mut NoDice).unwrap();
        assert_eq!(next.board().progress(PieceId::new(Colour::Red, 0)), None);
    }

    #[test]
    fn bot_challenges_a_blob_worth_breaking() {
        let mut pieces = [[None; 4]; 4];
        pieces[0] = [Some(4), None, None, None];
        pieces[1] = [on(Colour::Red, 5), on(Colour::Red, 5), None, None];
        let g = game(pieces, [6, 1]);
        assert_eq!(
            choose(&g, 0),
            Some(Action::Challenge { piece: PieceId::new(Colour::Yellow, 0), target: 5 })
        );
    }

    #[test]
    fn bot_forms_a_blob_rather_than_leave_a_piece_in_front_of_an_enemy() {
        // Yellow at 10 and 14, a blue piece at 8 behind them: moving the piece at 10 onto 14
        // (a blob) beats running the front piece further alone.
        let mut pieces = [[None; 4]; 4];
        pieces[0] = [Some(10), Some(14), Some(40), None];
        pieces[3] = [on(Colour::Blue, 8), None, None, None];
        let g = game(pieces, [4, 1]);
        let choice = choose(&g, 0).unwrap();
        let mut next = g.clone();
        next.apply(0, &choice, &mut NoDice).unwrap();
        assert_eq!(next.board().blob_at(14), Some(Colour::Yellow), "{choice:?}");
    }

    #[test]
    fn bot_only_acts_for_the_seat_to_act() {
        let g = game([[None; 4]; 4], [6, 3]);
        assert_eq!(choose(&g, 1), None);
        assert!(choose(&g, 0).is_some());
    }

    #[test]
    fn bot_choices_are_legal_through_whole_games() {
        use crate::rules::dice::RngDice;
        use rand::{SeedableRng, rngs::StdRng};
        for seed in 0..3 {
            let mut dice = RngDice(StdRng::seed_from_u64(seed));
            let (mut g, _) = Uckers::new(UckersOptions::default(), 4, &mut dice).unwrap();
            let mut n = 0;
            while let Some(seat) = g.to_act() {
                let action = choose(&g, seat).expect("the bot always has a choice");
                g.apply(seat, &action, &mut dice).unwrap();
                n += 1;
                assert!(n < 5_000, "the game should end");
            }
        }
    }

    #[test]
    fn the_priority_player_captures_and_blobs_and_plays_whole_games_legally() {
        let mut pieces = [[None; 4]; 4];
        pieces[0] = [Some(0), Some(30), None, None];
        pieces[1] = [on(Colour::Red, 5), None, None, None];
        let g = game(pieces, [2, 3]);
        let mut next = g.clone();
        next.apply(0, &priority(&g, 0).unwrap(), &mut NoDice).unwrap();
        assert_eq!(next.board().progress(PieceId::new(Colour::Red, 0)), None, "it captures");
        let mut pieces = [[None; 4]; 4];
        pieces[0] = [Some(10), Some(14), Some(40), None];
        pieces[3] = [on(Colour::Blue, 8), None, None, None];
        let g = game(pieces, [4, 1]);
        let mut next = g.clone();
        next.apply(0, &priority(&g, 0).unwrap(), &mut NoDice).unwrap();
        assert_eq!(next.board().blob_at(14), Some(Colour::Yellow), "it blobs rather than stay exposed");
        assert_eq!(priority(&g, 1), None);
        use crate::rules::dice::RngDice;
        use rand::{SeedableRng, rngs::StdRng};
        let mut dice = RngDice(StdRng::seed_from_u64(11));
        let (mut g, _) = Uckers::new(UckersOptions::default(), 4, &mut dice).unwrap();
        let mut n = 0;
        while let Some(seat) = g.to_act() {
            let action = if seat % 2 == 0 { priority(&g, seat) } else { choose(&g, seat) };
            g.apply(seat, &action.expect("a choice"), &mut dice).unwrap();
            n += 1;
            assert!(n < 5_000, "the game should end");
        }
    }
}
