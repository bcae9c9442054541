//! The engine for one concrete game: a game in progress, its searcher and
//! table, and the job (a search or a perft) running on a thread of its
//! own. Front ends drive it with calls (set the position, go, stop, ponder
//! hit, a new game) and hear back through callbacks; what they print or
//! send is theirs.

use super::options::Options;
use super::turn::{play_turn, TurnChoice};
use catchess_game::perft::divide_with;
use catchess_game::{describe, History};
use catchess_games::Playable;
use catchess_search::{Limits, SearchControl, SearchInfo, Searcher, Strength};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// A search or perft running on its own thread; joining it returns the
/// searcher.
struct Job<G: Playable> {
    control: Arc<SearchControl>,
    handle: JoinHandle<Searcher<G>>,
}

/// Where a position starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    StartPos,
    Fen(String),
}

/// What a `go` asks of the engine.
#[derive(Clone, Debug)]
pub struct Go<M> {
    pub limits: Limits,
    /// Search only these root moves (none: every move).
    pub root_moves: Vec<M>,
    pub strength: Strength,
    /// Think on the opponent's time until [`Engine::ponderhit`] or
    /// [`Engine::stop`].
    pub ponder: bool,
}

/// What a search's job ends with: the position it searched and the turn
/// the engine plays there.
pub struct Answer<G: Playable> {
    pub pos: G,
    pub choice: TurnChoice<G::Move>,
}

pub struct Engine<G: Playable> {
    history: History<G>,
    /// `None` while a job owns it.
    searcher: Option<Searcher<G>>,
    job: Option<Job<G>>,
}

impl<G: Playable> Engine<G> {
    pub fn new(options: &Options) -> Self {
        Engine { history: History::new(G::startpos()), searcher: Some(new_searcher(options)), job: None }
    }

    pub fn history(&self) -> &History<G> {
        &self.history
    }

    /// Waits for a running job to finish by itself.
    pub fn wait(&mut self, options: &Options) {
        if let Some(job) = self.job.take() {
            // The job catches every panic of the search and hands the
            // searcher back; should even that fail, start afresh with the
            // same options.
            self.searcher = Some(job.handle.join().unwrap_or_else(|_| new_searcher(options)));
        }
    }

    /// Stops a running job (a search still gives its answer) and waits
    /// for it.
    pub fn stop(&mut self, options: &Options) {
        if let Some(job) = &self.job {
            job.control.stop();
        }
        self.wait(options);
    }

    /// The opponent played the move pondered on: the mover's clock starts.
    pub fn ponderhit(&self) {
        if let Some(job) = &self.job {
            job.control.ponderhit();
        }
    }

    /// The searcher, once no job holds it.
    pub fn searcher(&mut self, options: &Options) -> &mut Searcher<G> {
        self.stop(options);
        self.searcher.as_mut().expect("no job runs after stop(), so the searcher is home")
    }

    /// A new game: the start position, the table cleared.
    pub fn new_game(&mut self, options: &Options) {
        self.searcher(options).clear();
        self.history = History::new(G::startpos());
    }

    /// The game from `start` with `moves` (each a turn in the protocol's
    /// text; the last may be a partial turn after a roll). The position is
    /// unchanged when one is refused.
    pub fn set_position(&mut self, start: &Start, moves: &[String], options: &Options) -> Result<(), String> {
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
    /// returns; the engine's other calls are served meanwhile, and reach
    /// the job through `control`.
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

    /// Counts the leaves `depth` turns below the position on the job's
    /// thread: `on_root` for each root turn as its count finishes, then
    /// `on_done` with the total (`None` if stopped first). A depth beyond
    /// the bound is refused at once.
    pub fn perft(
        &mut self,
        depth: u32,
        options: &Options,
        mut on_root: impl FnMut(&G, &[G::Move], u64) + Send + 'static,
        on_done: impl FnOnce(Option<u64>) + Send + 'static,
    ) -> Result<(), catchess_game::perft::TooDeep> {
        catchess_game::perft::checked_depth(depth)?;
        let pos = *self.history.current();
        self.spawn(SearchControl::new(), options, move |_, control| {
            let stopped = || control.is_stopped();
            let total = divide_with(&pos, depth, &stopped, |steps, n| on_root(&pos, steps, n));
            on_done(total.ok().flatten());
        });
        Ok(())
    }

    /// Searches the position on the job's thread and plays the engine's
    /// turn there ([`play_turn`]): `on_info` for each report, then
    /// `on_done` with the answer. An endless or ponder search answers
    /// only once stopped (pondering: or hit), even when it has nothing
    /// left to search.
    pub fn go(
        &mut self,
        go: Go<G::Move>,
        options: &Options,
        mut on_info: impl FnMut(&SearchInfo) + Send + 'static,
        on_done: impl FnOnce(Answer<G>) + Send + 'static,
    ) {
        let control = if go.ponder { SearchControl::pondering() } else { SearchControl::new() };
        let history = self.history.clone();
        self.spawn(control, options, move |searcher, control| {
            let pos = *history.current();
            let choice = play_turn(&history, searcher, &go.limits, &go.root_moves, go.strength, control, &mut on_info);
            while (go.limits.infinite || control.is_pondering()) && !control.is_stopped() {
                std::thread::sleep(Duration::from_millis(2));
            }
            on_done(Answer { pos, choice });
        });
    }
}

/// A searcher as the options size it. The hash size was allocated once
/// when it was set; should the memory be gone now, a small table keeps the
/// engine alive.
pub fn new_searcher<G: Playable>(options: &Options) -> Searcher<G> {
    let mut searcher = Searcher::try_new(options.hash_mb).unwrap_or_else(|_| Searcher::new(1));
    searcher.set_threads(options.threads);
    searcher
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_games::Chess;

    #[test]
    fn a_job_that_panics_gives_its_searcher_back_with_the_options() {
        let options = Options { hash_mb: 2, threads: 3, ..Options::default() };
        let mut engine = Engine::<Chess>::new(&options);
        engine.spawn(SearchControl::new(), &options, |_, _| panic!("a bug in the search"));
        engine.wait(&options);
        assert_eq!(engine.searcher(&options).threads(), 3, "the options outlive the panic");
    }

    #[test]
    fn a_refused_position_leaves_the_game_as_it_was() {
        let options = Options::default();
        let mut engine = Engine::<Chess>::new(&options);
        engine.set_position(&Start::StartPos, &["e2e4".into()], &options).unwrap();
        let err = engine.set_position(&Start::StartPos, &["e2e4".into(), "é7é5".into()], &options).unwrap_err();
        assert!(err.contains("move 2"), "{err}");
        assert_eq!(engine.history().moves().len(), 1);
    }
}
