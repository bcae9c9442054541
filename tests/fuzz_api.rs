//! The web API's bodies, queries and paths, fuzzed over HTTP (#59): every
//! route that takes a body gets random bytes, random Unicode and mutations
//! of valid bodies; every answer must come (no hang), be below 500 and
//! carry a JSON `error` when it is a refusal; the server must still serve
//! afterwards. `CATCHESS_FUZZ_CASES` sets the cases per route (the
//! `#[ignore]` long run: `CATCHESS_FUZZ_CASES=20000 cargo test --test
//! fuzz_api -- --ignored`).

mod common;

use catchess::serve::{spawn, Config, Server};
use common::fuzz::fuzz_cases;
use serde_json::{json, Value};
use std::time::Duration;

/// Cases per route here: HTTP round trips cost more than a parser call.
fn http_cases() -> u32 {
    (common::fuzz::cases() / 6).max(50)
}

fn server() -> Server {
    spawn(Config {
        host: "127.0.0.1".into(),
        port: 0,
        max_body_bytes: 4096,
        max_movetime_ms: 30,
        default_movetime_ms: 20,
        max_analysis_ms: 50,
        max_depth: 3,
        max_perft_depth: 3,
        perft_max_ms: 200,
        review_nodes: 200,
        // The fuzz makes hundreds of games a minute from one address; the
        // per-client cap is tested in serve_table.rs, not here.
        max_creates_per_minute: 1_000_000,
        ..Config::in_memory()
    })
    .expect("the server starts")
}

/// One request with a raw body; `None` if no answer came within 10 s.
fn send(s: &Server, method: &str, path: &str, body: &str) -> Option<(u16, String)> {
    let url = format!("http://{}{path}", s.addr);
    let request = ureq::request(method, &url).timeout(Duration::from_secs(10)).set("Content-Type", "application/json");
    let response = match request.send_string(body) {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(_) => return None,
    };
    let status = response.status();
    Some((status, response.into_string().unwrap_or_default()))
}

/// Asserts the answer to one fuzzed request.
fn judge(what: &str, answer: Option<(u16, String)>) {
    let (status, text) = answer.unwrap_or_else(|| panic!("{what}: no answer"));
    assert!(status < 500 || status == 503, "{what}: {status} {text}");
    if status >= 400 {
        let body: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{what}: {status} not JSON: {text}"));
        assert!(body["error"].is_string(), "{what}: {status} {text}");
    }
}

fn new_game(s: &Server, variant: &str) -> String {
    let (status, text) = send(s, "POST", "/api/games", &json!({ "variant": variant }).to_string()).unwrap();
    assert_eq!(status, 201, "{text}");
    serde_json::from_str::<Value>(&text).unwrap()["id"].as_str().unwrap().to_string()
}

fn bodies_of_every_route() {
    let s = server();
    for variant in ["catchess", "chess", "xiangqi", "catschess10"] {
        // A game at a table (`players`), with a seat open to anyone.
        let body = json!({ "variant": variant, "players": {"black": {"kind": "person", "invite": "open"}} });
        let (status, text) = send(&s, "POST", "/api/games", &body.to_string()).unwrap();
        assert_eq!(status, 201, "{text}");
        let table: Value = serde_json::from_str(&text).unwrap();
        let table = table["id"].as_str().unwrap().to_string();
        for route in ["join", "answer", "undo", "draw", "moves", "forfeit", "thinking"] {
            let path = format!("/api/games/{table}/{route}");
            let seeds = vec![
                json!({"seat": "black", "accept": true, "move": "e2e4", "why": "time", "ply": 0}).to_string(),
                json!({"show": true}).to_string(),
            ];
            fuzz_cases(&format!("{variant} POST {path}"), seeds, http_cases(), |body| {
                judge(&format!("POST {path} {body:?}"), send(&s, "POST", &path, body))
            });
        }
        let id = new_game(&s, variant);
        let routes: Vec<(&str, Vec<Value>)> = vec![
            (
                "/api/games",
                vec![
                    json!({"variant": variant}),
                    json!({"variant": variant, "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}),
                    json!({"variant": variant, "pgn": "[Variant \"x\"]\n\n1. e4 e5 *", "clocks": {"white": {"base_ms": 60000, "inc_ms": 1000}}}),
                    json!({"variant": variant, "show_thinking": true, "players": {"black": {"kind": "person", "name": "Bea", "invite": "open"}, "white": {"kind": "engine", "level": 3}}}),
                ],
            ),
            ("join", vec![json!({"seat": "black", "name": "Bea"}), json!({})]),
            ("answer", vec![json!({"accept": true})]),
            ("moves", vec![json!({"move": "e2e4"}), json!({"move": "T@e5,a2a4"}), json!({"move": "h3e3"})]),
            ("undo", vec![json!({"plies": 2}), json!({})]),
            ("draw", vec![json!({"ply": 0}), json!({})]),
            ("engine", vec![json!({"level": 3}), json!({"movetime": 20, "depth": 2}), json!({})]),
            ("stop", vec![json!({})]),
            ("thinking", vec![json!({"show": false})]),
            ("forfeit", vec![json!({"seat": "white", "why": "resignation"}), json!({"seat": "cats", "why": "time"})]),
            (
                "/api/perft",
                vec![json!({"variant": variant, "depth": 2}), json!({"variant": variant, "fen": "x", "depth": 1})],
            ),
        ];
        for (route, valid) in routes {
            let path = if route.starts_with('/') { route.to_string() } else { format!("/api/games/{id}/{route}") };
            let seeds = valid.iter().map(Value::to_string).collect();
            fuzz_cases(&format!("{variant} POST {path}"), seeds, http_cases(), |body| {
                judge(&format!("POST {path} {body:?}"), send(&s, "POST", &path, body))
            });
        }
        // Queries and paths.
        let seeds = vec![
            format!("/api/games/{id}/pgn?white=Mallory%0A%5BResult%20%221-0%22%5D"),
            format!("/api/games/{id}/positions/0"),
            format!("/api/games/{id}/positions/99999999999999999999"),
            "/api/variants/catchess".to_string(),
            format!("/api/games/{id}"),
            format!("/api/games/{id}/review"),
            format!("/api/games/{id}/review/stream"),
            format!("/api/games?ids={id},{id}"),
            "/api/games?open=true".to_string(),
        ];
        fuzz_cases(&format!("{variant} GET paths"), seeds, http_cases(), |path| {
            // Only paths a client can send: what is not a URL is the
            // client library's refusal, not the server's.
            if path.starts_with("/api/") && path.chars().all(|c| c.is_ascii_graphic()) {
                judge(&format!("GET {path:?}"), send(&s, "GET", path, ""));
            }
        });
    }
    let (status, _) = send(&s, "GET", "/api/variants", "").expect("still serving");
    assert_eq!(status, 200);
}

#[test]
fn fuzz_api_bodies_get_an_answer_below_500() {
    bodies_of_every_route();
}

#[test]
#[ignore = "long run: set CATCHESS_FUZZ_CASES"]
fn long_run_of_the_api() {
    bodies_of_every_route();
}
