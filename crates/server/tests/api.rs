//! The JSON API in-process: variants, games, moves and every refusal,
//! persistence across a restart, records, live updates and AI seats.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{code, TestApp};
use http_body_util::BodyExt;
use serde_json::{json, Value};

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn temp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn humans(n: usize) -> Value {
    json!(vec![json!({"kind": "human"}); n])
}

#[tokio::test]
async fn variants_are_listed_and_described_from_their_files() {
    let dir = temp();
    let app = TestApp::open(&dir.path().join("g.db"));
    let (s, list) = app.get("/api/variants").await;
    assert_eq!(s, StatusCode::OK);
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    for n in quadrille_engine::embedded::names() {
        assert!(names.contains(&n), "{n} missing from {names:?}");
    }
    // Avon: 8x10 from rank 0, the River along 8 edges between ranks 4 and 5,
    // two armies shared by four players.
    let (_, avon) = app.get("/api/variants/avon").await;
    assert_eq!(avon["board"]["cells"].as_array().unwrap().len(), 80);
    assert_eq!(avon["board"]["first_rank"], 0);
    let river = avon["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["label"] == "River")
        .unwrap();
    let edges = river["edges"].as_array().unwrap();
    assert_eq!(edges.len(), 8);
    assert!(edges.contains(&json!(["a4", "a5"])));
    assert_eq!(avon["players"].as_array().unwrap().len(), 4);
    assert_eq!(
        avon["players"][2]["army"], 0,
        "White 5-9 moves the White army"
    );
    assert_eq!(avon["players"][2]["home_text"], "a5-h9");
    // Mini Fivequarters: a 45-cell cross, four army colours, five shaded areas.
    let (_, ariana) = app.get("/api/variants/ariana").await;
    assert_eq!(ariana["board"]["cells"].as_array().unwrap().len(), 45);
    assert!(!ariana["board"]["cells"]
        .as_array()
        .unwrap()
        .contains(&json!("a1")));
    let colours: Vec<&str> = ariana["armies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["colour"].as_str().unwrap())
        .collect();
    assert_eq!(colours.len(), 4);
    assert!(colours.iter().all(|c| c.starts_with('#')));
    assert_eq!(ariana["shades"].as_array().unwrap().len(), 5);
    // Every piece of every variant: a distinct symbol and its moves in words.
    for n in quadrille_engine::embedded::names() {
        let (_, v) = app.get(&format!("/api/variants/{n}")).await;
        let pieces = v["pieces"].as_array().unwrap();
        let mut symbols: Vec<String> = pieces
            .iter()
            .map(|p| {
                p["glyph"]
                    .as_str()
                    .map(String::from)
                    .unwrap_or_else(|| format!("disc {}", p["letter"]))
            })
            .collect();
        let count = symbols.len();
        symbols.sort();
        symbols.dedup();
        assert_eq!(symbols.len(), count, "{n}: two pieces share a symbol");
        for p in pieces {
            assert!(!p["moves"].as_array().unwrap().is_empty(), "{n} {p}");
        }
    }
    let (_, chess) = app.get("/api/variants/chess").await;
    let knight = chess["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["letter"] == "N")
        .unwrap();
    assert_eq!(knight["glyph"], "\u{265E}");
    assert!(
        knight["moves"][0]
            .as_str()
            .unwrap()
            .contains("(2,1) leaper"),
        "{knight}"
    );
    // The Pass games' Soldier moves by quarter: its legend says how.
    let (_, xiang) = app.get("/api/variants/xiang-aikou").await;
    let soldier = xiang["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["letter"] == "S")
        .unwrap();
    let lines: Vec<&str> = soldier["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let diagonal = lines
        .iter()
        .find(|l| l.starts_with("As frW "))
        .expect("frW line");
    assert!(
        diagonal.contains("Red on red diagonal (forward north)"),
        "{diagonal}"
    );
    assert!(lines.iter().any(|l| l.starts_with("As W ")), "{lines:?}");
    let (s, e) = app.get("/api/variants/nope").await;
    assert_eq!((s, code(&e)), (StatusCode::NOT_FOUND, "variant_not_found"));
}

#[tokio::test]
async fn a_two_player_game_moves_only_with_the_right_token() {
    let dir = temp();
    let app = TestApp::open(&dir.path().join("g.db"));
    let (id, tokens, game) = app.create(json!({"variant": "chess"})).await;
    let (white, black) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    assert_eq!(game["position"], CHESS_START);
    assert_eq!(game["your_seats"], json!([0, 1]));
    assert_eq!(game["legal_moves"].as_array().unwrap().len(), 20);

    // A spectator sees the board but no legal moves.
    let (_, spectator) = app.get(&format!("/api/games/{id}")).await;
    assert_eq!(spectator["your_seats"], json!([]));
    assert!(spectator["legal_moves"].as_array().unwrap().is_empty());
    // Black's holder sees no moves on White's turn.
    let (_, b) = app
        .get_with_tokens(&format!("/api/games/{id}"), &[&black])
        .await;
    assert_eq!(b["your_seats"], json!([1]));
    assert!(b["legal_moves"].as_array().unwrap().is_empty());

    // Refusals: each changes nothing.
    let (s, e) = app
        .post(&format!("/api/games/{id}/moves"), json!({"move": "e2e4"}))
        .await;
    assert_eq!((s, code(&e)), (StatusCode::UNAUTHORIZED, "token_required"));
    let (s, e) = app
        .play(&id, "0123456789abcdef0123456789abcdef", "e2e4")
        .await;
    assert_eq!((s, code(&e)), (StatusCode::FORBIDDEN, "bad_token"));
    let (s, e) = app.play(&id, &black, "e7e5").await;
    assert_eq!((s, code(&e)), (StatusCode::FORBIDDEN, "not_your_turn"));
    assert!(e["error"]["message"].as_str().unwrap().contains("White"));
    let (s, e) = app.play(&id, &white, "e2e5").await;
    assert_eq!(
        (s, code(&e)),
        (StatusCode::UNPROCESSABLE_ENTITY, "illegal_move")
    );
    assert!(
        e["error"]["message"].as_str().unwrap().contains("e2e5"),
        "{e}"
    );
    let (s, e) = app.play(&id, &white, "e7e5").await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not yours"),
        "{e}"
    );
    let (s, e) = app.play(&id, &white, "zz").await;
    assert_eq!((s, code(&e)), (StatusCode::BAD_REQUEST, "bad_move"));
    let (s, e) = app.play(&id, &white, &"e2e4".repeat(100)).await;
    assert_eq!((s, code(&e)), (StatusCode::BAD_REQUEST, "bad_move"));
    assert!(e["error"]["message"].as_str().unwrap().len() < 200, "{e}");
    let (_, g) = app.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["position"], CHESS_START);
    assert_eq!(g["ply"], 0);

    // Legal moves go through; the state follows.
    let (s, g) = app.play(&id, &white, "e2e4").await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["ply"], 1);
    assert_eq!(g["to_move"], 1);
    assert_eq!(g["last_move"], json!({"from": "e2", "to": "e4"}));
    let (s, g) = app.play(&id, &black, "f7f6").await;
    assert_eq!(s, StatusCode::OK);
    app.play(&id, &white, "d2d4").await;
    app.play(&id, &black, "g7g5").await;
    let (_, g2) = app.play(&id, &white, "d1h5").await;
    assert_eq!(g2["status"], "over", "fool's mate: {g2}");
    assert_eq!(g2["outcome"]["reason"], "checkmate");
    assert_eq!(g2["outcome"]["ranking"], json!([[0], [1]]));
    assert_eq!(g2["attacked_royals"], json!(["e8"]));
    assert!(g2["to_move"].is_null());
    let (s, e) = app.play(&id, &black, "a7a6").await;
    assert_eq!((s, code(&e)), (StatusCode::CONFLICT, "game_over"));
    assert_eq!(g["moves"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_stale_ply_is_refused() {
    let dir = temp();
    let app = TestApp::open(&dir.path().join("g.db"));
    let (id, tokens, _) = app.create(json!({"variant": "chess"})).await;
    let white = tokens[0].clone().unwrap();
    let uri = format!("/api/games/{id}/moves");
    let (s, e) = app
        .post(&uri, json!({"move": "e2e4", "token": white, "ply": 3}))
        .await;
    assert_eq!((s, code(&e)), (StatusCode::CONFLICT, "stale_ply"));
    let (s, _) = app
        .post(&uri, json!({"move": "e2e4", "token": white, "ply": 0}))
        .await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test]
async fn a_four_player_game_takes_turns_by_seat() {
    let dir = temp();
    let app = TestApp::open(&dir.path().join("g.db"));
    let (id, tokens, game) = app
        .create(json!({"variant": "ariana", "seats": humans(4)}))
        .await;
    assert_eq!(game["board"].as_array().unwrap().len(), 36);
    let t: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
    // Red, Orange, Green, Blue each push a centre pawn.
    for (seat, mv) in [(0, "e3e4"), (1, "g5f5"), (2, "e7e6"), (3, "c5d5")] {
        let (_, g) = app
            .get_with_tokens(&format!("/api/games/{id}"), &[&t[seat]])
            .await;
        assert_eq!(g["to_move"], seat);
        assert!(
            g["legal_moves"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["text"] == mv),
            "{mv}: {g}"
        );
        let other = &t[(seat + 1) % 4];
        let (s, _) = app.play(&id, other, mv).await;
        assert_eq!(
            s,
            StatusCode::FORBIDDEN,
            "seat {} may not move for {seat}",
            (seat + 1) % 4
        );
        let (s, g) = app.play(&id, &t[seat], mv).await;
        assert_eq!(s, StatusCode::OK, "{g}");
    }
    let (_, g) = app.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["ply"], 4);
    assert_eq!(g["to_move"], 0);
    let players: Vec<u64> = g["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["player"].as_u64().unwrap())
        .collect();
    assert_eq!(players, vec![0, 1, 2, 3]);
}

#[tokio::test]
async fn games_survive_a_restart() {
    let dir = temp();
    let db = dir.path().join("g.db");
    let (id, white, black, position) = {
        let app = TestApp::open(&db);
        let (id, tokens, _) = app
            .create(
                json!({"variant": "magna-carta", "seats": [{"kind": "human"}, {"kind": "human"}]}),
            )
            .await;
        let (w, b) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
        for (t, m) in [(&w, "e2e4"), (&b, "e7e5"), (&w, "g1f3")] {
            let (s, g) = app.play(&id, t, m).await;
            assert_eq!(s, StatusCode::OK, "{g}");
        }
        let (_, g) = app.get(&format!("/api/games/{id}")).await;
        (id, w, b, g["position"].clone())
    };
    // A new server on the same file.
    let app = TestApp::open(&db);
    let (s, g) = app
        .get_with_tokens(&format!("/api/games/{id}"), &[&black])
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["position"], position);
    assert_eq!(g["ply"], 3);
    assert_eq!(g["your_seats"], json!([1]));
    assert!(!g["legal_moves"].as_array().unwrap().is_empty());
    let (_, list) = app.get("/api/games").await;
    assert!(list
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["id"] == id.as_str() && s["ply"] == 3));
    // The tokens still hold their seats.
    let (s, _) = app.play(&id, &white, "a2a3").await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, g) = app.play(&id, &black, "b8c6").await;
    assert_eq!(s, StatusCode::OK, "{g}");
    drop(app);
    let app = TestApp::open(&db);
    let (_, g) = app.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["ply"], 4);
}

#[tokio::test]
async fn a_start_position_can_be_loaded_and_bad_ones_are_refused() {
    let dir = temp();
    let app = TestApp::open(&dir.path().join("g.db"));
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let (_, _, g) = app.create(json!({"variant": "chess", "start": fen})).await;
    assert_eq!(g["position"], fen);
    assert_eq!(g["start"], fen);
    let (s, e) = app
        .post(
            "/api/games",
            json!({"variant": "chess", "start": "4k3/8/8 w"}),
        )
        .await;
    assert_eq!(
        (s, code(&e)),
        (StatusCode::UNPROCESSABLE_ENTITY, "bad_position")
    );
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("position string"),
        "{e}"
    );
    let (_, list) = app.get("/api/games").await;
    assert_eq!(
        list.as_array().unwrap().len(),
        1,
        "nothing created by the refusal"
    );
}

#[tokio::test]
async fn records_round_trip_with_embedded_and_user_variants() {
    let dir = temp();
    let app = TestApp::open(&dir.path().join("g.db"));
    let (id, tokens, _) = app
        .create(json!({"variant": "chess", "seats": [{"kind": "human"}, {"kind": "ai", "level": 5, "time_ms": 200}]}))
        .await;
    let white = tokens[0].clone().unwrap();
    app.play(&id, &white, "d2d4").await;
    let g = app.wait_for(&id, |g| g["ply"] == 2).await;
    let (s, record) = app.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(s, StatusCode::OK);
    let record = record.as_str().unwrap().to_string();
    assert!(record.contains("variant: chess\n"), "{record}");
    assert!(record.contains("seat b: ai level 5 time 200\n"), "{record}");
    assert!(!record.contains(&white), "no token in a record");
    let (s, imported) = app
        .post("/api/games/import", json!({"record": record}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{imported}");
    assert_ne!(imported["id"], id.as_str());
    assert_eq!(imported["game"]["position"], g["position"]);
    assert_eq!(imported["game"]["moves"], g["moves"]);
    assert_eq!(imported["game"]["seats"], g["seats"]);
    assert_ne!(
        imported["tokens"][0].as_str().unwrap(),
        white,
        "fresh tokens"
    );

    // A variant from a file travels inside the record.
    let court = include_str!("../../cli/tests/fixtures/cannon-court.toml");
    let (id2, t2, g2) = app.create(json!({"variant_file": court})).await;
    assert_eq!(g2["variant"], "cannon-court");
    let (s, g2) = app.play(&id2, t2[0].as_deref().unwrap(), "e1e5").await;
    assert_eq!(s, StatusCode::OK, "the cannon's capture: {g2}");
    let (_, rec2) = app.get(&format!("/api/games/{id2}/record")).await;
    let rec2 = rec2.as_str().unwrap();
    assert!(rec2.contains("variant-file:\n| # Cannon Court"), "{rec2}");
    let (s, back) = app.post("/api/games/import", json!({"record": rec2})).await;
    assert_eq!(s, StatusCode::CREATED, "{back}");
    assert_eq!(back["game"]["position"], g2["position"]);
    let (_, v) = app
        .get(&format!(
            "/api/games/{}/variant",
            back["id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(v["board"]["cells"].as_array().unwrap().len(), 32);

    // Broken records are refused with the line or move at fault.
    let bad = record.replace("moves: d2d4", "moves: d2d5");
    let (s, e) = app.post("/api/games/import", json!({"record": bad})).await;
    assert_eq!(
        (s, code(&e)),
        (StatusCode::UNPROCESSABLE_ENTITY, "bad_game")
    );
    assert!(
        e["error"]["message"].as_str().unwrap().contains("move 1"),
        "{e}"
    );
    let (s, e) = app
        .post(
            "/api/games/import",
            json!({"record": "variant: chess\nwhat\n"}),
        )
        .await;
    assert_eq!(
        (s, code(&e)),
        (StatusCode::UNPROCESSABLE_ENTITY, "bad_record")
    );
    let (s, e) = app
        .post(
            "/api/games/import",
            json!({"record": "variant: chess\nseat z: human\n"}),
        )
        .await;
    assert_eq!(
        (s, code(&e)),
        (StatusCode::UNPROCESSABLE_ENTITY, "bad_record")
    );
}

#[tokio::test]
async fn malformed_and_oversized_requests_get_json_errors() {
    let dir = temp();
    let app = TestApp::open(&dir.path().join("g.db"));
    let cases: Vec<(String, &str, String, StatusCode, &str)> = vec![
        ("/api/games".into(), "application/json", "{\"variant\": ".into(), StatusCode::BAD_REQUEST, "bad_json"),
        ("/api/games".into(), "application/json", "[1, 2]".into(), StatusCode::UNPROCESSABLE_ENTITY, "bad_fields"),
        ("/api/games".into(), "application/json", "{\"variant\": \"chess\", \"colour\": 1}".into(), StatusCode::UNPROCESSABLE_ENTITY, "bad_fields"),
        ("/api/games".into(), "text/plain", "{\"variant\": \"chess\"}".into(), StatusCode::UNSUPPORTED_MEDIA_TYPE, "bad_content_type"),
        ("/api/games".into(), "application/json", format!("{{\"variant\": \"{}\"}}", "x".repeat(400_000)), StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
        ("/api/games".into(), "application/json", "{\"variant\": \"nope\"}".into(), StatusCode::UNPROCESSABLE_ENTITY, "bad_variant"),
        ("/api/games".into(), "application/json", "{}".into(), StatusCode::UNPROCESSABLE_ENTITY, "bad_variant"),
        ("/api/games".into(), "application/json", "{\"variant\": \"chess\", \"seats\": [{\"kind\": \"human\"}]}".into(), StatusCode::UNPROCESSABLE_ENTITY, "bad_seats"),
        ("/api/games".into(), "application/json", "{\"variant\": \"chess\", \"seats\": [{\"kind\": \"human\"}, {\"kind\": \"ai\", \"level\": 9}]}".into(), StatusCode::UNPROCESSABLE_ENTITY, "bad_seats"),
        ("/api/games".into(), "application/json", "{\"variant\": \"chess\", \"seats\": [{\"kind\": \"human\"}, {\"kind\": \"robot\"}]}".into(), StatusCode::UNPROCESSABLE_ENTITY, "bad_seats"),
        ("/api/games".into(), "application/json", "{\"variant_file\": \"name = 3\"}".into(), StatusCode::UNPROCESSABLE_ENTITY, "bad_variant"),
        ("/api/games/nope/moves".into(), "application/json", "{\"move\": \"e2e4\", \"token\": \"x\"}".into(), StatusCode::NOT_FOUND, "game_not_found"),
        ("/api/games/import".into(), "application/json", "{\"record\": 5}".into(), StatusCode::UNPROCESSABLE_ENTITY, "bad_fields"),
    ];
    for (uri, ct, body, status, want) in cases {
        let (s, e) = app.post_raw(&uri, ct, body.clone()).await;
        assert_eq!(
            (s, code(&e)),
            (status, want),
            "{uri} {}: {e}",
            &body[..body.len().min(80)]
        );
        assert!(!e["error"]["message"].as_str().unwrap().is_empty());
    }
    // Binary garbage in the body.
    let req = Request::post("/api/games")
        .header("content-type", "application/json")
        .body(Body::from(vec![0xff, 0xfe, 0x00, 0x7b]))
        .unwrap();
    let (s, e) = app.send(req).await;
    assert_eq!((s, code(&e)), (StatusCode::BAD_REQUEST, "bad_json"));
    let (s, e) = app.get("/api/nothing/here").await;
    assert_eq!((s, code(&e)), (StatusCode::NOT_FOUND, "not_found"));
    let (s, e) = app.get("/api/games/zzz").await;
    assert_eq!((s, code(&e)), (StatusCode::NOT_FOUND, "game_not_found"));
    let (_, list) = app.get("/api/games").await;
    assert_eq!(list, json!([]), "no refused request created a game");
    // The server still answers.
    let (s, _) = app.get("/api/variants").await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test]
async fn an_ai_seat_replies_with_a_legal_move() {
    let dir = temp();
    let app = TestApp::open(&dir.path().join("g.db"));
    let (id, tokens, _) = app
        .create(json!({"variant": "chess", "seats": [{"kind": "human"}, {"kind": "ai", "level": 3, "time_ms": 100}]}))
        .await;
    let white = tokens[0].clone().unwrap();
    assert!(tokens[1].is_none(), "an AI seat has no token");
    let (s, _) = app.play(&id, &white, "e2e4").await;
    assert_eq!(s, StatusCode::OK);
    let g = app
        .wait_for(&id, |g| g["ply"] == 2 && g["ai_thinking"] == false)
        .await;
    assert_eq!(g["moves"][1]["player"], 1);
    // The reply was legal: replaying both moves through the engine works.
    let v = quadrille_engine::embedded::variant("chess").unwrap();
    let mut p = v.start();
    for m in g["moves"].as_array().unwrap() {
        p.play(m["text"].as_str().unwrap()).unwrap();
    }
    assert_eq!(g["position"].as_str().unwrap(), p.to_string());
    assert_eq!(g["to_move"], 0);
}

#[tokio::test]
async fn four_ai_seats_play_a_four_player_game_on_their_own() {
    let dir = temp();
    let app = TestApp::open(&dir.path().join("g.db"));
    let ai = json!({"kind": "ai", "level": 2, "time_ms": 50});
    let (id, tokens, _) = app
        .create(json!({"variant": "diana", "seats": [ai, ai, ai, ai]}))
        .await;
    assert!(tokens.iter().all(Option::is_none));
    let g = app
        .wait_for(&id, |g| {
            g["ply"].as_u64().unwrap() >= 12 || g["status"] != "playing"
        })
        .await;
    let players: Vec<u64> = g["moves"]
        .as_array()
        .unwrap()
        .iter()
        .take(4)
        .map(|m| m["player"].as_u64().unwrap())
        .collect();
    assert_eq!(players, vec![0, 1, 2, 3]);
}

/// Reads SSE frames until one contains `needle`.
async fn next_event_with(body: &mut Body, needle: &str) -> String {
    let mut seen = String::new();
    for _ in 0..50 {
        let frame = tokio::time::timeout(std::time::Duration::from_secs(5), body.frame())
            .await
            .expect("an event in time")
            .expect("stream open")
            .expect("frame");
        if let Ok(data) = frame.into_data() {
            seen.push_str(&String::from_utf8_lossy(&data));
            if seen.contains(needle) {
                return seen;
            }
        }
    }
    panic!("no event with {needle} in {seen}");
}

#[tokio::test]
async fn live_updates_announce_every_move() {
    let dir = temp();
    let app = TestApp::open(&dir.path().join("g.db"));
    let (id, tokens, _) = app.create(json!({"variant": "chess"})).await;
    let resp = app.get_raw(&format!("/api/games/{id}/events")).await;
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    let mut body = resp.into_body();
    // The events carry the view's version (`GameView::version`: it grows
    // with every line of the log, moves and actions alike).
    let first = next_event_with(&mut body, "\"version\":0").await;
    assert!(first.contains("event: update"), "{first}");
    app.play(&id, tokens[0].as_deref().unwrap(), "g1f3").await;
    next_event_with(&mut body, "\"version\":1").await;
    app.play(&id, tokens[1].as_deref().unwrap(), "g8f6").await;
    next_event_with(&mut body, "\"version\":2").await;
    let (s, view) = app
        .post(
            &format!("/api/games/{id}/actions"),
            json!({"action": "resign", "token": tokens[0].as_deref().unwrap()}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{view}");
    let resigned = view["version"].as_u64().unwrap();
    assert!(resigned > 2, "{view}");
    next_event_with(&mut body, &format!("\"version\":{resigned}")).await;
    let (s, e) = app.get("/api/games/nope/events").await;
    assert_eq!((s, code(&e)), (StatusCode::NOT_FOUND, "game_not_found"));
}

#[tokio::test]
async fn the_web_app_is_served() {
    let dir = temp();
    let app = TestApp::open(&dir.path().join("g.db"));
    let (s, page) = app.get("/").await;
    assert_eq!(s, StatusCode::OK);
    assert!(
        page.as_str().unwrap().contains("<script type=\"module\""),
        "{page}"
    );
    for f in ["app.js", "api.js", "board.js", "style.css"] {
        let resp = app.get_raw(&format!("/assets/{f}")).await;
        assert_eq!(resp.status(), StatusCode::OK, "{f}");
        let len = resp.into_body().collect().await.unwrap().to_bytes().len();
        assert!(len > 100, "{f} is {len} bytes");
    }
    let (s, _) = app.get("/assets/../Cargo.toml").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_variant_file_given_at_start_is_offered_and_survives_without_it() {
    let dir = temp();
    let db = dir.path().join("g.db");
    let court = include_str!("../../cli/tests/fixtures/cannon-court.toml");
    let mut c = common::config(&db);
    c.variant_files
        .push(("cannon-court.toml".into(), court.into()));
    let id = {
        let app = TestApp::with_config(c.clone());
        let (_, list) = app.get("/api/variants").await;
        assert!(list
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v["name"] == "cannon-court"));
        let (id, _, _) = app.create(json!({"variant": "cannon-court"})).await;
        id
    };
    // Restarted without the file: the game kept its variant's text.
    let app = TestApp::open(&db);
    let (s, g) = app.get(&format!("/api/games/{id}")).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["variant"], "cannon-court");
    // A second file with an embedded name is refused at start-up.
    let mut bad = common::config(&db);
    bad.variant_files.push((
        "x.toml".into(),
        include_str!("../../../variants/chess.toml").into(),
    ));
    let err = quadrille_server::Server::open(&bad, std::sync::Arc::new(quadrille_server::Greedy))
        .err()
        .unwrap();
    assert!(err.contains("x.toml") && err.contains("already"), "{err}");
}

#[tokio::test]
async fn a_forced_drop_out_is_played_by_the_server_and_ends_avon() {
    let dir = temp();
    let app = TestApp::open(&dir.path().join("g.db"));
    // Black 0-4 is out; White 0-4 takes Black's last royal piece, then
    // Black 5-9 has no move and must drop out, which ends the game.
    let start = "K6k/1p6/8/8/8/8/8/8/7Q/K7 w - - 0 1 out=y";
    let (id, tokens, g) = app.create(json!({"variant": "avon", "start": start})).await;
    assert_eq!(g["out"], json!([3]));
    let (s, g) = app.play(&id, tokens[0].as_deref().unwrap(), "h1h9").await;
    assert_eq!(s, StatusCode::OK, "{g}");
    let g = app.wait_for(&id, |g| g["status"] == "over").await;
    assert_eq!(common::move_texts(&g), ["h1h9", "out"]);
    assert_eq!(g["out"], json!([3, 1]));
    assert_eq!(g["outcome"]["reason"], "last army");
    assert_eq!(g["outcome"]["ranking"], json!([[0], [2], [1], [3]]));
    // A drop-out moves no piece: the last move shown is the capture.
    assert_eq!(g["last_move"], json!({"from": "h1", "to": "h9"}));
}

/// With `seat`, the creator gets that seat's token and an invitation for
/// each other human seat, exchanged once for a token; the creator cannot
/// move the invited seat, and a used or forged invitation is refused.
#[tokio::test]
async fn invitations_give_each_player_their_own_seat() {
    let dir = temp();
    let app = TestApp::open(&dir.path().join("g.db"));
    let (status, created) = app
        .post("/api/games", json!({"variant": "chess", "seat": 0}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["tokens"][0].as_str().unwrap().to_string();
    assert!(
        created["tokens"][1].is_null(),
        "the creator gets no token of Black"
    );
    let invite = created["invites"][1].as_str().unwrap().to_string();
    assert!(created["invites"][0].is_null());
    assert_eq!(created["game"]["seats"][1]["invited"], true);
    assert_eq!(app.play(&id, &white, "e2e4").await.0, StatusCode::OK);
    let (s, e) = app.play(&id, &white, "e7e5").await;
    assert_eq!((s, code(&e)), (StatusCode::FORBIDDEN, "not_your_turn"));

    let join = format!("/api/games/{id}/join");
    let (s, e) = app.post(&join, json!({"invite": "0".repeat(32)})).await;
    assert_eq!((s, code(&e)), (StatusCode::FORBIDDEN, "bad_invite"));
    let (s, joined) = app.post(&join, json!({"invite": invite})).await;
    assert_eq!(s, StatusCode::OK, "{joined}");
    assert_eq!(joined["seat"], 1);
    let black = joined["token"].as_str().unwrap().to_string();
    let (s, e) = app.post(&join, json!({"invite": invite})).await;
    assert_eq!(
        (s, code(&e)),
        (StatusCode::FORBIDDEN, "bad_invite"),
        "used up"
    );
    assert_eq!(app.play(&id, &black, "e7e5").await.0, StatusCode::OK);

    // The seat taken survives a restart; the creator's seat must be human.
    drop(app);
    let app = TestApp::open(&dir.path().join("g.db"));
    let (_, g) = app
        .get_with_tokens(&format!("/api/games/{id}"), &[&black])
        .await;
    assert_eq!(g["your_seats"], json!([1]));
    assert_eq!(g["seats"][1]["invited"], false);
    let (s, e) = app
        .post(
            "/api/games",
            json!({"variant": "chess", "seat": 1, "seats": [{"kind": "human"}, {"kind": "ai"}]}),
        )
        .await;
    assert_eq!(
        (s, code(&e)),
        (StatusCode::UNPROCESSABLE_ENTITY, "bad_seats")
    );
}
