//! openapi/openapi.yaml as the tests see it: every response a test receives is validated against
//! the schema the spec documents for its path, method and status.

use super::Resp;
use reqwest::Method;
use serde_json::{Value, json};
use std::sync::OnceLock;

/// The spec as JSON.
pub fn spec() -> &'static Value {
    static SPEC: OnceLock<Value> = OnceLock::new();
    SPEC.get_or_init(|| {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.yaml"))
            .expect("read openapi/openapi.yaml");
        serde_yaml::from_str(&text).expect("openapi.yaml parses")
    })
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

/// The documented response for a call, if the spec has the path, method and status.
pub fn documented_response(method: &Method, path: &str, status: u16) -> Result<Value, String> {
    let template = template_for(path).ok_or_else(|| format!("{path} is not in openapi.yaml"))?;
    let op = &spec()["paths"][&template][method.as_str().to_ascii_lowercase()];
    if op.is_null() {
        return Err(format!("{method} {template} is not in openapi.yaml"));
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
    let (media, body) = content.as_object().and_then(|c| c.iter().next()).expect("one media type");
    let ct = resp.headers.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default();
    assert!(ct.starts_with(media.as_str()), "{method} {path}: content-type {ct}, spec says {media}");
    let validator = compile(&body["schema"]);
    if let Err(e) = validator.validate(&resp.json) {
        panic!("{method} {path} {}: response breaks the spec: {e}\n{}", resp.status, resp.json);
    }
}

/// Checks a WebSocket message from the server against the spec's schema for its `type`
/// (`EntryMessage`, `PresenceMessage`, `ReplyMessage`, `ErrorMessage`, `PongMessage`; the
/// lobby stream's `LobbySnapshotMessage`, `LobbyTableMessage`, `LobbyRemovedMessage`).
pub fn check_ws_message(message: &Value) {
    static VALIDATORS: OnceLock<std::collections::HashMap<&'static str, jsonschema::Validator>> =
        OnceLock::new();
    let validators = VALIDATORS.get_or_init(|| {
        [
            ("entry", "EntryMessage"),
            ("presence", "PresenceMessage"),
            ("reply", "ReplyMessage"),
            ("error", "ErrorMessage"),
            ("pong", "PongMessage"),
            ("snapshot", "LobbySnapshotMessage"),
            ("table", "LobbyTableMessage"),
            ("removed", "LobbyRemovedMessage"),
        ]
        .into_iter()
        .map(|(kind, name)| (kind, compile(&json!({"$ref": format!("#/components/schemas/{name}")}))))
        .collect()
    });
    let kind = message["type"].as_str().unwrap_or_default();
    let validator =
        validators.get(kind).unwrap_or_else(|| panic!("undocumented WebSocket message {message}"));
    if let Err(e) = validator.validate(message) {
        panic!("WebSocket message breaks the spec ({e}): {message}");
    }
}
