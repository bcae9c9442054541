//! The data file (`--out FILE`) and its state file (`FILE.state`), which
//! make a run resumable: after each finished game the game's records are
//! appended to FILE and flushed to disk, and only then the state is
//! replaced (written beside it and renamed over it) with the count of
//! games and the length of FILE that hold them. A run killed at any moment
//! (SIGTERM, SIGKILL, a crash) leaves a state that describes whole games;
//! the same command then cuts FILE back to that length (a game written
//! only in part is dropped) and goes on with the next game, so the file
//! ends as an uninterrupted run's would.
//!
//! The state also keeps the settings that decide the data (game, format,
//! seed, nodes, the search's fingerprint, the shard): a run with other
//! settings is refused rather than mixed into the file.

use catchess_core::files::read_bounded;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

const HEADER: &str = "catchess datagen state 1";

/// What the state file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// The settings the data depends on, as one line.
    pub settings: String,
    /// The next game to play (its index in the run).
    pub next: u64,
    /// Positions and bytes in the file so far.
    pub positions: u64,
    pub bytes: u64,
}

impl State {
    fn text(&self) -> String {
        format!(
            "{HEADER}\nsettings {}\nnext {}\npositions {}\nbytes {}\n",
            self.settings, self.next, self.positions, self.bytes
        )
    }

    fn parse(text: &str, path: &str) -> Result<State, String> {
        let mut lines = text.lines();
        if lines.next() != Some(HEADER) {
            return Err(format!("{path}: not a catchess datagen state file"));
        }
        let (mut settings, mut next, mut positions, mut bytes) = (None, None, None, None);
        for line in lines {
            match line.split_once(' ') {
                Some(("settings", v)) => settings = Some(v.to_string()),
                Some(("next", v)) => next = v.parse().ok(),
                Some(("positions", v)) => positions = v.parse().ok(),
                Some(("bytes", v)) => bytes = v.parse().ok(),
                _ => {}
            }
        }
        match (settings, next, positions, bytes) {
            (Some(settings), Some(next), Some(positions), Some(bytes)) => {
                Ok(State { settings, next, positions, bytes })
            }
            _ => Err(format!("{path}: incomplete datagen state")),
        }
    }
}

/// The state file of a data file.
pub fn state_path(out: &str) -> String {
    format!("{out}.state")
}

/// An open data file and the state that describes it.
pub struct Output {
    file: File,
    path: String,
    state: State,
}

impl Output {
    /// Opens `path` to go on with the run its state file describes (cut
    /// back to the last whole game), or starts a new one with `header` at
    /// game `first`. `settings` must be the state's.
    pub fn open(path: &str, settings: &str, header: &[u8], first: u64) -> Result<Output, String> {
        let state_file = state_path(path);
        let exists = Path::new(path).exists();
        if !Path::new(&state_file).exists() {
            if exists {
                return Err(format!(
                    "{path} exists and has no {state_file}: it is no datagen run to go on with; \
                     remove it or choose another --out"
                ));
            }
            return Self::create(path, settings, header, first);
        }
        let text = read_bounded(&state_file, 1 << 20).map_err(|e| format!("cannot read {state_file}: {e}"))?;
        let state = State::parse(&text, &state_file)?;
        if state.settings != settings {
            return Err(format!(
                "{path} was made with other settings; run the command that made it, or choose another --out\n  \
                 {state_file}: {}\n  this command: {settings}",
                state.settings
            ));
        }
        if !exists && state.positions == 0 && state.bytes == header.len() as u64 {
            // Stopped between writing the state and the file: nothing lost.
            return Self::create(path, settings, header, state.next);
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| format!("cannot open {path} (its state file is {state_file}): {e}"))?;
        lock(&file, path)?;
        let len = file.metadata().map_err(|e| format!("{path}: {e}"))?.len();
        if len < state.bytes {
            return Err(format!(
                "{path} holds {len} bytes, less than the {} its state file says: not the file {state_file} describes",
                state.bytes
            ));
        }
        let mut start = vec![0; header.len()];
        file.read_exact(&mut start).map_err(|e| format!("cannot read {path}: {e}"))?;
        if start != header {
            return Err(format!("{path} does not begin with the header of this game's data"));
        }
        // A game written only in part before the run stopped.
        file.set_len(state.bytes).map_err(|e| format!("cannot cut {path} back to its last whole game: {e}"))?;
        file.seek(SeekFrom::End(0)).map_err(|e| format!("{path}: {e}"))?;
        Ok(Output { file, path: path.to_string(), state })
    }

    fn create(path: &str, settings: &str, header: &[u8], first: u64) -> Result<Output, String> {
        let state = State { settings: settings.to_string(), next: first, positions: 0, bytes: header.len() as u64 };
        // The state first: a run stopped before the file exists starts over.
        write_state(path, &state)?;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| format!("cannot create {path}: {e}"))?;
        lock(&file, path)?;
        file.write_all(header).and_then(|()| file.sync_data()).map_err(|e| format!("cannot write {path}: {e}"))?;
        Ok(Output { file, path: path.to_string(), state })
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    /// Appends game `game`'s records (`positions` of them, in `bytes`):
    /// the data on disk first, then the state that counts it.
    pub fn append(&mut self, game: u64, bytes: &[u8], positions: u64) -> Result<(), String> {
        debug_assert_eq!(game, self.state.next);
        self.file
            .write_all(bytes)
            .and_then(|()| self.file.sync_data())
            .map_err(|e| format!("cannot write {}: {e}", self.path))?;
        self.state.next = game + 1;
        self.state.positions += positions;
        self.state.bytes += bytes.len() as u64;
        write_state(&self.path, &self.state)
    }
}

/// Locks the data file for this run (released when the process ends,
/// however it ends): two runs on one file would interleave their games.
fn lock(file: &File, path: &str) -> Result<(), String> {
    file.try_lock().map_err(|e| match e {
        std::fs::TryLockError::WouldBlock => format!("{path} is being written by another datagen run"),
        std::fs::TryLockError::Error(e) => format!("cannot lock {path}: {e}"),
    })
}

/// Replaces the state file whole: written beside it, then renamed over it.
fn write_state(out: &str, state: &State) -> Result<(), String> {
    let path = state_path(out);
    let temporary = format!("{path}.new");
    std::fs::write(&temporary, state.text())
        .and_then(|()| std::fs::rename(&temporary, &path))
        .map_err(|e| format!("cannot write {path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> String {
        let path = std::env::temp_dir().join(format!("catchess-datagen-output-{}-{name}", std::process::id()));
        let path = path.to_string_lossy().into_owned();
        clean(&path);
        path
    }

    fn clean(path: &str) {
        let _ = std::fs::remove_file(path);
        let _ = std::fs::remove_file(state_path(path));
    }

    #[test]
    fn a_torn_game_is_cut_off_and_the_run_goes_on_after_the_last_whole_one() {
        let path = temp("torn");
        let mut out = Output::open(&path, "s", b"HEAD", 3).unwrap();
        out.append(3, b"game3", 2).unwrap();
        out.append(4, b"game4!", 1).unwrap();
        drop(out);
        // A game half written when the run was killed.
        OpenOptions::new().append(true).open(&path).unwrap().write_all(b"gam").unwrap();
        let out = Output::open(&path, "s", b"HEAD", 0).unwrap();
        assert_eq!(out.state(), &State { settings: "s".into(), next: 5, positions: 3, bytes: 15 });
        drop(out);
        assert_eq!(std::fs::read(&path).unwrap(), b"HEADgame3game4!");
        clean(&path);
    }

    #[test]
    fn other_settings_a_foreign_file_or_a_short_one_are_refused() {
        let path = temp("refused");
        let mut out = Output::open(&path, "seed 1", b"HEAD", 0).unwrap();
        out.append(0, b"game0", 4).unwrap();
        drop(out);
        let e = Output::open(&path, "seed 2", b"HEAD", 0).err().unwrap();
        assert!(e.contains("other settings") && e.contains("seed 1") && e.contains("seed 2"), "{e}");
        assert!(Output::open(&path, "seed 1", b"HELO", 0).err().unwrap().contains("header"));
        std::fs::write(&path, b"HEADgam").unwrap();
        assert!(Output::open(&path, "seed 1", b"HEAD", 0).err().unwrap().contains("less than"));
        std::fs::remove_file(state_path(&path)).unwrap();
        let e = Output::open(&path, "seed 1", b"HEAD", 0).err().unwrap();
        assert!(e.contains("no datagen run"), "{e}");
        std::fs::write(state_path(&path), "garbage").unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(Output::open(&path, "seed 1", b"HEAD", 0).err().unwrap().contains("not a catchess datagen state"));
        clean(&path);
    }

    #[test]
    fn a_file_another_run_is_writing_is_refused() {
        let path = temp("locked");
        let first = Output::open(&path, "s", b"HEAD", 0).unwrap();
        let e = Output::open(&path, "s", b"HEAD", 0).err().unwrap();
        assert!(e.contains("another datagen run"), "{e}");
        drop(first);
        assert!(Output::open(&path, "s", b"HEAD", 0).is_ok(), "free once the first run is over");
        clean(&path);
    }

    #[test]
    fn a_run_stopped_before_its_file_existed_starts_again() {
        let path = temp("early");
        drop(Output::open(&path, "s", b"HEAD", 2).unwrap());
        std::fs::remove_file(&path).unwrap();
        let out = Output::open(&path, "s", b"HEAD", 2).unwrap();
        assert_eq!(out.state().next, 2);
        assert_eq!(std::fs::read(&path).unwrap(), b"HEAD");
        clean(&path);
    }
}
