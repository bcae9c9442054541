//! Evaluation of xiangqi positions, in centipawns from red's point of view:
//! material (a soldier gains value once across the river) and piece-square
//! tables for the pieces that roam.

use super::Evaluate;
use crate::core::Color;
use crate::variants::xiangqi::{XRole, XSquare, Xiangqi};
use std::fmt::Write;

/// General, advisor, elephant, horse, chariot, cannon, soldier.
pub const VALUE: [i32; 7] = [0, 200, 200, 400, 900, 450, 100];
/// Extra value of a soldier across the river (it may then step sideways).
const SOLDIER_ACROSS: i32 = 100;

/// A bonus for points near the centre files and, for attackers, for being
/// advanced: from the mover's side, rank 0 is its own back rank.
/// A piece's value in exchanges (the static exchange evaluation).
pub fn see_value(role: XRole) -> i32 {
    VALUE[role.index()]
}

fn placement(role: XRole, sq: XSquare, color: Color) -> i32 {
    let file = sq.file() as i32;
    let rank = sq.relative_rank(color) as i32;
    let central = 4 - (file - 4).abs();
    match role {
        XRole::Horse => 6 * central + 4 * rank.min(7),
        XRole::Chariot => 2 * central + 3 * rank.min(6),
        XRole::Cannon => 4 * central + if rank == 2 { 10 } else { 0 },
        XRole::Soldier if rank >= 5 => 8 * central + 10 * (rank - 5).min(3) - if rank == 9 { 30 } else { 0 },
        _ => 0,
    }
}

fn side_score(pos: &Xiangqi, color: Color) -> (i32, i32) {
    let (mut material, mut place) = (0, 0);
    for role in XRole::ALL {
        for sq in pos.pieces(color, role).iter::<XSquare>() {
            material += VALUE[role.index()];
            if role == XRole::Soldier && sq.relative_rank(color) >= 5 {
                material += SOLDIER_ACROSS;
            }
            place += placement(role, sq, color);
        }
    }
    (material, place)
}

/// Red's view; a small bonus for the side to move.
fn score(pos: &Xiangqi) -> (i32, [(i32, i32); 2]) {
    let red = side_score(pos, Color::White);
    let black = side_score(pos, Color::Black);
    let tempo = if pos.side_to_move() == Color::White { 10 } else { -10 };
    (red.0 + red.1 - black.0 - black.1 + tempo, [red, black])
}

impl Evaluate for Xiangqi {
    fn evaluate(&self) -> i32 {
        score(self).0
    }

    fn eval_breakdown(&self) -> String {
        let (total, [red, black]) = score(self);
        let mut s = String::new();
        let _ = writeln!(s, "{:<12}{:>8}{:>8}{:>10}", "term", "red", "black", "red-black");
        let _ = writeln!(s, "{:<12}{:>8}{:>8}{:>10}", "material", red.0, black.0, red.0 - black.0);
        let _ = writeln!(s, "{:<12}{:>8}{:>8}{:>10}", "placement", red.1, black.1, red.1 - black.1);
        let _ = writeln!(s, "total: {total} cp (red's view)");
        s
    }
}
