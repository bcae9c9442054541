//! `catchess perft --variant xiangqi`, run as a user would.

mod common;
use common::run;

use run::catchess;

#[test]
fn perft_and_divide_for_xiangqi() {
    let (ok, out, _) = catchess(&["perft", "--variant", "xiangqi", "--depth", "3"]);
    assert!(ok);
    assert_eq!(out, "Nodes searched: 79666\n");
    let (ok, out, _) = catchess(&[
        "perft",
        "--variant",
        "xiangqi",
        "--depth",
        "1",
        "--divide",
        "--fen",
        "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    ]);
    assert!(ok);
    assert_eq!(out, "e1f1: 1\ne1e2: 1\nNodes searched: 2\n");
    let (ok, _, err) =
        catchess(&["perft", "--variant", "xiangqi", "--depth", "1", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"]);
    assert!(!ok);
    assert!(err.contains("the generals face each other"), "{err}");
}
