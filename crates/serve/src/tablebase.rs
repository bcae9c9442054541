//! The endgame tables' answer in a game's state (`serve --tb-dir`): the
//! result of the position in words, and of every legal move, for the
//! page's tablebase panel. Built from the search hooks every game has
//! (`table_result`, `table_move`), so it names no game: the tables exist
//! for Cat Chess and chess, and answer nothing elsewhere.

use catchess_game::{Game, MoveList, Seat};
use catchess_games::Playable;
use serde::Serialize;

/// What the tables say about a position that is not over.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct TablebaseView {
    /// The position's result under best play by every seat.
    pub result: ResultView,
    /// The tables' best move for the seat to move (protocol text).
    pub best: Option<String>,
    /// Every legal move with the result of the position it leads to, the
    /// mover's best results first: its fastest wins, the draw, its slowest
    /// losses (for the cats: the draw, then the slowest wins).
    pub moves: Vec<MoveResult>,
    /// What the results leave out.
    pub note: &'static str,
}

/// One result: who wins and in how many plies.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ResultView {
    /// The seat that mates (`white`, `black`), or `null` when nobody can
    /// force a mate (a draw: the cats' win in Cat Chess).
    pub winner: Option<&'static str>,
    /// Plies to the mate, every seat's moves counted (the cats' too); 0
    /// when the mate is on the board. `null` for a draw.
    pub plies: Option<u32>,
    /// The winner's own moves among those plies.
    pub moves: Option<u32>,
    /// The result for people: "white mates in 9 moves (25 plies) against
    /// best play by black and the cats", "the cats hold: nobody can force
    /// a mate", "the cats hold: the fifty-move rule ends the game before
    /// white's mate in 25 plies".
    pub words: String,
    /// The same, short, for a list of moves: "white mates in 9 moves (25
    /// plies)", "the cats hold", "the cats hold (fifty-move rule)".
    pub short: String,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct MoveResult {
    #[serde(rename = "move")]
    pub text: String,
    pub notation: String,
    /// What the move means for the seat that plays it: `win` (it mates,
    /// or the draw is its win: the cats'), `draw` (a draw that rewards
    /// nobody) or `loss` (another seat mates, or wins the draw), for the
    /// page's colours.
    pub for_mover: &'static str,
    #[serde(flatten)]
    pub result: ResultView,
}

/// Said wherever a table result is shown.
pub const NOTE: &str = "tablebase: every player plays perfectly; the fifty-move rule (beyond the half-move clock shown) and repetition are ignored";

/// The tables' answer for `pos`, if tables are loaded and cover it.
pub fn view<G: Playable>(pos: &G) -> Option<TablebaseView> {
    let (result, _) = result_view::<G>(pos)?;
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    let mut moves: Vec<(MoveResult, (u8, i64))> = list
        .iter()
        .filter_map(|&m| {
            let (result, winner) = result_view::<G>(&pos.play(m))?;
            let rank = match (winner, result.plies) {
                (Some(w), Some(plies)) if w == pos.to_move() => (0, plies as i64),
                (Some(_), Some(plies)) => (2, -(plies as i64)),
                _ => (1, 0),
            };
            let for_mover = match winner.or(G::draw_winner()) {
                Some(w) if w == pos.to_move() => "win",
                Some(_) => "loss",
                None => "draw",
            };
            Some((MoveResult { text: m.to_string(), notation: pos.record_move(m), for_mover, result }, rank))
        })
        .collect();
    moves.sort_by_key(|(_, rank)| *rank);
    let moves = moves.into_iter().map(|(m, _)| m).collect();
    Some(TablebaseView { result, best: pos.table_move().map(|m| m.to_string()), moves, note: NOTE })
}

/// The result of `pos` from the tables, in words, and its winner.
fn result_view<G: Playable>(pos: &G) -> Option<(ResultView, Option<Seat>)> {
    let (winner, plies) = pos.table_result()?;
    let name = |s: Seat| G::SEATS[s.index()].name;
    // A draw is the draw's winner (the cats, or nobody); a mate never is.
    let Some(winner) = winner.filter(|&w| Some(w) != G::draw_winner()) else {
        let draw = match G::draw_winner() {
            Some(s) => format!("the {} hold", name(s)),
            None => "a draw".to_string(),
        };
        let (words, short) = match pos.table_win_too_late() {
            Some((w, plies)) => (
                format!("{draw}: the fifty-move rule ends the game before {}'s mate in {plies} plies", name(w)),
                format!("{draw} (fifty-move rule)"),
            ),
            None => (format!("{draw}: nobody can force a mate"), draw),
        };
        return Some((ResultView { winner: None, plies: None, moves: None, words, short }, None));
    };
    let own = winner_moves::<G>(pos.to_move(), winner, plies);
    let others: Vec<String> = G::SEATS
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != winner.index())
        .map(|(_, s)| if s.name.ends_with('s') { format!("the {}", s.name) } else { s.name.to_string() })
        .collect();
    let (words, short) = if plies == 0 {
        (format!("{} has mated", name(winner)), format!("{} has mated", name(winner)))
    } else {
        let short = format!(
            "{} mates in {own} move{} ({plies} pl{})",
            name(winner),
            if own == 1 { "" } else { "s" },
            if plies == 1 { "y" } else { "ies" },
        );
        (format!("{short} against best play by {}", others.join(" and ")), short)
    };
    let view = ResultView { winner: Some(name(winner)), plies: Some(plies), moves: Some(own), words, short };
    Some((view, Some(winner)))
}

/// The winner's moves among the next `plies` plies from `seat`'s turn, the
/// seats moving in turn (as in every game the tables cover).
fn winner_moves<G: Game>(mut seat: Seat, winner: Seat, plies: u32) -> u32 {
    let mut n = 0;
    for _ in 0..plies {
        n += (seat == winner) as u32;
        seat = Seat::new((seat.index() + 1) % G::SEATS.len());
    }
    n
}
