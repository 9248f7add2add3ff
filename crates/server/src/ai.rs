//! The AI seat runner: whenever a game changes, play the forced drop-outs
//! and, while an AI seat is to move, ask the [`crate::MovePicker`] on a
//! blocking thread (never on the async executor) with the seat's level and
//! time. The engine checks the picked move like any other.

use crate::game::{SeatKind, Status};
use crate::state::{AppState, SharedGame};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Starts the runner for a game (it returns at once if there is nothing
/// to do).
pub fn kick(st: &AppState, game: SharedGame) {
    let st = st.clone();
    tokio::spawn(async move { run(st, game).await });
}

async fn run(st: AppState, game: SharedGame) {
    loop {
        let (pos, level, time_ms, ply) = {
            let mut g = game.lock().await;
            if g.ai_busy || g.status() != Status::Playing {
                return;
            }
            if let Some(m) = g.forced_move() {
                if let Err(e) = st.commit(&mut g, m).await {
                    eprintln!("warning: game {}: drop-out not stored: {}", g.id, e.message);
                    return;
                }
                continue;
            }
            let SeatKind::Ai { level, time_ms } = g.seats[g.pos.to_move()].kind else {
                return;
            };
            g.ai_busy = true;
            let _ = g.events.send(g.played.len());
            (g.pos.clone(), level, time_ms, g.played.len())
        };
        if !st.ai_pause.is_zero() {
            tokio::time::sleep(st.ai_pause).await;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let timer = {
            let stop = stop.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(time_ms as u64)).await;
                stop.store(true, Ordering::Relaxed);
            })
        };
        let picker = st.picker.clone();
        let picked =
            tokio::task::spawn_blocking(move || picker.pick(&pos, level, time_ms, &stop)).await;
        timer.abort();
        let mut g = game.lock().await;
        g.ai_busy = false;
        let m = match picked {
            Ok(Some(m)) if g.played.len() == ply => m,
            other => {
                if let Err(e) = other {
                    eprintln!("warning: game {}: the AI failed: {e}", g.id);
                }
                let _ = g.events.send(g.played.len());
                return;
            }
        };
        if !g.pos.legal_moves().iter().any(|&x| x == m) {
            eprintln!("warning: game {}: the AI picked an illegal move", g.id);
            let _ = g.events.send(g.played.len());
            return;
        }
        if let Err(e) = st.commit(&mut g, m).await {
            eprintln!("warning: game {}: AI move not stored: {}", g.id, e.message);
            let _ = g.events.send(g.played.len());
            return;
        }
    }
}

/// Starts the runner for every game (after loading them at start-up).
pub fn resume_all(st: &AppState) {
    for g in st.all_games() {
        kick(st, g);
    }
}
