//! One self-play game of `catchess datagen`, inside the process: a seeded
//! random opening that a short search finds balanced, then every seat
//! searching to its own node budget, the table cleared for the game, until
//! the rules or the adjudication below end it. Everything random comes
//! from the game's own generator, seeded from (run seed, game index), and
//! every search is limited by nodes, not time: the same game comes out
//! whatever thread plays it and however loaded the machine is.
//!
//! Recorded: the positions at a turn's start after the opening where the
//! seat to move is not a near-zero seat (Cat Chess's cats: the search never
//! evaluates their positions statically, so a network need not either), is
//! not in check, and whose best move is not tactical by the game's own
//! measure (`SearchGame::tactical_value`: a capture or promotion; in 10×10 a
//! pick of a piece that can capture), and whose score is no mate; each with
//! the search's score from the first seat's view.

use catchess_engine::play_turn;
use catchess_game::{random_line, rng_for};
use catchess_game::{Goal, History, Reason, Seat, SeatInfo};
use catchess_games::Playable;
use catchess_search::{perspective, Limits, SearchControl, Searcher, Strength, MATE_BOUND};
use rand::rngs::StdRng;
use rand::Rng;
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicBool, Ordering};

/// Random plies (turns) before the engine plays: 8 or 9, so that either
/// seat of a two-seat game may be the first to search.
const RANDOM_PLIES: RangeInclusive<usize> = 8..=9;
/// An opening is drawn again when its short search's score, from the
/// side to move's view, differs from the start position's (searched the
/// same way, from its side to move's view) by more than this many
/// centipawns: the start's own lean (the mover's edge, some 500 in 10×10)
/// is no lopsidedness.
const OPENING_BOUND: i32 = 300;
/// Openings drawn before a game gives up and records nothing.
const OPENING_TRIES: usize = 100;
/// Each seat's soft node limit is `--nodes` times 1 ± up to this many
/// thousandths, drawn per game: the seats' limits differ, so no game is
/// played twice.
const NODE_SPREAD_PERMILLE: u64 = 50;
/// The hard node cap of a search: this many times its soft limit.
const HARD_PER_SOFT: u64 = 8;
/// Transposition table of each game's searcher, in MiB: the engine's
/// default, so that the data is what a default engine plays.
pub use catchess_engine::defaults::HASH_MB;

/// Win adjudication: this many searches in a row (turn starts, any seat)
/// scoring the game at least this far from zero, the same way. Where a draw
/// is some seat's win (Cat Chess's cats) no material edge wins by itself,
/// so there only a mate score counts.
const WIN_SCORE: i32 = 1500;
const WIN_SEARCHES: u32 = 6;
/// Draw adjudication: from full move `DRAW_FROM_MOVE` on, this many
/// searches in a row within `DRAW_SCORE` centipawns of zero. Not where a
/// draw is some seat's win: there a score near zero is that seat's hold as
/// the search models it (at full strength), which weaker cats
/// (`--seat-nodes`) need not keep; the rules end those games.
const DRAW_SCORE: i32 = 10;
const DRAW_SEARCHES: u32 = 12;
const DRAW_FROM_MOVE: usize = 40;
/// A game still going after this many full moves (a move of every seat) is
/// a draw.
const MAX_MOVES: usize = 300;
// A position's turn count fits a record's 16 bits (at most 8 seats).
const _: () = assert!(MAX_MOVES * 8 + *RANDOM_PLIES.end() < u16::MAX as usize);

/// The node limits of a run, before each game's spread: the opening's
/// check searches at `base` (`--nodes`), each seat at its own
/// (`--seat-nodes`, else `base`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeLimits {
    pub base: u64,
    /// Per seat, in the game's seat order.
    pub seats: Vec<u64>,
}

impl NodeLimits {
    /// `5000`, or `5000 (cats 100)` when a seat of `seats` has its own.
    pub fn describe(&self, seats: &[SeatInfo]) -> String {
        let own: Vec<String> = (seats.iter().zip(&self.seats))
            .filter(|&(_, &n)| n != self.base)
            .map(|(s, n)| format!("{} {n}", s.name))
            .collect();
        match own.is_empty() {
            true => self.base.to_string(),
            false => format!("{} ({})", self.base, own.join(", ")),
        }
    }
}

/// One recorded position.
#[derive(Clone, Debug)]
pub struct Sample<G> {
    pub pos: G,
    /// The search's score, centipawns from the first seat's view.
    pub score: i16,
    /// Turns played before it.
    pub turn: u16,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ending {
    /// By the game's own rules (mate, stalemate, a rule draw, ...).
    Rules(&'static str),
    /// One side's score stayed decisive.
    WinAdjudicated,
    /// The scores stayed near zero.
    DrawAdjudicated,
    /// `MAX_MOVES` full moves.
    MoveLimit,
    /// No balanced opening was found: nothing is recorded.
    NoOpening,
}

impl Ending {
    pub fn name(self) -> &'static str {
        match self {
            Ending::Rules(reason) => reason,
            Ending::WinAdjudicated => "win adjudicated",
            Ending::DrawAdjudicated => "draw adjudicated",
            Ending::MoveLimit => "move limit",
            Ending::NoOpening => "no balanced opening",
        }
    }

    fn rules(reason: Reason) -> Ending {
        Ending::Rules(reason.name())
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Played<G> {
    pub samples: Vec<Sample<G>>,
    /// `None`: a draw that rewards nobody.
    pub winner: Option<Seat>,
    pub ending: Ending,
}

/// Plays game `index` of the run seeded `seed` with soft node limits near
/// `nodes`; `None` if `cancel` was set before it ended.
pub fn play<G: Playable>(
    searcher: &mut Searcher<G>,
    seed: u64,
    index: u64,
    nodes: &NodeLimits,
    cancel: &AtomicBool,
) -> Option<Played<G>> {
    let mut rng = rng_for(seed, index);
    let mut history = match opening(searcher, &mut rng, nodes.base, cancel)? {
        Some(h) => h,
        None => return Some(Played { samples: Vec::new(), winner: None, ending: Ending::NoOpening }),
    };
    let budgets: Vec<Limits> = nodes.seats.iter().map(|&n| budget(&mut rng, n)).collect();
    searcher.clear();
    let mut adjudicator = Adjudicator::new::<G>();
    let mut samples = Vec::new();
    let (winner, ending) = loop {
        if let Some(o) = history.outcome() {
            break (o.winner, Ending::rules(o.reason));
        }
        let pos = *history.current();
        if pos.is_chance() {
            // A roll the mover asked for (10×10's teleport): the game's dice.
            if history.roll(&mut rng).is_none() {
                break (None, Ending::rules(Reason::new("no outcome to roll")));
            }
            continue;
        }
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        // The engine's turn as a match plays it: the search, then (in a
        // game of several steps a turn) the rest of the turn, up to a roll.
        let limits = &budgets[pos.to_move().index()];
        let turn = play_turn(&history, searcher, limits, &[], Strength::full(), &SearchControl::new(), &mut |_| {});
        let (Some(result), Some(steps)) = (turn.search, turn.steps) else {
            // The rules answer a position without moves, and a search
            // does not fail; only a game that disagrees with itself, or a
            // bug, gets here.
            break (None, Ending::rules(Reason::new("no move to search")));
        };
        let best = steps[0];
        if pos.at_turn_start() {
            let turns = history.turn_count();
            if recorded(&pos, best, result.first_seat_cp) {
                samples.push(Sample { pos, score: result.first_seat_cp as i16, turn: turns as u16 });
            }
            if let Some(verdict) = adjudicator.after_search(result.first_seat_cp, turns) {
                break verdict;
            }
        }
        steps.into_iter().for_each(|m| history.push(m));
    };
    Some(Played { samples, winner, ending })
}

/// Whether the position searched at a turn's start goes into the data.
fn recorded<G: Playable>(pos: &G, best: G::Move, first_seat_cp: i32) -> bool {
    G::SEATS[pos.to_move().index()].goal != Goal::NearZero
        && !pos.in_check()
        && pos.tactical_value(best).is_none()
        && first_seat_cp.abs() < MATE_BOUND
}

/// The game's start: random turns from the start position that a search
/// at `nodes` scores within `OPENING_BOUND` of the start itself.
/// `Some(None)` when none was found in `OPENING_TRIES` draws; `None` if
/// cancelled.
fn opening<G: Playable>(
    searcher: &mut Searcher<G>,
    rng: &mut StdRng,
    nodes: u64,
    cancel: &AtomicBool,
) -> Option<Option<History<G>>> {
    let limits = budget_of(nodes);
    // A score from the side to move's view (the first seat's for a
    // near-zero seat).
    let mut lean = |history: &History<G>| {
        searcher.clear();
        let result = searcher.search(history, &limits, &SearchControl::new(), &mut |_| {});
        result.first_seat_cp * perspective(history.current())
    };
    let start = lean(&History::new(G::startpos()));
    for _ in 0..OPENING_TRIES {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        let plies = rng.gen_range(RANDOM_PLIES);
        let Ok(line) = random_line(&G::startpos(), plies, rng) else { return Some(None) };
        let mut history = History::new(G::startpos());
        line.into_iter().for_each(|m| history.push(m));
        if (lean(&history) - start).abs() <= OPENING_BOUND {
            return Some(Some(history));
        }
    }
    Some(None)
}

/// A seat's limits for one game: `nodes` spread by up to
/// `NODE_SPREAD_PERMILLE` either way.
fn budget(rng: &mut StdRng, nodes: u64) -> Limits {
    let permille = 1000 - NODE_SPREAD_PERMILLE + rng.gen_range(0..=2 * NODE_SPREAD_PERMILLE);
    budget_of(nodes.saturating_mul(permille) / 1000)
}

/// A soft node limit of `soft` and its hard cap.
fn budget_of(soft: u64) -> Limits {
    let soft = soft.max(1);
    Limits { soft_nodes: Some(soft), nodes: Some(soft.saturating_mul(HARD_PER_SOFT)), ..Limits::default() }
}

/// The adjudication rules, fed each search at a turn's start.
struct Adjudicator {
    win_bound: i32,
    /// Whether near-zero scores draw (no seat wins draws).
    quiet_draws: bool,
    /// The sign of the decisive scores of the current run, and its length.
    lead: i32,
    lead_run: u32,
    quiet_run: u32,
    seats: usize,
    maximiser: Option<Seat>,
    minimiser: Option<Seat>,
    draw_winner: Option<Seat>,
}

impl Adjudicator {
    fn new<G: Playable>() -> Adjudicator {
        let seat_with = |goal: Goal| G::SEATS.iter().position(|s| s.goal == goal).map(Seat::new);
        let draws_win = seat_with(Goal::NearZero).is_some();
        Adjudicator {
            win_bound: if draws_win { MATE_BOUND } else { WIN_SCORE },
            quiet_draws: !draws_win,
            lead: 0,
            lead_run: 0,
            quiet_run: 0,
            seats: G::SEATS.len(),
            maximiser: seat_with(Goal::Maximise),
            minimiser: seat_with(Goal::Minimise),
            draw_winner: G::draw_winner(),
        }
    }

    /// The verdict, if any, after a search scored the position `first_seat_cp`
    /// (first seat's view) `turns` turns into the game.
    fn after_search(&mut self, first_seat_cp: i32, turns: usize) -> Option<(Option<Seat>, Ending)> {
        if first_seat_cp.abs() >= self.win_bound {
            let sign = first_seat_cp.signum();
            self.lead_run = if sign == self.lead { self.lead_run + 1 } else { 1 };
            self.lead = sign;
        } else {
            self.lead_run = 0;
        }
        if self.lead_run >= WIN_SEARCHES {
            let winner = if self.lead > 0 { self.maximiser } else { self.minimiser };
            return Some((winner, Ending::WinAdjudicated));
        }
        let full_moves = turns / self.seats;
        let quiet = self.quiet_draws && full_moves >= DRAW_FROM_MOVE && first_seat_cp.abs() <= DRAW_SCORE;
        self.quiet_run = if quiet { self.quiet_run + 1 } else { 0 };
        if self.quiet_run >= DRAW_SEARCHES {
            return Some((self.draw_winner, Ending::DrawAdjudicated));
        }
        (full_moves >= MAX_MOVES).then_some((self.draw_winner, Ending::MoveLimit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_games::{CatChess, Chess};

    #[test]
    fn wins_need_a_run_of_decisive_scores_one_way() {
        let mut a = Adjudicator::new::<Chess>();
        for _ in 0..WIN_SEARCHES - 1 {
            assert_eq!(a.after_search(WIN_SCORE, 20), None);
        }
        // A search that sees it otherwise breaks the run.
        assert_eq!(a.after_search(-WIN_SCORE, 20), None);
        for _ in 0..WIN_SEARCHES - 2 {
            assert_eq!(a.after_search(-WIN_SCORE - 5, 20), None);
        }
        assert_eq!(a.after_search(-WIN_SCORE, 20), Some((Some(Seat::new(1)), Ending::WinAdjudicated)));
        let mut a = Adjudicator::new::<Chess>();
        (0..WIN_SEARCHES - 1).for_each(|_| assert_eq!(a.after_search(2 * WIN_SCORE, 20), None));
        assert_eq!(a.after_search(WIN_SCORE - 1, 20), None, "below the bound resets");
        assert_eq!(a.after_search(2 * WIN_SCORE, 20), None);
    }

    #[test]
    fn in_cat_chess_only_mates_win_scores_never_draw_and_every_draw_is_the_cats() {
        let mut a = Adjudicator::new::<CatChess>();
        for _ in 0..3 * WIN_SEARCHES {
            assert_eq!(a.after_search(MATE_BOUND - 1, 30), None, "material wins nothing where the cats hold draws");
        }
        let mut a = Adjudicator::new::<CatChess>();
        (0..WIN_SEARCHES - 1).for_each(|_| assert_eq!(a.after_search(MATE_BOUND + 10, 30), None));
        assert_eq!(a.after_search(MATE_BOUND, 30), Some((Some(Seat::new(0)), Ending::WinAdjudicated)));
        let cats = Some(Seat::new(2));
        let mut a = Adjudicator::new::<CatChess>();
        let turns = 3 * DRAW_FROM_MOVE;
        (0..3 * DRAW_SEARCHES).for_each(|_| assert_eq!(a.after_search(0, turns), None));
        assert_eq!(Adjudicator::new::<CatChess>().after_search(0, 3 * MAX_MOVES), Some((cats, Ending::MoveLimit)));
    }

    #[test]
    fn quiet_scores_draw_only_late_and_in_a_run() {
        let mut a = Adjudicator::new::<Chess>();
        let early = 2 * DRAW_FROM_MOVE - 1;
        (0..2 * DRAW_SEARCHES).for_each(|_| assert_eq!(a.after_search(0, early), None));
        let late = 2 * DRAW_FROM_MOVE;
        (0..DRAW_SEARCHES - 1).for_each(|_| assert_eq!(a.after_search(3, late), None));
        assert_eq!(a.after_search(DRAW_SCORE + 1, late), None, "a score beyond the bound resets");
        (0..DRAW_SEARCHES - 1).for_each(|_| assert_eq!(a.after_search(-3, late), None));
        assert_eq!(a.after_search(0, late), Some((None, Ending::DrawAdjudicated)));
    }

    #[test]
    fn budgets_spread_around_the_limit_with_a_hard_cap() {
        let mut rng = rng_for(5, 0);
        let limits: Vec<Limits> = (0..200).map(|_| budget(&mut rng, 5000)).collect();
        let soft: Vec<u64> = limits.iter().map(|l| l.soft_nodes.unwrap()).collect();
        assert!(soft.iter().all(|&s| (4750..=5250).contains(&s)), "{soft:?}");
        assert!(soft.iter().any(|&s| s != soft[0]), "the seats' limits differ");
        assert!(limits.iter().all(|l| l.nodes == Some(l.soft_nodes.unwrap() * HARD_PER_SOFT)));
        assert_eq!(budget_of(0).soft_nodes, Some(1), "at least a node");
    }

    /// Plays one short game of `G` and checks what it recorded.
    fn recorded_positions_follow_the_rules<G: Playable>(nodes: u64) {
        let nodes = &NodeLimits { base: nodes, seats: vec![nodes; G::SEATS.len()] };
        let mut searcher = Searcher::<G>::new(4);
        let game = play(&mut searcher, 11, 0, nodes, &AtomicBool::new(false)).expect("not cancelled");
        assert_ne!(game.ending, Ending::NoOpening, "{}", G::VARIANT);
        assert!(!game.samples.is_empty(), "{}: {:?}", G::VARIANT, game.ending);
        let mut last_turn = None;
        for s in &game.samples {
            assert!(usize::from(s.turn) >= *RANDOM_PLIES.start(), "no position of the random opening");
            assert!(s.pos.at_turn_start() && !s.pos.in_check());
            assert_ne!(G::SEATS[s.pos.to_move().index()].goal, Goal::NearZero);
            assert!(i32::from(s.score).abs() < MATE_BOUND);
            assert!(last_turn < Some(s.turn), "in the order played");
            last_turn = Some(s.turn);
        }
        // The same game again, from another searcher that played before.
        let again = play(&mut searcher, 11, 0, nodes, &AtomicBool::new(false)).unwrap();
        let fens = |g: &Played<G>| g.samples.iter().map(|s| (s.pos.to_fen(), s.score)).collect::<Vec<_>>();
        assert_eq!((fens(&again), again.winner, again.ending), (fens(&game), game.winner, game.ending));
        let other = play(&mut searcher, 11, 1, nodes, &AtomicBool::new(false)).unwrap();
        assert_ne!(fens(&other), fens(&game), "another game index, another game");
    }

    #[test]
    fn games_record_quiet_positions_and_replay_exactly() {
        recorded_positions_follow_the_rules::<Chess>(400);
        recorded_positions_follow_the_rules::<CatChess>(400);
        recorded_positions_follow_the_rules::<catchess_games::Xiangqi>(400);
        recorded_positions_follow_the_rules::<catchess_games::CatsChess10>(300);
    }

    #[test]
    fn a_cancelled_game_stops() {
        let mut searcher = Searcher::<Chess>::new(1);
        let nodes = NodeLimits { base: 1000, seats: vec![1000; 2] };
        assert!(play(&mut searcher, 1, 0, &nodes, &AtomicBool::new(true)).is_none());
    }
}
