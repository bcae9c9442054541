//! The engine with endgame tables (issue #43): `TablebasePath`, the root's
//! table move, exact values in the tree (`tbhits`), `d`; both variants'
//! tables in one folder, under their names or the old ones (issue #60).

mod common;

use catchess::core::Color;
use catchess::tb::Verdict;
use common::engine::Engine;
use common::{tables, temp};

/// A folder of its own (`name`) with the chess KQvK and KRvK tables.
fn chess_tables(name: &str) -> String {
    let dir = temp::temp(name);
    tables::generate_chess(&dir, &["KQvK", "KRvK"]);
    dir.to_str().unwrap().to_string()
}

/// An engine whose `TablebasePath` is a fresh directory (`name`) of the
/// chess tables, set without a word of complaint.
fn engine_with_chess_tables(name: &str) -> Engine {
    let dir = chess_tables(name);
    let mut e = Engine::start();
    let said = e.ask(&format!("setoption name TablebasePath value {dir}"));
    assert!(said.is_empty(), "{said:?}");
    e
}

#[test]
fn the_root_plays_the_table_move_and_d_shows_the_result() {
    let mut e = engine_with_chess_tables("root");
    e.ask("position fen 8/8/8/5k2/8/8/1Q6/K7 w - - 0 1");
    let shown = e.ask("d");
    assert!(shown.iter().any(|l| l.starts_with("Tablebase: white mates in 19 plies")), "{shown:?}");
    let (info, best) = e.go("depth 3");
    let last = info.last().unwrap();
    assert!(last.contains("score mate 10") && last.contains("tbhits"), "{last}");
    // The PV follows the tables to the mate: 19 plies.
    let pv: Vec<&str> = last.split(" pv ").nth(1).unwrap().split(' ').collect();
    assert_eq!(pv.len(), 19, "{last}");
    assert_eq!(pv[0], best);
    // Black, lost, takes the slowest loss: mate in 9 of its moves from
    // the 18-ply position after white's best move.
    e.ask(&format!("position fen 8/8/8/5k2/8/8/1Q6/K7 w - - 0 1 moves {best}"));
    let (info, _) = e.go("depth 3");
    assert!(info.last().unwrap().contains("score mate -9"), "{info:?}");
    // Unset: no tables, no Tablebase line.
    let said = e.ask("setoption name TablebasePath value <empty>");
    assert!(said.is_empty(), "{said:?}");
    assert!(!e.ask("d").iter().any(|l| l.starts_with("Tablebase")));
}

#[test]
fn a_mate_the_fifty_move_rule_cuts_off_is_a_draw_and_d_says_why() {
    let mut e = engine_with_chess_tables("fifty");
    // 19 plies to the mate; from a clock of 81 the mate lands on the 100th
    // half-move (mate first), from 82 the fifty-move rule comes first.
    e.ask("position fen 8/8/8/5k2/8/8/1Q6/K7 w - - 81 1");
    let (info, _) = e.go("depth 3");
    assert!(info.last().unwrap().contains("score mate 10"), "{info:?}");
    e.ask("position fen 8/8/8/5k2/8/8/1Q6/K7 w - - 82 1");
    let shown = e.ask("d");
    let line = shown.iter().find(|l| l.starts_with("Tablebase: ")).expect("a Tablebase line");
    assert!(
        line.contains("a draw") && line.contains("fifty-move rule: the table's white 19 cannot arrive in time"),
        "{line}"
    );
    let (info, _) = e.go("depth 3");
    let last = info.last().unwrap();
    assert!(last.contains("score cp 0") && last.contains("tbhits"), "{last}");
}

#[test]
fn the_tree_uses_exact_values_after_a_capture() {
    let mut e = engine_with_chess_tables("tree");
    // White takes the rook and is left with K+Q against K: the tables say
    // how long the mate is, and the search reports tbhits.
    e.ask("position fen 8/6r1/8/3k4/8/8/1Q6/K7 w - - 0 1");
    let (info, best) = e.go("depth 4");
    assert_eq!(best, "b2g7");
    let last = info.last().unwrap();
    assert!(last.contains("tbhits"), "{last}");
    assert!(last.contains("score mate "), "{last}");
}

#[test]
fn a_missing_directory_or_damaged_table_is_an_error_not_a_silent_guess() {
    let dir = chess_tables("damaged");
    let mut e = Engine::start();
    let said = e.ask("setoption name TablebasePath value /no/such/dir");
    assert!(said.iter().any(|l| l.contains("does not exist")), "{said:?}");
    let file = std::path::Path::new(&dir).join("KRvK.chess.cctb");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes.truncate(1000);
    std::fs::write(&file, bytes).unwrap();
    let said = e.ask(&format!("setoption name TablebasePath value {dir}"));
    assert!(said.iter().any(|l| l.contains("KRvK.chess.cctb") && l.contains("truncated")), "{said:?}");
}

/// Issue #60: one folder with the chess KQvK table under its old name and
/// the Cat Chess one under its name (written by the library, every entry
/// `black 7`, since a real one takes a minute): each game's positions are
/// answered from its own table.
#[test]
fn one_folder_gives_each_game_its_own_table_of_a_material() {
    let dir = temp::temp("both-variants");
    tables::generate_chess(&dir, &["KQvK"]);
    std::fs::rename(dir.join("KQvK.chess.cctb"), dir.join("KQvK.cctb")).unwrap();
    tables::uniform_cat_chess_table(&dir, "KQvK", Verdict::Win { winner: Color::Black, plies: 7 });
    let mut e = Engine::start();
    let said = e.ask(&format!("setoption name TablebasePath value {}", dir.display()));
    assert!(said.is_empty(), "{said:?}");
    e.ask("position fen 8/8/8/5k2/8/8/1Q6/K7 w - - 0 1");
    let shown = e.ask("d");
    assert!(shown.iter().any(|l| l.starts_with("Tablebase: white mates in 19 plies")), "{shown:?}");
    e.ask("setoption name UCI_Variant value catchess");
    e.ask("position fen 7Q/8/7*/8/8/8/1kK5/7* w - - 0 1");
    let shown = e.ask("d");
    assert!(shown.iter().any(|l| l.starts_with("Tablebase: black mates in 7 plies")), "{shown:?}");
    tables::remove(&dir);
}
