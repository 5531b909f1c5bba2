//! The server's notion of "now": Unix milliseconds (how the store keeps time), their RFC 3339
//! form (how clients see it), and the game clocks.
//!
//! Deadlines are stored as wall-clock milliseconds (they must survive a restart), but timers run
//! on tokio's monotonic clock (so tests can pause and advance time). A [`Clock`] ties the two:
//! wall time = the wall time when the clock was made + tokio time elapsed since. Tests that
//! restart a server hand the same `Clock` to the new one, so stored deadlines keep their meaning
//! under paused time.

use std::time::Duration;
use tokio::time::Instant;

/// Milliseconds since the Unix epoch, from the system clock: how the store keeps time.
pub fn now_millis() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// Unix milliseconds as an RFC 3339 timestamp (UTC, millisecond precision).
pub fn rfc3339(millis: i64) -> String {
    chrono::DateTime::from_timestamp_millis(millis)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

#[derive(Debug, Clone, Copy)]
pub struct Clock {
    wall_at_start: i64,
    start: Instant,
}

impl Clock {
    pub fn new() -> Self {
        Self { wall_at_start: now_millis(), start: Instant::now() }
    }

    /// Now, in Unix milliseconds.
    pub fn now_millis(&self) -> i64 {
        self.wall_at_start + Instant::now().saturating_duration_since(self.start).as_millis() as i64
    }

    /// The first tokio instant at which the wall clock reads `millis` (an instant in the past
    /// for a time before the clock was made: a timer set for it fires at once).
    pub fn instant_at(&self, millis: i64) -> Instant {
        let offset = millis - self.wall_at_start;
        if offset >= 0 {
            self.start + Duration::from_millis(offset as u64)
        } else {
            self.start.checked_sub(Duration::from_millis(offset.unsigned_abs())).unwrap_or(self.start)
        }
    }
}

impl Default for Clock {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn wall_time_follows_tokio_time() {
        let clock = Clock::new();
        let t0 = clock.now_millis();
        tokio::time::advance(Duration::from_secs(15)).await;
        assert_eq!(clock.now_millis() - t0, 15_000);
        let at = clock.instant_at(t0 + 20_000);
        assert_eq!(at - Instant::now(), Duration::from_secs(5));
        assert!(clock.instant_at(t0 - 1_000) <= Instant::now());
    }
}
