//! FEN errors shared by every game: each names the field and the problem,
//! so a user (or a GUI) sees what to fix. Parsing itself lives with each
//! game's position type.

use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FenField {
    /// The string as a whole (field count, stray characters).
    Fen,
    Placement,
    SideToMove,
    Castling,
    EnPassant,
    HalfmoveClock,
    FullmoveNumber,
    /// A seventh field: pieces waiting underneath (Cat's Chess 10×10).
    Waiting,
    /// A position every field of which parses but that no game can reach.
    Position,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Fen => "FEN",
            FenField::Placement => "piece placement",
            FenField::SideToMove => "side to move",
            FenField::Castling => "castling rights",
            FenField::EnPassant => "en passant square",
            FenField::HalfmoveClock => "halfmove clock",
            FenField::FullmoveNumber => "fullmove number",
            FenField::Waiting => "waiting pieces",
            FenField::Position => "position",
        })
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FenError {
    pub field: FenField,
    pub problem: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FEN ({}): {}", self.field, self.problem)
    }
}

impl std::error::Error for FenError {}

pub fn err<T>(field: FenField, problem: impl Into<String>) -> Result<T, FenError> {
    Err(FenError { field, problem: problem.into() })
}

/// The six FEN fields in order (a short FEN names the first one missing).
pub const FIELD_ORDER: [FenField; 6] = [
    FenField::Placement,
    FenField::SideToMove,
    FenField::Castling,
    FenField::EnPassant,
    FenField::HalfmoveClock,
    FenField::FullmoveNumber,
];

/// Parses a clock field: digits only, within `min..=max`.
pub fn parse_number(s: &str, field: FenField, min: u16, max: u16) -> Result<u16, FenError> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return err(field, format!("{s:?} is not a non-negative whole number"));
    }
    match s.parse::<u32>() {
        Ok(n) if n >= min as u32 && n <= max as u32 => Ok(n as u16),
        _ => err(field, format!("{s:?} is outside {min}..={max}")),
    }
}

/// Reads the placement field of a board of `files` × `ranks`, the top rank
/// first, calling `put(file, rank, letter)` for each piece letter (files
/// and ranks from 0 at White's lower left). Digits count empty `cell`s
/// ("square", "point"); on a board of ten files or more `10` is one count.
pub fn parse_placement(
    placement: &str,
    files: u8,
    ranks: u8,
    cell: &str,
    mut put: impl FnMut(u8, u8, char) -> Result<(), FenError>,
) -> Result<(), FenError> {
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != ranks as usize {
        return err(FenField::Placement, format!("{} ranks, expected {ranks}", rows.len()));
    }
    for (i, text) in rows.iter().enumerate() {
        let rank = ranks - 1 - i as u8;
        let (mut file, mut last_was_digit) = (0u8, false);
        let too_long =
            || err(FenField::Placement, format!("rank {} ({text:?}) is longer than {files} {cell}s", rank + 1));
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if file >= files {
                return too_long();
            }
            if let Some(d) = c.to_digit(10) {
                let run = if d == 1 && files >= 10 && chars.next_if_eq(&'0').is_some() { 10 } else { d };
                if run == 0 || last_was_digit {
                    return err(
                        FenField::Placement,
                        format!("rank {} ({text:?}): bad empty-{cell} count {c:?}", rank + 1),
                    );
                }
                if file as u32 + run > files as u32 {
                    return too_long();
                }
                file += run as u8;
                last_was_digit = true;
                continue;
            }
            last_was_digit = false;
            put(file, rank, c)?;
            file += 1;
        }
        if file != files {
            return err(
                FenField::Placement,
                format!("rank {} ({text:?}) has {file} {cell}s, expected {files}", rank + 1),
            );
        }
    }
    Ok(())
}

/// Splits a FEN into its six fields (the two clocks may be left out), or
/// says which is missing or extra.
pub fn split_fields(fen: &str) -> Result<[&str; 6], FenError> {
    let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    match fields.len() {
        // Without its clocks (EPD's four fields, or no fullmove number),
        // as Stockfish takes it: a halfmove clock of 0, move 1.
        4 => Ok([fields[0], fields[1], fields[2], fields[3], "0", "1"]),
        5 => Ok([fields[0], fields[1], fields[2], fields[3], fields[4], "1"]),
        n if n < 6 => err(FenField::Fen, format!("{n} of 6 fields given; missing the {}", FIELD_ORDER[n])),
        6 => Ok([fields[0], fields[1], fields[2], fields[3], fields[4], fields[5]]),
        n => err(FenField::Fen, format!("{n} fields given, expected 6 (extra: {:?})", fields[6])),
    }
}
