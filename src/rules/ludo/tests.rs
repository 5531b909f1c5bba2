//! One scenario per rule of RULES.md §1–3, named after the rule. Positions are placed by hand
//! and the dice scripted, so each test reads as the rule it pins down.

use super::board::MAX_SEATS;
use super::state::BASE;
use super::*;
use crate::rules::dice::ScriptedDice;
use crate::rules::{Engine, RuleErrorKind};

/// A piece in base.
const B: u8 = BASE;
const LUDDO: Variant = Variant::Luddo { home_bonus: true };
const LUDDO_NO_HOME_BONUS: Variant = Variant::Luddo { home_bonus: false };
const CLASSIC: Variant = Variant::Classic { enter_on_one: false, play_for_places: true };

/// A position: each seat's pieces by progress ([`B`] for base), `to_act` about to roll.
fn position(variant: Variant, rows: &[[u8; 4]], to_act: Seat) -> LudoState {
    let n = rows.len();
    let mut pos = [[BASE; 4]; MAX_SEATS];
    pos[..n].copy_from_slice(rows);
    LudoState {
        variant,
        kind: BoardKind::for_seats(n).expect("2 to 6 seats"),
        seats: n as u8,
        pos,
        to_act: to_act as u8,
        phase: Phase::Roll,
        numbers: [0; 3],
        len: 0,
        next: 0,
        bonus: None,
        movable: Moves::default(),
        places: [0; MAX_SEATS],
    }
}

fn luddo(rows: &[[u8; 4]], to_act: Seat) -> Luddo {
    Luddo(position(LUDDO, rows, to_act))
}

fn classic(rows: &[[u8; 4]], to_act: Seat) -> ClassicLudo {
    ClassicLudo(position(CLASSIC, rows, to_act))
}

/// The seat to act rolls exactly these dice.
fn roll<E: Engine<Action = Action, Event = Event>>(game: &mut E, dice: &[u8]) -> Vec<Event> {
    let seat = game.to_act().expect("someone is to act");
    let mut scripted = ScriptedDice::new(dice.iter().copied());
    let events = game.apply(seat, &Action::Roll, &mut scripted).unwrap();
    assert_eq!(scripted.remaining(), 0, "every scripted die is thrown");
    events
}

/// The seat to act moves `piece`; moves never throw dice (the empty script would panic).
fn mv<E: Engine<Action = Action, Event = Event>>(game: &mut E, piece: u8) -> Vec<Event> {
    let seat = game.to_act().expect("someone is to act");
    game.apply(seat, &Action::Move { piece }, &mut ScriptedDice::new([])).unwrap()
}

/// Tries an action that must be refused, checking the state stays as it was.
fn refuse<E: Engine<Action = Action, Event = Event>>(game: &mut E, seat: Seat, action: Action) -> RuleError {
    let before = serde_json::to_string(game).unwrap();
    let err = game.apply(seat, &action, &mut ScriptedDice::new([])).unwrap_err();
    assert_eq!(serde_json::to_string(game).unwrap(), before);
    err
}

fn moves(game: &LudoState) -> Vec<u8> {
    game.legal_moves().iter().collect()
}

fn pieces(game: &LudoState, seat: Seat) -> [Option<u8>; 4] {
    std::array::from_fn(|p| game.progress(seat, p))
}

fn has(events: &[Event], wanted: &Event) -> bool {
    events.contains(wanted)
}

// ---------------------------------------------------------------- §1 the board

#[test]
fn two_players_sit_on_opposite_arms() {
    let (game, _) = Luddo::new(LuddoOptions::default(), 2, &mut ScriptedDice::new([6, 1])).unwrap();
    assert_eq!((game.arm(0), game.arm(1)), (0, 2));
    let json = serde_json::to_value(&game).unwrap();
    assert_eq!(json["seats"][1]["colour"], "green");
    assert_eq!(json["board"], "square");
}

#[test]
fn three_players_sit_on_arms_0_1_2_and_four_fill_the_square() {
    let (three, _) = Luddo::new(LuddoOptions::default(), 3, &mut ScriptedDice::new([6, 1, 1])).unwrap();
    assert_eq!((0..3).map(|s| three.arm(s)).collect::<Vec<_>>(), [0, 1, 2]);
    let (four, _) = Luddo::new(LuddoOptions::default(), 4, &mut ScriptedDice::new([6, 1, 1, 1])).unwrap();
    assert_eq!((0..4).map(|s| four.arm(s)).collect::<Vec<_>>(), [0, 1, 2, 3]);
    assert_eq!(four.board(), BoardKind::Square);
}

#[test]
fn hex_board_five_players_leave_one_arm_empty() {
    let (game, _) = Luddo::new(LuddoOptions::default(), 5, &mut ScriptedDice::new([6, 1, 1, 1, 1])).unwrap();
    assert_eq!(game.board(), BoardKind::Hex);
    assert_eq!((0..5).map(|s| game.arm(s)).collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
    let mut game = luddo(&[[B; 4], [B; 4], [B; 4], [B; 4], [0, B, B, B]], 0);
    assert_eq!(game.square_of(4, 0), Some(52), "seat 4 starts on 13·4");
    roll(&mut game, &[2]);
    assert_eq!(game.to_act(), Some(1));
}

#[test]
fn hex_board_six_players_fill_every_arm() {
    let (game, _) =
        ClassicLudo::new(ClassicOptions::default(), 6, &mut ScriptedDice::new([1, 2, 3, 4, 5, 6])).unwrap();
    assert_eq!(game.board(), BoardKind::Hex);
    assert_eq!(game.arm(5), 5);
    assert_eq!(game.to_act(), Some(5), "seat 5 threw the 6");
}

#[test]
fn seats_outside_2_to_6_are_invalid() {
    for seats in [0, 1, 7, 8] {
        let err = Luddo::validate(&LuddoOptions::default(), seats).unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::InvalidOptions);
        let err = ClassicLudo::validate(&ClassicOptions::default(), seats).unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::InvalidOptions);
        assert!(Luddo::new(LuddoOptions::default(), seats, &mut ScriptedDice::new([])).is_err());
    }
    for seats in 2..=6 {
        assert!(Luddo::validate(&LuddoOptions::default(), seats).is_ok());
        assert!(ClassicLudo::validate(&ClassicOptions::default(), seats).is_ok());
    }
}

#[test]
fn track_wraps_from_the_last_square_to_square_0() {
    // Seat 1 (arm 2, start 26) at progress 25 stands on 51; a 2 takes it to square 1, where
    // seat 0's piece (progress 1) is captured.
    let mut game = luddo(&[[1, B, B, B], [25, B, B, B]], 1);
    roll(&mut game, &[2]);
    let events = mv(&mut game, 0);
    assert_eq!(game.square_of(1, 0), Some(1));
    assert!(matches!(&events[1], Event::Captured { square: 1, pieces, .. } if pieces[0].seat == 0));
    assert_eq!(game.progress(0, 0), None);
}

#[test]
fn hex_track_wraps_at_78() {
    // Seat 5 (start 65) at progress 12 stands on 77; a 2 takes it to square 1.
    let mut game = luddo(&[[1, B, B, B], [B; 4], [B; 4], [B; 4], [B; 4], [12, B, B, B]], 5);
    roll(&mut game, &[2]);
    mv(&mut game, 0);
    assert_eq!(game.square_of(5, 0), Some(1));
    assert_eq!(game.progress(0, 0), None, "captured on square 1");
}

#[test]
fn home_column_turns_in_before_the_start_square() {
    // Progress 50 is square 50; progress 51 is the first home-column square, not square 51, so
    // the opposing piece on 51 is not captured.
    let mut game = luddo(&[[50, B, B, B], [B; 4], [B; 4], [38, B, B, B]], 0);
    assert_eq!(game.square_of(3, 0), Some(25));
    let mut game2 = luddo(&[[50, B, B, B], [B; 4], [B; 4], [12, B, B, B]], 0);
    assert_eq!(game2.square_of(3, 0), Some(51));
    roll(&mut game2, &[1]);
    let events = mv(&mut game2, 0);
    assert_eq!(game2.progress(0, 0), Some(51));
    assert_eq!(game2.square_of(0, 0), None, "in the home column");
    assert!(!events.iter().any(|e| matches!(e, Event::Captured { .. })));
    assert_eq!(game2.progress(3, 0), Some(12));
    roll(&mut game, &[2]);
    mv(&mut game, 0);
    assert_eq!(game.progress(0, 0), Some(52));
}

#[test]
fn home_needs_an_exact_number() {
    let mut game = luddo(&[[54, 20, B, B], [B; 4]], 0);
    roll(&mut game, &[3]);
    assert_eq!(moves(&game), [1], "54 + 3 overshoots 56");
    let err = refuse(&mut game, 0, Action::Move { piece: 0 });
    assert!(err.message.contains("past home"), "{err}");
    let mut game = luddo(&[[54, 20, B, B], [B; 4]], 0);
    roll(&mut game, &[2]);
    let events = mv(&mut game, 0);
    assert!(has(&events, &Event::PieceHome { seat: 0, piece: 0 }));
    assert_eq!(game.progress(0, 0), Some(56));
    assert_eq!(moves(&game), Vec::<u8>::new(), "a bonus roll is due, not a move");
}

#[test]
fn hex_home_is_l_plus_4() {
    let mut game = luddo(&[[80, B, B, B], [B; 4], [B; 4], [B; 4], [B; 4]], 0);
    roll(&mut game, &[2]);
    let events = mv(&mut game, 0);
    assert!(has(&events, &Event::PieceHome { seat: 0, piece: 0 }));
    assert_eq!(game.progress(0, 0), Some(82));
}

#[test]
fn highest_opening_throw_starts() {
    let (game, events) =
        Luddo::new(LuddoOptions::default(), 4, &mut ScriptedDice::new([3, 5, 2, 1])).unwrap();
    assert_eq!(game.to_act(), Some(1));
    assert_eq!(events[1], Event::OpeningRolled { seat: 1, dice: [5] });
    assert_eq!(events.last(), Some(&Event::FirstToPlay { seat: 1 }));
}

#[test]
fn opening_ties_are_thrown_again_by_the_tied_seats_only() {
    let (game, events) =
        Luddo::new(LuddoOptions::default(), 4, &mut ScriptedDice::new([6, 2, 6, 1, 3, 4])).unwrap();
    assert_eq!(game.to_act(), Some(2));
    assert_eq!(
        events[4..],
        [
            Event::OpeningTie { seats: vec![0, 2] },
            Event::OpeningRolled { seat: 0, dice: [3] },
            Event::OpeningRolled { seat: 2, dice: [4] },
            Event::FirstToPlay { seat: 2 },
        ]
    );
}

#[test]
fn play_is_clockwise_for_2_to_6_players() {
    for n in 2..=6 {
        let rows = vec![[B; 4]; n];
        let mut game = luddo(&rows, n - 1);
        let events = roll(&mut game, &[3]);
        assert_eq!(events.last(), Some(&Event::TurnPassed { seat: 0 }), "{n} seats");
        let mut game = classic(&rows, 0);
        roll(&mut game, &[3]);
        assert_eq!(game.to_act(), Some(1), "{n} seats");
    }
}

#[test]
fn finished_seats_are_skipped() {
    let mut state = position(LUDDO, &[[56; 4], [B; 4], [B; 4]], 2);
    state.places[0] = 1;
    let mut game = Luddo(state);
    let events = roll(&mut game, &[2]);
    assert_eq!(events.last(), Some(&Event::TurnPassed { seat: 1 }));
}

// ---------------------------------------------------------------- §2 classic Ludo

#[test]
fn classic_a_six_brings_a_piece_out() {
    let mut game = classic(&[[B; 4], [B; 4]], 0);
    roll(&mut game, &[6]);
    assert_eq!(moves(&game), [0, 1, 2, 3]);
    let events = mv(&mut game, 2);
    assert!(has(&events, &Event::Moved { seat: 0, piece: 2, number: 6, from: None, to: 0 }));
    assert_eq!(game.square_of(0, 2), Some(0));
}

#[test]
fn classic_no_legal_move_forfeits_the_throw() {
    let mut game = classic(&[[B; 4], [B; 4]], 0);
    let events = roll(&mut game, &[5]);
    assert_eq!(
        events,
        [
            Event::Rolled { seat: 0, dice: [5] },
            Event::NumbersForfeited { seat: 0, numbers: Numbers::new(&[5]) },
            Event::TurnPassed { seat: 1 },
        ]
    );
}

#[test]
fn classic_enter_on_one_and_six() {
    let options: ClassicOptions =
        serde_json::from_str(r#"{"enter_on": [1, 6], "play_for_places": true}"#).unwrap();
    let (mut game, _) = ClassicLudo::new(options, 2, &mut ScriptedDice::new([4, 2])).unwrap();
    assert_eq!(game.to_act(), Some(0));
    roll(&mut game, &[1]);
    assert_eq!(moves(&game), [0, 1, 2, 3]);
    let events = mv(&mut game, 0);
    assert_eq!(game.progress(0, 0), Some(0));
    assert_eq!(events.last(), Some(&Event::TurnPassed { seat: 1 }), "a 1 gives no extra throw");
    // Default: a 1 does not bring a piece out.
    let mut game = classic(&[[B; 4], [B; 4]], 0);
    let events = roll(&mut game, &[1]);
    assert!(matches!(events[1], Event::NumbersForfeited { .. }));
}

#[test]
fn classic_enter_on_must_be_6_or_1_and_6() {
    for bad in [r#"[5]"#, r#"[]"#, r#"[6, 6]"#, r#"[1, 2, 6]"#, r#"[1]"#] {
        let options: ClassicOptions = serde_json::from_str(&format!(r#"{{"enter_on": {bad}}}"#)).unwrap();
        let err = ClassicLudo::validate(&options, 4).unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::InvalidOptions, "{bad}");
        assert!(ClassicLudo::new(options, 4, &mut ScriptedDice::new([])).is_err());
    }
    let reversed: ClassicOptions = serde_json::from_str(r#"{"enter_on": [6, 1]}"#).unwrap();
    assert!(ClassicLudo::validate(&reversed, 4).is_ok());
}

#[test]
fn classic_options_default_and_reject_unknown_fields() {
    let options: ClassicOptions = serde_json::from_str("{}").unwrap();
    assert_eq!(options, ClassicOptions { enter_on: vec![6], play_for_places: true });
    assert!(serde_json::from_str::<ClassicOptions>(r#"{"home_bonus": true}"#).is_err());
}

#[test]
fn classic_a_six_gives_another_throw() {
    let mut game = classic(&[[10, B, B, B], [B; 4]], 0);
    roll(&mut game, &[6]);
    let events = mv(&mut game, 0);
    assert_eq!(events.last(), Some(&Event::ExtraRoll { seat: 0, reason: ExtraRollReason::Six }));
    assert_eq!((game.to_act(), game.phase()), (Some(0), Phase::Roll));
}

#[test]
fn classic_a_six_gives_another_throw_even_when_nothing_moves() {
    let mut game = classic(&[[56, 56, 56, 53], [B; 4]], 0);
    let events = roll(&mut game, &[6]);
    assert_eq!(
        events[1..],
        [
            Event::NumbersForfeited { seat: 0, numbers: Numbers::new(&[6]) },
            Event::ExtraRoll { seat: 0, reason: ExtraRollReason::Six },
        ]
    );
    assert_eq!(game.to_act(), Some(0));
}

#[test]
fn classic_three_sixes_do_not_end_the_turn() {
    let mut game = classic(&[[10, B, B, B], [B; 4]], 0);
    for _ in 0..3 {
        roll(&mut game, &[6]);
        mv(&mut game, 0);
    }
    assert_eq!(game.progress(0, 0), Some(28));
    assert_eq!((game.to_act(), game.phase()), (Some(0), Phase::Roll));
}

#[test]
fn classic_landing_on_a_single_opposing_piece_sends_it_to_base() {
    // Seat 1 (arm 2) at progress 42 stands on square 16.
    let mut game = classic(&[[10, B, B, B], [42, B, B, B]], 0);
    roll(&mut game, &[6]);
    let events = mv(&mut game, 0);
    assert!(has(
        &events,
        &Event::Captured {
            seat: 0,
            square: 16,
            pieces: vec![CapturedPiece { seat: 1, piece: 0, progress: 42 }],
        }
    ));
    assert_eq!(game.progress(1, 0), None);
    assert_eq!(
        events.last(),
        Some(&Event::ExtraRoll { seat: 0, reason: ExtraRollReason::Six }),
        "only the 6 gives another throw, not the capture"
    );
    let mut game = classic(&[[10, B, B, B], [41, B, B, B]], 0);
    roll(&mut game, &[5]);
    let events = mv(&mut game, 0);
    assert_eq!(events.last(), Some(&Event::TurnPassed { seat: 1 }), "no extra throw for a capture");
}

#[test]
fn classic_has_no_safe_squares() {
    // Square 8 is a Luddo star; in classic Ludo a piece there is captured all the same.
    let mut game = classic(&[[5, B, B, B], [34, B, B, B]], 0);
    roll(&mut game, &[3]);
    mv(&mut game, 0);
    assert_eq!(game.progress(1, 0), None);
}

#[test]
fn classic_entering_captures_a_single_piece_on_the_start_square() {
    // Seat 1 (arm 1) at progress 39 stands on square 0, seat 0's start.
    let mut game = classic(&[[B; 4], [39, B, B, B], [B; 4], [B; 4]], 0);
    roll(&mut game, &[6]);
    mv(&mut game, 0);
    assert_eq!(game.progress(1, 0), None);
}

#[test]
fn classic_block_cannot_be_landed_on() {
    // Seat 1's two pieces at progress 42 make a block on square 16.
    let mut game = classic(&[[11, 3, B, B], [42, 42, B, B]], 0);
    roll(&mut game, &[5]);
    assert_eq!(moves(&game), [1]);
    let err = refuse(&mut game, 0, Action::Move { piece: 0 });
    assert_eq!(err.kind, RuleErrorKind::IllegalAction);
    assert!(err.message.contains("block"), "{err}");
}

#[test]
fn classic_block_cannot_be_passed() {
    let mut game = classic(&[[13, 3, B, B], [42, 42, B, B]], 0);
    roll(&mut game, &[5]);
    assert_eq!(moves(&game), [1], "13 + 5 would pass the block on 16");
    // The block's owner is not blocked by it.
    let mut game = classic(&[[B; 4], [40, 42, 42, B]], 1);
    roll(&mut game, &[5]);
    assert_eq!(moves(&game), [0, 1, 2]);
}

#[test]
fn classic_start_square_held_by_an_opposing_block_cannot_be_entered() {
    // Seat 1 (arm 1) has two pieces at progress 39: a block on square 0, seat 0's start.
    let mut game = classic(&[[5, B, B, B], [39, 39, B, B], [B; 4], [B; 4]], 0);
    roll(&mut game, &[6]);
    assert_eq!(moves(&game), [0]);
    let err = refuse(&mut game, 0, Action::Move { piece: 1 });
    assert!(err.message.contains("start square"), "{err}");
}

#[test]
fn classic_first_home_wins_and_the_rest_play_on_for_places() {
    let mut game = classic(&[[56, 56, 56, 55], [B; 4], [56, 56, 56, 50]], 0);
    roll(&mut game, &[1]);
    let events = mv(&mut game, 3);
    assert!(has(&events, &Event::SeatFinished { seat: 0, place: 1 }));
    assert_eq!(game.to_act(), Some(1));
    assert_eq!(game.outcome(), None);
    roll(&mut game, &[2]);
    assert_eq!(game.to_act(), Some(2));
    roll(&mut game, &[6]);
    let events = mv(&mut game, 3);
    assert!(has(&events, &Event::GameOver { places: vec![1, 3, 2] }));
    assert_eq!(game.outcome().unwrap().places, [1, 3, 2]);
}

#[test]
fn classic_without_play_for_places_the_game_ends_with_the_winner() {
    let variant = Variant::Classic { enter_on_one: false, play_for_places: false };
    let mut game = ClassicLudo(position(variant, &[[B; 4], [56, 56, 56, 55], [B; 4], [B; 4]], 1));
    roll(&mut game, &[1]);
    let events = mv(&mut game, 3);
    assert!(has(&events, &Event::GameOver { places: vec![2, 1, 2, 2] }));
    assert_eq!(game.to_act(), None);
    assert_eq!(refuse(&mut game, 2, Action::Roll).kind, RuleErrorKind::GameOver);
}

// ---------------------------------------------------------------- §3 Luddo

#[test]
fn luddo_a_six_brings_a_token_out() {
    let mut game = luddo(&[[B; 4], [B; 4]], 0);
    let events = roll(&mut game, &[5]);
    assert!(has(&events, &Event::NumbersForfeited { seat: 0, numbers: Numbers::new(&[5]) }));
    let mut game = luddo(&[[B; 4], [B; 4]], 0);
    roll(&mut game, &[6, 1]);
    mv(&mut game, 0);
    assert_eq!(game.progress(0, 0), Some(0));
    assert!(!game.can_move(0, 1, 1), "a 1 does not bring a token out in Luddo");
}

#[test]
fn luddo_rolls_again_on_six_before_moving() {
    let mut game = luddo(&[[B; 4], [B; 4]], 0);
    let events = roll(&mut game, &[6, 3]);
    assert_eq!(events, [Event::Rolled { seat: 0, dice: [6] }, Event::Rolled { seat: 0, dice: [3] }]);
    assert_eq!(game.pending(), [6, 3]);
    assert_eq!(game.phase(), Phase::Move);
}

#[test]
fn luddo_keeps_rolling_while_sixes_come() {
    let mut game = luddo(&[[B; 4], [B; 4]], 0);
    roll(&mut game, &[6, 6, 2]);
    assert_eq!(game.pending(), [6, 6, 2]);
}

#[test]
fn luddo_three_sixes_cancel_the_turn() {
    let mut game = luddo(&[[10, B, B, B], [B; 4]], 0);
    let events = roll(&mut game, &[6, 6, 6]);
    assert_eq!(events[3..], [Event::ThreeSixes { seat: 0 }, Event::TurnPassed { seat: 1 }]);
    assert_eq!(pieces(&game, 0), [Some(10), None, None, None]);
    assert_eq!(game.pending(), [] as [u8; 0]);
}

#[test]
fn luddo_numbers_are_used_in_the_order_rolled() {
    let mut game = luddo(&[[10, B, B, B], [B; 4]], 0);
    roll(&mut game, &[6, 3]);
    assert_eq!(game.current_number(), Some(6));
    assert_eq!(moves(&game), [0, 1, 2, 3]);
    let events = mv(&mut game, 0);
    assert_eq!(events, [Event::Moved { seat: 0, piece: 0, number: 6, from: Some(10), to: 16 }]);
    assert_eq!(game.pending(), [3]);
    assert_eq!(moves(&game), [0], "a 3 cannot bring a token out");
    let events = mv(&mut game, 0);
    assert_eq!(events.last(), Some(&Event::TurnPassed { seat: 1 }));
    assert_eq!(game.progress(0, 0), Some(19));
}

#[test]
fn luddo_each_number_moves_one_token_of_the_players_choice() {
    let mut game = luddo(&[[10, B, B, B], [B; 4]], 0);
    roll(&mut game, &[6, 3]);
    mv(&mut game, 2);
    assert_eq!(moves(&game), [0, 2]);
    mv(&mut game, 2);
    assert_eq!(pieces(&game, 0), [Some(10), None, Some(3), None]);
}

#[test]
fn luddo_a_number_that_cannot_move_ends_the_turn() {
    // 6: only piece 3 can move (49 → 55). 5: nothing can (52 + 5 and 55 + 5 overshoot).
    let mut game = luddo(&[[56, 56, 52, 49], [B; 4]], 0);
    roll(&mut game, &[6, 5]);
    let events = mv(&mut game, 3);
    assert_eq!(
        events[1..],
        [Event::NumbersForfeited { seat: 0, numbers: Numbers::new(&[5]) }, Event::TurnPassed { seat: 1 },]
    );
}

#[test]
fn luddo_remaining_numbers_are_lost_with_the_first_that_cannot_move() {
    let mut game = luddo(&[[56, 56, 56, 53], [B; 4]], 0);
    let events = roll(&mut game, &[6, 2]);
    assert!(has(&events, &Event::NumbersForfeited { seat: 0, numbers: Numbers::new(&[6, 2]) }));
    assert_eq!(game.to_act(), Some(1));
    assert_eq!(game.progress(0, 3), Some(53), "the 2 could have moved, but the 6 came first");
}

#[test]
fn luddo_own_tokens_share_a_square_and_nothing_blocks() {
    let mut game = luddo(&[[10, 13, 13, B], [B; 4]], 0);
    roll(&mut game, &[3]);
    mv(&mut game, 0);
    assert_eq!(pieces(&game, 0)[..3], [Some(13); 3]);
    // Two tokens of one colour do not block: seat 1's pair on 16 is passed by a 6 from 13.
    let mut game = luddo(&[[13, B, B, B], [42, 42, B, B]], 0);
    roll(&mut game, &[6, 2]);
    assert_eq!(moves(&game), [0, 1, 2, 3]);
    mv(&mut game, 0);
    assert_eq!(game.progress(0, 0), Some(19));
}

#[test]
fn luddo_capture_sends_every_opposing_token_on_the_square_to_base() {
    let mut game = luddo(&[[13, B, B, B], [42, 42, 5, B]], 0);
    roll(&mut game, &[3]);
    let events = mv(&mut game, 0);
    assert!(has(
        &events,
        &Event::Captured {
            seat: 0,
            square: 16,
            pieces: vec![
                CapturedPiece { seat: 1, piece: 0, progress: 42 },
                CapturedPiece { seat: 1, piece: 1, progress: 42 },
            ],
        }
    ));
    assert_eq!(pieces(&game, 1), [None, None, Some(5), None]);
}

#[test]
fn luddo_star_squares_are_safe() {
    // Square 8 (a star) holds seat 1's token (arm 2, progress 34).
    let mut game = luddo(&[[5, B, B, B], [34, B, B, B]], 0);
    roll(&mut game, &[3]);
    let events = mv(&mut game, 0);
    assert!(!events.iter().any(|e| matches!(e, Event::Captured { .. })));
    assert_eq!((game.square_of(0, 0), game.square_of(1, 0)), (Some(8), Some(8)));
    assert_eq!(events.last(), Some(&Event::TurnPassed { seat: 1 }));
}

#[test]
fn luddo_start_squares_are_safe() {
    // Seat 1 (arm 1) sits on its start square 13; seat 0 lands there.
    let mut game = luddo(&[[10, B, B, B], [0, B, B, B], [B; 4], [B; 4]], 0);
    roll(&mut game, &[3]);
    mv(&mut game, 0);
    assert_eq!(game.progress(1, 0), Some(0));
    // Seat 0 comes out onto square 0 where seat 1 (progress 39) stands: nobody is captured.
    let mut game = luddo(&[[B; 4], [39, B, B, B], [B; 4], [B; 4]], 0);
    roll(&mut game, &[6, 1]);
    mv(&mut game, 0);
    assert_eq!(game.progress(1, 0), Some(39));
}

#[test]
fn luddo_capture_earns_an_extra_roll_after_all_numbers_are_used() {
    // 6 captures on 16; the 3 must still be used before the extra roll.
    let mut game = luddo(&[[10, B, B, B], [42, B, B, B]], 0);
    roll(&mut game, &[6, 3]);
    let events = mv(&mut game, 0);
    assert!(events.iter().any(|e| matches!(e, Event::Captured { .. })));
    assert!(!events.iter().any(|e| matches!(e, Event::ExtraRoll { .. })));
    assert_eq!(game.pending(), [3]);
    let events = mv(&mut game, 0);
    assert_eq!(events.last(), Some(&Event::ExtraRoll { seat: 0, reason: ExtraRollReason::Capture }));
    assert_eq!((game.to_act(), game.phase()), (Some(0), Phase::Roll));
}

#[test]
fn luddo_two_captures_still_earn_one_extra_roll() {
    // Seat 1 on 16 (progress 42) and 19 (progress 45): 6 then 3 capture both.
    let mut game = luddo(&[[10, B, B, B], [42, 45, B, B]], 0);
    roll(&mut game, &[6, 3]);
    let mut events = mv(&mut game, 0);
    events.extend(mv(&mut game, 0));
    let captures = events.iter().filter(|e| matches!(e, Event::Captured { .. })).count();
    let bonuses = events.iter().filter(|e| matches!(e, Event::ExtraRoll { .. })).count();
    assert_eq!((captures, bonuses), (2, 1));
    let events = roll(&mut game, &[4]);
    assert_eq!(events, [Event::Rolled { seat: 0, dice: [4] }]);
    mv(&mut game, 0);
    assert_eq!(game.to_act(), Some(1), "the extra roll earned nothing more");
}

#[test]
fn luddo_extra_roll_is_a_fresh_sequence() {
    // [6, 6, 3] with a capture; the extra roll's two 6s start their own count.
    let mut game = luddo(&[[10, B, B, B], [48, B, B, B]], 0);
    roll(&mut game, &[6, 6, 3]);
    mv(&mut game, 0);
    mv(&mut game, 0); // 16 → 22: capture
    mv(&mut game, 0);
    assert_eq!(game.phase(), Phase::Roll);
    roll(&mut game, &[6, 6, 2]);
    assert_eq!(game.pending(), [6, 6, 2]);
}

#[test]
fn luddo_three_sixes_cancel_an_extra_roll_too() {
    let mut game = luddo(&[[10, B, B, B], [41, B, B, B]], 0);
    roll(&mut game, &[5]);
    mv(&mut game, 0);
    assert_eq!(game.phase(), Phase::Roll);
    let events = roll(&mut game, &[6, 6, 6]);
    assert!(has(&events, &Event::ThreeSixes { seat: 0 }));
    assert_eq!(game.to_act(), Some(1));
}

#[test]
fn luddo_home_bonus_earns_an_extra_roll() {
    let mut game = luddo(&[[50, 10, B, B], [B; 4]], 0);
    roll(&mut game, &[6, 1]);
    mv(&mut game, 0);
    let events = mv(&mut game, 1);
    assert_eq!(events.last(), Some(&Event::ExtraRoll { seat: 0, reason: ExtraRollReason::Home }));
}

#[test]
fn luddo_home_and_capture_in_one_sequence_still_earn_one_roll() {
    let mut game = luddo(&[[50, 13, B, B], [42, B, B, B]], 0);
    roll(&mut game, &[6, 3]);
    mv(&mut game, 0);
    let events = mv(&mut game, 1);
    assert_eq!(events.last(), Some(&Event::ExtraRoll { seat: 0, reason: ExtraRollReason::CaptureAndHome }));
}

#[test]
fn luddo_home_bonus_can_be_switched_off() {
    let options: LuddoOptions = serde_json::from_str(r#"{"home_bonus": false}"#).unwrap();
    assert!(!options.home_bonus);
    let mut game = Luddo(position(LUDDO_NO_HOME_BONUS, &[[50, 10, B, B], [B; 4]], 0));
    roll(&mut game, &[6, 1]);
    mv(&mut game, 0);
    let events = mv(&mut game, 1);
    assert_eq!(events.last(), Some(&Event::TurnPassed { seat: 1 }));
}

#[test]
fn luddo_capture_bonus_holds_without_home_bonus() {
    let mut game = Luddo(position(LUDDO_NO_HOME_BONUS, &[[13, B, B, B], [42, B, B, B]], 0));
    roll(&mut game, &[3]);
    let events = mv(&mut game, 0);
    assert_eq!(events.last(), Some(&Event::ExtraRoll { seat: 0, reason: ExtraRollReason::Capture }));
}

#[test]
fn luddo_options_default_and_reject_unknown_fields() {
    let options: LuddoOptions = serde_json::from_str("{}").unwrap();
    assert!(options.home_bonus);
    assert_eq!(options, LuddoOptions::default());
    assert!(serde_json::from_str::<LuddoOptions>(r#"{"enter_on": [6]}"#).is_err());
}

#[test]
fn luddo_a_stuck_number_loses_the_extra_roll_earned_before_it() {
    // 6 brings piece 2 home; the 2 cannot move piece 3 (55 + 2 overshoots): the turn ends there.
    let mut game = luddo(&[[56, 56, 50, 55], [B; 4]], 0);
    roll(&mut game, &[6, 2]);
    let events = mv(&mut game, 2);
    assert!(has(&events, &Event::PieceHome { seat: 0, piece: 2 }));
    assert_eq!(
        events[2..],
        [Event::NumbersForfeited { seat: 0, numbers: Numbers::new(&[2]) }, Event::TurnPassed { seat: 1 },]
    );
}

#[test]
fn luddo_first_home_wins_and_the_rest_play_on_for_places() {
    let mut game = luddo(&[[56, 56, 56, 50], [56, 56, 56, 50], [B; 4]], 0);
    roll(&mut game, &[6, 2]);
    let events = mv(&mut game, 3);
    assert_eq!(
        events[1..],
        [
            Event::PieceHome { seat: 0, piece: 3 },
            Event::SeatFinished { seat: 0, place: 1 },
            Event::TurnPassed { seat: 1 },
        ],
        "a seat that finishes loses its remaining numbers and its extra roll"
    );
    roll(&mut game, &[6, 4]);
    let events = mv(&mut game, 3);
    assert_eq!(
        events[2..],
        [Event::SeatFinished { seat: 1, place: 2 }, Event::GameOver { places: vec![1, 2, 3] },]
    );
    assert_eq!(game.outcome().unwrap().places, [1, 2, 3]);
    assert_eq!(game.legal_actions(2), []);
}

#[test]
fn luddo_two_player_game_ends_when_one_finishes() {
    let mut game = luddo(&[[B; 4], [56, 56, 56, 51]], 1);
    roll(&mut game, &[5]);
    let events = mv(&mut game, 3);
    assert_eq!(events.last(), Some(&Event::GameOver { places: vec![2, 1] }));
}

#[test]
fn luddo_hex_stars_are_safe_too() {
    // Square 73 = 13·5 + 8. Seat 0 reaches it at progress 73; seat 5 sits there at progress 8.
    let mut game = luddo(&[[70, B, B, B], [B; 4], [B; 4], [B; 4], [B; 4], [8, B, B, B]], 0);
    roll(&mut game, &[3]);
    mv(&mut game, 0);
    assert_eq!(game.progress(5, 0), Some(8));
}

// ---------------------------------------------------------------- the engine contract

#[test]
fn illegal_actions_are_refused_with_a_reason_and_change_nothing() {
    let mut game = luddo(&[[10, 56, B, B], [B; 4]], 0);
    assert_eq!(refuse(&mut game, 1, Action::Roll).kind, RuleErrorKind::NotYourTurn);
    assert_eq!(refuse(&mut game, 9, Action::Roll).kind, RuleErrorKind::NotYourTurn);
    let err = refuse(&mut game, 0, Action::Move { piece: 0 });
    assert!(err.message.contains("roll"), "{err}");
    roll(&mut game, &[4]);
    let err = refuse(&mut game, 0, Action::Roll);
    assert!(err.message.contains("move a piece with the 4"), "{err}");
    assert!(refuse(&mut game, 0, Action::Move { piece: 7 }).message.contains("no piece 7"));
    assert!(refuse(&mut game, 0, Action::Move { piece: 1 }).message.contains("already home"));
    assert!(refuse(&mut game, 0, Action::Move { piece: 2 }).message.contains("needs a 6"));
    assert!(serde_json::from_str::<Action>(r#"{"type":"jump"}"#).is_err());
    // Queries about seats or pieces that do not exist answer, never panic.
    assert_eq!(refuse(&mut game, usize::MAX, Action::Roll).kind, RuleErrorKind::NotYourTurn);
    assert_eq!(game.legal_actions(usize::MAX), []);
    assert_eq!((game.arm(usize::MAX), game.square_of(200, 0), game.progress(0, 9)), (0, None, None));
    assert!(!game.can_move(0, 9, 6) && game.destination(7, 0, 6).is_none());
}

#[test]
fn legal_actions_come_in_a_stable_order() {
    let mut game = luddo(&[[10, 56, 3, 54], [B; 4]], 0);
    assert_eq!(game.legal_actions(0), [Action::Roll]);
    assert_eq!(game.legal_actions(1), []);
    roll(&mut game, &[2]);
    assert_eq!(
        game.legal_actions(0),
        [Action::Move { piece: 0 }, Action::Move { piece: 2 }, Action::Move { piece: 3 }]
    );
    assert_eq!(serde_json::to_string(&game.legal_actions(0)[1]).unwrap(), r#"{"type":"move","piece":2}"#);
}

#[test]
fn forced_action_is_the_single_distinct_move_and_never_a_roll() {
    let mut game = luddo(&[[B; 4], [B; 4]], 0);
    assert_eq!(game.forced_action(), None, "rolls are never forced");
    roll(&mut game, &[6, 2]);
    assert_eq!(game.legal_actions(0).len(), 4);
    assert_eq!(game.forced_action(), Some(Action::Move { piece: 0 }), "all four enter alike");
    mv(&mut game, 0);
    assert_eq!(game.forced_action(), Some(Action::Move { piece: 0 }));
    let mut game = luddo(&[[10, 12, B, B], [B; 4]], 0);
    roll(&mut game, &[2]);
    assert_eq!(game.forced_action(), None, "two different moves");
}

#[test]
fn state_json_is_what_a_frontend_renders() {
    let mut game = luddo(&[[10, 56, B, B], [B; 4]], 0);
    roll(&mut game, &[6, 6, 2]);
    mv(&mut game, 0);
    let json = serde_json::to_value(&game).unwrap();
    assert_eq!(json["rules"], serde_json::json!({"game": "luddo", "home_bonus": true}));
    assert_eq!(json["track_len"], 52);
    assert_eq!(json["home"], 56);
    assert_eq!(json["to_act"], 0);
    assert_eq!(json["phase"], "move");
    assert_eq!(json["pending"], serde_json::json!([6, 2]));
    assert_eq!(
        json["seats"][0],
        serde_json::json!({"arm": 0, "colour": "yellow", "pieces": [16, 56, null, null], "place": null})
    );
    let back: Luddo = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back, game);
    assert!(serde_json::from_value::<ClassicLudo>(json.clone()).is_err(), "not a classic state");
    let mut bad = json.clone();
    bad["seats"][0]["pieces"][0] = 57.into();
    assert!(serde_json::from_value::<Luddo>(bad).is_err());
    let mut bad = json;
    bad["pending"] = serde_json::json!([6]);
    assert!(serde_json::from_value::<Luddo>(bad).is_err());
}
