//! Fancy magic bitboards: for each square, the relevant blockers times a
//! magic number, shifted, index a shared table of precomputed attacks.
//! The magics are found at start-up by a seeded search (a few milliseconds),
//! so no opaque constants live in the source.

use super::{ray_attacks, BISHOP_DIRS, ROOK_DIRS};
use crate::core::Square;
use rand::{rngs::StdRng, Rng, SeedableRng};

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

pub struct Sliders {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    table: Vec<u64>,
}

impl Magic {
    #[inline(always)]
    fn index(&self, occupied: u64) -> usize {
        self.offset as usize + ((occupied & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

/// Blockers that matter for a slider on `sq`: its empty-board rays without
/// the last square of each ray (a piece there changes nothing).
fn relevant_mask(sq: Square, dirs: &[(i8, i8)]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            if next.offset(df, dr).is_none() {
                break;
            }
            mask |= 1 << next.index();
            cur = next;
        }
    }
    mask
}

fn find_magic(sq: Square, dirs: &[(i8, i8)], rng: &mut StdRng, table: &mut Vec<u64>) -> Magic {
    let mask = relevant_mask(sq, dirs);
    let bits = mask.count_ones();
    let size = 1usize << bits;
    // Every subset of the mask (carry-rippler) with its true attack set.
    let mut occupancies = Vec::with_capacity(size);
    let mut subset = 0u64;
    loop {
        occupancies.push((subset, ray_attacks(sq, dirs, subset)));
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            break;
        }
    }
    let offset = table.len();
    table.resize(offset + size, 0);
    let mut epoch = vec![0u32; size];
    for attempt in 1u32.. {
        let magic = rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        let candidate = Magic { mask, magic, shift: 64 - bits, offset: offset as u32 };
        let ok = occupancies.iter().all(|&(occ, attacks)| {
            let i = candidate.index(occ) - offset;
            if epoch[i] != attempt {
                epoch[i] = attempt;
                table[offset + i] = attacks;
                true
            } else {
                table[offset + i] == attacks
            }
        });
        if ok {
            return candidate;
        }
    }
    unreachable!("the attempt counter is unbounded")
}

impl Sliders {
    pub fn build() -> Sliders {
        let mut rng = StdRng::seed_from_u64(0x5EED_CA75);
        let mut table = Vec::with_capacity(107_648);
        let mut rook = [Magic::default(); 64];
        let mut bishop = [Magic::default(); 64];
        for sq in Square::all() {
            rook[sq.index()] = find_magic(sq, &ROOK_DIRS, &mut rng, &mut table);
            bishop[sq.index()] = find_magic(sq, &BISHOP_DIRS, &mut rng, &mut table);
        }
        Sliders { rook, bishop, table }
    }

    #[inline(always)]
    pub fn rook(&self, sq: Square, occupied: u64) -> u64 {
        // SAFETY-free: the index is below the table length by construction,
        // and `get_unchecked` would buy little; keep the bounds check.
        self.table[self.rook[sq.index()].index(occupied)]
    }

    #[inline(always)]
    pub fn bishop(&self, sq: Square, occupied: u64) -> u64 {
        self.table[self.bishop[sq.index()].index(occupied)]
    }
}
