//! UCI sessions scripted through the loop's input, malformed commands
//! included: each gets an error line and the session goes on.

mod common;

use quadrille_engine::{embedded, Position};
use quadrille_protocol::uci;

/// Runs a session and returns its output lines.
fn session(input: &str) -> Vec<String> {
    common::session(|i, o, c| uci::run(i, o, c), input)
}

fn bestmoves(lines: &[String]) -> Vec<String> {
    common::after(lines, "bestmove ")
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .collect()
}

/// Is `m` legal after `moves` from the variant's start or `fen`?
fn legal(variant: &str, fen: Option<&str>, moves: &[&str], m: &str) -> bool {
    let v = embedded::variant(variant).unwrap();
    let mut p = match fen {
        Some(f) => Position::from_string(v, f).unwrap(),
        None => v.start(),
    };
    for x in moves {
        p.play(x).unwrap();
    }
    p.parse_move(m).is_ok()
}

#[test]
fn handshake_lists_the_two_player_variants() {
    let lines = session("uci\nisready\nquit\n");
    assert!(lines[0].starts_with("id name Quadrille"), "{lines:?}");
    assert!(lines.contains(
        &"option name UCI_Variant type combo default chess var chess var magna-carta var caissa-britannia"
            .to_string()
    ));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Hash type spin")));
    let ok = lines.iter().position(|l| l == "uciok").unwrap();
    assert_eq!(lines[ok + 1], "readyok");
    assert!(errors(&lines).is_empty());
}

#[test]
fn a_chess_search_reports_and_moves() {
    let lines = session("uci\nposition startpos moves e2e4 e7e5\ngo depth 4\n");
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1, "{lines:?}");
    assert!(
        legal("chess", None, &["e2e4", "e7e5"], &best[0]),
        "{best:?}"
    );
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 4, "{lines:?}");
    for (i, l) in infos.iter().enumerate() {
        assert!(l.starts_with(&format!("info depth {} ", i + 1)), "{l}");
        assert!(
            l.contains(" score cp ") && l.contains(" nodes ") && l.contains(" pv "),
            "{l}"
        );
    }
    // The last line's first move is the best move.
    let pv_first = infos[3]
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert_eq!(pv_first, best[0]);
}

#[test]
fn mate_is_reported_as_mate() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1";
    let lines = session(&format!("position fen {fen}\ngo depth 3\n"));
    assert_eq!(bestmoves(&lines), ["f3f7"]);
    assert!(
        lines.iter().any(|l| l.contains("score mate 1 ")),
        "{lines:?}"
    );
}

/// The number in `info string static eval +0.25 (side to move)`.
fn static_eval(lines: &[String]) -> Vec<f64> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string static eval "))
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn eval_prints_the_static_score_from_the_side_to_move() {
    // Black to move a Queen down: the same position seen from both sides.
    let lines = session(
        "position fen rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1\neval\n\
         position fen rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\neval\n",
    );
    let evals = static_eval(&lines);
    assert_eq!(evals.len(), 2, "{lines:?}");
    assert!(evals[0] < -5.0 && evals[1] > 5.0, "{evals:?}");
    // While a search runs it is refused, and the search goes on.
    let lines = session("go infinite\neval\nstop\n");
    assert!(
        errors(&lines).iter().any(|e| e.contains("eval")),
        "{lines:?}"
    );
    assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
}

#[test]
fn a_weights_file_changes_the_evaluation_and_a_bad_one_is_refused() {
    let dir = std::env::temp_dir();
    let id = std::process::id();
    // White a pawn up, its Pawn worth five times more by the file.
    let heavy = dir.join(format!("quadrille-uci-heavy-{id}.toml"));
    std::fs::write(&heavy, "[values]\nP = 500\n").unwrap();
    // A letter chess does not have.
    let alien = dir.join(format!("quadrille-uci-alien-{id}.toml"));
    std::fs::write(&alien, "[values]\nZ = 500\n").unwrap();
    let fen = "rnbqkbnr/ppppppp1/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let lines = session(&format!(
        "position fen {fen}\neval\n\
         setoption name Weights value {}\neval\n\
         setoption name Weights value {}\n\
         setoption name Weights value /no/such/weights.toml\neval\n\
         setoption name Weights value <empty>\neval\n",
        heavy.display(),
        alien.display()
    ));
    std::fs::remove_file(&heavy).unwrap();
    std::fs::remove_file(&alien).unwrap();
    let evals = static_eval(&lines);
    assert_eq!(evals.len(), 4, "{lines:?}");
    assert!(evals[1] > evals[0] + 2.0, "{evals:?}");
    // The refused files leave the last good weights in place.
    assert_eq!(evals[2], evals[1], "{evals:?}");
    assert_eq!(evals[3], evals[0], "{evals:?}");
    let errs = errors(&lines);
    assert_eq!(errs.len(), 2, "{errs:#?}");
    assert!(errs[0].contains("do not fit chess"), "{}", errs[0]);
    assert!(errs[1].contains("/no/such/weights.toml"), "{}", errs[1]);
}

#[test]
fn malformed_commands_get_errors_and_change_nothing() {
    let script = "\
uci
position startpos moves e2e4
position fen this is not a position
position startpos moves e2e4 e7e5 e2e5
position sideways
setoption name Hash value -3
setoption name Threads value 0
setoption name UCI_Variant value avon
setoption name Nonsense value 1
setoption Hash 5
go depth x
go sideways 3
frobnicate
isready
go depth 2
";
    let lines = session(script);
    let errs = errors(&lines);
    assert_eq!(errs.len(), 11, "{errs:#?}");
    assert!(errs[0].contains("position string"), "{}", errs[0]);
    assert!(errs[1].contains("e2e5"), "{}", errs[1]);
    assert!(errs[4].contains("Threads"), "{}", errs[4]);
    assert!(
        errs[5].contains("UCI_Variant") && errs[5].contains("avon"),
        "{}",
        errs[5]
    );
    assert!(errs[10].contains("frobnicate"), "{}", errs[10]);
    assert!(lines.contains(&"readyok".to_string()));
    // The last good position stands: after 1. e4, Black moves, in chess.
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1, "{lines:?}");
    assert!(legal("chess", None, &["e2e4"], &best[0]), "{best:?}");
}

#[test]
fn several_threads_search() {
    let lines =
        session("uci\nsetoption name Threads value 3\nposition startpos moves e2e4\ngo depth 7\n");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Threads type spin")),
        "{lines:?}"
    );
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 7 ")),
        "{lines:?}"
    );
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1, "{lines:?}");
    assert!(legal("chess", None, &["e2e4"], &best[0]), "{best:?}");
}

#[test]
fn stop_ends_an_infinite_search_with_a_move() {
    let lines = session("position startpos\ngo infinite\nisready\nstop\nquit\n");
    assert!(lines.contains(&"readyok".to_string()));
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1, "{lines:?}");
    assert!(legal("chess", None, &[], &best[0]));
}

#[test]
fn clock_and_node_limits() {
    let lines = session(
        "position startpos\ngo wtime 2000 btime 2000 winc 0 binc 0\n\
         position startpos moves d2d4\ngo nodes 3000\n",
    );
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 2, "{lines:?}");
    assert!(legal("chess", None, &[], &best[0]));
    assert!(legal("chess", None, &["d2d4"], &best[1]));
}

#[test]
fn magna_carta_as_fairy_stockfish_names_and_writes_it() {
    // Fairy-Stockfish's name for the variant, and FEN and moves as it
    // writes them: Black castles with the king's move.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMCBNR w kq - 0 1";
    let moves = ["e2e4", "g8f6", "g1f3", "e7e6", "f1c4", "f8e7", "b1c3"];
    let castle = [
        "e2e4", "g8f6", "g1f3", "e7e6", "f1c4", "f8e7", "b1c3", "e8g8",
    ];
    let lines = session(&format!(
        "uci\nsetoption name UCI_Variant value magnacarta\nposition fen {fen} moves {}\n\
         go depth 3\n",
        moves.join(" ")
    ));
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1);
    assert!(legal("magna-carta", Some(fen), &moves, &best[0]));
    assert!(legal("magna-carta", Some(fen), &castle[..7], castle[7]));

    // Every position Fairy-Stockfish produced for the perft cross-check
    // (tools/fsf/positions) is accepted as it wrote it.
    let data = include_str!("../../../tools/fsf/positions/magna-carta.txt");
    let fens: Vec<&str> = data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split(';').next())
        .collect();
    assert!(fens.len() > 50);
    let mut script = String::from("setoption name UCI_Variant value magnacarta\n");
    for f in &fens {
        script.push_str(&format!("position fen {f}\ngo depth 1\n"));
    }
    let lines = session(&script);
    assert!(errors(&lines).is_empty(), "{:?}", errors(&lines));
    let best = bestmoves(&lines);
    assert_eq!(best.len(), fens.len());
    for (f, m) in fens.iter().zip(&best) {
        assert!(
            m == "0000" || legal("magna-carta", Some(f), &[], m),
            "{f}: {m}"
        );
    }
}

#[test]
fn caissa_britannia_on_ten_ranks() {
    let lines = session(
        "setoption name UCI_Variant value caissa\nposition startpos moves e3e5 e8e6\ngo depth 2\n",
    );
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let best = bestmoves(&lines);
    assert!(legal("caissa-britannia", None, &["e3e5", "e8e6"], &best[0]));
}
