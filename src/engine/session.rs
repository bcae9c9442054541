//! The engine state behind the protocol: a game in progress and its
//! searcher, for one concrete game type, plus `AnySession`, the run-time
//! choice among games.

use super::command::{Command, GoParams, Start};
use super::{Options, Output, ENGINE_AUTHOR, ENGINE_NAME};
use crate::game::{describe, winner_name, Game, Goal, History, Seat, SeatInfo};
use crate::games::with_game;
use crate::games::Playable;
use crate::games::VariantKind;
use crate::perft::divide_with;
use crate::search::{Limits, Score, SearchControl, SearchInfo, SearchResult, Searcher, Strength};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// A search or perft running on its own thread; joining it returns the
/// searcher.
struct Job<G: Playable> {
    control: Arc<SearchControl>,
    handle: JoinHandle<Searcher<G>>,
}

pub struct Session<G: Playable> {
    history: History<G>,
    /// `None` while a job owns it.
    searcher: Option<Searcher<G>>,
    job: Option<Job<G>>,
}

/// Move time given to a `go` whose words leave the search without any
/// limit but did not ask for an endless one (`go infinite`, or `go` alone).
pub const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);

impl<G: Playable> Session<G> {
    fn new(options: &Options) -> Self {
        Session { history: History::new(G::startpos()), searcher: Some(new_searcher(options)), job: None }
    }

    /// Waits for a running job to finish by itself.
    fn wait(&mut self, options: &Options) {
        if let Some(job) = self.job.take() {
            // The job catches every panic of the search and hands the
            // searcher back; should even that fail, start afresh with the
            // same options.
            self.searcher = Some(job.handle.join().unwrap_or_else(|_| new_searcher(options)));
        }
    }

    /// Stops a running job (a search prints its `bestmove`) and waits for it.
    fn stop(&mut self, options: &Options) {
        if let Some(job) = &self.job {
            job.control.stop();
        }
        self.wait(options);
    }

    fn searcher(&mut self, options: &Options) -> &mut Searcher<G> {
        self.stop(options);
        self.searcher.as_mut().expect("no job runs after stop(), so the searcher is home")
    }

    fn set_position(&mut self, start: &Start, moves: &[String], options: &Options) -> Result<(), String> {
        let first = match start {
            Start::StartPos => G::startpos(),
            Start::Fen(fen) => G::from_fen(fen).map_err(|e| format!("position: {e}"))?,
        };
        let mut history = History::new(first);
        for (i, text) in moves.iter().enumerate() {
            if let Some(o) = history.outcome() {
                return Err(format!(
                    "position: move {} ({text}) comes after the game ended: {}",
                    i + 1,
                    describe::<G>(&o)
                ));
            }
            let mid_turn = i > 0 && !history.current().at_turn_start();
            history.push_protocol(text).map_err(|e| format!("position: move {} ({text}): {e}", i + 1))?;
            // A partial turn (`T@e5` after a roll) only ends the list: a
            // token after it would continue a turn that is one token.
            if mid_turn {
                return Err(format!(
                    "position: move {i} ({}) leaves its turn unfinished, so it must be the last move; \
                     the rest of the turn belongs in the same token",
                    moves[i - 1]
                ));
            }
        }
        self.stop(options);
        self.history = history;
        Ok(())
    }

    /// Starts a job on its own thread that owns the searcher until `work`
    /// returns; `stop`, `ponderhit`, `isready` and `quit` are served
    /// meanwhile, and reach the job through `control`.
    fn spawn(
        &mut self,
        control: SearchControl,
        options: &Options,
        work: impl FnOnce(&mut Searcher<G>, &SearchControl) + Send + 'static,
    ) {
        self.stop(options);
        let control = Arc::new(control);
        let mut searcher = self.searcher.take().expect("stopped above");
        let job_control = control.clone();
        let handle = std::thread::spawn(move || {
            work(&mut searcher, &job_control);
            searcher
        });
        self.job = Some(Job { control, handle });
    }

    /// `go perft`: each root move's count as it finishes, then the total.
    fn perft(&mut self, depth: u32, options: &Options, out: &Output) {
        if let Err(e) = crate::perft::checked_depth(depth) {
            out.error(&format!("go perft: {e}"));
            return;
        }
        let pos = *self.history.current();
        let out = out.clone();
        self.spawn(SearchControl::new(), options, move |_, control| {
            let started = std::time::Instant::now();
            let stopped = || control.is_stopped();
            let total =
                divide_with(&pos, depth, &stopped, |steps, n| out.line(&format!("{}: {n}", pos.turn_text(steps))));
            match total.ok().flatten() {
                Some(total) => {
                    out.line("");
                    out.line(&format!("Nodes searched: {total}"));
                    let secs = started.elapsed().as_secs_f64().max(1e-9);
                    out.line(&format!("info string perft time {:.3} s, {:.0} nodes/s", secs, total as f64 / secs));
                }
                None => out.line("info string perft stopped before it finished"),
            }
        });
    }

    fn go(&mut self, params: &GoParams, options: &Options, out: &Output) {
        for warning in &params.warnings {
            out.warning(warning);
        }
        if let Some(depth) = params.perft {
            self.perft(depth, options, out);
            return;
        }
        self.stop(options);
        if let Some(o) = self.history.outcome() {
            out.error(&format!("go: the game is over: {}", describe::<G>(&o)));
            out.line("bestmove (none)");
            return;
        }
        let pos = *self.history.current();
        let mut root_moves = Vec::new();
        for text in &params.searchmoves {
            match pos.parse_move(text) {
                Ok(m) => root_moves.push(m),
                Err(e) => out.warning(&format!("go searchmoves: {e}; left out")),
            }
        }
        if !params.searchmoves.is_empty() && root_moves.is_empty() {
            out.warning("go searchmoves: no legal move listed; searching every move");
        }
        let (limits, note) = limits_for(params, G::SEATS, pos.to_move(), options);
        if let Some(note) = note {
            out.warning(&note);
        }
        let control = if params.ponder { SearchControl::pondering() } else { SearchControl::new() };
        let history = self.history.clone();
        let report = Report { show_wdl: options.show_wdl, ponder: options.ponder, multipv: options.multipv };
        let strength = Strength::new(options.skill(), rand::random());
        let out = out.clone();
        self.spawn(control, options, move |searcher, control| {
            let pos = *history.current();
            let result = guarded(&pos, || {
                let mut on_info = |info: &SearchInfo| report.info_lines::<G>(info).iter().for_each(|l| out.line(l));
                searcher.search_with_skill(&history, &limits, &root_moves, strength, control, &mut on_info)
            });
            // `go infinite` and a ponder search must not answer before
            // `stop` (or, pondering, `ponderhit`), even when the search has
            // nothing left to do.
            while (limits.infinite || control.is_pondering()) && !control.is_stopped() {
                std::thread::sleep(Duration::from_millis(2));
            }
            let answer = match result {
                Ok(r) => {
                    let turn = whole_turn(&history, r.best, &r.pv, searcher, strength);
                    let ponder = if G::ONE_MOVE_TURNS { r.pv.get(1).map(|m| m.to_string()) } else { None };
                    report.bestmove(turn.map(|steps| pos.turn_text(&steps)), ponder)
                }
                Err(first) => {
                    out.error("search failed; answering with the first legal move");
                    report.bestmove(first.map(|m| m.to_string()), None)
                }
            };
            out.line(&answer);
        });
    }

    fn handle(&mut self, command: Command, options: &mut Options, out: &Output) {
        match command {
            Command::IsReady => out.line("readyok"),
            Command::Stop => self.stop(options),
            Command::PonderHit => {
                if let Some(job) = &self.job {
                    job.control.ponderhit();
                }
            }
            Command::Debug(_) | Command::Uci | Command::Quit | Command::SetOption { .. } => {}
            Command::UciNewGame => {
                self.searcher(options).clear();
                self.history = History::new(G::startpos());
            }
            Command::Position { start, moves } => {
                if let Err(e) = self.set_position(&start, &moves, options) {
                    out.error(&format!("{e}; position unchanged"));
                }
            }
            Command::Go(params) => self.go(&params, options, out),
            Command::Display => {
                let pos = self.history.current();
                for line in pos.render().lines() {
                    out.line(line);
                }
                match self.history.outcome() {
                    Some(o) => out.line(&format!("Outcome: {}", describe::<G>(&o))),
                    None => out.line("Outcome: none (game in progress)"),
                }
                if let Some(words) = pos.table_words() {
                    out.line(&words);
                }
            }
            Command::Eval => {
                for line in self.history.current().eval_breakdown().lines() {
                    out.line(line);
                }
            }
            Command::Outcome => out.line(&match self.history.outcome() {
                Some(o) => format!("outcome {} {}", winner_name::<G>(o.winner), o.reason.name()),
                None => "outcome none".to_string(),
            }),
            Command::Rolls => out.line(&super::rolls::rolls_line(&self.history)),
        }
    }
}

fn new_searcher<G: Playable>(options: &Options) -> Searcher<G> {
    // The hash size was allocated once when it was set; should the memory
    // be gone now, a small table keeps the session alive.
    let mut searcher = Searcher::try_new(options.hash_mb).unwrap_or_else(|_| Searcher::new(1));
    searcher.set_threads(options.threads);
    searcher
}

fn first_legal_move<G: Game>(pos: &G) -> Option<G::Move> {
    let mut list = crate::game::MoveList::default();
    pos.legal_moves(&mut list);
    list.as_slice().first().copied()
}

/// Plies searched to choose each step of the turn that the principal
/// variation leaves open (a game whose turns take several steps).
const REST_OF_TURN_DEPTH: u32 = 4;

/// The steps of the whole turn that begins with `best` after `history`:
/// along the principal variation while it lasts, then each remaining step
/// chosen by a short search (at `strength`, so that a weakened engine is
/// weak in every step of its turn). In a game of one move a turn, `[best]`.
/// The turn stops short at a roll (a chance position): what comes of the
/// roll is the client's to say, and the engine's to answer with another `go`.
pub(crate) fn whole_turn<G: Playable>(
    history: &History<G>,
    best: Option<G::Move>,
    pv: &[G::Move],
    searcher: &mut Searcher<G>,
    strength: Strength,
) -> Option<Vec<G::Move>> {
    let mut line = history.clone();
    line.push(best?);
    let follows_pv = pv.first() == best.as_ref();
    let mut next_in_pv = 1;
    while !line.current().at_turn_start() && !line.current().is_chance() {
        let step = match pv.get(next_in_pv).filter(|_| follows_pv) {
            Some(&m) => m,
            None => {
                let limits = Limits { depth: Some(REST_OF_TURN_DEPTH), ..Limits::default() };
                let strength = strength.reseeded(next_in_pv as u64);
                searcher.search_with_skill(&line, &limits, &[], strength, &SearchControl::new(), &mut |_| {}).best?
            }
        };
        line.push(step);
        next_in_pv += 1;
    }
    Some(line.moves()[history.moves().len()..].to_vec())
}

/// Runs `search` from `pos`; should it panic (in any of its threads: a scoped helper's panic reaches
/// the caller), `Err` with the first legal move instead, so that every
/// `go` is still answered.
pub(crate) fn guarded<G: Game>(
    pos: &G,
    search: impl FnOnce() -> SearchResult<G::Move>,
) -> Result<SearchResult<G::Move>, Option<G::Move>> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(search)) {
        Ok(r) => Ok(r),
        Err(_) => Err(std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| first_legal_move(pos))).ok().flatten()),
    }
}

/// The limits of a `go`, and a warning when the client's words left the
/// mover without a limit it could have meant.
///
/// The mover's own clock is used when given. A GUI that knows only two
/// clocks sends none for a third side (the cats); the smallest clock given
/// stands in for the missing one. A `go` that names no limit at all is an
/// endless search only when the client asked for one (`go`, `go infinite`,
/// `go ponder`, optionally with `searchmoves`); any other (say, only
/// unknown or malformed words) gets [`DEFAULT_MOVETIME`], so that no client
/// waits forever for a `bestmove` it did not know it had to `stop`.
fn limits_for(params: &GoParams, seats: &[SeatInfo], mover: Seat, options: &Options) -> (Limits, Option<String>) {
    let mine = seats[mover.index()].clock;
    let mut limits = Limits {
        depth: params.depth,
        nodes: params.nodes,
        soft_nodes: None,
        movetime: params.movetime,
        infinite: params.infinite,
        time_left: params.clock(mine),
        increment: params.inc(mine).unwrap_or_default(),
        movestogo: params.movestogo,
        move_overhead: Duration::from_millis(options.move_overhead_ms),
        mate: params.mate,
        multipv: options.multipv,
    };
    let mut note = None;
    if limits.time_left.is_none() {
        let given = seats.iter().filter_map(|s| params.clock(s.clock).map(|t| (t, s.clock))).min_by_key(|&(t, _)| t);
        if let Some((t, letter)) = given {
            limits.time_left = Some(t);
            limits.increment = params.inc(letter).unwrap_or_default();
            note = Some(format!("go: no {mine}time for the side to move; using {letter}time ({} ms)", t.as_millis()));
        }
    }
    let limited = limits.depth.is_some()
        || limits.nodes.is_some()
        || limits.movetime.is_some()
        || limits.time_left.is_some()
        || limits.mate.is_some();
    if !limited && !limits.infinite && !params.asks_for_endless_search() {
        limits.movetime = Some(DEFAULT_MOVETIME);
        note = Some(format!("go: no limit given; searching {} ms", DEFAULT_MOVETIME.as_millis()));
    }
    if !limited && params.asks_for_endless_search() {
        limits.infinite = true;
    }
    (limits, note)
}

/// How a search reports, by the options set when it started.
#[derive(Clone, Copy)]
struct Report {
    show_wdl: bool,
    ponder: bool,
    /// Lines asked for: `multipv k` is written only when more than one is,
    /// so a one-line search keeps the plain UCI line.
    multipv: usize,
}

impl Report {
    /// `bestmove` with the turn, and the reply to ponder on when `Ponder`
    /// is on and one is known.
    fn bestmove(&self, turn: Option<String>, ponder: Option<String>) -> String {
        match (turn, ponder) {
            (Some(t), Some(p)) if self.ponder => format!("bestmove {t} ponder {p}"),
            (Some(t), _) => format!("bestmove {t}"),
            (None, _) => "bestmove (none)".to_string(),
        }
    }

    /// The `info` line of a search report, and for Cat Chess a second line
    /// with the three-way outlook (`info string` must end its line, so it
    /// cannot share one with `pv`).
    fn info_lines<G: Game>(&self, info: &SearchInfo) -> Vec<String> {
        let score = match info.score {
            Score::Cp(cp) => format!("cp {cp}"),
            Score::Mate(n) => format!("mate {n}"),
        };
        let millis = info.time.as_millis().max(1);
        let nps = info.nodes as u128 * 1000 / millis;
        let mut line = format!("info depth {} seldepth {}", info.depth, info.seldepth);
        if self.multipv > 1 {
            line.push_str(&format!(" multipv {}", info.multipv));
        }
        line.push_str(&format!(
            " nodes {} nps {} time {} hashfull {} score {}",
            info.nodes,
            nps,
            info.time.as_millis(),
            info.hashfull,
            score
        ));
        if info.tbhits > 0 {
            line.push_str(&format!(" tbhits {}", info.tbhits));
        }
        // A game with a near-zero seat (Cat Chess's cats, who win every
        // draw) reports each seat's own chance.
        let chances = G::SEATS.iter().any(|s| s.goal == Goal::NearZero).then(|| outlook(G::SEATS, info));
        if self.show_wdl {
            let [w, d, l] = match &chances {
                // The maximiser, the near-zero seat (the draw), the minimiser.
                Some(c) => [Goal::Maximise, Goal::NearZero, Goal::Minimise]
                    .map(|g| G::SEATS.iter().zip(c).filter(|(s, _)| s.goal == g).map(|(_, &p)| p * 10).sum()),
                None => wdl(info.score),
            };
            line.push_str(&format!(" wdl {w} {d} {l}"));
        }
        if !info.pv.is_empty() {
            line.push_str(" pv ");
            line.push_str(&info.pv.join(" "));
        }
        let mut lines = vec![line];
        if let (Some(c), 1) = (chances, info.multipv) {
            let words: Vec<String> = G::SEATS.iter().zip(c).map(|(s, p)| format!("{} {p}", s.name)).collect();
            lines.push(format!("info string outlook {}", words.join(" ")));
        }
        lines
    }
}

/// Win, draw and loss chances in per mille for the side to move of a
/// two-sided game: a logistic reading of the score (a side needs about
/// +1.5 pawns for an even chance to win), not a fitted model.
pub fn wdl(score: Score) -> [u32; 3] {
    let cp = match score {
        Score::Mate(n) if n > 0 => return [1000, 0, 0],
        Score::Mate(_) => return [0, 0, 1000],
        Score::Cp(cp) => cp as f64,
    };
    let win = |edge: f64| 1.0 / (1.0 + (-(edge - 150.0) / 75.0).exp());
    let w = (win(cp) * 1000.0).round() as u32;
    let l = (win(-cp) * 1000.0).round() as u32;
    [w, 1000u32.saturating_sub(w + l), l]
}

/// How likely each seat is to win, in percent, in seat order: a logistic
/// reading of the first-seat score (documented in protocol.md) for the
/// maximising and minimising seats, the rest for the near-zero seat. A
/// mate score is a certainty for the mating seat.
pub fn outlook(seats: &[SeatInfo], info: &SearchInfo) -> Vec<u32> {
    let first_view = info.white_view;
    let mate = matches!(info.score, Score::Mate(_));
    // A seat needs a clear edge to convert: about +3 pawns is an even chance.
    let win = |edge: i32| match mate {
        true => 100 * (edge > 0) as u32,
        false => (100.0 / (1.0 + (-(edge as f64 - 300.0) / 120.0).exp())).round() as u32,
    };
    let mut chances: Vec<u32> = seats
        .iter()
        .map(|s| match s.goal {
            Goal::Maximise => win(first_view),
            Goal::Minimise => win(-first_view),
            Goal::NearZero => 0,
        })
        .collect();
    let rest = 100u32.saturating_sub(chances.iter().sum());
    if let Some(i) = seats.iter().position(|s| s.goal == Goal::NearZero) {
        chances[i] = rest;
    }
    chances
}

/// The operations the protocol needs from a session, whatever its game
/// (`Session<G>` as a trait object): the one place a run-time variant
/// meets the generic code. Named apart from the web app's
/// `serve::session::GameSession`, a game held for a browser.
pub(super) trait VariantSession: Send {
    fn stop(&mut self, options: &Options);
    fn handle(&mut self, command: Command, options: &mut Options, out: &Output);
    fn set_hash(&mut self, mb: usize, options: &Options) -> Result<(), String>;
    fn set_threads(&mut self, n: usize, options: &Options);
    fn clear(&mut self, options: &Options);
}

impl<G: Playable> VariantSession for Session<G> {
    fn stop(&mut self, options: &Options) {
        Session::stop(self, options)
    }
    fn handle(&mut self, command: Command, options: &mut Options, out: &Output) {
        Session::handle(self, command, options, out)
    }
    fn set_hash(&mut self, mb: usize, options: &Options) -> Result<(), String> {
        self.searcher(options).set_hash(mb)
    }
    fn set_threads(&mut self, n: usize, options: &Options) {
        self.searcher(options).set_threads(n)
    }
    fn clear(&mut self, options: &Options) {
        self.searcher(options).clear()
    }
}

/// A session for whichever game `UCI_Variant` names.
pub struct AnySession {
    game: Box<dyn VariantSession>,
    /// The options a session starts with (`uci` lists them as defaults).
    defaults: Options,
}

impl AnySession {
    pub fn new(options: &Options) -> Self {
        AnySession { game: Self::for_variant(options), defaults: options.clone() }
    }

    fn for_variant(options: &Options) -> Box<dyn VariantSession> {
        with_game!(options.variant, G => Box::new(Session::<G>::new(options)))
    }

    pub fn shutdown(&mut self, options: &Options) {
        self.game.stop(options);
    }

    /// The session of the current game.
    pub(super) fn game(&mut self) -> &mut dyn VariantSession {
        &mut *self.game
    }

    /// Ends the current game's session and starts one of `variant`.
    pub(super) fn switch_variant(&mut self, variant: VariantKind, options: &mut Options) {
        self.shutdown(options);
        // Free the old table before the new session takes its own.
        let _ = self.game.set_hash(1, options);
        options.variant = variant;
        self.game = Self::for_variant(options);
    }

    pub fn handle(&mut self, command: Command, options: &mut Options, out: &Output) {
        match command {
            Command::Uci => {
                out.line(&format!("id name {ENGINE_NAME}"));
                out.line(&format!("id author {ENGINE_AUTHOR}"));
                for line in super::options::uci_lines(&self.defaults) {
                    out.line(&line);
                }
                out.line("uciok");
            }
            Command::SetOption { name, value } => {
                if let Err(e) = super::options::set(self, &name, value.as_deref(), options) {
                    out.error(&format!("setoption: {e}"));
                }
            }
            other => self.game.handle(other, options, out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(words: &str) -> GoParams {
        match super::super::parse(&format!("go {words}")) {
            Ok(Some(Command::Go(p))) => p,
            other => panic!("{other:?}"),
        }
    }

    use crate::games::{CatChess, Chess};

    const CAT_SEATS: &[SeatInfo] = CatChess::SEATS;
    const CHESS_SEATS: &[SeatInfo] = Chess::SEATS;
    const WHITE: Seat = Seat::new(0);
    const BLACK: Seat = Seat::new(1);
    const CATS: Seat = Seat::new(2);

    #[test]
    fn the_movers_clock_is_used_and_a_missing_one_borrowed() {
        let o = Options::default();
        let (l, note) = limits_for(&go("wtime 5000 btime 7000"), CHESS_SEATS, BLACK, &o);
        assert_eq!((l.time_left, note), (Some(Duration::from_millis(7000)), None));
        // The cats' turn from a two-clock GUI: the smaller clock stands in.
        let (l, note) = limits_for(&go("wtime 5000 btime 7000 winc 100"), CAT_SEATS, CATS, &o);
        assert_eq!((l.time_left, l.increment), (Some(Duration::from_millis(5000)), Duration::from_millis(100)));
        assert!(note.unwrap().contains("no ctime"));
        // Only the opponent's clock: still a limit, never an endless search.
        let (l, _) = limits_for(&go("btime 1"), CHESS_SEATS, WHITE, &o);
        assert_eq!(l.time_left, Some(Duration::from_millis(1)));
        assert!(!l.infinite);
    }

    #[test]
    fn only_a_client_that_asks_for_it_gets_an_endless_search() {
        let o = Options::default();
        for endless in ["", "infinite", "ponder", "searchmoves e2e4"] {
            let (l, _) = limits_for(&go(endless), CHESS_SEATS, WHITE, &o);
            assert!(l.infinite && l.movetime.is_none(), "go {endless}");
        }
        for bounded in ["sideways", "depth x", "movestogo 3", "winc 10"] {
            let (l, note) = limits_for(&go(bounded), CHESS_SEATS, WHITE, &o);
            assert!(!l.infinite && l.movetime == Some(DEFAULT_MOVETIME), "go {bounded}");
            assert!(note.unwrap().contains("no limit given"));
        }
        let (l, _) = limits_for(&go("mate 2"), CHESS_SEATS, WHITE, &o);
        assert!(!l.infinite && l.movetime.is_none() && l.mate == Some(2));
    }

    #[test]
    fn wdl_sums_to_a_thousand_and_leans_with_the_score() {
        for cp in [-2000, -300, -1, 0, 1, 150, 4000] {
            let [w, d, l] = wdl(Score::Cp(cp));
            assert_eq!(w + d + l, 1000, "{cp}");
            assert_eq!(w > l, cp > 0, "{cp}");
        }
        assert_eq!(wdl(Score::Mate(3)), [1000, 0, 0]);
        assert_eq!(wdl(Score::Mate(-1)), [0, 0, 1000]);
    }

    #[test]
    fn a_search_that_panics_in_any_thread_still_gives_a_move() {
        let pos = Chess::startpos();
        let first = first_legal_move(&pos);
        assert!(first.is_some());
        assert_eq!(guarded(&pos, || panic!("a bug in the main thread")), Err(first));
        let helper_panics = || {
            std::thread::scope(|s| {
                s.spawn(|| panic!("a bug in a helper thread"));
            });
            unreachable!("the scope passes the helper's panic on")
        };
        assert_eq!(guarded(&pos, helper_panics), Err(first));
        let fine = SearchResult { best: first, score: Score::Cp(0), white_view: 0, depth: 1, nodes: 1, pv: vec![] };
        assert_eq!(guarded(&pos, || fine.clone()), Ok(fine));
    }

    #[test]
    fn a_search_that_panics_is_answered_and_its_searcher_kept() {
        let options = Options { hash_mb: 2, threads: 3, ..Options::default() };
        let mut session = Session::<Chess>::new(&options);
        let out = Output::new(std::io::sink());
        session.spawn(SearchControl::new(), &options, |_, _| panic!("a bug in the search"));
        session.wait(&options);
        let searcher = session.searcher(&options);
        assert_eq!(searcher.threads(), 3, "the options outlive the panic");
        session.handle(Command::IsReady, &mut options.clone(), &out);
    }
}
