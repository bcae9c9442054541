//! A tiny test harness for tests that need programs outside Rust
//! (python-chess, a browser): without them each test is reported
//! **SKIPPED**, on its own line and in the summary, never as passed; with
//! the environment variable `CI` set they FAIL instead.
//!
//! libtest can only report a test that ran as `ok` or `FAILED`, so such a
//! target sets `harness = false` in Cargo.toml and calls [`run`]. It
//! understands what `cargo test` passes on: name filters, `--exact`,
//! `--skip`, `--list`, `--ignored` / `--include-ignored`; other libtest
//! flags are accepted and ignored. Tests given to [`run_with_ignored`] as
//! ignored run only with `--ignored` or `--include-ignored`, as libtest's
//! `#[ignore]`, and are reported `ignored` otherwise.
//! A target names each program it needs as its own [`Requirement`], so
//! that a skip names only what is missing.

use std::panic;
use std::process::ExitCode;

/// One program the tests need, and how to get it.
pub struct Requirement {
    /// Its name in messages (`python-chess`).
    pub what: &'static str,
    /// The command that installs it.
    pub install: &'static str,
    pub available: fn() -> bool,
}

/// The requirements of `needs` that are not met.
pub fn missing(needs: &[Requirement]) -> Vec<&Requirement> {
    needs.iter().filter(|r| !(r.available)()).collect()
}

/// `selenium not installed (python3 -m pip install selenium)`: what is
/// missing and how to install it.
pub fn not_installed(missing: &[&Requirement]) -> String {
    let what: Vec<&str> = missing.iter().map(|r| r.what).collect();
    let install: Vec<&str> = missing.iter().map(|r| r.install).collect();
    let what = match what.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    };
    format!("{what} not installed ({})", install.join("; "))
}

/// What `cargo test -- <args>` asked for.
#[derive(Default)]
struct Args {
    filters: Vec<String>,
    skip: Vec<String>,
    exact: bool,
    list: bool,
    only_ignored: bool,
    include_ignored: bool,
}

impl Args {
    fn parse(mut it: impl Iterator<Item = String>) -> Args {
        let mut a = Args::default();
        while let Some(arg) = it.next() {
            match arg.as_str() {
                "--exact" => a.exact = true,
                "--list" => a.list = true,
                "--ignored" => a.only_ignored = true,
                "--include-ignored" => a.include_ignored = true,
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

    /// Whether the filters name the test (ignored or not).
    fn names(&self, name: &str) -> bool {
        let matches = |f: &String| if self.exact { name == f } else { name.contains(f.as_str()) };
        (self.filters.is_empty() || self.filters.iter().any(matches)) && !self.skip.iter().any(matches)
    }

    /// Whether a named test runs: an ignored one only when asked for.
    fn runs(&self, ignored: bool) -> bool {
        if ignored {
            self.only_ignored || self.include_ignored
        } else {
            !self.only_ignored
        }
    }
}

/// A test that runs only with `--ignored`: its name, why, and the test.
pub type Ignored = (&'static str, &'static str, fn());

/// A test as [`run_with_ignored`] sees it: `ignored` says why it runs only
/// when asked for.
struct Entry<'a> {
    name: &'a str,
    test: fn(),
    ignored: Option<&'a str>,
}

/// Runs `tests` as `cargo test` asked, each only if every one of `needs`
/// is met.
pub fn run(tests: &[(&str, fn())], needs: &[Requirement]) -> ExitCode {
    run_with_ignored(tests, &[], needs)
}

/// [`run`], with `ignored` tests that run only with `--ignored` or
/// `--include-ignored`.
pub fn run_with_ignored(tests: &[(&str, fn())], ignored: &[Ignored], needs: &[Requirement]) -> ExitCode {
    let args = Args::parse(std::env::args().skip(1));
    let all = tests.iter().map(|&(name, test)| Entry { name, test, ignored: None });
    let all = all.chain(ignored.iter().map(|&(name, why, test)| Entry { name, test, ignored: Some(why) }));
    // As libtest: `--ignored` leaves out the others; without it an ignored
    // test is listed and reported, not run.
    let selected: Vec<Entry> =
        all.filter(|e| args.names(e.name) && (e.ignored.is_some() || args.runs(false))).collect();
    if args.list {
        for e in &selected {
            println!("{}: test", e.name);
        }
        return ExitCode::SUCCESS;
    }
    println!("\nrunning {} tests", selected.len());
    // Looked for only when a test is to run.
    let absent = if selected.iter().any(|e| args.runs(e.ignored.is_some())) { missing(needs) } else { Vec::new() };
    let absent = (!absent.is_empty()).then(|| not_installed(&absent));
    let ci = std::env::var_os("CI").is_some();
    let (mut passed, mut failed, mut skipped, mut not_run) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for Entry { name, test, ignored } in selected {
        if let Some(why) = ignored.filter(|_| !args.runs(true)) {
            println!("test {name} ... ignored, {why}");
            not_run += 1;
            continue;
        }
        if let Some(absent) = &absent {
            if ci {
                println!("test {name} ... FAILED");
                failures.push(format!("{name}: {absent}, and CI requires it"));
                failed += 1;
            } else {
                println!("test {name} ... SKIPPED: {absent}");
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
    println!("\ntest result: {verdict}. {passed} passed; {failed} failed; {skipped} skipped; {not_run} ignored\n");
    if let Some(absent) = absent.filter(|_| skipped > 0) {
        eprintln!("SKIPPED: {skipped} test(s) did not run: {absent}");
    }
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
