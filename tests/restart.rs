//! The real binary, killed and started again on the same installation (SQLite in its data
//! directory, or PostgreSQL), with no `LUDDO_INSTANCE_ID`: it is the same instance as before
//! (the id kept in the data directory) and serves its tables at once, instead of answering 503
//! `table_elsewhere` until its old lease runs out.

mod common;

use common::{Db, TestDb};
use serde_json::{Value, json};
use std::{
    path::Path,
    process::{Child, Command, Stdio},
    time::Duration,
};

both_stores!(a_lone_server_killed_and_restarted_serves_its_tables_at_once);

/// The server process, SIGKILLed when dropped (also when a test fails): no lease given up.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the server binary on `addr`, and waits (a bounded while) until it answers.
async fn spawn(addr: &str, data_dir: &Path, database_url: &str) -> Server {
    let server = Command::new(env!("CARGO_BIN_EXE_luddo"))
        .env_remove("LUDDO_INSTANCE_ID")
        .env("LUDDO_ADDR", addr)
        .env("LUDDO_DATA_DIR", data_dir)
        .env("DATABASE_URL", database_url)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .spawn()
        .expect("the server starts");
    let server = Server(server);
    let client = reqwest::Client::new();
    for _ in 0..600 {
        if client.get(format!("http://{addr}/health")).send().await.is_ok_and(|r| r.status() == 200) {
            return server;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the server did not answer within a minute");
}

async fn post(client: &reqwest::Client, url: String, token: Option<&str>, body: Value) -> Value {
    let mut request = client.post(url).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    assert!(response.status().is_success(), "{}", response.status());
    response.json().await.unwrap()
}

async fn a_lone_server_killed_and_restarted_serves_its_tables_at_once(db: Db) {
    let db = TestDb::new(db).await;
    let data_dir = std::env::temp_dir().join(format!("luddo-restart-{}", uuid::Uuid::new_v4().simple()));
    let database_url = match db.url.starts_with("sqlite:") {
        true => format!("sqlite://{}?mode=rwc", data_dir.join("luddo.db").display()),
        false => db.url.clone(),
    };
    let addr = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().to_string()
    };
    let base = format!("http://{addr}");
    let client = reqwest::Client::new();

    let server = spawn(&addr, &data_dir, &database_url).await;
    let player = post(&client, format!("{base}/v1/players"), None, json!({"name": "Ann"})).await;
    let token = player["token"].as_str().unwrap();
    let table =
        post(&client, format!("{base}/v1/tables"), Some(token), json!({"game": "luddo", "seat_count": 2}))
            .await;
    let id = table["id"].as_str().unwrap();
    let body = json!({"fill_with_bots": true});
    post(&client, format!("{base}/v1/tables/{id}/start"), Some(token), body).await;

    drop(server);
    let server = spawn(&addr, &data_dir, &database_url).await;
    let response = client.get(format!("{base}/v1/tables/{id}")).bearer_auth(token).send().await.unwrap();
    let status = response.status();
    let view: Value = response.json().await.unwrap();
    drop(server);
    let _ = std::fs::remove_dir_all(&data_dir);
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["play"]["seq"].as_i64().map(|seq| seq >= 1), Some(true), "{view}");
}
