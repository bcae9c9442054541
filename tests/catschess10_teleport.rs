//! zzo38's Cat's Chess (10×10): the teleport (step 1), a request then the
//! arbiter's roll: the squares a roll may keep, a roll on a mouse kept or
//! rolled again, the tokens of step 1 and their errors, and the player it
//! saves.

mod common;
use catchess::core::Color;
use catchess::game::{Arbitration, Game, History, MoveError, MoveList};
use catchess::games::catschess10::{CatsChess10, Piece, Role, Square, Step, StepKind};
use common::catschess10::{after, board, fen, illegal, sq, steps_of, tokens, ALL_KINDS};

#[test]
fn a_player_with_no_own_move_must_teleport_and_does_not_lose() {
    // The king j5 is walled in by mice (a neutral move would not help),
    // but White may teleport (a new T appears): the request is its only
    // step, the game goes on, and every turn opens with the teleport.
    let boxed = fen("5k4/10/p9/10/8mm/8mK/8mm/10/10/rnbcq5 w - - 0 1 -");
    assert_eq!(steps_of(&boxed), [Step::REQUEST]);
    assert!(boxed.position_outcome(false).is_none());
    assert_eq!(History::new(boxed).outcome(), None);
    assert!(tokens(&boxed).is_empty(), "perft counts no teleport");
    let saved = boxed.parse_turn("T@e5,e5e6").unwrap();
    let end = saved.iter().fold(boxed, |p, &s| p.play(s));
    assert!(end.at_turn_start() && end.side_to_move() == Color::Black);
    assert!(illegal(&boxed, "j5j4").contains("j5j4"));
    // With a neutral on the board its moves do not count either: none
    // gives the king a move, and step 1 comes before step 2.
    let with_neutral = fen("5k4/10/p9/*9/8mm/8mK/8mm/10/10/rnbcq5 w - - 0 1 -");
    assert_eq!(steps_of(&with_neutral), [Step::REQUEST]);
}

#[test]
fn teleport_squares_and_applying_one() {
    let start = CatsChess10::startpos();
    // Ranks 1–8 minus occupied squares, never ranks 9–10 (Black's first two).
    assert_eq!(start.teleport_squares().count(), 48);
    assert!(start.teleport_mice().is_empty());
    let t = start.teleport(sq("e5")).unwrap();
    assert!(!t.at_turn_start() && t.state().teleported);
    assert_eq!(t.piece_at(sq("e5")), Some(Piece::new(Role::TCat, Color::White)));
    assert!(start.teleport(sq("e9")).is_err() && start.teleport(sq("e1")).is_err());
    assert!(t.teleport(sq("e6")).is_err(), "one teleport a turn");
    // Steps 2–5 follow; the turn's token is written with the teleport.
    let steps = start.parse_turn("T@e5,j2j4,e5e6").unwrap();
    assert_eq!(CatsChess10::turn_text(&steps), "T@e5,j2j4,e5e6");
    assert_eq!(
        start.parse_turn("T@e5").unwrap(),
        [Step::REQUEST, Step::at(StepKind::Teleport, sq("e5"))],
        "a partial turn"
    );
    // The teleported T may not capture, and our old T leaves its square.
    let p = board(&format!("{ALL_KINDS} Kf1 kj10 Ta5 pf7 me7 *e5"), 'w');
    let mice = p.teleport_mice();
    assert!(mice.contains(sq("e7")));
    let tp = p.teleport(sq("e6")).unwrap();
    assert_eq!(tp.piece_at(sq("a5")), None);
    let mut list = MoveList::new();
    tp.play(Step::pick(sq("e6"))).legal_moves(&mut list);
    let dests: Vec<String> = list.iter().map(|m| m.to.to_string()).collect();
    assert!(!dests.contains(&"f7".to_string()) && !dests.contains(&"e5".to_string()), "{dests:?}");
    assert!(dests.contains(&"d6".to_string()));
    // Keeping a mouse's square removes the mouse; it is not a capture.
    let on_mouse = fen(&p.to_fen().replace(" 0 1 ", " 7 1 ")).teleport(sq("e7")).unwrap();
    assert_eq!(on_mouse.piece_at(sq("e7")), Some(Piece::new(Role::TCat, Color::White)));
    let done = after(&on_mouse, "f1f2");
    assert_eq!(done.halfmove_clock(), 8);
    let illegal_tp = illegal(&start, "T@e9,e3e4");
    assert!(illegal_tp.contains("T@e9"), "{illegal_tp}");
}

#[test]
fn a_t_promoted_after_a_teleport_may_capture() {
    // White teleports its T, then promotes to a new T capturing Black's T
    // (f9xg10=T): the bonus move is the new T's, and it may capture.
    let p = board(&format!("{ALL_KINDS} Kf1 kj10 Ta5 Pf9 tg10 ph8"), 'w');
    let t = p.teleport(sq("e5")).unwrap();
    let steps = t.parse_turn("f9g10t,+g10h8").unwrap();
    let end = steps.iter().fold(t, |q, &s| q.play(s));
    assert_eq!(end.piece_at(sq("h8")), Some(Piece::new(Role::TCat, Color::White)));
    assert_eq!(end.piece_at(sq("e5")), None, "the teleported T was removed");
}

/// White's king a1 is walled in by mice; on j5 a `T` would be boxed in by
/// mice (orthogonal steps go only to empty squares) and by pieces on its
/// leaps, none of which a teleported `T` may capture.
const J5_BOXES: &str = "Ka1 ma2 mb1 mb2 kf10 mi4 mi5 mi6 mj4 mj6 rh4 nh6 bi3 ci7 qe10 pa8";

#[test]
fn a_roll_on_a_square_that_boxes_the_t_in_is_rolled_again() {
    let p = board(J5_BOXES, 'w');
    assert_eq!(steps_of(&p), [Step::REQUEST], "the king has no move: White must teleport");
    let roll = p.play(Step::REQUEST);
    let outcomes = steps_of(&roll);
    // Every open square of ranks 1–8 (80, less the king, the mice and
    // the pieces there) but j5; each as likely.
    let open = (0..80).map(Square::from_index).filter(|&s| p.piece_at(s).is_none_or(|q| q.kind == Role::Mouse)).count();
    assert_eq!(outcomes.len(), open - 1);
    assert!(outcomes.iter().all(|m| m.to != sq("j5") && roll.chance_weight(*m) == 1));
    assert!(!p.teleport_squares().contains(sq("j5")) && p.teleport_squares().contains(sq("j3")));
    assert!(p.roll_to(sq("j5"), true).unwrap_err().contains("never keeps j5"));
    assert!(illegal(&p, "T@j5").contains("step 1"));
    // The arbiter's dice never land there.
    let mut h = History::new(p);
    h.push(Step::REQUEST);
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for _ in 0..300 {
        let rolled = h.roll(&mut rng).unwrap();
        assert_ne!(rolled.to, sq("j5"));
        h.take_back(1);
    }
    // A mouse's square that would box the T in is no outcome either: no
    // keep-or-reroll decision is offered there.
    let mouse = board(&format!("{J5_BOXES} mj5"), 'w');
    let outcomes = steps_of(&mouse.play(Step::REQUEST));
    assert!(outcomes.iter().all(|m| m.to != sq("j5")), "{outcomes:?}");
    assert!(outcomes.contains(&Step::at(StepKind::RollMouse, sq("i5"))));
    // The test is whether the turn has a step-3 move, not the T: with a
    // king that can move, j5 may be kept (the T then stays put).
    let free = board("Ka1 kf10 mi4 mi5 mi6 mj4 mj6 rh4 nh6 bi3 ci7 qe10 pa8", 'w');
    assert!(free.teleport_squares().contains(sq("j5")));
    assert!(free.parse_turn("T@j5,a1a2").is_ok());
    // A neutral move after the roll counts too: with a neutral on i5
    // instead of the mouse, `T@j5,i5h5,j5i5` completes the turn.
    let neutral = board("Ka1 ma2 mb1 mb2 kf10 mi4 *i5 mi6 mj4 mj6 rh4 nh6 bi3 ci7 qe10 pa8", 'w');
    assert!(neutral.teleport_squares().contains(sq("j5")));
    assert!(neutral.parse_turn("T@j5,i5h5,j5i5").is_ok());
}

#[test]
fn the_teleport_is_a_request_then_a_roll() {
    let start = CatsChess10::startpos();
    let moves = steps_of(&start);
    // Offered last, once; not a chance position itself.
    assert_eq!(moves.last(), Some(&Step::REQUEST));
    assert_eq!(moves.iter().filter(|m| m.kind == StepKind::Request).count(), 1);
    assert!(!start.is_chance());
    let roll = start.play(Step::REQUEST);
    assert!(roll.is_chance() && !roll.at_turn_start());
    let outcomes = steps_of(&roll);
    // One outcome per teleport square, each as likely.
    assert_eq!(outcomes.len(), start.teleport_squares().count() as usize);
    assert!(outcomes.iter().all(|&m| m.kind == StepKind::Teleport && roll.chance_weight(m) == 1));
    let landed = roll.play(Step::at(StepKind::Teleport, sq("e5")));
    assert!(!landed.is_chance() && landed.state().teleported);
    assert_eq!(landed.key(), start.teleport(sq("e5")).unwrap().key());
    assert!(!steps_of(&landed).contains(&Step::REQUEST), "one teleport a turn");
    // Mid-turn (after a neutral move) step 1 is closed.
    assert!(!steps_of(&after_steps(&start, "j2j4")).contains(&Step::REQUEST));
}

fn after_steps(pos: &CatsChess10, neutral: &str) -> CatsChess10 {
    let (from, to) = (sq(&neutral[..2]), sq(&neutral[2..]));
    pos.play(Step::new(StepKind::Neutral, from, to))
}

#[test]
fn a_roll_on_a_mouse_is_kept_or_rerolled() {
    let p = board(&format!("{ALL_KINDS} Kf1 kj10 Ta5 pf7 me7 *e5"), 'w');
    let roll = p.play(Step::REQUEST);
    let outcomes = steps_of(&roll);
    assert!(outcomes.contains(&Step::at(StepKind::RollMouse, sq("e7"))));
    assert!(!outcomes.contains(&Step::at(StepKind::Teleport, sq("e7"))));
    let choice = roll.play(Step::at(StepKind::RollMouse, sq("e7")));
    assert!(!choice.is_chance() && !choice.at_turn_start());
    assert_eq!(steps_of(&choice), [Step::at(StepKind::Keep, sq("e7")), Step::at(StepKind::Reroll, sq("e7"))]);
    // Keep: the mouse leaves the game and the T lands there.
    let kept = choice.play(Step::at(StepKind::Keep, sq("e7")));
    assert_eq!(kept.piece_at(sq("e7")), Some(Piece::new(Role::TCat, Color::White)));
    assert_eq!(kept.piece_at(sq("a5")), None);
    assert_eq!(kept.key(), p.teleport(sq("e7")).unwrap().key());
    // Reroll: a roll over the squares without a mouse (no cycle).
    let again = choice.play(Step::at(StepKind::Reroll, sq("e7")));
    assert!(again.is_chance());
    let rerolls = steps_of(&again);
    assert_eq!(rerolls.len(), outcomes.len() - 1);
    assert!(rerolls.iter().all(|m| m.kind == StepKind::Teleport && m.to != sq("e7")));
    // In play the rules roll every square again, the mouse's too: the
    // arbiter goes back to the first roll, and only there.
    assert_eq!(again.arbiter_rewind(), 2);
    let mut h = History::new(p);
    for step in [Step::REQUEST, Step::at(StepKind::RollMouse, sq("e7")), Step::at(StepKind::Reroll, sq("e7"))] {
        assert_eq!(h.current().arbiter_rewind(), 0);
        h.push(step);
    }
    h.take_back(h.current().arbiter_rewind());
    assert_eq!(h.current().key(), roll.key());
    assert_eq!(steps_of(h.current()), outcomes);
    // Every state of step 1 has its own key.
    let keys = [p.key(), roll.key(), choice.key(), again.key(), kept.key()];
    for (i, a) in keys.iter().enumerate() {
        assert!(keys[i + 1..].iter().all(|b| b != a), "{keys:x?}");
    }
    let other = roll.play(Step::at(StepKind::RollMouse, sq("e7")));
    assert_eq!(other.key(), choice.key());
    // Only mice to land on: no reroll (it would never end).
    // (Our T's own square would count as empty: it stands on rank 9.)
    let mut only_mice = String::from("Kf1 kf10 Tj9");
    for s in Square::all().filter(|s| s.rank() < 8 && s.to_string() != "f1") {
        only_mice.push_str(&format!(" M{s}"));
    }
    let q = board(&only_mice, 'w');
    let decide = q.play(Step::REQUEST).play(Step::at(StepKind::RollMouse, sq("e5")));
    assert_eq!(steps_of(&decide), [Step::at(StepKind::Keep, sq("e5"))]);
    // Asked for anyway, the refusal says why (not that no roll was made).
    let why = illegal(&decide, "reroll");
    assert!(why.contains("no reroll here") && why.contains("keep"), "{why}");
    assert!(decide.parse_answer("reroll").is_err());
}

#[test]
fn step_one_tokens_and_their_errors() {
    let p = board(&format!("{ALL_KINDS} Kf1 kj10 Ta5 pf7 me7 *e5"), 'w');
    let e7 = sq("e7");
    let (req, mouse) = (Step::REQUEST, Step::at(StepKind::RollMouse, e7));
    let (keep, reroll) = (Step::at(StepKind::Keep, e7), Step::at(StepKind::Reroll, e7));
    // Written only where step 1 ended.
    assert_eq!(CatsChess10::turn_text(&[req]), "T@?");
    assert_eq!(CatsChess10::turn_text(&[req, mouse]), "T?e7");
    assert_eq!(CatsChess10::turn_text(&[req, mouse, reroll]), "reroll");
    assert_eq!(CatsChess10::turn_text(&[reroll]), "reroll");
    let rest = p.teleport(e7).unwrap().parse_turn("f1f2").unwrap();
    let mut kept = vec![req, mouse, keep];
    kept.extend(&rest);
    assert_eq!(CatsChess10::turn_text(&kept), "T@e7,f1f2");
    // The answer after T?e7: the rest of the turn, without the teleport.
    assert_eq!(CatsChess10::turn_text(&kept[2..]), "f1f2");
    let e6 = Step::at(StepKind::Teleport, sq("e6"));
    assert_eq!(CatsChess10::turn_text(&[req, mouse, reroll, e6]), "T@e6");
    // Read back: T@ on a mouse keeps it; T? stops at the decision.
    assert_eq!(p.parse_turn("T@e7,f1f2").unwrap(), kept);
    assert_eq!(p.parse_turn("T@e7").unwrap(), [req, mouse, keep]);
    assert_eq!(p.parse_turn("T?e7").unwrap(), [req, mouse]);
    // Errors name step 1.
    for (token, why) in [
        ("T@?", "the roll is the arbiter's"),
        ("reroll", "no roll on a mouse"),
        ("T?e6", "no mouse on e6"),
        ("T?e7,f1f2", "undecided"),
        ("T@e9", "never lands on e9"),
        ("T@e5", "never lands on e5"),
        ("f1f2,T@e6", "must open the turn"),
    ] {
        let e = illegal(&p, token);
        assert!(e.contains(why) && e.contains("step 1"), "{token}: {e}");
    }
    let deciding = p.play(req).play(mouse);
    assert!(illegal(&deciding, "reroll").contains("not a move"));
    assert!(illegal(&deciding, "f1f2").contains("undecided"));
    // An engine's answers (the arbiter reads them): `T@?` at the turn's
    // start; after T?e7 `reroll`, or the rest of the turn, e7 kept.
    assert_eq!(p.parse_answer("T@?").unwrap(), [req]);
    assert_eq!(p.parse_answer("f1f2").unwrap(), p.parse_turn("f1f2").unwrap());
    assert_eq!(deciding.parse_answer("reroll").unwrap(), [reroll]);
    assert_eq!(deciding.parse_answer("f1f2").unwrap(), kept[2..]);
    assert!(matches!(deciding.parse_answer("T@?"), Err(MoveError::Illegal { .. })));
    assert!(matches!(p.parse_answer("reroll"), Err(MoveError::Illegal { .. })));
    assert!(illegal(&p.play(req), "T@e6").contains("being rolled"));
    assert!(matches!(p.parse_turn("T?"), Err(MoveError::Unparsable(_))));
}
