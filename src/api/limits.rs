//! Rate limits: a token bucket per (scope, client).
//!
//! Each bucket holds up to `per_minute` tokens and refills continuously. The map is bounded:
//! when it reaches [`MAX_KEYS`], buckets that have refilled completely (idle clients) are
//! dropped; if all are busy, the oldest-refilled half goes, which can only make limits laxer
//! for those clients, never block anyone wrongly.

use std::{
    collections::HashMap,
    sync::Mutex,
    time::{Duration, Instant},
};

/// Most clients tracked at once.
pub const MAX_KEYS: usize = 100_000;

#[derive(Debug)]
pub struct RateLimiter {
    per_minute: f64,
    buckets: Mutex<HashMap<(&'static str, String), Bucket>>,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl RateLimiter {
    pub fn new(per_minute: u32) -> Self {
        Self { per_minute: per_minute.max(1) as f64, buckets: Mutex::new(HashMap::new()) }
    }

    /// Takes one token from `key`'s bucket in `scope`, or says how long until one is free.
    pub fn check(&self, scope: &'static str, key: &str) -> Result<(), Duration> {
        self.check_at(scope, key, Instant::now())
    }

    fn check_at(&self, scope: &'static str, key: &str, now: Instant) -> Result<(), Duration> {
        let rate = self.per_minute / 60.0;
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= MAX_KEYS {
            let full = self.per_minute;
            buckets.retain(|_, b| b.tokens + now.duration_since(b.at).as_secs_f64() * rate < full);
            if buckets.len() >= MAX_KEYS {
                let mut ages: Vec<Instant> = buckets.values().map(|b| b.at).collect();
                ages.sort();
                let cut = ages[ages.len() / 2];
                buckets.retain(|_, b| b.at > cut);
            }
        }
        let bucket =
            buckets.entry((scope, key.to_string())).or_insert(Bucket { tokens: self.per_minute, at: now });
        bucket.tokens =
            (bucket.tokens + now.duration_since(bucket.at).as_secs_f64() * rate).min(self.per_minute);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / rate))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_allowed_then_refused_until_refilled() {
        let limiter = RateLimiter::new(3);
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(limiter.check_at("players", "1.2.3.4", t0).is_ok());
        }
        let wait = limiter.check_at("players", "1.2.3.4", t0).unwrap_err();
        assert!(wait > Duration::from_secs(19) && wait <= Duration::from_secs(20));
        // Other clients and other scopes have their own buckets.
        assert!(limiter.check_at("players", "5.6.7.8", t0).is_ok());
        assert!(limiter.check_at("tables", "1.2.3.4", t0).is_ok());
        assert!(limiter.check_at("players", "1.2.3.4", t0 + Duration::from_secs(20)).is_ok());
    }
}
