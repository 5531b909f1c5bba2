//! No Docker engine runs on CI machines, so docker-compose.yml and the Dockerfile are checked
//! as data: they parse, and the names, ports and environment agree with the server's config.

use luddo::config::{self, Config};
use serde_yaml::Value;

fn compose() -> Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docker-compose.yml")).unwrap();
    serde_yaml::from_str(&text).expect("docker-compose.yml parses")
}

fn env_of(service: &Value) -> Vec<(String, String)> {
    service["environment"]
        .as_mapping()
        .expect("environment as a mapping")
        .iter()
        .map(|(k, v)| {
            let v = match v {
                Value::String(s) => s.clone(),
                other => serde_yaml::to_string(other).unwrap().trim().to_string(),
            };
            (k.as_str().unwrap().to_string(), v)
        })
        .collect()
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
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Dockerfile")).unwrap();
    let froms: Vec<&str> = text.lines().filter(|l| l.starts_with("FROM ")).collect();
    assert_eq!(froms.len(), 2, "a build stage and a runtime stage");
    assert!(froms[1].contains("slim"), "small runtime image");
    assert!(text.contains("cargo build --release"));
    assert!(text.contains("HEALTHCHECK") && text.contains("healthcheck"));
    assert!(text.contains("EXPOSE 8080"));
}

#[test]
fn every_replica_has_an_instance_id_of_its_own() {
    // A fixed LUDDO_INSTANCE_ID would give every replica of `--scale server=N` the same one;
    // without it each keeps its own in its data directory, which the image makes writable.
    let c = compose();
    let server_env = env_of(&c["services"]["server"]);
    assert!(server_env.iter().all(|(k, _)| k != "LUDDO_INSTANCE_ID"), "{server_env:?}");
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Dockerfile")).unwrap();
    assert!(text.contains("LUDDO_DATA_DIR=/data"));
    assert!(text.contains("mkdir -p /data && chown luddo /data"), "the server may write its data directory");
}
