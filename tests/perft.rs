//! Every perft suite entry, up to a node budget that keeps `cargo test`
//! quick; `cargo test -- --ignored` runs every depth.

use catchess::perft::{divide, parse_suite, perft};
use catchess::{CatChess, CatsChess10, Chess, Notation, Xiangqi};

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
