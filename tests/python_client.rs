//! A real UCI client drives the engine: `tests/python/client_game.py` uses
//! python-chess (`SimpleEngine.popen_uci`) to play a whole chess game
//! between two engine processes, validating every move, and reads the
//! `info` lines through `analyse`. CI installs python-chess (`.ci/run`) and
//! requires this test; elsewhere it is skipped, with a note, when Python
//! or python-chess is missing.

use std::process::Command;

fn python_chess_available() -> bool {
    Command::new("python3").args(["-c", "import chess.engine"]).output().is_ok_and(|o| o.status.success())
}

#[test]
fn python_chess_plays_a_game_and_analyses() {
    if !python_chess_available() {
        assert!(std::env::var_os("CI").is_none(), "CI must have python-chess (pip install chess)");
        eprintln!("skipped: python3 with python-chess not found (pip install chess)");
        return;
    }
    let out = Command::new("python3")
        .args(["tests/python/client_game.py", env!("CARGO_BIN_EXE_catchess")])
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "client failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("game over after"), "{stdout}");
    assert!(stdout.contains("1 passed, 0 failed"), "{stdout}");
}
