//! Ratings: Glicko-2 per player per game (the `skillratings` crate's, checked here against the
//! paper's worked example), updated in the transaction that records a table's finish
//! (docs/ratings.md).
//!
//! A finished public table is one rating period for each rated player in it; private tables
//! are never rated. Its results are pairs: each pair of rated players counts as one game
//! between them, won by the better place, drawn on equal places. Partners in Uckers share their
//! side's place and are never paired with each other, whatever either did: the partnership's
//! result rates both. Rated players are the seats held by a player who made at least
//! [`MIN_DECISIONS`] decisions there; bots are never rated and never rate anyone. A seat
//! played mostly by a bot (more of its decisions by a bot or the clock than by its player)
//! counts as abandoned: it loses to every rated opponent that was not, whatever its place, and
//! draws with other abandoned seats. Two players already paired at [`PAIR_LIMIT`] tables of the
//! game in the last [`PAIR_WINDOW_MS`] are not paired again. A rating measured against fewer
//! than [`MIN_OPPONENTS`] players, or still as unsure as [`PROVISIONAL_DEVIATION`], is
//! provisional: kept off the leaderboard.

use super::{Backend, Numbered, StoreResult};
use crate::games::GameKind;
use skillratings::{
    Outcomes,
    glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period},
};
use std::collections::{BTreeSet, HashMap};
use uuid::Uuid;

/// Decisions of their own (`human` entries) a player makes at a table before it rates them:
/// a game dropped or resigned at once tells nothing of anyone's play (lichess aborts games
/// with fewer than two moves a side).
pub const MIN_DECISIONS: i64 = 5;
/// Tables of one game at which the same two players are paired in [`PAIR_WINDOW_MS`]: past
/// it, a second account fed wins would keep lifting its owner.
pub const PAIR_LIMIT: i64 = 3;
/// The window of [`PAIR_LIMIT`]: a day.
pub const PAIR_WINDOW_MS: i64 = 24 * 60 * 60 * 1000;
/// A deviation this high or higher is provisional (lichess's threshold).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Distinct opponents a rating is measured against before it is established.
pub const MIN_OPPONENTS: i64 = 3;

/// Whether a rating of `deviation` measured against `opponents` players is provisional.
pub fn provisional(deviation: f64, opponents: i64) -> bool {
    deviation >= PROVISIONAL_DEVIATION || opponents < MIN_OPPONENTS
}

/// One rated seat of a finished table.
#[derive(Debug, Clone, PartialEq)]
pub struct RatedSeat {
    pub player: Uuid,
    /// 1 is the winner.
    pub place: u8,
    pub abandoned: bool,
}

/// The results of one finished table for each rated seat (by index into `seats`): the other
/// seat and the outcome for this one. With `partners_share_places` (Uckers) seats of equal
/// places are partners, never paired.
pub fn pairings(seats: &[RatedSeat], partners_share_places: bool) -> Vec<Vec<(usize, Outcomes)>> {
    let mut results = vec![vec![]; seats.len()];
    if seats.len() < 2 {
        return results;
    }
    for i in 0..seats.len() {
        for j in 0..seats.len() {
            if i == j {
                continue;
            }
            let (a, b) = (&seats[i], &seats[j]);
            if partners_share_places && a.place == b.place {
                continue;
            }
            let outcome = match (a.abandoned, b.abandoned) {
                (true, false) => Outcomes::LOSS,
                (false, true) => Outcomes::WIN,
                (true, true) => Outcomes::DRAW,
                (false, false) => match a.place.cmp(&b.place) {
                    std::cmp::Ordering::Less => Outcomes::WIN,
                    std::cmp::Ordering::Greater => Outcomes::LOSS,
                    std::cmp::Ordering::Equal => Outcomes::DRAW,
                },
            };
            results[i].push((j, outcome));
        }
    }
    results
}

/// Every rated seat's rating after the table: Glicko-2 rating periods from the ratings before.
pub fn rate(before: &[Glicko2Rating], results: &[Vec<(usize, Outcomes)>]) -> Vec<Glicko2Rating> {
    let config = Glicko2Config::new();
    before
        .iter()
        .zip(results)
        .map(|(me, games)| {
            if games.is_empty() {
                return *me;
            }
            let games: Vec<(Glicko2Rating, Outcomes)> = games.iter().map(|&(j, o)| (before[j], o)).collect();
            glicko2_rating_period(me, &games, &config)
        })
        .collect()
}

/// The leaderboard's order: minus the rating in thousandths.
pub fn rank_key(rating: f64) -> i64 {
    -(rating * 1000.0).round() as i64
}

/// Locks the players' rows of every seat of `tables` (tables finishing in one transaction),
/// in one order, before any of their ratings is read: on PostgreSQL another transaction
/// finishing a table of one of them waits until this one commits, then reads what it wrote, so
/// each finish is a rating period of its own, in turn. All of a batch's players are locked at
/// once, sorted, so that two batches never hold one each of two players the other wants.
/// `FOR NO KEY UPDATE` leaves the players' rows free for the key-share locks of foreign keys
/// (seats taken, tokens issued). SQLite has one writer at a time already.
pub(super) async fn lock_players(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    tables: &[Uuid],
) -> StoreResult<()> {
    let backend = Backend::of(tx);
    if backend != Backend::Postgres || tables.is_empty() {
        return Ok(());
    }
    let sql = Numbered::new(
        backend,
        &format!(
            "SELECT id FROM players WHERE id IN (SELECT player_id FROM seats WHERE table_id IN ({}))
             ORDER BY id FOR NO KEY UPDATE",
            vec!["?"; tables.len()].join(", ")
        ),
    );
    let mut q = sqlx::query(sql.as_str());
    for id in tables {
        q = q.bind(id.to_string());
    }
    q.fetch_all(&mut **tx).await?;
    Ok(())
}

/// Rates the finished table `table_id` of `game` whose seats' places are `places`, inside the
/// finish's transaction, after [`lock_players`].
pub(super) async fn rate_finish(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    table_id: Uuid,
    game: GameKind,
    places: &[u8],
    at: i64,
) -> StoreResult<()> {
    let id = table_id.to_string();
    let visibility: String = sqlx::query_scalar("SELECT visibility FROM game_tables WHERE id = $1")
        .bind(&id)
        .fetch_one(&mut **tx)
        .await?;
    if visibility != super::Visibility::Public.as_str() {
        return Ok(());
    }
    let held: Vec<(i64, String)> = sqlx::query_as(
        "SELECT seat, player_id FROM seats WHERE table_id = $1 AND player_id IS NOT NULL ORDER BY seat",
    )
    .bind(&id)
    .fetch_all(&mut **tx)
    .await?;
    if held.len() < 2 {
        return Ok(());
    }
    // Who made each seat's decisions: its player, or a bot or the clock for it.
    let counts: Vec<(i64, String, i64)> = sqlx::query_as(
        "SELECT seat, actor, COUNT(*) FROM actions
         WHERE table_id = $1 AND seat IS NOT NULL AND actor IN ('human', 'bot', 'timeout') GROUP BY seat, actor",
    )
    .bind(&id)
    .fetch_all(&mut **tx)
    .await?;
    let mut by_player: HashMap<i64, i64> = HashMap::new();
    let mut by_bot: HashMap<i64, i64> = HashMap::new();
    for (seat, actor, n) in counts {
        *if actor == "human" { &mut by_player } else { &mut by_bot }.entry(seat).or_default() += n;
    }
    let mut seats = vec![];
    for (seat, player) in &held {
        let Some(&place) = places.get(*seat as usize) else { continue };
        let own = by_player.get(seat).copied().unwrap_or(0);
        if own < MIN_DECISIONS {
            continue;
        }
        let abandoned = by_bot.get(seat).copied().unwrap_or(0) > own;
        seats.push(RatedSeat { player: super::parse_uuid(player)?, place, abandoned });
    }
    let mut results = pairings(&seats, game == GameKind::Uckers);
    let mut spent = BTreeSet::new();
    for (i, a) in seats.iter().enumerate() {
        for &(j, _) in &results[i] {
            if i < j && paired_recently(tx, a.player, seats[j].player, game, at).await? >= PAIR_LIMIT {
                spent.extend([(i, j), (j, i)]);
            }
        }
    }
    for (i, games) in results.iter_mut().enumerate() {
        games.retain(|&(j, _)| !spent.contains(&(i, j)));
    }
    let mut before = vec![];
    for s in &seats {
        let row: Option<(f64, f64, f64)> = sqlx::query_as(
            "SELECT rating, deviation, volatility FROM ratings WHERE player_id = $1 AND game = $2",
        )
        .bind(s.player.to_string())
        .bind(game.as_str())
        .fetch_optional(&mut **tx)
        .await?;
        before.push(row.map_or_else(Glicko2Rating::new, |(rating, deviation, volatility)| Glicko2Rating {
            rating,
            deviation,
            volatility,
        }));
    }
    let after = rate(&before, &results);
    for (i, s) in seats.iter().enumerate() {
        if results[i].is_empty() {
            continue;
        }
        for &(j, _) in &results[i] {
            sqlx::query(
                "INSERT INTO rating_pairs (table_id, player_id, opponent_id, game, at) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&id)
            .bind(s.player.to_string())
            .bind(seats[j].player.to_string())
            .bind(game.as_str())
            .bind(at)
            .execute(&mut **tx)
            .await?;
        }
        let (b, a) = (&before[i], &after[i]);
        let won = (s.place == 1 && !s.abandoned) as i64;
        sqlx::query(
            "INSERT INTO ratings (player_id, game, rating, deviation, volatility, rank_key, games, wins, updated_at, opponents)
             VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8,
                 (SELECT COUNT(DISTINCT opponent_id) FROM rating_pairs WHERE player_id = $1 AND game = $2))
             ON CONFLICT (player_id, game) DO UPDATE SET rating = $3, deviation = $4, volatility = $5,
                 rank_key = $6, games = ratings.games + 1, wins = ratings.wins + $7, updated_at = $8,
                 opponents = excluded.opponents",
        )
        .bind(s.player.to_string())
        .bind(game.as_str())
        .bind(a.rating)
        .bind(a.deviation)
        .bind(a.volatility)
        .bind(rank_key(a.rating))
        .bind(won)
        .bind(at)
        .execute(&mut **tx)
        .await?;
        sqlx::query(
            "INSERT INTO rating_changes (table_id, player_id, game, place, rating_before, rating_after, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&id)
        .bind(s.player.to_string())
        .bind(game.as_str())
        .bind(s.place as i64)
        .bind(b.rating)
        .bind(a.rating)
        .bind(at)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Tables of `game` at which `a` and `b` were paired in the [`PAIR_WINDOW_MS`] before `at`.
async fn paired_recently(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    a: Uuid,
    b: Uuid,
    game: GameKind,
    at: i64,
) -> StoreResult<i64> {
    Ok(sqlx::query_scalar(
        "SELECT COUNT(*) FROM rating_pairs WHERE player_id = $1 AND opponent_id = $2 AND game = $3 AND at > $4",
    )
    .bind(a.to_string())
    .bind(b.to_string())
    .bind(game.as_str())
    .bind(at - PAIR_WINDOW_MS)
    .fetch_one(&mut **tx)
    .await?)
}

/// A player's rating in one game, as the leaderboard lists it.
#[derive(Debug, Clone)]
pub struct RatingRow {
    pub player_id: Uuid,
    pub name: String,
    pub rating: f64,
    pub deviation: f64,
    pub games: i64,
    pub wins: i64,
    /// The row's place in the leaderboard's order ([`rank_key`]).
    pub rank_key: i64,
}

impl super::Store {
    /// The leaderboard of `game`: established ratings (not [`provisional`]) best first (then by
    /// player id), after the position `after` (a previous page's last row), at most `limit`.
    pub async fn leaderboard(
        &self,
        game: GameKind,
        after: Option<(i64, Uuid)>,
        limit: usize,
    ) -> StoreResult<Vec<RatingRow>> {
        let (key, id) = after.unwrap_or((i64::MIN, Uuid::nil()));
        let rows: Vec<(String, String, f64, f64, i64, i64, i64)> = sqlx::query_as(
            "SELECT r.player_id, p.name, r.rating, r.deviation, r.games, r.wins, r.rank_key
             FROM ratings r JOIN players p ON p.id = r.player_id
             WHERE r.game = $1 AND (r.rank_key > $2 OR (r.rank_key = $2 AND r.player_id > $3))
             AND r.deviation < $5 AND r.opponents >= $6
             ORDER BY r.rank_key, r.player_id LIMIT $4",
        )
        .bind(game.as_str())
        .bind(key)
        .bind(if after.is_some() { id.to_string() } else { String::new() })
        .bind(limit as i64)
        .bind(PROVISIONAL_DEVIATION)
        .bind(MIN_OPPONENTS)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|(player, name, rating, deviation, games, wins, rank_key)| {
                Ok(RatingRow {
                    player_id: super::parse_uuid(&player)?,
                    name,
                    rating,
                    deviation,
                    games,
                    wins,
                    rank_key,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's worked example (glicko2.pdf, "Example calculation"): a 1500 (RD 200, σ 0.06)
    /// player beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300): 1464.06,
    /// RD 151.52, σ 0.05999.
    #[test]
    fn the_papers_worked_example() {
        let me = Glicko2Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
        let other = |rating, deviation| Glicko2Rating { rating, deviation, volatility: 0.06 };
        let before = [me, other(1400.0, 30.0), other(1550.0, 100.0), other(1700.0, 300.0)];
        let results =
            vec![vec![(1, Outcomes::WIN), (2, Outcomes::LOSS), (3, Outcomes::LOSS)], vec![], vec![], vec![]];
        let after = rate(&before, &results)[0];
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    fn seat(place: u8, abandoned: bool) -> RatedSeat {
        RatedSeat { player: Uuid::new_v4(), place, abandoned }
    }

    #[test]
    fn places_pair_every_two_rated_seats_and_abandoned_seats_lose() {
        // Four Ludo players finishing 1, 2, 3 (two seats share the last place).
        let p = pairings(&[seat(1, false), seat(2, false), seat(3, false), seat(3, false)], false);
        assert_eq!(p[0].iter().filter(|(_, o)| *o == Outcomes::WIN).count(), 3);
        assert_eq!(p[2], vec![(0, Outcomes::LOSS), (1, Outcomes::LOSS), (3, Outcomes::DRAW)]);
        // The winner's seat was mostly a bot's: it lost to the others.
        let p = pairings(&[seat(1, true), seat(2, false)], false);
        assert_eq!(p[0], vec![(1, Outcomes::LOSS)]);
        assert_eq!(p[1], vec![(0, Outcomes::WIN)]);
        // Uckers partners (equal places) are not paired; each meets both opponents.
        let p = pairings(&[seat(1, false), seat(2, false), seat(1, false), seat(2, false)], true);
        assert_eq!(p[0], vec![(1, Outcomes::WIN), (3, Outcomes::WIN)]);
        assert_eq!(p[3], vec![(0, Outcomes::LOSS), (2, Outcomes::LOSS)]);
        // One rated seat: nothing.
        assert!(pairings(&[seat(1, false)], false).iter().all(Vec::is_empty));
    }

    /// Issue #31 item 18: an abandoned Uckers partner leaves its partner rated by the side's
    /// result alone (never as a win over the abandoner), and loses to both opponents itself.
    #[test]
    fn uckers_partners_are_never_paired_even_when_one_abandons() {
        // Seats 0 and 2 lost together; seat 2 was abandoned to a bot.
        let p = pairings(&[seat(2, false), seat(1, false), seat(2, true), seat(1, false)], true);
        assert_eq!(p[0], vec![(1, Outcomes::LOSS), (3, Outcomes::LOSS)]);
        assert_eq!(p[2], vec![(1, Outcomes::LOSS), (3, Outcomes::LOSS)]);
        assert_eq!(p[1], vec![(0, Outcomes::WIN), (2, Outcomes::WIN)]);
        // The winners' side: its abandoned partner still loses to both opponents, and the other
        // wins as the side did.
        let p = pairings(&[seat(1, false), seat(2, false), seat(1, true), seat(2, false)], true);
        assert_eq!(p[0], vec![(1, Outcomes::WIN), (3, Outcomes::WIN)]);
        assert_eq!(p[2], vec![(1, Outcomes::LOSS), (3, Outcomes::LOSS)]);
        assert_eq!(p[1], vec![(0, Outcomes::LOSS), (2, Outcomes::WIN)]);
    }
}
