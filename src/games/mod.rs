//! The games the engine plays, and `AnyGame`: the one place where a variant
//! chosen at run time (protocol option, command-line flag) becomes a type.

pub mod chess;
pub mod xiangqi;

pub use chess::{CatChess, Chess};
pub use xiangqi::Xiangqi;

use std::fmt;
use std::str::FromStr;

/// A variant chosen at run time. Code that must work for every game
/// matches on it once with [`with_game!`](crate::with_game) and continues
/// in generic, monomorphised code.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum VariantKind {
    CatChess,
    /// The protocol's default, as in Fairy-Stockfish (protocol.md).
    #[default]
    Chess,
    Xiangqi,
}

impl VariantKind {
    pub const ALL: [VariantKind; 3] = [VariantKind::CatChess, VariantKind::Chess, VariantKind::Xiangqi];

    pub fn name(self) -> &'static str {
        match self {
            VariantKind::CatChess => "catchess",
            VariantKind::Chess => "chess",
            VariantKind::Xiangqi => "xiangqi",
        }
    }
}

impl fmt::Display for VariantKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for VariantKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        VariantKind::ALL.into_iter().find(|v| v.name() == s).ok_or_else(|| {
            let names: Vec<_> = VariantKind::ALL.iter().map(|v| v.name()).collect();
            format!("unknown variant {s:?} (known: {})", names.join(", "))
        })
    }
}

/// Runs `$body` with `$G` bound to the game type of `$kind`.
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {
        match $kind {
            $crate::games::VariantKind::CatChess => {
                type $G = $crate::games::CatChess;
                $body
            }
            $crate::games::VariantKind::Chess => {
                type $G = $crate::games::Chess;
                $body
            }
            $crate::games::VariantKind::Xiangqi => {
                type $G = $crate::games::Xiangqi;
                $body
            }
        }
    };
}
