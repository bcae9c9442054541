//! Evaluating by updating the hidden layers of the position a thread
//! evaluated last, for any game whose men are bit sets per side and kind
//! (`Men`). The search copies positions rather than undoing moves, so it
//! has no parent's layers to hand, but the last position it evaluated is
//! nearly always a parent, sibling or cousin, a few men away: the layers
//! lose the men that left and gain those that came. Each game keeps its
//! own thread-local `Last` (its `Men` differ) and says which inputs a man
//! on a point is (`Network::evaluate_from_last`).

use super::{Accumulator, Network, HIDDEN};
use catchess_core::Color;
use std::cell::RefCell;
use std::thread::LocalKey;

/// One bit set of a game's points: `u64` for 8×8 boards, `u128` for 9×10.
pub(crate) trait Points: Copy + Eq {
    const EMPTY: Self;
    fn count(self) -> u32;
    /// The points in `self` but not in `other`.
    fn minus(self, other: Self) -> Self;
    /// Calls `f(point)` for each point of the set, lowest first.
    fn for_each(self, f: impl FnMut(usize));
}

macro_rules! points {
    ($t:ty) => {
        impl Points for $t {
            const EMPTY: Self = 0;
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn minus(self, other: Self) -> Self {
                self & !other
            }
            #[inline(always)]
            fn for_each(mut self, mut f: impl FnMut(usize)) {
                while self != 0 {
                    f(self.trailing_zeros() as usize);
                    self &= self - 1;
                }
            }
        }
    };
}
points!(u64);
points!(u128);

/// Where each kind of man of each side stands: one set per slot, the
/// game's order (white's or red's kinds, then black's).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Men<P: Points, const SLOTS: usize>(pub [P; SLOTS]);

impl<P: Points, const SLOTS: usize> Men<P, SLOTS> {
    pub(crate) const EMPTY: Self = Men([P::EMPTY; SLOTS]);

    fn count(&self) -> u32 {
        self.0.iter().map(|p| p.count()).sum()
    }

    /// Whose men slot `slot` holds: white's (red's) the first half of the
    /// slots, black's the second.
    #[inline(always)]
    pub(crate) const fn owner(slot: usize) -> Color {
        if slot < SLOTS / 2 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Calls `f(slot, point)` for every man.
    #[inline]
    pub(crate) fn for_each(&self, mut f: impl FnMut(usize, usize)) {
        for (slot, &points) in self.0.iter().enumerate() {
            points.for_each(|point| f(slot, point));
        }
    }
}

/// A thread's last evaluated position: its men and hidden layers, and the
/// network they belong to.
pub(crate) struct Last<P: Points, const SLOTS: usize> {
    network: *const Network,
    men: Men<P, SLOTS>,
    views: [Accumulator; 2],
}

impl<P: Points, const SLOTS: usize> Last<P, SLOTS> {
    /// Nothing evaluated yet (for a `thread_local!`'s `const` start).
    pub(crate) const fn new() -> Self {
        Last { network: std::ptr::null(), men: Men::EMPTY, views: [[0; HIDDEN]; 2] }
    }
}

/// A game's thread-local last position.
pub(crate) type LastKey<P, const SLOTS: usize> = LocalKey<RefCell<Last<P, SLOTS>>>;

impl Network {
    /// What `read` makes of the hidden layers (white's, black's) of the
    /// position whose men are `men` (its output, or its chances), the
    /// same as summing every man's input (`evaluate_inputs`), found from
    /// this thread's `last` position. `inputs(slot, point)` gives a man's
    /// white and black inputs. (Sums wrap in i16 as they go; the range
    /// check on loading keeps the true sums within it, so the result is
    /// exact.) The network is `'static` so that its address names it for
    /// the thread's cache: it can never be freed and another put in its
    /// place.
    #[inline]
    pub(crate) fn evaluate_from_last<P: Points, const SLOTS: usize, R>(
        &'static self,
        last: &'static LastKey<P, SLOTS>,
        men: Men<P, SLOTS>,
        inputs: impl Fn(usize, usize) -> (usize, usize),
        read: impl FnOnce(&[Accumulator; 2]) -> R,
    ) -> R {
        last.with(|last| {
            let mut last = last.borrow_mut();
            let moved: u32 =
                last.men.0.iter().zip(&men.0).map(|(&a, &b)| a.minus(b).count() + b.minus(a).count()).sum();
            if !std::ptr::eq(last.network, self) || moved > men.count() {
                last.network = self;
                last.views = self.biases();
                men.for_each(|slot, point| {
                    let (w, b) = inputs(slot, point);
                    self.add_input(&mut last.views, w, b);
                });
            } else {
                let Last { views, men: before, .. } = &mut *last;
                for (slot, (&old, &new)) in before.0.iter().zip(&men.0).enumerate() {
                    old.minus(new).for_each(|point| {
                        let (w, b) = inputs(slot, point);
                        self.change_input(views, w, b, false);
                    });
                    new.minus(old).for_each(|point| {
                        let (w, b) = inputs(slot, point);
                        self.change_input(views, w, b, true);
                    });
                }
            }
            last.men = men;
            read(&last.views)
        })
    }
}
