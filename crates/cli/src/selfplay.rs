//! `selfplay`: a match between two contenders (random, greedy, or the
//! search with settings) over many games, seats alternating, with a
//! progress bar, a table of results with an Elo estimate and an optional
//! SPRT (the four-player games' test: `match` takes only two armies).

use indicatif::{ProgressBar, ProgressStyle};
use quadrille_engine::Position;
use quadrille_search::arena::{seat_cycle, won_drawn_lost, Match};
use quadrille_search::stats::{llr_of_games, Decision, Sprt, Verdict};
use quadrille_search::{Contender, Elo, MatchReport};
use std::sync::Mutex;

/// What `selfplay` was asked to play.
pub struct Settings {
    pub a: String,
    pub b: String,
    pub games: usize,
    pub max_plies: usize,
    pub jobs: usize,
    pub seed: u64,
    pub opening_plies: usize,
    /// Stop when this test decides.
    pub sprt: Option<Sprt>,
    pub quiet: bool,
}

pub fn run(start: Position, s: &Settings) -> Result<(), String> {
    let a = Contender::parse(&s.a)?;
    let b = Contender::parse(&s.b)?;
    let v = start.variant().clone();
    outln!(
        "selfplay {}: {} vs {}, {} games, {} random opening plies, at most {} plies each, {} at a time",
        v.name,
        a.name,
        b.name,
        s.games,
        s.opening_plies,
        s.max_plies,
        s.jobs
    );
    let m = Match {
        start,
        contenders: [a, b],
        games: s.games,
        max_plies: s.max_plies,
        seed: s.seed,
        jobs: s.jobs,
        opening_plies: s.opening_plies,
    };
    let bar = if s.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(s.games as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {msg}  [{elapsed_precise}]")
            .map_err(|e| e.to_string())?,
    );
    // The test's ratio and verdict for these games' points: it judges only
    // once both contenders have had every seating.
    let cycle = seat_cycle(&v);
    let judge = |scores: &[f64]| {
        s.sprt.map(|t| {
            let llr = llr_of_games(scores, t.elo0, t.elo1);
            let verdict = if scores.len() >= cycle {
                t.judge(llr)
            } else {
                Verdict::Continue
            };
            (t, llr, verdict)
        })
    };
    // Every game's points so far, for the running score and the test.
    let scores = Mutex::new((Vec::new(), Decision::default()));
    let report = m.run(&|game| {
        let Ok(mut guard) = scores.lock() else {
            return false;
        };
        let (sc, decision) = &mut *guard;
        sc.push(game.points[0]);
        let (won, drawn, lost) = won_drawn_lost(sc);
        let mut msg = format!(
            "score {:.2}/{} (+{won} ={drawn} -{lost})  Elo {}",
            sc.iter().sum::<f64>(),
            sc.len(),
            Elo::from_scores(sc).text()
        );
        let test = judge(sc);
        if let Some((t, llr, _)) = test {
            let (lo, hi) = t.bounds();
            msg.push_str(&format!("  LLR {llr:.2} ({lo:.2}, {hi:.2})"));
        }
        // Without a terminal (a long match in the background) the bar is
        // hidden: a line per game keeps the running score readable.
        if bar.is_hidden() && !s.quiet {
            eprintln!("game {}: {msg}", sc.len());
        }
        bar.set_message(msg);
        bar.inc(1);
        test.is_none_or(|(_, llr, verdict)| !decision.note(verdict, sc.len(), llr))
    });
    bar.finish_and_clear();
    table(&report)?;
    if let Some((t, llr, verdict)) = judge(&report.scores) {
        let decision = scores.lock().map(|g| g.1).unwrap_or_default();
        outln!(
            "SPRT [{}, {}]: LLR {llr:.2}, {}",
            t.elo0,
            t.elo1,
            decision.describe(verdict)
        );
    }
    Ok(())
}

/// The result table: one row per contender.
fn table(r: &MatchReport) -> Result<(), String> {
    let width = r.names.iter().map(|n| n.len()).max().unwrap_or(0).max(10);
    outln!(
        "{:<width$} {:>6} {:>7} {:>5} {:>5} {:>5} {:>6}  {}",
        "contender",
        "games",
        "score",
        "won",
        "drawn",
        "lost",
        "firsts",
        "Elo (95% interval)"
    );
    let n = r.scores.len();
    let elo = r.elo();
    let rows = [
        (&r.names[0], r.score(), r.wins, r.losses, r.firsts[0], elo),
        (
            &r.names[1],
            1.0 - r.score(),
            r.losses,
            r.wins,
            r.firsts[1],
            elo.reversed(),
        ),
    ];
    for (name, score, won, lost, firsts, elo) in rows {
        outln!(
            "{:<width$} {:>6} {:>6.1}% {:>5} {:>5} {:>5} {:>6}  {}",
            name,
            n,
            score * 100.0,
            won,
            r.draws,
            lost,
            format!("{firsts:.1}").trim_end_matches(".0"),
            elo.text()
        );
    }
    outln!(
        "games stopped at the ply limit: {}; illegal moves: {}; average length: {:.0} plies",
        r.unfinished,
        r.illegal.len(),
        r.plies as f64 / n.max(1) as f64
    );
    for i in &r.illegal {
        outln!("illegal: {i}");
    }
    if !r.illegal.is_empty() {
        return Err(format!("{} illegal moves", r.illegal.len()));
    }
    Ok(())
}
