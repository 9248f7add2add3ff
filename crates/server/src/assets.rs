//! The web app's files, embedded in the binary (no build step).

use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};

/// (name, content type, text) of every file under `assets/`.
const FILES: &[(&str, &str, &str)] = &[
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("../assets/index.html"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../assets/style.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/app.js"),
    ),
    (
        "api.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/api.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/board.js"),
    ),
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
