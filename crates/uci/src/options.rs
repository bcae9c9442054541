//! The engine's options as the protocol writes them: the `option` lines of
//! `uci`, from the engine's table (`engine::options`), the games' and, in a
//! build with the `tune` feature, the search's tunable parameters
//! (`search::params::TUNABLES`), which `spsa` prints as OpenBench's SPSA
//! input.

use catchess_engine::{EngineOption, Kind, Options, TABLE};
use catchess_search::params::TUNABLES;
use catchess_search::Tunable;

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

/// The `option` lines of `uci`: the table's, the games', then (the `tune`
/// build) the tunable search parameters'.
pub fn uci_lines(defaults: &Options) -> Vec<String> {
    let mut lines: Vec<String> = TABLE.iter().map(|o| uci_line(o, defaults)).collect();
    for o in catchess_games::options() {
        lines.push(format!("option name {} type string default {}", o.name, o.default));
    }
    if cfg!(feature = "tune") {
        lines.extend(TUNABLES.iter().map(Tunable::uci_line));
    }
    lines
}

/// What `spsa` prints: each tunable parameter as OpenBench's SPSA input
/// takes it. Only a build with the `tune` feature has them as options.
pub fn spsa_lines() -> Result<Vec<String>, String> {
    if !cfg!(feature = "tune") {
        return Err("spsa: this build has no tunable options; build with the tune feature (make TUNE=1)".into());
    }
    Ok(TUNABLES.iter().map(Tunable::spsa_line).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_listed_once_with_its_type_and_range() {
        let lines = uci_lines(&Options::default());
        let tunables = if cfg!(feature = "tune") { TUNABLES.len() } else { 0 };
        assert_eq!(lines.len(), TABLE.len() + catchess_games::options().len() + tunables);
        assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 65536".to_string()));
        assert!(lines.contains(&"option name Clear Hash type button".to_string()));
        assert!(lines[0].starts_with("option name UCI_Variant type combo default chess var catchess var chess"));
        assert!(lines.iter().any(|l| l.starts_with("option name TablebasePath type string")));
    }

    /// The default build's options are constants; the `tune` build lists
    /// and prints every tunable parameter.
    #[test]
    fn tunable_parameters_are_options_only_in_the_tune_build() {
        let lines = uci_lines(&Options::default());
        let listed = lines.iter().any(|l| l == "option name rfp_margin type spin default 85 min 40 max 150");
        assert_eq!(listed, cfg!(feature = "tune"));
        match (spsa_lines(), cfg!(feature = "tune")) {
            (Ok(spsa), true) => {
                assert_eq!(spsa.len(), TUNABLES.len());
                assert_eq!(spsa[0], "rfp_margin, int, 85, 40, 150, 8, 0.002");
            }
            (Err(e), false) => assert!(e.contains("build with the tune feature"), "{e}"),
            (other, tune) => panic!("{other:?} in a build with tune {tune}"),
        }
    }
}
