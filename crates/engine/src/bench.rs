//! `catchess bench`: each game's fixed positions (`SearchGame::BENCH`, every
//! seat to move), each searched to a fixed depth from a cleared table. With
//! one thread the node count is the same on every machine and every run,
//! so it fingerprints the search (a change that alters it changes the
//! search), and nodes per second measures its speed. [`command`] is
//! `catchess bench`: standard chess unless a game (`--variant`) or every
//! game (`--all`) is asked for, its numbers checked, and Stockfish's
//! closing lines, which OpenBench reads (the last line that matches its
//! node pattern, and its speed pattern).

use crate::defaults;
use catchess_game::History;
use catchess_games::with_game;
use catchess_games::Playable;
use catchess_games::VariantKind;
use catchess_search::{Limits, SearchControl, Searcher};
use std::time::{Duration, Instant};

/// The outcome of one variant's bench.
#[derive(Clone, Debug)]
pub struct BenchReport {
    pub variant: VariantKind,
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
    /// (position, nodes) in order.
    pub per_position: Vec<(&'static str, u64)>,
}

fn bench_game<G: Playable>(variant: VariantKind, depth: Option<u32>, hash_mb: usize, threads: usize) -> BenchReport {
    let depth = depth.unwrap_or(G::BENCH_DEPTH);
    let mut searcher = Searcher::<G>::new(hash_mb);
    searcher.set_threads(threads);
    let limits = Limits { depth: Some(depth), ..Default::default() };
    let control = SearchControl::new();
    let mut report = BenchReport { variant, depth, nodes: 0, time: Duration::ZERO, per_position: Vec::new() };
    for fen in G::BENCH {
        let pos = G::from_fen(fen).expect("bench positions are valid (a test checks them)");
        searcher.clear();
        let started = Instant::now();
        let result = searcher.search(&History::new(pos), &limits, &control, &mut |_| {});
        report.time += started.elapsed();
        report.nodes += result.nodes;
        report.per_position.push((fen, result.nodes));
    }
    report
}

/// Runs the bench of `variant` (its default depth unless given).
pub fn run(variant: VariantKind, depth: Option<u32>, hash_mb: usize, threads: usize) -> BenchReport {
    with_game!(variant, G => bench_game::<G>(variant, depth, hash_mb, threads))
}

/// The games a bench searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Games {
    One(VariantKind),
    /// Every game, in `VariantKind::ALL` order.
    All,
}

/// `catchess bench`: the numbers as given (positional or flag; `None`
/// for the defaults), one game (by default `BENCH_GAME`) or all, standard
/// chess's network from `eval_file` if given.
pub fn command(
    hash: Option<String>,
    threads: Option<String>,
    depth: Option<String>,
    games: Games,
    eval_file: Option<String>,
) -> Result<(), String> {
    let args = BenchArgs::parse(hash, threads, depth)?;
    if let Some(file) = eval_file {
        choose_eval_file(&file).map_err(|e| format!("bench: {e}"))?;
    }
    print_bench(args, games);
    Ok(())
}

/// Chooses, for this process, what the games evaluate with, as the
/// protocol's `EvalFile` does: a network file (for the game its first bytes
/// name), `<built-in>` or `<none>`. For the commands that search without
/// the protocol (`bench --eval-file`, `datagen --eval-file`).
pub fn choose_eval_file(file: &str) -> Result<(), String> {
    (catchess_games::nnue::EVAL_FILE.set)(file, &mut || {}).map(|_changed| ())
}

/// The numbers of `catchess bench`, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchArgs {
    hash: usize,
    threads: usize,
    depth: Option<u32>,
}

impl BenchArgs {
    /// From the text of each (positional or flag), with the defaults.
    pub fn parse(hash: Option<String>, threads: Option<String>, depth: Option<String>) -> Result<BenchArgs, String> {
        fn number(what: &str, text: Option<String>, max: usize) -> Result<Option<usize>, String> {
            let Some(text) = text else { return Ok(None) };
            match text.parse::<usize>() {
                Ok(n) if (1..=max).contains(&n) => Ok(Some(n)),
                _ => Err(format!("bench: {what} must be a whole number in 1..={max}, got {text:?}")),
            }
        }
        let hash = number("hash (MiB)", hash, defaults::HASH_MAX_MB)?.unwrap_or(defaults::HASH_MB);
        let threads = number("threads", threads, defaults::THREADS_MAX)?.unwrap_or(defaults::THREADS);
        let depth = number("depth", depth, catchess_search::MAX_DEPTH as usize)?.map(|d| d as u32);
        Ok(BenchArgs { hash, threads, depth })
    }
}

fn print_bench(args: BenchArgs, games: Games) {
    let variants: Vec<VariantKind> = match games {
        Games::One(v) => vec![v],
        Games::All => VariantKind::ALL.to_vec(),
    };
    let (mut nodes, mut secs) = (0u64, 0f64);
    for v in variants {
        let report = run(v, args.depth, args.hash, args.threads);
        println!("{} depth {}:", v, report.depth);
        for (i, (fen, n)) in report.per_position.iter().enumerate() {
            println!("{:>3} {:>12}  {}", i + 1, n, fen);
        }
        let t = report.time.as_secs_f64();
        println!("{}: {} nodes in {:.3} s, {:.0} nodes/s", v, report.nodes, t, report.nodes as f64 / t.max(1e-9));
        nodes += report.nodes;
        secs += t;
    }
    // Stockfish's closing lines, spacing included: tools such as OpenBench
    // read them.
    println!("===========================");
    println!("Total time (ms) : {:.0}", secs * 1000.0);
    println!("Nodes searched  : {nodes}");
    println!("Nodes/second    : {:.0}", nodes as f64 / secs.max(1e-9));
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_game::{Game, Seat};
    use catchess_search::SearchGame;

    fn seats_to_move<G: Playable>() -> Vec<Seat> {
        let mut seats: Vec<Seat> = G::BENCH.iter().map(|f| G::from_fen(f).unwrap().to_move()).collect();
        seats.sort();
        seats.dedup();
        seats
    }

    #[test]
    fn bench_positions_parse_and_cover_every_seat_to_move() {
        for &v in VariantKind::ALL {
            let (seats, all) = with_game!(v, G => (seats_to_move::<G>(), G::SEATS.len()));
            assert_eq!(seats.len(), all, "{v}");
        }
    }

    #[test]
    fn the_node_count_is_deterministic_with_one_thread() {
        let a = run(VariantKind::CatChess, Some(4), 4, 1);
        let b = run(VariantKind::CatChess, Some(4), 4, 1);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.per_position.len(), catchess_games::CatChess::BENCH.len());
        let c = run(VariantKind::Chess, Some(5), 4, 1);
        assert_eq!(c.nodes, run(VariantKind::Chess, Some(5), 4, 1).nodes);
    }

    fn args(hash: Option<&str>, threads: Option<&str>, depth: Option<&str>) -> Result<BenchArgs, String> {
        BenchArgs::parse(hash.map(String::from), threads.map(String::from), depth.map(String::from))
    }

    #[test]
    fn bench_numbers_default_and_are_checked() {
        assert_eq!(args(None, None, None), Ok(BenchArgs { hash: 16, threads: 1, depth: None }));
        assert_eq!(args(Some("32"), Some("2"), Some("13")), Ok(BenchArgs { hash: 32, threads: 2, depth: Some(13) }));
        for (bad, what) in [
            (args(Some("0"), None, None), "hash (MiB)"),
            (args(Some("x"), None, None), "hash (MiB)"),
            (args(None, Some("0"), None), "threads"),
            (args(None, Some("-1"), None), "threads"),
            (args(None, None, Some("0")), "depth"),
            (args(None, None, Some("101")), "depth"),
            (args(None, None, Some("99999999999999999999999")), "depth"),
        ] {
            let e = bad.unwrap_err();
            assert!(e.contains(what) && e.contains("must be a whole number"), "{e}");
        }
    }
}
