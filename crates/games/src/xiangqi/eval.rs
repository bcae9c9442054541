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
//!
//! Every weight but the palace attack (a product of attackers and missing
//! guards) and the tempo lives in `weights.rs`, fitted by
//! `catchess tune --variant xiangqi`.

use catchess_core::{Color, Tapered};
use crate::xiangqi::attacks;
use crate::xiangqi::square::masks;
use crate::xiangqi::{Role, Square, Xiangqi};
use catchess_search::evaluate::{group_of, Accumulator, Trace, Tunable, WeightSet};
use catchess_search::Evaluate;
use std::fmt::Write;
use weights::WEIGHTS;

#[path = "weights.rs"]
mod weights;

/// Where each group of weights begins in `WEIGHTS` (each weight a
/// (middlegame, endgame) pair).
pub mod param {
    /// General, advisor, elephant, horse, chariot, cannon, soldier.
    pub const MATERIAL: usize = 0;
    /// Extra value of a soldier across the river (it may then step sideways).
    pub const SOLDIER_ACROSS: usize = MATERIAL + 7;
    /// Per role, 90 points as a board from the owner's side: the first row
    /// is the enemy's back rank, the last the owner's.
    pub const PST: usize = SOLDIER_ACROSS + 1;
    /// Per destination beyond a typical count: chariot, horse, cannon.
    pub const MOBILITY: usize = PST + 7 * 90;
    /// A horse with at most one move (legs blocked, edge).
    pub const HORSE_TRAPPED: usize = MOBILITY + 3;
    /// A cannon on the enemy general's file or rank with no, one or two
    /// pieces between (hollow; a check or a pinned screen; a screen away).
    pub const CANNON_AIMED: usize = HORSE_TRAPPED + 1;
    /// Our general's file open into the enemy palace (flying general).
    pub const GENERAL_FILE: usize = CANNON_AIMED + 3;
    pub const CHARIOT_OPEN: usize = GENERAL_FILE + 1;
    pub const CHARIOT_HALF_OPEN: usize = CHARIOT_OPEN + 1;
    /// Per crossed soldier with a crossed soldier beside it on its left.
    pub const LINKED_SOLDIERS: usize = CHARIOT_HALF_OPEN + 1;
    /// An enemy piece attacked and undefended ...
    pub const HANGING: usize = LINKED_SOLDIERS + 1;
    /// ... or attacked by a less valuable piece.
    pub const THREAT_BY_LESSER: usize = HANGING + 1;
    /// Per missing advisor or elephant, per unit of the enemy's attacking
    /// material (chariot 4, horse 3, cannon 2, crossed soldier 1).
    pub const MISSING_ADVISOR: usize = THREAT_BY_LESSER + 1;
    pub const MISSING_ELEPHANT: usize = MISSING_ADVISOR + 1;
    pub const COUNT: usize = MISSING_ELEPHANT + 1;

    /// (name, first index, length) of each group, in order.
    pub const GROUPS: [(&str, usize, usize); 14] = [
        ("material", MATERIAL, 7),
        ("soldier across the river", SOLDIER_ACROSS, 1),
        ("piece-square", PST, 7 * 90),
        ("mobility", MOBILITY, 3),
        ("trapped horse", HORSE_TRAPPED, 1),
        ("cannon aimed at the general", CANNON_AIMED, 3),
        ("general's open file", GENERAL_FILE, 1),
        ("chariot on an open file", CHARIOT_OPEN, 1),
        ("chariot on a half-open file", CHARIOT_HALF_OPEN, 1),
        ("linked soldiers", LINKED_SOLDIERS, 1),
        ("hanging piece", HANGING, 1),
        ("threat by a lesser piece", THREAT_BY_LESSER, 1),
        ("missing advisor", MISSING_ADVISOR, 1),
        ("missing elephant", MISSING_ELEPHANT, 1),
    ];
}

static TUNABLE: Tunable = Tunable {
    weights: &WEIGHTS,
    name: weight_name,
    groups: &param::GROUPS,
    path: "crates/games/src/xiangqi/weights.rs",
    about: "The evaluation weights of xiangqi, (middlegame, endgame) in centipawns,\nread by `eval.rs` by the indices of `eval::param`.",
    per_line: 9,
};

/// A weight's name: its group, and which of the group it is.
fn weight_name(index: usize) -> String {
    let (name, k, len) = group_of(&param::GROUPS, index);
    match name {
        "piece-square" => {
            let (role, point) = (Role::ALL[k / 90], k % 90);
            // Rows run from the enemy's back rank (rank 9 from the owner's side).
            format!("{name} {role:?} {}{}", (b'a' + (point % 9) as u8) as char, 9 - point / 9)
        }
        "material" => format!("{name} {:?}", Role::ALL[k]),
        "mobility" => format!("{name} {:?}", [Role::Chariot, Role::Horse, Role::Cannon][k]),
        "cannon aimed at the general" => format!("{name}, {k} between"),
        _ if len > 1 => format!("{name} {}", k + 1),
        _ => name.to_string(),
    }
}

/// A piece's value in exchanges (the static exchange evaluation) and in
/// move ordering: fixed, so that tuning the evaluation leaves the search's
/// move order alone.
pub fn see_value(role: Role) -> i32 {
    VALUE[role.index()]
}

/// General, advisor, elephant, horse, chariot, cannon, soldier.
const VALUE: [i32; 7] = [0, 190, 200, 420, 1000, 470, 100];

/// Typical destinations of a chariot, horse and cannon (mobility counts
/// destinations beyond them).
const MOBILITY_TYPICAL: [i32; 3] = [7, 3, 6];

/// Palace attack units per attacker whose moves reach the enemy palace.
const UNITS_CHARIOT: i32 = 4;
const UNITS_HORSE: i32 = 3;
const UNITS_CANNON: i32 = 3;
const UNITS_SOLDIER: i32 = 2;

const TEMPO: i32 = 15;

/// Attacking material per piece for the game phase.
const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];
const PHASE_MAX: i32 = 32;

/// The terms of the evaluation, in the order the breakdown lists them.
#[derive(Clone, Copy)]
enum Term {
    Material,
    Placement,
    Mobility,
    Palace,
    Cannons,
    Defenders,
    Files,
    Soldiers,
    Threats,
}

const TERMS: [(Term, &str); 9] = [
    (Term::Material, "material"),
    (Term::Placement, "placement"),
    (Term::Mobility, "mobility"),
    (Term::Palace, "palace"),
    (Term::Cannons, "cannons"),
    (Term::Defenders, "defenders"),
    (Term::Files, "files"),
    (Term::Soldiers, "soldiers"),
    (Term::Threats, "threats"),
];

impl From<Term> for usize {
    fn from(term: Term) -> usize {
        term as usize
    }
}

/// Xiangqi's weights for the shared accumulator.
struct XiangqiWeights;

impl WeightSet for XiangqiWeights {
    const WEIGHTS: &'static [Tapered] = &WEIGHTS;
}

type Acc<const TRACE: bool> = Accumulator<XiangqiWeights, TRACE, 9>;

/// What one side's pieces do that the other side's terms need.
#[derive(Default)]
struct Reach {
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

/// The terms of `us` that need only its own pieces; returns what they reach.
fn side_terms<const TRACE: bool>(pos: &Xiangqi, us: Color, acc: &mut Acc<TRACE>) -> Reach {
    let them = us.other();
    let occ = pos.occupied().0;
    let occ_t = pos.occ_t;
    let own = pos.by_color(us).0;
    let enemy_palace = masks::PALACE[them.index()].0;
    let enemy_general = pos.general(them);
    let mut s = Reach::default();
    let own_soldiers = pos.pieces(us, Role::Soldier).0;
    let all_soldiers = pos.by_role(Role::Soldier).0;

    for sq in pos.pieces(us, Role::Chariot).iter::<Square>() {
        let reach = attacks::chariot(sq, occ, occ_t);
        s.attacks |= reach;
        acc.weight(us, Term::Mobility, param::MOBILITY, (reach & !own).count_ones() as i32 - MOBILITY_TYPICAL[0]);
        if reach & enemy_palace != 0 {
            s.units += UNITS_CHARIOT;
            s.attackers += 1;
        }
        let file = masks::file(sq.file()).0;
        if file & all_soldiers == 0 {
            acc.weight(us, Term::Files, param::CHARIOT_OPEN, 1);
        } else if file & own_soldiers == 0 {
            acc.weight(us, Term::Files, param::CHARIOT_HALF_OPEN, 1);
        }
        s.attack_material += 4;
    }
    for sq in pos.pieces(us, Role::Horse).iter::<Square>() {
        let reach = attacks::horse(sq, occ);
        s.attacks |= reach;
        s.by_minor |= reach;
        let n = (reach & !own).count_ones() as i32;
        acc.weight(us, Term::Mobility, param::MOBILITY + 1, n - MOBILITY_TYPICAL[1]);
        if n <= 1 {
            acc.weight(us, Term::Mobility, param::HORSE_TRAPPED, 1);
        }
        if reach & enemy_palace != 0 {
            s.units += UNITS_HORSE;
            s.attackers += 1;
        }
        s.attack_material += 3;
    }
    for sq in pos.pieces(us, Role::Cannon).iter::<Square>() {
        let (rook, cannon) = attacks::lines(sq, occ, occ_t);
        s.attacks |= cannon;
        s.by_minor |= cannon;
        let n = ((rook & !occ) | (cannon & !own)).count_ones() as i32;
        acc.weight(us, Term::Mobility, param::MOBILITY + 2, n - MOBILITY_TYPICAL[2]);
        let aimed = sq.file() == enemy_general.file() || sq.rank() == enemy_general.rank();
        if aimed {
            let between = (attacks::between(sq, enemy_general).0 & occ).count_ones() as usize;
            if between <= 2 {
                acc.weight(us, Term::Cannons, param::CANNON_AIMED + between, 1);
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
    for sq in pos.pieces(us, Role::Soldier).iter::<Square>() {
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
    acc.weight(us, Term::Soldiers, param::LINKED_SOLDIERS, linked.count_ones() as i32);
    for sq in pos.pieces(us, Role::Advisor).iter::<Square>() {
        s.attacks |= attacks::advisor(sq);
    }
    for sq in pos.pieces(us, Role::Elephant).iter::<Square>() {
        s.attacks |= attacks::elephant(sq, occ);
    }
    let general = pos.general(us);
    s.attacks |= attacks::general(general);
    // The flying general: our general's file open into the enemy palace
    // takes that file from the enemy general.
    if general.file() != enemy_general.file() {
        let palace_point = masks::file(general.file()).0 & enemy_palace;
        if palace_point != 0 {
            let target = Square::from_index_unchecked(if us == Color::White {
                palace_point.trailing_zeros()
            } else {
                127 - palace_point.leading_zeros()
            });
            if (attacks::between(general, target).0 & occ) == 0 && occ >> target.index() & 1 == 0 {
                acc.weight(us, Term::Cannons, param::GENERAL_FILE, 1);
            }
        }
    }

    for role in Role::ALL {
        let pieces = pos.pieces(us, role);
        acc.weight(us, Term::Material, param::MATERIAL + role.index(), pieces.count() as i32);
        for sq in pieces.iter::<Square>() {
            let point = (9 - sq.relative_rank(us) as usize) * 9 + sq.file() as usize;
            acc.weight(us, Term::Placement, param::PST + role.index() * 90 + point, 1);
        }
    }
    acc.weight(us, Term::Material, param::SOLDIER_ACROSS, crossed.count_ones() as i32);
    s
}

/// Sums every term into `acc`; returns the phase.
fn evaluate<const TRACE: bool>(pos: &Xiangqi, acc: &mut Acc<TRACE>) -> i32 {
    let sides = [side_terms(pos, Color::White, acc), side_terms(pos, Color::Black, acc)];
    for us in [Color::White, Color::Black] {
        let (u, e) = (&sides[us.index()], &sides[us.other().index()]);
        let them = us.other();
        // Palace attack, stronger against missing guards.
        let guards = (pos.pieces(them, Role::Advisor) | pos.pieces(them, Role::Elephant)).0.count_ones() as i32;
        let palace = if u.attackers >= 2 { u.units * u.units * (8 - guards) / 8 } else { u.units * 2 };
        acc.add(us, Term::Palace, Tapered::new(palace.min(500), palace.min(500) / 2));
        // Our missing guards against the enemy's attacking material.
        let advisors = pos.pieces(us, Role::Advisor).count() as i32;
        let elephants = pos.pieces(us, Role::Elephant).count() as i32;
        acc.weight(us, Term::Defenders, param::MISSING_ADVISOR, (2 - advisors) * e.attack_material);
        acc.weight(us, Term::Defenders, param::MISSING_ELEPHANT, (2 - elephants) * e.attack_material);
        // Threats against the enemy's pieces.
        let theirs = pos.by_color(them).0 & !pos.by_role(Role::General).0;
        let hanging = theirs & u.attacks & !e.attacks;
        let heavy = pos.pieces(them, Role::Chariot).0;
        let minors = (pos.pieces(them, Role::Horse) | pos.pieces(them, Role::Cannon)).0;
        let by_lesser = (heavy & (u.by_minor | u.by_soldier)) | (minors & u.by_soldier);
        acc.weight(us, Term::Threats, param::HANGING, hanging.count_ones() as i32);
        acc.weight(us, Term::Threats, param::THREAT_BY_LESSER, by_lesser.count_ones() as i32);
    }
    [Role::Horse, Role::Chariot, Role::Cannon]
        .iter()
        .map(|&r| pos.by_role(r).count() as i32 * PHASE_WEIGHT[r.index()])
        .sum::<i32>()
        .min(PHASE_MAX)
}

fn tempo(pos: &Xiangqi) -> i32 {
    if pos.side_to_move() == Color::White {
        TEMPO
    } else {
        -TEMPO
    }
}

impl Xiangqi {
    /// The hand-made evaluation (red's view), whether or not a network is
    /// loaded: what a network is measured against, and what a correction
    /// network adds to.
    pub fn hand_made_value(&self) -> i32 {
        let mut acc = Acc::<false>::new();
        let phase = evaluate(self, &mut acc);
        acc.difference().blend(phase, PHASE_MAX) + tempo(self)
    }
}

impl Evaluate for Xiangqi {
    #[inline]
    fn evaluate(&self) -> i32 {
        match super::nnue::CHOICE.loaded() {
            Some(net) => super::nnue::value(net, self, || self.hand_made_value()),
            None => self.hand_made_value(),
        }
    }

    fn tunable() -> Option<&'static Tunable> {
        Some(&TUNABLE)
    }

    fn trace(&self) -> Option<Trace> {
        let mut acc = Acc::<true>::new();
        let phase = evaluate(self, &mut acc);
        Some(acc.trace(phase as f32 / PHASE_MAX as f32, 1.0, tempo(self)))
    }

    fn eval_breakdown(&self) -> String {
        let mut acc = Acc::<true>::new();
        let phase = evaluate(self, &mut acc);
        let mut s = String::new();
        let _ = writeln!(s, "phase {phase}/{PHASE_MAX} (attacking material; {PHASE_MAX} = middlegame)");
        let _ = writeln!(s, "{:<12}{:>8}{:>8}{:>10}", "term", "red", "black", "red-black");
        for (term, name) in TERMS {
            let i = term as usize;
            let (r, b) = (acc.terms[0][i].blend(phase, PHASE_MAX), acc.terms[1][i].blend(phase, PHASE_MAX));
            let _ = writeln!(s, "{name:<12}{r:>8}{b:>8}{:>10}", r - b);
        }
        let _ = writeln!(s, "{:<12}{:>26}", "tempo", tempo(self));
        let _ = writeln!(s, "total: {} cp (red's view)", self.hand_made_value());
        if let Some(net) = super::nnue::CHOICE.loaded() {
            let value = super::nnue::value(net, self, || self.hand_made_value());
            let _ = writeln!(s, "network: {value} cp (red's view), from {}; the search uses it", super::nnue::CHOICE.loaded_file());
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-made value (these tests are of the hand-made terms; the
    /// built-in network's are in `nnue.rs`).
    fn eval(fen: &str) -> i32 {
        Xiangqi::from_fen(fen).unwrap().hand_made_value()
    }

    /// The mirror image with colours swapped scores the same, negated.
    #[test]
    fn colour_symmetry() {
        let fens = [
            crate::xiangqi::START_FEN,
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
        let start = eval(crate::xiangqi::START_FEN);
        assert!(start.abs() <= 20, "{start}");
        // Black without a chariot.
        let up = eval("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
        assert!(up > 800, "{up}");
    }

    #[test]
    fn a_cannon_aimed_at_the_general_counts_its_screens() {
        // A red cannon on the black general's file with 0, 1, 2 and 3
        // pieces between: its weight is the one for that many screens,
        // and none for three.
        let fens = [
            "3aka3/9/9/9/9/9/9/4C4/9/3A1K3 b - - 0 1",
            "3aka3/9/9/4p4/9/9/9/4C4/9/3A1K3 b - - 0 1",
            "3aka3/9/9/4p4/4P4/9/9/4C4/9/3A1K3 b - - 0 1",
            "3aka3/9/9/4p4/4P4/4N4/9/4C4/9/3A1K3 b - - 0 1",
        ];
        for (screens, fen) in fens.into_iter().enumerate() {
            let counts = Xiangqi::from_fen(fen).unwrap().trace().unwrap().counts;
            let aimed: Vec<_> = (0..3).map(|k| (param::CANNON_AIMED + k) as u16).collect();
            let found: Vec<_> = counts.iter().filter(|(i, _)| aimed.contains(i)).collect();
            let expected: Vec<_> = (screens < 3).then(|| ((param::CANNON_AIMED + screens) as u16, 1)).into_iter().collect();
            assert_eq!(found, expected.iter().collect::<Vec<_>>(), "{fen}");
        }
    }

    #[test]
    fn the_trace_gives_the_evaluation_back() {
        let weights: Vec<(f64, f64)> = WEIGHTS.iter().map(|w| (f64::from(w.mg), f64::from(w.eg))).collect();
        let fens = [
            crate::xiangqi::START_FEN,
            "r1bakab1r/9/2n1c1n2/p1p1p3p/6p2/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 5",
            "1nbcka1n1/8r/5C3/p1p3p2/P5bcP/9/2P1p1P2/N7B/4A1R2/2BAK2N1 b - - 13 41",
            "3aka3/9/9/9/9/9/9/4C4/9/3A1K3 b - - 0 1",
        ];
        for fen in fens {
            let pos = Xiangqi::from_fen(fen).unwrap();
            let traced = pos.trace().unwrap().value(&weights);
            // Only the integer division of the blend differs.
            assert!((traced - f64::from(pos.hand_made_value())).abs() <= 1.0, "{fen}: {traced} vs {}", pos.hand_made_value());
        }
        // The hollow cannon counts once for red, nothing for black; the
        // black palace missing both elephants counts 2 per unit of red's
        // attacking material (the cannon: 2).
        let trace = Xiangqi::from_fen("3aka3/9/9/9/9/9/9/4C4/9/3A1K3 b - - 0 1").unwrap().trace().unwrap();
        assert!(trace.counts.contains(&(param::CANNON_AIMED as u16, 1)), "{:?}", trace.counts);
        assert!(trace.counts.contains(&(param::MISSING_ELEPHANT as u16, -4)), "{:?}", trace.counts);
    }

    #[test]
    fn weight_names_say_which_piece_and_point() {
        assert_eq!(weight_name(param::MATERIAL + 4), "material Chariot");
        assert_eq!(weight_name(param::PST + 3 * 90), "piece-square Horse a9");
        assert_eq!(weight_name(param::PST + 4 * 90 + 89), "piece-square Chariot i0");
        assert_eq!(weight_name(param::CANNON_AIMED), "cannon aimed at the general, 0 between");
        assert_eq!(weight_name(param::MISSING_ELEPHANT), "missing elephant");
    }

    #[test]
    fn breakdown_sums_to_the_total() {
        let pos = Xiangqi::startpos();
        let text = pos.eval_breakdown();
        assert!(text.contains("palace") && text.contains("cannons"));
        assert!(text.contains(&format!("total: {} cp", pos.hand_made_value())));
        // The built-in network's value follows, the one the search uses.
        assert!(text.contains(&format!("network: {} cp (red's view), from <built-in>", pos.evaluate())), "{text}");
    }
}
