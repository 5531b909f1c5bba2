//! Fresh dice (issue #35, docs/fairness.md) over real HTTP and WebSocket, against SQLite and
//! PostgreSQL: the option's defaults and when it may change; seats committing to dice chains
//! (create, join, `PATCH seats/me`); a chained seat's roll taking its next link (refused
//! without it or with a wrong one, nothing played), over HTTP and the socket, across a restart;
//! bots rolling from the server's source; and the finished record verifying with
//! `luddo verify`'s function, every reveal checked against its chain.

mod common;

use common::{Db, TestServer, test_config};
use luddo::rules::dice::chain;
use reqwest::Method;
use serde_json::{Value, json};

both_stores!(
    public_tables_have_fresh_dice_and_private_ones_not_until_the_host_says,
    dice_chains_are_checked_and_fixed_at_the_start,
    a_chained_seat_rolls_with_its_next_link_and_the_record_verifies,
    bots_roll_from_the_servers_source_beside_a_chained_seat,
    a_rematch_keeps_fresh_dice_and_seats_the_voters_new_chain,
);

/// A seat's chain: `links[i]` is `h_i`, `links[n]` the head.
fn links(byte: u8) -> Vec<String> {
    chain([byte; 32], 4096)
}

/// The link seat `seat` reveals next, by the table's view (`seats[i].reveals`).
fn next_reveal(view: &Value, seat: usize, links: &[String]) -> String {
    let reveals = view["seats"][seat]["reveals"].as_u64().unwrap() as usize;
    links[links.len() - 2 - reveals].clone()
}

async fn public_tables_have_fresh_dice_and_private_ones_not_until_the_host_says(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let public = s.table(&host, json!({"game": "luddo", "seat_count": 2})).await;
    assert_eq!(public["fresh_dice"], true);
    let private = s.table(&host, json!({"game": "luddo", "seat_count": 2, "visibility": "private"})).await;
    assert_eq!(private["fresh_dice"], false);
    let off = s.table(&host, json!({"game": "luddo", "seat_count": 2, "fresh_dice": false})).await;
    assert_eq!(off["fresh_dice"], false);
    let quick = s.post("/v1/quick-play", Some(&host), json!({"game": "luddo", "seats": 2})).await;
    assert!(quick.status == 200 || quick.status == 201, "{}", quick.json);
    assert_eq!(quick.json["fresh_dice"], true, "quick-play tables are public");

    // The host may turn it on before the start; not after.
    let id = private["id"].as_str().unwrap();
    let r = s
        .call(Method::PATCH, &format!("/v1/tables/{id}"), Some(&host), Some(json!({"fresh_dice": true})))
        .await;
    assert_eq!((r.status.as_u16(), &r.json["fresh_dice"]), (200, &json!(true)), "{}", r.json);
    let r = s.post(&format!("/v1/tables/{id}/start"), Some(&host), json!({"fill_with_bots": true})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let r = s
        .call(Method::PATCH, &format!("/v1/tables/{id}"), Some(&host), Some(json!({"fresh_dice": false})))
        .await;
    r.assert_problem(409, "table_not_open");
}

async fn dice_chains_are_checked_and_fixed_at_the_start(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let (_, guest) = s.player("Guest").await;
    let head = links(1).pop().unwrap();
    // Not 64 lowercase hex characters.
    for bad in [head.to_uppercase(), head[..63].to_string(), format!("{head}0"), "zz".repeat(32)] {
        let r = s
            .post("/v1/tables", Some(&host), json!({"game": "luddo", "seat_count": 2, "dice_chain": bad}))
            .await;
        r.assert_problem(422, "invalid_dice_chain");
    }
    // A private table has fresh dice off: it takes no chain.
    let body = json!({"game": "luddo", "seat_count": 2, "visibility": "private", "dice_chain": head});
    s.post("/v1/tables", Some(&host), body).await.assert_problem(409, "fresh_dice_off");

    let t = s.table(&host, json!({"game": "luddo", "seat_count": 2, "dice_chain": head})).await;
    assert_eq!((&t["seats"][0]["dice_chain"], &t["seats"][0]["reveals"]), (&json!(head), &json!(0)));
    let id = t["id"].as_str().unwrap();
    let r = s.post(&format!("/v1/tables/{id}/join"), Some(&guest), json!({})).await;
    assert_eq!((r.status.as_u16(), &r.json["seats"][1]["dice_chain"]), (200, &Value::Null), "{}", r.json);
    // Given (or changed) until the start with PATCH seats/me.
    let other = links(2).pop().unwrap();
    let me = format!("/v1/tables/{id}/seats/me");
    let r = s.call(Method::PATCH, &me, Some(&guest), Some(json!({"dice_chain": "nope"}))).await;
    r.assert_problem(422, "invalid_dice_chain");
    let r = s.call(Method::PATCH, &me, Some(&guest), Some(json!({"dice_chain": other}))).await;
    assert_eq!((r.status.as_u16(), &r.json["seats"][1]["dice_chain"]), (200, &json!(other)), "{}", r.json);
    let r = s.post(&format!("/v1/tables/{id}/start"), Some(&host), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let r = s.call(Method::PATCH, &me, Some(&guest), Some(json!({"dice_chain": head}))).await;
    r.assert_problem(409, "table_not_open");
    // The start entry lists them, by seat.
    let mut ws = s.ws(id, "since=0").await;
    let start = ws.entry_where(|e| e["action"]["type"] == "start").await;
    assert_eq!(start["action"]["dice_chains"], json!([head, other]));
}

/// Posts `action` for `token`'s seat at `seq`, with `reveal` if given.
async fn act(
    s: &TestServer,
    id: &str,
    token: &str,
    action: &Value,
    seq: i64,
    reveal: Option<&str>,
) -> common::Resp {
    let mut body = json!({"action": action, "seq": seq});
    if let Some(reveal) = reveal {
        body["reveal"] = json!(reveal);
    }
    s.post(&format!("/v1/tables/{id}/actions"), Some(token), body).await
}

/// Plays the table to its end, each human seat by its first legal action, a roll with the
/// seat's next link when the seat has a chain.
async fn play_out_revealing(s: &TestServer, id: &str, tokens: &[String], chains: &[Option<Vec<String>>]) {
    for _ in 0..20_000 {
        let view = s.table_view(id, Some(&tokens[0])).await;
        if view["status"] == "finished" {
            return;
        }
        let Some(seat) = view["play"]["to_act"].as_u64().map(|s| s as usize) else { continue };
        let Some(token) = tokens.get(seat) else { continue };
        let mine = s.table_view(id, Some(token)).await;
        let Some(action) = mine["play"]["legal_actions"].as_array().and_then(|l| l.first()).cloned() else {
            continue;
        };
        let reveal = match (&chains[seat], action["type"] == "roll") {
            (Some(links), true) => Some(next_reveal(&mine, seat, links)),
            _ => None,
        };
        let r = act(s, id, token, &action, mine["play"]["seq"].as_i64().unwrap(), reveal.as_deref()).await;
        assert!(r.status == 200 || r.json["code"] == "stale_seq", "{}", r.json);
    }
    panic!("the game did not end");
}

async fn a_chained_seat_rolls_with_its_next_link_and_the_record_verifies(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let (_, guest) = s.player("Guest").await;
    let chains = [Some(links(3)), Some(links(4))];
    let head = |seat: usize| chains[seat].as_ref().unwrap().last().unwrap().clone();
    let t = s.table(&host, json!({"game": "luddo", "seat_count": 2, "dice_chain": head(0)})).await;
    let id = t["id"].as_str().unwrap().to_string();
    let r = s.post(&format!("/v1/tables/{id}/join"), Some(&guest), json!({"dice_chain": head(1)})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let r = s.post(&format!("/v1/tables/{id}/start"), Some(&host), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let tokens = [host.clone(), guest.clone()];

    // The seat to act must roll itself: the server waits for its request.
    let view = s.table_view(&id, Some(&host)).await;
    let seat = view["play"]["to_act"].as_u64().unwrap() as usize;
    let token = &tokens[seat];
    let mine = s.table_view(&id, Some(token)).await;
    let seq = mine["play"]["seq"].as_i64().unwrap();
    let roll = mine["play"]["legal_actions"][0].clone();
    assert_eq!(roll["type"], "roll");
    act(&s, &id, token, &roll, seq, None).await.assert_problem(422, "reveal_required");
    let links = chains[seat].as_ref().unwrap();
    // The head itself, a link further down, another seat's link: none is the next one.
    for wrong in [links[4096].clone(), links[4094].clone(), chains[1 - seat].as_ref().unwrap()[4095].clone()]
    {
        act(&s, &id, token, &roll, seq, Some(&wrong)).await.assert_problem(422, "reveal_mismatch");
    }
    let after = s.table_view(&id, Some(token)).await;
    assert_eq!(
        (after["play"]["seq"].as_i64(), &after["seats"][seat]["reveals"]),
        (Some(seq), &json!(0)),
        "nothing played"
    );

    // The right link over the socket: the entry carries it, the seat counts it.
    let mut ws = s.ws(&id, &format!("token={token}&since={seq}")).await;
    let reveal = next_reveal(&mine, seat, links);
    ws.send(json!({"type": "action", "id": "r1", "seq": seq, "action": roll, "reveal": reveal})).await;
    let entry = ws.entry_where(|e| e["seq"] == seq + 1).await;
    assert_eq!((&entry["reveal"], &entry["actor"]), (&json!(reveal), &json!("human")));
    ws.close().await;
    assert_eq!(s.table_view(&id, Some(token)).await["seats"][seat]["reveals"], 1);

    // A restarted server replays the reveals from the log: the same table, the same chains.
    let config = test_config();
    let db = s.stop().await;
    let s = TestServer::start_on(db, config).await;
    assert_eq!(s.table_view(&id, Some(token)).await["seats"][seat]["reveals"], 1);

    play_out_revealing(&s, &id, &tokens, &chains).await;
    let log = luddo::verify::fetch(&format!("{}/v1/tables/{id}", s.base), None).await.unwrap();
    let verified = luddo::verify::verify(&log).unwrap_or_else(|e| panic!("{e}"));
    let reveals = log.entries.iter().filter(|e| e.get("reveal").is_some()).count() as u64;
    assert!(verified.reveals > 1 && verified.reveals == reveals, "{verified}");
    // A changed reveal breaks its chain.
    let mut tampered = log.clone();
    let i = tampered.entries.iter().position(|e| e.get("reveal").is_some()).unwrap();
    tampered.entries[i]["reveal"] = json!(links[0]);
    assert!(matches!(luddo::verify::verify(&tampered), Err(luddo::verify::Mismatch::Chain { .. })));
}

async fn bots_roll_from_the_servers_source_beside_a_chained_seat(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let chain = links(5);
    let t =
        s.table(&host, json!({"game": "luddo", "seat_count": 2, "dice_chain": chain.last().unwrap()})).await;
    let id = t["id"].as_str().unwrap().to_string();
    let r = s.post(&format!("/v1/tables/{id}/start"), Some(&host), json!({"fill_with_bots": true})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    play_out_revealing(&s, &id, std::slice::from_ref(&host), &[Some(chain), None]).await;
    let log = luddo::verify::fetch(&format!("{}/v1/tables/{id}", s.base), None).await.unwrap();
    let verified = luddo::verify::verify(&log).unwrap_or_else(|e| panic!("{e}"));
    assert!(verified.reveals > 0, "{verified}");
    let bots: Vec<&Value> = log.entries.iter().filter(|e| e["actor"] == "bot").collect();
    assert!(!bots.is_empty() && bots.iter().all(|e| e.get("reveal").is_none()));
    let start = log.entries.iter().find(|e| e["action"]["type"] == "start").unwrap();
    assert_eq!(start["action"]["dice_chains"][1], Value::Null);
}

async fn a_rematch_keeps_fresh_dice_and_seats_the_voters_new_chain(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let chain = links(6);
    let t =
        s.table(&host, json!({"game": "luddo", "seat_count": 2, "dice_chain": chain.last().unwrap()})).await;
    let id = t["id"].as_str().unwrap().to_string();
    let r = s.post(&format!("/v1/tables/{id}/start"), Some(&host), json!({"fill_with_bots": true})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    play_out_revealing(&s, &id, std::slice::from_ref(&host), &[Some(chain), None]).await;
    let fresh = links(7).pop().unwrap();
    let r = s.post(&format!("/v1/tables/{id}/rematch"), Some(&host), json!({"dice_chain": "NOPE"})).await;
    r.assert_problem(422, "invalid_dice_chain");
    let r = s.post(&format!("/v1/tables/{id}/rematch"), Some(&host), json!({"dice_chain": fresh})).await;
    assert_eq!(r.status, 201, "{}", r.json);
    let again = s.table_view(r.json["table_id"].as_str().unwrap(), Some(&host)).await;
    assert_eq!((&again["fresh_dice"], &again["seats"][0]["dice_chain"]), (&json!(true), &json!(fresh)));
}
