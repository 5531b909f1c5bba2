//! Cubeless games between two checker-play policies, to measure one against another (the
//! trainer's periodic evaluation, `examples/backgammon_duel.rs`, the pubeval check in CI).

use super::net::{Net, Outputs, best_play};
use super::pubeval;
use crate::rules::backgammon::board::{Position, with_plays};
use rand::Rng;

/// A checker-play policy: the position it leaves from `pos` (the side on roll's view) with
/// `dice`; `pos` itself when nothing can move.
pub trait Policy {
    fn play(&mut self, pos: &Position, dice: [u8; 2]) -> Position;
}

/// Pubeval's choices.
pub struct Pubeval;

impl Policy for Pubeval {
    fn play(&mut self, pos: &Position, dice: [u8; 2]) -> Position {
        with_plays(pos, dice, |plays| {
            pubeval::choose(pos, plays.iter().map(|p| p.result)).map_or(*pos, |i| plays[i].result)
        })
    }
}

/// The network's choices at 0 ply.
impl Policy for &Net {
    fn play(&mut self, pos: &Position, dice: [u8; 2]) -> Position {
        best_play(self, pos, dice)
    }
}

/// A bot level's choices, as the server plays them.
impl Policy for crate::bots::Level {
    fn play(&mut self, pos: &Position, dice: [u8; 2]) -> Position {
        super::checker_play(*self, pos, dice)
    }
}

/// The network's choices with a 1-ply search over its `keep` best plays ([`pick_1ply`]).
pub struct OnePly<'a>(pub &'a Net, pub usize);

impl Policy for OnePly<'_> {
    fn play(&mut self, pos: &Position, dice: [u8; 2]) -> Position {
        with_plays(pos, dice, |plays| {
            super::net::pick_1ply(self.0, plays, self.1).map_or(*pos, |i| plays[i].result)
        })
    }
}

/// One die.
pub fn die(rng: &mut impl Rng) -> u8 {
    rng.random_range(1..=6)
}

/// A throw of two dice.
pub fn roll(rng: &mut impl Rng) -> [u8; 2] {
    [die(rng), die(rng)]
}

/// The first throw of a game: two different dice (each side throws one, the higher starts and
/// plays both).
pub fn opening_roll(rng: &mut impl Rng) -> [u8; 2] {
    loop {
        let d = roll(rng);
        if d[0] != d[1] {
            return d;
        }
    }
}

/// Plays one cubeless game, `first` on roll first; returns the winner (0 = `first`, 1 =
/// `second`) and the points won (1, 2 for a gammon, 3 for a backgammon).
pub fn game(first: &mut dyn Policy, second: &mut dyn Policy, rng: &mut impl Rng) -> (usize, u32) {
    let mut pos = Position::start();
    let mut dice = opening_roll(rng);
    let mut side = 0;
    loop {
        let player: &mut dyn Policy = if side == 0 { &mut *first } else { &mut *second };
        let after = player.play(&pos, dice);
        if Position::on_board(&after.me) == 0 {
            let won = Outputs::won(&after).0;
            return (side, 1 + won[1] as u32 + won[2] as u32);
        }
        pos = after.swapped();
        side = 1 - side;
        dice = roll(rng);
    }
}

/// The result of a series of games for the first policy.
#[derive(Debug, Clone, Copy, Default)]
pub struct Score {
    pub games: u32,
    pub wins: u32,
    /// Points won minus points lost.
    pub points: i64,
}

impl Score {
    /// Share of games won.
    pub fn share(&self) -> f64 {
        self.wins as f64 / self.games as f64
    }

    /// Half-width of the 95% confidence interval of [`Score::share`] (normal approximation).
    pub fn margin(&self) -> f64 {
        let p = self.share();
        1.96 * (p * (1.0 - p) / self.games as f64).sqrt()
    }
}

/// Plays `games` cubeless games of `a` against `b`, alternating who starts; scored for `a`.
pub fn series(a: &mut dyn Policy, b: &mut dyn Policy, games: u32, rng: &mut impl Rng) -> Score {
    let mut score = Score::default();
    for g in 0..games {
        let (winner, points) = if g % 2 == 0 {
            let (w, p) = game(a, b, rng);
            (w, p)
        } else {
            let (w, p) = game(b, a, rng);
            (1 - w, p)
        };
        score.games += 1;
        if winner == 0 {
            score.wins += 1;
            score.points += points as i64;
        } else {
            score.points -= points as i64;
        }
    }
    score
}
