//! The lobby: create, list, look at, join, leave, configure and start tables.

use super::{
    access::visible_table,
    body,
    client_addr::ClientIp,
    error::{ApiError, ApiResult, ErrorCode},
    extract::{Auth, Json, JsonOrEmpty, Path, Query},
    games::parse_game,
    lobby::{last_seq, tell_lobby, tell_removed, tell_table},
    paging::{Page, PageRequest},
    state::AppState,
    view::TableView,
};
use crate::{
    bots::Level,
    cluster::{self, RouteError, Served, forward::Call},
    games::{GameKind, OptionsError},
    rules::dice::{MAX_CLIENT_SEED_BYTES, is_valid_client_seed},
    store::{
        Controller, NewTable, RematchVote, SeedUpdate, StartOutcome, TableFilter, TableStatus, Visibility,
    },
    table::feeds::{LobbyChange, Removal},
};
use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{get, patch, post},
};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/v1/tables", post(create).get(list))
        .route("/v1/tables/{id}", get(show).patch(update))
        .route("/v1/tables/{id}/join", post(join))
        .route("/v1/tables/{id}/seats/me", patch(update_seat))
        .route("/v1/tables/{id}/leave", post(leave))
        .route("/v1/tables/{id}/start", post(start))
        .route("/v1/invites/{code}", get(show_invite))
        .route("/v1/quick-play", post(quick_play))
        .route("/v1/tables/{id}/rematch", post(rematch))
}

/// Most open tables one player may host at once.
pub const MAX_OPEN_TABLES_PER_HOST: i64 = 20;
/// Longest dice script a test-mode table accepts.
pub const MAX_DICE_SCRIPT: usize = 10_000;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateTable {
    game: String,
    /// How many seats the table has (its `seats` array in the answer lists them).
    #[serde(deserialize_with = "body::whole")]
    seat_count: usize,
    #[serde(default, deserialize_with = "body::some")]
    options: Option<serde_json::Value>,
    #[serde(default)]
    visibility: Visibility,
    #[serde(default)]
    party: bool,
    #[serde(default)]
    bot_level: Level,
    /// The seat the host takes (default 0).
    #[serde(default, deserialize_with = "body::whole")]
    seat: usize,
    /// The host seat's client seed (docs/fairness.md), as if given with `PATCH seats/me`.
    #[serde(default)]
    client_seed: String,
    /// Fixed dice, only on a server in test mode.
    #[serde(default, deserialize_with = "body::some_whole_list")]
    dice: Option<Vec<u8>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct UpdateTable {
    #[serde(default, deserialize_with = "body::some")]
    options: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "body::some")]
    visibility: Option<Visibility>,
    #[serde(default, deserialize_with = "body::some")]
    party: Option<bool>,
    #[serde(default, deserialize_with = "body::some")]
    bot_level: Option<Level>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinTable {
    #[serde(default, deserialize_with = "body::some_whole")]
    seat: Option<usize>,
    #[serde(default, deserialize_with = "body::some")]
    invite_code: Option<String>,
    /// The seat's client seed (docs/fairness.md).
    #[serde(default)]
    client_seed: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct UpdateSeat {
    client_seed: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct StartTable {
    #[serde(default)]
    fill_with_bots: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    game: Option<String>,
    status: Option<TableStatus>,
    party: Option<bool>,
    #[serde(default)]
    free_seats: bool,
    limit: Option<usize>,
    cursor: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ShowQuery {
    invite_code: Option<String>,
}

/// The alphabet of invite codes: Crockford's base32 (no I, L, O or U).
const INVITE_ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// How many characters an invite code has.
const INVITE_CHARS: usize = 16;

/// An invite code: 16 characters of Crockford base32, 80 bits from the OS RNG.
fn new_invite_code() -> String {
    let mut bytes = [0u8; INVITE_CHARS];
    rand::TryRngCore::try_fill_bytes(&mut rand::rngs::OsRng, &mut bytes)
        .expect("the operating system's RNG is available");
    bytes.iter().map(|b| INVITE_ALPHABET[(b & 31) as usize] as char).collect()
}

/// `code` in the form invite codes are stored in (upper case), if it could be one at all: what
/// cannot be an invite code never reaches the database (PostgreSQL refuses a NUL in text).
fn invite_code_form(code: &str) -> Option<String> {
    let code = code.to_ascii_uppercase();
    (code.len() == INVITE_CHARS && code.bytes().all(|b| INVITE_ALPHABET.contains(&b))).then_some(code)
}

fn check_client_seed(seed: &str) -> ApiResult<()> {
    if is_valid_client_seed(seed) {
        return Ok(());
    }
    Err(ApiError::unprocessable(
        ErrorCode::InvalidClientSeed,
        format!("a client seed has at most {MAX_CLIENT_SEED_BYTES} bytes and no control characters"),
    ))
}

/// The normalized options of a table of `seats` at `visibility`.
fn options_for(
    game: GameKind,
    options: &serde_json::Value,
    seats: usize,
    visibility: Visibility,
) -> ApiResult<serde_json::Value> {
    game.normalize_options(options, seats)
        .and_then(|options| match visibility {
            Visibility::Public => game.check_public(&options).map(|()| options),
            Visibility::Private => Ok(options),
        })
        .map_err(|e| {
            let code = match e {
                OptionsError::SeatCount { .. } => ErrorCode::InvalidSeatCount,
                _ => ErrorCode::InvalidOptions,
            };
            ApiError::unprocessable(code, e.to_string())
        })
}

/// 429 if `player` already hosts [`MAX_OPEN_TABLES_PER_HOST`] unfinished tables.
async fn check_room_to_host(state: &AppState, player: Uuid) -> ApiResult<()> {
    if state.store.count_open_tables_hosted(player).await? >= MAX_OPEN_TABLES_PER_HOST {
        return Err(no_room_to_host("a player may host"));
    }
    Ok(())
}

/// The refusal of a table to a host (`who`) that already hosts [`MAX_OPEN_TABLES_PER_HOST`]
/// unfinished tables.
fn no_room_to_host(who: &str) -> ApiError {
    // A slot frees when one of them finishes or closes: minutes, not seconds.
    ApiError::too_many(
        ErrorCode::TooManyTables,
        format!("{who} at most {MAX_OPEN_TABLES_PER_HOST} unfinished tables"),
        Duration::from_secs(60),
    )
}

/// 429 once `client` or `player` asked for `LUDDO_RATE_PER_MINUTE` tables in the last minute:
/// every creation and every quick play counts (a quick play may open a table, and which it does
/// is decided only under the store's lock), so neither many players at one address nor one
/// player at many addresses opens more.
fn check_table_rate(state: &AppState, client: std::net::IpAddr, player: Uuid) -> ApiResult<()> {
    let per_minute = state.config.rate_per_minute;
    state.limiter.check("tables", &client.to_string(), per_minute).map_err(ApiError::rate_limited)?;
    state.limiter.check("tables-by-player", &player.to_string(), per_minute).map_err(ApiError::rate_limited)
}

async fn create(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Auth(host): Auth,
    Json(body): Json<CreateTable>,
) -> ApiResult<(StatusCode, Json<TableView>)> {
    check_table_rate(&state, client, host.id)?;
    let game = parse_game(&body.game)?;
    let options = options_for(game, &body.options.unwrap_or_default(), body.seat_count, body.visibility)?;
    if body.seat >= body.seat_count {
        return Err(ApiError::unprocessable(
            ErrorCode::InvalidSeat,
            format!("seat must be below {}", body.seat_count),
        ));
    }
    check_client_seed(&body.client_seed)?;
    if let Some(dice) = &body.dice {
        if !state.config.test_mode {
            return Err(ApiError::forbidden(
                ErrorCode::ScriptedDiceDisabled,
                "scripted dice are only accepted by a server in test mode",
            ));
        }
        if dice.len() > MAX_DICE_SCRIPT || dice.iter().any(|d| !(1..=6).contains(d)) {
            return Err(ApiError::unprocessable(
                ErrorCode::InvalidDice,
                "dice are 1 to 6, at most 10000 of them",
            ));
        }
    }
    check_room_to_host(&state, host.id).await?;
    let new = NewTable {
        visibility: body.visibility,
        party: body.party,
        bot_level: body.bot_level,
        invite_code: (body.visibility == Visibility::Private).then(new_invite_code),
        host_client_seed: body.client_seed,
        dice_script: body.dice,
        ..NewTable::new(game, options, body.seat_count, host.id)
    };
    let table = state.store.create_table(&new, body.seat, state.config.max_waiting_seats_per_player).await?;
    tracing::info!(table = %table.id, game = %table.game.as_str(), "table created");
    // Its log begins with the host's seat (seq 1).
    tell_lobby(&state, &table, LobbyChange::Opened, 1);
    Ok((StatusCode::CREATED, Json(TableView::of(&table, Some(host.id), &state))))
}

async fn list(State(state): State<AppState>, Query(q): Query<ListQuery>) -> ApiResult<Json<Page<TableView>>> {
    let game = q.game.as_deref().map(parse_game).transpose()?;
    let page = PageRequest::parse(q.limit, q.cursor.as_deref())?;
    let filter = TableFilter {
        status: q.status.unwrap_or(TableStatus::Open),
        game,
        party: q.party,
        has_free_seat: q.free_seats,
        after: page.after,
        limit: page.fetch(),
    };
    let tables = state.store.list_tables(&filter).await?;
    let tables = Page::of(tables, &page, |t| (t.created_at, t.id));
    Ok(Json(tables.map(|t| TableView::of(&t, None, &state))))
}

async fn show(
    State(state): State<AppState>,
    viewer: Option<Auth>,
    headers: axum::http::HeaderMap,
    uri: axum::http::Uri,
    Path(id): Path<Uuid>,
    Query(q): Query<ShowQuery>,
) -> ApiResult<axum::response::Response> {
    use axum::response::IntoResponse;
    let viewer = viewer.map(|Auth(p)| p.id);
    let table = visible_table(&state, id, viewer, q.invite_code.as_deref()).await?;
    match TableView::with_play(&table, viewer, &state).await {
        // Cluster mode: another process drives the game; it shows it (`crate::cluster`).
        Err(RouteError::Elsewhere) => {
            let path = uri.path_and_query().map_or(uri.path(), |p| p.as_str());
            let call = Call::new(axum::http::Method::GET, path, &headers, Default::default());
            let forwarded = cluster::is_forwarded(&headers);
            let view = |_| TableView::with_play(&table, viewer, &state);
            Ok(match state.cluster.serve_table(id, forwarded, &call, view).await {
                Ok(Served::Here(view)) => Json(view).into_response(),
                Ok(Served::There(answer)) => answer.into_response(),
                // Asked by another process for a table this one does not drive (any more).
                Err(e @ RouteError::Elsewhere) if forwarded => ApiError::from(e).not_driver(),
                Err(e) => return Err(e.into()),
            })
        }
        view => Ok(Json(view?).into_response()),
    }
}

async fn show_invite(
    State(state): State<AppState>,
    viewer: Option<Auth>,
    Path(code): Path<String>,
) -> ApiResult<Json<TableView>> {
    let no_table = || ApiError::not_found("no table has this invite code");
    let code = invite_code_form(&code).ok_or_else(no_table)?;
    let table = state.store.table_by_invite(&code).await?.ok_or_else(no_table)?;
    let mut view = TableView::of(&table, viewer.map(|Auth(p)| p.id), &state);
    view.invite_code = table.invite_code.clone();
    Ok(Json(view))
}

async fn update(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
    Json(body): Json<UpdateTable>,
) -> ApiResult<Json<TableView>> {
    let table = visible_table(&state, id, Some(player.id), None).await?;
    if table.host_id != player.id {
        return Err(ApiError::forbidden(ErrorCode::NotHost, "only the host may change the table"));
    }
    if table.status != TableStatus::Open {
        return Err(ApiError::conflict(ErrorCode::TableNotOpen, "the table has already started"));
    }
    let game = table.game;
    let visibility = body.visibility.unwrap_or(table.visibility);
    // Checked again when only the visibility changes: the options must suit the new one.
    let options =
        options_for(game, body.options.as_ref().unwrap_or(&table.options), table.seat_count, visibility)?;
    let invite_code = match visibility {
        Visibility::Private => Some(table.invite_code.clone().unwrap_or_else(new_invite_code)),
        Visibility::Public => None,
    };
    let party = body.party.unwrap_or(table.party);
    let bot_level = body.bot_level.unwrap_or(table.bot_level);
    let was = table.visibility;
    let updated =
        state.store.update_table_settings(id, &options, party, bot_level, visibility, invite_code.as_deref());
    let Some(entries) = updated.await? else {
        return Err(ApiError::conflict(ErrorCode::TableNotOpen, "the table has already started"));
    };
    tell_table(&state, id, &entries);
    if visibility == Visibility::Private {
        // Its sockets look at it again: who is no longer allowed to watch it stops.
        state.tables.feeds().close_table(id);
    }
    let table = state.store.table(id).await?.ok_or_else(ApiError::table_not_found)?;
    let seq = last_seq(&entries, 0);
    match (was, visibility) {
        (Visibility::Public, Visibility::Private) => tell_removed(&state, id, Removal::Private, seq),
        (Visibility::Private, _) => tell_lobby(&state, &table, LobbyChange::Opened, seq),
        (Visibility::Public, _) => tell_lobby(&state, &table, LobbyChange::Settings, seq),
    }
    Ok(Json(TableView::of(&table, Some(player.id), &state)))
}

async fn join(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
    JsonOrEmpty(body): JsonOrEmpty<JoinTable>,
) -> ApiResult<Json<TableView>> {
    check_client_seed(&body.client_seed)?;
    let table = visible_table(&state, id, Some(player.id), body.invite_code.as_deref()).await?;
    if table.seat_of(player.id).is_some() {
        return Err(ApiError::conflict(ErrorCode::AlreadySeated, "you already have a seat at this table"));
    }
    if table.status != TableStatus::Open {
        return Err(ApiError::conflict(ErrorCode::TableNotOpen, "the table is no longer taking players"));
    }
    let free = |s: &&crate::store::SeatRecord| s.player_id.is_none() && s.controller == Controller::Human;
    let seat = match body.seat {
        Some(seat) if seat >= table.seat_count => {
            return Err(ApiError::unprocessable(
                ErrorCode::InvalidSeat,
                format!("seat must be below {}", table.seat_count),
            ));
        }
        Some(seat) => seat,
        None => table
            .seats
            .iter()
            .find(free)
            .map(|s| s.seat)
            .ok_or_else(|| ApiError::conflict(ErrorCode::TableFull, "every seat is taken"))?,
    };
    let taken = state.store.take_seat(
        id,
        seat,
        player.id,
        &body.client_seed,
        state.config.max_waiting_seats_per_player,
    );
    let Some(entries) = taken.await? else {
        return Err(ApiError::conflict(ErrorCode::SeatTaken, format!("seat {seat} is taken")));
    };
    tell_table(&state, id, &entries);
    let table = state.store.table(id).await?.ok_or_else(ApiError::table_not_found)?;
    tell_lobby(&state, &table, LobbyChange::Seats, last_seq(&entries, 0));
    Ok(Json(TableView::of(&table, Some(player.id), &state)))
}

/// What follows a start's commit: the bots' seats to the table's sockets (which then follow
/// the actor), the lobby, and the actor itself, loaded here (the opening throws, then bots and
/// clocks).
async fn announce_start(state: &AppState, id: Uuid, bots: &[crate::store::LogEntry]) -> ApiResult<()> {
    tracing::info!(table = %id, "table started");
    tell_table(state, id, bots);
    state.tables.feeds().close_table(id);
    // The lobby hears of the start before the actor runs: before it can hear of the finish.
    let table = state.store.table(id).await?.ok_or_else(ApiError::table_not_found)?;
    if table.visibility == Visibility::Public {
        let seq = match bots.last() {
            Some(bot) => bot.seq,
            None => state.store.latest_seqs(&[id]).await?.get(&id).copied().unwrap_or(0),
        };
        tell_lobby(state, &table, LobbyChange::Started, seq);
    }
    state.tables.get(id).await?;
    Ok(())
}

/// Longest wait for players a quick-play request may ask for before bots fill the table.
pub const MAX_BOTS_AFTER_SECONDS: u64 = 3600;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct QuickPlayBody {
    game: String,
    /// The table's seat count.
    #[serde(deserialize_with = "body::whole")]
    seats: usize,
    #[serde(default, deserialize_with = "body::some")]
    options: Option<serde_json::Value>,
    #[serde(default)]
    party: bool,
    #[serde(default)]
    client_seed: String,
    /// Fill the seats still empty with bots and start after this many seconds (counted from the
    /// table's opening); absent: wait for players. Part of the kind of table asked for.
    #[serde(default, deserialize_with = "body::some_whole")]
    bots_after_seconds: Option<u64>,
}

/// Seats the caller at the oldest waiting quick-play table of the same game, seat count,
/// options, clock and wait for bots (201 with a new table if none waits, 200 otherwise; the
/// same seat again if the caller already waits at one). The table starts by itself when its
/// last seat is taken.
async fn quick_play(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Auth(player): Auth,
    Json(body): Json<QuickPlayBody>,
) -> ApiResult<(StatusCode, Json<TableView>)> {
    check_table_rate(&state, client, player.id)?;
    let game = parse_game(&body.game)?;
    let options = options_for(game, &body.options.unwrap_or_default(), body.seats, Visibility::Public)?;
    check_client_seed(&body.client_seed)?;
    if body.bots_after_seconds.is_some_and(|s| s > MAX_BOTS_AFTER_SECONDS) {
        return Err(ApiError::unprocessable(
            ErrorCode::InvalidBody,
            format!("bots_after_seconds: at most {MAX_BOTS_AFTER_SECONDS}"),
        ));
    }
    check_room_to_host(&state, player.id).await?;
    let kind = crate::store::QuickKind {
        game,
        seat_count: body.seats,
        options: options.clone(),
        party: body.party,
        bots_after_seconds: body.bots_after_seconds,
    };
    let new = NewTable {
        party: body.party,
        host_client_seed: body.client_seed.clone(),
        quick: Some(kind.quick_play()),
        ..NewTable::new(game, options, body.seats, player.id)
    };
    let max_waiting = state.config.max_waiting_seats_per_player;
    let seated = state.store.quick_play(&kind, player.id, &body.client_seed, &new, max_waiting).await?;
    let id = seated.table_id;
    let mut table = state.store.table(id).await?.ok_or_else(ApiError::table_not_found)?;
    if !seated.already {
        tell_table(&state, id, &seated.entries);
        let change = if seated.opened { LobbyChange::Opened } else { LobbyChange::Seats };
        tell_lobby(&state, &table, change, last_seq(&seated.entries, 1));
    }
    if seated.full && start_if_open(&state, id, table.host_id, false).await? {
        table = state.store.table(id).await?.ok_or_else(ApiError::table_not_found)?;
    }
    let status = if seated.opened { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(TableView::with_play(&table, Some(player.id), &state).await?)))
}

/// Starts a quick-play table (full, or `fill_with_bots` once its wait is over) if it is still
/// open; another request or process may have started it first.
async fn start_if_open(state: &AppState, id: Uuid, host: Uuid, fill_with_bots: bool) -> ApiResult<bool> {
    let (outcome, bots) =
        state.store.start_table(id, host, &state.config.instance_id, fill_with_bots).await?;
    if outcome != StartOutcome::Started {
        return Ok(false);
    }
    announce_start(state, id, &bots).await?;
    Ok(true)
}

/// Fills the quick-play tables whose wait for players is over with bots and starts them, every
/// second, until `stopped` completes. Every process does it; a table's start is decided under
/// its lock, so each starts once.
pub async fn fill_waiting_tables(state: AppState, stopped: impl std::future::Future<Output = ()>) {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tokio::pin!(stopped);
    loop {
        tokio::select! {
            () = &mut stopped => return,
            _ = tick.tick() => {}
        }
        let due = match state.store.quick_tables_due(crate::clock::now_millis(), 50).await {
            Ok(due) => due,
            Err(e) => {
                tracing::warn!(error = %e, "could not list the quick-play tables to fill with bots");
                continue;
            }
        };
        for (id, host) in due {
            if let Err(e) = start_if_open(&state, id, host, true).await {
                tracing::warn!(table = %id, error = ?e, "could not fill a quick-play table with bots");
            }
        }
    }
}

/// Where a rematch stands.
#[derive(Debug, Serialize)]
struct RematchView {
    /// Seats whose players asked for the rematch.
    accepted: Vec<usize>,
    /// Seats whose players have not yet.
    waiting_for: Vec<usize>,
    /// The rematch's table, once every seated player asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    table_id: Option<Uuid>,
}

/// A seated player of a finished table asks for a rematch. When every seated player has, a new
/// table with the same seats, game, options and settings opens and starts at once (bots again
/// in the bots' seats): 201 with its id; until then 200 with who has asked. The last vote is
/// refused as a creation is (429 `too_many_tables`) while the host has no room for the table.
async fn rematch(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
) -> ApiResult<(StatusCode, Json<RematchView>)> {
    let table = visible_table(&state, id, Some(player.id), None).await?;
    let not_over = || ApiError::conflict(ErrorCode::GameNotOver, "a rematch follows the finish of a game");
    if table.status != TableStatus::Finished {
        return Err(not_over());
    }
    let new = NewTable {
        visibility: table.visibility,
        party: table.party,
        bot_level: table.bot_level,
        invite_code: (table.visibility == Visibility::Private).then(new_invite_code),
        ..NewTable::new(table.game, table.options.clone(), table.seat_count, table.host_id)
    };
    let vote = state.store.vote_rematch(id, player.id, &new, MAX_OPEN_TABLES_PER_HOST).await?;
    let everyone = || table.seats.iter().filter(|s| s.player_id.is_some()).map(|s| s.seat).collect();
    match vote {
        RematchVote::NotFinished => Err(not_over()),
        RematchVote::NotSeated => {
            Err(ApiError::forbidden(ErrorCode::NotSeated, "only the table's players may ask for a rematch"))
        }
        RematchVote::HostHasNoRoom => Err(no_room_to_host("the rematch's host already hosts")),
        RematchVote::Waiting { accepted, waiting_for } => {
            Ok((StatusCode::OK, Json(RematchView { accepted, waiting_for, table_id: None })))
        }
        RematchVote::Opened { table_id, by_this_vote, entries } => {
            if by_this_vote {
                tell_table(&state, table_id, &entries);
                let opened = state.store.table(table_id).await?.ok_or_else(ApiError::table_not_found)?;
                tell_lobby(&state, &opened, LobbyChange::Opened, last_seq(&entries, 1));
                start_if_open(&state, table_id, table.host_id, true).await?;
            }
            let status = if by_this_vote { StatusCode::CREATED } else { StatusCode::OK };
            Ok((
                status,
                Json(RematchView { accepted: everyone(), waiting_for: vec![], table_id: Some(table_id) }),
            ))
        }
    }
}

/// Sets the caller's client seed until the start, when the table's is fixed from them.
async fn update_seat(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
    Json(body): Json<UpdateSeat>,
) -> ApiResult<Json<TableView>> {
    check_client_seed(&body.client_seed)?;
    visible_table(&state, id, Some(player.id), None).await?;
    match state.store.set_client_seed(id, player.id, &body.client_seed).await? {
        SeedUpdate::Set => {}
        SeedUpdate::NotSeated => {
            return Err(ApiError::conflict(ErrorCode::NotSeated, "you have no seat at this table"));
        }
        SeedUpdate::NotOpen => {
            return Err(ApiError::conflict(
                ErrorCode::TableNotOpen,
                "the game has started: the client seeds are fixed",
            ));
        }
    }
    let table = state.store.table(id).await?.ok_or_else(ApiError::table_not_found)?;
    Ok(Json(TableView::of(&table, Some(player.id), &state)))
}

async fn leave(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<TableView>> {
    let table = visible_table(&state, id, Some(player.id), None).await?;
    if table.seat_of(player.id).is_none() {
        return Err(ApiError::conflict(ErrorCode::NotSeated, "you have no seat at this table"));
    }
    if table.status != TableStatus::Open {
        return Err(ApiError::conflict(ErrorCode::TableNotOpen, "the game has started; seats are kept"));
    }
    let Some(entries) = state.store.leave_seat(id, player.id).await? else {
        return Err(ApiError::conflict(ErrorCode::TableNotOpen, "the game has started; seats are kept"));
    };
    tell_table(&state, id, &entries);
    let table = state.store.table(id).await?.ok_or_else(ApiError::table_not_found)?;
    let seq = last_seq(&entries, 0);
    if table.status == TableStatus::Closed {
        state.tables.feeds().close_table(id);
        if table.visibility == Visibility::Public {
            tell_removed(&state, id, Removal::Closed, seq);
        }
    } else {
        tell_lobby(&state, &table, LobbyChange::Seats, seq);
    }
    Ok(Json(TableView::of(&table, Some(player.id), &state)))
}

async fn start(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
    JsonOrEmpty(body): JsonOrEmpty<StartTable>,
) -> ApiResult<Json<TableView>> {
    let table = visible_table(&state, id, Some(player.id), None).await?;
    // Checked again where it counts, under the table's lock: a player may leave meanwhile.
    if table.host_id != player.id {
        return Err(ApiError::forbidden(ErrorCode::NotHost, "only the host may start the table"));
    }
    let started = state.store.start_table(id, player.id, &state.config.instance_id, body.fill_with_bots);
    let (outcome, bots) = started.await?;
    match outcome {
        StartOutcome::Started => {}
        StartOutcome::NotOpen => {
            return Err(ApiError::conflict(ErrorCode::TableNotOpen, "the table has already started"));
        }
        StartOutcome::NotHost => {
            return Err(ApiError::forbidden(ErrorCode::NotHost, "only the host may start the table"));
        }
        StartOutcome::SeatsEmpty(empty) => {
            return Err(ApiError::conflict(
                ErrorCode::SeatsEmpty,
                format!("{empty} seat(s) are empty: wait for players or start with fill_with_bots"),
            ));
        }
    }
    announce_start(&state, id, &bots).await?;
    let table = state.store.table(id).await?.ok_or_else(ApiError::table_not_found)?;
    Ok(Json(TableView::with_play(&table, Some(player.id), &state).await?))
}
