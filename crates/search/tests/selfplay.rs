//! Self-play in every variant at tiny, deterministic limits: every move is
//! checked against the engine's legal moves (`play_game` stops a game at
//! an illegal one), and the search must outplay a random mover and a
//! greedy one. The long matches of docs/performance.md run from the CLI.

mod common;

use quadrille_engine::{embedded, Position};
use quadrille_search::arena::{play_game, seat_plan, Match};
use quadrille_search::{Contender, Limits, MultiAlgorithm, Options};

use common::variants;

fn search(nodes: u64, multi: MultiAlgorithm) -> Contender {
    let options = Options {
        multi,
        hash_mb: 2,
        ..Options::default()
    };
    Contender::search(format!("search {nodes}"), options, Limits::nodes(nodes))
}

/// Plays `games` games and checks each; returns contender 0's points.
fn matches(start: &Position, a: &Contender, b: &Contender, games: usize, max_plies: usize) -> f64 {
    let v = start.variant();
    let mut points = 0.0;
    for g in 0..games {
        let seats = seat_plan(v, g);
        let r = play_game(start, [a, b], &seats, max_plies, g as u64);
        assert!(r.illegal.is_none(), "{}: {:?}", v.name, r.illegal);
        assert!(r.moves.len() <= max_plies);
        // Every move of the record replays legally from the start.
        let mut p = start.clone();
        for m in &r.moves {
            p.play(m)
                .unwrap_or_else(|e| panic!("{}: {e} after {:?}", v.name, r.moves));
        }
        let total: f64 = r.points.iter().sum();
        assert!((0.0..=2.0).contains(&total));
        points += r.points[0];
    }
    points
}

#[test]
fn search_against_random_and_greedy_in_every_variant() {
    let mut summary = Vec::new();
    for v in variants() {
        let start = v.start();
        let s = search(400, MultiAlgorithm::BestReply);
        let vs_random = matches(&start, &s, &Contender::random(), 2, 160);
        let vs_greedy = matches(&start, &s, &Contender::greedy(), 2, 160);
        summary.push(format!("{} {vs_random}/2 {vs_greedy}/2", v.name));
        // Two games each: the search must not lose either to chance.
        assert!(vs_random >= 1.0, "{}: {vs_random} against random", v.name);
        assert!(vs_greedy >= 0.8, "{}: {vs_greedy} against greedy", v.name);
    }
    println!("{}", summary.join("\n"));
}

#[test]
fn best_reply_paranoid_and_maxn_play_legal_four_player_games() {
    for v in variants().into_iter().filter(|v| v.armies.len() > 2) {
        let start = v.start();
        let brs = search(300, MultiAlgorithm::BestReply);
        let paranoid = search(300, MultiAlgorithm::Paranoid);
        let maxn = search(300, MultiAlgorithm::MaxN);
        matches(&start, &brs, &paranoid, 2, 200);
        matches(&start, &maxn, &brs, 2, 200);
    }
}

#[test]
fn a_match_counts_every_game() {
    let v = embedded::variant("chess").unwrap();
    let m = Match {
        start: v.start(),
        contenders: [search(200, MultiAlgorithm::BestReply), Contender::random()],
        games: 4,
        max_plies: 120,
        seed: 3,
        jobs: 2,
        opening_plies: 2,
    };
    let done = std::sync::atomic::AtomicUsize::new(0);
    let report = m.run(&|_| {
        done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        true
    });
    assert_eq!(done.into_inner(), 4);
    assert_eq!(report.scores.len(), 4);
    assert_eq!(report.wins + report.draws + report.losses, 4);
    assert!(report.illegal.is_empty());
    assert!(report.score() > 0.5, "{report:?}");
}

#[test]
fn a_match_stops_when_told() {
    let v = embedded::variant("chess").unwrap();
    let m = Match {
        start: v.start(),
        contenders: [Contender::greedy(), Contender::random()],
        games: 10,
        max_plies: 60,
        seed: 5,
        jobs: 1,
        opening_plies: 2,
    };
    let done = std::sync::atomic::AtomicUsize::new(0);
    let report = m.run(&|_| done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1 < 3);
    assert_eq!(report.scores.len(), 3);
}
