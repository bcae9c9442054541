//! The games, each a plug-in under `crates/games/src/<game>/`, and the one place
//! where a game chosen at run time (protocol option, command-line flag)
//! becomes a type: the `games!` list below, one line per folder. The
//! `README.md` beside this file says how to add a game.

use catchess_game::view::BoardView;
use catchess_game::{Arbitration, Game, GameOption, Notation};
use catchess_search::SearchGame;
use std::fmt;
use std::str::FromStr;

/// Everything the engine layers (protocol, arbiter, bench, web page) need
/// of a game: its rules and turn model, notation, arbitration, search
/// hooks and how it is drawn.
pub trait Playable: SearchGame + Notation + Arbitration + BoardView {}

impl<G: SearchGame + Notation + Arbitration + BoardView> Playable for G {}

/// Declares the games: each folder's module and the game types it
/// exports, the [`VariantKind`] enum and its names, and the `with_game!`
/// macro that turns a `VariantKind` into its type. (`$d` is a `$` passed
/// in, so that the macro this one writes can have variables of its own.)
macro_rules! games {
    ($d:tt $($module:ident: $($ty:ident),+;)*) => {
        $(
            pub mod $module;
            pub use $module::{$($ty),+};
        )*

        /// A game chosen at run time. Code that must work for every game
        /// matches on it once with `with_game!` and goes on in generic,
        /// monomorphised code.
        #[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
        pub enum VariantKind {
            $($($ty,)+)*
        }

        impl VariantKind {
            pub const ALL: &'static [VariantKind] = &[$($(VariantKind::$ty,)+)*];

            /// The `UCI_Variant` name.
            pub fn name(self) -> &'static str {
                match self {
                    $($(VariantKind::$ty => <$ty as Game>::VARIANT,)+)*
                }
            }
        }

        /// The engine options the games add to the protocol's list
        /// (`SearchGame::OPTIONS`), each once, in the order of `games!`.
        pub fn options() -> Vec<&'static GameOption> {
            let mut all: Vec<&'static GameOption> = Vec::new();
            $($(
                for o in <$ty as SearchGame>::OPTIONS {
                    if !all.iter().any(|a| a.name == o.name) {
                        all.push(o);
                    }
                }
            )+)*
            all
        }

        /// Builds every game's tables now (each folder's `init()`), rather
        /// than inside the first timed search or perft.
        pub fn init() {
            $($module::init();)*
        }

        /// Runs `$body` with `$G` bound to the game type of `$kind`.
        #[macro_export]
        macro_rules! with_game {
            ($d kind:expr, $d G:ident => $d body:expr) => {
                match $d kind {
                    $($($d crate::VariantKind::$ty => {
                        type $d G = $d crate::$ty;
                        $d body
                    })+)*
                }
            };
        }
    };
}

// The games: `folder: GameType, ...;`, in the order `uci` lists them.
games! { $
    chess: CatChess, Chess;
    xiangqi: Xiangqi;
    catschess10: CatsChess10;
}

/// Endgame tables of the chess-board games (chess and Cat Chess), which the
/// chess plug-in probes in its search; here because each needs the other.
pub mod tb;

/// The NNUE evaluation networks shared by the games that have one (chess,
/// xiangqi): the network, its file, and each game's `EvalFile` choice.
pub mod nnue;

#[cfg(feature = "clap")]
pub mod clap_value;

impl fmt::Display for VariantKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for VariantKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        VariantKind::ALL.iter().copied().find(|v| v.name() == s).ok_or_else(|| {
            let names: Vec<_> = VariantKind::ALL.iter().map(|v| v.name()).collect();
            format!("unknown variant {s:?} (known: {})", names.join(", "))
        })
    }
}

impl VariantKind {
    /// The variant of a game record (PGN) by its `Variant` tag: one of ours
    /// by its name, in any case, or `Standard`, PGN's name for chess;
    /// `default` for a record without the tag. The one reading of the tag
    /// (the web app's import, `pgn check`, opening books).
    pub fn of_record(tag: Option<&str>, default: VariantKind) -> Result<VariantKind, String> {
        match tag {
            None => Ok(default),
            Some(t) if t.eq_ignore_ascii_case("standard") => Ok(VariantKind::Chess),
            Some(t) => t.to_ascii_lowercase().parse(),
        }
    }

    /// Every word that ends a record of some game as its result besides
    /// PGN's own (`game::pgn::result_words`: a seat's name, `draw`), for
    /// reading a file whose games' variants are known only from their tags.
    pub fn all_result_words() -> Vec<&'static str> {
        let mut words: Vec<&'static str> = Vec::new();
        for &v in VariantKind::ALL {
            for w in with_game!(v, G => catchess_game::pgn::result_words::<G>()) {
                if !words.contains(&w) {
                    words.push(w);
                }
            }
        }
        words
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_is_found_by_its_name_and_dispatches_to_its_type() {
        for &v in VariantKind::ALL {
            assert_eq!(v.name().parse::<VariantKind>(), Ok(v));
            assert_eq!(with_game!(v, G => <G as Game>::VARIANT), v.name());
        }
        assert!("shogi".parse::<VariantKind>().unwrap_err().contains("known: catchess, chess, xiangqi, catschess10"));
    }

    #[test]
    fn records_name_their_variant_by_its_tag() {
        let of = VariantKind::of_record;
        assert_eq!(of(None, VariantKind::CatChess), Ok(VariantKind::CatChess));
        assert_eq!(of(Some("Standard"), VariantKind::CatChess), Ok(VariantKind::Chess));
        assert_eq!(of(Some("XiangQi"), VariantKind::Chess), Ok(VariantKind::Xiangqi));
        assert!(of(Some("shogi"), VariantKind::Chess).unwrap_err().contains("unknown variant"));
        let words = VariantKind::all_result_words();
        for w in ["white", "black", "cats", "red", "draw"] {
            assert!(words.contains(&w), "{w}");
        }
    }
}
