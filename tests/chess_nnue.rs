//! The protocol's `EvalFile`: a standard-chess, xiangqi or Cat Chess
//! network, loaded by the real binary, becomes the evaluation the search of
//! its game uses; bad files are refused with the evaluation unchanged.

mod common;
use common::{engine, run, temp};

use catchess::games::chess::nnue::cats as cats_nnue;
use catchess::games::nnue::{Kind, Network, Shape, CATCHESS, CHESS, HIDDEN, MAX_OUTPUT_WEIGHT, QA, XIANGQI};
use catchess::games::xiangqi::{nnue as xiangqi_nnue, Xiangqi};
use catchess::{Chess, MoveList};
use engine::Engine;
use run::catchess;
use temp::temp;

/// A chess network with small, varied weights (a fixed pattern, no training).
fn patterned() -> Network {
    patterned_of(&CHESS)
}

/// A network of `shape`'s game, as [`patterned`].
fn patterned_of(shape: &'static Shape) -> Network {
    let w = |i: usize, m: usize| ((i * 7919 + 13) % m) as i16 - (m / 2) as i16;
    Network {
        shape,
        kind: Kind::Whole,
        hidden_weights: (0..shape.inputs() * HIDDEN).map(|i| w(i, 61)).collect(),
        hidden_bias: (0..HIDDEN).map(|i| w(i, 201)).collect(),
        output_weights: (0..shape.output_weights()).map(|i| w(i, 101)).collect(),
        output_biases: (0..shape.outputs.count() as i32).map(|o| 500 - 400 * o).collect(),
    }
}

/// Writes `bytes` to a file of this run's (see [`temp`]) and returns its
/// path for `setoption`.
fn written(name: &str, bytes: &[u8]) -> String {
    let path = temp(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

fn chess_engine() -> Engine {
    let mut e = Engine::start();
    assert!(e.ask("setoption name UCI_Variant value chess").is_empty());
    e
}

/// The `go depth 1` score, in centipawns.
fn depth_one_score(e: &mut Engine) -> i32 {
    let (lines, _) = e.go("depth 1");
    let info = lines.iter().rev().find(|l| l.contains(" score cp ")).expect("a scored info line");
    let after = info.split(" score cp ").nth(1).unwrap();
    after.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn an_eval_file_becomes_the_chess_evaluation() {
    let net = patterned();
    let file = written("good.nnue", &net.to_bytes());
    // No captures anywhere: a depth-1 search is the best static value of
    // the positions one move on, as the mover sees them.
    let fen = "4k3/pp6/8/8/8/8/6PP/4K3 w - - 0 1";
    let pos = Chess::from_fen(fen).unwrap();
    let mut e = chess_engine();
    e.ask(&format!("position fen {fen}"));
    assert!(e
        .ask("eval")
        .iter()
        .any(|l| l.starts_with("network:") && l.ends_with("from <built-in>; the search uses it")));
    let built_in = depth_one_score(&mut e);

    let out = e.ask(&format!("setoption name EvalFile value {}", file));
    assert!(out.is_empty(), "{out:?}");
    let eval = e.ask("eval");
    let line = eval.iter().find(|l| l.starts_with("network:")).expect("eval shows the network");
    assert!(line.starts_with(&format!("network: {} cp (white's view), from {}", net.evaluate(&pos), file)));

    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    let best = list.iter().map(|&m| net.evaluate(&pos.play(m))).max().unwrap();
    // The search that came before left the built-in network's static
    // values in the table: loading the network must forget them.
    let searched = depth_one_score(&mut e);
    assert_eq!(searched, best);
    assert_ne!(searched, built_in, "the patterned network should not agree with the built-in one");

    // The same file again is fine; another is refused.
    assert!(e.ask(&format!("setoption name EvalFile value {}", file)).is_empty());
    let other = written("other.nnue", &net.to_bytes());
    let out = e.ask(&format!("setoption name EvalFile value {}", other));
    assert_eq!(
        out,
        [format!("info string error: setoption: EvalFile is {} already; restart the engine to choose another", file)]
    );
}

#[test]
fn no_network_leaves_the_hand_made_evaluation() {
    // No captures anywhere (see above), and a position the built-in
    // network corrects at depth 1 (a new network may need another).
    let fen = "4k3/ppp5/8/8/8/8/5PPP/4K3 w - - 0 1";
    let pos = Chess::from_fen(fen).unwrap();
    let mut e = chess_engine();
    assert!(e.ask("uci").contains(&"option name EvalFile type string default <built-in>".to_string()));
    e.ask(&format!("position fen {fen}"));
    let built_in = depth_one_score(&mut e);
    assert!(e.ask("setoption name EvalFile value <none>").is_empty());
    assert!(!e.ask("eval").iter().any(|l| l.starts_with("network:")));
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    let best = list.iter().map(|&m| pos.play(m).hand_made_value()).max().unwrap();
    assert_eq!(depth_one_score(&mut e), best);
    assert_ne!(best, built_in, "the built-in network should correct the hand-made evaluation here");
    // The choice is made: the built-in network is refused now.
    let out = e.ask("setoption name EvalFile value <built-in>");
    assert_eq!(out, ["info string error: setoption: EvalFile is <none> already; restart the engine to choose another"]);
}

#[test]
fn a_correction_file_corrects_the_hand_made_evaluation() {
    let net = Network { kind: Kind::Correction, ..patterned() };
    let file = written("correction.nnue", &net.to_bytes());
    let fen = "4k3/pp6/8/8/8/8/6PP/4K3 w - - 0 1";
    let pos = Chess::from_fen(fen).unwrap();
    let value = |p: &Chess| p.hand_made_value() + net.evaluate(p);
    let mut e = chess_engine();
    e.ask(&format!("position fen {fen}"));
    assert!(e.ask(&format!("setoption name EvalFile value {}", file)).is_empty());
    let eval = e.ask("eval");
    let line = eval.iter().find(|l| l.starts_with("network:")).expect("eval shows the network");
    let expected = format!(
        "network: {} cp (white's view) (the total above corrected by {:+} cp), from {}",
        value(&pos),
        net.evaluate(&pos),
        file
    );
    assert!(line.starts_with(&expected), "{line}\n{expected}");
    assert_ne!(net.evaluate(&pos), 0);

    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    let best = list.iter().map(|&m| value(&pos.play(m))).max().unwrap();
    assert_eq!(depth_one_score(&mut e), best);
}

/// A network file may be valid yet value positions far beyond any real
/// advantage: every weight at its limit gives the mover about +2000
/// pawns. The search must keep such values below its mate scores (and
/// within what its table stores), so it reports centipawns, never a mate
/// it has not found, and still answers with a legal move.
#[test]
fn a_loud_network_never_scores_a_mate() {
    let loud = Network {
        shape: &CHESS,
        kind: Kind::Whole,
        hidden_weights: vec![0; CHESS.inputs() * HIDDEN],
        hidden_bias: vec![QA as i16; HIDDEN],
        output_weights: vec![MAX_OUTPUT_WEIGHT; 2 * HIDDEN],
        output_biases: vec![0],
    };
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    assert!(
        loud.evaluate(&Chess::from_fen(fen).unwrap()) > 100_000,
        "the file must be loud for the test to mean anything"
    );
    let file = written("loud.nnue", &loud.to_bytes());
    let mut e = chess_engine();
    assert!(e.ask(&format!("setoption name EvalFile value {file}")).is_empty());
    e.ask(&format!("position fen {fen}"));
    for depth in 1..=4 {
        let (lines, best) = e.go(&format!("depth {depth}"));
        let scores: Vec<&str> = lines.iter().filter_map(|l| l.split(" score ").nth(1)).collect();
        assert!(!scores.is_empty(), "{lines:?}");
        for s in scores {
            let words: Vec<&str> = s.split_whitespace().collect();
            assert_eq!(words[0], "cp", "depth {depth}: {s}");
            let cp: i32 = words[1].parse().unwrap();
            assert!(cp.abs() < 31_000, "depth {depth}: {s}");
        }
        assert!(["e1d1", "e1f1", "e1d2", "e1f2", "e2e3", "e2e4"].contains(&best.as_str()), "{best}");
    }
}

#[test]
fn bad_network_files_are_refused_and_the_evaluation_stays() {
    let short = written("short.nnue", &patterned().to_bytes()[..1000]);
    let text = written("text.nnue", b"hello");
    let mut e = chess_engine();
    e.ask("position startpos");
    let before = e.ask("eval");
    let missing = "/nonexistent/catchess.nnue";
    for (path, reason) in [
        (missing, format!("cannot read {missing}: ")),
        (short.as_str(), format!("{}: the network file has 1000 bytes", short)),
        (text.as_str(), format!("{}: not a catchess network file", text)),
        // Neither hangs nor fills memory.
        ("/dev/zero", "/dev/zero is not a regular file".to_string()),
        ("/tmp", "/tmp is not a regular file".to_string()),
    ] {
        let out = e.ask(&format!("setoption name EvalFile value {path}"));
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0].starts_with(&format!("info string error: setoption: {reason}")), "{out:?}");
    }
    assert_eq!(e.ask("eval"), before);
    assert!(e.ask("setoption name EvalFile value <empty>").is_empty());
}

#[test]
fn a_xiangqi_file_becomes_the_xiangqi_evaluation_and_leaves_chess_s() {
    let net = Network { kind: Kind::Correction, ..patterned_of(&XIANGQI) };
    let file = written("xiangqi.nnue", &net.to_bytes());
    // Men that can capture nothing, now or one move on.
    let fen = "3k5/9/9/p8/9/9/8P/9/9/4K4 b - - 0 1";
    let pos = Xiangqi::from_fen(fen).unwrap();
    let value = |p: &Xiangqi| xiangqi_nnue::value_summed(&net, p, || p.hand_made_value());
    assert_ne!(value(&pos), pos.hand_made_value(), "the network must correct something here");
    let mut e = Engine::start();
    assert!(e.ask("setoption name UCI_Variant value xiangqi").is_empty());
    e.ask(&format!("position fen {fen}"));
    // By default xiangqi evaluates with its built-in network.
    assert!(e.ask("eval").iter().any(|l| l.starts_with("network:") && l.contains("from <built-in>")));
    assert!(e.ask(&format!("setoption name EvalFile value {file}")).is_empty());
    let eval = e.ask("eval");
    let line = eval.iter().find(|l| l.starts_with("network:")).expect("eval shows the network");
    assert!(line.starts_with(&format!("network: {} cp (red's view), from {file}", value(&pos))), "{line}");
    // Standard chess keeps its built-in network, and may still choose.
    assert!(e.ask("setoption name UCI_Variant value chess").is_empty());
    e.ask("position startpos");
    assert!(e.ask("eval").iter().any(|l| l.starts_with("network:") && l.contains("from <built-in>")));
    let chess_file = written("chess-beside-xiangqi.nnue", &patterned().to_bytes());
    assert!(e.ask(&format!("setoption name EvalFile value {chess_file}")).is_empty());
    // `<none>` now would change both games' choices: refused.
    let out = e.ask("setoption name EvalFile value <none>");
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].contains("already; restart the engine"), "{out:?}");
    // Xiangqi's own search reads the network: a depth-1 score of black's
    // is the best network value one move on, as black sees it.
    assert!(e.ask("setoption name UCI_Variant value xiangqi").is_empty());
    e.ask(&format!("position fen {fen}"));
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    assert!(list.iter().all(|&m| pos.piece_at(m.to()).is_none()), "no captures here, so depth 1 is static values");
    let best = list.iter().map(|&m| -value(&pos.play(m))).max().unwrap();
    assert_eq!(depth_one_score(&mut e), best);
}

#[test]
fn a_cat_chess_file_becomes_the_cat_chess_evaluation_and_leaves_chess_s() {
    let net = patterned_of(&CATCHESS);
    let file = written("catchess.nnue", &net.to_bytes());
    let fen = "r1bqkb1r/pppp1ppp/*1n2n2/4p3/2B1P2*/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let pos = catchess::CatChess::from_fen(fen).unwrap();
    let [w, b, c] = cats_nnue::chances_summed(&net, &pos);
    assert!(w > 0.01 && b > 0.01 && c > 0.01 && w != b, "the chances test nothing: {w} {b} {c}");
    let value = catchess::search::three_way::value_of(w, b);
    let mut e = Engine::start();
    assert!(e.ask("setoption name UCI_Variant value catchess").is_empty());
    e.ask(&format!("position fen {fen}"));
    // By default Cat Chess evaluates by hand.
    assert!(!e.ask("eval").iter().any(|l| l.starts_with("network:")));
    assert!(e.ask(&format!("setoption name EvalFile value {file}")).is_empty());
    let eval = e.ask("eval");
    let line = eval.iter().find(|l| l.starts_with("network:")).expect("eval shows the network");
    let percent = |p: f32| format!("{:.1} %", 100.0 * p);
    let expected = format!(
        "network: white mates {}, black mates {}, the cats win {}: {value} cp (white's view), from {file}",
        percent(w),
        percent(b),
        percent(c)
    );
    assert!(line.starts_with(&expected), "{line}\nexpected {expected}");
    // The search reads it: a depth-1 search ends with a move.
    let (_, best) = e.go("depth 1");
    assert!(!best.is_empty() && best != "(none)", "{best}");
    // Standard chess keeps its built-in network.
    assert!(e.ask("setoption name UCI_Variant value chess").is_empty());
    e.ask("position startpos");
    assert!(e.ask("eval").iter().any(|l| l.starts_with("network:") && l.contains("from <built-in>")));
    // A Cat Chess network is no chess network, however it is named.
    let chess = written("catchess-as-chess.nnue", &net.to_bytes());
    assert!(Network::from_bytes(&CHESS, &std::fs::read(&chess).unwrap()).unwrap_err().contains("CATNNUE2"));
}

#[test]
fn a_file_of_no_game_is_refused_by_its_magic() {
    let mut bytes = patterned().to_bytes();
    bytes[..8].copy_from_slice(b"CATNNZZ9");
    let file = written("unknown-game.nnue", &bytes);
    let mut e = chess_engine();
    let out = e.ask(&format!("setoption name EvalFile value {file}"));
    assert_eq!(out, [format!("info string error: setoption: {file}: not a catchess network file (it starts with none of CATNNUE2, CATNNCC1, CATNNXQ1)")]);
}

#[test]
fn bench_takes_the_same_choices() {
    let nodes = |eval_file: Option<&str>| {
        let mut args = vec!["bench", "--variant", "chess", "--depth", "4"];
        args.extend(eval_file.map(|f| ["--eval-file", f]).into_iter().flatten());
        let (ok, text, err) = catchess(&args);
        assert!(ok, "{args:?}: {err}");
        let line = text.lines().find(|l| l.starts_with("Nodes searched")).unwrap_or_else(|| panic!("{text}"));
        line.rsplit(' ').next().unwrap().parse::<u64>().unwrap()
    };
    let default = nodes(None);
    assert_eq!(nodes(Some("<built-in>")), default);
    // A GUI's empty field is the default, not a file named "<empty>".
    assert_eq!(nodes(Some("<empty>")), default);
    assert_ne!(nodes(Some("<none>")), default, "the built-in network should change the search");
}
