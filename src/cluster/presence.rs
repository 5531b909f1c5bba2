//! A player's presence on the process that drives the table, for a socket held elsewhere: a
//! WebSocket to the driver's `/v1/tables/{id}/events`, with the player's credentials and the
//! forwarded mark, which the driver sends nothing but pings (`api::ws::table`, `serve_link`). The
//! driver counts it as the player's connection, as any socket of the player's; when it closes
//! (the driver stops, the table changes hands) the link is made again to whichever process
//! drives the table then.

use super::{Caller, Cluster, Route, forward::FORWARDED};
use crate::table::TableHandle;
use axum::http::{HeaderValue, header};
use futures_util::StreamExt;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use tokio_tungstenite::tungstenite::{client::IntoClientRequest, protocol::WebSocketConfig};
use uuid::Uuid;

/// Between two attempts to link.
const RELINK_EVERY: Duration = Duration::from_millis(500);
/// A `since` past any log: nothing of the backlog is sent.
const PAST_THE_LOG: i64 = 1 << 40;
/// A link's read buffer and largest message, in bytes.
const LINK_BUFFER: usize = 1024;

/// Holds the presence of `player` (whose credentials are `authorization`) at table `id` on
/// whichever process drives it, for as long as the future runs (the socket's task aborts it
/// when the socket closes). Should this process take the table over, the presence is its
/// own actor's.
pub async fn hold(cluster: Cluster, id: Uuid, player: Uuid, authorization: HeaderValue) {
    loop {
        match cluster.route(id, &Caller::Client).await {
            Ok(Route::There(address)) => {
                match link(&address, id, &authorization, &cluster.mark).await {
                    Ok(()) => tracing::debug!(table = %id, %address, "presence link closed"),
                    Err(e) => tracing::debug!(table = %id, %address, error = %e, "no presence link"),
                }
                // Look for the driver again next time, as a forwarded call that failed does.
                cluster.forget(id);
            }
            Ok(Route::Here(handle)) => {
                if let Ok(mut subscription) = handle.subscribe(Some(player), false).await {
                    let _connected = Connected(handle, player);
                    // Until the actor stops (the table changes hands, or the process stops).
                    while !matches!(subscription.receiver.recv().await, Err(RecvError::Closed)) {}
                }
            }
            // Nobody drives it right now.
            Err(_) => {}
        }
        tokio::time::sleep(RELINK_EVERY).await;
    }
}

/// A player counted as connected by this process's actor of a table, until dropped.
struct Connected(TableHandle, Uuid);

impl Drop for Connected {
    fn drop(&mut self) {
        let (handle, player) = (self.0.clone(), self.1);
        tokio::spawn(async move { handle.disconnected(player).await });
    }
}

/// One link, until it closes.
async fn link(
    address: &str,
    id: Uuid,
    authorization: &HeaderValue,
    from: &HeaderValue,
) -> Result<(), String> {
    let url = format!("ws://{address}/v1/tables/{id}/events?since={PAST_THE_LOG}");
    let mut request = url.into_client_request().map_err(|e| e.to_string())?;
    request.headers_mut().insert(header::AUTHORIZATION, authorization.clone());
    request.headers_mut().insert(FORWARDED, from.clone());
    // Nothing comes on a link but pings and a close: the smallest buffers (the default read
    // buffer alone is 128 KiB a link, and a process holds one for each of its players' sockets
    // of tables driven elsewhere).
    let config = WebSocketConfig::default()
        .read_buffer_size(LINK_BUFFER)
        .write_buffer_size(0)
        .max_message_size(Some(LINK_BUFFER))
        .max_frame_size(Some(LINK_BUFFER));
    let (mut socket, _) = tokio_tungstenite::connect_async_with_config(request, Some(config), true)
        .await
        .map_err(|e| e.to_string())?;
    // Pings are answered by the client library as it reads.
    while let Some(Ok(_)) = socket.next().await {}
    Ok(())
}
