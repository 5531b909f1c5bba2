//! `GET /metrics`: a game played with bots moves the counters it should, by route template,
//! status, game and who played. Every server of this process shares one recorder, so each test
//! compares two scrapes, and a series only one test moves (its own game) is checked exactly.

mod common;

use common::{
    Db, TestServer,
    metrics::{Sample, Scrape, play_to_the_end, scrape, start_with_bots},
    test_config,
};
use luddo::config::Config;
use reqwest::Method;

both_stores!(
    a_game_with_bots_moves_the_counters,
    metrics_off_serves_no_metrics,
    junk_methods_and_paths_add_no_series,
);

/// The game each store's variant plays: no other test of this process plays it, so its
/// `game` series are this test's alone.
fn own_game(db: Db) -> (&'static str, usize) {
    match db {
        Db::Sqlite => ("snakes", 4),
        Db::Postgres => ("ludo", 2),
    }
}

fn delta(before: &Scrape, after: &Scrape, name: &str, labels: &[(&str, &str)]) -> f64 {
    after.value(name, labels) - before.value(name, labels)
}

async fn a_game_with_bots_moves_the_counters(db: Db) {
    let (game, seats) = own_game(db);
    let s = TestServer::start(db).await;
    let before = scrape(&s).await;
    let in_play = [("game", game)];
    assert_eq!(before.value("luddo_tables_in_play", &in_play), 0.0, "no {game} table yet");

    let (id, host) = start_with_bots(&s, game, seats).await;
    // The game waits for the host: it is in play.
    let during = scrape(&s).await;
    assert_eq!(during.value("luddo_tables_in_play", &in_play), 1.0);
    assert_eq!(during.types.get("luddo_tables_in_play").map(String::as_str), Some("gauge"));
    let game_entries = play_to_the_end(&s, &id, &host).await;
    let r = s.client.get(format!("{}/nowhere", s.base)).send().await.unwrap();
    assert_eq!(r.status(), 404);
    let after = scrape(&s).await;
    let moved = |name: &str, labels: &[(&str, &str)]| delta(&before, &after, name, labels);

    // Requests, by route template (never the raw path) and status.
    let requests = "luddo_http_requests_total";
    assert_eq!(after.types.get(requests).map(String::as_str), Some("counter"));
    assert!(moved(requests, &[("method", "POST"), ("route", "/v1/players"), ("status", "201")]) >= 1.0);
    assert!(
        moved(requests, &[("method", "POST"), ("route", "/v1/tables/{id}/start"), ("status", "200")]) >= 1.0
    );
    let posted = moved(requests, &[("method", "POST"), ("route", "/v1/tables/{id}/actions")]);
    assert!(posted >= 1.0, "the host's actions");
    assert!(
        moved(requests, &[("method", "GET"), ("route", "/v1/tables/{id}/events"), ("status", "101")]) >= 1.0
    );
    assert!(moved(requests, &[("route", "unmatched"), ("status", "404")]) >= 1.0);
    assert!(
        after.samples.iter().all(|s| s.labels.values().all(|v| !v.contains(&id))),
        "no table id in a label"
    );

    // The latency histogram: one observation per request, in cumulative buckets.
    let histogram = "luddo_http_request_duration_seconds";
    let actions = [("method", "POST"), ("route", "/v1/tables/{id}/actions")];
    assert_eq!(after.types.get(histogram).map(String::as_str), Some("histogram"));
    assert!(moved(&format!("{histogram}_count"), &actions) >= posted);
    assert!(moved(&format!("{histogram}_sum"), &actions) > 0.0);
    let mut buckets: Vec<(f64, f64)> = after
        .matching(&format!("{histogram}_bucket"), &actions)
        .map(|s| (s.labels["le"].parse().unwrap(), s.value))
        .collect();
    buckets.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert!(buckets.len() >= 10, "{buckets:?}");
    assert!(buckets.windows(2).all(|w| w[0].1 <= w[1].1), "cumulative: {buckets:?}");
    assert_eq!(
        buckets.last().unwrap(),
        &(f64::INFINITY, after.value(&format!("{histogram}_count"), &actions))
    );

    // Every entry of the log counted once, by who played it: this test's game is its own.
    let entries = "luddo_actions_total";
    let by = |played_by: &str| moved(entries, &[("game", game), ("played_by", played_by)]);
    assert_eq!(moved(entries, &[("game", game)]), game_entries as f64, "one per log entry of the game");
    assert!(by("human") >= 1.0 && by("bot") >= 1.0, "human {} bot {}", by("human"), by("bot"));
    assert_eq!(by("server"), 2.0, "start and finish");

    // The table was in play while it was played, and no longer is.
    assert_eq!(after.value("luddo_tables_in_play", &in_play), 0.0);

    // Group commits, connections, WebSockets.
    assert!(moved("luddo_log_batch_appends_count", &[]) >= 1.0);
    assert!(moved("luddo_log_batch_appends_sum", &[]) >= 1.0);
    assert!(moved("luddo_log_commit_duration_seconds_count", &[]) >= 1.0);
    assert!(moved("luddo_connections_accepted_total", &[]) >= 1.0);
    assert!(moved("luddo_websockets_opened_total", &[]) >= 1.0);
    for reason in ["timeouts", "stalling", "away"] {
        let series = after.matching("luddo_seat_takeovers_total", &[("reason", reason)]).count();
        assert_eq!(series, 1, "takeovers for {reason}: a series from the start, at 0 or more");
    }
}

/// `LUDDO_METRICS=off`: no route.
async fn metrics_off_serves_no_metrics(db: Db) {
    let s = TestServer::start_with(db, Config { metrics: false, ..test_config() }).await;
    let r = s.client.get(format!("{}/metrics", s.base)).send().await.unwrap();
    assert_eq!(r.status(), 404);
    let problem: serde_json::Value = r.json().await.unwrap();
    assert_eq!(problem["code"], "not_found");
}

/// The labels a request may put on the page: the methods HTTP defines that the API answers,
/// everything else as `other`.
const METHODS: [&str; 8] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "other"];

/// Requests with made-up methods (short, long) and made-up paths, each different from the
/// last `round`'s.
async fn junk(s: &TestServer, round: usize) {
    for i in 0..20 {
        let method = format!("XQZ{round}N{i}");
        let long = format!("L{}{round}{i}", "Z".repeat(8 * 1024));
        for (method, path) in [
            (method.as_str(), "/health".to_string()),
            (long.as_str(), "/health".to_string()),
            (method.as_str(), format!("/junk/{round}/{i}")),
            ("GET", format!("/nothing-{round}-{i}/here")),
            ("DELETE", format!("/v1/{round}x{i}")),
        ] {
            let method = Method::from_bytes(method.as_bytes()).unwrap();
            let r = s.client.request(method, format!("{}{path}", s.base)).send().await.unwrap();
            assert!(r.status().is_client_error(), "{path}: {}", r.status());
        }
    }
}

/// The series of the request counters on the routes junk reaches (a histogram's buckets count
/// as one series each). Other tests of this process move other routes' series meanwhile.
fn junk_series(scrape: &Scrape) -> Vec<&Sample> {
    scrape
        .samples
        .iter()
        .filter(|s| s.name.starts_with("luddo_http_request"))
        .filter(|s| ["unmatched", "/health"].contains(&s.labels["route"].as_str()))
        .collect()
}

/// Whatever methods and paths clients send, the request series stay the fixed set of methods
/// by route template (`unmatched` for any path no route has) and status: junk adds none.
async fn junk_methods_and_paths_add_no_series(db: Db) {
    let s = TestServer::start(db).await;
    junk(&s, 0).await;
    let first = scrape(&s).await;
    for sample in first.samples.iter().filter(|s| s.name.starts_with("luddo_http_request")) {
        let method = &sample.labels["method"];
        assert!(METHODS.contains(&method.as_str()), "a method label outside the fixed set: {method:.60}");
        let route = &sample.labels["route"];
        assert!(route == "unmatched" || !route.contains("junk"), "a raw path as a label: {route:.60}");
    }
    let series = junk_series(&first).len();
    for round in 1..3 {
        junk(&s, round).await;
    }
    assert_eq!(junk_series(&scrape(&s).await).len(), series, "junk made new series");
}
