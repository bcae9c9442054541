//! The evaluation, in centipawns from White's point of view, term by term:
//! material, king exposure, mouse threats, the two-cats race, and a little
//! centralisation. Kept cheap (a handful of set operations and a few slider
//! scans per king and queen): the search calls it at every leaf.
//!
//! What the rules make different from chess, and so what the terms are for:
//!
//! * No check (rules §2): a king left attacked is simply captured and the
//!   game is lost, so the attackers of a king's square and enemy pieces
//!   around it weigh more than chess's king safety would.
//! * A mouse captures only a king or a queen and only pawns and cats
//!   capture it (the king and queen cannot take it), so a mouse next to
//!   either one is a threat they must run from.
//! * Two own cats on the last rank win (§5): each cat's distance to it is
//!   worth something, and a cat home with a second one close is near a win.

use super::attacks::{slide, tables, BISHOP_DIRS, ROOK_DIRS};
use super::position::CatsChess10;
use super::square::{forward, squares, Role, Square};
use catchess_core::Color;
use catchess_search::Evaluate;

/// Centipawn worth per kind; the king is not counted (capturing it ends
/// the game), the neutral belongs to nobody.
///
/// * Cat 450: it steps orthogonally, captures diagonally and leaps like a
///   knight (capturing or not), so it has about a knight's reach plus a
///   king's close control, and two of them on the last rank win.
/// * T 500: a cat, plus the teleport (a fresh square anywhere outside the
///   opponent's two home ranks), and losing it gives the opponent a bonus
///   move.
/// * Mouse 40: a player may put a new one on its first rank every turn for
///   free, so one more is worth little by itself; what it threatens is
///   scored apart ([`MOUSE_NEXT_TO_KING`], [`MOUSE_NEXT_TO_QUEEN`]).
pub const fn value(kind: Role) -> i32 {
    match kind {
        Role::Pawn => 100,
        Role::Knight => 300,
        Role::Bishop => 330,
        Role::Rook => 480,
        Role::Queen => 900,
        Role::King => 0,
        Role::Cat => 450,
        Role::TCat => 500,
        Role::Mouse => 40,
        Role::Neutral => 0,
    }
}

/// Per enemy piece (not a mouse) that can capture onto the king's square:
/// a king so attacked is lost unless its owner moves first and saves it.
pub const KING_ATTACKER: i32 = 150;
/// Per enemy piece (not a pawn, not a mouse) on a square next to the king.
pub const KING_NEIGHBOUR: i32 = 25;
/// An enemy mouse orthogonally next to the king: it captures the king next
/// turn, and the king cannot take it.
pub const MOUSE_NEXT_TO_KING: i32 = 300;
/// An enemy mouse orthogonally next to the queen (same reasoning).
pub const MOUSE_NEXT_TO_QUEEN: i32 = 120;
/// An enemy mouse two orthogonal steps (or one diagonal) from the king.
pub const MOUSE_NEAR_KING: i32 = 25;
/// A cat's worth by its distance to the last rank (index 0: on it).
pub const CAT_ADVANCE: [i32; 10] = [90, 60, 40, 26, 16, 9, 4, 1, 0, 0];
/// One cat home and another this many ranks away (index 1, 2, 3): the next
/// turn or two may win.
pub const CAT_PAIR: [i32; 4] = [0, 250, 100, 40];
/// Knights, cats and bishops near the centre, per step of centrality.
pub const CENTRE: i32 = 4;

/// The terms of one side, each from its own point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    pub material: i32,
    pub king_exposure: i32,
    pub mouse_threats: i32,
    pub cat_race: i32,
    pub centre: i32,
}

impl Terms {
    pub fn total(&self) -> i32 {
        self.material + self.king_exposure + self.mouse_threats + self.cat_race + self.centre
    }
}

/// Ranks from `sq` to `c`'s last rank.
fn ranks_to_go(sq: Square, c: Color) -> usize {
    match c {
        Color::White => 9 - sq.rank() as usize,
        Color::Black => sq.rank() as usize,
    }
}

/// 0 on the rim to 4 in the four centre squares.
fn centrality(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    (f.min(9 - f) + r.min(9 - r)) / 2
}

impl CatsChess10 {
    /// Material of `c`.
    pub fn material(&self, c: Color) -> i32 {
        Role::ALL.iter().map(|&k| value(k) * self.pieces(c, k).count_ones() as i32).sum()
    }

    /// The pieces of `by` that could capture a king or queen on `sq` (by
    /// the capture table: sliders see through mice, a cat captures
    /// diagonally or by a knight leap, a mouse orthogonally, a pawn
    /// diagonally forward). A `T` that teleported this turn is counted
    /// too: by the next turn it may capture again.
    pub fn attackers(&self, sq: Square, by: Color) -> u128 {
        let t = tables();
        let i = sq.index();
        let theirs = self.color_set(by);
        let piece = |k: Role| self.kind_set(k) & theirs;
        let cats = piece(Role::Cat) | piece(Role::TCat);
        let sliders = self.occupied() & !self.kind_set(Role::Mouse);
        let mut set = t.knight[i] & (piece(Role::Knight) | cats)
            | t.diag[i] & cats
            | t.king[i] & piece(Role::King)
            | t.orth[i] & piece(Role::Mouse);
        let straight = piece(Role::Rook) | piece(Role::Queen);
        if straight != 0 {
            set |= slide(sq, sliders, &ROOK_DIRS) & straight;
        }
        let diagonal = piece(Role::Bishop) | piece(Role::Queen);
        if diagonal != 0 {
            set |= slide(sq, sliders, &BISHOP_DIRS) & diagonal;
        }
        for df in [-1, 1] {
            if let Some(p) = sq.offset(df, -forward(by)) {
                set |= p.bit() & piece(Role::Pawn);
            }
        }
        set
    }

    /// The position's terms for `c`, from `c`'s point of view.
    pub fn terms(&self, c: Color) -> Terms {
        let t = tables();
        let them = c.other();
        let mut terms = Terms { material: self.material(c), ..Terms::default() };
        let enemy_mice = self.pieces(them, Role::Mouse);
        if let Some(k) = squares(self.pieces(c, Role::King)).next() {
            let i = k.index();
            let attackers = self.attackers(k, them) & !enemy_mice;
            let near = t.king[i] & self.color_set(them) & !self.kind_set(Role::Pawn) & !enemy_mice;
            terms.king_exposure =
                -(KING_ATTACKER * attackers.count_ones() as i32 + KING_NEIGHBOUR * near.count_ones() as i32);
            let next_to = t.orth[i] & enemy_mice;
            // Two orthogonal steps away or one diagonal: the squares next
            // to the king's orthogonal neighbours, less the king and them.
            let ring = squares(t.orth[i]).fold(0, |acc, s| acc | t.orth[s.index()]) & !t.orth[i] & !k.bit();
            terms.mouse_threats -= MOUSE_NEXT_TO_KING * next_to.count_ones() as i32
                + MOUSE_NEAR_KING * (ring & enemy_mice).count_ones() as i32;
        }
        for q in squares(self.pieces(c, Role::Queen)) {
            terms.mouse_threats -= MOUSE_NEXT_TO_QUEEN * (t.orth[q.index()] & enemy_mice).count_ones() as i32;
        }
        let cats = self.pieces(c, Role::Cat) | self.pieces(c, Role::TCat);
        let mut dist: [usize; 2] = [usize::MAX; 2];
        for s in squares(cats) {
            let d = ranks_to_go(s, c);
            terms.cat_race += CAT_ADVANCE[d];
            if d < dist[0] {
                dist = [d, dist[0]];
            } else if d < dist[1] {
                dist[1] = d;
            }
        }
        if dist[0] == 0 {
            terms.cat_race += CAT_PAIR.get(dist[1]).copied().unwrap_or(0);
        }
        let minor = self.pieces(c, Role::Knight) | self.pieces(c, Role::Bishop) | cats;
        terms.centre = CENTRE * squares(minor).map(centrality).sum::<i32>();
        terms
    }
}

impl Evaluate for CatsChess10 {
    fn evaluate(&self) -> i32 {
        self.terms(Color::White).total() - self.terms(Color::Black).total()
    }

    fn eval_breakdown(&self) -> String {
        let (w, b) = (self.terms(Color::White), self.terms(Color::Black));
        let mut s = String::from("term            white  black   total\n");
        let mut row = |name: &str, w: i32, b: i32| s.push_str(&format!("{name:<14} {w:>6} {b:>6} {:>7}\n", w - b));
        row("material", w.material, b.material);
        row("king exposure", w.king_exposure, b.king_exposure);
        row("mouse threats", w.mouse_threats, b.mouse_threats);
        row("two-cats race", w.cat_race, b.cat_race);
        row("centre", w.centre, b.centre);
        row("total", w.total(), b.total());
        s.push_str(&format!("total (white's view): {}\n", self.evaluate()));
        s
    }
}
