//! API errors: an HTTP status, a stable machine-readable code and a
//! message for people, always sent as JSON `{"error": {"code", "message"}}`.

use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// An error answered to an API request. Nothing was changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    /// Seconds to wait before trying again (`Retry-After`), for 429.
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }
    /// 400: the request cannot be read.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> ApiError {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }
    /// 422: the request was read but its content is refused.
    pub fn unprocessable(code: &'static str, message: impl Into<String>) -> ApiError {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
    }
    pub fn not_found(code: &'static str, message: impl Into<String>) -> ApiError {
        Self::new(StatusCode::NOT_FOUND, code, message)
    }
    pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        Self::new(StatusCode::CONFLICT, code, message)
    }
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> ApiError {
        Self::new(StatusCode::FORBIDDEN, code, message)
    }
    /// 500: the server failed (storage); the game is unchanged.
    pub fn internal(message: impl Into<String>) -> ApiError {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        let status = r.status();
        let code = match status {
            StatusCode::PAYLOAD_TOO_LARGE => "too_large",
            StatusCode::UNSUPPORTED_MEDIA_TYPE => "bad_content_type",
            StatusCode::UNPROCESSABLE_ENTITY => "bad_fields",
            _ => "bad_json",
        };
        ApiError::new(status, code, r.body_text())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({ "error": { "code": self.code, "message": self.message } });
        let mut resp = (self.status, Json(body)).into_response();
        if let Some(secs) = self.retry_after {
            resp.headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        resp
    }
}

/// Result of an API handler.
pub type ApiResult<T> = Result<T, ApiError>;
