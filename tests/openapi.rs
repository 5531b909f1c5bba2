//! openapi/openapi.yaml and the router agree: the same routes and methods, and the spec's
//! examples fit its own schemas and the real responses.

mod common;

use common::{Db, TestServer, spec};
use reqwest::Method;
use serde_json::{Value, json};
use std::collections::BTreeSet;

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

/// Every `.route("path", get(..).post(..))` in src/api, as (METHOD, path).
fn routes_in_source() -> BTreeSet<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/api");
    let mut routes = BTreeSet::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for call in text.split(".route(").skip(1) {
            let path = call.split('"').nth(1).expect("route path literal");
            // The method router runs to the matching close paren of `.route(`.
            let mut depth = 1;
            let end = call.char_indices().find_map(|(i, c)| {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                (depth == 0).then_some(i)
            });
            let methods = &call[..end.unwrap_or(call.len())];
            for m in METHODS {
                let calls = methods.matches(&format!("{m}(")).count();
                let dotted = methods.matches(&format!(".{m}(")).count();
                let bare = methods.matches(&format!(", {m}(")).count();
                if calls > 0 && (dotted + bare) > 0 {
                    routes.insert((m.to_ascii_uppercase(), path.to_string()));
                }
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

#[test]
fn router_and_spec_have_the_same_routes() {
    let source = routes_in_source();
    let spec = routes_in_spec();
    assert!(source.len() >= 10, "found the routes: {source:?}");
    let undocumented: Vec<_> = source.difference(&spec).collect();
    let unserved: Vec<_> = spec.difference(&source).collect();
    assert!(undocumented.is_empty(), "routes missing from openapi.yaml: {undocumented:?}");
    assert!(unserved.is_empty(), "openapi.yaml documents routes the router lacks: {unserved:?}");
}

/// The source scan above is checked by asking the running server: every documented route is
/// served (never the 404/405 fallbacks), and methods the spec does not list get 405.
#[tokio::test]
async fn every_documented_route_is_served_and_no_other_method() {
    let s = TestServer::start(Db::Sqlite).await;
    let some_id = uuid::Uuid::new_v4().to_string();
    for (path, item) in spec::spec()["paths"].as_object().unwrap() {
        let concrete = path.replace("{id}", &some_id).replace("{code}", "ABC");
        for m in METHODS {
            let method = Method::from_bytes(m.to_ascii_uppercase().as_bytes()).unwrap();
            let r = s.client.request(method.clone(), format!("{}{concrete}", s.base)).send().await.unwrap();
            let status = r.status();
            let body: Value = r.json().await.unwrap_or(Value::Null);
            if item.get(m).is_some() {
                assert_ne!(status, 405, "{m} {path} is documented but not routed");
                assert_ne!(body["detail"], "no such route", "{m} {path} is documented but not routed");
            } else {
                assert_eq!(status, 405, "{m} {path} answers {status} but is not documented");
            }
        }
    }
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
    let table = s.table(token, json!({"game": "luddo", "seats": 4})).await;
    assert_eq!(shape(&table), shape(&example("/v1/tables", "post", "201")));
    let health = s.get("/health", None).await;
    assert_eq!(health.json, example("/health", "get", "200"));
}

/// The spec lists exactly the error codes the server has (`ErrorCode`): every code in
/// `Problem.code` or in the WebSocket `ErrorMessage.code`, and nothing else there.
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
    assert!(undocumented.is_empty(), "error codes missing from openapi.yaml: {undocumented:?}");
    assert!(unknown.is_empty(), "openapi.yaml lists codes ErrorCode lacks: {unknown:?}");
}
