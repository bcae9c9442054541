//! The games on disk: an embedded SQLite database (rusqlite with SQLite
//! built in), one row per game, written on every change of the game, so
//! that a restart or a crash brings every game back.
//!
//! A row holds what replaying the game needs and nothing derived: the
//! variant, the start position, every move (the server's rolls
//! included) in the protocol's text, the seats' forfeits (a
//! resignation, a flag fall: `forfeit.rs`) and clocks (the time each move
//! took: `clock.rs`), the dice's seed (`dice.rs`) and who plays each
//! seat, with their tokens and a take-back or draw offer waiting for
//! consent (`seating`: `table.rs`), a draw agreed (`agreement`:
//! `draw.rs`), and the game's review (`review`: `review.rs`), the one
//! derived column: a review is many searches' work, not to be redone at
//! each start. Reading a row replays it with the
//! game's own rules; a row that cannot be read or does not replay is
//! reported and left in place, never deleted, and the others are served.
//!
//! Files: `lock` (one server per database file), `schema` (the table,
//! made, completed or refused), `writer` (the thread that commits every
//! change, in groups). Opening reads the games once, on the caller's
//! thread (the server's start); after that only the writer touches the
//! database.

use super::clock::Clocks;
use super::dice::Dice;
use super::draw::Agreement;
use super::forfeit::Forfeit;
use super::review::Review;
use super::table::Table;
use rusqlite::types::ValueRef;
use rusqlite::Connection;
use std::path::PathBuf;
use std::sync::Arc;

mod lock;
mod schema;
mod writer;

pub use writer::{Db, Write};

/// Where the games are kept: `:memory:` (gone with the process: tests) or
/// a file.
pub const MEMORY: &str = ":memory:";

/// One stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub id: String,
    pub variant: String,
    pub start_fen: String,
    pub moves: Vec<String>,
    pub forfeits: Vec<Forfeit>,
    /// The draw the seats agreed, which ended the game (`draw.rs`).
    pub agreement: Option<Agreement>,
    /// `None`: no seat has a clock.
    pub clocks: Option<Clocks>,
    /// The game's dice (`dice.rs`); `None` in a row kept before them.
    pub dice: Option<Dice>,
    /// Who plays each seat (`table.rs`); `None`: an analysis board.
    pub table: Option<Table>,
    /// When the game last changed (the server's time, ms since the epoch):
    /// the eviction's "long abandoned".
    pub updated_ms: u64,
    /// The game's review (`review.rs`), if one was made since its last
    /// take-back.
    pub review: Option<Arc<Review>>,
}

/// What `load` read: the rows, and the rows it could not read (the id,
/// or `row <rowid>` when the id itself cannot be read) with why.
pub struct Loaded {
    pub rows: Vec<Row>,
    pub unreadable: Vec<(String, String)>,
}

/// The default file: `catchess/games.sqlite3` under the user's data
/// directory (`$XDG_DATA_HOME`, else `~/.local/share`; `%APPDATA%` on
/// Windows).
pub fn default_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("APPDATA").filter(|v| !v.is_empty()).map(PathBuf::from))
        .or_else(|| {
            std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".local/share"))
        })?;
    Some(base.join("catchess").join("games.sqlite3"))
}

/// Writes a game: a new row, or the row's new state.
const SAVE_SQL: &str =
    "INSERT INTO games (id, variant, start_fen, moves, updated_ms, forfeits, clocks, dice, seating, agreement, review)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
     ON CONFLICT(id) DO UPDATE SET variant = ?2, start_fen = ?3, moves = ?4, updated_ms = ?5,
     forfeits = ?6, clocks = ?7, dice = ?8, seating = ?9, agreement = ?10, review = ?11";

/// A database opened and locked for this server, not yet handed to its
/// writer.
pub struct Opened {
    conn: Connection,
    lock: Option<lock::DbLock>,
}

/// How the database is opened.
pub struct Options<'a> {
    /// Who opens it, for the lock file (`catchess serve (pid 7, http://...)`).
    pub holder: &'a str,
    /// The most pages the file may grow to (SQLite's `max_page_count`): a
    /// write past it fails as on a full disk. Tests use it; `None` leaves
    /// SQLite's own bound.
    pub max_pages: Option<u32>,
    /// How long a write waits for the database's write lock when another
    /// process (a `sqlite3` shell) holds it, before it fails.
    pub busy_timeout: std::time::Duration,
}

/// Opens (creating it and its folder if need be) the database at `path`,
/// or one in memory for [`MEMORY`]: locked for this server (`lock.rs`),
/// checked, and with the table as this version keeps it (`schema.rs`).
pub fn open(path: &str, options: &Options) -> Result<Opened, String> {
    let (conn, lock) = if path == MEMORY {
        (Connection::open_in_memory(), None)
    } else {
        let file = std::path::Path::new(path);
        if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        // Locked before SQLite touches the file.
        let lock = lock::take(file, options.holder)?;
        (Connection::open(path), Some(lock))
    };
    let conn = conn.map_err(|e| format!("cannot open the game database {path}: {e}"))?;
    let err = |e: rusqlite::Error| format!("game database {path}: {e}");
    // WAL: a writer never blocks on readers (a `sqlite3` shell looking in),
    // and a commit survives a crash of the process; FULL: and a loss of
    // power (the commit's fsync is shared by a group: `writer.rs`).
    conn.pragma_update(None, "journal_mode", "WAL").map_err(err)?;
    conn.pragma_update(None, "synchronous", "FULL").map_err(err)?;
    conn.busy_timeout(options.busy_timeout).map_err(err)?;
    if let Some(pages) = options.max_pages {
        conn.pragma_update(None, "max_page_count", pages).map_err(err)?;
    }
    let check: String = conn.query_row("PRAGMA quick_check", [], |r| r.get(0)).map_err(err)?;
    if check != "ok" {
        return Err(format!("game database {path} is damaged: {check}"));
    }
    schema::prepare(&conn, path)?;
    Ok(Opened { conn, lock })
}

/// A column's JSON, read.
fn json<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| format!("unreadable {what}: {e}"))
}

impl Opened {
    /// The `limit` readable games changed last, newest first; the rows
    /// that cannot be read (a column that is not text, JSON that does not
    /// parse) are reported in `unreadable` and left alone. An error only
    /// when the table itself cannot be read.
    pub fn load(&self, limit: usize) -> Result<Loaded, String> {
        let err = |e: rusqlite::Error| format!("cannot read the stored games: {e}");
        let mut stmt = self
            .conn
            .prepare(
                "SELECT rowid, id, variant, start_fen, moves, forfeits, clocks, dice, seating, updated_ms, agreement, review
                 FROM games
                 ORDER BY updated_ms DESC",
            )
            .map_err(err)?;
        let mut rows = stmt.query([]).map_err(err)?;
        let (mut good, mut bad) = (Vec::new(), Vec::new());
        while good.len() < limit {
            let Some(r) = rows.next().map_err(err)? else { break };
            let text = |i: usize| -> Result<String, String> {
                let name = r.as_ref().column_name(i).unwrap_or("?").to_string();
                match r.get_ref(i).map_err(|e| e.to_string())? {
                    ValueRef::Text(bytes) => {
                        String::from_utf8(bytes.to_vec()).map_err(|_| format!("{name} is not UTF-8 text"))
                    }
                    other => Err(format!("{name} is {:?}, not text", other.data_type())),
                }
            };
            let rowid: i64 = r.get(0).map_err(err)?;
            let read = || -> Result<Row, String> {
                Ok(Row {
                    id: text(1)?,
                    variant: text(2)?,
                    start_fen: text(3)?,
                    moves: json(&text(4)?, "moves")?,
                    forfeits: json(&text(5)?, "forfeits")?,
                    clocks: json(&text(6)?, "clocks")?,
                    dice: json(&text(7)?, "dice")?,
                    table: json(&text(8)?, "seating")?,
                    agreement: json(&text(10)?, "agreement")?,
                    review: json::<Option<Review>>(&text(11)?, "review")?.map(Arc::new),
                    updated_ms: r.get::<_, i64>(9).map_err(|e| format!("updated_ms: {e}"))?.max(0) as u64,
                })
            };
            match read() {
                Ok(row) => good.push(row),
                Err(why) => bad.push((text(1).unwrap_or_else(|_| format!("row {rowid}")), why)),
            }
        }
        Ok(Loaded { rows: good, unreadable: bad })
    }

    /// Hands the database to its writer (`writer.rs`).
    pub fn start(self) -> Result<Db, String> {
        Db::start(self.conn, self.lock)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::TimeControl;

    const OPTIONS: Options =
        Options { holder: "a test", max_pages: None, busy_timeout: std::time::Duration::from_millis(200) };

    /// A fresh folder for a test's database.
    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("catchess-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn row(id: &str, moves: &[&str]) -> Row {
        Row {
            id: id.into(),
            variant: "chess".into(),
            start_fen: "x".into(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            forfeits: vec![],
            agreement: None,
            clocks: None,
            dice: None,
            table: None,
            updated_ms: 1,
            review: None,
        }
    }

    #[test]
    fn rows_are_saved_updated_read_back_and_deleted() {
        let dir = temp("db");
        let path = dir.join("games.sqlite3");
        let path = path.to_str().unwrap();
        {
            let db = open(path, &OPTIONS).unwrap().start().unwrap();
            db.commit_blocking(vec![Write::Save(Box::new(row("a1", &["e2e4"])))]).unwrap();
            let resigned = vec![Forfeit { seat: 1, ply: 2, why: super::super::forfeit::Why::Resignation }];
            let mut clocks = Clocks::new(vec![Some(TimeControl { base_ms: 60_000, inc_ms: 1_000 }), None], 0, 0);
            clocks.used_ms = vec![1_500, 0];
            clocks.pending_ms = 700;
            let agreement = Some(Agreement { ply: 2 });
            let row = Row { forfeits: resigned, agreement, clocks: Some(clocks), ..row("a1", &["e2e4", "e7e5"]) };
            db.commit_blocking(vec![Write::Save(Box::new(row))]).unwrap();
        }
        let opened = open(path, &OPTIONS).unwrap();
        let loaded = opened.load(10).unwrap();
        assert_eq!((loaded.rows.len(), loaded.unreadable.len()), (1, 0));
        assert_eq!(loaded.rows[0].moves, ["e2e4", "e7e5"]);
        assert_eq!((loaded.rows[0].forfeits[0].seat, loaded.rows[0].forfeits[0].ply), (1, 2));
        assert_eq!(loaded.rows[0].agreement, Some(Agreement { ply: 2 }));
        let clocks = loaded.rows[0].clocks.as_ref().expect("the clocks are kept");
        assert_eq!((clocks.used_ms.as_slice(), clocks.pending_ms), ([1_500, 0].as_slice(), 700));
        let db = opened.start().unwrap();
        db.commit_blocking(vec![Write::Delete("a1".into())]).unwrap();
        db.close();
        assert!(open(path, &OPTIONS).unwrap().load(10).unwrap().rows.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_database_from_before_forfeits_and_clocks_gets_their_columns() {
        let dir = temp("db-old");
        let path = dir.join("games.sqlite3");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT NOT NULL, start_fen TEXT NOT NULL,
                 moves TEXT NOT NULL, updated_ms INTEGER NOT NULL);
                 INSERT INTO games VALUES ('old', 'chess', 'x', '[\"e2e4\"]', 1);",
            )
            .unwrap();
        }
        let loaded = open(path.to_str().unwrap(), &OPTIONS).unwrap().load(10).unwrap();
        assert_eq!(loaded.rows.len(), 1, "{:?}", loaded.unreadable);
        assert_eq!((loaded.rows[0].moves.len(), loaded.rows[0].forfeits.len()), (1, 0));
        assert_eq!((&loaded.rows[0].clocks, &loaded.rows[0].agreement), (&None, &None));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Issue #59: a row whose moves are a blob hid every game.
    #[test]
    fn a_row_that_cannot_be_read_is_reported_and_the_others_are_read() {
        let dir = temp("db-bad-row");
        let path = dir.join("games.sqlite3");
        let path = path.to_str().unwrap();
        let db = open(path, &OPTIONS).unwrap().start().unwrap();
        let rows = (0..6).map(|i| Write::Save(Box::new(row(&format!("g{i}"), &["e2e4"])))).collect();
        db.commit_blocking(rows).unwrap();
        db.close();
        {
            let conn = Connection::open(path).unwrap();
            conn.execute_batch(
                "UPDATE games SET moves = X'FFFE' WHERE id = 'g1';
                 UPDATE games SET variant = CAST(X'FF00' AS TEXT) WHERE id = 'g2';
                 UPDATE games SET forfeits = '[{' WHERE id = 'g3';
                 UPDATE games SET id = X'00' WHERE id = 'g4';",
            )
            .unwrap();
        }
        let loaded = open(path, &OPTIONS).unwrap().load(10).unwrap();
        let mut ids: Vec<&str> = loaded.rows.iter().map(|r| r.id.as_str()).collect();
        ids.sort();
        assert_eq!(ids, ["g0", "g5"]);
        let mut bad: Vec<String> = loaded.unreadable.iter().map(|(id, why)| format!("{id}: {why}")).collect();
        bad.sort();
        assert_eq!(bad.len(), 4, "{bad:?}");
        assert!(bad[0].starts_with("g1: moves is Blob"), "{bad:?}");
        assert!(bad[1].starts_with("g2: variant is not UTF-8"), "{bad:?}");
        assert!(bad[2].starts_with("g3: unreadable forfeits"), "{bad:?}");
        assert!(bad[3].starts_with("row 5: id is Blob"), "{bad:?}");
        // A limit counts the rows read, not the rows skipped.
        assert_eq!(open(path, &OPTIONS).unwrap().load(2).unwrap().rows.len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A full file (SQLite's own error, through `max_page_count`) fails the
    /// job that does not fit, and only it: the writer groups jobs, and a
    /// failed group is tried again job by job.
    #[test]
    fn a_write_that_does_not_fit_fails_alone_with_the_reason() {
        let dir = temp("db-full");
        let path = dir.join("games.sqlite3");
        let path = path.to_str().unwrap();
        let pages: u32 = {
            let opened = open(path, &OPTIONS).unwrap();
            opened.conn.query_row("PRAGMA page_count", [], |r| r.get(0)).unwrap()
        };
        let db = open(path, &Options { max_pages: Some(pages), ..OPTIONS }).unwrap().start().unwrap();
        let big = vec!["e2e4"; 2_000];
        let (small, huge) = (row("small", &["e2e4"]), row("huge", &big));
        let answers: Vec<Result<(), String>> = std::thread::scope(|s| {
            let jobs = [small, huge].map(|r| s.spawn(|| db.commit_blocking(vec![Write::Save(Box::new(r))])));
            jobs.into_iter().map(|j| j.join().unwrap()).collect()
        });
        assert_eq!(answers[0], Ok(()));
        let failed = answers[1].as_ref().expect_err("a row over the file's room");
        assert!(failed.contains("cannot save game huge") && failed.contains("full"), "{failed}");
        db.close();
        let loaded = open(path, &OPTIONS).unwrap().load(10).unwrap();
        assert_eq!(loaded.rows.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["small"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
