//! The six Mini Fivequarters games cross-checked against an independent,
//! naive reference move generator (tests/common/fivequarters_ref.rs,
//! written from rules/mini-fivequarters.md only): the start arrays, perft
//! from the six starts, the whole game tree to depth 5 move list by move
//! list, seeded random games through eliminations, drop-outs and
//! extinctions to the end of the game, hand-written positions (promotion,
//! Pawns at the camps' edges, camp corners, pins by the next and by a
//! later player, Kings exposed to the next player, simultaneous
//! eliminations, elimination after a drop-out, kingless armies), and
//! planted bugs in the reference that the comparison must catch.
//!
//! At every node compared, both the sorted legal move lists and the
//! position reached (board, player to move, players out) must agree.
//!
//! Two points the rules leave open are read the same way by both (see
//! the reference's module comment): the elimination test follows every
//! move, `out` included, and a player whose King is actually captured is
//! out at once (`a_drop_out_can_checkmate_another_king`,
//! `a_captured_king_puts_its_player_out_at_once`,
//! `a_captured_king_in_a_random_game`).
//!
//! Run with `cargo test --release`.

mod common;

use common::fivequarters_ref::{self as fq, Bug, Mv, Pos};
use common::lockstep::{self, first_difference, node_difference, Counts, Reference, Rng};
use quadrille_engine::{embedded, Position};

const GAMES: [&str; 6] = [
    "ariana",
    "diana",
    "electra",
    "los-alamos",
    "minerva",
    "sylvia",
];

/// How the reference is set up for a comparison: the rules as written, or
/// with a planted bug.
type Mode = Bug;

/// The reference without a planted bug.
const RULES: Mode = Bug::None;

fn engine(name: &str, fen: &str) -> Position {
    common::pos(name, fen)
}

fn reference(name: &str, fen: &str, mode: Mode) -> Pos {
    let mut p = Pos::parse(fq::game(name), fen)
        .unwrap_or_else(|e| panic!("reference cannot read `{fen}`: {e}"));
    p.bug = mode;
    p
}

/// The reference's reading of the engine's position string.
fn read(name: &str, eng: &Position) -> Pos {
    let fen = eng.to_string();
    Pos::parse(fq::game(name), &fen)
        .unwrap_or_else(|e| panic!("reference cannot read `{fen}`: {e}"))
}

/// The first difference from `fen` to `depth`, and the nodes compared.
fn tree_difference(name: &str, fen: &str, depth: u32, mode: Mode) -> (Option<String>, u64) {
    let mut eng = engine(name, fen);
    let rp = reference(name, fen, mode);
    let mut nodes = 0;
    let d = first_difference(&mut eng, &rp, depth, &mut nodes);
    assert_eq!(eng.to_string(), fen, "the walk must restore the position");
    (d, nodes)
}

#[track_caller]
fn assert_same_tree_as(name: &str, fen: &str, depth: u32, mode: Mode) -> u64 {
    let (d, nodes) = tree_difference(name, fen, depth, mode);
    if let Some(d) = d {
        panic!("{name}: engine and reference disagree from `{fen}`:\n{d}");
    }
    nodes
}

#[track_caller]
fn assert_same_tree(name: &str, fen: &str, depth: u32) -> u64 {
    assert_same_tree_as(name, fen, depth, RULES)
}

/// The engine's perft counts from the six starts, depths 1-6.
const PERFT: [(&str, [u64; 6]); 6] = [
    ("ariana", [3, 9, 27, 81, 471, 3063]),
    ("diana", [5, 25, 125, 625, 3885, 25339]),
    ("electra", [5, 25, 125, 625, 3935, 25796]),
    ("los-alamos", [5, 25, 125, 625, 4700, 35618]),
    ("minerva", [5, 25, 125, 625, 3935, 26071]),
    ("sylvia", [6, 36, 216, 1296, 14796, 173366]),
];

#[test]
fn start_arrays_follow_the_rules_table() {
    for name in GAMES {
        let eng = embedded::variant(name).unwrap().start();
        let start = fq::game(name).start();
        assert_eq!(read(name, &eng), start, "{name}: start position {eng}");
    }
    // The rules' own example: Los Alamos, Red d1 R e1 K f1 R, d2 N e2 Q
    // f2 N, Pawns d3-f3; Orange i4 R i5 K i6 R; Green f9 R e9 K d9 R;
    // Blue a6 R a5 K a4 R.
    let p = fq::game("los-alamos").start();
    let want = [
        ("d1", 0, 'R'),
        ("e1", 0, 'K'),
        ("f1", 0, 'R'),
        ("d2", 0, 'N'),
        ("e2", 0, 'Q'),
        ("f2", 0, 'N'),
        ("d3", 0, 'P'),
        ("e3", 0, 'P'),
        ("f3", 0, 'P'),
        ("i4", 1, 'R'),
        ("i5", 1, 'K'),
        ("i6", 1, 'R'),
        ("h5", 1, 'Q'),
        ("g4", 1, 'P'),
        ("f9", 2, 'R'),
        ("e9", 2, 'K'),
        ("d9", 2, 'R'),
        ("e8", 2, 'Q'),
        ("a6", 3, 'R'),
        ("a5", 3, 'K'),
        ("a4", 3, 'R'),
        ("b5", 3, 'Q'),
        ("c6", 3, 'P'),
    ];
    for (c, pl, l) in want {
        assert_eq!(p.at(cell(c)), Some((pl, l)), "{c}");
    }
    for pl in 0..4 {
        assert_eq!(p.army(pl).len(), 9);
    }
}

#[test]
fn perft_from_the_six_starts_to_depth_6() {
    for (name, expected) in PERFT {
        let mut eng = embedded::variant(name).unwrap().start();
        let rp = fq::game(name).start();
        let reference: Vec<u64> = (1..=6).map(|d| rp.perft(d)).collect();
        let engine: Vec<u64> = (1..=6).map(|d| eng.perft(d)).collect();
        assert_eq!(reference, expected, "{name}: reference perft");
        assert_eq!(engine, expected, "{name}: engine perft");
    }
}

#[test]
fn whole_tree_from_the_six_starts_to_depth_5() {
    for (name, counts) in PERFT {
        let fen = embedded::variant(name).unwrap().start().to_string();
        let nodes = assert_same_tree(name, &fen, 5);
        // Every node of depths 0-4 compared, position and move list (the
        // last level's lists hold the moves of perft(5)).
        assert_eq!(nodes, 1 + counts[..4].iter().sum::<u64>(), "{name}");
    }
}

#[derive(Debug, Default)]
struct Stats {
    counts: Counts,
    /// Players who played `out`.
    drop_outs: u64,
    /// Players put out by a move of another player: a King the next player
    /// could capture, or a kingless army's last piece captured.
    eliminations: u64,
    /// Moves putting two or more players out at once.
    simultaneous: u64,
    /// Drop-outs after which the next player could capture a King (a line
    /// opened by the army leaving), which is checkmated.
    checkmates_after_out: u64,
    promotions: u64,
    declined_promotions: u64,
    /// Kings captured by a move: only a set-up position can offer one (the
    /// checkmate ruling), so random games from the start never do.
    king_captures: u64,
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        self.counts.add(&o.counts);
        self.drop_outs += o.drop_outs;
        self.eliminations += o.eliminations;
        self.simultaneous += o.simultaneous;
        self.checkmates_after_out += o.checkmates_after_out;
        self.promotions += o.promotions;
        self.declined_promotions += o.declined_promotions;
        self.king_captures += o.king_captures;
    }
}

/// How a biased game picks its move: moves that put a player out, else
/// (with two players left, where no King can be eliminated) the moves
/// leaving the other player fewest replies, else captures, each three
/// times in four.
fn biased_choice(rp: &Pos, moves: &[Mv], rng: &mut Rng) -> Mv {
    let captures: Vec<&Mv> = moves
        .iter()
        .filter(|m| match m {
            Mv::Step { to, .. } => rp.at(*to).is_some(),
            Mv::Out => false,
        })
        .collect();
    let mut eliminating = Vec::new();
    let mut squeezing = Vec::new();
    let n = rp.out.len();
    let two = rp.players_in().len() == 2;
    let mut fewest = usize::MAX;
    for m in moves {
        let after = rp.make(m);
        if after.out.len() > n {
            eliminating.push(m);
        } else if two {
            let replies = after.legal();
            let k = if replies == [Mv::Out] {
                0
            } else {
                replies.len()
            };
            if k < fewest {
                fewest = k;
                squeezing.clear();
            }
            if k == fewest {
                squeezing.push(m);
            }
        }
    }
    if !eliminating.is_empty() && rng.below(4) != 0 {
        *eliminating[rng.below(eliminating.len())]
    } else if !squeezing.is_empty() && rng.below(4) != 0 {
        *squeezing[rng.below(squeezing.len())]
    } else if !captures.is_empty() && rng.below(4) != 0 {
        *captures[rng.below(captures.len())]
    } else {
        moves[rng.below(moves.len())]
    }
}

/// Plays one seeded random game of up to `max_plies` in both generators
/// (the shared lockstep walk), perft(2) every 12 plies and perft(3) every
/// 96. With `bias` (see `biased_choice`) most games reach the end; a
/// duel of two players with no mate in sight is given up after 120
/// plies. Returns the first difference.
fn random_game(
    name: &str,
    seed: u64,
    max_plies: usize,
    bias: bool,
    mode: Mode,
    stats: &mut Stats,
) -> Option<String> {
    let mut rp = fq::game(name).start();
    rp.bug = mode;
    let game = lockstep::Game {
        seed,
        max_plies,
        perft_every: 12,
        perft_from: 0,
        deep_every: 96,
    };
    let mut duel = 0;
    let mut s = Stats::default();
    let d = lockstep::random_game(
        name,
        embedded::variant(name).unwrap().start(),
        rp,
        &game,
        &mut stats.counts,
        &mut |rp: &Pos, moves: &[Mv], rng: &mut Rng| {
            if !bias {
                return Some(moves[rng.below(moves.len())]);
            }
            if rp.players_in().len() == 2 {
                duel += 1;
                if duel > 120 {
                    return None;
                }
            }
            Some(biased_choice(rp, moves, rng))
        },
        &mut |rp: &Pos, m: &Mv, after: &Pos| {
            match *m {
                Mv::Out => s.drop_outs += 1,
                Mv::Step { promo: Some(_), .. } => s.promotions += 1,
                Mv::Step {
                    promo: None,
                    to,
                    from,
                } => {
                    let pawn = rp.at(from).map(|(_, l)| l) == Some('P');
                    if pawn && fq::region(to) == fq::Region::Camp(fq::opposite(rp.to_move)) {
                        s.declined_promotions += 1;
                    }
                    if matches!(rp.at(to), Some((_, 'K'))) {
                        s.king_captures += 1;
                    }
                }
            }
            let before = rp.out.len() + usize::from(*m == Mv::Out);
            let gone = (after.out.len() - before) as u64;
            s.eliminations += gone;
            if gone >= 2 {
                s.simultaneous += 1;
            }
            if *m == Mv::Out && gone >= 1 {
                s.checkmates_after_out += 1;
            }
        },
    );
    stats.add(&Stats {
        counts: Counts::default(),
        ..s
    });
    d
}

/// The random games of one variant: `uniform` ones (long middle games,
/// promotions) and `biased` ones (most reach the end).
fn random_games(
    name: &str,
    uniform: u64,
    biased: u64,
    mode: Mode,
    stats: &mut Stats,
) -> Option<String> {
    let salt = name
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
    for g in 0..uniform {
        if let Some(d) = random_game(name, salt ^ (0xF1E + g * 7919), 200, false, mode, stats) {
            return Some(d);
        }
    }
    for g in 0..biased {
        if let Some(d) = random_game(name, salt ^ (0x5EED + g * 104_729), 300, true, mode, stats) {
            return Some(d);
        }
    }
    None
}

#[test]
fn random_games_through_eliminations_to_the_end() {
    let mut all = Vec::new();
    for name in GAMES {
        let mut stats = Stats::default();
        if let Some(d) = random_games(name, 3, 40, RULES, &mut stats) {
            panic!("{d}");
        }
        println!("{name}: {stats:?}");
        all.push((name, stats));
    }
    let mut total = Stats::default();
    for (name, stats) in &all {
        // Not vacuous: games reached their end, and players went out in
        // every variant.
        assert!(stats.counts.games_ended >= 10, "{name}: {stats:?}");
        assert!(stats.eliminations >= 20, "{name}: {stats:?}");
        if *name != "sylvia" {
            assert!(stats.promotions >= 5, "{name}: {stats:?}");
        }
        total.add(stats);
    }
    println!("total: {total:?}");
    assert!(total.drop_outs >= 20, "{total:?}");
    assert!(total.simultaneous >= 3, "{total:?}");
    assert!(total.declined_promotions >= 5, "{total:?}");
    assert!(total.counts.plies >= 10_000, "{total:?}");
    assert_eq!(total.king_captures, 0, "no King is ever captured by a move");
}

// ---------------------------------------------------------------------
// Hand-written positions.

/// A cell name as (file, rank) 0-based.
fn cell(s: &str) -> (i32, i32) {
    let f = (s.as_bytes()[0] - b'a') as i32;
    let r: i32 = s[1..].parse().unwrap();
    assert!(fq::exists((f, r - 1)), "{s} is not on the cross");
    (f, r - 1)
}

/// A position string from (cell, piece) pairs such as ("e1", "rK"), the
/// player to move and the players out, in the order they went out.
fn cross(pieces: &[(&str, &str)], to_move: char, out: &str) -> String {
    let exists = |f: usize, r: usize| fq::exists((f as i32, r as i32));
    common::board_fen((9, 9, 1), exists, pieces, to_move, out)
}

/// Compares the trees to `depth` from a position, once for every player
/// still in the game to move.
#[track_caller]
fn check_all_movers(name: &str, pieces: &[(&str, &str)], out: &str, depth: u32) -> u64 {
    let mut nodes = 0;
    for tag in fq::TAGS {
        if !out.contains(tag) {
            nodes += assert_same_tree(name, &cross(pieces, tag, out), depth);
        }
    }
    nodes
}

/// The legal moves of the piece on `from`, by both generators (which must
/// agree with `expected`).
#[track_caller]
fn assert_moves_both(name: &str, fen: &str, from: &str, expected: &[&str]) {
    let want = common::sorted(expected);
    let mut eng = engine(name, fen);
    assert_eq!(
        common::moves_from(&mut eng, from),
        want,
        "engine, {from} in `{fen}`"
    );
    let got: Vec<String> = reference(name, fen, RULES)
        .legal_texts()
        .into_iter()
        .filter(|m| m.get(..2) == Some(from))
        .collect();
    assert_eq!(got, want, "reference, {from} in `{fen}`");
}

/// Plays `moves` in both generators from `fen`, comparing every position
/// and move list; returns the reference's final position.
#[track_caller]
fn play_both(name: &str, fen: &str, moves: &[&str], mode: Mode) -> Pos {
    let mut eng = engine(name, fen);
    let mut rp = reference(name, fen, mode);
    for m in moves {
        if let Some(d) = node_difference(&mut eng, &rp) {
            panic!("{name} from `{fen}` before {m}:\n{d}");
        }
        rp = rp
            .play(m)
            .unwrap_or_else(|| panic!("reference refuses {m} at `{eng}`"));
        eng.play(m)
            .unwrap_or_else(|e| panic!("engine refuses {m} at `{eng}`: {e}"));
    }
    if let Some(d) = node_difference(&mut eng, &rp) {
        panic!("{name} from `{fen}` after {moves:?}:\n{d}");
    }
    rp
}

/// The four Kings, out of the way of the pieces below.
const KINGS: [(&str, &str); 4] = [("f2", "rK"), ("i4", "oK"), ("d8", "gK"), ("b4", "bK")];

/// Pawns of every player one step into the opposite camp and one step
/// from its far rank, with pieces to take on the diagonals (the minor
/// piece is a Bishop in Ariana, which has no Knight).
fn promotion_pieces(name: &str) -> Vec<(&'static str, &'static str)> {
    let ariana = name == "ariana";
    let minor = |n: &'static str, b: &'static str| if ariana { b } else { n };
    let mut v = vec![
        // Red: d6-d7 (optional), f8-f9 (compulsory); takes e7, e9.
        ("d6", "rP"),
        ("f8", "rP"),
        ("e7", minor("gN", "gB")),
        ("e9", "gR"),
        // Orange: d5-c5 (optional), b5-a5 (compulsory); takes c6, a4.
        ("d5", "oP"),
        ("b5", "oP"),
        ("c6", minor("bN", "bB")),
        ("a4", "bR"),
        // Green: e4-e3 (optional), d2-d1 (compulsory); takes f3, e1.
        ("e4", "gP"),
        ("d2", "gP"),
        ("f3", minor("rN", "rB")),
        ("e1", "rR"),
        // Blue: f4-g4 (optional), h6-i6 (compulsory); takes g5, i5.
        ("f4", "bP"),
        ("h6", "bP"),
        ("g5", minor("oN", "oB")),
        ("i5", "oR"),
    ];
    if fq::game(name).kings() {
        v.extend(KINGS);
    }
    v
}

#[test]
fn promotion_optional_in_the_camp_compulsory_on_its_far_rank() {
    for name in ["ariana", "diana", "electra", "los-alamos", "minerva"] {
        let pieces = promotion_pieces(name);
        let promo = fq::game(name).promo;
        let with = |base: &str, optional: bool| {
            let mut v: Vec<String> = promo
                .chars()
                .map(|c| format!("{base}{}", c.to_ascii_lowercase()))
                .collect();
            if optional {
                v.push(base.to_string());
            }
            v
        };
        let cases = [
            ('r', "d6", [("d6d7", true), ("d6e7", true)]),
            ('r', "f8", [("f8f9", false), ("f8e9", false)]),
            ('o', "d5", [("d5c5", true), ("d5c6", true)]),
            ('o', "b5", [("b5a5", false), ("b5a4", false)]),
            ('g', "e4", [("e4e3", true), ("e4f3", true)]),
            ('g', "d2", [("d2d1", false), ("d2e1", false)]),
            ('b', "f4", [("f4g4", true), ("f4g5", true)]),
            ('b', "h6", [("h6i6", false), ("h6i5", false)]),
        ];
        for (tag, from, moves) in cases {
            let fen = cross(&pieces, tag, "");
            let expected: Vec<String> = moves.iter().flat_map(|&(m, opt)| with(m, opt)).collect();
            let expected: Vec<&str> = expected.iter().map(|s| s.as_str()).collect();
            assert_moves_both(name, &fen, from, &expected);
        }
        let n = check_all_movers(name, &pieces, "", 3);
        assert!(n > 300, "{name}: {n} nodes");
    }
}

/// Pawns beside the neighbours' camps: a Pawn may not capture into a
/// neighbour's camp (nor step from camp to camp), but captures in the
/// centre and into the opposite camp.
const PAWN_EDGES: [(&str, &str); 13] = [
    // Red d4: d5, takes e5 (centre), not c5 (Blue's camp).
    ("d4", "rP"),
    ("e5", "gN"),
    ("c5", "bN"),
    // Red f5: f6, not g6 (Orange's camp).
    ("f5", "rP"),
    // Red d3: blocked by d4, not c4 (Blue's camp, camp to camp).
    ("d3", "rP"),
    // Orange g4: f4, takes f5 (centre), not f3 (Red's camp).
    ("g4", "oP"),
    ("f3", "rN"),
    // Orange g6: f6, takes f5, not f7 (Green's camp).
    ("g6", "oP"),
    // Green d6: d5, not c5 (Blue's camp); e5 is its own.
    ("d6", "gP"),
    // Green f7: f6, not g6 (Orange's camp, camp to camp).
    ("f7", "gP"),
    // Blue c4: blocked by d4, not d3 (Red's camp).
    ("c4", "bP"),
    // Blue c6: blocked by d6, not d7 (Green's camp).
    ("c6", "bP"),
    ("d7", "gN"),
];

#[test]
fn pawns_at_the_edges_of_the_camps() {
    let expected = [
        ('r', "d4", &["d4d5", "d4e5"][..]),
        ('r', "f5", &["f5f6"][..]),
        ('r', "d3", &[][..]),
        ('o', "g4", &["g4f4", "g4f5"][..]),
        ('o', "g6", &["g6f5", "g6f6"][..]),
        ('g', "d6", &["d6d5"][..]),
        ('g', "f7", &["f7f6"][..]),
        ('b', "c4", &[][..]),
        ('b', "c6", &[][..]),
    ];
    for name in ["diana", "los-alamos", "electra", "minerva"] {
        let mut pieces = PAWN_EDGES.to_vec();
        if fq::game(name).kings() {
            pieces.extend([("e1", "rK"), ("i5", "oK"), ("e9", "gK"), ("a5", "bK")]);
        }
        for (tag, from, moves) in expected {
            assert_moves_both(name, &cross(&pieces, tag, ""), from, moves);
        }
        let n = check_all_movers(name, &pieces, "", 3);
        assert!(n > 100, "{name}: {n} nodes");
    }
}

#[test]
fn camp_corners_and_slides_over_the_centre() {
    // Sylvia has all five piece types. Pieces at the four corners where
    // two camps touch (d3/c4, f3/g4, g6/f7, d7/c6): no step, leap or
    // short slide across a corner; slides from camp to camp over the
    // centre.
    let pieces = [
        ("d3", "rK"),
        ("f3", "rQ"),
        ("e2", "rR"),
        ("e4", "rN"),
        ("e6", "rB"),
        ("g6", "oK"),
        ("g4", "oQ"),
        ("h5", "oR"),
        ("d7", "gK"),
        ("f7", "gB"),
        ("e8", "gQ"),
        ("a6", "bK"),
        ("c4", "bB"),
        ("a4", "bQ"),
        ("b6", "bN"),
        ("a5", "bR"),
    ];
    let expected = [
        // The Queen f3 goes up the f-file over the centre into Green's
        // camp (takes f7) but not to g4 (a step across the corner).
        (
            'r',
            "f3",
            &["f3e3", "f3f1", "f3f2", "f3f4", "f3f5", "f3f6", "f3f7"][..],
        ),
        // The King d3 may not take the Bishop c4 across the corner.
        ('r', "d3", &["d3d2", "d3d4", "d3e3"][..]),
        // Orange's Queen g4: not f3; over the centre to e4 and e6.
        (
            'o',
            "g4",
            &["g4e4", "g4e6", "g4f4", "g4f5", "g4g5", "g4h4", "g4i4"][..],
        ),
        // Orange's King g6: not f7 (across the corner).
        ('o', "g6", &["g6f5", "g6f6", "g6g5", "g6h6"][..]),
        // Green's King d7: not c6; not e6, where Blue's Bishop c4 could
        // take it over d5; the Blue Queen a4 and Knight b6 do not reach
        // d7 (a4-b5-c6-d7 passes no centre cell, b6-d7 is a jump).
        ('g', "d7", &["d7d6", "d7d8", "d7e7"][..]),
        // Blue's Knight b6: d5 only (d7 is in Green's camp).
        ('b', "b6", &["b6d5"][..]),
        // Blue's Bishop c4: not d3; over d5 to e6.
        ('b', "c4", &["c4b5", "c4d5", "c4e6"][..]),
        // Blue's Queen a4: up to c6, not d7.
        ('b', "a4", &["a4b4", "a4b5", "a4c6"][..]),
    ];
    for (tag, from, moves) in expected {
        assert_moves_both("sylvia", &cross(&pieces, tag, ""), from, moves);
    }
    let n = check_all_movers("sylvia", &pieces, "", 3);
    assert!(n > 1000, "{n} nodes");
}

#[test]
fn pins_by_the_next_player_and_by_a_later_player() {
    // Only the next player's pieces pin. Red's Rook e3 is pinned to its
    // King e1 by Orange's Rook e6 (Orange moves next); Green's Knight e8
    // stands between that Rook and its King e9 but Orange is not next
    // after Green (Blue is), so it is free. Orange's Knight h4 is pinned
    // by Green's Queen f4 (Green moves next after Orange); Blue's Knight
    // c5 by Red's Queen f5 (Red moves next after Blue).
    let pieces = [
        ("e1", "rK"),
        ("e3", "rR"),
        ("f5", "rQ"),
        ("i4", "oK"),
        ("h4", "oN"),
        ("e6", "oR"),
        ("e9", "gK"),
        ("e8", "gN"),
        ("f4", "gQ"),
        ("a5", "bK"),
        ("c5", "bN"),
    ];
    let expected = [
        ('r', "e3", &["e3e2", "e3e4", "e3e5", "e3e6"][..]),
        ('o', "h4", &[][..]),
        ('g', "e8", &["e8d6", "e8f6"][..]),
        ('b', "c5", &[][..]),
    ];
    for (tag, from, moves) in expected {
        assert_moves_both("los-alamos", &cross(&pieces, tag, ""), from, moves);
    }
    let n = check_all_movers("los-alamos", &pieces, "", 3);
    assert!(n > 500, "{n} nodes");

    // Clean pins. Red's Rook e3 between its King e1 and a Rook on e6:
    // bound to the e-file if the Rook is Orange's (next), free if Green's
    // or Blue's (later players).
    let base = [
        ("e1", "rK"),
        ("e3", "rR"),
        ("i5", "oK"),
        ("e9", "gK"),
        ("a5", "bK"),
    ];
    for (tag, expected) in [
        ("oR", &["e3e2", "e3e4", "e3e5", "e3e6"][..]),
        ("gR", &["e3d3", "e3e2", "e3e4", "e3e5", "e3e6", "e3f3"][..]),
        ("bR", &["e3d3", "e3e2", "e3e4", "e3e5", "e3e6", "e3f3"][..]),
    ] {
        let mut pieces = base.to_vec();
        pieces.push(("e6", tag));
        let fen = cross(&pieces, 'r', "");
        assert_moves_both("los-alamos", &fen, "e3", expected);
        check_all_movers("los-alamos", &pieces, "", 3);
    }
    // Blue's turn: Blue's Knight c5 between its King a5 and a Rook on e5;
    // Red moves next after Blue, so a Red Rook pins and an Orange one
    // does not.
    let base = [
        ("e1", "rK"),
        ("i5", "oK"),
        ("e9", "gK"),
        ("a5", "bK"),
        ("c5", "bN"),
    ];
    for (tag, pinned) in [("rR", true), ("oR", false), ("gR", false)] {
        let mut pieces = base.to_vec();
        pieces.push(("e5", tag));
        let fen = cross(&pieces, 'b', "");
        let free = ["c5a4", "c5a6", "c5e4", "c5e6"];
        assert_moves_both("los-alamos", &fen, "c5", if pinned { &[] } else { &free });
        check_all_movers("los-alamos", &pieces, "", 3);
    }
    // With Orange out, Green moves next after Red: Green's Rook pins.
    let pieces = [
        ("e1", "rK"),
        ("e3", "rR"),
        ("e6", "gR"),
        ("e9", "gK"),
        ("a5", "bK"),
    ];
    let fen = cross(&pieces, 'r', "o");
    assert_moves_both("los-alamos", &fen, "e3", &["e3e2", "e3e4", "e3e5", "e3e6"]);
    check_all_movers("los-alamos", &pieces, "o", 3);
}

#[test]
fn kings_exposed_to_the_next_player_by_a_move() {
    // Orange's Queen on e5 (centre). Green's King e9 is shielded by Red's
    // Knight e7; Blue's King a5 is open to the Queen along rank 5 (Orange
    // was not next after Blue's move, so Blue is still in). Red moves,
    // Orange is next: every King the Queen could then take is
    // checkmated, all at once.
    let pieces = [
        ("f1", "rK"),
        ("e3", "rR"),
        ("e7", "rN"),
        ("i5", "oK"),
        ("e5", "oQ"),
        ("e9", "gK"),
        ("f8", "gR"),
        ("a5", "bK"),
        ("a4", "bR"),
    ];
    let fen = cross(&pieces, 'r', "");
    // e7d5 shields Blue and exposes Green: Green alone is out.
    let p = play_both("los-alamos", &fen, &["e7d5"], RULES);
    assert_eq!(p.out, [2]);
    assert!(p.army(2).is_empty());
    // e7f5 exposes Green and leaves Blue open: both out at once.
    // (Out in turn order from the next player: Green, then Blue.)
    let p = play_both("los-alamos", &fen, &["e7f5"], RULES);
    assert_eq!(p.out, [2, 3]);
    assert!(p.army(2).is_empty() && p.army(3).is_empty());
    // Red's Rook takes the Queen: nobody is out.
    let p = play_both("los-alamos", &fen, &["e3e5"], RULES);
    assert!(p.out.is_empty());
    let n = check_all_movers("los-alamos", &pieces, "", 3);
    assert!(n > 500, "{n} nodes");

    // One Red move opening two lines at once (Ariana): Red's Bishop d5
    // blocks Orange's Rook g5 from Blue's King a5 (rank 5) and Orange's
    // Bishop f3 from Green's King c6 (f3-e4-d5-c6, Red's camp to Blue's
    // over the centre). The Bishop leaves: both Kings are checkmated.
    let pieces = [
        ("e1", "rK"),
        ("d5", "rB"),
        ("g5", "oR"),
        ("i4", "oK"),
        ("f3", "oB"),
        ("c6", "gK"),
        ("d9", "gR"),
        ("a5", "bK"),
        ("a6", "bR"),
    ];
    let fen = cross(&pieces, 'r', "");
    let p = play_both("ariana", &fen, &["d5e6"], RULES);
    assert_eq!(p.out.len(), 2, "{:?}", p.out);
    assert!(p.is_out(2) && p.is_out(3));
    check_all_movers("ariana", &pieces, "", 3);
}

/// Blue's King a4 has no safe cell: Red's Rooks a6 and b6 take a5, b5,
/// b4, and the King is attacked through a5 (Red moves next after Blue).
/// Blue's Knight g5 cannot help; it shields Orange's King h5 from Red's
/// Rook e5. Los Alamos, Blue to move.
const DROP_OUT: [(&str, &str); 8] = [
    ("e1", "rK"),
    ("a6", "rR"),
    ("b6", "rR"),
    ("e5", "rR"),
    ("h5", "oK"),
    ("g5", "bN"),
    ("d9", "gK"),
    ("a4", "bK"),
];

#[test]
fn a_drop_out_can_checkmate_another_king() {
    // Blue can only play `out`; its army leaves, and Red, next, could now
    // take Orange's King: Orange is checkmated too.
    let pieces = DROP_OUT;
    let fen = cross(&pieces, 'b', "");
    assert_eq!(fen, "gK2/3/3/rRrR7/4rR1bNoK1/bK8/3/3/1rK1 b - - 0 1");
    let mut eng = engine("los-alamos", &fen);
    assert_eq!(common::legal(&mut eng), ["out"]);
    check_all_movers("los-alamos", &pieces, "", 3);
    // The rules: "After every move, any King that the player who moves
    // next could capture is checkmated": `out` is a move, so Orange, whose
    // King Red (next) could now take on h5, is out with Blue.
    eng.play("out").unwrap();
    assert_eq!(eng.out_order(), [3, 1]);
    assert_eq!(eng.to_move(), 0);
    let p = reference("los-alamos", &fen, RULES).play("out").unwrap();
    assert_eq!(p.out, [3, 1], "Blue out, then Orange");
    assert_eq!(p.to_move, 0);
    assert_same_tree_as("los-alamos", &fen, 3, RULES);
}

#[test]
fn two_players_left_and_the_end() {
    // Orange and Green are out. With two players left nobody can be
    // checkmated by a move (the mover's own King may not be left to the
    // next player): Blue goes out by having no move. Red's Rook g5-a5
    // over the centre, covered by the Knight c4.
    let pieces = [
        ("e1", "rK"),
        ("g5", "rR"),
        ("b6", "rR"),
        ("c4", "rN"),
        ("a4", "bK"),
        ("e9", "bN"),
    ];
    let fen = cross(&pieces, 'r', "og");
    let p = play_both("los-alamos", &fen, &["g5a5"], RULES);
    assert_eq!(p.to_move, 3);
    assert_eq!(p.legal(), [Mv::Out]);
    let p = play_both("los-alamos", &fen, &["g5a5", "out"], RULES);
    assert!(p.game_over());
    assert_eq!(p.ranking(), [[0], [3], [2], [1]]);
    check_all_movers("los-alamos", &pieces, "og", 4);
}

#[test]
fn kingless_armies_go_out_with_their_last_piece() {
    // Electra and Minerva: no King, so no checkmate and no pins. Red takes
    // Blue's last piece; Orange's only piece, a Pawn on g5, is blocked by
    // Red's Knight f5: on its turn it plays `out`. Green's Rook (Queen in
    // Minerva) and Bishop cross the camps over the centre.
    for (name, big) in [("electra", "gR"), ("minerva", "gQ")] {
        let pieces = [
            ("d1", "rR"),
            ("d3", "rR"),
            ("e2", "rN"),
            ("f5", "rN"),
            ("g5", "oP"),
            ("e9", "gN"),
            ("f7", big),
            ("c4", "gB"),
            ("d6", "bN"),
        ];
        let fen = cross(&pieces, 'r', "");
        let p = play_both(name, &fen, &["d3d6"], RULES);
        assert_eq!(p.out, [3], "{name}: Blue has no piece left");
        assert_eq!(p.to_move, 1);
        assert_eq!(p.legal(), [Mv::Out], "{name}: Orange's Pawn is blocked");
        let p = play_both(name, &fen, &["d3d6", "out"], RULES);
        assert_eq!(p.out, [3, 1]);
        assert!(p.army(1).is_empty());
        check_all_movers(name, &pieces, "", 4);
    }
}

// ---------------------------------------------------------------------
// The checkmate ruling (rules/README.md): armies leaving can uncover
// another King, and the test repeats; no King is ever captured.

#[test]
fn a_checkmated_army_leaving_uncovers_another_king() {
    // Red's Knight e7 shields Green's King e9 from Orange's Queen e4;
    // Green's Knight d5 shields Blue's King a5 from Orange's Rook g5.
    // Red plays e7d9: Orange, next, could take Green's King, so Green is
    // checkmated and its army leaves, Knight d5 included; now Orange could
    // take Blue's King, so Blue is checkmated too, one step later (a
    // place of its own). Orange is to move against Red; no King is taken.
    let pieces = [
        ("f1", "rK"),
        ("e7", "rN"),
        ("i5", "oK"),
        ("g5", "oR"),
        ("e4", "oQ"),
        ("e9", "gK"),
        ("d5", "gN"),
        ("a5", "bK"),
        ("d1", "bR"),
    ];
    let fen = cross(&pieces, 'r', "");
    assert_eq!(fen, "1gK1/3/1rN1/9/bK2gN2oR1oK/4oQ4/3/3/bR1rK r - - 0 1");
    let p = reference("los-alamos", &fen, RULES);
    let p = p.play("e7d9").unwrap();
    assert_eq!(p.out, [2, 3]);
    assert_eq!(p.to_move, 1);
    assert!(p.army(2).is_empty() && p.army(3).is_empty());
    let p = play_both("los-alamos", &fen, &["e7d9"], RULES);
    assert_eq!(p.to_move, 1);
    let mut eng = engine("los-alamos", &fen);
    eng.play("e7d9").unwrap();
    assert_eq!(eng.out_order(), [2, 3]);
    assert!(eng.to_string().ends_with("o - - 0 1 out=gb"), "{eng}");
    assert_same_tree_as("los-alamos", &fen, 3, RULES);
}

#[test]
fn a_move_that_uncovers_ones_own_king_through_a_checkmate_is_illegal() {
    // A position from a random Diana game: Green's c5f2 would checkmate
    // Orange (Red's Bishop g5 could take its King h4), whose Knight f6
    // shields Green's own King d8 from that Bishop. Orange's army leaving
    // would leave Green's King capturable by Red: Green may not play into
    // its own checkmate, so c5f2 is illegal (before the ruling Red took
    // the King on d8).
    let fen = "gR1gR/gK2/2gP/5oN1oBoR/2gB3rB2/2gN1rP1oRoK1/2rP/3/1rKrR g - - 1 7 out=b";
    let p = reference("diana", fen, RULES);
    assert!(p.play("c5f2").is_none(), "the reference refuses c5f2");
    let mut eng = engine("diana", fen);
    let err = eng.play("c5f2").expect_err("the engine refuses c5f2");
    assert_eq!(
        eng.to_string(),
        fen,
        "a refused move changes nothing: {err}"
    );
    assert_same_tree_as("diana", fen, 3, RULES);
}

// ---------------------------------------------------------------------
// The comparison can fail.

#[test]
fn planted_bugs_are_caught() {
    // Each bug planted in the reference must make some comparison above
    // fail: the hand-written trees first, then random games.
    let bugs = [
        Bug::PawnTakesIntoNeighbourCamp,
        Bug::LeapsBetweenCamps,
        Bug::EveryoneThreatens,
        Bug::DropOutLeavesArmy,
        Bug::PromotionAlwaysCompulsory,
    ];
    for bug in bugs {
        let mode: Mode = bug;
        let mut caught = None;
        let mut hand: Vec<(&str, String)> = Vec::new();
        let mut edges = PAWN_EDGES.to_vec();
        edges.extend([("e1", "rK"), ("i5", "oK"), ("e9", "gK"), ("a5", "bK")]);
        for tag in fq::TAGS {
            hand.push((
                "los-alamos",
                cross(&promotion_pieces("los-alamos"), tag, ""),
            ));
            hand.push(("los-alamos", cross(&edges, tag, "")));
        }
        hand.push(("los-alamos", cross(&DROP_OUT, 'b', "")));
        for (name, fen) in &hand {
            if let (Some(d), _) = tree_difference(name, fen, 3, mode) {
                caught = Some(d);
                break;
            }
        }
        if caught.is_none() {
            for name in GAMES {
                let mut stats = Stats::default();
                if let Some(d) = random_games(name, 1, 3, mode, &mut stats) {
                    caught = Some(d);
                    break;
                }
            }
        }
        let d = caught.unwrap_or_else(|| panic!("{bug:?} was not caught"));
        println!("{bug:?}: {}", d.lines().next().unwrap_or(""));
    }
}
