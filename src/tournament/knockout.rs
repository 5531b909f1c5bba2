//! A knockout bracket seeded by rating: the bracket has the next power of two of lines, the best
//! seeds get the byes, and seeds are placed so that the two best can meet only in the final, the
//! best four only in the semi-finals, and so on (the usual seeding order: seed `s` meets seed
//! `size + 1 − s` in the first round).
//!
//! Players are seeds, 0 the best ([`seeding`] orders a list by rating). A match is decided by
//! [`Bracket::decide`] (a no-show's match is decided for the other player); a bye goes through at
//! once.

use std::cmp::Ordering;

/// Seeds ordered best first: indices into `ratings`, highest rating first (ties by index).
pub fn seeding(ratings: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ratings.len()).collect();
    order.sort_by(|&a, &b| ratings[b].total_cmp(&ratings[a]).then(a.cmp(&b)));
    order
}

/// The seeds down the lines of a bracket of `size` lines (a power of two), 0-based: for 8 lines,
/// 0 7 3 4 1 6 2 5 (1–8, 4–5, 2–7, 3–6 counting from 1).
pub fn seed_order(size: usize) -> Vec<usize> {
    let mut order = vec![0];
    while order.len() < size {
        let next = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, next - 1 - s]).collect();
    }
    order
}

/// One line of a round of the bracket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// This seed is at this line.
    Player(usize),
    /// Nobody: the other player of the match goes through.
    Bye,
    /// The winner of a match of the round before, not yet played.
    Pending,
}

/// Why a result does not fit the bracket.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BracketError {
    #[error("no match {index} in round {round}")]
    NoSuchMatch { round: usize, index: usize },
    #[error("the match does not have both players yet")]
    NotReady,
    #[error("seed {0} is not a player of this match")]
    NotInMatch(usize),
    #[error("the match is already decided")]
    Decided,
}

/// A knockout bracket: the lines of every round, filled in as matches are decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bracket {
    /// `lines[r]` are round `r`'s lines (the bracket's size halved `r` times); the last round
    /// has one line, the champion.
    lines: Vec<Vec<Line>>,
}

/// A match ready to be played: both players known, no winner yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    /// From 0, the first round.
    pub round: usize,
    /// The match's place in its round, from the top of the bracket.
    pub index: usize,
    /// The two seeds, the better seed first.
    pub players: [usize; 2],
}

impl Bracket {
    /// A bracket for `players` seeds (at least 2), byes already through.
    pub fn new(players: usize) -> Self {
        let players = players.max(2);
        let size = players.next_power_of_two();
        let first = seed_order(size)
            .into_iter()
            .map(|s| if s < players { Line::Player(s) } else { Line::Bye })
            .collect();
        let mut lines = vec![first];
        while lines.last().is_some_and(|l: &Vec<Line>| l.len() > 1) {
            let n = lines.last().map_or(0, Vec::len) / 2;
            lines.push(vec![Line::Pending; n]);
        }
        let mut bracket = Bracket { lines };
        for index in 0..size / 2 {
            bracket.advance_bye(0, index);
        }
        bracket
    }

    /// Rounds to play (the final is the last).
    pub fn rounds(&self) -> usize {
        self.lines.len() - 1
    }

    /// The two lines of match `index` of `round`.
    pub fn lines(&self, round: usize, index: usize) -> Option<[Line; 2]> {
        let l = self.lines.get(round)?;
        Some([*l.get(2 * index)?, *l.get(2 * index + 1)?])
    }

    /// The matches that can be played now.
    pub fn ready(&self) -> Vec<Match> {
        let mut ready = Vec::new();
        for round in 0..self.rounds() {
            for index in 0..self.lines[round].len() / 2 {
                if let (Some([Line::Player(a), Line::Player(b)]), Line::Pending) =
                    (self.lines(round, index), self.lines[round + 1][index])
                {
                    ready.push(Match { round, index, players: [a.min(b), a.max(b)] });
                }
            }
        }
        ready
    }

    /// Records that `winner` won match `index` of `round`.
    pub fn decide(&mut self, round: usize, index: usize, winner: usize) -> Result<(), BracketError> {
        let [a, b] = self
            .lines(round, index)
            .filter(|_| round < self.rounds())
            .ok_or(BracketError::NoSuchMatch { round, index })?;
        let (Line::Player(a), Line::Player(b)) = (a, b) else { return Err(BracketError::NotReady) };
        if winner != a && winner != b {
            return Err(BracketError::NotInMatch(winner));
        }
        if self.lines[round + 1][index] != Line::Pending {
            return Err(BracketError::Decided);
        }
        self.lines[round + 1][index] = Line::Player(winner);
        self.advance_bye(round + 1, index / 2);
        Ok(())
    }

    /// The winner of the final, once played.
    pub fn champion(&self) -> Option<usize> {
        match self.lines.last()?.first()? {
            Line::Player(s) => Some(*s),
            _ => None,
        }
    }

    /// The round a seed went out in (lost its match), or `None` while still in (or champion).
    pub fn out_in(&self, seed: usize) -> Option<usize> {
        let last = (0..self.lines.len()).rev().find(|&r| self.lines[r].contains(&Line::Player(seed)))?;
        let next = self.lines.get(last + 1)?;
        match next[self.lines[last].iter().position(|&l| l == Line::Player(seed))? / 2] {
            Line::Player(_) => Some(last),
            _ => None,
        }
    }

    /// Puts a player facing a bye through to the next round (recursively: never two byes meet
    /// while the byes are fewer than the players, but a bye's winner may meet a later bye's).
    fn advance_bye(&mut self, round: usize, index: usize) {
        if round >= self.rounds() {
            return;
        }
        let Some(pair) = self.lines(round, index) else { return };
        let through = match pair {
            [Line::Player(p), Line::Bye] | [Line::Bye, Line::Player(p)] => Line::Player(p),
            [Line::Bye, Line::Bye] => Line::Bye,
            _ => return,
        };
        if self.lines[round + 1][index] == Line::Pending {
            self.lines[round + 1][index] = through;
            self.advance_bye(round + 1, index / 2);
        }
    }
}

/// Orders two seeds' final standing in a finished or running bracket: the later a seed went out,
/// the better; then the better seed.
pub fn compare_standing(bracket: &Bracket, a: usize, b: usize) -> Ordering {
    let reach = |s: usize| match bracket.out_in(s) {
        None => usize::MAX,
        Some(r) => r,
    };
    reach(b).cmp(&reach(a)).then(a.cmp(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_placed_so_the_best_two_meet_only_in_the_final() {
        assert_eq!(seed_order(2), [0, 1]);
        assert_eq!(seed_order(4), [0, 3, 1, 2]);
        assert_eq!(seed_order(8), [0, 7, 3, 4, 1, 6, 2, 5]);
        let order = seed_order(16);
        // Seed s meets seed 15 − s in the first round.
        for pair in order.chunks(2) {
            assert_eq!(pair[0] + pair[1], 15);
        }
        // The best and the second best are in different halves; the best four in different quarters.
        assert!(order[..8].contains(&0) && order[8..].contains(&1));
        for quarter in order.chunks(4) {
            assert_eq!(quarter.iter().filter(|&&s| s < 4).count(), 1);
        }
    }

    #[test]
    fn seeding_is_by_rating_best_first() {
        assert_eq!(seeding(&[1500.0, 1800.0, 1200.0, 1800.0]), [1, 3, 0, 2]);
    }

    #[test]
    fn the_best_seeds_get_the_byes_and_go_through_at_once() {
        // 5 players in 8 lines: seeds 0, 1, 2 have byes; 3 meets 4, and 1 meets 2 already.
        let b = Bracket::new(5);
        assert_eq!(b.rounds(), 3);
        assert_eq!(
            b.ready(),
            vec![
                Match { round: 0, index: 1, players: [3, 4] },
                Match { round: 1, index: 1, players: [1, 2] }
            ]
        );
        assert_eq!(b.lines(1, 0), Some([Line::Player(0), Line::Pending]));
    }

    #[test]
    fn sixteen_players_play_fifteen_matches_to_a_champion() {
        let mut b = Bracket::new(16);
        let mut played = 0;
        while let Some(m) = b.ready().first().copied() {
            // The better seed always wins here.
            b.decide(m.round, m.index, m.players[0]).unwrap();
            played += 1;
        }
        assert_eq!(played, 15);
        assert_eq!(b.champion(), Some(0));
        assert_eq!(b.out_in(1), Some(3), "the second seed loses the final");
        assert_eq!(b.out_in(15), Some(0));
        let mut standing: Vec<usize> = (0..16).collect();
        standing.sort_by(|&x, &y| compare_standing(&b, x, y));
        assert_eq!(&standing[..2], &[0, 1]);
    }

    #[test]
    fn a_result_that_does_not_fit_is_refused() {
        let mut b = Bracket::new(4);
        assert_eq!(b.decide(0, 0, 1), Err(BracketError::NotInMatch(1)));
        assert_eq!(b.decide(1, 0, 0), Err(BracketError::NotReady));
        assert_eq!(b.decide(5, 0, 0), Err(BracketError::NoSuchMatch { round: 5, index: 0 }));
        b.decide(0, 0, 3).unwrap();
        assert_eq!(b.decide(0, 0, 0), Err(BracketError::Decided));
    }

    #[test]
    fn every_count_of_players_from_two_to_forty_plays_to_one_champion() {
        for n in 2..=40 {
            let mut b = Bracket::new(n);
            let mut played = 0;
            while let Some(m) = b.ready().last().copied() {
                b.decide(m.round, m.index, m.players[1]).unwrap();
                played += 1;
            }
            assert_eq!(played, n - 1, "{n} players: one match per player out");
            assert!(b.champion().is_some());
        }
    }
}
