//! The open-table workflow, below the HTTP edge: opening a table (created, by quick play, by a
//! rematch), taking and leaving its seats, changing its settings and client seeds, starting it,
//! and the background task that fills the quick-play tables whose wait is over with bots.
//!
//! Each workflow is one method of [`Lobby`] in the same three steps: the store's transaction
//! (which decides, under the table's lock), then the news of it to the open table's sockets and
//! the lobby stream (`table::feeds`), then, at a start, the table's actor. It refuses with a
//! [`LobbyError`], which the edge maps to a problem like any other error; it imports nothing of
//! the edge. Who may see a table, rate limits and request bodies stay the edge's.

pub mod error;
pub mod limits;
pub mod view;

pub use error::LobbyError;
pub use limits::{MAX_BOTS_AFTER_SECONDS, MAX_DICE_SCRIPT, MAX_OPEN_TABLES_PER_HOST};
pub use view::TableView;

use crate::{
    bots::Level,
    cluster::RouteError,
    config::Config,
    games::GameKind,
    rules::dice::{is_chain_link, is_valid_client_seed},
    store::{
        Controller, LogEntry, NewTable, QuickKind, RematchVote, SeatRecord, SeedUpdate, StartOutcome, Store,
        TableRecord, TableSettings, TableStatus, Visibility,
    },
    table::{
        Tables,
        feeds::{LobbyChange, LobbyMessage, Removal},
    },
};
use std::{future::Future, sync::Arc, time::Duration};
use uuid::Uuid;

/// The alphabet of invite codes: Crockford's base32 (no I, L, O or U).
const INVITE_ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// How many characters an invite code has.
const INVITE_CHARS: usize = 16;

type Result<T> = std::result::Result<T, LobbyError>;

/// The open-table workflow's handle: what each workflow reaches (the store that decides, the
/// table actors and their feeds that hear of it, the settings), built once per server.
#[derive(Clone)]
pub struct Lobby {
    store: Store,
    /// The actors a start loads, and the feeds the lobby's changes are told to.
    tables: Tables,
    /// Test mode (scripted dice), the cap on waiting seats, this process's instance id, the
    /// clocks a view shows.
    config: Arc<Config>,
}

/// A seat's client seed (docs/fairness.md), checked: short enough and free of control
/// characters.
#[derive(Debug, Clone)]
pub struct ClientSeed(String);

impl ClientSeed {
    /// `seed`, if a client seed may be it.
    pub fn new(seed: String) -> Result<Self> {
        if is_valid_client_seed(&seed) { Ok(Self(seed)) } else { Err(LobbyError::InvalidClientSeed) }
    }
}

/// The head of a seat's dice chain (fresh dice, docs/fairness.md), checked: 64 lowercase hex
/// characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceChain(String);

impl DiceChain {
    /// `head`, if a chain's head may be it.
    pub fn new(head: String) -> Result<Self> {
        if is_chain_link(&head) { Ok(Self(head)) } else { Err(LobbyError::InvalidDiceChain) }
    }

    /// An optional head, checked.
    pub fn optional(head: Option<String>) -> Result<Option<Self>> {
        head.map(Self::new).transpose()
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A table as its host asks for it.
#[derive(Debug)]
pub struct TableRequest {
    pub game: GameKind,
    pub seat_count: usize,
    /// The options as given (`null`: the game's defaults).
    pub options: serde_json::Value,
    pub visibility: Visibility,
    pub party: bool,
    /// Every clock of the table ten times the server's; refused at a public table.
    pub long_clock: bool,
    /// Fresh dice; absent: on at a public table, off at a private one.
    pub fresh_dice: Option<bool>,
    pub bot_level: Level,
    /// The seat the host takes.
    pub seat: usize,
    /// The host seat's client seed, unchecked.
    pub client_seed: String,
    /// The host seat's dice chain head.
    pub dice_chain: Option<DiceChain>,
    /// Fixed dice, only on a server in test mode.
    pub dice: Option<Vec<u8>>,
}

/// New settings of an open table; each absent one stays as it is.
#[derive(Debug, Default)]
pub struct Settings {
    pub options: Option<serde_json::Value>,
    pub visibility: Option<Visibility>,
    pub party: Option<bool>,
    pub long_clock: Option<bool>,
    pub fresh_dice: Option<bool>,
    pub bot_level: Option<Level>,
}

/// A quick-play request: the kind of table the caller wants a seat at.
#[derive(Debug)]
pub struct QuickPlayRequest {
    pub game: GameKind,
    pub seat_count: usize,
    /// The options as given (`null`: the game's defaults).
    pub options: serde_json::Value,
    pub party: bool,
    /// The seat's client seed, unchecked.
    pub client_seed: String,
    /// The seat's dice chain head (fresh dice).
    pub dice_chain: Option<DiceChain>,
    /// Fill the empty seats with bots and start after this many seconds; absent: wait for
    /// players.
    pub bots_after_seconds: Option<u64>,
}

/// Where a quick play seated the caller.
#[derive(Debug)]
pub struct QuickSeat {
    /// The table, as it is after the seat (and the start, if the seat filled it).
    pub table: TableRecord,
    /// Whether the table was opened for this request.
    pub opened: bool,
}

/// Where a rematch stands after a vote.
#[derive(Debug)]
pub enum Rematch {
    /// Some seated players have not asked yet.
    Waiting { accepted: Vec<usize>, waiting_for: Vec<usize> },
    /// Every seated player asked: the rematch's table is open (and started).
    Opened {
        table_id: Uuid,
        /// The seats of the finished table's players, who all asked.
        accepted: Vec<usize>,
        /// Whether this vote opened it.
        by_this_vote: bool,
    },
}

impl Lobby {
    pub fn new(store: Store, tables: Tables, config: Arc<Config>) -> Self {
        Self { store, tables, config }
    }

    /// The view of `table` for `viewer` (None: anonymous).
    pub fn view(&self, table: &TableRecord, viewer: Option<Uuid>) -> TableView {
        TableView::of(table, viewer, &self.config.timers)
    }

    /// The view with the live game attached, for a table that has started.
    pub async fn view_with_play(
        &self,
        table: &TableRecord,
        viewer: Option<Uuid>,
    ) -> std::result::Result<TableView, RouteError> {
        let mut view = self.view(table, viewer);
        if table.started_at.is_some()
            && let Some(handle) = self.tables.get(table.id).await?
        {
            let play = handle.view(viewer).await?;
            for (seat, reveals) in view.seats.iter_mut().zip(&play.reveals) {
                seat.reveals = *reveals;
            }
            view.play = Some(play);
        }
        Ok(view)
    }

    /// Opens a table for `host`, seated where it asked.
    pub async fn create(&self, host: Uuid, ask: TableRequest) -> Result<TableRecord> {
        self.create_as(Uuid::new_v4(), host, ask).await
    }

    /// What [`create`](Self::create) would refuse `ask` for, short of the host's room and
    /// seats (which may change until it is created): for a table asked for now and opened
    /// later (a challenge's).
    pub fn check_request(&self, ask: &TableRequest) -> Result<()> {
        options_for(ask.game, &ask.options, ask.seat_count, ask.visibility)?;
        check_long_clock(ask.long_clock, ask.visibility)?;
        if ask.seat >= ask.seat_count {
            return Err(LobbyError::NoSuchSeat { seat_count: ask.seat_count });
        }
        if !is_valid_client_seed(&ask.client_seed) {
            return Err(LobbyError::InvalidClientSeed);
        }
        if let Some(dice) = &ask.dice {
            if !self.config.test_mode {
                return Err(LobbyError::ScriptedDiceDisabled);
            }
            if dice.len() > MAX_DICE_SCRIPT || dice.iter().any(|d| !(1..=6).contains(d)) {
                return Err(LobbyError::InvalidDice);
            }
        }
        let fresh_dice = ask.fresh_dice.unwrap_or(ask.visibility == Visibility::Public);
        if ask.dice_chain.is_some() && !fresh_dice {
            return Err(LobbyError::FreshDiceOff);
        }
        Ok(())
    }

    /// Opens table `id` for `host` (an id chosen beforehand: a challenge's first acceptance
    /// claims it before the table exists), seated where it asked.
    pub async fn create_as(&self, id: Uuid, host: Uuid, ask: TableRequest) -> Result<TableRecord> {
        self.check_request(&ask)?;
        let options = options_for(ask.game, &ask.options, ask.seat_count, ask.visibility)?;
        let ClientSeed(client_seed) = ClientSeed::new(ask.client_seed)?;
        let fresh_dice = ask.fresh_dice.unwrap_or(ask.visibility == Visibility::Public);
        self.check_room_to_host(host).await?;
        let new = NewTable {
            id,
            visibility: ask.visibility,
            party: ask.party,
            long_clock: ask.long_clock,
            fresh_dice,
            host_dice_chain: ask.dice_chain.map(|c| c.0),
            bot_level: ask.bot_level,
            invite_code: (ask.visibility == Visibility::Private).then(new_invite_code),
            host_client_seed: client_seed,
            dice_script: ask.dice,
            ..NewTable::new(ask.game, options, ask.seat_count, host)
        };
        let table = self.store.create_table(&new, ask.seat, self.config.max_waiting_seats_per_player).await?;
        tracing::info!(table = %table.id, game = %table.game.as_str(), "table created");
        // Its log begins with the host's seat (seq 1).
        self.tell_lobby(&table, LobbyChange::Opened, 1);
        Ok(table)
    }

    /// The host of an open `table` changes its settings.
    pub async fn update(&self, table: TableRecord, player: Uuid, change: Settings) -> Result<TableRecord> {
        if table.host_id != player {
            return Err(LobbyError::NotHostToChange);
        }
        if table.status != TableStatus::Open {
            return Err(LobbyError::AlreadyStarted);
        }
        let (id, game) = (table.id, table.game);
        let visibility = change.visibility.unwrap_or(table.visibility);
        // Checked again when only the visibility changes: the options must suit the new one.
        let options = options_for(
            game,
            change.options.as_ref().unwrap_or(&table.options),
            table.seat_count,
            visibility,
        )?;
        let long_clock = change.long_clock.unwrap_or(table.long_clock);
        check_long_clock(long_clock, visibility)?;
        let invite_code = match visibility {
            Visibility::Private => Some(table.invite_code.clone().unwrap_or_else(new_invite_code)),
            Visibility::Public => None,
        };
        let settings = TableSettings {
            options,
            visibility,
            party: change.party.unwrap_or(table.party),
            long_clock,
            fresh_dice: change.fresh_dice.unwrap_or(table.fresh_dice),
            bot_level: change.bot_level.unwrap_or(table.bot_level),
            invite_code,
        };
        let was = table.visibility;
        let updated = self.store.update_table_settings(id, &settings);
        let Some(entries) = updated.await? else {
            return Err(LobbyError::AlreadyStarted);
        };
        self.tell_table(id, &entries);
        if visibility == Visibility::Private {
            // Its sockets look at it again: who is no longer allowed to watch it stops.
            self.tables.feeds().close_table(id);
        }
        let table = self.table(id).await?;
        let seq = last_seq(&entries, 0);
        match (was, visibility) {
            (Visibility::Public, Visibility::Private) => self.tell_removed(id, Removal::Private, seq),
            (Visibility::Private, _) => self.tell_lobby(&table, LobbyChange::Opened, seq),
            (Visibility::Public, _) => self.tell_lobby(&table, LobbyChange::Settings, seq),
        }
        Ok(table)
    }

    /// `player` takes a seat at an open `table`: `seat`, or the first free one.
    pub async fn join(
        &self,
        table: TableRecord,
        player: Uuid,
        seat: Option<usize>,
        ClientSeed(client_seed): ClientSeed,
        dice_chain: Option<DiceChain>,
    ) -> Result<TableRecord> {
        if table.seat_of(player).is_some() {
            return Err(LobbyError::AlreadySeated);
        }
        if table.status != TableStatus::Open {
            return Err(LobbyError::NotTakingPlayers);
        }
        if dice_chain.is_some() && !table.fresh_dice {
            return Err(LobbyError::FreshDiceOff);
        }
        let dice_chain = dice_chain.map(|c| c.0);
        let free = |s: &&SeatRecord| s.player_id.is_none() && s.controller == Controller::Human;
        let seat = match seat {
            Some(seat) if seat >= table.seat_count => {
                return Err(LobbyError::NoSuchSeat { seat_count: table.seat_count });
            }
            Some(seat) => seat,
            None => table.seats.iter().find(free).map(|s| s.seat).ok_or(LobbyError::TableFull)?,
        };
        let id = table.id;
        let taken = self.store.take_seat(
            id,
            seat,
            player,
            &client_seed,
            dice_chain.as_deref(),
            self.config.max_waiting_seats_per_player,
        );
        let Some(entries) = taken.await? else {
            return Err(LobbyError::SeatTaken(seat));
        };
        self.tell_table(id, &entries);
        let table = self.table(id).await?;
        self.tell_lobby(&table, LobbyChange::Seats, last_seq(&entries, 0));
        Ok(table)
    }

    /// `player` sets its client seed at open table `id` until the start, when the table's is
    /// fixed from them.
    pub async fn set_client_seed(
        &self,
        id: Uuid,
        player: Uuid,
        ClientSeed(client_seed): ClientSeed,
    ) -> Result<TableRecord> {
        match self.store.set_client_seed(id, player, &client_seed).await? {
            SeedUpdate::Set => {}
            SeedUpdate::NotSeated => return Err(LobbyError::NotSeated),
            SeedUpdate::NotOpen => return Err(LobbyError::SeedsFixed),
        }
        self.table(id).await
    }

    /// `player` commits its seat at open `table` to the dice chain `head` (fresh dice), until
    /// the start; the start entry fixes it.
    pub async fn set_dice_chain(
        &self,
        table: &TableRecord,
        player: Uuid,
        head: DiceChain,
    ) -> Result<TableRecord> {
        if table.status != TableStatus::Open {
            return Err(LobbyError::SeedsFixed);
        }
        if !table.fresh_dice {
            return Err(LobbyError::FreshDiceOff);
        }
        match self.store.set_dice_chain(table.id, player, &head.0).await? {
            SeedUpdate::Set => {}
            SeedUpdate::NotSeated => return Err(LobbyError::NotSeated),
            SeedUpdate::NotOpen => return Err(LobbyError::SeedsFixed),
        }
        self.table(table.id).await
    }

    /// `player` leaves its seat at an open `table`; the table closes once nobody is seated.
    pub async fn leave(&self, table: TableRecord, player: Uuid) -> Result<TableRecord> {
        if table.seat_of(player).is_none() {
            return Err(LobbyError::NotSeated);
        }
        if table.status != TableStatus::Open {
            return Err(LobbyError::SeatsKept);
        }
        let id = table.id;
        let Some(entries) = self.store.leave_seat(id, player).await? else {
            return Err(LobbyError::SeatsKept);
        };
        self.tell_table(id, &entries);
        let table = self.table(id).await?;
        let seq = last_seq(&entries, 0);
        if table.status == TableStatus::Closed {
            self.tables.feeds().close_table(id);
            if table.visibility == Visibility::Public {
                self.tell_removed(id, Removal::Closed, seq);
            }
        } else {
            self.tell_lobby(&table, LobbyChange::Seats, seq);
        }
        Ok(table)
    }

    /// The host `player` starts `table` (its empty seats to bots if `fill_with_bots`).
    pub async fn start(&self, table: TableRecord, player: Uuid, fill_with_bots: bool) -> Result<TableRecord> {
        // Checked again where it counts, under the table's lock: a player may leave meanwhile.
        if table.host_id != player {
            return Err(LobbyError::NotHostToStart);
        }
        let id = table.id;
        let (outcome, bots) =
            self.store.start_table(id, player, &self.config.instance_id, fill_with_bots).await?;
        match outcome {
            StartOutcome::Started => {}
            StartOutcome::NotOpen => return Err(LobbyError::AlreadyStarted),
            StartOutcome::NotHost => return Err(LobbyError::NotHostToStart),
            StartOutcome::SeatsEmpty(empty) => return Err(LobbyError::SeatsEmpty(empty)),
        }
        self.announce_start(id, &bots).await?;
        self.table(id).await
    }

    /// Seats `player` at the oldest waiting quick-play table of the same game, seat count,
    /// options, clock and wait for bots, or at a new one if none waits (the same seat again if
    /// the player already waits at one). The table starts when its last seat is taken.
    pub async fn quick_play(&self, player: Uuid, ask: QuickPlayRequest) -> Result<QuickSeat> {
        let options = options_for(ask.game, &ask.options, ask.seat_count, Visibility::Public)?;
        let ClientSeed(client_seed) = ClientSeed::new(ask.client_seed)?;
        if ask.bots_after_seconds.is_some_and(|s| s > MAX_BOTS_AFTER_SECONDS) {
            return Err(LobbyError::WaitTooLong);
        }
        self.check_room_to_host(player).await?;
        let kind = QuickKind {
            game: ask.game,
            seat_count: ask.seat_count,
            options: options.clone(),
            party: ask.party,
            bots_after_seconds: ask.bots_after_seconds,
        };
        let new = NewTable {
            party: ask.party,
            host_client_seed: client_seed.clone(),
            quick: Some(kind.quick_play()),
            ..NewTable::new(ask.game, options, ask.seat_count, player)
        };
        let max_waiting = self.config.max_waiting_seats_per_player;
        let dice_chain = ask.dice_chain.map(|c| c.0);
        let new = NewTable { host_dice_chain: dice_chain.clone(), ..new };
        let seated = self
            .store
            .quick_play(&kind, player, &client_seed, dice_chain.as_deref(), &new, max_waiting)
            .await?;
        let id = seated.table_id;
        let mut table = self.table(id).await?;
        if !seated.already {
            self.tell_table(id, &seated.entries);
            let change = if seated.opened { LobbyChange::Opened } else { LobbyChange::Seats };
            self.tell_lobby(&table, change, last_seq(&seated.entries, 1));
        }
        if seated.full && self.start_if_open(id, table.host_id, false).await? {
            table = self.table(id).await?;
        }
        Ok(QuickSeat { table, opened: seated.opened })
    }

    /// A seated player of a finished `table` asks for a rematch. When every seated player has,
    /// a table with the same seats, game, options and settings opens and starts at once (bots
    /// again in the bots' seats). The last vote is refused as a creation is while the host has
    /// no room for the table.
    pub async fn rematch(
        &self,
        table: TableRecord,
        player: Uuid,
        dice_chain: Option<DiceChain>,
    ) -> Result<Rematch> {
        if table.status != TableStatus::Finished {
            return Err(LobbyError::GameNotOver);
        }
        if dice_chain.is_some() && !table.fresh_dice {
            return Err(LobbyError::FreshDiceOff);
        }
        let new = NewTable {
            visibility: table.visibility,
            party: table.party,
            long_clock: table.long_clock,
            fresh_dice: table.fresh_dice,
            bot_level: table.bot_level,
            invite_code: (table.visibility == Visibility::Private).then(new_invite_code),
            ..NewTable::new(table.game, table.options.clone(), table.seat_count, table.host_id)
        };
        let chain = dice_chain.as_ref().map(DiceChain::as_str);
        match self.store.vote_rematch(table.id, player, chain, &new, MAX_OPEN_TABLES_PER_HOST).await? {
            RematchVote::NotFinished => Err(LobbyError::GameNotOver),
            RematchVote::NotSeated => Err(LobbyError::NotAPlayer),
            RematchVote::HostHasNoRoom => Err(LobbyError::NoRoomForRematch),
            RematchVote::Waiting { accepted, waiting_for } => Ok(Rematch::Waiting { accepted, waiting_for }),
            RematchVote::Opened { table_id, by_this_vote, entries } => {
                if by_this_vote {
                    self.tell_table(table_id, &entries);
                    let opened = self.table(table_id).await?;
                    self.tell_lobby(&opened, LobbyChange::Opened, last_seq(&entries, 1));
                    self.start_if_open(table_id, table.host_id, true).await?;
                }
                let accepted = table.seats.iter().filter(|s| s.player_id.is_some()).map(|s| s.seat).collect();
                Ok(Rematch::Opened { table_id, accepted, by_this_vote })
            }
        }
    }

    /// Where the rematch of the finished `table` stands, as a vote would say, without voting.
    pub async fn rematch_standing(&self, table: &TableRecord) -> Result<Rematch> {
        if table.status != TableStatus::Finished {
            return Err(LobbyError::GameNotOver);
        }
        let seated = table.seats.iter().filter_map(|s| Some((s.seat, s.player_id?)));
        if let Some(table_id) = table.rematch_id {
            return Ok(Rematch::Opened {
                table_id,
                accepted: seated.map(|(seat, _)| seat).collect(),
                by_this_vote: false,
            });
        }
        let voters = self.store.rematch_voters(table.id).await?;
        let (accepted, waiting_for): (Vec<_>, Vec<_>) =
            seated.partition(|(_, player)| voters.contains(player));
        let seats = |v: Vec<(usize, Uuid)>| v.into_iter().map(|(seat, _)| seat).collect();
        Ok(Rematch::Waiting { accepted: seats(accepted), waiting_for: seats(waiting_for) })
    }

    /// Fills the quick-play tables whose wait for players is over with bots and starts them,
    /// every second, until `stopped` completes. Every process does it; a table's start is
    /// decided under its lock, so each starts once.
    pub async fn fill_waiting_tables(self, stopped: impl Future<Output = ()>) {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tokio::pin!(stopped);
        loop {
            tokio::select! {
                () = &mut stopped => return,
                _ = tick.tick() => {}
            }
            let due = match self.store.quick_tables_due(crate::clock::now_millis(), 50).await {
                Ok(due) => due,
                Err(e) => {
                    tracing::warn!(error = %e, "could not list the quick-play tables to fill with bots");
                    continue;
                }
            };
            for (id, host) in due {
                if let Err(e) = self.start_if_open(id, host, true).await {
                    tracing::warn!(table = %id, error = ?e, "could not fill a quick-play table with bots");
                }
            }
        }
    }

    /// Refused if `player` already hosts [`MAX_OPEN_TABLES_PER_HOST`] unfinished tables.
    async fn check_room_to_host(&self, player: Uuid) -> Result<()> {
        if self.store.count_open_tables_hosted(player).await? >= MAX_OPEN_TABLES_PER_HOST {
            return Err(LobbyError::NoRoomToHost);
        }
        Ok(())
    }

    /// Starts a quick-play table (full, or `fill_with_bots` once its wait is over) if it is
    /// still open; another request or process may have started it first.
    async fn start_if_open(&self, id: Uuid, host: Uuid, fill_with_bots: bool) -> Result<bool> {
        let (outcome, bots) =
            self.store.start_table(id, host, &self.config.instance_id, fill_with_bots).await?;
        if outcome != StartOutcome::Started {
            return Ok(false);
        }
        self.announce_start(id, &bots).await?;
        Ok(true)
    }

    /// What follows a start's commit: the bots' seats to the table's sockets (which then follow
    /// the actor), the lobby, and the actor itself, loaded here (the opening throws, then bots
    /// and clocks).
    async fn announce_start(&self, id: Uuid, bots: &[LogEntry]) -> Result<()> {
        tracing::info!(table = %id, "table started");
        self.tell_table(id, bots);
        self.tables.feeds().close_table(id);
        // The lobby hears of the start before the actor runs: before it can hear of the finish.
        let table = self.table(id).await?;
        if table.visibility == Visibility::Public {
            let seq = match bots.last() {
                Some(bot) => bot.seq,
                None => self.store.latest_seqs(&[id]).await?.get(&id).copied().unwrap_or(0),
            };
            self.tell_lobby(&table, LobbyChange::Started, seq);
        }
        self.tables.get(id).await?;
        Ok(())
    }

    /// The table `id` as the store has it now.
    /// Table `id`, as the store holds it now.
    pub async fn table(&self, id: Uuid) -> Result<TableRecord> {
        self.store.table(id).await?.ok_or(LobbyError::NoSuchTable)
    }

    /// Tells an open table's sockets of the entries a lobby change just committed.
    fn tell_table(&self, id: Uuid, entries: &[LogEntry]) {
        self.tables.feeds().publish_entries(id, entries);
    }

    /// Tells the lobby that a public `table` appeared or changed (private ones: nothing).
    fn tell_lobby(&self, table: &TableRecord, change: LobbyChange, seq: i64) {
        if table.visibility == Visibility::Public {
            let view = self.view(table, None);
            self.tables.feeds().publish_lobby(&LobbyMessage::Table { change, seq, table: &view });
        }
    }

    /// Tells the lobby that a table it listed is gone.
    fn tell_removed(&self, table_id: Uuid, reason: Removal, seq: i64) {
        self.tables.feeds().publish_lobby::<()>(&LobbyMessage::Removed { table_id, reason, seq });
    }
}

/// The latest `seq` among `entries`, else `otherwise`.
fn last_seq(entries: &[LogEntry], otherwise: i64) -> i64 {
    entries.last().map_or(otherwise, |e| e.seq)
}

/// The normalized options of a table of `seats` at `visibility`.
fn options_for(
    game: GameKind,
    options: &serde_json::Value,
    seats: usize,
    visibility: Visibility,
) -> Result<serde_json::Value> {
    game.normalize_options(options, seats)
        .and_then(|options| match visibility {
            Visibility::Public => game.check_public(&options).map(|()| options),
            Visibility::Private => Ok(options),
        })
        .map_err(LobbyError::Options)
}

/// Refused if a table at `visibility` would have a long clock: a public table's players are
/// strangers, who did not agree to wait ten times as long (a private table's invited players
/// did).
fn check_long_clock(long_clock: bool, visibility: Visibility) -> Result<()> {
    match (long_clock, visibility) {
        (true, Visibility::Public) => Err(LobbyError::LongClockPrivateOnly),
        _ => Ok(()),
    }
}

/// An invite code: 16 characters of Crockford base32, 80 bits from the OS RNG.
fn new_invite_code() -> String {
    let mut bytes = [0u8; INVITE_CHARS];
    rand::TryRngCore::try_fill_bytes(&mut rand::rngs::OsRng, &mut bytes)
        .expect("the operating system's RNG is available");
    bytes.iter().map(|b| INVITE_ALPHABET[(b & 31) as usize] as char).collect()
}

/// `code` in the form invite codes are stored in (upper case), if it could be one at all: what
/// cannot be an invite code never reaches the database (PostgreSQL refuses a NUL in text).
pub fn invite_code_form(code: &str) -> Option<String> {
    let code = code.to_ascii_uppercase();
    (code.len() == INVITE_CHARS && code.bytes().all(|b| INVITE_ALPHABET.contains(&b))).then_some(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invite_code_reads_back_in_any_case_and_nothing_else_does() {
        let code = new_invite_code();
        assert_eq!(invite_code_form(&code.to_ascii_lowercase()), Some(code.clone()));
        assert_eq!(invite_code_form(&code[1..]), None);
        assert_eq!(invite_code_form("IIIIIIIIIIIIIIII"), None);
        assert_eq!(invite_code_form("0000000000000\0AB"), None);
    }
}
