//! One search thread: iterative deepening with aspiration windows, PVS for
//! white and black nodes, quiescence search. Cat nodes are in `cats.rs`.

use super::chance::Reach;
use super::correction::{CorrectionKeys, MAX_KEYS};
use super::history::{bonus, Context, History, MoveKey};
use super::movepick::MovePicker;
use super::params::*;
use super::timeman::Stability;
use super::tt::{Bound, Entry, Table};
use super::{
    goal, perspective, uci_score, win_value, Score, SearchGame, SearchInfo, SearchResult, Shared, DRAW, INF, MATE,
    MATE_BOUND, MAX_PLY, MAX_STATIC,
};
use crate::game::MoveList;
use crate::game::{Goal, Seat};
use std::sync::atomic::Ordering;

/// How a position in `Worker::plies` was reached: a move without check, a
/// checking move, or a null move (a cycle through one is judged a draw).
pub(super) const PLY_QUIET: u8 = 0;
pub(super) const PLY_CHECK: u8 = 1;
pub(super) const PLY_NULL: u8 = 2;

/// The stored static evaluation of a node that has none (in check, cats).
pub(super) const NO_EVAL: i32 = i16::MIN as i32;

pub(crate) struct Worker<'a, G: SearchGame> {
    pub(super) tt: &'a Table,
    shared: &'a Shared<'a>,
    pub(super) history: &'a mut History<G::Move>,
    /// Keys of the game so far, then of the current search path; the last
    /// one is the node being searched.
    pub(super) keys: Vec<u64>,
    /// Per entry of `keys`: how the position was reached (`PLY_*`). Kept
    /// (and read) only in games whose perpetual checks lose; empty otherwise.
    pub(super) plies: Vec<u8>,
    /// Index in `keys` of the root position.
    root_index: usize,
    /// The root moves to choose among (all when empty: `go searchmoves`).
    root_moves: &'a [G::Move],
    /// Root moves left out: the best moves of the lines already reported
    /// at this depth (`MultiPV`).
    excluded: Vec<G::Move>,
    /// Per ply: the hash move left out while a singular extension tests
    /// whether any other move comes near it (`None` otherwise).
    singular: [Option<G::Move>; MAX_PLY + 2],
    /// The depth of the current iteration: extensions stop at twice it.
    root_depth: i32,
    pub(super) pv: Vec<[G::Move; MAX_PLY + 1]>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
    evals: [i32; MAX_PLY + 2],
    /// The seat to move at each ply of the current path.
    movers: [Seat; MAX_PLY + 2],
    /// The move that led to each ply of the current path (`MoveKey::NONE`
    /// at the root and after a null move, a cats' pass or a roll's
    /// outcome): the continuation history's context.
    moves: [MoveKey; MAX_PLY + 2],
    pub(super) nodes: u64,
    unreported: u64,
    pub(super) seldepth: usize,
    /// 0 for the main thread, which alone reports and watches the clock.
    id: usize,
    /// Set once this thread must unwind; its current iteration is void.
    pub(super) stopped: bool,
    /// `nodes` when the last root search began, and the nodes spent below
    /// its best move so far (time management's measure of a contest).
    root_start_nodes: u64,
    root_best_nodes: u64,
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
        let mut plies: Vec<u8> = checks.iter().map(|&c| if c { PLY_CHECK } else { PLY_QUIET }).collect();
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
            white_view: 0,
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
            if self.id == 0
                && depth > 1
                && (!self.shared.time.may_start_iteration(self.shared.control, stability.scale())
                    || self.shared.soft_node_limit.is_some_and(|n| result.nodes >= n))
            {
                break;
            }
            // Helpers spread over depths so they fill the table ahead.
            if self.id > 0 && depth > 1 && (depth + self.id as i32) % HELPER_SKIP_CYCLE == 0 && depth < max_depth {
                continue;
            }
            self.seldepth = 0;
            self.root_depth = depth;
            self.excluded.clear();
            // Each line's root search excludes the lines before it; a later
            // one can still come out better (the searches differ), so the
            // lines are reported once all are found, best first.
            let mut found: Vec<(i32, Vec<G::Move>)> = Vec::with_capacity(lines);
            let mut best_share = None;
            let mut interrupted = false;
            for &last in &last {
                let value = self.aspiration(root, depth, last);
                if self.stopped {
                    // A first iteration cut short still beats the first legal
                    // move: keep the best root move it found.
                    if depth == 1 && found.is_empty() && self.pv_len[0] > 0 {
                        result.best = Some(self.pv[0][0]);
                    }
                    interrupted = true;
                    break;
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
            // Best for the seat to move first (the cats' best is nearest 0);
            // stable: equal lines keep the order they were found in.
            found.sort_by_key(|(value, _)| std::cmp::Reverse(root_preference(root, *value)));
            self.flush_nodes();
            result.nodes = self.shared.nodes.load(Ordering::Relaxed);
            for (line, (value, pv)) in found.into_iter().enumerate() {
                last[line] = value;
                let score = uci_score(root, &pv, value);
                let white_view = value * perspective(root);
                if self.id == 0 {
                    on_info(&SearchInfo {
                        depth: depth as u32,
                        seldepth: self.seldepth.max(depth as usize) as u32,
                        nodes: result.nodes,
                        time: self.shared.control.elapsed(),
                        hashfull: self.tt.hashfull(),
                        score,
                        white_view,
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
                    result.white_view = white_view;
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

    /// Keeps the root moves this search may choose among.
    fn restrict_root(&self, list: &mut MoveList<G::Move>) {
        let (allowed, excluded) = (self.root_moves, &self.excluded);
        list.retain(|m| (allowed.is_empty() || allowed.contains(m)) && !excluded.contains(m));
    }

    fn aspiration(&mut self, root: &G, depth: i32, last: i32) -> i32 {
        if depth < ASPIRATION_MIN_DEPTH || last.abs() >= MATE_BOUND {
            return self.search(root, depth, -INF, INF, 0, true, false, false);
        }
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = (last - delta, last + delta);
        loop {
            let v = self.search(root, depth, alpha, beta, 0, true, false, false);
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
            if delta > ASPIRATION_MAX_DELTA {
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

    /// The value of `child` from the perspective of `parent`'s side to move;
    /// `pv` if the child is on the principal variation (its window may be
    /// wide without that: a cat node's children get symmetric windows).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn child_value(
        &mut self,
        parent_sign: i32,
        child: &G,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv: bool,
    ) -> i32 {
        self.child_search(parent_sign, child, depth, alpha, beta, ply, pv, false)
    }

    /// As `child_value`; `cut` if the child is an expected cut node (see
    /// `search`).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn child_search(
        &mut self,
        parent_sign: i32,
        child: &G,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv: bool,
        cut: bool,
    ) -> i32 {
        let key = child.key();
        self.tt.prefetch(key);
        self.keys.push(key);
        if G::PERPETUAL_CHECK_LOSES {
            self.plies.push(if child.in_check() { PLY_CHECK } else { PLY_QUIET });
        }
        let v = if parent_sign == perspective(child) {
            self.search(child, depth, alpha, beta, ply, pv, true, cut)
        } else {
            -self.search(child, depth, -beta, -alpha, ply, pv, true, cut)
        };
        self.keys.pop();
        if G::PERPETUAL_CHECK_LOSES {
            self.plies.pop();
        }
        v
    }

    /// As `child_value`, in quiescence search (`qply` plies into it).
    #[inline]
    pub(super) fn child_qvalue(
        &mut self,
        parent_sign: i32,
        child: &G,
        alpha: i32,
        beta: i32,
        ply: usize,
        qply: usize,
    ) -> i32 {
        self.tt.prefetch(child.key());
        if parent_sign == perspective(child) {
            self.qsearch(child, alpha, beta, ply, qply)
        } else {
            -self.qsearch(child, -beta, -alpha, ply, qply)
        }
    }

    /// If the node (the last key) repeats a position, once within the
    /// search or twice in the game before it: its value from the side to
    /// move's perspective (see `cycle_value`).
    fn repetition_value(&self, pos: &G, ply: usize) -> Option<i32> {
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
            if how == PLY_NULL {
                return DRAW;
            }
            if (n - 1 - j).is_multiple_of(2) {
                last_mover_checks &= how == PLY_CHECK;
            } else {
                to_move_checks &= how == PLY_CHECK;
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

    /// The correction keys of `pos`, if the game has any.
    #[inline(always)]
    fn correction_keys(pos: &G) -> CorrectionKeys {
        if G::CORRECTION_KEYS > 0 {
            pos.correction_keys()
        } else {
            [0; MAX_KEYS]
        }
    }

    /// The static value `raw` of `pos` at `ply` (its seat's view) corrected
    /// by what the correction history learnt of positions like it.
    #[inline(always)]
    fn corrected(&self, pos: &G, raw: i32, keys: &CorrectionKeys, ply: usize) -> i32 {
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

    // Every argument is one field of the entry; a struct would only rename them.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &self,
        key: u64,
        depth: i32,
        value: i32,
        eval: i32,
        bound: Bound,
        mv: Option<G::Move>,
        ply: usize,
    ) {
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

    /// Alpha-beta search of `pos` (whose key is the last in `keys`) to
    /// `depth` plies; the value from the perspective of its side to move.
    /// `cut_node`: a null-window node expected to fail high (the child of a
    /// reduced search, or of a full-depth search at an expected all node),
    /// where late moves are reduced more.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search(
        &mut self,
        pos: &G,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        null_ok: bool,
        cut_node: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if self.should_stop() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return Self::static_value(pos);
        }
        let root = ply == 0;
        if root {
            self.root_start_nodes = self.nodes;
            self.root_best_nodes = 0;
        }
        let turn = pos.to_move();
        self.movers[ply] = turn;
        if !root {
            if let Some(v) = self.repetition_value(pos, ply) {
                return v;
            }
            if let Some(o) = pos.position_outcome(false) {
                return Self::outcome_value(pos, o.winner, ply);
            }
            if let Some((winner, plies)) = pos.table_result() {
                self.shared.tbhits.fetch_add(1, Ordering::Relaxed);
                let to_end = (ply + plies as usize).min((MATE - MATE_BOUND) as usize - 1);
                return Self::outcome_value(pos, winner, to_end);
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let cats = goal(pos) == Goal::NearZero;
        let in_check = !cats && pos.in_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        self.count_node();
        self.seldepth = self.seldepth.max(ply + 1);
        let key = pos.key();
        // A singular test searches this node without its hash move: the
        // table's entry (whose value and move include it) neither cuts
        // nor orders; its static value still serves.
        let left_out = self.singular[ply];
        let entry = self.tt.probe(key);
        let eval_entry = entry;
        let entry = entry.filter(|_| left_out.is_none());
        if let Some(v) = entry.filter(|e| !pv_node && e.depth as i32 >= depth).and_then(|e| cutoff(e, ply, alpha, beta))
        {
            return v;
        }
        let mut list = MoveList::default();
        // Rolls, the cats and the root need their moves at once; a player's
        // node generates them only after the pruning below, which most
        // often ends the node without a move (and so judges a position
        // without moves by its static value, as engines do: a mate is
        // never missed, since a side in check is not pruned).
        let moves_first = root || cats || pos.is_chance();
        if moves_first {
            pos.legal_moves(&mut list);
            if list.is_empty() {
                return Self::outcome_value(pos, pos.position_outcome(true).and_then(|o| o.winner), ply);
            }
            if root {
                self.restrict_root(&mut list);
            }
            if pos.is_chance() {
                return self.chance_node(pos, &list, Reach::Plies(depth), alpha, beta, ply);
            }
            if cats {
                let hash_move = Self::tt_move(&list, entry);
                return self.cat_node(pos, &mut list, hash_move, depth, alpha, beta, ply, pv_node);
            }
        }
        // No hash move: this node was never searched, or failed low;
        // spend less on it (internal iterative reduction). A singular
        // test's node has one, only left out.
        if left_out.is_none() && entry.is_none_or(|e| e.mv == 0) && depth >= IIR_MIN_DEPTH {
            depth -= 1;
        }

        // The evaluation's own static value (what the table keeps), and
        // the same corrected by the errors learnt of positions like this
        // one (what the node goes by).
        let raw_eval = if in_check {
            NO_EVAL
        } else {
            match eval_entry {
                Some(e) if e.eval as i32 != NO_EVAL => e.eval as i32,
                _ => Self::static_value(pos),
            }
        };
        let correction_keys = if in_check { [0; MAX_KEYS] } else { Self::correction_keys(pos) };
        let eval = if in_check { -INF } else { self.corrected(pos, raw_eval, &correction_keys, ply) };
        let corrected_eval = eval;
        // The seat's previous turn on the path, and the static value kept
        // there (which, if that node was in check, is the one kept before it).
        let previous_turn = (0..ply).rev().find(|&p| self.movers[p] == turn);
        let earlier = previous_turn.map(|p| self.evals[p]);
        // In check there is no static value: the earlier one stands in for
        // it, or none (`INF`, which nothing is better than).
        self.evals[ply] = if in_check { earlier.unwrap_or(INF) } else { eval };
        // A stored value bounded on the far side of the static value is the
        // better guess of what the node is worth: pruning and "improving"
        // go by it (against the static values kept for earlier plies, which
        // is also what the table keeps).
        let eval = match entry {
            Some(e) if !in_check => {
                let stored = from_tt(e.value as i32, ply);
                if stored.abs() < MATE_BOUND && e.bound.tells_side(stored, eval) {
                    stored
                } else {
                    eval
                }
            }
            _ => eval,
        };
        // Better than at this seat's previous turn on the path.
        let improving = !in_check && earlier.is_some_and(|e| eval > e);

        // Mid-turn, after the turn's main move, the static value is no
        // judge (see `SearchGame::static_value_holds`): nothing is pruned
        // by it.
        let holds = pos.static_value_holds();
        if !pv_node && !in_check && holds && beta.abs() < MATE_BOUND && left_out.is_none() {
            if depth <= RFP_MAX_DEPTH && eval - RFP_MARGIN * depth >= beta {
                return eval;
            }
            if null_ok && depth >= NMP_MIN_DEPTH && eval >= beta && pos.has_non_pawn_material() {
                let r = NMP_BASE + depth / NMP_DIVISOR + ((eval - beta) / NMP_EVAL_DIVISOR).min(NMP_EVAL_MAX);
                let child = pos.null_move();
                self.enter(ply, MoveKey::NONE);
                self.keys.push(child.key());
                if G::PERPETUAL_CHECK_LOSES {
                    self.plies.push(PLY_NULL);
                }
                let v = if perspective(pos) == perspective(&child) {
                    self.search(&child, depth - 1 - r, beta - 1, beta, ply + 1, false, false, !cut_node)
                } else {
                    -self.search(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, false, false, !cut_node)
                };
                self.keys.pop();
                if G::PERPETUAL_CHECK_LOSES {
                    self.plies.pop();
                }
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }

        if !moves_first {
            pos.legal_moves(&mut list);
            if list.is_empty() {
                return Self::outcome_value(pos, pos.position_outcome(true).and_then(|o| o.winner), ply);
            }
        }
        let hash_move = Self::tt_move(&list, entry);
        let side = turn.index();
        let sign = perspective(pos);
        let context = self.context(ply);
        let tt_capture = hash_move.is_some_and(|m| pos.tactical_value(m).is_some());
        let mut picker = MovePicker::new(pos, &mut list, hash_move, self.history, ply, context);
        let (alpha_orig, mut best, mut best_move) = (alpha, -INF, None);
        let mut quiets: [(G::Move, MoveKey); 64] = [(G::Move::default(), MoveKey::NONE); 64];
        let mut quiet_count = 0;
        let mut tacticals = [MoveKey::NONE; 32];
        let mut tactical_count = 0;
        let mut searched = 0usize;
        let mut roll_left_out = false;
        while let Some((m, tactical, score)) = picker.pick(pos, self.history) {
            if left_out == Some(m) {
                continue;
            }
            let key = self.move_key(pos, m);
            // A quiet move's full history (butterfly and continuation).
            // Read only when a test needs it, and then once.
            let mut learnt_read = None;
            let mut learnt = |history: &History<G::Move>| {
                *learnt_read.get_or_insert_with(|| history.quiet_score(side, G::move_squares(m), key, context))
            };
            if !root && !in_check && best > -MATE_BOUND {
                if !tactical {
                    // Move-count pruning does not trust the static value;
                    // futility does.
                    let late = depth <= LMP_MAX_DEPTH && searched >= lmp_limit(depth, improving);
                    let futility_value = eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * depth;
                    let futile = holds && depth <= FUTILITY_MAX_DEPTH && futility_value <= alpha;
                    // The quiet moves futility prunes are taken to be worth
                    // its value (at most alpha): a fail low says no less,
                    // so the correction history does not learn from it that
                    // the static value was too high (which would prune more).
                    if futile && futility_value.abs() < MATE_BOUND {
                        best = best.max(futility_value);
                    }
                    // Both only grow truer as moves are searched (`searched`
                    // and alpha only rise), so every later quiet move falls
                    // to them too: the picker drops them.
                    if late || futile {
                        picker.skip_quiets(|q| pos.keep_quiet(q));
                    }
                    let unpromising = depth <= HISTORY_PRUNE_MAX_DEPTH
                        && MovePicker::<G>::is_history_score(score)
                        && learnt(self.history) < -HISTORY_PRUNE_MARGIN * depth;
                    let lmr_depth = (depth - 1 - lmr(depth, searched)).max(0);
                    let loses = || {
                        lmr_depth <= QUIET_SEE_MAX_DEPTH && !pos.see_ge(m, -QUIET_SEE_MARGIN * lmr_depth * lmr_depth)
                    };
                    if (late || futile || unpromising || loses()) && !pos.keep_quiet(m) {
                        continue;
                    }
                } else if depth <= SEE_PRUNE_MAX_DEPTH
                    && MovePicker::<G>::is_bad_tactical(score)
                    && !pos.see_ge(m, SEE_PRUNE_PER_DEPTH * depth)
                {
                    continue;
                }
            }
            let child = pos.play(m);
            if ply >= CHANCE_MAX_PLY && child.is_chance() {
                roll_left_out = true;
                continue;
            }
            let extension = if Some(m) == hash_move && left_out.is_none() {
                match self.singular_test(pos, m, entry, depth, beta, ply, cut_node) {
                    Singular::Cut(v) => return v,
                    Singular::Extend(e) => e,
                }
            } else {
                0
            };
            self.enter(ply, key);
            let new_depth = depth - 1 + extension;
            let nodes_before = self.nodes;
            let v = if searched == 0 {
                self.child_search(sign, &child, new_depth, alpha, beta, ply + 1, pv_node, !pv_node && !cut_node)
            } else {
                let mut r = 0;
                if depth >= LMR_MIN_DEPTH && searched >= LMR_MIN_MOVES + pv_node as usize && !in_check {
                    if !tactical {
                        r = lmr(depth, searched);
                        if pv_node {
                            r -= 1;
                        }
                        if !improving {
                            r += 1;
                        }
                        if cut_node {
                            r += LMR_CUT_NODE;
                        }
                        if tt_capture {
                            r += LMR_TT_CAPTURE;
                        }
                        r -= learnt(self.history) / LMR_HISTORY_DIVISOR;
                    } else if MovePicker::<G>::is_bad_tactical(score) {
                        r = lmr(depth, searched) / LMR_BAD_CAPTURE_DIVISOR
                            - self.history.capture_score(key) / LMR_CAPTURE_HISTORY_DIVISOR;
                        if cut_node {
                            r += LMR_CUT_NODE;
                        }
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let mut v = self.child_search(sign, &child, new_depth - r, alpha, alpha + 1, ply + 1, false, true);
                if v > alpha && r > 0 {
                    v = self.child_search(sign, &child, new_depth, alpha, alpha + 1, ply + 1, false, !cut_node);
                }
                if v > alpha && v < beta {
                    v = self.child_search(sign, &child, new_depth, alpha, beta, ply + 1, pv_node, false);
                }
                v
            };
            if self.stopped {
                return 0;
            }
            searched += 1;
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(m);
                    alpha = v;
                    self.update_pv(ply, m);
                    if root {
                        self.root_best_nodes = self.nodes - nodes_before;
                    }
                    if v >= beta {
                        let b = bonus(depth);
                        if !tactical {
                            self.history.add_killer(ply, m);
                            self.history.reward(side, G::move_squares(m), key, context, b);
                            for &(q, q_key) in &quiets[..quiet_count] {
                                self.history.reward(side, G::move_squares(q), q_key, context, -b);
                            }
                        } else {
                            self.history.reward_capture(key, b);
                        }
                        // The captures tried before, whatever cut off, did not.
                        for &t_key in &tacticals[..tactical_count] {
                            self.history.reward_capture(t_key, -b);
                        }
                        break;
                    }
                }
            }
            if !tactical && quiet_count < quiets.len() {
                quiets[quiet_count] = (m, key);
                quiet_count += 1;
            } else if tactical && tactical_count < tacticals.len() {
                tacticals[tactical_count] = key;
                tactical_count += 1;
            }
        }
        if searched == 0 {
            // A roll too deep to search that was the only way on (a
            // player who must teleport): the static value stands for it.
            if roll_left_out {
                return Self::static_value(pos);
            }
            // Every move was pruned as hopeless (never at the root or in
            // check, where nothing is pruned): a fail low, not stored.
            return alpha_orig;
        }
        // A search without the hash move (a singular test) says nothing of
        // the position: neither the table nor the correction history
        // learns from it.
        if left_out.is_none() {
            let bound = Bound::of(best, alpha_orig, beta);
            // The correction history learns how wrong the static value was,
            // when the value found lies on a side of the corrected value that
            // its bound can tell (a bound that agrees with the correction tells
            // nothing against it) and no capture decided it (a capture's gain
            // is no misjudgement). Not at the root, whose best may be of some
            // moves only (`MultiPV`, `searchmoves`).
            if G::CORRECTION_KEYS > 0
                && !root
                && !in_check
                && holds
                && best.abs() < MATE_BOUND
                && best_move.is_none_or(|m| pos.tactical_value(m).is_none())
                && bound.tells_side(best, corrected_eval)
            {
                let before = self.moves[ply];
                self.history.correction.learn(side, &correction_keys, before, best - raw_eval, depth);
            }
            self.store(key, depth, best, raw_eval, bound, best_move, ply);
        }
        best
    }

    /// Whether the hash move `m` of `pos` stands alone (see `SE_MIN_DEPTH`):
    /// searches the node without it, half as deep, just below its stored
    /// value less a margin. The move's extension, or a value to cut the
    /// node with.
    #[allow(clippy::too_many_arguments)]
    fn singular_test(
        &mut self,
        pos: &G,
        m: G::Move,
        entry: Option<Entry>,
        depth: i32,
        beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> Singular {
        let Some(e) = entry else { return Singular::Extend(0) };
        let stored = from_tt(e.value as i32, ply);
        if ply == 0
            || depth < SE_MIN_DEPTH
            || e.bound == Bound::Upper
            || (e.depth as i32) < depth - SE_TT_DEPTH_MARGIN
            || stored.abs() >= MATE_BOUND
            || ply as i32 >= 2 * self.root_depth
        {
            return Singular::Extend(0);
        }
        let bar = stored - SE_MARGIN * depth;
        self.singular[ply] = Some(m);
        let v = self.search(pos, (depth - 1) / 2, bar - 1, bar, ply, false, false, cut_node);
        self.singular[ply] = None;
        // The test's own line is not this node's.
        self.pv_len[ply] = 0;
        if self.stopped {
            return Singular::Extend(0);
        }
        if v < bar {
            Singular::Extend(1)
        } else if bar >= beta {
            Singular::Cut(bar)
        } else if stored >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    /// Quiescence search: captures and promotions until the position is
    /// quiet (at the cats' turn, see `cat_qnode`); `qply` plies into it.
    pub(super) fn qsearch(&mut self, pos: &G, mut alpha: i32, beta: i32, ply: usize, qply: usize) -> i32 {
        if self.should_stop() {
            return 0;
        }
        self.count_node();
        self.seldepth = self.seldepth.max(ply + 1);
        if ply >= MAX_PLY - 1 {
            return Self::static_value(pos);
        }
        if pos.is_chance() {
            let mut list = MoveList::default();
            pos.legal_moves(&mut list);
            return self.chance_node(pos, &list, Reach::Quiescence(qply), alpha, beta, ply);
        }
        if goal(pos) == Goal::NearZero {
            return self.cat_qnode(pos, alpha, beta, ply, qply);
        }
        let key = pos.key();
        let entry = self.tt.probe(key);
        if let Some(v) = entry.and_then(|e| cutoff(e, ply, alpha, beta)) {
            return v;
        }
        let alpha_orig = alpha;
        let in_check = pos.in_check();
        let mut list = MoveList::default();
        // Which moves (all, or the tactical ones), the best value so far
        // and the static value; the picker is made after, in place (it is
        // large: moving it out of a branch would copy it).
        let (all_moves, mut best, eval) = if in_check {
            pos.legal_moves(&mut list);
            if list.is_empty() {
                return Self::outcome_value(pos, pos.position_outcome(true).and_then(|o| o.winner), ply);
            }
            // Deep in quiescence, checks unmasked by cat steps could chain
            // on without a capture: past the limit a check is not answered
            // move by move (a mate was ruled out above).
            if qply > G::QS_EVASION_PLIES {
                return Self::static_value(pos);
            }
            (true, -INF, NO_EVAL)
        } else if !pos.static_value_holds() {
            // No standing pat mid-turn after the main move: the turn goes
            // on to the opponent's answer (the game's tactical moves here
            // include the step that carries the turn on).
            pos.tactical_moves(&mut list);
            if list.is_empty() {
                return Self::static_value(pos);
            }
            (false, -INF, NO_EVAL)
        } else {
            let raw = match entry {
                Some(e) if e.eval as i32 != NO_EVAL => e.eval as i32,
                _ => Self::static_value(pos),
            };
            let corrected = self.corrected(pos, raw, &Self::correction_keys(pos), ply);
            // A stored value bounded on the far side of the static value
            // is the better standing value (as in `search`).
            let stand = match entry {
                Some(e) => {
                    let stored = from_tt(e.value as i32, ply);
                    if stored.abs() < MATE_BOUND && e.bound.tells_side(stored, corrected) {
                        stored
                    } else {
                        corrected
                    }
                }
                None => corrected,
            };
            if stand >= beta {
                if entry.is_none() {
                    self.store(key, 0, stand, raw, Bound::Lower, None, ply);
                }
                return stand;
            }
            alpha = alpha.max(stand);
            pos.tactical_moves(&mut list);
            (false, stand, raw)
        };
        let hash_move = Self::tt_move(&list, entry);
        let mut picker = if all_moves {
            MovePicker::new(pos, &mut list, hash_move, self.history, ply, self.context(ply))
        } else {
            MovePicker::tactical(pos, &mut list, hash_move, self.history)
        };
        let mut best_move = None;
        let mut roll_left_out = false;
        while let Some((m, _, _)) = picker.pick(pos, self.history) {
            if !in_check && !pos.see_ge(m, 0) {
                continue;
            }
            let child = pos.play(m);
            // A roll resolves no capture: quiescence never asks for one
            // (answering a check, every move is tried, the request too).
            if child.is_chance() {
                roll_left_out = true;
                continue;
            }
            let key = self.move_key(pos, m);
            self.enter(ply, key);
            let v = self.child_qvalue(perspective(pos), &child, alpha, beta, ply + 1, qply + 1);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    best_move = Some(m);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if best == -INF && roll_left_out {
            // Answering a check, the only move was a roll (a player who
            // must teleport): the static value stands for it.
            return Self::static_value(pos);
        }
        let bound = Bound::of(best, alpha_orig, beta);
        self.store(key, 0, best, eval, bound, best_move, ply);
        best
    }
}

/// What a singular test found (`Worker::singular_test`).
enum Singular {
    /// Search the hash move this many plies deeper (negative: shallower).
    Extend(i32),
    /// Another move reaches the bar too, and the bar is at least beta.
    Cut(i32),
}

/// The stored value if its bound settles the window (alpha, beta).
pub(super) fn cutoff(e: Entry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let v = from_tt(e.value as i32, ply);
    let settles = match e.bound {
        Bound::Exact => true,
        Bound::Lower => v >= beta,
        Bound::Upper => v <= alpha,
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
