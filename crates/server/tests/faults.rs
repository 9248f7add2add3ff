//! The server under faults: a client that goes away while its move is
//! being stored, and AI seats that flood the AI pool.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{config, move_texts, TestApp};
use quadrille_engine::{Move, Position};
use quadrille_server::MovePicker;
use serde_json::json;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceExt;

/// A client resets its connection while the server stores its move: the
/// handler's future is dropped mid-write. The move must still be applied
/// in memory exactly as stored, so that the game goes on (before the fix,
/// the row was written but never applied, and every later move failed
/// with a primary-key conflict until a restart).
#[tokio::test]
// Holding the store's lock across the wait is the point of the test.
#[allow(clippy::await_holding_lock)]
async fn a_client_that_leaves_while_its_move_is_stored_splits_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::open(&dir.path().join("g.db"));
    let (id, tokens, _) = app.create(json!({"variant": "chess"})).await;
    let (white, black) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());

    // Hold the database so that the write waits.
    let held = app.state.store.hold_for_test();
    let req = Request::post(format!("/api/games/{id}/moves"))
        .header("content-type", "application/json")
        .body(Body::from(
            json!({"move": "e2e4", "token": white}).to_string(),
        ))
        .unwrap();
    let router = app.router.clone();
    let client = tokio::spawn(async move { router.oneshot(req).await });
    // Let the request reach the store, then drop it as a reset would.
    tokio::time::sleep(Duration::from_millis(200)).await;
    client.abort();
    let _ = client.await;
    drop(held);

    // The stored move is the game's move, in memory too.
    let g = app.wait_for(&id, |g| g["ply"] == 1).await;
    assert_eq!(move_texts(&g), vec!["e2e4"]);
    let (s, g) = app.play(&id, &black, "e7e5").await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(move_texts(&g), vec!["e2e4", "e7e5"]);

    // And after a restart the same two moves come back.
    drop(app);
    let again = TestApp::with_config(config(&dir.path().join("g.db")));
    let (_, g) = again.get(&format!("/api/games/{id}")).await;
    assert_eq!(move_texts(&g), vec!["e2e4", "e7e5"]);
}

/// A picker that holds its thread until released, counting how many run
/// at once.
struct Stuck {
    running: AtomicUsize,
    most: AtomicUsize,
    release: AtomicBool,
}

impl MovePicker for Stuck {
    fn pick(&self, pos: &Position, _: u8, _: u32, _: &Arc<AtomicBool>) -> Option<Move> {
        let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(now, Ordering::SeqCst);
        while !self.release.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.running.fetch_sub(1, Ordering::SeqCst);
        pos.legal_moves().iter().next().copied()
    }
}

/// Ten AI-only games whose searches never end: they run on the AI pool's
/// threads only (never more at once), and a person's game is created and
/// played meanwhile (before the fix, each search took a thread of the
/// pool that also stores every move). Games with AI seats beyond the cap
/// are refused with 503.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_flood_uses_only_the_ai_pool_and_people_still_play() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = config(&dir.path().join("g.db"));
    c.ai_threads = 2;
    c.ai_queue = 4;
    c.max_ai_games = 10;
    let stuck = Arc::new(Stuck {
        running: AtomicUsize::new(0),
        most: AtomicUsize::new(0),
        release: AtomicBool::new(false),
    });
    let (router, state) = quadrille_server::app(&c, stuck.clone()).expect("app");
    let app = TestApp {
        router,
        state,
        db: c.db.clone(),
    };
    let ai = json!({"kind": "ai", "level": 8, "time_ms": 1000});
    for _ in 0..10 {
        app.create(json!({"variant": "chess", "seats": [ai, ai]}))
            .await;
    }
    let (s, e) = app
        .post("/api/games", json!({"variant": "chess", "seats": [ai, ai]}))
        .await;
    assert_eq!(
        (s, common::code(&e)),
        (StatusCode::SERVICE_UNAVAILABLE, "ai_busy")
    );
    let (s, e) = app
        .post(
            "/api/games",
            json!({"variant": "chess", "seats": [{"kind": "human"}, {"kind": "ai", "time_ms": 60000}]}),
        )
        .await;
    assert_eq!(
        (s, common::code(&e)),
        (StatusCode::UNPROCESSABLE_ENTITY, "bad_seats"),
        "{e}"
    );

    // Every AI thread is held; a person's game still goes on.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (id, tokens, _) = app.create(json!({"variant": "chess"})).await;
    let white = tokens[0].clone().unwrap();
    let (s, g) = app.play(&id, &white, "e2e4").await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(stuck.running.load(Ordering::SeqCst), 2);
    assert_eq!(
        stuck.most.load(Ordering::SeqCst),
        2,
        "searches beyond the AI threads"
    );
    stuck.release.store(true, Ordering::SeqCst);
}

/// An AI game whose move cannot be stored (the database refuses writes,
/// as with a full disk) waits and resumes by itself once writes work
/// again (before the fix it stayed stuck until a restart).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_game_resumes_once_the_store_works_again() {
    let dir = tempfile::tempdir().unwrap();
    let c = config(&dir.path().join("g.db"));
    let gate = Arc::new(Stuck {
        running: AtomicUsize::new(0),
        most: AtomicUsize::new(0),
        release: AtomicBool::new(false),
    });
    let (router, state) = quadrille_server::app(&c, gate.clone()).expect("app");
    let app = TestApp {
        router,
        state,
        db: c.db.clone(),
    };
    let (id, tokens, _) = app
        .create(json!({"variant": "chess", "seats": [{"kind": "human"}, {"kind": "ai", "time_ms": 100}]}))
        .await;
    let white = tokens[0].clone().unwrap();
    let (s, _) = app.play(&id, &white, "e2e4").await;
    assert_eq!(s, StatusCode::OK);
    // The AI thinks; meanwhile the database stops taking writes.
    let read_only = |on: bool| {
        let conn = app.state.store.hold_for_test();
        conn.execute_batch(&format!("PRAGMA query_only = {}", on as u8))
            .unwrap();
    };
    read_only(true);
    gate.release.store(true, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(600)).await;
    let (_, g) = app.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["ply"], 1, "nothing stored, nothing played: {g}");
    assert_eq!(g["status"], "playing");
    read_only(false);
    let g = app.wait_for(&id, |g| g["ply"] == 2).await;
    assert_eq!(g["to_move"], 0);
}
