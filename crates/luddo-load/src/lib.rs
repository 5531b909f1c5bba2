//! What the load generator (`luddo-load`, src/main.rs) and the client programs beside it
//! (examples/: `kill_client`, `stalled_resumers`, `ws_fanout`) share. They know the server only
//! by its public HTTP and WebSocket API and by the settings of a server under test, so this crate
//! does not depend on the server's.
//!
//! - [`api`]: one JSON call over HTTP, with an optional bearer token.
//! - [`server`]: the server under test: its settings (`scripts/test-server.env`), starting it,
//!   waiting for `/health`, finding its process and reading its memory.

pub mod api;
pub mod server;
