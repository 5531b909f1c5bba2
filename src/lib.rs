//! Luddo: a game server for online Ludo-family dice games.
//!
//! - [`rules`]: pure game engines (no I/O): Luddo and classic Ludo, Uckers, Snakes and Ladders,
//!   Backgammon, and the provably fair dice they draw from.
//! - [`bots`]: a policy per game that chooses among the legal actions.

pub mod bots;
pub mod rules;
