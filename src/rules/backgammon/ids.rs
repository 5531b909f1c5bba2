//! GNU Backgammon Position ID and Match ID, and eXtreme Gammon's XGID.
//!
//! Position ID (14 characters): for the side *not* on roll, then the side on roll, for each of
//! its points 1–24 and its bar, as many 1-bits as checkers followed by a 0-bit; the 80 bits are
//! packed little-endian into 10 bytes and written in base64 without padding. Match ID (12
//! characters): the 66 bits of GNU Backgammon's match state packed the same way into 9 bytes.
//! Both are exactly what GNU Backgammon 1.07 writes (checked against it in the tests).
//!
//! XGID: `XGID=<26 chars>:<cube log2>:<cube owner>:<turn>:<dice>:<score bottom>:<score top>:
//! <crawford or jacoby+2·beaver>:<match length>:<max cube log2>`. GNU Backgammon reads it (its
//! `set xgid`) but does not write it; we write it as eXtreme Gammon does, and check that GNU
//! Backgammon reads ours back into the same Position ID and Match ID.
//!
//! Players follow GNU Backgammon's numbering: player 0 and player 1 (our seats 0 and 1). In an
//! XGID, player 1 is the bottom player (upper-case letters, turn `1`), player 0 the top player.

use super::board::{BAR, CHECKERS, Position};
use serde::{Deserialize, Serialize};

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// What is wrong with a position, match or XGID given to us.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PositionError {
    #[error("a Position ID has 14 characters, not {len}")]
    PositionIdLength { len: usize },
    #[error("a Match ID has 12 characters, not {len}")]
    MatchIdLength { len: usize },
    #[error("{ch:?} is not a base64 character")]
    NotBase64 { ch: char },
    #[error("the Position ID does not describe 2 × 25 points (or has stray bits)")]
    PositionIdBits,
    #[error("impossible position: {reason}")]
    Impossible { reason: String },
    #[error("the Match ID is invalid: {reason}")]
    MatchId { reason: String },
    #[error("the XGID is invalid: {reason}")]
    Xgid { reason: String },
    #[error("dice must be 1 to 6, got {dice:?}")]
    Dice { dice: [u8; 2] },
}

fn encode_base64(bytes: &[u8], chars: usize) -> String {
    let mut out = String::with_capacity(chars);
    for k in 0..chars {
        let mut v = 0u8;
        for b in 0..6 {
            let bit = k * 6 + b;
            let byte = bytes.get(bit / 8).copied().unwrap_or(0);
            let set = (byte >> (7 - bit % 8)) & 1;
            v = (v << 1) | set;
        }
        out.push(BASE64[v as usize] as char);
    }
    out
}

fn decode_base64(s: &str, bytes: usize) -> Result<Vec<u8>, PositionError> {
    let mut out = vec![0u8; bytes];
    for (k, ch) in s.chars().enumerate() {
        let v = BASE64.iter().position(|&c| c as char == ch).ok_or(PositionError::NotBase64 { ch })? as u8;
        for b in 0..6 {
            let bit = k * 6 + b;
            if (v >> (5 - b)) & 1 == 1 {
                if bit / 8 >= bytes {
                    return Err(PositionError::PositionIdBits);
                }
                out[bit / 8] |= 1 << (7 - bit % 8);
            }
        }
    }
    Ok(out)
}

/// Position ID of `pos` (side on roll = `pos.me`).
pub fn position_id(pos: &Position) -> String {
    let mut key = [0u8; 10];
    let mut bit = 0usize;
    for side in [&pos.opp, &pos.me] {
        for &n in side.iter() {
            for _ in 0..n {
                key[bit / 8] |= 1 << (bit % 8);
                bit += 1;
            }
            bit += 1;
        }
    }
    encode_base64(&key, 14)
}

/// Reads a Position ID into a position with the side on roll as `me`.
pub fn parse_position_id(id: &str) -> Result<Position, PositionError> {
    let id = id.trim();
    if id.chars().count() != 14 {
        return Err(PositionError::PositionIdLength { len: id.chars().count() });
    }
    let key = decode_base64(id, 11)?;
    if key[10] != 0 {
        return Err(PositionError::PositionIdBits);
    }
    let mut sides = [[0u8; 25]; 2];
    let (mut side, mut point) = (0usize, 0usize);
    for bit in 0..80 {
        let set = (key[bit / 8] >> (bit % 8)) & 1 == 1;
        if side == 2 {
            if set {
                return Err(PositionError::PositionIdBits);
            }
            continue;
        }
        if set {
            sides[side][point] += 1;
            if sides[side][point] > CHECKERS {
                return Err(PositionError::Impossible { reason: "a side has more than 15 checkers".into() });
            }
        } else {
            point += 1;
            if point == 25 {
                side += 1;
                point = 0;
            }
        }
    }
    if side != 2 {
        return Err(PositionError::PositionIdBits);
    }
    let pos = Position { opp: sides[0], me: sides[1] };
    pos.check().map_err(|r| PositionError::Impossible { reason: r.to_string() })?;
    Ok(pos)
}

/// GNU Backgammon's game state field of the Match ID.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameState {
    NoGame = 0,
    Playing = 1,
    Over = 2,
    Resigned = 3,
    Dropped = 4,
}

/// Everything a Match ID holds. Players are GNU Backgammon's 0 and 1 (our seats).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct MatchState {
    /// The cube's value (a power of two, at most 2^15).
    pub cube: u32,
    /// Who owns the cube; `None` when centred.
    pub cube_owner: Option<u8>,
    /// The player on roll (whose view the Position ID takes).
    pub on_roll: u8,
    /// Whether this is the Crawford game.
    pub crawford: bool,
    pub state: GameState,
    /// The player who must decide now (the opponent of `on_roll` after a double).
    pub turn: u8,
    pub doubled: bool,
    /// 0 none, 1 single, 2 gammon, 3 backgammon.
    pub resigned: u8,
    /// Dice thrown, the larger first; `[0, 0]` before the roll.
    pub dice: [u8; 2],
    /// 0 for a money game.
    pub match_to: u32,
    pub score: [u32; 2],
    /// Money play under the Jacoby rule. GNU Backgammon 1.07 stores it (inverted) in bit 66,
    /// the last character's third bit: IDs of games without the rule end in `E`-like letters.
    pub jacoby: bool,
}

fn set_bits(key: &mut [u8], pos: usize, n: usize, value: u32) {
    for i in 0..n {
        if value >> i & 1 == 1 {
            key[(pos + i) / 8] |= 1 << ((pos + i) % 8);
        }
    }
}

fn get_bits(key: &[u8], pos: usize, n: usize) -> u32 {
    (0..n).fold(0, |v, i| v | (((key[(pos + i) / 8] >> ((pos + i) % 8)) & 1) as u32) << i)
}

/// A throw as we keep it, the larger die first: IDs written in either order read the same.
fn larger_first([a, b]: [u8; 2]) -> [u8; 2] {
    [a.max(b), a.min(b)]
}

/// Match ID of a match state.
pub fn match_id(m: &MatchState) -> String {
    let mut key = [0u8; 9];
    set_bits(&mut key, 0, 4, m.cube.max(1).trailing_zeros());
    set_bits(&mut key, 4, 2, m.cube_owner.map_or(3, u32::from));
    set_bits(&mut key, 6, 1, m.on_roll as u32);
    set_bits(&mut key, 7, 1, m.crawford as u32);
    set_bits(&mut key, 8, 3, m.state as u32);
    set_bits(&mut key, 11, 1, m.turn as u32);
    set_bits(&mut key, 12, 1, m.doubled as u32);
    set_bits(&mut key, 13, 2, m.resigned as u32);
    let (hi, lo) = (m.dice[0].max(m.dice[1]), m.dice[0].min(m.dice[1]));
    set_bits(&mut key, 15, 3, hi as u32);
    set_bits(&mut key, 18, 3, lo as u32);
    set_bits(&mut key, 21, 15, m.match_to);
    set_bits(&mut key, 36, 15, m.score[0]);
    set_bits(&mut key, 51, 15, m.score[1]);
    set_bits(&mut key, 66, 1, !m.jacoby as u32);
    encode_base64(&key, 12)
}

/// Reads a Match ID, with GNU Backgammon's consistency checks.
pub fn parse_match_id(id: &str) -> Result<MatchState, PositionError> {
    let id = id.trim();
    if id.chars().count() != 12 {
        return Err(PositionError::MatchIdLength { len: id.chars().count() });
    }
    let key = decode_base64(id, 9)?;
    let bad = |r: &str| Err(PositionError::MatchId { reason: r.to_string() });
    let owner = get_bits(&key, 4, 2);
    let state = match get_bits(&key, 8, 3) {
        0 => GameState::NoGame,
        1 => GameState::Playing,
        2 => GameState::Over,
        3 => GameState::Resigned,
        4 => GameState::Dropped,
        _ => return bad("unknown game state"),
    };
    let dice = larger_first([get_bits(&key, 15, 3) as u8, get_bits(&key, 18, 3) as u8]);
    if dice.iter().any(|&d| d > 6) || (dice[0] == 0) != (dice[1] == 0) {
        return bad("dice out of range");
    }
    let m = MatchState {
        cube: 1 << get_bits(&key, 0, 4),
        cube_owner: match owner {
            0 | 1 => Some(owner as u8),
            3 => None,
            _ => return bad("cube owner 2"),
        },
        on_roll: get_bits(&key, 6, 1) as u8,
        crawford: get_bits(&key, 7, 1) == 1,
        state,
        turn: get_bits(&key, 11, 1) as u8,
        doubled: get_bits(&key, 12, 1) == 1,
        resigned: get_bits(&key, 13, 2) as u8,
        dice,
        match_to: get_bits(&key, 21, 15),
        score: [get_bits(&key, 36, 15), get_bits(&key, 51, 15)],
        jacoby: get_bits(&key, 66, 1) == 0,
    };
    if m.match_to > 0 && m.score.iter().any(|&s| s > m.match_to) {
        return bad("a score is above the match length");
    }
    if m.match_to == 0 && m.crawford {
        return bad("no Crawford game in money play");
    }
    Ok(m)
}

/// A position with its match state, as an XGID describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Xgid {
    /// Seen from the player on roll (`m.on_roll`).
    pub position: Position,
    pub m: MatchState,
    /// Money game rule: beavers (the Jacoby rule is `m.jacoby`).
    pub beavers: bool,
    /// The maximum cube as a power of two (eXtreme Gammon's setting; 10 by default).
    pub max_cube_log2: u32,
}

/// Writes an XGID. `boards[p]` is player `p`'s checkers on its own points.
pub fn xgid(x: &Xgid) -> String {
    let (top, bottom) =
        if x.m.on_roll == 1 { (&x.position.opp, &x.position.me) } else { (&x.position.me, &x.position.opp) };
    let mut s = String::from("XGID=");
    let letter = |n: u8, base: u8| (base + n - 1) as char;
    s.push(if top[BAR] > 0 { letter(top[BAR], b'a') } else { '-' });
    for p in 1..=24usize {
        if bottom[p - 1] > 0 {
            s.push(letter(bottom[p - 1], b'A'));
        } else if top[24 - p] > 0 {
            s.push(letter(top[24 - p], b'a'));
        } else {
            s.push('-');
        }
    }
    s.push(if bottom[BAR] > 0 { letter(bottom[BAR], b'A') } else { '-' });
    let owner = match x.m.cube_owner {
        None => 0,
        Some(1) => 1,
        Some(_) => -1,
    };
    let turn = if x.m.on_roll == 1 { 1 } else { -1 };
    let dice = if x.m.doubled {
        "D".to_string()
    } else {
        let (hi, lo) = (x.m.dice[0].max(x.m.dice[1]), x.m.dice[0].min(x.m.dice[1]));
        format!("{hi}{lo}")
    };
    let rules = if x.m.match_to > 0 { x.m.crawford as u32 } else { x.m.jacoby as u32 + 2 * x.beavers as u32 };
    s.push_str(&format!(
        ":{}:{}:{}:{}:{}:{}:{}:{}:{}",
        x.m.cube.max(1).trailing_zeros(),
        owner,
        turn,
        dice,
        x.m.score[1],
        x.m.score[0],
        rules,
        x.m.match_to,
        x.max_cube_log2
    ));
    s
}

/// Reads an XGID (with or without the `XGID=` prefix).
pub fn parse_xgid(s: &str) -> Result<Xgid, PositionError> {
    let bad = |r: String| PositionError::Xgid { reason: r };
    let s = s.trim();
    let s = s.strip_prefix("XGID=").unwrap_or(s);
    let f: Vec<&str> = s.split(':').collect();
    if f.len() != 10 {
        return Err(bad(format!("expected 10 fields, found {}", f.len())));
    }
    let chars: Vec<char> = f[0].chars().collect();
    if chars.len() != 26 {
        return Err(bad(format!("the position has 26 characters, not {}", chars.len())));
    }
    let (mut top, mut bottom) = ([0u8; 25], [0u8; 25]);
    for (i, &c) in chars.iter().enumerate() {
        let (upper, n) = match c {
            '-' => continue,
            'A'..='P' => (true, c as u8 - b'A' + 1),
            'a'..='p' => (false, c as u8 - b'a' + 1),
            _ => return Err(bad(format!("{c:?} is not a checker count"))),
        };
        match (i, upper) {
            (0, true) | (25, false) => {
                return Err(bad(format!("{c:?} cannot stand on that bar")));
            }
            (0, false) => top[BAR] = n,
            (25, true) => bottom[BAR] = n,
            (p, true) => bottom[p - 1] = n,
            (p, false) => top[24 - p] = n,
        }
    }
    let int = |k: usize, name: &str| -> Result<i64, PositionError> {
        f[k].parse::<i64>().map_err(|_| bad(format!("{name} {:?} is not a number", f[k])))
    };
    let cube_log = int(1, "cube")?;
    if !(0..=15).contains(&cube_log) {
        return Err(bad(format!("cube 2^{cube_log} out of range")));
    }
    let cube_owner = match int(2, "cube position")? {
        0 => None,
        1 => Some(1),
        -1 => Some(0),
        v => return Err(bad(format!("cube position {v}"))),
    };
    let on_roll = match int(3, "turn")? {
        1 => 1u8,
        -1 => 0,
        v => return Err(bad(format!("turn {v}"))),
    };
    let (doubled, dice) = match f[4] {
        "D" => (true, [0, 0]),
        d if d.len() == 2 && d.bytes().all(|b| b.is_ascii_digit()) => {
            let b = d.as_bytes();
            let dice = larger_first([b[0] - b'0', b[1] - b'0']);
            let ok = dice == [0, 0] || dice.iter().all(|d| (1..=6).contains(d));
            if !ok {
                return Err(bad(format!("dice {d:?}")));
            }
            (false, dice)
        }
        d => return Err(bad(format!("dice {d:?}"))),
    };
    let score_bottom = int(5, "score")?;
    let score_top = int(6, "score")?;
    let rules = int(7, "rules")?;
    let match_to = int(8, "match length")?;
    let max_cube = int(9, "max cube")?;
    if !(0..=32767).contains(&match_to)
        || !(0..=32767).contains(&score_bottom)
        || !(0..=32767).contains(&score_top)
        || !(0..=30).contains(&max_cube)
    {
        return Err(bad("a number is out of range".into()));
    }
    if match_to > 0 && (score_bottom > match_to || score_top > match_to) {
        return Err(bad("a score is above the match length".into()));
    }
    if !(0..=3).contains(&rules) || (match_to > 0 && rules > 1) {
        return Err(bad(format!("rules field {rules}")));
    }
    let position =
        if on_roll == 1 { Position { me: bottom, opp: top } } else { Position { me: top, opp: bottom } };
    position.check().map_err(|r| PositionError::Impossible { reason: r.to_string() })?;
    let m = MatchState {
        cube: 1 << cube_log,
        cube_owner,
        on_roll,
        crawford: match_to > 0 && rules == 1,
        state: GameState::Playing,
        turn: if doubled { 1 - on_roll } else { on_roll },
        doubled,
        resigned: 0,
        dice,
        match_to: match_to as u32,
        score: [score_top as u32, score_bottom as u32],
        jacoby: match_to == 0 && rules & 1 == 1,
    };
    Ok(Xgid { position, m, beavers: match_to == 0 && rules & 2 == 2, max_cube_log2: max_cube as u32 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starting_position_id_is_gnubgs() {
        assert_eq!(position_id(&Position::start()), "4HPwATDgc/ABMA");
        assert_eq!(parse_position_id("4HPwATDgc/ABMA").unwrap(), Position::start());
    }

    #[test]
    fn position_id_orders_the_side_not_on_roll_first() {
        // GNU Backgammon after 31 played 8/5 6/5, the other side on roll.
        let mut moved = super::super::board::START;
        moved[7] -= 1;
        moved[5] -= 1;
        moved[4] += 2;
        let p = Position { me: super::super::board::START, opp: moved };
        assert_eq!(position_id(&p), "sGfwATDgc/ABMA");
    }

    #[test]
    fn bad_position_ids_are_refused_with_a_reason() {
        assert_eq!(parse_position_id("4HPwATDgc/AB"), Err(PositionError::PositionIdLength { len: 12 }));
        assert_eq!(parse_position_id("4HPwATDgc/AB!A"), Err(PositionError::NotBase64 { ch: '!' }));
        assert_eq!(parse_position_id("//////////////"), Err(PositionError::PositionIdBits));
        let mut crowded = Position::start();
        crowded.me[1] = 1; // 16 checkers (the other side has 14, so it fits in 80 bits)
        crowded.opp[5] = 4;
        assert!(matches!(parse_position_id(&position_id(&crowded)), Err(PositionError::Impossible { .. })));
        let mut shared = Position::start();
        shared.me[5] = 4;
        shared.me[0] = 1; // our 1-point is the opponent's 24-point, where it has two
        assert!(matches!(parse_position_id(&position_id(&shared)), Err(PositionError::Impossible { .. })));
    }

    #[test]
    fn match_ids_known_answers() {
        // GNU Backgammon 1.07: a new money game, player 1 on roll with 31 ("cIkFAAAAAAAA").
        let m = MatchState {
            cube: 1,
            cube_owner: None,
            on_roll: 1,
            crawford: false,
            state: GameState::Playing,
            turn: 1,
            doubled: false,
            resigned: 0,
            dice: [3, 1],
            match_to: 0,
            score: [0, 0],
            jacoby: true, // GNU Backgammon's default for money games
        };
        assert_eq!(match_id(&m), "cIkFAAAAAAAA");
        assert_eq!(parse_match_id("cIkFAAAAAAAA").unwrap(), m);
        // After the play: player 0 to roll ("MAEAAAAAAAAA").
        let m2 = MatchState { on_roll: 0, turn: 0, dice: [0, 0], ..m };
        assert_eq!(match_id(&m2), "MAEAAAAAAAAA");
        let m3 = MatchState { jacoby: false, ..m2 };
        assert_eq!(match_id(&m3), "MAEAAAAAAAAE");
    }

    #[test]
    fn dice_read_in_either_order_write_back_the_same() {
        // Found by tests/bad_input.rs: a Match ID with the smaller die first read back as
        // [2, 1] from the ID we wrote for it, which stores the larger die first.
        let m = parse_match_id("c+AId0+0/000").unwrap();
        assert_eq!(m.dice, [2, 1]);
        assert_eq!(parse_match_id(&match_id(&m)).unwrap(), m);
        let x = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:25:0:0:0:0:10").unwrap();
        assert_eq!(x.m.dice, [5, 2]);
        assert_eq!(parse_xgid(&xgid(&x)).unwrap(), x);
    }

    #[test]
    fn xgid_start_position_round_trips() {
        let s = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10";
        let x = parse_xgid(s).unwrap();
        assert_eq!(x.position, Position::start());
        assert_eq!(x.m.on_roll, 1);
        assert_eq!(x.m.dice, [5, 2]);
        assert_eq!(xgid(&x), s);
    }
}
