//! The engine's thinking shown or hidden during a game (issue #62), by a
//! person who plays alone against the engine: `POST
//! /api/games/<id>/thinking {"show": true}` with the person's seat token.
//! In a game with more than one person it stays as its creator chose:
//! showing one player the engine's view would help them against the
//! others. Kept with the table in the database and sent to every tab
//! (`live.rs`).

use super::error::{ApiError, Json};
use super::routes::SeatToken;
use super::session::State;
use super::store::{Changed, SearchKind};
use super::App;
use axum::extract::{Path, State as AppState};
use axum::http::StatusCode;
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThinkingRequest {
    show: bool,
}

/// `POST /api/games/<id>/thinking {"show"}`: the game's state after.
pub async fn set(
    AppState(app): AppState<Arc<App>>,
    Path(id): Path<String>,
    SeatToken(token): SeatToken,
    Json(req): Json<ThinkingRequest>,
) -> Result<Json<State>, ApiError> {
    let mut e = app.store.game(&id).await?;
    let Some(table) = &e.table else {
        return Err(ApiError::bad_request(
            "an analysis board always shows the engine's thinking; this is for a game with players",
        ));
    };
    table.seat_acting(token.as_deref(), "showing or hiding the engine's thinking")?;
    if !table.one_person() {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "this game has more than one person: showing one of them the engine's view would help them against \
             the others, so the engine's thinking stays as the game's creator chose",
        ));
    }
    // An analysis on the game ends with the thinking hidden.
    if !req.show && e.running().is_some_and(|r| r.kind == SearchKind::Analysis) {
        e.stop_search();
    }
    let (e, _changed) = e
        .change_seated(
            |_, table, _| {
                let table = table.as_mut().expect("a table, checked above");
                let changed = table.show_thinking != req.show;
                table.show_thinking = req.show;
                Ok(changed)
            },
            |changed| if *changed { Changed::Table } else { Changed::Nothing },
        )
        .await?;
    Ok(Json(e.state()))
}
