//! Labelled positions for tuning: quiet positions from game records, each
//! with its game's result.

use catchess_core::files::read_bounded;
use catchess_game::pgn::record::Score;
use catchess_game::pgn::record::{read_move_comment, winner_of_result};
use catchess_game::pgn::{self, Stop};
use catchess_game::{Arbitration, Goal, MoveList, Notation};
use catchess_search::evaluate::Trace;
use catchess_search::{perspective, SearchGame};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

/// One position: what the fit reads of it (by default how its evaluation
/// depends on the weights), and its game's result from the first seat's
/// view (1 won, 0 lost, 1/2 anything else).
pub struct Sample<T = Trace> {
    pub input: T,
    pub result: f64,
    /// The score (centipawns, first seat's view) the mover's search gave
    /// the move played here, if the record has it and it is not a mate.
    pub score: Option<f64>,
    /// What the fit predicts: the result, or a blend of it with the score.
    pub target: f64,
    /// Which game it comes from (numbered across every file read).
    pub game: usize,
}

/// What was read, and what was left out and why.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Harvest {
    pub games: usize,
    /// Records left out: unfinished (`*`), or not replayable.
    pub skipped_games: usize,
    /// Records left out as repeats of one read before (the same start and
    /// moves: an engine playing itself at a fixed node count plays each
    /// opening's game twice, once per seating).
    pub repeated_games: usize,
    /// Games read (neither left out nor repeats).
    pub read_games: usize,
    pub positions: usize,
}

/// Which positions of a game are kept.
#[derive(Clone, Copy, Debug)]
pub struct Filter {
    /// Plies of each game left out from its start (the opening, often random).
    pub skip_plies: usize,
}

/// Appends the quiet positions of every game in `path` to `samples`, the
/// games it reads numbered on from `first_game`; `seen` holds the games read so far
/// (hashes of start and moves), and a game already there is left out.
/// `input` says what a sample keeps of its position (`None`: leave it out).
pub fn read_records<G: SearchGame + Notation + Arbitration, T>(
    path: &str,
    filter: Filter,
    first_game: usize,
    seen: &mut HashSet<u64>,
    samples: &mut Vec<Sample<T>>,
    input: impl Fn(&G) -> Option<T>,
) -> Result<Harvest, String> {
    let text = read_bounded(path, catchess_game::pgn::MAX_PGN_BYTES).map_err(|e| format!("cannot read {path}: {e}"))?;
    let games = pgn::read_all(&text, &pgn::result_words::<G>()).map_err(|e| format!("{path}: {e}"))?;
    let mut harvest = Harvest::default();
    for game in &games {
        harvest.games += 1;
        let result = game.tag("Result").or(game.result.as_deref()).unwrap_or("*");
        let label = match winner_of_result::<G>(result, game.tag("Winner")) {
            Some(Some(seat)) => match G::SEATS[seat.index()].goal {
                Goal::Maximise => 1.0,
                Goal::Minimise => 0.0,
                Goal::NearZero => 0.5,
            },
            Some(None) => 0.5,
            None => {
                harvest.skipped_games += 1;
                continue;
            }
        };
        let mut hasher = DefaultHasher::new();
        (game.tag("FEN"), game.move_texts().collect::<Vec<_>>()).hash(&mut hasher);
        if !seen.insert(hasher.finish()) {
            harvest.repeated_games += 1;
            continue;
        }
        let Ok(history) = pgn::replay::<G>(game, Stop::AtEnd) else {
            harvest.skipped_games += 1;
            continue;
        };
        let mut scores = vec![None; game.moves.len()];
        for (i, text) in &game.comments {
            scores[*i] = comment_score(text);
        }
        let mut kept = Vec::new();
        for (ply, (pos, _)) in history.turns().into_iter().enumerate().skip(filter.skip_plies) {
            if let Some(input) = is_quiet(pos).then(|| input(pos)).flatten() {
                let score = scores[ply].map(|cp| cp * f64::from(perspective(pos)));
                kept.push(Sample { input, result: label, score, target: label, game: first_game + harvest.read_games });
            }
        }
        harvest.read_games += 1;
        harvest.positions += kept.len();
        samples.extend(kept);
    }
    Ok(harvest)
}

/// The centipawns of a `catchess match` move comment (`+0.35/12 0.051s`,
/// the mover's view: `record::read_move_comment`); `None` for a mate
/// (`+M3`) or no score.
pub fn comment_score(text: &str) -> Option<f64> {
    match read_move_comment(text).0.score {
        Some(Score::Cp(cp)) => Some(cp as f64),
        _ => None,
    }
}

/// Whether the static value of a position stands for its value: a white
/// or black (not a near-zero seat's) turn, not in check, with no capture
/// or promotion that wins or trades material (static exchange), the game
/// not over.
pub fn is_quiet<G: SearchGame>(pos: &G) -> bool {
    if G::SEATS[pos.to_move().index()].goal == Goal::NearZero || pos.in_check() || !pos.static_value_holds() {
        return false;
    }
    let mut tactical = MoveList::default();
    pos.tactical_moves(&mut tactical);
    !tactical.iter().any(|&m| pos.see_ge(m, 0)) && pos.position_outcome(false).is_none()
}

#[cfg(test)]
mod tests {
    use super::comment_score;

    #[test]
    fn scores_are_read_from_move_comments() {
        assert_eq!(comment_score("+0.35/12 0.051s"), Some(35.0));
        assert_eq!(comment_score("-3.02/7 0.004s"), Some(-302.0));
        assert_eq!(comment_score("+M3/9 0.010s"), None);
        assert_eq!(comment_score("depth 7 0.004s"), None);
        assert_eq!(comment_score("0.004s"), None);
        assert_eq!(comment_score("opening: 8 random plies"), None);
    }
}
