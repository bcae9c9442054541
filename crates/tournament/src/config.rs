//! What `catchess match` is asked to do ([`MatchConfig`]), the bounds on
//! its numbers, and [`MatchConfig::validate`]: every check of a match's
//! settings, in one place, made before any engine starts.

use super::schedule;
use super::spec::{Adjudication, EngineSpec, SprtSpec, TimeControl};
use super::stats::Model;
use catchess_core::shard::Shard;
use catchess_game::pgn::record;
use catchess_game::Game;
use catchess_games::with_game;
use catchess_games::VariantKind;
use std::path::PathBuf;
use std::time::Duration;

/// Largest `--games`.
pub const MAX_GAMES: usize = 1_000_000_000;
/// Largest `--concurrency`.
pub const MAX_CONCURRENCY: usize = 256;
/// Largest `--random-plies`.
pub const MAX_RANDOM_PLIES: usize = 1000;
/// Largest `--timeout` (and `--time-margin`): one day.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(86_400);
/// The most engines in one match.
pub const MAX_ENGINES: usize = 32;

/// Why a shard cannot start without `--seed` (also when `--resume` finds
/// no state and starts it).
pub const SHARD_NEEDS_SEED: &str = "--shard needs --seed: every shard must draw the same openings";

/// Everything `catchess match` was asked to do.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub variant: VariantKind,
    pub engines: Vec<EngineSpec>,
    /// Games to play; `None` for one round of the schedule.
    pub games: Option<usize>,
    pub concurrency: usize,
    /// `(seat, control)`: `None` for every seat, later entries win.
    pub time_controls: Vec<(Option<String>, TimeControl)>,
    pub openings: Option<String>,
    pub random_plies: usize,
    pub seed: Option<u64>,
    /// Where records go: a file, `-` for stdout, `None` for nowhere.
    pub pgn: Option<String>,
    pub timeout: Duration,
    pub time_margin: Duration,
    pub sprt: Option<SprtSpec>,
    pub event: String,
    pub log: Option<PathBuf>,
    /// The most bytes the log may hold.
    pub log_limit: u64,
    pub adjudication: Adjudication,
    /// The statistics of the table and the SPRT.
    pub model: Model,
    /// Continue the match whose records are in `pgn` (and its state file).
    pub resume: bool,
    /// Play only the rounds r (from 0) the shard takes: r mod n = k - 1.
    pub shard: Option<Shard>,
    /// Join the records of these files instead of playing (`--merge`).
    pub merge: Vec<String>,
    /// `--merge`: a table of the games there are, though some are missing.
    pub partial: bool,
    /// `--merge`: merge again as the inputs grow, until the match is
    /// complete or its SPRT decides (then write `stop_file`).
    pub watch: bool,
    /// A match stops starting games once this file exists; `--watch`
    /// writes it when the SPRT decides.
    pub stop_file: Option<PathBuf>,
}

impl MatchConfig {
    /// Every check of the settings: bounds on the numbers (so that no value
    /// makes the match allocate without bound, overflow a clock or spawn
    /// endless threads), and, for a match to play (not `--merge`), the
    /// engines, the seats named by `--tc`, and the flags that go together.
    pub fn validate(&self) -> Result<(), String> {
        if self.games.is_some_and(|g| g > MAX_GAMES) {
            return Err(format!("--games must be at most {MAX_GAMES}"));
        }
        if self.games == Some(0) {
            return Err("--games must be at least 1".into());
        }
        if self.concurrency > MAX_CONCURRENCY {
            return Err(format!("--concurrency must be at most {MAX_CONCURRENCY}"));
        }
        if self.random_plies > MAX_RANDOM_PLIES {
            return Err(format!("--random-plies must be at most {MAX_RANDOM_PLIES}"));
        }
        if self.timeout.is_zero() || self.timeout > MAX_TIMEOUT {
            return Err(format!("--timeout must be more than 0 and at most {} seconds", MAX_TIMEOUT.as_secs()));
        }
        if self.time_margin > MAX_TIMEOUT {
            return Err(format!("--time-margin must be at most {} ms", MAX_TIMEOUT.as_millis()));
        }
        if self.adjudication.max_moves == Some(0) {
            return Err("--maxmoves must be at least 1".into());
        }
        if let Some(shard) = self.shard {
            if shard.count() > MAX_GAMES as u64 {
                return Err(format!("--shard {shard}: at most {MAX_GAMES} shards"));
            }
        }
        if !self.merge.is_empty() {
            return self.validate_merge();
        }
        if self.partial || self.watch {
            return Err(format!("--{} goes with --merge", if self.watch { "watch" } else { "partial" }));
        }
        if self.engines.is_empty() {
            return Err("a match needs at least one --engine".into());
        }
        if self.engines.len() > MAX_ENGINES {
            return Err(format!("at most {MAX_ENGINES} engines"));
        }
        for (i, e) in self.engines.iter().enumerate() {
            // Names go into records' tags, tables and the state file's lines.
            if e.name.chars().any(char::is_control) {
                return Err(format!("engine name {:?}: no control characters (a newline, a tab)", e.name));
            }
            if self.engines[..i].iter().any(|o| o.name == e.name) {
                return Err(format!("two engines are named {:?}; give each a distinct name=", e.name));
            }
        }
        if self.shard.is_some() {
            if self.seed.is_none() && !self.resume {
                return Err(SHARD_NEEDS_SEED.into());
            }
            if self.sprt.is_some() {
                return Err("--shard and --sprt: a slice cannot stop the whole match; use --sprt with --merge".into());
            }
        }
        if self.resume && self.pgn.as_deref().is_none_or(|p| p == "-") {
            return Err("--resume needs --pgn FILE: the records of the match to continue".into());
        }
        let pins = with_game!(self.variant, G => self.seat_time_controls::<G>().and_then(|_| self.pins::<G>()))?;
        if let Some(s) = &self.sprt {
            if schedule::rotating(&pins).len() != 2 {
                return Err(format!(
                    "--sprt {},{},{},{} needs exactly two engines that are not pinned to a seat",
                    s.elo0, s.elo1, s.alpha, s.beta
                ));
            }
        }
        Ok(())
    }

    /// The flags of `--merge`: it plays no game, so no shard, resume or
    /// engine check; `--stop-file` only to write when `--watch` sees the
    /// SPRT decide.
    fn validate_merge(&self) -> Result<(), String> {
        if self.shard.is_some() {
            return Err("--shard plays a slice of a match; --merge joins them: not both".into());
        }
        if self.resume {
            return Err("--resume goes on with a match; --merge joins records: not both".into());
        }
        if self.stop_file.is_some() && !self.watch {
            return Err("--stop-file with --merge needs --watch (which writes it when the SPRT decides)".into());
        }
        if let Some(out) = self.pgn.as_deref().filter(|p| *p != "-") {
            if self.merge.iter().any(|m| m == out) {
                return Err(format!("--pgn {out} is one of the --merge inputs: write the merged records elsewhere"));
            }
        }
        Ok(())
    }

    /// The seat each engine is pinned to (`seat=` in its spec): [`seat_pins`].
    pub fn pins<G: Game>(&self) -> Result<Vec<Option<usize>>, String> {
        let engines: Vec<(&str, Option<&str>)> =
            self.engines.iter().map(|e| (e.name.as_str(), e.seat.as_deref())).collect();
        seat_pins::<G>(&engines)
    }

    /// The time control of each seat: the last `--tc` for all seats,
    /// overridden per seat by `<seat>:<tc>` entries; 10+0.1 if none.
    pub fn seat_time_controls<G: Game>(&self) -> Result<Vec<TimeControl>, String> {
        let sides = G::SEATS;
        let default =
            TimeControl::Clock { moves: None, base: Duration::from_secs(10), inc: Duration::from_millis(100) };
        let mut tcs = vec![default; sides.len()];
        for (_, tc) in self.time_controls.iter().filter(|(s, _)| s.is_none()) {
            tcs.iter_mut().for_each(|t| *t = *tc);
        }
        for (seat, tc) in &self.time_controls {
            if let Some(name) = seat {
                let i = record::seat_of::<G>(name).ok_or_else(|| {
                    let names: Vec<&str> = sides.iter().map(|s| s.name).collect();
                    format!("--tc {name}:{tc}: {} has no seat {name:?} (seats: {})", G::VARIANT, names.join(", "))
                })?;
                tcs[i] = *tc;
            }
        }
        Ok(tcs)
    }
}

/// The seat each engine (name, `seat=`) is pinned to, by index in
/// `G::SEATS`; `None` for the engines that rotate. Checks that each name
/// is one of the variant's seats, that no two engines share a seat, and
/// that at least one seat is left free and one engine rotates through the
/// free seats.
pub fn seat_pins<G: Game>(engines: &[(&str, Option<&str>)]) -> Result<Vec<Option<usize>>, String> {
    let names: Vec<&str> = G::SEATS.iter().map(|s| s.name).collect();
    let mut pins: Vec<Option<usize>> = Vec::new();
    for &(name, seat) in engines {
        let pin = match seat {
            None => None,
            Some(seat) => Some(record::seat_of::<G>(seat).ok_or_else(|| {
                format!("engine {name}: seat={seat}: {} has no seat {seat:?} (seats: {})", G::VARIANT, names.join(", "))
            })?),
        };
        if let Some(other) = pin.and_then(|p| pins.iter().position(|o| *o == Some(p))) {
            return Err(format!(
                "engines {} and {name} are both pinned to {}: one engine per seat",
                engines[other].0,
                names[pin.unwrap_or_default()]
            ));
        }
        pins.push(pin);
    }
    let pinned = pins.iter().flatten().count();
    if pinned == names.len() {
        return Err(format!(
            "every seat ({}) has an engine pinned to it: leave at least one seat to the engines that rotate",
            names.join(", ")
        ));
    }
    if pinned > 0 && pinned == pins.len() {
        return Err(
            "every engine is pinned to a seat: at least one engine without seat= must play the other seats".into()
        );
    }
    Ok(pins)
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_games::{CatChess, Chess};

    fn config(time_controls: Vec<(Option<String>, TimeControl)>) -> MatchConfig {
        MatchConfig {
            variant: VariantKind::CatChess,
            engines: vec![EngineSpec::parse("name=a cmd=x").unwrap(), EngineSpec::parse("name=b cmd=x").unwrap()],
            games: None,
            concurrency: 1,
            time_controls,
            openings: None,
            random_plies: 0,
            seed: None,
            pgn: None,
            timeout: Duration::from_secs(30),
            time_margin: Duration::from_millis(50),
            sprt: None,
            event: String::new(),
            log: None,
            log_limit: 0,
            adjudication: Adjudication::default(),
            model: Model::default(),
            resume: false,
            shard: None,
            merge: vec![],
            partial: false,
            watch: false,
            stop_file: None,
        }
    }

    #[test]
    fn time_controls_per_seat() {
        let e = |s: Option<&str>, t: &str| (s.map(String::from), TimeControl::parse(t).unwrap());
        let tcs = config(vec![e(None, "5+0.1"), e(Some("cats"), "depth=2")]).seat_time_controls::<CatChess>().unwrap();
        assert_eq!(tcs[0], TimeControl::parse("5+0.1").unwrap());
        assert_eq!(tcs[1], tcs[0]);
        assert_eq!(tcs[2], TimeControl::Depth(2));
        // A seat override holds whatever order the flags come in.
        let tcs = config(vec![e(Some("white"), "depth=1"), e(None, "5+0.1")]).seat_time_controls::<CatChess>().unwrap();
        assert_eq!(tcs[0], TimeControl::Depth(1));
        let err = config(vec![e(Some("cats"), "depth=2")]).seat_time_controls::<Chess>().unwrap_err();
        assert!(err.contains("no seat \"cats\""), "{err}");
        assert_eq!(config(vec![]).seat_time_controls::<Chess>().unwrap()[1].to_string(), "10+0.1");
    }

    #[test]
    fn validate_names_the_setting_that_is_wrong() {
        assert_eq!(config(vec![]).validate(), Ok(()));
        let fails = |change: &dyn Fn(&mut MatchConfig), message: &str| {
            let mut c = config(vec![]);
            change(&mut c);
            let err = c.validate().unwrap_err();
            assert!(err.contains(message), "{message}: {err}");
        };
        fails(&|c| c.games = Some(0), "--games must be at least 1");
        fails(&|c| c.timeout = Duration::ZERO, "--timeout must be more than 0");
        fails(&|c| c.adjudication.max_moves = Some(0), "--maxmoves must be at least 1");
        fails(&|c| c.shard = Some(Shard::new(1, 2).unwrap()), "--shard needs --seed");
        fails(&|c| c.shard = Some(Shard::new(1, 2_000_000_000).unwrap()), "at most 1000000000 shards");
        fails(&|c| c.partial = true, "--partial goes with --merge");
        fails(&|c| c.watch = true, "--watch goes with --merge");
        fails(&|c| c.engines.clear(), "at least one --engine");
        fails(&|c| c.engines[1].name = "a".into(), "two engines are named \"a\"");
        fails(&|c| c.engines[1].name = "a\nb".into(), "no control characters");
        fails(&|c| c.resume = true, "--resume needs --pgn FILE");
        fails(
            &|c| {
                c.variant = VariantKind::Chess;
                c.time_controls = vec![(Some("cats".into()), TimeControl::Depth(1))];
            },
            "chess has no seat \"cats\"",
        );
        let pin = |c: &mut MatchConfig, e: usize, seat: &str| c.engines[e].seat = Some(seat.into());
        fails(&|c| pin(c, 0, "red"), "engine a: seat=red: catchess has no seat \"red\" (seats: white, black, cats)");
        fails(&|c| pin(c, 1, "felines"), "catchess has no seat \"felines\"");
        fails(
            &|c| {
                pin(c, 0, "cats");
                pin(c, 1, "cats")
            },
            "engines a and b are both pinned to cats",
        );
        fails(
            &|c| {
                c.variant = VariantKind::Chess;
                pin(c, 0, "white");
                pin(c, 1, "black")
            },
            "every seat (white, black) has an engine pinned",
        );
        fails(
            &|c| {
                c.engines.truncate(1);
                pin(c, 0, "cats")
            },
            "every engine is pinned to a seat",
        );
        fails(
            &|c| {
                pin(c, 0, "cats");
                c.sprt = Some(SprtSpec { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 });
            },
            "needs exactly two engines that are not pinned",
        );
        let mut three = config(vec![]);
        three.engines.push(EngineSpec::parse("name=r cmd=x seat=Cats").unwrap());
        assert_eq!(three.pins::<CatChess>(), Ok(vec![None, None, Some(2)]));
        three.sprt = Some(SprtSpec { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 });
        assert_eq!(three.validate(), Ok(()));
        // Merging plays no game: no engine needed.
        let mut merge = config(vec![]);
        merge.engines.clear();
        merge.merge = vec!["a.pgn".into()];
        assert_eq!(merge.validate(), Ok(()));
        let merge_fails = |change: &dyn Fn(&mut MatchConfig), message: &str| {
            let mut c = merge.clone();
            change(&mut c);
            let err = c.validate().unwrap_err();
            assert!(err.contains(message), "{message}: {err}");
        };
        merge_fails(&|c| c.shard = Some(Shard::WHOLE), "not both");
        merge_fails(&|c| c.resume = true, "not both");
        merge_fails(&|c| c.stop_file = Some("stop".into()), "needs --watch");
        merge_fails(&|c| c.pgn = Some("a.pgn".into()), "is one of the --merge inputs");
        let mut watch = merge.clone();
        (watch.watch, watch.partial, watch.stop_file) = (true, true, Some("stop".into()));
        assert_eq!(watch.validate(), Ok(()));
    }
}
