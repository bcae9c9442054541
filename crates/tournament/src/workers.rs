//! The games of a match being played: worker threads, each with its own
//! pool of engine processes, take the next game of the schedule and send
//! back its report; the main thread writes each record the moment its game
//! ends, adds it to the standings, updates the SPRT, prints progress, and
//! stops everything on a signal, an SPRT decision or a failed write. A
//! worker looks for the stop file (`--stop-file`) before each game it
//! starts: once it is there no game starts, and those being played finish
//! and count, as after an SPRT decision.

use super::engine;
use super::openings::RoundOpenings;
use super::play::{self, Arbiter, GameReport, Job};
use super::pool::Pool;
use super::progress::{game_line, Progress};
use super::schedule::pair_of;
use super::signals;
use super::spec::SprtSpec;
use super::standings::{SprtStatus, Standings};
use super::stats::Model;
use catchess_game::{Arbitration, Game, Notation};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::time::Duration;

/// What the games are and where their results go.
pub struct Plan<'a, G: Notation + Arbitration> {
    pub arbiter: &'a Arbiter,
    /// One round of seatings; game i is seated as `round[i % len]`.
    pub round: &'a [Vec<usize>],
    pub openings: &'a RoundOpenings<G>,
    /// The games to play, in schedule order (0-based).
    pub todo: &'a [usize],
    /// Games in the whole match.
    pub games: usize,
    pub names: &'a [String],
    pub concurrency: usize,
    pub sprt: Option<&'a SprtSpec>,
    pub seed: u64,
    /// No game starts once this file exists (`--stop-file`: the SPRT of a
    /// match spread over shards decided, `--merge --watch` wrote it).
    pub stop_file: Option<&'a Path>,
}

/// The match so far: what the loop adds every finished game to.
pub struct State {
    pub standings: Standings,
    /// Every finished game, resumed ones first.
    pub finished: Vec<GameReport>,
    pub sprt: Option<SprtStatus>,
    /// The signal that stopped the match, if one did.
    pub interrupted: Option<i32>,
}

impl State {
    pub fn new<G: Game>(names: Vec<String>, rotating: Vec<usize>, model: Model) -> State {
        State {
            standings: Standings::new::<G>(names, rotating, model),
            finished: Vec::new(),
            sprt: None,
            interrupted: None,
        }
    }

    /// The games a stopped match had finished (`--resume`): counted, and
    /// the SPRT updated; a decision it had reached starts no new game.
    pub fn take_up(&mut self, done: Vec<GameReport>, round: &[Vec<usize>], sprt: Option<&SprtSpec>) {
        for r in &done {
            let pair = pair_of(round, r.number - 1, self.standings.rotating());
            self.standings.add(r, pair);
        }
        if let Some(spec) = sprt {
            self.sprt = Some(self.standings.sprt(spec, None));
        }
        self.finished = done;
    }

    /// Whether the SPRT has decided: no new game starts.
    fn decided(&self) -> bool {
        self.sprt.is_some_and(|s| s.decision.is_some())
    }

    /// The first SIGINT or SIGTERM stops the match: every engine killed,
    /// the games being played not counted.
    fn heed_signals(&mut self, cancel: &AtomicBool, progress: &mut Progress) {
        if let (Some(sig), None) = (signals::received(), self.interrupted) {
            self.interrupted = Some(sig);
            cancel.store(true, Ordering::SeqCst);
            engine::kill_all();
            progress.say(&format!(
                "match: {} received: engines killed, unfinished games not counted, stopping",
                signals::name(sig)
            ));
        }
    }

    /// Counts a finished game: the standings, the SPRT (a decision sets
    /// `stop`: no new game starts), the progress line.
    fn add<G: Notation + Arbitration>(
        &mut self,
        plan: &Plan<G>,
        report: GameReport,
        stop: &AtomicBool,
        progress: &mut Progress,
    ) {
        let pair = pair_of(plan.round, report.number - 1, self.standings.rotating());
        self.standings.add(&report, pair);
        let line = game_line(&report, plan.games, plan.names, G::SEATS);
        let mut notice = String::new();
        if let Some(spec) = plan.sprt {
            let status = self.standings.sprt(spec, self.sprt);
            let decided = status.decision;
            self.sprt = Some(status);
            if decided.is_some() && !stop.swap(true, Ordering::SeqCst) {
                notice.push_str(&format!(
                    " | SPRT: {} accepted, stopping",
                    if decided == Some(true) { "H1" } else { "H0" }
                ));
            }
        }
        self.finished.push(report);
        progress.game(&line, &notice, &self.standings, self.finished.len(), self.sprt);
    }
}

/// Where the records go, and the first write that failed (which stops the
/// match at once: a record lost must not pass unnoticed).
struct Records {
    out: Option<Box<dyn Write>>,
    error: Option<String>,
}

impl Records {
    fn write(&mut self, report: &GameReport, cancel: &AtomicBool) {
        let (Some(out), None) = (self.out.as_mut(), &self.error) else { return };
        if let Err(e) = out.write_all(report.record.as_bytes()).and_then(|_| out.flush()) {
            self.error = Some(format!("writing PGN: {e}"));
            cancel.store(true, Ordering::SeqCst);
            engine::kill_all();
        }
    }
}

/// Plays `plan`'s games, `records` receiving each record as its game ends.
/// An error is a failed write of the records (the match stops at once).
pub fn play_all<G: Notation + Arbitration>(
    plan: &Plan<G>,
    state: &mut State,
    records: Option<Box<dyn Write>>,
    progress: &mut Progress,
) -> Result<(), String> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(state.decided());
    let (tx, rx) = channel::<GameReport>();
    let cancel = &plan.arbiter.cancel;
    let mut records = Records { out: records, error: None };
    let halted = AtomicBool::new(false);
    let workers = plan.concurrency.clamp(1, plan.todo.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (tx, next, stop, halted) = (tx.clone(), &next, &stop, &halted);
            scope.spawn(move || play_games(plan, next, stop, halted, tx));
        }
        drop(tx);
        // Each record is written the moment its game ends (its Round tag
        // gives the game's place in the schedule), so a stopped match loses
        // no finished game.
        loop {
            let report = match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(report) => Some(report),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            state.heed_signals(cancel, progress);
            match report {
                Some(report) => {
                    records.write(&report, cancel);
                    state.add(plan, report, &stop, progress);
                }
                None => progress.tick(&state.standings, state.finished.len(), state.sprt),
            }
        }
        progress.finish();
    });
    if let (true, Some(file)) = (halted.load(Ordering::SeqCst), plan.stop_file) {
        eprintln!("match: {} exists: no new game started, those being played finished", file.display());
    }
    match records.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// One worker thread: takes the schedule's next game until none is left or
/// the match stops, plays it with its own pool of engines, and sends the
/// report back. The stop file is looked for once per game (one `stat`), so
/// the polling is bounded by the games played; finding it sets `halted`.
fn play_games<G: Notation + Arbitration>(
    plan: &Plan<G>,
    next: &AtomicUsize,
    stop: &AtomicBool,
    halted: &AtomicBool,
    tx: Sender<GameReport>,
) {
    let cancel = &plan.arbiter.cancel;
    let mut pool = Pool::default();
    while !stop.load(Ordering::SeqCst) && !cancel.load(Ordering::SeqCst) {
        if plan.stop_file.is_some_and(Path::exists) {
            halted.store(true, Ordering::SeqCst);
            stop.store(true, Ordering::SeqCst);
            break;
        }
        let Some(&i) = plan.todo.get(next.fetch_add(1, Ordering::SeqCst)) else { break };
        let Some(report) = play::play_game(plan.arbiter, &plan.job(i), &mut pool) else { break };
        if tx.send(report).is_err() {
            break;
        }
    }
    pool.shutdown();
}

impl<G: Notation + Arbitration> Plan<'_, G> {
    /// Game `i` of the schedule (0-based): its round's opening, its seating.
    fn job(&self, i: usize) -> Job<G> {
        let (start, from_startpos, opening, opening_note) = self.openings.line(i / self.round.len());
        Job {
            number: i + 1,
            seating: self.round[i % self.round.len()].clone(),
            start,
            from_startpos,
            opening,
            opening_note,
            // Far from the openings' streams (index r).
            dice_seed: self.seed ^ 0xD1CE_D1CE_D1CE_D1CE,
        }
    }
}
