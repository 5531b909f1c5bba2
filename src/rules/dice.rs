//! Dice: the only source of chance in the engines.
//!
//! Live tables use [`FairDice`], provably fair dice anyone can re-derive once the table's seed is
//! revealed (docs/fairness.md tells the whole protocol). The server seed is drawn, and its
//! commitment `hex(SHA-256(server_seed))` published, when the table is created; the players then
//! give their client seeds until the start, when the table's client seed is fixed:
//!
//! ```text
//! client_seed = hex(SHA-256(seed_0 "\n" seed_1 "\n" … "\n" seed_{n-1}))
//! ```
//!
//! over every seat in seat order (`seed_i` is the seed seat `i` gave, as UTF-8, or the empty
//! string; a seed holds no control character, so `"\n"` cannot occur in one). Die number `k`
//! (counting from 0 over the whole table) is then:
//!
//! ```text
//! mac  = HMAC-SHA256(key = server_seed (32 bytes), message = client_seed ":" k)
//! die  = 1 + (b mod 6) for the first byte b of mac with b < 252
//! ```
//!
//! `k` is written in decimal. Bytes 252..=255 are skipped so that every face has exactly 42 of
//! the 252 accepted byte values: no modulo bias. Should all 32 bytes be skipped (odds 2^-192),
//! the message `client_seed ":" k ":" r` is tried for r = 1, 2, … . (Tables started before
//! per-seat seeds existed used the host's seed as `client_seed` directly; their start entry
//! carries no `client_seeds`.)
//!
//! In Python:
//!
//! ```python
//! import hmac, hashlib
//! def combined(seeds: list[str]) -> str:
//!     return hashlib.sha256("\n".join(seeds).encode()).hexdigest()
//! def die(seed: bytes, client_seed: str, k: int) -> int:
//!     r = 0
//!     while True:
//!         msg = f"{client_seed}:{k}" + (f":{r}" if r else "")
//!         for b in hmac.new(seed, msg.encode(), hashlib.sha256).digest():
//!             if b < 252:
//!                 return 1 + b % 6
//!         r += 1
//! ```

use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::VecDeque;

/// A source of six-sided dice. Engines draw every die they need from one of these, through
/// [`DiceSource::die`].
pub trait DiceSource {
    /// The next die, 1 to 6. Every source of this crate keeps that promise; engines still draw
    /// through [`DiceSource::die`], so that a source that breaks it cannot break a game.
    fn roll(&mut self) -> u8;

    /// The next die, always 1 to 6: a value outside that range from a faulty source is clamped
    /// into it (0 counts as 1, anything above 6 as 6), so an engine never works with an
    /// impossible number. The dice of this crate never need it.
    fn die(&mut self) -> u8 {
        self.roll().clamp(1, 6)
    }
}

impl<D: DiceSource + ?Sized> DiceSource for &mut D {
    fn roll(&mut self) -> u8 {
        (**self).roll()
    }
}

impl<D: DiceSource + ?Sized> DiceSource for Box<D> {
    fn roll(&mut self) -> u8 {
        (**self).roll()
    }
}

/// The table's secret seed: 32 bytes from the OS RNG.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerSeed(#[serde(with = "hex::serde")] pub [u8; 32]);

impl ServerSeed {
    /// A fresh seed from the operating system's RNG.
    pub fn generate() -> Self {
        let mut bytes = [0u8; 32];
        rand::TryRngCore::try_fill_bytes(&mut rand::rngs::OsRng, &mut bytes)
            .expect("the operating system's RNG is available");
        Self(bytes)
    }

    /// The public commitment: `hex(SHA-256(seed))`.
    pub fn commitment(&self) -> String {
        hex::encode(Sha256::digest(self.0))
    }

    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    pub fn from_hex(s: &str) -> Option<Self> {
        let mut bytes = [0u8; 32];
        hex::decode_to_slice(s, &mut bytes).ok()?;
        Some(Self(bytes))
    }
}

impl std::fmt::Debug for ServerSeed {
    /// Never prints the seed itself: it must stay secret until the game ends.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ServerSeed(<secret>)")
    }
}

/// Longest client seed a seat may give, in bytes of UTF-8.
pub const MAX_CLIENT_SEED_BYTES: usize = 64;

/// Whether `seed` may be a seat's client seed: at most [`MAX_CLIENT_SEED_BYTES`] bytes and no
/// control character (so the `"\n"` of [`combine_client_seeds`] cannot occur in one).
pub fn is_valid_client_seed(seed: &str) -> bool {
    seed.len() <= MAX_CLIENT_SEED_BYTES && !seed.chars().any(char::is_control)
}

/// The table's client seed, fixed at the start from every seat's seed in seat order (an empty
/// string for a seat that gave none): `hex(SHA-256(seed_0 "\n" seed_1 "\n" …))`.
pub fn combine_client_seeds<S: AsRef<str>>(seeds: &[S]) -> String {
    let mut hash = Sha256::new();
    for (i, seed) in seeds.iter().enumerate() {
        if i > 0 {
            hash.update(b"\n");
        }
        hash.update(seed.as_ref().as_bytes());
    }
    hex::encode(hash.finalize())
}

/// Provably fair dice (see the module docs for the recipe).
#[derive(Debug, Clone)]
pub struct FairDice {
    seed: ServerSeed,
    client_seed: String,
    /// How many dice were thrown before: the `k` of the next die.
    next: u64,
    /// The reveal of a seat's dice chain that the entry being applied consumed (fresh dice):
    /// while set, every die mixes it in ([`fresh_die`]).
    reveal: Option<String>,
}

impl FairDice {
    /// Dice starting at die number `next` (0 for a new table; the count thrown so far when a
    /// table is reloaded).
    pub fn new(seed: ServerSeed, client_seed: impl Into<String>, next: u64) -> Self {
        Self { seed, client_seed: client_seed.into(), next, reveal: None }
    }

    /// Draws the dice that follow with `reveal` mixed in (the 64 hex characters of a seat's
    /// chain link, consumed by the entry being applied), or without any (`None`): the server's
    /// committed source alone.
    pub fn set_reveal(&mut self, reveal: Option<String>) {
        self.reveal = reveal;
    }

    /// How many dice have been thrown so far.
    pub fn thrown(&self) -> u64 {
        self.next
    }

    /// Die number `k`, without advancing (the server's committed source alone).
    pub fn die(&self, k: u64) -> u8 {
        fresh_die(&self.seed, &self.client_seed, k, None)
    }
}

impl DiceSource for FairDice {
    fn roll(&mut self) -> u8 {
        let d = fresh_die(&self.seed, &self.client_seed, self.next, self.reveal.as_deref());
        self.next += 1;
        d
    }
}

/// Die number `k` of a table: `HMAC-SHA256(server_seed, client_seed ":" k)`, or with fresh
/// dice, drawn while applying an entry that consumed the chain link `reveal`,
/// `HMAC-SHA256(server_seed, client_seed ":" k ":" reveal)`; the first byte below 252 gives
/// `1 + b mod 6`, and should none be (odds 2^-192) `":" r` is appended for r = 1, 2, ….
pub fn fresh_die(seed: &ServerSeed, client_seed: &str, k: u64, reveal: Option<&str>) -> u8 {
    let mut retry = 0u64;
    loop {
        let mut mac = Hmac::<Sha256>::new_from_slice(&seed.0).expect("HMAC accepts keys of any length");
        let mut message = format!("{client_seed}:{k}");
        if let Some(reveal) = reveal {
            message.push(':');
            message.push_str(reveal);
        }
        if retry > 0 {
            message.push_str(&format!(":{retry}"));
        }
        mac.update(message.as_bytes());
        if let Some(b) = mac.finalize().into_bytes().iter().find(|&&b| b < 252) {
            return 1 + b % 6;
        }
        retry += 1;
    }
}

/// Links of the dice chain our clients commit to (the contract's `n`).
pub const CHAIN_LINKS: usize = 4096;

/// Whether `text` may be a dice chain's head or reveal: 64 lowercase hex characters.
pub fn is_chain_link(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Whether `reveal` is the link before `last` in a seat's chain: `SHA-256(reveal) = last`
/// (both as 64 lowercase hex characters; the hash is over the 32 raw bytes).
pub fn reveal_follows(reveal: &str, last: &str) -> bool {
    let mut bytes = [0u8; 32];
    is_chain_link(reveal)
        && hex::decode_to_slice(reveal, &mut bytes).is_ok()
        && hex::encode(Sha256::digest(bytes)) == last
}

/// A seat's dice chain from the secret `s` with `n` links: `h_0 = s`, `h_{i+1} = SHA-256(h_i)`;
/// returns `[h_0, …, h_n]` as hex (the head, committed, is the last; roll `j` reveals
/// `h_{n-1-j}`). What clients compute; tests and the load generator use it.
pub fn chain(secret: [u8; 32], n: usize) -> Vec<String> {
    let mut links = Vec::with_capacity(n + 1);
    let mut h = secret;
    links.push(hex::encode(h));
    for _ in 0..n {
        h = Sha256::digest(h).into();
        links.push(hex::encode(h));
    }
    links
}

/// A fixed sequence of dice, then another source once the script runs out. Tests use it to set
/// up positions; a server started in test mode lets a table be created with one.
#[derive(Debug, Clone)]
pub struct ScriptedDice<D = NoMoreDice> {
    script: VecDeque<u8>,
    then: D,
}

impl ScriptedDice<NoMoreDice> {
    /// Exactly these dice; drawing past the end panics, so tests notice a wrong script.
    pub fn new(script: impl IntoIterator<Item = u8>) -> Self {
        Self::then(script, NoMoreDice)
    }
}

impl<D: DiceSource> ScriptedDice<D> {
    /// These dice first, then `then`.
    pub fn then(script: impl IntoIterator<Item = u8>, then: D) -> Self {
        Self { script: script.into_iter().collect(), then }
    }

    /// Dice of the script not yet thrown.
    pub fn remaining(&self) -> usize {
        self.script.len()
    }

    /// The source the script falls back on.
    pub fn then_mut(&mut self) -> &mut D {
        &mut self.then
    }

    pub fn then_ref(&self) -> &D {
        &self.then
    }
}

impl<D: DiceSource> DiceSource for ScriptedDice<D> {
    fn roll(&mut self) -> u8 {
        match self.script.pop_front() {
            Some(d) => d,
            None => self.then.roll(),
        }
    }
}

/// The end of a test script: drawing from it is a bug in the test.
#[derive(Debug, Clone, Copy)]
pub struct NoMoreDice;

impl DiceSource for NoMoreDice {
    fn roll(&mut self) -> u8 {
        panic!("the dice script ran out")
    }
}

/// A broken source that gives the same value every time (in range or not): tests use it to
/// check that engines survive one (every opening ties, every die is guarded).
#[cfg(test)]
#[derive(Debug, Clone, Copy)]
pub(crate) struct StuckDice(pub u8);

#[cfg(test)]
impl DiceSource for StuckDice {
    fn roll(&mut self) -> u8 {
        self.0
    }
}

/// Dice from a seeded pseudo-random generator, for simulations, benchmarks and property tests.
#[derive(Debug, Clone)]
pub struct RngDice<R>(pub R);

impl<R: rand::Rng> DiceSource for RngDice<R> {
    fn roll(&mut self) -> u8 {
        self.0.random_range(1..=6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fair_dice_known_answers() {
        // Pinned so that the published recipe can never drift from the code.
        let seed = ServerSeed([7u8; 32]);
        let dice = FairDice::new(seed.clone(), "alice", 0);
        let first: Vec<u8> = (0..10).map(|k| dice.die(k)).collect();
        assert_eq!(first, KNOWN_ALICE);
        assert_eq!(seed.commitment(), KNOWN_COMMITMENT);
    }

    #[test]
    fn fresh_dice_mix_the_reveal_in_and_chains_link_by_sha256() {
        let seed = ServerSeed([7u8; 32]);
        let links = chain([1u8; 32], 3);
        assert!(links.iter().all(|l| is_chain_link(l)));
        assert!(reveal_follows(&links[2], &links[3]));
        assert!(!reveal_follows(&links[1], &links[3]), "a skipped link does not follow");
        assert!(
            links[1].bytes().any(|b| b.is_ascii_alphabetic()) && !is_chain_link(&links[1].to_uppercase())
        );
        // Without a reveal the recipe is today's; with one, another die stream.
        let mut plain = FairDice::new(seed.clone(), "alice", 0);
        let first: Vec<u8> = (0..10).map(|_| plain.roll()).collect();
        assert_eq!(first, KNOWN_ALICE);
        let mut fresh = FairDice::new(seed.clone(), "alice", 0);
        fresh.set_reveal(Some(links[2].clone()));
        let mixed: Vec<u8> = (0..10).map(|_| fresh.roll()).collect();
        assert_ne!(mixed, first);
        assert_eq!(mixed[3], fresh_die(&seed, "alice", 3, Some(&links[2])));
    }

    #[test]
    fn combined_client_seed_known_answers() {
        // Pinned against the Python of the module docs.
        assert_eq!(combine_client_seeds(&["alice", "", "bob"]), KNOWN_COMBINED);
        assert_eq!(combine_client_seeds::<&str>(&[]), hex::encode(Sha256::digest(b"")));
        // The separator keeps seat boundaries: ["a\nb"] cannot be given, ["a", "b"] can.
        assert_ne!(combine_client_seeds(&["ab", ""]), combine_client_seeds(&["a", "b"]));
        assert!(!is_valid_client_seed("a\nb"));
        assert!(is_valid_client_seed(&"é".repeat(32)));
        assert!(!is_valid_client_seed(&"é".repeat(33)));
    }

    const KNOWN_ALICE: [u8; 10] = [5, 4, 1, 6, 1, 4, 4, 5, 6, 3];
    const KNOWN_COMBINED: &str = "66abe0f31a69f65f9e31a1b1d46cd6cd47e6742ff883d24f6bb86e7e0b10d43f";
    const KNOWN_COMMITMENT: &str = "4bb06f8e4e3a7715d201d573d0aa423762e55dabd61a2c02278fa56cc6d294e0";

    #[test]
    fn fair_dice_are_uniform_enough() {
        let mut dice = FairDice::new(ServerSeed([1u8; 32]), "", 0);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[dice.roll() as usize - 1] += 1;
        }
        for c in counts {
            assert!((9_400..10_600).contains(&c), "counts {counts:?}");
        }
        assert_eq!(dice.thrown(), 60_000);
    }

    #[test]
    fn scripted_dice_fall_back_after_the_script() {
        let mut dice = ScriptedDice::then([6, 6, 3], FairDice::new(ServerSeed([2; 32]), "", 0));
        assert_eq!([dice.roll(), dice.roll(), dice.roll()], [6, 6, 3]);
        assert_eq!(dice.remaining(), 0);
        let d = dice.roll();
        assert!((1..=6).contains(&d));
    }
}
