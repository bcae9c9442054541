//! Every perft suite entry, up to a node budget that keeps `cargo test`
//! quick; `cargo test -- --ignored` runs every depth.

use catchess::game::perft::{checked_depth, divide, divide_with, perft, TooDeep, MAX_DEPTH};
use catchess::perft::parse_suite;
use catchess::{CatChess, CatsChess10, Chess, Notation, Xiangqi};
use catchess::{Game, VariantKind};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Largest expected count run by the default test run.
const BUDGET: u64 = 20_000_000;

fn run_suite<G: Notation>(path: &str, budget: u64) -> usize {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let entries = parse_suite(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(!entries.is_empty(), "{path} has no entries");
    let mut checked = 0;
    for entry in entries {
        let pos = G::from_fen(&entry.fen).unwrap_or_else(|e| panic!("{path}:{}: {e}", entry.line));
        for (depth, expected) in entry.counts {
            if expected > budget {
                continue;
            }
            let got = perft(&pos, depth);
            if got != expected {
                let split: Vec<String> =
                    divide(&pos, depth).iter().map(|(steps, n)| format!("{}: {n}", pos.turn_text(steps))).collect();
                panic!("{path}:{} D{depth}: expected {expected}, got {got}\n{}", entry.line, split.join("\n"));
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn catchess_suite() {
    assert!(run_suite::<CatChess>("perft/catchess.epd", BUDGET) >= 28);
}

#[test]
fn chess_suite() {
    assert!(run_suite::<Chess>("perft/chess.epd", BUDGET) >= 25);
}

#[test]
fn xiangqi_suite() {
    assert!(run_suite::<Xiangqi>("perft/xiangqi.epd", BUDGET) >= 20);
}

#[test]
fn catschess10_suite() {
    assert!(run_suite::<CatsChess10>("perft/catschess10.epd", BUDGET) >= 40);
}

#[test]
#[ignore = "deep: runs every depth of every suite (about a minute in release)"]
fn all_suites_at_every_depth() {
    run_suite::<CatChess>("perft/catchess.epd", u64::MAX);
    run_suite::<Chess>("perft/chess.epd", u64::MAX);
    run_suite::<Xiangqi>("perft/xiangqi.epd", u64::MAX);
    run_suite::<CatsChess10>("perft/catschess10.epd", u64::MAX);
}

#[test]
fn divide_sums_to_perft_and_lists_each_root_move_once() {
    let pos = CatChess::startpos();
    let split = divide(&pos, 3);
    assert_eq!(split.len() as u64, perft(&pos, 1));
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), perft(&pos, 3));
    let mut names: Vec<String> = split.iter().map(|(steps, _)| pos.turn_text(steps)).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), split.len());
}

#[test]
fn perft_zero_is_one_and_suite_lines_are_checked() {
    assert_eq!(perft(&Chess::startpos(), 0), 1);
    assert!(parse_suite("8/8 w ;D1 x").is_err());
    assert!(parse_suite("just a fen").is_err());
    let ok = parse_suite("# why: test\nfen here ;D1 20 ;D2 400\n").unwrap();
    assert_eq!(ok[0].counts, vec![(1, 20), (2, 400)]);
    assert_eq!(ok[0].why.as_deref(), Some("test"));
}

#[test]
fn divide_reports_each_root_move_and_agrees_with_perft_at_every_depth() {
    let pos = Chess::startpos();
    for depth in 0..=3 {
        let mut seen = 0;
        let total = divide_with(&pos, depth, &|| false, |_, _| seen += 1);
        assert_eq!(total, Ok(Some(perft(&pos, depth))), "depth {depth}");
        assert_eq!(seen, if depth == 0 { 0 } else { 20 });
    }
}

#[test]
fn a_stopped_count_ends_without_a_total() {
    let asked = AtomicUsize::new(0);
    // Stop after a few looks: the count gives up instead of finishing.
    let stopped = || asked.fetch_add(1, Ordering::Relaxed) > 3;
    let mut roots = 0;
    assert_eq!(divide_with(&Chess::startpos(), 5, &stopped, |_, _| roots += 1), Ok(None));
    assert!(roots < 20);
}

#[test]
fn a_count_deeper_than_the_bound_is_refused_before_it_starts() {
    let asked = AtomicUsize::new(0);
    let stopped = || asked.fetch_add(1, Ordering::Relaxed) > 0;
    let refused = divide_with(&Chess::startpos(), 3000, &stopped, |_, _| {});
    assert_eq!(refused, Err(TooDeep(3000)));
    assert_eq!(asked.load(Ordering::Relaxed), 0, "nothing was counted");
    assert!(TooDeep(3000).to_string().contains("at most 32 turns"));
    assert_eq!(checked_depth(MAX_DEPTH), Ok(MAX_DEPTH));
}

/// The count at `MAX_DEPTH` goes down its first line to the leaves before
/// its stop is looked at often, then unwinds: on a thread with half the
/// 2 MiB a spawned thread gets (the protocol's and the server's perft
/// threads), in every game.
#[test]
fn perft_recursion_fits_a_small_stack_at_the_deepest_count() {
    fn deepest<G: Game>() -> Option<u64> {
        let asked = AtomicUsize::new(0);
        // Far more looks than the first line down has nodes (at most a few
        // steps a turn), so the leaves are reached first.
        let stopped = || asked.fetch_add(1, Ordering::Relaxed) > 16 * MAX_DEPTH as usize;
        divide_with(&G::startpos(), MAX_DEPTH, &stopped, |_, _| {}).expect("within the bound")
    }
    for variant in VariantKind::ALL {
        let deepest: fn() -> Option<u64> = match variant {
            VariantKind::CatChess => deepest::<CatChess>,
            VariantKind::Chess => deepest::<Chess>,
            VariantKind::Xiangqi => deepest::<Xiangqi>,
            VariantKind::CatsChess10 => deepest::<CatsChess10>,
        };
        let counted = std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(deepest)
            .expect("a thread")
            .join()
            .expect("no overflow");
        assert_eq!(counted, None, "{variant}: stopped, not finished");
    }
}
