//! The games the server holds, each with the search running on it (if
//! any) and the channel its search events go out on.
//!
//! Locks: the store's map and each game are `std` mutexes held only for
//! a few statements, never across an `await` or a search; searches run on
//! threads of their own and take the game's lock once, at the end, to play
//! their move.

use super::error::ApiError;
use super::session::{AnyGame, Found, InfoView};
use crate::search::SearchControl;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;
use tokio::sync::broadcast;

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
    pub game: Box<dyn AnyGame>,
    pub search: Option<Running>,
    pub events: broadcast::Sender<Event>,
    /// Counts changes of the game: a search's move is played only if the
    /// game is still the one it searched.
    pub generation: u64,
    last_used: Instant,
}

impl Entry {
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

    /// Marks a change of the game.
    pub fn changed(&mut self) {
        self.generation += 1;
    }
}

pub type Shared = Arc<Mutex<Entry>>;

/// Locks a game; a panic elsewhere while it was held leaves the game as
/// it was, which is still a game.
pub fn lock(entry: &Shared) -> MutexGuard<'_, Entry> {
    entry.lock().unwrap_or_else(|p| p.into_inner())
}

pub struct Store {
    games: Mutex<HashMap<u64, Shared>>,
    next_id: AtomicU64,
    next_search: AtomicU64,
    max_games: usize,
}

impl Store {
    pub fn new(max_games: usize) -> Store {
        Store {
            games: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            next_search: AtomicU64::new(1),
            max_games: max_games.max(1),
        }
    }

    fn map(&self) -> MutexGuard<'_, HashMap<u64, Shared>> {
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Holds a new game; when the store is full the game left alone the
    /// longest (with no search running) makes room.
    pub fn insert(&self, game: Box<dyn AnyGame>) -> Result<(u64, Shared), ApiError> {
        let mut games = self.map();
        if games.len() >= self.max_games {
            let idle = games
                .iter()
                .filter_map(|(&id, e)| e.try_lock().ok().filter(|e| e.search.is_none()).map(|e| (e.last_used, id)))
                .min();
            match idle {
                Some((_, id)) => {
                    games.remove(&id);
                }
                None => {
                    return Err(ApiError::new(
                        axum::http::StatusCode::TOO_MANY_REQUESTS,
                        format!("the server holds {} games, all busy; try again later", self.max_games),
                    ))
                }
            }
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (events, _) = broadcast::channel(256);
        let entry =
            Arc::new(Mutex::new(Entry { game, search: None, events, generation: 0, last_used: Instant::now() }));
        games.insert(id, entry.clone());
        Ok((id, entry))
    }

    /// The game `id` (a path segment, so any text).
    pub fn get(&self, id: &str) -> Result<(u64, Shared), ApiError> {
        let unknown = || ApiError::not_found(format!("unknown game id {id:?}"));
        let n: u64 = id.parse().map_err(|_| unknown())?;
        let entry = self.map().get(&n).cloned().ok_or_else(unknown)?;
        lock(&entry).last_used = Instant::now();
        Ok((n, entry))
    }

    pub fn remove(&self, id: &str) -> Result<(), ApiError> {
        let (n, entry) = self.get(id)?;
        if let Some(r) = &lock(&entry).search {
            r.control.stop();
        }
        self.map().remove(&n);
        Ok(())
    }

    pub fn next_search_id(&self) -> u64 {
        self.next_search.fetch_add(1, Ordering::Relaxed)
    }
}
