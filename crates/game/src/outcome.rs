//! How a game ends: who won (a seat, or nobody in a draw) and why, in the
//! game's own words.

use super::{Game, History, Seat};
use std::fmt;

/// Why a game ended. Open: each game names its own reasons (xiangqi's
/// perpetual check, a king captured); the common ones are here.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Reason(&'static str);

impl Reason {
    pub const CHECKMATE: Reason = Reason("checkmate");
    pub const STALEMATE: Reason = Reason("stalemate");
    pub const REPETITION: Reason = Reason("threefold repetition");
    pub const FIFTY_MOVES: Reason = Reason("fifty-move rule");
    pub const INSUFFICIENT_MATERIAL: Reason = Reason("insufficient material");
    /// The seats agreed to a draw (the page's draw offer, accepted): a
    /// draw as the game's rules reward one (`Game::draw_winner`: the
    /// cats' win in Cat Chess).
    pub const AGREEMENT: Reason = Reason("draw by agreement");

    pub const fn new(name: &'static str) -> Reason {
        Reason(name)
    }

    pub const fn name(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// The end of a game: the winning seat (`None`: a draw that rewards
/// nobody) and the reason.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Outcome {
    pub winner: Option<Seat>,
    pub reason: Reason,
}

impl Outcome {
    pub const fn new(winner: Option<Seat>, reason: Reason) -> Outcome {
        Outcome { winner, reason }
    }
}

/// The winner's name in game `G`: its seat's name, or `draw`.
pub fn winner_name<G: Game>(winner: Option<Seat>) -> &'static str {
    winner.map_or("draw", |s| G::SEATS[s.index()].name)
}

/// How an outcome reads in game `G`: `white (checkmate)`, `red (stalemate)`,
/// `cats (threefold repetition)`, `draw (fifty-move rule)`.
pub fn describe<G: Game>(o: &Outcome) -> String {
    format!("{} ({})", winner_name::<G>(o.winner), o.reason)
}

/// The draws chess and xiangqi judge from the position alone: 100 plies
/// without a capture (`halfmove`), unless the move that completed the count
/// mated (`mated`, asked only then), or material that can never mate.
pub fn rule_draw(halfmove: u16, mated: impl FnOnce() -> bool, insufficient: impl FnOnce() -> bool) -> Option<Reason> {
    if halfmove >= 100 {
        (!mated()).then_some(Reason::FIFTY_MOVES)
    } else {
        insufficient().then_some(Reason::INSUFFICIENT_MATERIAL)
    }
}

/// The usual order of judging (RULES.md §8 for the chess family): no legal
/// move first (the game says what that means), then threefold repetition
/// (a draw, rewarding [`Game::draw_winner`]), then what the position alone
/// decides (the fifty-move rule, insufficient material).
pub fn standard_outcome<G: Game>(history: &History<G>) -> Option<Outcome> {
    let pos = history.current();
    if pos.count_legal_moves() == 0 {
        return pos.position_outcome(true);
    }
    if history.repetitions() >= 3 {
        return Some(Outcome::new(G::draw_winner(), Reason::REPETITION));
    }
    pos.position_outcome(false)
}
