//! (Cat-)FEN parsing: round trips, one test per error, and a fuzz test that
//! feeds random and mutated strings (no input may panic).

mod common;
use catchess::games::chess::position::FenField;
use catchess::{CatChess, Chess, Notation};
use common::*;
use pretty_assertions::assert_eq;
use rand::{rngs::StdRng, Rng, SeedableRng};

const GOOD: &[&str] = &[
    "rnbqkbnr/pppppppp/8/7*/*7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/1*2p3/2B1P1*1/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "1k6/p7/8/4PpP1/8/2*4*/P7/1K6 c - f6 0 1",
    "r*2k2r/ppppp1*p/8/8/8/8/PPP3PP/5RK1 b kq - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1",
];

#[test]
fn good_fens_round_trip() {
    for fen in GOOD {
        assert_eq!(CatChess::from_fen(fen).unwrap().to_fen(), *fen);
    }
    let chess_start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(Chess::from_fen(chess_start).unwrap().to_fen(), chess_start);
}

fn cat_error(fen: &str) -> (FenField, String) {
    match CatChess::from_fen(fen) {
        Ok(_) => panic!("{fen} was accepted"),
        Err(e) => (e.field, e.to_string()),
    }
}

#[test]
fn each_malformed_or_impossible_fen_names_its_field_and_problem() {
    use FenField::*;
    let cases: &[(&str, FenField, &str)] = &[
        ("", Fen, "0 of 6 fields given; missing the piece placement"),
        ("4k3/8/8/8/8/8/8/4K3 w -", Fen, "3 of 6 fields given; missing the en passant square"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 x", Fen, "7 fields given"),
        ("4k3/8/8/8/8/8/4K3 w - - 0 1", Placement, "7 ranks, expected 8"),
        ("4k3/8/8/8/8/8/8/4K4 w - - 0 1", Placement, "rank 1 (\"4K4\") is longer than 8 squares"),
        ("4k3/8/8/8/8/8/8/4K2 w - - 0 1", Placement, "rank 1 (\"4K2\") has 7 squares, expected 8"),
        ("4k3/8/8/8/8/8/8/4X3 w - - 0 1", Placement, "unknown piece letter 'X' on e1"),
        ("4k3/8/8/8/8/8/8/09K3 w - - 0 1", Placement, "bad empty-square count '0'"),
        ("4k3/8/8/8/8/8/8/44 w - - 0 1", Placement, "bad empty-square count '4'"),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", Placement, "white has 0 kings, expected exactly 1"),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", Placement, "white has 2 kings"),
        ("4k3/8/8/8/8/8/8/*2*K2* w - - 0 1", Placement, "3 cats, at most 2 allowed"),
        // Material the start cannot lead to (rules §9): more than 16 men,
        // more than 8 pawns, more promoted pieces than pawns gone.
        (
            "QQQQQQnk/Q4Qnn/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
            Placement,
            "white has 27 pieces (king and pawns included), at most 16",
        ),
        ("4k3/8/8/8/8/NNNBBRQ1/PPPPPPPP/R3K3 w - - 0 1", Placement, "white has 17 pieces"),
        ("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", Placement, "white has 9 pawns, at most 8"),
        ("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", Placement, "black has 9 pawns, at most 8"),
        (
            "3qk2q/pppppppp/8/8/8/8/8/4K3 w - - 0 1",
            Placement,
            "black has 2 queens (1 more than the starting set, so 1 promoted pawns) but only 0 pawns missing",
        ),
        (
            "4k3/8/8/8/8/RRNN4/PPPPPPP1/RN2K3 w - - 0 1",
            Placement,
            "white has 3 rooks, 3 knights (2 more than the starting set, so 2 promoted pawns) but only 1 pawns missing",
        ),
        ("4k3/8/8/8/8/BBB5/PPPPPPPP/4K3 w - - 0 1", Placement, "white has 3 bishops"),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", Placement, "pawn on a1: pawns never stand on rank 1 or 8"),
        ("p3k3/8/8/8/8/8/8/4K3 w - - 0 1", Placement, "pawn on a8"),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", SideToMove, "\"x\" is not w, b or c"),
        ("4k3/8/8/8/8/8/8/4K3 W - - 0 1", SideToMove, "is not w, b or c"),
        ("4k3/8/8/8/8/8/8/4K3 w X - 0 1", Castling, "'X' is not one of K, Q, k, q"),
        ("4k3/8/8/8/8/8/8/4K3 w KK - 0 1", Castling, "'K' given twice"),
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", Castling, "right 'K' needs the white king on e1 and a rook on h1"),
        ("r3k3/8/8/8/8/8/8/4K3 w k - 0 1", Castling, "right 'k' needs the black king on e8 and a rook on h8"),
        ("4k3/8/8/8/8/8/8/R3K3 w q - 0 1", Castling, "right 'q' needs the black king on e8 and a rook on a8"),
        ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", EnPassant, "\"e9\" is not '-' or a square"),
        ("4k3/8/8/4p3/8/8/8/4K3 w - e3 0 1", EnPassant, "e3 must be on rank 6 with white to move"),
        ("4k3/8/8/4p3/8/8/8/4K3 c - e3 0 1", EnPassant, "e3 must be on rank 6 with cats to move"),
        ("4k3/8/8/8/4P3/8/8/4K3 b - e6 0 1", EnPassant, "e6 must be on rank 3 with black to move"),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", EnPassant, "e6 needs a black pawn just pushed to e5"),
        ("4k3/8/4n3/4p3/8/8/8/4K3 w - e6 0 1", EnPassant, "both must be free of pieces"),
        ("4k3/4n3/8/4p3/8/8/8/4K3 w - e6 0 1", EnPassant, "both must be free of pieces"),
        ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", HalfmoveClock, "\"-1\" is not a non-negative whole number"),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", HalfmoveClock, "is not a non-negative whole number"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 99999 1", HalfmoveClock, "is outside 0..=10000"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", FullmoveNumber, "\"0\" is outside 1..=65535"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1.5", FullmoveNumber, "is not a non-negative whole number"),
        ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", Position, "white is in check but has just moved"),
        ("4k2R/8/8/8/8/8/8/4K3 c - - 0 1", Position, "black is in check but has just moved"),
    ];
    for (fen, field, problem) in cases {
        let (got_field, message) = cat_error(fen);
        assert_eq!((got_field, fen), (*field, fen));
        assert!(message.contains(problem), "{fen}: {message:?} lacks {problem:?}");
    }
}

#[test]
fn promoted_material_up_to_the_missing_pawns_is_accepted() {
    // Every pawn promoted (9 queens), or 7 pawns and one promoted piece of each kind short of it.
    for fen in [
        "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
        "4k3/8/8/8/8/Q7/PPPPPPP1/RQ2K3 w - - 0 1",
        "rnnnk3/pppppp2/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1",
    ] {
        CatChess::from_fen(fen).unwrap();
        Chess::from_fen(fen).unwrap();
    }
}

/// The most moves known in a chess position passes the material checks and
/// fits the move list, in both games of the 8×8 board.
#[test]
fn two_hundred_and_eighteen_moves_are_all_generated() {
    let fen = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1";
    fn count<G: Notation>(fen: &str) -> (usize, u64, u64) {
        let pos = G::from_fen(fen).unwrap();
        let mut list = catchess::MoveList::default();
        pos.legal_moves(&mut list);
        (list.len(), pos.count_legal_moves(), catchess::game::perft::perft(&pos, 2))
    }
    let chess = count::<Chess>(fen);
    assert_eq!((chess.0, chess.1), (218, 218));
    assert_eq!(count::<CatChess>(fen), chess);
}

#[test]
fn a_cat_may_stand_on_the_en_passant_squares_and_either_king_may_be_in_check_with_white_to_move() {
    // The cats stepped onto f6 (the passed-over square) during their turn.
    assert!(CatChess::from_fen("4k3/8/5*2/5p2/8/8/8/4K3 w - f6 0 2").is_ok());
    // A cat step can expose the black king while white is to move.
    assert!(CatChess::from_fen("4k2R/8/8/8/8/8/8/4K3 w - - 0 1").is_ok());
}

#[test]
fn chess_fens_refuse_cats_and_the_cats_side() {
    let e = Chess::from_fen("4k3/8/8/8/*7/8/8/4K3 w - - 0 1").unwrap_err();
    assert_eq!(e.field, FenField::Placement);
    assert!(e.to_string().contains("cats do not exist in chess"), "{e}");
    let e = Chess::from_fen("4k3/8/8/8/8/8/8/4K3 c - - 0 1").unwrap_err();
    assert_eq!(e.field, FenField::SideToMove);
    // In chess the side that just moved may not be in check: with white to move, black.
    let e = Chess::from_fen("4k2R/8/8/8/8/8/8/4K3 w - - 0 1").unwrap_err();
    assert_eq!(e.field, FenField::Position);
}

/// Checks a parsed position thoroughly: FEN round trip, key, and that move
/// generation and making every move work.
fn exercise<G: Notation>(pos: &G) {
    let again = G::from_fen(&pos.to_fen()).expect("to_fen output parses");
    assert_eq!(again.to_fen(), pos.to_fen());
    assert_eq!(again.key(), pos.key());
    let mut list = catchess::MoveList::default();
    pos.legal_moves(&mut list);
    assert_eq!(list.len() as u64, pos.count_legal_moves());
    for m in list.iter() {
        let _ = pos.play(*m).count_legal_moves();
    }
}

fn mutate(rng: &mut StdRng, s: &str) -> String {
    const ALPHABET: &[u8] = b"pnbrqkPNBRQK*12345678/ wbc-KQkqa1e3f6h809 x";
    let mut bytes = s.as_bytes().to_vec();
    for _ in 0..rng.gen_range(1..4) {
        let i = rng.gen_range(0..=bytes.len());
        match rng.gen_range(0..3) {
            0 if i < bytes.len() => {
                bytes.remove(i);
            }
            1 if i < bytes.len() => bytes[i] = ALPHABET[rng.gen_range(0..ALPHABET.len())],
            _ => bytes.insert(i, ALPHABET[rng.gen_range(0..ALPHABET.len())]),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn random_and_mutated_strings_never_panic() {
    let mut rng = StdRng::seed_from_u64(2026);
    let mut accepted = 0;
    for i in 0..30_000 {
        let text = if i % 5 == 0 {
            let len = rng.gen_range(0..80);
            (0..len).map(|_| rng.gen_range(0u8..=255) as char).collect::<String>()
        } else {
            mutate(&mut rng, GOOD[i % GOOD.len()])
        };
        if let Ok(pos) = CatChess::from_fen(&text) {
            accepted += 1;
            exercise(&pos);
        }
        if let Ok(pos) = Chess::from_fen(&text) {
            exercise(&pos);
        }
    }
    assert!(accepted > 300, "mutations should often stay valid ({accepted})");
}

#[test]
fn random_playouts_keep_every_invariant() {
    // Along random games: the incremental key equals the key from scratch,
    // the FEN round-trips, counting equals listing, and no move leaves the
    // mover's own king in check.
    let mut rng = StdRng::seed_from_u64(99);
    for game in 0..300 {
        let mut pos = if game % 2 == 0 { CatChess::startpos() } else { cat(GOOD[game % GOOD.len()]) };
        for _ in 0..200 {
            assert_eq!(pos.key(), pos.compute_key(), "{}", pos.to_fen());
            let again = cat(&pos.to_fen());
            assert_eq!(again.to_fen(), pos.to_fen());
            let mut list = catchess::MoveList::default();
            pos.legal_moves(&mut list);
            assert_eq!(list.len() as u64, pos.count_legal_moves());
            if list.is_empty() {
                break;
            }
            let mover = pos.side_to_move().color();
            let m = list.as_slice()[rng.gen_range(0..list.len())];
            pos = pos.play(m);
            if let Some(color) = mover {
                assert!(pos.checkers_of(color).is_empty(), "{m} left the king in check: {}", pos.to_fen());
            }
        }
    }
}

#[test]
fn keys_tell_apart_what_repetition_must_tell_apart() {
    let a = cat("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let b = cat("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1");
    let c = cat("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    let d = cat("r3k2r/8/8/8/8/8/8/R3K2R c KQkq - 0 1");
    let e = cat("r3k2r/8/8/8/*7/8/8/R3K2R w KQkq - 0 1");
    let keys = [a.key(), b.key(), c.key(), d.key(), e.key()];
    for i in 0..keys.len() {
        for j in i + 1..keys.len() {
            assert_ne!(keys[i], keys[j], "{i} {j}");
        }
    }
    // Clocks do not enter the key.
    assert_eq!(a.key(), cat("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 7 30").key());
}

#[test]
fn an_en_passant_square_enters_the_key_only_when_the_capture_is_legal() {
    // No white pawn next to f5: the square is set but means nothing.
    let idle = cat("4k3/8/8/5p2/8/8/8/4K2* w - f6 0 2");
    let none = cat("4k3/8/8/5p2/8/8/8/4K2* w - - 0 2");
    assert_eq!(idle.key(), none.key());
    // A white pawn on e5 can take: the right is real.
    let real = cat("4k3/8/8/4Pp2/8/8/8/4K2* w - f6 0 2");
    let gone = cat("4k3/8/8/4Pp2/8/8/8/4K2* w - - 0 2");
    assert_ne!(real.key(), gone.key());
    // The same capture forbidden by the capture ban (cat next to e5): not real.
    let banned = cat("4k3/8/8/4Pp2/3*4/8/8/4K3 w - f6 0 2");
    let banned_none = cat("4k3/8/8/4Pp2/3*4/8/8/4K3 w - - 0 2");
    assert_eq!(banned.key(), banned_none.key());
}

/// A FEN without its clocks (EPD's four fields, or five without the
/// fullmove number) reads as Stockfish reads it: halfmove clock 0, move 1.
#[test]
fn a_fen_without_its_clocks_gets_clock_0_and_move_1() {
    for game in ["4k3/8/8/8/8/8/8/4K3 w - -", "4k3/8/8/8/8/8/8/4K3 w - - 0"] {
        assert_eq!(CatChess::from_fen(game).unwrap().to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(catchess::Chess::from_fen(game).unwrap().to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    }
    assert_eq!(CatChess::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 7").unwrap().to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 7 1");
    let xiangqi = "4k4/9/9/9/9/9/9/9/9/3K5 w - -";
    assert_eq!(catchess::Xiangqi::from_fen(xiangqi).unwrap().to_fen(), "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
}
