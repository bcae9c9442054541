//! Games that survive (issue #41): `catchess serve` as a process of its
//! own, with its SQLite database in a temporary folder: a crash (SIGKILL)
//! or a restart brings every game back, rolls included, and SIGTERM or
//! SIGINT end searches and streams and exit 0 within a second.

// Signals are sent with kill(1).
#![cfg(unix)]

mod common;

use common::serve_process::{temp_dir, Serve};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::time::{Duration, Instant};

fn new_game(s: &Serve, body: Value) -> String {
    let (status, state) = s.call("POST", "/api/games", Some(body));
    assert_eq!(status, 201, "{state}");
    state["id"].as_str().unwrap().to_string()
}

fn state(s: &Serve, id: &str) -> Value {
    let (status, state) = s.call("GET", &format!("/api/games/{id}"), None);
    assert_eq!(status, 200, "{state}");
    state
}

fn play(s: &Serve, id: &str, text: &str) -> Value {
    let (status, state) = s.call("POST", &format!("/api/games/{id}/moves"), Some(json!({ "move": text })));
    assert_eq!(status, 200, "{text}: {state}");
    state
}

/// What must come back: position, moves (with the rolls), the legal list.
fn essence(state: &Value) -> Value {
    json!([state["id"], state["variant"], state["fen"], state["moves"], state["legal"], state["outcome"]])
}

#[test]
fn every_game_comes_back_after_a_crash_and_a_restart() {
    let dir = temp_dir("serve-persist");
    let db = dir.join("games.sqlite3");
    let s = Serve::start(&db, &[]);
    let chess = new_game(&s, json!({"variant": "chess"}));
    for m in ["e2e4", "e7e5", "g1f3"] {
        play(&s, &chess, m);
    }
    let cats = new_game(&s, json!({"variant": "catchess"}));
    let (status, _) = s.call("POST", &format!("/api/games/{cats}/engine"), Some(json!({"depth": 2})));
    assert_eq!(status, 200);
    let ten = new_game(&s, json!({"variant": "catschess10"}));
    let rolled = play(&s, &ten, "T@?");
    assert_eq!(rolled["moves"][1]["roll"], true, "{rolled}");
    let gone = new_game(&s, json!({"variant": "xiangqi"}));
    assert_eq!(s.call("DELETE", &format!("/api/games/{gone}"), None).0, 204);
    let before: Vec<Value> = [&chess, &cats, &ten].iter().map(|id| essence(&state(&s, id))).collect();

    // A crash: no chance to flush anything.
    s.signal("KILL");
    drop(s);
    let s = Serve::start(&db, &[]);
    let after: Vec<Value> = [&chess, &cats, &ten].iter().map(|id| essence(&state(&s, id))).collect();
    assert_eq!(before, after);
    assert_eq!(s.call("GET", &format!("/api/games/{gone}"), None).0, 404);
    // The game goes on where it was, and the next move is kept too.
    play(&s, &chess, "b8c6");
    let mut s = s;
    s.signal("TERM");
    assert_eq!(s.wait_exit(Duration::from_secs(3)), Ok(Some(0)));
    let s = Serve::start(&db, &[]);
    assert_eq!(state(&s, &chess)["moves"].as_array().unwrap().len(), 4);
    drop(s);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The seat's time left on the server's clock.
fn left_ms(state: &Value, seat: &str) -> u64 {
    let seats = state["clock"]["seats"].as_array().unwrap_or_else(|| panic!("no clocks: {state}"));
    seats.iter().find(|c| c["seat"] == seat).and_then(|c| c["left_ms"].as_u64()).unwrap()
}

/// api.md, "Clocks": after a crash the time since the game's last change
/// is not charged; a SIGTERM writes the time used so far first. Either
/// way no clock runs while the server is down. (Bounds only: a slow
/// machine cannot make this fail.)
#[test]
fn a_running_clock_is_not_charged_for_a_crash_and_is_kept_over_a_sigterm() {
    const BASE: u64 = 600_000;
    let dir = temp_dir("serve-clock");
    let db = dir.join("games.sqlite3");
    let s = Serve::start(&db, &[]);
    let clocks = json!({"white": {"base_ms": BASE}, "black": {"base_ms": BASE}});
    let id = new_game(&s, json!({"variant": "chess", "clocks": clocks}));
    play(&s, &id, "e2e4");
    std::thread::sleep(Duration::from_millis(1500));
    s.signal("KILL");
    drop(s);
    // Black's 1.5 s before the crash were never written: not charged.
    let restarted = Instant::now();
    let mut s = Serve::start(&db, &[]);
    let back = state(&s, &id);
    let since = restarted.elapsed().as_millis() as u64;
    assert_eq!(back["clock"]["running"], "black", "{back}");
    assert!(left_ms(&back, "black") >= BASE - since, "charged for the crash: {back}");
    // SIGTERM: what black has used since the restart is written first.
    std::thread::sleep(Duration::from_millis(1500));
    s.signal("TERM");
    assert_eq!(s.wait_exit(Duration::from_secs(3)), Ok(Some(0)));
    let s = Serve::start(&db, &[]);
    let back = state(&s, &id);
    let since = restarted.elapsed().as_millis() as u64;
    let left = left_ms(&back, "black");
    assert!(left <= BASE - 1500, "the time before the SIGTERM was lost: {back}");
    assert!(left >= BASE - since, "charged for the time the server was down: {back}");
    drop(s);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Opens the analysis stream at `path`; returns once its first event came,
/// with a thread that reads it to its end and says when that was.
fn open_stream(s: &Serve, path: &str) -> std::thread::JoinHandle<Instant> {
    let url = format!("http://{}{path}", s.addr);
    let response = ureq::get(&url).timeout(Duration::from_secs(60)).call().expect("a stream");
    let mut lines = BufReader::new(response.into_reader()).lines();
    assert_eq!(lines.next().unwrap().unwrap(), "event: start");
    std::thread::spawn(move || {
        for line in lines {
            if line.is_err() {
                break;
            }
        }
        Instant::now()
    })
}

fn stops_within_a_second(signal: &str) {
    let dir = temp_dir(&format!("serve-{signal}"));
    let db = dir.join("games.sqlite3");
    let mut s = Serve::start(&db, &["--max-movetime", "60000", "--max-searches", "4"]);
    let a = new_game(&s, json!({"variant": "chess"}));
    let b = new_game(&s, json!({"variant": "catchess"}));
    let c = new_game(&s, json!({"variant": "chess"}));
    play(&s, &c, "d2d4");
    // Under way: an analysis stream, an engine move, a page following a game.
    let analysis = open_stream(&s, &format!("/api/games/{a}/analysis?movetime=60000"));
    let follow = std::thread::spawn({
        let url = format!("http://{}/api/games/{c}/analysis?follow=true", s.addr);
        move || {
            let r = ureq::get(&url).timeout(Duration::from_secs(60)).call().unwrap();
            for line in BufReader::new(r.into_reader()).lines() {
                if line.is_err() {
                    break;
                }
            }
            Instant::now()
        }
    });
    let engine = std::thread::spawn({
        let url = format!("http://{}/api/games/{b}/engine", s.addr);
        move || {
            let r = ureq::post(&url).timeout(Duration::from_secs(60)).set("Content-Type", "application/json");
            let _ = r.send_string(r#"{"movetime": 60000}"#);
            Instant::now()
        }
    });
    std::thread::sleep(Duration::from_millis(500));
    let sent = Instant::now();
    s.signal(signal);
    let code = s.wait_exit(Duration::from_secs(5));
    let took = sent.elapsed();
    assert_eq!(code, Ok(Some(0)), "SIG{signal}");
    assert!(took < Duration::from_secs(1), "SIG{signal}: the server took {took:?} to stop");
    for (what, ended) in [("analysis", analysis.join().unwrap()), ("follow", follow.join().unwrap())] {
        assert!(ended.duration_since(sent) < Duration::from_secs(1), "the {what} stream outlived the server");
    }
    assert!(engine.join().unwrap().duration_since(sent) < Duration::from_secs(1));
    // Everything written before the signal is there.
    let s = Serve::start(&db, &[]);
    assert_eq!(state(&s, &c)["moves"][0]["move"], "d2d4");
    drop(s);
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("SIG{signal}: stopped in {took:?}");
}

#[test]
fn sigterm_stops_everything_and_exits_zero_within_a_second() {
    stops_within_a_second("TERM");
}

#[test]
fn sigint_stops_everything_and_exits_zero_within_a_second() {
    stops_within_a_second("INT");
}

/// The review's random kills during play, as a long run (#59): two clients
/// play random legal moves in games of every variant while the server is
/// SIGKILLed at a random moment; after each restart every move answered
/// 200 is there (a move in flight at the kill may be there too), and
/// SQLite's integrity check passes. `CATCHESS_KILLS` rounds (default 25):
/// `CATCHESS_KILLS=25 cargo test --test serve_persist -- --ignored`.
#[test]
#[ignore = "long run: 25 kills by default"]
fn acknowledged_moves_survive_random_kills() {
    use rand::{Rng, SeedableRng};
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex};
    let rounds: usize = std::env::var("CATCHESS_KILLS").ok().and_then(|v| v.parse().ok()).unwrap_or(25);
    let dir = temp_dir("serve-kills");
    let db = dir.join("games.sqlite3");
    // Per game: the moves of its last state answered 200.
    let acknowledged: Arc<Mutex<HashMap<String, Value>>> = Arc::default();
    let mut rng = rand::rngs::StdRng::seed_from_u64(59);
    let (mut answered, mut kills) = (0usize, 0usize);
    for round in 0..rounds {
        let s = Arc::new(Serve::start(&db, &[]));
        // Every acknowledged move is still there after the last kill.
        for (id, moves) in acknowledged.lock().unwrap().iter() {
            let now = state(&s, id)["moves"].as_array().cloned().unwrap_or_default();
            let kept = moves.as_array().unwrap();
            assert!(
                now.len() >= kept.len() && now[..kept.len()] == kept[..],
                "round {round}, game {id}: {kept:?} vs {now:?}"
            );
        }
        let clients: Vec<_> = (0..2)
            .map(|client| {
                let (s, acknowledged) = (s.clone(), acknowledged.clone());
                let seed = rng.gen::<u64>();
                std::thread::spawn(move || {
                    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
                    let variant = ["catchess", "chess", "xiangqi", "catschess10"][(round + client) % 4];
                    let mut count = 0;
                    let Some((201, game)) = s.call_within(
                        "POST",
                        "/api/games",
                        Some(json!({ "variant": variant })),
                        Duration::from_secs(5),
                    ) else {
                        return count;
                    };
                    let id = game["id"].as_str().unwrap().to_string();
                    let mut legal = game["legal"].as_array().cloned().unwrap_or_default();
                    while !legal.is_empty() {
                        let m = legal[rng.gen_range(0..legal.len())].clone();
                        let path = format!("/api/games/{id}/moves");
                        match s.call_within("POST", &path, Some(json!({ "move": m })), Duration::from_secs(5)) {
                            Some((200, after)) => {
                                acknowledged.lock().unwrap().insert(id.clone(), after["moves"].clone());
                                legal = after["legal"].as_array().cloned().unwrap_or_default();
                                count += 1;
                            }
                            Some((status, body)) => panic!("{variant} {m}: {status} {body}"),
                            None => break,
                        }
                    }
                    count
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(rng.gen_range(100..800)));
        s.signal("KILL");
        kills += 1;
        answered += clients.into_iter().map(|c| c.join().expect("a client")).sum::<usize>();
        drop(s);
        let check = rusqlite::Connection::open(&db).unwrap();
        let integrity: String = check.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
        assert_eq!(integrity, "ok", "round {round}");
    }
    eprintln!("{kills} kills, {answered} moves answered 200, every one kept");
    let _ = std::fs::remove_dir_all(&dir);
}
