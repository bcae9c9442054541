//! Parsing one protocol line into a [`Command`]. Pure: no engine state, so
//! every malformed line can be unit-tested. Errors say what and where.

use std::time::Duration;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    StartPos,
    Fen(String),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub infinite: bool,
    pub perft: Option<u32>,
    /// Clocks and increments by the seat's clock letter: `wtime` is
    /// `('w', ms)`, the cats' `ctime` `('c', ms)` (each game names its
    /// seats' letters).
    pub clocks: Vec<(char, Duration)>,
    pub incs: Vec<(char, Duration)>,
    pub movestogo: Option<u32>,
    /// Search only these root moves (as written; the session parses them).
    pub searchmoves: Vec<String>,
    /// Look for a mate in at most this many moves.
    pub mate: Option<u32>,
    /// Think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Words that were not understood (unknown parameters, malformed
    /// values): each is reported, left out, and the search still runs.
    pub warnings: Vec<String>,
    /// Whether any word other than `infinite`, `ponder` and `searchmoves`
    /// (with its moves) was given.
    pub other_words: bool,
}

impl GoParams {
    /// The clock of the seat whose letter is `letter`.
    pub fn clock(&self, letter: char) -> Option<Duration> {
        self.clocks.iter().rev().find(|(c, _)| *c == letter).map(|&(_, t)| t)
    }

    /// The increment of the seat whose letter is `letter`.
    pub fn inc(&self, letter: char) -> Option<Duration> {
        self.incs.iter().rev().find(|(c, _)| *c == letter).map(|&(_, t)| t)
    }

    /// Whether the client asked for a search that ends only on `stop`:
    /// `go infinite`, or `go` with nothing but `ponder` and `searchmoves`.
    pub fn asks_for_endless_search(&self) -> bool {
        self.infinite || !self.other_words
    }
}

/// The words `go` knows besides the clocks; `searchmoves` takes every word
/// up to the next one.
const GO_KEYWORDS: &[&str] =
    &["searchmoves", "ponder", "movestogo", "depth", "nodes", "mate", "movetime", "infinite", "perft"];

/// A clock word, `<letter>time` or `<letter>inc` (`wtime`, `binc`, the
/// cats' `ctime`): the letter and whether it is the increment.
fn clock_word(word: &str) -> Option<(char, bool)> {
    let mut chars = word.chars();
    let letter = chars.next().filter(char::is_ascii_lowercase)?;
    match chars.as_str() {
        "time" => Some((letter, false)),
        "inc" => Some((letter, true)),
        _ => None,
    }
}

fn is_go_keyword(word: &str) -> bool {
    GO_KEYWORDS.contains(&word) || clock_word(word).is_some()
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    UciNewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Position {
        start: Start,
        moves: Vec<String>,
    },
    Go(GoParams),
    Stop,
    PonderHit,
    Quit,
    /// Extensions: board picture, evaluation breakdown, game result, the
    /// outcomes of the roll the side to move may ask for.
    Display,
    Eval,
    Outcome,
    Rolls,
    /// The commands, in a few lines for a person at the terminal.
    Help,
    /// The tunable search parameters as OpenBench's SPSA input (a build
    /// with the `tune` feature).
    Spsa,
}

/// Parses a line. `Ok(None)` for a blank line (ignored, as UCI asks).
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let mut words = line.split_ascii_whitespace();
    let Some(head) = words.next() else { return Ok(None) };
    let rest: Vec<&str> = words.collect();
    let no_args = |cmd: Command| {
        if rest.is_empty() {
            Ok(Some(cmd))
        } else {
            Err(format!("'{head}' takes no arguments (got '{}')", rest.join(" ")))
        }
    };
    match head {
        "uci" => no_args(Command::Uci),
        "isready" => no_args(Command::IsReady),
        "ucinewgame" => no_args(Command::UciNewGame),
        "stop" => no_args(Command::Stop),
        "ponderhit" => no_args(Command::PonderHit),
        "quit" => no_args(Command::Quit),
        "d" => no_args(Command::Display),
        "eval" => no_args(Command::Eval),
        "outcome" => no_args(Command::Outcome),
        "rolls" => no_args(Command::Rolls),
        "help" => no_args(Command::Help),
        "spsa" => no_args(Command::Spsa),
        "debug" => match rest.as_slice() {
            ["on"] => Ok(Some(Command::Debug(true))),
            ["off"] => Ok(Some(Command::Debug(false))),
            _ => Err("usage: debug on|off".into()),
        },
        "setoption" => parse_setoption(&rest).map(Some),
        "position" => parse_position(&rest).map(Some),
        "go" => Ok(Some(Command::Go(parse_go(&rest)))),
        other => Err(format!("unknown command '{}'", truncate(other))),
    }
}

/// Keeps error messages short when a client sends a huge token.
fn truncate(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        format!("{}...", s.chars().take(MAX).collect::<String>())
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, String> {
    let usage = "usage: setoption name <name> [value <value>]";
    if rest.first() != Some(&"name") {
        return Err(usage.into());
    }
    let value_at = rest.iter().position(|w| *w == "value");
    let name_words = &rest[1..value_at.unwrap_or(rest.len())];
    if name_words.is_empty() {
        return Err(format!("setoption: missing option name; {usage}"));
    }
    let value = match value_at {
        Some(i) if i + 1 < rest.len() => Some(rest[i + 1..].join(" ")),
        Some(_) => return Err(format!("setoption: missing value after 'value'; {usage}")),
        None => None,
    };
    Ok(Command::SetOption { name: name_words.join(" "), value })
}

fn parse_position(rest: &[&str]) -> Result<Command, String> {
    let moves_at = rest.iter().position(|w| *w == "moves");
    let head = &rest[..moves_at.unwrap_or(rest.len())];
    let start = match head {
        ["startpos"] => Start::StartPos,
        ["fen", fen @ ..] if !fen.is_empty() => Start::Fen(fen.join(" ")),
        ["fen"] => return Err("position fen: missing the FEN".into()),
        [] => return Err("position: expected 'startpos' or 'fen <FEN>'".into()),
        ["startpos", extra @ ..] => {
            return Err(format!("position startpos: unexpected '{}' (moves go after 'moves')", truncate(extra[0])))
        }
        [other, ..] => return Err(format!("position: expected 'startpos' or 'fen', got '{}'", truncate(other))),
    };
    let moves = match moves_at {
        Some(i) => rest[i + 1..].iter().map(|s| s.to_string()).collect(),
        None => Vec::new(),
    };
    Ok(Command::Position { start, moves })
}

fn parse_go(rest: &[&str]) -> GoParams {
    let mut p = GoParams::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        i += 1;
        if !matches!(key, "infinite" | "ponder" | "searchmoves") {
            p.other_words = true;
        }
        // The value after `key`: a whole number, or a warning (a keyword
        // in its place is left for the next round).
        let mut value = |what: &str| -> Option<u64> {
            let problem = match rest.get(i) {
                None => format!("go: '{key}' needs a {what}; ignored"),
                Some(v) if is_go_keyword(v) => format!("go: '{key}' needs a {what}; ignored"),
                Some(v) => {
                    i += 1;
                    match v.parse::<u64>() {
                        Ok(n) => return Some(n),
                        Err(_) => format!("go: '{key}' needs a {what}, got '{}'; ignored", truncate(v)),
                    }
                }
            };
            p.warnings.push(problem);
            None
        };
        let ms = Duration::from_millis;
        let clamp = |n: u64| n.min(u32::MAX as u64) as u32;
        match key {
            "depth" => p.depth = value("depth in plies").map(clamp).or(p.depth),
            "nodes" => p.nodes = value("node count").or(p.nodes),
            "mate" => p.mate = value("number of moves").map(clamp).or(p.mate),
            "movetime" => p.movetime = value("time in ms").map(ms).or(p.movetime),
            "perft" => p.perft = value("depth in plies").map(clamp).or(p.perft),
            "movestogo" => p.movestogo = value("move count").map(clamp).or(p.movestogo),
            "infinite" => p.infinite = true,
            "ponder" => p.ponder = true,
            "searchmoves" => {
                while i < rest.len() && !is_go_keyword(rest[i]) {
                    p.searchmoves.push(truncate(rest[i]));
                    i += 1;
                }
            }
            other => match clock_word(other) {
                Some((letter, false)) => {
                    if let Some(t) = value("time in ms") {
                        p.clocks.push((letter, ms(t)));
                    }
                }
                Some((letter, true)) => {
                    if let Some(t) = value("time in ms") {
                        p.incs.push((letter, ms(t)));
                    }
                }
                None => p.warnings.push(format!("go: unknown parameter '{}' ignored", truncate(other))),
            },
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        assert_eq!(parse("  uci  "), Ok(Some(Command::Uci)));
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse("   \t "), Ok(None));
        assert_eq!(
            parse("setoption name Move Overhead value 100"),
            Ok(Some(Command::SetOption { name: "Move Overhead".into(), value: Some("100".into()) }))
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Some(Command::SetOption { name: "Clear Hash".into(), value: None }))
        );
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Ok(Some(Command::Position { start: Start::StartPos, moves: vec!["e2e4".into(), "e7e5".into()] }))
        );
        assert_eq!(
            parse("position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
            Ok(Some(Command::Position { start: Start::Fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1".into()), moves: vec![] }))
        );
        let Ok(Some(Command::Go(g))) = parse("go wtime 1000 btime 2000 ctime 300 winc 10 binc 20 cinc 30 movestogo 5")
        else {
            panic!()
        };
        let ms = Duration::from_millis;
        assert_eq!((g.clock('w'), g.clock('b'), g.clock('c')), (Some(ms(1000)), Some(ms(2000)), Some(ms(300))));
        assert_eq!((g.inc('c'), g.clock('r')), (Some(ms(30)), None));
        assert_eq!(g.movestogo, Some(5));
    }

    fn go(words: &str) -> GoParams {
        match parse(&format!("go {words}")) {
            Ok(Some(Command::Go(p))) => p,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn go_reads_every_uci_word_and_warns_about_the_rest() {
        let p = go("searchmoves e2e4 d2d4 ponder wtime 100 mate 3 nodes 7 depth 4 movetime 9");
        assert_eq!(p.searchmoves, ["e2e4", "d2d4"]);
        assert!(p.ponder && p.warnings.is_empty() && p.other_words);
        assert_eq!((p.mate, p.nodes, p.depth), (Some(3), Some(7), Some(4)));
        assert_eq!((p.clock('w'), p.movetime), (Some(Duration::from_millis(100)), Some(Duration::from_millis(9))));
        assert!(go("").asks_for_endless_search() && go("infinite depth 3").asks_for_endless_search());
        assert!(go("ponder searchmoves a2a3").asks_for_endless_search());
        assert!(!go("depth 3").asks_for_endless_search());
        let warned = |words: &str| go(words).warnings.join(" | ");
        assert!(warned("depth").contains("'depth' needs a depth"));
        assert!(warned("depth x").contains("got 'x'"));
        assert!(warned("depth -3").contains("got '-3'"));
        assert!(warned("sideways").contains("unknown parameter 'sideways'"));
        // A missing value leaves the next keyword in place.
        let p = go("depth movetime 50");
        assert_eq!((p.depth, p.movetime), (None, Some(Duration::from_millis(50))));
        assert_eq!(go("depth x").depth, None);
    }

    #[test]
    fn malformed_lines_are_errors_that_say_what_is_wrong() {
        let err = |s: &str| parse(s).unwrap_err();
        assert_eq!(err("foo bar"), "unknown command 'foo'");
        assert!(err("uci now").contains("takes no arguments"));
        assert!(err("position").contains("expected 'startpos' or 'fen"));
        assert!(err("position fen").contains("missing the FEN"));
        assert!(err("position startpos e2e4").contains("unexpected 'e2e4'"));
        assert!(err("position middle").contains("got 'middle'"));
        assert!(err("setoption Hash 3").starts_with("usage"));
        assert!(err("setoption name Hash value").contains("missing value"));
        assert!(err("setoption name value 3").contains("missing option name"));
        assert!(err("debug maybe").contains("usage"));
        assert!(err(&"x".repeat(10_000)).len() < 80);
    }
}
