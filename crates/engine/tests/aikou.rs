//! The six Pass games (rules/pass-aikou.md): perft from the starts, the
//! depth-1 count of Xiang Aikou by piece, and a hand-built position for
//! every rule the issue lists, with the legal moves written out: the
//! Elephant's ten cells, far and near River sections, running jumps, the
//! fortress, facing Generals, the lame Horse, the Cannon, the Pawns'
//! directions by quarter, the Yang King's swap and promotion, the end of
//! the game with its winner and series scores; and broken values of the
//! new rule modules' keys, refused with the key named.
//!
//! Players in turn order: `r` Red (corner a1), `o` Orange (j1), `g` Green
//! (j10), `b` Blue (a10). Rivers between ranks 5|6 and files e|f, meeting
//! at the Pass; Red's far sections are east (f-j, 5|6) and north (e|f,
//! 6-10).

mod common;

use common::{assert_all_moves, assert_moves, mover_letter, square_fen};
use quadrille_engine::{embedded, EndReason, Position};
use std::collections::{BTreeMap, BTreeSet};

/// A 10x10 position of `variant` from (cell, piece) pairs.
fn pos(variant: &str, pieces: &[(&str, &str)], to_move: char, out: &str) -> Position {
    common::pos(variant, &square_fen(10, pieces, to_move, out))
}

/// Xiang Aikou's Generals, in their fortresses and facing nobody.
const GENERALS: [(&str, &str); 4] = [("a1", "rG"), ("i2", "oG"), ("h9", "gG"), ("c8", "bG")];

/// The Kings of the FIDE-piece games, out of the way.
const KINGS: [(&str, &str); 4] = [("a1", "rK"), ("i1", "oK"), ("j10", "gK"), ("a9", "bK")];

fn with<'a>(base: &[(&'a str, &'a str)], extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    base.iter().chain(extra).copied().collect()
}

#[test]
fn xiang_depth_1_by_piece() {
    // Red's array: General a1; Advisors b1 a2; Elephants c1 a3; Horses d1
    // a4; Chariots e1 a5; Cannons d3 c4; Soldiers c5 d5 e5 e4 e3.
    // - General: b1 and a2 hold its Advisors: 0.
    // - Advisors: b1-c2 and a2-b3 (a2-b1 and b1-a2 are own): 2.
    // - Elephants: c1 reaches a3 and e3, a3 reaches c1 and c5, all own: 0.
    // - Horses: d1-c3 (the leg d2 is empty; d1-e3 lands on a Soldier,
    //   d1-b2 and d1-f2 are lamed by c1 and e1) and a4-c3 (leg b4; a4-c5
    //   is own, a4-b6 and a4-b2 are lamed by a5 and a3): 2.
    // - Chariots: e1-e2 and e1xf1 (Orange's Chariot across the south
    //   River section), a5-b5 and a5xa6 (Blue's across the west): 4.
    // - Cannons: d3 slides to d4, d2, c3, b3 and hops d5 to take d6 and e3
    //   to take f3; c4 slides to c3, c2, d4, b4 and hops c5 to take c6 and
    //   e4 to take f4: 12.
    // - Soldiers: c5 and d5 (rank above file: north) take c6 and d6; e5
    //   (the long diagonal: either way) takes e6 and f5; e4 and e3 (file
    //   above rank: east) take f4 and f3: 6.
    // 0 + 2 + 0 + 2 + 4 + 12 + 6 = 26.
    let mut p = embedded::variant("xiang-aikou").unwrap().start();
    let mut by_piece: BTreeMap<char, usize> = BTreeMap::new();
    for &m in p.legal_moves().iter() {
        *by_piece.entry(mover_letter(&p, m)).or_default() += 1;
    }
    let want: BTreeMap<char, usize> = [('A', 2), ('H', 2), ('R', 4), ('C', 12), ('S', 6)].into();
    assert_eq!(by_piece, want);
    assert_all_moves(
        &mut p,
        &[
            "a2b3", "b1c2", "a4c3", "d1c3", "a5a6", "a5b5", "e1e2", "e1f1", "c4b4", "c4c2", "c4c3",
            "c4c6", "c4d4", "c4f4", "d3b3", "d3c3", "d3d2", "d3d4", "d3d6", "d3f3", "c5c6", "d5d6",
            "e3f3", "e4f4", "e5e6", "e5f5",
        ],
    );
}

/// The destinations of the piece on `from` (the moves' second cells).
fn destinations(p: &mut Position, from: &str) -> BTreeSet<String> {
    common::moves_from(p, from)
        .into_iter()
        .map(|m| m[from.len()..].to_string())
        .collect()
}

#[test]
fn the_elephant_reaches_exactly_ten_cells() {
    // A Red Elephant alone with the Generals, moved again and again from
    // c1: a (2,2) leap keeps the cell's colour in two ways, which leaves
    // 13 cells of the board's 100; the far sections (east, north) keep it
    // out of Green's quarter: a3 c1 c5 e3 in Red's, g1 i3 g5 in Orange's,
    // a7 c9 e7 in Blue's.
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut todo = vec!["c1".to_string()];
    while let Some(c) = todo.pop() {
        if !seen.insert(c.clone()) {
            continue;
        }
        let mut p = pos("xiang-aikou", &with(&GENERALS, &[(&c, "rE")]), 'r', "");
        todo.extend(destinations(&mut p, &c));
    }
    let want: BTreeSet<String> = ["a3", "c1", "c5", "e3", "g1", "i3", "g5", "a7", "c9", "e7"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(seen, want);
}

#[test]
fn far_river_sections_are_refused_near_ones_allowed() {
    // Red's Elephant on g5 (Orange's quarter): back over the south section
    // (near) to e3, within the quarter to i3; not over the north and east
    // sections to e7, nor over the east to i7.
    let mut p = pos("xiang-aikou", &with(&GENERALS, &[("g5", "rE")]), 'r', "");
    assert_moves(&mut p, "g5", &["g5e3", "g5i3"]);
    // From d4: over the west (b6) and south (f2) sections, near; d4-f6
    // crosses at the Pass, which counts as crossing the far sections.
    let mut p = pos("xiang-aikou", &with(&GENERALS, &[("d4", "rE")]), 'r', "");
    assert_moves(&mut p, "d4", &["d4b2", "d4b6", "d4f2"]);
    // The same west section is far for Orange: its Elephant on c5 (Red's
    // quarter) may not cross it to a7 or e7.
    let mut p = pos("xiang-aikou", &with(&GENERALS, &[("c5", "oE")]), 'o', "");
    assert_moves(&mut p, "c5", &["c5a3", "c5e3"]);
}

#[test]
fn anglis_king_stays_out_of_the_opposite_quarter() {
    // On e5 the King crosses the west and south sections (near) but not
    // the Pass diagonally (e5-f6).
    let kings = [("e5", "rK"), ("i1", "oK"), ("j10", "gK"), ("a9", "bK")];
    let mut p = pos("anglis-aikou", &kings, 'r', "");
    assert_moves(
        &mut p,
        "e5",
        &["e5d4", "e5d5", "e5d6", "e5e4", "e5e6", "e5f4", "e5f5"],
    );
    // On f5 (Orange's quarter): not over the east section (f6, g6), nor
    // through the Pass (e6).
    let kings = [("f5", "rK"), ("i1", "oK"), ("j10", "gK"), ("a9", "bK")];
    let mut p = pos("anglis-aikou", &kings, 'r', "");
    assert_moves(&mut p, "f5", &["f5e4", "f5e5", "f5f4", "f5g4", "f5g5"]);
}

#[test]
fn a_bishop_crosses_a_far_section_only_by_a_running_jump() {
    // Red's Bishop on h3: its long diagonal runs through the Pass. h3-e6
    // crosses there and ends beside the north section: refused; d7, c8,
    // b9 and a10 are running jumps (neither end beside a far section).
    let mut p = pos("anglis-aikou", &with(&KINGS, &[("h3", "rB")]), 'r', "");
    assert_moves(
        &mut p,
        "h3",
        &[
            "h3a10", "h3b9", "h3c8", "h3d7", "h3f1", "h3f5", "h3g2", "h3g4", "h3i2", "h3i4",
            "h3j1", "h3j5",
        ],
    );
    // From g5, beside the east section, nothing may cross a far section:
    // f6 and h6 (over the east one) are refused; f4-e3 crosses the south
    // section, which is near.
    let mut p = pos("anglis-aikou", &with(&KINGS, &[("g5", "rB")]), 'r', "");
    assert_moves(
        &mut p,
        "g5",
        &["g5f4", "g5e3", "g5d2", "g5c1", "g5h4", "g5i3", "g5j2"],
    );
}

#[test]
fn a_general_may_not_leave_its_fortress() {
    // Red's General on c2, Advisor on c3; an Orange Soldier on e2 stands
    // between it and Orange's General on i2. d2 is outside the fortress
    // a1-c3; so are b4, d4 and d2 for the Advisor.
    let pieces = [
        ("c2", "rG"),
        ("c3", "rA"),
        ("e2", "oS"),
        ("i2", "oG"),
        ("h9", "gG"),
        ("c8", "bG"),
    ];
    let mut p = pos("xiang-aikou", &pieces, 'r', "");
    assert_moves(&mut p, "c2", &["c2b2", "c2c1"]);
    assert_moves(&mut p, "c3", &["c3b2"]);
}

#[test]
fn generals_may_not_face_each_other() {
    // Red's Horse on e2 alone separates Red's General b2 from Orange's i2
    // on rank 2. Orange moves next: every Horse move would leave the
    // Generals facing, which counts as Orange attacking Red's General.
    let pieces = [
        ("b2", "rG"),
        ("e2", "rH"),
        ("i2", "oG"),
        ("h10", "gG"),
        ("c8", "bG"),
    ];
    let mut p = pos("xiang-aikou", &pieces, 'r', "");
    assert_moves(&mut p, "e2", &[]);
    assert_moves(&mut p, "b2", &["b2a2", "b2b1", "b2b3", "b2c2"]);
    // Facing a player who is not next is no threat yet: the Horse on b5
    // between Red's General b2 and Blue's b9 may go anywhere.
    let pieces = [
        ("b2", "rG"),
        ("b5", "rH"),
        ("i3", "oG"),
        ("h10", "gG"),
        ("b9", "bG"),
    ];
    let mut p = pos("xiang-aikou", &pieces, 'r', "");
    assert_moves(
        &mut p,
        "b5",
        &["b5a3", "b5a7", "b5c3", "b5c7", "b5d4", "b5d6"],
    );
}

#[test]
fn a_general_faced_by_the_next_player_is_checkmated() {
    // Red's Chariot on i5 separates Orange's General i2 from Green's i9.
    // Red moves it away: Orange, next, faces Green's General, which counts
    // as an attack, so Green is checkmated and its army leaves.
    let pieces = [
        ("a1", "rG"),
        ("i5", "rR"),
        ("i2", "oG"),
        ("i9", "gG"),
        ("h8", "gA"),
        ("c8", "bG"),
    ];
    let mut p = pos("xiang-aikou", &pieces, 'r', "");
    p.play("i5h5").unwrap();
    assert!(p.is_out(2), "{p}");
    assert!(p.army_cells(2).is_empty());
    assert_eq!(p.to_move(), 1);
}

#[test]
fn a_lame_horse() {
    // Red's Horse on d4 with its own Soldiers on d5 and e4: the leaps
    // through d5 (c6, e6) and e4 (f5, f3) are blocked; those through c4
    // and d3 are open.
    let pieces = with(&GENERALS, &[("d4", "rH"), ("d5", "rS"), ("e4", "rS")]);
    let mut p = pos("xiang-aikou", &pieces, 'r', "");
    assert_moves(&mut p, "d4", &["d4b3", "d4b5", "d4c2", "d4e2"]);
}

#[test]
fn a_cannon_captures_over_one_screen() {
    // Red's Cannon on d3: up the d-file over its Soldier d5 (the screen)
    // onto Green's Chariot d8; along rank 3 it slides to i3 but may not
    // take Orange's Soldier on j3 without a screen.
    let pieces = with(
        &GENERALS,
        &[("d3", "rC"), ("d5", "rS"), ("d8", "gR"), ("j3", "oS")],
    );
    let mut p = pos("xiang-aikou", &pieces, 'r', "");
    assert_moves(
        &mut p,
        "d3",
        &[
            "d3a3", "d3b3", "d3c3", "d3d1", "d3d2", "d3d4", "d3d8", "d3e3", "d3f3", "d3g3", "d3h3",
            "d3i3",
        ],
    );
}

#[test]
fn a_diagonal_pawn_chooses_its_direction_and_keeps_it() {
    // On the long diagonal (c3) a Red Pawn steps north or east and has one
    // capture, along the diagonal toward Green's quarter: d4, not b4.
    let pieces = with(&KINGS, &[("c3", "rP"), ("b4", "bN"), ("d4", "oN")]);
    let mut p = pos("anglis-aikou", &pieces, 'r', "");
    assert_moves(&mut p, "c3", &["c3c4", "c3d3", "c3d4"]);
    // Having gone north (c4), it heads north: c5 and the captures b5, d5;
    // the Knight on d4 beside it is out of reach. It can never come back
    // to the diagonal, so nothing needs remembering.
    let pieces = with(&KINGS, &[("c4", "rP"), ("b5", "bN"), ("d4", "oN")]);
    let mut p = pos("anglis-aikou", &pieces, 'r', "");
    assert_moves(&mut p, "c4", &["c4b5", "c4c5"]);
    // Having gone east (d3): e3 and the captures e4, e2; not north.
    let pieces = with(&KINGS, &[("d3", "rP"), ("e4", "bN"), ("d4", "oN")]);
    let mut p = pos("anglis-aikou", &pieces, 'r', "");
    assert_moves(&mut p, "d3", &["d3e3", "d3e4"]);
    // The same in a game: c3-c4, the others move, and the Pawn on c4 still
    // heads north.
    let pieces = with(&KINGS, &[("c3", "rP"), ("d4", "oN")]);
    let mut p = pos("anglis-aikou", &pieces, 'r', "");
    common::play_all(&mut p, &["c3c4", "d4f5", "j10j9", "a9a8"]);
    assert_moves(&mut p, "c4", &["c4c5"]);
}

#[test]
fn sideways_moves_after_a_river() {
    // A Red Pawn on c6 (Blue's quarter, across the west section): north
    // to c7, sideways to d6 and onto Blue's Knight b6, diagonally onto
    // Orange's Knight d7.
    let pieces = with(&KINGS, &[("c6", "rP"), ("b6", "bN"), ("d7", "oN")]);
    let mut p = pos("anglis-aikou", &pieces, 'r', "");
    assert_moves(&mut p, "c6", &["c6b6", "c6c7", "c6d6", "c6d7"]);
    // An Orange Pawn in Green's quarter (across the east section) heads
    // north and steps east or west: the same rule turned.
    let pieces = with(&KINGS, &[("g7", "oP")]);
    let mut p = pos("anglis-aikou", &pieces, 'o', "");
    assert_moves(&mut p, "g7", &["g7f7", "g7g8", "g7h7"]);
    // A Xiang Soldier on g3 (Orange's quarter, across the south section):
    // east, and north or south along the River.
    let mut p = pos("xiang-aikou", &with(&GENERALS, &[("g3", "rS")]), 'r', "");
    assert_moves(&mut p, "g3", &["g3g2", "g3g4", "g3h3"]);
    // Yang Aikou has no River effects: no sideways step.
    let yang_kings = [("a1", "rK"), ("i1", "oK"), ("j10", "gK"), ("a9", "bK")];
    let pieces = with(&yang_kings, &[("c6", "rP"), ("b6", "bN"), ("d7", "oN")]);
    let mut p = pos("yang-aikou", &pieces, 'r', "");
    assert_moves(&mut p, "c6", &["c6c7", "c6d7"]);
}

#[test]
fn a_pawn_in_the_opposite_quarter_moves_as_a_wazir() {
    // A Red Pawn on h8 (Green's quarter): one step each way, moving or
    // capturing (Green's Knight h9), no diagonal capture (Orange's g9).
    let pieces = with(&KINGS, &[("h8", "rP"), ("h9", "gN"), ("g9", "oN")]);
    let mut p = pos("anglis-aikou", &pieces, 'r', "");
    assert_moves(&mut p, "h8", &["h8g8", "h8h7", "h8h9", "h8i8"]);
    // Back in a neighbouring quarter it moves as if it came from its own:
    // on e8 (Blue's) north, and east or west.
    let pieces = with(&KINGS, &[("e8", "rP")]);
    let mut p = pos("anglis-aikou", &pieces, 'r', "");
    assert_moves(&mut p, "e8", &["e8d8", "e8e9", "e8f8"]);
}

/// Yang Aikou: Red's King b2 among its Arrow a1, Knight c2, Bishop b3 and
/// Pawn c3.
const SWAP: [(&str, &str); 8] = [
    ("b2", "rK"),
    ("a1", "rA"),
    ("c2", "rN"),
    ("b3", "rB"),
    ("c3", "rP"),
    ("j1", "oK"),
    ("j10", "gK"),
    ("a10", "bK"),
];

#[test]
fn the_yang_king_swaps_with_a_neighbour_but_not_a_pawn() {
    // Steps to a2, a3, b1, c1; swaps with a1, c2 and b3, not with c3.
    let mut p = pos("yang-aikou", &SWAP, 'r', "");
    assert_moves(
        &mut p,
        "b2",
        &["b2a1", "b2a2", "b2a3", "b2b1", "b2b3", "b2c1", "b2c2"],
    );
    // A swap is written as the King's move and changes places.
    let before = p.to_string();
    p.play("b2a1").unwrap();
    assert_eq!(p.piece_at(cell(&p, "a1")).map(|x| x.kind), king(&p));
    let arrow = p.variant().piece_by_letter('A');
    assert_eq!(p.piece_at(cell(&p, "b2")).map(|x| x.kind), arrow);
    p.unmake();
    assert_eq!(p.to_string(), before);
    // Attacked by any player in the game (Green's Knight d3; Green is not
    // even next), the King may not swap; it still steps.
    let mut pieces = SWAP.to_vec();
    pieces.push(("d3", "gN"));
    let mut p = pos("yang-aikou", &pieces, 'r', "");
    assert_moves(&mut p, "b2", &["b2a2", "b2a3", "b2b1", "b2c1"]);
}

fn cell(p: &Position, name: &str) -> u8 {
    p.variant().geometry.parse_cell(name).unwrap()
}

fn king(p: &Position) -> Option<u8> {
    p.variant().piece_by_letter('K')
}

/// Yang Aikou: Red's whole army but its Pawns (nothing lost), a Pawn on
/// c9 one step from its far edge (rank 10), Blue's Knight on d10.
fn promotion_position(lose_a_rook: bool, to_move: char) -> Position {
    let mut pieces = vec![
        ("a1", "rK"),
        ("b1", "rA"),
        ("a2", "rA"),
        ("c1", "rB"),
        ("a3", "rB"),
        ("d1", "rN"),
        ("a4", "rN"),
        ("e1", "rR"),
        ("d2", "rC"),
        ("b4", "rC"),
        ("c9", "rP"),
        ("d10", "bN"),
        ("h3", "oK"),
        ("j8", "gK"),
        ("h10", "bK"),
    ];
    if !lose_a_rook {
        pieces.push(("a5", "rR"));
    }
    pos("yang-aikou", &pieces, to_move, "")
}

#[test]
fn yang_pawns_promote_only_to_a_captured_piece() {
    // Nothing lost: the Pawn may neither step onto its far edge nor
    // capture there.
    let mut p = promotion_position(false, 'r');
    assert_moves(&mut p, "c9", &[]);
    // A Rook lost: it steps or captures onto the edge and becomes a Rook.
    let mut p = promotion_position(true, 'r');
    assert_moves(&mut p, "c9", &["c9c10r", "c9d10r"]);
    // The same holds for what the Pawn threatens: with nothing lost it
    // does not attack d10 (Blue's Knight there is safe from it).
    let p = promotion_position(false, 'b');
    let d10 = cell(&p, "d10");
    assert!(!p.is_attacked_by(d10, 0));
    let p = promotion_position(true, 'b');
    assert!(p.is_attacked_by(d10, 0));
}

#[test]
fn the_winner_delivered_the_last_checkmate() {
    // Blue is out. Red's Knight j7 shields Green's King j10 from Orange's
    // Rook j5. Red moves it: Orange, next, could take Green's King, so
    // Green is checkmated; two players are left and the game ends.
    let pieces = [
        ("a1", "rK"),
        ("j7", "rN"),
        ("i1", "oK"),
        ("j5", "oR"),
        ("j10", "gK"),
    ];
    let mut p = pos("anglis-aikou", &pieces, 'r', "b");
    assert_eq!(p.outcome(), None);
    p.play("j7h6").unwrap();
    assert!(p.is_out(2));
    assert_all_moves(&mut p, &[]);
    let o = p.outcome().expect("two players left: game over");
    assert_eq!(o.reason, EndReason::PlayersLeft);
    // Orange delivered the checkmate; Red survives; Green went out after
    // Blue.
    assert_eq!(o.ranking, vec![vec![1], vec![0], vec![2], vec![3]]);
    // Series: the winner 3, the other survivor 2 (one other player left),
    // Green 3 - 2 = 1, Blue 3 - 3 = 0.
    assert_eq!(p.series_scores(), Some(vec![2, 3, 1, 0]));
}

#[test]
fn series_scores_only_where_the_variant_keeps_them() {
    let p = common::pos("los-alamos", "3/3/3/2bK6/9/2rR6/3/3/rK2 r - - 0 1 out=og");
    assert!(p.outcome().is_none());
    assert_eq!(p.series_scores(), None);
    let p = embedded::variant("xiang-aikou").unwrap().start();
    assert_eq!(p.series_scores(), None, "the game goes on");
}

#[test]
fn position_strings_round_trip() {
    for name in common::aikou_ref::GAMES.iter().map(|g| g.name) {
        let p = embedded::variant(name).unwrap().start();
        let s = p.to_string();
        assert_eq!(common::pos(name, &s).to_string(), s);
    }
}

/// The text of an embedded variant file.
fn file(name: &str) -> &'static str {
    quadrille_engine::variant::embedded::FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
        .unwrap()
}

#[test]
fn broken_pass_rule_modules_are_named() {
    // (file, text replaced, replacement, the key the error names, a part
    // of its message)
    let cases: &[(&str, &str, &str, &str, &str)] = &[
        (
            "xiang-aikou",
            r#"betza = "frW", forward = "north""#,
            r#"betza = "fR", forward = "north""#,
            "rules.region_moves[0].moves[2].betza",
            "region moves must be leaps",
        ),
        (
            "xiang-aikou",
            r#"cells = "red_east", betza = "fW", forward = "east""#,
            r#"cells = "red_east", betza = "fW", forward = "up""#,
            "rules.region_moves[0].moves[1].forward",
            "north, east, south or west",
        ),
        (
            "xiang-aikou",
            r#"cells = "red_east", betza = "fW""#,
            r#"cells = "red_east red_north", betza = "fW""#,
            "rules.region_moves[0].moves[1].cells",
            "already has region moves",
        ),
        (
            "xiang-aikou",
            r#"pieces = "S"
player = "Red""#,
            r#"pieces = "SR"
player = "Red""#,
            "rules.region_moves[0].pieces",
            "only leapers may move by region",
        ),
        (
            "xiang-aikou",
            r#"Red = "east north""#,
            r#"Red = "east nord""#,
            "rules.rivers.far.Red",
            "no section named `nord`",
        ),
        (
            "xiang-aikou",
            r#"sides = ["a5-e5", "a6-e6"]"#,
            r#"sides = ["a5-e5", "a7-e7"]"#,
            "rules.rivers.sections",
            "section `west`",
        ),
        (
            "xiang-aikou",
            r#"facing = { pieces = "G", betza = "R" }"#,
            r#"facing = { pieces = "G", betza = "W" }"#,
            "rules.facing.betza",
            "unlimited riders",
        ),
        (
            "xiang-aikou",
            r#"facing = { pieces = "G", betza = "R" }"#,
            r#"facing = { pieces = "G", betza = "fR" }"#,
            "rules.facing.betza",
            "without direction modifiers",
        ),
        (
            "yang-aikou",
            r#"with = "ABNRC""#,
            r#"with = "ABNRCX""#,
            "rules.swap.with",
            "no piece with letter `X`",
        ),
        (
            "yang-aikou",
            r#"swap = { pieces = "K","#,
            r#"swap = { betza = "Q", pieces = "K","#,
            "rules.swap.betza",
            "plain leap",
        ),
        (
            "yang-aikou",
            "players_left = 2",
            "players_left = 4",
            "rules.players_left",
            "must be 1 to 3",
        ),
        (
            "yang-aikou",
            r#"winner = "to_move""#,
            r#"winner = "checkmate""#,
            "rules.winner",
            "expected last_mover or to_move",
        ),
    ];
    for &(name, from, to, key, message) in cases {
        let text = file(name);
        assert!(text.contains(from), "{name}: `{from}`");
        let e = quadrille_engine::Variant::from_toml(&text.replacen(from, to, 1)).expect_err(to);
        assert_eq!(e.location, key, "{to}: {e}");
        assert!(e.message.contains(message), "{to}: {e}");
    }
}

/// A Soldier in the opposite quarter steps back and forth (a Wazir there):
/// its moves reset the no-progress counter, yet threefold repetition still
/// ends the game (the scan for repeated positions stops only at a capture
/// or a player going out). Seen in a game between AIs in the web app.
#[test]
fn reversible_soldier_moves_still_repeat() {
    let v = embedded::variant("xiang-aikou").unwrap();
    let start = "10/1bGbA3oS3/1bA4bC3/3bR6/10/4oR5/5rR4/1rA8/1rGrA4oAoG1/6rE3 b - - 0 293 out=g";
    let mut p = Position::from_string(v, start).unwrap();
    let cycle = ["g8g6", "f4f6", "g9h9", "g6g8", "f6f4", "h9g9"];
    for round in 0..2 {
        for (i, m) in cycle.iter().enumerate() {
            assert_eq!(p.outcome(), None, "round {round}, before {m}");
            let mv = p.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
            p.make(mv);
            if i == 2 {
                // A Soldier moved: the counter starts again.
                assert_eq!(p.halfmove_clock(), 0);
            }
        }
    }
    assert_eq!(p.repetitions(), 2);
    assert_eq!(p.outcome().map(|o| o.reason), Some(EndReason::Repetition));
}

// The checkmate ruling (rules/README.md): the test repeats while armies
// leaving uncover Kings; a move is illegal if the mover's King is
// capturable at any step; players checkmated in one step share a place.

#[test]
fn a_leaving_army_takes_away_a_cannon_screen() {
    // Orange to move (Green out), Blue next. Blue's Pawn i7 takes toward
    // the east in Green's quarter, so it could capture Red's King j6
    // whatever Orange does: Red is checkmated and its army leaves, its
    // Cannon h7 included. Blue's Cannon h8 then has exactly one screen
    // (its own Bishop h6) on the h-file down to Orange's King h1: Orange
    // may not leave its King there, nor take the Bishop (a Knight on h6
    // is a screen too). Before the ruling Orange had 49 moves and Blue
    // then captured the King outright.
    let fen = "2rR1bA3rR1/1oP5rP2/bK3oP2bCbP1/4rPbPbPrCbP1/4bNrP1bBbPrK/rP5rA3/1rPoN3oN3/6oB3/8oP1/2oP4oK2 o - - 0 1 out=g";
    let mut p = common::pos("yang-aikou", fen);
    // Off the h-file, or a blocker on h2 or h4 (two screens then).
    assert_all_moves(
        &mut p,
        &["h1g1", "h1i1", "h1g2", "i2h2", "g3h4", "g3h2", "g4h2"],
    );
    assert!(
        p.play("g4h6").is_err(),
        "a Knight on h6 is still one screen"
    );
    p.play("h1g1").unwrap();
    assert_eq!(p.out_order(), [2, 0], "Red is checkmated");
    // Two players are left: the game ends, Blue (to move) first.
    let o = p.outcome().expect("two players left");
    assert_eq!(o.reason, EndReason::PlayersLeft);
    assert_eq!(o.ranking, vec![vec![3], vec![1], vec![0], vec![2]]);
}

#[test]
fn players_checkmated_in_one_step_share_their_place() {
    // Orange's Rook e10 sees both Green's King j10 and Blue's King a10
    // along rank 10. Whatever Red plays, Orange is next: Green and Blue
    // are checkmated in one step, two players are left and the game ends
    // with Orange first, Red second, and Green and Blue sharing the last
    // place (series scores 3, 2, 0, 0).
    let pieces = [
        ("a1", "rK"),
        ("j1", "oK"),
        ("e10", "oR"),
        ("j10", "gK"),
        ("a10", "bK"),
    ];
    let mut p = pos("yang-aikou", &pieces, 'r', "");
    p.play("a1b1").unwrap();
    assert_eq!(p.to_move(), 1);
    let o = p.outcome().expect("two players left");
    assert_eq!(o.ranking, vec![vec![1], vec![0], vec![2, 3]]);
    assert_eq!(p.series_scores(), Some(vec![2, 3, 0, 0]));
}
