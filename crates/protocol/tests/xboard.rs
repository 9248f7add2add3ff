//! XBoard sessions scripted through the loop's input, malformed commands
//! included: each gets an error line and the session goes on.

mod common;

use quadrille_engine::{embedded, Position};
use quadrille_protocol::xboard;
use quadrille_protocol::xboard_board::XboardVariant;
use std::time::{Duration, Instant};

fn session(input: &str) -> Vec<String> {
    common::session(|i, o, c| xboard::run(i, o, c), input)
}

fn engine_moves(lines: &[String]) -> Vec<String> {
    common::after(lines, "move ")
}

/// Is the XBoard move legal after the (XBoard) moves from the start?
fn legal(variant: &str, moves: &[&str], m: &str) -> bool {
    let v = embedded::variant(variant).unwrap();
    let x = XboardVariant::new(&v).unwrap();
    let mut p: Position = v.start();
    for mv in moves {
        p.play(&x.move_in(mv)).unwrap();
    }
    p.parse_move(&x.move_in(m)).is_ok()
}

#[test]
fn features_announce_the_variants() {
    let lines = session("xboard\nprotover 2\nquit\n");
    assert_eq!(lines[0], "feature done=0");
    assert!(
        lines[1].contains("variants=\"normal,magna-carta,caissa-britannia\""),
        "{}",
        lines[1]
    );
    assert!(
        lines[1].contains("usermove=1")
            && lines[1].contains("setboard=1")
            && lines[1].contains("ping=1")
    );
    assert_eq!(lines[2], "feature done=1");
}

#[test]
fn the_engine_answers_a_move_before_pong() {
    let lines = session("xboard\nprotover 2\nnew\nsd 3\npost\nusermove e2e4\nping 1\n");
    let moves = engine_moves(&lines);
    assert_eq!(moves.len(), 1, "{lines:?}");
    assert!(legal("chess", &["e2e4"], &moves[0]), "{moves:?}");
    let mv = lines.iter().position(|l| l.starts_with("move ")).unwrap();
    let pong = lines.iter().position(|l| l == "pong 1").unwrap();
    assert!(mv < pong);
    // Thinking output: depth, score, time, nodes, line.
    let thinking: Vec<&String> = lines[..mv]
        .iter()
        .filter(|l| l.starts_with(char::is_numeric))
        .collect();
    assert_eq!(thinking.len(), 3, "{lines:?}");
    assert!(thinking[2].split_whitespace().count() >= 5);
}

#[test]
fn non_standard_variants_are_described_and_played() {
    let lines = session("new\nvariant caissa-britannia\nsd 2\nusermove e2e4\nping 7\n");
    let setup = lines.iter().find(|l| l.starts_with("setup ")).unwrap();
    assert!(
        setup.contains(" 10x10+0_fairy drubqkburd/1l6l1/pppppppppp/"),
        "{setup}"
    );
    assert!(lines.contains(&"piece D& A0D0".to_string()), "{lines:?}");
    let moves = engine_moves(&lines);
    assert_eq!(moves.len(), 1, "{lines:?}");
    // XBoard counts this board's ranks from 0: e2e4 is our e3e5.
    assert!(legal("caissa-britannia", &["e2e4"], &moves[0]), "{moves:?}");

    let lines =
        session("new\nvariant magnacarta\nforce\nusermove e2e4\nusermove e7e5\nsd 2\ngo\nping 2\n");
    assert!(
        lines.iter().any(|l| l.starts_with("setup (PNBRQ..CM.K")),
        "{lines:?}"
    );
    let moves = engine_moves(&lines);
    assert!(
        legal("magna-carta", &["e2e4", "e7e5"], &moves[0]),
        "{moves:?}"
    );
}

#[test]
fn malformed_commands_get_errors_and_change_nothing() {
    let script = "\
xboard
protover 2
new
force
usermove e2e5
variant avon
setboard this is not a position
sd x
level 40 5
undo
frobnicate
usermove e2e4
usermove e7e5
remove
usermove d2d4
usermove d7d5
sd 2
go
ping 9
";
    let lines = session(script);
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| {
            l.starts_with("Error")
                || l.starts_with("Illegal move")
                || l.starts_with("tellusererror")
        })
        .collect();
    assert_eq!(errors.len(), 7, "{errors:#?}");
    assert!(errors[0].starts_with("Illegal move") && errors[0].ends_with(": e2e5"));
    assert_eq!(errors[1], "Error (unknown variant): avon");
    assert!(errors[2].starts_with("tellusererror Illegal position"));
    assert_eq!(errors[3], "Error (bad number): sd x");
    assert!(errors[4].starts_with("Error (bad level)"));
    assert!(errors[5].starts_with("Error (command not legal now)"));
    assert_eq!(errors[6], "Error (unknown command): frobnicate");
    // After remove, 1. d4 d5 stands and the engine plays White.
    let moves = engine_moves(&lines);
    assert_eq!(moves.len(), 1, "{lines:?}");
    assert!(legal("chess", &["d2d4", "d7d5"], &moves[0]), "{moves:?}");
    assert_eq!(lines.last().unwrap(), "pong 9");
}

#[test]
fn the_engine_mates_and_says_so() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1";
    let lines = session(&format!("new\nforce\nsetboard {fen}\nsd 3\ngo\nping 1\n"));
    assert_eq!(engine_moves(&lines), ["f3f7"]);
    assert!(
        lines.contains(&"1-0 {White mates}".to_string()),
        "{lines:?}"
    );
}

#[test]
fn move_now_stops_a_long_think() {
    let t = Instant::now();
    let lines = session("new\nst 60\nusermove e2e4\n?\nping 3\n");
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    let moves = engine_moves(&lines);
    assert_eq!(moves.len(), 1, "{lines:?}");
    assert!(legal("chess", &["e2e4"], &moves[0]));
    assert_eq!(lines.last().unwrap(), "pong 3");
}

#[test]
fn force_calls_off_a_think_without_a_move() {
    let t = Instant::now();
    let lines = session("new\nst 60\nusermove e2e4\nforce\nusermove e7e5\nping 4\n");
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    assert!(engine_moves(&lines).is_empty(), "{lines:?}");
    // The user's moves stand: e7e5 was Black's, so it was legal.
    assert!(!lines.iter().any(|l| l.starts_with("Illegal")), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "pong 4");
}

/// The piece-to-char table of the session's `setup` line, split into
/// White's and Black's halves (each ends with XBoard's King).
fn setup_table(lines: &[String]) -> (String, String) {
    let setup = lines.iter().find(|l| l.starts_with("setup (")).unwrap();
    let table = &setup["setup (".len()..setup.find(')').unwrap()];
    let (w, b) = table.split_at(table.len() / 2);
    (w.to_string(), b.to_string())
}

#[test]
fn only_a_king_stepper_is_xboards_king_and_no_piece_is_a_lance() {
    // Found with Debian's xboard 4.9.1: XBoard plays a King's sideways
    // move of two or more cells as castling and takes the first piece
    // beyond along (Caïssa Britannia's royal Queen g2e2 pulled the pawn
    // from a2 to f2), refuses promotions to the King (Magna Carta's
    // d7d8m, the Marshal being XBoard's King, forfeited the game), and
    // promotes a Lance on the last rank (the Lion, in the Lance's slot,
    // capturing on d9 became "=." and vanished from XBoard's board).
    let lines = session("new\nvariant caissa-britannia\nping 1\n");
    let (w, b) = setup_table(&lines);
    assert_eq!((w.len(), b.len()), (22, 22), "{lines:?}");
    assert!(w.ends_with('.') && b.ends_with('.'), "{w} {b}");
    // XBoard's Falcon, Lance and Cobra (slots 17-19) stay unused.
    assert_eq!(&w[17..20], "...", "{w}");
    assert_eq!(&b[17..20], "...", "{b}");
    assert!(!lines.iter().any(|l| l.starts_with("piece Q")), "{lines:?}");

    let lines = session("new\nvariant magna-carta\nping 1\n");
    let (w, b) = setup_table(&lines);
    // White's Marshal slides; Black's King castles and steps.
    assert!(w.ends_with('.'), "{w}");
    assert!(b.ends_with('k'), "{b}");
    assert_eq!(&w[17..20], "...", "{w}");
}

/// Runs a session on its own thread; `None` if it did not end in time.
fn session_within(input: &'static str, limit: Duration) -> Option<Vec<String>> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(session(input));
    });
    rx.recv_timeout(limit).ok()
}

/// Commands that arrive while the engine thinks are read and acted on at
/// once: `sd` no longer waits for the search to end, so the `?` after it
/// is seen and the session ends (it used to hang on `st 99999`).
#[test]
fn input_is_read_while_the_engine_thinks() {
    let lines = session_within(
        "new\nst 99999\ngo\nsd 2\npost\n?\nping 7\nquit\n",
        Duration::from_secs(30),
    )
    .expect("the session never ended");
    assert_eq!(engine_moves(&lines).len(), 1, "{lines:?}");
    assert_eq!(lines.last().unwrap(), "pong 7");
}

/// `go` in a position the rules have already decided prints the result.
#[test]
fn go_in_a_decided_position_prints_the_result() {
    for fen in [
        "4k3/8/8/8/8/8/4P3/4K3 w - - 100 80",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    ] {
        let lines = session(&format!("new\nforce\nsetboard {fen}\ngo\nping 1\n"));
        assert!(engine_moves(&lines).is_empty(), "{lines:?}");
        assert!(
            lines.iter().any(|l| l.starts_with("1/2-1/2 {")),
            "{fen}: {lines:?}"
        );
    }
}
