//! This process's lease on the tables it drives: renewed every third of its length, the tables
//! of processes whose lease ran out taken over, and given up at shutdown.

use super::{PlayError, Tables};
use crate::{
    clock::now_millis,
    config::Config,
    store::{Store, StoreError},
};
use std::sync::Arc;

/// The keeper of this process's lease, beside the actor registry ([`Tables`]) whose tables it
/// holds. Cloned cheaply; built once per server, by `serve`, once it knows where it listens.
#[derive(Clone)]
pub struct Leases {
    /// Where the leases are kept, and the tables in play listed.
    store: Store,
    /// This process's instance id and the lease's length.
    config: Arc<Config>,
    /// The actors to start for the tables this process takes, and to stop for those it lost.
    tables: Tables,
    /// Where the other processes reach this one (cluster mode), registered with the lease.
    address: Option<Arc<str>>,
}

impl Leases {
    /// The lease of the process that runs `tables`, registered with the `address` other
    /// processes reach it at.
    pub fn new(store: Store, config: Arc<Config>, tables: Tables, address: Option<String>) -> Self {
        Self { store, config, tables, address: address.map(Arc::from) }
    }

    /// Renews this process's lease, stops the actors of tables another process has taken (this
    /// one stalled past its lease, say), then starts the actor of every table in play that it
    /// may drive and is not running: its own (at start, or after an actor stopped on a store
    /// failure) and those of processes whose lease ran out. Returns how many it started.
    pub async fn resume_all(&self) -> Result<usize, PlayError> {
        let instance = &self.config.instance_id;
        let now = now_millis();
        let until = now + self.config.lease.as_millis() as i64;
        self.store.renew_lease(instance, until, self.address.as_deref()).await?;
        let tables = self.store.tables_in_play(instance, now).await?;
        for t in tables.iter().filter(|t| t.owner.as_ref().is_some_and(|o| o != instance)) {
            self.tables.stop_taken(t.id);
        }
        let mut resumed = 0;
        for t in tables.iter().filter(|t| t.claimable && self.tables.running(t.id).is_none()) {
            let id = t.id;
            match self.tables.get(id).await {
                Ok(Some(_)) => {
                    resumed += 1;
                    // Another process's, whose lease ran out.
                    if t.owner.as_ref().is_some_and(|o| o != instance) {
                        metrics::counter!("luddo_lease_takeovers_total").increment(1);
                    }
                }
                Ok(None) | Err(PlayError::Store(StoreError::Fenced)) => {}
                Err(e) => tracing::error!(table = %id, error = %e, "could not resume table"),
            }
        }
        Ok(resumed)
    }

    /// Runs [`Leases::resume_all`] every third of the lease, until the process stops its
    /// actors: the lease stays alive, and tables whose process died are taken over.
    pub async fn keep(&self) {
        let mut stop = self.tables.stopped();
        let mut every = tokio::time::interval(self.config.lease / 3);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        every.tick().await; // the first tick is at once: `serve` has just resumed the tables
        loop {
            tokio::select! {
                _ = every.tick() => {}
                _ = stop.changed() => return,
            }
            match self.resume_all().await {
                Ok(0) => {}
                Ok(n) => tracing::info!(tables = n, "took over tables"),
                Err(e) => tracing::warn!(error = %e, "could not renew the lease on this process's tables"),
            }
        }
    }

    /// Gives up this process's lease, so that another may take its tables at once (after
    /// [`Tables::stop_all`], at shutdown).
    pub async fn release(&self) {
        if let Err(e) = self.store.release_lease(&self.config.instance_id).await {
            tracing::warn!(error = %e, "could not release the lease on this process's tables");
        }
    }
}
