//! The endgame tables in the web API (issue #43): `catchess serve
//! --tb-dir DIR` puts the tables' answer in every game state: the
//! position's result in words and every legal move's result, the same as
//! `catchess tb probe --moves` says.

mod common;

use common::run::catchess;
use common::serve_process::{temp_dir, Serve};
use common::tables;
use serde_json::{json, Value};
use std::collections::HashMap;

/// A directory with the chess K+Q v K table, made by the command.
fn chess_tables() -> std::path::PathBuf {
    let dir = temp_dir("tb-serve");
    tables::generate_chess(&dir, &["KQvK"]);
    // The table under its variant's name (issue #60), which the server finds.
    assert!(dir.join("KQvK.chess.cctb").is_file() && !dir.join("KQvK.cctb").exists());
    dir
}

fn new_game(s: &Serve, variant: &str, fen: Option<&str>) -> Value {
    let body = match fen {
        Some(fen) => json!({"variant": variant, "fen": fen}),
        None => json!({"variant": variant}),
    };
    let (status, state) = s.call("POST", "/api/games", Some(body));
    assert_eq!(status, 201, "{state}");
    state
}

/// `tb probe --moves`: the position's line, then each move's result (a
/// draw that has ended the game, `draw 0`, written as any draw: `draw -`).
fn probe_moves(variant: &str, dir: &std::path::Path, fen: &str) -> (String, HashMap<String, String>) {
    let (ok, out, err) =
        catchess(&["tb", "probe", "--variant", variant, "--dir", dir.to_str().unwrap(), "--moves", "--fen", fen]);
    assert!(ok, "{err}");
    let mut lines = out.lines();
    let head = lines.next().unwrap().to_string();
    let moves = lines
        .map(|l| {
            let (m, r) = l.split_once(' ').unwrap();
            let r = if r == "draw 0" || r == "cats 0" { r.replace('0', "-") } else { r.to_string() };
            (m.to_string(), r)
        })
        .collect();
    (head, moves)
}

/// A result of the API in the probe's words: `white 19`, `draw -`.
fn as_probe_words(result: &Value, draw: &str) -> String {
    match result["winner"].as_str() {
        Some(w) => format!("{w} {}", result["plies"]),
        None => format!("{draw} -"),
    }
}

#[test]
fn the_state_carries_the_tables_result_and_every_moves_as_the_probe_says() {
    let dir = chess_tables();
    let db = temp_dir("tb-serve-db").join("games.sqlite3");
    let s = Serve::start(&db, &["--tb-dir", dir.to_str().unwrap()]);
    let fen = "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1";
    let state = new_game(&s, "chess", Some(fen));
    let tb = &state["tablebase"];
    assert_eq!(tb["result"]["winner"], "white", "{tb}");
    assert_eq!(tb["result"]["plies"], 19);
    assert_eq!(tb["result"]["moves"], 10);
    assert_eq!(tb["result"]["words"], "white mates in 10 moves (19 plies) against best play by black");
    assert!(tb["note"].as_str().unwrap().contains("fifty-move rule"), "{tb}");

    // Every legal move, once, with the probe's result.
    let (head, probe) = probe_moves("chess", &dir, fen);
    assert_eq!(head, "white 19");
    let moves = tb["moves"].as_array().unwrap();
    let legal: Vec<&str> = state["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert_eq!(moves.len(), legal.len());
    for m in moves {
        let text = m["move"].as_str().unwrap();
        assert!(legal.contains(&text), "{text}");
        assert_eq!(as_probe_words(m, "draw"), probe[text], "{m}");
        assert!(!m["notation"].as_str().unwrap().is_empty(), "{m}");
        // For white, the mover: a mate is a win, the queen given away a draw.
        let for_white = if m["winner"] == "white" { "win" } else { "draw" };
        assert_eq!(m["for_mover"], for_white, "{m}");
    }
    // The best move is a fastest win: 18 plies left after it.
    let best = tb["best"].as_str().unwrap();
    let after = moves.iter().find(|m| m["move"] == best).unwrap();
    assert_eq!((after["winner"].clone(), after["plies"].clone()), (json!("white"), json!(18)), "{after}");
    assert_eq!(after["short"], "white mates in 9 moves (18 plies)");
    // The mover's best results first: white's wins, fastest first, then
    // the draws (the queen given away).
    let ranks: Vec<(bool, u64)> =
        moves.iter().map(|m| (m["winner"].is_null(), m["plies"].as_u64().unwrap_or(0))).collect();
    assert!(ranks.is_sorted() && ranks[0] == (false, 18) && ranks.last().unwrap().0, "{ranks:?}");

    // Playing on: the state follows the game.
    let id = state["id"].as_str().unwrap();
    let (status, next) = s.call("POST", &format!("/api/games/{id}/moves"), Some(json!({"move": best})));
    assert_eq!(status, 200, "{next}");
    assert_eq!(next["tablebase"]["result"]["plies"], 18, "{next}");
    assert_eq!(next["tablebase"]["result"]["moves"], 9, "{next}");
    // Stepping back through the game: each position with its own answer.
    let (status, start) = s.call("GET", &format!("/api/games/{id}/positions/0"), None);
    assert_eq!(status, 200, "{start}");
    assert_eq!(start["tablebase"]["result"]["plies"], 19, "{start}");
    let (_, now) = s.call("GET", &format!("/api/games/{id}/positions/1"), None);
    assert_eq!(now["tablebase"], next["tablebase"], "{now}");
    // Black's: the slowest loss first.
    let plies: Vec<u64> =
        next["tablebase"]["moves"].as_array().unwrap().iter().map(|m| m["plies"].as_u64().unwrap()).collect();
    assert!(plies.windows(2).all(|w| w[0] >= w[1]) && plies[0] == 17, "{plies:?}");
    assert!(next["tablebase"]["moves"].as_array().unwrap().iter().all(|m| m["for_mover"] == "loss"), "{next}");

    // The half-move clock at 90: the mate cannot arrive before the
    // fifty-move rule ends the game, and the words say so.
    let state = new_game(&s, "chess", Some("8/8/8/5k2/8/8/1Q6/K7 w - - 90 1"));
    let result = &state["tablebase"]["result"];
    assert_eq!(result["winner"], Value::Null, "{result}");
    assert_eq!(result["words"], "a draw: the fifty-move rule ends the game before white's mate in 19 plies");
    assert_eq!(result["short"], "a draw (fifty-move rule)");

    // A stalemate in one: that move's result is a draw, in words.
    let state = new_game(&s, "chess", Some("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"));
    let moves = state["tablebase"]["moves"].as_array().unwrap();
    let stalemate = moves.iter().find(|m| m["move"] == "f1f7").unwrap();
    assert_eq!(stalemate["winner"], Value::Null);
    assert_eq!(stalemate["words"], "a draw: nobody can force a mate");
    assert_eq!(stalemate["short"], "a draw");
    let mate = moves.iter().find(|m| m["move"] == "f1f8").unwrap();
    assert_eq!((mate["plies"].clone(), mate["words"].clone()), (json!(0), json!("white has mated")));
    assert_eq!(moves[0]["move"], "f1f8", "the mate first");

    // The page's panel: its script is served and loaded by the page.
    let (status, script) = s.call("GET", "/tablebase.js", None);
    assert_eq!(status, 200);
    assert!(script.as_str().unwrap().contains("function renderTablebase(state)"));
    let (_, app) = s.call("GET", "/app.js", None);
    assert!(app.as_str().unwrap().contains("from './tablebase.js'"));

    // Material the tables do not hold, or a game without tables: no field.
    for (variant, fen) in [("chess", None), ("chess", Some("8/8/8/5k2/8/8/1R6/K7 w - - 0 1")), ("catchess", None)] {
        let state = new_game(&s, variant, fen);
        assert!(state.get("tablebase").is_none(), "{variant} {fen:?}: {state}");
    }
}

/// Issue #59, item 13: `serve --tb-dir /nonexistent` is refused at start,
/// in the words `tb probe --dir` refuses the same directory with.
#[test]
fn a_tb_dir_that_cannot_be_read_stops_the_server_with_its_name() {
    let missing = temp_dir("tb-serve-missing").join("nowhere");
    let missing = missing.to_str().unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_catchess"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?} did not refuse");
        String::from_utf8_lossy(&out.stderr).trim().to_string()
    };
    let err = run(&["serve", "--port", "0", "--db", ":memory:", "--tb-dir", missing]);
    let probe = run(&["tb", "probe", "--dir", missing]);
    let why = probe.strip_prefix("error: ").unwrap_or(&probe);
    assert!(why.contains("nowhere") && why.contains("does not exist"), "{probe}");
    assert_eq!(err, format!("error: --tb-dir: {why}"));
}

/// The full Cat Chess tables (`catchess tb generate --variant catchess
/// --material all --dir DIR`): the longest K+Q v K win in words.
/// `CATCHESS_TB_DIR=DIR cargo test --test tb_serve -- --ignored`.
#[test]
#[ignore = "needs the full Cat Chess tables: set CATCHESS_TB_DIR"]
fn cat_chess_tables_answer_in_the_state() {
    let dir = std::env::var("CATCHESS_TB_DIR").expect("CATCHESS_TB_DIR must name the tables' directory");
    let db = temp_dir("tb-serve-cat-db").join("games.sqlite3");
    let s = Serve::start(&db, &["--tb-dir", &dir]);
    let fen = "7Q/8/7*/8/8/8/1kK5/7* w - - 0 1";
    let state = new_game(&s, "catchess", Some(fen));
    let tb = &state["tablebase"];
    assert_eq!(tb["result"]["words"], "white mates in 6 moves (16 plies) against best play by black and the cats");
    assert_eq!(tb["best"], "c2d3", "{tb}");
    let (head, probe) = probe_moves("catchess", std::path::Path::new(&dir), fen);
    assert_eq!(head, "white 16");
    for m in tb["moves"].as_array().unwrap() {
        assert_eq!(as_probe_words(m, "cats"), probe[m["move"].as_str().unwrap()], "{m}");
    }
    let held = tb["moves"].as_array().unwrap().iter().find(|m| m["move"] == "c2d1").unwrap();
    assert_eq!(held["words"], "the cats hold: nobody can force a mate");
    assert_eq!(held["short"], "the cats hold");
    assert_eq!(tb["moves"][0]["move"], "c2d3", "the fastest win first");
}
