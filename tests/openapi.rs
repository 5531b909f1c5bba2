//! The served spec (`GET /openapi.json`) and the router agree: the same routes and methods, and
//! the spec's examples fit its own schemas and the real responses; openapi/openapi.json is the
//! served spec.

mod common;

use common::{Db, TestServer, spec};
use luddo::games::GameKind;
use reqwest::Method;
use serde_json::{Value, json};
use std::collections::BTreeSet;

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

/// The paths the application's router serves, read from the router itself. axum keeps no public
/// list of them, but a router's `Debug` shows its path router's table of paths
/// (`path_router: PathRouter { …, node: Node { paths: {RouteId(0): "/health", …} } }`), which
/// is what requests are matched against. Should that format change, this finds no paths and
/// [`router_and_spec_have_the_same_routes`] fails saying so, never silently.
fn router_paths(s: &TestServer) -> BTreeSet<String> {
    let router = luddo::router(luddo::AppState::new(s.store.clone(), s.config.clone()));
    let debug = format!("{router:?}");
    // The path router's table only: the fallback router has catch-all paths of its own.
    let path_router = debug.split("fallback_router").next().unwrap_or_default();
    let Some((_, table)) = path_router.split_once("paths: {") else { return BTreeSet::new() };
    table.split('"').skip(1).step_by(2).filter(|p| p.starts_with('/')).map(|p| p.replace("{*", "{")).collect()
}

/// `path` with each `{parameter}` filled in, as a request would name it.
fn concrete(path: &str, some_id: &str) -> String {
    path.replace("{id}", some_id).replace("{code}", "ABC").replace("{file}", "init.js")
}

/// The status the running server answers `method` on `path` with (any body, no token).
async fn status_of(s: &TestServer, method: &str, path: &str) -> (u16, Value) {
    let method = Method::from_bytes(method.to_ascii_uppercase().as_bytes()).unwrap();
    let r = s.client.request(method, format!("{}{path}", s.base)).send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// Every route the router serves, as (METHOD, path): the paths from the router, the methods by
/// asking the running server (a path it serves answers a method it does not with 405).
async fn routes_served(s: &TestServer) -> BTreeSet<(String, String)> {
    let some_id = uuid::Uuid::new_v4().to_string();
    let mut routes = BTreeSet::new();
    for path in router_paths(s) {
        for m in METHODS {
            if status_of(s, m, &concrete(&path, &some_id)).await.0 != 405 {
                routes.insert((m.to_ascii_uppercase(), path.clone()));
            }
        }
    }
    routes
}

fn routes_in_spec() -> BTreeSet<(String, String)> {
    let mut routes = BTreeSet::new();
    for (path, item) in spec::spec()["paths"].as_object().unwrap() {
        for m in METHODS {
            if item.get(m).is_some() {
                routes.insert((m.to_ascii_uppercase(), path.clone()));
            }
        }
    }
    routes
}

#[tokio::test]
async fn router_and_spec_have_the_same_routes() {
    let s = TestServer::start(Db::Sqlite).await;
    let served = routes_served(&s).await;
    let spec = routes_in_spec();
    assert!(served.len() >= 10, "found the routes in the router's Debug output: {served:?}");
    let undocumented: Vec<_> = served.difference(&spec).collect();
    let unserved: Vec<_> = spec.difference(&served).collect();
    assert!(undocumented.is_empty(), "routes missing from the spec: {undocumented:?}");
    assert!(unserved.is_empty(), "the spec documents routes the router lacks: {unserved:?}");
}

/// From the spec's side: every documented route is served (never the 404/405 fallbacks), and
/// methods the spec does not list get 405.
#[tokio::test]
async fn every_documented_route_is_served_and_no_other_method() {
    let s = TestServer::start(Db::Sqlite).await;
    let some_id = uuid::Uuid::new_v4().to_string();
    for (path, item) in spec::spec()["paths"].as_object().unwrap() {
        for m in METHODS {
            let (status, body) = status_of(&s, m, &concrete(path, &some_id)).await;
            if item.get(m).is_some() {
                assert_ne!(status, 405, "{m} {path} is documented but not routed");
                assert_ne!(body["detail"], "no such route", "{m} {path} is documented but not routed");
            } else {
                assert_eq!(status, 405, "{m} {path} answers {status} but is not documented");
            }
        }
    }
}

/// openapi/openapi.json is what the server serves at `/openapi.json`, byte for byte. After
/// changing openapi/base.yaml or a game's types: `cargo run -- openapi > openapi/openapi.json`.
#[tokio::test]
async fn the_checked_in_spec_is_the_served_one() {
    let s = TestServer::start(Db::Sqlite).await;
    let served = s.client.get(format!("{}/openapi.json", s.base)).send().await.unwrap();
    assert_eq!(served.status(), 200);
    assert_eq!(served.headers()["content-type"], "application/json");
    let served = served.text().await.unwrap();
    assert_eq!(serde_json::from_str::<Value>(&served).unwrap(), *spec::spec());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let checked_in = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        checked_in == served,
        "openapi/openapi.json is not the served spec; regenerate it: cargo run -- openapi > openapi/openapi.json"
    );
}

/// `/docs` is the interactive reference, its script and styles served by the binary itself
/// (no CDN), reading the served spec.
#[tokio::test]
async fn the_reference_is_served_from_the_binary() {
    let s = TestServer::start(Db::Sqlite).await;
    let get = |path: &str| s.client.get(format!("{}{path}", s.base)).send();
    let page = get("/docs").await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    let page = page.text().await.unwrap();
    assert!(!page.contains("https://"), "the page loads nothing from elsewhere");
    for (file, kind) in [
        ("swagger-ui-bundle.js", "text/javascript"),
        ("swagger-ui.css", "text/css"),
        ("init.js", "text/javascript"),
    ] {
        assert!(page.contains(&format!("/docs/{file}")), "{file} is on the page");
        let r = get(&format!("/docs/{file}")).await.unwrap();
        assert_eq!(r.status(), 200, "{file}");
        assert_eq!(r.headers()["content-type"], kind, "{file}");
        let body = r.text().await.unwrap();
        assert!(!body.is_empty(), "{file}");
        if file == "init.js" {
            assert!(body.contains("\"/openapi.json\""), "the reference reads the served spec");
        }
    }
    let missing = get("/docs/nothing.js").await.unwrap();
    assert_eq!(missing.status(), 404);
    assert_eq!(missing.json::<Value>().await.unwrap()["code"], "not_found");
}

/// The spec's `Game` enum is the games' registry (`luddo::games`), in its order.
#[test]
fn the_spec_lists_the_registered_games() {
    let in_spec: Vec<&str> = spec::spec()["components"]["schemas"]["Game"]["enum"]
        .as_array()
        .expect("components.schemas.Game.enum")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let registered: Vec<&str> = GameKind::ALL.iter().map(|g| g.as_str()).collect();
    assert_eq!(in_spec, registered);
}

fn examples_of(media: &Value) -> Vec<Value> {
    let mut out = vec![];
    if let Some(e) = media.get("example") {
        out.push(e.clone());
    }
    if let Some(es) = media.get("examples").and_then(Value::as_object) {
        out.extend(es.values().map(|e| spec::resolve(e)["value"].clone()));
    }
    out
}

#[test]
fn every_example_fits_its_schema() {
    let mut checked = 0;
    for (path, item) in spec::spec()["paths"].as_object().unwrap() {
        for m in METHODS {
            let Some(op) = item.get(m) else { continue };
            let mut media = vec![];
            if let Some(c) = op.pointer("/requestBody/content").and_then(Value::as_object) {
                media.extend(c.values().cloned());
            }
            for response in op["responses"].as_object().into_iter().flat_map(|r| r.values()) {
                if let Some(c) = spec::resolve(response)["content"].as_object() {
                    media.extend(c.values().cloned());
                }
            }
            for mt in media {
                let validator = spec::compile(&mt["schema"]);
                for example in examples_of(&mt) {
                    if let Err(e) = validator.validate(&example) {
                        panic!("{m} {path}: example breaks its schema: {e}\n{example}");
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 8, "checked {checked} examples");
}

/// The JSON type of every key, recursively: what "same shape" means below.
fn shape(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), shape(v))).collect()),
        Value::Array(a) => json!([a.first().map(shape)]),
        Value::String(_) => json!("string"),
        Value::Number(_) => json!("number"),
        Value::Bool(_) => json!("bool"),
        Value::Null => json!("null"),
    }
}

/// The examples of the main success responses have the same shape as what the server answers
/// in the same situation.
#[tokio::test]
async fn examples_match_real_responses() {
    let s = TestServer::start(Db::Sqlite).await;
    let example = |path: &str, method: &str, status: &str| -> Value {
        let op = &spec::spec()["paths"][path][method]["responses"][status];
        examples_of(&spec::resolve(op)["content"]["application/json"])[0].clone()
    };
    let created = s.post("/v1/players", None, json!({"name": "Ann"})).await;
    assert_eq!(shape(&created.json), shape(&example("/v1/players", "post", "201")));
    let token = created.json["token"].as_str().unwrap();
    let me = s.get("/v1/players/me", Some(token)).await;
    assert_eq!(shape(&me.json), shape(&example("/v1/players/me", "get", "200")));
    // As in the example: the host commits its seat's dice chain (fresh dice) with the table.
    let table =
        s.table(token, json!({"game": "luddo", "seat_count": 4, "dice_chain": "ab".repeat(32)})).await;
    assert_eq!(shape(&table), shape(&example("/v1/tables", "post", "201")));
    let health = s.get("/health", None).await;
    assert_eq!(health.json, example("/health", "get", "200"));
}

/// The spec lists exactly the error codes the server has (`ErrorCode`): every code in
/// `Problem.code` (generated) or in the WebSocket `ErrorMessage.code` (written in
/// openapi/base.yaml), and nothing else there.
#[test]
fn spec_lists_exactly_the_error_codes() {
    use luddo::api::error::ErrorCode;
    let listed = |schema: &str| -> BTreeSet<String> {
        let codes = spec::spec()["components"]["schemas"][schema]["properties"]["code"]["enum"].clone();
        let codes = codes.as_array().unwrap_or_else(|| panic!("{schema}.code has an enum"));
        codes.iter().map(|c| c.as_str().unwrap().to_string()).collect()
    };
    let problem = listed("Problem");
    let websocket = listed("ErrorMessage");
    assert!(problem.is_disjoint(&websocket), "codes in both Problem and ErrorMessage");
    let spec: BTreeSet<String> = problem.union(&websocket).cloned().collect();
    let source: BTreeSet<String> = ErrorCode::ALL.iter().map(|c| c.as_str().to_string()).collect();
    let undocumented: Vec<_> = source.difference(&spec).collect();
    let unknown: Vec<_> = spec.difference(&source).collect();
    assert!(undocumented.is_empty(), "error codes missing from the spec: {undocumented:?}");
    assert!(unknown.is_empty(), "the spec lists codes ErrorCode lacks: {unknown:?}");
}

/// The per-game schemas are strict: a real entry of one game fits its game's entry schema, not
/// another game's, and not with a field its event does not have; the table view likewise.
#[tokio::test]
async fn an_entry_fits_its_own_games_schema_only() {
    let s = TestServer::start(Db::Sqlite).await;
    let (id, tokens) = common::seated_table(&s, "luddo", 2, json!({})).await;
    let mut ws = s.ws(&id, &format!("token={}", tokens[0])).await;
    let entry = ws.entry_where(|e| e["events"].as_array().is_some_and(|e| !e.is_empty())).await;
    let fits = |name: &str, value: &Value| {
        spec::cached(&json!({"$ref": format!("#/components/schemas/{name}")})).is_valid(value)
    };
    assert!(fits("LuddoEntryMessage", &entry), "{entry}");
    assert!(fits("EntryMessage", &entry), "{entry}");
    assert!(!fits("BackgammonEntryMessage", &entry), "{entry}");
    let mut extra = entry.clone();
    extra["events"][0]["surprise"] = json!(1);
    assert!(!fits("LuddoEntryMessage", &extra), "an unknown event field is refused: {extra}");

    let table = s.table_view(&id, Some(&tokens[0])).await;
    assert!(fits("LuddoTable", &table) && fits("Table", &table), "{table}");
    assert!(!fits("UckersTable", &table), "{table}");
    let mut state = table.clone();
    state["play"]["state"]["surprise"] = json!(true);
    assert!(!fits("Table", &state), "an unknown state field is refused");
}

/// The served spec names the origin that serves it (a relative server URL), so `/docs`'s "Try it
/// out" calls the server the reader is on, not a fixed `127.0.0.1:8080`.
#[tokio::test]
async fn the_reference_tries_requests_on_the_server_that_serves_it() {
    let servers = spec::spec()["servers"].as_array().expect("servers").clone();
    assert_eq!(servers.len(), 1, "{servers:?}");
    let url = servers[0]["url"].as_str().expect("a server URL");
    assert!(url.starts_with('/'), "the server URL is relative to the serving origin: {url}");
}

/// openapi/base.yaml reads as its author meant: in a flow mapping (`{ type: …, description: … }`)
/// a comma ends the value, so a description with a comma in it, unquoted, turned its tail into
/// a key of its own (`the ones the player's seat won.: null`), and the schema grew a keyword no
/// one wrote. Outside examples, no key holds white space and no value is null.
#[test]
fn base_yaml_has_no_keys_made_of_description_fragments() {
    fn walk(value: &Value, path: &str, in_example: bool, found: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (key, value) in map {
                    let here = format!("{path}/{key}");
                    let example = in_example
                        || ["example", "examples", "default", "const", "enum"].contains(&key.as_str());
                    if !example && (key.contains(char::is_whitespace) || value.is_null()) {
                        found.push(here.clone());
                    }
                    walk(value, &here, example, found);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, &format!("{path}/{i}"), in_example, found);
                }
            }
            _ => {}
        }
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/base.yaml");
    let base: Value =
        serde_norway::from_str(&std::fs::read_to_string(path).unwrap()).expect("base.yaml is YAML");
    let mut found = vec![];
    walk(&base, "", false, &mut found);
    assert!(
        found.is_empty(),
        "keys that look like pieces of a description (quote the description):\n{}",
        found.join("\n")
    );
}

/// The server takes exactly the cursors the spec's `Cursor` schema allows: a cursor the spec
/// refuses (19 digits, a `+`, a UUID in another spelling) is a 400 `invalid_query`, never a
/// page a client generated from the spec could not have asked for.
#[tokio::test]
async fn the_server_refuses_exactly_the_cursors_the_spec_refuses() {
    let s = TestServer::start(Db::Sqlite).await;
    let schema = spec::compile(&json!({ "$ref": "#/components/schemas/Cursor" }));
    let id = "0f8fad5b-d9cb-469f-a165-70867728950e";
    let cursors = [
        String::new(),
        format!("1_{id}"),
        format!("-5_{id}"),
        format!("{}_{id}", "9".repeat(18)),
        format!("{}_{id}", "1".repeat(19)),
        format!("+5_{id}"),
        format!("5_{}", id.replace('-', "")),
        format!("5_{{{id}}}"),
        format!("5_urn:uuid:{id}"),
        format!("_{id}"),
        "5_".to_string(),
    ];
    for cursor in cursors {
        let allowed = schema.is_valid(&json!(cursor));
        let encoded: String = cursor.bytes().map(|b| format!("%{b:02X}")).collect();
        let r =
            s.client.get(format!("{}/v1/leaderboards/luddo?cursor={encoded}", s.base)).send().await.unwrap();
        let status = r.status().as_u16();
        assert_eq!(status, if allowed { 200 } else { 400 }, "cursor {cursor:?} (spec allows it: {allowed})");
        if !allowed {
            assert_eq!(r.json::<Value>().await.unwrap()["code"], "invalid_query", "{cursor:?}");
        }
    }
}

/// docs/records.md names the actors an entry can have as the spec's entry messages (`LuddoEntryMessage`, …) list
/// them (it once said `player`, `bot` or `server`, which no entry carries).
#[test]
fn the_records_doc_names_the_actors_entries_carry() {
    let actors: Vec<String> =
        spec::spec()["components"]["schemas"]["LuddoEntryMessage"]["properties"]["actor"]["enum"]
            .as_array()
            .expect("LuddoEntryMessage.actor.enum")
            .iter()
            .map(|a| format!("`{}`", a.as_str().unwrap()))
            .collect();
    assert!(actors.len() >= 5, "{actors:?}");
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/records.md")).unwrap();
    let line = doc.lines().find(|l| l.contains("`actor` (")).expect("docs/records.md describes `actor`");
    let named: Vec<&str> =
        line.split('`').skip(1).step_by(2).filter(|w| *w != "seat" && *w != "actor").collect();
    let named: Vec<String> = named.iter().map(|w| format!("`{w}`")).collect();
    assert_eq!(named, actors, "docs/records.md: {line}");
}
