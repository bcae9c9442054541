//! Fancy magic bitboards: for each square, the relevant blockers times a
//! magic number, shifted, index a shared table of precomputed attacks.

use super::magic_numbers::{BISHOP_MAGICS, ROOK_MAGICS};
use super::{ray_attacks, BISHOP_DIRS, ROOK_DIRS};
use catchess_core::Square;

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

/// Every subset of `mask` (carry-rippler enumeration), empty set first.
fn subsets(mask: u64) -> impl Iterator<Item = u64> {
    let mut next = Some(0u64);
    std::iter::from_fn(move || {
        let current = next?;
        let following = current.wrapping_sub(mask) & mask;
        next = (following != 0).then_some(following);
        Some(current)
    })
}

/// Places the attack sets of one square at the end of `table`. Returns
/// `None` if `magic` maps two different attack sets to one slot.
fn fill(sq: Square, dirs: &[(i8, i8)], magic: u64, table: &mut Vec<u64>) -> Option<Magic> {
    let mask = relevant_mask(sq, dirs);
    let bits = mask.count_ones();
    let offset = table.len();
    let entry = Magic { mask, magic, shift: 64 - bits, offset: offset as u32 };
    table.resize(offset + (1 << bits), 0);
    let mut used = vec![false; 1 << bits];
    for occupied in subsets(mask) {
        let attacks = ray_attacks(sq, dirs, occupied);
        let i = entry.index(occupied);
        if used[i - offset] && table[i] != attacks {
            table.truncate(offset);
            return None;
        }
        used[i - offset] = true;
        table[i] = attacks;
    }
    Some(entry)
}

impl Sliders {
    pub fn build() -> Sliders {
        let mut table = Vec::with_capacity(107_648);
        let mut rook = [Magic::default(); 64];
        let mut bishop = [Magic::default(); 64];
        for sq in Square::all() {
            let i = sq.index();
            rook[i] = fill(sq, &ROOK_DIRS, ROOK_MAGICS[i], &mut table).expect("embedded rook magic is valid (tested)");
            bishop[i] =
                fill(sq, &BISHOP_DIRS, BISHOP_MAGICS[i], &mut table).expect("embedded bishop magic is valid (tested)");
        }
        Sliders { rook, bishop, table }
    }

    #[inline(always)]
    pub fn rook(&self, sq: Square, occupied: u64) -> u64 {
        self.table[self.rook[sq.index()].index(occupied)]
    }

    #[inline(always)]
    pub fn bishop(&self, sq: Square, occupied: u64) -> u64 {
        self.table[self.bishop[sq.index()].index(occupied)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    /// The seeded search that produced the embedded numbers: sparse random
    /// candidates, tried until one maps every blocker set without a
    /// destructive collision.
    fn find_magic(sq: Square, dirs: &[(i8, i8)], rng: &mut StdRng) -> u64 {
        let mask = relevant_mask(sq, dirs);
        loop {
            let magic = rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>();
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            if fill(sq, dirs, magic, &mut Vec::new()).is_some() {
                return magic;
            }
        }
    }

    #[test]
    fn embedded_magics_are_what_the_search_finds() {
        let mut rng = StdRng::seed_from_u64(0x5EED_CA75);
        for sq in Square::all() {
            assert_eq!(find_magic(sq, &ROOK_DIRS, &mut rng), ROOK_MAGICS[sq.index()], "rook {sq}");
            assert_eq!(find_magic(sq, &BISHOP_DIRS, &mut rng), BISHOP_MAGICS[sq.index()], "bishop {sq}");
        }
    }

    #[test]
    fn the_table_has_the_fancy_magic_size() {
        assert_eq!(Sliders::build().table.len(), 102_400 + 5_248);
    }
}
