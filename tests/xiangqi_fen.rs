//! Xiangqi FEN: round trips, one test per error, and a fuzz test that feeds
//! random and mutated strings (no input may panic).

use catchess::game::fen::FenField;
use catchess::{MoveList, Notation, Xiangqi};
use pretty_assertions::assert_eq;
use rand::{rngs::StdRng, Rng, SeedableRng};

const GOOD: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bk1abnr/4a4/4c4/4p1p1p/2p6/p7P/2P1PCP2/2R3N2/4A3R/1NB1KABc1 b - - 3 16",
    "1nbcka1n1/8r/5C3/p1p3p2/P5bcP/9/2P1p1P2/N7B/4A1R2/2BAK2N1 b - - 13 41",
    "3P1k3/9/8P/9/P5P2/9/9/B1N2A3/9/3A1K3 b - - 52 76",
    "3k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1",
    // Red in check with red to move is fine.
    "4k4/9/9/9/9/9/9/9/9/3K1r3 w - - 0 1",
];

#[test]
fn good_fens_round_trip() {
    for fen in GOOD {
        let pos = Xiangqi::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos.to_fen(), *fen);
        assert_eq!(pos.key(), pos.compute_key());
    }
    assert_eq!(Xiangqi::startpos().to_fen(), GOOD[0]);
}

#[test]
fn each_malformed_or_impossible_fen_names_its_field_and_problem() {
    use FenField::*;
    let k = "4k4/9/9/9/9/9/9/9/9/3K5";
    let cases: &[(String, FenField, &str)] = &[
        (String::new(), Fen, "0 of 6 fields given; missing the piece placement"),
        (format!("{k} w -"), Fen, "3 of 6 fields given; missing the en passant square"),
        (format!("{k} w - - 0 1 x"), Fen, "7 fields given"),
        ("4k4/9/9/9/9/9/9/9/3K5 w - - 0 1".into(), Placement, "9 ranks, expected 10"),
        ("4k4/9/9/9/9/9/9/9/9/9/3K5 w - - 0 1".into(), Placement, "11 ranks, expected 10"),
        ("4k4/9/9/9/9/9/9/9/9/3K6 w - - 0 1".into(), Placement, "rank 1 (\"3K6\") is longer than 9 points"),
        ("4k4/9/9/9/9/9/9/9/9/3K4 w - - 0 1".into(), Placement, "rank 1 (\"3K4\") has 8 points, expected 9"),
        ("4k4/9/9/9/9/9/9/9/9/3K1Q3 w - - 0 1".into(), Placement, "unknown piece letter 'Q' on f1"),
        ("4k4/9/9/9/9/9/9/9/9/3K05 w - - 0 1".into(), Placement, "bad empty-point count '0'"),
        ("4k4/9/9/9/9/9/9/9/9/3K14 w - - 0 1".into(), Placement, "bad empty-point count '4'"),
        ("4k4/9/9/9/9/9/9/9/9/9 w - - 0 1".into(), Placement, "red has 0 generals, expected exactly 1"),
        ("4k4/9/9/9/9/9/9/9/9/3KK4 w - - 0 1".into(), Placement, "red has 2 generals"),
        ("3kk4/9/9/9/9/9/9/9/9/3K5 w - - 0 1".into(), Placement, "black has 2 generals"),
        ("4k4/9/9/9/9/9/9/9/9/2K6 w - - 0 1".into(), Placement, "red general on c1: outside its palace"),
        ("9/9/9/9/9/4k4/9/9/9/3K5 w - - 0 1".into(), Placement, "black general on e5: outside its palace"),
        ("4k4/9/9/9/9/9/9/9/3A5/3K5 w - - 0 1".into(), Placement, "red advisor on d2: off the five points"),
        ("4k4/9/9/9/9/9/9/3B5/9/3K5 w - - 0 1".into(), Placement, "red elephant on d3"),
        (
            "4k4/9/9/9/4B4/9/9/9/9/3K5 w - - 0 1".into(),
            Placement,
            "red elephant on e6: on a point no elephant can reach",
        ),
        ("4k4/9/9/9/9/9/9/P8/9/3K5 w - - 0 1".into(), Placement, "red soldier on a3: on a point no soldier can reach"),
        ("4k4/9/9/9/9/1P7/9/9/9/3K5 w - - 0 1".into(), Placement, "red soldier on b5"),
        ("4k4/9/p8/9/9/9/9/9/9/3K5 w - - 0 1".into(), Placement, "black soldier on a8"),
        ("4k4/9/9/9/9/9/9/9/9/RRRK5 w - - 0 1".into(), Placement, "red has 3 chariots, at most 2"),
        ("4k4/9/9/9/PPPPPP3/9/9/9/9/3K5 w - - 0 1".into(), Placement, "red has 6 soldiers, at most 5"),
        ("4k4/9/9/9/9/9/9/9/4A4/3AKA3 w - - 0 1".into(), Placement, "red has 3 advisors, at most 2"),
        ("4k4/9/9/9/9/2B3B2/9/4B4/9/3K5 w - - 0 1".into(), Placement, "red has 3 elephants, at most 2"),
        ("4k4/9/9/9/9/9/9/9/9/NNNK5 w - - 0 1".into(), Placement, "red has 3 horses, at most 2"),
        ("3k5/9/9/9/9/9/9/9/9/4KCCC1 w - - 0 1".into(), Placement, "red has 3 cannons, at most 2"),
        ("ccck5/9/9/9/9/9/9/9/9/4K4 w - - 0 1".into(), Placement, "black has 3 cannons, at most 2"),
        (format!("{k} r - - 0 1"), SideToMove, "\"r\" is not w (red) or b (black)"),
        (format!("{k} W - - 0 1"), SideToMove, "is not w (red) or b (black)"),
        (format!("{k} w KQ - 0 1"), Castling, "\"KQ\": xiangqi has no castling, expected '-'"),
        (format!("{k} w - e3 0 1"), EnPassant, "\"e3\": xiangqi has no en passant, expected '-'"),
        (format!("{k} w - - x 1"), HalfmoveClock, "\"x\" is not a non-negative whole number"),
        (format!("{k} w - - -1 1"), HalfmoveClock, "is not a non-negative whole number"),
        (format!("{k} w - - 10001 1"), HalfmoveClock, "outside 0..=10000"),
        (format!("{k} w - - 0 0"), FullmoveNumber, "\"0\" is outside 1..=65535"),
        (format!("{k} w - - 0 99999"), FullmoveNumber, "outside 1..=65535"),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1".into(), Position, "the generals face each other on an open file"),
        ("4k4/9/9/9/9/9/9/9/9/3K1r3 b - - 0 1".into(), Position, "red is in check but has just moved"),
        ("4k4/4R4/9/9/9/9/9/9/9/3K5 w - - 0 1".into(), Position, "black is in check but has just moved"),
    ];
    for (fen, field, problem) in cases {
        match Xiangqi::from_fen(fen) {
            Ok(_) => panic!("{fen:?} was accepted"),
            Err(e) => {
                assert_eq!(e.field, *field, "{fen:?}: {e}");
                assert!(e.to_string().contains(problem), "{fen:?}: {e}\n  expected to contain: {problem}");
            }
        }
    }
}

/// Random edits of valid FENs and random strings: parsing either fails
/// cleanly or gives a position that round-trips and whose moves can all be
/// generated and played.
#[test]
fn no_input_panics() {
    let mut rng = StdRng::seed_from_u64(2024);
    let alphabet: Vec<char> = "kabnrcpKABNRCP0123456789/ -wbx10".chars().collect();
    let mut accepted = 0;
    for i in 0..30_000 {
        let text: String = if i % 3 == 0 {
            let len = rng.gen_range(0..80);
            (0..len).map(|_| alphabet[rng.gen_range(0..alphabet.len())]).collect()
        } else {
            let mut chars: Vec<char> = GOOD[rng.gen_range(0..GOOD.len())].chars().collect();
            for _ in 0..rng.gen_range(1..4) {
                let at = rng.gen_range(0..chars.len());
                match rng.gen_range(0..3) {
                    0 => chars[at] = alphabet[rng.gen_range(0..alphabet.len())],
                    1 => {
                        chars.remove(at);
                    }
                    _ => chars.insert(at, alphabet[rng.gen_range(0..alphabet.len())]),
                }
                if chars.is_empty() {
                    break;
                }
            }
            chars.into_iter().collect()
        };
        if let Ok(pos) = Xiangqi::from_fen(&text) {
            accepted += 1;
            assert_eq!(Xiangqi::from_fen(&pos.to_fen()).unwrap(), pos, "{text:?}");
            let mut list = MoveList::default();
            pos.legal_moves(&mut list);
            for &m in list.iter() {
                let _ = pos.play(m).to_fen();
                let _ = pos.to_wxf(m);
            }
            let _ = pos.render();
        }
    }
    assert!(accepted > 100, "the mutations should keep some FENs valid ({accepted})");
}
