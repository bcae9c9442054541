//! The `catchess` binary's tool commands, run as a user would.

mod common;
use common::bench::openbench_parse;
use common::{run, temp};

use run::catchess;
use temp::temp;

#[test]
fn perft_prints_the_total_last_and_speed_on_stderr() {
    let (ok, out, err) = catchess(&["perft", "--depth", "3", "--variant", "chess"]);
    assert!(ok);
    assert_eq!(out, "Nodes searched: 8902\n");
    assert!(err.contains("nodes/s"), "{err}");
}

#[test]
fn perft_divide_lists_root_moves_then_the_total() {
    let (ok, out, _) = catchess(&["perft", "--depth", "2", "--divide"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 19 + 1, "19 root moves in Cat Chess, then the total");
    assert_eq!(*lines.last().unwrap(), "Nodes searched: 361");
    let sum: u64 = lines[..19].iter().map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 361);
}

#[test]
fn perft_from_a_fen_and_for_the_cats() {
    let (ok, out, _) = catchess(&[
        "perft",
        "--depth",
        "1",
        "--divide",
        "--fen",
        "*nbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQ1RK* c k - 2 3",
    ]);
    assert!(ok);
    assert_eq!(out, "0000: 1\nNodes searched: 1\n");
}

#[test]
fn perft_suite_reports_and_fails_on_a_mismatch() {
    let (ok, out, _) = catchess(&["perft", "--suite", "perft/catchess.epd", "--depth", "3"]);
    assert!(ok, "{out}");
    assert!(out.contains("0 failed"));
    let bad = temp("bad.epd");
    std::fs::write(&bad, "rnbqkbnr/pppppppp/8/7*/*7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 19 ;D2 360\n").unwrap();
    let (ok, out, err) = catchess(&["perft", "--suite", bad.to_str().unwrap()]);
    assert!(!ok);
    assert!(out.contains("FAIL line 1 D2: expected 360, got 361"), "{out}");
    assert!(out.contains("divide at D2"));
    assert!(err.contains("1 perft count(s) differ"));
}

/// A suite runs in the game its FENs (or its `# variant:` line) say,
/// whatever the default; one of another game than `--variant` is refused
/// with the reason, before any count.
#[test]
fn perft_suite_takes_its_game_from_the_file() {
    for (file, game) in [
        ("perft/xiangqi.epd", "xiangqi"),
        ("perft/catschess10.epd", "catschess10"),
        ("perft/chess.epd", "chess"),
        ("perft/catchess.epd", "catchess"),
    ] {
        let (ok, out, err) = catchess(&["perft", "--suite", file, "--depth", "1"]);
        assert!(ok && out.contains(" 0 failed"), "{file}: {out}{err}");
        assert!(err.contains(&format!(" entries of {game}")), "{file}: {err}");
    }
    let (ok, out, err) = catchess(&["perft", "--suite", "perft/xiangqi.epd", "--variant", "chess"]);
    assert!(!ok && !out.contains("failed"), "{out}");
    assert!(err.contains("a suite of xiangqi (its `# variant:` line), not of chess"), "{err}");
    // Without a `# variant:` line: the FENs decide, or the refusal says why.
    let bare = temp("bare-10x10.epd");
    let text = std::fs::read_to_string("perft/catschess10.epd").unwrap();
    std::fs::write(&bare, text.lines().filter(|l| !l.starts_with("# variant:")).collect::<Vec<_>>().join("\n"))
        .unwrap();
    let (ok, out, err) = catchess(&["perft", "--suite", bare.to_str().unwrap(), "--depth", "1"]);
    assert!(ok && out.contains(" 0 failed") && err.contains("entries of catschess10"), "{out}{err}");
    let (ok, out, err) = catchess(&["perft", "--suite", bare.to_str().unwrap(), "--variant", "catchess"]);
    assert!(!ok && !out.contains("failed"), "{out}");
    assert!(err.contains("a suite of catschess10, not of catchess (line "), "{err}");
    let plain = temp("no-cats.epd");
    std::fs::write(&plain, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 ;D1 16\n").unwrap();
    let (ok, _, err) = catchess(&["perft", "--suite", plain.to_str().unwrap()]);
    assert!(!ok && err.contains("every FEN reads as a position of catchess, chess; say which with --variant"), "{err}");
}

#[test]
fn bad_perft_input_is_a_clear_error() {
    let (ok, _, err) = catchess(&["perft", "--depth", "2", "--fen", "not a fen"]);
    assert!(!ok);
    assert!(err.contains("invalid FEN"), "{err}");
    let (ok, _, err) = catchess(&["perft", "--depth", "2", "--variant", "shogi"]);
    assert!(!ok);
    assert!(err.contains("unknown variant"), "{err}");
    let (ok, _, err) = catchess(&["perft"]);
    assert!(!ok);
    assert!(err.contains("--depth"), "{err}");
}

#[test]
fn impossible_material_is_a_fen_error_not_a_crash() {
    // 263 legal moves, more than any position the rules can reach: refused
    // with the reason (it used to overflow the move list at depth 2).
    let fen = "QQQQQQnk/Q4Qnn/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1";
    for variant in ["chess", "catchess"] {
        for depth in ["1", "2"] {
            let (ok, out, err) = catchess(&["perft", "--variant", variant, "--depth", depth, "--fen", fen]);
            assert!(!ok, "{out}");
            assert!(err.contains("invalid FEN (piece placement): white has 27 pieces"), "{err}");
            assert!(!err.contains("panicked"), "{err}");
        }
    }
    let (ok, out, _) = catchess(&[
        "perft",
        "--variant",
        "chess",
        "--depth",
        "1",
        "--fen",
        "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
    ]);
    assert!(ok);
    assert_eq!(out, "Nodes searched: 218\n");
}

#[test]
fn bench_takes_stockfish_arguments_and_ends_with_its_two_lines() {
    let (ok, out, err) = catchess(&["bench", "16", "1", "2", "--all"]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let n = lines.len();
    assert!(n >= 2, "{out}");
    // Stockfish's spacing exactly, on the last two lines.
    let searched = regex::Regex::new(r"^Nodes searched  : (\d+)$").unwrap();
    let speed = regex::Regex::new(r"^Nodes/second    : (\d+)$").unwrap();
    let nodes: u64 = searched.captures(lines[n - 2]).expect("Nodes searched line")[1].parse().unwrap();
    let nps: u64 = speed.captures(lines[n - 1]).expect("Nodes/second line")[1].parse().unwrap();
    // The loose form tools match, anywhere in the output.
    let loose = regex::Regex::new(r"Nodes searched\s*:\s*(\d+)").unwrap();
    assert_eq!(loose.captures(&out).unwrap()[1].parse::<u64>().unwrap(), nodes);
    let loose = regex::Regex::new(r"Nodes/second\s*:\s*(\d+)").unwrap();
    assert_eq!(loose.captures(&out).unwrap()[1].parse::<u64>().unwrap(), nps);
    assert_eq!(openbench_parse(&out), (Some(nodes), Some(nps)));
    // The total is the sum of the per-variant lines, which are still there.
    let per_variant = regex::Regex::new(r"(?m)^(catchess|chess|xiangqi|catschess10): (\d+) nodes in").unwrap();
    let parts: Vec<u64> = per_variant.captures_iter(&out).map(|c| c[2].parse().unwrap()).collect();
    assert_eq!(parts.len(), 4, "{out}");
    assert_eq!(parts.iter().sum::<u64>(), nodes);
    assert!(nodes > 0 && nps > 0);
    // The same run with flags counts the same nodes (one thread: deterministic).
    let (ok, flags, _) = catchess(&["bench", "--hash", "16", "--threads", "1", "--depth", "2", "--all"]);
    assert!(ok);
    assert_eq!(openbench_parse(&flags).0, Some(nodes));
    // One game: named, or standard chess by default (OpenBench's bench).
    let (ok, one, _) = catchess(&["bench", "8", "1", "2", "--variant", "chess"]);
    assert!(ok);
    assert_eq!(openbench_parse(&one).0, Some(parts[1]));
    let (ok, chess, _) = catchess(&["bench", "16", "1", "2"]);
    assert!(ok);
    assert_eq!(openbench_parse(&chess).0, Some(parts[1]));
    assert!(catchess(&["bench", "--all", "--variant", "chess"]).2.contains("cannot be used with"));
}

#[test]
fn bad_bench_arguments_are_clear_errors() {
    for (args, message) in [
        (&["bench", "x"][..], "hash (MiB) must be a whole number in 1..=65536, got \"x\""),
        (&["bench", "16", "0"], "threads must be a whole number in 1..=256, got \"0\""),
        (&["bench", "16", "1", "0"], "depth must be a whole number in 1..=100"),
        (&["bench", "16", "1", "2.5"], "depth must be a whole number"),
        (&["bench", "--threads", "many"], "threads must be a whole number"),
        (&["bench", "16", "--hash", "16"], "cannot be used with"),
        (&["bench", "16", "1", "2", "--depth", "2"], "cannot be used with"),
        (&["bench", "16", "1", "2", "5"], "unexpected argument '5'"),
    ] {
        let (ok, out, err) = catchess(args);
        assert!(!ok, "{args:?} succeeded: {out}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn every_command_with_a_variant_names_every_game_and_its_default() {
    for (command, default) in [
        (&["perft"][..], Some("catchess")),
        (&["match"], Some("catchess")),
        (&["bench"], None),
        (&["pgn", "check"], Some("chess")),
        (&["tune"], Some("chess")),
        (&["calibrate"], Some("catchess")),
    ] {
        let (ok, out, _) = catchess(&[command, &["--help"]].concat());
        assert!(ok, "{command:?}");
        let variant = &out[out.find("--variant <VARIANT>").unwrap_or_else(|| panic!("{command:?}: {out}"))..];
        let variant = &variant[..variant.find("\n\n").unwrap_or(variant.len())];
        assert!(variant.contains("possible values: catchess, chess, xiangqi, catschess10"), "{command:?}: {variant}");
        // clap's `[default: x]`, or the help's own words where the default
        // depends on other flags (`perft --suite`).
        if let Some(d) = default {
            assert!(variant.contains(&format!("default: {d}")), "{command:?}: {variant}");
        }
    }
}

#[test]
fn calibrate_prints_its_table_and_refuses_bad_settings_with_words() {
    let (ok, out, err) =
        catchess(&["calibrate", "--levels", "1,2", "--games", "1", "--nodes", "500", "--within", "60", "--seed", "3"]);
    assert!(ok, "{err}");
    assert!(out.starts_with("catchess: the stand-in (level 3) as white, level L in every other seat; 1 games a level"));
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("| 1 |") || l.starts_with("| 2 |")).collect();
    assert_eq!(rows.len(), 2, "{out}");
    // Each row's three seats' wins add up to its one game.
    for row in rows {
        let cells: Vec<u32> = row.split('|').skip(2).take(3).map(|c| c.trim().parse().unwrap()).collect();
        assert_eq!(cells.iter().sum::<u32>(), 1, "{row}");
    }
    assert!(out.contains("| white within 60 moves |"), "{out}");
    for (args, message) in [
        (&["calibrate", "--seat", "red"][..], "catchess has no seat \"red\" (its seats: white, black, cats)"),
        (&["calibrate", "--stand-in", "9"], "level must be 1..=8, got 9"),
        (&["calibrate", "--levels", "5-2"], "--levels: \"5-2\": a range goes from the lower level up"),
        (&["calibrate", "--games", "0"], "--games must be 1..=100000, got 0"),
        (&["calibrate", "--nodes", "0"], "--nodes must be 1..=10000000, got 0"),
        (&["calibrate", "--layout", "crowd"], "invalid value 'crowd'"),
        (&["calibrate", "--variant", "xiangqi", "--seat", "white"], "xiangqi has no seat \"white\""),
    ] {
        let (ok, out, err) = catchess(args);
        assert!(!ok, "{args:?} succeeded: {out}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
