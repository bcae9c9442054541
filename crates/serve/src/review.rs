//! A game's review (issue #62): "analyse the whole game" fills the
//! evaluation graph and marks the mistakes.
//!
//! `GET /api/games/<id>/review/stream` is an event stream (SSE) with one
//! `position` event for each position a turn starts from, the start to
//! the end (in a game of one move a turn every position; in Cat's Chess
//! 10×10 each turn's start, so that a whole turn is judged), each the
//! engine's reading after a search of `--review-nodes` nodes, then `done`
//! with the whole review, sent once the review is stored with the game.
//! A turn is marked by the drop in its seat's own expected score from
//! the position before it to the one after (`catchess_engine::Slip`).
//!
//! A review is engine work like any search: it takes a slot of the pool
//! (429 when none is free), one runs per game at a time (409), it is
//! refused where the engine's thinking is hidden from the players (403),
//! and it stops when its client leaves (the stream is dropped, and with
//! it the search's control). `GET /api/games/<id>/review` answers the
//! stored review (404 before one is), which a take-back forgets
//! (`store.rs`: a change that takes moves back, or resumes a finished
//! game).

use super::clients::Client;
use super::error::ApiError;
use super::routes::THINKING_HIDDEN;
use super::session::{ScoreView, TurnView};
use super::store::{Entry, Shared};
use super::App;
use axum::extract::{Path, State as AppState};
use axum::http::StatusCode;
use axum::response::sse::{self, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use catchess_engine::{evaluate, expected_at_end, expected_scores, Slip};
use catchess_game::{Goal, History};
use catchess_games::Playable;
use catchess_search::{Limits, SearchControl, Searcher};
use futures_util::stream;
use serde::{Deserialize, Serialize};
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};

type Api<T> = Result<T, ApiError>;

/// One seat's expected score at a position, in per mille.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SeatScore {
    pub seat: String,
    pub per_mille: u32,
}

/// The engine's reading of one position of the game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Point {
    /// The position after `ply` moves.
    pub ply: usize,
    /// The turns played before it (the move list's entries).
    pub turn: usize,
    /// The seat to move there.
    pub seat: String,
    /// The search's score for the seat to move; `None` at the end of a
    /// game by its rules (then `expected` is the result), or when the
    /// search failed (then `expected` is empty).
    pub score: Option<ScoreView>,
    /// The value from the first seat's view, in centipawns (the graph's);
    /// at a game's end by its rules ±10000 for a win of the first or the
    /// second seat, else 0.
    pub first_seat_cp: i32,
    /// Each seat's expected score, in seat order.
    pub expected: Vec<SeatScore>,
    /// The engine's best move there, in the game's notation.
    pub best: Option<String>,
}

/// A turn the review marks.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Mark {
    /// The turn, from 1 (the move list's `data-turn`).
    pub turn: usize,
    /// Its last move (the move list's `data-ply`).
    pub ply: usize,
    pub seat: String,
    /// The turn in the game's notation.
    pub notation: String,
    /// `?!`, `?` or `??`.
    pub symbol: String,
    /// "an inaccuracy", "a mistake", "a blunder".
    pub words: String,
    /// The drop in the seat's own expected score, in per mille.
    pub drop: u32,
}

/// A whole game's review, as stored with the game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Review {
    /// The nodes searched at each position.
    pub nodes: u64,
    /// The moves of the game it judged.
    pub plies: usize,
    pub points: Vec<Point>,
    pub marks: Vec<Mark>,
}

/// ±this at the end of a game the first or second seat won (the graph's top or bottom).
const WON_CP: i32 = 10_000;

/// The reading of the position after `line`, whose turns played are `turn`.
pub fn point<G: Playable>(
    line: &History<G>,
    turn: usize,
    searcher: &mut Searcher<G>,
    limits: &Limits,
    control: &SearchControl,
) -> Point {
    let pos = line.current();
    let seats = G::SEATS;
    let to_move = pos.to_move().index();
    let named = |scores: Vec<u32>| -> Vec<SeatScore> {
        seats.iter().zip(scores).map(|(s, per_mille)| SeatScore { seat: s.name.to_string(), per_mille }).collect()
    };
    let (score, first_seat_cp, expected, best) = match line.outcome() {
        Some(o) => {
            let winner = o.winner.map(|w| w.index());
            let cp = match winner.map(|w| seats[w].goal) {
                Some(Goal::Maximise) => WON_CP,
                Some(Goal::Minimise) => -WON_CP,
                _ => 0,
            };
            (None, cp, named(expected_at_end(seats, winner)), None)
        }
        None => match evaluate(line, searcher, limits, control) {
            Some(r) => (
                Some(r.score.into()),
                r.first_seat_cp,
                named(expected_scores(pos, r.score, r.first_seat_cp)),
                r.best.map(|m| pos.record_move(m)),
            ),
            None => (None, 0, vec![], None),
        },
    };
    Point { ply: line.moves().len(), turn, seat: seats[to_move].name.to_string(), score, first_seat_cp, expected, best }
}

impl Review {
    /// The review of a game of `plies` moves from its `points` (one per
    /// turn's start, in order, and the end) and its `turns`: each turn
    /// marked by the drop in its seat's expected score across it, but the
    /// passes of a seat that forfeited (`passed`, by turn), the arbiter's
    /// moves, not the seat's.
    pub fn new(nodes: u64, plies: usize, points: Vec<Point>, turns: &[TurnView], passed: &[bool]) -> Review {
        let mut marks = Vec::new();
        for ((pair, turn), &passed) in points.windows(2).zip(turns).zip(passed.iter().chain(std::iter::repeat(&false)))
        {
            let [before, after] = pair else { continue };
            if passed {
                continue;
            }
            let own = |p: &Point| p.expected.iter().find(|s| s.seat == before.seat).map(|s| i64::from(s.per_mille));
            let (Some(was), Some(is)) = (own(before), own(after)) else { continue };
            let Some(slip) = Slip::of_drop(was - is) else { continue };
            marks.push(Mark {
                turn: before.turn + 1,
                ply: turn.last,
                seat: before.seat.clone(),
                notation: turn.notation.clone(),
                symbol: slip.symbol().to_string(),
                words: slip.words().to_string(),
                drop: (was - is) as u32,
            });
        }
        Review { nodes, plies, points, marks }
    }
}

/// Held while a game's review runs (its stream, and its search thread):
/// a second review of the game is refused until both have ended.
struct Running(Arc<AtomicBool>);

impl Running {
    fn take(flag: &Arc<AtomicBool>) -> Api<Arc<Running>> {
        flag.compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire).map_err(|_| {
            ApiError::conflict("this game's review is running already (one at a time); wait for its end")
        })?;
        Ok(Arc::new(Running(flag.clone())))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

/// Stops the review's search when dropped: the stream is dropped when its
/// client leaves or the server stops.
struct StopOnDrop(Arc<SearchControl>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// What the review's thread sends its stream.
enum Step {
    Point(Point),
    /// The review, or `None` when it was stopped.
    End(Option<Review>),
}

/// Refuses the review of a game whose thinking is hidden from its players
/// (403) or with more positions than `--max-review-positions` (422).
fn may_review(app: &App, e: &Entry) -> Api<()> {
    if !e.thinking_shown() {
        return Err(ApiError::new(StatusCode::FORBIDDEN, THINKING_HIDDEN));
    }
    let positions = e.game.review_plies().len();
    let max = app.config.max_review_positions;
    if positions > max {
        return Err(ApiError::unprocessable(format!(
            "this game has {positions} positions to review, more than the server's cap of {max} \
             (--max-review-positions)"
        )));
    }
    Ok(())
}

/// `GET /api/games/<id>/review/stream`: the review as it goes, then
/// stored (module note).
pub async fn stream(AppState(app): AppState<Arc<App>>, Path(id): Path<String>, client: Client) -> Api<Response> {
    let (e, _) = app.store.game(&id).await?.settle().await?;
    may_review(&app, &e)?;
    let running = Running::take(&e.reviewing)?;
    drop(e);
    let pass = app.clients.stream(client)?;
    let slot = app.store.search_slot().await?;
    // Checked again: the game may have changed while the slot was waited for.
    let e = app.store.game(&id).await?;
    may_review(&app, &e)?;
    let game = e.game.snapshot();
    let generation = e.generation;
    let shared = e.shared();
    drop(e);
    let control = Arc::new(SearchControl::new());
    let limits = Limits { nodes: Some(app.config.review_nodes), ..Limits::default() };
    let (tx, rx) = mpsc::unbounded_channel();
    let (hash_mb, thread_control, thread_running) = (app.config.hash_mb, control.clone(), running.clone());
    std::thread::spawn(move || {
        let review = game.review(&limits, hash_mb, &thread_control, &mut |p| {
            let _ = tx.send(Step::Point(p.clone()));
        });
        let _ = tx.send(Step::End(review));
        // The game may be reviewed again before its slot is free (a new
        // review waits a moment for a slot), never the other way round.
        drop(thread_running);
        drop(slot);
    });
    let feed = Feed {
        rx,
        shared,
        generation,
        closing: app.closing.subscribe(),
        _stop: StopOnDrop(control),
        _running: running,
        finished: false,
    };
    let events = stream::unfold(feed, |mut feed| async move {
        let event = feed.next().await?;
        Some((Ok::<_, Infallible>(event), feed))
    });
    let events = super::live::holding(events, pass);
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(10))).into_response())
}

/// What a review's stream waits on.
struct Feed {
    rx: mpsc::UnboundedReceiver<Step>,
    shared: Shared,
    /// The game's generation when the review began: a review of a game
    /// that changed meanwhile is not kept.
    generation: u64,
    closing: watch::Receiver<bool>,
    _stop: StopOnDrop,
    _running: Arc<Running>,
    finished: bool,
}

fn json_event(name: &str, data: &impl Serialize) -> sse::Event {
    sse::Event::default().event(name).data(serde_json::to_string(data).unwrap_or_else(|_| "{}".into()))
}

fn error_event(message: &str) -> sse::Event {
    json_event("error", &serde_json::json!({ "error": message }))
}

impl Feed {
    async fn next(&mut self) -> Option<sse::Event> {
        if self.finished || *self.closing.borrow() {
            return None;
        }
        let step = tokio::select! {
            step = self.rx.recv() => step,
            _ = self.closing.changed() => return None,
        };
        match step? {
            Step::Point(p) => Some(json_event("position", &p)),
            Step::End(None) => None,
            Step::End(Some(review)) => {
                self.finished = true;
                Some(match self.keep(review).await {
                    Ok(review) => json_event("done", &*review),
                    Err(e) => error_event(&e.message),
                })
            }
        }
    }

    /// Stores the review with its game, if the game is still the one
    /// reviewed.
    async fn keep(&self, review: Review) -> Api<Arc<Review>> {
        let e = super::store::Store::lock(self.shared.clone())
            .await
            .ok_or_else(|| ApiError::not_found("the game was deleted during its review"))?;
        if e.generation != self.generation {
            return Err(ApiError::conflict(
                "the game changed during its review (a move or a take-back): the review was not kept; ask again",
            ));
        }
        let review = Arc::new(review);
        e.keep_review(review.clone()).await?;
        Ok(review)
    }
}

/// `GET /api/games/<id>/review`: the stored review; 404 before one is
/// (or after a take-back forgot it).
pub async fn get(AppState(app): AppState<Arc<App>>, Path(id): Path<String>) -> Api<Response> {
    let e = app.store.game(&id).await?;
    if !e.thinking_shown() {
        return Err(ApiError::new(StatusCode::FORBIDDEN, THINKING_HIDDEN));
    }
    match &e.review {
        Some(review) => Ok(axum::Json(&**review).into_response()),
        None => Err(ApiError::not_found(
            "this game has no review yet (GET .../review/stream makes one; a take-back forgets it)",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ply: usize, seat: &str, scores: [u32; 2]) -> Point {
        let expected = ["white", "black"]
            .iter()
            .zip(scores)
            .map(|(s, per_mille)| SeatScore { seat: s.to_string(), per_mille })
            .collect();
        Point { ply, turn: ply, seat: seat.into(), score: None, first_seat_cp: 0, expected, best: None }
    }

    fn turn(seat: &'static str, notation: &str, ply: usize) -> TurnView {
        TurnView { seat, notation: notation.into(), first: ply, last: ply }
    }

    #[test]
    fn a_turn_is_marked_by_its_own_seats_drop_and_a_failed_search_marks_nothing() {
        let points = vec![
            at(0, "white", [500, 500]),
            at(1, "black", [380, 620]), // white: -12 points, an inaccuracy
            at(2, "white", [900, 100]), // black: -52, a blunder
            Point { expected: vec![], ..at(3, "black", [0, 0]) },
            at(4, "white", [0, 1000]),
        ];
        let turns = [turn("white", "c4", 1), turn("black", "f6", 2), turn("white", "Qh5", 3), turn("black", "g5", 4)];
        let review = Review::new(100, 4, points.clone(), &turns, &[]);
        let marks: Vec<(usize, &str, &str, u32)> =
            review.marks.iter().map(|m| (m.turn, m.notation.as_str(), m.symbol.as_str(), m.drop)).collect();
        assert_eq!(marks, [(1, "c4", "?!", 120), (2, "f6", "??", 520)]);
        assert_eq!(review.marks[1].words, "a blunder");
        // Black's turn a pass (black forfeited and the arbiter moves for it): not black's slip.
        let passed = Review::new(100, 4, points, &turns, &[false, true, false, false]);
        assert_eq!(passed.marks.iter().map(|m| m.turn).collect::<Vec<_>>(), [1]);
    }
}
