//! A table for three (issue #61, api.md "Players"): a game made with
//! `players` seats a person (with a secret token) or the engine at each
//! seat; only a seat's token acts for it (403 with a JSON `error`
//! otherwise); the server plays the engine's seats with no client asking,
//! across a restart too; the players are kept with the game and named in
//! the record; join links are spent by their first use; open seats are
//! listed for anyone to take; a game without `players` stays an analysis
//! board where anyone moves any seat and the engine moves only when asked.

mod common;

use catchess::serve::{spawn, Config};
use common::http::{call, call_as, ok, Events};
use common::table::{
    assert_refused, config, moves, ok_as, people, person, play_as, played, refused, server, state, table, token,
};
use serde_json::json;
use std::time::{Duration, Instant};

#[test]
fn a_table_answers_each_person_seat_s_token_and_link_and_a_watch_link() {
    let s = server();
    let body = json!({
        "variant": "catchess",
        "players": {"white": person("Ann"), "black": {"kind": "person", "name": "Bea", "invite": "link"},
                    "cats": {"kind": "engine", "level": 2}},
    });
    let (id, made) = table(&s, body);
    let tokens = made["tokens"].as_object().unwrap();
    assert_eq!(tokens.keys().collect::<Vec<_>>(), ["black", "white"], "a token per person seat, none for the engine");
    let (white, black) = (token(&made, "white"), token(&made, "black"));
    for t in [white, black] {
        assert!(t.len() == 32 && t.chars().all(|c| c.is_ascii_hexdigit()), "{t}");
    }
    assert_ne!(white, black);
    let host = s.addr.to_string();
    assert_eq!(made["links"]["white"], format!("http://{host}/#game={id}&seat=white&token={white}"));
    assert_eq!(made["links"]["black"], format!("http://{host}/#game={id}&seat=black&token={black}"));
    assert_eq!(made["links"]["watch"], format!("http://{host}/#game={id}"));
    assert_eq!(
        made["players"],
        json!({"white": {"kind": "person", "name": "Ann", "joined": true, "open": false},
               "black": {"kind": "person", "name": "Bea", "joined": false, "open": false},
               "cats": {"kind": "engine", "level": 2}})
    );
    // Every viewer sees the players, and nobody's token.
    let seen = state(&s, &id);
    assert_eq!(seen["players"], made["players"]);
    assert!(seen.get("tokens").is_none() && !seen.to_string().contains(white) && !seen.to_string().contains(black));
    assert_eq!(seen["show_thinking"], false, "hidden by default");

    // A seat left out is a person's (the creator's); a bad seat or level
    // is refused with what is wrong.
    let (_, all) = people(&s, "chess");
    assert_eq!(all["tokens"].as_object().unwrap().len(), 2);
    for (players, status, says) in [
        (json!({"red": person("x")}), 400, "\"red\" is not a seat of this game (white, black)"),
        (json!({"black": {"kind": "engine", "level": 0}}), 400, "level must be 1..=8"),
        (json!({"black": {"kind": "robot"}}), 422, "unknown variant `robot`"),
        (json!({"black": {"kind": "person", "invite": "maybe"}}), 422, "unknown variant `maybe`"),
    ] {
        let answer = call(&s, "POST", "/api/games", Some(json!({"variant": "chess", "players": players})));
        assert_refused(answer, status, says);
    }
}

#[test]
fn only_a_seat_s_token_moves_resigns_or_takes_it_back_and_a_watcher_does_nothing() {
    let s = server();
    let (id, made) = people(&s, "chess");
    let (white, black) = (token(&made, "white"), token(&made, "black"));
    let moves_path = format!("/api/games/{id}/moves");
    // No token: a watcher; another seat's token; a token of no seat.
    let cases = [
        (call(&s, "POST", &moves_path, Some(json!({"move": "e2e4"}))), "needs a seat's token (X-Seat-Token)"),
        (play_as(&s, &id, black, json!({"move": "e2e4"})), "this move is white's; your token is black's"),
        (play_as(&s, &id, &"0".repeat(32), json!({"move": "e2e4"})), "not the token of a seat of this game"),
        (play_as(&s, &id, "", json!({"move": "e2e4"})), "not the token of a seat of this game"),
    ];
    for (answer, says) in &cases {
        assert_refused(answer, 403, says);
    }
    assert!(moves(&state(&s, &id)).is_empty(), "nothing was played");
    let after = played(&s, &id, white, "e2e4");
    assert_eq!(moves(&after), ["e2e4"]);

    // Resigning, taking back, deleting: the seat's own token only.
    let forfeit = format!("/api/games/{id}/forfeit");
    let answer = call_as(&s, white, "POST", &forfeit, Some(json!({"seat": "black", "why": "resignation"})));
    assert_refused(answer, 403, "this resignation is black's; your token is white's");
    let answer = call(&s, "POST", &forfeit, Some(json!({"seat": "white", "why": "resignation"})));
    assert_eq!(refused(answer).0, 403);
    assert_eq!(refused(call(&s, "POST", &format!("/api/games/{id}/undo"), Some(json!({})))).0, 403);
    assert_eq!(refused(call(&s, "DELETE", &format!("/api/games/{id}"), None)).0, 403);
    assert_eq!(refused(call(&s, "POST", &format!("/api/games/{id}/answer"), Some(json!({"accept": true})))).0, 409);
    // Nobody asks the engine to move for a seat at a table, nor stops it.
    for path in ["engine", "stop"] {
        let answer = call_as(&s, black, "POST", &format!("/api/games/{id}/{path}"), Some(json!({})));
        assert_refused(answer, 403, "the server plays the engine's seats");
    }
    assert_eq!(moves(&state(&s, &id)), ["e2e4"], "black's seat is still black's to play");
    let answer = call_as(&s, black, "POST", &forfeit, Some(json!({"seat": "black", "why": "resignation"})));
    assert_eq!(answer.0, 200, "{}", answer.1);
    assert_eq!(answer.1["outcome"]["winner"], "white");
    // Over: no more moves for anyone.
    assert_eq!(refused(play_as(&s, &id, black, json!({"move": "e7e5"}))).0, 409);
}

#[test]
fn a_game_without_players_is_an_analysis_board_as_before() {
    let s = server();
    let made = ok(&s, "POST", "/api/games", Some(json!({"variant": "catchess"})));
    let id = made["id"].as_str().unwrap();
    assert!(made.get("tokens").is_none() && made.get("links").is_none(), "{made}");
    assert_eq!(made["players"], json!(null));
    assert_eq!(made["show_thinking"], true);
    // Anyone moves any seat, with no token.
    for m in ["e2e4", "e7e5", "a4b4"] {
        ok(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({ "move": m })));
    }
    // The engine moves only when asked: nothing happens by itself.
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(moves(&state(&s, id)).len(), 3);
    let answer = ok(&s, "POST", &format!("/api/games/{id}/engine"), Some(json!({"movetime": 100})));
    assert_eq!(answer["moves"].as_array().unwrap().len(), 4);
    // show_thinking belongs to a table.
    let answer = call(&s, "POST", "/api/games", Some(json!({"variant": "chess", "show_thinking": true})));
    assert_eq!(refused(answer).0, 400);
}

#[test]
fn the_server_plays_the_engine_s_seats_with_no_client_asking() {
    let s = server();
    let body = json!({"variant": "catchess", "players": {"black": {"kind": "engine", "level": 1},
                                                         "cats": {"kind": "engine", "level": 1}}});
    let (id, made) = table(&s, body);
    let white = token(&made, "white");
    played(&s, &id, white, "e2e4");
    // No request for 3 s: black and the cats move all the same.
    std::thread::sleep(Duration::from_secs(3));
    let now = state(&s, &id);
    assert_eq!(moves(&now).len(), 3, "{now}");
    assert_eq!(now["turn"], "white");
    // A game whose first seat is the engine's starts at once.
    let (id, _) = table(&s, json!({"variant": "xiangqi", "players": {"red": {"kind": "engine", "level": 3}}}));
    let events = Events::open(&s.addr.to_string(), &format!("/api/games/{id}/events"));
    let moved = events.until(Duration::from_secs(10), |e| !moves(&e.data).is_empty());
    assert_eq!(moved.data["turn"], "black");
    // The person's seat is not the engine's: after the engine's move
    // nothing moves until the person does.
    assert!(events.quiet_for(Duration::from_millis(600)));
}

/// The page gives the engine's seat a clock too (#62): the engine spends
/// a share of its time left, not the server's default second a move
/// (`seated.rs`), so that its clock shown beside the board does not run
/// out before the person's.
#[test]
fn an_engine_seat_on_a_clock_spends_a_share_of_its_time() {
    let s = spawn(Config { default_movetime_ms: 1000, ..config() }).unwrap();
    let clocks = json!({"white": {"base_ms": 2_000, "inc_ms": 0}, "black": {"base_ms": 2_000, "inc_ms": 0}});
    let body = json!({"variant": "chess", "clocks": clocks,
                      "players": {"white": person("Ann"), "black": {"kind": "engine", "level": 1}}});
    let (id, made) = table(&s, body);
    played(&s, &id, token(&made, "white"), "e2e4");
    let events = Events::open(&s.addr.to_string(), &format!("/api/games/{id}/events"));
    let moved = events.until(Duration::from_secs(10), |e| moves(&e.data).len() == 2);
    let black = moved.data["clock"]["seats"].as_array().unwrap().iter().find(|c| c["seat"] == "black").unwrap().clone();
    // 2 s / 30 ≈ 67 ms of search (the default is 1000 ms), and the
    // server's own time around it.
    let left = black["left_ms"].as_u64().unwrap();
    assert!((1_400..2_000).contains(&left), "black's clock after its move: {black}");
    assert_eq!(moved.data["clock"]["running"], "white", "{}", moved.data);
}

#[test]
fn the_engine_s_seat_to_move_is_played_after_a_restart_and_the_players_are_kept() {
    let db = common::temp::temp("tables.sqlite3");
    let db = db.to_str().unwrap();
    let slow = Config { db: Some(db.into()), default_movetime_ms: 3_000, ..config() };
    let (id, white, version) = {
        let s = spawn(slow.clone()).unwrap();
        // Full strength: its search takes the whole 3 s (a low level stops early).
        let players = json!({"white": person("Ann"), "black": {"kind": "engine", "level": 8}});
        let (id, made) = table(&s, json!({"variant": "chess", "players": players}));
        let white = token(&made, "white").to_string();
        played(&s, &id, &white, "e2e4");
        // Stopped while the engine thinks: its move is not played.
        let before = state(&s, &id);
        assert_eq!(moves(&before).len(), 1);
        (id, white, before["version"].as_u64().unwrap())
    };
    let quick = Config { db: Some(db.into()), ..config() };
    let s = spawn(quick).unwrap();
    // No request reaches the game: the server plays black at its start.
    std::thread::sleep(Duration::from_secs(2));
    let now = state(&s, &id);
    assert_eq!(moves(&now).len(), 2, "{now}");
    assert!(now["version"].as_u64().unwrap() > version, "a state after a restart is numbered above those before");
    assert_eq!(now["players"]["white"]["name"], "Ann");
    assert_eq!(now["players"]["black"], json!({"kind": "engine", "level": 8}));
    // The token still acts for its seat; the record names the players.
    let m = now["legal"][0].as_str().unwrap().to_string();
    played(&s, &id, &white, &m);
    let record =
        ok(&s, "GET", &format!("/api/games/{id}/pgn?white=Mallory"), None)["pgn"].as_str().unwrap().to_string();
    assert!(record.contains("[White \"Ann\"]") && record.contains("[Black \"catchess level 8\"]"), "{record}");
}

#[test]
fn a_join_link_is_spent_by_its_first_use_and_an_open_seat_is_anyone_s() {
    let s = server();
    let players = json!({
        "black": {"kind": "person", "invite": "link"},
        "cats": {"kind": "person", "invite": "open"},
    });
    let (id, made) = table(&s, json!({"variant": "catchess", "players": players}));
    let (white, link) = (token(&made, "white"), token(&made, "black"));
    let join = format!("/api/games/{id}/join");
    // Before its player joins, the link's token does nothing but join:
    // the creator, who saw it, cannot play for black.
    played(&s, &id, white, "e2e4");
    assert_refused(play_as(&s, &id, link, json!({"move": "e7e5"})), 403, "waits for its player");
    // The open games list the game with its open seat.
    let open = ok(&s, "GET", "/api/games?open=true", None);
    let listed: Vec<&serde_json::Value> = open["games"].as_array().unwrap().iter().filter(|g| g["id"] == id).collect();
    assert_eq!(listed.len(), 1, "{open}");
    assert_eq!(listed[0]["open_seats"], json!(["cats"]));
    assert_eq!(listed[0]["waiting_for"], json!(["black", "cats"]));

    // Black joins by the link: a new token, which only the joiner holds.
    let joined = ok_as(&s, link, &join, json!({"name": "Bea"}));
    assert_eq!(joined["seat"], "black");
    let bea = joined["token"].as_str().unwrap().to_string();
    assert_ne!(bea, link);
    assert_eq!(joined["link"], format!("http://{}/#game={id}&seat=black&token={bea}", s.addr));
    assert_eq!(joined["players"]["black"], json!({"kind": "person", "name": "Bea", "joined": true, "open": false}));
    assert_refused(call_as(&s, link, "POST", &join, Some(json!({}))), 403, "a join link someone has used is spent");
    assert_eq!(refused(play_as(&s, &id, link, json!({"move": "e7e5"}))).0, 403);
    played(&s, &id, &bea, "e7e5");
    // Joined again on another device: the same token.
    assert_eq!(ok_as(&s, &bea, &join, json!({}))["token"], bea.as_str());

    // The cats are open: anyone takes them by naming the seat, once.
    let taken = ok(&s, "POST", &join, Some(json!({"seat": "cats", "name": "Cy"})));
    let cy = taken["token"].as_str().unwrap().to_string();
    played(&s, &id, &cy, "a4b4");
    let again = call(&s, "POST", &join, Some(json!({"seat": "cats"})));
    assert_refused(again, 403, "cats is taken: its player has joined");
    assert_eq!(refused(call(&s, "POST", &join, Some(json!({"seat": "black"})))).0, 403);
    let open = ok(&s, "GET", "/api/games?open=true", None);
    assert!(!open.to_string().contains(&id), "taken, it is no longer listed: {open}");
    // "My games": the games named, with who plays; the unknown ones said.
    let mine = ok(&s, "GET", &format!("/api/games?ids={id},{}", "f".repeat(32)), None);
    assert_eq!(mine["games"][0]["players"]["cats"]["name"], "Cy");
    assert_eq!(mine["games"][0]["plies"], 3);
    assert_eq!(mine["unknown"], json!(["f".repeat(32)]));
    assert_eq!(call(&s, "GET", "/api/games", None).0, 400, "the server lists no game by itself");
}

#[test]
fn the_engine_s_thinking_is_hidden_from_the_players_unless_the_creator_shows_it() {
    let s = server();
    let (id, made) = people(&s, "chess");
    let addr = s.addr.to_string();
    for path in [format!("/api/games/{id}/analysis?movetime=50"), format!("/api/games/{id}/events?search=true")] {
        assert_refused(call(&s, "GET", &path, None), 403, "hidden from this game's players");
    }
    // Shown at the creator's choice.
    let (shown, _) = table(&s, json!({"variant": "chess", "players": {}, "show_thinking": true}));
    let events = common::http::read_events(&addr, &format!("/api/games/{shown}/analysis?movetime=50"));
    assert_eq!(events.last().unwrap().0, "done");
    // Once the game is over it is shown to all.
    let white = token(&made, "white");
    let answer = call_as(
        &s,
        white,
        "POST",
        &format!("/api/games/{id}/forfeit"),
        Some(json!({"seat": "white", "why": "resignation"})),
    );
    assert_eq!(answer.0, 200);
    // Not hidden now, but no search runs on a game over.
    assert_refused(call(&s, "GET", &format!("/api/games/{id}/analysis?movetime=50"), None), 409, "over");
    let started = Instant::now();
    let stream = Events::open(&addr, &format!("/api/games/{id}/events?search=true"));
    assert!(stream.next().data["outcome"].is_object());
    assert!(started.elapsed() < Duration::from_secs(1));
}

#[test]
fn games_people_play_are_never_evicted_until_over_or_abandoned() {
    let time = std::sync::Arc::new(catchess::serve::ManualClock::new(1_795_000_000_000));
    let s = spawn(Config { max_games: 3, time: time.clone(), ..config() }).unwrap();
    let (a, _) = people(&s, "chess");
    let (b, b_made) = people(&s, "chess");
    let board = ok(&s, "POST", "/api/games", Some(json!({"variant": "chess"})));
    let board = board["id"].as_str().unwrap().to_string();
    // Full: an analysis board makes room first.
    let (d, _) = people(&s, "xiangqi");
    assert_eq!(call(&s, "GET", &format!("/api/games/{board}"), None).0, 404, "the analysis board went");
    // Only games people play, none over: nothing is evicted, nothing made.
    let full = call(&s, "POST", "/api/games", Some(json!({"variant": "chess"})));
    assert_refused(full, 429, "a game a person plays is never evicted");
    for id in [&a, &b, &d] {
        assert_eq!(call(&s, "GET", &format!("/api/games/{id}"), None).0, 200);
    }
    // A game over makes room.
    let resigned = json!({"seat": "white", "why": "resignation"});
    assert_eq!(call_as(&s, token(&b_made, "white"), "POST", &format!("/api/games/{b}/forfeit"), Some(resigned)).0, 200);
    let (e, _) = people(&s, "catchess");
    assert_eq!(call(&s, "GET", &format!("/api/games/{b}"), None).0, 404, "the game over went");
    assert_refused(call(&s, "POST", "/api/games", Some(json!({"variant": "chess"}))), 429, "never evicted");
    // Left alone for 30 days, a game is abandoned: the one left alone
    // longest makes room.
    time.advance(Duration::from_secs(30 * 24 * 3600));
    people(&s, "chess");
    assert_eq!(call(&s, "GET", &format!("/api/games/{a}"), None).0, 404, "the oldest abandoned game went");
    for id in [&d, &e] {
        assert_eq!(call(&s, "GET", &format!("/api/games/{id}"), None).0, 200);
    }
}
