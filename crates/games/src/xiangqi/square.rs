//! The xiangqi board's vocabulary: points (squares) a1..i10, sets of them,
//! piece kinds, and the regions (palaces, halves) the rules confine pieces to.

use catchess_core::{Bitboard128, Color, WideSquare};
use std::fmt;

pub const FILES: u8 = 9;
pub const RANKS: u8 = 10;
pub const SQUARES: usize = 90;

/// One of the 90 points, index `rank * 9 + file`, a1 = 0, i10 = 89. Always
/// in range: every constructor checks or is fed bits of an on-board set.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Square(u8);

impl Square {
    /// All points, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }

    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    #[inline(always)]
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        debug_assert!(file < FILES && rank < RANKS);
        Square(rank * FILES + file)
    }

    /// The point with this index, which the caller guarantees is below 90.
    #[inline(always)]
    pub const fn from_index_unchecked(index: u32) -> Square {
        debug_assert!(index < SQUARES as u32);
        Square(index as u8)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File, a (0) to i (8).
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// Rank, 1 (0) to 10 (9).
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The point `df` files and `dr` ranks away, if on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f >= 0 && f < FILES as i8 && r >= 0 && r < RANKS as i8 {
            Some(Square::from_coords(f as u8, r as u8))
        } else {
            None
        }
    }

    /// Rank counted from `color`'s own side: 0 on its back rank.
    #[inline(always)]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::White => self.rank(),
            Color::Black => RANKS - 1 - self.rank(),
        }
    }

    /// This point's bit in the file-major (transposed) occupancy, where a
    /// file's ten points are ten consecutive bits: `file * 10 + rank`.
    #[inline(always)]
    pub const fn transposed(self) -> u32 {
        self.file() as u32 * RANKS as u32 + self.rank() as u32
    }

    /// Parses `e1`..`i10` (files a–i, ranks 1–10).
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if !(2..=3).contains(&b.len()) {
            return None;
        }
        let f = b[0].wrapping_sub(b'a');
        let digits = &b[1..];
        if f >= FILES || !digits.iter().all(u8::is_ascii_digit) || digits[0] == b'0' {
            return None;
        }
        let r = digits.iter().fold(0u8, |r, d| r * 10 + (d - b'0'));
        (1..=RANKS).contains(&r).then(|| Square::from_coords(f, r - 1))
    }
}

impl WideSquare for Square {
    #[inline(always)]
    fn from_bit(bit: u32) -> Square {
        Square::from_index_unchecked(bit)
    }
    #[inline(always)]
    fn bit(self) -> u32 {
        self.0 as u32
    }
}

impl fmt::Display for Square {
    /// `a1` .. `i10`, as Fairy-Stockfish writes them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A set of xiangqi points.
pub type Bitboard = Bitboard128;

/// Sets of points defined by the board's geometry.
pub mod masks {
    use super::*;

    const fn rank_bits(rank: u8) -> u128 {
        0x1FF << (rank as u32 * 9)
    }

    const fn file_bits(file: u8) -> u128 {
        let mut b = 0u128;
        let mut r = 0;
        while r < RANKS {
            b |= 1 << (r as u32 * 9 + file as u32);
            r += 1;
        }
        b
    }

    /// Every point.
    pub const ALL: Bitboard = Bitboard128((1 << 90) - 1);
    pub const FILE_A: Bitboard = Bitboard128(file_bits(0));
    pub const FILE_I: Bitboard = Bitboard128(file_bits(8));

    /// Every file's points, built at compile time (a lookup, not a loop,
    /// when the file is only known at run time).
    const FILE_SETS: [Bitboard; FILES as usize] = {
        let mut sets = [Bitboard128(0); FILES as usize];
        let mut f = 0;
        while f < FILES {
            sets[f as usize] = Bitboard128(file_bits(f));
            f += 1;
        }
        sets
    };

    #[inline(always)]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard128(rank_bits(rank))
    }

    /// The points of `file` (0–8).
    #[inline(always)]
    pub const fn file(file: u8) -> Bitboard {
        FILE_SETS[file as usize]
    }

    /// Red's half (ranks 1–5) and black's (ranks 6–10): the river runs
    /// between ranks 5 and 6.
    pub const HALF: [Bitboard; 2] = [Bitboard128((1 << 45) - 1), Bitboard128(((1 << 90) - 1) ^ ((1 << 45) - 1))];

    const fn palace_bits(bottom: u8) -> u128 {
        let row = 0b111 << 3;
        row << (bottom as u32 * 9) | row << ((bottom + 1) as u32 * 9) | row << ((bottom + 2) as u32 * 9)
    }

    /// The palaces: files d–f, ranks 1–3 (red) and 8–10 (black).
    pub const PALACE: [Bitboard; 2] = [Bitboard128(palace_bits(0)), Bitboard128(palace_bits(7))];

    const fn points(list: &[(u8, u8)], color: usize) -> u128 {
        let mut b = 0u128;
        let mut i = 0;
        while i < list.len() {
            let (f, r) = list[i];
            let r = if color == 0 { r } else { RANKS - 1 - r };
            b |= 1 << (r as u32 * 9 + f as u32);
            i += 1;
        }
        b
    }

    const ADVISOR_POINTS: [(u8, u8); 5] = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)];
    const ELEPHANT_POINTS: [(u8, u8); 7] = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)];

    /// The five points an advisor can ever stand on (its palace's corners
    /// and centre).
    pub const ADVISOR: [Bitboard; 2] =
        [Bitboard128(points(&ADVISOR_POINTS, 0)), Bitboard128(points(&ADVISOR_POINTS, 1))];
    /// The seven points an elephant can ever stand on (on its own side).
    pub const ELEPHANT: [Bitboard; 2] =
        [Bitboard128(points(&ELEPHANT_POINTS, 0)), Bitboard128(points(&ELEPHANT_POINTS, 1))];

    /// The points a soldier can ever stand on: on its own side, only the
    /// five start files of its start rank and the rank ahead (it moves
    /// straight forward until it crosses the river); across it, anywhere.
    pub const SOLDIER: [Bitboard; 2] = {
        let start_files = 0b1_0101_0101u128;
        let own =
            [(start_files << (3 * 9)) | (start_files << (4 * 9)), (start_files << (6 * 9)) | (start_files << (5 * 9))];
        [Bitboard128(own[0] | HALF[1].0), Bitboard128(own[1] | HALF[0].0)]
    };
}

/// A piece kind. Letters are Fairy-Stockfish's FEN letters.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Role {
    General = 0,
    Advisor = 1,
    Elephant = 2,
    Horse = 3,
    Chariot = 4,
    Cannon = 5,
    Soldier = 6,
}

impl Role {
    pub const ALL: [Role; 7] =
        [Role::General, Role::Advisor, Role::Elephant, Role::Horse, Role::Chariot, Role::Cannon, Role::Soldier];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case FEN letter: `k a b n r c p`.
    pub const fn char(self) -> char {
        match self {
            Role::General => 'k',
            Role::Advisor => 'a',
            Role::Elephant => 'b',
            Role::Horse => 'n',
            Role::Chariot => 'r',
            Role::Cannon => 'c',
            Role::Soldier => 'p',
        }
    }

    /// The WXF letter: `K A E H R C P`.
    pub const fn wxf_char(self) -> char {
        match self {
            Role::General => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'E',
            Role::Horse => 'H',
            Role::Chariot => 'R',
            Role::Cannon => 'C',
            Role::Soldier => 'P',
        }
    }

    pub const fn from_char(c: char) -> Option<Role> {
        Some(match c {
            'k' => Role::General,
            'a' => Role::Advisor,
            'b' => Role::Elephant,
            'n' => Role::Horse,
            'r' => Role::Chariot,
            'c' => Role::Cannon,
            'p' => Role::Soldier,
            _ => return None,
        })
    }

    /// How many of this kind each side starts with (there is no promotion,
    /// so never more).
    pub const fn start_count(self) -> u32 {
        match self {
            Role::General => 1,
            Role::Soldier => 5,
            _ => 2,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Role::General => "general",
            Role::Advisor => "advisor",
            Role::Elephant => "elephant",
            Role::Horse => "horse",
            Role::Chariot => "chariot",
            Role::Cannon => "cannon",
            Role::Soldier => "soldier",
        }
    }
}

/// A red or black piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    /// FEN letter: upper case for red.
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

    /// The mailbox code: 0 is empty, then 1 + colour * 7 + role.
    #[inline(always)]
    pub(crate) const fn code(self) -> u8 {
        1 + self.color as u8 * 7 + self.role as u8
    }

    #[inline(always)]
    pub(crate) const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 || code > 14 {
            return None;
        }
        let i = code - 1;
        let color = if i >= 7 { Color::Black } else { Color::White };
        Some(Piece { color, role: Role::ALL[(i % 7) as usize] })
    }
}

/// The name a side has in xiangqi.
pub const fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "red",
        Color::Black => "black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("a1").unwrap().index(), 0);
        assert_eq!(Square::parse("i10").unwrap().index(), 89);
        assert_eq!(Square::parse("e2").unwrap().index(), 13);
        for bad in ["", "a", "a0", "a11", "j1", "a01", "A1", "a1x", "e+1", "é1", "aé", "a99"] {
            assert_eq!(Square::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn regions() {
        let names = |b: Bitboard| b.iter::<Square>().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(names(masks::PALACE[0]), ["d1", "e1", "f1", "d2", "e2", "f2", "d3", "e3", "f3"]);
        assert_eq!(names(masks::PALACE[1]), ["d8", "e8", "f8", "d9", "e9", "f9", "d10", "e10", "f10"]);
        assert_eq!(names(masks::ADVISOR[1]), ["d8", "f8", "e9", "d10", "f10"]);
        assert_eq!(names(masks::ELEPHANT[0]), ["c1", "g1", "a3", "e3", "i3", "c5", "g5"]);
        assert_eq!(masks::HALF[0].count(), 45);
        assert_eq!(masks::HALF[0] | masks::HALF[1], masks::ALL);
        assert_eq!(masks::SOLDIER[0].count(), 45 + 10);
        assert!(masks::SOLDIER[1].contains(Square::parse("c6").unwrap()));
        assert!(!masks::SOLDIER[1].contains(Square::parse("b6").unwrap()));
        assert!(!masks::SOLDIER[1].contains(Square::parse("a8").unwrap()));
        assert_eq!(masks::FILE_I.count(), 10);
        assert_eq!(names(masks::rank(9) & masks::file(4)), ["e10"]);
    }

    #[test]
    fn piece_codes_round_trip() {
        for c in "KABNRCPkabnrcp".chars() {
            let p = Piece::from_char(c).unwrap();
            assert_eq!(p.char(), c);
            assert_eq!(Piece::from_code(p.code()), Some(p));
        }
        assert_eq!(Piece::from_code(0), None);
        assert_eq!(Piece::from_char('q'), None);
    }
}
