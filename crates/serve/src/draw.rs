//! Draw offers (issue #61). At a table, a seat's player offers a draw
//! with its token (`POST /api/games/<id>/draw`); the game ends in a draw
//! by agreement once every other seat has agreed:
//!
//! * an engine seat answers at once, by one rule ([`engine_accepts`]): it
//!   agrees when the draw is its win (Cat Chess's cats: any draw is
//!   theirs) or when the endgame tables show it cannot win; elsewhere it
//!   plays on and the offer is refused, saying so;
//! * the other people answer with `POST answer` (the consent of
//!   `consent.rs`, as for a take-back); one refusal, or any move, withdraws
//!   the offer, and the engine waits while they decide.
//!
//! A draw is the game's own: in Cat Chess it is the cats' win, so white's
//! offer asks black and the cats, and the cats' asks white and black to
//! give up their mates. It is kept with the game ([`Agreement`]), written
//! in the record as `draw by agreement`, and taken back as one step.

use super::consent;
use super::error::{ApiError, Json};
use super::forfeit::{self, Ending, Forfeit};
use super::routes::{check_seen, SeatToken};
use super::session::State;
use super::table::{Proposal, ProposalKind};
use super::App;
use axum::extract::{Path, State as AppState};
use axum::http::StatusCode;
use catchess_game::{Arbitration, Outcome, Reason, Seat};
use catchess_games::Playable;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A draw the seats agreed, after `ply` moves: it ended the game there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Agreement {
    pub ply: usize,
}

/// How an agreed draw ends the game: a draw as the game rewards one
/// (`Game::draw_winner`: the cats in Cat Chess), which rewards nobody
/// once that seat has forfeited (`Arbitration::winner_after_forfeits`).
pub fn ending<G: Arbitration>(forfeits: &[Forfeit]) -> Ending {
    let winner = G::winner_after_forfeits(G::draw_winner(), |seat| forfeit::passes(forfeits, seat));
    Ending { outcome: Outcome::new(winner, Reason::AGREEMENT), termination: Reason::AGREEMENT.name().to_string() }
}

/// Whether the engine playing `seat` agrees to a draw in `pos`: when the
/// draw is its win, or the endgame tables cover the position and say it
/// cannot win (a draw then costs it nothing). Without the tables it
/// plays on: a search's score is no proof, and an engine that took draws
/// by its score would let a losing person escape.
pub fn engine_accepts<G: Playable>(pos: &G, seat: usize) -> bool {
    let seat = Seat::new(seat);
    G::draw_winner() == Some(seat) || pos.table_result().is_some_and(|(winner, _)| winner != Some(seat))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct OfferRequest {
    /// The moves the offerer's board showed, and its position (refused,
    /// 409, if the game is elsewhere now).
    ply: Option<usize>,
    fen: Option<String>,
}

/// `POST /api/games/<id>/draw {"ply", "fen"}`: a seat offers a draw. 200
/// with the state when it is agreed at once (every other seat an engine
/// that agrees, or nobody else seated), 202 with the offer waiting for
/// the people's consent (`proposal` in the state), 409 when an engine
/// seat plays on.
pub async fn offer(
    AppState(app): AppState<Arc<App>>,
    Path(id): Path<String>,
    SeatToken(token): SeatToken,
    Json(req): Json<OfferRequest>,
) -> Result<(StatusCode, Json<State>), ApiError> {
    let (e, _) = app.store.game(&id).await?.settle().await?;
    check_seen(&e, req.ply, req.fen.as_deref())?;
    let Some(table) = &e.table else {
        return Err(ApiError::conflict(
            "an analysis board has nobody to agree a draw with: its seats are anyone's; play at a table (players)",
        ));
    };
    let seats = e.game.seats();
    let by = table.seat_acting(token.as_deref(), "a draw offer")?;
    let name = seats[by].name;
    if let Some(over) = e.game.is_over() {
        return Err(ApiError::conflict(format!("the game is over: {over}")));
    }
    if e.game.passes(by) {
        return Err(ApiError::conflict(format!("{name} has forfeited and passes: it has no draw to offer")));
    }
    if let Some(p) = &table.proposal {
        return Err(ApiError::conflict(format!(
            "{}'s {} waits for an answer first (POST answer)",
            seats[p.by].name,
            p.kind.noun()
        )));
    }
    let engines = (0..seats.len()).filter(|&s| s != by && !e.game.passes(s));
    for seat in engines {
        let Some(level) = table.engine_level(seat) else { continue };
        if !e.game.engine_accepts_draw(seat) {
            return Err(ApiError::conflict(format!(
                "{} (the engine, level {level}) plays on: the engine agrees to a draw only when the draw is its \
                 win or the endgame tables show it cannot win",
                seats[seat].name
            )));
        }
    }
    let others = table.others(by, |seat| e.game.passes(seat));
    if others.is_empty() {
        let e = consent::agree_draw(&app, e).await?;
        return Ok((StatusCode::OK, Json(e.state())));
    }
    let proposal = Proposal { kind: ProposalKind::Draw, by, at_ply: e.game.plies(), waiting: others };
    let e = consent::propose(e, proposal).await?;
    Ok((StatusCode::ACCEPTED, Json(e.state())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_games::{CatChess, Chess};

    #[test]
    fn an_agreed_draw_is_the_game_s_draw_and_nobody_s_once_its_winner_forfeited() {
        let chess = ending::<Chess>(&[]);
        assert_eq!((chess.outcome.winner, chess.termination.as_str()), (None, "draw by agreement"));
        let cats = ending::<CatChess>(&[]);
        assert_eq!(cats.outcome.winner, Some(Seat::new(2)), "in Cat Chess a draw is the cats' win");
        let gone = [Forfeit { seat: 2, ply: 3, why: forfeit::Why::Resignation }];
        assert_eq!(ending::<CatChess>(&gone).outcome.winner, None);
    }

    #[test]
    fn without_tables_only_the_cats_engine_takes_a_draw() {
        let pos = CatChess::startpos();
        assert_eq!((0..3).map(|s| engine_accepts(&pos, s)).collect::<Vec<_>>(), [false, false, true]);
        let pos = Chess::startpos();
        assert!(!engine_accepts(&pos, 0) && !engine_accepts(&pos, 1));
    }
}
