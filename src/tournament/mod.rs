//! Tournaments (issue #36; docs/tournaments.md): the pure parts, which know nothing of tables,
//! clocks or the store.
//!
//! - [`arena`]: who plays whom as players come back from their games (k-seat tables, 2 to 6),
//!   and the arena's points per finishing place with its streak.
//! - [`knockout`]: a bracket seeded by rating, with byes for the best seeds.
//! - [`swiss`]: Swiss rounds (Dutch-style pairing inside score groups, a bye for an odd count)
//!   and their tie-breaks.
//!
//! Players are indices into the caller's own list: these functions take what they need of each
//! (rank, rating, whom they met) and hand back indices, so they are cheap to call and to test.

pub mod arena;
pub mod knockout;
pub mod swiss;
