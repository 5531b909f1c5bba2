//! Scratch stores for the crate's unit tests.

use super::{NewTable, Store};
use crate::clock::now_millis;
use crate::games::GameKind;
use uuid::Uuid;

/// A scratch directory removed on drop.
pub struct TempDir(pub std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A store on a fresh SQLite file, where instance "me" holds a lease for a minute.
pub async fn scratch_store() -> (Store, TempDir) {
    let dir = std::env::temp_dir().join(format!("luddo-unit-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let store = Store::open(&format!("sqlite://{}?mode=rwc", dir.join("t.db").display())).await.unwrap();
    store.renew_lease("me", now_millis() + 60_000, None).await.unwrap();
    (store, TempDir(dir))
}

/// A new public 2-seat Luddo table hosted by `host`, on a fresh seed.
pub fn luddo_for_two(host: Uuid) -> NewTable {
    NewTable {
        bot_level: crate::bots::Level::Strong,
        ..NewTable::new(GameKind::Luddo, serde_json::json!({}), 2, host)
    }
}
