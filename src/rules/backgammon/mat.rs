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
//! for the first move of each game), so it is exactly what happened at the table; in order, as
//! the log is read a page at a time ([`MatWriter`]).

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

/// The name as the format can hold it: one line, no `:` (the score line is split at the first
/// colon), spaces single, at most 32 characters (gnubg's limit); `fallback` if nothing is left.
fn clean_name(name: &str, fallback: &str) -> String {
    let name: String =
        name.chars().map(|c| if c == ':' || c == '"' || c.is_control() { ' ' } else { c }).collect();
    let name: String = name.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(32).collect();
    let name = name.trim_end().to_string();
    if name.is_empty() { fallback.into() } else { name }
}

/// A match file written as the table's events come, in order (a page of the log at a time):
/// it keeps only what the lines still to come need (the score, the opening's dice, the roll,
/// the current game's unwritten row), so a match of any length is written in bounded memory.
/// Each line is written once nothing later can change it.
#[derive(Debug)]
pub struct MatWriter {
    names: [String; 2],
    match_to: u32,
    /// The score before the game that begins next.
    score: [u32; 2],
    opening: [u8; 2],
    /// The roll the next move is played with.
    dice: Option<[u8; 2]>,
    /// The match has ended: the last game's win is the match's too.
    match_over: bool,
    /// The game being played, once one has begun.
    game: Option<Game>,
}

/// The rows of the game being written.
#[derive(Debug, Default)]
struct Game {
    /// Rows written so far.
    rows: u32,
    /// The left player's part of the row not yet written (the right player's ends it).
    left: Option<String>,
    /// The latest record, not yet laid out: a capture after it marks its step.
    last: Option<(Seat, Record)>,
    /// The winner and the points won.
    won: Option<(Seat, u32)>,
}

impl Game {
    fn row(&mut self, out: &mut String, left: Option<&str>, right: Option<&str>) {
        self.rows += 1;
        let left = cell(left.unwrap_or_default(), 28, 2);
        let line = format!("{:>3}) {left}{}", self.rows, right.unwrap_or_default());
        let _ = writeln!(out, "{}", line.trim_end());
    }

    /// Lays out the latest record: the left player's waits for the right player's on its row.
    fn lay_out_last(&mut self, out: &mut String) {
        let Some((seat, record)) = self.last.take() else { return };
        let text = record.text();
        match seat {
            0 => {
                if let Some(left) = self.left.take() {
                    self.row(out, Some(&left), None);
                }
                self.left = Some(text);
            }
            _ => {
                let left = self.left.take();
                self.row(out, left.as_deref(), Some(&text));
            }
        }
    }

    /// Writes what is left of the game: its last rows and who won it (`and_match`: the match's
    /// last game).
    fn end(mut self, out: &mut String, and_match: bool) {
        self.lay_out_last(out);
        let Some((winner, points)) = self.won else {
            if let Some(left) = self.left.take() {
                self.row(out, Some(&left), None);
            }
            return;
        };
        let plural = if points == 1 { "" } else { "s" };
        let and_match = if and_match { " and the match" } else { "" };
        let wins = format!("Wins {points} point{plural}{and_match}");
        // As gnubg writes it: in the winner's column, on the row of the left player's drop
        // (gnubg reads a drop alone on its row as a drop and a new double), else on a line
        // of its own.
        match (self.left.take(), winner) {
            (Some(drop), 1) => self.row(out, Some(&drop), Some(&wins)),
            (left, _) => {
                if let Some(left) = left {
                    self.row(out, Some(&left), None);
                }
                let indent = if winner == 0 { 6 } else { 34 };
                let _ = writeln!(out, "{:indent$}{wins}", "");
            }
        }
    }
}

impl MatWriter {
    /// A writer of the match `header` describes; writes the file's header to `out`.
    pub fn new(header: &MatHeader, out: &mut String) -> Self {
        let names = [clean_name(&header.players[0], "Player 1"), clean_name(&header.players[1], "Player 2")];
        let tag = |out: &mut String, name: &str, value: &str| {
            let _ = writeln!(out, "; [{name} \"{}\"]", value.replace(['"', '\n', '\r'], "'"));
        };
        tag(out, "Site", &header.site);
        tag(out, "Match ID", &header.match_id);
        tag(out, "Player 1", &names[0]);
        tag(out, "Player 2", &names[1]);
        if let Some((y, m, d)) = header.date {
            tag(out, "EventDate", &format!("{y:04}.{m:02}.{d:02}"));
        }
        tag(out, "Variation", "Backgammon");
        let on = |b: bool| if b { "On" } else { "Off" };
        let o = &header.options;
        if o.match_to > 0 {
            tag(out, "Crawford", on(o.crawford));
        } else {
            tag(out, "Jacoby", on(o.jacoby));
            tag(out, "Beaver", on(o.beavers));
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
        Self {
            names,
            match_to: o.match_to,
            score: [0, 0],
            opening: [0, 0],
            dice: None,
            match_over: false,
            game: None,
        }
    }

    /// Writes to `out` what `event`, the next of the table's events, settles.
    pub fn event(&mut self, event: &BackgammonEvent, out: &mut String) {
        use BackgammonEvent as E;
        let record = match event {
            E::NewGame { game, .. } => {
                if let Some(previous) = self.game.take() {
                    previous.end(out, false);
                }
                let _ = write!(out, "\n Game {game}\n");
                let left = format!("{} : {}", self.names[0], self.score[0]);
                let _ = writeln!(out, " {}{} : {}", cell(&left, 31, 1), self.names[1], self.score[1]);
                self.game = Some(Game::default());
                None
            }
            E::OpeningRolled { seat, dice: [d] } => {
                self.opening[*seat] = *d;
                None
            }
            E::FirstToPlay { seat } => {
                let both = [self.opening[*seat], self.opening[1 - seat]];
                self.dice = (both[0] != both[1]).then_some(both);
                None
            }
            E::Rolled { dice: d, .. } => {
                self.dice = Some(*d);
                None
            }
            E::NoLegalPlay { seat } => {
                Some((*seat, Record::Dance { dice: self.dice.take().unwrap_or_default() }))
            }
            E::PlayMade { seat, moves, .. } => Some((
                *seat,
                Record::Move {
                    dice: self.dice.take().unwrap_or_default(),
                    steps: moves.clone(),
                    hits: vec![],
                },
            )),
            E::Captured { point, .. } => {
                if let Some((_, Record::Move { hits, .. })) = self.game.as_mut().and_then(|g| g.last.as_mut())
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
                if let Some(game) = &mut self.game {
                    game.won = Some((*seat, *points));
                }
                None
            }
            E::MatchScore { score: s, .. } => {
                self.score = *s;
                None
            }
            E::GameOver { .. } => {
                self.match_over = true;
                None
            }
            E::OpeningTie { .. } => None,
        };
        if let (Some(record), Some(game)) = (record, &mut self.game) {
            game.lay_out_last(out);
            game.last = Some(record);
        }
    }

    /// Writes the rest: the last game's last rows and its end, as far as the events went.
    pub fn finish(mut self, out: &mut String) {
        if let Some(game) = self.game.take() {
            game.end(out, self.match_over && self.match_to > 0);
        }
    }
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

    /// The match that `events` tell, written at once.
    fn write<'a>(header: &MatHeader, events: impl IntoIterator<Item = &'a BackgammonEvent>) -> String {
        let mut out = String::new();
        let mut writer = MatWriter::new(header, &mut out);
        for event in events {
            writer.event(event, &mut out);
        }
        writer.finish(&mut out);
        out
    }

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

    /// Every event of a match played at random: doubles, takes, drops, beavers, hits, dances,
    /// bear-offs.
    fn a_long_match(options: BackgammonOptions) -> Vec<E> {
        use crate::rules::{Engine, dice::RngDice};
        use rand::{Rng, SeedableRng};
        let mut dice = RngDice(rand::rngs::StdRng::seed_from_u64(31));
        let mut choices = rand::rngs::StdRng::seed_from_u64(13);
        let (mut game, mut events) = super::super::Backgammon::new(options, 2, &mut dice).unwrap();
        while let Some(seat) = game.to_act() {
            let legal = game.legal_actions(seat);
            let action = &legal[choices.random_range(0..legal.len())];
            events.extend(game.apply(seat, action, &mut dice).unwrap());
        }
        events
    }

    #[test]
    fn a_match_written_a_page_at_a_time_is_the_match_written_at_once() {
        let mut played = 0;
        for options in [
            BackgammonOptions { match_to: 25, ..BackgammonOptions::default() },
            BackgammonOptions { match_to: 25, cube: false, ..BackgammonOptions::default() },
            BackgammonOptions { match_to: 0, beavers: true, jacoby: true, ..BackgammonOptions::default() },
        ] {
            let events = a_long_match(options.clone());
            played += events.len();
            let mut header = header(options.match_to);
            header.options = options;
            let whole = write(&header, &events);
            // Pages of one event, and of sizes that split a play from its captures.
            for page in [1, 7, 1000] {
                let mut streamed = String::new();
                let mut writer = MatWriter::new(&header, &mut streamed);
                for events in events.chunks(page) {
                    let mut piece = String::new();
                    for event in events {
                        writer.event(event, &mut piece);
                    }
                    streamed.push_str(&piece);
                }
                writer.finish(&mut streamed);
                assert_eq!(streamed, whole, "pages of {page}");
            }
        }
        assert!(played > 5_000, "{played} events");
    }

    #[test]
    fn long_moves_keep_two_spaces_before_the_right_column() {
        assert_eq!(cell("66: bar/19* 19/13* 13/7* 7/1*", 28, 2), "66: bar/19* 19/13* 13/7* 7/1*  ");
        assert_eq!(cell("Takes", 28, 2).len(), 28);
        assert_eq!(clean_name(" : \t", "Player 2"), "Player 2");
        assert_eq!(clean_name(&"x".repeat(40), "P").len(), 32);
    }
}
