//! The protocol over the engine: each command becomes an engine call
//! (`engine::Engine`), each answer a protocol line. `Session<G>` is this
//! for one game; `AnySession`, the run-time choice among games that
//! `UCI_Variant` makes.

use super::command::{Command, GoParams, Start};
use super::{Output, ENGINE_AUTHOR, ENGINE_NAME};
use catchess_engine::{self as engine, Answer, Engine, Go, Options};
use catchess_game::{describe, winner_name, Goal, Seat, SeatInfo};
use catchess_games::{with_game, Playable, VariantKind};
use catchess_search::{Limits, Score, SearchGame, SearchInfo, Strength};
use std::time::Duration;

pub struct Session<G: Playable> {
    engine: Engine<G>,
}

/// Move time given to a `go` whose words leave the search without any
/// limit but did not ask for an endless one (`go infinite`, or `go` alone).
pub const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);

impl<G: Playable> Session<G> {
    fn new(options: &Options) -> Self {
        Session { engine: Engine::new(options) }
    }

    /// `go perft`: each root turn's count as it finishes, then the total.
    fn perft(&mut self, depth: u32, options: &Options, out: &Output) {
        let started = std::time::Instant::now();
        let (each, done) = (out.clone(), out.clone());
        let on_root = move |pos: &G, steps: &[G::Move], n: u64| each.line(&format!("{}: {n}", pos.turn_text(steps)));
        let on_done = move |total: Option<u64>| match total {
            Some(total) => {
                done.line("");
                done.line(&format!("Nodes searched: {total}"));
                let secs = started.elapsed().as_secs_f64().max(1e-9);
                done.line(&format!("info string perft time {:.3} s, {:.0} nodes/s", secs, total as f64 / secs));
            }
            None => done.line("info string perft stopped before it finished"),
        };
        if let Err(e) = self.engine.perft(depth, options, on_root, on_done) {
            out.error(&format!("go perft: {e}"));
        }
    }

    fn go(&mut self, params: &GoParams, options: &Options, out: &Output) {
        for warning in &params.warnings {
            out.warning(warning);
        }
        if let Some(depth) = params.perft {
            self.perft(depth, options, out);
            return;
        }
        self.engine.stop(options);
        if let Some(o) = self.engine.history().outcome() {
            out.error(&format!("go: the game is over: {}", describe::<G>(&o)));
            out.line("bestmove (none)");
            return;
        }
        let pos = *self.engine.history().current();
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
        let report = Report { show_wdl: options.show_wdl, ponder: options.ponder, multipv: options.multipv };
        let go =
            Go { limits, root_moves, strength: Strength::new(options.skill(), rand::random()), ponder: params.ponder };
        let (info_out, done_out) = (out.clone(), out.clone());
        let on_info = move |info: &SearchInfo| report.info_lines(&pos, info).iter().for_each(|l| info_out.line(l));
        let on_done = move |answer: Answer<G>| {
            if answer.choice.fell_back() {
                done_out.error("search failed; answering with the first legal move");
            }
            done_out.line(&report.bestmove(&answer));
        };
        self.engine.go(go, options, on_info, on_done);
    }

    fn handle(&mut self, command: Command, options: &mut Options, out: &Output) {
        match command {
            Command::IsReady => out.line("readyok"),
            Command::Stop => self.engine.stop(options),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Debug(_)
            | Command::Uci
            | Command::Quit
            | Command::SetOption { .. }
            | Command::Help
            | Command::Spsa => {}
            Command::UciNewGame => self.engine.new_game(options),
            Command::Position { start, moves } => {
                let start = match start {
                    Start::StartPos => engine::Start::StartPos,
                    Start::Fen(fen) => engine::Start::Fen(fen),
                };
                if let Err(e) = self.engine.set_position(&start, &moves, options) {
                    out.error(&format!("{e}; position unchanged"));
                }
            }
            Command::Go(params) => self.go(&params, options, out),
            Command::Display => {
                let history = self.engine.history();
                let pos = history.current();
                for line in pos.render().lines() {
                    out.line(line);
                }
                match history.outcome() {
                    Some(o) => out.line(&format!("Outcome: {}", describe::<G>(&o))),
                    None => out.line("Outcome: none (game in progress)"),
                }
                if let Some(words) = pos.table_words() {
                    out.line(&words);
                }
            }
            Command::Eval => {
                for line in self.engine.history().current().eval_breakdown().lines() {
                    out.line(line);
                }
            }
            Command::Outcome => out.line(&match self.engine.history().outcome() {
                Some(o) => format!("outcome {} {}", winner_name::<G>(o.winner), o.reason.name()),
                None => "outcome none".to_string(),
            }),
            Command::Rolls => out.line(&super::rolls::rolls_line(self.engine.history())),
        }
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
    /// is on and one is known (a game of one move a turn, a search's line).
    fn bestmove<G: Playable>(&self, answer: &Answer<G>) -> String {
        let turn = answer.choice.steps.as_ref().map(|steps| answer.pos.turn_text(steps));
        let ponder = match &answer.choice.search {
            Some(found) if G::ONE_MOVE_TURNS => found.pv.get(1).map(|m| m.to_string()),
            _ => None,
        };
        match (turn, ponder) {
            (Some(t), Some(p)) if self.ponder => format!("bestmove {t} ponder {p}"),
            (Some(t), _) => format!("bestmove {t}"),
            (None, _) => "bestmove (none)".to_string(),
        }
    }

    /// The `info` line of a search report, and for Cat Chess a second line
    /// with the three-way outlook (`info string` must end its line, so it
    /// cannot share one with `pv`).
    fn info_lines<G: SearchGame>(&self, pos: &G, info: &SearchInfo) -> Vec<String> {
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
        let chances = engine::has_outlook(G::SEATS).then(|| engine::outlook(pos, info));
        if self.show_wdl {
            let [w, d, l] = match &chances {
                // The maximiser, the near-zero seat (the draw), the minimiser.
                Some(c) => [Goal::Maximise, Goal::NearZero, Goal::Minimise]
                    .map(|g| G::SEATS.iter().zip(c).filter(|(s, _)| s.goal == g).map(|(_, o)| o.percent * 10).sum()),
                None => engine::wdl(info.score),
            };
            line.push_str(&format!(" wdl {w} {d} {l}"));
        }
        if !info.pv.is_empty() {
            line.push_str(" pv ");
            line.push_str(&info.pv.join(" "));
        }
        let mut lines = vec![line];
        if let (Some(c), 1) = (chances, info.multipv) {
            let words: Vec<String> = G::SEATS.iter().zip(c).map(|(s, o)| format!("{} {}", s.name, o.percent)).collect();
            lines.push(format!("info string outlook {}", words.join(" ")));
        }
        lines
    }
}

/// The operations the protocol needs from a session, whatever its game
/// (`Session<G>` as a trait object): the one place a run-time variant
/// meets the generic code.
trait VariantSession: Send {
    fn stop(&mut self, options: &Options);
    fn handle(&mut self, command: Command, options: &mut Options, out: &Output);
    fn set_hash(&mut self, mb: usize, options: &Options) -> Result<(), String>;
    fn set_threads(&mut self, n: usize, options: &Options);
    fn clear(&mut self, options: &Options);
}

impl<G: Playable> VariantSession for Session<G> {
    fn stop(&mut self, options: &Options) {
        self.engine.stop(options)
    }
    fn handle(&mut self, command: Command, options: &mut Options, out: &Output) {
        Session::handle(self, command, options, out)
    }
    fn set_hash(&mut self, mb: usize, options: &Options) -> Result<(), String> {
        self.engine.searcher(options).set_hash(mb)
    }
    fn set_threads(&mut self, n: usize, options: &Options) {
        self.engine.searcher(options).set_threads(n)
    }
    fn clear(&mut self, options: &Options) {
        self.engine.searcher(options).clear()
    }
}

/// A session for whichever game `UCI_Variant` names.
pub struct AnySession {
    game: Box<dyn VariantSession>,
    /// The options a session starts with (`uci` lists them as defaults).
    defaults: Options,
}

impl engine::Settings for AnySession {
    fn switch_variant(&mut self, variant: VariantKind, options: &mut Options) {
        self.shutdown(options);
        // Free the old table before the new session takes its own.
        let _ = self.game.set_hash(1, options);
        options.variant = variant;
        self.game = Self::for_variant(options);
    }
    fn set_hash(&mut self, mb: usize, options: &Options) -> Result<(), String> {
        self.game.set_hash(mb, options)
    }
    fn set_threads(&mut self, n: usize, options: &Options) {
        self.game.set_threads(n, options)
    }
    fn clear(&mut self, options: &Options) {
        self.game.clear(options)
    }
    fn stop(&mut self, options: &Options) {
        self.game.stop(options)
    }
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
                if let Err(e) = engine::options::set(self, &name, value.as_deref(), options) {
                    out.error(&format!("setoption: {e}"));
                }
            }
            Command::Help => super::HELP.lines().for_each(|l| out.line(l)),
            Command::Spsa => match super::options::spsa_lines() {
                Ok(lines) => lines.iter().for_each(|l| out.line(l)),
                Err(e) => out.error(&e),
            },
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

    use catchess_game::Game;
    use catchess_games::{CatChess, Chess};

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
        assert!(!l.infinite && l.mate == Some(2));
    }
}
