//! Checker positions, legal-play generation and move notation.
//!
//! A [`Position`] is seen from the side on roll, the way GNU Backgammon sees it: each side's
//! checkers are counted on its own points 1–24 (index 0–23, its home board is 1–6) and its bar
//! (index 24); checkers borne off are the rest of the 15. The opponent's checker on our point
//! `p` is at the opponent's index `24 - p`.
//!
//! [`MoveGen`] finds every legal play of a roll, one per distinct resulting position, without
//! allocating once warmed up: a depth-first search over the dice (both orders for a non-double,
//! non-increasing source points for a double, as GNU Backgammon does), positions hashed
//! incrementally (Zobrist) to drop duplicates, then the rules "use as many dice as possible" and
//! "else the larger die" applied by keeping the plays that use the most dice, then the most pips.

use serde::{Deserialize, Serialize};

/// Checkers per side.
pub const CHECKERS: u8 = 15;
/// Index of the bar in a side's array.
pub const BAR: usize = 24;

/// Both sides' checkers, from the point of view of the side on roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Position {
    /// The side on roll: index 0–23 = its points 1–24, 24 = its bar.
    pub me: [u8; 25],
    /// The other side, counted on its own points the same way.
    pub opp: [u8; 25],
}

/// The standard starting position of one side.
pub const START: [u8; 25] = {
    let mut b = [0u8; 25];
    b[5] = 5;
    b[7] = 3;
    b[12] = 5;
    b[23] = 2;
    b
};

impl Position {
    /// Both sides in the starting position.
    pub const fn start() -> Self {
        Self { me: START, opp: START }
    }

    /// The same position with the other side on roll.
    pub fn swapped(&self) -> Self {
        Self { me: self.opp, opp: self.me }
    }

    /// Checkers of the side on roll still on the board (15 minus those borne off).
    pub fn on_board(side: &[u8; 25]) -> u8 {
        side.iter().sum()
    }

    /// Pip count of one side: what it still has to travel to bear everything off.
    pub fn pips(side: &[u8; 25]) -> u32 {
        side.iter().enumerate().map(|(i, &n)| (i as u32 + 1) * n as u32).sum()
    }

    /// Whether the race is on: no checker of either side can meet one of the other's again
    /// (every checker of each side is past all of the other's).
    pub fn is_race(&self) -> bool {
        // Furthest-back checker of each side, as a point number from its own side (bar = 25).
        let back = |s: &[u8; 25]| (0..25).rev().find(|&i| s[i] > 0).map_or(0, |i| i + 1);
        back(&self.me) + back(&self.opp) <= 25
    }

    /// Whether the side on roll may move a checker from `src` (index, 24 = bar) by `die`.
    #[inline]
    pub fn can_move(&self, src: usize, die: u8) -> bool {
        if self.me[src] == 0 || (self.me[BAR] > 0 && src != BAR) {
            return false;
        }
        let dest = src as isize - die as isize;
        if dest >= 0 {
            return self.opp[23 - dest as usize] < 2;
        }
        // Bearing off: everything home, and either exact or from the highest point.
        if self.me[6..].iter().any(|&n| n > 0) {
            return false;
        }
        dest == -1 || self.me[src + 1..6].iter().all(|&n| n == 0)
    }

    /// Moves a checker of the side on roll from `src` by `die` (assumed legal), hitting a blot
    /// where it lands. Returns whether it hit.
    #[inline]
    pub fn apply_move(&mut self, src: usize, die: u8) -> bool {
        self.me[src] -= 1;
        let dest = src as isize - die as isize;
        if dest < 0 {
            return false;
        }
        let dest = dest as usize;
        self.me[dest] += 1;
        let o = 23 - dest;
        if self.opp[o] == 1 {
            self.opp[o] = 0;
            self.opp[BAR] += 1;
            true
        } else {
            false
        }
    }

    /// Moves a checker along a [`Step`] without checking dice or legality (the caller compares
    /// the result with the legal plays). `None` if there is no checker to move or the step
    /// goes backwards or lands on a point held by two or more opposing checkers.
    pub fn apply_step(&mut self, step: Step) -> Option<()> {
        let (from, to) = (step.from as usize, step.to as usize);
        if !(1..=25).contains(&from) || to >= from || self.me[from - 1] == 0 {
            return None;
        }
        if to > 0 && self.opp[24 - to] >= 2 {
            return None;
        }
        self.apply_move(from - 1, (from - to) as u8);
        Some(())
    }

    /// Checks that a position could occur: at most 15 checkers a side, no point held by both
    /// sides, not both sides on the bar against closed boards (GNU Backgammon's checks).
    pub fn check(&self) -> Result<(), &'static str> {
        if Self::on_board(&self.me) > CHECKERS || Self::on_board(&self.opp) > CHECKERS {
            return Err("a side has more than 15 checkers");
        }
        if (0..24).any(|i| self.me[i] > 0 && self.opp[23 - i] > 0) {
            return Err("both sides have checkers on the same point");
        }
        let closed = |b: &[u8; 25]| b[..6].iter().all(|&n| n >= 2);
        if self.me[BAR] > 0 && self.opp[BAR] > 0 && closed(&self.me) && closed(&self.opp) {
            return Err("both sides are on the bar against closed boards");
        }
        Ok(())
    }
}

/// One checker's move by one die, numbered from the mover's side as GNU Backgammon numbers
/// them: `from` 1–24 or 25 for the bar, `to` 1–24 or 0 for off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Step {
    pub from: u8,
    pub to: u8,
}

impl Step {
    const NONE: Step = Step { from: 0, to: 0 };

    fn of(src: usize, die: u8) -> Self {
        let to = src as isize - die as isize;
        Self { from: src as u8 + 1, to: if to < 0 { 0 } else { to as u8 + 1 } }
    }
}

/// A legal play: its steps in the order found and the position it leaves (still seen from the
/// side that moved; [`Position::swapped`] gives the opponent's view).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Play {
    steps: [Step; 4],
    len: u8,
    /// Sum of the dice used (the "larger die" rule compares plays by it).
    pips: u8,
    pub result: Position,
}

impl Play {
    /// The checker moves of the play, one per die used.
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }
}

/// Zobrist keys: one random word per side, index and count.
const ZOBRIST: [[[u64; 16]; 25]; 2] = {
    let mut t = [[[0u64; 16]; 25]; 2];
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut side = 0;
    while side < 2 {
        let mut i = 0;
        while i < 25 {
            let mut c = 0;
            while c < 16 {
                // splitmix64
                s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = s;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                t[side][i][c] = if c == 0 { 0 } else { z ^ (z >> 31) };
                c += 1;
            }
            i += 1;
        }
        side += 1;
    }
    t
};

pub(crate) fn zobrist(p: &Position) -> u64 {
    let mut h = 0;
    for i in 0..25 {
        h ^= ZOBRIST[0][i][p.me[i] as usize & 15] ^ ZOBRIST[1][i][p.opp[i] as usize & 15];
    }
    h
}

/// Moves a checker and keeps the hash in step.
#[inline]
fn apply_hashed(p: &mut Position, h: &mut u64, src: usize, die: u8) {
    let z = &ZOBRIST;
    let dest = src as isize - die as isize;
    let m = p.me[src] as usize;
    *h ^= z[0][src][m] ^ z[0][src][m - 1];
    if dest >= 0 {
        let d = dest as usize;
        let m = p.me[d] as usize;
        *h ^= z[0][d][m] ^ z[0][d][m + 1];
        let o = 23 - d;
        if p.opp[o] == 1 {
            let b = p.opp[BAR] as usize;
            *h ^= z[1][o][1] ^ z[1][BAR][b] ^ z[1][BAR][b + 1];
        }
    }
    p.apply_move(src, die);
}

/// A reusable generator of legal plays. Keep one around to avoid allocating per call.
#[derive(Debug, Clone, Default)]
pub struct MoveGen {
    plays: Vec<Play>,
    /// Open-addressing set of result hashes → index into `plays` + 1 (0 = empty slot).
    slots: Vec<(u64, u32)>,
    /// Slots written during this call, to clear them cheaply afterwards.
    used: Vec<u32>,
    max_len: u8,
    max_pips: u8,
    /// Sources that can move by the larger die in the original position (see `generate`).
    skip_second: u32,
    /// Our indexes where the opponent has two or more checkers.
    blocked: u32,
}

impl MoveGen {
    pub fn new() -> Self {
        Self {
            plays: Vec::with_capacity(64),
            // Small enough to stay in L1 for the usual few dozen plays; grows when needed.
            slots: vec![(0, 0); 1 << 8],
            used: Vec::with_capacity(64),
            max_len: 0,
            max_pips: 0,
            skip_second: 0,
            blocked: 0,
        }
    }

    /// Every legal play of `dice` in `pos` (side on roll = `pos.me`), one per distinct
    /// resulting position. Empty when no die can be played. Dice must be 1–6.
    pub fn generate(&mut self, pos: &Position, dice: [u8; 2]) -> &[Play] {
        if self.slots.is_empty() {
            *self = Self::new();
        }
        self.plays.clear();
        self.max_len = 0;
        self.max_pips = 0;
        let (hi, lo) = (dice[0].max(dice[1]), dice[0].min(dice[1]));
        let h = zobrist(pos);
        let mut steps = [Step::NONE; 4];
        // Points the opponent holds, by our index: they stay held during our play (a hit
        // only ever removes a single checker).
        self.blocked = (0..24).filter(|&i| pos.opp[23 - i] >= 2).fold(0u32, |m, i| m | 1 << i);
        let occ = (0..25).filter(|&i| pos.me[i] > 0).fold(0u32, |m, i| m | 1 << i);
        self.skip_second = 0;
        if hi == lo {
            self.search(pos, occ, h, &[hi; 4], 0, 23, 0, &mut steps);
        } else {
            self.search(pos, occ, h, &[hi, lo], 0, 23, 0, &mut steps);
            // Smaller die first: a play "x by lo, then y by hi" with y another checker (not
            // x moving on) was found by the first search as "y by hi, then x by lo" whenever y
            // could move by hi in the original position: moving x first can only enable y
            // (own checkers never block; a hit only opens a point), and after y, x can still
            // move (y leaves x's point only if two stood there). Skip those without hashing.
            self.skip_second = (0..25).filter(|&src| pos.can_move(src, hi)).fold(0u32, |m, src| m | 1 << src);
            self.search(pos, occ, h, &[lo, hi], 0, 23, 0, &mut steps);
        }
        for &s in &self.used {
            self.slots[s as usize] = (0, 0);
        }
        self.used.clear();
        let (len, pips) = (self.max_len, self.max_pips);
        self.plays.retain(|p| p.len == len && p.pips == pips);
        &self.plays
    }

    /// Depth-first search. `occ` has a bit per index where the side on roll has checkers;
    /// `top` is the highest source index allowed (for doubles, sources never increase, so each
    /// set of moves is found once).
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &Position,
        occ: u32,
        h: u64,
        dice: &[u8],
        depth: usize,
        top: usize,
        pips: u8,
        steps: &mut [Step; 4],
    ) {
        // Second move of the smaller-die-first search: sources to skip (see `generate`),
        // except the checker that just moved, which may go on.
        let skip = if depth == 1 && dice.len() == 2 {
            let moved_to = steps[0].to as u32; // 1-based point, 0 = off
            let keep = if moved_to > 0 { 1u32 << (moved_to - 1) } else { 0 };
            self.skip_second & !keep
        } else {
            0
        };
        let die = dice[depth] as u32;
        let candidates = if pos.me[BAR] > 0 {
            // Entering: onto our point 25 - die (index 24 - die).
            if self.blocked >> (24 - die) & 1 == 0 { 1 << BAR } else { 0 }
        } else {
            let allowed = occ & ((2u32 << top) - 1);
            // Ordinary moves: the destination index src - die must not be blocked.
            let mut c = allowed & !(self.blocked << die) & !((1u32 << die) - 1);
            // Bearing off (src < die) once every checker is home: exactly, or from the
            // highest point with a larger number.
            if occ != 0 && occ >> 6 == 0 {
                let highest = 31 - occ.leading_zeros();
                if highest + 1 < die {
                    c |= allowed & (1 << highest);
                }
                c |= allowed & (1 << (die - 1));
            }
            c
        };
        if candidates == 0 {
            if depth > 0 {
                self.save(pos, h, steps, depth, pips);
            }
            return;
        }
        let mut rest = candidates & !skip;
        while rest != 0 {
            let src = (31 - rest.leading_zeros()) as usize;
            rest &= !(1 << src);
            let mut next = *pos;
            let mut nh = h;
            let mut next_occ = occ;
            if next.me[src] == 1 {
                next_occ &= !(1 << src);
            }
            if src as u32 >= die {
                next_occ |= 1 << (src as u32 - die);
            }
            apply_hashed(&mut next, &mut nh, src, die as u8);
            steps[depth] = Step::of(src, die as u8);
            let next_top = if dice.len() == 4 { src } else { 23 };
            let pips = pips + die as u8;
            if depth + 1 < dice.len() {
                self.search(&next, next_occ, nh, dice, depth + 1, next_top, pips, steps);
            } else {
                self.save(&next, nh, steps, depth + 1, pips);
            }
        }
    }

    fn save(&mut self, pos: &Position, h: u64, steps: &[Step; 4], len: usize, pips: u8) {
        let len = len as u8;
        if len < self.max_len || (len == self.max_len && pips < self.max_pips) {
            return;
        }
        self.max_len = len;
        self.max_pips = pips;
        if self.plays.len() * 2 >= self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = (h as usize) & mask;
        loop {
            let (key, idx) = self.slots[i];
            if idx == 0 {
                break;
            }
            if key == h {
                let p = &mut self.plays[idx as usize - 1];
                if p.result == *pos {
                    if (len, pips) > (p.len, p.pips) {
                        p.steps = *steps;
                        p.len = len;
                        p.pips = pips;
                    }
                    return;
                }
            }
            i = (i + 1) & mask;
        }
        self.plays.push(Play { steps: *steps, len, pips, result: *pos });
        self.slots[i] = (h, self.plays.len() as u32);
        self.used.push(i as u32);
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let mut slots = vec![(0u64, 0u32); size];
        self.used.clear();
        for (k, p) in self.plays.iter().enumerate() {
            let h = zobrist(&p.result);
            let mut i = (h as usize) & (size - 1);
            while slots[i].1 != 0 {
                i = (i + 1) & (size - 1);
            }
            slots[i] = (h, k as u32 + 1);
            self.used.push(i as u32);
        }
        self.slots = slots;
    }
}

thread_local! {
    /// A generator per thread, so that engine calls do not allocate one each time.
    static GENERATOR: std::cell::RefCell<MoveGen> = std::cell::RefCell::new(MoveGen::new());
}

/// Runs `f` on the legal plays of `dice` in `pos`, using this thread's generator.
pub fn with_plays<R>(pos: &Position, dice: [u8; 2], f: impl FnOnce(&[Play]) -> R) -> R {
    GENERATOR.with(|g| match g.try_borrow_mut() {
        Ok(mut g) => f(g.generate(pos, dice)),
        // Re-entered from inside `f`: use a fresh generator.
        Err(_) => f(MoveGen::new().generate(pos, dice)),
    })
}

/// Every legal play (see [`MoveGen::generate`]).
pub fn legal_plays(pos: &Position, dice: [u8; 2]) -> Vec<Play> {
    with_plays(pos, dice, <[Play]>::to_vec)
}

/// A play in GNU Backgammon's notation (as its `FormatMove` writes it): moves sorted by source
/// point, highest first; a checker moving on is joined into one move (`24/20`), keeping the
/// intermediate point only where it hit (`13/7*/5`); the same move repeated is counted
/// (`8/5(2)`); `*` marks the first move onto a point where a blot was hit; `bar` and `off`.
/// `before` is the position the play started from (it tells where blots stood).
pub fn notation(before: &Position, steps: &[Step]) -> String {
    let had_opp = |p: u8| (1..=24).contains(&p) && before.opp[24 - p as usize] > 0;
    // Each row: source, then the points it went through (hits) and its destination.
    let mut rows: Vec<Option<(u8, Vec<u8>)>> = steps.iter().map(|s| Some((s.from, vec![s.to]))).collect();
    rows.sort_by(|a, b| {
        let (a, b) = (a.as_ref().unwrap(), b.as_ref().unwrap());
        (b.0, b.1[0]).cmp(&(a.0, a.1[0]))
    });
    for i in 0..rows.len() {
        for j in i..rows.len() {
            let (Some(ri), Some(rj)) = (&rows[i], &rows[j]) else {
                continue;
            };
            let end = *ri.1.last().unwrap();
            if end == rj.0 {
                let dest = rj.1[0];
                let ri = rows[i].as_mut().unwrap();
                if had_opp(end) {
                    ri.1.push(dest);
                } else {
                    *ri.1.last_mut().unwrap() = dest;
                }
                rows[j] = None;
            }
        }
    }
    let rows: Vec<(u8, Vec<u8>)> = rows.into_iter().flatten().collect();
    let mut counted: Vec<((u8, Vec<u8>), usize)> = Vec::new();
    for r in rows {
        if let Some(c) = counted.iter_mut().find(|(x, _)| *x == r) {
            c.1 += 1;
        } else {
            counted.push((r, 1));
        }
    }
    let point = |p: u8| match p {
        0 => "off".to_string(),
        25 => "bar".to_string(),
        p => p.to_string(),
    };
    let mut starred = [false; 26];
    let mut out = String::new();
    for ((src, path), count) in counted {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&point(src));
        let (dest, via) = path.split_last().unwrap();
        for &p in via {
            out.push('/');
            out.push_str(&point(p));
            out.push('*');
            starred[p as usize] = true;
        }
        out.push('/');
        out.push_str(&point(*dest));
        if had_opp(*dest) && !starred[*dest as usize] {
            out.push('*');
            starred[*dest as usize] = true;
        }
        if count > 1 {
            out.push_str(&format!("({count})"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(me: &[(usize, u8)], opp: &[(usize, u8)]) -> Position {
        let mut p = Position { me: [0; 25], opp: [0; 25] };
        for &(pt, n) in me {
            p.me[pt - 1] = n;
        }
        for &(pt, n) in opp {
            p.opp[pt - 1] = n;
        }
        p
    }

    fn notations(p: &Position, dice: [u8; 2]) -> Vec<String> {
        let mut v: Vec<String> = legal_plays(p, dice).iter().map(|pl| notation(p, pl.steps())).collect();
        v.sort();
        v
    }

    #[test]
    fn opening_31_has_16_plays() {
        let p = Position::start();
        let n = notations(&p, [3, 1]);
        assert_eq!(n.len(), 16);
        assert!(n.contains(&"8/5 6/5".to_string()));
        assert!(n.contains(&"24/20".to_string()));
    }

    #[test]
    fn each_die_is_a_separate_move_and_stops_must_be_open() {
        // Only checker on 13; opponent holds our 10 (its 15): 6-3 can go 13/7/4 but not via 10.
        let p = pos(&[(13, 1)], &[(15, 2)]);
        let plays = legal_plays(&p, [6, 3]);
        assert_eq!(plays.len(), 1);
        assert_eq!(plays[0].steps(), &[Step { from: 13, to: 7 }, Step { from: 7, to: 4 }]);
        assert_eq!(notation(&p, plays[0].steps()), "13/4");
    }

    #[test]
    fn hitting_on_the_way_keeps_the_intermediate_point() {
        // A blot on our 7 (the opponent's 18).
        let p = pos(&[(13, 1), (6, 5)], &[(18, 1)]);
        let n = notations(&p, [6, 2]);
        assert!(n.contains(&"13/7*/5".to_string()), "{n:?}");
        assert!(n.contains(&"13/5".to_string()), "{n:?}");
    }
}
