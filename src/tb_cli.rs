//! `catchess tb`: generate and probe the endgame tables.

use catchess_core::files::{read_line, LineRead};
use catchess_games::chess::{CatChessRules, ChessRules, Position, Variant};
use catchess_games::tb::names::{self, Located};
use catchess_games::tb::progress::Bar;
use catchess_games::tb::{generate_to_dir, Material, Tablebase};
use clap::builder::PossibleValue;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// The games that have endgame tables: the `--variant` of `tb generate` and
/// `tb probe`, which offers these only (its help lists them) and refuses
/// every other game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableVariant {
    CatChess,
    Chess,
}

impl TableVariant {
    pub const ALL: [TableVariant; 2] = [TableVariant::CatChess, TableVariant::Chess];

    /// The name `--variant` takes, the header holds and the files' names
    /// carry: the rules' own (`Variant::NAME`).
    pub fn name(self) -> &'static str {
        match self {
            TableVariant::CatChess => CatChessRules::NAME,
            TableVariant::Chess => ChessRules::NAME,
        }
    }
}

/// clap's own parser, listing these names in `--help` and refusing any
/// other (`invalid value 'xiangqi' for '--variant <VARIANT>'`, with the
/// names it takes).
impl clap::ValueEnum for TableVariant {
    fn value_variants<'a>() -> &'a [Self] {
        &TableVariant::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()))
    }
}

#[derive(clap::Subcommand, Debug)]
pub enum TbCommand {
    /// Solve every position of a material set by retrograde analysis and write its table
    /// (DIR/<material>.<variant>.cctb, e.g. KQvK.catchess.cctb) and statistics
    /// (DIR/<material>.<variant>.json). The tables that captures and promotions lead to are made
    /// first if missing.
    Generate {
        /// catchess (both cats, three seats) or chess (two seats).
        #[arg(long, default_value = "catchess")]
        variant: TableVariant,
        /// White's men, `v`, black's: KQvK, KvKQ, KRvK, KvKR, KPvK, KvKP; or `all` for these six.
        #[arg(long)]
        material: String,
        /// Where the tables go.
        #[arg(long)]
        dir: PathBuf,
        /// Threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Print the tables' result for positions: `white 17`, `black 4`, `cats -` (`draw -` in
    /// chess), `<winner> 0` when the game has ended, `error <reason>` for a line that cannot be
    /// answered. The fifty-move rule and repetition are ignored, except that a win the
    /// half-move clock says cannot arrive in time is the cats' win, said so.
    Probe {
        /// catchess or chess: the tables read are this variant's (DIR/<material>.<variant>.cctb,
        /// or an old DIR/<material>.cctb whose header names this variant).
        #[arg(long, default_value = "catchess")]
        variant: TableVariant,
        /// Where the tables are.
        #[arg(long)]
        dir: PathBuf,
        /// One position (default: one FEN per line on stdin, one answer per line).
        #[arg(long)]
        fen: Option<String>,
        /// After each position, one line per legal move: the move and its result.
        #[arg(long)]
        moves: bool,
    },
}

/// Runs a `tb` command; errors go to stderr.
pub fn run(command: TbCommand) -> ExitCode {
    let result = match command {
        TbCommand::Generate { variant, material, dir, threads } => {
            let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            match variant {
                TableVariant::CatChess => generate::<CatChessRules>(&material, &dir, threads),
                TableVariant::Chess => generate::<ChessRules>(&material, &dir, threads),
            }
        }
        TbCommand::Probe { variant, dir, fen, moves } => match variant {
            TableVariant::CatChess => probe::<CatChessRules>(&dir, fen, moves),
            TableVariant::Chess => probe::<ChessRules>(&dir, fen, moves),
        },
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn generate<V: Variant>(material: &str, dir: &std::path::Path, threads: usize) -> Result<ExitCode, String> {
    if threads == 0 || threads > 256 {
        return Err(format!("--threads must be 1..=256, got {threads}"));
    }
    let materials: Vec<Material> = if material == "all" {
        catchess_games::tb::material::WITH_FILES.iter().map(|m| m.parse().expect("valid")).collect()
    } else {
        vec![material.parse()?]
    };
    let mut log = std::io::stdout();
    for m in materials {
        if material == "all" {
            match names::locate(dir, V::NAME, m) {
                Located::Named(_) => {
                    let _ = writeln!(log, "{m}: already in {}", dir.display());
                    continue;
                }
                Located::OldName(old) => {
                    let mv = names::rename_command(&old, &dir.join(names::table(V::NAME, m)));
                    let _ = writeln!(log, "{m}: already in {}, its old name; give it its own: {mv}", old.display());
                    continue;
                }
                Located::Missing { .. } => {}
            }
        }
        generate_to_dir::<V>(m, dir, threads, Bar::Stderr, &mut log)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The longest line `tb probe` reads from stdin: a FEN is under 100 bytes.
const MAX_FEN_LINE: usize = 4096;

fn probe<V: Variant>(dir: &std::path::Path, fen: Option<String>, with_moves: bool) -> Result<ExitCode, String> {
    let tables = Tablebase::<V>::open(dir)?;
    let mut out = std::io::stdout().lock();
    let mut failed = false;
    // Answers one line of input: the FEN's lines, or `error <why>` for a
    // FEN that cannot be answered or a line that is not one.
    let mut answer = |line: Result<&str, String>, out: &mut dyn Write| -> std::io::Result<()> {
        match line.and_then(|fen| answer_line(&tables, fen, with_moves)) {
            Ok(lines) => {
                for l in lines {
                    writeln!(out, "{l}")?;
                }
            }
            Err(e) => {
                failed = true;
                writeln!(out, "error {e}")?;
            }
        }
        out.flush()
    };
    let io = |e: std::io::Error| format!("cannot write the answers: {e}");
    match fen {
        Some(fen) => answer(Ok(&fen), &mut out).map_err(io)?,
        None => {
            // Line by line, each within the bound: a line that is too long
            // or not UTF-8 gets its `error` answer, and the next goes on.
            let mut input = std::io::stdin().lock();
            let mut buf = Vec::new();
            loop {
                let line = match read_line(&mut input, &mut buf, MAX_FEN_LINE) {
                    Err(e) => return Err(format!("cannot read stdin: {e}")),
                    Ok(LineRead::End) => break,
                    Ok(LineRead::TooLong(n)) => Err(format!("a line of {n} bytes: a FEN is at most {MAX_FEN_LINE}")),
                    Ok(LineRead::Line) => std::str::from_utf8(&buf).map_err(|_| "the line is not UTF-8 text".into()),
                };
                answer(line, &mut out).map_err(io)?;
            }
        }
    }
    Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

/// The answer lines of one FEN: its result, and with `with_moves` one line
/// per legal move (none once the game has ended, even where the board
/// has moves: insufficient material, the fifty-move rule).
fn answer_line<V: Variant>(tables: &Tablebase<V>, fen: &str, with_moves: bool) -> Result<Vec<String>, String> {
    let fen = fen.trim();
    if fen.is_empty() {
        return Err("empty line: expected a FEN".into());
    }
    let pos = Position::<V>::from_fen(fen).map_err(|e| e.to_string())?;
    let probe = tables.probe(&pos)?;
    let mut lines = vec![probe.line(V::CATS)];
    if with_moves && !probe.ended {
        for (m, p) in tables.moves(&pos)? {
            lines.push(format!("{m} {}", p.line(V::CATS)));
        }
    }
    Ok(lines)
}
