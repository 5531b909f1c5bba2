//! Bot policies, one per game: each picks an action from the legal ones. They play for a seat
//! whose clock ran out and for seats a bot holds (empty seats filled at start, or taken over
//! after timeouts). Policies are deterministic functions of the state, so the same position
//! always gets the same answer.

pub mod backgammon;
pub mod ludo;
pub mod snakes;
pub mod uckers;

/// How well a bot plays: a table's `bot_level` for the seats bots fill; a bot that takes over
/// an absent player's seat always plays [`Level::Strong`].
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Often plays a random legal move (half the time in backgammon, see each game's bot).
    Easy,
    /// A hand-written evaluation.
    Normal,
    /// The strongest policy the game has (backgammon: the trained network).
    #[default]
    Strong,
}

impl Level {
    /// Every level, weakest first: what a table's `bot_level` may be, in any game.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Strong];
}

/// A number in `0..n` drawn from `key` (a hash of the position and the dice), so a bot's "random"
/// choices are still the same for the same state.
pub(crate) fn pick(key: u64, n: usize) -> usize {
    // SplitMix64's finaliser spreads nearby keys apart.
    let mut z = key.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z % n.max(1) as u64) as usize
}

/// A bot of `level` for games whose levels differ only in care: an [`Level::Easy`] bot plays one
/// of the legal actions at random half the time (drawn from the state, so still deterministic);
/// otherwise, and at the other levels, `best`.
pub(crate) fn easy_or<E: crate::rules::Engine>(
    game: &E,
    seat: crate::rules::Seat,
    level: Level,
    best: impl FnOnce() -> Option<E::Action>,
) -> Option<E::Action> {
    if level == Level::Easy {
        use std::hash::{Hash, Hasher};
        let mut h = std::hash::DefaultHasher::new();
        serde_json::to_string(game).unwrap_or_default().hash(&mut h);
        seat.hash(&mut h);
        let key = h.finish();
        if pick(key, 2) == 1 {
            let mut legal = game.legal_actions(seat);
            if !legal.is_empty() {
                let i = pick(key >> 1, legal.len());
                return Some(legal.swap_remove(i));
            }
        }
    }
    best()
}
