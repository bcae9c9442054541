//! The rules on the page (#62): `/rules` is every game's rules page, each
//! game has a plain name for people (the Game menu), xiangqi's letters
//! mode spells its pieces as its moves do, and the rules' diagrams are
//! positions the server draws (`GET /api/variants/<game>/board`): their
//! zones, disarmed pieces, checks and moves come from the rules code.
//! Every diagram the page's rules show (`page/rules.js`) is drawn here,
//! and the moves it dots exist, so the words and the rules cannot drift
//! apart unseen.

mod common;

use catchess::serve::{spawn, Config, Server};
use common::http::call;
use serde_json::Value;

fn server() -> Server {
    spawn(Config { host: "127.0.0.1".into(), port: 0, ..Config::in_memory() }).expect("the server starts")
}

fn text(s: &Server, path: &str) -> (u16, String, String) {
    let url = format!("http://{}{path}", s.addr);
    let response = match ureq::get(&url).call() {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("GET {path}: {e}"),
    };
    let kind = response.content_type().to_string();
    (response.status(), kind, response.into_string().unwrap())
}

/// `GET /api/variants/<variant>/board?fen=&moves=`.
fn diagram(s: &Server, variant: &str, fen: &str, moves: &str) -> (u16, Value) {
    let query = format!("fen={}&moves={}", encode(fen), encode(moves));
    call(s, "GET", &format!("/api/variants/{variant}/board?{query}"), None)
}

fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn square<'a>(d: &'a Value, name: &str) -> &'a Value {
    d["board"].as_array().unwrap().iter().find(|q| q["square"] == name).unwrap_or_else(|| panic!("no {name}"))
}

/// The targets of the legal moves from `from`.
fn targets(d: &Value, from: &str) -> Vec<String> {
    let mut to: Vec<String> = d["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["from"] == from && m["to"] != from)
        .map(|m| m["to"].as_str().unwrap().to_string())
        .collect();
    to.sort();
    to.dedup();
    to
}

#[test]
fn the_rules_page_is_served_with_its_scripts() {
    let s = server();
    let (status, kind, page) = text(&s, "/rules");
    assert_eq!((status, kind.as_str()), (200, "text/html"), "{page}");
    assert!(page.contains("/rulespage.js"), "{page}");
    for script in ["/rulespage.js", "/rules.js"] {
        let (status, kind, body) = text(&s, script);
        assert_eq!((status, kind.as_str()), (200, "text/javascript"), "{script}");
        assert!(body.contains("renderRules"), "{script}");
    }
    // The board's page opens the same rules, and loads them.
    let (_, _, index) = text(&s, "/");
    assert!(index.contains("id=\"rules-open\"") && index.contains("id=\"rules-dialog\""), "{index}");
    let (_, _, app) = text(&s, "/app.js");
    assert!(app.contains("from './rules.js'"));
}

#[test]
fn every_game_has_a_plain_name_and_xiangqi_spells_its_pieces_as_its_moves() {
    let s = server();
    let (_, variants) = call(&s, "GET", "/api/variants", None);
    let titles: Vec<(&str, &str)> = variants
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["name"].as_str().unwrap(), v["layout"]["title"].as_str().unwrap()))
        .collect();
    assert_eq!(
        titles,
        [
            ("catchess", "Cat Chess (white, black and cats)"),
            ("chess", "Chess"),
            ("xiangqi", "Xiangqi"),
            ("catschess10", "Cat's Chess 10×10 (zzo38)"),
        ]
    );
    let (_, xiangqi) = call(&s, "GET", "/api/variants/xiangqi", None);
    let letter = |fen: &str| {
        let pair = xiangqi["letters"].as_array().unwrap().iter().find(|p| p[0] == fen).unwrap().clone();
        pair[1].as_str().unwrap().to_string()
    };
    // WXF: H2+3 is the horse's move (FEN N), E3+5 the elephant's (FEN B).
    assert_eq!([letter("N"), letter("n"), letter("B"), letter("b"), letter("C")], ["H", "H", "E", "E", "C"]);
    let (_, chess) = call(&s, "GET", "/api/variants/chess", None);
    assert_eq!(chess["letters"], serde_json::json!([]));
}

#[test]
fn a_diagram_is_drawn_by_the_rules_code() {
    let s = server();
    // RULES.md §4: the bishop c4 and the knight f3 are disarmed; the
    // bishop's quiet moves remain (not a6: the cat b5 is in the way),
    // Bxf7 does not.
    let zone = "r1bqkb1r/pppp1ppp/2n2n2/1*2p3/2B1P1*1/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let (status, d) = diagram(&s, "catchess", zone, "");
    assert_eq!(status, 200, "{d}");
    assert_eq!(
        (square(&d, "c4")["disarmed"].clone(), square(&d, "f3")["disarmed"].clone()),
        (true.into(), true.into())
    );
    assert_eq!(square(&d, "a4")["zone"], true);
    assert_eq!(targets(&d, "c4"), ["b3", "d3", "d5", "e2", "e6", "f1"]);
    assert!(d["last_move"].is_null());
    // A cat's step away arms the rook: black's king is marked in check,
    // white to move (RULES.md §8).
    let (_, d) = diagram(&s, "catchess", "R5k1/1*3ppp/8/8/8/8/8/6K1 c - - 0 1", "b7c6");
    assert_eq!((d["turn"].clone(), square(&d, "g8")["check"].clone()), ("white".into(), true.into()), "{d}");
    assert_eq!(d["last_move"]["to"], "c6");
    // Cat's Chess 10×10: the pick of the cat e5 shows its steps.
    let (_, d) = diagram(&s, "catschess10", "rnbcqk4/10/10/5n4/3p6/4C5/10/10/10/K9 w - - 0 1 -", "e5");
    assert!(targets(&d, "e5").contains(&"d6".to_string()), "the diagonal capture: {:?}", targets(&d, "e5"));
    assert!(!targets(&d, "e5").contains(&"f6".to_string()), "no diagonal step onto an empty square");
    // Refusals, in words.
    let refused = |variant: &str, fen: &str, moves: &str, status: u16, says: &str| {
        let (got, body) = diagram(&s, variant, fen, moves);
        assert_eq!(got, status, "{body}");
        assert!(body["error"].as_str().unwrap().contains(says), "{body}");
    };
    refused("catchess", "8/8/8/8/8/8/8/8 w - - 0 1", "", 422, "invalid FEN");
    refused("shogi", zone, "", 400, "unknown variant");
    refused("catchess", zone, "c4f7", 422, "disarmed, it cannot capture");
    refused("catchess", zone, &"e1f1 ".repeat(17), 400, "at most 16 moves");
    let start10 = "rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0 1 -";
    refused("catschess10", start10, "T@? T@e5", 422, "a diagram has no dice");
}

/// Each diagram of `page/rules.js`: its game, FEN, moves, dotted piece
/// and squares to look at.
struct Shown {
    variant: String,
    fen: String,
    moves: String,
    show: Option<String>,
    hint: Vec<String>,
}

fn diagrams_of_the_page() -> Vec<Shown> {
    let js = std::fs::read_to_string("crates/serve/src/page/rules.js").unwrap();
    let game = regex::Regex::new(r"(?m)^  (\w+): \[").unwrap();
    let field = |chunk: &str, name: &str| {
        regex::Regex::new(&format!(r"\b{name}: '([^']*)'")).unwrap().captures(chunk).map(|c| c[1].to_string())
    };
    let hint = regex::Regex::new(r"hint: \[([^\]]*)\]").unwrap();
    let mut out = Vec::new();
    for (at, _) in js.match_indices("diagram: {") {
        let chunk = &js[at..at + js[at..].find('}').unwrap()];
        let variant = game.captures_iter(&js[..at]).last().expect("a game before the diagram")[1].to_string();
        out.push(Shown {
            variant,
            fen: field(chunk, "fen").expect("a FEN"),
            moves: field(chunk, "moves").unwrap_or_default(),
            show: field(chunk, "show"),
            hint: hint
                .captures(chunk)
                .map(|c| c[1].split(',').map(|q| q.trim().trim_matches('\'').to_string()).collect())
                .unwrap_or_default(),
        });
    }
    out
}

#[test]
fn every_diagram_of_the_rules_is_a_position_the_server_draws() {
    let s = server();
    let shown = diagrams_of_the_page();
    for game in ["catchess", "chess", "xiangqi", "catschess10"] {
        assert!(shown.iter().filter(|d| d.variant == game).count() >= 3, "{game}: too few diagrams");
    }
    for d in &shown {
        let (status, drawn) = diagram(&s, &d.variant, &d.fen, &d.moves);
        assert_eq!(status, 200, "{} {}: {drawn}", d.variant, d.fen);
        if let Some(from) = &d.show {
            assert!(square(&drawn, from)["piece"].is_string(), "{}: nothing on {from}", d.fen);
            assert!(!targets(&drawn, from).is_empty(), "{}: the piece on {from} has no move to show", d.fen);
        }
        for q in &d.hint {
            square(&drawn, q);
        }
    }
}
