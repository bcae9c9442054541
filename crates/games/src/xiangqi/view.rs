//! How the web page draws xiangqi.

use super::square::{FILES, RANKS};
use super::{Move, Role, Square, Xiangqi};
use catchess_game::view::{file_names, rank_names, seat_views, BoardView, Layout, Mark, MoveView, SquareView, Style};
use catchess_game::Game;

/// Xiangqi: pieces on the points, the river, the two palaces, discs with
/// the traditional characters.
impl BoardView for Xiangqi {
    fn layout() -> Layout {
        Layout {
            variant: Self::VARIANT,
            title: "Xiangqi",
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
            letters: Role::ALL
                .iter()
                .flat_map(|r| [(r.char().to_ascii_uppercase(), r.wxf_char()), (r.char(), r.wxf_char())])
                .collect(),
            names: Role::ALL.iter().map(|r| (r.char(), r.name())).collect(),
            seats: seat_views::<Self>(&["upper", "lower"]),
            cats: false,
            notation: "WXF",
            promotions: vec![],
            start_fen: Self::startpos().to_fen(),
        }
    }

    fn squares(&self) -> Vec<SquareView> {
        let checked = self.in_check().then(|| self.general(self.side_to_move()));
        Square::all()
            .map(|sq| SquareView {
                check: checked == Some(sq),
                ..SquareView::new(sq, sq.file(), sq.rank(), self.piece_at(sq).map(|p| p.char()))
            })
            .collect()
    }

    fn move_view(m: Move) -> MoveView {
        MoveView { text: m.to_string(), from: m.from().to_string(), to: m.to().to_string(), promotion: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_game::Notation;

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

    #[test]
    fn every_piece_is_named_in_xiangqis_words() {
        let names = Xiangqi::layout().names;
        let name = |c: char| names.iter().find(|(l, _)| *l == c).map(|(_, n)| *n);
        for s in Xiangqi::startpos().squares() {
            if let Some(p) = s.piece {
                assert!(name(p.to_ascii_lowercase()).is_some(), "{p} has no name in {names:?}");
            }
        }
        assert_eq!((name('k'), name('r'), name('b'), name('c')), (Some("general"), Some("chariot"), Some("elephant"), Some("cannon")));
    }
}
