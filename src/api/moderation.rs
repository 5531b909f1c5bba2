//! Moderation (docs/social.md): any player reports a player or a message; an admin (a role the
//! `luddo` binary grants, never an API call) reads the reports, hides messages, mutes and bans
//! for a time, and reads the log every one of these actions is written to.

use super::{
    AppState,
    access::visible_table,
    body,
    error::{ApiError, ApiResult, ErrorCode},
    extract::{Auth, Json, JsonOrEmpty, Path, Query},
    paging::{Listed, Page, PageRequest},
};
use crate::{
    clock::{now_millis, rfc3339},
    store::{Moderation, ModerationAction, ModerationEntry, NewReport, Player, Report, Sanctions},
};
use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{get, post},
};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/v1/reports", post(file_report))
        .route("/v1/admin/reports", get(reports))
        .route("/v1/admin/reports/{id}/close", post(close_report))
        .route("/v1/admin/tables/{id}/chat/{n}/hide", post(hide_message))
        .route("/v1/admin/players/{id}/mute", post(mute).delete(unmute))
        .route("/v1/admin/players/{id}/ban", post(ban).delete(unban))
        .route("/v1/admin/log", get(log))
}

/// Reports a player may file in [`REPORT_WINDOW`].
pub const MAX_REPORTS_PER_DAY: i64 = 20;
const REPORT_WINDOW: Duration = Duration::from_secs(24 * 3600);
/// Longest reason or note, in characters.
pub const MAX_REASON_CHARS: usize = 500;
/// Longest mute or ban: a year, in seconds.
pub const MAX_SANCTION_SECONDS: u64 = 365 * 24 * 3600;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReportBody {
    player_id: Uuid,
    #[serde(default, deserialize_with = "body::some")]
    table_id: Option<Uuid>,
    /// The reported message's `n` at `table_id`.
    #[serde(default, deserialize_with = "body::some_whole")]
    message: Option<u64>,
    reason: String,
}

#[derive(Debug, Serialize)]
struct ReportView {
    id: Uuid,
    reporter_id: Uuid,
    player_id: Uuid,
    #[serde(skip_serializing_if = "Option::is_none")]
    table_id: Option<Uuid>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<i64>,
    reason: String,
    /// `open` or `closed`.
    status: &'static str,
    created_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    closed_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    closed_by: Option<Uuid>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

impl Listed for ReportView {
    const KEY: &'static str = "reports";
}

impl From<Report> for ReportView {
    fn from(r: Report) -> Self {
        Self {
            id: r.id,
            reporter_id: r.reporter,
            player_id: r.player,
            table_id: r.table,
            message: r.message,
            reason: r.reason,
            status: if r.open { "open" } else { "closed" },
            created_at: rfc3339(r.created_at),
            closed_at: r.closed_at.map(rfc3339),
            closed_by: r.closed_by,
            note: r.note,
        }
    }
}

/// `text` as a reason or note: visible characters, 1 to [`MAX_REASON_CHARS`].
fn reason(field: &str, text: &str) -> ApiResult<String> {
    let invalid = || {
        ApiError::unprocessable(
            ErrorCode::InvalidBody,
            format!(
                "{field} has 1 to {MAX_REASON_CHARS} characters, none of them invisible or control characters"
            ),
        )
    };
    let text = crate::wording::visible_text(text).map_err(|_| invalid())?;
    if text.is_empty() || text.chars().count() > MAX_REASON_CHARS {
        return Err(invalid());
    }
    Ok(text)
}

/// Player `id`, or 404 `player_not_found`.
async fn existing_player(state: &AppState, id: Uuid) -> ApiResult<Player> {
    state
        .store
        .player(id)
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, ErrorCode::PlayerNotFound, "no such player"))
}

async fn file_report(
    State(state): State<AppState>,
    Auth(reporter): Auth,
    Json(body): Json<ReportBody>,
) -> ApiResult<(StatusCode, Json<ReportView>)> {
    if body.player_id == reporter.id {
        return Err(ApiError::unprocessable(ErrorCode::InvalidBody, "you cannot report yourself"));
    }
    let reason = reason("reason", &body.reason)?;
    existing_player(&state, body.player_id).await?;
    let message = body.message.map(|n| i64::try_from(n).unwrap_or(i64::MAX));
    match (body.table_id, message) {
        (None, Some(_)) => {
            return Err(ApiError::unprocessable(
                ErrorCode::InvalidBody,
                "a reported message needs its table_id",
            ));
        }
        (Some(table), message) => {
            visible_table(&state, table, Some(reporter.id), None).await?;
            if let Some(n) = message
                && !state.store.chat_posted_by(table, n, body.player_id).await?
            {
                return Err(ApiError::unprocessable(
                    ErrorCode::InvalidBody,
                    "the player posted no such message at that table",
                ));
            }
        }
        (None, None) => {}
    }
    let now = now_millis();
    let new = NewReport {
        reporter: reporter.id,
        player: body.player_id,
        table: body.table_id,
        message,
        reason,
        at: now,
    };
    let since = now - REPORT_WINDOW.as_millis() as i64;
    match state.store.file_report(&new, since, MAX_REPORTS_PER_DAY).await? {
        Some(report) => {
            tracing::info!(report = %report.id, player = %report.player, "report filed");
            Ok((StatusCode::CREATED, Json(report.into())))
        }
        None => Err(ApiError::too_many(
            ErrorCode::TooManyReports,
            format!("at most {MAX_REPORTS_PER_DAY} reports a day"),
            Duration::from_secs(3600),
        )),
    }
}

/// The caller, if an admin; else 403 `admin_only`.
async fn admin(state: &AppState, player: &Player) -> ApiResult<Uuid> {
    if state.store.is_admin(player.id).await? {
        Ok(player.id)
    } else {
        Err(ApiError::forbidden(ErrorCode::AdminOnly, "only an admin may do this"))
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReportsQuery {
    /// `open` (the default) or `closed`.
    status: Option<String>,
    limit: Option<usize>,
    cursor: Option<String>,
}

async fn reports(
    State(state): State<AppState>,
    Auth(player): Auth,
    Query(q): Query<ReportsQuery>,
) -> ApiResult<Json<Page<ReportView>>> {
    admin(&state, &player).await?;
    let open = match q.status.as_deref() {
        None | Some("open") => true,
        Some("closed") => false,
        Some(_) => return Err(ApiError::bad_request(ErrorCode::InvalidQuery, "status is open or closed")),
    };
    let page = PageRequest::parse(q.limit, q.cursor.as_deref())?;
    let rows = state.store.reports(open, page.after, page.fetch()).await?;
    Ok(Json(Page::of(rows, &page, |r| (r.created_at, r.id)).map(ReportView::from)))
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct CloseBody {
    #[serde(default, deserialize_with = "body::some")]
    note: Option<String>,
}

async fn close_report(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
    JsonOrEmpty(body): JsonOrEmpty<CloseBody>,
) -> ApiResult<Json<ReportView>> {
    let admin = admin(&state, &player).await?;
    let note = body.note.as_deref().map(|n| reason("note", n)).transpose()?;
    let close = Moderation {
        report: Some(id),
        reason: note,
        ..Moderation::new(Some(admin), ModerationAction::CloseReport, now_millis())
    };
    let report =
        state.store.close_report(&close).await?.ok_or_else(|| ApiError::not_found("no such report"))?;
    Ok(Json(report.into()))
}

async fn hide_message(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path((table, n)): Path<(Uuid, u64)>,
) -> ApiResult<StatusCode> {
    let admin = admin(&state, &player).await?;
    let n = i64::try_from(n).unwrap_or(i64::MAX);
    let hide = Moderation {
        table: Some(table),
        message: Some(n),
        ..Moderation::new(Some(admin), ModerationAction::HideMessage, now_millis())
    };
    if !state.store.hide_chat(&hide).await? {
        return Err(ApiError::not_found("no such message, or it is hidden already"));
    }
    state.chat.hidden(table, n).await;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SanctionBody {
    #[serde(deserialize_with = "body::whole")]
    seconds: u64,
    reason: String,
}

/// A player's standing mute and ban.
#[derive(Debug, Serialize)]
struct SanctionsView {
    player_id: Uuid,
    #[serde(skip_serializing_if = "Option::is_none")]
    chat_muted_until: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    banned_until: Option<String>,
}

impl SanctionsView {
    fn of(player_id: Uuid, s: Sanctions, now: i64) -> Self {
        let running = |until: Option<i64>| until.filter(|u| *u > now).map(rfc3339);
        Self {
            player_id,
            chat_muted_until: running(s.chat_muted_until),
            banned_until: running(s.banned_until),
        }
    }
}

/// Does `action` to player `id` for `admin` (`body`: for how long and why; lifting: none), and
/// tells this process's sockets and sessions of the player (the other processes hear it from
/// the store's notification).
async fn sanction(
    state: &AppState,
    admin: Uuid,
    id: Uuid,
    action: ModerationAction,
    body: Option<SanctionBody>,
) -> ApiResult<Json<SanctionsView>> {
    let now = now_millis();
    let mut m = Moderation { player: Some(id), ..Moderation::new(Some(admin), action, now) };
    if let Some(body) = body {
        if !(1..=MAX_SANCTION_SECONDS).contains(&body.seconds) {
            return Err(ApiError::unprocessable(
                ErrorCode::InvalidBody,
                format!("seconds is 1 to {MAX_SANCTION_SECONDS} (a year)"),
            ));
        }
        m.until = Some(now + body.seconds as i64 * 1000);
        m.reason = Some(reason("reason", &body.reason)?);
    }
    let tokens =
        state.store.sanction(&m).await?.ok_or_else(|| {
            ApiError::new(StatusCode::NOT_FOUND, ErrorCode::PlayerNotFound, "no such player")
        })?;
    for token in tokens {
        match action {
            ModerationAction::Ban => state.revocations.ban(token),
            _ => state.revocations.forget_session(token),
        }
    }
    tracing::info!(%admin, player = %id, action = action.as_str(), "moderation");
    Ok(Json(SanctionsView::of(id, state.store.sanctions(id).await?, now)))
}

async fn mute(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
    Json(body): Json<SanctionBody>,
) -> ApiResult<Json<SanctionsView>> {
    let admin = admin(&state, &player).await?;
    sanction(&state, admin, id, ModerationAction::Mute, Some(body)).await
}

async fn unmute(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<SanctionsView>> {
    let admin = admin(&state, &player).await?;
    sanction(&state, admin, id, ModerationAction::Unmute, None).await
}

async fn ban(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
    Json(body): Json<SanctionBody>,
) -> ApiResult<Json<SanctionsView>> {
    let admin = admin(&state, &player).await?;
    if id == admin {
        return Err(ApiError::unprocessable(ErrorCode::InvalidBody, "an admin cannot ban themselves"));
    }
    sanction(&state, admin, id, ModerationAction::Ban, Some(body)).await
}

async fn unban(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<SanctionsView>> {
    let admin = admin(&state, &player).await?;
    sanction(&state, admin, id, ModerationAction::Unban, None).await
}

#[derive(Debug, Serialize)]
struct LogEntryView {
    id: Uuid,
    at: String,
    /// The admin; absent for the command line.
    #[serde(skip_serializing_if = "Option::is_none")]
    actor_id: Option<Uuid>,
    action: ModerationAction,
    #[serde(skip_serializing_if = "Option::is_none")]
    player_id: Option<Uuid>,
    #[serde(skip_serializing_if = "Option::is_none")]
    table_id: Option<Uuid>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    report_id: Option<Uuid>,
    #[serde(skip_serializing_if = "Option::is_none")]
    until: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

impl Listed for LogEntryView {
    const KEY: &'static str = "entries";
}

impl From<ModerationEntry> for LogEntryView {
    fn from(e: ModerationEntry) -> Self {
        Self {
            id: e.id,
            at: rfc3339(e.at),
            actor_id: e.actor,
            action: e.action,
            player_id: e.player,
            table_id: e.table,
            message: e.message,
            report_id: e.report,
            until: e.until.map(rfc3339),
            reason: e.reason,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LogQuery {
    limit: Option<usize>,
    cursor: Option<String>,
}

async fn log(
    State(state): State<AppState>,
    Auth(player): Auth,
    Query(q): Query<LogQuery>,
) -> ApiResult<Json<Page<LogEntryView>>> {
    admin(&state, &player).await?;
    let page = PageRequest::parse(q.limit, q.cursor.as_deref())?;
    let rows = state.store.moderation_log(page.after, page.fetch()).await?;
    Ok(Json(Page::of(rows, &page, |e| (e.at, e.id)).map(LogEntryView::from)))
}
