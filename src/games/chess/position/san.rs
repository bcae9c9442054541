//! Standard algebraic notation (SAN) for white and black moves, as PGN
//! writes them: `Nf3`, `exd5`, `e8=Q+`, `O-O`, `Raxd1#`. Used for chess
//! game records (the match runner's PGN); Cat Chess records keep the
//! protocol's long form, since SAN has no letter for a cat.

use super::{Position, Variant};
use crate::game::MoveList;
use crate::games::chess::moves::{Move, MoveKind};
use crate::games::chess::types::Role;

impl<V: Variant> Position<V> {
    /// The SAN of `m`, a legal move of white or black in this position.
    /// Cat moves, which SAN cannot write, come out in UCI form.
    pub fn san(&self, m: Move) -> String {
        let mut san = self.san_without_check(m);
        let next = self.play(m);
        // `in_check` judges the side to move next: the opponent in chess. (In
        // Cat Chess, after black's move, the cats: no suffix. SAN is for
        // chess records only.)
        if next.in_check() {
            san.push(if next.has_legal_move() { '+' } else { '#' });
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
    use crate::game::Notation;
    use crate::games::Chess;

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

    #[test]
    fn check_and_mate() {
        let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        assert_eq!(san(fen, "a1a8"), "Ra8#");
        assert_eq!(san(fen, "a1a7"), "Ra7");
        let fen = "rnbqkbnr/ppppp2p/5p2/6p1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq g6 0 3";
        assert_eq!(san(fen, "d1h5"), "Qh5#");
    }
}
