//! Work split over threads, with a progress bar on stderr.
//!
//! The work is a range of entries cut into chunks that the threads take in
//! turn; the calling thread draws the bar while they run. On a terminal the
//! bar is indicatif's, redrawn in place; otherwise (a log file) a line is written at
//! every tenth of a stage that takes more than a few seconds and at its
//! end, so logs stay short.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Entries per chunk: large enough that taking one costs nothing, small
/// enough that the threads finish together.
const CHUNK: u64 = 1 << 15;

/// How the bar is shown.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bar {
    /// Nothing (tests, probing).
    Quiet,
    /// On stderr.
    Stderr,
}

/// Runs `work` on every chunk of `0..total` with `threads` threads, the bar
/// labelled `label`.
pub fn run_parallel(total: u64, threads: usize, bar: Bar, label: &str, work: impl Fn(Range<u64>) + Sync) {
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let chunks = total.div_ceil(CHUNK);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| loop {
                    let chunk = next.fetch_add(1, Ordering::Relaxed);
                    if chunk >= chunks {
                        break;
                    }
                    let start = chunk * CHUNK;
                    work(start..(start + CHUNK).min(total));
                    done.fetch_add(1, Ordering::Relaxed);
                })
            })
            .collect();
        if bar == Bar::Stderr {
            draw(label, &done, chunks, &workers);
        }
    });
}

fn draw<T>(label: &str, done: &AtomicU64, chunks: u64, workers: &[std::thread::ScopedJoinHandle<'_, T>]) {
    let finished = || workers.iter().all(|w| w.is_finished());
    if std::io::stderr().is_terminal() {
        // On a terminal: indicatif's bar, redrawn in place.
        let bar = ProgressBar::with_draw_target(Some(chunks), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{msg:<24} [{bar:30}] {percent:>3}% {elapsed_precise}")
                .expect("a valid template")
                .progress_chars("#>-"),
        );
        bar.set_message(label.to_string());
        while !finished() {
            bar.set_position(done.load(Ordering::Relaxed));
            std::thread::sleep(Duration::from_millis(5));
        }
        bar.set_position(chunks);
        bar.finish();
        return;
    }
    // Elsewhere (a log file): a line at every tenth of a long stage, and
    // at its end.
    let start = Instant::now();
    let mut last_tenth = 0;
    loop {
        let over = finished();
        let share = if chunks == 0 { 1.0 } else { done.load(Ordering::Relaxed) as f64 / chunks as f64 };
        let tenth = (share * 10.0) as u32;
        if (tenth > last_tenth && start.elapsed() > Duration::from_secs(5)) || over {
            last_tenth = tenth;
            let _ = writeln!(std::io::stderr(), "{label}: {:.0}% {:.1}s", share * 100.0, start.elapsed().as_secs_f64());
        }
        if over {
            break;
        }
        let drawn = Instant::now();
        while drawn.elapsed() < Duration::from_millis(200) && !finished() {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
