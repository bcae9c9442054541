//! Legal move generation for white, black and the cats.
//!
//! One generator produces batches "from this square to these squares" with
//! every rule already applied (capture ban, armed-only checks and pins,
//! castling through threats, en passant). Listing moves and counting them
//! (perft's bulk count at the last ply) both consume the same batches, so
//! each rule lives in exactly one place.

use super::{castling, Position, Variant};
use catchess_core::{Bitboard, Color, Square};
use catchess_game::MoveList;
use crate::chess::attacks;
use crate::chess::moves::Move;
use crate::chess::types::{Role, Side};

/// What a batch's destinations mean.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Family {
    /// Plain moves and captures.
    Plain,
    /// Pawn moves to the last rank: four moves per destination.
    Promotions,
    EnPassant,
    Castle,
    Cat,
    /// Pawn moves of many pawns: each destination's origin is `delta`
    /// squares back (`from` unused); with `promotion`, four moves each.
    Pawns {
        delta: i8,
        promotion: bool,
    },
    /// The cats' pass (`from`/`to` unused).
    Pass,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Batch {
    pub from: Square,
    pub to: Bitboard,
    pub family: Family,
}

struct CastleRule {
    right: u8,
    king_from: Square,
    king_to: Square,
    rook_from: Square,
    rook_to: Square,
}

const CASTLES: [[CastleRule; 2]; 2] = [
    [
        CastleRule {
            right: castling::WHITE_KING,
            king_from: Square::E1,
            king_to: Square::G1,
            rook_from: Square::H1,
            rook_to: Square::F1,
        },
        CastleRule {
            right: castling::WHITE_QUEEN,
            king_from: Square::E1,
            king_to: Square::C1,
            rook_from: Square::A1,
            rook_to: Square::D1,
        },
    ],
    [
        CastleRule {
            right: castling::BLACK_KING,
            king_from: Square::E8,
            king_to: Square::G8,
            rook_from: Square::H8,
            rook_to: Square::F8,
        },
        CastleRule {
            right: castling::BLACK_QUEEN,
            king_from: Square::E8,
            king_to: Square::C8,
            rook_from: Square::A8,
            rook_to: Square::D8,
        },
    ],
];

/// Where the rook of a castling move (given by the king's squares) goes.
pub(crate) fn castle_rook(king_to: Square) -> (Square, Square) {
    let rule = CASTLES.iter().flatten().find(|r| r.king_to == king_to).expect("castling lands on c/g of rank 1 or 8");
    (rule.rook_from, rule.rook_to)
}

/// The castling rights a move from or onto each square removes (the homes of
/// the kings and rooks).
const RIGHTS_LOST: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut i = 0;
    while i < 4 {
        let rule = &CASTLES[i / 2][i % 2];
        table[rule.king_from.index()] |= rule.right;
        table[rule.rook_from.index()] |= rule.right;
        i += 1;
    }
    table
};

#[inline(always)]
pub(crate) fn rights_lost(sq: Square) -> u8 {
    RIGHTS_LOST[sq.index()]
}

/// The castling right's king and rook home squares (for FEN validation).
pub(crate) fn castle_homes(right: u8) -> (Square, Square) {
    let rule = CASTLES.iter().flatten().find(|r| r.right == right).expect("a single right");
    (rule.king_from, rule.rook_from)
}

/// Appends the moves of one batch.
fn push_batch(list: &mut MoveList<Move>, batch: Batch) {
    match batch.family {
        Family::Plain => batch.to.into_iter().for_each(|to| list.push(Move::normal(batch.from, to))),
        Family::Promotions => batch.to.into_iter().for_each(|to| push_promotions(list, batch.from, to)),
        Family::Pawns { delta, promotion } => {
            for to in batch.to {
                let from = Square::from_index_unchecked((to.index() as i32 - delta as i32) as u32);
                if promotion {
                    push_promotions(list, from, to);
                } else {
                    list.push(Move::normal(from, to));
                }
            }
        }
        Family::EnPassant => batch.to.into_iter().for_each(|to| list.push(Move::en_passant(batch.from, to))),
        Family::Castle => batch.to.into_iter().for_each(|to| list.push(Move::castle(batch.from, to))),
        Family::Cat => batch.to.into_iter().for_each(|to| list.push(Move::cat(batch.from, to))),
        Family::Pass => list.push(Move::PASS),
    }
}

fn push_promotions(list: &mut MoveList<Move>, from: Square, to: Square) {
    for role in Role::PROMOTIONS {
        list.push(Move::promotion(from, to, role));
    }
}

#[inline(always)]
fn forward(color: Color, b: Bitboard) -> Bitboard {
    match color {
        Color::White => b.north(),
        Color::Black => b.south(),
    }
}

impl<V: Variant> Position<V> {
    /// Every legal move of the side to move, appended to `list`.
    pub fn legal_moves(&self, list: &mut MoveList<Move>) {
        self.for_each_batch(|batch| push_batch(list, batch));
    }

    /// The legal captures and promotions of white or black (en passant
    /// included, castling and other quiet moves not): what quiescence search
    /// looks at. Nothing for the cats.
    pub fn tactical_moves(&self, list: &mut MoveList<Move>) {
        if let Some(us) = self.turn.color() {
            self.army_batches::<true>(us, &mut |batch| push_batch(list, batch));
        }
    }

    /// The number of legal moves, counted without building them.
    pub fn count_legal_moves(&self) -> u64 {
        let mut n = 0u64;
        self.for_each_batch(|batch| {
            n += match batch.family {
                Family::Promotions | Family::Pawns { promotion: true, .. } => 4 * batch.to.count() as u64,
                Family::Pass => 1,
                _ => batch.to.count() as u64,
            }
        });
        n
    }

    /// Whether the side to move has any legal move (the cats always do: at
    /// worst the pass).
    pub fn has_legal_move(&self) -> bool {
        // Counting is cheap enough; game-end checks are not on the hot path.
        self.count_legal_moves() > 0
    }

    #[inline(always)]
    pub(crate) fn for_each_batch(&self, mut emit: impl FnMut(Batch)) {
        match self.turn {
            Side::White => self.army_batches::<false>(Color::White, &mut emit),
            Side::Black => self.army_batches::<false>(Color::Black, &mut emit),
            Side::Cats => self.cat_batches(&mut emit),
        }
    }

    /// Cats step one square onto an empty square; with no step, they pass.
    #[inline(always)]
    fn cat_batches(&self, emit: &mut impl FnMut(Batch)) {
        let empty = !self.occupied();
        let mut moved = false;
        for cat in self.cats {
            let to = attacks::king(cat) & empty;
            if to.any() {
                moved = true;
                emit(Batch { from: cat, to, family: Family::Cat });
            }
        }
        if !moved {
            emit(Batch { from: Square::A1, to: Bitboard::EMPTY, family: Family::Pass });
        }
    }

    /// Our pieces pinned to our king by an armed enemy slider. A king in Z
    /// cannot be checked at all, so nothing is pinned to it.
    #[inline(always)]
    fn pinned(&self, us: Color, king: Square, occupied: Bitboard, armed_theirs: Bitboard) -> Bitboard {
        let diag = self.by_role(Role::Bishop) | self.by_role(Role::Queen);
        let orth = self.by_role(Role::Rook) | self.by_role(Role::Queen);
        let snipers = ((attacks::bishop(king, Bitboard::EMPTY) & diag) | (attacks::rook(king, Bitboard::EMPTY) & orth))
            & armed_theirs;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & occupied;
            if !blockers.has_many() {
                pinned |= blockers & self.by_color(us);
            }
        }
        pinned
    }

    /// White's or black's legal moves; with `TACTICAL`, only captures and
    /// promotions (the quiet part of every rule below is masked away, so
    /// quiescence and full generation share each rule's code).
    #[inline(always)]
    fn army_batches<const TACTICAL: bool>(&self, us: Color, emit: &mut impl FnMut(Batch)) {
        let them = us.other();
        let zone = self.zone();
        let occupied = self.occupied();
        let ours = self.by_color(us);
        let king = self.king(us);
        let armed_theirs = self.by_color(them) - zone;
        let king_in_zone = zone.contains(king);
        // Capture ban: the victim must stand outside Z, and kings are never
        // captured. (The mover's side of the ban is applied per piece below.)
        let victims = armed_theirs - self.by_role(Role::King);
        let checkers = if king_in_zone { Bitboard::EMPTY } else { self.attackers(king, occupied, armed_theirs) };

        // King steps: onto empty squares or captures (if the king itself is
        // armed), never onto a threatened square. The king leaves its square,
        // so it does not shield squares behind it from a checking slider.
        let king_victims = if king_in_zone { Bitboard::EMPTY } else { victims };
        let without_king = occupied - Bitboard::from(king);
        let mut king_to = Bitboard::EMPTY;
        let king_quiet = if TACTICAL { Bitboard::EMPTY } else { !occupied };
        for to in attacks::king(king) & (king_quiet | king_victims) {
            if zone.contains(to) || self.attackers(to, without_king, armed_theirs).is_empty() {
                king_to.set(to);
            }
        }
        if king_to.any() {
            emit(Batch { from: king, to: king_to, family: Family::Plain });
        }
        if checkers.has_many() {
            return;
        }

        let check_mask = match checkers.first() {
            Some(checker) => attacks::between(king, checker) | checkers,
            None => Bitboard::FULL,
        };
        let pinned = if king_in_zone { Bitboard::EMPTY } else { self.pinned(us, king, occupied, armed_theirs) };
        let captures = victims & check_mask;
        let third_rank = Bitboard::rank(if us == Color::White { 2 } else { 5 });
        let last_rank = Bitboard::rank(if us == Color::White { 6 } else { 1 });
        let promotion_rank = Bitboard::rank(if us == Color::White { 7 } else { 0 });
        // Quiet destinations: every empty square, or for tactical moves only
        // pushes onto the last rank (promotions).
        let push_targets = !occupied & check_mask & if TACTICAL { promotion_rank } else { Bitboard::FULL };
        let quiet = if TACTICAL { Bitboard::EMPTY } else { push_targets };
        let pin_mask = |from: Square| {
            if pinned.contains(from) {
                attacks::line(king, from)
            } else {
                Bitboard::FULL
            }
        };

        // Armed pieces may capture; disarmed ones (in Z) only move quietly.
        // In standard chess the second group is empty and the loop costs one
        // test of an empty set.
        for (group, targets) in [(ours - zone, quiet | captures), (ours & zone, quiet)] {
            for from in group & (self.by_role(Role::Knight) - pinned) {
                emit(Batch { from, to: attacks::knight(from) & targets, family: Family::Plain });
            }
            for from in group & (self.by_role(Role::Bishop) | self.by_role(Role::Queen)) {
                let to = attacks::bishop(from, occupied) & targets & pin_mask(from);
                emit(Batch { from, to, family: Family::Plain });
            }
            for from in group & (self.by_role(Role::Rook) | self.by_role(Role::Queen)) {
                let to = attacks::rook(from, occupied) & targets & pin_mask(from);
                emit(Batch { from, to, family: Family::Plain });
            }
            // Pinned pawns one at a time: their moves stay on the pin line.
            let pawn_victims = targets & victims;
            for from in group & self.by_role(Role::Pawn) & pinned {
                let one = forward(us, from.into()) & !occupied;
                let two = forward(us, one & third_rank) & !occupied;
                let to = ((one | two) & push_targets | attacks::pawn(us, from) & pawn_victims) & pin_mask(from);
                let family = if last_rank.contains(from) { Family::Promotions } else { Family::Plain };
                emit(Batch { from, to, family });
            }
        }

        // Every other pawn at once, by shifting the whole set: each batch is
        // the destinations of one kind of pawn move, the origin being the
        // destination minus a fixed step.
        let free_pawns = self.pieces(us, Role::Pawn) - pinned;
        let one = forward(us, free_pawns) & !occupied;
        let two = forward(us, one & third_rank) & push_targets;
        let capturers = free_pawns - zone;
        let (west, east) = match us {
            Color::White => {
                (Bitboard((capturers - Bitboard::FILE_A).0 << 7), Bitboard((capturers - Bitboard::FILE_H).0 << 9))
            }
            Color::Black => {
                (Bitboard((capturers - Bitboard::FILE_A).0 >> 9), Bitboard((capturers - Bitboard::FILE_H).0 >> 7))
            }
        };
        let step = if us == Color::White { 8 } else { -8 };
        for (to, delta) in
            [(one & push_targets, step), (two, 2 * step), (west & captures, step - 1), (east & captures, step + 1)]
        {
            for (to, promotion) in [(to - promotion_rank, false), (to & promotion_rank, true)] {
                if to.any() {
                    emit(Batch { from: Square::A1, to, family: Family::Pawns { delta, promotion } });
                }
            }
        }

        if let Some(ep) = self.ep {
            for from in self.en_passant_origins(us) {
                emit(Batch { from, to: ep.into(), family: Family::EnPassant });
            }
        }

        if checkers.is_empty() && !TACTICAL {
            for rule in &CASTLES[us.index()] {
                if self.castling & rule.right == 0 || (attacks::between(king, rule.rook_from) & occupied).any() {
                    continue;
                }
                // The passed-over square is judged before the move, king on
                // its origin; the landing square after it, rook moved too.
                let passed = attacks::between(rule.king_from, rule.king_to).single();
                let after = occupied
                    ^ Bitboard::from(rule.king_from)
                    ^ rule.king_to.into()
                    ^ rule.rook_from.into()
                    ^ rule.rook_to.into();
                if self.threatened_by(them, passed, occupied) || self.threatened_by(them, rule.king_to, after) {
                    continue;
                }
                emit(Batch { from: king, to: rule.king_to.into(), family: Family::Castle });
            }
        }
    }

    /// Origins of `us`'s legal en passant captures. The capture ban covers
    /// the origin, the victim's square and the destination; legality is
    /// checked on the board after the capture, since removing two pawns from
    /// one rank can open a line to the king.
    pub(crate) fn en_passant_origins(&self, us: Color) -> Bitboard {
        let Some(ep) = self.ep else {
            return Bitboard::EMPTY;
        };
        let them = us.other();
        let (capture_rank, victim) = match us {
            Color::White => (5, ep.offset(0, -1)),
            Color::Black => (2, ep.offset(0, 1)),
        };
        let Some(victim) = victim else {
            return Bitboard::EMPTY;
        };
        let zone = self.zone();
        if ep.rank() != capture_rank || zone.contains(ep) || zone.contains(victim) {
            return Bitboard::EMPTY;
        }
        let king = self.king(us);
        let candidates = attacks::pawn(them, ep) & (self.pieces(us, Role::Pawn) - zone);
        if zone.contains(king) {
            return candidates;
        }
        let threats = self.armed(them) - Bitboard::from(victim);
        let mut legal = Bitboard::EMPTY;
        for from in candidates {
            let after = (self.occupied() - Bitboard::from(from) - Bitboard::from(victim)) | ep.into();
            if self.attackers(king, after, threats).is_empty() {
                legal.set(from);
            }
        }
        legal
    }
}
