//! One server per database file: an exclusive lock on a file beside it
//! (`games.sqlite3.lock`), taken before the database is opened and held
//! while the server runs. Two servers writing one file would each answer
//! moves that the other then overwrites, and each one's eviction would
//! delete the other's games; the second server refuses to start instead,
//! naming the file and the holder.
//!
//! Why a lock file (`File::try_lock`: `flock` on Unix, `LockFileEx` on
//! Windows): the system releases it when the process ends however it
//! ends (a crash or SIGKILL included), so there is never a stale lock to
//! clear by hand, and the file can say who holds it (pid and address).
//! Not a lock on the database file itself: SQLite takes POSIX locks on
//! it, and where `flock` is emulated with POSIX locks (NFS) a whole-file
//! lock would collide with SQLite's own. Not SQLite's
//! `locking_mode=EXCLUSIVE`: it would shut out the `sqlite3` shell too (no
//! look inside, no `.backup` while the server runs) and cannot name the
//! holder. The lock file stays when the server stops: deleting it would
//! let a server starting then lock a file that a third one just opened.
//!
//! A refusal waits [`GRACE`] first: a lock just released can still be
//! held for a moment by a child process the same program is starting
//! (between its fork and its exec it holds a copy of every descriptor,
//! the lock file's too), as when a server is stopped and started again in
//! one process that also runs commands (the tests; an embedding program).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a lock held elsewhere is waited for before the refusal (the
/// module's note): far longer than a child's exec takes, and short next
/// to a server's start.
const GRACE: Duration = Duration::from_millis(500);

/// How often the lock is tried again within [`GRACE`].
const RETRY: Duration = Duration::from_millis(10);

/// The lock on a database; released when dropped (or by the system when
/// the process ends).
#[derive(Debug)]
pub struct DbLock {
    _file: File,
}

/// The lock file of the database at `db`: beside it, under its real name
/// (links resolved), so that two spellings of one path share one lock.
fn lock_path(db: &Path) -> PathBuf {
    let real = std::fs::canonicalize(db).ok().or_else(|| {
        let dir = db.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        Some(std::fs::canonicalize(dir).ok()?.join(db.file_name()?))
    });
    let mut name = real.unwrap_or_else(|| db.to_path_buf()).into_os_string();
    name.push(".lock");
    PathBuf::from(name)
}

/// Locks the database at `db` for this server, `holder` saying who it is
/// (written into the lock file for a second server's refusal).
pub fn take(db: &Path, holder: &str) -> Result<DbLock, String> {
    let path = lock_path(db);
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| format!("cannot open the lock file {} of the game database: {e}", path.display()))?;
    let refuse_at = Instant::now() + GRACE;
    let locked = loop {
        match file.try_lock() {
            Err(TryLockError::WouldBlock) if Instant::now() < refuse_at => std::thread::sleep(RETRY),
            locked => break locked,
        }
    };
    match locked {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            let mut text = String::new();
            // Read what fits: the holder's line is short.
            let _ = (&mut file).take(1024).read_to_string(&mut text);
            let who = match text.trim() {
                "" => "another process",
                who => who,
            };
            return Err(format!(
                "the game database {} is in use by {who} (lock file {}); stop that server or give another --db",
                db.display(),
                path.display()
            ));
        }
        Err(TryLockError::Error(e)) => {
            return Err(format!("cannot lock the game database {} ({}): {e}", db.display(), path.display()))
        }
    }
    let written = file.set_len(0).and_then(|()| file.rewind()).and_then(|()| writeln!(file, "{holder}"));
    written.map_err(|e| format!("cannot write the lock file {}: {e}", path.display()))?;
    Ok(DbLock { _file: file })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty directory of this test process's own, named for `tag`.
    fn fresh_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_second_lock_on_one_database_is_refused_naming_the_holder_until_the_first_is_dropped() {
        let dir = fresh_dir("catchess-dblock");
        let db = dir.join("games.sqlite3");
        let first = take(&db, "catchess serve (pid 1, http://127.0.0.1:1/)").expect("the first lock");
        // The same file under another spelling of its path.
        let other = dir.join(".").join("games.sqlite3");
        let refused = take(&other, "the second").expect_err("a second lock");
        assert!(refused.contains("games.sqlite3") && refused.contains("pid 1, http://127.0.0.1:1/"), "{refused}");
        drop(first);
        let again = take(&other, "the second").expect("the lock once the first is gone");
        drop(again);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A child process being started holds a copy of the lock file's
    /// descriptor until its exec: a server started again meanwhile waits
    /// for it rather than refusing (the flaky restart test of
    /// tests/serve_clock.rs, whose neighbours run `catchess pgn check`).
    #[test]
    fn a_lock_released_but_held_a_moment_longer_by_a_copy_of_its_descriptor_is_waited_for() {
        let dir = fresh_dir("catchess-dblock-copy");
        let db = dir.join("games.sqlite3");
        let first = take(&db, "the first").expect("the first lock");
        // What a child between fork and exec holds: the same open file.
        let copy = first._file.try_clone().unwrap();
        drop(first);
        let child = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            drop(copy);
        });
        let again = take(&db, "the second").expect("the lock once the copy is closed");
        child.join().unwrap();
        drop(again);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
