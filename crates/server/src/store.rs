//! The game store: an embedded SQLite database. A game is its variant
//! (name, and the file's text when it is not embedded), its seats (kinds
//! and token hashes, as JSON), its start position and its moves; the
//! position itself is never stored but replayed on loading.

use crate::clock::TimeControl;
use crate::game::{Game, LogEntry, Seat};
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
    /// The time control, if the game has clocks.
    pub clock: Option<TimeControl>,
    /// The log: moves and events (docs/api.md), in order.
    pub log: Vec<LogEntry>,
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
    updated      INTEGER NOT NULL,
    clock        TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL REFERENCES games(id),
    ply  INTEGER NOT NULL,
    text TEXT NOT NULL,
    clock_ms INTEGER,
    PRIMARY KEY (game, ply)
);
";

/// `PRAGMA application_id` of a Quadrille database ("QDR1").
const APPLICATION_ID: i64 = 0x5144_5231;

/// Creates the schema in an empty database, or checks that a database
/// holds Quadrille's tables.
fn check_schema(conn: &Connection) -> Result<(), String> {
    let app_id: i64 = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .map_err(|e| format!("reading the application id: {e}"))?;
    let mut stmt = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .map_err(|e| format!("reading the schema: {e}"))?;
    let tables = stmt
        .query_map([], |r| r.get::<_, String>(0))
        .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("reading the schema: {e}"))?;
    let ours = ["games", "moves"];
    let missing: Vec<&str> = ours
        .iter()
        .copied()
        .filter(|t| !tables.iter().any(|x| x == t))
        .collect();
    let foreign: Vec<&String> = tables
        .iter()
        .filter(|t| !ours.contains(&t.as_str()))
        .collect();
    let create = || {
        conn.execute_batch(SCHEMA)
            .and_then(|_| conn.execute_batch(&format!("PRAGMA application_id = {APPLICATION_ID}")))
            .map_err(|e| format!("creating the schema: {e}"))
    };
    if tables.is_empty() && app_id == 0 {
        return create();
    }
    if app_id != APPLICATION_ID && (app_id != 0 || !foreign.is_empty() || !missing.is_empty()) {
        return Err(format!(
            "not a Quadrille game database (application id {app_id:#x}, tables {tables:?}); \
             refusing to use it"
        ));
    }
    if !missing.is_empty() {
        return Err(format!(
            "the table(s) {missing:?} are missing: the database is damaged; refusing to \
             start rather than serve its games reset"
        ));
    }
    // A database of an earlier version (no application id yet): adopt it.
    create()?;
    // Columns added since: the clocks.
    for (table, column, kind) in [("games", "clock", "TEXT"), ("moves", "clock_ms", "INTEGER")] {
        let has: bool = conn
            .query_row(
                &format!(
                    "SELECT COUNT(*) FROM pragma_table_info('{table}') WHERE name = '{column}'"
                ),
                [],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n > 0)
            .map_err(|e| format!("reading the schema: {e}"))?;
        if !has {
            conn.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {kind}"))
                .map_err(|e| format!("adding {table}.{column}: {e}"))?;
        }
    }
    Ok(())
}

fn db_err(what: &str) -> impl Fn(rusqlite::Error) -> String + '_ {
    move |e| format!("game store, {what}: {e}")
}

impl Store {
    /// Opens (creating if needed) the database file. Refuses a file that
    /// is not Quadrille's, one whose tables have vanished (rather than
    /// serve every game reset to move 0), and one that cannot be written
    /// (every move would fail later).
    pub fn open(path: &Path) -> Result<Store, String> {
        let name = path.display();
        let conn = Connection::open(path).map_err(|e| format!("game store {name}: {e}"))?;
        // WAL: readers do not block the writer. FULL: a commit is on disk
        // before the move is acknowledged, even across a power loss (the
        // cost is in docs/performance.md).
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;",
        )
        .map_err(|e| format!("game store {name}: settings: {e}"))?;
        if conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(true) {
            return Err(format!(
                "game store {name} is read-only: moves could not be saved"
            ));
        }
        conn.execute_batch("BEGIN IMMEDIATE; COMMIT;")
            .map_err(|e| format!("game store {name} cannot be written: {e}"))?;
        check_schema(&conn).map_err(|e| format!("game store {name}: {e}"))?;
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
        let clock = g
            .clock
            .map(|c| serde_json::to_string(&c))
            .transpose()
            .map_err(|e| e.to_string())?;
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(db_err("insert"))?;
        tx.execute(
            "INSERT INTO games (id, variant, variant_file, seats, start, created, updated, clock)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                g.id,
                g.variant,
                g.variant_file,
                seats,
                g.start,
                g.created,
                g.updated,
                clock
            ],
        )
        .map_err(db_err("insert"))?;
        for (ply, e) in g.log.iter().enumerate() {
            tx.execute(
                "INSERT INTO moves (game, ply, text, clock_ms) VALUES (?1, ?2, ?3, ?4)",
                params![g.id, ply as i64, e.text, e.clock_ms],
            )
            .map_err(db_err("insert move"))?;
        }
        tx.commit().map_err(db_err("insert"))
    }

    /// Appends log lines, each `(game, line, entry, updated)` at its line
    /// number (counting from 0), in one transaction: one sync to disk for
    /// all. Each line succeeds or fails alone.
    pub fn append_moves(&self, moves: &[(&str, usize, &LogEntry, i64)]) -> Vec<Result<(), String>> {
        let mut conn = self.conn();
        let all_failed = |e: rusqlite::Error| vec![Err(db_err("move")(e)); moves.len()];
        let mut tx = match conn.transaction() {
            Ok(tx) => tx,
            Err(e) => return all_failed(e),
        };
        let mut results = Vec::with_capacity(moves.len());
        for &(id, ply, entry, updated) in moves {
            let one = |tx: &mut rusqlite::Transaction| -> rusqlite::Result<()> {
                let sp = tx.savepoint()?;
                sp.execute(
                    "INSERT INTO moves (game, ply, text, clock_ms) VALUES (?1, ?2, ?3, ?4)",
                    params![id, ply as i64, entry.text, entry.clock_ms],
                )?;
                sp.execute(
                    "UPDATE games SET updated = ?2 WHERE id = ?1",
                    params![id, updated],
                )?;
                sp.commit()
            };
            results.push(one(&mut tx).map_err(db_err("move")));
        }
        match tx.commit() {
            Ok(()) => results,
            Err(e) => all_failed(e),
        }
    }

    /// Replaces a game's seats (an invitation exchanged for a token).
    pub fn update_seats(&self, id: &str, seats: &[Seat]) -> Result<(), String> {
        let seats = serde_json::to_string(seats).map_err(|e| e.to_string())?;
        let conn = self.conn();
        let n = conn
            .execute(
                "UPDATE games SET seats = ?2 WHERE id = ?1",
                params![id, seats],
            )
            .map_err(db_err("seats"))?;
        if n == 1 {
            Ok(())
        } else {
            Err(format!("game store: no game {id}"))
        }
    }

    /// One game, if stored.
    pub fn load(&self, id: &str) -> Result<Option<StoredGame>, String> {
        let conn = self.conn();
        let row = conn
            .query_row(
                "SELECT id, variant, variant_file, seats, start, created, updated, clock FROM games WHERE id = ?1",
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
                        r.get::<_, Option<String>>(7)?,
                    ))
                },
            )
            .optional()
            .map_err(db_err("load"))?;
        let Some((id, variant, variant_file, seats, start, created, updated, clock)) = row else {
            return Ok(None);
        };
        let seats: Vec<Seat> = serde_json::from_str(&seats)
            .map_err(|e| format!("game store, game {id}: seats: {e}"))?;
        let clock = clock
            .map(|c| serde_json::from_str(&c))
            .transpose()
            .map_err(|e| format!("game store, game {id}: clock: {e}"))?;
        let mut stmt = conn
            .prepare("SELECT text, clock_ms FROM moves WHERE game = ?1 ORDER BY ply")
            .map_err(db_err("moves"))?;
        let log = stmt
            .query_map(params![id], |r| {
                Ok(LogEntry {
                    text: r.get(0)?,
                    clock_ms: r.get(1)?,
                })
            })
            .map_err(db_err("moves"))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(db_err("moves"))?;
        Ok(Some(StoredGame {
            id,
            variant,
            variant_file,
            seats,
            start,
            clock,
            log,
            created,
            updated,
        }))
    }

    /// The ids of every stored game, oldest first, and what could not be
    /// read (a row whose id is no text, or the rest of a damaged table):
    /// a damaged row costs its game, not the others.
    pub fn ids(&self) -> Result<(Vec<String>, Vec<String>), String> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare("SELECT rowid, id FROM games ORDER BY created, id")
            .map_err(db_err("list"))?;
        let mut rows = stmt.query([]).map_err(db_err("list"))?;
        let (mut ids, mut bad) = (Vec::new(), Vec::new());
        loop {
            match rows.next() {
                Ok(None) => break,
                Ok(Some(row)) => match row.get::<_, String>(1) {
                    Ok(id) => ids.push(id),
                    Err(e) => bad.push(format!(
                        "row {}: id: {e}",
                        row.get::<_, i64>(0).unwrap_or(-1)
                    )),
                },
                Err(e) => {
                    bad.push(format!("the rest of the game list: {e}"));
                    break;
                }
            }
        }
        Ok((ids, bad))
    }

    /// Deletes a game and its moves.
    pub fn delete(&self, id: &str) -> Result<(), String> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(db_err("delete"))?;
        tx.execute("DELETE FROM moves WHERE game = ?1", params![id])
            .map_err(db_err("delete"))?;
        tx.execute("DELETE FROM games WHERE id = ?1", params![id])
            .map_err(db_err("delete"))?;
        tx.commit().map_err(db_err("delete"))
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
            clock: g.clocks.as_ref().map(|c| c.control),
            log: g
                .played
                .iter()
                .map(|p| LogEntry {
                    text: p.text.clone(),
                    clock_ms: p.clock_ms,
                })
                .collect(),
            created: g.created,
            updated: g.updated,
        }
    }
}
