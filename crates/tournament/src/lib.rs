//! `catchess match`: an arbiter that runs engine-vs-engine tournaments for
//! every variant, Cat Chess's three seats included.
//!
//! The variant is chosen once (`with_game!`); everything below is generic
//! over [`Game`](catchess_game::Game): the seats are `G::SEATS`, moves are
//! checked with `G::parse_move`, games end by `History::outcome` or by a
//! fault (`play.rs`). Engines are subprocesses spoken to over the protocol
//! (`engine.rs`), several games at once on worker threads, each with its
//! own pool of engine processes reused from game to game.
//!
//! | file | what it owns |
//! | --- | --- |
//! | `mod.rs` | a match from start to end ([`run`], [`command`]), and `--merge` |
//! | `config.rs` | the settings of a match, their bounds and every check of them |
//! | `spec.rs` | parsing engines, time controls, SPRT bounds, adjudication rules |
//! | `engine.rs` | one engine process: lines in, lines out with deadlines; the log |
//! | `play.rs` | one game, step by step: seats started, engines asked, answers checked, clocks charged, faults, adjudication, the record |
//! | `pool.rs` | engine processes: checked before the match, set up for a game, reused across games |
//! | `schedule.rs` | who sits where, and which games form a pair |
//! | `openings.rs` | start positions, random plies, each round's opening (PGN books through `game::pgn`) |
//! | `workers.rs` | the worker threads and the loop that takes their results |
//! | `standings.rs` | the standings, the SPRT's state, the final table |
//! | `progress.rs` | the lines printed while a match runs |
//! | `record.rs` | what a match record says: its tags, results, terminations, move comments (written and read through `game::pgn`) |
//! | `resume.rs` | the records file and its state file: `--resume`, reading records back |
//! | `stats.rs` | points, Elo, SPRT |
//! | `signals.rs` | SIGINT and SIGTERM, peak memory |
//! | `check.rs` | `catchess pgn check`: replaying records with the game's rules |
//! | `review.rs` | `catchess pgn stats`: clock use and where losses turned, per engine and seat |

pub mod check;
pub mod config;
pub mod engine;
pub mod openings;
pub mod play;
pub mod pool;
pub mod progress;
pub mod resume;
pub mod review;
pub mod schedule;
pub mod signals;
pub mod spec;
pub mod standings;
pub mod stats;
pub mod workers;

use catchess_game::pgn::MAX_PGN_BYTES;
pub use config::{MatchConfig, MAX_CONCURRENCY, MAX_GAMES, MAX_RANDOM_PLIES, MAX_TIMEOUT};
pub use standings::SprtStatus;

use catchess_core::files::read_bounded;
use catchess_game::pgn;
use catchess_game::pgn::record::capitalised;
use catchess_game::{Arbitration, Notation};
use catchess_games::with_game;
use openings::RoundOpenings;
use play::{Arbiter, GameReport};
use progress::Progress;
use resume::Resumed;
use schedule::pair_of;
use standings::Standings;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use workers::{Plan, State};

/// What a match produced.
pub struct MatchSummary {
    /// Every finished game, in game (round) order.
    pub games: Vec<GameReport>,
    /// The final table, as printed.
    pub table: String,
    pub sprt: Option<SprtStatus>,
    /// The signal that stopped the match early, if one did.
    pub interrupted: Option<i32>,
    /// Why the log stopped, if a write failed.
    pub log_error: Option<String>,
}

/// `catchess match`: runs the match and prints its table on stdout; the
/// exit status is 128 + the signal's number if a signal stopped it.
pub fn command(config: &MatchConfig) -> Result<ExitCode, String> {
    let summary = run(config)?;
    print!("\n{}", summary.table);
    Ok(match summary.interrupted {
        Some(sig) => ExitCode::from((128 + sig).clamp(1, 255) as u8),
        None => ExitCode::SUCCESS,
    })
}

/// Runs a match and prints progress to stderr; the records go where
/// `pgn` says. Errors are configuration errors found before any game (or
/// a failed write of the records, which stops the match).
pub fn run(config: &MatchConfig) -> Result<MatchSummary, String> {
    config.validate()?;
    if !config.merge.is_empty() {
        return with_game!(config.variant, G => merge_for::<G>(config));
    }
    with_game!(config.variant, G => run_for::<G>(config))
}

/// Joins the records of a match played in slices (`--shard`) into one
/// table with the same statistics; with `pgn`, writes them there in
/// schedule order. The engines are those of `config` when given, else the
/// players of the first game of the schedule, in seat order (engine 0 is
/// white in game 1).
fn merge_for<G: Notation + Arbitration>(config: &MatchConfig) -> Result<MatchSummary, String> {
    let mut all: Vec<GameReport> = Vec::new();
    let mut names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let mut texts = Vec::new();
    for path in &config.merge {
        let text = read_bounded(path, MAX_PGN_BYTES).map_err(|e| format!("cannot read {path}: {e}"))?;
        texts.push((path, text));
    }
    if names.is_empty() {
        // The lowest round's players, in seat order.
        let mut first: Option<(usize, Vec<String>)> = None;
        for (path, text) in &texts {
            for g in pgn::read_all(text, &pgn::result_words::<G>()).map_err(|e| format!("{path}: {e}"))? {
                let round: usize = g.tag("Round").and_then(|r| r.parse().ok()).unwrap_or(usize::MAX);
                if first.as_ref().is_none_or(|(r, _)| round < *r) {
                    let players =
                        G::SEATS.iter().filter_map(|s| g.tag(&capitalised(s.name)).map(String::from)).collect();
                    first = Some((round, players));
                }
            }
        }
        for p in first.map(|(_, p)| p).unwrap_or_default() {
            if !names.contains(&p) {
                names.push(p);
            }
        }
    }
    if names.is_empty() {
        return Err("--merge: no records".into());
    }
    for (path, text) in &texts {
        for chunk in resume::record_chunks(text).map_err(|e| format!("{path}: {e}"))? {
            for mut r in resume::reports::<G>(chunk, &names, path)? {
                if all.iter().any(|o| o.number == r.number) {
                    return Err(format!("--merge: game {} is in two files ({path})", r.number));
                }
                r.record = chunk.to_string();
                all.push(r);
            }
        }
    }
    all.sort_by_key(|r| r.number);
    let mut pins = merge_pins::<G>(config, &all)?;
    pins.resize(names.len(), None);
    let round = schedule::pinned_round(&pins, G::SEATS.len());
    let rotating = schedule::rotating(&pins);
    let mut standings = Standings::new::<G>(names.clone(), rotating.clone(), config.model);
    for r in &all {
        standings.add(r, pair_of(&round, r.number - 1, &rotating));
    }
    let sprt = config.sprt.as_ref().map(|spec| standings.sprt(spec, None));
    if let Some(path) = config.pgn.as_deref().filter(|p| *p != "-") {
        let text: String = all.iter().map(|r| r.record.as_str()).collect();
        std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    let numbers: Vec<usize> = all.iter().map(|r| r.number).collect();
    let last = numbers.last().copied().unwrap_or(0);
    let missing = last - numbers.len();
    eprintln!(
        "merge: {} games from {} files (rounds 1 to {last}{})",
        all.len(),
        config.merge.len(),
        if missing > 0 { format!(", {missing} missing") } else { String::new() }
    );
    let table = standings.table(config.sprt.as_ref().zip(sprt));
    Ok(MatchSummary { games: all, table, sprt, interrupted: None, log_error: None })
}

/// The seats of the engines of merged records: the `seat=` of the
/// `--engine` specs given (pinned engines cannot be told from the records
/// of part of a match). With pins, every record must sit as the schedule
/// says: records of another match, or specs without the same `seat=`,
/// are refused rather than paired wrongly.
fn merge_pins<G: Notation + Arbitration>(
    config: &MatchConfig,
    all: &[GameReport],
) -> Result<Vec<Option<usize>>, String> {
    if config.engines.is_empty() {
        return Ok(Vec::new());
    }
    let pins = config.pins::<G>()?;
    if pins.iter().any(Option::is_some) {
        let round = schedule::pinned_round(&pins, G::SEATS.len());
        if let Some(r) = all.iter().find(|r| r.seating != round[(r.number - 1) % round.len()]) {
            return Err(format!(
                "--merge: game {} is not seated as the engines given (and their seat=) would seat it",
                r.number
            ));
        }
    }
    Ok(pins)
}

/// A match to play: the resume state, the openings, the engines started
/// once to check them, the records opened, then the games.
fn run_for<G: Notation + Arbitration>(config: &MatchConfig) -> Result<MatchSummary, String> {
    let time_controls = config.seat_time_controls::<G>()?;
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let pins = config.pins::<G>()?;
    let round = schedule::pinned_round(&pins, G::SEATS.len());
    let games = config.games.unwrap_or(round.len());
    let settings = resume::settings(config, &time_controls);
    // A resumed match takes its seed from the state file and must have
    // the settings it was started with; its finished games are its records.
    let resumed = match config.pgn.as_deref() {
        Some(path) if config.resume => Some(Resumed::load::<G>(path, config.seed, &settings, &names, games)?),
        _ => None,
    };
    let seed = resumed.as_ref().map(|r| r.seed).or(config.seed).unwrap_or_else(|| {
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        t.as_nanos() as u64 ^ std::process::id() as u64
    });
    let openings =
        RoundOpenings::<G>::new(config.openings.as_deref(), config.random_plies, seed, games.div_ceil(round.len()))?;

    let arbiter = start_engines(config, time_controls.clone())?;
    let records = resume::open_records(config.pgn.as_deref(), resumed.as_ref(), seed, &settings)?;

    let tcs: Vec<String> = G::SEATS.iter().zip(&time_controls).map(|(s, tc)| format!("{} {tc}", s.name)).collect();
    eprintln!(
        "match: {} | {} | {games} games ({} per round{}) | {} | concurrency {} | seed {seed}",
        G::VARIANT,
        names.join(", "),
        round.len(),
        if !games.is_multiple_of(round.len()) { ", last round incomplete: seats unbalanced" } else { "" },
        tcs.join(", "),
        config.concurrency.max(1)
    );

    let mut state = State::new::<G>(names.clone(), schedule::rotating(&pins), config.model);
    let todo = games_to_play(config, games, &round, resumed, &mut state);
    let mut progress = Progress::new(games, state.finished.len(), todo.len());
    let plan = Plan {
        arbiter: &arbiter,
        round: &round,
        openings: &openings,
        todo: &todo,
        games,
        names: &names,
        concurrency: config.concurrency,
        sprt: config.sprt.as_ref(),
        seed,
    };
    workers::play_all(&plan, &mut state, records, &mut progress)?;
    Ok(summary(config, state, &arbiter, &progress, games))
}

/// The games still to play, in schedule order: every game of the match,
/// less those a resumed match has finished (taken up into `state`), and
/// with `--shard` only the shard's rounds.
fn games_to_play(
    config: &MatchConfig,
    games: usize,
    round: &[Vec<usize>],
    resumed: Option<Resumed>,
    state: &mut State,
) -> Vec<usize> {
    let mut todo: Vec<usize> = (0..games).collect();
    if let Some(Resumed { done, cut, .. }) = resumed {
        todo.retain(|i| !done.iter().any(|r| r.number == i + 1));
        state.take_up(done, round, config.sprt.as_ref());
        eprintln!(
            "match: resuming: {} of {games} games already played ({} | {}){}",
            state.finished.len(),
            state.standings.line(),
            config.pgn.as_deref().unwrap_or_default(),
            if cut > 0 { format!("; a cut-off last record ({cut} bytes) dropped") } else { String::new() }
        );
    }
    if let Some((k, n)) = config.shard {
        // Whole rounds (so game pairs stay together), every n-th one.
        todo.retain(|i| (i / round.len()) % n == k - 1);
        eprintln!("match: shard {k}/{n}: {} of the {games} games", todo.len());
    }
    todo
}

/// The match's outcome once its games are played: the finished games in
/// schedule order, the final table (with a word on an incomplete log),
/// and a last line on stderr.
fn summary(config: &MatchConfig, state: State, arbiter: &Arbiter, progress: &Progress, games: usize) -> MatchSummary {
    let mut finished = state.finished;
    finished.sort_by_key(|r| r.number);
    let mut table = state.standings.table(config.sprt.as_ref().zip(state.sprt));
    let log_error = arbiter.log.as_ref().and_then(|l| l.error());
    if let Some(e) = &log_error {
        table.push_str(&format!("The log is incomplete: {e}\n"));
    }
    let memory = signals::peak_rss().map(|b| format!(", peak memory {:.1} MB", b as f64 / 1e6)).unwrap_or_default();
    eprintln!(
        "match: {} of {games} games in {:.1} s{memory}{}",
        finished.len(),
        progress.elapsed().as_secs_f64(),
        if state.interrupted.is_some() { " (stopped by a signal)" } else { "" }
    );
    MatchSummary { games: finished, table, sprt: state.sprt, interrupted: state.interrupted, log_error }
}

/// Installs the signal handlers, starts each engine once to check it (it
/// must speak the protocol and know its options), opens the log, and
/// returns the arbiter the games are played under.
fn start_engines(config: &MatchConfig, time_controls: Vec<spec::TimeControl>) -> Result<Arbiter, String> {
    let cancel = Arc::new(AtomicBool::new(false));
    signals::install();
    let orphans = engine::reap_orphans();
    if orphans > 0 {
        eprintln!("match: killed {orphans} engine process(es) left running by an arbiter that was killed");
    }
    for e in &config.engines {
        pool::preflight(e, config.variant, config.timeout, cancel.clone())?;
        if let Some(sig) = signals::received() {
            engine::kill_all();
            return Err(format!("{} received before the first game", signals::name(sig)));
        }
    }
    let log = match &config.log {
        Some(path) => Some(engine::Log::create(path, config.log_limit)?),
        None => None,
    };
    Ok(Arbiter {
        variant: config.variant,
        engines: config.engines.clone(),
        time_controls,
        timeout: config.timeout,
        time_margin: config.time_margin,
        event: config.event.clone(),
        date: catchess_game::pgn::record::today(),
        log,
        cancel,
        adjudication: config.adjudication,
    })
}
