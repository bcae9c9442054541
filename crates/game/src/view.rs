//! A game drawn for people (the web page of `catchess serve`), computed by
//! the game: the board's shape and look ([`Layout`], served once per
//! variant), and each position's squares ([`SquareView`]) and moves
//! ([`MoveView`]). The page holds no game's constants; each game implements
//! [`BoardView`] in its own folder (`crates/games/src/<game>/view.rs`) and is drawn.

use super::{Game, Notation};
use serde::Serialize;

/// How a board looks.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// Pieces stand on checkered squares (chess).
    Squares,
    /// Pieces stand on the points where lines cross (xiangqi).
    Points,
}

/// A drawing on the board besides its squares or points, in board
/// coordinates (file 0 is the left edge seen from the first seat, rank 0
/// the bottom).
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Mark {
    /// A river between `below` and `below + 1`: the lines of the files
    /// stop at its banks, except the outer two.
    River { below: u8, text: &'static str },
    /// A palace: the rectangle of points `file..file+files`,
    /// `rank..rank+ranks`, with its diagonals drawn.
    Palace { file: u8, rank: u8, files: u8, ranks: u8 },
}

/// The board's shape and look, and the names the page shows.
#[derive(Clone, Debug, Serialize)]
pub struct Layout {
    pub variant: &'static str,
    /// The game's name for people (the page's Game menu, its rules).
    pub title: &'static str,
    pub files: u8,
    pub ranks: u8,
    /// Labels of the files, left to right, and of the ranks, bottom up.
    pub file_names: Vec<String>,
    pub rank_names: Vec<String>,
    pub style: Style,
    pub marks: Vec<Mark>,
    /// The piece set the page draws: `chess` (its own figures by the FEN
    /// letter) or `discs` (a disc with `labels[letter]` on it).
    pub pieces: &'static str,
    /// For `discs`: the label of each FEN letter.
    pub labels: Vec<(char, &'static str)>,
    /// For `discs` whose labels are not Latin letters (xiangqi's
    /// characters): the letter the game's notation uses for each FEN
    /// letter (`N` → `H`), which the page shows in its letters mode, so
    /// that the board and the moves spell a piece alike. Empty elsewhere.
    pub letters: Vec<(char, char)>,
    /// Each kind of piece's name in the game's own words (`pawn`,
    /// `chariot`, `teleporting cat`), by its lower-case FEN letter (`*`: a
    /// Cat Chess cat or a 10×10 neutral): the rules code's names, which the
    /// page's square labels (for screen readers) and its turn in words say.
    pub names: Vec<(char, &'static str)>,
    /// The seats in turn order: name and FEN letter; a piece's seat is the
    /// one whose `owns` test says so on the page (`upper`, `lower`, `*`).
    pub seats: Vec<SeatView>,
    /// Whether the game has cats and no-capture zones (the legend and the
    /// outlook bar are shown).
    pub cats: bool,
    /// What the move list shows: `SAN`, `WXF` or `move text`.
    pub notation: &'static str,
    /// Letters a promotion may choose, in the order the chooser offers them.
    pub promotions: Vec<char>,
    pub start_fen: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    pub name: &'static str,
    pub fen: char,
    /// Which pieces are this seat's: `upper` (upper-case letters), `lower`,
    /// or `*` (the cats).
    pub owns: &'static str,
}

/// One square or point of a position.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct SquareView {
    /// The protocol's name (`e2`, `e10`); the page's `data-square`.
    pub square: String,
    pub file: u8,
    pub rank: u8,
    /// The FEN letter of the occupant, `*` for a cat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<char>,
    /// In a cat's no-capture zone (Cat Chess).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub zone: bool,
    /// A piece disarmed by a cat next to it (Cat Chess).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub disarmed: bool,
    /// A king or general in check: the seat to move's, and in Cat Chess
    /// also one a cat's step left in check until its own turn.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub check: bool,
}

impl SquareView {
    /// A square with its occupant and nothing marked on it; a game that
    /// marks zones, disarmed pieces or a check sets those fields after.
    pub fn new(square: impl std::fmt::Display, file: u8, rank: u8, piece: Option<char>) -> SquareView {
        SquareView { square: square.to_string(), file, rank, piece, zone: false, disarmed: false, check: false }
    }
}

/// A legal move as the page uses it: the text to send, and the squares.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct MoveView {
    /// The protocol text (`e7e8q`), what `POST .../moves` takes.
    #[serde(rename = "move")]
    pub text: String,
    pub from: String,
    pub to: String,
    /// The FEN letter (lower case) a promotion turns the pawn into.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promotion: Option<char>,
}

/// A game the page can draw.
pub trait BoardView: Game + Notation {
    fn layout() -> Layout;
    /// Every square of the board, in any order.
    fn squares(&self) -> Vec<SquareView>;
    fn move_view(m: Self::Move) -> MoveView;
}

/// Seat views in turn order, each owning the pieces named by `owns`.
pub fn seat_views<G: Game>(owns: &[&'static str]) -> Vec<SeatView> {
    G::SEATS.iter().zip(owns).map(|(s, &owns)| SeatView { name: s.name, fen: s.fen, owns }).collect()
}

/// Names `a`, `b`, ... for `n` files and `1`, `2`, ... for `n` ranks.
pub fn file_names(n: u8) -> Vec<String> {
    (0..n).map(|f| char::from(b'a' + f).to_string()).collect()
}

pub fn rank_names(n: u8) -> Vec<String> {
    (1..=n).map(|r| r.to_string()).collect()
}
