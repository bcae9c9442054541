//! Perft: counting the leaves of the legal move tree, the standard proof of a
//! move generator. One generic implementation serves every game.

use crate::game::Game;
use crate::moves::MoveList;
use std::fmt;

/// Leaves `depth` plies below `pos` (rules §7: cats' plies and passes count;
/// draw rules are not applied). The last ply is counted, not played.
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut list = MoveList::default();
            pos.legal_moves(&mut list);
            list.iter().map(|&m| perft(&pos.play(m), depth - 1)).sum()
        }
    }
}

/// Perft split by root move, in move-generation order.
pub fn divide<G: Game>(pos: &G, depth: u32) -> Vec<(G::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    list.iter().map(|&m| (m, perft(&pos.play(m), depth - 1))).collect()
}

/// One line of an EPD perft suite: a position and its expected counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    pub fen: String,
    /// `(depth, nodes)`, as listed.
    pub counts: Vec<(u32, u64)>,
    /// 1-based line number in the file, for error messages.
    pub line: usize,
    /// The `# why:` comment above the entry, if any.
    pub why: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteError {
    pub line: usize,
    pub problem: String,
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}

impl std::error::Error for SuiteError {}

/// Parses `<fen> ;D1 n ;D2 n ...` lines; `#` starts a comment line.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut entries = Vec::new();
    let mut why = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(comment) = trimmed.strip_prefix('#') {
            if let Some(w) = comment.trim().strip_prefix("why:") {
                why = Some(w.trim().to_string());
            }
            continue;
        }
        let mut parts = trimmed.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        let mut counts = Vec::new();
        for part in parts {
            let bad = || SuiteError { line, problem: format!("expected 'D<depth> <nodes>', found {:?}", part.trim()) };
            let mut words = part.split_whitespace();
            let (Some(d), Some(n), None) = (words.next(), words.next(), words.next()) else {
                return Err(bad());
            };
            let depth = d.strip_prefix('D').and_then(|d| d.parse().ok()).ok_or_else(bad)?;
            let nodes = n.parse().map_err(|_| bad())?;
            counts.push((depth, nodes));
        }
        if counts.is_empty() {
            return Err(SuiteError { line, problem: "no ';D<depth> <nodes>' counts".into() });
        }
        entries.push(SuiteEntry { fen, counts, line, why: why.take() });
    }
    Ok(entries)
}
