//! The served spec (`GET /openapi.json`, `luddo::api::openapi::spec`) as the tests see it: every
//! response a test receives is validated against the schema the spec documents for its path,
//! method and status, and every WebSocket message against its game's schema of that message
//! (`LuddoEntryMessage`, …), the game read from the tables the test's responses showed.

use super::Resp;
use luddo::games::GameKind;
use reqwest::Method;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The spec as the server serves it.
pub fn spec() -> &'static Value {
    luddo::api::openapi::spec()
}

/// The game of every table a response has shown, by table id: what a WebSocket message of the
/// table is checked against.
fn games_of_tables() -> &'static Mutex<HashMap<String, String>> {
    static GAMES: OnceLock<Mutex<HashMap<String, String>>> = OnceLock::new();
    GAMES.get_or_init(Default::default)
}

/// Remembers the game of each table in a response body (a table, or a page of them).
fn note_tables(body: &Value) {
    let tables = match body.get("tables").and_then(Value::as_array) {
        Some(page) => page.iter().collect(),
        None => vec![body],
    };
    let mut games = games_of_tables().lock().unwrap_or_else(|e| e.into_inner());
    for table in tables {
        if let (Some(id), Some(game)) = (table["id"].as_str(), table["game"].as_str()) {
            games.insert(id.to_string(), game.to_string());
        }
    }
}

/// The game of table `id`, if a response has shown it.
pub fn game_of_table(id: &str) -> Option<String> {
    games_of_tables().lock().unwrap_or_else(|e| e.into_inner()).get(id).cloned()
}

/// The spec's path template matching a concrete path (`/v1/tables/abc` → `/v1/tables/{id}`).
pub fn template_for(path: &str) -> Option<String> {
    let path = path.split('?').next().unwrap_or(path);
    let segments: Vec<&str> = path.split('/').collect();
    let paths = spec()["paths"].as_object()?;
    // Prefer literal matches over parameters (`/players/me` over `/players/{id}`).
    let mut best: Option<(usize, &String)> = None;
    for template in paths.keys() {
        let parts: Vec<&str> = template.split('/').collect();
        if parts.len() != segments.len() {
            continue;
        }
        let mut literal = 0;
        let fits = parts.iter().zip(&segments).all(|(t, s)| {
            if t.starts_with('{') {
                true
            } else {
                literal += 1;
                t == s
            }
        });
        if fits && best.is_none_or(|(n, _)| literal > n) {
            best = Some((literal, template));
        }
    }
    best.map(|(_, t)| t.clone())
}

/// Resolves a local `$ref` (`#/components/...`) once.
pub fn resolve(v: &Value) -> &Value {
    match v.get("$ref").and_then(Value::as_str) {
        Some(r) => {
            let pointer = r.trim_start_matches('#');
            spec().pointer(pointer).unwrap_or_else(|| panic!("dangling $ref {r}"))
        }
        None => v,
    }
}

/// A JSON Schema for `schema` whose `#/components/...` references resolve against the spec.
pub fn compile(schema: &Value) -> jsonschema::Validator {
    let mut root = schema.clone();
    if let Some(obj) = root.as_object_mut() {
        obj.insert("components".into(), spec()["components"].clone());
    } else {
        root = json!({ "allOf": [schema], "components": spec()["components"] });
    }
    jsonschema::draft202012::new(&root).unwrap_or_else(|e| panic!("bad schema {schema}: {e}"))
}

/// [`compile`]d once per schema: the per-game schemas make compiling one cost more than a
/// test's request.
pub fn cached(schema: &Value) -> &'static jsonschema::Validator {
    static VALIDATORS: OnceLock<Mutex<HashMap<String, &'static jsonschema::Validator>>> = OnceLock::new();
    let validators = VALIDATORS.get_or_init(Default::default);
    let key = schema.to_string();
    if let Some(validator) = validators.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return validator;
    }
    // Compiled without the lock, so that one test's compiling never stalls another's thread
    // (and the server it runs); two may compile the same schema once each.
    let compiled: &'static jsonschema::Validator = Box::leak(Box::new(compile(schema)));
    validators.lock().unwrap_or_else(|e| e.into_inner()).entry(key).or_insert(compiled)
}

/// The documented response for a call, if the spec has the path, method and status.
pub fn documented_response(method: &Method, path: &str, status: u16) -> Result<Value, String> {
    let template = template_for(path).ok_or_else(|| format!("{path} is not in the spec"))?;
    let op = &spec()["paths"][&template][method.as_str().to_ascii_lowercase()];
    if op.is_null() {
        return Err(format!("{method} {template} is not in the spec"));
    }
    let response = &op["responses"][status.to_string()];
    if response.is_null() {
        return Err(format!("{method} {template} does not document status {status}"));
    }
    Ok(resolve(response).clone())
}

/// Panics unless `resp` is documented and its body fits the documented schema.
#[track_caller]
pub fn check_response(method: &Method, path: &str, resp: &Resp) {
    let response = documented_response(method, path, resp.status.as_u16())
        .unwrap_or_else(|e| panic!("{e}: {}", resp.json));
    let content = &response["content"];
    if content.is_null() {
        assert!(resp.json.is_null(), "{method} {path}: undocumented body {}", resp.json);
        return;
    }
    let ct = resp.headers.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default();
    let media_types = content.as_object().expect("media types");
    let (media, body) = media_types
        .iter()
        .find(|(media, _)| *media == "*/*" || ct.starts_with(media.as_str()))
        .unwrap_or_else(|| panic!("{method} {path}: content-type {ct}, the spec says one of {content}"));
    let media = media.as_str();
    if !media.contains("json") || media.contains("ndjson") {
        return; // a page, a file of the reference or a stream of lines: no one JSON to check
    }
    let validator = cached(&body["schema"]);
    if let Err(e) = validator.validate(&resp.json) {
        panic!("{method} {path} {}: response breaks the spec: {e}\n{}", resp.status, resp.json);
    }
    if path.starts_with("/v1/tables") || path.starts_with("/v1/invites") {
        note_tables(&resp.json);
    }
}

/// Checks a WebSocket message from the server against the spec's schema for its `type`
/// (`EntryMessage`, `PresenceMessage`, `ReplyMessage`, `ErrorMessage`, `PongMessage`; the
/// lobby stream's `LobbySnapshotMessage`, `LobbyTableMessage`, `LobbyRemovedMessage`): the
/// schema of `game` (`LuddoEntryMessage`, …) where the message depends on the game and the
/// game is known, else the union of every game's.
pub fn check_ws_message(message: &Value, game: Option<&str>) {
    let kind = message["type"].as_str().unwrap_or_default();
    let name = match kind {
        "entry" => "EntryMessage",
        "presence" => "PresenceMessage",
        "reply" => "ReplyMessage",
        "error" => "ErrorMessage",
        "pong" => "PongMessage",
        "chat" => "ChatSocketMessage",
        "chat_hidden" => "ChatHiddenMessage",
        "snapshot" => "LobbySnapshotMessage",
        "table" => "LobbyTableMessage",
        "removed" => "LobbyRemovedMessage",
        _ => panic!("undocumented WebSocket message {message}"),
    };
    let schemas = &spec()["components"]["schemas"];
    let per_game = game.and_then(GameKind::parse).map(|g| format!("{}{name}", g.type_name()));
    let name = per_game.filter(|n| schemas.get(n).is_some()).unwrap_or_else(|| name.to_string());
    let validator = cached(&json!({"$ref": format!("#/components/schemas/{name}")}));
    if let Err(e) = validator.validate(message) {
        panic!("WebSocket message breaks the spec's {name} ({e}): {message}");
    }
}
