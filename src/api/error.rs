//! The one error type of the HTTP API, rendered as RFC 9457 problem+json.
//!
//! Every failure has a stable `code` (also the last segment of `type`), which clients may match
//! on; `detail` is for humans. Internal errors are logged with their cause and answered with a
//! bare 500 that reveals nothing.

use crate::{
    cluster::{self, RouteError},
    games::OptionsError,
    lobby::LobbyError,
    rules::RuleErrorKind,
    social::ChallengeError,
    store::{Constraint, StoreError},
    table::PlayError,
};
use axum::{
    Json,
    extract::rejection::{JsonRejection, PathRejection, QueryRejection},
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Declares [`ErrorCode`] with its variants' wire names, and the list of all of them (which a
/// plain enum cannot give), from one list.
macro_rules! error_codes {
    ($($(#[doc = $doc:literal])* $variant:ident = $code:literal,)*) => {
        /// The stable machine-readable code of every failure the API answers with: the `code`
        /// (and last segment of `type`) of a problem+json body, of the `error` in a WebSocket
        /// `reply`, and of a WebSocket `error` message. The served spec lists these as `Problem.code`
        /// (generated from this list, src/api/openapi.rs).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum ErrorCode {
            $($(#[doc = $doc])* $variant,)*
        }

        impl ErrorCode {
            /// Every code, in the order declared.
            pub const ALL: &[ErrorCode] = &[$(ErrorCode::$variant),*];

            /// The code as sent.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $code,)*
                }
            }
        }
    };
}

error_codes! {
    /// 400: the body is not JSON at all.
    MalformedJson = "malformed_json",
    /// 422: the body is JSON but not of the expected shape.
    InvalidBody = "invalid_body",
    /// 400: a query parameter the route does not take, or out of range (`limit`, `cursor`, `since`).
    InvalidQuery = "invalid_query",
    /// 400: a request the server cannot read otherwise.
    BadRequest = "bad_request",
    /// 415: a body not sent as application/json.
    UnsupportedMediaType = "unsupported_media_type",
    /// 413: a body over the size limit.
    PayloadTooLarge = "payload_too_large",
    /// 401: no token, or one the server does not know.
    Unauthorized = "unauthorized",
    /// 403: only the table's host may do this.
    NotHost = "not_host",
    /// 403: fixed dice, asked of a server not in test mode.
    ScriptedDiceDisabled = "scripted_dice_disabled",
    /// 404: no such route or resource.
    NotFound = "not_found",
    /// 404: no such table, or one the caller may not see.
    TableNotFound = "table_not_found",
    /// 405: the route exists but not with this method.
    MethodNotAllowed = "method_not_allowed",
    /// 409: the request clashed with another at the database; try again.
    Conflict = "conflict",
    /// 409: the caller already holds a seat at the table.
    AlreadySeated = "already_seated",
    /// 409: the caller holds no seat at the table.
    NotSeated = "not_seated",
    /// 409: the seat asked for is taken.
    SeatTaken = "seat_taken",
    /// 409: every seat is taken.
    TableFull = "table_full",
    /// 409: the table has started (or closed): its seats and settings are fixed.
    TableNotOpen = "table_not_open",
    /// 409: a start without `fill_with_bots` while seats are empty.
    SeatsEmpty = "seats_empty",
    /// 422: a player name that is empty, too long or holds invisible characters.
    InvalidName = "invalid_name",
    /// 422: no such game.
    UnknownGame = "unknown_game",
    /// 422: the game is not played with that many seats.
    InvalidSeatCount = "invalid_seat_count",
    /// 422: options the game does not take (or not at this visibility).
    InvalidOptions = "invalid_options",
    /// 422: a long clock (`long_clock`) asked of a public table, or a long-clock table made
    /// public: only private tables may have one.
    LongClockPrivateOnly = "long_clock_private_only",
    /// 422: a seat number past the table's seats.
    InvalidSeat = "invalid_seat",
    /// 422: a client seed too long or with control characters.
    InvalidClientSeed = "invalid_client_seed",
    /// 422: dice outside 1 to 6 (or too many of them).
    InvalidDice = "invalid_dice",
    /// 422: a dice chain's head (`dice_chain`) that is not 64 lowercase hex characters.
    InvalidDiceChain = "invalid_dice_chain",
    /// 409: a dice chain given at a table whose `fresh_dice` is off.
    FreshDiceOff = "fresh_dice_off",
    /// 422: fresh dice: an action that draws dice for a seat with a dice chain, sent without
    /// the chain's next link (`reveal`); nothing was played.
    RevealRequired = "reveal_required",
    /// 422: fresh dice: a `reveal` whose SHA-256 is not the seat's last link (the head at
    /// first); nothing was played.
    RevealMismatch = "reveal_mismatch",
    /// 429: over a rate limit; see Retry-After.
    RateLimited = "rate_limited",
    /// 429: the host has too many unfinished tables.
    TooManyTables = "too_many_tables",
    /// 409: the player holds as many seats at tables not yet started as a player may; leave
    /// one or wait for one to start.
    TooManyWaitingSeats = "too_many_waiting_seats",
    /// 409: the player holds as many tokens as a player may; revoke one first.
    TooManyTokens = "too_many_tokens",
    /// 409: the table's game has not started.
    TableNotStarted = "table_not_started",
    /// 409: a backgammon table's log from before the events its `.mat` record is written from.
    RecordUnavailable = "record_unavailable",
    /// 503 with Retry-After: the process is writing as many records as it writes at once.
    RecordsBusy = "records_busy",
    /// 409: the table is not finished, so it is not in the history yet.
    TableNotFinished = "table_not_finished",
    /// 404: the table finished before the history began (docs/history.md).
    NotInHistory = "not_in_history",
    /// 409 with Retry-After: the table's link is not under a signed checkpoint yet.
    HistoryNotCheckpointed = "history_not_checkpointed",
    /// 409: the action was sent against an older `seq`; read the latest entries first.
    StaleSeq = "stale_seq",
    /// 409: the action was sent against a `seq` the table has not reached (a client bug).
    SeqAhead = "seq_ahead",
    /// 403: the caller holds no seat to act from.
    NotYourSeat = "not_your_seat",
    /// 409: another seat is to act.
    NotYourTurn = "not_your_turn",
    /// 422: not one of the legal actions listed.
    IllegalAction = "illegal_action",
    /// 409: the game is over.
    GameOver = "game_over",
    /// 409: a rematch follows a finish, and the table's game is not over.
    GameNotOver = "game_not_over",
    /// 409: a reclaim of a seat no bot holds.
    NotBotControlled = "not_bot_controlled",
    /// 422: a position the analysis cannot read.
    InvalidPosition = "invalid_position",
    /// 403: a hint asked for a table whose options do not allow hints (its `hints` option,
    /// private tables only).
    HintsOff = "hints_off",
    /// 409: a backgammon hint or analysis asked of a table of another game.
    NotBackgammon = "not_backgammon",
    /// 409: the finished table's log could not be replayed for its analysis.
    AnalysisUnavailable = "analysis_unavailable",
    /// 429: too many open WebSockets for the player or the table's spectators.
    TooManyConnections = "too_many_connections",
    /// 408: the request took longer than the request timeout.
    Timeout = "timeout",
    /// 503: the database (or the table's actor) is unavailable; try again shortly.
    Unavailable = "unavailable",
    /// 503 with Retry-After: the table is changing hands between server processes sharing the
    /// database (cluster mode), or on SQLite another process plays it.
    TableElsewhere = "table_elsewhere",
    /// 503 with Retry-After (cluster mode): an action was forwarded to the table's driver, its
    /// answer was lost, and the log does not tell yet whether it was applied. Read the table's
    /// entries (reconnect with `since`) before posting again.
    OutcomeUnknown = "outcome_unknown",
    /// 422: a chat message that is empty, too long, holds control, format, bidi or invisible
    /// characters, or names no known emote.
    InvalidChat = "invalid_chat",
    /// 403: the table's host turned free text off: quick emotes still go.
    ChatTextOff = "chat_text_off",
    /// 403: a moderator muted the player's chat for a while.
    ChatMuted = "chat_muted",
    /// 409: the table's chat closed (an hour after its finish).
    ChatClosed = "chat_closed",
    /// 409: the table holds as many chat messages as a table keeps.
    ChatFull = "chat_full",
    /// 409: the player mutes as many players as a player may.
    TooManyMutes = "too_many_mutes",
    /// 403: a moderator banned the player for a while.
    Banned = "banned",
    /// 403: only an admin may do this.
    AdminOnly = "admin_only",
    /// 429: the player filed as many reports as a day allows.
    TooManyReports = "too_many_reports",
    /// 404: no player with the id given (a friend, a block, a challenge's invitee, a mute, a
    /// report, a moderator's mute or ban).
    PlayerNotFound = "player_not_found",
    /// 403: a block stands between the two players (either way): no friend request, no
    /// challenge.
    Blocked = "blocked",
    /// 409: the player (or the other) has 500 friends and requests, or blocks 500 players.
    TooManyFriends = "too_many_friends",
    /// 409: the challenge was answered, withdrawn or expired.
    ChallengeNotPending = "challenge_not_pending",
    /// 409: the challenger has 10 pending challenges.
    TooManyChallenges = "too_many_challenges",
    /// 500: something failed inside; logged, never detailed.
    Internal = "internal",
    /// WebSocket `error` message only: a client message that is not one the server reads.
    InvalidMessage = "invalid_message",
}

/// A failed request: status, stable code, human detail.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: ErrorCode,
    pub detail: String,
    /// For 429: when to try again.
    pub retry_after: Option<Duration>,
}

/// The problem+json body.
#[derive(Debug, Serialize)]
struct Problem<'a> {
    #[serde(rename = "type")]
    kind: String,
    title: &'a str,
    status: u16,
    detail: &'a str,
    code: ErrorCode,
}

pub type ApiResult<T> = Result<T, ApiError>;

/// What this server reads back of a problem+json body: another process's refusal of a call
/// forwarded to it.
#[derive(Deserialize)]
struct ProblemRead {
    code: ErrorCode,
    detail: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: ErrorCode, detail: impl Into<String>) -> Self {
        Self { status, code, detail: detail.into(), retry_after: None }
    }
    pub fn bad_request(code: ErrorCode, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, detail)
    }
    pub fn unprocessable(code: ErrorCode, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, code, detail)
    }
    pub fn unauthorized(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, ErrorCode::Unauthorized, detail)
    }
    pub fn forbidden(code: ErrorCode, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, code, detail)
    }
    pub fn not_found(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, ErrorCode::NotFound, detail)
    }
    pub fn table_not_found() -> Self {
        Self::new(StatusCode::NOT_FOUND, ErrorCode::TableNotFound, "no such table")
    }
    pub fn conflict(code: ErrorCode, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, detail)
    }
    pub fn rate_limited(retry_after: Duration) -> Self {
        Self::too_many(ErrorCode::RateLimited, "too many requests; slow down", retry_after)
    }
    /// A 429 for a bound that frees up by itself (a budget refills, a connection closes, a table
    /// ends): `retry_after` is when trying again is worth it.
    pub fn too_many(code: ErrorCode, detail: impl Into<String>, retry_after: Duration) -> Self {
        Self { retry_after: Some(retry_after), ..Self::new(StatusCode::TOO_MANY_REQUESTS, code, detail) }
    }
    pub fn unavailable(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Unavailable, detail)
    }
    /// The refusal another process of the cluster answered a forwarded call with (`status`,
    /// and its problem+json `body`), as this process's error.
    pub fn from_problem(status: StatusCode, body: &[u8]) -> Self {
        match serde_json::from_slice::<ProblemRead>(body) {
            Ok(problem) => Self::new(status, problem.code, problem.detail),
            Err(e) => {
                tracing::warn!(%status, error = %e, "a forwarded call's refusal that this process cannot read");
                Self::new(status, ErrorCode::Internal, "the table refused")
            }
        }
    }

    /// The answer to a call another process forwarded for a table this one does not drive:
    /// marked, so that process looks for the driver again rather than passing it on.
    pub fn not_driver(self) -> Response {
        let mut response = self.into_response();
        cluster::forward::mark_not_driver(&mut response);
        response
    }

    /// A 503 that passes by itself shortly: Retry-After a second.
    pub fn shortly(code: ErrorCode, detail: impl Into<String>) -> Self {
        Self {
            retry_after: Some(Duration::from_secs(1)),
            ..Self::new(StatusCode::SERVICE_UNAVAILABLE, code, detail)
        }
    }

    /// 503 `table_elsewhere`: another process drives the table, or it is changing hands (it
    /// comes back here if that process stops).
    fn table_elsewhere() -> Self {
        Self::shortly(
            ErrorCode::TableElsewhere,
            "the table is being played on another server; try again shortly",
        )
    }

    /// An internal failure: logged here with its cause, answered without it.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(%cause, "internal error");
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::Internal, "an internal error occurred")
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let title = self.status.canonical_reason().unwrap_or("Error");
        let body = Problem {
            kind: format!("https://luddo.dev/problems/{}", self.code.as_str()),
            title,
            status: self.status.as_u16(),
            detail: &self.detail,
            code: self.code,
        };
        let mut response = (self.status, Json(body)).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/problem+json"));
        if self.status == StatusCode::UNAUTHORIZED {
            // RFC 9110 §11.6.1 / RFC 6750 §3: the scheme to authenticate with.
            headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static(r#"Bearer realm="luddo""#));
        }
        if let Some(after) = self.retry_after {
            let secs = after.as_secs_f64().ceil().max(1.0) as u64;
            headers.insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Unavailable(cause) => {
                tracing::warn!(%cause, "database unavailable");
                ApiError::unavailable("the database is unavailable; try again shortly")
            }
            StoreError::Conflict(Constraint::SeatTaken) => {
                ApiError::conflict(ErrorCode::SeatTaken, "that seat is taken")
            }
            StoreError::Conflict(Constraint::AlreadySeated) => {
                ApiError::conflict(ErrorCode::AlreadySeated, "you already have a seat at this table")
            }
            StoreError::Conflict(Constraint::LogSeq) => ApiError::conflict(
                ErrorCode::StaleSeq,
                "the table has moved on; read the latest entries and try again",
            ),
            StoreError::Conflict(Constraint::Other) => {
                ApiError::conflict(ErrorCode::Conflict, "the request clashed with another; try again")
            }
            StoreError::TooManyWaitingSeats(max) => ApiError::conflict(
                ErrorCode::TooManyWaitingSeats,
                format!(
                    "you already hold {max} seats at tables not yet started, the most a player may; \
                     leave one or wait for one to start"
                ),
            ),
            // Another server process drives the table.
            StoreError::Fenced => ApiError::table_elsewhere(),
            other => ApiError::internal(other),
        }
    }
}

/// A refused action or reclaim: the table's reason, as a status and a code.
impl From<PlayError> for ApiError {
    fn from(e: PlayError) -> Self {
        let detail = e.to_string();
        match e {
            PlayError::StaleSeq { .. } => ApiError::conflict(ErrorCode::StaleSeq, detail),
            PlayError::SeqAhead { .. } => ApiError::conflict(ErrorCode::SeqAhead, detail),
            PlayError::NotSeated => ApiError::forbidden(ErrorCode::NotYourSeat, detail),
            PlayError::Rules(e) if e.kind == RuleErrorKind::NotYourTurn => {
                ApiError::conflict(ErrorCode::NotYourTurn, detail)
            }
            PlayError::Rules(_) => ApiError::unprocessable(ErrorCode::IllegalAction, detail),
            PlayError::GameOver => ApiError::conflict(ErrorCode::GameOver, detail),
            PlayError::NotBotControlled => ApiError::conflict(ErrorCode::NotBotControlled, detail),
            PlayError::TableStopped => ApiError::unavailable(detail),
            PlayError::Store(e) => e.into(),
            PlayError::Corrupt(e) => ApiError::internal(e),
            PlayError::RevealRequired => ApiError::unprocessable(ErrorCode::RevealRequired, detail),
            PlayError::RevealMismatch => ApiError::unprocessable(ErrorCode::RevealMismatch, detail),
        }
    }
}

/// A call on a table in play that could not be routed to the process that drives it.
impl From<RouteError> for ApiError {
    fn from(e: RouteError) -> Self {
        match e {
            RouteError::Elsewhere => ApiError::table_elsewhere(),
            RouteError::NotInPlay => ApiError::table_not_found(),
            RouteError::Play(e) => e.into(),
            RouteError::Store(e) => e.into(),
        }
    }
}

/// The lobby's refusals: each its status and code, its own words as the detail.
impl From<LobbyError> for ApiError {
    fn from(e: LobbyError) -> Self {
        let detail = e.to_string();
        match e {
            LobbyError::NoSuchTable => ApiError::table_not_found(),
            LobbyError::Options(OptionsError::SeatCount { .. }) => {
                ApiError::unprocessable(ErrorCode::InvalidSeatCount, detail)
            }
            LobbyError::Options(_) => ApiError::unprocessable(ErrorCode::InvalidOptions, detail),
            LobbyError::LongClockPrivateOnly => {
                ApiError::unprocessable(ErrorCode::LongClockPrivateOnly, detail)
            }
            LobbyError::NoSuchSeat { .. } => ApiError::unprocessable(ErrorCode::InvalidSeat, detail),
            LobbyError::InvalidClientSeed => ApiError::unprocessable(ErrorCode::InvalidClientSeed, detail),
            LobbyError::InvalidDiceChain => ApiError::unprocessable(ErrorCode::InvalidDiceChain, detail),
            LobbyError::FreshDiceOff => ApiError::conflict(ErrorCode::FreshDiceOff, detail),
            LobbyError::ScriptedDiceDisabled => ApiError::forbidden(ErrorCode::ScriptedDiceDisabled, detail),
            LobbyError::InvalidDice => ApiError::unprocessable(ErrorCode::InvalidDice, detail),
            LobbyError::WaitTooLong => ApiError::unprocessable(ErrorCode::InvalidBody, detail),
            // A slot frees when one of the host's tables finishes or closes: minutes, not seconds.
            LobbyError::NoRoomToHost | LobbyError::NoRoomForRematch => {
                ApiError::too_many(ErrorCode::TooManyTables, detail, Duration::from_secs(60))
            }
            LobbyError::NotHostToChange | LobbyError::NotHostToStart => {
                ApiError::forbidden(ErrorCode::NotHost, detail)
            }
            LobbyError::AlreadyStarted
            | LobbyError::NotTakingPlayers
            | LobbyError::SeatsKept
            | LobbyError::SeedsFixed => ApiError::conflict(ErrorCode::TableNotOpen, detail),
            LobbyError::AlreadySeated => ApiError::conflict(ErrorCode::AlreadySeated, detail),
            LobbyError::NotSeated => ApiError::conflict(ErrorCode::NotSeated, detail),
            LobbyError::NotAPlayer => ApiError::forbidden(ErrorCode::NotSeated, detail),
            LobbyError::SeatTaken(_) => ApiError::conflict(ErrorCode::SeatTaken, detail),
            LobbyError::TableFull => ApiError::conflict(ErrorCode::TableFull, detail),
            LobbyError::SeatsEmpty(_) => ApiError::conflict(ErrorCode::SeatsEmpty, detail),
            LobbyError::GameNotOver => ApiError::conflict(ErrorCode::GameNotOver, detail),
            LobbyError::Table(e) => e.into(),
            LobbyError::Store(e) => e.into(),
        }
    }
}

/// The challenge workflow's refusals.
impl From<ChallengeError> for ApiError {
    fn from(e: ChallengeError) -> Self {
        let detail = e.to_string();
        match e {
            ChallengeError::NotFound => ApiError::not_found(detail),
            ChallengeError::NoSuchPlayer(_) => {
                ApiError::new(StatusCode::NOT_FOUND, ErrorCode::PlayerNotFound, detail)
            }
            ChallengeError::Invalid(_) => ApiError::unprocessable(ErrorCode::InvalidBody, detail),
            ChallengeError::Blocked => ApiError::forbidden(ErrorCode::Blocked, detail),
            ChallengeError::TooMany(_) => ApiError::conflict(ErrorCode::TooManyChallenges, detail),
            ChallengeError::NotPending => ApiError::conflict(ErrorCode::ChallengeNotPending, detail),
            ChallengeError::Lobby(e) => e.into(),
            ChallengeError::Store(e) => e.into(),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> Self {
        match r {
            JsonRejection::JsonDataError(e) => {
                ApiError::unprocessable(ErrorCode::InvalidBody, body_error_text(&e))
            }
            JsonRejection::JsonSyntaxError(e) => ApiError::bad_request(
                ErrorCode::MalformedJson,
                format!("the body is not valid JSON: {}", body_error_text(&e)),
            ),
            JsonRejection::MissingJsonContentType(_) => ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                ErrorCode::UnsupportedMediaType,
                "send the body as application/json",
            ),
            JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                ErrorCode::PayloadTooLarge,
                "the body is too large",
            ),
            other => ApiError::bad_request(ErrorCode::BadRequest, other.body_text()),
        }
    }
}

/// The innermost error message of a JSON rejection (serde's own words, with line and column),
/// without axum's prefix.
fn body_error_text(e: &dyn std::error::Error) -> String {
    let mut inner: &dyn std::error::Error = e;
    while let Some(source) = inner.source() {
        inner = source;
    }
    crate::wording::plain(&inner.to_string())
}

impl From<PathRejection> for ApiError {
    fn from(r: PathRejection) -> Self {
        ApiError::not_found(format!("no such resource: {}", r.body_text()))
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> Self {
        ApiError::bad_request(ErrorCode::InvalidQuery, crate::wording::plain(&r.body_text()))
    }
}

/// A chat refusal ([`crate::chat::ChatError`]).
impl From<crate::chat::ChatError> for ApiError {
    fn from(e: crate::chat::ChatError) -> Self {
        let detail = e.to_string();
        match e {
            crate::chat::ChatError::NoTable => ApiError::table_not_found(),
            crate::chat::ChatError::NotSeated => ApiError::forbidden(ErrorCode::NotSeated, detail),
            crate::chat::ChatError::NotHost => ApiError::forbidden(ErrorCode::NotHost, detail),
            crate::chat::ChatError::Invalid(why) => ApiError::unprocessable(ErrorCode::InvalidChat, why),
            crate::chat::ChatError::TextOff => ApiError::forbidden(ErrorCode::ChatTextOff, detail),
            crate::chat::ChatError::Muted(until) => ApiError::forbidden(
                ErrorCode::ChatMuted,
                format!("a moderator muted your chat until {}", crate::clock::rfc3339(until)),
            ),
            crate::chat::ChatError::Closed => ApiError::conflict(ErrorCode::ChatClosed, detail),
            crate::chat::ChatError::Full => ApiError::conflict(ErrorCode::ChatFull, detail),
            crate::chat::ChatError::RateLimited(wait) => {
                ApiError::too_many(ErrorCode::RateLimited, detail, wait)
            }
            crate::chat::ChatError::Store(e) => e.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[tokio::test]
    async fn a_forwarded_refusal_reads_back_as_the_error_it_was() {
        let refused = ApiError::conflict(ErrorCode::NotYourTurn, "seat 2 is to act");
        let response = refused.into_response();
        let status = response.status();
        let body = axum::body::to_bytes(response.into_body(), 64 * 1024).await.unwrap();
        let read = ApiError::from_problem(status, &body);
        assert_eq!(
            (read.status, read.code, read.detail.as_str()),
            (status, ErrorCode::NotYourTurn, "seat 2 is to act")
        );
    }

    #[test]
    fn each_lobby_refusal_has_its_status_and_code() {
        use crate::games::GameKind;
        use LobbyError::*;
        let cases = [
            (NoSuchTable, StatusCode::NOT_FOUND, ErrorCode::TableNotFound),
            (
                Options(OptionsError::SeatCount { game: GameKind::Luddo, seats: 9 }),
                StatusCode::UNPROCESSABLE_ENTITY,
                ErrorCode::InvalidSeatCount,
            ),
            (
                Options(OptionsError::PrivateOnly("a")),
                StatusCode::UNPROCESSABLE_ENTITY,
                ErrorCode::InvalidOptions,
            ),
            (LongClockPrivateOnly, StatusCode::UNPROCESSABLE_ENTITY, ErrorCode::LongClockPrivateOnly),
            (NoSuchSeat { seat_count: 4 }, StatusCode::UNPROCESSABLE_ENTITY, ErrorCode::InvalidSeat),
            (InvalidClientSeed, StatusCode::UNPROCESSABLE_ENTITY, ErrorCode::InvalidClientSeed),
            (InvalidDiceChain, StatusCode::UNPROCESSABLE_ENTITY, ErrorCode::InvalidDiceChain),
            (FreshDiceOff, StatusCode::CONFLICT, ErrorCode::FreshDiceOff),
            (ScriptedDiceDisabled, StatusCode::FORBIDDEN, ErrorCode::ScriptedDiceDisabled),
            (InvalidDice, StatusCode::UNPROCESSABLE_ENTITY, ErrorCode::InvalidDice),
            (WaitTooLong, StatusCode::UNPROCESSABLE_ENTITY, ErrorCode::InvalidBody),
            (NoRoomToHost, StatusCode::TOO_MANY_REQUESTS, ErrorCode::TooManyTables),
            (NoRoomForRematch, StatusCode::TOO_MANY_REQUESTS, ErrorCode::TooManyTables),
            (NotHostToChange, StatusCode::FORBIDDEN, ErrorCode::NotHost),
            (NotHostToStart, StatusCode::FORBIDDEN, ErrorCode::NotHost),
            (AlreadyStarted, StatusCode::CONFLICT, ErrorCode::TableNotOpen),
            (NotTakingPlayers, StatusCode::CONFLICT, ErrorCode::TableNotOpen),
            (SeatsKept, StatusCode::CONFLICT, ErrorCode::TableNotOpen),
            (SeedsFixed, StatusCode::CONFLICT, ErrorCode::TableNotOpen),
            (AlreadySeated, StatusCode::CONFLICT, ErrorCode::AlreadySeated),
            (NotSeated, StatusCode::CONFLICT, ErrorCode::NotSeated),
            (NotAPlayer, StatusCode::FORBIDDEN, ErrorCode::NotSeated),
            (SeatTaken(2), StatusCode::CONFLICT, ErrorCode::SeatTaken),
            (TableFull, StatusCode::CONFLICT, ErrorCode::TableFull),
            (SeatsEmpty(1), StatusCode::CONFLICT, ErrorCode::SeatsEmpty),
            (GameNotOver, StatusCode::CONFLICT, ErrorCode::GameNotOver),
            (Table(PlayError::GameOver), StatusCode::CONFLICT, ErrorCode::GameOver),
            (Store(StoreError::Fenced), StatusCode::SERVICE_UNAVAILABLE, ErrorCode::TableElsewhere),
        ];
        for (refusal, status, code) in cases {
            let name = format!("{refusal:?}");
            let error = ApiError::from(refusal);
            assert_eq!((error.status, error.code), (status, code), "{name}");
        }
        let full = ApiError::from(NoRoomToHost);
        assert_eq!(full.retry_after, Some(Duration::from_secs(60)));
        assert_eq!(full.detail, "a player may host at most 20 unfinished tables");
    }

    #[test]
    fn each_challenge_refusal_has_its_status_and_code() {
        use ChallengeError::*;
        let cases = [
            (NotFound, StatusCode::NOT_FOUND, ErrorCode::NotFound),
            (NoSuchPlayer(uuid::Uuid::nil()), StatusCode::NOT_FOUND, ErrorCode::PlayerNotFound),
            (Invalid("x".into()), StatusCode::UNPROCESSABLE_ENTITY, ErrorCode::InvalidBody),
            (Blocked, StatusCode::FORBIDDEN, ErrorCode::Blocked),
            (TooMany(10), StatusCode::CONFLICT, ErrorCode::TooManyChallenges),
            (NotPending, StatusCode::CONFLICT, ErrorCode::ChallengeNotPending),
            (Lobby(LobbyError::NoRoomToHost), StatusCode::TOO_MANY_REQUESTS, ErrorCode::TooManyTables),
        ];
        for (refusal, status, code) in cases {
            let name = format!("{refusal:?}");
            let error = ApiError::from(refusal);
            assert_eq!((error.status, error.code), (status, code), "{name}");
        }
    }

    #[test]
    fn every_code_is_sent_as_its_name_and_names_are_unique() {
        let mut seen = HashSet::new();
        for &code in ErrorCode::ALL {
            assert_eq!(serde_json::to_value(code).unwrap(), code.as_str(), "{code:?}");
            assert!(seen.insert(code.as_str()), "{} twice", code.as_str());
        }
    }
}
