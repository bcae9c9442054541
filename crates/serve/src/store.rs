//! The games the server holds, each with the search running on it (if
//! any) and the channel its search events go out on. Every change of a
//! game is committed to the database (`db/`) before it is answered, and
//! undone in memory when the commit fails: what a client is told, and
//! what it sees next, is what the file holds. The routes settle a game
//! (find a flag fall: `clock.rs`) under the lock they act under.
//! Searches and perft take a slot of a server-wide pool
//! (`--max-searches`) for as long as they run.
//!
//! Locks: each game is an async mutex, held by a request over its
//! commit, so that no other request sees a change before it is kept;
//! the commit and its undo run in a task of their own, so that they end
//! even when the request is dropped (its client left). Searches run on
//! threads of their own and take the game's lock once, at the end, to
//! play and commit their move. The store's map is a `std` mutex held for
//! a few statements, never across an `await`.

use super::clock::TimeSource;
use super::db::{Db, Loaded, Row, Write};
use super::error::ApiError;
use super::review::Review;
use super::session::{AnyGame, Found, InfoView, State};
use super::table::Table;
use axum::http::StatusCode;
use catchess_search::SearchControl;
use rand::Rng;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;
use tokio::sync::{broadcast, watch, OwnedMutexGuard, OwnedSemaphorePermit, Semaphore};

type Api<T> = Result<T, ApiError>;

/// Why a search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchKind {
    /// The engine's move: played when the search ends.
    Engine,
    /// Analysis only: nothing is played; a move or take-back stops it.
    Analysis,
}

/// What a game's stream carries.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum Event {
    Start { search: u64, kind: SearchKind, fen: String },
    Info { search: u64, info: InfoView },
    Done { search: u64, kind: SearchKind, played: bool, found: Found },
}

impl Event {
    pub fn name(&self) -> &'static str {
        match self {
            Event::Start { .. } => "start",
            Event::Info { .. } => "info",
            Event::Done { .. } => "done",
        }
    }
}

pub struct Running {
    pub id: u64,
    pub kind: SearchKind,
    pub control: Arc<SearchControl>,
    /// Set when its client has gone (`Owner`, in routes.rs): its move is
    /// not played, and it no longer holds the game.
    pub abandoned: Arc<AtomicBool>,
}

impl Running {
    fn is_abandoned(&self) -> bool {
        self.abandoned.load(Ordering::Relaxed)
    }
}

/// A game's state as its live streams send it (`live.rs`): each change's,
/// numbered; `None` once the game is deleted.
#[derive(Clone, Debug)]
pub struct Published {
    pub version: u64,
    pub state: Option<Arc<str>>,
}

/// What a change changed: nothing (nothing is committed), only who sits
/// at the table (a seat joined, a take-back asked for), or the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    Nothing,
    Table,
    Game,
}

impl From<bool> for Changed {
    /// A change of the game, or none.
    fn from(game: bool) -> Changed {
        if game {
            Changed::Game
        } else {
            Changed::Nothing
        }
    }
}

pub struct Entry {
    pub id: String,
    pub game: Box<dyn AnyGame>,
    /// Who plays each seat (`table.rs`); `None`: an analysis board.
    pub table: Option<Table>,
    pub search: Option<Running>,
    pub events: broadcast::Sender<Event>,
    /// The game's state after each change, for its live streams.
    pub live: watch::Sender<Published>,
    /// A task of the server's plays the engine's seats of this game
    /// (`seated.rs`): no second one is started.
    pub driver: bool,
    /// Counts changes of the game: a search's move is played only if the
    /// game is still the one it searched.
    pub generation: u64,
    /// Deleted (its deletion committed): the requests waiting on it find
    /// no game, and a search's move is not played.
    pub deleted: bool,
    /// The players' names of the seats the engine moved for (`catchess
    /// level 3`), by seat name, for the record. Kept while the server runs.
    pub players: HashMap<&'static str, String>,
    /// The game's review (`review.rs`), kept with it until a take-back.
    pub review: Option<Arc<Review>>,
    /// A review of the game runs (`review.rs`): no second one starts.
    pub reviewing: Arc<AtomicBool>,
    last_used: Instant,
    /// When the game last changed (the server's time, ms).
    changed_ms: u64,
    db: Arc<Db>,
    time: Arc<dyn TimeSource>,
}

/// The game and its table as they were before a change.
struct Before {
    game: Box<dyn AnyGame>,
    table: Option<Table>,
    changed_ms: u64,
    review: Option<Arc<Review>>,
}

/// A change made in memory and not committed yet: the game as it was
/// (put back if the commit fails) and the writes that keep the new one.
struct Pending {
    before: Before,
    writes: Vec<Write>,
}

/// The answer to a change that could not be committed (undone in memory).
fn not_saved(why: String) -> ApiError {
    eprintln!("catchess serve: {why}");
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("the change was not saved, so it was undone: {why}"))
}

/// A commit task that did not finish: the server is stopping.
fn interrupted(e: tokio::task::JoinError) -> ApiError {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("the change's commit was interrupted: {e}"))
}

impl Entry {
    /// The server's time now, in ms.
    pub fn now(&self) -> u64 {
        self.time.now_ms()
    }

    /// The game's state now, with its table: the tablebase's verdict only
    /// where the engine's thinking is shown.
    pub fn state(&self) -> State {
        self.state_numbered(self.version())
    }

    /// [`Entry::state`] numbered `version`.
    fn state_numbered(&self, version: u64) -> State {
        let mut state = self.game.state(&self.id, self.now());
        state.version = version;
        if let Some(table) = &self.table {
            let seats = self.game.seats();
            state.players = Some(table.view(seats));
            state.proposal = table.proposal_view(seats);
            state.show_thinking = table.show_thinking;
            if !self.thinking_shown() {
                state.tablebase = None;
            }
        }
        state
    }

    /// Holds the clocks while a person seat waits for its player.
    fn hold_clocks(&mut self) {
        let held = self.table.as_ref().is_some_and(Table::awaits_players);
        let now = self.now();
        self.game.hold_clocks(held, now);
    }

    /// Whether the engine's thinking may be shown: on an analysis board,
    /// at a table that shows it, and once the game is over.
    pub fn thinking_shown(&self) -> bool {
        self.table.as_ref().is_none_or(|t| t.show_thinking) || self.game.is_over().is_some()
    }

    /// What the database keeps of the game.
    fn row(&self) -> Row {
        Row {
            table: self.table.clone(),
            updated_ms: self.changed_ms,
            review: self.review.clone(),
            ..self.game.record(&self.id)
        }
    }

    /// Sends the game's state to its live streams.
    fn publish(&mut self) {
        let version = self.version() + 1;
        let state = serde_json::to_string(&self.state_numbered(version)).ok().map(Arc::from);
        self.live.send_modify(|p| {
            p.version = version;
            p.state = state;
        });
    }

    /// Tells the live streams that the game is gone.
    fn publish_gone(&mut self) {
        self.live.send_modify(|p| {
            p.version += 1;
            p.state = None;
        });
    }

    /// When the game last changed (the server's time, ms).
    pub fn changed_ms(&self) -> u64 {
        self.changed_ms
    }

    /// The state's number in the live streams.
    pub fn version(&self) -> u64 {
        self.live.borrow().version
    }

    /// The search running on the game, if any (one whose client has gone
    /// is forgotten first).
    pub fn running(&mut self) -> Option<&Running> {
        if self.search.as_ref().is_some_and(Running::is_abandoned) {
            self.stop_search();
        }
        self.search.as_ref()
    }

    /// Stops the search on the game, if any, and forgets it: its move (an
    /// engine's) is not played.
    pub fn stop_search(&mut self) {
        if let Some(r) = self.search.take() {
            r.control.stop();
        }
    }

    /// Stops an analysis so that the game can change; refuses while the
    /// engine is thinking of its move.
    pub fn make_changeable(&mut self) -> Api<()> {
        match self.running() {
            Some(r) if r.kind == SearchKind::Engine => {
                Err(ApiError::conflict("the engine is thinking; wait for its move or stop it"))
            }
            _ => {
                self.stop_search();
                Ok(())
            }
        }
    }

    fn put_back(&mut self, before: Before) {
        self.game = before.game;
        self.table = before.table;
        self.changed_ms = before.changed_ms;
        self.review = before.review;
    }

    /// Runs `change` on the game and its table at the server's time; when
    /// `changed` says it changed something, what committing it takes. A
    /// change of the game withdraws a take-back or draw waiting for
    /// consent (the position it was asked in has gone). A change that
    /// fails leaves the game as it was.
    fn apply<R>(
        &mut self,
        change: impl FnOnce(&mut dyn AnyGame, &mut Option<Table>, u64) -> Api<R>,
        changed: impl FnOnce(&R) -> Changed,
    ) -> Api<(R, Option<Pending>)> {
        let before = Before {
            game: self.game.snapshot(),
            table: self.table.clone(),
            changed_ms: self.changed_ms,
            review: self.review.clone(),
        };
        let now = self.now();
        let r = match change(&mut *self.game, &mut self.table, now) {
            Ok(r) => r,
            Err(e) => {
                self.put_back(before);
                return Err(e);
            }
        };
        self.hold_clocks();
        match changed(&r) {
            Changed::Nothing => return Ok((r, None)),
            Changed::Table => {}
            Changed::Game => {
                self.generation += 1;
                if let Some(table) = &mut self.table {
                    table.proposal = None;
                }
                // A take-back forgets the review: it judged moves that are
                // gone, or a game that has resumed.
                let resumed = before.game.is_over().is_some() && self.game.is_over().is_none();
                if self.game.plies() < before.game.plies() || resumed {
                    self.review = None;
                }
            }
        }
        self.changed_ms = now;
        let writes = vec![Write::Save(Box::new(self.row()))];
        Ok((r, Some(Pending { before, writes })))
    }

    /// After the commit of a change: undone if it failed, else sent to
    /// the game's live streams.
    fn conclude(&mut self, before: Before, committed: Result<(), String>) -> Api<()> {
        match committed {
            Ok(()) => {
                self.publish();
                Ok(())
            }
            Err(why) => {
                self.put_back(before);
                Err(not_saved(why))
            }
        }
    }

    /// [`Locked::change`] for a search's thread, which may block on the
    /// commit.
    pub fn change_blocking<R>(&mut self, change: impl FnOnce(&mut dyn AnyGame, u64) -> Api<R>) -> Api<R> {
        let (r, pending) = self.apply(|game, _, now| change(game, now), |_| Changed::Game)?;
        if let Some(Pending { before, writes }) = pending {
            let committed = self.db.commit_blocking(writes);
            self.conclude(before, committed)?;
        }
        Ok(r)
    }

    /// [`Locked::settle`] for a search's thread.
    pub fn settle_blocking(&mut self) -> Api<Option<&'static str>> {
        let (seat, pending) = self.apply(|game, _, now| Ok(game.settle(now)), |s| s.is_some().into())?;
        if let Some(Pending { before, writes }) = pending {
            let committed = self.db.commit_blocking(writes);
            self.conclude(before, committed)?;
            self.stop_search();
        }
        Ok(seat)
    }
}

/// A game locked by one request. Owned, so that a change's commit can
/// finish in a task of its own when the request is dropped.
pub struct Locked(OwnedMutexGuard<Entry>);

impl std::ops::Deref for Locked {
    type Target = Entry;
    fn deref(&self) -> &Entry {
        &self.0
    }
}

impl std::ops::DerefMut for Locked {
    fn deref_mut(&mut self) -> &mut Entry {
        &mut self.0
    }
}

impl Locked {
    /// The game, for a search that outlives this lock.
    pub fn shared(&self) -> Shared {
        OwnedMutexGuard::mutex(&self.0).clone()
    }

    /// Runs `change` on the game and commits the new game before
    /// returning; a change that fails, or whose commit fails (500, saying
    /// why), leaves the game as it was.
    pub async fn change<R>(self, change: impl FnOnce(&mut dyn AnyGame, u64) -> Api<R>) -> Api<(Locked, R)> {
        self.change_when(change, |_| true).await
    }

    /// [`Locked::change`], committing only when `changed` says the change
    /// changed something.
    pub async fn change_when<R>(
        self,
        change: impl FnOnce(&mut dyn AnyGame, u64) -> Api<R>,
        changed: impl FnOnce(&R) -> bool,
    ) -> Api<(Locked, R)> {
        self.change_seated(|game, _, now| change(game, now), |r| changed(r).into()).await
    }

    /// [`Locked::change`] of the game and its table (`table.rs`), committed
    /// as `changed` says.
    pub async fn change_seated<R>(
        mut self,
        change: impl FnOnce(&mut dyn AnyGame, &mut Option<Table>, u64) -> Api<R>,
        changed: impl FnOnce(&R) -> Changed,
    ) -> Api<(Locked, R)> {
        let (r, pending) = self.apply(change, changed)?;
        let Some(Pending { before, writes }) = pending else { return Ok((self, r)) };
        let locked = self.commit_in_task(writes, move |e, committed| e.conclude(before, committed)).await?;
        Ok((locked, r))
    }

    /// Commits `writes` in a task of its own, so that the commit finishes
    /// even when the request is dropped, then hands its result to
    /// `conclude`, which puts back what was not kept (and says why).
    async fn commit_in_task(
        mut self,
        writes: Vec<Write>,
        conclude: impl FnOnce(&mut Entry, Result<(), String>) -> Api<()> + Send + 'static,
    ) -> Api<Locked> {
        let db = self.db.clone();
        let commit = tokio::spawn(async move {
            let committed = db.commit(writes).await;
            let concluded = conclude(&mut self, committed);
            (self, concluded)
        });
        let (locked, concluded) = commit.await.map_err(interrupted)?;
        concluded.map(|()| locked)
    }

    /// Keeps `review` with the game, committed before it returns; a
    /// failed commit keeps the review there was (500).
    pub async fn keep_review(mut self, review: Arc<Review>) -> Api<Locked> {
        let before = self.review.replace(review);
        let writes = vec![Write::Save(Box::new(self.row()))];
        self.commit_in_task(writes, move |e, committed| {
            committed.map_err(|why| {
                e.review = before;
                not_saved(why)
            })
        })
        .await
    }

    /// Ends the game by time forfeit if the seat to move's clock ran out
    /// (committed at once; a search on the game stops, and an engine's
    /// move is then not played); returns that seat's name.
    pub async fn settle(self) -> Api<(Locked, Option<&'static str>)> {
        let (mut locked, seat) = self.change_when(|game, now| Ok(game.settle(now)), Option::is_some).await?;
        if seat.is_some() {
            locked.stop_search();
        }
        Ok((locked, seat))
    }
}

pub type Shared = Arc<tokio::sync::Mutex<Entry>>;

/// A new game id: 128 random bits from the thread's CSPRNG, in hex. A
/// page that does not hold a game's id cannot name it.
fn new_id() -> String {
    format!("{:032x}", rand::thread_rng().gen::<u128>())
}

/// What the store holds and keeps: `Config`'s limits.
pub struct Limits {
    pub max_games: usize,
    pub max_searches: usize,
    /// A game with no change for this long is abandoned: it may make room
    /// for a new one even with a person seated.
    pub abandoned_ms: u64,
}

pub struct Store {
    games: Mutex<HashMap<String, Shared>>,
    time: Arc<dyn TimeSource>,
    next_search: AtomicU64,
    max_games: usize,
    abandoned_ms: u64,
    db: Arc<Db>,
    /// One permit per search or perft running, server-wide.
    slots: Arc<Semaphore>,
    max_searches: usize,
    /// The number of every game's state when the server starts: its time
    /// in ms, times 1000, so that a state after a restart is numbered
    /// above every one before it (a game changes less than 1000 times a
    /// millisecond) and a page keeps the newest state whichever came first.
    first_version: u64,
}

/// A game to be evicted for a new one: its id, locked until the eviction
/// is committed.
type Victim = (String, OwnedMutexGuard<Entry>);

/// Which games make room for a new one, first to last; games with a
/// person seated that are neither over nor abandoned never do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Room {
    /// The game is over.
    Finished,
    /// An analysis board, or a game only the engine plays.
    Unseated,
    /// No change for [`Limits::abandoned_ms`].
    Abandoned,
}

impl Store {
    /// The store with the games `loaded` from the database `db` (the
    /// `max_games` changed last); a game that cannot be read or does not
    /// replay is reported and left in the database.
    pub fn open(db: Db, loaded: Loaded, limits: Limits, time: Arc<dyn TimeSource>) -> Store {
        let first_version = time.now_ms().saturating_mul(1000);
        let store = Store {
            games: Mutex::new(HashMap::new()),
            time,
            next_search: AtomicU64::new(1),
            max_games: limits.max_games.max(1),
            abandoned_ms: limits.abandoned_ms,
            db: Arc::new(db),
            slots: Arc::new(Semaphore::new(limits.max_searches.max(1))),
            max_searches: limits.max_searches.max(1),
            first_version,
        };
        for (id, why) in loaded.unreadable {
            eprintln!("catchess serve: stored game {id} not restored (left in the database): {why}");
        }
        let mut games = store.map();
        for row in loaded.rows {
            let (id, table, changed, review) = (row.id.clone(), row.table.clone(), row.updated_ms, row.review.clone());
            match super::session::restore(row, store.now()) {
                Ok(game) => {
                    let entry = store.entry(id.clone(), game, table, changed, review);
                    games.insert(id, entry);
                }
                Err(why) => eprintln!("catchess serve: stored game {id} not restored (left in the database): {why}"),
            }
        }
        drop(games);
        store
    }

    fn entry(
        &self,
        id: String,
        game: Box<dyn AnyGame>,
        table: Option<Table>,
        changed_ms: u64,
        review: Option<Arc<Review>>,
    ) -> Shared {
        let (events, _) = broadcast::channel(256);
        let (live, _) = watch::channel(Published { version: self.first_version, state: None });
        let mut entry = Entry {
            id,
            game,
            table,
            search: None,
            events,
            live,
            driver: false,
            generation: 0,
            deleted: false,
            players: HashMap::new(),
            review,
            reviewing: Arc::new(AtomicBool::new(false)),
            last_used: Instant::now(),
            changed_ms,
            db: self.db.clone(),
            time: self.time.clone(),
        };
        entry.hold_clocks();
        entry.publish();
        Arc::new(tokio::sync::Mutex::new(entry))
    }

    /// The server's time now, in ms (the clocks' time source).
    pub fn now(&self) -> u64 {
        self.time.now_ms()
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Shared>> {
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Every game held.
    pub fn all(&self) -> Vec<Shared> {
        self.map().values().cloned().collect()
    }

    /// Whether `e` may make room for a new game, and how soon (`Room`).
    fn room(&self, e: &Entry, now: u64) -> Option<Room> {
        if e.game.is_over().is_some() {
            Some(Room::Finished)
        } else if !e.table.as_ref().is_some_and(Table::has_person) {
            Some(Room::Unseated)
        } else if now.saturating_sub(e.changed_ms) >= self.abandoned_ms {
            Some(Room::Abandoned)
        } else {
            None
        }
    }

    /// The idle game that makes room first (no search running, nobody
    /// holding it): finished games, then those nobody sits at, then those
    /// long abandoned, each the one left alone longest first; 429 when
    /// there is none.
    fn victim(&self, games: &HashMap<String, Shared>) -> Api<Victim> {
        let now = self.now();
        let mut best: Option<(Room, Victim)> = None;
        for (id, entry) in games {
            let Ok(e) = entry.clone().try_lock_owned() else { continue };
            // Busy: a search, or a review, runs on it.
            if e.search.is_some() || e.reviewing.load(Ordering::Acquire) {
                continue;
            }
            let Some(room) = self.room(&e, now) else { continue };
            let better = best.as_ref().is_none_or(|(r, (_, o))| (room, e.last_used) < (*r, o.last_used));
            if better {
                best = Some((room, (id.clone(), e)));
            }
        }
        best.map(|(_, victim)| victim).ok_or_else(|| {
            ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "the server holds {} games, all in play or busy (a game a person plays is never evicted \
                     until it is over or abandoned); finish or delete one, or try again later",
                    self.max_games
                ),
            )
        })
    }

    /// Holds a new game at `table` (none: an analysis board), committed
    /// before it returns (locked, for its first answer); when the store is
    /// full a game makes room ([`Store::victim`]), in the same commit. A
    /// failed commit leaves the store as it was (500).
    pub async fn insert(self: &Arc<Self>, game: Box<dyn AnyGame>, table: Option<Table>) -> Api<Locked> {
        let id = new_id();
        let entry = self.entry(id.clone(), game, table, self.now(), None);
        let mine = Locked(entry.clone().lock_owned().await);
        let mut writes = Vec::new();
        let victim = {
            let mut games = self.map();
            let victim = if games.len() >= self.max_games { Some(self.victim(&games)?) } else { None };
            if let Some((old, _)) = &victim {
                games.remove(old);
                writes.push(Write::Delete(old.clone()));
            }
            games.insert(id.clone(), entry);
            victim
        };
        writes.push(Write::Save(Box::new(mine.row())));
        let store = self.clone();
        let commit = tokio::spawn(async move {
            match store.db.commit(writes).await {
                Ok(()) => {
                    if let Some((_, mut old)) = victim {
                        old.deleted = true;
                        old.publish_gone();
                    }
                    Ok(mine)
                }
                Err(why) => {
                    let mut games = store.map();
                    games.remove(&id);
                    if let Some((old, e)) = victim {
                        games.insert(old, OwnedMutexGuard::mutex(&e).clone());
                    }
                    Err(not_saved(why))
                }
            }
        });
        commit.await.map_err(interrupted)?
    }

    /// The game `id` (a path segment, so any text).
    pub fn get(&self, id: &str) -> Api<Shared> {
        self.map().get(id).cloned().ok_or_else(|| ApiError::not_found(format!("unknown game id {id:?}")))
    }

    /// The game `id`, locked for a request (404 when there is none, or it
    /// was deleted while the request waited for it).
    pub async fn game(&self, id: &str) -> Api<Locked> {
        let e =
            Store::lock(self.get(id)?).await.ok_or_else(|| ApiError::not_found(format!("unknown game id {id:?}")))?;
        Ok(e)
    }

    /// A game held, locked; `None` once it is deleted.
    pub async fn lock(shared: Shared) -> Option<Locked> {
        let mut e = Store::peek(shared).await?;
        e.last_used = Instant::now();
        Some(e)
    }

    /// [`Store::lock`] for a look that does not count as a use (a list):
    /// the games left alone longest still make room first.
    pub async fn peek(shared: Shared) -> Option<Locked> {
        let e = shared.lock_owned().await;
        (!e.deleted).then_some(Locked(e))
    }

    /// Forgets a game the caller holds, in the database and then here; its
    /// search stops and its move, if any, is not played; its live streams
    /// end. A failed commit keeps the game (500).
    pub async fn remove(self: &Arc<Self>, mut e: Locked) -> Api<()> {
        let store = self.clone();
        let commit = tokio::spawn(async move {
            store.db.commit(vec![Write::Delete(e.id.clone())]).await.map_err(not_saved)?;
            e.deleted = true;
            e.stop_search();
            e.publish_gone();
            let mut games = store.map();
            if games.get(&e.id).is_some_and(|held| Arc::ptr_eq(held, &e.shared())) {
                games.remove(&e.id);
            }
            Ok(())
        });
        commit.await.map_err(interrupted)?
    }

    pub fn next_search_id(&self) -> u64 {
        self.next_search.fetch_add(1, Ordering::Relaxed)
    }

    /// A place for one more search, waited for as long as it takes: the
    /// engine's move at a table (`seated.rs`), which no one asks for again.
    pub async fn search_slot_waiting(&self) -> OwnedSemaphorePermit {
        match self.slots.clone().acquire_owned().await {
            Ok(permit) => permit,
            Err(_) => unreachable!("the pool is never closed"),
        }
    }

    /// A place for one more search or perft, held until the permit is
    /// dropped; 429 when `--max-searches` still run after a short wait
    /// (for one just told to stop, say an analysis a move ended).
    pub async fn search_slot(&self) -> Api<OwnedSemaphorePermit> {
        const WAIT: std::time::Duration = std::time::Duration::from_millis(300);
        let slots = self.slots.clone();
        match tokio::time::timeout(WAIT, slots.acquire_owned()).await {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("the server runs {} searches already (its cap); try again later", self.max_searches),
            )),
        }
    }

    /// Stops every search and commits the time the seat to move of each
    /// game with a running clock has used so far (the server is shutting
    /// down: no clock runs until it is back), in one commit.
    pub async fn stop_all(&self) {
        let games: Vec<Shared> = self.map().values().cloned().collect();
        let mut writes = Vec::new();
        for entry in games {
            let mut e = entry.lock().await;
            e.stop_search();
            let now = e.now();
            if !e.deleted && e.game.pause(now) {
                writes.push(Write::Save(Box::new(e.row())));
            }
        }
        if !writes.is_empty() {
            // A failed write is reported; the games keep their last saved clocks.
            if let Err(why) = self.db.commit(writes).await {
                eprintln!("catchess serve: the clocks' time at the stop was not saved: {why}");
            }
        }
    }

    /// Ends the database's writer once the requests have gone: the file is
    /// closed and its lock released when this returns.
    pub fn close(&self) {
        self.db.close();
    }
}
