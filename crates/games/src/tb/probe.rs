//! Reading the tables: a position's result, every move's, the best move.

use super::file::{self, TableData};
use super::index::next_seat;
use super::index::Layout;
use super::material::{Material, WITH_FILES};
use super::names::{self, Located};
use super::value::{code, Verdict};
use crate::chess::{Move, MoveKind, Position, Side, Variant};
use catchess_game::{Game, MoveList};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// The answer for one position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Probe {
    /// The result, the fifty-move rule applied (see `table`).
    pub verdict: Verdict,
    /// The game is already over in this position (mate, stalemate,
    /// insufficient material, the fifty-move rule).
    pub ended: bool,
    /// The table's own result when the half-move clock turns it into the
    /// cats' win (a draw): the win cannot arrive before the fifty-move rule
    /// ends the game.
    pub too_late: Option<Verdict>,
}

impl Probe {
    /// The protocol's line: `white 17`, `cats -`, `black 0` for a game that
    /// has ended (`cats 0` for one ended in the cats' favour), with a note
    /// when the fifty-move rule overrides the table.
    pub fn line(&self, cats: bool) -> String {
        let mut s = match (self.verdict, self.ended) {
            (Verdict::Draw, true) => format!("{} 0", if cats { "cats" } else { "draw" }),
            (v, _) => v.words(cats),
        };
        if let Some(v) = self.too_late {
            s.push_str(&format!(" (fifty-move rule: the table's {} cannot arrive in time)", v.words(cats)));
        }
        s
    }
}

/// A table read once, on first use (or why it could not be).
type Slot = OnceLock<Result<Arc<TableData>, String>>;

/// The tables of one variant in a directory, each read (and checked) the
/// first time it is needed and then kept in memory.
pub struct Tablebase<V: Variant> {
    dir: PathBuf,
    tables: Vec<(Material, Slot)>,
    _variant: PhantomData<V>,
}

/// The layout of a material's table in variant `V`.
pub fn layout<V: Variant>(material: Material) -> Layout {
    if V::CATS {
        Layout::new(material, 2, 3)
    } else {
        Layout::new(material, 0, 2)
    }
}

impl<V: Variant> Tablebase<V> {
    /// The tables in `dir` (which must exist; the files are read later).
    pub fn open(dir: &Path) -> Result<Self, String> {
        if !dir.is_dir() {
            return Err(format!("tablebase directory {} does not exist", dir.display()));
        }
        let tables = WITH_FILES.iter().map(|m| (m.parse().expect("a valid material"), OnceLock::new())).collect();
        Ok(Tablebase { dir: dir.to_path_buf(), tables, _variant: PhantomData })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where this variant's table of `material` is (see `names`).
    fn locate(&self, material: Material) -> Located {
        names::locate(&self.dir, V::NAME, material)
    }

    /// The materials whose files this variant reads are in the directory.
    pub fn present(&self) -> Vec<Material> {
        self.tables.iter().map(|(m, _)| *m).filter(|m| self.locate(*m).path().is_some()).collect()
    }

    /// Puts a table in memory without a file (the generator's own output).
    pub fn insert(&self, material: Material, data: TableData) {
        if let Some((_, slot)) = self.tables.iter().find(|(m, _)| *m == material) {
            let _ = slot.set(Ok(Arc::new(data)));
        }
    }

    /// The table of `material`, read now if it was not yet.
    pub fn table(&self, material: Material) -> Result<Arc<TableData>, String> {
        let (_, slot) =
            self.tables.iter().find(|(m, _)| *m == material).ok_or_else(|| format!("no table covers {material}"))?;
        slot.get_or_init(|| {
            let found = self.locate(material);
            let Some(path) = found.path() else {
                let mut why = format!(
                    "no table file {} (make it with `catchess tb generate --variant {} --material {material}`)",
                    self.dir.join(names::table(V::NAME, material)).display(),
                    V::NAME
                );
                if let Located::Missing { other: Some((old, owner)) } = &found {
                    why.push_str(&format!("; {} is the {owner} table", old.display()));
                }
                return Err(why);
            };
            file::read(path, V::NAME, &layout::<V>(material)).map(Arc::new)
        })
        .clone()
    }

    /// Whether the tables can answer for this position's material at all
    /// (without reading any file): the engine asks before probing.
    pub fn covers(&self, pos: &Position<V>) -> bool {
        Material::of(pos).is_ok_and(|m| !m.can_mate() || self.tables.iter().any(|(t, _)| *t == m))
    }

    /// The table's result for a position: the game's end if it has ended,
    /// else the table's entry (the fifty-move rule ignored).
    pub fn verdict(&self, pos: &Position<V>) -> Result<(Verdict, bool), String> {
        // Too many men first: the reason that matters in most positions.
        let material = Material::of(pos)?;
        if pos.castling_rights() != 0 {
            return Err("castling rights: the tables assume none".into());
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.iter().any(|m| m.kind() == MoveKind::EnPassant) {
            return Err("an en passant capture is possible: the tables assume none".into());
        }
        let cats = pos.cats().count();
        let want = layout_cats::<V>();
        if cats != want as u32 {
            return Err(format!("{cats} cats on the board: the tables hold {want}"));
        }
        // The game's own judgement: mate, stalemate, fifty moves, material.
        if let Some(outcome) = Game::position_outcome(pos, moves.is_empty()) {
            let v = match outcome.winner.map(|s| s.index()) {
                Some(0) => Verdict::Win { winner: catchess_core::Color::White, plies: 0 },
                Some(1) => Verdict::Win { winner: catchess_core::Color::Black, plies: 0 },
                _ => Verdict::Draw,
            };
            return Ok((v, true));
        }
        if !material.can_mate() {
            return Ok((Verdict::Draw, false));
        }
        let table = self.table(material)?;
        let layout = layout::<V>(material);
        let index = layout.index(&layout.placement_of(pos)).ok_or("not a position the table holds")?;
        let v = code::decode(table.code(index)).ok_or("the table holds no such position")?;
        Ok((v, false))
    }

    /// The result of a position with the fifty-move rule applied: a win of
    /// a table without pawns (where no move of the winning line captures or
    /// moves a pawn) whose white and black moves would take the half-move
    /// clock past 100 cannot happen, and the cats win instead.
    pub fn probe(&self, pos: &Position<V>) -> Result<Probe, String> {
        let (verdict, ended) = self.verdict(pos)?;
        let mut probe = Probe { verdict, ended, too_late: None };
        if let Verdict::Win { plies, .. } = verdict {
            let pawnless = Material::of(pos).is_ok_and(|m| !m.has_pawn());
            if pawnless && !ended {
                let layout_seats = if V::CATS { 3 } else { 2 };
                let moves = army_moves(pos.side_to_move(), plies, layout_seats);
                if pos.halfmove_clock() as u32 + moves > 100 {
                    probe.verdict = Verdict::Draw;
                    probe.too_late = Some(verdict);
                }
            }
        }
        Ok(probe)
    }

    /// Every legal move with the result of the position it leads to.
    pub fn moves(&self, pos: &Position<V>) -> Result<Vec<(Move, Probe)>, String> {
        self.verdict(pos)?;
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        moves.iter().map(|&m| Ok((m, self.probe(&pos.play(m))?))).collect()
    }

    /// The table's best move: the fastest win, else the draw (the cats'
    /// hold), else the slowest loss; `None` if the game has ended.
    pub fn best_move(&self, pos: &Position<V>) -> Result<Option<(Move, Verdict)>, String> {
        let moves = self.moves(pos)?;
        let mover = pos.side_to_move();
        Ok(moves
            .into_iter()
            .rev()
            .max_by_key(|(_, p)| p.verdict.preference(mover))
            .map(|(m, p)| (m, p.verdict.before_move())))
    }
}

fn layout_cats<V: Variant>() -> u8 {
    if V::CATS {
        2
    } else {
        0
    }
}

/// White's and black's moves among the next `plies` plies from `seat`'s
/// turn (the cats' moves do not count for the fifty-move rule).
pub fn army_moves(mut seat: Side, plies: u16, seats: u8) -> u32 {
    let mut n = 0;
    for _ in 0..plies {
        if seat != Side::Cats {
            n += 1;
        }
        seat = next_seat(seat, seats);
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fifty_move_count_skips_the_cats_moves() {
        // Cat Chess: white, black, cats, white: three army moves in four plies;
        // cats, white, black, cats: two.
        assert_eq!(army_moves(Side::White, 4, 3), 3);
        assert_eq!(army_moves(Side::Cats, 4, 3), 2);
        assert_eq!(army_moves(Side::Cats, 1, 3), 0);
        // Chess: every ply.
        assert_eq!(army_moves(Side::Black, 19, 2), 19);
    }
}
