//! What the command line says about a match, parsed: engines
//! (`name=A cmd=./catchess option.Hash=16`), time controls (`10+0.1`,
//! `40/60+0.5`, `movetime=100`, `depth=3`, `nodes=5000`), SPRT bounds.
//! Pure functions, each error naming what is wrong.

use catchess_game::pgn::record::{self, clock_time_control};
use std::path::PathBuf;
use std::time::Duration;

/// One engine of a match: how to start it and how to set it up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    /// The program and its arguments.
    pub command: Vec<String>,
    /// Working directory of the process, if not the match's own.
    pub dir: Option<PathBuf>,
    /// `setoption name <n> value <v>` pairs, sent in this order after `uciok`.
    pub options: Vec<(String, String)>,
    /// This engine's own limit, in whatever seat it plays (for handicap
    /// matches such as a deeper search against a shallower one); `None`
    /// follows the seat's `--tc`.
    pub tc: Option<TimeControl>,
    /// The seat this engine plays in every game (`seat=cats`), by the
    /// variant's name for it; `None` rotates through the seats left. The
    /// name is checked against the variant in `MatchConfig::validate`.
    pub seat: Option<String>,
}

/// Splits a line into words as a POSIX shell would for plain words (the
/// `shlex` crate): spaces, tabs and newlines separate, `'...'` quotes
/// literally, `"..."` quotes with `\"`, `\\`, `\$` and `` \` `` escapes, a
/// backslash outside quotes escapes the next character, and a word that
/// starts with `#` begins a comment to the end of the line. No variables,
/// globs or redirections.
pub fn shell_words(line: &str) -> Result<Vec<String>, String> {
    shlex::split(line).ok_or_else(|| format!("unclosed quote or trailing \\ in {line:?}"))
}

impl EngineSpec {
    /// Parses `name=A cmd="./catchess" dir=/tmp option.Hash=16
    /// "option.Move Overhead=100" tc=depth=6`: words as a shell splits them
    /// (quote a value or a whole word that holds spaces), each `key=value`.
    /// `cmd` is required and is itself split into program and arguments;
    /// `name` defaults to the program's file name; `tc` overrides the seat's
    /// time control for this engine; `seat` pins it to one seat.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let mut name = None;
        let mut command = None;
        let mut dir = None;
        let mut options = Vec::new();
        let mut tc = None;
        let mut seat = None;
        for word in shell_words(text)? {
            let Some((key, value)) = word.split_once('=') else {
                return Err(format!("engine {text:?}: expected key=value, got {word:?}"));
            };
            match key {
                "name" if !value.is_empty() => name = Some(value.to_string()),
                "cmd" => {
                    let words = shell_words(value)?;
                    if words.is_empty() {
                        return Err(format!("engine {text:?}: empty cmd"));
                    }
                    command = Some(words);
                }
                "seat" if value.is_empty() => return Err(format!("engine {text:?}: seat=: expected a seat name")),
                "seat" => seat = Some(value.to_string()),
                "dir" => dir = Some(PathBuf::from(value)),
                "tc" => tc = Some(TimeControl::parse(value).map_err(|e| format!("engine {text:?}: tc: {e}"))?),
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.trim().is_empty() => {
                        options.push((option.trim().to_string(), value.to_string()))
                    }
                    _ => {
                        return Err(format!(
                            "engine {text:?}: unknown key {key:?} (known: name, cmd, dir, tc, seat, option.<Name>)"
                        ))
                    }
                },
            }
        }
        let command = command.ok_or_else(|| format!("engine {text:?}: missing cmd=<command line>"))?;
        let name = name.unwrap_or_else(|| {
            let program = &command[0];
            program.rsplit('/').next().unwrap_or(program).to_string()
        });
        Ok(EngineSpec { name, command, dir, options, tc, seat })
    }
}

/// The longest `movetime` (a day).
pub const MAX_MOVETIME_MS: u64 = 86_400_000;

/// How one seat's moves are limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock: `base` to start, `inc` added after each move, and with
    /// `moves` set, `base` added again after every `moves` moves.
    Clock { moves: Option<u32>, base: Duration, inc: Duration },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed search depth in plies (no clock: a hang is judged by the
    /// match's `--timeout`).
    Depth(u32),
    /// A fixed node count (as for depth).
    Nodes(u64),
}

fn seconds(text: &str, what: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if (0.0..1e9).contains(&s) => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!("{what}: expected seconds, got {text:?}")),
    }
}

impl TimeControl {
    /// `[moves/]base[+inc]` in seconds, `movetime=<ms>`, `depth=<plies>` or
    /// `nodes=<n>`.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let what = format!("time control {text:?}");
        let number = |v: &str| v.parse::<u64>().map_err(|_| format!("{what}: expected a whole number, got {v:?}"));
        if let Some((key, value)) = text.split_once('=') {
            return match key {
                "movetime" => match number(value)? {
                    ms if ms > MAX_MOVETIME_MS => Err(format!("{what}: movetime must be at most {MAX_MOVETIME_MS} ms")),
                    ms => Ok(TimeControl::MoveTime(Duration::from_millis(ms.max(1)))),
                },
                "depth" => Ok(TimeControl::Depth(number(value)?.clamp(1, u32::MAX as u64) as u32)),
                "nodes" => Ok(TimeControl::Nodes(number(value)?.max(1))),
                _ => {
                    Err(format!("{what}: unknown kind {key:?} (known: movetime=, depth=, nodes=, or [moves/]base+inc)"))
                }
            };
        }
        let (moves, clock) = match text.split_once('/') {
            Some((m, rest)) => match m.parse::<u32>() {
                Ok(m) if m > 0 => (Some(m), rest),
                _ => return Err(format!("{what}: expected a move count before '/', got {m:?}")),
            },
            None => (None, text),
        };
        let (base, inc) = match clock.split_once('+') {
            Some((b, i)) => (seconds(b, &what)?, seconds(i, &what)?),
            None => (seconds(clock, &what)?, Duration::ZERO),
        };
        if base.is_zero() {
            return Err(format!("{what}: the base time must be more than 0"));
        }
        Ok(TimeControl::Clock { moves, base, inc })
    }

    fn is_repeating_without_inc(&self) -> bool {
        matches!(self, TimeControl::Clock { moves: Some(_), inc, .. } if inc.is_zero())
    }

    pub fn has_clock(&self) -> bool {
        matches!(self, TimeControl::Clock { .. })
    }

    /// The PGN `TimeControl` value: `base+inc` or `moves/seconds` in
    /// seconds; `?` for a repeating control with an increment (PGN has no
    /// form for it) and `-` for limits that are not clocks.
    pub fn pgn(&self) -> String {
        match *self {
            TimeControl::Clock { moves: Some(_), .. } if !self.is_repeating_without_inc() => "?".to_string(),
            TimeControl::Clock { moves: Some(m), base, inc } if inc.is_zero() => {
                format!("{m}/{}", record::seconds(base))
            }
            TimeControl::Clock { moves: None, base, inc } => clock_time_control(base, inc),
            _ => "-".to_string(),
        }
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            TimeControl::Clock { moves, base, inc } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}+{}", record::seconds(base), record::seconds(inc))
            }
            TimeControl::MoveTime(t) => write!(f, "movetime={}", t.as_millis()),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
        }
    }
}

/// `--tc` values: `<tc>` for every seat, or `<seat>:<tc>` for one seat
/// (named as the game names its sides: `white`, `black`, `cats`, `red`).
pub fn parse_seat_tc(text: &str) -> Result<(Option<String>, TimeControl), String> {
    match text.split_once(':') {
        Some((seat, tc)) => Ok((Some(seat.to_ascii_lowercase()), TimeControl::parse(tc)?)),
        None => Ok((None, TimeControl::parse(text)?)),
    }
}

/// When the arbiter ends a game the engines would play on (fastchess's
/// and cutechess's adjudication).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    /// A draw (in Cat Chess: the cats' win) once this many full moves
    /// (moves of every seat) have been played.
    pub max_moves: Option<u32>,
}

/// A draw once the game has reached full move `move_number` and every
/// seat still asked has reported a score within `score` centipawns of 0
/// on each of its last `move_count` moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub move_number: u32,
    pub move_count: u32,
    pub score: i64,
}

/// White or black loses once it has reported a score of `-score`
/// centipawns or worse (or a lost mate) on each of its last `move_count`
/// moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub move_count: u32,
    pub score: i64,
}

/// `key=value` words separated by spaces or commas, each key known.
fn key_values<'a>(flag: &str, text: &'a str, keys: &[&str]) -> Result<Vec<(&'a str, u64)>, String> {
    let mut out = Vec::new();
    for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
        let bad = || format!("{flag} {text:?}: expected {} (whole numbers), got {word:?}", keys.join("=N "));
        let (k, v) = word.split_once('=').ok_or_else(bad)?;
        let v = v.parse::<u64>().ok().filter(|&v| v <= 1_000_000).ok_or_else(bad)?;
        if !keys.contains(&k) || out.iter().any(|(o, _)| *o == k) {
            return Err(bad());
        }
        out.push((k, v));
    }
    if out.len() != keys.len() {
        return Err(format!(
            "{flag} {text:?}: needs all of {}",
            keys.iter().map(|k| format!("{k}=N")).collect::<Vec<_>>().join(" ")
        ));
    }
    Ok(out)
}

impl DrawRule {
    /// `movenumber=40 movecount=8 score=10` (spaces or commas).
    pub fn parse(text: &str) -> Result<DrawRule, String> {
        let kv = key_values("--draw", text, &["movenumber", "movecount", "score"])?;
        let get = |k: &str| kv.iter().find(|(x, _)| *x == k).map(|(_, v)| *v).unwrap_or(0);
        Ok(DrawRule {
            move_number: get("movenumber") as u32,
            move_count: get("movecount").max(1) as u32,
            score: get("score") as i64,
        })
    }
}

impl ResignRule {
    /// `movecount=3 score=600`.
    pub fn parse(text: &str) -> Result<ResignRule, String> {
        let kv = key_values("--resign", text, &["movecount", "score"])?;
        let get = |k: &str| kv.iter().find(|(x, _)| *x == k).map(|(_, v)| *v).unwrap_or(0);
        Ok(ResignRule { move_count: get("movecount").max(1) as u32, score: get("score") as i64 })
    }
}

/// Sequential probability ratio test bounds: H0 is "the first engine is
/// `elo0` stronger than the second", H1 "`elo1` stronger"; `alpha` and
/// `beta` the false positive and false negative rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSpec {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl SprtSpec {
    /// `elo0,elo1,alpha,beta`, e.g. `0,10,0.05,0.05`.
    pub fn parse(text: &str) -> Result<SprtSpec, String> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let usage = format!("--sprt {text:?}: expected elo0,elo1,alpha,beta (e.g. 0,10,0.05,0.05)");
        let [elo0, elo1, alpha, beta] = parts.as_slice() else { return Err(usage) };
        let num = |v: &str| v.parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(|| usage.clone());
        let spec = SprtSpec { elo0: num(elo0)?, elo1: num(elo1)?, alpha: num(alpha)?, beta: num(beta)? };
        if spec.elo0 >= spec.elo1 {
            return Err(format!("--sprt {text:?}: elo0 must be below elo1"));
        }
        let rate = |x: f64| x > 0.0 && x < 0.5;
        if !rate(spec.alpha) || !rate(spec.beta) {
            return Err(format!("--sprt {text:?}: alpha and beta must lie between 0 and 0.5"));
        }
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_split_and_quote() {
        assert_eq!(shell_words("a  b\tc").unwrap(), ["a", "b", "c"]);
        assert_eq!(shell_words(r#"cmd="./x --y 1" 'o.A B=2'"#).unwrap(), ["cmd=./x --y 1", "o.A B=2"]);
        assert_eq!(shell_words(r#"a\ b "q\"x""#).unwrap(), ["a b", "q\"x"]);
        assert_eq!(shell_words("''").unwrap(), [""]);
        assert!(shell_words("'open").is_err());
        assert!(shell_words("\"open").is_err());
        assert!(shell_words("a\\").unwrap_err().contains("trailing"));
    }

    /// Where the shell's rules (and so `shlex`'s) differ from the splitter
    /// written here before: only space, tab and newline separate words, a
    /// word that starts with `#` is a comment, and `\$` is an escape inside
    /// double quotes.
    #[test]
    fn shell_words_follow_the_shell_at_the_edges() {
        assert_eq!(shell_words("a\rb c").unwrap(), ["a\rb", "c"]);
        assert_eq!(shell_words("name=a cmd=x #option.Hash=8").unwrap(), ["name=a", "cmd=x"]);
        assert_eq!(shell_words("cmd=x option.Tag=a#b").unwrap(), ["cmd=x", "option.Tag=a#b"]);
        assert_eq!(shell_words(r#""\$x" "\q""#).unwrap(), ["$x", "\\q"]);
    }

    #[test]
    fn engine_specs() {
        let e =
            EngineSpec::parse(r#"name=A cmd="./catchess random" option.Hash=16 "option.Move Overhead=100" dir=/tmp"#)
                .unwrap();
        assert_eq!(e.name, "A");
        assert_eq!(e.command, ["./catchess", "random"]);
        assert_eq!(e.dir, Some(PathBuf::from("/tmp")));
        assert_eq!(e.options, [("Hash".to_string(), "16".to_string()), ("Move Overhead".into(), "100".into())]);
        assert_eq!(e.tc, None);
        let e = EngineSpec::parse("cmd=/usr/games/stockfish").unwrap();
        assert_eq!(e.name, "stockfish");
        assert_eq!(EngineSpec::parse("cmd=x tc=depth=6").unwrap().tc, Some(TimeControl::Depth(6)));
        assert!(EngineSpec::parse("cmd=x tc=fast").unwrap_err().contains("tc:"));
        assert!(EngineSpec::parse("name=A").unwrap_err().contains("missing cmd"));
        assert!(EngineSpec::parse("cmd=x colour=red").unwrap_err().contains("unknown key \"colour\""));
        assert!(EngineSpec::parse("cmd=x stray").unwrap_err().contains("key=value"));
        assert!(EngineSpec::parse("cmd=").unwrap_err().contains("empty cmd"));
    }

    #[test]
    fn time_controls() {
        let s = Duration::from_secs_f64;
        assert_eq!(
            TimeControl::parse("10+0.1").unwrap(),
            TimeControl::Clock { moves: None, base: s(10.0), inc: s(0.1) }
        );
        assert_eq!(
            TimeControl::parse("40/60").unwrap(),
            TimeControl::Clock { moves: Some(40), base: s(60.0), inc: s(0.0) }
        );
        assert_eq!(TimeControl::parse("movetime=50").unwrap(), TimeControl::MoveTime(Duration::from_millis(50)));
        assert_eq!(TimeControl::parse("depth=3").unwrap(), TimeControl::Depth(3));
        assert_eq!(TimeControl::parse("nodes=1000").unwrap(), TimeControl::Nodes(1000));
        for bad in
            ["", "x", "0", "10+", "1/2/3", "depth=x", "speed=3", "-1+0", "movetime=18446744073709551615", "1e300"]
        {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(TimeControl::parse("10+0.1").unwrap().to_string(), "10+0.1");
        assert_eq!(TimeControl::parse("10+0.1").unwrap().pgn(), "10+0.1");
        assert_eq!(TimeControl::parse("0.5").unwrap().pgn(), "0.5");
        assert_eq!(TimeControl::parse("40/60").unwrap().pgn(), "40/60");
        assert_eq!(TimeControl::parse("depth=2").unwrap().pgn(), "-");
        assert_eq!(parse_seat_tc("Black:depth=2").unwrap(), (Some("black".into()), TimeControl::Depth(2)));
        assert_eq!(parse_seat_tc("5+0").unwrap().0, None);
    }

    #[test]
    fn adjudication_rules() {
        assert_eq!(
            DrawRule::parse("movenumber=40 movecount=8 score=10").unwrap(),
            DrawRule { move_number: 40, move_count: 8, score: 10 }
        );
        assert_eq!(DrawRule::parse("score=5,movecount=2,movenumber=0").unwrap().move_count, 2);
        assert_eq!(ResignRule::parse("movecount=3 score=600").unwrap(), ResignRule { move_count: 3, score: 600 });
        for bad in ["", "movenumber=40 movecount=8", "movenumber=x movecount=8 score=1", "a=1 movecount=8 score=1"] {
            assert!(DrawRule::parse(bad).is_err(), "{bad}");
        }
        assert!(ResignRule::parse("movecount=3 score=-5").is_err());
        assert!(ResignRule::parse("movecount=3 movecount=3").is_err());
    }

    #[test]
    fn sprt_specs() {
        let s = SprtSpec::parse("0, 10, 0.05, 0.1").unwrap();
        assert_eq!(s, SprtSpec { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.1 });
        assert!(SprtSpec::parse("10,0,0.05,0.05").is_err());
        assert!(SprtSpec::parse("0,10,0.05").is_err());
        assert!(SprtSpec::parse("0,10,0.6,0.05").is_err());
    }
}
