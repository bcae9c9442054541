//! The `games` table: made in a new database, given the columns added
//! since (a database from before forfeits, clocks, dice, tables or reviews
//! were kept), and
//! checked in any other: a database whose `games` table is someone
//! else's, or that holds other tables and no `games`, is refused at start
//! with what it holds, rather than answering every new game with a 500
//! (or writing catchess's games into another program's file).

use rusqlite::Connection;

/// A column of the table: its name and SQLite type, and whether a
/// database from before it was kept may lack it (it is then added, with
/// the value of a game that had none).
struct Column {
    name: &'static str,
    kind: &'static str,
    added_with: Option<&'static str>,
}

const COLUMNS: [Column; 11] = [
    Column { name: "id", kind: "TEXT", added_with: None },
    Column { name: "variant", kind: "TEXT", added_with: None },
    Column { name: "start_fen", kind: "TEXT", added_with: None },
    Column { name: "moves", kind: "TEXT", added_with: None },
    Column { name: "updated_ms", kind: "INTEGER", added_with: None },
    Column { name: "forfeits", kind: "TEXT", added_with: Some("'[]'") },
    Column { name: "clocks", kind: "TEXT", added_with: Some("'null'") },
    Column { name: "dice", kind: "TEXT", added_with: Some("'null'") },
    Column { name: "seating", kind: "TEXT", added_with: Some("'null'") },
    Column { name: "agreement", kind: "TEXT", added_with: Some("'null'") },
    Column { name: "review", kind: "TEXT", added_with: Some("'null'") },
];

/// A column as the database describes it.
struct Found {
    name: String,
    kind: String,
    /// Its place in the primary key (0: not part of it).
    pk: i64,
}

/// Makes, completes or checks the `games` table of the database at `path`.
pub fn prepare(conn: &Connection, path: &str) -> Result<(), String> {
    let err = |e: rusqlite::Error| format!("game database {path}: {e}");
    let found = columns(conn).map_err(err)?;
    if found.is_empty() {
        let tables = other_tables(conn).map_err(err)?;
        if !tables.is_empty() {
            return Err(format!(
                "{path} is not a catchess game database: it holds the tables {} and no `games`; give another --db",
                tables.join(", ")
            ));
        }
        let columns: Vec<String> = COLUMNS
            .iter()
            .map(|c| {
                let key = if c.name == "id" { " PRIMARY KEY" } else { "" };
                let default = c.added_with.map(|d| format!(" DEFAULT {d}")).unwrap_or_default();
                format!("{} {} NOT NULL{key}{default}", c.name, c.kind)
            })
            .collect();
        return conn.execute_batch(&format!("CREATE TABLE games ({})", columns.join(", "))).map_err(err);
    }
    check(&found).map_err(|why| {
        let has: Vec<String> = found.iter().map(|c| format!("{} {}", c.name, c.kind)).collect();
        format!(
            "{path} is not a catchess game database: its table `games` ({}) {why}; give another --db",
            has.join(", ")
        )
    })?;
    for c in COLUMNS.iter().filter(|c| !found.iter().any(|f| f.name.eq_ignore_ascii_case(c.name))) {
        let Some(empty) = c.added_with else { continue };
        conn.execute_batch(&format!("ALTER TABLE games ADD COLUMN {} {} NOT NULL DEFAULT {empty}", c.name, c.kind))
            .map_err(err)?;
    }
    Ok(())
}

/// Why the columns found are not catchess's, if they are not.
fn check(found: &[Found]) -> Result<(), String> {
    for f in found {
        let Some(c) = COLUMNS.iter().find(|c| c.name.eq_ignore_ascii_case(&f.name)) else {
            return Err(format!("has a column {} that catchess does not keep", f.name));
        };
        if !c.kind.eq_ignore_ascii_case(&f.kind) {
            return Err(format!("keeps {} as {}, not {}", c.name, f.kind, c.kind));
        }
        if (f.pk != 0) != (c.name == "id") {
            return Err("does not have id alone as its primary key".to_string());
        }
    }
    match COLUMNS.iter().find(|c| c.added_with.is_none() && !found.iter().any(|f| f.name.eq_ignore_ascii_case(c.name)))
    {
        Some(c) => Err(format!("lacks the column {}", c.name)),
        None => Ok(()),
    }
}

fn columns(conn: &Connection) -> rusqlite::Result<Vec<Found>> {
    let mut stmt = conn.prepare("SELECT name, type, pk FROM pragma_table_info('games')")?;
    let rows = stmt.query_map([], |r| Ok(Found { name: r.get(0)?, kind: r.get(1)?, pk: r.get(2)? }))?;
    rows.collect()
}

fn other_tables(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")?;
    let rows = stmt.query_map([], |r| r.get(0))?;
    rows.collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prepared(sql: &str) -> Result<Connection, String> {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(sql).unwrap();
        prepare(&conn, "x.sqlite3").map(|()| conn)
    }

    #[test]
    fn a_new_database_gets_the_table_and_an_old_one_its_new_columns() {
        let conn = prepared("").unwrap();
        assert!(check(&columns(&conn).unwrap()).is_ok());
        let old = "CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT NOT NULL, start_fen TEXT NOT NULL,
                   moves TEXT NOT NULL, updated_ms INTEGER NOT NULL)";
        let conn = prepared(old).unwrap();
        assert_eq!(columns(&conn).unwrap().len(), COLUMNS.len());
        // Prepared twice: nothing changes the second time.
        prepare(&conn, "x.sqlite3").unwrap();
    }

    #[test]
    fn a_foreign_games_table_or_a_foreign_database_is_refused_with_what_it_holds() {
        for (sql, says) in [
            ("CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT)", "keeps id as INTEGER, not TEXT"),
            (
                "CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT, start_fen TEXT, moves TEXT, updated_ms INTEGER,
                 owner TEXT NOT NULL)",
                "has a column owner that catchess does not keep",
            ),
            ("CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT)", "lacks the column start_fen"),
            (
                "CREATE TABLE games (id TEXT, variant TEXT, start_fen TEXT, moves TEXT, updated_ms INTEGER)",
                "primary key",
            ),
            (
                "CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT, start_fen TEXT, moves BLOB, updated_ms INTEGER)",
                "keeps moves as BLOB",
            ),
            ("CREATE TABLE invoices (n INTEGER)", "holds the tables invoices and no `games`"),
        ] {
            let refused = prepared(sql).err().unwrap_or_else(|| panic!("{sql}: accepted"));
            assert!(refused.contains("not a catchess game database") && refused.contains(says), "{sql}: {refused}");
        }
    }
}
