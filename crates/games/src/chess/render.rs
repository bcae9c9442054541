//! ASCII pictures of a position for humans: pieces, cats, the no-kill zone
//! and whose turn it is.

use catchess_core::{Color, Square};
use crate::chess::position::{Position, Variant};
use std::fmt::Write;

/// Each square is three characters: ` P ` for a piece, `(P)` for a piece
/// disarmed in the zone, ` * ` for a cat, ` . ` empty, `(.)` empty in the zone.
pub fn board<V: Variant>(pos: &Position<V>) -> String {
    let zone = pos.zone();
    let mut s = String::new();
    s.push_str("   +------------------------+\n");
    for rank in (0..8).rev() {
        let _ = write!(s, " {} |", rank + 1);
        for file in 0..8 {
            let sq = Square::from_coords(file, rank);
            let c = if pos.cats().contains(sq) { '*' } else { pos.piece_at(sq).map_or('.', |p| p.char()) };
            let (l, r) = if zone.contains(sq) && c != '*' { ('(', ')') } else { (' ', ' ') };
            let _ = write!(s, "{l}{c}{r}");
        }
        s.push_str("|\n");
    }
    s.push_str("   +------------------------+\n");
    s.push_str("     a  b  c  d  e  f  g  h\n");
    let _ = writeln!(s, "To move: {}", pos.side_to_move());
    if V::CATS {
        let squares = |b: catchess_core::Bitboard| {
            let v: Vec<String> = b.iter().map(|q| q.to_string()).collect();
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(" ")
            }
        };
        let disarmed = (pos.by_color(Color::White) | pos.by_color(Color::Black)) & zone;
        let _ = writeln!(s, "Cats: {}", squares(pos.cats()));
        let _ = writeln!(s, "No-kill zone: {}", squares(zone));
        let _ = writeln!(s, "Disarmed: {}", squares(disarmed));
    }
    if pos.in_check() {
        let _ = writeln!(s, "{} is in check", pos.side_to_move());
    }
    let _ = writeln!(s, "Fen: {}", pos.to_fen());
    let _ = writeln!(s, "Key: {:016x}", pos.key());
    s
}

#[cfg(test)]
mod tests {
    use crate::{CatChess, Chess};
    use pretty_assertions::assert_eq;

    #[test]
    fn the_board_shows_cats_the_zone_and_disarmed_pieces() {
        let pos = CatChess::from_fen("4k3/8/8/8/8/2*5/3b4/4K3 w - - 0 1").unwrap();
        let text = super::board(&pos);
        let expected = "   +------------------------+
 8 | .  .  .  .  k  .  .  . |
 7 | .  .  .  .  .  .  .  . |
 6 | .  .  .  .  .  .  .  . |
 5 | .  .  .  .  .  .  .  . |
 4 | . (.)(.)(.) .  .  .  . |
 3 | . (.) * (.) .  .  .  . |
 2 | . (.)(.)(b) .  .  .  . |
 1 | .  .  .  .  K  .  .  . |
   +------------------------+
     a  b  c  d  e  f  g  h
To move: white
Cats: c3
No-kill zone: b2 c2 d2 b3 c3 d3 b4 c4 d4
Disarmed: d2
";
        assert_eq!(text.split("Fen:").next().unwrap(), expected);
        assert!(text.contains("Fen: 4k3/8/8/8/8/2*5/3b4/4K3 w - - 0 1\n"));
    }

    #[test]
    fn chess_boards_have_no_cat_lines_and_show_check() {
        let pos = Chess::from_fen("4k3/8/8/8/8/8/8/R3K2r w - - 0 1").unwrap();
        let text = super::board(&pos);
        assert!(!text.contains("Cats:"));
        assert!(text.contains("white is in check"));
    }
}
