//! `POST /api/games/<id>/join`: taking a seat by its link (issue #61).
//! The link's token joins an invited seat once: the joiner gets a new
//! token, which only they hold (the link is spent, so whoever else saw
//! it, the creator included, cannot play the seat). The token of a seat
//! joined already joins it again, unchanged: the same player on another
//! device. A seat open to anyone (listed in the open games, `lists.rs`)
//! is taken by naming it, without a token. Everyone watching sees the
//! seat joined (`live.rs`).

use super::error::{ApiError, Json};
use super::routes::{link, SeatToken};
use super::session::State;
use super::store::Changed;
use super::table::checked_name;
use super::App;
use axum::extract::{Path, State as AppState};
use axum::http::{HeaderMap, StatusCode};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The player's name, shown to everyone and written in the record.
    name: Option<String>,
    /// The seat to take: an open one (no token needed), or the token's.
    seat: Option<String>,
}

#[derive(Serialize)]
pub struct Joined {
    #[serde(flatten)]
    state: State,
    /// The seat joined.
    seat: &'static str,
    /// Its token now: what acts for it from here on.
    token: String,
    /// The seat's link with that token, to play it from another device.
    link: String,
}

pub async fn join(
    AppState(app): AppState<Arc<App>>,
    Path(id): Path<String>,
    SeatToken(token): SeatToken,
    headers: HeaderMap,
    Json(req): Json<JoinRequest>,
) -> Result<Json<Joined>, ApiError> {
    let name = checked_name(req.name.as_deref())?;
    let e = app.store.game(&id).await?;
    if e.table.is_none() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "this game is an analysis board, with no seats to join: anyone may move",
        ));
    }
    let seats = e.game.seats();
    let open = match &req.seat {
        Some(name) => Some(seats.iter().position(|s| s.name == name).ok_or_else(|| {
            let names: Vec<&str> = seats.iter().map(|s| s.name).collect();
            ApiError::bad_request(format!("{name:?} is not a seat of this game ({})", names.join(", ")))
        })?),
        None => None,
    };
    let (e, (seat, token)) = e
        .change_seated(
            |_, table, _| {
                let table = table.as_mut().expect("a table");
                table.join(seats, token.as_deref(), open, name)
            },
            |(_, _, changed)| if *changed { Changed::Table } else { Changed::Nothing },
        )
        .await
        .map(|(e, (seat, token, _))| (e, (seat, token)))?;
    let seat = e.game.seats()[seat].name;
    let link = link(&headers, &e.id, Some((seat, token.as_str())));
    Ok(Json(Joined { state: e.state(), seat, token: token.as_str().to_string(), link }))
}
