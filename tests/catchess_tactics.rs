//! Tactical suites: positions with every correct answer listed.
//!
//! * `tests/data/catchess-puzzles.epd`: the project's public Cat Chess suite;
//! * `tests/data/catchess-tactics.epd`: our own Cat Chess suite;
//! * `tests/data/chess-tactics.epd`: our own standard chess mates.
//!
//! Three checks per suite: (a) every answer set equals what the brute-force
//! solver (`tests/common/solver.rs`, independent of the engine) computes, so
//! the data cannot be wrong; (b) the engine's search, to the forced line's
//! plies plus one turn cycle, picks one of the answers (except the puzzles
//! in `KNOWN_ENGINE_FAILURES`, which an ignored test runs until the search
//! is fixed); (c) every `;cat 1` claim ("this mate exists only because a
//! defender is disarmed") holds. The whole file runs in a few seconds, the
//! brute-force proofs of the mates in 3 included.
//!
//! Our suites are written by `examples/gen_tactics.rs`; to check a fresh
//! file first: `TACTICS_SUITES=new.epd cargo test --test catchess_tactics`.

mod common;

use catchess::games::chess::types::Side;
use catchess::search::{Limits, SearchControl, SearchGame, Searcher};
use catchess::{CatChess, Chess, Game, History, Notation};
use common::cat_claim::only_because_of_z;
use common::solver::{cat_saves, forced_mates, names};
use std::time::Instant;

const PUBLIC: &str = "tests/data/catchess-puzzles.epd";
const CATCHESS: &str = "tests/data/catchess-tactics.epd";
const CHESS: &str = "tests/data/chess-tactics.epd";

/// Searches `fen` to `depth` plies and returns the best move.
fn best_move<G: SearchGame + Notation>(fen: &str, depth: u32) -> String {
    let pos = G::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut searcher = Searcher::<G>::new(8);
    let limits = Limits { depth: Some(depth), ..Default::default() };
    let result = searcher.search(&History::new(pos), &limits, &SearchControl::new(), &mut |_| {});
    result.best.expect("a move").to_string()
}

/// What a puzzle asks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// Cat Chess: `side` (the side to move) mates in `n` of its own moves,
    /// whatever the other side and the cats reply (`white-m1`, `black-m2`).
    CatMate { side: Side, n: u32 },
    /// Cat Chess, cats to move: white threatens mate in 1; the answers are
    /// the cat moves after which it has none.
    CatsSave,
    /// Standard chess: the side to move mates in `n` (`chess-m2`).
    ChessMate { n: u32 },
}

impl Kind {
    fn parse(s: &str) -> Option<Kind> {
        let mate_in = |rest: &str| rest.strip_prefix('m')?.parse::<u32>().ok().filter(|n| (1..=5).contains(n));
        let (prefix, rest) = s.split_once('-')?;
        match prefix {
            "white" => Some(Kind::CatMate { side: Side::White, n: mate_in(rest)? }),
            "black" => Some(Kind::CatMate { side: Side::Black, n: mate_in(rest)? }),
            "cats" if rest == "save" => Some(Kind::CatsSave),
            "chess" => Some(Kind::ChessMate { n: mate_in(rest)? }),
            _ => None,
        }
    }

    /// Plies of the forced line: the attacker's moves and every reply in
    /// between (white-m2: w b c w = 4; black-m1: b c = 2; chess-m2: 3).
    fn plies(self) -> u32 {
        match self {
            Kind::CatMate { side: Side::Black, n } => 3 * n - 1,
            Kind::CatMate { n, .. } => 3 * n - 2,
            Kind::CatsSave => 2,
            Kind::ChessMate { n } => 2 * n - 1,
        }
    }

    /// Plies in one turn cycle of the game.
    fn cycle(self) -> u32 {
        match self {
            Kind::ChessMate { .. } => 2,
            _ => 3,
        }
    }
}

struct Puzzle {
    fen: String,
    kind: Kind,
    kind_name: String,
    answers: Vec<String>,
    depth: u32,
    /// `;cat 1`: the mate exists only because a defender is disarmed.
    cat: bool,
    file: String,
    line: usize,
}

impl Puzzle {
    fn id(&self) -> String {
        format!("{}:{} ({}) {}", self.file, self.line, self.kind_name, self.fen)
    }
}

fn load(file: &str) -> Vec<Puzzle> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim().to_string();
        let (mut kind_name, mut answers, mut depth, mut cat) = (String::new(), Vec::new(), 0, false);
        for part in parts {
            let mut words = part.split_whitespace();
            match words.next() {
                Some("kind") => kind_name = words.next().unwrap_or_default().to_string(),
                Some("bm") => answers = words.map(str::to_string).collect(),
                Some("depth") => depth = words.next().and_then(|d| d.parse().ok()).unwrap_or(0),
                Some("cat") => cat = words.next() == Some("1"),
                other => panic!("{file}:{line_no}: unknown field {other:?}"),
            }
        }
        let kind = Kind::parse(&kind_name).unwrap_or_else(|| panic!("{file}:{line_no}: unknown kind {kind_name:?}"));
        assert!(!answers.is_empty() && depth > 0, "{file}:{line_no}: {line}");
        out.push(Puzzle { fen, kind, kind_name, answers, depth, cat, file: file.to_string(), line: line_no });
    }
    out
}

/// Every suite; `TACTICS_SUITES=a.epd,b.epd` checks other files instead
/// (a fresh generator run, before it replaces a suite).
fn load_all() -> Vec<Puzzle> {
    match std::env::var("TACTICS_SUITES") {
        Ok(files) => files.split(',').flat_map(load).collect(),
        Err(_) => [PUBLIC, CATCHESS, CHESS].into_iter().flat_map(load).collect(),
    }
}

fn cat(fen: &str) -> CatChess {
    CatChess::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn chess(fen: &str) -> Chess {
    Chess::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn move_count<G: Game>(pos: &G) -> usize {
    pos.count_legal_moves() as usize
}

/// The brute-force answer set of a puzzle, after checking that the puzzle
/// is what its kind says: the right side to move, the depth its forced
/// line's length, and the mate no shorter than claimed (a mate in 2 with a
/// mate in 1 beside it would be mislabelled).
fn brute_force(p: &Puzzle) -> Result<Vec<String>, String> {
    if p.depth != p.kind.plies() {
        return Err(format!("depth {} but a {} line has {} plies", p.depth, p.kind_name, p.kind.plies()));
    }
    match p.kind {
        Kind::CatMate { side, n } => {
            let pos = cat(&p.fen);
            if pos.side_to_move() != side {
                return Err(format!("{} to move", pos.side_to_move()));
            }
            if n > 1 && !forced_mates(&pos, n - 1).is_empty() {
                return Err(format!("there is already a mate in {}", n - 1));
            }
            Ok(names(&forced_mates(&pos, n)))
        }
        Kind::CatsSave => {
            let pos = cat(&p.fen);
            if pos.side_to_move() != Side::Cats {
                return Err(format!("{} to move", pos.side_to_move()));
            }
            let saves = cat_saves(&pos);
            if saves.len() == move_count(&pos) {
                return Err("white threatens no mate in 1: every cat move saves".into());
            }
            Ok(names(&saves))
        }
        Kind::ChessMate { n } => {
            let pos = chess(&p.fen);
            if n > 1 && !forced_mates(&pos, n - 1).is_empty() {
                return Err(format!("there is already a mate in {}", n - 1));
            }
            Ok(names(&forced_mates(&pos, n)))
        }
    }
}

#[test]
fn answer_sets_match_the_brute_force_solver() {
    let mut errors = Vec::new();
    let puzzles = load_all();
    for p in &puzzles {
        let mut listed = p.answers.clone();
        listed.sort();
        match brute_force(p) {
            Ok(solved) if solved == listed => {}
            Ok(solved) => errors.push(format!("{}: listed {listed:?}, brute force finds {solved:?}", p.id())),
            Err(e) => errors.push(format!("{}: {e}", p.id())),
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert!(puzzles.len() >= 8, "{} puzzles", puzzles.len());
}

/// The engine's choice for a puzzle, searched to `depth`.
fn engine_move(p: &Puzzle, depth: u32) -> String {
    match p.kind {
        Kind::ChessMate { .. } => best_move::<Chess>(&p.fen, depth),
        _ => best_move::<CatChess>(&p.fen, depth),
    }
}

/// Puzzles the engine does not solve yet at the test depth (the forced
/// line plus one turn cycle). Every one is a quiet mating move, or a line
/// ending in one, that the search misses at shallow depth and finds a few
/// plies deeper: see the report with the suite. `the_engine_solves_every_puzzle`
/// skips them; `the_engine_solves_the_known_failures` (ignored until the
/// search is fixed) runs exactly them. Remove a line here once it passes.
const KNOWN_ENGINE_FAILURES: &[&str] = &[
    // Chess mate in 2: at depth 5 the engine takes a pawn with a knight in
    // a won position (+25); it sees the mate from depth 6.
    "7k/pQ3p1p/8/6p1/8/1P3N2/P4PPP/4R1K1 w - g6 0 4",
    // Chess mate in 3 whose key is a quiet queen move (no check): late-move
    // reductions hide it until depth 11.
    "2k5/8/8/P2B4/5Q2/1p5P/5PP1/5NK1 w - - 0 57",
    // Chess mate in 2 (h4f6): with the fifth built-in network the depth-5
    // iteration ends on a mate in 3 (h1g1 a3a2 h4e7 f8e8 g1g8), a forced
    // win but not the shortest; the mate in 2 comes at depth 6.
    "5k2/8/4K3/p7/7B/p7/3N4/7R w - - 0 43",
];

fn is_known_failure(p: &Puzzle) -> bool {
    KNOWN_ENGINE_FAILURES.contains(&p.fen.as_str())
}

/// The engine's failures among `puzzles`, searched a cycle deeper than the
/// forced line, as a player would.
fn engine_failures<'a>(puzzles: impl Iterator<Item = &'a Puzzle>) -> Vec<String> {
    let mut failures = Vec::new();
    for p in puzzles {
        let depth = p.depth + p.kind.cycle();
        let best = engine_move(p, depth);
        if !p.answers.contains(&best) {
            failures.push(format!("{}: played {best} at depth {depth}, want one of {:?}", p.id(), p.answers));
        }
    }
    failures
}

#[test]
fn the_engine_solves_every_puzzle() {
    let puzzles = load_all();
    let failures = engine_failures(puzzles.iter().filter(|p| !is_known_failure(p)));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The list names only puzzles that exist.
    if std::env::var("TACTICS_SUITES").is_err() {
        for fen in KNOWN_ENGINE_FAILURES {
            assert!(puzzles.iter().any(|p| p.fen == *fen), "known failure {fen} is in no suite");
        }
    }
}

/// The puzzles the engine fails today: run with `--ignored` after a change
/// to the search, and shorten the list by every one that passes.
#[test]
#[ignore = "the engine's known failures (KNOWN_ENGINE_FAILURES): fails until the search finds quiet mates"]
fn the_engine_solves_the_known_failures() {
    let puzzles = load_all();
    let failures = engine_failures(puzzles.iter().filter(|p| is_known_failure(p)));
    assert!(
        failures.is_empty(),
        "{} of {} known failures remain:\n{}",
        failures.len(),
        KNOWN_ENGINE_FAILURES.len(),
        failures.join("\n")
    );
}

#[test]
fn cat_1_mates_exist_only_because_of_z() {
    let mut errors = Vec::new();
    let mut checked = 0;
    for p in load_all().iter().filter(|p| p.cat) {
        checked += 1;
        if p.kind != (Kind::CatMate { side: Side::White, n: 1 }) {
            errors.push(format!("{}: ;cat 1 is for white mates in 1", p.id()));
            continue;
        }
        for a in &p.answers {
            if let Err(e) = only_because_of_z(&p.fen, a) {
                errors.push(format!("{}: {a}: {e}", p.id()));
            }
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert!(checked >= 4, "{checked} ;cat 1 puzzles");
}

/// The suites hold what the issue asks for.
#[test]
fn the_suites_cover_every_kind() {
    let count = |file, kind: &str, cat_only: bool| {
        load(file).iter().filter(|p| p.kind_name == kind && (p.cat || !cat_only)).count()
    };
    let want = [
        (CATCHESS, "white-m1", false, 6),
        (CATCHESS, "white-m1", true, 3),
        (CATCHESS, "black-m1", false, 6),
        (CATCHESS, "white-m2", false, 4),
        (CATCHESS, "white-m3", false, 2),
        (CATCHESS, "black-m2", false, 2),
        (CATCHESS, "cats-save", false, 6),
    ];
    for (file, kind, cat_only, at_least) in want {
        let n = count(file, kind, cat_only);
        assert!(n >= at_least, "{file}: {n} {kind}{} puzzles, want {at_least}", if cat_only { " ;cat 1" } else { "" });
    }
    let chess_mates = load(CHESS).iter().filter(|p| matches!(p.kind, Kind::ChessMate { .. })).count();
    assert!(chess_mates >= 10, "{chess_mates} chess mates");
    // Answer sets are small: a puzzle with many answers tests little.
    for p in [CATCHESS, CHESS].into_iter().flat_map(load) {
        assert!(p.answers.len() <= 3, "{}: {} answers", p.id(), p.answers.len());
    }
}

/// Diagnostic: `cargo test --test catchess_tactics -- --ignored --nocapture timing`
/// prints per puzzle the brute-force and engine times, and the depths (up
/// to the test depth plus a few plies) at which the engine's move is right.
#[test]
#[ignore = "diagnostic: prints brute-force and engine times per puzzle"]
fn timing() {
    for p in &load_all() {
        let t = Instant::now();
        let solved = brute_force(p);
        let brute = t.elapsed();
        let t = Instant::now();
        let depth = p.depth + p.kind.cycle();
        let best = engine_move(p, depth);
        let engine = t.elapsed();
        let right: Vec<String> = (1..=depth + 4)
            .map(|d| if p.answers.contains(&engine_move(p, d)) { d.to_string() } else { "-".into() })
            .collect();
        println!(
            "{brute:>8.1?} brute {engine:>8.1?} engine d{depth} {best:6} right at depths [{}] {solved:?} {}",
            right.join(" "),
            p.id()
        );
    }
}
