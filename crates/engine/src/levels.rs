//! The playing levels 1–8 (as on lichess) that the web app offers and
//! `catchess calibrate` measures: each an `UCI_Elo` of the engine's limited
//! strength (`search::skill`), which each game reads in its own table (Cat
//! Chess's reaches further down: README, "Levels in Cat Chess"). The one
//! table of levels.

use catchess_search::Skill;
use std::fmt;
use std::str::FromStr;

/// A playing level, 1 (the weakest) to [`Level::MAX`] (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// Each level's `UCI_Elo` (`None`: full strength) and what it is like.
const LEVELS: [(Option<u32>, &str); Level::MAX.0 as usize] = [
    (Some(800), "beginner: looks one move ahead and often plays a poor move; it hangs pieces"),
    (Some(1100), "casual: looks one move ahead, picks loosely"),
    (Some(1400), "improving player: one move ahead, a closer pick"),
    (Some(1700), "club player: a few moves ahead"),
    (Some(2000), "strong club player"),
    (Some(2200), "expert"),
    (Some(2400), "master: a deep search that rarely picks a worse move"),
    (None, "full strength: the engine's best"),
];

impl Level {
    pub const MIN: Level = Level(1);
    /// The full strength.
    pub const MAX: Level = Level(8);

    /// Level `n`, or why there is none.
    pub fn new(n: u8) -> Result<Level, String> {
        match (Level::MIN.0..=Level::MAX.0).contains(&n) {
            true => Ok(Level(n)),
            false => Err(format!("level must be {}..={}, got {n}", Level::MIN.0, Level::MAX.0)),
        }
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (Level::MIN.0..=Level::MAX.0).map(Level)
    }

    pub fn number(self) -> u8 {
        self.0
    }

    fn entry(self) -> (Option<u32>, &'static str) {
        LEVELS[self.0 as usize - 1]
    }

    /// The `UCI_Elo` the level plays at; `None` at full strength.
    pub fn elo(self) -> Option<u32> {
        self.entry().0
    }

    pub fn description(self) -> &'static str {
        self.entry().1
    }

    /// The search's strength at this level (`None`: full strength); each
    /// game reads the Elo in its own table (`Skill::in_game`).
    pub fn skill(self) -> Option<Skill> {
        self.elo().and_then(Skill::from_elo)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Level {
    type Err = String;

    fn from_str(s: &str) -> Result<Level, String> {
        let n = s
            .trim()
            .parse::<u8>()
            .map_err(|_| format!("level must be a number {}..={}, got {s:?}", Level::MIN.0, Level::MAX.0))?;
        Level::new(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_search::skill::{ELO_MAX, ELO_MIN};

    #[test]
    fn levels_rise_in_elo_and_strength_up_to_the_full_one() {
        let mut last: Option<Skill> = None;
        for level in Level::all().filter(|&l| l < Level::MAX) {
            let elo = level.elo().expect("below the top a level has an Elo");
            assert!((ELO_MIN..ELO_MAX).contains(&elo));
            let s = level.skill().expect("weakened");
            assert!(last.is_none_or(|l| s.level() > l.level()), "level {level}");
            last = Some(s);
        }
        assert_eq!(Level::MIN.skill(), Skill::from_elo(ELO_MIN), "level 1 is the weakest");
        assert_eq!(Level::MAX.skill(), None, "the top level is the full strength");
        assert_eq!(Level::new(0).unwrap_err(), "level must be 1..=8, got 0");
        assert_eq!("9".parse::<Level>().unwrap_err(), "level must be 1..=8, got 9");
        assert_eq!("x".parse::<Level>().unwrap_err(), "level must be a number 1..=8, got \"x\"");
        assert_eq!(" 3".parse::<Level>(), Ok(Level(3)));
        assert_eq!(Level::all().count(), 8);
    }
}
