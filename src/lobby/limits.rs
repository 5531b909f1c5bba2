//! The lobby's bounds on what one request or one player may ask for.

/// Most open tables one player may host at once.
pub const MAX_OPEN_TABLES_PER_HOST: i64 = 20;
/// Longest dice script a test-mode table accepts.
pub const MAX_DICE_SCRIPT: usize = 10_000;
/// Longest wait for players a quick-play request may ask for before bots fill the table.
pub const MAX_BOTS_AFTER_SECONDS: u64 = 3600;
