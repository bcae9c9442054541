//! A tiny test harness for tests that need programs outside Rust
//! (python-chess, a browser): without them each test is reported
//! **SKIPPED**, on its own line and in the summary, never as passed; with
//! the environment variable `CI` set they FAIL instead.
//!
//! libtest can only report a test that ran as `ok` or `FAILED`, so such a
//! target sets `harness = false` in Cargo.toml and calls [`run`]. It
//! understands what `cargo test` passes on: name filters, `--exact`,
//! `--skip`, `--list`, `--ignored` / `--include-ignored`; other libtest
//! flags are accepted and ignored.

use std::panic;
use std::process::ExitCode;

/// What the tests need, and how to get it.
pub struct Requirement {
    /// Its name in messages (`python-chess`).
    pub what: &'static str,
    /// The command that installs it.
    pub install: &'static str,
    pub available: fn() -> bool,
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

/// Runs `tests` as `cargo test` asked, each only if `need` is met.
pub fn run(tests: &[(&str, fn())], need: &Requirement) -> ExitCode {
    let args = Args::parse(std::env::args().skip(1));
    let selected: Vec<&(&str, fn())> = tests.iter().filter(|(name, _)| args.selects(name)).collect();
    if args.list {
        for (name, _) in &selected {
            println!("{name}: test");
        }
        return ExitCode::SUCCESS;
    }
    println!("\nrunning {} tests", selected.len());
    let available = selected.is_empty() || (need.available)();
    let ci = std::env::var_os("CI").is_some();
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let mut failures = Vec::new();
    for (name, test) in selected {
        if !available {
            if ci {
                println!("test {name} ... FAILED");
                failures.push(format!("{name}: CI requires {}, and it is not installed ({})", need.what, need.install));
                failed += 1;
            } else {
                println!("test {name} ... SKIPPED: {} not installed ({})", need.what, need.install);
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
        eprintln!(
            "SKIPPED: {} not installed: {skipped} {} test(s) did not run ({})",
            need.what, need.what, need.install
        );
    }
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
