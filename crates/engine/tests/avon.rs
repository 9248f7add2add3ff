//! Avon (rules/avon.md): perft from the start and a hand-built position for
//! every rule: own half, the d/e boundary, royalty on one's half, forward
//! by player, Pawn to Wazir at the River, dropping out with the mass
//! promotion, and the end of the game with its ranking.
//!
//! Players, in turn order: `w` White 0-4, `b` Black 5-9, `x` White 5-9,
//! `y` Black 0-4. Upper case is the White army, lower case Black.

mod common;

use common::{assert_all_moves, assert_moves, legal, play_all};
use quadrille_engine::{embedded, EndReason, Position};

/// An Avon position from (cell, piece) pairs, the player to move and the
/// players already out (in the order they went out).
fn avon(pieces: &[(&str, char)], to_move: char, out: &str) -> Position {
    let pieces: Vec<(&str, String)> = pieces.iter().map(|&(c, p)| (c, p.to_string())).collect();
    let fen = common::board_fen((8, 10, 0), |_, _| true, &pieces, to_move, out);
    common::pos("avon", &fen)
}

/// Royal pieces that keep every player legal unless a test says otherwise:
/// a White Queen on the low half (for `w`), a White Prince on the high half
/// (for `x`), Black Princes on both halves (for `b` and `y`).
const ROYALS: [(&str, char); 4] = [("h0", 'Q'), ("a9", 'K'), ("a0", 'k'), ("h9", 'k')];

fn with_royals(extra: &[(&'static str, char)]) -> Vec<(&'static str, char)> {
    ROYALS.iter().chain(extra).copied().collect()
}

#[test]
fn start_perft_to_depth_4() {
    let mut p = embedded::variant("avon").unwrap().start();
    // Depth 1, by hand. White 0-4 moves the White pieces on e-h, ranks 0-2
    // (its Bath half); the White pieces on a-d, ranks 7-9 cannot reach the
    // low half in one move, so home_moves forbids them all.
    // - Pawns e2-h2: one step forward each (e3 f3 g3 h3); no diagonal
    //   capture (d3 and the f-h cells of rank 3 are empty).  4
    // - Caryatids e1, h1: forward slide blocked by e2/h2; forward diagonal
    //   steps: e1-d2 would capture a Black Pawn but crosses the d/e line
    //   with e1 outside ranks 2-7; e1-f2, h1-g2 are own pieces.  0
    // - Abbots f1, g1: every forward cell (e2 f2 g2 h2) is own.  0
    // - Marshal e0: rook lines blocked (d0 is Black, e1 own, f0 own) - d0
    //   would be a capture but crosses the line with both ends on rank 0;
    //   knight jumps c1 (Black, crossing from rank 0), d2 (Black,
    //   crossing from rank 0), f2 and g1 (own).  0
    // - Marshal h0: g0 and h1 own; knight jumps f1, g2 own.  0
    // - Queen f0, Princess g0: every neighbour is own.  0
    // Total 4. By symmetry each player's first move is one of its four
    // Pawn steps.
    assert_eq!(legal(&mut p), ["e2e3", "f2f3", "g2g3", "h2h3"]);
    let counts: Vec<u64> = (1..=4).map(|d| p.perft(d)).collect();
    // Depth 2: Black 5-9 answers with its own four Pawn steps (4 * 4).
    // Depth 3: White 5-9 has four Pawn steps and the Carpenters a8-a6,
    // a8-b6, d8-c6, d8-d6 (d8-e6/f7/f8 cross the line from rank 8), plus
    // d7xe6 after ...e7-e6 (both ends on ranks 2-7): 16 * 8 + 4 = 132.
    assert_eq!(counts, [4, 16, 132, 1089]);
}

#[test]
fn own_half_while_both_teammates_play() {
    // A White Marshal on a6 (the high half).
    let pieces = with_royals(&[("a6", 'M')]);
    // White 0-4 may only move it to the low half: down the a-file and the
    // knight jump to b4.
    let mut p = avon(&pieces, 'w', "");
    assert_moves(
        &mut p,
        "a6",
        &["a6a0", "a6a1", "a6a2", "a6a3", "a6a4", "a6b4"],
    );
    // White 5-9 moves it anywhere: the move starts on its half. The rank
    // crosses the d/e line on rank 6, inside ranks 2-7.
    let mut p = avon(&pieces, 'x', "");
    assert_moves(
        &mut p,
        "a6",
        &[
            "a6a0", "a6a1", "a6a2", "a6a3", "a6a4", "a6a5", "a6a7", "a6a8", "a6b4", "a6b6", "a6b8",
            "a6c5", "a6c6", "a6c7", "a6d6", "a6e6", "a6f6", "a6g6", "a6h6",
        ],
    );
    // Once White 5-9 is out, White 0-4 has total control.
    let mut p = avon(&pieces, 'w', "x");
    assert_moves(
        &mut p,
        "a6",
        &[
            "a6a0", "a6a1", "a6a2", "a6a3", "a6a4", "a6a5", "a6a7", "a6a8", "a6b4", "a6b6", "a6b8",
            "a6c5", "a6c6", "a6c7", "a6d6", "a6e6", "a6f6", "a6g6", "a6h6",
        ],
    );
}

#[test]
fn boundary_examples_from_the_page() {
    // c1-f4 passes d2 and e3, both on ranks 2-7: legal, and so are g5, h6.
    // c0-f3 passes d1 and e2: nothing on the d side within ranks 2-7, so
    // the whole diagonal beyond d1 is closed.
    let mut p = avon(&with_royals(&[("c1", 'B'), ("c0", 'B')]), 'w', "");
    assert_moves(
        &mut p,
        "c1",
        &[
            "c1a3", "c1b0", "c1b2", "c1d0", "c1d2", "c1e3", "c1f4", "c1g5", "c1h6",
        ],
    );
    assert_moves(&mut p, "c0", &["c0a2", "c0b1", "c0d1"]);
}

#[test]
fn boundary_for_leapers_uses_both_ends() {
    // A Carpenter (ND) on d2: crossing jumps land on e4, f3 (ranks 2-7)
    // and f2 (the two-cell jump); e0 and f1 are outside ranks 2-7.
    let mut p = avon(&with_royals(&[("d2", 'A')]), 'w', "");
    assert_moves(
        &mut p,
        "d2",
        &[
            "d2b1", "d2b2", "d2b3", "d2c0", "d2c4", "d2d0", "d2d4", "d2e4", "d2f2", "d2f3",
        ],
    );
    // On d1 its own end is outside ranks 2-7: no crossing at all.
    let mut p = avon(&with_royals(&[("d1", 'A')]), 'w', "");
    assert_moves(&mut p, "d1", &["d1b0", "d1b1", "d1b2", "d1c3", "d1d3"]);
    // White 5-9's Carpenter on d7: e5 and f6 cross inside ranks 2-7, e9
    // and f8 do not.
    let mut p = avon(&with_royals(&[("d7", 'A')]), 'x', "");
    assert_moves(
        &mut p,
        "d7",
        &[
            "d7b6", "d7b7", "d7b8", "d7c5", "d7c9", "d7d5", "d7d9", "d7e5", "d7f6", "d7f7",
        ],
    );
}

#[test]
fn forward_is_the_movers_direction() {
    // A White Caryatid (fRfF) on e3. White 0-4 moves it north, across the
    // River (the move starts on its half).
    let pieces = with_royals(&[("e3", 'Y')]);
    let mut p = avon(&pieces, 'w', "");
    assert_moves(
        &mut p,
        "e3",
        &[
            "e3d4", "e3e4", "e3e5", "e3e6", "e3e7", "e3e8", "e3e9", "e3f4",
        ],
    );
    // After e3-e6 White 0-4 can no longer move it (it can only go further
    // north, off its half); White 5-9 moves it south, back over the River.
    play_all(&mut p, &["e3e6", "h9h8"]);
    assert_eq!(p.to_move(), 2, "White 5-9 to move");
    assert_moves(
        &mut p,
        "e6",
        &[
            "e6d5", "e6e0", "e6e1", "e6e2", "e6e3", "e6e4", "e6e5", "e6f5",
        ],
    );
    play_all(&mut p, &["a9b9", "a0b0"]);
    assert_eq!(p.to_move(), 0);
    assert_moves(&mut p, "e6", &[]);
}

#[test]
fn pawn_becomes_a_wazir_on_crossing_the_river() {
    // White 0-4's Pawn on e4 steps to e5 and must become a Wazir; Black
    // 0-4's Pawn on a4 (moving north too) likewise.
    let mut p = avon(&with_royals(&[("e4", 'P'), ("a4", 'p')]), 'w', "");
    assert_moves(&mut p, "e4", &["e4e5w"]);
    let mut p = avon(&with_royals(&[("e4", 'P'), ("a4", 'p')]), 'y', "");
    assert_moves(&mut p, "a4", &["a4a5w"]);
    // White 5-9's Pawn on c5 moves south and becomes a Wazir on c4; the
    // Wazir then moves in all four directions.
    let mut p = avon(&with_royals(&[("c5", 'P')]), 'x', "");
    assert_moves(&mut p, "c5", &["c5c4w"]);
    p.play("c5c4w").unwrap();
    assert_eq!(
        p.piece_at(p.variant().geometry.parse_cell("c4").unwrap())
            .unwrap()
            .kind,
        11
    );
}

#[test]
fn royalty_only_on_the_other_half() {
    // White's only royal piece is a Queen on e6 (the high half). White 0-4
    // must bring it to its half this move: every other move is illegal,
    // and so are the Queen's moves that stay on the high half.
    let pieces = [("e6", 'Q'), ("h2", 'P'), ("a0", 'k'), ("h9", 'k')];
    let mut p = avon(&pieces, 'w', "");
    assert_all_moves(
        &mut p,
        &[
            "e6a2", "e6b3", "e6c4", "e6e0", "e6e1", "e6e2", "e6e3", "e6e4", "e6g4", "e6h3",
        ],
    );
}

#[test]
fn a_move_may_not_take_the_last_royal_off_ones_half() {
    // The White Queen on h0 is White 0-4's only royal piece on its half:
    // it may not cross the River (h5 and beyond, c5 on the diagonal).
    // Along rank 0 it stops at e0: d0 would cross the d/e line on rank 0.
    let mut p = avon(&with_royals(&[]), 'w', "");
    assert_moves(
        &mut p,
        "h0",
        &[
            "h0e0", "h0f0", "h0g0", "h0h1", "h0h2", "h0h3", "h0h4", "h0g1", "h0f2", "h0e3", "h0d4",
        ],
    );
    // With a second royal piece (a Prince on b1) it may cross.
    let mut p = avon(&with_royals(&[("b1", 'K')]), 'w', "");
    let moves = common::moves_from(&mut p, "h0");
    assert!(moves.contains(&"h0h9".to_string()) || moves.contains(&"h0h8".to_string()));
    assert!(moves.contains(&"h0h5".to_string()));
}

#[test]
fn dropping_out_with_the_mass_promotion() {
    // Black 0-4 to move. Black's only royal piece, a Prince on h9, is on
    // the high half and cannot reach the low half in one step, so Black
    // 0-4 has no legal move and drops out.
    let pieces = [
        ("h0", 'Q'),
        ("a9", 'K'),
        ("h9", 'k'),
        ("g8", 's'),
        ("e7", 'y'),
        ("f7", 'x'),
        ("c8", 'b'),
        ("b7", 'p'),
        ("a1", 'p'),
    ];
    let mut p = avon(&pieces, 'y', "");
    assert_all_moves(&mut p, &["out"]);
    p.play("out").unwrap();
    // Black 5-9 takes the whole army: Princess to Queen, Caryatid to
    // Chatelaine, Abbot and Bishop to Primate, Pawns to Wazirs.
    assert_eq!(
        p.to_string(),
        "K6k/2t3q1/1w2ct2/8/8/8/8/8/w7/7Q w - - 0 2 out=y"
    );
    // White 0-4 moves, then Black 5-9 - free of the own-half rule - may
    // bring the Chatelaine down to the low half; its royal Prince stays on
    // its own half, so that is legal.
    play_all(&mut p, &["h0h1"]);
    assert_eq!(p.to_move(), 1);
    let moves = common::moves_from(&mut p, "e7");
    for m in ["e7e0", "e7e1", "e7e6", "e7d6", "e7f6"] {
        assert!(moves.contains(&m.to_string()), "{m} in {moves:?}");
    }
    // Dropping out is only forced: nobody may drop out with a move left.
    assert!(p.play("out").is_err());
    // Taking the move back restores the army.
    let mut q = avon(&pieces, 'y', "");
    let before = q.to_string();
    q.play("out").unwrap();
    q.unmake();
    assert_eq!(q.to_string(), before);
}

#[test]
fn end_of_game_and_ranking() {
    // Black 0-4 already dropped out. White 0-4 captures Black's last royal
    // piece; Black 5-9 then has no legal move and drops out, which ends
    // the game: White 0-4 (whose move ended it) first, White 5-9 second,
    // Black 5-9 third, Black 0-4 (first out) fourth.
    let pieces = [
        ("h1", 'Q'),
        ("a0", 'K'),
        ("a9", 'K'),
        ("h9", 'k'),
        ("b8", 'p'),
    ];
    let mut p = avon(&pieces, 'w', "y");
    assert_eq!(p.outcome(), None);
    p.play("h1h9").unwrap();
    assert_eq!(p.to_move(), 1);
    assert_all_moves(&mut p, &["out"]);
    assert_eq!(p.outcome(), None, "the drop-out is still to be made");
    p.play("out").unwrap();
    assert_eq!(legal(&mut p), Vec::<String>::new());
    let o = p.outcome().expect("game over");
    assert_eq!(o.reason, EndReason::LastArmy);
    assert_eq!(o.ranking, vec![vec![0], vec![2], vec![1], vec![3]]);
}

#[test]
fn no_progress_is_a_team_draw() {
    // 50 moves per player still in the game without capture or Pawn move:
    // with White 5-9 out that is 150 plies. Black 0-4 shares the draw with
    // its partner; White 5-9, whose army is still in, shares it too.
    let fen = "K6k/8/8/8/8/8/8/8/8/k6Q w - - 150 90 out=x";
    let p = common::pos("avon", fen);
    let o = p.outcome().expect("drawn");
    assert_eq!(o.reason, EndReason::NoProgress);
    assert_eq!(o.ranking, vec![vec![0, 1, 2, 3]]);
    let fen = "K6k/8/8/8/8/8/8/8/8/k6Q w - - 149 90 out=x";
    assert_eq!(common::pos("avon", fen).outcome(), None);
}

#[test]
fn position_strings_round_trip_with_players_out() {
    for fen in [
        "MKKMmqsm/ABBAyxxy/PPPPpppp/8/8/8/8/ppppPPPP/abbaYXXY/mkkmMQSM w - - 0 1",
        "K6k/2t3q1/1w2ct2/8/8/8/8/8/w7/7Q x - - 3 7 out=y",
        "K6k/8/8/8/8/8/8/8/8/k6Q b - - 0 1 out=yx",
    ] {
        assert_eq!(common::pos("avon", fen).to_string(), fen);
    }
}
