//! No Docker engine runs on CI machines, so docker-compose.yml, the Dockerfile and what they
//! read (.env.example, .dockerignore) are checked as data: they parse, the names, ports and
//! environment agree with the server's config, the credentials come from variables, and the
//! image is built the way the Dockerfile's comments say.

use luddo::config::{self, Config};
use serde_norway::Value;

fn read(file: &str) -> String {
    let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn compose() -> Value {
    serde_norway::from_str(&read("docker-compose.yml")).expect("docker-compose.yml parses")
}

fn dockerfile() -> String {
    read("Dockerfile")
}

/// The service's environment as written, `${…}` and all.
fn raw_env_of(service: &Value) -> Vec<(String, String)> {
    service["environment"]
        .as_mapping()
        .expect("environment as a mapping")
        .iter()
        .map(|(k, v)| {
            let v = match v {
                Value::String(s) => s.clone(),
                other => serde_norway::to_string(other).unwrap().trim().to_string(),
            };
            (k.as_str().unwrap().to_string(), v)
        })
        .collect()
}

/// The service's environment as `docker compose` would hand it over with the values of
/// .env.example in .env.
fn env_of(service: &Value) -> Vec<(String, String)> {
    let vars = env_example();
    raw_env_of(service).into_iter().map(|(k, v)| (k, interpolate(&v, &vars))).collect()
}

/// NAME=value lines of .env.example (comments and blank lines skipped).
fn env_example() -> Vec<(String, String)> {
    read(".env.example")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (k, v) = l.split_once('=').unwrap_or_else(|| panic!(".env.example: {l:?} is not NAME=value"));
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// The variables a compose value refers to, each with its modifier: `${NAME}`, `${NAME:-default}`
/// or `${NAME:?error}` give (NAME, "", ""), (NAME, ":-", default), (NAME, ":?", error).
fn references(value: &str) -> Vec<(String, String, String)> {
    let mut out = vec![];
    let mut rest = value.replace("$$", "");
    while let Some(start) = rest.find("${") {
        let end = start + rest[start..].find('}').expect("an unclosed ${");
        let inner = &rest[start + 2..end];
        let split = inner.find([':', '-', '?']).unwrap_or(inner.len());
        let (name, modifier) = inner.split_at(split);
        let op_len = if modifier.starts_with(':') { 2.min(modifier.len()) } else { 1.min(modifier.len()) };
        out.push((name.to_string(), modifier[..op_len].to_string(), modifier[op_len..].to_string()));
        rest = rest[end + 1..].to_string();
    }
    assert!(!rest.contains('$'), "a bare $ in {value:?}: compose would read it as a variable");
    out
}

/// Compose's interpolation of `value` with `vars` (as from .env): a variable that is set gives
/// its value, else its `:-` default; a `:?` one must be set.
fn interpolate(value: &str, vars: &[(String, String)]) -> String {
    let mut out = value.to_string();
    for (name, op, arg) in references(value) {
        let set = vars.iter().find(|(k, v)| *k == name && !v.is_empty()).map(|(_, v)| v.clone());
        let replacement = match (set, op.as_str()) {
            (Some(v), _) => v,
            (None, ":-") => arg.clone(),
            (None, _) => panic!("${{{name}}} is not set by .env.example"),
        };
        out = out.replacen(&format!("${{{name}{op}{arg}}}"), &replacement, 1);
    }
    out.replace("$$", "$")
}

#[test]
fn compose_runs_postgres_16_and_the_server() {
    let c = compose();
    let services = c["services"].as_mapping().unwrap();
    assert_eq!(services.len(), 2, "db and server");
    let db = &c["services"]["db"];
    assert!(db["image"].as_str().unwrap().starts_with("postgres:16"));
    assert!(db["healthcheck"]["test"].is_sequence());
    let server = &c["services"]["server"];
    assert_eq!(server["build"].as_str(), Some("."));
    assert_eq!(server["depends_on"]["db"]["condition"].as_str(), Some("service_healthy"));
    assert!(server["healthcheck"]["test"].is_sequence());
}

#[test]
fn compose_environment_matches_the_server_config() {
    let c = compose();
    let server_env = env_of(&c["services"]["server"]);
    for (name, _) in &server_env {
        assert!(config::VARIABLES.contains(&name.as_str()), "the server does not read {name}");
    }
    let lookup = |name: &str| server_env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let cfg = Config::from_lookup(lookup).expect("the compose environment is a valid config");

    // The published port is the one the server listens on.
    let ports: Vec<String> = c["services"]["server"]["ports"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    let container_ports: Vec<u16> =
        ports.iter().map(|p| p.rsplit(':').next().unwrap().parse().unwrap()).collect();
    assert!(container_ports.contains(&cfg.addr.port()), "{ports:?} vs {}", cfg.addr);
    assert!(cfg.addr.ip().is_unspecified(), "inside a container the server listens on all interfaces");

    // DATABASE_URL points at the db service with its credentials and database.
    let url = cfg.database_url();
    let db_env = env_of(&c["services"]["db"]);
    let get = |k: &str| db_env.iter().find(|(n, _)| n == k).unwrap().1.clone();
    let expected = format!(
        "postgres://{}:{}@db:5432/{}",
        get("POSTGRES_USER"),
        get("POSTGRES_PASSWORD"),
        get("POSTGRES_DB")
    );
    assert_eq!(url, expected);
}

#[test]
fn dockerfile_is_multi_stage_and_health_checked() {
    let text = dockerfile();
    let froms: Vec<&str> = text.lines().filter(|l| l.starts_with("FROM ")).collect();
    assert_eq!(froms.len(), 2, "a build stage and a runtime stage");
    assert!(froms[1].contains("slim"), "small runtime image");
    assert!(text.contains("cargo build --release"));
    assert!(text.contains("HEALTHCHECK") && text.contains("healthcheck"));
    assert!(text.contains("EXPOSE 8080"));
}

/// The credentials are not in the committed compose file: every variable it refers to is one
/// .env.example defines, the password has no default (compose refuses to start without one), and
/// .env itself is neither committed nor sent to the image build.
#[test]
fn compose_credentials_come_from_variables_env_example_defines() {
    let defined: Vec<String> = env_example().into_iter().map(|(k, _)| k).collect();
    let text = read("docker-compose.yml");
    for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
        for (name, _, _) in references(line) {
            assert!(defined.contains(&name), "docker-compose.yml uses ${{{name}}}, which .env.example lacks");
        }
    }
    let c = compose();
    let db = raw_env_of(&c["services"]["db"]);
    for (name, value) in &db {
        assert!(value.starts_with(&format!("${{{name}")), "{name} comes from .env, not {value:?}");
    }
    let required =
        |value: &str| references(value).iter().any(|(n, op, _)| n == "POSTGRES_PASSWORD" && op == ":?");
    let password = &db.iter().find(|(k, _)| k == "POSTGRES_PASSWORD").expect("the db's password").1;
    assert!(required(password), "no default password: {password}");
    let server = raw_env_of(&c["services"]["server"]);
    let url = &server.iter().find(|(k, _)| k == "DATABASE_URL").expect("the server's DATABASE_URL").1;
    assert!(required(url), "the server's password is the db's: {url}");
    assert!(read(".gitignore").lines().any(|l| l.trim() == ".env"), ".env is not committed");
    assert!(read(".dockerignore").lines().any(|l| l.trim() == ".env"), ".env stays out of the image");
}

/// Base images pinned to a release (a tag with a version or a Debian codename, never `latest`
/// or a bare major), the Rust one at least the workspace's rust-version.
#[test]
fn dockerfile_pins_its_base_images() {
    let text = dockerfile();
    let images: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("FROM "))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert!(!images.is_empty());
    for image in &images {
        let (_, tag) = image.split_once(':').unwrap_or_else(|| panic!("{image} has no tag"));
        assert!(tag != "latest" && !tag.starts_with("1-"), "{image}: a moving tag");
        assert!(tag.contains("bookworm"), "{image}: the Debian release is named");
    }
    let rust = images.iter().find_map(|i| i.strip_prefix("rust:")).expect("a Rust build image");
    let version: Vec<u32> = rust.split('-').next().unwrap().split('.').map(|n| n.parse().unwrap()).collect();
    assert!(version.len() >= 2, "rust:{rust}: a minor version");
    let manifest = read("Cargo.toml");
    let msrv = manifest.lines().find_map(|l| l.strip_prefix("rust-version = ")).expect("a rust-version");
    let msrv: Vec<u32> = msrv.trim_matches('"').split('.').map(|n| n.parse().unwrap()).collect();
    assert!(version >= msrv, "rust:{rust} is older than rust-version {msrv:?}");
}

/// The image holds the server alone, runs as a numeric user with its data on a volume, and its
/// build keeps the dependencies in BuildKit caches; the build context leaves out what the build
/// does not need.
#[test]
fn dockerfile_builds_only_the_server_as_a_numeric_user() {
    let text = dockerfile();
    let build = text.split("RUN ").find(|r| r.contains("cargo build")).expect("a cargo build step");
    let build = build.split("\n\n").next().unwrap();
    assert!(build.contains("-p luddo ") && build.contains("--bin luddo"), "{build}");
    assert!(!build.contains("--workspace") && !build.contains("luddo-load"), "{build}");
    assert!(build.contains("--locked"), "the image builds what Cargo.lock says");
    for cache in ["target=/usr/local/cargo/registry", "target=/src/target"] {
        assert!(build.contains(&format!("--mount=type=cache,{cache}")), "{cache} cached: {build}");
    }
    assert!(text.starts_with("# syntax=docker/dockerfile:1"), "cache mounts need the BuildKit syntax");
    let user = text.lines().filter_map(|l| l.strip_prefix("USER ")).next_back().expect("a USER");
    assert!(
        user.split(':').all(|id| id.parse::<u32>().is_ok_and(|n| n > 0)),
        "USER {user}: numeric, not root"
    );
    assert!(text.lines().any(|l| l.trim() == "VOLUME /data"), "the SQLite data on a volume");
    let ignored: Vec<String> = read(".dockerignore").lines().map(|l| l.trim().to_string()).collect();
    for dir in ["target", "node_modules", "data", ".git"] {
        assert!(ignored.iter().any(|l| l == dir), ".dockerignore lacks {dir}");
    }
}

#[test]
fn every_replica_has_an_instance_id_of_its_own() {
    // A fixed LUDDO_INSTANCE_ID would give every replica of `--scale server=N` the same one;
    // without it each keeps its own in its data directory, which the image makes writable.
    let c = compose();
    let server_env = env_of(&c["services"]["server"]);
    assert!(server_env.iter().all(|(k, _)| k != "LUDDO_INSTANCE_ID"), "{server_env:?}");
    let text = dockerfile();
    assert!(text.contains("LUDDO_DATA_DIR=/data"));
    assert!(
        text.contains("mkdir -p /data && chown 10001:10001 /data"),
        "the server may write its data directory"
    );
    assert!(text.contains("USER 10001:10001"), "the server runs as the owner of /data");
}
