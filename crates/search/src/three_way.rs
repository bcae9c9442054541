//! How the one number reads as three seats' chances, and back: in a game
//! with a near-zero seat (Cat Chess: white, black and the cats, who win
//! every draw), a first-seat value `s` gives the first seat the chance
//! [`win_chance`]`(s)` to win, the second `win_chance(-s)` and the
//! near-zero seat the rest. A logistic reading, not a fitted model: a seat
//! needs about +3 pawns for an even chance to convert. The protocol's
//! outlook reports it (`engine::outlook`), a three-outcome network learns
//! from it (`tune::nnue`) and gives its own chances back to the search as
//! the value [`value_of`] finds.

/// Centipawns of edge for an even chance to win.
const EVEN: f64 = 300.0;
/// Centipawns per unit of the logistic's slope.
const SPREAD: f64 = 120.0;

/// The chance that a seat with an edge of `edge` centipawns wins.
#[inline]
pub fn win_chance(edge: f64) -> f64 {
    1.0 / (1.0 + (-(edge - EVEN) / SPREAD).exp())
}

/// The three chances a first-seat value `s` stands for: the first
/// seat's, the second's and the near-zero seat's.
pub fn chances(s: f64) -> [f64; 3] {
    let (first, second) = (win_chance(s), win_chance(-s));
    [first, second, (1.0 - first - second).max(0.0)]
}

/// The first seat's chance less the second's at value `s`: odd and
/// increasing, from -1 to 1.
fn lead(s: f64) -> f64 {
    win_chance(s) - win_chance(-s)
}

/// The largest value [`value_of`] gives: a lead this sure is a win but
/// for a mate to find (beyond it `lead` differs from 1 by under 1e-9).
pub const MAX_VALUE: i32 = 3_000;

/// Steps of the lead in [`value_of`]'s table, from 0 to 1.
const STEPS: usize = 4096;

/// `VALUES[i]`: the value whose lead is `i / STEPS`, found once by
/// bisection (`lead` has no closed inverse).
static VALUES: once_cell::sync::Lazy<Box<[i16; STEPS + 1]>> = once_cell::sync::Lazy::new(|| {
    let mut table = Box::new([0i16; STEPS + 1]);
    for (i, v) in table.iter_mut().enumerate() {
        let target = i as f64 / STEPS as f64;
        let (mut low, mut high) = (0.0, f64::from(MAX_VALUE));
        for _ in 0..40 {
            let mid = (low + high) / 2.0;
            if lead(mid) < target {
                low = mid;
            } else {
                high = mid;
            }
        }
        *v = high.round() as i16;
    }
    table
});

/// The first-seat value whose reading gives the first seat's chance less
/// the second's as `first - second`: what the search makes of a
/// three-outcome network's chances. The first and second seats maximise
/// and minimise that difference, as they do the value; the near-zero seat
/// keeps it near zero, which is its own chance's peak on the reading's
/// curve (where both other seats have real chances at once, the one
/// number cannot tell it apart from a quiet position). Accurate to the
/// table's step: under a centipawn near 0, some 15 at ±1,000.
#[inline]
pub fn value_of(first: f32, second: f32) -> i32 {
    let lead = (first - second).clamp(-1.0, 1.0);
    let i = (lead.abs() * STEPS as f32).round() as usize;
    let v = i32::from(VALUES[i.min(STEPS)]);
    if lead < 0.0 {
        -v
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reading_gives_each_seat_its_chance() {
        let [w, b, c] = chances(0.0);
        assert_eq!(w, b);
        assert!((w + b + c - 1.0).abs() < 1e-12 && c > 0.8, "{c}");
        let [w, b, _] = chances(300.0);
        assert!((w - 0.5).abs() < 1e-12 && b < 0.01);
        let [w, b, c] = chances(-2000.0);
        assert!(b > 0.999 && w < 1e-6 && c < 1e-3);
    }

    #[test]
    fn the_value_of_chances_reads_back_as_the_same_lead() {
        for s in (-1500i32..=1500).step_by(25) {
            let [w, b, _] = chances(f64::from(s));
            let v = value_of(w as f32, b as f32);
            let error = (lead(f64::from(v)) - lead(f64::from(s))).abs();
            assert!(error <= 1.0 / STEPS as f64, "{s} -> {v}: lead off by {error}");
            assert_eq!(v.signum(), s.signum(), "{s} -> {v}");
        }
        assert_eq!(value_of(0.3, 0.3), 0);
        assert_eq!(value_of(1.0, 0.0), MAX_VALUE.min(i32::from(VALUES[STEPS])));
        assert!(value_of(1.0, 0.0) > 1000 && value_of(0.0, 1.0) == -value_of(1.0, 0.0));
        // Out-of-range input (rounding) is clamped, not a panic.
        assert_eq!(value_of(1.5, -0.5), value_of(1.0, 0.0));
    }
}
