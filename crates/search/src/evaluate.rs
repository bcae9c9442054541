//! Static evaluation: how good a position is, in centipawns from the first
//! seat's point of view (white's, red's). One scalar serves every seat:
//! each seat's `Goal` says how it reads it (see `search`).

use catchess_core::{Color, Tapered};

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
    /// What that file holds, the opening of its doc comment.
    pub about: &'static str,
    /// Weights per line in that file.
    pub per_line: usize,
}

/// Where weight `index` is: (its group's name, its place in the group, the
/// group's length); `groups` as in [`Tunable::groups`].
pub fn group_of(groups: &[(&'static str, usize, usize)], index: usize) -> (&'static str, usize, usize) {
    let &(name, first, len) = groups.iter().rev().find(|g| g.1 <= index).expect("index 0 is in the first group");
    (name, index - first, len)
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

/// A game's tunable weights as a type, so that an [`Accumulator`] reads
/// them from a constant (the compiler then sees each index against a known
/// length, as with a plain `const` array).
pub trait WeightSet {
    const WEIGHTS: &'static [Tapered];
}

/// Sums an evaluation's terms per colour (white, black). With `TRACE` it
/// also keeps each of the `TERMS` terms for the breakdown, how often each
/// weight counted and what no weight covers (the tuner's [`Trace`]); all
/// of that is compiled out of the search's evaluation.
pub struct Accumulator<W: WeightSet, const TRACE: bool, const TERMS: usize> {
    pub total: [Tapered; 2],
    pub terms: [[Tapered; TERMS]; 2],
    /// White's count less black's, per weight (empty unless `TRACE`).
    pub counts: Vec<i32>,
    /// What no weight covers, white less black.
    pub rest: Tapered,
    weights: std::marker::PhantomData<W>,
}

impl<W: WeightSet, const TRACE: bool, const TERMS: usize> Accumulator<W, TRACE, TERMS> {
    pub fn new() -> Self {
        Accumulator {
            total: [Tapered::default(); 2],
            terms: [[Tapered::default(); TERMS]; 2],
            counts: if TRACE { vec![0; W::WEIGHTS.len()] } else { Vec::new() },
            rest: Tapered::default(),
            weights: std::marker::PhantomData,
        }
    }

    /// Weight `index`, `count` times, for `color`.
    #[inline(always)]
    pub fn weight(&mut self, color: Color, term: impl Into<usize>, index: usize, count: i32) {
        self.add_value(color, term.into(), W::WEIGHTS[index] * count);
        if TRACE {
            self.counts[index] += if color == Color::White { count } else { -count };
        }
    }

    /// A value no weight covers, for `color`.
    #[inline(always)]
    pub fn add(&mut self, color: Color, term: impl Into<usize>, v: Tapered) {
        self.add_value(color, term.into(), v);
        if TRACE {
            self.rest += if color == Color::White { v } else { Tapered::default() - v };
        }
    }

    #[inline(always)]
    fn add_value(&mut self, color: Color, term: usize, v: Tapered) {
        self.total[color.index()] += v;
        if TRACE {
            self.terms[color.index()][term] += v;
        }
    }

    /// White's total less black's.
    pub fn difference(&self) -> Tapered {
        self.total[0] - self.total[1]
    }

    /// The tuner's view of what was summed (see [`Trace`]).
    pub fn trace(&self, mg_share: f32, scale: f32, tempo: i32) -> Trace {
        let counts =
            self.counts.iter().enumerate().filter(|(_, &c)| c != 0).map(|(i, &c)| (i as u16, c as i16)).collect();
        Trace { counts, mg_share, rest: self.rest, scale, tempo }
    }
}

impl<W: WeightSet, const TRACE: bool, const TERMS: usize> Default for Accumulator<W, TRACE, TERMS> {
    fn default() -> Self {
        Self::new()
    }
}
