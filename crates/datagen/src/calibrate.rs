//! `catchess calibrate`: the playing levels (`catchess_engine::Level`)
//! measured in a game itself, by games inside the process between the
//! engine at a fixed level (the stand-in) and the engine at every level.
//!
//! Two layouts, because a level has two jobs:
//!
//! * `person`: the stand-in (the engine at `--stand-in`, standing for a
//!   person) plays `--seat`, every other seat plays the level under test.
//!   It answers "can a beginner beat level 1?": how often the stand-in
//!   wins, how often within `--within` moves, and how long its wins take.
//! * `level`: the level under test plays `--seat`, every other seat plays
//!   the stand-in. It answers "does each level play its seat better than
//!   the one below?": the level's own wins should climb.
//!
//! Every search is limited by nodes (`--nodes`, with the level's depth), and
//! every game's randomness (the weakened picks, a 10×10 roll) comes from a
//! generator seeded by (seed, level, game): the table is the same whatever
//! `--threads` and the machine's load, so a table in the README is remade by
//! its command.

use catchess_engine::{defaults::HASH_MB, play_turn, Level};
use catchess_game::{rng_for, winner_name, History, Seat};
use catchess_games::{with_game, Playable, VariantKind};
use catchess_search::{Limits, SearchControl, Searcher, Skill, Strength};
use rand::Rng;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// A game still going after this many full moves ends as the rules' draw
/// would (in Cat Chess the cats' win): calibration games are between
/// engines that may shuffle for ever.
pub const MAX_MOVES: u32 = 200;
/// The largest `--nodes` and `--games`: bounds a run's time.
pub const MAX_NODES: u64 = 10_000_000;
pub const MAX_GAMES: u64 = 100_000;

/// Who plays the seat named by `--seat`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// The stand-in plays the seat, the level under test every other seat.
    Person,
    /// The level under test plays the seat, the stand-in every other seat.
    Level,
}

/// `catchess calibrate` options.
#[derive(clap::Args, Debug)]
pub struct CalibrateArgs {
    /// The game.
    #[arg(long, default_value = "catchess")]
    pub variant: VariantKind,
    /// Who plays --seat: the stand-in (`person`) or the level under test (`level`).
    #[arg(long, value_enum, default_value_t = Layout::Person)]
    pub layout: Layout,
    /// The seat whose results the table counts, by the game's name for it.
    #[arg(long, default_value = "white")]
    pub seat: String,
    /// The level of the engine that stands in for a person (1..=8).
    #[arg(long, default_value = "3")]
    pub stand_in: Level,
    /// The levels measured: a list (`1,2,5`) or a range (`1-8`).
    #[arg(long, default_value = "1-8")]
    pub levels: String,
    /// Games per level.
    #[arg(long, default_value_t = 20)]
    pub games: u64,
    /// Each search's soft node limit (levels below the full strength also stop at their depth).
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// The table counts the seat's wins that end within this many full moves.
    #[arg(long, default_value_t = 40)]
    pub within: u32,
    /// Seeds every game: game i of level L is the same in every run with this seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once, each on one core (the table does not depend on it).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// The checked settings of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub variant: VariantKind,
    pub layout: Layout,
    pub seat: Seat,
    pub stand_in: Level,
    pub levels: Vec<Level>,
    pub games: u64,
    pub nodes: u64,
    pub within: u32,
    pub seed: u64,
    pub threads: usize,
}

impl CalibrateArgs {
    pub fn settings(&self) -> Result<Settings, String> {
        let seats = with_game!(self.variant, G => <G as catchess_game::Game>::SEATS);
        let names: Vec<&str> = seats.iter().map(|s| s.name).collect();
        let seat = names.iter().position(|&n| n == self.seat).map(Seat::new).ok_or_else(|| {
            format!("--seat: {} has no seat {:?} (its seats: {})", self.variant, self.seat, names.join(", "))
        })?;
        let max_threads = catchess_engine::defaults::THREADS_MAX;
        if !(1..=max_threads).contains(&self.threads) {
            return Err(format!("--threads must be 1..={max_threads}, got {}", self.threads));
        }
        if !(1..=MAX_GAMES).contains(&self.games) {
            return Err(format!("--games must be 1..={MAX_GAMES}, got {}", self.games));
        }
        if !(1..=MAX_NODES).contains(&self.nodes) {
            return Err(format!("--nodes must be 1..={MAX_NODES}, got {}", self.nodes));
        }
        if !(1..=MAX_MOVES).contains(&self.within) {
            return Err(format!("--within must be 1..={MAX_MOVES} moves, got {}", self.within));
        }
        Ok(Settings {
            variant: self.variant,
            layout: self.layout,
            seat,
            stand_in: self.stand_in,
            levels: parse_levels(&self.levels).map_err(|e| format!("--levels: {e}"))?,
            games: self.games,
            nodes: self.nodes,
            within: self.within,
            seed: self.seed,
            threads: self.threads,
        })
    }
}

/// `1-8`, `1,2,5` or `3`: the levels in rising order, each once.
fn parse_levels(text: &str) -> Result<Vec<Level>, String> {
    let mut levels = Vec::new();
    for part in text.split(',') {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (a.parse::<Level>()?, b.parse::<Level>()?);
                if a > b {
                    return Err(format!("{part:?}: a range goes from the lower level up"));
                }
                levels.extend(Level::all().filter(|l| (a..=b).contains(l)));
            }
            None => levels.push(part.parse::<Level>()?),
        }
    }
    levels.sort();
    levels.dedup();
    Ok(levels)
}

/// How one game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// `None`: a draw that rewards nobody (chess, xiangqi).
    pub winner: Option<Seat>,
    /// The full move of the game's last turn (its first move is 1).
    pub moves: u32,
}

/// Plays one game with each seat at `strengths[seat]` (`None`: full
/// strength), every search at `nodes` soft nodes; randomness from `rng_for(seed, index)`.
pub fn play_game<G: Playable>(
    searcher: &mut Searcher<G>,
    strengths: &[Option<Skill>],
    nodes: u64,
    seed: u64,
    index: u64,
) -> GameEnd {
    let mut rng = rng_for(seed, index);
    let limits = Limits { soft_nodes: Some(nodes), nodes: Some(nodes.saturating_mul(8)), ..Limits::default() };
    let seats = G::SEATS.len();
    let moves = |history: &History<G>| (history.turn_count().max(1) - 1) as u32 / seats as u32 + 1;
    let mut history = History::new(G::startpos());
    searcher.clear();
    loop {
        if let Some(o) = history.outcome() {
            return GameEnd { winner: o.winner, moves: moves(&history) };
        }
        if history.turn_count() as u32 >= MAX_MOVES * seats as u32 {
            return GameEnd { winner: G::draw_winner(), moves: MAX_MOVES };
        }
        let pos = *history.current();
        if pos.is_chance() {
            if history.roll(&mut rng).is_none() {
                return GameEnd { winner: G::draw_winner(), moves: moves(&history) };
            }
            continue;
        }
        let strength = Strength::new(strengths[pos.to_move().index()], rng.gen());
        let turn = play_turn(&history, searcher, &limits, &[], strength, &SearchControl::new(), &mut |_| {});
        match turn.steps {
            Some(steps) => steps.into_iter().for_each(|m| history.push(m)),
            // The rules answer a position without moves; a search does not fail.
            None => return GameEnd { winner: G::draw_winner(), moves: moves(&history) },
        }
    }
}

/// One level's games, tallied.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Row {
    pub level: u8,
    /// Wins per seat (seat order) and draws that reward nobody.
    pub wins: Vec<u64>,
    pub draws: u64,
    /// The counted seat's wins within `within` moves.
    pub quick: u64,
    /// Move counts of the counted seat's wins, sorted.
    pub win_lengths: Vec<u32>,
}

impl Row {
    pub fn games(&self) -> u64 {
        self.wins.iter().sum::<u64>() + self.draws
    }

    /// The median length of the counted seat's wins.
    pub fn median(&self) -> Option<u32> {
        self.win_lengths.get(self.win_lengths.len() / 2).copied()
    }
}

/// Plays every game of the run and tallies a row per level.
pub fn run<G: Playable>(settings: &Settings, mut progress: impl FnMut(usize, usize) + Send) -> Vec<Row> {
    let jobs: Vec<(usize, u64)> =
        (0..settings.levels.len()).flat_map(|l| (0..settings.games).map(move |g| (l, g))).collect();
    let ends: Mutex<Vec<Option<GameEnd>>> = Mutex::new(vec![None; jobs.len()]);
    let next = AtomicUsize::new(0);
    let done = Mutex::new((0usize, &mut progress));
    std::thread::scope(|scope| {
        for _ in 0..settings.threads.min(jobs.len()) {
            scope.spawn(|| {
                let mut searcher = Searcher::<G>::new(HASH_MB);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(l, g)) = jobs.get(i) else { break };
                    let level = settings.levels[l];
                    let strengths: Vec<Option<Skill>> = (0..G::SEATS.len())
                        .map(|s| match (s == settings.seat.index(), settings.layout) {
                            (true, Layout::Person) | (false, Layout::Level) => settings.stand_in.skill(),
                            _ => level.skill(),
                        })
                        .collect();
                    // One game index per (level, game): a level's games do
                    // not depend on which other levels are measured.
                    let index = u64::from(level.number()) << 32 | g;
                    let end = play_game(&mut searcher, &strengths, settings.nodes, settings.seed, index);
                    ends.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(end);
                    let mut d = done.lock().unwrap_or_else(|p| p.into_inner());
                    d.0 += 1;
                    let finished = d.0;
                    (d.1)(finished, jobs.len());
                }
            });
        }
    });
    let ends = ends.into_inner().unwrap_or_else(|p| p.into_inner());
    let mut rows: Vec<Row> = settings
        .levels
        .iter()
        .map(|l| Row { level: l.number(), wins: vec![0; G::SEATS.len()], ..Row::default() })
        .collect();
    for (&(l, _), end) in jobs.iter().zip(ends) {
        let end = end.expect("every game was played");
        let row = &mut rows[l];
        match end.winner {
            Some(w) => row.wins[w.index()] += 1,
            None => row.draws += 1,
        }
        if end.winner == Some(settings.seat) {
            row.quick += u64::from(end.moves <= settings.within);
            row.win_lengths.push(end.moves);
        }
    }
    rows.iter_mut().for_each(|r| r.win_lengths.sort_unstable());
    rows
}

/// The table in Markdown (as the README shows it), with its command.
pub fn table<G: Playable>(settings: &Settings, rows: &[Row]) -> String {
    let seat = G::SEATS[settings.seat.index()].name;
    let who = match settings.layout {
        Layout::Person => format!("the stand-in (level {}) as {seat}, level L in every other seat", settings.stand_in),
        Layout::Level => format!("level L as {seat}, the stand-in (level {}) in every other seat", settings.stand_in),
    };
    let mut out = format!(
        "{}: {who}; {} games a level, {} nodes a move, seed {}\n\n",
        settings.variant, settings.games, settings.nodes, settings.seed
    );
    let mut head = String::from("| L |");
    let mut rule = String::from("| --- |");
    for s in G::SEATS {
        let _ = write!(head, " {} wins |", s.name);
        rule.push_str(" --- |");
    }
    if G::draw_winner().is_none() {
        head.push_str(" draws |");
        rule.push_str(" --- |");
    }
    let owner = if seat.ends_with('s') { format!("{seat}'") } else { format!("{seat}'s") };
    let _ = write!(head, " {seat} within {} moves | {owner} median moves |", settings.within);
    rule.push_str(" --- | --- |");
    let _ = writeln!(out, "{head}\n{rule}");
    for r in rows {
        let mut line = format!("| {} |", r.level);
        r.wins.iter().for_each(|w| {
            let _ = write!(line, " {w} |");
        });
        if G::draw_winner().is_none() {
            let _ = write!(line, " {} |", r.draws);
        }
        let median = r.median().map_or("–".to_string(), |m| m.to_string());
        let _ = writeln!(line, " {} | {median} |", r.quick);
        out.push_str(&line);
    }
    let draws_to = G::draw_winner().map(|w| winner_name::<G>(Some(w)));
    if let Some(name) = draws_to {
        let _ = writeln!(out, "\nDraws, and games still going after {MAX_MOVES} moves, count as {name} wins.");
    }
    out
}

/// `catchess calibrate`.
pub fn command(args: &CalibrateArgs) -> Result<(), String> {
    let settings = args.settings()?;
    let text = with_game!(settings.variant, G => {
        // A count on a terminal only: a log keeps the table alone.
        let terminal = std::io::stderr().is_terminal();
        let rows = run::<G>(&settings, |done, all| if terminal { eprint!("\r{done}/{all} games") });
        if terminal {
            eprintln!();
        }
        table::<G>(&settings, &rows)
    });
    print!("{text}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_games::CatChess;

    fn args(levels: &str) -> CalibrateArgs {
        CalibrateArgs {
            variant: VariantKind::CatChess,
            layout: Layout::Person,
            seat: "white".into(),
            stand_in: Level::new(3).unwrap(),
            levels: levels.into(),
            games: 2,
            nodes: 300,
            within: 40,
            seed: 5,
            threads: 1,
        }
    }

    #[test]
    fn levels_and_seats_are_checked_with_words() {
        let l = |n| Level::new(n).unwrap();
        assert_eq!(parse_levels("1-3,5,2"), Ok(vec![l(1), l(2), l(3), l(5)]));
        assert_eq!(parse_levels("3-1").unwrap_err(), "\"3-1\": a range goes from the lower level up");
        assert_eq!(parse_levels("0").unwrap_err(), "level must be 1..=8, got 0");
        assert_eq!(parse_levels("").unwrap_err(), "level must be a number 1..=8, got \"\"");
        let mut a = args("1");
        a.seat = "red".into();
        assert_eq!(a.settings().unwrap_err(), "--seat: catchess has no seat \"red\" (its seats: white, black, cats)");
        let mut a = args("1");
        a.games = 0;
        assert_eq!(a.settings().unwrap_err(), "--games must be 1..=100000, got 0");
        let mut a = args("1");
        a.within = 0;
        assert!(a.settings().unwrap_err().starts_with("--within must be"));
        assert_eq!(args("8-7").settings().unwrap_err(), "--levels: \"8-7\": a range goes from the lower level up");
    }

    #[test]
    fn the_table_is_the_same_on_any_thread_count_and_counts_every_game() {
        let mut a = args("1,8");
        let one = run::<CatChess>(&a.settings().unwrap(), |_, _| {});
        a.threads = 2;
        let two = run::<CatChess>(&a.settings().unwrap(), |_, _| {});
        assert_eq!(one, two);
        assert_eq!(one.iter().map(Row::games).collect::<Vec<_>>(), [2, 2]);
        assert_eq!(one.iter().map(|r| r.level).collect::<Vec<_>>(), [1, 8]);
        for r in &one {
            assert_eq!(r.draws, 0, "Cat Chess's draws are the cats' wins");
            assert_eq!(r.win_lengths.len() as u64, r.wins[0]);
            assert!(r.quick <= r.wins[0]);
        }
        let text = table::<CatChess>(&a.settings().unwrap(), &one);
        assert!(text.contains("| L | white wins | black wins | cats wins | white within 40 moves |"), "{text}");
        assert!(text.contains("count as cats wins"), "{text}");
    }

    #[test]
    fn a_game_between_levels_ends_by_the_rules_or_the_move_limit() {
        let mut searcher = Searcher::<CatChess>::new(1);
        let weakest = Level::MIN.skill();
        let end = play_game(&mut searcher, &[Level::MAX.skill(), weakest, weakest], 2000, 1, 0);
        assert!((1..=MAX_MOVES).contains(&end.moves), "{end:?}");
        // Game i is the same game every time.
        assert_eq!(end, play_game(&mut searcher, &[Level::MAX.skill(), weakest, weakest], 2000, 1, 0));
    }
}
