//! The server's shared state: the games in memory (each behind its own
//! lock, so games never wait for each other), the store, the variants and
//! the AI.

use crate::error::{ApiError, ApiResult};
use crate::game::{Game, LogEntry, Seat, SeatKind, Status};
use crate::http;
use crate::journal::Journal;
use crate::picker::MovePicker;
use crate::pool::AiPool;
use crate::store::{Store, StoredGame};
use crate::variants::{Source, Variants};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::Duration;
use tokio::sync::Mutex;

/// How to start a server.
#[derive(Clone, Debug)]
pub struct Config {
    /// The SQLite database file (created if missing).
    pub db: PathBuf,
    /// Extra variants: (where it came from, for messages; the file's text).
    pub variant_files: Vec<(String, String)>,
    /// Pause before each AI move, so that people can follow AI-only play.
    pub ai_pause: Duration,
    /// AI threads (at most the cores is best).
    pub ai_threads: usize,
    /// AI searches that may wait for a thread; more wait for room.
    pub ai_queue: usize,
    /// Games on with AI seats at most: a new one beyond is refused (503).
    pub max_ai_games: usize,
    /// Longest AI time per move a seat may ask for, in milliseconds.
    pub max_ai_time_ms: u32,
    /// Connection, timeout, size and rate limits of the front door.
    pub http: http::Limits,
    /// Delete games nobody has moved in for this long (`None`: keep all).
    pub expire_after: Option<Duration>,
}

impl Config {
    /// Defaults for a database file: no extra variants, a short AI pause.
    pub fn new(db: impl Into<PathBuf>) -> Config {
        Config {
            db: db.into(),
            variant_files: Vec::new(),
            ai_pause: Duration::from_millis(300),
            ai_threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            ai_queue: 256,
            max_ai_games: 64,
            max_ai_time_ms: 10_000,
            http: http::Limits::default(),
            expire_after: Some(Duration::from_secs(30 * 86_400)),
        }
    }
}

/// A game shared between requests and the AI runner.
pub type SharedGame = Arc<Mutex<Game>>;

/// Everything the handlers share.
pub struct Server {
    games: RwLock<HashMap<String, SharedGame>>,
    pub store: Arc<Store>,
    /// Stores moves, several per sync to disk.
    pub journal: Journal,
    pub variants: Variants,
    pub picker: Arc<dyn MovePicker>,
    pub ai_pause: Duration,
    /// Where AI searches run.
    pub ai_pool: AiPool,
    pub max_ai_games: usize,
    pub max_ai_time_ms: u32,
    /// What could not be loaded at start (reported by `GET /api/health`).
    pub skipped: Vec<String>,
    /// Games not moved in for this long are deleted.
    pub expire_after: Option<Duration>,
    /// The front door's limits and the clients' rate limiters.
    pub limits: http::Limits,
    pub rate: http::RateLimits,
}

/// The handlers' state.
pub type AppState = Arc<Server>;

impl Server {
    /// Opens the store and reloads every stored game by replaying its
    /// moves. A game that no longer replays (its variant is gone) is
    /// reported on standard error and left out.
    pub fn open(config: &Config, picker: Arc<dyn MovePicker>) -> Result<AppState, String> {
        let mut variants = Variants::embedded()?;
        for (origin, text) in &config.variant_files {
            variants.add_file(origin, text)?;
        }
        let store = Arc::new(Store::open(&config.db)?);
        let mut games = HashMap::new();
        let (ids, mut skipped) = store.ids()?;
        for id in ids {
            match store.load(&id).and_then(|stored| match stored {
                Some(s) => revive(&variants, s).map(Some),
                None => Ok(None),
            }) {
                Ok(Some(g)) => {
                    games.insert(id, Arc::new(Mutex::new(g)));
                }
                Ok(None) => {}
                Err(e) => skipped.push(format!("game {}: {e}", clip(&id))),
            }
        }
        for s in &skipped {
            eprintln!("warning: not loaded: {s}");
        }
        Ok(Arc::new(Server {
            games: RwLock::new(games),
            journal: Journal::start(store.clone())?,
            store,
            variants,
            picker,
            ai_pause: config.ai_pause,
            ai_pool: AiPool::new(config.ai_threads, config.ai_queue),
            max_ai_games: config.max_ai_games,
            max_ai_time_ms: config.max_ai_time_ms,
            skipped,
            expire_after: config.expire_after,
            limits: config.http.clone(),
            rate: http::RateLimits::new(&config.http),
        }))
    }

    /// The game with this id.
    pub fn game(&self, id: &str) -> ApiResult<SharedGame> {
        self.games
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::not_found("game_not_found", format!("no game `{}`", clip(id))))
    }

    /// Every game.
    pub fn all_games(&self) -> Vec<SharedGame> {
        let games = self.games.read().unwrap_or_else(|p| p.into_inner());
        games.values().cloned().collect()
    }

    /// Deletes the games nobody has moved in for `expire_after` (from
    /// memory and the store); returns how many.
    pub async fn expire(&self) -> usize {
        let Some(age) = self.expire_after else {
            return 0;
        };
        let cutoff = crate::game::now() - age.as_secs() as i64;
        let mut old = Vec::new();
        for g in self.all_games() {
            let g = g.lock().await;
            if g.updated < cutoff && !g.ai_busy {
                old.push(g.id.clone());
            }
        }
        let mut n = 0;
        for id in old {
            let store = self.store.clone();
            let gone = id.clone();
            let deleted = tokio::task::spawn_blocking(move || store.delete(&gone)).await;
            if matches!(deleted, Ok(Ok(()))) {
                self.games
                    .write()
                    .unwrap_or_else(|p| p.into_inner())
                    .remove(&id);
                n += 1;
            }
        }
        n
    }

    /// Games still on that have an AI seat (a game busy right now counts:
    /// it is most likely an AI thinking).
    pub fn ai_games(&self) -> usize {
        self.all_games()
            .iter()
            .filter(|g| match g.try_lock() {
                Ok(g) => {
                    *g.status() == Status::Playing
                        && g.seats
                            .iter()
                            .any(|s| matches!(s.kind, SeatKind::Ai { .. }))
                }
                Err(_) => true,
            })
            .count()
    }

    /// Creates, stores and registers a new game.
    pub async fn create(
        &self,
        source: Source,
        seats: Vec<Seat>,
        start: Option<&str>,
        clock: Option<crate::clock::TimeControl>,
        moves: &[String],
    ) -> ApiResult<SharedGame> {
        let id = crate::token::new_game_id().map_err(ApiError::internal)?;
        let log: Vec<LogEntry> = moves.iter().map(LogEntry::plain).collect();
        let game = Game::new(id.clone(), source, seats, start, clock, &log)
            .map_err(|e| ApiError::unprocessable("bad_game", e))?;
        let stored = StoredGame::of(&game);
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || store.insert(&stored))
            .await
            .map_err(|e| ApiError::internal(e.to_string()))?
            .map_err(ApiError::internal)?;
        let shared = Arc::new(Mutex::new(game));
        self.games
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, shared.clone());
        Ok(shared)
    }
}

/// A stored game back in memory.
fn revive(variants: &Variants, s: StoredGame) -> Result<Game, String> {
    let source = variants.resolve(&s.variant, s.variant_file.as_deref())?;
    let mut g = Game::new(s.id, source, s.seats, Some(&s.start), s.clock, &s.log)?;
    g.created = s.created;
    g.updated = s.updated;
    Ok(g)
}

/// At most 40 characters of user text in a message.
pub fn clip(s: &str) -> String {
    let mut c: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        c.push_str("...");
    }
    c
}
