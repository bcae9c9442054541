//! Match records of real games (`catchess::game::pgn::record`, which
//! names no game, so its tests on games live here): the PGN writer, seat
//! names, results, several-step turns, and reading records back for
//! `--resume` and `--merge`.

use catchess::game::pgn;
use catchess::game::pgn::record::*;
use catchess::tournament::resume::{complete_prefix, reports};
use catchess::{Arbitration, CatChess, Chess, History, Notation, Seat};

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

#[test]
fn catchess_record_has_three_players_fen_points_and_san_moves() {
    let h = history(CatChess::startpos(), "e2e4 e7e5 h5g4 g1f3 b8c6 0000");
    let t = tags(&["A", "B", "C"], None, &[0.5, 0.5, 0.0]);
    let comments = vec![None, None, None, None, None, Some("pass".to_string())];
    let pgn = write(&t, &h, &comments, Some("opening"), Some("end"));
    assert!(
        pgn.contains("[White \"A\"]\n[Black \"B\"]\n[Cats \"C\"]\n[Result \"1/2-1/2\"]\n[Winner \"draw\"]\n"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[Variant \"catchess\"]\n[FEN \"rnbqkbnr/pppppppp/8/7*/*7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]")
    );
    assert!(pgn.contains("[Points \"white 1/2, black 1/2, cats 0\"]"));
    // SAN, a cat's step by its squares (api.md, "Notation (SAN) in Cat Chess").
    assert!(pgn.ends_with("{opening} 1. e4 e5 h5g4 2. Nf3 Nc6 0000 {pass} {end} 1/2-1/2\n\n"), "{pgn}");
    // A start with the cats to move: the number is written with dots.
    let start = CatChess::from_fen("rnbqkbnr/pppp1ppp/8/4p2*/*3P3/8/PPPP1PPP/RNBQKBNR c KQkq e6 0 1").unwrap();
    let h = history(start, "h5g4 g1f3");
    let pgn = write(&tags(&["A", "B", "C"], Some(Seat::new(2)), &[0.0, 0.0, 1.0]), &h, &[], None, None);
    assert!(pgn.contains("[Result \"1/2-1/2\"]\n[Winner \"cats\"]\n"), "{pgn}");
    assert!(pgn.ends_with("\n1... h5g4 2. Nf3 1/2-1/2\n\n"), "{pgn}");
    let pgn = write(&tags(&["A", "B", "C"], Some(Seat::new(0)), &[1.0, 0.0, 0.0]), &h, &[], None, None);
    assert!(pgn.contains("[Result \"1-0\"]\n[Winner \"white\"]\n") && pgn.ends_with(" 1-0\n\n"), "{pgn}");
}

#[test]
fn seats_are_found_by_name_in_any_case() {
    assert_eq!(seat_of::<CatChess>("Cats"), Some(2));
}

/// Records in the older form (the winner as the result: `black`, `draw`).
const RECORDS: &str = "[Event \"m\"]\n[Round \"2\"]\n[White \"a\"]\n[Black \"b\"]\n[Cats \"a\"]\n[Result \"black\"]\n\
    [Termination \"illegal move by white\"]\n[Faults \"white (a) illegal move at ply 1: bestmove a1a1: illegal\"]\n\
    [PlyCount \"0\"]\n\n{white (a) illegal move} black\n\n\
    [Event \"m\"]\n[Round \"1\"]\n[White \"b\"]\n[Black \"a\"]\n[Cats \"b\"]\n[Result \"draw\"]\n[PlyCount \"9\"]\n\n\
    1. e2e4 e7e5 h5g4 draw\n\n";

#[test]
fn records_are_read_back_and_a_cut_record_is_left_out() {
    let names = vec!["a".to_string(), "b".to_string()];
    let r = reports::<CatChess>(RECORDS, &names, "x.pgn").unwrap();
    assert_eq!((r[0].number, r[0].seating.clone(), r[0].winner), (2, vec![0, 1, 0], Some(Seat::new(1))));
    assert_eq!(r[0].points, [0.0, 1.0, 0.0]);
    assert_eq!((r[0].faults[0].engine, r[0].faults[0].kind, r[0].faults[0].ply), (0, FaultKind::IllegalMove, 1));
    assert_eq!((r[1].number, r[1].winner, r[1].points.clone(), r[1].plies), (1, None, vec![0.5, 0.5, 0.0], 9));
    let err = reports::<CatChess>(RECORDS, &["a".to_string(), "c".to_string()], "x.pgn").unwrap_err();
    assert!(err.contains("\"b\" is not an engine of this match"), "{err}");
    assert_eq!(complete_prefix(RECORDS), RECORDS.len());
    let cut = &RECORDS[..RECORDS.len() - 12];
    assert_eq!(complete_prefix(cut), RECORDS.find("[Event \"m\"]\n[Round \"1\"]").unwrap());
    assert_eq!(complete_prefix(""), 0);
}

/// The same records in today's form (standard results, `Winner`) read
/// back the same, and so do the records `write` makes.
#[test]
fn standard_results_with_a_winner_tag_are_read_back() {
    let names = vec!["a".to_string(), "b".to_string()];
    let new = RECORDS
        .replace("[Result \"black\"]", "[Result \"0-1\"]\n[Winner \"black\"]")
        .replace("} black\n", "} 0-1\n")
        .replace("[Result \"draw\"]", "[Result \"1/2-1/2\"]\n[Winner \"draw\"]")
        .replace("h5g4 draw", "h5g4 1/2-1/2");
    let old = reports::<CatChess>(RECORDS, &names, "old.pgn").unwrap();
    let r = reports::<CatChess>(&new, &names, "new.pgn").unwrap();
    for (o, n) in old.iter().zip(&r) {
        assert_eq!((o.number, o.winner, &o.points, &o.result), (n.number, n.winner, &n.points, &n.result));
    }
    assert_eq!(r[0].result, "0-1 black");
    assert_eq!(r[1].result, "1/2-1/2 draw");
    // A cats' win written by `write` reads back as the cats'.
    let h = history(CatChess::startpos(), "e2e4 e7e5 h5g4");
    let mut t = tags(&["a", "b", "a"], Some(Seat::new(2)), &[0.0, 0.0, 1.0]);
    t.round = "1".into();
    let r = reports::<CatChess>(&write(&t, &h, &[], None, None), &names, "w.pgn").unwrap();
    assert_eq!(
        (r[0].winner, r[0].points.clone(), r[0].result.as_str()),
        (Some(Seat::new(2)), vec![0.0, 0.0, 1.0], "1/2-1/2 cats")
    );
    // A Winner the result contradicts is refused.
    let bad = new.replace("[Winner \"black\"]", "[Winner \"white\"]");
    assert!(reports::<CatChess>(&bad, &names, "bad.pgn").unwrap_err().contains("result \"0-1\""));
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
    let cats: catchess::games::VariantKind = "catchess".parse().unwrap();
    catchess::games::with_game!(cats, G => {
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
    let variant: catchess::games::VariantKind = "catschess10".parse().unwrap();
    catchess::games::with_game!(variant, G => several_steps::<G>());
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
