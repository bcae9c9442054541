//! Xiangqi move notation: Fairy-Stockfish coordinates (`h3e3`, `a10a9`) and
//! WXF (`C2.5`, `H2+3`, `R+.3`, tandem soldiers).

use catchess::game::MoveError;
use catchess::{MoveList, Notation, Xiangqi};
use pretty_assertions::assert_eq;
use rand::{rngs::StdRng, Rng, SeedableRng};

fn xq(fen: &str) -> Xiangqi {
    Xiangqi::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The WXF name of a move given in coordinates.
fn wxf(pos: &Xiangqi, coords: &str) -> String {
    let m = pos.parse_move(coords).unwrap_or_else(|e| panic!("{coords}: {e}"));
    let name = pos.to_wxf(m);
    assert_eq!(pos.parse_wxf(&name), Ok(m), "{name} should read back as {coords}");
    name
}

#[test]
fn coordinates_as_fairy_stockfish_writes_them() {
    let pos = Xiangqi::startpos();
    let m = pos.parse_move("h3e3").unwrap();
    assert_eq!(m.to_string(), "h3e3");
    let pos = xq("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    assert_eq!(pos.parse_move("a1a10").unwrap().to_string(), "a1a10");
    let black = xq("r3k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1");
    assert_eq!(black.parse_move("a10a9").unwrap().to_string(), "a10a9");
    assert!(matches!(pos.parse_move("a1a11"), Err(MoveError::Unparsable(_))));
    assert!(matches!(pos.parse_move("e2e4"), Err(MoveError::Illegal { .. })));
    assert!(matches!(pos.parse_move("a1b2"), Err(MoveError::Illegal { .. })));
    assert!(!pos.is_well_formed_move("a1"));
}

#[test]
fn known_examples_from_the_start() {
    let pos = Xiangqi::startpos();
    assert_eq!(wxf(&pos, "h3e3"), "C2.5");
    assert_eq!(wxf(&pos, "h1g3"), "H2+3");
    assert_eq!(wxf(&pos, "b1c3"), "H8+7");
    assert_eq!(wxf(&pos, "c1e3"), "E7+5");
    assert_eq!(wxf(&pos, "f1e2"), "A4+5");
    assert_eq!(wxf(&pos, "e1e2"), "K5+1");
    assert_eq!(wxf(&pos, "g4g5"), "P3+1");
    assert_eq!(wxf(&pos, "b3b10"), "C8+7");
    assert_eq!(wxf(&pos, "i1i3"), "R1+2");
    // Black counts files from its own right: a is its file 1.
    let black = pos.play(pos.parse_move("h3e3").unwrap());
    assert_eq!(wxf(&black, "h8e8"), "C8.5");
    assert_eq!(wxf(&black, "b10c8"), "H2+3");
    assert_eq!(wxf(&black, "h10g8"), "H8+7");
    assert_eq!(wxf(&black, "a10a8"), "R1+2");
    // A move back, and a chariot along its rank.
    let pos = xq("4k4/9/9/9/9/9/9/9/8R/3K5 w - - 0 1");
    assert_eq!(wxf(&pos, "i2i1"), "R1-1");
    assert_eq!(wxf(&pos, "i2h2"), "R1.2");
}

#[test]
fn tandem_pieces_are_front_and_rear() {
    let pos = xq("5k3/9/9/9/4R4/9/9/4R4/9/3K5 w - - 0 1");
    assert_eq!(wxf(&pos, "e6g6"), "R+.3");
    assert_eq!(wxf(&pos, "e3e2"), "R--1");
    assert_eq!(wxf(&pos, "e6e10"), "R++4");
    // Black's front is towards red.
    let pos = xq("5k3/9/4r4/9/9/4r4/9/9/9/3K5 b - - 0 1");
    assert_eq!(wxf(&pos, "e5e4"), "R++1");
    assert_eq!(wxf(&pos, "e8e9"), "R--1");
    // Horses and cannons likewise.
    let pos = xq("3k5/9/9/9/9/4N4/9/4N4/9/5K3 w - - 0 1");
    assert_eq!(wxf(&pos, "e5f7"), "H++4");
    assert_eq!(wxf(&pos, "e3d1"), "H--6");
    // Advisors keep the file (the direction tells them apart); the +/-
    // form is accepted too.
    let pos = xq("3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1");
    assert_eq!(wxf(&pos, "d1e2"), "A6+5");
    assert_eq!(wxf(&pos, "d3e2"), "A6-5");
    assert_eq!(pos.parse_wxf("A+-5"), pos.parse_move("d3e2"));
    assert_eq!(pos.parse_wxf("A--5").ok(), None);
}

#[test]
fn tandem_soldiers_follow_the_wxf_special_cases() {
    // Three on red's file 3 (g): P+, the middle by its file, P-.
    let pos = xq("3k5/9/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(wxf(&pos, "g8f8"), "P+.4");
    assert_eq!(wxf(&pos, "g7f7"), "P3.4");
    assert_eq!(wxf(&pos, "g6f6"), "P-.4");
    assert_eq!(wxf(&pos, "g8g9"), "P++1");
    // Four on a file: ++, P+, P-, --.
    let pos = xq("3k5/4P4/4P4/4P4/P3P4/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(wxf(&pos, "e9d9"), "++.6");
    assert_eq!(wxf(&pos, "e8d8"), "P+.6");
    assert_eq!(wxf(&pos, "e7d7"), "P-.6");
    assert_eq!(wxf(&pos, "e6d6"), "--.6");
    // Five on a file: the middle one by its file.
    let pos = xq("P8/P2k5/P8/P8/P8/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(wxf(&pos, "a10b10"), "++.8");
    assert_eq!(wxf(&pos, "a9b9"), "P+.8");
    assert_eq!(wxf(&pos, "a8b8"), "P9.8");
    assert_eq!(wxf(&pos, "a7b7"), "P-.8");
    assert_eq!(wxf(&pos, "a6b6"), "--.8");
    // Tandems on two files: the file replaces the P.
    let pos = xq("3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(wxf(&pos, "g8f8"), "3+.4");
    assert_eq!(wxf(&pos, "g7f7"), "33.4");
    assert_eq!(wxf(&pos, "g6f6"), "3-.4");
    assert_eq!(wxf(&pos, "c7d7"), "7+.6");
    assert_eq!(wxf(&pos, "c6d6"), "7-.6");
}

#[test]
fn parsing_accepts_common_spellings_and_refuses_the_rest() {
    let pos = Xiangqi::startpos();
    let c25 = pos.parse_move("h3e3").unwrap();
    assert_eq!(pos.parse_wxf("C2.5"), Ok(c25));
    assert_eq!(pos.parse_wxf("C2=5"), Ok(c25));
    assert_eq!(pos.parse_wxf("c2.5"), Ok(c25));
    assert_eq!(pos.parse_wxf("N2+3"), pos.parse_move("h1g3"));
    assert_eq!(pos.parse_wxf("B7+5"), pos.parse_move("c1e3"));
    let tandem = xq("5k3/9/9/9/4R4/9/9/4R4/9/3K5 w - - 0 1");
    assert_eq!(tandem.parse_wxf("+R.3"), tandem.parse_move("e6g6"));
    assert!(matches!(pos.parse_wxf("C2+6"), Err(MoveError::Illegal { .. })), "h9 is behind the screen h8");
    assert!(matches!(pos.parse_wxf("R5+1"), Err(MoveError::Illegal { .. })));
    for junk in ["", "C2", "C2.50", "X2.5", "h3e3", "C2*5"] {
        assert!(matches!(pos.parse_wxf(junk), Err(MoveError::Unparsable(_))), "{junk:?}");
    }
}

/// Every legal move of many random positions has a WXF name that reads back
/// as that move, and no two moves share a name.
#[test]
fn every_legal_move_round_trips_through_wxf() {
    let mut rng = StdRng::seed_from_u64(9);
    let mut checked = 0;
    for _ in 0..200 {
        let mut pos = Xiangqi::startpos();
        for _ in 0..rng.gen_range(0..150) {
            let mut list = MoveList::default();
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let mut names: Vec<String> = list.iter().map(|&m| pos.to_wxf(m)).collect();
            for (&m, name) in list.iter().zip(&names) {
                assert_eq!(pos.parse_wxf(name), Ok(m), "{name} in {}", pos.to_fen());
                checked += 1;
            }
            names.sort();
            names.dedup();
            assert_eq!(names.len(), list.len(), "{}", pos.to_fen());
            pos = pos.play(list.as_slice()[rng.gen_range(0..list.len())]);
        }
    }
    assert!(checked > 50_000, "{checked}");
}

/// Random strings (ASCII and not) never make move parsing panic.
#[test]
fn no_move_text_panics() {
    let mut rng = StdRng::seed_from_u64(77);
    let alphabet: Vec<char> = "abcdefghijk0123456789+-.=KAEHRCPBNé中 ".chars().collect();
    let pos = Xiangqi::startpos();
    for _ in 0..20_000 {
        let len = rng.gen_range(0..7);
        let text: String = (0..len).map(|_| alphabet[rng.gen_range(0..alphabet.len())]).collect();
        if let Ok(m) = pos.parse_move(&text) {
            assert_eq!(m.to_string(), text);
        }
        if let Ok(m) = pos.parse_wxf(&text) {
            assert!(pos.is_legal(m));
        }
        let _ = pos.is_well_formed_move(&text);
    }
}
