//! The AsyncAPI document of the WebSockets (`GET /asyncapi.json`): the checked-in copy is the
//! served one, and its examples are real messages of every kind, captured here from a table of
//! each game played against bots and from the lobby's socket.
//!
//! `UPDATE_EXAMPLES=1 cargo test --test asyncapi` rewrites asyncapi/examples.json from a new
//! capture (then regenerate the document: `cargo run -q --bin luddo -- asyncapi >
//! asyncapi/asyncapi.json`). Dice and ids differ on every run, so the check is not equality:
//! every message of the document has an example, every example validates against its
//! message's schema, and a fresh capture still finds every kind.

mod common;

use common::{Db, TestServer, Ws};
use futures_util::SinkExt;
use luddo::{api::asyncapi, games::GameKind};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use tokio_tungstenite::tungstenite::Message;

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/asyncapi/examples.json");

/// Message name → example name → payload: the first message of each kind.
#[derive(Default)]
struct Capture(BTreeMap<String, BTreeMap<String, Value>>);

impl Capture {
    fn keep(&mut self, message: &str, example: String, payload: &Value) {
        self.0.entry(message.to_string()).or_default().entry(example).or_insert_with(|| payload.clone());
    }

    /// Keeps a message the server sent on a table's socket of `game`.
    fn server(&mut self, game: GameKind, m: &Value) {
        let g = game.type_name();
        let text = |v: &Value| v.as_str().map_or_else(|| v.to_string(), str::to_string);
        match m["type"].as_str().unwrap_or_default() {
            "entry" => self.keep(&format!("{g}Entry"), format!("entry: {}", text(&m["action"]["type"])), m),
            "reply" if m["ok"] == true => self.keep(&format!("{g}Reply"), "reply: ok".into(), m),
            "reply" => {
                self.keep(&format!("{g}Reply"), format!("reply: refused ({})", text(&m["error"]["code"])), m)
            }
            "presence" => self.keep("Presence", "presence".into(), m),
            "error" => self.keep("Error", format!("error: {}", text(&m["code"])), m),
            "pong" => self.keep("Pong", "pong".into(), m),
            "chat" => self.keep("Chat", "chat: emote".into(), m),
            "chat_hidden" => self.keep("ChatHidden", "chat_hidden".into(), m),
            other => panic!("unexpected message {other} on a table's socket: {m}"),
        }
    }

    /// Keeps a message of the lobby's socket.
    fn lobby(&mut self, m: &Value) {
        let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
        match m["type"].as_str().unwrap_or_default() {
            "snapshot" => {
                let n = m["tables"].as_array().map_or(0, Vec::len);
                self.keep("LobbySnapshot", format!("snapshot: {n} table(s)"), m)
            }
            "table" => self.keep("LobbyTable", format!("table: {}", text(&m["change"])), m),
            "removed" => self.keep("LobbyRemoved", format!("removed: {}", text(&m["reason"])), m),
            "error" => self.keep("Error", format!("error: {}", text(&m["code"])), m),
            "pong" => self.keep("Pong", "pong".into(), m),
            other => panic!("unexpected message {other} on the lobby's socket: {m}"),
        }
    }

    /// As asyncapi/examples.json holds it: message name → `[{name, payload}]`.
    fn to_json(&self) -> Value {
        let messages = self.0.iter().map(|(message, examples)| {
            let list: Vec<Value> =
                examples.iter().map(|(name, payload)| json!({"name": name, "payload": payload})).collect();
            (message.clone(), Value::Array(list))
        });
        Value::Object(messages.collect())
    }
}

/// A validator of the payload schema of the document's message `name`.
fn payload_validator(doc: &Value, name: &str) -> jsonschema::Validator {
    let payload = &doc["components"]["messages"][name]["payload"];
    assert_eq!(payload["schemaFormat"], asyncapi::SCHEMA_FORMAT, "{name}");
    let root = json!({
        "$ref": payload["schema"]["$ref"],
        "components": { "schemas": doc["components"]["schemas"] },
    });
    jsonschema::draft202012::new(&root).unwrap_or_else(|e| panic!("{name}: bad schema: {e}"))
}

/// The next message of `ws`, kept; `None` when the socket closed.
async fn next_kept(ws: &mut Ws, game: GameKind, capture: &mut Capture) -> Option<Value> {
    let m = ws.next().await?;
    capture.server(game, &m);
    Some(m)
}

/// Reads `ws` until the reply with `id`, keeping everything on the way.
async fn reply_to(ws: &mut Ws, id: &Value, game: GameKind, capture: &mut Capture) -> Value {
    loop {
        let m = next_kept(ws, game, capture).await.expect("socket open until the reply");
        if m["type"] == "reply" && m["id"] == *id {
            return m;
        }
    }
}

/// A table of `game` from its creation to its finish: a guest joins and leaves, bots fill the
/// other seat, and the host plays over the socket (and sends a stale action, a reclaim, a ping
/// and a message that is not JSON).
async fn play_a_table(s: &TestServer, game: GameKind, capture: &mut Capture) {
    let g = game.type_name();
    let (_, host) = s.player(&format!("{g} host")).await;
    let (_, guest) = s.player(&format!("{g} guest")).await;
    let t = s.table(&host, json!({"game": game.as_str(), "seat_count": 2})).await;
    let id = t["id"].as_str().unwrap().to_string();
    let mut watcher = s.ws(&id, "").await;
    assert_eq!(s.post(&format!("/v1/tables/{id}/join"), Some(&guest), json!({})).await.status, 200);
    assert_eq!(s.post(&format!("/v1/tables/{id}/leave"), Some(&guest), json!({})).await.status, 200);
    let r = s.post(&format!("/v1/tables/{id}/start"), Some(&host), json!({"fill_with_bots": true})).await;
    assert_eq!(r.status, 200, "{g}: {}", r.json);

    let mut ws = s.ws(&id, &format!("token={host}")).await;
    // The lobby's entries, the start, and the host's coming as presence; then the watcher goes
    // (unread, it would fall behind the game and be closed).
    while next_kept(&mut watcher, game, capture).await.expect("the watcher sees the host come")["type"]
        != "presence"
    {}
    watcher.close().await;
    let client = format!("{g}Client");
    for message in [json!({"type": "ping"}), json!({"type": "reclaim", "id": "r1"})] {
        ws.send(message.clone()).await;
        capture.keep(&client, message["type"].as_str().unwrap().to_string(), &message);
    }
    ws.stream.send(Message::Text("not JSON".into())).await.unwrap();
    reply_to(&mut ws, &json!("r1"), game, capture).await;
    // A quick emote in the chat, which a moderator then hides.
    let chat = json!({"type": "chat", "id": "c1", "emote": "good_luck"});
    ws.send(chat.clone()).await;
    capture.keep(&client, "chat".into(), &chat);
    reply_to(&mut ws, &json!("c1"), game, capture).await;
    let (admin_id, admin) = s.player(&format!("{g} admin")).await;
    common::grant_admin(s, &admin_id).await;
    let hide = s.post(&format!("/v1/admin/tables/{id}/chat/1/hide"), Some(&admin), json!({})).await;
    assert_eq!(hide.status, 204, "{}", hide.json);

    let mut sent = 0u64;
    let mut stale_sent = false;
    for _ in 0..20_000 {
        let view = s.table_view(&id, Some(&host)).await;
        if view["status"] == "finished" {
            break;
        }
        let play = &view["play"];
        let legal = play["legal_actions"].as_array().unwrap();
        // Uckers: never resign on purpose.
        let Some(action) = legal.iter().find(|a| a["type"] != "up_board").or(legal.first()) else {
            // The bot's turn: wait for its entry.
            next_kept(&mut ws, game, capture).await.expect("socket open while the game goes on");
            continue;
        };
        let seq = play["seq"].as_i64().unwrap();
        if !stale_sent {
            stale_sent = true;
            let stale = json!({"type": "action", "id": "stale", "seq": seq - 1, "action": action});
            ws.send(stale).await;
            reply_to(&mut ws, &json!("stale"), game, capture).await;
        }
        sent += 1;
        let message = json!({"type": "action", "id": sent, "seq": seq, "action": action});
        ws.send(message.clone()).await;
        capture.keep(&client, "action".into(), &message);
        reply_to(&mut ws, &json!(sent), game, capture).await;
    }
    loop {
        let m = next_kept(&mut ws, game, capture).await.expect("the host's socket sees the finish");
        if m["type"] == "entry" && m["action"]["type"] == "finish" {
            break;
        }
    }
    ws.close().await;
}

/// Reads what the lobby's socket holds (briefly: it is read between games, so that it answers
/// the server's pings); returns how many tables finished.
async fn drain_lobby(lobby: &mut Ws, capture: &mut Capture) -> usize {
    let mut finished = 0;
    while let Ok(m) = tokio::time::timeout(std::time::Duration::from_millis(200), lobby.next()).await {
        let m = m.expect("the lobby socket stays open");
        capture.lobby(&m);
        finished += usize::from(m["type"] == "removed" && m["reason"] == "finished");
    }
    finished
}

/// Plays a table of each game and follows the lobby meanwhile: every message of the document
/// is met, and each validates against its message's schema. With `UPDATE_EXAMPLES=1` the
/// capture becomes asyncapi/examples.json.
#[tokio::test]
async fn every_message_kind_of_the_document_is_met_in_real_games() {
    let s = TestServer::start(Db::Sqlite).await;
    let mut capture = Capture::default();
    let mut lobby = s.lobby_ws("").await;
    let empty = lobby.next().await.expect("the snapshot");
    lobby.send(json!({"type": "ping"})).await;
    capture.keep("Ping", "ping".into(), &json!({"type": "ping"}));
    lobby.send(json!({"type": "action"})).await;

    capture.lobby(&empty);
    let mut finished = 0;
    for (i, &game) in GameKind::ALL.iter().enumerate() {
        play_a_table(&s, game, &mut capture).await;
        finished += drain_lobby(&mut lobby, &mut capture).await;
        if i == 0 {
            // A snapshot with a table in it (the first table has finished: open a new one).
            let (_, host) = s.player("Lobby host").await;
            s.table(&host, json!({"game": "luddo", "seat_count": 4})).await;
            let mut second = s.lobby_ws("limit=5").await;
            capture.lobby(&second.next().await.expect("the snapshot"));
            second.close().await;
        }
    }
    while finished < GameKind::ALL.len() {
        let m = lobby.next().await.expect("the lobby socket stays open");
        capture.lobby(&m);
        finished += usize::from(m["type"] == "removed" && m["reason"] == "finished");
    }
    lobby.close().await;

    let doc = asyncapi::document();
    for kind in asyncapi::messages() {
        let examples = capture.0.get(&kind.name).unwrap_or_else(|| panic!("no {} was met", kind.name));
        let validator = payload_validator(doc, &kind.name);
        for (name, payload) in examples {
            let errors: Vec<String> = validator.iter_errors(payload).map(|e| e.to_string()).collect();
            assert!(errors.is_empty(), "{} ({name}) breaks its schema: {errors:?}\n{payload}", kind.name);
        }
    }
    if std::env::var_os("UPDATE_EXAMPLES").is_some() {
        let mut text = serde_json::to_string_pretty(&capture.to_json()).unwrap();
        text.push('\n');
        std::fs::write(EXAMPLES, text).unwrap();
    }
}

/// Every message of the served document carries at least one example (from
/// asyncapi/examples.json), each valid against the message's payload schema, and the file has
/// no example of a message the document does not list.
#[test]
fn every_message_has_an_example_valid_against_its_schema() {
    let doc = asyncapi::document();
    let file: Value = serde_json::from_str(&std::fs::read_to_string(EXAMPLES).unwrap()).unwrap();
    let kinds = asyncapi::messages();
    for name in file.as_object().unwrap().keys() {
        assert!(kinds.iter().any(|k| &k.name == name), "asyncapi/examples.json has {name}, not a message");
    }
    for kind in kinds {
        let message = &doc["components"]["messages"][&kind.name];
        let examples = message["examples"].as_array().unwrap_or_else(|| {
            panic!("{} has no example: UPDATE_EXAMPLES=1 cargo test --test asyncapi", kind.name)
        });
        assert!(!examples.is_empty(), "{}", kind.name);
        let validator = payload_validator(doc, &kind.name);
        for example in examples {
            let errors: Vec<String> =
                validator.iter_errors(&example["payload"]).map(|e| e.to_string()).collect();
            assert!(errors.is_empty(), "{} ({}): {errors:?}", kind.name, example["name"]);
        }
    }
}

/// asyncapi/asyncapi.json is what `GET /asyncapi.json` serves.
#[tokio::test]
async fn the_checked_in_asyncapi_document_is_the_served_one() {
    let s = TestServer::start(Db::Sqlite).await;
    let served = s.client.get(format!("{}/asyncapi.json", s.base)).send().await.unwrap();
    assert_eq!(served.status(), 200);
    assert_eq!(served.headers()["content-type"], "application/json");
    let served = served.text().await.unwrap();
    assert_eq!(serde_json::from_str::<Value>(&served).unwrap(), *asyncapi::document());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/asyncapi/asyncapi.json");
    let checked_in = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        checked_in == served,
        "asyncapi/asyncapi.json is not the served document; regenerate it: cargo run -q --bin luddo -- asyncapi > asyncapi/asyncapi.json"
    );
}
