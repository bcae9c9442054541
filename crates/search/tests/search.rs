//! The search on real games: node limits, corrections, mate scores, turns of several decisions. Here, not beside the code: the
//! search names no game, and the games are a crate above it.

use catchess_game::History as GameHistory;
use catchess_game::Notation;
use catchess_games::{CatChess, Chess};
use catchess_search::*;

fn search_nodes<G: SearchGame + Notation>(fen: &str, depth: u32) -> SearchResult<G::Move> {
    let pos = G::from_fen(fen).unwrap();
    let limits = Limits { depth: Some(depth), ..Default::default() };
    Searcher::<G>::new(4).search(&GameHistory::new(pos), &limits, &SearchControl::new(), &mut |_| {})
}

#[test]
fn a_soft_node_limit_ends_the_search_with_the_iteration_that_passes_it() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let search = |limits: Limits| {
        let game = GameHistory::new(Chess::from_fen(fen).unwrap());
        Searcher::<Chess>::new(4).search(&game, &limits, &SearchControl::new(), &mut |_| {})
    };
    // The nodes of iterations 1 to 6, as a depth-limited search spends them.
    let (five, six) = (search(search_to(5)).nodes, search(search_to(6)).nodes);
    assert!(five < six);
    // A hard cap far above, so that a search ignoring the soft limit ends.
    let cap = Some(50 * six);
    for soft in [five - 1, five] {
        let r = search(Limits { soft_nodes: Some(soft), nodes: cap, ..Default::default() });
        assert_eq!((r.depth, r.nodes), (5, five), "soft limit {soft}");
    }
    let r = search(Limits { soft_nodes: Some(five + 1), nodes: cap, ..Default::default() });
    assert_eq!((r.depth, r.nodes), (6, six));
    // The hard limit still stops an iteration in the middle.
    let r = search(Limits { soft_nodes: Some(five + 1), nodes: Some(five + 1), ..Default::default() });
    assert_eq!(r.depth, 5);
    assert!(r.nodes < six, "{} nodes", r.nodes);
}

fn search_to(depth: u32) -> Limits {
    Limits { depth: Some(depth), ..Default::default() }
}

#[test]
fn the_search_learns_corrections_in_the_games_with_keys() {
    fn learnt<G: SearchGame + Notation>(fen: &str, depth: u32) -> bool {
        let mut searcher = Searcher::<G>::new(4);
        let limits = Limits { depth: Some(depth), ..Default::default() };
        let game = GameHistory::new(G::from_fen(fen).unwrap());
        searcher.search(&game, &limits, &SearchControl::new(), &mut |_| {});
        let learnt = searcher.learnt_corrections();
        searcher.clear();
        assert!(!searcher.learnt_corrections(), "a new game forgets");
        learnt
    }
    use catchess_games::{CatsChess10, Xiangqi};
    assert!(learnt::<Chess>("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", 8));
    assert!(learnt::<Xiangqi>("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", 7));
    assert!(!learnt::<CatsChess10>(catchess_games::catschess10::START_FEN, 3), "10x10 has no keys");
}

#[test]
fn quiescence_stays_bounded_when_cat_steps_unmask_checks() {
    // Here cat steps that uncover checks, answered by king moves, once
    // chained through quiescence for millions of nodes at depth 1.
    let r = search_nodes::<CatChess>("1r6/n1p*1k2/p2ppq1r/1bPP1P1n/3N1B1p/1pb2p1P/R2*PK2/1N1Q2RB c - - 4 47", 2);
    assert!(r.best.is_some());
    assert!(r.nodes < 200_000, "{} nodes", r.nodes);
}

#[test]
fn mate_scores_count_the_seat_s_own_turns() {
    // The seat to move is what counts: positions with each to move.
    let chess = |turn: char| Chess::from_fen(&format!("4k3/8/8/8/8/8/8/4K3 {turn} - - 0 1")).unwrap();
    let cat = |turn: char| CatChess::from_fen(&format!("4k3/8/8/8/8/8/8/*3K2* {turn} - - 0 1")).unwrap();
    // Chess: mate delivered 1 and 3 plies away is mate in 1 and 2.
    assert_eq!(uci_score(&chess('w'), &[], MATE - 1), Score::Mate(1));
    assert_eq!(uci_score(&chess('w'), &[], MATE - 3), Score::Mate(2));
    assert_eq!(uci_score(&chess('b'), &[], -(MATE - 2)), Score::Mate(-1));
    // Cat Chess: black's mate in 1 is 3 plies (black, cats, white mated).
    assert_eq!(uci_score(&cat('b'), &[], MATE - 3), Score::Mate(1));
    assert_eq!(uci_score(&cat('w'), &[], MATE - 4), Score::Mate(2));
    assert_eq!(uci_score(&cat('w'), &[], -(MATE - 3)), Score::Mate(-1));
    // The cats see any mate as theirs to lose, and any lean as bad.
    assert_eq!(uci_score(&cat('c'), &[], -(MATE - 2)), Score::Mate(-1));
    assert_eq!(uci_score(&cat('c'), &[], 120), Score::Cp(-120));
    assert_eq!(uci_score(&cat('c'), &[], -120), Score::Cp(-120));
}

#[test]
fn a_turn_that_may_stop_at_a_roll_is_two_decisions_on_the_clock() {
    use catchess_games::CatsChess10;
    let history = |fen: &str, turns: &[&str]| {
        let mut h = GameHistory::new(CatsChess10::from_fen(fen).unwrap());
        turns.iter().for_each(|t| h.push_protocol(t).unwrap());
        h
    };
    let start = CatsChess10::startpos().to_fen();
    // At a turn's start with a teleport on offer; after the roll (the
    // rest of the turn); after a roll on a mouse (keep or reroll).
    assert_eq!(turn_decisions(&history(&start, &[])), 2);
    assert_eq!(turn_decisions(&history(&start, &["T@e5"])), 2);
    let mouse = "rnbq1k4/c9/p9/10/10/10/10/P9/4RmR3/4RKR3 w - - 0 1 -";
    assert_eq!(turn_decisions(&history(mouse, &["T?f2"])), 2);
    // A game that never rolls.
    assert_eq!(turn_decisions(&GameHistory::new(Chess::startpos())), 1);
}

#[test]
fn own_turns_follow_the_line_where_it_is_known() {
    use catchess_game::Notation;
    let pos = CatChess::startpos();
    let line = [pos.parse_move("e2e4").unwrap()];
    // White moves at plies 0 and 3 of the first five, along the line
    // and past its end alike.
    assert_eq!(own_turns(&pos, &line, 5), 2);
    assert_eq!(own_turns(&pos, &[], 5), 2);
    assert_eq!(own_turns(&pos, &[], 1), 1);
    assert_eq!(own_turns(&pos, &[], 0), 0);
}
