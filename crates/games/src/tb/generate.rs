//! The retrograde generator.
//!
//! 1. **Init**: every entry is decoded, checked (a real position, the
//!    representative of its symmetry class) and its moves generated once by
//!    the engine's own move generator. Mates are set (`winner 0`); for each
//!    other position the number of distinct successor entries inside the
//!    table is kept (one byte), and the moves that leave the table (a
//!    capture, a promotion) are judged at once from the smaller tables.
//!    Only those are played on the position: a successor inside the table
//!    is found from the move's squares alone ([`Layout::after`]), since
//!    playing every move was most of the init's time.
//! 2. **Retrograde passes**, for plies d = 0, 1, 2, …: every entry decided
//!    at d ply from the end (a win for X) is taken back: the un-moves of the
//!    seat that moved into it give its predecessors, each confirmed by the
//!    forward move generator (the predecessor is a legal position and the
//!    move is among its legal moves), so the cats' rules live in one place.
//!    A predecessor whose mover is X wins in d + 1 (its fastest win, since
//!    wins are found in order of length). Any other predecessor (X's
//!    opponent, or the cats, to whom every win is a loss) counts down its
//!    successors; when none is left, all its moves lose for it and its
//!    value is the best of its successors' for it, one ply further: the
//!    slowest loss. What is never decided is a draw: the cats' win.
//!
//! A win known only from a move leaving the table (a promotion) is kept as
//! *tentative*: a faster win inside the table may still replace it, and it
//! becomes final when the passes reach its length.

use super::index::{Layout, Placement};
use super::progress::{run_parallel, Bar};
use super::value::{code, Verdict};
use crate::chess::{attacks, Move, Position, Role, Side, Variant};
use catchess_core::{Bitboard, Color, Square};
use catchess_game::MoveList;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU8, Ordering};

/// More than the moves out of or un-moves into any position of a table: a
/// king's 8 and a queen's 27, or two cats' 8 each and the pass.
const MOST_MOVES: usize = 64;

/// The verdict of a position outside the table (after a capture or a
/// promotion), or `None` if it cannot be judged (a table missing).
pub type Outside<'a, V> = dyn Fn(&Position<V>) -> Option<Verdict> + Sync + 'a;

/// What the generator needs besides the layout.
pub struct Settings<'a, V: Variant> {
    pub layout: Layout,
    pub outside: &'a Outside<'a, V>,
    pub threads: usize,
    pub bar: Bar,
}

struct Work<'a, V: Variant> {
    s: &'a Settings<'a, V>,
    values: Vec<AtomicU16>,
    /// Successor entries not yet known to be bad for the mover.
    counts: Vec<AtomicU8>,
    /// The longest win assigned so far, in plies.
    longest: AtomicU16,
    failed: AtomicBool,
}

/// Builds the table: one code per entry (see [`code`]).
pub fn generate<V: Variant>(s: &Settings<'_, V>) -> Result<Vec<u16>, String> {
    let n = s.layout.len();
    let work = Work {
        s,
        values: (0..n).map(|_| AtomicU16::new(code::DRAW)).collect(),
        counts: (0..n).map(|_| AtomicU8::new(0)).collect(),
        longest: AtomicU16::new(0),
        failed: AtomicBool::new(false),
    };
    run_parallel(n, s.threads, s.bar, "init", |range| range.for_each(|i| work.init(i)));
    if work.failed.load(Ordering::Relaxed) {
        return Err("a position after a capture or promotion could not be judged (a smaller table is missing)".into());
    }
    let mut plies = 0u16;
    while plies <= work.longest.load(Ordering::Relaxed) {
        if plies >= code::MAX_PLIES {
            return Err(format!("a win longer than {} plies does not fit the table's entries", code::MAX_PLIES));
        }
        let label = format!("plies {plies}");
        run_parallel(n, s.threads, s.bar, &label, |range| range.for_each(|i| work.pass(i, plies)));
        plies += 1;
    }
    if work.failed.load(Ordering::Relaxed) {
        return Err("a position after a capture or promotion could not be judged (a smaller table is missing)".into());
    }
    Ok(work.values.into_iter().map(|v| v.into_inner() & !code::TENTATIVE).collect())
}

impl<V: Variant> Work<'_, V> {
    fn layout(&self) -> &Layout {
        &self.s.layout
    }

    fn outside(&self, child: &Position<V>) -> Verdict {
        (self.s.outside)(child).unwrap_or_else(|| {
            self.failed.store(true, Ordering::Relaxed);
            Verdict::Draw
        })
    }

    /// Whether a position after a move still has the table's material.
    fn inside(&self, child: &Position<V>) -> bool {
        let man = self.layout().material.extra.expect("a table has a man besides the kings");
        child.pieces(man.color, man.role).any()
    }

    fn set(&self, i: u64, c: u16) {
        self.values[i as usize].store(c, Ordering::Relaxed);
        if let Some(p) = code::plies(c) {
            self.longest.fetch_max(p, Ordering::Relaxed);
        }
    }

    fn init(&self, i: u64) {
        let layout = self.layout();
        let p = layout.placement(i);
        let pos = match layout.is_canonical(i, &p).then(|| layout.position::<V>(&p)).flatten() {
            Some(pos) => pos,
            None => return self.set(i, code::INVALID),
        };
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            // White or black to move (the cats can always pass): mate or stalemate.
            if pos.in_check() {
                let loser = pos.side_to_move().color().expect("the cats always have a move");
                self.set(i, code::win(loser.other(), 0));
            }
            return;
        }
        assert!(moves.len() <= MOST_MOVES, "{}: more moves than a table position can have", pos.to_fen());
        let mover = pos.side_to_move();
        let own = mover.color();
        // The successors inside the table, as entries; the best result of
        // the moves leaving it (captures of the man, promotions), the
        // fastest own win among them, and whether one of them is a draw.
        let mut inside = [0u64; MOST_MOVES];
        let mut n_inside = 0;
        let mut best_outside = None;
        let mut fastest_own_win = None;
        let mut blocked = false;
        for &m in moves.iter() {
            let captures_man = !m.is_pass() && m.to().index() as u8 == p.man;
            if captures_man || m.promotion_role().is_some() {
                let v = self.outside(&pos.play(m));
                blocked |= v == Verdict::Draw;
                if let (Verdict::Win { winner, plies }, Some(us)) = (v, own) {
                    if winner == us && fastest_own_win.is_none_or(|f| plies < f) {
                        fastest_own_win = Some(plies);
                    }
                }
                if best_outside.is_none_or(|b: Verdict| v.preference(mover) > b.preference(mover)) {
                    best_outside = Some(v);
                }
                continue;
            }
            // The successor's placement straight from the move: playing it
            // on the position would cost more than all the rest.
            inside[n_inside] = layout.index(&layout.after(&p, m)).expect("a legal position has an entry");
            n_inside += 1;
        }
        let inside = &mut inside[..n_inside];
        let distinct = if layout.has_shared_entries() {
            inside.sort_unstable();
            inside.iter().enumerate().filter(|(k, c)| *k == 0 || inside[k - 1] != **c).count()
        } else {
            n_inside
        };
        let count = distinct + blocked as usize;
        if count == 0 {
            let v = Verdict::choose(mover, best_outside).expect("moves exist");
            return self.set(i, code::encode(v));
        }
        self.counts[i as usize].store(count as u8, Ordering::Relaxed);
        if let (Some(plies), Some(us)) = (fastest_own_win, own) {
            self.set(i, code::win(us, plies + 1) | code::TENTATIVE);
        }
    }

    /// The retrograde step for entry `i` if it is decided at `plies`.
    fn pass(&self, i: u64, plies: u16) {
        let c = self.values[i as usize].load(Ordering::Relaxed);
        if c == code::INVALID || code::plies(c) != Some(plies) {
            return;
        }
        if c & code::TENTATIVE != 0 {
            self.values[i as usize].store(c & !code::TENTATIVE, Ordering::Relaxed);
        }
        let Some(Verdict::Win { winner, .. }) = code::decode(c) else { return };
        let layout = self.layout();
        let child = layout.placement(i);
        let mover = layout.previous_seat(child.seat);
        // At most 8 king steps and 27 queen moves back, or 2 × 8 cat steps
        // and the pass: a fixed array, no allocation per entry.
        let mut found = [(0u64, child, Move::PASS); MOST_MOVES];
        let mut n = 0;
        un_moves(layout, &child, mover, |parent, m| {
            if let Some(pi) = layout.index(&parent) {
                found[n] = (pi, parent, m);
                n += 1;
            }
        });
        let parents = &mut found[..n];
        parents.sort_unstable_by_key(|(pi, _, _)| *pi);
        let mut k = 0;
        while k < parents.len() {
            let pi = parents[k].0;
            let group_end = parents[k..].iter().position(|(q, _, _)| *q != pi).map_or(parents.len(), |e| k + e);
            let group = &parents[k..group_end];
            k = group_end;
            let cur = self.values[pi as usize].load(Ordering::Relaxed);
            let decided = cur != code::DRAW && cur & code::TENTATIVE == 0;
            if decided || !group.iter().any(|(_, parent, m)| self.confirmed(parent, *m)) {
                continue;
            }
            if mover.color() == Some(winner) {
                self.win_faster(pi, code::win(winner, plies + 1));
            } else if self.counts[pi as usize].fetch_sub(1, Ordering::Relaxed) == 1 {
                self.set(pi, code::encode(self.judge(pi)));
            }
        }
    }

    /// Whether `m` is a legal move of the placement `parent` by the rules.
    fn confirmed(&self, parent: &Placement, m: Move) -> bool {
        let Some(pos) = self.layout().position::<V>(parent) else { return false };
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        moves.iter().any(|&legal| legal == m)
    }

    /// Sets a win unless the entry already holds one at least as fast.
    fn win_faster(&self, i: u64, new: u16) {
        let slot = &self.values[i as usize];
        let mut cur = slot.load(Ordering::Relaxed);
        loop {
            let better = cur == code::DRAW || (cur & code::TENTATIVE != 0 && code::plies(cur) > code::plies(new));
            if !better {
                return;
            }
            match slot.compare_exchange(cur, new, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => break,
                Err(now) => cur = now,
            }
        }
        if let Some(p) = code::plies(new) {
            self.longest.fetch_max(p, Ordering::Relaxed);
        }
    }

    /// The value of an entry all of whose successors inside the table are
    /// decided: the best of its moves for its mover.
    fn judge(&self, i: u64) -> Verdict {
        let layout = self.layout();
        let pos = layout.position::<V>(&layout.placement(i)).expect("a counted entry is a position");
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let children = moves.iter().map(|&m| {
            let child = pos.play(m);
            if self.inside(&child) {
                let ci = layout.index(&layout.placement_of(&child)).expect("a legal position has an entry");
                code::decode(self.values[ci as usize].load(Ordering::Relaxed)).unwrap_or(Verdict::Draw)
            } else {
                self.outside(&child)
            }
        });
        Verdict::choose(pos.side_to_move(), children).expect("a counted entry has moves")
    }
}

/// The placements from which `mover`'s move inside the table leads to
/// `child`, by geometry alone (the caller confirms each with the rules),
/// each with that move.
pub(crate) fn un_moves(layout: &Layout, child: &Placement, mover: Side, mut emit: impl FnMut(Placement, Move)) {
    let sq = |s: u8| Square::from_index_unchecked(s as u32);
    let ncats = layout.cats as usize;
    let mut occupied = Bitboard::from(sq(child.wk)) | sq(child.bk).into() | sq(child.man).into();
    for &c in &child.cats[..ncats] {
        occupied.set(sq(c));
    }
    let empty = !occupied;
    let parent = Placement { seat: mover, ..*child };
    match mover.color() {
        None => {
            for k in 0..ncats {
                let to = sq(child.cats[k]);
                for from in attacks::king(to) & empty {
                    let mut p = parent;
                    p.cats[k] = from.index() as u8;
                    if ncats == 2 && p.cats[0] > p.cats[1] {
                        p.cats.swap(0, 1);
                    }
                    emit(p, Move::cat(from, to));
                }
            }
            emit(parent, Move::PASS);
        }
        Some(color) => {
            let king = if color == Color::White { child.wk } else { child.bk };
            for from in attacks::king(sq(king)) & empty {
                let mut p = parent;
                *(if color == Color::White { &mut p.wk } else { &mut p.bk }) = from.index() as u8;
                emit(p, Move::normal(from, sq(king)));
            }
            let man = layout.material.extra.expect("a table has a man besides the kings");
            if man.color != color {
                return;
            }
            let to = sq(child.man);
            let origins = match man.role {
                Role::Knight => attacks::knight(to) & empty,
                Role::Bishop => attacks::bishop(to, occupied) & empty,
                Role::Rook => attacks::rook(to, occupied) & empty,
                Role::Queen => attacks::queen(to, occupied) & empty,
                Role::Pawn => {
                    let back = |s: Square| s.offset(0, if color == Color::White { -1 } else { 1 });
                    let start_rank = if color == Color::White { 1 } else { 6 };
                    let mut origins = Bitboard::EMPTY;
                    if let Some(one) = back(to).filter(|s| empty.contains(*s)) {
                        origins.set(one);
                        if let Some(two) = back(one).filter(|s| s.rank() == start_rank && empty.contains(*s)) {
                            origins.set(two);
                        }
                    }
                    origins - Bitboard::BACK_RANKS
                }
                Role::King => Bitboard::EMPTY,
            };
            for from in origins {
                emit(Placement { man: from.index() as u8, ..parent }, Move::normal(from, to));
            }
        }
    }
}
