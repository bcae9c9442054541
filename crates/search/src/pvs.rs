//! A node of the main search: principal variation search. `search` reads as
//! its steps, each a function below:
//!
//! 1. `settled`: a repetition, the game's end, an endgame table's verdict,
//!    or a window the mate distances close, and nothing is searched;
//! 2. the table's entry, which may cut the node (off the principal
//!    variation); rolls (`chance.rs`), the cats (`cats.rs`) and quiescence
//!    (`quiescence.rs`) go their own ways;
//! 3. `static_eval`: the static value, corrected, and whether it improves on
//!    the seat's previous turn;
//! 4. `prune_node`: reverse futility and null-move pruning, which end the
//!    node before its moves;
//! 5. `search_moves`: the move loop, in which each move may be pruned
//!    (`skips`), extended (`singular_test`), reduced (`reduction`) and
//!    searched (`search_later_move`), and a cutoff teaches the histories
//!    (`reward_cutoff`);
//! 6. `finish`: what the node found goes into the table and the correction
//!    history.
//!
//! The node's kind is a type (`node.rs`): each step is compiled for the
//! root, the principal variation and the rest apart, so none of it tests
//! at run time what the kind decides.

use super::correction::CorrectionKeys;
use super::correction::MAX_KEYS;
use super::history::{bonus, Context, MoveKey};
use super::movepick::{MovePicker, Picked};
use super::node::{Horizon, NodeKind, NonPv, NullMove, Window};
use super::params::*;
use super::tt::{Bound, Entry};
use super::worker::{cutoff, from_tt, Found, Reached, Worker, NO_EVAL};
use super::{goal, perspective, SearchGame, INF, MATE, MATE_BOUND, MAX_PLY};
use catchess_game::{Goal, MoveList};
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;

/// What the steps of a player's node share, found before its moves.
struct Frame<M> {
    key: u64,
    /// The depth to search, after the check extension and the internal
    /// iterative reduction.
    depth: i32,
    ply: usize,
    in_check: bool,
    /// `SearchGame::static_value_holds`: whether pruning may go by the
    /// static value.
    holds: bool,
    /// The table's entry, unless the node is a singular test's.
    entry: Option<Entry>,
    /// The hash move a singular test leaves out here.
    left_out: Option<M>,
    eval: StaticEval,
    /// The seat to move's index, its sign (`perspective`), and the two moves
    /// before (the continuation history's context).
    side: usize,
    sign: i32,
    context: Context,
}

/// A node's static value, in three forms.
struct StaticEval {
    /// The evaluation's own (what the table keeps); `NO_EVAL` in check.
    raw: i32,
    /// `raw` corrected by the errors learnt of positions like this one
    /// (what the correction history learns against); `-INF` in check.
    corrected: i32,
    /// The keys that correction was read with.
    keys: CorrectionKeys,
    /// What pruning goes by: `corrected`, or a stored value bounded on its
    /// far side, the better guess of what the node is worth.
    guess: i32,
    /// Whether `guess` is better than the static value kept at this seat's
    /// previous turn on the path.
    improving: bool,
}

/// A move the loop is about to search, with what its tests read of it.
struct Candidate<M> {
    picked: Picked<M>,
    /// Its continuation history's key.
    key: MoveKey,
    /// Its quiet history (butterfly and continuation), read when a test
    /// first needs it and then kept (`Worker::learnt`).
    learnt: Option<i32>,
}

/// What the move loop has found so far.
struct Progress<M> {
    /// The window's lower edge, raised by each move that beats it.
    alpha: i32,
    best: i32,
    best_move: Option<M>,
    /// Moves searched (not pruned).
    searched: usize,
    /// Whether a move into a roll was left out for being too deep (see
    /// `CHANCE_MAX_PLY`).
    roll_left_out: bool,
}

/// The moves searched before the one that cut the node off, which the
/// histories then punish: as many as fit.
struct Tried<M> {
    quiets: [(M, MoveKey); 64],
    quiet_count: usize,
    tacticals: [MoveKey; 32],
    tactical_count: usize,
}

impl<M: Copy + Default> Tried<M> {
    #[inline(always)]
    fn new() -> Self {
        Tried {
            quiets: [(M::default(), MoveKey::NONE); 64],
            quiet_count: 0,
            tacticals: [MoveKey::NONE; 32],
            tactical_count: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, m: M, key: MoveKey, tactical: bool) {
        if !tactical && self.quiet_count < self.quiets.len() {
            self.quiets[self.quiet_count] = (m, key);
            self.quiet_count += 1;
        } else if tactical && self.tactical_count < self.tacticals.len() {
            self.tacticals[self.tactical_count] = key;
            self.tactical_count += 1;
        }
    }

    fn quiets(&self) -> &[(M, MoveKey)] {
        &self.quiets[..self.quiet_count]
    }

    fn tacticals(&self) -> &[MoveKey] {
        &self.tacticals[..self.tactical_count]
    }
}

/// What a singular test found (`Worker::singular_test`).
enum Singular {
    /// Search the hash move this many plies deeper (negative: shallower).
    Extend(i32),
    /// Another move reaches the bar too, and the bar is at least beta.
    Cut(i32),
}

impl<G: SearchGame> Worker<'_, G> {
    /// Alpha-beta search of `pos` (whose key is the last in `keys`) to
    /// `depth` plies in `window`; the value from the perspective of its
    /// side to move.
    pub(super) fn search<N: NodeKind>(
        &mut self,
        pos: &G,
        mut depth: i32,
        mut window: Window,
        ply: usize,
        node: N,
        null: NullMove,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if self.should_stop() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return Self::static_value(pos);
        }
        if N::ROOT {
            self.root_start_nodes = self.nodes;
            self.root_best_nodes = 0;
        }
        let mover = pos.to_move();
        self.movers[ply] = mover;
        if !N::ROOT {
            if let Some(v) = self.settled(pos, ply, &mut window) {
                return v;
            }
        }
        let cats = goal(pos) == Goal::NearZero;
        let in_check = !cats && pos.in_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(pos, window, ply, 0);
        }
        self.count_node();
        self.seldepth = self.seldepth.max(ply + 1);
        let key = pos.key();
        // A singular test searches this node without its hash move: the
        // table's entry (whose value and move include it) neither cuts
        // nor orders; its static value still serves.
        let left_out = self.singular[ply];
        let probed = self.tt.probe(key);
        let entry = probed.filter(|_| left_out.is_none());
        if let Some(v) = entry.filter(|e| !N::PV && e.depth as i32 >= depth).and_then(|e| cutoff(e, ply, window)) {
            return v;
        }
        let mut list = MoveList::default();
        // Rolls, the cats and the root need their moves at once; a player's
        // node generates them only after the pruning below, which most
        // often ends the node without a move (and so judges a position
        // without moves by its static value, as engines do: a mate is
        // never missed, since a side in check is not pruned).
        let moves_first = N::ROOT || cats || pos.is_chance();
        if moves_first {
            pos.legal_moves(&mut list);
            if list.is_empty() {
                return Self::outcome_value(pos, pos.position_outcome(true).and_then(|o| o.winner), ply);
            }
            if N::ROOT {
                self.restrict_root(&mut list);
            }
            if pos.is_chance() {
                return self.chance_node(pos, &list, Horizon::Plies(depth), window, ply);
            }
            if cats {
                let hash_move = Self::tt_move(&list, entry);
                let mut picker = MovePicker::new(pos, &mut list, hash_move, self.history, ply, self.context(ply));
                return self.cat_node(pos, &mut picker, depth, window, ply, node);
            }
        }
        // No hash move: this node was never searched, or failed low;
        // spend less on it (internal iterative reduction). A singular
        // test's node has one, only left out.
        if left_out.is_none() && entry.is_none_or(|e| e.mv == 0) && depth >= iir_min_depth() {
            depth -= 1;
        }
        let frame = Frame {
            key,
            depth,
            ply,
            in_check,
            holds: pos.static_value_holds(),
            entry,
            left_out,
            eval: self.static_eval(pos, probed, entry, in_check, ply),
            side: mover.index(),
            sign: perspective(pos),
            context: self.context(ply),
        };
        if !N::PV {
            if let Some(v) = self.prune_node(pos, &frame, window.beta, node.expected(), null) {
                return v;
            }
        }
        if !moves_first {
            pos.legal_moves(&mut list);
            if list.is_empty() {
                return Self::outcome_value(pos, pos.position_outcome(true).and_then(|o| o.winner), ply);
            }
        }
        match self.search_moves(pos, &frame, &mut list, window, node) {
            ControlFlow::Break(v) => v,
            ControlFlow::Continue(found) => self.finish::<N>(pos, &frame, window, found),
        }
    }

    /// The value of a node (not the root) settled before any search: a
    /// repetition, the game's end, or an endgame table's verdict; else
    /// `window` narrowed to the values a mate from here can have, and its
    /// lower edge if that leaves nothing between them.
    #[inline(always)]
    fn settled(&mut self, pos: &G, ply: usize, window: &mut Window) -> Option<i32> {
        if let Some(v) = self.repetition_value(pos, ply) {
            return Some(v);
        }
        if let Some(o) = pos.position_outcome(false) {
            return Some(Self::outcome_value(pos, o.winner, ply));
        }
        if let Some((winner, plies)) = pos.table_result() {
            self.shared.tbhits.fetch_add(1, Ordering::Relaxed);
            let to_end = (ply + plies as usize).min((MATE - MATE_BOUND) as usize - 1);
            return Some(Self::outcome_value(pos, winner, to_end));
        }
        window.alpha = window.alpha.max(-MATE + ply as i32);
        window.beta = window.beta.min(MATE - ply as i32 - 1);
        (window.alpha >= window.beta).then_some(window.alpha)
    }

    /// The node's static value (see `StaticEval`), `probed` being the
    /// table's entry and `entry` the same unless a singular test left it
    /// out; keeps it in `evals` for the seat's later turns on the path.
    #[inline(always)]
    fn static_eval(
        &mut self,
        pos: &G,
        probed: Option<Entry>,
        entry: Option<Entry>,
        in_check: bool,
        ply: usize,
    ) -> StaticEval {
        let raw = if in_check { NO_EVAL } else { Self::raw_eval(pos, probed) };
        let keys = if in_check { [0; MAX_KEYS] } else { Self::correction_keys(pos) };
        let corrected = if in_check { -INF } else { self.corrected(pos, raw, &keys, ply) };
        // The seat's previous turn on the path, and the static value kept
        // there (which, if that node was in check, is the one kept before it).
        let mover = self.movers[ply];
        let previous_turn = (0..ply).rev().find(|&p| self.movers[p] == mover);
        let earlier = previous_turn.map(|p| self.evals[p]);
        // In check there is no static value: the earlier one stands in for
        // it, or none (`INF`, which nothing is better than).
        self.evals[ply] = if in_check { earlier.unwrap_or(INF) } else { corrected };
        // A stored value bounded on the far side of the static value is the
        // better guess of what the node is worth: pruning and "improving"
        // go by it (against the static values kept for earlier plies, which
        // is also what the table keeps).
        let guess = if in_check { corrected } else { Self::better_guess(entry, corrected, ply) };
        let improving = !in_check && earlier.is_some_and(|e| guess > e);
        StaticEval { raw, corrected, keys, guess, improving }
    }

    /// Ends a non-PV node before its moves when its static value is so far
    /// above `beta` that it would fail high (reverse futility), or when it
    /// still does so after passing the turn (null-move pruning: not twice
    /// in a row, see `NullMove`). Mid-turn, after the turn's main move, the
    /// static value is no judge (`SearchGame::static_value_holds`): nothing
    /// is pruned by it.
    #[inline(always)]
    fn prune_node(&mut self, pos: &G, frame: &Frame<G::Move>, beta: i32, expect: NonPv, null: NullMove) -> Option<i32> {
        if frame.in_check || !frame.holds || beta.abs() >= MATE_BOUND || frame.left_out.is_some() {
            return None;
        }
        let (depth, eval) = (frame.depth, frame.eval.guess);
        if depth <= rfp_max_depth() && eval - rfp_margin() * depth >= beta {
            return Some(eval);
        }
        if null == NullMove::Allowed && depth >= nmp_min_depth() && eval >= beta && pos.has_non_pawn_material() {
            let r = nmp_base() + depth / nmp_divisor() + ((eval - beta) / nmp_eval_divisor()).min(nmp_eval_max());
            let v = self.null_move_search(pos, depth - 1 - r, beta, frame.ply, expect);
            if self.stopped {
                return Some(0);
            }
            if v >= beta {
                return Some(if v >= MATE_BOUND { beta } else { v });
            }
        }
        None
    }

    /// The value of `pos` with its turn passed, searched `depth` plies with
    /// the null window just below `beta`.
    fn null_move_search(&mut self, pos: &G, depth: i32, beta: i32, ply: usize, expect: NonPv) -> i32 {
        let child = pos.null_move();
        self.enter(ply, MoveKey::NONE);
        self.push_position(child.key(), Reached::Null);
        let (window, kind) = (Window::above(beta - 1), expect.flipped());
        let v = if perspective(pos) == perspective(&child) {
            self.search(&child, depth, window, ply + 1, kind, NullMove::Refused)
        } else {
            -self.search(&child, depth, window.negated(), ply + 1, kind, NullMove::Refused)
        };
        self.pop_position();
        v
    }

    /// The move loop: the node's moves in the picker's order, each pruned,
    /// extended, reduced and searched by the steps below. What it found,
    /// or (`Break`) the node's value when a singular test cuts it or the
    /// search stops.
    #[inline(always)]
    fn search_moves<N: NodeKind>(
        &mut self,
        pos: &G,
        frame: &Frame<G::Move>,
        list: &mut MoveList<G::Move>,
        window: Window,
        node: N,
    ) -> ControlFlow<i32, Progress<G::Move>> {
        let ply = frame.ply;
        let hash_move = Self::tt_move(list, frame.entry);
        let tt_capture = hash_move.is_some_and(|m| pos.tactical_value(m).is_some());
        let mut picker = MovePicker::new(pos, list, hash_move, self.history, ply, frame.context);
        let mut progress =
            Progress { alpha: window.alpha, best: -INF, best_move: None, searched: 0, roll_left_out: false };
        let mut tried = Tried::new();
        while let Some(picked) = picker.pick(pos, self.history) {
            let m = picked.mv;
            if frame.left_out == Some(m) {
                continue;
            }
            let mut candidate = Candidate { picked, key: self.move_key(pos, m), learnt: None };
            if !N::ROOT
                && !frame.in_check
                && progress.best > -MATE_BOUND
                && self.skips(pos, frame, &mut picker, &mut candidate, &mut progress)
            {
                continue;
            }
            let child = pos.play(m);
            if ply >= CHANCE_MAX_PLY && child.is_chance() {
                progress.roll_left_out = true;
                continue;
            }
            let extension = if Some(m) == hash_move && frame.left_out.is_none() {
                match self.singular_test(pos, m, frame, window.beta, node.expected()) {
                    Singular::Cut(v) => return ControlFlow::Break(v),
                    Singular::Extend(e) => e,
                }
            } else {
                0
            };
            self.enter(ply, candidate.key);
            let new_depth = frame.depth - 1 + extension;
            let nodes_before = self.nodes;
            let now = Window::new(progress.alpha, window.beta);
            let v = if progress.searched == 0 {
                self.child_value(frame.sign, &child, new_depth, now, ply + 1, node.child(node.expected().flipped()))
            } else {
                let r = self.reduction(frame, &mut candidate, progress.searched, node, tt_capture, new_depth);
                self.search_later_move(&child, frame, new_depth, r, now, node)
            };
            if self.stopped {
                return ControlFlow::Break(0);
            }
            progress.searched += 1;
            if v > progress.best {
                progress.best = v;
                if v > progress.alpha {
                    progress.best_move = Some(m);
                    progress.alpha = v;
                    self.update_pv(ply, m);
                    if N::ROOT {
                        self.root_best_nodes = self.nodes - nodes_before;
                    }
                    if v >= window.beta {
                        self.reward_cutoff(frame, &candidate, &tried);
                        break;
                    }
                }
            }
            tried.push(m, candidate.key, candidate.picked.tactical);
        }
        ControlFlow::Continue(progress)
    }

    /// A quiet move's full history (butterfly and continuation), read once.
    #[inline(always)]
    fn learnt(&self, candidate: &mut Candidate<G::Move>, frame: &Frame<G::Move>) -> i32 {
        if let Some(learnt) = candidate.learnt {
            return learnt;
        }
        let (m, key) = (candidate.picked.mv, candidate.key);
        let learnt = self.history.quiet_score(frame.side, G::move_squares(m), key, frame.context);
        candidate.learnt = Some(learnt);
        learnt
    }

    /// Whether to leave a move out unsearched (never at the root or in
    /// check, nor once every move so far is lost): a quiet move beyond the
    /// move count, hopeless by the static value (futility), of poor
    /// history, or losing material; a capture losing too much. Once the
    /// move count or futility prunes one quiet move they prune every later
    /// one, and the picker drops them.
    #[inline(always)]
    fn skips(
        &self,
        pos: &G,
        frame: &Frame<G::Move>,
        picker: &mut MovePicker<'_, G>,
        candidate: &mut Candidate<G::Move>,
        progress: &mut Progress<G::Move>,
    ) -> bool {
        let (depth, searched, m) = (frame.depth, progress.searched, candidate.picked.mv);
        if candidate.picked.tactical {
            return depth <= see_prune_max_depth()
                && candidate.picked.is_bad_tactical()
                && !pos.see_ge(m, see_prune_per_depth() * depth);
        }
        // Move-count pruning does not trust the static value; futility does.
        let late = depth <= lmp_max_depth() && searched >= lmp_limit(depth, frame.eval.improving);
        let futility_value = frame.eval.guess + futility_base() + futility_per_depth() * depth;
        let futile = frame.holds && depth <= futility_max_depth() && futility_value <= progress.alpha;
        // The quiet moves futility prunes are taken to be worth its value
        // (at most alpha): a fail low says no less, so the correction
        // history does not learn from it that the static value was too high
        // (which would prune more).
        if futile && futility_value.abs() < MATE_BOUND {
            progress.best = progress.best.max(futility_value);
        }
        // Both only grow truer as moves are searched (`searched` and alpha
        // only rise), so every later quiet move falls to them too: the
        // picker drops them.
        if late || futile {
            picker.skip_quiets(|q| pos.keep_quiet(q));
        }
        let unpromising = depth <= history_prune_max_depth()
            && candidate.picked.is_history_score()
            && self.learnt(candidate, frame) < -history_prune_margin() * depth;
        let lmr_depth = (depth - 1 - lmr(depth, searched)).max(0);
        let loses =
            || lmr_depth <= quiet_see_max_depth() && !pos.see_ge(m, -quiet_see_margin() * lmr_depth * lmr_depth);
        (late || futile || unpromising || loses()) && !pos.keep_quiet(m)
    }

    /// Whether the hash move `m` of `pos` stands alone (see `se_min_depth`):
    /// searches the node without it, half as deep, just below its stored
    /// value less a margin. The move's extension, or a value to cut the
    /// node with.
    fn singular_test(&mut self, pos: &G, m: G::Move, frame: &Frame<G::Move>, beta: i32, expect: NonPv) -> Singular {
        let Some(e) = frame.entry else { return Singular::Extend(0) };
        let (depth, ply) = (frame.depth, frame.ply);
        let stored = from_tt(e.value as i32, ply);
        if ply == 0
            || depth < se_min_depth()
            || e.bound == Bound::Upper
            || (e.depth as i32) < depth - se_tt_depth_margin()
            || stored.abs() >= MATE_BOUND
            || ply as i32 >= 2 * self.root_depth
        {
            return Singular::Extend(0);
        }
        let bar = stored - se_margin() * depth;
        self.singular[ply] = Some(m);
        let v = self.search(pos, (depth - 1) / 2, Window::above(bar - 1), ply, expect, NullMove::Refused);
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

    /// How many plies less than `new_depth` to search a move after the
    /// first, `searched` moves in (late move reduction): late quiet moves
    /// by the table `lmr` and what the node and the move's history say, bad
    /// captures by a share of it and their capture history.
    #[inline(always)]
    fn reduction<N: NodeKind>(
        &self,
        frame: &Frame<G::Move>,
        candidate: &mut Candidate<G::Move>,
        searched: usize,
        node: N,
        tt_capture: bool,
        new_depth: i32,
    ) -> i32 {
        let depth = frame.depth;
        if depth < lmr_min_depth() || searched < lmr_min_moves() + N::PV as usize || frame.in_check {
            return 0;
        }
        let cut_node = node.expected() == NonPv::Cut;
        let mut r = 0;
        if !candidate.picked.tactical {
            r = lmr(depth, searched);
            if N::PV {
                r -= 1;
            }
            if !frame.eval.improving {
                r += 1;
            }
            if cut_node {
                r += lmr_cut_node();
            }
            if tt_capture {
                r += lmr_tt_capture();
            }
            r -= self.learnt(candidate, frame) / lmr_history_divisor();
        } else if candidate.picked.is_bad_tactical() {
            r = lmr(depth, searched) / lmr_bad_capture_divisor()
                - self.history.capture_score(candidate.key) / lmr_capture_history_divisor();
            if cut_node {
                r += lmr_cut_node();
            }
        }
        r.clamp(0, new_depth - 1)
    }

    /// A move after the first: searched `r` plies shallower with a null
    /// window just above alpha; if it beats alpha, again to full depth;
    /// and if it still lies inside `window`, with the whole window.
    #[inline(always)]
    fn search_later_move<N: NodeKind>(
        &mut self,
        child: &G,
        frame: &Frame<G::Move>,
        new_depth: i32,
        r: i32,
        window: Window,
        node: N,
    ) -> i32 {
        let (sign, ply, null_window) = (frame.sign, frame.ply + 1, Window::above(window.alpha));
        let mut v = self.child_value(sign, child, new_depth - r, null_window, ply, NonPv::Cut);
        if v > window.alpha && r > 0 {
            v = self.child_value(sign, child, new_depth, null_window, ply, node.expected().flipped());
        }
        if window.holds(v) {
            v = self.child_value(sign, child, new_depth, window, ply, node.child(NonPv::All));
        }
        v
    }

    /// A move cut the node off: the histories reward it and punish the
    /// moves tried before it (a capture's only the captures: whatever cut
    /// off, the captures before it did not).
    #[inline(always)]
    fn reward_cutoff(&mut self, frame: &Frame<G::Move>, candidate: &Candidate<G::Move>, tried: &Tried<G::Move>) {
        let (m, key) = (candidate.picked.mv, candidate.key);
        let (side, context) = (frame.side, frame.context);
        let b = bonus(frame.depth);
        if !candidate.picked.tactical {
            self.history.add_killer(frame.ply, m);
            self.history.reward(side, G::move_squares(m), key, context, b);
            for &(q, q_key) in tried.quiets() {
                self.history.reward(side, G::move_squares(q), q_key, context, -b);
            }
        } else {
            self.history.reward_capture(key, b);
        }
        for &t_key in tried.tacticals() {
            self.history.reward_capture(t_key, -b);
        }
    }

    /// The node's value from what its move loop found in `window` (as the
    /// mate distances left it), kept in the table, and what the correction
    /// history learns of the static value from it.
    #[inline(always)]
    fn finish<N: NodeKind>(
        &mut self,
        pos: &G,
        frame: &Frame<G::Move>,
        window: Window,
        found: Progress<G::Move>,
    ) -> i32 {
        let Progress { best, best_move, searched, roll_left_out, .. } = found;
        if searched == 0 {
            // A roll too deep to search that was the only way on (a
            // player who must teleport): the static value stands for it.
            if roll_left_out {
                return Self::static_value(pos);
            }
            // Every move was pruned as hopeless (never at the root or in
            // check, where nothing is pruned): a fail low, not stored.
            return window.alpha;
        }
        // A search without the hash move (a singular test) says nothing of
        // the position: neither the table nor the correction history
        // learns from it.
        if frame.left_out.is_some() {
            return best;
        }
        let bound = Bound::of(best, window.alpha, window.beta);
        // The correction history learns how wrong the static value was,
        // when the value found lies on a side of the corrected value that
        // its bound can tell (a bound that agrees with the correction tells
        // nothing against it) and no capture decided it (a capture's gain
        // is no misjudgement). Not at the root, whose best may be of some
        // moves only (`MultiPV`, `searchmoves`).
        if G::CORRECTION_KEYS > 0
            && !N::ROOT
            && !frame.in_check
            && frame.holds
            && best.abs() < MATE_BOUND
            && best_move.is_none_or(|m| pos.tactical_value(m).is_none())
            && bound.tells_side(best, frame.eval.corrected)
        {
            let (before, eval) = (self.moves[frame.ply], &frame.eval);
            self.history.correction.learn(frame.side, &eval.keys, before, best - eval.raw, frame.depth);
        }
        let found = Found { depth: frame.depth, value: best, eval: frame.eval.raw, bound, mv: best_move };
        self.store(frame.key, frame.ply, found);
        best
    }
}
