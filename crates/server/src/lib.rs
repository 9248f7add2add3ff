//! # Quadrille game server
//!
//! The web app: a JSON API (docs/api.md) and the embedded front end, games
//! kept in SQLite, seat tokens, live updates by server-sent events and AI
//! seats. The engine is the only judge of legality: the browser receives
//! the legal moves and sends one back as text.
//!
//! ```no_run
//! use std::sync::Arc;
//! let config = quadrille_server::Config::new("quadrille.db");
//! quadrille_server::serve("127.0.0.1", 8080, config, Arc::new(quadrille_server::Search::new())).unwrap();
//! ```

mod ai;
pub mod api;
mod assets;
pub mod clock;
pub mod describe;
pub mod error;
pub mod game;
pub mod http;
mod journal;
pub mod pgn;
pub mod picker;
pub mod pool;
pub mod record;
pub mod state;
pub mod store;
mod token;
pub mod turn;
pub mod variants;
pub mod view;

pub use error::ApiError;
pub use picker::{Greedy, MovePicker, Search};
pub use state::{AppState, Config, Server};

use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::timeout::RequestBodyTimeoutLayer;

/// Largest request body accepted (a record with thousands of moves and
/// its variant file fits).
pub const MAX_BODY: usize = 256 * 1024;

/// The routes of the API and the web app.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/assets/{name}", get(assets::asset))
        .route("/api/health", get(api::health))
        .route("/api/variants", get(api::list_variants))
        .route("/api/variants/{name}", get(api::get_variant))
        .route("/api/games", get(api::list_games).post(api::create_game))
        .route("/api/games/import", post(api::import_game))
        .route("/api/games/{id}", get(api::get_game))
        .route("/api/games/{id}/variant", get(api::game_variant))
        .route("/api/games/{id}/moves", post(api::make_move))
        .route("/api/games/{id}/join", post(api::join_game))
        .route("/api/games/{id}/record", get(api::export_record))
        .route("/api/games/{id}/pgn", get(api::export_pgn))
        .route("/api/games/{id}/positions", get(api::game_positions))
        .route("/api/games/{id}/actions", post(api::take_action))
        .route("/api/games/{id}/rematch", post(api::rematch))
        .route("/api/games/{id}/events", get(api::events))
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(RequestBodyTimeoutLayer::new(state.limits.body_timeout))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            http::guard,
        ))
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                "the server failed on this request; nothing was changed",
            )
            .into_response()
        }))
        .with_state(state)
}

/// Opens the store, reloads the games, starts the AI where it is to move
/// and returns the app. Call inside a Tokio runtime.
pub fn app(config: &Config, picker: Arc<dyn MovePicker>) -> Result<(Router, AppState), String> {
    let state = Server::open(config, picker)?;
    ai::resume_all(&state);
    // Housekeeping: expired games, forgotten rate-limit buckets.
    let st = state.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(3600));
        loop {
            tick.tick().await;
            let n = st.expire().await;
            if n > 0 {
                eprintln!("expired {n} games nobody had moved in");
            }
            st.rate.shrink();
        }
    });
    Ok((router(state.clone()), state))
}

/// Serves the web app on `host:port` until Ctrl-C, with `picker` as the AI.
pub fn serve(
    host: &str,
    port: u16,
    config: Config,
    picker: Arc<dyn MovePicker>,
) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("starting the runtime: {e}"))?;
    rt.block_on(async {
        let (app, _) = app(&config, picker)?;
        let listener = tokio::net::TcpListener::bind((host, port))
            .await
            .map_err(|e| format!("listening on {host}:{port}: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        println!(
            "Quadrille: open http://{addr}/ (games in {})",
            config.db.display()
        );
        tokio::select! {
            _ = http::listen(listener, app, config.http.clone()) => Ok(()),
            _ = tokio::signal::ctrl_c() => Ok(()),
        }
    })
}
