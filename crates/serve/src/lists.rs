//! Finding games again (issue #61): `GET /api/games?ids=<id>,<id>,...`
//! answers a short summary of each game named (the page's "my games": the
//! games whose tokens a browser holds, with who plays, the result and the
//! dates, and the seats still waiting for a player), and which of them the
//! server no longer holds. `GET /api/games?open=true` lists the games
//! with a seat open to anyone (its creator's choice), newest first: the
//! open games waiting for players. No other game is listed: a game is
//! found by whoever holds its id.

use super::error::{ApiError, Json, Query};
use super::session::OutcomeView;
use super::store::{Entry, Store};
use super::table::{PlayerView, Table};
use super::App;
use axum::extract::State as AppState;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The most games one request asks about.
pub const MAX_IDS: usize = 200;

/// The most open games listed (the newest).
pub const MAX_OPEN: usize = 50;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Game ids, separated by commas.
    ids: Option<String>,
    /// The open games instead.
    #[serde(default)]
    open: bool,
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
    /// Those of them open to anyone (`POST join {"seat"}`).
    open_seats: Vec<&'static str>,
}

#[derive(Serialize)]
pub struct Summaries {
    games: Vec<Summary>,
    /// The ids asked about that the server does not hold (deleted, or
    /// never made).
    unknown: Vec<String>,
}

/// A game's summary.
fn summary(e: &Entry) -> Summary {
    let state = e.state();
    let seats = e.game.seats();
    let names = |seats_of: &dyn Fn(&Table) -> Vec<usize>| -> Vec<&'static str> {
        e.table.as_ref().map(|t| seats_of(t).into_iter().map(|i| seats[i].name).collect()).unwrap_or_default()
    };
    Summary {
        id: e.id.clone(),
        variant: state.variant,
        players: state.players,
        turn: state.turn,
        outcome: state.outcome,
        plies: state.moves.len(),
        created_ms: e.table.as_ref().map(|t| t.created_ms),
        updated_ms: e.changed_ms(),
        waiting_for: names(&|t| t.waiting().collect()),
        open_seats: names(&|t| t.open_seats().collect()),
    }
}

/// `GET /api/games?ids=...` or `?open=true`.
pub async fn summaries(
    AppState(app): AppState<Arc<App>>,
    Query(q): Query<ListQuery>,
) -> Result<Json<Summaries>, ApiError> {
    match (q.ids, q.open) {
        (Some(_), true) => Err(ApiError::bad_request("ask for ids or for the open games, not both")),
        (Some(ids), false) => named(&app, &ids).await,
        (None, true) => Ok(Json(Summaries { games: open(&app).await, unknown: Vec::new() })),
        (None, false) => Err(ApiError::bad_request(
            "name the games (?ids=<id>,<id>,...) or ask for the open ones (?open=true): the server lists no other",
        )),
    }
}

async fn named(app: &App, ids: &str) -> Result<Json<Summaries>, ApiError> {
    let ids: Vec<&str> = ids.split(',').map(str::trim).filter(|id| !id.is_empty()).collect();
    if ids.len() > MAX_IDS {
        return Err(ApiError::bad_request(format!("at most {MAX_IDS} ids at once, got {}", ids.len())));
    }
    let (mut games, mut unknown) = (Vec::new(), Vec::new());
    for id in ids {
        match app.store.game(id).await {
            Ok(e) => games.push(summary(&e)),
            Err(_) => unknown.push(id.to_string()),
        }
    }
    Ok(Json(Summaries { games, unknown }))
}

/// The games not over with a seat open to anyone, newest first.
async fn open(app: &App) -> Vec<Summary> {
    let mut found = Vec::new();
    for shared in app.store.all() {
        let Some(e) = Store::peek(shared).await else { continue };
        let created = e.table.as_ref().filter(|t| t.open_seats().next().is_some()).map(|t| t.created_ms);
        if let Some(created) = created.filter(|_| e.game.is_over().is_none()) {
            found.push((created, summary(&e)));
        }
    }
    found.sort_by_key(|(created, _)| std::cmp::Reverse(*created));
    found.into_iter().take(MAX_OPEN).map(|(_, s)| s).collect()
}
