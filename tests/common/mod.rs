//! Shared helpers for the integration tests: a real server on `127.0.0.1:0` over a fresh
//! database (a SQLite file, or a new PostgreSQL database when `TEST_DATABASE_URL` is set), an
//! HTTP client whose every response is checked against openapi/openapi.yaml, and a macro that
//! runs one test body against both stores.

#![allow(dead_code)]

pub mod spec;

use luddo::{AppState, config::Config, store::Store};
use reqwest::{Method, StatusCode, header::HeaderMap};
use serde_json::Value;
use std::{path::PathBuf, time::Duration};
use tokio::{sync::oneshot, task::JoinHandle};

/// Which store a test runs against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Db {
    Sqlite,
    Postgres,
}

/// Runs each named `async fn name(db: Db)` once per store: `sqlite::name` and `postgres::name`.
/// The Postgres variant passes without running when `TEST_DATABASE_URL` is unset (CI sets it).
#[macro_export]
macro_rules! both_stores {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test]
                async fn $name() {
                    super::$name($crate::common::Db::Sqlite).await
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test]
                async fn $name() {
                    if $crate::common::postgres_url().is_none() {
                        eprintln!("TEST_DATABASE_URL is not set; skipping the Postgres run");
                        return;
                    }
                    super::$name($crate::common::Db::Postgres).await
                }
            )*
        }
    };
}

pub fn postgres_url() -> Option<String> {
    std::env::var("TEST_DATABASE_URL").ok().filter(|u| !u.is_empty())
}

/// A fresh, empty database of the given kind; dropped (best effort) when the guard goes.
pub struct TestDb {
    pub url: String,
    cleanup: Option<Cleanup>,
}

enum Cleanup {
    File(PathBuf),
    Postgres { admin_url: String, name: String },
}

impl TestDb {
    pub async fn new(db: Db) -> Self {
        let id = uuid::Uuid::new_v4().simple().to_string();
        match db {
            Db::Sqlite => {
                let dir = std::env::temp_dir().join(format!("luddo-test-{id}"));
                let url = format!("sqlite://{}?mode=rwc", dir.join("luddo.db").display());
                Self { url, cleanup: Some(Cleanup::File(dir)) }
            }
            Db::Postgres => {
                use sqlx::Connection;
                let admin_url = postgres_url().expect("TEST_DATABASE_URL");
                let name = format!("luddo_test_{id}");
                let mut conn = sqlx::PgConnection::connect(&admin_url).await.expect("connect to Postgres");
                sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut conn).await.expect("create db");
                let url = replace_db_name(&admin_url, &name);
                Self { url, cleanup: Some(Cleanup::Postgres { admin_url, name }) }
            }
        }
    }
}

/// `postgres://host/olddb?x` with the database renamed.
fn replace_db_name(url: &str, name: &str) -> String {
    let (base, query) = url.split_once('?').map_or((url, None), |(b, q)| (b, Some(q)));
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let base = match base[scheme_end..].find('/') {
        Some(slash) => &base[..scheme_end + slash],
        None => base,
    };
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        match self.cleanup.take() {
            Some(Cleanup::File(dir)) => {
                let _ = std::fs::remove_dir_all(dir);
            }
            Some(Cleanup::Postgres { admin_url, name }) => {
                // Drop runs inside the test's runtime; use a thread with its own.
                let _ = std::thread::spawn(move || {
                    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().ok()?;
                    rt.block_on(async {
                        use sqlx::Connection;
                        let mut conn = sqlx::PgConnection::connect(&admin_url).await.ok()?;
                        sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                            .execute(&mut conn)
                            .await
                            .ok()
                    })
                })
                .join();
            }
            None => {}
        }
    }
}

/// A running server and a client for it.
pub struct TestServer {
    pub base: String,
    pub client: reqwest::Client,
    pub config: Config,
    pub store: Store,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
    pub db: TestDb,
}

/// Settings tests usually want: test mode on, generous limits.
pub fn test_config() -> Config {
    Config { test_mode: true, rate_per_minute: 10_000, ..Config::default() }
}

impl TestServer {
    pub async fn start(db: Db) -> Self {
        Self::start_with(db, test_config()).await
    }

    pub async fn start_with(db: Db, config: Config) -> Self {
        let db = TestDb::new(db).await;
        Self::start_on(db, config).await
    }

    /// Serves over an existing database (to restart a server on the same data).
    pub async fn start_on(db: TestDb, config: Config) -> Self {
        let store = Store::open(&db.url).await.expect("open store");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (tx, rx) = oneshot::channel::<()>();
        let state = AppState::new(store.clone(), config.clone());
        let task = tokio::spawn(async move {
            luddo::serve(listener, state, async {
                let _ = rx.await;
            })
            .await
            .unwrap();
        });
        let client = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap();
        Self { base, client, config, store, shutdown: Some(tx), task: Some(task), db }
    }

    /// Stops the server and hands back its database.
    pub async fn stop(mut self) -> TestDb {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
        self.store.close().await;
        TestDb { url: self.db.url.clone(), cleanup: self.db.cleanup.take() }
    }

    /// Sends a request and checks the answer against the OpenAPI spec.
    pub async fn call(&self, method: Method, path: &str, token: Option<&str>, body: Option<Value>) -> Resp {
        let mut req = self.client.request(method.clone(), format!("{}{}", self.base, path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.expect("request");
        let resp = Resp::read(resp).await;
        spec::check_response(&method, path, &resp);
        resp
    }

    /// Sends raw bytes with a content type (for malformed-input tests); checked against the spec.
    pub async fn raw(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        content_type: Option<&str>,
        body: Vec<u8>,
    ) -> Resp {
        let mut req = self.client.request(method.clone(), format!("{}{}", self.base, path)).body(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(ct) = content_type {
            req = req.header("content-type", ct);
        }
        let resp = Resp::read(req.send().await.expect("request")).await;
        spec::check_response(&method, path, &resp);
        resp
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Resp {
        self.call(Method::GET, path, token, None).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Resp {
        self.call(Method::POST, path, token, Some(body)).await
    }

    /// Signs up a player; returns (id, token).
    pub async fn player(&self, name: &str) -> (String, String) {
        let r = self.post("/v1/players", None, serde_json::json!({ "name": name })).await;
        assert_eq!(r.status, StatusCode::CREATED, "{:?}", r.json);
        (r.json["id"].as_str().unwrap().to_string(), r.json["token"].as_str().unwrap().to_string())
    }

    /// Creates a table; returns its JSON.
    pub async fn table(&self, token: &str, body: Value) -> Value {
        let r = self.post("/v1/tables", Some(token), body).await;
        assert_eq!(r.status, StatusCode::CREATED, "{:?}", r.json);
        r.json
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// A response, read whole.
#[derive(Debug)]
pub struct Resp {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub json: Value,
}

impl Resp {
    async fn read(resp: reqwest::Response) -> Self {
        let status = resp.status();
        let headers = resp.headers().clone();
        let bytes = resp.bytes().await.unwrap_or_default();
        let json = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes)
                .unwrap_or_else(|_| panic!("{status}: body is not JSON: {}", String::from_utf8_lossy(&bytes)))
        };
        Self { status, headers, json }
    }

    /// Asserts a problem+json error with this status and code.
    #[track_caller]
    pub fn assert_problem(&self, status: u16, code: &str) {
        assert_eq!(self.status.as_u16(), status, "{}", self.json);
        assert_eq!(self.json["code"], code, "{}", self.json);
        let ct = self.headers.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default();
        assert!(ct.starts_with("application/problem+json"), "content-type {ct}");
        assert_eq!(self.json["type"], format!("https://luddo.dev/problems/{code}"));
    }
}
