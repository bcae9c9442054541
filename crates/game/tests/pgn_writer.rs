//! The PGN writer on real games (the game layer names none).

use catchess_game::pgn::{escape, read_all, replay, write, Movetext, Stop};
use catchess_game::History;
use catchess_games::Chess;

#[test]
fn tag_values_cannot_end_their_tag() {
    assert_eq!(escape("a \"b\" \\ c"), "a \\\"b\\\" \\\\ c");
    let forged = "Mallory\n[Result \"1-0\"]";
    assert_eq!(escape(forged), "Mallory [Result \\\"1-0\\\"]");
    let h = History::new(Chess::startpos());
    let text = Movetext { comments: &[], before: None, after: None, result: "*" };
    let pgn = write(&[("White".into(), forged.to_string()), ("Black".into(), "tab\there".into())], &h, text);
    assert_eq!(pgn, "[White \"Mallory [Result \\\"1-0\\\"]\"]\n[Black \"tab here\"]\n\n*\n\n");
    // Read back: the name as written, one tag, no forged result.
    let game = read_all(&pgn, &[]).unwrap().remove(0);
    assert_eq!(game.tags, [("White".into(), "Mallory [Result \"1-0\"]".into()), ("Black".into(), "tab here".into())]);
    assert_eq!(game.tag("Result"), None);
}

#[test]
fn movetext_is_numbered_commented_and_wrapped() {
    let mut h = History::new(Chess::startpos());
    for m in "g1f3 g8f6 f3g1 f6g8 ".repeat(6).split_whitespace().take(6) {
        h.push_text(m).unwrap();
    }
    let comments = vec![None, Some("x {y}".to_string())];
    let text = Movetext { comments: &comments, before: Some("start"), after: Some("end"), result: "1/2-1/2" };
    let pgn = write(&[], &h, text);
    assert_eq!(pgn, "\n{start} 1. Nf3 Nf6 {x y} 2. Ng1 Ng8 3. Nf3 Nf6 {end} 1/2-1/2\n\n");
    let game = read_all(&pgn, &[]).unwrap().remove(0);
    assert_eq!(replay::<Chess>(&game, Stop::AtEnd).unwrap().moves(), h.moves());
    let long = Movetext { comments: &[], before: Some(&"x".repeat(75)), after: None, result: "*" };
    let pgn = write(&[], &h, long);
    assert!(pgn.lines().all(|l| l.len() < 80) && pgn.contains("}\n1. Nf3"), "{pgn}");
    // A start with black to move opens with `N...`.
    let start = Chess::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 3 17").unwrap();
    let mut h = History::new(start);
    h.push_text("e8d7").unwrap();
    h.push_text("e1d2").unwrap();
    let pgn = write(&[], &h, Movetext { comments: &[], before: None, after: None, result: "*" });
    assert_eq!(pgn, "\n17... Kd7 18. Kd2 *\n\n");
}
