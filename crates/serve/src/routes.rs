//! The JSON API (api.md) and the page.

use super::clients::Client;
use super::clock::TimeControl;
use super::error::{ApiError, Json, Query};
use super::forfeit::Why;
use super::levels;
use super::seated;
use super::session::{self, Found, PositionView, Start, State};
use super::store::{Entry, Event, Running, SearchKind};
use super::table::{PlayerRequest, Table};
use super::App;
use axum::extract::{FromRequestParts, Path, State as AppState};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::sse::{self, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use catchess_game::Notation;
use catchess_games::{with_game, VariantKind};
use catchess_search::{Limits, SearchControl, Strength};
use futures_util::stream::{self, Stream};
use serde::{Deserialize, Serialize};
use std::cell::Cell;
use std::collections::{BTreeMap, HashMap};
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, oneshot, watch, OwnedSemaphorePermit};

type Api<T> = Result<T, ApiError>;

const HTML: &str = "text/html; charset=utf-8";

pub async fn page() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, HTML)], include_str!("page/index.html"))
}

/// `GET /rules`: every game's rules on one page (`#catchess`, `#chess`,
/// `#xiangqi`, `#catschess10`), the same panels the board's Rules button
/// opens (`page/rules.js`).
pub async fn rules_page() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, HTML)], include_str!("page/rules.html"))
}

const JS: &str = "text/javascript; charset=utf-8";

/// The page's files besides `index.html`, embedded in the binary: name,
/// content type, bytes.
const PAGE_FILES: &[(&str, &str, &[u8])] = &[
    ("style.css", "text/css; charset=utf-8", include_bytes!("page/style.css")),
    ("app.js", JS, include_bytes!("page/app.js")),
    ("api.js", JS, include_bytes!("page/api.js")),
    ("pieces.js", JS, include_bytes!("page/pieces.js")),
    ("board.js", JS, include_bytes!("page/board.js")),
    ("steps.js", JS, include_bytes!("page/steps.js")),
    ("seats.js", JS, include_bytes!("page/seats.js")),
    ("movelist.js", JS, include_bytes!("page/movelist.js")),
    ("clock.js", JS, include_bytes!("page/clock.js")),
    ("analysis.js", JS, include_bytes!("page/analysis.js")),
    ("tablebase.js", JS, include_bytes!("page/tablebase.js")),
    ("table.js", JS, include_bytes!("page/table.js")),
    ("players.js", JS, include_bytes!("page/players.js")),
    ("lobby.js", JS, include_bytes!("page/lobby.js")),
    ("live.js", JS, include_bytes!("page/live.js")),
    ("rules.js", JS, include_bytes!("page/rules.js")),
    ("rulespage.js", JS, include_bytes!("page/rulespage.js")),
    ("dialogs.js", JS, include_bytes!("page/dialogs.js")),
    ("turnwords.js", JS, include_bytes!("page/turnwords.js")),
    ("recent.js", JS, include_bytes!("page/recent.js")),
    ("boardwords.js", JS, include_bytes!("page/boardwords.js")),
    // The xiangqi characters (a subset of Noto Serif CJK, SIL OFL 1.1:
    // page/fonts/LICENSE-OFL.txt).
    ("xiangqi.woff2", "font/woff2", include_bytes!("page/fonts/xiangqi.woff2")),
];

/// `GET /<file>`: one of the page's files.
pub async fn page_file(Path(name): Path<String>) -> Api<impl IntoResponse> {
    let (_, kind, bytes) = PAGE_FILES
        .iter()
        .find(|(n, _, _)| *n == name)
        .ok_or_else(|| ApiError::not_found("no such route (the API is described in api.md)"))?;
    Ok(([(header::CONTENT_TYPE, *kind)], *bytes))
}

fn variant(name: Option<&str>) -> Api<VariantKind> {
    match name {
        Some(name) => name.parse().map_err(ApiError::bad_request),
        None => Ok(catchess_engine::defaults::OWN_GAME),
    }
}

#[derive(Serialize)]
pub struct VariantView {
    name: &'static str,
    layout: catchess_game::view::Layout,
}

/// `GET /api/variants`: every game and how to draw it.
pub async fn variants() -> Json<Vec<VariantView>> {
    Json(VariantKind::ALL.iter().map(|&v| VariantView { name: v.name(), layout: session::layout(v) }).collect())
}

/// `GET /api/variants/<name>`: one game's board description.
pub async fn variant_layout(Path(name): Path<String>) -> Api<Json<catchess_game::view::Layout>> {
    Ok(Json(session::layout(variant(Some(&name))?)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiagramQuery {
    fen: String,
    /// Moves (or steps) played from `fen` first, separated by spaces.
    #[serde(default)]
    moves: String,
}

/// `GET /api/variants/<name>/board?fen=&moves=`: a position drawn, for the
/// rules' diagrams (`session::diagram`).
pub async fn diagram(Path(name): Path<String>, Query(q): Query<DiagramQuery>) -> Api<Json<session::Diagram>> {
    let moves: Vec<&str> = q.moves.split_ascii_whitespace().collect();
    Ok(Json(session::diagram(variant(Some(&name))?, &q.fen, &moves)?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    variant: Option<String>,
    fen: Option<String>,
    pgn: Option<String>,
    /// The seats with a clock, by seat name (the page: the seats a person
    /// plays); the others have none.
    #[serde(default)]
    clocks: HashMap<String, TimeControl>,
    /// Who plays each seat (`table.rs`); none: an analysis board.
    players: Option<HashMap<String, PlayerRequest>>,
    /// At a table: the engine's thinking shown to the players during the
    /// game (hidden by default).
    #[serde(default)]
    show_thinking: bool,
}

/// A new game's answer: its state, and at a table each person seat's
/// token and join link, and the watch link.
#[derive(Serialize)]
pub struct Created {
    #[serde(flatten)]
    state: State,
    #[serde(skip_serializing_if = "Option::is_none")]
    tokens: Option<BTreeMap<&'static str, String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    links: Option<BTreeMap<&'static str, String>>,
}

/// The header that carries a seat's token.
pub const SEAT_TOKEN: &str = "x-seat-token";

/// The seat token a request carries (`X-Seat-Token`), if any.
pub struct SeatToken(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for SeatToken {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Api<SeatToken> {
        match parts.headers.get(SEAT_TOKEN) {
            None => Ok(SeatToken(None)),
            Some(v) => match v.to_str() {
                Ok(t) => Ok(SeatToken(Some(t.trim().to_string()))),
                Err(_) => Err(ApiError::new(StatusCode::FORBIDDEN, "the X-Seat-Token is not text")),
            },
        }
    }
}

/// The links of a game at a table, on the server the request named
/// (`Host`, checked by `trust.rs`): a seat's link carries its token in the
/// address's fragment, which browsers never send.
pub fn link(headers: &HeaderMap, id: &str, seat: Option<(&str, &str)>) -> String {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("127.0.0.1");
    match seat {
        Some((seat, token)) => format!("http://{host}/#game={id}&seat={seat}&token={token}"),
        None => format!("http://{host}/#game={id}"),
    }
}

/// Refuses a request made on a board that showed `ply` moves, or the
/// position `fen`, when the game is elsewhere now (a tab that has not
/// seen the last move, or a take-back and another move since): nothing is
/// played against a position that has gone. Either may be left out.
pub fn check_seen(e: &Entry, ply: Option<usize>, fen: Option<&str>) -> Api<()> {
    let plies = e.game.plies();
    if let Some(shown) = ply.filter(|&shown| shown != plies) {
        return Err(ApiError::conflict(format!(
            "the game moved on: this was asked on the position after {shown} moves, and the game has {plies} now; \
             nothing was done"
        )));
    }
    if fen.is_some_and(|fen| fen != e.state().fen) {
        return Err(ApiError::conflict(
            "the game moved on: this was asked on another position than the game's now (a take-back and other \
             moves since); nothing was done",
        ));
    }
    Ok(())
}

/// `POST /api/games`: a new game from the start, a FEN or a PGN record,
/// with clocks for the seats it names; they start now. With `players`,
/// at a table (`table.rs`): the answer carries the person seats' tokens
/// and links, and the engine's seats are the server's to play.
pub async fn create(
    AppState(app): AppState<Arc<App>>,
    client: Client,
    headers: HeaderMap,
    Json(req): Json<NewGame>,
) -> Api<(StatusCode, Json<Created>)> {
    let kind = variant(req.variant.as_deref())?;
    let start = match (&req.fen, &req.pgn) {
        (Some(_), Some(_)) => return Err(ApiError::bad_request("give a fen or a pgn, not both")),
        (_, Some(pgn)) => Start::Record(pgn),
        (fen, None) => Start::Position(fen.as_deref()),
    };
    let game = session::new_game(kind, start, &req.clocks, app.store.now())?;
    let table = match &req.players {
        Some(players) => Some(Table::new(game.seats(), players, req.show_thinking, app.store.now())?),
        None if req.show_thinking => {
            return Err(ApiError::bad_request("show_thinking is for a game with players (an analysis board shows it)"))
        }
        None => None,
    };
    app.clients.create(client)?;
    let mut e = app.store.insert(game, table).await?;
    seated::kick(&app, &mut e);
    let seats = e.game.seats();
    let tokens = e.table.as_ref().map(|t| t.tokens(seats));
    let links = tokens.as_ref().map(|tokens| {
        let mut links: BTreeMap<&'static str, String> =
            tokens.iter().map(|(&seat, token)| (seat, link(&headers, &e.id, Some((seat, token))))).collect();
        links.insert("watch", link(&headers, &e.id, None));
        links
    });
    Ok((StatusCode::CREATED, Json(Created { state: e.state(), tokens, links })))
}

/// `GET /api/games/<id>`: the state, settled (a flag that fell ends the
/// game now).
pub async fn get(AppState(app): AppState<Arc<App>>, Path(id): Path<String>) -> Api<Json<State>> {
    let (mut e, _) = app.store.game(&id).await?.settle().await?;
    seated::kick(&app, &mut e);
    Ok(Json(e.state()))
}

/// `DELETE /api/games/<id>`: at a table, for a person seated there, and
/// only when nobody else has joined (a game others play in is theirs
/// too: resign instead).
pub async fn delete(
    AppState(app): AppState<Arc<App>>,
    Path(id): Path<String>,
    SeatToken(token): SeatToken,
) -> Api<StatusCode> {
    let e = app.store.game(&id).await?;
    if let Some(table) = &e.table {
        let seat = table.seat_acting(token.as_deref(), "deleting a game with players")?;
        if table.others_joined(seat) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "other people play in this game, so one of them cannot delete it (resign instead)",
            ));
        }
    }
    app.store.remove(e).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
    /// The moves the board showed when this one was made, and its
    /// position: refused (409) when the game is elsewhere now.
    ply: Option<usize>,
    fen: Option<String>,
}

/// `POST /api/games/<id>/moves`: plays a move (protocol text), charged
/// to the mover's clock; a move that arrives after its seat's flag fell
/// is not played (409), the game having ended by time forfeit. At a
/// table only the seat to move's token may.
pub async fn play(
    AppState(app): AppState<Arc<App>>,
    Path(id): Path<String>,
    SeatToken(token): SeatToken,
    Json(req): Json<MoveRequest>,
) -> Api<Json<State>> {
    // Under the same lock as the move: no flag falls in between.
    let (mut e, fell) = app.store.game(&id).await?.settle().await?;
    if let Some(seat) = fell {
        return Err(ApiError::conflict(format!(
            "{seat}'s clock ran out before the move arrived: time forfeit; the move was not played"
        )));
    }
    if let Some(table) = &e.table {
        if let Some(over) = e.game.is_over() {
            return Err(ApiError::conflict(format!("the game is over: {over}")));
        }
        table.check_seat(e.game.seats(), e.game.to_move(), token.as_deref(), "move")?;
    }
    check_seen(&e, req.ply, req.fen.as_deref())?;
    e.make_changeable()?;
    let (mut e, ()) = e.change(|game, now| game.play(&req.text, now)).await?;
    seated::kick(&app, &mut e);
    Ok(Json(e.state()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForfeitRequest {
    seat: String,
    why: Why,
}

/// `POST /api/games/<id>/forfeit {"seat", "why": "resignation" | "time"}`:
/// a seat resigns or its clock ran out; the game's forfeit rule says
/// what follows (`forfeit.rs`). At a table only the seat's token may.
pub async fn forfeit(
    AppState(app): AppState<Arc<App>>,
    Path(id): Path<String>,
    SeatToken(token): SeatToken,
    Json(req): Json<ForfeitRequest>,
) -> Api<Json<State>> {
    let (mut e, _) = app.store.game(&id).await?.settle().await?;
    if let Some(table) = &e.table {
        let seats = e.game.seats();
        if let Some(seat) = seats.iter().position(|s| s.name == req.seat) {
            table.check_seat(seats, seat, token.as_deref(), "resignation")?;
        }
        // The engine's search of a seat that passes from now on stops.
        e.stop_search();
    }
    e.make_changeable()?;
    let (mut e, ()) = e.change(|game, now| game.forfeit(&req.seat, req.why, now)).await?;
    seated::kick(&app, &mut e);
    Ok(Json(e.state()))
}

/// `GET /api/games/<id>/positions/<ply>`: the position after `ply` moves
/// (the tables' verdict only where the engine's thinking is shown).
pub async fn position(
    AppState(app): AppState<Arc<App>>,
    Path((id, ply)): Path<(String, usize)>,
) -> Api<Json<PositionView>> {
    let e = app.store.game(&id).await?;
    let mut view = e
        .game
        .position(ply)
        .ok_or_else(|| ApiError::not_found(format!("the game has no position after {ply} moves")))?;
    if !e.thinking_shown() {
        view.tablebase = None;
    }
    Ok(Json(view))
}

/// `GET /api/games/<id>/pgn?white=Person&black=...`: the query names
/// the players by seat (at a table, the seats' players win).
pub async fn pgn(
    AppState(app): AppState<Arc<App>>,
    Path(id): Path<String>,
    Query(players): Query<HashMap<String, String>>,
) -> Api<Json<serde_json::Value>> {
    let (e, _) = app.store.game(&id).await?.settle().await?;
    // The engine's seats by the level they played at; the query's names
    // next; a table's players over both.
    let mut names: HashMap<String, String> =
        e.players.iter().map(|(seat, name)| (seat.to_string(), name.clone())).collect();
    names.extend(players);
    if let Some(table) = &e.table {
        names.extend(table.record_names(e.game.seats()));
    }
    let text = e.game.pgn(&names)?;
    Ok(Json(serde_json::json!({ "pgn": text })))
}

/// Refuses a request for the engine made at a table: its seats are the
/// server's to play (`seated.rs`), and a person's are theirs.
fn not_at_a_table(e: &Entry, what: &str) -> Api<()> {
    match &e.table {
        Some(_) => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "this game has players: the server plays the engine's seats and people their own, so no request {what}"
            ),
        )),
        None => Ok(()),
    }
}

/// How long or deep a search may go, as a request gives it.
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
pub struct SearchRequest {
    movetime: Option<u64>,
    depth: Option<u32>,
    /// Engine moves only: the playing level 1–8 (`levels.rs`); full
    /// strength without.
    level: Option<u8>,
    /// Analysis stream only: follow every search on the game instead of
    /// starting one.
    #[serde(default)]
    follow: bool,
    /// Analysis only: the best lines to report (`MultiPV`), 1..=[`MAX_MULTIPV`].
    multipv: Option<usize>,
    /// Analysis only: search until stopped (or the client leaves), within
    /// `--max-analysis` ms.
    #[serde(default)]
    infinite: bool,
}

/// The most lines an analysis reports.
pub const MAX_MULTIPV: usize = 8;

impl SearchRequest {
    /// The search limits, within the server's caps.
    fn limits(&self, app: &App) -> Api<Limits> {
        let c = &app.config;
        if let Some(n) = self.multipv {
            if n == 0 || n > MAX_MULTIPV {
                return Err(ApiError::bad_request(format!("multipv must be 1..={MAX_MULTIPV}, got {n}")));
            }
        }
        if self.infinite {
            if self.movetime.is_some() || self.depth.is_some() {
                return Err(ApiError::bad_request("give infinite or a movetime/depth, not both"));
            }
            let movetime = Some(Duration::from_millis(c.max_analysis_ms));
            return Ok(Limits { movetime, multipv: self.multipv.unwrap_or(1), ..Limits::default() });
        }
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
        let multipv = self.multipv.unwrap_or(1);
        Ok(Limits { depth: self.depth, movetime: Some(Duration::from_millis(movetime)), multipv, ..Limits::default() })
    }

    /// Refuses what only an analysis takes.
    fn for_a_move(&self) -> Api<()> {
        if self.multipv.is_some_and(|n| n > 1) || self.infinite {
            return Err(ApiError::bad_request("multipv and infinite are for an analysis, not an engine's move"));
        }
        Ok(())
    }

    /// The playing strength asked for, with a fresh random seed.
    fn strength(&self) -> Api<Strength> {
        let skill = match self.level {
            Some(level) => levels::skill(level).map_err(ApiError::bad_request)?,
            None => None,
        };
        Ok(Strength::new(skill, rand::random()))
    }
}

/// `GET /api/levels`: the playing levels, and the level each seat of a
/// new game starts at.
pub async fn levels() -> Json<levels::Levels> {
    Json(levels::levels())
}

/// What starts a search: why, within what, in which slot of the pool.
pub struct SearchOrder {
    pub kind: SearchKind,
    pub limits: Limits,
    pub strength: Strength,
    pub slot: OwnedSemaphorePermit,
    /// Gets the result after an engine search has played its move.
    pub on_found: Option<oneshot::Sender<(Found, Played)>>,
}

/// What became of an engine search's move: played and committed
/// (`Ok(true)`), not played (`Ok(false)`: the game changed, ended or went
/// meanwhile), or played and not saved, so taken back (the 500 to answer).
pub type Played = Api<bool>;

/// Starts a search on the game (the caller holds its lock, `e`); its
/// events go to the game's stream, and its slot is freed when it ends.
/// The search is abandoned when the [`Owner`] returned is dropped before
/// it ends.
pub fn start_search(app: &App, e: &mut super::store::Locked, order: SearchOrder) -> Api<Owner> {
    let SearchOrder { kind, limits, strength, slot, on_found } = order;
    if let Some(over) = e.game.is_over() {
        return Err(ApiError::conflict(format!("the game is over: {over}")));
    }
    e.make_changeable()?;
    let search = app.store.next_search_id();
    let control = Arc::new(SearchControl::new());
    let abandoned = Arc::new(AtomicBool::new(false));
    e.search = Some(Running { id: search, kind, control: control.clone(), abandoned: abandoned.clone() });
    let generation = e.generation;
    let _ = e.events.send(Event::Start { search, kind, fen: e.state().fen });
    let events = e.events.clone();
    let on_info = Box::new(move |info| {
        let _ = events.send(Event::Info { search, info });
    });
    let shared = e.shared();
    let on_done = Box::new(move |found: Found| {
        // A search's own thread: it may wait for the lock and the commit.
        let mut e = shared.blocking_lock();
        // Not current: abandoned (its client left, the game was deleted,
        // the server is stopping) or replaced.
        let current = e.search.as_ref().is_some_and(|r| r.id == search && !r.abandoned.load(Ordering::Relaxed));
        let played = if kind == SearchKind::Engine && current && e.generation == generation && !e.deleted {
            play_found(&mut e, &found)
        } else {
            Ok(false)
        };
        if current {
            e.search = None;
        }
        // The game is unlocked before anyone hears of the end, so a client
        // acting on `done` finds it idle (the store evicts idle games only).
        let events = e.events.clone();
        drop(e);
        drop(slot);
        let _ = events.send(Event::Done { search, kind, played: matches!(played, Ok(true)), found: found.clone() });
        if let Some(tx) = on_found {
            let _ = tx.send((found, played));
        }
    });
    e.game.search(limits, strength, app.config.hash_mb, control.clone(), on_info, on_done);
    Ok(Owner { control, abandoned })
}

/// Plays an engine search's move on its game, committed; a flag that fell
/// while the engine thought (a seat with a clock the engine moves for)
/// ends the game first, and the move is not played.
fn play_found(e: &mut Entry, found: &Found) -> Played {
    if e.settle_blocking()?.is_some() {
        return Ok(false);
    }
    let Some(best) = &found.best else { return Ok(false) };
    match e.change_blocking(|game, now| game.play(best, now)) {
        Ok(()) => Ok(true),
        // Played, and undone for want of a commit: the client hears why.
        Err(not_saved) if not_saved.status.is_server_error() => Err(not_saved),
        // The rules refuse it (the game changed): not played.
        Err(_) => Ok(false),
    }
}

/// Abandons its search when dropped before the search ended: a request or
/// stream whose client has gone (hyper drops its future or body) ends its
/// search, and an engine's move is then not played. Dropped after the
/// end, it does nothing. (A flag, not the game's lock: a drop cannot wait.)
pub struct Owner {
    control: Arc<SearchControl>,
    abandoned: Arc<AtomicBool>,
}

impl Drop for Owner {
    fn drop(&mut self) {
        self.abandoned.store(true, Ordering::Relaxed);
        self.control.stop();
    }
}

#[derive(Serialize)]
pub struct EngineMove {
    #[serde(flatten)]
    state: State,
    engine: Found,
    /// The level asked for, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    level: Option<u8>,
}

/// `POST /api/games/<id>/engine`: the engine moves for the seat to move.
pub async fn engine(
    AppState(app): AppState<Arc<App>>,
    Path(id): Path<String>,
    Json(req): Json<SearchRequest>,
) -> Api<Json<EngineMove>> {
    req.for_a_move()?;
    let limits = req.limits(&app)?;
    let strength = req.strength()?;
    let (mut e, _) = app.store.game(&id).await?.settle().await?;
    not_at_a_table(&e, "asks the engine to move")?;
    // A running analysis gives way first, so that its slot comes free
    // (its end takes the game's lock: not held while waiting).
    e.make_changeable()?;
    drop(e);
    let slot = app.store.search_slot().await?;
    let (tx, rx) = oneshot::channel();
    let order = SearchOrder { kind: SearchKind::Engine, limits, strength, slot, on_found: Some(tx) };
    let mut e = app.store.game(&id).await?;
    let seat = e.state().turn;
    let entry = e.shared();
    let owner = start_search(&app, &mut e, order)?;
    drop(e);
    let (found, played) = rx.await.map_err(|_| ApiError::conflict("the search was abandoned"))?;
    drop(owner);
    if !played? {
        if entry.lock().await.deleted {
            return Err(ApiError::not_found(format!(
                "game {id:?} was deleted while the engine was thinking; no move was played"
            )));
        }
        if let Some(over) = entry.lock().await.game.is_over() {
            return Err(ApiError::conflict(format!(
                "the game ended while the engine was thinking ({over}); its move was not played"
            )));
        }
        return Err(ApiError::conflict(
            "the game changed (or the server is stopping) while the engine was thinking; its move was not played",
        ));
    }
    let mut e = entry.lock().await;
    // The record names the seat's player after its latest engine move.
    e.players.insert(seat, req.level.map_or_else(|| "catchess".to_string(), levels::player_name));
    let state = e.state();
    Ok(Json(EngineMove { state, engine: found, level: req.level }))
}

/// `POST /api/games/<id>/stop`: stops the running search (an engine
/// search then plays the best move found so far).
pub async fn stop(AppState(app): AppState<Arc<App>>, Path(id): Path<String>) -> Api<StatusCode> {
    let mut e = app.store.game(&id).await?;
    not_at_a_table(&e, "stops the engine")?;
    if let Some(r) = e.running() {
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
    client: Client,
    Query(req): Query<SearchRequest>,
) -> Api<Response> {
    if req.level.is_some() {
        return Err(ApiError::bad_request(
            "level is for engine moves (POST .../engine); an analysis is at full strength",
        ));
    }
    let limits = req.limits(&app)?;
    {
        let e = app.store.game(&id).await?;
        if !e.thinking_shown() {
            return Err(ApiError::new(StatusCode::FORBIDDEN, THINKING_HIDDEN));
        }
    }
    let pass = app.clients.stream(client)?;
    let starts = !req.follow && app.store.game(&id).await?.running().is_none();
    let slot = if starts { Some(app.store.search_slot().await?) } else { None };
    let (receiver, owner) = {
        let mut e = app.store.game(&id).await?;
        let receiver = e.events.subscribe();
        let mut owner = None;
        // Unless a search began meanwhile: then the stream carries that one.
        if let Some(slot) = slot.filter(|_| e.running().is_none()) {
            let order =
                SearchOrder { kind: SearchKind::Analysis, limits, strength: Strength::full(), slot, on_found: None };
            owner = Some(start_search(&app, &mut e, order)?);
        }
        (receiver, owner)
    };
    let stream = events(receiver, !req.follow, owner, app.closing.subscribe());
    let stream = super::live::holding(stream, pass);
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(10))).into_response())
}

/// Why a table refuses the engine's thinking.
pub const THINKING_HIDDEN: &str =
    "the engine's thinking is hidden from this game's players until the game is over (its creator's choice)";

/// The events of a game's channel as SSE events; ends with the first
/// `done` when `once`, else when the game is gone, and in any case when
/// the server stops. `owner`: the search this stream started, abandoned
/// when the stream is dropped (its client left) before it ended.
pub fn events(
    receiver: broadcast::Receiver<Event>,
    once: bool,
    owner: Option<Owner>,
    closing: watch::Receiver<bool>,
) -> impl Stream<Item = Result<sse::Event, Infallible>> + Send {
    stream::unfold((receiver, false, owner, closing), move |(mut rx, finished, owner, mut closing)| async move {
        if finished || *closing.borrow() {
            return None;
        }
        loop {
            let event = tokio::select! {
                event = rx.recv() => event,
                _ = closing.changed() => return None,
            };
            match event {
                Ok(event) => {
                    let last = once && matches!(event, Event::Done { .. });
                    let sse = sse::Event::default()
                        .event(event.name())
                        .data(serde_json::to_string(&event).unwrap_or_else(|_| "{}".into()));
                    return Some((Ok(sse), (rx, last, owner, closing)));
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
    time_ms: u64,
    /// The count below each legal move.
    divide: Vec<(String, u64)>,
}

/// Why a perft stopped before its end.
enum Cut {
    Budget(u64),
    Time,
    Gone,
}

/// Sets a flag when dropped: the request's future is dropped when its
/// client disconnects, and the count sees the flag within milliseconds.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// `POST /api/perft {"variant", "fen", "depth"}`: leaf counts, in a slot
/// of the search pool, within `--perft-nodes` leaves and `--perft-ms`
/// (checked as the count goes); it stops when its client disconnects or
/// the server stops. POST: CPU work is not for a cross-site GET.
pub async fn perft(AppState(app): AppState<Arc<App>>, Json(req): Json<PerftRequest>) -> Api<Json<PerftAnswer>> {
    let kind = variant(req.variant.as_deref())?;
    let max = app.config.max_perft_depth;
    if req.depth > max {
        return Err(ApiError::bad_request(format!("depth must be 0..={max} (the server's cap), got {}", req.depth)));
    }
    let slot = app.store.search_slot().await?;
    let (depth, fen) = (req.depth, req.fen);
    let (budget, limit) = (app.config.perft_max_nodes, Duration::from_millis(app.config.perft_max_ms));
    let gone = Arc::new(AtomicBool::new(false));
    let _cancel = CancelOnDrop(gone.clone());
    let closing = app.closing.subscribe();
    let work = move || -> Api<PerftAnswer> {
        let started = Instant::now();
        let counted = Cell::new(0u64);
        let cut = Cell::new(None);
        let stopped = || {
            let why = if gone.load(Ordering::Relaxed) || *closing.borrow() {
                Some(Cut::Gone)
            } else if counted.get() > budget {
                Some(Cut::Budget(counted.get()))
            } else if started.elapsed() > limit {
                Some(Cut::Time)
            } else {
                None
            };
            let stop = why.is_some();
            if stop {
                cut.set(why);
            }
            stop
        };
        with_game!(kind, G => {
            let pos = match &fen {
                Some(f) => G::from_fen(f).map_err(|e| ApiError::unprocessable(e.to_string()))?,
                None => G::startpos(),
            };
            let mut divide = Vec::new();
            let total = catchess_game::perft::divide_with(&pos, depth, &stopped, |steps, n| {
                counted.set(counted.get() + n);
                divide.push((pos.turn_text(steps), n));
            })
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
            // A last root move may end over the budget: the count stands
            // only if it is within it.
            let over = counted.get() > budget;
            match (total, over) {
                (Some(nodes), false) => Ok(PerftAnswer {
                    variant: kind.name(),
                    fen: pos.to_fen(),
                    depth,
                    nodes,
                    time_ms: started.elapsed().as_millis() as u64,
                    divide,
                }),
                (_, true) => Err(over_budget(budget, counted.get())),
                (None, false) => Err(match cut.take() {
                    Some(Cut::Budget(n)) => over_budget(budget, n),
                    Some(Cut::Time) => ApiError::unprocessable(format!(
                        "perft stopped at the server's time limit of {} ms ({} leaves counted); ask for less depth",
                        limit.as_millis(),
                        counted.get()
                    )),
                    _ => ApiError::conflict("perft stopped: its client left or the server is stopping"),
                }),
            }
        })
    };
    let (tx, rx) = oneshot::channel();
    std::thread::spawn(move || {
        let _ = tx.send(work());
        drop(slot);
    });
    let answer = rx.await.map_err(|_| ApiError::unprocessable("perft failed on this position"))??;
    Ok(Json(answer))
}

fn over_budget(budget: u64, counted: u64) -> ApiError {
    ApiError::unprocessable(format!(
        "perft stopped: over the server's budget of {budget} leaves ({counted} counted); ask for less depth"
    ))
}
