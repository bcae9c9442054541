//! Perft: counting the leaves of the legal move tree, the standard proof of
//! a move generator. One generic implementation serves every game: the
//! `catchess perft` command, the protocol's `go perft` and the web API's
//! perft all count with it.

use super::{Game, MoveList};
use std::fmt;

/// The deepest count perft takes, in turns. No game's count finishes
/// beyond about 15 turns, and the recursion takes a stack frame per step
/// (a few per turn in Cat's Chess 10×10), so a deeper request is refused
/// ([`TooDeep`]) rather than run into the end of a thread's stack.
/// `perft_recursion_fits_a_small_stack_at_the_deepest_count` checks the
/// frames at this depth fit in half of a spawned thread's 2 MiB.
pub const MAX_DEPTH: u32 = 32;

/// A perft depth beyond [`MAX_DEPTH`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooDeep(pub u32);

impl fmt::Display for TooDeep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "perft depth {} is too deep: at most {MAX_DEPTH} turns (a deeper count could never finish)", self.0)
    }
}

impl std::error::Error for TooDeep {}

/// `depth`, if perft takes it.
pub fn checked_depth(depth: u32) -> Result<u32, TooDeep> {
    if depth > MAX_DEPTH {
        Err(TooDeep(depth))
    } else {
        Ok(depth)
    }
}

/// Leaves `depth` turns below `pos` (RULES.md §10: cats' plies and passes
/// count; draw rules are not applied). In a game of one move a turn the
/// last ply is counted, not played; in a game whose turns take several
/// steps every distinct step sequence of a turn is one node. Perft counts
/// choices, not rolls: a move into a chance position (`Game::is_chance`,
/// a die to be rolled) is not followed. For tests and benches: `depth`
/// must be at most [`MAX_DEPTH`] (outside input goes through
/// [`divide_with`], which refuses it).
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    assert!(depth <= MAX_DEPTH, "{}", TooDeep(depth));
    count(pos, depth, &|| false).expect("never stopped")
}

/// `perft`, or `None` once `stopped` says so. It is asked only at nodes
/// three or more turns above the leaves (two in a game of several steps
/// a turn, whose turns are many): a deep count stops within milliseconds,
/// and the leaves pay nothing.
fn count<G: Game>(pos: &G, depth: u32, stopped: &dyn Fn() -> bool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if depth == 1 && G::ONE_MOVE_TURNS {
        return Some(pos.count_legal_moves());
    }
    let asks_from = if G::ONE_MOVE_TURNS { 3 } else { 2 };
    if depth >= asks_from && stopped() {
        return None;
    }
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    list.iter()
        .map(|&m| {
            let child = pos.play(m);
            if child.is_chance() {
                return Some(0);
            }
            count(&child, turns_left(&child, depth), stopped)
        })
        .sum()
}

/// The turns still to count below `child`, a position `depth` turns above
/// the leaves: one fewer once a new turn begins there.
#[inline(always)]
fn turns_left<G: Game>(child: &G, depth: u32) -> u32 {
    if child.at_turn_start() {
        depth - 1
    } else {
        depth
    }
}

/// Perft split by root turn, in move-generation order: each turn's steps
/// (one move in most games) and its count.
pub fn divide<G: Game>(pos: &G, depth: u32) -> Vec<(Vec<G::Move>, u64)> {
    let mut split = Vec::new();
    let total = divide_with(pos, depth, &|| false, |steps, n| split.push((steps.to_vec(), n)));
    total.unwrap_or_else(|e| panic!("{e}"));
    split
}

/// Perft split by root turn: `on_root(steps, count)` as each root turn's
/// count finishes (progress for a deep count), then the total; `None` if
/// `stopped` cut it short. At depth 0 there are no root turns and the
/// total is 1, as for [`perft`]. A depth beyond [`MAX_DEPTH`] is refused
/// before anything is counted.
pub fn divide_with<G: Game>(
    pos: &G,
    depth: u32,
    stopped: &dyn Fn() -> bool,
    mut on_root: impl FnMut(&[G::Move], u64),
) -> Result<Option<u64>, TooDeep> {
    let depth = checked_depth(depth)?;
    if depth == 0 {
        return Ok(Some(1));
    }
    Ok(split(pos, depth, stopped, &mut Vec::new(), &mut on_root))
}

/// The steps of the root turn so far are `steps`; `pos` is where they lead.
fn split<G: Game>(
    pos: &G,
    depth: u32,
    stopped: &dyn Fn() -> bool,
    steps: &mut Vec<G::Move>,
    on_root: &mut impl FnMut(&[G::Move], u64),
) -> Option<u64> {
    // Asked at every root step too: below a root turn `count` asks only
    // three turns above the leaves, never in a count of depth 3 or less,
    // whose root turns alone can take long in a game of many steps.
    if stopped() {
        return None;
    }
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    let mut total = 0;
    for &m in &list {
        let child = pos.play(m);
        if child.is_chance() {
            continue;
        }
        steps.push(m);
        let n = if child.at_turn_start() {
            let n = count(&child, depth - 1, stopped)?;
            on_root(steps, n);
            n
        } else {
            split(&child, depth, stopped, steps, on_root)?
        };
        steps.pop();
        total += n;
    }
    Some(total)
}
