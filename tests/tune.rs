//! `catchess tune` end to end: records from a real `catchess match`, a fit,
//! the weights file it writes, and its errors.

mod common;
use common::{run, temp};

use run::catchess;
use std::path::PathBuf;
use temp::temp;

/// Self-play records of `variant`: the engine at depth 1 against itself
/// at depth 2 (two engines, so no game repeats), random openings, in the
/// file `name` (each test its own: tests run at once).
fn records(variant: &str, name: &str) -> PathBuf {
    let pgn = temp(name);
    let bin = env!("CARGO_BIN_EXE_catchess");
    let (ok, _, err) = catchess(&[
        "match",
        "--variant",
        variant,
        "--engine",
        &format!("name=d1 cmd=\"{bin}\" tc=depth=1"),
        "--engine",
        &format!("name=d2 cmd=\"{bin}\" tc=depth=2"),
        "--games",
        "40",
        "--random-plies",
        "6",
        "--seed",
        "5",
        "--maxmoves",
        "80",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    pgn
}

#[test]
fn tune_fits_match_records_and_writes_a_weights_file() {
    let pgn = records("chess", "selfplay-chess.pgn");
    let out = temp("weights.rs");
    let (ok, _, err) = catchess(&[
        "tune",
        "--variant",
        "chess",
        "--pgn",
        pgn.to_str().unwrap(),
        "--epochs",
        "50",
        "--lambda",
        "0.5",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("40 games (0 left out, 0 repeats)"), "{err}");
    assert!(err.contains("positions have a search score"), "{err}");
    assert!(err.contains("held-out loss against results alone"), "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    let count = catchess::games::chess::eval::param::COUNT;
    assert!(text.contains(&format!("pub const WEIGHTS: [Tapered; {count}] = [")), "{text}");
    assert!(text.contains("tune --variant chess --pgn"), "the command that produced it:\n{text}");
    assert_eq!(text.matches("t(").count(), count + 1, "every weight, and the helper's definition");
    // Without --out the file goes to standard output.
    let (ok, stdout, err) = catchess(&["tune", "--variant", "chess", "--pgn", pgn.to_str().unwrap(), "--epochs", "25"]);
    assert!(ok, "{err}");
    assert!(stdout.contains("pub const WEIGHTS"), "{stdout}");

    // A game read twice is read once.
    let (ok, _, err) = catchess(&[
        "tune",
        "--pgn",
        pgn.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
        "--epochs",
        "25",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("40 games (0 left out, 40 repeats), 0 quiet positions"), "{err}");

    // `catchess train` learns a network from the same records.
    let net = temp("chess.nnue");
    let (ok, _, err) = catchess(&[
        "train",
        "--pgn",
        pgn.to_str().unwrap(),
        "--epochs",
        "3",
        "--threads",
        "1",
        "--out",
        net.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("40 games (0 left out, 0 repeats)"), "{err}");
    assert!(err.contains("epoch 3: loss"), "{err}");
    assert!(err.contains("held-out loss against the targets: hand-made 0."), "{err}");
    let network =
        catchess::games::chess::nnue::Network::from_bytes(&catchess::games::nnue::CHESS, &std::fs::read(&net).unwrap())
            .unwrap();
    assert!(network.hidden_weights.iter().any(|&w| w != 0));
    // Learning goes on from that network (a whole evaluation, so no --correction).
    let refined = temp("refined.nnue");
    let (ok, _, err) = catchess(&[
        "train",
        "--pgn",
        pgn.to_str().unwrap(),
        "--epochs",
        "1",
        "--threads",
        "1",
        "--init",
        net.to_str().unwrap(),
        "--out",
        refined.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("epoch 0 (the start): held out 0."), "{err}");
    assert!(err.contains("epoch 1: loss"), "{err}");
    assert!(catchess::games::chess::nnue::Network::from_bytes(
        &catchess::games::nnue::CHESS,
        &std::fs::read(&refined).unwrap()
    )
    .is_ok());
}

#[test]
fn tune_fits_xiangqi_weights_to_its_own_file() {
    let pgn = records("xiangqi", "selfplay-xiangqi.pgn");
    let out = temp("xiangqi-weights.rs");
    let (ok, _, err) = catchess(&[
        "tune",
        "--variant",
        "xiangqi",
        "--pgn",
        pgn.to_str().unwrap(),
        "--epochs",
        "30",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("40 games (0 left out, 0 repeats)"), "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    let count = catchess::games::xiangqi::eval::param::COUNT;
    assert!(text.contains("The evaluation weights of xiangqi"), "{text}");
    assert!(text.contains(&format!("pub const WEIGHTS: [Tapered; {count}] = [")), "{text}");
    assert!(text.contains("    // cannon aimed at the general\n"), "{text}");
    assert_eq!(text.matches("t(").count(), count + 1, "every weight, and the helper's definition");
}

#[test]
fn tune_refuses_what_it_cannot_do() {
    let one_game = temp("one.pgn");
    std::fs::write(&one_game, "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n")
        .unwrap();
    let path = one_game.to_str().unwrap();
    let cases: [(&[&str], &str); 11] = [
        (&["tune", "--pgn", path], "tuning needs at least 1000"),
        (&["train", "--pgn", path, "--out", "/tmp/x.nnue"], "training needs at least 1000"),
        (
            &["train", "--pgn", path, "--out", "/tmp/x.nnue", "--init", "<built-in>"],
            "the network to start from is a correction: add --correction",
        ),
        (&["train", "--pgn", path, "--out", "/tmp/x.nnue", "--init", "/nonexistent/x.nnue"], "--init: cannot read"),
        (&["train", "--pgn", path, "--out", "/tmp/x.nnue", "--init", "<none>"], "<none> is no network"),
        (&["train", "--pgn", path, "--out", "/tmp/x.nnue", "--rate", "0"], "--rate must be a positive number"),
        (&["train", "--pgn", path, "--out", "/tmp/x.nnue", "--lambda", "1.5"], "--lambda must be between 0 and 1"),
        (&["tune", "--variant", "catschess10", "--pgn", path], "the catschess10 evaluation has no tunable weights"),
        (&["tune", "--pgn", path, "--freeze", "knights"], "no group of weights named \"knights\""),
        (&["tune", "--pgn", path, "--lambda", "2"], "--lambda must be between 0 and 1"),
        (&["tune", "--pgn", "/nonexistent/x.pgn"], "cannot read /nonexistent/x.pgn"),
    ];
    for (args, message) in cases {
        let (ok, _, err) = catchess(args);
        assert!(!ok, "{args:?} should fail");
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

/// `catchess datagen` chess data: 14 games at 200 nodes a move.
fn datagen_chess(name: &str) -> PathBuf {
    datagen("chess", name)
}

/// A `catchess datagen` file of 14 short games of `variant`.
fn datagen(variant: &str, name: &str) -> PathBuf {
    let out = temp(name);
    let args = ["datagen", "--variant", variant, "--games", "14", "--nodes", "200", "--seed", "3", "--out"];
    let (ok, _, err) = catchess(&[&args[..], &[out.to_str().unwrap()]].concat());
    assert!(ok, "{err}");
    out
}

/// The number after `before` and before `after` in `text`.
fn number_between(text: &str, before: &str, after: &str) -> usize {
    let start = text.find(before).unwrap_or_else(|| panic!("no {before:?} in {text}")) + before.len();
    let end = text[start..].find(after).unwrap_or_else(|| panic!("no {after:?} after {before:?} in {text}"));
    text[start..start + end].parse().unwrap_or_else(|e| panic!("{before:?}..{after:?} in {text}: {e}"))
}

#[test]
fn train_learns_a_whole_network_from_datagen_data() {
    let data = datagen_chess("train-data.bin");
    let positions = std::fs::metadata(&data).unwrap().len() as usize / 32;
    let net = temp("from-data.nnue");
    // One pass of `catchess train` on `inputs`: its report, and the
    // positions learnt from and held out.
    let train = |inputs: &[&str]| {
        let tail = ["--epochs", "1", "--threads", "1", "--out", net.to_str().unwrap()];
        let (ok, _, err) = catchess(&[&["train"], inputs, &tail[..]].concat());
        assert!(ok, "{err}");
        let learnt = number_between(&err, "games told apart): ", " positions learnt from");
        let held = number_between(&err, "positions learnt from, ", " held out");
        (err, learnt, held)
    };
    let (err, learnt, held) = train(&["--data", data.to_str().unwrap()]);
    // Every position of the file, learnt from or held out, and the games.
    assert_eq!(number_between(&err, "0 games of records, ", " datagen positions"), positions, "{err}");
    let games = number_between(&err, "datagen positions (", " games told apart)");
    assert!((10..=14).contains(&games), "14 games played, {games} told apart:\n{err}");
    assert_eq!(learnt + held, positions, "{err}");
    assert!(held > 0 && held < positions / 4, "{held} of {positions} held out:\n{err}");
    assert!(err.contains("epoch 1: loss") && err.contains("built-in network 0."), "{err}");
    use catchess::games::chess::nnue::{Kind, Network};
    let network = Network::from_bytes(&catchess::games::nnue::CHESS, &std::fs::read(&net).unwrap()).unwrap();
    assert_eq!(network.kind, Kind::Whole);
    assert!(network.hidden_weights.iter().any(|&w| w != 0));

    // Mixed with match records, each position with its own target.
    let pgn = records("chess", "selfplay-chess-mixed.pgn");
    let (err, learnt, held) =
        train(&["--data", data.to_str().unwrap(), "--pgn", pgn.to_str().unwrap(), "--correction"]);
    assert_eq!(number_between(&err, "40 games of records, ", " datagen positions"), positions, "{err}");
    let pgn_positions = number_between(&err, "40 games (0 left out, 0 repeats), ", " quiet positions");
    assert_eq!(learnt + held, positions + pgn_positions, "{err}");
    assert_eq!(
        Network::from_bytes(&catchess::games::nnue::CHESS, &std::fs::read(&net).unwrap()).unwrap().kind,
        Kind::Correction
    );
}

#[test]
fn train_refuses_odd_datagen_files() {
    let data = std::fs::read(datagen_chess("train-odd.bin")).unwrap();
    let torn = temp("train-torn.bin");
    std::fs::write(&torn, &data[..data.len() - 5]).unwrap();
    let mut bad = data.clone();
    bad[32 * 7 + 26] = 9; // the eighth record's result
    let bad_result = temp("train-bad-result.bin");
    std::fs::write(&bad_result, &bad).unwrap();
    let xiangqi = temp("train-xiangqi.bin");
    let (ok, _, err) = catchess(&[
        "datagen",
        "--variant",
        "xiangqi",
        "--games",
        "1",
        "--nodes",
        "100",
        "--out",
        xiangqi.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let path = |p: &PathBuf| p.to_str().unwrap().to_string();
    let last = data.len() / 32;
    let cases = [
        (path(&torn), format!("record {last} (byte {}): the last record is torn: 27 of 32 bytes", (last - 1) * 32)),
        (path(&bad_result), "record 8 (byte 224): result 9".to_string()),
        (path(&xiangqi), "the project's own format, of xiangqi, not bulletformat".to_string()),
        ("/nonexistent/chess.bin".to_string(), "cannot read /nonexistent/chess.bin".to_string()),
    ];
    for (file, message) in cases {
        let (ok, _, err) = catchess(&["train", "--data", &file, "--out", "/tmp/x.nnue"]);
        assert!(!ok, "{file} should fail");
        assert!(err.contains(&message) && !err.contains("panicked"), "{file}: {err}");
    }
    let (ok, _, err) = catchess(&["train", "--out", "/tmp/x.nnue"]);
    assert!(!ok && err.contains("--pgn"), "{err}");
}

#[test]
fn train_learns_a_xiangqi_network_from_its_datagen_data() {
    let data = datagen("xiangqi", "train-xq-network.bin");
    let net = temp("xq-network.nnue");
    let args = ["train", "--variant", "xiangqi", "--data", data.to_str().unwrap(), "--correction"];
    let tail = ["--epochs", "1", "--threads", "1", "--out", net.to_str().unwrap()];
    let (ok, _, err) = catchess(&[&args[..], &tail[..]].concat());
    assert!(ok, "{err}");
    // Games are told apart by the record's game number: all 14.
    assert_eq!(number_between(&err, "datagen positions (", " games told apart)"), 14, "{err}");
    assert!(err.contains("built-in network 0."), "xiangqi's built-in network is measured too:\n{err}");
    use catchess::games::nnue::{Kind, Network, XIANGQI};
    let network = Network::from_bytes(&XIANGQI, &std::fs::read(&net).unwrap()).unwrap();
    assert_eq!(network.kind, Kind::Correction);
    // A chess file is not xiangqi's, nor is a xiangqi network chess's start.
    let chess = datagen_chess("train-not-xiangqi.bin");
    let (ok, _, err) =
        catchess(&["train", "--variant", "xiangqi", "--data", chess.to_str().unwrap(), "--out", "/dev/null"]);
    assert!(!ok && err.contains("train-not-xiangqi.bin"), "{err}");
    let (ok, _, err) =
        catchess(&["train", "--data", chess.to_str().unwrap(), "--init", net.to_str().unwrap(), "--out", "/dev/null"]);
    assert!(!ok && err.contains("not a catchess standard chess network"), "{err}");
    // Games without networks, and xiangqi from PGN, are refused clearly.
    let (ok, _, err) =
        catchess(&["train", "--variant", "catschess10", "--data", chess.to_str().unwrap(), "--out", "/dev/null"]);
    assert!(!ok && err.contains("has no network to learn yet"), "{err}");
    let (ok, _, err) = catchess(&["train", "--variant", "xiangqi", "--pgn", "x.pgn", "--out", "/dev/null"]);
    assert!(!ok && err.contains("xiangqi learns from datagen files"), "{err}");
}

#[test]
fn train_learns_a_three_outcome_cat_chess_network_from_its_datagen_data() {
    // Depth-1 cats and black: some games end in white's mate.
    let data = temp("train-cats.bin");
    let (ok, _, err) = catchess(&[
        "datagen",
        "--variant",
        "catchess",
        "--games",
        "14",
        "--nodes",
        "200",
        "--seat-nodes",
        "cats=1",
        "--seat-nodes",
        "black=1",
        "--seed",
        "3",
        "--out",
        data.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let net = temp("cats.nnue");
    let args = ["train", "--variant", "catchess", "--data", data.to_str().unwrap()];
    let tail = ["--epochs", "1", "--threads", "1", "--out", net.to_str().unwrap()];
    let (ok, _, err) = catchess(&[&args[..], &tail[..]].concat());
    assert!(ok, "{err}");
    assert_eq!(number_between(&err, "datagen positions (", " games told apart)"), 14, "{err}");
    assert!(err.contains("three outcomes, no K") && err.contains("built-in network none"), "{err}");
    use catchess::games::nnue::{Kind, Network, Outputs, CATCHESS};
    let network = Network::from_bytes(&CATCHESS, &std::fs::read(&net).unwrap()).unwrap();
    assert_eq!((network.kind, network.shape.outputs), (Kind::Whole, Outputs::ThreeOutcomes));
    // Learnt: its held-out divergence from the targets fell from its
    // random start's.
    let start: f64 = err.split("epoch 0 (the start): held out ").nth(1).unwrap()[..8].parse().unwrap();
    let learnt: f64 = err.split("network none, network ").nth(1).unwrap()[..8].parse().unwrap();
    assert!(learnt < start / 2.0, "held out: start {start}, network {learnt}:\n{err}");
    // Or a correction of the chances the hand-made value reads as; a
    // xiangqi file is no Cat Chess data.
    let (ok, _, err) = catchess(&[&args[..], &["--correction"], &tail[..]].concat());
    assert!(ok, "{err}");
    let correction = Network::from_bytes(&CATCHESS, &std::fs::read(&net).unwrap()).unwrap();
    assert_eq!(correction.kind, Kind::Correction);
    let xiangqi = datagen("xiangqi", "train-not-cats.bin");
    let (ok, _, err) =
        catchess(&["train", "--variant", "catchess", "--data", xiangqi.to_str().unwrap(), "--out", "/dev/null"]);
    assert!(!ok && err.contains("holds xiangqi positions, not catchess's"), "{err}");
}
