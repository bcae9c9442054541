//! A seat that gives up on the page: a person's resignation, or a
//! person's clock that ran out. The game's own forfeit rule decides what
//! follows (`Arbitration::forfeit_winner`, the rule the match arbiter
//! applies too): in chess and xiangqi the other seat wins; in Cat Chess
//! white's forfeit gives the game to black and black's to white, while
//! the cats' makes them pass for the rest of the game
//! (`Arbitration::arbiter_pass`), and a draw then rewards nobody.

use super::draw::{self, Agreement};
use catchess_game::pgn::record::FaultKind;
use catchess_game::pgn::record::{termination_by, RESIGNATION};
use catchess_game::{Arbitration, Outcome, Reason, Seat};
use serde::{Deserialize, Serialize};

/// Why a seat gave up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Why {
    Resignation,
    /// The seat's clock ran out (flag fall).
    Time,
}

impl Why {
    /// The words of a record's termination, as the match arbiter writes
    /// its faults (`time forfeit by white`: PGN `Termination "time
    /// forfeit"`; a resignation is a `normal` end).
    pub fn name(self) -> &'static str {
        match self {
            Why::Resignation => RESIGNATION,
            Why::Time => FaultKind::TimeForfeit.name(),
        }
    }
}

/// One seat's forfeit, after `ply` moves of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Forfeit {
    /// The seat's index in the game's turn order.
    pub seat: usize,
    pub ply: usize,
    pub why: Why,
}

/// How a game ended: the outcome, and the termination's words for the
/// record (`checkmate`, `time forfeit by white`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub outcome: Outcome,
    pub termination: String,
}

/// The game's end, from the forfeits so far, a draw the seats agreed
/// (`draw.rs`) and the rules' verdict on the position (`rules`). A
/// forfeit the game says ends it does, at once (the game stops there, so
/// it is the first such forfeit); so does an agreement. A seat that plays
/// on passing gets no win (`Arbitration::winner_after_forfeits`): a rules'
/// win of a seat that forfeited (Cat Chess's draw, the cats' win) becomes
/// a draw that rewards nobody.
pub fn ending<G: Arbitration>(
    forfeits: &[Forfeit],
    agreed: Option<Agreement>,
    rules: Option<Outcome>,
) -> Option<Ending> {
    for f in forfeits {
        if let Some(winner) = G::forfeit_winner(Seat::new(f.seat)) {
            return Some(Ending {
                outcome: Outcome::new(Some(winner), Reason::new(f.why.name())),
                termination: termination_by(f.why.name(), G::SEATS[f.seat].name),
            });
        }
    }
    if agreed.is_some() {
        return Some(draw::ending::<G>(forfeits));
    }
    let outcome = rules?;
    let winner = G::winner_after_forfeits(outcome.winner, |seat| passes(forfeits, seat));
    Some(Ending { outcome: Outcome::new(winner, outcome.reason), termination: outcome.reason.name().to_string() })
}

/// Whether `seat` has forfeited and plays on passing.
pub fn passes(forfeits: &[Forfeit], seat: Seat) -> bool {
    forfeits.iter().any(|f| f.seat == seat.index())
}

/// The record's `Faults` entries for forfeits after which the game went
/// on, as the match arbiter writes them (`cats (Person) time forfeit at
/// ply 7: ...`; `catchess pgn check` reads them).
pub fn faults<G: Arbitration>(forfeits: &[Forfeit], players: &[String]) -> Vec<String> {
    forfeits
        .iter()
        .filter(|f| G::forfeit_winner(Seat::new(f.seat)).is_none())
        .map(|f| {
            let at = if f.ply == 0 { "at the start".to_string() } else { format!("at ply {}", f.ply) };
            let player = players.get(f.seat).map_or("?", String::as_str);
            let what = match f.why {
                Why::Resignation => "resigned on the page",
                Why::Time => "its clock ran out",
            };
            format!("{} ({player}) {} {at}: {what}; it passes from then on", G::SEATS[f.seat].name, f.why.name())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_games::{CatChess, Chess, Xiangqi};

    const CHECKMATE: Outcome = Outcome::new(Some(Seat::new(0)), Reason::CHECKMATE);

    #[test]
    fn a_forfeit_in_a_two_seat_game_gives_it_to_the_other_seat() {
        let f = [Forfeit { seat: 0, ply: 4, why: Why::Time }];
        let e = ending::<Chess>(&f, None, None).unwrap();
        assert_eq!(e.outcome.winner, Some(Seat::new(1)));
        assert_eq!((e.outcome.reason.name(), e.termination.as_str()), ("time forfeit", "time forfeit by white"));
        let e = ending::<Xiangqi>(&[Forfeit { seat: 1, ply: 0, why: Why::Resignation }], None, None).unwrap();
        assert_eq!((e.outcome.winner, e.termination.as_str()), (Some(Seat::new(0)), "resignation by black"));
        assert!(faults::<Chess>(&f, &[]).is_empty());
    }

    #[test]
    fn in_cat_chess_white_and_black_lose_by_forfeit_and_the_cats_pass_on() {
        let white = ending::<CatChess>(&[Forfeit { seat: 0, ply: 3, why: Why::Resignation }], None, None).unwrap();
        assert_eq!(white.outcome.winner, Some(Seat::new(1)));
        let black = ending::<CatChess>(&[Forfeit { seat: 1, ply: 3, why: Why::Time }], None, None).unwrap();
        assert_eq!(black.outcome.winner, Some(Seat::new(0)));
        let cats = [Forfeit { seat: 2, ply: 3, why: Why::Time }];
        assert_eq!(ending::<CatChess>(&cats, None, None), None, "the cats' forfeit does not end the game");
        assert!(passes(&cats, Seat::new(2)) && !passes(&cats, Seat::new(0)));
        // A draw, the cats' win, rewards nobody once they have forfeited;
        // a mate stands.
        let draw = Outcome::new(Some(Seat::new(2)), Reason::REPETITION);
        assert_eq!(ending::<CatChess>(&cats, None, Some(draw)).unwrap().outcome.winner, None);
        assert_eq!(ending::<CatChess>(&[], None, Some(draw)).unwrap().outcome.winner, Some(Seat::new(2)));
        assert_eq!(ending::<CatChess>(&cats, None, Some(CHECKMATE)).unwrap().outcome, CHECKMATE);
        let text = faults::<CatChess>(&cats, &["Person".into(), "Person".into(), "Person".into()]);
        assert_eq!(text.len(), 1);
        assert!(text[0].starts_with("cats (Person) time forfeit at ply 3"), "{text:?}");
    }
}
