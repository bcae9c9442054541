//! Chance nodes: where the next move is rolled, not chosen (a die), the
//! node's value is the expectation of its outcomes' values, each weighted
//! by `Game::chance_weight` (expectimax).
//!
//! Every outcome is searched with a full window, so the expectation is
//! exact for its depth. The root's own roll is searched as deep as the
//! moves beside it (after a cheap reduced probe, see `chance_node`);
//! deeper rolls `CHANCE_REDUCTION` plies shallower, and moves into a roll
//! only `CHANCE_MAX_PLY` plies from the root (`params.rs` has the
//! measurements). Star1/Star2 pruning, which bounds the outcomes not yet
//! searched by the game's extreme values, would search less; it needs
//! those bounds from the game and is left for later.

use super::params::{CHANCE_PROBE_MARGIN, CHANCE_REDUCTION};
use super::tt::Bound;
use super::worker::{Worker, NO_EVAL};
use super::{perspective, SearchGame, INF};
use crate::game::MoveList;

/// How far a chance node's outcomes are searched.
#[derive(Clone, Copy, Debug)]
pub(super) enum Reach {
    Plies(i32),
    /// In quiescence, with the plies already spent there.
    Quiescence(usize),
}

impl<G: SearchGame> Worker<'_, G> {
    /// The value of the chance node `pos` (whose outcomes are `list`) from
    /// the perspective of its seat to move; `alpha` is the parent's bound
    /// in that perspective.
    ///
    /// The root's own roll (a chance node right below it) is searched as
    /// deep as its sibling moves, so that rolling and not rolling compare
    /// like with like: outcomes searched shallower end mid-turn, before
    /// the opponent answers, and look better than they are. To keep that
    /// cheap when rolling is pointless, a probe at the reduced depth comes
    /// first: a roll it finds `CHANCE_PROBE_MARGIN` below `alpha` is left
    /// at that (a fail low, not stored). Deeper rolls are only reduced.
    pub(super) fn chance_node(
        &mut self,
        pos: &G,
        list: &MoveList<G::Move>,
        reach: Reach,
        alpha: i32,
        ply: usize,
    ) -> i32 {
        let Reach::Plies(depth) = reach else {
            return self.expectation(pos, list, reach, ply);
        };
        if ply > 1 || depth <= 1 + CHANCE_REDUCTION {
            return self.expectation(pos, list, Reach::Plies(depth - CHANCE_REDUCTION), ply);
        }
        let probe = self.expectation(pos, list, Reach::Plies(depth - CHANCE_REDUCTION), ply);
        if self.stopped || probe <= alpha - CHANCE_PROBE_MARGIN {
            return probe;
        }
        let value = self.expectation(pos, list, reach, ply);
        if !self.stopped {
            self.store(pos.key(), depth, value, NO_EVAL, Bound::Exact, None, ply);
        }
        value
    }

    /// The weighted mean of the outcomes' values, each searched `reach`
    /// deep (less the ply of the roll) with a full window.
    fn expectation(&mut self, pos: &G, list: &MoveList<G::Move>, reach: Reach, ply: usize) -> i32 {
        let sign = perspective(pos);
        let (mut total, mut weights) = (0i64, 0i64);
        for &m in list.iter() {
            let w = i64::from(pos.chance_weight(m));
            let child = pos.play(m);
            let v = match reach {
                Reach::Plies(d) => self.child_value(sign, &child, d - 1, -INF, INF, ply + 1, false),
                Reach::Quiescence(q) => self.child_qvalue(sign, &child, -INF, INF, ply + 1, q + 1),
            };
            if self.stopped {
                return 0;
            }
            total += w * i64::from(v);
            weights += w;
        }
        (total / weights.max(1)) as i32
    }
}

#[cfg(test)]
mod tests {
    //! A toy game with a die: the first seat chooses between a sure value
    //! and a gamble whose outcomes are rolled, the second seat likewise the
    //! other way. The search must weigh the gamble by its odds.

    use crate::game::{Game, Goal, MoveList, Outcome, Seat, SeatInfo};
    use crate::search::{Evaluate, Limits, SearchControl, SearchGame, Searcher};

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

    fn choice(game: Dice) -> (String, crate::search::Score) {
        let limits = Limits { depth: Some(3), ..Default::default() };
        let r = Searcher::<Dice>::new(1).search(
            &crate::game::History::new(game),
            &limits,
            &SearchControl::new(),
            &mut |_| {},
        );
        (r.best.unwrap().to_string(), r.score)
    }

    #[test]
    fn the_gamble_is_worth_its_expectation() {
        use crate::search::Score::Cp;
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
