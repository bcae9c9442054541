//! (Cat-)FEN in and out. Parsing never panics: every malformed or impossible
//! input is an error naming the field and the problem.

use super::movegen::castle_homes;
use super::{castling, Position, Variant};
use catchess_core::{Bitboard, Color, Square};
use catchess_game::fen::{err, parse_number, split_fields, FenError, FenField};
use crate::chess::types::{Piece, Role, Side};

/// Most white/black moves a game may have had without a capture or pawn
/// move; anything larger is a typo, not a position.
const MAX_HALFMOVE: u16 = 10_000;

impl<V: Variant> Position<V> {
    /// Parses a (Cat-)FEN with all six fields.
    pub fn from_fen(fen: &str) -> Result<Self, FenError> {
        let fields = split_fields(fen)?;
        let mut pos = Position::empty();
        pos.parse_placement(fields[0])?;
        pos.turn = match fields[1] {
            "w" => Side::White,
            "b" => Side::Black,
            "c" if V::CATS => Side::Cats,
            "c" => return err(FenField::SideToMove, format!("'c' (cats) does not exist in {}", V::NAME)),
            other => {
                let allowed = if V::CATS { "w, b or c" } else { "w or b" };
                return err(FenField::SideToMove, format!("{other:?} is not {allowed}"));
            }
        };
        pos.castling = parse_castling(fields[2])?;
        pos.ep = match fields[3] {
            "-" => None,
            s => Some(Square::parse(s).ok_or_else(|| FenError {
                field: FenField::EnPassant,
                problem: format!("{s:?} is not '-' or a square"),
            })?),
        };
        pos.halfmove = parse_number(fields[4], FenField::HalfmoveClock, 0, MAX_HALFMOVE)?;
        pos.fullmove = parse_number(fields[5], FenField::FullmoveNumber, 1, u16::MAX)?;
        pos.zone = pos.cats.dilate();
        pos.validate()?;
        pos.key = pos.compute_key();
        pos.ep_in_key = pos.ep.is_some() && pos.ep_counts();
        Ok(pos)
    }

    /// A position from its men, its cats and the side to move, with no
    /// castling rights, no en passant square and fresh clocks, checked as a
    /// FEN would be (RULES.md §9). For the endgame-table generator, which
    /// builds hundreds of millions of positions and cannot afford the text.
    pub fn from_parts(men: &[(Square, Piece)], cats: Bitboard, turn: Side) -> Result<Self, FenError> {
        let mut pos = Position::empty();
        if turn == Side::Cats && !V::CATS {
            return err(FenField::SideToMove, format!("'c' (cats) does not exist in {}", V::NAME));
        }
        if !V::CATS && cats.any() {
            return err(FenField::Placement, format!("cats do not exist in {}", V::NAME));
        }
        pos.cats = cats;
        for &(sq, piece) in men {
            if pos.occupied().contains(sq) {
                return err(FenField::Placement, format!("two men (or a man and a cat) on {sq}"));
            }
            pos.put(sq, piece);
        }
        pos.turn = turn;
        pos.zone = pos.cats.dilate();
        pos.validate()?;
        pos.key = pos.compute_key();
        Ok(pos)
    }

    fn parse_placement(&mut self, placement: &str) -> Result<(), FenError> {
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 8 {
            return err(FenField::Placement, format!("{} ranks, expected 8", ranks.len()));
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            let mut last_was_digit = false;
            for c in text.chars() {
                if file >= 8 {
                    return err(FenField::Placement, format!("rank {} ({text:?}) is longer than 8 squares", rank + 1));
                }
                if let Some(d) = c.to_digit(10) {
                    if !(1..=8).contains(&d) || last_was_digit {
                        return err(
                            FenField::Placement,
                            format!("rank {} ({text:?}): bad empty-square count {c:?}", rank + 1),
                        );
                    }
                    if file as u32 + d > 8 {
                        return err(
                            FenField::Placement,
                            format!("rank {} ({text:?}) is longer than 8 squares", rank + 1),
                        );
                    }
                    file += d as u8;
                    last_was_digit = true;
                    continue;
                }
                last_was_digit = false;
                let sq = Square::from_coords(file, rank);
                if c == '*' && V::CATS {
                    self.cats.set(sq);
                } else if let Some(piece) = Piece::from_char(c) {
                    self.put(sq, piece);
                } else {
                    let hint = if c == '*' { format!(" (cats do not exist in {})", V::NAME) } else { String::new() };
                    return err(FenField::Placement, format!("unknown piece letter {c:?} on {sq}{hint}"));
                }
                file += 1;
            }
            if file != 8 {
                return err(
                    FenField::Placement,
                    format!("rank {} ({text:?}) has {file} squares, expected 8", rank + 1),
                );
            }
        }
        Ok(())
    }

    /// The checks that make a parsed position one the rules can reach
    /// (RULES.md §9).
    fn validate(&self) -> Result<(), FenError> {
        for color in Color::BOTH {
            let kings = self.pieces(color, Role::King).count();
            if kings != 1 {
                return err(FenField::Placement, format!("{} has {kings} kings, expected exactly 1", color));
            }
        }
        self.validate_material()?;
        if self.cats.count() > 2 {
            return err(FenField::Placement, format!("{} cats, at most 2 allowed", self.cats.count()));
        }
        if let Some(sq) = (self.by_role(Role::Pawn) & Bitboard::BACK_RANKS).first() {
            return err(FenField::Placement, format!("pawn on {sq}: pawns never stand on rank 1 or 8"));
        }
        for right in [castling::WHITE_KING, castling::WHITE_QUEEN, castling::BLACK_KING, castling::BLACK_QUEEN] {
            if self.castling & right == 0 {
                continue;
            }
            let (king, rook) = castle_homes(right);
            let color =
                if right & (castling::WHITE_KING | castling::WHITE_QUEEN) != 0 { Color::White } else { Color::Black };
            if !self.pieces(color, Role::King).contains(king) || !self.pieces(color, Role::Rook).contains(rook) {
                let letter = castling_letter(right);
                return err(
                    FenField::Castling,
                    format!("right {letter:?} needs the {} king on {king} and a rook on {rook}", color),
                );
            }
        }
        if let Some(ep) = self.ep {
            self.validate_ep(ep)?;
        }
        let just_moved = match self.turn {
            Side::White if V::CATS => None,
            Side::White => Some(Color::Black),
            Side::Black => Some(Color::White),
            Side::Cats => Some(Color::Black),
        };
        if let Some(color) = just_moved {
            if self.checkers_of(color).any() {
                return err(FenField::Position, format!("{} is in check but has just moved", color));
            }
        }
        Ok(())
    }

    /// Each side's material must be reachable from the start (RULES.md §9): at
    /// most 16 men including its king, at most 8 pawns, and no more pieces
    /// beyond the starting set (a second queen, a third rook, bishop or
    /// knight) than pawns gone, since each of them is a promoted pawn. This
    /// is what bounds the number of legal moves (`catchess_game::MAX_MOVES`).
    fn validate_material(&self) -> Result<(), FenError> {
        for color in Color::BOTH {
            let side = Side::from(color);
            let men = self.by_color(color).count();
            if men > 16 {
                return err(
                    FenField::Placement,
                    format!("{side} has {men} pieces (king and pawns included), at most 16"),
                );
            }
            let pawns = self.pieces(color, Role::Pawn).count();
            if pawns > 8 {
                return err(FenField::Placement, format!("{side} has {pawns} pawns, at most 8"));
            }
            let mut promoted = 0;
            let mut extras = Vec::new();
            for (role, start) in [(Role::Queen, 1), (Role::Rook, 2), (Role::Bishop, 2), (Role::Knight, 2)] {
                let name = role.name();
                let n = self.pieces(color, role).count();
                if n > start {
                    promoted += n - start;
                    extras.push(format!("{n} {name}s"));
                }
            }
            let missing = 8 - pawns;
            if promoted > missing {
                return err(
                    FenField::Placement,
                    format!(
                        "{side} has {} ({promoted} more than the starting set, so {promoted} promoted pawns) \
                         but only {missing} pawns missing",
                        extras.join(", ")
                    ),
                );
            }
        }
        Ok(())
    }

    fn validate_ep(&self, ep: Square) -> Result<(), FenError> {
        // White just pushed (black to move): the square is on rank 3, the
        // pawn on rank 4. Black just pushed (white or cats to move): rank 6
        // and rank 5.
        let (pusher, rank, step) = match self.turn {
            Side::Black => (Color::White, 2, 1i8),
            _ => (Color::Black, 5, -1i8),
        };
        if ep.rank() != rank {
            return err(FenField::EnPassant, format!("{ep} must be on rank {} with {} to move", rank + 1, self.turn));
        }
        let pawn = ep.offset(0, step).expect("ranks 3 and 6 have neighbours");
        let origin = ep.offset(0, -step).expect("ranks 3 and 6 have neighbours");
        if !self.pieces(pusher, Role::Pawn).contains(pawn) {
            return err(FenField::EnPassant, format!("{ep} needs a {} pawn just pushed to {pawn}", pusher));
        }
        let armies = self.by_color(Color::White) | self.by_color(Color::Black);
        if armies.contains(ep) || armies.contains(origin) {
            return err(
                FenField::EnPassant,
                format!("{ep}: the pawn passed over {ep} from {origin}, so both must be free of pieces"),
            );
        }
        Ok(())
    }

    /// The (Cat-)FEN of this position.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let sq = Square::from_coords(file, rank);
                let c = if self.cats.contains(sq) { Some('*') } else { self.piece_at(sq).map(Piece::char) };
                match c {
                    Some(c) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.turn.fen_char());
        s.push(' ');
        if self.castling == 0 {
            s.push('-');
        }
        for right in [castling::WHITE_KING, castling::WHITE_QUEEN, castling::BLACK_KING, castling::BLACK_QUEEN] {
            if self.castling & right != 0 {
                s.push(castling_letter(right));
            }
        }
        match self.ep {
            Some(ep) => s.push_str(&format!(" {ep}")),
            None => s.push_str(" -"),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }
}

fn castling_letter(right: u8) -> char {
    match right {
        castling::WHITE_KING => 'K',
        castling::WHITE_QUEEN => 'Q',
        castling::BLACK_KING => 'k',
        _ => 'q',
    }
}

fn parse_castling(s: &str) -> Result<u8, FenError> {
    if s == "-" {
        return Ok(0);
    }
    let mut rights = 0;
    for c in s.chars() {
        let right = match c {
            'K' => castling::WHITE_KING,
            'Q' => castling::WHITE_QUEEN,
            'k' => castling::BLACK_KING,
            'q' => castling::BLACK_QUEEN,
            _ => return err(FenField::Castling, format!("{s:?}: {c:?} is not one of K, Q, k, q (or '-')")),
        };
        if rights & right != 0 {
            return err(FenField::Castling, format!("{s:?}: {c:?} given twice"));
        }
        rights |= right;
    }
    Ok(rights)
}
