//! Mini Fivequarters (rules/mini-fivequarters.md): perft from the six
//! start positions and a hand-built position for every rule: camps, Pawns,
//! promotion, elimination by the next player, extinction of a kingless
//! army, dropping out, and the final ranking.
//!
//! Players, in turn order: `r` Red (camp d1-f3), `o` Orange (g4-i6), `g`
//! Green (d7-f9), `b` Blue (a4-c6); the centre is d4-f6.

mod common;

use common::{assert_all_moves, assert_moves, legal};
use quadrille_engine::{embedded, EndReason, Position};

/// Does the cross have this cell (file 0-8, rank 1-9)?
fn exists(f: usize, r: usize) -> bool {
    (3..=5).contains(&f) || (4..=6).contains(&r)
}

/// A position of `variant` from (cell, piece) pairs such as ("e1", "rK"),
/// the player to move and the players already out, in order.
fn cross(variant: &str, pieces: &[(&str, &str)], to_move: char, out: &str) -> Position {
    let fen = common::board_fen((9, 9, 1), |f, r| exists(f, r + 1), pieces, to_move, out);
    common::pos(variant, &fen)
}

/// The four Kings of the King games, out of everyone's way.
const KINGS: [(&str, &str); 4] = [("e1", "rK"), ("i5", "oK"), ("e9", "gK"), ("a5", "bK")];

fn with_kings(extra: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    KINGS.iter().chain(extra).copied().collect()
}

#[test]
fn sylvia_depth_1_by_hand() {
    // Red's Knights stand on d3, e3, f3 (its third rank), with Bishops d2,
    // f2, Queen e2, Rooks d1, f1 and King e1 behind them. Every other Red
    // piece is blocked by its own men. Each Knight has two moves into the
    // centre; its other jumps land off the cross (c1, b2, g2, h2 ...), on
    // Red's own pieces, or in a neighbour's camp, which a jump may never
    // reach from a camp (d3-b4, d3-c5, e3-c4, e3-g4, f3-g5, f3-h4):
    //   d3: e5, f4    e3: d5, f5    f3: d4, e5   = 6.
    let mut p = embedded::variant("sylvia").unwrap().start();
    assert_all_moves(&mut p, &["d3e5", "d3f4", "e3d5", "e3f5", "f3d4", "f3e5"]);
}

#[test]
fn a_knight_may_not_jump_between_camps() {
    // A Red Knight in Blue's camp on c5: a4 and a6 (same camp), e4 and e6
    // (the centre); d3 (Red's camp) and d7 (Green's) are camp to camp.
    let mut p = cross("los-alamos", &with_kings(&[("c5", "rN")]), 'r', "");
    assert_moves(&mut p, "c5", &["c5a4", "c5a6", "c5e4", "c5e6"]);
}

#[test]
fn a_bishop_may_not_cut_the_corner_between_camps() {
    // A Red Bishop on c6 (Blue's camp): c6-d7 steps straight into Green's
    // camp without touching the centre, so that diagonal is closed (d7,
    // e8, f9); the other diagonal goes through d5 and e4 (centre) into
    // Red's camp at f3, which is allowed.
    let mut p = cross("ariana", &with_kings(&[("c6", "rB")]), 'r', "");
    assert_moves(&mut p, "c6", &["c6a4", "c6b5", "c6d5", "c6e4", "c6f3"]);
    // The same corner the other way: from d7 (Green's camp) c6 is refused.
    let mut p = cross("ariana", &with_kings(&[("d7", "rB")]), 'r', "");
    // (c8 is off the cross; e8-f9 stays in Green's camp; e6-f5 is the
    // centre and g4 Orange's camp, reached over the centre.)
    assert_moves(&mut p, "d7", &["d7e6", "d7e8", "d7f5", "d7f9", "d7g4"]);
}

#[test]
fn a_rook_crosses_the_centre_into_another_camp() {
    // A Red Rook on d3 slides up the d-file through the centre into
    // Green's camp (d7-d9), along its own camp (e3, f3) and down (d2, d1).
    let mut p = cross(
        "los-alamos",
        &[
            ("f1", "rK"),
            ("i5", "oK"),
            ("f9", "gK"),
            ("a5", "bK"),
            ("d3", "rR"),
        ],
        'r',
        "",
    );
    assert_moves(
        &mut p,
        "d3",
        &[
            "d3d1", "d3d2", "d3d4", "d3d5", "d3d6", "d3d7", "d3d8", "d3d9", "d3e3", "d3f3",
        ],
    );
}

#[test]
fn a_pawn_may_not_capture_into_a_neighbours_camp() {
    // Red Pawns on d4 and f5 (the centre). d4 may take the Green Knight on
    // e5 (centre) but not the Blue Knight on c5 (Blue's camp); f5 may not
    // take the Orange Knight on g6 (Orange's camp).
    let pieces = with_kings(&[
        ("d4", "rP"),
        ("f5", "rP"),
        ("c5", "bN"),
        ("e5", "gN"),
        ("g6", "oN"),
    ]);
    let mut p = cross("los-alamos", &pieces, 'r', "");
    assert_moves(&mut p, "d4", &["d4d5", "d4e5"]);
    assert_moves(&mut p, "f5", &["f5f6"]);
}

#[test]
fn promotion_is_optional_then_compulsory() {
    // Los Alamos promotes to Queen, Rook or Knight. Entering Green's camp
    // (d7) the Pawn may stay a Pawn; on its far rank (e9) it must promote.
    let pieces = [
        ("e1", "rK"),
        ("i5", "oK"),
        ("f8", "gK"),
        ("a5", "bK"),
        ("d6", "rP"),
        ("e8", "rP"),
    ];
    let mut p = cross("los-alamos", &pieces, 'r', "");
    assert_moves(&mut p, "d6", &["d6d7", "d6d7n", "d6d7q", "d6d7r"]);
    assert_moves(&mut p, "e8", &["e8e9n", "e8e9q", "e8e9r"]);
}

#[test]
fn own_king_may_not_be_left_to_the_next_player() {
    // Red's Rook on e3 stands between its King on e1 and a Rook on e6.
    // If the Rook is Orange's (the next player), Red's Rook is pinned to
    // the e-file.
    let pieces = with_kings(&[("e3", "rR"), ("e6", "oR")]);
    let mut p = cross("los-alamos", &pieces, 'r', "");
    assert_moves(&mut p, "e3", &["e3e2", "e3e4", "e3e5", "e3e6"]);
    // If it is Green's (a later player), Red may leave the line: Green
    // cannot capture before Orange has moved.
    let pieces = with_kings(&[("e3", "rR"), ("e6", "gR")]);
    let mut p = cross("los-alamos", &pieces, 'r', "");
    assert_moves(
        &mut p,
        "e3",
        &["e3d3", "e3e2", "e3e4", "e3e5", "e3e6", "e3f3"],
    );
}

#[test]
fn a_king_the_next_player_could_capture_is_eliminated() {
    // Red's Knight on e7 blocks Orange's Rook on e4 from Green's King on
    // e9. Red moves the Knight away: Orange, who moves next, could now
    // capture that King, so Green is checkmated and its army leaves.
    let pieces = [
        ("d1", "rK"),
        ("e7", "rN"),
        ("i5", "oK"),
        ("e4", "oR"),
        ("e9", "gK"),
        ("f8", "gR"),
        ("a5", "bK"),
    ];
    let mut p = cross("los-alamos", &pieces, 'r', "");
    p.play("e7d5").unwrap();
    assert!(p.is_out(2), "Green is out");
    assert!(p.army_cells(2).is_empty(), "Green's army is removed");
    assert_eq!(p.to_move(), 1);
    assert!(p.to_string().ends_with("o - - 0 1 out=g"), "{p}");
    // Taking the move back brings Green and its army back.
    p.unmake();
    assert!(!p.is_out(2));
    assert_eq!(p.army_cells(2).len(), 2);
}

#[test]
fn a_king_a_later_player_could_capture_survives_until_that_player_is_next() {
    // Red's Rook on d5 blocks Green's Rook on g5 from Blue's King on a5.
    // Red moves it away: Blue's King is now capturable by Green, but Green
    // is not next (Orange is), so Blue stays in.
    let pieces = [
        ("f1", "rK"),
        ("d5", "rR"),
        ("i4", "oK"),
        ("g5", "gR"),
        ("e9", "gK"),
        ("a5", "bK"),
        ("a4", "bR"),
    ];
    let mut p = cross("los-alamos", &pieces, 'r', "");
    p.play("d5d3").unwrap();
    assert!(!p.is_out(3), "Blue survives Red's move");
    assert_eq!(p.to_move(), 1);
    // Orange moves; now Green is next and could capture: Blue is out.
    p.play("i4h4").unwrap();
    assert!(p.is_out(3), "Blue is checkmated once Green is next");
    assert!(p.army_cells(3).is_empty());
    assert_eq!(p.to_move(), 2);
}

#[test]
fn camps_limit_attacks_too() {
    // An Orange Knight on g5 is a Knight's jump from Green's King on f7,
    // but the jump would go from Orange's camp to Green's: no capture, so
    // no elimination when Orange is next.
    let pieces = [
        ("e1", "rK"),
        ("i5", "oK"),
        ("g5", "oN"),
        ("f7", "gK"),
        ("a5", "bK"),
        ("d2", "rR"),
    ];
    let mut p = cross("los-alamos", &pieces, 'r', "");
    p.play("d2d3").unwrap();
    assert!(!p.is_out(2));
    // An Orange Rook on g7? There is no g7: the board is a cross. Put it on
    // f5 instead (centre): now the King on f7 is capturable (f5-f6-f7).
    let pieces = [
        ("e1", "rK"),
        ("i5", "oK"),
        ("f5", "oR"),
        ("f7", "gK"),
        ("a4", "bK"),
        ("d2", "rR"),
    ];
    let mut p = cross("los-alamos", &pieces, 'r', "");
    p.play("d2d3").unwrap();
    assert!(p.is_out(2));
}

#[test]
fn a_kingless_army_captured_to_the_last_piece_is_out() {
    // Electra: no Kings. Red's Rook takes Blue's last piece on d6.
    let pieces = [
        ("d1", "rR"),
        ("d3", "rR"),
        ("i5", "oN"),
        ("e9", "gN"),
        ("d6", "bN"),
    ];
    let mut p = cross("electra", &pieces, 'r', "");
    assert!(p.outcome().is_none());
    p.play("d3d6").unwrap();
    assert!(p.is_out(3), "Blue has no piece left");
    assert_eq!(p.to_move(), 1);
}

#[test]
fn a_player_with_no_legal_move_is_out() {
    // Blue's King on a4 (a corner of its camp) has a5, b4 and b5; Red's
    // Rooks on a6 and b6 cover all three and the King is attacked through
    // a5. Blue has no legal move: it drops out and its army leaves.
    let pieces = [
        ("e1", "rK"),
        ("a6", "rR"),
        ("b6", "rR"),
        ("i5", "oK"),
        ("e9", "gK"),
        ("a4", "bK"),
        ("d6", "bN"),
    ];
    let mut p = cross("los-alamos", &pieces, 'b', "");
    // The Knight cannot help: d6 is attacked by nothing, but no Knight move
    // covers a5, b4 and b5 at once and the King stays capturable.
    assert_all_moves(&mut p, &["out"]);
    p.play("out").unwrap();
    assert!(p.is_out(3));
    assert!(p.army_cells(3).is_empty());
    assert_eq!(p.to_move(), 0);
}

#[test]
fn the_last_player_standing_wins_and_the_others_rank_by_going_out() {
    // Orange went out first, then Green. Red mates Blue: Rook g5-a5 over
    // the centre, covered by the Knight on c4, while the Rook on b6 holds
    // b4 and b5. Blue drops out; Red wins, Blue is second, Green third,
    // Orange fourth.
    let pieces = [
        ("e1", "rK"),
        ("g5", "rR"),
        ("b6", "rR"),
        ("c4", "rN"),
        ("a4", "bK"),
    ];
    let mut p = cross("los-alamos", &pieces, 'r', "og");
    assert_eq!(p.outcome(), None);
    p.play("g5a5").unwrap();
    assert_eq!(p.to_move(), 3);
    assert_all_moves(&mut p, &["out"]);
    p.play("out").unwrap();
    assert_eq!(legal(&mut p), Vec::<String>::new());
    let o = p.outcome().expect("game over");
    assert_eq!(o.reason, EndReason::LastArmy);
    assert_eq!(o.ranking, vec![vec![0], vec![3], vec![2], vec![1]]);
}

#[test]
fn position_strings_round_trip() {
    for name in [
        "ariana",
        "diana",
        "electra",
        "los-alamos",
        "minerva",
        "sylvia",
    ] {
        let p = embedded::variant(name).unwrap().start();
        let s = p.to_string();
        assert_eq!(common::pos(name, &s).to_string(), s);
    }
    let s = "3/3/3/2bK6/9/2rR6/3/3/rK2 r - - 0 1 out=og";
    assert_eq!(common::pos("los-alamos", s).to_string(), s);
}

// The checkmate ruling (rules/README.md): after a move, every King the
// player now to move could capture is checkmated; armies leaving can open
// lines, so the test repeats; a move is illegal if the mover's King is
// capturable at any step.

#[test]
fn a_checkmate_uncovers_the_next_king() {
    // Ariana. Orange's King steps i5i6; Green is next. Green's Rook e9
    // sees Red's King e6: Red is checkmated and its army leaves. Then the
    // Rook sees on through e5 to Blue's King e4: Blue is checkmated too,
    // one step later. Green is to move, with Red and Blue out.
    let mut p = common::pos("ariana", "1gRgK/3/3/4rK4/8oK/4bK4/3/3/3 o - - 0 1");
    p.play("i5i6").unwrap();
    assert_eq!(p.out_order(), [0, 3]);
    assert_eq!(p.to_move(), 2);
    assert!(p.army_cells(0).is_empty() && p.army_cells(3).is_empty());
    assert_eq!(p.to_string(), "1gRgK/3/3/8oK/9/9/3/3/3 g - - 0 1 out=rb");
    // Taking the move back restores both armies and the players.
    p.unmake();
    assert_eq!(p.to_string(), "1gRgK/3/3/4rK4/8oK/4bK4/3/3/3 o - - 0 1");
}

#[test]
fn a_move_may_not_expose_ones_king_through_a_checkmate() {
    // Ariana. Whatever Orange plays, Green's Rook e9 checkmates Red's King
    // e6, and Red's Bishop g4 leaves with its army. Then Green's Queen d4
    // sees along rank 4 to whatever stands on h4 or i4: Orange's King may
    // not stay on rank 4 (i4h4 and the Pawn's g5f5 are illegal), only
    // step off it.
    let mut p = common::pos("ariana", "1gRgK/3/3/4rK4/bK5oP2/3gQ2rB1oK/3/3/3 o - - 0 1");
    assert_all_moves(&mut p, &["i4i5", "i4h5"]);
    assert!(p.play("i4h4").is_err());
}

#[test]
fn a_checkmate_may_expose_the_mover_on_another_line() {
    // Sylvia, Blue out. Green's Queen e5 sees Red's King e1 down the
    // e-file: unless Orange blocks it, Red is checkmated and its Knight h5
    // leaves, opening rank 5 from the Queen to Orange's King i5. Legal:
    // block the e-file (Rook i4e4, Bishop h6e3), block rank 5 (Bishop
    // h6g5) or step off it (King i5h4). h6d2 takes a Bishop but blocks
    // nothing: illegal.
    let fen = "gRgKgR/2gB/gN2/7oBoR/4gQ2rNoK/1gB1rN4oR/3/rB1rB/rRrKrR o - - 0 1 out=b";
    let mut p = common::pos("sylvia", fen);
    assert_all_moves(&mut p, &["i4e4", "h6e3", "h6g5", "i5h4"]);
    assert!(p.play("h6d2").is_err());
    assert_eq!(p.to_string(), fen, "a refused move changes nothing");
    // Blocking the e-file: nobody is checkmated.
    p.play("h6e3").unwrap();
    assert!(p.out_order() == [3]);
    assert_eq!(p.to_move(), 2);
}
