//! What a browser tab (or any client) cannot do to `catchess serve`
//! (issue #41): each test sends the request that once got through and
//! checks that it is now refused or bounded. Servers run in the test on
//! ephemeral loopback ports.

mod common;

use catchess::serve::{spawn, Config, Server};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

fn server(config: Config) -> Server {
    spawn(Config { host: "127.0.0.1".into(), port: 0, ..config }).expect("the server starts")
}

/// A request and its answer: status and JSON body (4xx included).
fn call(s: &Server, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    call_within(s, method, path, body, Duration::from_secs(30)).expect("an answer")
}

/// `call`, giving up (and disconnecting) after `timeout`: `None` then.
fn call_within(s: &Server, method: &str, path: &str, body: Option<Value>, timeout: Duration) -> Option<(u16, Value)> {
    common::http::call_within(&s.addr.to_string(), method, path, body, timeout)
}

/// A request written by hand (any Host, Origin, content type): the status
/// line's code, the headers and the body.
fn raw(s: &Server, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(s.addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut text = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
    if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
        text.push_str(&format!("Host: {}\r\n", s.addr));
    }
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    text.push_str("\r\n");
    text.push_str(body);
    stream.write_all(text.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (status, head.to_string(), body.to_string())
}

fn new_game(s: &Server, body: Value) -> Value {
    let (status, state) = call(s, "POST", "/api/games", Some(body));
    assert_eq!(status, 201, "{state}");
    state
}

fn id_of(state: &Value) -> String {
    state["id"].as_str().expect("a string id").to_string()
}

fn error_of(answer: (u16, Value), status: u16, needle: &str) {
    let (got, body) = answer;
    assert_eq!(got, status, "{body}");
    let message = body["error"].as_str().unwrap_or_else(|| panic!("no error field: {body}"));
    assert!(message.contains(needle), "{message:?} lacks {needle:?}");
}

/// Polls `ok` every 20 ms for up to `within`; how long it took.
fn eventually(within: Duration, mut ok: impl FnMut() -> bool) -> Option<Duration> {
    let start = Instant::now();
    while start.elapsed() < within {
        if ok() {
            return Some(start.elapsed());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

// ---- 1. perft: bounded, POST only, cancelled with its client -------------

#[test]
fn perft_stops_at_its_time_limit_and_node_budget() {
    let s = server(Config { perft_max_ms: 400, ..Config::in_memory() });
    // The request of the report: depth 3 of the 10×10 game ran for minutes.
    let started = Instant::now();
    let answer = call(&s, "POST", "/api/perft", Some(json!({"variant": "catschess10", "depth": 3})));
    error_of(answer, 422, "time limit of 400 ms");
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());

    let s = server(Config { perft_max_nodes: 1000, ..Config::in_memory() });
    error_of(call(&s, "POST", "/api/perft", Some(json!({"variant": "chess", "depth": 3}))), 422, "budget of 1000");
    let (status, answer) = call(&s, "POST", "/api/perft", Some(json!({"variant": "chess", "depth": 2})));
    assert_eq!((status, answer["nodes"].as_u64()), (200, Some(400)), "{answer}");
}

#[test]
fn a_perft_whose_client_left_stops_and_frees_its_slot() {
    // One slot: while the long count runs, nothing else may.
    let s = server(Config { max_searches: 1, perft_max_ms: 60_000, ..Config::in_memory() });
    let body = json!({"variant": "catschess10", "depth": 3});
    let left = call_within(&s, "POST", "/api/perft", Some(body), Duration::from_millis(300));
    assert!(left.is_none(), "the count should still run: {left:?}");
    let quick = || call(&s, "POST", "/api/perft", Some(json!({"variant": "chess", "depth": 1}))).0 == 200;
    let freed = eventually(Duration::from_secs(3), quick);
    assert!(freed.is_some(), "the abandoned perft still holds the server's only slot");
}

#[test]
fn perft_cannot_be_started_cross_site() {
    let s = default_server();
    let body = r#"{"variant": "chess", "depth": 1}"#;
    // A GET (an <img> on any page) is no longer a route.
    assert_eq!(raw(&s, "GET", "/api/perft?variant=chess&depth=1", &[], "").0, 405);
    // A form post (text/plain, no preflight) and another site's script.
    assert_eq!(raw(&s, "POST", "/api/perft", &[("Content-Type", "text/plain")], body).0, 415);
    let evil = [("Content-Type", "application/json"), ("Origin", "http://evil.example")];
    assert_eq!(raw(&s, "POST", "/api/perft", &evil, body).0, 403);
    let ok = [("Content-Type", "application/json")];
    assert_eq!(raw(&s, "POST", "/api/perft", &ok, body).0, 200);
}

fn default_server() -> Server {
    server(Config { max_movetime_ms: 10_000, ..Config::in_memory() })
}

// ---- 2. searches tied to their clients, capped, ids unguessable -----------

#[test]
fn an_analysis_whose_client_left_stops() {
    let s = server(Config { max_searches: 1, ..Config::in_memory() });
    let a = id_of(&new_game(&s, json!({"variant": "chess"})));
    let b = id_of(&new_game(&s, json!({"variant": "chess"})));
    // The report's request: an 8 s analysis, its client gone after 300 ms.
    let url = format!("http://{}/api/games/{a}/analysis?movetime=8000", s.addr);
    let response = ureq::get(&url).timeout(Duration::from_secs(30)).call().unwrap();
    let mut lines = BufReader::new(response.into_reader()).lines();
    assert_eq!(lines.next().unwrap().unwrap(), "event: start");
    // While it runs, the only slot is taken.
    error_of(call(&s, "POST", &format!("/api/games/{b}/engine"), Some(json!({"depth": 1}))), 429, "searches");
    std::thread::sleep(Duration::from_millis(300));
    drop(lines);
    let engine_ok = || call(&s, "POST", &format!("/api/games/{b}/engine"), Some(json!({"depth": 1}))).0 == 200;
    let took = eventually(Duration::from_secs(3), engine_ok).expect("the abandoned analysis still runs");
    assert!(took < Duration::from_secs(2), "{took:?}");
}

#[test]
fn an_engine_move_whose_client_left_is_not_played() {
    let s = server(Config { max_searches: 1, ..default_config() });
    let id = id_of(&new_game(&s, json!({"variant": "chess"})));
    let engine = format!("/api/games/{id}/engine");
    let left = call_within(&s, "POST", &engine, Some(json!({"movetime": 8000})), Duration::from_millis(300));
    assert!(left.is_none(), "{left:?}");
    // The game is free again and nothing was played in it.
    let free = || call(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": "e2e4"}))).0 == 200;
    let took = eventually(Duration::from_secs(3), free).expect("the game stays the engine's");
    assert!(took < Duration::from_secs(2), "{took:?}");
    let (_, state) = call(&s, "GET", &format!("/api/games/{id}"), None);
    let moves: Vec<&str> = state["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(moves, ["e2e4"]);
}

fn default_config() -> Config {
    Config { max_movetime_ms: 10_000, ..Config::in_memory() }
}

#[test]
fn deleting_a_game_mid_search_plays_no_move() {
    let s = default_server();
    let id = id_of(&new_game(&s, json!({"variant": "catchess"})));
    let engine = format!("/api/games/{id}/engine");
    std::thread::scope(|scope| {
        let thinker = scope.spawn(|| call(&s, "POST", &engine, Some(json!({"movetime": 5000}))));
        std::thread::sleep(Duration::from_millis(300));
        let started = Instant::now();
        assert_eq!(call(&s, "DELETE", &format!("/api/games/{id}"), None).0, 204);
        let answer = thinker.join().unwrap();
        assert!(started.elapsed() < Duration::from_secs(2), "the search went on: {:?}", started.elapsed());
        error_of(answer, 404, "deleted while the engine was thinking");
    });
    error_of(call(&s, "GET", &format!("/api/games/{id}"), None), 404, "unknown game id");
}

#[test]
fn searches_are_capped_server_wide() {
    let s = server(Config { max_searches: 2, ..default_config() });
    let ids: Vec<String> = (0..3).map(|_| id_of(&new_game(&s, json!({"variant": "chess"})))).collect();
    let s = &s;
    std::thread::scope(|scope| {
        for id in &ids[..2] {
            scope.spawn(move || call(s, "POST", &format!("/api/games/{id}/engine"), Some(json!({"movetime": 1500}))));
        }
        std::thread::sleep(Duration::from_millis(300));
        error_of(
            call(s, "POST", &format!("/api/games/{}/engine", ids[2]), Some(json!({"depth": 1}))),
            429,
            "2 searches",
        );
        error_of(call(s, "POST", "/api/perft", Some(json!({"variant": "chess", "depth": 1}))), 429, "searches");
    });
    assert_eq!(call(s, "POST", &format!("/api/games/{}/engine", ids[2]), Some(json!({"depth": 1}))).0, 200);
}

#[test]
fn game_ids_are_random_and_long() {
    let s = default_server();
    let ids: Vec<String> = (0..20).map(|_| id_of(&new_game(&s, json!({})))).collect();
    for id in &ids {
        assert!(id.len() == 32 && id.chars().all(|c| c.is_ascii_hexdigit()), "{id}");
    }
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len());
    for guess in ["1", "2", "0", "00000000000000000000000000000001"] {
        error_of(call(&s, "GET", &format!("/api/games/{guess}"), None), 404, "unknown game id");
    }
}

// ---- 3. Host, Origin, content type, CORS ----------------------------------

#[test]
fn a_foreign_host_is_refused() {
    let s = default_server();
    let port = s.addr.port();
    let json = ("Content-Type", "application/json");
    // The DNS-rebinding request of the report got 201.
    let (status, _, body) = raw(&s, "POST", "/api/games", &[("Host", "rebind.attacker.example"), json], "{}");
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("is not this server"), "{body}");
    for host in [format!("rebind.attacker.example:{port}"), format!("127.0.0.1:{}", port + 1), "10.1.2.3".into()] {
        assert_eq!(raw(&s, "GET", "/", &[("Host", &host)], "").0, 403, "{host}");
    }
    for host in [format!("127.0.0.1:{port}"), format!("localhost:{port}")] {
        assert_eq!(raw(&s, "POST", "/api/games", &[("Host", &host), json], "{}").0, 201, "{host}");
    }
}

#[test]
fn state_changes_need_the_same_origin_and_json() {
    let s = default_server();
    let id = id_of(&new_game(&s, json!({})));
    let stop = format!("/api/games/{id}/stop");
    let own = format!("http://{}", s.addr);
    // The report's request: text/plain from any origin, no preflight.
    let (status, _, body) =
        raw(&s, "POST", &stop, &[("Content-Type", "text/plain"), ("Origin", "http://evil.example")], "{}");
    assert_eq!(status, 403, "{body}");
    assert_eq!(raw(&s, "POST", &stop, &[("Content-Type", "text/plain")], "{}").0, 415);
    assert_eq!(raw(&s, "POST", &stop, &[], "").0, 415);
    let evil = [("Content-Type", "application/json"), ("Origin", "http://evil.example")];
    assert_eq!(raw(&s, "POST", &stop, &evil, "{}").0, 403);
    assert_eq!(raw(&s, "DELETE", &format!("/api/games/{id}"), &[("Origin", "null")], "").0, 403);
    // Reads from another site (an <img>, a cross-site fetch) too.
    assert_eq!(raw(&s, "GET", &format!("/api/games/{id}"), &[("Sec-Fetch-Site", "cross-site")], "").0, 403);
    assert_eq!(raw(&s, "GET", &format!("/api/games/{id}"), &[("Origin", "http://evil.example")], "").0, 403);
    // The page itself: same origin, JSON.
    let page = [("Content-Type", "application/json"), ("Origin", own.as_str()), ("Sec-Fetch-Site", "same-origin")];
    assert_eq!(raw(&s, "POST", &stop, &page, "{}").0, 204);
    assert_eq!(raw(&s, "POST", &stop, &[("Content-Type", "application/json; charset=utf-8")], "{}").0, 204);
    // No CORS by default: no header, no preflight.
    let (status, head, _) = raw(&s, "GET", "/api/variants", &[], "");
    assert_eq!(status, 200);
    assert!(!head.to_ascii_lowercase().contains("access-control-allow-origin"), "{head}");
    let preflight = [("Origin", "http://good.example"), ("Access-Control-Request-Method", "POST")];
    assert_eq!(raw(&s, "OPTIONS", "/api/games", &preflight, "").0, 403);
}

#[test]
fn allow_origin_opts_in_to_cors() {
    let s = server(Config { allow_origins: vec!["http://good.example".into()], ..default_config() });
    let preflight = [("Origin", "http://good.example"), ("Access-Control-Request-Method", "POST")];
    let (status, head, _) = raw(&s, "OPTIONS", "/api/games", &preflight, "");
    let head = head.to_ascii_lowercase();
    assert_eq!(status, 204, "{head}");
    assert!(head.contains("access-control-allow-origin: http://good.example"), "{head}");
    assert!(head.contains("access-control-allow-headers: content-type"), "{head}");
    let post = [("Origin", "http://good.example"), ("Content-Type", "application/json")];
    let (status, head, _) = raw(&s, "POST", "/api/games", &post, "{}");
    assert_eq!(status, 201);
    assert!(head.to_ascii_lowercase().contains("access-control-allow-origin: http://good.example"), "{head}");
    let other = [("Origin", "http://evil.example"), ("Content-Type", "application/json")];
    assert_eq!(raw(&s, "POST", "/api/games", &other, "{}").0, 403);
}

// ---- 4–6. Cat's Chess 10×10: the server's dice, steps, records ------------

#[test]
fn a_client_cannot_choose_its_roll() {
    let s = default_server();
    let id = id_of(&new_game(&s, json!({"variant": "catschess10"})));
    let moves = format!("/api/games/{id}/moves");
    // The report's request was accepted and recorded as ["T@?", "T@e5"].
    error_of(call(&s, "POST", &moves, Some(json!({"move": "T@e5"}))), 422, "rolls are the server's");
    error_of(call(&s, "POST", &moves, Some(json!({"move": "T@e5,b3b4"}))), 422, "rolls are the server's");
    let (_, state) = call(&s, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(state["moves"].as_array().unwrap().len(), 0, "{state}");
    // Asked for, the roll is the server's and says so.
    let (status, state) = call(&s, "POST", &moves, Some(json!({"move": "T@?"})));
    assert_eq!(status, 200, "{state}");
    let played = state["moves"].as_array().unwrap();
    assert_eq!((played[0]["move"].as_str(), played[0].get("roll")), (Some("T@?"), None));
    assert_eq!(played[1]["roll"], true, "{state}");
    assert_eq!(state["turn_steps"].as_array().unwrap().len(), 2, "{state}");
}

#[test]
fn every_legal_entry_can_be_posted_and_a_turn_is_built_step_by_step() {
    let s = default_server();
    let id = id_of(&new_game(&s, json!({"variant": "catschess10"})));
    let moves = format!("/api/games/{id}/moves");
    let undo = format!("/api/games/{id}/undo");
    let get = || call(&s, "GET", &format!("/api/games/{id}"), None).1;
    let strings =
        |v: &Value| -> Vec<String> { v.as_array().unwrap().iter().map(|m| m.as_str().unwrap().into()).collect() };
    // The report: `a2b2` (from `legal`) got 422 and `b1` "cannot parse".
    // Now every entry, at the turn's start and after a first step.
    let start = strings(&get()["legal"]);
    assert!(start.iter().any(|m| m == "a2b2") && start.iter().any(|m| m == "b1"), "{start:?}");
    for prefix in [None, Some("b3")] {
        if let Some(step) = prefix {
            assert_eq!(call(&s, "POST", &moves, Some(json!({ "move": step }))).0, 200);
        }
        let base = get()["moves"].as_array().unwrap().len();
        let legal = strings(&get()["legal"]);
        assert!(!legal.is_empty());
        for entry in &legal {
            let (status, state) = call(&s, "POST", &moves, Some(json!({ "move": entry })));
            assert_eq!(status, 200, "{entry}: {state}");
            let added = state["moves"].as_array().unwrap().len() - base;
            assert!(added >= 1, "{entry}");
            let (_, back) = call(&s, "POST", &undo, Some(json!({ "plies": added })));
            assert_eq!(back["moves"].as_array().unwrap().len(), base, "{entry}");
        }
    }
    call(&s, "POST", &undo, Some(json!({"plies": 1})));
    // A turn by clicks: the first listed step each time (no roll).
    let mut steps = 0;
    loop {
        let state = get();
        if state["turn"] != "white" {
            break;
        }
        let legal = strings(&state["legal"]);
        let next = legal.iter().find(|m| *m != "T@?").expect("a step that goes on").clone();
        let (status, state) = call(&s, "POST", &moves, Some(json!({ "move": next })));
        assert_eq!(status, 200, "{next}: {state}");
        steps += 1;
        assert!(steps < 20, "the turn never ends: {state}");
        if state["turn"] == "white" {
            assert_eq!(state["turn_steps"].as_array().unwrap().len(), steps, "{state}");
        }
    }
    let state = get();
    assert!(steps >= 2 && state["turn_steps"].as_array().unwrap().is_empty(), "{state}");
    // A whole turn in one token still works.
    let (status, state) = call(&s, "POST", &moves, Some(json!({"move": "b8b7"})));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["turn"], "white");
}

#[test]
fn a_record_ending_in_a_roll_request_is_rolled_at_once() {
    let s = default_server();
    let game = new_game(&s, json!({"variant": "catschess10", "pgn": "[Variant \"catschess10\"]\n\n1. T@? *"}));
    let played = game["moves"].as_array().unwrap();
    assert_eq!(played.len(), 2, "{game}");
    assert_eq!((played[0]["move"].as_str(), played[1]["roll"].as_bool()), (Some("T@?"), Some(true)));
    let legal = game["legal"].as_array().unwrap();
    assert!(!legal.is_empty(), "{game}");
    let id = id_of(&game);
    let (status, state) = call(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": legal[0]})));
    assert_eq!(status, 200, "{state}");
    let (status, answer) = call(&s, "POST", &format!("/api/games/{id}/engine"), Some(json!({"depth": 2})));
    assert_eq!(status, 200, "{answer}");
}

// ---- 9. connections that never finish their headers -----------------------

#[test]
fn a_connection_that_never_finishes_its_headers_is_closed() {
    let s = server(Config { header_timeout_ms: 300, ..Config::in_memory() });
    let mut stream = TcpStream::connect(s.addr).unwrap();
    stream.write_all(format!("GET / HTTP/1.1\r\nHost: {}\r\nX-Slow: ", s.addr).as_bytes()).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let started = Instant::now();
    let mut buf = Vec::new();
    let closed = stream.read_to_end(&mut buf).is_ok();
    assert!(closed, "still open after {:?}", started.elapsed());
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    // A connection that sends nothing at all, likewise.
    let mut silent = TcpStream::connect(s.addr).unwrap();
    silent.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let started = Instant::now();
    assert!(silent.read_to_end(&mut buf).is_ok(), "still open after {:?}", started.elapsed());
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    // The server still answers.
    assert_eq!(call(&s, "GET", "/api/variants", None).0, 200);
}

// ---- 10. bodies that never finish (issue #59) -----------------------------

/// Headers that announce a body of `length` bytes, and `sent` of it.
fn slow_body(addr: &str, length: u64, sent: &str) -> TcpStream {
    let mut stream = TcpStream::connect(addr).unwrap();
    let head = format!(
        "POST /api/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n{sent}"
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream
}

/// The status of the answer on `stream`, how long it took to come, and
/// whether the server closed the connection after it (within `limit`).
fn answer_and_close(stream: &mut TcpStream, limit: Duration) -> (u16, Duration, bool) {
    let started = Instant::now();
    stream.set_read_timeout(Some(limit)).unwrap();
    let mut answer = Vec::new();
    let mut byte = [0u8];
    while !answer.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
        answer.push(byte[0]);
    }
    let took = started.elapsed();
    let closed = stream.read_to_end(&mut answer).is_ok();
    let text = String::from_utf8_lossy(&answer);
    (text.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0), took, closed)
}

/// A body that stops coming gets 408 at the deadline and its connection is
/// closed; a body announced over `--max-body` (10 GB, one byte sent) gets
/// 413 at once, without waiting for it, and its connection is closed soon
/// after.
#[test]
fn a_body_that_does_not_arrive_is_cut_off_and_one_too_large_refused_at_once() {
    let s = server(Config { body_timeout_ms: 300, ..Config::in_memory() });
    let addr = s.addr.to_string();
    let (status, took, closed) = answer_and_close(&mut slow_body(&addr, 100, "{"), Duration::from_secs(5));
    assert_eq!((status, closed), (408, true));
    assert!(took < Duration::from_secs(2), "{took:?}");
    let (status, took, closed) = answer_and_close(&mut slow_body(&addr, 10_000_000_000, "{"), Duration::from_secs(5));
    assert_eq!((status, closed), (413, true));
    assert!(took < Duration::from_millis(500), "{took:?}");
    assert_eq!(call(&s, "GET", "/api/variants", None).0, 200);
}

/// Issue #59: 520 connections that sent headers and one byte of a 100-byte
/// body filled the 512-connection cap, and every new client was reset for
/// as long as they were held. Now each newcomer takes the place of the
/// connection that has waited longest on its client: 20 probes out of 20
/// are answered at once, the slow ones still held (`catchess serve` with
/// its defaults, as a process of its own).
#[cfg(unix)]
#[test]
fn slow_clients_cannot_lock_out_the_others() {
    let dir = common::serve_process::temp_dir("serve-slow-clients");
    let s = common::serve_process::Serve::start(&dir.join("games.sqlite3"), &[]);
    let slow: Vec<TcpStream> = (0..520).map(|_| slow_body(&s.addr, 100, "{")).collect();
    let mut worst = Duration::ZERO;
    for _ in 0..20 {
        let asked = Instant::now();
        let answer = s.call_within("GET", "/api/variants", None, Duration::from_secs(5));
        assert_eq!(answer.map(|(status, _)| status), Some(200), "a probe was not served");
        worst = worst.max(asked.elapsed());
    }
    assert!(worst < Duration::from_secs(1), "the slowest probe took {worst:?}");
    eprintln!("20 probes past 520 slow connections: the slowest took {worst:?}");
    drop(slow);
    let _ = std::fs::remove_dir_all(&dir);
}

/// With every slot taken by an analysis, asking the engine on that game
/// stops the analysis and gets its slot: no 429 for the page's own work.
#[test]
fn the_engine_takes_the_slot_of_the_analysis_it_stops() {
    let s = server(Config { max_searches: 1, ..default_config() });
    let id = id_of(&new_game(&s, json!({"variant": "chess"})));
    let url = format!("http://{}/api/games/{id}/analysis?movetime=8000", s.addr);
    let response = ureq::get(&url).timeout(Duration::from_secs(30)).call().unwrap();
    let mut lines = BufReader::new(response.into_reader()).lines();
    assert_eq!(lines.next().unwrap().unwrap(), "event: start");
    let started = Instant::now();
    let (status, answer) = call(&s, "POST", &format!("/api/games/{id}/engine"), Some(json!({"depth": 2})));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["moves"].as_array().unwrap().len(), 1);
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
}
