//! The match record (`catchess_game::pgn::record`) written and read back
//! for real games: here, not beside the code, because the game layer names
//! no game and the games are a crate above it.

use catchess_game::pgn;
use catchess_game::pgn::record::*;
use catchess_game::{Arbitration, History, Notation, Seat};
use catchess_games::Chess;

fn tags(players: &[&str], winner: Option<Seat>, points: &[f64]) -> RecordTags {
    RecordTags {
        event: "test".into(),
        date: "2025.01.02".into(),
        round: "3".into(),
        players: players.iter().map(|p| p.to_string()).collect(),
        winner,
        finished: true,
        points: points.to_vec(),
        time_controls: vec!["10+0.1".into(); players.len()],
        termination: "checkmate".into(),
        faults: vec![],
    }
}

fn history<G: Notation + Arbitration>(start: G, moves: &str) -> History<G> {
    let mut h = History::new(start);
    for m in moves.split_whitespace() {
        h.push_protocol(m).unwrap();
    }
    h
}

/// Results are read back in both forms; what does not name a finished
/// game of the variant is `None` (by variant name: this module names
/// no game but chess).
#[test]
fn results_read_back() {
    let white = Some(Some(Seat::new(0)));
    assert_eq!(winner_of_result::<Chess>("1-0", None), white);
    assert_eq!(winner_of_result::<Chess>("1/2-1/2", None), Some(None));
    assert_eq!(winner_of_result::<Chess>("*", None), None);
    assert_eq!(winner_of_result::<Chess>("white", None), None);
    assert_eq!(winner_tag::<Chess>(None), None);
    let cats: catchess_games::VariantKind = "catchess".parse().unwrap();
    catchess_games::with_game!(cats, G => {
        let cats = Some(Some(Seat::new(2)));
        assert_eq!((result_text::<G>(Some(Seat::new(2))), winner_tag::<G>(Some(Seat::new(2)))), ("1/2-1/2", Some("cats")));
        assert_eq!(winner_of_result::<G>("1/2-1/2", Some("cats")), cats);
        assert_eq!(winner_of_result::<G>("1/2-1/2", None), cats);
        assert_eq!(winner_of_result::<G>("cats", None), cats);
        assert_eq!(winner_of_result::<G>("1/2-1/2", Some("draw")), Some(None));
        assert_eq!(winner_of_result::<G>("draw", None), Some(None));
        assert_eq!(winner_of_result::<G>("1-0", Some("white")), white);
        assert_eq!(winner_of_result::<G>("white", None), white);
        assert_eq!(winner_of_result::<G>("1-0", Some("cats")), None);
        assert_eq!(winner_of_result::<G>("*", None), None);
    });
}

#[test]
fn chess_record_is_standard_pgn_with_san() {
    let h = history(Chess::startpos(), "f2f3 e7e5 g2g4 d8h4");
    let mut t = tags(&["A", "B"], Some(Seat::new(1)), &[0.0, 1.0]);
    t.faults = vec!["none \"really\"".into()];
    let comments = vec![None, Some("+0.10/3 0.010s".to_string()), None, None];
    let pgn = write(&t, &h, &comments, None, None);
    let expected = "[Event \"test\"]\n[Site \"?\"]\n[Date \"2025.01.02\"]\n[Round \"3\"]\n[White \"A\"]\n\
        [Black \"B\"]\n[Result \"0-1\"]\n[TimeControl \"10+0.1\"]\n[Termination \"normal\"]\n\
        [TerminationDetails \"checkmate\"]\n\
        [Faults \"none \\\"really\\\"\"]\n[PlyCount \"4\"]\n\n\
        1. f3 e5 {+0.10/3 0.010s} 2. g4 Qh4# 0-1\n\n";
    assert_eq!(pgn, expected);
}

#[test]
fn long_games_wrap_below_80_columns() {
    let h = history(Chess::startpos(), &"g1f3 g8f6 f3g1 f6g8 ".repeat(2));
    let pgn = write(&tags(&["A", "B"], None, &[0.5, 0.5]), &h, &[], None, None);
    assert!(pgn.lines().all(|l| l.len() < 80));
    assert!(pgn.contains("1/2-1/2"));
    assert_eq!(seat_of::<Chess>("cats"), None);
}

/// A game whose turns take several steps (catschess10, by its variant
/// name: this module names no game) gets one token a turn (the turn's
/// `turn_text`), move numbers by turns, `PlyCount` in turns, and the
/// record replays.
#[test]
fn turns_of_several_steps_are_one_token_each() {
    let variant: catchess_games::VariantKind = "catschess10".parse().unwrap();
    catchess_games::with_game!(variant, G => several_steps::<G>());
}

fn several_steps<G: Notation + Arbitration>() {
    let line = "b1d2,M@b1 i8i6 d1f2,M@d1 a9b9,c8c6";
    let h = history(G::startpos(), line);
    assert_eq!(h.turn_count(), 4);
    assert!(h.moves().len() > 8);
    let comments = vec![Some("a".to_string()), None, None, Some("d".to_string())];
    let pgn = write(&tags(&["A", "B"], None, &[0.5, 0.5]), &h, &comments, None, None);
    assert!(pgn.contains("[PlyCount \"4\"]"), "{pgn}");
    assert!(pgn.contains("1. b1d2,M@b1 {a} i8i6 2. d1f2,M@d1 a9b9,c8c6 {d} 1/2-1/2"), "{pgn}");
    let game = &pgn::read_all(&pgn, &[]).unwrap()[0];
    assert_eq!(game.move_texts().collect::<Vec<_>>(), line.split(' ').collect::<Vec<_>>());
    let again = pgn::replay::<G>(game, pgn::Stop::AtEnd).unwrap();
    assert_eq!(again.moves(), h.moves());
    assert_eq!(again.turn_texts(), game.move_texts().collect::<Vec<_>>());
}
