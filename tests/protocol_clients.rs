//! What UCI clients and GUIs rely on, spoken to the real binary: the
//! default variant, every `go` word, pondering, MultiPV, WDL, a `go perft`
//! that leaves the command loop free, and limits no client can break.

mod common;
use common::engine;

use engine::Engine;
use std::time::{Duration, Instant};

fn errors(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info string error:")).collect()
}

fn warnings(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info string warning:")).collect()
}

/// The value after `key` in an `info` line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.iter().position(|w| *w == key).and_then(|i| words.get(i + 1).copied())
}

#[test]
fn a_chess_gui_that_sends_no_variant_gets_chess() {
    // cutechess plays standard chess without sending UCI_Variant.
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert!(lines.iter().any(|l| l.starts_with("option name UCI_Variant type combo default chess ")), "{lines:?}");
    e.ask("ucinewgame");
    e.ask("position startpos moves e2e4 e7e5");
    let t = Instant::now();
    let (_, best) = e.go("wtime 1000 btime 1000");
    assert!(t.elapsed() < Duration::from_secs(2), "answered on white's clock: {:?}", t.elapsed());
    // A white move of standard chess (a cat move would start on a4 or h5).
    let out = e.ask(&format!("position startpos moves e2e4 e7e5 {best}"));
    assert!(errors(&out).is_empty(), "{best} is a legal chess move: {out:?}");
    assert!(e.ask("d").join("\n").contains("To move: black"));
}

#[test]
fn the_variant_flag_chooses_the_sessions_default() {
    let mut e = Engine::start_with(&["--variant", "xiangqi"]);
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert!(lines.iter().any(|l| l.starts_with("option name UCI_Variant type combo default xiangqi ")), "{lines:?}");
    assert!(e.ask("d").join("\n").contains("To move: red"));
}

#[test]
fn every_go_gets_one_bestmove_whatever_its_words() {
    let mut e = Engine::start();
    e.ask("position startpos");
    for (words, warning) in [
        ("depth 2 sideways", "unknown parameter 'sideways' ignored"),
        ("depth x movetime 200", "'depth' needs a depth in plies, got 'x'"),
        ("wtime", "'wtime' needs a time in ms"),
        ("frobnicate 7", "unknown parameter 'frobnicate' ignored"),
    ] {
        let t = Instant::now();
        let (info, best) = e.go(words);
        assert!(warnings(&info).iter().any(|w| w.contains(warning)), "go {words}: {info:?}");
        assert_eq!(best.len(), 4, "go {words}: {best}");
        assert!(t.elapsed() < Duration::from_secs(5), "go {words} took {:?}", t.elapsed());
        e.send("isready");
        let after = e.until(|l| l == "readyok");
        assert!(!after.iter().any(|l| l.starts_with("bestmove")), "one bestmove only: {after:?}");
    }
}

#[test]
fn a_clock_missing_for_the_mover_still_limits_the_search() {
    // White to move with only black's clock.
    let mut e = Engine::start();
    e.ask("position startpos");
    let t = Instant::now();
    let (info, _) = e.go("btime 1");
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert!(warnings(&info).iter().any(|w| w.contains("no wtime for the side to move")), "{info:?}");
    // The cats to move, and a GUI that knows only white's and black's clocks.
    let mut e = Engine::catchess();
    e.ask("position startpos moves e2e4 e7e5");
    let t = Instant::now();
    let (info, best) = e.go("wtime 2000 btime 3000");
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert!(warnings(&info).iter().any(|w| w.contains("no ctime")), "{info:?}");
    assert!(["a4", "h5"].contains(&&best[..2]), "a cat move: {best}");
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut e = Engine::start();
    e.ask("position startpos");
    let (_, best) = e.go("depth 4 searchmoves a2a3 h2h3");
    assert!(["a2a3", "h2h3"].contains(&best.as_str()), "{best}");
    let (info, best) = e.go("depth 3 searchmoves zz9 g1f3");
    assert_eq!(best, "g1f3");
    assert!(warnings(&info).iter().any(|w| w.contains("zz9")), "{info:?}");
}

#[test]
fn go_mate_finds_the_mate_and_ends_where_there_is_none() {
    let mut e = Engine::start();
    // A back-rank mate in one: found within the two moves asked for.
    e.ask("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    let (info, best) = e.go("mate 2");
    assert_eq!(best, "d1d8");
    assert!(info.iter().any(|l| l.contains("score mate 1")), "{info:?}");
    // No mate anywhere near: the search still ends by itself.
    e.ask("position startpos");
    let t = Instant::now();
    let (_, best) = e.go("mate 1");
    assert_eq!(best.len(), 4);
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
}

#[test]
fn pondering_waits_for_ponderhit_or_stop() {
    let mut e = Engine::start();
    e.ask("setoption name Ponder value true");
    e.ask("position startpos moves e2e4 e7e5");
    e.send("go ponder movetime 100");
    std::thread::sleep(Duration::from_millis(400));
    let early = e.sync();
    assert!(!early.iter().any(|l| l.starts_with("bestmove")), "no answer while pondering: {early:?}");
    let t = Instant::now();
    e.send("ponderhit");
    let out = e.until(|l| l.starts_with("bestmove"));
    assert!(t.elapsed() < Duration::from_secs(2), "the clock runs after ponderhit: {:?}", t.elapsed());
    let last = out.last().unwrap();
    assert!(field(last, "ponder").is_some(), "Ponder on: bestmove names a move to ponder on: {last}");
    // A ponder search that the opponent did not play into is stopped.
    e.send("go ponder wtime 100000 btime 100000");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let out = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    // Chess, and the cats' turn in Cat Chess, where the best is nearest 0
    // (reported as minus the distance from 0).
    for (variant, moves) in [("chess", ""), ("catchess", " moves e2e4 e7e5")] {
        let mut e = Engine::start();
        e.ask(&format!("setoption name UCI_Variant value {variant}"));
        e.ask("setoption name MultiPV value 4");
        e.ask(&format!("position startpos{moves}"));
        let (info, best) = e.go("depth 6");
        // Every depth, not only the last: a later line's search can find
        // more than an earlier one's (in chess at depths 3 and 4 here,
        // before lines were sorted).
        for depth in 1..=6 {
            let lines: Vec<&String> = info.iter().filter(|l| l.starts_with(&format!("info depth {depth} "))).collect();
            assert_eq!(lines.len(), 4, "{variant} depth {depth}: {info:#?}");
            assert_eq!(lines.iter().map(|l| field(l, "multipv").unwrap()).collect::<Vec<_>>(), ["1", "2", "3", "4"]);
            let firsts: Vec<&str> = lines.iter().map(|l| field(l, "pv").unwrap()).collect();
            let distinct: std::collections::HashSet<&str> = firsts.iter().copied().collect();
            assert_eq!(distinct.len(), 4, "{variant} depth {depth}: {firsts:?}");
            let cps: Vec<i32> = lines.iter().map(|l| field(l, "cp").unwrap().parse().unwrap()).collect();
            assert!(cps.windows(2).all(|w| w[0] >= w[1]), "{variant} depth {depth}: {cps:?}");
            if depth == 6 {
                assert_eq!(firsts[0], best, "{variant}");
            }
        }
    }
}

#[test]
fn show_wdl_adds_win_draw_loss_in_per_mille() {
    for (variant, moves) in [("chess", ""), ("catchess", " moves e2e4")] {
        let mut e = Engine::start();
        e.ask(&format!("setoption name UCI_Variant value {variant}"));
        e.ask("setoption name UCI_ShowWDL value true");
        e.ask(&format!("position startpos{moves}"));
        let (info, _) = e.go("depth 3");
        let line = info.iter().rev().find(|l| l.contains(" wdl ")).unwrap_or_else(|| panic!("{info:?}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        let i = words.iter().position(|w| *w == "wdl").unwrap();
        let wdl: Vec<u32> = words[i + 1..i + 4].iter().map(|w| w.parse().unwrap()).collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{variant}: {line}");
        if variant == "catchess" {
            // White, cats, black: near the start the cats' draw dominates.
            assert!(wdl[1] > wdl[0] && wdl[1] > wdl[2], "{line}");
        }
    }
}

#[test]
fn go_perft_leaves_the_command_loop_free_and_can_be_stopped() {
    let mut e = Engine::start();
    e.ask("position startpos");
    e.send("go perft 7");
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    let during = e.sync();
    assert!(t.elapsed() < Duration::from_millis(500), "isready waited {:?}", t.elapsed());
    assert!(!during.iter().any(|l| l.starts_with("Nodes searched")), "{during:?}");
    e.send("stop");
    let out = e.until(|l| l.contains("perft stopped"));
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert!(!out.iter().any(|l| l.starts_with("Nodes searched")));
    // Quit works during a count too.
    e.send("go perft 8");
    e.send("quit");
    assert!(e.exits_within(Duration::from_secs(3)));
}

#[test]
fn perft_at_depth_zero_is_one_everywhere() {
    let mut e = Engine::start();
    e.ask("position startpos");
    e.send("go perft 0");
    assert_eq!(e.until(|l| l.starts_with("Nodes searched")).last().unwrap(), "Nodes searched: 1");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_catchess"))
        .args(["perft", "--depth", "0", "--divide"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Nodes searched: 1\n");
}

#[test]
fn movetime_is_used_whole() {
    let mut e = Engine::start();
    e.ask("position startpos");
    let t = Instant::now();
    e.go("movetime 1000");
    let took = t.elapsed();
    assert!(took >= Duration::from_millis(900) && took < Duration::from_millis(1800), "{took:?}");
}

#[test]
fn threads_beyond_the_cores_stop_promptly_and_keep_time() {
    let mut e = Engine::start();
    e.ask("setoption name Threads value 256");
    e.ask("position startpos");
    let t = Instant::now();
    e.go("movetime 300");
    assert!(t.elapsed() < Duration::from_secs(2), "movetime 300 took {:?}", t.elapsed());
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send("stop");
    e.until(|l| l.starts_with("bestmove"));
    assert!(t.elapsed() < Duration::from_secs(2), "stop took {:?}", t.elapsed());
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("quit");
    assert!(e.exits_within(Duration::from_secs(3)));
}

/// Resident memory of a process in KiB, from /proc (Linux).
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_hash_size_the_machine_lacks_is_an_error_and_clearing_touches_no_page() {
    let mut e = Engine::start();
    // The largest size offered: on a machine without 64 GiB it is refused
    // with an error; where the memory is lent lazily it is accepted. The
    // engine lives on either way.
    let out = e.ask("setoption name Hash value 65536");
    if let Some(err) = errors(&out).first() {
        assert!(err.contains("cannot allocate") && err.contains("Hash stays 16 MiB"), "{err}");
    }
    // A large table costs memory only as the search fills it, and clearing
    // it (twice: the button and a new game) writes none of its pages.
    assert!(errors(&e.ask("setoption name Hash value 4096")).is_empty());
    e.ask("setoption name Clear Hash");
    e.ask("ucinewgame");
    if let Some(kib) = rss_kib(e.pid()) {
        assert!(kib < 512 << 10, "a 4 GiB table, cleared, holds {kib} KiB resident");
    }
    e.ask("position startpos");
    let (_, best) = e.go("depth 3");
    assert_eq!(best.len(), 4);
}

#[test]
fn control_bytes_from_the_client_are_never_echoed_raw() {
    let mut e = Engine::start();
    let out = e.ask("frob\x1b[31mnicate\x0b");
    let err = errors(&out)[0];
    assert!(!err.contains('\x1b') && !err.contains('\x0b'), "{err:?}");
    assert!(err.contains("\\u{1b}[31m"), "{err:?}");
    let out = e.ask("go depth 1 \x1bx");
    assert!(out.iter().all(|l| !l.contains('\x1b')), "{out:?}");
}
