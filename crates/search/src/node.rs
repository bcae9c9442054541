//! What the search is told about a node besides its position and depth:
//! its kind (root, principal variation or not, and whether a non-PV node is
//! expected to cut), its window, whether it may try a null move, and how
//! far a roll's or a cat's children are searched.
//!
//! The kind is a type, as in Stockfish (`search<NodeType>`) and viridithas
//! (`NodeType`): `Worker::search` is compiled once per kind, so the tests
//! of `N::ROOT` and `N::PV` cost nothing at run time and the root's and the
//! principal variation's extra work is left out of the null-window search
//! that makes up most of the tree. Whether a non-PV node is expected to fail
//! high is a value of that kind, not a type of its own: it only changes how
//! much late moves are reduced, which is not worth a fourth copy of the
//! search.

use super::INF;

/// A node's kind, known when the search is compiled.
pub(super) trait NodeKind: Copy {
    /// The root: its moves may be restricted (`searchmoves`, `MultiPV`),
    /// nothing is pruned and it is never a repetition or a table hit.
    const ROOT: bool;
    /// On the principal variation: neither cut by the table nor pruned, and
    /// its first child goes on with the principal variation.
    const PV: bool;
    /// The kind of a child searched with an open window: a principal
    /// variation's child stays on it, a non-PV node's stays off it.
    type Child: NodeKind;
    /// That child, expected to do as `expect` says if it is not on the
    /// principal variation.
    fn child(self, expect: NonPv) -> Self::Child;
    /// What the node is expected to do, as a non-PV node would be: a PV
    /// node expects no cut.
    #[inline(always)]
    fn expected(self) -> NonPv {
        NonPv::All
    }
}

/// The root of the search.
#[derive(Clone, Copy, Debug)]
pub(super) struct Root;

/// A node on the principal variation, below the root.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pv;

/// A node off the principal variation, and whether it is expected to fail
/// high (a cut node: the child of a reduced search, or of a full-depth
/// null-window search at an expected all node), where late moves are
/// reduced more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NonPv {
    Cut,
    All,
}

impl NonPv {
    /// The expectation of a child searched to full depth with a null
    /// window: the opposite of its parent's (its first move refutes a cut
    /// node's move; every move of an all node's child fails high).
    #[inline(always)]
    pub fn flipped(self) -> NonPv {
        match self {
            NonPv::Cut => NonPv::All,
            NonPv::All => NonPv::Cut,
        }
    }
}

impl NodeKind for Root {
    const ROOT: bool = true;
    const PV: bool = true;
    type Child = Pv;
    #[inline(always)]
    fn child(self, _: NonPv) -> Pv {
        Pv
    }
}

impl NodeKind for Pv {
    const ROOT: bool = false;
    const PV: bool = true;
    type Child = Pv;
    #[inline(always)]
    fn child(self, _: NonPv) -> Pv {
        Pv
    }
}

impl NodeKind for NonPv {
    const ROOT: bool = false;
    const PV: bool = false;
    type Child = NonPv;
    #[inline(always)]
    fn child(self, expect: NonPv) -> NonPv {
        expect
    }
    #[inline(always)]
    fn expected(self) -> NonPv {
        self
    }
}

/// Whether a node may try a null move: not the child of one (two in a row
/// would hand the turn back with nothing searched), nor the root or a
/// singular test, which prune nothing by it anyway.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NullMove {
    Allowed,
    Refused,
}

/// The values a node's search is asked to tell apart, from the view of its
/// seat to move: below or at `alpha` only an upper bound is wanted, at or
/// above `beta` only a lower one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Window {
    pub alpha: i32,
    pub beta: i32,
}

impl Window {
    /// Every value: an exact one is wanted.
    pub const FULL: Window = Window { alpha: -INF, beta: INF };

    #[inline(always)]
    pub fn new(alpha: i32, beta: i32) -> Window {
        Window { alpha, beta }
    }

    /// The null window that asks only whether the value is above `value`.
    #[inline(always)]
    pub fn above(value: i32) -> Window {
        Window { alpha: value, beta: value + 1 }
    }

    /// From -`w` to `w`: is the value nearer zero than `w` (the cats'
    /// question of each child)?
    #[inline(always)]
    pub fn around_zero(w: i32) -> Window {
        Window { alpha: -w, beta: w }
    }

    /// The same window from the other seat's view.
    #[inline(always)]
    pub fn negated(self) -> Window {
        Window { alpha: -self.beta, beta: -self.alpha }
    }

    /// Whether `value` lies strictly inside the window (is exact).
    #[inline(always)]
    pub fn holds(self, value: i32) -> bool {
        value > self.alpha && value < self.beta
    }
}

/// How far the children of a roll or a cat node are searched: to a depth
/// in plies, or in quiescence (with the plies already spent there).
#[derive(Clone, Copy, Debug)]
pub(super) enum Horizon {
    Plies(i32),
    Quiescence(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_principal_variation_goes_on_through_its_open_children_and_no_other() {
        // The kinds the search gives a child follow from its parent's: the
        // open-window child of a PV node is PV whatever it is expected to
        // do; a non-PV node's child keeps the expectation it is given.
        fn kind_of<N: NodeKind>(node: N, expect: NonPv) -> (bool, bool, NonPv) {
            let child = node.child(expect);
            (<N::Child as NodeKind>::ROOT, <N::Child as NodeKind>::PV, child.expected())
        }
        assert_eq!(kind_of(Root, NonPv::Cut), (false, true, NonPv::All));
        assert_eq!(kind_of(Pv, NonPv::Cut), (false, true, NonPv::All));
        assert_eq!(kind_of(NonPv::All, NonPv::Cut), (false, false, NonPv::Cut));
        assert_eq!(kind_of(NonPv::Cut, NonPv::All), (false, false, NonPv::All));
        assert_eq!(NonPv::Cut.flipped(), NonPv::All);
        assert_eq!(NonPv::All.flipped(), NonPv::Cut);
    }

    #[test]
    fn windows_read_the_same_from_either_seat() {
        let w = Window::new(-30, 70);
        assert_eq!(w.negated(), Window::new(-70, 30));
        assert_eq!(w.negated().negated(), w);
        assert_eq!(Window::above(5), Window::new(5, 6));
        assert!(!Window::above(5).holds(5) && !Window::above(5).holds(6));
        assert!(Window::around_zero(10).holds(-9) && !Window::around_zero(10).holds(10));
        assert_eq!(Window::FULL.negated(), Window::FULL);
    }
}
