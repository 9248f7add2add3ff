//! Self-play: baseline players (a random mover, a 1-ply greedy player),
//! games between contenders with every move checked against the legal
//! moves, matches that rotate the seats, and an Elo estimate.

use crate::eval::Eval;
use crate::limits::Limits;
use crate::score::MATE;
use crate::searcher::{result_for, Options, Searcher};
use quadrille_engine::{Move, Outcome, Position, Variant};
use std::cmp::Ordering as CmpOrdering;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// How a contender chooses its moves.
#[derive(Clone, Debug)]
pub enum Kind {
    /// Uniformly among the legal moves.
    Random,
    /// The move with the best static evaluation after it (ties at random).
    Greedy,
    /// The search with these settings and limits.
    Search {
        options: Box<Options>,
        limits: Limits,
    },
}

/// A named player of a match.
#[derive(Clone, Debug)]
pub struct Contender {
    pub name: String,
    pub kind: Kind,
}

impl Contender {
    pub fn random() -> Contender {
        Contender {
            name: "random".into(),
            kind: Kind::Random,
        }
    }
    pub fn greedy() -> Contender {
        Contender {
            name: "greedy".into(),
            kind: Kind::Greedy,
        }
    }
    pub fn search(name: impl Into<String>, options: Options, limits: Limits) -> Contender {
        Contender {
            name: name.into(),
            kind: Kind::Search {
                options: Box::new(options),
                limits,
            },
        }
    }

    /// Reads a contender: `random`, `greedy`, or `search` with settings,
    /// `search:movetime=100,null=off,lmr=off,multi=paranoid` (keys: depth,
    /// nodes, movetime, noise, hidden, level, hash, null, lmr, mobility, learnt,
    /// pst (the learnt piece-square tables), multi
    /// (`auto`, `brs`, `paranoid` or `maxn`), and `tune=NAME:VALUE` for a
    /// [`crate::Params`] field). The text is its name.
    pub fn parse(spec: &str) -> Result<Contender, String> {
        let spec = spec.trim();
        let (kind, settings) = spec.split_once(':').unwrap_or((spec, ""));
        let mut c = match kind {
            "random" => Contender::random(),
            "greedy" => Contender::greedy(),
            "search" => Contender::search(spec, Options::default(), Limits::default()),
            _ => {
                return Err(format!(
                    "contender `{spec}`: expected random, greedy or search[:key=value,...]"
                ))
            }
        };
        c.name = spec.to_string();
        let Kind::Search { options, limits } = &mut c.kind else {
            if settings.is_empty() {
                return Ok(c);
            }
            return Err(format!("contender `{spec}`: only `search` takes settings"));
        };
        for item in settings.split(',').filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| format!("contender `{spec}`: `{item}` is not key=value"))?;
            let bad = || format!("contender `{spec}`: bad value `{value}` for `{key}`");
            let number = || value.parse::<u64>().map_err(|_| bad());
            let on = || match value {
                "on" | "true" | "yes" => Ok(true),
                "off" | "false" | "no" => Ok(false),
                _ => Err(bad()),
            };
            match key {
                "depth" => limits.depth = Some(number()?.clamp(1, 64) as u32),
                "nodes" => limits.nodes = Some(number()?.max(1)),
                "movetime" => limits.movetime = Some(number()?),
                "noise" => limits.noise = number()?.min(10_000) as u32,
                "hidden" => limits.hidden = number()?.min(99) as u32,
                "level" => {
                    let stop = limits.stop.clone();
                    *limits = Limits::level(number()?.min(255) as u8).with_stop(stop);
                }
                "hash" => options.hash_mb = number()?.clamp(1, 4096) as usize,
                "threads" => options.threads = number()?.clamp(1, 256) as usize,
                "null" => options.null_move = on()?,
                "lmr" => options.lmr = on()?,
                "mobility" => options.terms.mobility = on()?,
                "learnt" => options.terms.learnt = on()?,
                "pst" => options.terms.pst = on()?,
                "tune" => options.params.apply(value)?,
                "multi" => options.multi = value.parse().map_err(|_| bad())?,
                _ => return Err(format!("contender `{spec}`: unknown setting `{key}`")),
            }
        }
        Ok(c)
    }

    /// The contender's player for one game (`seed` for the random and
    /// greedy ones).
    pub fn mover(&self, seed: u64) -> Mover {
        match &self.kind {
            Kind::Random => Mover::Random(fastrand::Rng::with_seed(seed)),
            Kind::Greedy => Mover::Greedy(fastrand::Rng::with_seed(seed), None),
            Kind::Search { options, limits } => {
                Mover::Search(Box::new(Searcher::new(**options)), limits.clone())
            }
        }
    }
}

/// A contender during one game.
pub enum Mover {
    Random(fastrand::Rng),
    Greedy(fastrand::Rng, Option<Box<Eval>>),
    Search(Box<Searcher>, Limits),
}

impl Mover {
    /// The move this player makes, `None` if there is none.
    pub fn choose(&mut self, pos: &Position) -> Option<Move> {
        match self {
            Mover::Random(rng) => {
                let p = pos.clone();
                let moves = p.legal_moves();
                (!moves.is_empty()).then(|| moves.as_slice()[rng.usize(..moves.len())])
            }
            Mover::Greedy(rng, eval) => {
                let v = pos.variant();
                if eval.as_ref().is_none_or(|e| !Arc::ptr_eq(&e.variant, v)) {
                    *eval = Some(Box::new(Eval::new(v, Default::default())));
                }
                greedy(pos, eval.as_ref()?, rng)
            }
            Mover::Search(searcher, limits) => searcher.best_move(pos, limits).best,
        }
    }
}

/// The 1-ply greedy choice: the static score after each move, for the
/// mover's army (a finished game scores as won, drawn or lost).
pub fn greedy(pos: &Position, eval: &Eval, rng: &mut fastrand::Rng) -> Option<Move> {
    let mut p = pos.clone();
    let army = p.army_to_move();
    let two = p.variant().armies.len() == 2;
    let moves = p.legal_moves();
    let mut best: Vec<Move> = Vec::new();
    let mut best_score = i32::MIN;
    for &m in moves.iter() {
        p.make(m);
        let s = match p.outcome() {
            Some(o) => match result_for(&o, p.variant(), army) {
                CmpOrdering::Less => MATE,
                CmpOrdering::Equal => 0,
                CmpOrdering::Greater => -MATE,
            },
            None if two => {
                let s = eval.armies(&p);
                s[army as usize] - s[1 - army as usize]
            }
            None => eval.many_sided(&p, army),
        };
        p.unmake();
        if s > best_score {
            best_score = s;
            best.clear();
        }
        if s == best_score {
            best.push(m);
        }
    }
    (!best.is_empty()).then(|| best[rng.usize(..best.len())])
}

/// A finished (or stopped) game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The moves in coordinate notation.
    pub moves: Vec<String>,
    /// The result; `None` if the game reached the ply limit.
    pub outcome: Option<Outcome>,
    /// A move that was not legal, with the position before it (the game
    /// stops there). Never expected: tests assert it stays `None`.
    pub illegal: Option<String>,
    /// The contender (0 or 1) in each player's seat.
    pub seats: Vec<usize>,
    /// Points of each contender in this game, from 0 to 1.
    pub points: [f64; 2],
    /// Each contender's share of first place (1 for the winner's).
    pub first: [f64; 2],
}

/// Plays one game from `start`, the contender in seat `p` choosing for
/// player `p`.
pub fn play_game(
    start: &Position,
    contenders: [&Contender; 2],
    seats: &[usize],
    max_plies: usize,
    seed: u64,
) -> GameRecord {
    let mut pos = start.clone();
    let mut movers: Vec<Mover> = seats
        .iter()
        .enumerate()
        .map(|(i, &c)| contenders[c].mover(seed.wrapping_add(i as u64 * 7919)))
        .collect();
    let mut moves = Vec::new();
    let mut illegal = None;
    let mut outcome = None;
    for _ in 0..max_plies {
        if let Some(o) = pos.outcome() {
            outcome = Some(o);
            break;
        }
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let chosen = movers[pos.to_move()].choose(&pos);
        match chosen.filter(|m| legal.iter().any(|l| l == m)) {
            Some(m) => {
                moves.push(pos.move_to_string(m));
                pos.make(m);
            }
            None => {
                illegal = Some(format!(
                    "{} chose {:?} in {}",
                    pos.variant().players[pos.to_move()].name,
                    chosen.map(|m| pos.move_to_string(m)),
                    pos
                ));
                break;
            }
        }
    }
    if outcome.is_none() && illegal.is_none() {
        outcome = pos.outcome();
    }
    let ranking = final_ranking(&pos, outcome.as_ref());
    GameRecord {
        moves,
        illegal,
        seats: seats.to_vec(),
        points: points(pos.variant(), &ranking, seats),
        first: first_places(&ranking, seats),
        outcome,
    }
}

/// Each contender's points: in two-army games the army's result (1, 1/2,
/// 0); otherwise each seat's place (1 for first, 0 for last, shared places
/// split), averaged over the contender's seats. An unfinished game ranks
/// the players still in together, ahead of those out.
fn points(v: &Variant, ranking: &[Vec<usize>], seats: &[usize]) -> [f64; 2] {
    let n = v.players.len();
    let seat_points = |p: usize| -> f64 {
        if v.armies.len() == 2 {
            let o = Outcome {
                ranking: ranking.to_vec(),
                reason: quadrille_engine::EndReason::NoProgress,
            };
            return match result_for(&o, v, v.players[p].army) {
                CmpOrdering::Less => 1.0,
                CmpOrdering::Equal => 0.5,
                CmpOrdering::Greater => 0.0,
            };
        }
        let mut below = 0.0;
        for (i, g) in ranking.iter().enumerate() {
            if g.contains(&p) {
                let after: usize = ranking[i + 1..].iter().map(|g| g.len()).sum();
                below = after as f64 + (g.len() - 1) as f64 / 2.0;
            }
        }
        below / (n - 1).max(1) as f64
    };
    let mut sum = [0.0; 2];
    let mut count = [0usize; 2];
    for (p, &c) in seats.iter().enumerate() {
        sum[c] += seat_points(p);
        count[c] += 1;
    }
    [0, 1].map(|c| sum[c] / count[c].max(1) as f64)
}

/// The ranking of a finished game, or of an unfinished one: the players
/// still in share first place, those out follow, the last out first.
fn final_ranking(pos: &Position, outcome: Option<&Outcome>) -> Vec<Vec<usize>> {
    match outcome {
        Some(o) => o.ranking.clone(),
        None => {
            let mut r = vec![pos.players_in().collect::<Vec<_>>()];
            r.extend(pos.out_order().iter().rev().map(|&p| vec![p as usize]));
            r
        }
    }
}

/// Each contender's share of first place: a shared first place splits.
fn first_places(ranking: &[Vec<usize>], seats: &[usize]) -> [f64; 2] {
    let mut first = [0.0; 2];
    if let Some(group) = ranking.first() {
        for &p in group {
            first[seats[p]] += 1.0 / group.len() as f64;
        }
    }
    first
}

/// The contender (0 or 1) in each player's seat for game `game`: with two
/// armies, each contender takes one army (swapping every game); with more,
/// contender 0 takes half the seats, cycling through every choice of them.
pub fn seat_plan(variant: &Variant, game: usize) -> Vec<usize> {
    let n = variant.players.len();
    if variant.armies.len() == 2 {
        return (0..n)
            .map(|p| (variant.players[p].army as usize + game) % 2)
            .collect();
    }
    let k = n / 2;
    let combos: Vec<u32> = (0u32..1 << n)
        .filter(|m| m.count_ones() as usize == k)
        .collect();
    let round = game / combos.len();
    let mask = combos[game % combos.len()];
    // With an odd number of seats, the smaller share alternates.
    let swap = n % 2 == 1 && round % 2 == 1;
    (0..n)
        .map(|p| {
            let first = mask >> p & 1 != 0;
            if first != swap {
                0
            } else {
                1
            }
        })
        .collect()
}

/// The ways to give contender 0 half of `n` seats, as bit sets.
fn seat_combinations(n: usize) -> Vec<u32> {
    (0u32..1 << n)
        .filter(|m| m.count_ones() as usize == n / 2)
        .collect()
}

/// Games after which [`seat_plan`] repeats: every contender has sat in
/// every seat equally often.
pub fn seat_cycle(variant: &Variant) -> usize {
    let n = variant.players.len();
    if variant.armies.len() == 2 {
        2
    } else {
        seat_combinations(n).len() * if n % 2 == 1 { 2 } else { 1 }
    }
}

/// A start for a game: `plies` random legal moves from `start` (seeded),
/// avoiding lines that end the game.
pub fn random_opening(start: &Position, plies: usize, seed: u64) -> Position {
    for attempt in 0..20u64 {
        let mut rng = fastrand::Rng::with_seed(seed.wrapping_mul(31).wrapping_add(attempt));
        let mut p = start.clone();
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() || p.outcome().is_some() {
                break;
            }
            p.make(moves.as_slice()[rng.usize(..moves.len())]);
        }
        if p.outcome().is_none() {
            return p;
        }
    }
    start.clone()
}

/// An Elo difference with a 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    /// From the mean score (a perfect score is taken as a twelfth of a
    /// point short of it, to keep it finite: less than the smallest step
    /// of a four-player game's points, so no other score is moved).
    pub diff: f64,
    /// Bounds of the interval; infinite when the score could be perfect.
    pub low: f64,
    pub high: f64,
}

impl Elo {
    /// From per-game scores (0 to 1) of one side. The interval is Wilson's
    /// for the mean score over the games, turned into Elo: it stays
    /// meaningful for perfect scores, and is a little wide when there are
    /// many draws.
    pub fn from_scores(scores: &[f64]) -> Elo {
        let n = scores.len().max(1) as f64;
        let p = scores.iter().sum::<f64>() / n;
        let z: f64 = 1.96;
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
        let elo = crate::stats::elo_of_score;
        Elo {
            diff: elo(p.clamp(1.0 / (12.0 * n), 1.0 - 1.0 / (12.0 * n))),
            low: elo((centre - half).max(0.0)),
            high: elo((centre + half).min(1.0)),
        }
    }

    /// `+120 (+60 .. +190)`.
    pub fn text(&self) -> String {
        let bound = |x: f64| {
            if x.is_infinite() {
                if x > 0.0 { "+inf" } else { "-inf" }.to_string()
            } else {
                format!("{x:+.0}")
            }
        };
        format!(
            "{:+.0} ({} .. {})",
            self.diff,
            bound(self.low),
            bound(self.high)
        )
    }

    /// The same from the other side's point of view.
    pub fn reversed(&self) -> Elo {
        Elo {
            diff: -self.diff,
            low: -self.high,
            high: -self.low,
        }
    }
}

/// The result of a match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    pub names: [String; 2],
    /// Contender 0's points per game.
    pub scores: Vec<f64>,
    /// First places of each contender (shared places split).
    pub firsts: [f64; 2],
    /// Games contender 0 scored more than, as much as, less than half in.
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// Games stopped at the ply limit.
    pub unfinished: usize,
    /// Illegal moves seen (each ended its game).
    pub illegal: Vec<String>,
    pub plies: usize,
}

impl MatchReport {
    /// Contender 0's share of the points.
    pub fn score(&self) -> f64 {
        self.scores.iter().sum::<f64>() / self.scores.len().max(1) as f64
    }
    pub fn elo(&self) -> Elo {
        Elo::from_scores(&self.scores)
    }
}

/// A match description.
#[derive(Clone, Debug)]
pub struct Match {
    pub start: Position,
    pub contenders: [Contender; 2],
    pub games: usize,
    pub max_plies: usize,
    pub seed: u64,
    /// Games played at once (threads).
    pub jobs: usize,
    /// Random plies from `start` before each game, the same for every
    /// seating of one cycle (so both sides play each opening).
    pub opening_plies: usize,
}

impl Match {
    /// Plays the match, calling `done` after each game (from any thread);
    /// when it returns false no game starts after it (those under way
    /// finish and count).
    pub fn run(&self, done: &(dyn Fn(&GameRecord) -> bool + Sync)) -> MatchReport {
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let records: Mutex<Vec<(usize, GameRecord)>> = Mutex::new(Vec::new());
        let variant = self.start.variant().clone();
        std::thread::scope(|s| {
            for _ in 0..self.jobs.max(1) {
                s.spawn(|| loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= self.games || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let seats = seat_plan(&variant, g);
                    let [a, b] = &self.contenders;
                    let cycle = (g / seat_cycle(&variant)) as u64;
                    let start = random_opening(
                        &self.start,
                        self.opening_plies,
                        self.seed.wrapping_add(cycle),
                    );
                    let record = play_game(
                        &start,
                        [a, b],
                        &seats,
                        self.max_plies,
                        self.seed.wrapping_add(g as u64 * 1_000_003),
                    );
                    if !done(&record) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    if let Ok(mut r) = records.lock() {
                        r.push((g, record));
                    }
                });
            }
        });
        let mut records = records.into_inner().unwrap_or_default();
        records.sort_by_key(|(g, _)| *g);
        let mut report = MatchReport {
            names: self.contenders.clone().map(|c| c.name),
            scores: Vec::new(),
            firsts: [0.0; 2],
            wins: 0,
            draws: 0,
            losses: 0,
            unfinished: 0,
            illegal: Vec::new(),
            plies: 0,
        };
        for (_, r) in &records {
            let s = r.points[0];
            report.scores.push(s);
            report.firsts[0] += r.first[0];
            report.firsts[1] += r.first[1];
            report.unfinished += r.outcome.is_none() as usize;
            report.illegal.extend(r.illegal.clone());
            report.plies += r.moves.len();
        }
        (report.wins, report.draws, report.losses) = won_drawn_lost(&report.scores);
        report
    }
}

/// Games scored more than half, exactly half and less than half of the
/// points (won, drawn, lost), from one contender's per-game scores.
pub fn won_drawn_lost(scores: &[f64]) -> (usize, usize, usize) {
    let count = |f: fn(f64) -> bool| scores.iter().filter(|&&s| f(s)).count();
    let (won, lost) = (count(|s| s > 0.5), count(|s| s < 0.5));
    (won, scores.len() - won - lost, lost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::searcher::MultiAlgorithm;
    use quadrille_engine::embedded;

    #[test]
    fn seats_rotate() {
        let chess = embedded::variant("chess").unwrap();
        assert_eq!(seat_plan(&chess, 0), vec![0, 1]);
        assert_eq!(seat_plan(&chess, 1), vec![1, 0]);
        let avon = embedded::variant("avon").unwrap();
        // Players w, b, x, y move armies White, Black, White, Black.
        assert_eq!(seat_plan(&avon, 0), vec![0, 1, 0, 1]);
        assert_eq!(seat_plan(&avon, 1), vec![1, 0, 1, 0]);
        let ariana = embedded::variant("ariana").unwrap();
        let plans: Vec<Vec<usize>> = (0..6).map(|g| seat_plan(&ariana, g)).collect();
        for p in &plans {
            assert_eq!(p.iter().filter(|&&c| c == 0).count(), 2);
        }
        // Every seat is contender 0's equally often over six games.
        for seat in 0..4 {
            assert_eq!(plans.iter().filter(|p| p[seat] == 0).count(), 3);
        }
    }

    #[test]
    fn contenders_from_text() {
        assert!(matches!(
            Contender::parse("random").unwrap().kind,
            Kind::Random
        ));
        assert!(matches!(
            Contender::parse("greedy").unwrap().kind,
            Kind::Greedy
        ));
        let c = Contender::parse("search:movetime=50,null=off,multi=paranoid,hash=4").unwrap();
        assert_eq!(c.name, "search:movetime=50,null=off,multi=paranoid,hash=4");
        let Kind::Search { options, limits } = c.kind else {
            panic!("a search");
        };
        assert_eq!(limits.movetime, Some(50));
        assert!(!options.null_move && options.lmr);
        assert_eq!(options.multi, MultiAlgorithm::Paranoid);
        assert_eq!(options.hash_mb, 4);
        let Kind::Search { limits, .. } = Contender::parse("search:hidden=150").unwrap().kind
        else {
            panic!("a search");
        };
        assert_eq!(limits.hidden, 99, "a share, some move always seen");
        for bad in [
            "",
            "minimax",
            "greedy:depth=2",
            "search:depth",
            "search:depth=x",
            "search:speed=9",
            "search:null=maybe",
            "search:multi=minimax",
            "search:hidden=-5",
        ] {
            assert!(Contender::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn elo_estimates() {
        let even = Elo::from_scores(&[1.0, 0.0, 0.5, 0.5]);
        assert!(even.diff.abs() < 1e-9 && even.low < 0.0 && even.high > 0.0);
        assert!((even.low + even.high).abs() < 1e-6, "symmetric: {even:?}");
        let strong = Elo::from_scores(&[1.0, 1.0, 1.0, 0.5]);
        assert!(strong.diff > 150.0, "{strong:?}");
        // Ten wins out of ten: at least about +165 with 95% confidence.
        let perfect = Elo::from_scores(&[1.0; 10]);
        assert!(perfect.diff.is_finite() && perfect.diff > 300.0);
        assert!((perfect.low - 165.0).abs() < 10.0, "{perfect:?}");
        assert!(perfect.high.is_infinite());
        assert_eq!(
            perfect.text(),
            format!("{:+.0} (+{:.0} .. +inf)", perfect.diff, perfect.low)
        );
        assert_eq!(perfect.reversed().high, -perfect.low);
        // One four-player game's 5/6 of the points is that score, not even.
        let one = Elo::from_scores(&[5.0 / 6.0]);
        assert!(
            (one.diff - crate::stats::elo_of_score(5.0 / 6.0)).abs() < 1e-9,
            "{one:?}"
        );
    }

    #[test]
    fn games_count_as_won_drawn_or_lost_by_half_the_points() {
        let scores = [1.0, 0.5, 0.0, 5.0 / 6.0, 1.0 / 6.0, 0.5, 7.0 / 12.0];
        assert_eq!(won_drawn_lost(&scores), (3, 2, 2));
        assert_eq!(won_drawn_lost(&[]), (0, 0, 0));
    }

    #[test]
    fn points_follow_the_ranking() {
        let v = embedded::variant("ariana").unwrap();
        let ranking = vec![vec![2], vec![0], vec![1], vec![3]];
        // Contender 0 in seats 0 and 3: second and last, 2/3 and 0.
        let seats = [0, 1, 1, 0];
        let p = points(&v, &ranking, &seats);
        assert!((p[0] - 1.0 / 3.0).abs() < 1e-9, "{p:?}");
        assert!((p[1] - 2.0 / 3.0).abs() < 1e-9, "{p:?}");
        assert_eq!(first_places(&ranking, &seats), [0.0, 1.0]);
        // Unfinished with seats 1 and 2 still in (0 went out, then 3).
        let mut pos = v.start();
        let start = pos.to_string();
        let board = start.split(' ').next().unwrap();
        pos = Position::from_string(v.clone(), &format!("{board} o - - 0 1 out=rb")).unwrap();
        let ranking = final_ranking(&pos, None);
        assert_eq!(ranking, vec![vec![1, 2], vec![3], vec![0]]);
        assert_eq!(first_places(&ranking, &seats), [0.0, 1.0]);
        let p = points(&v, &ranking, &seats);
        assert!((p[1] - 5.0 / 6.0).abs() < 1e-9, "{p:?}");
    }
}
