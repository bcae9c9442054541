//! What a running `catchess datagen` shows on stderr: on a terminal an
//! indicatif bar (games or positions toward the target, positions per
//! second, time left), redrawn in place; elsewhere (a log file) a line a
//! minute, so logs stay short.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How often a log gets a line.
const LOG_EVERY: Duration = Duration::from_secs(60);

pub struct Progress {
    bar: Option<ProgressBar>,
    /// Whether the bar counts positions (`--positions`) or games.
    by_positions: bool,
    started: Instant,
    last_line: Instant,
}

impl Progress {
    /// A bar from `done` to `total` games, or positions with `by_positions`.
    pub fn new(done: u64, total: u64, by_positions: bool) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let unit = if by_positions { "positions" } else { "games" };
            let template = format!("[{{bar:30}}] {{pos}}/{{len}} {unit} | {{msg}} | ETA {{eta}}");
            bar.set_style(ProgressStyle::with_template(&template).expect("a valid template").progress_chars("#>-"));
            bar.set_position(done);
            bar.reset_eta();
            bar
        });
        let now = Instant::now();
        Progress { bar, by_positions, started: now, last_line: now }
    }

    /// The run so far: `games` and `positions` in the file, `made` of them
    /// positions made by this run.
    pub fn update(&mut self, games: u64, positions: u64, made: u64) {
        let rate = made as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
        match &self.bar {
            // The bar counts one of the two; the message gives the other.
            Some(bar) if self.by_positions => {
                bar.set_position(positions);
                bar.set_message(format!("{games} games, {rate:.0} positions/s"));
            }
            Some(bar) => {
                bar.set_position(games);
                bar.set_message(format!("{positions} positions, {rate:.0} positions/s"));
            }
            None if self.last_line.elapsed() >= LOG_EVERY => {
                eprintln!("datagen: {games} games, {positions} positions, {rate:.0} positions/s");
                self.last_line = Instant::now();
            }
            None => {}
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
