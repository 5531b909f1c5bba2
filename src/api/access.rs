//! Who may see which table: the one place the API decides that a table is hidden from a caller
//! (answered with the same 404 as a table that does not exist). (Which process serves a table in
//! play is `crate::cluster::Cluster::route`'s.)

use super::{
    error::{ApiError, ApiResult},
    state::AppState,
};
use crate::store::{TableRecord, Visibility};
use uuid::Uuid;

/// Loads a table the viewer may see: public ones, and private ones to their players or to
/// holders of the invite code. Anyone else gets the same 404 as for a table that does not exist.
pub async fn visible_table(
    state: &AppState,
    id: Uuid,
    viewer: Option<Uuid>,
    invite_code: Option<&str>,
) -> ApiResult<TableRecord> {
    let table = state.store.table(id).await?.ok_or_else(ApiError::table_not_found)?;
    let has_code = matches!((invite_code, &table.invite_code), (Some(given), Some(code)) if given == code);
    let member = viewer.is_some_and(|v| table.is_member(v));
    if table.visibility == Visibility::Private && !member && !has_code {
        return Err(ApiError::table_not_found());
    }
    Ok(table)
}
