//! The games of a match being played: worker threads, each with its own
//! pool of engine processes, take the next game of the schedule and send
//! back its report; the main thread writes each record the moment its game
//! ends, adds it to the standings, updates the SPRT, prints progress, and
//! stops everything on a signal, an SPRT decision or a failed write.

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
use crate::game::{Arbitration, Game, Notation};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
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
}

/// The match so far: what the loop adds every finished game to.
pub struct State {
    pub standings: Standings,
    /// Every finished game, resumed ones first.
    pub finished: Vec<GameReport>,
    pub sprt: Option<SprtStatus>,
    /// Set once the SPRT has decided: no new game starts.
    pub stop: AtomicBool,
    /// The signal that stopped the match, if one did.
    pub interrupted: Option<i32>,
}

impl State {
    pub fn new<G: Game>(names: Vec<String>, rotating: Vec<usize>, model: Model) -> State {
        State {
            standings: Standings::new::<G>(names, rotating, model),
            finished: Vec::new(),
            sprt: None,
            stop: AtomicBool::new(false),
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
            let status = self.standings.sprt(spec, None);
            self.stop.store(status.decision.is_some(), Ordering::SeqCst);
            self.sprt = Some(status);
        }
        self.finished = done;
    }
}

/// Plays `plan`'s games, `records` receiving each record as its game ends.
/// An error is a failed write of the records (the match stops at once).
pub fn play_all<G: Notation + Arbitration>(
    plan: &Plan<G>,
    state: &mut State,
    mut records: Option<Box<dyn Write>>,
    progress: &mut Progress,
) -> Result<(), String> {
    let next = AtomicUsize::new(0);
    let (tx, rx) = channel::<GameReport>();
    let cancel = &plan.arbiter.cancel;
    let mut write_error = None;
    let workers = plan.concurrency.clamp(1, plan.todo.len().max(1));
    let stop = &state.stop;
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                let mut pool = Pool::default();
                while !stop.load(Ordering::SeqCst) && !cancel.load(Ordering::SeqCst) {
                    let Some(&i) = plan.todo.get(next.fetch_add(1, Ordering::SeqCst)) else { break };
                    let (start, from_startpos, opening, opening_note) = plan.openings.line(i / plan.round.len());
                    let job = Job::<G> {
                        number: i + 1,
                        seating: plan.round[i % plan.round.len()].clone(),
                        start,
                        from_startpos,
                        opening,
                        opening_note,
                        // Far from the openings' streams (index r).
                        dice_seed: plan.seed ^ 0xD1CE_D1CE_D1CE_D1CE,
                    };
                    let Some(report) = play::play_game(plan.arbiter, &job, &mut pool) else { break };
                    if tx.send(report).is_err() {
                        break;
                    }
                }
                pool.shutdown();
            });
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
            if let (Some(sig), None) = (signals::received(), state.interrupted) {
                state.interrupted = Some(sig);
                cancel.store(true, Ordering::SeqCst);
                engine::kill_all();
                progress.say(&format!(
                    "match: {} received: engines killed, unfinished games not counted, stopping",
                    signals::name(sig)
                ));
            }
            let Some(report) = report else {
                progress.tick(&state.standings, state.finished.len(), state.sprt);
                continue;
            };
            if write_error.is_none() {
                if let Some(out) = records.as_mut() {
                    if let Err(e) = out.write_all(report.record.as_bytes()).and_then(|_| out.flush()) {
                        write_error = Some(format!("writing PGN: {e}"));
                        cancel.store(true, Ordering::SeqCst);
                        engine::kill_all();
                    }
                }
            }
            let pair = pair_of(plan.round, report.number - 1, state.standings.rotating());
            state.standings.add(&report, pair);
            let line = game_line(&report, plan.games, plan.names, G::SEATS);
            let mut notice = String::new();
            if let Some(spec) = plan.sprt {
                let status = state.standings.sprt(spec, state.sprt);
                let decided = status.decision;
                state.sprt = Some(status);
                if decided.is_some() && !stop.swap(true, Ordering::SeqCst) {
                    notice.push_str(&format!(
                        " | SPRT: {} accepted, stopping",
                        if decided == Some(true) { "H1" } else { "H0" }
                    ));
                }
            }
            state.finished.push(report);
            progress.game(&line, &notice, &state.standings, state.finished.len(), state.sprt);
        }
        progress.finish();
    });
    match write_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
