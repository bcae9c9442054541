//! Match records of a concrete game (Cat Chess) through the public
//! `catchess::tournament` API: the PGN writer, seat names, and reading
//! records back for `--resume` and `--merge`. The record code itself is
//! generic and names no game (its unit tests use chess only).

use catchess::game::pgn::record::FaultKind;
use catchess::game::pgn::record::{seat_of, write, RecordTags};
use catchess::tournament::resume::{complete_prefix, reports};
use catchess::{Arbitration, CatChess, History, Notation, Seat};

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
