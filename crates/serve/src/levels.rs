//! The page's playing levels 1–8 (as on lichess), each an `UCI_Elo` of the
//! engine's limited strength (`search::skill`): the one table, and the
//! level each seat of a new game starts at.

use catchess_games::{with_game, VariantKind};
use catchess_search::Skill;
use serde::Serialize;
use std::collections::BTreeMap;

/// The highest level: the full strength.
pub const MAX_LEVEL: u8 = 8;

/// Each level's `UCI_Elo` (`None`: full strength) and what it is like.
const LEVELS: [(u8, Option<u32>, &str); MAX_LEVEL as usize] = [
    (1, Some(800), "beginner: looks one move ahead and often plays a poor move; it hangs pieces"),
    (2, Some(1100), "casual: looks one move ahead, picks loosely"),
    (3, Some(1400), "improving player: one move ahead, a closer pick"),
    (4, Some(1700), "club player: a few moves ahead"),
    (5, Some(2000), "strong club player"),
    (6, Some(2200), "expert"),
    (7, Some(2400), "master: a deep search that rarely picks a worse move"),
    (8, None, "full strength: the engine's best"),
];

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
    let levels = LEVELS.iter().map(|&(level, elo, description)| LevelView { level, elo, description }).collect();
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
    match LEVELS.iter().find(|l| l.0 == level) {
        Some(&(_, elo, _)) => Ok(elo.and_then(Skill::from_elo)),
        None => Err(format!("level must be 1..={MAX_LEVEL}, got {level}")),
    }
}

/// The player's name a record gives a seat the engine played at `level`.
pub fn player_name(level: u8) -> String {
    format!("catchess level {level}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_search::skill::{ELO_MAX, ELO_MIN};

    #[test]
    fn levels_rise_in_elo_and_strength_up_to_the_full_one() {
        let mut last = None;
        for level in 1..MAX_LEVEL {
            let (_, elo, _) = LEVELS[level as usize - 1];
            let elo = elo.expect("below the top a level has an Elo");
            assert!((ELO_MIN..ELO_MAX).contains(&elo));
            let s = skill(level).unwrap().expect("weakened");
            assert!(last.is_none_or(|l: Skill| s.level() > l.level()), "level {level}");
            last = Some(s);
        }
        assert_eq!(skill(1).unwrap(), Skill::from_elo(ELO_MIN), "level 1 is the weakest");
        assert_eq!(skill(MAX_LEVEL).unwrap(), None, "the top level is the full strength");
        assert_eq!(skill(0).unwrap_err(), "level must be 1..=8, got 0");
        assert_eq!(skill(9).unwrap_err(), "level must be 1..=8, got 9");
    }

    #[test]
    fn every_seat_of_every_game_has_a_default() {
        let l = levels();
        assert_eq!(l.levels.len(), MAX_LEVEL as usize);
        assert_eq!(l.defaults["catchess"].keys().copied().collect::<Vec<_>>(), ["black", "cats", "white"]);
        assert_eq!(l.defaults["catchess"]["cats"], 1);
        assert_eq!(l.defaults["xiangqi"].keys().copied().collect::<Vec<_>>(), ["black", "red"]);
        assert_eq!(l.defaults.len(), VariantKind::ALL.len());
    }
}
