//! `catchess datagen`: training data for evaluation networks from the
//! engine's own play, inside the process (no protocol, no PGN): each game a
//! seeded random opening, then node-limited searches for every seat, every
//! quiet position's search score and the game's result written in a
//! compact binary format. The same command makes the same bytes, whatever
//! `--threads` and the machine's load, so data lost with a machine is made
//! again by the same command; a stopped run goes on where it stopped.
//!
//! | file | what it owns |
//! | --- | --- |
//! | `mod.rs` | the command's options, checked ([`DatagenArgs`] to [`Settings`]) |
//! | `play.rs` | one game: the opening, the node budgets, adjudication, what is recorded |
//! | `run.rs` | the threads, the games written in order, the closing summary |
//! | `output.rs` | the data file and its state file: resuming after a stop |
//! | `format/` | the file formats: bulletformat for chess, the project's own for the rest |
//! | `progress.rs` | the progress bar |
//! | `calibrate.rs` | `catchess calibrate`: the playing levels measured by games between them |

pub mod calibrate;
pub mod format;
mod output;
pub mod play;
mod progress;
pub mod run;

use catchess_core::shard::Shard;
use catchess_games::{with_game, VariantKind};
pub use play::NodeLimits;
use std::ops::Range;

/// The largest `--nodes`: a search of a billion nodes is no data game.
pub const MAX_NODES: u64 = 1_000_000_000;

/// `catchess datagen` options.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("target").required(true).args(["games", "positions"])))]
pub struct DatagenArgs {
    /// The game.
    #[arg(long)]
    pub variant: VariantKind,
    /// The data file. Run the same command again to go on with a run that stopped (its state is
    /// in FILE.state), or with a larger --games or --positions to add to a finished one.
    #[arg(long, value_name = "FILE")]
    pub out: String,
    /// Games played at once, each on one core (the data does not depend on it).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Games in the run (with --shard: in the whole run, of which the shard plays its slice).
    #[arg(long)]
    pub games: Option<u64>,
    /// Play games until the file holds at least this many positions.
    #[arg(long)]
    pub positions: Option<u64>,
    /// Seeds every game: game i of a run is the same in every run with this seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play slice I of N of the run's --games: games floor((I-1)·G/N) up to floor(I·G/N), so the
    /// shards' records, in shard order, are exactly one run's. Every shard needs the same settings.
    /// `auto`: I and N from a Slurm array task (SLURM_ARRAY_TASK_ID, _MIN, _COUNT) or, as `auto/N`,
    /// a Kubernetes indexed Job's JOB_COMPLETION_INDEX.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Each move's soft node limit (the search ends with the iteration that passes it); each
    /// seat's is this ±5 % (drawn per game), the hard cap 8 times it.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// One seat's own soft node limit instead of --nodes, by the game's name for the seat
    /// (repeatable): weaker cats give Cat Chess data with white's and black's mates, which the
    /// cats at full strength nearly never allow (e.g. `cats=1`: one iteration, depth-1 cats).
    #[arg(long = "seat-nodes", value_name = "SEAT=N")]
    pub seat_nodes: Vec<String>,
    /// What the searches evaluate with, as the protocol's EvalFile: a network file (for the game
    /// its first bytes name), `<none>` (the hand-made evaluation: how the data of the networks
    /// built in so far was made) or, by default, each game's built-in network. The state file's
    /// search fingerprint follows it, so a run is never resumed with another evaluation.
    #[arg(long = "eval-file", value_name = "FILE")]
    pub eval_file: Option<String>,
}

/// How much data a run makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Games(u64),
    Positions(u64),
}

/// The checked settings of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub variant: VariantKind,
    pub out: String,
    pub threads: usize,
    pub target: Target,
    pub seed: u64,
    pub shard: Option<Shard>,
    pub nodes: NodeLimits,
}

impl DatagenArgs {
    pub fn settings(&self) -> Result<Settings, String> {
        if self.out.is_empty() {
            return Err("--out: give the data file".to_string());
        }
        let max = catchess_engine::defaults::THREADS_MAX;
        if !(1..=max).contains(&self.threads) {
            return Err(format!("--threads must be 1..={max}, got {}", self.threads));
        }
        let nodes = self.node_limits()?;
        let target = match (self.games, self.positions) {
            (Some(0), _) | (_, Some(0)) => return Err("--games and --positions must be at least 1".to_string()),
            // A game's number is 32 bits in the records.
            (Some(g), _) if g > 1 << 32 => return Err(format!("--games must be at most {}", 1u64 << 32)),
            (Some(g), None) => Target::Games(g),
            (None, Some(p)) => Target::Positions(p),
            _ => return Err("give one of --games and --positions".to_string()),
        };
        let shard = self.shard.as_deref().map(str::parse::<Shard>).transpose()?;
        if shard.is_some() && matches!(target, Target::Positions(_)) {
            return Err("--shard needs --games: each shard plays a fixed slice of the run's games".to_string());
        }
        Ok(Settings {
            variant: self.variant,
            out: self.out.clone(),
            threads: self.threads,
            target,
            seed: self.seed,
            shard,
            nodes,
        })
    }

    /// `--nodes` and `--seat-nodes`, checked against the game's seats.
    fn node_limits(&self) -> Result<NodeLimits, String> {
        let check = |what: &str, n: u64| match (1..=MAX_NODES).contains(&n) {
            true => Ok(n),
            false => Err(format!("{what} must be 1..={MAX_NODES}, got {n}")),
        };
        let base = check("--nodes", self.nodes)?;
        let seats = with_game!(self.variant, G => <G as catchess_game::Game>::SEATS);
        let mut per_seat = vec![None; seats.len()];
        for spec in &self.seat_nodes {
            let bad = |why: String| format!("--seat-nodes {spec:?}: {why}");
            let (name, n) = spec.split_once('=').ok_or_else(|| bad("expected SEAT=N (e.g. cats=100)".into()))?;
            let names: Vec<&str> = seats.iter().map(|s| s.name).collect();
            let seat = names.iter().position(|&s| s == name).ok_or_else(|| {
                bad(format!("{} has no seat {name:?} (its seats: {})", self.variant, names.join(", ")))
            })?;
            let n = n.parse::<u64>().map_err(|_| bad("N must be a whole number".into()))?;
            if per_seat[seat].replace(check("--seat-nodes", n)?).is_some() {
                return Err(bad(format!("{name} is given twice")));
            }
        }
        Ok(NodeLimits { base, seats: per_seat.into_iter().map(|n| n.unwrap_or(base)).collect() })
    }
}

impl Settings {
    /// The game indices this run may play (open-ended for `--positions`).
    pub fn games(&self) -> Range<u64> {
        match (self.target, self.shard) {
            (Target::Games(g), Some(shard)) => shard.slice(g),
            (Target::Games(g), None) => 0..g,
            (Target::Positions(_), _) => 0..u64::MAX,
        }
    }

    /// Everything the file's bytes depend on, for its state file: the game,
    /// the format, the seed, the nodes, the search (`fingerprint`, a bench
    /// node count) and a shard's slice. Not the thread count, and not an
    /// unsharded run's target, which may grow.
    fn describe(&self, format: &str, fingerprint: u64) -> String {
        let shard = match (self.shard, self.target) {
            (Some(s), Target::Games(g)) => format!(" | shard {s} of {g} games"),
            _ => String::new(),
        };
        format!(
            "variant {} | format {format} | seed {} | nodes {} | search {fingerprint}{shard}",
            self.variant,
            self.seed,
            with_game!(self.variant, G => self.nodes.describe(<G as catchess_game::Game>::SEATS))
        )
    }
}

/// `catchess datagen`.
pub fn command(args: &DatagenArgs) -> Result<(), String> {
    let settings = args.settings()?;
    if let Some(file) = &args.eval_file {
        catchess_engine::bench::choose_eval_file(file).map_err(|e| format!("--eval-file: {e}"))?;
    }
    let summary = with_game!(settings.variant, G => run::run::<G>(&settings))?;
    println!("{summary}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_game::Seat;

    fn args(variant: VariantKind, out: &str) -> DatagenArgs {
        DatagenArgs {
            variant,
            out: out.to_string(),
            threads: 1,
            games: Some(4),
            positions: None,
            seed: 3,
            shard: None,
            nodes: 300,
            seat_nodes: Vec::new(),
            eval_file: None,
        }
    }

    #[test]
    fn bad_settings_are_refused_with_a_reason() {
        let base = || args(VariantKind::Chess, "x.bin");
        let cases: Vec<(DatagenArgs, &str)> = vec![
            (DatagenArgs { threads: 0, ..base() }, "--threads"),
            (DatagenArgs { nodes: 0, ..base() }, "--nodes"),
            (DatagenArgs { nodes: MAX_NODES + 1, ..base() }, "--nodes"),
            (
                DatagenArgs { seat_nodes: vec!["cats=9".into()], ..base() },
                "chess has no seat \"cats\" (its seats: white, black)",
            ),
            (DatagenArgs { seat_nodes: vec!["black".into()], ..base() }, "expected SEAT=N"),
            (DatagenArgs { seat_nodes: vec!["black=x".into()], ..base() }, "whole number"),
            (DatagenArgs { seat_nodes: vec!["black=0".into()], ..base() }, "must be 1.."),
            (DatagenArgs { seat_nodes: vec!["black=5".into(), "black=6".into()], ..base() }, "given twice"),
            (DatagenArgs { games: Some(0), ..base() }, "at least 1"),
            (DatagenArgs { games: None, positions: Some(0), ..base() }, "at least 1"),
            (DatagenArgs { games: Some(1 << 40), ..base() }, "at most"),
            (DatagenArgs { out: String::new(), ..base() }, "--out"),
            (DatagenArgs { shard: Some("3/2".into()), ..base() }, "--shard"),
            (DatagenArgs { games: None, positions: Some(9), shard: Some("1/2".into()), ..base() }, "needs --games"),
        ];
        for (a, what) in cases {
            let e = a.settings().unwrap_err();
            assert!(e.contains(what), "{e}");
        }
        let s = DatagenArgs { shard: Some("2/2".into()), ..base() }.settings().unwrap();
        assert_eq!(s.games(), 2..4);
        assert!(s.describe("f", 9).ends_with("search 9 | shard 2/2 of 4 games"));
        let unsharded = base().settings().unwrap().describe("f", 9);
        assert!(!unsharded.contains("games"), "an unsharded run's target may grow: {unsharded}");
        let cats = DatagenArgs { seat_nodes: vec!["cats=40".into()], ..args(VariantKind::CatChess, "x") };
        let cats = cats.settings().unwrap();
        assert_eq!(cats.nodes, NodeLimits { base: 300, seats: vec![300, 300, 40] });
        assert!(cats.describe("f", 9).contains("| nodes 300 (cats 40) |"), "{}", cats.describe("f", 9));
    }

    /// A path in the temporary directory, with no file or state there.
    fn temp(name: &str) -> String {
        let path = std::env::temp_dir().join(format!("catchess-datagen-{}-{name}", std::process::id()));
        let path = path.to_string_lossy().into_owned();
        remove(&path);
        path
    }

    fn remove(path: &str) {
        let _ = std::fs::remove_file(path);
        let _ = std::fs::remove_file(output::state_path(path));
    }

    fn made(a: &DatagenArgs) -> Vec<u8> {
        let settings = a.settings().unwrap();
        with_game!(settings.variant, G => run::run::<G>(&settings)).unwrap();
        let bytes = std::fs::read(&a.out).unwrap();
        remove(&a.out);
        bytes
    }

    #[test]
    fn the_same_seed_makes_the_same_bytes_with_one_thread_or_two() {
        let out = temp("same");
        for variant in [VariantKind::Chess, VariantKind::CatChess] {
            let one = made(&args(variant, &out));
            assert!(one.len() > 32, "{variant}: some positions");
            assert_eq!(made(&args(variant, &out)), one, "{variant}: run again");
            assert_eq!(made(&DatagenArgs { threads: 2, ..args(variant, &out) }), one, "{variant}: two threads");
            assert_ne!(made(&DatagenArgs { seed: 4, ..args(variant, &out) }), one, "{variant}: another seed");
        }
    }

    #[test]
    fn shards_together_are_one_run() {
        let out = temp("shards");
        let a = || DatagenArgs { games: Some(5), ..args(VariantKind::Xiangqi, &out) };
        let whole = made(&a());
        let header = format::own::HEADER_BYTES;
        let mut joined = whole[..header].to_vec();
        for shard in ["1/3", "2/3", "3/3"] {
            let part = made(&DatagenArgs { shard: Some(shard.into()), ..a() });
            assert_eq!(part[..header], whole[..header], "each shard has the header");
            joined.extend(&part[header..]);
        }
        assert_eq!(joined, whole);
    }

    #[test]
    fn a_stopped_run_goes_on_to_the_same_file_and_a_finished_one_grows() {
        let out = temp("resume");
        let a = |games: u64| DatagenArgs { games: Some(games), ..args(VariantKind::CatChess, &out) };
        let whole = made(&a(4));
        let run = |a: &DatagenArgs| {
            let settings = a.settings().unwrap();
            with_game!(settings.variant, G => run::run::<G>(&settings)).unwrap()
        };
        // Two games, then a third written in part when the run was killed.
        run(&a(2));
        let two = std::fs::read(&out).unwrap().len();
        let torn = &whole[two..(two + 50).min(whole.len())];
        std::io::Write::write_all(&mut std::fs::OpenOptions::new().append(true).open(&out).unwrap(), torn).unwrap();
        // The same command with a larger target goes on from game 2.
        let summary = run(&a(4));
        assert_eq!((summary.games, summary.file_games), (2, 4));
        assert_eq!(std::fs::read(&out).unwrap(), whole);
        // Finished: nothing more to do.
        let again = run(&a(4));
        assert_eq!((again.games, again.file_games), (0, 4));
        assert_eq!(std::fs::read(&out).unwrap(), whole);
        remove(&out);
    }

    #[test]
    fn cat_chess_data_has_three_outcomes_and_no_cats_to_move() {
        let out = temp("cats");
        let bytes = made(&DatagenArgs { games: Some(6), ..args(VariantKind::CatChess, &out) });
        let reader = format::own::Reader::new(bytes.as_slice()).unwrap();
        assert_eq!(reader.header().variant, "catchess");
        let records: Vec<format::own::Record> = reader.collect::<Result<_, _>>().unwrap();
        assert!(!records.is_empty());
        let mut games: Vec<u32> = records.iter().map(|r| r.game).collect();
        games.dedup();
        assert!(games.windows(2).all(|w| w[0] < w[1]), "games in order");
        for r in &records {
            assert!(r.seat.index() < 2, "white or black to move");
            assert!(r.winner.is_some(), "every Cat Chess game has a winner: a draw is the cats' win");
            assert_eq!(r.squares().filter(|&(_, c)| c == '*').count(), 2, "both cats on the board");
        }
        let cats = records.iter().filter(|r| r.winner == Some(Seat::new(2))).count();
        assert!(cats > 0, "the cats win some games at 300 nodes");
    }
}
