//! Draw offers at a table (issue #61, api.md "Draw offers"): only a
//! seat's token offers one; the other people consent as for a take-back
//! (one refusal or any move withdraws it); an engine seat answers at once
//! by one rule (the draw is its win, or the endgame tables show it cannot
//! win); the agreed draw is the game's own draw — the cats' win in Cat
//! Chess, nobody's once they have forfeited — kept across a restart,
//! written in the record as `pgn check` reads it, and taken back first.

mod common;

use catchess::games::VariantKind;
use catchess::serve::{spawn, Config};
use catchess::tournament::check::check_file;
use common::http::{call, call_as, ok};
use common::table::{assert_refused, config, friends, moves, ok_as, people, played, server, state, table, token};
use serde_json::{json, Value};

fn draw_path(id: &str) -> String {
    format!("/api/games/{id}/draw")
}

fn answer_path(id: &str) -> String {
    format!("/api/games/{id}/answer")
}

/// The game's result: (winner, reason).
fn result(state: &Value) -> (Value, Value) {
    (state["outcome"]["winner"].clone(), state["outcome"]["reason"].clone())
}

#[test]
fn a_draw_offer_waits_for_every_other_person_and_in_cat_chess_gives_the_cats_the_game() {
    let s = server();
    let (id, tokens) = friends(&s, "catchess");
    let [white, black, cats] = [&tokens[0], &tokens[1], &tokens[2]].map(String::clone);
    for (t, m) in [(&white, "e2e4"), (&black, "e7e5"), (&cats, "a4b4")] {
        played(&s, &id, t, m);
    }
    let (draw, answer) = (draw_path(&id), answer_path(&id));
    // A watcher offers nothing; a stale board's offer is refused.
    assert_refused(call(&s, "POST", &draw, Some(json!({}))), 403, "needs a seat's token");
    assert_refused(call_as(&s, &white, "POST", &draw, Some(json!({"ply": 2}))), 409, "the game moved on");

    let offered = call_as(&s, &white, "POST", &draw, Some(json!({"ply": 3})));
    assert_eq!(offered.0, 202, "{}", offered.1);
    assert_eq!(
        offered.1["proposal"],
        json!({"kind": "draw", "by": "white", "plies": null, "to_ply": null, "waiting_for": ["black", "cats"]})
    );
    assert!(offered.1["outcome"].is_null(), "nothing is decided yet");
    // One request at a time; the offerer does not consent to itself.
    assert_refused(call_as(&s, &black, "POST", &draw, Some(json!({}))), 409, "white's draw offer waits");
    let undo = format!("/api/games/{id}/undo");
    assert_refused(call_as(&s, &black, "POST", &undo, Some(json!({}))), 409, "white's draw offer waits");
    assert_refused(call_as(&s, &white, "POST", &undo, Some(json!({}))), 409, "white's draw offer waits");
    assert_refused(call_as(&s, &white, "POST", &answer, Some(json!({"accept": true}))), 409, "waits for the others");
    let one = ok_as(&s, &black, &answer, json!({"accept": true}));
    assert_eq!(one["proposal"]["waiting_for"], json!(["cats"]));
    assert!(one["outcome"].is_null());
    let drawn = ok_as(&s, &cats, &answer, json!({"accept": true}));
    assert_eq!(result(&drawn), (json!("cats"), json!("draw by agreement")), "{drawn}");
    assert!(drawn["proposal"].is_null() && drawn["legal"].as_array().unwrap().is_empty(), "{drawn}");
    assert_refused(play(&s, &id, &white, "d2d4"), 409, "the game is over");
    assert_refused(call_as(&s, &black, "POST", &draw, Some(json!({}))), 409, "the game is over");

    // The record says so, and `pgn check` accepts it.
    let pgn = ok(&s, "GET", &format!("/api/games/{id}/pgn"), None)["pgn"].as_str().unwrap().to_string();
    assert!(pgn.contains("[TerminationDetails \"draw by agreement\"]") && pgn.contains("[Winner \"cats\"]"), "{pgn}");
    let file = common::temp::temp("agreed.pgn");
    std::fs::write(&file, &pgn).unwrap();
    let report = check_file(file.to_str().unwrap(), VariantKind::CatChess).unwrap();
    assert!(report.problems.is_empty() && report.games == 1, "{:?}\n{pgn}", report.problems);

    // A take-back (with the others' consent) takes the agreement back first.
    let asked = call_as(&s, &black, "POST", &undo, Some(json!({})));
    assert_eq!((asked.0, &asked.1["proposal"]["plies"]), (202, &json!(1)), "{}", asked.1);
    ok_as(&s, &white, &answer, json!({"accept": true}));
    let back = ok_as(&s, &cats, &answer, json!({"accept": true}));
    assert!(back["outcome"].is_null(), "{back}");
    assert_eq!(moves(&back).len(), 3, "the moves stay; only the agreement went");
    played(&s, &id, &white, "d2d4");
}

fn play(s: &catchess::serve::Server, id: &str, token: &str, m: &str) -> (u16, Value) {
    call_as(s, token, "POST", &format!("/api/games/{id}/moves"), Some(json!({ "move": m })))
}

#[test]
fn a_refusal_a_withdrawal_or_any_move_ends_a_draw_offer() {
    let s = server();
    let (id, tokens) = friends(&s, "chess");
    let [white, black] = [&tokens[0], &tokens[1]].map(String::clone);
    let (draw, answer) = (draw_path(&id), answer_path(&id));
    played(&s, &id, &white, "e2e4");
    assert_eq!(call_as(&s, &white, "POST", &draw, Some(json!({}))).0, 202);
    let refused = ok_as(&s, &black, &answer, json!({"accept": false}));
    assert!(refused["proposal"].is_null() && refused["outcome"].is_null(), "{refused}");
    // Playing on instead of answering withdraws it.
    assert_eq!(call_as(&s, &white, "POST", &draw, Some(json!({}))).0, 202);
    let moved = played(&s, &id, &black, "e7e5");
    assert!(moved["proposal"].is_null() && moved["outcome"].is_null(), "{moved}");
    // The offerer may withdraw it.
    assert_eq!(call_as(&s, &black, "POST", &draw, Some(json!({}))).0, 202);
    assert!(ok_as(&s, &black, &answer, json!({"accept": false}))["proposal"].is_null());
    // Accepted: a draw that rewards nobody in chess.
    assert_eq!(call_as(&s, &black, "POST", &draw, Some(json!({}))).0, 202);
    let drawn = ok_as(&s, &white, &answer, json!({"accept": true}));
    assert_eq!(result(&drawn), (json!(null), json!("draw by agreement")), "{drawn}");

    // Xiangqi too.
    let (id, tokens) = friends(&s, "xiangqi");
    assert_eq!(call_as(&s, &tokens[1], "POST", &draw_path(&id), Some(json!({}))).0, 202);
    let drawn = ok_as(&s, &tokens[0], &answer_path(&id), json!({"accept": true}));
    assert_eq!(result(&drawn), (json!(null), json!("draw by agreement")), "{drawn}");
}

#[test]
fn the_engine_plays_on_unless_the_draw_is_its_win_and_an_analysis_board_has_no_offers() {
    let s = server();
    // Chess against the engine: it plays on, and says so.
    let (id, made) = table(&s, json!({"variant": "chess", "players": {"black": {"kind": "engine", "level": 3}}}));
    assert_refused(
        call_as(&s, token(&made, "white"), "POST", &draw_path(&id), Some(json!({}))),
        409,
        "black (the engine, level 3) plays on: the engine agrees to a draw only when the draw is its win",
    );
    assert!(state(&s, &id)["outcome"].is_null());
    // Cat Chess: the cats' engine takes any draw (it is their win), so the
    // person playing white and black ends the game at once: the cats win.
    let (id, made) = table(&s, json!({"variant": "catchess", "players": {"cats": {"kind": "engine", "level": 1}}}));
    let (status, drawn) = call_as(&s, token(&made, "black"), "POST", &draw_path(&id), Some(json!({})));
    assert_eq!(status, 200, "{drawn}");
    assert_eq!(result(&drawn), (json!("cats"), json!("draw by agreement")));
    // The engine as black says no, whoever else agrees.
    let players = json!({"black": {"kind": "engine", "level": 1}, "cats": {"kind": "engine", "level": 1}});
    let (id, made) = table(&s, json!({"variant": "catchess", "players": players}));
    assert_refused(
        call_as(&s, token(&made, "white"), "POST", &draw_path(&id), Some(json!({}))),
        409,
        "black (the engine, level 1) plays on",
    );
    // The people's own seats alone: agreed at once (one person), in
    // chess a draw.
    let (id, made) = people(&s, "chess");
    let (status, drawn) = call_as(&s, token(&made, "white"), "POST", &draw_path(&id), Some(json!({})));
    assert_eq!((status, result(&drawn)), (200, (json!(null), json!("draw by agreement"))), "{drawn}");
    // An analysis board: nobody to agree with.
    let (_, board) = call(&s, "POST", "/api/games", Some(json!({"variant": "chess"})));
    let board = board["id"].as_str().unwrap();
    assert_refused(call(&s, "POST", &draw_path(board), Some(json!({}))), 409, "an analysis board has nobody");
}

#[test]
fn after_the_cats_forfeit_a_draw_rewards_nobody_and_they_offer_none() {
    let s = server();
    let (id, tokens) = friends(&s, "catchess");
    let [white, black, cats] = [&tokens[0], &tokens[1], &tokens[2]].map(String::clone);
    played(&s, &id, &white, "e2e4");
    played(&s, &id, &black, "e7e5");
    ok_as(&s, &cats, &format!("/api/games/{id}/forfeit"), json!({"seat": "cats", "why": "resignation"}));
    assert_refused(call_as(&s, &cats, "POST", &draw_path(&id), Some(json!({}))), 409, "cats has forfeited");
    // White's offer asks black alone now.
    let offered = call_as(&s, &white, "POST", &draw_path(&id), Some(json!({})));
    assert_eq!((offered.0, &offered.1["proposal"]["waiting_for"]), (202, &json!(["black"])), "{}", offered.1);
    let drawn = ok_as(&s, &black, &answer_path(&id), json!({"accept": true}));
    assert_eq!(result(&drawn), (json!(null), json!("draw by agreement")), "{drawn}");
}

#[test]
fn an_agreed_draw_is_kept_across_a_restart() {
    let db = common::temp::temp("draws.sqlite3");
    let kept = Config { db: Some(db.to_str().unwrap().into()), ..config() };
    let id = {
        let s = spawn(kept.clone()).unwrap();
        let (id, made) = people(&s, "xiangqi");
        played(&s, &id, token(&made, "red"), "h3e3");
        let (status, _) = call_as(&s, token(&made, "black"), "POST", &draw_path(&id), Some(json!({})));
        assert_eq!(status, 200);
        id
    };
    let s = spawn(kept).unwrap();
    let again = state(&s, &id);
    assert_eq!(result(&again), (json!(null), json!("draw by agreement")), "{again}");
    assert_eq!(moves(&again), ["h3e3"]);
}

#[test]
fn with_the_tables_the_engine_takes_a_draw_it_cannot_win_and_refuses_one_it_wins() {
    let dir = common::serve_process::temp_dir("draw-tables");
    common::tables::generate_chess(&dir, &["KQvK"]);
    let s = spawn(Config { tb_dir: Some(dir), ..config() }).unwrap();
    let fen = "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1";
    // The engine holds the bare king: it cannot win, so it agrees.
    let players = json!({"black": {"kind": "engine", "level": 8}});
    let (id, made) = table(&s, json!({"variant": "chess", "fen": fen, "players": players}));
    let (status, drawn) = call_as(&s, token(&made, "white"), "POST", &draw_path(&id), Some(json!({})));
    assert_eq!((status, result(&drawn)), (200, (json!(null), json!("draw by agreement"))), "{drawn}");
    // The engine holds the queen: it mates, so it plays on.
    let black_to_move = "8/8/8/5k2/8/8/1Q6/K7 b - - 0 1";
    let players = json!({"white": {"kind": "engine", "level": 8}});
    let (id, made) = table(&s, json!({"variant": "chess", "fen": black_to_move, "players": players}));
    assert_refused(
        call_as(&s, token(&made, "black"), "POST", &draw_path(&id), Some(json!({}))),
        409,
        "white (the engine, level 8) plays on",
    );
}
