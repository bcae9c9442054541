//! Static evaluation: how good a position is, in centipawns from the first
//! seat's point of view (white's, red's). One scalar serves every seat:
//! each seat's `Goal` says how it reads it (see `search`).

/// A game the search can evaluate.
pub trait Evaluate {
    /// Centipawns from white's point of view.
    fn evaluate(&self) -> i32;
    /// The evaluation term by term, for humans (the protocol's `eval`).
    fn eval_breakdown(&self) -> String;
}
