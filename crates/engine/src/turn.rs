//! Playing one turn: the one procedure every front end uses for the
//! engine's move, so that the page, the protocol and the data generator
//! cannot play differently. A search (guarded: a panic in any of its
//! threads gives the first legal move instead, so that every request is
//! still answered), then the rest of the turn in a game whose turns take
//! several steps, stopping at a roll.

use catchess_game::{Game, History, MoveList};
use catchess_games::Playable;
use catchess_search::{Limits, SearchControl, SearchInfo, SearchResult, Searcher, Strength};

/// What the engine plays, and the search that chose it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnChoice<M> {
    /// The steps of the turn (one move in most games; in Cat's Chess
    /// 10×10 up to a roll); `None` when the position has no legal move.
    pub steps: Option<Vec<M>>,
    /// The search behind `steps`; `None` when it failed and the first
    /// legal move stands in.
    pub search: Option<SearchResult<M>>,
}

impl<M> TurnChoice<M> {
    /// Whether the first legal move stands in for a failed search.
    pub fn fell_back(&self) -> bool {
        self.search.is_none()
    }
}

/// Plies searched to choose each step of the turn that the principal
/// variation leaves open (a game whose turns take several steps).
const REST_OF_TURN_DEPTH: u32 = 4;

/// The engine's turn after `history`: a search within `limits` (among
/// `root_moves` if any, at `strength`), reporting through `on_info`, then
/// the turn that begins with its best move ([`whole_turn`]).
pub fn play_turn<G: Playable>(
    history: &History<G>,
    searcher: &mut Searcher<G>,
    limits: &Limits,
    root_moves: &[G::Move],
    strength: Strength,
    control: &SearchControl,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> TurnChoice<G::Move> {
    let pos = *history.current();
    match guarded(&pos, || searcher.search_with_skill(history, limits, root_moves, strength, control, on_info)) {
        Ok(found) => {
            let steps = whole_turn(history, found.best, &found.pv, searcher, strength);
            TurnChoice { steps, search: Some(found) }
        }
        Err(first) => TurnChoice { steps: first.map(|m| vec![m]), search: None },
    }
}

/// The steps of the whole turn that begins with `best` after `history`:
/// along the principal variation while it lasts, then each remaining step
/// chosen by a short search (at `strength`, so that a weakened engine is
/// weak in every step of its turn). In a game of one move a turn, `[best]`.
/// The turn stops short at a roll (a chance position): what comes of the
/// roll is the client's to say, and the engine's to answer with another
/// search.
fn whole_turn<G: Playable>(
    history: &History<G>,
    best: Option<G::Move>,
    pv: &[G::Move],
    searcher: &mut Searcher<G>,
    strength: Strength,
) -> Option<Vec<G::Move>> {
    let mut line = history.clone();
    line.push(best?);
    let follows_pv = pv.first() == best.as_ref();
    let mut next_in_pv = 1;
    while !line.current().at_turn_start() && !line.current().is_chance() {
        let step = match pv.get(next_in_pv).filter(|_| follows_pv) {
            Some(&m) => m,
            None => {
                let limits = Limits { depth: Some(REST_OF_TURN_DEPTH), ..Limits::default() };
                let strength = strength.reseeded(next_in_pv as u64);
                searcher.search_with_skill(&line, &limits, &[], strength, &SearchControl::new(), &mut |_| {}).best?
            }
        };
        line.push(step);
        next_in_pv += 1;
    }
    Some(line.moves()[history.moves().len()..].to_vec())
}

fn first_legal_move<G: Game>(pos: &G) -> Option<G::Move> {
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    list.as_slice().first().copied()
}

/// The engine's reading of the position after `history` within `limits`
/// (a game's review: one node-limited search a position), guarded as a
/// turn's search is; `None` when the search failed or the position has no
/// legal move.
pub fn evaluate<G: Playable>(
    history: &History<G>,
    searcher: &mut Searcher<G>,
    limits: &Limits,
    control: &SearchControl,
) -> Option<SearchResult<G::Move>> {
    let pos = *history.current();
    guarded(&pos, || searcher.search(history, limits, control, &mut |_| {})).ok().filter(|r| r.best.is_some())
}

/// Runs `search` from `pos`; should it panic (in any of its threads: a
/// scoped helper's panic reaches the caller), `Err` with the first legal
/// move instead, so that every request is still answered.
fn guarded<G: Game>(
    pos: &G,
    search: impl FnOnce() -> SearchResult<G::Move>,
) -> Result<SearchResult<G::Move>, Option<G::Move>> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(search)) {
        Ok(r) => Ok(r),
        Err(_) => Err(std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| first_legal_move(pos))).ok().flatten()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_games::{CatsChess10, Chess};
    use catchess_search::Score;

    #[test]
    fn a_search_that_panics_in_any_thread_still_gives_a_move() {
        let pos = Chess::startpos();
        let first = first_legal_move(&pos);
        assert!(first.is_some());
        assert_eq!(guarded(&pos, || panic!("a bug in the main thread")), Err(first));
        let helper_panics = || {
            std::thread::scope(|s| {
                s.spawn(|| panic!("a bug in a helper thread"));
            });
            unreachable!("the scope passes the helper's panic on")
        };
        assert_eq!(guarded(&pos, helper_panics), Err(first));
        let fine = SearchResult { best: first, score: Score::Cp(0), first_seat_cp: 0, depth: 1, nodes: 1, pv: vec![] };
        assert_eq!(guarded(&pos, || fine.clone()), Ok(fine));
    }

    #[test]
    fn a_turn_of_several_steps_is_played_whole_up_to_a_roll() {
        // From the 10×10 start a teleport is the engine's first step: the
        // turn stops at the roll it asks for.
        let history = History::new(CatsChess10::startpos());
        let mut searcher = Searcher::new(1);
        let limits = Limits { depth: Some(2), ..Limits::default() };
        let choice =
            play_turn(&history, &mut searcher, &limits, &[], Strength::full(), &SearchControl::new(), &mut |_| {});
        let steps = choice.steps.clone().expect("a turn");
        let mut line = history.clone();
        steps.iter().for_each(|&m| line.push(m));
        assert!(line.current().at_turn_start() || line.current().is_chance(), "{steps:?}");
        assert!(!choice.fell_back());
        // In chess a turn is the best move.
        let chess = History::new(Chess::startpos());
        let mut searcher = Searcher::new(1);
        let choice =
            play_turn(&chess, &mut searcher, &limits, &[], Strength::full(), &SearchControl::new(), &mut |_| {});
        assert_eq!(choice.steps, choice.search.as_ref().and_then(|s| s.best).map(|m| vec![m]));
    }
}
