//! Mixing 64-bit values into keys: splitmix64's finaliser, which spreads
//! every input bit over the whole output, so that a table indexed by the
//! low bits of a key sees all of its inputs.

/// splitmix64's finaliser: a bijection of `u64` whose every output bit
/// depends on every input bit.
#[inline(always)]
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A key of several values in order (square sets, say): equal parts give
/// equal keys; any change to a part gives another key but by chance.
#[inline(always)]
pub fn fold(parts: &[u64]) -> u64 {
    parts.iter().fold(0, |key, &part| mix(key ^ part))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_depends_on_every_part_and_its_place() {
        let key = fold(&[1, 2, 3]);
        assert_eq!(key, fold(&[1, 2, 3]));
        assert_ne!(key, fold(&[1, 2, 4]));
        assert_ne!(key, fold(&[3, 2, 1]), "the order counts");
        assert_ne!(fold(&[0, 1]), fold(&[1, 0]));
        assert_ne!(fold(&[0]), fold(&[0, 0]), "so does the number of parts");
    }

    #[test]
    fn mix_spreads_one_bit_over_the_low_bits() {
        // A table of 2^14 entries indexed by the low bits must tell apart
        // square sets that differ in one high square.
        let low = |x: u64| mix(x) & 0x3fff;
        let distinct: std::collections::HashSet<u64> = (0..64).map(|b| low(1 << b)).collect();
        assert!(distinct.len() >= 60, "{}", distinct.len());
    }
}
