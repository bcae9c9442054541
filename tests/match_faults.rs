//! Fault injection: `catchess match` against small fake engines
//! (tests/fake/engine.sh) that crash, hang, cheat, write garbage, never say
//! `uciok`, run ten times over their time, write a 100 MB line, or leave
//! children behind that hold their output (one in a session of its own).
//! Each fault must be scored and recorded, the match must finish, with no
//! process of the engines left over and the arbiter's memory bounded. And
//! SIGTERM in the middle of a match with two games at a time must lose no
//! finished game, kill the engines and still print the table.

mod common;
use common::games::{games_of, tag};
use common::temp;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use temp::temp;

const BIN: &str = env!("CARGO_BIN_EXE_catchess");

fn fake(mode: &str) -> String {
    format!("sh {}/tests/fake/engine.sh {mode}", env!("CARGO_MANIFEST_DIR"))
}

/// Processes whose environment holds `FAKE_MARK=<mark>`, still running
/// (zombies have an empty environment), after giving a killed process a
/// moment to go.
fn survivors(mark: &str) -> Vec<String> {
    let needle = format!("FAKE_MARK={mark}");
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        let mut found = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(env) = std::fs::read(entry.path().join("environ")) else { continue };
            if env.split(|&b| b == 0).any(|v| v == needle.as_bytes()) {
                let cmd = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
                found.push(format!("{:?}: {}", entry.file_name(), String::from_utf8_lossy(&cmd).replace('\0', " ")));
            }
        }
        if found.is_empty() || Instant::now() > deadline {
            return found;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

struct Run {
    ok: bool,
    stderr: String,
    table: String,
    records: Vec<String>,
    secs: f64,
}

/// `rnd` (the random engine) against `fake <mode>` in chess, two games
/// (each engine white once), with `--tc tc`.
fn fault_match(mode: &str, tc: &str) -> Run {
    let mark = format!("{mode}-{}", std::process::id());
    let pgn = temp(&format!("{mode}.pgn"));
    let started = Instant::now();
    let out = Command::new(BIN)
        .env("FAKE_MARK", &mark)
        .env("FAKE_STATE", temp(&format!("{mode}-state")))
        .args(["match", "--variant", "chess", "--tc", tc, "--timeout", "1", "--games", "2"])
        .args(["--engine", &format!("name=rnd cmd=\"{BIN} random\"")])
        .args(["--engine", &format!("name=fake cmd=\"{}\"", fake(mode))])
        .args(["--pgn", pgn.to_str().unwrap()])
        .output()
        .unwrap();
    let secs = started.elapsed().as_secs_f64();
    let left = survivors(&mark);
    assert!(left.is_empty(), "{mode}: processes left behind: {left:?}");
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    Run {
        ok: out.status.success(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        table: String::from_utf8_lossy(&out.stdout).into_owned(),
        records: text.split("[Event ").filter(|r| !r.trim().is_empty()).map(|r| format!("[Event {r}")).collect(),
        secs,
    }
}

/// Checks what every fault test expects: the match ends normally, both
/// games are lost by the fake (as white on its first move, as black on
/// its first move), each with a fault of `kind` whose text holds `detail`.
fn check(mode: &str, tc: &str, kind: &str, detail: &str) -> Run {
    let run = fault_match(mode, tc);
    assert!(run.ok, "{mode}: the match must finish\n{}", run.stderr);
    assert_eq!(run.records.len(), 2, "{mode}: {:?}\n{}", run.records, run.stderr);
    for r in &run.records {
        let fake_side = if tag(r, "White") == "fake" { "white" } else { "black" };
        let expected = if fake_side == "white" { "0-1" } else { "1-0" };
        assert_eq!(tag(r, "Result"), expected, "{mode}: {r}");
        let faults = tag(r, "Faults");
        assert!(faults.starts_with(&format!("{fake_side} (fake) {kind}")), "{mode}: {faults}");
        assert!(faults.contains(detail), "{mode}: {faults}");
    }
    assert!(run.table.contains(&format!("Faults of fake: 2 {kind}")), "{mode}: {}", run.table);
    run
}

#[test]
fn a_crash_is_scored() {
    check("crash", "1+0", "crash", "exited with code 3");
}

#[test]
fn a_hang_is_scored() {
    check("hang", "depth=1", "hang", "no bestmove within 1.000 s");
}

#[test]
fn an_illegal_move_is_scored() {
    check("illegal", "1+0", "illegal move", "bestmove a1a1");
}

#[test]
fn garbage_is_scored() {
    check("garbage", "1+0", "illegal move", "bestmove");
}

#[test]
fn no_uciok_is_scored() {
    check("nouciok", "1+0", "hang", "no uciok within 1.0 s");
}

#[test]
fn ten_times_too_slow_is_a_time_forfeit() {
    check("slow", "movetime=100", "time forfeit", "no bestmove within 0.150 s");
}

#[test]
fn a_100_mb_line_is_a_fault_and_memory_stays_bounded() {
    let run = check("longline", "30+0", "line too long", "a line of more than 1048576 bytes");
    assert!(run.secs < 20.0, "the fault is seen at once, not when the clock runs out: {} s", run.secs);
    let mb: f64 = run
        .stderr
        .split("peak memory ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no peak memory in\n{}", run.stderr));
    assert!(mb < 64.0, "the arbiter's peak memory: {mb} MB");
}

#[test]
fn an_engine_that_exits_while_its_child_holds_its_output_crashed() {
    let run = check("forkexit", "30+0", "crash", "exited with code 3");
    assert!(run.secs < 20.0, "the exit is seen at once, not when the clock runs out: {} s", run.secs);
}

#[test]
fn a_child_in_its_own_session_does_not_outlive_the_match() {
    // `survivors` (in fault_match) finds the setsid child if it is left.
    let run = check("setsid", "30+0", "crash", "exited with code 3");
    assert!(run.secs < 20.0, "{} s", run.secs);
}

#[test]
fn sigterm_loses_no_finished_game() {
    let mark = format!("sigterm-{}", std::process::id());
    let pgn = temp("sigterm.pgn");
    let mut child = Command::new(BIN)
        .env("FAKE_MARK", &mark)
        .args(["match", "--variant", "chess", "--tc", "depth=1", "--games", "400", "--concurrency", "2"])
        .args(["--engine", &format!("name=a cmd=\"{BIN} random\" option.Seed=1")])
        .args(["--engine", &format!("name=b cmd=\"{BIN} random\" option.Seed=2")])
        .args(["--pgn", pgn.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut finished = Vec::new();
    let mut line = String::new();
    while finished.len() < 6 {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "the match ended early");
        if let Some(rest) = line.strip_prefix("game ") {
            finished.push(rest.split('/').next().unwrap().parse::<usize>().unwrap());
        }
    }
    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143), "128 + SIGTERM\n{rest}");
    for l in rest.lines() {
        if let Some(r) = l.strip_prefix("game ") {
            finished.push(r.split('/').next().unwrap().parse::<usize>().unwrap());
        }
    }
    assert!(rest.contains("SIGTERM received"), "{rest}");
    assert!(finished.len() < 400, "stopped early");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let mut rounds: Vec<usize> = text
        .lines()
        .filter_map(|l| l.strip_prefix("[Round \""))
        .map(|r| r.trim_end_matches("\"]").parse().unwrap())
        .collect();
    rounds.sort();
    finished.sort();
    assert_eq!(rounds, finished, "every finished game has its record, and only those");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains(&format!("({} games)", finished.len())), "the table so far\n{table}");
    let left = survivors(&mark);
    assert!(left.is_empty(), "engines left behind: {left:?}");
}

/// Starts `catchess match args`, sends SIGTERM once `after` games have
/// finished, and returns its exit code.
fn stop_after(args: &[String], after: usize) -> Option<i32> {
    let mut child = Command::new(BIN).args(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let (mut seen, mut line) = (0, String::new());
    while seen < after {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "the match ended early");
        seen += usize::from(line.starts_with("game "));
    }
    Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    std::io::Read::read_to_string(&mut stderr, &mut line).unwrap();
    child.wait().unwrap().code()
}

#[test]
fn a_stopped_match_resumes_with_the_same_schedule() {
    let base = |pgn: &PathBuf| -> Vec<String> {
        let mut v: Vec<String> =
            ["match", "--variant", "chess", "--tc", "depth=1", "--games", "24", "--concurrency", "2"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        v.extend(["--random-plies", "3", "--seed", "11", "--pgn", pgn.to_str().unwrap()].map(String::from));
        v.extend(["--engine".into(), format!("name=a cmd=\"{BIN} random\" option.Seed=1")]);
        v.extend(["--engine".into(), format!("name=b cmd=\"{BIN} random\" option.Seed=2")]);
        v
    };
    let whole = temp("whole.pgn");
    let out = Command::new(BIN).args(&base(&whole)[..]).output().unwrap();
    assert!(out.status.success());
    let expected = games_of(&std::fs::read_to_string(&whole).unwrap());
    assert_eq!(expected.len(), 24);

    let parts = temp("parts.pgn");
    assert_eq!(stop_after(&base(&parts), 5), Some(143));
    // A record cut off in the middle (as by a kill during its write).
    let text = std::fs::read_to_string(&parts).unwrap();
    let before = games_of(&text).len();
    assert!((5..24).contains(&before), "{before}");
    std::fs::write(&parts, format!("{text}[Event \"catchess match\"]\n[Site \"?\"]\n[Round \"2")).unwrap();
    // Resume with a different concurrency (allowed) and more games than
    // the first run planned would be allowed too; first the same.
    let mut args = base(&parts);
    args.push("--resume".into());
    let out = Command::new(BIN).args(&args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains(&format!("resuming: {before} of 24 games already played")), "{stderr}");
    assert!(stderr.contains("a cut-off last record"), "{stderr}");
    assert_eq!(stderr.lines().filter(|l| l.starts_with("game ")).count(), 24 - before, "{stderr}");
    let resumed = games_of(&std::fs::read_to_string(&parts).unwrap());
    assert_eq!(resumed, expected, "the same games as without the stop");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("(24 games)"), "{table}");

    // Other settings are refused.
    let mut args = base(&parts);
    args.extend(["--resume", "--tc", "depth=2"].map(String::from));
    let out = Command::new(BIN).args(&args).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("started with other settings"));
}

#[test]
fn shards_played_apart_merge_into_the_same_match() {
    let base = |pgn: &PathBuf, extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> =
            ["match", "--variant", "chess", "--tc", "depth=1", "--games", "14", "--random-plies", "2"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        v.extend(["--seed", "9", "--pgn", pgn.to_str().unwrap()].map(String::from));
        v.extend(["--engine".into(), format!("name=a cmd=\"{BIN} random\" option.Seed=1")]);
        v.extend(["--engine".into(), format!("name=b cmd=\"{BIN} random\" option.Seed=2")]);
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let whole = temp("shards-whole.pgn");
    let out = Command::new(BIN).args(base(&whole, &[])).output().unwrap();
    assert!(out.status.success());
    let whole_table = String::from_utf8_lossy(&out.stdout).into_owned();

    // Two shards at once, as two machines would.
    let (s1, s2) = (temp("shard1.pgn"), temp("shard2.pgn"));
    let c1 = Command::new(BIN)
        .args(base(&s1, &["--shard", "1/2"]))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let c2 = Command::new(BIN)
        .args(base(&s2, &["--shard", "2/2"]))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (o1, o2) = (c1.wait_with_output().unwrap(), c2.wait_with_output().unwrap());
    assert!(o1.status.success() && o2.status.success());
    assert!(String::from_utf8_lossy(&o1.stderr).contains("shard 1/2: 8 of the 14 games"));
    assert!(String::from_utf8_lossy(&o2.stderr).contains("shard 2/2: 6 of the 14 games"));
    let g1 = games_of(&std::fs::read_to_string(&s1).unwrap());
    let rounds: Vec<usize> = g1.iter().map(|g| g.0).collect();
    assert_eq!(rounds, [1, 2, 5, 6, 9, 10, 13, 14], "whole rounds (game pairs), every other one");

    let merged = temp("shards-merged.pgn");
    let out = Command::new(BIN)
        .args(["match", "--variant", "chess", "--merge", s1.to_str().unwrap(), s2.to_str().unwrap()])
        .args(["--pgn", merged.to_str().unwrap(), "--sprt", "0,10,0.05,0.05"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("merge: 14 of 14 games from 2 files"), "{stderr}");
    let table = String::from_utf8_lossy(&out.stdout);
    let stats = |t: &str| t.lines().filter(|l| !l.starts_with("SPRT")).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(stats(&table), stats(&whole_table), "the same table as one machine's");
    assert!(table.contains("SPRT elo0 0 elo1 10"), "{table}");
    let whole_games = games_of(&std::fs::read_to_string(&whole).unwrap());
    assert_eq!(games_of(&std::fs::read_to_string(&merged).unwrap()), whole_games);

    // The same shard twice, and a shard without a seed, are refused.
    let out = Command::new(BIN).args(["match", "--variant", "chess", "--merge"]).args([&s1, &s1]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("are both shard 1/2"));
    let mut args = base(&s1, &["--shard", "1/2"]);
    let at = args.iter().position(|a| a == "--seed").unwrap();
    args.drain(at..at + 2);
    let out = Command::new(BIN).args(args).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("--shard needs --seed"));
}

#[test]
fn a_log_that_cannot_be_written_is_reported_and_the_match_goes_on() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let out = Command::new(BIN)
        .args(["match", "--variant", "chess", "--tc", "depth=1", "--log", "/dev/full", "--pgn", "/dev/null"])
        .args(["--engine", &format!("name=a cmd=\"{BIN} random\"")])
        .args(["--engine", &format!("name=b cmd=\"{BIN} random\" option.Seed=2")])
        .output()
        .unwrap();
    let (stderr, table) = (String::from_utf8_lossy(&out.stderr), String::from_utf8_lossy(&out.stdout));
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stderr.matches("warning: writing log /dev/full: No space left on device").count(), 1, "{stderr}");
    assert!(table.contains("The log is incomplete: writing log /dev/full"), "{table}");
    assert!(table.contains("(2 games)"), "{table}");
}
