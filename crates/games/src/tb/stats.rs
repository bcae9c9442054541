//! What a table says, counted: results per seat to move and the longest
//! win. Positions are counted as the table stores them, one per class of
//! positions equal under the board's symmetries.

use super::index::Layout;
use super::value::{code, Verdict};
use crate::chess::{CatChessRules, ChessRules, Position, Side, Variant};
use catchess_core::Color;
use serde_json::json;

/// Results of one seat to move.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Counts {
    pub white: u64,
    pub black: u64,
    pub draw: u64,
}

impl Counts {
    pub fn total(&self) -> u64 {
        self.white + self.black + self.draw
    }
}

/// A longest win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Longest {
    pub plies: u16,
    pub fen: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    /// By seat to move, in turn order.
    pub seats: Vec<(Side, Counts)>,
    /// The longest win of all, and per seat to move.
    pub longest: Option<Longest>,
    pub longest_by_seat: Vec<(Side, Option<Longest>)>,
}

/// Counts a table's entries (`codes` by index).
pub fn count<V: Variant>(layout: &Layout, code_of: impl Fn(u64) -> u16) -> Stats {
    let seats = &[Side::White, Side::Black, Side::Cats][..layout.seats as usize];
    let per_seat = layout.len() / layout.seats as u64;
    let mut out = Stats { seats: Vec::new(), longest: None, longest_by_seat: Vec::new() };
    let mut best_all: Option<(u16, u64)> = None;
    for (s, &seat) in seats.iter().enumerate() {
        let mut counts = Counts::default();
        let mut best: Option<(u16, u64)> = None;
        for i in s as u64 * per_seat..(s as u64 + 1) * per_seat {
            match code::decode(code_of(i)) {
                None => {}
                Some(Verdict::Draw) => counts.draw += 1,
                Some(Verdict::Win { winner, plies }) => {
                    match winner {
                        Color::White => counts.white += 1,
                        Color::Black => counts.black += 1,
                    }
                    if best.is_none_or(|(p, _)| plies > p) {
                        best = Some((plies, i));
                    }
                }
            }
        }
        out.seats.push((seat, counts));
        out.longest_by_seat.push((seat, best.map(|(plies, i)| longest::<V>(layout, plies, i))));
        if best.is_some_and(|(p, _)| best_all.is_none_or(|(q, _)| p > q)) {
            best_all = best;
        }
    }
    out.longest = best_all.map(|(plies, i)| longest::<V>(layout, plies, i));
    out
}

/// The variant whose statistics a file of [`Stats::to_json`] holds: Cat
/// Chess's have a seat for the cats. For files under the old name, which
/// did not say (see `names`); refused unless it is such a file.
pub fn variant_of_json_file(path: &std::path::Path) -> Result<&'static str, String> {
    let text = path
        .to_str()
        .ok_or("its name is not UTF-8".to_string())
        .and_then(|p| catchess_core::files::read_bounded(p, 1 << 20))?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("it is not JSON ({e})"))?;
    let positions = json.get("positions").and_then(|p| p.as_object()).ok_or("it has no \"positions\"")?;
    if positions.contains_key(Side::Cats.name()) {
        Ok(CatChessRules::NAME)
    } else if positions.contains_key(Side::White.name()) && positions.contains_key(Side::Black.name()) {
        Ok(ChessRules::NAME)
    } else {
        Err("its \"positions\" name no seats".into())
    }
}

fn longest<V: Variant>(layout: &Layout, plies: u16, i: u64) -> Longest {
    let pos: Position<V> = layout.position(&layout.placement(i)).expect("a valid entry is a position");
    Longest { plies, fen: pos.to_fen() }
}

impl Stats {
    /// `{"positions": {<seat>: {"white": n, "black": n, "cats": n}}, "longest": {"plies": n, "fen": "…"}}`
    /// (`"draw"` instead of `"cats"` in chess), and the longest win per seat to move.
    pub fn to_json(&self, cats: bool) -> serde_json::Value {
        let draw = if cats { "cats" } else { "draw" };
        let mut positions = serde_json::Map::new();
        for (seat, c) in &self.seats {
            positions.insert(seat.name().into(), json!({"white": c.white, "black": c.black, draw: c.draw}));
        }
        let longest = |l: &Option<Longest>| match l {
            Some(l) => json!({"plies": l.plies, "fen": l.fen}),
            None => serde_json::Value::Null,
        };
        let mut by_seat = serde_json::Map::new();
        for (seat, l) in &self.longest_by_seat {
            by_seat.insert(seat.name().into(), longest(l));
        }
        json!({
            "positions": positions,
            "longest": longest(&self.longest),
            "longest_by_seat": by_seat,
        })
    }

    /// The same as a table for people.
    pub fn table(&self, cats: bool) -> String {
        let draw = if cats { "cats" } else { "draw" };
        let mut s = format!("{:<8} {:>12} {:>12} {:>12} {:>12}\n", "to move", "white", "black", draw, "positions");
        for (seat, c) in &self.seats {
            s.push_str(&format!(
                "{:<8} {:>12} {:>12} {:>12} {:>12}\n",
                seat.name(),
                c.white,
                c.black,
                c.draw,
                c.total()
            ));
        }
        for (seat, l) in &self.longest_by_seat {
            if let Some(l) = l {
                s.push_str(&format!("longest win, {} to move: {} plies  {}\n", seat.name(), l.plies, l.fen));
            }
        }
        match &self.longest {
            Some(l) => s.push_str(&format!("longest: {} plies  {}\n", l.plies, l.fen)),
            None => s.push_str("longest: no win\n"),
        }
        s
    }
}
