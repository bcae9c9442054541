//! How long to think: a soft limit (do not start another iteration after
//! it) and a hard limit (stop the search at once), from whichever of
//! `movetime` or the mover's own clock is given. In Cat Chess each faction
//! has its own clock, so the same rule serves white, black and the cats.

use std::time::{Duration, Instant};

/// What the client asked for in `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub infinite: bool,
    /// The mover's clock and increment.
    pub time_left: Option<Duration>,
    pub increment: Duration,
    pub movestogo: Option<u32>,
    /// Kept in reserve per move for the client's and the pipe's delays.
    pub move_overhead: Duration,
}

#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

/// Moves a clock is assumed to cover when `movestogo` is not given.
const DEFAULT_MOVES_TO_GO: u32 = 30;

impl TimeManager {
    pub fn new(limits: &Limits, start: Instant) -> TimeManager {
        if limits.infinite {
            return TimeManager { start, soft: None, hard: None };
        }
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(limits.move_overhead).max(Duration::from_millis(1));
            return TimeManager { start, soft: Some(t), hard: Some(t) };
        }
        let Some(left) = limits.time_left else {
            return TimeManager { start, soft: None, hard: None };
        };
        // Never plan to use what the overhead reserves; on a nearly empty
        // clock, answer almost at once.
        let usable = left.saturating_sub(limits.move_overhead);
        let mtg = limits.movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 60);
        let base = usable / mtg + limits.increment * 3 / 4;
        let soft = base.min(usable * 2 / 5);
        let hard = (soft * 4).min(usable * 3 / 5).max(soft);
        let floor = Duration::from_millis(1);
        TimeManager { start, soft: Some(soft.max(floor)), hard: Some(hard.max(floor)) }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether another iteration may start: not once most of the soft
    /// budget is spent (the next iteration would not finish in time).
    pub fn may_start_iteration(&self) -> bool {
        self.soft.is_none_or(|s| self.elapsed() < s / 2)
    }

    /// Whether the search must stop now.
    #[inline]
    pub fn out_of_time(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    pub fn soft(&self) -> Option<Duration> {
        self.soft
    }

    pub fn hard(&self) -> Option<Duration> {
        self.hard
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn clock_budgets_stay_well_inside_the_clock() {
        let limits =
            Limits { time_left: Some(ms(10_000)), increment: ms(100), move_overhead: ms(30), ..Default::default() };
        let tm = TimeManager::new(&limits, Instant::now());
        let (soft, hard) = (tm.soft().unwrap(), tm.hard().unwrap());
        assert!(soft >= ms(300) && soft <= ms(500), "{soft:?}");
        assert!(hard >= soft && hard <= ms(6000), "{hard:?}");
        // Almost no time: tiny budgets, never beyond what is left.
        let limits = Limits { time_left: Some(ms(40)), move_overhead: ms(30), ..Default::default() };
        let tm = TimeManager::new(&limits, Instant::now());
        assert!(tm.hard().unwrap() <= ms(10));
    }

    #[test]
    fn movetime_and_no_limit() {
        let limits = Limits { movetime: Some(ms(500)), move_overhead: ms(30), ..Default::default() };
        let tm = TimeManager::new(&limits, Instant::now());
        assert_eq!(tm.hard(), Some(ms(470)));
        let tm = TimeManager::new(&Limits { depth: Some(5), ..Default::default() }, Instant::now());
        assert_eq!((tm.soft(), tm.hard()), (None, None));
        assert!(tm.may_start_iteration() && !tm.out_of_time());
    }
}
