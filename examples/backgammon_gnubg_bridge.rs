//! A line protocol on stdin/stdout that lets an outside program (`scripts/gnubg_bench.py`, which
//! plays against GNU Backgammon) ask our backgammon bots for their checker plays.
//!
//! `cargo build --release --example backgammon_gnubg_bridge`, then
//! `target/release/examples/backgammon_gnubg_bridge --policy strong|normal|easy|pubeval|net0|net1`
//! (default `strong`; the levels as the server plays them; `net0` is the network at 0 ply,
//! `net1` with a 1-ply search over its 8 best plays, `net1:K` with that search over its K best plays, `net2:K` with a 2-ply search over the
//! 1-ply search's K best), `--weights FILE` to play another weights file than the shipped one (the levels
//! played with it as the server plays them with its own), `--noise X` to play the network at 0
//! ply with each play's equity misjudged by up to ±X, as the `easy` and `normal` levels do.
//!
//! Each input line is `<position id> <d1> <d2>`: a GNU Backgammon Position ID seen from the side
//! on roll, and its dice. Each answer is one line: the position the policy's play leaves, as a
//! Position ID seen by the opponent (now on roll), then a space and the same for every legal play
//! (the chosen one included), so the caller can judge all the candidates. When nothing can move
//! the answer is the input position with the other side on roll, alone. A line that cannot be
//! read gets `error: <reason>`. The output is flushed after each line.

use luddo::bots::Level;
use luddo::bots::backgammon::net::{Net, pick_1ply, pick_2ply};
use luddo::bots::backgammon::{STRONG_CANDIDATES, network, pick_noisy, pick_play_with, pubeval};
use luddo::rules::backgammon::board::with_plays;
use luddo::rules::backgammon::ids::{parse_position_id, position_id};
use std::io::{BufRead, Write};

#[derive(Clone, Copy)]
enum Policy {
    /// A bot level, as the server plays it.
    Bot(Level),
    /// The network with the strong bot's 1-ply search over its this many best plays.
    OnePly(usize),
    /// The network with a 2-ply search over its 1-ply search's this many best plays within
    /// this much of the best.
    TwoPly(usize, f32),
    /// The network at 0 ply, each play's equity misjudged by up to ± this much.
    Noisy(f32),
    Pubeval,
}

fn answer(net: &Net, policy: Policy, line: &str) -> Result<String, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [id, d1, d2] = fields[..] else {
        return Err(format!("expected `<position id> <d1> <d2>`, got {line:?}"));
    };
    let pos = parse_position_id(id).map_err(|e| e.to_string())?;
    let die = |s: &str| s.parse::<u8>().ok().filter(|d| (1..=6).contains(d)).ok_or(format!("bad die {s:?}"));
    let dice = [die(d1)?, die(d2)?];
    Ok(with_plays(&pos, dice, |plays| {
        let chosen = match policy {
            Policy::Bot(level) => pick_play_with(net, level, &pos, dice, plays),
            Policy::OnePly(keep) => pick_1ply(net, plays, keep),
            Policy::TwoPly(deep, within) => pick_2ply(net, plays, STRONG_CANDIDATES, deep, within),
            Policy::Noisy(noise) => pick_noisy(net, &pos, dice, plays, noise),
            Policy::Pubeval => pubeval::choose(&pos, plays.iter().map(|p| p.result)),
        };
        match chosen {
            None => position_id(&pos.swapped()),
            Some(i) => {
                let mut out = position_id(&plays[i].result.swapped());
                for p in plays {
                    out.push(' ');
                    out.push_str(&position_id(&p.result.swapped()));
                }
                out
            }
        }
    }))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1));
    let name = arg("--policy").map_or("strong", |s| s);
    let policy = match name {
        "strong" => Policy::Bot(Level::Strong),
        "normal" => Policy::Bot(Level::Normal),
        "easy" => Policy::Bot(Level::Easy),
        "net1" => Policy::OnePly(STRONG_CANDIDATES),
        "net0" => Policy::Noisy(0.0),
        "pubeval" => Policy::Pubeval,
        other => match (other.strip_prefix("net1:"), other.strip_prefix("net2:")) {
            (Some(k), _) if k.parse::<usize>().is_ok() => Policy::OnePly(k.parse().unwrap()),
            (_, Some(k)) if two_ply(k).is_some() => {
                let (deep, within) = two_ply(k).unwrap();
                Policy::TwoPly(deep, within)
            }
            _ => {
                eprintln!(
                    "unknown policy {other:?}: strong, normal, easy, pubeval, net0, net1, net1:K or net2:K"
                );
                std::process::exit(2);
            }
        },
    };
    let policy = match (policy, arg("--noise").map(|v| v.parse::<f32>())) {
        (_, None) => policy,
        (_, Some(Ok(noise))) if noise >= 0.0 => Policy::Noisy(noise),
        (_, Some(_)) => {
            eprintln!("--noise takes a number of points, 0 or more");
            std::process::exit(2);
        }
    };
    let loaded;
    let net = match arg("--weights") {
        None => network(),
        Some(path) => {
            let read = std::fs::read(path).map_err(|e| e.to_string());
            match read.and_then(|bytes| Net::from_bytes(&bytes).map_err(|e| e.to_string())) {
                Ok(n) => {
                    loaded = n;
                    &loaded
                }
                Err(e) => {
                    eprintln!("{path}: {e}");
                    std::process::exit(2);
                }
            }
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let reply = answer(net, policy, &line).unwrap_or_else(|e| format!("error: {e}"));
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}

/// `K` or `K:W` of a `net2:` policy: the plays searched at 2 ply, and how far below the best at
/// 1 ply they may be (default: any).
fn two_ply(spec: &str) -> Option<(usize, f32)> {
    let (k, w) = spec.split_once(':').unwrap_or((spec, "100"));
    Some((k.parse().ok()?, w.parse().ok()?))
}
