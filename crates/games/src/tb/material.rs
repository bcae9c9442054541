//! Material sets: the men of a table besides the two kings.

use crate::chess::{Piece, Position, Role, Variant};
use catchess_core::Color;
use std::fmt;
use std::str::FromStr;

/// What stands on the board besides the two kings (and the cats): here at
/// most one more man, which is what the tables cover. Written as in the
/// literature, white's men, `v`, black's: `KQvK`, `KvKP`, `KvK`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Material {
    /// The one man besides the kings, if any.
    pub extra: Option<Piece>,
}

/// The material sets that need a table file, in the order `generate` builds
/// them when asked for everything (each pawn set after the sets its
/// promotions lead to).
pub const WITH_FILES: [&str; 6] = ["KQvK", "KvKQ", "KRvK", "KvKR", "KPvK", "KvKP"];

impl Material {
    /// Whether a mate is possible at all: without it nobody can win and the
    /// game is over at once (RULES.md §8, insufficient material), so such a
    /// set needs no file.
    pub fn can_mate(self) -> bool {
        matches!(self.extra.map(|p| p.role), Some(Role::Queen | Role::Rook | Role::Pawn))
    }

    pub fn has_pawn(self) -> bool {
        matches!(self.extra, Some(Piece { role: Role::Pawn, .. }))
    }

    /// The only side that can ever win with this material (and every set its
    /// promotions lead to): the owner of the extra man.
    pub fn stronger(self) -> Option<Color> {
        self.extra.filter(|_| self.can_mate()).map(|p| p.color)
    }

    /// The material of a position, or why it is not one the tables cover.
    pub fn of<V: Variant>(pos: &Position<V>) -> Result<Material, String> {
        let kings = pos.by_role(Role::King);
        let men = pos.by_color(Color::White) | pos.by_color(Color::Black);
        let others = men - kings;
        if others.count() > 1 {
            return Err(format!("{} men besides the kings: the tables cover at most one", others.count()));
        }
        Ok(Material { extra: others.first().and_then(|sq| pos.piece_at(sq)) })
    }

    /// The materials a move can lead to from this one: a capture of the
    /// extra man (two bare kings) and a pawn's four promotions.
    pub fn successors(self) -> Vec<Material> {
        let mut next = vec![Material { extra: None }];
        if let Some(Piece { color, role: Role::Pawn }) = self.extra {
            for role in Role::PROMOTIONS {
                next.push(Material { extra: Some(Piece { color, role }) });
            }
        }
        next
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = |color| match self.extra {
            Some(p) if p.color == color => p.role.char().to_ascii_uppercase().to_string(),
            _ => String::new(),
        };
        write!(f, "K{}vK{}", letter(Color::White), letter(Color::Black))
    }
}

impl FromStr for Material {
    type Err = String;
    /// `KQvK`, `KvKR`, `KvK`: kings first, upper-case letters.
    fn from_str(text: &str) -> Result<Material, String> {
        let bad = |why: &str| format!("material {text:?}: {why} (expected e.g. KQvK, KvKR, KPvK)");
        let (white, black) = text.split_once('v').ok_or_else(|| bad("no 'v' between white's and black's men"))?;
        let mut extra = None;
        for (men, color) in [(white, Color::White), (black, Color::Black)] {
            let rest = men.strip_prefix('K').ok_or_else(|| bad("each side's men start with its king K"))?;
            for c in rest.chars() {
                let role = match c {
                    'Q' => Role::Queen,
                    'R' => Role::Rook,
                    'B' => Role::Bishop,
                    'N' => Role::Knight,
                    'P' => Role::Pawn,
                    _ => return Err(bad(&format!("{c:?} is not one of Q, R, B, N, P"))),
                };
                if extra.is_some() {
                    return Err(bad("the tables cover one man besides the kings at most"));
                }
                extra = Some(Piece { color, role });
            }
        }
        Ok(Material { extra })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_bad_ones_are_refused() {
        for name in WITH_FILES.iter().chain(&["KvK", "KBvK", "KvKN"]) {
            assert_eq!(name.parse::<Material>().unwrap().to_string(), *name);
        }
        for bad in ["KQK", "QvK", "KQvKR", "KXvK", "kqvk", "KQQvK"] {
            assert!(bad.parse::<Material>().is_err(), "{bad}");
        }
        assert!("KQvK".parse::<Material>().unwrap().can_mate());
        assert!(!"KBvK".parse::<Material>().unwrap().can_mate());
        assert!(!"KvK".parse::<Material>().unwrap().can_mate());
        assert_eq!("KvKP".parse::<Material>().unwrap().stronger(), Some(Color::Black));
    }
}
