//! The long clock of private tables (`long_clock`; WCAG 2.2.1, "Timing adjustable") over real
//! HTTP and WebSocket on tokio's paused time, against SQLite and PostgreSQL: every limit of the
//! table ten times the server's (the turn clock, party or not, and the away rule), refused at
//! public tables, kept by a restart and by a rematch.
//!
//! Like tests/clocks.rs, each test sets its table up in real time, then stops the clock
//! (`manual_time`) and moves it on by hand (`advance`).

mod common;

use common::{
    Db, TestServer, advance, clock_config, entries_upto, manual_time, play_out, quiet_dice, seated_table,
};
use reqwest::Method;
use serde_json::{Value, json};

both_stores!(
    a_long_clock_gives_each_decision_ten_times_the_turn_clock,
    a_long_clock_hands_an_away_seat_to_a_bot_only_after_ten_times_the_away_limit,
    a_public_table_cannot_have_a_long_clock,
    a_long_clock_table_cannot_be_made_public,
    a_long_clock_survives_a_restart,
    a_rematch_of_a_long_clock_table_keeps_it,
);

/// A started private 2-seat Luddo table with a long clock: seat 0 its host, seat 1 a bot;
/// seat 0 to roll. Returns its id and the host's token.
async fn long_clock_table_against_a_bot(s: &TestServer) -> (String, String) {
    let (_, token) = s.player("Reader").await;
    let body = json!({"game": "luddo", "seat_count": 2, "visibility": "private", "long_clock": true,
        "dice": quiet_dice()});
    let t = s.table(&token, body).await;
    let id = t["id"].as_str().unwrap().to_string();
    let r = s.post(&format!("/v1/tables/{id}/start"), Some(&token), json!({"fill_with_bots": true})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    assert_eq!((r.json["long_clock"].as_bool(), r.json["turn_seconds"].as_f64()), (Some(true), Some(150.0)));
    assert_eq!(r.json["play"]["to_act"], 0);
    (id, token)
}

async fn seat0(s: &TestServer, id: &str, token: &str) -> Value {
    s.table_view(id, Some(token)).await["play"]["presence"][0].clone()
}

fn at(entry: &Value, field: &str) -> chrono::DateTime<chrono::FixedOffset> {
    chrono::DateTime::parse_from_rfc3339(entry[field].as_str().unwrap()).unwrap()
}

/// The time an entry gave the seat to act next.
fn clock_of(entry: &Value) -> chrono::Duration {
    at(entry, "deadline") - at(entry, "at")
}

async fn a_long_clock_gives_each_decision_ten_times_the_turn_clock(db: Db) {
    let s = TestServer::start_with(db, clock_config(3600)).await;
    // Each table's view says its clock: the server's, ten times it, ten times the party one.
    let (_, host) = s.player("Host").await;
    for (settings, seconds) in [
        (json!({}), 15.0),
        (json!({"long_clock": false}), 15.0),
        (json!({"long_clock": true}), 150.0),
        (json!({"long_clock": true, "party": true}), 300.0),
    ] {
        let mut body = json!({"game": "luddo", "seat_count": 2, "visibility": "private"});
        body.as_object_mut().unwrap().extend(settings.as_object().cloned().unwrap());
        let t = s.table(&host, body).await;
        assert_eq!(t["turn_seconds"], seconds, "{settings}");
        assert_eq!(t["long_clock"], settings["long_clock"] == true, "{settings}");
    }

    let (id, token) = long_clock_table_against_a_bot(&s).await;
    let mut ws = s.ws(&id, &format!("token={token}")).await;
    let view = s.table_view(&id, Some(&token)).await;
    let seq = view["play"]["seq"].as_i64().unwrap();
    let last = entries_upto(&mut ws, 1, seq).await.pop().unwrap();
    assert_eq!(clock_of(&last), chrono::Duration::seconds(150), "the first turn is ten times 15 s");
    // A socket left unread for a minute is closed as idle: this one is opened again after.
    ws.close().await;
    let _time = manual_time();
    advance(149).await;
    assert_eq!(s.table_view(&id, Some(&token)).await["play"]["seq"], seq, "149 s are not yet the clock");
    let mut ws = s.ws(&id, &format!("token={token}&since={seq}")).await;
    advance(1).await;
    let timeout = ws.next_entry().await.unwrap();
    assert_eq!((timeout["seq"].as_i64(), timeout["actor"].as_str()), (Some(seq + 1), Some("timeout")));
    assert_eq!(timeout["seat"], 0);
    // The bot plays at once; seat 0's clock runs again, as long.
    let bot = ws.next_entry().await.unwrap();
    assert_eq!((bot["actor"].as_str(), bot["to_act"].as_u64()), (Some("bot"), Some(0)));
    assert_eq!(clock_of(&bot), chrono::Duration::seconds(150));
    assert_eq!(seat0(&s, &id, &token).await["controller"], "human", "one timeout is one timeout");
}

async fn a_long_clock_hands_an_away_seat_to_a_bot_only_after_ten_times_the_away_limit(db: Db) {
    // 20 s away on this server: 200 s at a long-clock table, whose turns last 150 s. The host
    // never connects: away from the start.
    let s = TestServer::start_with(db, clock_config(20)).await;
    let (id, token) = long_clock_table_against_a_bot(&s).await;
    let _time = manual_time();
    advance(150).await;
    let seat = seat0(&s, &id, &token).await;
    assert_eq!((seat["connected"].as_bool(), seat["timeouts"].as_u64()), (Some(false), Some(1)));
    assert_eq!(
        seat["controller"], "human",
        "150 s away, over seven times the server's limit, is not yet ten"
    );
    advance(150).await;
    let seat = seat0(&s, &id, &token).await;
    assert_eq!((seat["controller"].as_str(), seat["timeouts"].as_u64()), (Some("bot"), Some(2)));
    let sql = format!("SELECT action FROM actions WHERE table_id = '{id}' AND action LIKE '%takeover%'");
    let takeover: Value = serde_json::from_str(&s.db.text(&sql).await.unwrap()).unwrap();
    assert_eq!(takeover, json!({"type": "takeover", "seat": 0, "reason": "away"}));
}

async fn a_public_table_cannot_have_a_long_clock(db: Db) {
    let s = TestServer::start(db).await;
    let (_, token) = s.player("Host").await;
    for visibility in [json!({"visibility": "public"}), json!({})] {
        let mut body = json!({"game": "luddo", "seat_count": 2, "long_clock": true});
        body.as_object_mut().unwrap().extend(visibility.as_object().cloned().unwrap());
        let r = s.post("/v1/tables", Some(&token), body).await;
        r.assert_problem(422, "long_clock_private_only");
        assert!(r.json["detail"].as_str().unwrap().contains("private"), "{}", r.json);
    }
    let lobby = s.get("/v1/tables", None).await;
    assert_eq!(lobby.json["tables"], json!([]), "nothing was created");
    // Quick play opens public tables: it has no long clock to ask for.
    let r = s
        .post("/v1/quick-play", Some(&token), json!({"game": "luddo", "seats": 2, "long_clock": true}))
        .await;
    r.assert_problem(422, "invalid_body");
}

async fn a_long_clock_table_cannot_be_made_public(db: Db) {
    let s = TestServer::start(db).await;
    let (_, token) = s.player("Host").await;
    let t = s
        .table(&token, json!({"game": "luddo", "seat_count": 2, "visibility": "private", "long_clock": true}))
        .await;
    let path = format!("/v1/tables/{}", t["id"].as_str().unwrap());
    let patch = |body: Value| s.call(Method::PATCH, &path, Some(&token), Some(body));

    patch(json!({"visibility": "public"})).await.assert_problem(422, "long_clock_private_only");
    let unchanged = s.get(&path, Some(&token)).await.json;
    assert_eq!(unchanged, t, "a refused change changes nothing");

    // Both at once: public, with the server's clock.
    let r = patch(json!({"visibility": "public", "long_clock": false})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    assert_eq!(
        (r.json["visibility"].as_str(), r.json["long_clock"].as_bool()),
        (Some("public"), Some(false))
    );
    assert_eq!(r.json["turn_seconds"], 15.0);
    // A public table cannot be given one either.
    patch(json!({"long_clock": true})).await.assert_problem(422, "long_clock_private_only");
    let r = patch(json!({"visibility": "private", "long_clock": true, "party": true})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    assert_eq!((r.json["long_clock"].as_bool(), r.json["turn_seconds"].as_f64()), (Some(true), Some(300.0)));

    // The open table's log tells its sockets of each change.
    let sql = format!(
        "SELECT action FROM actions WHERE table_id = '{}' AND action LIKE '%settings_changed%' ORDER BY seq DESC",
        t["id"].as_str().unwrap()
    );
    let changed: Value = serde_json::from_str(&s.db.text(&sql).await.unwrap()).unwrap();
    assert_eq!((changed["long_clock"].as_bool(), changed["party"].as_bool()), (Some(true), Some(true)));
}

async fn a_long_clock_survives_a_restart(db: Db) {
    let s = TestServer::start_with(db, clock_config(3600)).await;
    let (id, token) = long_clock_table_against_a_bot(&s).await;
    let before = s.table_view(&id, Some(&token)).await;
    let _time = manual_time();
    advance(100).await;

    // Drop every actor and the server; build a new one on the same database and clock.
    let (clock, config) = (s.clock, s.config.clone());
    let s = TestServer::start_on_with_clock(s.stop().await, config, clock).await;
    let after = s.table_view(&id, Some(&token)).await;
    assert_eq!((after["long_clock"].as_bool(), after["turn_seconds"].as_f64()), (Some(true), Some(150.0)));
    assert_eq!(
        after["play"]["deadline"], before["play"]["deadline"],
        "the clock keeps the time that was left"
    );
    let seq = after["play"]["seq"].as_i64().unwrap();
    let mut ws = s.ws(&id, &format!("token={token}&since={seq}")).await;
    advance(50).await;
    assert_eq!(ws.next_entry().await.unwrap()["actor"], "timeout");
    // The turn the reloaded table gives is a long one too.
    let bot = ws.next_entry().await.unwrap();
    assert_eq!(bot["actor"], "bot");
    assert_eq!(clock_of(&bot), chrono::Duration::seconds(150));
}

async fn a_rematch_of_a_long_clock_table_keeps_it(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) =
        seated_table(&s, "snakes", 2, json!({"visibility": "private", "long_clock": true})).await;
    play_out(&s, &id, &tokens).await;
    let path = format!("/v1/tables/{id}/rematch");
    assert_eq!(s.post(&path, Some(&tokens[1]), json!({})).await.status, 200);
    let r = s.post(&path, Some(&tokens[0]), json!({})).await;
    assert_eq!(r.status, 201, "{}", r.json);
    let rematch = s.table_view(r.json["table_id"].as_str().unwrap(), Some(&tokens[0])).await;
    assert_eq!(
        (rematch["visibility"].as_str(), rematch["long_clock"].as_bool()),
        (Some("private"), Some(true))
    );
    assert_eq!(rematch["turn_seconds"], 150.0);
    let deadline = at(&rematch["play"], "deadline");
    let left = deadline - chrono::Utc::now().fixed_offset();
    assert!(left > chrono::Duration::seconds(100), "the rematch's clock runs as long: {left}");
}
