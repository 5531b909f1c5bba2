//! Abuse limits: a token bucket per (scope, client) for rates, and counted slots for
//! connections.
//!
//! Each bucket holds up to `per_minute` tokens and refills continuously. The map is bounded:
//! when it reaches [`MAX_KEYS`], buckets that have refilled completely (idle clients) are
//! dropped; if all are busy, the oldest-refilled half goes, which can only make limits laxer
//! for those clients, never block anyone wrongly.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::Mutex,
    time::{Duration, Instant},
};
use uuid::Uuid;

/// Most clients tracked at once.
pub const MAX_KEYS: usize = 100_000;

#[derive(Debug, Default)]
pub struct RateLimiter {
    buckets: Mutex<HashMap<(&'static str, String), Bucket>>,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl RateLimiter {
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes one token from `key`'s bucket in `scope` (which allows `per_minute`), or says how
    /// long until one is free.
    pub fn check(&self, scope: &'static str, key: &str, per_minute: u32) -> Result<(), Duration> {
        self.check_at(scope, key, per_minute, Instant::now())
    }

    fn check_at(
        &self,
        scope: &'static str,
        key: &str,
        per_minute: u32,
        now: Instant,
    ) -> Result<(), Duration> {
        let per_minute = per_minute.max(1) as f64;
        let rate = per_minute / 60.0;
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= MAX_KEYS {
            let full = per_minute;
            buckets.retain(|_, b| b.tokens + now.duration_since(b.at).as_secs_f64() * rate < full);
            if buckets.len() >= MAX_KEYS {
                let mut ages: Vec<Instant> = buckets.values().map(|b| b.at).collect();
                ages.sort();
                let cut = ages[ages.len() / 2];
                buckets.retain(|_, b| b.at > cut);
            }
        }
        let bucket =
            buckets.entry((scope, key.to_string())).or_insert(Bucket { tokens: per_minute, at: now });
        bucket.tokens = (bucket.tokens + now.duration_since(bucket.at).as_secs_f64() * rate).min(per_minute);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / rate))
        }
    }
}

/// Counted slots (open connections per player, spectators per table): a slot is held as long
/// as its guard lives.
#[derive(Debug, Default)]
pub struct Slots {
    counts: Mutex<HashMap<SlotKey, usize>>,
}

/// What a slot counts against. (Typed rather than text: every connection and every WebSocket
/// holds its keys for as long as it is open.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SlotKey {
    /// Every connection to the server.
    Connections,
    /// The connections from one client address.
    Address(IpAddr),
    /// One player's WebSockets, tables' and lobby's together.
    Player(Uuid),
    /// One table's anonymous spectators.
    Spectators(Uuid),
    /// The anonymous lobby sockets of one client address.
    Lobby(IpAddr),
}

/// One held slot; dropping it frees the slot.
#[derive(Debug)]
pub struct SlotGuard {
    slots: std::sync::Arc<Slots>,
    key: SlotKey,
}

impl Slots {
    /// Takes one of `key`'s `max` slots, if one is free.
    pub fn acquire(self: &std::sync::Arc<Self>, key: SlotKey, max: usize) -> Option<SlotGuard> {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let n = counts.entry(key).or_insert(0);
        if *n >= max {
            return None;
        }
        *n += 1;
        Some(SlotGuard { slots: self.clone(), key })
    }
}

impl Slots {
    /// The players holding a WebSocket here now (presence's heartbeat).
    pub fn players(&self) -> Vec<Uuid> {
        let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts.keys().filter_map(|k| if let SlotKey::Player(p) = k { Some(*p) } else { None }).collect()
    }

    /// Whether `player` holds a WebSocket here now.
    pub fn holds_player(&self, player: Uuid) -> bool {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).contains_key(&SlotKey::Player(player))
    }
}

impl Drop for SlotGuard {
    fn drop(&mut self) {
        let mut counts = self.slots.counts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = counts.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_allowed_then_refused_until_refilled() {
        let limiter = RateLimiter::new();
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(limiter.check_at("players", "1.2.3.4", 3, t0).is_ok());
        }
        let wait = limiter.check_at("players", "1.2.3.4", 3, t0).unwrap_err();
        assert!(wait > Duration::from_secs(19) && wait <= Duration::from_secs(20));
        // Other clients and other scopes have their own buckets.
        assert!(limiter.check_at("players", "5.6.7.8", 3, t0).is_ok());
        assert!(limiter.check_at("tables", "1.2.3.4", 3, t0).is_ok());
        assert!(limiter.check_at("players", "1.2.3.4", 3, t0 + Duration::from_secs(20)).is_ok());
    }

    #[test]
    fn the_players_holding_sockets_are_those_with_a_slot_held() {
        let slots = std::sync::Arc::new(Slots::default());
        let (ann, bob) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let held = slots.acquire(SlotKey::Player(ann), 2).unwrap();
        let _spectating = slots.acquire(SlotKey::Spectators(bob), 2).unwrap();
        assert_eq!(slots.players(), [ann]);
        assert!(slots.holds_player(ann) && !slots.holds_player(bob));
        drop(held);
        assert!(slots.players().is_empty() && !slots.holds_player(ann));
    }

    #[test]
    fn slots_are_freed_when_their_guard_drops() {
        let slots = std::sync::Arc::new(Slots::default());
        let (p, q) = (SlotKey::Player(Uuid::from_u128(1)), SlotKey::Spectators(Uuid::from_u128(1)));
        let a = slots.acquire(p, 2).unwrap();
        let _b = slots.acquire(p, 2).unwrap();
        assert!(slots.acquire(p, 2).is_none());
        assert!(slots.acquire(q, 2).is_some());
        drop(a);
        assert!(slots.acquire(p, 2).is_some());
    }
}
