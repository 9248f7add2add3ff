//! The AI seat runner: whenever a game changes, play the forced drop-outs
//! and, while an AI seat is to move, ask the [`crate::MovePicker`] on the
//! AI pool ([`crate::pool`]) with the seat's level and time. Its move is
//! played through [`crate::turn::play`] like anyone's. If storing fails
//! (a full disk), the runner waits and tries again, so the game resumes by
//! itself once the storage works.

use crate::game::{Actor, Input, SeatKind, Status};
use crate::state::{AppState, SharedGame};
use crate::turn;
use axum::http::StatusCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// First and longest wait before trying a failed store again.
const RETRY_FIRST: Duration = Duration::from_millis(250);
const RETRY_MAX: Duration = Duration::from_secs(10);

/// Starts the runner for a game (it returns at once if there is nothing
/// to do), and the watch on the running clock.
pub fn kick(st: &AppState, game: SharedGame) {
    let st = st.clone();
    tokio::spawn(async move {
        watch_clock(&st, game.clone()).await;
        run(st, game).await
    });
}

/// Ends the turn of a player whose time runs out: waits until the running
/// clock's deadline and, if nothing happened meanwhile, logs the flag.
async fn watch_clock(st: &AppState, game: SharedGame) {
    let (line, player, deadline) = {
        let g = game.lock().await;
        match g.clocks.as_ref().and_then(|c| c.deadline()) {
            Some((p, at)) if *g.status() == Status::Playing => (g.log_len, p, at),
            _ => return,
        }
    };
    let st = st.clone();
    tokio::spawn(async move {
        tokio::time::sleep_until(deadline.into()).await;
        let _ = turn::commit(&st, game, None, move |g| {
            if g.log_len != line || g.time_left(player) != Some(0) {
                return Err(crate::error::ApiError::conflict(
                    "stale",
                    "the clock moved on",
                ));
            }
            Ok((crate::game::Event::Flag(player), None))
        })
        .await;
    });
}

/// What the runner does next.
enum Next {
    /// The rules play the drop-out.
    Forced(quadrille_engine::Move),
    /// The AI in `seat` thinks about the position after `ply` moves.
    Think {
        seat: usize,
        ply: usize,
        pos: Box<quadrille_engine::Position>,
        level: u8,
        time_ms: u32,
    },
}

async fn run(st: AppState, game: SharedGame) {
    let mut retry = RETRY_FIRST;
    loop {
        let next = {
            let mut g = game.lock().await;
            if g.ai_busy || *g.status() != Status::Playing {
                return;
            }
            if let Some(m) = g.forced_move() {
                Next::Forced(m)
            } else {
                let seat = g.pos.to_move();
                let SeatKind::Ai { level, time_ms } = g.seats[seat].kind else {
                    return;
                };
                // With a clock, the AI thinks no longer than its time allows.
                let time_ms = match (&g.clocks, g.time_left(seat)) {
                    (Some(c), Some(left)) => {
                        (c.control.ai_budget_ms(left).min(time_ms as i64)) as u32
                    }
                    _ => time_ms,
                };
                g.ai_busy = true;
                g.notify();
                Next::Think {
                    seat,
                    ply: g.played.len(),
                    pos: Box::new(g.pos.clone()),
                    level,
                    time_ms,
                }
            }
        };
        let (actor, m) = match next {
            Next::Forced(m) => (Actor::Rules, m),
            Next::Think {
                seat,
                ply,
                pos,
                level,
                time_ms,
            } => {
                if !st.ai_pause.is_zero() {
                    tokio::time::sleep(st.ai_pause).await;
                }
                let picker = st.picker.clone();
                let stop = Arc::new(AtomicBool::new(false));
                let picked = st
                    .ai_pool
                    .run(move || picker.pick(&pos, level, time_ms, &stop))
                    .await
                    .flatten();
                let Some(m) = picked else {
                    let mut g = game.lock().await;
                    eprintln!("warning: game {}: the AI found no move", g.id);
                    g.ai_busy = false;
                    g.notify();
                    return;
                };
                (Actor::Ai { seat, ply }, m)
            }
        };
        match turn::play(&st, game.clone(), actor, Input::Move(m), None).await {
            // The turn task kicks the runner again.
            Ok(_) => return,
            Err(e) if e.status == StatusCode::INTERNAL_SERVER_ERROR => {
                {
                    let mut g = game.lock().await;
                    eprintln!(
                        "warning: game {}: move not stored ({}); trying again in {:?}",
                        g.id, e.message, retry
                    );
                    g.ai_busy = false;
                    g.notify();
                }
                tokio::time::sleep(retry).await;
                retry = (retry * 2).min(RETRY_MAX);
            }
            // Someone else moved meanwhile (their turn kicks the runner),
            // or the game ended.
            Err(_) => {
                let mut g = game.lock().await;
                g.ai_busy = false;
                g.notify();
                return;
            }
        }
    }
}

/// Starts the runner for every game (after loading them at start-up).
pub fn resume_all(st: &AppState) {
    for g in st.all_games() {
        kick(st, g);
    }
}
