//! `catchess tb` from the command line: generate, probe (one FEN, stdin,
//! `--moves`, bad lines), and damaged files refused.

mod common;

use common::run::catchess;
use common::temp;
use std::io::Write;
use std::process::{Command, Stdio};

/// A directory with the chess KQvK and KRvK tables, made by the command.
fn chess_dir(name: &str) -> std::path::PathBuf {
    let dir = temp::temp(name);
    for m in ["KQvK", "KRvK"] {
        let (ok, out, err) =
            catchess(&["tb", "generate", "--variant", "chess", "--material", m, "--dir", dir.to_str().unwrap()]);
        assert!(ok, "{err}");
        assert!(out.contains(&format!("{m}: 81920 entries")), "{out}");
    }
    dir
}

fn probe_stdin(args: &[&str], input: &str) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_catchess"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn generate_writes_table_and_statistics_and_probe_answers_each_line() {
    let dir = chess_dir("probe");
    let d = dir.to_str().unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("KQvK.json")).unwrap()).unwrap();
    assert_eq!(json["positions"]["white"]["white"], 18081);
    assert_eq!(json["positions"]["black"]["draw"], 2896);
    assert_eq!(json["longest"]["plies"], 20);

    let (ok, out, _) =
        catchess(&["tb", "probe", "--variant", "chess", "--dir", d, "--fen", "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1"]);
    assert!(ok);
    assert_eq!(out, "white 19\n");

    let input = "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1\n\
                 not a fen\n\
                 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\n\
                 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\n\
                 8/8/8/8/8/2k5/1R6/K7 w - - 0 1\n\
                 4k3/8/8/8/8/8/8/4K2B w - - 0 1\n\
                 4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\n\
                 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
                 8/8/8/5k2/8/8/1Q6/K7 w - - 90 1\n\
                 8/8/8/8/4k3/8/1Q6/K7 b - - 0 1\n";
    let (ok, out) = probe_stdin(&["tb", "probe", "--variant", "chess", "--dir", d], input);
    assert!(!ok, "a line was an error");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 10, "{out}");
    assert_eq!(lines[0], "white 19");
    assert!(lines[1].starts_with("error "), "{}", lines[1]);
    assert_eq!(lines[2], "draw 0", "stalemate: the game has ended");
    assert_eq!(lines[3], "white 0", "mate: the game has ended");
    assert_eq!(lines[4], "white 31");
    assert_eq!(lines[5], "draw 0", "insufficient material ends the game");
    assert!(lines[6].starts_with("error castling"), "{}", lines[6]);
    assert!(lines[7].starts_with("error 30 men besides the kings"), "{}", lines[7]);
    // 19 plies are 10 white moves: from a clock of 90 the fifty-move rule comes first.
    assert!(lines[8].starts_with("draw - (fifty-move rule"), "{}", lines[8]);
    assert_eq!(lines[9], "white 20");
}

#[test]
fn probe_moves_gives_every_legal_move_its_result() {
    let dir = chess_dir("moves");
    let (ok, out, _) = catchess(&[
        "tb",
        "probe",
        "--variant",
        "chess",
        "--dir",
        dir.to_str().unwrap(),
        "--moves",
        "--fen",
        "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1",
    ]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "white 1");
    // Every legal move is listed once, with its result.
    let pos = <catchess::Chess as catchess::Notation>::from_fen("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1").unwrap();
    assert_eq!(lines.len() as u64 - 1, pos.count_legal_moves());
    assert!(lines.contains(&"f1f8 white 0"), "mate: {out}");
    assert!(lines.contains(&"f1f7 draw 0"), "stalemate: {out}");
    assert!(lines.contains(&"f1f2 white 4"), "{out}");
    assert!(lines.iter().skip(1).all(|l| l.split(' ').count() == 3), "{out}");
}

#[test]
fn damaged_or_foreign_files_are_refused_with_their_name() {
    let dir = chess_dir("damaged");
    let d = dir.to_str().unwrap();
    let fen = "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1";
    let file = dir.join("KQvK.cctb");
    let good = std::fs::read(&file).unwrap();
    let krk = std::fs::read(dir.join("KRvK.cctb")).unwrap();
    let mut flipped = good.clone();
    flipped[100] ^= 1;
    let mut header = good.clone();
    header[20] ^= 1;
    for (what, bytes) in [
        ("truncated", good[..good.len() - 1].to_vec()),
        ("checksum", flipped),
        ("header", header),
        ("expected chess KQvK", krk),
        ("shorter than", good[..10].to_vec()),
    ] {
        std::fs::write(&file, &bytes).unwrap();
        let (ok, out, _) = catchess(&["tb", "probe", "--variant", "chess", "--dir", d, "--fen", fen]);
        assert!(!ok, "{what}");
        assert!(out.starts_with("error table file ") && out.contains("KQvK.cctb"), "{what}: {out}");
        assert!(out.contains(what), "{what}: {out}");
    }
    std::fs::write(&file, &good).unwrap();
    let (ok, out, _) = catchess(&["tb", "probe", "--variant", "chess", "--dir", d, "--fen", fen]);
    assert!(ok && out == "white 19\n", "{out}");
}

#[test]
fn cat_chess_answers_without_files_where_nobody_can_mate_and_names_a_missing_file() {
    let dir = temp::temp("cats-empty");
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    let input = "4k3/8/8/7*/*7/8/8/4K2B w - - 0 1\n\
                 4k3/8/8/7*/*7/8/8/4K2N c - - 0 1\n\
                 4k3/8/8/7*/*7/8/8/3QK3 w - - 0 1\n\
                 4k3/8/8/8/*7/8/8/3QK3 w - - 0 1\n";
    let (_, out) = probe_stdin(&["tb", "probe", "--variant", "catchess", "--dir", d], input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "cats 0", "insufficient material ends the game at white's turn");
    assert_eq!(lines[1], "cats -", "not judged at the cats' turn, but nobody can mate");
    assert!(lines[2].starts_with("error no table file") && lines[2].contains("KQvK.cctb"), "{}", lines[2]);
    assert!(lines[3].starts_with("error 1 cats"), "{}", lines[3]);
    // The game has ended: no move lines, though the board has moves.
    let (ok, out, _) = catchess(&[
        "tb",
        "probe",
        "--variant",
        "catchess",
        "--dir",
        d,
        "--moves",
        "--fen",
        "4k3/8/8/7*/*7/8/8/4K2N w - - 0 1",
    ]);
    assert!(ok && out == "cats 0\n", "{out}");
    let (ok, _, err) = catchess(&["tb", "generate", "--variant", "catchess", "--material", "KBvK", "--dir", d]);
    assert!(!ok && err.contains("KBvK needs no table"), "{err}");
}

/// Issue #60: `--variant` offers the games that have tables, and no other.
#[test]
fn the_variant_is_one_with_tables() {
    let dir = temp::temp("variants");
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    for command in ["generate", "probe"] {
        let (ok, out, _) = catchess(&["tb", command, "--help"]);
        assert!(ok && out.contains("[possible values: catchess, chess]"), "{out}");
        for other in ["xiangqi", "catschess10", "shogi"] {
            let mut args = vec!["tb", command, "--variant", other, "--dir", d];
            if command == "generate" {
                args.extend(["--material", "KQvK"]);
            }
            let (ok, _, err) = catchess(&args);
            assert!(!ok, "{command} --variant {other}");
            assert!(
                err.contains(&format!("invalid value '{other}' for '--variant <VARIANT>'"))
                    && err.contains("[possible values: catchess, chess]"),
                "{err}"
            );
        }
    }
}
