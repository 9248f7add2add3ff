//! Hand-built positions for the rules of Caïssa Britannia: the royal Queen
//! (no moving into attack, no passing over an attacked cell with its origin
//! empty, no facing the other Queen, never capturing it), the Prince
//! Consort, Lion, Unicorn, Dragon and Anglican Bishop, pawns (double step
//! from the third rank, en passant), promotion by liberation, and the
//! draws. Every expected move list is written out by hand.
//!
//! Board: files a-j, ranks 1-10; position strings list rank 10 first.

mod common;

use common::{assert_all_moves, assert_moves, mover_letter, play_all, pos};
use quadrille_engine::{EndReason, Outcome};
use std::collections::BTreeMap;

const V: &str = "caissa-britannia";
const START: &str = "drubqkburd/1l6l1/pppppppppp/10/10/10/10/PPPPPPPPPP/1L6L1/DRUBQKBURD w - - 0 1";

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

// ------------------------------------------------------- start position

/// The rules file's verification: 56 moves, per type 20 pawn, 6 Bishop,
/// 6 Unicorn, 18 Lion, 3 Prince Consort, 3 Queen.
///
/// The rules table writes the Lion as `mQpQ`, our file as `mQcpQ`. Read
/// literally, Betza `pQ` would also let the Lion hop to an EMPTY cell
/// beyond a screen; the prose ("captures only by hopping") and this count
/// rule that out. From b2 the Lion has 7 quiet Queen moves (a2, c2-h2)
/// and 2 hop captures (b8 over b3, h8 over c3): 9, and i2 likewise, 18 in
/// all. With non-capturing hops as well, b2 would add b4-b7, d4-g7 and j2
/// (9 more), i2 the same: 36 Lion moves and 74 in all, not 56.
#[test]
fn start_position_has_56_moves_with_the_published_breakdown() {
    let mut p = pos(V, START);
    let list = p.legal_moves();
    assert_eq!(list.len(), 56);
    let mut by_type = BTreeMap::new();
    for &m in list.iter() {
        *by_type.entry(mover_letter(&p, m)).or_insert(0) += 1;
    }
    let want: BTreeMap<char, i32> = [('P', 20), ('B', 6), ('U', 6), ('L', 18), ('K', 3), ('Q', 3)]
        .into_iter()
        .collect();
    assert_eq!(by_type, want);
    // The b2 Lion: quiet along rank 2 (a2, c2-h2; the i2 Lion stops it),
    // captures b8 (screen b3) and h8 (screen c3). No hop to empty cells.
    assert_moves(
        &mut p,
        "b2",
        &[
            "b2a2", "b2b8", "b2c2", "b2d2", "b2e2", "b2f2", "b2g2", "b2h2", "b2h8",
        ],
    );
    // The Queen: one step to d2, e2, f2 (pawns on the third rank stop it).
    assert_moves(&mut p, "e1", &["e1d2", "e1e2", "e1f2"]);
}

// ------------------------------------------------------- the royal Queen

#[test]
fn queen_may_not_move_to_an_attacked_cell() {
    // Own rook c1, bishop g1 and pawns c3, e3, g3 leave the Queen on e1
    // only the five neighbours. d1 is attacked by the Dragon on d5 (two
    // two-cell leaps over d4, d2, landing d3 empty), e2 by the Unicorn on
    // f4 (knight leap f4-e2); d2, f2 and f1 are safe.
    let mut p = pos(V, "9q/10/10/10/10/3d6/5u4/2P1P1P3/10/2R1Q1B3 w - - 0 1");
    assert_moves(&mut p, "e1", &["e1d2", "e1f1", "e1f2"]);
}

#[test]
fn queen_may_not_pass_over_an_attacked_cell() {
    // The rook on j6 attacks a6 (and j1). Up the a-file the Queen may stop
    // on a2-a5 but not on a6, and a7, a8, a9 are out of reach although
    // nothing attacks them: it would pass over a6. Along the first rank
    // b1-i1 are safe, j1 is attacked. c3 blocks the long diagonal.
    let mut p = pos(V, "9q/10/10/10/9r/10/10/2P7/10/Q9 w - - 0 1");
    assert_moves(
        &mut p,
        "a1",
        &[
            "a1a2", "a1a3", "a1a4", "a1a5", "a1b1", "a1b2", "a1c1", "a1d1", "a1e1", "a1f1", "a1g1",
            "a1h1", "a1i1",
        ],
    );
}

#[test]
fn queen_in_check_cannot_retreat_along_the_checking_line() {
    // The rook on a1 checks along the first rank. Imagining the Queen on
    // f1..j1 with e1 empty, the rook sees it: no retreat along the rank;
    // d1 is attacked anyway. Up the e-file e2-e4 are safe, e5 lies on the
    // queen's diagonal j10-a1 (so e6.. are unreachable); d2 is safe, c3 is
    // on that diagonal too; f2-i5 are safe, j6 is on the j-file.
    let mut p = pos(V, "9q/10/10/10/10/10/10/10/10/r3Q5 w - - 0 1");
    assert!(p.in_check());
    assert_all_moves(
        &mut p,
        &[
            "e1d2", "e1e2", "e1e3", "e1e4", "e1f2", "e1g3", "e1h4", "e1i5",
        ],
    );
}

#[test]
fn queen_path_is_judged_with_its_origin_empty() {
    // A Black Lion on a1 captures only over exactly one screen. With the
    // Queen's origin c1 empty, a Queen imagined on d1..i1 has no screen
    // between it and the Lion: not attacked, so the Queen slides east to
    // i1 (j1 is on the j-file of the black queen). Taking the Lion on a1
    // is illegal: the black queen guards it along j10-a1, which also
    // covers b2 and c3 (so c4.. up the file are unreachable).
    let mut p = pos(V, "9q/10/10/10/10/10/10/10/10/l1Q7 w - - 0 1");
    assert_moves(
        &mut p,
        "c1",
        &[
            "c1b1", "c1c2", "c1d1", "c1d2", "c1e1", "c1e3", "c1f1", "c1f4", "c1g1", "c1g5", "c1h1",
            "c1h6", "c1i1", "c1i7",
        ],
    );
}

#[test]
fn a_piece_between_the_queens_is_pinned() {
    // Queens on e1 and e10 with only the Prince Consort between them: it
    // may move along the e-file (the line stays closed) but not off it.
    let mut p = pos(V, "4q5/10/10/10/10/4K5/10/10/10/4Q5 w - - 0 1");
    assert_moves(
        &mut p,
        "e5",
        &["e5e2", "e5e3", "e5e4", "e5e6", "e5e7", "e5e8", "e5e9"],
    );
}

#[test]
fn queen_may_not_step_onto_an_open_line_to_the_other_queen() {
    // The black queen on e10 "attacks" the e-file, the tenth rank and the
    // diagonals a6-d9 and f9-j5. From d1: e1 and e2 are on the e-file (so
    // f1.. and f3.. are unreachable), d9 and d10 face the queen (so the
    // file ends at d8). a1-c1, c2-a4 and d2-d8 are fine.
    let mut p = pos(V, "4q5/10/p9/10/10/10/10/9P/10/3Q6 w - - 0 1");
    assert_moves(
        &mut p,
        "d1",
        &[
            "d1a1", "d1a4", "d1b1", "d1b3", "d1c1", "d1c2", "d1d2", "d1d3", "d1d4", "d1d5", "d1d6",
            "d1d7", "d1d8",
        ],
    );
}

/// The Queens can never legally face each other, so a Queen can never
/// capture the other Queen in a game: a position where they touch (White
/// to move) cannot arise and is refused when read, with the reason.
#[test]
fn queen_never_captures_queen() {
    let v = quadrille_engine::embedded::variant(V).unwrap();
    let e = quadrille_engine::Position::from_string(
        v.clone(),
        "10/10/10/10/4q5/4Q5/10/10/10/10 w - - 0 1",
    )
    .unwrap_err();
    assert_eq!(e.field, "board");
    assert!(
        e.message.contains("e6") && e.message.contains("in check"),
        "{e}"
    );
}

// ---------------------------------------------------------------- pieces

#[test]
fn prince_consort_slides_without_capturing_and_captures_one_step() {
    // mQcK from e5. It slides like a Queen to empty cells; it captures
    // only on a neighbouring cell (d6). It may not capture the e8 or g7
    // pawns at a distance (the slides stop before them at e7 and f6). f5
    // is its own pawn. It is not royal: c5, which the d6 pawn attacks,
    // is allowed.
    let mut p = pos(V, "q9/10/4p5/6p3/3p6/4KP4/10/10/10/9Q w - - 0 1");
    assert_moves(
        &mut p,
        "e5",
        &[
            "e5a1", "e5a5", "e5b2", "e5b5", "e5c3", "e5c5", "e5d4", "e5d5", "e5d6", "e5e1", "e5e2",
            "e5e3", "e5e4", "e5e6", "e5e7", "e5f4", "e5f6", "e5g3", "e5h2", "e5i1",
        ],
    );
}

#[test]
fn lion_moves_quietly_and_captures_only_over_one_screen() {
    // Lion on e5 (mQcpQ, see the start-position test).
    //   N:  e6 quiet; e7 is an enemy screen, e9 taken beyond it (e8 empty).
    //   NE: f6 quiet; g7 (own) is a screen, i9 taken beyond it.
    //   E:  f5 enemy next to it: no capture without a screen; beyond it
    //       g5 is its own pawn: no capture.
    //   SE: f4 g3 h2 i1 quiet, nothing to hop.
    //   S:  e4 quiet; over e3 (own) the first piece is its own Queen e1.
    //   SW: d4 quiet; over c3 it takes b2 (adjacent to the screen); a1
    //       lies behind two pieces.
    //   W:  d5 c5 b5 a5 quiet.
    //   NW: d6 quiet; over c7 it takes a9 (b8 empty between).
    // The Lion never takes a piece it reaches by a plain slide.
    let mut p = pos(
        V,
        "9q/p3r3p1/10/2p1p1P3/10/4LpP3/10/2p1P5/1p8/b3Q5 w - - 0 1",
    );
    assert_moves(
        &mut p,
        "e5",
        &[
            "e5a5", "e5a9", "e5b2", "e5b5", "e5c5", "e5d4", "e5d5", "e5d6", "e5e4", "e5e6", "e5e9",
            "e5f4", "e5f6", "e5g3", "e5h2", "e5i1", "e5i9",
        ],
    );
}

#[test]
fn unicorn_is_bishop_and_nightrider() {
    // Unicorn on e5. Nightrider lines: f7 is its own pawn, so g9 is out
    // of reach; g6 is taken and i7 beyond it is out of reach; g4 then i3
    // (taken); f3 g1; d3 c1; c4 a3; c6 a7; d7 c9. Bishop lines: f6, g7
    // (taken); d6 c7 b8 a9; f4 g3 h2 i1; d4 c3 b2 a1.
    let mut p = pos(V, "q9/10/10/5Pp3/6p3/4U5/10/7Pp1/10/9Q w - - 0 1");
    assert_moves(
        &mut p,
        "e5",
        &[
            "e5a1", "e5a3", "e5a7", "e5a9", "e5b2", "e5b8", "e5c1", "e5c3", "e5c4", "e5c6", "e5c7",
            "e5c9", "e5d3", "e5d4", "e5d6", "e5d7", "e5f3", "e5f4", "e5f6", "e5g1", "e5g3", "e5g4",
            "e5g6", "e5g7", "e5h2", "e5i1", "e5i3",
        ],
    );
}

#[test]
fn dragon_makes_repeated_two_cell_leaps() {
    // Dragon on e5 (AADD). Jumped cells never matter: f6 (own), f5 and d4
    // (enemy) are leapt over. Landings before the last must be empty:
    // g7 (own) ends the NE line (no i9). Lines: c7 a9; g3 i1; c3 (taken,
    // so no a1); g5 i5; c5 a5; e7 e9 (taken); e3 e1.
    let mut p = pos(V, "q9/4p5/10/6P3/5P4/4Dp4/3p6/2p7/10/9Q w - - 0 1");
    assert_moves(
        &mut p,
        "e5",
        &[
            "e5a5", "e5a9", "e5c3", "e5c5", "e5c7", "e5e1", "e5e3", "e5e7", "e5e9", "e5g3", "e5g5",
            "e5i1", "e5i5",
        ],
    );
}

#[test]
fn anglican_bishop_slides_diagonally_and_steps_orthogonally_without_capturing() {
    // Bishop on e5 (BmW). Diagonals: f6 g7 h8 (taken); d6 own; f4 g3 h2
    // i1; d4 c3 b2 a1. Orthogonal single steps to empty cells only: f5
    // and e4; not e6 (an enemy: no orthogonal capture), not d5 (own), and
    // never two steps.
    let mut p = pos(V, "q9/10/7p2/10/3Pp5/3PB5/10/10/10/9Q w - - 0 1");
    assert_moves(
        &mut p,
        "e5",
        &[
            "e5a1", "e5b2", "e5c3", "e5d4", "e5e4", "e5f4", "e5f5", "e5f6", "e5g3", "e5g7", "e5h2",
            "e5h8", "e5i1",
        ],
    );
}

// ----------------------------------------------------------------- pawns

#[test]
fn pawn_double_step_from_the_third_rank() {
    // c3 is on White's starting rank: c4 or c5. d4 is not: d5 only.
    let mut p = pos(V, "2q7/10/10/10/10/10/3P6/2P7/10/Q9 w - - 0 1");
    assert_moves(&mut p, "c3", &["c3c4", "c3c5"]);
    assert_moves(&mut p, "d4", &["d4d5"]);
    // Black's pawns start on rank 8 and step down.
    let mut p = pos(V, "2q7/10/5p4/10/10/10/10/10/10/Q9 b - - 0 1");
    assert_moves(&mut p, "f8", &["f8f6", "f8f7"]);
}

#[test]
fn en_passant_immediately_after_a_double_step() {
    let mut p = pos(V, "2q7/10/3p6/10/4P5/10/10/10/10/Q9 b - - 0 1");
    p.play("d8d6").unwrap();
    // d8-d6 passed d7, which the e6 pawn attacks.
    assert_eq!(p.to_string(), "2q7/10/10/10/3pP5/10/10/10/10/Q9 w - d7 0 2");
    let mut q = p.clone();
    assert_moves(&mut p, "e6", &["e6d7", "e6e7"]);
    p.play("e6d7").unwrap();
    assert_eq!(p.to_string(), "2q7/10/10/3P6/10/10/10/10/10/Q9 b - - 0 2");
    // One move later the chance is gone.
    play_all(&mut q, &["a1a2", "c10c9"]);
    assert_moves(&mut q, "e6", &["e6e7"]);
}

// ------------------------------------------------------------- promotion

#[test]
fn promotion_only_to_knight_when_nothing_is_liberated() {
    // White has its whole army (and all ten pawns): only the Knight.
    let mut p = pos(
        V,
        "3r3q2/4P5/10/10/10/10/10/PPPP1PPPPP/1L6L1/DRUBQKBURD w - - 0 1",
    );
    assert_moves(&mut p, "e9", &["e9d10n", "e9e10n"]);
    assert!(p.play("e9e10").is_err(), "promotion is compulsory");
}

#[test]
fn promotion_to_knight_or_a_liberated_type() {
    // White has lost a Rook, the Prince Consort, a Lion and a pawn: it may
    // promote to Knight, Rook, Prince Consort or Lion. Never to a Queen,
    // and not to a Pawn (a pawn is missing, but a pawn is no promotion).
    let mut p = pos(
        V,
        "3r3q2/4P5/10/10/10/10/10/PPPP1PPPP1/1L8/D1UBQ1BURD w - - 0 1",
    );
    assert_moves(
        &mut p,
        "e9",
        &[
            "e9d10k", "e9d10l", "e9d10n", "e9d10r", "e9e10k", "e9e10l", "e9e10n", "e9e10r",
        ],
    );
    p.play("e9e10k").unwrap();
    assert!(p.to_string().starts_with("3rK2q2/10/"));
}

#[test]
fn black_promotes_to_a_liberated_prince_consort() {
    // Black has lost its Prince Consort and a Dragon: Knight, Prince
    // Consort or Dragon, on b1 or capturing on c1.
    let mut p = pos(
        V,
        "1rubq1burd/1l6l1/p1pppppppp/10/10/10/10/10/1p8/2R4Q2 b - - 0 1",
    );
    assert_moves(
        &mut p,
        "b2",
        &["b2b1d", "b2b1k", "b2b1n", "b2c1d", "b2c1k", "b2c1n"],
    );
}

// ------------------------------------------------------- end of the game

#[test]
fn checkmate_of_the_queen() {
    // The rook on a10 checks along the tenth rank; i10 stays on it (and
    // the a2 Queen's diagonal), i9 and j9 are on the a9 rook's rank.
    let mut p = pos(V, "R8q/R9/10/10/10/10/10/10/Q9/10 b - - 0 1");
    assert!(p.in_check());
    assert_all_moves(&mut p, &[]);
    assert_eq!(p.outcome(), white_wins(EndReason::Checkmate));
}

#[test]
fn stalemate_is_a_draw() {
    // The black queen on j10 is not attacked; i10, i9 and j9 are (the i1
    // rook, the a9 rook, the a2 Queen's diagonal), so it cannot move.
    let mut p = pos(V, "9q/R9/10/10/10/10/10/10/Q9/8R1 b - - 0 1");
    assert!(!p.in_check());
    assert_all_moves(&mut p, &[]);
    assert_eq!(p.outcome(), draw(EndReason::Stalemate));
}

#[test]
fn bare_queen_against_bare_queen_is_a_draw() {
    let mut p = pos(V, "4q5/10/10/10/10/3p6/10/10/10/3Q6 w - - 0 1");
    assert_eq!(p.outcome(), None);
    // The Queen takes the last other piece (d2-d4 and d5 are safe).
    p.play("d1d5").unwrap();
    assert_eq!(p.outcome(), draw(EndReason::BareRoyals));
}

#[test]
fn repetition_and_no_progress_draw() {
    let mut p = pos(V, START);
    let cycle = ["b2c2", "b9c9", "c2b2", "c9b9"];
    play_all(&mut p, &cycle);
    assert_eq!(p.outcome(), None);
    play_all(&mut p, &cycle);
    assert_eq!(p.outcome(), draw(EndReason::Repetition));

    let mut p = pos(V, "3q6/10/10/10/10/10/10/P9/10/4Q5 w - - 99 80");
    assert_eq!(p.outcome(), None);
    p.play("e1f1").unwrap();
    assert_eq!(p.outcome(), draw(EndReason::NoProgress));
}
