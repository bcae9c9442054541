//! An engine option a game adds to the protocol's list, so that the
//! protocol layer sets it without naming the game (standard chess's
//! `EvalFile`, its evaluation network). A game declares its options in
//! `SearchGame::OPTIONS`; `games::options()` gathers those of every game.

/// A `string` option of a game.
#[derive(Debug)]
pub struct GameOption {
    pub name: &'static str,
    /// The value `uci` lists as the default.
    pub default: &'static str,
    /// Sets the option. `before_change` runs just before the engine's
    /// evaluation changes (the caller stops any search there). Answers
    /// whether it changed: the transposition table's values are then
    /// stale.
    pub set: fn(value: &str, before_change: &mut dyn FnMut()) -> Result<bool, String>,
}
