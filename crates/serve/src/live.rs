//! Live boards (issue #61): `GET /api/games/<id>/events`, a
//! server-sent-events stream whose every `data:` line is the game's new
//! state, the first one sent at once (so a tab that reloads, or whose
//! connection dropped and came back, starts from the game as it is), then
//! one after each change that was committed: a move, a roll, a take-back,
//! a flag fall, a result, a seat joined, a take-back asked for or
//! answered. Each carries `id:` (the state's number); a tab that fell
//! behind gets the newest state, which holds every move. When the game is
//! deleted the stream says `event: gone` and ends.
//!
//! With `?search=true`, where the engine's thinking is shown, the stream
//! also carries the engine's searches on the game as the analysis stream
//! does (`event: start`, `info`, `done`), so that a tab needs one stream.
//!
//! Every stream holds a place of its client's (`clients.rs`): streams
//! cannot take every connection.

use super::clients::{Client, StreamPass};
use super::error::{ApiError, Query};
use super::routes::THINKING_HIDDEN;
use super::seated;
use super::store::{Event, Published};
use super::App;
use axum::extract::{Path, State as AppState};
use axum::http::StatusCode;
use axum::response::sse::{self, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream, StreamExt};
use serde::Deserialize;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, watch};

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct EventsQuery {
    /// Also the engine's searches (where its thinking is shown).
    #[serde(default)]
    search: bool,
}

/// `stream`, holding `pass` for as long as it lives.
pub fn holding<S: Stream + Send>(stream: S, pass: StreamPass) -> impl Stream<Item = S::Item> + Send {
    stream.map(move |item| {
        let _held = &pass;
        item
    })
}

/// What the stream waits on.
struct Feed {
    first: Option<sse::Event>,
    states: watch::Receiver<Published>,
    search: Option<broadcast::Receiver<Event>>,
    closing: watch::Receiver<bool>,
    done: bool,
}

fn state_event(version: u64, json: &str) -> sse::Event {
    sse::Event::default().id(version.to_string()).data(json)
}

/// The next search event, or never without a search feed.
async fn next_search(search: &mut Option<broadcast::Receiver<Event>>) -> Option<Event> {
    let Some(rx) = search else { return std::future::pending().await };
    loop {
        match rx.recv().await {
            Ok(event) => return Some(event),
            Err(broadcast::error::RecvError::Lagged(_)) => continue,
            Err(broadcast::error::RecvError::Closed) => return None,
        }
    }
}

impl Feed {
    async fn next(&mut self) -> Option<sse::Event> {
        if let Some(first) = self.first.take() {
            return Some(first);
        }
        if self.done || *self.closing.borrow() {
            return None;
        }
        tokio::select! {
            changed = self.states.changed() => {
                if changed.is_err() {
                    return None;
                }
                let published = self.states.borrow_and_update().clone();
                match published.state {
                    Some(json) => Some(state_event(published.version, &json)),
                    None => {
                        self.done = true;
                        Some(sse::Event::default().event("gone").data(r#"{"error":"the game was deleted"}"#))
                    }
                }
            }
            event = next_search(&mut self.search) => {
                let event = event?;
                let json = serde_json::to_string(&event).unwrap_or_else(|_| "{}".into());
                Some(sse::Event::default().event(event.name()).data(json))
            }
            _ = self.closing.changed() => None,
        }
    }
}

/// `GET /api/games/<id>/events[?search=true]`: the game's live stream.
pub async fn events(
    AppState(app): AppState<Arc<App>>,
    Path(id): Path<String>,
    client: Client,
    Query(query): Query<EventsQuery>,
) -> Result<Response, ApiError> {
    let (mut e, _) = app.store.game(&id).await?.settle().await?;
    if query.search && !e.thinking_shown() {
        return Err(ApiError::new(StatusCode::FORBIDDEN, THINKING_HIDDEN));
    }
    let pass = app.clients.stream(client)?;
    seated::kick(&app, &mut e);
    // Under the game's lock: no change falls between the first state and
    // the stream's.
    let json = serde_json::to_string(&e.state())
        .map_err(|err| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, err.to_string()))?;
    let feed = Feed {
        first: Some(state_event(e.version(), &json)),
        states: e.live.subscribe(),
        search: query.search.then(|| e.events.subscribe()),
        closing: app.closing.subscribe(),
        done: false,
    };
    drop(e);
    let stream = stream::unfold(feed, |mut feed| async move {
        let event = feed.next().await?;
        Some((Ok::<_, Infallible>(event), feed))
    });
    let stream = holding(stream, pass);
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(10))).into_response())
}
