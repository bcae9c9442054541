//! Points, Elo and the SPRT: the statistics `standings.rs` rests on.
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

use catchess_game::Seat;

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

/// Game pairs (the two games of an opening with the engines' seats
/// swapped) by the first engine's points in the pair: 0, ½, 1, 1½, 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    pub counts: [u32; 5],
}

impl Penta {
    /// Adds a pair worth `points` (0 to 2) to the first engine.
    pub fn add(&mut self, points: f64) {
        let i = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[i] += 1;
    }

    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }
}

/// Which statistics the table and the SPRT use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Model {
    /// Game pairs: 0, ½, 1, 1½ or 2 points per pair (fastchess's default);
    /// accounts for the correlation of the two games of an opening.
    #[default]
    Pentanomial,
    /// Single games: win, draw, loss.
    Trinomial,
}

/// A record as outcomes (the score fraction each is worth) and counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcomes {
    pub values: Vec<f64>,
    pub counts: Vec<f64>,
}

impl Outcomes {
    pub fn trinomial(r: &Wdl) -> Outcomes {
        Outcomes { values: vec![1.0, 0.5, 0.0], counts: vec![r.wins as f64, r.draws as f64, r.losses as f64] }
    }

    /// Per pair, the score fraction of its two games.
    pub fn pentanomial(p: &Penta) -> Outcomes {
        Outcomes { values: vec![0.0, 0.25, 0.5, 0.75, 1.0], counts: p.counts.iter().map(|&c| c as f64).collect() }
    }

    pub fn n(&self) -> f64 {
        self.counts.iter().sum()
    }

    /// Mean score and variance of one unit (game or pair).
    pub fn moments(&self) -> (f64, f64) {
        let n = self.n();
        let mean = self.values.iter().zip(&self.counts).map(|(v, c)| v * c).sum::<f64>() / n;
        let var = self.values.iter().zip(&self.counts).map(|(v, c)| c * (v - mean).powi(2)).sum::<f64>() / n;
        (mean, var)
    }

    /// The same record with ½ added to every count when some count is 0,
    /// so that a record of one kind of result has a variance above 0.
    fn regularised(&self) -> Outcomes {
        let mut r = self.clone();
        if r.counts.contains(&0.0) {
            r.counts.iter_mut().for_each(|c| *c += 0.5);
        }
        r
    }
}

/// A bound of an interval: a number, or none (the data cannot exclude
/// any value that far out yet).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    At(f64),
    Unbounded,
}

/// An Elo difference with its 95 % confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// `None` when every game was won or lost: the estimate would be infinite.
    pub elo: Option<f64>,
    pub low: Bound,
    pub high: Bound,
    /// Normalised Elo (Elo scaled by the spread of the results, so it
    /// does not shrink with the draw rate) and its interval.
    pub nelo: Option<f64>,
    pub nelo_low: f64,
    pub nelo_high: f64,
    /// Likelihood of superiority: the chance that the first engine is the
    /// stronger.
    pub los: f64,
    /// Games or pairs the estimate rests on.
    pub n: f64,
}

const Z95: f64 = 1.959_963_985;
const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// The Elo difference of the first engine from its record `o` (normal
/// approximation of the mean score). A bound that the score interval puts
/// at or past a score of 0 or 1 is `Unbounded`; when every unit was won
/// (or lost) there is no point estimate, only the one-sided bound that
/// `n` straight wins allow at 95 % (p^n = 0.05). `None` before any result.
pub fn estimate(o: &Outcomes) -> Option<EloEstimate> {
    let n = o.n();
    if n == 0.0 {
        return None;
    }
    let (s, var) = o.moments();
    // With no spread yet (one kind of result), the regularised spread:
    // an interval of width 0 would claim a certainty the data do not give.
    let spread = if var > 0.0 { var } else { o.regularised().moments().1 };
    let margin = Z95 * (spread / n).sqrt();
    let elo = |x: f64| (x > 0.0 && x < 1.0).then(|| elo_from_score(x));
    let bound = |x: f64| elo(x).map_or(Bound::Unbounded, Bound::At);
    let (mut low, mut high) = (bound(s - margin), bound(s + margin));
    if s >= 1.0 {
        low = Bound::At(elo_from_score(0.05f64.powf(1.0 / n)));
    } else if s <= 0.0 {
        high = Bound::At(elo_from_score(1.0 - 0.05f64.powf(1.0 / n)));
    }
    // Per-game spread: a pair's variance counts twice (two games).
    let games_per_unit = if o.values.len() == 5 { 2.0 } else { 1.0 };
    let sd = (games_per_unit * var).sqrt();
    let nelo = (sd > 0.0).then(|| (s - 0.5) / sd * NELO_SCALE);
    let nelo_margin = Z95 / n.sqrt() * NELO_SCALE / games_per_unit.sqrt();
    let los = 0.5 * (1.0 + libm::erf((s - 0.5) / (2.0 * spread / n).sqrt()));
    Some(EloEstimate {
        elo: elo(s),
        low,
        high,
        nelo,
        nelo_low: nelo.unwrap_or(0.0) - nelo_margin,
        nelo_high: nelo.unwrap_or(0.0) + nelo_margin,
        los,
        n,
    })
}

/// The GSPRT's log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`),
/// in logistic Elo, for a record of games or of pairs: with ŝ the mean
/// score and σ² the variance of one unit, N·(s1 − s0)·(2ŝ − s0 − s1) /
/// (2σ²), where s0 and s1 are the scores the hypotheses expect (for pairs
/// the pair's mean score has the same expectation). Until every kind of
/// result has occurred, ½ is added to each count so that a run of wins
/// alone does not make σ² zero.
pub fn sprt_llr_of(o: &Outcomes, elo0: f64, elo1: f64) -> f64 {
    let n = o.n();
    if n == 0.0 {
        return 0.0;
    }
    let (s, var) = o.regularised().moments();
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
}

/// The trinomial LLR of a W/D/L record ([`sprt_llr_of`]).
pub fn sprt_llr(r: &Wdl, elo0: f64, elo1: f64) -> f64 {
    sprt_llr_of(&Outcomes::trinomial(r), elo0, elo1)
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
        let e = estimate(&Outcomes::trinomial(&Wdl { wins: 30, draws: 40, losses: 30 })).unwrap();
        let (Bound::At(low), Bound::At(high)) = (e.low, e.high) else { panic!("{e:?}") };
        assert!(e.elo.unwrap().abs() < 1e-9 && low < 0.0 && high > 0.0 && (low + high).abs() < 1e-9);
        assert!((e.los - 0.5).abs() < 1e-9 && e.nelo.unwrap().abs() < 1e-9);
        // 60 % from 100 games with 40 draws: σ² = 0.4·0.4² + 0.4·0.1² + 0.2·0.6² = 0.14.
        let e = estimate(&Outcomes::trinomial(&Wdl { wins: 40, draws: 40, losses: 20 })).unwrap();
        assert!((e.elo.unwrap() - 70.437).abs() < 0.01, "{e:?}");
        assert_eq!(e.low, Bound::At(elo_from_score(0.6 - Z95 * 0.0014f64.sqrt())));
        assert!(e.los > 0.99);
        // nElo: (0.6 − 0.5) / √0.14 · 800 / ln 10.
        assert!((e.nelo.unwrap() - 0.1 / 0.14f64.sqrt() * NELO_SCALE).abs() < 1e-9);
        assert!((e.nelo_high - e.nelo_low - 2.0 * Z95 / 10.0 * NELO_SCALE).abs() < 1e-9);
        assert_eq!(estimate(&Outcomes::trinomial(&Wdl::default())), None);
        // LOS: Φ(0.1 / √0.0014) = Φ(2.6726).
        assert!((e.los - 0.996_236_84).abs() < 1e-8, "{e:?}");
    }

    #[test]
    fn no_infinite_bounds_after_a_clean_sweep() {
        // 2-0: no point estimate; the lower bound is what two wins allow.
        let e = estimate(&Outcomes::trinomial(&Wdl { wins: 2, draws: 0, losses: 0 })).unwrap();
        assert_eq!((e.elo, e.high, e.nelo), (None, Bound::Unbounded, None));
        assert!(e.los > 0.9, "{e:?}");
        let Bound::At(low) = e.low else { panic!("{e:?}") };
        assert!((score_from_elo(low) - 0.05f64.sqrt()).abs() < 1e-9 && low.is_finite(), "{low}");
        // All draws: Elo 0, but not ± 0.
        let e = estimate(&Outcomes::trinomial(&Wdl { wins: 0, draws: 4, losses: 0 })).unwrap();
        assert!(matches!(e.high, Bound::At(h) if h > 50.0) && e.elo == Some(0.0), "{e:?}");
        let e = estimate(&Outcomes::trinomial(&Wdl { wins: 0, draws: 0, losses: 20 })).unwrap();
        let Bound::At(high) = e.high else { panic!("{e:?}") };
        assert!(high < -200.0 && e.low == Bound::Unbounded);
        // A wide interval reaching past a score of 1: unbounded above only.
        let e = estimate(&Outcomes::trinomial(&Wdl { wins: 3, draws: 0, losses: 1 })).unwrap();
        assert!(matches!((e.low, e.high), (Bound::At(_), Bound::Unbounded)), "{e:?}");
        assert!(e.elo.unwrap() > 150.0);
    }

    #[test]
    fn pentanomial_pairs() {
        let mut p = Penta::default();
        for points in [2.0, 1.5, 1.0, 1.0, 0.5, 1.0, 1.5, 1.0] {
            p.add(points);
        }
        assert_eq!((p.counts, p.pairs()), ([0, 1, 4, 2, 1], 8));
        let o = Outcomes::pentanomial(&p);
        let (s, var) = o.moments();
        // 9.5 points from 16 games; the variance of a pair's mean score.
        assert!((s - 9.5 / 16.0).abs() < 1e-12);
        let expected =
            [(0.25, 1.0), (0.5, 4.0), (0.75, 2.0), (1.0, 1.0)].iter().map(|(v, c)| c * (v - s) * (v - s)).sum::<f64>()
                / 8.0;
        assert!((var - expected).abs() < 1e-12);
        let e = estimate(&o).unwrap();
        assert_eq!(e.n, 8.0);
        assert!((e.nelo.unwrap() - (s - 0.5) / (2.0 * var).sqrt() * NELO_SCALE).abs() < 1e-9);
        // The same 16 games (WW, WD ×2, WL ×4, DL) as independent games: the
        // pairs' 1-1 splits (an opening's bias cancelling out) narrow the interval.
        let tri = estimate(&Outcomes::trinomial(&Wdl { wins: 8, draws: 3, losses: 5 })).unwrap();
        let width = |e: &EloEstimate| match (e.low, e.high) {
            (Bound::At(l), Bound::At(h)) => h - l,
            _ => f64::INFINITY,
        };
        assert!(width(&e) < width(&tri), "{e:?} {tri:?}");
        // The LLR of pairs follows the same formula, per pair.
        let (s0, s1) = (0.5, score_from_elo(10.0));
        let reg = o.regularised();
        let (rs, rvar) = reg.moments();
        assert!((sprt_llr_of(&o, 0.0, 10.0) - 8.0 * (s1 - s0) * (2.0 * rs - s0 - s1) / (2.0 * rvar)).abs() < 1e-9);
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
        let pairs = sprt_llr_of(&Outcomes::pentanomial(&Penta { counts: [0, 0, 0, 0, 15] }), 0.0, 50.0);
        assert!(pairs.is_finite() && pairs > hi, "{pairs}");
        assert!(few.is_finite() && few > 0.0 && many > few && many > hi, "{few} {many}");
        assert!(few < hi);
        assert_eq!(sprt_llr(&Wdl::default(), 0.0, 10.0), 0.0);
    }
}
