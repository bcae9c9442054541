//! Texel tuning: the weights that best predict game results from static
//! evaluations, by logistic regression (mean squared error of
//! `sigmoid(K · eval)` against each position's target: its game's result,
//! or a blend of it with the search's score), fitted with Adam.

use super::data::Sample;

/// The win expectation of an evaluation `eval` (centipawns) at scale `k`.
#[inline]
pub fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// Mean squared error of the predictions for `weights` at scale `k`
/// against the targets.
pub fn loss(samples: &[Sample], weights: &[(f64, f64)], k: f64) -> f64 {
    loss_against(samples, weights, k, |s| s.target)
}

/// Mean squared error against the game results alone.
pub fn result_loss(samples: &[Sample], weights: &[(f64, f64)], k: f64) -> f64 {
    loss_against(samples, weights, k, |s| s.result)
}

fn loss_against(samples: &[Sample], weights: &[(f64, f64)], k: f64, target: impl Fn(&Sample) -> f64) -> f64 {
    mean_squared(samples, |s| sigmoid(k, s.input.value(weights)), target)
}

/// Mean squared error of `predict` against `target` over the samples
/// (0 for none), whatever a sample keeps of its position.
pub fn mean_squared<T>(
    samples: &[Sample<T>],
    predict: impl Fn(&Sample<T>) -> f64,
    target: impl Fn(&Sample<T>) -> f64,
) -> f64 {
    let sum: f64 = samples.iter().map(|s| (target(s) - predict(s)).powi(2)).sum();
    sum / samples.len().max(1) as f64
}

/// The scale K that fits the targets best with the weights as they are.
pub fn fit_k(samples: &[Sample], weights: &[(f64, f64)]) -> f64 {
    best_k(|k| loss(samples, weights, k))
}

/// The K in [0.05, 5] where `loss` is least, by golden-section search
/// (the loss of a sigmoid's scale is unimodal in it).
pub fn best_k(loss: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 5.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let (a, b) = (hi - g * (hi - lo), lo + g * (hi - lo));
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The loss's gradient in every weight (middlegame, endgame), summed over
/// `samples` (not yet divided by their number).
fn gradient(samples: &[Sample], weights: &[(f64, f64)], k: f64, out: &mut [(f64, f64)]) {
    let c = k * std::f64::consts::LN_10 / 400.0;
    for s in samples {
        let t = &s.input;
        let p = sigmoid(k, t.value(weights));
        // d(target - p)² / d eval
        let d = -2.0 * (s.target - p) * p * (1.0 - p) * c * f64::from(t.scale);
        let share = f64::from(t.mg_share);
        let (dm, de) = (d * share, d * (1.0 - share));
        for &(i, n) in &t.counts {
            let g = &mut out[i as usize];
            g.0 += dm * f64::from(n);
            g.1 += de * f64::from(n);
        }
    }
}

/// Settings of one fit.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub rate: f64,
    /// Threads for the gradient.
    pub threads: usize,
    /// Weight of the prior: `prior · Σ (w - w₀)²` (w₀ the weights the fit
    /// starts from, in centipawns) is added to the loss, so that a weight
    /// few positions see stays near its start instead of fitting their noise.
    pub prior: f64,
}

/// How often (in epochs) the held-out loss is measured.
const CHECK_EVERY: usize = 25;

/// Fits `weights` to `samples` at scale `k` by full-batch Adam, and keeps
/// the weights of the epoch whose loss on the held-out positions was
/// lowest (early stopping: past it the fit learns the games, not the
/// game). Weights marked `frozen` keep their values. Calls
/// `progress(epoch, training loss, held-out loss)` at each measurement and
/// returns the epoch kept (0: the weights as they were).
pub fn fit(
    samples: &[Sample],
    held_out: &[Sample],
    weights: &mut [(f64, f64)],
    frozen: &[bool],
    k: f64,
    settings: Settings,
    mut progress: impl FnMut(usize, f64, f64),
) -> usize {
    let start = weights.to_vec();
    let mut best = (loss(held_out, weights, k), 0, weights.to_vec());
    let n = weights.len();
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut m = vec![(0.0f64, 0.0f64); n];
    let mut v = vec![(0.0f64, 0.0f64); n];
    let threads = settings.threads.max(1);
    let chunk = samples.len().div_ceil(threads).max(1);
    for epoch in 1..=settings.epochs {
        let mut grad = vec![(0.0f64, 0.0f64); n];
        let parts: Vec<Vec<(f64, f64)>> = std::thread::scope(|scope| {
            let handles: Vec<_> = samples
                .chunks(chunk)
                .map(|part| {
                    let w = &*weights;
                    scope.spawn(move || {
                        let mut g = vec![(0.0f64, 0.0f64); n];
                        gradient(part, w, k, &mut g);
                        g
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("gradient thread")).collect()
        });
        for part in parts {
            for (g, p) in grad.iter_mut().zip(part) {
                g.0 += p.0;
                g.1 += p.1;
            }
        }
        let scale = 1.0 / samples.len().max(1) as f64;
        let (c1, c2) = (1.0 - b1.powi(epoch as i32), 1.0 - b2.powi(epoch as i32));
        for i in (0..n).filter(|&i| !frozen[i]) {
            let (g0, g1) = (
                grad[i].0 * scale + 2.0 * settings.prior * (weights[i].0 - start[i].0),
                grad[i].1 * scale + 2.0 * settings.prior * (weights[i].1 - start[i].1),
            );
            m[i].0 = b1 * m[i].0 + (1.0 - b1) * g0;
            m[i].1 = b1 * m[i].1 + (1.0 - b1) * g1;
            v[i].0 = b2 * v[i].0 + (1.0 - b2) * g0 * g0;
            v[i].1 = b2 * v[i].1 + (1.0 - b2) * g1 * g1;
            weights[i].0 -= settings.rate * (m[i].0 / c1) / ((v[i].0 / c2).sqrt() + eps);
            weights[i].1 -= settings.rate * (m[i].1 / c1) / ((v[i].1 / c2).sqrt() + eps);
        }
        if epoch % CHECK_EVERY == 0 || epoch == settings.epochs {
            let held = loss(held_out, weights, k);
            progress(epoch, loss(samples, weights, k), held);
            if held < best.0 {
                best = (held, epoch, weights.to_vec());
            }
        }
    }
    weights.copy_from_slice(&best.2);
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_core::Tapered;
    use catchess_search::evaluate::Trace;

    /// Positions whose only feature is a count of one weight, with results
    /// drawn so that the best weight is known: the fit must find it.
    #[test]
    fn the_fit_recovers_a_known_weight() {
        let k = 1.0;
        let truth = 100.0;
        let mut samples = Vec::new();
        for count in -3i16..=3 {
            // The expected result for `count` pieces more, at the true weight,
            // as a share of 1000 games.
            let p = sigmoid(k, truth * f64::from(count));
            let wins = (p * 1000.0).round() as usize;
            for g in 0..1000 {
                samples.push(Sample {
                    input: Trace {
                        counts: if count == 0 { vec![] } else { vec![(0, count)] },
                        mg_share: 1.0,
                        rest: Tapered::default(),
                        scale: 1.0,
                        tempo: 0,
                    },
                    result: if g < wins { 1.0 } else { 0.0 },
                    target: if g < wins { 1.0 } else { 0.0 },
                    score: None,
                    game: g,
                });
            }
        }
        let mut w = vec![(20.0, 0.0)];
        let before = loss(&samples, &w, k);
        let kept = fit(
            &samples,
            &samples,
            &mut w,
            &[false],
            k,
            Settings { epochs: 600, rate: 2.0, threads: 2, prior: 0.0 },
            |_, _, _| {},
        );
        assert!(kept > 0);
        assert!((w[0].0 - truth).abs() < 3.0, "fitted {}", w[0].0);
        assert!(loss(&samples, &w, k) < before);
        // The endgame half never counts here (mg_share 1): it stays put.
        assert!(w[0].1.abs() < 1e-9);
        // And K fits back to about 1 with the true weight.
        assert!((fit_k(&samples, &[(truth, 0.0)]) - 1.0).abs() < 0.05);
    }
}
