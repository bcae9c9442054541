//! The bench node count of every game, pinned (`tests/bench_nodes.rs`;
//! `tests/openbench.rs` reads chess's from a binary built by `make`).

/// The node counts, by game; update with the commit that changes them.
pub const BENCH: [(&str, u64); 4] =
    [("chess", 5_020_904), ("xiangqi", 3_228_860), ("catchess", 4_779_713), ("catschess10", 118_213)];
