//! What carrying the game state in every log entry costs, in bytes: per log row (the `events`
//! column, while the game is played and after the finish dropped `legal`) and per WebSocket
//! message, with and without `state`, averaged over whole games of bots (seeded dice).
//!
//! ```text
//! cargo run --release --example entry_bytes -- --games 200
//! ```
//!
//! The entries are built as a table builds them (the action as listed, the engine's events,
//! every seat's legal actions, the state, whose turn and a clock) and serialized with the
//! server's own types (`store::EntryEvents`, `table::messages::entry_message`); the table's own
//! entries (start, finish) are left out. The figures are JSON text, as SQLite stores it;
//! PostgreSQL's `jsonb` text adds a space after each colon and comma.

use luddo::games::{GameKind, JsonText};
use luddo::rules::dice::RngDice;
use luddo::store::{EntryEvents, LogEntry, LoggedAction, PlayedBy};
use luddo::table::messages::entry_message;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use serde_json::json;

/// Byte sums over every entry of the games played.
#[derive(Default)]
struct Sums {
    entries: usize,
    row: usize,
    row_without_state: usize,
    finished_row: usize,
    finished_row_without_state: usize,
    message: usize,
    message_without_state: usize,
    state: usize,
}

fn main() {
    let games: u64 =
        std::env::args().skip_while(|a| a != "--games").nth(1).map_or(200, |n| n.parse().expect("--games N"));
    println!(
        "| game | entries per game | state | log row while playing (without state) | finished log row (without state) | message (without state) |"
    );
    println!("|---|---|---|---|---|---|");
    for (kind, seats) in [(GameKind::Backgammon, 2), (GameKind::Luddo, 4)] {
        let mut sums = Sums::default();
        for seed in 0..games {
            play(kind, seats, seed, &mut sums);
        }
        let n = sums.entries.max(1);
        let per = |bytes: usize| bytes / n;
        println!(
            "| {} ({seats} seats) | {:.0} | {} | {} ({}) | {} ({}) | {} ({}) |",
            kind.as_str(),
            sums.entries as f64 / games as f64,
            per(sums.state),
            per(sums.row),
            per(sums.row_without_state),
            per(sums.finished_row),
            per(sums.finished_row_without_state),
            per(sums.message),
            per(sums.message_without_state),
        );
    }
}

/// One game of bots in every seat, adding each entry's bytes to `sums`.
fn play(kind: GameKind, seats: usize, seed: u64, sums: &mut Sums) {
    let mut dice = RngDice(SmallRng::seed_from_u64(seed));
    let options = kind.normalize_options(&json!(null), seats).expect("default options");
    let (mut game, _) = kind.start(&options, seats, &mut dice).expect("a game starts");
    let mut seq = 1;
    while let Some(seat) = game.to_act() {
        let action = game.bot_action(seat, luddo::bots::Level::Strong).expect("the bot acts");
        let applied = game.apply(seat, &action, &mut dice).expect("the bot's action is legal");
        seq += 1;
        let over = game.outcome().is_some();
        let to_act = game.to_act();
        let mut entry = LogEntry {
            seq,
            seat: Some(seat),
            actor: PlayedBy::Human,
            action: LoggedAction::Engine(applied.action),
            events: EntryEvents {
                deadline: to_act.map(|_| 1_764_500_000_000),
                events: applied.events,
                legal: (0..seats)
                    .map(|s| if over { JsonText::empty_list() } else { game.legal_actions_json(s) })
                    .collect(),
                state: Some(game.state_json()),
                to_act,
                reveal: None,
            },
            at: 1_764_500_000_000,
        };
        let len = |e: &EntryEvents| serde_json::to_string(e).expect("JSON").len();
        sums.entries += 1;
        sums.state += entry.events.state.as_ref().map_or(0, |s| s.get().len());
        sums.row += len(&entry.events);
        sums.message += entry_message(&entry).len();
        let finished = EntryEvents { legal: vec![], ..entry.events.clone() };
        sums.finished_row += len(&finished);
        entry.events.state = None;
        sums.row_without_state += len(&entry.events);
        sums.message_without_state += entry_message(&entry).len();
        sums.finished_row_without_state += len(&EntryEvents { legal: vec![], ..entry.events.clone() });
    }
}
