//! Xiangqi FEN as Fairy-Stockfish writes it: ranks 10 to 1, letters
//! `K A B N R C P` (upper case red), side `w` (red) or `b`, castling and en
//! passant always `-`, then the clocks. Parsing never panics: every
//! malformed or unreachable position is an error naming the field and the
//! problem.

use super::position::Xiangqi;
use super::square::{color_name, masks, Piece, Role, Square, FILES, RANKS};
use catchess_core::Color;
use catchess_game::fen::{err, parse_number, parse_placement, split_fields, FenError, FenField};

/// Most plies a game may have had without a capture; anything larger is a
/// typo, not a position.
const MAX_HALFMOVE: u16 = 10_000;

impl Xiangqi {
    /// Parses a FEN with all six fields.
    pub fn from_fen(fen: &str) -> Result<Xiangqi, FenError> {
        let fields = split_fields(fen)?;
        let mut pos = Xiangqi::empty();
        pos.parse_placement(fields[0])?;
        pos.turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return err(FenField::SideToMove, format!("{other:?} is not w (red) or b (black)")),
        };
        if fields[2] != "-" {
            return err(FenField::Castling, format!("{:?}: xiangqi has no castling, expected '-'", fields[2]));
        }
        if fields[3] != "-" {
            return err(FenField::EnPassant, format!("{:?}: xiangqi has no en passant, expected '-'", fields[3]));
        }
        pos.halfmove = parse_number(fields[4], FenField::HalfmoveClock, 0, MAX_HALFMOVE)?;
        pos.fullmove = parse_number(fields[5], FenField::FullmoveNumber, 1, u16::MAX)?;
        pos.validate()?;
        pos.key = pos.compute_key();
        Ok(pos)
    }

    fn parse_placement(&mut self, placement: &str) -> Result<(), FenError> {
        parse_placement(placement, FILES, RANKS, "point", |file, rank, c| {
            let sq = Square::from_coords(file, rank);
            let piece = Piece::from_char(c)
                .ok_or_else(|| FenError { field: FenField::Placement, problem: format!("unknown piece letter {c:?} on {sq}") })?;
            self.put(sq, piece);
            Ok(())
        })
    }

    /// The checks that make a parsed position one the rules can reach.
    fn validate(&self) -> Result<(), FenError> {
        for color in Color::BOTH {
            let side = color_name(color);
            let generals = self.pieces(color, Role::General);
            if generals.count() != 1 {
                return err(
                    FenField::Placement,
                    format!("{side} has {} generals, expected exactly 1", generals.count()),
                );
            }
            for role in Role::ALL {
                let n = self.pieces(color, role).count();
                if n > role.start_count() {
                    return err(
                        FenField::Placement,
                        format!(
                            "{side} has {n} {}s, at most {} (there is no promotion)",
                            role.name(),
                            role.start_count()
                        ),
                    );
                }
            }
            let i = color.index();
            let regions = [
                (Role::General, masks::PALACE[i], "outside its palace"),
                (Role::Advisor, masks::ADVISOR[i], "off the five points of its palace diagonals"),
                (Role::Elephant, masks::ELEPHANT[i], "on a point no elephant can reach (it never crosses the river)"),
                (
                    Role::Soldier,
                    masks::SOLDIER[i],
                    "on a point no soldier can reach (behind or beside its start before the river)",
                ),
            ];
            for (role, region, why) in regions {
                if let Some(sq) = (self.pieces(color, role) - region).first::<Square>() {
                    return err(FenField::Placement, format!("{side} {} on {sq}: {why}", role.name()));
                }
            }
        }
        if self.generals_face() {
            return err(FenField::Position, "the generals face each other on an open file");
        }
        // The side that has just moved may not have left its general
        // attacked: no legal move does.
        let mover = self.turn.other();
        if self.is_attacked_general(mover) {
            return err(FenField::Position, format!("{} is in check but has just moved", color_name(mover)));
        }
        Ok(())
    }

    /// The FEN of this position.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(96);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                match self.piece_at(Square::from_coords(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.char());
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
        let side = if self.turn == Color::White { 'w' } else { 'b' };
        s.push_str(&format!(" {side} - - {} {}", self.halfmove, self.fullmove));
        s
    }
}
