//! The six Pass (Aikou) games cross-checked against an independent, naive
//! reference move generator (tests/common/aikou_ref.rs, written from
//! rules/pass-aikou.md only): the start arrays, perft from the six starts,
//! the whole game tree to depth 3 move list by move list, seeded random
//! games through eliminations, drop-outs, swaps and promotions to the end
//! of the game (ranking and series scores included), hand-written
//! positions for the River, fortress, facing, Pawn, swap and promotion
//! rules seen from every player, and planted bugs in the reference that
//! the comparison must catch.
//!
//! At every node compared, both the sorted legal move lists and the
//! position reached (board, player to move, players out) must agree.
//!
//! Run with `cargo test --release`.

mod common;

use common::aikou_ref::{self as ar, Bug, Mv, Pos, TAGS};
use common::lockstep::{self, first_difference, Counts, Reference, Rng};
use common::square_fen;
use quadrille_engine::embedded;

/// The reference as the rules say, or with a planted bug.
type Mode = Bug;
const RULES: Mode = Bug::None;

fn reference(name: &str, fen: &str, mode: Mode) -> Pos {
    let mut p = Pos::parse(ar::game(name), fen)
        .unwrap_or_else(|e| panic!("reference cannot read `{fen}`: {e}"));
    p.bug = mode;
    p
}

fn tree_difference(name: &str, fen: &str, depth: u32, mode: Mode) -> (Option<String>, u64) {
    let mut eng = common::pos(name, fen);
    let rp = reference(name, fen, mode);
    let mut nodes = 0;
    let d = first_difference(&mut eng, &rp, depth, &mut nodes);
    assert_eq!(eng.to_string(), fen, "the walk must restore the position");
    (d, nodes)
}

#[track_caller]
fn assert_same_tree(name: &str, fen: &str, depth: u32) -> u64 {
    let (d, nodes) = tree_difference(name, fen, depth, RULES);
    if let Some(d) = d {
        panic!("{name}: engine and reference disagree from `{fen}`:\n{d}");
    }
    nodes
}

/// The engine's perft from the six starts, depths 1-3.
const PERFT: [(&str, [u64; 3]); 6] = [
    ("xiang-aikou", [26, 675, 17526]),
    ("anglis-aikou", [32, 987, 30406]),
    ("gnu-aikou", [31, 943, 28704]),
    ("caliph-aikou", [31, 943, 28704]),
    ("tor-aikou", [22, 476, 10337]),
    ("yang-aikou", [30, 903, 27177]),
];

#[test]
fn start_arrays_follow_the_rules_table() {
    for name in ar::GAMES.iter().map(|g| g.name) {
        let eng = embedded::variant(name).unwrap().start();
        let start = ar::game(name).start();
        assert_eq!(
            reference(name, &eng.to_string(), RULES),
            start,
            "{name}: start position {eng}"
        );
    }
    // The rules' corners: Red a1, Orange j1, Green j10, Blue a10; Xiang
    // Aikou's Chariots e1/a5 turn to j5/f1, f10/j6, a6/e10.
    let p = ar::game("xiang-aikou").start();
    for (c, pl, l) in [
        ("a1", 0, 'G'),
        ("j1", 1, 'G'),
        ("j10", 2, 'G'),
        ("a10", 3, 'G'),
        ("e1", 0, 'R'),
        ("j5", 1, 'R'),
        ("f1", 1, 'R'),
        ("f10", 2, 'R'),
        ("a6", 3, 'R'),
        ("e10", 3, 'R'),
        ("d3", 0, 'C'),
        ("e5", 0, 'S'),
    ] {
        assert_eq!(p.at(ar::parse_cell(c)), Some((pl, l)), "{c}");
    }
    let tor = ar::game("tor-aikou").start();
    for (c, pl, l) in [("h1", 1, 'K'), ("h8", 2, 'K'), ("a8", 3, 'K')] {
        assert_eq!(tor.at(ar::parse_cell(c)), Some((pl, l)), "{c}");
    }
}

#[test]
fn perft_from_the_six_starts_to_depth_3() {
    for (name, expected) in PERFT {
        let mut eng = embedded::variant(name).unwrap().start();
        let rp = ar::game(name).start();
        let reference: Vec<u64> = (1..=3).map(|d| rp.perft(d)).collect();
        let engine: Vec<u64> = (1..=3).map(|d| eng.perft(d)).collect();
        assert_eq!(reference, expected, "{name}: reference perft");
        assert_eq!(engine, expected, "{name}: engine perft");
    }
}

#[test]
fn whole_tree_from_the_six_starts_to_depth_3() {
    for (name, counts) in PERFT {
        let fen = embedded::variant(name).unwrap().start().to_string();
        let nodes = assert_same_tree(name, &fen, 3);
        assert_eq!(nodes, 1 + counts[0] + counts[1], "{name}");
    }
}

#[derive(Debug, Default)]
struct Stats {
    counts: Counts,
    /// Players who played `out`.
    drop_outs: u64,
    /// Players put out by another player's move.
    eliminations: u64,
    /// Moves putting two or more players out at once.
    simultaneous: u64,
    swaps: u64,
    promotions: u64,
    /// Pawn (Soldier) moves from a neighbouring quarter, and from the
    /// opposite one.
    pawn_moves_beyond: u64,
    pawn_moves_opposite: u64,
    /// Positions where a Pawn stood by its far edge with no lost type
    /// to become, so that it could neither move nor capture onto it.
    blocked_promotions: u64,
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        self.counts.add(&o.counts);
        self.drop_outs += o.drop_outs;
        self.eliminations += o.eliminations;
        self.simultaneous += o.simultaneous;
        self.swaps += o.swaps;
        self.promotions += o.promotions;
        self.pawn_moves_beyond += o.pawn_moves_beyond;
        self.pawn_moves_opposite += o.pawn_moves_opposite;
        self.blocked_promotions += o.blocked_promotions;
    }
}

/// How a random game picks its moves.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    /// Any legal move alike.
    Uniform,
    /// Moves that put a player out, else captures, three times in four:
    /// most games reach the end.
    Aggressive,
    /// Avoids moves that put a player out and, three times in four,
    /// captures: long games where Pawns travel far and promote.
    Peaceful,
}

/// A move in `style`.
fn choose(style: Style, rp: &Pos, moves: &[Mv], rng: &mut Rng) -> Mv {
    let (mut eliminating, mut captures, mut quiet) = (Vec::new(), Vec::new(), Vec::new());
    if style != Style::Uniform {
        for m in moves {
            if rp.make(m).out.len() > rp.out.len() {
                eliminating.push(*m);
            } else if matches!(m, Mv::Step { to, swap: false, .. } if rp.at(*to).is_some()) {
                captures.push(*m);
            } else {
                quiet.push(*m);
            }
        }
    }
    let pick = |rng: &mut Rng, v: &[Mv]| v[rng.below(v.len())];
    match style {
        Style::Aggressive if !eliminating.is_empty() && rng.below(4) != 0 => {
            pick(rng, &eliminating)
        }
        Style::Aggressive if !captures.is_empty() && rng.below(4) != 0 => pick(rng, &captures),
        Style::Peaceful if !quiet.is_empty() && rng.below(4) != 0 => pick(rng, &quiet),
        Style::Peaceful if !quiet.is_empty() || !captures.is_empty() => {
            pick(rng, &[quiet, captures].concat())
        }
        _ => pick(rng, moves),
    }
}

/// Plays one seeded random game of up to `max_plies` in both generators
/// (the shared lockstep walk), perft(2) every 16 plies. At the end, the
/// engine's outcome and series scores must be the reference's.
fn random_game(
    name: &str,
    seed: u64,
    max_plies: usize,
    style: Style,
    mode: Mode,
    stats: &mut Stats,
) -> Option<String> {
    let mut rp = ar::game(name).start();
    rp.bug = mode;
    let game = lockstep::Game {
        seed,
        max_plies,
        perft_every: 16,
        perft_from: 8,
        deep_every: usize::MAX,
    };
    let mut s = Stats::default();
    let d = lockstep::random_game(
        name,
        embedded::variant(name).unwrap().start(),
        rp,
        &game,
        &mut stats.counts,
        &mut |rp: &Pos, moves: &[Mv], rng: &mut Rng| Some(choose(style, rp, moves, rng)),
        &mut |rp: &Pos, m: &Mv, after: &Pos| {
            match *m {
                Mv::Out => s.drop_outs += 1,
                Mv::Step { swap: true, .. } => s.swaps += 1,
                Mv::Step { promo: Some(_), .. } => s.promotions += 1,
                Mv::Step { from, .. } => {
                    let g = rp.game;
                    if rp.at(from).is_some_and(|(_, l)| l == 'P' || l == 'S') {
                        let (x, y) = g.to_frame(rp.to_move, from);
                        let q = g.n / 2;
                        match (x < q, y < q) {
                            (true, true) => {}
                            (false, false) => s.pawn_moves_opposite += 1,
                            _ => s.pawn_moves_beyond += 1,
                        }
                    }
                }
            }
            if name == "yang-aikou" && blocked_promotion(rp) {
                s.blocked_promotions += 1;
            }
            let before = rp.out.len() + usize::from(*m == Mv::Out);
            let gone = (after.out.len() - before) as u64;
            s.eliminations += gone;
            if gone >= 2 {
                s.simultaneous += 1;
            }
        },
    );
    stats.add(&Stats {
        counts: Counts::default(),
        ..s
    });
    d
}

/// Does a Pawn of the player to move stand next to its far edge (one step
/// from it in its own frame) while its player has lost nothing?
fn blocked_promotion(rp: &Pos) -> bool {
    let g = rp.game;
    let p = rp.to_move;
    let lost = g.red.iter().any(|&(_, l)| {
        l != 'K'
            && rp
                .army(p)
                .iter()
                .filter(|&&c| rp.at(c) == Some((p, l)))
                .count()
                < g.red.iter().filter(|&&(_, m)| m == l).count()
    });
    !lost
        && rp.army(p).iter().any(|&c| {
            let (x, y) = g.to_frame(p, c);
            rp.at(c) == Some((p, 'P')) && (x == g.n - 2 || y == g.n - 2)
        })
}

/// `n` random games of one variant in each style.
fn random_games(name: &str, n: u64, mode: Mode, stats: &mut Stats) -> Option<String> {
    let salt = name
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
    for g in 0..n {
        for (style, plies) in [
            (Style::Uniform, 200),
            (Style::Aggressive, 400),
            (Style::Peaceful, 300),
        ] {
            let seed = salt ^ (0x5EED + g * 104_729 + plies as u64);
            if let Some(d) = random_game(name, seed, plies, style, mode, stats) {
                return Some(d);
            }
        }
    }
    None
}

#[test]
fn random_games_through_eliminations_to_the_end() {
    let mut total = Stats::default();
    for name in ar::GAMES.iter().map(|g| g.name) {
        let mut stats = Stats::default();
        if let Some(d) = random_games(name, 4, RULES, &mut stats) {
            panic!("{d}");
        }
        println!("{name}: {stats:?}");
        assert!(stats.counts.games_ended >= 4, "{name}: {stats:?}");
        assert!(stats.pawn_moves_beyond >= 10, "{name}: {stats:?}");
        total.add(&stats);
    }
    println!("total: {total:?}");
    assert!(total.eliminations >= 60, "{total:?}");
    assert!(total.pawn_moves_opposite >= 10, "{total:?}");
    assert!(total.swaps >= 10, "{total:?}");
    assert!(total.promotions >= 1, "{total:?}");
    assert!(total.counts.plies >= 5_000, "{total:?}");
}

// ---------------------------------------------------------------------
// Hand-written positions: a scenario for Red, turned about the centre for
// the other three armies, compared with every player to move.

/// The pieces of a Red scenario (cell, letter) and its three turned copies.
fn turned(name: &str, red: &[(&str, char)]) -> Vec<(String, String)> {
    let g = ar::game(name);
    let mut v = Vec::new();
    for (p, tag) in TAGS.iter().enumerate() {
        for &(c, l) in red {
            let cell = g.board_cell(p, ar::parse_cell(c));
            v.push((ar::cell_name(cell), format!("{tag}{l}")));
        }
    }
    v
}

/// A position of `name` from (cell, piece) pairs.
fn fen(name: &str, pieces: &[(String, String)], to_move: char, out: &str) -> String {
    let pairs: Vec<(&str, &str)> = pieces
        .iter()
        .map(|(c, p)| (c.as_str(), p.as_str()))
        .collect();
    square_fen(ar::game(name).n as usize, &pairs, to_move, out)
}

/// The scenarios, each for one game: the River, fortress, facing, Pawn,
/// swap and promotion rules at work.
fn scenarios() -> Vec<(&'static str, Vec<(String, String)>)> {
    vec![
        // Xiang: a Horse alone between facing Generals (b2 and Orange's
        // i2, rank 2); an Advisor at the fortress's corner; Elephants by
        // the Pass (d4-f6 crosses it) and in Orange's quarter (g5-e7 and
        // g5-i7 cross far sections); Soldiers in every kind of quarter;
        // a Cannon and a Chariot.
        (
            "xiang-aikou",
            turned(
                "xiang-aikou",
                &[
                    ("b2", 'G'),
                    ("e2", 'H'),
                    ("c3", 'A'),
                    ("d4", 'E'),
                    ("g5", 'E'),
                    ("c7", 'S'),
                    ("g3", 'S'),
                    ("i7", 'S'),
                    ("e5", 'S'),
                    ("c6", 'C'),
                    ("a5", 'R'),
                ],
            ),
        ),
        // Anglis: a Queen in Blue's quarter, a Bishop whose diagonal runs through the Pass (i2-e6
        // ends beside the north section, i2-d7 is a running jump); Pawns
        // on the long diagonal, in each region of the quarter, in both
        // neighbouring quarters and in the opposite one.
        (
            "anglis-aikou",
            turned(
                "anglis-aikou",
                &[
                    ("a1", 'K'),
                    ("c6", 'Q'),
                    ("i2", 'B'),
                    ("a8", 'N'),
                    ("c3", 'P'),
                    ("b6", 'P'),
                    ("g2", 'P'),
                    ("h7", 'P'),
                    ("d2", 'P'),
                    ("a4", 'P'),
                ],
            ),
        ),
        // Gnu: a Gnu on e5 (its leaps across the north section are
        // barred), a Camel on e4 (e4-f7 crosses at the Pass and ends
        // beside the north section), Bishop, Queen, Knight, Rook.
        (
            "gnu-aikou",
            turned(
                "gnu-aikou",
                &[
                    ("a1", 'K'),
                    ("e5", 'G'),
                    ("e4", 'C'),
                    ("c2", 'B'),
                    ("c6", 'Q'),
                    ("g4", 'N'),
                    ("b3", 'R'),
                    ("d3", 'P'),
                    ("h6", 'P'),
                ],
            ),
        ),
        // Caliph: the Caliph's Bishop lines bind nothing, its Camel leaps
        // neither; Bishop and Camel by the banks.
        (
            "caliph-aikou",
            turned(
                "caliph-aikou",
                &[
                    ("b1", 'K'),
                    ("e5", 'L'),
                    ("g4", 'C'),
                    ("d5", 'B'),
                    ("c4", 'N'),
                    ("d1", 'R'),
                    ("h2", 'P'),
                    ("c7", 'P'),
                ],
            ),
        ),
        // Tor on 8x8: Rivers between ranks 4|5 and files d|e; the Camel's
        // c4-f5 crosses at the Pass and ends beside the east section.
        (
            "tor-aikou",
            turned(
                "tor-aikou",
                &[
                    ("a1", 'K'),
                    ("b3", 'L'),
                    ("c4", 'C'),
                    ("d2", 'B'),
                    ("a3", 'Q'),
                    ("b1", 'R'),
                    ("c3", 'P'),
                    ("b6", 'P'),
                    ("g7", 'P'),
                ],
            ),
        ),
        // Yang: a King with neighbours to swap with (not the Pawn), Pawns
        // one step from the far edges (a9-a10, i4-j4 and the Wazir g8)
        // with Rook, Bishop and Cannon lost; Arrows.
        (
            "yang-aikou",
            turned(
                "yang-aikou",
                &[
                    ("b2", 'K'),
                    ("a1", 'A'),
                    ("c2", 'N'),
                    ("c3", 'P'),
                    ("a3", 'R'),
                    ("d4", 'A'),
                    ("a9", 'P'),
                    ("i4", 'P'),
                    ("g8", 'P'),
                    ("b6", 'B'),
                    ("f3", 'N'),
                    ("e7", 'C'),
                ],
            ),
        ),
        // Yang with nothing lost (the whole array but its Pawns): the
        // Pawns next to the far edge may not step onto it, nor capture there.
        ("yang-aikou", {
            let g = ar::game("yang-aikou");
            let mut red: Vec<(&str, char)> =
                g.red.iter().copied().filter(|&(_, l)| l != 'P').collect();
            red.extend([("c9", 'P'), ("h4", 'P'), ("h9", 'P')]);
            turned("yang-aikou", &red)
        }),
    ]
}

#[test]
fn hand_written_scenarios_for_every_player() {
    // Every player's moves and every reply (depth 2); Red's to depth 3.
    for (name, pieces) in scenarios() {
        let mut nodes = 0;
        for tag in TAGS {
            let depth = if tag == 'r' { 3 } else { 2 };
            nodes += assert_same_tree(name, &fen(name, &pieces, tag, ""), depth);
        }
        assert!(nodes > 400, "{name}: {nodes} nodes");
    }
}

/// Xiang Aikou: Blue's General a8 has a9 and b8 (a7 is outside its
/// fortress); Red's Chariots a5 and b5 hold both, and Red moves next.
const DROP_OUT: [(&str, &str); 7] = [
    ("b2", "rG"),
    ("e2", "rH"),
    ("a5", "rR"),
    ("b5", "rR"),
    ("i2", "oG"),
    ("h9", "gG"),
    ("a8", "bG"),
];

#[test]
fn a_player_without_a_legal_move_drops_out() {
    let fen = square_fen(10, &DROP_OUT, 'b', "");
    let mut eng = common::pos("xiang-aikou", &fen);
    assert_eq!(common::legal(&mut eng), ["out"]);
    assert_same_tree("xiang-aikou", &fen, 3);
    let p = reference("xiang-aikou", &fen, RULES).play("out").unwrap();
    assert_eq!(p.out_order(), [3]);
    eng.play("out").unwrap();
    assert_eq!(eng.out_order(), [3]);
    assert!(eng.army_cells(3).is_empty());
}

#[test]
fn planted_bugs_are_caught() {
    // Each bug planted in the reference must make some comparison above
    // fail: the hand-written trees first, then random games.
    let bugs = [
        Bug::FarSectionsOpen,
        Bug::NoRunningJump,
        Bug::PassIsNotFar,
        Bug::NoFacing,
        Bug::NoFortress,
        Bug::DiagonalPawnTwoCaptures,
        Bug::NoSidewaysSteps,
        Bug::NoWazirInOppositeQuarter,
        Bug::SwapWhenAttacked,
        Bug::PromoteToAnything,
        Bug::EveryoneThreatens,
    ];
    for bug in bugs {
        let mut caught = None;
        'hand: for (name, pieces) in scenarios() {
            for tag in TAGS {
                if let (Some(d), _) = tree_difference(name, &fen(name, &pieces, tag, ""), 2, bug) {
                    caught = Some(format!("{name}: {d}"));
                    break 'hand;
                }
            }
        }
        if caught.is_none() {
            for name in ar::GAMES.iter().map(|g| g.name) {
                if let Some(d) = random_games(name, 1, bug, &mut Stats::default()) {
                    caught = Some(d);
                    break;
                }
            }
        }
        let d = caught.unwrap_or_else(|| panic!("{bug:?} was not caught"));
        println!(
            "{bug:?}: {}",
            d.lines().take(3).collect::<Vec<_>>().join(" / ")
        );
    }
}
