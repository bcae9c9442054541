//! python-chess against the engine: `tests/python/client_game.py` drives
//! it as a real UCI client (`SimpleEngine.popen_uci`), playing a whole
//! chess game between two engine processes, validating every move, and
//! reading the `info` lines through `analyse`; `tests/python/read_pgn.py`
//! reads the chess records of a `catchess match` (SAN, tags, results).
//!
//! These tests need python3 with python-chess (`python3 -m pip install
//! chess`). Without it they are **SKIPPED**, and said so on the test's own
//! line and in its summary, never reported as passed; with the environment
//! variable `CI` set (CI installs python-chess in `.ci/run` and requires
//! it) they FAIL instead.
//!
//! libtest can only report a test that ran as `ok` or `FAILED`, so this
//! target has its own small harness (`harness = false` in Cargo.toml). It
//! understands what `cargo test` passes on: name filters, `--exact`,
//! `--skip`, `--list`, `--ignored` / `--include-ignored`; other libtest
//! flags are accepted and ignored.

use std::panic;
use std::process::{Command, ExitCode};

const BIN: &str = env!("CARGO_BIN_EXE_catchess");

const TESTS: &[(&str, fn())] = &[
    ("python_chess_plays_a_game_and_analyses", python_chess_plays_a_game_and_analyses),
    ("chess_records_are_read_by_python_chess", chess_records_are_read_by_python_chess),
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
    let dir = std::env::temp_dir().join(format!("catchess-python-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("python.pgn");
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
    let _ = std::fs::remove_dir_all(&dir);
}

/// What `cargo test -- <args>` asked for.
#[derive(Default)]
struct Args {
    filters: Vec<String>,
    skip: Vec<String>,
    exact: bool,
    list: bool,
    only_ignored: bool,
}

impl Args {
    fn parse(mut it: impl Iterator<Item = String>) -> Args {
        let mut a = Args::default();
        while let Some(arg) = it.next() {
            match arg.as_str() {
                "--exact" => a.exact = true,
                "--list" => a.list = true,
                "--ignored" => a.only_ignored = true,
                "--skip" => a.skip.extend(it.next()),
                // libtest flags that take a value.
                "--test-threads" | "--color" | "--format" | "--logfile" | "-Z" | "--shuffle-seed" => {
                    it.next();
                }
                s if s.starts_with('-') => {}
                _ => a.filters.push(arg),
            }
        }
        a
    }

    fn selects(&self, name: &str) -> bool {
        let matches = |f: &String| if self.exact { name == f } else { name.contains(f.as_str()) };
        // None of these tests is #[ignore]d: `--ignored` runs none of them.
        !self.only_ignored
            && (self.filters.is_empty() || self.filters.iter().any(matches))
            && !self.skip.iter().any(matches)
    }
}

fn main() -> ExitCode {
    let args = Args::parse(std::env::args().skip(1));
    let selected: Vec<&(&str, fn())> = TESTS.iter().filter(|(name, _)| args.selects(name)).collect();
    if args.list {
        for (name, _) in &selected {
            println!("{name}: test");
        }
        return ExitCode::SUCCESS;
    }
    println!("\nrunning {} tests", selected.len());
    let available = selected.is_empty() || python_chess_available();
    let ci = std::env::var_os("CI").is_some();
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let mut failures = Vec::new();
    for (name, test) in selected {
        if !available {
            if ci {
                println!("test {name} ... FAILED");
                failures.push(format!("{name}: CI requires python-chess, and it is not installed ({INSTALL})"));
                failed += 1;
            } else {
                println!("test {name} ... SKIPPED: python-chess not installed ({INSTALL})");
                skipped += 1;
            }
            continue;
        }
        match panic::catch_unwind(test) {
            Ok(()) => {
                println!("test {name} ... ok");
                passed += 1;
            }
            Err(_) => {
                // The panic message itself went to stderr.
                println!("test {name} ... FAILED");
                failures.push(name.to_string());
                failed += 1;
            }
        }
    }
    if !failures.is_empty() {
        println!("\nfailures:");
        for f in &failures {
            println!("    {f}");
        }
    }
    let verdict = if failed > 0 {
        "FAILED"
    } else if skipped > 0 {
        "SKIPPED"
    } else {
        "ok"
    };
    println!("\ntest result: {verdict}. {passed} passed; {failed} failed; {skipped} skipped\n");
    if skipped > 0 {
        eprintln!("SKIPPED: python-chess not installed: {skipped} python-chess test(s) did not run ({INSTALL})");
    }
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
