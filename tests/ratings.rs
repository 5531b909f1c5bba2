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
    let rows = board.json["players"].as_array().unwrap().clone();
    assert_eq!(rows.len(), 3, "{}", board.json);
    let ratings: Vec<f64> = rows.iter().map(|r| r["rating"].as_f64().unwrap()).collect();
    assert!(ratings.windows(2).all(|w| w[0] >= w[1]), "best first: {ratings:?}");
    assert!(ratings[0] > 1500.0 && ratings[2] < 1500.0, "{ratings:?}");
    for r in &rows {
        assert_eq!(r["games"], 1);
        assert!(r["deviation"].as_f64().unwrap() < 350.0);
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
