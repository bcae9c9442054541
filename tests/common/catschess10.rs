//! Helpers of the Cat's Chess (10×10) tests (`catschess10_*.rs`): positions
//! written as piece lists, and the turns legal in them by their tokens.

use catchess::game::perft::divide;
use catchess::games::catschess10::{CatsChess10, Square, Step};
use catchess::{MoveError, MoveList};

pub fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

/// A position from a list like `"Kf1 kf10 Nd4 me6 *e5"`, White to move
/// unless `side` is `b`, no castling, nothing waiting.
pub fn board(pieces: &str, side: char) -> CatsChess10 {
    let mut grid = [['.'; 10]; 10];
    for item in pieces.split_whitespace() {
        let (c, s) = item.split_at(1);
        let s = sq(s);
        grid[s.rank() as usize][s.file() as usize] = c.chars().next().unwrap();
    }
    let ranks: Vec<String> = (0..10)
        .rev()
        .map(|r| {
            let mut out = String::new();
            let mut empty = 0;
            for c in grid[r] {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                    }
                    empty = 0;
                    out.push(c);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    CatsChess10::from_fen(&format!("{} {side} - - 0 1 -", ranks.join("/"))).unwrap()
}

pub fn fen(f: &str) -> CatsChess10 {
    CatsChess10::from_fen(f).unwrap()
}

/// Every complete turn's token from `pos`.
pub fn tokens(pos: &CatsChess10) -> Vec<String> {
    divide(pos, 1).iter().map(|(steps, _)| CatsChess10::turn_text(steps)).collect()
}

pub fn has(pos: &CatsChess10, token: &str) -> bool {
    tokens(pos).iter().any(|t| t == token)
}

/// The position after the turn `token`.
pub fn after(pos: &CatsChess10, token: &str) -> CatsChess10 {
    let steps = pos.parse_turn(token).unwrap_or_else(|e| panic!("{token}: {e}"));
    steps.iter().fold(*pos, |p, &s| p.play(s))
}

pub fn illegal(pos: &CatsChess10, token: &str) -> String {
    match pos.parse_turn(token) {
        Err(e @ MoveError::Illegal { .. }) => e.to_string(),
        other => panic!("{token}: expected an illegal turn, got {other:?}"),
    }
}

// Positions with every replenished kind present for both sides, so that
// nothing returns in the middle of a test.
pub const ALL_KINDS: &str = "ra10 nb10 bc10 qe10 cg10 pa8 Ra1 Nb1 Bc1 Qe1 Cg1 Pa3";

pub fn steps_of(pos: &CatsChess10) -> Vec<Step> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter().copied().collect()
}
