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

use catchess_core::Tapered;
use catchess_core::{Bitboard, Color, Square};
use crate::chess::attacks;
use crate::chess::position::{Position, Variant};
use crate::chess::types::{Role, Side};
use catchess_search::evaluate::{group_of, Accumulator, Evaluate, Trace, Tunable, WeightSet};
use std::fmt::Write;
use weights::WEIGHTS;

#[path = "weights.rs"]
mod weights;

/// Where each group of weights begins in `WEIGHTS` (each weight a
/// (middlegame, endgame) pair, fitted by `catchess tune --variant chess`).
pub mod param {
    /// Pawn, knight, bishop, rook, queen, king.
    pub const MATERIAL: usize = 0;
    /// Per role, 64 squares from white's side (black reads them mirrored).
    pub const PST: usize = MATERIAL + 6;
    /// Per reachable safe square beyond a typical count: knight, bishop, rook, queen.
    pub const MOBILITY: usize = PST + 6 * 64;
    pub const BISHOP_PAIR: usize = MOBILITY + 4;
    pub const ROOK_OPEN_FILE: usize = BISHOP_PAIR + 1;
    pub const ROOK_HALF_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
    pub const DOUBLED_PAWN: usize = ROOK_HALF_OPEN_FILE + 1;
    pub const ISOLATED_PAWN: usize = DOUBLED_PAWN + 1;
    /// A passed pawn by rank from its own side (ranks 1..8), its stop square free...
    pub const PASSED: usize = ISOLATED_PAWN + 1;
    /// ... and blocked.
    pub const PASSED_BLOCKED: usize = PASSED + 8;
    /// Threats: a pawn on a piece, a minor on a rook or queen, a rook on a
    /// queen, anything on an undefended piece.
    pub const PAWN_THREAT: usize = PASSED_BLOCKED + 8;
    pub const MINOR_THREAT: usize = PAWN_THREAT + 1;
    pub const ROOK_THREAT: usize = MINOR_THREAT + 1;
    pub const HANGING: usize = ROOK_THREAT + 1;
    /// King safety, counted for the attacker: squares outside Z from which a
    /// knight, bishop, rook or queen that reaches them would give check,
    /// not attacked by the defender nor held by the attacker's own pieces.
    pub const SAFE_CHECK: usize = HANGING + 1;
    /// Squares beside the enemy king the attacker's armed pieces hit ...
    pub const RING_ATTACKED: usize = SAFE_CHECK + 4;
    /// ... and of those, the ones no defender but the king guards.
    pub const RING_WEAK: usize = RING_ATTACKED + 1;
    /// Counted for the defender: each missing pawn of a home king's shield
    /// (the two ranks in front of it, on its file and the adjacent ones).
    pub const SHIELD_MISSING: usize = RING_WEAK + 1;
    /// A king on a file without pawns, or without pawns of its own.
    pub const KING_OPEN_FILE: usize = SHIELD_MISSING + 1;
    pub const KING_HALF_OPEN_FILE: usize = KING_OPEN_FILE + 1;
    /// Enemy pawns on the king's file and the adjacent ones, by their rank
    /// from the king's side (ranks 1..8).
    pub const PAWN_STORM: usize = KING_HALF_OPEN_FILE + 1;
    /// A pawn beside one of its own on the same rank, by rank ...
    pub const PHALANX: usize = PAWN_STORM + 8;
    /// ... a pawn defended by a pawn, by rank ...
    pub const SUPPORTED: usize = PHALANX + 8;
    /// ... and a pawn no neighbour can come to defend, its stop square
    /// held by an enemy pawn.
    pub const BACKWARD_PAWN: usize = SUPPORTED + 8;
    /// A knight or bishop on the enemy's half, defended by a pawn, where no
    /// enemy pawn can ever attack it.
    pub const KNIGHT_OUTPOST: usize = BACKWARD_PAWN + 1;
    pub const BISHOP_OUTPOST: usize = KNIGHT_OUTPOST + 1;
    pub const ROOK_ON_SEVENTH: usize = BISHOP_OUTPOST + 1;
    /// Per bishop: its own pawns on squares of its colour.
    pub const BISHOP_PAWNS: usize = ROOK_ON_SEVENTH + 1;
    pub const COUNT: usize = BISHOP_PAWNS + 1;

    /// (name, first index, length) of each group, in order.
    pub const GROUPS: [(&str, usize, usize); 28] = [
        ("material", MATERIAL, 6),
        ("piece-square", PST, 6 * 64),
        ("mobility", MOBILITY, 4),
        ("bishop pair", BISHOP_PAIR, 1),
        ("rook on an open file", ROOK_OPEN_FILE, 1),
        ("rook on a half-open file", ROOK_HALF_OPEN_FILE, 1),
        ("doubled pawn", DOUBLED_PAWN, 1),
        ("isolated pawn", ISOLATED_PAWN, 1),
        ("passed pawn by rank", PASSED, 8),
        ("blocked passed pawn by rank", PASSED_BLOCKED, 8),
        ("pawn threat", PAWN_THREAT, 1),
        ("minor threat", MINOR_THREAT, 1),
        ("rook threat", ROOK_THREAT, 1),
        ("hanging piece", HANGING, 1),
        ("safe check", SAFE_CHECK, 4),
        ("attacked king ring square", RING_ATTACKED, 1),
        ("weak king ring square", RING_WEAK, 1),
        ("missing shield pawn", SHIELD_MISSING, 1),
        ("king on an open file", KING_OPEN_FILE, 1),
        ("king on a half-open file", KING_HALF_OPEN_FILE, 1),
        ("storming pawn by rank", PAWN_STORM, 8),
        ("phalanx pawn by rank", PHALANX, 8),
        ("supported pawn by rank", SUPPORTED, 8),
        ("backward pawn", BACKWARD_PAWN, 1),
        ("knight outpost", KNIGHT_OUTPOST, 1),
        ("bishop outpost", BISHOP_OUTPOST, 1),
        ("rook on the seventh rank", ROOK_ON_SEVENTH, 1),
        ("bishop's pawns on its colour", BISHOP_PAWNS, 1),
    ];
}

static TUNABLE: Tunable = Tunable {
    weights: &WEIGHTS,
    name: weight_name,
    groups: &param::GROUPS,
    path: "crates/games/src/chess/weights.rs",
    about: "The evaluation weights of chess and Cat Chess, (middlegame, endgame) in\ncentipawns, read by `eval.rs` by the indices of `eval::param`.",
    per_line: 8,
};

/// A weight's name: its group, and which of the group it is.
fn weight_name(index: usize) -> String {
    let (name, k, len) = group_of(&param::GROUPS, index);
    match name {
        "piece-square" => format!("{name} {:?} {}", Role::ALL[k / 64], Square::new((k % 64) as u8).expect("below 64")),
        "material" => format!("{name} {:?}", Role::ALL[k]),
        "mobility" | "safe check" => format!("{name} {:?}", Role::ALL[k + 1]),
        _ if len > 1 => format!("{name} {}", k + 1),
        _ => name.to_string(),
    }
}

/// The typical number of safe squares of a knight, bishop, rook and queen
/// (mobility counts squares beyond it).
const MOBILITY_TYPICAL: [i32; 4] = [4, 6, 6, 12];

/// Game phase weights: 24 with every minor, rook and queen on the board.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
const PHASE_MAX: i32 = 24;

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

/// Chess's weights for the shared accumulator.
struct ChessWeights;

impl WeightSet for ChessWeights {
    const WEIGHTS: &'static [Tapered] = &WEIGHTS;
}

impl From<Term> for usize {
    fn from(term: Term) -> usize {
        term as usize
    }
}

type Acc<const TRACE: bool> = Accumulator<ChessWeights, TRACE, 8>;

/// What one colour's pieces attack, gathered once and shared by the terms.
struct Attacks {
    /// Squares attacked by armed pieces, outside Z (what can be captured on).
    all: Bitboard,
    pawns: Bitboard,
    /// Per knight, bishop, rook and queen.
    by_role: [Bitboard; 4],
    /// `all` but the king's.
    no_king: Bitboard,
}

impl Attacks {
    fn of_pawns(pawns: Bitboard) -> Attacks {
        Attacks {
            all: pawns,
            pawns,
            by_role: [Bitboard::EMPTY; 4],
            no_king: Bitboard::EMPTY,
        }
    }
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
        Attacks::of_pawns(pawn_att[0]),
        Attacks::of_pawns(pawn_att[1]),
    ];
    let mut king_units = [0i32; 2];
    let mut king_attackers = [0i32; 2];

    for color in Color::BOTH {
        let them = color.other();
        let ours = pos.by_color(color);
        let enemy_king_ring = (attacks::king(pos.king(them)) | Bitboard::from(pos.king(them))) - zone;
        for role in Role::ALL {
            let pieces = pos.pieces(color, role);
            acc.weight(color, Term::Material, param::MATERIAL + role.index(), pieces.count() as i32);
            for sq in pieces {
                acc.weight(color, Term::Placement, param::PST + role.index() * 64 + pst_index(color, sq), 1);
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
                acc.weight(color, Term::Mobility, param::MOBILITY + k, safe.count() as i32 - MOBILITY_TYPICAL[k]);
                if armed {
                    let hits = reach - zone;
                    att[color.index()].all |= hits;
                    att[color.index()].by_role[k] |= hits;
                    let ring_hits = (hits & enemy_king_ring).count() as i32;
                    if ring_hits > 0 {
                        king_units[them.index()] += KING_ATTACK_WEIGHT[k] * ring_hits;
                        king_attackers[them.index()] += 1;
                    }
                }
            }
        }
        outposts_and_bishops(pos, color, &pawn_att, acc);
        if pos.pieces(color, Role::Bishop).has_many() {
            acc.weight(color, Term::Pieces, param::BISHOP_PAIR, 1);
        }
        let own_pawns = pos.pieces(color, Role::Pawn);
        let their_pawns = pos.pieces(them, Role::Pawn);
        for rook in pos.pieces(color, Role::Rook) {
            let file = Bitboard::file(rook.file());
            if (file & own_pawns).is_empty() {
                let open = (file & their_pawns).is_empty();
                acc.weight(color, Term::Pieces, if open { param::ROOK_OPEN_FILE } else { param::ROOK_HALF_OPEN_FILE }, 1);
            }
        }
    }
    for color in Color::BOTH {
        let king = pos.king(color);
        let armed_king = !zone.contains(king);
        att[color.index()].no_king = att[color.index()].all;
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
            let rank = relative_rank(color, sq);
            let neighbours = own_pawns & adjacent_files(sq);
            if neighbours.is_empty() {
                acc.weight(color, Term::Pawns, param::ISOLATED_PAWN, 1);
            } else {
                if (neighbours & Bitboard::rank(sq.rank())).any() {
                    acc.weight(color, Term::Pawns, param::PHALANX + rank, 1);
                }
                let stop = stop_square(color, sq);
                if (neighbours - adjacent_front(color, sq)).is_empty() && pawn_att[them.index()].contains(stop) {
                    acc.weight(color, Term::Pawns, param::BACKWARD_PAWN, 1);
                }
            }
            if pawn_att[color.index()].contains(sq) {
                acc.weight(color, Term::Pawns, param::SUPPORTED + rank, 1);
            }
            if (front_span(color, sq) & own_pawns).any() {
                acc.weight(color, Term::Pawns, param::DOUBLED_PAWN, 1);
            }
            let blockers = (file | adjacent_files(sq)) & their_pawns;
            let ahead = front_span(color, sq) | adjacent_front(color, sq);
            if (blockers & ahead).is_empty() && (front_span(color, sq) & own_pawns).is_empty() {
                let front = stop_square(color, sq);
                let table = if occupied.contains(front) { param::PASSED_BLOCKED } else { param::PASSED };
                acc.weight(color, Term::Passers, table + rank, 1);
                let weight = rank as i32 - 1;
                let kings = weight * (5 * distance(pos.king(them), front) - 2 * distance(pos.king(color), front));
                acc.add(color, Term::Passers, Tapered::new(0, kings));
            }
        }

        // King safety: armed attackers on the ring, a missing pawn shield.
        let king = pos.king(color);
        king_shelter(pos, color, acc);
        king_pressure(pos, color, &att, acc);
        let mut danger = 0;
        if king_attackers[color.index()] >= 2 {
            danger = (king_units[color.index()] * king_units[color.index()] * 2).min(500);
        }
        if zone.contains(king) {
            // Beside a cat the king cannot be checked at all.
            danger = danger * 2 / 5;
        }
        acc.add(color, Term::KingSafety, Tapered::new(-danger, -danger / 4));

        // Threats by armed pieces on enemy pieces outside Z (those in Z
        // cannot be taken).
        let mine = &att[color.index()];
        let targets = pos.by_color(them) - zone - pos.by_role(Role::King);
        let non_pawns = targets - pos.by_role(Role::Pawn);
        let majors = pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
        acc.weight(color, Term::Threats, param::PAWN_THREAT, (mine.pawns & non_pawns).count() as i32);
        acc.weight(color, Term::Threats, param::MINOR_THREAT, ((mine.by_role[0] | mine.by_role[1]) & targets & majors).count() as i32);
        let queens = pos.by_role(Role::Queen);
        acc.weight(color, Term::Threats, param::ROOK_THREAT, (mine.by_role[2] & targets & queens).count() as i32);
        let undefended = targets - att[them.index()].all;
        acc.weight(color, Term::Threats, param::HANGING, (mine.all & undefended).count() as i32);
    }

    let diff = acc.difference();
    let raw = diff.blend(phase, PHASE_MAX);
    let (scale, scale_reason) = scale_for(pos, raw);
    let tempo = match pos.side_to_move() {
        Side::White => TEMPO,
        Side::Black => -TEMPO,
        Side::Cats => 0,
    };
    let score = raw * scale / 64 + tempo;
    Evaluation { raw, scale, scale_reason, phase, tempo, score }
}

/// The pawn shield, the king's file and the pawns storming it (`color`'s king).
fn king_shelter<V: Variant, const TRACE: bool>(pos: &Position<V>, color: Color, acc: &mut Acc<TRACE>) {
    let king = pos.king(color);
    let own_pawns = pos.pieces(color, Role::Pawn);
    let their_pawns = pos.pieces(color.other(), Role::Pawn);
    let file = Bitboard::file(king.file());
    let files = file | adjacent_files(king);
    if relative_rank(color, king) <= 1 {
        let near = match color {
            Color::White => Bitboard::rank(king.rank() + 1) | Bitboard::rank(king.rank() + 2),
            Color::Black => Bitboard::rank(king.rank() - 1) | Bitboard::rank(king.rank() - 2),
        };
        let present = (files & near & own_pawns).count() as i32;
        let missing = (files_count(king) as i32 - present).max(0);
        acc.weight(color, Term::KingSafety, param::SHIELD_MISSING, missing);
    }
    if (file & own_pawns).is_empty() {
        let open = (file & their_pawns).is_empty();
        acc.weight(color, Term::KingSafety, if open { param::KING_OPEN_FILE } else { param::KING_HALF_OPEN_FILE }, 1);
    }
    for pawn in files & their_pawns {
        acc.weight(color, Term::KingSafety, param::PAWN_STORM + relative_rank(color, pawn), 1);
    }
}

/// Safe checks and the attacked squares around `color`'s king, counted
/// for its opponent. A king beside a cat cannot be checked.
fn king_pressure<V: Variant, const TRACE: bool>(
    pos: &Position<V>,
    color: Color,
    att: &[Attacks; 2],
    acc: &mut Acc<TRACE>,
) {
    let them = color.other();
    let zone = pos.zone();
    let king = pos.king(color);
    let (mine, theirs) = (&att[color.index()], &att[them.index()]);
    let ring = attacks::king(king) - zone;
    let attacked = ring & theirs.all;
    acc.weight(them, Term::KingSafety, param::RING_ATTACKED, attacked.count() as i32);
    acc.weight(them, Term::KingSafety, param::RING_WEAK, (attacked - mine.no_king).count() as i32);
    if zone.contains(king) {
        return;
    }
    let occupied = pos.occupied();
    let safe = !(mine.all | pos.by_color(them) | zone);
    let diagonal = attacks::bishop(king, occupied);
    let straight = attacks::rook(king, occupied);
    let checks = [attacks::knight(king), diagonal, straight, diagonal | straight];
    for (k, squares) in checks.into_iter().enumerate() {
        let n = (squares & theirs.by_role[k] & safe).count() as i32;
        acc.weight(them, Term::KingSafety, param::SAFE_CHECK + k, n);
    }
}

/// Outposts, rooks on the seventh and bishops hemmed in by their own pawns.
fn outposts_and_bishops<V: Variant, const TRACE: bool>(
    pos: &Position<V>,
    color: Color,
    pawn_att: &[Bitboard; 2],
    acc: &mut Acc<TRACE>,
) {
    let their_pawns = pos.pieces(color.other(), Role::Pawn);
    let own_pawns = pos.pieces(color, Role::Pawn);
    let outpost = |sq: Square| {
        (3..=5).contains(&relative_rank(color, sq))
            && pawn_att[color.index()].contains(sq)
            && (adjacent_front(color, sq) & their_pawns).is_empty()
    };
    for sq in pos.pieces(color, Role::Knight) {
        if outpost(sq) {
            acc.weight(color, Term::Pieces, param::KNIGHT_OUTPOST, 1);
        }
    }
    for sq in pos.pieces(color, Role::Bishop) {
        if outpost(sq) {
            acc.weight(color, Term::Pieces, param::BISHOP_OUTPOST, 1);
        }
        let colour = if Bitboard::LIGHT.contains(sq) { Bitboard::LIGHT } else { Bitboard::DARK };
        acc.weight(color, Term::Pieces, param::BISHOP_PAWNS, (own_pawns & colour).count() as i32);
    }
    for sq in pos.pieces(color, Role::Rook) {
        if relative_rank(color, sq) == 6 {
            acc.weight(color, Term::Pieces, param::ROOK_ON_SEVENTH, 1);
        }
    }
}

/// The square in front of a pawn (a pawn is never on the last rank).
fn stop_square(color: Color, sq: Square) -> Square {
    let step = if color == Color::White { 8 } else { -8 };
    Square::new((sq.index() as i32 + step) as u8).unwrap_or(sq)
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
            .map(|r| WEIGHTS[param::MATERIAL + r.index()].mg * pos.pieces(c, r).count() as i32)
            .sum()
    };
    let mut scale = 64;
    let mut reason = "none";
    if pos.pieces(strong, Role::Pawn).is_empty() && non_pawn(strong) - non_pawn(weak) <= WEIGHTS[param::MATERIAL + 2].mg {
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

impl<V: Variant> Position<V> {
    /// The hand-made evaluation (white's view), whether or not a network
    /// is loaded: what a network is measured against.
    pub fn hand_made_value(&self) -> i32 {
        self.hand_made().value
    }

    /// The hand-made evaluation with its scale, as a correction network
    /// needs it.
    pub fn hand_made(&self) -> super::nnue::HandMade {
        let e = evaluate::<V, false>(self, &mut Acc::<false>::new());
        super::nnue::HandMade { value: e.score, scale: e.scale }
    }
}

impl<V: Variant> Evaluate for Position<V> {
    #[inline]
    fn evaluate(&self) -> i32 {
        if !V::CATS {
            if let Some(net) = super::nnue::CHOICE.loaded() {
                return net.value_with(net.evaluate_incremental(self), || self.hand_made());
            }
        } else if let Some(net) = super::nnue::cats::CHOICE.loaded() {
            return super::nnue::cats::value(net, self);
        }
        self.hand_made_value()
    }

    fn tunable() -> Option<&'static Tunable> {
        Some(&TUNABLE)
    }

    fn trace(&self) -> Option<Trace> {
        let mut acc = Acc::<true>::new();
        let e = evaluate::<V, true>(self, &mut acc);
        Some(acc.trace(e.phase as f32 / PHASE_MAX as f32, e.scale as f32 / 64.0, e.tempo))
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
        if let (false, Some(net)) = (V::CATS, super::nnue::CHOICE.loaded()) {
            let file = super::nnue::CHOICE.loaded_file();
            let value = net.value_with(net.evaluate(self), || super::nnue::HandMade { value: e.score, scale: e.scale });
            let what = match net.kind {
                super::nnue::Kind::Whole => String::new(),
                super::nnue::Kind::Correction => format!(" (the total above corrected by {:+} cp)", value - e.score),
            };
            let _ = writeln!(s, "network: {value} cp (white's view){what}, from {file}; the search uses it");
        }
        if let (true, Some(net)) = (V::CATS, super::nnue::cats::CHOICE.loaded()) {
            let file = super::nnue::cats::CHOICE.loaded_file();
            let chances = super::nnue::cats::chances(net, self);
            let value = super::nnue::cats::value_of(chances);
            let [w, b, c] = chances.map(|p| 100.0 * p);
            let _ = writeln!(
                s,
                "network: white mates {w:.1} %, black mates {b:.1} %, the cats win {c:.1} %: {value} cp (white's view), from {file}; the search uses it"
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CatChess, Chess};

    fn eval_cat(fen: &str) -> i32 {
        CatChess::from_fen(fen).unwrap().evaluate()
    }

    #[test]
    fn the_start_is_balanced_and_colours_are_symmetric() {
        let start = Chess::startpos().hand_made_value();
        assert!(start.abs() <= 2 * TEMPO, "{start}");
        // Mirrored positions (colours swapped, side to move swapped)
        // evaluate to the negation, with the built-in network too.
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
        let (armed_fen, disarmed_fen) = ("*3k3/3q1r2/8/4N3/8/8/8/4K2* w - - 0 1", "4k3/3q1r2/8/4N3/4*3/8/8/4K2* w - - 0 1");
        assert_eq!(count(armed_fen, param::MINOR_THREAT), 2, "the queen and the rook");
        assert_eq!(count(disarmed_fen, param::MINOR_THREAT), 0);
        let (armed, disarmed) = (eval_cat(armed_fen), eval_cat(disarmed_fen));
        assert!(armed > disarmed, "armed {armed}, disarmed {disarmed}");
    }

    /// White's count less black's of weight `index` in `fen` (Cat Chess
    /// when the FEN has cats).
    fn count(fen: &str, index: usize) -> i32 {
        let trace = if fen.contains('*') {
            CatChess::from_fen(fen).unwrap().trace()
        } else {
            Chess::from_fen(fen).unwrap().trace()
        };
        trace.unwrap().counts.iter().find(|c| c.0 as usize == index).map_or(0, |c| c.1 as i32)
    }

    #[test]
    fn king_safety_counts_safe_checks_and_the_ring() {
        // The knight e4 reaches d6 and f6, both checks the king e8 cannot take.
        assert_eq!(count("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1", param::SAFE_CHECK), 2);
        // A pawn e7 guards d6 and f6: no safe check left.
        assert_eq!(count("4k3/4p3/8/8/4N3/8/8/4K3 w - - 0 1", param::SAFE_CHECK), 0);
        // The rook a1 checks from a8 and from e1; with its king on e1, a8 only.
        assert_eq!(count("4k3/8/8/8/8/8/8/R5K1 w - - 0 1", param::SAFE_CHECK + 2), 2);
        assert_eq!(count("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", param::SAFE_CHECK + 2), 1);
        // Beside a cat the king cannot be checked.
        assert_eq!(count("4k*2/8/8/8/4N3/8/8/4K2* w - - 0 1", param::SAFE_CHECK), 0);
        // The queen d6 hits d7, d8, e7 and f8 beside the king e8 (not f7).
        assert_eq!(count("4k3/8/3Q4/8/8/8/8/4K3 w - - 0 1", param::RING_ATTACKED), 4);
        // The king's file: black's d-file open; then black's e-file half-open
        // (a white pawn only), white's closed by its own pawn each time.
        assert_eq!(count("3k4/8/8/8/8/8/4P3/4K3 w - - 0 1", param::KING_OPEN_FILE), -1);
        assert_eq!(count("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", param::KING_HALF_OPEN_FILE), -1);
        assert_eq!(count("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", param::KING_OPEN_FILE), 0);
        // White's king g1 without its three shield pawns; black's g8 with them.
        assert_eq!(count("6k1/5ppp/8/8/8/8/8/6K1 w - - 0 1", param::SHIELD_MISSING), 3);
        // A black pawn f3 storms the king g1 (rank 3 from white's side).
        assert_eq!(count("6k1/8/8/8/8/5p2/8/6K1 w - - 0 1", param::PAWN_STORM + 2), 1);
    }

    #[test]
    fn pawn_structure_and_outposts_count_what_they_name() {
        // d4 and e4 side by side (rank 4 from white's side), f3 behind e4.
        let fen = "4k3/8/8/8/3PP3/5P2/8/4K3 w - - 0 1";
        assert_eq!(count(fen, param::PHALANX + 3), 2);
        assert_eq!(count(fen, param::SUPPORTED + 3), 1, "e4 by f3");
        // d3 cannot be defended by e4/c-pawns and d4 is held by black's e5.
        assert_eq!(count("4k3/8/8/4p3/4P3/3P4/8/4K3 w - - 0 1", param::BACKWARD_PAWN), 1);
        // A knight d5 held by e4 that no black pawn can chase, then one c7 can.
        assert_eq!(count("4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1", param::KNIGHT_OUTPOST), 1);
        assert_eq!(count("4k3/2p5/8/3N4/4P3/8/8/4K3 w - - 0 1", param::KNIGHT_OUTPOST), 0);
        assert_eq!(count("4k3/R7/8/8/8/8/8/4K3 w - - 0 1", param::ROOK_ON_SEVENTH), 1);
        // The light-squared bishop f1 with pawns on light e2 and dark d2.
        assert_eq!(count("4k3/8/8/8/8/8/3PP3/4KB2 w - - 0 1", param::BISHOP_PAWNS), 1);
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
        // With the built-in correction too, though it would add something.
        let net = crate::chess::nnue::CHOICE.loaded().expect("the built-in network");
        let mut corrections = 0;
        for fen in ["4k3/8/8/8/8/8/8/2B1K3 b - - 0 1", "8/8/3n4/8/2k5/8/5K2/8 b - - 0 1", "8/8/8/3k4/8/6K1/8/8 b - - 0 1"] {
            let pos = Chess::from_fen(fen).unwrap();
            assert_eq!(pos.evaluate(), -TEMPO, "{fen}");
            corrections += net.evaluate(&pos).abs();
        }
        assert!(corrections > 0, "the network corrects nothing here: the test proves nothing");
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

    #[test]
    fn the_trace_gives_the_evaluation_back() {
        let weights: Vec<(f64, f64)> = WEIGHTS.iter().map(|w| (f64::from(w.mg), f64::from(w.eg))).collect();
        let fens = [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "2r3k1/pp3ppp/4p3/3pP3/3P4/P4N2/1P3PPP/2R3K1 b - - 0 25",
            "8/5k2/3p4/3P1K2/8/8/1p6/8 w - - 0 1",
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
        ];
        for fen in fens {
            let pos = Chess::from_fen(fen).unwrap();
            let traced = pos.trace().unwrap().value(&weights);
            // Only the integer divisions of blend and scale differ.
            let hand_made = pos.hand_made_value();
            assert!((traced - f64::from(hand_made)).abs() <= 2.0, "{fen}: {traced} vs {hand_made}");
        }
        for fen in ["*3k3/3q1r2/8/4N3/8/8/8/4K2* w - - 0 1", "6*k/8/8/8/8/8/PPP5/1K1R4 w - - 0 1"] {
            let pos = CatChess::from_fen(fen).unwrap();
            let traced = pos.trace().unwrap().value(&weights);
            assert!((traced - f64::from(pos.evaluate())).abs() <= 2.0, "{fen}: {traced} vs {}", pos.evaluate());
        }
        // A weight moves the traced value by its count: one more white
        // pawn than black's moves it by the pawn's material weight (blended).
        let pos = Chess::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        let trace = pos.trace().unwrap();
        assert!(trace.counts.contains(&((param::MATERIAL) as u16, 1)), "{:?}", trace.counts);
    }
}
