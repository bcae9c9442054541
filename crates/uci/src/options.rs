//! The engine's options as the protocol writes them: the `option` lines of
//! `uci`, from the engine's table (`engine::options`).

use catchess_engine::{EngineOption, Kind, Options, TABLE};

/// The option's `uci` line, with its value in `defaults` as the default.
fn uci_line(option: &EngineOption, defaults: &Options) -> String {
    let (name, default) = (option.name, (option.show)(defaults));
    match option.kind {
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

/// The `option` lines of `uci`: the table's, then the games'.
pub fn uci_lines(defaults: &Options) -> Vec<String> {
    let mut lines: Vec<String> = TABLE.iter().map(|o| uci_line(o, defaults)).collect();
    for o in catchess_games::options() {
        lines.push(format!("option name {} type string default {}", o.name, o.default));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_listed_once_with_its_type_and_range() {
        let lines = uci_lines(&Options::default());
        assert_eq!(lines.len(), TABLE.len() + catchess_games::options().len());
        assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 65536".to_string()));
        assert!(lines.contains(&"option name Clear Hash type button".to_string()));
        assert!(lines[0].starts_with("option name UCI_Variant type combo default chess var catchess var chess"));
        assert!(lines.iter().any(|l| l.starts_with("option name TablebasePath type string")));
    }
}
