//! Evaluation of xiangqi positions, in centipawns from red's point of view.
//!
//! Every term is a [`Tapered`] pair (middlegame, endgame) per side, blended
//! by the attacking material left (chariots, horses, cannons). The terms,
//! after what is commonly written about classic xiangqi evaluations (values
//! and ideas, no code):
//!
//! * **material**: a cannon is worth a little more than a horse while the
//!   board is full (it needs screens), less in the endgame; a soldier gains
//!   its value across the river;
//! * **placement**: piece-square tables per piece, from the owner's side;
//! * **mobility**: chariot, horse and cannon destinations (a horse with its
//!   legs blocked is a poor piece);
//! * **palace attack**: attackers whose moves reach the enemy palace, worth
//!   more together and against a palace missing advisors and elephants;
//!   our general's open file denying the enemy general a file (the flying
//!   general);
//! * **cannons**: aimed at the enemy general along a file or rank with no
//!   piece between (the hollow cannon, which cannot be screened off) or
//!   with two (a screen away from check);
//! * **defenders**: missing advisors and elephants cost in proportion to the
//!   enemy's attacking material;
//! * **chariot files**: on a file free of own soldiers, or open;
//! * **soldiers**: crossed soldiers side by side;
//! * **threats**: enemy pieces attacked and undefended, or attacked by a
//!   less valuable piece;
//! * **tempo** for the side to move.

use crate::core::Color;
use crate::core::Tapered;
use crate::games::xiangqi::attacks;
use crate::games::xiangqi::square::masks;
use crate::games::xiangqi::{XRole, XSquare, Xiangqi};
use crate::search::Evaluate;
use std::fmt::Write;

const fn t(mg: i32, eg: i32) -> Tapered {
    Tapered::new(mg, eg)
}

/// General, advisor, elephant, horse, chariot, cannon, soldier.
const MATERIAL: [Tapered; 7] = [t(0, 0), t(190, 170), t(200, 170), t(420, 470), t(1000, 1100), t(470, 430), t(80, 100)];
/// Extra value of a soldier across the river (it may then step sideways).
const SOLDIER_ACROSS: Tapered = t(90, 140);

/// A piece's value in exchanges (the static exchange evaluation) and in
/// the threat term: the middlegame material, crossed soldiers at 100.
pub fn see_value(role: XRole) -> i32 {
    match role {
        XRole::Soldier => 100,
        _ => MATERIAL[role.index()].mg,
    }
}

/// The old name of the material table's middlegame values (kept for
/// callers that order captures by it).
pub const VALUE: [i32; 7] = [0, 190, 200, 420, 1000, 470, 100];

/// Piece-square tables drawn as a board from the owner's side: the first
/// row is the enemy's back rank, the last the owner's.
type Table = [[i8; 9]; 10];

#[rustfmt::skip]
const HORSE: Table = [
    [  0, -4,  0,  0, -6,  0,  0, -4,  0],
    [  0,  6, 14, 10,  0, 10, 14,  6,  0],
    [  4, 12, 18, 22, 16, 22, 18, 12,  4],
    [  4, 10, 14, 18, 18, 18, 14, 10,  4],
    [  2,  8, 12, 14, 14, 14, 12,  8,  2],
    [  0,  6, 10, 10, 10, 10, 10,  6,  0],
    [ -2,  2,  6,  6,  8,  6,  6,  2, -2],
    [ -4,  0,  4,  2,  0,  2,  4,  0, -4],
    [ -6, -2,  0,  0, -8,  0,  0, -2, -6],
    [-12, -6, -4, -6,-12, -6, -4, -6,-12],
];

#[rustfmt::skip]
const CHARIOT: Table = [
    [  4,  6,  6, 10, 10, 10,  6,  6,  4],
    [  6, 10, 10, 14, 16, 14, 10, 10,  6],
    [  4,  8,  8, 12, 12, 12,  8,  8,  4],
    [  4,  8,  8, 10, 10, 10,  8,  8,  4],
    [  6, 10, 10, 12, 12, 12, 10, 10,  6],
    [  4,  8,  8, 10, 10, 10,  8,  8,  4],
    [  0,  4,  4,  6,  6,  6,  4,  4,  0],
    [ -2,  4,  2,  6,  6,  6,  2,  4, -2],
    [  0,  2,  0,  4,  2,  4,  0,  2,  0],
    [ -6,  2,  0,  4,  0,  4,  0,  2, -6],
];

#[rustfmt::skip]
const CANNON: Table = [
    [  6,  4,  0, -6, -8, -6,  0,  4,  6],
    [  2,  2,  0, -4, -8, -4,  0,  2,  2],
    [  2,  2,  0, -6, -4, -6,  0,  2,  2],
    [  0,  0, -2,  2,  6,  2, -2,  0,  0],
    [  0,  0,  0,  2,  8,  2,  0,  0,  0],
    [ -2,  0,  4,  2,  8,  2,  4,  0, -2],
    [  0,  0,  0,  2,  8,  2,  0,  0,  0],
    [  2,  2,  4,  6, 14,  6,  4,  2,  2],
    [  0,  2,  4,  2,  6,  2,  4,  2,  0],
    [  0,  0,  2,  6,  6,  6,  2,  0,  0],
];

#[rustfmt::skip]
const SOLDIER: Table = [
    [  0,  0,  0,  2,  4,  2,  0,  0,  0],
    [ 10, 18, 26, 36, 40, 36, 26, 18, 10],
    [ 10, 18, 24, 34, 38, 34, 24, 18, 10],
    [  8, 14, 18, 24, 26, 24, 18, 14,  8],
    [  4,  8, 12, 16, 18, 16, 12,  8,  4],
    [  0,  0, -2,  0,  6,  0, -2,  0,  0],
    [  0,  0, -2,  0,  4,  0, -2,  0,  0],
    [  0,  0,  0,  0,  0,  0,  0,  0,  0],
    [  0,  0,  0,  0,  0,  0,  0,  0,  0],
    [  0,  0,  0,  0,  0,  0,  0,  0,  0],
];

/// General, advisor and elephant points (the rest of the table unused).
#[rustfmt::skip]
const GUARD: Table = [
    [0; 9], [0; 9], [0; 9], [0; 9], [0; 9],
    [  0,  0, -2,  0,  0,  0, -2,  0,  0],
    [  0,  0,  0,  0,  0,  0,  0,  0,  0],
    [ -4,  0,  0,-12,  2,-12,  0,  0, -4],
    [  0,  0,  0, -4,  6, -4,  0,  0,  0],
    [  0,  0,  0,  2,  6,  2,  0,  0,  0],
];

#[inline(always)]
fn table_value(table: &Table, sq: XSquare, color: Color) -> i32 {
    table[9 - sq.relative_rank(color) as usize][sq.file() as usize] as i32
}

fn placement(role: XRole, sq: XSquare, color: Color) -> Tapered {
    match role {
        XRole::Horse => {
            let v = table_value(&HORSE, sq, color);
            t(v, v)
        }
        XRole::Chariot => {
            let v = table_value(&CHARIOT, sq, color);
            t(v, v / 2)
        }
        XRole::Cannon => {
            let v = table_value(&CANNON, sq, color);
            t(v, v / 2)
        }
        XRole::Soldier => {
            let v = table_value(&SOLDIER, sq, color);
            t(v, v * 3 / 2)
        }
        XRole::General => {
            let v = table_value(&GUARD, sq, color);
            t(v, v / 3)
        }
        XRole::Advisor | XRole::Elephant => {
            let v = table_value(&GUARD, sq, color);
            t(v, v / 2)
        }
    }
}

/// Mobility per destination beyond a typical count.
const CHARIOT_MOB: Tapered = t(5, 7);
const HORSE_MOB: Tapered = t(9, 10);
const CANNON_MOB: Tapered = t(3, 3);
/// A horse that can hardly move (legs blocked, edge).
const HORSE_TRAPPED: Tapered = t(-25, -20);

/// Palace attack units per attacker whose moves reach the enemy palace.
const UNITS_CHARIOT: i32 = 4;
const UNITS_HORSE: i32 = 3;
const UNITS_CANNON: i32 = 3;
const UNITS_SOLDIER: i32 = 2;

/// A cannon on the enemy general's line with no piece between.
const HOLLOW_CANNON: Tapered = t(150, 40);
/// ... with two pieces between (one screen away from check).
const CANNON_TWO_SCREENS: Tapered = t(30, 10);
/// ... with one (a check, or the screen pinned).
const CANNON_ONE_SCREEN: Tapered = t(15, 5);
/// Our general's file open up to the enemy palace (flying general).
const GENERAL_FILE: Tapered = t(10, 25);

const CHARIOT_SEMI_OPEN: Tapered = t(10, 5);
const CHARIOT_OPEN: Tapered = t(20, 10);
const LINKED_SOLDIERS: Tapered = t(15, 25);

const HANGING: Tapered = t(30, 25);
const THREAT_BY_LESSER: Tapered = t(45, 35);
const TEMPO: i32 = 15;

/// Attacking material per piece for the game phase.
const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];
const PHASE_MAX: i32 = 32;

const TERMS: usize = 9;
const NAMES: [&str; TERMS] =
    ["material", "placement", "mobility", "palace", "cannons", "defenders", "files", "soldiers", "threats"];

/// One side's terms, and what the other side's terms need from it.
struct Side {
    terms: [Tapered; TERMS],
    /// Every point this side attacks (captures included, legality ignored).
    attacks: u128,
    /// Points attacked by a soldier, by a horse or cannon (for threats by
    /// less valuable pieces).
    by_soldier: u128,
    by_minor: u128,
    /// Palace attack units and attackers.
    units: i32,
    attackers: i32,
    /// Attacking material, for the enemy's defender term.
    attack_material: i32,
}

fn side_terms(pos: &Xiangqi, us: Color) -> Side {
    let them = us.other();
    let occ = pos.occupied().0;
    let occ_t = pos.occ_t;
    let own = pos.by_color(us).0;
    let enemy_palace = masks::PALACE[them.index()].0;
    let enemy_general = pos.general(them);
    let mut s = Side {
        terms: [Tapered::default(); TERMS],
        attacks: 0,
        by_soldier: 0,
        by_minor: 0,
        units: 0,
        attackers: 0,
        attack_material: 0,
    };
    let (mut material, mut place, mut mobility, mut cannons, mut files, mut soldiers) = (
        Tapered::default(),
        Tapered::default(),
        Tapered::default(),
        Tapered::default(),
        Tapered::default(),
        Tapered::default(),
    );
    let own_soldiers = pos.pieces(us, XRole::Soldier).0;
    let all_soldiers = pos.by_role(XRole::Soldier).0;

    for sq in pos.pieces(us, XRole::Chariot).iter::<XSquare>() {
        let reach = attacks::chariot(sq, occ, occ_t);
        s.attacks |= reach;
        mobility += CHARIOT_MOB * ((reach & !own).count_ones() as i32 - 7);
        if reach & enemy_palace != 0 {
            s.units += UNITS_CHARIOT;
            s.attackers += 1;
        }
        let file = masks::file(sq.file()).0;
        if file & all_soldiers == 0 {
            files += CHARIOT_OPEN;
        } else if file & own_soldiers == 0 {
            files += CHARIOT_SEMI_OPEN;
        }
        s.attack_material += 4;
    }
    for sq in pos.pieces(us, XRole::Horse).iter::<XSquare>() {
        let reach = attacks::horse(sq, occ);
        s.attacks |= reach;
        s.by_minor |= reach;
        let n = (reach & !own).count_ones() as i32;
        mobility += HORSE_MOB * (n - 3);
        if n <= 1 {
            mobility += HORSE_TRAPPED;
        }
        if reach & enemy_palace != 0 {
            s.units += UNITS_HORSE;
            s.attackers += 1;
        }
        s.attack_material += 3;
    }
    for sq in pos.pieces(us, XRole::Cannon).iter::<XSquare>() {
        let (rook, cannon) = attacks::lines(sq, occ, occ_t);
        s.attacks |= cannon;
        s.by_minor |= cannon;
        mobility += CANNON_MOB * (((rook & !occ) | (cannon & !own)).count_ones() as i32 - 6);
        let aimed = sq.file() == enemy_general.file() || sq.rank() == enemy_general.rank();
        if aimed {
            let between = (attacks::between(sq, enemy_general).0 & occ).count_ones();
            match between {
                0 => cannons += HOLLOW_CANNON,
                1 => cannons += CANNON_ONE_SCREEN,
                2 => cannons += CANNON_TWO_SCREENS,
                _ => {}
            }
            if between <= 2 {
                s.units += UNITS_CANNON;
                s.attackers += 1;
            }
        } else if cannon & enemy_palace != 0 {
            s.units += UNITS_CANNON;
            s.attackers += 1;
        }
        s.attack_material += 2;
    }
    let crossed = own_soldiers & masks::HALF[them.index()].0;
    for sq in pos.pieces(us, XRole::Soldier).iter::<XSquare>() {
        let reach = attacks::soldier(us, sq);
        s.attacks |= reach;
        s.by_soldier |= reach;
        if reach & enemy_palace != 0 {
            s.units += UNITS_SOLDIER;
            s.attackers += 1;
        }
    }
    s.attack_material += crossed.count_ones() as i32;
    // Crossed soldiers side by side on a rank.
    let linked = crossed & ((crossed & !masks::FILE_I.0) << 1);
    soldiers += LINKED_SOLDIERS * linked.count_ones() as i32;
    for sq in pos.pieces(us, XRole::Advisor).iter::<XSquare>() {
        s.attacks |= attacks::advisor(sq);
    }
    for sq in pos.pieces(us, XRole::Elephant).iter::<XSquare>() {
        s.attacks |= attacks::elephant(sq, occ);
    }
    let general = pos.general(us);
    s.attacks |= attacks::general(general);
    // The flying general: our general's file open into the enemy palace
    // takes that file from the enemy general.
    if general.file() != enemy_general.file() {
        let file = masks::file(general.file()).0;
        let palace_point = file & enemy_palace;
        let near = palace_point.trailing_zeros().min(127 - palace_point.leading_zeros());
        let target = XSquare::from_index_unchecked(if us == Color::White {
            palace_point.trailing_zeros()
        } else {
            127 - palace_point.leading_zeros()
        });
        let _ = near;
        if palace_point != 0 && (attacks::between(general, target).0 & occ) == 0 && occ >> target.index() & 1 == 0 {
            cannons += GENERAL_FILE;
        }
    }

    for role in XRole::ALL {
        for sq in pos.pieces(us, role).iter::<XSquare>() {
            material += MATERIAL[role.index()];
            if role == XRole::Soldier && sq.relative_rank(us) >= 5 {
                material += SOLDIER_ACROSS;
            }
            place += placement(role, sq, us);
        }
    }
    s.terms[0] = material;
    s.terms[1] = place;
    s.terms[2] = mobility;
    s.terms[4] = cannons;
    s.terms[6] = files;
    s.terms[7] = soldiers;
    s
}

/// Red's view, per term (red, black), and the phase.
fn score(pos: &Xiangqi) -> ([[Tapered; TERMS]; 2], i32) {
    let mut sides = [side_terms(pos, Color::White), side_terms(pos, Color::Black)];
    for us in [Color::White, Color::Black] {
        let (u, e) = (us.index(), us.other().index());
        let them = us.other();
        // Palace attack, stronger against missing guards.
        let guards = (pos.pieces(them, XRole::Advisor) | pos.pieces(them, XRole::Elephant)).0.count_ones() as i32;
        let units = sides[u].units;
        let palace = if sides[u].attackers >= 2 { units * units * (8 - guards) / 8 } else { units * 2 };
        sides[u].terms[3] = t(palace.min(500), palace.min(500) / 2);
        // Our missing guards against the enemy's attacking material.
        let advisors = pos.pieces(us, XRole::Advisor).count() as i32;
        let elephants = pos.pieces(us, XRole::Elephant).count() as i32;
        let threat = sides[e].attack_material;
        let missing = (2 - advisors) * threat * 4 + (2 - elephants) * threat * 3;
        sides[u].terms[5] = t(-missing, -missing);
        // Threats against the enemy's pieces.
        let theirs = pos.by_color(them).0 & !pos.by_role(XRole::General).0;
        let hanging = theirs & sides[u].attacks & !sides[e].attacks;
        let heavy = pos.pieces(them, XRole::Chariot).0;
        let minors = (pos.pieces(them, XRole::Horse) | pos.pieces(them, XRole::Cannon)).0;
        let by_lesser = (heavy & (sides[u].by_minor | sides[u].by_soldier)) | (minors & sides[u].by_soldier);
        sides[u].terms[8] = HANGING * hanging.count_ones() as i32 + THREAT_BY_LESSER * by_lesser.count_ones() as i32;
    }
    let phase: i32 = [XRole::Horse, XRole::Chariot, XRole::Cannon]
        .iter()
        .map(|&r| pos.by_role(r).count() as i32 * PHASE_WEIGHT[r.index()])
        .sum::<i32>()
        .min(PHASE_MAX);
    ([sides[0].terms, sides[1].terms], phase)
}

fn total(pos: &Xiangqi) -> i32 {
    let ([red, black], phase) = score(pos);
    let mut sum = Tapered::default();
    for i in 0..TERMS {
        sum += red[i] - black[i];
    }
    let tempo = if pos.side_to_move() == Color::White { TEMPO } else { -TEMPO };
    sum.blend(phase, PHASE_MAX) + tempo
}

impl Evaluate for Xiangqi {
    fn evaluate(&self) -> i32 {
        total(self)
    }

    fn eval_breakdown(&self) -> String {
        let ([red, black], phase) = score(self);
        let mut s = String::new();
        let _ = writeln!(s, "phase {phase}/{PHASE_MAX} (attacking material; {PHASE_MAX} = middlegame)");
        let _ = writeln!(s, "{:<12}{:>8}{:>8}{:>10}", "term", "red", "black", "red-black");
        for i in 0..TERMS {
            let (r, b) = (red[i].blend(phase, PHASE_MAX), black[i].blend(phase, PHASE_MAX));
            let _ = writeln!(s, "{:<12}{:>8}{:>8}{:>10}", NAMES[i], r, b, r - b);
        }
        let tempo = if self.side_to_move() == Color::White { TEMPO } else { -TEMPO };
        let _ = writeln!(s, "{:<12}{:>26}", "tempo", tempo);
        let _ = writeln!(s, "total: {} cp (red's view)", total(self));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        Xiangqi::from_fen(fen).unwrap().evaluate()
    }

    /// The mirror image with colours swapped scores the same, negated.
    #[test]
    fn colour_symmetry() {
        let fens = [
            crate::games::xiangqi::START_FEN,
            "r1bakab1r/9/2n1c1n2/p1p1p3p/6p2/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 5",
            "1nbcka1n1/8r/5C3/p1p3p2/P5bcP/9/2P1p1P2/N7B/4A1R2/2BAK2N1 b - - 13 41",
            "2bakab1r/9/2n4cn/p1p1p1p1p/9/9/P1P1P1P1P/RcC5B/4A4/1NBK1A1NR w - - 1 9",
        ];
        for fen in fens {
            let pos = Xiangqi::from_fen(fen).unwrap();
            let flipped = flip(fen);
            let other = Xiangqi::from_fen(&flipped).unwrap();
            assert_eq!(pos.evaluate(), -other.evaluate(), "{fen} / {flipped}");
        }
    }

    /// Ranks reversed, case swapped, side to move swapped.
    fn flip(fen: &str) -> String {
        let mut parts = fen.split(' ');
        let board = parts.next().unwrap();
        let turn = if parts.next().unwrap() == "w" { "b" } else { "w" };
        let ranks: Vec<String> = board
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                    .collect()
            })
            .collect();
        format!("{} {turn} - - 0 1", ranks.join("/"))
    }

    #[test]
    fn the_start_is_balanced_and_material_counts() {
        let start = eval(crate::games::xiangqi::START_FEN);
        assert!(start.abs() <= 20, "{start}");
        // Black without a chariot.
        let up = eval("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
        assert!(up > 800, "{up}");
    }

    #[test]
    fn a_hollow_cannon_is_a_threat() {
        // Red cannon on e3, the e-file open to the black general.
        let hollow = eval("3aka3/9/9/9/9/9/9/4C4/9/3A1K3 b - - 0 1");
        let aside = eval("3aka3/9/9/9/9/9/9/3C5/9/3A1K3 b - - 0 1");
        assert!(hollow > aside + 50, "{hollow} vs {aside}");
    }

    #[test]
    fn breakdown_sums_to_the_total() {
        let pos = Xiangqi::startpos();
        let text = pos.eval_breakdown();
        assert!(text.contains("palace") && text.contains("cannons"));
        assert!(text.contains(&format!("total: {} cp", pos.evaluate())));
    }
}
