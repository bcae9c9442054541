//! A run: `--threads` threads each playing whole games on its own
//! searcher (one search thread, so every search is deterministic), taking
//! the next game index in turn; the main thread writes the finished games
//! in index order, holding back any that finish early, so the file is the
//! same whatever the thread count. A thread waits rather than run more than
//! a few games ahead of the writer, which bounds the games held back.

use super::format::{Encoder, Format};
use super::output::{Output, State};
use super::play::{play, Ending, Played, HASH_MB};
use super::progress::Progress;
use super::{Settings, Target};
use catchess_game::winner_name;
use catchess_games::Playable;
use catchess_search::Searcher;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// Games a thread may start beyond the next one to be written, per thread.
const AHEAD_PER_THREAD: u64 = 4;
/// The bench depth whose node count fingerprints the search in the state
/// file: data made by another search is not mixed into a file.
const FINGERPRINT_DEPTH: u32 = 4;

/// A finished game, encoded.
struct Finished {
    bytes: Vec<u8>,
    positions: u64,
    winner: &'static str,
    ending: Ending,
}

/// What the game threads and the writer share.
struct Board {
    finished: BTreeMap<u64, Result<Finished, String>>,
    /// The next game the writer needs.
    next_to_write: u64,
    /// Game threads still running.
    live: usize,
}

fn lock(board: &Mutex<Board>) -> MutexGuard<'_, Board> {
    board.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What a run did, for its closing report.
#[derive(Debug, Default)]
pub struct Summary {
    pub variant: &'static str,
    pub format: String,
    pub out: String,
    pub threads: usize,
    /// Games and positions this run added.
    pub games: u64,
    pub positions: u64,
    pub elapsed: Duration,
    /// Games by winner (a seat's name or `draw`) and by ending.
    pub winners: BTreeMap<&'static str, u64>,
    pub endings: BTreeMap<&'static str, u64>,
    /// Games and positions in the file now.
    pub file_games: u64,
    pub file_positions: u64,
}

impl Summary {
    fn add(&mut self, f: &Finished) {
        self.games += 1;
        self.positions += f.positions;
        *self.winners.entry(f.winner).or_default() += 1;
        *self.endings.entry(f.ending.name()).or_default() += 1;
    }

    /// Positions made per second, and per thread.
    pub fn rates(&self) -> (f64, f64) {
        let rate = self.positions as f64 / self.elapsed.as_secs_f64().max(1e-9);
        (rate, rate / self.threads.max(1) as f64)
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (rate, per_thread) = self.rates();
        writeln!(
            f,
            "datagen {}: {} games, {} positions in {:.1} s: {rate:.1} positions/s with {} thread{}, {per_thread:.1} per thread",
            self.variant,
            self.games,
            self.positions,
            self.elapsed.as_secs_f64(),
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        )?;
        let list = |m: &BTreeMap<&str, u64>| m.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", ");
        if self.games > 0 {
            writeln!(f, "  results: {}", list(&self.winners))?;
            writeln!(f, "  endings: {}", list(&self.endings))?;
        }
        write!(f, "  {} ({}): {} games, {} positions", self.out, self.format, self.file_games, self.file_positions)
    }
}

/// Plays and writes the run of `settings` for game `G`, going on from
/// where its file's state says.
pub fn run<G: Playable>(settings: &Settings) -> Result<Summary, String> {
    let encoder = Encoder::new::<G>(Format::of(settings.variant))?;
    let range = settings.games();
    let fingerprint = catchess_engine::bench::run(settings.variant, Some(FINGERPRINT_DEPTH), HASH_MB, 1).nodes;
    let described = settings.describe(&encoder.format().name(), fingerprint);
    let mut output = Output::open(&settings.out, &described, &encoder.file_header(), range.start)?;
    let mut summary = Summary {
        variant: G::VARIANT,
        format: encoder.format().name(),
        out: settings.out.clone(),
        threads: settings.threads,
        ..Summary::default()
    };
    let finished = |s: &State| match settings.target {
        Target::Games(_) => s.next >= range.end,
        Target::Positions(p) => s.positions >= p,
    };
    if !finished(output.state()) {
        let state = output.state();
        let mut progress = match settings.target {
            Target::Games(_) => Progress::new(state.next - range.start, range.end - range.start, false),
            Target::Positions(p) => Progress::new(state.positions, p, true),
        };
        let result = play_and_write::<G>(
            settings,
            &encoder,
            range.clone(),
            Sink { output: &mut output, summary: &mut summary, progress: &mut progress },
            finished,
        );
        progress.finish();
        summary.elapsed = progress.elapsed();
        result?;
    }
    let state = output.state();
    (summary.file_games, summary.file_positions) = (state.next - range.start, state.positions);
    Ok(summary)
}

/// What the game threads share: the run's settings, the claims on the
/// games still to play, the finished games waiting to be written in order.
struct Shared<'a> {
    settings: &'a Settings,
    encoder: &'a Encoder,
    /// The run's end (exclusive): no game at or past it is played.
    end: u64,
    /// How far a thread may play ahead of the next game to write.
    ahead: u64,
    board: Mutex<Board>,
    wake: Condvar,
    claims: AtomicU64,
    cancel: AtomicBool,
}

/// Where the written games go: the file, the run's totals, the progress line.
struct Sink<'a> {
    output: &'a mut Output,
    summary: &'a mut Summary,
    progress: &'a mut Progress,
}

fn play_and_write<G: Playable>(
    settings: &Settings,
    encoder: &Encoder,
    range: Range<u64>,
    sink: Sink<'_>,
    finished: impl Fn(&State) -> bool,
) -> Result<(), String> {
    let Sink { output, summary, progress } = sink;
    let first = output.state().next;
    let shared = Shared {
        settings,
        encoder,
        end: range.end,
        ahead: AHEAD_PER_THREAD * settings.threads as u64,
        board: Mutex::new(Board { finished: BTreeMap::new(), next_to_write: first, live: settings.threads }),
        wake: Condvar::new(),
        claims: AtomicU64::new(first),
        cancel: AtomicBool::new(false),
    };
    let (board, wake) = (&shared.board, &shared.wake);
    std::thread::scope(|scope| {
        for _ in 0..settings.threads {
            scope.spawn(|| {
                games::<G>(&shared);
                lock(board).live -= 1;
                wake.notify_all();
            });
        }
        let result = (|| loop {
            let next = output.state().next;
            let item = {
                let mut b = lock(board);
                loop {
                    if let Some(item) = b.finished.remove(&next) {
                        break item;
                    }
                    if b.live == 0 {
                        return Err(format!("the game threads stopped before game {next}"));
                    }
                    b = wake.wait_timeout(b, Duration::from_millis(200)).unwrap_or_else(|p| p.into_inner()).0;
                }
            };
            let game = item?;
            output.append(next, &game.bytes, game.positions)?;
            lock(board).next_to_write = next + 1;
            wake.notify_all();
            summary.add(&game);
            let state = output.state();
            progress.update(state.next - range.start, state.positions, summary.positions);
            if finished(state) {
                return Ok(());
            }
        })();
        shared.cancel.store(true, Ordering::Relaxed);
        wake.notify_all();
        result
    })
}

/// One game thread: plays the next unclaimed game below the run's end
/// until none is left, the run is cancelled or a game fails.
fn games<G: Playable>(shared: &Shared) {
    let Shared { settings, encoder, end, ahead, board, wake, claims, cancel } = shared;
    let mut searcher = Searcher::<G>::new(HASH_MB);
    loop {
        let game = claims.fetch_add(1, Ordering::Relaxed);
        if game >= *end {
            return;
        }
        let mut b = lock(board);
        while game >= b.next_to_write + ahead && !cancel.load(Ordering::Relaxed) {
            b = wake.wait(b).unwrap_or_else(|p| p.into_inner());
        }
        drop(b);
        let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            play(&mut searcher, settings.seed, game, &settings.nodes, cancel)
        }));
        let item = match played {
            Ok(None) => return,
            Ok(Some(p)) => encode(encoder, &p, game),
            Err(_) => Err(format!("game {game}: the search panicked")),
        };
        let failed = item.is_err();
        lock(board).finished.insert(game, item);
        wake.notify_all();
        if failed {
            return;
        }
    }
}

fn encode<G: Playable>(encoder: &Encoder, played: &Played<G>, game: u64) -> Result<Finished, String> {
    let mut bytes = Vec::with_capacity(played.samples.len() * 64);
    for sample in &played.samples {
        encoder.encode(sample, played.winner, game, &mut bytes)?;
    }
    let positions = played.samples.len() as u64;
    Ok(Finished { bytes, positions, winner: winner_name::<G>(played.winner), ending: played.ending })
}
