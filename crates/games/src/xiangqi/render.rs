//! An ASCII picture of a xiangqi position: pieces on the points, the river
//! between ranks 5 and 6, the palaces bracketed, then the side to move, FEN
//! and key.

use super::position::Xiangqi;
use super::square::{color_name, masks, Square, FILES, RANKS};
use std::fmt::Write;

/// Each point is three characters: ` R ` for a piece, ` . ` empty, and
/// inside a palace `[R]` / `[.]`.
pub fn board(pos: &Xiangqi) -> String {
    let mut s = String::new();
    s.push_str("    +---------------------------+\n");
    for rank in (0..RANKS).rev() {
        let _ = write!(s, " {:>2} |", rank + 1);
        for file in 0..FILES {
            let sq = Square::from_coords(file, rank);
            let c = pos.piece_at(sq).map_or('.', |p| p.char());
            let palace = (masks::PALACE[0] | masks::PALACE[1]).contains(sq);
            let (l, r) = if palace { ('[', ']') } else { (' ', ' ') };
            let _ = write!(s, "{l}{c}{r}");
        }
        s.push_str("|\n");
        if rank == 5 {
            s.push_str("    |~~~~~~~~~~~ river ~~~~~~~~~~~|\n");
        }
    }
    s.push_str("    +---------------------------+\n");
    s.push_str("      a  b  c  d  e  f  g  h  i\n");
    let _ = writeln!(s, "To move: {}", color_name(pos.side_to_move()));
    if pos.in_check() {
        let _ = writeln!(s, "{} is in check", color_name(pos.side_to_move()));
    }
    let _ = writeln!(s, "Fen: {}", pos.to_fen());
    let _ = writeln!(s, "Key: {:016x}", pos.key());
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn the_start_position_with_river_and_palaces() {
        let text = board(&Xiangqi::startpos());
        let expected = "    +---------------------------+
 10 | r  n  b [a][k][a] b  n  r |
  9 | .  .  . [.][.][.] .  .  . |
  8 | .  c  . [.][.][.] .  c  . |
  7 | p  .  p  .  p  .  p  .  p |
  6 | .  .  .  .  .  .  .  .  . |
    |~~~~~~~~~~~ river ~~~~~~~~~~~|
  5 | .  .  .  .  .  .  .  .  . |
  4 | P  .  P  .  P  .  P  .  P |
  3 | .  C  . [.][.][.] .  C  . |
  2 | .  .  . [.][.][.] .  .  . |
  1 | R  N  B [A][K][A] B  N  R |
    +---------------------------+
      a  b  c  d  e  f  g  h  i
To move: red
Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1
";
        assert_eq!(text.split("Key:").next().unwrap(), expected);
        assert!(text.contains(&format!("Key: {:016x}\n", Xiangqi::startpos().key())));
    }

    #[test]
    fn check_is_shown() {
        let pos = Xiangqi::from_fen("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1").unwrap();
        assert!(board(&pos).contains("black is in check"));
        let pos = Xiangqi::from_fen("3k5/9/9/9/9/9/9/9/9/3rK4 w - - 0 1").unwrap();
        let text = board(&pos);
        assert!(text.contains("To move: red\nred is in check\n"), "{text}");
        assert!(!text.to_lowercase().contains("white"), "{text}");
    }
}
