//! The inputs of the reliability review (#59), sent again as the review
//! sent them: the same protocol lines, commands, requests and files. Each
//! must get a clear refusal or stay within its bound: never a panic, a
//! hang or a silent loss. (The server's storage faults are in
//! `serve_persist.rs`; the parsers' fuzzing in `fuzz_parsers.rs`.)

mod common;

use common::engine::Engine;
use common::http::call;
use common::run::catchess;
use common::temp::temp;
use serde_json::json;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_catchess");

fn fake(mode: &str) -> String {
    format!("sh {}/tests/fake/engine.sh {mode}", env!("CARGO_MANIFEST_DIR"))
}

/// Review item 1: `printf 'setoption name UCI_Variant value
/// catschess10\nposition startpos moves é2é4\nisready\n' | catchess`
/// exited with 101 and no `readyok`. U+202E did the same.
#[test]
fn non_ascii_moves_are_refused_by_the_protocol_in_every_game() {
    for variant in ["catschess10", "chess", "catchess", "xiangqi"] {
        for moves in ["é2é4", "\u{202e}e2e4", "e2é4", "T@é5,a2a4"] {
            let mut e = Engine::start();
            e.send(&format!("setoption name UCI_Variant value {variant}"));
            let out = e.ask(&format!("position startpos moves {moves}"));
            assert!(out.iter().any(|l| l.starts_with("info string error")), "{variant} {moves}: {out:?}");
            // Still serving, from the start position.
            let out = e.ask("d");
            assert!(out.iter().any(|l| l.contains("Fen")), "{variant} {moves}: {out:?}");
        }
    }
}

/// Review item 1, the arbiter's side: an engine answering `bestmove
/// é2é4` aborted a whole 10×10 match ("a scoped thread panicked"), and
/// `pgn check`, `--resume` and `--openings` crashed on its record.
#[test]
fn an_engine_answering_non_ascii_loses_its_games_and_the_record_reads_back() {
    let pgn = temp("unicode-answer.pgn");
    let p = pgn.to_str().unwrap();
    let args = |games: &str| -> Vec<String> {
        [
            "match",
            "--variant",
            "catschess10",
            "--tc",
            "movetime=50",
            "--timeout",
            "5",
            "--games",
            games,
            "--engine",
            &format!("name=rnd cmd=\"{BIN} random\""),
            "--engine",
            &format!("name=fake cmd=\"{}\"", fake("unicode")),
            "--pgn",
            p,
        ]
        .map(String::from)
        .to_vec()
    };
    let run = |args: Vec<String>| Command::new(BIN).args(args).output().unwrap();
    let out = run(args("2"));
    let (table, err) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(table.contains("Faults of fake: 2 illegal move"), "{table}");
    let record = std::fs::read_to_string(&pgn).unwrap();
    assert!(record.contains("é2é4"), "the fault names the move: {record}");

    let (_, out, err) = catchess(&["pgn", "check", p]);
    assert!(!err.contains("panicked") && out.contains("2 games"), "pgn check: {out}{err}");
    // Resumed to four games: the two recorded ones are read back, not replayed.
    let out = run([args("4"), vec!["--resume".to_string()]].concat());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && !err.contains("panicked"), "--resume: {err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Faults of fake: 4 illegal move"));
    // The record as an opening book.
    let book_pgn = temp("unicode-book.pgn");
    let book = [
        "match",
        "--variant",
        "catschess10",
        "--tc",
        "movetime=20",
        "--games",
        "2",
        "--openings",
        &format!("file={p} plies=2"),
        "--engine",
        &format!("name=a cmd=\"{BIN} random\""),
        "--engine",
        &format!("name=b cmd=\"{BIN} random\""),
        "--pgn",
        book_pgn.to_str().unwrap(),
    ];
    let (_, _, err) = catchess(&book);
    assert!(!err.contains("panicked"), "--openings: {err}");
}

/// Review item 1, the web side: `POST /api/games/<id>/moves
/// {"move":"é2é4"}` in a 10×10 game got no answer.
#[test]
fn the_api_refuses_non_ascii_moves() {
    let s = catchess::serve::spawn(catchess::serve::Config {
        host: "127.0.0.1".into(),
        port: 0,
        ..catchess::serve::Config::in_memory()
    })
    .expect("the server starts");
    for variant in ["catschess10", "catchess", "chess", "xiangqi"] {
        let (status, state) = call(&s, "POST", "/api/games", Some(json!({"variant": variant})));
        assert_eq!(status, 201, "{state}");
        let id = state["id"].as_str().unwrap();
        for m in ["é2é4", "\u{202e}e2e4"] {
            let (status, body) = call(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": m})));
            assert_eq!(status, 422, "{variant} {m}: {body}");
            assert!(body["error"].as_str().is_some_and(|e| e.contains("move")), "{body}");
        }
    }
}

/// Review item 2: `position startpos` + `go perft 3000` overflowed the
/// stack (10×10: depth 1000).
#[test]
fn a_deep_perft_is_refused_and_the_engine_goes_on() {
    for (variant, depth) in [("chess", 3000), ("catschess10", 1000), ("catchess", 33)] {
        let mut e = Engine::start();
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send("position startpos");
        let out = e.ask(&format!("go perft {depth}"));
        assert!(out.iter().any(|l| l.contains("error") && l.contains("too deep")), "{variant}: {out:?}");
        e.send("go perft 1");
        let out = e.until(|l| l.starts_with("Nodes searched"));
        assert!(out.len() > 2, "{variant}: still counting: {out:?}");
    }
    let (ok, _, err) = catchess(&["perft", "--variant", "chess", "--depth", "3000"]);
    assert!(!ok && err.contains("too deep"), "{err}");
}

/// Review item 2, the web side: `serve --max-perft-depth 100000` let one
/// `POST /api/perft {"variant":"chess","depth":3000}` kill the server.
/// Now no server starts with a bound beyond the deepest count, from the
/// command line or as a library, and a request past the server's bound is
/// refused.
#[test]
fn the_server_refuses_a_perft_depth_beyond_the_bound() {
    let (ok, _, err) = catchess(&["serve", "--port", "0", "--db", ":memory:", "--max-perft-depth", "100000"]);
    assert!(!ok && err.contains("--max-perft-depth") && err.contains("too deep"), "{err}");
    let config = catchess::serve::Config {
        host: "127.0.0.1".into(),
        port: 0,
        max_perft_depth: 100_000,
        ..catchess::serve::Config::in_memory()
    };
    let refused = catchess::serve::spawn(config).err().expect("refused");
    assert!(refused.to_string().contains("too deep"), "{refused}");
    let s = catchess::serve::spawn(catchess::serve::Config {
        host: "127.0.0.1".into(),
        port: 0,
        ..catchess::serve::Config::in_memory()
    })
    .expect("the server starts");
    let (status, body) = call(&s, "POST", "/api/perft", Some(json!({"variant": "chess", "depth": 3000})));
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().is_some_and(|e| e.contains("depth must be 0..=5")), "{body}");
    let (status, body) = call(&s, "POST", "/api/perft", Some(json!({"variant": "chess", "depth": 2})));
    assert_eq!((status, body["nodes"].as_u64()), (200, Some(400)), "still serving: {body}");
}

/// Review item 10: `tb probe` stopped at one non-UTF-8 line ("stream did
/// not contain valid UTF-8", exit 2, later lines unanswered) and read
/// lines of any length (50 MB took 57 MB of memory).
#[test]
fn tb_probe_answers_every_line_within_its_bound() {
    let dir = temp("tb-hostile");
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new(BIN)
        .args(["tb", "probe", "--variant", "catchess", "--dir", dir.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        stdin.write_all(b"4k3/8/8/7*/*7/8/8/4K2B w - - 0 1\n\xff\xfe bad\n").unwrap();
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..50 {
            stdin.write_all(&chunk).unwrap();
        }
        stdin.write_all(b"\n4k3/8/8/7*/*7/8/8/4K2B w - - 0 1\n").unwrap();
    });
    // Memory while it reads: the long line is dropped as it comes.
    let mut peak_kib = 0u64;
    while !writer.is_finished() {
        if let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) {
            if let Some(kib) =
                status.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| l.split_whitespace().nth(1))
            {
                peak_kib = peak_kib.max(kib.parse().unwrap_or(0));
            }
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    writer.join().unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(lines[0], "cats 0");
    assert_eq!(lines[1], "error the line is not UTF-8 text");
    assert!(lines[2].starts_with("error a line of 52428800 bytes"), "{}", lines[2]);
    assert_eq!(lines[3], "cats 0", "the next line is answered");
    assert!(!out.status.success(), "a line was an error");
    assert!(peak_kib < 30_000, "memory stayed bounded: {peak_kib} KiB");
}

/// Processes whose environment holds `FAKE_MARK=<mark>`, still running.
fn marked(mark: &str) -> Vec<u32> {
    let needle = format!("FAKE_MARK={mark}");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else { continue };
        let Ok(env) = std::fs::read(entry.path().join("environ")) else { continue };
        if env.split(|&b| b == 0).any(|v| v == needle.as_bytes()) {
            found.push(pid);
        }
    }
    found
}

/// Waits up to `limit` for `done`.
fn eventually(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + limit;
    while Instant::now() < end {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    done()
}

/// Review item 11: killing the arbiter with SIGKILL left its hung engines
/// running, with their children, and the next run did not reap them.
#[test]
#[cfg(target_os = "linux")]
fn engines_die_with_their_arbiter_however_it_ends() {
    let mark = format!("arbiter-kill-{}", std::process::id());
    let mut arbiter = Command::new(BIN)
        .env("FAKE_MARK", &mark)
        .args(["match", "--variant", "chess", "--tc", "60+0", "--timeout", "60", "--games", "2"])
        .args(["--concurrency", "2"])
        .args(["--engine", &format!("name=a cmd=\"{}\"", fake("childhang"))])
        .args(["--engine", &format!("name=b cmd=\"{}\"", fake("childhang"))])
        .args(["--pgn", temp("arbiter-kill.pgn").to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Two games at once, each engine to move hung in `sleep` at its `go`;
    // each engine left a child sleeping too.
    let hung = || {
        marked(&mark)
            .iter()
            .filter(|pid| std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c.starts_with(b"sleep")))
            .count()
    };
    assert!(eventually(Duration::from_secs(20), || hung() >= 4), "engines hung at go: {}", hung());
    let engines: Vec<u32> = marked(&mark)
        .into_iter()
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
                let ppid = s[s.rfind(')').unwrap() + 2..].split_whitespace().nth(1).unwrap().to_string();
                ppid == arbiter.id().to_string()
            })
        })
        .collect();
    assert!(!engines.is_empty(), "the arbiter's own children");
    arbiter.kill().unwrap();
    arbiter.wait().unwrap();
    let alive = |pid: &u32| {
        std::path::Path::new(&format!("/proc/{pid}")).exists()
            && !std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| s.contains(") Z"))
    };
    assert!(
        eventually(Duration::from_secs(2), || !engines.iter().any(alive)),
        "the engines die with their arbiter: {engines:?}"
    );
    // What the engines started is reaped when the next match starts.
    let (ok, _, err) = catchess(&[
        "match",
        "--variant",
        "chess",
        "--tc",
        "depth=1",
        "--games",
        "1",
        "--engine",
        &format!("name=x cmd=\"{BIN} random\""),
        "--engine",
        &format!("name=y cmd=\"{BIN} random\""),
        "--pgn",
        temp("arbiter-next.pgn").to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(
        eventually(Duration::from_secs(2), || marked(&mark).iter().all(|p| !alive(p))),
        "left over: {:?}",
        marked(&mark)
    );
}
