//! Cat's Chess 10×10 over the engine protocol, spoken to the real binary:
//! a turn is one token; the teleport is two-phase (rules §8): `bestmove
//! T@?`, the client's roll as the partial last token `T@<sq>` or `T?<sq>`,
//! then the rest of the turn or `bestmove reroll`; bad step-1 tokens get an
//! error naming the step, and the engine keeps serving.

mod common;
use common::engine;

use engine::Engine;

fn engine() -> Engine {
    let mut e = Engine::start_with(&["--variant", "catschess10"]);
    e.send("uci");
    e.until(|l| l == "uciok");
    e
}

/// The error lines among `lines`.
fn errors(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.contains("error")).collect()
}

/// Sends `position` and checks that it was accepted.
fn accepted(e: &mut Engine, position: &str) {
    let out = e.ask(position);
    assert!(errors(&out).is_empty(), "{position}: {out:?}");
}

/// White's T on e9 steps home beside the cat on a10: two cats home, now.
/// Teleporting would take the T off rank 9 (no roll lands on Black's first
/// two ranks) and throw the win away.
const T_STEPS_HOME: &str = "C8k/4T5/p9/10/10/10/10/P9/10/1NBRQK4 w - - 0 1 -";
/// White's T on a1 is boxed in by its own pawns and attacked by the rook
/// on j1, and nothing can block rank 1 or take the rook: only a teleport
/// saves the T (and denies Black the bonus move).
const T_BOXED_AND_ATTACKED: &str = "1nbq1kc3/10/10/10/10/4K5/10/1P8/P1P7/T8r w - - 0 1 -";
/// A black mouse on f2 beside White's boxed king: a roll on f2 should be
/// kept (the mouse leaves the game).
const MOUSE_BY_THE_KING: &str = "rnbq1k4/c9/p9/10/10/10/10/P9/4RmR3/4RKR3 w - - 0 1 -";
/// White's own mouse on e5, under Black's pawn d6: keeping e5 loses the
/// mouse, and the T to the pawn.
const OWN_MOUSE_UNDER_A_PAWN: &str = "rnbq1k4/c9/10/10/3p6/4M5/10/P9/10/5K4 w - - 0 1 -";

/// Whether a turn from [`T_STEPS_HOME`] brings the T home: to e10 or c10,
/// both win (which the search finds first depends on its settings and on
/// what it learnt from the position before; the tests then check the
/// outcome).
fn steps_home(turn: &str) -> bool {
    ["e9e10", "e9c10"].iter().any(|step| turn.contains(step))
}

#[test]
fn a_whole_turn_is_one_token_that_position_accepts() {
    let mut e = engine();
    // From the start a teleport gives White a new T: the engine asks.
    accepted(&mut e, "position startpos");
    assert_eq!(e.go("depth 4").1, "T@?");
    // The client rolls e5; the engine answers steps 2–5 only.
    accepted(&mut e, "position startpos moves T@e5");
    let rest = e.go("depth 4").1;
    assert!(!rest.is_empty() && !rest.contains('T') && rest != "(none)", "{rest}");
    // The whole turn, as the client records it, is one token.
    accepted(&mut e, &format!("position startpos moves T@e5,{rest}"));
    let board = e.ask("d").join("\n");
    assert!(board.contains("To move: black") && !board.contains("Mid-turn"), "{board}");
    // A turn without a teleport: one token, and it wins.
    accepted(&mut e, &format!("position fen {T_STEPS_HOME}"));
    let turn = e.go("depth 8").1;
    // Any turn that brings the T home will do (the cat on a10 may step
    // first), without a roll; the outcome below proves it wins.
    assert!(steps_home(&turn) && !turn.contains("T@"), "{turn}");
    accepted(&mut e, &format!("position fen {T_STEPS_HOME} moves {turn}"));
    assert_eq!(e.ask("outcome"), ["outcome white two cats home"]);
}

#[test]
fn a_roll_on_a_mouse_is_kept_or_rerolled() {
    let mut e = engine();
    // Keep: the answer is the rest of the turn, written without the
    // teleport; the client records `T@f2,<rest>`.
    accepted(&mut e, &format!("position fen {MOUSE_BY_THE_KING} moves T?f2"));
    let board = e.ask("d").join("\n");
    assert!(board.contains("keep its square or reroll"), "{board}");
    let rest = e.go("depth 8").1;
    assert!(rest != "reroll" && !rest.contains('T'), "{rest}");
    accepted(&mut e, &format!("position fen {MOUSE_BY_THE_KING} moves T@f2,{rest}"));
    let board = e.ask("d").join("\n");
    assert!(board.contains("To move: black") && !board.contains(" m "), "the mouse is gone: {board}");
    // Reroll: the engine declines; the client rolls again and sends the
    // new roll in place of `T?e5`.
    accepted(&mut e, &format!("position fen {OWN_MOUSE_UNDER_A_PAWN} moves T?e5"));
    assert_eq!(e.go("depth 8").1, "reroll");
    accepted(&mut e, &format!("position fen {OWN_MOUSE_UNDER_A_PAWN} moves T@g4"));
    let rest = e.go("depth 8").1;
    assert!(!rest.contains('T') && rest != "reroll", "{rest}");
    accepted(&mut e, &format!("position fen {OWN_MOUSE_UNDER_A_PAWN} moves T@g4,{rest}"));
}

#[test]
fn bad_step_one_tokens_name_the_step_and_the_engine_keeps_serving() {
    let mut e = engine();
    accepted(&mut e, &format!("position fen {MOUSE_BY_THE_KING}"));
    let fen = MOUSE_BY_THE_KING;
    for (moves, why) in [
        ("T@e10", "the roll never lands on e10"),
        ("T@e2", "the roll never lands on e2"),
        ("T?e5", "no mouse on e5"),
        ("T?f2,a3a4", "undecided"),
        ("reroll", "no roll on a mouse"),
        ("T@?", "the roll is the arbiter's"),
        ("a3a4,T@e5", "must open the turn"),
        ("T?f2 reroll", "not a move"),
        ("T?f2 a3a4", "undecided"),
    ] {
        let out = e.ask(&format!("position fen {fen} moves {moves}"));
        let errs = errors(&out);
        assert!(errs.len() == 1 && errs[0].contains(why) && errs[0].contains("step 1"), "{moves}: {out:?}");
        // The position is unchanged: still White's turn from the FEN.
        let board = e.ask("d").join("\n");
        assert!(board.contains(&format!("Fen: {fen}")) && !board.contains("Mid-turn"), "{moves}: {board}");
    }
    assert!(!e.go("depth 2").1.is_empty(), "still serving");
}

#[test]
fn the_engine_teleports_when_it_is_right_and_not_when_it_is_wrong() {
    let mut e = engine();
    accepted(&mut e, &format!("position fen {T_BOXED_AND_ATTACKED}"));
    assert_eq!(e.go("depth 8").1, "T@?", "only a teleport saves the boxed T");
    accepted(&mut e, &format!("position fen {T_STEPS_HOME}"));
    let turn = e.go("depth 8").1;
    // Any turn that brings the T home wins (the cat on a10 may step along
    // rank 10 first): what matters is that it wins, without a teleport.
    assert!(!turn.contains("T@") && steps_home(&turn), "the T steps home instead: {turn}");
    accepted(&mut e, &format!("position fen {T_STEPS_HOME} moves {turn}"));
    assert_eq!(e.ask("outcome"), ["outcome white two cats home"], "{turn}");
}

/// A partial teleport token (`T@e5`) may only be the last token of a
/// `position` line: the rest of its turn belongs in the same token, and a
/// second token that continues it is refused (issue #41).
#[test]
fn a_partial_teleport_token_must_be_the_last() {
    let mut e = engine();
    accepted(&mut e, "position startpos moves T@e5");
    let rest = e.go("depth 3").1;
    assert!(!rest.is_empty() && !rest.contains('T'), "{rest}");
    accepted(&mut e, &format!("position startpos moves T@e5,{rest}"));
    let out = e.ask(&format!("position startpos moves T@e5 {rest}"));
    let errs = errors(&out);
    assert!(errs.len() == 1 && errs[0].contains("must be the last move"), "{out:?}");
    // Refused whole: the position is still the one set before.
    let board = e.ask("d").join("\n");
    assert!(board.contains("To move: black") && !board.contains("Mid-turn"), "{board}");
}

/// White's king a1 is walled in by mice: White must teleport (RULES.md
/// §Z11), and a `T` on j5 would be boxed in, so the roll never keeps j5.
const MUST_TELEPORT_NOT_J5: &str = "4qk4/10/p9/8c1/7nmm/8m1/7rmm/8b1/mm8/Km8 w - - 0 1 -";
/// Every square full: no square saves White's walled-in king (§Z13).
const NOTHING_SAVES: &str = "rnbcqkcbnr/pmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/Kmmmmmmmmm w - - 0 1 -";

/// The `rolls` answer as (token, weight) pairs; `None` for `rolls none`.
fn rolls(e: &mut Engine) -> Option<Vec<(String, u32)>> {
    let out = e.ask("rolls");
    assert_eq!(out.len(), 1, "{out:?}");
    let words: Vec<&str> = out[0].split(' ').collect();
    assert_eq!(words[0], "rolls", "{out:?}");
    if words[1..] == ["none"] {
        return None;
    }
    assert!(words.len() % 2 == 1, "token and weight pairs: {out:?}");
    Some(words[1..].chunks(2).map(|p| (p[0].to_string(), p[1].parse().expect("a weight"))).collect())
}

#[test]
fn rolls_lists_the_squares_a_roll_may_keep_and_their_weights() {
    for mut e in [engine(), {
        let mut r = Engine::start_with(&["random"]);
        r.send("uci");
        r.until(|l| l == "uciok");
        r.send("setoption name UCI_Variant value catschess10");
        r
    }] {
        // From the start: the 48 empty squares of ranks 2–7 (no mouse),
        // each as likely, a1 first.
        accepted(&mut e, "position startpos");
        let start = rolls(&mut e).expect("White may teleport");
        assert_eq!(start.len(), 48);
        assert_eq!(start[0], ("T@b2".to_string(), 1));
        assert!(start.iter().all(|(t, w)| t.starts_with("T@") && *w == 1), "{start:?}");
        // A mouse's square is sent as T?<sq>; after it (the engine may
        // answer `reroll`) the same roll is listed again, mice included.
        accepted(&mut e, &format!("position fen {MOUSE_BY_THE_KING}"));
        let here = rolls(&mut e).unwrap();
        assert!(here.contains(&("T?f2".to_string(), 1)) && !here.iter().any(|(t, _)| t == "T@f2"));
        accepted(&mut e, &format!("position fen {MOUSE_BY_THE_KING} moves T?f2"));
        assert_eq!(rolls(&mut e).as_ref(), Some(&here));
        // Past step 1, or with no roll to ask for: none.
        accepted(&mut e, &format!("position fen {MOUSE_BY_THE_KING} moves T@f2"));
        assert_eq!(rolls(&mut e), None);
        accepted(&mut e, &format!("position fen {NOTHING_SAVES}"));
        assert_eq!(rolls(&mut e), None);
        // A square on which the T would be boxed in is no outcome.
        accepted(&mut e, &format!("position fen {MUST_TELEPORT_NOT_J5}"));
        let boxed = rolls(&mut e).unwrap();
        assert_eq!(boxed.len(), 73);
        assert!(!boxed.iter().any(|(t, _)| t.ends_with("j5")) && boxed.iter().any(|(t, _)| t == "T?i5"));
        assert!(e.ask("rolls now").iter().any(|l| l.contains("error") && l.contains("rolls")));
    }
}

#[test]
fn a_player_whose_only_turn_is_a_teleport_teleports_and_one_with_none_has_lost() {
    let mut e = engine();
    accepted(&mut e, &format!("position fen {MUST_TELEPORT_NOT_J5}"));
    assert_eq!(e.ask("outcome"), ["outcome none"]);
    assert_eq!(e.go("depth 6").1, "T@?", "the teleport is White's only turn");
    let out = e.ask(&format!("position fen {MUST_TELEPORT_NOT_J5} moves T@j5"));
    let errs = errors(&out);
    assert!(errs.len() == 1 && errs[0].contains("never keeps j5") && errs[0].contains("step 1"), "{out:?}");
    accepted(&mut e, &format!("position fen {MUST_TELEPORT_NOT_J5} moves T@j3"));
    let rest = e.go("depth 6").1;
    accepted(&mut e, &format!("position fen {MUST_TELEPORT_NOT_J5} moves T@j3,{rest}"));
    assert!(e.ask("d").join("\n").contains("To move: black"));
    accepted(&mut e, &format!("position fen {NOTHING_SAVES}"));
    assert_eq!(e.ask("outcome"), ["outcome black no legal turn"]);
    assert_eq!(e.go("depth 4").1, "(none)");
}
