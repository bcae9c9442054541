//! `catchess match`: an arbiter that runs engine-vs-engine tournaments for
//! every variant, Cat Chess's three seats included.
//!
//! The variant is chosen once (`with_game!`); everything below is generic
//! over [`Game`]: the seats are `G::sides()`, moves are checked with
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

pub mod engine;
pub mod openings;
pub mod play;
pub mod record;
pub mod schedule;
pub mod spec;
pub mod stats;

use crate::game::{Arbitration, Game, Notation};
use crate::games::with_game;
use crate::games::VariantKind;
use play::{Arbiter, FaultKind, GameReport, Job, Pool};
use spec::{EngineSpec, SprtSpec, TimeControl};
use stats::{elo_estimate, sprt_bounds, sprt_llr, Wdl};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::Duration;

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
    /// Every finished game, in game order.
    pub games: Vec<GameReport>,
    /// The final table, as printed.
    pub table: String,
    pub sprt: Option<SprtStatus>,
}

/// Runs a match and prints progress to stderr; the records go where
/// `pgn` says. Errors are configuration errors found before any game.
pub fn run(config: &MatchConfig) -> Result<MatchSummary, String> {
    with_game!(config.variant, G => run_for::<G>(config))
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
        }
    }

    fn add(&mut self, r: &GameReport) {
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
            let r = &self.engines[0].wdl;
            if let Some(e) = elo_estimate(r) {
                let f = |x: f64| {
                    if x.is_finite() {
                        format!("{x:+.1}")
                    } else if x > 0.0 {
                        "+inf".into()
                    } else {
                        "-inf".into()
                    }
                };
                out.push_str(&format!(
                    "Elo difference {} vs {}: {} (95 % interval {} to {}), LOS {:.1} %, from W {} D {} L {}\n",
                    self.names[0],
                    self.names[1],
                    f(e.elo),
                    f(e.low),
                    f(e.high),
                    e.los * 100.0,
                    r.wins,
                    r.draws,
                    r.losses
                ));
            }
        }
        if let Some((spec, status)) = sprt {
            let verdict = match status.decision {
                Some(true) => "H1 accepted",
                Some(false) => "H0 accepted",
                None => "no decision",
            };
            out.push_str(&format!(
                "SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {:.2} (bounds {:.2}, {:.2}): {verdict}\n",
                spec.elo0, spec.elo1, spec.alpha, spec.beta, status.llr, status.lower, status.upper
            ));
        }
        out
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
    if let Some(s) = &config.sprt {
        if config.engines.len() != 2 {
            return Err(format!("--sprt {},{},{},{} needs exactly two engines", s.elo0, s.elo1, s.alpha, s.beta));
        }
    }
    let time_controls = seat_time_controls::<G>(&config.time_controls)?;
    let round = schedule::round(config.engines.len(), sides.len());
    let games = config.games.unwrap_or(round.len());
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    let seed = config.seed.unwrap_or_else(|| {
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        t.as_nanos() as u64 ^ std::process::id() as u64
    });

    // Openings: one per round of the schedule, shared by its games.
    let positions: Vec<G> = match &config.openings {
        Some(path) => openings::load::<G>(path)?,
        None => vec![G::startpos()],
    };
    let rounds = games.div_ceil(round.len());
    let startpos_fen = G::startpos().to_fen();
    let mut lines = Vec::with_capacity(rounds);
    for r in 0..rounds {
        let start = positions[r % positions.len()];
        let moves = openings::random_line(&start, config.random_plies, &mut openings::rng_for(seed, r as u64))?;
        lines.push((start, moves));
    }

    for e in &config.engines {
        play::preflight(e, config.variant, config.timeout)?;
    }
    let log = match &config.log {
        Some(path) => Some(engine::Log::create(path)?),
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
        log,
    };
    let mut pgn_out: Option<Box<dyn Write>> = match config.pgn.as_deref() {
        None => None,
        Some("-") => Some(Box::new(std::io::stdout())),
        Some(path) => {
            Some(Box::new(std::fs::File::create(path).map_err(|e| format!("cannot create PGN file {path}: {e}"))?))
        }
    };

    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
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

    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel::<GameReport>();
    let mut standings = Standings::new::<G>(names.clone());
    let mut finished: Vec<GameReport> = Vec::new();
    let mut sprt_status: Option<SprtStatus> = None;
    let workers = config.concurrency.clamp(1, games);
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..workers {
            let tx = tx.clone();
            let (arbiter, next, stop, round, lines) = (&arbiter, &next, &stop, &round, &lines);
            let startpos_fen = &startpos_fen;
            scope.spawn(move || {
                let mut pool = Pool::default();
                while !stop.load(Ordering::SeqCst) {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= games {
                        break;
                    }
                    let (start, moves) = &lines[i / round.len()];
                    let job = Job::<G> {
                        number: i + 1,
                        seating: round[i % round.len()].clone(),
                        start: *start,
                        from_startpos: start.to_fen() == *startpos_fen,
                        opening: moves.clone(),
                        opening_note: (!moves.is_empty()).then(|| format!("opening: {} random plies", moves.len())),
                    };
                    let report = play::play_game(arbiter, &job, &mut pool);
                    if tx.send(report).is_err() {
                        break;
                    }
                }
                pool.shutdown();
            });
        }
        drop(tx);
        // Records are written in game order as soon as every earlier game is in.
        let mut pending: BTreeMap<usize, GameReport> = BTreeMap::new();
        let mut next_to_write = 1;
        for report in rx {
            standings.add(&report);
            let faults: Vec<String> = report.faults.iter().map(|f| format!("{} {}", f.side, f.kind.name())).collect();
            let seating: Vec<String> =
                report.seating.iter().zip(sides).map(|(&e, s)| format!("{} ({})", names[e], s.name)).collect();
            let mut line = format!(
                "game {}/{games}: {}: {} [{}], {} plies{} | {}",
                report.number,
                seating.join(" - "),
                report.result,
                report.termination,
                report.plies,
                if faults.is_empty() { String::new() } else { format!("; faults: {}", faults.join(", ")) },
                standings.line()
            );
            if let Some(spec) = &config.sprt {
                let llr = sprt_llr(&standings.engines[0].wdl, spec.elo0, spec.elo1);
                let (lower, upper) = sprt_bounds(spec.alpha, spec.beta);
                let decision = if llr >= upper {
                    Some(true)
                } else if llr <= lower {
                    Some(false)
                } else {
                    None
                };
                // The first decision stands; games already running still count.
                let decided = sprt_status.and_then(|s| s.decision).or(decision);
                sprt_status = Some(SprtStatus { llr, lower, upper, decision: decided });
                line.push_str(&format!(" | LLR {llr:.2} ({lower:.2}, {upper:.2})"));
                if decided.is_some() && !stop.swap(true, Ordering::SeqCst) {
                    line.push_str(&format!(
                        " | SPRT: {} accepted, stopping",
                        if decided == Some(true) { "H1" } else { "H0" }
                    ));
                }
            }
            eprintln!("{line}");
            pending.insert(report.number, report);
            while let Some(r) = pending.remove(&next_to_write) {
                if let Some(out) = pgn_out.as_mut() {
                    out.write_all(r.record.as_bytes())
                        .and_then(|_| out.flush())
                        .map_err(|e| format!("writing PGN: {e}"))?;
                }
                finished.push(r);
                next_to_write += 1;
            }
        }
        // Games never played (an SPRT stop) leave no gap: what is left is in order.
        for (_, r) in std::mem::take(&mut pending) {
            if let Some(out) = pgn_out.as_mut() {
                out.write_all(r.record.as_bytes()).map_err(|e| format!("writing PGN: {e}"))?;
            }
            finished.push(r);
        }
        Ok(())
    })?;

    let table = standings.table(config.sprt.as_ref().zip(sprt_status));
    Ok(MatchSummary { games: finished, table, sprt: sprt_status })
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
        s.add(&report(1, &[0, 0, 1], Some(Seat::new(1)), &[0.0, 1.0, 0.0]));
        // b's cats faulted, the game was drawn: a (white) ½, b (black) ½, cats 0.
        s.add(&report(2, &[0, 1, 1], None, &[0.5, 0.5, 0.0]));
        // b's cats win.
        s.add(&report(3, &[0, 0, 1], Some(Seat::new(2)), &[0.0, 0.0, 1.0]));
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
