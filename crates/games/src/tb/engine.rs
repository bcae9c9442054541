//! The tables as the engine uses them: one directory, set by the
//! protocol's `TablebasePath`, whose tables the search probes (through
//! the chess family's search hooks) and `d` shows.

use super::probe::{Probe, Tablebase};
use super::value::Verdict;
use crate::chess::{CatChessRules, ChessRules, Move, Position, Variant};
use catchess_core::Color;
use catchess_game::GameOption;
use std::any::Any;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

type AnyTables = Arc<dyn Any + Send + Sync>;

/// The tables in use for Cat Chess and for chess (`None`: no path set).
static INSTALLED: RwLock<Option<(AnyTables, AnyTables)>> = RwLock::new(None);
/// Whether a path is set: the search asks this first, at no cost.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// The value that sets no path, as Stockfish's `SyzygyPath`.
pub const EMPTY: &str = "<empty>";

/// The protocol's `TablebasePath`, an option of Cat Chess and chess.
pub const TABLEBASE_PATH: GameOption = GameOption {
    name: "TablebasePath",
    default: EMPTY,
    set: |value, before_change| {
        before_change();
        set_path(value).map(|_| true)
    },
};

/// Sets the directory (or none, with `<empty>` or an empty value) and
/// reads every table it holds now, each variant's under its own name (or
/// its old name: see `names`), so that a damaged file is reported here,
/// not in the middle of a search.
/// Returns the tables found (`catchess KQvK`, ...).
pub fn set_path(value: &str) -> Result<Vec<String>, String> {
    let value = value.trim();
    if value.is_empty() || value == EMPTY {
        *INSTALLED.write().unwrap_or_else(|e| e.into_inner()) = None;
        ACTIVE.store(false, Ordering::Relaxed);
        return Ok(Vec::new());
    }
    let dir = Path::new(value);
    let cat = Tablebase::<CatChessRules>::open(dir)?;
    let chess = Tablebase::<ChessRules>::open(dir)?;
    let mut found = read_all(&cat)?;
    found.extend(read_all(&chess)?);
    *INSTALLED.write().unwrap_or_else(|e| e.into_inner()) = Some((Arc::new(cat), Arc::new(chess)));
    ACTIVE.store(true, Ordering::Relaxed);
    Ok(found)
}

/// Reads every table of `V` in the folder now; their names (`catchess KQvK`).
fn read_all<V: Variant>(tables: &Tablebase<V>) -> Result<Vec<String>, String> {
    tables.present().into_iter().map(|m| tables.table(m).map(|_| format!("{} {m}", V::NAME))).collect()
}

/// The tables of variant `V`, if a path is set.
pub fn tables<V: Variant>() -> Option<Arc<Tablebase<V>>> {
    if !ACTIVE.load(Ordering::Relaxed) {
        return None;
    }
    let guard = INSTALLED.read().unwrap_or_else(|e| e.into_inner());
    let (cat, chess) = guard.as_ref()?;
    let any = if V::CATS { cat.clone() } else { chess.clone() };
    any.downcast::<Tablebase<V>>().ok()
}

/// Whether a position is small enough to look up (the kings and at most
/// one more man): checked before anything else, so that the search pays
/// nothing elsewhere.
#[inline(always)]
fn small<V: Variant>(pos: &Position<V>) -> bool {
    ACTIVE.load(Ordering::Relaxed) && (pos.by_color(Color::White) | pos.by_color(Color::Black)).count() <= 3
}

/// The tables' answer for a position (the half-move clock applied), if
/// they cover it; a table that cannot be read answers nothing.
pub fn probe<V: Variant>(pos: &Position<V>) -> Option<Probe> {
    if !small(pos) {
        return None;
    }
    tables::<V>()?.probe(pos).ok()
}

/// The tables' best move and its result, if they cover the position.
pub fn best_move<V: Variant>(pos: &Position<V>) -> Option<(Move, Verdict)> {
    if !small(pos) {
        return None;
    }
    tables::<V>()?.best_move(pos).ok().flatten()
}

/// What `d` prints: the result in words, or why there is none.
pub fn describe<V: Variant>(pos: &Position<V>) -> Option<String> {
    let tables = tables::<V>()?;
    let words = match tables.probe(pos) {
        Ok(p) => {
            let mut s = format!("{} ({})", p.verdict.sentence(V::CATS), p.line(V::CATS));
            if p.ended {
                s = format!("the game has ended: {s}");
            }
            s
        }
        Err(e) => format!("not covered: {e}"),
    };
    Some(format!("Tablebase: {words}; the fifty-move rule (beyond the clock shown) and repetition are ignored"))
}
