//! The engine's thinking shown or hidden during a game (issue #62, api.md
//! "Thinking"): a person alone against the engine turns it on and off with
//! their seat's token (`POST /api/games/<id>/thinking {"show"}`); it is
//! kept with the game and sent to every tab; a watcher, a token of no
//! seat, a game with more than one person and an analysis board are
//! refused with words that say why.

mod common;

use catchess::serve::{spawn, Config};
use common::http::{call, call_as, Events};
use common::table::{assert_refused, config, friends, server, state, table, token};
use serde_json::json;
use std::time::Duration;

fn thinking(id: &str) -> String {
    format!("/api/games/{id}/thinking")
}

#[test]
fn a_person_alone_against_the_engine_turns_its_thinking_on_and_off_live() {
    let s = server();
    let players = json!({"black": {"kind": "engine", "level": 1}});
    let (id, made) = table(&s, json!({"variant": "chess", "players": players}));
    let white = token(&made, "white");
    assert_eq!(made["show_thinking"], false);
    let live = Events::open(&s.addr.to_string(), &format!("/api/games/{id}/events"));
    assert_eq!(live.next().data["show_thinking"], false);
    // Hidden: the engine's lines and a review are refused.
    assert_refused(call(&s, "GET", &format!("/api/games/{id}/analysis?follow=true"), None), 403, "hidden");
    let (status, on) = call_as(&s, white, "POST", &thinking(&id), Some(json!({"show": true})));
    assert_eq!((status, &on["show_thinking"]), (200, &json!(true)), "{on}");
    let seen = live.until(Duration::from_secs(2), |e| e.data["show_thinking"] == true);
    assert_eq!(seen.data["id"], id.as_str());
    assert_refused(call(&s, "GET", &format!("/api/games/{id}/review"), None), 404, "no review");
    let (status, off) = call_as(&s, white, "POST", &thinking(&id), Some(json!({"show": false})));
    assert_eq!((status, &off["show_thinking"]), (200, &json!(false)), "{off}");
    live.until(Duration::from_secs(2), |e| e.data["show_thinking"] == false);
    assert_refused(call(&s, "GET", &format!("/api/games/{id}/review/stream"), None), 403, "hidden");
}

#[test]
fn only_a_seat_s_holder_may_and_never_in_a_game_of_several_people() {
    let s = server();
    let players = json!({"black": {"kind": "engine", "level": 1}});
    let (id, _) = table(&s, json!({"variant": "xiangqi", "players": players}));
    assert_refused(call(&s, "POST", &thinking(&id), Some(json!({"show": true}))), 403, "X-Seat-Token");
    let stranger = "0123456789abcdef0123456789abcdef";
    assert_refused(call_as(&s, stranger, "POST", &thinking(&id), Some(json!({"show": true}))), 403, "not the token");
    assert_refused(call(&s, "POST", &thinking(&id), Some(json!({"shown": true}))), 422, "unknown field");
    for variant in ["catchess", "chess"] {
        let (id, tokens) = friends(&s, variant);
        for t in &tokens {
            let answer = call_as(&s, t, "POST", &thinking(&id), Some(json!({"show": true})));
            assert_refused(answer, 403, "more than one person");
        }
        assert_eq!(state(&s, &id)["show_thinking"], false);
    }
    let (status, board) = call(&s, "POST", "/api/games", Some(json!({"variant": "chess"})));
    assert_eq!(status, 201);
    let board = board["id"].as_str().unwrap();
    assert_refused(call(&s, "POST", &thinking(board), Some(json!({"show": false}))), 400, "analysis board");
}

#[test]
fn the_choice_is_kept_across_a_restart() {
    let db = common::temp::temp("thinking.sqlite3");
    let kept = Config { db: Some(db.to_str().unwrap().into()), ..config() };
    let id = {
        let s = spawn(kept.clone()).unwrap();
        let players = json!({"white": {"kind": "engine", "level": 1}, "cats": {"kind": "engine", "level": 1}});
        let (id, made) = table(&s, json!({"variant": "catchess", "players": players}));
        let (status, on) = call_as(&s, token(&made, "black"), "POST", &thinking(&id), Some(json!({"show": true})));
        assert_eq!(status, 200, "{on}");
        id
    };
    let s = spawn(kept).unwrap();
    assert_eq!(state(&s, &id)["show_thinking"], true);
}
