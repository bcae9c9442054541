//! Quiescence search: past the main search's depth, captures and
//! promotions until the position is quiet (at the cats' turn, see
//! `cat_qnode`; rolls, see `chance.rs`).

use super::movepick::MovePicker;
use super::node::{Horizon, Window};
use super::tt::Bound;
use super::worker::{cutoff, Found, Worker, NO_EVAL};
use super::{goal, perspective, SearchGame, INF, MAX_PLY};
use catchess_game::{Goal, MoveList};

/// Which moves a quiescence node searches.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Moves {
    /// Every legal move: the answers to a check.
    All,
    /// Captures and promotions (and, mid-turn, the step carrying it on).
    Tactical,
}

impl<G: SearchGame> Worker<'_, G> {
    /// The quiescence value of `pos` in `window`, `qply` plies into
    /// quiescence, from the perspective of its seat to move.
    pub(super) fn qsearch(&mut self, pos: &G, window: Window, ply: usize, qply: usize) -> i32 {
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
            return self.chance_node(pos, &list, Horizon::Quiescence(qply), window, ply);
        }
        if goal(pos) == Goal::NearZero {
            return self.cat_qnode(pos, window, ply, qply);
        }
        let key = pos.key();
        let entry = self.tt.probe(key);
        if let Some(v) = entry.and_then(|e| cutoff(e, ply, window)) {
            return v;
        }
        let Window { mut alpha, beta } = window;
        let in_check = pos.in_check();
        let mut list = MoveList::default();
        // Which moves, the best value so far and the static value; the
        // picker is made after, in place (it is large: moving it out of a
        // branch would copy it).
        let (moves, mut best, eval) = if in_check {
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
            (Moves::All, -INF, NO_EVAL)
        } else if !pos.static_value_holds() {
            // No standing pat mid-turn after the main move: the turn goes
            // on to the opponent's answer (the game's tactical moves here
            // include the step that carries the turn on).
            pos.tactical_moves(&mut list);
            if list.is_empty() {
                return Self::static_value(pos);
            }
            (Moves::Tactical, -INF, NO_EVAL)
        } else {
            let raw = Self::raw_eval(pos, entry);
            let corrected = self.corrected(pos, raw, &Self::correction_keys(pos), ply);
            let stand = Self::better_guess(entry, corrected, ply);
            if stand >= beta {
                if entry.is_none() {
                    let found = Found { depth: 0, value: stand, bound: Bound::Lower, eval: raw, mv: None };
                    self.store(key, ply, found);
                }
                return stand;
            }
            alpha = alpha.max(stand);
            pos.tactical_moves(&mut list);
            (Moves::Tactical, stand, raw)
        };
        let hash_move = Self::tt_move(&list, entry);
        let mut picker = match moves {
            Moves::All => MovePicker::new(pos, &mut list, hash_move, self.history, ply, self.context(ply)),
            Moves::Tactical => MovePicker::tactical(pos, &mut list, hash_move, self.history),
        };
        let mut best_move = None;
        let mut roll_left_out = false;
        while let Some(picked) = picker.pick(pos, self.history) {
            let m = picked.mv;
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
            let v = self.child_qvalue(perspective(pos), &child, Window::new(alpha, beta), ply + 1, qply + 1);
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
        let bound = Bound::of(best, window.alpha, window.beta);
        self.store(key, ply, Found { depth: 0, value: best, bound, eval, mv: best_move });
        best
    }
}
