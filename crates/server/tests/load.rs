//! Load test on loopback: 50 games played at once over real HTTP (20
//! moves each, chosen at random among the legal ones by a client that
//! keeps its own copy of every game through the engine), then every game
//! checked against that copy and again after reopening the database.
//! Prints the move request latencies (p50, p90, p99, max); the numbers are
//! recorded in docs/performance.md. Bounded: 1,000 moves, 60 s at most.

mod common;

use axum::body::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::Request;
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use hyper_util::rt::TokioExecutor;
use quadrille_engine::{embedded, MoveKind};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const GAMES: usize = 50;
const MOVES: usize = 20;
const VARIANTS: [&str; 5] = ["chess", "magna-carta", "caissa-britannia", "ariana", "avon"];

type HttpClient = Client<HttpConnector, Full<Bytes>>;

async fn send(client: &HttpClient, req: Request<Full<Bytes>>) -> (u16, Value) {
    let resp = client.request(req).await.expect("response");
    let status = resp.status().as_u16();
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

fn post(url: String, body: Value) -> Request<Full<Bytes>> {
    Request::post(url)
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap()
}

/// Plays one game; returns (id, the moves the client made, the final
/// position string of its copy, the latency of every move request).
async fn play(client: HttpClient, base: String, n: usize) -> (String, Vec<String>, Vec<Duration>) {
    let variant = VARIANTS[n % VARIANTS.len()];
    let v = embedded::variant(variant).unwrap();
    let (status, created) = send(
        &client,
        post(format!("{base}/api/games"), json!({"variant": variant})),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> = created["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    let mut pos = v.start();
    let mut rng = fastrand::Rng::with_seed(n as u64);
    let mut played = Vec::new();
    let mut latencies = Vec::new();
    for ply in 0..MOVES {
        let legal = pos.legal_moves();
        // Stop where the game ends or the server plays a forced drop-out.
        if pos.outcome().is_some()
            || legal.is_empty()
            || legal.iter().any(|m| m.kind == MoveKind::DropOut)
        {
            break;
        }
        let m = legal.as_slice()[rng.usize(..legal.len())];
        let text = pos.move_to_string(m);
        let body = json!({"move": text, "token": tokens[pos.to_move()], "ply": ply});
        let t = Instant::now();
        let (status, state) =
            send(&client, post(format!("{base}/api/games/{id}/moves"), body)).await;
        latencies.push(t.elapsed());
        assert_eq!(status, 200, "game {id} move {text}: {state}");
        pos.make(m);
        assert_eq!(state["position"], pos.to_string(), "game {id} after {text}");
        played.push(text);
    }
    (id, played, latencies)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_games_at_once_lose_nothing() {
    fifty_games(0).await;
}

/// The same while 40 AI-only games at full strength (level 8, 1 s a move)
/// keep the AI pool busy: people's moves still go through (the latency is
/// printed; docs/performance.md records it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_games_during_an_ai_flood_lose_nothing() {
    fifty_games(40).await;
}

async fn fifty_games(ai_games: usize) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("load.db");
    let started = Instant::now();
    let results = {
        // Fifty players from one address: its rate limits are theirs.
        let mut c = common::config(&db);
        c.http.move_burst = 10_000;
        c.http.moves_per_sec = 10_000;
        c.http.create_burst = 1_000;
        let app = common::TestApp::with_picker(
            c.clone(),
            std::sync::Arc::new(quadrille_server::Search::new()),
        );
        let ai = json!({"kind": "ai", "level": 8, "time_ms": 1000});
        for _ in 0..ai_games {
            app.create(json!({"variant": "chess", "seats": [ai, ai]}))
                .await;
        }
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let router = app.router.clone();
        let server = tokio::spawn(quadrille_server::http::listen(listener, router, c.http));
        let client: HttpClient = Client::builder(TokioExecutor::new()).build_http();
        let tasks: Vec<_> = (0..GAMES)
            .map(|n| tokio::spawn(play(client.clone(), base.clone(), n)))
            .collect();
        let mut results = Vec::new();
        for t in tasks {
            results.push(
                tokio::time::timeout(Duration::from_secs(60), t)
                    .await
                    .expect("the load test ran over 60 s")
                    .expect("a game task failed"),
            );
        }
        let elapsed = started.elapsed();
        // Every game on the server is the client's copy (a forced drop-out
        // the server played after the client stopped may follow).
        for (id, moves, _) in &results {
            let req = Request::get(format!("{base}/api/games/{id}"))
                .body(Full::new(Bytes::new()))
                .unwrap();
            let (_, state) = send(&client, req).await;
            let server_moves = common::move_texts(&state);
            assert_eq!(&server_moves[..moves.len()], moves.as_slice(), "game {id}");
            assert!(
                server_moves[moves.len()..].iter().all(|m| *m == "out"),
                "game {id}: {server_moves:?}"
            );
        }
        let mut all: Vec<Duration> = results.iter().flat_map(|r| r.2.iter().copied()).collect();
        all.sort();
        let total = all.len();
        println!(
            "load ({ai_games} AI games beside): {GAMES} games, {total} move requests in {:.2} s ({:.0} moves/s); move latency p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            elapsed.as_secs_f64(),
            total as f64 / elapsed.as_secs_f64(),
            percentile(&all, 0.50).as_secs_f64() * 1e3,
            percentile(&all, 0.90).as_secs_f64() * 1e3,
            percentile(&all, 0.99).as_secs_f64() * 1e3,
            all[total - 1].as_secs_f64() * 1e3,
        );
        assert!(total >= GAMES * MOVES / 2, "only {total} moves were played");
        server.abort();
        results
    };
    // Reopened: every game is there with every move.
    let app = common::TestApp::open(&db);
    let (_, list) = app.get("/api/games?limit=500").await;
    assert_eq!(list.as_array().unwrap().len(), GAMES + ai_games);
    for (id, moves, _) in &results {
        let (_, g) = app.get(&format!("/api/games/{id}")).await;
        let stored = common::move_texts(&g);
        assert_eq!(
            &stored[..moves.len()],
            moves.as_slice(),
            "game {id} after reopening"
        );
    }
}
