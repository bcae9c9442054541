//! The `catchess perft` command: a count from one position, or over an EPD
//! suite of expected counts (`perft --suite FILE`), with the counting
//! itself in [`catchess_game::perft`].

use catchess_core::files::read_bounded;
use catchess_game::perft::{checked_depth, divide, divide_with};
use catchess_game::Notation;
use catchess_games::{with_game, VariantKind};
use std::fmt;
use std::time::Instant;

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
            let depth = checked_depth(depth).map_err(|e| SuiteError { line, problem: e.to_string() })?;
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
/// `depth` at most), in the game its FENs are of ([`suite_variant`]);
/// else the count `depth` turns below `fen` (the start position by
/// default) in `variant` (default: Cat Chess), root move by root move
/// with `divide`.
pub fn command(
    variant: Option<VariantKind>,
    fen: Option<&str>,
    depth: Option<u32>,
    divide: bool,
    suite: Option<&str>,
) -> Result<(), String> {
    match (suite, depth) {
        (Some(path), _) => {
            let text = read_bounded(path, MAX_SUITE_BYTES).map_err(|e| format!("cannot read {path}: {e}"))?;
            let entries = parse_suite(&text).map_err(|e| format!("{path}: {e}"))?;
            let declared = declared_variant(&text).map_err(|e| format!("{path}: {e}"))?;
            let chosen = match (variant, declared) {
                (Some(given), Some(said)) if given != said => {
                    return Err(format!("{path}: a suite of {said} (its `# variant:` line), not of {given}"))
                }
                (given, said) => given.or(said),
            };
            let variant = suite_variant(&entries, chosen).map_err(|e| format!("{path}: {e}"))?;
            eprintln!("{path}: {} entries of {variant}", entries.len());
            with_game!(variant, G => run_suite::<G>(path, &entries, depth))
        }
        (None, Some(depth)) => {
            with_game!(variant.unwrap_or(catchess_engine::defaults::OWN_GAME), G => run_perft::<G>(fen, depth, divide))
        }
        (None, None) => Err("perft needs --depth N (or --suite FILE)".to_string()),
    }
}

/// The game a suite names in a `# variant: NAME` comment line, if any.
pub fn declared_variant(text: &str) -> Result<Option<VariantKind>, String> {
    for (i, line) in text.lines().enumerate() {
        let Some(comment) = line.trim().strip_prefix('#') else { continue };
        if let Some(name) = comment.trim().strip_prefix("variant:") {
            return name.trim().parse().map(Some).map_err(|e| format!("line {}: {e}", i + 1));
        }
    }
    Ok(None)
}

/// The game of a suite's entries: the one game in which every FEN reads,
/// or `chosen` (`--variant`) if it is one of several. Refused: a suite
/// whose FENs read in no game, or not in `chosen` (naming the first FEN
/// `chosen` cannot read), or in several games and none chosen.
pub fn suite_variant(entries: &[SuiteEntry], chosen: Option<VariantKind>) -> Result<VariantKind, String> {
    let first_unread = |v: VariantKind| with_game!(v, G => entries.iter().find_map(|e| G::from_fen(&e.fen).err().map(|err| (e.line, err.to_string()))));
    let readers: Vec<VariantKind> = VariantKind::ALL.iter().copied().filter(|&v| first_unread(v).is_none()).collect();
    let names = |vs: &[VariantKind]| vs.iter().map(|v| v.name()).collect::<Vec<_>>().join(", ");
    match (chosen, readers.as_slice()) {
        (Some(v), _) if readers.contains(&v) => Ok(v),
        (_, []) => {
            let v = chosen.unwrap_or(catchess_engine::defaults::OWN_GAME);
            let (line, err) = first_unread(v).unwrap_or_default();
            Err(format!("not a suite of any game (as {v}, line {line}: {err})"))
        }
        (Some(v), others) => {
            let (line, err) = first_unread(v).unwrap_or_default();
            Err(format!(
                "a suite of {}, not of {v} (line {line}: {err}); run it with --variant {} or without --variant",
                names(others),
                others[0]
            ))
        }
        (None, [only]) => Ok(*only),
        (None, several) => {
            Err(format!("every FEN reads as a position of {}; say which with --variant", names(several)))
        }
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
    let depth = checked_depth(depth).map_err(|e| e.to_string())?;
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
    .map_err(|e| e.to_string())?
    .expect("never stopped");
    println!("Nodes searched: {total}");
    report_speed(total, started);
    Ok(())
}

/// A suite's progress on stderr (nodes counted of those expected, speed,
/// time left), when stderr is a terminal; `None` otherwise (a log gets
/// the per-count lines on stdout).
fn suite_bar(expected_nodes: u64) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal().then(|| {
        let bar =
            indicatif::ProgressBar::with_draw_target(Some(expected_nodes), indicatif::ProgressDrawTarget::stderr());
        let style = indicatif::ProgressStyle::with_template(
            "{bar:30} {human_pos}/{human_len} nodes, {per_sec}, ETA {eta} {msg}",
        )
        .expect("a valid template");
        bar.set_style(style);
        bar
    })
}

/// The largest perft suite read: far beyond any real one (the suites here
/// are a few kilobytes), small enough that `--suite /dev/zero` fails fast.
const MAX_SUITE_BYTES: u64 = 16 << 20;

fn run_suite<G: Notation>(path: &str, entries: &[SuiteEntry], max_depth: Option<u32>) -> Result<(), String> {
    let started = Instant::now();
    let wanted = |depth: u32| max_depth.is_none_or(|max| depth <= max);
    let expected_nodes: u64 = entries.iter().flat_map(|e| &e.counts).filter(|(d, _)| wanted(*d)).map(|&(_, n)| n).sum();
    let bar = suite_bar(expected_nodes);
    // Lines to stdout, with the bar (if any) out of their way.
    let say = |line: String| match &bar {
        Some(bar) => bar.suspend(|| println!("{line}")),
        None => println!("{line}"),
    };
    let (mut checked, mut failed, mut nodes) = (0, 0, 0u64);
    for entry in entries {
        let pos: G = G::from_fen(&entry.fen).map_err(|e| format!("{path}:{}: {e}", entry.line))?;
        for &(depth, expected) in &entry.counts {
            if !wanted(depth) {
                continue;
            }
            if let Some(bar) = &bar {
                bar.set_message(format!("line {} D{depth}", entry.line));
            }
            // Counted root move by root move, so that the bar moves
            // within a long count.
            let before = bar.as_ref().map_or(0, |b| b.position());
            let got = divide_with(&pos, depth, &|| false, |_, n| {
                if let Some(bar) = &bar {
                    bar.inc(n);
                }
            })
            .map_err(|e| format!("{path}:{}: {e}", entry.line))?
            .expect("never stopped");
            if let Some(bar) = &bar {
                bar.set_position(before + expected.max(got));
            }
            nodes += got;
            checked += 1;
            if got == expected {
                say(format!("ok   line {} D{depth} {got}", entry.line));
            } else {
                failed += 1;
                say(format!("FAIL line {} D{depth}: expected {expected}, got {got}  ({})", entry.line, entry.fen));
                if depth > 0 {
                    say(format!("     divide at D{depth}:"));
                    for (steps, n) in divide(&pos, depth) {
                        say(format!("     {}: {n}", pos.turn_text(&steps)));
                    }
                }
            }
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
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

    #[test]
    fn a_suite_names_its_game_in_a_variant_line() {
        assert_eq!(declared_variant("# why: x\n# variant: xiangqi\nfen ;D1 1\n"), Ok(Some(VariantKind::Xiangqi)));
        assert_eq!(declared_variant("fen ;D1 1\n"), Ok(None));
        let err = declared_variant("# variant: shogi\n").unwrap_err();
        assert!(err.starts_with("line 1: unknown variant \"shogi\""), "{err}");
    }

    #[test]
    fn a_suite_deeper_than_the_bound_is_refused_naming_its_line() {
        let err = parse_suite("8/8/8/8/8/8/8/K6k w - - 0 1 ;D33 1\n").unwrap_err();
        assert!(err.to_string().contains("too deep"), "{err}");
    }
}
