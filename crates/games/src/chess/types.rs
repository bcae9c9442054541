//! Who moves and what stands on a square in the chess family.

use catchess_core::Color;
use std::fmt;

/// A faction that takes turns. Cat Chess cycles White → Black → Cats; standard
/// chess only uses the first two. The game's seats (`Game::SEATS`) are
/// these, in this order.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Side {
    White = 0,
    Black = 1,
    Cats = 2,
}

impl Side {
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The army colour of a white/black side; `None` for the cats.
    pub const fn color(self) -> Option<Color> {
        match self {
            Side::White => Some(Color::White),
            Side::Black => Some(Color::Black),
            Side::Cats => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
            Side::Cats => "cats",
        }
    }

    /// The FEN letter: `w`, `b` or `c`.
    pub const fn fen_char(self) -> char {
        match self {
            Side::White => 'w',
            Side::Black => 'b',
            Side::Cats => 'c',
        }
    }
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kind of a white or black piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Role {
    pub const ALL: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];
    /// Promotion choices, strongest first (the order move lists use).
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case letter (`p n b r q k`).
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The piece's name in English (`knight`), for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }

    pub const fn from_char(c: char) -> Option<Role> {
        Some(match c {
            'p' => Role::Pawn,
            'n' => Role::Knight,
            'b' => Role::Bishop,
            'r' => Role::Rook,
            'q' => Role::Queen,
            'k' => Role::King,
            _ => return None,
        })
    }
}

/// A white or black piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    /// FEN letter: upper case for white.
    pub fn char(self) -> char {
        let c = self.role.char();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c.to_ascii_lowercase())?;
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        Some(Piece { color, role })
    }
}
