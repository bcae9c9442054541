//! Each game's [`WebGame`] hook: how the page draws it.

use super::board::{file_names, rank_names, seat_views, Layout, Mark, MoveView, SquareView, Style, WebGame};
use crate::core::{Color, Square};
use crate::game::Game;
use crate::games::chess::{Move, Position, Variant};
use crate::games::xiangqi::square::{FILES, RANKS};
use crate::games::xiangqi::{XMove, XSquare, Xiangqi};
use crate::games::Playable;

/// Chess and Cat Chess: checkered squares, the chess figures; in Cat
/// Chess the cats, their no-capture zones and the pieces they disarm.
impl<V: Variant> WebGame for Position<V>
where
    Position<V>: Playable + Game<Move = Move>,
{
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
            notation: if V::CATS { "move text" } else { "SAN" },
            promotions: vec!['q', 'r', 'b', 'n'],
            start_fen: Self::startpos().to_fen(),
        }
    }

    fn squares(&self) -> Vec<SquareView> {
        let zone = self.zone();
        let armies = self.by_color(Color::White) | self.by_color(Color::Black);
        let checked = self.turn().color().filter(|_| self.in_check()).map(|c| self.king(c));
        Square::all()
            .map(|sq| {
                let cat = self.cats().contains(sq);
                SquareView {
                    square: sq.to_string(),
                    file: sq.file(),
                    rank: sq.rank(),
                    piece: if cat { Some('*') } else { self.piece_at(sq).map(|p| p.char()) },
                    zone: zone.contains(sq),
                    disarmed: (zone & armies).contains(sq),
                    check: checked == Some(sq),
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

/// Xiangqi: pieces on the points, the river, the two palaces, discs with
/// the traditional characters.
impl WebGame for Xiangqi {
    fn layout() -> Layout {
        Layout {
            variant: Self::VARIANT,
            files: FILES,
            ranks: RANKS,
            file_names: file_names(FILES),
            rank_names: rank_names(RANKS),
            style: Style::Points,
            marks: vec![
                Mark::River { below: 4, text: "楚河      漢界" },
                Mark::Palace { file: 3, rank: 0, files: 3, ranks: 3 },
                Mark::Palace { file: 3, rank: 7, files: 3, ranks: 3 },
            ],
            pieces: "discs",
            labels: vec![
                ('K', "帥"),
                ('A', "仕"),
                ('B', "相"),
                ('N', "傌"),
                ('R', "俥"),
                ('C', "炮"),
                ('P', "兵"),
                ('k', "將"),
                ('a', "士"),
                ('b', "象"),
                ('n', "馬"),
                ('r', "車"),
                ('c', "砲"),
                ('p', "卒"),
            ],
            seats: seat_views::<Self>(&["upper", "lower"]),
            cats: false,
            notation: "WXF",
            promotions: vec![],
            start_fen: Self::startpos().to_fen(),
        }
    }

    fn squares(&self) -> Vec<SquareView> {
        let checked = self.in_check().then(|| self.general(self.side_to_move()));
        XSquare::all()
            .map(|sq| SquareView {
                square: sq.to_string(),
                file: sq.file(),
                rank: sq.rank(),
                piece: self.piece_at(sq).map(|p| p.char()),
                zone: false,
                disarmed: false,
                check: checked == Some(sq),
            })
            .collect()
    }

    fn move_view(m: XMove) -> MoveView {
        MoveView { text: m.to_string(), from: m.from().to_string(), to: m.to().to_string(), promotion: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::games::{CatChess, Chess};

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
    fn xiangqi_is_drawn_on_points_with_river_and_palaces() {
        let layout = Xiangqi::layout();
        assert_eq!((layout.files, layout.ranks), (9, 10));
        assert_eq!(layout.marks.len(), 3);
        let squares = Xiangqi::startpos().squares();
        assert_eq!(squares.len(), 90);
        assert!(squares.iter().any(|s| s.square == "e10" && s.piece == Some('k')));
        let m = Xiangqi::startpos().parse_move("h3e3").unwrap();
        assert_eq!((Xiangqi::move_view(m).from.as_str(), Xiangqi::move_view(m).to.as_str()), ("h3", "e3"));
    }
}
