//! Storage that tells the truth (issue #59): a change is answered only
//! after it is committed, and a change whose commit fails is undone and
//! answered 500 saying why; one server per database file; a row that
//! cannot be read is reported and skipped, the other games served; a
//! database that is not catchess's is refused at start; and SQLite's
//! waits hold none of the server's async threads. The failures are
//! SQLite's own: a write lock held by another connection (as a `sqlite3`
//! shell holds it) and a file at its page cap (as on a full disk).

mod common;

use catchess::serve::{spawn, Config, Server};
use common::http::{call, ok};
use common::serve_process::{refused, temp_dir, Serve};
use rusqlite::Connection;
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant};

fn config(db: &Path) -> Config {
    Config {
        host: "127.0.0.1".into(),
        port: 0,
        db: Some(db.to_str().unwrap().into()),
        max_movetime_ms: 3000,
        // Every game made is held (none evicted to make room).
        max_games: 10_000,
        db_busy_timeout_ms: 300,
        ..Config::in_memory()
    }
}

fn server(config: Config) -> Server {
    spawn(config).expect("the server starts")
}

fn new_game(s: &Server) -> String {
    ok(s, "POST", "/api/games", Some(json!({"variant": "chess"})))["id"].as_str().unwrap().to_string()
}

fn state(s: &Server, id: &str) -> Value {
    ok(s, "GET", &format!("/api/games/{id}"), None)
}

fn moves(state: &Value) -> Vec<String> {
    state["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap().to_string()).collect()
}

fn play(s: &Server, id: &str, m: &str) -> (u16, Value) {
    call(s, "POST", &format!("/api/games/{id}/moves"), Some(json!({ "move": m })))
}

/// A 500 that says the change was not saved, and why.
fn not_saved(answer: &(u16, Value), why: &str) {
    let (status, body) = answer;
    assert_eq!(*status, 500, "{body}");
    let message = body["error"].as_str().unwrap_or_default();
    assert!(message.contains("not saved") && message.contains("undone") && message.contains(why), "{message}");
}

fn rows(db: &Path) -> i64 {
    Connection::open(db).unwrap().query_row("SELECT count(*) FROM games", [], |r| r.get(0)).unwrap()
}

/// Every kind of change, while another connection holds the database's
/// write lock: each is answered 500 saying why, and is undone (the games
/// are as they were, here and in the file); once the lock is gone the
/// same changes are kept, across a restart.
#[test]
fn a_change_whose_commit_fails_is_undone_and_answered_500() {
    let dir = temp_dir("store-busy");
    let db = dir.join("games.sqlite3");
    let s = server(config(&db));
    let [played, engine, resigning, doomed] = [(); 4].map(|()| new_game(&s));
    ok(&s, "POST", &format!("/api/games/{played}/moves"), Some(json!({"move": "e2e4"})));
    let shell = Connection::open(&db).unwrap();
    shell.execute_batch("BEGIN IMMEDIATE").unwrap();
    let changes = [
        ("POST", "/api/games".to_string(), Some(json!({"variant": "chess"}))),
        ("POST", format!("/api/games/{played}/moves"), Some(json!({"move": "e7e5"}))),
        ("POST", format!("/api/games/{played}/undo"), Some(json!({}))),
        ("POST", format!("/api/games/{engine}/engine"), Some(json!({"movetime": 50}))),
        ("POST", format!("/api/games/{resigning}/forfeit"), Some(json!({"seat": "white", "why": "resignation"}))),
        ("DELETE", format!("/api/games/{doomed}"), None),
    ];
    for (method, path, body) in &changes {
        not_saved(&call(&s, method, path, body.clone()), "database is locked");
    }
    assert_eq!(moves(&state(&s, &played)), ["e2e4"]);
    assert_eq!(moves(&state(&s, &engine)), Vec::<String>::new());
    assert_eq!(state(&s, &resigning)["outcome"], Value::Null);
    assert_eq!(state(&s, &doomed)["moves"], json!([]));
    assert_eq!(shell.query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0)).unwrap(), 4);
    shell.execute_batch("ROLLBACK").unwrap();

    // The lock gone, the same changes are kept.
    for (method, path, body) in &changes {
        let (status, answer) = call(&s, method, path, body.clone());
        assert!([200, 201, 204].contains(&status), "{method} {path}: {status} {answer}");
    }
    let kept = |s: &Server| {
        assert_eq!(moves(&state(s, &played)), ["e2e4"], "e7e5 played, then taken back");
        assert_eq!(moves(&state(s, &engine)).len(), 1);
        assert_eq!(state(s, &resigning)["outcome"]["text"], "black wins: resignation by white");
        assert_eq!(call(s, "GET", &format!("/api/games/{doomed}"), None).0, 404);
    };
    kept(&s);
    drop(s);
    assert_eq!(rows(&db), 4, "a new game in, a deleted one out");
    kept(&server(config(&db)));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue #59, item 6: while another process held the write lock, a route
/// that reads no database took 4.9 s. Four moves wait on the lock here
/// (more than the server's two async threads); the page, the variants
/// and another game answer at once, and once the lock is released the
/// four moves are committed and answered.
#[test]
fn commits_waiting_on_a_lock_hold_none_of_the_async_threads() {
    let dir = temp_dir("store-wait");
    let db = dir.join("games.sqlite3");
    let s = server(Config { db_busy_timeout_ms: 20_000, ..config(&db) });
    let games: Vec<String> = (0..5).map(|_| new_game(&s)).collect();
    let shell = Connection::open(&db).unwrap();
    shell.execute_batch("BEGIN IMMEDIATE").unwrap();
    let answers = std::thread::scope(|scope| {
        let s = &s;
        let waiting: Vec<_> = games[..4].iter().map(|id| scope.spawn(move || play(s, id, "e2e4"))).collect();
        std::thread::sleep(Duration::from_millis(300));
        for path in ["/api/variants", "/", &format!("/api/games/{}", games[4])] {
            let asked = Instant::now();
            assert_eq!(call(s, "GET", path, None).0, 200, "{path}");
            let took = asked.elapsed();
            assert!(took < Duration::from_millis(1000), "GET {path} took {took:?} while commits waited");
        }
        assert!(waiting.iter().all(|w| !w.is_finished()), "a move was answered before its commit");
        shell.execute_batch("ROLLBACK").unwrap();
        waiting.into_iter().map(|w| w.join().unwrap()).collect::<Vec<_>>()
    });
    for (status, answer) in answers {
        assert_eq!(status, 200, "{answer}");
    }
    drop(s);
    let s = server(config(&db));
    for id in &games[..4] {
        assert_eq!(moves(&state(&s, id)), ["e2e4"]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue #59, item 3, on a file that cannot grow (SQLite's
/// `max_page_count`: SQLITE_FULL, "database or disk is full"): the new
/// game, the person's move and the engine's move that do not fit are
/// answered 500 and are not on the board; after a restart every game has
/// exactly the moves that were answered 200.
#[test]
fn on_a_full_disk_nothing_unsaved_is_answered_or_kept_in_memory() {
    let dir = temp_dir("store-full");
    let db = dir.join("games.sqlite3");
    drop(server(config(&db)));
    let pages: u32 = Connection::open(&db).unwrap().query_row("PRAGMA page_count", [], |r| r.get(0)).unwrap();
    let s = server(Config { db_max_pages: Some(pages), ..config(&db) });
    let mut games = Vec::new();
    let full = loop {
        assert!(games.len() < 1000, "the file never filled");
        let answer = call(&s, "POST", "/api/games", Some(json!({"variant": "chess"})));
        match answer.0 {
            201 => games.push(answer.1["id"].as_str().unwrap().to_string()),
            _ => break answer,
        }
    };
    not_saved(&full, "full");
    // A person's moves, until one does not fit: it is not on the board.
    // Each game is played by its first legal move until it ends (by the
    // rules: a repetition, say), then the next: how many moves fit in the
    // last page depends on the rows' layout, not on the game.
    let mut played: Vec<Vec<String>> = vec![Vec::new(); games.len()];
    let mut g = 0;
    let full = loop {
        assert!(played.iter().map(Vec::len).sum::<usize>() < 3000, "the rows never outgrew the file");
        let Some(legal) = state(&s, &games[g])["legal"][0].as_str().map(str::to_string) else {
            g += 1;
            assert!(g < games.len(), "every game ended and the file never filled");
            continue;
        };
        let answer = play(&s, &games[g], &legal);
        match answer.0 {
            200 => played[g].push(legal),
            _ => break answer,
        }
    };
    not_saved(&full, "database or disk is full");
    let id = &games[g];
    assert_eq!(moves(&state(&s, id)), played[g]);
    let mut kept = played[g].clone();
    // The engine's move needs as much room: an answer of 200 only for one
    // that was kept.
    let full = loop {
        assert!(kept.len() < 300, "the engine's moves all fitted");
        let answer = call(&s, "POST", &format!("/api/games/{id}/engine"), Some(json!({"movetime": 50})));
        match answer.0 {
            200 => kept.push(answer.1["engine"]["best"].as_str().unwrap().to_string()),
            _ => break answer,
        }
    };
    not_saved(&full, "database or disk is full");
    assert_eq!(moves(&state(&s, id)), kept);
    drop(s);
    let s = server(config(&db));
    assert_eq!(moves(&state(&s, id)), kept);
    for (other, moves_kept) in games.iter().zip(&played).filter(|(other, _)| *other != id) {
        assert_eq!(&moves(&state(&s, other)), moves_kept);
    }
    assert_eq!(rows(&db), games.len() as i64);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue #59, item 4: `serve --db two.sqlite3` twice. The second refuses
/// to start, naming the file and the first (its pid and address); once
/// the first is gone, however it went (SIGKILL here), the file is free.
#[cfg(unix)]
#[test]
fn a_second_server_on_one_database_refuses_to_start_naming_the_holder() {
    let dir = temp_dir("store-two");
    let db = dir.join("two.sqlite3");
    let first = Serve::start(&db, &[]);
    let err = refused(&db, &[]);
    assert!(err.contains("two.sqlite3") && err.contains("in use"), "{err}");
    assert!(err.contains(&format!("pid {}", first.pid())) && err.contains(&first.addr), "{err}");
    // The same file by another path, and a server in this process.
    let err = refused(&dir.join(".").join("two.sqlite3"), &[]);
    assert!(err.contains(&format!("pid {}", first.pid())), "{err}");
    let err = spawn(config(&db)).err().expect("a second server in this process").to_string();
    assert!(err.contains(&format!("pid {}", first.pid())), "{err}");
    // The first one's moves are its own.
    let id = first.call("POST", "/api/games", Some(json!({"variant": "chess"}))).1["id"].as_str().unwrap().to_string();
    for m in ["e2e4", "e7e5"] {
        assert_eq!(first.call("POST", &format!("/api/games/{id}/moves"), Some(json!({ "move": m }))).0, 200);
    }
    first.signal("KILL");
    drop(first);
    let second = Serve::start(&db, &[]);
    let (_, back) = second.call("GET", &format!("/api/games/{id}"), None);
    assert_eq!(back["moves"].as_array().map(Vec::len), Some(2), "{back}");
    drop(second);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue #59, item 7: one row whose moves are a blob hid all 60 games.
/// Now it is reported, left in the file as it is, and the other 59 are
/// served.
#[cfg(unix)]
#[test]
fn a_row_that_cannot_be_read_is_reported_and_the_other_games_are_served() {
    let dir = temp_dir("store-bad-row");
    let db = dir.join("games.sqlite3");
    let mut s = Serve::start(&db, &[]);
    let ids: Vec<String> = (0..60)
        .map(|_| s.call("POST", "/api/games", Some(json!({"variant": "chess"}))).1["id"].as_str().unwrap().to_string())
        .collect();
    s.signal("TERM");
    assert_eq!(s.wait_exit(Duration::from_secs(3)), Ok(Some(0)));
    let conn = Connection::open(&db).unwrap();
    let bad: String = conn.query_row("SELECT id FROM games WHERE rowid = 9", [], |r| r.get(0)).unwrap();
    conn.execute_batch("UPDATE games SET moves = X'FFFE' WHERE rowid = 9").unwrap();
    drop(conn);
    let s = Serve::start(&db, &[]);
    let log = s.logged().join("\n");
    assert!(log.contains(&format!("stored game {bad} not restored")) && log.contains("moves is Blob"), "{log}");
    for id in &ids {
        let want = if *id == bad { 404 } else { 200 };
        assert_eq!(s.call("GET", &format!("/api/games/{id}"), None).0, want, "{id}");
    }
    drop(s);
    let conn = Connection::open(&db).unwrap();
    let left: Vec<u8> = conn.query_row("SELECT moves FROM games WHERE id = ?1", [&bad], |r| r.get(0)).unwrap();
    assert_eq!(left, [0xFF, 0xFE], "the bad row is left as it was");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue #59, item 7: a `games` table of another schema started the
/// server, and every new game then got 500. Refused at start now, saying
/// what the file holds; so is another program's database.
#[test]
fn a_database_that_is_not_catchess_s_is_refused_at_start() {
    let dir = temp_dir("store-foreign");
    for (name, sql) in [
        ("foreign.sqlite3", "CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT)"),
        ("other.sqlite3", "CREATE TABLE invoices (n INTEGER)"),
    ] {
        let db = dir.join(name);
        Connection::open(&db).unwrap().execute_batch(sql).unwrap();
        let err = refused(&db, &[]);
        assert!(err.contains(name) && err.contains("is not a catchess game database"), "{err}");
        let err = spawn(config(&db)).err().expect("refused").to_string();
        assert!(err.contains("is not a catchess game database"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
