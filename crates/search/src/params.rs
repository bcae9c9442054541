//! The search's tunable numbers, in one place so a tuning run or a match
//! changes them here and nowhere else: the pruning, reduction and ordering
//! margins of `pvs.rs`, `worker.rs` and `movepick.rs` (the `tunables!`
//! block: a UCI option each in the `tune` build, see `tunable.rs`), the
//! rolls of `chance.rs`, quiescence's depths, and the time budgets of
//! `timeman.rs`.

use super::tunable::tunables;
use once_cell::sync::Lazy;
use std::time::Duration;

tunables! {
    /// Reverse futility pruning: a node whose static value beats beta by this
    /// much per ply of depth left is cut without a search, up to
    /// `rfp_max_depth`.
    rfp_margin: i32 = 85, 40..=150, step 8;
    rfp_max_depth: i32 = 7, 3..=12, step 1;

    /// Null-move pruning from this depth on, reduced by `nmp_base + depth /
    /// nmp_divisor` ...
    nmp_min_depth: i32 = 3, 1..=6, step 1;
    nmp_base: i32 = 3, 1..=6, step 1;
    nmp_divisor: i32 = 4, 2..=8, step 1;
    /// ... plus one ply per `nmp_eval_divisor` the static value beats beta
    /// by, at most `nmp_eval_max` plies.
    nmp_eval_divisor: i32 = 200, 80..=400, step 20;
    nmp_eval_max: i32 = 3, 0..=6, step 1;

    /// Internal iterative reduction: a node without a hash move from this
    /// depth on is searched one ply shallower.
    iir_min_depth: i32 = 4, 2..=8, step 1;

    /// Singular extensions: from `se_min_depth` on, a hash move stored with a
    /// lower (or exact) bound at most `se_tt_depth_margin` plies shallower is
    /// tested by a search of the node without it, half as deep, against
    /// `se_margin` per ply below its stored value. If every other move fails
    /// below that, the hash move is singular and is searched a ply deeper; if
    /// another move reaches it too and the bar is at least beta, the node is
    /// cut (multi-cut); if only the stored value beats beta, the hash move is
    /// searched a ply shallower (negative extension). A first version from
    /// depth 6 with 1 per ply extended 46 % of the moves it tested and scored
    /// −23 Elo (docs/search-log.md, B).
    se_min_depth: i32 = 8, 4..=12, step 1;
    se_tt_depth_margin: i32 = 3, 1..=6, step 1;
    se_margin: i32 = 2, 1..=6, step 1;

    /// Futility pruning of quiet moves near the leaves: up to
    /// `futility_max_depth`, when the static value plus `futility_base` and
    /// `futility_per_depth` a ply stays at or below alpha.
    futility_max_depth: i32 = 6, 2..=10, step 1;
    futility_base: i32 = 100, 20..=250, step 15;
    futility_per_depth: i32 = 90, 30..=200, step 10;

    /// Late-move pruning: quiet moves beyond `lmp_limit` (by depth) are
    /// skipped, up to this depth.
    lmp_max_depth: i32 = 6, 2..=10, step 1;

    /// Captures losing more than this per ply of depth are skipped near the
    /// leaves (up to `see_prune_max_depth`).
    see_prune_per_depth: i32 = -90, -200..=-20, step 10;
    see_prune_max_depth: i32 = 6, 2..=10, step 1;

    /// Aspiration window half-width at the root, from `aspiration_min_depth`
    /// on.
    aspiration_window: i32 = 25, 8..=60, step 4;
    aspiration_min_depth: i32 = 5, 2..=10, step 1;
    /// The window doubles on each failure; once wider than this it opens fully.
    aspiration_max_delta: i32 = 1000, 300..=3000, step 100;

    /// Late-move reductions apply from this depth on, to quiet moves and
    /// losing captures after the first `lmr_min_moves` (one more at a PV
    /// node); a quiet move's full history (its own plus its continuation
    /// history after each of the two moves before, each table within
    /// ±16384) lowers its reduction by a ply per `lmr_history_divisor`.
    lmr_min_depth: i32 = 3, 1..=6, step 1;
    lmr_min_moves: usize = 2, 1..=6, step 1;
    lmr_history_divisor: i32 = 10000, 3000..=30000, step 1000;
    /// At an expected cut node (a node searched with a null window that a
    /// reduced search or a full-depth re-search of a cut node's child reached)
    /// a late move is reduced this much more: one of the moves before it
    /// likely refutes already.
    lmr_cut_node: i32 = 1, 0..=3, step 1;
    /// A quiet move is reduced this much more when the hash move is a capture:
    /// the node's best is likely that capture.
    lmr_tt_capture: i32 = 1, 0..=3, step 1;
    /// A losing capture's reduction: the quiet reduction over this, less a ply
    /// per `lmr_capture_history_divisor` of its capture history.
    lmr_bad_capture_divisor: i32 = 2, 1..=4, step 1;
    lmr_capture_history_divisor: i32 = 8000, 2000..=20000, step 800;

    /// Capture ordering: a capture's ordering value (victim × 8 in SEE units,
    /// less the attacker) plus its capture history over this.
    capture_order_divisor: i32 = 12, 4..=32, step 2;

    /// History pruning: up to this depth, a quiet move whose full history
    /// (see `lmr_history_divisor`) is below `-history_prune_margin × depth`
    /// is skipped, as futility and move-count pruning skip.
    history_prune_max_depth: i32 = 4, 1..=8, step 1;
    history_prune_margin: i32 = 2500, 500..=6000, step 250;

    /// SEE pruning of quiet moves: a quiet move that loses more than
    /// `quiet_see_margin × d²` in exchanges is skipped, where `d` is the depth
    /// it would be searched at after its late-move reduction (at most
    /// `quiet_see_max_depth`).
    quiet_see_margin: i32 = 20, 5..=60, step 3;
    quiet_see_max_depth: i32 = 8, 3..=12, step 1;
}

/// Late-move pruning: the quiet moves searched at `depth` before the rest
/// are skipped (up to `lmp_max_depth`).
pub fn lmp_limit(depth: i32, improving: bool) -> usize {
    let base = 3 + depth * depth;
    (if improving { base } else { base / 2 + 1 }) as usize
}

/// Quiescence: cat steps are tried at the cats' turn only this many plies
/// into it, and checks are answered move by move only this deep.
pub const QS_CAT_STEP_PLIES: usize = 4;
pub const QS_EVASION_PLIES: usize = 8;

/// Rolls (the teleport of Cat's Chess 10×10; `chance.rs`). A move into a
/// roll is searched only `CHANCE_MAX_PLY` plies from the root, and a roll
/// below the root's own `CHANCE_REDUCTION` plies shallower; quiescence
/// never asks for one. `catchess bench --variant catschess10 --depth D`,
/// nodes for the five positions together:
///
/// | how rolls are searched                                  | D = 10 | D = 12  |
/// |---------------------------------------------------------|--------|---------|
/// | never (no teleport)                                     | 0.07 M | 0.23 M  |
/// | root only, every outcome exact, quiescence rolling too  | 20.5 M | —       |
/// | root only, proof first, exact only when it cannot settle | 1.63 M | 4.41 M |
/// | to ply 6, proof first (these values)                    | 2.72 M | 6.06 M  |
/// | every ply, proof first                                  | 46.5 M | 235 M   |
///
/// (Measured with the root's own roll unreduced; it now is reduced, see
/// `CHANCE_ROOT_REDUCTION` below and `chance.rs` for the counts since.)
///
/// Most of the old cost was quiescence: answering a "check" it tried
/// every move, the request too, and rolled sixty outcomes at every
/// level (one outcome position: 42 M nodes at depth 8, 0.15 M without).
/// An exact expectation makes every outcome a principal variation: the
/// teleport costs what dozens of root searches cost, and the proof (a
/// null window per outcome) is what keeps the rest affordable.
///
/// Rolls only at the root (1) since issue #44's match at a real clock:
/// self-play at 10+0.1, 200 games, seed 4402, rolls to ply 6 against rolls
/// only at the root scored 72-128, Elo −100 (95 %: −154 to −50), one time
/// forfeit; an earlier 50-game run gave −85. The rolls below the root cost
/// more depth than the chance of a teleport two plies on is worth.
pub const CHANCE_MAX_PLY: usize = 1;
pub const CHANCE_REDUCTION: i32 = 4;
/// The first window of an outcome's exact search, each side of its guess.
pub const CHANCE_WINDOW: i32 = 40;
/// Null-window passes over a roll's outcomes to prove on which side of
/// the window its expectation lies, before it is searched exactly.
pub const CHANCE_PROOF_PASSES: usize = 3;

/// The root's own roll is searched this many plies shallower than the
/// moves beside it (its outcomes `depth - 1 - CHANCE_ROOT_REDUCTION`
/// deep), so that its cost grows with the iteration's depth as theirs
/// does, but its outcomes at least `CHANCE_ROOT_MIN_DEPTH` deep (or as
/// deep as the moves beside it, if less): the teleported cat's own step
/// is seen. See `chance.rs`'s note for the measurements.
pub const CHANCE_ROOT_REDUCTION: i32 = 6;
pub const CHANCE_ROOT_MIN_DEPTH: i32 = 2;
/// The root's own reroll (the engine deciding after `T?<sq>` between
/// keeping a mouse's square and rolling again) has only that choice to
/// make: its outcomes at least this deep, the rest of the turn and the
/// opponent's answer, so that a reroll that loses the king at once is
/// seen to (`tests/catschess10_protocol.rs`, `MOUSE_BY_THE_KING`: at 2
/// plies it chose the reroll).
pub const CHANCE_REROLL_MIN_DEPTH: i32 = 5;

/// A pass of the proof (`chance.rs`) stops early once a quarter (1 / `CHANCE_ABORT_AFTER_SHARE`)
/// of the outcomes' weight has been searched and more than a third
/// (1 / `CHANCE_ABORT_WRONG_SHARE`) of that came out on the wrong side of its
/// target; the next pass then sets its targets from the values learnt.
/// An aborted pass does not count as one of `CHANCE_PROOF_PASSES`, but
/// more than that many aborts end the proof too.
pub const CHANCE_ABORT_AFTER_SHARE: i64 = 4;
pub const CHANCE_ABORT_WRONG_SHARE: i64 = 3;

/// Helper threads (lazy SMP) skip the depths where `(depth + id) %
/// HELPER_SKIP_CYCLE == 0`, so that they spread over depths and fill the
/// table ahead of the main thread.
pub const HELPER_SKIP_CYCLE: i32 = 3;

/// Nodes between looks at the clock, the node limit and the stop flag.
pub const CHECK_EVERY: u64 = 512;

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

/// A share of a duration, `numerator / denominator`, computed exactly in
/// whole nanoseconds (multiply first, then divide) as the time manager
/// always has.
#[derive(Clone, Copy, Debug)]
pub struct Share(pub u32, pub u32);

impl Share {
    pub fn of(self, d: Duration) -> Duration {
        d * self.0 / self.1
    }
}

/// Moves a clock is assumed to cover when `movestogo` is not given. With
/// an increment the clock settles where the soft limit is about what the
/// increment gives back, so a larger count only leaves time unused: at 30,
/// games against Stockfish at 10 s + 0.1 s ended after 50 moves with a
/// third of the clock left (Stockfish had used nearly all of it).
pub const DEFAULT_MOVES_TO_GO: u32 = 20;
/// `movestogo` is read as at most this many moves.
pub const MAX_MOVES_TO_GO: u32 = 60;
/// The soft limit: the usable clock over the moves to go, plus this share
/// of the increment, but never more than `SOFT_MAX_SHARE` of the clock.
pub const SOFT_INCREMENT_SHARE: Share = Share(3, 4);
pub const SOFT_MAX_SHARE: Share = Share(2, 5);
/// The hard limit: `HARD_PER_SOFT` soft limits, but never more than
/// `HARD_MAX_SHARE` of the usable clock (nor less than the soft limit).
pub const HARD_PER_SOFT: u32 = 4;
pub const HARD_MAX_SHARE: Share = Share(3, 5);
/// Another iteration starts only while less than this share of the
/// (scaled) soft limit is spent: the next one would not finish in time.
/// At one half, with the soft limit shrunk for a settled best move, the
/// engine ended its 10+0.1 games with 3 s of its clock unused (median);
/// at 0.8 it uses 92 % of the clock as Stockfish uses 97 %, and scored
/// 46.2 % against 40.5 % (chess, 200 games each against Stockfish
/// `UCI_Elo 2400`; xiangqi 64.2 % against 62.2 %: docs/search-log.md).
pub const ITERATION_GATE: f64 = 0.8;
/// The soft limit's factor by how many iterations in a row kept the best
/// move (0, 1, 2, 3, 4 or more).
pub const KEPT_SCALE: [f64; 5] = [2.5, 1.2, 0.9, 0.8, 0.75];
/// The soft limit's factor by the share `s` of nodes spent below the best
/// move is `(SHARE_PIVOT − s) · SHARE_GAIN`: 1 at about a 76 % share, 2 when
/// the best move took almost none of the nodes (a close contest), 0.675
/// when it took them all.
pub const SHARE_PIVOT: f64 = 1.5;
pub const SHARE_GAIN: f64 = 1.35;

/// Correction history (`correction.rs`): the static value is corrected by
/// a weighted mean of what each of the game's keys (`SearchGame::
/// correction_keys`: chess's pawn structure, then each side's other
/// pieces) and the move before learnt about its error. Weights per key in
/// the game's order, then the move before's.
pub const CORRECTION_KEY_WEIGHTS: [i32; 3] = [4, 3, 3];
pub const CORRECTION_MOVE_WEIGHT: i32 = 2;
/// A search of depth d moves an entry (d + 1)² / `CORRECTION_RATE` of the
/// way to the error it found, at most `CORRECTION_MAX_PARTS` parts: a
/// deeper search knows the value better.
pub const CORRECTION_RATE: i32 = 256;
pub const CORRECTION_MAX_PARTS: i32 = 64;
/// The most a correction (and each entry) may be, in centipawns.
pub const CORRECTION_LIMIT: i32 = 128;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_is_within_its_range_and_can_move() {
        for t in TUNABLES {
            assert!((t.min..=t.max).contains(&t.default), "{t:?}");
            assert!(t.step >= 1 && t.step <= t.max - t.min, "{t:?}");
            // A divisor the tuner may set never divides by zero.
            if t.name.ends_with("divisor") {
                assert!(t.min >= 1, "{t:?}");
            }
        }
        let mut names: Vec<&str> = TUNABLES.iter().map(|t| t.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TUNABLES.len(), "no name twice");
    }

    #[test]
    fn each_function_returns_its_default_here() {
        // In the default build (and the `tune` build before any setoption).
        assert_eq!((rfp_margin(), see_prune_per_depth(), lmr_min_moves()), (85, -90, 2));
        assert_eq!(TUNABLES[0].name, "rfp_margin");
        let default = |name: &str| TUNABLES.iter().find(|t| t.name == name).unwrap().default;
        assert_eq!(default("history_prune_margin"), history_prune_margin());
        assert_eq!(default("aspiration_max_delta"), aspiration_max_delta());
    }

    #[test]
    fn spsa_and_uci_lines_and_values() {
        let t = TUNABLES.iter().find(|t| t.name == "see_prune_per_depth").unwrap();
        assert_eq!(t.spsa_line(), "see_prune_per_depth, int, -90, -200, -20, 10, 0.002");
        assert_eq!(t.uci_line(), "option name see_prune_per_depth type spin default -90 min -200 max -20");
        assert_eq!(t.read("-100"), Ok(-100));
        for bad in ["-201", "0", "x", ""] {
            assert!(t.read(bad).unwrap_err().contains("from -200 to -20"), "{bad}");
        }
    }

    #[cfg(feature = "tune")]
    #[test]
    fn the_tune_build_sets_a_value_within_its_range() {
        assert_eq!(set_tunable("QUIET_SEE_MARGIN", "33"), Some(Ok(())));
        assert_eq!(quiet_see_margin(), 33);
        assert!(set_tunable("quiet_see_margin", "61").unwrap().is_err());
        assert_eq!(quiet_see_margin(), 33, "a value out of range changes nothing");
        assert_eq!(set_tunable("no_such_parameter", "1"), None);
        assert_eq!(set_tunable("quiet_see_margin", "20"), Some(Ok(())));
    }
}
