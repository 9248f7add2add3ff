//! Group commit: the moves waiting to be stored are written together, in
//! one transaction and so one sync to disk (`synchronous = FULL`), by one
//! thread of their own. A move is durable when its answer comes; under
//! load many moves share the cost of a sync instead of queueing for one
//! each. Each move still succeeds or fails alone (a savepoint apiece).

use crate::game::LogEntry;
use crate::store::Store;
use std::sync::mpsc;
use std::sync::Arc;
use tokio::sync::oneshot;

/// Moves written in one transaction at most.
const BATCH: usize = 256;

/// A move to store, and where to say how it went.
struct Entry {
    game: String,
    ply: usize,
    entry: LogEntry,
    updated: i64,
    done: oneshot::Sender<Result<(), String>>,
}

/// The writer of moves.
pub struct Journal {
    entries: mpsc::Sender<Entry>,
}

impl Journal {
    /// Starts the writer thread on `store`.
    pub fn start(store: Arc<Store>) -> Result<Journal, String> {
        let (tx, rx) = mpsc::channel::<Entry>();
        std::thread::Builder::new()
            .name("quadrille-journal".into())
            .spawn(move || {
                while let Ok(first) = rx.recv() {
                    let mut batch = vec![first];
                    while batch.len() < BATCH {
                        match rx.try_recv() {
                            Ok(e) => batch.push(e),
                            Err(_) => break,
                        }
                    }
                    let moves: Vec<(&str, usize, &LogEntry, i64)> = batch
                        .iter()
                        .map(|e| (e.game.as_str(), e.ply, &e.entry, e.updated))
                        .collect();
                    let results = store.append_moves(&moves);
                    for (e, r) in batch.into_iter().zip(results) {
                        // The caller may be gone; the move is stored anyway.
                        let _ = e.done.send(r);
                    }
                }
            })
            .map_err(|e| format!("starting the journal thread: {e}"))?;
        Ok(Journal { entries: tx })
    }

    /// Stores line `ply` of `game`'s log (a move or an event); returns
    /// once it is on disk (or failed).
    pub async fn append(
        &self,
        game: &str,
        ply: usize,
        entry: LogEntry,
        updated: i64,
    ) -> Result<(), String> {
        let (done, result) = oneshot::channel();
        self.entries
            .send(Entry {
                game: game.to_string(),
                ply,
                entry,
                updated,
                done,
            })
            .map_err(|_| "the journal thread has stopped".to_string())?;
        result
            .await
            .map_err(|_| "the journal thread dropped the move".to_string())?
    }
}
