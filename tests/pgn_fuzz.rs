//! The PGN reader under hostile input (issue #59): random bytes, random
//! Unicode, PGN-shaped noise and mutations of valid records of all four
//! games go through every front end that reads records (the reader and the
//! replay of each game, `pgn check`, `--resume`'s and `--merge`'s readers,
//! opening books, `pgn stats`). Each must answer, with games or an error,
//! and never panic. The project's fuzz harness (`common::fuzz`: random
//! bytes, random Unicode, mutations of the valid records) plus PGN's own
//! noise; a few thousand cases each in `cargo test`, the `#[ignore]`d
//! long run as many as `CATCHESS_FUZZ_CASES` says
//! (`CATCHESS_FUZZ_CASES=200000 cargo test --test pgn_fuzz -- --ignored`).

mod common;

use catchess::game::pgn::record::{move_comment, write, RecordTags};
use catchess::game::pgn::record::{Score, SearchNote};
use catchess::game::pgn::{self, Stop};
use catchess::game::random_game;
use catchess::tournament::check::check_game;
use catchess::tournament::openings::read_pgn;
use catchess::tournament::resume::{complete_prefix, record_chunks, reports};
use catchess::tournament::review::report;
use catchess::{Arbitration, CatChess, CatsChess10, Chess, Notation, VariantKind, Xiangqi};
use once_cell::sync::Lazy;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Duration;

/// Everything that reads a record, on `text` as a game of `G`.
fn read_as<G: Notation + Arbitration>(text: &str) {
    let words = pgn::result_words::<G>();
    if let Ok(games) = pgn::read_all(text, &words) {
        for game in &games {
            let _ = pgn::replay::<G>(game, Stop::AtEnd);
            let _ = pgn::replay::<G>(game, Stop::AfterTurns(3));
            let _ = check_game::<G>(game);
        }
    }
    let _ = read_pgn::<G>(text, Some(4), "fuzz.pgn");
    let names = ["a".to_string(), "b".to_string()];
    let _ = reports::<G>(text, &names, "fuzz.pgn");
}

/// Every reader of records, in every game.
fn read_everywhere(text: &str) {
    read_as::<Chess>(text);
    read_as::<CatChess>(text);
    read_as::<Xiangqi>(text);
    read_as::<CatsChess10>(text);
    let kept = complete_prefix(text);
    assert!(kept <= text.len() && text.is_char_boundary(kept));
    if let Ok(chunks) = record_chunks(text) {
        assert!(chunks.iter().all(|c| !c.is_empty()));
    }
    let _ = report(text, "a", VariantKind::CatChess, "fuzz.pgn");
}

/// Valid records of every game to mutate: random games written as match
/// records, with comments and clocks.
static RECORDS: Lazy<Vec<String>> = Lazy::new(|| {
    let mut rng = StdRng::seed_from_u64(59);
    let mut out = Vec::new();
    for i in 0..6 {
        out.push(record::<Chess>(&mut rng, i));
        out.push(record::<CatChess>(&mut rng, i));
        out.push(record::<Xiangqi>(&mut rng, i));
        out.push(record::<CatsChess10>(&mut rng, i));
    }
    out
});

fn record<G: Notation + Arbitration>(rng: &mut StdRng, round: usize) -> String {
    let history = random_game(G::startpos(), rng.gen_range(1..60), rng);
    let comments: Vec<Option<String>> = (0..history.turn_count())
        .map(|_| {
            let note = SearchNote { depth: Some(7), score: Some(Score::Cp(rng.gen_range(-300..300))) };
            rng.gen_bool(0.7).then(|| move_comment(&note, Duration::from_millis(rng.gen_range(0..5000))))
        })
        .collect();
    let outcome = history.outcome();
    let tags = RecordTags {
        event: "fuzz".into(),
        date: "2025.01.02".into(),
        round: round.to_string(),
        players: G::SEATS.iter().enumerate().map(|(i, _)| ["a", "b"][i % 2].to_string()).collect(),
        winner: outcome.and_then(|o| o.winner),
        finished: outcome.is_some(),
        points: vec![0.0; G::SEATS.len()],
        time_controls: vec!["10+0.1".into(); G::SEATS.len()],
        termination: outcome.map_or("unterminated".into(), |o| o.reason.name().to_string()),
        faults: vec![format!("{} (a) time forfeit at ply 2: \"x\"", G::SEATS[0].name)],
    };
    write(&tags, &history, &comments, Some("opening"), None)
}

/// Text made of PGN's own characters and words, where the reader's
/// states (tags, comments, variations, escapes) meet.
fn pgn_noise() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "[",
        "]",
        "{",
        "}",
        "(",
        ")",
        ";",
        "%",
        "\"",
        "\\",
        "$1",
        " ",
        "\n",
        "1.",
        "1...",
        "e4",
        "Nf3+",
        "O-O",
        "a8=Q#",
        "0000",
        "T@g4,a2b2,a1a2,M@a1",
        "T@?",
        "reroll",
        "h3e3",
        "1-0",
        "0-1",
        "1/2-1/2",
        "*",
        "cats",
        "draw",
        "[Event \"",
        "[FEN \"",
        "[Variant \"catschess10\"]",
        "[Variant \"catchess\"]",
        "[Round \"1\"]",
        "é",
        "\u{202e}",
        "\u{0}",
        "♞",
        "\r\n",
    ]);
    prop::collection::vec(pieces, 0..60).prop_map(|v| v.concat())
}

/// The readers on mutations of the records and on PGN-shaped noise.
fn fuzz_readers() {
    common::fuzz::fuzz("PGN readers", RECORDS.clone(), read_everywhere);
    common::fuzz::fuzz_with("PGN-shaped noise", pgn_noise(), common::fuzz::cases(), read_everywhere);
}

#[test]
fn readers_never_panic() {
    fuzz_readers();
}

/// The records mutated above are valid to begin with: each reads and
/// replays in its own game.
#[test]
fn the_records_to_mutate_are_valid() {
    for (i, text) in RECORDS.iter().enumerate() {
        let game = &pgn::read_all(text, &[]).unwrap()[0];
        let ok = match i % 4 {
            0 => pgn::replay::<Chess>(game, Stop::AtEnd).is_ok(),
            1 => pgn::replay::<CatChess>(game, Stop::AtEnd).is_ok(),
            2 => pgn::replay::<Xiangqi>(game, Stop::AtEnd).is_ok(),
            _ => pgn::replay::<CatsChess10>(game, Stop::AtEnd).is_ok(),
        };
        assert!(ok && !game.moves.is_empty(), "{text}");
    }
}

#[test]
#[ignore = "long run: set CATCHESS_FUZZ_CASES"]
fn long_run_of_the_readers() {
    fuzz_readers();
}
