//! How long to think: a soft limit (do not start another iteration after
//! it) and a hard limit (stop the search at once), from whichever of
//! `movetime` or the mover's own clock is given. In Cat Chess each faction
//! has its own clock, so the same rule serves white, black and the cats.
//! Both limits count on the mover's clock as [`SearchControl`] keeps it, so
//! a ponder search has no limit until `ponderhit`; then the thinking done
//! while pondering is a head start taken off the clock's budgets
//! ([`TimeManager::after_ponderhit`]), as Stockfish counts its time from
//! the `go`: a ponder hit never buys more thinking than a move without
//! one, and one that comes after the soft budget is answered at once.
//! Between iterations the
//! soft limit is stretched or shrunk by how settled the best move is
//! ([`Stability`]). The numbers themselves are in `params.rs`.

use super::control::SearchControl;
use super::params::{
    DEFAULT_MOVES_TO_GO, HARD_MAX_SHARE, HARD_PER_SOFT, ITERATION_GATE, KEPT_SCALE, MAX_MOVES_TO_GO, SHARE_GAIN,
    SHARE_PIVOT, SOFT_INCREMENT_SHARE, SOFT_MAX_SHARE,
};
use std::time::Duration;

/// What the client asked for in `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    /// The hard node limit: the search stops as soon as it is spent.
    pub nodes: Option<u64>,
    /// A soft node limit: no iteration starts once it is spent, so the
    /// search ends with the iteration that passed it (`catchess datagen`:
    /// whole iterations, each move near its budget; `nodes` caps a runaway one).
    pub soft_nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub infinite: bool,
    /// The mover's clock and increment.
    pub time_left: Option<Duration>,
    pub increment: Duration,
    pub movestogo: Option<u32>,
    /// Kept in reserve per move for the client's and the pipe's delays.
    pub move_overhead: Duration,
    /// Stop once a mate in at most this many of the mover's own moves is
    /// found (`go mate`).
    pub mate: Option<u32>,
    /// Best lines to report (`MultiPV`); 0 and 1 both mean one.
    pub multipv: usize,
}

#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// Whether the budgets come from the mover's clock (not `movetime`).
    clock: bool,
}

impl TimeManager {
    pub fn new(limits: &Limits) -> TimeManager {
        if limits.infinite {
            return TimeManager { soft: None, hard: None, clock: false };
        }
        if let Some(mt) = limits.movetime {
            // The time asked for is used whole: no soft limit, so another
            // iteration starts as long as time is left.
            let t = mt.saturating_sub(limits.move_overhead).max(Duration::from_millis(1));
            return TimeManager { soft: None, hard: Some(t), clock: false };
        }
        let Some(left) = limits.time_left else {
            return TimeManager { soft: None, hard: None, clock: false };
        };
        // Never plan to use what the overhead reserves; on a nearly empty
        // clock, answer almost at once.
        let usable = left.saturating_sub(limits.move_overhead);
        let mtg = limits.movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, MAX_MOVES_TO_GO);
        let base = usable / mtg + SOFT_INCREMENT_SHARE.of(limits.increment);
        let soft = base.min(SOFT_MAX_SHARE.of(usable));
        let hard = (soft * HARD_PER_SOFT).min(HARD_MAX_SHARE.of(usable)).max(soft);
        let floor = Duration::from_millis(1);
        TimeManager { soft: Some(soft.max(floor)), hard: Some(hard.max(floor)), clock: true }
    }

    /// The budgets of one of `decisions` searches that share one turn's
    /// time: a turn that stops at a roll and goes on after it (Cat's Chess
    /// 10×10's teleport) is two `go`s on one clock, with one increment at
    /// its end. Budgets from the clock are divided evenly; a `movetime` is
    /// the client's own share and stays whole.
    pub fn shared_by(self, decisions: u32) -> TimeManager {
        if !self.clock || decisions <= 1 {
            return self;
        }
        let part = |d: Option<Duration>| d.map(|d| (d / decisions).max(Duration::from_millis(1)));
        TimeManager { soft: part(self.soft), hard: part(self.hard), clock: true }
    }

    /// The budgets left on the mover's clock when it starts after
    /// `pondered` of thinking (a ponder hit; zero for an ordinary search).
    /// Budgets from the clock lose the head start: the soft one by what
    /// was spent, and once the pondering alone has spent it the hard one
    /// is zero too (answer now: the search is already deeper than a move
    /// of its own would be). The hard budget is what a move without
    /// pondering would have left at that point. A `movetime` is the
    /// client's own budget for the move and runs from the hit whole.
    pub fn after_ponderhit(self, pondered: Duration) -> TimeManager {
        if !self.clock || pondered.is_zero() {
            return self;
        }
        let soft = self.soft.map(|s| s.saturating_sub(pondered));
        let hard = match soft {
            Some(s) if s.is_zero() => Some(Duration::ZERO),
            _ => self.hard.map(|h| h.saturating_sub(pondered)),
        };
        TimeManager { soft, hard, clock: true }
    }

    /// Whether another iteration may start: not once `ITERATION_GATE` of
    /// the soft budget, stretched by `scale` (see [`Stability`]), is spent
    /// (the next iteration would not finish in time). After a ponder hit
    /// the thinking so far counts whole (the pondering and the clock's
    /// time since the hit), so that the gate is the one a move without
    /// pondering passes at the same point of its search.
    pub fn may_start_iteration(&self, control: &SearchControl, scale: f64) -> bool {
        let (Some(soft), Some(pondered), Some(used)) = (self.soft, control.pondered(), control.clock_elapsed()) else {
            return true;
        };
        let thought = if self.clock { pondered + used } else { used };
        thought.as_secs_f64() < soft.as_secs_f64() * scale * ITERATION_GATE
    }

    /// Whether the search must stop now: the hard budget left after the
    /// ponder hit (if any) is spent on the clock.
    #[inline]
    pub fn out_of_time(&self, control: &SearchControl) -> bool {
        let (Some(pondered), Some(used)) = (control.pondered(), control.clock_elapsed()) else { return false };
        self.after_ponderhit(pondered).hard.is_some_and(|h| used >= h)
    }

    pub fn soft(&self) -> Option<Duration> {
        self.soft
    }

    pub fn hard(&self) -> Option<Duration> {
        self.hard
    }
}

/// How settled the root's choice is, from one finished iteration to the
/// next: a best move that keeps winning the iterations and takes most of
/// the search's nodes needs less time than one that just changed or is
/// closely contested. Its [`scale`](Stability::scale) stretches or shrinks
/// the soft limit (the hard limit still caps every move).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stability {
    best: Option<u32>,
    /// Iterations in a row that kept the same best move.
    kept: usize,
    /// The share of the last iteration's nodes spent below the best move.
    best_share: Option<f64>,
}

impl Stability {
    /// Records a finished iteration: its best move (as bits) and the share
    /// of its nodes searched below that move, if the root counted them.
    pub fn update(&mut self, best: u32, best_share: Option<f64>) {
        self.kept = if self.best == Some(best) { self.kept + 1 } else { 0 };
        self.best = Some(best);
        self.best_share = best_share.map(|s| s.clamp(0.0, 1.0));
    }

    pub fn scale(&self) -> f64 {
        if self.best.is_none() {
            return 1.0;
        }
        let kept = KEPT_SCALE[self.kept.min(KEPT_SCALE.len() - 1)];
        let share = self.best_share.map_or(1.0, |s| (SHARE_PIVOT - s) * SHARE_GAIN);
        kept * share
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
        let tm = TimeManager::new(&limits);
        let (soft, hard) = (tm.soft().unwrap(), tm.hard().unwrap());
        assert!(soft >= ms(300) && soft <= ms(600), "{soft:?}");
        assert!(hard >= soft && hard <= ms(6000), "{hard:?}");
        // Almost no time: tiny budgets, never beyond what is left.
        let limits = Limits { time_left: Some(ms(40)), move_overhead: ms(30), ..Default::default() };
        let tm = TimeManager::new(&limits);
        assert!(tm.hard().unwrap() <= ms(10));
    }

    #[test]
    fn a_turn_of_two_decisions_halves_the_clock_budgets_only() {
        let limits =
            Limits { time_left: Some(ms(10_000)), increment: ms(100), move_overhead: ms(30), ..Default::default() };
        let whole = TimeManager::new(&limits);
        let half = whole.shared_by(2);
        assert_eq!(half.soft(), whole.soft().map(|d| d / 2));
        assert_eq!(half.hard(), whole.hard().map(|d| d / 2));
        assert_eq!(whole.shared_by(1).soft(), whole.soft());
        // A movetime is the client's own budget for this `go`.
        let limits = Limits { movetime: Some(ms(500)), move_overhead: ms(30), ..Default::default() };
        assert_eq!(TimeManager::new(&limits).shared_by(2).hard(), Some(ms(470)));
    }

    #[test]
    fn movetime_and_no_limit() {
        let limits = Limits { movetime: Some(ms(500)), move_overhead: ms(30), ..Default::default() };
        let tm = TimeManager::new(&limits);
        // The whole move time: iterations start until the hard limit.
        assert_eq!((tm.soft(), tm.hard()), (None, Some(ms(470))));
        let tm = TimeManager::new(&Limits { depth: Some(5), ..Default::default() });
        assert_eq!((tm.soft(), tm.hard()), (None, None));
        let control = SearchControl::new();
        assert!(tm.may_start_iteration(&control, 1.0) && !tm.out_of_time(&control));
    }

    #[test]
    fn a_settled_best_move_gets_less_time_than_a_new_one() {
        let mut s = Stability::default();
        assert_eq!(s.scale(), 1.0);
        s.update(7, Some(0.5));
        let new = s.scale();
        for _ in 0..4 {
            s.update(7, Some(0.5));
        }
        let settled = s.scale();
        assert!(new > 2.0 * settled, "{new} {settled}");
        // The same move, but most nodes elsewhere: contested, more time.
        s.update(7, Some(0.1));
        assert!(s.scale() > settled);
        s.update(7, Some(0.95));
        assert!(s.scale() < settled);
        // A new best move starts the count again.
        s.update(8, Some(0.5));
        assert_eq!(s.scale(), new);
    }

    #[test]
    fn the_iteration_gate_follows_the_scale() {
        let limits = Limits { time_left: Some(ms(10_000)), movestogo: Some(1), ..Default::default() };
        let tm = TimeManager::new(&limits);
        // Soft is 4 s: after 60 ms, a scale of 0.01 (a 32 ms gate) closes
        // it and 1 (3.2 s) keeps it open.
        let control = SearchControl::new();
        std::thread::sleep(ms(60));
        assert!(!tm.may_start_iteration(&control, 0.01));
        assert!(tm.may_start_iteration(&control, 1.0));
    }

    /// The review's ponder sequence: `go ponder wtime 60000 btime 60000
    /// winc 1000 binc 1000`, `ponderhit` after 10 s. The budgets after the
    /// hit are never more than a move without pondering gets; past the
    /// soft budget the answer is due at once.
    #[test]
    fn a_ponder_hit_counts_the_pondering_as_a_head_start() {
        let limits =
            Limits { time_left: Some(ms(60_000)), increment: ms(1000), move_overhead: ms(10), ..Default::default() };
        let normal = TimeManager::new(&limits);
        let (soft, hard) = (normal.soft().unwrap(), normal.hard().unwrap());
        assert!(soft < ms(10_000), "the soft budget of this clock is a few seconds: {soft:?}");
        let late = normal.after_ponderhit(ms(10_000));
        assert_eq!((late.soft(), late.hard()), (Some(ms(0)), Some(ms(0))), "answer at once");
        // A hit before the soft budget is spent: what is left of it.
        let early = normal.after_ponderhit(ms(500));
        assert_eq!(early.soft(), Some(soft - ms(500)));
        assert_eq!(early.hard(), Some(hard - ms(500)));
        assert_eq!(normal.after_ponderhit(ms(0)).hard(), Some(hard));
        // A movetime runs whole from the hit.
        let movetime = TimeManager::new(&Limits { movetime: Some(ms(500)), ..Default::default() });
        assert_eq!(movetime.after_ponderhit(ms(10_000)).hard(), Some(ms(500)));
        // And through the control: pondering 40 ms on a clock whose soft
        // budget is 30 ms, the hit makes the search out of time at once.
        let tiny = TimeManager::new(&Limits { time_left: Some(ms(1000)), movestogo: Some(30), ..Default::default() });
        assert!(tiny.soft().unwrap() < ms(40), "{:?}", tiny.soft());
        let control = SearchControl::pondering();
        std::thread::sleep(ms(40));
        assert!(!tiny.out_of_time(&control), "no limit while pondering");
        control.ponderhit();
        assert!(tiny.out_of_time(&control) && !tiny.may_start_iteration(&control, 1.0));
    }

    #[test]
    fn a_ponder_search_has_no_limit_until_ponderhit() {
        let limits = Limits { movetime: Some(ms(20)), ..Default::default() };
        let tm = TimeManager::new(&limits);
        let control = SearchControl::pondering();
        std::thread::sleep(ms(40));
        assert!(!tm.out_of_time(&control));
        control.ponderhit();
        assert!(!tm.out_of_time(&control));
        std::thread::sleep(ms(25));
        assert!(tm.out_of_time(&control));
    }
}
