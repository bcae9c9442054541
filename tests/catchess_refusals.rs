//! Why a move is refused (#62): each rule of RULES.md a move can break is
//! named in the error, in Cat Chess and in chess, and the web API's 422
//! carries the same words. Positions are RULES.md's examples where it has
//! one.

mod common;

use catchess::game::{MoveError, Notation};
use catchess::serve::{spawn, Config};
use catchess::{CatChess, Chess};
use common::http::call;
use serde_json::json;

fn why<G: Notation>(fen: &str, text: &str) -> String {
    match G::from_fen(fen).unwrap().parse_move(text) {
        Err(MoveError::Illegal { why: Some(why), .. }) => why,
        other => panic!("{text} in {fen}: expected a refusal with a reason, got {other:?}"),
    }
}

fn cat(fen: &str, text: &str) -> String {
    why::<CatChess>(fen, text)
}

const CAT_START: &str = "rnbqkbnr/pppppppp/8/7*/*7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn whose_piece_and_whose_turn() {
    assert_eq!(cat(CAT_START, "e3e4"), "there is no piece on e3");
    assert_eq!(cat(CAT_START, "e7e5"), "the pawn on e7 is black's; it is white's move");
    assert_eq!(cat(CAT_START, "a4b4"), "the cats move only on their own turn; it is white's move");
    assert_eq!(cat(CAT_START, "0000"), "only the cats pass; white must move");
    assert_eq!(cat(CAT_START, "a1a2"), "a2 holds your own pawn");
    let cats_turn = "rnbqkbnr/pppp1ppp/8/4p2*/*3P3/8/PPPP1PPP/RNBQKBNR c KQkq - 0 2";
    assert_eq!(cat(cats_turn, "e4e5"), "it is the cats' turn: only a cat moves (the pawn on e4 waits)");
    assert_eq!(cat(cats_turn, "0000"), "the cats pass only when neither cat can step");
}

#[test]
fn how_each_piece_moves() {
    assert_eq!(cat(CAT_START, "b1b3"), "a knight does not move that way");
    assert_eq!(cat(CAT_START, "e2e5"), "a pawn moves straight ahead and captures diagonally forward");
    assert_eq!(cat(CAT_START, "e2d3"), "a pawn moves diagonally only to capture");
    assert_eq!(cat(CAT_START, "d1d3"), "the white pawn on d2 stands in the way");
    let advanced = "rnbqkbnr/pppp1ppp/8/4p3/*3P2*/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    assert_eq!(cat(advanced, "e4e5"), "a pawn captures only diagonally, and the black pawn on e5 stands ahead");
    assert_eq!(cat(advanced, "e4e6"), "a pawn moves two squares only from its starting square");
    assert_eq!(cat(CAT_START, "e2e3q"), "only a pawn reaching the last rank promotes");
    assert_eq!(
        cat("4k3/P7/8/8/8/8/8/4K2* w - - 0 1", "a7a8"),
        "a pawn reaching the last rank must promote: add q, r, b or n (as in e7e8q)"
    );
}

/// RULES.md §3: cats are obstacles, never landed on, and step one square
/// onto an empty one.
#[test]
fn cats_block_and_step_one_square_onto_empty_ones() {
    let obstacle = "4k3/8/8/8/*7/4*3/4P3/R3K1N1 w - - 0 1";
    assert_eq!(cat(obstacle, "a1a5"), "the cat on a4 stands in the way");
    assert_eq!(cat(obstacle, "a1a4"), "a4 holds a cat: no piece may land on a cat");
    assert_eq!(cat(obstacle, "e2e3"), "e3 holds a cat: no piece may land on a cat");
    let cats = "4k3/8/8/8/*7/4*3/4P3/R3K1N1 c - - 0 1";
    assert_eq!(cat(cats, "e3e2"), "a cat steps only onto an empty square, and e2 is taken");
    assert_eq!(cat(cats, "a4a6"), "a cat steps one square (like a king); a6 is not next to a4");
}

/// RULES.md §4 and §7: the capture ban, for the capturer, the victim and
/// en passant's landing square.
#[test]
fn the_capture_ban_names_the_disarmed_piece() {
    let zone = "r1bqkb1r/pppp1ppp/2n2n2/1*2p3/2B1P1*1/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    assert_eq!(cat(zone, "c4f7"), "the bishop on c4 stands next to a cat: disarmed, it cannot capture");
    assert_eq!(cat(zone, "f3e5"), "the knight on f3 stands next to a cat: disarmed, it cannot capture");
    let victim = "4k3/8/8/3p4/2*5/4N3/8/4K3 w - - 0 1";
    assert_eq!(cat(victim, "e3d5"), "the pawn on d5 stands next to a cat: it cannot be captured");
    let passant = "1k6/p5*1/8/4Pp2/8/8/P7/1K6 w - f6 0 1";
    assert_eq!(cat(passant, "e5f6"), "f6 is next to a cat: en passant may not land there");
    // RULES.md §7 after h3g4: the victim f5 is in Z.
    let victim_in_zone = "1k6/p7/8/4PpP1/6*1/2*5/P7/1K6 w - f6 0 1";
    assert_eq!(cat(victim_in_zone, "e5f6"), "the pawn on f5 stands next to a cat: it cannot be captured");
}

/// RULES.md §5 and §6: the king.
#[test]
fn check_pins_and_castling() {
    assert_eq!(cat("k3r3/8/8/8/8/8/4N3/4K3 w - - 0 1", "e2c3"), "that would leave your king in check");
    assert_eq!(
        cat("k3r3/8/8/8/8/8/8/4K2N w - - 0 1", "h1g3"),
        "your king is in check from the black rook on e8, and this move does not answer it"
    );
    assert_eq!(cat("k4r2/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1"), "the king may not pass over f1, which is attacked");
    assert_eq!(
        cat("k7/8/8/8/8/8/8/R3K2R w Q - 0 1", "e1g1"),
        "white may no longer castle king-side (the king or that rook has moved)"
    );
    assert_eq!(cat("k3r3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1"), "a king in check cannot castle");
    assert_eq!(cat(CAT_START, "e1g1"), "the white bishop on f1 stands between the king and the rook");
    // §6's example: the b8 cat stands between king and rook.
    assert_eq!(
        cat("r*2k2r/ppppp1*p/8/8/8/8/PPP3PP/5RK1 b kq - 0 1", "e8c8"),
        "the cat on b8 stands between the king and the rook"
    );
}

#[test]
fn chess_refusals_have_no_cats_in_them() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(why::<Chess>(start, "e2e5"), "a pawn moves straight ahead and captures diagonally forward");
    assert_eq!(why::<Chess>(start, "0000"), "only the cats pass; white must move");
    assert_eq!(why::<Chess>("4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1", "e3d6"), "a knight does not move that way");
    // A legal move has no reason.
    assert!(Chess::from_fen(start).unwrap().why_refused("e2e4").is_none());
    assert!(CatChess::from_fen(CAT_START).unwrap().why_refused("e2e4").is_none());
}

/// The API's 422 for a refused move carries the reason (what the page
/// shows under the board).
#[test]
fn the_api_says_why_a_move_is_refused() {
    let s = spawn(Config { host: "127.0.0.1".into(), port: 0, ..Config::in_memory() }).expect("the server starts");
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/1*2p3/2B1P1*1/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let (status, game) = call(&s, "POST", "/api/games", Some(json!({"variant": "catchess", "fen": fen})));
    assert_eq!(status, 201, "{game}");
    let id = game["id"].as_str().unwrap();
    let (status, body) = call(&s, "POST", &format!("/api/games/{id}/moves"), Some(json!({"move": "c4f7"})));
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        body["error"].as_str().unwrap(),
        "illegal move \"c4f7\": the bishop on c4 stands next to a cat: disarmed, it cannot capture"
    );
}
