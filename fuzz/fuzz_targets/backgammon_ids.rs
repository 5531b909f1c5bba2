//! The backgammon Position ID, Match ID and XGID readers, `analysis::legal_plays`, and games set
//! up from IDs.
//!
//! Properties (`luddo::testing::check_backgammon_text`, shared with `tests/bad_input.rs`):
//! nothing panics; whatever parses writes back to an ID that parses to the same
//! thing; every legal play leaves a position whose Position ID parses, with at most four steps;
//! a game set up from IDs offers only actions it accepts.

#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use luddo::testing::check_backgammon_text;

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
    let dice = [input.dice[0] % 8, input.dice[1] % 8];
    if let Err(broken) = check_backgammon_text(&text(&input.text), dice) {
        panic!("{broken}");
    }
});
