//! The game store: an embedded SQLite database. A game is its variant
//! (name, and the file's text when it is not embedded), its seats (kinds
//! and token hashes, as JSON), its start position and its moves; the
//! position itself is never stored but replayed on loading.

use crate::game::{Game, Seat};
use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;
use std::sync::Mutex;

/// A game as stored.
#[derive(Debug, Clone)]
pub struct StoredGame {
    pub id: String,
    pub variant: String,
    pub variant_file: Option<String>,
    pub seats: Vec<Seat>,
    pub start: String,
    pub moves: Vec<String>,
    pub created: i64,
    pub updated: i64,
}

/// The database behind a mutex (one connection; statements are short).
pub struct Store {
    conn: Mutex<Connection>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id           TEXT PRIMARY KEY,
    variant      TEXT NOT NULL,
    variant_file TEXT,
    seats        TEXT NOT NULL,
    start        TEXT NOT NULL,
    created      INTEGER NOT NULL,
    updated      INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL REFERENCES games(id),
    ply  INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (game, ply)
);
";

fn db_err(what: &str) -> impl Fn(rusqlite::Error) -> String + '_ {
    move |e| format!("game store, {what}: {e}")
}

impl Store {
    /// Opens (creating if needed) the database file.
    pub fn open(path: &Path) -> Result<Store, String> {
        let conn =
            Connection::open(path).map_err(|e| format!("game store {}: {e}", path.display()))?;
        // WAL: readers do not block the writer, and a commit needs no
        // full sync of the database file.
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
        )
        .map_err(db_err("settings"))?;
        conn.execute_batch(SCHEMA).map_err(db_err("schema"))?;
        Ok(Store {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic elsewhere while holding the lock leaves the connection
        // usable: every write is one statement or one transaction.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Holds the connection, so that every read and write waits until the
    /// guard is dropped: for tests that need a write in flight.
    #[doc(hidden)]
    pub fn hold_for_test(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn()
    }

    /// Stores a new game with its moves so far.
    pub fn insert(&self, g: &StoredGame) -> Result<(), String> {
        let seats = serde_json::to_string(&g.seats).map_err(|e| e.to_string())?;
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(db_err("insert"))?;
        tx.execute(
            "INSERT INTO games (id, variant, variant_file, seats, start, created, updated)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                g.id,
                g.variant,
                g.variant_file,
                seats,
                g.start,
                g.created,
                g.updated
            ],
        )
        .map_err(db_err("insert"))?;
        for (ply, text) in g.moves.iter().enumerate() {
            tx.execute(
                "INSERT INTO moves (game, ply, text) VALUES (?1, ?2, ?3)",
                params![g.id, ply as i64, text],
            )
            .map_err(db_err("insert move"))?;
        }
        tx.commit().map_err(db_err("insert"))
    }

    /// Appends the move played at `ply` (counting from 0).
    pub fn append_move(
        &self,
        id: &str,
        ply: usize,
        text: &str,
        updated: i64,
    ) -> Result<(), String> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(db_err("move"))?;
        tx.execute(
            "INSERT INTO moves (game, ply, text) VALUES (?1, ?2, ?3)",
            params![id, ply as i64, text],
        )
        .map_err(db_err("move"))?;
        tx.execute(
            "UPDATE games SET updated = ?2 WHERE id = ?1",
            params![id, updated],
        )
        .map_err(db_err("move"))?;
        tx.commit().map_err(db_err("move"))
    }

    /// One game, if stored.
    pub fn load(&self, id: &str) -> Result<Option<StoredGame>, String> {
        let conn = self.conn();
        let row = conn
            .query_row(
                "SELECT id, variant, variant_file, seats, start, created, updated FROM games WHERE id = ?1",
                params![id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, Option<String>>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, String>(4)?,
                        r.get::<_, i64>(5)?,
                        r.get::<_, i64>(6)?,
                    ))
                },
            )
            .optional()
            .map_err(db_err("load"))?;
        let Some((id, variant, variant_file, seats, start, created, updated)) = row else {
            return Ok(None);
        };
        let seats: Vec<Seat> = serde_json::from_str(&seats)
            .map_err(|e| format!("game store, game {id}: seats: {e}"))?;
        let mut stmt = conn
            .prepare("SELECT text FROM moves WHERE game = ?1 ORDER BY ply")
            .map_err(db_err("moves"))?;
        let moves = stmt
            .query_map(params![id], |r| r.get::<_, String>(0))
            .map_err(db_err("moves"))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(db_err("moves"))?;
        Ok(Some(StoredGame {
            id,
            variant,
            variant_file,
            seats,
            start,
            moves,
            created,
            updated,
        }))
    }

    /// The ids of every stored game, oldest first.
    pub fn ids(&self) -> Result<Vec<String>, String> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare("SELECT id FROM games ORDER BY created, id")
            .map_err(db_err("list"))?;
        let ids = stmt
            .query_map([], |r| r.get::<_, String>(0))
            .map_err(db_err("list"))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(db_err("list"));
        ids
    }
}

impl StoredGame {
    /// What to store for a game.
    pub fn of(g: &Game) -> StoredGame {
        StoredGame {
            id: g.id.clone(),
            variant: g.source.variant.name.clone(),
            variant_file: g.source.file.as_deref().map(String::from),
            seats: g.seats.clone(),
            start: g.start.clone(),
            moves: g.move_texts(),
            created: g.created,
            updated: g.updated,
        }
    }
}
