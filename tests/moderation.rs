//! Moderation over real HTTP and WebSocket, on SQLite and PostgreSQL (docs/social.md): reports,
//! the admin role, hiding a message, a moderator's mute and ban (a ban closes the player's
//! sockets at once), and the log of every action.

mod common;

use common::{Db, TestServer, grant_admin, seated_table};
use reqwest::Method;
use serde_json::json;
use std::time::{Duration, Instant};
use uuid::Uuid;

both_stores!(
    a_report_reaches_the_admins_and_only_them,
    an_admin_hides_a_message_everywhere_and_mutes_a_player,
    a_ban_closes_the_banned_players_sockets_within_a_second_and_refuses_their_requests,
    every_moderation_action_is_logged,
);

async fn a_report_reaches_the_admins_and_only_them(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    let t = s.table_view(&id, Some(&tokens[0])).await;
    let rude = t["seats"][1]["player"]["id"].as_str().unwrap().to_string();
    let reporter = t["seats"][0]["player"]["id"].as_str().unwrap().to_string();
    let m = s.post(&format!("/v1/tables/{id}/chat"), Some(&tokens[1]), json!({"text": "you are bad"})).await;
    assert_eq!(m.status, 201);
    let body = json!({"player_id": rude, "table_id": id, "message": 1, "reason": "insults"});
    let r = s.post("/v1/reports", Some(&tokens[0]), body).await;
    assert_eq!(r.status, 201, "{}", r.json);
    assert_eq!((r.json["status"].as_str(), r.json["message"].as_i64()), (Some("open"), Some(1)));
    // Bad reports: yourself, no reason, a message that is not the player's, nobody.
    let me = json!({"player_id": reporter, "reason": "x"});
    s.post("/v1/reports", Some(&tokens[0]), me).await.assert_problem(422, "invalid_body");
    let blank = json!({"player_id": rude, "reason": " \u{200b} "});
    s.post("/v1/reports", Some(&tokens[0]), blank).await.assert_problem(422, "invalid_body");
    let not_theirs = json!({"player_id": reporter, "table_id": id, "message": 1, "reason": "x"});
    s.post("/v1/reports", Some(&tokens[1]), not_theirs).await.assert_problem(422, "invalid_body");
    let nobody = json!({"player_id": Uuid::new_v4(), "reason": "x"});
    s.post("/v1/reports", Some(&tokens[0]), nobody).await.assert_problem(404, "player_not_found");
    // Only an admin reads them.
    s.get("/v1/admin/reports", Some(&tokens[0])).await.assert_problem(403, "admin_only");
    s.get("/v1/admin/reports", None).await.assert_problem(401, "unauthorized");
    let (admin_id, admin) = s.player("Ada").await;
    grant_admin(&s, &admin_id).await;
    let list = s.get("/v1/admin/reports", Some(&admin)).await;
    assert_eq!(list.status, 200, "{}", list.json);
    assert_eq!(list.json["reports"][0]["id"], r.json["id"]);
    let report = r.json["id"].as_str().unwrap();
    let closed =
        s.post(&format!("/v1/admin/reports/{report}/close"), Some(&admin), json!({"note": "warned"})).await;
    assert_eq!(
        (closed.json["status"].as_str(), closed.json["note"].as_str()),
        (Some("closed"), Some("warned"))
    );
    let open = s.get("/v1/admin/reports", Some(&admin)).await;
    assert_eq!(open.json["reports"], json!([]));
    let done = s.get("/v1/admin/reports?status=closed", Some(&admin)).await;
    assert_eq!(done.json["reports"][0]["id"], report);
    // Twenty a day, then 429.
    for _ in 1..20 {
        let again = json!({"player_id": rude, "reason": "again"});
        assert_eq!(s.post("/v1/reports", Some(&tokens[0]), again).await.status, 201);
    }
    let over = s.post("/v1/reports", Some(&tokens[0]), json!({"player_id": rude, "reason": "more"})).await;
    over.assert_problem(429, "too_many_reports");
}

async fn an_admin_hides_a_message_everywhere_and_mutes_a_player(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    let t = s.table_view(&id, Some(&tokens[0])).await;
    let rude = t["seats"][1]["player"]["id"].as_str().unwrap().to_string();
    let (admin_id, admin) = s.player("Ada").await;
    grant_admin(&s, &admin_id).await;
    let mut ws = s.ws(&id, &format!("token={}", tokens[0])).await;
    s.post(&format!("/v1/tables/{id}/chat"), Some(&tokens[1]), json!({"text": "spam spam"})).await;
    assert_eq!(ws.next_of("chat").await["message"]["n"], 1);
    let hide = format!("/v1/admin/tables/{id}/chat/1/hide");
    s.post(&hide, Some(&tokens[0]), json!({})).await.assert_problem(403, "admin_only");
    assert_eq!(s.call(Method::POST, &hide, Some(&admin), None).await.status, 204);
    assert_eq!(ws.next_of("chat_hidden").await, json!({"type": "chat_hidden", "n": 1}));
    s.call(Method::POST, &hide, Some(&admin), None).await.assert_problem(404, "not_found");
    let page = s.get(&format!("/v1/tables/{id}/chat"), Some(&tokens[0])).await;
    assert_eq!(page.json["messages"], json!([]));
    // A moderator's mute: the player's posts are refused until it ends or is lifted.
    let mute = format!("/v1/admin/players/{rude}/mute");
    let r = s.post(&mute, Some(&admin), json!({"seconds": 600, "reason": "spam"})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    assert!(r.json["chat_muted_until"].is_string());
    let refused = s.post(&format!("/v1/tables/{id}/chat"), Some(&tokens[1]), json!({"emote": "wow"})).await;
    refused.assert_problem(403, "chat_muted");
    s.post(&mute, Some(&admin), json!({"seconds": 0, "reason": "x"}))
        .await
        .assert_problem(422, "invalid_body");
    let lifted = s.call(Method::DELETE, &mute, Some(&admin), None).await;
    assert_eq!(lifted.json, json!({"player_id": rude}));
    let ok = s.post(&format!("/v1/tables/{id}/chat"), Some(&tokens[1]), json!({"emote": "sorry"})).await;
    assert_eq!(ok.status, 201);
    let nobody = format!("/v1/admin/players/{}/mute", Uuid::new_v4());
    let r = s.post(&nobody, Some(&admin), json!({"seconds": 60, "reason": "x"})).await;
    r.assert_problem(404, "player_not_found");
}

async fn a_ban_closes_the_banned_players_sockets_within_a_second_and_refuses_their_requests(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    let t = s.table_view(&id, Some(&tokens[0])).await;
    let banned = t["seats"][1]["player"]["id"].as_str().unwrap().to_string();
    let (admin_id, admin) = s.player("Ada").await;
    grant_admin(&s, &admin_id).await;
    let mut table_ws = s.ws(&id, &format!("token={}", tokens[1])).await;
    let mut lobby_ws = s.lobby_ws(&format!("token={}", tokens[1])).await;
    let mut other = s.ws(&id, &format!("token={}", tokens[0])).await;
    // Both sockets are open and served.
    table_ws.send(json!({"type": "ping"})).await;
    table_ws.next_of("pong").await;
    lobby_ws.next_of("snapshot").await;
    let ban = format!("/v1/admin/players/{banned}/ban");
    s.post(&ban, Some(&tokens[0]), json!({"seconds": 3600, "reason": "x"}))
        .await
        .assert_problem(403, "admin_only");
    let at = Instant::now();
    let r = s.post(&ban, Some(&admin), json!({"seconds": 3600, "reason": "cheating"})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    assert!(r.json["banned_until"].is_string());
    for ws in [&mut table_ws, &mut lobby_ws] {
        assert_eq!(ws.close_code_within(Duration::from_secs(1)).await, Some(4403));
    }
    assert!(at.elapsed() < Duration::from_secs(2), "{:?}", at.elapsed());
    // Requests with the player's token are refused; a new socket too; the other player stays.
    s.get("/v1/players/me", Some(&tokens[1])).await.assert_problem(403, "banned");
    let path = format!("/v1/tables/{id}/chat");
    s.post(&path, Some(&tokens[1]), json!({"emote": "wow"})).await.assert_problem(403, "banned");
    other.send(json!({"type": "ping"})).await;
    other.next_of("pong").await;
    let self_ban = format!("/v1/admin/players/{admin_id}/ban");
    let r = s.post(&self_ban, Some(&admin), json!({"seconds": 60, "reason": "x"})).await;
    r.assert_problem(422, "invalid_body");
    // Lifted: the same token works again.
    assert_eq!(s.call(Method::DELETE, &ban, Some(&admin), None).await.status, 200);
    assert_eq!(s.get("/v1/players/me", Some(&tokens[1])).await.status, 200);
}

async fn every_moderation_action_is_logged(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    let t = s.table_view(&id, Some(&tokens[0])).await;
    let player = t["seats"][1]["player"]["id"].as_str().unwrap().to_string();
    let (admin_id, admin) = s.player("Ada").await;
    grant_admin(&s, &admin_id).await;
    s.post(&format!("/v1/tables/{id}/chat"), Some(&tokens[1]), json!({"text": "hm"})).await;
    s.call(Method::POST, &format!("/v1/admin/tables/{id}/chat/1/hide"), Some(&admin), None).await;
    s.post(&format!("/v1/admin/players/{player}/mute"), Some(&admin), json!({"seconds": 60, "reason": "r1"}))
        .await;
    s.post(&format!("/v1/admin/players/{player}/ban"), Some(&admin), json!({"seconds": 60, "reason": "r2"}))
        .await;
    s.call(Method::DELETE, &format!("/v1/admin/players/{player}/ban"), Some(&admin), None).await;
    s.get("/v1/admin/log", Some(&tokens[0])).await.assert_problem(403, "admin_only");
    let log = s.get("/v1/admin/log?limit=3", Some(&admin)).await;
    assert_eq!(log.status, 200, "{}", log.json);
    let actions: Vec<_> =
        log.json["entries"].as_array().unwrap().iter().map(|e| e["action"].clone()).collect();
    assert_eq!(actions, [json!("unban"), json!("ban"), json!("mute")]);
    assert_eq!(log.json["entries"][1]["reason"], "r2");
    assert_eq!(log.json["entries"][1]["actor_id"], admin_id.as_str());
    let cursor = log.json["next_cursor"].as_str().unwrap();
    let rest = s.get(&format!("/v1/admin/log?cursor={cursor}"), Some(&admin)).await;
    let actions: Vec<_> =
        rest.json["entries"].as_array().unwrap().iter().map(|e| e["action"].clone()).collect();
    assert_eq!(actions, [json!("hide_message"), json!("grant_admin")]);
    assert!(rest.json["entries"][1].get("actor_id").is_none(), "granted from the command line");
}
