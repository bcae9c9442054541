//! The `catchess` binary's tool commands, run as a user would.

use std::process::Command;

fn catchess(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_catchess")).args(args).output().expect("binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

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
    let dir = std::env::temp_dir().join(format!("catchess-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.epd");
    std::fs::write(&bad, "rnbqkbnr/pppppppp/8/7*/*7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 19 ;D2 360\n").unwrap();
    let (ok, out, err) = catchess(&["perft", "--suite", bad.to_str().unwrap()]);
    assert!(!ok);
    assert!(out.contains("FAIL line 1 D2: expected 360, got 361"), "{out}");
    assert!(out.contains("divide at D2"));
    assert!(err.contains("1 perft count(s) differ"));
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
