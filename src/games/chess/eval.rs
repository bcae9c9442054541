//! Evaluation of the 8×8 games, chess and Cat Chess, in one code path.
//!
//! The Cat Chess rules enter where they change what a piece can do: only
//! armed pieces (outside the no-kill zone Z) attack, threaten or press on a
//! king, and nothing in Z can be captured, so mobility, threats and king
//! danger all count armed attacks on squares outside Z. In chess Z is the
//! empty set and those masks cost nothing.
//!
//! On top of that sits one Cat Chess idea: a king beside a cat cannot be
//! checked, so it cannot be mated while it stays there, and a draw is the
//! cats' win. The closer the losing side's king is to a cat, the less its
//! opponent's advantage is worth (`convertibility`). That scaling is what
//! draws the cats (who want the score near zero) towards the weaker king,
//! and the stronger side away from letting it happen.

use crate::core::Tapered;
use crate::core::{Bitboard, Color, Square};
use crate::games::chess::attacks;
use crate::games::chess::position::{Position, Variant};
use crate::games::chess::types::{Role, Side};
use crate::search::Evaluate;
use std::fmt::Write;

/// Game phase weights: 24 with every minor, rook and queen on the board.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
const PHASE_MAX: i32 = 24;

const MATERIAL: [Tapered; 6] = [
    Tapered::new(82, 100),
    Tapered::new(330, 300),
    Tapered::new(350, 320),
    Tapered::new(470, 540),
    Tapered::new(1000, 980),
    Tapered::new(0, 0),
];

/// Mobility per reachable square (relative to a typical count) for knight,
/// bishop, rook and queen.
const MOBILITY: [(Tapered, i32); 4] =
    [(Tapered::new(4, 4), 4), (Tapered::new(5, 5), 6), (Tapered::new(3, 6), 6), (Tapered::new(2, 4), 12)];

const BISHOP_PAIR: Tapered = Tapered::new(30, 50);
const ROOK_OPEN_FILE: Tapered = Tapered::new(25, 10);
const ROOK_HALF_OPEN_FILE: Tapered = Tapered::new(10, 8);
const DOUBLED_PAWN: Tapered = Tapered::new(-10, -25);
const ISOLATED_PAWN: Tapered = Tapered::new(-12, -15);
/// Passed pawn by rank (from its own side), ranks 1..8.
const PASSED: [Tapered; 8] = [
    Tapered::new(0, 0),
    Tapered::new(5, 10),
    Tapered::new(10, 20),
    Tapered::new(15, 35),
    Tapered::new(25, 60),
    Tapered::new(45, 100),
    Tapered::new(70, 150),
    Tapered::new(0, 0),
];
const PAWN_THREAT: Tapered = Tapered::new(45, 35);
const MINOR_THREAT: Tapered = Tapered::new(30, 30);
const ROOK_THREAT: Tapered = Tapered::new(25, 20);
const HANGING: Tapered = Tapered::new(25, 20);
const SHIELD_PAWN_MISSING: i32 = -12;
const TEMPO: i32 = 12;
/// King-attack weight of a knight, bishop, rook and queen hitting the ring.
const KING_ATTACK_WEIGHT: [i32; 4] = [2, 2, 3, 5];

/// Share of an advantage (in 1/64) that survives when a cat is this many
/// cat moves from sheltering the losing king (0: it already does; beside a
/// cat a king cannot be checked at all). Index 4 also means "never": no
/// cat, or no empty square next to the king for a cat to step onto.
const CAT_SHELTER: [i32; 5] = [32, 45, 55, 60, 64];

/// How many cat moves until a cat stands next to `king`: 0 if one does,
/// else the fewest king steps from a cat to an empty square beside the
/// king (a cat can only step onto empty squares), capped at 4. A king
/// walled in by pieces cannot be sheltered: that is where mates happen.
fn cat_steps_to_shelter<V: Variant>(pos: &Position<V>, king: Square) -> usize {
    let cats = pos.cats();
    let around = attacks::king(king);
    if (cats & around).any() {
        return 0;
    }
    let landings = around - pos.occupied();
    let mut best = 4;
    for cat in cats {
        for sq in landings {
            best = best.min(distance(cat, sq) as usize);
        }
    }
    best.clamp(1, 4)
}

/// Piece-square tables built from a few rules (centralise knights and
/// bishops, advance and centralise pawns, keep the king sheltered until the
/// endgame), from white's side; black reads them with the rank mirrored.
/// Computed at compile time.
const PST: [[Tapered; 64]; 6] = build_pst();

const fn build_pst() -> [[Tapered; 64]; 6] {
    const fn min(a: i32, b: i32) -> i32 {
        if a < b {
            a
        } else {
            b
        }
    }
    let mut t = [[Tapered::new(0, 0); 64]; 6];
    let mut i = 0;
    while i < 64 {
        let (f, r) = ((i % 8) as i32, (i / 8) as i32);
        let cf = min(f, 7 - f);
        let center = cf + min(r, 7 - r);
        let pawn_mg = [0, 0, 2, 6, 14, 28, 50, 0][r as usize] + if cf == 3 && (r == 3 || r == 4) { 12 } else { 0 };
        let pawn_eg = [0, 0, 5, 12, 25, 45, 80, 0][r as usize];
        t[0][i] = Tapered::new(pawn_mg, pawn_eg);
        t[1][i] = Tapered::new(-50 + 10 * center, -40 + 8 * center);
        t[2][i] = Tapered::new(-20 + 5 * center - if r == 0 { 10 } else { 0 }, -15 + 4 * center);
        t[3][i] = Tapered::new(if r == 6 { 20 } else { 0 } + if cf >= 2 { 5 } else { 0 }, if r == 6 { 10 } else { 0 });
        t[4][i] = Tapered::new(-5 + 2 * center, -20 + 6 * center);
        let king_mg = match r {
            0 => [20, 30, 10, 0, 0, 10, 30, 20][f as usize],
            1 => [-5, -5, -10, -20, -20, -10, -5, -5][f as usize],
            _ => {
                let v = -30 - 10 * (r - 2);
                if v < -70 {
                    -70
                } else {
                    v
                }
            }
        };
        t[5][i] = Tapered::new(king_mg, -50 + 12 * center);
        i += 1;
    }
    t
}

/// The terms of the evaluation, in the order `eval` lists them.
#[derive(Clone, Copy)]
enum Term {
    Material,
    Placement,
    Mobility,
    KingSafety,
    Pawns,
    Passers,
    Threats,
    Pieces,
}

const TERMS: [(Term, &str); 8] = [
    (Term::Material, "material"),
    (Term::Placement, "placement"),
    (Term::Mobility, "mobility"),
    (Term::KingSafety, "king safety"),
    (Term::Pawns, "pawn structure"),
    (Term::Passers, "passed pawns"),
    (Term::Threats, "threats"),
    (Term::Pieces, "pieces"),
];

/// Sums terms per colour; with `TRACE` it also keeps each term for the
/// breakdown (compiled out of the search's evaluation).
struct Acc<const TRACE: bool> {
    total: [Tapered; 2],
    terms: [[Tapered; 8]; 2],
}

impl<const TRACE: bool> Acc<TRACE> {
    fn new() -> Self {
        Acc { total: [Tapered::default(); 2], terms: [[Tapered::default(); 8]; 2] }
    }

    #[inline(always)]
    fn add(&mut self, color: Color, term: Term, v: Tapered) {
        self.total[color.index()] += v;
        if TRACE {
            self.terms[color.index()][term as usize] += v;
        }
    }
}

/// What one colour's pieces attack, gathered once and shared by the terms.
struct Attacks {
    /// Squares attacked by armed pieces, outside Z (what can be captured on).
    all: Bitboard,
    pawns: Bitboard,
    minors: Bitboard,
    rooks: Bitboard,
}

fn pawn_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    match color {
        Color::White => Bitboard((pawns - Bitboard::FILE_A).0 << 7) | Bitboard((pawns - Bitboard::FILE_H).0 << 9),
        Color::Black => Bitboard((pawns - Bitboard::FILE_A).0 >> 9) | Bitboard((pawns - Bitboard::FILE_H).0 >> 7),
    }
}

/// Squares in front of `sq` on its file, from `color`'s side.
fn front_span(color: Color, sq: Square) -> Bitboard {
    let file = Bitboard::file(sq.file());
    match color {
        Color::White => Bitboard(file.0 & !((2u64 << sq.index()) - 1)),
        Color::Black => Bitboard(file.0 & ((1u64 << sq.index()) - 1)),
    }
}

fn adjacent_files(sq: Square) -> Bitboard {
    let f = sq.file();
    let mut b = Bitboard::EMPTY;
    if f > 0 {
        b |= Bitboard::file(f - 1);
    }
    if f < 7 {
        b |= Bitboard::file(f + 1);
    }
    b
}

fn relative_rank(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.rank() as usize,
        Color::Black => 7 - sq.rank() as usize,
    }
}

fn pst_index(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.index(),
        Color::Black => sq.flip_rank().index(),
    }
}

fn distance(a: Square, b: Square) -> i32 {
    (a.file().abs_diff(b.file())).max(a.rank().abs_diff(b.rank())) as i32
}

struct Evaluation {
    /// Blended score from white's view before scaling.
    raw: i32,
    /// In 1/64: the share of the advantage that counts.
    scale: i32,
    scale_reason: &'static str,
    phase: i32,
    tempo: i32,
    /// Final score, white's view.
    score: i32,
}

fn evaluate<V: Variant, const TRACE: bool>(pos: &Position<V>, acc: &mut Acc<TRACE>) -> Evaluation {
    let zone = pos.zone();
    let occupied = pos.occupied();
    let mut phase = 0;
    for role in Role::ALL {
        phase += PHASE_WEIGHT[role.index()] * pos.by_role(role).count() as i32;
    }
    let phase = phase.min(PHASE_MAX);

    let pawn_att = [
        pawn_attacks(Color::White, pos.pieces(Color::White, Role::Pawn) - zone) - zone,
        pawn_attacks(Color::Black, pos.pieces(Color::Black, Role::Pawn) - zone) - zone,
    ];
    let mut att = [
        Attacks { all: pawn_att[0], pawns: pawn_att[0], minors: Bitboard::EMPTY, rooks: Bitboard::EMPTY },
        Attacks { all: pawn_att[1], pawns: pawn_att[1], minors: Bitboard::EMPTY, rooks: Bitboard::EMPTY },
    ];
    let mut king_units = [0i32; 2];
    let mut king_attackers = [0i32; 2];

    for color in Color::BOTH {
        let them = color.other();
        let ours = pos.by_color(color);
        let enemy_king_ring = (attacks::king(pos.king(them)) | Bitboard::from(pos.king(them))) - zone;
        // Sums kept in locals (registers) and added to the accumulator once.
        let (mut material, mut placement, mut mobility) = (Tapered::default(), Tapered::default(), Tapered::default());
        for role in Role::ALL {
            let pieces = pos.pieces(color, role);
            material += MATERIAL[role.index()] * pieces.count() as i32;
            for sq in pieces {
                placement += PST[role.index()][pst_index(color, sq)];
                let reach = match role {
                    Role::Knight => attacks::knight(sq),
                    Role::Bishop => attacks::bishop(sq, occupied),
                    Role::Rook => attacks::rook(sq, occupied),
                    Role::Queen => attacks::queen(sq, occupied),
                    _ => continue,
                };
                let armed = !zone.contains(sq);
                let k = role.index() - 1;
                // A disarmed piece only moves quietly; an armed one also
                // captures, but only outside Z.
                let moves = if armed { (reach - ours - zone) | (reach & (zone - occupied)) } else { reach - occupied };
                let safe = moves - pawn_att[them.index()];
                let (weight, typical) = MOBILITY[k];
                mobility += weight * (safe.count() as i32 - typical);
                if armed {
                    let hits = reach - zone;
                    att[color.index()].all |= hits;
                    match role {
                        Role::Knight | Role::Bishop => att[color.index()].minors |= hits,
                        Role::Rook => att[color.index()].rooks |= hits,
                        _ => {}
                    }
                    let ring_hits = (hits & enemy_king_ring).count() as i32;
                    if ring_hits > 0 {
                        king_units[them.index()] += KING_ATTACK_WEIGHT[k] * ring_hits;
                        king_attackers[them.index()] += 1;
                    }
                }
            }
        }
        acc.add(color, Term::Material, material);
        acc.add(color, Term::Placement, placement);
        acc.add(color, Term::Mobility, mobility);
        if pos.pieces(color, Role::Bishop).has_many() {
            acc.add(color, Term::Pieces, BISHOP_PAIR);
        }
        let own_pawns = pos.pieces(color, Role::Pawn);
        let their_pawns = pos.pieces(them, Role::Pawn);
        for rook in pos.pieces(color, Role::Rook) {
            let file = Bitboard::file(rook.file());
            if (file & own_pawns).is_empty() {
                acc.add(
                    color,
                    Term::Pieces,
                    if (file & their_pawns).is_empty() { ROOK_OPEN_FILE } else { ROOK_HALF_OPEN_FILE },
                );
            }
        }
    }
    for color in Color::BOTH {
        let king = pos.king(color);
        let armed_king = !zone.contains(king);
        if armed_king {
            att[color.index()].all |= attacks::king(king) - zone;
        }
    }

    for color in Color::BOTH {
        let them = color.other();
        let own_pawns = pos.pieces(color, Role::Pawn);
        let their_pawns = pos.pieces(them, Role::Pawn);
        for sq in own_pawns {
            let file = Bitboard::file(sq.file());
            if (own_pawns & adjacent_files(sq)).is_empty() {
                acc.add(color, Term::Pawns, ISOLATED_PAWN);
            }
            if (front_span(color, sq) & own_pawns).any() {
                acc.add(color, Term::Pawns, DOUBLED_PAWN);
            }
            let blockers = (file | adjacent_files(sq)) & their_pawns;
            let ahead = front_span(color, sq) | adjacent_front(color, sq);
            if (blockers & ahead).is_empty() && (front_span(color, sq) & own_pawns).is_empty() {
                let rank = relative_rank(color, sq);
                let mut bonus = PASSED[rank];
                let step = if color == Color::White { 8 } else { -8 };
                let front = Square::new((sq.index() as i32 + step) as u8).unwrap_or(sq);
                if occupied.contains(front) {
                    bonus.eg /= 2;
                }
                let weight = rank as i32 - 1;
                bonus.eg += weight * (5 * distance(pos.king(them), front) - 2 * distance(pos.king(color), front));
                acc.add(color, Term::Passers, bonus);
            }
        }

        // King safety: armed attackers on the ring, a missing pawn shield.
        let king = pos.king(color);
        let mut danger = 0;
        if king_attackers[color.index()] >= 2 {
            danger = (king_units[color.index()] * king_units[color.index()] * 2).min(500);
        }
        if zone.contains(king) {
            // Beside a cat the king cannot be checked at all.
            danger = danger * 2 / 5;
        }
        let mut shield = 0;
        if relative_rank(color, king) <= 1 {
            let files = Bitboard::file(king.file()) | adjacent_files(king);
            let near = match color {
                Color::White => Bitboard::rank(king.rank() + 1) | Bitboard::rank(king.rank() + 2),
                Color::Black => Bitboard::rank(king.rank() - 1) | Bitboard::rank(king.rank() - 2),
            };
            let present = (files & near & own_pawns).count() as i32;
            let wanted = files_count(king) as i32;
            shield = SHIELD_PAWN_MISSING * (wanted - present).max(0);
        }
        acc.add(color, Term::KingSafety, Tapered::new(-danger + shield, -danger / 4));

        // Threats by armed pieces on enemy pieces outside Z (those in Z
        // cannot be taken).
        let mine = &att[color.index()];
        let targets = pos.by_color(them) - zone - pos.by_role(Role::King);
        let non_pawns = targets - pos.by_role(Role::Pawn);
        let majors = pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
        acc.add(color, Term::Threats, PAWN_THREAT * (mine.pawns & non_pawns).count() as i32);
        acc.add(color, Term::Threats, MINOR_THREAT * (mine.minors & targets & majors).count() as i32);
        acc.add(color, Term::Threats, ROOK_THREAT * (mine.rooks & targets & pos.by_role(Role::Queen)).count() as i32);
        let undefended = targets - att[them.index()].all;
        acc.add(color, Term::Threats, HANGING * (mine.all & undefended).count() as i32);
    }

    let diff = acc.total[0] - acc.total[1];
    let raw = diff.blend(phase, PHASE_MAX);
    let (scale, scale_reason) = scale_for(pos, raw);
    let tempo = match pos.turn() {
        Side::White => TEMPO,
        Side::Black => -TEMPO,
        Side::Cats => 0,
    };
    let score = raw * scale / 64 + tempo;
    Evaluation { raw, scale, scale_reason, phase, tempo, score }
}

fn files_count(king: Square) -> u32 {
    if king.file() == 0 || king.file() == 7 {
        2
    } else {
        3
    }
}

/// Squares diagonally ahead on the adjacent files, all the way up: where an
/// enemy pawn would stop a pawn from being passed.
fn adjacent_front(color: Color, sq: Square) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    for f in [sq.file().checked_sub(1), (sq.file() < 7).then_some(sq.file() + 1)].into_iter().flatten() {
        b |= front_span(color, Square::from_coords(f, sq.rank()));
    }
    b
}

/// How much of an advantage counts (in 1/64), and why.
fn scale_for<V: Variant>(pos: &Position<V>, raw: i32) -> (i32, &'static str) {
    if pos.insufficient_material() {
        return (0, "insufficient material");
    }
    let (strong, weak) = if raw >= 0 { (Color::White, Color::Black) } else { (Color::Black, Color::White) };
    let non_pawn = |c: Color| -> i32 {
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .into_iter()
            .map(|r| MATERIAL[r.index()].mg * pos.pieces(c, r).count() as i32)
            .sum()
    };
    let mut scale = 64;
    let mut reason = "none";
    if pos.pieces(strong, Role::Pawn).is_empty() && non_pawn(strong) - non_pawn(weak) <= MATERIAL[2].mg {
        scale = 16;
        reason = "no pawns and at most a minor piece ahead";
    }
    if V::CATS {
        let share = CAT_SHELTER[cat_steps_to_shelter(pos, pos.king(weak))];
        if share < 64 {
            scale = scale * share / 64;
            reason = "a cat is at or near the losing king";
        }
    }
    (scale, reason)
}

impl<V: Variant> Evaluate for Position<V> {
    #[inline]
    fn evaluate(&self) -> i32 {
        evaluate::<V, false>(self, &mut Acc::<false>::new()).score
    }

    fn eval_breakdown(&self) -> String {
        let mut acc = Acc::<true>::new();
        let e = evaluate::<V, true>(self, &mut acc);
        let mut s = String::new();
        let _ = writeln!(s, "{:<16}{:>14}{:>14}{:>14}", "term", "white mg/eg", "black mg/eg", "white-black");
        for (term, name) in TERMS {
            let w = acc.terms[0][term as usize];
            let b = acc.terms[1][term as usize];
            let d = (w - b).blend(e.phase, PHASE_MAX);
            let _ = writeln!(
                s,
                "{name:<16}{:>14}{:>14}{:>14}",
                format!("{}/{}", w.mg, w.eg),
                format!("{}/{}", b.mg, b.eg),
                d
            );
        }
        let _ = writeln!(s, "phase: {}/{PHASE_MAX} (24 = all pieces, 0 = pawn ending)", e.phase);
        let _ = writeln!(s, "blended: {} cp", e.raw);
        let _ = writeln!(s, "scale: {}/64 ({})", e.scale, e.scale_reason);
        let _ = writeln!(s, "tempo: {} cp", e.tempo);
        let _ = writeln!(s, "total: {} cp (white's view)", e.score);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{CatChess, Chess};

    fn eval_cat(fen: &str) -> i32 {
        CatChess::from_fen(fen).unwrap().evaluate()
    }

    #[test]
    fn the_start_is_balanced_and_colours_are_symmetric() {
        let start = Chess::startpos().evaluate();
        assert!(start.abs() <= 2 * TEMPO, "{start}");
        // Mirrored positions (colours swapped, side to move swapped) evaluate to the negation.
        let a = Chess::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
        let b = Chess::from_fen("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4").unwrap();
        assert_eq!(a.evaluate(), -b.evaluate());
    }

    #[test]
    fn material_counts() {
        let up_a_rook = Chess::from_fen("4k3/pppppppp/8/8/8/8/PPPPPPPP/R3K3 w - - 0 1").unwrap().evaluate();
        assert!(up_a_rook > 400, "{up_a_rook}");
    }

    #[test]
    fn a_disarmed_attacker_does_not_threaten() {
        // The white knight e5 attacks the black queen d7 (and rook f7); with a
        // cat on e4 it is disarmed and the threats vanish (the other cat idles).
        let armed = eval_cat("*3k3/3q1r2/8/4N3/8/8/8/4K2* w - - 0 1");
        let disarmed = eval_cat("4k3/3q1r2/8/4N3/4*3/8/8/4K2* w - - 0 1");
        assert!(armed > disarmed + 40, "armed {armed}, disarmed {disarmed}");
    }

    #[test]
    fn the_losing_king_beside_a_cat_shrinks_the_advantage() {
        // White is a rook up; the black king far from the cats, then beside one.
        let far = eval_cat("7k/8/8/8/8/8/PPP5/1K1R3* w - - 0 1");
        let near = eval_cat("6*k/8/8/8/8/8/PPP5/1K1R4 w - - 0 1");
        assert!(far > 300 && near > 0 && near * 3 < far * 2, "far {far}, near {near}");
    }

    #[test]
    fn cat_steps_to_shelter_count_moves_to_an_empty_square_beside_the_king() {
        let steps = |fen: &str| {
            let pos = CatChess::from_fen(fen).unwrap();
            cat_steps_to_shelter(&pos, pos.king(Color::Black))
        };
        assert_eq!(steps("6*k/8/8/8/8/8/8/K7 w - - 0 1"), 0, "a cat beside the king");
        assert_eq!(steps("7k/8/8/5*2/8/8/8/K7 w - - 0 1"), 2, "f5 to g7 (or h7) is two cat moves");
        // Walled in by its own pieces, the king cannot be reached at all.
        assert_eq!(steps("5rkr/5ppp/8/4*3/8/8/8/K7 w - - 0 1"), 4);
        assert_eq!(steps("5rk1/5ppp/8/4*3/8/8/8/K7 w - - 0 1"), 3, "only h8 is free, three cat moves from e5");
        assert_eq!(steps("7k/8/8/8/8/8/8/K7 w - - 0 1"), 4, "no cats");
    }

    #[test]
    fn insufficient_material_is_zero() {
        assert_eq!(Chess::from_fen("4k3/8/8/8/8/8/8/2B1K3 b - - 0 1").unwrap().evaluate(), -TEMPO);
    }

    #[test]
    fn the_breakdown_lists_every_term_and_the_total() {
        let text = CatChess::startpos().eval_breakdown();
        for (_, name) in TERMS {
            assert!(text.contains(name), "{name} missing:\n{text}");
        }
        let total: i32 = text
            .lines()
            .find_map(|l| l.strip_prefix("total: "))
            .and_then(|t| t.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap();
        assert_eq!(total, CatChess::startpos().evaluate());
    }
}
