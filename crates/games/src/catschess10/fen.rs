//! FEN with the seventh field (rules §6): placement with `10` for a full
//! empty rank and `*` for the neutral, side, castling, en passant, the
//! turns since the last capture, the turn number, and the pieces waiting
//! underneath (`N@b1,p@c8`, or `-`; a six-field FEN means `-`). Parsing
//! never panics: malformed or impossible input is an error that names the
//! field.

use super::position::{CatsChess10, BLACK_K, BLACK_Q, WHITE_K, WHITE_Q};
use super::square::{rank_set, setup_piece, squares, Role, Piece, Square, FILES, RANKS};
use catchess_core::Color;
use catchess_game::fen::{err, parse_number, parse_placement, split_fields, FenError, FenField};

/// Most turns a game may have had without a capture.
const MAX_HALFMOVE: u16 = 10_000;

impl CatsChess10 {
    /// Parses a FEN of six or seven fields, at the start of a turn; as in
    /// chess, the two clocks may be left out (`split_fields`: halfmove
    /// clock 0, move 1), and then the seventh field too (nothing waits).
    pub fn from_fen(fen: &str) -> Result<CatsChess10, FenError> {
        let all: Vec<&str> = fen.split_ascii_whitespace().collect();
        if all.len() > 7 {
            return err(FenField::Fen, format!("{} fields given, at most 7 (extra: {:?})", all.len(), all[7]));
        }
        let (fields, waiting) = match all[..] {
            [a, b, c, d, e, f, waiting] => ([a, b, c, d, e, f], waiting),
            _ => (split_fields(fen)?, "-"),
        };
        let mut pos = CatsChess10::empty();
        pos.parse_placement(fields[0])?;
        pos.turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return err(FenField::SideToMove, format!("{other:?} is not w or b")),
        };
        pos.parse_castling(fields[2])?;
        pos.parse_ep(fields[3])?;
        pos.halfmove = parse_number(fields[4], FenField::HalfmoveClock, 0, MAX_HALFMOVE)?;
        pos.fullmove = parse_number(fields[5], FenField::FullmoveNumber, 1, u16::MAX)?;
        pos.parse_waiting(waiting)?;
        pos.validate()?;
        Ok(pos)
    }

    fn parse_placement(&mut self, placement: &str) -> Result<(), FenError> {
        parse_placement(placement, FILES, RANKS, "square", |file, rank, c| {
            let sq = Square::from_coords(file, rank);
            let piece = Piece::from_char(c)
                .ok_or_else(|| FenError { field: FenField::Placement, problem: format!("unknown piece letter {c:?} on {sq}") })?;
            self.put(sq, piece);
            Ok(())
        })
    }

    fn parse_castling(&mut self, text: &str) -> Result<(), FenError> {
        if text == "-" {
            return Ok(());
        }
        for c in text.chars() {
            let (bit, king, rook, color) = match c {
                'K' => (WHITE_K, "f1", "j1", Color::White),
                'Q' => (WHITE_Q, "f1", "a1", Color::White),
                'k' => (BLACK_K, "f10", "j10", Color::Black),
                'q' => (BLACK_Q, "f10", "a10", Color::Black),
                _ => return err(FenField::Castling, format!("{text:?}: {c:?} is not one of K Q k q")),
            };
            if self.castling & bit != 0 {
                return err(FenField::Castling, format!("{text:?} repeats {c:?}"));
            }
            let at = |s: &str| Square::parse(s).and_then(|sq| self.piece_at(sq));
            if at(king) != Some(Piece::new(Role::King, color)) || at(rook) != Some(Piece::new(Role::Rook, color)) {
                return err(FenField::Castling, format!("{c:?} needs the king on {king} and the rook on {rook}"));
            }
            self.castling |= bit;
        }
        Ok(())
    }

    fn parse_ep(&mut self, text: &str) -> Result<(), FenError> {
        if text == "-" {
            return Ok(());
        }
        let Some(sq) = Square::parse(text) else {
            return err(FenField::EnPassant, format!("{text:?} is not a square or '-'"));
        };
        // The square the opponent's last double step crossed: rank 4 after
        // White's, rank 7 after Black's.
        let want = if self.turn == Color::Black { 3 } else { 6 };
        if sq.rank() != want {
            return err(FenField::EnPassant, format!("{text}: with this side to move it must be on rank {}", want + 1));
        }
        self.ep = Some(sq);
        Ok(())
    }

    fn parse_waiting(&mut self, text: &str) -> Result<(), FenError> {
        if text == "-" {
            return Ok(());
        }
        for item in text.split(',') {
            let Some((letter, square)) = item.split_once('@') else {
                return err(FenField::Waiting, format!("{item:?} is not <piece>@<square>"));
            };
            let mut letters = letter.chars();
            let (Some(c), None) = (letters.next(), letters.next()) else {
                return err(FenField::Waiting, format!("{item:?}: {letter:?} is not one piece letter"));
            };
            let Some(sq) = Square::parse(square) else {
                return err(FenField::Waiting, format!("{item:?}: {square:?} is not a square"));
            };
            let piece = Piece::from_char(c);
            if piece.is_none() || piece != setup_piece(sq) {
                let want = setup_piece(sq).map_or("nothing (no piece returns there)".to_string(), |p| p.char().to_string());
                return err(FenField::Waiting, format!("{item:?}: only the setup piece waits on {sq}: {want}"));
            }
            if self.waiting & sq.bit() != 0 {
                return err(FenField::Waiting, format!("{sq} is listed twice"));
            }
            if self.occupied() & sq.bit() == 0 {
                return err(FenField::Waiting, format!("{item:?}: {sq} is empty, so the piece would have appeared"));
            }
            self.toggle_waiting(sq);
        }
        Ok(())
    }

    /// The checks that keep parsed positions within what play can reach
    /// (and within the proven move-list bound).
    fn validate(&self) -> Result<(), FenError> {
        for color in Color::BOTH {
            for (kind, most) in [(Role::King, 1), (Role::TCat, 1)] {
                let n = self.pieces(color, kind).count_ones();
                if n > most {
                    return err(FenField::Placement, format!("{color} has {n} {}s, at most {most}", kind.name()));
                }
            }
        }
        let neutrals = self.kind_set(Role::Neutral).count_ones();
        if neutrals > 4 {
            return err(FenField::Placement, format!("{neutrals} neutrals: the game has 4 and they never multiply"));
        }
        if let Some(sq) = squares(self.kind_set(Role::Pawn) & (rank_set(0) | rank_set(RANKS - 1))).next() {
            return err(FenField::Placement, format!("a pawn on {sq}: pawns never stand on the first or last rank"));
        }
        Ok(())
    }

    /// The FEN (the position between turns: mid-turn state is not written).
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(128);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                match self.piece_at(Square::from_coords(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.turn == Color::White { " w " } else { " b " });
        let rights: String = [(WHITE_K, 'K'), (WHITE_Q, 'Q'), (BLACK_K, 'k'), (BLACK_Q, 'q')]
            .iter()
            .filter(|(b, _)| self.castling & b != 0)
            .map(|&(_, c)| c)
            .collect();
        s.push_str(if rights.is_empty() { "-" } else { &rights });
        match self.ep {
            Some(sq) => s.push_str(&format!(" {sq}")),
            None => s.push_str(" -"),
        }
        s.push_str(&format!(" {} {} ", self.halfmove, self.fullmove));
        let waiting: Vec<String> = squares(self.waiting)
            .filter_map(|sq| setup_piece(sq).map(|p| format!("{}@{sq}", p.char())))
            .collect();
        if waiting.is_empty() {
            s.push('-');
        } else {
            s.push_str(&waiting.join(","));
        }
        s
    }
}
