//! One game under the arbiter: engines are asked for moves in turn, every
//! move is checked with the game's own rules, clocks are kept here, and the
//! rules (`History::outcome`) or a fault end the game.
//!
//! Faults (protocol.md, "Matches and faults"): an illegal move, a time
//! loss, a crash or a hang. White's or black's fault ends the game, won by
//! the other of the two. A cats fault scores the cats 0 and the game goes
//! on with the arbiter passing (`0000`) for them; a draw then gives white
//! and black ½ each.

use super::engine::{EngineProcess, Failure, Log, Score, UciInfo, MAX_LINE};
use super::record::{self, RecordTags};
use super::spec::{Adjudication, EngineSpec, TimeControl};
use super::stats::seat_points;
use crate::game::{Arbitration, Game, History, Notation, Seat, SeatInfo};
use crate::games::VariantKind;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What an engine did wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FaultKind {
    /// `bestmove` with a move that is malformed or not legal (or `(none)`).
    IllegalMove,
    /// The clock (or the fixed move time) ran out before `bestmove`.
    TimeForfeit,
    /// The process exited or closed its pipes, or could not be started.
    Crash,
    /// No `uciok`, `readyok`, or (under a depth or node limit) `bestmove`
    /// within the match's timeout.
    Hang,
    /// A line longer than the arbiter keeps (`engine::MAX_LINE`).
    LineTooLong,
}

impl FaultKind {
    pub const ALL: [FaultKind; 5] =
        [FaultKind::IllegalMove, FaultKind::TimeForfeit, FaultKind::Crash, FaultKind::Hang, FaultKind::LineTooLong];

    pub fn name(self) -> &'static str {
        match self {
            FaultKind::IllegalMove => "illegal move",
            FaultKind::TimeForfeit => "time forfeit",
            FaultKind::Crash => "crash",
            FaultKind::Hang => "hang",
            FaultKind::LineTooLong => "line too long",
        }
    }
}

/// A fault, as the record and the table report it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub seat: usize,
    pub side: &'static str,
    pub engine: usize,
    pub kind: FaultKind,
    /// The ply the engine was asked for, counted in turns (1 = the game's
    /// first turn, 0 = before the first turn, while starting the engine).
    pub ply: usize,
    pub detail: String,
}

impl Fault {
    /// `cats (rnd) hang at ply 3: no bestmove within 1.000 s ...`.
    pub fn describe(&self, engine: &str) -> String {
        let at = if self.ply == 0 { "at the start".to_string() } else { format!("at ply {}", self.ply) };
        format!("{} ({engine}) {} {at}: {}", self.side, self.kind.name(), self.detail)
    }
}

/// Match-wide settings the arbiter needs in every game.
pub struct Arbiter {
    pub variant: VariantKind,
    pub engines: Vec<EngineSpec>,
    /// Time control per seat.
    pub time_controls: Vec<TimeControl>,
    /// How long `uciok`, `readyok` and depth- or node-limited `bestmove`s may take.
    pub timeout: Duration,
    /// Allowance past a clock or move time before it counts as exceeded.
    pub time_margin: Duration,
    pub event: String,
    pub date: String,
    pub log: Option<Log>,
    /// Set to abandon the match: every wait ends at once.
    pub cancel: Arc<AtomicBool>,
    pub adjudication: Adjudication,
}

/// Idle engine processes of one worker, by engine, reused across games.
#[derive(Default)]
pub struct Pool {
    idle: Vec<Vec<EngineProcess>>,
}

impl Pool {
    /// A process of engine `e` ready for a new game: an idle one after
    /// `ucinewgame`, or a fresh one after `uci` and its options.
    fn checkout(&mut self, arbiter: &Arbiter, e: usize) -> Result<EngineProcess, (FaultKind, String)> {
        if self.idle.len() <= e {
            self.idle.resize_with(e + 1, Vec::new);
        }
        match self.idle[e].pop() {
            Some(mut p) => match p.send("ucinewgame").and_then(|_| p.sync(arbiter.timeout)) {
                Ok(()) => Ok(p),
                // Dropping the process kills it; the next game starts a new one.
                Err(f) => Err(failure_fault(f, "readyok", arbiter.timeout)),
            },
            None => start(arbiter, e),
        }
    }

    fn checkin(&mut self, e: usize, p: EngineProcess) {
        if !p.is_dead() {
            self.idle[e].push(p);
        }
    }

    /// Ends every idle process.
    pub fn shutdown(self) {
        for p in self.idle.into_iter().flatten() {
            p.quit();
        }
    }
}

fn failure_fault(f: Failure, what: &str, timeout: Duration) -> (FaultKind, String) {
    match f {
        Failure::Timeout => {
            (FaultKind::Hang, format!("no {what} within {:.1} s; engine killed", timeout.as_secs_f64()))
        }
        Failure::Exited(how) => (FaultKind::Crash, format!("{how} (while waiting for {what})")),
        Failure::LineTooLong => (FaultKind::LineTooLong, too_long(what)),
        Failure::Cancelled => (FaultKind::Crash, "the match was stopped".to_string()),
    }
}

fn too_long(what: &str) -> String {
    format!("a line of more than {MAX_LINE} bytes (while waiting for {what}); engine killed")
}

/// Starts engine `e` and sets it up: `uci`, `UCI_Variant`, the options,
/// `isready`.
fn start(arbiter: &Arbiter, e: usize) -> Result<EngineProcess, (FaultKind, String)> {
    let spec = &arbiter.engines[e];
    let mut p =
        EngineProcess::spawn(spec, arbiter.log.clone(), arbiter.cancel.clone()).map_err(|e| (FaultKind::Crash, e))?;
    let info = p.handshake(arbiter.timeout).map_err(|f| failure_fault(f, "uciok", arbiter.timeout))?;
    for line in setup_lines(spec, &info, arbiter.variant) {
        p.send(&line).map_err(|f| failure_fault(f, "setoption", arbiter.timeout))?;
    }
    p.send("ucinewgame").map_err(|f| failure_fault(f, "ucinewgame", arbiter.timeout))?;
    p.sync(arbiter.timeout).map_err(|f| failure_fault(f, "readyok", arbiter.timeout))?;
    Ok(p)
}

/// The `setoption` lines for an engine: the variant (whenever the engine
/// has `UCI_Variant`, so a Cat Chess engine asked to play chess plays
/// chess), then the user's options in order.
pub fn setup_lines(spec: &EngineSpec, info: &UciInfo, variant: VariantKind) -> Vec<String> {
    let mut lines = Vec::new();
    if info.has_option("UCI_Variant") {
        lines.push(format!("setoption name UCI_Variant value {variant}"));
    }
    for (name, value) in &spec.options {
        lines.push(format!("setoption name {name} value {value}"));
    }
    lines
}

/// Checks before a match that an engine starts, speaks UCI, plays the
/// variant and has the options it is given. Errors are the user's to fix,
/// so they stop the match before it starts.
pub fn preflight(
    spec: &EngineSpec,
    variant: VariantKind,
    timeout: Duration,
    cancel: Arc<AtomicBool>,
) -> Result<UciInfo, String> {
    let mut p = EngineProcess::spawn(spec, None, cancel)?;
    let info = p.handshake(timeout).map_err(|f| match f {
        Failure::Timeout => format!("engine {}: no uciok within {:.1} s", spec.name, timeout.as_secs_f64()),
        Failure::Exited(how) => format!("engine {}: {how} before uciok", spec.name),
        Failure::LineTooLong => format!("engine {}: a line of more than {MAX_LINE} bytes before uciok", spec.name),
        Failure::Cancelled => "the match was stopped".to_string(),
    })?;
    p.quit();
    match &info.variants {
        Some(vars) if !vars.iter().any(|v| v == variant.name()) => {
            return Err(format!("engine {} does not play {variant} (its UCI_Variant: {})", spec.name, vars.join(", ")));
        }
        // A UCI engine without the option plays the default game.
        None if variant != crate::engine::defaults::PROTOCOL_GAME => {
            return Err(format!(
                "engine {} has no UCI_Variant option, so it plays only {}, not {variant}",
                spec.name,
                crate::engine::defaults::PROTOCOL_GAME
            ));
        }
        _ => {}
    }
    for (name, _) in &spec.options {
        if !info.has_option(name) {
            return Err(format!("engine {} has no option {name:?} (it has: {})", spec.name, info.options.join(", ")));
        }
    }
    Ok(info)
}

/// A game to play: its number, the seating and the opening.
pub struct Job<G: Game> {
    /// 1-based.
    pub number: usize,
    /// Engine per seat.
    pub seating: Vec<usize>,
    pub start: G,
    /// Whether `start` is the variant's start position (`position startpos`).
    pub from_startpos: bool,
    pub opening: Vec<G::Move>,
    /// A comment on the opening for the record.
    pub opening_note: Option<String>,
    /// The seed of the arbiter's dice (a game with rolls): each game rolls
    /// its own stream, the same in every run of the match.
    pub dice_seed: u64,
}

/// A finished game, as the match totals it.
#[derive(Clone, Debug)]
pub struct GameReport {
    pub number: usize,
    pub seating: Vec<usize>,
    /// The winner as scored: `Draw` for a drawn game whose cats faulted.
    pub winner: Option<Seat>,
    pub result: String,
    pub points: Vec<f64>,
    pub termination: String,
    pub faults: Vec<Fault>,
    /// Turns played (`History::turn_count`).
    pub plies: usize,
    /// The PGN record.
    pub record: String,
}

/// A seat during a game.
struct SeatState {
    engine: usize,
    process: Option<EngineProcess>,
    tc: TimeControl,
    /// Clock time left (for clock controls).
    left: Duration,
    /// Moves made (for repeating controls).
    moves: u32,
    /// A seat that faulted but plays on (Cat Chess's cats): no longer
    /// asked, the arbiter passes for it.
    forfeited: bool,
    /// Own moves in a row with a score inside the draw rule's bound.
    draw_streak: u32,
    /// Own moves in a row with a score at or below the resign rule's.
    resign_streak: u32,
}

/// Counts a move's score toward the adjudication rules.
fn update_streaks(seat: &mut SeatState, score: Option<Score>, adj: &Adjudication) {
    if let Some(d) = adj.draw {
        let inside = matches!(score, Some(Score::Cp(c)) if c.abs() <= d.score);
        seat.draw_streak = if inside { seat.draw_streak + 1 } else { 0 };
    }
    if let Some(r) = adj.resign {
        let lost = match score {
            Some(Score::Cp(c)) => c <= -r.score,
            Some(Score::Mate(m)) => m < 0,
            None => false,
        };
        seat.resign_streak = if lost { seat.resign_streak + 1 } else { 0 };
    }
}

/// Whether the adjudication rules end the game after `plies` plies (turns,
/// `History::turn_count`, however many steps each took): a
/// resignation first (by a seat whose forfeit ends the game,
/// `Arbitration::forfeit_winner`: white or black, never Cat Chess's cats),
/// then a draw by scores (every seat's engine still asked agrees), then the
/// move limit. A draw is the game's draw, won by `Game::draw_winner` (the
/// cats in Cat Chess).
fn adjudicate<G: Arbitration>(seats: &[SeatState], plies: usize, adj: &Adjudication) -> Option<(Option<Seat>, String)> {
    let full_moves = (plies / G::SEATS.len()) as u32;
    if let Some(r) = adj.resign {
        for (s, seat) in seats.iter().enumerate() {
            let Some(winner) = G::forfeit_winner(Seat::new(s)) else { continue };
            if seat.resign_streak >= r.move_count {
                let name = G::SEATS[s].name;
                let why = format!("{} moves at -{} cp or worse", r.move_count, r.score);
                return Some((Some(winner), format!("adjudication: {name} resigns ({why})")));
            }
        }
    }
    if let Some(d) = adj.draw {
        let asked: Vec<&SeatState> = seats.iter().filter(|s| !s.forfeited).collect();
        if full_moves >= d.move_number && asked.iter().all(|s| s.draw_streak >= d.move_count) {
            let why = format!("every engine's score within {} cp for {} moves", d.score, d.move_count);
            return Some((G::draw_winner(), format!("adjudication: draw ({why})")));
        }
    }
    match adj.max_moves {
        Some(m) if full_moves >= m => Some((G::draw_winner(), format!("adjudication: move limit ({m} moves)"))),
        _ => None,
    }
}

/// The `go` line for the seat `mover`: its own limit, and with a clock
/// every clocked seat's time and increment (`wtime btime ctime winc binc
/// cinc`) plus `movestogo` for a repeating control.
fn go_line(infos: &[SeatInfo], seats: &[SeatState], mover: usize) -> String {
    match seats[mover].tc {
        TimeControl::MoveTime(t) => format!("go movetime {}", t.as_millis()),
        TimeControl::Depth(d) => format!("go depth {d}"),
        TimeControl::Nodes(n) => format!("go nodes {n}"),
        TimeControl::Clock { moves, .. } => {
            let mut line = String::from("go");
            for (info, seat) in infos.iter().zip(seats) {
                if let TimeControl::Clock { inc, .. } = seat.tc {
                    let p = info.clock;
                    line.push_str(&format!(" {p}time {} {p}inc {}", seat.left.as_millis(), inc.as_millis()));
                }
            }
            if let Some(m) = moves {
                line.push_str(&format!(" movestogo {}", m - seats[mover].moves % m));
            }
            line
        }
    }
}

/// Writes down a fault of seat `s`. Where the game says a forfeit ends it
/// (`Arbitration::forfeit_winner`), the winner and the termination are
/// returned; otherwise the seat passes from now on (Cat Chess's cats).
fn record_fault<G: Arbitration>(
    faults: &mut Vec<Fault>,
    seats: &mut [SeatState],
    s: usize,
    kind: FaultKind,
    ply: usize,
    detail: String,
) -> Option<(Option<Seat>, String)> {
    let name = G::SEATS[s].name;
    faults.push(Fault { seat: s, side: name, engine: seats[s].engine, kind, ply, detail });
    let Some(winner) = G::forfeit_winner(Seat::new(s)) else {
        seats[s].forfeited = true;
        return None;
    };
    Some((Some(winner), record::termination_by(kind.name(), name)))
}

fn append(slot: &mut Option<String>, text: String) {
    *slot = Some(match slot.take() {
        Some(old) => format!("{old}; {text}"),
        None => text,
    });
}

/// The `position` line for the game so far.
fn position_line<G: Notation>(history: &History<G>, from_startpos: bool) -> String {
    let mut line = if from_startpos {
        "position startpos".to_string()
    } else {
        format!("position fen {}", history.start().to_fen())
    };
    let turns = history.turn_texts();
    if !turns.is_empty() {
        line.push_str(" moves");
        for t in turns {
            line.push(' ');
            line.push_str(&t);
        }
    }
    line
}

/// Plays one game. Engines come from `pool` and go back to it unless they
/// died or were killed. `None` if the match was stopped before the game ended.
pub fn play_game<G: Notation + Arbitration>(arbiter: &Arbiter, job: &Job<G>, pool: &mut Pool) -> Option<GameReport> {
    let sides = G::SEATS;
    let mut history = History::new(job.start);
    for &m in &job.opening {
        history.push(m);
    }
    let mut seats: Vec<SeatState> = job
        .seating
        .iter()
        .zip(&arbiter.time_controls)
        .map(|(&engine, &seat_tc)| (engine, arbiter.engines[engine].tc.unwrap_or(seat_tc)))
        .map(|(engine, tc)| SeatState {
            engine,
            process: None,
            tc,
            left: match tc {
                TimeControl::Clock { base, .. } => base,
                _ => Duration::ZERO,
            },
            moves: 0,
            forfeited: false,
            draw_streak: 0,
            resign_streak: 0,
        })
        .collect();
    let mut faults: Vec<Fault> = Vec::new();
    // Comments after each turn (opening turns have none).
    let mut dice = crate::tournament::openings::rng_for(job.dice_seed, job.number as u64);
    let mut comments: Vec<Option<String>> = vec![None; history.turn_count()];
    let mut before = job.opening_note.clone();
    let mut ended: Option<(Option<Seat>, String)> = None;
    let mut last_comment: Option<String> = None;

    // Engines start in seat order; a fault there is scored like any other.
    for s in 0..seats.len() {
        match pool.checkout(arbiter, seats[s].engine) {
            Ok(p) => seats[s].process = Some(p),
            Err((kind, detail)) => {
                let end = record_fault::<G>(&mut faults, &mut seats, s, kind, 0, detail);
                let text = faults.last().map(|f| f.describe(&arbiter.engines[f.engine].name)).unwrap_or_default();
                if end.is_some() {
                    ended = end;
                    last_comment = Some(text);
                    break;
                }
                append(&mut before, format!("{text}; the {} pass throughout", G::SEATS[s].name));
            }
        }
    }

    while ended.is_none() {
        // A win is void for a seat that has forfeited (the cats' win by a
        // draw, once they have faulted): the game's forfeit rule.
        let void = |w: Option<Seat>| G::winner_after_forfeits(w, |s| seats[s.index()].forfeited);
        if let Some(o) = history.outcome() {
            ended = Some((void(o.winner), o.reason.name().to_string()));
            break;
        }
        if let Some((winner, why)) = adjudicate::<G>(&seats, history.turn_count(), &arbiter.adjudication) {
            ended = Some((void(winner), why));
            break;
        }
        let pos = *history.current();
        if pos.is_chance() {
            // The engine asked for a roll (a teleport in Cat's Chess 10x10):
            // the arbiter rolls, where the rules roll, notes it with the
            // turn, and asks again.
            let Some(outcome) = history.roll(&mut dice) else {
                ended = Some((None, "no outcome to roll".to_string()));
                break;
            };
            match comments.last_mut() {
                Some(slot) => append(slot, format!("roll {outcome}")),
                None => append(&mut before, format!("roll {outcome}")),
            }
            continue;
        }
        let s = pos.to_move().index();
        let ply = history.turn_count() + 1;
        // Whether this answer finishes a turn begun by an earlier one.
        let continuing = !pos.at_turn_start();
        if seats[s].forfeited {
            let pass = pos.arbiter_pass().expect("only a side the arbiter can pass for plays on after a fault");
            history.push(pass);
            comments.push(None);
            continue;
        }
        let position = position_line(&history, job.from_startpos);
        let go = go_line(sides, &seats, s);
        let tc = seats[s].tc;
        let (allowed, deadline_kind) = match tc {
            TimeControl::Clock { .. } => (seats[s].left + arbiter.time_margin, FaultKind::TimeForfeit),
            TimeControl::MoveTime(t) => (t + arbiter.time_margin, FaultKind::TimeForfeit),
            TimeControl::Depth(_) | TimeControl::Nodes(_) => (arbiter.timeout, FaultKind::Hang),
        };
        let process = seats[s].process.as_mut().expect("a seat that has not faulted has its engine");
        let reply = process.send(&position).and_then(|_| process.go(&go, Instant::now() + allowed));
        let problem = match reply {
            Ok((text, elapsed, note)) => {
                let late = deadline_kind == FaultKind::TimeForfeit && elapsed > allowed;
                if late {
                    Some((
                        FaultKind::TimeForfeit,
                        format!(
                            "bestmove after {:.3} s, {:.3} s allowed",
                            elapsed.as_secs_f64(),
                            allowed.as_secs_f64()
                        ),
                    ))
                } else {
                    match history.push_answer(&text) {
                        Ok(_) => {
                            let comment = record::move_comment(&note, elapsed);
                            match comments.last_mut().filter(|_| continuing) {
                                Some(slot) => append(slot, comment),
                                None => comments.push(Some(comment)),
                            }
                            let seat = &mut seats[s];
                            update_streaks(seat, note.score, &arbiter.adjudication);
                            seat.left = seat.left.saturating_sub(elapsed);
                            // A turn that stops at a roll goes on after it:
                            // the move and the increment count once, at its end.
                            if history.current().at_turn_start() {
                                seat.moves += 1;
                                if let TimeControl::Clock { moves, base, inc } = seat.tc {
                                    seat.left += inc;
                                    if moves.is_some_and(|m| seat.moves.is_multiple_of(m)) {
                                        seat.left += base;
                                    }
                                }
                            }
                            None
                        }
                        Err(e) => Some((FaultKind::IllegalMove, format!("bestmove {text}: {e}"))),
                    }
                }
            }
            Err(Failure::Timeout) => {
                // Still searching, or hung: either way it cannot be trusted
                // with another command in this game.
                seats[s].process = None;
                let what = match tc {
                    TimeControl::Clock { .. } => format!("{:.3} s on the clock", seats[s].left.as_secs_f64()),
                    TimeControl::MoveTime(t) => format!("movetime {:.3} s", t.as_secs_f64()),
                    _ => "a depth or node limit".to_string(),
                };
                Some((
                    deadline_kind,
                    format!("no bestmove within {:.3} s ({what}); engine killed", allowed.as_secs_f64()),
                ))
            }
            Err(Failure::Exited(how)) => {
                seats[s].process = None;
                Some((FaultKind::Crash, how))
            }
            Err(Failure::LineTooLong) => {
                seats[s].process = None;
                Some((FaultKind::LineTooLong, too_long("bestmove")))
            }
            Err(Failure::Cancelled) => return None,
        };
        if let Some((kind, detail)) = problem {
            let end = record_fault::<G>(&mut faults, &mut seats, s, kind, ply, detail);
            let text = faults.last().map(|f| f.describe(&arbiter.engines[f.engine].name)).unwrap_or_default();
            if end.is_some() {
                ended = end;
                last_comment = Some(text);
            } else {
                // Noted after the last move played before the fault.
                let text = format!("{text}; the {} pass from here", G::SEATS[s].name);
                match comments.last_mut() {
                    Some(slot) => append(slot, text),
                    None => append(&mut before, text),
                }
            }
        }
    }
    let (winner, termination) = ended.expect("the loop ends only with a result");
    if arbiter.cancel.load(Ordering::SeqCst) {
        return None;
    }

    for seat in seats.iter_mut() {
        if let Some(p) = seat.process.take() {
            pool.checkin(seat.engine, p);
        }
    }

    let forfeited: Vec<bool> = seats.iter().map(|s| s.forfeited).collect();
    let points = seat_points(&forfeited, winner);
    let tags = RecordTags {
        event: arbiter.event.clone(),
        date: arbiter.date.clone(),
        round: job.number.to_string(),
        players: job.seating.iter().map(|&e| arbiter.engines[e].name.clone()).collect(),
        winner,
        finished: true,
        points: points.clone(),
        time_controls: arbiter.time_controls.iter().map(TimeControl::pgn).collect(),
        termination: termination.clone(),
        faults: faults.iter().map(|f| f.describe(&arbiter.engines[f.engine].name)).collect(),
    };
    let record = record::write(&tags, &history, &comments, before.as_deref(), last_comment.as_deref());
    Some(GameReport {
        number: job.number,
        seating: job.seating.clone(),
        winner,
        result: record::result_line::<G>(winner),
        points,
        termination,
        faults,
        plies: history.turn_count(),
        record,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{CatChess, Chess};

    fn seat(tc: &str, left_ms: u64, moves: u32) -> SeatState {
        SeatState {
            engine: 0,
            process: None,
            tc: TimeControl::parse(tc).unwrap(),
            left: Duration::from_millis(left_ms),
            moves,
            forfeited: false,
            draw_streak: 0,
            resign_streak: 0,
        }
    }

    #[test]
    fn go_lines_carry_every_clock_and_the_movers_limit() {
        let sides = CatChess::SEATS;
        let seats = vec![seat("10+0.1", 9500, 3), seat("10+0.1", 8000, 3), seat("depth=2", 0, 3)];
        assert_eq!(go_line(sides, &seats, 0), "go wtime 9500 winc 100 btime 8000 binc 100");
        assert_eq!(go_line(sides, &seats, 2), "go depth 2");
        let seats = vec![seat("40/60", 1000, 3), seat("movetime=50", 0, 0), seat("5+1", 5000, 0)];
        assert_eq!(go_line(sides, &seats, 0), "go wtime 1000 winc 0 ctime 5000 cinc 1000 movestogo 37");
        assert_eq!(go_line(sides, &seats, 1), "go movetime 50");
        let seats = vec![seat("nodes=100", 0, 0), seat("1+0", 1000, 0)];
        assert_eq!(go_line(Chess::SEATS, &seats, 0), "go nodes 100");
    }

    #[test]
    fn adjudication_by_resignation_draw_and_move_limit() {
        use super::super::spec::{DrawRule, ResignRule};
        let adj = Adjudication {
            draw: Some(DrawRule { move_number: 2, move_count: 2, score: 10 }),
            resign: Some(ResignRule { move_count: 2, score: 500 }),
            max_moves: Some(50),
        };
        let mut seats = vec![seat("1+0", 0, 0), seat("1+0", 0, 0)];
        let play =
            |seats: &mut Vec<SeatState>, s: usize, score: Option<Score>| update_streaks(&mut seats[s], score, &adj);
        // Scores near 0 from both, but before move 2: no draw yet.
        for s in [0, 1, 0, 1] {
            play(&mut seats, s, Some(Score::Cp(5)));
        }
        assert_eq!(adjudicate::<Chess>(&seats, 3, &adj), None);
        let (w, why) = adjudicate::<Chess>(&seats, 4, &adj).unwrap();
        assert_eq!((w, why.as_str()), (None, "adjudication: draw (every engine's score within 10 cp for 2 moves)"));
        // One score outside the bound (or missing) breaks the streak.
        play(&mut seats, 0, Some(Score::Cp(-11)));
        assert_eq!(adjudicate::<Chess>(&seats, 5, &adj), None);
        play(&mut seats, 1, None);
        play(&mut seats, 0, Some(Score::Cp(0)));
        assert_eq!(adjudicate::<Chess>(&seats, 7, &adj), None);
        // Black sees itself lost twice in a row: white wins.
        play(&mut seats, 1, Some(Score::Cp(-700)));
        assert_eq!(adjudicate::<Chess>(&seats, 8, &adj), None);
        play(&mut seats, 1, Some(Score::Mate(-3)));
        let (w, why) = adjudicate::<Chess>(&seats, 9, &adj).unwrap();
        assert_eq!(
            (w, why.as_str()),
            (Some(Seat::new(0)), "adjudication: black resigns (2 moves at -500 cp or worse)")
        );
        // The move limit; in Cat Chess a draw is the cats' win, and the cats never resign.
        let fresh = vec![seat("1+0", 0, 0), seat("1+0", 0, 0), seat("1+0", 0, 0)];
        assert_eq!(adjudicate::<CatChess>(&fresh, 149, &adj), None);
        assert_eq!(adjudicate::<CatChess>(&fresh, 150, &adj).unwrap().0, Some(Seat::new(2)));
        let mut cats = vec![seat("1+0", 0, 0), seat("1+0", 0, 0), seat("1+0", 0, 0)];
        cats[2].resign_streak = 9;
        assert_eq!(adjudicate::<CatChess>(&cats, 3, &adj), None);
        assert_eq!(adjudicate::<Chess>(&seats[..2], 1, &Adjudication::default()), None);
    }

    #[test]
    fn position_lines() {
        let mut h = History::new(Chess::startpos());
        assert_eq!(position_line(&h, true), "position startpos");
        h.push_text("e2e4").unwrap();
        assert_eq!(position_line(&h, true), "position startpos moves e2e4");
        assert_eq!(
            position_line(&h, false),
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4"
        );
    }
}
