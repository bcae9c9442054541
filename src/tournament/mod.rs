//! `catchess match`: an arbiter that runs engine-vs-engine tournaments for
//! every variant, Cat Chess's three seats included.
//!
//! The variant is chosen once (`with_game!`); everything below is generic
//! over [`Game`]: the seats are `G::SEATS`, moves are checked with
//! `G::parse_move`, games end by `History::outcome` or by a fault
//! (`play.rs`). Engines are subprocesses spoken to over the protocol
//! (`engine.rs`), several games at once on worker threads, each with its
//! own pool of engine processes reused from game to game.
//!
//! | file | what it owns |
//! | --- | --- |
//! | `spec.rs` | parsing engines, time controls, SPRT bounds |
//! | `engine.rs` | one engine process: lines in, lines out with deadlines |
//! | `play.rs` | one game: clocks, move checks, faults, the record |
//! | `schedule.rs` | who sits where |
//! | `openings.rs` | start positions and random plies |
//! | `record.rs` | PGN |
//! | `stats.rs` | points, Elo, SPRT |

pub mod check;
pub mod engine;
pub mod openings;
pub mod play;
pub mod record;
pub mod resume;
pub mod schedule;
pub mod signals;
pub mod spec;
pub mod stats;

use crate::game::{Arbitration, Game, History, Notation};
use crate::games::with_game;
use crate::games::VariantKind;
use openings::{BookSpec, Opening};
use play::{Arbiter, FaultKind, GameReport, Job, Pool};
use spec::{Adjudication, EngineSpec, SprtSpec, TimeControl};
use stats::{estimate, sprt_bounds, sprt_llr, sprt_llr_of, Bound, Model, Outcomes, Penta, Wdl};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Seek, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// The largest PGN file `--resume` and `--merge` read.
pub const MAX_PGN_BYTES: u64 = 1 << 30;
/// Largest `--games`.
pub const MAX_GAMES: usize = 1_000_000_000;
/// Largest `--concurrency`.
pub const MAX_CONCURRENCY: usize = 256;
/// Largest `--random-plies`.
pub const MAX_RANDOM_PLIES: usize = 1000;
/// Largest `--timeout` (and `--time-margin`): one day.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(86_400);

/// Everything `catchess match` was asked to do.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub variant: VariantKind,
    pub engines: Vec<EngineSpec>,
    /// Games to play; `None` for one round of the schedule.
    pub games: Option<usize>,
    pub concurrency: usize,
    /// `(seat, control)`: `None` for every seat, later entries win.
    pub time_controls: Vec<(Option<String>, TimeControl)>,
    pub openings: Option<String>,
    pub random_plies: usize,
    pub seed: Option<u64>,
    /// Where records go: a file, `-` for stdout, `None` for nowhere.
    pub pgn: Option<String>,
    pub timeout: Duration,
    pub time_margin: Duration,
    pub sprt: Option<SprtSpec>,
    pub event: String,
    pub log: Option<PathBuf>,
    /// The most bytes the log may hold.
    pub log_limit: u64,
    pub adjudication: Adjudication,
    /// The statistics of the table and the SPRT.
    pub model: Model,
    /// Continue the match whose records are in `pgn` (and its state file).
    pub resume: bool,
    /// `(k, n)`: play only rounds r with r mod n = k - 1 (1 ≤ k ≤ n).
    pub shard: Option<(usize, usize)>,
    /// Join the records of these files instead of playing (`--merge`).
    pub merge: Vec<String>,
}

/// The SPRT's state at the end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStatus {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    /// `Some(true)`: H1 accepted, `Some(false)`: H0 accepted.
    pub decision: Option<bool>,
}

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

/// Runs a match and prints progress to stderr; the records go where
/// `pgn` says. Errors are configuration errors found before any game.
pub fn run(config: &MatchConfig) -> Result<MatchSummary, String> {
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
        let text = openings::read_bounded(path, MAX_PGN_BYTES).map_err(|e| format!("cannot read {path}: {e}"))?;
        texts.push((path, text));
    }
    if names.is_empty() {
        // The lowest round's players, in seat order.
        let mut first: Option<(usize, Vec<String>)> = None;
        for (path, text) in &texts {
            for g in openings::split_pgn(text).map_err(|e| format!("{path}: {e}"))? {
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
        for chunk in resume::record_chunks(text) {
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
    let round = schedule::round(names.len(), G::SEATS.len());
    let mut standings = Standings::new::<G>(names.clone());
    standings.model = config.model;
    for r in &all {
        standings.add(r, pair_of(&round, r.number - 1, names.len()));
    }
    let sprt = config.sprt.as_ref().map(|spec| sprt_update(&standings, spec, None));
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

/// Time control per seat: the last `--tc` for all seats, overridden per
/// seat by `<seat>:<tc>` entries.
fn seat_time_controls<G: Game>(entries: &[(Option<String>, TimeControl)]) -> Result<Vec<TimeControl>, String> {
    let sides = G::SEATS;
    let default = TimeControl::Clock { moves: None, base: Duration::from_secs(10), inc: Duration::from_millis(100) };
    let mut tcs = vec![default; sides.len()];
    for (_, tc) in entries.iter().filter(|(s, _)| s.is_none()) {
        tcs.iter_mut().for_each(|t| *t = *tc);
    }
    for (seat, tc) in entries {
        if let Some(name) = seat {
            let i = record::seat_of::<G>(name).ok_or_else(|| {
                let names: Vec<&str> = sides.iter().map(|s| s.name).collect();
                format!("--tc {name}:{tc}: {} has no seat {name:?} (seats: {})", G::VARIANT, names.join(", "))
            })?;
            tcs[i] = *tc;
        }
    }
    Ok(tcs)
}

/// Per-engine totals.
#[derive(Clone, Default)]
struct Totals {
    wdl: Wdl,
    seat_points: Vec<f64>,
    seat_games: Vec<u32>,
    faults: BTreeMap<FaultKind, u32>,
}

struct Standings {
    names: Vec<String>,
    seat_names: Vec<&'static str>,
    engines: Vec<Totals>,
    /// Games won per seat, and drawn games.
    seat_wins: Vec<u32>,
    draws: u32,
    games: u32,
    model: Model,
    /// The first engine's game pairs, and its points in pairs with one
    /// game in so far (by pair id).
    penta: Penta,
    half_pairs: BTreeMap<(usize, usize), f64>,
}

impl Standings {
    fn new<G: Game>(names: Vec<String>) -> Standings {
        let seats = G::SEATS.len();
        let blank = Totals { seat_points: vec![0.0; seats], seat_games: vec![0; seats], ..Totals::default() };
        Standings {
            engines: vec![blank; names.len()],
            names,
            seat_names: G::SEATS.iter().map(|s| s.name).collect(),
            seat_wins: vec![0; seats],
            draws: 0,
            games: 0,
            model: Model::default(),
            penta: Penta::default(),
            half_pairs: BTreeMap::new(),
        }
    }

    /// Adds a game; `pair` names the pair of games (same opening, engines
    /// swapped) it belongs to, in a match of two engines.
    fn add(&mut self, r: &GameReport, pair: Option<(usize, usize)>) {
        if let Some(id) = pair {
            let first: f64 = r.seating.iter().zip(&r.points).filter(|(e, _)| **e == 0).map(|(_, p)| p).sum();
            match self.half_pairs.remove(&id) {
                Some(other) => self.penta.add(first + other),
                None => {
                    self.half_pairs.insert(id, first);
                }
            }
        }
        self.games += 1;
        let mut seen = Vec::new();
        for (s, &e) in r.seating.iter().enumerate() {
            let t = &mut self.engines[e];
            t.seat_points[s] += r.points[s];
            t.seat_games[s] += 1;
            if r.points[s] == 1.0 {
                self.seat_wins[s] += 1;
            }
            if !seen.contains(&e) {
                seen.push(e);
                let p: f64 = r.seating.iter().zip(&r.points).filter(|(x, _)| **x == e).map(|(_, p)| p).sum();
                t.wdl.add(p);
            }
        }
        if r.winner.is_none() {
            self.draws += 1;
        }
        for f in &r.faults {
            *self.engines[f.engine].faults.entry(f.kind).or_default() += 1;
        }
    }

    /// Points per engine, in engine order.
    fn points(&self) -> Vec<f64> {
        self.engines.iter().map(|t| t.seat_points.iter().sum()).collect()
    }

    fn line(&self) -> String {
        let points = self.points();
        let parts: Vec<String> = self.names.iter().zip(points).map(|(n, p)| format!("{n} {p}")).collect();
        parts.join(", ")
    }

    /// The record the statistics rest on: game pairs (pentanomial) when
    /// there is a complete pair, else single games.
    fn outcomes(&self) -> (Outcomes, &'static str) {
        if self.model == Model::Pentanomial && self.penta.pairs() > 0 {
            (Outcomes::pentanomial(&self.penta), "game pair")
        } else {
            (Outcomes::trinomial(&self.engines[0].wdl), "game")
        }
    }

    /// The first engine's LLR under the match's model.
    fn llr(&self, spec: &SprtSpec) -> f64 {
        match self.model {
            Model::Pentanomial => sprt_llr_of(&Outcomes::pentanomial(&self.penta), spec.elo0, spec.elo1),
            Model::Trinomial => sprt_llr(&self.engines[0].wdl, spec.elo0, spec.elo1),
        }
    }

    /// Elo, normalised Elo, LOS and the counts they come from, for a match
    /// of two engines; bounds the data cannot give are said, not printed
    /// as infinities.
    fn elo_lines(&self) -> String {
        let r = &self.engines[0].wdl;
        let (o, unit) = self.outcomes();
        let Some(e) = estimate(&o) else { return String::new() };
        let (a, b) = (&self.names[0], &self.names[1]);
        let elo = match (e.elo, e.low, e.high) {
            (Some(x), low, high) => format!("{x:+.1} ({})", interval_text(low, high)),
            (None, Bound::At(l), _) => format!("at least {l:+.1} (95 %: every {unit} won, no upper bound yet)"),
            (None, _, Bound::At(h)) => format!("at most {h:+.1} (95 %: every {unit} lost, no lower bound yet)"),
            (None, _, _) => "unknown".to_string(),
        };
        let nelo = match e.nelo {
            Some(n) => format!("{n:+.1} (95 % interval {:+.1} to {:+.1})", e.nelo_low, e.nelo_high),
            None => "undefined (no spread in the results yet)".to_string(),
        };
        let n = e.n as u32;
        let from = if unit == "game pair" {
            let c = self.penta.counts;
            let left = r.games() - 2 * self.penta.pairs();
            let left = if left > 0 { format!("; {left} games outside complete pairs") } else { String::new() };
            format!(
                "{n} game pairs (pentanomial, pairs scoring 0/0.5/1/1.5/2: {} {} {} {} {}{left})",
                c[0], c[1], c[2], c[3], c[4]
            )
        } else {
            format!("{n} games (trinomial)")
        };
        let games = r.games().max(1) as f64;
        format!(
            "Elo difference {a} vs {b}: {elo}, nElo {nelo}, LOS {:.1} %, from {from}\n\
             Games of {a}: W {} D {} L {}, score {:.1} %, draw ratio {:.1} %\n",
            e.los * 100.0,
            r.wins,
            r.draws,
            r.losses,
            100.0 * r.points() / games,
            100.0 * r.draws as f64 / games,
        )
    }

    fn table(&self, sprt: Option<(&SprtSpec, SprtStatus)>) -> String {
        let mut out = String::new();
        let width = self.names.iter().map(|n| n.len()).max().unwrap_or(6).max(6);
        let mut header = format!(
            "{:>4}  {:<width$}  {:>5}  {:>6}  {:>6}  {:>4} {:>4} {:>4}",
            "Rank", "Engine", "Games", "Points", "Score", "W", "D", "L"
        );
        for seat in &self.seat_names {
            header.push_str(&format!("  {:>9}", capitalised(seat)));
        }
        header.push_str("  Faults");
        out.push_str(&header);
        out.push('\n');
        let points = self.points();
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| points[b].total_cmp(&points[a]).then(a.cmp(&b)));
        for (rank, &e) in order.iter().enumerate() {
            let t = &self.engines[e];
            let games = t.wdl.games();
            let score = if games > 0 { 100.0 * points[e] / games as f64 } else { 0.0 };
            let mut row = format!(
                "{:>4}  {:<width$}  {:>5}  {:>6}  {:>5.1}%  {:>4} {:>4} {:>4}",
                rank + 1,
                self.names[e],
                games,
                format!("{:.1}", points[e]),
                score,
                t.wdl.wins,
                t.wdl.draws,
                t.wdl.losses
            );
            for (p, g) in t.seat_points.iter().zip(&t.seat_games) {
                row.push_str(&format!("  {:>9}", format!("{p}/{g}")));
            }
            let faults: u32 = t.faults.values().sum();
            row.push_str(&format!("  {faults:>6}"));
            out.push_str(&row);
            out.push('\n');
        }
        // Games won by each seat, then faults by kind.
        let mut seats: Vec<String> =
            self.seat_names.iter().zip(&self.seat_wins).map(|(s, w)| format!("{s} {w}")).collect();
        seats.push(format!("draw {}", self.draws));
        out.push_str(&format!("\nGames won by seat: {} ({} games)\n", seats.join(", "), self.games));
        for (e, t) in self.engines.iter().enumerate() {
            if !t.faults.is_empty() {
                let kinds: Vec<String> = t.faults.iter().map(|(k, n)| format!("{n} {}", k.name())).collect();
                out.push_str(&format!("Faults of {}: {}\n", self.names[e], kinds.join(", ")));
            }
        }
        if self.names.len() == 2 {
            out.push_str(&self.elo_lines());
        }
        if let Some((spec, status)) = sprt {
            let verdict = match status.decision {
                Some(true) => "H1 accepted",
                Some(false) => "H0 accepted",
                None => "no decision",
            };
            let model = match self.model {
                Model::Pentanomial => "pentanomial",
                Model::Trinomial => "trinomial",
            };
            out.push_str(&format!(
                "SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {:.2} (bounds {:.2}, {:.2}, {model}): {verdict}\n",
                spec.elo0, spec.elo1, spec.alpha, spec.beta, status.llr, status.lower, status.upper
            ));
        }
        out
    }
}

/// `95 % interval -12.0 to +30.5`, or what can be said when the data put
/// no bound on one side yet.
fn interval_text(low: Bound, high: Bound) -> String {
    match (low, high) {
        (Bound::At(l), Bound::At(h)) => format!("95 % interval {l:+.1} to {h:+.1}"),
        (Bound::At(l), Bound::Unbounded) => format!("95 % interval: above {l:+.1}, no upper bound yet"),
        (Bound::Unbounded, Bound::At(h)) => format!("95 % interval: below {h:+.1}, no lower bound yet"),
        (Bound::Unbounded, Bound::Unbounded) => "no 95 % bounds yet".to_string(),
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

fn run_for<G: Notation + Arbitration>(config: &MatchConfig) -> Result<MatchSummary, String> {
    let sides = G::SEATS;
    if config.engines.is_empty() {
        return Err("a match needs at least one --engine".into());
    }
    if config.engines.len() > 32 {
        return Err("at most 32 engines".into());
    }
    for (i, e) in config.engines.iter().enumerate() {
        if config.engines[..i].iter().any(|o| o.name == e.name) {
            return Err(format!("two engines are named {:?}; give each a distinct name=", e.name));
        }
    }
    if let Some((k, n)) = config.shard {
        if !(1..=n).contains(&k) {
            return Err(format!("--shard {k}/{n}: expected i/n with 1 <= i <= n"));
        }
        if config.seed.is_none() && !config.resume {
            return Err("--shard needs --seed: every shard must draw the same openings".into());
        }
        if config.sprt.is_some() {
            return Err("--shard and --sprt: a slice cannot stop the whole match; use --sprt with --merge".into());
        }
    }
    if let Some(s) = &config.sprt {
        if config.engines.len() != 2 {
            return Err(format!("--sprt {},{},{},{} needs exactly two engines", s.elo0, s.elo1, s.alpha, s.beta));
        }
    }
    let time_controls = seat_time_controls::<G>(&config.time_controls)?;
    check_limits(config)?;
    let round = schedule::round(config.engines.len(), sides.len());
    let games = config.games.unwrap_or(round.len());
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    let pgn_file = config.pgn.as_deref().filter(|p| *p != "-");
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    // A resumed match takes its seed from the state file and must have
    // the settings it was started with; its finished games are its records.
    let resumed = match (config.resume, pgn_file) {
        (false, _) => None,
        (true, None) => return Err("--resume needs --pgn FILE: the records of the match to continue".into()),
        (true, Some(path)) => {
            let state = resume::State::read(&resume::state_path(path))?;
            if config.seed.is_some_and(|s| s != state.seed) {
                return Err(format!("--resume: the match was started with --seed {}", state.seed));
            }
            let now = settings(config, &time_controls);
            if now != state.settings {
                return Err(format!(
                    "--resume: the match was started with other settings:\n  then: {}\n  now:  {now}",
                    state.settings
                ));
            }
            let text = openings::read_bounded(path, MAX_PGN_BYTES).map_err(|e| format!("cannot read {path}: {e}"))?;
            let complete = resume::complete_prefix(&text);
            let mut done = resume::reports::<G>(&text[..complete], &names, path)?;
            done.retain(|r| r.number <= games);
            let mut numbers: Vec<usize> = done.iter().map(|r| r.number).collect();
            numbers.sort_unstable();
            if numbers.windows(2).any(|w| w[0] == w[1]) {
                return Err(format!("{path}: a round number appears twice"));
            }
            Some((state.seed, done, complete, text.len() - complete))
        }
    };
    let seed = match &resumed {
        Some((seed, ..)) => *seed,
        None => config.seed.unwrap_or_else(|| {
            let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
            t.as_nanos() as u64 ^ std::process::id() as u64
        }),
    };

    // Openings: one per round of the schedule, shared by its games: book
    // line r (cycling), then random plies. The first pass through the book
    // is drawn now (an opening that cannot be played is a configuration
    // error); later rounds as they come.
    let book: Vec<Opening<G>> = match &config.openings {
        Some(text) => openings::load_book::<G>(&BookSpec::parse(text)?, seed)?,
        None => vec![Opening { start: G::startpos(), moves: Vec::new(), source: String::new() }],
    };
    let rounds = games.div_ceil(round.len());
    let startpos_fen = G::startpos().to_fen();
    let line_for = |r: usize| -> Result<(Vec<G::Move>, Option<String>), String> {
        let o = &book[r % book.len()];
        let mut h = History::new(o.start);
        o.moves.iter().for_each(|&m| h.push(m));
        let book_turns = h.turn_count();
        let extra = openings::random_line(h.current(), config.random_plies, &mut openings::rng_for(seed, r as u64))?;
        // Plies are turns, however many steps each took.
        let mut notes = Vec::new();
        if !o.moves.is_empty() {
            notes.push(format!("opening: {}, {book_turns} plies", o.source));
        }
        if !extra.is_empty() {
            notes.push(format!("opening: {} random plies", config.random_plies));
        }
        let moves = o.moves.iter().chain(&extra).copied().collect();
        Ok((moves, (!notes.is_empty()).then(|| notes.join("; "))))
    };
    let first_lines = (0..rounds.min(book.len())).map(line_for).collect::<Result<Vec<_>, _>>()?;

    let cancel = Arc::new(AtomicBool::new(false));
    signals::install();
    for e in &config.engines {
        play::preflight(e, config.variant, config.timeout, cancel.clone())?;
        if let Some(sig) = signals::received() {
            engine::kill_all();
            return Err(format!("{} received before the first game", signals::name(sig)));
        }
    }
    let log = match &config.log {
        Some(path) => Some(engine::Log::create(path, config.log_limit)?),
        None => None,
    };
    let arbiter = Arbiter {
        variant: config.variant,
        engines: config.engines.clone(),
        time_controls: time_controls.clone(),
        timeout: config.timeout,
        time_margin: config.time_margin,
        event: config.event.clone(),
        date: record::today(),
        log: log.clone(),
        cancel: cancel.clone(),
        adjudication: config.adjudication,
    };
    let mut pgn_out: Option<Box<dyn Write>> = match (config.pgn.as_deref(), &resumed) {
        (None, _) => None,
        (Some("-"), _) => Some(Box::new(std::io::stdout())),
        (Some(path), None) => {
            let file = std::fs::File::create(path).map_err(|e| format!("cannot create PGN file {path}: {e}"))?;
            resume::State { seed, settings: settings(config, &time_controls) }.write(&resume::state_path(path))?;
            Some(Box::new(file))
        }
        (Some(path), Some((_, _, complete, _))) => {
            // A record cut off by the stop is dropped; its game is played again.
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .and_then(|f| f.set_len(*complete as u64).map(|_| f))
                .map_err(|e| format!("cannot append to PGN file {path}: {e}"))?;
            let mut file = file;
            file.seek(std::io::SeekFrom::End(0)).map_err(|e| format!("{path}: {e}"))?;
            Some(Box::new(file))
        }
    };

    let tcs: Vec<String> = sides.iter().zip(&time_controls).map(|(s, tc)| format!("{} {tc}", s.name)).collect();
    eprintln!(
        "match: {} | {} | {games} games ({} per round{}) | {} | concurrency {} | seed {seed}",
        G::VARIANT,
        names.join(", "),
        round.len(),
        if !games.is_multiple_of(round.len()) { ", last round incomplete: seats unbalanced" } else { "" },
        tcs.join(", "),
        config.concurrency.max(1)
    );

    let started = std::time::Instant::now();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel::<GameReport>();
    let mut standings = Standings::new::<G>(names.clone());
    standings.model = config.model;
    let mut finished: Vec<GameReport> = Vec::new();
    let mut sprt_status: Option<SprtStatus> = None;
    let mut interrupted = None;
    let mut write_error = None;
    // The games still to play, in schedule order.
    let mut todo: Vec<usize> = (0..games).collect();
    if let Some((_, done, _, cut)) = resumed {
        todo.retain(|i| !done.iter().any(|r| r.number == i + 1));
        for r in &done {
            standings.add(r, pair_of(&round, r.number - 1, config.engines.len()));
        }
        if let Some(spec) = &config.sprt {
            sprt_status = Some(sprt_update(&standings, spec, None));
            if sprt_status.is_some_and(|s| s.decision.is_some()) {
                stop.store(true, Ordering::SeqCst);
            }
        }
        eprintln!(
            "match: resuming: {} of {games} games already played ({} | {}){}",
            done.len(),
            standings.line(),
            pgn_file.unwrap_or_default(),
            if cut > 0 { format!("; a cut-off last record ({cut} bytes) dropped") } else { String::new() }
        );
        finished = done;
    }
    if let Some((k, n)) = config.shard {
        // Whole rounds (so game pairs stay together), every n-th one.
        todo.retain(|i| (i / round.len()) % n == k - 1);
        eprintln!("match: shard {k}/{n}: {} of the {games} games", todo.len());
    }
    let todo = &todo;
    let resumed_games = finished.len();
    // A terminal gets a live status line; anything else plain lines.
    let live = std::io::stderr().is_terminal();
    let mut last_status = std::time::Instant::now();
    let workers = config.concurrency.clamp(1, todo.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (arbiter, next, stop, round, first_lines) = (&arbiter, &next, &stop, &round, &first_lines);
            let (startpos_fen, line_for, book) = (&startpos_fen, &line_for, &book);
            scope.spawn(move || {
                let mut pool = Pool::default();
                while !stop.load(Ordering::SeqCst) && !arbiter.cancel.load(Ordering::SeqCst) {
                    let Some(&i) = todo.get(next.fetch_add(1, Ordering::SeqCst)) else { break };
                    let r = i / round.len();
                    let o = &book[r % book.len()];
                    let (moves, note) = match first_lines.get(r).cloned().map_or_else(|| line_for(r), Ok) {
                        Ok(line) => line,
                        Err(e) => (o.moves.clone(), Some(e)),
                    };
                    let start = o.start;
                    let job = Job::<G> {
                        number: i + 1,
                        seating: round[i % round.len()].clone(),
                        start,
                        from_startpos: start.to_fen() == *startpos_fen,
                        opening: moves,
                        opening_note: note,
                        // Far from the openings' streams (index r).
                        dice_seed: seed ^ 0xD1CE_D1CE_D1CE_D1CE,
                    };
                    let Some(report) = play::play_game(arbiter, &job, &mut pool) else { break };
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
            if let (Some(sig), None) = (signals::received(), interrupted) {
                interrupted = Some(sig);
                cancel.store(true, Ordering::SeqCst);
                engine::kill_all();
                eprintln!(
                    "match: {} received: engines killed, unfinished games not counted, stopping",
                    signals::name(sig)
                );
            }
            let Some(report) = report else {
                if live && last_status.elapsed() >= Duration::from_secs(1) {
                    let played = finished.len() - resumed_games;
                    let status =
                        status_line(&standings, finished.len(), games, sprt_status, started, played, todo.len());
                    eprint!("\r\x1b[K{status}");
                    last_status = std::time::Instant::now();
                }
                continue;
            };
            if write_error.is_none() {
                if let Some(out) = pgn_out.as_mut() {
                    if let Err(e) = out.write_all(report.record.as_bytes()).and_then(|_| out.flush()) {
                        write_error = Some(format!("writing PGN: {e}"));
                        cancel.store(true, Ordering::SeqCst);
                        engine::kill_all();
                    }
                }
            }
            standings.add(&report, pair_of(&round, report.number - 1, config.engines.len()));
            let faults: Vec<String> = report.faults.iter().map(|f| format!("{} {}", f.side, f.kind.name())).collect();
            let seating: Vec<String> =
                report.seating.iter().zip(sides).map(|(&e, s)| format!("{} ({})", names[e], s.name)).collect();
            let line = format!(
                "game {}/{games}: {}: {} [{}], {} plies{}",
                report.number,
                seating.join(" - "),
                report.result,
                report.termination,
                report.plies,
                if faults.is_empty() { String::new() } else { format!("; faults: {}", faults.join(", ")) },
            );
            let mut notice = String::new();
            if let Some(spec) = &config.sprt {
                let status = sprt_update(&standings, spec, sprt_status);
                let decided = status.decision;
                sprt_status = Some(status);
                if decided.is_some() && !stop.swap(true, Ordering::SeqCst) {
                    notice.push_str(&format!(
                        " | SPRT: {} accepted, stopping",
                        if decided == Some(true) { "H1" } else { "H0" }
                    ));
                }
            }
            finished.push(report);
            let played = finished.len() - resumed_games;
            let status = status_line(&standings, finished.len(), games, sprt_status, started, played, todo.len());
            if live {
                // The game's line stays; the status line below it is redrawn.
                eprint!("\r\x1b[K{line}{notice}\n{status}");
                last_status = std::time::Instant::now();
            } else {
                eprintln!("{line} | {status}{notice}");
            }
        }
        if live {
            eprint!("\r\x1b[K");
        }
    });
    if let Some(e) = write_error {
        return Err(e);
    }
    finished.sort_by_key(|r| r.number);
    let mut table = standings.table(config.sprt.as_ref().zip(sprt_status));
    let log_error = log.as_ref().and_then(|l| l.error());
    if let Some(e) = &log_error {
        table.push_str(&format!("The log is incomplete: {e}\n"));
    }
    let memory = signals::peak_rss().map(|b| format!(", peak memory {:.1} MB", b as f64 / 1e6)).unwrap_or_default();
    eprintln!(
        "match: {} of {games} games in {:.1} s{memory}{}",
        finished.len(),
        started.elapsed().as_secs_f64(),
        if interrupted.is_some() { " (stopped by a signal)" } else { "" }
    );
    Ok(MatchSummary { games: finished, table, sprt: sprt_status, interrupted, log_error })
}

/// The progress summary: games done, the first engine's score and Elo
/// (two engines), the LLR, and the time left at the pace of this run.
fn status_line(
    s: &Standings,
    done: usize,
    games: usize,
    sprt: Option<SprtStatus>,
    started: std::time::Instant,
    played: usize,
    to_play: usize,
) -> String {
    let mut parts = vec![format!("{done}/{games} games")];
    if s.names.len() == 2 {
        let r = &s.engines[0].wdl;
        let score = 100.0 * r.points() / r.games().max(1) as f64;
        parts.push(format!(
            "{} {:.1} - {} {:.1} ({score:.1} %)",
            s.names[0],
            r.points(),
            s.names[1],
            r.games() as f64 - r.points()
        ));
        let (o, _) = s.outcomes();
        if let Some(e) = estimate(&o) {
            parts.push(match (e.elo, e.low, e.high) {
                (Some(x), Bound::At(l), Bound::At(h)) => format!("Elo {x:+.1} ± {:.1}", (h - l) / 2.0),
                (Some(x), _, _) => format!("Elo {x:+.1} ± ?"),
                (None, Bound::At(l), _) => format!("Elo ≥ {l:+.1}"),
                (None, _, Bound::At(h)) => format!("Elo ≤ {h:+.1}"),
                _ => "Elo ?".to_string(),
            });
        }
    } else {
        parts.push(s.line());
    }
    if let Some(st) = sprt {
        parts.push(format!("LLR {:.2} ({:.2}, {:.2})", st.llr, st.lower, st.upper));
    }
    let left = to_play.saturating_sub(played);
    if played > 0 && left > 0 {
        let secs = started.elapsed().as_secs_f64() / played as f64 * left as f64;
        parts.push(format!("ETA {}", duration_text(secs)));
    }
    parts.join(" | ")
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

/// The SPRT after the latest game: the first decision stands (games
/// already running still count).
fn sprt_update(standings: &Standings, spec: &SprtSpec, before: Option<SprtStatus>) -> SprtStatus {
    let llr = standings.llr(spec);
    let (lower, upper) = sprt_bounds(spec.alpha, spec.beta);
    let decision = if llr >= upper {
        Some(true)
    } else if llr <= lower {
        Some(false)
    } else {
        None
    };
    SprtStatus { llr, lower, upper, decision: before.and_then(|s| s.decision).or(decision) }
}

/// Every setting the schedule and the games depend on, as the state file
/// keeps them (a resumed match must have the same; `--games`,
/// `--concurrency`, the statistics and the log may change).
fn settings(config: &MatchConfig, tcs: &[TimeControl]) -> String {
    let engines: Vec<String> = config
        .engines
        .iter()
        .map(|e| format!("{} {:?} {:?} {:?} {:?}", e.name, e.command, e.dir, e.options, e.tc.map(|t| t.to_string())))
        .collect();
    let tcs: Vec<String> = tcs.iter().map(TimeControl::to_string).collect();
    format!(
        "{} | shard {:?} | engines {} | tc {} | openings {:?} | random plies {} | timeout {:?} | margin {:?} | {:?}",
        config.variant,
        config.shard,
        engines.join("; "),
        tcs.join(" "),
        config.openings,
        config.random_plies,
        config.timeout,
        config.time_margin,
        config.adjudication
    )
    .replace('\n', " ")
}

/// The pair game `i` (0-based) belongs to in a match of two engines: its
/// round and the lower of its and its partner's place in the round (the
/// partner has the engines swapped in every seat).
fn pair_of(round: &[Vec<usize>], i: usize, engines: usize) -> Option<(usize, usize)> {
    if engines != 2 {
        return None;
    }
    let k = i % round.len();
    let swapped: Vec<usize> = round[k].iter().map(|e| 1 - e).collect();
    let partner = round.iter().position(|s| *s == swapped)?;
    Some((i / round.len(), k.min(partner)))
}

/// Bounds on the numbers a match is given, so that no value makes it
/// allocate without bound, overflow a clock or spawn endless threads.
fn check_limits(config: &MatchConfig) -> Result<(), String> {
    if config.games.is_some_and(|g| g > MAX_GAMES) {
        return Err(format!("--games must be at most {MAX_GAMES}"));
    }
    if config.concurrency > MAX_CONCURRENCY {
        return Err(format!("--concurrency must be at most {MAX_CONCURRENCY}"));
    }
    if config.random_plies > MAX_RANDOM_PLIES {
        return Err(format!("--random-plies must be at most {MAX_RANDOM_PLIES}"));
    }
    if config.timeout.is_zero() || config.timeout > MAX_TIMEOUT {
        return Err(format!("--timeout must be more than 0 and at most {} seconds", MAX_TIMEOUT.as_secs()));
    }
    if config.time_margin > MAX_TIMEOUT {
        return Err(format!("--time-margin must be at most {} ms", MAX_TIMEOUT.as_millis()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Seat;
    use crate::games::{CatChess, Chess};

    fn report(number: usize, seating: &[usize], winner: Option<Seat>, points: &[f64]) -> GameReport {
        GameReport {
            number,
            seating: seating.to_vec(),
            winner,
            result: String::new(),
            points: points.to_vec(),
            termination: String::new(),
            faults: vec![],
            plies: 0,
            record: String::new(),
        }
    }

    #[test]
    fn standings_count_an_engine_in_two_seats_once_per_game() {
        let mut s = Standings::new::<CatChess>(vec!["a".into(), "b".into()]);
        // a holds white and black: black wins, a gets 1.
        s.add(&report(1, &[0, 0, 1], Some(Seat::new(1)), &[0.0, 1.0, 0.0]), None);
        // b's cats faulted, the game was drawn: a (white) ½, b (black) ½, cats 0.
        s.add(&report(2, &[0, 1, 1], None, &[0.5, 0.5, 0.0]), None);
        // b's cats win.
        s.add(&report(3, &[0, 0, 1], Some(Seat::new(2)), &[0.0, 0.0, 1.0]), None);
        assert_eq!(s.points(), [1.5, 1.5]);
        assert_eq!(s.engines[0].wdl, Wdl { wins: 1, draws: 1, losses: 1 });
        assert_eq!(s.engines[1].wdl, Wdl { wins: 1, draws: 1, losses: 1 });
        assert_eq!(s.engines[0].seat_games, [3, 2, 0]);
        assert_eq!(s.engines[1].seat_points, [0.0, 0.5, 1.0]);
        assert_eq!((s.seat_wins.clone(), s.draws), (vec![0, 1, 1], 1));
        let table = s.table(None);
        assert!(table.contains("Elo difference a vs b: +0.0"), "{table}");
        assert!(table.contains("Games won by seat: white 0, black 1, cats 1, draw 1 (3 games)"), "{table}");
    }

    #[test]
    fn pairs_are_the_games_of_an_opening_with_the_engines_swapped() {
        let chess = schedule::round(2, 2);
        assert_eq!(
            (pair_of(&chess, 0, 2), pair_of(&chess, 1, 2), pair_of(&chess, 5, 2)),
            (Some((0, 0)), Some((0, 0)), Some((2, 0)))
        );
        // Cat Chess, two engines: AAB with BBA, ABA with BAB, ABB with BAA.
        let cats = schedule::round(2, 3);
        let ids: Vec<_> = (0..6).map(|i| pair_of(&cats, i, 2).unwrap().1).collect();
        assert_eq!(ids, [0, 1, 2, 2, 1, 0]);
        assert_eq!(pair_of(&schedule::round(3, 2), 0, 3), None);

        // 2-0 in one pair, then a 1-1 pair: pentanomial [0, 0, 1, 0, 1].
        let mut s = Standings::new::<Chess>(vec!["a".into(), "b".into()]);
        s.add(&report(1, &[0, 1], Some(Seat::new(0)), &[1.0, 0.0]), pair_of(&chess, 0, 2));
        let t = s.table(None);
        assert!(t.contains("from 1 games (trinomial)") && t.contains("at least"), "no pair complete yet: {t}");
        s.add(&report(2, &[1, 0], Some(Seat::new(1)), &[0.0, 1.0]), pair_of(&chess, 1, 2));
        let t = s.table(None);
        assert!(!t.contains("inf"), "{t}");
        assert!(
            t.contains("Elo difference a vs b: at least -511.5 (95 %: every game pair won, no upper bound yet)"),
            "{t}"
        );
        s.add(&report(3, &[0, 1], Some(Seat::new(0)), &[1.0, 0.0]), pair_of(&chess, 2, 2));
        s.add(&report(5, &[0, 1], None, &[0.5, 0.5]), pair_of(&chess, 4, 2));
        s.add(&report(4, &[1, 0], Some(Seat::new(0)), &[1.0, 0.0]), pair_of(&chess, 3, 2));
        assert_eq!(s.penta.counts, [0, 0, 1, 0, 1]);
        let t = s.table(None);
        assert!(t.contains("from 2 game pairs (pentanomial, pairs scoring 0/0.5/1/1.5/2: 0 0 1 0 1; 1 games outside complete pairs)"), "{t}");
        assert!(t.contains("Games of a: W 3 D 1 L 1, score 70.0 %, draw ratio 20.0 %"), "{t}");
        assert!(t.contains("+190.8 (95 % interval") && t.contains("nElo +"), "{t}");
        s.model = Model::Trinomial;
        assert!(s.table(None).contains("from 5 games (trinomial)"));
    }

    #[test]
    fn time_controls_per_seat() {
        let e = |s: Option<&str>, t: &str| (s.map(String::from), TimeControl::parse(t).unwrap());
        let tcs = seat_time_controls::<CatChess>(&[e(None, "5+0.1"), e(Some("cats"), "depth=2")]).unwrap();
        assert_eq!(tcs[0], TimeControl::parse("5+0.1").unwrap());
        assert_eq!(tcs[1], tcs[0]);
        assert_eq!(tcs[2], TimeControl::Depth(2));
        // A seat override holds whatever order the flags come in.
        let tcs = seat_time_controls::<CatChess>(&[e(Some("white"), "depth=1"), e(None, "5+0.1")]).unwrap();
        assert_eq!(tcs[0], TimeControl::Depth(1));
        let err = seat_time_controls::<Chess>(&[e(Some("cats"), "depth=2")]).unwrap_err();
        assert!(err.contains("no seat \"cats\""), "{err}");
        assert_eq!(seat_time_controls::<Chess>(&[]).unwrap()[1].to_string(), "10+0.1");
    }
}
