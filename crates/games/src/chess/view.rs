//! How the web page draws chess and Cat Chess.

use super::{Move, Position, Role, Variant};
use catchess_core::{Color, Square};
use catchess_game::view::{file_names, rank_names, seat_views, BoardView, Layout, MoveView, SquareView, Style};
use catchess_game::Game;

/// Chess and Cat Chess: checkered squares, the chess figures; in Cat
/// Chess the cats, their no-capture zones and the pieces they disarm.
impl<V: Variant> BoardView for Position<V> {
    fn layout() -> Layout {
        Layout {
            variant: Self::VARIANT,
            title: V::TITLE,
            files: 8,
            ranks: 8,
            file_names: file_names(8),
            rank_names: rank_names(8),
            style: Style::Squares,
            marks: vec![],
            pieces: "chess",
            labels: vec![],
            letters: vec![],
            names: Role::ALL
                .iter()
                .map(|r| (r.char(), r.name()))
                .chain(V::CATS.then_some(('*', "cat")))
                .collect(),
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
    use crate::{CatChess, Chess};
    use catchess_game::Notation;

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

    #[test]
    fn every_piece_is_named_and_the_cat_only_in_cat_chess() {
        let named = |names: &[(char, &str)], c: char| names.iter().find(|(l, _)| *l == c).map(|(_, n)| n.to_string());
        let cat_chess = CatChess::layout().names;
        for s in CatChess::startpos().squares() {
            if let Some(p) = s.piece {
                assert!(named(&cat_chess, p.to_ascii_lowercase()).is_some(), "{p} has no name in {cat_chess:?}");
            }
        }
        assert_eq!(named(&cat_chess, '*').as_deref(), Some("cat"));
        assert_eq!(named(&cat_chess, 'n').as_deref(), Some("knight"));
        assert_eq!(named(&Chess::layout().names, '*'), None);
    }

    fn checked(fen: &str) -> Vec<String> {
        CatChess::from_fen(fen).unwrap().squares().into_iter().filter(|s| s.check).map(|s| s.square).collect()
    }

    /// RULES.md §8: after the cat's `b7c6` the rook a8 is armed again and
    /// black's king stands in check, white to move: the king is marked,
    /// though its side is not to move (#62). Before the step it is not.
    #[test]
    fn a_king_checked_by_a_cat_stepping_away_is_marked_whoever_is_to_move() {
        assert_eq!(checked("R5k1/1*3ppp/8/8/8/8/8/6K1 c - - 0 1"), Vec::<String>::new());
        let before = CatChess::from_fen("R5k1/1*3ppp/8/8/8/8/8/6K1 c - - 0 1").unwrap();
        let after = before.play(before.parse_move("b7c6").unwrap());
        assert_eq!(after.to_fen(), "R5k1/5ppp/2*5/8/8/8/8/6K1 w - - 0 2");
        assert_eq!(checked(&after.to_fen()), ["g8"]);
        // Black's check of the white king, the cats to move, is marked too.
        assert_eq!(checked("4k3/8/8/8/8/8/8/r3K3 c - - 0 1"), ["e1"]);
        // A king in a zone is never in check.
        assert_eq!(checked("4r1k1/8/8/8/8/3*4/4K3/8 w - - 0 1"), Vec::<String>::new());
    }
}
