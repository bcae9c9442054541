//! The `catchess` binary run once, as a user runs a tool command.

use std::process::Command;

/// Runs `catchess` with `args` to the end: whether it succeeded, its
/// standard output and its standard error.
pub fn catchess(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_catchess")).args(args).output().expect("binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Asserts that `catchess pgn check` finds nothing wrong with `record`
/// (written to a temporary file named after `name`).
pub fn assert_pgn_checks(record: &str, name: &str) {
    let file = super::temp::temp(&format!("{name}.pgn"));
    std::fs::write(&file, record).unwrap();
    let (ok, out, err) = catchess(&["pgn", "check", file.to_str().unwrap()]);
    let text = out + &err;
    assert!(ok && text.contains("0 with problems"), "pgn check:\n{text}\n{record}");
}
