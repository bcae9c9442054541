//! The search hooks: captures as the tactical moves (a destination on an
//! enemy piece), ordering by victim, a SEE-free `see_ge`, the null move
//! (passing a whole turn, only at a turn's start), the bench positions.

use super::eval::value;
use super::moves::Step;
use super::position::CatsChess10;
use super::square::Kind;
use crate::game::MoveList;
use crate::search::SearchGame;

/// Bench positions, both sides to move: the start, after a first turn, and
/// the public suite's random middlegames.
const BENCH: &[&str] = &[
    "rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0 1 -",
    "rnbcqkcbnr/*8*/pppppppppp/10/10/4P5/10/PPPP1PPPPP/*8*/RNBCQKCBNR b KQkq e4 1 1 -",
    "rncm1mmmmr/4q2m2/b1ppk2cpn/1p4p2p/pP1Ppp1pP1/b1P4P2/4PPP*2/P*B1C3CP/1*4K*2/RNMQMMMBNR b - - 0 31 -",
    "rnmmm1cmnr/1*m*1m1mb1/p4*pkp1/1*2p4p/1p8/6p2P/1P1P6/4PP1KP1/6NR2/RNBMMMMMMM b - - 0 24 Q@e1,q@e10",
    "mmmmmmmmmm/10/6t3/8k1/B4N4/3C6/10/2P7/10/MMMMMK3R w K - 0 1 Q@e1,q@e10",
];

impl CatsChess10 {
    /// The enemy piece a step captures, if it is a piece move onto one.
    fn victim(&self, m: Step) -> Option<Kind> {
        if !m.is_piece_move() {
            return None;
        }
        let p = self.piece_at(m.to)?;
        (p.kind != Kind::Neutral && p.color != self.turn).then_some(p.kind)
    }
}

impl SearchGame for CatsChess10 {
    const BENCH: &'static [&'static str] = BENCH;
    /// Plies, not turns: a turn is two to five steps.
    const BENCH_DEPTH: u32 = 20;

    fn move_bits(m: Step) -> u32 {
        m.bits()
    }

    /// No check exists (rules §2): nothing forces an answer.
    fn in_check(&self) -> bool {
        false
    }

    fn tactical_moves(&self, list: &mut MoveList<Step>) {
        self.legal_moves(list);
        list.retain(|&m| self.victim(m).is_some());
    }

    fn tactical_value(&self, m: Step) -> Option<i32> {
        let victim = self.victim(m)?;
        let v = if victim == Kind::King { 20_000 } else { value(victim) };
        let attacker = self.piece_at(m.from).map_or(0, |p| value(p.kind));
        Some(v * 8 - attacker / 16)
    }

    fn see_ge(&self, m: Step, threshold: i32) -> bool {
        self.victim(m).is_some() || threshold <= 0
    }

    /// The teleport request: its roll is searched square by square.
    fn order_last(&self, m: Step) -> bool {
        m.kind == super::moves::StepKind::Request
    }

    fn null_move(&self) -> Self {
        self.pass_turn()
    }

    /// Only at a turn's start may a turn be passed; mid-turn this says no,
    /// so the search never tries a null move there.
    fn has_non_pawn_material(&self) -> bool {
        self.at_turn_start()
            && (self.color_set(self.turn) & !(self.kind_set(Kind::Pawn) | self.kind_set(Kind::King))) != 0
    }

    /// Every step of a turn without a capture is reversible; the clock
    /// counts turns, a turn is at most 16 steps (a dozen, and step 1's
    /// request, roll, reroll and second roll).
    fn reversible_plies(&self) -> usize {
        self.halfmove as usize * 16 + 16
    }
}
