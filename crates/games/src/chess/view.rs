//! How the web page draws chess and Cat Chess.

use super::{Move, Position, Variant};
use catchess_core::{Color, Square};
use catchess_game::view::{file_names, rank_names, seat_views, BoardView, Layout, MoveView, SquareView, Style};
use catchess_game::Game;

/// Chess and Cat Chess: checkered squares, the chess figures; in Cat
/// Chess the cats, their no-capture zones and the pieces they disarm.
impl<V: Variant> BoardView for Position<V> {
    fn layout() -> Layout {
        Layout {
            variant: Self::VARIANT,
            files: 8,
            ranks: 8,
            file_names: file_names(8),
            rank_names: rank_names(8),
            style: Style::Squares,
            marks: vec![],
            pieces: "chess",
            labels: vec![],
            seats: seat_views::<Self>(&["upper", "lower", "*"]),
            cats: V::CATS,
            notation: "SAN",
            promotions: vec!['q', 'r', 'b', 'n'],
            start_fen: Self::startpos().to_fen(),
        }
    }

    fn squares(&self) -> Vec<SquareView> {
        let zone = self.zone();
        let armies = self.by_color(Color::White) | self.by_color(Color::Black);
        // Every king in check, not only the mover's: in Cat Chess a cat's
        // step may leave a king in check until its own turn (RULES.md §8),
        // and the board says so meanwhile. In chess only the mover's can be.
        let checked: Vec<Square> =
            [Color::White, Color::Black].into_iter().filter(|&c| self.checkers_of(c).any()).map(|c| self.king(c)).collect();
        Square::all()
            .map(|sq| {
                let cat = self.cats().contains(sq);
                let piece = if cat { Some('*') } else { self.piece_at(sq).map(|p| p.char()) };
                SquareView {
                    zone: zone.contains(sq),
                    disarmed: (zone & armies).contains(sq),
                    check: checked.contains(&sq),
                    ..SquareView::new(sq, sq.file(), sq.rank(), piece)
                }
            })
            .collect()
    }

    fn move_view(m: Move) -> MoveView {
        MoveView {
            text: m.to_string(),
            from: m.from().to_string(),
            to: m.to().to_string(),
            promotion: m.promotion_role().map(|r| r.char().to_ascii_lowercase()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked_squares<V: Variant>(fen: &str) -> Vec<String> {
        let pos = Position::<V>::from_fen(fen).unwrap();
        pos.squares().into_iter().filter(|s| s.check).map(|s| s.square).collect()
    }

    /// RULES.md §8's example: the b7 cat steps away from the rook a8,
    /// which checks black's king; white is to move, and the board marks
    /// black's king all the same. A king beside a cat is never marked.
    #[test]
    fn a_king_a_cat_step_leaves_in_check_is_marked_whoever_is_to_move() {
        use crate::chess::CatChessRules;
        use catchess_game::Notation;
        let before = "R5k1/1*3ppp/8/8/8/8/8/6K1 c - - 0 1";
        assert!(checked_squares::<CatChessRules>(before).is_empty());
        let mut pos = Position::<CatChessRules>::from_fen(before).unwrap();
        pos = pos.play(pos.parse_move("b7c6").unwrap());
        assert_eq!(pos.to_move().index(), 0, "white to move");
        assert_eq!(checked_squares::<CatChessRules>(&pos.to_fen()), ["g8"]);
        assert!(checked_squares::<CatChessRules>("R5k1/5p*p/8/8/8/8/8/6K1 w - - 0 1").is_empty(), "beside a cat");
    }
    use crate::{CatChess, Chess};

    #[test]
    fn cat_chess_squares_show_cats_zones_and_disarmed_pieces() {
        let pos = CatChess::from_fen("4k3/8/8/8/8/2*5/3b4/4K3 w - - 0 1").unwrap();
        let squares = pos.squares();
        assert_eq!(squares.len(), 64);
        let at = |name: &str| squares.iter().find(|s| s.square == name).unwrap().clone();
        assert_eq!(at("c3").piece, Some('*'));
        assert!(at("d2").disarmed && at("d2").zone && at("d2").piece == Some('b'));
        assert!(at("b4").zone && !at("b4").disarmed);
        assert!(!at("e1").zone);
        assert_eq!(squares.iter().filter(|s| s.zone).count(), 9);
        assert!(CatChess::layout().cats && !Chess::layout().cats);
    }
}
