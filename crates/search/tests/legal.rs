//! Whatever the variant and position, the search returns one of the
//! engine's legal moves (or none when the game is over), with every
//! algorithm and limit.

mod common;

use quadrille_engine::{embedded, MoveKind, Position, Variant};
use quadrille_search::limits::level_table;
use quadrille_search::{Algorithm, Limits, MultiAlgorithm, Options, Searcher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::variants;

/// Positions along a seeded random game: every `step` plies until the end
/// or `plies`.
fn positions(v: &Arc<Variant>, seed: u64, plies: usize, step: usize) -> Vec<Position> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut p = v.start();
    let mut out = vec![p.clone()];
    for ply in 1..=plies {
        if p.outcome().is_some() {
            break;
        }
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        p.make(moves.as_slice()[rng.usize(..moves.len())]);
        if ply % step == 0 {
            out.push(p.clone());
        }
    }
    out
}

/// The search's answer is legal, and missing only without legal moves.
fn assert_legal(searcher: &mut Searcher, pos: &Position, limits: &Limits, what: &str) {
    let r = searcher.best_move(pos, limits);
    let mut p = pos.clone();
    let legal = p.legal_moves();
    match r.best {
        Some(m) => assert!(
            legal.iter().any(|&l| l == m),
            "{what}: {} is not legal in {pos}",
            pos.move_to_string(m)
        ),
        None => assert!(legal.is_empty(), "{what}: no move found in {pos}"),
    }
    // The line starts with the move and is playable.
    if let Some(m) = r.best {
        assert_eq!(r.pv.first(), Some(&m), "{what}: line {:?}", r.pv);
        for &m in &r.pv {
            let l = p.legal_moves();
            assert!(l.iter().any(|&x| x == m), "{what}: line not legal in {pos}");
            p.make(m);
        }
    }
}

#[test]
fn every_variant_every_algorithm_returns_legal_moves() {
    for v in variants() {
        let multi = v.armies.len() > 2;
        let algorithms: &[MultiAlgorithm] = if multi {
            &[
                MultiAlgorithm::BestReply,
                MultiAlgorithm::Paranoid,
                MultiAlgorithm::MaxN,
            ]
        } else {
            &[MultiAlgorithm::BestReply]
        };
        for &a in algorithms {
            let options = Options {
                multi: a,
                hash_mb: 2,
                ..Options::default()
            };
            let mut searcher = Searcher::new(options);
            for (i, pos) in positions(&v, 7, 160, 16).iter().enumerate() {
                let what = format!("{} {a:?} position {i}", v.name);
                assert_legal(&mut searcher, pos, &Limits::nodes(1500), &what);
            }
        }
        // The default: PVS for two sides, Paranoid for more (measured the
        // stronger in both four-player families).
        let expected = if multi {
            Algorithm::Paranoid
        } else {
            Algorithm::Pvs
        };
        let r = Searcher::default().best_move(&v.start(), &Limits::depth(1));
        assert_eq!(r.algorithm, expected, "{}", v.name);
    }
}

#[test]
fn levels_and_depths_return_legal_moves() {
    for v in variants() {
        let pos = v.start();
        let mut searcher = Searcher::default();
        for level in 1..=3 {
            let what = format!("{} level {level}", v.name);
            assert_legal(&mut searcher, &pos, &Limits::level(level), &what);
        }
        // A level reads the variant's own table (four-player games:
        // depth 1 at level 2, where the shared table has 2).
        let r = searcher.best_move(&pos, &Limits::level(2));
        assert_eq!(Some(r.depth), level_table(&v.name)[1].depth, "{}", v.name);
        let r = searcher.best_move(&pos, &Limits::depth(2));
        assert_eq!(r.depth, 2, "{}", v.name);
        assert!(r.nodes > 0);
    }
}

/// A four-player game's weakest level overlooks moves at random (its
/// table's `hidden`), so it plays varied moves where the same depth without
/// hidden moves plays one.
#[test]
fn the_weakest_four_player_level_overlooks_moves() {
    for name in ["tor-aikou", "sylvia"] {
        let v = embedded::variant(name).unwrap();
        let pos = v.start();
        let mut searcher = Searcher::default();
        let mut played = |limits: &Limits| {
            (0..12)
                .map(|_| searcher.best_move(&pos, limits).best.unwrap())
                .collect::<std::collections::HashSet<_>>()
                .len()
        };
        assert!(played(&Limits::level(1)) > 1, "{name}");
        assert_eq!(played(&Limits::depth(1)), 1, "{name}");
    }
}

#[test]
fn a_forced_drop_out_is_played() {
    // Play random Mini Fivequarters and Avon games until someone has no
    // move: the search must answer `out`.
    let mut found = 0;
    for name in ["diana", "sylvia", "avon", "ariana"] {
        let v = embedded::variant(name).unwrap();
        for seed in 0..40 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let mut p = v.start();
            for _ in 0..400 {
                if p.outcome().is_some() {
                    break;
                }
                let moves = p.legal_moves();
                if moves.len() == 1 && moves.as_slice()[0].kind == MoveKind::DropOut {
                    let r = Searcher::default().best_move(&p, &Limits::nodes(500));
                    assert_eq!(r.best.map(|m| m.kind), Some(MoveKind::DropOut), "{p}");
                    found += 1;
                    break;
                }
                p.make(moves.as_slice()[rng.usize(..moves.len())]);
            }
        }
    }
    assert!(found > 0, "no drop-out reached; pick other seeds");
}

#[test]
fn a_stop_from_another_thread_ends_the_search_with_a_move() {
    let v = embedded::variant("caissa-britannia").unwrap();
    let pos = v.start();
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits::infinite().with_stop(stop.clone());
    let handle = std::thread::spawn(move || Searcher::default().best_move(&pos, &limits));
    std::thread::sleep(Duration::from_millis(100));
    stop.store(true, Ordering::Relaxed);
    let r = handle.join().unwrap();
    let p = v.start();
    assert!(p.legal_moves().iter().any(|&m| Some(m) == r.best));
}

#[test]
fn helper_threads_leave_legal_moves() {
    for name in ["chess", "magna-carta", "avon", "ariana", "yang-aikou"] {
        let v = embedded::variant(name).unwrap();
        let options = Options {
            threads: 3,
            hash_mb: 2,
            ..Options::default()
        };
        let mut searcher = Searcher::new(options);
        for (i, pos) in positions(&v, 11, 80, 20).iter().enumerate() {
            let what = format!("{name} position {i}, three threads");
            assert_legal(&mut searcher, pos, &Limits::movetime(30), &what);
        }
        // A depth limit holds for the main thread (helpers skip depths).
        let r = searcher.best_move(&v.start(), &Limits::depth(4));
        assert_eq!(r.depth, 4, "{name}");
    }
}

#[test]
fn a_finished_game_has_no_move() {
    let v = embedded::variant("chess").unwrap();
    // Fool's mate: White is checkmated.
    let mut p = v.start();
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        p.play(m).unwrap();
    }
    let r = Searcher::default().best_move(&p, &Limits::depth(3));
    assert_eq!(r.best, None);
    assert!(r.score < 0);
}

#[test]
fn the_searcher_can_move_between_threads() {
    fn send<T: Send>() {}
    send::<Searcher>();
    send::<quadrille_search::SearchResult>();
}
