//! `catchess pgn check FILE`: replays every record of a PGN file, of any
//! variant, with the engine's own rules, and reports the first illegal
//! move of a game or a result the game does not support. A game whose
//! result is `*` is counted as unfinished: its moves are checked, and its
//! final position must not be over.

use catchess_core::files::read_bounded;
use catchess_game::pgn::record::{
    is_agreement, is_resignation, result_line, seat_of, standard_termination, winner_of_result,
};
use catchess_game::pgn::{self, PgnGame, ReplayError, Stop};
use catchess_game::{Arbitration, Notation, Seat};
use catchess_games::with_game;
use catchess_games::VariantKind;

/// What a check found.
pub struct CheckReport {
    pub games: usize,
    /// The games with result `*` (and no problem), by their number.
    pub unfinished: Vec<usize>,
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
    println!(
        "{} games checked, {} with problems, {} unfinished{}",
        report.games,
        report.problems.len(),
        report.unfinished.len(),
        match report.unfinished.as_slice() {
            [] => String::new(),
            games => format!(" (game {})", games.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")),
        }
    );
    match report.problems.len() {
        0 => Ok(()),
        n => Err(format!("{n} of {} games have problems", report.games)),
    }
}

/// Checks every game of `path`; its variant is its `Variant` tag, else
/// `default`.
pub fn check_file(path: &str, default: VariantKind) -> Result<CheckReport, String> {
    let text = read_bounded(path, catchess_game::pgn::MAX_PGN_BYTES).map_err(|e| format!("cannot read {path}: {e}"))?;
    let words = VariantKind::all_result_words();
    let games = pgn::read_all(&text, &words).map_err(|e| format!("{path}: {e}"))?;
    let mut problems = Vec::new();
    let mut unfinished = Vec::new();
    for (n, game) in games.iter().enumerate() {
        let verdict = match VariantKind::of_record(game.tag("Variant"), default) {
            Ok(variant) => with_game!(variant, G => check_game::<G>(game)),
            Err(e) => Err(e),
        };
        if verdict == Ok(Ended::Unfinished) {
            unfinished.push(n + 1);
        }
        if let Err(p) = verdict {
            let round = game.tag("Round").map(|r| format!(", Round {r}")).unwrap_or_default();
            problems.push(format!("{path}: game {} (line {}{round}): {p}", n + 1, game.line));
        }
    }
    Ok(CheckReport { games: games.len(), unfinished, problems })
}

/// How a sound record ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ended {
    /// With a result.
    Finished,
    /// With `*`: the game goes on.
    Unfinished,
}

/// How one game ends, or the first thing wrong with it.
pub fn check_game<G: Notation + Arbitration>(game: &PgnGame) -> Result<Ended, String> {
    let h = pgn::replay::<G>(game, Stop::AtEnd).map_err(|e: ReplayError| e.to_string())?;
    if let Some(count) = game.tag("PlyCount") {
        if count != h.turn_count().to_string() {
            return Err(format!("PlyCount {count} but {} moves", h.turn_count()));
        }
    }
    let result = game.tag("Result").or(game.result.as_deref()).unwrap_or("");
    if game.result.as_deref().is_some_and(|r| r != result) {
        return Err(format!("Result tag {result:?} but the moves end with {:?}", game.result.as_deref().unwrap_or("")));
    }
    if result == "*" {
        return match h.outcome() {
            Some(o) => Err(format!("result \"*\", but the final position is over ({})", o.reason.name())),
            None if game.tag("Termination") == Some("normal") => {
                Err("result \"*\", but Termination \"normal\"".to_string())
            }
            None => Ok(Ended::Unfinished),
        };
    }
    let named = game.tag("Winner");
    let Some(winner) = winner_of_result::<G>(result, named) else {
        return Err(match named {
            Some(w) => format!("result {result:?} with Winner {w:?} is not one of this variant's"),
            None => format!("result {result:?} is not one of this variant's"),
        });
    };
    // Older records have our words in Termination itself.
    let details = game.tag("TerminationDetails").or(game.tag("Termination")).unwrap_or("");
    let standard =
        game.tag("Termination")
            .map(|t| if game.tag("TerminationDetails").is_none() { standard_termination(t) } else { t });
    // The seats with a fault in the record (those that played on after
    // it, passing, are Cat Chess's cats: `Arbitration::forfeit_winner`).
    let faulted = |seat: Seat| {
        let prefix = format!("{} (", G::SEATS[seat.index()].name);
        game.tag("Faults").is_some_and(|f| f.split("; ").any(|x| x.starts_with(&prefix)))
    };
    match h.outcome() {
        Some(o) => {
            // A seat that faulted gets no win (the cats' win by a draw,
            // once they have faulted): the game's forfeit rule.
            let expected = G::winner_after_forfeits(o.winner, faulted);
            if winner != expected {
                return Err(format!(
                    "result {result:?}, but the final position is {} ({})",
                    result_line::<G>(expected),
                    o.reason.name()
                ));
            }
            if standard.is_some_and(|t| t != "normal") {
                return Err(format!("Termination {:?}, but the rules ended the game", standard.unwrap_or("")));
            }
        }
        None => {
            // A draw the seats agreed (the page's draw offer) is a draw as
            // the game rewards one: the cats' win in Cat Chess, unless
            // they faulted.
            if is_agreement(details) {
                let expected = G::winner_after_forfeits(G::draw_winner(), faulted);
                if winner != expected {
                    return Err(format!(
                        "result {result:?} after a draw by agreement, which is {}",
                        result_line::<G>(expected)
                    ));
                }
                return Ok(Ended::Finished);
            }
            // A resignation (the page's: `resignation by white`) ends a
            // game normally, as PGN says, before the rules do.
            if standard == Some("normal") && !is_resignation(details) {
                return Err(format!(
                    "Termination \"normal\", but the final position is not over: {}",
                    h.current().to_fen()
                ));
            }
            // A fault that ends the game gives it to the seat the game says
            // (`Arbitration::forfeit_winner`: in chess, the other of the two).
            if let Some((_, side)) = details.rsplit_once(" by ").filter(|_| !details.starts_with("adjudication")) {
                let expected = seat_of::<G>(side).and_then(|i| G::forfeit_winner(Seat::new(i)));
                if expected.is_some_and(|w| Some(w) != winner) {
                    return Err(format!("result {result:?} after {details:?}"));
                }
            }
        }
    }
    Ok(Ended::Finished)
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_games::{CatChess, Chess};

    fn ended<G: Notation + Arbitration>(text: &str) -> Result<Ended, String> {
        check_game::<G>(&pgn::read_all(text, &pgn::result_words::<G>()).unwrap()[0])
    }

    fn problem<G: Notation + Arbitration>(pgn: &str) -> Option<String> {
        ended::<G>(pgn).err()
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
        assert_eq!(p, "move 3... Ke6 comes after the game ended (checkmate)");
        // A crash by white gives the game to black, not white.
        let crash =
            "[Result \"1-0\"]\n[Termination \"abandoned\"]\n[TerminationDetails \"crash by white\"]\n\n1. e4 1-0\n";
        assert_eq!(problem::<Chess>(crash).unwrap(), "result \"1-0\" after \"crash by white\"");
        assert_eq!(problem::<Chess>(&crash.replace("1-0", "0-1")), None);
        // A resignation is a normal end; the other seat wins.
        let resigned =
            "[Result \"0-1\"]\n[Termination \"normal\"]\n[TerminationDetails \"resignation by white\"]\n\n1. e4 0-1\n";
        assert_eq!(problem::<Chess>(resigned), None);
        assert_eq!(
            problem::<Chess>(&resigned.replace("0-1", "1-0")).unwrap(),
            "result \"1-0\" after \"resignation by white\""
        );
        // A draw by agreement (the page's draw offer) is a normal end, a
        // draw; in Cat Chess the cats' win.
        let agreed = "[Result \"1/2-1/2\"]\n[Termination \"normal\"]\n[TerminationDetails \"draw by agreement\"]\n\n1. e4 1/2-1/2\n";
        assert_eq!(problem::<Chess>(agreed), None);
        assert_eq!(
            problem::<Chess>(&agreed.replace("1/2-1/2", "1-0")).unwrap(),
            "result \"1-0\" after a draw by agreement, which is 1/2-1/2"
        );
        let agreed_cats = agreed.replace("1. e4 1/2-1/2", "1. e2e4 e7e5 h5g4 1/2-1/2");
        assert_eq!(problem::<CatChess>(&agreed_cats.replace("[Result", "[Winner \"cats\"]\n[Result")), None);
        let p = problem::<CatChess>(&agreed_cats.replace("[Result", "[Winner \"draw\"]\n[Result")).unwrap();
        assert!(p.contains("after a draw by agreement, which is 1/2-1/2 cats"), "{p}");
        // Cat Chess: a draw by the rules is the cats' win (a draw after a cats fault).
        let p = problem::<CatChess>("[Termination \"normal\"]\n\n1. e2e4 e7e5 h5g4 1/2-1/2\n").unwrap();
        assert!(p.contains("not over"), "{p}");
    }

    /// Cat Chess records: `1/2-1/2` with `Winner "cats"` for a cats' win
    /// (also read without the tag, and in the older form `cats`); the
    /// `Winner` must agree with the result and the rules.
    #[test]
    fn cat_chess_results_in_the_standard_and_the_older_form() {
        let fifty = |result: &str, winner: &str| {
            format!(
                "[Result \"{result}\"]\n{winner}[FEN \"4k3/8/8/8/8/8/8/R3K2* w - - 98 80\"]\n\n80. a1a2 e8d8 h1h2 {result}\n"
            )
        };
        let cats = "[Winner \"cats\"]\n";
        assert_eq!(ended::<CatChess>(&fifty("1/2-1/2", cats)), Ok(Ended::Finished));
        assert_eq!(ended::<CatChess>(&fifty("1/2-1/2", "")), Ok(Ended::Finished));
        assert_eq!(ended::<CatChess>(&fifty("cats", "")), Ok(Ended::Finished));
        let p = problem::<CatChess>(&fifty("1/2-1/2", "[Winner \"white\"]\n")).unwrap();
        assert_eq!(p, "result \"1/2-1/2\" with Winner \"white\" is not one of this variant's");
        let p = problem::<CatChess>(&fifty("1-0", "")).unwrap();
        assert_eq!(p, "result \"1-0\", but the final position is 1/2-1/2 cats (fifty-move rule)");
        let p = problem::<CatChess>(&fifty("1/2-1/2", "[Winner \"draw\"]\n")).unwrap();
        assert!(p.contains("final position is 1/2-1/2 cats"), "{p}");
        let mate = |result: &str, winner: &str| {
            format!(
                "[Result \"{result}\"]\n{winner}[FEN \"6k1/5ppp/8/8/8/8/8/R3K2* w - - 0 80\"]\n\n80. a1a8 {result}\n"
            )
        };
        assert_eq!(ended::<CatChess>(&mate("1-0", "[Winner \"white\"]\n")), Ok(Ended::Finished));
        assert_eq!(ended::<CatChess>(&mate("white", "")), Ok(Ended::Finished));
        assert!(problem::<CatChess>(&mate("1/2-1/2", cats)).unwrap().contains("final position is 1-0 white"));
    }

    /// The game's forfeit rule (`Arbitration::winner_after_forfeits`): the
    /// cats, once they have faulted and passed on, get no win from a draw;
    /// white's fault would have ended the game, so white in `Faults` takes
    /// nothing from white's mate.
    #[test]
    fn a_seat_that_faulted_gets_no_win_from_a_draw() {
        let fifty = |winner: &str, faults: &str| {
            format!(
                "[Result \"1/2-1/2\"]\n[Winner \"{winner}\"]\n[Faults \"{faults}\"]\n\
                 [FEN \"4k3/8/8/8/8/8/8/R3K2* w - - 98 80\"]\n\n80. a1a2 e8d8 h1h2 1/2-1/2\n"
            )
        };
        let cats = "cats (x) time forfeit at ply 1: its clock ran out";
        assert_eq!(ended::<CatChess>(&fifty("draw", cats)), Ok(Ended::Finished));
        let p = problem::<CatChess>(&fifty("cats", cats)).unwrap();
        assert!(p.contains("final position is 1/2-1/2 draw"), "{p}");
        let mate = "[Result \"1-0\"]\n[Winner \"white\"]\n[Faults \"white (x) illegal move at ply 1: e2e5\"]\n\
                    [FEN \"6k1/5ppp/8/8/8/8/8/R3K2* w - - 0 80\"]\n\n80. a1a8 1-0\n";
        assert_eq!(ended::<CatChess>(mate), Ok(Ended::Finished));
    }

    /// `*`: an unfinished game, sound as long as the rules have not ended it.
    #[test]
    fn an_unfinished_game_is_not_a_problem() {
        assert_eq!(ended::<Chess>("[Result \"*\"]\n\n1. e4 e5 *\n"), Ok(Ended::Unfinished));
        assert_eq!(
            ended::<Chess>("[Result \"*\"]\n[Termination \"unterminated\"]\n\n1. e4 *\n"),
            Ok(Ended::Unfinished)
        );
        let p = problem::<Chess>("[Result \"*\"]\n\n1. f3 e5 2. g4 Qh4# *\n").unwrap();
        assert_eq!(p, "result \"*\", but the final position is over (checkmate)");
        let p = problem::<Chess>("[Result \"*\"]\n[Termination \"normal\"]\n\n1. e4 *\n").unwrap();
        assert_eq!(p, "result \"*\", but Termination \"normal\"");
    }
}
