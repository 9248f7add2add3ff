//! Game actions besides moves: resign, draw by agreement, takeback by
//! consent, rematch; clocks kept by the server; notation, PGN and the
//! positions for review. Each survives a restart (the log replays).

mod common;

use axum::http::StatusCode;
use common::{code, move_texts, TestApp};
use serde_json::{json, Value};
use std::time::Duration;

fn humans(n: usize) -> Value {
    json!(vec![json!({"kind": "human"}); n])
}

/// A chess game with these seats: its directory (kept while the test
/// runs), the app, the id and the tokens.
async fn chess_game(seats: Value) -> (tempfile::TempDir, TestApp, String, Vec<Option<String>>) {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::open(&dir.path().join("g.db"));
    let (id, t, _) = app
        .create(json!({"variant": "chess", "seats": seats}))
        .await;
    (dir, app, id, t)
}

/// A chess game of two people: as [`chess_game`], with both tokens.
async fn two_people() -> (tempfile::TempDir, TestApp, String, String, String) {
    let (dir, app, id, t) = chess_game(humans(2)).await;
    let (w, b) = (t[0].clone().unwrap(), t[1].clone().unwrap());
    (dir, app, id, w, b)
}

/// A person (White) against a quick AI.
fn against_ai() -> Value {
    json!([{"kind": "human"}, {"kind": "ai", "level": 1, "time_ms": 100}])
}

async fn act(
    app: &TestApp,
    id: &str,
    token: &str,
    action: &str,
    seat: Option<usize>,
) -> (StatusCode, Value) {
    let mut body = json!({"action": action, "token": token});
    if let Some(s) = seat {
        body["seat"] = json!(s);
    }
    app.post(&format!("/api/games/{id}/actions"), body).await
}

#[tokio::test]
async fn resigning_ends_a_two_player_game_and_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let (id, tokens) = {
        let app = TestApp::open(&db);
        let (id, tokens, _) = app
            .create(json!({"variant": "chess", "seats": humans(2)}))
            .await;
        let b = tokens[1].clone().unwrap();
        app.play(&id, tokens[0].as_ref().unwrap(), "e2e4").await;
        // Black resigns while White... no: Black is to move; resigning is
        // allowed on either turn.
        let (s, g) = act(&app, &id, &b, "resign", None).await;
        assert_eq!(s, StatusCode::OK, "{g}");
        assert_eq!(g["status"], "over");
        assert_eq!(g["outcome"]["reason"], "resignation");
        assert_eq!(g["outcome"]["ranking"], json!([[0], [1]]));
        // Nothing more can be played.
        let (s, e) = app.play(&id, tokens[0].as_ref().unwrap(), "d2d4").await;
        assert_eq!((s, code(&e)), (StatusCode::CONFLICT, "game_over"));
        let (s, e) = act(&app, &id, &b, "resign", None).await;
        assert_eq!((s, code(&e)), (StatusCode::CONFLICT, "game_over"));
        (id, tokens)
    };
    let app = TestApp::open(&db);
    let (_, g) = app.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["outcome"]["reason"], "resignation", "{g}");
    assert_eq!(move_texts(&g), ["e2e4"]);
    let _ = tokens;
}

#[tokio::test]
async fn a_draw_needs_every_players_agreement_and_a_move_withdraws_it() {
    let (_dir, app, id, w, b) = two_people().await;
    let (s, g) = act(&app, &id, &w, "draw", None).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["offer"]["kind"], "draw");
    assert_eq!(g["offer"]["agreed"], json!([0]));
    // Offering twice is refused; declining one's own offer too.
    let (s, e) = act(&app, &id, &w, "draw", None).await;
    assert_eq!((s, code(&e)), (StatusCode::CONFLICT, "refused"));
    let (s, e) = act(&app, &id, &w, "decline", None).await;
    assert_eq!((s, code(&e)), (StatusCode::CONFLICT, "refused"));
    // A move withdraws it.
    app.play(&id, &w, "e2e4").await;
    let (_, g) = app.get(&format!("/api/games/{id}")).await;
    assert!(g["offer"].is_null(), "{g}");
    // Offered and declined.
    act(&app, &id, &b, "draw", None).await;
    let (_, g) = act(&app, &id, &w, "decline", None).await;
    assert!(g["offer"].is_null());
    assert_eq!(g["declined"]["kind"], "draw");
    // Offered and accepted: a draw by agreement.
    act(&app, &id, &b, "draw", None).await;
    let (_, g) = act(&app, &id, &w, "draw", None).await;
    assert_eq!(g["status"], "over");
    assert_eq!(g["outcome"]["reason"], "agreement");
    assert_eq!(g["outcome"]["ranking"], json!([[0, 1]]));
}

#[tokio::test]
async fn the_ai_declines_draws_and_grants_takebacks() {
    let (_dir, app, id, t) = chess_game(against_ai()).await;
    let w = t[0].clone().unwrap();
    let (_, g) = act(&app, &id, &w, "draw", None).await;
    assert!(g["offer"].is_null());
    assert_eq!(g["declined"]["agreed"], json!([1]));
    app.play(&id, &w, "e2e4").await;
    let g = app.wait_for(&id, |g| g["ply"] == 2).await;
    let reply = move_texts(&g)[1].to_string();
    let before = g["version"].as_u64().expect("a version");
    // Takeback: both the AI's reply and the person's move go.
    let (s, g) = act(&app, &id, &w, "takeback", None).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["ply"], 0, "{g}");
    // Fewer moves, yet a newer view: browsers order views by version.
    assert!(g["version"].as_u64().expect("a version") > before, "{g}");
    assert_eq!(g["to_move"], 0);
    // And the game goes on from there.
    let (s, _) = app.play(&id, &w, "d2d4").await;
    assert_eq!(s, StatusCode::OK);
    let g = app.wait_for(&id, |g| g["ply"] == 2).await;
    assert_eq!(move_texts(&g)[0], "d2d4");
    let _ = reply;
}

#[tokio::test]
async fn a_takeback_needs_the_opponents_consent_and_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let id = {
        let app = TestApp::open(&db);
        let (id, t, _) = app
            .create(json!({"variant": "chess", "seats": humans(2)}))
            .await;
        let (w, b) = (t[0].clone().unwrap(), t[1].clone().unwrap());
        // Nothing to take back yet.
        let (s, e) = act(&app, &id, &w, "takeback", None).await;
        assert_eq!((s, code(&e)), (StatusCode::CONFLICT, "refused"), "{e}");
        app.play(&id, &w, "e2e4").await;
        app.play(&id, &b, "e7e5").await;
        app.play(&id, &w, "g1f3").await;
        let (_, g) = act(&app, &id, &w, "takeback", None).await;
        assert_eq!(g["offer"]["kind"], "takeback");
        assert_eq!(g["ply"], 3);
        let (_, g) = act(&app, &id, &b, "takeback", None).await;
        assert_eq!(move_texts(&g), ["e2e4", "e7e5"]);
        assert_eq!(g["to_move"], 0);
        app.play(&id, &w, "b1c3").await;
        id
    };
    let app = TestApp::open(&db);
    let (_, g) = app.get(&format!("/api/games/{id}")).await;
    assert_eq!(move_texts(&g), ["e2e4", "e7e5", "b1c3"], "{g}");
}

#[tokio::test]
async fn in_four_player_games_a_resigner_leaves_and_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::open(&dir.path().join("g.db"));
    let (id, t, _) = app
        .create(json!({"variant": "ariana", "seats": humans(4)}))
        .await;
    // Player 2 resigns out of turn: they leave when their turn comes.
    let p2 = t[2].clone().unwrap();
    let (s, g) = act(&app, &id, &p2, "resign", None).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["status"], "playing");
    let mut g = g;
    for tok in &t[..2] {
        let tok = tok.as_deref().unwrap();
        let (_, me) = app
            .get_with_tokens(&format!("/api/games/{id}"), &[tok])
            .await;
        let m = me["legal_moves"][0]["text"].as_str().unwrap().to_string();
        let (s, after) = app.play(&id, tok, &m).await;
        assert_eq!(s, StatusCode::OK, "{after}");
        g = after;
    }
    assert_eq!(g["out"], json!([2]), "{g}");
    assert_eq!(g["to_move"], 3);
    assert_eq!(g["moves"][2]["text"], "resign");
    // A draw among the three left needs all three.
    act(&app, &id, t[3].as_deref().unwrap(), "draw", None).await;
    act(&app, &id, t[0].as_deref().unwrap(), "draw", None).await;
    let (_, g) = app.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["status"], "playing");
    let (_, g) = act(&app, &id, t[1].as_deref().unwrap(), "draw", None).await;
    assert_eq!(g["outcome"]["reason"], "agreement");
    assert_eq!(g["outcome"]["ranking"], json!([[0, 1, 3], [2]]));
}

#[tokio::test]
async fn a_flag_falls_when_time_runs_out_and_the_ai_keeps_to_its_clock() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::open(&dir.path().join("g.db"));
    let clock = json!({"kind": "move", "move_ms": 1000});
    let (id, t, g) = app
        .create(json!({"variant": "chess", "seats": humans(2), "clock": clock}))
        .await;
    assert_eq!(g["clock"]["left_ms"], json!([1000, 1000]));
    assert!(
        g["clock"]["running"].is_null(),
        "no clock before the first moves"
    );
    let (w, b) = (t[0].clone().unwrap(), t[1].clone().unwrap());
    app.play(&id, &w, "e2e4").await;
    let (_, g) = app.play(&id, &b, "e7e5").await;
    assert_eq!(g["clock"]["running"], 0, "{g}");
    // White does not move: after a second the flag falls.
    let g = app.wait_for(&id, |g| g["status"] == "over").await;
    assert_eq!(g["outcome"]["reason"], "time");
    assert_eq!(g["outcome"]["ranking"], json!([[1], [0]]));
    let (s, e) = app.play(&id, &w, "g1f3").await;
    assert_eq!((s, code(&e)), (StatusCode::CONFLICT, "game_over"));

    // The record carries the clock; an import gets it back.
    let (s, record) = app.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(s, StatusCode::OK);
    let record = record.as_str().expect("a text body").to_string();
    assert!(record.contains("clock: move 1000"), "{record}");
    let (s, back) = app
        .post("/api/games/import", json!({"record": record}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{back}");
    assert_eq!(back["game"]["clock"]["control"], clock);

    // Bad clocks are refused.
    let (s, e) = app
        .post(
            "/api/games",
            json!({"variant": "chess", "clock": {"kind": "fischer", "base_ms": 5, "inc_ms": 0}}),
        )
        .await;
    assert_eq!(
        (s, code(&e)),
        (StatusCode::UNPROCESSABLE_ENTITY, "bad_clock"),
        "{e}"
    );

    // An AI with a Fischer clock and a long time per move answers within
    // its clock's share, never losing on time.
    let (id, t, _) = app
        .create(json!({"variant": "chess",
            "seats": [{"kind": "human"}, {"kind": "ai", "level": 1, "time_ms": 10000}],
            "clock": {"kind": "fischer", "base_ms": 10000, "inc_ms": 0}}))
        .await;
    let w = t[0].clone().unwrap();
    for (ply, mv) in [(0, "e2e4"), (2, "d2d4")] {
        let _ = app.wait_for(&id, |g| g["ply"] == ply).await;
        let (s, g) = app.play(&id, &w, mv).await;
        assert_eq!(s, StatusCode::OK, "{g}");
    }
    let g = app.wait_for(&id, |g| g["ply"] == 4).await;
    let left = g["moves"][3]["clock_ms"].as_i64().unwrap();
    assert!(
        left > 9000 && left <= 10000,
        "the AI used {} ms",
        10000 - left
    );
}

#[tokio::test]
async fn rematch_swaps_the_seats_and_keeps_the_keys() {
    let (_dir, app, id, t) = chess_game(against_ai()).await;
    let w = t[0].clone().unwrap();
    let (s, e) = app
        .post(&format!("/api/games/{id}/rematch"), json!({"token": w}))
        .await;
    assert_eq!((s, code(&e)), (StatusCode::CONFLICT, "game_on"));
    act(&app, &id, &w, "resign", None).await;
    let (s, r) = app
        .post(&format!("/api/games/{id}/rematch"), json!({"token": w}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{r}");
    let new = r["id"].as_str().unwrap();
    assert_eq!(r["game"]["your_seats"], json!([1]));
    assert_eq!(r["game"]["seats"][0]["kind"], "ai");
    // The AI, now White, moves first; the person's old token holds Black.
    let g = app.wait_for(new, |g| g["ply"] == 1).await;
    let (_, mine) = app
        .get_with_tokens(&format!("/api/games/{new}"), &[&w])
        .await;
    assert_eq!(mine["your_seats"], json!([1]));
    assert!(!mine["legal_moves"].as_array().unwrap().is_empty());
    let _ = g;
    let (_, old) = app.get(&format!("/api/games/{id}")).await;
    assert_eq!(old["rematch"], new);
    let (s, e) = app
        .post(&format!("/api/games/{id}/rematch"), json!({"token": w}))
        .await;
    assert_eq!((s, code(&e)), (StatusCode::CONFLICT, "rematch_exists"));
}

#[tokio::test]
async fn notation_pgn_and_review_positions() {
    let (_dir, app, id, w, b) = two_people().await;
    for (tok, mv) in [
        (&w, "e2e4"),
        (&b, "e7e5"),
        (&w, "d1h5"),
        (&b, "b8c6"),
        (&w, "f1c4"),
        (&b, "g8f6"),
        (&w, "h5f7"),
    ] {
        let (s, g) = app.play(&id, tok, mv).await;
        assert_eq!(s, StatusCode::OK, "{g}");
    }
    let (_, g) = app.get(&format!("/api/games/{id}")).await;
    let sans: Vec<&str> = g["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap())
        .collect();
    assert_eq!(sans, ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]);
    let (s, pgn) = app.get(&format!("/api/games/{id}/pgn")).await;
    assert_eq!(s, StatusCode::OK);
    let pgn = pgn.as_str().expect("a text body");
    assert!(pgn.contains("[Variant \"chess\"]"), "{pgn}");
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(
        pgn.contains("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"),
        "{pgn}"
    );
    // PGN imports back to the same position.
    let (s, back) = app.post("/api/games/import", json!({"record": pgn})).await;
    assert_eq!(s, StatusCode::CREATED, "{back}");
    assert_eq!(back["game"]["position"], g["position"]);
    // A bad PGN move is named.
    let (s, e) = app
        .post(
            "/api/games/import",
            json!({"record": "[Variant \"chess\"]\n\n1. e4 e5 2. Kxe8"}),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("move 3 `Kxe8`"),
        "{e}"
    );
    // Review: one position per ply, the last the current one.
    let (_, ps) = app.get(&format!("/api/games/{id}/positions")).await;
    let ps = ps.as_array().unwrap();
    assert_eq!(ps.len(), 8);
    assert_eq!(ps[7]["board"], g["board"]);
    assert_eq!(ps[1]["last_move"], json!({"from": "e2", "to": "e4"}));
    assert!(ps[0]["last_move"].is_null());
    assert_eq!(ps[7]["attacked_royals"], json!(["e8"]));
    // Four-player games have no PGN.
    let (id4, _, _) = app.create(json!({"variant": "ariana"})).await;
    let (s, e) = app.get(&format!("/api/games/{id4}/pgn")).await;
    assert_eq!(
        (s, code(&e)),
        (StatusCode::UNPROCESSABLE_ENTITY, "not_two_players")
    );
    tokio::time::sleep(Duration::from_millis(1)).await;
}
