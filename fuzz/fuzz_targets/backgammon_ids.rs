//! The backgammon Position ID, Match ID and XGID readers, `analysis::legal_plays`, and games set
//! up from IDs.
//!
//! Properties: nothing panics; whatever parses writes back to an ID that parses to the same
//! thing; every legal play leaves a position whose Position ID parses, with at most four steps;
//! a game set up from IDs offers only actions it accepts.

#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use luddo::rules::{
    Engine,
    backgammon::{
        Backgammon,
        analysis::{PositionInput, legal_plays},
        ids::{match_id, parse_match_id, parse_position_id, parse_xgid, position_id, xgid},
    },
};
use luddo_fuzz::FuzzDice;

#[derive(Debug, Arbitrary)]
enum Text {
    /// Any string.
    Raw(String),
    /// A string over the base64 alphabet (the IDs' own), of any length.
    Base64(Vec<u8>),
    /// An XGID-shaped string: 26 board characters and the other nine fields (dice among them).
    Xgid { board: [u8; 26], fields: [i8; 8], dice: u8 },
}

#[derive(Debug, Arbitrary)]
struct Input {
    text: Text,
    dice: [u8; 2],
}

const BASE64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const BOARD: &[u8] = b"-ABCDEFGHIJKLMNOPabcdefghijklmnop";

fn text(t: &Text) -> String {
    match t {
        Text::Raw(s) => s.clone(),
        Text::Base64(bytes) => bytes.iter().map(|b| BASE64[*b as usize % 64] as char).collect(),
        Text::Xgid { board, fields, dice } => {
            let mut s = String::from("XGID=");
            s.extend(board.iter().map(|b| BOARD[*b as usize % BOARD.len()] as char));
            for (k, f) in fields.iter().enumerate() {
                s.push(':');
                if k == 3 {
                    match dice % 8 {
                        7 => s.push('D'),
                        _ => s.push_str(&format!("{}{}", dice % 8, dice / 8 % 8)),
                    }
                    s.push(':');
                }
                s.push_str(&f.to_string());
            }
            s
        }
    }
}

fuzz_target!(|input: Input| {
    let s = text(&input.text);
    let dice = [input.dice[0] % 8, input.dice[1] % 8];

    if let Ok(pos) = parse_position_id(&s) {
        let again = position_id(&pos);
        assert_eq!(parse_position_id(&again), Ok(pos), "{s} → {again}");
    }
    if let Ok(m) = parse_match_id(&s) {
        let again = match_id(&m);
        assert_eq!(parse_match_id(&again).as_ref(), Ok(&m), "{s} → {again}");
    }
    if let Ok(x) = parse_xgid(&s) {
        let again = xgid(&x);
        assert_eq!(parse_xgid(&again).as_ref(), Ok(&x), "{s} → {again}");
    }
    for input in [PositionInput::PositionId(s.clone()), PositionInput::Xgid(s.clone())] {
        let Ok(plays) = legal_plays(&input, dice) else { continue };
        for p in &plays {
            assert!(p.steps.len() <= 4, "{s} {dice:?}: {}", p.play);
            if let Err(e) = parse_position_id(&p.position_id) {
                panic!("{s} {dice:?}: play {} leaves {} which does not parse: {e}", p.play, p.position_id);
            }
        }
    }
    let games = [
        s.split_once(':').and_then(|(p, m)| Backgammon::from_gnubg_ids(p, m, Default::default()).ok()),
        Backgammon::from_xgid(&s, Default::default()).ok(),
    ];
    for game in games.into_iter().flatten() {
        let Some(seat) = game.to_act() else { continue };
        for action in game.legal_actions(seat) {
            let mut g = game.clone();
            let mut dice = FuzzDice::new(vec![], u64::from(input.dice[0]) << 8 | u64::from(input.dice[1]));
            if let Err(e) = g.apply(seat, &action, &mut dice) {
                panic!("{s}: offered {action:?} refused: {e}");
            }
        }
    }
});
