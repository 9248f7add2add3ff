//! Helpers for the API tests: an app on a temporary database, and requests
//! sent in-process (`tower::ServiceExt::oneshot`).
#![allow(dead_code)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use quadrille_server::{AppState, Config, Greedy};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceExt;

/// An app on a database file in a temporary directory.
pub struct TestApp {
    pub router: Router,
    pub state: AppState,
    pub db: PathBuf,
}

pub fn config(db: &Path) -> Config {
    let mut c = Config::new(db);
    c.ai_pause = Duration::ZERO;
    c
}

impl TestApp {
    pub fn open(db: &Path) -> TestApp {
        Self::with_config(config(db))
    }

    pub fn with_config(c: Config) -> TestApp {
        Self::with_picker(c, Arc::new(Greedy))
    }

    /// With another AI than the one-ply `Greedy`.
    pub fn with_picker(c: Config, picker: Arc<dyn quadrille_server::MovePicker>) -> TestApp {
        let (router, state) = quadrille_server::app(&c, picker).expect("app");
        TestApp {
            router,
            state,
            db: c.db.clone(),
        }
    }

    /// Sends a request; returns the status and the body as JSON (or as a
    /// JSON string when it is not JSON).
    pub async fn send(&self, req: Request<Body>) -> (StatusCode, Value) {
        let resp = self.router.clone().oneshot(req).await.expect("response");
        let status = resp.status();
        let bytes = resp.into_body().collect().await.expect("body").to_bytes();
        let text = String::from_utf8_lossy(&bytes).to_string();
        let json = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, json)
    }

    /// The raw response to a GET (for streams and non-JSON bodies).
    pub async fn get_raw(&self, uri: &str) -> axum::response::Response {
        let req = Request::get(uri).body(Body::empty()).unwrap();
        self.router.clone().oneshot(req).await.expect("response")
    }

    pub async fn get(&self, uri: &str) -> (StatusCode, Value) {
        self.get_with_tokens(uri, &[]).await
    }

    pub async fn get_with_tokens(&self, uri: &str, tokens: &[&str]) -> (StatusCode, Value) {
        let mut b = Request::get(uri);
        if !tokens.is_empty() {
            b = b.header("x-seat-tokens", tokens.join(","));
        }
        self.send(b.body(Body::empty()).unwrap()).await
    }

    pub async fn post(&self, uri: &str, body: Value) -> (StatusCode, Value) {
        self.post_raw(uri, "application/json", body.to_string())
            .await
    }

    pub async fn post_raw(
        &self,
        uri: &str,
        content_type: &str,
        body: String,
    ) -> (StatusCode, Value) {
        let req = Request::post(uri)
            .header("content-type", content_type)
            .body(Body::from(body))
            .unwrap();
        self.send(req).await
    }

    /// Creates a game; returns (id, tokens, game).
    pub async fn create(&self, body: Value) -> (String, Vec<Option<String>>, Value) {
        let (status, v) = self.post("/api/games", body).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        let tokens = v["tokens"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().map(String::from))
            .collect();
        (
            v["id"].as_str().unwrap().to_string(),
            tokens,
            v["game"].clone(),
        )
    }

    pub async fn play(&self, id: &str, token: &str, mv: &str) -> (StatusCode, Value) {
        self.post(
            &format!("/api/games/{id}/moves"),
            serde_json::json!({ "move": mv, "token": token }),
        )
        .await
    }

    /// Polls the game until `ready` holds (at most a few seconds).
    pub async fn wait_for(&self, id: &str, ready: impl Fn(&Value) -> bool) -> Value {
        for _ in 0..500 {
            let (_, g) = self.get(&format!("/api/games/{id}")).await;
            if ready(&g) {
                return g;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("game {id} never reached the expected state");
    }
}

/// The move texts of a game state.
pub fn move_texts(game: &Value) -> Vec<&str> {
    game["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["text"].as_str().expect("move text"))
        .collect()
}

/// The error code of an error response.
pub fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("<no error code>")
}
