//! The bench node count of every game, pinned (#60): the fingerprint of the
//! search and the evaluation (`catchess bench`, 16 MiB, one thread). A
//! change that is meant to alter the search changes the number here and
//! says so in its commit message (`Bench: chess N, ...`, as Stockfish's
//! commits do); a change that is not meant to (a refactor, a speed-up)
//! must leave every number as it is.

mod common;

use common::run::catchess;

/// The node counts, by game; update with the commit that changes them.
const BENCH: [(&str, u64); 4] =
    [("chess", 5_020_904), ("xiangqi", 3_228_860), ("catchess", 4_779_713), ("catschess10", 118_213)];

fn nodes_of(variant: &str) -> u64 {
    let (ok, out, err) = catchess(&["bench", "--variant", variant]);
    assert!(ok, "bench --variant {variant}: {err}");
    let line = out.lines().find(|l| l.starts_with("Nodes searched")).unwrap_or_else(|| panic!("no node count: {out}"));
    line.rsplit(' ').next().unwrap().parse().unwrap()
}

#[test]
fn chess_bench_is_pinned() {
    assert_eq!(("chess", nodes_of("chess")), BENCH[0]);
}

#[test]
fn xiangqi_bench_is_pinned() {
    assert_eq!(("xiangqi", nodes_of("xiangqi")), BENCH[1]);
}

#[test]
fn catchess_bench_is_pinned() {
    assert_eq!(("catchess", nodes_of("catchess")), BENCH[2]);
}

#[test]
fn catschess10_bench_is_pinned() {
    assert_eq!(("catschess10", nodes_of("catschess10")), BENCH[3]);
}
