//! `catchess perft --variant xiangqi`, run as a user would.

use std::process::Command;

#[test]
fn perft_and_divide_for_xiangqi() {
    let out = Command::new(env!("CARGO_BIN_EXE_catchess"))
        .args(["perft", "--variant", "xiangqi", "--depth", "3"])
        .output()
        .expect("binary runs");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Nodes searched: 79666\n");
    let out = Command::new(env!("CARGO_BIN_EXE_catchess"))
        .args([
            "perft",
            "--variant",
            "xiangqi",
            "--depth",
            "1",
            "--divide",
            "--fen",
            "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        ])
        .output()
        .expect("binary runs");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "e1f1: 1\ne1e2: 1\nNodes searched: 2\n");
    let out = Command::new(env!("CARGO_BIN_EXE_catchess"))
        .args(["perft", "--variant", "xiangqi", "--depth", "1", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"])
        .output()
        .expect("binary runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("the generals face each other"));
}
