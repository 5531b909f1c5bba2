//! Friends and blocks (docs/social.md, "Friends (request and accept) and blocks"): a request,
//! its acceptance (asking back), the lists, the end of a friendship; blocks, which work both
//! ways. Each change is committed, then told to the two players' lobby sockets.

use super::{
    error::{ApiError, ApiResult, ErrorCode},
    extract::{Auth, Json, Path},
    presence,
    state::AppState,
};
use crate::{
    clock::rfc3339,
    social::{FriendEvent, PlayerRef, tell_friends},
    store::{AskFriend, MAX_BLOCKS, MAX_FRIENDS, Player},
};
use axum::{
    Router,
    extract::State,
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::{get, put},
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/v1/players/me/friends", get(friends).post(ask))
        .route("/v1/players/me/friends/{player_id}", axum::routing::delete(remove))
        .route("/v1/players/me/blocks", get(blocks))
        .route("/v1/players/me/blocks/{player_id}", put(block).delete(unblock))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AskBody {
    player_id: Uuid,
}

/// Where two players stand after a request.
#[derive(Debug, Serialize)]
struct Standing {
    player: PlayerRef,
    status: &'static str,
}

#[derive(Debug, Serialize)]
struct FriendView {
    player: PlayerRef,
    since: String,
    online: bool,
    /// The public table (open or playing) the friend holds a seat at.
    table: Option<FriendTable>,
}

#[derive(Debug, Serialize)]
struct FriendTable {
    id: Uuid,
    game: String,
    status: String,
}

#[derive(Debug, Serialize)]
struct PlayerAt {
    player: PlayerRef,
    at: String,
}

#[derive(Debug, Serialize)]
struct Lists {
    friends: Vec<FriendView>,
    incoming: Vec<PlayerAt>,
    outgoing: Vec<PlayerAt>,
}

#[derive(Debug, Serialize)]
struct BlockList {
    blocked: Vec<PlayerAt>,
}

fn player_at((p, at): (Player, i64)) -> PlayerAt {
    PlayerAt { player: PlayerRef::from(&p), at: rfc3339(at) }
}

/// The other player of a friend or block route: an existing player, not the caller.
pub(super) async fn other_player(state: &AppState, me: &Player, id: Uuid) -> ApiResult<Player> {
    if id == me.id {
        return Err(ApiError::unprocessable(ErrorCode::InvalidBody, "that is you"));
    }
    state.store.player(id).await?.ok_or_else(no_player)
}

pub(super) fn no_player() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, ErrorCode::PlayerNotFound, "no such player")
}

pub(super) fn blocked() -> ApiError {
    ApiError::forbidden(ErrorCode::Blocked, "one of you has blocked the other")
}

async fn ask(
    State(state): State<AppState>,
    Auth(me): Auth,
    Json(body): Json<AskBody>,
) -> ApiResult<Response> {
    let other = other_player(&state, &me, body.player_id).await?;
    let outcome = state.store.ask_friend(me.id, other.id).await?;
    let (me_ref, other_ref) = (PlayerRef::from(&me), PlayerRef::from(&other));
    let (status, standing) = match outcome {
        AskFriend::Blocked => return Err(blocked()),
        AskFriend::TooMany => {
            return Err(ApiError::conflict(
                ErrorCode::TooManyFriends,
                format!("one of you has {MAX_FRIENDS} friends and requests, the most a player may"),
            ));
        }
        AskFriend::Requested { new } => {
            if new {
                tell_friends(state.tables.feeds(), FriendEvent::Requested, &me_ref, &other_ref);
            }
            (if new { StatusCode::CREATED } else { StatusCode::OK }, "requested")
        }
        AskFriend::Friends { new } => {
            if new {
                tell_friends(state.tables.feeds(), FriendEvent::Accepted, &me_ref, &other_ref);
            }
            (StatusCode::OK, "friends")
        }
    };
    Ok((status, Json(Standing { player: other_ref, status: standing })).into_response())
}

async fn friends(State(state): State<AppState>, Auth(me): Auth) -> ApiResult<Json<Lists>> {
    let lists = state.store.friend_lists(me.id).await?;
    Ok(Json(Lists {
        friends: lists
            .friends
            .into_iter()
            .map(|f| FriendView {
                online: presence::online(&state, f.player.id, f.seen_at),
                player: PlayerRef::from(&f.player),
                since: rfc3339(f.since),
                table: f.table.map(|(id, game, status)| FriendTable { id, game, status }),
            })
            .collect(),
        incoming: lists.incoming.into_iter().map(player_at).collect(),
        outgoing: lists.outgoing.into_iter().map(player_at).collect(),
    }))
}

async fn remove(
    State(state): State<AppState>,
    Auth(me): Auth,
    Path(player_id): Path<Uuid>,
) -> ApiResult<StatusCode> {
    let Some(_) = state.store.remove_friend(me.id, player_id).await? else {
        return Err(ApiError::not_found("no friendship or request with that player"));
    };
    if let Some(other) = state.store.player(player_id).await? {
        tell_friends(
            state.tables.feeds(),
            FriendEvent::Removed,
            &PlayerRef::from(&me),
            &PlayerRef::from(&other),
        );
    }
    Ok(StatusCode::NO_CONTENT)
}

async fn blocks(State(state): State<AppState>, Auth(me): Auth) -> ApiResult<Json<BlockList>> {
    let blocked = state.store.blocks(me.id).await?;
    Ok(Json(BlockList { blocked: blocked.into_iter().map(player_at).collect() }))
}

async fn block(
    State(state): State<AppState>,
    Auth(me): Auth,
    Path(player_id): Path<Uuid>,
) -> ApiResult<StatusCode> {
    let other = other_player(&state, &me, player_id).await?;
    let done = state.store.block(me.id, other.id).await?;
    if done.too_many {
        return Err(ApiError::conflict(
            ErrorCode::TooManyFriends,
            format!("you block {MAX_BLOCKS} players, the most a player may"),
        ));
    }
    if done.unfriended {
        tell_friends(
            state.tables.feeds(),
            FriendEvent::Removed,
            &PlayerRef::from(&me),
            &PlayerRef::from(&other),
        );
    }
    state.challenges.tell_of(crate::social::ChallengeEvent::Cancelled, &done.cancelled).await;
    Ok(StatusCode::NO_CONTENT)
}

async fn unblock(
    State(state): State<AppState>,
    Auth(me): Auth,
    Path(player_id): Path<Uuid>,
) -> ApiResult<StatusCode> {
    let other = other_player(&state, &me, player_id).await?;
    state.store.unblock(me.id, other.id).await?;
    Ok(StatusCode::NO_CONTENT)
}
