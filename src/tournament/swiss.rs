//! Swiss rounds: every round pairs players with about the same score, no two players meet twice,
//! and the standings are broken by tie-breaks.
//!
//! **Pairing** follows the Dutch system of FIDE's handbook (C.04.3) in its main lines: players are
//! ordered by score, then rating; inside a score group the top half meets the bottom half in order
//! (of 8 level players, 1–5, 2–6, 3–7, 4–8); a player the group cannot pair floats down to the top
//! of the next group. Where that would repeat a meeting, the next candidate in the same order is
//! taken (the bottom half further down, then the top half upwards, then the groups below), with
//! backtracking when a choice leaves later players without an opponent. What the handbook adds
//! for chess and is left out here: colours (in backgammon the opening roll decides who starts)
//! and its finer criteria on floaters over several rounds.
//!
//! With an odd count, the lowest-ordered player who has not had a bye gets one (a point, and no
//! opponent). If no pairing without a repeat exists within [`STEPS`] tries (a small field late
//! in the event), the round is paired again allowing repeats, fewest first by the same order.
//!
//! **Standings**: points (a won match or a bye: 1), then Buchholz (the sum of the opponents'
//! points), then Sonneborn–Berger (the sum of the points of the opponents beaten), then rating.

use std::cmp::Ordering;

/// Tries of the pairing's backtracking before it allows repeats.
pub const STEPS: usize = 200_000;

/// A match a player has played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Game {
    /// The opponent, an index into the entrants.
    pub opponent: usize,
    /// Whether this player won it.
    pub won: bool,
}

/// A player of a Swiss event, as its pairing and standings need them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Entrant {
    /// Rating in the event's game, for the order inside a score and the last tie-break.
    pub rating: f64,
    /// Matches played, in order.
    pub games: Vec<Game>,
    /// Byes received (each a point).
    pub byes: u32,
    /// Withdrawn (or forfeited out): no longer paired, still in the standings.
    pub withdrawn: bool,
}

impl Entrant {
    /// Matches won and byes.
    pub fn points(&self) -> u32 {
        self.games.iter().filter(|g| g.won).count() as u32 + self.byes
    }

    fn met(&self, other: usize) -> usize {
        self.games.iter().filter(|g| g.opponent == other).count()
    }
}

/// One round's pairing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Round {
    /// The matches, the higher-ordered player first.
    pub pairs: Vec<(usize, usize)>,
    /// Who gets the bye, with an odd count.
    pub bye: Option<usize>,
    /// Matches that repeat an earlier meeting (only when no pairing without one was found).
    pub repeats: usize,
}

/// Pairs the next round of the entrants still in.
pub fn pair_round(entrants: &[Entrant]) -> Round {
    let mut order: Vec<usize> = (0..entrants.len()).filter(|&i| !entrants[i].withdrawn).collect();
    order.sort_by(|&a, &b| by_score_then_rating(entrants, a, b));
    let mut bye = None;
    if order.len() % 2 == 1 {
        let pick = order.iter().rposition(|&i| entrants[i].byes == 0).unwrap_or(order.len() - 1);
        bye = Some(order.remove(pick));
    }
    for allowed_repeats in [false, true] {
        let mut search = Search {
            entrants,
            order: &order,
            paired: vec![false; order.len()],
            pairs: Vec::new(),
            steps: 0,
            allowed_repeats,
        };
        if search.solve() {
            let repeats = search.pairs.iter().filter(|&&(a, b)| entrants[a].met(b) > 0).count();
            return Round { pairs: search.pairs, bye, repeats };
        }
    }
    unreachable!("with repeats allowed, any even count of players pairs")
}

fn by_score_then_rating(entrants: &[Entrant], a: usize, b: usize) -> Ordering {
    let (x, y) = (&entrants[a], &entrants[b]);
    y.points().cmp(&x.points()).then(y.rating.total_cmp(&x.rating)).then(a.cmp(&b))
}

/// The backtracking over the ordered players.
struct Search<'a> {
    entrants: &'a [Entrant],
    /// The players to pair, by score then rating (indices into `entrants`).
    order: &'a [usize],
    /// Which places of `order` are paired so far.
    paired: Vec<bool>,
    pairs: Vec<(usize, usize)>,
    steps: usize,
    allowed_repeats: bool,
}

impl Search<'_> {
    /// Pairs the first unpaired player with each of its candidates in turn, then the rest.
    fn solve(&mut self) -> bool {
        let Some(top) = self.paired.iter().position(|p| !p) else { return true };
        for c in self.candidates(top) {
            self.steps += 1;
            if !self.allowed_repeats && self.steps > STEPS {
                return false;
            }
            self.paired[top] = true;
            self.paired[c] = true;
            self.pairs.push((self.order[top], self.order[c]));
            if self.solve() {
                return true;
            }
            self.pairs.pop();
            self.paired[top] = false;
            self.paired[c] = false;
            if !self.allowed_repeats && self.steps > STEPS {
                return false;
            }
        }
        false
    }

    /// The places `top` may meet, best first: in its score group the one half the group below it
    /// and on down, then the group's upper half upwards, then the groups below in order. Without
    /// repeats allowed, the players it has met are left out; with them, they come last, those met
    /// fewest times first.
    fn candidates(&self, top: usize) -> Vec<usize> {
        let points = |place: usize| self.entrants[self.order[place]].points();
        let free: Vec<usize> = (top + 1..self.order.len()).filter(|&p| !self.paired[p]).collect();
        let group_len = free.iter().take_while(|&&p| points(p) == points(top)).count();
        let (group, below) = free.split_at(group_len);
        // The group counting `top` has group_len + 1 players: its top meets the first of its lower half.
        let half = group_len.div_ceil(2);
        let mut ordered: Vec<usize> = Vec::with_capacity(free.len());
        ordered.extend(group.iter().skip(half.saturating_sub(1)));
        ordered.extend(group.iter().take(half.saturating_sub(1)).rev());
        ordered.extend(below);
        let me = &self.entrants[self.order[top]];
        if self.allowed_repeats {
            // A stable sort keeps the order among players met as often.
            ordered.sort_by_key(|&p| me.met(self.order[p]));
            ordered
        } else {
            ordered.retain(|&p| me.met(self.order[p]) == 0);
            ordered
        }
    }
}

/// A player's line in the standings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Standing {
    /// Index into the entrants.
    pub entrant: usize,
    pub points: u32,
    /// The sum of the opponents' points.
    pub buchholz: u32,
    /// The sum of the points of the opponents this player beat.
    pub sonneborn_berger: u32,
}

/// The standings, best first: points, Buchholz, Sonneborn–Berger, rating, then index.
pub fn standings(entrants: &[Entrant]) -> Vec<Standing> {
    let points: Vec<u32> = entrants.iter().map(Entrant::points).collect();
    let mut lines: Vec<Standing> = entrants
        .iter()
        .enumerate()
        .map(|(i, e)| Standing {
            entrant: i,
            points: points[i],
            buchholz: e.games.iter().map(|g| points[g.opponent]).sum(),
            sonneborn_berger: e.games.iter().filter(|g| g.won).map(|g| points[g.opponent]).sum(),
        })
        .collect();
    lines.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.buchholz.cmp(&a.buchholz))
            .then(b.sonneborn_berger.cmp(&a.sonneborn_berger))
            .then(entrants[b.entrant].rating.total_cmp(&entrants[a.entrant].rating))
            .then(a.entrant.cmp(&b.entrant))
    });
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(n: usize) -> Vec<Entrant> {
        (0..n).map(|i| Entrant { rating: 2000.0 - 10.0 * i as f64, ..Entrant::default() }).collect()
    }

    /// Plays a round: the better-rated player wins unless `upset` says otherwise.
    fn play(entrants: &mut [Entrant], round: &Round, upset: impl Fn(usize, usize) -> bool) {
        for &(a, b) in &round.pairs {
            let a_wins = (entrants[a].rating >= entrants[b].rating) != upset(a, b);
            entrants[a].games.push(Game { opponent: b, won: a_wins });
            entrants[b].games.push(Game { opponent: a, won: !a_wins });
        }
        if let Some(b) = round.bye {
            entrants[b].byes += 1;
        }
    }

    #[test]
    fn the_first_round_pairs_the_top_half_with_the_bottom_half_in_order() {
        let r = pair_round(&field(8));
        assert_eq!(r.pairs, vec![(0, 4), (1, 5), (2, 6), (3, 7)]);
        assert_eq!(r.bye, None);
    }

    #[test]
    fn an_odd_field_gives_the_bye_to_the_lowest_who_has_not_had_one() {
        let mut e = field(7);
        let r = pair_round(&e);
        assert_eq!(r.bye, Some(6));
        assert_eq!(r.pairs.len(), 3);
        play(&mut e, &r, |_, _| false);
        let r2 = pair_round(&e);
        let b2 = r2.bye.expect("a bye again");
        assert_ne!(b2, 6, "a second bye goes to someone else");
        assert_eq!(e[b2].points(), 0, "to the lowest score group");
    }

    #[test]
    fn winners_meet_winners_and_nobody_meets_twice_in_a_five_round_event() {
        for n in [6, 7, 11, 16, 33] {
            let mut e = field(n);
            for round in 0..5 {
                let r = pair_round(&e);
                assert_eq!(r.repeats, 0, "{n} players, round {round}: no repeat");
                let mut seen = vec![false; n];
                for &(a, b) in &r.pairs {
                    assert!(!seen[a] && !seen[b], "a player twice in one round");
                    seen[a] = true;
                    seen[b] = true;
                }
                if let Some(b) = r.bye {
                    assert!(!seen[b]);
                    seen[b] = true;
                }
                assert!(seen.iter().all(|&s| s), "everyone paired or given the bye");
                play(&mut e, &r, |a, b| (a + b + round) % 3 == 0);
            }
            // Byes: nobody twice while others have none.
            let byes: Vec<u32> = e.iter().map(|x| x.byes).collect();
            assert!(byes.iter().all(|&b| b <= 1), "{n}: {byes:?}");
        }
    }

    #[test]
    fn after_round_one_the_score_groups_pair_inside_themselves() {
        let mut e = field(8);
        let r = pair_round(&e);
        play(&mut e, &r, |_, _| false);
        // Winners 0..3 (1 point), losers 4..7 (0 points).
        let r2 = pair_round(&e);
        for &(a, b) in &r2.pairs {
            assert_eq!(e[a].points(), e[b].points(), "{a} and {b} are in one score group");
        }
        assert_eq!(r2.pairs, vec![(0, 2), (1, 3), (4, 6), (5, 7)]);
    }

    #[test]
    fn a_player_the_group_cannot_pair_floats_down() {
        // Three level on 1 point (an odd group): the lowest of them meets the top of the zero group.
        let mut e = field(6);
        e[0].games.push(Game { opponent: 3, won: true });
        e[3].games.push(Game { opponent: 0, won: false });
        e[1].games.push(Game { opponent: 4, won: true });
        e[4].games.push(Game { opponent: 1, won: false });
        e[5].games.push(Game { opponent: 2, won: true });
        e[2].games.push(Game { opponent: 5, won: false });
        // 1 point: 0, 1, 5; 0 points: 2, 3, 4.
        let r = pair_round(&e);
        assert_eq!(r.pairs[0], (0, 1), "the group's top meets the group's next (its half)");
        // 5 floats down to the top of the group below, 2, whom it has met: so to the next, 3.
        assert_eq!(r.pairs[1], (5, 3));
        assert_eq!(r.pairs[2], (2, 4));
    }

    #[test]
    fn a_field_too_small_for_new_meetings_repeats_the_fewest() {
        // Four players, three rounds played (everyone met everyone): a fourth round repeats.
        let mut e = field(4);
        for r in 0..3 {
            let round = pair_round(&e);
            assert_eq!(round.repeats, 0, "round {r}");
            play(&mut e, &round, |_, _| false);
        }
        let fourth = pair_round(&e);
        assert_eq!(fourth.pairs.len(), 2);
        assert_eq!(fourth.repeats, 2);
    }

    #[test]
    fn withdrawn_players_are_not_paired_but_stay_in_the_standings() {
        let mut e = field(5);
        e[1].withdrawn = true;
        let r = pair_round(&e);
        assert!(r.pairs.iter().all(|&(a, b)| a != 1 && b != 1));
        assert_eq!(r.bye, None);
        assert_eq!(standings(&e).len(), 5);
    }

    #[test]
    fn standings_break_ties_by_buchholz_then_sonneborn_berger() {
        // 0 beat 2 (who later beat 3); 1 beat 3. 0 and 1 both have 1 point; 0's opponent has more.
        let mut e = field(4);
        let mut result = |w: usize, l: usize| {
            e[w].games.push(Game { opponent: l, won: true });
            e[l].games.push(Game { opponent: w, won: false });
        };
        result(0, 2);
        result(1, 3);
        result(2, 3);
        let s = standings(&e);
        let order: Vec<usize> = s.iter().map(|l| l.entrant).collect();
        assert_eq!(s[0].points, 1);
        // 0: 1 pt, Buchholz = 2's 1 = 1; 1: 1 pt, Buchholz = 3's 0 = 0; 2: 1 pt, Buchholz 0 + 1 = 1, SB 0.
        assert_eq!(order, vec![0, 2, 1, 3]);
        assert_eq!((s[0].buchholz, s[0].sonneborn_berger), (1, 1));
        assert_eq!((s[1].buchholz, s[1].sonneborn_berger), (1, 0));
    }
}
