//! One turn in one place: every change to a game, a person's move or
//! action from the API, an AI seat's move, a forced drop-out, a flag
//! falling, goes through [`commit`]: judge it, store it in the game's log,
//! apply it, tell the listeners, start the AI or the clock watch.
//!
//! The work runs in a task of its own that owns the game's lock, so it
//! runs to completion whatever happens to the caller: a client that resets
//! its connection while its move is being stored cannot leave the database
//! with a move that memory does not have. The database stays the source of
//! truth: a change is applied only after it is stored, and answered only
//! after both.

use crate::ai;
use crate::error::{ApiError, ApiResult};
use crate::game::{now, Action, Actor, Event, Game, Input, LogEntry, TurnError};
use crate::state::{clip, AppState, SharedGame};
use crate::view::{game_view, GameView};
use axum::http::StatusCode;
use quadrille_engine::MoveError;

/// Plays a move; for a person, returns the game as they see it
/// afterwards (the AI and the rules need no view).
pub async fn play(
    st: &AppState,
    game: SharedGame,
    actor: Actor,
    input: Input,
    ply: Option<usize>,
) -> ApiResult<Option<GameView>> {
    let viewer = match &actor {
        Actor::Seats(seats) => Some(seats.clone()),
        _ => None,
    };
    commit(st, game, viewer, move |g| {
        if matches!(actor, Actor::Ai { .. }) {
            g.ai_busy = false;
        }
        let m = g.judge(&actor, &input, ply).map_err(turn_error)?;
        Ok((Event::Move(m), g.clock_after_move()))
    })
    .await
}

/// Takes a person's action (resign, offer, agree, decline) for `seat` of
/// the seats they hold; returns the game as they see it afterwards.
pub async fn act(
    st: &AppState,
    game: SharedGame,
    seats: Vec<usize>,
    seat: Option<usize>,
    action: Action,
) -> ApiResult<GameView> {
    let held = seats.clone();
    commit(st, game, Some(held), move |g| {
        let e = g.judge_action(&seats, seat, action).map_err(turn_error)?;
        Ok((e, None))
    })
    .await?
    .ok_or_else(|| ApiError::internal("an action gave no view"))
}

/// Logs and applies what `judge` decides, in a task that owns the game's
/// lock; returns the view for `viewer`.
pub async fn commit<F>(
    st: &AppState,
    game: SharedGame,
    viewer: Option<Vec<usize>>,
    judge: F,
) -> ApiResult<Option<GameView>>
where
    F: FnOnce(&mut Game) -> ApiResult<(Event, Option<i64>)> + Send + 'static,
{
    let st2 = st.clone();
    let task = tokio::spawn(async move {
        let mut g = game.clone().lock_owned().await;
        let (event, clock_ms) = judge(&mut g)?;
        let entry = LogEntry {
            text: g.entry_text(&event),
            clock_ms,
        };
        let (id, at) = (g.id.clone(), g.log_len);
        st2.journal
            .append(&id, at, entry, now())
            .await
            .map_err(ApiError::internal)?;
        g.apply(event, clock_ms);
        let view = viewer.map(|seats| game_view(&g, seats));
        drop(g);
        ai::kick(&st2, game);
        Ok(view)
    });
    task.await
        .map_err(|e| ApiError::internal(format!("the move task failed: {e}")))?
}

/// A refused turn as an HTTP error.
fn turn_error(e: TurnError) -> ApiError {
    match e {
        TurnError::GameOver => ApiError::conflict("game_over", "the game is over"),
        TurnError::StalePly { meant, now } => ApiError::conflict(
            "stale_ply",
            format!("the move was meant for ply {meant}, but the game has {now} moves"),
        ),
        TurnError::NotYourTurn(name) => {
            ApiError::forbidden("not_your_turn", format!("it is {name}'s turn"))
        }
        TurnError::Move { text, error } => move_error(&text, error),
        TurnError::NotLegal(text) => ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("the server's own move `{text}` is not legal here"),
        ),
        TurnError::TimeOut => ApiError::conflict("time_out", "your time has run out"),
        TurnError::Refused(why) => ApiError::conflict("refused", why),
    }
}

/// The engine's verdict on a move as an HTTP error: a text that is no move
/// at all is a bad request; a move that needs a promotion letter says so
/// by its code (the front end then offers the choices); anything else the
/// engine refused is an illegal move, with the reason.
fn move_error(text: &str, e: MoveError) -> ApiError {
    let message = format!("move `{}`: {e}", clip(text));
    match e {
        MoveError::Syntax(_) => ApiError::bad_request("bad_move", message),
        MoveError::GameOver => ApiError::conflict("game_over", message),
        MoveError::PromotionNeeded(_) => ApiError::unprocessable("promotion_needed", message),
        _ => ApiError::unprocessable("illegal_move", message),
    }
}
