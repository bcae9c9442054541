//! The games on disk: an embedded SQLite database (rusqlite with SQLite
//! built in), one row per game, written on every change of the game, so
//! that a restart or a crash brings every game back.
//!
//! A row holds what replaying the game needs and nothing derived: the
//! variant, the start position, every move (the server's rolls
//! included) in the protocol's text, the seats' forfeits (a
//! resignation, a flag fall: `forfeit.rs`) and clocks (the time each move
//! took: `clock.rs`). Reading a row replays it with the
//! game's own rules; a row that does not replay is reported and left in
//! place, never deleted.

use super::clock::Clocks;
use super::forfeit::Forfeit;
use rusqlite::{params, Connection};
use std::path::PathBuf;
use std::sync::Mutex;

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
    /// `None`: no seat has a clock.
    pub clocks: Option<Clocks>,
}

/// What `load` read: the rows, and the ids of those it could not read
/// with why.
pub struct Loaded {
    pub rows: Vec<Row>,
    pub unreadable: Vec<(String, String)>,
}

pub struct Db {
    conn: Mutex<Connection>,
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

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

impl Db {
    /// Opens (creating it and its folder if need be) the database at
    /// `path`, or one in memory for [`MEMORY`].
    pub fn open(path: &str) -> Result<Db, String> {
        let conn = if path == MEMORY {
            Connection::open_in_memory()
        } else {
            if let Some(dir) = std::path::Path::new(path).parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            Connection::open(path)
        }
        .map_err(|e| format!("cannot open the game database {path}: {e}"))?;
        let err = |e: rusqlite::Error| format!("game database {path}: {e}");
        // WAL: a writer never blocks on readers, and a commit survives a
        // crash of the process; FULL: and a loss of power.
        conn.pragma_update(None, "journal_mode", "WAL").map_err(err)?;
        conn.pragma_update(None, "synchronous", "FULL").map_err(err)?;
        let check: String = conn.query_row("PRAGMA quick_check", [], |r| r.get(0)).map_err(err)?;
        if check != "ok" {
            return Err(format!("game database {path} is damaged: {check}"));
        }
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS games (
                id TEXT PRIMARY KEY,
                variant TEXT NOT NULL,
                start_fen TEXT NOT NULL,
                moves TEXT NOT NULL,
                updated_ms INTEGER NOT NULL,
                forfeits TEXT NOT NULL DEFAULT '[]',
                clocks TEXT NOT NULL DEFAULT 'null'
            )",
        )
        .map_err(err)?;
        // A database from before forfeits or clocks were kept gets their
        // columns (its games had none).
        for (column, empty) in [("forfeits", "'[]'"), ("clocks", "'null'")] {
            let has = conn
                .prepare("SELECT 1 FROM pragma_table_info('games') WHERE name = ?1")
                .and_then(|mut s| s.exists([column]))
                .map_err(err)?;
            if !has {
                conn.execute_batch(&format!("ALTER TABLE games ADD COLUMN {column} TEXT NOT NULL DEFAULT {empty}"))
                    .map_err(err)?;
            }
        }
        Ok(Db { conn: Mutex::new(conn) })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Writes a game (a new row, or the row's new moves), committed
    /// before it returns.
    pub fn save(&self, row: &Row) -> Result<(), String> {
        let moves = serde_json::to_string(&row.moves).map_err(|e| e.to_string())?;
        let forfeits = serde_json::to_string(&row.forfeits).map_err(|e| e.to_string())?;
        let clocks = serde_json::to_string(&row.clocks).map_err(|e| e.to_string())?;
        self.conn()
            .execute(
                "INSERT INTO games (id, variant, start_fen, moves, updated_ms, forfeits, clocks)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT(id) DO UPDATE SET variant = ?2, start_fen = ?3, moves = ?4, updated_ms = ?5,
                 forfeits = ?6, clocks = ?7",
                params![row.id, row.variant, row.start_fen, moves, now_ms(), forfeits, clocks],
            )
            .map(|_| ())
            .map_err(|e| format!("cannot save game {}: {e}", row.id))
    }

    pub fn delete(&self, id: &str) -> Result<(), String> {
        self.conn()
            .execute("DELETE FROM games WHERE id = ?1", params![id])
            .map(|_| ())
            .map_err(|e| format!("cannot delete game {id}: {e}"))
    }

    /// The `limit` games changed last, newest first; rows that cannot be
    /// read are reported in the second list (id, why).
    pub fn load(&self, limit: usize) -> Result<Loaded, String> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare(
                "SELECT id, variant, start_fen, moves, forfeits, clocks FROM games ORDER BY updated_ms DESC LIMIT ?1",
            )
            .map_err(|e| e.to_string())?;
        let rows = stmt
            .query_map(params![limit as i64], |r| {
                let text = |i| r.get::<_, String>(i);
                Ok((text(0)?, text(1)?, text(2)?, text(3)?, text(4)?, text(5)?))
            })
            .map_err(|e| e.to_string())?;
        let (mut good, mut bad) = (Vec::new(), Vec::new());
        for row in rows {
            let (id, variant, start_fen, moves, forfeits, clocks) = row.map_err(|e| e.to_string())?;
            let read = || -> Result<Row, String> {
                Ok(Row {
                    id: id.clone(),
                    variant,
                    start_fen,
                    moves: serde_json::from_str(&moves).map_err(|e| format!("unreadable moves: {e}"))?,
                    forfeits: serde_json::from_str(&forfeits).map_err(|e| format!("unreadable forfeits: {e}"))?,
                    clocks: serde_json::from_str(&clocks).map_err(|e| format!("unreadable clocks: {e}"))?,
                })
            };
            match read() {
                Ok(row) => good.push(row),
                Err(why) => bad.push((id, why)),
            }
        }
        Ok(Loaded { rows: good, unreadable: bad })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::clock::TimeControl;

    #[test]
    fn rows_are_saved_updated_read_back_and_deleted() {
        let dir = std::env::temp_dir().join(format!("catchess-db-{}", std::process::id()));
        let path = dir.join("games.sqlite3");
        let _ = std::fs::remove_dir_all(&dir);
        let row = Row {
            id: "a1".into(),
            variant: "chess".into(),
            start_fen: "x".into(),
            moves: vec!["e2e4".into()],
            forfeits: vec![],
            clocks: None,
        };
        {
            let db = Db::open(path.to_str().unwrap()).unwrap();
            db.save(&row).unwrap();
            let resigned = vec![Forfeit { seat: 1, ply: 2, why: super::super::forfeit::Why::Resignation }];
            let mut clocks = Clocks::new(vec![Some(TimeControl { base_ms: 60_000, inc_ms: 1_000 }), None], 0, 0);
            clocks.used_ms = vec![1_500, 0];
            clocks.pending_ms = 700;
            let row =
                Row { moves: vec!["e2e4".into(), "e7e5".into()], forfeits: resigned, clocks: Some(clocks), ..row };
            db.save(&row).unwrap();
        }
        let db = Db::open(path.to_str().unwrap()).unwrap();
        let loaded = db.load(10).unwrap();
        assert_eq!((loaded.rows.len(), loaded.unreadable.len()), (1, 0));
        assert_eq!(loaded.rows[0].moves, ["e2e4", "e7e5"]);
        assert_eq!((loaded.rows[0].forfeits[0].seat, loaded.rows[0].forfeits[0].ply), (1, 2));
        let clocks = loaded.rows[0].clocks.as_ref().expect("the clocks are kept");
        assert_eq!((clocks.used_ms.as_slice(), clocks.pending_ms), ([1_500, 0].as_slice(), 700));
        db.delete("a1").unwrap();
        assert!(db.load(10).unwrap().rows.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_database_from_before_forfeits_and_clocks_gets_their_columns() {
        let dir = std::env::temp_dir().join(format!("catchess-db-old-{}", std::process::id()));
        let path = dir.join("games.sqlite3");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT NOT NULL, start_fen TEXT NOT NULL,
                 moves TEXT NOT NULL, updated_ms INTEGER NOT NULL);
                 INSERT INTO games VALUES ('old', 'chess', 'x', '[\"e2e4\"]', 1);",
            )
            .unwrap();
        }
        let db = Db::open(path.to_str().unwrap()).unwrap();
        let loaded = db.load(10).unwrap();
        assert_eq!(loaded.rows.len(), 1, "{:?}", loaded.unreadable);
        assert_eq!((loaded.rows[0].moves.len(), loaded.rows[0].forfeits.len()), (1, 0));
        assert_eq!(loaded.rows[0].clocks, None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
