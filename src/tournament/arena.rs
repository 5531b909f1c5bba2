//! The arena: a fixed time during which a player who finishes a game is paired again with others
//! waiting. Pairing and points are here; the clock and the tables are the tournament's driver's.
//!
//! **Pairing** generalizes lichess's arena pairing (two players by a minimum-weight matching of
//! rank and rating differences) to tables of `k` seats (2 to 6): the cost of a table is the sum,
//! over every two players at it, of
//!
//! - their difference in the standings, times a factor that is largest at the top of the
//!   standings (the leaders meet each other first, as on lichess): [`rank_factor`];
//! - their difference in rating;
//! - [`REMATCH`] if the two have just played each other (their latest games), which outweighs any
//!   difference, so they meet again only when nobody else is waiting.
//!
//! An exact minimum over k-sets is a hard problem for k ≥ 3, so [`pair`] orders the players by
//! rank, cuts the order into tables of k, and then swaps players between tables while a swap
//! lowers the total: between neighbouring tables first, then between any table holding a rematch
//! and every other. For k = 2 the first step alone is lichess's pairing of neighbours, and the
//! swaps are the two-opt moves that its matching would find between neighbours. It is linear in
//! the players per pass and does a bounded number of passes (1,000 players: BENCHMARKS.md).
//!
//! When the count of waiting players is not a multiple of k, those who came back to the queue
//! last wait for the next wave.
//!
//! **Points** go by finishing place: with `p` places (seats, or sides in a partnership game) the
//! first scores `p`, the place `i > 1` scores `p − i` (two seats: 2 and 0, as lichess's win and
//! loss; four: 4, 2, 1, 0). After two first places in a row a player is *on fire*: each game scores
//! double until one that is not a first place. A berserk player (half the clock) scores one more
//! for a first place. A seat that a bot played for more than half of its decisions scores nothing
//! and ends the streak: bots never earn points.

/// A player waiting to be paired.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Waiting {
    /// Place in the standings now, from 1 (players level on points share it).
    pub rank: u32,
    /// Rating in the tournament's game.
    pub rating: f64,
    /// When the player came back to the queue (milliseconds): when the count is not a multiple of
    /// the seats, the latest to come back wait for the next wave.
    pub since: i64,
}

/// The cost of two players who have just met, so that a swap that separates them is always
/// taken, and they meet again only when no other table is possible.
pub const REMATCH: f64 = 1e9;

/// Passes of improving swaps at most (each pass is linear in the players); pairing stops earlier
/// when a pass finds nothing to improve.
const PASSES: usize = 8;

/// How many tables further down the order a table looks for swaps, besides the tables holding a
/// rematch, which look at every other.
const WINDOW: usize = 2;

/// The weight of a difference in the standings between two players, larger near the top: from
/// 2,000 for the leader down to 300 at the bottom (lichess's `rankFactor`).
pub fn rank_factor(a_rank: u32, b_rank: u32, max_rank: u32) -> f64 {
    let max = max_rank.max(1) as f64;
    let top = a_rank.min(b_rank) as f64;
    300.0 + 1700.0 * (max - top).max(0.0) / max
}

/// The waiting players' tables: each a list of indices into the slice given to [`pair`], in the
/// order of their seats, and the indices of those left waiting.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pairing {
    /// The tables to open, each of exactly `seats` players.
    pub tables: Vec<Vec<usize>>,
    /// Who waits for the next wave (fewer than `seats`).
    pub left: Vec<usize>,
}

/// Pairs the waiting players at tables of `seats` (2 to 6) as the module says. `just_met(i, j)`
/// tells whether the waiting players `i` and `j` have just played each other.
pub fn pair(waiting: &[Waiting], seats: usize, just_met: impl Fn(usize, usize) -> bool) -> Pairing {
    let seats = seats.max(2);
    let tables_count = waiting.len() / seats;
    if tables_count == 0 {
        return Pairing { tables: Vec::new(), left: (0..waiting.len()).collect() };
    }
    // Who plays: all but the latest to come back.
    let mut by_arrival: Vec<usize> = (0..waiting.len()).collect();
    by_arrival.sort_by_key(|&i| (waiting[i].since, waiting[i].rank, i));
    let mut left = by_arrival.split_off(tables_count * seats);
    left.sort_unstable();
    let mut playing = by_arrival;
    playing.sort_by(|&a, &b| {
        let (x, y) = (&waiting[a], &waiting[b]);
        x.rank.cmp(&y.rank).then(y.rating.total_cmp(&x.rating)).then(a.cmp(&b))
    });

    let cost =
        Cost { waiting, max_rank: waiting.iter().map(|w| w.rank).max().unwrap_or(1), just_met: &just_met };
    let mut tables: Vec<Vec<usize>> = playing.chunks(seats).map(<[usize]>::to_vec).collect();
    let mut costs: Vec<f64> = tables.iter().map(|t| cost.table(t)).collect();
    for _ in 0..PASSES {
        let mut improved = false;
        for g in 0..tables.len() {
            let rematch = costs[g] >= REMATCH;
            let others: Box<dyn Iterator<Item = usize>> = if rematch {
                Box::new((0..tables.len()).filter(move |&h| h != g))
            } else {
                Box::new(g + 1..(g + 1 + WINDOW).min(tables.len()))
            };
            for h in others {
                improved |= improve_pair(&cost, &mut tables, &mut costs, g, h);
                if rematch && costs[g] < REMATCH {
                    // Broken: the rest of the pass's work for this table is its window's.
                    break;
                }
            }
        }
        if !improved {
            break;
        }
    }
    Pairing { tables, left }
}

/// The pairing's costs over the waiting players.
struct Cost<'a, F> {
    waiting: &'a [Waiting],
    max_rank: u32,
    just_met: &'a F,
}

impl<F: Fn(usize, usize) -> bool> Cost<'_, F> {
    fn two(&self, i: usize, j: usize) -> f64 {
        let (a, b) = (&self.waiting[i], &self.waiting[j]);
        let ranks = a.rank.abs_diff(b.rank) as f64 * rank_factor(a.rank, b.rank, self.max_rank);
        let met = if (self.just_met)(i, j) || (self.just_met)(j, i) { REMATCH } else { 0.0 };
        ranks + (a.rating - b.rating).abs() + met
    }

    fn table(&self, players: &[usize]) -> f64 {
        let mut sum = 0.0;
        for (n, &i) in players.iter().enumerate() {
            for &j in &players[n + 1..] {
                sum += self.two(i, j);
            }
        }
        sum
    }
}

/// Takes the best swap of one player of table `g` with one of table `h`, if it lowers their
/// total; true if it did. A swap's gain is counted from the two players' costs at each table
/// (k² pairs per swap tried, not the two tables' k² each).
fn improve_pair<F: Fn(usize, usize) -> bool>(
    cost: &Cost<'_, F>,
    tables: &mut [Vec<usize>],
    costs: &mut [f64],
    g: usize,
    h: usize,
) -> bool {
    let (a, b) = (&tables[g], &tables[h]);
    // What each player costs at its own table, and at the other table in place of each player.
    let own = |t: &[usize], x: usize| {
        t.iter().enumerate().filter(|&(n, _)| n != x).map(|(_, &j)| cost.two(t[x], j)).sum::<f64>()
    };
    let instead = |t: &[usize], x: usize, p: usize| {
        t.iter().enumerate().filter(|&(n, _)| n != x).map(|(_, &j)| cost.two(p, j)).sum::<f64>()
    };
    let a_own: Vec<f64> = (0..a.len()).map(|x| own(a, x)).collect();
    let b_own: Vec<f64> = (0..b.len()).map(|y| own(b, y)).collect();
    let mut best: Option<(f64, usize, usize)> = None;
    for x in 0..a.len() {
        for y in 0..b.len() {
            let ca = costs[g] - a_own[x] + instead(a, x, b[y]);
            let cb = costs[h] - b_own[y] + instead(b, y, a[x]);
            // A swap must gain more than rounding (the costs reach 10⁹), or two equal tables
            // would swap back and forth.
            let gain = costs[g] + costs[h] - (ca + cb);
            if gain > 1e-3 && best.is_none_or(|(t, ..)| gain > t) {
                best = Some((gain, x, y));
            }
        }
    }
    let Some((_, x, y)) = best else { return false };
    let taken = tables[g][x];
    tables[g][x] = tables[h][y];
    tables[h][y] = taken;
    // Summed afresh, so that rounding does not drift over many swaps.
    costs[g] = cost.table(&tables[g]);
    costs[h] = cost.table(&tables[h]);
    true
}

/// One finished arena game of a player, as [`Sheet::record`] scores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameResult {
    /// The player's finishing place, from 1 (partners share their side's).
    pub place: usize,
    /// How many places the game had: its seats, or its sides in a partnership game.
    pub places: usize,
    /// The player took half the clock for this game.
    pub berserk: bool,
    /// A bot played more than half of the seat's decisions (timeouts, a takeover).
    pub mostly_bot: bool,
}

/// The points of a finishing place before streak and berserk: the first of `places` scores
/// `places`, a place `i > 1` scores `places − i`.
pub fn place_points(place: usize, places: usize) -> u32 {
    match place {
        0 => 0,
        1 => places as u32,
        i => places.saturating_sub(i) as u32,
    }
}

/// A player's arena score so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sheet {
    /// Points in all.
    pub points: u32,
    /// Games finished.
    pub games: u32,
    /// First places (not counting games a bot mostly played).
    pub wins: u32,
    /// First places in a row up to now: two or more and the next game scores double.
    pub streak: u32,
}

impl Sheet {
    /// Whether the next game scores double.
    pub fn on_fire(&self) -> bool {
        self.streak >= 2
    }

    /// Adds a finished game and returns the points it scored.
    pub fn record(&mut self, game: &GameResult) -> u32 {
        self.games += 1;
        if game.mostly_bot {
            self.streak = 0;
            return 0;
        }
        let won = game.place == 1;
        let mut points = place_points(game.place, game.places);
        if won && game.berserk {
            points += 1;
        }
        if self.on_fire() {
            points *= 2;
        }
        if won {
            self.wins += 1;
            self.streak += 1;
        } else {
            self.streak = 0;
        }
        self.points += points;
        points
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn waiting(ranks_ratings: &[(u32, f64)]) -> Vec<Waiting> {
        ranks_ratings
            .iter()
            .enumerate()
            .map(|(i, &(rank, rating))| Waiting { rank, rating, since: i as i64 })
            .collect()
    }

    fn never(_: usize, _: usize) -> bool {
        false
    }

    fn each_player_once(p: &Pairing, n: usize) {
        let mut seen: Vec<usize> = p.tables.iter().flatten().chain(&p.left).copied().collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..n).collect::<Vec<_>>(), "every waiting player is seated or left, once");
    }

    #[test]
    fn two_seats_pair_neighbours_in_the_standings() {
        let w = waiting(&[(4, 1500.0), (1, 1500.0), (3, 1500.0), (2, 1500.0)]);
        let p = pair(&w, 2, never);
        each_player_once(&p, 4);
        let mut tables: Vec<Vec<u32>> =
            p.tables.iter().map(|t| t.iter().map(|&i| w[i].rank).collect::<Vec<_>>()).collect();
        tables.iter_mut().for_each(|t| t.sort_unstable());
        assert_eq!(tables, vec![vec![1, 2], vec![3, 4]]);
    }

    #[test]
    fn four_seat_tables_group_the_standings_in_fours() {
        let w: Vec<Waiting> = (1..=12).rev().map(|r| Waiting { rank: r, rating: 1500.0, since: 0 }).collect();
        let p = pair(&w, 4, never);
        each_player_once(&p, 12);
        assert!(p.left.is_empty());
        for (n, t) in p.tables.iter().enumerate() {
            let mut ranks: Vec<u32> = t.iter().map(|&i| w[i].rank).collect();
            ranks.sort_unstable();
            let first = 4 * n as u32 + 1;
            assert_eq!(ranks, (first..first + 4).collect::<Vec<_>>());
        }
    }

    #[test]
    fn when_the_count_does_not_divide_the_latest_back_wait() {
        // Seven waiting for 3-seat tables: the one who came back last waits.
        let w: Vec<Waiting> = (0..7)
            .map(|i| Waiting { rank: 1 + i as u32, rating: 1500.0, since: [5, 1, 9, 2, 3, 4, 0][i] })
            .collect();
        let p = pair(&w, 3, never);
        each_player_once(&p, 7);
        assert_eq!(p.left, vec![2], "since 9 is the latest");
        assert_eq!(p.tables.len(), 2);
    }

    #[test]
    fn fewer_than_a_table_all_wait() {
        let w = waiting(&[(1, 1500.0), (2, 1500.0), (3, 1500.0)]);
        let p = pair(&w, 4, never);
        assert!(p.tables.is_empty());
        assert_eq!(p.left, vec![0, 1, 2]);
    }

    #[test]
    fn players_who_just_met_are_not_paired_again_while_others_wait() {
        // Four players level in the standings; 0 and 1 just played, 2 and 3 too.
        let w = waiting(&[(1, 1500.0), (1, 1500.0), (1, 1500.0), (1, 1500.0)]);
        let met: HashSet<(usize, usize)> = [(0, 1), (2, 3)].into();
        let p = pair(&w, 2, |a, b| met.contains(&(a, b)));
        for t in &p.tables {
            assert!(!met.contains(&(t[0], t[1])) && !met.contains(&(t[1], t[0])), "{t:?} just met");
        }
    }

    #[test]
    fn a_rematch_at_a_four_seat_table_is_broken_by_a_swap_with_any_table() {
        // 16 players; each 4 in a row of the standings just played together, so every table of
        // the plain cut is a rematch: the swaps must break each of them.
        let w: Vec<Waiting> = (1..=16).map(|r| Waiting { rank: r, rating: 1500.0, since: 0 }).collect();
        let met = |a: usize, b: usize| a / 4 == b / 4;
        let p = pair(&w, 4, met);
        each_player_once(&p, 16);
        for t in &p.tables {
            for (n, &a) in t.iter().enumerate() {
                for &b in &t[n + 1..] {
                    assert!(!met(a, b), "{a} and {b} just met, at {t:?}");
                }
            }
        }
    }

    #[test]
    fn ratings_break_ties_in_the_standings() {
        // Everyone level: the two highest rated meet, and the two lowest.
        let w = waiting(&[(1, 1200.0), (1, 1900.0), (1, 1250.0), (1, 1850.0)]);
        let p = pair(&w, 2, never);
        let mut tables: Vec<Vec<usize>> = p.tables.clone();
        tables.iter_mut().for_each(|t| t.sort_unstable());
        tables.sort();
        assert_eq!(tables, vec![vec![0, 2], vec![1, 3]]);
    }

    #[test]
    fn the_leaders_difference_weighs_more_than_the_tails() {
        assert_eq!(rank_factor(1, 5, 100), 300.0 + 1700.0 * 99.0 / 100.0);
        assert_eq!(rank_factor(100, 90, 100), 300.0 + 1700.0 * 10.0 / 100.0);
        assert!(rank_factor(1, 2, 10) > rank_factor(9, 10, 10));
    }

    #[test]
    fn a_large_queue_is_paired_whole_and_no_worse_than_the_plain_cut() {
        let n = 1000;
        let w: Vec<Waiting> = (0..n)
            .map(|i| Waiting {
                rank: 1 + (i as u32 * 7919) % 600,
                rating: 1000.0 + ((i * 104729) % 1000) as f64,
                since: i as i64,
            })
            .collect();
        let met = |a: usize, b: usize| (a + b).is_multiple_of(97);
        for seats in 2..=6 {
            let p = pair(&w, seats, met);
            each_player_once(&p, n);
            assert_eq!(p.left.len(), n % seats);
            assert!(p.tables.iter().all(|t| t.len() == seats));
            // The plain cut of the same players by rank, which the swaps start from.
            let cost = Cost { waiting: &w, max_rank: 600, just_met: &met };
            let mut cut: Vec<usize> = p.tables.iter().flatten().copied().collect();
            cut.sort_by(|&a, &b| {
                w[a].rank.cmp(&w[b].rank).then(w[b].rating.total_cmp(&w[a].rating)).then(a.cmp(&b))
            });
            let plain: f64 = cut.chunks(seats).map(|t| cost.table(t)).sum();
            let paired: f64 = p.tables.iter().map(|t| cost.table(t)).sum();
            assert!(paired <= plain, "{seats} seats: {paired} > {plain}");
            assert!(paired < REMATCH, "{seats} seats: no rematch left");
        }
    }

    #[test]
    fn points_by_place_for_two_to_six_places() {
        assert_eq!((1..=2).map(|p| place_points(p, 2)).collect::<Vec<_>>(), [2, 0]);
        assert_eq!((1..=3).map(|p| place_points(p, 3)).collect::<Vec<_>>(), [3, 1, 0]);
        assert_eq!((1..=4).map(|p| place_points(p, 4)).collect::<Vec<_>>(), [4, 2, 1, 0]);
        assert_eq!((1..=6).map(|p| place_points(p, 6)).collect::<Vec<_>>(), [6, 4, 3, 2, 1, 0]);
    }

    #[test]
    fn after_two_first_places_in_a_row_games_score_double_until_one_is_not_won() {
        let won = GameResult { place: 1, places: 4, berserk: false, mostly_bot: false };
        let second = GameResult { place: 2, ..won };
        let mut s = Sheet::default();
        assert_eq!(s.record(&won), 4);
        assert_eq!(s.record(&won), 4);
        assert!(s.on_fire());
        assert_eq!(s.record(&won), 8);
        assert_eq!(s.record(&second), 4, "on fire, a second place scores double too, and ends it");
        assert!(!s.on_fire());
        assert_eq!(s.record(&won), 4);
        assert_eq!(s, Sheet { points: 24, games: 5, wins: 4, streak: 1 });
    }

    #[test]
    fn berserk_adds_one_to_a_first_place_only() {
        let mut s = Sheet::default();
        assert_eq!(s.record(&GameResult { place: 1, places: 2, berserk: true, mostly_bot: false }), 3);
        assert_eq!(s.record(&GameResult { place: 2, places: 2, berserk: true, mostly_bot: false }), 0);
    }

    #[test]
    fn a_seat_a_bot_mostly_played_scores_nothing_and_ends_the_streak() {
        let won = GameResult { place: 1, places: 4, berserk: false, mostly_bot: false };
        let mut s = Sheet::default();
        s.record(&won);
        s.record(&won);
        assert_eq!(s.record(&GameResult { mostly_bot: true, ..won }), 0);
        assert_eq!(s.streak, 0);
        assert_eq!(s.wins, 2);
        assert_eq!(s.games, 3);
    }
}
