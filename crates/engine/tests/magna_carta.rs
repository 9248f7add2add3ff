//! Hand-built positions for the rules of Magna Carta Chess: "must retain
//! both" (a lone Marshal, Cardinal, King or Queen is royal; with a spare
//! none of that type is; the survivor of a pair becomes royal), the royal
//! fork, checkmate of either royal, promotion choices per side (Black may
//! make a spare King), castling (Black only, FIDE conditions, never with a
//! spare King), pawns, stalemate and the draws. Every expected move list is
//! written out by hand.

mod common;

use common::{assert_all_moves, assert_moves, play_all, pos};
use quadrille_engine::{EndReason, Outcome};

const V: &str = "magna-carta";

fn white_wins(reason: EndReason) -> Option<Outcome> {
    Some(Outcome {
        ranking: vec![vec![0], vec![1]],
        reason,
    })
}

fn black_wins(reason: EndReason) -> Option<Outcome> {
    Some(Outcome {
        ranking: vec![vec![1], vec![0]],
        reason,
    })
}

fn draw(reason: EndReason) -> Option<Outcome> {
    Some(Outcome {
        ranking: vec![vec![0, 1]],
        reason,
    })
}

// ------------------------------------------------------------- royalty

#[test]
fn lone_marshal_is_royal() {
    // One Marshal (a1) and one Cardinal (h1): both royal. The queen on d8
    // attacks a5 (diagonal d8-a5), a8 (eighth rank) and d1 (d-file), so
    // the Marshal may not go there; every other rook and knight move is
    // fine (a6, a7 are reached past the attacked a5: only the destination
    // counts in this game).
    let mut p = pos(V, "3qk3/8/8/8/8/8/8/M6C w - - 0 1");
    assert_moves(
        &mut p,
        "a1",
        &[
            "a1a2", "a1a3", "a1a4", "a1a6", "a1a7", "a1b1", "a1b3", "a1c1", "a1c2", "a1e1", "a1f1",
            "a1g1",
        ],
    );
}

#[test]
fn with_a_spare_marshal_no_marshal_is_royal_but_the_lone_cardinal_is() {
    // Two Marshals (a1, h2): neither is royal, so the a1 Marshal may stand
    // en prise on a5, a8 or d1: all 7 file, 6 rank and 2 knight moves.
    let mut p = pos(V, "3qk3/8/8/8/8/8/7M/M6C w - - 0 1");
    assert_moves(
        &mut p,
        "a1",
        &[
            "a1a2", "a1a3", "a1a4", "a1a5", "a1a6", "a1a7", "a1a8", "a1b1", "a1b3", "a1c1", "a1c2",
            "a1d1", "a1e1", "a1f1", "a1g1",
        ],
    );
    // The Cardinal is still alone and royal: along its long diagonal it
    // may not stop on d5 (d-file of the queen) or a8 (eighth rank); g2,
    // f3, e4, c6, b7 and the knight moves g3, f2 are safe.
    assert_moves(
        &mut p,
        "h1",
        &["h1b7", "h1c6", "h1e4", "h1f2", "h1f3", "h1g2", "h1g3"],
    );
}

#[test]
fn survivor_of_a_pair_becomes_royal() {
    // Two Marshals (a1, d1), so neither is royal and Black may take one.
    let mut p = pos(V, "3rkq2/8/8/8/8/8/8/M2M3C w - - 0 1");
    play_all(&mut p, &["h1g3", "d8d1"]);
    // The a1 Marshal is now alone, hence royal, and in check from the
    // rook on d1 along the first rank. It may take the unguarded rook, or
    // leave the rank (b1, c1 are still on it, seen through a1 once the
    // Marshal has left) for any cell but a3, which the queen on f8 attacks
    // along f8-a3; b3 and c2 are safe knight moves. The Cardinal on g3
    // can neither take d1 nor block on b1/c1.
    assert!(p.in_check());
    assert_all_moves(
        &mut p,
        &[
            "a1a2", "a1a4", "a1a5", "a1a6", "a1a7", "a1a8", "a1b3", "a1c2", "a1d1",
        ],
    );
}

#[test]
fn royal_fork_is_checkmate() {
    // The d5 pawn attacks both the lone Marshal (c4) and the lone Cardinal
    // (e4). Moving one leaves the other attacked; the Cardinal's capture
    // e4d5 lands on a cell the c6 pawn guards; the Marshal cannot take d5.
    let mut p = pos(V, "q6k/8/2p5/3p4/2M1C3/8/8/8 w - - 0 1");
    assert!(p.in_check());
    assert_all_moves(&mut p, &[]);
    assert_eq!(p.outcome(), black_wins(EndReason::Checkmate));
}

#[test]
fn royal_fork_answered_by_taking_the_forking_piece() {
    // Without the c6 guard the Cardinal takes the pawn; nothing else
    // saves both royal pieces at once.
    let mut p = pos(V, "1q5k/8/8/3p4/2M1C3/8/8/8 w - - 0 1");
    assert!(p.in_check());
    assert_all_moves(&mut p, &["e4d5"]);
}

#[test]
fn checkmate_of_the_lone_queen() {
    // Black's lone Queen (royal) on h8 is attacked by the Cardinal's
    // knight move from g6 and is boxed in by its own king (g8), pawn (g7)
    // and knight (h7); nothing attacks g6 (the h7 knight reaches f6, f8,
    // g5), and a knight's check cannot be blocked.
    let mut p = pos(V, "6kq/6pn/6C1/8/8/8/8/M7 b - - 0 1");
    assert!(p.in_check());
    assert_all_moves(&mut p, &[]);
    assert_eq!(p.outcome(), white_wins(EndReason::Checkmate));
}

#[test]
fn extinct_required_type_loses() {
    // Black has no Queen (a set-up position: in play the last Queen is
    // royal and can never be taken): Black has lost.
    let p = pos(V, "4k3/8/8/8/8/8/8/3MC3 b - - 0 1");
    assert_eq!(p.outcome(), white_wins(EndReason::Extinction));
}

// ------------------------------------------------------------- promotion

#[test]
fn white_promotes_to_marshal_cardinal_rook_bishop_or_knight() {
    // Never to Queen or King.
    let mut p = pos(V, "4k3/P7/7q/8/8/8/8/3MC3 w - - 0 1");
    assert_moves(&mut p, "a7", &["a7a8b", "a7a8c", "a7a8m", "a7a8n", "a7a8r"]);
    assert!(p.play("a7a8q").is_err());
}

#[test]
fn black_promotes_to_queen_king_rook_bishop_or_knight() {
    // A spare King is allowed; Marshal and Cardinal are White's pieces.
    let mut p = pos(V, "q3k3/8/8/8/8/8/7p/3MC3 b - - 0 1");
    assert_moves(&mut p, "h2", &["h2h1b", "h2h1k", "h2h1n", "h2h1q", "h2h1r"]);
    assert!(p.play("h2h1m").is_err());
}

#[test]
fn a_spare_king_makes_both_kings_non_royal() {
    // The rook on d2 attacks d7 and d8; the lone King may not go there.
    let mut p = pos(V, "4k2q/8/8/8/8/8/3R2p1/1MC5 b - - 0 1");
    assert_moves(&mut p, "e8", &["e8e7", "e8f7", "e8f8"]);
    // Black makes a spare King on g1; White passes with a Marshal move.
    play_all(&mut p, &["g2g1k", "b1b3"]);
    // Two Kings: neither is royal, so d7 and d8 are allowed now.
    assert_moves(&mut p, "e8", &["e8d7", "e8d8", "e8e7", "e8f7", "e8f8"]);
}

// -------------------------------------------------------------- castling

#[test]
fn black_castles_with_the_fide_conditions() {
    // The Marshal on c1 attacks c8 up the open c-file: no e8c8 (the king
    // would arrive on an attacked cell). e8g8 is fine.
    let mut p = pos(V, "r3k2r/7q/8/8/8/8/8/2MC4 b kq - 0 1");
    assert_moves(
        &mut p,
        "e8",
        &["e8d7", "e8d8", "e8e7", "e8f7", "e8f8", "e8g8"],
    );
    // With the c-file closed by a pawn both castlings are legal.
    let mut p = pos(V, "r3k2r/2p4q/8/8/8/8/8/2MC4 b kq - 0 1");
    assert_moves(
        &mut p,
        "e8",
        &["e8c8", "e8d7", "e8d8", "e8e7", "e8f7", "e8f8", "e8g8"],
    );
}

#[test]
fn white_cannot_castle() {
    // No White castling exists: the position string may not claim one.
    let v = common::variant(V);
    let e = quadrille_engine::Position::from_string(v, "4k3/8/8/8/8/8/8/R2MC2R w K - 0 1");
    assert!(e.is_err());
    // The Cardinal on e1 (royal: the only one) has only its Bishop and
    // Knight moves, no castling with either rook; a5 (a-file), f3 and g2
    // (long diagonal) are attacked by the queen on a8 (the a2 pawn keeps
    // the rook off her: a position with the queen en prise to White, Black
    // having just moved, is no position).
    let mut p = pos(V, "q3k3/8/8/8/8/8/P7/R2MC2R w - - 0 1");
    assert_moves(
        &mut p,
        "e1",
        &[
            "e1b4", "e1c2", "e1c3", "e1d2", "e1d3", "e1f2", "e1g3", "e1h4",
        ],
    );
}

#[test]
fn spare_king_and_castling() {
    let mut p = pos(V, "r3k2r/2p4q/8/8/8/2M1C3/6p1/8 b kq - 0 1");
    // Black makes a spare King; the original King on e8 keeps its rights
    // and, with c8/d8/e8/f8/g8 unattacked, castles either way.
    play_all(&mut p, &["g2g1k", "e3d2"]);
    assert_moves(
        &mut p,
        "e8",
        &["e8c8", "e8d7", "e8d8", "e8e7", "e8f7", "e8f8", "e8g8"],
    );
    // The original King steps aside (rights gone) and the spare King
    // walks from g1 to e8, next to the unmoved rooks. It may not castle:
    // "a spare King obtained by promotion does not castle".
    play_all(
        &mut p,
        &[
            "e8d8", "c3b3", "g1f2", "b3c3", "f2f3", "c3b3", "f3f4", "b3c3", "f4f5", "c3b3", "f5f6",
            "b3c3", "f6e7", "c3b3", "e7e8", "b3c3",
        ],
    );
    assert_eq!(p.to_string(), "r2kk2r/2p4q/8/8/8/2M5/3C4/8 b - - 17 10");
    assert_moves(&mut p, "e8", &["e8d7", "e8e7", "e8f7", "e8f8"]);
}

// --------------------------------------------------------------- pawns

#[test]
fn pawns_double_step_and_take_en_passant() {
    let mut p = pos(V, "q3k3/8/8/8/3p4/8/4P3/3MC3 w - - 0 1");
    assert_moves(&mut p, "e2", &["e2e3", "e2e4"]);
    p.play("e2e4").unwrap();
    assert_moves(&mut p, "d4", &["d4d3", "d4e3"]);
    p.play("d4e3").unwrap();
    assert_eq!(p.to_string(), "q3k3/8/8/8/8/4p3/8/3MC3 w - - 0 2");
}

// ------------------------------------------------------------------ draws

#[test]
fn stalemate_is_a_draw() {
    // Black: King h8, Queen g8 (both royal), pawn h7 blocked by h6. The
    // Queen's every neighbour holds a White piece it may not take because
    // each is guarded (f8 and g7 by the f7 rook, f7 by the e6 Cardinal);
    // the King's free neighbour g7 is guarded too. Nothing is attacked.
    let mut p = pos(V, "5Nqk/5RNp/4C2P/8/8/8/8/M7 b - - 0 1");
    assert!(!p.in_check());
    assert_all_moves(&mut p, &[]);
    assert_eq!(p.outcome(), draw(EndReason::Stalemate));
}

#[test]
fn repetition_and_no_progress_draw() {
    let mut p = pos(V, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMCBNR w kq - 0 1");
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    play_all(&mut p, &cycle);
    assert_eq!(p.outcome(), None);
    play_all(&mut p, &cycle);
    assert_eq!(p.outcome(), draw(EndReason::Repetition));

    let mut p = pos(V, "1q2k3/8/8/8/8/8/8/R2MC3 w - - 99 80");
    p.play("a1a2").unwrap();
    assert_eq!(p.outcome(), draw(EndReason::NoProgress));
}

#[test]
fn only_royal_pieces_left_is_not_a_draw() {
    // Marshal and Cardinal against King and Queen: the rules know no
    // "bare royals" draw here, and play goes on (a royal fork still wins).
    let p = pos(V, "4k3/8/8/q7/8/8/8/2MC4 w - - 0 1");
    assert_eq!(p.outcome(), None);
    // The Marshal forks King (e8) and Queen (b7) with a knight move from
    // d6, guarded by the Cardinal on f4: checkmate with royals only.
    let mut p = pos(V, "4k3/1q6/3M4/8/5C2/8/8/8 b - - 0 1");
    assert_all_moves(&mut p, &[]);
    assert_eq!(p.outcome(), white_wins(EndReason::Checkmate));
}
