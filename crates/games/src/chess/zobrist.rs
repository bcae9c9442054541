//! Zobrist keys: one random 64-bit number per (feature, square), XORed
//! together so a move updates a position's key in a few instructions.

use super::types::{Role, Side};
use catchess_core::{Color, Square};
use once_cell::sync::Lazy;
use rand::{rngs::StdRng, Rng, SeedableRng};

pub struct Keys {
    piece: [[[u64; 64]; 6]; 2],
    cat: [u64; 64],
    side: [u64; 3],
    castling: [u64; 16],
    ep_file: [u64; 8],
}

/// Fixed seed: keys, and so transposition-table behaviour and bench node
/// counts, are the same on every run.
static KEYS: Lazy<Keys> = Lazy::new(|| {
    let mut rng = StdRng::seed_from_u64(0x00CA_7C4E_5500_u64);
    let mut keys = Keys { piece: [[[0; 64]; 6]; 2], cat: [0; 64], side: [0; 3], castling: [0; 16], ep_file: [0; 8] };
    for color in keys.piece.iter_mut() {
        for role in color.iter_mut() {
            role.iter_mut().for_each(|k| *k = rng.gen());
        }
    }
    keys.cat.iter_mut().for_each(|k| *k = rng.gen());
    keys.side.iter_mut().for_each(|k| *k = rng.gen());
    keys.ep_file.iter_mut().for_each(|k| *k = rng.gen());
    // Castling keys are combinations of four independent per-right keys, so
    // losing one right is a single XOR whatever the others are.
    let rights: [u64; 4] = rng.gen();
    for (mask, key) in keys.castling.iter_mut().enumerate() {
        *key = (0..4).filter(|i| mask >> i & 1 != 0).fold(0, |k, i| k ^ rights[i]);
    }
    keys
});

#[inline(always)]
pub fn keys() -> &'static Keys {
    &KEYS
}

impl Keys {
    #[inline(always)]
    pub fn piece(&self, color: Color, role: Role, sq: Square) -> u64 {
        self.piece[color.index()][role.index()][sq.index()]
    }
    #[inline(always)]
    pub fn cat(&self, sq: Square) -> u64 {
        self.cat[sq.index()]
    }
    #[inline(always)]
    pub fn side(&self, side: Side) -> u64 {
        self.side[side.index()]
    }
    #[inline(always)]
    pub fn castling(&self, rights: u8) -> u64 {
        self.castling[rights as usize & 15]
    }
    #[inline(always)]
    pub fn ep_file(&self, file: u8) -> u64 {
        self.ep_file[file as usize & 7]
    }
}
