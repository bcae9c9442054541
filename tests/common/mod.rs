//! Helpers shared by the integration tests, included one way by each:
//! `mod common;` (then `use common::{engine, temp};` or `common::cat(..)`).
#![allow(dead_code)]

pub mod bench;
pub mod cat_claim;
pub mod catschess10;
pub mod engine;
pub mod fuzz;
pub mod games;
pub mod http;
pub mod run;
pub mod serve_process;
pub mod skipping;
pub mod solver;
pub mod table;
pub mod tables;
pub mod temp;

use catchess::{Arbitration, CatChess, Chess, Game, History, MoveList, Notation, Seat};

/// The winners of the chess family's games (xiangqi's red is `WHITE`), and
/// a draw that rewards nobody.
pub const WHITE: Option<Seat> = Some(Seat::new(0));
pub const BLACK: Option<Seat> = Some(Seat::new(1));
pub const CATS: Option<Seat> = Some(Seat::new(2));
pub const DRAW: Option<Seat> = None;

pub fn cat(fen: &str) -> CatChess {
    CatChess::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

pub fn chess(fen: &str) -> Chess {
    Chess::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal moves in UCI notation, sorted.
pub fn moves<G: Game>(pos: &G) -> Vec<String> {
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    let mut v: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

pub fn has<G: Game>(pos: &G, m: &str) -> bool {
    moves(pos).iter().any(|x| x == m)
}

/// Plays space-separated UCI moves, panicking on an illegal one.
pub fn play<G: Notation>(pos: &G, line: &str) -> G {
    line.split_whitespace().fold(*pos, |p, m| {
        let mv = p.parse_move(m).unwrap_or_else(|e| panic!("{m} in {}: {e}", p.to_fen()));
        p.play(mv)
    })
}

pub fn history<G: Notation + Arbitration>(start: G, line: &str) -> History<G> {
    let mut h = History::new(start);
    for m in line.split_whitespace() {
        h.push_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    h
}

pub fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}
