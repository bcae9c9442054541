//! `Position<V>` as a [`Game`]: chess and Cat Chess share every line.

use super::SEE_VALUE;
use super::{Position, Variant};
use crate::core::{Role, Side};
use crate::fen::FenError;
use crate::game::{Game, Outcome, Reason, Winner};
use crate::moves::{Move, MoveList};
use crate::search::SearchGame;

impl<V: Variant> Game for Position<V> {
    type Move = Move;
    const VARIANT: &'static str = V::NAME;
    const SQUARES: usize = 64;

    fn startpos() -> Self {
        Position::startpos()
    }
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        Position::from_fen(fen)
    }
    fn to_fen(&self) -> String {
        Position::to_fen(self)
    }
    fn turn(&self) -> Side {
        self.turn
    }
    fn legal_moves(&self, list: &mut MoveList<Move>) {
        Position::legal_moves(self, list)
    }
    #[inline(always)]
    fn count_legal_moves(&self) -> u64 {
        Position::count_legal_moves(self)
    }
    #[inline(always)]
    fn play(&self, m: Move) -> Self {
        Position::play(self, m)
    }
    fn key(&self) -> u64 {
        self.key
    }
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }
    fn move_squares(m: Move) -> (usize, usize) {
        (m.from().index(), m.to().index())
    }
    fn is_judged(&self) -> bool {
        self.turn != Side::Cats
    }
    fn no_moves_outcome(&self) -> Outcome {
        if !self.in_check() {
            return Outcome { winner: Self::draw_winner(), reason: Reason::Stalemate };
        }
        let winner = match self.turn {
            Side::White => Winner::Black,
            Side::Black => Winner::White,
            Side::Cats => unreachable!("the cats always have a move: at worst the pass"),
        };
        Outcome { winner, reason: Reason::Checkmate }
    }
    fn rule_draw(&self) -> Option<Reason> {
        if self.halfmove >= 100 {
            Some(Reason::FiftyMoves)
        } else if self.insufficient_material() {
            Some(Reason::InsufficientMaterial)
        } else {
            None
        }
    }
    fn draw_winner() -> Winner {
        if V::CATS {
            Winner::Cats
        } else {
            Winner::Draw
        }
    }
    fn sides() -> &'static [Side] {
        if V::CATS {
            &[Side::White, Side::Black, Side::Cats]
        } else {
            &[Side::White, Side::Black]
        }
    }
    fn arbiter_pass(&self) -> Option<Move> {
        (self.turn == Side::Cats).then_some(Move::PASS)
    }
    fn record_move(&self, m: Move) -> String {
        // Standard PGN for chess; Cat Chess records keep the protocol's form
        // (SAN has no notation for cat steps).
        if V::CATS {
            m.to_string()
        } else {
            self.san(m)
        }
    }
    fn render(&self) -> String {
        crate::render::board(self)
    }
    fn is_well_formed_move(&self, text: &str) -> bool {
        let b = text.as_bytes();
        let square = |i: usize| b[i].wrapping_sub(b'a') < 8 && b[i + 1].wrapping_sub(b'1') < 8;
        text == "0000"
            || (matches!(b.len(), 4 | 5) && square(0) && square(2) && (b.len() == 4 || b"nbrq".contains(&b[4])))
    }
}

impl<V: Variant> SearchGame for Position<V> {
    const CYCLE: u32 = if V::CATS { 3 } else { 2 };

    #[inline(always)]
    fn move_bits(m: Move) -> u16 {
        m.bits()
    }

    fn tactical_moves(&self, list: &mut MoveList<Move>) {
        if self.turn == Side::Cats {
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

    fn has_non_pawn_material(&self) -> bool {
        self.turn.color().is_none_or(|c| Position::has_non_pawn_material(self, c))
    }

    /// A quiet check is never pruned: in Cat Chess a quiet check is often
    /// the mate the cats must be shown, and the cats' own defence is found
    /// only if the check is searched.
    fn keep_quiet(&self, m: Move) -> bool {
        self.gives_check(m)
    }

    fn reversible_plies(&self) -> usize {
        // The clock counts white/black moves; the cats' moves in between
        // add half as many plies again.
        let h = self.halfmove as usize;
        if V::CATS {
            h * 3 / 2 + 2
        } else {
            h
        }
    }
}
