//! The protocol of protocol.md, spoken to the real binary.

mod common;
use common::engine;

use engine::Engine;
use std::time::{Duration, Instant};

/// The moves of a random Cat Chess game from the start, stopped when the
/// game ends or after `plies` plies.
fn random_game(plies: usize) -> Vec<String> {
    use catchess::{CatChess, History, MoveList};
    use rand::{rngs::StdRng, Rng, SeedableRng};
    let mut rng = StdRng::seed_from_u64(11);
    let mut game = History::new(CatChess::startpos());
    let mut moves = Vec::new();
    while moves.len() < plies && game.outcome().is_none() {
        let mut list = MoveList::default();
        game.current().legal_moves(&mut list);
        let m = list.as_slice()[rng.gen_range(0..list.len())];
        moves.push(m.to_string());
        game.push(m);
    }
    moves
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info string error:")).collect()
}

#[test]
fn uci_handshake_lists_the_options() {
    let mut e = Engine::catchess();
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name catchess"));
    assert!(lines[1].starts_with("id author"));
    for opt in [
        "option name UCI_Variant type combo default catchess var catchess var chess var xiangqi var catschess10",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name Ponder type check default false",
        "option name UCI_ShowWDL type check default false",
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 256",
        "option name Move Overhead type spin default 30 min 0 max 5000",
        "option name Clear Hash type button",
    ] {
        assert!(lines.iter().any(|l| l == opt), "missing {opt:?} in {lines:#?}");
    }
    assert_eq!(e.ask("isready"), Vec::<String>::new());
}

#[test]
fn position_and_d_show_the_board_fen_and_zone() {
    let mut e = Engine::catchess();
    let out = e.ask("position startpos moves e2e4 e7e5 h5g5");
    assert!(errors(&out).is_empty(), "{out:?}");
    let d = e.ask("d");
    let text = d.join("\n");
    assert!(text.contains("Fen: rnbqkbnr/pppp1ppp/8/4p1*1/*3P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"), "{text}");
    assert!(text.contains("To move: white"));
    assert!(text.contains("No-kill zone: a3 b3 a4 b4 f4 g4 h4 a5 b5 f5 g5 h5 f6 g6 h6"), "{text}");
    assert!(text.contains("Outcome: none"));
    assert_eq!(e.ask("outcome"), ["outcome none"]);
}

#[test]
fn bad_input_is_reported_and_the_position_is_kept() {
    let mut e = Engine::catchess();
    e.ask("position startpos moves e2e4");
    let fen_before = e.ask("d").into_iter().find(|l| l.starts_with("Fen:")).unwrap();
    let cases = [
        ("frobnicate", "unknown command 'frobnicate'"),
        (
            "position startpos moves e2e4 e7e5 e5e4",
            "position: move 3 (e5e4): illegal move \"e5e4\": it is the cats' turn: only a cat moves (the pawn on e5 \
             waits); position unchanged",
        ),
        ("position startpos moves e2e4 zz", "position: move 2 (zz): cannot parse move \"zz\""),
        ("position fen 8/8/8 w - - 0 1", "invalid FEN (piece placement): 3 ranks, expected 8"),
        ("position fen rnbqkbnr/pppppppp/8/7*/*7/8/PPPPPPPP/RNBQKBNR w KQkq", "missing the en passant square"),
        ("position", "position: expected 'startpos' or 'fen <FEN>'"),
        ("setoption name Hash value lots", "option 'Hash' takes a whole number from 1 to 65536, got 'lots'"),
        ("setoption name Hash value 0", "from 1 to 65536"),
        ("setoption name Threads value 9999", "from 1 to 256"),
        ("setoption name UCI_Variant value shogi", "unknown variant \"shogi\""),
        ("setoption name Colour value blue", "unknown option 'Colour'"),
        ("setoption name Clear Hash value now", "is a button"),
    ];
    for (line, expected) in cases {
        let out = e.ask(line);
        let errs = errors(&out);
        assert_eq!(errs.len(), 1, "{line}: {out:?}");
        assert!(errs[0].contains(expected), "{line}: {:?} lacks {expected:?}", errs[0]);
    }
    let fen_after = e.ask("d").into_iter().find(|l| l.starts_with("Fen:")).unwrap();
    assert_eq!(fen_before, fen_after);
    // And it still plays.
    let (_, best) = e.go("depth 2");
    assert_eq!(best.len(), 4, "a black move: {best}");
}

#[test]
fn junk_bytes_long_lines_and_a_missing_newline_are_survived() {
    let mut e = Engine::catchess();
    e.send_bytes(b"\xff\xfe\x00garbage\r\n");
    assert_eq!(errors(&e.sync()).len(), 1);
    let long = format!("position startpos moves {}", "e2e4 ".repeat(300_000));
    e.send(&long);
    let out = e.sync();
    assert!(errors(&out)[0].contains("longer than the 1048576-byte limit"), "{out:?}");
    // A long but valid line: a random game of up to 900 plies.
    let moves = random_game(900);
    assert!(moves.len() > 100);
    let out = e.ask(&format!("position startpos moves {}", moves.join(" ")));
    assert!(errors(&out).is_empty(), "{out:?}");
    e.send_bytes(b"isready");
    e.close_stdin();
    assert_eq!(e.until(|l| l == "readyok").last().unwrap(), "readyok");
    assert!(e.exits_within(Duration::from_secs(10)), "the engine exits at end of input");
}

#[test]
fn a_moves_list_going_past_the_end_of_the_game_is_refused() {
    let mut e = Engine::catchess();
    // Fool's mate in chess, then one more move.
    e.ask("setoption name UCI_Variant value chess");
    let out = e.ask("position startpos moves f2f3 e7e5 g2g4 d8h4 e1f2");
    assert!(errors(&out)[0].contains("comes after the game ended: black (checkmate)"), "{out:?}");
}

#[test]
fn go_on_a_finished_game_reports_and_answers_none() {
    let mut e = Engine::catchess();
    e.ask("setoption name UCI_Variant value chess");
    e.ask("position startpos moves f2f3 e7e5 g2g4 d8h4");
    assert_eq!(e.ask("outcome"), ["outcome black checkmate"]);
    let (info, best) = e.go("depth 3");
    assert!(errors(&info)[0].contains("the game is over: black (checkmate)"), "{info:?}");
    assert_eq!(best, "(none)");
}

#[test]
fn go_depth_reports_info_and_a_legal_move() {
    let mut e = Engine::catchess();
    e.ask("position startpos");
    let (info, best) = e.go("depth 4");
    let last = info.iter().rev().find(|l| l.contains(" pv ")).expect("an info line with a pv");
    for field in ["depth 4", "seldepth", "nodes", "nps", "time", "hashfull", "score"] {
        assert!(last.contains(field), "{field} missing in {last}");
    }
    assert!(info.iter().any(|l| l.starts_with("info string outlook white")), "{info:?}");
    e.ask(&format!("position startpos moves {best}"));
    assert!(errors(&e.sync()).is_empty());
}

#[test]
fn the_outlook_gives_no_chance_to_a_side_whose_enemy_king_is_beside_a_cat() {
    let mut e = Engine::catchess();
    // Two white queens, black's king beside the a8 cat: never in check there.
    e.ask("position fen *k6/8/8/3*4/8/8/2QQ4/6K1 b - - 0 1");
    let (info, _) = e.go("depth 3");
    let outlook: Vec<&String> = info.iter().filter(|l| l.starts_with("info string outlook")).collect();
    assert_eq!(outlook.last().map(|l| l.as_str()), Some("info string outlook white 0 black 0 cats 100"), "{info:?}");
    // The king in the open: the queens win.
    e.ask("position fen 1k5*/8/8/3*4/8/8/2QQ4/6K1 b - - 0 1");
    let (info, _) = e.go("depth 3");
    let last = info.iter().rev().find(|l| l.starts_with("info string outlook")).unwrap();
    assert!(
        last.starts_with("info string outlook white 100") || last.starts_with("info string outlook white 9"),
        "{last}"
    );
}

#[test]
fn go_with_nodes_movetime_and_clocks_answers_in_time() {
    let mut e = Engine::catchess();
    e.ask("position startpos");
    let (_, best) = e.go("nodes 2000");
    assert!(!best.is_empty());
    let t = Instant::now();
    let (_, _) = e.go("movetime 300");
    assert!(t.elapsed() < Duration::from_secs(3), "movetime 300 took {:?}", t.elapsed());
    // Cats to move, with only a little time on the cats' clock.
    e.ask("position startpos moves e2e4 e7e5");
    let t = Instant::now();
    let (_, best) = e.go("wtime 60000 btime 60000 ctime 500 cinc 0");
    assert!(t.elapsed() < Duration::from_secs(3), "took {:?}", t.elapsed());
    assert!(["a4", "h5"].contains(&&best[..2]), "a cat move: {best}");
}

#[test]
fn stop_and_isready_are_answered_during_go_infinite() {
    let mut e = Engine::catchess();
    e.ask("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    e.send("isready");
    let before = e.until(|l| l == "readyok");
    assert!(t.elapsed() < Duration::from_secs(2));
    assert!(!before.iter().any(|l| l.starts_with("bestmove")), "no bestmove before stop");
    e.send("stop");
    let out = e.until(|l| l.starts_with("bestmove"));
    assert!(t.elapsed() < Duration::from_secs(3));
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
    // Exactly once: nothing more arrives.
    e.send("isready");
    let after = e.until(|l| l == "readyok");
    assert!(!after.iter().any(|l| l.starts_with("bestmove")), "{after:?}");
}

#[test]
fn go_perft_divides() {
    let mut e = Engine::catchess();
    e.ask("position startpos");
    e.send("go perft 3");
    let lines = e.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 3382");
    assert_eq!(lines.iter().filter(|l| l.contains(": ") && !l.starts_with("Nodes")).count(), 19);
    e.ask("setoption name UCI_Variant value chess");
    e.ask("position startpos");
    e.send("go perft 4");
    assert_eq!(e.until(|l| l.starts_with("Nodes searched")).last().unwrap(), "Nodes searched: 197281");
}

#[test]
fn the_cats_answer_with_a_cat_move_or_a_pass() {
    let mut e = Engine::catchess();
    e.ask("position fen *nbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQ1RK* c k - 2 3");
    let (_, best) = e.go("depth 3");
    assert_eq!(best, "0000");
    e.ask("position startpos moves e2e4 e7e5");
    let (_, best) = e.go("depth 3");
    assert!(["a4", "h5"].contains(&&best[..2]), "{best}");
}

#[test]
fn a_scripted_catchess_game_is_played_to_its_end_by_the_engine() {
    let mut e = Engine::catchess();
    e.ask("ucinewgame");
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..150 {
        e.ask(&format!("position startpos moves {}", moves.join(" ")));
        if e.ask("outcome") != ["outcome none"] {
            break;
        }
        let (_, best) = e.go("depth 2");
        assert!(best != "(none)", "{moves:?}");
        moves.push(best);
    }
    let out = e.ask(&format!("position startpos moves {}", moves.join(" ")));
    assert!(errors(&out).is_empty(), "every engine move is legal: {out:?}");
    assert!(moves.len() > 10);
}

#[test]
fn options_act() {
    let mut e = Engine::catchess();
    e.ask("setoption name Hash value 1");
    e.ask("position startpos");
    let (info, _) = e.go("depth 6");
    let hashfull = |info: &[String]| -> u32 {
        let l = info.iter().rev().find(|l| l.contains("hashfull")).unwrap();
        let w: Vec<&str> = l.split_whitespace().collect();
        w[w.iter().position(|x| *x == "hashfull").unwrap() + 1].parse().unwrap()
    };
    assert!(hashfull(&info) > 0);
    e.ask("setoption name Clear Hash");
    let (info, _) = e.go("depth 1");
    assert!(hashfull(&info) <= 1, "{info:?}");
    e.ask("setoption name UCI_Variant value chess");
    let d = e.ask("d").join("\n");
    assert!(d.contains("Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), "{d}");
    assert!(!d.contains("No-kill zone"));
    let (info, _) = e.go("depth 3");
    assert!(!info.iter().any(|l| l.contains("outlook")), "no three-way outlook in chess");
    e.ask("setoption name Threads value 2");
    let (_, best) = e.go("depth 5");
    assert_eq!(best.len(), 4);
}

#[test]
fn quit_exits_even_during_a_search() {
    let mut e = Engine::catchess();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("quit");
    assert!(e.exits_within(Duration::from_secs(5)));
}

#[test]
fn position_accepts_the_arbiters_forced_pass_for_the_cats_only() {
    // protocol.md, "Matches and faults": after a cats fault the arbiter
    // passes for the cats, although they could move.
    let mut e = Engine::catchess();
    let out = e.ask("position startpos moves e2e4 e7e5 0000 g1f3");
    assert!(errors(&out).is_empty(), "{out:?}");
    let d = e.ask("d").join("\n");
    assert!(d.contains("Fen: rnbqkbnr/pppp1ppp/8/4p2*/*3P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"), "{d}");
    let out = e.ask("position startpos moves 0000");
    assert_eq!(errors(&out).len(), 1, "white may not pass: {out:?}");
    assert!(out[0].contains("move 1 (0000): illegal move"), "{out:?}");
    e.ask("setoption name UCI_Variant value chess");
    let out = e.ask("position startpos moves e2e4 0000");
    assert_eq!(errors(&out).len(), 1, "chess has no pass: {out:?}");
}

/// Playing strength (protocol.md, "Playing strength"): the options are
/// listed, bad values are refused with an error that names the range, and
/// a weakened engine still answers every `go` with exactly one legal move in
/// every game, the cats' and the 10×10 turns included.
#[test]
fn weakened_engines_answer_every_go_once_with_a_legal_move() {
    let mut e = Engine::catchess();
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    for opt in [
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 2850 min 800 max 2850",
        "option name Skill Level type spin default 20 min 0 max 20",
    ] {
        assert!(lines.iter().any(|l| l == opt), "missing {opt:?} in {lines:#?}");
    }
    let out = e.ask("setoption name UCI_Elo value 5000");
    assert!(errors(&out)[0].contains("option 'UCI_Elo' takes a whole number from 800 to 2850, got '5000'"), "{out:?}");
    let out = e.ask("setoption name Skill Level value -3");
    assert!(errors(&out)[0].contains("from 0 to 20, got '-3'"), "{out:?}");
    let out = e.ask("setoption name UCI_LimitStrength value maybe");
    assert!(errors(&out)[0].contains("takes true or false"), "{out:?}");
    for variant in ["catchess", "chess", "xiangqi", "catschess10"] {
        for strength in ["name Skill Level value 0", "name UCI_LimitStrength value true"] {
            e.ask(&format!("setoption name UCI_Variant value {variant}"));
            e.ask("setoption name UCI_Elo value 800");
            e.ask(&format!("setoption {strength}"));
            e.ask("ucinewgame");
            let mut moves: Vec<String> = Vec::new();
            // A few turns each, so that every seat (the cats too) moves.
            for _ in 0..4 {
                e.ask(&format!("position startpos moves {}", moves.join(" ")));
                e.send("go depth 8");
                let lines = e.until(|l| l.starts_with("bestmove"));
                assert!(errors(&lines).is_empty(), "{variant}: {lines:?}");
                let best = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
                // No second bestmove follows.
                assert_eq!(e.sync().iter().filter(|l| l.starts_with("bestmove")).count(), 0, "{variant}");
                if best.ends_with("T@?") {
                    break; // The roll is the client's (tests/catschess10_protocol.rs).
                }
                let out = e.ask(&format!("position startpos moves {} {best}", moves.join(" ")));
                assert!(errors(&out).is_empty(), "{variant}: {best} is not legal: {out:?}");
                moves.push(best);
            }
            e.ask("setoption name Skill Level value 20");
            e.ask("setoption name UCI_LimitStrength value false");
        }
    }
}
