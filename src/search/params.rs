//! The search's tunable numbers, in one place so a tuning run or a match
//! changes them here and nowhere else.

use once_cell::sync::Lazy;

/// Reverse futility pruning: a node whose static value beats beta by this
/// much per ply of depth left is cut without a search.
pub const RFP_MARGIN: i32 = 85;
pub const RFP_MAX_DEPTH: i32 = 7;

/// Null-move pruning from this depth on, reduced by `NMP_BASE + depth / NMP_DIVISOR`.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE: i32 = 3;
pub const NMP_DIVISOR: i32 = 4;

/// Internal iterative reduction: a node without a hash move from this
/// depth on is searched one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Futility pruning of quiet moves near the leaves.
pub const FUTILITY_MAX_DEPTH: i32 = 6;
pub const FUTILITY_BASE: i32 = 100;
pub const FUTILITY_PER_DEPTH: i32 = 90;

/// Late-move pruning: quiet moves beyond this count (by depth) are skipped.
pub const LMP_MAX_DEPTH: i32 = 6;
pub fn lmp_limit(depth: i32, improving: bool) -> usize {
    let base = 3 + depth * depth;
    (if improving { base } else { base / 2 + 1 }) as usize
}

/// Captures losing more than this per ply of depth are skipped near the leaves.
pub const SEE_PRUNE_PER_DEPTH: i32 = -90;
pub const SEE_PRUNE_MAX_DEPTH: i32 = 6;

/// Quiescence: cat steps are tried at the cats' turn only this many plies
/// into it, and checks are answered move by move only this deep.
pub const QS_CAT_STEP_PLIES: usize = 4;
pub const QS_EVASION_PLIES: usize = 8;

/// A move into a chance position (a roll its mover asks for: the
/// teleport of Cat's Chess 10×10) is searched only this many plies from
/// the root, and a chance node's outcomes below the root's own roll this
/// many plies shallower (`CHANCE_REDUCTION`): each outcome is a
/// full-window search of its own, and a teleport has dozens.
/// `catchess bench --variant catschess10` (20 plies), nodes: 3.34 M
/// before teleports were searched; 2.99 M with the request never searched
/// (the request ordered last changes the order a little); at every ply,
/// more than 10 minutes even reduced by 4; root only, unreduced 35.4 M,
/// reduced by 2 16.1 M, by 4 6.78 M; up to ply 6 reduced by 4, 7.28 M.
/// But a roll searched shallower than its sibling moves ends mid-turn,
/// before the opponent answers, and looks better than it is (the engine
/// rerolled a mouse beside its own king), so the root's own roll is
/// searched unreduced after a reduced probe (`chance.rs`): 45.6 M, since
/// in most bench positions the mover has no `T` and a teleport is a real
/// gain (a new `T`) that has to be valued. The request is ordered last
/// (`SearchGame::order_last`), so near the leaves late-move pruning drops
/// it and the plies below the root cost little.
pub const CHANCE_MAX_PLY: usize = 6;
pub const CHANCE_REDUCTION: i32 = 4;
/// The root's own roll is searched unreduced unless a reduced probe finds
/// it this far below alpha (`chance.rs`).
pub const CHANCE_PROBE_MARGIN: i32 = 100;

/// Aspiration window half-width at the root, from this depth on.
pub const ASPIRATION_WINDOW: i32 = 25;
pub const ASPIRATION_MIN_DEPTH: i32 = 5;

/// Late-move reductions: `LMR[depth][move number]` in plies.
pub static LMR: Lazy<[[i32; 64]; 64]> = Lazy::new(|| {
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32;
        }
    }
    t
});

pub fn lmr(depth: i32, moves_searched: usize) -> i32 {
    LMR[(depth as usize).min(63)][moves_searched.min(63)]
}
