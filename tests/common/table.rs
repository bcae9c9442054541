//! Games at a table (issue #61, api.md "Players"): made with `players`,
//! each person seat acting with its token.

use super::http::{call, call_as};
use catchess::serve::{spawn, Config, Server};
use serde_json::{json, Value};

/// A loopback server keeping nothing, whose engine seats move in 100 ms.
pub fn server() -> Server {
    spawn(config()).expect("the server starts")
}

/// The configuration of [`server`], to change.
pub fn config() -> Config {
    Config { host: "127.0.0.1".into(), port: 0, default_movetime_ms: 100, ..Config::in_memory() }
}

/// A game at a table made by `body` (`variant`, `players`, ...): its id,
/// its answer (state, tokens, links).
pub fn table(s: &Server, body: Value) -> (String, Value) {
    let (status, answer) = call(s, "POST", "/api/games", Some(body.clone()));
    assert_eq!(status, 201, "{body}: {answer}");
    (answer["id"].as_str().unwrap().to_string(), answer)
}

/// The token of `seat` in a new game's answer.
pub fn token<'a>(answer: &'a Value, seat: &str) -> &'a str {
    answer["tokens"][seat].as_str().unwrap_or_else(|| panic!("no token for {seat}: {answer}"))
}

/// A move acting for the seat whose token is given: (status, answer).
pub fn play_as(s: &Server, id: &str, token: &str, body: Value) -> (u16, Value) {
    call_as(s, token, "POST", &format!("/api/games/{id}/moves"), Some(body))
}

/// A move that must be played: the state after it.
pub fn played(s: &Server, id: &str, token: &str, m: &str) -> Value {
    let (status, state) = play_as(s, id, token, json!({ "move": m }));
    assert_eq!(status, 200, "{m}: {state}");
    state
}

/// A request acting for a seat (POST `path` with `body`) that must
/// succeed (200): its answer.
#[track_caller]
pub fn ok_as(s: &Server, token: &str, path: &str, body: Value) -> Value {
    let (status, answer) = call_as(s, token, "POST", path, Some(body));
    assert_eq!(status, 200, "{path}: {answer}");
    answer
}

/// A refusal's status and message, which must be JSON's `error`.
pub fn refused(answer: impl std::borrow::Borrow<(u16, Value)>) -> (u16, String) {
    let answer = answer.borrow();
    let message = answer.1["error"].as_str().unwrap_or_else(|| panic!("no JSON error: {answer:?}"));
    (answer.0, message.to_string())
}

/// Asserts that `answer` is refused with `status` and a JSON `error`
/// that says `says`.
#[track_caller]
pub fn assert_refused(answer: impl std::borrow::Borrow<(u16, Value)>, status: u16, says: &str) {
    let (got, message) = refused(answer);
    assert_eq!(got, status, "{message}");
    assert!(message.contains(says), "{message:?} does not say {says:?}");
}

/// The game's state now.
pub fn state(s: &Server, id: &str) -> Value {
    let (status, state) = call(s, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(status, 200, "{state}");
    state
}

/// The moves of a state, in the protocol's text.
pub fn moves(state: &Value) -> Vec<String> {
    state["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap().to_string()).collect()
}

/// A table of `variant` whose seats are all the creator's.
pub fn people(s: &Server, variant: &str) -> (String, Value) {
    table(s, json!({ "variant": variant, "players": {} }))
}

/// A person seat's request body.
pub fn person(name: &str) -> Value {
    json!({ "kind": "person", "name": name })
}

/// A game of `variant` with a person at each seat: the creator's first
/// seat, and each other seat invited by its link and joined (by another
/// person each). Its id and the seats' tokens, in turn order.
pub fn friends(s: &Server, variant: &str) -> (String, Vec<String>) {
    let seats: Vec<String> = match variant {
        "catchess" => vec!["white".into(), "black".into(), "cats".into()],
        "xiangqi" => vec!["red".into(), "black".into()],
        _ => vec!["white".into(), "black".into()],
    };
    let invited = json!({"kind": "person", "invite": "link"});
    let players: serde_json::Map<String, Value> =
        seats[1..].iter().map(|seat| (seat.clone(), invited.clone())).collect();
    let (id, made) = table(s, json!({"variant": variant, "players": players}));
    let joined = |seat: &str| -> String {
        let (status, answer) =
            call_as(s, token(&made, seat), "POST", &format!("/api/games/{id}/join"), Some(json!({})));
        assert_eq!(status, 200, "{answer}");
        answer["token"].as_str().unwrap().to_string()
    };
    let tokens =
        seats.iter().enumerate().map(|(i, seat)| if i == 0 { token(&made, seat).to_string() } else { joined(seat) });
    let tokens = tokens.collect();
    (id, tokens)
}
