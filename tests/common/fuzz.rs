//! Bounded property tests for the parsers of outside text: each parser is
//! fed random bytes (read as text the way the program reads them: lossy
//! UTF-8), random Unicode strings, and mutations of valid inputs (a
//! character inserted, deleted or replaced, a piece of another valid input
//! spliced in), and must answer each without a panic; the caller's check
//! adds what an accepted input must satisfy (a FEN reads back to the same
//! position, a move is legal). A failure is shrunk by proptest to a small
//! input and reported with it.
//!
//! `cargo test` runs [`DEFAULT_CASES`] cases per parser from a fixed seed
//! (the same inputs every run); the `#[ignore]` long runs set
//! `CATCHESS_FUZZ_CASES` and a fresh seed each time.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::sync::Arc;

/// Cases per parser in an ordinary test run.
pub const DEFAULT_CASES: u32 = 3000;

/// Cases per parser: `CATCHESS_FUZZ_CASES`, or [`DEFAULT_CASES`].
pub fn cases() -> u32 {
    std::env::var("CATCHESS_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(DEFAULT_CASES)
}

/// Characters a mutation inserts: the ones parsers trip on (multi-byte
/// letters, a right-to-left override, separators of every notation,
/// control bytes, digits), then any character at all.
fn awkward_char() -> impl Strategy<Value = char> {
    prop_oneof![
        prop::sample::select(vec![
            'é', '\u{202e}', '中', '🐈', '\u{0}', '\n', '\r', '\t', ' ', ',', ';', '@', '?', '*', '+', '-', '=', '/',
            '"', '\\', '{', '}', '(', ')', '[', ']', '.', '#', '0', '1', '9', 'a', 'j', 'x', 'K', 'O',
        ]),
        any::<char>(),
    ]
}

/// One edit of a mutation; positions are taken modulo the text's length.
#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, char),
    Delete(usize),
    Replace(usize, char),
    /// Inserts characters `from..from+len` of another valid input.
    Splice(usize, usize, usize, usize),
    /// Repeats the text's characters `from..from+len` `times` more times.
    Repeat(usize, usize, u8),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), awkward_char()).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), awkward_char()).prop_map(|(i, c)| Edit::Replace(i, c)),
        (any::<usize>(), any::<usize>(), any::<usize>(), 0usize..12).prop_map(|(a, b, c, d)| Edit::Splice(a, b, c, d)),
        (any::<usize>(), 1usize..8, 1u8..4).prop_map(|(a, b, c)| Edit::Repeat(a, b, c)),
    ]
}

fn apply(text: &str, edits: &[Edit], seeds: &[String]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        let at = |i: usize, n: usize| i % (n + 1);
        match *e {
            Edit::Insert(i, c) => {
                let i = at(i, chars.len());
                chars.insert(i, c);
            }
            Edit::Delete(i) if !chars.is_empty() => {
                let i = i % chars.len();
                chars.remove(i);
            }
            Edit::Replace(i, c) if !chars.is_empty() => {
                let i = i % chars.len();
                chars[i] = c;
            }
            Edit::Splice(i, seed, from, len) if !seeds.is_empty() => {
                let other: Vec<char> = seeds[seed % seeds.len()].chars().collect();
                let from = at(from, other.len());
                let piece = &other[from..(from + len).min(other.len())];
                let i = at(i, chars.len());
                chars.splice(i..i, piece.iter().copied());
            }
            Edit::Repeat(from, len, times) if !chars.is_empty() => {
                let from = from % chars.len();
                let piece: Vec<char> = chars[from..(from + len).min(chars.len())].to_vec();
                for _ in 0..times {
                    chars.splice(from..from, piece.iter().copied());
                }
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// Texts for a parser whose valid inputs include `seeds`.
pub fn texts(seeds: Vec<String>) -> BoxedStrategy<String> {
    let seeds = Arc::new(seeds);
    let bytes = prop::collection::vec(any::<u8>(), 0..96).prop_map(|b| String::from_utf8_lossy(&b).into_owned());
    let unicode = prop::collection::vec(any::<char>(), 0..48).prop_map(|c| c.into_iter().collect::<String>());
    let awkward = prop::collection::vec(awkward_char(), 0..48).prop_map(|c| c.into_iter().collect::<String>());
    if seeds.is_empty() {
        return prop_oneof![bytes, unicode, awkward].boxed();
    }
    let pool = seeds.clone();
    let mutated = (0..seeds.len(), prop::collection::vec(edit(), 0..6))
        .prop_map(move |(i, edits)| apply(&pool[i], &edits, &pool));
    prop_oneof![1 => bytes, 1 => unicode, 1 => awkward, 5 => mutated].boxed()
}

/// Runs `check` on [`cases`] texts from [`texts`]`(seeds)`, each seed once
/// first as it is. A panic in the parser (or a failed assertion in
/// `check`) fails the test with the smallest input proptest finds.
pub fn fuzz(name: &str, seeds: Vec<String>, check: impl Fn(&str)) {
    fuzz_cases(name, seeds, cases(), check)
}

/// [`fuzz`] with `cases` cases (a parser that costs more per call, such
/// as a round trip to the server, takes fewer).
pub fn fuzz_cases(name: &str, seeds: Vec<String>, cases: u32, check: impl Fn(&str)) {
    for s in &seeds {
        check(s);
    }
    fuzz_with(name, texts(seeds), cases, check);
}

/// Runs `check` on `cases` texts of `strategy` (a parser's own kind of
/// noise, beside [`texts`]): from a fixed seed in an ordinary run, from a
/// fresh one when `CATCHESS_FUZZ_CASES` is set.
pub fn fuzz_with(name: &str, strategy: impl Strategy<Value = String>, cases: u32, check: impl Fn(&str)) {
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    let mut runner = if std::env::var_os("CATCHESS_FUZZ_CASES").is_some() {
        TestRunner::new(config)
    } else {
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
    };
    let result = runner.run(&strategy, |text| {
        check(&text);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
    // A long run says what it did (docs/reliability.md counts it).
    if std::env::var_os("CATCHESS_FUZZ_CASES").is_some() {
        eprintln!("fuzz: {name}: {cases} cases, no failure");
    }
}
