//! What the run counts, shared by every table task, and the percentiles of its latencies.

use serde_json::{Value, json};
use std::{
    collections::BTreeMap,
    sync::{
        Mutex,
        atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering::Relaxed},
    },
    time::Duration,
};

/// Counters of the run. Throughput counters and latency samples only count while `measuring`
/// (after the ramp-up); errors and lost events count always.
#[derive(Default)]
pub struct Stats {
    pub measuring: AtomicBool,
    /// Actions the generator sent (one per human decision).
    pub actions_sent: AtomicU64,
    /// Actions the server accepted (`ok` replies).
    pub actions_ok: AtomicU64,
    /// Distinct log entries seen (each is one durable append on the server).
    pub entries: AtomicU64,
    /// Entry messages delivered, over every connection.
    pub messages: AtomicU64,
    pub games_started: AtomicU64,
    pub games_finished: AtomicU64,
    /// Table slots whose first game is set up and connected (ramp-up progress).
    pub tables_ready: AtomicU64,
    pub connections: AtomicI64,
    pub connections_peak: AtomicI64,
    /// Log entries a connection never received (a later one came first).
    pub gaps: AtomicU64,
    /// Log entries a connection received twice (or out of order).
    pub duplicates: AtomicU64,
    /// Connections that did not receive their table's last entry.
    pub missing_finish: AtomicU64,
    errors: Mutex<BTreeMap<String, u64>>,
    /// Action → every subscriber of the table received its entry, microseconds.
    fanout: Mutex<Samples>,
    /// Action → its reply on the acting seat's socket, microseconds.
    reply: Mutex<Samples>,
}

#[derive(Default)]
struct Samples {
    all: Vec<u32>,
    /// Since the last progress line.
    window: Vec<u32>,
}

impl Stats {
    pub fn measuring(&self) -> bool {
        self.measuring.load(Relaxed)
    }

    /// Adds one to a counter, if the run is measuring.
    pub fn count(&self, counter: &AtomicU64, n: u64) {
        if self.measuring() {
            counter.fetch_add(n, Relaxed);
        }
    }

    pub fn error(&self, kind: impl Into<String>) {
        *self.errors.lock().unwrap_or_else(|e| e.into_inner()).entry(kind.into()).or_default() += 1;
    }

    pub fn errors(&self) -> BTreeMap<String, u64> {
        self.errors.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub fn error_total(&self) -> u64 {
        self.errors().values().sum()
    }

    pub fn lost_total(&self) -> u64 {
        self.gaps.load(Relaxed) + self.duplicates.load(Relaxed) + self.missing_finish.load(Relaxed)
    }

    pub fn connection_opened(&self) {
        let now = self.connections.fetch_add(1, Relaxed) + 1;
        self.connections_peak.fetch_max(now, Relaxed);
    }

    pub fn connection_closed(&self) {
        self.connections.fetch_sub(1, Relaxed);
    }

    pub fn fanout_latency(&self, d: Duration) {
        if self.measuring() {
            push(&self.fanout, d);
        }
    }

    pub fn reply_latency(&self, d: Duration) {
        if self.measuring() {
            push(&self.reply, d);
        }
    }

    /// The fan-out latency p99 since the last call (ms), for progress lines.
    pub fn take_window_p99(&self) -> Option<f64> {
        let mut w = std::mem::take(&mut self.fanout.lock().unwrap_or_else(|e| e.into_inner()).window);
        let _ = std::mem::take(&mut self.reply.lock().unwrap_or_else(|e| e.into_inner()).window);
        w.sort_unstable();
        percentile(&w, 0.99).map(|us| us as f64 / 1000.0)
    }

    pub fn fanout_summary(&self) -> Value {
        summary(&self.fanout)
    }

    pub fn reply_summary(&self) -> Value {
        summary(&self.reply)
    }
}

fn push(samples: &Mutex<Samples>, d: Duration) {
    let us = d.as_micros().min(u32::MAX as u128) as u32;
    let mut s = samples.lock().unwrap_or_else(|e| e.into_inner());
    s.all.push(us);
    s.window.push(us);
}

/// The `p` quantile of sorted samples (nearest rank).
pub fn percentile(sorted: &[u32], p: f64) -> Option<u32> {
    if sorted.is_empty() {
        return None;
    }
    let rank = (p * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

fn summary(samples: &Mutex<Samples>) -> Value {
    let mut all = samples.lock().unwrap_or_else(|e| e.into_inner()).all.clone();
    all.sort_unstable();
    let ms = |p: f64| percentile(&all, p).map(|us| (us as f64 / 1000.0 * 1000.0).round() / 1000.0);
    json!({
        "count": all.len(),
        "p50": ms(0.50),
        "p95": ms(0.95),
        "p99": ms(0.99),
        "max": ms(1.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_use_the_nearest_rank() {
        let v: Vec<u32> = (1..=100).collect();
        assert_eq!(percentile(&v, 0.5), Some(50));
        assert_eq!(percentile(&v, 0.99), Some(99));
        assert_eq!(percentile(&v, 1.0), Some(100));
        assert_eq!(percentile(&[7], 0.99), Some(7));
        assert_eq!(percentile(&[], 0.5), None);
    }
}
