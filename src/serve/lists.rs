//! Finding games again (issue #61): `GET /api/games?ids=<id>,<id>,...`
//! answers a short summary of each game named (the page's "my games": the
//! games whose tokens a browser holds, with who plays, the result and the
//! dates; and those still waiting for a player), and which of them the
//! server no longer holds. The server lists no game by itself: a game is
//! found by whoever holds its id.

use super::error::{ApiError, Json, Query};
use super::session::OutcomeView;
use super::table::PlayerView;
use super::App;
use axum::extract::State as AppState;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The most games one request asks about.
pub const MAX_IDS: usize = 200;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Game ids, separated by commas.
    ids: Option<String>,
}

#[derive(Serialize)]
pub struct Summary {
    id: String,
    variant: &'static str,
    players: Option<BTreeMap<&'static str, PlayerView>>,
    turn: &'static str,
    outcome: Option<OutcomeView>,
    /// The moves played.
    plies: usize,
    /// When it was made (at a table) and last changed (ms since the epoch).
    created_ms: Option<u64>,
    updated_ms: u64,
    /// The seats waiting for their player.
    waiting_for: Vec<&'static str>,
}

#[derive(Serialize)]
pub struct Summaries {
    games: Vec<Summary>,
    /// The ids asked about that the server does not hold (deleted, or
    /// never made).
    unknown: Vec<String>,
}

/// `GET /api/games?ids=...`.
pub async fn summaries(
    AppState(app): AppState<Arc<App>>,
    Query(q): Query<ListQuery>,
) -> Result<Json<Summaries>, ApiError> {
    let Some(ids) = q.ids else {
        return Err(ApiError::bad_request("name the games: ?ids=<id>,<id>,... (the server lists no game by itself)"));
    };
    let ids: Vec<&str> = ids.split(',').map(str::trim).filter(|id| !id.is_empty()).collect();
    if ids.len() > MAX_IDS {
        return Err(ApiError::bad_request(format!("at most {MAX_IDS} ids at once, got {}", ids.len())));
    }
    let (mut games, mut unknown) = (Vec::new(), Vec::new());
    for id in ids {
        let Ok(e) = app.store.game(id).await else {
            unknown.push(id.to_string());
            continue;
        };
        let state = e.state();
        let seats = e.game.seats();
        games.push(Summary {
            id: e.id.clone(),
            variant: state.variant,
            players: state.players,
            turn: state.turn,
            outcome: state.outcome,
            plies: state.moves.len(),
            created_ms: e.table.as_ref().map(|t| t.created_ms),
            updated_ms: e.changed_ms(),
            waiting_for: e.table.as_ref().map(|t| t.waiting().map(|i| seats[i].name).collect()).unwrap_or_default(),
        });
    }
    Ok(Json(Summaries { games, unknown }))
}
