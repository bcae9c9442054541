//! Take-backs (issue #61). On an analysis board `undo` takes back as it
//! always has. At a table a take-back is a seat's request (its token):
//!
//! * free when nobody else is asked: against the engine alone (the
//!   engine's moves since go with it), among the steps of the asker's own
//!   turn under way (a 10×10 pick taken back), or when the other people
//!   have not joined or have forfeited;
//! * otherwise it waits for every other person seated to consent
//!   (`POST answer {"accept": true}`, `consent.rs`); one refusal, or any
//!   move, withdraws it. The seats the creator kept are one person's (`Table::same_person`):
//!   one consent for them all, and none for a take-back of their own. While it waits the engine waits too (its search on the game
//!   stops, unplayed), so the position it was asked in stays. Every tab
//!   sees it asked and answered (`live.rs`); it is kept in the database
//!   with the game.

use super::consent;
use super::error::{ApiError, Json};
use super::routes::{check_seen, SeatToken};
use super::seated;
use super::session::State;
use super::store::Locked;
use super::table::{Proposal, ProposalKind};
use super::App;
use axum::extract::{Path, State as AppState};
use axum::http::StatusCode;
use serde::Deserialize;
use std::sync::Arc;

type Api<T> = Result<T, ApiError>;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct UndoRequest {
    /// How many moves (steps) to take back: by default 1 on an analysis
    /// board; at a table back to before the asker's last turn.
    plies: Option<usize>,
    /// The moves the asker's board showed, and its position (refused,
    /// 409, if the game is elsewhere now).
    ply: Option<usize>,
    fen: Option<String>,
}

fn conflict(message: String) -> ApiError {
    ApiError::conflict(message)
}

/// Takes back `plies` moves now, committed; the engine then plays if it
/// is to move.
pub async fn take_back_now(app: &Arc<App>, mut e: Locked, plies: usize) -> Api<Locked> {
    // At a table the engine's search on the old position is abandoned
    // (its move not played); on a board an analysis gives way, and the
    // engine's move is waited for.
    if e.table.is_some() {
        e.stop_search();
    }
    e.make_changeable()?;
    let (mut e, _) = e.change_when(|game, now| Ok(game.take_back(plies, now)), |taken| *taken > 0).await?;
    seated::kick(app, &mut e);
    Ok(e)
}

/// `POST /api/games/<id>/undo {"plies", "ply"}`: 200 with the state once
/// taken back, or at a table 202 with the request waiting for consent
/// (`proposal` in the state).
pub async fn undo(
    AppState(app): AppState<Arc<App>>,
    Path(id): Path<String>,
    SeatToken(token): SeatToken,
    Json(req): Json<UndoRequest>,
) -> Api<(StatusCode, Json<State>)> {
    let (e, _) = app.store.game(&id).await?.settle().await?;
    check_seen(&e, req.ply, req.fen.as_deref())?;
    let Some(table) = &e.table else {
        let e = take_back_now(&app, e, req.plies.unwrap_or(1)).await?;
        return Ok((StatusCode::OK, Json(e.state())));
    };
    let seats = e.game.seats();
    let by = table.seat_acting(token.as_deref(), "a take-back")?;
    let name = seats[by].name;
    if let Some(p) = table.proposal.as_ref().filter(|p| p.by != by || p.kind == ProposalKind::Draw) {
        return Err(conflict(format!(
            "{}'s {} waits for an answer first (POST answer)",
            seats[p.by].name,
            p.kind.noun()
        )));
    }
    let plies = req.plies.unwrap_or_else(|| e.game.plies_back_for(by)).min(e.game.plies());
    if plies == 0 {
        return Err(conflict(format!("{name} has no move to take back")));
    }
    let own_steps = e.game.to_move() == by && plies <= e.game.steps_under_way();
    let others = table.others(by, |seat| e.game.passes(seat));
    if own_steps || others.is_empty() {
        let e = take_back_now(&app, e, plies).await?;
        return Ok((StatusCode::OK, Json(e.state())));
    }
    let proposal = Proposal { kind: ProposalKind::TakeBack { plies }, by, at_ply: e.game.plies(), waiting: others };
    let e = consent::propose(e, proposal).await?;
    Ok((StatusCode::ACCEPTED, Json(e.state())))
}
