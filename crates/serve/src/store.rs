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
use super::db::{Db, Loaded, Write};
use super::error::ApiError;
use super::session::{AnyGame, Found, InfoView, State};
use axum::http::StatusCode;
use catchess_search::SearchControl;
use rand::Rng;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;
use tokio::sync::{broadcast, OwnedMutexGuard, OwnedSemaphorePermit, Semaphore};

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

pub struct Entry {
    pub id: String,
    pub game: Box<dyn AnyGame>,
    pub search: Option<Running>,
    pub events: broadcast::Sender<Event>,
    /// Counts changes of the game: a search's move is played only if the
    /// game is still the one it searched.
    pub generation: u64,
    /// Deleted (its deletion committed): the requests waiting on it find
    /// no game, and a search's move is not played.
    pub deleted: bool,
    /// The players' names of the seats the engine moved for (`catchess
    /// level 3`), by seat name, for the record. Kept while the server runs.
    pub players: HashMap<&'static str, String>,
    last_used: Instant,
    db: Arc<Db>,
    time: Arc<dyn TimeSource>,
}

/// A change made in memory and not committed yet: the game as it was
/// (put back if the commit fails) and the writes that keep the new one.
struct Pending {
    before: Box<dyn AnyGame>,
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

    /// The game's state now.
    pub fn state(&self) -> State {
        self.game.state(&self.id, self.now())
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

    /// Runs `change` on the game at the server's time; when `changed` says
    /// it changed the game, what committing it takes. A change that fails
    /// leaves the game as it was.
    fn apply<R>(
        &mut self,
        change: impl FnOnce(&mut dyn AnyGame, u64) -> Api<R>,
        changed: impl FnOnce(&R) -> bool,
    ) -> Api<(R, Option<Pending>)> {
        let before = self.game.snapshot();
        let now = self.now();
        let r = match change(&mut *self.game, now) {
            Ok(r) => r,
            Err(e) => {
                self.game = before;
                return Err(e);
            }
        };
        if !changed(&r) {
            return Ok((r, None));
        }
        self.generation += 1;
        let writes = vec![Write::Save(self.game.record(&self.id))];
        Ok((r, Some(Pending { before, writes })))
    }

    /// After the commit of a change: undone if it failed.
    fn conclude(&mut self, before: Box<dyn AnyGame>, committed: Result<(), String>) -> Api<()> {
        committed.map_err(|why| {
            self.game = before;
            not_saved(why)
        })
    }

    /// [`Locked::change`] for a search's thread, which may block on the
    /// commit.
    pub fn change_blocking<R>(&mut self, change: impl FnOnce(&mut dyn AnyGame, u64) -> Api<R>) -> Api<R> {
        let (r, pending) = self.apply(change, |_| true)?;
        if let Some(Pending { before, writes }) = pending {
            let committed = self.db.commit_blocking(writes);
            self.conclude(before, committed)?;
        }
        Ok(r)
    }

    /// [`Locked::settle`] for a search's thread.
    pub fn settle_blocking(&mut self) -> Api<Option<&'static str>> {
        let (seat, pending) = self.apply(|game, now| Ok(game.settle(now)), Option::is_some)?;
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
        mut self,
        change: impl FnOnce(&mut dyn AnyGame, u64) -> Api<R>,
        changed: impl FnOnce(&R) -> bool,
    ) -> Api<(Locked, R)> {
        let (r, pending) = self.apply(change, changed)?;
        let Some(Pending { before, writes }) = pending else { return Ok((self, r)) };
        let db = self.db.clone();
        let commit = tokio::spawn(async move {
            let committed = db.commit(writes).await;
            let concluded = self.conclude(before, committed);
            (self, concluded)
        });
        let (locked, concluded) = commit.await.map_err(interrupted)?;
        concluded.map(|()| (locked, r))
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

pub struct Store {
    games: Mutex<HashMap<String, Shared>>,
    time: Arc<dyn TimeSource>,
    next_search: AtomicU64,
    max_games: usize,
    db: Arc<Db>,
    /// One permit per search or perft running, server-wide.
    slots: Arc<Semaphore>,
    max_searches: usize,
}

/// A game to be evicted for a new one: its id, locked until the eviction
/// is committed.
type Victim = (String, OwnedMutexGuard<Entry>);

impl Store {
    /// The store with the games `loaded` from the database `db` (the
    /// `max_games` changed last); a game that cannot be read or does not
    /// replay is reported and left in the database.
    pub fn open(db: Db, loaded: Loaded, max_games: usize, max_searches: usize, time: Arc<dyn TimeSource>) -> Store {
        let store = Store {
            games: Mutex::new(HashMap::new()),
            time,
            next_search: AtomicU64::new(1),
            max_games: max_games.max(1),
            db: Arc::new(db),
            slots: Arc::new(Semaphore::new(max_searches.max(1))),
            max_searches: max_searches.max(1),
        };
        for (id, why) in loaded.unreadable {
            eprintln!("catchess serve: stored game {id} not restored (left in the database): {why}");
        }
        let mut games = store.map();
        for row in loaded.rows {
            let id = row.id.clone();
            match super::session::restore(row, store.now()) {
                Ok(game) => {
                    let entry = store.entry(id.clone(), game);
                    games.insert(id, entry);
                }
                Err(why) => eprintln!("catchess serve: stored game {id} not restored (left in the database): {why}"),
            }
        }
        drop(games);
        store
    }

    fn entry(&self, id: String, game: Box<dyn AnyGame>) -> Shared {
        let (events, _) = broadcast::channel(256);
        Arc::new(tokio::sync::Mutex::new(Entry {
            id,
            game,
            search: None,
            events,
            generation: 0,
            deleted: false,
            players: HashMap::new(),
            last_used: Instant::now(),
            db: self.db.clone(),
            time: self.time.clone(),
        }))
    }

    /// The server's time now, in ms (the clocks' time source).
    pub fn now(&self) -> u64 {
        self.time.now_ms()
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Shared>> {
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The idle game left alone the longest (no search running, nobody
    /// holding it), locked; 429 when every game is busy.
    fn victim(&self, games: &HashMap<String, Shared>) -> Api<Victim> {
        let mut oldest: Option<Victim> = None;
        for (id, entry) in games {
            let Ok(e) = entry.clone().try_lock_owned() else { continue };
            if e.search.is_none() && oldest.as_ref().is_none_or(|(_, o)| e.last_used < o.last_used) {
                oldest = Some((id.clone(), e));
            }
        }
        oldest.ok_or_else(|| {
            ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("the server holds {} games, all busy; try again later", self.max_games),
            )
        })
    }

    /// Holds a new game, committed before it returns (locked, for its
    /// first answer); when the store is full the game left alone the
    /// longest (with no search running) makes room, in the same commit.
    /// A failed commit leaves the store as it was (500).
    pub async fn insert(self: &Arc<Self>, game: Box<dyn AnyGame>) -> Api<Locked> {
        let id = new_id();
        let entry = self.entry(id.clone(), game);
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
        writes.push(Write::Save(mine.game.record(&id)));
        let store = self.clone();
        let commit = tokio::spawn(async move {
            match store.db.commit(writes).await {
                Ok(()) => {
                    if let Some((_, mut old)) = victim {
                        old.deleted = true;
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
        let mut e = self.get(id)?.lock_owned().await;
        if e.deleted {
            return Err(ApiError::not_found(format!("unknown game id {id:?}")));
        }
        e.last_used = Instant::now();
        Ok(Locked(e))
    }

    /// Forgets a game, in the database and then here; its search stops and
    /// its move, if any, is not played. A failed commit keeps the game (500).
    pub async fn remove(self: &Arc<Self>, id: &str) -> Api<()> {
        let mut e = self.game(id).await?;
        let store = self.clone();
        let commit = tokio::spawn(async move {
            store.db.commit(vec![Write::Delete(e.id.clone())]).await.map_err(not_saved)?;
            e.deleted = true;
            e.stop_search();
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
                writes.push(Write::Save(e.game.record(&e.id)));
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
