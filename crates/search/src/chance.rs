//! Chance nodes: where the next move is rolled, not chosen (a die), the
//! node's value is the expectation of its outcomes' values, each weighted
//! by `Game::chance_weight` (expectimax).
//!
//! **Pruning (Star1/Star2 with probing).** Ballard's Star1 bounds the
//! outcomes not yet searched by the game's extreme values; ours are mate
//! scores, so it would never prune. What does prune is the window: most
//! chance nodes are asked a yes/no question (a null window: is the roll
//! worth more than `alpha`?). That is answered with one null-window
//! search per outcome, each at its own target: the outcome's best guess
//! (its stored value, else its static value) shifted by one amount so
//! that the targets average exactly `alpha`. If every outcome comes out
//! on the same side of its target, the outcomes' bounds prove the answer
//! (all below: the expectation is at most `alpha`; all above: more), and
//! the proof cost null windows only, where a max node is refuted by one
//! good move (Star2's probing of a max child). Otherwise, and whenever an
//! exact value is wanted, every outcome is searched exactly, each in a
//! window around its guess that widens on failure (the root's aspiration,
//! outcome by outcome); a full window would prune nothing by beta.
//!
//! **Depth.** Outcomes are searched one ply below the roll. The root's own
//! roll is searched `CHANCE_ROOT_REDUCTION` plies shallower than the moves
//! beside it, rolls below it `CHANCE_REDUCTION` plies shallower, and moves
//! into a roll only `CHANCE_MAX_PLY` plies from the root (`params.rs`).
//! A roll of fifty to eighty outcomes, each a search, costs what dozens
//! of root searches cost at the same depth: only a reduction brings it
//! near the cost of the moves beside it. `catchess bench --variant
//! catschess10 --depth 12`, nodes for the five positions together:
//!
//! | how rolls are searched                                  | nodes   | × no rolls |
//! |---------------------------------------------------------|---------|-----------|
//! | never (no teleport)                                     | 179 910 | 1         |
//! | root only, unreduced                                    | 3.78 M  | 21        |
//! | to ply 6, root unreduced (before)                       | 4.90 M  | 27        |
//! | to ply 6, root unreduced, rerolls from stored values    | 4.56 M  | 25        |
//! | to ply 6, root reduced by 4                             | 0.99 M  | 5.5       |
//! | to ply 6, root reduced by 5                             | 0.50 M  | 2.8       |
//! | to ply 6, root reduced by 5, outcomes ≥ 5               | 0.51 M  | 2.8       |
//! | the same, outcomes ordered (these values, see below)    | 0.45 M  | 2.5       |
//! | to ply 6, root reduced by 6                             | 0.28 M  | 1.5       |
//! | root only, reduced by 5                                 | 0.30 M  | 1.7       |
//!
//! The floor of 5 plies costs nothing at depth 12 but at lower depths:
//! no rolls / these values / before, at depth 8: 42 K / 494 K / 984 K;
//! 10: 76 K / 498 K / 2.16 M; 12: 180 K / 505 K / 4.90 M; 14: 1.43 M /
//! 1.48 M / 15.2 M. Without it, at depth 8 the root's reroll was searched
//! 2 plies deep and chosen over keeping a mouse's square that saved the
//! king (`tests/catschess10_protocol.rs`, `MOUSE_BY_THE_KING`).
//!
//! Valuing the rolls of the tree's last plies from static values instead
//! of quiescence, or capping mate scores in the expectation, changed the
//! count by under 5 %: not kept.
//!
//! **Order of the outcomes** (issue #44). Each pass of the proof searches
//! the deciding outcomes first: the heaviest, then those whose guess lies
//! furthest on the side the proof must rule out; once a quarter of the
//! weight is searched and more than a third of it came out on the wrong
//! side, the pass stops and the next one sets its targets from what was
//! learnt. Bench, nodes for the five positions at depth 8 / 10 / 12:
//! 493 829 / 498 098 / 505 052 before, 436 803 / 442 749 / 449 351 with
//! it (-11 %); without rolls 42 172 / 76 230 / 179 910.
//!
//! **Measured and not kept** (same bench, depth 8 / 12, nodes):
//! Star1 with bounds from a value range (outcome values clamped to
//! ±3000, the unsearched outcomes bounded by it, a pass ended as soon as
//! the bounds decide): 614 K / 624 K, +24 %: with fifty to eighty
//! outcomes the range of the unsearched ones outweighs what the searched
//! ones settle until the last few, and the clamp moves the targets.
//! ChanceProbCut (the proof first run `R` plies shallower at `alpha ∓ M`,
//! the node cut if it succeeds): R = 2, M = 30: 508 K / 517 K (+3 %);
//! R = 3, M = 50: 613 K / 623 K; R = 4, M = 80: 494 K / 504 K (0 %); it
//! cut 1 to 7 of 5 to 22 tries: most of the cost is the root's roll
//! searched exactly (19 of 27 root proofs end in `exact`, the roll being
//! the principal variation), where a cut is of no use. Bracketing the
//! exact value between two proofs 20 cp apart (MTD-like) instead of
//! `exact`: 515 K / 526 K (+4 %), with the ordering 429 K / 441 K (-2 %
//! against the ordering alone, within noise): not kept. Where the nodes
//! go at depth 12: 447 520 of 505 052 below the root's own roll, 28 551
//! below the other rolls.
//!
//! **The root's roll in proportion to the depth** (issue #44, second
//! session). With a floor of 5 plies the root's roll cost the same at
//! every depth from 8 to 12 (its outcomes 5 deep each time, computed once
//! and then taken from the table): 10× a search without rolls at depth 8,
//! 5.8× at 10. The floor is now 2 plies (the teleported cat's own step),
//! the reduction 6: the roll deepens with the iteration as the moves
//! beside it do. The root's own reroll keeps the floor of 5 (below).
//! Bench after the search changes of issue #45 (main 216889a), nodes for
//! the five positions, R = reduction, F = floor (outcome plies), at
//! depth 8 / 10 / 12:
//!
//! | root's roll           | 8       | 10      | 12      | × no rolls         |
//! |-----------------------|---------|---------|---------|--------------------|
//! | never (no teleport)   | 39 175  | 68 648  | 152 294 | 1                  |
//! | R 5, F 5 (before)     | 394 171 | 400 163 | 408 994 | 10.1 / 5.83 / 2.69 |
//! | R 4, F 0 / 2 / 3      | 75 K / 76 K / 379 K | 332 K / 288 K / 429 K | 940 K / 910 K / 1.06 M | |
//! | R 5, F 0 / 2 / 3      | 53 K / 76 K / 379 K | 289 K / 241 K / 382 K | 582 K / 523 K / 674 K | |
//! | R 6, F 0 / 1          | 51 546 / 51 455 | 79 227 / 77 549 | 338 387 / 336 536 | 2.2 at 12 |
//! | R 6, F 2 (kept)       | 75 822  | 78 477  | 292 515 | 1.94 / 1.14 / 1.92 |
//! | R 6, F 3              | 378 945 | 381 730 | 433 673 | 9.7 / 5.6 / 2.85   |
//! | R 7, F 2              | 75 822  | 78 477  | 245 992 | 1.94 / 1.14 / 1.62 |
//!
//! At depth 14 / 16: no rolls 1.20 M / 2.46 M, before 1.29 M / 2.98 M,
//! kept 0.92 M / 1.99 M (the roll changes the tree: fewer nodes than
//! without it). A scaled roll without a high floor costs more at depth 12
//! with R = 5 (523 K against 409 K): each iteration searches it anew at
//! its own depth, where the floor searched it once. The cost is lumpy by
//! depth: in bench position 4 the roll's outcomes 3 plies deep cost 125 K
//! nodes, 4 plies deep 14 K more after them (a turn is 2 to 5 plies; an
//! attacked king at a turn's start is answered by every step). Rolls
//! below the root (to ply 6) cost more than the root's own there: the
//! same search with rolls only to ply 4 (`CHANCE_MAX_PLY`), 36 972 /
//! 39 627 / 122 293; a larger `CHANCE_REDUCTION` (5, 6) changed nothing.
//! The root's reroll with the floor of 2 rerolled `MOUSE_BY_THE_KING`.
//!
//! **The reroll** (a roll repeating the roll just made, two plies up,
//! `Game::is_reroll`) is not searched: its outcomes were, as the roll's
//! own, and their stored values are its value. The root's own reroll (the
//! engine deciding after `T?<sq>`) is searched like the root's roll, with
//! its own floor (`CHANCE_REROLL_MIN_DEPTH`).

use super::history::MoveKey;
use super::node::{Horizon, NonPv, Window};
use super::params::{
    CHANCE_ABORT_AFTER_SHARE, CHANCE_ABORT_WRONG_SHARE, CHANCE_PROOF_PASSES, CHANCE_REDUCTION, CHANCE_REROLL_MIN_DEPTH,
    CHANCE_ROOT_MIN_DEPTH, CHANCE_ROOT_REDUCTION, CHANCE_WINDOW,
};
use super::tt::Bound;
use super::worker::{cutoff, from_tt, Found, Worker, NO_EVAL};
use super::{perspective, SearchGame, INF, MATE, MATE_BOUND};
use catchess_game::{MoveList, MAX_MOVES};

/// What one outcome is known to be worth, from the roller's view.
#[derive(Clone, Copy)]
struct Known {
    lo: i32,
    hi: i32,
}

impl<G: SearchGame> Worker<'_, G> {
    /// The value of the chance node `pos` (whose outcomes are `list`) from
    /// the perspective of its seat to move, fail-soft in `window` (of that
    /// perspective), its outcomes searched as far as `horizon` says.
    pub(super) fn chance_node(
        &mut self,
        pos: &G,
        list: &MoveList<G::Move>,
        horizon: Horizon,
        window: Window,
        ply: usize,
    ) -> i32 {
        // An outcome is no one's choice: no continuation is learnt after it.
        self.enter(ply, MoveKey::NONE);
        if ply > 1 && pos.is_reroll() {
            // The outcomes were just searched as the roll's own (two plies
            // up): their stored values, static ones for any not reached
            // yet, are the value. The root's own reroll is searched.
            return self.mean_over(pos, list, |this, sign, child| this.guess(sign, child, ply + 1));
        }
        let Horizon::Plies(mut depth) = horizon else {
            return self.expectation(pos, list, horizon, ply);
        };
        depth = if ply > 1 {
            depth - CHANCE_REDUCTION
        } else {
            let floor = if pos.is_reroll() { CHANCE_REROLL_MIN_DEPTH } else { CHANCE_ROOT_MIN_DEPTH };
            (depth - CHANCE_ROOT_REDUCTION).max(depth.min(floor + 1))
        };
        if depth <= 1 {
            return self.expectation(pos, list, Horizon::Plies(depth), ply);
        }
        // An expectation does not depend on the window it was asked with,
        // so a stored bound of this depth settles a later call whenever it
        // settles its window.
        let key = pos.key();
        let stored = self.tt.probe(key).filter(|e| e.depth as i32 >= depth);
        if let Some(v) = stored.and_then(|e| cutoff(e, ply, window)) {
            return v;
        }
        let Window { alpha, beta } = window;
        let (lo, hi) = self.decide(pos, list, depth, alpha, ply);
        if self.stopped {
            return 0;
        }
        if hi <= alpha || lo >= beta {
            let value = if hi <= alpha { hi } else { lo };
            let bound = Bound::of(value, alpha, beta);
            self.store(key, ply, Found { depth, value, bound, eval: NO_EVAL, mv: None });
            return value;
        }
        // A value inside the window is wanted (the root's own roll about
        // to become its best move, or a close call): every outcome exactly.
        // Bounds from different passes may disagree (a search is not
        // exactly repeatable: the table changes between them); then the
        // exact value stands alone.
        let value = self.exact(pos, list, depth, ply);
        let value = if lo <= hi { value.clamp(lo, hi) } else { value };
        if !self.stopped {
            self.store(key, ply, Found { depth, value, bound: Bound::Exact, eval: NO_EVAL, mv: None });
        }
        value
    }

    /// Bounds on the expectation at `depth`, tightened by null-window
    /// searches of the outcomes around targets that average `alpha` (see
    /// the module's note) until they show on which side of `alpha` it
    /// lies, or `CHANCE_PROOF_PASSES` passes could not. Each pass searches
    /// only the outcomes whose bound the proof still lacks, their targets
    /// shifted by what the others already give.
    fn decide(&mut self, pos: &G, list: &MoveList<G::Move>, depth: i32, alpha: i32, ply: usize) -> (i32, i32) {
        let sign = perspective(pos);
        let n = list.len();
        let mut estimate = [0i64; MAX_MOVES];
        let mut weight = [0i64; MAX_MOVES];
        let mut known = [Known { lo: -MATE, hi: MATE }; MAX_MOVES];
        for (i, &m) in list.iter().enumerate() {
            weight[i] = i64::from(pos.chance_weight(m));
            estimate[i] = i64::from(self.guess(sign, &pos.play(m), ply + 1));
        }
        let total: i64 = weight[..n].iter().sum::<i64>().max(1);
        // The expectation (rounded down, as `exact` rounds) beats `alpha`
        // exactly when the weighted sum reaches `need`.
        let need = (i64::from(alpha) + 1) * total;
        let sum_of = |f: &dyn Fn(usize) -> i64| (0..n).map(|i| weight[i] * f(i)).sum::<i64>();
        let (mut passes, mut aborted) = (0, 0);
        loop {
            let lows = sum_of(&|i| i64::from(known[i].lo));
            let highs = sum_of(&|i| i64::from(known[i].hi));
            if lows >= need || highs < need || passes == CHANCE_PROOF_PASSES || aborted > CHANCE_PROOF_PASSES {
                return (lows.div_euclid(total) as i32, highs.div_euclid(total) as i32);
            }
            // Prove the side the estimates favour: the outcomes still
            // without a bound on that side get targets that would just do.
            let up = sum_of(&|i| estimate[i]) >= need;
            let open = |k: Known| if up { k.lo == -MATE } else { k.hi == MATE };
            let (mut settled, mut open_sum, mut open_weight) = (0i64, 0i64, 0i64);
            let mut order = [0u8; MAX_MOVES];
            let mut count = 0;
            for i in 0..n {
                if open(known[i]) {
                    open_sum += weight[i] * estimate[i];
                    open_weight += weight[i];
                    order[count] = i as u8;
                    count += 1;
                } else {
                    settled += weight[i] * i64::from(if up { known[i].lo } else { known[i].hi });
                }
            }
            // Up: every open outcome above its target t (so at least
            // t + 1) must bring the sum to `need`; down: every one at most
            // t must keep it below.
            let shift = if up {
                (need - settled - open_sum - open_weight).div_euclid(open_weight) + 1
            } else {
                (need - 1 - settled - open_sum).div_euclid(open_weight)
            };
            // The deciding outcomes first: the heaviest, then those whose
            // guess lies furthest on the side the proof must rule out (the
            // best ones when proving the roll worth at most `alpha`).
            order[..count].sort_unstable_by_key(|&i| {
                let i = usize::from(i);
                (-weight[i], if up { estimate[i] } else { -estimate[i] }, i)
            });
            let (mut searched, mut wrong) = (0i64, 0i64);
            let mut abort = false;
            for &i in &order[..count] {
                let i = usize::from(i);
                let target = (estimate[i] + shift).clamp(i64::from(-MATE_BOUND), i64::from(MATE_BOUND)) as i32;
                let child = pos.play(list.as_slice()[i]);
                let v = self.child_value(sign, &child, depth - 1, Window::above(target), ply + 1, NonPv::All);
                if self.stopped {
                    return (0, 0);
                }
                if v <= target {
                    known[i].hi = known[i].hi.min(v);
                } else {
                    known[i].lo = known[i].lo.max(v);
                }
                estimate[i] = i64::from(v);
                searched += weight[i];
                if (v > target) != up {
                    wrong += weight[i];
                }
                // The proof is going the wrong way: try the other side
                // with the values learnt, rather than finish this pass.
                if searched * CHANCE_ABORT_AFTER_SHARE >= total && wrong * CHANCE_ABORT_WRONG_SHARE > searched {
                    abort = true;
                    break;
                }
            }
            if abort {
                aborted += 1;
            } else {
                passes += 1;
            }
        }
    }

    /// The exact expectation at `depth`, each outcome searched in a window
    /// around its guess.
    fn exact(&mut self, pos: &G, list: &MoveList<G::Move>, depth: i32, ply: usize) -> i32 {
        self.mean_over(pos, list, |this, sign, child| {
            let guess = this.guess(sign, child, ply + 1);
            this.aspirated(sign, child, depth - 1, guess, ply + 1)
        })
    }

    /// The weighted mean of `value(roller's sign, outcome)` over the
    /// outcomes (0 once the search is stopped).
    fn mean_over(
        &mut self,
        pos: &G,
        list: &MoveList<G::Move>,
        mut value: impl FnMut(&mut Self, i32, &G) -> i32,
    ) -> i32 {
        let sign = perspective(pos);
        let (mut total, mut weights) = (0i64, 0i64);
        for &m in list.iter() {
            let w = i64::from(pos.chance_weight(m));
            let v = value(self, sign, &pos.play(m));
            if self.stopped {
                return 0;
            }
            total += w * i64::from(v);
            weights += w;
        }
        (total / weights.max(1)) as i32
    }

    /// An outcome's best guess from the roller's view (`sign`): its stored
    /// value, else its static value.
    fn guess(&self, sign: i32, child: &G, ply: usize) -> i32 {
        let view = if perspective(child) == sign { 1 } else { -1 };
        let v = match self.tt.probe(child.key()) {
            Some(e) => from_tt(e.value as i32, ply),
            None => Self::static_value(child),
        };
        view * v
    }

    /// An outcome's exact value from the roller's view, searched in a
    /// window around `guess` that widens on failure.
    fn aspirated(&mut self, sign: i32, child: &G, depth: i32, guess: i32, ply: usize) -> i32 {
        if guess.abs() >= MATE_BOUND {
            return self.child_value(sign, child, depth, Window::FULL, ply, NonPv::All);
        }
        let mut delta = CHANCE_WINDOW;
        let (mut lo, mut hi) = (guess - delta, guess + delta);
        loop {
            let asked = Window::new(lo, hi);
            let v = self.child_value(sign, child, depth, asked, ply, NonPv::All);
            if self.stopped || asked.holds(v) {
                return v;
            }
            delta *= 2;
            if delta > 1000 {
                (lo, hi) = (-INF, INF);
            } else if v <= lo {
                lo = (v - delta).max(-INF);
            } else {
                hi = (v + delta).min(INF);
            }
        }
    }

    /// The weighted mean of the outcomes' values, each searched as far as
    /// `horizon` says (less the ply of the roll) with a full window:
    /// shallow rolls and quiescence, where a proof would cost more than it
    /// saves.
    fn expectation(&mut self, pos: &G, list: &MoveList<G::Move>, horizon: Horizon, ply: usize) -> i32 {
        self.mean_over(pos, list, |this, sign, child| {
            this.child_at_horizon(sign, child, horizon, Window::FULL, ply + 1, NonPv::All)
        })
    }
}

#[cfg(test)]
mod tests {
    //! A toy game with a die: the first seat chooses between a sure value
    //! and a gamble whose outcomes are rolled, the second seat likewise the
    //! other way. The search must weigh the gamble by its odds.

    use crate::{Evaluate, Limits, SearchControl, SearchGame, Searcher};
    use catchess_game::{Game, Goal, MoveList, Outcome, Seat, SeatInfo};

    const SURE: u8 = 1;
    const GAMBLE: u8 = 2;
    const WAIT: u8 = 3;

    /// `value`: what a settled position is worth (seat 0's view);
    /// `odds`: the gamble's outcomes as (weight, value); `stage`: 0 to
    /// choose, 1 rolling, 2 settled. `tick` keeps settled positions apart
    /// (no repetition).
    #[derive(Clone, Copy, Debug)]
    struct Dice {
        chooser: u8,
        stage: u8,
        value: i32,
        odds: [(u32, i32); 2],
        tick: u8,
    }

    impl Dice {
        fn new(chooser: u8, sure: i32, odds: [(u32, i32); 2]) -> Dice {
            Dice { chooser, stage: 0, value: sure, odds, tick: 0 }
        }
    }

    impl Game for Dice {
        type Move = DiceMove;
        const VARIANT: &'static str = "dice";
        const SQUARES: usize = 4;
        const SEATS: &'static [SeatInfo] = &[
            SeatInfo { name: "high", fen: 'h', clock: 'h', goal: Goal::Maximise },
            SeatInfo { name: "low", fen: 'l', clock: 'l', goal: Goal::Minimise },
        ];
        fn startpos() -> Self {
            Dice::new(0, 0, [(1, 0), (1, 0)])
        }
        fn to_move(&self) -> Seat {
            Seat::new(self.chooser as usize)
        }
        fn legal_moves(&self, list: &mut MoveList<DiceMove>) {
            match self.stage {
                0 => [SURE, GAMBLE].into_iter().for_each(|m| list.push(DiceMove(m))),
                1 => (0..2).for_each(|i| list.push(DiceMove(10 + i))),
                _ => list.push(DiceMove(WAIT)),
            }
        }
        fn count_legal_moves(&self) -> u64 {
            [2, 2, 1][self.stage as usize]
        }
        fn play(&self, m: DiceMove) -> Self {
            let mut next = *self;
            match m.0 {
                SURE => next.stage = 2,
                GAMBLE => next.stage = 1,
                WAIT => next.tick += 1,
                outcome => {
                    next.stage = 2;
                    next.value = self.odds[(outcome - 10) as usize].1;
                }
            }
            next
        }
        fn key(&self) -> u64 {
            (self.stage as u64) << 16 | (self.tick as u64) << 8 | (self.value as u8 as u64)
        }
        fn move_squares(m: DiceMove) -> (usize, usize) {
            (m.0 as usize % 4, 0)
        }
        fn position_outcome(&self, _no_moves: bool) -> Option<Outcome> {
            None
        }
        fn is_chance(&self) -> bool {
            self.stage == 1
        }
        fn chance_weight(&self, m: DiceMove) -> u32 {
            self.odds[(m.0 - 10) as usize].0
        }
    }

    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    struct DiceMove(u8);

    impl std::fmt::Display for DiceMove {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(
                f,
                "{}",
                ["none", "sure", "gamble", "wait", "", "", "", "", "", "", "roll1", "roll2"][self.0 as usize]
            )
        }
    }

    impl Evaluate for Dice {
        fn evaluate(&self) -> i32 {
            self.value
        }
        fn eval_breakdown(&self) -> String {
            String::new()
        }
    }

    impl SearchGame for Dice {
        const BENCH: &'static [&'static str] = &[];
        const BENCH_DEPTH: u32 = 1;
        fn move_bits(m: DiceMove) -> u32 {
            m.0 as u32 + 1
        }
        fn in_check(&self) -> bool {
            false
        }
        fn tactical_moves(&self, _list: &mut MoveList<DiceMove>) {}
        fn tactical_value(&self, _m: DiceMove) -> Option<i32> {
            None
        }
        fn see_ge(&self, _m: DiceMove, _threshold: i32) -> bool {
            true
        }
        fn null_move(&self) -> Self {
            *self
        }
        fn has_non_pawn_material(&self) -> bool {
            false
        }
        fn reversible_plies(&self) -> usize {
            0
        }
    }

    fn choice(game: Dice) -> (String, crate::Score) {
        let limits = Limits { depth: Some(3), ..Default::default() };
        let r = Searcher::<Dice>::new(1).search(
            &catchess_game::History::new(game),
            &limits,
            &SearchControl::new(),
            &mut |_| {},
        );
        (r.best.unwrap().to_string(), r.score)
    }

    #[test]
    fn the_gamble_is_worth_its_expectation() {
        use crate::Score::Cp;
        // 1 in 4 for 100, else 0: worth 25, less than a sure 30.
        assert_eq!(choice(Dice::new(0, 30, [(1, 100), (3, 0)])), ("sure".into(), Cp(30)));
        // Even odds: worth 50, more than 30.
        assert_eq!(choice(Dice::new(0, 30, [(1, 100), (1, 0)])), ("gamble".into(), Cp(50)));
        // The minimising seat reads the same numbers the other way: a
        // sure -30 (its +30) against a gamble worth -25 (its +25).
        assert_eq!(choice(Dice::new(1, -30, [(1, -100), (3, 0)])), ("sure".into(), Cp(30)));
        assert_eq!(choice(Dice::new(1, -30, [(1, -100), (1, 0)])), ("gamble".into(), Cp(50)));
    }
}
