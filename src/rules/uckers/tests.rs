//! One scenario per rule of RULES.md §5, named after it. Positions are set up with
//! `Uckers::from_position` and dice with `ScriptedDice`.

use super::*;
use crate::rules::{RuleErrorKind, ScriptedDice};

const Y: Colour = Colour::Yellow;
const R: Colour = Colour::Red;
const G: Colour = Colour::Green;
const B: Colour = Colour::Blue;
const BASE: Option<u8> = None;
const H: Option<u8> = Some(HOME);

fn id(colour: Colour, index: u8) -> PieceId {
    PieceId::new(colour, index)
}

/// The progress of a `colour` piece standing on track `square`.
fn on(colour: Colour, square: u8) -> Option<u8> {
    Some((square + 52 - colour.start_square()) % 52)
}

/// A position: every piece in base except those listed.
fn position(pieces: &[(Colour, [Option<u8>; 4])]) -> [[Option<u8>; 4]; 4] {
    let mut out = [[BASE; 4]; 4];
    for (c, ps) in pieces {
        out[c.index()] = *ps;
    }
    out
}

fn game_with(options: UckersOptions, turn: Colour, pieces: &[(Colour, [Option<u8>; 4])]) -> Uckers {
    Uckers::from_position(options, 4, turn, position(pieces)).expect("a legal position")
}

fn game(turn: Colour, pieces: &[(Colour, [Option<u8>; 4])]) -> Uckers {
    game_with(UckersOptions::default(), turn, pieces)
}

/// The seat to act takes `action`, throwing `dice` if it needs any.
fn act_with(g: &mut Uckers, action: Action, dice: &[u8]) -> Vec<Event> {
    let seat = g.to_act().expect("the game is on");
    let mut script = ScriptedDice::new(dice.iter().copied());
    let events = g.apply(seat, &action, &mut script).unwrap_or_else(|e| panic!("{action:?} refused: {e}"));
    assert_eq!(script.remaining(), 0, "dice left unthrown");
    events
}

fn roll(g: &mut Uckers, dice: [u8; 2]) -> Vec<Event> {
    act_with(g, Action::Roll, &dice)
}

fn act(g: &mut Uckers, action: Action) -> Vec<Event> {
    act_with(g, action, &[])
}

/// The seat to act tries `action`; it must be refused, leaving the game as it was.
fn refused(g: &mut Uckers, action: Action) -> RuleError {
    let before = g.clone();
    let seat = g.to_act().expect("the game is on");
    let err = g.apply(seat, &action, &mut ScriptedDice::new([])).expect_err("the action should be refused");
    assert_eq!(*g, before);
    err
}

fn mv(steps: &[(PieceId, u8)]) -> Action {
    Action::Move { steps: steps.iter().map(|&(piece, die)| Step { piece, die }).collect() }
}

fn at(g: &Uckers, piece: PieceId) -> Option<u8> {
    g.board().progress(piece)
}

/// The choices of the seat to act, without resigning.
fn choices(g: &Uckers) -> Vec<Action> {
    let mut legal = g.legal_actions(g.to_act().expect("the game is on"));
    assert_eq!(legal.pop(), Some(Action::UpBoard));
    legal
}

fn has_event(events: &[Event], pred: impl Fn(&Event) -> bool) -> bool {
    events.iter().any(pred)
}

fn opening(options: UckersOptions, seats: usize, dice: &[u8]) -> (Uckers, Vec<Event>) {
    let mut script = ScriptedDice::new(dice.iter().copied());
    let out = Uckers::new(options, seats, &mut script).expect("valid");
    assert_eq!(script.remaining(), 0);
    out
}

// --- Setting up -----------------------------------------------------------------------------

#[test]
fn opening_highest_total_starts_and_ties_are_rethrown() {
    let (g, events) = opening(UckersOptions::default(), 4, &[6, 5, 5, 6, 2, 2, 1, 1, 3, 3, 4, 4]);
    assert_eq!(g.to_act(), Some(1));
    assert_eq!(g.turn(), R);
    assert_eq!(events.last(), Some(&Event::FirstToPlay { seat: 1, colour: R }));
    let throws = events.iter().filter(|e| matches!(e, Event::OpeningRolled { .. })).count();
    assert_eq!(throws, 6, "four throws, then the two tied seats again");
    assert!(events.contains(&Event::OpeningTie { seats: vec![0, 1] }));
}

#[test]
fn opening_that_keeps_tying_ends_with_the_lowest_seat() {
    // Out-of-range dice are clamped (9 counts as 6): every seat throws 12, every round.
    let (g, events) =
        Uckers::new(UckersOptions::default(), 4, &mut crate::rules::dice::StuckDice(9)).unwrap();
    assert_eq!((g.to_act(), g.turn()), (Some(0), Colour::Yellow));
    // Each round: four throws and the tie of all four; the last round ends the opening.
    assert_eq!(events.len(), 5 * crate::rules::opening::MAX_ROUNDS);
    assert!(events[..events.len() - 1].iter().all(|e| matches!(
        e,
        Event::OpeningRolled { dice: [6, 6], .. }
    ) || *e
        == Event::OpeningTie { seats: vec![0, 1, 2, 3] }));
    assert_eq!(events.last(), Some(&Event::FirstToPlay { seat: 0, colour: Colour::Yellow }));
}

#[test]
fn seats_must_be_two_or_four() {
    for seats in [0, 1, 3, 5] {
        let err = Uckers::validate(&UckersOptions::default(), seats).unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::InvalidOptions);
    }
    assert!(Uckers::validate(&UckersOptions::default(), 2).is_ok());
    assert!(Uckers::validate(&UckersOptions::default(), 4).is_ok());
}

#[test]
fn options_default_to_navy_snake_eyes_and_refuse_unknown_fields() {
    let o: UckersOptions = serde_json::from_str("{}").unwrap();
    assert_eq!(o, UckersOptions::default());
    assert_eq!(o.snake_eyes, SnakeEyes::Navy);
    assert!(!o.superblobs && !o.mixed_blob_stacking && !o.suck_back && !o.blow_back);
    let o: UckersOptions = serde_json::from_str(r#"{"snake_eyes":"wafu","superblobs":true}"#).unwrap();
    assert_eq!(o.snake_eyes, SnakeEyes::Wafu);
    assert!(serde_json::from_str::<UckersOptions>(r#"{"blobs":true}"#).is_err());
    assert!(serde_json::from_str::<UckersOptions>(r#"{"snake_eyes":"army"}"#).is_err());
}

#[test]
fn two_seats_play_two_opposite_colours_each_in_clockwise_turns() {
    let (mut g, _) = opening(UckersOptions::default(), 2, &[6, 6, 1, 2]);
    assert_eq!((g.to_act(), g.turn()), (Some(0), Y));
    roll(&mut g, [2, 3]);
    assert_eq!((g.to_act(), g.turn()), (Some(1), R));
    roll(&mut g, [2, 3]);
    assert_eq!((g.to_act(), g.turn()), (Some(0), G));
    roll(&mut g, [2, 3]);
    assert_eq!((g.to_act(), g.turn()), (Some(1), B));
    assert_eq!(g.seats_of(Partnership::YellowGreen), vec![0]);
}

// --- Using a throw ----------------------------------------------------------------------------

#[test]
fn split_moves_two_different_pieces() {
    let mut g = game(Y, &[(Y, [Some(0), Some(10), BASE, BASE])]);
    roll(&mut g, [3, 5]);
    let err = refused(&mut g, mv(&[(id(Y, 0), 3), (id(Y, 0), 5)]));
    assert!(err.message.contains("different pieces"), "{err}");
    act(&mut g, mv(&[(id(Y, 0), 3), (id(Y, 1), 5)]));
    assert_eq!((at(&g, id(Y, 0)), at(&g, id(Y, 1))), (Some(3), Some(15)));
    assert_eq!(g.turn(), R);
}

#[test]
fn total_moves_one_piece_and_captures_only_on_the_final_square() {
    let mut g = game(Y, &[(Y, [Some(0), BASE, BASE, BASE]), (R, [on(R, 3), on(R, 8), BASE, BASE])]);
    roll(&mut g, [3, 5]);
    let events = act(&mut g, Action::Total { piece: id(Y, 0) });
    assert_eq!(at(&g, id(Y, 0)), Some(8));
    assert_eq!(at(&g, id(R, 0)), on(R, 3), "the square in between is not touched");
    assert_eq!(at(&g, id(R, 1)), BASE);
    assert!(has_event(&events, |e| matches!(e, Event::Captured { piece, .. } if *piece == id(R, 1))));
}

#[test]
fn total_may_not_pass_an_opposing_blob() {
    let mut g = game(Y, &[(Y, [Some(0), Some(20), BASE, BASE]), (R, [on(R, 4), on(R, 4), BASE, BASE])]);
    roll(&mut g, [1, 5]);
    let err = refused(&mut g, Action::Total { piece: id(Y, 0) });
    assert!(err.message.contains("blob"), "{err}");
    assert!(choices(&g).contains(&Action::Total { piece: id(Y, 1) }));
}

#[test]
fn only_one_piece_can_move_so_it_uses_the_total() {
    let mut g = game(Y, &[(Y, [Some(10), BASE, BASE, BASE])]);
    roll(&mut g, [2, 3]);
    assert_eq!(choices(&g), vec![Action::Total { piece: id(Y, 0) }]);
    let err = refused(&mut g, mv(&[(id(Y, 0), 3)]));
    assert!(err.message.contains("both dice"), "{err}");
    act(&mut g, Action::Total { piece: id(Y, 0) });
    assert_eq!(at(&g, id(Y, 0)), Some(15));
}

#[test]
fn only_one_piece_can_move_and_the_total_cannot_so_the_larger_die_is_played() {
    let mut g = game(Y, &[(Y, [Some(48), H, H, H])]);
    roll(&mut g, [5, 6]);
    assert_eq!(choices(&g), vec![mv(&[(id(Y, 0), 6)])]);
    let err = refused(&mut g, mv(&[(id(Y, 0), 5)]));
    assert!(err.message.contains("larger"), "{err}");
    let events = act(&mut g, mv(&[(id(Y, 0), 6)]));
    assert_eq!(at(&g, id(Y, 0)), Some(54));
    assert!(has_event(&events, |e| matches!(
        e,
        Event::DiceForfeited { dice, reason: ForfeitReason::OnlyOneDieUsable } if dice == &vec![5]
    )));
}

#[test]
fn larger_die_must_be_played_when_only_one_die_can_be() {
    // Both pieces could take the 3, neither the 5, and not the total: only one die is playable,
    // and it is the 6 of a piece in base... except that the start square is blocked; so the
    // smaller die is played, by either piece.
    let mut g = game(Y, &[(Y, [Some(52), Some(53), BASE, H]), (R, [on(R, 0), on(R, 0), BASE, BASE])]);
    roll(&mut g, [6, 3]);
    let moves: Vec<Action> = choices(&g).into_iter().filter(|a| matches!(a, Action::Move { .. })).collect();
    assert_eq!(moves, vec![mv(&[(id(Y, 0), 3)]), mv(&[(id(Y, 1), 3)])]);
    // With the start square free, the larger die (the 6, bringing a piece out) must be played.
    let mut g = game(Y, &[(Y, [Some(52), Some(53), BASE, H])]);
    roll(&mut g, [6, 4]);
    assert!(
        choices(&g).iter().all(|a| matches!(a, Action::Move { steps } if steps.iter().any(|s| s.die == 6)))
    );
}

#[test]
fn no_legal_move_forfeits_both_dice() {
    let mut g = game(Y, &[]);
    let events = roll(&mut g, [3, 4]);
    assert!(has_event(&events, |e| matches!(
        e,
        Event::DiceForfeited { reason: ForfeitReason::NoLegalMove, .. }
    )));
    assert_eq!(g.turn(), R);
}

// --- Leaving base and extra throws ------------------------------------------------------------

#[test]
fn leaving_base_needs_a_six() {
    let mut g = game(Y, &[]);
    roll(&mut g, [6, 3]);
    assert_eq!(choices(&g), vec![mv(&[(id(Y, 0), 6)])]);
    assert_eq!(g.forced_action(), Some(mv(&[(id(Y, 0), 6)])));
    let events = act(&mut g, mv(&[(id(Y, 0), 6)]));
    assert_eq!(at(&g, id(Y, 0)), Some(0));
    assert!(has_event(&events, |e| matches!(e, Event::Entered { square: 0, .. })));
    let err = {
        let mut h = game(Y, &[]);
        roll(&mut h, [2, 3]);
        h.phase()
    };
    assert_eq!(err, Phase::Roll, "nothing could move: the turn passed");
}

#[test]
fn double_six_brings_two_pieces_out() {
    let mut g = game(Y, &[]);
    roll(&mut g, [6, 6]);
    let two_out = mv(&[(id(Y, 0), 6), (id(Y, 1), 6)]);
    assert_eq!(choices(&g), vec![two_out.clone()]);
    act(&mut g, two_out);
    assert_eq!(g.board().blob_at(0), Some(Y));
    assert_eq!((g.turn(), g.phase()), (Y, Phase::Roll));
}

#[test]
fn six_gives_an_extra_throw_even_if_it_could_not_be_used() {
    let mut g = game(Y, &[(Y, [Some(52), H, H, H])]);
    roll(&mut g, [6, 3]);
    let events = act(&mut g, mv(&[(id(Y, 0), 3)]));
    assert!(has_event(&events, |e| matches!(e, Event::ExtraRoll { colour: Y, .. })));
    assert_eq!((g.turn(), g.phase()), (Y, Phase::Roll));
}

#[test]
fn extra_throws_chain_on_every_six() {
    let mut g = game(Y, &[(Y, [Some(10), Some(20), BASE, BASE])]);
    roll(&mut g, [6, 6]);
    act(&mut g, mv(&[(id(Y, 0), 6), (id(Y, 1), 6)]));
    roll(&mut g, [6, 2]);
    act(&mut g, mv(&[(id(Y, 0), 6), (id(Y, 1), 2)]));
    assert_eq!(g.turn(), Y);
    roll(&mut g, [3, 4]);
    act(&mut g, mv(&[(id(Y, 0), 3), (id(Y, 1), 4)]));
    assert_eq!(g.turn(), R);
}

// --- Snake eyes -------------------------------------------------------------------------------

#[test]
fn snake_eyes_navy_brings_all_pieces_out() {
    let (mut g, _) = opening(UckersOptions::default(), 4, &[6, 6, 1, 2, 1, 2, 1, 2]);
    let events = roll(&mut g, [1, 1]);
    for i in 0..4 {
        assert_eq!(at(&g, id(Y, i)), Some(0));
        assert_eq!(at(&g, id(G, i)), Some(0));
        assert_eq!(at(&g, id(R, i)), BASE);
    }
    assert!(has_event(&events, |e| matches!(e, Event::AllPiecesOut { colour: G, .. })));
    assert_eq!(g.turn(), R, "play passes on");
}

#[test]
fn snake_eyes_navy_again_on_the_second_throw_sends_the_pieces_back() {
    let (mut g, _) = opening(UckersOptions::default(), 4, &[6, 6, 1, 2, 1, 2, 1, 2]);
    roll(&mut g, [1, 1]);
    roll(&mut g, [2, 3]); // red: nothing out
    roll(&mut g, [2, 3]); // green: its own first throw, an ordinary one
    act(&mut g, mv(&[(id(G, 0), 2), (id(G, 1), 3)]));
    roll(&mut g, [2, 3]); // blue
    let events = roll(&mut g, [1, 1]);
    assert!(has_event(&events, |e| matches!(e, Event::SnakeEyesAgain { colour: Y, .. })));
    for i in 0..4 {
        assert_eq!(at(&g, id(Y, i)), BASE);
    }
    assert_eq!(at(&g, id(G, 2)), Some(0), "the partner's pieces stay out");
    assert_eq!(g.turn(), R);
}

#[test]
fn snake_eyes_off_is_an_ordinary_throw() {
    let options = UckersOptions { snake_eyes: SnakeEyes::Off, ..Default::default() };
    let (mut g, _) = opening(options, 4, &[6, 6, 1, 2, 1, 2, 1, 2]);
    roll(&mut g, [1, 1]);
    assert!(g.board().all().all(|(_, p)| p.progress.is_none()));
    assert_eq!(g.turn(), R);
}

#[test]
fn snake_eyes_wafu_must_be_called_before_the_first_throw() {
    let options = UckersOptions { snake_eyes: SnakeEyes::Wafu, ..Default::default() };
    let (mut g, _) = opening(options.clone(), 4, &[6, 6, 1, 2, 1, 2, 1, 2]);
    assert!(choices(&g).contains(&Action::CallSnakeEyes));
    roll(&mut g, [1, 1]);
    assert!(g.board().all().all(|(_, p)| p.progress.is_none()), "not called: no benefit");
    let (mut g, _) = opening(options, 4, &[6, 6, 1, 2, 1, 2, 1, 2]);
    roll(&mut g, [2, 3]);
    roll(&mut g, [2, 3]);
    roll(&mut g, [2, 3]);
    roll(&mut g, [2, 3]);
    let err = refused(&mut g, Action::CallSnakeEyes);
    assert!(err.message.contains("before"), "{err}");
}

#[test]
fn snake_eyes_wafu_brings_out_only_the_callers_pieces() {
    let options = UckersOptions { snake_eyes: SnakeEyes::Wafu, ..Default::default() };
    let (mut g, _) = opening(options, 4, &[6, 6, 1, 2, 1, 2, 1, 2]);
    let events = act(&mut g, Action::CallSnakeEyes);
    assert!(has_event(&events, |e| matches!(e, Event::SnakeEyesCalled { colour: Y, .. })));
    roll(&mut g, [1, 1]);
    for i in 0..4 {
        assert_eq!(at(&g, id(Y, i)), Some(0));
        assert_eq!(at(&g, id(G, i)), BASE);
    }
    assert_eq!(g.turn(), R);
}

// --- Captures and blobs -----------------------------------------------------------------------

#[test]
fn landing_on_a_single_opponent_sends_it_to_base() {
    let mut g = game(Y, &[(Y, [Some(0), Some(20), BASE, BASE]), (R, [on(R, 5), BASE, BASE, BASE])]);
    roll(&mut g, [5, 2]);
    let events = act(&mut g, mv(&[(id(Y, 0), 5), (id(Y, 1), 2)]));
    assert_eq!(at(&g, id(R, 0)), BASE);
    assert!(has_event(&events, |e| matches!(
        e,
        Event::Captured { piece, by, square: 5, .. } if *piece == id(R, 0) && *by == id(Y, 0)
    )));
}

#[test]
fn mixed_blob_blocks_nobody_and_is_captured_whole() {
    let mut g = game(
        Y,
        &[
            (Y, [Some(0), Some(20), BASE, BASE]),
            (R, [on(R, 5), BASE, BASE, BASE]),
            (B, [on(B, 5), BASE, BASE, BASE]),
        ],
    );
    roll(&mut g, [5, 2]);
    assert!(choices(&g).contains(&Action::Total { piece: id(Y, 0) }), "passing it");
    act(&mut g, mv(&[(id(Y, 0), 5), (id(Y, 1), 2)]));
    assert_eq!((at(&g, id(R, 0)), at(&g, id(B, 0))), (BASE, BASE));
    assert_eq!(at(&g, id(Y, 0)), Some(5));
}

#[test]
fn blob_cannot_be_passed_by_opponent() {
    let mut g = game(Y, &[(Y, [Some(0), Some(20), BASE, BASE]), (R, [on(R, 5), on(R, 5), BASE, BASE])]);
    roll(&mut g, [6, 3]);
    let err = refused(&mut g, mv(&[(id(Y, 0), 6), (id(Y, 1), 3)]));
    assert!(err.message.contains("cannot pass the opposing blob"), "{err}");
    assert!(choices(&g).contains(&mv(&[(id(Y, 1), 6), (id(Y, 0), 3)])));
}

#[test]
fn blob_cannot_be_landed_on_by_opponent() {
    let mut g = game(Y, &[(Y, [Some(0), Some(20), BASE, BASE]), (R, [on(R, 5), on(R, 5), BASE, BASE])]);
    roll(&mut g, [5, 3]);
    let err = refused(&mut g, mv(&[(id(Y, 0), 5), (id(Y, 1), 3)]));
    assert!(err.message.contains("cannot land"), "{err}");
}

#[test]
fn partner_may_pass_a_blob() {
    let mut g = game(Y, &[(Y, [Some(0), Some(20), BASE, BASE]), (G, [on(G, 5), on(G, 5), BASE, BASE])]);
    roll(&mut g, [6, 3]);
    act(&mut g, mv(&[(id(Y, 0), 6), (id(Y, 1), 3)]));
    assert_eq!(at(&g, id(Y, 0)), Some(6));
}

// --- Challenges -------------------------------------------------------------------------------

/// Yellow stands before a red blob of `size` (2 or 3) on square 5; red's other pieces stand
/// elsewhere on the track.
fn blob_position(size: usize) -> Uckers {
    let red = if size == 3 {
        [on(R, 5), on(R, 5), on(R, 5), on(R, 40)]
    } else {
        [on(R, 5), on(R, 5), on(R, 30), on(R, 40)]
    };
    game(Y, &[(Y, [Some(4), Some(20), BASE, BASE]), (R, red)])
}

fn challenge(g: &mut Uckers) -> Vec<Event> {
    act(g, Action::Challenge { piece: id(Y, 0), target: 5 })
}

fn sixes(g: &Uckers) -> u8 {
    g.colour_state(Y).challenge.map_or(0, |c| c.sixes)
}

#[test]
fn challenge_needs_a_piece_directly_before_the_blob_and_a_six() {
    let mut g = blob_position(2);
    roll(&mut g, [3, 4]);
    assert!(!choices(&g).iter().any(|a| matches!(a, Action::Challenge { .. })));
    let err = refused(&mut g, Action::Challenge { piece: id(Y, 0), target: 5 });
    assert!(err.message.contains("6"), "{err}");
    let mut g = blob_position(2);
    roll(&mut g, [6, 3]);
    assert!(choices(&g).contains(&Action::Challenge { piece: id(Y, 0), target: 5 }));
    assert!(!choices(&g).contains(&Action::Challenge { piece: id(Y, 1), target: 5 }));
}

#[test]
fn challenge_is_not_declared_on_the_throw_that_moved_the_piece_into_place() {
    let mut g = game(Y, &[(Y, [Some(0), Some(20), BASE, BASE]), (R, [on(R, 5), on(R, 5), BASE, BASE])]);
    roll(&mut g, [4, 6]);
    act(&mut g, mv(&[(id(Y, 0), 4), (id(Y, 1), 6)]));
    assert_eq!(at(&g, id(Y, 0)), Some(4));
    roll(&mut g, [6, 2]);
    assert!(choices(&g).contains(&Action::Challenge { piece: id(Y, 0), target: 5 }));
}

#[test]
fn challenge_forfeits_the_other_die_even_a_six_and_keeps_the_extra_throw() {
    let mut g = blob_position(2);
    roll(&mut g, [6, 6]);
    let events = challenge(&mut g);
    assert!(has_event(&events, |e| matches!(
        e,
        Event::DiceForfeited { dice, reason: ForfeitReason::ChallengeDeclared } if dice == &vec![6]
    )));
    assert!(has_event(&events, |e| matches!(e, Event::ChallengeDeclared { needed: 3, sixes: 1, .. })));
    assert_eq!(sixes(&g), 1);
    assert_eq!((g.turn(), g.phase()), (Y, Phase::Roll));
}

#[test]
fn challenger_moves_no_other_piece_while_the_challenge_stands() {
    let mut g = blob_position(2);
    roll(&mut g, [6, 2]);
    challenge(&mut g);
    assert_eq!(choices(&g), vec![Action::Roll]);
    let events = roll(&mut g, [5, 3]);
    assert!(has_event(&events, |e| matches!(
        e,
        Event::DiceForfeited { reason: ForfeitReason::ChallengeStands, .. }
    )));
    assert_eq!(at(&g, id(Y, 1)), Some(20));
    assert_eq!(g.turn(), R);
}

#[test]
fn challenge_needs_one_six_per_blob_piece_plus_the_challenge_six() {
    let mut g = blob_position(3);
    assert_eq!(g.board().blob_size(5), 3);
    roll(&mut g, [6, 2]);
    let events = challenge(&mut g);
    assert!(has_event(&events, |e| matches!(e, Event::ChallengeDeclared { needed: 4, .. })));
    roll(&mut g, [6, 2]);
    roll(&mut g, [1, 6]);
    assert_eq!(sixes(&g), 3);
    assert_eq!(g.board().blob_size(5), 3);
    let events = roll(&mut g, [6, 3]);
    assert!(has_event(
        &events,
        |e| matches!(e, Event::BlobCaptured { square: 5, captured, .. } if captured.len() == 3)
    ));
    assert_eq!(at(&g, id(Y, 0)), Some(5));
    assert_eq!(g.board().counts(5), [1, 0, 0, 0]);
}

#[test]
fn double_six_counts_twice_in_challenge() {
    let mut g = blob_position(2);
    roll(&mut g, [6, 3]);
    challenge(&mut g);
    let events = roll(&mut g, [6, 6]);
    assert!(has_event(&events, |e| matches!(e, Event::BlobCaptured { .. })));
    assert_eq!(at(&g, id(Y, 0)), Some(5));
}

#[test]
fn no_extra_throw_after_capturing_a_blob() {
    let mut g = blob_position(2);
    roll(&mut g, [6, 3]);
    challenge(&mut g);
    roll(&mut g, [6, 1]);
    let events = roll(&mut g, [6, 4]);
    assert!(has_event(&events, |e| matches!(e, Event::BlobCaptured { .. })));
    assert!(has_event(&events, |e| matches!(
        e,
        Event::DiceForfeited { dice, reason: ForfeitReason::BlobCaptured } if dice == &vec![4]
    )));
    assert!(!has_event(&events, |e| matches!(e, Event::ExtraRoll { .. })));
    assert_eq!(g.turn(), R);
}

#[test]
fn challenge_sixes_accumulate_across_turns() {
    let mut g = blob_position(2);
    roll(&mut g, [6, 2]);
    challenge(&mut g);
    roll(&mut g, [6, 1]);
    roll(&mut g, [2, 3]);
    assert_eq!((g.turn(), sixes(&g)), (R, 2));
    roll(&mut g, [2, 3]);
    act(&mut g, mv(&[(id(R, 2), 2), (id(R, 3), 3)])); // red keeps its blob
    roll(&mut g, [2, 3]); // green: all in base
    roll(&mut g, [2, 3]); // blue: all in base
    assert_eq!((g.turn(), sixes(&g)), (Y, 2));
    let events = roll(&mut g, [4, 6]);
    assert!(has_event(&events, |e| matches!(e, Event::BlobCaptured { .. })));
}

#[test]
fn challenge_from_base_needs_one_more_six() {
    let mut g = game(Y, &[(Y, [BASE, BASE, BASE, H]), (R, [on(R, 0), on(R, 0), on(R, 30), BASE])]);
    roll(&mut g, [6, 2]);
    assert_eq!(choices(&g), vec![Action::Challenge { piece: id(Y, 0), target: 0 }, Action::Pass]);
    let events = act(&mut g, Action::Challenge { piece: id(Y, 0), target: 0 });
    assert!(has_event(&events, |e| matches!(e, Event::ChallengeDeclared { needed: 4, .. })));
    roll(&mut g, [6, 6]);
    assert_eq!(sixes(&g), 3);
    assert_eq!(at(&g, id(Y, 0)), BASE);
    let events = roll(&mut g, [6, 1]);
    assert!(has_event(&events, |e| matches!(e, Event::BlobCaptured { square: 0, .. })));
    assert_eq!(at(&g, id(Y, 0)), Some(0));
    assert_eq!(at(&g, id(R, 0)), BASE);
}

#[test]
fn no_challenge_from_mixed_blob() {
    // Also covers "nor against a blob from a piece of an adjacent opposing mixed blob": seen
    // from the blob, yellow's square is that adjacent opposing mixed blob.
    let mut g = game(
        Y,
        &[
            (Y, [Some(4), Some(20), BASE, BASE]),
            (G, [on(G, 4), BASE, BASE, BASE]),
            (R, [on(R, 5), on(R, 5), BASE, BASE]),
        ],
    );
    roll(&mut g, [6, 2]);
    assert!(!choices(&g).iter().any(|a| matches!(a, Action::Challenge { .. })));
    let err = refused(&mut g, Action::Challenge { piece: id(Y, 0), target: 5 });
    assert!(err.message.contains("mixed"), "{err}");
}

#[test]
fn challenge_lapses_when_blob_reduced_to_a_single_piece() {
    let mut g = blob_position(2);
    roll(&mut g, [6, 2]);
    challenge(&mut g);
    roll(&mut g, [2, 3]);
    assert_eq!(g.turn(), R);
    roll(&mut g, [2, 3]);
    let events = act(&mut g, mv(&[(id(R, 0), 2), (id(R, 2), 3)]));
    assert!(has_event(&events, |e| matches!(e, Event::ChallengeLapsed { colour: Y, target: 5 })));
    assert!(g.colour_state(Y).challenge.is_none());
}

/// Red's piece stands on square 28, before green's blob of `blob` pieces on square 29 (green
/// progress 3); green has one piece home and one on its start square unless the blob uses it.
/// Red declares a challenge with 6-1, throws `sixes` more 6s (with 1s) and then 2-3: green's
/// turn (blue and yellow have nothing out).
fn green_blob_challenged(blob: usize, sixes: u8) -> Uckers {
    let green = if blob == 2 { [H, Some(3), Some(3), Some(0)] } else { [H, Some(3), Some(3), Some(3)] };
    let mut g = game(R, &[(R, [on(R, 28), BASE, BASE, BASE]), (G, green)]);
    roll(&mut g, [6, 1]);
    act(&mut g, Action::Challenge { piece: id(R, 0), target: 29 });
    for _ in 0..sixes {
        roll(&mut g, [6, 1]);
    }
    roll(&mut g, [2, 3]);
    assert_eq!(g.turn(), G);
    g
}

#[test]
fn a_challenge_lapses_on_the_order_the_owner_played() {
    // RULES §5 rule 7: the challenge lapses only if the owner reduces the blob to one piece.
    // Piece 3 joins the blob (3 pieces), then piece 1 leaves it (2): never a single piece.
    let mut g = green_blob_challenged(2, 0);
    roll(&mut g, [4, 3]);
    let keeps = mv(&[(id(G, 3), 3), (id(G, 1), 4)]);
    let breaks = mv(&[(id(G, 1), 4), (id(G, 3), 3)]);
    // Same position, different challenge: both orders are offered.
    assert!(choices(&g).contains(&keeps) && choices(&g).contains(&breaks), "{:?}", choices(&g));
    let mut other = g.clone();
    let events = act(&mut g, keeps);
    assert!(!has_event(&events, |e| matches!(e, Event::ChallengeLapsed { .. })), "{events:?}");
    assert_eq!(g.colour_state(R).challenge.map(|c| c.sixes), Some(1));
    assert_eq!(g.board().blob_size(29), 2);
    // The other order leaves the same position, but the blob was a single piece on the way.
    let events = act(&mut other, breaks);
    assert!(has_event(&events, |e| matches!(e, Event::ChallengeLapsed { colour: R, target: 29 })));
    assert_eq!(other.board().key(), g.board().key());
}

#[test]
fn a_challenge_whose_sixes_already_suffice_captures_on_the_next_throw() {
    // Red has 3 sixes against a blob of 3 (4 needed); green moves one piece off, leaving a blob
    // of 2 (3 needed). Red's next throw captures whatever it shows (docs/rules/uckers.md).
    let mut g = green_blob_challenged(3, 2);
    assert_eq!(g.colour_state(R).challenge.map(|c| c.sixes), Some(3));
    roll(&mut g, [4, 5]);
    act(&mut g, Action::Total { piece: id(G, 1) });
    assert_eq!(g.board().blob_size(29), 2);
    roll(&mut g, [2, 3]); // blue
    roll(&mut g, [2, 3]); // yellow
    assert_eq!(g.turn(), R);
    let events = roll(&mut g, [2, 3]);
    assert!(has_event(&events, |e| matches!(e, Event::ChallengeSixes { sixes: 3, needed: 3, .. })));
    assert!(has_event(
        &events,
        |e| matches!(e, Event::BlobCaptured { square: 29, captured, .. } if captured.len() == 2)
    ));
    assert!(has_event(&events, |e| matches!(
        e,
        Event::DiceForfeited { dice, reason: ForfeitReason::BlobCaptured } if dice == &vec![2, 3]
    )));
    assert_eq!((at(&g, id(R, 0)), at(&g, id(G, 2))), (on(R, 29), BASE));
    assert_eq!(g.turn(), G);
}

// --- The pipe and home ------------------------------------------------------------------------

#[test]
fn home_needs_an_exact_throw() {
    let mut g = game(Y, &[(Y, [Some(53), Some(10), H, H])]);
    roll(&mut g, [4, 5]);
    assert_eq!(choices(&g), vec![Action::Total { piece: id(Y, 1) }]);
    let err = refused(&mut g, mv(&[(id(Y, 0), 4), (id(Y, 1), 5)]));
    assert!(err.message.contains("exactly 3"), "{err}");
    let mut g = game(Y, &[(Y, [Some(53), Some(10), H, H])]);
    roll(&mut g, [3, 5]);
    let events = act(&mut g, mv(&[(id(Y, 0), 3), (id(Y, 1), 5)]));
    assert!(has_event(&events, |e| matches!(e, Event::PieceHome { .. })));
}

#[test]
fn pieces_in_the_pipe_cannot_be_attacked_without_wafu_options() {
    // Red stands on yellow's pipe mouth; yellow's piece in the pipe is out of reach.
    let mut g = game(R, &[(Y, [Some(53), BASE, BASE, BASE]), (R, [on(R, 50), BASE, BASE, BASE])]);
    assert_eq!(choices(&g), vec![Action::Roll]);
    roll(&mut g, [1, 2]);
    act(&mut g, Action::Total { piece: id(R, 0) });
    assert_eq!(at(&g, id(Y, 0)), Some(53));
    assert_eq!(g.board().square_of(id(R, 0)), Some(1));
}

// --- Finishing --------------------------------------------------------------------------------

#[test]
fn finished_player_throws_for_a_six_then_moves_the_partners_pieces() {
    let mut g = game(Y, &[(Y, [H, H, H, H]), (G, [Some(10), BASE, BASE, BASE])]);
    assert_eq!(choices(&g), vec![Action::Roll]);
    let events = roll(&mut g, [2, 3]);
    assert!(has_event(&events, |e| matches!(
        e,
        Event::DiceForfeited { reason: ForfeitReason::ThrowingForSix, .. }
    )));
    assert_eq!(g.turn(), R);
    roll(&mut g, [2, 3]); // red: all in base
    roll(&mut g, [2, 3]); // green moves its own piece
    act(&mut g, Action::Total { piece: id(G, 0) });
    roll(&mut g, [2, 3]); // blue: all in base
    assert_eq!(g.turn(), Y);
    let events = roll(&mut g, [6, 3]);
    assert!(has_event(&events, |e| matches!(e, Event::PartnerUnlocked { colour: Y, partner: G })));
    assert_eq!(g.turn(), R, "the partner's pieces move from the next turn on");
    roll(&mut g, [2, 3]);
    roll(&mut g, [2, 4]);
    act(&mut g, Action::Total { piece: id(G, 0) });
    roll(&mut g, [2, 3]);
    assert_eq!((g.turn(), g.playing_colour()), (Y, G));
    roll(&mut g, [1, 2]);
    assert_eq!(choices(&g), vec![Action::Total { piece: id(G, 0) }]);
    act(&mut g, Action::Total { piece: id(G, 0) });
    assert_eq!(at(&g, id(G, 0)), Some(24));
}

#[test]
fn finished_player_never_moves_a_partner_piece_in_the_pipe() {
    let mut g = game(Y, &[(Y, [H, H, H, H]), (G, [Some(53), on(G, 10), BASE, BASE])]);
    roll(&mut g, [6, 1]);
    for _ in 0..3 {
        roll(&mut g, [2, 3]);
        if matches!(g.phase(), Phase::Play { .. }) {
            let c = choices(&g);
            act(&mut g, c[0].clone());
        }
    }
    assert_eq!(g.playing_colour(), G);
    let g0 = at(&g, id(G, 0));
    roll(&mut g, [1, 2]);
    for a in choices(&g) {
        let pieces: Vec<PieceId> = match a {
            Action::Move { steps } => steps.iter().map(|s| s.piece).collect(),
            Action::Total { piece } => vec![piece],
            other => panic!("unexpected {other:?}"),
        };
        assert!(!pieces.contains(&id(G, 0)));
    }
    let err = refused(&mut g, mv(&[(id(G, 0), 2), (id(G, 1), 1)]));
    assert!(err.message.contains("only its owner"), "{err}");
    assert_eq!(at(&g, id(G, 0)), g0);
}

#[test]
fn partnership_with_all_eight_home_wins() {
    let mut g = game(G, &[(Y, [H, H, H, H]), (G, [Some(54), H, H, H]), (R, [H, BASE, BASE, BASE])]);
    roll(&mut g, [2, 3]);
    let events = act(&mut g, mv(&[(id(G, 0), 2)]));
    assert!(has_event(&events, |e| matches!(e, Event::GameOver { winners: Partnership::YellowGreen, .. })));
    assert_eq!(g.to_act(), None);
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.places, vec![1, 2, 1, 2]);
    assert!(outcome.shame.is_empty(), "red got a piece home");
    assert_eq!(refused_over(&mut g).kind, RuleErrorKind::GameOver);
}

fn refused_over(g: &mut Uckers) -> RuleError {
    g.apply(0, &Action::Roll, &mut ScriptedDice::new([])).unwrap_err()
}

#[test]
fn eight_piece_dicking_goes_on_the_back_of_the_board() {
    let mut g = game(G, &[(Y, [H, H, H, H]), (G, [Some(54), H, H, H]), (R, [Some(3), BASE, BASE, BASE])]);
    roll(&mut g, [2, 3]);
    act(&mut g, mv(&[(id(G, 0), 2)]));
    let outcome = g.outcome().unwrap();
    assert_eq!(
        outcome.shame,
        vec![ShameEntry { seats: vec![1, 3], kind: ShameKind::Dicking, pieces_home: 0 }]
    );
}

#[test]
fn up_board_resigns_at_any_time_and_earns_the_same_entry() {
    let mut g = game(Y, &[(Y, [Some(3), BASE, BASE, BASE])]);
    assert!(g.legal_actions(1).contains(&Action::UpBoard), "out of turn too");
    let events = g.apply(1, &Action::UpBoard, &mut ScriptedDice::new([])).unwrap();
    assert!(has_event(&events, |e| matches!(e, Event::UpBoard { seat: 1 })));
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.places, vec![1, 2, 1, 2]);
    assert_eq!(outcome.shame, vec![ShameEntry { seats: vec![1], kind: ShameKind::UpBoard, pieces_home: 0 }]);
}

// --- Options ----------------------------------------------------------------------------------

#[test]
fn superblobs_cannot_move() {
    let options = UckersOptions { superblobs: true, ..Default::default() };
    let pieces = [(Y, [Some(10), Some(10), Some(10), Some(30)])];
    let mut g = game_with(options.clone(), Y, &pieces);
    roll(&mut g, [2, 3]);
    assert_eq!(choices(&g), vec![Action::Total { piece: id(Y, 3) }]);
    let mut plain = game(Y, &pieces);
    roll(&mut plain, [2, 3]);
    assert!(choices(&plain).len() > 1);
}

#[test]
fn superblobs_cannot_move_even_when_nothing_else_can() {
    // RULES §5: "3+ pieces of one player on a square cannot move at all".
    let options = UckersOptions { superblobs: true, ..Default::default() };
    let mut g = game_with(
        options,
        Y,
        &[(Y, [Some(10), Some(10), Some(10), BASE]), (R, [on(R, 30), BASE, BASE, BASE])],
    );
    let events = roll(&mut g, [2, 3]);
    assert!(has_event(&events, |e| matches!(
        e,
        Event::DiceForfeited { reason: ForfeitReason::NoLegalMove, .. }
    )));
    assert_eq!((g.turn(), at(&g, id(Y, 0))), (R, Some(10)));
    let mut g = game_with(
        UckersOptions { superblobs: true, ..Default::default() },
        Y,
        &[(Y, [Some(10), Some(10), Some(10), BASE]), (R, [on(R, 30), BASE, BASE, BASE])],
    );
    roll(&mut g, [6, 6]);
    // The 6s bring the last piece out, then nothing moves: the superblob stays put.
    let err = refused(&mut g, mv(&[(id(Y, 0), 6), (id(Y, 3), 6)]));
    assert!(err.message.contains("superblob"), "{err}");
}

#[test]
fn superblobs_move_only_when_nothing_could_ever_move_again() {
    // Every colour's four pieces stand on its start square and no challenge is possible: under
    // the rule as written nobody could ever move again and the game would stall forever. Then,
    // and only then, superblobs may move (docs/rules/uckers.md).
    let options = UckersOptions { superblobs: true, ..Default::default() };
    let start = |c: Colour| [on(c, c.start_square()); 4];
    let stalled = [(Y, start(Y)), (R, start(R)), (G, start(G)), (B, start(B))];
    let mut g = game_with(options.clone(), Y, &stalled);
    roll(&mut g, [2, 3]);
    assert!(choices(&g).contains(&mv(&[(id(Y, 0), 2), (id(Y, 1), 3)])), "{:?}", choices(&g));
    act(&mut g, mv(&[(id(Y, 0), 2), (id(Y, 1), 3)]));
    // Something moved: the others are frozen again (yellow's pieces can move on).
    roll(&mut g, [2, 3]);
    assert_eq!(g.turn(), G, "red forfeits");
    // One colour able to move is enough to keep every superblob frozen.
    let mut g = game_with(options, Y, &[(Y, start(Y)), (R, [on(R, 30), BASE, BASE, BASE])]);
    roll(&mut g, [2, 3]);
    assert_eq!(g.turn(), R, "yellow forfeits");
}

#[test]
fn mixed_blob_stacking_lets_only_the_top_piece_move() {
    let options = UckersOptions { mixed_blob_stacking: true, ..Default::default() };
    // Green arrived on square 10 after yellow: green is on top.
    let pieces = [(Y, [Some(10), Some(30), BASE, BASE]), (G, [on(G, 10), BASE, BASE, BASE])];
    let mut g = game_with(options, Y, &pieces);
    roll(&mut g, [2, 3]);
    assert_eq!(choices(&g), vec![Action::Total { piece: id(Y, 1) }]);
    let err = refused(&mut g, mv(&[(id(Y, 0), 2), (id(Y, 1), 3)]));
    assert!(err.message.contains("top piece"), "{err}");
    let mut plain = game(Y, &pieces);
    roll(&mut plain, [2, 3]);
    assert!(choices(&plain).contains(&mv(&[(id(Y, 0), 2), (id(Y, 1), 3)])));
}

fn wafu_pipe_position(options: UckersOptions, turn: Colour) -> Uckers {
    game_with(options, turn, &[(Y, [Some(53), Some(10), BASE, BASE]), (R, [on(R, 50), BASE, BASE, BASE])])
}

#[test]
fn suck_back_hit_sends_the_piece_in_the_pipe_to_base() {
    let options = UckersOptions { suck_back: true, ..Default::default() };
    let mut g = wafu_pipe_position(options, R);
    let suck = Action::SuckBack { piece: id(R, 0), target: id(Y, 0) };
    assert!(choices(&g).contains(&suck));
    let events = act_with(&mut g, suck, &[1, 2]);
    assert!(has_event(&events, |e| matches!(e, Event::SuckBack { hit: true, distance: 3, .. })));
    assert_eq!(at(&g, id(Y, 0)), BASE);
    assert_eq!(g.turn(), G);
}

#[test]
fn suck_back_miss_moves_the_declaring_piece_on_one_square() {
    let options = UckersOptions { suck_back: true, ..Default::default() };
    let mut g = wafu_pipe_position(options, R);
    let suck = Action::SuckBack { piece: id(R, 0), target: id(Y, 0) };
    let events = act_with(&mut g, suck, &[5, 5]);
    assert!(has_event(&events, |e| matches!(e, Event::SuckBack { hit: false, .. })));
    assert_eq!(at(&g, id(Y, 0)), Some(53));
    assert_eq!(g.board().square_of(id(R, 0)), Some(51));
}

#[test]
fn blow_back_hit_sends_the_piece_at_the_mouth_to_base() {
    let options = UckersOptions { blow_back: true, ..Default::default() };
    let mut g = wafu_pipe_position(options, Y);
    let blow = Action::BlowBack { piece: id(Y, 0) };
    assert!(choices(&g).contains(&blow));
    let events = act_with(&mut g, blow.clone(), &[3, 5]);
    assert!(has_event(&events, |e| matches!(e, Event::BlowBack { hit: true, distance: 3, square: 50, .. })));
    assert_eq!(at(&g, id(R, 0)), BASE);
    let mut g = wafu_pipe_position(UckersOptions { blow_back: true, ..Default::default() }, Y);
    act_with(&mut g, blow, &[4, 5]);
    assert_eq!(at(&g, id(R, 0)), on(R, 50), "a miss changes nothing");
}

#[test]
fn stand_up_finish_plays_the_winning_throw() {
    let options = UckersOptions { stand_up_finish: true, ..Default::default() };
    let pieces = [(Y, [Some(53), H, H, H]), (G, [H, H, H, H])];
    let mut g = game_with(options.clone(), Y, &pieces);
    assert!(choices(&g).contains(&Action::StandUp));
    let events = act_with(&mut g, Action::StandUp, &[4, 3]);
    assert!(has_event(&events, |e| matches!(e, Event::StandUpFinish { came_off: true, .. })));
    assert_eq!(g.winner(), Some(Partnership::YellowGreen));

    let mut g = game_with(options, Y, &pieces);
    let events = act_with(&mut g, Action::StandUp, &[5, 4]);
    assert!(has_event(&events, |e| matches!(e, Event::StandUpFinish { came_off: false, .. })));
    assert_eq!(g.winner(), None);
    assert_eq!(at(&g, id(Y, 0)), Some(53));
}

#[test]
fn stand_up_finish_needs_a_position_one_throw_from_winning() {
    let options = UckersOptions { stand_up_finish: true, ..Default::default() };
    let mut g = game_with(options, Y, &[(Y, [Some(30), H, H, H]), (G, [H, H, H, H])]);
    assert!(!choices(&g).contains(&Action::StandUp));
    let err = refused(&mut g, Action::StandUp);
    assert!(err.message.contains("one throw"), "{err}");
}

// --- The engine contract ----------------------------------------------------------------------

#[test]
fn illegal_actions_are_refused_with_a_reason_and_change_nothing() {
    let mut g = game(Y, &[(Y, [Some(3), BASE, BASE, BASE])]);
    let err = g.apply(1, &Action::Roll, &mut ScriptedDice::new([])).unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::NotYourTurn);
    let err = refused(&mut g, Action::Total { piece: id(Y, 0) });
    assert!(err.message.contains("throw the dice first"), "{err}");
    roll(&mut g, [2, 3]);
    let err = refused(&mut g, Action::Roll);
    assert!(err.message.contains("play them first"), "{err}");
    let err = refused(&mut g, mv(&[(id(R, 0), 2), (id(Y, 0), 3)]));
    assert!(err.message.contains("yellow pieces"), "{err}");
    let err = refused(&mut g, mv(&[(id(Y, 0), 4)]));
    assert!(err.message.contains("the throw is 2 and 3"), "{err}");
    assert_eq!(err.kind, RuleErrorKind::IllegalAction);
}

#[test]
fn forced_action_is_the_only_choice_and_never_a_roll() {
    let mut g = game(Y, &[(Y, [Some(10), BASE, BASE, BASE])]);
    assert_eq!(g.forced_action(), None, "throwing is never forced");
    roll(&mut g, [2, 3]);
    assert_eq!(g.forced_action(), Some(Action::Total { piece: id(Y, 0) }));
    let mut g = game(Y, &[(Y, [Some(10), Some(20), BASE, BASE])]);
    roll(&mut g, [2, 3]);
    assert_eq!(g.forced_action(), None);
}

#[test]
fn a_play_given_in_another_order_is_the_same_play() {
    let mut g = game(Y, &[(Y, [Some(0), Some(20), BASE, BASE])]);
    roll(&mut g, [6, 3]);
    assert!(choices(&g).contains(&mv(&[(id(Y, 1), 6), (id(Y, 0), 3)])));
    assert!(!choices(&g).contains(&mv(&[(id(Y, 0), 3), (id(Y, 1), 6)])));
    act(&mut g, mv(&[(id(Y, 0), 3), (id(Y, 1), 6)]));
    assert_eq!((at(&g, id(Y, 0)), at(&g, id(Y, 1))), (Some(3), Some(26)));
}

#[test]
fn identical_plays_are_offered_once() {
    // Two pieces on one square: moving "this one" or "that one" is the same choice.
    let mut g = game(Y, &[(Y, [Some(10), Some(10), BASE, BASE])]);
    roll(&mut g, [2, 3]);
    assert_eq!(choices(&g), vec![mv(&[(id(Y, 0), 2), (id(Y, 1), 3)]), Action::Total { piece: id(Y, 0) }]);
}

#[test]
fn a_play_in_another_step_order_or_with_the_twin_piece_is_taken_as_the_listed_play() {
    // docs/rules/uckers.md: a play is identified by the position it leaves and the challenges
    // it leaves standing; the table logs the listed play a posted one stands for.
    let mut g = game(Y, &[(Y, [Some(0), Some(20), BASE, BASE])]);
    roll(&mut g, [6, 3]);
    let listed = mv(&[(id(Y, 1), 6), (id(Y, 0), 3)]);
    assert!(choices(&g).contains(&listed));
    assert_eq!(g.legal_action(0, &mv(&[(id(Y, 0), 3), (id(Y, 1), 6)])), Some(listed.clone()));
    assert_eq!(g.legal_action(0, &listed), Some(listed));

    // Two pieces on one square: either one's total is the listed total, either split the
    // listed split.
    let mut g = game(Y, &[(Y, [Some(10), Some(10), BASE, BASE])]);
    roll(&mut g, [2, 3]);
    let (split, total) = (mv(&[(id(Y, 0), 2), (id(Y, 1), 3)]), Action::Total { piece: id(Y, 0) });
    assert_eq!(choices(&g), vec![split.clone(), total.clone()]);
    assert_eq!(g.legal_action(0, &Action::Total { piece: id(Y, 1) }), Some(total));
    for twin in [mv(&[(id(Y, 1), 2), (id(Y, 0), 3)]), mv(&[(id(Y, 0), 3), (id(Y, 1), 2)])] {
        assert_eq!(g.legal_action(0, &twin), Some(split.clone()), "{twin:?}");
    }
}

#[test]
fn a_play_that_leaves_another_result_than_every_listed_one_is_refused() {
    let mut g = game(Y, &[(Y, [Some(10), Some(10), BASE, BASE])]);
    roll(&mut g, [2, 3]);
    // One die when both can be played, a piece moved twice, a die not thrown, out of turn.
    for play in
        [mv(&[(id(Y, 1), 3)]), mv(&[(id(Y, 1), 2), (id(Y, 1), 3)]), mv(&[(id(Y, 1), 4), (id(Y, 0), 3)])]
    {
        assert_eq!(g.legal_action(0, &play), None, "{play:?}");
        refused(&mut g, play);
    }
    assert_eq!(g.legal_action(1, &Action::Total { piece: id(Y, 1) }), None);
    // Both orders of a play that makes a challenge lapse in one of them are listed, each as
    // itself: the same position, not the same result.
    let mut g = green_blob_challenged(2, 0);
    roll(&mut g, [4, 3]);
    let keeps = mv(&[(id(G, 3), 3), (id(G, 1), 4)]);
    let breaks = mv(&[(id(G, 1), 4), (id(G, 3), 3)]);
    let seat = g.to_act().unwrap();
    assert_eq!(g.legal_action(seat, &keeps), Some(keeps));
    assert_eq!(g.legal_action(seat, &breaks), Some(breaks));
}
