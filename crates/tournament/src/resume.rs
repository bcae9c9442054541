//! A match's records file (`--pgn`) and its state file: opening the
//! records for a new match or to go on with a stopped one (`--resume`),
//! and reading finished games back, also to join the records of matches
//! played in slices (`--merge`). The small state file next to the PGN
//! holds the seed and the settings that fix the schedule; the finished
//! games are read back from the records themselves.

use super::config::MatchConfig;
use super::play::{Fault, GameReport};
use super::spec::TimeControl;
use super::stats::seat_points;
use catchess_core::files::read_bounded;
use catchess_core::shard::Shard;
use catchess_game::pgn;
use catchess_game::pgn::record::FaultKind;
use catchess_game::pgn::record::{capitalised, result_line, seat_of, winner_of_result};
use catchess_game::pgn::MAX_PGN_BYTES;
use catchess_game::{Arbitration, Seat};
use catchess_games::VariantKind;
use std::io::{Seek, Write};

/// The state file of a PGN file.
pub fn state_path(pgn: &str) -> String {
    format!("{pgn}.state")
}

/// The first line of a state file; version 1 (before the size, the round
/// and the shard had lines of their own) is still read.
const HEADER: &str = "catchess match state 2";
const HEADER_V1: &str = "catchess match state 1";

/// What the state file holds: the seed, a description of every setting
/// the schedule and the games depend on, and (from version 2) the size of
/// the whole match, its engines and the slice the records hold, so that
/// `--merge` can tell whether records belong together, how they are
/// seated and whether any are missing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub seed: u64,
    /// Games in the whole match (the shards' together). `None` in a state
    /// of version 1.
    pub games: Option<usize>,
    /// The engines in `--engine` order (empty in version 1).
    pub engines: Vec<Player>,
    /// The slice the records hold (`None`: the whole match, or unknown in
    /// version 1).
    pub shard: Option<Shard>,
    /// Version 2's description (`Settings::text`), or version 1's
    /// (`Settings::v1`), which names the shard as well.
    pub settings: String,
    pub version: u32,
}

impl State {
    /// Writes the file whole or not at all (a temporary file renamed over
    /// it): a match killed while writing it leaves the old one.
    pub fn write(&self, path: &str) -> Result<(), String> {
        let mut text = format!("{HEADER}\nseed {}\n", self.seed);
        if let Some(games) = self.games {
            text.push_str(&format!("games {games}\n"));
        }
        for e in &self.engines {
            text.push_str(&format!("engine {} {}\n", e.seat.as_deref().unwrap_or(NO_SEAT), e.name));
        }
        if let Some(shard) = self.shard {
            text.push_str(&format!("shard {shard}\n"));
        }
        text.push_str(&format!("settings {}\n", self.settings));
        let cannot = |e: std::io::Error| format!("cannot write match state {path}: {e}");
        let temporary = format!("{path}.new");
        std::fs::write(&temporary, text).map_err(cannot)?;
        std::fs::rename(&temporary, path).map_err(cannot)
    }

    pub fn read(path: &str) -> Result<State, String> {
        let text = read_bounded(path, 1 << 20).map_err(|e| format!("cannot read match state {path}: {e}"))?;
        let mut lines = text.lines();
        let version = match lines.next() {
            Some(HEADER) => 2,
            Some(HEADER_V1) => 1,
            _ => return Err(format!("{path}: not a catchess match state file")),
        };
        let bad = |what: &str| format!("{path}: a bad {what} line");
        let mut state =
            State { seed: 0, games: None, engines: Vec::new(), shard: None, settings: String::new(), version };
        let (mut seed, mut settings) = (None, None);
        for line in lines {
            match line.split_once(' ') {
                Some(("seed", v)) => seed = v.parse().ok(),
                Some(("settings", v)) => settings = Some(v.to_string()),
                Some(("games", v)) => state.games = Some(v.parse().map_err(|_| bad("games"))?),
                Some(("engine", v)) => {
                    let (seat, name) = v.split_once(' ').ok_or_else(|| bad("engine"))?;
                    let seat = (seat != NO_SEAT).then(|| seat.to_string());
                    state.engines.push(Player { name: name.to_string(), seat });
                }
                Some(("shard", v)) => state.shard = Some(Shard::parse(v, &|_| None).map_err(|_| bad("shard"))?),
                _ => {}
            }
        }
        match (seed, settings) {
            (Some(seed), Some(settings)) => Ok(State { seed, settings, ..state }),
            _ => Err(format!("{path}: incomplete match state")),
        }
    }

    /// The game of the match: the settings' first field (`settings`).
    pub fn variant(&self) -> &str {
        self.settings.split(" | ").next().unwrap_or_default()
    }

    /// Whether a match of `settings` may go on from this state.
    fn allows(&self, settings: &Settings) -> bool {
        match self.version {
            1 => self.settings == settings.v1,
            _ => self.settings == settings.text,
        }
    }
}

/// An engine as the state file names it: its name (no control character:
/// `MatchConfig::validate`) and the seat it is pinned to, if it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub name: String,
    pub seat: Option<String>,
}

/// An engine's seat in the state file when it is not pinned to one.
const NO_SEAT: &str = "-";

/// The engines of a match, for its state file.
pub fn players(config: &MatchConfig) -> Vec<Player> {
    config.engines.iter().map(|e| Player { name: e.name.clone(), seat: e.seat.clone() }).collect()
}

/// Every setting the schedule and the games depend on, as the state file
/// keeps them, pinned seats included (a resumed match must have the same;
/// `--games`, `--concurrency`, the statistics and the log may change).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// As version 2 of the state file keeps them (the shard on a line of
    /// its own): the same for every shard of a match.
    pub text: String,
    /// As version 1 kept them, the shard included: what a state file of
    /// version 1 is compared with.
    v1: String,
}

pub fn settings(config: &MatchConfig, tcs: &[TimeControl]) -> Settings {
    let engines: Vec<String> = config
        .engines
        .iter()
        .map(|e| {
            // The pin only when there is one: state files written before
            // `seat=` existed still match.
            let seat = e.seat.as_ref().map(|s| format!(" seat {s:?}")).unwrap_or_default();
            format!("{} {:?} {:?} {:?} {:?}{seat}", e.name, e.command, e.dir, e.options, e.tc.map(|t| t.to_string()))
        })
        .collect();
    let tcs: Vec<String> = tcs.iter().map(TimeControl::to_string).collect();
    let rest = format!(
        "engines {} | tc {} | openings {:?} | random plies {} | timeout {:?} | margin {:?} | {:?}",
        engines.join("; "),
        tcs.join(" "),
        config.openings,
        config.random_plies,
        config.timeout,
        config.time_margin,
        config.adjudication
    )
    .replace('\n', " ");
    // Version 1 wrote the shard as the tuple it was kept in.
    let shard = config.shard.map(|s| (s.index() as usize, s.count() as usize));
    Settings {
        text: format!("{} | {rest}", config.variant),
        v1: format!("{} | shard {shard:?} | {rest}", config.variant),
    }
}

/// A stopped match taken up again: the seed it was started with, its
/// finished games, and how far its records file holds complete records.
pub struct Resumed {
    pub seed: u64,
    pub done: Vec<GameReport>,
    /// Bytes of complete records at the start of the file.
    pub complete: usize,
    /// Bytes after them: a record cut off by the stop, dropped.
    pub cut: usize,
}

impl Resumed {
    /// Reads the state file and the records of the match whose records
    /// are at `path`; it must have been started with `settings` (and the
    /// seed given, if one is). Games beyond `games` are left out. `None`
    /// if the match has not started: no state file, and no records (or
    /// none yet) at `path`, so that the command that starts a match also
    /// goes on with it (a scheduler's requeued job runs it again).
    pub fn load<G: Arbitration>(
        path: &str,
        seed: Option<u64>,
        settings: &Settings,
        names: &[String],
        games: usize,
    ) -> Result<Option<Resumed>, String> {
        let state_file = state_path(path);
        if !std::path::Path::new(&state_file).exists() {
            let records = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
            if records > 0 {
                return Err(format!(
                    "--resume: {path} holds records but there is no {state_file}: it is not a match this command \
                     can go on with (move it away to start the match afresh)"
                ));
            }
            return Ok(None);
        }
        let state = State::read(&state_file)?;
        if seed.is_some_and(|s| s != state.seed) {
            return Err(format!("--resume: the match was started with --seed {}", state.seed));
        }
        if !state.allows(settings) {
            return Err(format!(
                "--resume: the match was started with other settings:\n  then: {}\n  now:  {}",
                state.settings,
                if state.version == 1 { &settings.v1 } else { &settings.text }
            ));
        }
        // No records yet (a state written, then a stop): none finished.
        let text = match std::fs::metadata(path) {
            Ok(_) => read_bounded(path, MAX_PGN_BYTES).map_err(|e| format!("cannot read {path}: {e}"))?,
            Err(_) => String::new(),
        };
        let complete = complete_prefix(&text);
        let mut done = reports::<G>(&text[..complete], names, path)?;
        done.retain(|r| r.number <= games);
        let mut numbers: Vec<usize> = done.iter().map(|r| r.number).collect();
        numbers.sort_unstable();
        if numbers.windows(2).any(|w| w[0] == w[1]) {
            return Err(format!("{path}: a round number appears twice"));
        }
        Ok(Some(Resumed { seed: state.seed, done, complete, cut: text.len() - complete }))
    }
}

/// Where the records of the match go: stdout for `-`, nothing for `None`;
/// a new file, or, for a resumed match, its file with the cut-off record
/// dropped (that game is played again) and new records appended. The
/// state file beside a file is written (again, on a resume: `--games` may
/// have changed) with `state` before any record.
pub fn open_records(
    pgn: Option<&str>,
    resumed: Option<&Resumed>,
    state: &State,
) -> Result<Option<Box<dyn Write>>, String> {
    Ok(match (pgn, resumed) {
        (None, _) => None,
        (Some("-"), _) => Some(Box::new(std::io::stdout())),
        (Some(path), None) => {
            let file = std::fs::File::create(path).map_err(|e| format!("cannot create PGN file {path}: {e}"))?;
            state.write(&state_path(path))?;
            Some(Box::new(file))
        }
        (Some(path), Some(resumed)) => {
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(path)
                .and_then(|f| f.set_len(resumed.complete as u64).map(|_| f))
                .map_err(|e| format!("cannot append to PGN file {path}: {e}"))?;
            file.seek(std::io::SeekFrom::End(0)).map_err(|e| format!("{path}: {e}"))?;
            state.write(&state_path(path))?;
            Some(Box::new(file))
        }
    })
}

/// The length of the part of `text` made of complete records (each ends
/// with its result and a blank line, as `record::write` ends it, and has a
/// `Round`); what follows is a record cut off by a crash or a kill.
pub fn complete_prefix(text: &str) -> usize {
    let words = VariantKind::all_result_words();
    let mut end = 0;
    for game in pgn::games(text, &words) {
        let Ok(game) = game else { break };
        let complete = game.result.is_some()
            && game.tag("Round").is_some()
            && text[end..game.bytes.start].trim().is_empty()
            && text[game.bytes.end..].starts_with("\n\n");
        if !complete {
            break;
        }
        end = game.bytes.end + 2;
    }
    end
}

/// The records of a PGN text, each as written: from its first tag to the
/// next record's (the blank line after its result included).
pub fn record_chunks(text: &str) -> Result<Vec<&str>, pgn::PgnError> {
    let words = VariantKind::all_result_words();
    let starts = pgn::games(text, &words).map(|g| g.map(|g| g.bytes.start)).collect::<Result<Vec<_>, _>>()?;
    let ends = starts.iter().skip(1).copied().chain(std::iter::once(text.len()));
    Ok(starts.iter().zip(ends).map(|(&a, b)| &text[a..b]).collect())
}

/// Reads the records of a match of `names` back into reports (no record
/// text): round number, seating, result, points, termination and faults.
pub fn reports<G: Arbitration>(text: &str, names: &[String], what: &str) -> Result<Vec<GameReport>, String> {
    let sides = G::SEATS;
    let mut out = Vec::new();
    let games = pgn::read_all(text, &pgn::result_words::<G>()).map_err(|e| format!("{what}: {e}"))?;
    for (n, game) in games.iter().enumerate() {
        let at = format!("{what}: record {} (line {})", n + 1, game.line);
        let number: usize = game
            .tag("Round")
            .and_then(|r| r.parse().ok())
            .filter(|&r| r > 0)
            .ok_or_else(|| format!("{at}: no Round"))?;
        let mut seating = Vec::new();
        for side in sides {
            let tag = capitalised(side.name);
            let player = game.tag(&tag).ok_or_else(|| format!("{at}: no {tag} tag"))?;
            let e = names
                .iter()
                .position(|x| x == player)
                .ok_or_else(|| format!("{at}: {player:?} is not an engine of this match ({})", names.join(", ")))?;
            seating.push(e);
        }
        let result = game.tag("Result").unwrap_or("");
        let winner =
            winner_of_result::<G>(result, game.tag("Winner")).ok_or_else(|| format!("{at}: result {result:?}"))?;
        let faults: Vec<Fault> = game
            .tag("Faults")
            .map(|f| f.split("; ").filter_map(|d| parse_fault::<G>(d, names)).collect())
            .unwrap_or_default();
        let forfeited = forfeited_seats::<G>(&faults, winner);
        out.push(GameReport {
            number,
            seating,
            winner,
            result: result_line::<G>(winner),
            points: seat_points(&forfeited, winner),
            termination: game.tag("TerminationDetails").or(game.tag("Termination")).unwrap_or("").to_string(),
            faults,
            plies: game.tag("PlyCount").and_then(|p| p.parse().ok()).unwrap_or(game.moves.len()),
            record: String::new(),
        });
    }
    Ok(out)
}

/// `white (bad) illegal move at ply 1: ...` as a fault.
fn parse_fault<G: Arbitration>(text: &str, names: &[String]) -> Option<Fault> {
    let (side, rest) = text.split_once(" (")?;
    let seat = seat_of::<G>(side)?;
    let engine = names.iter().position(|n| rest.starts_with(&format!("{n}) ")))?;
    let rest = &rest[names[engine].len() + 2..];
    let kind = FaultKind::ALL.into_iter().find(|k| rest.starts_with(k.name()))?;
    let ply = rest.split(" at ply ").nth(1).and_then(|p| p.split(':').next()?.parse().ok()).unwrap_or(0);
    let detail = rest.split_once(": ").map(|(_, d)| d.to_string()).unwrap_or_default();
    Some(Fault { seat, side: G::SEATS[seat].name, engine, kind, ply, detail })
}

/// The seats that faulted and played on, passing (`Arbitration::forfeit_winner`
/// is `None` for them: Cat Chess's cats): those with a fault in the record,
/// and in a draw the seat a draw would reward (`Game::draw_winner`), whose
/// win can only have been void by a fault.
fn forfeited_seats<G: Arbitration>(faults: &[Fault], winner: Option<Seat>) -> Vec<bool> {
    (0..G::SEATS.len())
        .map(|i| {
            let seat = Seat::new(i);
            G::forfeit_winner(seat).is_none()
                && (faults.iter().any(|f| f.seat == i) || (winner.is_none() && G::draw_winner() == Some(seat)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_files() {
        let path = std::env::temp_dir().join(format!("catchess-state-{}", std::process::id()));
        let p = path.to_str().unwrap();
        let s = State {
            seed: 42,
            games: Some(14),
            engines: vec![
                Player { name: "a b".into(), seat: None },
                Player { name: "r".into(), seat: Some("cats".into()) },
            ],
            shard: Some(Shard::new(2, 4).unwrap()),
            settings: "catchess | a: x".into(),
            version: 2,
        };
        s.write(p).unwrap();
        assert_eq!(State::read(p).unwrap(), s);
        assert!(!std::path::Path::new(&format!("{p}.new")).exists(), "the temporary file is renamed");
        // Version 1: the seed and the settings only.
        std::fs::write(p, "catchess match state 1\nseed 7\nsettings catchess | shard None | x\n").unwrap();
        let v1 = State::read(p).unwrap();
        assert_eq!((v1.version, v1.seed, v1.games, v1.shard), (1, 7, None, None));
        std::fs::write(p, "catchess match state 2\nseed 7\nshard 5/4\nsettings x\n").unwrap();
        assert_eq!(State::read(p).unwrap_err(), format!("{p}: a bad shard line"));
        std::fs::write(p, "something else\n").unwrap();
        assert!(State::read(p).unwrap_err().contains("not a catchess match state"));
        std::fs::remove_file(p).unwrap();
    }
}
