//! Cluster mode: several server processes on one PostgreSQL database, behind any load balancer,
//! each serving every table.
//!
//! Each table in play is driven by one process (its lease, `table::Leases`). A process that
//! does not drive a table still serves it:
//!
//! - **Actions, reclaims and views** are forwarded to the process that drives it
//!   ([`Cluster::route`], [`Cluster::serve_table`]), at the address that process registered
//!   with its lease (`LUDDO_INTERNAL_ADDR`, [`internal_address`]), carrying the caller's
//!   `Authorization` as sent and the body (so its `seq`); the answer — status, headers, body —
//!   goes back unchanged. A forwarded call is marked ([`forward::FORWARDED`]) and never
//!   forwarded again: a process that gets one for a table it does not drive marks its answer
//!   ([`forward::NOT_DRIVER`]), and the process that forwarded it reads the ownership again
//!   (taking the table itself if its driver's lease ran out) and retries, for a few seconds,
//!   before it gives up ([`RouteError::Elsewhere`]). An action whose answer was lost after the
//!   driver may have stored it is answered from the log rather than by the retries' refusal
//!   ([`outcome`]).
//! - **Events** reach sockets on every process through PostgreSQL `LISTEN/NOTIFY` ([`fanout`]):
//!   every append of a log notifies inside its transaction, so at its commit — the log
//!   writer's each entry with its message (`<table> <seq>\n<message>`), the lobby's a nudge
//!   (`<table> <seq>`), as is an entry too long to notify. A socket on a process that does not
//!   drive the table (`api::ws::store_follower`) sends a notified entry if it is the next one it lacks, and
//!   at anything else (a nudge, an entry after a gap) reads the log from the store after the
//!   last `seq` it sent, so it sends each entry once, in order, wherever it runs. The lobby
//!   stream's messages are notified as they are, and each process relays the others' to its
//!   sockets.
//! - **Hand-over**: a balancer that sends a table's calls to one process (deploy/nginx.conf
//!   hashes on the table id) makes forwarding the exception: the process that receives a
//!   table's join or start drives it. A table driven where its calls do not arrive (a quick-play
//!   table started where the quick-play request landed, tables taken over while their process
//!   restarted) is handed to where they do: a driver that served [`HAND_OVER_AFTER`] actions
//!   or reclaims of a table in a row (the calls that cost; views and sockets do not count),
//!   every one forwarded by the same live process and none from a client directly, hands the
//!   table to that process ([`Store::hand_over_table`], once everything its actor accepted is
//!   stored), which takes it with its next call. Calls the old driver had not served yet are
//!   answered as for a table that moved, and served by the new one.
//! - **Presence**: a player's socket on a process that does not drive the table holds a link to
//!   the driver ([`presence`]), a forwarded WebSocket of the player's, so the seat counts as
//!   connected there (the away rule, `connected` in views) wherever the player's socket is.
//!
//! What it answers is its own: [`Served`] (served here, or the driver's answer to pass on) or
//! a [`RouteError`], which the HTTP edge maps to a problem like any other error; it imports
//! nothing of the edge.
//!
//! On SQLite (one process) none of this runs: a table is served by the one process there is.

pub mod fanout;
pub mod forward;
pub mod outcome;
pub mod presence;

use crate::{
    clock::now_millis,
    config::Config,
    store::{Backend, Store, StoreError, TableOwner},
    table::{PlayError, TableHandle, Tables},
};
use axum::http::{HeaderMap, HeaderValue};
use std::{
    collections::HashMap,
    net::SocketAddr,
    str::FromStr,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};
use uuid::Uuid;

/// How long a process keeps looking for a table's driver (a takeover under way: the old
/// driver's lease running out, another process taking the table) before it gives up
/// ([`RouteError::Elsewhere`]).
const PATIENCE: Duration = Duration::from_secs(3);
/// Between two looks.
const RETRY_EVERY: Duration = Duration::from_millis(150);
/// How long a process trusts where it last found a table's driver before it looks again.
const DRIVER_MEMORY: Duration = Duration::from_secs(10);
/// Most drivers remembered: past it, those older than [`DRIVER_MEMORY`] are forgotten, and if
/// none is, all of them.
const DRIVERS_REMEMBERED: usize = 65_536;

/// A table whose last this many actions (and reclaims) served here were all forwarded by one
/// other process is handed to that process: a few turns of a table whose players all act
/// through that process. Behind a balancer that spreads each table's calls over the processes,
/// the driver's own share interrupts the count, so such a table moves only when all its players
/// happen to be on one other process (where moving it saves forwarding their actions).
pub const HAND_OVER_AFTER: u32 = 16;
/// Most tables whose calls are tallied (one entry per table driven here that had a forwarded
/// call since its last direct one): past it, the tally starts again.
const TALLIED_AT_MOST: usize = 65_536;

/// Who sent a call on a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Caller {
    /// A client, through whatever balancer.
    Client,
    /// Another process of the cluster, which forwarded a client's call: its instance id, if its
    /// mark names one ([`forward::mark`]).
    Process(Option<Arc<str>>),
}

impl Caller {
    /// The caller of a request with these headers.
    pub fn of(headers: &HeaderMap) -> Self {
        match headers.get(forward::FORWARDED) {
            None => Caller::Client,
            Some(mark) => Caller::Process(mark.to_str().ok().filter(|m| *m != "1").map(Arc::from)),
        }
    }

    /// Whether another process forwarded the call.
    pub fn forwarded(&self) -> bool {
        matches!(self, Caller::Process(_))
    }
}

/// For each table driven here, who sent its latest calls: the process that forwarded them all,
/// and how many in a row ([`HAND_OVER_AFTER`]).
#[derive(Default)]
struct CallTally(Mutex<HashMap<Uuid, (Arc<str>, u32)>>);

impl CallTally {
    /// Counts a call on table `id` served here; the process to hand the table to, once the
    /// table's last [`HAND_OVER_AFTER`] calls all came forwarded from it.
    fn count(&self, id: Uuid, caller: &Caller) -> Option<Arc<str>> {
        let mut tally = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let Caller::Process(Some(from)) = caller else {
            tally.remove(&id);
            return None;
        };
        if tally.len() >= TALLIED_AT_MOST && !tally.contains_key(&id) {
            tally.clear();
        }
        let (last, calls) = tally.entry(id).or_insert_with(|| (from.clone(), 0));
        if last != from {
            *last = from.clone();
            *calls = 0;
        }
        *calls += 1;
        if *calls < HAND_OVER_AFTER {
            return None;
        }
        tally.remove(&id).map(|(to, _)| to)
    }
}

/// Where the tables other processes drive were last found: a call on one goes straight to its
/// driver, without trying to take the table and reading who holds it first. Forgotten when
/// the driver does not serve the table any more (it answers that it is not the driver, or
/// cannot be reached) and after [`DRIVER_MEMORY`]; a stale address costs one retry, never a
/// wrong write (every append is fenced by its driver's epoch).
#[derive(Default)]
struct KnownDrivers(Mutex<HashMap<Uuid, (String, Instant)>>);

impl KnownDrivers {
    fn get(&self, id: Uuid) -> Option<String> {
        let drivers = self.0.lock().unwrap_or_else(|e| e.into_inner());
        drivers.get(&id).filter(|(_, at)| at.elapsed() < DRIVER_MEMORY).map(|(address, _)| address.clone())
    }

    fn remember(&self, id: Uuid, address: &str) {
        let mut drivers = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if drivers.len() >= DRIVERS_REMEMBERED && !drivers.contains_key(&id) {
            drivers.retain(|_, (_, at)| at.elapsed() < DRIVER_MEMORY);
            if drivers.len() >= DRIVERS_REMEMBERED {
                drivers.clear();
            }
        }
        drivers.insert(id, (address.to_owned(), Instant::now()));
    }

    fn forget(&self, id: Uuid) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
    }
}

/// Why a call on a table could not be served.
#[derive(Debug, thiserror::Error)]
pub enum RouteError {
    /// Another process drives the table and this one cannot reach it for the call (the call
    /// was forwarded here already, the driver registered no address), or the table is
    /// changing hands as we look: try again shortly.
    #[error("the table is driven by another process")]
    Elsewhere,
    /// The table is not in play: not started, or no such table.
    #[error("the table is not in play")]
    NotInPlay,
    /// The table refused the call (or its actor stopped).
    #[error(transparent)]
    Play(PlayError),
    #[error(transparent)]
    Store(StoreError),
}

/// An append fenced off is the table taken by another process.
impl From<StoreError> for RouteError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Fenced => RouteError::Elsewhere,
            e => RouteError::Store(e),
        }
    }
}

impl From<PlayError> for RouteError {
    fn from(e: PlayError) -> Self {
        match e {
            PlayError::Store(e) => e.into(),
            e => RouteError::Play(e),
        }
    }
}

/// A failure of a call served by this process's actor, which may say that the table has moved
/// to another process meanwhile: the call is then served wherever the table is now.
pub trait Moved {
    fn moved(&self) -> bool;
}

impl Moved for RouteError {
    fn moved(&self) -> bool {
        matches!(self, RouteError::Elsewhere)
    }
}

/// What routing a call on a table needs: who drives each table (the store's leases), this
/// process's actors, and where other processes' tables were last found. Cloned cheaply; built
/// once per process with its table registry.
#[derive(Clone)]
pub struct Cluster {
    /// Who drives each table (the leases), and where that process is reached.
    store: Store,
    /// This process's actors, which serve the tables it drives.
    tables: Tables,
    /// This process's instance id: a table owned by any other is driven elsewhere.
    instance: Arc<str>,
    /// The mark of the calls this process forwards ([`forward::mark`]).
    mark: HeaderValue,
    /// Where the tables other processes drive were last found.
    drivers: Arc<KnownDrivers>,
    /// Who sent the latest calls of the tables driven here.
    callers: Arc<CallTally>,
}

/// Whether processes may share the store: cluster mode is PostgreSQL's.
fn enabled(store: &Store) -> bool {
    store.backend() == Backend::Postgres
}

/// Where the other processes reach this one: `LUDDO_INTERNAL_ADDR` if set; else the address it
/// listens on (`local`) when that names one; else (listening on `0.0.0.0` or `::`, as in a
/// container) the address this host reaches the database from, with the listening port — the
/// database is what every process of the cluster reaches, so they share that network. `None`
/// if none of these can be told (other processes then answer `table_elsewhere` for this one's
/// tables).
pub async fn internal_address(config: &Config, local: SocketAddr) -> Option<String> {
    if let Some(address) = &config.internal_addr {
        return Some(address.clone());
    }
    if !local.ip().is_unspecified() {
        return Some(local.to_string());
    }
    let options = sqlx::postgres::PgConnectOptions::from_str(&config.database_url()).ok()?;
    let host = options.get_host();
    if host.starts_with('/') {
        return None; // a Unix socket: no network to tell
    }
    let database = tokio::net::lookup_host((host, options.get_port())).await.ok()?.next()?;
    let unspecified: SocketAddr =
        if database.is_ipv4() { ([0, 0, 0, 0], 0).into() } else { ([0u16; 8], 0).into() };
    // Connecting a UDP socket sends nothing: it only picks the route, and so the local address.
    let probe = std::net::UdpSocket::bind(unspecified).ok()?;
    probe.connect(database).ok()?;
    Some(SocketAddr::new(probe.local_addr().ok()?.ip(), local.port()).to_string())
}

/// Where a table in play is served from.
pub enum Route {
    /// This process drives it (or just took it).
    Here(TableHandle),
    /// Another live process drives it, at this address.
    There(String),
}

/// What serving a call on a table came to.
pub enum Served<T> {
    /// This process drives the table and served it.
    Here(T),
    /// The driver's answer, to be passed on unchanged.
    There(forward::DriverAnswer),
}

/// What [`Cluster::serve_table_noting`] came to.
pub struct Tried<T, E> {
    pub served: Result<Served<T>, E>,
    /// Some attempt went unanswered after the driver may have received it: the call may have
    /// been carried out then, whatever `served` (the last attempt's answer) says.
    pub unanswered: bool,
}

impl Cluster {
    /// The cluster of process `instance` over `store`, whose tables in play are `tables`.
    pub fn new(store: Store, tables: Tables, instance: &str) -> Self {
        Self {
            store,
            tables,
            instance: instance.into(),
            mark: forward::mark(instance),
            drivers: Arc::default(),
            callers: Arc::default(),
        }
    }

    /// Whether processes may share the store: cluster mode is PostgreSQL's.
    pub fn enabled(&self) -> bool {
        enabled(&self.store)
    }

    /// Where table `id` (started) is served for a call of `caller`: this process's actor,
    /// taking the table if no live process holds it; else, in cluster mode and for a call that
    /// was not forwarded already, the address of the process that drives it.
    /// [`RouteError::Elsewhere`] when neither can be had (the driver registered no address; the
    /// table changes hands as we look); [`RouteError::NotInPlay`] if it has not started.
    pub async fn route(&self, id: Uuid, caller: &Caller) -> Result<Route, RouteError> {
        self.find(id, caller.forwarded()).await
    }

    /// Counts an action or reclaim on table `id` that a client sent this process directly and
    /// that its actor served (over a socket that follows the actor): the table's calls do not
    /// all come from elsewhere.
    pub fn served_directly(&self, id: Uuid) {
        if self.enabled() {
            self.callers.count(id, &Caller::Client);
        }
    }

    /// Counts a call of `caller` on table `id`, served here through `handle`, and hands the
    /// table over once its calls all come from one other process (see the module's
    /// "Hand-over").
    fn count(&self, id: Uuid, caller: &Caller, handle: &TableHandle) {
        if self.enabled()
            && let Some(to) = self.callers.count(id, caller)
        {
            tokio::spawn(hand_over(self.instance.clone(), handle.clone(), id, to));
        }
    }

    async fn find(&self, id: Uuid, forwarded: bool) -> Result<Route, RouteError> {
        let cluster = self.enabled() && !forwarded;
        if cluster
            && self.tables.running(id).is_none()
            && let Some(address) = self.drivers.get(id)
        {
            return Ok(Route::There(address));
        }
        for attempt in 0.. {
            match self.tables.get(id).await {
                Ok(Some(handle)) => return Ok(Route::Here(handle)),
                Ok(None) => return Err(RouteError::NotInPlay),
                Err(PlayError::Store(StoreError::Fenced)) if cluster => {}
                Err(e) => return Err(e.into()),
            }
            match self.store.table_owner(id, now_millis()).await? {
                TableOwner::Live { instance, address: Some(address) } if *instance != *self.instance => {
                    self.drivers.remember(id, &address);
                    return Ok(Route::There(address));
                }
                // Its driver's lease has just run out (the next look takes it), or it took no
                // forwarded calls.
                TableOwner::Live { .. } | TableOwner::Nobody if attempt < 2 => {}
                _ => break,
            }
            tokio::time::sleep(RETRY_EVERY).await;
        }
        Err(RouteError::Elsewhere)
    }

    /// Looks for the driver of table `id` again next time (the one remembered did not answer
    /// for it).
    fn forget(&self, id: Uuid) {
        self.drivers.forget(id);
    }

    /// Serves a call on table `id` (started) wherever its driver is: `here` with this
    /// process's actor, or `call` forwarded to the process that drives it. While the table
    /// changes hands (the process asked answers that it is not the driver, a driver that cannot
    /// be reached, `here` failing as [`Moved`]: an append fenced off because another process
    /// took the table) it looks again, for a few seconds (`PATIENCE`), then fails with
    /// [`RouteError::Elsewhere`]. `here` must be safe to retry after it failed as moved
    /// (nothing of a fenced append is stored), and so must `call` after an attempt whose answer
    /// was lost (see [`Cluster::serve_table_noting`] for a call that is not safe to retry
    /// blindly).
    pub async fn serve_table<T, E, F, Fut>(
        &self,
        id: Uuid,
        caller: &Caller,
        call: &forward::Call,
        here: F,
    ) -> Result<Served<T>, E>
    where
        F: FnMut(TableHandle) -> Fut,
        Fut: Future<Output = Result<T, E>>,
        E: From<RouteError> + Moved,
    {
        self.serve_table_noting(id, caller, || call.clone(), here).await.served
    }

    /// [`Cluster::serve_table`], noting whether some attempt went unanswered after the driver
    /// may have received it. An action is retried all the same (its `seq` lets it be applied
    /// once at most), but a refusal after such an attempt may only mean that the attempt was
    /// applied: the caller reads the log before answering (`api::actions`). The call to
    /// forward is made by `call`, once, when the table turns out to be driven elsewhere: a call
    /// served here costs nothing of it.
    pub async fn serve_table_noting<T, E, F, Fut>(
        &self,
        id: Uuid,
        caller: &Caller,
        call: impl Fn() -> forward::Call,
        mut here: F,
    ) -> Tried<T, E>
    where
        F: FnMut(TableHandle) -> Fut,
        Fut: Future<Output = Result<T, E>>,
        E: From<RouteError> + Moved,
    {
        let forwarded = caller.forwarded();
        let give_up = tokio::time::Instant::now() + PATIENCE;
        let mut unanswered = false;
        let mut made = None;
        let served = loop {
            let route = match self.route(id, caller).await {
                Ok(route) => route,
                Err(e) => break Err(e.into()),
            };
            match route {
                Route::Here(handle) => match here(handle.clone()).await {
                    Ok(served) => {
                        self.count(id, caller, &handle);
                        break Ok(Served::Here(served));
                    }
                    Err(e) if e.moved() && self.enabled() && !forwarded => {}
                    served => break served.map(Served::Here),
                },
                Route::There(address) => {
                    match forward::send(&address, &self.mark, made.get_or_insert_with(&call)).await {
                        Ok(forward::Forwarded::Answer(answer)) => break Ok(Served::There(answer)),
                        Ok(forward::Forwarded::NotDriver) => {
                            tracing::debug!(table = %id, %address, "the process asked does not drive the table")
                        }
                        Err(e) => {
                            unanswered |= e.maybe_received;
                            tracing::debug!(table = %id, error = %e, "could not forward the call");
                        }
                    }
                    self.forget(id);
                }
            }
            if tokio::time::Instant::now() >= give_up {
                break Err(RouteError::Elsewhere.into());
            }
            tokio::time::sleep(RETRY_EVERY).await;
        };
        Tried { served, unanswered }
    }
}

/// Hands table `id`, driven here through `handle`, to live process `to` (see the module's
/// "Hand-over"); if `to` is not live any more, or the table has moved meanwhile, the table
/// stays where it is.
async fn hand_over(instance: Arc<str>, handle: TableHandle, id: Uuid, to: Arc<str>) {
    match handle.hand_over(&instance, &to).await {
        Ok(true) => {
            metrics::counter!("luddo_table_handovers_total").increment(1);
            tracing::debug!(table = %id, to = %to, "handed the table to the process its calls come from");
        }
        Ok(false) => {}
        Err(e) => tracing::warn!(table = %id, to = %to, error = %e, "could not hand the table over"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(instance: &str) -> Caller {
        Caller::Process(Some(instance.into()))
    }

    #[test]
    fn a_table_goes_to_the_process_that_forwarded_its_last_calls_all() {
        let callers = CallTally::default();
        let id = Uuid::new_v4();
        for _ in 1..HAND_OVER_AFTER {
            assert_eq!(callers.count(id, &from("b")), None);
        }
        assert_eq!(callers.count(id, &from("b")).as_deref(), Some("b"));
        // Counted again from nothing.
        assert_eq!(callers.count(id, &from("b")), None);
    }

    #[test]
    fn a_call_from_a_client_or_another_process_starts_the_count_again() {
        let callers = CallTally::default();
        let id = Uuid::new_v4();
        for interruption in [Caller::Client, from("c"), Caller::Process(None)] {
            for _ in 1..HAND_OVER_AFTER {
                assert_eq!(callers.count(id, &from("b")), None);
            }
            assert_eq!(callers.count(id, &interruption), None);
        }
        // Another table's calls count for that table only.
        assert_eq!(callers.count(Uuid::new_v4(), &from("b")), None);
        assert_eq!(callers.count(id, &from("b")), None);
    }

    #[test]
    fn the_tables_tallied_stay_bounded() {
        let callers = CallTally::default();
        for _ in 0..TALLIED_AT_MOST + 10 {
            callers.count(Uuid::new_v4(), &from("b"));
        }
        let held = callers.0.lock().unwrap().len();
        assert!(held <= TALLIED_AT_MOST, "{held} tables tallied");
    }

    #[test]
    fn a_forwarded_calls_mark_names_the_process_that_forwarded_it() {
        let mut headers = HeaderMap::new();
        assert_eq!(Caller::of(&headers), Caller::Client);
        headers.insert(forward::FORWARDED, forward::mark("n2-1"));
        assert_eq!(Caller::of(&headers), from("n2-1"));
        // Processes before the mark named them sent `1`.
        headers.insert(forward::FORWARDED, HeaderValue::from_static("1"));
        assert_eq!(Caller::of(&headers), Caller::Process(None));
        assert!(Caller::of(&headers).forwarded());
    }

    #[test]
    fn a_driver_is_remembered_until_forgotten() {
        let drivers = KnownDrivers::default();
        let id = Uuid::new_v4();
        assert_eq!(drivers.get(id), None);
        drivers.remember(id, "10.0.0.2:8080");
        assert_eq!(drivers.get(id).as_deref(), Some("10.0.0.2:8080"));
        drivers.forget(id);
        assert_eq!(drivers.get(id), None);
    }

    #[test]
    fn the_drivers_remembered_stay_bounded() {
        let drivers = KnownDrivers::default();
        for _ in 0..DRIVERS_REMEMBERED + 10 {
            drivers.remember(Uuid::new_v4(), "10.0.0.2:8080");
        }
        let held = drivers.0.lock().unwrap().len();
        assert!(held <= DRIVERS_REMEMBERED, "{held} drivers held");
    }
}
