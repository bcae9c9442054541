//! A game's review (issue #62, api.md "Review"): `GET
//! /api/games/<id>/review/stream` gives one reading per position (every
//! turn's start and the end) from a node-limited search, then `done` with
//! the review once it is stored; a turn that drops its own seat's
//! expected score by 10/20/30 points is marked `?!`/`?`/`??`. One review
//! a game at a time (409), in a slot of the search pool (429), refused
//! where the thinking is hidden (403) and for a game longer than
//! `--max-review-positions` (422); a review whose client left stops and
//! frees its slot; the stored review comes back after a restart from the
//! same file, and a take-back forgets it.

mod common;

use catchess::serve::{spawn, Config, Server};
use common::http::{call, call_as, read_events_within};
use common::table::{assert_refused, token};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::time::{Duration, Instant};

/// A loopback server keeping nothing, whose reviews search `nodes` a position.
fn config(nodes: u64) -> Config {
    Config { host: "127.0.0.1".into(), port: 0, review_nodes: nodes, ..Config::in_memory() }
}

/// An analysis board (thinking shown) made from a PGN record.
fn from_pgn(s: &Server, variant: &str, pgn: &str) -> String {
    let (status, state) = call(s, "POST", "/api/games", Some(json!({"variant": variant, "pgn": pgn})));
    assert_eq!(status, 201, "{state}");
    state["id"].as_str().unwrap().to_string()
}

/// An analysis board from `fen` with `moves` played.
fn from_fen(s: &Server, variant: &str, fen: &str, moves: &[&str]) -> String {
    let (status, state) = call(s, "POST", "/api/games", Some(json!({"variant": variant, "fen": fen})));
    assert_eq!(status, 201, "{state}");
    let id = state["id"].as_str().unwrap().to_string();
    for m in moves {
        let (status, state) = call(s, "POST", &format!("/api/games/{id}/moves"), Some(json!({ "move": m })));
        assert_eq!(status, 200, "{m}: {state}");
    }
    id
}

/// The review stream's events to its end: (name, data).
fn review(s: &Server, id: &str) -> Vec<(String, Value)> {
    read_events_within(&s.addr.to_string(), &format!("/api/games/{id}/review/stream"), Duration::from_secs(120))
}

/// The stream's `done` review, after one `position` event per point.
fn reviewed(s: &Server, id: &str) -> Value {
    let events = review(s, id);
    let (last, review) = events.last().expect("events").clone();
    assert_eq!(last, "done", "{events:?}");
    let points: Vec<&Value> = events.iter().filter(|(n, _)| n == "position").map(|(_, d)| d).collect();
    assert_eq!(points.len() + 1, events.len(), "{events:?}");
    assert_eq!(&Value::Array(points.into_iter().cloned().collect()), &review["points"]);
    review
}

/// The marks of a review: (turn, notation, symbol, seat).
fn marks(review: &Value) -> Vec<(u64, String, String, String)> {
    let text = |m: &Value, k: &str| m[k].as_str().unwrap().to_string();
    let marks = review["marks"].as_array().unwrap();
    marks
        .iter()
        .map(|m| (m["turn"].as_u64().unwrap(), text(m, "notation"), text(m, "symbol"), text(m, "seat")))
        .collect()
}

/// Each point's expected scores are per mille, summing to 1000 (±1 for rounding).
fn assert_in_range(review: &Value) {
    for p in review["points"].as_array().unwrap() {
        let scores: Vec<u64> =
            p["expected"].as_array().unwrap().iter().map(|e| e["per_mille"].as_u64().unwrap()).collect();
        assert!(!scores.is_empty(), "{p}");
        assert!(scores.iter().all(|&e| e <= 1000), "{p}");
        let sum: u64 = scores.iter().sum();
        assert!((999..=1001).contains(&sum), "{p}");
        assert!(p["first_seat_cp"].as_i64().unwrap().abs() <= 32_000, "{p}");
    }
}

#[test]
fn a_chess_review_reads_every_position_and_marks_the_blunder_that_allows_mate() {
    let s = spawn(config(3_000)).unwrap();
    let id = from_pgn(&s, "chess", "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0");
    let answer = call(&s, "GET", &format!("/api/games/{id}/review"), None);
    assert_refused(answer, 404, "no review");
    let review = reviewed(&s, &id);
    let plies: Vec<u64> = review["points"].as_array().unwrap().iter().map(|p| p["ply"].as_u64().unwrap()).collect();
    assert_eq!(plies, (0..=7).collect::<Vec<u64>>(), "one reading per position, the start to the end");
    assert_in_range(&review);
    assert_eq!((review["plies"].as_u64(), review["nodes"].as_u64()), (Some(7), Some(3_000)));
    // The end: white won, by the rules; no search.
    let end = &review["points"][7];
    assert_eq!((&end["score"], &end["expected"][0]["per_mille"]), (&Value::Null, &json!(1000)), "{end}");
    // 3...Nf6 lets Qxf7 mate: black's own expected score falls to nothing.
    let m = marks(&review);
    assert!(m.contains(&(6, "Nf6".into(), "??".into(), "black".into())), "{m:?}");
    assert_eq!(review["marks"][m.iter().position(|x| x.0 == 6).unwrap()]["words"], "a blunder");
    // Stored: the same review again.
    let (status, kept) = call(&s, "GET", &format!("/api/games/{id}/review"), None);
    assert_eq!((status, &kept), (200, &review));
}

#[test]
fn a_cat_chess_review_marks_the_cat_move_that_lets_white_mate() {
    let s = spawn(config(3_000)).unwrap();
    // Cats to move; white threatens mate in 1, and only f4g5 stops it.
    let fen = "2bqkbnr/1p1np1p1/2pp3p/r1P2Q2/pP*P1*2/7P/P2NPPP1/R1B1KBNR c KQk - 1 9";
    let (status, state) = call(&s, "POST", "/api/games", Some(json!({"variant": "catchess", "fen": fen})));
    assert_eq!(status, 201, "{state}");
    let wrong = state["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).find(|&m| m != "f4g5");
    let wrong = wrong.expect("a cat move other than the save").to_string();
    let id = state["id"].as_str().unwrap().to_string();
    let (status, after) = call(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({ "move": wrong })));
    assert_eq!(status, 200, "{after}");
    // White's mate in 1 (the engine's, at a depth that finds it).
    let (status, mated) = call(&s, "POST", &format!("/api/games/{id}/engine"), Some(json!({"depth": 3})));
    assert_eq!(status, 200, "{mated}");
    assert!(mated["outcome"]["winner"] == "white", "{mated}");
    let review = reviewed(&s, &id);
    assert_eq!(review["points"].as_array().unwrap().len(), 3);
    assert_in_range(&review);
    // The cats judged by their own chance: from a held position to a mate.
    let m = marks(&review);
    assert_eq!(m.first().map(|x| (x.0, x.2.as_str(), x.3.as_str())), Some((1, "??", "cats")), "{m:?}");
    let cats = &review["points"][0]["expected"][2];
    assert_eq!(cats["seat"], "cats");
    assert!(cats["per_mille"].as_u64().unwrap() >= 300, "{review}");
}

#[test]
fn a_review_of_a_10x10_game_judges_whole_turns() {
    let s = spawn(config(1_000)).unwrap();
    let id = from_fen(&s, "catschess10", catchess::games::catschess10::START_FEN, &[]);
    // Whole turns by the engine (a turn it left at a roll, finished by
    // asking again), until two are played.
    let mut state = Value::Null;
    for _ in 0..12 {
        let (status, next) = call(&s, "POST", &format!("/api/games/{id}/engine"), Some(json!({"depth": 1})));
        assert_eq!(status, 200, "{next}");
        state = next;
        if state["turns"].as_array().unwrap().len() >= 2 && state["turn_steps"].as_array().unwrap().is_empty() {
            break;
        }
    }
    assert!(state["turn_steps"].as_array().unwrap().is_empty(), "{state}");
    let turns = state["turns"].as_array().unwrap();
    let review = reviewed(&s, &id);
    let points = review["points"].as_array().unwrap();
    // A reading at each turn's start and at the end: turns + 1.
    assert_eq!(points.len(), turns.len() + 1, "{review}");
    for (i, t) in turns.iter().enumerate() {
        assert_eq!(points[i + 1]["ply"], t["last"], "each reading after a whole turn: {review}");
        assert_eq!(points[i]["turn"].as_u64(), Some(i as u64));
    }
    assert_in_range(&review);
}

#[test]
fn a_review_is_refused_where_the_thinking_is_hidden_and_for_a_game_too_long() {
    let s = spawn(Config { max_review_positions: 5, ..config(500) }).unwrap();
    // A table that hides the engine's thinking, the game not over: 403.
    let players = json!({"black": {"kind": "engine", "level": 1}});
    let (status, made) = call(&s, "POST", "/api/games", Some(json!({"variant": "chess", "players": players})));
    assert_eq!(status, 201, "{made}");
    let hidden = made["id"].as_str().unwrap();
    assert_refused(call(&s, "GET", &format!("/api/games/{hidden}/review/stream"), None), 403, "hidden");
    assert_refused(call(&s, "GET", &format!("/api/games/{hidden}/review"), None), 403, "hidden");
    // Resigned: over, so the review is open to all.
    let (status, over) = call_as(
        &s,
        token(&made, "white"),
        "POST",
        &format!("/api/games/{hidden}/forfeit"),
        Some(json!({"seat": "white", "why": "resignation"})),
    );
    assert_eq!(status, 200, "{over}");
    assert_eq!(reviewed(&s, hidden)["points"].as_array().unwrap().len(), 1);
    // Six positions, over a cap of five: 422 saying so.
    let long = from_pgn(&s, "chess", "1. e4 e5 2. Nf3 Nc6 3. Bb5 *");
    assert_refused(call(&s, "GET", &format!("/api/games/{long}/review/stream"), None), 422, "--max-review-positions");
    assert_refused(call(&s, "GET", "/api/games/nosuch/review/stream", None), 404, "unknown game");
}

/// Waits up to `within` for `ok`, trying every 50 ms: how long it took.
fn eventually(within: Duration, mut ok: impl FnMut() -> bool) -> Option<Duration> {
    let start = Instant::now();
    while start.elapsed() < within {
        if ok() {
            return Some(start.elapsed());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    None
}

#[test]
fn one_review_a_game_in_a_slot_of_the_pool_and_one_whose_client_left_stops() {
    let s = spawn(Config { max_searches: 1, ..config(5_000_000) }).unwrap();
    let a = from_pgn(&s, "chess", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *");
    let b = from_pgn(&s, "chess", "1. d4 d5 *");
    let url = format!("http://{}/api/games/{a}/review/stream", s.addr);
    let response = ureq::get(&url).timeout(Duration::from_secs(60)).call().unwrap();
    assert!(response.content_type().starts_with("text/event-stream"));
    let lines = BufReader::new(response.into_reader()).lines();
    // Running: a second review of the game is refused, and the only slot is taken.
    assert_refused(call(&s, "GET", &format!("/api/games/{a}/review/stream"), None), 409, "running already");
    assert_refused(call(&s, "GET", &format!("/api/games/{b}/review/stream"), None), 429, "searches");
    assert_refused(call(&s, "POST", "/api/perft", Some(json!({"variant": "chess", "depth": 1}))), 429, "searches");
    std::thread::sleep(Duration::from_millis(300));
    drop(lines);
    // Its client gone, the search stops: the slot and the game are free again.
    let perft_ok = || call(&s, "POST", "/api/perft", Some(json!({"variant": "chess", "depth": 1}))).0 == 200;
    let took = eventually(Duration::from_secs(20), perft_ok).expect("the abandoned review still runs");
    assert!(took < Duration::from_secs(15), "{took:?}");
    assert_refused(call(&s, "GET", &format!("/api/games/{a}/review"), None), 404, "no review");
    // And the game may be reviewed again.
    let again =
        ureq::get(&url).timeout(Duration::from_secs(60)).call().expect("a second review once the first has gone");
    assert!(again.content_type().starts_with("text/event-stream"));
}

#[test]
fn a_review_is_kept_across_a_restart_and_a_take_back_forgets_it() {
    let db = common::temp::temp("reviews.sqlite3");
    let kept = Config { db: Some(db.to_str().unwrap().into()), ..config(1_000) };
    let (id, review) = {
        let s = spawn(kept.clone()).unwrap();
        let id = from_pgn(&s, "xiangqi", "1. C2.5 H8+7 2. H2+3 *");
        (id.clone(), reviewed(&s, &id))
    };
    assert_eq!(review["points"].as_array().unwrap().len(), 4);
    let s = spawn(kept).unwrap();
    let (status, again) = call(&s, "GET", &format!("/api/games/{id}/review"), None);
    assert_eq!((status, &again), (200, &review), "the same review after the restart");
    let (status, state) = call(&s, "POST", &format!("/api/games/{id}/undo"), Some(json!({"plies": 1})));
    assert_eq!(status, 200, "{state}");
    assert_refused(call(&s, "GET", &format!("/api/games/{id}/review"), None), 404, "no review");
    // Forgotten in the file too.
    drop(s);
    let s = spawn(Config { db: Some(db.to_str().unwrap().into()), ..config(1_000) }).unwrap();
    assert_refused(call(&s, "GET", &format!("/api/games/{id}/review"), None), 404, "no review");
}
