//! The contract the server runs: `GET /openapi.json` and its interactive reference at `/docs`.
//!
//! The document is openapi/base.yaml (the paths, the envelope and their prose, written by hand
//! and embedded in the binary) with what the code knows inserted when it is first asked for:
//!
//! - every game's options, actions, events and state, generated from its engine's types
//!   ([`GameKind::schemas`]), as `<Game>Options`, `<Game>Action`, `<Game>Event`, `<Game>State`
//!   (`LuddoAction`, `BackgammonState`, …), and the types they contain as `<Game><Type>`
//!   (`LuddoCapturedPiece`; a name already starting with the game's is kept: `SnakesBoard`);
//! - the envelope made per game. A base schema marked `x-per-game: options|action|event|state`
//!   stands for that part of every game; a base schema that refers to one (directly or through
//!   another) is a template, copied once per game as `<Game><Name>` with those references
//!   pointing to the game's own schemas. The base name then becomes the union of the copies:
//!   a `oneOf` discriminated by `game` where the template has a `game` field (its copies get
//!   `game: {const: …}`; `Table`, `CreateTable`), else an `anyOf` (`EntryMessage`,
//!   `ActionRequest`: the table they belong to says which game). A schema that only refers to
//!   a discriminated one (a page of tables) stays as it is;
//! - the `Game` enum from the games' registry, and `Problem.code` from [`ErrorCode::ALL`] (less
//!   the WebSocket `error` message's own codes, which the base lists);
//! - a 403 answer on every operation that takes a bearer token: a token whose player a
//!   moderator banned is refused with 403 `banned` wherever it is sent.
//!
//! A new game gets all of this from its one row in the `games!` registry. openapi/openapi.json
//! is this document written out (`luddo openapi`; `tests/openapi.rs` fails when it differs).

use super::{error::ApiError, error::ErrorCode, state::AppState};
use crate::games::{GameKind, visit_refs};
use axum::{
    Router,
    extract::Path,
    http::header,
    response::{Html, IntoResponse, Response},
    routing::get,
};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

/// The hand-written part of the document.
const BASE: &str = include_str!("../../openapi/base.yaml");

/// Where a component lives, as a `$ref` says it.
const COMPONENTS: &str = "#/components/schemas/";

/// The served document, built once.
pub fn spec() -> &'static Value {
    static SPEC: LazyLock<Value> = LazyLock::new(|| {
        let base = serde_norway::from_str(BASE).expect("openapi/base.yaml is YAML (checked by the tests)");
        build(base)
    });
    &SPEC
}

/// The served document as sent: pretty JSON with a final newline, as openapi/openapi.json holds it.
pub fn spec_text() -> &'static str {
    static TEXT: LazyLock<String> = LazyLock::new(|| {
        let mut text = serde_json::to_string_pretty(spec()).unwrap_or_default();
        text.push('\n');
        text
    });
    &TEXT
}

/// `GET /openapi.json`, `GET /docs` and the reference's files.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/openapi.json", get(|| async { ([(header::CONTENT_TYPE, "application/json")], spec_text()) }))
        .route("/docs", get(|| async { Html(DOCS_PAGE) }))
        .route("/docs/{file}", get(docs_file))
}

/// The reference's page: Swagger UI reading `/openapi.json`. Its script is a file of its own so
/// that a Content-Security-Policy without inline scripts would not break it.
const DOCS_PAGE: &str = r#"<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Luddo API reference</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
"#;

const DOCS_INIT: &str = r##"window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true });
"##;

/// The files of `/docs/`: Swagger UI (swagger-ui-dist, vendored in src/api/docs by
/// scripts/update-docs-ui.sh; its licence beside it) and the page's own script.
async fn docs_file(Path(file): Path<String>) -> Response {
    let (content_type, body): (&str, &'static [u8]) = match file.as_str() {
        "swagger-ui-bundle.js" => ("text/javascript", include_bytes!("docs/swagger-ui-bundle.js")),
        "swagger-ui.css" => ("text/css", include_bytes!("docs/swagger-ui.css")),
        "init.js" => ("text/javascript", DOCS_INIT.as_bytes()),
        "LICENSE" => ("text/plain; charset=utf-8", include_bytes!("docs/LICENSE")),
        _ => return ApiError::not_found("no such file of the reference").into_response(),
    };
    ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "public, max-age=3600")], body)
        .into_response()
}

/// The four parts of a game that base schemas stand for with `x-per-game`, and the suffix of
/// each game's schema of it.
const PARTS: [(&str, &str); 4] =
    [("options", "Options"), ("action", "Action"), ("event", "Event"), ("state", "State")];

/// The served document from the hand-written base. Panics on a base that contradicts itself
/// or a generated name that clashes with another (a test builds it).
pub fn build(mut doc: Value) -> Value {
    let schemas = doc
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
        .expect("the base has components.schemas");
    let games: Vec<Value> = GameKind::ALL.iter().map(|g| json!(g.as_str())).collect();
    schemas["Game"]["enum"] = Value::Array(games);
    problem_codes(schemas);
    banned_answers(&mut doc);
    let schemas = doc
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
        .expect("the base has components.schemas");

    let mut generated = Map::new();
    for &game in GameKind::ALL {
        game_schemas(game, &mut generated);
    }
    envelope_per_game(schemas, &mut generated);
    analysis_schemas(&mut generated);
    for (name, schema) in generated {
        assert!(
            schemas.insert(name.clone(), schema).is_none(),
            "generated schema {name} clashes with the base's"
        );
    }
    doc
}

/// The backgammon analysis's answers (docs/analysis.md), generated from their types as
/// `Analysis<Type>`: `AnalysisHint` (`POST /v1/backgammon/hint`), `AnalysisDecision` and
/// `AnalysisSeatReview` (`GET /v1/tables/{id}/analysis`), and the types they contain.
fn analysis_schemas(out: &mut Map<String, Value>) {
    use crate::review::{hint::Hint, replay::Decision, replay::SeatReview};
    use schemars::{generate::SchemaSettings, transform::Transform};
    let mut generator =
        SchemaSettings::draft2020_12().with_transform(crate::games::CloseObjects).into_generator();
    let root = |mut schema: schemars::Schema| {
        crate::games::CloseObjects.transform(&mut schema);
        schema.to_value()
    };
    let roots = [
        ("Hint", root(generator.subschema_for::<Hint>())),
        ("Decision", root(generator.subschema_for::<Decision>())),
        ("SeatReview", root(generator.subschema_for::<SeatReview>())),
    ];
    let rename = |schema: &Value| {
        let mut schema = schema.clone();
        rewrite_refs(&mut schema, &|r| {
            r.strip_prefix("#/$defs/").map(|def| format!("{COMPONENTS}Analysis{def}"))
        });
        schema
    };
    for (def, schema) in generator.take_definitions(true) {
        out.insert(format!("Analysis{def}"), rename(&schema));
    }
    for (name, schema) in roots {
        // A root that is a reference to its own definition is that definition, inserted above.
        if schema["$ref"].as_str() != Some(&format!("#/$defs/{name}")) {
            out.insert(format!("Analysis{name}"), rename(&schema));
        }
    }
}

/// Every operation that takes a bearer token may answer 403 (`banned`, if no other).
fn banned_answers(doc: &mut Value) {
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else { return };
    for item in paths.values_mut().filter_map(Value::as_object_mut) {
        for operation in item.values_mut().filter_map(Value::as_object_mut) {
            let bearer = operation
                .get("security")
                .and_then(Value::as_array)
                .is_some_and(|s| s.iter().any(|r| r.get("bearer").is_some()));
            if let (true, Some(responses)) =
                (bearer, operation.get_mut("responses").and_then(Value::as_object_mut))
            {
                responses.entry("403").or_insert_with(|| json!({"$ref": "#/components/responses/Problem"}));
            }
        }
    }
}

/// `Problem.code`: every code but those of the WebSocket `error` message.
fn problem_codes(schemas: &mut Map<String, Value>) {
    let websocket: BTreeSet<&str> = schemas["ErrorMessage"]["properties"]["code"]["enum"]
        .as_array()
        .expect("ErrorMessage.code has an enum")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let codes: Vec<Value> = ErrorCode::ALL
        .iter()
        .map(|c| c.as_str())
        .filter(|c| !websocket.contains(c))
        .map(Value::from)
        .collect();
    schemas["Problem"]["properties"]["code"]["enum"] = Value::Array(codes);
}

/// `game`'s four schemas and their definitions, named for the document.
fn game_schemas(game: GameKind, out: &mut Map<String, Value>) {
    let prefix = game.type_name();
    let generated = game.schemas();
    let roots = [&generated.options, &generated.action, &generated.event, &generated.state];
    // A root that is a reference takes its definition's place under the root's name.
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    for (root, (_, suffix)) in roots.iter().zip(PARTS) {
        if let Some(def) = root["$ref"].as_str().and_then(|r| r.strip_prefix("#/$defs/")) {
            names.entry(def.to_string()).or_insert_with(|| format!("{prefix}{suffix}"));
        }
    }
    for def in generated.defs.keys() {
        let name = if def.starts_with(prefix) { def.clone() } else { format!("{prefix}{def}") };
        names.entry(def.clone()).or_insert(name);
    }
    let rename = |schema: &Value| {
        let mut schema = schema.clone();
        rewrite_refs(&mut schema, &|r| {
            r.strip_prefix("#/$defs/")
                .and_then(|def| names.get(def))
                .map(|name| format!("{COMPONENTS}{name}"))
        });
        schema
    };
    let mut insert = |name: String, schema: Value| {
        assert!(out.insert(name.clone(), schema).is_none(), "two generated schemas are named {name}");
    };
    for (def, schema) in &generated.defs {
        insert(names[def].clone(), rename(schema));
    }
    for (root, (_, suffix)) in roots.iter().zip(PARTS) {
        let name = format!("{prefix}{suffix}");
        if root["$ref"]
            .as_str()
            .and_then(|r| r.strip_prefix("#/$defs/"))
            .is_some_and(|def| names[def] == name)
        {
            continue; // the definition itself, inserted above
        }
        insert(name, rename(root));
    }
}

/// Makes every base schema that depends on a game's parts one schema per game (see the module
/// docs), and the base's name the union of them.
fn envelope_per_game(schemas: &mut Map<String, Value>, out: &mut Map<String, Value>) {
    let parts: BTreeMap<String, String> = schemas
        .iter()
        .filter_map(|(name, schema)| {
            let part = schema["x-per-game"].as_str()?;
            let (_, suffix) = PARTS
                .iter()
                .find(|(p, _)| *p == part)
                .unwrap_or_else(|| panic!("{name}: unknown x-per-game {part}"));
            Some((name.clone(), suffix.to_string()))
        })
        .collect();
    // The templates: schemas referring to a part or to a template without a `game` field.
    let discriminated = |schema: &Value| schema.pointer("/properties/game").is_some();
    let mut templates: BTreeSet<String> = BTreeSet::new();
    loop {
        let before = templates.len();
        for (name, schema) in schemas.iter() {
            if parts.contains_key(name) || templates.contains(name) {
                continue;
            }
            let mut refers = false;
            visit_refs(schema, &mut |r| {
                if let Some(target) = r.strip_prefix(COMPONENTS) {
                    refers |= parts.contains_key(target)
                        || (templates.contains(target) && !discriminated(&schemas[target]));
                }
            });
            if refers {
                templates.insert(name.clone());
            }
        }
        if templates.len() == before {
            break;
        }
    }
    for &game in GameKind::ALL {
        let prefix = game.type_name();
        let per_game = |r: &str| {
            let target = r.strip_prefix(COMPONENTS)?;
            if let Some(suffix) = parts.get(target) {
                Some(format!("{COMPONENTS}{prefix}{suffix}"))
            } else {
                templates.contains(target).then(|| format!("{COMPONENTS}{prefix}{target}"))
            }
        };
        for name in &templates {
            let mut copy = schemas[name].clone();
            rewrite_refs(&mut copy, &per_game);
            if let Some(field) = copy.pointer_mut("/properties/game") {
                *field = json!({ "type": "string", "const": game.as_str() });
            }
            assert!(out.insert(format!("{prefix}{name}"), copy).is_none(), "{prefix}{name} generated twice");
        }
    }
    let members = |suffix: &str| -> Vec<Value> {
        GameKind::ALL
            .iter()
            .map(|g| json!({ "$ref": format!("{COMPONENTS}{}{suffix}", g.type_name()) }))
            .collect()
    };
    for (name, suffix) in &parts {
        let description = schemas[name]["description"].clone();
        schemas[name] = json!({ "description": description, "anyOf": members(suffix) });
    }
    for name in &templates {
        let template = &schemas[name];
        let mut union = Map::new();
        if let Some(description) = template.get("description") {
            union.insert("description".into(), description.clone());
        }
        if discriminated(template) {
            let mapping: Map<String, Value> = GameKind::ALL
                .iter()
                .map(|g| (g.as_str().to_string(), json!(format!("{COMPONENTS}{}{name}", g.type_name()))))
                .collect();
            union.insert("oneOf".into(), Value::Array(members(name)));
            union.insert("discriminator".into(), json!({ "propertyName": "game", "mapping": mapping }));
        } else {
            union.insert("anyOf".into(), Value::Array(members(name)));
        }
        schemas[name] = Value::Object(union);
    }
}

/// Replaces every `$ref` in `schema` that `f` maps.
fn rewrite_refs(schema: &mut Value, f: &impl Fn(&str) -> Option<String>) {
    match schema {
        Value::Object(object) => {
            for (key, value) in object.iter_mut() {
                match value {
                    Value::String(r) if key == "$ref" => {
                        if let Some(new) = f(r) {
                            *r = new;
                        }
                    }
                    _ => rewrite_refs(value, f),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rewrite_refs(v, f)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `$ref` of the served document points at something in it.
    #[test]
    fn every_reference_of_the_served_spec_resolves() {
        let doc = spec();
        let mut dangling = vec![];
        visit_refs(doc, &mut |r| {
            if doc.pointer(r.trim_start_matches('#')).is_none() {
                dangling.push(r.to_string());
            }
        });
        assert!(dangling.is_empty(), "dangling references: {dangling:?}");
    }

    /// Each game has its four parts and a per-game table, entry and action request.
    #[test]
    fn each_game_has_its_own_schemas() {
        let schemas = &spec()["components"]["schemas"];
        for &game in GameKind::ALL {
            for suffix in [
                "Options",
                "Action",
                "Event",
                "State",
                "Table",
                "Play",
                "EntryMessage",
                "ActionRequest",
                "CreateTable",
            ] {
                let name = format!("{}{suffix}", game.type_name());
                assert!(schemas.get(&name).is_some(), "{name} is missing");
            }
            let table = &schemas[format!("{}Table", game.type_name())];
            assert_eq!(table["properties"]["game"]["const"], game.as_str());
        }
        assert_eq!(schemas["Table"]["discriminator"]["propertyName"], "game");
        assert!(schemas["EntryMessage"]["anyOf"].is_array());
    }

    /// Actions and events are tagged unions: one closed object per variant, its `type` a const.
    #[test]
    fn actions_and_events_are_one_of_closed_objects_tagged_by_type() {
        let schemas = &spec()["components"]["schemas"];
        for &game in GameKind::ALL {
            for suffix in ["Action", "Event"] {
                let name = format!("{}{suffix}", game.type_name());
                let variants =
                    schemas[&name]["oneOf"].as_array().unwrap_or_else(|| panic!("{name} is a oneOf"));
                for variant in variants {
                    assert!(variant["properties"]["type"]["const"].is_string(), "{name}: {variant}");
                    assert_eq!(variant["additionalProperties"], false, "{name}: {variant}");
                }
            }
        }
    }

    /// No object with known fields is left open, in what is generated as in the base.
    #[test]
    fn no_object_schema_with_properties_is_left_open() {
        fn open(schema: &Value, path: &str, found: &mut Vec<String>) {
            match schema {
                Value::Object(object) => {
                    let composed =
                        ["allOf", "anyOf", "oneOf", "$ref"].iter().any(|k| object.contains_key(*k));
                    if object.contains_key("properties")
                        && !composed
                        && object.get("additionalProperties") != Some(&json!(false))
                    {
                        found.push(path.to_string());
                    }
                    for (key, value) in object {
                        open(value, &format!("{path}/{key}"), found);
                    }
                }
                Value::Array(items) => {
                    for (i, value) in items.iter().enumerate() {
                        open(value, &format!("{path}/{i}"), found);
                    }
                }
                _ => {}
            }
        }
        let mut found = vec![];
        open(&spec()["components"]["schemas"], "", &mut found);
        assert!(found.is_empty(), "open objects: {found:#?}");
    }

    #[test]
    fn problem_codes_are_every_error_code_but_the_websockets_own() {
        let codes = spec()["components"]["schemas"]["Problem"]["properties"]["code"]["enum"]
            .as_array()
            .unwrap()
            .len();
        assert_eq!(codes, ErrorCode::ALL.len() - 1);
    }
}
