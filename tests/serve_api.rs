//! The web API of `catchess serve` (api.md), against a server started in
//! the test on an ephemeral loopback port: every route, every refusal,
//! the analysis stream, and that the server answers while a search runs.

mod common;

use catchess::serve::{spawn, Config, Server};
use common::http::call;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn server(config: Config) -> Server {
    spawn(Config { host: "127.0.0.1".into(), port: 0, ..config }).expect("the server starts")
}

fn default_server() -> Server {
    server(Config { max_body_bytes: 4096, max_movetime_ms: 3000, max_depth: 12, ..Config::in_memory() })
}

fn raw(s: &Server, method: &str, path: &str, content_type: &str, body: &str) -> (u16, Value) {
    let url = format!("http://{}{path}", s.addr);
    let response = match ureq::request(method, &url).set("Content-Type", content_type).send_string(body) {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{method} {path}: {e}"),
    };
    let status = response.status();
    (status, serde_json::from_str(&response.into_string().unwrap()).expect("a JSON body"))
}

fn new_game(s: &Server, body: Value) -> Value {
    let (status, state) = call(s, "POST", "/api/games", Some(body));
    assert_eq!(status, 201, "{state}");
    state
}

fn error_of(answer: (u16, Value), status: u16, needle: &str) {
    let (got, body) = answer;
    assert_eq!(got, status, "{body}");
    let message = body["error"].as_str().unwrap_or_else(|| panic!("no error field: {body}"));
    assert!(message.contains(needle), "{message:?} lacks {needle:?}");
}

/// The events of an SSE answer until `done`: (event name, data).
fn read_events(s: &Server, path: &str) -> Vec<(String, Value)> {
    common::http::read_events(&s.addr.to_string(), path)
}

#[test]
fn a_cat_chess_game_through_every_route() {
    let s = default_server();
    let (status, variants) = call(&s, "GET", "/api/variants", None);
    assert_eq!(status, 200);
    let names: Vec<&str> = variants.as_array().unwrap().iter().map(|v| v["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["catchess", "chess", "xiangqi", "catschess10"]);
    let (_, layout) = call(&s, "GET", "/api/variants/xiangqi", None);
    assert_eq!((layout["files"].as_u64(), layout["ranks"].as_u64()), (Some(9), Some(10)));
    assert_eq!(layout["style"], "points");

    // The default game is Cat Chess from its start.
    let game = new_game(&s, json!({}));
    assert_eq!(game["variant"], "catchess");
    assert_eq!(game["turn"], "white");
    assert_eq!(game["outcome"], Value::Null);
    assert_eq!(game["legal"].as_array().unwrap().len(), 20 - 1, "a cat's zone blocks one move: {game}");
    let zones = game["board"].as_array().unwrap().iter().filter(|q| q["zone"] == true).count();
    assert!(zones > 0);
    let id = game["id"].as_str().unwrap().to_string();

    let (status, state) = call(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": "e2e4"})));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["turn"], "black");
    assert_eq!(state["last_move"]["from"], "e2");

    // Black and the cats by the engine: each move is played and reported.
    for seat in ["black", "cats"] {
        let (status, answer) = call(&s, "POST", &format!("/api/games/{id}/engine"), Some(json!({"depth": 3})));
        assert_eq!(status, 200, "{answer}");
        let best = answer["engine"]["best"].as_str().unwrap();
        assert!(answer["engine"]["pv"].is_array() && answer["engine"]["score"].is_object(), "{answer}");
        let last = answer["moves"].as_array().unwrap().last().unwrap().clone();
        assert_eq!((last["move"].as_str(), last["seat"].as_str()), (Some(best), Some(seat)));
    }
    let (_, state) = call(&s, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(state["moves"].as_array().unwrap().len(), 3);
    assert_eq!(state["turn"], "white");

    let (_, state) = call(&s, "POST", &format!("/api/games/{id}/undo"), Some(json!({"plies": 2})));
    assert_eq!(state["moves"].as_array().unwrap().len(), 1);

    // The record, naming the players, and a new game read from it.
    let (status, record) =
        call(&s, "GET", &format!("/api/games/{id}/pgn?white=Person&cats=catchess%20depth%203"), None);
    assert_eq!(status, 200);
    let pgn = record["pgn"].as_str().unwrap();
    assert!(pgn.contains("[Variant \"catchess\"]") && pgn.contains("1. e4 *"), "{pgn}");
    // Black's player is the engine that moved for it; the query names the others.
    assert!(
        pgn.contains("[White \"Person\"]\n[Black \"catchess\"]\n[Cats \"catchess depth 3\"]\n[Result \"*\"]"),
        "{pgn}"
    );
    error_of(call(&s, "GET", &format!("/api/games/{id}/pgn?red=Person"), None), 400, "not a seat of this game");
    let copy = new_game(&s, json!({"pgn": pgn}));
    assert_eq!((copy["variant"].as_str(), copy["fen"].as_str()), (Some("catchess"), state["fen"].as_str()));

    let (status, _) = call(&s, "DELETE", &format!("/api/games/{id}"), None);
    assert_eq!(status, 204);
    error_of(call(&s, "GET", &format!("/api/games/{id}"), None), 404, "unknown game id");
}

#[test]
fn chess_and_xiangqi_games_use_their_notation() {
    let s = default_server();
    let chess = new_game(&s, json!({"variant": "chess"}));
    let id = chess["id"].as_str().unwrap().to_string();
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        call(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({ "move": m })));
    }
    let (_, state) = call(&s, "GET", &format!("/api/games/{id}"), None);
    let notation: Vec<&str> =
        state["moves"].as_array().unwrap().iter().map(|m| m["notation"].as_str().unwrap()).collect();
    assert_eq!(notation, ["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(state["outcome"]["text"], "black wins: checkmate");
    assert_eq!(state["legal"].as_array().unwrap().len(), 0);
    error_of(call(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": "a2a3"}))), 409, "game is over");
    error_of(call(&s, "POST", &format!("/api/games/{id}/engine"), Some(json!({"depth": 1}))), 409, "game is over");

    let xq = new_game(&s, json!({"variant": "xiangqi"}));
    assert_eq!(xq["turn"], "red");
    assert!(xq["board"].as_array().unwrap().iter().any(|q| q["square"] == "e10" && q["piece"] == "k"));
    let id = xq["id"].as_str().unwrap().to_string();
    let (_, state) = call(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": "h3e3"})));
    assert_eq!(state["moves"][0]["notation"], "C2.5");

    let from_fen = new_game(&s, json!({"variant": "chess", "fen": "4k3/8/8/8/8/8/8/4K2R w K - 0 1"}));
    assert!(from_fen["legal"].as_array().unwrap().iter().any(|m| m == "e1g1"));
}

/// A move typed on the page (issue #62): in SAN (chess, Cat Chess) or WXF
/// (xiangqi) as well as from square to square; a text no legal move is
/// written as is refused with a legal move in both spellings, and a
/// coordinate move still gets the rule it breaks.
#[test]
fn moves_are_taken_as_the_records_write_them() {
    let s = default_server();
    let moves_of = |state: &Value| -> Vec<String> {
        state["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap().to_string()).collect()
    };
    let chess = new_game(&s, json!({"variant": "chess"}));
    let moves = format!("/api/games/{}/moves", chess["id"].as_str().unwrap());
    for m in ["e4", "e7e5", "Nf3"] {
        let (status, state) = call(&s, "POST", &moves, Some(json!({ "move": m })));
        assert_eq!(status, 200, "{m}: {state}");
    }
    let (_, state) = call(&s, "POST", &moves, Some(json!({"move": "Nc6"})));
    assert_eq!(moves_of(&state), ["e2e4", "e7e5", "g1f3", "b8c6"]);
    error_of(call(&s, "POST", &moves, Some(json!({"move": "Qh5h5"}))), 422, "no legal move here is written so");
    error_of(call(&s, "POST", &moves, Some(json!({"move": "Ke3"}))), 422, "such as ");
    error_of(call(&s, "POST", &moves, Some(json!({"move": "f1f3"}))), 422, "illegal move \"f1f3\": ");

    let cats = new_game(&s, json!({"variant": "catchess"}));
    let moves = format!("/api/games/{}/moves", cats["id"].as_str().unwrap());
    call(&s, "POST", &moves, Some(json!({"move": "e4"})));
    let (_, state) = call(&s, "POST", &moves, Some(json!({"move": "Nc6"})));
    assert_eq!(moves_of(&state), ["e2e4", "b8c6"]);
    // The cats' step, written as the record writes it: its squares.
    let (status, state) = call(&s, "POST", &moves, Some(json!({"move": "a4b5"})));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["turn"], "white");

    let xq = new_game(&s, json!({"variant": "xiangqi"}));
    let moves = format!("/api/games/{}/moves", xq["id"].as_str().unwrap());
    let (status, state) = call(&s, "POST", &moves, Some(json!({"move": "C2.5"})));
    assert_eq!(status, 200, "{state}");
    let (_, state) = call(&s, "POST", &moves, Some(json!({"move": "h10g8"})));
    assert_eq!(moves_of(&state), ["h3e3", "h10g8"]);
    error_of(call(&s, "POST", &moves, Some(json!({"move": "H2+9"}))), 422, "no legal move here is written so");
    // Typed in any letter case where only one move reads so: WXF's h2+3
    // is the horse's H2+3.
    let (status, state) = call(&s, "POST", &moves, Some(json!({"move": "h2+3"})));
    assert_eq!((status, moves_of(&state).last().map(String::as_str)), (200, Some("h1g3")), "{state}");

    // In SAN the case tells a pawn from a bishop: `bxc3` is the pawn's,
    // `Bxc3` the bishop's, and `BXC3`, which could be either, is refused.
    let fen = "4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1";
    for (typed, played) in [("bxc3", Some("b2c3")), ("Bxc3", Some("d2c3")), ("BXC3", None), ("ke2", Some("e1e2"))] {
        let game = new_game(&s, json!({"variant": "chess", "fen": fen}));
        let moves = format!("/api/games/{}/moves", game["id"].as_str().unwrap());
        let (status, state) = call(&s, "POST", &moves, Some(json!({ "move": typed })));
        match played {
            Some(m) => assert_eq!((status, moves_of(&state)), (200, vec![m.to_string()]), "{typed}: {state}"),
            None => assert_eq!(status, 422, "{typed}: {state}"),
        }
    }
}

/// Levels (api.md, "Levels"): the listing, an engine move at each end of
/// the range for every seat (the cats' too), the record's names, SAN in
/// the state, and refusals.
#[test]
fn levels_are_listed_and_played_by_every_seat() {
    let s = default_server();
    let (status, levels) = call(&s, "GET", "/api/levels", None);
    assert_eq!(status, 200, "{levels}");
    let list = levels["levels"].as_array().unwrap();
    assert_eq!(list.len(), 8);
    assert_eq!((list[0]["level"].as_u64(), list[0]["elo"].as_u64()), (Some(1), Some(800)));
    assert_eq!((list[7]["level"].as_u64(), &list[7]["elo"]), (Some(8), &Value::Null));
    let elos: Vec<u64> = list[..7].iter().map(|l| l["elo"].as_u64().unwrap()).collect();
    assert!(elos.windows(2).all(|w| w[0] < w[1]), "{elos:?}");
    assert!(list.iter().all(|l| !l["description"].as_str().unwrap().is_empty()));
    for (variant, seats) in [("catchess", 3), ("chess", 2), ("xiangqi", 2), ("catschess10", 2)] {
        assert_eq!(levels["defaults"][variant].as_object().map(|o| o.len()), Some(seats), "{levels}");
    }
    assert_eq!(levels["defaults"]["catchess"]["cats"], 1);

    let game = new_game(&s, json!({"variant": "catchess"}));
    let id = game["id"].as_str().unwrap().to_string();
    let engine = format!("/api/games/{id}/engine");
    error_of(call(&s, "POST", &engine, Some(json!({"level": 0}))), 400, "level must be 1..=8, got 0");
    error_of(call(&s, "POST", &engine, Some(json!({"level": 9}))), 400, "level must be 1..=8, got 9");
    error_of(call(&s, "POST", &engine, Some(json!({"level": "easy"}))), 422, "level");
    error_of(
        call(&s, "GET", &format!("/api/games/{id}/analysis?level=3&depth=2"), None),
        400,
        "level is for engine moves",
    );
    // White, black and the cats at levels 1, 8 and 1, twice round.
    for (i, level) in [1, 8, 1, 1, 8, 1].into_iter().enumerate() {
        let (status, answer) = call(&s, "POST", &engine, Some(json!({"level": level, "movetime": 500})));
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["level"], level, "{answer}");
        let last = answer["moves"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(last["move"], answer["engine"]["best"], "{answer}");
        assert_eq!(answer["moves"].as_array().unwrap().len(), i + 1);
        // SAN for white and black; a cat's step by its squares.
        let notation = last["notation"].as_str().unwrap();
        if last["seat"] == "cats" {
            assert_eq!(notation.trim_end_matches(['+', '#']), last["move"].as_str().unwrap());
        } else {
            // SAN never writes both squares of a move as the protocol does.
            assert_ne!(notation, last["move"].as_str().unwrap(), "{answer}");
        }
    }
    let (_, record) = call(&s, "GET", &format!("/api/games/{id}/pgn?cats=Person"), None);
    let pgn = record["pgn"].as_str().unwrap();
    assert!(pgn.contains("[White \"catchess level 1\"]\n[Black \"catchess level 8\"]\n[Cats \"Person\"]"), "{pgn}");
}

#[test]
fn perft_counts_and_is_capped() {
    let s = server(Config { max_perft_depth: 3, ..Config::in_memory() });
    let perft = |body: Value| call(&s, "POST", "/api/perft", Some(body));
    let (status, answer) = perft(json!({"variant": "chess", "depth": 3}));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["nodes"], 8902);
    assert_eq!(answer["divide"].as_array().unwrap().len(), 20);
    let (_, answer) = perft(json!({"variant": "xiangqi", "depth": 2}));
    assert_eq!(answer["nodes"], 1920);
    let (_, answer) = perft(json!({"variant": "chess", "fen": "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "depth": 1}));
    assert_eq!(answer["nodes"], 5);
    error_of(perft(json!({"variant": "chess", "depth": 4})), 400, "cap");
    error_of(perft(json!({"variant": "chess"})), 422, "depth");
    error_of(perft(json!({"variant": "chess", "depth": -1})), 422, "depth");
    error_of(perft(json!({"variant": "go", "depth": 1})), 400, "unknown variant");
    error_of(perft(json!({"variant": "chess", "fen": "8 w", "depth": 1})), 422, "invalid FEN");
    // CPU work is not for a GET (an <img> on any page could start one).
    error_of(call(&s, "GET", "/api/perft?variant=chess&depth=1", None), 405, "method");
}

#[test]
fn every_bad_request_gets_a_json_4xx() {
    let s = default_server();
    let id = new_game(&s, json!({"variant": "catchess"}))["id"].as_str().unwrap().to_string();
    let moves = format!("/api/games/{id}/moves");
    let engine = format!("/api/games/{id}/engine");

    error_of(raw(&s, "POST", "/api/games", "application/json", "{\"variant\": "), 400, "parse");
    error_of(raw(&s, "POST", "/api/games", "application/json", "[1, 2]"), 422, "");
    error_of(raw(&s, "POST", "/api/games", "text/plain", "{}"), 415, "Content-Type");
    error_of(call(&s, "POST", "/api/games", Some(json!({"variant": "shogi"}))), 400, "unknown variant \"shogi\"");
    error_of(call(&s, "POST", "/api/games", Some(json!({"colour": "white"}))), 422, "unknown field");
    let bad_fen = json!({"variant": "chess", "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"});
    error_of(call(&s, "POST", "/api/games", Some(bad_fen)), 422, "side to move");
    let bad_fen = json!({"variant": "catchess", "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 9"});
    error_of(call(&s, "POST", "/api/games", Some(bad_fen)), 422, "FEN");
    error_of(call(&s, "POST", "/api/games", Some(json!({"variant": "chess", "pgn": "1. e4 e4"}))), 422, "move 1... e4");
    error_of(call(&s, "POST", "/api/games", Some(json!({"fen": "x", "pgn": "y"}))), 400, "not both");

    error_of(call(&s, "POST", &moves, Some(json!({"move": "e2e5"}))), 422, "illegal move \"e2e5\"");
    error_of(call(&s, "POST", &moves, Some(json!({"move": "hello"}))), 422, "no legal move here is written so");
    error_of(call(&s, "POST", &moves, Some(json!({"move": 42}))), 422, "");
    error_of(call(&s, "POST", &moves, Some(json!({}))), 422, "move");
    error_of(call(&s, "POST", "/api/games/999/moves", Some(json!({"move": "e2e4"}))), 404, "unknown game id");
    error_of(call(&s, "GET", "/api/", None), 404, "no such route");
    error_of(call(&s, "GET", "/nothing", None), 404, "no such route");
    error_of(call(&s, "GET", "/api/games/abc", None), 404, "unknown game id");
    error_of(call(&s, "GET", "/api/games/-1/analysis", None), 404, "unknown game id");

    let huge = json!({ "move": "e".repeat(10_000) });
    error_of(call(&s, "POST", &moves, Some(huge)), 413, "too large");
    let huge_pgn = json!({ "pgn": "1. e4 ".repeat(2_000) });
    error_of(call(&s, "POST", "/api/games", Some(huge_pgn)), 413, "too large");

    error_of(call(&s, "POST", &engine, Some(json!({"depth": 13}))), 400, "depth must be 1..=12");
    error_of(call(&s, "POST", &engine, Some(json!({"depth": 0}))), 400, "depth");
    error_of(call(&s, "POST", &engine, Some(json!({"movetime": 3001}))), 400, "movetime must be 1..=3000");
    error_of(call(&s, "POST", &engine, Some(json!({"movetime": -5}))), 422, "movetime");
    error_of(call(&s, "GET", &format!("/api/games/{id}/analysis?depth=99"), None), 400, "depth");
    error_of(call(&s, "GET", &format!("/api/games/{id}/analysis?movetime=x"), None), 400, "movetime");

    error_of(call(&s, "GET", "/api/nothing", None), 404, "no such route");
    error_of(call(&s, "PUT", "/api/games", Some(json!({}))), 405, "method");
    error_of(call(&s, "GET", "/api/variants/shogi", None), 400, "unknown variant");
    // None of it hurt the game.
    let (status, state) = call(&s, "GET", &format!("/api/games/{id}"), None);
    assert_eq!((status, state["moves"].as_array().unwrap().len()), (200, 0));
}

#[test]
fn analysis_streams_depth_score_pv_and_the_cats_outlook() {
    let s = default_server();
    let id = new_game(&s, json!({"variant": "catchess"}))["id"].as_str().unwrap().to_string();
    let events = read_events(&s, &format!("/api/games/{id}/analysis?depth=5"));
    assert_eq!(events[0].0, "start");
    let infos: Vec<&Value> = events.iter().filter(|(n, _)| n == "info").map(|(_, d)| &d["info"]).collect();
    assert!(infos.len() >= 3, "{events:?}");
    for (i, info) in infos.iter().enumerate() {
        assert_eq!(info["depth"], i as u64 + 1);
        assert!(info["score"]["cp"].is_i64() || info["score"]["mate"].is_i64(), "{info}");
        assert!(!info["pv"].as_array().unwrap().is_empty());
        let outlook = info["outlook"].as_array().unwrap();
        let seats: Vec<&str> = outlook.iter().map(|c| c["seat"].as_str().unwrap()).collect();
        assert_eq!(seats, ["white", "black", "cats"]);
        assert_eq!(outlook.iter().map(|c| c["percent"].as_u64().unwrap()).sum::<u64>(), 100);
    }
    let (name, done) = events.last().unwrap();
    assert_eq!(name, "done");
    assert_eq!((done["kind"].as_str(), done["played"].as_bool()), (Some("analysis"), Some(false)));
    assert!(done["found"]["best"].is_string());
    // Two queens up, but black's king stands beside a cat: white cannot win
    // as things stand, and the outlook says so instead of "white 100 %".
    let fortress = "*k6/8/8/3*4/8/8/2QQ4/6K1 b - - 0 1";
    let held = new_game(&s, json!({"variant": "catchess", "fen": fortress}))["id"].as_str().unwrap().to_string();
    let events = read_events(&s, &format!("/api/games/{held}/analysis?depth=3"));
    let info = &events.iter().rev().find(|(n, _)| n == "info").expect("an info event").1["info"];
    assert!(info["first_seat_cp"].as_i64().unwrap() > 900, "{info}");
    let outlook: Vec<(u64, bool)> = info["outlook"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["percent"].as_u64().unwrap(), c["cannot_win"].as_bool().unwrap()))
        .collect();
    assert_eq!(outlook, [(0, true), (0, false), (100, false)], "{info}");
    // Analysis plays nothing; chess has no outlook.
    let (_, state) = call(&s, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(state["moves"].as_array().unwrap().len(), 0);
    let id = new_game(&s, json!({"variant": "chess"}))["id"].as_str().unwrap().to_string();
    let events = read_events(&s, &format!("/api/games/{id}/analysis?depth=2"));
    assert!(events.iter().any(|(n, d)| n == "info" && d["info"]["outlook"].is_null()));
}

#[test]
fn the_server_answers_while_the_engine_thinks() {
    let s = default_server();
    let id = new_game(&s, json!({"variant": "catchess"}))["id"].as_str().unwrap().to_string();
    std::thread::scope(|scope| {
        // A follower sees the engine's search from start to done.
        let follower = scope.spawn(|| read_events(&s, &format!("/api/games/{id}/analysis?follow=true")));
        std::thread::sleep(Duration::from_millis(200));
        let started = Instant::now();
        let thinker =
            scope.spawn(|| call(&s, "POST", &format!("/api/games/{id}/engine"), Some(json!({"movetime": 1500}))));
        std::thread::sleep(Duration::from_millis(300));
        // Meanwhile: the page, other games, this game's state, all at once.
        for _ in 0..5 {
            let asked = Instant::now();
            let (status, state) = call(&s, "GET", &format!("/api/games/{id}"), None);
            assert_eq!((status, state["moves"].as_array().unwrap().len()), (200, 0));
            let other = new_game(&s, json!({"variant": "chess"}));
            assert_eq!(other["turn"], "white");
            let page = ureq::get(&format!("http://{}/", s.addr)).call().unwrap().into_string().unwrap();
            assert!(page.contains("<svg") || page.contains("app.js"));
            assert!(asked.elapsed() < Duration::from_millis(500), "{:?}", asked.elapsed());
        }
        // The game is the engine's until it moves.
        error_of(call(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": "e2e4"}))), 409, "thinking");
        error_of(call(&s, "POST", &format!("/api/games/{id}/engine"), Some(json!({"depth": 1}))), 409, "thinking");
        let (status, answer) = thinker.join().unwrap();
        assert_eq!(status, 200, "{answer}");
        assert!(started.elapsed() >= Duration::from_millis(1400), "{:?}", started.elapsed());
        assert_eq!(answer["moves"].as_array().unwrap().len(), 1);
        let events = follower.join().unwrap();
        let names: Vec<&str> = events.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names.first(), Some(&"start"));
        assert!(names.contains(&"info"));
        assert_eq!(events.last().unwrap().1["played"], true);
    });
    // Stop: an engine search stopped early still plays.
    let (status, _) = call(&s, "POST", &format!("/api/games/{id}/stop"), Some(json!({})));
    assert_eq!(status, 204);
}

#[test]
fn a_move_stops_an_analysis_and_the_store_keeps_its_limit() {
    let s = server(Config { max_games: 2, ..Config::in_memory() });
    let first = new_game(&s, json!({"variant": "chess"}))["id"].as_str().unwrap().to_string();
    std::thread::scope(|scope| {
        let analysis = scope.spawn(|| read_events(&s, &format!("/api/games/{first}/analysis?movetime=20000")));
        std::thread::sleep(Duration::from_millis(300));
        let started = Instant::now();
        let (status, _) = call(&s, "POST", &format!("/api/games/{first}/moves"), Some(json!({"move": "e2e4"})));
        assert_eq!(status, 200);
        let events = analysis.join().unwrap();
        assert_eq!(events.last().unwrap().0, "done");
        assert!(started.elapsed() < Duration::from_secs(5));
    });
    let second = new_game(&s, json!({}))["id"].as_str().unwrap().to_string();
    call(&s, "GET", &format!("/api/games/{second}"), None);
    // A third game replaces the one left alone longest (the first).
    new_game(&s, json!({}));
    error_of(call(&s, "GET", &format!("/api/games/{first}"), None), 404, "unknown game id");
    assert_eq!(call(&s, "GET", &format!("/api/games/{second}"), None).0, 200);
}

/// Cat's Chess 10×10's teleport in the web app: the server rolls, as the
/// arbiter does in a match (rules §8), for a person who asks with `T@?`
/// and for the engine, whose `T@?` is played, not dropped.
#[test]
fn the_server_rolls_the_teleport() {
    let s = default_server();
    let roll_after = |moves: &[Value], i: usize| {
        assert_eq!(moves[i]["move"], "T@?", "{moves:?}");
        let outcome = moves[i + 1]["move"].as_str().unwrap();
        assert!(outcome.starts_with("T@") || outcome.starts_with("T?"), "{moves:?}");
        assert_eq!(moves[i + 1]["seat"], moves[i]["seat"]);
    };
    let game = new_game(&s, json!({"variant": "catschess10"}));
    let id = game["id"].as_str().unwrap().to_string();
    let (status, state) = call(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": "T@?"})));
    assert_eq!(status, 200, "{state}");
    roll_after(state["moves"].as_array().unwrap(), 0);
    assert_eq!(state["turn"], "white", "the turn goes on after the roll");
    assert!(!state["legal"].as_array().unwrap().is_empty());
    // Taking back the roll takes back the request: no roll is left to choose.
    let (_, state) = call(&s, "POST", &format!("/api/games/{id}/undo"), Some(json!({"plies": 1})));
    assert_eq!(state["moves"].as_array().unwrap().len(), 0, "{state}");
    assert!(state["legal"].as_array().unwrap().iter().any(|m| m == "T@?"), "{state}");

    // From the start White has no T: the engine asks for one (protocol.md's example).
    let game = new_game(&s, json!({"variant": "catschess10"}));
    let id = game["id"].as_str().unwrap().to_string();
    let (status, answer) = call(&s, "POST", &format!("/api/games/{id}/engine"), Some(json!({"depth": 6})));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["engine"]["best"], "T@?", "{answer}");
    roll_after(answer["moves"].as_array().unwrap(), 0);
}
