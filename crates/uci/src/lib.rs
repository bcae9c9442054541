//! The engine protocol (protocol.md): plain UCI for chess, UCI extended with
//! a third side for Cat Chess. The variant is chosen here, once, at the
//! edge: everything below works on a concrete game type. Each command
//! becomes a call of the engine layer (`crate::engine`), which owns the
//! game, the search and the options; this layer owns only the text.
//!
//! Threads: the main thread reads commands; `go` starts one search thread
//! (the engine's job) that prints `bestmove` itself. Commands that change
//! the engine's state while a search runs first stop it and wait for its
//! `bestmove`, so replies never interleave out of order.
//!
//! | file | what it owns |
//! | --- | --- |
//! | `mod.rs` | the command loop: reading bounded lines, replies, escaping |
//! | `command.rs` | parsing one line into a [`Command`] |
//! | `options.rs` | the options' `uci` lines, from the engine's table |
//! | `session.rs` | commands into engine calls; `go`'s limits; `info` and `bestmove` lines |
//! | `random.rs` | `catchess random`, the random-move engine, with test faults |

pub mod command;
mod options;
pub mod random;
mod rolls;
mod session;

pub use command::{parse, Command, GoParams, Start};

use catchess_core::files::{read_line, LineRead};
use catchess_engine::Options;
use catchess_games::VariantKind;
use session::AnySession;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

pub const ENGINE_NAME: &str = concat!("catchess ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the catchess developers";

/// What `help` prints: the commands, for a person at the terminal (a GUI
/// never asks). protocol.md has the whole story.
pub const HELP: &str = "\
catchess speaks UCI (protocol.md); a line is one command:
  uci                                  the engine's name and options, then uciok
  setoption name <name> [value <v>]    e.g. setoption name UCI_Variant value catchess
  isready                              answered readyok
  ucinewgame                           a new game: the table cleared
  position startpos|fen <FEN> [moves <m> ...]
  go [wtime|btime|ctime|winc|binc|cinc <ms>] [movestogo <n>] [depth <n>] [nodes <n>]
     [movetime <ms>] [mate <n>] [searchmoves <m> ...] [ponder] [infinite]
  go perft <depth>                     count the move tree
  stop, ponderhit, quit
Extensions: d (the board), eval (the evaluation term by term), outcome (the result),
  rolls (Cat's Chess 10x10: the roll's outcomes), spsa (a tune build: the tunable
  parameters as OpenBench's SPSA input), help";

/// Longest line read as a command; a longer one is refused whole (a
/// `position ... moves` line of 100 000 moves still fits).
pub const MAX_LINE: usize = 1 << 20;

/// Where replies go: shared by the command loop and the search thread, each
/// line written whole and flushed.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(w: impl Write + Send + 'static) -> Self {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    pub fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // A closed stdout leaves nobody to tell; the loop ends at stdin EOF.
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }

    /// An error line. Whatever of the client's input it quotes is escaped
    /// (see [`escape`]), so no control byte reaches the client's terminal.
    pub fn error(&self, text: &str) {
        self.line(&format!("info string error: {}", escape(text)));
    }

    /// A warning: the command was carried out, less what this names.
    /// Escaped as [`error`](Self::error) is.
    pub fn warning(&self, text: &str) {
        self.line(&format!("info string warning: {}", escape(text)));
    }
}

/// `text` with every control character (ESC, VT, NUL, ...) written as a
/// Rust-style escape (`\u{1b}`), so it prints as plain text on one line.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Reads commands until `quit` or the end of input, answering unreadable
/// lines (too long, malformed) with an error, and hands every other command
/// to `handle`. Shared by the engine and the random engine.
pub(crate) fn serve(mut input: impl BufRead, output: &Output, mut handle: impl FnMut(Command)) {
    let mut buf = Vec::new();
    loop {
        let line = match read_line(&mut input, &mut buf, MAX_LINE) {
            Ok(LineRead::End) | Err(_) => break,
            Ok(LineRead::TooLong(len)) => {
                output.error(&format!("line of {len} bytes is longer than the {MAX_LINE}-byte limit; ignored"));
                continue;
            }
            Ok(LineRead::Line) => String::from_utf8_lossy(&buf).into_owned(),
        };
        match parse(&line) {
            Ok(Some(Command::Quit)) => break,
            Ok(Some(command)) => handle(command),
            Ok(None) => {}
            Err(e) => output.error(&e),
        }
    }
}

/// Runs the protocol until `quit` or the end of input, starting with
/// `variant` (the protocol's default game, chess, when `None`).
pub fn run(input: impl BufRead, output: Output, variant: Option<VariantKind>) {
    // As Stockfish does: who answers, before anything is asked.
    output.line(&format!("{ENGINE_NAME} by {ENGINE_AUTHOR}; type help for the commands"));
    let mut options =
        Options { variant: variant.unwrap_or(catchess_engine::defaults::PROTOCOL_GAME), ..Options::default() };
    let mut session = AnySession::new(&options);
    serve(input, &output, |command| session.handle(command, &mut options, &output));
    session.shutdown(&options);
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, Rng, SeedableRng};
    use std::io::Cursor;

    /// A writer whose bytes the test can read afterwards.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Lines built from protocol words, numbers, moves, FEN pieces and
    /// noise: close enough to real commands to reach deep into the parser
    /// and the session.
    fn random_line(rng: &mut StdRng) -> String {
        const WORDS: &[&str] = &[
            "uci",
            "isready",
            "ucinewgame",
            "position",
            "startpos",
            "fen",
            "moves",
            "go",
            "depth",
            "nodes",
            "movetime",
            "wtime",
            "btime",
            "ctime",
            "winc",
            "binc",
            "cinc",
            "movestogo",
            "perft",
            "infinite",
            "stop",
            "d",
            "eval",
            "é2é4",
            "\u{202e}e2e4",
            "T@é5,a2a4",
            "outcome",
            "setoption",
            "name",
            "value",
            "Hash",
            "Threads",
            "UCI_Variant",
            "Clear",
            "Move",
            "Overhead",
            "e2e4",
            "e7e5",
            "a4b4",
            "0000",
            "h3e3",
            "-1",
            "0",
            "1",
            "2",
            "99999999999999999999",
            "w",
            "b",
            "c",
            "-",
            "KQkq",
            "8/8/8/8/8/8/8/8",
            "rnbqkbnr/pppppppp/8/7*/*7/8/PPPPPPPP/RNBQKBNR",
            "\u{0}",
            "\t",
            "é",
            "quit",
        ];
        if rng.gen_bool(0.1) {
            return "go depth 1".to_string();
        }
        let n = rng.gen_range(0..12);
        let mut words: Vec<String> = (0..n)
            .map(|_| {
                if rng.gen_bool(0.1) {
                    // Noise: ASCII, and now and then any character at all
                    // (a multi-byte letter inside a move once panicked).
                    (0..rng.gen_range(1..6))
                        .map(|_| if rng.gen_bool(0.7) { rng.gen_range(0u8..=127) as char } else { rng.gen::<char>() })
                        .collect()
                } else if rng.gen_bool(0.05) {
                    VariantKind::ALL[rng.gen_range(0..VariantKind::ALL.len())].name().to_string()
                } else {
                    WORDS[rng.gen_range(0..WORDS.len())].to_string()
                }
            })
            .collect();
        // `quit` would end the session early; `go` without a limit would
        // search until a `stop` that may never come.
        words.retain(|w| w != "quit" && w != "infinite");
        if words.first().is_some_and(|w| w == "go") {
            words.extend(["depth".to_string(), "1".to_string()]);
        }
        words.join(" ")
    }

    #[test]
    fn random_command_lines_never_panic_or_hang_and_every_go_is_answered() {
        let mut rng = StdRng::seed_from_u64(17);
        for _ in 0..20 {
            let lines: Vec<String> = (0..300).map(|_| random_line(&mut rng)).collect();
            let gos =
                lines.iter().filter(|l| matches!(parse(l), Ok(Some(Command::Go(p))) if p.perft.is_none())).count();
            let out = Shared::default();
            let variant = VariantKind::ALL[rng.gen_range(0..VariantKind::ALL.len())];
            run(Cursor::new(lines.join("\n")), Output::new(out.clone()), Some(variant));
            let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
            let bestmoves = text.lines().filter(|l| l.starts_with("bestmove")).count();
            // Every go, whatever else its line holds, gets exactly one bestmove.
            assert!(gos >= 10, "some searches ran: {gos}");
            assert_eq!(bestmoves, gos, "{variant}");
            assert!(!text.contains('\u{1b}'), "no raw control byte is echoed");
        }
    }
}
