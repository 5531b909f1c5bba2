//! The challenge workflow (docs/social.md, "Challenges"), below the HTTP edge: a challenge is
//! written, then told to the players it names; its first acceptance opens the table through
//! the lobby (private, the challenger hosting and seated), later ones join it, and the table
//! starts once every seat is taken; a background task expires the challenges whose time is up.
//!
//! Tables are only ever opened, joined and started through [`Lobby`], never written here.

use super::{ChallengeEvent, PlayerRef, SocialMessage};
use crate::{
    clock::{now_millis, rfc3339},
    lobby::{ClientSeed, DiceChain, Lobby, LobbyError, TableRequest},
    store::{
        Acceptance, ChallengeRecord, Controller, MAX_INVITEES, NewChallenge, Player, Store, StoreError,
        TableRecord, TableStatus,
    },
    table::Tables,
};
use serde::Serialize;
use std::{future::Future, time::Duration};
use uuid::Uuid;

/// How long a later acceptance waits for the table the first one is opening.
const TABLE_WAIT: Duration = Duration::from_secs(5);
/// How often an acceptance looks for a free seat again after another took the one it chose
/// (each time one more is taken, so a table's seats bound it).
const MAX_SEAT_TRIES: usize = 8;

/// Why a challenge workflow refused.
#[derive(Debug, thiserror::Error)]
pub enum ChallengeError {
    /// No such challenge, or one that does not name the caller.
    #[error("no such challenge")]
    NotFound,
    /// An invitee who is no player.
    #[error("no player has id {0}")]
    NoSuchPlayer(Uuid),
    /// The invitees are not one to five other players, or the table has too few seats for
    /// them.
    #[error("{0}")]
    Invalid(String),
    /// A block stands between the challenger and an invitee.
    #[error("one of you has blocked the other")]
    Blocked,
    #[error("you have {0} pending challenges, the most a player may; wait for answers or withdraw one")]
    TooMany(i64),
    /// Answered, withdrawn or expired (or this invitee answered already).
    #[error("the challenge is not pending: it was answered, withdrawn or has expired")]
    NotPending,
    #[error(transparent)]
    Lobby(#[from] LobbyError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

type Result<T> = std::result::Result<T, ChallengeError>;

/// A challenge as clients see it.
#[derive(Debug, Clone, Serialize)]
pub struct ChallengeView {
    pub id: Uuid,
    pub from: PlayerRef,
    pub to: Vec<InviteeView>,
    /// The table's settings as the challenger sent them.
    pub table: serde_json::Value,
    pub table_id: Option<Uuid>,
    pub status: String,
    pub created_at: String,
    pub expires_at: String,
}

/// An invitee and their answer.
#[derive(Debug, Clone, Serialize)]
pub struct InviteeView {
    pub player: PlayerRef,
    pub answer: String,
}

impl ChallengeView {
    pub fn of(c: &ChallengeRecord) -> Self {
        Self {
            id: c.id,
            from: PlayerRef::from(&c.from),
            to: c
                .to
                .iter()
                .map(|(p, answer)| InviteeView {
                    player: PlayerRef::from(p),
                    // Being seated is not an answer yet.
                    answer: if answer == "accepting" { "pending".into() } else { answer.clone() },
                })
                .collect(),
            table: c.settings.clone(),
            table_id: c.table_id,
            status: c.status.clone(),
            created_at: rfc3339(c.created_at),
            expires_at: rfc3339(c.expires_at),
        }
    }
}

/// A challenge as asked for.
#[derive(Debug)]
pub struct ChallengeAsk {
    pub to: Vec<Uuid>,
    /// The table's settings as sent (stored, and shown, as they are).
    pub settings: serde_json::Value,
    /// The same, read: the table the first acceptance opens (private).
    pub request: TableRequest,
    pub expires_in: Duration,
}

/// The challenge workflow's handle, built once per server.
#[derive(Clone)]
pub struct Challenges {
    store: Store,
    lobby: Lobby,
    /// Whose feeds the challenges' messages go out on.
    tables: Tables,
}

impl Challenges {
    pub fn new(store: Store, lobby: Lobby, tables: Tables) -> Self {
        Self { store, lobby, tables }
    }

    /// `from` challenges `ask.to`.
    pub async fn create(&self, from: &Player, ask: ChallengeAsk) -> Result<ChallengeRecord> {
        let mut seen = std::collections::HashSet::new();
        if ask.to.is_empty() || ask.to.len() > MAX_INVITEES {
            return Err(ChallengeError::Invalid(format!("invite 1 to {MAX_INVITEES} players")));
        }
        if ask.to.iter().any(|p| *p == from.id || !seen.insert(*p)) {
            return Err(ChallengeError::Invalid("invite other players, each once".into()));
        }
        if ask.request.seat_count < 1 + ask.to.len() {
            return Err(ChallengeError::Invalid(format!(
                "the table needs a seat for you and each invitee: at least {}",
                1 + ask.to.len()
            )));
        }
        self.lobby.check_request(&ask.request)?;
        for &p in &ask.to {
            if self.store.player(p).await?.is_none() {
                return Err(ChallengeError::NoSuchPlayer(p));
            }
        }
        let expires_at = now_millis() + ask.expires_in.as_millis() as i64;
        let id = match self.store.create_challenge(from.id, &ask.to, &ask.settings, expires_at).await? {
            NewChallenge::Created(id) => id,
            NewChallenge::Blocked(_) => return Err(ChallengeError::Blocked),
            NewChallenge::TooMany => {
                return Err(ChallengeError::TooMany(crate::store::MAX_PENDING_CHALLENGES));
            }
        };
        let challenge = self.named(id, from.id).await?;
        self.tell(ChallengeEvent::Received, &challenge);
        Ok(challenge)
    }

    /// Challenge `id`, if it names `player`.
    pub async fn named(&self, id: Uuid, player: Uuid) -> Result<ChallengeRecord> {
        match self.store.challenge(id).await? {
            Some(c) if c.players().contains(&player) => Ok(c),
            _ => Err(ChallengeError::NotFound),
        }
    }

    /// Invitee `player` accepts `challenge` (`request`: its settings, read): the table, opened
    /// by this acceptance or an earlier one, with `player` seated; started once full.
    pub async fn accept(
        &self,
        challenge: &ChallengeRecord,
        player: Uuid,
        request: TableRequest,
        client_seed: ClientSeed,
        dice_chain: Option<DiceChain>,
    ) -> Result<(ChallengeRecord, TableRecord)> {
        if !challenge.invites(player) {
            return Err(ChallengeError::NotFound);
        }
        let id = challenge.id;
        let (table_id, opened) = match self.store.accept_challenge(id, player, Uuid::new_v4()).await? {
            Acceptance::NotPending => return Err(ChallengeError::NotPending),
            Acceptance::Open(table_id) => (table_id, true),
            Acceptance::Join(table_id) => (table_id, false),
        };
        let seated = async {
            let mut table = if opened {
                self.lobby.create_as(table_id, challenge.from.id, request).await?
            } else {
                self.wait_for_table(table_id).await?
            };
            // The first free seat, looked for again when another acceptance took it meanwhile.
            for _ in 0..MAX_SEAT_TRIES {
                match self.lobby.join(table, player, None, client_seed.clone(), dice_chain.clone()).await {
                    Err(LobbyError::SeatTaken(_)) => table = self.lobby.table(table_id).await?,
                    Err(LobbyError::AlreadySeated) => return self.lobby.table(table_id).await,
                    other => return other,
                }
            }
            Err(LobbyError::TableFull)
        };
        let table = match seated.await {
            Ok(table) => table,
            Err(e) => {
                self.store.undo_acceptance(id, player, opened).await?;
                return Err(e.into());
            }
        };
        self.store.confirm_acceptance(id, player).await?;
        let full = !table.seats.iter().any(|s| s.player_id.is_none() && s.controller == Controller::Human);
        let table = if full && table.status == TableStatus::Open {
            match self.lobby.start(table, challenge.from.id, false).await {
                Ok(table) => table,
                // Another acceptance started it first.
                Err(LobbyError::AlreadyStarted) => self.lobby.table(table_id).await?,
                Err(e) => return Err(e.into()),
            }
        } else {
            table
        };
        let event = match self.store.settle_challenge(id).await? {
            Some(_) => ChallengeEvent::Accepted,
            None => ChallengeEvent::Answered,
        };
        let challenge = self.named(id, player).await?;
        self.tell(event, &challenge);
        Ok((challenge, table))
    }

    /// The table a first acceptance is opening, once it is there.
    async fn wait_for_table(&self, id: Uuid) -> std::result::Result<TableRecord, LobbyError> {
        let until = tokio::time::Instant::now() + TABLE_WAIT;
        loop {
            match self.lobby.table(id).await {
                Err(LobbyError::NoSuchTable) if tokio::time::Instant::now() < until => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                other => return other,
            }
        }
    }

    /// Invitee `player` declines `challenge`.
    pub async fn decline(&self, challenge: &ChallengeRecord, player: Uuid) -> Result<ChallengeRecord> {
        if !challenge.invites(player) {
            return Err(ChallengeError::NotFound);
        }
        if !self.store.decline_challenge(challenge.id, player).await? {
            return Err(ChallengeError::NotPending);
        }
        let event = match self.store.settle_challenge(challenge.id).await?.as_deref() {
            Some("declined") => ChallengeEvent::Declined,
            Some(_) => ChallengeEvent::Accepted,
            None => ChallengeEvent::Answered,
        };
        let challenge = self.named(challenge.id, player).await?;
        self.tell(event, &challenge);
        Ok(challenge)
    }

    /// The challenger withdraws `challenge`.
    pub async fn withdraw(&self, challenge: &ChallengeRecord, player: Uuid) -> Result<()> {
        if challenge.from.id != player {
            return Err(ChallengeError::NotFound);
        }
        if !self.store.withdraw_challenge(challenge.id, player).await? {
            return Err(ChallengeError::NotPending);
        }
        self.tell_of(ChallengeEvent::Cancelled, &[challenge.id]).await;
        Ok(())
    }

    /// Tells the players named by each of `ids` (just changed) of `event`.
    pub async fn tell_of(&self, event: ChallengeEvent, ids: &[Uuid]) {
        for &id in ids {
            match self.store.challenge(id).await {
                Ok(Some(challenge)) => self.tell(event, &challenge),
                Ok(None) => {}
                Err(e) => {
                    tracing::warn!(challenge = %id, error = %e, "could not read a challenge to tell of it")
                }
            }
        }
    }

    /// Tells the players `challenge` names of `event`.
    fn tell(&self, event: ChallengeEvent, challenge: &ChallengeRecord) {
        let view = ChallengeView::of(challenge);
        let message: SocialMessage<'_, ChallengeView, ()> =
            SocialMessage::Challenge { event, challenge: &view };
        self.tables.feeds().publish_for_players(&challenge.players(), &message);
    }

    /// Expires the challenges whose time is up, every `every`, until `stopped` completes, and
    /// tells their players. Every process does it; each challenge is expired by one.
    pub async fn expire_due(self, every: Duration, stopped: impl Future<Output = ()>) {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tokio::pin!(stopped);
        loop {
            tokio::select! {
                () = &mut stopped => return,
                _ = tick.tick() => {}
            }
            match self.store.expire_challenges(now_millis(), 100).await {
                Ok(ids) => self.tell_of(ChallengeEvent::Expired, &ids).await,
                Err(e) => tracing::warn!(error = %e, "could not expire the challenges whose time is up"),
            }
        }
    }
}
