//! `catchess pgn check FILE`: replays every record of a PGN file, of any
//! variant, with the engine's own rules, and reports the first illegal
//! move of a game or a result the game does not support.

use super::openings::{parse_record_turn, pgn_start, pgn_variant, split_pgn, PgnGame};
use super::record::{result_text, seat_of, standard_termination, winner_of_result};
use crate::files::read_bounded;
use crate::game::{Arbitration, History, Notation, Seat};
use crate::games::with_game;
use crate::games::VariantKind;

/// What a check found.
pub struct CheckReport {
    pub games: usize,
    /// One line per game with a problem.
    pub problems: Vec<String>,
}

/// `catchess pgn check`: prints each problem and a count; an error if
/// any game has a problem.
pub fn command(path: &str, default: VariantKind) -> Result<(), String> {
    let report = check_file(path, default)?;
    for p in &report.problems {
        println!("{p}");
    }
    println!("{} games checked, {} with problems", report.games, report.problems.len());
    match report.problems.len() {
        0 => Ok(()),
        n => Err(format!("{n} of {} games have problems", report.games)),
    }
}

/// Checks every game of `path`; its variant is its `Variant` tag, else
/// `default`.
pub fn check_file(path: &str, default: VariantKind) -> Result<CheckReport, String> {
    let text = read_bounded(path, super::MAX_PGN_BYTES).map_err(|e| format!("cannot read {path}: {e}"))?;
    let games = split_pgn(&text).map_err(|e| format!("{path}: {e}"))?;
    let mut problems = Vec::new();
    for (n, game) in games.iter().enumerate() {
        let variant = match game.tag("Variant") {
            None => Ok(default),
            Some(v) => pgn_variant(v),
        };
        let problem = match variant {
            Ok(variant) => with_game!(variant, G => check_game::<G>(game)),
            Err(e) => Some(e),
        };
        if let Some(p) = problem {
            let round = game.tag("Round").map(|r| format!(", Round {r}")).unwrap_or_default();
            problems.push(format!("{path}: game {} (line {}{round}): {p}", n + 1, game.line));
        }
    }
    Ok(CheckReport { games: games.len(), problems })
}

/// The first thing wrong with one game, if any.
pub fn check_game<G: Notation + Arbitration>(game: &PgnGame) -> Option<String> {
    let start = match pgn_start::<G>(game) {
        Ok(s) => s,
        Err(e) => return Some(e),
    };
    let mut h = History::new(start);
    for token in &game.moves {
        if let Some(o) = h.outcome() {
            return Some(format!("move {} ({token}) after the game ended ({})", h.turn_count() + 1, o.reason.name()));
        }
        match parse_record_turn(h.current(), token) {
            Ok(steps) => steps.into_iter().for_each(|m| h.push(m)),
            Err(e) => return Some(format!("move {} ({token}): {e}", h.turn_count() + 1)),
        }
    }
    if let Some(count) = game.tag("PlyCount") {
        if count != h.turn_count().to_string() {
            return Some(format!("PlyCount {count} but {} moves", h.turn_count()));
        }
    }
    let result = game.tag("Result").or(game.result.as_deref()).unwrap_or("");
    if game.result.as_deref().is_some_and(|r| r != result) {
        return Some(format!(
            "Result tag {result:?} but the moves end with {:?}",
            game.result.as_deref().unwrap_or("")
        ));
    }
    let winner = winner_of_result::<G>(result);
    let Some(winner) = winner else { return Some(format!("result {result:?} is not one of this variant's")) };
    // Older records have our words in Termination itself.
    let details = game.tag("TerminationDetails").or(game.tag("Termination")).unwrap_or("");
    let standard =
        game.tag("Termination")
            .map(|t| if game.tag("TerminationDetails").is_none() { standard_termination(t) } else { t });
    // The seats that faulted and played on, passing (Cat Chess's cats).
    let faulted = |seat: Seat| {
        let prefix = format!("{} (", G::SEATS[seat.index()].name);
        G::forfeit_winner(seat).is_none()
            && game.tag("Faults").is_some_and(|f| f.split("; ").any(|x| x.starts_with(&prefix)))
    };
    match h.outcome() {
        Some(o) => {
            // A win is void for a seat that faulted (the cats' win by a
            // draw, once they have faulted): the game is then a draw.
            let expected = o.winner.filter(|&w| !faulted(w));
            if winner != expected {
                return Some(format!(
                    "result {result:?}, but the final position is {} ({})",
                    result_text::<G>(expected),
                    o.reason.name()
                ));
            }
            if standard.is_some_and(|t| t != "normal") {
                return Some(format!("Termination {:?}, but the rules ended the game", standard.unwrap_or("")));
            }
        }
        None => {
            if standard == Some("normal") {
                return Some(format!(
                    "Termination \"normal\", but the final position is not over: {}",
                    h.current().to_fen()
                ));
            }
            // A fault that ends the game gives it to the seat the game says
            // (`Arbitration::forfeit_winner`: in chess, the other of the two).
            if let Some((_, side)) = details.rsplit_once(" by ").filter(|_| !details.starts_with("adjudication")) {
                let expected = seat_of::<G>(side).and_then(|i| G::forfeit_winner(Seat::new(i)));
                if expected.is_some_and(|w| Some(w) != winner) {
                    return Some(format!("result {result:?} after {details:?}"));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{CatChess, Chess};

    fn problem<G: Notation + Arbitration>(pgn: &str) -> Option<String> {
        check_game::<G>(&split_pgn(pgn).unwrap()[0])
    }

    #[test]
    fn results_must_follow_from_the_moves() {
        let mate = "[Result \"0-1\"]\n[Termination \"normal\"]\n[PlyCount \"4\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
        assert_eq!(problem::<Chess>(mate), None);
        let p = problem::<Chess>(&mate.replace("0-1", "1-0")).unwrap();
        assert_eq!(p, "result \"1-0\", but the final position is 0-1 (checkmate)");
        let p = problem::<Chess>(&mate.replace("[PlyCount \"4\"]", "[PlyCount \"5\"]")).unwrap();
        assert_eq!(p, "PlyCount 5 but 4 moves");
        let p = problem::<Chess>("[Termination \"normal\"]\n\n1. e4 e5 1-0\n").unwrap();
        assert!(p.starts_with("Termination \"normal\", but the final position is not over"), "{p}");
        let p = problem::<Chess>("1. e4 e5 2. Qh5 Ke7 3. Qxe5# Ke6 1-0\n").unwrap();
        assert_eq!(p, "move 6 (Ke6) after the game ended (checkmate)");
        // A crash by white gives the game to black, not white.
        let crash =
            "[Result \"1-0\"]\n[Termination \"abandoned\"]\n[TerminationDetails \"crash by white\"]\n\n1. e4 1-0\n";
        assert_eq!(problem::<Chess>(crash).unwrap(), "result \"1-0\" after \"crash by white\"");
        assert_eq!(problem::<Chess>(&crash.replace("1-0", "0-1")), None);
        // Cat Chess: a draw by the rules is the cats' win (a draw after a cats fault).
        let p = problem::<CatChess>("[Termination \"normal\"]\n\n1. e2e4 e7e5 h5g4 cats\n").unwrap();
        assert!(p.contains("not over"), "{p}");
        assert_eq!(
            problem::<CatChess>("1. e2e4 e7e5 h5g4 1-0\n").unwrap(),
            "result \"1-0\" is not one of this variant's"
        );
    }
}
