//! TLS to PostgreSQL (CI's PostgreSQL runs with `ssl = on` and a self-signed certificate): the
//! server's connections are encrypted when `sslmode` asks for it, and a TLS failure that no wait
//! can mend (a certificate that does not verify) ends start-up at once with its cause instead
//! of being retried like a database that is still starting. Needs `TEST_DATABASE_URL` (ignored
//! without it).

mod common;

use common::{Db, TestDb, postgres_url};
use luddo::store::Store;
use sqlx::Connection;
use std::time::{Duration, Instant};

fn with_sslmode(url: &str, mode: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}sslmode={mode}")
}

#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "needs PostgreSQL: set TEST_DATABASE_URL")]
async fn the_store_reaches_postgres_over_tls() {
    let admin = postgres_url().expect("TEST_DATABASE_URL");
    let db = TestDb::new(Db::Postgres).await;
    let store = Store::open(&with_sslmode(&db.url, "require")).await.expect("TLS with sslmode=require");
    store.create_player("Tess", "hash", None).await.expect("a write over TLS");
    let name = db.url.rsplit('/').next().unwrap().split('?').next().unwrap().to_string();
    let mut conn = sqlx::PgConnection::connect(&admin).await.unwrap();
    let (backends, encrypted): (i64, i64) = sqlx::query_as(
        "SELECT COUNT(*), COUNT(*) FILTER (WHERE s.ssl)
         FROM pg_stat_activity a JOIN pg_stat_ssl s ON s.pid = a.pid WHERE a.datname = $1",
    )
    .bind(&name)
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert!(backends > 0, "the store holds connections to its database");
    assert_eq!(encrypted, backends, "every connection of the store is encrypted");
    store.close().await;
}

#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "needs PostgreSQL: set TEST_DATABASE_URL")]
async fn a_certificate_that_does_not_verify_fails_start_up_at_once() {
    let db = TestDb::new(Db::Postgres).await;
    let dir = std::env::temp_dir().join(format!("luddo-tls-{}", uuid::Uuid::new_v4().simple()));
    let started = Instant::now();
    // The server's certificate is self-signed: verify-full cannot succeed, however long one waits.
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_luddo"))
        .env("DATABASE_URL", with_sslmode(&db.url, "verify-full"))
        .env("LUDDO_ADDR", "127.0.0.1:0")
        .env("LUDDO_DATA_DIR", &dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let status = tokio::time::timeout(Duration::from_secs(30), child.wait())
        .await
        .expect("start-up gave up at once rather than waiting for the database (60 s)")
        .unwrap();
    assert!(!status.success());
    let mut err = String::new();
    tokio::io::AsyncReadExt::read_to_string(child.stderr.as_mut().unwrap(), &mut err).await.unwrap();
    assert!(err.contains("certificate"), "the cause is said: {err}");
    assert!(started.elapsed() < Duration::from_secs(30));
    std::fs::remove_dir_all(&dir).ok();
}
