//! Bad input never crashes the server or changes a game: random text for
//! the record parser, random bodies and move texts for the API.

mod common;

use axum::http::StatusCode;
use common::TestApp;
use proptest::prelude::*;
use quadrille_server::{pgn, record, variants::Variants};
use std::sync::OnceLock;

fn variants() -> &'static Variants {
    static V: OnceLock<Variants> = OnceLock::new();
    V.get_or_init(|| Variants::embedded().unwrap())
}
use serde_json::json;

proptest! {
    #[test]
    fn any_text_reads_as_a_record_or_a_clear_error(text in "\\PC{0,400}") {
        if let Err(e) = record::parse(&text) {
            prop_assert!(e.starts_with("record"), "{e}");
        }
    }

    #[test]
    fn record_like_lines_never_panic(
        lines in proptest::collection::vec(
            prop_oneof![
                "variant: [a-z-]{0,12}",
                "seat [a-z]{0,2}: (human|ai|ai level [0-9]{1,3}|ai time [0-9]{1,6}|robot)",
                "start: [ -~]{0,40}",
                "moves:( [a-z][0-9]{1,2}[a-z][0-9]{1,2}[qrbn]?){0,5}",
                "variant-file:",
                "\\|[ -~]{0,30}",
                "[ -~]{0,30}",
            ],
            0..12,
        )
    ) {
        let _ = record::parse(&lines.join("\n"));
    }

    #[test]
    fn any_text_reads_as_pgn_or_a_clear_error(text in "\\PC{0,300}") {
        if let Err(e) = pgn::parse(&text, variants()) {
            prop_assert!(e.starts_with("PGN"), "{e}");
        }
    }

    #[test]
    fn pgn_like_text_never_panics(
        tags in proptest::collection::vec("\\[(Variant|FEN|White) \"[ -~]{0,20}\"\\]", 0..3),
        moves in proptest::collection::vec(
            prop_oneof![
                "[0-9]{1,3}\\.{1,3}",
                "[KQRBNP]?[a-h]?[1-8]?x?[a-h][1-8](=[QRBN])?[+#]?",
                "O-O(-O)?",
                "\\{[ -z]{0,10}\\}",
                "[()]",
                "\\$[0-9]{1,2}",
                "(1-0|0-1|1/2-1/2|\\*)",
            ],
            0..30,
        )
    ) {
        let text = format!("{}\n\n{}", tags.join("\n"), moves.join(" "));
        if let Err(e) = pgn::parse(&text, variants()) {
            prop_assert!(e.starts_with("PGN"), "{e}");
        }
    }
}

#[tokio::test]
async fn random_requests_are_refused_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::open(&dir.path().join("g.db"));
    let (id, tokens, start) = app.create(json!({"variant": "avon"})).await;
    let token = tokens[0].clone().unwrap();
    let uri = format!("/api/games/{id}/moves");
    let mut rng = fastrand::Rng::with_seed(7);
    let alphabet: Vec<char> = "abcdefghijklmnopqrstuvwxyz0123456789{}[]\":,- \\\u{e9}\u{265a}\0"
        .chars()
        .collect();
    let mut text = |n: usize| -> String {
        (0..n)
            .map(|_| alphabet[rng.usize(..alphabet.len())])
            .collect()
    };
    for i in 0..400 {
        let body = match i % 4 {
            // Random bytes as a body.
            0 => text(i % 60),
            // A move object with a random move text.
            1 => json!({"move": text(i % 9), "token": token}).to_string(),
            // Along a rank: no sideways move is legal in Avon's start position.
            2 => json!({"move": format!("{}{}{}{}", text(1), i % 12, text(1), i % 12), "token": token}).to_string(),
            // Right shape, wrong types.
            _ => json!({"move": i, "token": [token.clone()], "ply": "x"}).to_string(),
        };
        let (s, e) = app.post_raw(&uri, "application/json", body.clone()).await;
        assert!(s.is_client_error(), "{body:?} -> {s} {e}");
        assert_ne!(s, StatusCode::OK);
    }
    let (_, g) = app.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["position"], start["position"]);
    assert_eq!(g["ply"], 0);
}
