//! Reading `GET /metrics`: a scrape parsed from Prometheus' text format, and a game played to its
//! end with bots so that every kind of series has moved.

use super::{TestServer, spec};
use reqwest::Method;
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};

/// One sample line: `name{label="value",…} value`.
#[derive(Debug, Clone)]
pub struct Sample {
    pub name: String,
    pub labels: BTreeMap<String, String>,
    pub value: f64,
}

/// A parsed scrape: its samples, and the `# TYPE` of each metric family.
#[derive(Debug)]
pub struct Scrape {
    pub samples: Vec<Sample>,
    pub types: BTreeMap<String, String>,
}

impl Scrape {
    /// Parses the text exposition format; panics, naming the line, on anything else.
    pub fn parse(text: &str) -> Self {
        let mut samples = vec![];
        let mut types = BTreeMap::new();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if let Some(rest) = line.strip_prefix("# TYPE ") {
                let (name, kind) = rest.split_once(' ').unwrap_or_else(|| panic!("bad TYPE line: {line}"));
                types.insert(name.to_string(), kind.to_string());
                continue;
            }
            if line.starts_with('#') {
                continue;
            }
            samples.push(parse_sample(line).unwrap_or_else(|| panic!("not a sample line: {line}")));
        }
        Self { samples, types }
    }

    /// The names of every sample (histograms as `_bucket`, `_sum` and `_count`).
    pub fn names(&self) -> BTreeSet<&str> {
        self.samples.iter().map(|s| s.name.as_str()).collect()
    }

    /// The samples of `name` that have all of `labels`.
    pub fn matching<'a>(
        &'a self,
        name: &'a str,
        labels: &'a [(&str, &str)],
    ) -> impl Iterator<Item = &'a Sample> {
        self.samples.iter().filter(move |s| {
            s.name == name && labels.iter().all(|(k, v)| s.labels.get(*k).is_some_and(|x| x == v))
        })
    }

    /// The sum of the samples of `name` that have all of `labels` (0 when there is none).
    pub fn value(&self, name: &str, labels: &[(&str, &str)]) -> f64 {
        self.matching(name, labels).map(|s| s.value).sum()
    }
}

fn parse_sample(line: &str) -> Option<Sample> {
    let name_end = line.find(['{', ' '])?;
    let name = line[..name_end].to_string();
    let mut labels = BTreeMap::new();
    let mut rest = &line[name_end..];
    if let Some(inner) = rest.strip_prefix('{') {
        let mut chars = inner.char_indices();
        let mut key = String::new();
        loop {
            let (i, c) = chars.next()?;
            match c {
                '}' => {
                    rest = &inner[i + 1..];
                    break;
                }
                ',' if key.is_empty() => {}
                '=' => {
                    if chars.next()?.1 != '"' {
                        return None;
                    }
                    let mut value = String::new();
                    loop {
                        match chars.next()?.1 {
                            '\\' => match chars.next()?.1 {
                                'n' => value.push('\n'),
                                other => value.push(other),
                            },
                            '"' => break,
                            other => value.push(other),
                        }
                    }
                    labels.insert(std::mem::take(&mut key), value);
                }
                c => key.push(c),
            }
        }
    }
    let value = rest.split_whitespace().next()?;
    let value = match value {
        "+Inf" => f64::INFINITY,
        "-Inf" => f64::NEG_INFINITY,
        v => v.parse().ok()?,
    };
    Some(Sample { name, labels, value })
}

/// `GET /metrics`, checked against the spec (status and content type) and parsed.
pub async fn scrape(s: &TestServer) -> Scrape {
    scrape_as(s, None).await
}

/// [`scrape`] with a bearer token.
pub async fn scrape_as(s: &TestServer, token: Option<&str>) -> Scrape {
    let mut request = s.client.get(format!("{}/metrics", s.base));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let r = request.send().await.expect("request");
    assert_eq!(r.status(), 200);
    let documented = spec::documented_response(&Method::GET, "/metrics", 200).unwrap();
    let media = documented["content"].as_object().and_then(|c| c.keys().next().cloned()).unwrap();
    let ct = r.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    assert!(ct.starts_with(&media), "content-type {ct}, spec says {media}");
    Scrape::parse(&r.text().await.unwrap())
}

/// Creates a table of `game` with `seats` and starts it with bots in every seat but the host's.
/// Returns the table's id and the host's token.
pub async fn start_with_bots(s: &TestServer, game: &str, seats: usize) -> (String, String) {
    let (_, host) = s.player("Host").await;
    let t = s.table(&host, json!({"game": game, "seat_count": seats})).await;
    let id = t["id"].as_str().unwrap().to_string();
    let r = s.post(&format!("/v1/tables/{id}/start"), Some(&host), json!({"fill_with_bots": true})).await;
    assert_eq!(r.status, 200, "{game}: {}", r.json);
    (id, host)
}

/// Follows table `id` on a WebSocket and plays the host's seat with its first legal action
/// until the game ends. Returns how many entries the game wrote, from its `start` to its
/// `finish` (the lobby's entries before the start are not the game's).
pub async fn play_to_the_end(s: &TestServer, id: &str, host: &str) -> i64 {
    let mut ws = s.ws(id, &format!("token={host}")).await;
    for _ in 0..20_000 {
        let view = s.table_view(id, Some(host)).await;
        if view["status"] == "finished" {
            let start = ws.entry_where(|e| e["action"]["type"] == "start").await;
            let last = ws.entry_where(|e| e["action"]["type"] == "finish").await;
            ws.close().await;
            return last["seq"].as_i64().unwrap() - start["seq"].as_i64().unwrap() + 1;
        }
        let play = &view["play"];
        let legal = play["legal_actions"].as_array().unwrap();
        // Uckers: never resign on purpose.
        if let Some(action) = legal.iter().find(|a| a["type"] != "up_board").or(legal.first()) {
            let r = s.act(id, host, action, play["seq"].as_i64().unwrap()).await;
            assert!(r.status == 200 || r.json["code"] == "stale_seq", "{id}: {}", r.json);
        }
    }
    panic!("table {id} did not end");
}
