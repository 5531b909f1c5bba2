//! Snakes and Ladders (RULES.md §4): one token per player, moved automatically by the die.
//!
//! The only decision a player makes is to roll, so the engine is mostly bookkeeping: entering
//! on a 6, climbing and sliding, the exact-100 rule, extra rolls on a 6, and places for the
//! players who play on. Boards are data ([`Board`]); a table may bring its own layout, which
//! [`Board::validate`] checks so that every game can end.

use super::{DiceSource, Engine, ExtraRollReason, Outcome, RuleError, Seat, opening};
use serde::{Deserialize, Serialize};

/// The last square; reaching it exactly finishes.
pub const FINISH: u8 = 100;
/// The square a token enters on, with the 6 that brings it onto the board.
pub const ENTRY: u8 = 6;

/// A board layout: where ladders and snakes start and end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Board {
    /// `[foot, top]` pairs: landing on the foot climbs to the top.
    pub ladders: Vec<[u8; 2]>,
    /// `[head, tail]` pairs: landing on the head slides down to the tail.
    pub snakes: Vec<[u8; 2]>,
}

impl Default for Board {
    /// The classic 1943 layout of RULES.md §4.
    fn default() -> Self {
        Self {
            ladders: vec![
                [1, 38],
                [4, 14],
                [9, 31],
                [21, 42],
                [28, 84],
                [36, 44],
                [51, 67],
                [71, 91],
                [80, 100],
            ],
            snakes: vec![
                [16, 6],
                [47, 26],
                [49, 11],
                [56, 53],
                [62, 19],
                [64, 60],
                [87, 24],
                [93, 73],
                [95, 75],
                [98, 78],
            ],
        }
    }
}

/// What lies at the start of a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Jump {
    None,
    Ladder(u8),
    Snake(u8),
}

impl Board {
    /// Checks the layout: every square in 1..=100, ladders go up and snakes go down, no square
    /// starts two things, nothing starts on 100 or on the end of another ladder or snake (no
    /// chains), and 100 can be reached from the entry square. A ladder foot on square 1 is
    /// allowed (the classic board has one) although tokens, entering on 6, never land there.
    pub fn validate(&self) -> Result<(), RuleError> {
        let bad = |m: String| Err(RuleError::invalid_options(m));
        let mut starts = [false; FINISH as usize + 1];
        let mut ends = [false; FINISH as usize + 1];
        let all = self.ladders.iter().map(|p| ("ladder", p)).chain(self.snakes.iter().map(|p| ("snake", p)));
        for (what, &[from, to]) in all {
            for sq in [from, to] {
                if !(1..=FINISH).contains(&sq) {
                    return bad(format!("{what} {from}→{to}: square {sq} is not in 1..=100"));
                }
            }
            if what == "ladder" && to <= from {
                return bad(format!("ladder {from}→{to} must go up"));
            }
            if what == "snake" && to >= from {
                return bad(format!("snake {from}→{to} must go down"));
            }
            if from == FINISH {
                return bad(format!("{what} {from}→{to} may not start on square 100"));
            }
            if starts[from as usize] {
                return bad(format!("square {from} starts two ladders or snakes"));
            }
            starts[from as usize] = true;
            ends[to as usize] = true;
        }
        if let Some(sq) = (1..=FINISH).find(|&s| starts[s as usize] && ends[s as usize]) {
            return bad(format!(
                "square {sq} is both the end of one ladder or snake and the start of another"
            ));
        }
        if !self.finish_reachable() {
            return bad("square 100 cannot be reached from the entry square 6".to_string());
        }
        Ok(())
    }

    fn jump(&self, square: u8) -> Jump {
        if let Some(l) = self.ladders.iter().find(|l| l[0] == square) {
            return Jump::Ladder(l[1]);
        }
        if let Some(s) = self.snakes.iter().find(|s| s[0] == square) {
            return Jump::Snake(s[1]);
        }
        Jump::None
    }

    /// Where a token that lands on `square` ends up.
    fn resolve(&self, square: u8) -> u8 {
        match self.jump(square) {
            Jump::None => square,
            Jump::Ladder(to) | Jump::Snake(to) => to,
        }
    }

    /// Breadth-first search over die throws from the entry square.
    fn finish_reachable(&self) -> bool {
        let mut seen = [false; FINISH as usize + 1];
        let mut queue = vec![self.resolve(ENTRY)];
        seen[queue[0] as usize] = true;
        while let Some(sq) = queue.pop() {
            if sq == FINISH {
                return true;
            }
            for d in 1..=6u8 {
                if sq + d > FINISH {
                    break;
                }
                let next = self.resolve(sq + d);
                if !seen[next as usize] {
                    seen[next as usize] = true;
                    queue.push(next);
                }
            }
        }
        false
    }
}

/// Table options. `{}` is the classic board.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct SnakesOptions {
    /// The layout; the classic 1943 board when absent.
    #[schemars(title = "board")]
    pub board: Board,
}

/// The one thing a player does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SnakesAction {
    Roll,
}

/// What happened. Squares are 1..=100; `from: null` means off the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SnakesEvent {
    /// One opening throw (every seat throws; ties on the highest throw again).
    OpeningRolled {
        seat: Seat,
        dice: [u8; 1],
    },
    /// These seats tied on the highest opening throw and throw again.
    OpeningTie {
        seats: Vec<Seat>,
    },
    /// The opening is decided: this seat rolls first.
    FirstToPlay {
        seat: Seat,
    },
    /// The seat threw its die.
    Rolled {
        seat: Seat,
        dice: [u8; 1],
    },
    /// The token is off the board and the die was not a 6.
    NeedSixToStart {
        seat: Seat,
    },
    Moved {
        seat: Seat,
        from: Option<u8>,
        to: u8,
    },
    ClimbedLadder {
        seat: Seat,
        from: u8,
        to: u8,
    },
    SlidSnake {
        seat: Seat,
        from: u8,
        to: u8,
    },
    /// The die would pass 100: the token stays.
    OvershootStay {
        seat: Seat,
        at: u8,
    },
    /// A 6 was thrown (`reason` is always `six`): the same seat rolls again.
    ExtraRoll {
        seat: Seat,
        reason: ExtraRollReason,
    },
    /// The seat's token reached 100: it takes `place`.
    SeatFinished {
        seat: Seat,
        place: u8,
    },
    /// The seat to roll next (also after an extra roll).
    TurnPassed {
        seat: Seat,
    },
    GameOver {
        places: Vec<u8>,
    },
}

/// The state of one game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Snakes {
    options: SnakesOptions,
    /// Each seat's square; `None` while off the board.
    squares: Vec<Option<u8>>,
    /// Each seat's place once it has finished.
    places: Vec<Option<u8>>,
    /// The seat to roll; `None` once the game is over.
    turn: Option<Seat>,
}

impl Snakes {
    /// Each seat's square (`None`: off the board).
    pub fn squares(&self) -> &[Option<u8>] {
        &self.squares
    }

    /// Each seat's place, once finished.
    pub fn places(&self) -> &[Option<u8>] {
        &self.places
    }

    pub fn options(&self) -> &SnakesOptions {
        &self.options
    }

    fn finished_count(&self) -> usize {
        self.places.iter().filter(|p| p.is_some()).count()
    }

    /// The next seat after `seat`, clockwise, that has not finished.
    fn next_after(&self, seat: Seat) -> Seat {
        let n = self.squares.len();
        (1..=n).map(|k| (seat + k) % n).find(|&s| self.places[s].is_none()).unwrap_or(seat)
    }
}

impl Engine for Snakes {
    type Options = SnakesOptions;
    type Action = SnakesAction;
    type Event = SnakesEvent;

    fn validate(options: &SnakesOptions, seats: usize) -> Result<(), RuleError> {
        if !(2..=4).contains(&seats) {
            return Err(RuleError::invalid_options(format!(
                "Snakes and Ladders is for 2 to 4 players, not {seats}"
            )));
        }
        options.board.validate()
    }

    fn new(
        options: SnakesOptions,
        seats: usize,
        dice: &mut dyn DiceSource,
    ) -> Result<(Self, Vec<SnakesEvent>), RuleError> {
        Self::validate(&options, seats)?;
        let mut events = Vec::new();
        let first = opening::first_to_play::<1, _>(seats, dice, |round| {
            for (seat, throw) in round.throws.iter().enumerate() {
                if let Some(dice) = *throw {
                    events.push(SnakesEvent::OpeningRolled { seat, dice });
                }
            }
            if round.starts.is_none() {
                events.push(SnakesEvent::OpeningTie { seats: round.highest.to_vec() });
            }
        });
        events.push(SnakesEvent::FirstToPlay { seat: first });
        let state =
            Self { options, squares: vec![None; seats], places: vec![None; seats], turn: Some(first) };
        Ok((state, events))
    }

    fn to_act(&self) -> Option<Seat> {
        self.turn
    }

    fn legal_actions(&self, seat: Seat) -> Vec<SnakesAction> {
        if self.turn == Some(seat) { vec![SnakesAction::Roll] } else { Vec::new() }
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &SnakesAction,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<SnakesEvent>, RuleError> {
        let SnakesAction::Roll = action;
        let Some(turn) = self.turn else {
            return Err(RuleError::game_over());
        };
        if seat != turn {
            return Err(RuleError::not_your_turn(format!("it is seat {turn}'s turn to roll")));
        }
        let die = dice.die();
        let mut events = vec![SnakesEvent::Rolled { seat, dice: [die] }];
        let from = self.squares[seat];
        let landed = match from {
            None if die == ENTRY => Some(ENTRY),
            None => {
                events.push(SnakesEvent::NeedSixToStart { seat });
                None
            }
            Some(at) if at + die > FINISH => {
                events.push(SnakesEvent::OvershootStay { seat, at });
                None
            }
            Some(at) => Some(at + die),
        };
        if let Some(to) = landed {
            events.push(SnakesEvent::Moved { seat, from, to });
            let end = match self.options.board.jump(to) {
                Jump::None => to,
                Jump::Ladder(top) => {
                    events.push(SnakesEvent::ClimbedLadder { seat, from: to, to: top });
                    top
                }
                Jump::Snake(tail) => {
                    events.push(SnakesEvent::SlidSnake { seat, from: to, to: tail });
                    tail
                }
            };
            self.squares[seat] = Some(end);
            if end == FINISH {
                let place = self.finished_count() as u8 + 1;
                self.places[seat] = Some(place);
                events.push(SnakesEvent::SeatFinished { seat, place });
                // The last player still on the board takes the last place.
                let left: Vec<Seat> = (0..self.squares.len()).filter(|&s| self.places[s].is_none()).collect();
                if left.len() == 1 {
                    self.places[left[0]] = Some(place + 1);
                    self.turn = None;
                    let places = self.places.iter().map(|p| p.unwrap_or(0)).collect();
                    events.push(SnakesEvent::GameOver { places });
                    return Ok(events);
                }
            }
        }
        let next = if die == 6 && self.places[seat].is_none() {
            events.push(SnakesEvent::ExtraRoll { seat, reason: ExtraRollReason::Six });
            seat
        } else {
            self.next_after(seat)
        };
        self.turn = Some(next);
        events.push(SnakesEvent::TurnPassed { seat: next });
        Ok(events)
    }

    fn forced_action(&self) -> Option<SnakesAction> {
        None
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.turn.is_some() {
            return None;
        }
        Some(Outcome {
            places: self.places.iter().map(|p| p.unwrap_or(0)).collect(),
            points: None,
            shame: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ScriptedDice;
    use crate::rules::dice::RngDice;
    use proptest::prelude::*;
    use rand::SeedableRng;

    /// A game where seat 0 starts (opening 6 vs 1), with tokens placed by hand.
    fn game(seats: usize, squares: &[Option<u8>]) -> Snakes {
        let mut opening = vec![6];
        opening.extend(std::iter::repeat_n(1, seats - 1));
        let (mut g, _) =
            Snakes::new(SnakesOptions::default(), seats, &mut ScriptedDice::new(opening)).unwrap();
        g.squares = squares.to_vec();
        g
    }

    fn roll(g: &mut Snakes, seat: Seat, die: u8) -> Vec<SnakesEvent> {
        g.apply(seat, &SnakesAction::Roll, &mut ScriptedDice::new([die])).unwrap()
    }

    #[test]
    fn opening_throw_highest_starts_and_ties_are_rethrown() {
        // Seats 1 and 2 tie on 5; seat 0 is out; the re-throw 2 vs 4 gives seat 2.
        let (g, events) =
            Snakes::new(SnakesOptions::default(), 3, &mut ScriptedDice::new([3, 5, 5, 2, 4])).unwrap();
        assert_eq!(g.to_act(), Some(2));
        assert_eq!(
            events,
            vec![
                SnakesEvent::OpeningRolled { seat: 0, dice: [3] },
                SnakesEvent::OpeningRolled { seat: 1, dice: [5] },
                SnakesEvent::OpeningRolled { seat: 2, dice: [5] },
                SnakesEvent::OpeningTie { seats: vec![1, 2] },
                SnakesEvent::OpeningRolled { seat: 1, dice: [2] },
                SnakesEvent::OpeningRolled { seat: 2, dice: [4] },
                SnakesEvent::FirstToPlay { seat: 2 },
            ]
        );
    }

    #[test]
    fn an_opening_that_keeps_tying_ends_with_the_lowest_seat() {
        let (g, events) =
            Snakes::new(SnakesOptions::default(), 3, &mut crate::rules::dice::StuckDice(2)).unwrap();
        assert_eq!(g.to_act(), Some(0));
        // Each round: three throws of 2 and the tie of all three, but the last, which ends the
        // opening: seat 0 starts.
        assert_eq!(events.len(), 4 * crate::rules::opening::MAX_ROUNDS);
        let tie = SnakesEvent::OpeningTie { seats: vec![0, 1, 2] };
        assert!(
            events[..events.len() - 1]
                .iter()
                .all(|e| *e == tie || matches!(e, SnakesEvent::OpeningRolled { dice: [2], .. }))
        );
        assert_eq!(events.last(), Some(&SnakesEvent::FirstToPlay { seat: 0 }));
    }

    #[test]
    fn a_six_is_needed_to_start() {
        let mut g = game(2, &[None, None]);
        let ev = roll(&mut g, 0, 5);
        assert!(ev.contains(&SnakesEvent::NeedSixToStart { seat: 0 }));
        assert_eq!(g.squares, vec![None, None]);
        assert_eq!(g.to_act(), Some(1));
    }

    #[test]
    fn a_six_enters_on_square_six_and_rolls_again() {
        let mut g = game(2, &[None, None]);
        let ev = roll(&mut g, 0, 6);
        assert!(ev.contains(&SnakesEvent::Moved { seat: 0, from: None, to: 6 }));
        assert!(ev.contains(&SnakesEvent::ExtraRoll { seat: 0, reason: ExtraRollReason::Six }));
        assert_eq!(g.squares[0], Some(6));
        assert_eq!(g.to_act(), Some(0));
    }

    #[test]
    fn entering_on_a_ladder_foot_climbs() {
        let board = Board { ladders: vec![[6, 30]], snakes: vec![] };
        let (mut g, _) = Snakes::new(SnakesOptions { board }, 2, &mut ScriptedDice::new([6, 1])).unwrap();
        roll(&mut g, 0, 6);
        assert_eq!(g.squares[0], Some(30));
    }

    #[test]
    fn tokens_move_by_the_number_rolled() {
        let mut g = game(2, &[Some(10), None]);
        roll(&mut g, 0, 3);
        assert_eq!(g.squares[0], Some(13));
        assert_eq!(g.to_act(), Some(1));
    }

    #[test]
    fn landing_on_a_ladder_foot_climbs() {
        let mut g = game(2, &[Some(25), None]);
        let ev = roll(&mut g, 0, 3);
        assert!(ev.contains(&SnakesEvent::ClimbedLadder { seat: 0, from: 28, to: 84 }));
        assert_eq!(g.squares[0], Some(84));
    }

    #[test]
    fn landing_on_a_snake_head_slides_down() {
        let mut g = game(2, &[Some(85), None]);
        let ev = roll(&mut g, 0, 2);
        assert!(ev.contains(&SnakesEvent::SlidSnake { seat: 0, from: 87, to: 24 }));
        assert_eq!(g.squares[0], Some(24));
    }

    #[test]
    fn tokens_share_squares_without_captures() {
        let mut g = game(2, &[Some(10), Some(13)]);
        roll(&mut g, 0, 3);
        assert_eq!(g.squares, vec![Some(13), Some(13)]);
    }

    #[test]
    fn a_six_gives_another_roll() {
        let mut g = game(2, &[Some(10), None]);
        roll(&mut g, 0, 6);
        assert_eq!(g.to_act(), Some(0));
        roll(&mut g, 0, 2);
        assert_eq!(g.to_act(), Some(1));
    }

    #[test]
    fn exact_number_needed_for_100_overshoot_stays() {
        let mut g = game(2, &[Some(97), None]);
        let ev = roll(&mut g, 0, 4);
        assert!(ev.contains(&SnakesEvent::OvershootStay { seat: 0, at: 97 }));
        assert_eq!(g.squares[0], Some(97));
        assert_eq!(g.to_act(), Some(1));
    }

    #[test]
    fn first_to_100_wins() {
        let mut g = game(2, &[Some(97), Some(50)]);
        let ev = roll(&mut g, 0, 3);
        assert!(ev.contains(&SnakesEvent::SeatFinished { seat: 0, place: 1 }));
        assert_eq!(g.to_act(), None);
        assert_eq!(g.outcome().unwrap().places, vec![1, 2]);
        assert!(g.legal_actions(1).is_empty());
        assert_eq!(
            g.apply(1, &SnakesAction::Roll, &mut ScriptedDice::new([])).unwrap_err().kind,
            crate::rules::RuleErrorKind::GameOver
        );
    }

    #[test]
    fn with_three_or_four_players_the_rest_play_on_for_places() {
        let mut g = game(3, &[Some(94), Some(50), Some(40)]);
        // A 6 that finishes gives no extra roll: the finished seat is skipped.
        roll(&mut g, 0, 6);
        assert_eq!(g.places[0], Some(1));
        assert_eq!(g.to_act(), Some(1));
        assert!(g.outcome().is_none());
        g.squares[2] = Some(99);
        roll(&mut g, 1, 1);
        assert_eq!(g.to_act(), Some(2));
        roll(&mut g, 2, 1);
        assert_eq!(g.outcome().unwrap().places, vec![1, 3, 2]);
    }

    #[test]
    fn only_the_seat_to_act_may_roll() {
        let mut g = game(2, &[None, None]);
        let before = g.clone();
        let err = g.apply(1, &SnakesAction::Roll, &mut ScriptedDice::new([])).unwrap_err();
        assert_eq!(err.kind, crate::rules::RuleErrorKind::NotYourTurn);
        assert_eq!(g, before);
        assert_eq!(g.forced_action(), None);
    }

    #[test]
    fn seat_count_must_be_two_to_four() {
        for n in [0, 1, 5] {
            assert!(Snakes::validate(&SnakesOptions::default(), n).is_err());
        }
        for n in 2..=4 {
            assert!(Snakes::validate(&SnakesOptions::default(), n).is_ok());
        }
    }

    fn board(ladders: &[[u8; 2]], snakes: &[[u8; 2]]) -> Board {
        Board { ladders: ladders.to_vec(), snakes: snakes.to_vec() }
    }

    #[test]
    fn board_validation_accepts_the_classic_board_and_an_empty_one() {
        Board::default().validate().unwrap();
        board(&[], &[]).validate().unwrap();
    }

    #[test]
    fn board_validation_rejects_bad_layouts() {
        let cases = [
            ("square 0", board(&[[0, 10]], &[])),
            ("square 101", board(&[[10, 101]], &[])),
            ("ladder down", board(&[[20, 10]], &[])),
            ("ladder flat", board(&[[20, 20]], &[])),
            ("snake up", board(&[], &[[10, 20]])),
            ("snake on 100", board(&[], &[[100, 50]])),
            ("two starts", board(&[[10, 20]], &[[10, 5]])),
            ("chain", board(&[[10, 20]], &[[20, 5]])),
            ("ladder into snake", board(&[[30, 40]], &[[40, 2]])),
            ("unreachable 100", board(&[], &[[94, 2], [95, 2], [96, 2], [97, 2], [98, 2], [99, 2]])),
        ];
        for (name, b) in cases {
            let err = b.validate().expect_err(name);
            assert_eq!(err.kind, crate::rules::RuleErrorKind::InvalidOptions, "{name}");
        }
    }

    #[test]
    fn options_json_rejects_unknown_fields_and_defaults_to_classic() {
        let o: SnakesOptions = serde_json::from_str("{}").unwrap();
        assert_eq!(o.board, Board::default());
        assert!(serde_json::from_str::<SnakesOptions>(r#"{"boards": {}}"#).is_err());
        let o: SnakesOptions =
            serde_json::from_str(r#"{"board": {"ladders": [[2, 50]], "snakes": [[60, 3]]}}"#).unwrap();
        assert_eq!(o.board, board(&[[2, 50]], &[[60, 3]]));
        assert_eq!(serde_json::to_string(&SnakesAction::Roll).unwrap(), r#"{"type":"roll"}"#);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn random_games_end_with_all_places_and_replay_identically(seed: u64, seats in 2usize..=4) {
            let play = |seed: u64| {
                let mut dice = RngDice(rand::rngs::StdRng::seed_from_u64(seed));
                let (mut g, _) = Snakes::new(SnakesOptions::default(), seats, &mut dice).unwrap();
                let mut steps = 0;
                while let Some(seat) = g.to_act() {
                    prop_assert_eq!(g.legal_actions(seat), vec![SnakesAction::Roll]);
                    let other = (seat + 1) % seats;
                    let before = g.clone();
                    prop_assert!(g.apply(other, &SnakesAction::Roll, &mut dice).is_err());
                    prop_assert_eq!(&g, &before);
                    g.apply(seat, &SnakesAction::Roll, &mut dice).unwrap();
                    for sq in g.squares.iter().flatten() {
                        prop_assert!((1..=FINISH).contains(sq));
                    }
                    steps += 1;
                    prop_assert!(steps < 100_000);
                }
                let mut places = g.outcome().unwrap().places;
                places.sort();
                prop_assert_eq!(places, (1..=seats as u8).collect::<Vec<_>>());
                Ok(g)
            };
            prop_assert_eq!(play(seed)?, play(seed)?);
        }
    }
}
