//! zzo38's Cat's Chess (10×10) under the search: the evaluation the same
//! for either colour and its terms, and the search's hooks following the
//! steps of a turn (a king taken, a recapture seen after the own move).

mod common;
use catchess::core::Color;
use catchess::game::{History, MoveList};
use catchess::games::catschess10::{CatsChess10, Phase, Step, StepKind};
use catchess::search::{Evaluate, Limits, Score, SearchControl, SearchGame, Searcher};
use common::catschess10::{board, fen, sq, ALL_KINDS};

/// The position with colours and ranks swapped (the same game for the
/// other side).
fn mirrored(pos: &CatsChess10) -> CatsChess10 {
    let text = pos.to_fen();
    let f: Vec<&str> = text.split(' ').collect();
    let swap = |s: &str| {
        s.chars()
            .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
            .collect::<String>()
    };
    let msq = |s: &str| format!("{}{}", &s[..1], 11 - s[1..].parse::<u32>().unwrap());
    let placement: Vec<String> = f[0].split('/').rev().map(swap).collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let mut castling: Vec<char> = swap(f[2]).chars().collect();
    castling.sort_by_key(|c| "KQkq-".find(*c));
    let ep = if f[3] == "-" { "-".to_string() } else { msq(f[3]) };
    let waiting = if f[6] == "-" {
        "-".to_string()
    } else {
        f[6].split(',')
            .map(|w| {
                let (p, s) = w.split_once('@').unwrap();
                format!("{}@{}", swap(p), msq(s))
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    let text = format!(
        "{} {side} {} {ep} {} {} {waiting}",
        placement.join("/"),
        castling.iter().collect::<String>(),
        f[4],
        f[5]
    );
    fen(&text)
}

/// The search's best turn's first step and score at `depth` plies.
fn search(pos: &CatsChess10, depth: u32) -> (Step, Score) {
    let mut searcher = Searcher::<CatsChess10>::new(8);
    let limits = Limits { depth: Some(depth), ..Default::default() };
    let r = searcher.search(&History::new(*pos), &limits, &SearchControl::new(), &mut |_| {});
    (r.best.expect("a move"), r.score)
}

#[test]
fn evaluation_is_the_same_for_either_colour() {
    for f in CatsChess10::BENCH {
        let p = fen(f);
        assert_eq!(p.evaluate(), -mirrored(&p).evaluate(), "{f}");
    }
    let p = board(&format!("{ALL_KINDS} Kf5 kf10 mf6 rj5 mh5 Ch10 Ci9"), 'w');
    assert_eq!(p.evaluate(), -mirrored(&p).evaluate());
    assert!(p.eval_breakdown().contains("two-cats race"));
}

#[test]
fn evaluation_terms() {
    use catchess::games::catschess10::eval::{
        CAT_ADVANCE, CAT_PAIR, KING_ATTACKER, MOUSE_NEXT_TO_KING, MOUSE_NEXT_TO_QUEEN,
    };
    // A black mouse next to the white king, another next to the white
    // queen on e1: the king and queen cannot take them.
    let p = board(&format!("{ALL_KINDS} Kf5 kf10 mf6 md1"), 'w');
    assert_eq!(p.terms(Color::White).mouse_threats, -MOUSE_NEXT_TO_KING - MOUSE_NEXT_TO_QUEEN);
    assert_eq!(p.terms(Color::Black).mouse_threats, 0);
    // A rook attacks the king through a mouse (sliders see through mice);
    // the mouse counts as no attacker of the king's square here.
    let p = board(&format!("{ALL_KINDS} Kf5 kf10 rj5 mh5"), 'w');
    assert_eq!(p.terms(Color::White).king_exposure, -KING_ATTACKER);
    let p = board(&format!("{ALL_KINDS} Kf5 kf10 rj5 ph5"), 'w');
    assert_eq!(p.terms(Color::White).king_exposure, 0, "a pawn blocks the rook");
    // One cat home, another a rank away: near a two-cats win.
    let p = board("Kf1 kf10 Ch10 Ci9", 'w');
    assert_eq!(p.terms(Color::White).cat_race, CAT_ADVANCE[0] + CAT_ADVANCE[1] + CAT_PAIR[1]);
    assert_eq!(p.terms(Color::Black).cat_race, 0);
    assert!(p.evaluate() > board("Kf1 kf10 Ch2 Ci2", 'w').evaluate());
}

#[test]
fn search_hooks_follow_the_steps_of_a_turn() {
    // A rook attacks the white king: "in check" before the own move is
    // made (at the turn's start, choosing the king's destination), not
    // after it.
    let p = board(&format!("{ALL_KINDS} Kf1 kf10 rf5"), 'w');
    assert!(p.in_check());
    let picked = p.play(Step::pick(sq("f1")));
    assert!(picked.in_check());
    assert!(!p.play(Step::pick(sq("e1"))).in_check(), "another piece's destinations are not searched as evasions");
    let moved = picked.play(Step::new(StepKind::Own, sq("f1"), sq("g2")));
    assert_eq!(moved.state().phase, Phase::Mouse);
    assert!(!moved.in_check() && !moved.static_value_holds());
    let mut list = MoveList::new();
    moved.tactical_moves(&mut list);
    assert_eq!(list.as_slice(), [Step::END], "after the own move, quiescence carries the turn on");
    assert!(!moved.has_non_pawn_material(), "no null move mid-turn");
    // Black's tactical moves: the pick of the rook, which can take the
    // king, and then the king capture.
    let q = board(&format!("{ALL_KINDS} Kf1 kf10 rf5"), 'b');
    q.tactical_moves(&mut list);
    assert!(list.iter().any(|&m| m == Step::pick(sq("f5"))), "{:?}", list.as_slice());
    assert!(list.iter().all(|&m| m.kind == StepKind::Pick));
    let q = q.play(Step::pick(sq("f5")));
    q.tactical_moves(&mut list);
    assert!(list.iter().any(|&m| m.to == sq("f1")));
    assert!(
        q.tactical_value(Step::new(StepKind::Own, sq("f5"), sq("f1")))
            > q.tactical_value(Step::new(StepKind::Own, sq("f5"), sq("f3")))
    );
}

#[test]
fn search_takes_a_king_and_sees_a_recapture_after_the_own_move() {
    // The king capture is a win in one turn.
    let p = board(&format!("{ALL_KINDS} Kf1 kf10 Rf5"), 'w');
    assert_eq!(search(&p, 3), (Step::pick(sq("f5")), Score::Mate(1)));
    // Qd4xd7 takes a pawn that e8 defends: with the static value standing
    // after the own move, a two-ply search would count the pawn as won.
    let p = board(&format!("{ALL_KINDS} Kf1 kf10 Qd4 pd7 pe8"), 'w');
    for depth in [2, 4] {
        let (first, score) = search(&p, depth);
        if first == Step::pick(sq("d4")) {
            let q = p.play(first);
            let (second, _) = search(&q, depth - 1);
            assert_ne!(second.to, sq("d7"), "depth {depth}: the queen takes a defended pawn");
        }
        assert!(matches!(score, Score::Cp(_)), "{score:?}");
    }
    // A black mouse next to the white king: the king must not stay.
    let p = board(&format!("{ALL_KINDS} Kf2 kf10 mf3"), 'w');
    let (_, score) = search(&p, 4);
    assert!(matches!(score, Score::Cp(_)), "{score:?}");
}
