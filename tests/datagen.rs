//! `catchess datagen` as a user runs it: a run killed (SIGKILL or SIGTERM)
//! and run again ends with the bytes of an uninterrupted run; settings
//! that differ from the file's are refused; bad arguments are errors.

mod common;

use common::run::catchess;
use common::temp::temp;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GAMES: &str = "12";
const GAME_COUNT: u64 = 12;

fn args<'a>(variant: &'a str, out: &'a str) -> Vec<&'a str> {
    vec!["datagen", "--variant", variant, "--out", out, "--games", GAMES, "--nodes", "300", "--seed", "9"]
}

/// The games the state file of `out` counts as written.
fn games_written(out: &str) -> u64 {
    let text = std::fs::read_to_string(format!("{out}.state")).unwrap_or_default();
    text.lines().find_map(|l| l.strip_prefix("next ")).and_then(|n| n.parse().ok()).unwrap_or(0)
}

/// Runs the command on `out`, stops it with `signal` once two games are
/// written, then runs it again to the end.
fn stopped_and_resumed(variant: &str, out: &str, signal: &str) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_catchess"))
        .args(args(variant, out))
        .args(["--threads", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while games_written(out) < 2 {
        assert!(started.elapsed() < Duration::from_secs(120), "no game written");
        std::thread::sleep(Duration::from_millis(5));
    }
    let status = Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    child.wait().unwrap();
    let written = games_written(out);
    assert!(written < GAME_COUNT, "{signal}: the run was stopped before its end ({written} games)");
    let (ok, stdout, stderr) = catchess(&args(variant, out));
    assert!(ok, "{stderr}");
    let made: u64 = stdout.split(": ").nth(1).and_then(|s| s.split(' ').next()).and_then(|n| n.parse().ok()).unwrap();
    assert_eq!(made + written, GAME_COUNT, "the second run plays the games left:\n{stdout}");
}

#[test]
fn a_killed_run_goes_on_to_the_bytes_of_an_uninterrupted_one() {
    for variant in ["chess", "catchess"] {
        let whole = temp(&format!("{variant}-whole.bin"));
        let whole = whole.to_str().unwrap();
        let (ok, stdout, stderr) = catchess(&args(variant, whole));
        assert!(ok, "{stderr}");
        assert!(stdout.contains(&format!("{GAMES} games")) && stdout.contains("positions/s"), "{stdout}");
        let expected = std::fs::read(whole).unwrap();
        for signal in ["-KILL", "-TERM"] {
            let out = temp(&format!("{variant}{signal}.bin"));
            let out = out.to_str().unwrap();
            stopped_and_resumed(variant, out, signal);
            assert!(std::fs::read(out).unwrap() == expected, "{variant} {signal}: the same bytes");
        }
    }
}

#[test]
fn other_settings_are_refused_and_the_file_is_left_alone() {
    let out = temp("refused.bin");
    let out = out.to_str().unwrap();
    let mut a = args("xiangqi", out);
    a[6] = "2";
    let (ok, _, stderr) = catchess(&a);
    assert!(ok, "{stderr}");
    let before = std::fs::read(out).unwrap();
    let mut other = a.clone();
    other[10] = "10";
    let (ok, _, stderr) = catchess(&other);
    assert!(!ok && stderr.contains("other settings") && stderr.contains("seed 10"), "{stderr}");
    // A file datagen did not make.
    let foreign = temp("foreign.bin");
    std::fs::write(&foreign, b"not data").unwrap();
    let (ok, _, stderr) = catchess(&args("xiangqi", foreign.to_str().unwrap()));
    assert!(!ok && stderr.contains("no datagen run"), "{stderr}");
    assert_eq!(std::fs::read(out).unwrap(), before);
    assert_eq!(std::fs::read(&foreign).unwrap(), b"not data");
}

#[test]
fn eval_file_chooses_what_the_searches_evaluate_with() {
    // Xiangqi searches with its built-in network unless told otherwise;
    // `<none>` is the hand-made evaluation its first networks' data had.
    let run = |name: &str, extra: &[&str]| {
        let out = temp(name);
        let out = out.to_str().unwrap();
        let mut a = args("xiangqi", out);
        a[6] = "2";
        a.extend(extra);
        let (ok, _, stderr) = catchess(&a);
        assert!(ok, "{a:?}: {stderr}");
        let state = std::fs::read_to_string(format!("{out}.state")).unwrap();
        let search = state.lines().find_map(|l| l.split(" | search ").nth(1)).unwrap().to_string();
        (std::fs::read(out).unwrap(), search)
    };
    let (net, net_search) = run("xq-net.bin", &[]);
    let (built_in, built_in_search) = run("xq-built-in.bin", &["--eval-file", "<built-in>"]);
    let (hand, hand_search) = run("xq-hand.bin", &["--eval-file", "<none>"]);
    assert!(built_in == net && built_in_search == net_search, "the default is the built-in network");
    assert!(hand != net, "the hand-made evaluation plays other games");
    assert_ne!(hand_search, net_search, "the state's fingerprint tells the evaluations apart");
    // A run is not resumed with another evaluation.
    let out = temp("xq-hand.bin");
    let mut more = args("xiangqi", out.to_str().unwrap());
    more[6] = "3";
    let (ok, _, stderr) = catchess(&more);
    assert!(!ok && stderr.contains("other settings"), "{stderr}");
    assert_eq!(std::fs::read(&out).unwrap(), hand);
    // A file that is no network: a clear error, nothing written.
    let bad = temp("xq-bad.bin");
    let mut a = args("xiangqi", bad.to_str().unwrap());
    a.extend(["--eval-file", "/nonexistent/net.nnue"]);
    let (ok, _, stderr) = catchess(&a);
    assert!(!ok && stderr.contains("--eval-file") && !stderr.contains("panicked"), "{stderr}");
    assert!(!bad.exists(), "nothing written");
}

#[test]
fn bad_arguments_are_errors_not_panics() {
    let out = temp("bad.bin");
    let out = out.to_str().unwrap();
    for (extra, what) in [
        (vec![], "--games"),
        (vec!["--games", "0"], "at least 1"),
        (vec!["--games", "2", "--positions", "9"], "cannot be used with"),
        (vec!["--games", "2", "--threads", "0"], "--threads"),
        (vec!["--games", "2", "--nodes", "0"], "--nodes"),
        (vec!["--games", "2", "--shard", "3/2"], "--shard"),
        (vec!["--positions", "9", "--shard", "1/2"], "needs --games"),
        (vec!["--games", "x"], "invalid value"),
        (vec!["--games", "2", "--seat-nodes", "cats=5"], "no seat \"cats\""),
    ] {
        let mut a = vec!["datagen", "--variant", "chess", "--out", out];
        a.extend(extra);
        let (ok, _, stderr) = catchess(&a);
        assert!(!ok && stderr.contains(what) && !stderr.contains("panicked"), "{a:?}: {stderr}");
    }
    let (ok, _, stderr) = catchess(&["datagen", "--variant", "shogi", "--out", out, "--games", "1"]);
    assert!(!ok && stderr.contains("unknown variant"), "{stderr}");
    assert!(!Path::new(out).exists(), "nothing written");
}
