//! How a client steers a search that runs on another thread: `stop` ends
//! it, and a ponder search (`go ponder`) thinks without a clock until
//! `ponderhit` starts the mover's clock.
//!
//! The clock start is kept as an offset from the moment the `go` arrived,
//! in one atomic word, so the search threads read it without a lock and
//! the protocol thread can start the clock at any time.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The offset that means "the clock has not started" (pondering).
const NOT_STARTED: u64 = u64::MAX;

#[derive(Debug)]
pub struct SearchControl {
    /// When the `go` arrived: the time reported in `info` counts from here.
    created: Instant,
    stop: AtomicBool,
    /// Nanoseconds after `created` at which the mover's clock started.
    clock_from: AtomicU64,
}

impl Default for SearchControl {
    fn default() -> Self {
        Self::new()
    }
}

impl SearchControl {
    /// An ordinary search: the clock runs from now.
    pub fn new() -> Self {
        SearchControl { created: Instant::now(), stop: AtomicBool::new(false), clock_from: AtomicU64::new(0) }
    }

    /// A ponder search: no clock until [`ponderhit`](Self::ponderhit).
    pub fn pondering() -> Self {
        SearchControl { clock_from: AtomicU64::new(NOT_STARTED), ..Self::new() }
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the move pondered on: the mover's clock starts.
    pub fn ponderhit(&self) {
        let nanos = self.created.elapsed().as_nanos().min(NOT_STARTED as u128 - 1) as u64;
        let _ = self.clock_from.compare_exchange(NOT_STARTED, nanos, Ordering::SeqCst, Ordering::SeqCst);
    }

    pub fn is_pondering(&self) -> bool {
        self.clock_from.load(Ordering::Relaxed) == NOT_STARTED
    }

    /// Time since the `go` arrived.
    pub fn elapsed(&self) -> Duration {
        self.created.elapsed()
    }

    /// How long the search thought before the mover's clock started: the
    /// pondering before `ponderhit` (zero for an ordinary search); `None`
    /// while pondering.
    #[inline]
    pub fn pondered(&self) -> Option<Duration> {
        match self.clock_from.load(Ordering::Relaxed) {
            NOT_STARTED => None,
            from => Some(Duration::from_nanos(from)),
        }
    }

    /// Time on the mover's clock so far; `None` while pondering.
    #[inline]
    pub fn clock_elapsed(&self) -> Option<Duration> {
        match self.clock_from.load(Ordering::Relaxed) {
            NOT_STARTED => None,
            from => Some(self.created.elapsed().saturating_sub(Duration::from_nanos(from))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_waits_for_ponderhit() {
        let c = SearchControl::pondering();
        assert!(c.is_pondering() && c.clock_elapsed().is_none());
        std::thread::sleep(Duration::from_millis(30));
        c.ponderhit();
        assert!(!c.is_pondering());
        let on_clock = c.clock_elapsed().unwrap();
        assert!(on_clock < Duration::from_millis(25), "{on_clock:?}");
        assert!(c.elapsed() >= Duration::from_millis(30));
        // A second ponderhit does not restart the clock.
        std::thread::sleep(Duration::from_millis(10));
        c.ponderhit();
        assert!(c.clock_elapsed().unwrap() >= Duration::from_millis(10));
        let normal = SearchControl::new();
        assert!(!normal.is_pondering() && normal.clock_elapsed().is_some());
        assert!(!normal.is_stopped());
        normal.stop();
        assert!(normal.is_stopped());
    }
}
