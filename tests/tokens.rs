//! Bearer tokens over real HTTP, on both stores: more than one per player, each revocable at
//! once, logout, the cap, and a list that never shows a secret; a revoked or expired token's
//! WebSockets close; a token answered from the process's recent sessions is refused on the very
//! next request once revoked. (Expiry is unit-tested on the store with an explicit `now`:
//! `store::tokens::tests`.)

mod common;

use common::{Db, TestServer, Ws, seated_table};
use reqwest::Method;
use serde_json::{Value, json};
use std::time::Duration;

both_stores!(
    a_second_token_works_and_revoking_it_leaves_the_first,
    logout_revokes_the_token_used,
    a_player_holds_at_most_twenty_tokens,
    another_players_token_is_not_found,
    the_list_marks_the_current_token_and_shows_no_secret,
    tokens_may_expire,
    a_revoked_tokens_sockets_close_within_a_second,
    a_logged_out_tokens_sockets_close_within_a_second,
    an_expired_tokens_sockets_close_within_a_second,
    a_token_in_use_is_refused_on_the_next_request_once_revoked_or_logged_out,
);

async fn new_token(s: &TestServer, token: &str, body: Value) -> (String, String) {
    let r = s.post("/v1/players/me/tokens", Some(token), body).await;
    assert_eq!(r.status, 201, "{}", r.json);
    assert_eq!(r.json["current"], false);
    (r.json["id"].as_str().unwrap().to_string(), r.json["token"].as_str().unwrap().to_string())
}

async fn delete(s: &TestServer, path: &str, token: &str) -> common::Resp {
    s.call(Method::DELETE, path, Some(token), None).await
}

async fn a_second_token_works_and_revoking_it_leaves_the_first(db: Db) {
    let s = TestServer::start(db).await;
    let (me, first) = s.player("Ann").await;
    let (id, second) = new_token(&s, &first, json!({"label": "backup"})).await;
    assert_ne!(second, first);
    assert_eq!(s.get("/v1/players/me", Some(&second)).await.json["id"], me);

    let r = delete(&s, &format!("/v1/players/me/tokens/{id}"), &first).await;
    assert_eq!(r.status, 204, "{}", r.json);
    s.get("/v1/players/me", Some(&second)).await.assert_problem(401, "unauthorized");
    assert_eq!(s.get("/v1/players/me", Some(&first)).await.json["id"], me);
    // Revoked is gone: a second revocation finds nothing.
    delete(&s, &format!("/v1/players/me/tokens/{id}"), &first).await.assert_problem(404, "not_found");
}

async fn logout_revokes_the_token_used(db: Db) {
    let s = TestServer::start(db).await;
    let (me, first) = s.player("Ann").await;
    let (_, second) = new_token(&s, &first, json!({})).await;
    let r = s.post("/v1/players/me/logout", Some(&first), json!({})).await;
    assert_eq!(r.status, 204, "{}", r.json);
    s.get("/v1/players/me", Some(&first)).await.assert_problem(401, "unauthorized");
    s.post("/v1/players/me/logout", Some(&first), json!({})).await.assert_problem(401, "unauthorized");
    assert_eq!(s.get("/v1/players/me", Some(&second)).await.json["id"], me);
    let list = s.get("/v1/players/me/tokens", Some(&second)).await;
    assert_eq!(list.json["tokens"].as_array().unwrap().len(), 1);
}

async fn a_player_holds_at_most_twenty_tokens(db: Db) {
    let s = TestServer::start(db).await;
    let (_, first) = s.player("Ann").await;
    let mut last = String::new();
    for _ in 1..20 {
        last = new_token(&s, &first, json!({})).await.0;
    }
    s.post("/v1/players/me/tokens", Some(&first), json!({})).await.assert_problem(409, "too_many_tokens");
    // Revoking one makes room again.
    assert_eq!(delete(&s, &format!("/v1/players/me/tokens/{last}"), &first).await.status, 204);
    new_token(&s, &first, json!({})).await;
    // Another player's cap is their own.
    let (_, other) = s.player("Bob").await;
    new_token(&s, &other, json!({})).await;
}

async fn another_players_token_is_not_found(db: Db) {
    let s = TestServer::start(db).await;
    let (ann, ann_token) = s.player("Ann").await;
    let (_, bob_token) = s.player("Bob").await;
    let (id, second) = new_token(&s, &ann_token, json!({})).await;
    delete(&s, &format!("/v1/players/me/tokens/{id}"), &bob_token).await.assert_problem(404, "not_found");
    let unknown = uuid::Uuid::new_v4();
    delete(&s, &format!("/v1/players/me/tokens/{unknown}"), &bob_token)
        .await
        .assert_problem(404, "not_found");
    // Ann's token still works.
    assert_eq!(s.get("/v1/players/me", Some(&second)).await.json["id"], ann);
    // No token: refused; an id that is no UUID names no resource.
    let r = s.call(Method::DELETE, &format!("/v1/players/me/tokens/{id}"), None, None).await;
    r.assert_problem(401, "unauthorized");
    delete(&s, "/v1/players/me/tokens/nope", &bob_token).await.assert_problem(404, "not_found");
}

async fn the_list_marks_the_current_token_and_shows_no_secret(db: Db) {
    let s = TestServer::start(db).await;
    let (_, first) = s.player("Ann").await;
    let (id, second) = new_token(&s, &first, json!({"label": "laptop"})).await;
    let list = s.get("/v1/players/me/tokens", Some(&second)).await;
    assert_eq!(list.status, 200, "{}", list.json);
    let tokens = list.json["tokens"].as_array().unwrap();
    assert_eq!(tokens.len(), 2);
    assert_eq!(tokens[0]["label"], "sign-up");
    assert_eq!(tokens[0]["current"], false);
    assert_eq!(tokens[1]["id"], id.as_str());
    assert_eq!(tokens[1]["label"], "laptop");
    assert_eq!(tokens[1]["current"], true);
    let text = list.json.to_string();
    for secret in [&first, &second] {
        assert!(!text.contains(secret.as_str()), "a secret in the list: {text}");
        assert!(!text.contains(&secret[4..12]), "part of a secret in the list: {text}");
    }
    let hashes = s.get("/v1/players/me/tokens", Some(&first)).await;
    assert_eq!(hashes.json["tokens"][0]["current"], true);
}

async fn tokens_may_expire(db: Db) {
    let s = TestServer::start(db).await;
    let r = s.post("/v1/players", None, json!({"name": "Ann", "expires_in_seconds": 3600})).await;
    assert_eq!(r.status, 201, "{}", r.json);
    let first = r.json["token"].as_str().unwrap().to_string();
    let (_, second) = new_token(&s, &first, json!({"expires_in_seconds": 60})).await;
    let list = s.get("/v1/players/me/tokens", Some(&second)).await;
    for t in list.json["tokens"].as_array().unwrap() {
        assert!(t["expires_at"].is_string(), "{t}");
    }
    for bad in [json!({"expires_in_seconds": 0}), json!({"expires_in_seconds": 315_360_001u64})] {
        s.post("/v1/players/me/tokens", Some(&first), bad).await.assert_problem(422, "invalid_body");
    }
    s.post("/v1/players/me/tokens", Some(&first), json!({"label": ""}))
        .await
        .assert_problem(422, "invalid_body");
}

/// The sockets a player may hold with `token`: a started table's, an open table's, the lobby's.
async fn sockets_of(s: &TestServer, started: &str, token: &str) -> Vec<Ws> {
    let open = s.table(token, json!({"game": "luddo", "seat_count": 2})).await;
    let open = open["id"].as_str().unwrap().to_string();
    vec![
        s.ws(started, &format!("token={token}")).await,
        s.ws(&open, &format!("token={token}")).await,
        s.lobby_ws(&format!("token={token}")).await,
    ]
}

async fn a_revoked_tokens_sockets_close_within_a_second(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "luddo", 2, json!({})).await;
    let (second_id, second) = new_token(&s, &tokens[0], json!({})).await;
    let mut revoked = sockets_of(&s, &id, &second).await;
    let mut kept = sockets_of(&s, &id, &tokens[0]).await;
    let r = delete(&s, &format!("/v1/players/me/tokens/{second_id}"), &tokens[0]).await;
    assert_eq!(r.status, 204, "{}", r.json);
    for (i, ws) in revoked.iter_mut().enumerate() {
        assert_eq!(ws.close_code_within(Duration::from_secs(1)).await, Some(4401), "socket {i}");
    }
    for (i, ws) in kept.iter_mut().enumerate() {
        let code = ws.close_code_within(Duration::from_millis(300)).await;
        assert_eq!(code, None, "socket {i} of another token stays open");
    }
}

async fn a_logged_out_tokens_sockets_close_within_a_second(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "luddo", 2, json!({})).await;
    let mut sockets = sockets_of(&s, &id, &tokens[1]).await;
    let r = s.post("/v1/players/me/logout", Some(&tokens[1]), json!({})).await;
    assert_eq!(r.status, 204, "{}", r.json);
    for (i, ws) in sockets.iter_mut().enumerate() {
        assert_eq!(ws.close_code_within(Duration::from_secs(1)).await, Some(4401), "socket {i}");
    }
}

async fn an_expired_tokens_sockets_close_within_a_second(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "luddo", 2, json!({})).await;
    let (_, brief) = new_token(&s, &tokens[0], json!({"expires_in_seconds": 2})).await;
    let made = tokio::time::Instant::now();
    let mut sockets = sockets_of(&s, &id, &brief).await;
    for (i, ws) in sockets.iter_mut().enumerate() {
        let left = Duration::from_secs(3).saturating_sub(made.elapsed());
        assert_eq!(
            ws.close_code_within(left).await,
            Some(4401),
            "socket {i} closes within a second of its expiry"
        );
    }
    assert!(made.elapsed() >= Duration::from_millis(1_500), "not long before it expired");
}

/// Sessions are kept in memory once authenticated (`luddo::sessions`): a revocation, or a
/// logout, forgets the token's at once.
async fn a_token_in_use_is_refused_on_the_next_request_once_revoked_or_logged_out(db: Db) {
    let s = TestServer::start(db).await;
    let (me, first) = s.player("Ann").await;
    let (id, second) = new_token(&s, &first, json!({})).await;
    for token in [&first, &second, &first, &second] {
        assert_eq!(s.get("/v1/players/me", Some(token)).await.json["id"], me);
    }
    let r = delete(&s, &format!("/v1/players/me/tokens/{id}"), &first).await;
    assert_eq!(r.status, 204, "{}", r.json);
    s.get("/v1/players/me", Some(&second)).await.assert_problem(401, "unauthorized");
    assert_eq!(s.get("/v1/players/me", Some(&first)).await.json["id"], me);
    let r = s.post("/v1/players/me/logout", Some(&first), json!({})).await;
    assert_eq!(r.status, 204, "{}", r.json);
    s.get("/v1/players/me", Some(&first)).await.assert_problem(401, "unauthorized");
}
