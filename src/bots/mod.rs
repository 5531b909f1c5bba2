//! Bot policies, one per game: each picks an action from the legal ones. They play for a seat
//! whose clock ran out and for seats a bot holds (empty seats filled at start, or taken over
//! after timeouts). Policies are deterministic functions of the state, so the same position
//! always gets the same answer.

pub mod backgammon;
pub mod ludo;
pub mod snakes;
pub mod uckers;
