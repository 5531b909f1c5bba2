//! The server's notion of "now" for game clocks.
//!
//! Deadlines are stored as wall-clock milliseconds (they must survive a restart), but timers run
//! on tokio's monotonic clock (so tests can pause and advance time). A [`Clock`] ties the two:
//! wall time = the wall time when the clock was made + tokio time elapsed since. Tests that
//! restart a server hand the same `Clock` to the new one, so stored deadlines keep their meaning
//! under paused time.

use std::time::Duration;
use tokio::time::Instant;

#[derive(Debug, Clone, Copy)]
pub struct Clock {
    wall_at_start: i64,
    start: Instant,
}

impl Clock {
    pub fn new() -> Self {
        Self { wall_at_start: crate::store::now_millis(), start: Instant::now() }
    }

    /// Now, in Unix milliseconds.
    pub fn now_millis(&self) -> i64 {
        self.wall_at_start + Instant::now().saturating_duration_since(self.start).as_millis() as i64
    }

    /// The tokio instant at which the wall clock reads `millis`.
    pub fn instant_at(&self, millis: i64) -> Instant {
        let now_ms = self.now_millis();
        let now = Instant::now();
        if millis >= now_ms {
            now + Duration::from_millis((millis - now_ms) as u64)
        } else {
            now.checked_sub(Duration::from_millis((now_ms - millis) as u64)).unwrap_or(now)
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
    }
}
