//! Why a xiangqi move is refused (issue #62): the rule of RULES.md §X2
//! and §X3 a well-formed but illegal move breaks, in a player's words
//! ("the horse's leg at c2 is blocked", "the generals may not face each
//! other"). Asked only of a refused move, never in search.

use super::attacks;
use super::moves::Move;
use super::position::Xiangqi;
use super::square::{Piece, Role, Square};
use catchess_core::Color;

impl Xiangqi {
    /// Why `m` is not legal here, or `None` when it is.
    pub fn why_refused(&self, m: Move) -> Option<String> {
        if self.is_legal(m) {
            return None;
        }
        let (from, to) = (m.from(), m.to());
        let us = self.side_to_move();
        let Some(piece) = self.piece_at(from) else {
            return Some(format!("there is no piece on {from}"));
        };
        if piece.color != us {
            return Some(format!("the {} on {from} is {}'s; it is {}'s move", piece.role.name(), side(piece.color), side(us)));
        }
        if from == to {
            return Some("a move must leave its point".to_string());
        }
        if let Some(own) = self.piece_at(to).filter(|p| p.color == us) {
            return Some(format!("{to} holds your own {}", own.role.name()));
        }
        Some(self.why_not_this_way(piece, from, to).unwrap_or_else(|| self.why_general_exposed(m)))
    }

    /// The piece's geometry, and what stands in its way.
    fn why_not_this_way(&self, piece: Piece, from: Square, to: Square) -> Option<String> {
        let occupied = self.occupied();
        let (df, dr) = (to.file() as i8 - from.file() as i8, to.rank() as i8 - from.rank() as i8);
        let at = |df: i8, dr: i8| Square::from_coords((from.file() as i8 + df) as u8, (from.rank() as i8 + dr) as u8);
        let shape = |bits: u128| bits >> to.index() & 1 != 0;
        match piece.role {
            Role::General if !shape(attacks::general(from)) => {
                Some("the general steps one point along a line and never leaves the palace".to_string())
            }
            Role::Advisor if !shape(attacks::advisor(from)) => {
                Some("an advisor steps one point diagonally and never leaves the palace".to_string())
            }
            Role::Elephant => {
                if df.abs() != 2 || dr.abs() != 2 || !shape(attacks::elephant(from, 0)) {
                    return Some("an elephant moves two points diagonally and never crosses the river".to_string());
                }
                let eye = at(df / 2, dr / 2);
                occupied.contains(eye).then(|| format!("the elephant's eye at {eye} is blocked"))
            }
            Role::Horse => {
                if !shape(attacks::horse(from, 0)) {
                    return Some(
                        "a horse moves one point along a line, then one diagonally outward".to_string(),
                    );
                }
                let leg = if dr.abs() == 2 { at(0, dr / 2) } else { at(df / 2, 0) };
                occupied.contains(leg).then(|| format!("the horse's leg at {leg} is blocked"))
            }
            Role::Chariot | Role::Cannon if df != 0 && dr != 0 => {
                Some(format!("a {} moves along a line", piece.role.name()))
            }
            Role::Chariot => {
                let between = attacks::between(from, to) & occupied;
                // The nearest to `from`: the lowest going up the board or right, else the highest.
                let first = if to > from { between.first::<Square>() } else { between.last::<Square>() };
                first.map(|sq| format!("{} stands in the way", self.what_is_on(sq)))
            }
            Role::Cannon => {
                let screens = (attacks::between(from, to) & occupied).count();
                match (self.piece_at(to).is_some(), screens) {
                    (false, 0) | (true, 1) => None,
                    (false, _) => Some("a cannon moves without capturing only along an open line".to_string()),
                    (true, 0) => Some("a cannon captures only by jumping exactly one piece (its screen)".to_string()),
                    (true, n) => Some(format!(
                        "a cannon captures by jumping exactly one piece, and {n} stand between"
                    )),
                }
            }
            Role::Soldier if !shape(attacks::soldier(piece.color, from)) => Some(
                "a soldier steps one point forward, and sideways too once across the river; never back".to_string(),
            ),
            _ => None,
        }
    }

    /// A move of the right shape that the generals' rules refuse.
    fn why_general_exposed(&self, m: Move) -> String {
        let after = self.play(m);
        if after.generals_face() {
            return "the two generals may not face each other on an open file".to_string();
        }
        match self.in_check() {
            true => "your general is in check, and this move does not answer it".to_string(),
            false => "that would leave your general in check".to_string(),
        }
    }

    /// "the black horse on c8".
    fn what_is_on(&self, sq: Square) -> String {
        match self.piece_at(sq) {
            Some(p) => format!("the {} {} on {sq}", side(p.color), p.role.name()),
            None => sq.to_string(),
        }
    }
}

/// Red is `Color::White` (RULES.md §X1).
fn side(color: Color) -> &'static str {
    match color {
        Color::White => "red",
        Color::Black => "black",
    }
}
