//! A line protocol on stdin/stdout that lets an outside program (`scripts/gnubg_bench.py`, which
//! plays against GNU Backgammon) ask our backgammon bots for their checker plays.
//!
//! `cargo build --release --example backgammon_gnubg_bridge`, then
//! `target/release/examples/backgammon_gnubg_bridge --policy strong|normal|easy|pubeval`
//! (default `strong`).
//!
//! Each input line is `<position id> <d1> <d2>`: a GNU Backgammon Position ID seen from the side
//! on roll, and its dice. Each answer is one line: the position the policy's play leaves, as a
//! Position ID seen by the opponent (now on roll), then a space and the same for every legal play
//! (the chosen one included), so the caller can judge all the candidates. When nothing can move
//! the answer is the input position with the other side on roll, alone. A line that cannot be
//! read gets `error: <reason>`. The output is flushed after each line.

use luddo::bots::Level;
use luddo::bots::backgammon::{pick_play, pubeval};
use luddo::rules::backgammon::board::with_plays;
use luddo::rules::backgammon::ids::{parse_position_id, position_id};
use std::io::{BufRead, Write};

#[derive(Clone, Copy)]
enum Policy {
    Bot(Level),
    Pubeval,
}

fn answer(policy: Policy, line: &str) -> Result<String, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [id, d1, d2] = fields[..] else {
        return Err(format!("expected `<position id> <d1> <d2>`, got {line:?}"));
    };
    let pos = parse_position_id(id).map_err(|e| e.to_string())?;
    let die = |s: &str| s.parse::<u8>().ok().filter(|d| (1..=6).contains(d)).ok_or(format!("bad die {s:?}"));
    let dice = [die(d1)?, die(d2)?];
    Ok(with_plays(&pos, dice, |plays| {
        let chosen = match policy {
            Policy::Bot(level) => pick_play(level, &pos, dice, plays),
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
    let name =
        args.iter().position(|a| a == "--policy").and_then(|i| args.get(i + 1)).map_or("strong", |s| s);
    let policy = match name {
        "strong" => Policy::Bot(Level::Strong),
        "normal" => Policy::Bot(Level::Normal),
        "easy" => Policy::Bot(Level::Easy),
        "pubeval" => Policy::Pubeval,
        other => {
            eprintln!("unknown policy {other:?}: strong, normal, easy or pubeval");
            std::process::exit(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let reply = answer(policy, &line).unwrap_or_else(|e| format!("error: {e}"));
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}
