//! No Docker engine runs on CI machines, so docker-compose.yml, the Dockerfile and what they
//! read (.env.example, .dockerignore) are checked as data: they parse, the names, ports and
//! environment agree with the server's config, the credentials come from variables, and the
//! image is built the way the Dockerfile's comments say.

mod common;

use common::{Db, TestServer, nginx::Nginx, test_config};
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
    let by_default = services.iter().filter(|(_, service)| service.get("profiles").is_none()).count();
    assert_eq!(by_default, 3, "db, server and balancer (the others are under a profile)");
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

    // The port the replicas offer the balancer is the one the server listens on; they publish
    // none (several replicas could not all publish one).
    let exposed: Vec<u16> = c["services"]["server"]["expose"]
        .as_sequence()
        .expect("the server exposes its port")
        .iter()
        .map(|p| p.as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(exposed, [cfg.addr.port()], "vs {}", cfg.addr);
    assert!(c["services"]["server"].get("ports").is_none(), "replicas publish no port");
    assert!(cfg.addr.ip().is_unspecified(), "inside a container the server listens on all interfaces");
    // So each replica derives its internal address (one setting could not name them all).
    assert!(cfg.internal_addr.is_none(), "LUDDO_INTERNAL_ADDR is per replica: derived, not set");

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

/// A file of the repository, read as YAML.
fn yaml_file(path: &str) -> Value {
    let text = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    serde_norway::from_str(&text).unwrap_or_else(|e| panic!("{path} parses: {e}"))
}

/// Where `service` mounts the repository's `source` (a `source:target[:ro]` volume).
fn mount_of(service: &Value, source: &str) -> String {
    let volumes = service["volumes"].as_sequence().expect("volumes");
    let volume = volumes.iter().filter_map(Value::as_str).find(|v| v.split(':').next() == Some(source));
    let volume = volume.unwrap_or_else(|| panic!("{source} is mounted: {volumes:?}"));
    assert!(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(source).exists(), "{source} exists");
    volume.split(':').nth(1).unwrap().to_string()
}

/// The server's port, as its compose environment configures it.
fn server_port(c: &Value) -> u16 {
    let server_env = env_of(&c["services"]["server"]);
    let lookup = |name: &str| server_env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    Config::from_lookup(lookup).unwrap().addr.port()
}

#[test]
fn prometheus_and_grafana_run_only_under_the_observability_profile() {
    let c = compose();
    for name in ["db", "server", "balancer"] {
        assert!(c["services"][name].get("profiles").is_none(), "{name} runs by default");
    }
    for name in ["prometheus", "grafana"] {
        let service = &c["services"][name];
        let profiles: Vec<&str> = service["profiles"]
            .as_sequence()
            .unwrap_or_else(|| panic!("{name} has profiles"))
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(profiles, ["observability"], "{name}");
        let image = service["image"].as_str().unwrap();
        let (_, tag) = image.rsplit_once(':').unwrap_or_else(|| panic!("{image} has a tag"));
        assert!(
            tag.chars().next().is_some_and(|c| c.is_ascii_digit() || c == 'v') && tag != "latest",
            "{image} is pinned"
        );
    }
    let grafana = raw_env_of(&c["services"]["grafana"]);
    let password = grafana.iter().find(|(k, _)| k == "GF_SECURITY_ADMIN_PASSWORD").map(|(_, v)| v.as_str());
    assert!(
        password.is_some_and(|p| p.starts_with("${GRAFANA_ADMIN_PASSWORD")),
        "from the environment: {password:?}"
    );
}

#[test]
fn prometheus_scrapes_the_server_service_on_its_port() {
    let c = compose();
    let target = mount_of(&c["services"]["prometheus"], "./deploy/prometheus.yml");
    let command: Vec<&str> = c["services"]["prometheus"]["command"]
        .as_sequence()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(command.contains(&format!("--config.file={target}").as_str()), "{command:?}");
    let prometheus = yaml_file("deploy/prometheus.yml");
    let jobs = prometheus["scrape_configs"].as_sequence().unwrap();
    let job = jobs.iter().find(|j| j["job_name"] == "luddo").expect("a luddo job");
    assert_eq!(job["metrics_path"].as_str(), Some("/metrics"));
    let sd = &job["dns_sd_configs"][0];
    let names: Vec<&str> = sd["names"].as_sequence().unwrap().iter().filter_map(Value::as_str).collect();
    assert_eq!(names, ["server"], "every replica of the server service");
    assert!(c["services"]["server"].is_mapping());
    assert_eq!(sd["port"].as_u64(), Some(server_port(&c) as u64));
}

#[test]
fn grafana_is_provisioned_with_prometheus_and_the_dashboard() {
    let c = compose();
    let grafana = &c["services"]["grafana"];
    assert_eq!(mount_of(grafana, "./deploy/grafana/provisioning"), "/etc/grafana/provisioning");
    let dashboards_at = mount_of(grafana, "./deploy/grafana/dashboards");
    let datasources = yaml_file("deploy/grafana/provisioning/datasources/prometheus.yml");
    let source = &datasources["datasources"][0];
    assert_eq!(source["type"].as_str(), Some("prometheus"));
    let published = c["services"]["prometheus"]["ports"][0].as_str().unwrap();
    let port = published.rsplit(':').next().unwrap();
    assert_eq!(source["url"].as_str(), Some(format!("http://prometheus:{port}").as_str()));
    let providers = yaml_file("deploy/grafana/provisioning/dashboards/luddo.yml");
    assert_eq!(providers["providers"][0]["options"]["path"].as_str(), Some(dashboards_at.as_str()));
    let uid = source["uid"].as_str().unwrap();
    for panel in dashboard()["panels"].as_array().unwrap() {
        assert_eq!(panel["datasource"]["uid"], uid, "{}", panel["title"]);
    }
}

fn dashboard() -> serde_json::Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/grafana/dashboards/luddo.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).expect("the dashboard is JSON")
}

/// The `luddo_*` names in a PromQL expression.
fn metric_names(expr: &str) -> Vec<String> {
    let mut names = vec![];
    let mut rest = expr;
    while let Some(at) = rest.find("luddo_") {
        let name: String =
            rest[at..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        rest = &rest[at + name.len()..];
        names.push(name);
    }
    names
}

/// Every series the dashboard queries is one a server exports once a game has been played:
/// a renamed metric breaks this test, not the dashboard.
#[tokio::test]
async fn every_metric_the_dashboard_queries_is_exported() {
    let panels = dashboard()["panels"].as_array().unwrap().clone();
    let exprs: Vec<String> = panels
        .iter()
        .flat_map(|p| {
            p["targets"].as_array().unwrap().iter().map(|t| t["expr"].as_str().unwrap().to_string())
        })
        .collect();
    let queried: std::collections::BTreeSet<String> = exprs.iter().flat_map(|e| metric_names(e)).collect();
    assert!(queried.len() >= 10, "{queried:?}");

    let s = common::TestServer::start(common::Db::Sqlite).await;
    let (id, host) = common::metrics::start_with_bots(&s, "luddo", 2).await;
    common::metrics::play_to_the_end(&s, &id, &host).await;
    let scrape = common::metrics::scrape(&s).await;
    let exported = scrape.names();
    let missing: Vec<&String> = queried.iter().filter(|n| !exported.contains(n.as_str())).collect();
    assert!(missing.is_empty(), "the dashboard queries what the server does not export: {missing:?}");
}

/// deploy/nginx.conf with its comments dropped.
fn nginx_conf() -> String {
    read("deploy/nginx.conf")
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_balancer_is_the_one_way_in_and_publishes_the_servers_port() {
    let c = compose();
    let balancer = &c["services"]["balancer"];
    let image = balancer["image"].as_str().unwrap();
    let (name, tag) = image.rsplit_once(':').expect("a tag");
    assert_eq!(name, "nginx");
    // `resolve` in an upstream (replicas re-resolved as they come and go) is nginx >= 1.27.3's.
    let version: Vec<u32> = tag.split('.').map(|p| p.parse().expect("a numeric tag")).collect();
    assert!(version >= vec![1, 27, 3], "{image} re-resolves upstreams");
    assert_eq!(mount_of(balancer, "./deploy/nginx.conf"), "/etc/nginx/nginx.conf");
    let ports: Vec<&str> =
        balancer["ports"].as_sequence().unwrap().iter().filter_map(Value::as_str).collect();
    let port = server_port(&c);
    assert_eq!(ports, [format!("{port}:{port}")]);
    assert!(nginx_conf().contains(&format!("listen {port};")));
    assert_eq!(balancer["depends_on"]["server"]["condition"].as_str(), Some("service_healthy"));
}

/// The balancer spreads clients over every replica, with no session stuck to one (no cookie,
/// no client address hashed), but sends every request and socket of one table to the same
/// replica (consistent hashing on the table id in the path), which then drives it.
#[test]
fn the_balancer_sends_a_tables_requests_to_one_replica_and_spreads_the_rest() {
    let conf = nginx_conf();
    let port = server_port(&compose());
    // Every replica of the `server` service, re-resolved through Docker's DNS, left out for a
    // while when it fails (passive health checks).
    assert!(conf.contains("resolver 127.0.0.11"), "Docker's DNS");
    let upstream =
        conf.lines().find(|l| l.starts_with("server server:")).expect("the server service upstream");
    assert!(upstream.starts_with(&format!("server server:{port} ")), "{upstream}");
    for part in ["resolve", "max_fails=", "fail_timeout="] {
        assert!(upstream.contains(part), "{upstream} lacks {part}");
    }
    assert!(conf.contains("zone luddo"), "a shared zone, which `resolve` needs");
    for sticky in ["ip_hash", "sticky", "$remote_addr consistent", "$cookie"] {
        assert!(!conf.contains(sticky), "no sticky sessions: {sticky}");
    }
    let hashes: Vec<&str> = conf.lines().filter(|l| l.starts_with("hash ")).collect();
    assert_eq!(hashes, ["hash $luddo_table consistent;"], "one hash, on the table");
    assert!(
        conf.contains("~^/v1/tables/(?<table>[^/]+) $table;"),
        "the table is the id in /v1/tables/<id>/…: the one request path that names a table"
    );
    // WebSocket upgrade: HTTP/1.1 to the upstream with the client's Upgrade and Connection.
    assert!(conf.contains("proxy_pass http://luddo;"));
    assert!(conf.contains("proxy_http_version 1.1;"));
    assert!(conf.contains("proxy_set_header Upgrade $http_upgrade;"));
    assert!(conf.contains("proxy_set_header Connection $connection_upgrade;"));
    assert!(conf.contains("proxy_next_upstream error timeout;"), "a replica that is down is skipped");
    // A POST sent once is never sent to a second replica: the first may have applied it.
    assert!(!conf.contains("non_idempotent"), "only idempotent requests are retried");
    // The servers ping sockets every 20 s: the balancer must not cut them before; any other
    // request is answered within the servers' request timeout, so a replica that does not
    // answer one within a few seconds more is frozen.
    let request_timeout = Config::default().request_timeout.as_secs();
    let read_timeouts: Vec<u64> = conf
        .lines()
        .filter_map(|l| l.strip_prefix("proxy_read_timeout "))
        .map(|t| t.trim_end_matches("s;").parse().unwrap())
        .collect();
    assert_eq!(
        read_timeouts.iter().filter(|t| **t > 20).count(),
        2,
        "the two WebSocket routes: {read_timeouts:?}"
    );
    let api = read_timeouts.iter().min().unwrap();
    assert!((request_timeout + 1..=request_timeout + 10).contains(api), "the API's: {api} s");
    // The client's address as this proxy saw it, and nothing the client wrote itself.
    assert!(conf.contains("proxy_set_header X-Forwarded-For $remote_addr;"));
    assert!(conf.contains(r#"proxy_set_header Forwarded "";"#));
    // A client cannot pass a call off as one a server forwarded.
    assert!(conf.contains(r#"proxy_set_header X-Luddo-Forwarded "";"#));
}

#[test]
fn the_servers_trust_the_balancer_and_only_it() {
    let c = compose();
    let balancer_ip = c["services"]["balancer"]["networks"]["default"]["ipv4_address"].as_str().unwrap();
    let server_env = env_of(&c["services"]["server"]);
    let lookup = |name: &str| server_env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let cfg = Config::from_lookup(lookup).unwrap();
    let ip: std::net::IpAddr = balancer_ip.parse().unwrap();
    assert!(cfg.trusted_proxies.iter().any(|block| block.contains(&ip)), "the balancer is trusted");
    assert!(cfg.trusted_proxies.iter().all(|block| block.prefix_len() == 32), "only the balancer");
    // The balancer's address is in the network's fixed subnet.
    let subnet: ipnet::IpNet =
        c["networks"]["default"]["ipam"]["config"][0]["subnet"].as_str().unwrap().parse().unwrap();
    assert!(subnet.contains(&ip));
    // Every connection comes from the balancer: the per-address cap is raised past one client's.
    assert!(cfg.max_connections_per_address >= 10_000, "{}", cfg.max_connections_per_address);
}

/// A test server (SQLite) that trusts the local balancer, behind deploy/nginx.conf run by a real
/// nginx; the nginx's files go in a directory of their own, removed when the test passes.
async fn behind_the_shipped_balancer(config: Config) -> (TestServer, Nginx, std::path::PathBuf) {
    let config = Config { trusted_proxies: vec!["127.0.0.1/32".parse().unwrap()], ..config };
    let server = TestServer::start_with(Db::Sqlite, config).await;
    let dir = std::env::temp_dir().join(format!("luddo-deploy-nginx-{}", uuid::Uuid::new_v4().simple()));
    let nginx = Nginx::start(&dir, &[server.base.trim_start_matches("http://").to_string()]);
    (server, nginx, dir)
}

/// README: keep `/metrics` from the outside. The balancer's published port is the outside.
#[tokio::test]
async fn the_balancer_does_not_serve_metrics_on_the_published_port() {
    let (server, nginx, dir) = behind_the_shipped_balancer(test_config()).await;
    let http = reqwest::Client::new();
    let direct = http.get(format!("{}/metrics", server.base)).send().await.unwrap();
    assert_eq!(direct.status(), 200, "the server itself serves /metrics (Prometheus scrapes it)");
    for path in ["/metrics", "/metrics?format=text", "//metrics", "/%6detrics"] {
        let outside = http.get(format!("http://{}{path}", nginx.addr)).send().await.unwrap();
        assert_eq!(outside.status(), 404, "{path} through the balancer");
    }
    assert_eq!(http.get(format!("http://{}/health", nginx.addr)).send().await.unwrap().status(), 200);
    drop(nginx);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A client cannot choose its rate-limit identity through the balancer: whatever `Forwarded`
/// and `X-Forwarded-For` it sends, its sign-ups count against the address nginx saw.
#[tokio::test]
async fn forwarding_headers_a_client_sends_through_the_balancer_do_not_change_its_rate_limit() {
    const LIMIT: u32 = 5;
    let (_server, nginx, dir) =
        behind_the_shipped_balancer(Config { rate_per_minute: LIMIT, ..test_config() }).await;
    let http = reqwest::Client::new();
    let mut created = 0;
    let mut limited = 0;
    for i in 0..2 * LIMIT {
        let response = http
            .post(format!("http://{}/v1/players", nginx.addr))
            .header("forwarded", format!("for=203.0.113.{i}"))
            .header("x-forwarded-for", format!("198.51.100.{i}"))
            .json(&serde_json::json!({"name": format!("spoofer{i}")}))
            .send()
            .await
            .unwrap();
        match response.status().as_u16() {
            201 => created += 1,
            429 => limited += 1,
            other => panic!("sign-up {i}: {other}"),
        }
    }
    assert_eq!((created, limited), (LIMIT, LIMIT), "ten sign-ups from one client, a limit of {LIMIT}");
    drop(nginx);
    let _ = std::fs::remove_dir_all(&dir);
}
