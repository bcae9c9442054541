//! The JSON API (api.md) and the page.

use super::error::{ApiError, Json, Query};
use super::session::{self, Found, State};
use super::store::{lock, Event, Running, SearchKind, Shared};
use super::App;
use crate::game::Notation;
use crate::games::{with_game, VariantKind};
use crate::search::{Limits, SearchControl};
use axum::extract::{Path, State as AppState};
use axum::http::{header, StatusCode};
use axum::response::sse::{self, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream};
use serde::{Deserialize, Serialize};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, oneshot};

type Api<T> = Result<T, ApiError>;

pub async fn page() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], include_str!("page/index.html"))
}

pub async fn script() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("page/app.js"))
}

pub async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], include_str!("page/style.css"))
}

fn variant(name: Option<&str>) -> Api<VariantKind> {
    match name {
        Some(name) => name.parse().map_err(ApiError::bad_request),
        None => Ok(VariantKind::CatChess),
    }
}

#[derive(Serialize)]
pub struct VariantView {
    name: &'static str,
    layout: crate::game::view::Layout,
}

/// `GET /api/variants`: every game and how to draw it.
pub async fn variants() -> Json<Vec<VariantView>> {
    Json(VariantKind::ALL.iter().map(|&v| VariantView { name: v.name(), layout: session::layout(v) }).collect())
}

/// `GET /api/variants/<name>`: one game's board description.
pub async fn variant_layout(Path(name): Path<String>) -> Api<Json<crate::game::view::Layout>> {
    Ok(Json(session::layout(variant(Some(&name))?)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    variant: Option<String>,
    fen: Option<String>,
    pgn: Option<String>,
}

/// `POST /api/games`: a new game from the start, a FEN or a PGN record.
pub async fn create(AppState(app): AppState<Arc<App>>, Json(req): Json<NewGame>) -> Api<(StatusCode, Json<State>)> {
    let kind = variant(req.variant.as_deref())?;
    let hash = app.config.hash_mb;
    let game = match (&req.fen, &req.pgn) {
        (Some(_), Some(_)) => return Err(ApiError::bad_request("give a fen or a pgn, not both")),
        (_, Some(pgn)) => session::import(pgn, kind, hash)?,
        (fen, None) => session::new_game(kind, fen.as_deref(), hash)?,
    };
    let (id, entry) = app.store.insert(game)?;
    let state = lock(&entry).game.state(id);
    Ok((StatusCode::CREATED, Json(state)))
}

/// `GET /api/games/<id>`.
pub async fn get(AppState(app): AppState<Arc<App>>, Path(id): Path<String>) -> Api<Json<State>> {
    let (id, entry) = app.store.get(&id)?;
    let state = lock(&entry).game.state(id);
    Ok(Json(state))
}

/// `DELETE /api/games/<id>`.
pub async fn delete(AppState(app): AppState<Arc<App>>, Path(id): Path<String>) -> Api<StatusCode> {
    app.store.remove(&id)?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
}

/// `POST /api/games/<id>/moves`: plays a move (protocol text).
pub async fn play(
    AppState(app): AppState<Arc<App>>,
    Path(id): Path<String>,
    Json(req): Json<MoveRequest>,
) -> Api<Json<State>> {
    let (id, entry) = app.store.get(&id)?;
    let mut e = lock(&entry);
    e.make_changeable()?;
    e.game.play(&req.text)?;
    e.changed();
    Ok(Json(e.game.state(id)))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct UndoRequest {
    plies: Option<usize>,
}

/// `POST /api/games/<id>/undo`: takes back `plies` moves (default 1).
pub async fn undo(
    AppState(app): AppState<Arc<App>>,
    Path(id): Path<String>,
    Json(req): Json<UndoRequest>,
) -> Api<Json<State>> {
    let (id, entry) = app.store.get(&id)?;
    let mut e = lock(&entry);
    e.make_changeable()?;
    if e.game.take_back(req.plies.unwrap_or(1)) > 0 {
        e.changed();
    }
    Ok(Json(e.game.state(id)))
}

/// `GET /api/games/<id>/pgn?white=Person&black=...`: the query names
/// the players by seat.
pub async fn pgn(
    AppState(app): AppState<Arc<App>>,
    Path(id): Path<String>,
    Query(players): Query<std::collections::HashMap<String, String>>,
) -> Api<Json<serde_json::Value>> {
    let (_, entry) = app.store.get(&id)?;
    let text = lock(&entry).game.pgn(&players)?;
    Ok(Json(serde_json::json!({ "pgn": text })))
}

/// How long or deep a search may go, as a request gives it.
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
pub struct SearchRequest {
    movetime: Option<u64>,
    depth: Option<u32>,
    /// Analysis stream only: follow every search on the game instead of
    /// starting one.
    #[serde(default)]
    follow: bool,
}

impl SearchRequest {
    /// The search limits, within the server's caps.
    fn limits(&self, app: &App) -> Api<Limits> {
        let c = &app.config;
        if let Some(ms) = self.movetime {
            if ms == 0 || ms > c.max_movetime_ms {
                return Err(ApiError::bad_request(format!(
                    "movetime must be 1..={} ms (the server's cap), got {ms}",
                    c.max_movetime_ms
                )));
            }
        }
        if let Some(d) = self.depth {
            if d == 0 || d > c.max_depth {
                return Err(ApiError::bad_request(format!(
                    "depth must be 1..={} (the server's cap), got {d}",
                    c.max_depth
                )));
            }
        }
        // Depth alone is still bounded in time, by the cap.
        let movetime = match (self.movetime, self.depth) {
            (None, None) => c.default_movetime_ms.min(c.max_movetime_ms),
            (ms, _) => ms.unwrap_or(c.max_movetime_ms),
        };
        Ok(Limits { depth: self.depth, movetime: Some(Duration::from_millis(movetime)), ..Limits::default() })
    }
}

/// Starts a search on the game (the caller holds its lock): its events go
/// to the game's stream, and `on_found` gets the result after an engine
/// search has played its move.
fn start_search(
    app: &App,
    shared: &Shared,
    e: &mut super::store::Entry,
    kind: SearchKind,
    limits: Limits,
    on_found: Option<oneshot::Sender<(Found, bool)>>,
) -> Api<u64> {
    if let Some(over) = e.game.is_over() {
        return Err(ApiError::conflict(format!("the game is over: {over}")));
    }
    e.make_changeable()?;
    let search = app.store.next_search_id();
    let control = Arc::new(SearchControl::new());
    e.search = Some(Running { id: search, kind, control: control.clone() });
    let generation = e.generation;
    let _ = e.events.send(Event::Start { search, kind, fen: e.game.state(0).fen });
    let events = e.events.clone();
    let on_info = Box::new(move |info| {
        let _ = events.send(Event::Info { search, info });
    });
    let shared = shared.clone();
    let on_done = Box::new(move |found: Found| {
        let mut e = lock(&shared);
        let current = e.search.as_ref().is_some_and(|r| r.id == search);
        let mut played = false;
        if kind == SearchKind::Engine && current && e.generation == generation {
            if let Some(best) = &found.best {
                played = e.game.play(best).is_ok();
                e.changed();
            }
        }
        if current {
            e.search = None;
        }
        // The game is unlocked before anyone hears of the end, so a client
        // acting on `done` finds it idle (the store evicts idle games only).
        let events = e.events.clone();
        drop(e);
        let _ = events.send(Event::Done { search, kind, played, found: found.clone() });
        if let Some(tx) = on_found {
            let _ = tx.send((found, played));
        }
    });
    e.game.search(limits, control, on_info, on_done);
    Ok(search)
}

#[derive(Serialize)]
pub struct EngineMove {
    #[serde(flatten)]
    state: State,
    engine: Found,
}

/// `POST /api/games/<id>/engine`: the engine moves for the seat to move.
pub async fn engine(
    AppState(app): AppState<Arc<App>>,
    Path(id): Path<String>,
    Json(req): Json<SearchRequest>,
) -> Api<Json<EngineMove>> {
    let limits = req.limits(&app)?;
    let (id, entry) = app.store.get(&id)?;
    let (tx, rx) = oneshot::channel();
    start_search(&app, &entry, &mut lock(&entry), SearchKind::Engine, limits, Some(tx))?;
    let (found, played) = rx.await.map_err(|_| ApiError::conflict("the search was abandoned"))?;
    if !played {
        return Err(ApiError::conflict("the game changed while the engine was thinking; its move was not played"));
    }
    let state = lock(&entry).game.state(id);
    Ok(Json(EngineMove { state, engine: found }))
}

/// `POST /api/games/<id>/stop`: stops the running search (an engine
/// search then plays the best move found so far).
pub async fn stop(AppState(app): AppState<Arc<App>>, Path(id): Path<String>) -> Api<StatusCode> {
    let (_, entry) = app.store.get(&id)?;
    if let Some(r) = &lock(&entry).search {
        r.control.stop();
    }
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/games/<id>/analysis`: an event stream (SSE) of the search on
/// the game: the running one, or else a new analysis within the limits
/// asked for; it ends with the search's `done`. With `follow=true` it
/// starts nothing and carries every search on the game until the client
/// leaves.
pub async fn analysis(
    AppState(app): AppState<Arc<App>>,
    Path(id): Path<String>,
    Query(req): Query<SearchRequest>,
) -> Api<Response> {
    let limits = req.limits(&app)?;
    let (_, entry) = app.store.get(&id)?;
    let receiver = {
        let mut e = lock(&entry);
        let receiver = e.events.subscribe();
        if !req.follow && e.search.is_none() {
            start_search(&app, &entry, &mut e, SearchKind::Analysis, limits, None)?;
        }
        receiver
    };
    let stream = events(receiver, !req.follow);
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(10))).into_response())
}

/// The events of a game's channel as SSE events; ends with the first
/// `done` when `once`, else when the game is gone.
fn events(
    receiver: broadcast::Receiver<Event>,
    once: bool,
) -> impl Stream<Item = Result<sse::Event, Infallible>> + Send {
    stream::unfold((receiver, false), move |(mut rx, finished)| async move {
        if finished {
            return None;
        }
        loop {
            match rx.recv().await {
                Ok(event) => {
                    let last = once && matches!(event, Event::Done { .. });
                    let sse = sse::Event::default()
                        .event(event.name())
                        .data(serde_json::to_string(&event).unwrap_or_else(|_| "{}".into()));
                    return Some((Ok(sse), (rx, last)));
                }
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerftRequest {
    variant: Option<String>,
    fen: Option<String>,
    depth: u32,
}

#[derive(Serialize)]
pub struct PerftAnswer {
    variant: &'static str,
    fen: String,
    depth: u32,
    nodes: u64,
    /// The count below each legal move.
    divide: Vec<(String, u64)>,
}

/// `GET /api/perft?variant=&fen=&depth=`: leaf counts, on a blocking thread.
pub async fn perft(AppState(app): AppState<Arc<App>>, Query(req): Query<PerftRequest>) -> Api<Json<PerftAnswer>> {
    let kind = variant(req.variant.as_deref())?;
    let max = app.config.max_perft_depth;
    if req.depth > max {
        return Err(ApiError::bad_request(format!("depth must be 0..={max} (the server's cap), got {}", req.depth)));
    }
    let depth = req.depth;
    let fen = req.fen;
    let work = move || -> Api<PerftAnswer> {
        with_game!(kind, G => {
            let pos = match &fen {
                Some(f) => G::from_fen(f).map_err(|e| ApiError::unprocessable(e.to_string()))?,
                None => G::startpos(),
            };
            let divide: Vec<(String, u64)> =
                crate::perft::divide(&pos, depth).into_iter().map(|(steps, n)| (pos.turn_text(&steps), n)).collect();
            let nodes = if depth == 0 { 1 } else { divide.iter().map(|(_, n)| n).sum() };
            Ok(PerftAnswer { variant: kind.name(), fen: pos.to_fen(), depth, nodes, divide })
        })
    };
    let answer = tokio::task::spawn_blocking(work)
        .await
        .map_err(|_| ApiError::unprocessable("perft failed on this position"))??;
    Ok(Json(answer))
}
