//! The engine's options, each declared once: [`TABLE`] gives every
//! option's name, type, range and what setting it does; `uci` prints its
//! list from it ([`uci_lines`]) and `setoption` applies a value through it
//! ([`set`]), as Stockfish's `engine.cpp` does with `options.add(...)`.
//! The games add options of their own (`SearchGame::OPTIONS`, standard
//! chess's `EvalFile`), listed after the table's, so this layer names no
//! game.
//!
//! Adding an option: one entry in [`TABLE`] (name, [`Kind`], how to read
//! its value from [`Options`] and what setting it does) and, if the search
//! or the session reads it later, a field of [`Options`] with its default.

use super::session::AnySession;
use crate::games::VariantKind;
use crate::search::skill::{self, Skill};

pub const HASH_MAX_MB: usize = 65_536;
pub const THREADS_MAX: usize = 256;
pub const MOVE_OVERHEAD_MAX_MS: u64 = 5_000;
pub const MULTIPV_MAX: usize = 256;

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
            variant: VariantKind::default(),
            hash_mb: 16,
            threads: 1,
            move_overhead_ms: 30,
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
pub struct UciOption {
    pub name: &'static str,
    pub kind: Kind,
    /// Its value in a set of options, as `uci` writes it (the default is
    /// the value in the options the session started with).
    pub show: fn(&Options) -> String,
    /// Sets a checked value: into the options, and into the session where
    /// it holds the setting (the table's size, the threads, the game).
    pub set: fn(&mut AnySession, &mut Options, Value) -> Result<(), String>,
}

/// Every engine option, in the order `uci` lists them.
pub const TABLE: &[UciOption] = &[
    UciOption {
        name: "UCI_Variant",
        kind: Kind::Combo { vars: || VariantKind::ALL.iter().map(|v| v.name()).collect() },
        show: |o| o.variant.to_string(),
        set: |session, options, v| {
            let variant: VariantKind = v.text().parse()?;
            session.switch_variant(variant, options);
            Ok(())
        },
    },
    UciOption {
        name: "Hash",
        kind: Kind::Spin { min: 1, max: HASH_MAX_MB as u64 },
        show: |o| o.hash_mb.to_string(),
        set: |session, options, v| {
            let mb = v.number() as usize;
            session.game().set_hash(mb, options)?;
            options.hash_mb = mb;
            Ok(())
        },
    },
    UciOption {
        name: "Threads",
        kind: Kind::Spin { min: 1, max: THREADS_MAX as u64 },
        show: |o| o.threads.to_string(),
        set: |session, options, v| {
            options.threads = v.number() as usize;
            session.game().set_threads(options.threads, options);
            Ok(())
        },
    },
    UciOption {
        name: "Move Overhead",
        kind: Kind::Spin { min: 0, max: MOVE_OVERHEAD_MAX_MS },
        show: |o| o.move_overhead_ms.to_string(),
        set: |_, options, v| {
            options.move_overhead_ms = v.number();
            Ok(())
        },
    },
    UciOption {
        name: "MultiPV",
        kind: Kind::Spin { min: 1, max: MULTIPV_MAX as u64 },
        show: |o| o.multipv.to_string(),
        set: |_, options, v| {
            options.multipv = v.number() as usize;
            Ok(())
        },
    },
    UciOption {
        name: "Ponder",
        kind: Kind::Check,
        show: |o| o.ponder.to_string(),
        set: |_, options, v| {
            options.ponder = v.flag();
            Ok(())
        },
    },
    UciOption {
        name: "UCI_ShowWDL",
        kind: Kind::Check,
        show: |o| o.show_wdl.to_string(),
        set: |_, options, v| {
            options.show_wdl = v.flag();
            Ok(())
        },
    },
    UciOption {
        name: "UCI_LimitStrength",
        kind: Kind::Check,
        show: |o| o.limit_strength.to_string(),
        set: |_, options, v| {
            options.limit_strength = v.flag();
            Ok(())
        },
    },
    UciOption {
        name: "UCI_Elo",
        kind: Kind::Spin { min: skill::ELO_MIN as u64, max: skill::ELO_MAX as u64 },
        show: |o| o.elo.to_string(),
        set: |_, options, v| {
            options.elo = v.number() as u32;
            Ok(())
        },
    },
    UciOption {
        name: "Skill Level",
        kind: Kind::Spin { min: 0, max: skill::SKILL_MAX as u64 },
        show: |o| o.skill_level.to_string(),
        set: |_, options, v| {
            options.skill_level = v.number() as u32;
            Ok(())
        },
    },
    UciOption {
        name: "Clear Hash",
        kind: Kind::Button,
        show: |_| String::new(),
        set: |session, options, _| {
            session.game().clear(options);
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

impl UciOption {
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

    /// The option's `uci` line, with its value in `defaults` as the default.
    fn uci_line(&self, defaults: &Options) -> String {
        let (name, default) = (self.name, (self.show)(defaults));
        match self.kind {
            Kind::Spin { min, max } => format!("option name {name} type spin default {default} min {min} max {max}"),
            Kind::Check => format!("option name {name} type check default {default}"),
            Kind::Combo { vars } => {
                let vars: Vec<String> = vars().iter().map(|v| format!("var {v}")).collect();
                format!("option name {name} type combo default {default} {}", vars.join(" "))
            }
            Kind::String => format!("option name {name} type string default {default}"),
            Kind::Button => format!("option name {name} type button"),
        }
    }
}

/// The `option` lines of `uci`: the table's, then the games'.
pub fn uci_lines(defaults: &Options) -> Vec<String> {
    let mut lines: Vec<String> = TABLE.iter().map(|o| o.uci_line(defaults)).collect();
    for o in crate::games::options() {
        lines.push(format!("option name {} type string default {}", o.name, o.default));
    }
    lines
}

/// `setoption name <name> [value <value>]`: the option whose name is
/// `name` (any case), set to `value`.
pub fn set(session: &mut AnySession, name: &str, value: Option<&str>, options: &mut Options) -> Result<(), String> {
    if let Some(o) = TABLE.iter().find(|o| o.name.eq_ignore_ascii_case(name)) {
        let value = o.read(name, value)?;
        return (o.set)(session, options, value);
    }
    if let Some(o) = crate::games::options().into_iter().find(|o| o.name.eq_ignore_ascii_case(name)) {
        let value = value.ok_or_else(|| format!("option '{name}' needs a value"))?;
        let game = session.game();
        if (o.set)(value, &mut || game.stop(options))? {
            // The table keeps static values: the old evaluation's.
            game.clear(options);
        }
        return Ok(());
    }
    Err(format!("unknown option '{name}'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_listed_once_with_its_type_and_range() {
        let lines = uci_lines(&Options::default());
        assert_eq!(lines.len(), TABLE.len() + crate::games::options().len());
        assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 65536".to_string()));
        assert!(lines.contains(&"option name Clear Hash type button".to_string()));
        assert!(lines[0].starts_with("option name UCI_Variant type combo default chess var catchess var chess"));
        let mut names: Vec<String> = lines.iter().map(|l| l.split(" type ").next().unwrap().to_lowercase()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), lines.len(), "no two options share a name");
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
