//! Chaos: the real server process killed with SIGKILL at random moments
//! while people's moves and AI seats play, then started again on the same
//! database. Every move a client was told about (a 200 answer, or a state
//! it read) must still be there, and every game must load (which replays
//! it legally through the engine). Bounded: a few rounds of about a second.

use serde_json::Value;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_quadrille");

/// Kills per run: 5 in CI; `QUADRILLE_CHAOS_ROUNDS=40` for a longer run.
fn rounds() -> usize {
    std::env::var("QUADRILLE_CHAOS_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5)
}

/// Starts `quadrille serve` on a free port; the child and the port.
fn start(db: &Path) -> (Child, u16) {
    let mut child = Command::new(BIN)
        .args(["serve", "--port", "0", "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .split("127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {line:?}"));
    (child, port)
}

/// One HTTP/1.1 request; `None` if the connection failed (the server died).
fn request(
    port: u16,
    method: &str,
    path: &str,
    tokens: &str,
    body: Option<&Value>,
) -> Option<(u16, Value)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Seat-Tokens: {tokens}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).ok()?;
    let mut resp = String::new();
    s.read_to_string(&mut resp).ok()?;
    let status = resp.get(9..12)?.parse().ok()?;
    let json = resp
        .split("\r\n\r\n")
        .nth(1)
        .and_then(|b| serde_json::from_str(b).ok())?;
    Some((status, json))
}

fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m["text"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn kill_9_under_load_loses_no_acknowledged_move() {
    let dir = std::env::temp_dir().join(format!("quadrille-chaos-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("chaos.db");
    let (mut server, mut port) = start(&db);
    let ai = serde_json::json!({"kind": "ai", "level": 2, "time_ms": 100});
    let human = serde_json::json!({"kind": "human"});
    // (id, the tokens header) per game: people against the AI and people
    // against people, in chess and Magna Carta.
    let mut games = Vec::new();
    for (variant, seats) in [
        ("chess", serde_json::json!([human, ai])),
        ("magna-carta", serde_json::json!([ai, human])),
        ("chess", serde_json::json!([human, human])),
        ("magna-carta", serde_json::json!([human, human])),
    ] {
        let body = serde_json::json!({"variant": variant, "seats": seats});
        let (s, g) = request(port, "POST", "/api/games", "", Some(&body)).unwrap();
        assert_eq!(s, 201, "{g}");
        let tokens: Vec<&str> = g["tokens"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        games.push((g["id"].as_str().unwrap().to_string(), tokens.join(",")));
    }
    // The longest list of moves any answer showed, per game.
    let mut seen: HashMap<String, Vec<String>> = HashMap::new();
    let mut rng = fastrand::Rng::with_seed(7);
    let mut acknowledged = 0;
    let rounds = rounds();
    for round in 0..rounds {
        let until = Instant::now() + Duration::from_millis(rng.u64(300..1500));
        'play: while Instant::now() < until {
            for (id, tokens) in &games {
                let Some((_, g)) = request(port, "GET", &format!("/api/games/{id}"), tokens, None)
                else {
                    break 'play;
                };
                let known = seen.entry(id.clone()).or_default();
                if moves(&g).len() > known.len() {
                    *known = moves(&g);
                }
                let legal = g["legal_moves"].as_array().cloned().unwrap_or_default();
                if g["status"] != "playing" || legal.is_empty() {
                    continue;
                }
                let text = legal[rng.usize(..legal.len())]["text"]
                    .as_str()
                    .unwrap()
                    .to_string();
                let token = tokens
                    .split(',')
                    .nth(g["to_move"].as_u64().unwrap() as usize)
                    .unwrap_or("");
                let body = serde_json::json!({"move": text, "token": token, "ply": g["ply"]});
                match request(
                    port,
                    "POST",
                    &format!("/api/games/{id}/moves"),
                    "",
                    Some(&body),
                ) {
                    Some((200, after)) => {
                        acknowledged += 1;
                        let known = seen.entry(id.clone()).or_default();
                        if moves(&after).len() > known.len() {
                            *known = moves(&after);
                        }
                    }
                    Some(_) => {}
                    None => break 'play,
                }
            }
        }
        // SIGKILL: no chance to flush or finish anything.
        server.kill().unwrap();
        server.wait().unwrap();
        (server, port) = start(&db);
        let (_, health) = request(port, "GET", "/api/health", "", None).unwrap();
        assert_eq!(health["skipped"], serde_json::json!([]), "round {round}");
        for (id, tokens) in &games {
            let (s, g) = request(port, "GET", &format!("/api/games/{id}"), tokens, None).unwrap();
            assert_eq!(s, 200, "round {round}: game {id} did not load: {g}");
            let stored = moves(&g);
            let known = &seen[id];
            assert!(
                stored.len() >= known.len() && stored[..known.len()] == known[..],
                "round {round}: game {id} lost moves: told {known:?}, stored {stored:?}"
            );
        }
    }
    server.kill().unwrap();
    server.wait().unwrap();
    let total: usize = seen.values().map(Vec::len).sum();
    println!(
        "chaos: {rounds} kills, {acknowledged} moves acknowledged, {total} moves seen, none lost"
    );
    assert!(
        acknowledged > 10,
        "too few moves to mean anything: {acknowledged}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
