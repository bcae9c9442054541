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
