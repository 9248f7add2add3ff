//! Avon cross-checked against an independent, naive reference move
//! generator (tests/common/avon_ref.rs, written from rules/avon.md only):
//! perft from the start, the whole game tree to depth 4 move list by move
//! list, seeded random games through drop-outs and mass promotions to the
//! end of the game, and hand-written positions with pieces across the
//! River and players out.
//!
//! At every node compared, both the sorted legal move lists and the
//! position reached (board, player to move, players out) must agree.
//!
//! Run with `cargo test --release`.

mod common;

use common::avon_ref::{self, Pos, START};
use common::lockstep::{self, first_difference, Counts, Reference, Rng};
use quadrille_engine::{embedded, Position};

fn engine(fen: &str) -> Position {
    common::pos("avon", fen)
}

#[track_caller]
fn assert_same_tree(fen: &str, depth: u32) -> u64 {
    let mut eng = engine(fen);
    let rp = Pos::parse(fen).unwrap_or_else(|e| panic!("reference cannot read `{fen}`: {e}"));
    let mut nodes = 0;
    if let Some(d) = first_difference(&mut eng, &rp, depth, &mut nodes) {
        panic!("engine and reference disagree from `{fen}`:\n{d}");
    }
    assert_eq!(eng.to_string(), fen, "the walk must restore the position");
    nodes
}

#[test]
fn perft_from_the_start_to_depth_6() {
    let mut eng = embedded::variant("avon").unwrap().start();
    assert_eq!(eng.to_string(), START);
    let rp = Pos::parse(START).unwrap();
    let expected = [4u64, 16, 132, 1089, 11933];
    let reference: Vec<u64> = (1..=5).map(|d| rp.perft(d)).collect();
    let engine: Vec<u64> = (1..=5).map(|d| eng.perft(d)).collect();
    assert_eq!(reference, expected, "reference perft");
    assert_eq!(engine, expected, "engine perft");
    // Depth 6 has no independent count: the two must agree (129708).
    assert_eq!(eng.perft(6), rp.perft(6), "perft(6)");
}

#[test]
fn whole_tree_from_the_start_to_depth_5() {
    let nodes = assert_same_tree(START, 5);
    // 1 + 4 + 16 + 132 + 1089 nodes with their positions and move lists
    // compared (the last level's lists hold the 11933 moves of perft(5)).
    assert_eq!(nodes, 1 + 4 + 16 + 132 + 1089);
}

#[derive(Debug, Default)]
struct Stats {
    counts: Counts,
    drop_outs: u64,
    mass_promotions: u64,
}

/// Plays one seeded random game of up to `max_plies` in both generators
/// (the shared lockstep walk), perft(2) every 8 plies and perft(3) every
/// 100. With `bias`, captures are preferred half of the time, which
/// reaches drop-outs and the end of the game sooner.
fn random_game(seed: u64, max_plies: usize, bias: bool, stats: &mut Stats) {
    let game = lockstep::Game {
        seed,
        max_plies,
        perft_every: 8,
        perft_from: 0,
        deep_every: 100,
    };
    let (mut drop_outs, mut mass_promotions) = (0, 0);
    let d = lockstep::random_game(
        "avon",
        engine(START),
        Pos::parse(START).unwrap(),
        &game,
        &mut stats.counts,
        &mut |rp: &Pos, moves: &[avon_ref::Mv], rng: &mut Rng| {
            let captures: Vec<&avon_ref::Mv> = moves
                .iter()
                .filter(|m| match m {
                    avon_ref::Mv::Step { to, .. } => {
                        rp.board[to.1 as usize][to.0 as usize].is_some()
                    }
                    avon_ref::Mv::Out => false,
                })
                .collect();
            Some(if bias && !captures.is_empty() && rng.below(2) == 0 {
                *captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            })
        },
        &mut |rp: &Pos, m: &avon_ref::Mv, _| {
            if *m == avon_ref::Mv::Out {
                drop_outs += 1;
                if !rp.is_out(avon_ref::partner(rp.to_move)) {
                    mass_promotions += 1;
                }
            }
        },
    );
    if let Some(d) = d {
        panic!("{d}");
    }
    stats.drop_outs += drop_outs;
    stats.mass_promotions += mass_promotions;
}

#[test]
fn random_games_through_drop_outs_to_the_end() {
    let mut stats = Stats::default();
    // 40 games of uniformly random moves, up to 300 plies: long middle
    // games with pieces across the River, a few drop-outs.
    for g in 0..40u64 {
        random_game(0xA70 + g * 7919, 300, false, &mut stats);
    }
    // 60 games preferring captures, up to 200 plies: most reach the end.
    for g in 0..60u64 {
        random_game(0x5EED + g * 104_729, 200, true, &mut stats);
    }
    println!("{stats:?}");
    // The test must not pass vacuously: the games reached drop-outs, mass
    // promotions and ends of the game.
    assert!(stats.drop_outs >= 50, "{stats:?}");
    assert!(stats.mass_promotions >= 30, "{stats:?}");
    assert!(stats.counts.games_ended >= 30, "{stats:?}");
    assert!(stats.counts.plies >= 10_000, "{stats:?}");
}

/// An Avon position string from (cell, piece) pairs, the player to move
/// and the players out in the order they went out.
fn avon(pieces: &[(&str, char)], to_move: char, out: &str) -> String {
    let pieces: Vec<(&str, String)> = pieces.iter().map(|&(c, p)| (c, p.to_string())).collect();
    common::board_fen((8, 10, 0), |_, _| true, &pieces, to_move, out)
}

/// Compares the trees to depth 3 from a position, once for every player
/// still in the game to move.
#[track_caller]
fn check_all_movers(pieces: &[(&str, char)], out: &str) -> u64 {
    let mut nodes = 0;
    for tag in ['w', 'b', 'x', 'y'] {
        if !out.contains(tag) {
            nodes += assert_same_tree(&avon(pieces, tag, out), 3);
        }
    }
    nodes
}

#[test]
fn pieces_across_the_river() {
    // Every team in. White: Queen f0 (White 0-4's royal), Princes b9, c9
    // and a Princess that crossed to d6 (White 5-9's royals); a Caryatid
    // and Bishop across on e6 and e3, an Abbot on c4, a Pawn on f4 about
    // to cross (and capture-cross onto e5/g5), a White 5-9 Pawn on b5,
    // Carpenters on d2 and e8, a Marshal on a6. Black: Queen f9, a Prince
    // b0, a Princess across on g3, Pawns g5 (Black 5-9, to cross) and e4
    // (Black 0-4), a Caryatid h2, an Abbot c7, a Carpenter e7, a Marshal
    // h9, a Bishop d5.
    let pieces = [
        ("f0", 'Q'),
        ("b9", 'K'),
        ("c9", 'K'),
        ("d6", 'S'),
        ("e6", 'Y'),
        ("e3", 'B'),
        ("c4", 'X'),
        ("f4", 'P'),
        ("b5", 'P'),
        ("d2", 'A'),
        ("e8", 'A'),
        ("a6", 'M'),
        ("f9", 'q'),
        ("b0", 'k'),
        ("g3", 's'),
        ("g5", 'p'),
        ("e4", 'p'),
        ("h2", 'y'),
        ("c7", 'x'),
        ("e7", 'a'),
        ("h9", 'm'),
        ("d5", 'b'),
    ];
    let n = check_all_movers(&pieces, "");
    assert!(n > 1000, "{n} nodes");
}

#[test]
fn back_rank_boundary_and_leapers() {
    // Riders and leapers on ranks 0, 1, 8, 9 next to the d/e line, where
    // crossing it is mostly closed; royals only on the back ranks.
    let pieces = [
        ("d0", 'Q'),
        ("e1", 'A'),
        ("c1", 'B'),
        ("d1", 'M'),
        ("e9", 'K'),
        ("d8", 'X'),
        ("e8", 'Y'),
        ("c8", 'S'),
        ("e0", 'k'),
        ("d9", 'q'),
        ("f8", 'a'),
        ("c9", 'm'),
        ("f1", 'x'),
        ("b2", 'y'),
        ("g7", 's'),
    ];
    check_all_movers(&pieces, "");
}

#[test]
fn a_player_out_and_the_partner_in_total_control() {
    // White 5-9 is out: White 0-4 moves the promoted White army anywhere
    // (Queens, Chatelaines, Primates, Wazirs), still keeping a royal piece
    // on ranks 0-4. Black is complete, with pieces across the River.
    let pieces = [
        ("g0", 'Q'),
        ("d7", 'Q'),
        ("b9", 'K'),
        ("e1", 'C'),
        ("c8", 'T'),
        ("f1", 'T'),
        ("a6", 'W'),
        ("e5", 'W'),
        ("h5", 'M'),
        ("d8", 'A'),
        ("b0", 'k'),
        ("g9", 's'),
        ("f9", 'q'),
        ("e7", 'p'),
        ("c2", 'p'),
        ("f4", 'p'),
        ("a1", 'a'),
        ("g8", 'x'),
        ("h8", 'y'),
        ("c1", 'b'),
        ("h6", 'm'),
    ];
    check_all_movers(&pieces, "x");
    // The same with Black 0-4 out as well (each team has one player left,
    // both in total control), and with only Black 0-4 out.
    let black_promoted: Vec<(&str, char)> = pieces
        .iter()
        .map(|&(c, p)| {
            let q = match p {
                's' => 'q',
                'y' => 'c',
                'x' | 'b' => 't',
                'p' => 'w',
                p => p,
            };
            (c, q)
        })
        .collect();
    check_all_movers(&black_promoted, "xy");
    check_all_movers(&black_promoted, "y");
}

#[test]
fn forward_pieces_of_a_player_in_total_control() {
    // Not reachable in play (the drop-out promotes them) but well defined:
    // Black 5-9 is out and Black 0-4 still has a Princess, Abbot and
    // Caryatid, which move north for it; White is complete.
    let pieces = [
        ("h0", 'Q'),
        ("a9", 'K'),
        ("e2", 'P'),
        ("c7", 'P'),
        ("d3", 's'),
        ("e5", 'x'),
        ("b2", 'y'),
        ("g6", 'k'),
        ("a0", 'm'),
    ];
    check_all_movers(&pieces, "b");
}

#[test]
fn forced_drop_out_with_mass_promotion() {
    // Black 0-4's only royal piece (a Princess) stands on h6 and cannot
    // come back to ranks 0-4 in one move: on its turn it must drop out,
    // and Black 5-9 takes over the army with the mass promotion. Black
    // pieces of every promotable type are on the board.
    let pieces = [
        ("h0", 'Q'),
        ("a9", 'K'),
        ("e9", 'S'),
        ("h6", 's'),
        ("b8", 'k'),
        ("f7", 'x'),
        ("c6", 'y'),
        ("d7", 'b'),
        ("a4", 'p'),
        ("g7", 'p'),
        ("e1", 'a'),
        ("a2", 'P'),
        ("g3", 'B'),
    ];
    let fen = avon(&pieces, 'y', "");
    let mut eng = engine(&fen);
    assert_eq!(common::legal(&mut eng), ["out"]);
    assert_eq!(Pos::parse(&fen).unwrap().legal_texts(), ["out"]);
    check_all_movers(&pieces, "");
}

#[test]
fn the_last_drop_out_ends_the_game() {
    // Black 0-4 is out; Black 5-9's only royal piece, a Queen on c3, is on
    // the low half and boxed in by its own Wazirs: the Queen cannot come
    // home (b2/c2/d2 and b4/c4/d4 ... all own or blocked) so the player
    // must drop out, which ends the game. White may also capture first.
    let pieces = [
        ("h0", 'Q'),
        ("a9", 'K'),
        ("c3", 'q'),
        ("b2", 'w'),
        ("c2", 'w'),
        ("d2", 'w'),
        ("b3", 'w'),
        ("d3", 'w'),
        ("b4", 'w'),
        ("c4", 'w'),
        ("d4", 'w'),
        ("g6", 'c'),
    ];
    let fen = avon(&pieces, 'b', "y");
    let mut eng = engine(&fen);
    assert_eq!(common::legal(&mut eng), ["out"]);
    check_all_movers(&pieces, "y");
}
