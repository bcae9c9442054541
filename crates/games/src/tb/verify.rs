//! The proof of a table: every entry checked against its moves by forward
//! search, with the engine's own move generator.
//!
//! An entry is *consistent* when it is what its mover chooses among its
//! successors' entries, one ply further (mates and stalemates judged by
//! the rules). If every entry is consistent, the table is exact: by
//! induction on the length of the win, a win of n plies is found (its
//! winning move, or all its moves, lead to wins of fewer plies, which are
//! found), and a recorded win is real (its successors' wins are shorter,
//! down to a mate the rules confirm). This check shares nothing with the
//! generator but the table's layout and the choice rule.

use super::index::Layout;
use super::value::{code, Verdict};
use crate::chess::{Position, Variant};
use catchess_game::MoveList;

/// Checks the entries `indices` of a table (`code_of` gives an entry;
/// `outside` judges positions after a capture or promotion). Returns the
/// number of positions checked (invalid entries are skipped, after
/// checking that they are not positions), or the first inconsistency.
pub fn check<V: Variant>(
    layout: &Layout,
    code_of: impl Fn(u64) -> u16,
    outside: impl Fn(&Position<V>) -> Option<Verdict>,
    indices: impl IntoIterator<Item = u64>,
) -> Result<u64, String> {
    let mut checked = 0;
    for i in indices {
        let p = layout.placement(i);
        let stored = code::decode(code_of(i));
        let pos = if layout.is_canonical(i, &p) { layout.position::<V>(&p) } else { None };
        let Some(pos) = pos else {
            if stored.is_some() {
                return Err(format!("entry {i} ({p:?}) is no position but holds {stored:?}"));
            }
            continue;
        };
        let stored = stored.ok_or_else(|| format!("{}: a position marked invalid", pos.to_fen()))?;
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let expected = if moves.is_empty() {
            match pos.side_to_move().color() {
                Some(us) if pos.in_check() => Verdict::Win { winner: us.other(), plies: 0 },
                _ => Verdict::Draw,
            }
        } else {
            let man = layout.material.extra.expect("a table has a man besides the kings");
            let mut children = Vec::with_capacity(moves.len());
            for &m in moves.iter() {
                let child = pos.play(m);
                let v = if child.pieces(man.color, man.role).any() {
                    let ci = layout.index(&layout.placement_of(&child)).ok_or("a child without an entry")?;
                    code::decode(code_of(ci)).ok_or_else(|| format!("{}: child {m} marked invalid", pos.to_fen()))?
                } else {
                    outside(&child).ok_or_else(|| format!("{}: child {m} cannot be judged", pos.to_fen()))?
                };
                children.push(v);
            }
            Verdict::choose(pos.side_to_move(), children).expect("moves exist")
        };
        if stored != expected {
            return Err(format!("{}: the table says {stored:?}, its moves say {expected:?}", pos.to_fen()));
        }
        checked += 1;
    }
    Ok(checked)
}
