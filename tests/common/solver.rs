//! A brute-force mate solver, independent of the engine's search: a plain
//! AND-OR walk of the game tree through `Game::legal_moves` and `play`,
//! judging the end of the game the way the rules do (RULES.md §8) and
//! nothing more clever. No evaluation, no pruning beyond "one refutation is
//! enough", no transposition table. Slow and plainly correct is the point:
//! the tactical suites' answer sets are checked against it, so the data
//! cannot be wrong.
//!
//! Generic over [`Game`]: in chess the cycle is white → black, in Cat Chess
//! white → black → cats, and the solver only ever asks whose turn it is.
//! At every turn but the attacker's, every legal move is a reply the mate
//! must survive: black's and white's, and at the cats' turn every cat step
//! and the pass.

use catchess::search::goal;
use catchess::{Game, Goal, MoveList, Notation, Outcome, Reason, Seat};
use std::fmt::Display;

/// The moves of the side to move after which it mates in at most `n` of its
/// own moves (this one included) against every reply of every other side.
/// Empty when the side to move is the cats, or the game is already over.
pub fn forced_mates<G: Game>(pos: &G, n: u32) -> Vec<G::Move> {
    let attacker = pos.to_move();
    if n == 0 || !judged(pos) {
        return Vec::new();
    }
    let mut solver = Solver::default();
    solver.path.push(pos.key());
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    list.iter().copied().filter(|&m| solver.mates(&pos.play(m), attacker, n - 1)).collect()
}

/// Whether the side to move mates in at most `n` of its own moves.
pub fn has_forced_mate<G: Game>(pos: &G, n: u32) -> bool {
    let attacker = pos.to_move();
    if n == 0 || !judged(pos) {
        return false;
    }
    Solver::default().mates(pos, attacker, n)
}

/// Whether `attacker` (white or black) mates from `pos` in at most `n` more
/// of its own moves, whoever is to move there.
pub fn mates<G: Game>(pos: &G, attacker: Seat, n: u32) -> bool {
    Solver::default().mates(pos, attacker, n)
}

/// Cats-save positions: the cats are to move and white threatens mate in 1.
/// The cat moves (the pass included, when it is the cats' only move) after
/// which white has no mate in 1.
pub fn cat_saves<G: Notation>(pos: &G) -> Vec<G::Move> {
    assert_eq!(goal(pos), Goal::NearZero, "{}: cats-save needs the cats to move", pos.to_fen());
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    list.iter().copied().filter(|&m| !has_forced_mate(&pos.play(m), 1)).collect()
}

/// Whether the end of the game is judged at `pos`: at every seat's turn
/// but the cats'.
fn judged<G: Game>(pos: &G) -> bool {
    goal(pos) != Goal::NearZero
}

/// Whether `pos` is checkmate, won by `attacker`.
fn mated_by<G: Game>(pos: &G, attacker: Seat) -> bool {
    pos.count_legal_moves() == 0 && pos.position_outcome(true) == Some(Outcome::new(Some(attacker), Reason::CHECKMATE))
}

/// Moves in UCI form, sorted: the form the suites list answers in.
pub fn names<M: Display>(moves: &[M]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// The positions of the current line, for threefold repetition.
#[derive(Default)]
struct Solver {
    path: Vec<u64>,
}

impl Solver {
    /// Whether `attacker` mates from `pos` in at most `n` more of its own
    /// moves, against every reply of every other side.
    fn mates<G: Game>(&mut self, pos: &G, attacker: Seat, n: u32) -> bool {
        let turn = pos.to_move();
        if judged(pos) {
            // The game is judged here (RULES.md §8): a side with no legal
            // move is mated if in check, stalemated otherwise.
            if n == 0 || pos.count_legal_moves() == 0 {
                // No attacker move left: only a mate right now counts.
                return mated_by(pos, attacker);
            }
            // Draws end the game too (mate first: handled above).
            let repetitions = 1 + self.path.iter().filter(|&&k| k == pos.key()).count();
            if repetitions >= 3 || pos.position_outcome(false).is_some() {
                return false;
            }
        }
        let mut list = MoveList::default();
        pos.legal_moves(&mut list);
        self.path.push(pos.key());
        let result = if turn == attacker {
            list.iter().any(|&m| self.mates(&pos.play(m), attacker, n - 1))
        } else {
            // Every reply, the cats' steps and pass included.
            list.iter().all(|&m| self.mates(&pos.play(m), attacker, n))
        };
        self.path.pop();
        result
    }
}
