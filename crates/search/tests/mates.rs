//! Forced wins found by the search: mates in one and two in chess and
//! Magna Carta, each checked against a brute-force proof from the rules
//! engine (so the test does not trust the search to judge itself).

use quadrille_engine::{embedded, Move, Position};
use quadrille_search::{result_for, score, Limits, Options, Searcher};
use std::cmp::Ordering;

/// Does the player to move win at once after `m`?
fn wins_at_once(pos: &mut Position, m: Move) -> bool {
    let army = pos.army_to_move();
    pos.make(m);
    let won = pos
        .outcome()
        .is_some_and(|o| result_for(&o, pos.variant(), army) == Ordering::Less);
    pos.unmake();
    won
}

/// Every move that wins at once.
fn mates_in_one(pos: &mut Position) -> Vec<Move> {
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    moves
        .into_iter()
        .filter(|&m| wins_at_once(pos, m))
        .collect()
}

/// Does `m` force a win on the next move against every reply?
fn forces_mate_in_two(pos: &mut Position, m: Move) -> bool {
    pos.make(m);
    let replies: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let forced = pos.outcome().is_none()
        && replies.iter().all(|&r| {
            pos.make(r);
            let mate = !mates_in_one(pos).is_empty();
            pos.unmake();
            mate
        });
    pos.unmake();
    forced
}

/// The search's move and score at a fixed depth.
fn search(pos: &Position, depth: u32) -> (Move, i32) {
    search_with(Options::default(), pos, depth)
}

/// The default options with one parameter setting (`NAME:VALUE`) applied.
fn options_with(setting: &str) -> Options {
    let mut options = Options::default();
    options.params.apply(setting).unwrap();
    options
}

fn search_with(options: Options, pos: &Position, depth: u32) -> (Move, i32) {
    let r = Searcher::new(options).best_move(pos, &Limits::depth(depth));
    (r.best.expect("a move"), r.score)
}

fn check_mate_in_one(variant: &str, fen: &str) {
    let v = embedded::variant(variant).unwrap();
    let mut pos = Position::from_string(v, fen).unwrap();
    let solutions = mates_in_one(&mut pos);
    assert!(
        !solutions.is_empty(),
        "{variant} {fen}: no mate in one here"
    );
    let (m, s) = search(&pos, 3);
    assert!(
        solutions.contains(&m),
        "{variant} {fen}: {} is not a mate",
        pos.move_to_string(m)
    );
    assert_eq!(score::mate_moves(s), Some(1), "{variant} {fen}: score {s}");
}

fn check_mate_in_two(variant: &str, fen: &str) {
    check_mate_in_two_with(Options::default(), variant, fen);
}

fn check_mate_in_two_with(options: Options, variant: &str, fen: &str) {
    check_mate_in_two_at(options, variant, fen, 5);
}

/// A mate in two found by a search of `depth` plies.
fn check_mate_in_two_at(options: Options, variant: &str, fen: &str, depth: u32) {
    let v = embedded::variant(variant).unwrap();
    let mut pos = Position::from_string(v, fen).unwrap();
    assert!(
        mates_in_one(&mut pos).is_empty(),
        "{variant} {fen}: already a mate in one"
    );
    let (m, s) = search_with(options, &pos, depth);
    assert_eq!(score::mate_moves(s), Some(2), "{variant} {fen}: score {s}");
    assert!(
        forces_mate_in_two(&mut pos, m),
        "{variant} {fen}: {} does not force mate",
        pos.move_to_string(m)
    );
    // The defender, to move after it, sees the loss coming.
    pos.make(m);
    let (_, s) = search_with(options, &pos, 4);
    assert_eq!(
        score::mate_moves(s),
        Some(-1),
        "{variant} {fen}: defender's score {s}"
    );
}

#[test]
fn chess_mate_in_one() {
    // Scholar's mate.
    check_mate_in_one(
        "chess",
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1",
    );
    // A back-rank mate for Black.
    check_mate_in_one("chess", "3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1");
}

#[test]
fn chess_mate_in_two() {
    // 1. Nf6+ gxf6 2. Bxf7#.
    check_mate_in_two(
        "chess",
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
    );
    // Two rooks: a ladder along the edge.
    check_mate_in_two("chess", "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1");
}

#[test]
fn a_queen_sacrifice_that_mates_is_not_pruned() {
    // Win at Chess 1: 1. Qg6 (the pawn may take it) and 2. Qh7#, or
    // 2. Nxg6# after 1... fxg6. The mating replies are quiet checks at
    // nodes where White, a queen down, looks hopeless: futility pruning
    // skipped them until it spared checks (`spare_checks`): before, not
    // even twelve plies found the mate; now six do (at five, late move
    // pruning, which in chess still skips late checks, hides it).
    // Pruning on the principal line too (`pv_prune` 2) keeps it: there
    // late move pruning spares checks (with `pv_prune` 1 it did not, and
    // the defender, searched four plies after 1. Qg6, missed the mate).
    for setting in ["pv_prune:0", "pv_prune:2"] {
        check_mate_in_two_at(
            options_with(setting),
            "chess",
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
            6,
        );
    }
}

#[test]
fn quiet_checks_in_quiescence_see_a_mate_a_ply_sooner() {
    // The ladder after 1. Rb7: whatever Black plays (a King step or a
    // pawn capture; Black's Queen is walled in), 2. Ra8# follows, a quiet
    // move. At one ply that mate lies in quiescence, which tries quiet
    // checks only with `q_checks`; Black, a Queen up, sees it only then.
    let v = embedded::variant("chess").unwrap();
    let mut pos = Position::from_string(v, "7k/1R6/6pp/6pq/6pp/6PP/R7/2K5 b - - 0 1").unwrap();
    let replies: Vec<Move> = pos.legal_moves().iter().copied().collect();
    assert!(replies.len() >= 3);
    for r in replies {
        pos.make(r);
        assert!(!mates_in_one(&mut pos).is_empty());
        pos.unmake();
    }
    let at_one_ply =
        |setting: &str| score::mate_moves(search_with(options_with(setting), &pos, 1).1);
    assert_eq!(at_one_ply("q_checks:0"), None);
    assert_eq!(at_one_ply("q_checks:1"), Some(-1));
}

#[test]
fn helper_threads_find_the_same_mate() {
    let v = embedded::variant("chess").unwrap();
    let mut pos = Position::from_string(
        v,
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
    )
    .unwrap();
    let mut ai = Searcher::new(Options {
        threads: 4,
        ..Options::default()
    });
    let r = ai.best_move(&pos, &Limits::depth(5));
    assert_eq!(score::mate_moves(r.score), Some(2), "score {}", r.score);
    assert!(forces_mate_in_two(&mut pos, r.best.expect("a move")));
}

#[test]
fn magna_carta_mate_in_one() {
    // The Rook mates Black's King on the back rank; Black's royal Queen
    // in the corner cannot interpose. White's Marshal and Cardinal (royal
    // while single) stand out of the Queen's lines.
    check_mate_in_one("magna-carta", "7k/6pp/8/8/7C/7M/3R4/q7 w - - 0 1");
    // Rd8 attacks both royals; the Queen may not take the Rook, which the
    // Cardinal guards, nor step to b8 or c8.
    check_mate_in_one("magna-carta", "q6k/pp4pp/4C3/8/8/8/8/3R2M1 w - - 0 1");
}

#[test]
fn magna_carta_mate_in_two() {
    // Black's Rook can interpose once.
    check_mate_in_two("magna-carta", "7k/4r1pp/8/8/7C/7M/3R4/q7 w - - 0 1");
}

#[test]
fn optional_prunings_and_extensions_keep_the_mates() {
    // Each switched on at depths where these small searches reach it
    // (singular extension from depth 2, so the test runs at every node
    // with a table move).
    for setting in [
        "lmr_cut_node:2",
        "tt_eval:1",
        "singular_depth:2",
        "history_prune_depth:4",
        "lmp_depth:8",
        "pv_prune:2",
    ] {
        let options = options_with(setting);
        for (variant, fen) in [
            (
                "chess",
                "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
            ),
            ("chess", "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1"),
            ("magna-carta", "7k/4r1pp/8/8/7C/7M/3R4/q7 w - - 0 1"),
        ] {
            check_mate_in_two_with(options, variant, fen);
        }
    }
}
