//! Every parser of outside text, fuzzed (#59): moves and turns of all four
//! games (the protocol's text and the records'), FENs, EPD lines and perft
//! suites, the arbiter's engine, book, time-control, adjudication and SPRT
//! specs, protocol command lines, what an engine under test writes, and
//! network files, datagen's chess records (match records and every other reader of PGN: in
//! `pgn_fuzz.rs`). Each is fed random
//! bytes, random Unicode and mutations of valid inputs
//! (`common::fuzz`); none may panic, and what each accepts must make
//! sense (a FEN reads back to the same position, a move is legal and is
//! written as it was read). The web API's bodies are fuzzed over HTTP in
//! `fuzz_api_bodies_get_an_answer_below_500`.
//!
//! The `#[ignore]` tests are the long runs: `CATCHESS_FUZZ_CASES=200000
//! cargo test --test fuzz_parsers -- --ignored`.

mod common;

use catchess::game::pgn::record::SearchNote;
use catchess::game::pgn::record_turn;
use catchess::game::random_turn;
use catchess::games::chess::{CatChessRules, ChessRules, Position, Variant};
use catchess::tournament::engine::UciInfo;
use catchess::tournament::openings::{line_fen, BookSpec};
use catchess::tournament::spec::{parse_seat_tc, DrawRule, EngineSpec, ResignRule, SprtSpec, TimeControl};
use catchess::{Arbitration, CatChess, CatsChess10, Chess, Game, History, MoveList, Notation, Xiangqi};
use common::fuzz::fuzz;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The start and a few positions of random play (each turn's steps with
/// the rolls the rules make), for the move parsers to work in.
fn positions<G: Notation>() -> Vec<G> {
    let mut rng = StdRng::seed_from_u64(59);
    let mut found = vec![G::startpos()];
    for _ in 0..3 {
        let mut pos = G::startpos();
        for _ in 0..rng.gen_range(4..30) {
            let Some(steps) = random_turn(&pos, true, |_, _, _, n| rng.gen_range(0..n)) else { break };
            for m in steps {
                pos = pos.play(m);
            }
        }
        found.push(pos);
    }
    found
}

/// The valid texts of a position: every legal move as the protocol and
/// the record write it, and (in 10×10) every whole turn.
fn move_seeds<G: Notation>(pos: &G) -> Vec<String> {
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    let mut seeds: Vec<String> = list.iter().flat_map(|&m| [m.to_string(), pos.record_move(m)]).collect();
    let mut rng = StdRng::seed_from_u64(60);
    for _ in 0..8 {
        if let Some(steps) = random_turn(pos, false, |_, _, _, n| rng.gen_range(0..n)) {
            seeds.push(pos.turn_text(&steps));
        }
    }
    seeds.extend(["é2é4", "\u{202e}e2e4", "0000", "T@?", "reroll", "T?e5", "O-O-O"].map(String::from));
    seeds
}

/// Plays `steps` from `pos`, each of which must be legal there.
fn play_legal<G: Game>(pos: &G, steps: &[G::Move], text: &str) -> G {
    steps.iter().fold(*pos, |p, &m| {
        let mut list = MoveList::default();
        p.legal_moves(&mut list);
        assert!(list.iter().any(|&l| l == m), "{text:?} gave {m}, not legal here");
        p.play(m)
    })
}

fn moves_and_turns<G: Notation + Arbitration>() {
    for pos in positions::<G>() {
        let seeds = move_seeds(&pos);
        fuzz(&format!("{} moves at {}", G::VARIANT, pos.to_fen()), seeds, |text| {
            if let Ok(m) = pos.parse_move(text) {
                assert_eq!(m.to_string(), text, "a move reads as it is written");
                play_legal(&pos, &[m], text);
            }
            if let Ok(steps) = pos.parse_turn(text) {
                play_legal(&pos, &steps, text);
                assert_eq!(pos.parse_turn(&pos.turn_text(&steps)), Ok(steps.clone()), "{text:?}");
            }
            if let Ok(steps) = pos.parse_answer(text) {
                play_legal(&pos, &steps, text);
            }
            // A record's move (SAN, WXF, the arbiter's pass) may be the
            // pass, which the arbiter plays though it is not legal.
            let _ = record_turn(&pos, text);
            let mut history = History::new(pos);
            let _ = history.push_text(text);
            let _ = history.push_protocol(text);
            let _ = history.push_answer(text);
        });
    }
}

#[test]
fn chess_moves() {
    moves_and_turns::<Chess>();
}

#[test]
fn catchess_moves() {
    moves_and_turns::<CatChess>();
}

#[test]
fn xiangqi_moves() {
    moves_and_turns::<Xiangqi>();
}

#[test]
fn catschess10_moves_and_turns() {
    moves_and_turns::<CatsChess10>();
}

fn fens<G: Notation>() {
    let seeds: Vec<String> = positions::<G>().iter().map(|p| p.to_fen()).collect();
    fuzz(&format!("{} FEN", G::VARIANT), seeds, |text| {
        if let Ok(pos) = G::from_fen(text) {
            let fen = pos.to_fen();
            let again = G::from_fen(&fen).unwrap_or_else(|e| panic!("{text:?} read, but its FEN {fen:?} not: {e}"));
            assert_eq!(again.to_fen(), fen, "{text:?}");
            // A position read from outside must be one the rules can
            // work on: its moves generated, played and counted.
            let mut list = MoveList::default();
            pos.legal_moves(&mut list);
            assert_eq!(list.len() as u64, pos.count_legal_moves(), "{text:?}");
            for &m in list.iter().take(8) {
                let _ = pos.play(m).key();
            }
            let _ = pos.render();
        }
    });
}

#[test]
fn chess_fens() {
    fens::<Chess>();
}

#[test]
fn catchess_fens() {
    fens::<CatChess>();
}

#[test]
fn xiangqi_fens() {
    fens::<Xiangqi>();
}

#[test]
fn catschess10_fens() {
    fens::<CatsChess10>();
}

/// The endgame tables' own position reader (`tb probe`'s lines).
fn table_fens<V: Variant>() {
    let seeds = vec![
        "8/8/8/8/8/8/8/K6k w - - 0 1".to_string(),
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 c:a8,h1".to_string(),
        Position::<V>::startpos().to_fen(),
    ];
    fuzz("table FEN", seeds, |text| {
        if let Ok(pos) = Position::<V>::from_fen(text) {
            let _ = pos.to_fen();
        }
    });
}

#[test]
fn table_fens_of_both_games() {
    table_fens::<CatChessRules>();
    table_fens::<ChessRules>();
}

#[test]
fn epd_lines_and_perft_suites() {
    let seeds = vec![
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 3; fmvn 7;".to_string(),
        "# variant: catchess\n# why: cats\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400"
            .to_string(),
    ];
    fuzz("EPD and perft suites", seeds, |text| {
        let _ = line_fen(text);
        if let Ok(entries) = catchess::perft::parse_suite(text) {
            assert!(entries.iter().all(|e| !e.counts.is_empty()));
            assert!(entries.iter().flat_map(|e| &e.counts).all(|&(d, _)| d <= catchess::game::perft::MAX_DEPTH));
            let _ = catchess::perft::suite_variant(&entries, None);
        }
        let _ = catchess::perft::declared_variant(text);
    });
}

#[test]
fn match_specs() {
    let seeds = [
        "name=A cmd=\"./catchess\" dir=/tmp option.Hash=16 \"option.Move Overhead=100\" tc=depth=6 seat=cats",
        "cmd='catchess random' option.Seed=1",
        "10+0.1",
        "40/60",
        "movetime=300",
        "nodes=5000",
        "cats:depth=2",
        "movenumber=40 movecount=8 score=10",
        "movecount=3,score=600",
        "0,10,0.05,0.05",
        "file=book.pgn plies=8 order=random format=pgn",
        "book.epd",
    ]
    .map(String::from)
    .to_vec();
    fuzz("match specs", seeds, |text| {
        let _ = EngineSpec::parse(text);
        let _ = TimeControl::parse(text);
        let _ = parse_seat_tc(text);
        let _ = DrawRule::parse(text);
        let _ = ResignRule::parse(text);
        let _ = SprtSpec::parse(text);
        let _ = BookSpec::parse(text);
        let _ = catchess::tournament::standings::parse_pairs(text);
    });
}

#[test]
fn protocol_command_lines() {
    let seeds = [
        "uci",
        "setoption name UCI_Variant value catschess10",
        "setoption name Move Overhead value 100",
        "position startpos moves e2e4 e7e5",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves é2é4",
        "go wtime 1000 btime 1000 ctime 500 winc 10 binc 10 movestogo 20",
        "go ponder searchmoves e2e4 d2d4 depth 3",
        "go perft 3000",
        "go mate 3 nodes 1000 movetime 50 infinite",
        "ponderhit",
        "stop",
        "d",
        "eval",
    ]
    .map(String::from)
    .to_vec();
    fuzz("protocol lines", seeds, |text| {
        let _ = catchess::uci::command::parse(text);
    });
}

/// What an engine under test writes, as the arbiter reads it.
#[test]
fn engine_output_lines() {
    let seeds = [
        "option name UCI_Variant type combo default chess var chess var catchess var xiangqi",
        "option name Hash type spin default 16 min 1 max 65536",
        "info depth 12 seldepth 20 score cp -35 nodes 100 pv e2e4 e7e5",
        "info depth 3 score mate -2 wdl 0 10 990",
        "id name fake",
        "bestmove é2é4 ponder e7e5",
    ]
    .map(String::from)
    .to_vec();
    fuzz("engine output", seeds, |text| {
        let mut info = UciInfo::default();
        info.read_option(text);
        let _ = info.has_option("Hash");
        let mut note = SearchNote::default();
        note.read_info(text);
    });
}

/// `EvalFile`: a network file is read whole and checked, never trusted.
#[test]
fn network_files() {
    use catchess::games::nnue::{Network, CHESS, XIANGQI};
    let built_in = catchess::games::chess::nnue::CHOICE
        .read(catchess::games::chess::nnue::BUILT_IN_NAME)
        .expect("the built-in network")
        .to_bytes();
    let mut rng = StdRng::seed_from_u64(62);
    let cases = common::fuzz::cases().min(2000);
    for case in 0..cases {
        let bytes = mutated_bytes(&mut rng, &built_in, case, 256, 8);
        let _ = Network::from_bytes(&CHESS, &bytes);
        let _ = Network::from_bytes(&XIANGQI, &bytes);
    }
}

/// Case `case` of a binary file's fuzz: random bytes (fewer than
/// `random`) one case in four, a prefix of `valid` one in four, `valid`
/// itself the rest; then fewer than `changes` bytes replaced at random.
fn mutated_bytes(rng: &mut StdRng, valid: &[u8], case: u32, random: usize, changes: usize) -> Vec<u8> {
    let mut bytes = match case % 4 {
        0 => (0..rng.gen_range(0..random)).map(|_| rng.gen()).collect(),
        1 => valid[..rng.gen_range(0..valid.len())].to_vec(),
        _ => valid.to_vec(),
    };
    for _ in 0..rng.gen_range(1..changes) {
        if bytes.is_empty() {
            break;
        }
        let i = rng.gen_range(0..bytes.len());
        bytes[i] = rng.gen();
    }
    bytes
}

/// `catchess datagen`'s chess records (bulletformat) as the trainer reads
/// them: whatever the bytes, an error or a record that the writer would
/// write again byte for byte (but for the three unused bytes), never a
/// panic.
#[test]
fn datagen_chess_records() {
    use catchess::datagen::format::bullet;
    use catchess::Seat;
    let mut valid = Vec::new();
    for (fen, score, winner) in [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 20, None),
        ("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 3 9", -45, Some(Seat::new(1))),
        ("8/8/4k3/8/2K5/8/3P4/8 w - - 0 50", 310, Some(Seat::new(0))),
    ] {
        let pos = Chess::from_fen(fen).unwrap();
        valid.extend(bullet::to_bytes(&bullet::board(&pos, score, winner).unwrap()));
    }
    let mut rng = StdRng::seed_from_u64(63);
    let (mut decoded, mut refused) = (0, 0);
    for case in 0..common::fuzz::cases().min(4000) {
        let bytes = mutated_bytes(&mut rng, &valid, case, 100, 4);
        for (i, record) in bullet::Reader::new(&bytes[..]).enumerate() {
            let Ok(board) = record else {
                refused += 1;
                break;
            };
            let Ok(d) = bullet::decode(&board) else {
                refused += 1;
                continue;
            };
            decoded += 1;
            // Written again from the side to move's view (white, to move).
            let winner = match d.result {
                bullet::Outcome::Win => Some(Seat::new(0)),
                bullet::Outcome::Loss => Some(Seat::new(1)),
                bullet::Outcome::Draw => None,
            };
            let again = bullet::to_bytes(&bullet::board(&d.pos, d.score, winner).unwrap());
            assert_eq!(again[..29], bytes[32 * i..32 * i + 29], "record {i} of {bytes:?}");
        }
    }
    assert!(decoded > 100 && refused > 100, "{decoded} records decoded, {refused} refused");
}

#[test]
#[ignore = "long run: set CATCHESS_FUZZ_CASES"]
fn long_run_of_every_parser() {
    moves_and_turns::<Chess>();
    moves_and_turns::<CatChess>();
    moves_and_turns::<Xiangqi>();
    moves_and_turns::<CatsChess10>();
    fens::<Chess>();
    fens::<CatChess>();
    fens::<Xiangqi>();
    fens::<CatsChess10>();
    epd_lines_and_perft_suites();
    match_specs();
    protocol_command_lines();
    engine_output_lines();
}
