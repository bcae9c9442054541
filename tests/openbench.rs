//! The engine as OpenBench builds and benches it (#64, docs/openbench.md):
//! `make EXE=<name>` in the repository's root gives the binary `<name>`,
//! and `<name> bench` ends with the lines OpenBench reads, parsed here as
//! its worker parses them (`Client/bench.py`): from the last line up,
//! every character but letters, digits and spaces made a space, the first
//! match of its node pattern and the first of its speed pattern. A network
//! the engine would refuse (`EVALFILE=`) fails the build, saying why.
//!
//! To reuse what `cargo test` has built, the test run by `cargo test`
//! builds with the test profile and the web app (`PROFILE=test WEB=1`: the
//! binary the other tests run). OpenBench's own build, `make EXE=<name>`
//! as its worker runs it (the release profile, the engine alone), takes
//! minutes more: that test is `#[ignore]`d, and `.ci/run` runs it
//! (`cargo test --test openbench -- --ignored`).

mod common;

use common::bench::{openbench_parse, BENCH};
use common::temp::temp;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const REPO: &str = env!("CARGO_MANIFEST_DIR");
/// The longest the worker waits for a bench.
const OPENBENCH_LIMIT: Duration = Duration::from_secs(60);

/// `make` in the repository with `args`, as OpenBench runs it (`-j`).
fn make(args: &[String]) -> Output {
    Command::new("make").arg("-j").args(args).current_dir(REPO).stdin(Stdio::null()).output().expect("make runs")
}

#[test]
fn the_parser_reads_what_openbench_reads() {
    // Stockfish's closing lines, and Ethereal's one line.
    assert_eq!(openbench_parse("x\nNodes searched  : 123\nNodes/second    : 45\n"), (Some(123), Some(45)));
    assert_eq!(openbench_parse("Bench: 99 nodes 7 nps"), (Some(99), Some(7)));
    // The last match counts: a per-game line before the totals does not.
    assert_eq!(
        openbench_parse("chess: 5 nodes in 1 s, 5 nodes/s\nNodes searched  : 9\nNodes/second    : 3"),
        (Some(9), Some(3))
    );
}

/// `make -j EXE=<a new file> CC=cargo` and `args`, as OpenBench's worker
/// runs it (its compiler as `CC=`: older workers pass cargo too), and the
/// binary it made.
fn make_engine(name: &str, args: &[&str]) -> std::path::PathBuf {
    let exe = temp(name);
    let _ = std::fs::remove_file(&exe);
    let mut all = vec![format!("EXE={}", exe.display()), "CC=cargo".into()];
    all.extend(args.iter().map(|a| a.to_string()));
    let out = make(&all);
    assert!(out.status.success(), "make:\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(exe.is_file(), "make wrote no {}", exe.display());
    exe
}

#[test]
fn make_builds_the_engine_whose_bench_openbench_reads() {
    bench_as_openbench_reads_it(&make_engine("catchess-openbench", &["PROFILE=test", "WEB=1"]));
}

/// OpenBench's own build: the Makefile's defaults (the release profile,
/// no web app). Minutes of building: run by `.ci/run`.
#[test]
#[ignore]
fn make_as_openbench_runs_it_builds_the_release_engine_alone() {
    let exe = make_engine("catchess-openbench-release", &[]);
    bench_as_openbench_reads_it(&exe);
    let serve = Command::new(&exe).args(["serve", "--help"]).stdin(Stdio::null()).output().unwrap();
    let stderr = String::from_utf8_lossy(&serve.stderr);
    assert!(
        !serve.status.success() && stderr.contains("unrecognized subcommand 'serve'"),
        "the engine alone: {stderr}"
    );
}

/// `exe bench` within OpenBench's limit, its node count the pinned one,
/// read as OpenBench's worker reads it, and Stockfish's two lines last.
fn bench_as_openbench_reads_it(exe: &std::path::Path) {
    // OpenBench runs `./<name> bench` with stderr joined to stdout.
    let started = Instant::now();
    let bench = Command::new(exe).arg("bench").stdin(Stdio::null()).output().unwrap();
    let elapsed = started.elapsed();
    assert!(bench.status.success());
    let text = String::from_utf8_lossy(&bench.stdout).into_owned() + &String::from_utf8_lossy(&bench.stderr);
    let (nodes, nps) = openbench_parse(&text);
    assert_eq!(nodes, Some(BENCH[0].1), "the chess bench, as pinned:\n{text}");
    assert!(nps.is_some_and(|n| n > 0), "{text}");
    assert!(elapsed < OPENBENCH_LIMIT, "the bench took {elapsed:?}");
    let last: Vec<&str> = text.lines().rev().take(2).collect();
    assert!(last[0].starts_with("Nodes/second    : ") && last[1].starts_with("Nodes searched  : "), "{last:?}");
}

#[test]
fn a_network_the_engine_would_refuse_fails_the_build_saying_why() {
    // The build script refuses the file before anything is compiled with
    // it; the next build runs the script again (and recompiles, incrementally).
    let bad = temp("not-a-network.nnue");
    std::fs::write(&bad, b"not a network").unwrap();
    // Given relative to the Makefile's folder where it can be: make makes it absolute.
    let given = bad.strip_prefix(REPO).unwrap_or(&bad);
    let exe = format!("EXE={}", temp("never").display());
    let args = [exe, format!("EVALFILE={}", given.display()), "PROFILE=test".into(), "WEB=1".into()];
    let out = make(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    let why = format!("CATCHESS_EVALFILE (EVALFILE=) {}: not a catchess standard chess network file", bad.display());
    assert!(stderr.contains(&why), "{stderr}");
}
