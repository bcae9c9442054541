//! python-chess against the engine: `tests/python/client_game.py` drives
//! it as a real UCI client (`SimpleEngine.popen_uci`), playing a whole
//! chess game between two engine processes, validating every move, and
//! reading the `info` lines through `analyse`; `tests/python/read_pgn.py`
//! reads the chess records of a `catchess match` (SAN, tags, results), and
//! `tests/python/read_catchess_pgn.py` the Cat Chess ones (tags, the
//! standard result with its `Winner`; python-chess cannot play the cats).
//!
//! These tests need python3 with python-chess (`python3 -m pip install
//! chess`). Without it they are **SKIPPED**, and said so on the test's own
//! line and in its summary, never reported as passed; with the environment
//! variable `CI` set (CI installs python-chess in `.ci/run` and requires
//! it) they FAIL instead (`common/skipping.rs`, the harness).

mod common;
use common::{skipping, temp};

use std::process::{Command, ExitCode};
use temp::temp;

const BIN: &str = env!("CARGO_BIN_EXE_catchess");

const TESTS: &[(&str, fn())] = &[
    ("python_chess_plays_a_game_and_analyses", python_chess_plays_a_game_and_analyses),
    ("chess_records_are_read_by_python_chess", chess_records_are_read_by_python_chess),
    ("catchess_records_are_read_by_python_chess", catchess_records_are_read_by_python_chess),
];

const INSTALL: &str = "python3 -m pip install chess";

fn python_chess_available() -> bool {
    Command::new("python3").args(["-c", "import chess.engine, chess.pgn"]).output().is_ok_and(|o| o.status.success())
}

fn python_chess_plays_a_game_and_analyses() {
    let out = Command::new("python3").args(["tests/python/client_game.py", BIN]).output().expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "client failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("game over after"), "{stdout}");
    assert!(stdout.contains("1 passed, 0 failed"), "{stdout}");
}

fn chess_records_are_read_by_python_chess() {
    let pgn = temp("python.pgn");
    let out = Command::new(BIN)
        .args(["match", "--variant", "chess", "--tc", "depth=2", "--games", "4", "--random-plies", "3", "--seed", "2"])
        .args(["--engine", &format!("name=cc cmd={BIN}")])
        .args(["--engine", &format!("name=rnd cmd=\"{BIN} random\" option.Seed=9")])
        .args(["--pgn", pgn.to_str().unwrap()])
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = Command::new("python3")
        .args(["tests/python/read_pgn.py", pgn.to_str().unwrap(), "4"])
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("4 passed, 0 failed"), "{stdout}");
}

/// Random engines, a move limit and a crash of the cats: wins of white or
/// black, the cats' wins (the move limit) and draws after a cats fault.
fn catchess_records_are_read_by_python_chess() {
    let pgn = temp("python-catchess.pgn");
    let out = Command::new(BIN)
        .args(["match", "--tc", "depth=1", "--games", "6", "--maxmoves", "30", "--seed", "4"])
        .args(["--engine", &format!("name=a cmd=\"{BIN} random\" option.Seed=1")])
        .args(["--engine", &format!("name=b cmd=\"{BIN} random\" option.Seed=2")])
        .args(["--engine", &format!("name=c cmd=\"{BIN} random\" option.Faults=cats=crash")])
        .args(["--pgn", pgn.to_str().unwrap()])
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[Winner \"cats\"]") && text.contains("[Winner \"draw\"]"), "{text}");
    let out = Command::new("python3")
        .args(["tests/python/read_catchess_pgn.py", pgn.to_str().unwrap(), "6"])
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("6 passed, 0 failed"), "{stdout}");
}

fn main() -> ExitCode {
    skipping::run(
        TESTS,
        &[skipping::Requirement { what: "python-chess", install: INSTALL, available: python_chess_available }],
    )
}
