//! What a running match prints on stderr: a line per finished game with
//! the match so far (games, score, Elo, LLR, time left), and, on a
//! terminal, a live status line below them, redrawn every second by the
//! `indicatif` crate. Anything else (a pipe, a log file) gets plain lines.

use super::play::GameReport;
use super::standings::{SprtStatus, Standings};
use catchess_game::SeatInfo;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// The progress printer of one match.
pub struct Progress {
    /// The live status line, on a terminal only.
    bar: Option<ProgressBar>,
    started: Instant,
    last_status: Instant,
    /// Games in the match, games finished before this run (`--resume`),
    /// and games this run plays.
    games: usize,
    resumed: usize,
    to_play: usize,
}

impl Progress {
    pub fn new(games: usize, resumed: usize, to_play: usize) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(ProgressStyle::with_template("{msg}").expect("a valid template"));
            bar
        });
        let now = Instant::now();
        Progress { bar, started: now, last_status: now, games, resumed, to_play }
    }

    /// The time since the match started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// A line of its own (above the live line, if there is one).
    pub fn say(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }

    /// No game finished lately: on a terminal, the status line is redrawn
    /// once a second so that its time left stays current.
    pub fn tick(&mut self, standings: &Standings, done: usize, sprt: Option<SprtStatus>) {
        if let Some(bar) = &self.bar {
            if self.last_status.elapsed() >= Duration::from_secs(1) {
                bar.set_message(self.status(standings, done, sprt));
                self.last_status = Instant::now();
            }
        }
    }

    /// A game finished: its line (and `notice`, such as the SPRT's
    /// decision), then the match so far.
    pub fn game(&mut self, line: &str, notice: &str, standings: &Standings, done: usize, sprt: Option<SprtStatus>) {
        let status = self.status(standings, done, sprt);
        match &self.bar {
            Some(bar) => {
                // The game's line stays; the status line below it is redrawn.
                bar.println(format!("{line}{notice}"));
                bar.set_message(status);
                self.last_status = Instant::now();
            }
            None => eprintln!("{line} | {status}{notice}"),
        }
    }

    /// Removes the live line.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    /// The progress summary: games done, the first engine's score and Elo
    /// (two engines) or every engine's points, the LLR, and the time left
    /// at the pace of this run.
    fn status(&self, standings: &Standings, done: usize, sprt: Option<SprtStatus>) -> String {
        let mut parts = score_parts(done, self.games, standings, sprt);
        let played = done - self.resumed;
        let left = self.to_play.saturating_sub(played);
        if played > 0 && left > 0 {
            let secs = self.started.elapsed().as_secs_f64() / played as f64 * left as f64;
            parts.push(format!("ETA {}", duration_text(secs)));
        }
        parts.join(" | ")
    }
}

/// The match so far as the progress line says it: `12/100 games | a 7.0 -
/// b 5.0 (58.3 %) | Elo +58.5 ± 190.2 | LLR 0.45 (-2.94, 2.94)`, in parts
/// (also what `--merge --watch` prints as shards write).
pub fn score_parts(done: usize, games: usize, standings: &Standings, sprt: Option<SprtStatus>) -> Vec<String> {
    let mut parts = vec![format!("{done}/{games} games")];
    parts.extend(standings.progress_parts());
    if let Some(st) = sprt {
        parts.push(format!("LLR {:.2} ({:.2}, {:.2})", st.llr, st.lower, st.upper));
    }
    parts
}

/// `game 3/12: a (white) - b (black): 1-0 [checkmate], 41 plies; faults: ...`.
pub fn game_line(report: &GameReport, games: usize, names: &[String], seats: &[SeatInfo]) -> String {
    let faults: Vec<String> = report.faults.iter().map(|f| format!("{} {}", f.side, f.kind.name())).collect();
    let seating: Vec<String> =
        report.seating.iter().zip(seats).map(|(&e, s)| format!("{} ({})", names[e], s.name)).collect();
    format!(
        "game {}/{games}: {}: {} [{}], {} plies{}",
        report.number,
        seating.join(" - "),
        report.result,
        report.termination,
        report.plies,
        if faults.is_empty() { String::new() } else { format!("; faults: {}", faults.join(", ")) },
    )
}

/// `45s`, `12m05s`, `3h07m`.
fn duration_text(secs: f64) -> String {
    let s = secs.round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_a_person_would_say_them() {
        assert_eq!(duration_text(44.6), "45s");
        assert_eq!(duration_text(725.0), "12m05s");
        assert_eq!(duration_text(3.0 * 3600.0 + 7.0 * 60.0 + 20.0), "3h07m");
    }
}
