//! The command line: `catchess` alone speaks the engine protocol; the
//! subcommands are tools (perft, ...).

use crate::game::Game;
use crate::perft::{divide, parse_suite, perft};
use crate::variants::VariantKind;
use crate::with_game;
use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(
    name = "catchess",
    version,
    about = "Cat Chess, chess and xiangqi engine. With no subcommand it speaks the UCI-like protocol on stdin/stdout (see protocol.md)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaves of the legal move tree (proves the move generator).
    Perft {
        /// Plies to count. With --suite: the deepest entry depth to run (default: all).
        #[arg(long)]
        depth: Option<u32>,
        /// Start position in (Cat-)FEN; default: the variant's start position.
        #[arg(long)]
        fen: Option<String>,
        /// catchess, chess or xiangqi.
        #[arg(long, default_value = "catchess")]
        variant: VariantKind,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Run every entry of an EPD suite (`<fen> ;D1 n ;D2 n ...`) and report mismatches.
        #[arg(long, conflicts_with_all = ["fen", "divide"])]
        suite: Option<String>,
    },
    /// Search fixed positions of every variant to a fixed depth; prints the
    /// node count (deterministic with one thread) and nodes per second.
    Bench {
        /// Plies per position (default: per variant, a few seconds in all).
        #[arg(long)]
        depth: Option<u32>,
        /// Only this variant (default: all).
        #[arg(long)]
        variant: Option<VariantKind>,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Search threads (the node count is deterministic only with 1).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
}

pub fn run() -> ExitCode {
    crate::attacks::init();
    crate::variants::xiangqi::attacks::init();
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft { depth, fen, variant, divide, suite }) => match suite {
            Some(path) => with_game!(variant, G => run_suite::<G>(&path, depth)),
            None => match depth {
                Some(depth) => {
                    with_game!(variant, G => run_perft::<G>(fen.as_deref(), depth, divide))
                }
                None => Err("perft needs --depth N (or --suite FILE)".to_string()),
            },
        },
        Some(Command::Bench { depth, variant, hash, threads }) => run_bench(depth, variant, hash, threads),
        None => {
            let stdin = std::io::stdin();
            crate::uci::run(stdin.lock(), crate::uci::Output::new(std::io::stdout()));
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn parse_position<G: Game>(fen: Option<&str>) -> Result<G, String> {
    match fen {
        Some(fen) => G::from_fen(fen).map_err(|e| e.to_string()),
        None => Ok(G::startpos()),
    }
}

fn report_speed(nodes: u64, started: Instant) {
    let secs = started.elapsed().as_secs_f64();
    eprintln!("Time: {:.3} s, {:.0} nodes/s", secs, nodes as f64 / secs.max(1e-9));
}

fn run_perft<G: Game>(fen: Option<&str>, depth: u32, show_divide: bool) -> Result<(), String> {
    let pos: G = parse_position(fen)?;
    let started = Instant::now();
    let total = if show_divide {
        let split = divide(&pos, depth);
        for (m, n) in &split {
            println!("{m}: {n}");
        }
        split.iter().map(|(_, n)| n).sum()
    } else {
        perft(&pos, depth)
    };
    println!("Nodes searched: {total}");
    report_speed(total, started);
    Ok(())
}

fn run_suite<G: Game>(path: &str, max_depth: Option<u32>) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let entries = parse_suite(&text).map_err(|e| format!("{path}: {e}"))?;
    let started = Instant::now();
    let (mut checked, mut failed, mut nodes) = (0, 0, 0u64);
    for entry in &entries {
        let pos: G = G::from_fen(&entry.fen).map_err(|e| format!("{path}:{}: {e}", entry.line))?;
        for &(depth, expected) in &entry.counts {
            if max_depth.is_some_and(|max| depth > max) {
                continue;
            }
            let got = perft(&pos, depth);
            nodes += got;
            checked += 1;
            if got == expected {
                println!("ok   line {} D{depth} {got}", entry.line);
            } else {
                failed += 1;
                println!("FAIL line {} D{depth}: expected {expected}, got {got}  ({})", entry.line, entry.fen);
                if depth > 0 {
                    println!("     divide at D{depth}:");
                    for (m, n) in divide(&pos, depth) {
                        println!("     {m}: {n}");
                    }
                }
            }
        }
    }
    println!("{} passed, {} failed", checked - failed, failed);
    report_speed(nodes, started);
    if failed > 0 {
        Err(format!("{failed} perft count(s) differ"))
    } else {
        Ok(())
    }
}

fn run_bench(depth: Option<u32>, variant: Option<VariantKind>, hash: usize, threads: usize) -> Result<(), String> {
    if !(1..=crate::uci::HASH_MAX_MB).contains(&hash) || !(1..=crate::uci::THREADS_MAX).contains(&threads) {
        return Err(format!(
            "--hash must be 1..={} and --threads 1..={}",
            crate::uci::HASH_MAX_MB,
            crate::uci::THREADS_MAX
        ));
    }
    let variants: Vec<VariantKind> = match variant {
        Some(v) => vec![v],
        None => VariantKind::ALL.to_vec(),
    };
    let (mut nodes, mut secs) = (0u64, 0f64);
    for v in variants {
        let report = crate::bench::run(v, depth, hash, threads);
        println!("{} depth {}:", v, report.depth);
        for (i, (fen, n)) in report.per_position.iter().enumerate() {
            println!("{:>3} {:>12}  {}", i + 1, n, fen);
        }
        let t = report.time.as_secs_f64();
        println!("{}: {} nodes in {:.3} s, {:.0} nodes/s", v, report.nodes, t, report.nodes as f64 / t.max(1e-9));
        nodes += report.nodes;
        secs += t;
    }
    println!("Total nodes: {nodes}");
    println!("Nodes/second: {:.0}", nodes as f64 / secs.max(1e-9));
    Ok(())
}
