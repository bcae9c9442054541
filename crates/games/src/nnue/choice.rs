//! A game's protocol option `EvalFile`: which network the game evaluates
//! with, chosen at most once per process.

use super::{Network, Shape};
use once_cell::sync::{Lazy, OnceCell};
use std::io::Read;

/// What the protocol's `EvalFile` calls the built-in network, no network
/// (the hand-made evaluation alone), and the default (what a GUI's empty
/// string field sends).
pub const BUILT_IN_NAME: &str = "<built-in>";
pub const NO_NETWORK: &str = "<none>";
pub const DEFAULT_NAME: &str = "<empty>";

/// One game's network: its built-in one, if the game has one, until
/// `EvalFile` chooses. Chosen at most once per process: a search never
/// sees its evaluation change but for that first choice, and no client can
/// make the engine hold more than one file's network.
pub struct Choice {
    shape: &'static Shape,
    built_in: Option<&'static Lazy<Network>>,
    /// The name chosen and its network (`None`: no network).
    chosen: OnceCell<(String, Option<&'static Network>)>,
}

impl Choice {
    pub const fn new(shape: &'static Shape, built_in: Option<&'static Lazy<Network>>) -> Choice {
        Choice { shape, built_in, chosen: OnceCell::new() }
    }

    pub fn shape(&self) -> &'static Shape {
        self.shape
    }

    /// Refuses a choice of `name` once another is made (see `load`).
    pub fn check(&self, name: &str) -> Result<(), String> {
        self.answer_if_chosen(name).unwrap_or(Ok(()))
    }

    /// `EvalFile`'s default: the built-in network, or none if the game
    /// has none.
    pub const fn default_name(&self) -> &'static str {
        if self.built_in.is_some() {
            BUILT_IN_NAME
        } else {
            NO_NETWORK
        }
    }

    /// The network the game evaluates with, if any.
    #[inline(always)]
    pub fn loaded(&self) -> Option<&'static Network> {
        match self.chosen.get() {
            Some((_, net)) => *net,
            None => self.built_in.map(|n| &**n),
        }
    }

    /// The name (a path, `BUILT_IN_NAME` or `NO_NETWORK`) of what the game
    /// evaluates with.
    pub fn loaded_file(&self) -> &str {
        self.chosen.get().map_or(self.default_name(), |(name, _)| name.as_str())
    }

    /// Chooses what the game evaluates with: the network file at `name`,
    /// the built-in network or none (`DEFAULT_NAME`: the default). Asking
    /// again for what is chosen changes nothing; asking for anything else
    /// after a choice is refused. `before_change` runs just before the
    /// evaluation changes, once the new network is read: the caller stops
    /// any search there, which must not see two evaluations. Answers
    /// whether the evaluation changed (then what the caller's table keeps
    /// is stale).
    pub fn load(&self, name: &str, before_change: impl FnOnce()) -> Result<bool, String> {
        let name = if name == DEFAULT_NAME { self.default_name() } else { name };
        if let Some(answer) = self.answer_if_chosen(name) {
            return answer.map(|()| false);
        }
        let net = match name {
            BUILT_IN_NAME => Some(self.built_in()?),
            NO_NETWORK => None,
            path => Some(&*Box::leak(Box::new(self.read_file(path)?))),
        };
        let address = |net: Option<&'static Network>| net.map(|n| n as *const Network);
        let changes = address(net) != address(self.loaded());
        if changes {
            before_change();
        }
        // Another thread may have won the race: then its choice stays (and a
        // file's network read for nothing stays in memory, once per process).
        let won = self.chosen.set((name.to_string(), net)).is_ok();
        self.answer_if_chosen(name).expect("a choice was made just now").map(|()| won && changes)
    }

    /// The network `name` (as `EvalFile` names one: a file, or the
    /// built-in) without choosing it for play: what `catchess train
    /// --init` starts from.
    pub fn read(&self, name: &str) -> Result<Network, String> {
        match name {
            BUILT_IN_NAME | DEFAULT_NAME => self.built_in().cloned(),
            NO_NETWORK => Err(format!("{NO_NETWORK} is no network: name a network file or {BUILT_IN_NAME}")),
            path => self.read_file(path),
        }
    }

    fn built_in(&self) -> Result<&'static Network, String> {
        self.built_in.map(|n| &**n).ok_or_else(|| {
            format!("{} has no built-in network yet: name a network file or {NO_NETWORK}", self.shape.game)
        })
    }

    /// `load`'s answer once a choice is made, if one is: fine for the same
    /// name, refused for another.
    fn answer_if_chosen(&self, name: &str) -> Option<Result<(), String>> {
        let (current, _) = self.chosen.get()?;
        Some(if current == name {
            Ok(())
        } else {
            Err(format!("EvalFile is {current} already; restart the engine to choose another"))
        })
    }

    /// Reads a network file of this game.
    fn read_file(&self, path: &str) -> Result<Network, String> {
        // Only a regular file, and no more of it than a network takes: a
        // device or a pipe named by a client must not hang or fill memory.
        let (file, _) = catchess_core::files::open_regular(path)?;
        let mut bytes = Vec::new();
        let limit = self.shape.file_bytes() as u64 + 1;
        file.take(limit).read_to_end(&mut bytes).map_err(|e| format!("cannot read {path}: {e}"))?;
        Network::from_bytes(self.shape, &bytes).map_err(|e| format!("{path}: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::tests::patterned;
    use crate::nnue::XIANGQI;

    #[test]
    fn a_game_without_a_built_in_network_starts_with_none_and_reads_its_own_files() {
        let choice = Choice::new(&XIANGQI, None);
        assert_eq!(choice.default_name(), NO_NETWORK);
        assert!(choice.loaded().is_none());
        assert_eq!(choice.loaded_file(), NO_NETWORK);
        assert!(choice.read(BUILT_IN_NAME).unwrap_err().contains("xiangqi has no built-in network"));
        assert!(choice.load(BUILT_IN_NAME, || ()).unwrap_err().contains("no built-in"));
        let dir = std::env::temp_dir().join(format!("catchess-choice-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let chess = dir.join("chess.nnue");
        std::fs::write(&chess, patterned(&crate::nnue::CHESS).to_bytes()).unwrap();
        assert!(choice.load(chess.to_str().unwrap(), || ()).unwrap_err().contains("not a catchess xiangqi network"));
        let own = dir.join("xiangqi.nnue");
        std::fs::write(&own, patterned(&XIANGQI).to_bytes()).unwrap();
        let mut stopped = false;
        assert_eq!(choice.load(own.to_str().unwrap(), || stopped = true), Ok(true));
        assert!(stopped, "the search is stopped before the evaluation changes");
        assert_eq!(*choice.loaded().unwrap(), patterned(&XIANGQI));
        assert!(choice.load(NO_NETWORK, || ()).unwrap_err().contains("already"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
