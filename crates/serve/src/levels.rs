//! The page's playing levels (`catchess_engine::Level`, the one table) as
//! the API shows them, and the level each seat of a new game starts at.

use catchess_engine::Level;
use catchess_games::{with_game, VariantKind};
use catchess_search::Skill;
use serde::Serialize;
use std::collections::BTreeMap;

/// The level every engine seat of a new game starts at: low enough that a
/// person new to the game wins. Cat Chess needs the lowest: strong cats
/// make a draw, which is the cats' win, almost certain, and a strong
/// black defends long enough for them to find it.
fn default_level(variant: VariantKind) -> u8 {
    match variant {
        VariantKind::CatChess | VariantKind::CatsChess10 => 1,
        VariantKind::Chess | VariantKind::Xiangqi => 2,
    }
}

#[derive(Serialize, Debug, PartialEq)]
pub struct LevelView {
    pub level: u8,
    pub elo: Option<u32>,
    pub description: &'static str,
}

/// `GET /api/levels`.
#[derive(Serialize, Debug)]
pub struct Levels {
    pub levels: Vec<LevelView>,
    /// Per game, per seat: the level a new game presets.
    pub defaults: BTreeMap<&'static str, BTreeMap<&'static str, u8>>,
}

pub fn levels() -> Levels {
    let levels =
        Level::all().map(|l| LevelView { level: l.number(), elo: l.elo(), description: l.description() }).collect();
    let defaults = VariantKind::ALL
        .iter()
        .map(|&v| {
            let seats = with_game!(v, G => <G as catchess_game::Game>::SEATS);
            (v.name(), seats.iter().map(|s| (s.name, default_level(v))).collect())
        })
        .collect();
    Levels { levels, defaults }
}

/// The strength of level `level`, or why there is none.
pub fn skill(level: u8) -> Result<Option<Skill>, String> {
    Level::new(level).map(Level::skill)
}

/// The player's name a record gives a seat the engine played at `level`.
pub fn player_name(level: u8) -> String {
    format!("catchess level {level}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_seat_of_every_game_has_a_default() {
        let l = levels();
        assert_eq!(l.levels.len(), 8);
        assert_eq!(skill(0).unwrap_err(), "level must be 1..=8, got 0");
        assert_eq!(skill(1).unwrap(), Level::MIN.skill());
        assert_eq!(l.defaults["catchess"].keys().copied().collect::<Vec<_>>(), ["black", "cats", "white"]);
        assert_eq!(l.defaults["catchess"]["cats"], 1);
        assert_eq!(l.defaults["xiangqi"].keys().copied().collect::<Vec<_>>(), ["black", "red"]);
        assert_eq!(l.defaults.len(), VariantKind::ALL.len());
    }
}
