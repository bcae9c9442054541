//! The other people's consent to a seat's request (issue #61): a
//! take-back (`takeback.rs`) or a draw offer (`draw.rs`) that needs it
//! waits in the table as a [`Proposal`], one at a time, seen by every
//! tab; each person it waits for answers (`POST answer`). The seats the
//! creator kept are one person's (`Table::same_person`): one answer for
//! them all. The last consent carries the request out; one refusal, the
//! asker's withdrawal or any move withdraws it. While it waits the engine
//! waits too (`seated.rs`), so the position it was asked in stays.

use super::error::{ApiError, Json};
use super::routes::SeatToken;
use super::seated;
use super::session::State;
use super::store::{Changed, Locked};
use super::table::{Proposal, ProposalKind};
use super::takeback::take_back_now;
use super::App;
use axum::extract::{Path, State as AppState};
use serde::Deserialize;
use std::sync::Arc;

type Api<T> = Result<T, ApiError>;

/// Puts `proposal` to the people it waits for, committed; the engine's
/// search on the game stops, unplayed, until they have answered.
pub async fn propose(mut e: Locked, proposal: Proposal) -> Api<Locked> {
    e.stop_search();
    let (e, ()) = e
        .change_seated(
            |_, table, _| {
                table.as_mut().expect("a table").proposal = Some(proposal);
                Ok(())
            },
            |_| Changed::Table,
        )
        .await?;
    Ok(e)
}

/// Ends the game now in a draw the seats agreed (`draw.rs`), committed.
pub async fn agree_draw(app: &Arc<App>, mut e: Locked) -> Api<Locked> {
    e.stop_search();
    e.make_changeable()?;
    let (mut e, ()) = e.change(|game, now| game.agree_draw(now)).await?;
    seated::kick(app, &mut e);
    Ok(e)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerRequest {
    accept: bool,
}

/// `POST /api/games/<id>/answer {"accept": true | false}`: a seat whose
/// consent the waiting request needs answers it (its asker may withdraw
/// it with `false`). The last consent carries it out.
pub async fn answer(
    AppState(app): AppState<Arc<App>>,
    Path(id): Path<String>,
    SeatToken(token): SeatToken,
    Json(req): Json<AnswerRequest>,
) -> Api<Json<State>> {
    let (e, _) = app.store.game(&id).await?.settle().await?;
    let Some(table) = &e.table else {
        return Err(ApiError::conflict("an analysis board asks nobody's consent"));
    };
    let seats = e.game.seats();
    let Some(proposal) = table.proposal.clone() else {
        return Err(ApiError::conflict("no take-back or draw offer waits for an answer"));
    };
    let seat = table.seat_acting(token.as_deref(), "an answer")?;
    let name = seats[seat].name;
    let what = proposal.kind.noun();
    // One answer is a person's, for every seat they hold.
    let asked = proposal.waiting.iter().any(|&s| table.same_person(s, seat));
    let asker = table.same_person(seat, proposal.by);
    if !(asked || (asker && !req.accept)) {
        return Err(ApiError::conflict(if asker {
            format!("{name} made this {what}; it waits for the others")
        } else {
            format!("{name}'s answer is not awaited (given already)")
        }));
    }
    let left: Vec<usize> = proposal.waiting.iter().copied().filter(|&s| !table.same_person(s, seat)).collect();
    let (mut e, ()) = match (req.accept, left.is_empty(), proposal.kind) {
        // Every consent given: carried out (which withdraws the request).
        (true, true, ProposalKind::TakeBack { plies }) => {
            let e = take_back_now(&app, e, plies).await?;
            return Ok(Json(e.state()));
        }
        (true, true, ProposalKind::Draw) => {
            let e = agree_draw(&app, e).await?;
            return Ok(Json(e.state()));
        }
        (true, false, _) => {
            e.change_seated(
                |_, table, _| {
                    if let Some(p) = &mut table.as_mut().expect("a table").proposal {
                        p.waiting = left;
                    }
                    Ok(())
                },
                |_| Changed::Table,
            )
            .await?
        }
        (false, _, _) => {
            e.change_seated(
                |_, table, _| {
                    table.as_mut().expect("a table").proposal = None;
                    Ok(())
                },
                |_| Changed::Table,
            )
            .await?
        }
    };
    seated::kick(&app, &mut e);
    Ok(Json(e.state()))
}
