//! The HTTP front door: connections and the checks every request passes
//! before it reaches the API.
//!
//! - [`listen`]: the accept loop, with a cap on open connections and a
//!   deadline for a request's headers (a client sending a byte every few
//!   seconds is dropped), the client's address put on each request;
//! - [`guard`]: security headers on every answer (CSP with
//!   `frame-ancestors 'none'`, `X-Frame-Options`, `nosniff`), a Host check
//!   when bound to loopback (no DNS rebinding), size limits for the URI and
//!   the headers answered with JSON 414/431, and per-client rate limits on
//!   game creation and moves (429 with `Retry-After`).

use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// Limits of the front door (see `quadrille serve --help`).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Connections open at once; more are closed at once.
    pub max_connections: usize,
    /// Time a client has to send a request's headers.
    pub header_timeout: Duration,
    /// Time a client has to send a request's body.
    pub body_timeout: Duration,
    /// Games a client may create: a burst, then one per this many seconds.
    pub create_burst: u32,
    pub create_every_secs: u32,
    /// Moves a client may send: a burst, then this many a second.
    pub move_burst: u32,
    pub moves_per_sec: u32,
    /// Longest URI and largest header block accepted.
    pub max_uri: usize,
    pub max_headers: usize,
    /// Host names accepted (with any port); empty: any host.
    pub hosts: Vec<String>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 512,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            create_burst: 60,
            create_every_secs: 2,
            move_burst: 120,
            moves_per_sec: 20,
            max_uri: 4096,
            max_headers: 16 * 1024,
            hosts: Vec::new(),
        }
    }
}

impl Limits {
    /// The host names to accept when serving on `host`: a loopback address
    /// accepts only loopback names (a page elsewhere that points its own
    /// name at 127.0.0.1 must not reach the games).
    pub fn hosts_for(host: &str) -> Vec<String> {
        let loopback = host
            .parse::<IpAddr>()
            .map(|ip| ip.is_loopback())
            .unwrap_or(host == "localhost");
        if loopback {
            ["localhost", "127.0.0.1", "[::1]"]
                .map(String::from)
                .to_vec()
        } else {
            Vec::new()
        }
    }
}

/// Per-client rate limiters.
pub struct RateLimits {
    create: DefaultKeyedRateLimiter<IpAddr>,
    moves: DefaultKeyedRateLimiter<IpAddr>,
}

impl RateLimits {
    pub fn new(l: &Limits) -> RateLimits {
        let nz = |n: u32| NonZeroU32::new(n.max(1)).unwrap_or(NonZeroU32::MIN);
        let create = Quota::with_period(Duration::from_secs(l.create_every_secs.max(1) as u64))
            .unwrap_or(Quota::per_second(nz(1)))
            .allow_burst(nz(l.create_burst));
        let moves = Quota::per_second(nz(l.moves_per_sec)).allow_burst(nz(l.move_burst));
        RateLimits {
            create: RateLimiter::keyed(create),
            moves: RateLimiter::keyed(moves),
        }
    }

    /// Forgets clients whose buckets are full again (called now and then).
    pub fn shrink(&self) {
        self.create.retain_recent();
        self.moves.retain_recent();
    }
}

/// The client's address, put on each request by [`listen`].
#[derive(Clone, Copy, Debug)]
pub struct Client(pub SocketAddr);

/// Serves `app` on `listener` until the future is dropped.
pub async fn listen(listener: TcpListener, app: Router, limits: Limits) {
    let permits = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    loop {
        let (stream, addr) = match listener.accept().await {
            Ok(c) => c,
            Err(e) => {
                // Out of file descriptors and the like: wait, go on.
                eprintln!("warning: accept: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            // Full: close at once rather than queue (a flood of idle
            // connections must not hold the legitimate ones).
            drop(stream);
            continue;
        };
        let app = app.clone().layer(axum::Extension(Client(addr)));
        let timeout = limits.header_timeout;
        tokio::spawn(async move {
            let _permit = permit;
            let service = TowerToHyperService::new(app);
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(timeout)
                .serve_connection(TokioIo::new(stream), service);
            let _ = conn.await;
        });
    }
}

/// The checks and headers every request gets (outermost layer).
pub async fn guard(State(st): State<AppState>, req: Request, next: Next) -> Response {
    let mut resp = match check(&st, &req) {
        Ok(()) => next.run(req).await,
        Err(e) => e.into_response(),
    };
    // JSON for the refusals the router answers itself.
    if resp.status() == StatusCode::METHOD_NOT_ALLOWED {
        resp = ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            "this route does not take that method",
        )
        .into_response();
    }
    let h = resp.headers_mut();
    for (name, value) in [
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
             img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; \
             base-uri 'none'; form-action 'self'",
        ),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
    ] {
        h.insert(name, HeaderValue::from_static(value));
    }
    resp
}

fn check(st: &AppState, req: &Request) -> Result<(), ApiError> {
    let l = &st.limits;
    if req.uri().to_string().len() > l.max_uri {
        return Err(ApiError::new(
            StatusCode::URI_TOO_LONG,
            "uri_too_long",
            format!("the URI is longer than {} bytes", l.max_uri),
        ));
    }
    let header_bytes: usize = req
        .headers()
        .iter()
        .map(|(n, v)| n.as_str().len() + v.len() + 4)
        .sum();
    if header_bytes > l.max_headers {
        return Err(ApiError::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "headers_too_large",
            format!("the headers are larger than {} bytes", l.max_headers),
        ));
    }
    if !l.hosts.is_empty() {
        if let Some(host) = req.headers().get(header::HOST) {
            let host = host.to_str().unwrap_or("");
            let name = match host.rfind(':') {
                Some(i) if !host.ends_with(']') => &host[..i],
                _ => host,
            };
            if !l.hosts.iter().any(|h| h.eq_ignore_ascii_case(name)) {
                return Err(ApiError::new(
                    StatusCode::MISDIRECTED_REQUEST,
                    "bad_host",
                    "this server answers only to its own loopback name",
                ));
            }
        }
    }
    if req.method() == Method::POST {
        let path = req.uri().path();
        let limiter =
            if path == "/api/games" || path == "/api/games/import" || path.ends_with("/rematch") {
                Some(&st.rate.create)
            } else if path.ends_with("/moves") || path.ends_with("/actions") {
                Some(&st.rate.moves)
            } else {
                None
            };
        if let Some(limiter) = limiter {
            let ip = req
                .extensions()
                .get::<Client>()
                .map_or(IpAddr::V4(Ipv4Addr::LOCALHOST), |c| c.0.ip());
            if let Err(not_until) = limiter.check_key(&ip) {
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                let secs = wait.as_secs() + 1;
                let mut e = ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    "rate_limited",
                    format!("too many requests from this client; try again in {secs} s"),
                );
                e.retry_after = Some(secs);
                return Err(e);
            }
        }
    }
    Ok(())
}
