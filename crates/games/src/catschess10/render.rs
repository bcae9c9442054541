//! The `d` picture: the 10×10 board, then the pieces waiting underneath,
//! the side to move and the step the turn is at, the FEN and the key.

use super::position::{CatsChess10, Phase};
use super::square::{setup_piece, squares, Square, FILES, RANKS};
use catchess_core::Color;
use std::fmt::Write;

pub fn board(pos: &CatsChess10) -> String {
    let mut s = String::new();
    s.push_str("    +-------------------------------+\n");
    for rank in (0..RANKS).rev() {
        let _ = write!(s, " {:>2} |", rank + 1);
        for file in 0..FILES {
            let sq = Square::from_coords(file, rank);
            let c = pos.piece_at(sq).map_or('.', |p| p.char());
            // A piece with another waiting under it is bracketed.
            let waiting = pos.waiting().contains(sq);
            let (l, r) = if waiting { ('[', ']') } else { (' ', ' ') };
            let _ = write!(s, "{l}{c}{r}");
        }
        s.push_str(" |\n");
    }
    s.push_str("    +-------------------------------+\n");
    s.push_str("      a  b  c  d  e  f  g  h  i  j\n");
    let waiting: Vec<String> = squares(pos.waiting().0)
        .filter_map(|sq| setup_piece(sq).map(|p| format!("{}@{sq}", p.char())))
        .collect();
    let _ = writeln!(s, "Waiting: {}", if waiting.is_empty() { "none".to_string() } else { waiting.join(",") });
    let side = if pos.side_to_move() == Color::White { "white" } else { "black" };
    let _ = writeln!(s, "To move: {side}");
    if !pos.at_turn_start() {
        let step = match pos.state().phase {
            Phase::Start => "own move (step 3)",
            Phase::Dest => "destination of the picked piece",
            Phase::Place => "placing the captured neutral",
            Phase::SecondCat => "second cat move (step 3)",
            Phase::Mouse => "mouse (step 4)",
            Phase::Bonus => "bonus move (step 5)",
            Phase::Roll => "the teleport square is rolled (step 1; the client rolls)",
            Phase::MouseChoice => "the roll hit a mouse: keep its square or reroll (step 1)",
            Phase::Reroll => "the teleport square is rolled again (step 1; the client rolls)",
        };
        let _ = writeln!(s, "Mid-turn: {step}");
    }
    let _ = writeln!(s, "Fen: {}", pos.to_fen());
    let _ = writeln!(s, "Key: {:016x}", pos.key());
    s
}
