//! The WebSocket protocols as an AsyncAPI 3.0 document: `GET /asyncapi.json`.
//!
//! Built from the served OpenAPI document ([`openapi::spec`]), not written twice: its component
//! schemas become this document's `components.schemas` as they are, each channel's description
//! and query parameters are its path's, and every message's payload refers to one of those
//! schemas. The document describes the server: `send` operations are what it sends (entries,
//! replies, presence, errors, pongs, lobby messages), `receive` ones what clients send it.
//!
//! Messages whose schema depends on the game are one message per game (`LuddoEntry` with
//! `LuddoEntryMessage`, `LuddoReply`, `LuddoClient`, …), the others shared (`Presence`,
//! `Error`, `Pong`, `Ping`, `LobbySnapshot`, `LobbyTable`, `LobbyRemoved`).
//!
//! The schemas are OpenAPI 3.1's dialect (JSON Schema 2020-12), but the payloads declare
//! `application/schema+json;version=draft-07`: @asyncapi/parser 3 validates draft-07 schemas
//! and accepts a 2020-12 one unchecked, and the keywords these schemas use (`const`, `oneOf`,
//! `anyOf`, `enum`, `format`, …) mean the same in both. `components.schemas` is read in
//! AsyncAPI's own schema format (draft-07 and a few keywords more), whose `discriminator` is
//! the property's name: OpenAPI's `{propertyName, mapping}` object is written so there.
//!
//! The examples are real messages captured from games played against bots over real
//! WebSockets (`tests/asyncapi.rs`, which writes asyncapi/examples.json with
//! `UPDATE_EXAMPLES=1` and checks that every message has one and that each validates).
//! asyncapi/asyncapi.json is this document written out (`luddo asyncapi`).

use super::{openapi, state::AppState};
use crate::games::GameKind;
use axum::{Router, http::header, routing::get};
use serde_json::{Map, Value, json};
use std::sync::LazyLock;

/// Real messages, keyed by this document's message names (see the module docs).
const EXAMPLES: &str = include_str!("../../asyncapi/examples.json");

/// The schema format every payload declares (see the module docs for why draft-07).
pub const SCHEMA_FORMAT: &str = "application/schema+json;version=draft-07";

const TABLE_PATH: &str = "/v1/tables/{id}/events";
const LOBBY_PATH: &str = "/v1/lobby/events";

/// A message of the document: its name, the component schema of its payload and a summary.
pub struct MessageKind {
    pub name: String,
    pub schema: String,
    pub summary: String,
}

/// Who sends a message.
#[derive(Clone, Copy, PartialEq, Eq)]
enum From {
    Server,
    Client,
}

/// The messages of a table's socket, with who sends each.
fn table_messages() -> Vec<(From, MessageKind)> {
    let mut out = vec![];
    for &game in GameKind::ALL {
        let g = game.type_name();
        let kinds = [
            (From::Server, "Entry", "EntryMessage", "a log entry of the table, with the state after it"),
            (
                From::Server,
                "Reply",
                "ReplyMessage",
                "the answer to the client's action, reclaim or chat message",
            ),
            (From::Client, "Client", "ClientMessage", "an action, a reclaim, a chat message or a ping"),
        ];
        for (from, suffix, schema, summary) in kinds {
            out.push((
                from,
                MessageKind {
                    name: format!("{g}{suffix}"),
                    schema: format!("{g}{schema}"),
                    summary: format!("{g}: {summary}."),
                },
            ));
        }
    }
    out.extend([
        (From::Server, shared("Presence", "PresenceMessage", "A seat's player came or went.")),
        (From::Server, shared("Chat", "ChatSocketMessage", "A message of the table's chat.")),
        (From::Server, shared("ChatHidden", "ChatHiddenMessage", "A moderator hid a chat message.")),
        (From::Server, shared("Error", "ErrorMessage", "The client's message could not be read.")),
        (From::Server, shared("Pong", "PongMessage", "The answer to a ping.")),
    ]);
    out
}

/// The messages of the lobby's socket, with who sends each.
fn lobby_messages() -> Vec<(From, MessageKind)> {
    vec![
        (From::Server, shared("LobbySnapshot", "LobbySnapshotMessage", "The open public tables, first.")),
        (From::Server, shared("LobbyTable", "LobbyTableMessage", "A public table appeared or changed.")),
        (From::Server, shared("LobbyRemoved", "LobbyRemovedMessage", "A table left the lobby.")),
        (From::Server, shared("Error", "ErrorMessage", "The client's message was not a ping.")),
        (From::Server, shared("Pong", "PongMessage", "The answer to a ping.")),
        (From::Client, shared("Ping", "PingMessage", "A ping, answered with a pong.")),
    ]
}

fn shared(name: &str, schema: &str, summary: &str) -> MessageKind {
    MessageKind { name: name.into(), schema: schema.into(), summary: summary.into() }
}

/// Every message of the document, once each (`Error` and `Pong` are on both sockets).
pub fn messages() -> Vec<MessageKind> {
    let mut out: Vec<MessageKind> = vec![];
    for (_, kind) in table_messages().into_iter().chain(lobby_messages()) {
        if !out.iter().any(|m| m.name == kind.name) {
            out.push(kind);
        }
    }
    out
}

/// The served document, built once.
pub fn document() -> &'static Value {
    static DOC: LazyLock<Value> = LazyLock::new(|| {
        let examples: Value = serde_json::from_str(EXAMPLES).expect("asyncapi/examples.json is JSON");
        build(openapi::spec(), &examples)
    });
    &DOC
}

/// The served document as sent: pretty JSON with a final newline, as asyncapi/asyncapi.json holds it.
pub fn document_text() -> &'static str {
    static TEXT: LazyLock<String> = LazyLock::new(|| {
        let mut text = serde_json::to_string_pretty(document()).unwrap_or_default();
        text.push('\n');
        text
    });
    &TEXT
}

/// `GET /asyncapi.json`.
pub fn router() -> Router<AppState> {
    Router::new().route(
        "/asyncapi.json",
        get(|| async { ([(header::CONTENT_TYPE, "application/json")], document_text()) }),
    )
}

/// The AsyncAPI document from the OpenAPI one and the examples (message name → examples).
pub fn build(spec: &Value, examples: &Value) -> Value {
    let info = &spec["info"];
    let mut components = Map::new();
    for kind in messages() {
        let mut message = json!({
            "name": kind.name,
            "title": kind.name,
            "summary": kind.summary,
            "contentType": "application/json",
            "payload": {
                "schemaFormat": SCHEMA_FORMAT,
                "schema": { "$ref": format!("#/components/schemas/{}", kind.schema) },
            },
        });
        if let Some(list) = examples[&kind.name].as_array().filter(|l| !l.is_empty()) {
            message["examples"] = Value::Array(list.clone());
        }
        components.insert(kind.name, message);
    }
    let channel = |id: &str, path: &str, kinds: &[(From, MessageKind)]| {
        let operation = &spec["paths"][path]["get"];
        let refs: Map<String, Value> = kinds
            .iter()
            .map(|(_, k)| (k.name.clone(), json!({ "$ref": format!("#/components/messages/{}", k.name) })))
            .collect();
        let mut query = Map::new();
        let mut parameters = Map::new();
        for parameter in operation["parameters"].as_array().into_iter().flatten() {
            let name = parameter["name"].as_str().unwrap_or_default().to_string();
            if parameter["in"] == "query" {
                let mut schema = parameter["schema"].clone();
                if let Some(description) = parameter.get("description") {
                    schema["description"] = description.clone();
                }
                query.insert(name, schema);
            } else if parameter["in"] == "path" {
                let description = parameter["description"].as_str().unwrap_or("The table's id.");
                parameters.insert(name, json!({ "description": description }));
            }
        }
        let mut channel = json!({
            "address": path,
            "title": operation["summary"],
            "description": operation["description"],
            "messages": refs,
            "bindings": { "ws": {
                "method": "GET",
                "query": { "type": "object", "additionalProperties": false, "properties": query },
                "bindingVersion": "0.1.0",
            } },
        });
        if !parameters.is_empty() {
            channel["parameters"] = Value::Object(parameters);
        }
        let operations = [(From::Server, "send", "send"), (From::Client, "receive", "receive")].map(
            |(from, action, verb)| {
                let sent: Vec<Value> = kinds
                    .iter()
                    .filter(|(f, _)| *f == from)
                    .map(|(_, k)| json!({ "$ref": format!("#/channels/{id}/messages/{}", k.name) }))
                    .collect();
                let name = format!("{verb}{}{}", id[..1].to_uppercase(), &id[1..]);
                (name, json!({ "action": action, "channel": { "$ref": format!("#/channels/{id}") }, "messages": sent }))
            },
        );
        (channel, operations)
    };
    let (table, table_ops) = channel("tableEvents", TABLE_PATH, &table_messages());
    let (lobby, lobby_ops) = channel("lobbyEvents", LOBBY_PATH, &lobby_messages());
    let operations: Map<String, Value> = table_ops.into_iter().chain(lobby_ops).collect();
    json!({
        "asyncapi": "3.0.0",
        "info": {
            "title": format!("{} WebSockets", info["title"].as_str().unwrap_or("Luddo")),
            "version": env!("CARGO_PKG_VERSION"),
            "description": "The WebSockets of the Luddo game server: a table's events (`/v1/tables/{id}/events`) \
                and the lobby (`/v1/lobby/events`). JSON text messages both ways. This document describes the \
                server: its `send` operations are what clients receive. The schemas are the HTTP API's \
                (GET /openapi.json), as they are.",
            "license": { "name": info["license"]["name"] },
        },
        "defaultContentType": "application/json",
        "servers": {
            "luddo": {
                "host": "{host}",
                "protocol": "ws",
                "description": "A Luddo server; `wss` behind TLS.",
                "variables": { "host": { "default": "127.0.0.1:8080", "description": "The server's host and port." } },
            },
        },
        "channels": { "tableEvents": table, "lobbyEvents": lobby },
        "operations": operations,
        "components": {
            "schemas": asyncapi_schemas(&spec["components"]["schemas"]),
            "messages": components,
        },
    })
}

/// The OpenAPI document's schemas as AsyncAPI's `components.schemas` takes them: the same but
/// for OpenAPI's `discriminator` object, which AsyncAPI spells as the property's name alone (the
/// `mapping` says nothing more: each member's `game` is a `const`).
fn asyncapi_schemas(schemas: &Value) -> Value {
    fn convert(v: &mut Value) {
        match v {
            Value::Object(o) => {
                if let Some(name) = o.get("discriminator").and_then(|d| d.get("propertyName")).cloned() {
                    o.insert("discriminator".into(), name);
                }
                o.values_mut().for_each(convert);
            }
            Value::Array(a) => a.iter_mut().for_each(convert),
            _ => {}
        }
    }
    let mut schemas = schemas.clone();
    convert(&mut schemas);
    schemas
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `$ref` of the document points at something in it.
    #[test]
    fn every_reference_of_the_asyncapi_document_resolves() {
        fn visit(v: &Value, doc: &Value, dangling: &mut Vec<String>) {
            match v {
                Value::Object(o) => {
                    for (k, x) in o {
                        match (k.as_str(), x) {
                            ("$ref", Value::String(r))
                                if doc.pointer(r.trim_start_matches('#')).is_none() =>
                            {
                                dangling.push(r.clone())
                            }
                            _ => visit(x, doc, dangling),
                        }
                    }
                }
                Value::Array(a) => a.iter().for_each(|x| visit(x, doc, dangling)),
                _ => {}
            }
        }
        let doc = document();
        let mut dangling = vec![];
        visit(doc, doc, &mut dangling);
        assert!(dangling.is_empty(), "dangling references: {dangling:?}");
    }

    /// Each game has its entry, reply and client message on the table's channel.
    #[test]
    fn each_game_has_its_own_table_messages() {
        let doc = document();
        for &game in GameKind::ALL {
            for suffix in ["Entry", "Reply", "Client"] {
                let name = format!("{}{suffix}", game.type_name());
                assert!(doc["channels"]["tableEvents"]["messages"].get(&name).is_some(), "{name}");
            }
        }
    }
}
