//! The legal steps of each phase of a turn (rules §2, §3).
//!
//! Every list stays within `game::MAX_MOVES` (the bound is proven in
//! `crates/game/src/movelist.rs`): picking a piece lists at most 100 squares, a
//! piece's destinations at most 35 (a queen in the centre) or 21 (a pawn's
//! three promotion squares × 7 pieces), placing a neutral at most 100
//! squares, the mouse at most 10 plus `End`, and the start of a turn at
//! most 4 neutrals × 4 moves + 100 picks (the FEN parser accepts at most
//! the four neutrals of the setup, and neutrals never leave the board).

use super::attacks::{slide, tables, BISHOP_DIRS, QUEEN_DIRS, ROOK_DIRS};
use super::moves::{Step, StepKind};
use super::position::{CatsChess10, Phase, BLACK_K, BLACK_Q, WHITE_K, WHITE_Q};
use super::square::{first_rank, forward, squares, Role, Piece, Square, BOARD};
use catchess_core::Color;
use catchess_game::MoveList;

/// Castling (rules §2.1): (right, king from, king to, rook from, squares
/// that must be empty or hold a mouse, squares that must be empty).
struct Castle {
    right: u8,
    king: u8,
    to: u8,
    rook: u8,
    pass: [u8; 2],
    land: [u8; 2],
}

const CASTLES: [Castle; 4] = [
    Castle { right: WHITE_K, king: 5, to: 8, rook: 9, pass: [6, 6], land: [7, 8] },
    Castle { right: WHITE_Q, king: 5, to: 2, rook: 0, pass: [1, 4], land: [2, 3] },
    Castle { right: BLACK_K, king: 95, to: 98, rook: 99, pass: [96, 96], land: [97, 98] },
    Castle { right: BLACK_Q, king: 95, to: 92, rook: 90, pass: [91, 94], land: [92, 93] },
];

/// The rook's move of a castling whose king goes `from` → `to`, if it is one.
pub fn castling_rook(from: Square, to: Square) -> Option<(Square, Square)> {
    CASTLES.iter().find(|c| c.king as usize == from.index() && c.to as usize == to.index()).map(|c| {
        let rook_to = if c.to > c.king { c.to - 1 } else { c.to + 1 };
        (Square::from_index(c.rook as u32), Square::from_index(rook_to as u32))
    })
}

impl CatsChess10 {
    /// Where the piece `p` on `from` may go in a move of `purpose` (`Own`,
    /// `SecondCat` or `Bonus`), castling included; promotions are chosen
    /// with the destination.
    pub(super) fn targets(&self, from: Square, p: Piece, purpose: StepKind) -> u128 {
        let t = tables();
        let i = from.index();
        let us = p.color;
        let occ = self.occupied();
        let mice = self.kind_set(Role::Mouse);
        let neutral = self.kind_set(Role::Neutral);
        let empty = BOARD & !occ;
        let enemy = self.color_set(us.other());
        let enemy_solid = enemy & !mice;
        let set = match p.kind {
            Role::Pawn => self.pawn_targets(from, us, empty, enemy, neutral, mice),
            Role::Knight => t.knight[i] & (empty | enemy_solid),
            Role::Bishop => slide(from, occ & !mice, &BISHOP_DIRS) & (empty | enemy_solid | neutral),
            Role::Rook => slide(from, occ & !mice, &ROOK_DIRS) & (empty | enemy_solid),
            Role::Queen => slide(from, occ & !mice, &QUEEN_DIRS) & (empty | enemy_solid | neutral),
            Role::King => t.king[i] & (empty | enemy_solid | neutral) | self.castling_targets(from, us, empty, mice),
            Role::Cat | Role::TCat => {
                let knight = if purpose == StepKind::SecondCat { 0 } else { t.knight[i] };
                if p.kind == Role::TCat && self.state.teleported {
                    // A teleported T captures nothing this turn (§9.4).
                    (t.orth[i] | knight) & empty
                } else {
                    t.orth[i] & (empty | neutral) | t.diag[i] & enemy | knight & (empty | enemy | neutral)
                }
            }
            Role::Mouse => t.orth[i] & (empty | enemy & (self.kind_set(Role::King) | self.kind_set(Role::Queen))),
            Role::Neutral => 0,
        };
        // A neutral captured must be put somewhere (§2.9): the square left
        // counts unless a piece waits under it. Only a full board fails.
        if set & neutral != 0 && self.free_squares() == 0 && self.waiting & from.bit() != 0 {
            return set & !neutral;
        }
        set
    }

    fn pawn_targets(&self, from: Square, us: Color, empty: u128, enemy: u128, neutral: u128, mice: u128) -> u128 {
        let dir = forward(us);
        let mut set = 0;
        let Some(fwd) = from.offset(0, dir) else { return 0 };
        if (empty | neutral) & fwd.bit() != 0 {
            set |= fwd.bit();
        }
        let start_rank = if us == Color::White { 2 } else { 7 };
        if from.rank() == start_rank && (empty | mice) & fwd.bit() != 0 {
            if let Some(two) = fwd.offset(0, dir) {
                set |= two.bit() & (empty | neutral);
            }
        }
        for df in [-1, 1] {
            if let Some(c) = from.offset(df, dir) {
                set |= c.bit() & enemy;
                if self.ep == Some(c) && empty & c.bit() != 0 {
                    let victim = Square::from_index((c.index() as i32 - 10 * dir as i32) as u32);
                    if self.piece_at(victim) == Some(Piece::new(Role::Pawn, us.other())) {
                        set |= c.bit();
                    }
                }
            }
        }
        set
    }

    fn castling_targets(&self, from: Square, us: Color, empty: u128, mice: u128) -> u128 {
        let mut set = 0;
        for c in CASTLES.iter() {
            let sq = |i: u8| Square::from_index(i as u32);
            if self.castling & c.right == 0 || c.king as usize != from.index() {
                continue;
            }
            let ok = self.piece_at(sq(c.rook)) == Some(Piece::new(Role::Rook, us))
                && c.pass.iter().all(|&s| (empty | mice) & sq(s).bit() != 0)
                && c.land.iter().all(|&s| empty & sq(s).bit() != 0);
            if ok {
                set |= sq(c.to).bit();
            }
        }
        set
    }

    /// The own pieces that have a move of `purpose`, as squares.
    fn movable(&self, candidates: u128, purpose: StepKind) -> impl Iterator<Item = Square> + '_ {
        squares(candidates).filter(move |&sq| {
            let p = self.piece_at(sq).expect("a candidate holds a piece");
            self.targets(sq, p, purpose) != 0
        })
    }

    /// Whether the side to move has any own move (step 3).
    pub(super) fn has_own_move(&self) -> bool {
        self.movable(self.color_set(self.turn), StepKind::Own).next().is_some()
    }

    /// Whether a neutral move (step 2) exists after which the side to move
    /// has an own move: a turn without one may still be completed.
    pub(super) fn has_neutral_then_own_move(&self) -> bool {
        let mut found = false;
        self.neutral_moves(|s| found = found || self.play(s).has_own_move());
        found
    }

    /// The cats that may make the second cat move.
    pub(super) fn second_cats(&self) -> u128 {
        let cats = (self.kind_set(Role::Cat) | self.kind_set(Role::TCat)) & self.color_set(self.turn);
        cats & !self.state.first_cat.bit()
    }

    pub(super) fn has_second_cat_move(&self) -> bool {
        self.movable(self.second_cats(), StepKind::SecondCat).next().is_some()
    }

    pub(super) fn has_bonus_move(&self) -> bool {
        self.movable(self.color_set(self.turn), StepKind::Bonus).next().is_some()
    }

    /// Squares where step 4 may put a mouse.
    pub(super) fn mouse_squares(&self) -> u128 {
        first_rank(self.turn) & self.free_squares()
    }

    /// The neutral moves (step 2) by geometry: a step to an empty square,
    /// or a jump over one adjacent piece to the empty square beyond.
    fn neutral_moves(&self, mut push: impl FnMut(Step)) {
        let occ = self.occupied();
        for n in squares(self.kind_set(Role::Neutral)) {
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let Some(a) = n.offset(df, dr) else { continue };
                let to = if occ & a.bit() == 0 {
                    Some(a)
                } else {
                    a.offset(df, dr).filter(|b| occ & b.bit() == 0)
                };
                if let Some(to) = to {
                    push(Step::new(StepKind::Neutral, n, to));
                }
            }
        }
    }

    /// Every legal step here. At a turn's start with the game over (a king
    /// captured, two cats home) there are none.
    pub fn legal_moves(&self, list: &mut MoveList<Step>) {
        let st = self.state;
        match st.phase {
            Phase::Start => {
                if self.at_turn_start() && self.finished().is_some() {
                    return;
                }
                if !st.neutral_done {
                    // A neutral move that would leave no own move may not
                    // be made (§3).
                    self.neutral_moves(|s| {
                        if self.play(s).has_own_move() {
                            list.push(s)
                        }
                    });
                }
                for sq in self.movable(self.color_set(self.turn), StepKind::Own) {
                    list.push(Step::pick(sq));
                }
                // Step 1, last: the search tries the costly roll after
                // everything else. Offered when some square the roll may
                // keep leaves a step-3 move (§3), even to a player with
                // no other way to one: it must then teleport.
                if self.may_request() {
                    list.push(Step::REQUEST);
                }
            }
            Phase::Roll | Phase::MouseChoice | Phase::Reroll => {
                self.teleport_steps(list);
            }
            Phase::Dest => {
                let from = st.picked;
                let Some(p) = self.piece_at(from) else { return };
                let last = first_rank(self.turn.other());
                for to in squares(self.targets(from, p, st.purpose)) {
                    let step = Step::new(st.purpose, from, to);
                    if p.kind == Role::Pawn && last & to.bit() != 0 {
                        for k in Role::PROMOTIONS {
                            list.push(Step { promo: Some(k), ..step });
                        }
                    } else {
                        list.push(step);
                    }
                }
            }
            Phase::Place => {
                for sq in squares(self.free_squares()) {
                    list.push(Step::at(StepKind::Place, sq));
                }
            }
            Phase::SecondCat => {
                for sq in self.movable(self.second_cats(), StepKind::SecondCat) {
                    list.push(Step::pick(sq));
                }
                list.push(Step::END);
            }
            Phase::Mouse => {
                for sq in squares(self.mouse_squares()) {
                    list.push(Step::at(StepKind::Mouse, sq));
                }
                list.push(Step::END);
            }
            Phase::Bonus => {
                for sq in self.movable(self.color_set(self.turn), StepKind::Bonus) {
                    list.push(Step::pick(sq));
                }
                list.push(Step::END);
            }
        }
    }

    pub fn count_legal_moves(&self) -> u64 {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.len() as u64
    }

    /// Whether `s` is one of the legal steps here.
    pub fn is_legal(&self, s: Step) -> bool {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.iter().any(|&m| m == s)
    }
}
