//! Table chat and quick emotes over real HTTP and WebSocket, on SQLite and PostgreSQL
//! (docs/social.md): who posts and who reads, the host's settings, mutes, the bounds, and a
//! chat that survives a restart and replays on resume.

mod common;

use common::{Db, TestServer, seated_table};
use reqwest::Method;
use serde_json::{Value, json};

both_stores!(
    seated_players_chat_over_http_and_the_socket_and_spectators_read_only_when_the_host_allows,
    chat_is_bounded_in_size_and_rate_and_nothing_beyond_the_bound_is_stored,
    text_is_refused_when_it_hides_characters_and_shown_as_sent_otherwise,
    with_free_text_off_only_quick_emotes_go,
    a_muted_players_messages_reach_nobody_who_muted_them,
    chat_survives_a_restart_and_replays_with_the_log_on_resume,
    chat_before_the_start_goes_over_the_open_tables_socket,
);

fn chat_path(id: &str) -> String {
    format!("/v1/tables/{id}/chat")
}

async fn seat_ids(s: &TestServer, id: &str, token: &str) -> Vec<String> {
    let t = s.table_view(id, Some(token)).await;
    t["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|seat| seat["player"]["id"].as_str().unwrap().to_string())
        .collect()
}

async fn seated_players_chat_over_http_and_the_socket_and_spectators_read_only_when_the_host_allows(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    let mut host = s.ws(&id, &format!("token={}", tokens[0])).await;
    let mut guest = s.ws(&id, &format!("token={}", tokens[1])).await;
    let mut spectator = s.ws(&id, "").await;
    // Over HTTP: stored, answered, and sent to both players' sockets.
    let r = s.post(&chat_path(&id), Some(&tokens[0]), json!({"text": "good luck!"})).await;
    assert_eq!(r.status, 201, "{}", r.json);
    assert_eq!((r.json["n"].as_i64(), r.json["seat"].as_i64()), (Some(1), Some(0)));
    assert_eq!(r.json["text"], "good luck!");
    for ws in [&mut host, &mut guest] {
        let m = ws.next_of("chat").await;
        assert_eq!(m["message"], r.json);
    }
    // Over the socket: the reply carries the message; everyone seated hears it.
    guest.send(json!({"type": "chat", "id": "c1", "emote": "thanks"})).await;
    let reply = guest.next_of("reply").await;
    assert_eq!((reply["id"].as_str(), reply["ok"].as_bool()), (Some("c1"), Some(true)), "{reply}");
    assert_eq!((reply["chat"]["n"].as_i64(), reply["chat"]["emote"].as_str()), (Some(2), Some("thanks")));
    let heard = host.next_of("chat").await;
    assert_eq!(heard["message"], reply["chat"]);
    // A spectator reads nothing, and may not post.
    let (_, stranger) = s.player("Stranger").await;
    s.get(&chat_path(&id), Some(&stranger)).await.assert_problem(403, "not_seated");
    s.get(&chat_path(&id), None).await.assert_problem(403, "not_seated");
    s.post(&chat_path(&id), Some(&stranger), json!({"text": "hi"})).await.assert_problem(403, "not_seated");
    spectator.send(json!({"type": "chat", "id": 1, "text": "hi"})).await;
    let refused = spectator.next_of("reply").await;
    assert_eq!(refused["error"]["code"], "unauthorized", "{refused}");
    // The host lets spectators read (only the host may): they read the chat from then on.
    let settings = json!({"spectators": true});
    let r = s.call(Method::PATCH, &chat_path(&id), Some(&tokens[1]), Some(settings.clone())).await;
    r.assert_problem(403, "not_host");
    let r = s.call(Method::PATCH, &chat_path(&id), Some(&tokens[0]), Some(settings)).await;
    assert_eq!(r.json, json!({"text": true, "spectators": true}));
    let r = s.post(&chat_path(&id), Some(&tokens[1]), json!({"text": "welcome, watchers"})).await;
    assert_eq!(r.status, 201);
    let m = spectator.next_of("chat").await;
    assert_eq!(m["message"]["text"], "welcome, watchers");
    assert_eq!(m["message"]["n"], 3, "the earlier messages were not sent to it");
    let page = s.get(&chat_path(&id), None).await;
    assert_eq!(page.status, 200, "{}", page.json);
    let ns: Vec<_> = page.json["messages"].as_array().unwrap().iter().map(|m| m["n"].clone()).collect();
    assert_eq!(ns, [json!(1), json!(2), json!(3)]);
    assert_eq!(page.json["settings"], json!({"text": true, "spectators": true}));
    let first = s.get(&format!("{}?after=1&limit=1", chat_path(&id)), Some(&tokens[0])).await;
    assert_eq!(
        (first.json["messages"][0]["n"].as_i64(), first.json["next_after"].as_i64()),
        (Some(2), Some(2))
    );
}

async fn chat_is_bounded_in_size_and_rate_and_nothing_beyond_the_bound_is_stored(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    let path = chat_path(&id);
    let long = "x".repeat(201);
    s.post(&path, Some(&tokens[0]), json!({"text": long})).await.assert_problem(422, "invalid_chat");
    let r = s.post(&path, Some(&tokens[0]), json!({"text": "x".repeat(200)})).await;
    assert_eq!(r.status, 201, "200 characters go");
    s.post(&path, Some(&tokens[0]), json!({"text": "a", "emote": "wow"}))
        .await
        .assert_problem(422, "invalid_body");
    s.post(&path, Some(&tokens[0]), json!({})).await.assert_problem(422, "invalid_body");
    s.post(&path, Some(&tokens[0]), json!({"emote": "dance"})).await.assert_problem(422, "invalid_chat");
    // Five in ten seconds (the long one counted), then 429 with when to try again.
    for i in 0..4 {
        let r = s.post(&path, Some(&tokens[0]), json!({"text": format!("m{i}")})).await;
        assert_eq!(r.status, 201, "{}", r.json);
    }
    let r = s.post(&path, Some(&tokens[0]), json!({"text": "one too many"})).await;
    r.assert_problem(429, "rate_limited");
    assert!(r.headers.get("retry-after").is_some());
    // The other player is not limited by it.
    assert_eq!(s.post(&path, Some(&tokens[1]), json!({"emote": "wow"})).await.status, 201);
    let stored =
        s.db.text(&format!("SELECT CAST(COUNT(*) AS TEXT) FROM chat_messages WHERE table_id = '{id}'")).await;
    assert_eq!(stored.as_deref(), Some("6"), "refused messages are not stored");
}

async fn text_is_refused_when_it_hides_characters_and_shown_as_sent_otherwise(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    let path = chat_path(&id);
    for hidden in ["evil\u{202e}txt", "zero\u{200b}width", "bell\u{7}", "line\u{2028}break", "   "] {
        let r = s.post(&path, Some(&tokens[0]), json!({"text": hidden})).await;
        r.assert_problem(422, "invalid_chat");
    }
    // Markup is text: stored and sent as written, for clients to show as text.
    let markup = "<img src=x onerror=alert(1)> & <b>bold</b>";
    let r = s.post(&path, Some(&tokens[0]), json!({"text": format!("  {markup}  ")})).await;
    assert_eq!(r.json["text"], markup, "trimmed, nothing else changed");
    let too_big = json!({"text": "y".repeat(70_000)});
    let r = s.post(&path, Some(&tokens[0]), too_big).await;
    assert!(r.status == 413 || r.status == 422, "{}", r.status);
}

async fn with_free_text_off_only_quick_emotes_go(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    let path = chat_path(&id);
    let r = s.call(Method::PATCH, &path, Some(&tokens[0]), Some(json!({"text": false}))).await;
    assert_eq!(r.json, json!({"text": false, "spectators": false}));
    s.call(Method::PATCH, &path, Some(&tokens[0]), Some(json!({}))).await.assert_problem(422, "invalid_body");
    s.post(&path, Some(&tokens[1]), json!({"text": "hello"})).await.assert_problem(403, "chat_text_off");
    for emote in [
        "hello",
        "good_luck",
        "well_played",
        "good_game",
        "thanks",
        "oops",
        "wow",
        "sorry",
        "hurry_up",
        "nice_roll",
    ]
    .iter()
    .take(5)
    {
        let r = s.post(&path, Some(&tokens[1]), json!({"emote": emote})).await;
        assert_eq!(r.status, 201, "{emote}: {}", r.json);
    }
}

async fn a_muted_players_messages_reach_nobody_who_muted_them(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    let ids = seat_ids(&s, &id, &tokens[0]).await;
    let mute = format!("/v1/players/me/mutes/{}", ids[1]);
    assert_eq!(s.call(Method::PUT, &mute, Some(&tokens[0]), None).await.status, 204);
    let own = format!("/v1/players/me/mutes/{}", ids[0]);
    s.call(Method::PUT, &own, Some(&tokens[0]), None).await.assert_problem(422, "invalid_body");
    let nobody = format!("/v1/players/me/mutes/{}", uuid::Uuid::new_v4());
    s.call(Method::PUT, &nobody, Some(&tokens[0]), None).await.assert_problem(404, "player_not_found");
    let list = s.get("/v1/players/me/mutes", Some(&tokens[0])).await;
    assert_eq!(list.json["muted"][0]["player"]["id"], ids[1].as_str());
    let mut host = s.ws(&id, &format!("token={}", tokens[0])).await;
    s.post(&chat_path(&id), Some(&tokens[1]), json!({"text": "you cannot hear me"})).await;
    s.post(&chat_path(&id), Some(&tokens[0]), json!({"text": "quiet here"})).await;
    let m = host.next_of("chat").await;
    assert_eq!(m["message"]["text"], "quiet here", "the muted player's message was not sent");
    let page = s.get(&chat_path(&id), Some(&tokens[0])).await;
    assert_eq!(page.json["messages"].as_array().unwrap().len(), 1);
    let theirs = s.get(&chat_path(&id), Some(&tokens[1])).await;
    assert_eq!(theirs.json["messages"].as_array().unwrap().len(), 2, "the muted player reads everything");
    // Unmuted: heard again.
    assert_eq!(s.call(Method::DELETE, &mute, Some(&tokens[0]), None).await.status, 204);
    s.call(Method::DELETE, &mute, Some(&tokens[0]), None).await.assert_problem(404, "not_found");
    s.post(&chat_path(&id), Some(&tokens[1]), json!({"text": "back"})).await;
    assert_eq!(host.next_of("chat").await["message"]["text"], "back");
}

async fn chat_survives_a_restart_and_replays_with_the_log_on_resume(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    for word in ["one", "two", "three"] {
        assert_eq!(s.post(&chat_path(&id), Some(&tokens[0]), json!({"text": word})).await.status, 201);
    }
    let config = s.config.clone();
    let s = TestServer::start_on(s.stop().await, config).await;
    // Resuming after message 1: the log's backlog, then messages 2 and 3.
    let mut ws = s.ws(&id, &format!("token={}&chat_since=1", tokens[1])).await;
    let mut entries = 0;
    let mut heard = vec![];
    while heard.len() < 2 {
        let m = ws.next().await.expect("open");
        match m["type"].as_str() {
            Some("entry") => {
                assert!(heard.is_empty(), "the chat comes after the log's backlog");
                entries += 1;
            }
            Some("chat") => heard.push(m["message"]["text"].as_str().unwrap().to_string()),
            _ => {}
        }
    }
    assert!(entries > 0);
    assert_eq!(heard, ["two", "three"]);
    // Without chat_since: the latest messages.
    let mut fresh = s.ws(&id, &format!("token={}", tokens[0])).await;
    assert_eq!(fresh.next_of("chat").await["message"]["n"], 1);
    let page = s.get(&chat_path(&id), Some(&tokens[0])).await;
    assert_eq!(page.json["messages"].as_array().unwrap().len(), 3);
}

async fn chat_before_the_start_goes_over_the_open_tables_socket(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let (_, guest) = s.player("Guest").await;
    let t = s.table(&host, json!({"game": "snakes", "seat_count": 2})).await;
    let id = t["id"].as_str().unwrap().to_string();
    let r = s.post(&format!("/v1/tables/{id}/join"), Some(&guest), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let mut ws = s.ws(&id, &format!("token={guest}")).await;
    let mut host_ws = s.ws(&id, &format!("token={host}")).await;
    ws.send(json!({"type": "chat", "id": "w", "emote": "hello"})).await;
    let reply = ws.next_of("reply").await;
    assert_eq!(reply["ok"], true, "{reply}");
    assert_eq!(host_ws.next_of("chat").await["message"]["emote"], "hello");
    // Actions are still refused before the start.
    ws.send(json!({"type": "action", "id": "a", "seq": 1, "action": {"type": "roll"}})).await;
    assert_eq!(ws.next_of("reply").await["error"]["code"], "table_not_started");
}
