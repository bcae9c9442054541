//! The bench node count of every game, pinned (#60): the fingerprint of the
//! search and the evaluation (`catchess bench --variant V`, 16 MiB, one
//! thread; `catchess bench` alone is standard chess's, which OpenBench
//! runs, and `--all` runs every game's one after the other, #64). A
//! change that is meant to alter the search changes the number here and
//! says so in its commit message (`Bench: chess N, ...`, as Stockfish's
//! commits do); a change that is not meant to (a refactor, a speed-up)
//! must leave every number as it is.

mod common;

use common::bench::BENCH;
use common::run::catchess;

/// The bench's output and its closing node count.
fn bench(args: &[&str]) -> (String, u64) {
    let (ok, out, err) = catchess(&[&["bench"], args].concat());
    assert!(ok, "bench {args:?}: {err}");
    let line = out.lines().find(|l| l.starts_with("Nodes searched")).unwrap_or_else(|| panic!("no node count: {out}"));
    let nodes = line.rsplit(' ').next().unwrap().parse().unwrap();
    (out, nodes)
}

fn nodes_of(variant: &str) -> u64 {
    bench(&["--variant", variant]).1
}

/// The games a bench searched, by their `<game> depth <d>:` headers.
fn games_in(out: &str) -> Vec<&str> {
    out.lines().filter_map(|l| l.split_once(" depth ").filter(|(_, d)| d.ends_with(':')).map(|(g, _)| g)).collect()
}

#[test]
fn the_bench_alone_is_standard_chess() {
    let (out, nodes) = bench(&[]);
    assert_eq!(games_in(&out), ["chess"]);
    assert_eq!(("chess", nodes), BENCH[0]);
}

#[test]
fn the_bench_of_every_game_is_each_games_bench() {
    // At depth 3, a second in all: the same counts as one game at a time.
    let (out, total) = bench(&["--all", "--depth", "3"]);
    assert_eq!(games_in(&out), ["catchess", "chess", "xiangqi", "catschess10"]);
    let each: u64 = games_in(&out).iter().map(|g| bench(&["--variant", g, "--depth", "3"]).1).sum();
    assert_eq!(total, each);
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
