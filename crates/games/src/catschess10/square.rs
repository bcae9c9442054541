//! The 10×10 board's vocabulary: squares a1..j10, piece kinds, the setup
//! (which replenishment and waiting pieces refer back to) and the dice
//! roll's numbering of squares (rules §3 step 1).

use catchess_core::{Bitboard128, Color, WideSquare};
use std::fmt;

pub const FILES: u8 = 10;
pub const RANKS: u8 = 10;
pub const SQUARES: usize = 100;
/// Every square of the board as a set.
pub const BOARD: u128 = (1u128 << SQUARES) - 1;

/// One of the 100 squares, index `rank * 10 + file`, a1 = 0, j10 = 99.
/// Always on the board: every constructor checks or reads an on-board set.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug)]
pub struct Square(u8);

impl Square {
    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square of an index the caller knows is below 100 (a set bit).
    #[inline(always)]
    pub const fn from_index(index: u32) -> Square {
        debug_assert!(index < SQUARES as u32);
        Square(index as u8)
    }

    #[inline(always)]
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        debug_assert!(file < FILES && rank < RANKS);
        Square(rank * FILES + file)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// Rank, 1 (0) to 10 (9).
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    #[inline(always)]
    pub const fn bit(self) -> u128 {
        1u128 << self.0
    }

    /// The square `df` files and `dr` ranks away, if on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f >= 0 && f < FILES as i8 && r >= 0 && r < RANKS as i8 {
            Some(Square::from_coords(f as u8, r as u8))
        } else {
            None
        }
    }

    /// Parses `a1`..`j10`.
    pub fn parse(s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let f = chars.next()?;
        if !('a'..='j').contains(&f) {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0')
        {
            return None;
        }
        let r: u8 = digits.parse().ok()?;
        (1..=RANKS).contains(&r).then(|| Square::from_coords(f as u8 - b'a', r - 1))
    }

    /// All squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl WideSquare for Square {
    fn from_bit(bit: u32) -> Square {
        Square::from_index(bit)
    }
    fn bit(self) -> u32 {
        self.0 as u32
    }
}

/// The squares of a set, lowest first.
#[inline(always)]
pub fn squares(set: u128) -> impl Iterator<Item = Square> {
    Bitboard128(set).iter::<Square>()
}

/// The square the dice number `n` (1–100) names (rules §3 step 1: 1 = a1,
/// 10 = j1, 11 = a2, …, 100 = j10); `None` outside 1–100.
pub fn roll_square(n: u32) -> Option<Square> {
    (1..=SQUARES as u32).contains(&n).then(|| Square::from_index(n - 1))
}

/// A rank as a set (`rank` 0 = rank 1).
pub const fn rank_set(rank: u8) -> u128 {
    0x3ffu128 << (rank as u32 * FILES as u32)
}

/// A colour's first rank (rank 1 for White, 10 for Black) as a set.
pub const fn first_rank(c: Color) -> u128 {
    match c {
        Color::White => rank_set(0),
        Color::Black => rank_set(RANKS - 1),
    }
}

/// A colour's second rank (2 / 9).
pub const fn second_rank(c: Color) -> u128 {
    match c {
        Color::White => rank_set(1),
        Color::Black => rank_set(RANKS - 2),
    }
}

/// The direction a colour's pawns move: one rank up (+10) or down.
#[inline(always)]
pub const fn forward(c: Color) -> i8 {
    match c {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// A piece kind. `Neutral` (`*`) belongs to nobody.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Role {
    Pawn = 0,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
    Cat,
    TCat,
    Mouse,
    Neutral,
}

impl Role {
    pub const ALL: [Role; 10] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::Cat,
        Role::TCat,
        Role::Mouse,
        Role::Neutral,
    ];
    /// The kinds replenishment brings back (rules §4): never K, M, T, `*`.
    pub const REPLENISHED: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::Cat];
    /// What a pawn may promote to, in the order moves are generated.
    pub const PROMOTIONS: [Role; 7] =
        [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Cat, Role::TCat, Role::Mouse];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Option<Role> {
        if i < 10 {
            Some(Role::ALL[i])
        } else {
            None
        }
    }

    /// The lower-case letter (`*` for the neutral).
    pub const fn letter(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
            Role::Cat => 'c',
            Role::TCat => 't',
            Role::Mouse => 'm',
            Role::Neutral => '*',
        }
    }

    pub fn from_letter(c: char) -> Option<Role> {
        Role::ALL.into_iter().find(|k| k.letter() == c.to_ascii_lowercase())
    }

    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
            Role::Cat => "cat",
            Role::TCat => "teleporting cat",
            Role::Mouse => "mouse",
            Role::Neutral => "neutral",
        }
    }

    /// A cat in every respect but the teleport (`C` or `T`).
    #[inline(always)]
    pub const fn is_cat(self) -> bool {
        matches!(self, Role::Cat | Role::TCat)
    }
}

/// A piece on the board: a kind and, unless neutral, a colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Piece {
    pub kind: Role,
    /// Meaningless for the neutral (always White there).
    pub color: Color,
}

impl Piece {
    pub const NEUTRAL: Piece = Piece { kind: Role::Neutral, color: Color::White };

    pub const fn new(kind: Role, color: Color) -> Piece {
        Piece { kind, color }
    }

    /// FEN letter: upper case White, lower case Black, `*` neutral.
    pub fn char(self) -> char {
        match (self.kind, self.color) {
            (Role::Neutral, _) => '*',
            (k, Color::White) => k.letter().to_ascii_uppercase(),
            (k, Color::Black) => k.letter(),
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        let kind = Role::from_letter(c)?;
        if kind == Role::Neutral {
            return Some(Piece::NEUTRAL);
        }
        if !c.is_ascii_alphabetic() {
            return None;
        }
        Some(Piece::new(kind, if c.is_ascii_uppercase() { Color::White } else { Color::Black }))
    }
}

/// The setup's back rank, files a to j.
const BACK: [Role; 10] = [
    Role::Rook,
    Role::Knight,
    Role::Bishop,
    Role::Cat,
    Role::Queen,
    Role::King,
    Role::Cat,
    Role::Bishop,
    Role::Knight,
    Role::Rook,
];

/// The piece the setup puts on `sq`, among the kinds replenishment brings
/// back (kings and the neutrals are left out: they never return, so no
/// king or neutral ever waits underneath).
pub const fn setup_piece(sq: Square) -> Option<Piece> {
    let (file, rank) = (sq.file() as usize, sq.rank());
    let piece = match rank {
        0 => Piece::new(BACK[file], Color::White),
        2 => Piece::new(Role::Pawn, Color::White),
        7 => Piece::new(Role::Pawn, Color::Black),
        9 => Piece::new(BACK[file], Color::Black),
        _ => return None,
    };
    if matches!(piece.kind, Role::King) {
        None
    } else {
        Some(piece)
    }
}

/// The setup squares of a replenished kind (both colours).
pub fn setup_squares(kind: Role) -> u128 {
    Square::all().filter(|&s| setup_piece(s).is_some_and(|p| p.kind == kind)).fold(0, |acc, s| acc | s.bit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_numbers_map_row_by_row_from_a1() {
        assert_eq!(roll_square(1).unwrap().to_string(), "a1");
        assert_eq!(roll_square(10).unwrap().to_string(), "j1");
        assert_eq!(roll_square(11).unwrap().to_string(), "a2");
        assert_eq!(roll_square(55).unwrap().to_string(), "e6");
        assert_eq!(roll_square(100).unwrap().to_string(), "j10");
        assert_eq!(roll_square(0), None);
        assert_eq!(roll_square(101), None);
    }

    #[test]
    fn squares_parse_and_print() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        for bad in ["", "a", "a0", "a11", "k1", "a01", "j100", "A1"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn setup_squares_of_each_replenished_kind() {
        assert_eq!(setup_squares(Role::Pawn).count_ones(), 20);
        assert_eq!(setup_squares(Role::Cat).count_ones(), 4);
        assert_eq!(setup_squares(Role::Queen).count_ones(), 2);
        assert_eq!(setup_squares(Role::King), 0);
    }
}
