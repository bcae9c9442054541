//! Perft: counting the leaves of the legal move tree, the standard proof of a
//! move generator. One generic implementation serves every game; the
//! `catchess perft` command ([`command`]) runs it from one position or
//! over an EPD suite of expected counts.

use crate::files::read_bounded;
use crate::game::MoveList;
use crate::game::{Game, Notation};
use crate::games::{with_game, VariantKind};
use std::fmt;
use std::time::Instant;

/// Leaves `depth` turns below `pos` (RULES.md §10: cats' plies and passes
/// count; draw rules are not applied). In a game of one move a turn the
/// last ply is counted, not played; in a game whose turns take several
/// steps every distinct step sequence of a turn is one node. Perft counts
/// choices, not rolls: a move into a chance position (`Game::is_chance`,
/// a die to be rolled) is not followed.
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    count(pos, depth, &|| false).expect("never stopped")
}

/// `perft`, or `None` once `stopped` says so. It is asked only at nodes
/// three or more turns above the leaves (two in a game of several steps
/// a turn, whose turns are many): a deep count stops within milliseconds,
/// and the leaves pay nothing.
fn count<G: Game>(pos: &G, depth: u32, stopped: &dyn Fn() -> bool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if depth == 1 && G::ONE_MOVE_TURNS {
        return Some(pos.count_legal_moves());
    }
    let asks_from = if G::ONE_MOVE_TURNS { 3 } else { 2 };
    if depth >= asks_from && stopped() {
        return None;
    }
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    list.iter()
        .map(|&m| {
            let child = pos.play(m);
            if child.is_chance() {
                return Some(0);
            }
            count(&child, turns_left(&child, depth), stopped)
        })
        .sum()
}

/// The turns still to count below `child`, a position `depth` turns above
/// the leaves: one fewer once a new turn begins there.
#[inline(always)]
fn turns_left<G: Game>(child: &G, depth: u32) -> u32 {
    if child.at_turn_start() {
        depth - 1
    } else {
        depth
    }
}

/// Perft split by root turn, in move-generation order: each turn's steps
/// (one move in most games) and its count.
pub fn divide<G: Game>(pos: &G, depth: u32) -> Vec<(Vec<G::Move>, u64)> {
    let mut split = Vec::new();
    divide_with(pos, depth, &|| false, |steps, n| split.push((steps.to_vec(), n)));
    split
}

/// Perft split by root turn: `on_root(steps, count)` as each root turn's
/// count finishes (progress for a deep count), then the total; `None` if
/// `stopped` cut it short. At depth 0 there are no root turns and the
/// total is 1, as for [`perft`].
pub fn divide_with<G: Game>(
    pos: &G,
    depth: u32,
    stopped: &dyn Fn() -> bool,
    mut on_root: impl FnMut(&[G::Move], u64),
) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    split(pos, depth, stopped, &mut Vec::new(), &mut on_root)
}

/// The steps of the root turn so far are `steps`; `pos` is where they lead.
fn split<G: Game>(
    pos: &G,
    depth: u32,
    stopped: &dyn Fn() -> bool,
    steps: &mut Vec<G::Move>,
    on_root: &mut impl FnMut(&[G::Move], u64),
) -> Option<u64> {
    // Asked at every root step too: below a root turn `count` asks only
    // three turns above the leaves, never in a count of depth 3 or less,
    // whose root turns alone can take long in a game of many steps.
    if stopped() {
        return None;
    }
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    let mut total = 0;
    for &m in &list {
        let child = pos.play(m);
        if child.is_chance() {
            continue;
        }
        steps.push(m);
        let n = if child.at_turn_start() {
            let n = count(&child, depth - 1, stopped)?;
            on_root(steps, n);
            n
        } else {
            split(&child, depth, stopped, steps, on_root)?
        };
        steps.pop();
        total += n;
    }
    Some(total)
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

/// `catchess perft`: with `suite`, every entry of an EPD suite (to
/// `depth` at most); else the count `depth` turns below `fen` (the start
/// position by default), root move by root move with `divide`.
pub fn command(
    variant: VariantKind,
    fen: Option<&str>,
    depth: Option<u32>,
    divide: bool,
    suite: Option<&str>,
) -> Result<(), String> {
    match (suite, depth) {
        (Some(path), _) => with_game!(variant, G => run_suite::<G>(path, depth)),
        (None, Some(depth)) => with_game!(variant, G => run_perft::<G>(fen, depth, divide)),
        (None, None) => Err("perft needs --depth N (or --suite FILE)".to_string()),
    }
}

fn parse_position<G: Notation>(fen: Option<&str>) -> Result<G, String> {
    match fen {
        Some(fen) => G::from_fen(fen).map_err(|e| e.to_string()),
        None => Ok(G::startpos()),
    }
}

fn report_speed(nodes: u64, started: Instant) {
    let secs = started.elapsed().as_secs_f64();
    eprintln!("Time: {:.3} s, {:.0} nodes/s", secs, nodes as f64 / secs.max(1e-9));
}

/// Perft from one position. Each root move's count is printed as it
/// finishes: with --divide as the answer on stdout, otherwise as progress
/// on stderr (a deep count shows it is alive; Ctrl-C stops it).
fn run_perft<G: Notation>(fen: Option<&str>, depth: u32, show_divide: bool) -> Result<(), String> {
    let pos: G = parse_position(fen)?;
    let started = Instant::now();
    let total = divide_with(&pos, depth, &|| false, |steps, n| {
        let turn = pos.turn_text(steps);
        if show_divide {
            println!("{turn}: {n}");
        } else {
            eprintln!("{turn}: {n}");
        }
    })
    .expect("never stopped");
    println!("Nodes searched: {total}");
    report_speed(total, started);
    Ok(())
}

/// The largest perft suite read: far beyond any real one (the suites here
/// are a few kilobytes), small enough that `--suite /dev/zero` fails fast.
const MAX_SUITE_BYTES: u64 = 16 << 20;

fn run_suite<G: Notation>(path: &str, max_depth: Option<u32>) -> Result<(), String> {
    let text = read_bounded(path, MAX_SUITE_BYTES).map_err(|e| format!("cannot read {path}: {e}"))?;
    let entries = parse_suite(&text).map_err(|e| format!("{path}: {e}"))?;
    let started = Instant::now();
    let (mut checked, mut failed, mut nodes) = (0, 0, 0u64);
    for entry in &entries {
        let pos: G = G::from_fen(&entry.fen).map_err(|e| format!("{path}:{}: {e}", entry.line))?;
        for &(depth, expected) in &entry.counts {
            if max_depth.is_some_and(|max| depth > max) {
                continue;
            }
            let got = perft(&pos, depth);
            nodes += got;
            checked += 1;
            if got == expected {
                println!("ok   line {} D{depth} {got}", entry.line);
            } else {
                failed += 1;
                println!("FAIL line {} D{depth}: expected {expected}, got {got}  ({})", entry.line, entry.fen);
                if depth > 0 {
                    println!("     divide at D{depth}:");
                    for (steps, n) in divide(&pos, depth) {
                        println!("     {}: {n}", pos.turn_text(&steps));
                    }
                }
            }
        }
    }
    println!("{} passed, {} failed", checked - failed, failed);
    report_speed(nodes, started);
    if failed > 0 {
        Err(format!("{failed} perft count(s) differ"))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Chess;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn divide_reports_each_root_move_and_agrees_with_perft_at_every_depth() {
        let pos = Chess::startpos();
        for depth in 0..=3 {
            let mut seen = 0;
            let total = divide_with(&pos, depth, &|| false, |_, _| seen += 1);
            assert_eq!(total, Some(perft(&pos, depth)), "depth {depth}");
            assert_eq!(seen, if depth == 0 { 0 } else { 20 });
        }
    }

    #[test]
    fn a_stopped_count_ends_without_a_total() {
        let asked = AtomicUsize::new(0);
        // Stop after a few looks: the count gives up instead of finishing.
        let stopped = || asked.fetch_add(1, Ordering::Relaxed) > 3;
        let mut roots = 0;
        assert_eq!(divide_with(&Chess::startpos(), 5, &stopped, |_, _| roots += 1), None);
        assert!(roots < 20);
    }
}
