//! Tactical positions with every correct answer listed: the engine must
//! find one of them at a modest depth. `tests/data/catchess-puzzles.epd`
//! is the project's public puzzle suite (answers verified by brute force);
//! the chess and extra Cat Chess positions below are our own.

use catchess::search::{Limits, SearchGame, Searcher};
use catchess::{CatChess, Chess, History};
use std::sync::atomic::AtomicBool;

/// Searches `fen` to `depth` plies and returns the best move.
fn best_move<G: SearchGame>(fen: &str, depth: u32) -> String {
    let pos = G::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut searcher = Searcher::<G>::new(8);
    let limits = Limits { depth: Some(depth), ..Default::default() };
    let result = searcher.search(&History::new(pos), &limits, &AtomicBool::new(false), &mut |_| {});
    result.best.expect("a move").to_string()
}

struct Puzzle {
    fen: String,
    kind: String,
    answers: Vec<String>,
    depth: u32,
    line: usize,
}

fn parse_puzzles(text: &str) -> Vec<Puzzle> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim().to_string();
        let (mut kind, mut answers, mut depth) = (String::new(), Vec::new(), 0);
        for part in parts {
            let mut words = part.split_whitespace();
            match words.next() {
                Some("kind") => kind = words.next().unwrap().to_string(),
                Some("bm") => answers = words.map(str::to_string).collect(),
                Some("depth") => depth = words.next().unwrap().parse().unwrap(),
                _ => {}
            }
        }
        assert!(!answers.is_empty() && depth > 0, "line {line_no}: {line}");
        out.push(Puzzle { fen, kind, answers, depth, line: line_no });
    }
    out
}

#[test]
fn the_public_catchess_puzzles_are_solved() {
    let text = std::fs::read_to_string("tests/data/catchess-puzzles.epd").unwrap();
    let puzzles = parse_puzzles(&text);
    assert!(puzzles.len() >= 8);
    let mut failures = Vec::new();
    for p in &puzzles {
        // Search a cycle deeper than the forced line, as a player would.
        let depth = p.depth + 3;
        let best = if p.kind.starts_with("chess") {
            best_move::<Chess>(&p.fen, depth)
        } else {
            best_move::<CatChess>(&p.fen, depth)
        };
        if !p.answers.contains(&best) {
            failures.push(format!("line {} ({}): played {best}, want one of {:?}", p.line, p.kind, p.answers));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
