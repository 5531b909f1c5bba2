//! Why the lobby refused a request: one variant per refusal, each saying it in a client's words
//! (`Display`); the HTTP edge gives each its status and code.

use super::limits::{MAX_BOTS_AFTER_SECONDS, MAX_DICE_SCRIPT, MAX_OPEN_TABLES_PER_HOST};
use crate::{games::OptionsError, rules::dice::MAX_CLIENT_SEED_BYTES, store::StoreError, table::PlayError};

/// Why the lobby refused a request.
#[derive(Debug, thiserror::Error)]
pub enum LobbyError {
    /// The table does not exist (any more).
    #[error("no such table")]
    NoSuchTable,
    /// The options do not suit the game, its seat count or the table's visibility.
    #[error(transparent)]
    Options(OptionsError),
    /// A long clock asked of a public table, or a long-clock table made public.
    #[error("only a private table may have a long clock (long_clock)")]
    LongClockPrivateOnly,
    /// A seat past the table's last.
    #[error("seat must be below {seat_count}")]
    NoSuchSeat { seat_count: usize },
    #[error("a client seed has at most {MAX_CLIENT_SEED_BYTES} bytes and no control characters")]
    InvalidClientSeed,
    /// A dice chain's head that is not 64 lowercase hex characters.
    #[error(
        "a dice chain (dice_chain) is 64 lowercase hex characters: SHA-256 iterated over a secret of yours"
    )]
    InvalidDiceChain,
    /// A dice chain given at a table whose `fresh_dice` is off.
    #[error("this table's fresh_dice is off: it takes no dice chain")]
    FreshDiceOff,
    /// Scripted dice asked of a server not in test mode.
    #[error("scripted dice are only accepted by a server in test mode")]
    ScriptedDiceDisabled,
    #[error("dice are 1 to 6, at most {MAX_DICE_SCRIPT} of them")]
    InvalidDice,
    /// A quick play that would wait longer than [`MAX_BOTS_AFTER_SECONDS`] for players.
    #[error("bots_after_seconds: at most {MAX_BOTS_AFTER_SECONDS}")]
    WaitTooLong,
    /// The caller already hosts [`MAX_OPEN_TABLES_PER_HOST`] unfinished tables.
    #[error("a player may host at most {MAX_OPEN_TABLES_PER_HOST} unfinished tables")]
    NoRoomToHost,
    /// The host a rematch would open its table for already hosts [`MAX_OPEN_TABLES_PER_HOST`]
    /// unfinished tables.
    #[error("the rematch's host already hosts at most {MAX_OPEN_TABLES_PER_HOST} unfinished tables")]
    NoRoomForRematch,
    #[error("only the host may change the table")]
    NotHostToChange,
    #[error("only the host may start the table")]
    NotHostToStart,
    /// A change of settings, or a start, of a table that has started (or closed).
    #[error("the table has already started")]
    AlreadyStarted,
    /// A seat asked of a table that has started (or closed).
    #[error("the table is no longer taking players")]
    NotTakingPlayers,
    /// A seat left at a table that has started (or closed).
    #[error("the game has started; seats are kept")]
    SeatsKept,
    /// A client seed changed after the start.
    #[error("the game has started: the client seeds are fixed")]
    SeedsFixed,
    #[error("you already have a seat at this table")]
    AlreadySeated,
    /// The caller has no seat to leave or to give a client seed.
    #[error("you have no seat at this table")]
    NotSeated,
    /// A rematch asked by someone who did not play the table.
    #[error("only the table's players may ask for a rematch")]
    NotAPlayer,
    #[error("seat {0} is taken")]
    SeatTaken(usize),
    #[error("every seat is taken")]
    TableFull,
    /// A start without bots while this many seats are empty.
    #[error("{0} seat(s) are empty: wait for players or start with fill_with_bots")]
    SeatsEmpty(usize),
    /// A rematch asked before the finish.
    #[error("a rematch follows the finish of a game")]
    GameNotOver,
    /// The started table's actor could not be loaded.
    #[error(transparent)]
    Table(#[from] PlayError),
    #[error(transparent)]
    Store(#[from] StoreError),
}
