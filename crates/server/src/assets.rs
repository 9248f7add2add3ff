//! The web app's files, embedded in the binary (no build step).

use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};

/// A file under `assets/`: (name, content type, text).
macro_rules! asset {
    ($name:literal, $kind:expr) => {
        ($name, $kind, include_str!(concat!("../assets/", $name)))
    };
}

const JS: &str = "text/javascript; charset=utf-8";

/// Every file of the web app.
const FILES: &[(&str, &str, &str)] = &[
    asset!("index.html", "text/html; charset=utf-8"),
    asset!("style.css", "text/css; charset=utf-8"),
    asset!("app.js", JS),
    asset!("api.js", JS),
    asset!("board.js", JS),
    asset!("dom.js", JS),
    asset!("game.js", JS),
    asset!("pieces.js", JS),
];

/// Only our own files run; inline style attributes are allowed for SVG.
const CSP: &str = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";

fn file(name: &str) -> Response {
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, text)) => (
            [
                (header::CONTENT_TYPE, *kind),
                (header::CACHE_CONTROL, "no-cache"),
                (header::CONTENT_SECURITY_POLICY, CSP),
            ],
            *text,
        )
            .into_response(),
        None => crate::error::ApiError::not_found("not_found", "no such file").into_response(),
    }
}

pub async fn index() -> Response {
    file("index.html")
}

pub async fn asset(Path(name): Path<String>) -> Response {
    file(&name)
}
