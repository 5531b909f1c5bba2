//! Game clocks over real HTTP and WebSocket on tokio's paused time, against SQLite and
//! PostgreSQL: timeouts that play for the seat, bot takeover after three timeouts, after
//! stalling or after being away, reclaiming (never after the end), and restarts that keep the
//! clock and the seats' bookkeeping but charge nobody for the time the server was down.
//!
//! Each test sets its table up in real time, then stops the clock (`manual_time`) and moves it
//! on by hand (`advance`): a game clock runs out exactly when the test says so.

mod common;

use common::{Db, TestServer, advance, clock_config, entries_upto, manual_time, quiet_dice, seated_table};
use serde_json::{Value, json};

both_stores!(
    a_timeout_plays_for_the_seat,
    three_timeouts_hand_the_seat_to_a_bot_and_reclaim_takes_it_back,
    one_timeout_after_being_away_hands_the_seat_to_a_bot,
    reconnecting_with_reclaim_takes_the_seat_back,
    a_restart_resumes_the_same_state_and_clock,
    a_reclaim_survives_a_restart,
    timing_out_on_most_recent_decisions_hands_the_seat_to_a_bot,
    a_finished_game_cannot_be_reclaimed,
    a_clock_that_ran_out_while_the_server_was_down_restarts_with_a_full_turn,
);

/// A started 2-seat Luddo table: seat 0 a player, seat 1 a bot; seat 0 to roll.
async fn table_against_a_bot(s: &TestServer) -> (String, String) {
    let (_, token) = s.player("Sleepy").await;
    let t = s.table(&token, json!({"game": "luddo", "seat_count": 2, "dice": quiet_dice()})).await;
    let id = t["id"].as_str().unwrap().to_string();
    let r = s.post(&format!("/v1/tables/{id}/start"), Some(&token), json!({"fill_with_bots": true})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    assert_eq!(r.json["play"]["to_act"], 0);
    (id, token)
}

/// `token`'s seat rolls (on quiet dice a roll passes the turn).
async fn roll(s: &TestServer, id: &str, token: &str) {
    let seq = s.table_view(id, None).await["play"]["seq"].as_i64().unwrap();
    let r = s.act(id, token, &json!({"type": "roll"}), seq).await;
    assert_eq!(r.status, 200, "{}", r.json);
}

async fn seat0(s: &TestServer, id: &str, token: &str) -> Value {
    s.table_view(id, Some(token)).await["play"]["presence"][0].clone()
}

/// What the log decides of a seat (its presence starts afresh with each process).
fn logged(seat: &Value) -> (Value, Value) {
    (seat["controller"].clone(), seat["timeouts"].clone())
}

fn at(entry: &Value, field: &str) -> chrono::DateTime<chrono::FixedOffset> {
    chrono::DateTime::parse_from_rfc3339(entry[field].as_str().unwrap()).unwrap()
}

async fn a_timeout_plays_for_the_seat(db: Db) {
    let s = TestServer::start_with(db, clock_config(45)).await;
    let (id, token) = table_against_a_bot(&s).await;
    let mut ws = s.ws(&id, &format!("token={token}")).await;
    let seq = s.table_view(&id, Some(&token)).await["play"]["seq"].as_i64().unwrap();
    entries_upto(&mut ws, 1, seq).await;
    let _time = manual_time();
    advance(14).await;
    assert_eq!(s.table_view(&id, None).await["play"]["seq"], seq, "the clock has not run out yet");
    advance(1).await;
    let timeout = ws.next_entry().await.unwrap();
    assert_eq!(timeout["seq"], seq + 1);
    assert_eq!(timeout["actor"], "timeout");
    assert_eq!(timeout["seat"], 0);
    assert_eq!(timeout["action"]["type"], "roll");
    // The bot seat plays at once; the clock runs again for seat 0.
    let bot = ws.next_entry().await.unwrap();
    assert_eq!(bot["actor"], "bot");
    assert_eq!(bot["to_act"], 0);
    assert_eq!(at(&bot, "deadline") - at(&bot, "at"), chrono::Duration::seconds(15));
    let seat = seat0(&s, &id, &token).await;
    assert_eq!(seat["timeouts"], 1);
    assert_eq!(seat["controller"], "human");
    assert_eq!(seat["connected"], true);
    // Acting resets the count.
    let r = s.act(&id, &token, &json!({"type": "roll"}), bot["seq"].as_i64().unwrap()).await;
    assert_eq!(r.status, 200, "{}", r.json);
    assert_eq!(seat0(&s, &id, &token).await["timeouts"], 0);
}

async fn three_timeouts_hand_the_seat_to_a_bot_and_reclaim_takes_it_back(db: Db) {
    let s = TestServer::start_with(db, clock_config(45)).await;
    // Seat 1's player rolls when asked: the game waits for a human, and never ends under the
    // test's feet (after the end, a seat cannot be reclaimed).
    let (id, tokens) = seated_table(&s, "luddo", 2, json!({"dice": quiet_dice()})).await;
    let mut ws = s.ws(&id, &format!("token={}", tokens[0])).await;
    let seq = s.table_view(&id, None).await["play"]["seq"].as_i64().unwrap();
    entries_upto(&mut ws, 1, seq).await;
    let _time = manual_time();
    for n in 1..=3 {
        advance(15).await;
        let timeout = ws.next_entry().await.unwrap();
        assert_eq!(
            (timeout["actor"].as_str(), timeout["seat"].as_u64()),
            (Some("timeout"), Some(0)),
            "timeout {n}"
        );
        if n < 3 {
            assert_eq!(seat0(&s, &id, &tokens[0]).await["controller"], "human", "after {n} timeouts");
            roll(&s, &id, &tokens[1]).await;
            assert_eq!(ws.next_entry().await.unwrap()["actor"], "human");
        }
    }
    let takeover = ws.next_entry().await.unwrap();
    assert_eq!(takeover["action"], json!({"type": "takeover", "seat": 0, "reason": "timeouts"}));
    // From now on the bot answers seat 1 at once.
    roll(&s, &id, &tokens[1]).await;
    ws.entry_where(|e| e["actor"] == "bot" && e["seat"] == 0).await;
    assert_eq!(s.table_view(&id, None).await["seats"][0]["controller"], "bot");

    let r = s.post(&format!("/v1/tables/{id}/reclaim"), Some(&tokens[0]), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let reclaim = ws.entry_where(|e| e["action"]["type"] == "reclaim").await;
    assert_eq!(reclaim["seq"], r.json["seq"]);
    let table = s.table_view(&id, Some(&tokens[0])).await;
    assert_eq!(table["seats"][0]["controller"], "human");
    assert_eq!(table["play"]["presence"][0]["controller"], "human");
    assert_eq!(table["play"]["presence"][0]["timeouts"], 0);
}

async fn one_timeout_after_being_away_hands_the_seat_to_a_bot(db: Db) {
    // The player never connects: away from the start. 20 s away, 15 s clocks.
    let s = TestServer::start_with(db, clock_config(20)).await;
    let (id, token) = table_against_a_bot(&s).await;
    let mut spectator = s.ws(&id, "since=0").await;
    let seq = s.table_view(&id, None).await["play"]["seq"].as_i64().unwrap();
    entries_upto(&mut spectator, 1, seq).await;
    let _time = manual_time();
    advance(15).await;
    assert_eq!(spectator.next_entry().await.unwrap()["actor"], "timeout");
    assert_eq!(spectator.next_entry().await.unwrap()["actor"], "bot");
    let seat = seat0(&s, &id, &token).await;
    assert_eq!(seat["controller"], "human", "15 s away is not yet enough");
    assert_eq!(seat["connected"], false);
    assert!(seat["away_since"].is_string());
    advance(15).await;
    assert_eq!(spectator.next_entry().await.unwrap()["actor"], "timeout");
    let takeover = spectator.next_entry().await.unwrap();
    assert_eq!(takeover["action"], json!({"type": "takeover", "seat": 0, "reason": "away"}));
}

async fn reconnecting_with_reclaim_takes_the_seat_back(db: Db) {
    let s = TestServer::start_with(db, clock_config(10)).await;
    let (id, tokens) = seated_table(&s, "luddo", 2, json!({"dice": quiet_dice()})).await;
    let mut other = s.ws(&id, &format!("token={}", tokens[1])).await;
    let seq = s.table_view(&id, None).await["play"]["seq"].as_i64().unwrap();
    entries_upto(&mut other, 1, seq).await;
    let _time = manual_time();
    advance(15).await;
    assert_eq!(other.next_entry().await.unwrap()["actor"], "timeout");
    let takeover = other.next_entry().await.unwrap();
    assert_eq!(takeover["action"], json!({"type": "takeover", "seat": 0, "reason": "away"}));
    let seq = takeover["seq"].as_i64().unwrap();
    // The clock part is over: back to real time to connect (seat 1 has 15 s to play).
    drop(_time);
    tokio::time::resume();
    let mut ws = s.ws(&id, &format!("token={}&reclaim=true&since={seq}", tokens[0])).await;
    let reclaim = ws.next_entry().await.unwrap();
    assert_eq!(reclaim["action"], json!({"type": "reclaim", "seat": 0}));
    let seat = seat0(&s, &id, &tokens[0]).await;
    assert_eq!(seat["controller"], "human");
    assert_eq!(seat["connected"], true);
}

async fn a_restart_resumes_the_same_state_and_clock(db: Db) {
    let s = TestServer::start_with(db, clock_config(45)).await;
    let (id, tokens) = seated_table(&s, "luddo", 2, json!({"dice": quiet_dice()})).await;
    let view = s.table_view(&id, Some(&tokens[0])).await;
    let r = s.act(&id, &tokens[0], &json!({"type": "roll"}), view["play"]["seq"].as_i64().unwrap()).await;
    assert_eq!(r.status, 200);
    let before = s.table_view(&id, Some(&tokens[1])).await;
    assert_eq!(before["play"]["to_act"], 1);
    let deadline = before["play"]["deadline"].as_str().unwrap().to_string();
    let _time = manual_time();
    advance(5).await;

    // Drop every actor and the server; build a new one on the same database and clock.
    let (clock, config) = (s.clock, s.config.clone());
    let db = s.stop().await;
    let s = TestServer::start_on_with_clock(db, config, clock).await;
    let after = s.table_view(&id, Some(&tokens[1])).await;
    assert_eq!(after["play"]["seq"], before["play"]["seq"]);
    assert_eq!(after["play"]["state"], before["play"]["state"]);
    assert_eq!(after["play"]["deadline"], deadline, "the clock keeps the time that was left");

    let seq = after["play"]["seq"].as_i64().unwrap();
    let mut ws = s.ws(&id, &format!("token={}&since={seq}", tokens[1])).await;
    advance(9).await;
    assert_eq!(s.table_view(&id, None).await["play"]["seq"], seq, "10 s were left, not 9");
    advance(1).await;
    let timeout = ws.next_entry().await.unwrap();
    assert_eq!(timeout["seq"], seq + 1);
    assert_eq!(timeout["actor"], "timeout");
    assert_eq!(timeout["seat"], 1);
}

async fn a_reclaim_survives_a_restart(db: Db) {
    // Nobody is ever away long enough to matter here.
    let s = TestServer::start_with(db, clock_config(3600)).await;
    let (id, tokens) = seated_table(&s, "luddo", 2, json!({"dice": quiet_dice()})).await;
    let _time = manual_time();
    for _ in 0..3 {
        advance(15).await;
        roll(&s, &id, &tokens[1]).await;
    }
    assert_eq!(seat0(&s, &id, &tokens[0]).await["controller"], "bot");
    let r = s.post(&format!("/v1/tables/{id}/reclaim"), Some(&tokens[0]), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    roll(&s, &id, &tokens[1]).await;
    let before = seat0(&s, &id, &tokens[0]).await;
    assert_eq!((before["controller"].as_str(), before["timeouts"].as_u64()), (Some("human"), Some(0)));

    let (clock, config) = (s.clock, s.config.clone());
    let s = TestServer::start_on_with_clock(s.stop().await, config, clock).await;
    assert_eq!(logged(&seat0(&s, &id, &tokens[0]).await), logged(&before), "the log rebuilds the seat");
    // One timeout is one timeout, not a fourth in a row.
    advance(15).await;
    let seat = seat0(&s, &id, &tokens[0]).await;
    assert_eq!((seat["controller"].as_str(), seat["timeouts"].as_u64()), (Some("human"), Some(1)));
}

async fn timing_out_on_most_recent_decisions_hands_the_seat_to_a_bot(db: Db) {
    let s = TestServer::start_with(db, clock_config(3600)).await;
    let (id, tokens) = seated_table(&s, "luddo", 2, json!({"dice": quiet_dice()})).await;
    let _time = manual_time();
    // Seat 0 times out, times out, acts, times out: never three in a row.
    for stall in [true, true, false, true] {
        if stall {
            advance(15).await;
        } else {
            roll(&s, &id, &tokens[0]).await;
        }
        roll(&s, &id, &tokens[1]).await;
        assert_eq!(seat0(&s, &id, &tokens[0]).await["controller"], "human");
    }
    // A fourth timeout among its last five decisions is one too many (4 of 6 by default).
    advance(15).await;
    let seat = seat0(&s, &id, &tokens[0]).await;
    assert_eq!((seat["controller"].as_str(), seat["timeouts"].as_u64()), (Some("bot"), Some(2)));
    let sql = format!("SELECT action FROM actions WHERE table_id = '{id}' AND action LIKE '%takeover%'");
    let takeover: Value = serde_json::from_str(&s.db.text(&sql).await.unwrap()).unwrap();
    assert_eq!(takeover, json!({"type": "takeover", "seat": 0, "reason": "stalling"}));

    // The log rebuilds the same seat.
    let (clock, config) = (s.clock, s.config.clone());
    let s = TestServer::start_on_with_clock(s.stop().await, config, clock).await;
    assert_eq!(logged(&seat0(&s, &id, &tokens[0]).await), logged(&seat));
}

async fn a_finished_game_cannot_be_reclaimed(db: Db) {
    // Away from the start: the first timeout hands seat 0 to a bot, and two bots play the game
    // (on fair dice) to its end at once.
    let s = TestServer::start_with(db, clock_config(10)).await;
    let (_, token) = s.player("Sleepy").await;
    let t = s.table(&token, json!({"game": "luddo", "seat_count": 2})).await;
    let id = t["id"].as_str().unwrap().to_string();
    let r = s.post(&format!("/v1/tables/{id}/start"), Some(&token), json!({"fill_with_bots": true})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let mut spectator = s.ws(&id, "since=0").await;
    let time = manual_time();
    advance(15).await;
    drop(time);
    tokio::time::resume();
    let finish = spectator.entry_where(|e| e["action"]["type"] == "finish").await;
    let seq = finish["seq"].as_i64().unwrap();
    assert_eq!(s.table_view(&id, None).await["play"]["presence"][0]["controller"], "bot");

    s.post(&format!("/v1/tables/{id}/reclaim"), Some(&token), json!({}))
        .await
        .assert_problem(409, "game_over");
    let ws = s.ws(&id, &format!("token={token}&reclaim=true&since={seq}")).await;
    // The view is answered after the socket's subscription (and any entry it wrote).
    let view = s.table_view(&id, Some(&token)).await;
    assert_eq!(view["play"]["seq"], seq, "no entry follows finish");
    assert_eq!(view["play"]["presence"][0]["controller"], "bot");
    ws.close().await;
}

async fn a_clock_that_ran_out_while_the_server_was_down_restarts_with_a_full_turn(db: Db) {
    let s = TestServer::start_with(db, clock_config(3600)).await;
    let (id, tokens) = seated_table(&s, "luddo", 2, json!({"dice": quiet_dice()})).await;
    let seq = s.table_view(&id, None).await["play"]["seq"].as_i64().unwrap();
    let _time = manual_time();
    advance(5).await;
    let (clock, config) = (s.clock, s.config.clone());
    let db = s.stop().await;
    // Seat 0 had 10 s left; the server stays down for 20.
    advance(20).await;
    let s = TestServer::start_on_with_clock(db, config, clock).await;
    let mut ws = s.ws(&id, &format!("token={}&since={seq}", tokens[1])).await;
    let view = s.table_view(&id, None).await;
    assert_eq!(view["play"]["seq"], seq, "nothing was played for seat 0 while nobody drove the table");
    advance(14).await;
    assert_eq!(s.table_view(&id, None).await["play"]["seq"], seq, "a full turn, counted from the restart");
    advance(1).await;
    let timeout = ws.next_entry().await.unwrap();
    assert_eq!((timeout["seq"].as_i64(), timeout["actor"].as_str()), (Some(seq + 1), Some("timeout")));
}
