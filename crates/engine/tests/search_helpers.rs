//! The engine's helpers for an AI and front ends: move rays and mobility,
//! piece mobility in a position, the null move, end reasons in words.

use quadrille_engine::{embedded, EndReason, Position, RayKind};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn empty_board_mobility_of_the_chess_pieces() {
    let v = embedded::variant("chess").unwrap();
    let t = |l| v.piece_by_letter(l).unwrap();
    // The textbook averages over the 64 cells: Knight 336/64, Bishop 560/64,
    // Rook 14 everywhere, Queen the two together, King 420/64.
    assert!(close(v.mobility(t('N'), 0.0), 5.25));
    assert!(close(v.mobility(t('B'), 0.0), 8.75));
    assert!(close(v.mobility(t('R'), 0.0), 14.0));
    assert!(close(v.mobility(t('Q'), 0.0), 22.75));
    assert!(close(v.mobility(t('K'), 0.0), 420.0 / 64.0));
    // The Pawn's step and captures only move or only capture: half each.
    // White's step exists from 56 cells, its captures number 98.
    assert!(close(v.mobility(t('P'), 0.0), 0.5 * (56.0 + 98.0) / 64.0));
    // A crowded board shortens slides but not leaps.
    assert!(close(v.mobility(t('N'), 0.3), 5.25));
    let rook = v.mobility(t('R'), 0.3);
    assert!(rook > 5.25 && rook < 9.0, "{rook}");
    // A Knight in the corner reaches 2 cells, in the centre 8.
    let g = &v.geometry;
    let cell = |n: &str| g.parse_cell(n).unwrap();
    assert!(close(v.cell_mobility(t('N'), 0, cell("a1"), 0.0), 2.0));
    assert!(close(v.cell_mobility(t('N'), 0, cell("e4"), 0.0), 8.0));
}

#[test]
fn hoppers_need_a_screen() {
    let v = embedded::variant("caissa-britannia").unwrap();
    let lion = v.piece_by_letter('L').unwrap();
    let queen = v.piece_by_letter('Q').unwrap();
    // mQcpQ: on an empty board only its quiet Queen moves, at half weight.
    assert!(close(v.mobility(lion, 0.0), v.mobility(queen, 0.0) / 2.0));
    // With pieces about, its hopping captures count too.
    assert!(v.mobility(lion, 0.3) > v.mobility(queen, 0.3) / 2.0);
    let rays: Vec<_> = v
        .rays(lion, 0, v.geometry.parse_cell("e5").unwrap())
        .collect();
    assert!(rays
        .iter()
        .any(|r| r.kind == RayKind::Hop && r.capture && !r.quiet));
    assert!(rays
        .iter()
        .any(|r| r.kind == RayKind::Slide && r.quiet && !r.capture));
}

#[test]
fn piece_mobility_in_a_position() {
    let v = embedded::variant("chess").unwrap();
    let mut p = v.start();
    let g = v.geometry.clone();
    let cell = |n: &str| g.parse_cell(n).unwrap();
    assert_eq!(p.piece_mobility(cell("b1"), 0), 2);
    assert_eq!(p.piece_mobility(cell("a1"), 0), 0);
    assert_eq!(p.piece_mobility(cell("e4"), 0), 0, "an empty cell");
    p.play("e2e4").unwrap();
    p.play("d7d5").unwrap();
    // Bf1: e2 d3 c4 b5 a6; Pe4: e5 and the capture on d5; Qd1: e2 f3 g4 h5.
    assert_eq!(p.piece_mobility(cell("f1"), 0), 5);
    assert_eq!(p.piece_mobility(cell("e4"), 0), 2);
    assert_eq!(p.piece_mobility(cell("d1"), 0), 4);
    // Black's Queen: d7 d6 down the file.
    assert_eq!(p.piece_mobility(cell("d8"), 1), 2);
}

#[test]
fn piece_activity_lists_attacked_cells() {
    let v = embedded::variant("chess").unwrap();
    let mut p = v.start();
    let g = v.geometry.clone();
    let cell = |n: &str| g.parse_cell(n).unwrap();
    let names = |a: quadrille_engine::Activity| {
        let mut n: Vec<String> = a.attacks.iter().map(|c| g.name(c).to_string()).collect();
        n.sort();
        n
    };
    p.play("e2e4").unwrap();
    p.play("d7d5").unwrap();
    // A Pawn attacks its two capture cells, not the cell it moves to.
    let pawn = p.piece_activity(cell("e4"), 0);
    assert_eq!(pawn.moves, 2);
    assert_eq!(names(pawn), ["d5", "f5"]);
    // The Knight on b1 defends d2 (its own Pawn) and attacks a3, c3.
    assert_eq!(names(p.piece_activity(cell("b1"), 0)), ["a3", "c3", "d2"]);
    // The Bishop's rays stop at the first piece: e2 d3 c4 b5 a6, and g2.
    assert_eq!(
        names(p.piece_activity(cell("f1"), 0)),
        ["a6", "b5", "c4", "d3", "e2", "g2"]
    );
    assert_eq!(p.piece_activity(cell("e5"), 0), Default::default());
}

#[test]
fn null_move_passes_the_turn_and_unmakes() {
    let v = embedded::variant("chess").unwrap();
    let fen = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3";
    let mut p = Position::from_string(v.clone(), fen).unwrap();
    assert_eq!(
        p.en_passant().map(|c| v.geometry.name(c)),
        Some("e3".into())
    );
    let key = p.key();
    p.make_null();
    assert_eq!(p.to_move(), 0);
    assert_eq!(p.en_passant(), None);
    let passed = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 4";
    assert_eq!(p.to_string(), passed);
    assert_eq!(
        p.key(),
        Position::from_string(v.clone(), passed).unwrap().key()
    );
    p.unmake();
    assert_eq!(p.to_string(), fen);
    assert_eq!(p.key(), key);
}

#[test]
fn null_move_skips_players_who_are_out() {
    let v = embedded::variant("ariana").unwrap();
    let start = v.start().to_string();
    let board = start.split(' ').next().unwrap();
    // Orange (o) is out: Red's pass goes to Green.
    let fen = format!("{board} r - - 0 1 out=o");
    let mut p = Position::from_string(v.clone(), &fen).unwrap();
    p.make_null();
    assert_eq!(v.players[p.to_move()].tag, 'g');
    p.unmake();
    assert_eq!(
        p.to_string(),
        Position::from_string(v, &fen).unwrap().to_string()
    );
}

#[test]
fn end_reasons_read_as_words() {
    assert_eq!(EndReason::Checkmate.to_string(), "checkmate");
    assert_eq!(EndReason::NoProgress.to_string(), "no progress");
    assert_eq!(EndReason::BareRoyals.to_string(), "bare royals");
}
