//! The engine's options, each declared once: [`TABLE`] gives every
//! option's name, type, range and what setting it does; the protocol's
//! `uci` prints its list from it and `setoption` applies a value through
//! it ([`set`]), as Stockfish's `engine.cpp` does with `options.add(...)`.
//! The games add options of their own (`SearchGame::OPTIONS`: standard
//! chess's `EvalFile`, the chess family's `TablebasePath`), after the
//! table's, so this layer names no game; [`set_game_option`] sets one for
//! a front end without the protocol (`serve --tb-dir`).
//!
//! Adding an option: one entry in [`TABLE`] (name, [`Kind`], how to read
//! its value from [`Options`] and what setting it does) and, if the search
//! or the engine reads it later, a field of [`Options`] with its default
//! in `defaults.rs`.

use super::defaults::{
    HASH_MAX_MB, HASH_MB, MOVE_OVERHEAD_MAX_MS, MOVE_OVERHEAD_MS, MULTIPV_MAX, PROTOCOL_GAME, THREADS, THREADS_MAX,
};
use catchess_games::VariantKind;
use catchess_search::skill::{self, Skill};

/// What setting an option does to the engine a front end runs: the one
/// thing the options table needs of it.
pub trait Settings {
    /// Ends the current game's engine and starts one of `variant`.
    fn switch_variant(&mut self, variant: VariantKind, options: &mut Options);
    /// A table of `mb` MiB (an error, the old table kept, if it cannot be
    /// had).
    fn set_hash(&mut self, mb: usize, options: &Options) -> Result<(), String>;
    fn set_threads(&mut self, n: usize, options: &Options);
    /// Empties the table and the histories.
    fn clear(&mut self, options: &Options);
    /// Stops a running search (before a setting it reads changes).
    fn stop(&mut self, options: &Options);
}

/// Engine options, as `setoption` leaves them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub variant: VariantKind,
    pub hash_mb: usize,
    pub threads: usize,
    pub move_overhead_ms: u64,
    /// Best lines reported per depth.
    pub multipv: usize,
    /// Whether `bestmove` names a move to ponder on.
    pub ponder: bool,
    /// Whether `info` lines carry `wdl`.
    pub show_wdl: bool,
    /// Playing strength (`search::skill`): `UCI_LimitStrength` with
    /// `UCI_Elo` wins over `Skill Level`.
    pub limit_strength: bool,
    pub elo: u32,
    pub skill_level: u32,
}

impl Options {
    /// The strength the options ask for; `None`: full strength.
    pub fn skill(&self) -> Option<Skill> {
        Skill::from_options(self.limit_strength, self.elo, self.skill_level)
    }
}

impl Default for Options {
    /// Standard chess unless the client (or `--variant`) chooses another
    /// game, as Fairy-Stockfish does: a chess GUI that sends no
    /// `UCI_Variant` gets chess.
    fn default() -> Self {
        Options {
            variant: PROTOCOL_GAME,
            hash_mb: HASH_MB,
            threads: THREADS,
            move_overhead_ms: MOVE_OVERHEAD_MS,
            multipv: 1,
            ponder: false,
            show_wdl: false,
            limit_strength: false,
            elo: skill::ELO_MAX,
            skill_level: skill::SKILL_MAX,
        }
    }
}

/// An option's type as UCI names it, with its range.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A whole number from `min` to `max`.
    Spin { min: u64, max: u64 },
    /// `true` or `false`.
    Check,
    /// One of the listed words.
    Combo { vars: fn() -> Vec<&'static str> },
    /// Any text.
    String,
    /// No value: setting it does something.
    Button,
}

/// A value `setoption` gave, read as its option's [`Kind`] and checked
/// against its range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    Number(u64),
    Flag(bool),
    Text(&'a str),
    Press,
}

/// One engine option.
pub struct EngineOption {
    pub name: &'static str,
    pub kind: Kind,
    /// Its value in a set of options, as `uci` writes it (the default is
    /// the value in the options the session started with).
    pub show: fn(&Options) -> String,
    /// Sets a checked value: into the options, and into the engine where
    /// it holds the setting (the table's size, the threads, the game).
    pub set: fn(&mut dyn Settings, &mut Options, Value) -> Result<(), String>,
}

/// Every engine option, in the order `uci` lists them.
pub const TABLE: &[EngineOption] = &[
    EngineOption {
        name: "UCI_Variant",
        kind: Kind::Combo { vars: || VariantKind::ALL.iter().map(|v| v.name()).collect() },
        show: |o| o.variant.to_string(),
        set: |engine, options, v| {
            let variant: VariantKind = v.text().parse()?;
            engine.switch_variant(variant, options);
            Ok(())
        },
    },
    EngineOption {
        name: "Hash",
        kind: Kind::Spin { min: 1, max: HASH_MAX_MB as u64 },
        show: |o| o.hash_mb.to_string(),
        set: |engine, options, v| {
            let mb = v.number() as usize;
            engine.set_hash(mb, options)?;
            options.hash_mb = mb;
            Ok(())
        },
    },
    EngineOption {
        name: "Threads",
        kind: Kind::Spin { min: 1, max: THREADS_MAX as u64 },
        show: |o| o.threads.to_string(),
        set: |engine, options, v| {
            options.threads = v.number() as usize;
            engine.set_threads(options.threads, options);
            Ok(())
        },
    },
    EngineOption {
        name: "Move Overhead",
        kind: Kind::Spin { min: 0, max: MOVE_OVERHEAD_MAX_MS },
        show: |o| o.move_overhead_ms.to_string(),
        set: |_, options, v| {
            options.move_overhead_ms = v.number();
            Ok(())
        },
    },
    EngineOption {
        name: "MultiPV",
        kind: Kind::Spin { min: 1, max: MULTIPV_MAX as u64 },
        show: |o| o.multipv.to_string(),
        set: |_, options, v| {
            options.multipv = v.number() as usize;
            Ok(())
        },
    },
    EngineOption {
        name: "Ponder",
        kind: Kind::Check,
        show: |o| o.ponder.to_string(),
        set: |_, options, v| {
            options.ponder = v.flag();
            Ok(())
        },
    },
    EngineOption {
        name: "UCI_ShowWDL",
        kind: Kind::Check,
        show: |o| o.show_wdl.to_string(),
        set: |_, options, v| {
            options.show_wdl = v.flag();
            Ok(())
        },
    },
    EngineOption {
        name: "UCI_LimitStrength",
        kind: Kind::Check,
        show: |o| o.limit_strength.to_string(),
        set: |_, options, v| {
            options.limit_strength = v.flag();
            Ok(())
        },
    },
    EngineOption {
        name: "UCI_Elo",
        kind: Kind::Spin { min: skill::ELO_MIN as u64, max: skill::ELO_MAX as u64 },
        show: |o| o.elo.to_string(),
        set: |_, options, v| {
            options.elo = v.number() as u32;
            Ok(())
        },
    },
    EngineOption {
        name: "Skill Level",
        kind: Kind::Spin { min: 0, max: skill::SKILL_MAX as u64 },
        show: |o| o.skill_level.to_string(),
        set: |_, options, v| {
            options.skill_level = v.number() as u32;
            Ok(())
        },
    },
    EngineOption {
        name: "Clear Hash",
        kind: Kind::Button,
        show: |_| String::new(),
        set: |engine, options, _| {
            engine.clear(options);
            Ok(())
        },
    },
];

impl Value<'_> {
    fn number(&self) -> u64 {
        match self {
            Value::Number(n) => *n,
            other => unreachable!("a spin option is given a number, not {other:?}"),
        }
    }

    fn flag(&self) -> bool {
        match self {
            Value::Flag(b) => *b,
            other => unreachable!("a check option is given a flag, not {other:?}"),
        }
    }

    fn text(&self) -> &str {
        match self {
            Value::Text(t) => t,
            other => unreachable!("a combo or string option is given text, not {other:?}"),
        }
    }
}

impl EngineOption {
    /// `value` read as this option's kind; `name` is the client's spelling.
    fn read<'a>(&self, name: &str, value: Option<&'a str>) -> Result<Value<'a>, String> {
        let need = || value.ok_or_else(|| format!("option '{name}' needs a value"));
        match self.kind {
            Kind::Spin { min, max } => {
                let v = need()?;
                match v.parse::<u64>() {
                    Ok(n) if (min..=max).contains(&n) => Ok(Value::Number(n)),
                    _ => Err(format!("option '{name}' takes a whole number from {min} to {max}, got '{v}'")),
                }
            }
            Kind::Check => {
                let v = need()?;
                match v.to_ascii_lowercase().as_str() {
                    "true" => Ok(Value::Flag(true)),
                    "false" => Ok(Value::Flag(false)),
                    _ => Err(format!("option '{name}' takes true or false, got '{v}'")),
                }
            }
            Kind::Combo { .. } | Kind::String => need().map(Value::Text),
            Kind::Button => match value {
                None => Ok(Value::Press),
                Some(_) => Err(format!("'{}' is a button and takes no value", self.name)),
            },
        }
    }
}

/// `setoption name <name> [value <value>]`: the option whose name is
/// `name` (any case), set to `value`.
pub fn set(engine: &mut dyn Settings, name: &str, value: Option<&str>, options: &mut Options) -> Result<(), String> {
    if let Some(o) = TABLE.iter().find(|o| o.name.eq_ignore_ascii_case(name)) {
        let value = o.read(name, value)?;
        return (o.set)(engine, options, value);
    }
    if catchess_games::options().iter().any(|o| o.name.eq_ignore_ascii_case(name)) {
        let value = value.ok_or_else(|| format!("option '{name}' needs a value"))?;
        if set_game_option(name, value, &mut || engine.stop(options))? {
            // The table keeps static values: the old evaluation's.
            engine.clear(options);
        }
        return Ok(());
    }
    #[cfg(feature = "tune")]
    if let Some(result) = catchess_search::params::set_tunable(name, value.unwrap_or_default()) {
        return result;
    }
    Err(format!("unknown option '{name}'"))
}

/// Sets a game's own option (`EvalFile`, `TablebasePath`) by its name (any
/// case), `before_change` stopping whatever reads it; whether the
/// evaluation changed (a table of the old values must then be cleared).
pub fn set_game_option(name: &str, value: &str, before_change: &mut dyn FnMut()) -> Result<bool, String> {
    let option = catchess_games::options()
        .into_iter()
        .find(|o| o.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown option '{name}'"))?;
    (option.set)(value, before_change)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_two_options_share_a_name() {
        let mut names: Vec<String> = TABLE.iter().map(|o| o.name.to_lowercase()).collect();
        names.extend(catchess_games::options().iter().map(|o| o.name.to_lowercase()));
        let all = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all);
    }

    #[test]
    fn values_are_read_as_their_kind_and_checked() {
        let hash = &TABLE[1];
        assert_eq!(hash.read("hash", Some("32")), Ok(Value::Number(32)));
        assert!(hash.read("hash", Some("0")).unwrap_err().contains("from 1 to 65536, got '0'"));
        assert!(hash.read("hash", None).unwrap_err().contains("needs a value"));
        let ponder = TABLE.iter().find(|o| o.name == "Ponder").unwrap();
        assert_eq!(ponder.read("ponder", Some("TRUE")), Ok(Value::Flag(true)));
        assert!(ponder.read("ponder", Some("yes")).unwrap_err().contains("true or false"));
        let clear = TABLE.iter().find(|o| o.name == "Clear Hash").unwrap();
        assert_eq!(clear.read("clear hash", None), Ok(Value::Press));
        assert!(clear.read("clear hash", Some("1")).unwrap_err().contains("is a button"));
    }
}
