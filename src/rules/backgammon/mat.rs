//! A match as a `.mat` file: the Jellyfish match format that GNU Backgammon writes with
//! `export match mat` and reads with `import mat` (eXtreme Gammon and most servers read it too).
//!
//! ```text
//! ; [Site "Luddo"]
//! ; [Player 1 "Ann"]
//! ; [Player 2 "Bob"]
//!
//!  3 point match
//!
//!  Game 1
//!  Ann : 0                        Bob : 0
//!   1) 31: 8/5 6/5                 52: 13/11 13/8
//!   2) 64: 24/18* 13/9             Doubles => 2
//!   3) Drops                       Wins 1 point
//! ```
//!
//! Seat 0 is the left column (gnubg's player 0), seat 1 the right; each numbers the points from
//! its own side, as the engine's steps do. A row holds one action of each player; a move is its
//! dice and then every checker step in the order played (`bar/22*`, `6/off`), one step per die,
//! never merged into one longer move: gnubg checks each step as it reads it, and a merged
//! `6/off` could stand for either of two plays. `0 point match` is a money game.
//!
//! The file is written from the table's events (the dice are those thrown, the opening's two
//! for the first move of each game), so it is exactly what happened at the table.

use super::{BackgammonEvent, BackgammonOptions, board::Step};
use crate::rules::Seat;
use std::fmt::Write;

/// What the file's header says besides the moves.
#[derive(Debug, Clone)]
pub struct MatHeader {
    /// The players' names, by seat; cleaned for the format by [`write`].
    pub players: [String; 2],
    pub options: BackgammonOptions,
    /// `[Site]`.
    pub site: String,
    /// `[Match ID]`: the table's id.
    pub match_id: String,
    /// `[EventDate]` as (year, month, day).
    pub date: Option<(i32, u32, u32)>,
    /// Comment lines for the reader (gnubg keeps them as the match's comment).
    pub comments: Vec<String>,
}

/// One player's part of a row.
#[derive(Debug, Clone)]
enum Record {
    Move {
        dice: [u8; 2],
        steps: Vec<Step>,
        hits: Vec<u8>,
    },
    /// The roll could not be played.
    Dance {
        dice: [u8; 2],
    },
    Double(u32),
    Take,
    Beaver(u32),
    Drop,
}

impl Record {
    fn text(&self) -> String {
        let dice = |d: &[u8; 2]| format!("{}{}:", d[0], d[1]);
        match self {
            Record::Move { dice: d, steps, hits } => {
                let mut out = dice(d);
                let mut starred = vec![];
                for step in steps {
                    let point = |p: u8| match p {
                        0 => "off".to_string(),
                        25 => "bar".to_string(),
                        p => p.to_string(),
                    };
                    let _ = write!(out, " {}/{}", point(step.from), point(step.to));
                    // The first step onto a point where a blot was hit is the hit.
                    if hits.contains(&step.to) && !starred.contains(&step.to) {
                        starred.push(step.to);
                        out.push('*');
                    }
                }
                out
            }
            Record::Dance { dice: d } => dice(d),
            Record::Double(value) => format!("Doubles => {value}"),
            Record::Take => "Takes".into(),
            Record::Beaver(value) => format!("Beavers => {value}"),
            Record::Drop => "Drops".into(),
        }
    }
}

/// One game of the match, as the events tell it.
#[derive(Debug, Default)]
struct Game {
    number: u32,
    /// The score before the game.
    score: [u32; 2],
    records: Vec<(Seat, Record)>,
    /// The winner and the points won.
    won: Option<(Seat, u32)>,
}

/// The name as the format can hold it: one line, no `:` (the score line is split at the first
/// colon), spaces single, at most 32 characters (gnubg's limit); `fallback` if nothing is left.
fn clean_name(name: &str, fallback: &str) -> String {
    let name: String =
        name.chars().map(|c| if c == ':' || c == '"' || c.is_control() { ' ' } else { c }).collect();
    let name: String = name.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(32).collect();
    let name = name.trim_end().to_string();
    if name.is_empty() { fallback.into() } else { name }
}

/// Writes the match that `events` (every event of the table's log, in order) tell.
pub fn write<'a>(header: &MatHeader, events: impl IntoIterator<Item = &'a BackgammonEvent>) -> String {
    let mut games: Vec<Game> = vec![];
    let mut score = [0, 0];
    let mut opening = [0u8; 2];
    let mut dice: Option<[u8; 2]> = None;
    let mut match_over = false;
    for event in events {
        use BackgammonEvent as E;
        let record = match event {
            E::NewGame { game, .. } => {
                games.push(Game { number: *game, score, ..Game::default() });
                None
            }
            E::OpeningRolled { seat, dice: [d] } => {
                opening[*seat] = *d;
                None
            }
            E::FirstToPlay { seat } => {
                let both = [opening[*seat], opening[1 - seat]];
                dice = (both[0] != both[1]).then_some(both);
                None
            }
            E::Rolled { dice: d, .. } => {
                dice = Some(*d);
                None
            }
            E::NoLegalPlay { seat } => Some((*seat, Record::Dance { dice: dice.take().unwrap_or_default() })),
            E::PlayMade { seat, moves, .. } => Some((
                *seat,
                Record::Move { dice: dice.take().unwrap_or_default(), steps: moves.clone(), hits: vec![] },
            )),
            E::Captured { point, .. } => {
                if let Some((_, Record::Move { hits, .. })) =
                    games.last_mut().and_then(|g| g.records.last_mut())
                {
                    hits.push(*point);
                }
                None
            }
            E::Doubled { seat, value } => Some((*seat, Record::Double(*value))),
            E::Taken { seat, .. } => Some((*seat, Record::Take)),
            E::Beavered { seat, value } => Some((*seat, Record::Beaver(*value))),
            E::Dropped { seat } => Some((*seat, Record::Drop)),
            E::GameWon { seat, points, .. } => {
                if let Some(game) = games.last_mut() {
                    game.won = Some((*seat, *points));
                }
                None
            }
            E::MatchScore { score: s, .. } => {
                score = *s;
                None
            }
            E::GameOver { .. } => {
                match_over = true;
                None
            }
            E::OpeningTie { .. } => None,
        };
        if let (Some(record), Some(game)) = (record, games.last_mut()) {
            game.records.push(record);
        }
    }

    let names = [clean_name(&header.players[0], "Player 1"), clean_name(&header.players[1], "Player 2")];
    let mut out = String::new();
    let tag = |out: &mut String, name: &str, value: &str| {
        let _ = writeln!(out, "; [{name} \"{}\"]", value.replace(['"', '\n', '\r'], "'"));
    };
    tag(&mut out, "Site", &header.site);
    tag(&mut out, "Match ID", &header.match_id);
    tag(&mut out, "Player 1", &names[0]);
    tag(&mut out, "Player 2", &names[1]);
    if let Some((y, m, d)) = header.date {
        tag(&mut out, "EventDate", &format!("{y:04}.{m:02}.{d:02}"));
    }
    tag(&mut out, "Variation", "Backgammon");
    let on = |b: bool| if b { "On" } else { "Off" };
    let o = &header.options;
    if o.match_to > 0 {
        tag(&mut out, "Crawford", on(o.crawford));
    } else {
        tag(&mut out, "Jacoby", on(o.jacoby));
        tag(&mut out, "Beaver", on(o.beavers));
    }
    if !o.cube {
        out.push_str("; Played without the doubling cube.\n");
    }
    for comment in &header.comments {
        for line in comment.lines() {
            let _ = writeln!(out, "; {line}");
        }
    }
    let _ = write!(out, "\n {} point match\n", o.match_to);

    for (k, game) in games.iter().enumerate() {
        let _ = write!(out, "\n Game {}\n", game.number);
        let left = format!("{} : {}", names[0], game.score[0]);
        let _ = writeln!(out, " {}{} : {}", cell(&left, 31, 1), names[1], game.score[1]);
        let mut row = 0;
        let mut pending: Option<String> = None;
        let mut flush = |out: &mut String, left: Option<String>, right: Option<&str>| {
            row += 1;
            let left = cell(left.as_deref().unwrap_or_default(), 28, 2);
            let line = format!("{row:>3}) {left}{}", right.unwrap_or_default());
            let _ = writeln!(out, "{}", line.trim_end());
        };
        for (seat, record) in &game.records {
            let text = record.text();
            match seat {
                0 => {
                    if let Some(left) = pending.take() {
                        flush(&mut out, Some(left), None);
                    }
                    pending = Some(text);
                }
                _ => flush(&mut out, pending.take(), Some(&text)),
            }
        }
        let Some((winner, points)) = game.won else {
            if let Some(left) = pending.take() {
                flush(&mut out, Some(left), None);
            }
            continue;
        };
        let last = match_over && k + 1 == games.len();
        let plural = if points == 1 { "" } else { "s" };
        let and_match = if last && o.match_to > 0 { " and the match" } else { "" };
        let wins = format!("Wins {points} point{plural}{and_match}");
        // As gnubg writes it: in the winner's column, on the row of the left player's drop
        // (gnubg reads a drop alone on its row as a drop and a new double), else on a line
        // of its own.
        match (pending.take(), winner) {
            (Some(drop), 1) => flush(&mut out, Some(drop), Some(&wins)),
            (left, _) => {
                if let Some(left) = left {
                    flush(&mut out, Some(left), None);
                }
                let indent = if winner == 0 { 6 } else { 34 };
                let _ = writeln!(out, "{:indent$}{wins}", "");
            }
        }
    }
    out
}

/// `text` padded to `width`, followed by at least `gap` spaces (gnubg finds the right column of
/// a row by a run of two spaces, or by its dice).
fn cell(text: &str, width: usize, gap: usize) -> String {
    let len = text.chars().count();
    let pad = if len + gap <= width { width - len } else { gap };
    format!("{text}{:pad$}", "")
}

#[cfg(test)]
mod tests {
    use super::*;
    use BackgammonEvent as E;

    fn header(match_to: u32) -> MatHeader {
        MatHeader {
            players: ["Ann: the first".into(), "  Bob\n ".into()],
            options: BackgammonOptions { match_to, ..BackgammonOptions::default() },
            site: "Luddo".into(),
            match_id: "t1".into(),
            date: Some((2026, 12, 2)),
            comments: vec!["Dice: seed 00, client seed \"x\"".into()],
        }
    }

    fn steps(pairs: &[(u8, u8)]) -> Vec<Step> {
        pairs.iter().map(|&(from, to)| Step { from, to }).collect()
    }

    fn play(seat: Seat, pairs: &[(u8, u8)]) -> E {
        E::PlayMade { seat, moves: steps(pairs), play: String::new() }
    }

    #[test]
    fn a_match_is_written_as_gnubg_writes_one() {
        let events = [
            E::NewGame { game: 1, crawford: false },
            E::OpeningRolled { seat: 0, dice: [3] },
            E::OpeningRolled { seat: 1, dice: [1] },
            E::FirstToPlay { seat: 0 },
            play(0, &[(8, 5), (6, 5)]),
            E::Rolled { seat: 1, dice: [5, 2] },
            play(1, &[(13, 8), (13, 11)]),
            E::Rolled { seat: 0, dice: [6, 4] },
            play(0, &[(24, 18), (13, 9)]),
            E::Captured { seat: 0, point: 18 },
            E::Doubled { seat: 1, value: 2 },
            E::Dropped { seat: 0 },
            E::GameWon { seat: 1, kind: super::super::WinKind::Single, cube: 1, points: 1 },
            E::MatchScore { score: [0, 1], match_to: 3 },
            E::NewGame { game: 2, crawford: false },
            E::OpeningRolled { seat: 0, dice: [2] },
            E::OpeningRolled { seat: 1, dice: [2] },
            E::OpeningTie { seats: vec![0, 1] },
            E::OpeningRolled { seat: 0, dice: [1] },
            E::OpeningRolled { seat: 1, dice: [6] },
            E::FirstToPlay { seat: 1 },
            play(1, &[(24, 18), (13, 12)]),
            E::Rolled { seat: 0, dice: [6, 6] },
            E::NoLegalPlay { seat: 0 },
            E::Rolled { seat: 1, dice: [4, 4] },
            play(1, &[(25, 21), (21, 17), (6, 2), (6, 2)]),
        ];
        let mat = write(&header(3), &events);
        let expected = r#"; [Site "Luddo"]
; [Match ID "t1"]
; [Player 1 "Ann the first"]
; [Player 2 "Bob"]
; [EventDate "2026.12.02"]
; [Variation "Backgammon"]
; [Crawford "On"]
; Dice: seed 00, client seed "x"

 3 point match

 Game 1
 Ann the first : 0              Bob : 0
  1) 31: 8/5 6/5                 52: 13/8 13/11
  2) 64: 24/18* 13/9             Doubles => 2
  3) Drops                       Wins 1 point

 Game 2
 Ann the first : 0              Bob : 1
  1)                             61: 24/18 13/12
  2) 66:                         44: bar/21 21/17 6/2 6/2
"#;
        assert_eq!(mat, expected);
    }

    #[test]
    fn a_bear_off_ends_the_game_in_the_winners_column() {
        let events = [
            E::NewGame { game: 1, crawford: false },
            E::OpeningRolled { seat: 0, dice: [6] },
            E::OpeningRolled { seat: 1, dice: [5] },
            E::FirstToPlay { seat: 0 },
            play(0, &[(6, 0), (5, 0)]),
            E::GameWon { seat: 0, kind: super::super::WinKind::Gammon, cube: 1, points: 2 },
            E::MatchScore { score: [2, 0], match_to: 0 },
            E::GameOver { places: vec![1, 2], score: [2, 0] },
        ];
        let mat = write(&header(0), &events);
        assert!(mat.contains("; [Jacoby \"Off\"]\n; [Beaver \"Off\"]\n"), "{mat}");
        assert!(mat.contains("\n 0 point match\n"), "{mat}");
        assert!(mat.ends_with("  1) 65: 6/off 5/off\n      Wins 2 points\n"), "{mat}");
    }

    #[test]
    fn long_moves_keep_two_spaces_before_the_right_column() {
        assert_eq!(cell("66: bar/19* 19/13* 13/7* 7/1*", 28, 2), "66: bar/19* 19/13* 13/7* 7/1*  ");
        assert_eq!(cell("Takes", 28, 2).len(), 28);
        assert_eq!(clean_name(" : \t", "Player 2"), "Player 2");
        assert_eq!(clean_name(&"x".repeat(40), "P").len(), 32);
    }
}
