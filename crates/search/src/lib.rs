//! The search: iterative deepening, principal variation search with a
//! shared transposition table, quiescence search, and Lazy SMP threads,
//! for any game of the `game` traits.
//!
//! | file | what it owns |
//! | --- | --- |
//! | `mod.rs` | `SearchGame` (the game's hooks), the `Searcher`, scores and results |
//! | `worker.rs` | one search thread: iterative deepening, aspiration, what every node shares |
//! | `node.rs` | a node's kind as a type (root, PV, non-PV), its window, its null-move permission |
//! | `pvs.rs` | a player's node: principal variation search, step by step |
//! | `quiescence.rs` | quiescence search |
//! | `cats.rs` | near-zero seats (Cat Chess's cats) |
//! | `chance.rs` | rolled moves (expectimax with Star1/Star2) |
//! | `evaluate.rs` | the static evaluation's trait and its tunable weights |
//! | `movepick.rs` | move ordering |
//! | `history.rs` | killers, history and continuation history |
//! | `correction.rs` | correction history: the static value corrected by its past errors |
//! | `tt.rs` | the transposition table |
//! | `timeman.rs` | how long to think |
//! | `control.rs` | stop and ponder from another thread |
//! | `params.rs` | every tunable number of the above |
//! | `tunable.rs` | a tunable number: a constant, or with the `tune` feature a UCI option (SPSA) |
//! | `skill.rs` | playing below full strength (levels, `UCI_Elo`) |
//!
//! # Any number of seats, one number
//!
//! Every value is one scalar s from the first seat's point of view: +MATE
//! when a maximising seat wins, -MATE when a minimising one does, 0 for a
//! draw, an evaluation in between. Each seat reads s by its [`Goal`]:
//!
//! * maximising and minimising seats are ordinary negamax nodes, each
//!   valuing the position from its own side (s, or -s);
//! * a near-zero seat (Cat Chess's cats, who win every draw) values it as
//!   s and chooses the child whose value is closest to zero (`cats.rs`
//!   explains how alpha-beta windows still prune there).
//!
//! The search never asks which game it plays: chess simply has no
//! near-zero seat. Turns need not alternate: the seat to move is asked of
//! every position, so mate distances and "improving" count a seat's own
//! turns, not plies divided by a fixed cycle.
mod cats;
mod chance;
pub mod control;
pub mod correction;
pub mod evaluate;
pub mod history;
pub mod movepick;
mod node;
pub mod params;
mod pvs;
mod quiescence;
pub mod skill;
pub mod three_way;
pub mod timeman;
pub mod tt;
mod tunable;
mod worker;

pub use control::SearchControl;
pub use evaluate::Evaluate;
pub use skill::{Skill, Strength};
pub use timeman::{Limits, TimeManager};
pub use tunable::{Tunable, SPSA_R_END};

use catchess_game::{Game, Goal, History as GameHistory, MoveList, Seat};
use history::History;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tt::Table;
use worker::Worker;

/// Mate in 0 plies; a mate `p` plies away scores `MATE - p`.
pub const MATE: i32 = 32_000;
/// Values beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// The largest static value the search takes from an evaluation, below
/// every mate score.
pub const MAX_STATIC: i32 = MATE_BOUND - 1;
pub const INF: i32 = MATE + 1;
pub const DRAW: i32 = 0;
pub const MAX_PLY: usize = 128;
pub const MAX_DEPTH: i32 = 100;

/// What the search needs from a game beyond its rules: its `engine.rs`.
pub trait SearchGame: Game + Evaluate {
    /// Positions (FEN) for `catchess bench`, with every seat to move; each
    /// is searched to `BENCH_DEPTH` plies by default, a few seconds in all.
    /// The node count fingerprints the search.
    const BENCH: &'static [&'static str];
    const BENCH_DEPTH: u32;
    /// The move in 32 bits (for the transposition table); never 0 for a
    /// real move, since 0 means "none" there.
    fn move_bits(m: Self::Move) -> u32;
    /// Whether the seat to move is under an attack it must answer (chess:
    /// in check): such a node is searched a ply deeper, and quiescence
    /// answers it move by move instead of standing pat.
    fn in_check(&self) -> bool;
    /// Captures and promotions, for quiescence search. At a near-zero
    /// seat's turn: the moves that can change the next captures.
    fn tactical_moves(&self, list: &mut MoveList<Self::Move>);
    /// An ordering value if the move captures or promotes (most valuable
    /// victim first, least valuable attacker first); `None` for quiet moves.
    fn tactical_value(&self, m: Self::Move) -> Option<i32>;
    /// Static exchange evaluation: whether the move gains at least `threshold`.
    fn see_ge(&self, m: Self::Move, threshold: i32) -> bool;
    /// The position with the seat to move skipping its turn.
    fn null_move(&self) -> Self;
    /// Whether the seat to move has material other than pawns and king
    /// (null-move pruning is unsafe without: zugzwang).
    fn has_non_pawn_material(&self) -> bool;
    /// An upper bound on the plies since the last irreversible move: how far
    /// back a repetition can be.
    fn reversible_plies(&self) -> usize;

    /// Whether a repetition in which every move of one side gave check is
    /// lost by that side (xiangqi's perpetual check) instead of drawn. Only
    /// two-seat games may set it: the worker then records, per ply, whether
    /// the move just played gave check, and judges each repetition it finds
    /// by the moves of its cycle (see `Worker::repetition_value`). With the
    /// default `false` nothing is recorded and every repetition is a draw.
    const PERPETUAL_CHECK_LOSES: bool = false;

    /// The engine options this game adds to the protocol's list (standard
    /// chess and xiangqi: `EvalFile`); none by default.
    const OPTIONS: &'static [catchess_game::GameOption] = &[];

    /// `UCI_Elo` to the weakened search's level in this game
    /// (`skill::EloTable`): measured against another engine where one
    /// plays the game; by default the table measured in chess.
    const ELO_TO_LEVEL: skill::EloTable = skill::DEFAULT_ELO_TO_LEVEL;

    /// How many plies into quiescence a check is still answered move by
    /// move (deeper, the static value stands). A game whose turns take
    /// several steps, each a ply, wants fewer: every step of an answer
    /// multiplies the width.
    const QS_EVASION_PLIES: usize = params::QS_EVASION_PLIES;

    /// Whether the static evaluation may stand for this position's value:
    /// quiescence may stop here (stand pat) and pruning near the leaves may
    /// trust it. A game whose turns take several steps says false between
    /// the steps that follow a turn's main move (its mover has acted, its
    /// opponent has not yet had the chance to answer, so the static value
    /// would count a capture as won before any recapture). There,
    /// quiescence searches `tactical_moves`, which must then hold a move
    /// that carries the turn on (declining the optional steps), and the
    /// node is not pruned by its static value. By default always true.
    fn static_value_holds(&self) -> bool {
        true
    }

    /// Whether the quiet move `m` must not be pruned by move count or
    /// futility near the leaves (xiangqi: a check, since most mates there
    /// begin and end with quiet checks). Asked only of moves about to be
    /// pruned; the default `false` prunes them.
    fn keep_quiet(&self, _m: Self::Move) -> bool {
        false
    }

    /// How many kinds of piece moves can move, and which kind `m` moves (a
    /// number below `PIECE_KINDS`, asked before `m` is played): the
    /// continuation history tells a knight to f3 from a bishop to f3. By
    /// default one kind: squares only.
    const PIECE_KINDS: usize = 1;
    fn moved_kind(&self, _m: Self::Move) -> usize {
        0
    }

    /// How many correction keys [`correction_keys`](Self::correction_keys)
    /// gives (at most `correction::MAX_KEYS`); 0, the default, turns the
    /// correction history off.
    const CORRECTION_KEYS: usize = 0;
    /// Keys of what the static evaluation misjudges alike for a while
    /// (chess: the pawn structure, then each side's other pieces), in an
    /// order the game keeps: the correction history learns the
    /// evaluation's errors per key (`correction.rs`). The first
    /// `CORRECTION_KEYS` count.
    fn correction_keys(&self) -> correction::CorrectionKeys {
        [0; correction::MAX_KEYS]
    }

    /// Whether `m` is tried after every other move: a costly move that is
    /// rarely best, such as asking for a roll (the teleport of Cat's Chess
    /// 10×10, whose chance node searches every square). Default: none.
    fn order_last(&self, _m: Self::Move) -> bool {
        false
    }

    /// The exact result from endgame tables, when tables are loaded and
    /// cover this position: the winner (the draw's winner for a draw) and
    /// the plies to the end of the game. The search takes it as the node's
    /// value; the root plays [`table_move`](Self::table_move) instead of
    /// searching. Default: no tables.
    fn table_result(&self) -> Option<(Option<Seat>, u32)> {
        None
    }
    /// The tables' win that the half-move clock cuts off (it cannot arrive
    /// before the fifty-move rule ends the game, so
    /// [`table_result`](Self::table_result) gives the draw): its winner and
    /// plies, for words that say why. Default: no tables.
    fn table_win_too_late(&self) -> Option<(Seat, u32)> {
        None
    }
    /// The tables' best move: the fastest win, the draw, the slowest loss.
    fn table_move(&self) -> Option<Self::Move> {
        None
    }
    /// The tables' result in words, for `d`.
    fn table_words(&self) -> Option<String> {
        None
    }

    /// Whether `seat` cannot win as the position stands, however the
    /// search scores it: the rules deny it the only way it wins while what
    /// it rests on lasts (Cat Chess: the enemy king beside a cat cannot be
    /// checked, so cannot be mated, RULES.md §5). A search scores material
    /// and sees no fortress; the outlook gives such a seat no chance unless
    /// a mate is proved, and says why. Default: never.
    fn cannot_win(&self, _seat: Seat) -> bool {
        false
    }
}

/// What the seat to move of `pos` plays for.
#[inline(always)]
pub fn goal<G: Game>(pos: &G) -> Goal {
    G::SEATS[pos.to_move().index()].goal
}

/// The sign that turns a first-seat value into `pos`'s seat to move's view.
#[inline(always)]
pub fn perspective<G: Game>(pos: &G) -> i32 {
    goal(pos).sign()
}

/// The value of a won game for `winner` (a draw: `None`) from the first
/// seat's view, `ply` plies from the root: sooner wins count more.
#[inline]
pub fn win_value<G: Game>(winner: Option<Seat>, ply: usize) -> i32 {
    match winner.map(|w| G::SEATS[w.index()].goal) {
        Some(Goal::Maximise) => MATE - ply as i32,
        Some(Goal::Minimise) => -(MATE - ply as i32),
        Some(Goal::NearZero) | None => DRAW,
    }
}

/// A score as UCI reports it, from the side to move's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    Cp(i32),
    /// Mate in n of the side to move's own moves; negative when it is mated
    /// (for the cats: a mate they cannot stop).
    Mate(i32),
}

/// One completed iteration, as the protocol reports it.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub score: Score,
    /// The value from the first seat's point of view (white's, red's): the
    /// one scalar of the module's note, in centipawns below the mates (the
    /// cats' outlook reads it; the web API's field of the same name).
    pub first_seat_cp: i32,
    pub pv: Vec<String>,
    /// Which of the best lines this is, from 1 (`MultiPV`).
    pub multipv: usize,
    /// Positions whose value came from the endgame tables.
    pub tbhits: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    pub best: Option<M>,
    pub score: Score,
    /// As `SearchInfo::first_seat_cp`.
    pub first_seat_cp: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<M>,
}

/// State the threads of one search share.
pub(crate) struct Shared<'a> {
    pub stop: AtomicBool,
    pub control: &'a SearchControl,
    pub nodes: AtomicU64,
    pub tbhits: AtomicU64,
    pub node_limit: Option<u64>,
    /// `Limits::soft_nodes`: read between iterations only.
    pub soft_node_limit: Option<u64>,
    pub time: TimeManager,
}

impl Shared<'_> {
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// How many of `root`'s seat's own turns begin within the first `plies`
/// plies of the line `pv` from `root` (the root's own turn counting as
/// begun). Past the end of `pv` each ply is taken to be a turn of the next
/// seat in order.
pub fn own_turns<G: Game>(root: &G, pv: &[G::Move], plies: i32) -> i32 {
    let me = root.to_move();
    let (mut pos, mut seat, mut starts, mut turns) = (*root, me, true, 0);
    for i in 0..plies.max(0) as usize {
        turns += (seat == me && starts) as i32;
        (seat, starts) = match pv.get(i) {
            Some(&m) => {
                pos = pos.play(m);
                (pos.to_move(), pos.at_turn_start())
            }
            None => (Seat::new((seat.index() + 1) % G::SEATS.len()), true),
        };
    }
    turns
}

/// Converts a root value (in the root seat's perspective) to a UCI score
/// from that seat's view; `pv` is the line that leads to it.
pub fn uci_score<G: Game>(root: &G, pv: &[G::Move], value: i32) -> Score {
    let first_view = value * perspective(root);
    let plies = MATE - first_view.abs();
    if goal(root) == Goal::NearZero {
        // The near-zero seat's own view: 0 is its best; any lean is against it.
        return if first_view.abs() >= MATE_BOUND {
            Score::Mate(-own_turns(root, pv, plies).max(1))
        } else {
            Score::Cp(-first_view.abs())
        };
    }
    if value >= MATE_BOUND {
        Score::Mate(own_turns(root, pv, plies).max(1))
    } else if value <= -MATE_BOUND {
        Score::Mate(-own_turns(root, pv, plies).max(1))
    } else {
        Score::Cp(value)
    }
}

/// The engine's searcher: transposition table and per-thread histories,
/// kept between searches of one game.
pub struct Searcher<G: SearchGame> {
    tt: Arc<Table>,
    threads: usize,
    histories: Vec<History<G::Move>>,
}

impl<G: SearchGame> Searcher<G> {
    /// A searcher with a table of `hash_mb` MiB; panics if the memory
    /// cannot be had (the protocol uses [`try_new`](Self::try_new)).
    pub fn new(hash_mb: usize) -> Self {
        Self::try_new(hash_mb).unwrap_or_else(|e| panic!("{e}"))
    }

    pub fn try_new(hash_mb: usize) -> Result<Self, String> {
        Ok(Searcher { tt: Arc::new(Table::try_new(hash_mb)?), threads: 1, histories: vec![Self::history()] })
    }

    fn history() -> History<G::Move> {
        History::new(G::SEATS.len(), G::SQUARES, G::PIECE_KINDS, G::CORRECTION_KEYS)
    }

    /// A table of `mb` MiB in place of the old one, which is kept if the
    /// new one cannot be had. The old one is freed first when it is larger,
    /// so that shrinking a large table always succeeds.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        let old_mb = self.tt.size_bytes() >> 20;
        if mb < old_mb {
            self.tt = Arc::new(Table::new(1));
        }
        match Table::try_new(mb) {
            Ok(t) => {
                self.tt = Arc::new(t);
                Ok(())
            }
            Err(e) => Err(format!("{e}; Hash stays {} MiB", self.tt.size_bytes() >> 20)),
        }
    }

    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
        self.histories.resize_with(self.threads, Self::history);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Whether the correction history has learnt anything (in the games
    /// with correction keys), which a new game forgets.
    pub fn learnt_corrections(&self) -> bool {
        self.histories.iter().any(|h| h.correction.learnt_anything())
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear(),
            // Only a running search shares the table, and none runs now.
            None => self.tt = Arc::new(Table::new(self.tt.size_bytes() >> 20)),
        }
        self.histories.iter_mut().for_each(History::clear);
    }

    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches the current position of `game` within `limits` until done
    /// or `control` stops it; calls `on_info` after each completed iteration.
    pub fn search(
        &mut self,
        game: &GameHistory<G>,
        limits: &Limits,
        control: &SearchControl,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult<G::Move> {
        self.search_among(game, limits, &[], control, on_info)
    }

    /// As [`search`](Self::search), choosing only among `root_moves` (all
    /// legal moves when empty; `go searchmoves`).
    pub fn search_among(
        &mut self,
        game: &GameHistory<G>,
        limits: &Limits,
        root_moves: &[G::Move],
        control: &SearchControl,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult<G::Move> {
        self.tt.new_search();
        let shared = Shared {
            stop: AtomicBool::new(false),
            control,
            nodes: AtomicU64::new(0),
            tbhits: AtomicU64::new(0),
            node_limit: limits.nodes,
            soft_node_limit: limits.soft_nodes,
            time: TimeManager::new(limits).shared_by(turn_decisions(game)),
        };
        let root = *game.current();
        if let Some(result) = table_root(&root, root_moves, control, on_info) {
            return result;
        }
        let max_depth = limits.depth.map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
        let max_depth = match (limits.mate, limits.depth) {
            // A mate in n needs about n turns of plies; twice that (and a
            // margin) lets pruned lines be found too, and bounds a `go mate`
            // where there is no mate.
            (Some(n), None) => max_depth
                .min((2 * n.saturating_mul(G::SEATS.len() as u32)).saturating_add(4).min(MAX_DEPTH as u32) as i32),
            _ => max_depth,
        };
        let lines = limits.multipv.max(1);
        let keys: Vec<u64> = game.keys().collect();
        let checks: Vec<bool> = if G::PERPETUAL_CHECK_LOSES {
            game.positions().iter().map(|p| p.in_check()).collect()
        } else {
            vec![false; keys.len()]
        };
        let tt = &*self.tt;
        let (main_history, helper_histories) = self.histories.split_first_mut().expect("at least one thread");
        std::thread::scope(|scope| {
            for (i, h) in helper_histories.iter_mut().enumerate() {
                let (shared, keys, checks) = (&shared, keys.clone(), checks.clone());
                scope.spawn(move || {
                    let mut w = Worker::new(tt, shared, h, keys, &checks, root_moves, i + 1);
                    w.iterate(&root, max_depth, 1, None, &mut |_| {});
                });
            }
            let mut w = Worker::new(tt, &shared, main_history, keys.clone(), &checks, root_moves, 0);
            let result = w.iterate(&root, max_depth, lines, limits.mate, on_info);
            shared.stop.store(true, Ordering::Relaxed);
            result
        })
    }
}

/// How many `go`s the turn being decided takes on the mover's clock: two
/// when it may stop at a roll (a move of the root leads to a chance
/// position) or already stopped at one (this search answers the rest of
/// it), else one. The arbiter adds the increment once, at the turn's end,
/// so each `go` of a rolled turn gets half the budget
/// ([`TimeManager::shared_by`]).
pub fn turn_decisions<G: Game>(game: &GameHistory<G>) -> u32 {
    let root = game.current();
    let rolled = game.positions().iter().rev().take_while(|p| !p.at_turn_start()).any(|p| p.is_chance());
    let may_roll = root.at_turn_start() && {
        let mut list = MoveList::default();
        root.legal_moves(&mut list);
        list.iter().any(|&m| root.play(m).is_chance())
    };
    if rolled || may_roll {
        2
    } else {
        1
    }
}

/// The root's answer from the endgame tables, if they cover it: their best
/// move (among `root_moves` if given), reported as one iteration whose
/// line follows the tables' best moves to the end of the game.
fn table_root<G: SearchGame>(
    root: &G,
    root_moves: &[G::Move],
    control: &SearchControl,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> Option<SearchResult<G::Move>> {
    let (winner, plies) = root.table_result()?;
    let best = root.table_move()?;
    if !root_moves.is_empty() && !root_moves.contains(&best) {
        return None;
    }
    let mut pv = vec![best];
    let mut pos = root.play(best);
    while pv.len() < plies.min(MAX_PLY as u32) as usize {
        let Some(m) = pos.table_move() else { break };
        pv.push(m);
        pos = pos.play(m);
    }
    let first_seat_cp = win_value::<G>(winner, plies.min((MATE - MATE_BOUND) as u32 - 1) as usize);
    let value = first_seat_cp * perspective(root);
    let score = uci_score(root, &pv, value);
    on_info(&SearchInfo {
        depth: 1,
        seldepth: pv.len() as u32,
        nodes: 1,
        time: control.elapsed(),
        hashfull: 0,
        score,
        first_seat_cp,
        pv: pv.iter().map(|m| m.to_string()).collect(),
        multipv: 1,
        tbhits: 1,
    });
    Some(SearchResult { best: Some(best), score, first_seat_cp, depth: 1, nodes: 1, pv })
}
