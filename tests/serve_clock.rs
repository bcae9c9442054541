//! The clocks of the seats people play, kept by the server (api.md,
//! "Clocks"): each move charged to its seat with the increment, a turn of
//! several steps charged whole, a flag fall found when the late move
//! arrives or when the game is read after it (with the game's forfeit
//! rule: in Cat Chess the cats pass on), clocks that survive a restart
//! without charging the time the server was down, and records with
//! `TimeControl` and `%clk` that `catchess pgn check` accepts.
//!
//! The server reads the time from a `ManualClock` the test moves: no
//! test sleeps for a clock, and none depends on how fast the machine is.

mod common;

use catchess::serve::{spawn, Config, ManualClock, Server};
use common::http::{call, ok};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// Some time on 2026-11-27.
const T0: u64 = 1_795_000_000_000;

fn server(db: &str, time: &Arc<ManualClock>) -> Server {
    let config = Config {
        host: "127.0.0.1".into(),
        port: 0,
        max_movetime_ms: 3000,
        db: Some(db.into()),
        time: time.clone(),
        ..Config::in_memory()
    };
    spawn(config).expect("the server starts")
}

fn memory() -> (Server, Arc<ManualClock>) {
    let time = Arc::new(ManualClock::new(T0));
    (server(catchess::serve::DB_MEMORY, &time), time)
}

/// A new game with `clocks` (`{"white": [base_ms, inc_ms]}`).
fn game(s: &Server, variant: &str, clocks: &[(&str, u64, u64)]) -> String {
    let clocks: serde_json::Map<String, Value> =
        clocks.iter().map(|&(seat, base, inc)| (seat.to_string(), json!({"base_ms": base, "inc_ms": inc}))).collect();
    let state = ok(s, "POST", "/api/games", Some(json!({ "variant": variant, "clocks": clocks })));
    state["id"].as_str().unwrap().to_string()
}

fn play(s: &Server, id: &str, text: &str) -> Value {
    ok(s, "POST", &format!("/api/games/{id}/moves"), Some(json!({ "move": text })))
}

fn state(s: &Server, id: &str) -> Value {
    ok(s, "GET", &format!("/api/games/{id}"), None)
}

/// Each clocked seat's time left, by seat, and the seat whose clock runs.
fn clocks(state: &Value) -> (Vec<(String, u64)>, Option<String>) {
    let c = &state["clock"];
    let seats = c["seats"]
        .as_array()
        .unwrap_or_else(|| panic!("no clocks: {state}"))
        .iter()
        .map(|s| (s["seat"].as_str().unwrap().to_string(), s["left_ms"].as_u64().unwrap()))
        .collect();
    (seats, c["running"].as_str().map(String::from))
}

fn left(state: &Value) -> Vec<(&str, u64)> {
    state["clock"]["seats"]
        .as_array()
        .unwrap_or_else(|| panic!("no clocks: {state}"))
        .iter()
        .map(|s| (s["seat"].as_str().unwrap(), s["left_ms"].as_u64().unwrap()))
        .collect()
}

fn running(state: &Value) -> Option<&str> {
    state["clock"]["running"].as_str()
}

fn wait(time: &ManualClock, ms: u64) {
    time.advance(Duration::from_millis(ms));
}

/// The game's record; `catchess pgn check` finds nothing wrong with it.
fn pgn(s: &Server, id: &str) -> String {
    let record = ok(s, "GET", &format!("/api/games/{id}/pgn"), None)["pgn"].as_str().unwrap().to_string();
    common::run::assert_pgn_checks(&record, id);
    record
}

#[test]
fn each_move_is_charged_to_its_seat_with_the_increment() {
    let (s, time) = memory();
    let id = game(&s, "chess", &[("white", 60_000, 1_000), ("black", 60_000, 1_000)]);
    let start = state(&s, &id);
    assert_eq!(left(&start), [("white", 60_000), ("black", 60_000)]);
    assert_eq!((running(&start), start["clock"]["server_time_ms"].as_u64()), (Some("white"), Some(T0)));
    assert_eq!(start["clock"]["seats"][0]["base_ms"], 60_000);
    assert_eq!(start["clock"]["seats"][0]["inc_ms"], 1_000);

    wait(&time, 5_000);
    let after = play(&s, &id, "e2e4");
    assert_eq!(left(&after), [("white", 56_000), ("black", 60_000)], "5 s charged, 1 s added");
    assert_eq!(running(&after), Some("black"));
    wait(&time, 2_500);
    let read = state(&s, &id);
    assert_eq!(left(&read), [("white", 56_000), ("black", 57_500)], "black's runs as it is read");
    assert_eq!(read["clock"]["server_time_ms"].as_u64(), Some(T0 + 7_500));
    let after = play(&s, &id, "e7e5");
    assert_eq!(left(&after), [("white", 56_000), ("black", 58_500)]);
    assert_eq!(running(&after), Some("white"));

    // The record: the control and each seat's clock after its move.
    let record = pgn(&s, &id);
    assert!(record.contains("[TimeControl \"60+1\"]"), "{record}");
    assert!(record.contains("1. e4 {[%clk 0:00:56]} e5 {[%clk 0:00:58.5]}"), "{record}");

    // A take-back gives the time of the moves taken back.
    wait(&time, 9_000);
    let back = ok(&s, "POST", &format!("/api/games/{id}/undo"), Some(json!({"plies": 2})));
    assert_eq!(left(&back), [("white", 60_000), ("black", 60_000)], "{back}");
    assert_eq!(running(&back), Some("white"));
}

#[test]
fn an_engine_seat_has_no_clock_and_a_game_without_clocks_says_so() {
    let (s, time) = memory();
    let id = game(&s, "chess", &[("white", 60_000, 2_000)]);
    wait(&time, 1_000);
    let after = play(&s, &id, "e2e4");
    assert_eq!(left(&after), [("white", 61_000)]);
    assert_eq!(running(&after), None, "black has no clock: nothing runs on its turn");
    wait(&time, 100_000);
    let after = ok(&s, "POST", &format!("/api/games/{id}/engine"), Some(json!({"depth": 1})));
    assert_eq!((left(&after), running(&after)), (vec![("white", 61_000)], Some("white")), "{after}");
    let record = pgn(&s, &id);
    assert!(record.contains("[WhiteTimeControl \"60+2\"]") && record.contains("[BlackTimeControl \"-\"]"), "{record}");

    let plain = ok(&s, "POST", "/api/games", Some(json!({"variant": "chess"})));
    assert_eq!(plain["clock"], Value::Null);
    let id = plain["id"].as_str().unwrap();
    let record = pgn(&s, id);
    assert!(record.contains("[TimeControl \"-\"]") && !record.contains("%clk"), "{record}");
}

#[test]
fn a_move_that_arrives_after_the_flag_loses_on_time() {
    let (s, time) = memory();
    let id = game(&s, "chess", &[("white", 10_000, 0), ("black", 10_000, 0)]);
    wait(&time, 9_999);
    play(&s, &id, "e2e4");
    wait(&time, 10_000);
    let (status, answer) = call(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": "e7e5"})));
    assert_eq!(status, 409, "{answer}");
    let error = answer["error"].as_str().unwrap();
    assert!(error.contains("black's clock ran out") && error.contains("not played"), "{error}");
    let over = state(&s, &id);
    assert_eq!(over["outcome"]["text"], "white wins: time forfeit by black", "{over}");
    assert_eq!(over["moves"].as_array().unwrap().len(), 1, "the late move was not played");
    assert_eq!((left(&over), running(&over)), (vec![("white", 1), ("black", 0)], None));
    let record = pgn(&s, &id);
    for tag in ["[Result \"1-0\"]", "[Termination \"time forfeit\"]", "[TimeControl \"10\"]"] {
        assert!(record.contains(tag), "{tag}:\n{record}");
    }
    // A flag found late still shows 0, and the game stays over.
    wait(&time, 60_000);
    assert_eq!(left(&state(&s, &id)), [("white", 1), ("black", 0)]);

    // Taking the forfeit back gives the seat its turn's time again.
    let back = ok(&s, "POST", &format!("/api/games/{id}/undo"), Some(json!({"plies": 1})));
    assert_eq!((back["outcome"].clone(), left(&back)), (Value::Null, vec![("white", 1), ("black", 10_000)]), "{back}");
}

#[test]
fn a_flag_that_fell_is_found_when_the_game_is_read() {
    let (s, time) = memory();
    // Xiangqi: black's flag gives red the game.
    let id = game(&s, "xiangqi", &[("red", 5_000, 0), ("black", 5_000, 0)]);
    wait(&time, 1_000);
    play(&s, &id, "h3e3");
    wait(&time, 4_999);
    assert_eq!(state(&s, &id)["outcome"], Value::Null);
    wait(&time, 1);
    let over = state(&s, &id);
    assert_eq!(over["outcome"]["text"], "red wins: time forfeit by black", "{over}");
    assert!(over["legal"].as_array().unwrap().is_empty());
    pgn(&s, &id);
}

#[test]
fn in_cat_chess_the_cats_flag_makes_them_pass_and_whites_gives_black_the_game() {
    let (s, time) = memory();
    let id = game(&s, "catchess", &[("white", 30_000, 1_000), ("black", 30_000, 1_000), ("cats", 30_000, 1_000)]);
    wait(&time, 1_000);
    play(&s, &id, "e2e4");
    wait(&time, 1_000);
    play(&s, &id, "e7e5");
    wait(&time, 30_000);
    let passing = state(&s, &id);
    assert_eq!(passing["outcome"], Value::Null, "{passing}");
    assert_eq!((passing["forfeited"].clone(), passing["turn"].as_str()), (json!(["cats"]), Some("white")));
    assert_eq!(passing["moves"][2]["move"], "0000", "the server passes for the cats");
    let (seats, runs) = clocks(&passing);
    assert_eq!(seats, [("white".into(), 30_000), ("black".into(), 30_000), ("cats".into(), 0)]);
    assert_eq!(runs.as_deref(), Some("white"));
    play(&s, &id, "g1f3");
    let after = play(&s, &id, "b8c6");
    assert_eq!((after["turn"].as_str(), running(&after)), (Some("white"), Some("white")), "the cats pass again");
    let (seats, _) = clocks(&after);
    assert_eq!(seats[2], ("cats".into(), 0), "a pass earns no increment");
    wait(&time, 31_000);
    let over = state(&s, &id);
    assert_eq!(over["outcome"]["text"], "black wins: time forfeit by white", "{over}");
    let record = pgn(&s, &id);
    for tag in
        ["[Result \"0-1\"]", "[Winner \"black\"]", "[Faults \"cats (?) time forfeit at ply 2", "[TimeControl \"30+1\"]"]
    {
        assert!(record.contains(tag), "{tag}:\n{record}");
    }

    // The page's usual game: only white's clock; the cats' turn runs none.
    let id = game(&s, "catchess", &[("white", 30_000, 0)]);
    let after = play(&s, &id, "e2e4");
    assert_eq!((after["turn"].as_str(), running(&after)), (Some("black"), None));
}

#[test]
fn a_10x10_turn_is_charged_whole_and_its_seat_can_lose_on_time_in_the_middle() {
    let (s, time) = memory();
    let id = game(&s, "catschess10", &[("white", 10_000, 1_000), ("black", 10_000, 1_000)]);
    // White: a cat's move, no second cat move, a mouse: four steps.
    for (ms, step) in [(1_000, "d1"), (2_000, "d1d2"), (500, "end")] {
        wait(&time, ms);
        let during = play(&s, &id, step);
        assert_eq!(running(&during), Some("white"), "{step}: the turn goes on");
    }
    assert_eq!(left(&state(&s, &id))[0], ("white", 6_500), "no increment within a turn");
    wait(&time, 500);
    let after = play(&s, &id, "M@d1");
    assert_eq!(left(&after), [("white", 7_000), ("black", 10_000)], "4 s charged, 1 s added: {after}");
    assert_eq!(running(&after), Some("black"));
    // Black begins a turn (a neutral's step) and runs out in its middle.
    wait(&time, 1_000);
    let during = play(&s, &id, "a9b9");
    assert_eq!((during["turn"].as_str(), left(&during)[1]), (Some("black"), ("black", 9_000)));
    wait(&time, 9_000);
    let over = state(&s, &id);
    assert_eq!(over["outcome"]["text"], "white wins: time forfeit by black", "{over}");
    let record = pgn(&s, &id);
    assert!(record.contains("d1d2,M@d1 {[%clk 0:00:07]}"), "{record}");
    assert!(record.contains("{black's turn under way: a9b9} 1-0"), "a record holds whole turns: {record}");

    // A teleport (the server rolls at once), then a step that comes late.
    let id = game(&s, "catschess10", &[("white", 10_000, 0), ("black", 10_000, 0)]);
    wait(&time, 1_000);
    let rolled = play(&s, &id, "T@?");
    assert_eq!(rolled["moves"][1]["roll"], true, "{rolled}");
    assert_eq!(left(&rolled)[0], ("white", 9_000));
    wait(&time, 9_000);
    let step = rolled["legal"].as_array().unwrap().iter().find(|m| m != &"end").unwrap().as_str().unwrap().to_string();
    let (status, answer) = call(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({ "move": step })));
    assert_eq!(status, 409, "{answer}");
    assert_eq!(state(&s, &id)["outcome"]["text"], "black wins: time forfeit by white");
}

#[test]
fn clocks_survive_a_restart_and_the_time_the_server_was_down_is_not_charged() {
    let db = common::temp::temp("clocks.sqlite3");
    let _ = std::fs::remove_file(&db);
    let db = db.to_str().unwrap();
    let time = Arc::new(ManualClock::new(T0));
    let id = {
        let s = server(db, &time);
        let id = game(&s, "chess", &[("white", 60_000, 0), ("black", 60_000, 0)]);
        wait(&time, 4_000);
        play(&s, &id, "e2e4");
        wait(&time, 7_000);
        assert_eq!(left(&state(&s, &id)), [("white", 56_000), ("black", 53_000)]);
        wait(&time, 1_000);
        id
        // The server stops here: it writes black's 8 s so far.
    };
    // An hour later.
    let time = Arc::new(ManualClock::new(T0 + 3_600_000));
    let s = server(db, &time);
    let back = state(&s, &id);
    assert_eq!(back["outcome"], Value::Null, "{back}");
    assert_eq!((left(&back), running(&back)), (vec![("white", 56_000), ("black", 52_000)], Some("black")));
    wait(&time, 2_000);
    let after = play(&s, &id, "e7e5");
    assert_eq!(left(&after), [("white", 56_000), ("black", 50_000)]);
    let record = pgn(&s, &id);
    assert!(record.contains("1. e4 {[%clk 0:00:56]} e5 {[%clk 0:00:50]}"), "{record}");
}

#[test]
fn bad_clocks_are_refused_and_a_kept_clock_is_not_flagged_by_request() {
    let (s, _time) = memory();
    let refused = |body: Value| call(&s, "POST", "/api/games", Some(body));
    let (status, answer) = refused(json!({"variant": "chess", "clocks": {"red": {"base_ms": 1000}}}));
    assert_eq!(status, 400, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("not a seat"), "{answer}");
    let (status, answer) = refused(json!({"variant": "chess", "clocks": {"white": {"base_ms": 0}}}));
    assert_eq!(status, 400, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("white's clock: the base time must be more than 0"), "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("base_ms must be"), "{answer}");
    // In the minutes the page's Clock takes (#62), not only in ms.
    let (status, answer) = refused(json!({"variant": "chess", "clocks": {"white": {"base_ms": 6_000_000_000u64}}}));
    assert_eq!(status, 400, "{answer}");
    let words = "white's clock: the base time must be more than 0 and at most 1440 minutes, got 100000 minutes";
    assert!(answer["error"].as_str().unwrap().starts_with(words), "{answer}");
    let (status, answer) =
        refused(json!({"variant": "chess", "clocks": {"white": {"base_ms": 1000, "inc_ms": 3_600_500}}}));
    assert_eq!(status, 400, "{answer}");
    let words = "white's clock: the increment must be at most 3600 seconds a move, got 3600.5 seconds";
    assert!(answer["error"].as_str().unwrap().starts_with(words), "{answer}");
    assert_eq!(refused(json!({"variant": "chess", "clocks": {"white": {"base_ms": "5m"}}})).0, 422);
    assert_eq!(refused(json!({"variant": "chess", "clocks": {"white": {"base_ms": 1000, "moves": 40}}})).0, 422);

    let id = game(&s, "chess", &[("white", 60_000, 0)]);
    let forfeit = |seat: &str, why: &str| {
        call(&s, "POST", &format!("/api/games/{id}/forfeit"), Some(json!({"seat": seat, "why": why})))
    };
    let (status, answer) = forfeit("white", "time");
    assert_eq!(status, 409, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("kept by the server"), "{answer}");
    let (status, answer) = forfeit("black", "time");
    assert_eq!((status, answer["outcome"]["text"].as_str()), (200, Some("white wins: time forfeit by black")));
}

/// Issue #61: no clock runs while a person seat waits for its player: a
/// friend who opens the link late loses no time, and nobody flags before
/// every player has come; from the last join on, the clocks run.
#[test]
fn no_clock_runs_until_every_invited_player_has_joined() {
    let (s, time) = memory();
    let body = json!({
        "variant": "chess",
        "clocks": {"white": {"base_ms": 60_000, "inc_ms": 0}, "black": {"base_ms": 60_000, "inc_ms": 0}},
        "players": {"black": {"kind": "person", "invite": "link"}},
    });
    let (status, made) = call(&s, "POST", "/api/games", Some(body));
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let white = made["tokens"]["white"].as_str().unwrap().to_string();
    let link = made["tokens"]["black"].as_str().unwrap().to_string();
    time.advance(Duration::from_secs(30));
    assert_eq!(clocks(&state(&s, &id)), (vec![("white".into(), 60_000), ("black".into(), 60_000)], None));
    let (status, moved) =
        common::http::call_as(&s, &white, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": "e2e4"})));
    assert_eq!(status, 200, "{moved}");
    // Black's friend comes after two minutes: more than black's whole time.
    time.advance(Duration::from_secs(120));
    let waiting = state(&s, &id);
    assert!(waiting["outcome"].is_null(), "{waiting}");
    assert_eq!(clocks(&waiting), (vec![("white".into(), 60_000), ("black".into(), 60_000)], None));
    let (status, joined) = common::http::call_as(&s, &link, "POST", &format!("/api/games/{id}/join"), Some(json!({})));
    assert_eq!(status, 200, "{joined}");
    time.advance(Duration::from_secs(10));
    assert_eq!(
        clocks(&state(&s, &id)),
        (vec![("white".into(), 60_000), ("black".into(), 50_000)], Some("black".into())),
        "black's clock runs from the join"
    );
    time.advance(Duration::from_secs(50));
    assert_eq!(state(&s, &id)["outcome"]["reason"], "time forfeit", "and its flag falls as any");
}
