//! How the web page draws zzo38's Cat's Chess: a 10×10 board of squares,
//! each piece a figure of its own by its FEN letter (the chess pieces, and
//! the page's cat `C`, teleporting cat `T`, mouse `M` and neutral `*`;
//! the labels name them for a page without figures). A move of the page
//! is one step of a turn.

use super::square::{Square, FILES, RANKS};
use super::{CatsChess10, Role, Step};
use catchess_game::view::{file_names, rank_names, seat_views, BoardView, Layout, MoveView, SquareView, Style};
use catchess_game::Game;

impl BoardView for CatsChess10 {
    fn layout() -> Layout {
        Layout {
            variant: Self::VARIANT,
            title: "Cat's Chess 10×10 (zzo38)",
            files: FILES,
            ranks: RANKS,
            file_names: file_names(FILES),
            rank_names: rank_names(RANKS),
            style: Style::Squares,
            marks: vec![],
            pieces: "chess",
            labels: "KQRBNPCTMkqrbnpctm*".chars().map(|c| (c, letter(c))).collect(),
            letters: vec![],
            names: Role::ALL.iter().map(|r| (r.letter(), r.name())).collect(),
            seats: seat_views::<Self>(&["upper", "lower"]),
            cats: false,
            notation: "move text",
            promotions: vec!['q', 'r', 'b', 'n', 'c', 't', 'm'],
            start_fen: Self::startpos().to_fen(),
        }
    }

    fn squares(&self) -> Vec<SquareView> {
        Square::all()
            .map(|sq| SquareView::new(sq, sq.file(), sq.rank(), self.piece_at(sq).map(|p| p.char())))
            .collect()
    }

    fn move_view(m: Step) -> MoveView {
        MoveView {
            text: m.to_string(),
            from: m.from.to_string(),
            to: m.to.to_string(),
            promotion: m.promo.map(|k| k.letter()),
        }
    }
}

/// The label on a disc: the piece's letter, upper case for both colours
/// (the disc's colour tells them apart).
fn letter(c: char) -> &'static str {
    const LABELS: [&str; 10] = ["K", "Q", "R", "B", "N", "P", "C", "T", "M", "*"];
    let upper = c.to_ascii_uppercase();
    LABELS.iter().find(|l| l.starts_with(upper)).copied().unwrap_or("?")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_is_ten_by_ten_with_every_piece_labelled() {
        let layout = CatsChess10::layout();
        assert_eq!((layout.files, layout.ranks), (10, 10));
        assert!(layout.labels.iter().all(|(_, l)| *l != "?"));
        let squares = CatsChess10::startpos().squares();
        assert_eq!(squares.len(), 100);
        let at = |name: &str| squares.iter().find(|s| s.square == name).unwrap().piece;
        assert_eq!((at("f1"), at("a2"), at("d10"), at("e5")), (Some('K'), Some('*'), Some('c'), None));
    }

    #[test]
    fn every_piece_is_named_in_the_games_words() {
        let names = CatsChess10::layout().names;
        let name = |c: char| names.iter().find(|(l, _)| *l == c).map(|(_, n)| *n);
        assert!(CatsChess10::layout().labels.iter().all(|(c, _)| name(c.to_ascii_lowercase()).is_some()), "{names:?}");
        assert_eq!((name('t'), name('m'), name('*')), (Some("teleporting cat"), Some("mouse"), Some("neutral")));
    }
}
