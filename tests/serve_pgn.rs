//! The page's PGN export and import over the web API, with the requests
//! of issue #59: a 10×10 game of turns of several steps and a Cat Chess
//! game in which the cats forfeited (and so pass, `0000`) export and
//! import again as the same game; a player's name cannot forge a tag.

mod common;

use catchess::serve::{spawn, Config, Server};
use common::http::call;
use serde_json::{json, Value};

fn server() -> Server {
    let config = Config { max_body_bytes: 1 << 20, max_depth: 12, ..Config::in_memory() };
    spawn(Config { host: "127.0.0.1".into(), port: 0, ..config }).expect("the server starts")
}

fn ok(s: &Server, method: &str, path: &str, body: Option<Value>) -> Value {
    let (status, answer) = call(s, method, path, body);
    assert!(status == 200 || status == 201, "{method} {path}: {status} {answer}");
    answer
}

fn moves(state: &Value) -> Vec<String> {
    state["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap().to_string()).collect()
}

fn export(s: &Server, id: &str, query: &str) -> String {
    ok(s, "GET", &format!("/api/games/{id}/pgn{query}"), None)["pgn"].as_str().unwrap().to_string()
}

#[test]
fn a_catschess10_game_of_several_steps_a_turn_imports_again() {
    let s = server();
    let game = ok(&s, "POST", "/api/games", Some(json!({"variant": "catschess10"})));
    let id = game["id"].as_str().unwrap().to_string();
    let mut state = game;
    for _ in 0..8 {
        if state["outcome"].is_object() {
            break;
        }
        state = ok(&s, "POST", &format!("/api/games/{id}/engine"), Some(json!({"depth": 1})));
    }
    let pgn = export(&s, &id, "");
    let tokens: Vec<&str> = pgn.lines().filter(|l| !l.starts_with('[')).flat_map(str::split_whitespace).collect();
    assert!(tokens.iter().any(|t| t.contains(',')), "a turn of several steps: {pgn}");
    let copy = ok(&s, "POST", "/api/games", Some(json!({"pgn": pgn})));
    assert_eq!(copy["variant"], "catschess10");
    let original = ok(&s, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(moves(&copy), moves(&original), "{pgn}");
    assert_eq!(copy["fen"], original["fen"]);
}

#[test]
fn a_cat_chess_game_whose_cats_forfeited_imports_with_their_passes() {
    let s = server();
    let game = ok(&s, "POST", "/api/games", Some(json!({"variant": "catchess"})));
    let id = game["id"].as_str().unwrap().to_string();
    ok(&s, "POST", &format!("/api/games/{id}/forfeit"), Some(json!({"seat": "cats", "why": "resignation"})));
    for m in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        ok(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": m})));
    }
    let pgn = export(&s, &id, "");
    assert!(pgn.contains("0000"), "{pgn}");
    let copy = ok(&s, "POST", "/api/games", Some(json!({"pgn": pgn})));
    let original = ok(&s, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(moves(&copy), moves(&original), "{pgn}");
    assert_eq!(moves(&copy), ["e2e4", "e7e5", "0000", "g1f3", "b8c6", "0000"]);
    // The copy knows the cats forfeited: they pass on, and its record says so.
    let copy_id = copy["id"].as_str().unwrap().to_string();
    ok(&s, "POST", &format!("/api/games/{copy_id}/moves"), Some(json!({"move": "f1c4"})));
    let after = ok(&s, "POST", &format!("/api/games/{copy_id}/moves"), Some(json!({"move": "g8f6"})));
    assert_eq!(moves(&after).last().map(String::as_str), Some("0000"), "{after}");
    let again = export(&s, &copy_id, "");
    assert!(again.contains("[Faults \"cats (?) resignation at ply 2"), "{again}");
}

#[test]
fn a_player_s_name_cannot_forge_a_tag() {
    let s = server();
    let game = ok(&s, "POST", "/api/games", Some(json!({"variant": "chess"})));
    let id = game["id"].as_str().unwrap().to_string();
    ok(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": "e2e4"})));
    let pgn = export(&s, &id, "?white=Mallory%0A%5BResult%20%221-0%22%5D");
    assert!(pgn.contains("[White \"Mallory [Result \\\"1-0\\\"]\"]\n"), "{pgn}");
    let results: Vec<&str> = pgn.lines().filter(|l| l.starts_with("[Result ")).collect();
    assert_eq!(results, ["[Result \"*\"]"], "{pgn}");
    // It reads back as one game with the name as written.
    let copy = ok(&s, "POST", "/api/games", Some(json!({"variant": "chess", "pgn": pgn})));
    assert_eq!((moves(&copy), copy["variant"].as_str()), (vec!["e2e4".to_string()], Some("chess")));
}

/// A 10×10 game exported in the middle of a turn (its seat rolled and has
/// not moved yet): the record holds the whole turns and keeps the steps
/// under way in its last comment, and the import plays them again. Both
/// with whole turns before and with none.
#[test]
fn a_catschess10_game_exported_mid_turn_imports_with_the_turn_under_way() {
    let s = server();
    for whole_turns in [0, 2] {
        let game = ok(&s, "POST", "/api/games", Some(json!({"variant": "catschess10"})));
        let id = game["id"].as_str().unwrap().to_string();
        for _ in 0..whole_turns {
            ok(&s, "POST", &format!("/api/games/{id}/engine"), Some(json!({"depth": 1})));
            // The engine's turn may stop at its roll: finish it.
            let state = ok(&s, "GET", &format!("/api/games/{id}"), None);
            if !state["turn_steps"].as_array().unwrap().is_empty() {
                ok(&s, "POST", &format!("/api/games/{id}/engine"), Some(json!({"depth": 1})));
            }
        }
        // The seat to move asks for its roll; the server rolls.
        let rolled = ok(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": "T@?"})));
        assert!(!rolled["turn_steps"].as_array().unwrap().is_empty(), "{rolled}");
        let pgn = export(&s, &id, "");
        assert!(pgn.contains("'s turn under way: T@?, T@"), "{pgn}");
        let copy = ok(&s, "POST", "/api/games", Some(json!({"pgn": pgn})));
        assert_eq!(moves(&copy), moves(&rolled), "{pgn}");
        assert_eq!(copy["fen"], rolled["fen"]);
        assert_eq!(copy["turn_steps"], rolled["turn_steps"]);
    }
}
