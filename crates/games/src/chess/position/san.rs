//! Standard algebraic notation (SAN) as PGN writes it: `Nf3`, `exd5`,
//! `e8=Q+`, `O-O`, `Raxd1#`, for chess and for Cat Chess (api.md, "Notation
//! (SAN) in Cat Chess"): white's and black's moves as in chess, a cat's step
//! with the cat's two squares (`a4b5`, the protocol's text, which no SAN
//! move can be confused with) and the cats' pass `0000`.

use super::{Position, Variant};
use catchess_core::Color;
use catchess_game::MoveList;
use crate::chess::moves::{Move, MoveKind};
use crate::chess::types::Role;

impl<V: Variant> Position<V> {
    /// The SAN of `m`, a legal move in this position.
    ///
    /// `+` marks a move after which a king is in check (in Cat Chess: after
    /// black's move, white's king, which the cats' step may still free;
    /// after a cat's step, either king), `#` one after which the side to
    /// move is checkmated. A legal move never leaves its own mover's king
    /// in check, so "a king" is always an enemy one.
    pub fn san(&self, m: Move) -> String {
        let mut san = self.san_without_check(m);
        let next = self.play(m);
        if next.in_check() {
            san.push(if next.has_legal_move() { '+' } else { '#' });
        } else if Color::BOTH.into_iter().any(|c| next.checkers_of(c).any()) {
            san.push('+');
        }
        san
    }

    fn san_without_check(&self, m: Move) -> String {
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Cat => return m.to_string(),
            MoveKind::Castle => return if to.file() > from.file() { "O-O" } else { "O-O-O" }.to_string(),
            _ => {}
        }
        let role = self.role_on(from).unwrap_or(Role::Pawn);
        let capture = m.kind() == MoveKind::EnPassant || self.role_on(to).is_some();
        let mut san = String::new();
        if role == Role::Pawn {
            if capture {
                san.push((b'a' + from.file()) as char);
            }
        } else {
            san.push(role.char().to_ascii_uppercase());
            san.push_str(&self.disambiguation(m, role));
        }
        if capture {
            san.push('x');
        }
        san.push_str(&to.to_string());
        if let Some(promoted) = m.promotion_role() {
            san.push('=');
            san.push(promoted.char().to_ascii_uppercase());
        }
        san
    }

    /// What tells `m` apart from other legal moves of the same piece kind to
    /// the same square: nothing, the origin file, the rank, or both.
    fn disambiguation(&self, m: Move, role: Role) -> String {
        let mut list = MoveList::default();
        self.legal_moves(&mut list);
        let rivals: Vec<Move> = list
            .iter()
            .copied()
            .filter(|o| {
                o.to() == m.to()
                    && o.from() != m.from()
                    && o.kind() != MoveKind::Castle
                    && self.role_on(o.from()) == Some(role)
            })
            .collect();
        let from = m.from();
        let file = (b'a' + from.file()) as char;
        let rank = (b'1' + from.rank()) as char;
        if rivals.is_empty() {
            String::new()
        } else if rivals.iter().all(|o| o.from().file() != from.file()) {
            file.to_string()
        } else if rivals.iter().all(|o| o.from().rank() != from.rank()) {
            rank.to_string()
        } else {
            format!("{file}{rank}")
        }
    }
}

#[cfg(test)]
mod tests {
    use catchess_game::Notation;
    use crate::{CatChess, Chess};

    fn san(fen: &str, uci: &str) -> String {
        let pos = Chess::from_fen(fen).unwrap();
        let m = pos.parse_move(uci).unwrap_or_else(|e| panic!("{uci}: {e}"));
        pos.san(m)
    }

    #[test]
    fn pieces_pawns_and_captures() {
        let start = Chess::startpos().to_fen();
        assert_eq!(san(&start, "e2e4"), "e4");
        assert_eq!(san(&start, "g1f3"), "Nf3");
        let fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
        assert_eq!(san(fen, "e4d5"), "exd5");
        assert_eq!(san(fen, "f1b5"), "Bb5+");
        // En passant.
        let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        assert_eq!(san(fen, "e5f6"), "exf6");
    }

    #[test]
    fn castling_and_promotion() {
        let fen = "r3k2r/pPpppppp/8/8/8/8/P1PPPPPP/R3K2R w KQkq - 0 1";
        assert_eq!(san(fen, "e1g1"), "O-O");
        assert_eq!(san(fen, "e1c1"), "O-O-O");
        // The new queen sees e8 along the empty rank, and nothing can step between.
        assert_eq!(san(fen, "b7a8q"), "bxa8=Q#");
        assert_eq!(san(fen, "b7b8n"), "b8=N");
    }

    #[test]
    fn disambiguation_by_file_rank_or_both() {
        // Knights b1 and f1 both reach d2: by file.
        let fen = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
        assert_eq!(san(fen, "b1d2"), "Nbd2");
        // Rooks a1 and a5 both reach a3: by rank.
        let fen = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1";
        assert_eq!(san(fen, "a1a3"), "R1a3");
        // Queens a1, a3 and c1 all reach b2: a1 needs file and rank.
        let fen = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
        assert_eq!(san(fen, "a1b2"), "Qa1b2");
        assert_eq!(san(fen, "c1b2"), "Qcb2");
        // A pinned rival does not count: the c3 knight is pinned by the a5 bishop.
        let fen = "4k3/8/8/b7/8/2N5/8/4KN2 w - - 0 1";
        assert_eq!(san(fen, "f1d2"), "Nd2");
    }

    fn cat_san(fen: &str, uci: &str) -> String {
        let pos = CatChess::from_fen(fen).unwrap();
        let m = pos.parse_move(uci).unwrap_or_else(|e| panic!("{uci}: {e}"));
        pos.san(m)
    }

    #[test]
    fn cat_chess_moves_in_san_and_cat_steps_by_their_squares() {
        let start = CatChess::startpos().to_fen();
        assert_eq!(cat_san(&start, "e2e4"), "e4");
        assert_eq!(cat_san(&start, "g1f3"), "Nf3");
        let cats_turn = "rnbqkbnr/pppp1ppp/8/4p2*/*3P3/8/PPPP1PPP/RNBQKBNR c KQkq - 0 2";
        assert_eq!(cat_san(cats_turn, "h5g4"), "h5g4");
        assert_eq!(cat_san(cats_turn, "a4b5"), "a4b5");
        // The cats' pass (walled in).
        assert_eq!(cat_san("*nbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQ1RK* c k - 2 3", "0000"), "0000");
        // Castling and a promotion with check.
        let fen = "r3k2r/pPpppppp/8/8/8/8/P1PPPPPP/R3K2R w KQkq - 0 1";
        assert_eq!(cat_san(fen, "e1g1"), "O-O");
        assert_eq!(cat_san(fen, "b7a8q"), "bxa8=Q#");
    }

    #[test]
    fn a_disarmed_piece_is_no_rival_for_a_capture() {
        // Both knights take d2 ...
        assert_eq!(cat_san("4k3/8/8/8/8/8/3p4/1N3N1K w - - 0 1", "b1d2"), "Nbxd2");
        // ... unless the b1 knight stands next to the a2 cat: then only f1
        // can, and its capture needs no file.
        let fen = "4k3/8/8/8/8/8/*2p4/1N3N1K w - - 0 1";
        assert_eq!(cat_san(fen, "f1d2"), "Nxd2");
        // A disarmed piece still moves quietly, and is a rival there.
        let fen = "4k3/8/8/8/8/8/*7/1N3N1K w - - 0 1";
        assert_eq!(cat_san(fen, "f1d2"), "Nfd2");
    }

    #[test]
    fn cat_chess_checks_and_mates_across_the_cats_turn() {
        // RULES.md §8: black's a8a1 is check; the cats move before white
        // is judged, so no mate yet.
        let fen = "r3k3/8/8/8/8/2*5/5PPP/6K1 b - - 0 1";
        assert_eq!(cat_san(fen, "a8a1"), "Ra1+");
        let after = "4k3/8/8/8/8/2*5/5PPP/r5K1 c - - 1 1";
        // c3b2 disarms the rook; c3d3 leaves white mated.
        assert_eq!(cat_san(after, "c3b2"), "c3b2");
        assert_eq!(cat_san(after, "c3d3"), "c3d3#");
        // A cat's step arms the a8 rook: black is in check, white to move.
        assert_eq!(cat_san("R5k1/1*3ppp/8/8/8/8/8/6K1 c - - 0 1", "b7c6"), "b7c6+");
    }

    #[test]
    fn check_and_mate() {
        let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        assert_eq!(san(fen, "a1a8"), "Ra8#");
        assert_eq!(san(fen, "a1a7"), "Ra7");
        let fen = "rnbqkbnr/ppppp2p/5p2/6p1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq g6 0 3";
        assert_eq!(san(fen, "d1h5"), "Qh5#");
    }
}
