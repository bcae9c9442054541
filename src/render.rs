//! ASCII pictures of a position for humans: pieces, cats, the no-kill zone
//! and whose turn it is.

use crate::core::{Color, Square};
use crate::position::{Position, Variant};
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
    let _ = writeln!(s, "To move: {}", pos.turn());
    if V::CATS {
        let squares = |b: crate::core::Bitboard| {
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
        let _ = writeln!(s, "{} is in check", pos.turn());
    }
    let _ = writeln!(s, "Fen: {}", pos.to_fen());
    let _ = writeln!(s, "Key: {:016x}", pos.key());
    s
}
