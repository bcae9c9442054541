//! zzo38's Cat's Chess (10×10) written down: FEN fields read and written
//! back (and fuzzed), every turn's token one step sequence, random playouts
//! whose keys, tokens and FENs round-trip, and the board drawn.

mod common;
use catchess::game::perft::perft;
use catchess::game::{MoveList, Notation, MAX_MOVES};
use catchess::games::catschess10::{CatsChess10, Phase, StepKind, START_FEN};
use common::catschess10::{fen, tokens};

/// Random playouts: every list within `MAX_MOVES`, the incremental key
/// equal to a fresh one, every turn token written back to the same steps.
#[test]
fn playouts_keep_bounds_keys_and_tokens() {
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    for game in 0..40 {
        let mut pos = CatsChess10::startpos();
        for _ in 0..60 {
            if !pos.at_turn_start() {
                panic!("a turn left unfinished");
            }
            if pos.finished().is_some() {
                break;
            }
            let mut steps = Vec::new();
            let mut cur = pos;
            if game % 3 == 0 && cur.can_teleport() {
                let squares = cur.teleport_square_list();
                if !squares.is_empty() {
                    let s = squares[next(squares.len())];
                    for step in cur.roll_to(s, true).unwrap() {
                        cur = cur.play(step);
                        steps.push(step);
                    }
                }
            }
            loop {
                let mut list = MoveList::new();
                cur.legal_moves(&mut list);
                assert!(list.len() <= MAX_MOVES);
                // Rolls are made above, as the arbiter makes them.
                list.retain(|m| m.kind != StepKind::Request);
                if list.is_empty() {
                    break;
                }
                let m = list.as_slice()[next(list.len())];
                cur = cur.play(m);
                steps.push(m);
                assert_eq!(cur.key(), cur.compute_key());
                if cur.at_turn_start() {
                    break;
                }
            }
            if steps.is_empty() || !cur.at_turn_start() {
                break;
            }
            let token = CatsChess10::turn_text(&steps);
            assert_eq!(pos.parse_turn(&token).as_deref(), Ok(&steps[..]), "{token} from {}", pos.to_fen());
            let round = CatsChess10::from_fen(&cur.to_fen()).unwrap();
            assert_eq!(round.to_fen(), cur.to_fen());
            assert_eq!(round.key(), cur.key(), "{}", cur.to_fen());
            pos = cur;
        }
    }
}

#[test]
fn each_token_is_one_step_sequence() {
    for f in [
        START_FEN,
        "mmmmm*mmmk/5P4/10/10/10/10/T9/10/10/MMMMMKMMMM w - - 0 1 R@a1,N@b1,B@c1,C@d1,Q@e1,C@g1,B@h1,N@i1,R@j1,r@a10,n@b10,b@c10,c@d10,q@e10,c@g10,b@h10,n@i10,r@j10",
        "mmmmmmmmmm/10/6t3/8k1/B4N4/3C6/10/2P7/10/MMMMMK3R w K - 0 1 Q@e1,q@e10",
    ] {
        let p = fen(f);
        let mut all = tokens(&p);
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n, "{f}");
        for t in &all {
            let steps = p.parse_turn(t).unwrap_or_else(|e| panic!("{t}: {e}"));
            assert_eq!(&CatsChess10::turn_text(&steps), t);
        }
    }
}

#[test]
fn fen_fields_round_trip_and_errors_name_the_field() {
    let text = std::fs::read_to_string("perft/catschess10.epd").unwrap();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let f = line.split(';').next().unwrap().trim();
        assert_eq!(fen(f).to_fen(), f);
    }
    let six = fen("rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0 1");
    assert_eq!(six.to_fen(), START_FEN);
    let cases = [
        ("rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0 1 X@a1", "waiting"),
        ("rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0 1 n@b1", "waiting"),
        ("rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0 1 P@e4", "waiting"),
        ("rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR x KQkq - 0 1 -", "side to move"),
        ("rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkqK - 0 1 -", "castling"),
        ("rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq e4 0 1 -", "en passant"),
        ("rnbcqkcbnr/*8*/pppppppppp/11/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0 1 -", "placement"),
        ("rnbcqkcbnr/*8*/pppppppppp/**8/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0 1 -", "placement"),
        ("rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq", "FEN"),
        ("rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0 1 - x", "FEN"),
    ];
    for (bad, field) in cases {
        let e = CatsChess10::from_fen(bad).unwrap_err();
        assert!(e.to_string().contains(field), "{bad}: {e}");
    }
}

/// As in chess (`tests/catchess_fen.rs`), a FEN may leave out its clocks
/// (EPD's four fields, or five): halfmove clock 0, move 1, nothing
/// waiting (#62: the page's Load FEN refused them).
#[test]
fn a_fen_without_its_clocks_gets_clock_0_move_1_and_nothing_waiting() {
    let placement = "rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR";
    assert_eq!(fen(&format!("{placement} w KQkq -")).to_fen(), START_FEN);
    assert_eq!(fen(&format!("{placement} b KQkq - 7")).to_fen(), format!("{placement} b KQkq - 7 1 -"));
}

#[test]
fn fen_fuzz_never_panics() {
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let alphabet: Vec<char> = "rnbqkpcmtRNBQKPCMT*0123456789/ -@,wabcdefghij".chars().collect();
    let base: Vec<char> = START_FEN.chars().collect();
    for i in 0..5000 {
        let s: String = if i % 2 == 0 {
            let len = (next() % 120) as usize;
            (0..len).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]).collect()
        } else {
            let mut c = base.clone();
            for _ in 0..(1 + next() % 4) {
                let at = (next() % c.len() as u64) as usize;
                c[at] = alphabet[(next() % alphabet.len() as u64) as usize];
            }
            c.into_iter().collect()
        };
        if let Ok(p) = CatsChess10::from_fen(&s) {
            let _ = perft(&p, 1);
            assert_eq!(CatsChess10::from_fen(&p.to_fen()).map(|q| q.to_fen()), Ok(p.to_fen()));
        }
        let _ = CatsChess10::startpos().parse_turn(&s);
    }
}

#[test]
fn render_draws_the_board_and_waiting_pieces() {
    let p = fen("mmmmmkmmmm/10/10/10/10/10/4P5/10/10/MMMMMKMMMM w - - 0 1 R@a1,r@a10");
    let text = p.render();
    assert!(text.contains(" 10 |[m] m  m  m  m  k  m  m  m  m  |"), "{text}");
    assert!(text.contains("Waiting: R@a1,r@a10"));
    assert!(text.contains("      a  b  c  d  e  f  g  h  i  j"));
    assert_eq!(Phase::default(), Phase::Start);
}
