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

use super::history::{bonus, MoveKey};
use super::movepick::MovePicker;
use super::node::{Horizon, NodeKind, NonPv, Window};
use super::params::QS_CAT_STEP_PLIES;
use super::tt::Bound;
use super::worker::{Found, Worker, NO_EVAL};
use super::{perspective, SearchGame, INF};
use catchess_game::MoveList;

/// A child of a cat node: a real move, or (in quiescence only) the pass
/// that stands for every quiet cat step.
type Child<M> = Option<M>;

impl<G: SearchGame> Worker<'_, G> {
    /// Searches a cat node's legal moves, in the order `picker` gives
    /// them, to `depth` plies. Values are from white's point of view.
    pub(super) fn cat_node<N: NodeKind>(
        &mut self,
        pos: &G,
        picker: &mut MovePicker<'_, G>,
        depth: i32,
        window: Window,
        ply: usize,
        node: N,
    ) -> i32 {
        let mut children = MoveList::default();
        while let Some(picked) = picker.pick(pos, self.history) {
            children.push(Some(picked.mv));
        }
        let (value, chosen) = self.cat_choice(pos, children.as_slice(), Horizon::Plies(depth), window, ply, node);
        if self.stopped {
            return 0;
        }
        if let Some(m) = chosen.and_then(|i| children.as_slice()[i]) {
            let key = self.move_key(pos, m);
            let context = self.context(ply);
            self.history.reward(pos.to_move().index(), G::move_squares(m), key, context, bonus(depth));
            let bound = Bound::of(value, window.alpha, window.beta);
            self.store(pos.key(), ply, Found { depth, value, bound, eval: NO_EVAL, mv: Some(m) });
        }
        value
    }

    /// Quiescence at the cats' turn: the pass (standing for any quiet cat
    /// step, which leaves the captures as they are) and, in the first plies
    /// of quiescence only, the cat steps that disarm a capturer or shelter
    /// its victim (deeper, cat steps that unmask checks could chain on
    /// without a capture to end them).
    pub(super) fn cat_qnode(&mut self, pos: &G, window: Window, ply: usize, qply: usize) -> i32 {
        let mut list = MoveList::default();
        if qply <= QS_CAT_STEP_PLIES {
            pos.tactical_moves(&mut list);
        }
        // The pass first, then the steps (a cat step list is far below
        // the capacity: at most 16).
        let mut children = MoveList::default();
        children.push(None);
        list.iter().for_each(|&m| children.push(Some(m)));
        self.cat_choice(pos, children.as_slice(), Horizon::Quiescence(qply), window, ply, NonPv::All).0
    }

    /// The value of one of a cat node's children (the pass: `None`),
    /// searched as a node of `kind` along `horizon`.
    fn cat_child<K: NodeKind>(
        &mut self,
        pos: &G,
        child: Child<G::Move>,
        horizon: Horizon,
        window: Window,
        ply: usize,
        kind: K,
    ) -> i32 {
        let (next, key) = match child {
            Some(m) => (pos.play(m), self.move_key(pos, m)),
            None => (pos.null_move(), MoveKey::NONE),
        };
        self.enter(ply, key);
        self.child_at_horizon(perspective(pos), &next, horizon, window, ply + 1, kind)
    }

    /// The value of the child nearest zero (as a bound when the node fails
    /// high or low) and which child it is: `closest_to_zero` with the real
    /// children, keeping the principal variation of the chosen one.
    fn cat_choice<N: NodeKind>(
        &mut self,
        pos: &G,
        children: &[Child<G::Move>],
        horizon: Horizon,
        window: Window,
        ply: usize,
        node: N,
    ) -> (i32, Option<usize>) {
        let mut search = |i: usize, w: i32| -> Option<i32> {
            let asked = Window::around_zero(w);
            // Only the first child continues the principal variation (a
            // test the kind settles off it, where every child is searched
            // by the one call below).
            let v = if N::PV && i == 0 {
                self.cat_child(pos, children[i], horizon, asked, ply, node.child(NonPv::All))
            } else {
                self.cat_child(pos, children[i], horizon, asked, ply, NonPv::All)
            };
            if self.stopped {
                return None;
            }
            // Inside the window means nearer zero than every child so far.
            if let (true, Some(m), Horizon::Plies(_)) = (asked.holds(v), children[i], horizon) {
                self.update_pv(ply, m);
            }
            Some(v)
        };
        let Some(choice) = closest_to_zero(children.len(), window.alpha, window.beta, &mut search) else {
            return (0, None);
        };
        if let (false, Some(m), Horizon::Plies(_)) = (choice.exact, children[choice.index], horizon) {
            self.pv[ply][0] = m;
            self.pv_len[ply] = 1;
        }
        (choice.value, Some(choice.index))
    }
}

/// A cat node's verdict: its value (a true bound when outside the window),
/// the child it comes from, and whether that child's value is exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Choice {
    pub value: i32,
    pub index: usize,
    pub exact: bool,
}

/// The cats' choice among `n` children for the window (alpha, beta), all
/// values from white's view. `search(i, w)` searches child i with the
/// window (-w, w) and returns its fail-soft value, or `None` when the search
/// must stop. See the module comment for why the bounds hold.
pub(super) fn closest_to_zero(
    n: usize,
    alpha: i32,
    beta: i32,
    search: &mut impl FnMut(usize, i32) -> Option<i32>,
) -> Option<Choice> {
    let u = alpha.abs().max(beta.abs()).min(INF);
    let mut magnitude = INF;
    let mut best: Option<Choice> = None;
    // Children beyond ±u: the lowest of those above, the highest below.
    let mut above: Option<(i32, usize)> = None;
    let mut below: Option<(i32, usize)> = None;
    for i in 0..n {
        let w = magnitude.min(u);
        if w == 0 {
            break;
        }
        let v = search(i, w)?;
        if v > -w && v < w {
            magnitude = v.abs();
            best = Some(Choice { value: v, index: i, exact: true });
            if magnitude <= alpha {
                return Some(Choice { value: magnitude, index: i, exact: true });
            }
            if -magnitude >= beta {
                return Some(Choice { value: -magnitude, index: i, exact: true });
            }
        } else if v >= w {
            if above.is_none_or(|(a, _)| v < a) {
                above = Some((v, i));
            }
        } else if below.is_none_or(|(b, _)| v > b) {
            below = Some((v, i));
        }
    }
    match (best, above, below) {
        (Some(b), _, _) => Some(b),
        (None, Some((value, index)), None) | (None, None, Some((value, index))) => {
            Some(Choice { value, index, exact: false })
        }
        // Every child lies beyond ±u, some above and some below: which is
        // nearer zero decides, so search them again with full windows
        // (narrowing as the best magnitude falls).
        (None, Some(_), Some(_)) => {
            let mut best: Option<Choice> = None;
            for i in 0..n {
                let w = best.map_or(INF, |b| b.value.abs());
                if w == 0 {
                    break;
                }
                let v = search(i, w)?;
                if best.is_none_or(|b| v.abs() < b.value.abs()) {
                    best = Some(Choice { value: v, index: i, exact: v > -w && v < w });
                }
            }
            best
        }
        (None, None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    /// A fail-soft search of a child whose true value is `t`: exact inside
    /// the window, otherwise some bound between the window edge and `t`.
    fn fail_soft(t: i32, lo: i32, hi: i32, rng: &mut StdRng) -> i32 {
        if t > lo && t < hi {
            t
        } else if t <= lo {
            rng.gen_range(t..=lo)
        } else {
            rng.gen_range(hi..=t)
        }
    }

    #[test]
    fn the_choice_is_exact_inside_the_window_and_a_true_bound_outside() {
        let mut rng = StdRng::seed_from_u64(42);
        for trial in 0..200_000 {
            let n = rng.gen_range(1..8);
            let spread = [30, 300, 3000, INF - 1][trial % 4];
            let values: Vec<i32> = (0..n).map(|_| rng.gen_range(-spread..=spread)).collect();
            let a = rng.gen_range(-spread..spread);
            let b = if rng.gen_bool(0.5) { a + 1 } else { rng.gen_range(a + 1..=spread) };
            let least = values.iter().map(|v| v.abs()).min().unwrap();
            // Ties of +x and -x: either is the cats' choice.
            let answers: Vec<i32> = values.iter().copied().filter(|v| v.abs() == least).collect();
            let mut calls = 0;
            let choice = closest_to_zero(n, a, b, &mut |i, w| {
                calls += 1;
                Some(fail_soft(values[i], -w, w, &mut rng))
            })
            .unwrap();
            let r = choice.value;
            let ok = answers.iter().any(|&v| {
                if v > a && v < b {
                    r == v
                } else if v <= a {
                    r <= a && r >= v
                } else {
                    r >= b && r <= v
                }
            });
            assert!(ok, "values {values:?} window ({a}, {b}): got {choice:?}");
            if choice.exact {
                assert_eq!(values[choice.index].abs(), r.abs(), "{values:?} ({a}, {b}): {choice:?}");
            }
            assert!(calls <= 2 * n);
        }
    }

    #[test]
    fn a_draw_ends_the_search_and_a_stop_is_passed_on() {
        let mut searched = Vec::new();
        let choice = closest_to_zero(4, -50, 50, &mut |i, _| {
            searched.push(i);
            Some([40, 0, 7, -3][i])
        });
        assert_eq!(choice, Some(Choice { value: 0, index: 1, exact: true }));
        assert_eq!(searched, [0, 1], "nothing beats an exact 0");
        assert_eq!(closest_to_zero(3, -50, 50, &mut |_, _| None), None);
    }
}
