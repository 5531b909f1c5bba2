//! Ratings over real HTTP, against SQLite and PostgreSQL: a finish moves its players' Glicko-2
//! ratings in the same transaction, bots are never rated, and `GET /v1/leaderboards/{game}`
//! lists them best first.

mod common;

use common::{Db, TestServer, seated_table};
use serde_json::{Value, json};

both_stores!(a_finish_rates_its_players_and_the_leaderboard_lists_them, games_against_bots_rate_nobody);

/// Plays a started table to its end, each seat by its player's first legal action.
async fn play_to_the_end(s: &TestServer, id: &str, tokens: &[String]) {
    for _ in 0..5_000 {
        let view = s.table_view(id, Some(&tokens[0])).await;
        if view["status"] == "finished" {
            return;
        }
        let seat = view["play"]["to_act"].as_u64().unwrap() as usize;
        let mine = s.table_view(id, Some(&tokens[seat])).await;
        if let Some(action) = mine["play"]["legal_actions"].as_array().unwrap().first() {
            let r = s.act(id, &tokens[seat], action, mine["play"]["seq"].as_i64().unwrap()).await;
            assert!(r.status == 200 || r.json["code"] == "stale_seq", "{}", r.json);
        }
    }
    panic!("the game did not end");
}

async fn a_finish_rates_its_players_and_the_leaderboard_lists_them(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 3, json!({})).await;
    play_to_the_end(&s, &id, &tokens).await;
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
    play_to_the_end(&s, &id, &[host.clone(), host.clone()]).await;
    let board = s.get("/v1/leaderboards/snakes", None).await;
    assert_eq!(board.json["players"], json!([]), "one player and a bot: nobody rated");
}
