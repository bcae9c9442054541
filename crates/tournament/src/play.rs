//! One game under the arbiter, in the steps fastchess plays a game in:
//! start the seats (each engine from the pool, set up for a new game),
//! then turn after turn ask the engine to move (an answer, or a fault),
//! play the answer by the game's own rules and charge the clock, until the
//! rules (`History::outcome`), the adjudication rules or a fault end the
//! game; then write the record. Clocks are kept here, not by the engines.
//!
//! Faults (protocol.md, "Matches and faults"): an illegal move, a time
//! loss, a crash or a hang. White's or black's fault ends the game, won by
//! the other of the two. A cats fault scores the cats 0 and the game goes
//! on with the arbiter passing (`0000`) for them; a draw then gives white
//! and black ½ each.

use super::engine::{EngineProcess, Failure, Log, MAX_LINE};
use super::pool::Pool;
use super::spec::{Adjudication, EngineSpec, TimeControl};
use super::stats::seat_points;
use catchess_game::pgn::record::{self, RecordTags};
use catchess_game::pgn::record::{FaultKind, Score, SearchNote};
use catchess_game::rng_for;
use catchess_game::{Arbitration, Game, History, Notation, Seat, SeatInfo};
use catchess_games::VariantKind;
use rand::rngs::StdRng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

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

/// What an engine did wrong and the words for it, before it is pinned on
/// a seat at a ply (a [`Fault`]).
pub(super) struct Breach {
    kind: FaultKind,
    detail: String,
}

impl Breach {
    fn new(kind: FaultKind, detail: String) -> Breach {
        Breach { kind, detail }
    }

    /// The engine's process could not be started.
    pub(super) fn crash(detail: String) -> Breach {
        Breach::new(FaultKind::Crash, detail)
    }
}

/// The fault of an engine that failed while the arbiter waited for `what`
/// (`uciok`, `readyok`) under the match's timeout.
pub(super) fn failure_breach(f: Failure, what: &str, timeout: Duration) -> Breach {
    match f {
        Failure::Timeout => {
            Breach::new(FaultKind::Hang, format!("no {what} within {:.1} s; engine killed", timeout.as_secs_f64()))
        }
        Failure::Exited(how) => Breach::crash(format!("{how} (while waiting for {what})")),
        Failure::LineTooLong => Breach::new(FaultKind::LineTooLong, too_long(what)),
        Failure::Cancelled => Breach::crash("the match was stopped".to_string()),
    }
}

fn too_long(what: &str) -> String {
    format!("a line of more than {MAX_LINE} bytes (while waiting for {what}); engine killed")
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

/// How a game ended: the winner (`None` for a draw that no seat wins) and
/// the words of the record's `TerminationDetails`.
type Ending = (Option<Seat>, String);

/// The match was stopped while the game was being played: it is not
/// scored.
struct Stopped;

/// Plays one game. Engines come from `pool` and go back to it unless they
/// died or were killed. `None` if the match was stopped before the game ended.
pub fn play_game<G: Notation + Arbitration>(arbiter: &Arbiter, job: &Job<G>, pool: &mut Pool) -> Option<GameReport> {
    let mut game = GameInPlay::new(arbiter, job);
    let ending = match game.start_seats(pool) {
        Some(ending) => ending,
        None => game.play().ok()?,
    };
    // Stopping the match kills its engines, so a game that ended as it
    // stopped may have ended by that: it is not counted.
    if arbiter.cancel.load(Ordering::SeqCst) {
        return None;
    }
    game.return_seats(pool);
    Some(game.report(ending))
}

/// A game being played: its moves so far, its seats, their faults, the
/// record's comments and the arbiter's dice.
struct GameInPlay<'a, G: Notation + Arbitration> {
    arbiter: &'a Arbiter,
    job: &'a Job<G>,
    history: History<G>,
    seats: Vec<SeatState>,
    faults: Vec<Fault>,
    comments: Comments,
    /// Rolls the game's chance positions (a teleport in Cat's Chess 10x10).
    dice: StdRng,
}

/// What asking an engine for its move gave.
enum Reply {
    Answer(Answer),
    Fault(Breach),
    Stopped,
}

/// An engine's `bestmove`, in time.
struct Answer {
    /// The move as the engine wrote it (`Notation::parse_answer` reads it).
    text: String,
    /// From `go` to `bestmove`.
    elapsed: Duration,
    /// The last `info` it gave: its score, depth and nodes for the record.
    note: SearchNote,
}

impl<'a, G: Notation + Arbitration> GameInPlay<'a, G> {
    /// The job's opening played, every seat's clock full, no engine yet.
    fn new(arbiter: &'a Arbiter, job: &'a Job<G>) -> Self {
        let mut history = History::new(job.start);
        for &m in &job.opening {
            history.push(m);
        }
        let seats = job
            .seating
            .iter()
            .zip(&arbiter.time_controls)
            .map(|(&engine, &seat_tc)| SeatState::new(engine, arbiter.engines[engine].tc.unwrap_or(seat_tc)))
            .collect();
        GameInPlay {
            arbiter,
            job,
            comments: Comments::new(job.opening_note.clone(), history.turn_count()),
            history,
            seats,
            faults: Vec::new(),
            dice: rng_for(job.dice_seed, job.number as u64),
        }
    }

    /// Gives every seat its engine, in seat order; a fault there is scored
    /// like any other. The ending, if a fault ended the game.
    fn start_seats(&mut self, pool: &mut Pool) -> Option<Ending> {
        for s in 0..self.seats.len() {
            match pool.checkout(self.arbiter, self.seats[s].engine) {
                Ok(p) => self.seats[s].process = Some(p),
                Err(breach) => {
                    let ending = self.fault(s, 0, breach);
                    if ending.is_some() {
                        return ending;
                    }
                }
            }
        }
        None
    }

    /// Plays turns until the game ends: a roll where the game rolls, the
    /// arbiter's pass for a seat that has forfeited, otherwise the engine's
    /// turn.
    fn play(&mut self) -> Result<Ending, Stopped> {
        loop {
            if let Some(ending) = self.ended() {
                return Ok(ending);
            }
            let pos = *self.history.current();
            let ending = if pos.is_chance() {
                self.roll()
            } else {
                let s = pos.to_move().index();
                if self.seats[s].forfeited {
                    self.pass(&pos);
                    None
                } else {
                    self.turn(s)?
                }
            };
            if let Some(ending) = ending {
                return Ok(ending);
            }
        }
    }

    /// The end the rules, or else the adjudication rules, give the game
    /// here. A win is void for a seat that has forfeited (the cats' win by
    /// a draw, once they have faulted): the game's forfeit rule.
    fn ended(&self) -> Option<Ending> {
        let (winner, why) = match self.history.outcome() {
            Some(o) => (o.winner, o.reason.name().to_string()),
            None => adjudicate::<G>(&self.seats, self.history.turn_count(), &self.arbiter.adjudication)?,
        };
        Some((G::winner_after_forfeits(winner, |s| self.seats[s.index()].forfeited), why))
    }

    /// The engine asked for a roll (a teleport in Cat's Chess 10x10): the
    /// arbiter rolls, where the rules roll, and notes it with the turn; the
    /// engine is then asked again.
    fn roll(&mut self) -> Option<Ending> {
        let Some(outcome) = self.history.roll(&mut self.dice) else {
            return Some((None, "no outcome to roll".to_string()));
        };
        self.comments.note_after_last(format!("roll {outcome}"));
        None
    }

    /// The arbiter's move for a seat that faulted and plays on.
    fn pass(&mut self, pos: &G) {
        let pass = pos.arbiter_pass().expect("only a side the arbiter can pass for plays on after a fault");
        self.history.push(pass);
        self.comments.add_turn(None);
    }

    /// Seat `s`'s engine's turn: asked for its move, which is played if the
    /// rules allow it; a fault is written down. The ending, if a fault ended
    /// the game.
    fn turn(&mut self, s: usize) -> Result<Option<Ending>, Stopped> {
        let ply = self.history.turn_count() + 1;
        let breach = match self.ask(s) {
            Reply::Answer(answer) => self.play_answer(s, answer).err(),
            Reply::Fault(breach) => Some(breach),
            Reply::Stopped => return Err(Stopped),
        };
        Ok(breach.and_then(|breach| self.fault(s, ply, breach)))
    }

    /// Sends seat `s`'s engine the game so far and `go`, and waits for its
    /// `bestmove` until the seat's deadline. An engine that does not answer
    /// in time, dies or floods the pipe loses its process: it cannot be
    /// trusted with another command in this game. One that answers late
    /// keeps it.
    fn ask(&mut self, s: usize) -> Reply {
        let position = position_line(&self.history, self.job.from_startpos);
        let go = go_line(G::SEATS, &self.seats, s);
        let seat = &mut self.seats[s];
        let deadline = Deadline::of(seat, self.arbiter);
        let process = seat.process.as_mut().expect("a seat that has not faulted has its engine");
        let reply = process.send(&position).and_then(|_| process.go(&go, Instant::now() + deadline.allowed));
        match reply {
            Ok((_, elapsed, _)) if deadline.is_missed_by(elapsed) => Reply::Fault(Breach::new(
                FaultKind::TimeForfeit,
                format!(
                    "bestmove after {:.3} s, {:.3} s allowed",
                    elapsed.as_secs_f64(),
                    deadline.allowed.as_secs_f64()
                ),
            )),
            Ok((text, elapsed, note)) => Reply::Answer(Answer { text, elapsed, note }),
            Err(Failure::Cancelled) => Reply::Stopped,
            Err(failure) => {
                seat.process = None;
                Reply::Fault(deadline.breach(failure, seat))
            }
        }
    }

    /// Plays seat `s`'s answer if the rules allow it, writes its comment
    /// (joined to its turn's when it finishes a turn an earlier answer
    /// began, at a roll), counts its score toward adjudication and charges
    /// its time.
    fn play_answer(&mut self, s: usize, answer: Answer) -> Result<(), Breach> {
        let continuing = !self.history.current().at_turn_start();
        if let Err(e) = self.history.push_answer(&answer.text) {
            return Err(Breach::new(FaultKind::IllegalMove, format!("bestmove {}: {e}", answer.text)));
        }
        let comment = record::move_comment(&answer.note, answer.elapsed);
        if continuing {
            self.comments.join_last_turn(comment);
        } else {
            self.comments.add_turn(Some(comment));
        }
        let seat = &mut self.seats[s];
        update_streaks(seat, answer.note.score, &self.arbiter.adjudication);
        seat.spend(answer.elapsed);
        // A turn that stops at a roll goes on after it: the move and the
        // increment count once, at its end.
        if self.history.current().at_turn_start() {
            seat.end_turn();
        }
        Ok(())
    }

    /// Writes down seat `s`'s fault at `ply` (0: while starting its engine).
    /// Where the game says a forfeit ends it (`Arbitration::forfeit_winner`),
    /// the ending, the fault the record's last comment; otherwise the seat
    /// passes from now on (Cat Chess's cats), noted after the last move
    /// played before the fault.
    fn fault(&mut self, s: usize, ply: usize, breach: Breach) -> Option<Ending> {
        let name = G::SEATS[s].name;
        let kind = breach.kind;
        let fault = Fault { seat: s, side: name, engine: self.seats[s].engine, kind, ply, detail: breach.detail };
        let text = self.describe(&fault);
        self.faults.push(fault);
        let Some(winner) = G::forfeit_winner(Seat::new(s)) else {
            self.seats[s].forfeited = true;
            if ply == 0 {
                self.comments.note_before(format!("{text}; the {name} pass throughout"));
            } else {
                self.comments.note_after_last(format!("{text}; the {name} pass from here"));
            }
            return None;
        };
        self.comments.after = Some(text);
        Some((Some(winner), record::termination_by(kind.name(), name)))
    }

    /// A fault as the record words it, with its engine's name.
    fn describe(&self, fault: &Fault) -> String {
        fault.describe(&self.arbiter.engines[fault.engine].name)
    }

    /// Gives the seats' engines back to the pool (those still alive).
    fn return_seats(&mut self, pool: &mut Pool) {
        for seat in &mut self.seats {
            if let Some(p) = seat.process.take() {
                pool.checkin(seat.engine, p);
            }
        }
    }

    /// The finished game's report and record. A seat that has forfeited
    /// scores nothing (`seat_points`).
    fn report(self, (winner, termination): Ending) -> GameReport {
        let forfeited: Vec<bool> = self.seats.iter().map(|s| s.forfeited).collect();
        let points = seat_points(&forfeited, winner);
        let record = self.record(winner, &points, &termination);
        GameReport {
            number: self.job.number,
            seating: self.job.seating.clone(),
            winner,
            result: record::result_line::<G>(winner),
            points,
            termination,
            plies: self.history.turn_count(),
            faults: self.faults,
            record,
        }
    }

    /// The game's PGN record.
    fn record(&self, winner: Option<Seat>, points: &[f64], termination: &str) -> String {
        let arbiter = self.arbiter;
        let tags = RecordTags {
            event: arbiter.event.clone(),
            date: arbiter.date.clone(),
            round: self.job.number.to_string(),
            players: self.job.seating.iter().map(|&e| arbiter.engines[e].name.clone()).collect(),
            winner,
            finished: true,
            points: points.to_vec(),
            // Each seat's clock as played: its engine's own `tc=` if it has one.
            time_controls: self.seats.iter().map(|s| s.tc.pgn()).collect(),
            termination: termination.to_string(),
            faults: self.faults.iter().map(|f| self.describe(f)).collect(),
        };
        let c = &self.comments;
        record::write(&tags, &self.history, &c.turns, c.before.as_deref(), c.after.as_deref())
    }
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

impl SeatState {
    /// Engine `engine` in its seat under `tc`, the clock full, no process yet.
    fn new(engine: usize, tc: TimeControl) -> SeatState {
        SeatState {
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
        }
    }

    /// Charges the time of one answer to the clock.
    fn spend(&mut self, elapsed: Duration) {
        self.left = self.left.saturating_sub(elapsed);
    }

    /// A turn done: one move more, the increment, and with a repeating
    /// control the next period's time once its moves are made.
    fn end_turn(&mut self) {
        self.moves += 1;
        if let TimeControl::Clock { moves, base, inc } = self.tc {
            self.left += inc;
            if moves.is_some_and(|m| self.moves.is_multiple_of(m)) {
                self.left += base;
            }
        }
    }
}

/// How long a seat's engine may take for `bestmove`, and what taking longer
/// is: a time forfeit on a clock or a move time (with the match's margin),
/// a hang under a depth or node limit (the match's timeout).
struct Deadline {
    allowed: Duration,
    overrun: FaultKind,
}

impl Deadline {
    fn of(seat: &SeatState, arbiter: &Arbiter) -> Deadline {
        let (allowed, overrun) = match seat.tc {
            TimeControl::Clock { .. } => (seat.left + arbiter.time_margin, FaultKind::TimeForfeit),
            TimeControl::MoveTime(t) => (t + arbiter.time_margin, FaultKind::TimeForfeit),
            TimeControl::Depth(_) | TimeControl::Nodes(_) => (arbiter.timeout, FaultKind::Hang),
        };
        Deadline { allowed, overrun }
    }

    /// Whether a `bestmove` after `elapsed` came too late. (Under a depth
    /// or node limit the timeout is a hang's, not a clock: an answer
    /// before it is in time.)
    fn is_missed_by(&self, elapsed: Duration) -> bool {
        self.overrun == FaultKind::TimeForfeit && elapsed > self.allowed
    }

    /// The fault of an engine that failed to answer `go` (not a stopped
    /// match): no `bestmove` by the deadline, an exit, or a line too long.
    fn breach(&self, failure: Failure, seat: &SeatState) -> Breach {
        match failure {
            Failure::Timeout => {
                // Still searching, or hung.
                let what = match seat.tc {
                    TimeControl::Clock { .. } => format!("{:.3} s on the clock", seat.left.as_secs_f64()),
                    TimeControl::MoveTime(t) => format!("movetime {:.3} s", t.as_secs_f64()),
                    _ => "a depth or node limit".to_string(),
                };
                let allowed = self.allowed.as_secs_f64();
                Breach::new(self.overrun, format!("no bestmove within {allowed:.3} s ({what}); engine killed"))
            }
            Failure::Exited(how) => Breach::crash(how),
            Failure::LineTooLong => Breach::new(FaultKind::LineTooLong, too_long("bestmove")),
            Failure::Cancelled => Breach::crash("the match was stopped".to_string()),
        }
    }
}

/// The record's comments as the game goes (`record::write`): one slot per
/// turn (the opening's turns and the arbiter's passes have none), a note
/// ahead of the first turn and one after the last.
struct Comments {
    before: Option<String>,
    turns: Vec<Option<String>>,
    after: Option<String>,
}

impl Comments {
    fn new(opening_note: Option<String>, opening_turns: usize) -> Comments {
        Comments { before: opening_note, turns: vec![None; opening_turns], after: None }
    }

    /// A turn played.
    fn add_turn(&mut self, comment: Option<String>) {
        self.turns.push(comment);
    }

    /// The rest of the last turn (its first step's comment holds the
    /// start), or a turn of its own when there is none.
    fn join_last_turn(&mut self, comment: String) {
        match self.turns.last_mut() {
            Some(slot) => append(slot, comment),
            None => self.turns.push(Some(comment)),
        }
    }

    /// Ahead of the first turn.
    fn note_before(&mut self, text: String) {
        append(&mut self.before, text);
    }

    /// After the last turn played, or ahead of the first when none has
    /// been.
    fn note_after_last(&mut self, text: String) {
        match self.turns.last_mut() {
            Some(slot) => append(slot, text),
            None => append(&mut self.before, text),
        }
    }
}

fn append(slot: &mut Option<String>, text: String) {
    *slot = Some(match slot.take() {
        Some(old) => format!("{old}; {text}"),
        None => text,
    });
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
fn adjudicate<G: Arbitration>(seats: &[SeatState], plies: usize, adj: &Adjudication) -> Option<Ending> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_games::{CatChess, Chess};

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
