//! Points, standings, Elo and the SPRT.
//!
//! Every game hands out exactly one point: 1 to the winner's seat, or ½ to
//! each of white and black in a draw (chess; Cat Chess only after a cats
//! fault, which turns the cats' draw win into a plain draw). So in a match
//! of two engines each game scores 1, ½ or 0 for the first engine and the
//! rest for the second, in any variant, and the usual trinomial statistics
//! apply: Elo from the score fraction, the GSPRT for early stopping. With
//! three seats and two engines one engine holds two seats each game; over a
//! whole round of the schedule both hold each seat equally often, and the
//! Elo is that of the seat-balanced score.

use crate::game::Seat;

/// Points per seat (in seat order, `forfeited` marking the seats that
/// faulted and played on passing) for a game won by `winner`: 1 to the
/// winner; a draw shares the point among the seats that did not forfeit
/// (in Cat Chess a drawn game whose cats faulted: white and black ½ each).
pub fn seat_points(forfeited: &[bool], winner: Option<Seat>) -> Vec<f64> {
    let sharing = forfeited.iter().filter(|&&f| !f).count().max(1) as f64;
    forfeited
        .iter()
        .enumerate()
        .map(|(i, &out)| match winner {
            Some(w) => (w.index() == i) as u8 as f64,
            None if out => 0.0,
            None => 1.0 / sharing,
        })
        .collect()
}

/// Win, draw and loss counts (a "win" is a game worth 1 point to the
/// engine, a "draw" one worth ½, a "loss" one worth 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn add(&mut self, points: f64) {
        if points >= 0.75 {
            self.wins += 1;
        } else if points >= 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }
}

/// The logistic Elo difference for a score fraction.
pub fn elo_from_score(score: f64) -> f64 {
    // `+ 0.0` turns the -0.0 of an even score into 0.0 (printed `+0.0`).
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// The score fraction expected at an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95 % confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
    /// Likelihood of superiority: the chance that the first engine is the
    /// stronger, from wins and losses (draws carry no information).
    pub los: f64,
}

/// Mean score and per-game variance of a W/D/L record.
fn mean_and_variance(r: &Wdl) -> (f64, f64) {
    let n = r.games() as f64;
    let (w, d, l) = (r.wins as f64 / n, r.draws as f64 / n, r.losses as f64 / n);
    let s = w + d / 2.0;
    let var = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
    (s, var)
}

/// The Elo difference of the engine whose record `r` is (normal
/// approximation of the trinomial mean; bounds are infinite when the score
/// is 0 or 1). `None` before any game.
pub fn elo_estimate(r: &Wdl) -> Option<EloEstimate> {
    let n = r.games() as f64;
    if n == 0.0 {
        return None;
    }
    let (s, var) = mean_and_variance(r);
    let margin = 1.959_963_985 * (var / n).sqrt();
    let elo = |x: f64| {
        if x <= 0.0 {
            f64::NEG_INFINITY
        } else if x >= 1.0 {
            f64::INFINITY
        } else {
            elo_from_score(x)
        }
    };
    let decisive = (r.wins + r.losses) as f64;
    let los = if decisive == 0.0 {
        0.5
    } else {
        0.5 * (1.0 + erf((r.wins as f64 - r.losses as f64) / (2.0 * decisive).sqrt()))
    };
    Some(EloEstimate { elo: elo(s), low: elo(s - margin), high: elo(s + margin), los })
}

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly =
        t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 {
        -y
    } else {
        y
    }
}

/// The generalised SPRT's log-likelihood ratio of H1 (`elo1`) against H0
/// (`elo0`) for a trinomial record, in logistic Elo: with ŝ the mean score
/// and σ² its per-game variance, N·(s1 − s0)·(2ŝ − s0 − s1) / (2σ²), where
/// s0 and s1 are the scores the two hypotheses expect. Until a record has
/// every kind of result, ½ is added to each count so that a run of wins
/// alone does not make σ² zero (and the ratio infinite).
pub fn sprt_llr(r: &Wdl, elo0: f64, elo1: f64) -> f64 {
    if r.games() == 0 {
        return 0.0;
    }
    let (mut w, mut d, mut l) = (r.wins as f64, r.draws as f64, r.losses as f64);
    if w == 0.0 || d == 0.0 || l == 0.0 {
        (w, d, l) = (w + 0.5, d + 0.5, l + 0.5);
    }
    let n = w + d + l;
    let s = (w + d / 2.0) / n;
    let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    r.games() as f64 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
}

/// The SPRT's stopping bounds: accept H0 at or below the first, H1 at or
/// above the second.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAYING: [bool; 3] = [false; 3];
    const CATS_OUT: [bool; 3] = [false, false, true];
    const TWO: [bool; 2] = [false; 2];

    #[test]
    fn points_per_seat() {
        let [white, black, cats] = [0, 1, 2].map(|i| Some(Seat::new(i)));
        assert_eq!(seat_points(&PLAYING, white), [1.0, 0.0, 0.0]);
        assert_eq!(seat_points(&PLAYING, cats), [0.0, 0.0, 1.0]);
        // The cats faulted and the game was drawn.
        assert_eq!(seat_points(&CATS_OUT, None), [0.5, 0.5, 0.0]);
        assert_eq!(seat_points(&TWO, black), [0.0, 1.0]);
        assert_eq!(seat_points(&TWO, None), [0.5, 0.5]);
        for w in [white, black, cats, None] {
            assert_eq!(seat_points(&CATS_OUT, w).iter().sum::<f64>(), 1.0);
        }
    }

    #[test]
    fn elo_and_interval() {
        assert!((elo_from_score(0.75) - 190.848).abs() < 0.01);
        assert!((score_from_elo(elo_from_score(0.3)) - 0.3).abs() < 1e-12);
        let e = elo_estimate(&Wdl { wins: 30, draws: 40, losses: 30 }).unwrap();
        assert!(e.elo.abs() < 1e-9 && e.low < 0.0 && e.high > 0.0 && (e.low + e.high).abs() < 1e-9);
        assert!((e.los - 0.5).abs() < 1e-9);
        // 60 % from 100 games with 40 draws: σ² = 0.4·0.4² + 0.4·0.1² + 0.2·0.6² = 0.14.
        let e = elo_estimate(&Wdl { wins: 40, draws: 40, losses: 20 }).unwrap();
        assert!((e.elo - 70.437).abs() < 0.01, "{e:?}");
        assert!((e.low - elo_from_score(0.6 - 1.959964 * 0.0014f64.sqrt())).abs() < 0.01);
        assert!(e.los > 0.99);
        let e = elo_estimate(&Wdl { wins: 5, draws: 0, losses: 0 }).unwrap();
        assert_eq!(e.elo, f64::INFINITY);
        assert_eq!(elo_estimate(&Wdl::default()), None);
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6 && (erf(-0.5) + 0.520_499_88).abs() < 1e-6);
    }

    #[test]
    fn sprt_llr_follows_the_gsprt_formula() {
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        assert!((lo + 2.944).abs() < 0.001 && (hi - 2.944).abs() < 0.001);
        // Hand-computed: W 600, D 200, L 200, elo0 0, elo1 10.
        let r = Wdl { wins: 600, draws: 200, losses: 200 };
        let (s, var) = (0.7, 0.6 * 0.09 + 0.2 * 0.04 + 0.2 * 0.49);
        let (s0, s1) = (0.5, score_from_elo(10.0));
        let expected = 1000.0 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var);
        assert!((sprt_llr(&r, 0.0, 10.0) - expected).abs() < 1e-9);
        assert!(sprt_llr(&r, 0.0, 10.0) > hi);
        // An even record leans to H0 when H1 claims a gain.
        assert!(sprt_llr(&Wdl { wins: 500, draws: 0, losses: 500 }, 0.0, 10.0) < 0.0);
        // Wins alone: finite, and growing with the count.
        let few = sprt_llr(&Wdl { wins: 3, draws: 0, losses: 0 }, 0.0, 50.0);
        let many = sprt_llr(&Wdl { wins: 30, draws: 0, losses: 0 }, 0.0, 50.0);
        assert!(few.is_finite() && few > 0.0 && many > few && many > hi, "{few} {many}");
        assert!(few < hi);
        assert_eq!(sprt_llr(&Wdl::default(), 0.0, 10.0), 0.0);
    }
}
