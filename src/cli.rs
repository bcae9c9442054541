//! The command line: `catchess` alone speaks the engine protocol; the
//! subcommands are tools. This file holds the clap declarations and one
//! dispatch arm per command, each calling the one function that does the
//! command's work in its own module: `perft::command`, `bench::command`,
//! `tournament::command` (match), `tournament::check::command` (pgn check),
//! `tournament::review::command` (pgn stats),
//! `serve::run`, `tune::command`, `tune::nnue::command` (train),
//! `uci::random::run` and `uci::run`.
//!
//! Which game a command plays when `--variant` is not given (every
//! `--help` lists the games, from `games!`): what takes its game from
//! outside, where chess is what is meant when nothing is said, defaults
//! to standard chess (`engine::defaults::PROTOCOL_GAME`): the engine
//! itself (a GUI that sends no `UCI_Variant`), `pgn check` (records
//! without a `Variant` tag) and `tune` (the weights chess and Cat Chess
//! share). The tools that set up games themselves default to Cat Chess,
//! the game this engine is for (`engine::defaults::OWN_GAME`): `perft` and
//! `match`. `bench` searches standard chess (`engine::defaults::BENCH_GAME`,
//! what OpenBench runs), `bench --all` every game.

use catchess_games::VariantKind;
use catchess_tournament::{
    self as tournament,
    spec::{parse_seat_tc, Adjudication, DrawRule, EngineSpec, ResignRule, SprtSpec},
    stats::Model,
    MatchConfig,
};
use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Duration;

use catchess_engine::defaults::{OWN_GAME, PROTOCOL_GAME as FROM_OUTSIDE};

#[derive(Parser, Debug)]
#[command(
    name = "catchess",
    version,
    about = "Cat Chess, chess, xiangqi and Cat's Chess 10x10 engine. With no subcommand it speaks the UCI-like protocol on stdin/stdout (see protocol.md)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The protocol's variant until a client sets UCI_Variant (default: chess). Only for the
    /// engine itself (no subcommand).
    #[arg(long)]
    pub variant: Option<VariantKind>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaves of the legal move tree (proves the move generator).
    Perft {
        /// Plies to count. With --suite: the deepest entry depth to run (default: all).
        #[arg(long)]
        depth: Option<u32>,
        /// Start position in (Cat-)FEN; default: the variant's start position.
        #[arg(long)]
        fen: Option<String>,
        /// The game (default: catchess; with --suite, the one whose FENs the suite holds).
        #[arg(long)]
        variant: Option<VariantKind>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Run every entry of an EPD suite (`<fen> ;D1 n ;D2 n ...`) and report mismatches.
        #[arg(long, conflicts_with_all = ["fen", "divide"])]
        suite: Option<String>,
    },
    /// Search fixed positions of standard chess (or --variant's game, or --all games) to a fixed
    /// depth; prints the node count (deterministic with one thread) and nodes per second, and ends
    /// with Stockfish's `Nodes searched  : N` and `Nodes/second    : N`, which OpenBench reads.
    ///
    /// Positional arguments as in Stockfish's `bench 16 1 13`: hash (MiB),
    /// threads, depth; each may be given as a flag instead, not both.
    Bench {
        /// Transposition table size in MiB (default 16); the same as --hash.
        #[arg(value_name = "HASH_MB", conflicts_with = "hash")]
        hash_mb: Option<String>,
        /// Search threads (default 1); the same as --threads.
        #[arg(value_name = "THREADS", conflicts_with = "threads")]
        threads_n: Option<String>,
        /// Plies per position; the same as --depth.
        #[arg(value_name = "DEPTH", conflicts_with = "depth")]
        depth_n: Option<String>,
        /// Plies per position (default: per variant, a few seconds in all).
        #[arg(long)]
        depth: Option<String>,
        /// This game (default: chess, the bench OpenBench runs).
        #[arg(long, conflicts_with = "all")]
        variant: Option<VariantKind>,
        /// Every game, one after the other (catchess, chess, xiangqi, catschess10).
        #[arg(long)]
        all: bool,
        /// Transposition table size in MiB (default 16).
        #[arg(long)]
        hash: Option<String>,
        /// Search threads (the node count is deterministic only with 1; default 1).
        #[arg(long)]
        threads: Option<String>,
        /// The game this network file is for (chess or xiangqi, by its magic) evaluates with it;
        /// `<none>` gives every game the hand-made evaluation alone; the default is each game's
        /// built-in network, if it has one (the protocol's `EvalFile`).
        #[arg(long, value_name = "FILE")]
        eval_file: Option<String>,
    },
    /// Run a tournament between engines, with this program as the arbiter.
    #[command(
        long_about = "Run a tournament between engines, with this program as the arbiter.\n\n\
Every engine plays every seat (white, black and, in Cat Chess, the cats) equally often. \
The arbiter checks every move with the game's own rules, keeps the clocks, ends games by \
checkmate, stalemate, repetition, the fifty-move rule or insufficient material, and scores \
faults (illegal move, time forfeit, crash, hang, a line over 1 MiB) as losses: white's or black's fault gives \
the game to the other of the two; a cats fault scores the cats 0 and the cats pass for the \
rest of the game, a draw then giving white and black 1/2 each (protocol.md, \"Matches and faults\"). \
A crashed or hung engine is restarted for its next game; an engine's own process group, and \
on Linux anything carrying its environment tag, is killed with it.\n\n\
Records (PGN) go to --pgn as each game ends (the Round tag gives its place in the schedule), one \
line per finished game to stderr with the match so far (games, score, Elo, LLR, ETA; on a terminal \
as a live line), and the final table to stdout. SIGINT or SIGTERM kills every \
engine, prints the table of the finished games and exits with 128 + the signal number.",
        after_help = "Examples:\n  \
catchess match --engine 'name=cc cmd=./catchess' --engine 'name=rnd cmd=\"./catchess random\"' \\\n    \
--engine 'name=cc2 cmd=./catchess option.Hash=32' --tc 5+0.05 --games 12 --pgn games.pgn\n  \
catchess match --variant chess --engine 'name=cc cmd=./catchess' \\\n    \
--engine 'name=sf cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=2000' \\\n    \
--tc 10+0.1 --games 20 --random-plies 6 --seed 1 --sprt 0,50,0.05,0.05 --pgn chess.pgn"
    )]
    Match(Box<MatchArgs>),
    /// Join the game pairs of several runs of one test into one SPRT: Elo, LOS, LLR and verdict.
    ///
    /// A self-play test cut off (a session's end, a replaced machine) goes on as a new run of the
    /// same two builds with another --seed. Each run's final table gives its game pairs ("pairs
    /// scoring 0/0.5/1/1.5/2: a b c d e"); pass each run's five counts to --pairs.
    #[command(after_help = "Example:\n  \
catchess sprt --pairs 151,345,799,357,179 --pairs 20,41,97,44,18 --sprt 0,10,0.05,0.05")]
    Sprt {
        /// One run's game pairs that scored 0, 0.5, 1, 1.5 and 2 points for the first engine.
        #[arg(long, value_name = "A,B,C,D,E", required = true)]
        pairs: Vec<String>,
        /// The test's bounds, as `match --sprt` takes them.
        #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA", default_value = "0,10,0.05,0.05")]
        sprt: String,
    },
    /// Tools for game records (PGN).
    Pgn {
        #[command(subcommand)]
        action: PgnCommand,
    },
    /// Speak the protocol as an engine that plays uniformly random legal moves (every variant).
    ///
    /// A baseline and test opponent. Options: UCI_Variant; Seed (the move is a hash of the seed,
    /// the position and the move count, so games replay exactly); Faults, a test aid that makes
    /// it misbehave on purpose: `<side>=illegal|crash|hang|slow[@n]` entries separated by commas
    /// (from the n-th move as that side in a game on), or `noready` (never answers isready).
    Random,
    /// Play and analyse every game (catchess, chess, xiangqi, catschess10) in the browser: a local web
    /// app and its JSON API (api.md), with engine levels 1-8 for every seat.
    #[cfg(feature = "web")]
    Serve(catchess_serve::Config),
    /// Fit the evaluation weights of a variant to game results (Texel tuning).
    ///
    /// Reads `catchess match` records, keeps the quiet positions (no check, no capture that
    /// wins or trades material by static exchange, white or black to move) after the first
    /// --skip-plies of each game, labels each with its game's result, and fits the weights by
    /// logistic regression; the positions of one game in ten are held out to measure the fit. Prints the
    /// new weights file (or writes it with --out) with this command line in its header.
    #[command(after_help = "Example (self-play at two node counts, so that no game is played twice, then \
the fit to the records' results and search scores, written in place; see the README):\n  \
catchess match --variant chess --engine 'name=a cmd=./catchess tc=nodes=6000' \\\n    \
--engine 'name=b cmd=./catchess tc=nodes=6500' --games 8000 --random-plies 8 --concurrency 2 \\\n    \
--pgn selfplay.pgn\n  \
catchess tune --variant chess --pgn selfplay.pgn --skip-plies 10 --lambda 0.3 --rate 0.5 --epochs 600 \\\n    \
--out crates/games/src/chess/weights.rs")]
    Tune(TuneCliArgs),
    /// Learn an evaluation network (NNUE) for standard chess, xiangqi or Cat Chess from game records
    /// or datagen files.
    ///
    /// Reads `catchess match` records as `tune` does (the quiet positions after --skip-plies) and
    /// `catchess datagen` files (--data; standard chess's, or with `--variant xiangqi` or `--variant
    /// catchess` that game's), each position labelled with a blend of the game's result and the
    /// search's score, and learns
    /// the game's network (`crates/games/src/nnue`) by Adam; the positions of one game in ten are held out, and
    /// the network of the pass where their loss was lowest is written to --out. Reports the
    /// held-out loss of the hand-made evaluation and of the built-in network on the same
    /// positions beside the new network's.
    #[command(after_help = "Examples:\n  \
catchess train --pgn selfplay.pgn --skip-plies 10 --lambda 0.3 --epochs 30 --out chess.nnue\n  \
catchess train --data chess.bin --epochs 10 --rate 0.002 --final-rate 0 --out whole.nnue\n  \
catchess train --variant xiangqi --data xq.bin --correction --epochs 2 --rate 0.002 --final-rate 0 --out xq.nnue\n  \
catchess train --variant catchess --data cats.bin --epochs 2 --rate 0.004 --final-rate 0 --out cats.nnue")]
    Train(TrainCliArgs),
    /// Self-play training data for evaluation networks, every game: node-limited games inside the
    /// process, each quiet position's search score and the game's result in a binary file.
    ///
    /// Standard chess is written in bulletformat's 32-byte ChessBoard (what bullet and the NNUE
    /// community's trainers read), the other games in the project's own format
    /// (docs/datagen-format.md). The same command makes the same bytes whatever --threads and the
    /// machine's load; stopped (Ctrl-C, SIGTERM, SIGKILL), it goes on from its last whole game
    /// when run again.
    #[command(
        after_help = "Example (a million chess positions on two cores; the third of ten slices of a xiangqi run):\n  \
catchess datagen --variant chess --out chess.bin --positions 1000000 --threads 2\n  \
catchess datagen --variant xiangqi --out xq-3.bin --games 100000 --shard 3/10 --seed 7"
    )]
    Datagen(catchess_datagen::DatagenArgs),
    /// Measure the playing levels in a game itself: the engine at a fixed level (the stand-in for
    /// a person) against every level, node-limited and seeded (README, "Levels in Cat Chess").
    ///
    /// `--layout person`: the stand-in plays --seat, the level under test every other seat (can a
    /// beginner beat level 1?). `--layout level`: the level plays --seat, the stand-in the others
    /// (does each level play its seat better than the one below?). Prints a Markdown table: each
    /// seat's wins, and the --seat's wins within --within moves and their median length.
    #[command(after_help = "Example (the README's tables):\n  \
catchess calibrate --variant catchess --seat white --stand-in 4 --games 40 --threads 2\n  \
catchess calibrate --variant catchess --layout level --seat cats --games 40 --threads 2")]
    Calibrate(catchess_datagen::calibrate::CalibrateArgs),
    /// Endgame tables (Cat Chess with both cats, and chess): generate and probe.
    Tb {
        #[command(subcommand)]
        action: crate::tb_cli::TbCommand,
    },
}

/// `catchess train` options.
#[derive(clap::Args, Debug)]
pub struct TrainCliArgs {
    /// The game whose network to learn: chess, xiangqi or catchess (Cat Chess's network predicts
    /// its three outcomes: white's mate, black's mate, the cats' win).
    #[arg(long, default_value_t = FROM_OUTSIDE)]
    pub variant: VariantKind,
    /// A PGN file of standard-chess game records (repeatable).
    #[arg(long = "pgn", value_name = "FILE", required_unless_present = "data")]
    pub records: Vec<String>,
    /// A `catchess datagen` file of the game (chess: bulletformat, mixable with --pgn; xiangqi and
    /// Cat Chess: the project's own format; repeatable): every position with its search score and result.
    /// One game in ten is held out (chess: games told apart where the men on the board grow in
    /// number; xiangqi and Cat Chess: by the record's game number).
    #[arg(long, value_name = "FILE")]
    pub data: Vec<String>,
    /// Plies left out at the start of each game of the PGN records.
    #[arg(long, default_value_t = 8)]
    pub skip_plies: usize,
    /// Passes over the positions.
    #[arg(long, default_value_t = 30)]
    pub epochs: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.003)]
    pub rate: f32,
    /// The step size at the last step: it falls in a straight line from `--rate` over the run
    /// (default: `--rate` throughout).
    #[arg(long)]
    pub final_rate: Option<f32>,
    /// Positions per step.
    #[arg(long, default_value_t = 1024)]
    pub batch: usize,
    /// Threads for the gradient.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// The share of each position's game result in its target, the rest being the record's
    /// search score (1: results alone).
    #[arg(long, default_value_t = 0.3)]
    pub lambda: f64,
    /// Seeds the first weights and the order of the positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Learn a correction added to the hand-made evaluation (which it starts from) instead of the
    /// whole value: what a network learnt from few games can add without relearning the rest.
    #[arg(long)]
    pub correction: bool,
    /// Go on learning from this network (a file, or `<built-in>`) instead of random weights: new
    /// games refine it without the records it was learnt from. Its kind must match --correction.
    #[arg(long, value_name = "NETWORK")]
    pub init: Option<String>,
    /// Where the network file goes.
    #[arg(long, required = true)]
    pub out: String,
}

/// `catchess tune` options.
#[derive(clap::Args, Debug)]
pub struct TuneCliArgs {
    /// The variant whose weights to fit (chess: the weights chess and Cat Chess share).
    #[arg(long, default_value_t = FROM_OUTSIDE)]
    pub variant: VariantKind,
    /// A PGN file of game records (repeatable).
    #[arg(long = "pgn", value_name = "FILE", required = true)]
    pub records: Vec<String>,
    /// Plies left out at the start of each game.
    #[arg(long, default_value_t = 8)]
    pub skip_plies: usize,
    /// Passes of gradient descent over the positions.
    #[arg(long, default_value_t = 1000)]
    pub epochs: usize,
    /// Step size (centipawns) of the gradient descent (Adam).
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// Threads for the gradient.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Weight of the prior that holds each weight near its value in use: `PRIOR · Σ (w - w₀)²`
    /// (centipawns) is added to the loss; a weight few positions see then fits less noise.
    #[arg(long, default_value_t = 0.0)]
    pub prior: f64,
    /// The share of each position's game result in its target, the rest being the search score
    /// the record gives the move played there (1: results alone).
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// A group of weights that keeps its values (repeatable; e.g. `piece-square`: many weights
    /// want many games).
    #[arg(long, value_name = "GROUP")]
    pub freeze: Vec<String>,
    /// Write the weights file here (e.g. crates/games/src/chess/weights.rs) instead of printing it.
    #[arg(long)]
    pub out: Option<String>,
}

/// `catchess pgn` tools.
#[derive(Subcommand, Debug)]
pub enum PgnCommand {
    /// Replay every record of FILE (any variant: its Variant tag, else --variant) with the
    /// engine's own rules; report the first illegal move of each game and any Result,
    /// Termination or PlyCount the game does not support. Exit status 1 if any is found.
    Check {
        /// The PGN file.
        file: String,
        /// The variant of records without a Variant tag.
        #[arg(long, default_value_t = FROM_OUTSIDE)]
        variant: VariantKind,
    },
    /// What match records say beyond the score, per engine and seat (Cat Chess's three seats
    /// included): the clock used against the time control's budget, the median clock left and the
    /// time forfeits, from the move comments' times (`+0.35/12 0.051s`, `[%emt]`) and `[%clk]`; and
    /// for --engine, in how many of its losses it had scored itself +1.0 or better, and the move at
    /// which its own score first fell below -1.5 (before move 20, 20-39, 40 or later, never).
    Stats {
        /// The PGN file.
        file: String,
        /// The engine (a player's name in the records) whose losses are looked into.
        #[arg(long)]
        engine: String,
        /// The variant of records without a Variant tag.
        #[arg(long, default_value_t = FROM_OUTSIDE)]
        variant: VariantKind,
    },
}

/// `catchess match` options.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// An engine: `key=value` words, quoted as in a shell. Keys: `cmd=<command line>` (required;
    /// quote it if it has arguments: `cmd="./catchess random"`), `name=<unique name>` (default: the
    /// program's file name), `dir=<working directory>`, `option.<Name>=<value>` (a setoption sent
    /// after uciok; quote the word if the name has spaces: `'option.Move Overhead=100'`),
    /// `tc=<tc>` (this engine's own limit in every seat, overriding --tc: handicap matches such
    /// as `tc=depth=6` against `tc=depth=3`), `seat=<seat>` (this engine plays that seat, by the
    /// variant's name for it, in every game; the others rotate through the rest: `seat=cats`).
    /// Repeat for each engine.
    #[arg(long = "engine", value_name = "SPEC", required_unless_present = "merge")]
    pub engines: Vec<String>,
    /// The game; the engines take its seats (Cat Chess: white, black and the cats).
    #[arg(long, default_value_t = OWN_GAME)]
    pub variant: VariantKind,
    /// Games to play (default: one round, i.e. every seating of the engines once). With --merge:
    /// the match's size, for inputs without a state file (their settings are then not checked).
    #[arg(long)]
    pub games: Option<usize>,
    /// Games played at the same time (each engine process uses its own cores).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Time control for every seat, or for one seat as `<seat>:<tc>` (repeatable). <tc> is
    /// `[moves/]base[+inc]` in seconds (`10+0.1`, `40/60`), `movetime=<ms>`, `depth=<plies>` or
    /// `nodes=<n>`. Example: `--tc 5+0.05 --tc cats:depth=2`.
    #[arg(long = "tc", value_name = "TC", default_value = "10+0.1")]
    pub tcs: Vec<String>,
    /// Opening book: `FILE`, or `file=FILE [format=epd|pgn] [order=sequential|random] [plies=N]`.
    /// EPD/FEN: one position per line. PGN (by `format=pgn` or a `.pgn` name): each game's moves
    /// (SAN, or the protocol's notation; from its FEN tag if any), the first N with `plies=N`.
    /// Round r of the schedule plays opening r (cycling), each engine in each seat;
    /// `order=random` shuffles the book with --seed. At most 256 MiB.
    #[arg(long, value_name = "BOOK")]
    pub openings: Option<String>,
    /// Uniformly random legal plies played from the start position (or each --openings line)
    /// before the engines take over; every game of a round shares the same line.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub random_plies: usize,
    /// Seed of the random openings (default: from the clock; printed at the start).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Where the game records go: a file, or `-` for stdout.
    #[arg(long, value_name = "FILE", default_value = "-")]
    pub pgn: String,
    /// Seconds an engine may take to answer uci, isready, and a depth- or node-limited go before
    /// it counts as hung (killed, its game lost).
    #[arg(long, default_value_t = 30.0, value_name = "SECS")]
    pub timeout: f64,
    /// Milliseconds an engine may overrun its clock or move time (pipe and scheduling delays)
    /// before the overrun is a time forfeit.
    #[arg(long, default_value_t = 50, value_name = "MS")]
    pub time_margin: u64,
    /// Stop early once a sequential probability ratio test decides (two engines only):
    /// `elo0,elo1,alpha,beta` (H0: the first engine is elo0 stronger, H1: elo1), e.g. `0,10,0.05,0.05`.
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA", allow_hyphen_values = true)]
    pub sprt: Option<String>,
    /// The PGN Event tag.
    #[arg(long, default_value = "catchess match")]
    pub event: String,
    /// Write every line sent to and read from the engines, with times, to this file. A write
    /// error (a full disk) is reported and stops the log, not the match.
    #[arg(long, value_name = "FILE")]
    pub log: Option<std::path::PathBuf>,
    /// Adjudicate a draw once the game has reached full move N and every engine asked (all
    /// three in Cat Chess, where the draw is the cats' win) has reported a score within CP
    /// centipawns of 0 on each of its last M moves: `movenumber=N movecount=M score=CP`.
    #[arg(long, value_name = "RULE")]
    pub draw: Option<String>,
    /// Adjudicate a loss for white or black once it has reported a score of -CP or worse (or a
    /// lost mate) on each of its last M moves: `movecount=M score=CP`.
    #[arg(long, value_name = "RULE")]
    pub resign: Option<String>,
    /// Adjudicate a draw (the cats' win in Cat Chess) after N full moves (moves of every seat).
    #[arg(long, value_name = "N")]
    pub maxmoves: Option<u32>,
    /// Statistics of the table and the SPRT: `pentanomial` (game pairs: the two games of an
    /// opening with the engines swapped, 0 to 2 points; fastchess's default) or `trinomial`
    /// (single games: win, draw, loss).
    #[arg(long, value_name = "MODEL", default_value = "pentanomial", value_parser = ["pentanomial", "trinomial"])]
    pub stats: String,
    /// Start the match, or go on with it if it was stopped: the one command for the first start
    /// and every restart (a requeued scheduler job runs it again). Its --pgn FILE holds the
    /// finished games and FILE.state the seed and settings; only the games not in FILE are played
    /// (the same schedule and openings), appended to FILE. With no FILE.state yet (and FILE absent
    /// or empty) the match starts; a FILE.state of other settings is refused. --games may grow.
    #[arg(long)]
    pub resume: bool,
    /// Play one slice of the match: rounds r (counted from 0) with r mod N = I - 1, whole rounds
    /// so that game pairs stay together. Every shard needs the same settings and --seed; run one
    /// per machine or scheduler task, then --merge their --pgn files. `auto`: I and N from a
    /// Slurm array task (SLURM_ARRAY_TASK_ID, _MIN, _MAX, _COUNT; `--array=1-N` or `0-(N-1)`), or
    /// as `auto/N` from a Kubernetes indexed Job's JOB_COMPLETION_INDEX (N: its completions). Not
    /// with --sprt (give it to --merge; --stop-file stops the shards).
    #[arg(long, value_name = "I/N|auto|auto/N")]
    pub shard: Option<String>,
    /// Join the records of a match's shards into one table with the same statistics, instead of
    /// playing; with --pgn FILE, also their records in schedule order (and FILE.state). Each
    /// input's FILE.state must record the same match (settings, seed, size, engines, shards; the
    /// odd file is named) and every game must be there (the missing shards and games are named)
    /// unless --partial. The engines are the state files'.
    #[arg(long, value_name = "PGN", num_args = 1..)]
    pub merge: Vec<String>,
    /// With --merge: the table of the games there are, though shards or games are missing (a
    /// test stopped early, a shard lost).
    #[arg(long, requires = "merge")]
    pub partial: bool,
    /// With --merge: merge again every 2 s as the shards write (their files need not exist yet),
    /// printing the result so far, until every game is in or the --sprt decides; then write
    /// --stop-file, which the shards look for before each game.
    #[arg(long, requires = "merge")]
    pub watch: bool,
    /// A match starts no game once FILE exists (those being played finish and count), as an SPRT
    /// decision stops it; its records stay valid to merge. `--merge --watch` writes FILE when its
    /// --sprt decides.
    #[arg(long, value_name = "FILE")]
    pub stop_file: Option<std::path::PathBuf>,
    /// With --merge: the match's size, for inputs without a state file (their settings are then
    /// not checked); with state files it must be theirs.
    /// The most the --log file may grow to, in MB (10^6 bytes); then a last line says it is cut off.
    #[arg(long, default_value_t = 1000, value_name = "MB")]
    pub log_limit: u64,
}

impl MatchArgs {
    fn config(&self) -> Result<MatchConfig, String> {
        let engines = self.engines.iter().map(|e| EngineSpec::parse(e)).collect::<Result<Vec<_>, _>>()?;
        let time_controls = self.tcs.iter().map(|t| parse_seat_tc(t)).collect::<Result<Vec<_>, _>>()?;
        Ok(MatchConfig {
            variant: self.variant,
            engines,
            games: self.games,
            concurrency: self.concurrency,
            time_controls,
            openings: self.openings.clone(),
            random_plies: self.random_plies,
            seed: self.seed,
            pgn: Some(self.pgn.clone()),
            // A number no Duration holds (negative, not a number, too large)
            // reads as the largest, which `validate` refuses.
            timeout: Duration::try_from_secs_f64(self.timeout).unwrap_or(Duration::MAX),
            time_margin: Duration::from_millis(self.time_margin),
            sprt: self.sprt.as_deref().map(SprtSpec::parse).transpose()?,
            event: self.event.clone(),
            log: self.log.clone(),
            log_limit: self.log_limit.saturating_mul(1_000_000),
            resume: self.resume,
            shard: self.shard.as_deref().map(str::parse).transpose()?,
            merge: self.merge.clone(),
            partial: self.partial,
            watch: self.watch,
            stop_file: self.stop_file.clone(),
            model: if self.stats == "trinomial" { Model::Trinomial } else { Model::Pentanomial },
            adjudication: Adjudication {
                draw: self.draw.as_deref().map(DrawRule::parse).transpose()?,
                resign: self.resign.as_deref().map(ResignRule::parse).transpose()?,
                max_moves: self.maxmoves,
            },
        })
    }
}

pub fn run() -> ExitCode {
    catchess_games::init();
    let cli = Cli::parse();
    if cli.variant.is_some() && cli.command.is_some() {
        eprintln!(
            "error: --variant before a subcommand sets the engine's variant; give the subcommand its own --variant"
        );
        return ExitCode::FAILURE;
    }
    let result = match cli.command {
        Some(Command::Perft { depth, fen, variant, divide, suite }) => {
            crate::perft::command(variant, fen.as_deref(), depth, divide, suite.as_deref())
        }
        Some(Command::Bench { hash_mb, threads_n, depth_n, depth, variant, all, hash, threads, eval_file }) => {
            use catchess_engine::bench::{self, Games};
            let games =
                if all { Games::All } else { Games::One(variant.unwrap_or(catchess_engine::defaults::BENCH_GAME)) };
            bench::command(hash_mb.or(hash), threads_n.or(threads), depth_n.or(depth), games, eval_file)
        }
        Some(Command::Match(args)) => match args.config().and_then(|config| tournament::command(&config)) {
            Ok(code) => return code,
            Err(e) => Err(e),
        },
        Some(Command::Sprt { pairs, sprt }) => sprt_command(&pairs, &sprt),
        Some(Command::Pgn { action: PgnCommand::Check { file, variant } }) => {
            tournament::check::command(&file, variant)
        }
        Some(Command::Pgn { action: PgnCommand::Stats { file, engine, variant } }) => {
            tournament::review::command(&file, &engine, variant)
        }
        #[cfg(feature = "web")]
        Some(Command::Serve(config)) => catchess_serve::run(config),
        Some(Command::Tune(args)) => catchess_tune::command(args.variant, &args.tune_args()),
        Some(Command::Train(args)) => {
            args.train_args().and_then(|train| catchess_tune::nnue::command(train, args.init.as_deref(), &args.out))
        }
        Some(Command::Datagen(args)) => catchess_datagen::command(&args),
        Some(Command::Calibrate(args)) => catchess_datagen::calibrate::command(&args),
        Some(Command::Tb { action }) => return crate::tb_cli::run(action),
        Some(Command::Random) => {
            let stdin = std::io::stdin();
            catchess_uci::random::run(stdin.lock(), catchess_uci::Output::new(std::io::stdout()));
            Ok(())
        }
        None => {
            let stdin = std::io::stdin();
            catchess_uci::run(stdin.lock(), catchess_uci::Output::new(std::io::stdout()), cli.variant);
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `catchess sprt`: the joined statistics of several runs' game pairs.
fn sprt_command(pairs: &[String], sprt: &str) -> Result<(), String> {
    let spec = SprtSpec::parse(sprt)?;
    let runs = pairs.iter().map(|p| tournament::standings::parse_pairs(p)).collect::<Result<Vec<_>, _>>()?;
    print!("{}", tournament::standings::joined_report(&runs, &spec)?);
    Ok(())
}

impl TuneCliArgs {
    fn tune_args(&self) -> catchess_tune::TuneArgs {
        // The command line, for the weights file's header.
        let quoted: Vec<String> =
            std::env::args().map(|a| if a.contains(char::is_whitespace) { format!("'{a}'") } else { a }).collect();
        catchess_tune::TuneArgs {
            records: self.records.clone(),
            filter: catchess_tune::data::Filter { skip_plies: self.skip_plies },
            settings: catchess_tune::fit::Settings {
                epochs: self.epochs,
                rate: self.rate,
                threads: self.threads.max(1),
                prior: self.prior,
            },
            lambda: self.lambda,
            freeze: self.freeze.clone(),
            out: self.out.clone(),
            command: quoted.join(" "),
        }
    }
}

impl TrainCliArgs {
    /// The settings; the network to start from is read by the command.
    fn train_args(&self) -> Result<catchess_tune::nnue::TrainArgs, String> {
        use catchess_games::nnue::Kind;
        Ok(catchess_tune::nnue::TrainArgs {
            game: catchess_tune::nnue::TrainGame::of(self.variant)?,
            records: self.records.clone(),
            data: self.data.clone(),
            filter: catchess_tune::data::Filter { skip_plies: self.skip_plies },
            settings: catchess_tune::nnue::Settings {
                epochs: self.epochs,
                rate: self.rate,
                final_rate: self.final_rate.unwrap_or(self.rate),
                batch: self.batch,
                threads: self.threads.max(1),
                seed: self.seed,
                kind: if self.correction { Kind::Correction } else { Kind::Whole },
            },
            lambda: self.lambda,
            init: None,
        })
    }
}
