//! The games the server holds, each with the search running on it (if
//! any) and the channel its search events go out on; every change is
//! written to the database (`db.rs`) before it is answered, and the routes
//! settle a game (find a flag fall: `clock.rs`) under the lock they act
//! under. Searches and perft take a slot of a server-wide pool
//! (`--max-searches`) for as long as they run.
//!
//! Locks: the store's map and each game are `std` mutexes held only for
//! a few statements, never across an `await` or a search; searches run on
//! threads of their own and take the game's lock once, at the end, to play
//! their move.

use super::clock::TimeSource;
use super::db::Db;
use super::error::ApiError;
use super::session::{AnyGame, Found, InfoView, State};
use crate::search::SearchControl;
use axum::http::StatusCode;
use rand::Rng;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;
use tokio::sync::{broadcast, OwnedSemaphorePermit, Semaphore};

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
}

pub struct Entry {
    pub id: String,
    pub game: Box<dyn AnyGame>,
    pub search: Option<Running>,
    pub events: broadcast::Sender<Event>,
    /// Counts changes of the game: a search's move is played only if the
    /// game is still the one it searched.
    pub generation: u64,
    /// Deleted while a request held it: a search's move is not played.
    pub deleted: bool,
    /// The players' names of the seats the engine moved for (`catchess
    /// level 3`), by seat name, for the record. Kept while the server runs.
    pub players: HashMap<&'static str, String>,
    last_used: Instant,
    db: Arc<Db>,
    time: Arc<dyn TimeSource>,
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

    /// Ends the game by time forfeit if the seat to move's clock ran out
    /// (written to the database at once; a search on the game stops, and
    /// an engine's move is then not played); returns that seat's name.
    pub fn settle(&mut self) -> Result<Option<&'static str>, ApiError> {
        let Some(seat) = self.game.settle(self.now()) else { return Ok(None) };
        if let Some(r) = self.search.take() {
            r.control.stop();
        }
        self.changed()?;
        Ok(Some(seat))
    }

    /// Stops an analysis so that the game can change; refuses while the
    /// engine is thinking of its move.
    pub fn make_changeable(&mut self) -> Result<(), ApiError> {
        match &self.search {
            Some(r) if r.kind == SearchKind::Engine => {
                Err(ApiError::conflict("the engine is thinking; wait for its move or stop it"))
            }
            Some(r) => {
                r.control.stop();
                self.search = None;
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// Marks a change of the game and writes it to the database before
    /// anyone hears of it.
    pub fn changed(&mut self) -> Result<(), ApiError> {
        self.generation += 1;
        self.save()
    }

    fn save(&self) -> Result<(), ApiError> {
        if self.deleted {
            return Ok(());
        }
        self.db.save(&self.game.record(&self.id)).map_err(|e| {
            eprintln!("catchess serve: {e}");
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("the game changed but was not saved: {e}"))
        })
    }

    /// Ends the search on the game, if any, and forgets it: its move (an
    /// engine's) is not played. For a client that has gone.
    pub fn abandon(&mut self, search: u64) {
        if let Some(r) = self.search.as_ref().filter(|r| r.id == search) {
            r.control.stop();
            self.search = None;
        }
    }
}

pub type Shared = Arc<Mutex<Entry>>;

/// Locks a game; a panic elsewhere while it was held leaves the game as
/// it was, which is still a game.
pub fn lock(entry: &Shared) -> MutexGuard<'_, Entry> {
    entry.lock().unwrap_or_else(|p| p.into_inner())
}

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

impl Store {
    /// The store with the games of `db` (the `max_games` changed last);
    /// a game that does not replay is reported and left in the database.
    pub fn open(db: Db, max_games: usize, max_searches: usize, time: Arc<dyn TimeSource>) -> Store {
        let store = Store {
            games: Mutex::new(HashMap::new()),
            time,
            next_search: AtomicU64::new(1),
            max_games: max_games.max(1),
            db: Arc::new(db),
            slots: Arc::new(Semaphore::new(max_searches.max(1))),
            max_searches: max_searches.max(1),
        };
        let loaded = store.db.load(store.max_games).unwrap_or_else(|e| {
            eprintln!("catchess serve: cannot read the stored games: {e}");
            super::db::Loaded { rows: vec![], unreadable: vec![] }
        });
        for (id, why) in loaded.unreadable {
            eprintln!("catchess serve: stored game {id} not restored: {why}");
        }
        let mut games = store.map();
        for row in loaded.rows {
            let id = row.id.clone();
            match super::session::restore(row, store.now()) {
                Ok(game) => {
                    let entry = store.entry(id.clone(), game);
                    games.insert(id, entry);
                }
                Err(why) => eprintln!("catchess serve: stored game {id} not restored: {why}"),
            }
        }
        drop(games);
        store
    }

    fn entry(&self, id: String, game: Box<dyn AnyGame>) -> Shared {
        let (events, _) = broadcast::channel(256);
        Arc::new(Mutex::new(Entry {
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

    /// Holds (and saves) a new game; when the store is full the game left
    /// alone the longest (with no search running) makes room.
    pub fn insert(&self, game: Box<dyn AnyGame>) -> Result<(String, Shared), ApiError> {
        let mut games = self.map();
        if games.len() >= self.max_games {
            let idle = games
                .iter()
                .filter_map(|(id, e)| {
                    e.try_lock().ok().filter(|e| e.search.is_none()).map(|e| (e.last_used, id.clone()))
                })
                .min();
            match idle {
                Some((_, id)) => {
                    if let Some(old) = games.remove(&id) {
                        lock(&old).deleted = true;
                    }
                    self.db.delete(&id).map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?;
                }
                None => {
                    return Err(ApiError::new(
                        StatusCode::TOO_MANY_REQUESTS,
                        format!("the server holds {} games, all busy; try again later", self.max_games),
                    ))
                }
            }
        }
        let id = new_id();
        let entry = self.entry(id.clone(), game);
        lock(&entry).save()?;
        games.insert(id.clone(), entry.clone());
        Ok((id, entry))
    }

    /// The game `id` (a path segment, so any text).
    pub fn get(&self, id: &str) -> Result<(String, Shared), ApiError> {
        let entry =
            self.map().get(id).cloned().ok_or_else(|| ApiError::not_found(format!("unknown game id {id:?}")))?;
        lock(&entry).last_used = Instant::now();
        Ok((id.to_string(), entry))
    }

    /// Forgets a game, here and in the database; its search stops and
    /// its move, if any, is not played.
    pub fn remove(&self, id: &str) -> Result<(), ApiError> {
        let (id, entry) = self.get(id)?;
        {
            let mut e = lock(&entry);
            e.deleted = true;
            if let Some(r) = e.search.take() {
                r.control.stop();
            }
        }
        self.map().remove(&id);
        self.db.delete(&id).map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))
    }

    pub fn next_search_id(&self) -> u64 {
        self.next_search.fetch_add(1, Ordering::Relaxed)
    }

    /// A place for one more search or perft, held until the permit is
    /// dropped; 429 when `--max-searches` still run after a short wait
    /// (for one just told to stop, say an analysis a move ended).
    pub async fn search_slot(&self) -> Result<OwnedSemaphorePermit, ApiError> {
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

    /// Stops every search and writes the time the seat to move of each
    /// game with a running clock has used so far (the server is shutting
    /// down: no clock runs until it is back).
    pub fn stop_all(&self) {
        let games: Vec<Shared> = self.map().values().cloned().collect();
        for entry in games {
            let mut e = lock(&entry);
            if let Some(r) = e.search.take() {
                r.control.stop();
            }
            let now = e.now();
            if e.game.pause(now) {
                // A failed write is reported; the game keeps its last saved clocks.
                let _ = e.save();
            }
        }
    }
}
