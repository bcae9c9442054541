//! Cat nodes: the cats pick the reply whose value (white's view) is closest
//! to zero, since a draw is their win and either mate their loss.
//!
//! # Pruning with a window
//!
//! A cat node's value v is the child value of least magnitude, so it is not
//! monotone in the children and the usual alpha-beta argument does not
//! apply as it stands. What does hold: once the cats hold a reply of exact
//! value b, v lies in [-|b|, |b|]. So
//!
//! * if |b| ≤ alpha, then v ≤ alpha: the node fails low at once;
//! * if -|b| ≥ beta, then v ≥ beta: it fails high at once;
//! * a later child only matters if its magnitude is below |b|, so it is
//!   searched with the window (-|b|, |b|), narrowed further to (-U, U) with
//!   U = max(|alpha|, |beta|): a child beyond U on either side is outside
//!   the node's window whatever the others are.
//!
//! The one case where those bounds do not decide is when every child falls
//! beyond U with both signs present (one cat move lets white win big, the
//! other lets black): which is nearer zero decides fail high or fail low.
//! Only then are those children searched again with a full window. Every
//! value returned is a true bound (or the exact value), so the
//! transposition table stores cat nodes like any other.

use super::history::bonus;
use super::movepick::MovePicker;
use super::tt::Bound;
use super::worker::Worker;
use super::worker::NO_EVAL;
use super::{SearchGame, INF};
use crate::core::Side;
use crate::moves::{MoveList, MAX_MOVES};

/// A child of a cat node: a real move, or (in quiescence only) the pass
/// that stands for every quiet cat step.
type Child<M> = Option<M>;

impl<G: SearchGame> Worker<'_, G> {
    /// Searches a cat node's legal moves to `depth` (quiescence if `None`
    /// is given, see `cat_qnode`). Values are from white's point of view.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn cat_node(
        &mut self,
        pos: &G,
        list: MoveList<G::Move>,
        hash_move: Option<G::Move>,
        depth: Option<i32>,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv: bool,
    ) -> i32 {
        let mut picker = MovePicker::new(pos, list, hash_move, self.history, ply);
        let mut children: [Child<G::Move>; MAX_MOVES] = [None; MAX_MOVES];
        let mut n = 0;
        while let Some((m, _, _)) = picker.pick() {
            children[n] = Some(m);
            n += 1;
        }
        let (value, chosen) = self.closest_to_zero(pos, &children[..n], depth, alpha, beta, ply, pv);
        if self.stopped {
            return 0;
        }
        let chosen = chosen.and_then(|i| children[i]);
        if let (Some(d), Some(m)) = (depth, chosen) {
            self.history.update(Side::Cats.index(), G::move_squares(m), bonus(d));
            let bound = if value >= beta {
                Bound::Lower
            } else if value <= alpha {
                Bound::Upper
            } else {
                Bound::Exact
            };
            self.store(pos.key(), d, value, NO_EVAL, bound, Some(m), ply);
        }
        value
    }

    /// Quiescence at the cats' turn: the pass (standing for any quiet cat
    /// step, which leaves the captures as they are) and the cat steps that
    /// disarm a capturer or shelter its victim.
    pub(super) fn cat_qnode(&mut self, pos: &G, alpha: i32, beta: i32, ply: usize) -> i32 {
        let mut list = MoveList::default();
        pos.tactical_moves(&mut list);
        let mut children: [Child<G::Move>; MAX_MOVES] = [None; MAX_MOVES];
        for (i, &m) in list.iter().enumerate().take(MAX_MOVES - 1) {
            children[i + 1] = Some(m);
        }
        let n = (list.len() + 1).min(MAX_MOVES);
        self.closest_to_zero(pos, &children[..n], None, alpha, beta, ply, false).0
    }

    #[allow(clippy::too_many_arguments)]
    fn cat_child(
        &mut self,
        pos: &G,
        child: Child<G::Move>,
        depth: Option<i32>,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv: bool,
    ) -> i32 {
        let next = match child {
            Some(m) => pos.play(m),
            None => pos.null_move(),
        };
        match depth {
            Some(d) => self.child_value(Side::Cats, &next, d - 1, alpha, beta, ply + 1, pv),
            None => self.child_qvalue(Side::Cats, &next, alpha, beta, ply + 1),
        }
    }

    /// The value of the child nearest zero (as a bound when the node fails
    /// high or low) and which child it is. See the module comment.
    #[allow(clippy::too_many_arguments)]
    fn closest_to_zero(
        &mut self,
        pos: &G,
        children: &[Child<G::Move>],
        depth: Option<i32>,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv: bool,
    ) -> (i32, Option<usize>) {
        let u = alpha.abs().max(beta.abs()).min(INF);
        let mut magnitude = INF;
        let mut best: Option<(i32, usize)> = None;
        // Children beyond ±u: the lowest of those above, the highest below.
        let mut above: Option<(i32, usize)> = None;
        let mut below: Option<(i32, usize)> = None;
        for (i, &child) in children.iter().enumerate() {
            let w = magnitude.min(u);
            if w == 0 {
                break;
            }
            // Only the first child continues the principal variation.
            let v = self.cat_child(pos, child, depth, -w, w, ply, pv && i == 0);
            if self.stopped {
                return (0, None);
            }
            if v > -w && v < w {
                magnitude = v.abs();
                best = Some((v, i));
                if let Some(m) = child {
                    if depth.is_some() {
                        self.update_pv(ply, m);
                    }
                }
                if magnitude <= alpha {
                    return (magnitude, Some(i));
                }
                if -magnitude >= beta {
                    return (-magnitude, Some(i));
                }
            } else if v >= w {
                if above.is_none_or(|(a, _)| v < a) {
                    above = Some((v, i));
                }
            } else if below.is_none_or(|(b, _)| v > b) {
                below = Some((v, i));
            }
        }
        let chosen = match (best, above, below) {
            (Some((v, i)), _, _) => return (v, Some(i)),
            (None, Some(a), None) => a,
            (None, None, Some(b)) => b,
            (None, Some(_), Some(_)) => self.resolve_mixed(pos, children, depth, ply),
            (None, None, None) => return (0, None),
        };
        if let (Some(m), Some(_)) = (children[chosen.1], depth) {
            self.pv[ply][0] = m;
            self.pv_len[ply] = 1;
        }
        (chosen.0, Some(chosen.1))
    }

    /// Every child lies beyond ±u, some above and some below: search them
    /// with a full window and take the one nearest zero.
    fn resolve_mixed(&mut self, pos: &G, children: &[Child<G::Move>], depth: Option<i32>, ply: usize) -> (i32, usize) {
        let mut best = (INF, 0);
        for (i, &child) in children.iter().enumerate() {
            let w = best.0.abs().min(INF);
            let v = self.cat_child(pos, child, depth, -w, w, ply, false);
            if self.stopped {
                return (0, i);
            }
            if v.abs() < best.0.abs() {
                best = (v, i);
            }
        }
        best
    }
}
