//! Live boards and fair play at a table (issue #61, api.md "Players",
//! "Live"): every change reaches every tab's stream within a second as
//! the game's whole new state, and a new stream starts from the state as
//! it is; a move or take-back against a position the game has left is
//! refused (409); a take-back against the engine is free, and among
//! people waits for the others' consent; Cat's Chess 10×10's dice give
//! the same square to the same roll after a take-back, and a roll again
//! only where the rules allow it.

mod common;

use common::http::{call, call_as, ok, Event, Events};
use common::table::{assert_refused, moves, ok_as, people, played, server, state, table, token};
use serde_json::{json, Value};
use std::collections::HashSet;
use std::time::{Duration, Instant};

const SECOND: Duration = Duration::from_secs(1);

/// The next state on `events`, which must come within a second of
/// `since` and be a whole state numbered as its `id:`.
#[track_caller]
fn next_state(events: &Events, since: Instant) -> Value {
    let Event { name, id, data, at } = events.next();
    assert_eq!(name, "message", "{data}");
    assert!(at.duration_since(since) < SECOND, "{:?} after the change", at.duration_since(since));
    assert_eq!(id.as_deref(), Some(data["version"].to_string().as_str()), "the event's id is the state's number");
    for field in ["board", "legal", "moves", "turns", "players", "fen", "turn"] {
        assert!(data.get(field).is_some(), "no {field} in {data}");
    }
    data
}

#[test]
fn every_change_reaches_every_tab_s_stream_within_a_second() {
    let s = server();
    let addr = s.addr.to_string();
    let players = json!({"black": {"kind": "person", "invite": "link"}});
    let (id, made) = table(&s, json!({"variant": "catchess", "players": players}));
    let (white, cats, link) = (token(&made, "white"), token(&made, "cats"), token(&made, "black"));
    let path = format!("/api/games/{id}/events");
    // Two tabs: the state at once, numbered.
    let tabs = [Events::open(&addr, &path), Events::open(&addr, &path)];
    let first: Vec<Value> = tabs.iter().map(|t| next_state(t, Instant::now())).collect();
    assert_eq!(first[0], first[1]);
    assert_eq!(first[0]["players"]["black"]["joined"], false);
    let mut version = first[0]["version"].as_u64().unwrap();

    // Each change, and what every tab must see of it.
    type Check = fn(&Value) -> bool;
    let join = format!("/api/games/{id}/join");
    let undo = format!("/api/games/{id}/undo");
    let answer = format!("/api/games/{id}/answer");
    let mut bea = String::new();
    let steps: Vec<(&str, Check)> = vec![
        ("white e2e4", |s| moves(s) == ["e2e4"]),
        ("black joins", |s| s["players"]["black"]["joined"] == true && s["players"]["black"]["name"] == "Bea"),
        ("black e7e5", |s| moves(s) == ["e2e4", "e7e5"]),
        ("cats a4b4", |s| moves(s).len() == 3 && s["turn"] == "white"),
        ("black asks to take back", |s| {
            s["proposal"]["by"] == "black" && s["proposal"]["waiting_for"] == json!(["white", "cats"])
        }),
        // White's and the cats' player is one person (the creator): one consent.
        ("white consents", |s| s["proposal"].is_null() && moves(s) == ["e2e4"] && s["turn"] == "black"),
        ("white resigns", |s| s["outcome"]["winner"] == "black"),
    ];
    for (what, check) in steps {
        let at = Instant::now();
        let answer = match what {
            "white e2e4" => {
                call_as(&s, white, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": "e2e4"})))
            }
            "black joins" => {
                let a = call_as(&s, link, "POST", &join, Some(json!({"name": "Bea"})));
                bea = a.1["token"].as_str().unwrap().to_string();
                a
            }
            "black e7e5" => call_as(&s, &bea, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": "e7e5"}))),
            "cats a4b4" => call_as(&s, cats, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": "a4b4"}))),
            "black asks to take back" => call_as(&s, &bea, "POST", &undo, Some(json!({}))),
            "white consents" => call_as(&s, white, "POST", &answer, Some(json!({"accept": true}))),
            "white resigns" => call_as(
                &s,
                white,
                "POST",
                &format!("/api/games/{id}/forfeit"),
                Some(json!({"seat": "white", "why": "resignation"})),
            ),
            _ => unreachable!(),
        };
        assert!(answer.0 == 200 || answer.0 == 202, "{what}: {answer:?}");
        assert!(check(&answer.1), "{what}: the answer {}", answer.1);
        for tab in &tabs {
            let seen = next_state(tab, at);
            assert!(check(&seen), "{what}: the tab saw {seen}");
            assert_eq!(seen["version"], answer.1["version"], "{what}: the answer and the stream agree");
            assert!(seen["version"].as_u64().unwrap() > version, "{what}: numbered after the last");
        }
        version = answer.1["version"].as_u64().unwrap();
    }
    // The creator's own seats are one person's: a take-back among them
    // asks nobody.
    let (id, made) = people(&s, "chess");
    played(&s, &id, token(&made, "white"), "e2e4");
    played(&s, &id, token(&made, "black"), "e7e5");
    let undone = call_as(&s, token(&made, "white"), "POST", &format!("/api/games/{id}/undo"), Some(json!({})));
    assert_eq!((undone.0, undone.1["moves"].clone()), (200, json!([])), "{}", undone.1);
    // A reload (a new stream) starts from the game as it is.
    let again = Events::open(&addr, &path);
    let now = next_state(&again, Instant::now());
    assert_eq!((now["version"].as_u64(), now["outcome"]["winner"].as_str()), (Some(version), Some("black")));
    // Nothing else came.
    assert!(tabs[0].quiet_for(Duration::from_millis(300)));
}

#[test]
fn a_deleted_game_s_streams_say_so_and_end() {
    let s = server();
    let (id, made) = people(&s, "chess");
    let tab = Events::open(&s.addr.to_string(), &format!("/api/games/{id}/events"));
    tab.next();
    let at = Instant::now();
    assert_eq!(call_as(&s, token(&made, "white"), "DELETE", &format!("/api/games/{id}"), None).0, 204);
    let gone = tab.next();
    assert_eq!((gone.name.as_str(), gone.data["error"].as_str()), ("gone", Some("the game was deleted")));
    assert!(gone.at.duration_since(at) < SECOND);
    assert!(tab.quiet_for(Duration::from_millis(300)), "the stream ended");
}

#[test]
fn a_move_or_take_back_against_a_position_the_game_has_left_is_refused() {
    let s = server();
    let (id, tokens) = common::table::friends(&s, "chess");
    let (white, black) = (tokens[0].as_str(), tokens[1].as_str());
    let moves_path = format!("/api/games/{id}/moves");
    let start = state(&s, &id);
    let play = |token: &str, m: &str, seen: &Value| {
        call_as(
            &s,
            token,
            "POST",
            &moves_path,
            Some(json!({"move": m, "ply": seen["moves"].as_array().unwrap().len(), "fen": seen["fen"]})),
        )
    };
    assert_eq!(play(white, "e2e4", &start).0, 200);
    // Black's tab still shows the start: its move is refused, not played.
    assert_refused(play(black, "e7e5", &start), 409, "the game moved on");
    assert_eq!(moves(&state(&s, &id)), ["e2e4"]);
    let seen = state(&s, &id);
    assert_eq!(play(black, "e7e5", &seen).0, 200);
    let after_e5 = state(&s, &id);

    // White takes back with black's consent, and both play other moves:
    // as many moves as the stale tab saw, in another position.
    let undo = format!("/api/games/{id}/undo");
    let stale = json!({"ply": 1, "fen": seen["fen"]});
    assert_refused(call_as(&s, white, "POST", &undo, Some(stale)), 409, "the game moved on");
    let asked = call_as(&s, white, "POST", &undo, Some(json!({"ply": 2, "fen": after_e5["fen"]})));
    assert_eq!(asked.0, 202, "{}", asked.1);
    assert_eq!(ok_as(&s, black, &format!("/api/games/{id}/answer"), json!({"accept": true}))["moves"], json!([]));
    played(&s, &id, white, "d2d4");
    played(&s, &id, black, "d7d5");
    assert_eq!(state(&s, &id)["moves"].as_array().unwrap().len(), after_e5["moves"].as_array().unwrap().len());
    assert_refused(play(white, "g1f3", &after_e5), 409, "another position");
    assert_eq!(moves(&state(&s, &id)), ["d2d4", "d7d5"], "nothing was played");
}

#[test]
fn a_take_back_is_free_against_the_engine_and_waits_for_the_other_people_s_consent() {
    let s = server();
    // Against the engine: back before the person's last move, at once.
    let (id, made) = table(&s, json!({"variant": "chess", "players": {"black": {"kind": "engine", "level": 1}}}));
    let white = token(&made, "white");
    let tab = Events::open(&s.addr.to_string(), &format!("/api/games/{id}/events"));
    played(&s, &id, white, "e2e4");
    tab.until(Duration::from_secs(10), |e| moves(&e.data).len() == 2);
    let undone = ok_as(&s, white, &format!("/api/games/{id}/undo"), json!({}));
    assert_eq!((undone["moves"].clone(), undone["turn"].clone()), (json!([]), json!("white")));
    assert!(undone["proposal"].is_null());

    // Among people: each other person seated must consent.
    let (id, tokens) = common::table::friends(&s, "catchess");
    let [white, black, cats] = [&tokens[0], &tokens[1], &tokens[2]].map(String::clone);
    for (t, m) in [(&white, "e2e4"), (&black, "e7e5"), (&cats, "a4b4")] {
        played(&s, &id, t, m);
    }
    let undo = format!("/api/games/{id}/undo");
    let answer = format!("/api/games/{id}/answer");
    let asked = call_as(&s, &black, "POST", &undo, Some(json!({})));
    assert_eq!(asked.0, 202, "{}", asked.1);
    assert_eq!(
        asked.1["proposal"],
        json!({"kind": "takeback", "by": "black", "plies": 2, "to_ply": 1, "waiting_for": ["white", "cats"]})
    );
    assert_eq!(moves(&asked.1).len(), 3, "nothing is taken back yet");
    // Nobody else answers for a seat; the asker does not consent to
    // itself; a second request waits for the first.
    assert_refused(call(&s, "POST", &answer, Some(json!({"accept": true}))), 403, "needs a seat's token");
    assert_refused(call_as(&s, &black, "POST", &answer, Some(json!({"accept": true}))), 409, "waits for the others");
    assert_refused(call_as(&s, &white, "POST", &undo, Some(json!({}))), 409, "black's take-back waits");
    let one = ok_as(&s, &white, &answer, json!({"accept": true}));
    assert_eq!(one["proposal"]["waiting_for"], json!(["cats"]));
    assert_refused(call_as(&s, &white, "POST", &answer, Some(json!({"accept": true}))), 409, "not awaited");
    let done = ok_as(&s, &cats, &answer, json!({"accept": true}));
    assert_eq!(
        (moves(&done), done["turn"].as_str(), &done["proposal"]),
        (vec!["e2e4".to_string()], Some("black"), &json!(null))
    );

    // A refusal withdraws the request, and so does any move.
    played(&s, &id, &black, "d7d5");
    assert_eq!(call_as(&s, &white, "POST", &undo, Some(json!({}))).0, 202);
    let refused = ok_as(&s, &black, &answer, json!({"accept": false}));
    assert!(refused["proposal"].is_null() && moves(&refused).len() == 2, "{refused}");
    assert_eq!(call_as(&s, &white, "POST", &undo, Some(json!({}))).0, 202);
    let moved = played(&s, &id, &cats, "a4a3");
    assert!(moved["proposal"].is_null(), "{moved}");
    // The asker may withdraw its own.
    assert_eq!(call_as(&s, &white, "POST", &undo, Some(json!({}))).0, 202);
    assert!(ok_as(&s, &white, &answer, json!({"accept": false}))["proposal"].is_null());
    assert_eq!(moves(&state(&s, &id)).len(), 3);
}

/// The square of the last roll of `state` (`T@e5` or `T?e5`: a mouse's).
fn last_roll(state: &Value) -> String {
    let rolls: Vec<&Value> = state["moves"].as_array().unwrap().iter().filter(|m| m["roll"] == true).collect();
    rolls.last().unwrap_or_else(|| panic!("no roll in {state}"))["move"].as_str().unwrap().to_string()
}

/// A 10×10 game of two people from `fen` (the start if `None`): its id and
/// white's token.
fn ten(s: &catchess::serve::Server, fen: Option<&str>) -> (String, String) {
    let mut body = json!({"variant": "catschess10", "players": {}});
    if let Some(fen) = fen {
        body["fen"] = json!(fen);
    }
    let (id, made) = table(s, body);
    (id, token(&made, "white").to_string())
}

#[test]
fn the_same_teleport_after_a_take_back_lands_on_the_same_square() {
    let s = server();
    let (id, white) = ten(&s, None);
    let undo = format!("/api/games/{id}/undo");
    let mut squares = HashSet::new();
    for _ in 0..30 {
        squares.insert(last_roll(&played(&s, &id, &white, "T@?")));
        // White's own step of the turn under way: taken back at once.
        let back = ok_as(&s, &white, &undo, json!({}));
        assert!(back["moves"].as_array().unwrap().is_empty(), "{back}");
    }
    assert_eq!(squares.len(), 1, "30 take-backs rolled {squares:?}");
    // Another game has its own dice.
    let others: HashSet<String> = (0..8)
        .map(|_| {
            let (id, white) = ten(&s, None);
            last_roll(&played(&s, &id, &white, "T@?"))
        })
        .collect();
    assert!(others.len() > 1, "8 games rolled {others:?}");
    // The dice stay the server's: nothing of them is in the state.
    let shown = state(&s, &id).to_string();
    assert!(!shown.contains("seed") && !shown.contains("dice"), "{shown}");
}

/// Black's mice on 60 of the 79 squares a roll may keep; white's king has moves.
const MICE: &str = "rnbcqkcbnr/10/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/10/K9 w - - 0 1";
/// Every square a roll may keep holds a mouse: a roll again could land
/// nowhere else, so the rules allow none.
const ALL_MICE: &str =
    "rnbcqkcbnr/mmmmmmmmm1/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/K1mmmmmmmm w - - 0 1";

#[test]
fn a_roll_again_is_offered_only_where_the_rules_allow_it_and_lands_where_it_did() {
    let s = server();
    // A game whose first roll lands on a mouse (60 in 79 do).
    let (id, white, mouse) = (0..20)
        .find_map(|_| {
            let (id, white) = ten(&s, Some(MICE));
            let roll = last_roll(&played(&s, &id, &white, "T@?"));
            roll.starts_with("T?").then_some((id, white, roll))
        })
        .expect("20 games and no roll on a mouse");
    let now = state(&s, &id);
    let legal: Vec<&str> = now["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert!(legal.contains(&"keep") && legal.contains(&"reroll"), "{legal:?}");
    let again = last_roll(&played(&s, &id, &white, "reroll"));
    let undo = format!("/api/games/{id}/undo");
    for _ in 0..5 {
        ok_as(&s, &white, &undo, json!({}));
        assert_eq!(last_roll(&played(&s, &id, &white, "T@?")), mouse, "the same first roll");
        assert_eq!(last_roll(&played(&s, &id, &white, "reroll")), again, "the same roll again");
    }

    // Where every square holds a mouse: keep, and no roll again.
    let (id, white) = ten(&s, Some(ALL_MICE));
    let rolled = played(&s, &id, &white, "T@?");
    assert!(last_roll(&rolled).starts_with("T?"), "{rolled}");
    let legal: Vec<&str> = rolled["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert!(legal.contains(&"keep") && !legal.contains(&"reroll"), "{legal:?}");
    let refused = common::table::play_as(&s, &id, &white, json!({"move": "reroll"}));
    assert_refused(refused, 422, "illegal move \"reroll\"");
    assert_eq!(state(&s, &id)["moves"], rolled["moves"], "nothing was played");
}

#[test]
fn headers_forbid_framing_and_set_a_tight_policy_on_every_answer() {
    let s = server();
    let base = format!("http://{}", s.addr);
    let answers = [
        ureq::get(&format!("{base}/")).call(),
        ureq::get(&format!("{base}/app.js")).call(),
        ureq::get(&format!("{base}/api/variants")).call(),
        ureq::get(&format!("{base}/api/games/nope")).call(),
        // Another site's request, refused by the trust checks.
        ureq::post(&format!("{base}/api/games")).set("Origin", "http://evil.example").send_string("{}"),
    ];
    for answer in answers {
        let response = match answer {
            Ok(r) | Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{e}"),
        };
        let what = format!("{} {}", response.get_url(), response.status());
        assert_eq!(response.header("x-frame-options"), Some("DENY"), "{what}");
        let csp = response.header("content-security-policy").unwrap_or_else(|| panic!("no CSP: {what}"));
        for part in ["default-src 'none'", "frame-ancestors 'none'", "script-src 'self'", "connect-src 'self'"] {
            assert!(csp.contains(part), "{what}: {csp}");
        }
        assert_eq!(response.header("x-content-type-options"), Some("nosniff"), "{what}");
    }
}

#[test]
fn new_games_are_capped_per_client_and_streams_too() {
    let config = catchess::serve::Config {
        max_creates_per_minute: 3,
        max_streams_per_client: 2,
        max_streams: 4,
        ..common::table::config()
    };
    let s = catchess::serve::spawn(config).unwrap();
    // A refused request costs nothing.
    assert_eq!(call(&s, "POST", "/api/games", Some(json!({"variant": "nope"}))).0, 400);
    let (id, _) = people(&s, "chess");
    ok(&s, "POST", "/api/games", Some(json!({"variant": "chess"})));
    people(&s, "xiangqi");
    assert_refused(
        call(&s, "POST", "/api/games", Some(json!({"variant": "chess", "players": {}}))),
        429,
        "--max-creates",
    );
    let path = format!("/api/games/{id}/events");
    let _tabs = [Events::open(&s.addr.to_string(), &path), Events::open(&s.addr.to_string(), &path)];
    assert_refused(call(&s, "GET", &path, None), 429, "live streams open");
}
