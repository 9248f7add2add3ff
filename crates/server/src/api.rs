//! The JSON API (docs/api.md): variants, games, moves, records and live
//! updates. Every refusal is an [`ApiError`] and changes nothing.

use crate::ai;
use crate::clock::TimeControl;
use crate::describe::{variant_view, VariantView};
use crate::error::{ApiError, ApiResult};
use crate::game::{Action, Actor, Input, Seat, SeatKind};
use crate::pgn;
use crate::record;
use crate::state::{clip, AppState, SharedGame};
use crate::turn;
use crate::variants::{self, Source};
use crate::view::{game_view, positions, summary, GameView, PositionView};
use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequest, Path, Query, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::IntoResponse;
use axum::Json;
use futures_util::stream::{self, Stream, StreamExt};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::convert::Infallible;
use tokio::sync::broadcast::error::RecvError;

/// AI defaults when a seat gives none.
pub const DEFAULT_LEVEL: u8 = 5;
pub const DEFAULT_TIME_MS: u32 = 1000;
/// Header carrying the caller's seat tokens, comma-separated.
pub const TOKENS_HEADER: &str = "x-seat-tokens";

/// A JSON body whose rejections (malformed, too large, wrong fields or
/// content type) become JSON [`ApiError`]s.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;
    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        Json::<T>::from_request(req, state)
            .await
            .map(|Json(v)| JsonBody(v))
            .map_err(ApiError::from)
    }
}

#[derive(Serialize)]
pub struct VariantSummary {
    pub name: String,
    pub title: String,
    pub players: usize,
    pub description: String,
}

pub async fn list_variants(State(st): State<AppState>) -> Json<Vec<VariantSummary>> {
    Json(
        st.variants
            .list()
            .into_iter()
            .map(|s| VariantSummary {
                name: s.variant.name.clone(),
                title: s.variant.title.clone(),
                players: s.variant.players.len(),
                description: s.variant.description.clone(),
            })
            .collect(),
    )
}

pub async fn get_variant(
    State(st): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<VariantView>> {
    let s = st.variants.get(&name).ok_or_else(|| {
        ApiError::not_found("variant_not_found", format!("no variant `{}`", clip(&name)))
    })?;
    Ok(Json(variant_view(&s.variant)))
}

/// One seat in a create request.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    /// `human` or `ai`.
    pub kind: String,
    pub level: Option<u8>,
    pub time_ms: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// An offered variant's name.
    pub variant: Option<String>,
    /// Or a whole variant file (TOML text).
    pub variant_file: Option<String>,
    /// One per player in turn order; default: every seat human.
    pub seats: Option<Vec<SeatRequest>>,
    /// A position string to start from instead of the setup.
    pub start: Option<String>,
    /// The creator's seat: the other human seats get invitations instead
    /// of tokens. Without it every human seat's token goes to the creator
    /// (hot seat).
    pub seat: Option<usize>,
    /// The clocks' time control; none: no clocks.
    pub clock: Option<TimeControl>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    pub record: String,
}

/// A new game: its id, the human seats' tokens and invitations (shown
/// once) and its state.
#[derive(Serialize)]
pub struct Created {
    pub id: String,
    /// Per seat: its token, `null` for AI seats and invited seats.
    pub tokens: Vec<Option<String>>,
    /// Per seat: the invitation to pass on, `null` where there is none.
    pub invites: Vec<Option<String>>,
    pub game: GameView,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    pub invite: String,
}

/// A seat taken by its invitation.
#[derive(Serialize)]
pub struct Joined {
    pub seat: usize,
    pub token: String,
}

/// Exchanges an invitation for its seat's token (once).
pub async fn join_game(
    State(st): State<AppState>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<JoinRequest>,
) -> ApiResult<Json<Joined>> {
    let shared = st.game(&id)?;
    let mut g = shared.lock().await;
    let before = g.seats.clone();
    let (seat, token) = g
        .join(&req.invite)
        .map_err(|e| ApiError::forbidden("bad_invite", e))?;
    // Stored before it counts: if the store fails, the invitation stands.
    let store = st.store.clone();
    let (gid, seats) = (g.id.clone(), g.seats.clone());
    let stored = tokio::task::spawn_blocking(move || store.update_seats(&gid, &seats))
        .await
        .map_err(|e| e.to_string())
        .and_then(|r| r);
    if let Err(e) = stored {
        g.seats = before;
        return Err(ApiError::internal(e));
    }
    g.notify();
    Ok(Json(Joined { seat, token }))
}

fn seat_kind(i: usize, s: &SeatRequest) -> ApiResult<SeatKind> {
    let bad = |m: String| ApiError::unprocessable("bad_seats", format!("seats[{i}]: {m}"));
    match s.kind.as_str() {
        "human" => Ok(SeatKind::Human),
        "ai" => SeatKind::Ai {
            level: s.level.unwrap_or(DEFAULT_LEVEL),
            time_ms: s.time_ms.unwrap_or(DEFAULT_TIME_MS),
        }
        .check()
        .map_err(bad),
        k => Err(bad(format!("kind `{}`: expected human or ai", clip(k)))),
    }
}

fn source_of(st: &AppState, name: Option<&str>, file: Option<&str>) -> ApiResult<Source> {
    match (name, file) {
        (_, Some(text)) => {
            let src =
                variants::compile(text).map_err(|e| ApiError::unprocessable("bad_variant", e))?;
            match name {
                Some(n) if n != src.variant.name => Err(ApiError::unprocessable(
                    "bad_variant",
                    format!(
                        "the variant file defines `{}`, not `{}`",
                        src.variant.name,
                        clip(n)
                    ),
                )),
                _ => Ok(src),
            }
        }
        (Some(n), None) => st.variants.get(n).cloned().ok_or_else(|| {
            ApiError::unprocessable("bad_variant", format!("no variant `{}`", clip(n)))
        }),
        (None, None) => Err(ApiError::unprocessable(
            "bad_variant",
            "give `variant` (a name) or `variant_file` (its text)",
        )),
    }
}

/// Deals the seats, creates the game and starts the AI if it is to move.
async fn open_game(
    st: &AppState,
    source: Source,
    kinds: Vec<SeatKind>,
    start: Option<&str>,
    clock: Option<TimeControl>,
    moves: &[String],
    creator: Option<usize>,
) -> ApiResult<(StatusCode, Json<Created>)> {
    let clock = clock
        .map(TimeControl::check)
        .transpose()
        .map_err(|e| ApiError::unprocessable("bad_clock", e))?;
    let longest = kinds
        .iter()
        .filter_map(|k| match k {
            SeatKind::Ai { time_ms, .. } => Some(*time_ms),
            SeatKind::Human => None,
        })
        .max();
    if let Some(t) = longest {
        if t > st.max_ai_time_ms {
            return Err(ApiError::unprocessable(
                "bad_seats",
                format!(
                    "AI time per move {t} ms is over this server's limit of {} ms",
                    st.max_ai_time_ms
                ),
            ));
        }
        if st.ai_games() >= st.max_ai_games {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "ai_busy",
                format!(
                    "this server already runs {} games with AI seats; try again later",
                    st.max_ai_games
                ),
            ));
        }
    }
    if let Some(c) = creator {
        if kinds.get(c) != Some(&SeatKind::Human) {
            return Err(ApiError::unprocessable(
                "bad_seats",
                format!("seat {c}: the creator's seat must be a human seat"),
            ));
        }
    }
    let dealt = Seat::deal(&kinds, creator).map_err(ApiError::internal)?;
    let (tokens, invites) = (dealt.tokens, dealt.invites);
    let shared = st.create(source, dealt.seats, start, clock, moves).await?;
    let g = shared.lock().await;
    let held = (0..kinds.len()).filter(|&i| tokens[i].is_some()).collect();
    let created = Created {
        id: g.id.clone(),
        tokens,
        invites,
        game: game_view(&g, held),
    };
    drop(g);
    ai::kick(st, shared);
    Ok((StatusCode::CREATED, Json(created)))
}

pub async fn create_game(
    State(st): State<AppState>,
    JsonBody(req): JsonBody<CreateRequest>,
) -> ApiResult<(StatusCode, Json<Created>)> {
    let source = source_of(&st, req.variant.as_deref(), req.variant_file.as_deref())?;
    let players = source.variant.players.len();
    let kinds = match &req.seats {
        None => vec![SeatKind::Human; players],
        Some(list) if list.len() != players => {
            return Err(ApiError::unprocessable(
                "bad_seats",
                format!(
                    "{} has {players} players; {} seats were given",
                    source.variant.name,
                    list.len()
                ),
            ))
        }
        Some(list) => list
            .iter()
            .enumerate()
            .map(|(i, s)| seat_kind(i, s))
            .collect::<ApiResult<_>>()?,
    };
    if let Some(s) = &req.start {
        quadrille_engine::Position::from_string(source.variant.clone(), s)
            .map_err(|e| ApiError::unprocessable("bad_position", e.to_string()))?;
    }
    open_game(
        &st,
        source,
        kinds,
        req.start.as_deref(),
        req.clock,
        &[],
        req.seat,
    )
    .await
}

pub async fn import_game(
    State(st): State<AppState>,
    JsonBody(req): JsonBody<ImportRequest>,
) -> ApiResult<(StatusCode, Json<Created>)> {
    let bad = |e: String| ApiError::unprocessable("bad_record", e);
    if pgn::is_pgn(&req.record) {
        let p = pgn::parse(&req.record, &st.variants).map_err(bad)?;
        let source = source_of(&st, Some(&p.variant), None)?;
        let kinds = vec![SeatKind::Human; source.variant.players.len()];
        return open_game(&st, source, kinds, p.start.as_deref(), None, &p.moves, None).await;
    }
    let r = record::parse(&req.record).map_err(bad)?;
    let source = source_of(&st, Some(&r.variant), r.variant_file.as_deref())?;
    let v = source.variant.clone();
    let mut kinds = vec![SeatKind::Human; v.players.len()];
    for (tag, kind) in &r.seats {
        let i = v
            .players
            .iter()
            .position(|p| p.tag == *tag)
            .ok_or_else(|| bad(format!("record: `{tag}` is not a player tag of {}", v.name)))?;
        kinds[i] = *kind;
    }
    open_game(
        &st,
        source,
        kinds,
        r.start.as_deref(),
        r.clock,
        &r.moves,
        None,
    )
    .await
}

/// A page of the game list: `?limit=` (default 100, at most 500) and
/// `?offset=`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Page {
    pub limit: Option<usize>,
    pub offset: Option<usize>,
}

/// Games per page by default and at most.
pub const PAGE: usize = 100;
pub const MAX_PAGE: usize = 500;

/// The games, most recently moved first, a page at a time; the header
/// `X-Total-Count` gives the number of games.
pub async fn list_games(
    State(st): State<AppState>,
    page: Result<Query<Page>, QueryRejection>,
) -> ApiResult<impl IntoResponse> {
    let Query(page) = page.map_err(|e| ApiError::bad_request("bad_query", e.body_text()))?;
    let limit = page.limit.unwrap_or(PAGE).clamp(1, MAX_PAGE);
    let offset = page.offset.unwrap_or(0);
    // Sort on what needs no game lock, then look only at the page.
    let mut keyed = Vec::new();
    for g in st.all_games() {
        let (updated, id) = {
            let l = g.lock().await;
            (l.updated, l.id.clone())
        };
        keyed.push((updated, id, g));
    }
    let total = keyed.len();
    keyed.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let mut list = Vec::new();
    for (_, _, g) in keyed.into_iter().skip(offset).take(limit) {
        list.push(summary(&*g.lock().await));
    }
    Ok(([("x-total-count", total.to_string())], Json(list)))
}

/// The server's health: games in memory, and what could not be loaded at
/// start (damaged rows are skipped, not fatal).
#[derive(Serialize)]
pub struct Health {
    pub games: usize,
    pub skipped: Vec<String>,
    pub ai_threads: usize,
}

pub async fn health(State(st): State<AppState>) -> Json<Health> {
    Json(Health {
        games: st.all_games().len(),
        skipped: st.skipped.clone(),
        ai_threads: st.ai_pool.threads(),
    })
}

/// The tokens in the `X-Seat-Tokens` header (at most four are read).
fn header_tokens(headers: &HeaderMap) -> Vec<String> {
    headers
        .get(TOKENS_HEADER)
        .and_then(|h| h.to_str().ok())
        .map(|s| {
            s.split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty() && t.len() <= 64)
                .take(4)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

pub async fn get_game(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<GameView>> {
    let shared = st.game(&id)?;
    let g = shared.lock().await;
    let seats = g.seats_of(&header_tokens(&headers));
    Ok(Json(game_view(&g, seats)))
}

pub async fn game_variant(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<VariantView>> {
    let v = st.game(&id)?.lock().await.source.variant.clone();
    Ok(Json(variant_view(&v)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move in coordinates: `e2e4`, `e7e8q`.
    #[serde(rename = "move")]
    pub text: String,
    /// The token of the seat to move.
    pub token: Option<String>,
    /// If given, the move is refused unless the game has exactly this many
    /// moves (protects against playing into a position one has not seen).
    pub ply: Option<usize>,
}

/// The seats a request's token holds, or why it holds none.
async fn seats_of_token(
    game: &SharedGame,
    id: &str,
    token: Option<String>,
    what: &str,
) -> ApiResult<Vec<usize>> {
    let token = token.filter(|t| !t.is_empty()).ok_or_else(|| {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "token_required",
            format!("{what} needs the token of a seat"),
        )
    })?;
    let seats = game.lock().await.seats_of(std::slice::from_ref(&token));
    if seats.is_empty() {
        return Err(ApiError::forbidden(
            "bad_token",
            format!("this token holds no seat of game {}", clip(id)),
        ));
    }
    Ok(seats)
}

pub async fn make_move(
    State(st): State<AppState>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<MoveRequest>,
) -> ApiResult<Json<GameView>> {
    let shared = st.game(&id)?;
    let seats = seats_of_token(&shared, &id, req.token, "a move").await?;
    let actor = Actor::Seats(seats);
    turn::play(&st, shared, actor, Input::Text(req.text), req.ply)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::internal("a person's turn gave no view"))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    /// `resign`, `draw` (offer or agree), `takeback` (ask or agree) or
    /// `decline`.
    pub action: Action,
    /// The token of the caller's seat(s).
    pub token: Option<String>,
    /// The player acted for, when the token holds several (hot seat).
    pub seat: Option<usize>,
}

pub async fn take_action(
    State(st): State<AppState>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<ActionRequest>,
) -> ApiResult<Json<GameView>> {
    let shared = st.game(&id)?;
    let seats = seats_of_token(&shared, &id, req.token, "an action").await?;
    turn::act(&st, shared, seats, req.seat, req.action)
        .await
        .map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RematchRequest {
    pub token: Option<String>,
}

/// The rematch of a finished game: the same variant, start and clock,
/// every seat moved one player on (two players swap colours); each seat's
/// token and invitation go with it, so every player keeps their key.
pub async fn rematch(
    State(st): State<AppState>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<RematchRequest>,
) -> ApiResult<(StatusCode, Json<Created>)> {
    let shared = st.game(&id)?;
    let seats = seats_of_token(&shared, &id, req.token, "a rematch").await?;
    let st2 = st.clone();
    let task = tokio::spawn(async move {
        let mut g = shared.clone().lock_owned().await;
        if *g.status() == crate::game::Status::Playing {
            return Err(ApiError::conflict("game_on", "the game is still on"));
        }
        if let Some(other) = &g.rematch {
            return Err(ApiError::conflict(
                "rematch_exists",
                format!("the rematch is game {other}"),
            ));
        }
        let n = g.seats.len();
        let mut turned = g.seats.clone();
        for (i, s) in g.seats.iter().enumerate() {
            turned[(i + 1) % n] = s.clone();
        }
        let clock = g.clocks.as_ref().map(|c| c.control);
        let new = st2
            .create(g.source.clone(), turned, Some(&g.start.clone()), clock, &[])
            .await?;
        let new_id = new.lock().await.id.clone();
        let event = crate::game::Event::Rematch(new_id.clone());
        let entry = crate::game::LogEntry::plain(g.entry_text(&event));
        st2.journal
            .append(&g.id.clone(), g.log_len, entry, crate::game::now())
            .await
            .map_err(ApiError::internal)?;
        g.apply(event, None);
        drop(g);
        ai::kick(&st2, new.clone());
        let ng = new.lock().await;
        let mine: Vec<usize> = seats.iter().map(|&s| (s + 1) % n).collect();
        Ok(Created {
            id: new_id,
            tokens: vec![None; n],
            invites: vec![None; n],
            game: game_view(&ng, mine),
        })
    });
    let created = task
        .await
        .map_err(|e| ApiError::internal(format!("the rematch task failed: {e}")))??;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Every position of the game from the start, for review.
pub async fn game_positions(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Vec<PositionView>>> {
    let shared = st.game(&id)?;
    let g = shared.lock().await;
    positions(&g).map(Json).map_err(ApiError::internal)
}

/// The game as PGN (two-player games).
pub async fn export_pgn(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<impl IntoResponse> {
    let text = pgn::write(&*st.game(&id)?.lock().await).ok_or_else(|| {
        ApiError::unprocessable(
            "not_two_players",
            "PGN is for two-player games; export the record instead",
        )
    })?;
    Ok(attachment(&id, "pgn", "application/x-chess-pgn", text))
}

pub async fn export_record(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<impl IntoResponse> {
    let text = record::write(&*st.game(&id)?.lock().await);
    Ok(attachment(&id, "txt", "text/plain", text))
}

/// A download: `text` as `quadrille-ID.EXT` of type `kind` (UTF-8).
fn attachment(id: &str, ext: &str, kind: &str, text: String) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, format!("{kind}; charset=utf-8")),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"quadrille-{id}.{ext}\""),
            ),
        ],
        text,
    )
}

/// Server-sent events: an `update` event with the game's version (the
/// length of its log, as in the view) at once and after every change (a
/// move, an action, the AI starting or stopping to think).
pub async fn events(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let shared: SharedGame = st.game(&id)?;
    let (rx, version) = {
        let g = shared.lock().await;
        (g.events.subscribe(), g.log_len)
    };
    let event = |version: usize| {
        Ok(Event::default()
            .event("update")
            .data(format!("{{\"version\":{version}}}")))
    };
    let first = stream::once(async move { event(version) });
    let rest = stream::unfold(rx, move |mut rx| async move {
        loop {
            match rx.recv().await {
                Ok(n) => return Some((event(n), rx)),
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return None,
            }
        }
    });
    Ok(Sse::new(first.chain(rest)).keep_alive(KeepAlive::default()))
}

pub async fn not_found() -> ApiError {
    ApiError::not_found("not_found", "no such page or API route")
}
