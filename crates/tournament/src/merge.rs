//! `catchess match --merge`: the records of a match played in slices
//! (`--shard`) joined into one table with the same statistics and, with
//! `--pgn FILE`, one records file in schedule order with its own state
//! file (a merged match is a match like any other: `--resume` goes on
//! with it, `--merge` takes it again).
//!
//! A merge publishes a result, so it refuses what would make it wrong:
//! every input's state file (beside it, as `catchess match --pgn` writes
//! it) must record the same match (settings, seed, size, engines, number
//! of shards; the odd file is named); no shard may come twice; every game
//! must be seated as the schedule seats it and belong to its file's
//! shard; and every game of the match must be there, the missing shards
//! and games named, unless `--partial` asks for the table of the games
//! there are. An input without a state file (or with one of version 1) is
//! taken on trust only with `--games N`.
//!
//! `--watch` merges again as the shards write (their files need not exist
//! yet), prints the running result, and stops once the match is complete
//! or its SPRT decides; then it writes `--stop-file`, which the shards
//! look for before each game: the test spread over shards stops as one
//! match stops at its decision.

use super::config::{seat_pins, MatchConfig};
use super::play::GameReport;
use super::progress::score_parts;
use super::resume::{self, complete_prefix, record_chunks, reports, State};
use super::schedule::{self, pair_of};
use super::signals;
use super::standings::Standings;
use super::MatchSummary;
use catchess_core::files::read_bounded;
use catchess_core::shard::Shard;
use catchess_game::pgn::record::capitalised;
use catchess_game::pgn::{self, MAX_PGN_BYTES};
use catchess_game::{Arbitration, Notation};
use std::path::Path;
use std::time::{Duration, Instant};

/// How often `--watch` reads its inputs again.
const WATCH_EVERY: Duration = Duration::from_secs(2);
/// At most this many runs of missing game numbers are listed.
const LISTED_RUNS: usize = 12;

/// One input of a merge: its complete records and its state file.
struct Input {
    path: String,
    /// `None`: there is no state file beside it, or one of version 1.
    state: Option<State>,
    /// Its state file is of version 1 (no size, engines or shard).
    old_state: bool,
    /// The complete records (`resume::complete_prefix`).
    text: String,
    /// Bytes after them: a record cut off (by a kill, or being written).
    cut: usize,
}

impl Input {
    fn read(path: &str) -> Result<Input, String> {
        let mut text = read_bounded(path, MAX_PGN_BYTES).map_err(|e| format!("cannot read {path}: {e}"))?;
        let complete = complete_prefix(&text);
        let cut = text.len() - complete;
        text.truncate(complete);
        let state_file = resume::state_path(path);
        let state = match Path::new(&state_file).exists() {
            true => Some(State::read(&state_file)?),
            false => None,
        };
        let old_state = state.as_ref().is_some_and(|s| s.version < 2);
        Ok(Input { path: path.to_string(), state: state.filter(|s| s.version >= 2), old_state, text, cut })
    }

    /// The inputs of `config` that exist (a shard not started has none).
    fn read_all(config: &MatchConfig) -> Result<(Vec<Input>, Vec<&str>), String> {
        let (mut inputs, mut absent) = (Vec::new(), Vec::new());
        for path in &config.merge {
            match Path::new(path).exists() {
                true => inputs.push(Input::read(path)?),
                false => absent.push(path.as_str()),
            }
        }
        Ok((inputs, absent))
    }
}

/// The inputs joined into one match.
struct Joined {
    games: Vec<GameReport>,
    standings: Standings,
    /// Games in the whole match.
    total: usize,
    /// What the inputs' state files agree on (`None` if none has one).
    state: Option<State>,
    /// What is missing, in words (empty: the match is complete).
    missing: Vec<String>,
    /// Notes for stderr: games beyond the match left out, unchecked inputs.
    notes: Vec<String>,
}

/// `--merge`: the joined table (once, or with `--watch` until the match
/// is complete or decided).
pub fn run<G: Notation + Arbitration>(config: &MatchConfig) -> Result<MatchSummary, String> {
    if config.watch {
        return watch::<G>(config);
    }
    let (inputs, absent) = Input::read_all(config)?;
    if inputs.is_empty() {
        return Err(format!("--merge: none of the inputs exists ({})", absent.join(", ")));
    }
    for input in inputs.iter().filter(|i| i.cut > 0) {
        eprintln!("merge: {}: a cut-off last record ({} bytes) left out", input.path, input.cut);
    }
    let joined = join::<G>(config, &inputs, &absent)?;
    joined.notes.iter().for_each(|n| eprintln!("merge: {n}"));
    let have = joined.games.len();
    if !joined.missing.is_empty() {
        let what = format!("{} of the match's {} games here: {}", have, joined.total, joined.missing.join("; "));
        if !config.partial {
            return Err(format!("--merge: {what}; add --partial for the table of the games there are"));
        }
        eprintln!("merge: --partial: {what}");
    }
    eprintln!("merge: {have} of {} games from {} files", joined.total, inputs.len());
    finish(config, joined, None)
}

/// `--merge --watch`: joins the inputs every `WATCH_EVERY` while they
/// change, printing the result so far, until every game is there, the
/// SPRT decides (then the stop file is written) or a signal comes.
fn watch<G: Notation + Arbitration>(config: &MatchConfig) -> Result<MatchSummary, String> {
    signals::install();
    if let Some(file) = config.stop_file.as_deref().filter(|f| f.exists()) {
        eprintln!("merge: --watch: {} exists already: the shards start no game", file.display());
    }
    let mut shown: Option<(usize, usize)> = None;
    loop {
        let (mut inputs, _) = Input::read_all(config)?;
        // A shard that has just started may have its records file and no
        // state file yet.
        inputs.retain(|i| i.state.is_some() || !i.text.is_empty() || i.old_state);
        if !inputs.is_empty() {
            let joined = join::<G>(config, &inputs, &[])?;
            let sprt = config.sprt.as_ref().map(|spec| joined.standings.sprt(spec, None));
            let seen = (joined.games.len(), inputs.len());
            if shown != Some(seen) {
                let parts = score_parts(joined.games.len(), joined.total, &joined.standings, sprt);
                eprintln!("merge: {} files | {}", inputs.len(), parts.join(" | "));
                shown = Some(seen);
            }
            if let Some(status) = sprt.filter(|s| s.decision.is_some()) {
                let verdict = format!("SPRT {} after {} games", status.verdict(), joined.games.len());
                if let Some(file) = &config.stop_file {
                    let text = format!("{verdict} (catchess match --merge --watch)\n");
                    std::fs::write(file, text).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
                    eprintln!("merge: {verdict}: wrote {}, the shards start no more games", file.display());
                } else {
                    eprintln!("merge: {verdict} (no --stop-file: the shards play on)");
                }
                return finish(config, joined, None);
            }
            if joined.missing.is_empty() {
                eprintln!("merge: all {} games are in", joined.total);
                return finish(config, joined, None);
            }
        } else if shown.is_none() {
            eprintln!("merge: --watch: waiting for {}", config.merge.join(", "));
            shown = Some((0, 0));
        }
        let until = Instant::now() + WATCH_EVERY;
        while Instant::now() < until {
            if let Some(sig) = signals::received() {
                eprintln!("merge: {} received: the table so far", signals::name(sig));
                let (inputs, absent) = Input::read_all(config)?;
                if inputs.is_empty() {
                    return Err(format!("{} received before any input was written", signals::name(sig)));
                }
                return finish(config, join::<G>(config, &inputs, &absent)?, Some(sig));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// The table of a joined match; with `--pgn FILE` its records there in
/// schedule order, and its state file as of a whole match.
fn finish(config: &MatchConfig, joined: Joined, interrupted: Option<i32>) -> Result<MatchSummary, String> {
    let sprt = config.sprt.as_ref().map(|spec| joined.standings.sprt(spec, None));
    if let Some(path) = config.pgn.as_deref().filter(|p| *p != "-") {
        let text: String = joined.games.iter().map(|r| r.record.as_str()).collect();
        std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))?;
        if let Some(state) = joined.state {
            State { shard: None, ..state }.write(&resume::state_path(path))?;
        }
    }
    let table = joined.standings.table(config.sprt.as_ref().zip(sprt));
    Ok(MatchSummary { games: joined.games, table, sprt, interrupted, log_error: None })
}

/// Joins `inputs` (`absent`: the inputs named that do not exist), with
/// every check of the module doc but completeness, which is reported in
/// `Joined::missing`.
fn join<G: Notation + Arbitration>(config: &MatchConfig, inputs: &[Input], absent: &[&str]) -> Result<Joined, String> {
    let mut notes = Vec::new();
    for input in inputs.iter().filter(|i| i.state.is_none()) {
        if config.games.is_none() {
            return Err(unchecked_input(input));
        }
        notes.push(format!("{}: no state file of this version: its settings are not checked", input.path));
    }
    let state = agreed_state(inputs)?;
    if let Some(variant) = state.as_ref().map(State::variant).filter(|v| *v != G::VARIANT) {
        return Err(format!("--merge: the inputs are records of {variant}: give --variant {variant}"));
    }
    let total = match (state.as_ref().and_then(|s| s.games), config.games) {
        (Some(s), Some(g)) if s != g => {
            return Err(format!("--merge --games {g}, but the state files say the match has {s} games"))
        }
        (Some(n), _) | (None, Some(n)) => n,
        (None, None) => {
            return Err("--merge: the state files do not say how many games the match has: give --games N".into())
        }
    };
    let (names, pins) = engines::<G>(config, state.as_ref(), inputs)?;
    let round = schedule::pinned_round(&pins, G::SEATS.len());
    let shards = shards_of(inputs)?;

    let mut games: Vec<GameReport> = Vec::new();
    let mut beyond = 0;
    for input in inputs {
        let path = input.path.as_str();
        for chunk in record_chunks(&input.text).map_err(|e| format!("{path}: {e}"))? {
            for mut r in reports::<G>(chunk, &names, path)? {
                if r.number > total {
                    beyond += 1;
                    continue;
                }
                if games.iter().any(|o| o.number == r.number) {
                    return Err(format!("--merge: game {} is in two files ({path})", r.number));
                }
                let seated = &round[(r.number - 1) % round.len()];
                if r.seating != *seated {
                    return Err(format!(
                        "--merge: {path}: game {} is not seated as the match's schedule seats it (records of \
                         another match, or --engine specs other than its own)",
                        r.number
                    ));
                }
                if let Some(shard) = input.state.as_ref().and_then(|s| s.shard) {
                    if !shard.takes(((r.number - 1) / round.len()) as u64) {
                        return Err(format!("--merge: {path}: game {} is not one of shard {shard}'s", r.number));
                    }
                }
                r.record = chunk.to_string();
                games.push(r);
            }
        }
    }
    if beyond > 0 {
        notes.push(format!("{beyond} games beyond the match's {total} left out"));
    }
    games.sort_by_key(|r| r.number);
    let count = state.as_ref().map(|s| s.shard.unwrap_or(Shard::WHOLE).count());
    let missing = missing(&games, total, round.len(), count, &shards, absent);
    let rotating = schedule::rotating(&pins);
    let mut standings = Standings::new::<G>(names, rotating.clone(), config.model);
    for r in &games {
        standings.add(r, pair_of(&round, r.number - 1, &rotating));
    }
    Ok(Joined { games, standings, total, state, missing, notes })
}

/// Why an input without a (current) state file is refused.
fn unchecked_input(input: &Input) -> String {
    let state_file = resume::state_path(&input.path);
    if input.old_state {
        format!(
            "--merge: {state_file} is of an older catchess (it records no size, engines or shard): run the \
             shard's command again with --resume (it plays only what is missing) to bring it up to date, or give \
             --games N to merge its records unchecked"
        )
    } else {
        format!(
            "--merge: {} has no {state_file} (catchess match --pgn writes it beside the records): without it the \
             merge cannot check that the file belongs to the match; copy it along, or give --games N to merge its \
             records unchecked",
            input.path
        )
    }
}

/// The state the inputs' state files share, but for their shard index:
/// the one most of them hold; each file that holds another is named, with
/// what differs.
fn agreed_state(inputs: &[Input]) -> Result<Option<State>, String> {
    let with_state: Vec<(&str, &State)> =
        inputs.iter().filter_map(|i| i.state.as_ref().map(|s| (i.path.as_str(), s))).collect();
    let same = |a: &State, b: &State| differences(a, b).is_empty();
    let Some(&(_, reference)) =
        with_state.iter().max_by_key(|(_, s)| with_state.iter().filter(|(_, o)| same(s, o)).count())
    else {
        return Ok(None);
    };
    let first = with_state.iter().find(|(_, s)| same(s, reference)).map(|(p, _)| *p).unwrap_or_default();
    let odd: Vec<String> = with_state
        .iter()
        .filter(|(_, s)| !same(s, reference))
        .map(|(path, s)| format!("{path} does not belong with {first}: {}", differences(s, reference).join("; ")))
        .collect();
    if !odd.is_empty() {
        return Err(format!("--merge: the inputs are not of one match:\n  {}", odd.join("\n  ")));
    }
    Ok(Some(reference.clone()))
}

/// What two inputs' states differ in, but the shard's index.
fn differences(a: &State, b: &State) -> Vec<String> {
    let mut out = Vec::new();
    if a.seed != b.seed {
        out.push(format!("seed {}, not {}", a.seed, b.seed));
    }
    if a.games != b.games {
        out.push(format!("{} games, not {}", a.games.unwrap_or(0), b.games.unwrap_or(0)));
    }
    let count = |s: &State| s.shard.unwrap_or(Shard::WHOLE).count();
    if count(a) != count(b) {
        out.push(format!("{} shards, not {}", count(a), count(b)));
    }
    if a.engines != b.engines {
        let names = |s: &State| s.engines.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(", ");
        out.push(format!("engines {}, not {}", names(a), names(b)));
    }
    if a.settings != b.settings {
        out.push(format!("other settings:\n      {}\n    not {}", a.settings, b.settings));
    }
    out
}

/// The engines' names in `--engine` order and their seats: the state
/// files' (the `--engine` specs, if given, must be the same); without
/// state files the specs', or else the players of the lowest round there
/// is, in seat order (engine 0 is white in game 1), none pinned.
fn engines<G: Notation + Arbitration>(
    config: &MatchConfig,
    state: Option<&State>,
    inputs: &[Input],
) -> Result<(Vec<String>, Vec<Option<usize>>), String> {
    if let Some(state) = state {
        let players: Vec<(&str, Option<&str>)> =
            state.engines.iter().map(|p| (p.name.as_str(), p.seat.as_deref())).collect();
        let given: Vec<(&str, Option<&str>)> =
            config.engines.iter().map(|e| (e.name.as_str(), e.seat.as_deref())).collect();
        if !given.is_empty() && given != players {
            let list = |p: &[(&str, Option<&str>)]| {
                p.iter().map(|(n, s)| s.map_or(n.to_string(), |s| format!("{n} seat={s}"))).collect::<Vec<_>>()
            };
            return Err(format!(
                "--merge: the --engine specs ({}) are not the match's engines ({}, as its state files say)",
                list(&given).join(", "),
                list(&players).join(", ")
            ));
        }
        let pins = seat_pins::<G>(&players)?;
        return Ok((players.iter().map(|(n, _)| n.to_string()).collect(), pins));
    }
    if !config.engines.is_empty() {
        return Ok((config.engines.iter().map(|e| e.name.clone()).collect(), config.pins::<G>()?));
    }
    let mut first: Option<(usize, Vec<String>)> = None;
    for input in inputs {
        for g in pgn::read_all(&input.text, &pgn::result_words::<G>()).map_err(|e| format!("{}: {e}", input.path))? {
            let round: usize = g.tag("Round").and_then(|r| r.parse().ok()).unwrap_or(usize::MAX);
            if first.as_ref().is_none_or(|(r, _)| round < *r) {
                let players = G::SEATS.iter().filter_map(|s| g.tag(&capitalised(s.name)).map(String::from)).collect();
                first = Some((round, players));
            }
        }
    }
    let mut names: Vec<String> = Vec::new();
    for p in first.map(|(_, p)| p).unwrap_or_default() {
        if !names.contains(&p) {
            names.push(p);
        }
    }
    if names.is_empty() {
        return Err("--merge: no records".into());
    }
    let pins = vec![None; names.len()];
    Ok((names, pins))
}

/// The inputs with a state file, by their shard's index; a shard twice is
/// refused.
fn shards_of(inputs: &[Input]) -> Result<Vec<(Shard, &str)>, String> {
    let mut shards: Vec<(Shard, &str)> = Vec::new();
    for input in inputs {
        let Some(state) = &input.state else { continue };
        let shard = state.shard.unwrap_or(Shard::WHOLE);
        if let Some((_, other)) = shards.iter().find(|(s, _)| *s == shard) {
            return Err(format!("--merge: {other} and {} are both shard {shard}", input.path));
        }
        shards.push((shard, &input.path));
    }
    shards.sort_by_key(|(s, _)| s.index());
    Ok(shards)
}

/// What is missing of a match of `total` games (rounds of `round`), in
/// words: with `count` shards (the state files say), the shards no input
/// holds and the games each input lacks; else the game numbers.
fn missing(
    games: &[GameReport],
    total: usize,
    round: usize,
    count: Option<u64>,
    shards: &[(Shard, &str)],
    absent: &[&str],
) -> Vec<String> {
    let have: std::collections::HashSet<usize> = games.iter().map(|r| r.number).collect();
    let lacking: Vec<usize> = (1..=total).filter(|n| !have.contains(n)).collect();
    if lacking.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if !absent.is_empty() {
        out.push(format!("no file {}", absent.join(", ")));
    }
    let Some(count) = count else {
        out.push(format!("games {} are missing", runs(&lacking)));
        return out;
    };
    let shard_of = |n: usize| ((n - 1) / round) as u64 % count + 1;
    let held: Vec<u64> = shards.iter().map(|(s, _)| s.index()).collect();
    let unheld: Vec<u64> =
        (1..=count).filter(|k| !held.contains(k) && lacking.iter().any(|&n| shard_of(n) == *k)).collect();
    if !unheld.is_empty() {
        let list: Vec<String> = unheld.iter().map(u64::to_string).collect();
        let s = if unheld.len() > 1 { "s" } else { "" };
        out.push(format!("shard{s} {} of {count} missing (no input is that shard)", list.join(", ")));
    }
    for (shard, path) in shards {
        let its: Vec<usize> = lacking.iter().copied().filter(|&n| shard_of(n) == shard.index()).collect();
        if !its.is_empty() {
            let of = (1..=total).filter(|&n| shard_of(n) == shard.index()).count();
            out.push(format!("shard {shard} ({path}) lacks {} of its {of} games ({})", its.len(), runs(&its)));
        }
    }
    out
}

/// `3-5, 9, 12-14`: sorted numbers as runs, the first `LISTED_RUNS`.
fn runs(numbers: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &n in numbers {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == n => *end = n,
            _ => runs.push((n, n)),
        }
    }
    let mut parts: Vec<String> =
        runs.iter().take(LISTED_RUNS).map(|&(a, b)| if a == b { a.to_string() } else { format!("{a}-{b}") }).collect();
    if runs.len() > LISTED_RUNS {
        parts.push("...".into());
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_games_as_runs() {
        assert_eq!(runs(&[3, 4, 5, 9, 12, 13, 14]), "3-5, 9, 12-14");
        assert_eq!(runs(&[1]), "1");
        let many: Vec<usize> = (1..100).step_by(2).collect();
        assert!(runs(&many).ends_with(", 23, ..."), "{}", runs(&many));
    }
}
