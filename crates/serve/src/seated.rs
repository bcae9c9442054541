//! The engine seated by the server (issue #61): at a table, when an
//! engine seat is to move, the server plays it, whether or not any tab
//! is open, at the seat's level (`levels.rs`) and the server's default
//! time, in a slot of the search pool (it waits for one: no one asks for
//! the move again); on a clock, it spends a share of its time left. No
//! client asks for these moves, so no client can make
//! the engine move for a person's seat, nor choose how it plays: a
//! viewer's visit changes nothing but this: a game found waiting on the
//! engine (after a failed commit, say) is started again.
//!
//! One task per game plays its engine seats in turn (Cat Chess's black
//! and cats, a 10×10 turn's steps), started by [`kick`] after every change
//! that may leave an engine seat to move, and at the server's start for
//! the stored games waiting on one ([`resume`]). It stops when a person is
//! to move, the game is over or gone, a take-back or draw waits for the
//! people's consent (the engine waits too), or the server stops.

use super::levels;
use super::routes::{start_search, SearchOrder};
use super::store::{Entry, Locked, SearchKind, Shared, Store};
use super::App;
use catchess_search::{Limits, Strength};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::oneshot;

/// How long the task waits before trying again after a move that could
/// not be committed (a full disk, a database another process locks).
const RETRY: Duration = Duration::from_secs(5);

/// The shortest search the engine makes on a clock.
const MIN_MOVETIME_MS: u64 = 10;

/// The engine's time for a move: the server's default, and on a clock
/// (`left_ms`, `inc_ms`) no more than a thirtieth of what is left and half
/// the increment, so that its clock, shown beside the board like the
/// people's, runs out no sooner than theirs.
fn movetime(default_ms: u64, clock: Option<(u64, u64)>) -> Duration {
    let ms = match clock {
        Some((left, inc)) => default_ms.min(left / 30 + inc / 2).max(MIN_MOVETIME_MS),
        None => default_ms,
    };
    Duration::from_millis(ms)
}

/// The level of the engine seat to move, if the server is to play it now.
fn engine_turn(e: &Entry) -> Option<u8> {
    let table = e.table.as_ref()?;
    if e.deleted || table.proposal.is_some() || e.game.is_over().is_some() {
        return None;
    }
    table.engine_level(e.game.to_move())
}

/// Starts the task that plays the engine's seats of `e` if one of them is
/// to move and no task plays them yet.
pub fn kick(app: &Arc<App>, e: &mut Locked) {
    if e.driver || engine_turn(e).is_none() {
        return;
    }
    e.driver = true;
    tokio::spawn(drive(app.clone(), e.shared()));
}

/// Starts the engine of every stored game waiting on one.
pub async fn resume(app: &Arc<App>) {
    for shared in app.store.all() {
        if let Some(mut e) = Store::lock(shared).await {
            kick(app, &mut e);
        }
    }
}

/// The engine's moves on `game` until no engine seat is to move.
async fn drive(app: Arc<App>, game: Shared) {
    let mut closing = app.closing.subscribe();
    loop {
        let slot = tokio::select! {
            slot = app.store.search_slot_waiting() => slot,
            _ = closing.changed() => return,
        };
        let Some(mut e) = Store::lock(game.clone()).await else { return };
        let Some(level) = engine_turn(&e).filter(|_| !*closing.borrow()) else {
            e.driver = false;
            return;
        };
        // An analysis (where the thinking is shown) gives way to the move.
        e.stop_search();
        let default_ms = app.config.default_movetime_ms.min(app.config.max_movetime_ms);
        let limits =
            Limits { movetime: Some(movetime(default_ms, e.game.clock_to_move(app.store.now()))), ..Limits::default() };
        let skill = levels::skill(level).unwrap_or(None);
        let (tx, rx) = oneshot::channel();
        let order = SearchOrder {
            kind: SearchKind::Engine,
            limits,
            strength: Strength::new(skill, rand::random()),
            slot,
            on_found: Some(tx),
        };
        let generation = e.generation;
        let owner = match start_search(&app, &mut e, order) {
            Ok(owner) => owner,
            Err(why) => {
                eprintln!("catchess serve: game {}: the engine's move could not start: {}", e.id, why.message);
                e.driver = false;
                return;
            }
        };
        drop(e);
        let answer = rx.await;
        drop(owner);
        match answer {
            Ok((_, Ok(true))) => continue,
            Ok((_, Err(not_saved))) => {
                eprintln!("catchess serve: the engine's move was not kept ({}); trying again", not_saved.message);
                tokio::time::sleep(RETRY).await;
            }
            // Not played: the game changed (the task looks again), or the
            // search found nothing in a game that did not change (it waits
            // a moment rather than spin).
            Ok((_, Ok(false))) | Err(_) => {
                let unchanged = Store::lock(game.clone()).await.is_some_and(|e| e.generation == generation);
                if unchanged {
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_a_clock_the_engine_spends_a_share_of_its_time() {
        let ms = |clock| movetime(1000, clock).as_millis();
        assert_eq!(ms(None), 1000);
        // A minute left: the default; three seconds: a tenth of one.
        assert_eq!(ms(Some((60_000, 0))), 1000);
        assert_eq!(ms(Some((3_000, 0))), 100);
        assert_eq!(ms(Some((3_000, 1_000))), 600);
        // Never nothing.
        assert_eq!(ms(Some((0, 0))), MIN_MOVETIME_MS as u128);
    }
}
