//! The `rolls` extension (protocol.md): the roll a client would make for
//! the side to move, so that a GUI or arbiter other than ours rolls
//! correctly the first time.

use catchess_game::{Arbitration, History, Notation};

/// `rolls <token> <weight> ...`: each outcome of the roll as the token the
/// client sends back as the last of `position ... moves` (`T@e5`, or
/// `T?e7` on a mouse), then its weight (its chance is its weight over the
/// sum of the weights); `rolls none` where no roll may be asked for (the
/// game is over, the turn is past step 1, or no square would be kept).
pub(super) fn rolls_line<G: Notation + Arbitration>(h: &History<G>) -> String {
    let outcomes = if h.outcome().is_some() { Vec::new() } else { h.roll_outcomes() };
    if outcomes.is_empty() {
        return "rolls none".to_string();
    }
    let pos = h.current();
    let mut line = String::from("rolls");
    for (m, weight) in outcomes {
        line.push_str(&format!(" {} {weight}", pos.turn_text(&[m])));
    }
    line
}
