//! What the page needs to play a game to its end (api.md): resigning and
//! flag fall by the game's forfeit rule (kept in the database, in the
//! record, taken back), the turns of the move list, the positions to step
//! through, and an analysis with several lines.

mod common;

use catchess::serve::{spawn, Config, Server};
use common::http::{call, ok};
use serde_json::{json, Value};
use std::time::Duration;

fn server(db: &str) -> Server {
    let config =
        Config { host: "127.0.0.1".into(), port: 0, max_movetime_ms: 3000, db: Some(db.into()), ..Config::in_memory() };
    spawn(config).expect("the server starts")
}

fn game(s: &Server, variant: &str, moves: &[&str]) -> (String, Value) {
    let mut state = ok(s, "POST", "/api/games", Some(json!({ "variant": variant })));
    let id = state["id"].as_str().unwrap().to_string();
    for m in moves {
        state = ok(s, "POST", &format!("/api/games/{id}/moves"), Some(json!({ "move": m })));
    }
    (id, state)
}

fn forfeit(s: &Server, id: &str, seat: &str, why: &str) -> (u16, Value) {
    call(s, "POST", &format!("/api/games/{id}/forfeit"), Some(json!({ "seat": seat, "why": why })))
}

/// The game's record; `catchess pgn check` finds nothing wrong with it.
fn pgn(s: &Server, id: &str) -> String {
    let record = ok(s, "GET", &format!("/api/games/{id}/pgn"), None)["pgn"].as_str().unwrap().to_string();
    common::run::assert_pgn_checks(&record, id);
    record
}

#[test]
fn a_flag_fall_or_a_resignation_gives_a_two_seat_game_to_the_other_seat() {
    let s = server(catchess::serve::DB_MEMORY);
    let (id, _) = game(&s, "chess", &["e2e4", "e7e5"]);
    let (status, state) = forfeit(&s, &id, "white", "time");
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["outcome"]["winner"], "black", "{state}");
    assert_eq!(state["outcome"]["reason"], "time forfeit");
    assert_eq!(state["outcome"]["text"], "black wins: time forfeit by white");
    assert!(state["legal"].as_array().unwrap().is_empty());
    let record = pgn(&s, &id);
    for tag in ["[Result \"0-1\"]", "[Termination \"time forfeit\"]", "[TerminationDetails \"time forfeit by white\"]"]
    {
        assert!(record.contains(tag), "{tag} missing:\n{record}");
    }
    assert!(record.trim_end().ends_with("0-1"), "{record}");
    // Over: no move, no engine, no second forfeit.
    assert_eq!(call(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": "g1f3"}))).0, 409);
    assert_eq!(call(&s, "POST", &format!("/api/games/{id}/engine"), Some(json!({}))).0, 409);
    assert_eq!(forfeit(&s, &id, "black", "resignation").0, 409);
    // Take back: the forfeit first, as one step; the moves stay.
    let state = ok(&s, "POST", &format!("/api/games/{id}/undo"), Some(json!({"plies": 1})));
    assert_eq!((state["outcome"].clone(), state["moves"].as_array().unwrap().len()), (Value::Null, 2), "{state}");

    let (id, _) = game(&s, "xiangqi", &["h3e3"]);
    let state = forfeit(&s, &id, "black", "resignation").1;
    assert_eq!(state["outcome"]["text"], "red wins: resignation by black", "{state}");
    let record = pgn(&s, &id);
    assert!(record.contains("[Result \"1-0\"]") && record.contains("[Termination \"normal\"]"), "{record}");

    // Refusals: no such seat, no such reason.
    let (status, answer) = forfeit(&s, &id, "cats", "time");
    assert!(status == 400 || status == 409, "{answer}");
    let (id, _) = game(&s, "chess", &[]);
    let (status, answer) = forfeit(&s, &id, "cats", "time");
    assert_eq!(status, 400, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("not a seat"), "{answer}");
    assert_eq!(forfeit(&s, &id, "white", "boredom").0, 422);
}

#[test]
fn in_cat_chess_white_and_black_lose_by_forfeit_and_the_cats_pass_on() {
    let s = server(catchess::serve::DB_MEMORY);
    let (id, _) = game(&s, "catchess", &["e2e4"]);
    assert_eq!(forfeit(&s, &id, "black", "time").1["outcome"]["winner"], "white");
    let (id, _) = game(&s, "catchess", &[]);
    assert_eq!(forfeit(&s, &id, "white", "resignation").1["outcome"]["winner"], "black");

    // The cats' flag falls on their turn: the server passes for them at
    // once and from then on; the game goes on.
    let (id, state) = game(&s, "catchess", &["e2e4", "e7e5"]);
    assert_eq!(state["turn"], "cats");
    let state = forfeit(&s, &id, "cats", "time").1;
    assert_eq!(state["outcome"], Value::Null, "{state}");
    assert_eq!(state["forfeited"], json!(["cats"]));
    assert_eq!(state["turn"], "white", "{state}");
    assert_eq!(state["moves"][2]["move"], "0000", "{state}");
    let state = ok(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": "g1f3"})));
    let state2 = ok(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": "b8c6"})));
    assert_eq!((state["turn"].as_str(), state2["turn"].as_str()), (Some("black"), Some("white")), "{state2}");
    assert_eq!(state2["moves"][5]["move"], "0000", "{state2}");
    let record = pgn(&s, &id);
    assert!(record.contains("[Faults \"cats (?) time forfeit at ply 2"), "{record}");
    assert!(record.contains("[Result \"*\"]"), "{record}");
    // Taken back to before it, the forfeit is gone and the cats move again.
    let state = ok(&s, "POST", &format!("/api/games/{id}/undo"), Some(json!({"plies": 4})));
    assert_eq!((state["turn"].as_str(), state["forfeited"].clone()), (Some("cats"), json!([])), "{state}");
    // The cats pass, then white resigns: black wins, and the record says both.
    forfeit(&s, &id, "cats", "resignation");
    let state = forfeit(&s, &id, "white", "resignation").1;
    assert_eq!(state["outcome"]["text"], "black wins: resignation by white", "{state}");
    let record = pgn(&s, &id);
    assert!(record.contains("[Result \"0-1\"]") && record.contains("[Faults \"cats (?) resignation"), "{record}");
}

#[test]
fn forfeits_are_kept_in_the_database() {
    let db = common::temp::temp("games.sqlite3");
    let _ = std::fs::remove_file(&db);
    let (resigned, passing) = {
        let s = server(db.to_str().unwrap());
        let (resigned, _) = game(&s, "chess", &["f2f3"]);
        forfeit(&s, &resigned, "black", "resignation");
        let (passing, _) = game(&s, "catchess", &["d2d4", "d7d5"]);
        forfeit(&s, &passing, "cats", "resignation");
        (resigned, passing)
    };
    let s = server(db.to_str().unwrap());
    let state = ok(&s, "GET", &format!("/api/games/{resigned}"), None);
    assert_eq!(state["outcome"]["text"], "white wins: resignation by black", "{state}");
    let state = ok(&s, "GET", &format!("/api/games/{passing}"), None);
    assert_eq!((state["forfeited"].clone(), state["turn"].as_str()), (json!(["cats"]), Some("white")), "{state}");
    ok(&s, "POST", &format!("/api/games/{passing}/moves"), Some(json!({"move": "c2c4"})));
    let state = ok(&s, "POST", &format!("/api/games/{passing}/moves"), Some(json!({"move": "c7c6"})));
    assert_eq!(state["turn"], "white", "the cats still pass after a restart: {state}");
}

#[test]
fn turns_group_the_steps_of_a_10x10_turn_and_positions_step_through_a_game() {
    let s = server(catchess::serve::DB_MEMORY);
    // One move a turn: each turn is one ply, in the game's notation.
    let (id, state) = game(&s, "chess", &["e2e4", "e7e5", "g1f3"]);
    let turns = state["turns"].as_array().unwrap();
    let seen: Vec<(&str, &str, u64, u64)> = turns
        .iter()
        .map(|t| {
            (
                t["seat"].as_str().unwrap(),
                t["notation"].as_str().unwrap(),
                t["first"].as_u64().unwrap(),
                t["last"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(seen, [("white", "e4", 1, 1), ("black", "e5", 2, 2), ("white", "Nf3", 3, 3)]);
    let start = ok(&s, "GET", &format!("/api/games/{id}/positions/0"), None);
    assert_eq!(start["fen"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!((start["turn"].as_str(), start["last_move"].clone()), (Some("white"), Value::Null));
    let after = ok(&s, "GET", &format!("/api/games/{id}/positions/2"), None);
    assert_eq!((after["turn"].as_str(), after["last_move"]["move"].as_str()), (Some("white"), Some("e7e5")));
    let e5 = after["board"].as_array().unwrap().iter().find(|q| q["square"] == "e5").unwrap().clone();
    assert_eq!(e5["piece"], "p");
    let (status, answer) = call(&s, "GET", &format!("/api/games/{id}/positions/4"), None);
    assert_eq!(status, 404, "{answer}");

    // 10×10: a turn of several steps is one entry, its token.
    let (_, state) = game(&s, "catschess10", &["d1", "d1d2", "end", "M@d1", "a9b9"]);
    let turns = state["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 2, "{state}");
    assert_eq!(
        (turns[0]["notation"].as_str(), turns[0]["first"].as_u64(), turns[0]["last"].as_u64()),
        (Some("d1d2,M@d1"), Some(1), Some(4))
    );
    assert_eq!(
        (turns[1]["seat"].as_str(), turns[1]["first"].as_u64()),
        (Some("black"), Some(5)),
        "the turn under way counts"
    );
}

/// The `info` events of an analysis stream until `done`.
fn infos(s: &Server, path: &str) -> Vec<Value> {
    common::http::read_events(&s.addr.to_string(), path)
        .into_iter()
        .filter(|(name, _)| name == "info")
        .map(|(_, data)| data["info"].clone())
        .collect()
}

#[test]
fn an_analysis_reports_several_lines_and_an_infinite_one_ends_on_stop() {
    let s = server(catchess::serve::DB_MEMORY);
    let (id, _) = game(&s, "chess", &["e2e4"]);
    let lines = infos(&s, &format!("/api/games/{id}/analysis?depth=4&multipv=3"));
    let last_depth = lines.iter().map(|i| i["depth"].as_u64().unwrap()).max().unwrap();
    let mut at_last: Vec<&Value> = lines.iter().filter(|i| i["depth"].as_u64() == Some(last_depth)).collect();
    at_last.sort_by_key(|i| i["multipv"].as_u64());
    let numbers: Vec<u64> = at_last.iter().map(|i| i["multipv"].as_u64().unwrap()).collect();
    assert_eq!(numbers, [1, 2, 3], "{lines:?}");
    let firsts: std::collections::HashSet<&str> = at_last.iter().map(|i| i["pv"][0].as_str().unwrap()).collect();
    assert_eq!(firsts.len(), 3, "three different first moves: {at_last:?}");

    // Infinite: it runs until stopped; an engine's move takes neither.
    let path = format!("/api/games/{id}/stop");
    let addr = s.addr.to_string();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(1500));
        common::http::call_within(&addr, "POST", &path, Some(json!({})), Duration::from_secs(5))
    });
    let started = std::time::Instant::now();
    let lines = infos(&s, &format!("/api/games/{id}/analysis?infinite=true&multipv=2"));
    let took = started.elapsed();
    assert_eq!(stopper.join().unwrap().map(|(status, _)| status), Some(204));
    assert!(took >= Duration::from_millis(1400) && took < Duration::from_secs(20), "{took:?}");
    assert!(lines.iter().any(|i| i["multipv"] == 2), "{lines:?}");
    let (status, answer) = call(&s, "POST", &format!("/api/games/{id}/engine"), Some(json!({"multipv": 3})));
    assert_eq!(status, 400, "{answer}");
    let (status, _) = call(&s, "GET", &format!("/api/games/{id}/analysis?multipv=9"), None);
    assert_eq!(status, 400);
}
