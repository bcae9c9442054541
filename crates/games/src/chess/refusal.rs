//! Why a move is refused (issue #62): the rule of RULES.md a well-formed
//! but illegal move breaks, in a player's words, so that the page and the
//! API can say it ("a disarmed piece cannot capture", "that would leave
//! your king in check") instead of only "illegal". The checks run in the
//! order a player thinks of them (whose piece, how it moves, what is in the
//! way, the cats, the king) and only on a refused move, never in search.

use super::attacks;
use super::moves::Move;
use super::position::{castling, Position, Variant};
use super::types::{Piece, Role, Side};
use catchess_core::{Bitboard, Color, Square};

impl<V: Variant> Position<V> {
    /// Why the move written `text` (the protocol's coordinates, well
    /// formed) is not legal here, or `None` when it is legal (or no rule
    /// below names what is wrong).
    pub fn why_refused(&self, text: &str) -> Option<String> {
        if self.is_legal_text(text) {
            return None;
        }
        if text == "0000" {
            return Some(self.why_no_pass());
        }
        let (from, to) = (Square::parse(text.get(0..2)?)?, Square::parse(text.get(2..4)?)?);
        let promotion = text.as_bytes().get(4).and_then(|&c| Role::from_char(c as char));
        let turn = self.side_to_move();
        if self.cats().contains(from) {
            return Some(match turn {
                Side::Cats => self.why_no_cat_step(from, to),
                _ => format!("the cats move only on their own turn; it is {turn}'s move"),
            });
        }
        let Some(piece) = self.piece_at(from) else {
            return Some(format!("there is no piece on {from}"));
        };
        let Some(us) = turn.color() else {
            return Some(format!("it is the cats' turn: only a cat moves (the {} on {from} waits)", piece.role.name()));
        };
        if piece.color != us {
            return Some(format!("the {} on {from} is {}'s; it is {turn}'s move", piece.role.name(), Side::from(piece.color)));
        }
        if from == to {
            return Some("a move must leave its square".to_string());
        }
        if piece.role == Role::King && from.file().abs_diff(to.file()) == 2 && from.rank() == to.rank() {
            return Some(self.why_no_castle(us, from, to));
        }
        if self.cats().contains(to) {
            return Some(format!("{to} holds a cat: no piece may land on a cat"));
        }
        if let Some(own) = self.piece_at(to).filter(|p| p.color == us) {
            return Some(format!("{to} holds your own {}", own.role.name()));
        }
        self.why_not_this_way(piece, from, to)
            .or_else(|| self.why_no_capture(piece, from, to))
            .or_else(|| why_no_promotion(piece, to, promotion))
            .or_else(|| Some(self.why_king_exposed(us)))
    }

    fn is_legal_text(&self, text: &str) -> bool {
        let mut list = catchess_game::MoveList::default();
        self.legal_moves(&mut list);
        list.iter().any(|m: &Move| m.to_string() == text)
    }

    fn why_no_pass(&self) -> String {
        match self.side_to_move() {
            Side::Cats => "the cats pass only when neither cat can step".to_string(),
            side => format!("only the cats pass; {side} must move"),
        }
    }

    fn why_no_cat_step(&self, from: Square, to: Square) -> String {
        if !attacks::king(from).contains(to) {
            format!("a cat steps one square (like a king); {to} is not next to {from}")
        } else if self.occupied().contains(to) {
            format!("a cat steps only onto an empty square, and {to} is taken")
        } else {
            format!("the cat on {from} cannot step to {to}")
        }
    }

    /// The piece's own geometry, and what stands in its way.
    fn why_not_this_way(&self, piece: Piece, from: Square, to: Square) -> Option<String> {
        let reach = match piece.role {
            Role::Pawn => return self.why_not_pawn_way(piece.color, from, to),
            Role::Knight => attacks::knight(from),
            Role::Bishop => attacks::bishop(from, Bitboard::EMPTY),
            Role::Rook => attacks::rook(from, Bitboard::EMPTY),
            Role::Queen => attacks::queen(from, Bitboard::EMPTY),
            Role::King => attacks::king(from),
        };
        if !reach.contains(to) {
            return Some(format!("a {} does not move that way", piece.role.name()));
        }
        self.blocker(from, to).map(|sq| format!("{} stands in the way", self.what_is_on(sq)))
    }

    fn why_not_pawn_way(&self, us: Color, from: Square, to: Square) -> Option<String> {
        let forward: i8 = if us == Color::White { 1 } else { -1 };
        let home = if us == Color::White { 1 } else { 6 };
        let (df, dr) = (to.file() as i8 - from.file() as i8, to.rank() as i8 - from.rank() as i8);
        if df == 0 && (dr == forward || (dr == 2 * forward && from.rank() == home)) {
            let path = attacks::between(from, to) | Bitboard::from_square(to);
            return nearest(path & self.occupied(), from, to).map(|sq| match self.piece_at(sq).filter(|_| sq == to) {
                Some(_) => format!("a pawn captures only diagonally, and {} stands ahead", self.what_is_on(sq)),
                None => format!("{} stands in the way", self.what_is_on(sq)),
            });
        }
        if df.abs() == 1 && dr == forward {
            let victim = self.piece_at(to).is_some() || self.ep_square() == Some(to);
            return (!victim).then(|| "a pawn moves diagonally only to capture".to_string());
        }
        if df == 0 && dr == 2 * forward {
            return Some("a pawn moves two squares only from its starting square".to_string());
        }
        Some("a pawn moves straight ahead and captures diagonally forward".to_string())
    }

    /// The capture ban (RULES.md §4) and the untouchable king.
    fn why_no_capture(&self, piece: Piece, from: Square, to: Square) -> Option<String> {
        let en_passant = piece.role == Role::Pawn && self.ep_square() == Some(to) && self.piece_at(to).is_none();
        let victim_square = match en_passant {
            true => Square::from_coords(to.file(), from.rank()),
            false => to,
        };
        let victim = self.piece_at(victim_square)?;
        if victim.role == Role::King {
            return Some("a king is never captured".to_string());
        }
        let zone = self.zone();
        if zone.contains(from) {
            return Some(format!(
                "the {} on {from} stands next to a cat: disarmed, it cannot capture",
                piece.role.name()
            ));
        }
        if zone.contains(victim_square) {
            return Some(format!(
                "the {} on {victim_square} stands next to a cat: it cannot be captured",
                victim.role.name()
            ));
        }
        (en_passant && zone.contains(to)).then(|| format!("{to} is next to a cat: en passant may not land there"))
    }

    /// Castling (RULES.md §6): the rights, the path, check, the square
    /// passed over.
    fn why_no_castle(&self, us: Color, from: Square, to: Square) -> String {
        let king_side = to.file() > from.file();
        let (right, wing) = match (us, king_side) {
            (Color::White, true) => (castling::WHITE_KING, "king-side"),
            (Color::White, false) => (castling::WHITE_QUEEN, "queen-side"),
            (Color::Black, true) => (castling::BLACK_KING, "king-side"),
            (Color::Black, false) => (castling::BLACK_QUEEN, "queen-side"),
        };
        if self.castling_rights() & right == 0 {
            return format!("{} may no longer castle {wing} (the king or that rook has moved)", Side::from(us));
        }
        let rook = Square::from_coords(if king_side { 7 } else { 0 }, from.rank());
        if let Some(sq) = (attacks::between(from, rook) & self.occupied()).first() {
            return format!("{} stands between the king and the rook", self.what_is_on(sq));
        }
        if self.checkers_of(us).any() {
            return "a king in check cannot castle".to_string();
        }
        let passed = Square::from_coords((from.file() + to.file()) / 2, from.rank());
        if self.threatened_by(us.other(), passed, self.occupied()) {
            return format!("the king may not pass over {passed}, which is attacked");
        }
        self.why_king_exposed(us)
    }

    fn why_king_exposed(&self, us: Color) -> String {
        match self.checkers_of(us).first() {
            Some(checker) => format!("your king is in check from {}, and this move does not answer it", self.what_is_on(checker)),
            None => "that would leave your king in check".to_string(),
        }
    }

    /// The first occupied square strictly between `from` and `to`.
    fn blocker(&self, from: Square, to: Square) -> Option<Square> {
        nearest(attacks::between(from, to) & self.occupied(), from, to)
    }

    /// "the cat on e3", "the white knight on f3".
    fn what_is_on(&self, sq: Square) -> String {
        match self.piece_at(sq) {
            Some(p) => format!("the {} {} on {sq}", Side::from(p.color), p.role.name()),
            None => format!("the cat on {sq}"),
        }
    }
}

/// The square of `squares` (on the line from `from` to `to`) nearest to
/// `from`: the lowest going up the board, the highest going down.
fn nearest(squares: Bitboard, from: Square, to: Square) -> Option<Square> {
    match to.index() > from.index() {
        true => squares.first(),
        false => squares.iter().last(),
    }
}

fn why_no_promotion(piece: Piece, to: Square, promotion: Option<Role>) -> Option<String> {
    let last = if piece.color == Color::White { 7 } else { 0 };
    match (piece.role == Role::Pawn && to.rank() == last, promotion) {
        (true, None) => Some("a pawn reaching the last rank must promote: add q, r, b or n (as in e7e8q)".to_string()),
        (false, Some(_)) => Some("only a pawn reaching the last rank promotes".to_string()),
        _ => None,
    }
}
