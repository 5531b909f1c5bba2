//! Only the legal actions a table lists are accepted, and what is stored and broadcast is the
//! listed form: no extra fields, no other spelling of the same move. What an entry lists is
//! what its seat can still take: a client posting it is never refused.

mod common;

use common::{Db, TestServer, Ws, seated_table};
use serde_json::{Value, json};

both_stores!(
    a_client_posting_what_entries_list_is_never_refused,
    an_action_with_extra_fields_is_refused_and_nothing_is_stored,
    an_uckers_play_with_the_twin_piece_or_in_another_order_is_stored_as_listed,
    a_backgammon_play_in_another_order_is_stored_as_listed,
);

/// The table's `seq` and the number of its log rows.
async fn log_length(s: &TestServer, id: &str) -> (i64, i64) {
    let view = s.table_view(id, None).await;
    let rows =
        s.db.text(&format!("SELECT CAST(COUNT(*) AS TEXT) FROM actions WHERE table_id = '{id}'")).await;
    (view["play"]["seq"].as_i64().unwrap(), rows.unwrap().parse().unwrap())
}

/// Whether `action` ends the game by giving it up (the client under test plays on instead).
fn gives_up(action: &Value) -> bool {
    matches!(action["type"].as_str(), Some("up_board" | "drop"))
}

/// Every game played to its end by a client that reads entries alone: whenever an entry lists
/// actions for the seat to act, that seat's player posts one with the entry's `seq` (every seat
/// is a player's, and each acts at once, well within its clock). The table has always waited
/// for exactly that: the post is accepted, and the table view shows the same list at that `seq`
/// (an entry the server plays on from at once, with a forced move, lists nothing).
async fn a_client_posting_what_entries_list_is_never_refused(db: Db) {
    let s = TestServer::start(db).await;
    for game in ["luddo", "ludo", "uckers", "snakes", "backgammon"] {
        let (id, tokens) = seated_table(&s, game, 2, json!({})).await;
        let mut ws = s.ws(&id, "since=0").await;
        let (mut posted, mut forced) = (0, 0);
        loop {
            let entry = ws.next_entry().await.expect("the socket stays open until the finish");
            forced += usize::from(entry["actor"] == "forced");
            if entry["actor"] == "server" && entry["action"]["type"] == "finish" {
                break;
            }
            let Some(seat) = entry["to_act"].as_u64().map(|s| s as usize) else { continue };
            let seq = entry["seq"].as_i64().unwrap();
            let listed = entry["legal_actions_by_seat"][seat].as_array().cloned().unwrap_or_default();
            let Some(action) = listed.iter().find(|a| !gives_up(a)) else { continue };
            let view = s.table_view(&id, Some(&tokens[seat])).await;
            assert_eq!(
                (view["play"]["seq"].as_i64(), &view["play"]["legal_actions"]),
                (Some(seq), &json!(listed)),
                "{game}: the table view when entry {seq} listed {listed:?} for seat {seat}"
            );
            let r = s.act(&id, &tokens[seat], action, seq).await;
            assert_eq!(
                r.status, 200,
                "{game}: seat {seat} posted {action} listed by entry {seq}: {}",
                r.json
            );
            posted += 1;
        }
        assert!(posted > 10, "{game}: {posted} actions posted");
        // Their first 6 with every piece in base is a forced move (one distinct choice).
        if ["luddo", "ludo"].contains(&game) {
            assert!(forced > 0, "{game}: no forced move came up: the test proves little");
        }
    }
}

async fn an_action_with_extra_fields_is_refused_and_nothing_is_stored(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "luddo", 2, json!({"dice": [6, 1, 3]})).await;
    let (seq, rows) = log_length(&s, &id).await;
    let mut ws = s.ws(&id, &format!("since={seq}")).await;

    let padded = json!({"type": "roll", "pad": "x".repeat(50_000)});
    let r = s.act(&id, &tokens[0], &padded, seq).await;
    r.assert_problem(422, "illegal_action");
    assert!(r.json["detail"].as_str().unwrap().contains("pad"), "{}", r.json["detail"]);
    let nested = json!({"type": "move", "piece": 0, "extra": {"a": 1}});
    s.act(&id, &tokens[0], &nested, seq).await.assert_problem(422, "illegal_action");
    assert_eq!(log_length(&s, &id).await, (seq, rows), "a refused action stores nothing");

    // Over the socket too (within its 16 kB message limit).
    let mut own = s.ws(&id, &format!("since={seq}&token={}", tokens[0])).await;
    let padded = json!({"type": "roll", "pad": "x".repeat(10_000)});
    own.send(json!({"type": "action", "id": 1, "seq": seq, "action": padded})).await;
    let reply = loop {
        let m = own.next().await.expect("reply");
        if m["type"] == "reply" {
            break m;
        }
    };
    assert_eq!(reply["ok"], false);
    assert_eq!(reply["error"]["code"], "illegal_action");
    assert_eq!(log_length(&s, &id).await, (seq, rows));

    // The plain roll is accepted; watchers receive it as listed.
    let ok = s.act(&id, &tokens[0], &json!({"type": "roll"}), seq).await;
    assert_eq!(ok.status, 200, "{}", ok.json);
    let entry = ws.entry_where(|e| e["seq"] == seq + 1).await;
    assert_eq!(entry["action"], json!({"type": "roll"}));
}

/// The listed actions of the seat `token` holds, and the table's `seq`.
async fn listed_for(s: &TestServer, id: &str, token: &str) -> (Vec<Value>, i64) {
    let view = s.table_view(id, Some(token)).await;
    (view["play"]["legal_actions"].as_array().unwrap().clone(), view["play"]["seq"].as_i64().unwrap())
}

/// Posts `action` at the table's `seq`; it must be accepted. Returns the entry it made.
async fn post_listed(s: &TestServer, ws: &mut Ws, id: &str, token: &str, action: &Value) -> Value {
    let seq = listed_for(s, id, token).await.1;
    let r = s.act(id, token, action, seq).await;
    assert_eq!(r.status, 200, "{action}: {}", r.json);
    ws.entry_where(|e| e["seq"] == seq + 1).await
}

/// docs/rules/uckers.md: a play posted with the other of two interchangeable pieces, or in
/// another step order, is the listed play that leaves the same position with the same
/// challenges standing; it is stored and broadcast as listed. A play with another result is
/// refused.
async fn an_uckers_play_with_the_twin_piece_or_in_another_order_is_stored_as_listed(db: Db) {
    let s = TestServer::start(db).await;
    // Opening 6+6 against 1+1: seat 0 starts and throws 6+6 (two pieces out onto the same
    // start square, and a throw again), then 3+4; the others throw 1+2 (nothing moves) until
    // yellow's 2+5.
    let dice = [6, 6, 1, 1, 6, 6, 3, 4, 1, 2, 1, 2, 1, 2, 2, 5];
    let (id, tokens) = seated_table(&s, "uckers", 2, json!({"dice": dice})).await;
    let mut ws = s.ws(&id, "since=0").await;
    let listed = async |seat: usize| listed_for(&s, &id, &tokens[seat]).await;
    let roll = json!({"type": "roll"});
    let post = async |ws: &mut Ws, seat: usize, action: &Value| {
        post_listed(&s, ws, &id, &tokens[seat], action).await
    };
    // The 6+6 has one play, made at once: both sixes bring a piece out.
    post(&mut ws, 0, &roll).await;
    let out = ws.entry_where(|e| e["actor"] == "forced").await["action"].clone();
    assert_eq!(out["steps"].as_array().map(Vec::len), Some(2), "{out}");
    post(&mut ws, 0, &roll).await;

    let (legal, _) = listed(0).await;
    let [first, second] = [&out["steps"][0]["piece"], &out["steps"][1]["piece"]];
    let listed_total =
        legal.iter().find(|a| a["type"] == "total" && (a["piece"] == *first || a["piece"] == *second));
    let listed_total =
        listed_total.unwrap_or_else(|| panic!("a total of a piece just out in {legal:?}")).clone();
    let twin = if listed_total["piece"] == *first { second } else { first };
    let twins_total = json!({"type": "total", "piece": twin});
    assert!(!legal.contains(&twins_total), "the twin's total is not listed: {legal:?}");
    let (seq, rows) = log_length(&s, &id).await;
    // One die where both can be played: no listed play leaves that position.
    let one_die = json!({"type": "move", "steps": [{"piece": twin, "die": 3}]});
    s.act(&id, &tokens[0], &one_die, seq).await.assert_problem(422, "illegal_action");
    assert_eq!(log_length(&s, &id).await, (seq, rows), "a refused play stores nothing");
    assert_eq!(
        post(&mut ws, 0, &twins_total).await["action"],
        listed_total,
        "stored and broadcast as listed"
    );

    for seat in [1, 0, 1] {
        post(&mut ws, seat, &roll).await;
    }
    let entry = post(&mut ws, 0, &roll).await;
    assert_eq!(entry["events"][0]["dice"], json!([2, 5]), "{entry}");
    let (legal, _) = listed(0).await;
    let split = legal
        .iter()
        .find(|a| a["type"] == "move" && a["steps"][0]["piece"] != a["steps"][1]["piece"])
        .unwrap_or_else(|| panic!("a split in {legal:?}"))
        .clone();
    let reversed = json!({"type": "move", "steps": [split["steps"][1], split["steps"][0]]});
    assert!(!legal.contains(&reversed), "one order is listed: {legal:?}");
    assert_eq!(post(&mut ws, 0, &reversed).await["action"], split, "stored and broadcast as listed");
}

async fn a_backgammon_play_in_another_order_is_stored_as_listed(db: Db) {
    let s = TestServer::start(db).await;
    // Opening throws 3 and 1: the seat with the 3 plays 3-1 at once.
    let (id, tokens) = seated_table(&s, "backgammon", 2, json!({"dice": [3, 1]})).await;
    let view = s.table_view(&id, None).await;
    let seat = view["play"]["to_act"].as_u64().unwrap() as usize;
    let seq = view["play"]["seq"].as_i64().unwrap();
    let listed = json!({"type": "play", "moves": [{"from": 8, "to": 5}, {"from": 6, "to": 5}]});
    let swapped = json!({"type": "play", "moves": [{"from": 6, "to": 5}, {"from": 8, "to": 5}]});
    let legal = s.table_view(&id, Some(&tokens[seat])).await["play"]["legal_actions"].clone();
    assert!(legal.as_array().unwrap().contains(&listed), "{legal}");
    assert!(!legal.as_array().unwrap().contains(&swapped), "{legal}");

    let mut ws = s.ws(&id, &format!("since={seq}")).await;
    let ok = s.act(&id, &tokens[seat], &swapped, seq).await;
    assert_eq!(ok.status, 200, "{}", ok.json);
    let entry = ws.entry_where(|e| e["seq"] == seq + 1).await;
    assert_eq!(entry["action"], listed, "the play is stored and broadcast as listed");
}
