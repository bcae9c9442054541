//! The engine state behind the protocol: a game in progress and its
//! searcher, for one concrete game type, plus `AnySession`, the run-time
//! choice among games.

use super::command::{Command, GoParams, Start};
use super::{Options, Output, ENGINE_AUTHOR, ENGINE_NAME, HASH_MAX_MB, MOVE_OVERHEAD_MAX_MS, THREADS_MAX};
use crate::core::Side;
use crate::game::{Game, History};
use crate::perft::divide;
use crate::search::{Limits, Score, SearchGame, SearchInfo, Searcher};
use crate::variants::VariantKind;
use crate::with_game;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A search running on its own thread; joining it returns the searcher.
struct Job<G: SearchGame> {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Searcher<G>>,
}

pub struct Session<G: SearchGame> {
    history: History<G>,
    /// `None` while a job owns it.
    searcher: Option<Searcher<G>>,
    job: Option<Job<G>>,
}

impl<G: SearchGame> Session<G> {
    fn new(options: &Options) -> Self {
        let mut searcher = Searcher::new(options.hash_mb);
        searcher.set_threads(options.threads);
        Session { history: History::new(G::startpos()), searcher: Some(searcher), job: None }
    }

    /// Waits for a running search to finish by itself.
    fn wait(&mut self) {
        if let Some(job) = self.job.take() {
            self.searcher = Some(job.handle.join().unwrap_or_else(|_| Searcher::new(16)));
        }
    }

    /// Stops a running search (it prints its `bestmove`) and waits for it.
    fn stop(&mut self) {
        if let Some(job) = &self.job {
            job.stop.store(true, Ordering::SeqCst);
        }
        self.wait();
    }

    fn searcher(&mut self) -> &mut Searcher<G> {
        self.stop();
        self.searcher.as_mut().expect("no job runs after stop(), so the searcher is home")
    }

    fn set_position(&mut self, start: &Start, moves: &[String]) -> Result<(), String> {
        let first = match start {
            Start::StartPos => G::startpos(),
            Start::Fen(fen) => G::from_fen(fen).map_err(|e| format!("position: {e}"))?,
        };
        let mut history = History::new(first);
        for (i, text) in moves.iter().enumerate() {
            if let Some(o) = history.outcome() {
                return Err(format!("position: move {} ({text}) comes after the game ended: {o}", i + 1));
            }
            history.push_protocol(text).map_err(|e| format!("position: move {} ({text}): {e}", i + 1))?;
        }
        self.stop();
        self.history = history;
        Ok(())
    }

    fn go(&mut self, params: &GoParams, options: &Options, out: &Output) {
        if let Some(depth) = params.perft {
            self.stop();
            let started = Instant::now();
            let split = divide(self.history.current(), depth);
            for (m, n) in &split {
                out.line(&format!("{m}: {n}"));
            }
            let total: u64 = split.iter().map(|(_, n)| n).sum();
            out.line("");
            out.line(&format!("Nodes searched: {total}"));
            let secs = started.elapsed().as_secs_f64().max(1e-9);
            out.line(&format!("info string perft time {:.3} s, {:.0} nodes/s", secs, total as f64 / secs));
            return;
        }
        self.stop();
        if let Some(o) = self.history.outcome() {
            out.error(&format!("go: the game is over: {o}"));
            out.line("bestmove (none)");
            return;
        }
        let limits = limits_for(params, self.history.current().turn(), options);
        // A `go` with no limit at all is an infinite search, as in UCI.
        let infinite = params.infinite || params.is_unlimited();
        let stop = Arc::new(AtomicBool::new(false));
        let mut searcher = self.searcher.take().expect("stopped above");
        let history = self.history.clone();
        let (out, stop_flag) = (out.clone(), stop.clone());
        let handle = std::thread::spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let mut on_info = |info: &SearchInfo| info_lines::<G>(info).iter().for_each(|l| out.line(l));
                searcher.search(&history, &limits, &stop_flag, &mut on_info)
            }));
            // `go infinite` must not answer before `stop`, even when the
            // search has nothing left to do.
            while infinite && !stop_flag.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(2));
            }
            let best = match result {
                Ok(r) => r.best.map(|m| m.to_string()),
                Err(_) => {
                    out.error("search failed; answering with the first legal move");
                    first_legal_move(history.current())
                }
            };
            out.line(&format!("bestmove {}", best.unwrap_or_else(|| "(none)".into())));
            searcher
        });
        self.job = Some(Job { stop, handle });
    }

    fn handle(&mut self, command: Command, options: &mut Options, out: &Output) {
        match command {
            Command::IsReady => out.line("readyok"),
            Command::Stop => self.stop(),
            Command::PonderHit | Command::Debug(_) | Command::Uci | Command::Quit | Command::SetOption { .. } => {}
            Command::UciNewGame => {
                self.searcher().clear();
                self.history = History::new(G::startpos());
            }
            Command::Position { start, moves } => {
                if let Err(e) = self.set_position(&start, &moves) {
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
                    Some(o) => out.line(&format!("Outcome: {o}")),
                    None => out.line("Outcome: none (game in progress)"),
                }
            }
            Command::Eval => {
                for line in self.history.current().eval_breakdown().lines() {
                    out.line(line);
                }
            }
            Command::Outcome => out.line(&match self.history.outcome() {
                Some(o) => format!("outcome {} {}", o.winner.name(), o.reason.name()),
                None => "outcome none".to_string(),
            }),
        }
    }
}

fn first_legal_move<G: Game>(pos: &G) -> Option<String> {
    let mut list = crate::moves::MoveList::default();
    pos.legal_moves(&mut list);
    list.as_slice().first().map(|m| m.to_string())
}

fn limits_for(params: &GoParams, turn: Side, options: &Options) -> Limits {
    let side = turn.index();
    Limits {
        depth: params.depth,
        nodes: params.nodes,
        movetime: params.movetime,
        infinite: params.infinite || params.is_unlimited(),
        time_left: params.time[side],
        increment: params.inc[side].unwrap_or_default(),
        movestogo: params.movestogo,
        move_overhead: Duration::from_millis(options.move_overhead_ms),
    }
}

/// How likely white, black and the cats are to win, in the engine's eyes:
/// a logistic reading of the white-view score (documented in protocol.md).
/// A mate score is a certainty for the mating side.
pub fn outlook(score: Score, white_view_cp: i32) -> [u32; 3] {
    if let Score::Mate(_) = score {
        return if white_view_cp > 0 { [100, 0, 0] } else { [0, 100, 0] };
    }
    // A side needs a clear edge to convert: about +3 pawns is an even chance.
    let win = |edge: f64| 1.0 / (1.0 + (-(edge - 300.0) / 120.0).exp());
    let w = (win(white_view_cp as f64) * 100.0).round() as u32;
    let b = (win(-white_view_cp as f64) * 100.0).round() as u32;
    [w, b, 100u32.saturating_sub(w + b)]
}

/// The `info` line of a search report, and for Cat Chess a second line with
/// the three-way outlook (`info string` must end its line, so it cannot
/// share one with `pv`).
fn info_lines<G: Game>(info: &SearchInfo) -> Vec<String> {
    let score = match info.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let millis = info.time.as_millis().max(1);
    let nps = info.nodes as u128 * 1000 / millis;
    let mut line = format!(
        "info depth {} seldepth {} nodes {} nps {} time {} hashfull {} score {}",
        info.depth,
        info.seldepth,
        info.nodes,
        nps,
        info.time.as_millis(),
        info.hashfull,
        score
    );
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&info.pv.join(" "));
    }
    let mut lines = vec![line];
    if G::draw_winner() == crate::game::Winner::Cats {
        let [w, b, c] = outlook(info.score, info.white_view);
        lines.push(format!("info string outlook white {w} black {b} cats {c}"));
    }
    lines
}

/// The operations the protocol needs from a session, whatever its game:
/// the one place a run-time variant meets the generic code.
trait GameSession: Send {
    fn stop(&mut self);
    fn handle(&mut self, command: Command, options: &mut Options, out: &Output);
    fn set_hash(&mut self, mb: usize);
    fn set_threads(&mut self, n: usize);
    fn clear(&mut self);
}

impl<G: SearchGame> GameSession for Session<G> {
    fn stop(&mut self) {
        Session::stop(self)
    }
    fn handle(&mut self, command: Command, options: &mut Options, out: &Output) {
        Session::handle(self, command, options, out)
    }
    fn set_hash(&mut self, mb: usize) {
        self.searcher().set_hash(mb)
    }
    fn set_threads(&mut self, n: usize) {
        self.searcher().set_threads(n)
    }
    fn clear(&mut self) {
        self.searcher().clear()
    }
}

/// A session for whichever game `UCI_Variant` names.
pub struct AnySession(Box<dyn GameSession>);

impl AnySession {
    pub fn new(options: &Options) -> Self {
        AnySession(with_game!(options.variant, G => Box::new(Session::<G>::new(options))))
    }

    pub fn shutdown(&mut self) {
        self.0.stop();
    }

    pub fn handle(&mut self, command: Command, options: &mut Options, out: &Output) {
        match command {
            Command::Uci => {
                out.line(&format!("id name {ENGINE_NAME}"));
                out.line(&format!("id author {ENGINE_AUTHOR}"));
                let variants: Vec<String> = VariantKind::ALL.iter().map(|v| format!("var {v}")).collect();
                let d = Options::default();
                out.line(&format!("option name UCI_Variant type combo default {} {}", d.variant, variants.join(" ")));
                out.line(&format!("option name Hash type spin default {} min 1 max {HASH_MAX_MB}", d.hash_mb));
                out.line(&format!("option name Threads type spin default {} min 1 max {THREADS_MAX}", d.threads));
                out.line(&format!(
                    "option name Move Overhead type spin default {} min 0 max {MOVE_OVERHEAD_MAX_MS}",
                    d.move_overhead_ms
                ));
                out.line("option name Clear Hash type button");
                out.line("uciok");
            }
            Command::SetOption { name, value } => {
                if let Err(e) = self.set_option(&name, value.as_deref(), options) {
                    out.error(&format!("setoption: {e}"));
                }
            }
            other => self.0.handle(other, options, out),
        }
    }

    fn set_option<'a>(&mut self, name: &str, value: Option<&'a str>, options: &mut Options) -> Result<(), String> {
        let need = |v: Option<&'a str>| -> Result<&'a str, String> {
            v.ok_or_else(|| format!("option '{name}' needs a value"))
        };
        let number = |v: &str, min: u64, max: u64| -> Result<u64, String> {
            match v.parse::<u64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(format!("option '{name}' takes a whole number from {min} to {max}, got '{v}'")),
            }
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let variant: VariantKind = need(value)?.parse()?;
                self.shutdown();
                options.variant = variant;
                *self = AnySession::new(options);
            }
            "hash" => {
                options.hash_mb = number(need(value)?, 1, HASH_MAX_MB as u64)? as usize;
                self.0.set_hash(options.hash_mb);
            }
            "threads" => {
                options.threads = number(need(value)?, 1, THREADS_MAX as u64)? as usize;
                self.0.set_threads(options.threads);
            }
            "move overhead" => options.move_overhead_ms = number(need(value)?, 0, MOVE_OVERHEAD_MAX_MS)?,
            "clear hash" => {
                if value.is_some() {
                    return Err("'Clear Hash' is a button and takes no value".into());
                }
                self.0.clear();
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
        Ok(())
    }
}
