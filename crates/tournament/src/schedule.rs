//! Who sits where: a round is every way to seat the engines, each way
//! once, so every engine plays every seat equally often; and which two
//! games of a round form a pair (the same opening, the engines swapped).
//! An engine pinned to a seat (`seat=cats`) sits there in every game; the
//! others rotate through the seats left as if they were the whole match.

/// All seatings of `engines` engines in `seats` seats that use as many
/// different engines as possible: with at least as many engines as seats,
/// every ordered choice of distinct engines; with fewer, every seating in
/// which each engine plays at least once (two engines in Cat Chess's three
/// seats: AAB, ABA, BAA, ABB, BAB, BBA). Either set is closed under
/// renaming engines and under permuting seats, so across a round each
/// engine sits in each seat equally often and meets each opponent equally
/// often. In lexicographic order: engine 0 starts as white.
pub fn round(engines: usize, seats: usize) -> Vec<Vec<usize>> {
    assert!(engines > 0 && seats > 0);
    let distinct = engines.min(seats);
    let total = engines.checked_pow(seats as u32).expect("a small match");
    let mut out = Vec::new();
    for code in 0..total {
        let mut seating = Vec::with_capacity(seats);
        let mut c = code;
        for _ in 0..seats {
            seating.push(c % engines);
            c /= engines;
        }
        let mut used = seating.clone();
        used.sort_unstable();
        used.dedup();
        if used.len() == distinct {
            out.push(seating);
        }
    }
    out.sort();
    out
}

/// One round of a match in which engine `e` is pinned to seat `pins[e]`
/// (`None`: it rotates): the [`round`] of the rotating engines in the seats
/// no engine is pinned to, with the pinned engines in theirs. Without pins
/// it is `round(pins.len(), seats)`. The caller has checked the pins
/// (distinct seats, at least one rotating engine and one free seat).
pub fn pinned_round(pins: &[Option<usize>], seats: usize) -> Vec<Vec<usize>> {
    let rotating = rotating(pins);
    let free: Vec<usize> = (0..seats).filter(|s| !pins.contains(&Some(*s))).collect();
    let mut seating = vec![0; seats];
    for (e, pin) in pins.iter().enumerate() {
        if let Some(s) = pin {
            seating[*s] = e;
        }
    }
    round(rotating.len(), free.len())
        .into_iter()
        .map(|inner| {
            for (&seat, &r) in free.iter().zip(&inner) {
                seating[seat] = rotating[r];
            }
            seating.clone()
        })
        .collect()
}

/// The engines that rotate through the seats (not pinned), in engine order.
pub fn rotating(pins: &[Option<usize>]) -> Vec<usize> {
    (0..pins.len()).filter(|&e| pins[e].is_none()).collect()
}

/// The pair game `i` (0-based) belongs to when exactly two engines rotate:
/// its round and the lower of its and its partner's place in the round
/// (the partner has the two rotating engines swapped in every seat; pinned
/// engines stay).
pub fn pair_of(round: &[Vec<usize>], i: usize, rotating: &[usize]) -> Option<(usize, usize)> {
    let &[a, b] = rotating else { return None };
    let k = i % round.len();
    let swapped: Vec<usize> = round[k]
        .iter()
        .map(|&e| {
            if e == a {
                b
            } else if e == b {
                a
            } else {
                e
            }
        })
        .collect();
    let partner = round.iter().position(|s| *s == swapped)?;
    Some((i / round.len(), k.min(partner)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat_counts(r: &[Vec<usize>], engines: usize, seats: usize) -> Vec<Vec<usize>> {
        let mut counts = vec![vec![0; seats]; engines];
        for seating in r {
            for (seat, &e) in seating.iter().enumerate() {
                counts[e][seat] += 1;
            }
        }
        counts
    }

    #[test]
    fn every_engine_plays_every_seat_equally() {
        for (engines, seats, len) in [(2, 2, 2), (3, 3, 6), (2, 3, 6), (4, 3, 24), (1, 3, 1), (5, 2, 20)] {
            let r = round(engines, seats);
            assert_eq!(r.len(), len, "{engines} engines, {seats} seats");
            let counts = seat_counts(&r, engines, seats);
            let first = counts[0][0];
            assert!(counts.iter().flatten().all(|&c| c == first), "{counts:?}");
        }
        assert_eq!(round(2, 2), vec![vec![0, 1], vec![1, 0]]);
        assert_eq!(round(2, 3)[0], vec![0, 0, 1]);
        assert!(round(3, 3).iter().all(|s| s[0] != s[1] && s[1] != s[2] && s[0] != s[2]));
    }

    #[test]
    fn pairs_are_the_games_of_an_opening_with_the_engines_swapped() {
        let chess = round(2, 2);
        assert_eq!(
            (pair_of(&chess, 0, &[0, 1]), pair_of(&chess, 1, &[0, 1]), pair_of(&chess, 5, &[0, 1])),
            (Some((0, 0)), Some((0, 0)), Some((2, 0)))
        );
        // Cat Chess, two engines: AAB with BBA, ABA with BAB, ABB with BAA.
        let cats = round(2, 3);
        let ids: Vec<_> = (0..6).map(|i| pair_of(&cats, i, &[0, 1]).unwrap().1).collect();
        assert_eq!(ids, [0, 1, 2, 2, 1, 0]);
        assert_eq!(pair_of(&round(3, 2), 0, &[0, 1, 2]), None);
    }

    #[test]
    fn a_pinned_engine_keeps_its_seat_and_the_others_rotate() {
        assert_eq!(pinned_round(&[None, None, None], 3), round(3, 3));
        // Cat Chess, r (engine 0) pinned to the cats: a and b swap colours.
        let r = pinned_round(&[Some(2), None, None], 3);
        assert_eq!(r, vec![vec![1, 2, 0], vec![2, 1, 0]]);
        assert_eq!(
            (pair_of(&r, 0, &[1, 2]), pair_of(&r, 1, &[1, 2]), pair_of(&r, 3, &[1, 2])),
            (Some((0, 0)), Some((0, 0)), Some((1, 0)))
        );
        // One engine against pinned cats holds white and black.
        assert_eq!(pinned_round(&[None, Some(2)], 3), vec![vec![0, 0, 1]]);
        // Three rotating engines in the two seats left: every ordered choice.
        let r = pinned_round(&[None, Some(0), None, None], 3);
        assert_eq!(r.len(), 6);
        assert!(r.iter().all(|s| s[0] == 1 && s[1] != 1 && s[2] != 1 && s[1] != s[2]));
        assert_eq!(rotating(&[None, Some(0), None, None]), [0, 2, 3]);
    }
}
