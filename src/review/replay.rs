//! The review of a finished backgammon table: its log replayed through the engine, each
//! decision rated ([`super::eval`]) and each roll's luck ([`crate::ledger::luck::roll_luck`]).
//!
//! Decisions: every checker play with a choice (two or more distinct resulting positions);
//! every double, take, pass and beaver; and a roll without a double where the cube could be
//! turned, when not doubling lost equity or the double was close (its equity within
//! [`CLOSE_CUBE`] of playing on). A no-double that was never near a double is no decision, as
//! in GNU Backgammon's counts. A seat's error rate is its equity lost per decision, in
//! millipoints (thousandths of a point per unit of cube).

use super::eval::{CubeEquities, before_roll, cube_equities, may_double};
use super::hint::rate_plays;
use super::{Band, Mark};
use crate::bots::backgammon::net::Net;
use crate::ledger::luck::roll_luck;
use crate::ledger::thrown;
use crate::rules::backgammon::board::MoveGen;
use crate::rules::backgammon::{Backgammon, BackgammonAction, BackgammonOptions, Phase};
use crate::rules::{DiceSource, Engine, Seat};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::VecDeque;

/// A no-double is a decision when the double's equity came within this of playing on.
pub const CLOSE_CUBE: f32 = 0.1;

/// What a decision was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DecisionKind {
    /// A roll played (or, with `counted` false, a roll with one play or none: its luck only).
    Play,
    /// The roll could not be played: its luck only.
    NoPlay,
    Double,
    /// Rolled without doubling where a double was right or close.
    NoDouble,
    Take,
    Pass,
    Beaver,
}

/// One row of a review: a decision, or a roll's luck.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Decision {
    /// 1, 2, 3, … in the order played.
    pub number: u32,
    /// The log entry of the action decided (`seq`): a roll's, for a no-double and its luck.
    pub seq: i64,
    /// The game of the match (1 for the first).
    pub game: u32,
    pub seat: Seat,
    pub kind: DecisionKind,
    /// Position ID and Match ID before the decision, as GNU Backgammon reads them.
    pub position_id: String,
    pub match_id: String,
    /// The roll played (plays).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dice: Option<[u8; 2]>,
    /// The roll's luck for the roller (equity against the average of the 36 rolls); absent for
    /// the opening roll and cube decisions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub luck: Option<f32>,
    /// What was played: the play's notation, or the cube action.
    pub played: String,
    /// The best play's notation, or the best cube action (`double`, `no_double`, `too_good`,
    /// `take`, `pass`, `beaver`).
    pub best: String,
    /// Equity lost against the best, per unit of cube (0 when it was the best).
    pub equity_loss: f32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mark: Option<Mark>,
    /// Whether it counts in the error rate (a choice was made).
    pub counted: bool,
    /// Cube decisions: the equities of no double, double/take and double/pass for the doubler.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cube: Option<CubeEquities>,
}

/// One seat's totals.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SeatReview {
    pub seat: Seat,
    /// Decisions counted: checker plays with a choice and cube decisions.
    pub decisions: u32,
    pub checker_decisions: u32,
    pub cube_decisions: u32,
    /// Equity lost in all, per unit of cube.
    pub equity_lost: f64,
    /// Millipoints lost per decision (0 with no decision).
    pub error_rate: f64,
    /// GNU Backgammon's band of the error rate.
    pub band: Band,
    pub errors: u32,
    pub blunders: u32,
    /// The rolls' luck summed (equity), over `rolls` rolls (the openings not counted).
    pub luck: f64,
    pub rolls: u32,
}

/// Why a log could not be reviewed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    #[error("the log's entry {seq} does not replay: {reason}")]
    Diverged { seq: i64, reason: String },
}

/// One entry of the log, as the review reads it.
pub enum LogStep<'a> {
    /// The table's start: the engine's opening throws in its events.
    Start { seq: i64, events: &'a [Value] },
    /// An engine action of `seat`.
    Action { seq: i64, seat: Seat, action: &'a Value, events: &'a [Value] },
    /// Anything else (takeovers, reclaims, the finish).
    Other,
}

/// The dice of an entry, in the order the engine drew them.
struct Replayed {
    dice: VecDeque<u8>,
    short: bool,
}

impl DiceSource for Replayed {
    fn roll(&mut self) -> u8 {
        self.dice.pop_front().unwrap_or_else(|| {
            self.short = true;
            1
        })
    }
}

fn dice_of(events: &[Value]) -> Replayed {
    Replayed { dice: thrown(None, events).into_iter().flat_map(|t| t.dice).collect(), short: false }
}

/// The review of one table, fed its log in order.
pub struct Reviewer {
    options: BackgammonOptions,
    game: Option<Backgammon>,
    game_number: u32,
    generator: MoveGen,
    /// The luck of the roll the next play plays.
    roll_luck: Option<f32>,
    /// The doubler's cube equities while a double is offered.
    offered: Option<CubeEquities>,
    rows: Vec<Decision>,
    /// Rows handed out by [`Reviewer::take_rows`] so far.
    handed: u32,
    /// The entry being rated.
    seq: i64,
    seats: [SeatReview; 2],
}

impl Reviewer {
    pub fn new(options: BackgammonOptions) -> Self {
        let seats =
            [SeatReview { seat: 0, ..Default::default() }, SeatReview { seat: 1, ..Default::default() }];
        Self {
            options,
            game: None,
            game_number: 0,
            generator: MoveGen::new(),
            roll_luck: None,
            offered: None,
            rows: vec![],
            handed: 0,
            seq: 0,
            seats,
        }
    }

    /// The decisions rated so far and not yet taken.
    pub fn take_rows(&mut self) -> Vec<Decision> {
        self.handed += self.rows.len() as u32;
        std::mem::take(&mut self.rows)
    }

    /// Each seat's totals.
    pub fn seats(&self) -> &[SeatReview; 2] {
        &self.seats
    }

    fn count_games(&mut self, events: &[Value]) {
        self.game_number +=
            events.iter().filter(|e| e.get("type") == Some(&"new_game".into())).count() as u32;
    }

    /// Takes in one log entry.
    pub fn feed(&mut self, net: &Net, step: LogStep<'_>) -> Result<(), ReviewError> {
        match step {
            LogStep::Other => Ok(()),
            LogStep::Start { seq, events } => {
                let mut dice = dice_of(events);
                let (game, _) = Backgammon::new(self.options.clone(), 2, &mut dice)
                    .map_err(|e| ReviewError::Diverged { seq, reason: e.to_string() })?;
                if dice.short || !dice.dice.is_empty() {
                    return Err(ReviewError::Diverged { seq, reason: "the opening's dice differ".into() });
                }
                self.count_games(events);
                self.game = Some(game);
                Ok(())
            }
            LogStep::Action { seq, seat, action, events } => {
                let diverged = |reason: String| ReviewError::Diverged { seq, reason };
                let action: BackgammonAction =
                    serde_json::from_value(action.clone()).map_err(|e| diverged(e.to_string()))?;
                let Some(game) = self.game.take() else {
                    return Err(diverged("an action before the start".into()));
                };
                let before = game.clone();
                let mut after = game;
                let mut dice = dice_of(events);
                after.apply(seat, &action, &mut dice).map_err(|e| diverged(e.to_string()))?;
                if dice.short || !dice.dice.is_empty() {
                    return Err(diverged("the dice differ from the log's".into()));
                }
                self.seq = seq;
                self.rate(net, &before, seat, &action, &after, events);
                self.count_games(events);
                self.game = Some(after);
                Ok(())
            }
        }
    }

    fn row(&mut self, game: &Backgammon, seat: Seat, kind: DecisionKind) -> Decision {
        Decision {
            number: 0,
            seq: self.seq,
            game: self.game_number,
            seat,
            kind,
            position_id: game.position_id(),
            match_id: game.match_id(),
            dice: None,
            luck: None,
            played: String::new(),
            best: String::new(),
            equity_loss: 0.0,
            mark: None,
            counted: true,
            cube: None,
        }
    }

    fn push(&mut self, mut row: Decision) {
        row.number = self.handed + self.rows.len() as u32 + 1;
        row.equity_loss = row.equity_loss.max(0.0);
        if row.counted {
            row.mark = Mark::of(row.equity_loss);
            let s = &mut self.seats[row.seat];
            s.decisions += 1;
            match row.kind {
                DecisionKind::Play => s.checker_decisions += 1,
                _ => s.cube_decisions += 1,
            }
            s.equity_lost += row.equity_loss as f64;
            s.errors += (row.mark == Some(Mark::Error)) as u32;
            s.blunders += (row.mark == Some(Mark::Blunder)) as u32;
            s.error_rate = 1000.0 * s.equity_lost / s.decisions as f64;
            s.band = Band::of(s.error_rate);
        }
        if let Some(luck) = row.luck {
            self.seats[row.seat].luck += luck as f64;
            self.seats[row.seat].rolls += 1;
        }
        self.rows.push(row);
    }

    fn rate(
        &mut self,
        net: &Net,
        before: &Backgammon,
        seat: Seat,
        action: &BackgammonAction,
        after: &Backgammon,
        events: &[Value],
    ) {
        let cube = super::eval::Cube::of(before, seat);
        match (before.phase(), action) {
            (Phase::ToRoll, BackgammonAction::Roll) => {
                if may_double(before) {
                    let o = before_roll(net, &mut self.generator, &before.position());
                    let e = cube_equities(&o, &cube);
                    let loss = e.doubled() - e.no_double;
                    if loss > 0.0 || -loss < CLOSE_CUBE {
                        let mut row = self.row(before, seat, DecisionKind::NoDouble);
                        row.played = "no_double".into();
                        row.best = advice(e.double()).into();
                        row.equity_loss = loss;
                        row.cube = Some(e);
                        self.push(row);
                    }
                }
                // The roll's luck; a roll that cannot be played is a row of its own.
                let Some(dice) = rolled(seat, events) else { return };
                let luck = roll_luck(net, &before.position(), dice);
                if after.phase() == (Phase::ToPlay { dice }) && after.turn() == seat {
                    self.roll_luck = Some(luck);
                } else {
                    let mut row = self.row(before, seat, DecisionKind::NoPlay);
                    (row.dice, row.luck, row.counted) = (Some(dice), Some(luck), false);
                    self.push(row);
                }
            }
            (Phase::ToRoll, BackgammonAction::Double) => {
                let o = before_roll(net, &mut self.generator, &before.position());
                let e = cube_equities(&o, &cube);
                let mut row = self.row(before, seat, DecisionKind::Double);
                row.played = "double".into();
                row.best = advice(e.double()).into();
                row.equity_loss = e.no_double.max(e.doubled()) - e.doubled();
                row.cube = Some(e);
                self.offered = Some(e);
                self.push(row);
            }
            (
                Phase::CubeOffered,
                BackgammonAction::Take | BackgammonAction::Drop | BackgammonAction::Beaver,
            ) => {
                let Some(e) = self.offered.take() else { return };
                let beavers = super::eval::Cube::of(before, seat).beavers;
                // The taker's loss, in the doubler's equity (what the doubler gains by it).
                let take_loss = (e.double_take - e.double_pass).max(0.0);
                let (kind, loss) = match action {
                    BackgammonAction::Take => (DecisionKind::Take, take_loss),
                    BackgammonAction::Drop => (DecisionKind::Pass, (e.double_pass - e.double_take).max(0.0)),
                    // A beaver doubles the stake of the take: the doubler's positive equity
                    // after the take is lost once more.
                    _ => (DecisionKind::Beaver, take_loss + e.double_take.max(0.0)),
                };
                let mut row = self.row(before, seat, kind);
                row.played = match kind {
                    DecisionKind::Take => "take",
                    DecisionKind::Pass => "pass",
                    _ => "beaver",
                }
                .into();
                row.best = match e.take(beavers) {
                    super::eval::TakeAdvice::Take => "take",
                    super::eval::TakeAdvice::Pass => "pass",
                    super::eval::TakeAdvice::Beaver => "beaver",
                }
                .into();
                row.equity_loss = loss;
                row.cube = Some(e);
                self.push(row);
            }
            (Phase::ToPlay { dice }, BackgammonAction::Play { moves }) => {
                let luck = self.roll_luck.take();
                let pos = before.position();
                let (plays, chosen) = rate_plays(net, &mut self.generator, &pos, dice, &cube, Some(moves));
                let mut row = self.row(before, seat, DecisionKind::Play);
                (row.dice, row.luck) = (Some(dice), luck);
                row.counted = plays.len() >= 2;
                row.best = plays.first().map(|p| p.play.clone()).unwrap_or_default();
                match chosen.map(|i| &plays[i]) {
                    Some(p) => (row.played, row.equity_loss) = (p.play.clone(), p.equity_loss),
                    None => row.played = crate::rules::backgammon::board::notation(&pos, moves),
                }
                self.push(row);
            }
            _ => {}
        }
    }
}

/// The two dice `seat` rolled in an entry's events.
fn rolled(seat: Seat, events: &[Value]) -> Option<[u8; 2]> {
    thrown(Some(seat), events).into_iter().find(|t| t.seat == seat).and_then(|t| t.dice.try_into().ok())
}

fn advice(d: super::eval::DoubleAdvice) -> &'static str {
    match d {
        super::eval::DoubleAdvice::NoDouble => "no_double",
        super::eval::DoubleAdvice::Double => "double",
        super::eval::DoubleAdvice::TooGood => "too_good",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::backgammon::network;
    use crate::rules::ScriptedDice;
    use crate::rules::dice::RngDice;
    use rand::SeedableRng;

    /// A log as the table writes it: the start's events, then each action and its events.
    struct Log {
        start: Vec<Value>,
        actions: Vec<(Seat, Value, Vec<Value>)>,
    }

    fn json<T: Serialize>(items: &[T]) -> Vec<Value> {
        items.iter().map(|x| serde_json::to_value(x).unwrap()).collect()
    }

    fn review(options: BackgammonOptions, log: &Log) -> (Vec<Decision>, [SeatReview; 2]) {
        let mut r = Reviewer::new(options);
        r.feed(network(), LogStep::Start { seq: 1, events: &log.start }).unwrap();
        let mut rows = vec![];
        for (i, (seat, action, events)) in log.actions.iter().enumerate() {
            r.feed(network(), LogStep::Action { seq: i as i64 + 2, seat: *seat, action, events }).unwrap();
            rows.extend(r.take_rows());
        }
        (rows, r.seats().clone())
    }

    #[test]
    fn a_blunder_is_marked_and_counted_against_its_seat() {
        // Seat 0 opens with 3-1 and plays 24/21 24/23 instead of making its 5-point; then seat
        // 1 rolls 6-5 and plays; that is the log.
        let mut dice = ScriptedDice::new([3, 1, 6, 5]);
        let (mut g, start) = Backgammon::new(BackgammonOptions::default(), 2, &mut dice).unwrap();
        let mut actions = vec![];
        let bad = BackgammonAction::Play {
            moves: vec![
                crate::rules::backgammon::board::Step { from: 24, to: 21 },
                crate::rules::backgammon::board::Step { from: 24, to: 23 },
            ],
        };
        for (seat, action) in [(0, bad), (1, BackgammonAction::Roll)] {
            let events = g.apply(seat, &action, &mut dice).unwrap();
            actions.push((seat, serde_json::to_value(&action).unwrap(), json(&events)));
        }
        let moves = crate::bots::backgammon::choose(&g, 1, crate::bots::Level::Strong).unwrap();
        let events = g.apply(1, &moves, &mut dice).unwrap();
        actions.push((1, serde_json::to_value(&moves).unwrap(), json(&events)));
        let (rows, seats) = review(BackgammonOptions::default(), &Log { start: json(&start), actions });
        assert_eq!(rows.len(), 2, "{rows:#?}");
        let blunder = &rows[0];
        assert_eq!((blunder.seat, blunder.kind, blunder.number), (0, DecisionKind::Play, 1));
        assert_eq!(blunder.played, "24/23 24/21");
        assert_eq!(blunder.best, "8/5 6/5");
        assert_eq!(blunder.mark, Some(Mark::Blunder), "lost {}", blunder.equity_loss);
        assert_eq!(blunder.luck, None, "the opening roll is no one's luck");
        // Seat 1's play is the best by the same search, and its roll's luck is rated.
        assert_eq!((rows[1].seat, rows[1].equity_loss, rows[1].dice), (1, 0.0, Some([6, 5])));
        assert!(rows[1].luck.is_some());
        assert_eq!((seats[0].decisions, seats[0].blunders), (1, 1));
        assert!(seats[0].error_rate >= 80.0);
        assert_eq!(seats[1].error_rate, 0.0);
        assert_eq!((seats[1].rolls, seats[1].band), (1, Band::Supernatural));
    }

    #[test]
    fn an_early_double_is_an_error_and_its_pass_a_blunder() {
        // Seat 0 makes its 5-point with the opening 3-1; seat 1 doubles at once, and seat 0
        // passes a position where it is the favourite.
        let mut dice = ScriptedDice::new([3, 1]);
        let (mut g, start) = Backgammon::new(BackgammonOptions::default(), 2, &mut dice).unwrap();
        let point = BackgammonAction::Play {
            moves: vec![
                crate::rules::backgammon::board::Step { from: 8, to: 5 },
                crate::rules::backgammon::board::Step { from: 6, to: 5 },
            ],
        };
        let mut actions = vec![];
        for (seat, action) in [(0, point), (1, BackgammonAction::Double), (0, BackgammonAction::Drop)] {
            let events = g.apply(seat, &action, &mut dice).unwrap();
            actions.push((seat, serde_json::to_value(&action).unwrap(), json(&events)));
        }
        let (rows, seats) = review(BackgammonOptions::default(), &Log { start: json(&start), actions });
        let kinds: Vec<_> = rows.iter().map(|r| (r.seat, r.kind)).collect();
        assert_eq!(kinds, [(0, DecisionKind::Play), (1, DecisionKind::Double), (0, DecisionKind::Pass)]);
        let (double, pass) = (&rows[1], &rows[2]);
        assert_eq!((double.best.as_str(), double.mark.is_some()), ("no_double", true), "{double:?}");
        let e = double.cube.unwrap();
        assert!(e.double_take < e.double_pass && e.no_double > e.double_take, "{e:?}");
        assert_eq!((pass.best.as_str(), pass.mark), ("take", Some(Mark::Blunder)), "{pass:?}");
        assert!((pass.equity_loss - (e.double_pass - e.double_take)).abs() < 1e-6);
        assert_eq!((seats[1].cube_decisions, seats[0].cube_decisions), (1, 1));
    }

    #[test]
    fn a_whole_match_replays_and_every_loss_is_at_least_zero() {
        let options = BackgammonOptions { match_to: 3, ..Default::default() };
        // The first seeded match of several games (a gammon or a cube can end one in a game; which
        // seed gives several depends on the bots' play, so the test looks for one).
        let bot_match = |seed: u64| {
            let mut dice = RngDice(rand::rngs::StdRng::seed_from_u64(seed));
            let (mut g, start) = Backgammon::new(options.clone(), 2, &mut dice).unwrap();
            let mut actions = vec![];
            while let Some(seat) = g.to_act() {
                let level = if seat == 0 { crate::bots::Level::Normal } else { crate::bots::Level::Easy };
                let a = crate::bots::backgammon::choose(&g, seat, level).unwrap();
                let events = g.apply(seat, &a, &mut dice).unwrap();
                actions.push((seat, serde_json::to_value(&a).unwrap(), json(&events)));
            }
            review(options.clone(), &Log { start: json(&start), actions })
        };
        let (rows, seats) = (11..41)
            .map(bot_match)
            .find(|(rows, _)| rows.iter().any(|r| r.game > 1))
            .expect("a 3-point match of several games among 30 seeds");
        assert!(rows.iter().all(|r| r.equity_loss >= 0.0));
        assert!(rows.windows(2).all(|w| w[1].number == w[0].number + 1));
        for s in &seats {
            assert!(s.decisions > 0);
            assert_eq!(s.decisions, s.checker_decisions + s.cube_decisions);
            let counted = rows.iter().filter(|r| r.seat == s.seat && r.counted).count() as u32;
            assert_eq!(s.decisions, counted);
        }
    }
}
