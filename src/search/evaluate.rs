//! Static evaluation: how good a position is, in centipawns from the first
//! seat's point of view (white's, red's). One scalar serves every seat:
//! each seat's `Goal` says how it reads it (see `search`).

use crate::core::Tapered;

/// A game the search can evaluate.
pub trait Evaluate {
    /// Centipawns from white's point of view.
    fn evaluate(&self) -> i32;
    /// The evaluation term by term, for humans (the protocol's `eval`).
    fn eval_breakdown(&self) -> String;

    /// The weights `catchess tune` may fit, if the evaluation has any.
    fn tunable() -> Option<&'static Tunable> {
        None
    }
    /// The evaluation as a function of the tunable weights (see `Trace`);
    /// `None` when there are none.
    fn trace(&self) -> Option<Trace> {
        None
    }
}

/// An evaluation's tunable weights: where they live and how to write them.
pub struct Tunable {
    /// The weights in use, each a (middlegame, endgame) pair.
    pub weights: &'static [Tapered],
    /// Each weight's name, for reports.
    pub name: fn(usize) -> String,
    /// The groups of weights: (name, first index, length), in order.
    pub groups: &'static [(&'static str, usize, usize)],
    /// The source file that holds them, from the repository's root.
    pub path: &'static str,
    /// That file's text for `weights`, which `command` produced.
    pub source: fn(&[Tapered], &str) -> String,
}

/// How the evaluation of one position depends on the tunable weights:
///
/// `evaluate() ≈ (Σ count·w + rest).blend(mg_share) · scale + tempo`
///
/// with `w` the weights, `count` how often each weight counts for white
/// less for black, `rest` the terms no weight covers (king danger, ...),
/// all linear but for the scale, which is kept as the weights in use made it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// (weight index, white count less black count), counts not zero.
    pub counts: Vec<(u16, i16)>,
    /// The share of the middlegame part (1: all pieces on the board).
    pub mg_share: f32,
    pub rest: Tapered,
    /// The share of the advantage that counts (1: all of it).
    pub scale: f32,
    pub tempo: i32,
}

impl Trace {
    /// The evaluation the trace gives for `weights` (white's view).
    pub fn value(&self, weights: &[(f64, f64)]) -> f64 {
        let (mut mg, mut eg) = (f64::from(self.rest.mg), f64::from(self.rest.eg));
        for &(i, c) in &self.counts {
            let (wm, we) = weights[i as usize];
            mg += f64::from(c) * wm;
            eg += f64::from(c) * we;
        }
        let share = f64::from(self.mg_share);
        (mg * share + eg * (1.0 - share)) * f64::from(self.scale) + f64::from(self.tempo)
    }
}
