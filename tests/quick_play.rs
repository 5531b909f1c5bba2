//! Quick play over real HTTP, against SQLite and PostgreSQL (and two processes on one
//! PostgreSQL): `POST /v1/quick-play` seats a player at the oldest waiting table that fits or
//! opens one; a full table starts by itself; bots fill it after the wait asked for.

mod common;

use common::{Db, TestServer, test_config};
use luddo::config::Config;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::time::Duration;

both_stores!(
    quick_play_seats_players_at_the_oldest_table_that_fits_and_starts_it_when_full,
    concurrent_quick_plays_never_share_a_seat_nor_split_a_table,
    bots_fill_a_quick_play_table_after_its_wait,
    bad_quick_play_requests_are_refused,
    a_full_quick_play_table_left_unstarted_starts,
    quick_plays_racing_a_hosts_start_all_get_a_seat,
    the_wait_for_bots_is_part_of_the_kind_of_table_and_shown_with_its_deadline,
    quick_play_counts_against_the_players_table_rate_from_any_address,
);

#[cfg_attr(not(postgres_tests), ignore = "needs PostgreSQL: set TEST_DATABASE_URL")]
#[tokio::test]
async fn quick_plays_on_two_processes_never_share_a_seat_nor_split_a_table() {
    let a = TestServer::start(Db::Postgres).await;
    let b = TestServer::start_on(a.db.shared(), Config { instance_id: "b".into(), ..test_config() }).await;
    let servers = [&a, &b];
    let mut players = vec![];
    for i in 0..16 {
        players.push((i % 2, servers[i % 2].player(&format!("P{i}")).await.1));
    }
    let plays =
        players.iter().map(|(s, token)| servers[*s].post("/v1/quick-play", Some(token), luddo_for_4()));
    let answers: Vec<Value> =
        futures_util::future::join_all(plays).await.into_iter().map(|r| r.json).collect();
    check_four_full_tables(&a, &answers).await;
}

fn luddo_for_4() -> Value {
    json!({"game": "luddo", "seats": 4})
}

/// Every request's table, read again once all are done: 16 players at 4 tables, each full and
/// started, no seat held twice.
async fn check_four_full_tables(s: &TestServer, answers: &[Value]) {
    let ids: HashSet<String> =
        answers.iter().map(|a| a["id"].as_str().expect("a table").to_string()).collect();
    assert_eq!(ids.len(), 4, "16 players make 4 tables: {ids:?}");
    let mut seen = HashMap::new();
    for id in &ids {
        let t = s.table_view(id, None).await;
        assert_eq!(t["status"], "playing", "{t}");
        for seat in t["seats"].as_array().unwrap() {
            assert_eq!(seat["controller"], "human");
            let player = seat["player"]["id"].as_str().unwrap().to_string();
            assert!(seen.insert(player, id.clone()).is_none(), "one seat per player");
        }
    }
    assert_eq!(seen.len(), 16);
}

async fn quick_play_seats_players_at_the_oldest_table_that_fits_and_starts_it_when_full(db: Db) {
    let s = TestServer::start(db).await;
    let mut tokens = vec![];
    for i in 0..5 {
        tokens.push(s.player(&format!("P{i}")).await.1);
    }
    let first = s.post("/v1/quick-play", Some(&tokens[0]), luddo_for_4()).await;
    assert_eq!(first.status, 201, "{}", first.json);
    let id = first.json["id"].as_str().unwrap().to_string();
    assert_eq!(first.json["status"], "open");
    assert_eq!(first.json["visibility"], "public");
    // Asking again: the same table and seat.
    let again = s.post("/v1/quick-play", Some(&tokens[0]), luddo_for_4()).await;
    assert_eq!(again.status, 200);
    assert_eq!(again.json["id"].as_str(), Some(id.as_str()));
    // Another kind of table (other options, seat count or game) is another table.
    for other in [
        json!({"game": "luddo", "seats": 4, "party": true}),
        json!({"game": "luddo", "seats": 3}),
        json!({"game": "ludo", "seats": 4}),
    ] {
        let r = s.post("/v1/quick-play", Some(&tokens[4]), other.clone()).await;
        assert_ne!(r.json["id"].as_str(), Some(id.as_str()), "{other}");
    }
    // A table a host opened by hand is not a quick-play table.
    s.table(&tokens[4], json!({"game": "luddo", "seat_count": 4})).await;
    for (i, token) in tokens.iter().enumerate().skip(1).take(3) {
        let r = s.post("/v1/quick-play", Some(token), luddo_for_4()).await;
        assert_eq!(r.status, 200, "{}", r.json);
        assert_eq!(r.json["id"].as_str(), Some(id.as_str()));
        let me = r.json["seats"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|seat| seat["player"]["id"].is_string())
            .count();
        assert_eq!(me, i + 1);
        // The last seat taken starts the game at once: its answer shows the game in play.
        assert_eq!(r.json["status"], if i == 3 { "playing" } else { "open" }, "{}", r.json);
    }
    let t = s.table_view(&id, Some(&tokens[3])).await;
    assert!(t["play"]["state"].is_object());
    // A fifth player starts a new table.
    let (_, late) = s.player("Late").await;
    let r = s.post("/v1/quick-play", Some(&late), luddo_for_4()).await;
    assert_eq!(r.status, 201);
}

async fn concurrent_quick_plays_never_share_a_seat_nor_split_a_table(db: Db) {
    let s = TestServer::start(db).await;
    let mut tokens = vec![];
    for i in 0..16 {
        tokens.push(s.player(&format!("P{i}")).await.1);
    }
    let plays = tokens.iter().map(|token| s.post("/v1/quick-play", Some(token), luddo_for_4()));
    let answers: Vec<Value> =
        futures_util::future::join_all(plays).await.into_iter().map(|r| r.json).collect();
    check_four_full_tables(&s, &answers).await;
}

async fn bots_fill_a_quick_play_table_after_its_wait(db: Db) {
    let s = TestServer::start(db).await;
    let (_, token) = s.player("Alone").await;
    let body = json!({"game": "snakes", "seats": 3, "bots_after_seconds": 1});
    let r = s.post("/v1/quick-play", Some(&token), body).await;
    assert_eq!(r.status, 201, "{}", r.json);
    let id = r.json["id"].as_str().unwrap().to_string();
    let mut t = Value::Null;
    for _ in 0..100 {
        t = s.table_view(&id, Some(&token)).await;
        if t["status"] == "playing" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(t["status"], "playing", "bots took the empty seats and the table started: {t}");
    let controllers: Vec<&str> =
        t["seats"].as_array().unwrap().iter().map(|s| s["controller"].as_str().unwrap()).collect();
    assert_eq!(controllers, ["human", "bot", "bot"]);
}

async fn bad_quick_play_requests_are_refused(db: Db) {
    let s = TestServer::start(db).await;
    let (_, token) = s.player("P").await;
    let post = |body: Value| s.post("/v1/quick-play", Some(&token), body);
    s.post("/v1/quick-play", None, luddo_for_4()).await.assert_problem(401, "unauthorized");
    post(json!({"game": "chess", "seats": 2})).await.assert_problem(422, "unknown_game");
    post(json!({"game": "backgammon", "seats": 3})).await.assert_problem(422, "invalid_seat_count");
    post(json!({"game": "luddo", "seats": 4, "options": {"home_bonus": false}}))
        .await
        .assert_problem(422, "invalid_options");
    post(json!({"game": "luddo", "seats": 4, "bots_after_seconds": 3601}))
        .await
        .assert_problem(422, "invalid_body");
    post(json!({"game": "luddo", "seats": 4, "bots_after_seconds": -1}))
        .await
        .assert_problem(422, "invalid_body");
    post(json!({"game": "luddo"})).await.assert_problem(422, "invalid_body");
    post(json!({"game": "luddo", "seats": 4, "seat": 1})).await.assert_problem(422, "invalid_body");
}

/// A full quick-play table that was not started (its process stopped between the last seat and
/// the start) is started by the servers' upkeep.
async fn a_full_quick_play_table_left_unstarted_starts(db: Db) {
    let s = TestServer::start(db).await;
    let mut tokens = vec![];
    for i in 0..2 {
        tokens.push(s.player(&format!("P{i}")).await.1);
    }
    let body = json!({"game": "snakes", "seats": 2});
    let r = s.post("/v1/quick-play", Some(&tokens[0]), body.clone()).await;
    let id = r.json["id"].as_str().unwrap().to_string();
    // The second player joins by hand (a join does not start a table), as if a quick play had
    // taken the seat and its process had died before the start.
    let r = s.post(&format!("/v1/tables/{id}/join"), Some(&tokens[1]), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let mut t = Value::Null;
    for _ in 0..100 {
        t = s.table_view(&id, None).await;
        if t["status"] == "playing" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(t["status"], "playing", "{t}");
}

/// The host may start a quick-play table early while others ask for a seat at it: each request
/// gets a seat, at that table before the start or at another after it; none fails.
async fn quick_plays_racing_a_hosts_start_all_get_a_seat(db: Db) {
    let s = TestServer::start(db).await;
    for round in 0..3 {
        let (_, host) = s.player(&format!("Host{round}")).await;
        // A kind of its own each round: the host opens the table.
        let body = json!({"game": "luddo", "seats": 6 - round});
        let r = s.post("/v1/quick-play", Some(&host), body.clone()).await;
        assert_eq!(r.status, 201, "{}", r.json);
        let id = r.json["id"].as_str().unwrap().to_string();
        let mut tokens = vec![];
        for i in 0..6 {
            tokens.push(s.player(&format!("R{round}P{i}")).await.1);
        }
        let path = format!("/v1/tables/{id}/start");
        let start = s.post(&path, Some(&host), json!({"fill_with_bots": true}));
        let plays = futures_util::future::join_all(
            tokens.iter().map(|t| s.post("/v1/quick-play", Some(t), body.clone())),
        );
        let (started, answers) = tokio::join!(start, plays);
        assert_eq!(started.status, 200, "{}", started.json);
        for a in answers {
            assert!(a.status == 200 || a.status == 201, "{}", a.json);
        }
    }
}

/// The wait before bots fill a table is part of its kind: a request without one never lands at
/// a table that will get bots, one with a wait never at a table that waits for players, nor at
/// one with another wait; the table shows when its bots come while it waits.
async fn the_wait_for_bots_is_part_of_the_kind_of_table_and_shown_with_its_deadline(db: Db) {
    let s = TestServer::start(db).await;
    let mut tokens = vec![];
    for i in 0..5 {
        tokens.push(s.player(&format!("P{i}")).await.1);
    }
    let with_bots = |wait: u64| json!({"game": "luddo", "seats": 4, "bots_after_seconds": wait});
    let r = s.post("/v1/quick-play", Some(&tokens[0]), with_bots(600)).await;
    assert_eq!(r.status, 201, "{}", r.json);
    let bots_table = r.json["id"].as_str().unwrap().to_string();
    let created = chrono::DateTime::parse_from_rfc3339(r.json["created_at"].as_str().unwrap()).unwrap();
    let bots_at = chrono::DateTime::parse_from_rfc3339(r.json["bots_at"].as_str().expect("bots_at")).unwrap();
    let wait = (bots_at - created).num_milliseconds();
    assert!((599_000..=601_000).contains(&wait), "bots come 600 s after the opening: {}", r.json);

    let r = s.post("/v1/quick-play", Some(&tokens[1]), luddo_for_4()).await;
    assert_eq!(r.status, 201, "asked for no bots: a table of its own, {}", r.json);
    let players_table = r.json["id"].as_str().unwrap().to_string();
    assert!(r.json.get("bots_at").is_none(), "{}", r.json);

    let r = s.post("/v1/quick-play", Some(&tokens[2]), with_bots(600)).await;
    assert_eq!((r.status.as_u16(), r.json["id"].as_str()), (200, Some(bots_table.as_str())), "{}", r.json);
    assert_eq!(
        r.json["bots_at"].as_str(),
        Some(bots_at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true).as_str())
    );
    let r = s.post("/v1/quick-play", Some(&tokens[3]), luddo_for_4()).await;
    assert_eq!((r.status.as_u16(), r.json["id"].as_str()), (200, Some(players_table.as_str())), "{}", r.json);
    let r = s.post("/v1/quick-play", Some(&tokens[4]), with_bots(30)).await;
    assert_eq!(r.status, 201, "another wait is another kind: {}", r.json);
    assert_ne!(r.json["id"].as_str(), Some(bots_table.as_str()));
    let listed = s.get("/v1/tables", None).await;
    let bots_of = |id: &str| {
        listed.json["tables"].as_array().unwrap().iter().find(|t| t["id"] == id).map(|t| t["bots_at"].clone())
    };
    assert!(bots_of(&bots_table).is_some_and(|b| b.is_string()), "the lobby shows it too");
    assert_eq!(bots_of(&players_table), Some(Value::Null));
}

/// Quick play spends the player's table budget (`LUDDO_RATE_PER_MINUTE`) as a creation does,
/// whatever address each request comes from: a player cannot open more tables a minute by
/// asking through many addresses.
async fn quick_play_counts_against_the_players_table_rate_from_any_address(db: Db) {
    let config =
        Config { rate_per_minute: 5, trusted_proxies: vec!["127.0.0.0/8".parse().unwrap()], ..test_config() };
    let s = TestServer::start_with(db, config).await;
    let (_, token) = s.player("Many").await;
    let mut statuses = vec![];
    for seats in 2..=5 {
        for party in [false, true] {
            // A kind of its own each time, from an address of its own: each would open a table.
            let r = s
                .client
                .post(format!("{}/v1/quick-play", s.base))
                .bearer_auth(&token)
                .header("x-forwarded-for", format!("203.0.113.{}", statuses.len() + 1))
                .json(&json!({"game": "luddo", "seats": seats, "party": party}))
                .send()
                .await
                .unwrap();
            statuses.push(r.status().as_u16());
        }
    }
    assert_eq!(statuses, [201, 201, 201, 201, 201, 429, 429, 429], "five tables a minute");
}
