//! One turn in one place: every move, a person's from the API, an AI
//! seat's or a forced drop-out, goes through [`play`]: judge it, store it,
//! apply it, tell the listeners, start the AI if it is to move next.
//!
//! The work runs in a task of its own that owns the game's lock, so it
//! runs to completion whatever happens to the caller: a client that resets
//! its connection while its move is being stored cannot leave the database
//! with a move that memory does not have. The database stays the source of
//! truth: a move is applied only after it is stored, and answered only
//! after both.

use crate::ai;
use crate::error::{ApiError, ApiResult};
use crate::game::{now, Actor, Input, TurnError};
use crate::state::{clip, AppState, SharedGame};
use crate::view::{game_view, GameView};
use axum::http::StatusCode;
use quadrille_engine::MoveError;

/// Plays a turn; for a person, returns the game as they see it
/// afterwards (the AI and the rules need no view).
pub async fn play(
    st: &AppState,
    game: SharedGame,
    actor: Actor,
    input: Input,
    ply: Option<usize>,
) -> ApiResult<Option<GameView>> {
    let st2 = st.clone();
    let task = tokio::spawn(async move {
        let mut g = game.clone().lock_owned().await;
        if matches!(actor, Actor::Ai { .. }) {
            g.ai_busy = false;
        }
        let m = g.judge(&actor, &input, ply).map_err(turn_error)?;
        let (id, at, text) = (g.id.clone(), g.played.len(), g.pos.move_to_string(m));
        st2.journal
            .append(&id, at, &text, now())
            .await
            .map_err(ApiError::internal)?;
        g.apply(m);
        let view = match &actor {
            Actor::Seats(seats) => Some(game_view(&g, seats.clone())),
            _ => None,
        };
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
