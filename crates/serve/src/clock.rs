//! Clocks for the seats people play, kept by the server (api.md, "Clocks").
//!
//! A game may give any of its seats a time control: a base time and an
//! increment added after each of the seat's turns (Fischer). The page gives
//! one to each seat a person plays; the engine's seats get none, so their
//! clock does not run (their moves are limited by a level or a movetime).
//!
//! The seat to move is charged from the start of its step (the previous
//! move, the game's creation, a take-back, the server's start or the last
//! invited player's join) to the moment the server accepts its next step;
//! no clock runs while a seat waits for its player (`session.rs`,
//! `clocks_held`). A turn of several steps (Cat's
//! Chess 10×10) is charged step by step and gets its increment once, when
//! the turn ends. What is kept, and written to the database with the game,
//! is the time each move took: the clocks follow the moves, so a take-back
//! gives back the time of the moves taken back.
//!
//! No timer runs per game: a flag fall is found when the seat's next move
//! arrives, or when anything reads the game after it (the store settles a
//! game before each use), so memory and CPU do not grow with the games
//! held. A server that stops writes the time the seat to move has used on
//! its step so far; no clock runs while the server is down, and the seat's
//! clock runs again from the server's start (after a crash, the time since
//! the last change is not charged).

use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Where the server reads the time: [`SystemClock`], or a test's
/// [`ManualClock`] (a flag fall without waiting for it).
pub trait TimeSource: Send + Sync + std::fmt::Debug {
    /// Milliseconds since the UNIX epoch, never going back.
    fn now_ms(&self) -> u64;
}

/// The system's time, read once at the start and then advanced by a
/// monotonic clock: a change of the system's clock (NTP, a person setting
/// it) charges nobody.
#[derive(Debug)]
pub struct SystemClock {
    start: Instant,
    epoch_ms: u64,
}

impl SystemClock {
    pub fn new() -> SystemClock {
        let epoch_ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        SystemClock { start: Instant::now(), epoch_ms }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        SystemClock::new()
    }
}

impl TimeSource for SystemClock {
    fn now_ms(&self) -> u64 {
        self.epoch_ms + self.start.elapsed().as_millis() as u64
    }
}

/// A time that moves only when told to (tests).
#[derive(Debug, Default)]
pub struct ManualClock(AtomicU64);

impl ManualClock {
    pub fn new(ms: u64) -> ManualClock {
        ManualClock(AtomicU64::new(ms))
    }

    pub fn advance(&self, by: Duration) {
        self.0.fetch_add(by.as_millis() as u64, Ordering::SeqCst);
    }
}

impl TimeSource for ManualClock {
    fn now_ms(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// The longest base time a game may give (a day) and the largest
/// increment (an hour).
pub const MAX_BASE_MS: u64 = 86_400_000;
pub const MAX_INC_MS: u64 = 3_600_000;

/// One seat's time control: `base_ms` to start with, `inc_ms` added after
/// each of its turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    pub base_ms: u64,
    #[serde(default)]
    pub inc_ms: u64,
}

impl TimeControl {
    /// Refuses a base time of 0 or over [`MAX_BASE_MS`], an increment over
    /// [`MAX_INC_MS`]: in the minutes and seconds a person sets a clock in
    /// (the page's Clock), and the field's name for a program.
    pub fn check(&self) -> Result<(), String> {
        if self.base_ms == 0 || self.base_ms > MAX_BASE_MS {
            return Err(format!(
                "the base time must be more than 0 and at most {} minutes, got {} minutes (base_ms must be 1..={MAX_BASE_MS}, got {})",
                MAX_BASE_MS / 60_000,
                units(self.base_ms, 60_000),
                self.base_ms
            ));
        }
        if self.inc_ms > MAX_INC_MS {
            return Err(format!(
                "the increment must be at most {} seconds a move, got {} seconds (inc_ms must be 0..={MAX_INC_MS}, got {})",
                MAX_INC_MS / 1000,
                units(self.inc_ms, 1000),
                self.inc_ms
            ));
        }
        Ok(())
    }

    /// The PGN `TimeControl` value (`300+2`, `60`), as the match arbiter
    /// writes its clocks.
    pub fn pgn(&self) -> String {
        let (base, inc) = (Duration::from_millis(self.base_ms), Duration::from_millis(self.inc_ms));
        catchess_game::pgn::record::clock_time_control(base, inc)
    }
}

/// `ms` in units of `unit` ms, with up to three decimals (`0.5`, `100000`).
fn units(ms: u64, unit: u64) -> String {
    let text = format!("{:.3}", ms as f64 / unit as f64);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A clock's reading as a PGN `%clk` comment writes it (`[%clk 0:04:58]`,
/// `game::pgn::clock_command`).
pub fn clk(ms: u64) -> String {
    catchess_game::pgn::clock_command(Duration::from_millis(ms))
}

/// One turn as the clocks see it: the seat that played it (by its index
/// in the turn order), its moves (indices into the game's moves), whether
/// it is over (the last turn may be under way), and whether it is the
/// server's pass for a seat that had forfeited (no increment: that
/// seat's clock has stopped for good).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub seat: usize,
    pub plies: Range<usize>,
    pub over: bool,
    pub passed: bool,
}

/// A game's clocks: what the database keeps, and when the step under way
/// was last charged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clocks {
    /// Each seat's control, in turn order; `None`: no clock.
    pub controls: Vec<Option<TimeControl>>,
    /// The moves played before the clocks started (a record read in).
    pub start_ply: usize,
    /// The time each move since took: `used_ms[i]` is move
    /// `start_ply + i`'s (0 for the server's rolls and passes).
    pub used_ms: Vec<u64>,
    /// What the seat to move has used of its step under way, up to
    /// `since_ms`.
    pub pending_ms: u64,
    /// When `pending_ms` was last brought up to date. Not kept: a game
    /// read back charges nothing for the time the server was down.
    #[serde(skip)]
    since_ms: u64,
}

impl Clocks {
    /// Clocks that start now, after the game's first `start_ply` moves.
    pub fn new(controls: Vec<Option<TimeControl>>, start_ply: usize, now: u64) -> Clocks {
        Clocks { controls, start_ply, used_ms: vec![], pending_ms: 0, since_ms: now }
    }

    /// Clocks read back from the database for a game of `seats` seats and
    /// `plies` moves; the step under way goes on from `now`.
    pub fn restored(mut self, seats: usize, plies: usize, now: u64) -> Result<Clocks, String> {
        if self.controls.len() != seats || self.start_ply + self.used_ms.len() != plies {
            return Err(format!(
                "its clocks ({} seats, {} moves timed after {}) do not fit a game of {seats} seats and {plies} moves",
                self.controls.len(),
                self.used_ms.len(),
                self.start_ply
            ));
        }
        if let Some(bad) = self.controls.iter().flatten().find_map(|c| c.check().err()) {
            return Err(format!("its clocks: {bad}"));
        }
        self.since_ms = now;
        Ok(self)
    }

    /// Brings the step under way up to `now`: the time since the last
    /// charge goes to the seat to move if its clock `runs`.
    pub fn charge(&mut self, now: u64, runs: bool) {
        if runs {
            self.pending_ms += now.saturating_sub(self.since_ms);
        }
        self.since_ms = self.since_ms.max(now);
    }

    /// After a change of the moves (bring the step up to date with
    /// [`charge`](Self::charge) first): `kept` of the moves before are
    /// still there and there are `plies` now. The step's time goes to the
    /// first new move, with the time of any move the same change took back
    /// (a 10×10 reroll: the server rolls again where the rules roll, over
    /// the seat's `reroll`).
    pub fn moved(&mut self, kept: usize, plies: usize) {
        if plies <= kept {
            return;
        }
        self.start_ply = self.start_ply.min(kept);
        let first = kept - self.start_ply;
        let lost: u64 = self.used_ms.get(first..).map_or(0, |gone| gone.iter().sum());
        self.used_ms.truncate(first);
        self.used_ms.resize(plies - self.start_ply, 0);
        self.used_ms[first] += lost + std::mem::take(&mut self.pending_ms);
    }

    /// After a take-back to `plies` moves: the time of the moves taken
    /// back and of the step under way is given back, and the seat to
    /// move's step starts `now`.
    pub fn taken_back(&mut self, plies: usize, now: u64) {
        self.start_ply = self.start_ply.min(plies);
        self.used_ms.truncate(plies - self.start_ply);
        self.pending_ms = 0;
        self.since_ms = now;
    }

    /// Each seat's time and its time used over the turns `spans`, the
    /// step under way left out.
    fn totals(&self, spans: &[Span], mut after_turn: impl FnMut(usize, u64)) -> (Vec<u64>, Vec<u64>) {
        let mut budget: Vec<u64> = self.controls.iter().map(|c| c.map_or(0, |c| c.base_ms)).collect();
        let mut spent = vec![0u64; self.controls.len()];
        for (i, span) in spans.iter().enumerate() {
            let Some(control) = self.controls.get(span.seat).copied().flatten() else { continue };
            if span.plies.end <= self.start_ply {
                continue;
            }
            let timed = span.plies.start.max(self.start_ply) - self.start_ply..span.plies.end - self.start_ply;
            spent[span.seat] += self.used_ms.get(timed).map_or(0, |t| t.iter().sum::<u64>());
            if span.over && !span.passed {
                budget[span.seat] += control.inc_ms;
                after_turn(i, budget[span.seat].saturating_sub(spent[span.seat]));
            }
        }
        (budget, spent)
    }

    /// Each seat's time left in ms (`None`: no clock) at `now`: with the
    /// step under way charged to `to_move`, up to `now` if its clock `runs`.
    pub fn left(&self, spans: &[Span], to_move: usize, runs: bool, now: u64) -> Vec<Option<u64>> {
        let (budget, mut spent) = self.totals(spans, |_, _| {});
        if let Some(s) = spent.get_mut(to_move) {
            *s += self.pending_ms + if runs { now.saturating_sub(self.since_ms) } else { 0 };
        }
        self.controls.iter().enumerate().map(|(i, c)| c.map(|_| budget[i].saturating_sub(spent[i]))).collect()
    }

    /// Whether `to_move`'s clock, running, is out at `now`.
    pub fn flag_fell(&self, spans: &[Span], to_move: usize, now: u64) -> bool {
        self.left(spans, to_move, true, now).get(to_move).copied().flatten() == Some(0)
    }

    /// After `to_move`'s flag fell: its step is charged up to its time
    /// exactly (its clock shows 0, whenever the fall was found).
    pub fn fall(&mut self, spans: &[Span], to_move: usize, now: u64) {
        let (budget, spent) = self.totals(spans, |_, _| {});
        self.pending_ms = budget[to_move].saturating_sub(spent[to_move]);
        self.since_ms = self.since_ms.max(now);
    }

    /// The clock of each turn's seat after the turn (the increment
    /// added), for the record's `%clk`; `None` for a seat without a clock,
    /// a turn under way or one played before the clocks started.
    pub fn after_turns(&self, spans: &[Span]) -> Vec<Option<u64>> {
        let mut out = vec![None; spans.len()];
        self.totals(spans, |i, left| out[i] = Some(left));
        out
    }

    pub fn control(&self, seat: usize) -> Option<TimeControl> {
        self.controls.get(seat).copied().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIVE_PLUS_TWO: TimeControl = TimeControl { base_ms: 300_000, inc_ms: 2_000 };

    fn turns(seats: &[usize], last_over: bool) -> Vec<Span> {
        let n = seats.len();
        seats
            .iter()
            .enumerate()
            .map(|(i, &seat)| Span { seat, plies: i..i + 1, over: i + 1 < n || last_over, passed: false })
            .collect()
    }

    #[test]
    fn each_move_is_charged_to_its_seat_with_the_increment() {
        let mut c = Clocks::new(vec![Some(FIVE_PLUS_TWO), None], 0, 1_000);
        c.charge(11_000, true); // white thinks 10 s
        c.moved(0, 1);
        c.charge(61_000, false); // black, without a clock, 50 s
        c.moved(1, 2);
        c.charge(64_000, true); // white: 3 s so far on its second move
        let spans = turns(&[0, 1], true);
        assert_eq!(c.used_ms, [10_000, 0]);
        assert_eq!(c.left(&spans, 0, false, 64_000), [Some(292_000 - 3_000), None]);
        assert_eq!(c.left(&spans, 0, true, 65_000), [Some(292_000 - 4_000), None], "it runs on");
        assert_eq!(c.after_turns(&spans), [Some(292_000), None]);
        assert!(!c.flag_fell(&spans, 0, 64_000 + 288_999));
        assert!(c.flag_fell(&spans, 0, 64_000 + 289_000));
        c.fall(&spans, 0, 64_000 + 400_000);
        assert_eq!(c.left(&spans, 0, false, 0), [Some(0), None], "a fall found late still shows 0");
    }

    #[test]
    fn a_turn_of_several_steps_is_charged_whole_and_incremented_once() {
        let mut c = Clocks::new(vec![Some(TimeControl { base_ms: 10_000, inc_ms: 1_000 }); 2], 0, 0);
        for (step, now) in [(0, 2_000), (1, 3_000), (2, 7_000)] {
            c.charge(now, true);
            c.moved(step, step + 1);
        }
        let under_way = [Span { seat: 0, plies: 0..3, over: false, passed: false }];
        assert_eq!(c.left(&under_way, 0, true, 7_000), [Some(3_000), Some(10_000)]);
        assert!(c.flag_fell(&under_way, 0, 10_000), "the clock runs over the whole turn");
        let over = [Span { seat: 0, plies: 0..3, over: true, passed: false }];
        assert_eq!(c.left(&over, 1, true, 7_000), [Some(4_000), Some(10_000)]);
        let passed = [Span { passed: true, ..over[0].clone() }];
        assert_eq!(c.left(&passed, 1, true, 7_000), [Some(3_000), Some(10_000)], "a pass earns no increment");
        assert_eq!(c.after_turns(&passed), [None]);
    }

    #[test]
    fn moves_taken_back_give_their_time_back_and_a_reroll_keeps_it() {
        let mut c = Clocks::new(vec![Some(FIVE_PLUS_TWO); 2], 0, 0);
        c.charge(4_000, true);
        c.moved(0, 2); // a step and the server's roll at once
        assert_eq!(c.used_ms, [4_000, 0]);
        c.charge(9_000, true);
        c.moved(1, 2); // `reroll`: the roll taken back and rolled again
        assert_eq!(c.used_ms, [4_000, 5_000]);
        c.taken_back(1, 20_000);
        assert_eq!((c.used_ms.clone(), c.pending_ms), (vec![4_000], 0));
        c.taken_back(0, 20_000);
        assert!(c.used_ms.is_empty());
    }

    #[test]
    fn a_record_read_back_must_fit_its_game() {
        let c = Clocks::new(vec![Some(FIVE_PLUS_TWO), None], 2, 0);
        let text = serde_json::to_string(&c).unwrap();
        let back: Clocks = serde_json::from_str(&text).unwrap();
        assert!(back.clone().restored(2, 2, 5).is_ok());
        assert!(back.clone().restored(3, 2, 5).unwrap_err().contains("do not fit"));
        assert!(back.restored(2, 3, 5).is_err());
        let zero = Clocks::new(vec![Some(TimeControl { base_ms: 0, inc_ms: 0 })], 0, 0);
        assert!(zero.restored(1, 0, 0).unwrap_err().contains("base_ms"));
    }

    #[test]
    fn records_write_the_control_and_the_clock_as_pgn_does() {
        assert_eq!(FIVE_PLUS_TWO.pgn(), "300+2");
        assert_eq!(TimeControl { base_ms: 60_000, inc_ms: 0 }.pgn(), "60");
        assert_eq!(TimeControl { base_ms: 6_000, inc_ms: 500 }.pgn(), "6+0.5");
        assert_eq!(clk(298_000), "[%clk 0:04:58]");
        assert_eq!(clk(9_560), "[%clk 0:00:09.5]");
        assert_eq!(clk(3_600_000 + 61_000), "[%clk 1:01:01]");
    }

    #[test]
    fn the_system_clock_never_goes_back() {
        let c = SystemClock::new();
        let a = c.now_ms();
        assert!(c.now_ms() >= a && a > 1_600_000_000_000);
    }
}
