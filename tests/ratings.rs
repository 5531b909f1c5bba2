//! Ratings over real HTTP, against SQLite and PostgreSQL: a finish moves its players' Glicko-2
//! ratings in the same transaction, bots are never rated, and `GET /v1/leaderboards/{game}`
//! lists them best first.

mod common;

use common::{Db, TestServer, play_out, seated_table};
use serde_json::{Value, json};

both_stores!(
    a_finish_rates_its_players_and_the_leaderboard_lists_them,
    games_against_bots_rate_nobody,
    profiles_and_histories_show_ratings_places_and_changes,
    finishes_of_one_players_tables_at_once_rate_in_turn,
    a_private_tables_shame_stays_off_the_public_hall_of_shame,
    a_profile_counts_for_a_stranger_only_the_games_shown_to_strangers,
    farming_a_second_account_neither_climbs_nor_reaches_the_leaderboard,
    private_tables_are_unrated,
);

async fn a_finish_rates_its_players_and_the_leaderboard_lists_them(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 3, json!({})).await;
    play_out(&s, &id, &tokens).await;
    let t = s.table_view(&id, None).await;
    let places: Vec<u64> = t["play"]["outcome"]["places"]
        .as_array()
        .or(t["outcome"]["places"].as_array())
        .map(|p| p.iter().map(|x| x.as_u64().unwrap()).collect())
        .unwrap_or_default();
    let board = s.get("/v1/leaderboards/snakes", None).await;
    assert_eq!(board.status, 200, "{}", board.json);
    assert_eq!(board.json["players"], json!([]), "one game: provisional ratings, off the board");
    // As if each had played enough players to be established.
    s.db.execute("UPDATE ratings SET deviation = deviation / 3, opponents = 3").await;
    let board = s.get("/v1/leaderboards/snakes", None).await;
    let rows = board.json["players"].as_array().unwrap().clone();
    assert_eq!(rows.len(), 3, "{}", board.json);
    let ratings: Vec<f64> = rows.iter().map(|r| r["rating"].as_f64().unwrap()).collect();
    assert!(ratings.windows(2).all(|w| w[0] >= w[1]), "best first: {ratings:?}");
    assert!(ratings[0] > 1500.0 && ratings[2] < 1500.0, "{ratings:?}");
    for r in &rows {
        assert_eq!(r["games"], 1);
        assert!(r["deviation"].as_f64().unwrap() < 110.0);
    }
    assert_eq!(rows.iter().map(|r| r["wins"].as_i64().unwrap()).sum::<i64>(), 1, "one winner");
    if !places.is_empty() {
        let seats = t["seats"].as_array().unwrap();
        let winner = seats[places.iter().position(|&p| p == 1).unwrap()]["player"]["id"].clone();
        assert_eq!(rows[0]["player"]["id"], winner);
    }
    // Pages: one at a time, the same order.
    let first = s.get("/v1/leaderboards/snakes?limit=1", None).await;
    let cursor = first.json["next_cursor"].as_str().unwrap().to_string();
    let second = s.get(&format!("/v1/leaderboards/snakes?limit=1&cursor={cursor}"), None).await;
    assert_eq!(first.json["players"][0], rows[0]);
    assert_eq!(second.json["players"][0], rows[1]);
    // Other games' boards are empty; an unknown game is refused.
    let other: Value = s.get("/v1/leaderboards/backgammon", None).await.json;
    assert_eq!(other["players"], json!([]));
    s.get("/v1/leaderboards/chess", None).await.assert_problem(422, "unknown_game");
}

async fn games_against_bots_rate_nobody(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let t = s.table(&host, json!({"game": "snakes", "seat_count": 2})).await;
    let id = t["id"].as_str().unwrap().to_string();
    s.post(&format!("/v1/tables/{id}/start"), Some(&host), json!({"fill_with_bots": true})).await;
    play_out(&s, &id, &[host.clone(), host.clone()]).await;
    let board = s.get("/v1/leaderboards/snakes", None).await;
    assert_eq!(board.json["players"], json!([]), "one player and a bot: nobody rated");
}

async fn profiles_and_histories_show_ratings_places_and_changes(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    play_out(&s, &id, &tokens).await;
    // A private game between the same two, later.
    let (private, others) = seated_table(&s, "snakes", 2, json!({"visibility": "private"})).await;
    play_out(&s, &private, &others).await;
    let me = s.get("/v1/players/me", Some(&tokens[0])).await.json["id"].as_str().unwrap().to_string();
    let profile = s.get(&format!("/v1/players/{me}"), None).await;
    assert_eq!(profile.status, 200, "{}", profile.json);
    assert_eq!(profile.json["name"], "P0");
    assert_eq!(profile.json["games_played"], 1, "P0 of the first table only: {}", profile.json);
    assert_eq!(profile.json["shame"], 0);
    let ratings = profile.json["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 1);
    assert_eq!(ratings[0]["game"], "snakes");
    assert_eq!(ratings[0]["games"], 1);
    assert_eq!(ratings[0]["provisional"], true, "one game against one player");
    let history = s.get(&format!("/v1/players/{me}/games"), None).await;
    assert_eq!(history.status, 200, "{}", history.json);
    let games = history.json["games"].as_array().unwrap();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g["table_id"], id.as_str());
    assert_eq!(g["rating_before"], 1500.0);
    let won = g["place"] == 1;
    assert_eq!(profile.json["games_won"], won as i64);
    let change = g["rating_change"].as_f64().unwrap();
    assert!(if won { change > 0.0 } else { change < 0.0 }, "{g}");
    // The second table's players: its host sees the private game, a stranger does not.
    let host = s.get("/v1/players/me", Some(&others[0])).await.json["id"].as_str().unwrap().to_string();
    let path = format!("/v1/players/{host}/games");
    assert_eq!(s.get(&path, Some(&others[0])).await.json["games"].as_array().unwrap().len(), 1);
    assert_eq!(s.get(&path, None).await.json["games"], json!([]));
    // Unknown players.
    s.get(&format!("/v1/players/{}", uuid::Uuid::new_v4()), None).await.assert_problem(404, "not_found");
    s.get(&format!("/v1/players/{}/games", uuid::Uuid::new_v4()), None)
        .await
        .assert_problem(404, "not_found");
    s.get("/v1/players/nope", None).await.assert_problem(404, "not_found");
}

/// Signs up `names`; returns their (id, token)s.
async fn players(s: &TestServer, names: &[&str]) -> Vec<(String, String)> {
    let mut out = vec![];
    for name in names {
        out.push(s.player(name).await);
    }
    out
}

/// A started two-seat table of `game`, `host` at seat 0 and `guest` at seat 1.
async fn table_of_two(s: &TestServer, game: &str, host: &str, guest: &str, extra: Value) -> String {
    let mut body = json!({"game": game, "seat_count": 2});
    body.as_object_mut().unwrap().extend(extra.as_object().cloned().unwrap_or_default());
    let t = s.table(host, body).await;
    let id = t["id"].as_str().unwrap().to_string();
    let mut join = json!({"seat": 1});
    if let Some(code) = t["invite_code"].as_str() {
        join["invite_code"] = json!(code);
    }
    let r = s.post(&format!("/v1/tables/{id}/join"), Some(guest), join).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let r = s.post(&format!("/v1/tables/{id}/start"), Some(host), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    id
}

/// Plays a backgammon money game (tokens by seat) until each seat has made `decisions` of its
/// own, then `doubler` doubles at its next turn; returns the `seq` at which the other seat's
/// `drop` is listed (posting it ends the game).
async fn play_to_a_pending_drop(
    s: &TestServer,
    id: &str,
    tokens: &[String; 2],
    doubler: usize,
    decisions: usize,
) -> i64 {
    let mut made = [0; 2];
    for _ in 0..2_000 {
        let seat = s.table_view(id, Some(&tokens[0])).await["play"]["to_act"].as_u64().unwrap() as usize;
        let view = s.table_view(id, Some(&tokens[seat])).await;
        let seq = view["play"]["seq"].as_i64().unwrap();
        let legal = view["play"]["legal_actions"].as_array().unwrap().clone();
        let has = |kind: &str| legal.iter().any(|a| a["type"] == kind);
        if has("drop") {
            return seq;
        }
        let action = if seat == doubler && made.iter().all(|&n| n >= decisions) && has("double") {
            json!({"type": "double"})
        } else {
            legal
                .iter()
                .find(|a| a["type"] == "roll" || a["type"] == "play")
                .cloned()
                .expect("a roll or a play")
        };
        let r = s.act(id, &tokens[seat], &action, seq).await;
        match r.status.as_u16() {
            200 => made[seat] += 1,
            409 if r.json["code"] == "stale_seq" => {}
            _ => panic!("{}", r.json),
        }
    }
    panic!("no drop came up");
}

/// Posts the pending `drop` of `token` at table `id`, at `seq`.
async fn drop_the_double(s: &TestServer, id: &str, token: &str, seq: i64) {
    let r = s.act(id, token, &json!({"type": "drop"}), seq).await;
    assert_eq!(r.status, 200, "{}", r.json);
}

/// A player's rated history in `game` in the order the ratings moved: each row's rating before
/// is the rating after of the row before it, starting from a new player's. Panics on a row
/// that continues no chain (an update lost: two rows rated from the same rating).
fn chain(mut rows: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    let mut chained = vec![];
    let mut at = 1500.0;
    while !rows.is_empty() {
        let next = rows.iter().position(|&(before, _)| before == at);
        let Some(i) = next else {
            panic!("no history row follows the rating {at}: {rows:?} after {chained:?}")
        };
        let row = rows.remove(i);
        chained.push(row);
        at = row.1;
    }
    chained
}

/// Issue #31 item 17: player A's tables, each one drop from its end, all finish at once (the
/// drops posted concurrently), round after round; every finish is its own rating period, in
/// turn: the history chains, and a sequential recomputation gives the stored rating.
async fn finishes_of_one_players_tables_at_once_rate_in_turn(db: Db) {
    use skillratings::{
        Outcomes,
        glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period},
    };
    const TABLES: usize = 6;
    const ROUNDS: usize = 3;
    let s = TestServer::start(db).await;
    let (a, a_token) = s.player("A").await;
    for round in 0..ROUNDS {
        let mut pending = vec![];
        for i in 0..TABLES {
            let (_, b) = s.player(&format!("B{round}-{i}")).await;
            let id = table_of_two(&s, "backgammon", &b, &a_token, json!({})).await;
            let seq = play_to_a_pending_drop(&s, &id, &[b, a_token.clone()], 0, 5).await;
            pending.push((id, seq));
        }
        futures_util::future::join_all(
            pending.iter().map(|(id, seq)| drop_the_double(&s, id, &a_token, *seq)),
        )
        .await;
    }
    let a_id = a.parse().unwrap();
    let history = s.store.history(a_id, true, None, 100).await.unwrap();
    assert_eq!(history.len(), TABLES * ROUNDS);
    let rows = chain(history.iter().map(|t| t.rating.expect("every table rated")).collect());
    // The same games rated one after another: A loses each to a new player.
    let config = Glicko2Config::new();
    let mut me = Glicko2Rating::new();
    for (_, after) in &rows {
        me = glicko2_rating_period(&me, &[(Glicko2Rating::new(), Outcomes::LOSS)], &config);
        assert!((me.rating - after).abs() < 1e-9, "{} recomputed, {after} stored", me.rating);
    }
    let profile = s.store.profile(a_id, true).await.unwrap().unwrap();
    let stored = &profile.ratings[0];
    assert_eq!(stored.games, (TABLES * ROUNDS) as i64);
    assert!((stored.rating - me.rating).abs() < 1e-9 && (stored.deviation - me.deviation).abs() < 1e-9);
}

/// Issue #31 item 20: an up-board at a private table names its player and the table; the hall
/// of shame is public, so it lists only public tables' entries (to everyone, players included).
async fn a_private_tables_shame_stays_off_the_public_hall_of_shame(db: Db) {
    let s = TestServer::start(db).await;
    let mut tables = vec![];
    for visibility in ["public", "private"] {
        let (id, tokens) = seated_table(&s, "uckers", 2, json!({"visibility": visibility})).await;
        let view = s.table_view(&id, Some(&tokens[1])).await;
        let r =
            s.act(&id, &tokens[1], &json!({"type": "up_board"}), view["play"]["seq"].as_i64().unwrap()).await;
        assert_eq!(r.status, 200, "{}", r.json);
        let me = s.get("/v1/players/me", Some(&tokens[1])).await.json["id"].as_str().unwrap().to_string();
        tables.push((id, me, tokens));
    }
    let (public, _, _) = &tables[0];
    let (private, resigned, tokens) = &tables[1];
    for token in [None, Some(tokens[0].as_str()), Some(tokens[1].as_str())] {
        let all = s.get("/v1/hall-of-shame", token).await.json;
        let listed: Vec<&str> =
            all["entries"].as_array().unwrap().iter().map(|e| e["table_id"].as_str().unwrap()).collect();
        assert_eq!(listed, [public.as_str()], "{all}");
        let theirs = s.get(&format!("/v1/hall-of-shame?player={resigned}"), token).await.json;
        assert_eq!(theirs["entries"], json!([]), "{theirs}");
    }
    assert_eq!(s.get(&format!("/v1/tables/{private}"), None).await.status, 404);
    assert_eq!(s.get(&format!("/v1/players/{resigned}"), None).await.json["shame"], 0);
}

/// Issue #31 item 16: a stranger's view of a profile counts the games the player's history
/// shows the stranger (public tables); the player's own view counts the private ones too.
async fn a_profile_counts_for_a_stranger_only_the_games_shown_to_strangers(db: Db) {
    let s = TestServer::start(db).await;
    let ps = players(&s, &["Me", "You"]).await;
    let (me, my_token) = &ps[0];
    let (_, your_token) = &ps[1];
    for visibility in ["public", "private", "private"] {
        let id = table_of_two(&s, "snakes", my_token, your_token, json!({"visibility": visibility})).await;
        play_out(&s, &id, &[my_token.clone(), your_token.clone()]).await;
    }
    let path = format!("/v1/players/{me}");
    for (token, played) in [(None, 1), (Some(your_token.as_str()), 1), (Some(my_token.as_str()), 3)] {
        let profile = s.get(&path, token).await.json;
        let games = s.get(&format!("{path}/games"), token).await.json["games"].as_array().unwrap().clone();
        assert_eq!(games.len(), played);
        assert_eq!(profile["games_played"], played, "{profile}");
        let won = games.iter().filter(|g| g["place"] == 1).count();
        assert_eq!(profile["games_won"], won, "{profile}");
    }
}

/// The rating of `player` in `game` (rating, games), if any.
async fn rating_of(s: &TestServer, player: &str, game: &str) -> Option<(f64, i64)> {
    let profile = s.get(&format!("/v1/players/{player}"), None).await.json;
    profile["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["game"] == game)
        .map(|r| (r["rating"].as_f64().unwrap(), r["games"].as_i64().unwrap()))
}

/// Issue #31 item 15: a second account that drops every double of the first, twelve quick
/// games in a row, no longer lifts the first up the leaderboard: games too short to tell
/// anything rate nobody, and the same two players playing on soon stop counting.
async fn farming_a_second_account_neither_climbs_nor_reaches_the_leaderboard(db: Db) {
    let s = TestServer::start(db).await;
    let ps = players(&s, &["Farmer", "Dropper"]).await;
    let (farmer, farmer_token) = &ps[0];
    let (_, dropper_token) = &ps[1];
    let tokens = [farmer_token.clone(), dropper_token.clone()];
    // The farm of the issue: the dropper drops the first double, offered at once.
    for _ in 0..12 {
        let id = table_of_two(&s, "backgammon", farmer_token, dropper_token, json!({})).await;
        let seq = play_to_a_pending_drop(&s, &id, &tokens, 0, 0).await;
        drop_the_double(&s, &id, dropper_token, seq).await;
        assert_eq!(s.table_view(&id, None).await["status"], "finished");
    }
    assert_eq!(rating_of(&s, farmer, "backgammon").await, None, "games too short rate nobody");
    // A patient farm: a few turns each before the double.
    for _ in 0..12 {
        let id = table_of_two(&s, "backgammon", farmer_token, dropper_token, json!({})).await;
        let seq = play_to_a_pending_drop(&s, &id, &tokens, 0, 5).await;
        drop_the_double(&s, &id, dropper_token, seq).await;
    }
    let (rating, games) = rating_of(&s, farmer, "backgammon").await.expect("rated");
    assert_eq!(games, 3, "the same two players count three tables a day");
    assert!(rating < 1800.0, "{rating}");
    let board = s.get("/v1/leaderboards/backgammon", None).await.json;
    assert_eq!(board["players"], json!([]), "provisional ratings stay off the leaderboard: {board}");
}

/// Issue #31 item 15: private tables (whose players were invited, and which may play house
/// rules) are never rated.
async fn private_tables_are_unrated(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({"visibility": "private"})).await;
    play_out(&s, &id, &tokens).await;
    let me = s.get("/v1/players/me", Some(&tokens[0])).await.json["id"].as_str().unwrap().to_string();
    assert_eq!(rating_of(&s, &me, "snakes").await, None);
    let games = s.get(&format!("/v1/players/{me}/games"), Some(&tokens[0])).await.json;
    assert_eq!(games["games"].as_array().unwrap().len(), 1);
    assert!(games["games"][0].get("rating_before").is_none(), "{games}");
}
