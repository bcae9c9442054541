//! Replaying records of real games (the game layer names none).

use catchess_game::pgn::{read_all, replay, result_words, PgnGame, ReplayError, Stop, MAX_TURNS};
use catchess_game::{Game, History};
use catchess_games::{CatChess, Chess};

fn game(text: &str) -> PgnGame {
    read_all(text, &result_words::<CatChess>()).unwrap().remove(0)
}

fn uci<G: Game>(h: &History<G>) -> String {
    h.moves().iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

#[test]
fn san_and_the_protocol_s_text_both_read() {
    let h = replay::<Chess>(&game("1. e4 {best} e5 $1 2. Nf3! Nc6?! 3. g1f3 *"), Stop::AfterTurns(4)).unwrap();
    assert_eq!(uci(&h), "e2e4 e7e5 g1f3 b8c6");
    let h = replay::<Chess>(&game("[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n1. a8=Q+ Kd7 2. Qb7+ *"), Stop::AtEnd);
    assert_eq!(uci(&h.unwrap()), "a7a8q e8d7 a8b7");
    let h = replay::<CatChess>(&game("1. e4 e5 h5g4 2. g1f3 Nc6 0000 *"), Stop::AtEnd).unwrap();
    assert_eq!(uci(&h), "e2e4 e7e5 h5g4 g1f3 b8c6 0000");
}

#[test]
fn errors_name_the_move_as_the_record_numbers_it() {
    let err = |text: &str| replay::<Chess>(&game(text), Stop::AtEnd).unwrap_err().to_string();
    assert_eq!(err("1. e4 e5 2. Ke2 Ke7 3. Ke4 *"), "move 3. Ke4: illegal move \"Ke4\"");
    assert_eq!(err("1. e4 e4 *"), "move 1... e4: illegal move \"e4\"");
    assert_eq!(
        err("[FEN \"4k3/8/8/8/8/8/8/R3K3 b - - 0 40\"]\n40... Kd7 41. Kd2 Kc6 42. Kc9 *"),
        "move 42. Kc9: illegal move \"Kc9\""
    );
    assert_eq!(err("1. f3 e5 2. g4 Qh4# 3. a3 *"), "move 3. a3 comes after the game ended (checkmate)");
    assert_eq!(err("1. é4 *"), "move 1. é4: cannot parse move \"é4\"");
    assert!(err("[FEN \"nonsense\"]\n*").starts_with("FEN tag: "));
    assert!(err("[FEN \"ü\"]\n*").starts_with("FEN tag: "));
    // Three seats: the cats' moves are numbered as black's are.
    let e = replay::<CatChess>(&game("1. e4 e5 h5g4 2. Nf3 Nc6 h1h1 *"), Stop::AtEnd).unwrap_err();
    assert_eq!(e.to_string(), "move 2... h1h1: illegal move \"h1h1\"");
}

#[test]
fn an_opening_stops_at_its_turns_or_where_the_game_ends() {
    let mate = game("1. f3 e5 2. g4 Qh4# 3. a3 *");
    assert_eq!(replay::<Chess>(&mate, Stop::AfterTurns(2)).unwrap().moves().len(), 2);
    assert_eq!(replay::<Chess>(&mate, Stop::AfterTurns(9)).unwrap().moves().len(), 4);
}

#[test]
fn games_longer_than_the_bound_are_refused_before_any_move() {
    let text = "1. Nf3 Nf6 2. Ng1 Ng8 ".repeat(MAX_TURNS / 4) + "*";
    let g = game(&text);
    assert_eq!(g.moves.len(), MAX_TURNS);
    // The knights' dance repeats: the rules end it at move 5.
    let e = replay::<Chess>(&g, Stop::AtEnd).unwrap_err();
    assert_eq!(e.to_string(), "move 5. Nf3 comes after the game ended (threefold repetition)");
    let e = replay::<Chess>(&game(&text.replace(" *", " Nf3 *")), Stop::AtEnd).unwrap_err();
    assert_eq!(e, ReplayError::TooLong);
    assert_eq!(e.to_string(), format!("more than {MAX_TURNS} turns"));
    // A book's first plies of it are read.
    assert!(replay::<Chess>(&game(&text.replace(" *", " Nf3 *")), Stop::AfterTurns(4)).is_ok());
}
