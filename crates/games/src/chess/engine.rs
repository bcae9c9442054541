//! The chess family's hooks for the search: the move in the hash table,
//! captures for quiescence (and at the cats' turn the cat steps that change
//! them), move-ordering values, SEE, null move, and which quiet moves are
//! never pruned.

use super::position::{Position, Variant, SEE_VALUE};
use super::types::{Role, Side};
use super::Move;
use catchess_core::hash::fold;
use catchess_core::Color;
use catchess_game::{Game, GameOption, MoveList, Seat};
use catchess_search::correction::CorrectionKeys;
use catchess_search::{skill, SearchGame};
use crate::tb::{engine as tables, Verdict};

/// Bench positions: openings, middlegames and endings, every seat to move.
const CAT_CHESS_BENCH: &[&str] = &[
    "rnbqkbnr/pppppppp/8/7*/*7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/1*2p3/2B1P1*1/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r*2k2r/ppppp1*p/8/8/8/8/PPP3PP/5RK1 b kq - 0 1",
    "1k6/p7/8/4PpP1/8/2*4*/P7/1K6 c - f6 0 1",
    "6k1/5*pp/8/*7/8/1B6/5PPP/6K1 c - - 0 1",
    "2bqkbnr/1p1np1p1/2pp3p/r1P2Q2/pP*P1*2/7P/P2NPPP1/R1B1KBNR c KQk - 1 9",
    "r4b1r/pp3ppp/n2pp**n/6P1/1Pk4N/P1N5/3KPPR1/1RB2B2 w - - 2 16",
    "rn2kb1r/pp2pp1p/7p/2pp1b2/P*Q3P*/2PP3N/1q2PP1P/RN2KB1R b KQkq a3 0 9",
    "8/2P2k2/3Q4/4p2N/2*P2p1/P*Q1PP2/5KP1/3q4 w - - 0 37",
    "r2q1rk1/pp2bppp/2n1pn2/*2p4/3P1B2/2NBPN*1/PP3PPP/R2Q1RK1 b - - 3 10",
];

const CHESS_BENCH: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/3P1B2/2NBPN2/PP3PPP/R2Q1RK1 b - - 3 10",
    "2r3k1/pp3ppp/4p3/3pP3/3P4/P4N2/1P3PPP/2R3K1 b - - 0 25",
    "8/8/4k3/3p4/3P1K2/8/8/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
    "r1b2rk1/2q1bppp/p2p1n2/np2p3/3PP3/5N1P/PPBN1PP1/R1BQR1K1 b - - 0 13",
];

/// `UCI_Elo` to the weakened search's level in Cat Chess: chess's table
/// (`skill::DEFAULT_ELO_TO_LEVEL`), but the weakest level far lower (-30:
/// depth 1, a pick among 16 lines with the widest spread), measured in Cat
/// Chess itself by `catchess calibrate` (README, "Levels in Cat Chess").
/// At chess's -10 the cats at level 1 still stood beside the black king
/// often enough that the engine as white at level 3 mated in only a few
/// games within 40 moves; at -30 they wander, and black walks into the open.
const CAT_CHESS_ELO_TO_LEVEL: skill::EloTable =
    &[(skill::ELO_MIN, -30.0), (1000, -4.0), (1200, 0.0), (1500, 5.0), (2000, 12.5), (2500, skill::SKILL_MAX as f64)];

impl<V: Variant> SearchGame for Position<V> {
    const ELO_TO_LEVEL: skill::EloTable = if V::CATS { CAT_CHESS_ELO_TO_LEVEL } else { skill::DEFAULT_ELO_TO_LEVEL };
    const BENCH: &'static [&'static str] = if V::CATS { CAT_CHESS_BENCH } else { CHESS_BENCH };
    const BENCH_DEPTH: u32 = if V::CATS { 11 } else { 16 };
    /// Standard chess's network (Cat Chess evaluates without one), and the
    /// endgame tables of both (`crate::tb::engine`).
    const OPTIONS: &'static [GameOption] =
        if V::CATS { &[tables::TABLEBASE_PATH] } else { &[crate::nnue::EVAL_FILE, tables::TABLEBASE_PATH] };
    #[inline(always)]
    fn move_bits(m: Move) -> u32 {
        m.bits() as u32
    }

    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    /// White or black cannot win while the enemy king stands beside a cat:
    /// in the zone nothing checks it, so nothing mates it.
    fn cannot_win(&self, seat: Seat) -> bool {
        // Seats are the sides in order (`Game::SEATS`).
        let enemy = match seat.index() {
            i if i == Side::White.index() => Color::Black,
            i if i == Side::Black.index() => Color::White,
            _ => return false,
        };
        V::CATS && self.zone().contains(self.king(enemy))
    }

    fn tactical_moves(&self, list: &mut MoveList<Move>) {
        if self.side_to_move() == Side::Cats {
            return self.tactical_cat_moves(list);
        }
        // Under-promotions are never worth a look in quiescence.
        let mut all = MoveList::default();
        Position::tactical_moves(self, &mut all);
        for &m in all.iter() {
            if matches!(m.promotion_role(), None | Some(Role::Queen)) {
                list.push(m);
            }
        }
    }

    #[inline]
    fn tactical_value(&self, m: Move) -> Option<i32> {
        let victim = self.captured_role(m);
        let promotion = m.promotion_role();
        if victim.is_none() && promotion.is_none() {
            return None;
        }
        let value = |r: Option<Role>| r.map_or(0, |r| SEE_VALUE[r.index()]);
        let attacker = self.role_on(m.from()).map_or(0, |r| r.index() as i32);
        Some(value(victim) * 8 + value(promotion) - attacker)
    }

    #[inline]
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        Position::see_ge(self, m, threshold)
    }

    fn null_move(&self) -> Self {
        Position::null_move(self)
    }

    /// The six roles, and the cats.
    const PIECE_KINDS: usize = 7;
    #[inline(always)]
    fn moved_kind(&self, m: Move) -> usize {
        self.role_on(m.from()).map_or(6, Role::index)
    }

    /// The pawn structure, then white's and black's other pieces. (Not the
    /// cats in Cat Chess: they step every third ply, so a key with them
    /// would hardly ever be met again within a search.)
    const CORRECTION_KEYS: usize = 3;
    #[inline]
    fn correction_keys(&self) -> CorrectionKeys {
        let pawns = |c| self.pieces(c, Role::Pawn).0;
        let others = |c| {
            let p = |r| self.pieces(c, r).0;
            fold(&[p(Role::Knight), p(Role::Bishop), p(Role::Rook), p(Role::Queen), p(Role::King)])
        };
        [fold(&[pawns(Color::White), pawns(Color::Black)]), others(Color::White), others(Color::Black)]
    }

    fn has_non_pawn_material(&self) -> bool {
        self.side_to_move().color().is_none_or(|c| Position::has_non_pawn_material(self, c))
    }

    /// A quiet check is never pruned: in Cat Chess a quiet check is often
    /// the mate the cats must be shown, and the cats' own defence is found
    /// only if the check is searched.
    fn keep_quiet(&self, m: Move) -> bool {
        self.gives_check(m)
    }

    /// The endgame tables (`TablebasePath`, `crate::tb`), the half-move
    /// clock applied.
    fn table_result(&self) -> Option<(Option<Seat>, u32)> {
        Some(match tables::probe(self)?.verdict {
            Verdict::Draw => (Self::draw_winner(), 0),
            Verdict::Win { winner, plies } => (Some(Seat::new(Side::from(winner).index())), plies as u32),
        })
    }

    fn table_win_too_late(&self) -> Option<(Seat, u32)> {
        match tables::probe(self)?.too_late? {
            Verdict::Win { winner, plies } => Some((Seat::new(Side::from(winner).index()), plies as u32)),
            Verdict::Draw => None,
        }
    }

    fn table_move(&self) -> Option<Move> {
        tables::best_move(self).map(|(m, _)| m)
    }

    fn table_words(&self) -> Option<String> {
        tables::describe(self)
    }

    fn reversible_plies(&self) -> usize {
        // The clock counts white/black moves; the cats' moves in between
        // add half as many plies again.
        let h = self.halfmove_clock() as usize;
        if V::CATS {
            h * 3 / 2 + 2
        } else {
            h
        }
    }
}

#[cfg(test)]
mod tests {
    use catchess_game::Notation;
    use crate::{CatChess, Chess};
    use catchess_search::SearchGame;

    fn keys_after<G: SearchGame + Notation>(fen: &str, m: &str) -> [[u64; 3]; 2] {
        let pos = G::from_fen(fen).unwrap();
        [pos.correction_keys(), pos.play(pos.parse_move(m).unwrap()).correction_keys()]
    }

    #[test]
    fn correction_keys_follow_the_pawns_and_each_side_s_pieces() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let [before, after] = keys_after::<Chess>(start, "e2e4");
        assert!(after[0] != before[0] && after[1..] == before[1..], "a pawn's move: the structure only");
        let [before, after] = keys_after::<Chess>(start, "g1f3");
        assert!(after[1] != before[1] && after[0] == before[0] && after[2] == before[2], "white's knight: white's key");
        let black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let [before, after] = keys_after::<Chess>(black, "b8c6");
        assert!(after[2] != before[2] && after[..2] == before[..2], "black's knight: black's key");
        // The same pieces on other squares of the other side are others.
        let [white_king, _] = keys_after::<Chess>("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1d1");
        let [moved_king, _] = keys_after::<Chess>("4k3/8/8/8/8/8/8/3K4 w - - 0 1", "d1e1");
        assert_ne!(white_king[1], moved_king[1]);
        assert_eq!(white_king[2], moved_king[2]);
    }

    #[test]
    fn in_cat_chess_a_cat_s_step_keeps_the_keys() {
        let [before, after] = keys_after::<CatChess>("4k3/8/8/8/1*6/5*2/4P3/4K3 c - - 0 1", "b4c4");
        assert_eq!(after, before);
        let [before, after] = keys_after::<CatChess>("4k3/8/8/8/1*6/5*2/4P3/4K3 w - - 0 1", "e2e3");
        assert!(after[0] != before[0] && after[1..] == before[1..], "a pawn's move: the structure only");
    }
}
