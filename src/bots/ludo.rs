//! The Ludo-family bot (Luddo and classic Ludo), and the uniformly random player it is measured
//! against.
//!
//! The bot rolls when it must and otherwise plays each legal move on a copy of the state and
//! scores the position it leads to: its own pieces' progress (leaving base and reaching the home
//! column or home are worth extra), minus the risk to each of its pieces standing where an
//! opponent 1–6 squares behind could land (less for 7–12, which needs a 6 first), minus the
//! opponents' progress (so captures count, the more advanced the victim the better), plus the
//! extra roll a capture or arrival earns. Ties go to the lowest piece index, so the bot is a
//! deterministic function of the state.

use rand::Rng;

use crate::rules::DiceSource;
use crate::rules::Seat;
use crate::rules::ludo::board::{PIECES, distance, track_square};
use crate::rules::ludo::{Action, LudoState, Phase};

/// Moves never throw dice (rolls are actions of their own), so trying a move on a copy needs a
/// dice source only to satisfy the signature.
struct NoDiceForMoves;

impl DiceSource for NoDiceForMoves {
    fn roll(&mut self) -> u8 {
        1
    }
}

/// What the bot plays for `seat` in `game` (a [`Luddo`](crate::rules::ludo::Luddo) or
/// [`ClassicLudo`](crate::rules::ludo::ClassicLudo), through `Deref`), or `None` if `seat` has
/// nothing to do.
pub fn choose(game: &LudoState, seat: Seat) -> Option<Action> {
    if game.to_act() != Some(seat) {
        return None;
    }
    if game.phase() == Phase::Roll {
        return Some(Action::Roll);
    }
    let moves = game.legal_moves();
    let mut best: Option<(i32, Action)> = None;
    for piece in moves.iter() {
        let action = Action::Move { piece };
        let mut after = game.clone();
        if after.apply_with(seat, &action, &mut NoDiceForMoves, &mut crate::rules::ludo::NoEvents).is_err() {
            continue;
        }
        let mut score = evaluate(&after, seat);
        if after.to_act() == Some(seat) && after.phase() == Phase::Roll {
            score += EXTRA_ROLL;
        }
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, action));
        }
    }
    best.map(|(_, action)| action)
}

/// A uniformly random legal action for `seat` (the baseline the bot is measured against, and
/// the player of random playouts).
pub fn random(game: &LudoState, seat: Seat, rng: &mut impl Rng) -> Option<Action> {
    if game.to_act() != Some(seat) {
        return None;
    }
    match game.phase() {
        Phase::Roll => Some(Action::Roll),
        Phase::Move => {
            let moves = game.legal_moves();
            let piece = moves.get(rng.random_range(0..moves.len().max(1)))?;
            Some(Action::Move { piece })
        }
        Phase::Over => None,
    }
}

/// Worth of the extra roll a capture or a piece home earns.
const EXTRA_ROLL: i32 = 60;
/// Worth of a piece on the board beyond its progress (getting out of base).
const OUT_OF_BASE: i32 = 150;
/// Worth of reaching the safety of the home column, and of home itself, beyond progress.
const IN_COLUMN: i32 = 60;
const AT_HOME: i32 = 60;

/// The worth of one piece at progress `p` (`None`: base), in tenths of a square.
fn piece_value(game: &LudoState, p: Option<u8>) -> i32 {
    let board = game.board();
    match p {
        None => 0,
        Some(p) => {
            let mut v = OUT_OF_BASE + 10 * p as i32;
            if p > board.last_track() {
                v += IN_COLUMN;
            }
            if p == board.home() {
                v += AT_HOME;
            }
            v
        }
    }
}

/// How likely (in 1/36ths) an opposing piece `d` squares behind hits within its next turn.
fn hit_chance(d: u8) -> i32 {
    match d {
        1..=5 => 12,
        6 => 10,
        7..=12 => 2,
        _ => 0,
    }
}

/// The position from `seat`'s point of view: its material and safety minus the opponents'.
fn evaluate(game: &LudoState, seat: Seat) -> i32 {
    let n = game.seats();
    let mut mine = 0;
    for piece in 0..PIECES {
        let p = game.progress(seat, piece);
        let value = piece_value(game, p);
        mine += value;
        let Some(square) = game.square_of(seat, piece) else {
            continue;
        };
        if protected(game, seat, piece, square) {
            continue;
        }
        let chance = threat(game, seat, square);
        mine -= value * chance.min(36) / 36;
    }
    let mut theirs = 0;
    for other in (0..n).filter(|&o| o != seat) {
        for piece in 0..PIECES {
            theirs += piece_value(game, game.progress(other, piece));
        }
    }
    mine - theirs
}

/// How likely (in 1/36ths, capped at 36) an opposing piece lands on `square`, where `seat` has a
/// piece, in its next turn: pieces 1–12 squares behind that do not turn into their home column
/// first, and pieces in base whose start square it is.
fn threat(game: &LudoState, seat: Seat, square: u8) -> i32 {
    let board = game.board();
    let mut chance = 0;
    for other in (0..game.seats()).filter(|&o| o != seat) {
        for q in 0..PIECES {
            let Some(qp) = game.progress(other, q) else {
                // A piece in base threatens its own start square when a 6 brings it out
                // (classic Ludo has no safe start squares).
                if track_square(board, game.arm(other), 0) == Some(square) {
                    chance += 6;
                }
                continue;
            };
            let Some(their) = game.square_of(other, q) else {
                continue;
            };
            let d = distance(board, their, square);
            // They can only reach us if they do not turn into their home column first.
            if d > 0 && qp as u32 + d as u32 <= board.last_track() as u32 {
                chance += hit_chance(d);
            }
        }
    }
    chance.min(36)
}

/// Whether `seat`'s `piece` could be captured where it stands in the opponents' next turns.
fn exposed(game: &LudoState, seat: Seat, piece: usize) -> bool {
    game.square_of(seat, piece)
        .is_some_and(|square| !protected(game, seat, piece, square) && threat(game, seat, square) > 0)
}

/// A rule-based player, the non-random opponent the bot is measured against
/// (`examples/ludo_bot_winrate.rs --against priority`): the priority list of the "expert"
/// players in the Ludo AI literature. It plays the first move that, in this order: brings a
/// piece home; captures (the most advanced victim first); brings a piece out of base; takes a
/// piece that could be captured to where it cannot; lands on a safe square or in the home
/// column; advances the most advanced piece without leaving it exposed; else advances the most
/// advanced piece.
pub fn priority(game: &LudoState, seat: Seat) -> Option<Action> {
    if game.to_act() != Some(seat) {
        return None;
    }
    match game.phase() {
        Phase::Roll => return Some(Action::Roll),
        Phase::Over => return None,
        Phase::Move => {}
    }
    let board = game.board();
    let n = game.seats();
    // Each legal move with what it does: (rule it meets (lower first), tie-break (higher first)).
    let mut best: Option<((u8, i32), Action)> = None;
    for piece in game.legal_moves().iter() {
        let action = Action::Move { piece };
        let mut after = game.clone();
        if after.apply_with(seat, &action, &mut NoDiceForMoves, &mut crate::rules::ludo::NoEvents).is_err() {
            continue;
        }
        let piece = piece as usize;
        let before = game.progress(seat, piece);
        let now = after.progress(seat, piece);
        let advanced = now.map_or(0, |p| p as i32);
        let captured: Option<i32> = (0..n)
            .filter(|&o| o != seat)
            .flat_map(|o| (0..PIECES).map(move |q| (o, q)))
            .filter(|&(o, q)| game.progress(o, q).is_some() && after.progress(o, q).is_none())
            .map(|(o, q)| game.progress(o, q).map_or(0, |p| p as i32))
            .max();
        let safe_now = after.square_of(seat, piece).is_none_or(|sq| after.is_safe_square(sq))
            || now.is_some_and(|p| p > board.last_track());
        let rule = if now == Some(board.home()) {
            (0, advanced)
        } else if let Some(victim) = captured {
            (1, victim)
        } else if before.is_none() && now.is_some() {
            (2, 0)
        } else if exposed(game, seat, piece) && !exposed(&after, seat, piece) {
            (3, advanced)
        } else if safe_now {
            (4, advanced)
        } else if !exposed(&after, seat, piece) {
            (5, advanced)
        } else {
            (6, advanced)
        };
        let key = (rule.0, rule.1);
        if best.as_ref().is_none_or(|((r, t), _)| key.0 < *r || (key.0 == *r && key.1 > *t)) {
            best = Some((key, action));
        }
    }
    best.map(|(_, a)| a)
}

/// Whether `seat`'s `piece` on `square` cannot be captured there: a safe square, or a block in
/// classic Ludo.
fn protected(game: &LudoState, seat: Seat, piece: usize, square: u8) -> bool {
    game.is_safe_square(square) || (game.is_classic() && in_block(game, seat, piece))
}

/// Whether `piece` stands in a block with another of its colour on the track.
fn in_block(game: &LudoState, seat: Seat, piece: usize) -> bool {
    let p = game.progress(seat, piece);
    (0..PIECES).any(|q| q != piece && game.progress(seat, q) == p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Engine;
    use crate::rules::dice::{RngDice, ScriptedDice};
    use crate::rules::ludo::{Luddo, LuddoOptions, Variant};
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    const B: u8 = u8::MAX;

    /// Seat 0 of a two-player Luddo game (seat 1 sits on arm 2) after rolling `dice`.
    fn rolled(rows: [[u8; 4]; 2], dice: &[u8]) -> Luddo {
        let mut state = json_state(rows);
        state.apply(0, &Action::Roll, &mut ScriptedDice::new(dice.iter().copied())).unwrap();
        state
    }

    fn json_state(rows: [[u8; 4]; 2]) -> Luddo {
        let piece = |p: u8| if p == B { None } else { Some(p) };
        let seats: Vec<_> = rows
            .iter()
            .enumerate()
            .map(|(seat, row)| {
                let colour = ["yellow", "green"][seat];
                serde_json::json!({
                    "arm": 2 * seat, "colour": colour,
                    "pieces": row.map(piece), "place": null
                })
            })
            .collect();
        serde_json::from_value(serde_json::json!({
            "rules": {"game": "luddo", "home_bonus": true}, "board": "square",
            "track_len": 52, "home": 56, "seats": seats, "to_act": 0, "phase": "roll",
            "rolled": [], "used": 0, "pending": [], "bonus": null
        }))
        .unwrap()
    }

    #[test]
    fn bot_rolls_when_it_must_and_waits_its_turn() {
        let game = json_state([[B; 4], [B; 4]]);
        assert_eq!(choose(&game, 0), Some(Action::Roll));
        assert_eq!(choose(&game, 1), None);
        assert!(matches!(game.variant(), Variant::Luddo { .. }));
    }

    #[test]
    fn bot_prefers_a_capture() {
        // Seat 1's piece at progress 7 stands on square 33; piece 1 (30) can land there.
        let game = rolled([[10, 30, B, B], [7, B, B, B]], &[3]);
        assert_eq!(choose(&game, 0), Some(Action::Move { piece: 1 }));
    }

    #[test]
    fn bot_prefers_reaching_home() {
        let game = rolled([[20, 53, B, B], [B; 4]], &[3]);
        assert_eq!(choose(&game, 0), Some(Action::Move { piece: 1 }));
    }

    #[test]
    fn bot_prefers_leaving_base() {
        let game = rolled([[10, B, B, B], [B; 4]], &[6, 2]);
        assert_eq!(choose(&game, 0), Some(Action::Move { piece: 1 }));
    }

    #[test]
    fn bot_moves_off_danger_onto_safety() {
        // Piece 1 on 18 has seat 1's piece (progress 41, square 15) three behind it; a 3 takes
        // it to the star on 21.
        let game = rolled([[30, 18, B, B], [41, B, B, B]], &[3]);
        assert_eq!(choose(&game, 0), Some(Action::Move { piece: 1 }));
    }

    #[test]
    fn the_priority_player_follows_its_list() {
        // Home before anything; a capture; leaving base; off danger onto the star.
        assert_eq!(priority(&rolled([[20, 53, B, B], [B; 4]], &[3]), 0), Some(Action::Move { piece: 1 }));
        assert_eq!(
            priority(&rolled([[10, 30, B, B], [7, B, B, B]], &[3]), 0),
            Some(Action::Move { piece: 1 })
        );
        assert_eq!(priority(&rolled([[10, B, B, B], [B; 4]], &[6, 2]), 0), Some(Action::Move { piece: 1 }));
        assert_eq!(
            priority(&rolled([[30, 18, B, B], [41, B, B, B]], &[3]), 0),
            Some(Action::Move { piece: 1 })
        );
        let game = json_state([[B; 4], [B; 4]]);
        assert_eq!(priority(&game, 0), Some(Action::Roll));
        assert_eq!(priority(&game, 1), None);
    }

    #[test]
    fn bot_is_deterministic_and_random_plays_legally() {
        let game = rolled([[10, 30, 44, B], [7, 20, B, B]], &[4]);
        let first = choose(&game, 0);
        assert_eq!(choose(&game.clone(), 0), first);
        let mut rng = SmallRng::seed_from_u64(3);
        for _ in 0..20 {
            let action = random(&game, 0, &mut rng).unwrap();
            assert!(game.legal_actions(0).contains(&action));
        }
        assert_eq!(random(&game, 1, &mut rng), None);
    }

    #[test]
    fn bot_beats_three_random_players() {
        // A small seeded sample (the 10,000-game figure comes from the release-mode example
        // `ludo_bot_winrate`); seeded, so it cannot flake.
        let games = 100;
        let mut wins = 0;
        for g in 0..games {
            let mut dice = RngDice(SmallRng::seed_from_u64(g));
            let mut rng = SmallRng::seed_from_u64(!g);
            let bot = (g % 4) as usize;
            let mut game = Luddo::new_quiet(LuddoOptions::default(), 4, &mut dice).unwrap();
            while let Some(seat) = game.to_act() {
                let action = if seat == bot { choose(&game, seat) } else { random(&game, seat, &mut rng) };
                game.apply_quiet(seat, &action.unwrap(), &mut dice).unwrap();
            }
            wins += (game.place(bot) == Some(1)) as u32;
        }
        assert!(wins >= 50, "the bot won {wins} of {games}");
    }
}
