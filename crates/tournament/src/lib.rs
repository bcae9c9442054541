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
//! | `mod.rs` | a match from start to end ([`run`], [`command`]) |
//! | `merge.rs` | `--merge`: the records of a match's shards joined into one table, checked to belong together and to be complete; `--watch` |
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
//! | `resume.rs` | the records file and its state file: `--resume` (which also starts a match), reading records back |
//! | `stats.rs` | points, Elo, SPRT |
//! | `signals.rs` | SIGINT and SIGTERM, peak memory |
//! | `check.rs` | `catchess pgn check`: replaying records with the game's rules |
//! | `review.rs` | `catchess pgn stats`: clock use and where losses turned, per engine and seat |

pub mod check;
pub mod config;
pub mod engine;
pub mod merge;
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

pub use config::{MatchConfig, MAX_CONCURRENCY, MAX_GAMES, MAX_RANDOM_PLIES, MAX_TIMEOUT};
pub use standings::SprtStatus;

use catchess_game::{Arbitration, Notation};
use catchess_games::with_game;
use openings::RoundOpenings;
use play::{Arbiter, GameReport};
use progress::Progress;
use resume::Resumed;
use spec::{EngineSpec, TimeControl};
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
        return with_game!(config.variant, G => merge::run::<G>(config));
    }
    with_game!(config.variant, G => run_for::<G>(config))
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
    // the settings it was started with; its finished games are its
    // records. `--resume` with no state yet starts the match.
    let resumed = match config.pgn.as_deref() {
        Some(path) if config.resume => {
            let resumed = Resumed::load::<G>(path, config.seed, &settings, &names, games)?;
            if resumed.is_none() {
                if config.shard.is_some() && config.seed.is_none() {
                    return Err(config::SHARD_NEEDS_SEED.into());
                }
                eprintln!("match: --resume: no {} yet: starting the match", resume::state_path(path));
            }
            resumed
        }
        _ => None,
    };
    let seed = resumed.as_ref().map(|r| r.seed).or(config.seed).unwrap_or_else(|| {
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        t.as_nanos() as u64 ^ std::process::id() as u64
    });
    let openings =
        RoundOpenings::<G>::new(config.openings.as_deref(), config.random_plies, seed, games.div_ceil(round.len()))?;

    let arbiter = start_engines(config, time_controls.clone())?;
    let state = resume::State {
        seed,
        games: Some(games),
        engines: resume::players(config),
        shard: config.shard,
        settings: settings.text,
        version: 2,
    };
    let records = resume::open_records(config.pgn.as_deref(), resumed.as_ref(), &state)?;

    eprintln!(
        "match: {} | {} | {games} games ({} per round{}) | {} | concurrency {} | seed {seed}",
        G::VARIANT,
        names.join(", "),
        round.len(),
        if !games.is_multiple_of(round.len()) { ", last round incomplete: seats unbalanced" } else { "" },
        time_controls_text(G::SEATS.iter().map(|s| s.name).zip(&time_controls), &config.engines),
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
        stop_file: config.stop_file.as_deref(),
    };
    workers::play_all(&plan, &mut state, records, &mut progress)?;
    Ok(summary(config, state, &arbiter, &progress, games))
}

/// The header's time controls: each seat's, for the engines that play by
/// it, then each engine's own `tc=`, which overrides its seat's (a header
/// that gave only the seats' would name a clock nobody plays by).
fn time_controls_text<'a>(seats: impl Iterator<Item = (&'a str, &'a TimeControl)>, engines: &[EngineSpec]) -> String {
    let own: Vec<String> = engines.iter().filter_map(|e| e.tc.map(|tc| format!("{} {tc}", e.name))).collect();
    let mut parts = Vec::new();
    if own.len() < engines.len() {
        parts.push(seats.map(|(seat, tc)| format!("{seat} {tc}")).collect::<Vec<_>>().join(", "));
    }
    if !own.is_empty() {
        parts.push(own.join(", "));
    }
    parts.join("; ")
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
    if let Some(shard) = config.shard {
        // Whole rounds (so game pairs stay together), every n-th one.
        todo.retain(|i| shard.takes((i / round.len()) as u64));
        eprintln!("match: shard {shard}: {} of the {games} games", todo.len());
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
fn start_engines(config: &MatchConfig, time_controls: Vec<TimeControl>) -> Result<Arbiter, String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_names_the_time_controls_played_by() {
        let clock = TimeControl::parse("10+0.1").unwrap();
        let seats = || ["white", "black", "cats"].into_iter().zip([&clock, &clock, &clock]);
        let engine = |text: &str| EngineSpec::parse(text).unwrap();
        let by_seat = [engine("name=a cmd=x"), engine("name=b cmd=x")];
        assert_eq!(time_controls_text(seats(), &by_seat), "white 10+0.1, black 10+0.1, cats 10+0.1");
        let own = [engine("name=a cmd=x tc=nodes=20000"), engine("name=d1 cmd=x tc=depth=1")];
        assert_eq!(time_controls_text(seats(), &own), "a nodes=20000, d1 depth=1");
        let mixed = [engine("name=a cmd=x"), engine("name=d1 cmd=x tc=depth=1")];
        assert_eq!(time_controls_text(seats(), &mixed), "white 10+0.1, black 10+0.1, cats 10+0.1; d1 depth=1");
    }
}
