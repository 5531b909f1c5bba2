//! Scenario tests, one per rule of RULES.md §6 (and the cube and match rules beyond the seed),
//! and property tests over random games.

use super::*;
use crate::rules::RuleErrorKind;
use crate::rules::ScriptedDice;
use crate::rules::dice::{FairDice, RngDice, ServerSeed};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};

fn side(points: &[(usize, u8)], bar: u8) -> [u8; 25] {
    let mut s = [0; 25];
    for &(p, n) in points {
        s[p - 1] = n;
    }
    s[BAR] = bar;
    s
}

use board::BAR;

/// A money game where seat 0 is on roll with `dice` in the given position (the opponent's
/// checkers on its own points).
fn game(me: [u8; 25], opp: [u8; 25], dice: [u8; 2]) -> Backgammon {
    game_with(BackgammonOptions::default(), me, opp, dice)
}

fn game_with(o: BackgammonOptions, me: [u8; 25], opp: [u8; 25], dice: [u8; 2]) -> Backgammon {
    let (mut g, _) = Backgammon::new(o, 2, &mut ScriptedDice::new([6, 1])).unwrap();
    g.board = [me, opp];
    g.turn = 0;
    g.phase = Phase::ToPlay { dice };
    g
}

#[test]
fn an_opening_that_keeps_tying_lets_seat_0_roll_its_first_turn() {
    let (g, events) =
        Backgammon::new(BackgammonOptions::default(), 2, &mut crate::rules::dice::StuckDice(3)).unwrap();
    assert_eq!((g.turn(), g.phase()), (0, Phase::ToRoll));
    // New game; each round two throws and a tie, but the last, which ends the opening.
    assert_eq!(events.len(), 1 + 3 * crate::rules::opening::MAX_ROUNDS);
    assert_eq!(events.last(), Some(&BackgammonEvent::FirstToPlay { seat: 0 }));
    assert_eq!(events[3], BackgammonEvent::OpeningTie { seats: vec![0, 1] });
}

#[test]
fn an_action_is_named_by_its_json_type() {
    use BackgammonAction as A;
    for a in [A::Roll, A::Double, A::Take, A::Drop, A::Beaver, A::Play { moves: Vec::new() }] {
        assert_eq!(serde_json::to_value(&a).unwrap()["type"], a.name());
    }
}

fn st(from: u8, to: u8) -> Step {
    Step { from, to }
}

fn play(g: &mut Backgammon, moves: &[(u8, u8)]) -> Result<Vec<BackgammonEvent>, RuleError> {
    let moves = moves.iter().map(|&(f, t)| st(f, t)).collect();
    g.apply(g.turn, &BackgammonAction::Play { moves }, &mut ScriptedDice::new([]))
}

fn notations(g: &Backgammon) -> Vec<String> {
    let mut v: Vec<String> = g.legal_plays().into_iter().map(|p| p.play).collect();
    v.sort();
    v
}

const START_SIDE: [u8; 25] = START;

#[test]
fn opening_throw_higher_die_moves_first_using_both_numbers() {
    // 4-4 is a tie and is thrown again; then seat 0 throws 2 and seat 1 throws 5.
    let (g, events) =
        Backgammon::new(BackgammonOptions::default(), 2, &mut ScriptedDice::new([4, 4, 2, 5])).unwrap();
    assert_eq!(g.to_act(), Some(1));
    assert_eq!(g.phase(), Phase::ToPlay { dice: [5, 2] });
    assert_eq!(
        events,
        vec![
            BackgammonEvent::NewGame { game: 1, crawford: false },
            BackgammonEvent::OpeningRolled { seat: 0, dice: [4] },
            BackgammonEvent::OpeningRolled { seat: 1, dice: [4] },
            BackgammonEvent::OpeningTie { seats: vec![0, 1] },
            BackgammonEvent::OpeningRolled { seat: 0, dice: [2] },
            BackgammonEvent::OpeningRolled { seat: 1, dice: [5] },
            BackgammonEvent::FirstToPlay { seat: 1 },
        ]
    );
    // The opening player cannot double: the dice are already thrown.
    assert!(!g.legal_actions(1).contains(&BackgammonAction::Double));
}

#[test]
fn standard_setup_has_fifteen_checkers_each() {
    let (g, _) = Backgammon::new(BackgammonOptions::default(), 2, &mut ScriptedDice::new([3, 1])).unwrap();
    for s in 0..2 {
        assert_eq!(g.board(s), &START_SIDE);
        assert_eq!(g.board(s).iter().sum::<u8>(), 15);
    }
    assert_eq!(g.position_id(), "4HPwATDgc/ABMA");
}

#[test]
fn each_die_is_a_separate_move_and_one_checker_may_use_both() {
    let mut g = game(side(&[(13, 1), (6, 14)], 0), side(&[(24, 2), (13, 13)], 0), [6, 3]);
    // 13/4 is 13/7/4 or 13/10/4 (one checker, both dice).
    assert!(notations(&g).contains(&"13/4".to_string()));
    // A single 9-pip jump is the same play.
    play(&mut g, &[(13, 4)]).unwrap();
    assert_eq!(g.board(0)[3], 1);
}

#[test]
fn only_open_points_may_be_landed_on_also_as_a_stop() {
    // The opponent holds our 7 and 10 (its 18 and 15): 13/4 cannot stop on either.
    let mut g = game(side(&[(13, 1), (1, 14)], 0), side(&[(18, 2), (15, 2), (24, 11)], 0), [6, 3]);
    assert!(g.legal_plays().is_empty() || !notations(&g).contains(&"13/4".to_string()));
    let before = g.clone();
    let err = play(&mut g, &[(13, 7), (7, 4)]).unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::IllegalAction);
    assert_eq!(g, before);
}

#[test]
fn both_numbers_must_be_played_if_possible() {
    // 13/8 alone leaves the 3 unplayed although 13/8/5 or 13/8 6/3 are possible.
    let mut g = game(START_SIDE, START_SIDE, [5, 3]);
    let before = g.clone();
    let err = play(&mut g, &[(13, 8)]).unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::IllegalAction);
    assert_eq!(g, before);
    assert!(g.legal_plays().iter().all(|p| p.moves.len() == 2));
}

#[test]
fn larger_die_must_be_played_when_only_one_can() {
    // Our last outside checker on 14; the opponent holds our 3 (its 22); after 14/8 or 14/9
    // the other die cannot be played (no bearing off with a checker outside).
    let g = game(
        side(&[(14, 1), (1, 5), (2, 5), (4, 4)], 0),
        side(&[(22, 2), (5, 5), (6, 5), (8, 3)], 0),
        [6, 5],
    );
    assert_eq!(notations(&g), vec!["14/8"]);
    assert_eq!(g.forced_action(), Some(BackgammonAction::Play { moves: vec![st(14, 8)] }));
}

#[test]
fn smaller_die_is_played_when_the_larger_cannot_be() {
    let g = game(
        side(&[(14, 1), (1, 5), (2, 5), (4, 4)], 0),
        side(&[(22, 2), (17, 2), (6, 5), (5, 6)], 0),
        [6, 5],
    );
    assert_eq!(notations(&g), vec!["14/9"]);
}

#[test]
fn doubles_are_played_four_times() {
    let g = game(START_SIDE, START_SIDE, [6, 6]);
    let plays = g.legal_plays();
    assert_eq!(plays.len(), 11); // as GNU Backgammon counts them
    assert!(plays.iter().all(|p| p.moves.len() == 4));
    assert!(notations(&g).contains(&"24/18(2) 13/7(2)".to_string()));
}

#[test]
fn doubles_that_cannot_all_be_played_play_as_many_as_possible() {
    // 6-6: 24/18(2), then 18/12 is blocked and home checkers cannot bear off.
    let g = game(side(&[(24, 2), (6, 13)], 0), side(&[(13, 2), (12, 2), (24, 11)], 0), [6, 6]);
    assert_eq!(notations(&g), vec!["24/18(2)"]);
}

#[test]
fn no_legal_move_loses_the_turn() {
    // On the bar against a closed board.
    let (mut g, _) =
        Backgammon::new(BackgammonOptions::default(), 2, &mut ScriptedDice::new([6, 1])).unwrap();
    g.board = [
        side(&[(6, 4), (8, 3), (13, 5), (5, 2)], 1),
        side(&[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (13, 3)], 0),
    ];
    g.phase = Phase::ToRoll;
    g.turn = 0;
    let events = g.apply(0, &BackgammonAction::Roll, &mut ScriptedDice::new([6, 5])).unwrap();
    assert_eq!(
        events,
        vec![BackgammonEvent::Rolled { seat: 0, dice: [6, 5] }, BackgammonEvent::NoLegalPlay { seat: 0 },]
    );
    assert_eq!(g.to_act(), Some(1));
    assert_eq!(g.phase(), Phase::ToRoll);
}

#[test]
fn hitting_a_blot_sends_it_to_the_bar_also_on_the_way() {
    // An opposing blot on our 7 (its 18): 13/7*/5 hits on the way.
    let mut g = game(side(&[(13, 1), (6, 14)], 0), side(&[(18, 1), (24, 14)], 0), [6, 2]);
    let events = play(&mut g, &[(13, 7), (7, 5)]).unwrap();
    assert!(events.contains(&BackgammonEvent::PlayMade {
        seat: 0,
        moves: vec![st(13, 7), st(7, 5)],
        play: "13/7*/5".into()
    }));
    assert!(events.contains(&BackgammonEvent::Captured { seat: 0, point: 7 }));
    assert_eq!(g.board(1)[BAR], 1);
    assert_eq!(g.board(1)[17], 0);
}

#[test]
fn bar_must_be_entered_first() {
    let mut g = game(
        side(&[(6, 5), (8, 3), (13, 5), (24, 1)], 1),
        side(&[(6, 3), (5, 2), (4, 2), (13, 5), (8, 3)], 0),
        [2, 1],
    );
    assert!(g.legal_plays().iter().all(|p| p.play.starts_with("bar/")));
    let before = g.clone();
    let err = play(&mut g, &[(13, 11), (6, 5)]).unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::IllegalAction);
    assert_eq!(g, before);
    play(&mut g, &[(25, 23), (24, 23)]).unwrap();
    assert_eq!(g.board(0)[BAR], 0);
}

#[test]
fn bearing_off_only_once_all_checkers_are_home() {
    // One checker still on 7: the 6 cannot bear off from 6.
    let g = game(side(&[(7, 1), (6, 2), (3, 3), (1, 2)], 0), side(&[(13, 5), (8, 5), (6, 5)], 0), [6, 1]);
    for p in notations(&g) {
        assert!(p.contains("7/"), "{p}");
    }
}

#[test]
fn bearing_off_with_higher_number_from_highest_point() {
    // Checkers on 5, 3 and 1: a 6 bears off from the 5 (the highest point).
    let g = game(side(&[(5, 2), (3, 1), (1, 2)], 0), side(&[(13, 5), (8, 5), (6, 5)], 0), [6, 4]);
    // The 4 cannot bear off from the 3 (not exact, and the 5 is higher): it moves 5/1.
    assert_eq!(notations(&g), vec!["5/1 5/off"]);
    // 6-5: the 5 bears off exactly, the 6 from the highest point.
    let g = game(g.board[0], g.board[1], [6, 5]);
    assert_eq!(notations(&g), vec!["5/off(2)"]);
}

#[test]
fn bearing_off_must_move_inside_when_a_higher_checker_remains() {
    // A 5 with checkers on 6, 4 and 2: no checker on 5, one higher: the 5 moves 6/1.
    let g = game(side(&[(6, 1), (4, 2), (2, 2)], 0), side(&[(13, 5), (8, 5), (6, 5)], 0), [5, 3]);
    let n = notations(&g);
    assert!(n.iter().all(|p| p.contains("6/1") || p.contains("6/3")), "{n:?}");
}

#[test]
fn first_to_bear_off_all_wins_a_single_game() {
    let mut g = game(side(&[(2, 1)], 0), side(&[(1, 3), (2, 2)], 0), [5, 3]);
    let events = play(&mut g, &[(2, 0)]).unwrap();
    assert!(events.contains(&BackgammonEvent::GameWon {
        seat: 0,
        kind: WinKind::Single,
        cube: 1,
        points: 1
    }));
    assert_eq!(g.to_act(), None);
    let o = g.outcome().unwrap();
    assert_eq!(o.places, vec![1, 2]);
    assert_eq!(o.points, Some(vec![1, 0]));
}

#[test]
fn gammon_counts_double_when_the_loser_bore_off_none() {
    let mut g = game(side(&[(2, 1)], 0), side(&[(1, 10), (6, 5)], 0), [5, 3]);
    g.cube = 2;
    g.cube_owner = Some(1);
    let events = play(&mut g, &[(2, 0)]).unwrap();
    assert!(events.contains(&BackgammonEvent::GameWon {
        seat: 0,
        kind: WinKind::Gammon,
        cube: 2,
        points: 4
    }));
}

#[test]
fn backgammon_counts_triple_with_a_checker_in_the_winners_home_board() {
    let mut g = game(side(&[(2, 1)], 0), side(&[(1, 14), (20, 1)], 0), [5, 3]);
    let events = play(&mut g, &[(2, 0)]).unwrap();
    assert!(events.contains(&BackgammonEvent::GameWon {
        seat: 0,
        kind: WinKind::Backgammon,
        cube: 1,
        points: 3
    }));
    // A checker on the bar counts too.
    let mut g = game(side(&[(2, 1)], 0), side(&[(1, 14)], 1), [5, 3]);
    let events = play(&mut g, &[(2, 0)]).unwrap();
    assert!(events.iter().any(|e| matches!(e, BackgammonEvent::GameWon { kind: WinKind::Backgammon, .. })));
}

#[test]
fn jacoby_rule_gammons_count_single_with_an_unturned_cube() {
    let o = BackgammonOptions { jacoby: true, ..Default::default() };
    let mut g = game_with(o, side(&[(2, 1)], 0), side(&[(1, 10), (6, 5)], 0), [5, 3]);
    let events = play(&mut g, &[(2, 0)]).unwrap();
    assert!(
        events.iter().any(|e| matches!(e, BackgammonEvent::GameWon { kind: WinKind::Single, points: 1, .. }))
    );
}

/// A money game at the start of seat 0's turn (before rolling).
fn to_roll(o: BackgammonOptions) -> Backgammon {
    let mut g = game_with(o, START_SIDE, START_SIDE, [3, 1]);
    g.phase = Phase::ToRoll;
    g
}

#[test]
fn double_take_doubles_the_cube_and_gives_it_to_the_taker() {
    let mut g = to_roll(BackgammonOptions::default());
    assert_eq!(g.legal_actions(0), vec![BackgammonAction::Roll, BackgammonAction::Double]);
    let ev = g.apply(0, &BackgammonAction::Double, &mut ScriptedDice::new([])).unwrap();
    assert_eq!(ev, vec![BackgammonEvent::Doubled { seat: 0, value: 2 }]);
    assert_eq!(g.to_act(), Some(1));
    assert_eq!(g.legal_actions(1), vec![BackgammonAction::Take, BackgammonAction::Drop]);
    g.apply(1, &BackgammonAction::Take, &mut ScriptedDice::new([])).unwrap();
    assert_eq!(g.cube(), (2, Some(1)));
    // The doubler now rolls and may not redouble: the opponent owns the cube.
    assert_eq!(g.to_act(), Some(0));
    assert_eq!(g.legal_actions(0), vec![BackgammonAction::Roll]);
    let err = g.apply(0, &BackgammonAction::Double, &mut ScriptedDice::new([])).unwrap_err();
    assert_eq!(err.message, "the opponent owns the cube");
}

#[test]
fn drop_loses_the_cube_value_before_the_double() {
    let mut g = to_roll(BackgammonOptions::default());
    g.cube = 2;
    g.cube_owner = Some(0);
    g.apply(0, &BackgammonAction::Double, &mut ScriptedDice::new([])).unwrap();
    let ev = g.apply(1, &BackgammonAction::Drop, &mut ScriptedDice::new([])).unwrap();
    assert!(ev.contains(&BackgammonEvent::GameWon { seat: 0, kind: WinKind::Single, cube: 2, points: 2 }));
    assert_eq!(g.outcome().unwrap().points, Some(vec![2, 0]));
}

#[test]
fn beaver_redoubles_at_once_when_allowed() {
    let o = BackgammonOptions { beavers: true, ..Default::default() };
    let mut g = to_roll(o);
    g.apply(0, &BackgammonAction::Double, &mut ScriptedDice::new([])).unwrap();
    assert!(g.legal_actions(1).contains(&BackgammonAction::Beaver));
    g.apply(1, &BackgammonAction::Beaver, &mut ScriptedDice::new([])).unwrap();
    assert_eq!(g.cube(), (4, Some(1)));
    assert_eq!(g.to_act(), Some(0));
    // Without the option, no beaver.
    let mut g = to_roll(BackgammonOptions::default());
    g.apply(0, &BackgammonAction::Double, &mut ScriptedDice::new([])).unwrap();
    assert!(g.apply(1, &BackgammonAction::Beaver, &mut ScriptedDice::new([])).is_err());
}

#[test]
fn no_doubling_after_rolling_or_without_the_cube() {
    let mut g = game(START_SIDE, START_SIDE, [3, 1]);
    assert!(g.apply(0, &BackgammonAction::Double, &mut ScriptedDice::new([])).is_err());
    let g = to_roll(BackgammonOptions { cube: false, ..Default::default() });
    assert_eq!(g.legal_actions(0), vec![BackgammonAction::Roll]);
}

#[test]
fn match_plays_games_until_a_player_reaches_the_length_with_the_crawford_rule() {
    let o = BackgammonOptions { match_to: 3, ..Default::default() };
    let mut g = game_with(o, side(&[(2, 1)], 0), side(&[(1, 3), (2, 2)], 0), [5, 3]);
    g.cube = 2;
    g.cube_owner = Some(0);
    // Seat 0 wins 2 points: 2-0 in a match to 3; the next game is the Crawford game.
    let ev = g
        .apply(0, &BackgammonAction::Play { moves: vec![st(2, 0)] }, &mut ScriptedDice::new([2, 5]))
        .unwrap();
    assert!(ev.contains(&BackgammonEvent::MatchScore { score: [2, 0], match_to: 3 }));
    assert!(ev.contains(&BackgammonEvent::NewGame { game: 2, crawford: true }));
    assert_eq!(g.cube(), (1, None));
    assert_eq!(g.board(0), &START_SIDE);
    assert_eq!(g.to_act(), Some(1));
    assert!(g.is_crawford_game());
    // No doubling in the Crawford game.
    g.apply(1, &BackgammonAction::Play { moves: vec![st(13, 8), st(13, 11)] }, &mut ScriptedDice::new([]))
        .unwrap();
    assert_eq!(g.legal_actions(0), vec![BackgammonAction::Roll]);
    // Seat 1 wins the Crawford game: 2-1; the next game is post-Crawford, doubling allowed.
    g.board = [side(&[(1, 3), (2, 2)], 0), side(&[(1, 1)], 0)];
    g.turn = 1;
    g.phase = Phase::ToPlay { dice: [2, 1] };
    let ev = g
        .apply(1, &BackgammonAction::Play { moves: vec![st(1, 0)] }, &mut ScriptedDice::new([6, 1]))
        .unwrap();
    assert!(ev.contains(&BackgammonEvent::NewGame { game: 3, crawford: false }));
    g.phase = Phase::ToRoll;
    assert!(g.legal_actions(0).contains(&BackgammonAction::Double));
    // Seat 0 wins the match.
    g.board = [side(&[(1, 1)], 0), side(&[(1, 3)], 0)];
    g.phase = Phase::ToPlay { dice: [2, 1] };
    let ev =
        g.apply(0, &BackgammonAction::Play { moves: vec![st(1, 0)] }, &mut ScriptedDice::new([])).unwrap();
    assert!(ev.contains(&BackgammonEvent::GameOver { places: vec![1, 2], score: [3, 1] }));
    let o = g.outcome().unwrap();
    assert_eq!(o.places, vec![1, 2]);
    assert_eq!(o.points, Some(vec![3, 1]));
}

#[test]
fn a_one_point_match_has_no_crawford_game() {
    // GNU Backgammon applies the Crawford rule only to matches longer than one point (its
    // `fCrawford = fAutoCrawford && nMatchTo > 1`): at 0-0 in a match to 1 both players are at
    // match point, and the game is an ordinary (post-Crawford) one.
    let o = BackgammonOptions { match_to: 1, ..Default::default() };
    let (g, ev) = Backgammon::new(o.clone(), 2, &mut ScriptedDice::new([6, 1])).unwrap();
    assert!(ev.contains(&BackgammonEvent::NewGame { game: 1, crawford: false }));
    assert!(!g.is_crawford_game());
    assert!(!ids::parse_match_id(&g.match_id()).unwrap().crawford);
    assert_eq!(g.xgid().split(':').nth(7), Some("0"), "{}", g.xgid());
    // Doubling is pointless at match point but not forbidden: GNU Backgammon allows it.
    let g = to_roll(o.clone());
    assert!(g.legal_actions(0).contains(&BackgammonAction::Double));
    // A Crawford flag in a 1-point Match ID is ignored on loading, as GNU Backgammon does.
    let mut m = g.match_state();
    m.crawford = true;
    let h = Backgammon::from_gnubg_ids(&g.position_id(), &ids::match_id(&m), o).unwrap();
    assert!(!h.is_crawford_game());
    assert!(h.legal_actions(0).contains(&BackgammonAction::Double));
}

#[test]
fn the_xgid_max_cube_is_never_below_the_cube() {
    // The XGID's last field is the maximum cube (as a power of two); eXtreme Gammon's default is
    // 2^10, but our cube goes up to 2^15 (the Match ID's limit).
    let mut g = to_roll(BackgammonOptions::default());
    assert_eq!(g.xgid().rsplit(':').next(), Some("10"));
    for log in 11..=15 {
        g.cube = 1 << log;
        g.cube_owner = Some(0);
        let x = g.xgid();
        let f: Vec<&str> = x.split(':').collect();
        assert_eq!((f[1], f[9]), (log.to_string().as_str(), log.to_string().as_str()), "{x}");
        let back = Backgammon::from_xgid(&x, BackgammonOptions::default()).unwrap();
        assert_eq!((back.cube(), back.xgid()), ((1 << log, Some(0)), x));
    }
}

#[test]
fn forced_action_is_the_only_play_and_never_a_roll_or_cube_decision() {
    let g = to_roll(BackgammonOptions::default());
    assert_eq!(g.forced_action(), None);
    let g = game(START_SIDE, START_SIDE, [3, 1]);
    assert_eq!(g.forced_action(), None);
    let mut g = to_roll(BackgammonOptions::default());
    g.apply(0, &BackgammonAction::Double, &mut ScriptedDice::new([])).unwrap();
    assert_eq!(g.forced_action(), None);
}

#[test]
fn wrong_seat_or_wrong_phase_is_refused_and_changes_nothing() {
    let mut g = game(START_SIDE, START_SIDE, [3, 1]);
    let before = g.clone();
    let err = g.apply(1, &BackgammonAction::Roll, &mut ScriptedDice::new([])).unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::NotYourTurn);
    let err = g.apply(0, &BackgammonAction::Roll, &mut ScriptedDice::new([])).unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::IllegalAction);
    assert_eq!(err.message, "cannot roll now: it is time to play the roll");
    assert_eq!(g, before);
    assert!(g.legal_actions(1).is_empty());
}

#[test]
fn json_shapes() {
    let a: BackgammonAction =
        serde_json::from_str(r#"{"type":"play","moves":[{"from":8,"to":5},{"from":6,"to":5}]}"#).unwrap();
    assert_eq!(a, BackgammonAction::Play { moves: vec![st(8, 5), st(6, 5)] });
    assert_eq!(serde_json::to_string(&BackgammonAction::Double).unwrap(), r#"{"type":"double"}"#);
    let o: BackgammonOptions = serde_json::from_str(r#"{"match_to": 7}"#).unwrap();
    assert_eq!(o.match_to, 7);
    assert!(o.cube && o.crawford && !o.beavers && !o.jacoby);
    assert!(serde_json::from_str::<BackgammonOptions>(r#"{"match": 7}"#).is_err());
    assert!(Backgammon::validate(&BackgammonOptions::default(), 3).is_err());
    let bad = BackgammonOptions { match_to: 5, jacoby: true, ..Default::default() };
    assert!(Backgammon::validate(&bad, 2).is_err());
}

#[test]
fn match_id_of_a_double_is_gnubgs() {
    // GNU Backgammon 1.07.001, money game without Jacoby: player 1 to roll
    // ("cAkAAAAAAAAE"), then player 1 doubles ("cBEAAAAAAAAE").
    let mut g = to_roll(BackgammonOptions::default());
    g.turn = 1;
    assert_eq!(g.match_id(), "cAkAAAAAAAAE");
    g.apply(1, &BackgammonAction::Double, &mut ScriptedDice::new([])).unwrap();
    assert_eq!(g.match_id(), "cBEAAAAAAAAE");
    let h = Backgammon::from_gnubg_ids(&g.position_id(), "cBEAAAAAAAAE", Default::default()).unwrap();
    assert_eq!(h.to_act(), Some(0));
    assert_eq!(h.phase(), Phase::CubeOffered);
}

#[test]
fn gnubg_ids_round_trip_through_the_engine() {
    let mut g = game_with(
        BackgammonOptions { match_to: 7, ..Default::default() },
        side(&[(6, 4), (8, 3), (13, 5), (5, 2)], 1),
        side(&[(1, 2), (3, 2), (6, 4), (13, 4), (8, 3)], 0),
        [4, 2],
    );
    g.score = [3, 5];
    g.cube = 4;
    g.cube_owner = Some(1);
    let (p, m) = (g.position_id(), g.match_id());
    let h = Backgammon::from_gnubg_ids(&p, &m, BackgammonOptions::default()).unwrap();
    assert_eq!((h.position_id(), h.match_id()), (p.clone(), m.clone()));
    assert_eq!(h.board, g.board);
    assert_eq!(h.phase, g.phase);
    assert_eq!((h.cube, h.cube_owner, h.score), (4, Some(1), [3, 5]));
    let x = g.xgid();
    let k = Backgammon::from_xgid(&x, BackgammonOptions::default()).unwrap();
    assert_eq!(k.xgid(), x);
    assert_eq!(k.gnubg_id(), g.gnubg_id());
}

/// The same XGID with the players' roles exchanged (top becomes bottom).
fn mirror_xgid(x: &str) -> String {
    let f: Vec<&str> = x.trim_start_matches("XGID=").split(':').collect();
    let pos: String = f[0]
        .chars()
        .rev()
        .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
        .collect();
    let neg = |v: &str| (-v.parse::<i32>().unwrap()).to_string();
    format!(
        "XGID={pos}:{}:{}:{}:{}:{}:{}:{}:{}:{}",
        f[1],
        neg(f[2]),
        neg(f[3]),
        f[4],
        f[6],
        f[5],
        f[7],
        f[8],
        f[9]
    )
}

#[test]
fn gnubg_ids_known_answers() {
    // Each XGID was read by GNU Backgammon 1.07.001 (`set xgid`), which printed this
    // `PositionID:MatchID` (tests/data/gnubg_xgid.txt). When the top player is on roll, GNU
    // Backgammon swaps the players so that the player on roll is its player 1 (bottom): its IDs
    // then describe the mirrored XGID.
    let data = include_str!("../../../tests/data/gnubg_xgid.txt");
    let mut checked = 0;
    for line in data.lines().filter(|l| l.starts_with("XGID=")) {
        let (xgid, gnubg) = line.split_once(" => ").unwrap();
        let g = Backgammon::from_xgid(xgid, BackgammonOptions::default()).unwrap();
        assert_eq!(g.xgid(), xgid, "our XGID writer");
        let top_on_roll = xgid.split(':').nth(3) == Some("-1");
        let as_gnubg_reads_it = if top_on_roll {
            Backgammon::from_xgid(&mirror_xgid(xgid), BackgammonOptions::default()).unwrap()
        } else {
            g.clone()
        };
        assert_eq!(as_gnubg_reads_it.gnubg_id(), gnubg, "{xgid}");
        // Position ID and Match ID back to the same XGID.
        let (p, m) = gnubg.split_once(':').unwrap();
        let h = Backgammon::from_gnubg_ids(p, m, g.options().clone()).unwrap();
        let back = if top_on_roll { mirror_xgid(xgid) } else { xgid.to_string() };
        assert_eq!(h.xgid(), back);
        checked += 1;
    }
    assert!(checked >= 10);
}

/// Plays a game with random legal actions (the dice from `dice`), checking the invariants
/// after every action. Returns the final state and the number of actions.
fn random_game(
    options: BackgammonOptions,
    dice: &mut dyn DiceSource,
    choices: &mut impl rand::Rng,
) -> Result<(Backgammon, usize), TestCaseError> {
    let (mut g, _) = Backgammon::new(options, 2, dice).unwrap();
    let mut actions = 0;
    while let Some(seat) = g.to_act() {
        for s in 0..2 {
            prop_assert!(g.board(s).iter().sum::<u8>() <= 15);
            let off = 15 - g.board(s).iter().sum::<u8>();
            prop_assert!(off <= 15);
        }
        prop_assert!(g.position().check().is_ok());
        let legal = g.legal_actions(seat);
        prop_assert!(!legal.is_empty());
        prop_assert!(g.legal_actions(1 - seat).is_empty());
        // An illegal action is refused with a reason and changes nothing.
        let before = g.clone();
        let wrong = g.apply(1 - seat, &BackgammonAction::Roll, dice);
        prop_assert!(wrong.is_err());
        if let Phase::ToPlay { .. } = g.phase() {
            let bogus = BackgammonAction::Play { moves: vec![Step { from: 3, to: 9 }] };
            let e = g.apply(seat, &bogus, dice).unwrap_err();
            prop_assert!(!e.message.is_empty());
        }
        prop_assert_eq!(&g, &before);
        let a = &legal[choices.random_range(0..legal.len())];
        let on_board = |g: &Backgammon, s: Seat| g.board(s).iter().sum::<u8>();
        let before_counts = [on_board(&g, 0), on_board(&g, 1)];
        let game_before = g.game;
        g.apply(seat, a, dice).unwrap();
        if g.game == game_before {
            // Checkers only leave the board by bearing off (a hit checker stays, on the bar).
            let off = match a {
                BackgammonAction::Play { moves } => moves.iter().filter(|m| m.to == 0).count(),
                _ => 0,
            } as u8;
            prop_assert_eq!(on_board(&g, seat), before_counts[seat] - off);
            prop_assert_eq!(on_board(&g, 1 - seat), before_counts[1 - seat]);
        }
        actions += 1;
        prop_assert!(actions < 5_000, "the game does not end");
    }
    // 15 checkers each: on the board, or borne off by the winner.
    prop_assert!(g.outcome().is_some());
    Ok((g, actions))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_games_keep_the_invariants_end_and_replay_identically(seed: u64, match_to in 0u32..4) {
        let options = BackgammonOptions { match_to, ..Default::default() };
        let run = || {
            let mut dice = FairDice::new(ServerSeed([seed as u8; 32]), seed.to_string(), 0);
            let mut choices = rand::rngs::StdRng::seed_from_u64(seed);
            random_game(options.clone(), &mut dice, &mut choices).map(|(g, n)| (g, n, dice.thrown()))
        };
        let first = run()?;
        prop_assert_eq!(first, run()?);
    }

    #[test]
    fn every_legal_play_has_fifteen_checkers_and_distinct_results(seed: u64) {
        let mut dice = RngDice(rand::rngs::StdRng::seed_from_u64(seed));
        let mut choices = rand::rngs::StdRng::seed_from_u64(seed ^ 1);
        let (mut g, _) = Backgammon::new(BackgammonOptions { cube: false, ..Default::default() }, 2, &mut dice).unwrap();
        while let Some(seat) = g.to_act() {
            if let Phase::ToPlay { .. } = g.phase() {
                let plays = g.legal_plays();
                let ids: std::collections::BTreeSet<_> = plays.iter().map(|p| &p.position_id).collect();
                prop_assert_eq!(ids.len(), plays.len());
                for p in &plays {
                    let after = ids::parse_position_id(&p.position_id).unwrap();
                    prop_assert_eq!(after.me.iter().sum::<u8>(), g.board(1 - seat).iter().sum::<u8>());
                    prop_assert!(after.opp.iter().sum::<u8>() < g.board(seat).iter().sum::<u8>() + 1);
                }
            }
            let legal = g.legal_actions(seat);
            let a = legal[choices.random_range(0..legal.len())].clone();
            g.apply(seat, &a, &mut dice).unwrap();
        }
    }
}

/// The state clients see names the position as GNU Backgammon (Position ID, Match ID) and
/// eXtreme Gammon (XGID) do, next to every field of the game, and reads back to the same game.
#[test]
fn the_state_carries_the_position_id_match_id_and_xgid() {
    let xgid = "XGID=aBBBB-B-B---cC---cbcb-----:0:0:1:61:4:6:1:7:10";
    let g = Backgammon::from_xgid(xgid, BackgammonOptions::default()).unwrap();
    let state = serde_json::to_value(&g).unwrap();
    // GNU Backgammon 1.07 reads this XGID as sNvBAaBtM4MDAA:8AnnAGAAIAAE (tests/data/gnubg_xgid.txt).
    assert_eq!(state["position_id"], "sNvBAaBtM4MDAA");
    assert_eq!(state["match_id"], "8AnnAGAAIAAE");
    assert_eq!(state["xgid"], xgid);
    assert_eq!(state["phase"], serde_json::json!({"phase": "to_play", "dice": [6, 1]}));
    assert_eq!(state["score"], serde_json::json!([6, 4]));
    let back: Backgammon = serde_json::from_value(state).unwrap();
    assert_eq!(back, g);
}
