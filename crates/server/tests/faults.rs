//! The server under faults: a client that goes away while its move is
//! being stored, and AI seats that flood the AI pool.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{config, move_texts, TestApp};
use http_body_util::BodyExt;
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

impl Stuck {
    fn new() -> Arc<Stuck> {
        Arc::new(Stuck {
            running: AtomicUsize::new(0),
            most: AtomicUsize::new(0),
            release: AtomicBool::new(false),
        })
    }
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
    let stuck = Stuck::new();
    let app = TestApp::with_picker(c, stuck.clone());
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
    let gate = Stuck::new();
    let app = TestApp::with_picker(c, gate.clone());
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

/// An app with these front-door limits.
fn app_with(
    dir: &tempfile::TempDir,
    f: impl FnOnce(&mut quadrille_server::http::Limits),
) -> TestApp {
    let mut c = config(&dir.path().join("g.db"));
    f(&mut c.http);
    TestApp::with_config(c)
}

#[tokio::test]
async fn moves_and_creations_beyond_the_rate_get_429_with_retry_after() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_with(&dir, |l| {
        l.move_burst = 3;
        l.moves_per_sec = 1;
        l.create_burst = 2;
        l.create_every_secs = 60;
    });
    let (id, tokens, _) = app.create(json!({"variant": "chess"})).await;
    app.create(json!({"variant": "chess"})).await;
    let (s, e) = app.post("/api/games", json!({"variant": "chess"})).await;
    assert_eq!(
        (s, common::code(&e)),
        (StatusCode::TOO_MANY_REQUESTS, "rate_limited")
    );
    let white = tokens[0].clone().unwrap();
    // Three refused moves spend the burst; the fourth is not even judged.
    for _ in 0..3 {
        let (s, _) = app.play(&id, &white, "e2e5").await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    }
    let req = Request::post(format!("/api/games/{id}/moves"))
        .header("content-type", "application/json")
        .body(Body::from(
            json!({"move": "e2e4", "token": white}).to_string(),
        ))
        .unwrap();
    let resp = app.router.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = resp.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=2).contains(&wait), "{wait}");
    let (_, g) = app.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["ply"], 0, "nothing changed");
}

#[tokio::test]
async fn every_refusal_is_json_and_every_answer_has_the_security_headers() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_with(&dir, |l| {
        l.hosts = quadrille_server::http::Limits::hosts_for("127.0.0.1");
    });
    let send = |req: Request<Body>| app.router.clone().oneshot(req);
    // 405, 414, 431, 421 (a foreign Host), each with a JSON error body.
    let cases = [
        (
            Request::delete("/api/games").body(Body::empty()).unwrap(),
            405,
            "method_not_allowed",
        ),
        (
            Request::get(format!("/api/games/{}", "x".repeat(5000)))
                .body(Body::empty())
                .unwrap(),
            414,
            "uri_too_long",
        ),
        (
            Request::get("/api/games")
                .header("x-big", "y".repeat(20_000))
                .body(Body::empty())
                .unwrap(),
            431,
            "headers_too_large",
        ),
        (
            Request::get("/api/games")
                .header("host", "rebind.example:8080")
                .body(Body::empty())
                .unwrap(),
            421,
            "bad_host",
        ),
    ];
    for (req, status, code) in cases {
        let resp = send(req).await.unwrap();
        assert_eq!(resp.status().as_u16(), status);
        assert_eq!(resp.headers()["x-frame-options"], "DENY");
        let body = resp.into_body().collect().await.unwrap().to_bytes();
        let v: serde_json::Value = serde_json::from_slice(&body).expect("a JSON body");
        assert_eq!(common::code(&v), code);
    }
    // The loopback names pass; the page carries the headers too.
    for host in ["127.0.0.1:8080", "localhost:9", "[::1]:8080"] {
        let resp = send(
            Request::get("/")
                .header("host", host)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "{host}");
        let h = resp.headers();
        assert!(h["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("frame-ancestors 'none'"));
        assert_eq!(h["x-content-type-options"], "nosniff");
    }
}

/// Slow clients on a real socket: one that sends its headers a byte at a
/// time, and one that announces a huge body and sends nothing, are both
/// dropped or answered within the timeouts; a client beyond the connection
/// cap is closed at once. Bounded: a few connections, a few seconds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_clients_are_dropped_and_connections_are_capped() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;
    let dir = tempfile::tempdir().unwrap();
    let mut c = config(&dir.path().join("g.db"));
    c.http.header_timeout = Duration::from_millis(500);
    c.http.body_timeout = Duration::from_millis(500);
    c.http.max_connections = 3;
    let (router, _state) = quadrille_server::app(&c, Arc::new(quadrille_server::Greedy)).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(quadrille_server::http::listen(
        listener,
        router,
        c.http.clone(),
    ));

    // Headers a byte every 200 ms: closed after about 500 ms.
    let t = std::time::Instant::now();
    let mut slow = TcpStream::connect(addr).await.unwrap();
    let mut closed = false;
    for b in b"GET /api/games HTTP/1.1\r\nHost: x\r\n".iter() {
        if slow.write_all(&[*b]).await.is_err() {
            closed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        if t.elapsed() > Duration::from_secs(4) {
            break;
        }
    }
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(3), slow.read_to_end(&mut buf)).await;
    assert!(closed || read.is_ok(), "the slow client was never dropped");
    assert!(t.elapsed() < Duration::from_secs(8));

    // A body of 999,999,999 bytes announced, none sent: answered in time.
    let mut big = TcpStream::connect(addr).await.unwrap();
    big.write_all(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 999999999\r\n\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    let r = tokio::time::timeout(Duration::from_secs(4), big.read_to_end(&mut answer)).await;
    assert!(r.is_ok(), "the announced body held the connection");
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 4"), "{text}");

    // Three idle connections fill the cap; a fourth is closed at once.
    let mut idle = Vec::new();
    for _ in 0..3 {
        idle.push(TcpStream::connect(addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut extra = TcpStream::connect(addr).await.unwrap();
    let mut one = [0u8; 1];
    let r = tokio::time::timeout(Duration::from_secs(2), extra.read(&mut one)).await;
    assert!(
        matches!(r, Ok(Ok(0)) | Ok(Err(_))),
        "the connection beyond the cap stayed open"
    );
    server.abort();
}

/// Changes the database behind the server's back.
fn sql(db: &std::path::Path, statements: &str) {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.execute_batch(statements).unwrap();
}

/// Start-up with damaged rows: each damaged game is reported (log and
/// `/api/health`) and skipped; the others are served (before, one bad row
/// made the server exit).
#[tokio::test]
async fn damaged_rows_cost_their_game_only() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let mut ids = Vec::new();
    {
        let app = TestApp::open(&db);
        for _ in 0..4 {
            ids.push(app.create(json!({"variant": "chess"})).await.0);
        }
    }
    sql(
        &db,
        &format!(
            "UPDATE games SET seats = '{{not json' WHERE id = '{}';
             UPDATE games SET start = 'not a position' WHERE id = '{}';
             INSERT INTO games (id, variant, seats, start, created, updated)
                 VALUES (CAST(X'FFFE' AS TEXT), 'chess', '[]', '', 0, 0);",
            ids[0], ids[1]
        ),
    );
    let app = TestApp::open(&db);
    let (s, h) = app.get("/api/health").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(h["games"], 2, "{h}");
    let skipped: Vec<&str> = h["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(skipped.len(), 3, "{skipped:?}");
    assert!(
        skipped
            .iter()
            .any(|s| s.contains(&ids[0]) && s.contains("seats")),
        "{skipped:?}"
    );
    for id in &ids[2..] {
        let (s, _) = app.get(&format!("/api/games/{id}")).await;
        assert_eq!(s, StatusCode::OK);
    }
}

/// Databases that are not Quadrille's, or lost a table, or cannot be
/// written, are refused at start with a message that says so (before, a
/// dropped `moves` table was recreated and every game served at move 0).
#[tokio::test]
async fn foreign_damaged_and_read_only_databases_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let open = |path: &std::path::Path| {
        quadrille_server::Server::open(&config(path), Arc::new(quadrille_server::Greedy))
            .err()
            .unwrap_or_default()
    };
    let db = dir.path().join("g.db");
    {
        let app = TestApp::open(&db);
        let (id, tokens, _) = app.create(json!({"variant": "chess"})).await;
        app.play(&id, tokens[0].as_deref().unwrap(), "e2e4").await;
    }
    sql(&db, "DROP TABLE moves;");
    let e = open(&db);
    assert!(e.contains("missing") && e.contains("moves"), "{e}");

    let other = dir.path().join("other.db");
    sql(&other, "CREATE TABLE invoices (n INTEGER);");
    let e = open(&other);
    assert!(e.contains("not a Quadrille game database"), "{e}");

    let fresh = dir.path().join("fresh.db");
    drop(TestApp::open(&fresh));
    let read_only = format!("file:{}?mode=ro", fresh.display());
    let e = open(std::path::Path::new(&read_only));
    assert!(e.contains("read-only"), "{e}");
    // A database of ours still opens.
    assert_eq!(open(&fresh), "");
}

/// The game list comes a page at a time, and games nobody moved in for
/// the configured time are deleted (memory and store).
#[tokio::test]
async fn game_lists_are_paginated_and_old_games_expire() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let mut ids = Vec::new();
    {
        let app = TestApp::open(&db);
        for _ in 0..5 {
            ids.push(app.create(json!({"variant": "chess"})).await.0);
        }
    }
    // Two games last moved 40 days ago.
    let old = quadrille_server::game::now() - 40 * 86_400;
    sql(
        &db,
        &format!(
            "UPDATE games SET updated = {old} WHERE id IN ('{}', '{}');",
            ids[0], ids[1]
        ),
    );
    let app = TestApp::open(&db);
    let resp = app.get_raw("/api/games?limit=2&offset=1").await;
    assert_eq!(resp.headers()["x-total-count"], "5");
    let body = resp.into_body().collect().await.unwrap().to_bytes();
    let page: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(page.as_array().unwrap().len(), 2);
    let (s, e) = app.get("/api/games?limit=x").await;
    assert_eq!(
        (s, common::code(&e)),
        (StatusCode::BAD_REQUEST, "bad_query")
    );

    assert_eq!(app.state.expire().await, 2);
    let (_, list) = app.get("/api/games").await;
    assert_eq!(list.as_array().unwrap().len(), 3);
    let (s, _) = app.get(&format!("/api/games/{}", ids[0])).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    drop(app);
    let again = TestApp::open(&db);
    let (_, list) = again.get("/api/games").await;
    assert_eq!(
        list.as_array().unwrap().len(),
        3,
        "deleted from the store too"
    );
}
