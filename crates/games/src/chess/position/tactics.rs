//! Facts about moves that the search uses for ordering and pruning, all
//! judged under the Cat Chess rules (only armed pieces capture, nothing is
//! captured in Z): static exchange evaluation, capture values, the null
//! move, and the cat steps worth a look in quiescence search.

use super::{Position, Variant};
use catchess_core::{Bitboard, Color};
use catchess_game::MoveList;
use crate::chess::attacks;
use crate::chess::moves::{Move, MoveKind};
use crate::chess::types::{Role, Side};

/// Piece values for exchange arithmetic (not the evaluation's values: SEE
/// only needs their order and rough ratios).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

impl<V: Variant> Position<V> {
    /// The role on a square, if a white or black piece stands there.
    #[inline(always)]
    pub fn role_on(&self, sq: catchess_core::Square) -> Option<Role> {
        if (self.colors[0] | self.colors[1]).contains(sq) {
            self.role_at(sq)
        } else {
            None
        }
    }

    /// The role a move captures (a pawn for en passant), if any.
    #[inline]
    pub fn captured_role(&self, m: Move) -> Option<Role> {
        match m.kind() {
            MoveKind::EnPassant => Some(Role::Pawn),
            MoveKind::Cat | MoveKind::Castle => None,
            _ => self.role_on(m.to()),
        }
    }

    /// The position with the side to move skipping its turn: the "null
    /// move" of null-move pruning for white or black (the en passant right
    /// lapses, as after any move), and exactly the pass `0000` for the cats.
    pub fn null_move(&self) -> Self {
        if self.turn == Side::Cats {
            return self.play(Move::PASS);
        }
        let mut next = *self;
        let keys = crate::chess::zobrist::keys();
        if let (true, Some(ep)) = (self.ep_in_key, self.ep) {
            next.key ^= keys.ep_file(ep.file());
        }
        next.ep = None;
        next.ep_in_key = false;
        next.key ^= keys.side(self.turn);
        next.turn = match self.turn {
            Side::White => Side::Black,
            Side::Black if V::CATS => Side::Cats,
            _ => Side::White,
        };
        next.key ^= keys.side(next.turn);
        next
    }

    /// Whether white's or black's move `m` checks the other army's king
    /// (judged right after the move: for black that is before the cats,
    /// whose step may still lift or give the check).
    ///
    /// Playing the move decides it; most moves are first ruled out without
    /// (the search asks it of every quiet move it would prune or drop, to
    /// keep the checks): a plain move checks only if the piece on its
    /// destination sees the king's square on an empty board, or its origin
    /// is on a line through the king (a piece behind it may be unmasked), or
    /// the king was already attacked before it (in Cat Chess a cat's step
    /// may re-arm a piece that aims at it). Castling, en passant and
    /// promotions are always played.
    pub fn gives_check(&self, m: Move) -> bool {
        let Some(us) = self.turn.color() else {
            return false;
        };
        if m.kind() == MoveKind::Normal {
            let (from, to) = (m.from(), m.to());
            let king = self.king(us.other());
            let may_see = match self.role_on(from) {
                Some(Role::Pawn) => attacks::pawn(us, to).contains(king),
                Some(Role::Knight) => attacks::knight(to).contains(king),
                Some(Role::Bishop) => attacks::bishop(to, Bitboard::EMPTY).contains(king),
                Some(Role::Rook) => attacks::rook(to, Bitboard::EMPTY).contains(king),
                Some(Role::Queen) => attacks::queen(to, Bitboard::EMPTY).contains(king),
                _ => false,
            };
            let unmasks = attacks::line(from, king).any();
            // Asked last: it is the one test that works out attacks.
            let already = || V::CATS && self.checkers_of(us.other()).any();
            if !(may_see || unmasks || already()) {
                return false;
            }
        }
        self.play(m).checkers_of(us.other()).any()
    }

    /// Whether `color` has a piece other than pawns and its king: positions
    /// without one are where zugzwang makes null-move pruning unsound.
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        (self.by_color(color) - self.by_role(Role::Pawn) - self.by_role(Role::King)).any()
    }

    /// Static exchange evaluation: whether the exchange sequence on the
    /// move's destination, each side recapturing with its least valuable
    /// armed piece, gains at least `threshold` for the mover. The zone is
    /// taken as it stands (the cats' steps between turns are not foreseen);
    /// a destination inside Z can never be captured on.
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let (from, to) = (m.from(), m.to());
        let zone = self.zone();
        let Some(mover) = self.role_on(from) else {
            return threshold <= 0;
        };
        if matches!(m.kind(), MoveKind::Castle | MoveKind::Cat) || zone.contains(to) {
            return threshold <= 0;
        }
        let victim = self.captured_role(m).map_or(0, |r| SEE_VALUE[r.index()]);
        let mut swap = victim - threshold;
        if swap < 0 {
            return false;
        }
        swap = SEE_VALUE[mover.index()] - swap;
        if swap <= 0 {
            return true;
        }
        let mut occupied = self.occupied() ^ Bitboard::from(from) ^ Bitboard::from(to);
        if m.kind() == MoveKind::EnPassant {
            occupied ^= Bitboard::from(catchess_core::Square::from_coords(to.file(), from.rank()));
        }
        let armed = (self.colors[0] | self.colors[1]) - zone;
        let diag = self.by_role(Role::Bishop) | self.by_role(Role::Queen);
        let orth = self.by_role(Role::Rook) | self.by_role(Role::Queen);
        let mut attackers = self.attackers(to, occupied, armed);
        let mut side = self.turn.color().map_or(Color::White, Color::other);
        let mut result = true;
        loop {
            attackers &= occupied;
            let ours = attackers & self.by_color(side);
            if ours.is_empty() {
                break;
            }
            result = !result;
            let role = Role::ALL.into_iter().find(|r| (ours & self.by_role(*r)).any()).expect("ours is not empty");
            swap = SEE_VALUE[role.index()] - swap;
            if swap < result as i32 {
                break;
            }
            if role == Role::King {
                // The king may only take last: if the other side still has
                // an attacker, the capture was illegal and the result flips.
                if (attackers & self.by_color(side.other())).any() {
                    result = !result;
                }
                break;
            }
            occupied ^= Bitboard::from((ours & self.by_role(role)).single());
            // Sliders behind the piece that just left join in (x-rays).
            if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
                attackers |= attacks::bishop(to, occupied) & diag & armed;
            }
            if matches!(role, Role::Rook | Role::Queen) {
                attackers |= attacks::rook(to, occupied) & orth & armed;
            }
            side = side.other();
        }
        result
    }

    /// The cat steps that can change the next white move's captures: those
    /// that bring an armed white piece able to capture, or the black piece
    /// it would take, into the zone. Quiescence search tries these (and a
    /// pass standing for every quiet cat step) at the cats' turn.
    pub fn tactical_cat_moves(&self, list: &mut MoveList<Move>) {
        if self.turn != Side::Cats {
            return;
        }
        let zone = self.zone();
        let occupied = self.occupied();
        let victims = self.by_color(Color::Black) - zone - self.by_role(Role::King);
        let mut hot = Bitboard::EMPTY;
        for from in self.armed(Color::White) {
            let reach = match self.role_on(from) {
                Some(Role::Pawn) => attacks::pawn(Color::White, from),
                Some(Role::Knight) => attacks::knight(from),
                Some(Role::Bishop) => attacks::bishop(from, occupied),
                Some(Role::Rook) => attacks::rook(from, occupied),
                Some(Role::Queen) => attacks::queen(from, occupied),
                _ => attacks::king(from),
            };
            let hit = reach & victims;
            if hit.any() {
                hot |= hit | Bitboard::from(from);
            }
        }
        if hot.is_empty() {
            return;
        }
        let empty = !occupied;
        for cat in self.cats {
            for to in attacks::king(cat) & empty {
                if (Bitboard::from(to).dilate() & hot).any() {
                    list.push(Move::cat(cat, to));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{CatChess, Chess};
    use crate::Notation;

    fn see(fen: &str, m: &str, threshold: i32) -> bool {
        let pos = CatChess::from_fen(fen).unwrap();
        let mv = pos.parse_move(m).unwrap();
        pos.see_ge(mv, threshold)
    }

    #[test]
    fn exchanges_count_only_armed_recapturers() {
        // Rxe5 wins a pawn; the d6 pawn recaptures: rook for pawn, a loss.
        let defended = "4k3/8/3p4/4p3/8/8/8/4RK2 w - - 0 1";
        assert!(!see(defended, "e1e5", 0));
        assert!(see(defended, "e1e5", -500));
        // The same pawn disarmed by a cat on c7: the capture wins a pawn.
        let disarmed = "4k3/2*5/3p4/4p3/8/8/8/4RK2 w - - 0 1";
        assert!(see(disarmed, "e1e5", 100));
        assert!(!see(disarmed, "e1e5", 101));
    }

    #[test]
    fn x_rays_and_quiet_moves_into_the_zone() {
        // Two rooks against one defender: R takes, R recaptures, R takes back.
        assert!(see("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100));
        // A knight stepping next to a cat can never be taken there.
        assert!(see("4k3/8/8/4p3/8/3*4/8/1N2K3 w - - 0 1", "b1c3", 0));
        let chess = Chess::from_fen("4k3/8/8/4p3/8/8/8/1N2K3 w - - 0 1").unwrap();
        assert!(chess.see_ge(chess.parse_move("b1d2").unwrap(), 0));
    }

    #[test]
    fn the_null_move_keeps_the_key_exact() {
        let pos = CatChess::from_fen("4k3/8/8/8/3pP3/8/8/4K2* b - e3 0 1").unwrap();
        let null = pos.null_move();
        assert_eq!(null.side_to_move(), crate::chess::Side::Cats);
        assert_eq!(null.ep_square(), None);
        assert_eq!(null.key(), null.compute_key());
        let cats = CatChess::from_fen("4k3/8/8/4Pp2/8/8/8/4K2* c - f6 0 1").unwrap();
        let pass = cats.null_move();
        assert_eq!(pass.ep_square(), cats.ep_square(), "the cats' pass keeps the en passant right");
        assert_eq!(pass.key(), pass.compute_key());
    }

    #[test]
    fn tactical_cat_steps_are_those_touching_a_capture() {
        // White's Re1 can take the e5 pawn; the cat on h8 is far, the cat on
        // c4 can step to d4 or d5 (zone reaching e5) or d3... (zone reaching e2? no).
        let pos = CatChess::from_fen("4k2*/8/8/4p3/2*5/8/8/4RK2 c - - 0 1").unwrap();
        let mut list = catchess_game::MoveList::default();
        pos.tactical_cat_moves(&mut list);
        let mut got: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        got.sort();
        assert_eq!(got, ["c4d4", "c4d5"]);
    }

    /// `gives_check` rules most moves out without playing them; over the
    /// positions of random games of chess and Cat Chess, it must say what
    /// playing the move says, for every move of white and black.
    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        use catchess_game::{Game, MoveList};
        use rand::{rngs::StdRng, Rng, SeedableRng};

        fn walk<G: Game + Copy>(start: G, seed: u64, check: impl Fn(&G, G::Move) -> Option<(bool, bool)>) -> usize {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut checks = 0;
            for _ in 0..200 {
                let mut pos = start;
                for _ in 0..120 {
                    let mut list = MoveList::default();
                    pos.legal_moves(&mut list);
                    if list.is_empty() {
                        break;
                    }
                    for &m in list.iter() {
                        if let Some((fast, played)) = check(&pos, m) {
                            assert_eq!(fast, played, "{m:?} in {pos:?}");
                            checks += fast as usize;
                        }
                    }
                    pos = pos.play(list.as_slice()[rng.gen_range(0..list.len())]);
                }
            }
            checks
        }
        let chess = walk(Chess::startpos(), 1, |p: &Chess, m| {
            let us = p.side_to_move().color()?;
            Some((p.gives_check(m), p.play(m).checkers_of(us.other()).any()))
        });
        let cats = walk(CatChess::startpos(), 2, |p: &CatChess, m| {
            let us = p.side_to_move().color()?;
            Some((p.gives_check(m), p.play(m).checkers_of(us.other()).any()))
        });
        assert!(chess > 1000 && cats > 100, "checks seen: chess {chess}, Cat Chess {cats}");
    }
}
