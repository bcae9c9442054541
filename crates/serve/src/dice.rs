//! The server's dice (Cat's Chess 10×10's teleport, rules §Z11): every
//! roll is drawn from the game's own secret seed, the roll's place in the
//! game (the ply it lands at and the position it is rolled in) and how
//! many times it has been rolled again there (`reroll`), so that the
//! same roll at the same place always gives the same square: a take-back
//! followed by the same teleport lands where the first one did, and no
//! one can roll again by taking back (issue #61: 23 distinct squares in
//! 30 take-backs). The seed is 128 random bits kept with the game in the
//! database and never sent to a client, so the rolls stay unpredictable.
//!
//! The generator is ChaCha (`rand`'s `StdRng`) keyed by the seed and the
//! roll's place: a roll at another place, or another game's, is
//! unrelated to this one.

use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// A game's dice: its secret seed, and the draw made last (0 for a first
/// roll, one more for each `reroll` of it), which the next `reroll`
/// follows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dice {
    /// 32 hex digits (JSON has no 128-bit numbers).
    seed: String,
    last_draw: u32,
}

impl Default for Dice {
    fn default() -> Self {
        Dice::new()
    }
}

impl Dice {
    /// New dice with a fresh seed from the operating system's generator.
    pub fn new() -> Dice {
        Dice { seed: format!("{:032x}", rand::rngs::OsRng.gen::<u128>()), last_draw: 0 }
    }

    fn seed(&self) -> u128 {
        // A seed that does not read (a hand-edited row) still rolls, as
        // the seed 0 would: the rolls of that game are then guessable,
        // never refused.
        u128::from_str_radix(&self.seed, 16).unwrap_or(0)
    }

    /// The generator of a roll: draw `draw` (0, then one more for each
    /// `reroll`) of the roll landing at ply `ply` of the game, rolled in
    /// the position whose FEN is `fen`. Records the draw, for the next
    /// `reroll`.
    pub fn roll(&mut self, ply: usize, fen: &str, draw: u32) -> rand::rngs::StdRng {
        self.last_draw = draw;
        let mut key = [0u8; 32];
        key[..16].copy_from_slice(&self.seed().to_le_bytes());
        key[16..20].copy_from_slice(&(ply as u32).to_le_bytes());
        key[20..24].copy_from_slice(&draw.to_le_bytes());
        key[24..].copy_from_slice(&fnv1a(fen.as_bytes()).to_le_bytes());
        rand::rngs::StdRng::from_seed(key)
    }

    /// The draw a `reroll` of the last roll makes.
    pub fn next_draw(&self) -> u32 {
        self.last_draw.saturating_add(1)
    }
}

/// FNV-1a, 64 bits: the position's text folded into the key (the secret
/// seed, not this, is what makes the rolls unpredictable).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draws(dice: &mut Dice, ply: usize, fen: &str, draw: u32) -> Vec<u32> {
        let mut rng = dice.roll(ply, fen, draw);
        (0..8).map(|_| rng.gen_range(0..1000)).collect()
    }

    #[test]
    fn the_same_roll_at_the_same_place_is_the_same_and_any_other_is_not() {
        let mut dice = Dice::new();
        let first = draws(&mut dice, 3, "x", 0);
        assert_eq!(draws(&mut dice, 3, "x", 0), first);
        assert_ne!(draws(&mut dice, 4, "x", 0), first, "another ply");
        assert_ne!(draws(&mut dice, 3, "y", 0), first, "another position");
        assert_ne!(draws(&mut dice, 3, "x", 1), first, "a reroll");
        assert_eq!(dice.next_draw(), 2);
        assert_ne!(draws(&mut Dice::new(), 3, "x", 0), first, "another game's seed");
        // Kept in the database as JSON, and read back the same.
        let text = serde_json::to_string(&dice).unwrap();
        let mut back: Dice = serde_json::from_str(&text).unwrap();
        assert_eq!(draws(&mut back, 3, "x", 0), first);
    }
}
