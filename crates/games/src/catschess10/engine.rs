//! The search hooks, for turns whose steps are plies of the tree: tactical
//! moves step by step (a pick is tactical when its piece can capture, the
//! capture is the next ply; after the own move the turn is carried on to
//! the opponent's answer), ordering by victim, a SEE-free `see_ge`, a king
//! attacked before the own move as "in check", the null move (passing a
//! whole turn, only at a turn's start), the bench positions.

use super::eval::value;
use super::moves::{Step, StepKind};
use super::position::{CatsChess10, Phase};
use super::square::{first_rank, squares, Role};
use catchess_game::MoveList;
use catchess_search::SearchGame;

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
    fn victim(&self, m: Step) -> Option<Role> {
        if !m.is_piece_move() {
            return None;
        }
        let p = self.piece_at(m.to)?;
        (p.kind != Role::Neutral && p.color != self.turn).then_some(p.kind)
    }

    /// The move a pick is for here (`Own`, `SecondCat`, `Bonus`).
    fn pick_purpose(&self) -> StepKind {
        match self.state.phase {
            Phase::SecondCat => StepKind::SecondCat,
            Phase::Bonus => StepKind::Bonus,
            _ => StepKind::Own,
        }
    }

    /// What the piece a pick takes can capture (the most valuable enemy
    /// piece among its destinations, a king above all) or whether it
    /// promotes: the pick's ordering value, `None` for a piece with only
    /// quiet moves. This is what makes a pick tactical: the capture itself
    /// is the next ply.
    fn pick_gain(&self, m: Step) -> Option<i32> {
        let p = self.piece_at(m.from)?;
        let targets = self.targets(m.from, p, self.pick_purpose());
        let enemy = targets & self.color_set(self.turn.other());
        let best = squares(enemy).filter_map(|sq| self.piece_at(sq)).map(|v| victim_value(v.kind)).max();
        let promotes = p.kind == Role::Pawn && targets & first_rank(self.turn.other()) != 0;
        match (best, promotes) {
            (Some(v), _) => Some(v * 8 - value(p.kind) / 16),
            (None, true) => Some(value(Role::Queen) * 4),
            (None, false) => None,
        }
    }

    /// The own king attacked by the opponent before this turn's own move
    /// is made (at the turn's start, or choosing the own move's
    /// destination): the move that saves it, if any, has to come now.
    ///
    /// Choosing a destination, only the king's own: "in check" makes
    /// quiescence try every move, and answering with every destination of
    /// every piece multiplies it past use (any other piece's quiet move is
    /// valued by standing pat, its king still attacked).
    fn king_attacked(&self) -> bool {
        let before_own_move = match self.state.phase {
            Phase::Start => true,
            Phase::Dest => {
                self.state.purpose == StepKind::Own
                    && self.piece_at(self.state.picked).is_some_and(|p| p.kind == Role::King)
            }
            _ => false,
        };
        before_own_move
            && squares(self.pieces(self.turn, Role::King))
                .next()
                .is_some_and(|k| self.attackers(k, self.turn.other()) != 0)
    }
}

/// A victim's worth for ordering: a king ends the game.
fn victim_value(kind: Role) -> i32 {
    if kind == Role::King {
        20_000
    } else {
        value(kind)
    }
}

impl SearchGame for CatsChess10 {
    const BENCH: &'static [&'static str] = BENCH;
    /// Plies, not turns: a turn is two to five steps.
    const BENCH_DEPTH: u32 = 12;

    fn move_bits(m: Step) -> u32 {
        m.bits()
    }

    /// A king attacked at a turn's start is answered by every step: any
    /// neutral move, then any own move, each a ply. Eight plies of that
    /// (the default) cost 45 K nodes for a depth-1 search in a middlegame
    /// that two plies settle in 545, and hung a depth-6 match game.
    const QS_EVASION_PLIES: usize = 2;

    /// No check exists (rules §2), but a king attacked before the own move
    /// is made is lost unless that move saves it: the node is searched a
    /// ply deeper, nothing there is pruned, and quiescence tries every
    /// move instead of standing pat (see [`CatsChess10::king_attacked`]).
    fn in_check(&self) -> bool {
        self.king_attacked()
    }

    /// For quiescence, by the step at hand: at a turn's start (or choosing
    /// a second cat or bonus move) the picks of pieces that can capture or
    /// promote; choosing a destination, the captures (a king's included)
    /// and queen promotions; and after the own move, the step that carries
    /// the turn on to the opponent's answer (`End`, or one placement of a
    /// captured neutral), since the static value does not hold there
    /// (`static_value_holds`).
    fn tactical_moves(&self, list: &mut MoveList<Step>) {
        self.legal_moves(list);
        match self.state.phase {
            Phase::Start => list.retain(|&m| m.kind == StepKind::Pick && self.pick_gain(m).is_some()),
            Phase::Dest => list.retain(|&m| self.victim(m).is_some() || m.promo == Some(Role::Queen)),
            Phase::SecondCat | Phase::Bonus => {
                list.retain(|&m| m.kind == StepKind::End || self.pick_gain(m).is_some())
            }
            Phase::Mouse => list.retain(|&m| m.kind == StepKind::End),
            Phase::Place => {
                let mut first = true;
                list.retain(|_| std::mem::replace(&mut first, false));
            }
            // A roll (every outcome, weighted) and the keep-or-reroll
            // decision after it: all of them, to finish step 1.
            Phase::Roll | Phase::Reroll | Phase::MouseChoice => {}
        }
    }

    fn tactical_value(&self, m: Step) -> Option<i32> {
        match m.kind {
            StepKind::Pick => self.pick_gain(m),
            _ => {
                if let Some(victim) = self.victim(m) {
                    let attacker = self.piece_at(m.from).map_or(0, |p| value(p.kind));
                    return Some(victim_value(victim) * 8 - attacker / 16);
                }
                (m.promo == Some(Role::Queen)).then_some(value(Role::Queen) * 4)
            }
        }
    }

    /// Between the own move and the turn's end the opponent has not
    /// answered yet: the static value would count every capture as won.
    fn static_value_holds(&self) -> bool {
        matches!(self.state.phase, Phase::Start | Phase::Dest)
    }

    /// A one-exchange estimate: a capture gains its victim, less the
    /// capturer when the square is defended by a piece that may take it
    /// (a mouse takes only a king or queen; only pawns and cats take a
    /// mouse); a king capture always wins; a pick gains nothing yet, but a
    /// tactical one may lead to a gain.
    fn see_ge(&self, m: Step, threshold: i32) -> bool {
        if m.kind == StepKind::Pick {
            return threshold <= 0 || self.pick_gain(m).is_some();
        }
        let Some(victim) = self.victim(m) else { return threshold <= 0 };
        if victim == Role::King {
            return true;
        }
        let Some(mover) = self.piece_at(m.from) else { return threshold <= 0 };
        let them = self.turn.other();
        let mut defenders = self.attackers(m.to, them);
        match mover.kind {
            Role::King | Role::Queen => {}
            Role::Mouse => {
                defenders &= self.kind_set(Role::Pawn) | self.kind_set(Role::Cat) | self.kind_set(Role::TCat)
            }
            _ => defenders &= !self.kind_set(Role::Mouse),
        }
        let lost = if defenders != 0 { value(mover.kind) } else { 0 };
        value(victim) - lost >= threshold
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
            && (self.color_set(self.turn) & !(self.kind_set(Role::Pawn) | self.kind_set(Role::King))) != 0
    }

    /// Every step of a turn without a capture is reversible; the clock
    /// counts turns, a turn is at most 16 steps (a dozen, and step 1's
    /// request, roll, reroll and second roll).
    fn reversible_plies(&self) -> usize {
        self.halfmove as usize * 16 + 16
    }
}
