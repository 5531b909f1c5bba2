//! The lobby's routes: create, list, look at, join, leave, configure and start tables, quick
//! play and rematches. Each parses the request, calls the open-table workflow
//! ([`crate::lobby::Lobby`]) and maps its answer.

use super::{
    access::visible_table,
    body,
    client_addr::ClientIp,
    error::{ApiError, ApiResult, ErrorCode},
    extract::{Auth, Json, JsonOrEmpty, Path, Query},
    games::parse_game,
    paging::{Listed, Page, PageRequest},
    state::AppState,
};
use crate::{
    bots::Level,
    cluster::{Caller, RouteError, Served, forward::Call},
    lobby::{self, ClientSeed, DiceChain, QuickPlayRequest, Rematch, Settings, TableRequest, TableView},
    social::{PlayerRef, SocialMessage},
    store::{TableFilter, TableStatus, Visibility},
};
use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{get, patch, post},
};
use serde::{Deserialize, Serialize};
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
        .route("/v1/tables/{id}/rematch", post(rematch).get(rematch_standing))
}

/// The body of `POST /v1/tables` (and a challenge's `table`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CreateTable {
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
    /// Every clock of the table ten times the server's; private tables only.
    #[serde(default)]
    long_clock: bool,
    /// Fresh dice (docs/fairness.md); absent: on at a public table, off at a private one.
    #[serde(default, deserialize_with = "body::some")]
    fresh_dice: Option<bool>,
    #[serde(default)]
    bot_level: Level,
    /// The seat the host takes (default 0).
    #[serde(default, deserialize_with = "body::whole")]
    seat: usize,
    /// The host seat's client seed (docs/fairness.md), as if given with `PATCH seats/me`.
    #[serde(default)]
    client_seed: String,
    /// The head of the host seat's dice chain (fresh dice).
    #[serde(default, deserialize_with = "body::some")]
    dice_chain: Option<String>,
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
    long_clock: Option<bool>,
    #[serde(default, deserialize_with = "body::some")]
    fresh_dice: Option<bool>,
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
    /// The head of the seat's dice chain (fresh dice).
    #[serde(default, deserialize_with = "body::some")]
    dice_chain: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct UpdateSeat {
    #[serde(default, deserialize_with = "body::some")]
    client_seed: Option<String>,
    /// The head of the seat's dice chain (fresh dice).
    #[serde(default, deserialize_with = "body::some")]
    dice_chain: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RematchBody {
    /// The head of the dice chain for the caller's seat at the rematch (fresh dice).
    #[serde(default, deserialize_with = "body::some")]
    dice_chain: Option<String>,
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

impl Listed for TableView {
    const KEY: &'static str = "tables";
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
    let table = state.lobby.create(host.id, body.into_request()?).await?;
    Ok((StatusCode::CREATED, Json(state.lobby.view(&table, Some(host.id)))))
}

impl CreateTable {
    /// The table asked for, as the lobby reads it.
    pub(super) fn into_request(self) -> ApiResult<TableRequest> {
        Ok(TableRequest {
            game: parse_game(&self.game)?,
            seat_count: self.seat_count,
            options: self.options.unwrap_or_default(),
            visibility: self.visibility,
            party: self.party,
            long_clock: self.long_clock,
            fresh_dice: self.fresh_dice,
            bot_level: self.bot_level,
            seat: self.seat,
            client_seed: self.client_seed,
            dice_chain: DiceChain::optional(self.dice_chain)?,
            dice: self.dice,
        })
    }
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
    Ok(Json(tables.map(|t| state.lobby.view(&t, None))))
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
    match state.lobby.view_with_play(&table, viewer).await {
        // Cluster mode: another process drives the game; it shows it (`crate::cluster`).
        Err(RouteError::Elsewhere) => {
            let path = uri.path_and_query().map_or(uri.path(), |p| p.as_str());
            let call = Call::new(axum::http::Method::GET, path, &headers, Default::default());
            let caller = Caller::of(&headers);
            let view = |_| state.lobby.view_with_play(&table, viewer);
            Ok(match state.cluster.serve_table(id, &caller, &call, view).await {
                Ok(Served::Here(view)) => Json(view).into_response(),
                Ok(Served::There(answer)) => answer.into_response(),
                // Asked by another process for a table this one does not drive (any more).
                Err(e @ RouteError::Elsewhere) if caller.forwarded() => ApiError::from(e).not_driver(),
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
    let code = lobby::invite_code_form(&code).ok_or_else(no_table)?;
    let table = state.store.table_by_invite(&code).await?.ok_or_else(no_table)?;
    let mut view = state.lobby.view(&table, viewer.map(|Auth(p)| p.id));
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
    let change = Settings {
        options: body.options,
        visibility: body.visibility,
        party: body.party,
        long_clock: body.long_clock,
        fresh_dice: body.fresh_dice,
        bot_level: body.bot_level,
    };
    let table = state.lobby.update(table, player.id, change).await?;
    Ok(Json(state.lobby.view(&table, Some(player.id))))
}

async fn join(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
    JsonOrEmpty(body): JsonOrEmpty<JoinTable>,
) -> ApiResult<Json<TableView>> {
    let seed = ClientSeed::new(body.client_seed)?;
    let chain = DiceChain::optional(body.dice_chain)?;
    let table = visible_table(&state, id, Some(player.id), body.invite_code.as_deref()).await?;
    let table = state.lobby.join(table, player.id, body.seat, seed, chain).await?;
    Ok(Json(state.lobby.view(&table, Some(player.id))))
}

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
    /// The head of the seat's dice chain (fresh dice; quick-play tables have it on).
    #[serde(default, deserialize_with = "body::some")]
    dice_chain: Option<String>,
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
    let ask = QuickPlayRequest {
        game: parse_game(&body.game)?,
        seat_count: body.seats,
        options: body.options.unwrap_or_default(),
        party: body.party,
        client_seed: body.client_seed,
        dice_chain: DiceChain::optional(body.dice_chain)?,
        bots_after_seconds: body.bots_after_seconds,
    };
    let seated = state.lobby.quick_play(player.id, ask).await?;
    let status = if seated.opened { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(state.lobby.view_with_play(&seated.table, Some(player.id)).await?)))
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
    JsonOrEmpty(body): JsonOrEmpty<RematchBody>,
) -> ApiResult<(StatusCode, Json<RematchView>)> {
    let chain = DiceChain::optional(body.dice_chain)?;
    let table = visible_table(&state, id, Some(player.id), None).await?;
    // The other human players, told of the vote on their lobby streams (docs/social.md).
    let others: Vec<Uuid> =
        table.seats.iter().filter_map(|s| s.player_id).filter(|p| *p != player.id).collect();
    let (status, view, counted) = match state.lobby.rematch(table, player.id, chain).await? {
        Rematch::Waiting { accepted, waiting_for } => {
            (StatusCode::OK, RematchView { accepted, waiting_for, table_id: None }, true)
        }
        Rematch::Opened { table_id, accepted, by_this_vote } => {
            let status = if by_this_vote { StatusCode::CREATED } else { StatusCode::OK };
            (status, RematchView { accepted, waiting_for: vec![], table_id: Some(table_id) }, by_this_vote)
        }
    };
    if counted {
        let from = PlayerRef::from(&player);
        let message: SocialMessage<'_, (), RematchView> =
            SocialMessage::Rematch { table_id: id, from: &from, rematch: &view };
        state.tables.feeds().publish_for_players(&others, &message);
    }
    Ok((status, Json(view)))
}

/// Where the rematch of a finished table stands: who asked, who has not, and the new table once
/// it opened; for anyone who may see the table, so that every page shows a request live.
async fn rematch_standing(
    State(state): State<AppState>,
    viewer: Option<Auth>,
    Path(id): Path<Uuid>,
    Query(q): Query<ShowQuery>,
) -> ApiResult<Json<RematchView>> {
    let viewer = viewer.map(|Auth(p)| p.id);
    let table = visible_table(&state, id, viewer, q.invite_code.as_deref()).await?;
    Ok(Json(match state.lobby.rematch_standing(&table).await? {
        Rematch::Waiting { accepted, waiting_for } => RematchView { accepted, waiting_for, table_id: None },
        Rematch::Opened { table_id, accepted, .. } => {
            RematchView { accepted, waiting_for: vec![], table_id: Some(table_id) }
        }
    }))
}

/// Sets the caller's client seed and/or dice chain until the start, when the table's are fixed
/// from them; a body with neither is refused.
async fn update_seat(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
    Json(body): Json<UpdateSeat>,
) -> ApiResult<Json<TableView>> {
    if body.client_seed.is_none() && body.dice_chain.is_none() {
        return Err(ApiError::unprocessable(ErrorCode::InvalidBody, "give client_seed, dice_chain or both"));
    }
    let seed = body.client_seed.map(ClientSeed::new).transpose()?;
    let chain = DiceChain::optional(body.dice_chain)?;
    let mut table = visible_table(&state, id, Some(player.id), None).await?;
    if let Some(chain) = chain {
        table = state.lobby.set_dice_chain(&table, player.id, chain).await?;
    }
    if let Some(seed) = seed {
        table = state.lobby.set_client_seed(id, player.id, seed).await?;
    }
    Ok(Json(state.lobby.view(&table, Some(player.id))))
}

async fn leave(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<TableView>> {
    let table = visible_table(&state, id, Some(player.id), None).await?;
    let table = state.lobby.leave(table, player.id).await?;
    Ok(Json(state.lobby.view(&table, Some(player.id))))
}

async fn start(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
    JsonOrEmpty(body): JsonOrEmpty<StartTable>,
) -> ApiResult<Json<TableView>> {
    let table = visible_table(&state, id, Some(player.id), None).await?;
    let table = state.lobby.start(table, player.id, body.fill_with_bots).await?;
    Ok(Json(state.lobby.view_with_play(&table, Some(player.id)).await?))
}
