//! Hand-built positions for every special rule of FIDE chess: castling
//! (through, into and out of check, rights lost after king or rook moves
//! and after a rook is captured), the double step, en passant (only
//! immediately, the pinned case, taking a checking pawn), promotion to each
//! choice, stalemate, threefold repetition, the 50-move counter, checkmate
//! and bare kings. Every expected move list is written out by hand.

mod common;

use common::{assert_all_moves, assert_moves, play_all, pos};
use quadrille_engine::{EndReason, Outcome};

const V: &str = "chess";

fn white_wins(reason: EndReason) -> Option<Outcome> {
    Some(Outcome {
        ranking: vec![vec![0], vec![1]],
        reason,
    })
}

fn draw(reason: EndReason) -> Option<Outcome> {
    Some(Outcome {
        ranking: vec![vec![0, 1]],
        reason,
    })
}

// ------------------------------------------------------------------ castling

#[test]
fn castling_both_sides_when_everything_allows_it() {
    let mut p = pos(V, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    // Five ordinary king steps, plus e1g1 (f1, g1 empty and not attacked)
    // and e1c1 (b1, c1, d1 empty; d1, c1 not attacked).
    assert_moves(
        &mut p,
        "e1",
        &["e1c1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"],
    );
    // The rook goes to the other side of the king.
    p.play("e1c1").unwrap();
    assert_eq!(p.to_string(), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
    p.play("e8g8").unwrap();
    assert_eq!(p.to_string(), "r4rk1/8/8/8/8/8/8/2KR3R w - - 2 2");
}

#[test]
fn no_castling_out_of_check() {
    // The rook on e7 checks the king: castling is not a way out; e2 stays
    // on the checking file. The rooks cannot block the e-file.
    let mut p = pos(V, "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_all_moves(&mut p, &["e1d1", "e1d2", "e1f1", "e1f2"]);
}

#[test]
fn no_castling_through_an_attacked_cell() {
    // The rook on f8 attacks f1, which the king would cross to reach g1:
    // no e1g1 (and no e1f1, e1f2). Queen side is untouched: e1c1 stays.
    let mut p = pos(V, "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_moves(&mut p, "e1", &["e1c1", "e1d1", "e1d2", "e1e2"]);
}

#[test]
fn no_castling_into_an_attacked_cell() {
    // The rook on g8 attacks g1, the king's arrival cell: no e1g1, while
    // f1 and f2 are safe steps.
    let mut p = pos(V, "4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_moves(
        &mut p,
        "e1",
        &["e1c1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"],
    );
}

#[test]
fn queen_side_castling_through_d1_and_with_b1_attacked() {
    // A rook on d8 attacks d1, which the king crosses: no e1c1.
    let mut p = pos(V, "3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_moves(&mut p, "e1", &["e1e2", "e1f1", "e1f2", "e1g1"]);
    // A rook on b8 attacks b1, which only the rook crosses: e1c1 is legal.
    let mut p = pos(V, "1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_moves(
        &mut p,
        "e1",
        &["e1c1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"],
    );
}

#[test]
fn no_castling_with_a_piece_between_king_and_rook() {
    // b1 must be empty for e1c1 although the king does not cross it.
    let mut p = pos(V, "4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1");
    assert_moves(
        &mut p,
        "e1",
        &["e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"],
    );
}

#[test]
fn castling_rights_lost_after_the_king_moves_and_returns() {
    let mut p = pos(V, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    play_all(&mut p, &["e1e2", "e8e7", "e2e1", "e7e8"]);
    assert_eq!(p.to_string(), "4k3/8/8/8/8/8/8/R3K2R w - - 4 3");
    // Same placement as at the start, but neither e1g1 nor e1c1.
    assert_moves(&mut p, "e1", &["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]);
}

#[test]
fn castling_right_lost_after_the_rook_moves_and_returns() {
    let mut p = pos(V, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    play_all(&mut p, &["h1h2", "e8e7", "h2h1", "e7e8"]);
    // The h1 rook moved: no e1g1; the a1 rook did not: e1c1 stays.
    assert_moves(
        &mut p,
        "e1",
        &["e1c1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"],
    );
    let mut p = pos(V, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    play_all(&mut p, &["a1b1", "e8e7", "b1a1", "e7e8"]);
    // The a1 rook moved: only e1g1 remains.
    assert_moves(
        &mut p,
        "e1",
        &["e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"],
    );
}

#[test]
fn castling_right_lost_when_the_rook_is_captured() {
    // The bishop takes the h1 rook and the h3 rook retakes: a rook stands
    // on h1 again and the king never moved, but the right died with the
    // captured rook.
    let mut p = pos(V, "4k3/8/8/8/8/7R/6b1/4K2R b K - 0 1");
    play_all(&mut p, &["g2h1", "h3h1", "e8d8"]);
    assert_eq!(p.to_string(), "3k4/8/8/8/8/8/8/4K2R w - - 1 3");
    assert_moves(&mut p, "e1", &["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]);

    // A rook capturing a rook on its home cell ends both sides' rights on
    // that wing; here it also checks along the first rank, so White must
    // step off it (d1 stays on the rank, the a1 rook cannot interpose).
    let mut p = pos(V, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    p.play("h8h1").unwrap();
    assert_eq!(p.to_string(), "r3k3/8/8/8/8/8/8/R3K2r w Qq - 0 2");
    assert_all_moves(&mut p, &["e1d2", "e1e2", "e1f2"]);
}

// ------------------------------------------------------- double step, e.p.

#[test]
fn pawn_double_step_only_from_the_second_rank_and_not_over_a_piece() {
    // a2: free, both steps. b2: b4 is occupied, so only b3 (and the
    // capture of the knight on c3). c2: c3 occupied, no move at all (the
    // double step may not jump). d3: not on the second rank, single step.
    let mut p = pos(V, "4k3/8/8/8/1p6/2nP4/PPP5/4K3 w - - 0 1");
    assert_moves(&mut p, "a2", &["a2a3", "a2a4"]);
    assert_moves(&mut p, "b2", &["b2b3", "b2c3"]);
    assert_moves(&mut p, "c2", &[]);
    assert_moves(&mut p, "d3", &["d3d4"]);
    // Black's pawns double-step from the seventh rank, downward.
    let mut p = pos(V, "4k3/4p3/8/8/8/8/8/4K3 b - - 0 1");
    assert_moves(&mut p, "e7", &["e7e5", "e7e6"]);
}

#[test]
fn en_passant_capture() {
    let mut p = pos(V, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    // e5 may push or take the d5 pawn en passant on d6.
    assert_moves(&mut p, "e5", &["e5d6", "e5e6"]);
    p.play("e5d6").unwrap();
    // The captured pawn leaves d5, not d6.
    assert_eq!(p.to_string(), "4k3/8/3P4/8/8/8/8/4K3 b - - 0 1");
}

#[test]
fn en_passant_only_immediately() {
    let mut p = pos(V, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    p.play("d7d5").unwrap();
    assert_eq!(p.to_string(), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert_moves(&mut p, "e5", &["e5d6", "e5e6"]);
    // White lets the chance pass: a move later e.p. is gone.
    play_all(&mut p, &["e1e2", "e8e7"]);
    assert_moves(&mut p, "e5", &["e5e6"]);
}

#[test]
fn pinned_en_passant() {
    // exd6 e.p. would take both d5 and e5 off the fifth rank and expose
    // the king on a5 to the rook on h5: illegal. Only the push remains.
    let mut p = pos(V, "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 1");
    assert_moves(&mut p, "e5", &["e5e6"]);
}

#[test]
fn en_passant_takes_a_checking_pawn() {
    // The pawn that just double-stepped to d5 checks the king on e4. The
    // answers: take it en passant, take it with the king (d5 is not
    // protected), or step to any free neighbour (the pawn attacks only c4
    // and e4); e5e6 ignores the check and is illegal.
    let mut p = pos(V, "8/8/8/3pP3/4K3/8/8/7k w - d6 0 1");
    assert_all_moves(
        &mut p,
        &[
            "e4d3", "e4d4", "e4d5", "e4e3", "e4f3", "e4f4", "e4f5", "e5d6",
        ],
    );
}

// ---------------------------------------------------------------- promotion

#[test]
fn promotion_to_each_choice_by_push_and_capture() {
    // Queen, rook, bishop, knight on e8 and on d8 (capturing); never a
    // king or a pawn, and never a plain push.
    let mut p = pos(V, "3r4/4P3/8/8/8/8/8/k6K w - - 0 1");
    assert_moves(
        &mut p,
        "e7",
        &[
            "e7d8b", "e7d8n", "e7d8q", "e7d8r", "e7e8b", "e7e8n", "e7e8q", "e7e8r",
        ],
    );
    assert!(p.play("e7e8").is_err(), "promotion is compulsory");
    assert!(p.play("e7e8k").is_err(), "no promotion to king");
    p.play("e7e8n").unwrap();
    assert_eq!(p.to_string(), "3rN3/8/8/8/8/8/8/k6K b - - 0 1");

    let mut p = pos(V, "k7/8/8/8/8/8/p7/7K b - - 0 1");
    assert_moves(&mut p, "a2", &["a2a1b", "a2a1n", "a2a1q", "a2a1r"]);
}

// ------------------------------------------------------------ end of game

#[test]
fn stalemate_is_a_draw() {
    // Black's king on h8 is not attacked, and g8, g7, h7 all are.
    let mut p = pos(V, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_all_moves(&mut p, &[]);
    assert!(!p.in_check());
    assert_eq!(p.outcome(), draw(EndReason::Stalemate));
}

#[test]
fn checkmate_wins() {
    // Back-rank mate: the pawns f7 g7 h7 box the king in.
    let mut p = pos(V, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    assert_eq!(p.outcome(), None);
    p.play("a1a8").unwrap();
    assert!(p.in_check());
    assert_all_moves(&mut p, &[]);
    assert_eq!(p.outcome(), white_wins(EndReason::Checkmate));
}

#[test]
fn threefold_repetition_is_a_draw() {
    let mut p = pos(
        V,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    play_all(&mut p, &cycle);
    // The start position has now occurred twice: not yet a draw.
    assert_eq!(p.repetitions(), 1);
    assert_eq!(p.outcome(), None);
    play_all(&mut p, &cycle);
    // Third occurrence, same player to move: drawn.
    assert_eq!(p.repetitions(), 2);
    assert_eq!(p.outcome(), draw(EndReason::Repetition));
}

#[test]
fn fifty_move_rule() {
    // 99 plies without capture or pawn move: one more quiet move draws.
    let p = pos(V, "4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80");
    assert_eq!(p.outcome(), None);
    let mut q = p.clone();
    q.play("a1a2").unwrap();
    assert_eq!(q.halfmove_clock(), 100);
    assert_eq!(q.outcome(), draw(EndReason::NoProgress));
    // A pawn move resets the counter instead.
    let mut q = p.clone();
    q.play("e2e4").unwrap();
    assert_eq!(q.halfmove_clock(), 0);
    assert_eq!(q.outcome(), None);
    // So does a capture.
    let mut q = pos(V, "r3k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    q.play("a1a8").unwrap();
    assert_eq!(q.halfmove_clock(), 0);
    assert_eq!(q.outcome(), None);
    // Checkmate on the hundredth ply wins: mate takes precedence.
    let mut q = pos(V, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80");
    q.play("a1a8").unwrap();
    assert_eq!(q.halfmove_clock(), 100);
    assert_eq!(q.outcome(), white_wins(EndReason::Checkmate));
}

#[test]
fn bare_kings_draw() {
    let p = pos(V, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(p.outcome(), draw(EndReason::BareRoyals));
    // King and rook against king is not a draw.
    let p = pos(V, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert_eq!(p.outcome(), None);
}

/// Positions no game reaches are refused with the reason: the side not to
/// move in check (issue 15: White could take the King), a pawn standing
/// where it must have promoted.
#[test]
fn unreachable_positions_are_refused() {
    let v = quadrille_engine::embedded::variant("chess").unwrap();
    for (fen, needle) in [
        ("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "e8"),
        ("4k2P/8/8/8/8/8/8/4K3 b - - 0 1", "h8"),
        ("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "a1"),
    ] {
        let e = quadrille_engine::Position::from_string(v.clone(), fen).unwrap_err();
        assert_eq!(e.field, "board", "{fen}");
        assert!(e.message.contains(needle), "{fen}: {e}");
    }
    // The same pieces where a game can have them are fine.
    for fen in [
        "4k3/8/8/8/8/8/4R3/4K3 b - - 0 1",
        "4k3/7P/8/8/8/8/8/4K3 b - - 0 1",
    ] {
        assert!(
            quadrille_engine::Position::from_string(v.clone(), fen).is_ok(),
            "{fen}"
        );
    }
}
