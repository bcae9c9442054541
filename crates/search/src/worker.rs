//! One search thread: iterative deepening with aspiration windows, and
//! what every kind of node shares (the path, repetitions, the table, the
//! values of ends). The nodes themselves: a player's in `pvs.rs`,
//! quiescence in `quiescence.rs`, the cats' in `cats.rs`, rolls in
//! `chance.rs`.

use super::correction::{CorrectionKeys, MAX_KEYS};
use super::history::{Context, History, MoveKey};
use super::node::{Horizon, NodeKind, NullMove, Root, Window};
use super::params::*;
use super::timeman::Stability;
use super::tt::{Bound, Entry, Table};
use super::{
    goal, perspective, uci_score, win_value, Score, SearchGame, SearchInfo, SearchResult, Shared, DRAW, INF,
    MATE_BOUND, MAX_PLY, MAX_STATIC,
};
use catchess_game::MoveList;
use catchess_game::{Goal, Seat};
use std::sync::atomic::Ordering;

/// How a position in `Worker::plies` was reached: a move without check, a
/// checking move, or a null move (a cycle through one is judged a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reached {
    Quiet,
    Check,
    Null,
}

impl Reached {
    /// By a move that gave check, or one that did not.
    #[inline(always)]
    pub(super) fn by_check(gave_check: bool) -> Reached {
        if gave_check {
            Reached::Check
        } else {
            Reached::Quiet
        }
    }
}

/// The stored static evaluation of a node that has none (in check, cats).
pub(super) const NO_EVAL: i32 = i16::MIN as i32;

pub(crate) struct Worker<'a, G: SearchGame> {
    pub(super) tt: &'a Table,
    pub(super) shared: &'a Shared<'a>,
    pub(super) history: &'a mut History<G::Move>,
    /// Keys of the game so far, then of the current search path; the last
    /// one is the node being searched.
    pub(super) keys: Vec<u64>,
    /// Per entry of `keys`: how the position was reached. Kept (and read)
    /// only in games whose perpetual checks lose; empty otherwise.
    pub(super) plies: Vec<Reached>,
    /// Index in `keys` of the root position.
    root_index: usize,
    /// The root moves to choose among (all when empty: `go searchmoves`).
    root_moves: &'a [G::Move],
    /// Root moves left out: the best moves of the lines already reported
    /// at this depth (`MultiPV`).
    excluded: Vec<G::Move>,
    /// Per ply: the hash move left out while a singular extension tests
    /// whether any other move comes near it (`None` otherwise).
    pub(super) singular: [Option<G::Move>; MAX_PLY + 2],
    /// The depth of the current iteration: extensions stop at twice it.
    pub(super) root_depth: i32,
    pub(super) pv: Vec<[G::Move; MAX_PLY + 1]>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
    pub(super) evals: [i32; MAX_PLY + 2],
    /// The seat to move at each ply of the current path.
    pub(super) movers: [Seat; MAX_PLY + 2],
    /// The move that led to each ply of the current path (`MoveKey::NONE`
    /// at the root and after a null move, a cats' pass or a roll's
    /// outcome): the continuation history's context.
    pub(super) moves: [MoveKey; MAX_PLY + 2],
    pub(super) nodes: u64,
    unreported: u64,
    pub(super) seldepth: usize,
    /// 0 for the main thread, which alone reports and watches the clock.
    id: usize,
    /// Set once this thread must unwind; its current iteration is void.
    pub(super) stopped: bool,
    /// `nodes` when the last root search began, and the nodes spent below
    /// its best move so far (time management's measure of a contest).
    pub(super) root_start_nodes: u64,
    pub(super) root_best_nodes: u64,
}

impl<'a, G: SearchGame> Worker<'a, G> {
    pub fn new(
        tt: &'a Table,
        shared: &'a Shared<'a>,
        history: &'a mut History<G::Move>,
        keys: Vec<u64>,
        checks: &[bool],
        root_moves: &'a [G::Move],
        id: usize,
    ) -> Self {
        let root_index = keys.len() - 1;
        let mut plies: Vec<Reached> = checks.iter().map(|&c| Reached::by_check(c)).collect();
        plies.reserve(MAX_PLY + 2);
        history.clear_killers();
        Worker {
            tt,
            shared,
            history,
            keys,
            plies,
            root_index,
            root_moves,
            excluded: Vec::new(),
            singular: [None; MAX_PLY + 2],
            root_depth: 0,
            pv: vec![[G::Move::default(); MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            evals: [0; MAX_PLY + 2],
            movers: [Seat::default(); MAX_PLY + 2],
            moves: [MoveKey::NONE; MAX_PLY + 2],
            nodes: 0,
            unreported: 0,
            seldepth: 0,
            id,
            stopped: false,
            root_start_nodes: 0,
            root_best_nodes: 0,
        }
    }

    /// Iterative deepening to `max_depth`, reporting the best `lines` root
    /// moves at each depth; stops early once a mate in at most `mate` moves
    /// is found. The result of the deepest iteration that finished.
    pub fn iterate(
        &mut self,
        root: &G,
        max_depth: i32,
        lines: usize,
        mate: Option<u32>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult<G::Move> {
        let mut result = SearchResult {
            best: None,
            score: uci_score(root, &[], 0),
            first_seat_cp: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
        let mut list = MoveList::default();
        root.legal_moves(&mut list);
        self.restrict_root(&mut list);
        if list.is_empty() {
            return result;
        }
        result.best = Some(list.as_slice()[0]);
        let lines = lines.clamp(1, list.len());
        let mut last = vec![0; lines];
        let mut stability = Stability::default();
        for depth in 1..=max_depth {
            if self.id == 0 && depth > 1 && !self.may_deepen(&stability, result.nodes) {
                break;
            }
            // Helpers spread over depths so they fill the table ahead.
            if self.id > 0 && depth > 1 && (depth + self.id as i32) % HELPER_SKIP_CYCLE == 0 && depth < max_depth {
                continue;
            }
            self.seldepth = 0;
            self.root_depth = depth;
            self.excluded.clear();
            let Iteration { mut found, best_share, interrupted } = self.search_lines(root, depth, &last);
            if interrupted && depth == 1 && found.is_empty() && self.pv_len[0] > 0 {
                // A first iteration cut short still beats the first legal
                // move: keep the best root move it found.
                result.best = Some(self.pv[0][0]);
            }
            // Best for the seat to move first (the cats' best is nearest 0);
            // stable: equal lines keep the order they were found in.
            found.sort_by_key(|(value, _)| std::cmp::Reverse(root_preference(root, *value)));
            self.flush_nodes();
            result.nodes = self.shared.nodes.load(Ordering::Relaxed);
            for (line, (value, pv)) in found.into_iter().enumerate() {
                last[line] = value;
                let score = uci_score(root, &pv, value);
                let first_seat_cp = value * perspective(root);
                if self.id == 0 {
                    on_info(&SearchInfo {
                        depth: depth as u32,
                        seldepth: self.seldepth.max(depth as usize) as u32,
                        nodes: result.nodes,
                        time: self.shared.control.elapsed(),
                        hashfull: self.tt.hashfull(),
                        score,
                        first_seat_cp,
                        pv: pv.iter().map(|m| m.to_string()).collect(),
                        multipv: line + 1,
                        tbhits: self.shared.tbhits.load(Ordering::Relaxed),
                    });
                }
                if line == 0 {
                    if let Some(&best) = pv.first() {
                        result.best = Some(best);
                        // The node share measured is the first search's best
                        // move's: it says nothing of another.
                        let share = best_share.filter(|_| self.excluded.first() == Some(&best));
                        stability.update(G::move_bits(best), share);
                    }
                    result.score = score;
                    result.first_seat_cp = first_seat_cp;
                    result.depth = depth as u32;
                    result.pv = pv;
                }
            }
            if interrupted {
                break;
            }
            if self.shared.stopped() {
                break;
            }
            if let (Some(n), Score::Mate(k)) = (mate, result.score) {
                if k > 0 && k as u32 <= n {
                    break;
                }
            }
        }
        self.flush_nodes();
        result.nodes = self.shared.nodes.load(Ordering::Relaxed);
        result
    }

    /// Whether the main thread, `nodes` into the search, may start another
    /// iteration: time left for it (as the best move's stability scales
    /// it) and the soft node limit not reached.
    fn may_deepen(&self, stability: &Stability, nodes: u64) -> bool {
        self.shared.time.may_start_iteration(self.shared.control, stability.scale())
            && self.shared.soft_node_limit.is_none_or(|n| nodes < n)
    }

    /// The root searched to `depth` once per line (`MultiPV`), each line
    /// aspirated around its value at the depth before (`last`) and leaving
    /// out the best moves of the lines before it.
    fn search_lines(&mut self, root: &G, depth: i32, last: &[i32]) -> Iteration<G::Move> {
        // A later line can still come out better (the searches differ), so
        // the caller reports them once all are found, best first.
        let mut found: Vec<(i32, Vec<G::Move>)> = Vec::with_capacity(last.len());
        let mut best_share = None;
        for &last in last {
            let value = self.aspiration(root, depth, last);
            if self.stopped {
                return Iteration { found, best_share, interrupted: true };
            }
            if found.is_empty() {
                // A cats' root does not count its moves' nodes.
                let spent = self.nodes - self.root_start_nodes;
                best_share =
                    (self.root_best_nodes > 0 && spent > 0).then(|| self.root_best_nodes as f64 / spent as f64);
            }
            let pv: Vec<G::Move> = self.pv[0][..self.pv_len[0]].to_vec();
            let first = pv.first().copied();
            found.push((value, pv));
            match first {
                Some(m) => self.excluded.push(m),
                None => break,
            }
        }
        Iteration { found, best_share, interrupted: false }
    }

    /// Keeps the root moves this search may choose among.
    pub(super) fn restrict_root(&self, list: &mut MoveList<G::Move>) {
        let (allowed, excluded) = (self.root_moves, &self.excluded);
        list.retain(|m| (allowed.is_empty() || allowed.contains(m)) && !excluded.contains(m));
    }

    fn aspiration(&mut self, root: &G, depth: i32, last: i32) -> i32 {
        if depth < aspiration_min_depth() || last.abs() >= MATE_BOUND {
            return self.search(root, depth, Window::FULL, 0, Root, NullMove::Refused);
        }
        let mut delta = aspiration_window();
        let (mut alpha, mut beta) = (last - delta, last + delta);
        loop {
            let v = self.search(root, depth, Window::new(alpha, beta), 0, Root, NullMove::Refused);
            if self.stopped {
                return v;
            }
            if v <= alpha {
                alpha = (v - delta).max(-INF);
            } else if v >= beta {
                beta = (v + delta).min(INF);
            } else {
                return v;
            }
            delta *= 2;
            if delta > aspiration_max_delta() {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.unreported, Ordering::Relaxed);
        self.unreported = 0;
    }

    /// Counts a node and, every few hundred, checks whether to stop.
    #[inline]
    pub(super) fn count_node(&mut self) {
        self.nodes += 1;
        self.unreported += 1;
        if self.unreported >= CHECK_EVERY {
            self.flush_nodes();
            // Every thread looks, not only the main one: with more threads
            // than cores the main thread may wait long for its turn.
            let shared = self.shared;
            let over_nodes = shared.node_limit.is_some_and(|n| shared.nodes.load(Ordering::Relaxed) >= n);
            if shared.control.is_stopped() || over_nodes || shared.time.out_of_time(shared.control) {
                shared.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Whether to unwind now.
    #[inline]
    pub(super) fn should_stop(&mut self) -> bool {
        if !self.stopped && self.shared.stopped() {
            self.stopped = true;
        }
        self.stopped
    }

    /// The continuation history's key of `m`, a move of `pos`.
    #[inline]
    pub(super) fn move_key(&self, pos: &G, m: G::Move) -> MoveKey {
        self.history.key(pos.to_move().index(), pos.moved_kind(m), G::move_squares(m).1)
    }

    /// Records that the path goes on from `ply` by the move of `key`.
    #[inline]
    pub(super) fn enter(&mut self, ply: usize, key: MoveKey) {
        self.moves[ply + 1] = key;
    }

    /// The two moves before the node at `ply`.
    #[inline]
    pub(super) fn context(&self, ply: usize) -> Context {
        [self.moves[ply], if ply > 0 { self.moves[ply - 1] } else { MoveKey::NONE }]
    }

    /// The value of `child`, searched `depth` plies as a node of `kind`,
    /// from the perspective of its parent's side to move (`parent_sign`,
    /// the parent's `perspective`), `window` being of that perspective too.
    #[inline]
    pub(super) fn child_value<K: NodeKind>(
        &mut self,
        parent_sign: i32,
        child: &G,
        depth: i32,
        window: Window,
        ply: usize,
        kind: K,
    ) -> i32 {
        let key = child.key();
        self.tt.prefetch(key);
        self.push_position(key, Reached::by_check(G::PERPETUAL_CHECK_LOSES && child.in_check()));
        let v = if parent_sign == perspective(child) {
            self.search(child, depth, window, ply, kind, NullMove::Allowed)
        } else {
            -self.search(child, depth, window.negated(), ply, kind, NullMove::Allowed)
        };
        self.pop_position();
        v
    }

    /// As `child_value`, in quiescence search (`qply` plies into it).
    #[inline]
    pub(super) fn child_qvalue(&mut self, parent_sign: i32, child: &G, window: Window, ply: usize, qply: usize) -> i32 {
        self.tt.prefetch(child.key());
        if parent_sign == perspective(child) {
            self.qsearch(child, window, ply, qply)
        } else {
            -self.qsearch(child, window.negated(), ply, qply)
        }
    }

    /// As `child_value`, one ply further along `horizon` (a depth or
    /// quiescence): the children of the cats and of rolls.
    #[inline]
    pub(super) fn child_at_horizon<K: NodeKind>(
        &mut self,
        parent_sign: i32,
        child: &G,
        horizon: Horizon,
        window: Window,
        ply: usize,
        kind: K,
    ) -> i32 {
        match horizon {
            Horizon::Plies(d) => self.child_value(parent_sign, child, d - 1, window, ply, kind),
            Horizon::Quiescence(q) => self.child_qvalue(parent_sign, child, window, ply, q + 1),
        }
    }

    /// Puts the position of `key`, reached as `how` says, at the end of the
    /// path (the repetition check's `keys`, and `plies` where kept).
    #[inline(always)]
    pub(super) fn push_position(&mut self, key: u64, how: Reached) {
        self.keys.push(key);
        if G::PERPETUAL_CHECK_LOSES {
            self.plies.push(how);
        }
    }

    /// Takes the last position off the path.
    #[inline(always)]
    pub(super) fn pop_position(&mut self) {
        self.keys.pop();
        if G::PERPETUAL_CHECK_LOSES {
            self.plies.pop();
        }
    }

    /// If the node (the last key) repeats a position, once within the
    /// search or twice in the game before it: its value from the side to
    /// move's perspective (see `cycle_value`).
    pub(super) fn repetition_value(&self, pos: &G, ply: usize) -> Option<i32> {
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let back = pos.reversible_plies().min(n - 1);
        let mut before_root = 0;
        for i in (n - 1 - back..n - 1).rev() {
            if self.keys[i] == key {
                if i >= self.root_index {
                    return Some(self.cycle_value(pos, i, ply));
                }
                before_root += 1;
                if before_root >= 2 {
                    return Some(self.cycle_value(pos, i, ply));
                }
            }
        }
        None
    }

    /// The value of a repetition whose cycle runs from `keys[first]` to the
    /// node: a draw, unless the game's perpetual checks lose and every move
    /// of exactly one side in the cycle gave check (that side loses, as
    /// though mated here). Without that rule this is always `DRAW`.
    fn cycle_value(&self, pos: &G, first: usize, ply: usize) -> i32 {
        if !G::PERPETUAL_CHECK_LOSES {
            return DRAW;
        }
        let n = self.keys.len();
        // The move into position j was made by the side that just moved
        // (the node's opponent) when n - 1 - j is even.
        let (mut last_mover_checks, mut to_move_checks) = (true, true);
        for j in first + 1..n {
            let how = self.plies[j];
            if how == Reached::Null {
                return DRAW;
            }
            if (n - 1 - j).is_multiple_of(2) {
                last_mover_checks &= how == Reached::Check;
            } else {
                to_move_checks &= how == Reached::Check;
            }
        }
        // Two seats: the one that just moved is the other one.
        let to_move = pos.to_move();
        let winner = match (last_mover_checks, to_move_checks) {
            (true, false) => to_move,
            (false, true) => Seat::new(1 - to_move.index()),
            _ => return DRAW,
        };
        Self::outcome_value(pos, Some(winner), ply)
    }

    /// The value of a game won by `winner` (a draw: `None`) from the
    /// perspective of `pos`'s seat to move, `ply` plies from the root
    /// (sooner wins count more).
    pub(super) fn outcome_value(pos: &G, winner: Option<Seat>, ply: usize) -> i32 {
        win_value::<G>(winner, ply) * perspective(pos)
    }

    /// The evaluation from the mover's seat, kept below the mate scores:
    /// a network file may be valid yet value a position beyond any mate
    /// (or beyond what the table's 16 bits hold), and a static value must
    /// never pass for a mate the search has not found.
    pub(super) fn static_value(pos: &G) -> i32 {
        (pos.evaluate() * perspective(pos)).clamp(-MAX_STATIC, MAX_STATIC)
    }

    /// The evaluation's static value of `pos` (its seat's view): the one
    /// the table keeps, else computed.
    #[inline(always)]
    pub(super) fn raw_eval(pos: &G, entry: Option<Entry>) -> i32 {
        match entry {
            Some(e) if e.eval as i32 != NO_EVAL => e.eval as i32,
            _ => Self::static_value(pos),
        }
    }

    /// The better guess of what a node is worth than its corrected static
    /// value: a stored value bounded on the far side of it.
    #[inline(always)]
    pub(super) fn better_guess(entry: Option<Entry>, corrected: i32, ply: usize) -> i32 {
        let Some(e) = entry else { return corrected };
        let stored = from_tt(e.value as i32, ply);
        if stored.abs() < MATE_BOUND && e.bound.tells_side(stored, corrected) {
            stored
        } else {
            corrected
        }
    }

    /// The correction keys of `pos`, if the game has any.
    #[inline(always)]
    pub(super) fn correction_keys(pos: &G) -> CorrectionKeys {
        if G::CORRECTION_KEYS > 0 {
            pos.correction_keys()
        } else {
            [0; MAX_KEYS]
        }
    }

    /// The static value `raw` of `pos` at `ply` (its seat's view) corrected
    /// by what the correction history learnt of positions like it.
    #[inline(always)]
    pub(super) fn corrected(&self, pos: &G, raw: i32, keys: &CorrectionKeys, ply: usize) -> i32 {
        if G::CORRECTION_KEYS == 0 {
            return raw;
        }
        let correction = self.history.correction.value(pos.to_move().index(), keys, self.moves[ply]);
        (raw + correction).clamp(-MAX_STATIC, MAX_STATIC)
    }

    pub(super) fn update_pv(&mut self, ply: usize, m: G::Move) {
        let child_len = if ply < MAX_PLY { self.pv_len[ply + 1] } else { 0 };
        self.pv[ply][0] = m;
        for i in 0..child_len {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }

    pub(super) fn tt_move(list: &MoveList<G::Move>, entry: Option<Entry>) -> Option<G::Move> {
        let bits = entry?.mv;
        if bits == 0 {
            return None;
        }
        list.iter().copied().find(|&m| G::move_bits(m) == bits)
    }

    /// Keeps what the search of the node `key`, `ply` plies from the
    /// root, found.
    #[inline]
    pub(super) fn store(&self, key: u64, ply: usize, found: Found<G::Move>) {
        let Found { depth, value, bound, eval, mv } = found;
        self.tt.store(
            key,
            Entry {
                mv: mv.map_or(0, G::move_bits),
                value: to_tt(value, ply) as i16,
                eval: eval.clamp(NO_EVAL, MAX_STATIC) as i16,
                depth: depth.clamp(-1, 127) as i8,
                bound,
            },
        );
    }
}

/// What one iteration's root searches found (`Worker::search_lines`).
struct Iteration<M> {
    /// Each line's value and principal variation, in the order found.
    found: Vec<(i32, Vec<M>)>,
    /// The share of the first line's nodes spent below its best move (time
    /// management's measure of a contest).
    best_share: Option<f64>,
    /// Whether the search stopped before every line was found: the
    /// iteration is void past the lines it holds.
    interrupted: bool,
}

/// What the search of a node found, as the table keeps it. Its fields are
/// named where it is made: `value` and `eval`, both plain `i32`, would
/// swap unseen as arguments.
pub(super) struct Found<M> {
    /// The depth searched (0 in quiescence).
    pub depth: i32,
    /// The value found, and what it is: exact, or a bound.
    pub value: i32,
    pub bound: Bound,
    /// The node's static value (`NO_EVAL` for none).
    pub eval: i32,
    /// The best move, if one beat the window's lower edge.
    pub mv: Option<M>,
}

/// The stored value if its bound settles `window`.
pub(super) fn cutoff(e: Entry, ply: usize, window: Window) -> Option<i32> {
    let v = from_tt(e.value as i32, ply);
    let settles = match e.bound {
        Bound::Exact => true,
        Bound::Lower => v >= window.beta,
        Bound::Upper => v <= window.alpha,
    };
    settles.then_some(v)
}

/// Mate scores are stored relative to the node, not the root.
fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

pub(super) fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

/// How much the seat to move at `root` likes a root value (higher is
/// better): the value itself, which is its own view, or for a near-zero
/// seat such as the cats, how near 0 it is.
fn root_preference<G: SearchGame>(root: &G, value: i32) -> i32 {
    if goal(root) == Goal::NearZero {
        -value.abs()
    } else {
        value
    }
}
