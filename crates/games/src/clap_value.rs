//! A game as a command-line value (feature `clap`): every front end's
//! `--variant` reads with `VariantKind`'s own parser, its error lists the
//! games, and `--help` shows them (from `games!`).

use crate::VariantKind;
use clap::builder::{PossibleValue, TypedValueParser, ValueParserFactory};

/// `--variant`: a game by its `UCI_Variant` name, read with
/// `VariantKind`'s own parser; clap lists the names in `--help`.
#[derive(Clone, Copy, Debug)]
pub struct VariantParser;

impl TypedValueParser for VariantParser {
    type Value = VariantKind;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<VariantKind, clap::Error> {
        value.to_string_lossy().parse().map_err(|e: String| {
            let flag = arg.map(|a| format!("{a}: ")).unwrap_or_default();
            clap::Error::raw(clap::error::ErrorKind::InvalidValue, format!("{flag}{e}\n")).with_cmd(cmd)
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(VariantKind::ALL.iter().map(|v| PossibleValue::new(v.name()))))
    }
}

impl ValueParserFactory for VariantKind {
    type Parser = VariantParser;
    fn value_parser() -> VariantParser {
        VariantParser
    }
}
