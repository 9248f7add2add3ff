//! Learning a variant's evaluation weights from self-play (Texel's method):
//! play games with a short search, keep the quiet positions with the
//! game's result, then move each weight up or down while that lowers the
//! squared error between the result and the evaluation's predicted score
//! (a logistic curve of the centipawns). Deterministic for a seed; no I/O
//! (`quadrille tune` writes the file). Recorded games (a match's record)
//! are data too ([`Sample::from_record_line`]).
//!
//! Why this and not a network: the weights are few and readable (a file a
//! person can check), the fit takes seconds, and the data a two-core
//! machine makes in minutes is enough for them (docs/performance.md).

use crate::arena::random_opening;
use crate::eval::{Eval, Terms};
use crate::limits::Limits;
use crate::ordering::is_tactical;
use crate::searcher::{result_for, Options, Searcher};
use crate::values::Knowledge;
use crate::weights::{Weights, MOBILITY_BUCKETS, THREAT_KINDS};
use quadrille_engine::{Cell, Position, Variant};
use std::cmp::Ordering as CmpOrdering;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// A position, how its game ended for the first army (1, 1/2, 0), and
/// the self-play search's score of it for the first army (centipawns,
/// mates and larger scores clamped to [`SCORE_CAP`]); none for a position
/// of a recorded game, whose target is then its result alone.
#[derive(Clone)]
pub struct Sample {
    pub pos: Position,
    pub result: f64,
    pub score: Option<i32>,
}

/// Search scores kept in samples are clamped to plus or minus this.
pub const SCORE_CAP: i32 = 2000;

impl Sample {
    /// One line of a data file: position, result, score (tab-separated;
    /// `-` for no score).
    pub fn to_line(&self) -> String {
        let score = self.score.map_or("-".to_string(), |s| s.to_string());
        format!("{}\t{}\t{score}", self.pos, self.result)
    }

    /// Reads a line written by [`Sample::to_line`].
    pub fn from_line(v: &Arc<Variant>, line: &str) -> Result<Sample, String> {
        let mut parts = line.split('\t');
        let (Some(pos), Some(result), Some(score), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err("expected position, result and score, tab-separated".into());
        };
        let pos = Position::from_string(v.clone(), pos).map_err(|e| e.to_string())?;
        let result: f64 = result
            .parse()
            .ok()
            .filter(|r| [0.0, 0.5, 1.0].contains(r))
            .ok_or_else(|| format!("result `{result}`: expected 0, 0.5 or 1"))?;
        let score = match score {
            "-" => None,
            _ => Some(
                score
                    .parse::<i32>()
                    .map_err(|_| format!("score `{score}`: expected centipawns or -"))?
                    .clamp(-SCORE_CAP, SCORE_CAP),
            ),
        };
        Ok(Sample { pos, result, score })
    }

    /// The quiet positions (as [`samples`] keeps them: `value` are the
    /// piece values that judge a promotion) of one game of a match record
    /// (`quadrille match --record`: start position, the two players,
    /// result, ending, moves; tab-separated) from ply `skip` on, each with
    /// the game's result and no score: games against stronger play teach
    /// what self-play cannot.
    pub fn from_record_line(
        v: &Arc<Variant>,
        line: &str,
        skip: usize,
        value: &[i32],
    ) -> Result<Vec<Sample>, String> {
        let f: Vec<&str> = line.split('\t').collect();
        let [start, _, _, result, _, moves] = f[..] else {
            return Err("expected start, players, result, ending and moves, tab-separated".into());
        };
        let result = match result {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            _ => return Err(format!("result `{result}`: expected 1-0, 0-1 or 1/2-1/2")),
        };
        let mut pos = Position::from_string(v.clone(), start).map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        for (ply, text) in moves.split_whitespace().enumerate() {
            let m = pos
                .parse_move(text)
                .map_err(|e| format!("move {} `{text}`: {e}", ply + 1))?;
            if ply >= skip && !pos.in_check() && !is_tactical(&pos, m, value) {
                out.push(Sample {
                    pos: pos.clone(),
                    result,
                    score: None,
                });
            }
            pos.make(m);
        }
        Ok(out)
    }
}

/// How to make the data.
#[derive(Clone, Debug)]
pub struct Plan {
    pub games: usize,
    /// Nodes per move of the self-play search.
    pub nodes: u64,
    /// Random plies before each game, and plies skipped before sampling.
    pub opening_plies: usize,
    pub max_plies: usize,
    pub jobs: usize,
    pub seed: u64,
}

/// Plays the games and keeps their quiet positions (not in check, the
/// move played there not a capture or promotion).
pub fn samples(start: &Position, plan: &Plan, progress: &(dyn Fn(usize) + Sync)) -> Vec<Sample> {
    let next = AtomicUsize::new(0);
    let out = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..plan.jobs.max(1) {
            s.spawn(|| {
                let mut searcher = Searcher::new(Options::default());
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= plan.games {
                        break;
                    }
                    let game = play_one(start, plan, g as u64, &mut searcher);
                    if let Ok(mut o) = out.lock() {
                        o.extend(game);
                    }
                    progress(g + 1);
                }
            });
        }
    });
    out.into_inner().unwrap_or_default()
}

fn play_one(start: &Position, plan: &Plan, game: u64, searcher: &mut Searcher) -> Vec<Sample> {
    let mut pos = random_opening(start, plan.opening_plies, plan.seed.wrapping_add(game));
    searcher.clear();
    let limits = Limits::nodes(plan.nodes);
    let mut quiet = Vec::new();
    let mut outcome = None;
    let values = searcher.evaluation(&pos).know.value.clone();
    for _ in 0..plan.max_plies {
        if let Some(o) = pos.outcome() {
            outcome = Some(o);
            break;
        }
        let found = searcher.best_move(&pos, &limits);
        let Some(m) = found.best else {
            break;
        };
        if !pos.in_check() && !is_tactical(&pos, m, &values) {
            let own = found.score.clamp(-SCORE_CAP, SCORE_CAP);
            let first = if pos.army_to_move() == 0 { own } else { -own };
            quiet.push((pos.clone(), first));
        }
        pos.make(m);
    }
    let v = pos.variant().clone();
    let result = match outcome {
        Some(o) => match result_for(&o, &v, 0) {
            CmpOrdering::Less => 1.0,
            CmpOrdering::Equal => 0.5,
            CmpOrdering::Greater => 0.0,
        },
        None => 0.5,
    };
    quiet
        .into_iter()
        .map(|(pos, score)| Sample {
            pos,
            result,
            score: Some(score),
        })
        .collect()
}

/// The first army's score of a position under an evaluation.
fn white_score(e: &Eval, p: &Position) -> i32 {
    let s = e.two_sided(p);
    if p.army_to_move() == 0 {
        s
    } else {
        -s
    }
}

/// Mean squared error of the predicted scores at scale `k` against each
/// position's target (`targets[i]` for `data[i]`).
fn error(
    v: &Arc<Variant>,
    w: &Weights,
    data: &[Sample],
    targets: &[f64],
    k: f64,
    jobs: usize,
) -> f64 {
    let e = Eval::with_weights(v, Terms::default(), w.clone());
    let chunk = data.len().div_ceil(jobs.max(1)).max(1);
    let sum: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = data
            .chunks(chunk)
            .zip(targets.chunks(chunk))
            .map(|(part, want)| {
                let e = &e;
                s.spawn(move || {
                    part.iter()
                        .zip(want)
                        .map(|(x, t)| (t - sigmoid(k, white_score(e, &x.pos) as f64)).powi(2))
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
    });
    sum / data.len().max(1) as f64
}

/// The scale that best fits the start weights to the results.
fn fit_scale(v: &Arc<Variant>, w: &Weights, data: &[Sample], jobs: usize) -> f64 {
    let results: Vec<f64> = data.iter().map(|x| x.result).collect();
    golden_min(|k| error(v, w, data, &results, k, jobs))
}

/// Each position's target: `share` of its game's result and the rest its
/// search score through the logistic curve at `scale`, or the result alone
/// where the sample has no score. (Scores from a stronger engine are far
/// less noisy than one game's result: a target that leans on them asks
/// fewer games of the data.)
fn targets(data: &[Sample], share: f64, scale: f64) -> Vec<f64> {
    data.iter()
        .map(|x| match x.score {
            Some(score) => share * x.result + (1.0 - share) * sigmoid(scale, score as f64),
            None => x.result,
        })
        .collect()
}

/// The scale in [0.05, 4] where `error` is least (golden-section search).
fn golden_min(error: impl Fn(f64) -> f64) -> f64 {
    let (mut a, mut b) = (0.05f64, 4.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..30 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if error(c) < error(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// The expected result of a first-army score at scale `k`.
#[inline]
fn sigmoid(k: f64, centipawns: f64) -> f64 {
    1.0 / (1.0 + (-k * centipawns / 400.0).exp())
}

/// Reads one number of [`Weights`].
type Getter = Box<dyn Fn(&Weights) -> i32>;
/// Writes it.
type Setter = Box<dyn Fn(&mut Weights, i32)>;

/// One tunable number of [`Weights`]: read it, write it, its step.
struct Knob {
    name: String,
    step: i32,
    get: Getter,
    set: Setter,
}

fn knobs(v: &Arc<Variant>, start: &Weights) -> Vec<Knob> {
    let mut k = Vec::new();
    let derived = Eval::with_weights(v, Terms::default(), start.clone());
    for (t, piece) in v.pieces.iter().enumerate() {
        let letter = piece.letter;
        let base = derived.know.value[t];
        k.push(Knob {
            name: format!("value {letter}"),
            step: 10,
            get: Box::new(move |w: &Weights| w.value(letter).unwrap_or(base)),
            set: Box::new(move |w: &mut Weights, x| {
                w.values.insert(letter.to_string(), x.max(1));
            }),
        });
    }
    macro_rules! scalar {
        ($field:ident, $step:expr) => {
            k.push(Knob {
                name: stringify!($field).into(),
                step: $step,
                get: Box::new(|w: &Weights| w.$field),
                set: Box::new(|w: &mut Weights, x| w.$field = x.max(0)),
            });
        };
    }
    scalar!(centre, 15);
    scalar!(promotion, 15);
    scalar!(mobility, 1);
    scalar!(mobility_share, 5);
    scalar!(shelter, 3);
    scalar!(tropism, 3);
    scalar!(tempo, 5);
    scalar!(passed, 15);
    scalar!(supported, 3);
    scalar!(pawn_threat, 5);
    scalar!(hanging, 5);
    scalar!(king_attack, 2);
    scalar!(king_danger, 10);
    scalar!(storm, 3);
    scalar!(passed_king, 5);
    scalar!(pair, 5);
    scalar!(open_file, 3);
    scalar!(outpost, 3);
    scalar!(isolated, 3);
    scalar!(doubled, 3);
    scalar!(phalanx, 3);
    scalar!(lesser_threat, 5);
    scalar!(danger_more, 20);
    scalar!(danger_pins, 20);
    scalar!(danger_attackers, 20);
    k
}

/// What the fit did.
pub struct Fit {
    pub weights: Weights,
    pub scale: f64,
    pub error_before: f64,
    pub error_after: f64,
}

/// Does every name in `only` name a weight [`fit`] moves (`value P`,
/// `mobility`, ...)? The error names the first that does not, and lists
/// the weights.
pub fn check_only(v: &Arc<Variant>, only: &[String]) -> Result<(), String> {
    let names: Vec<String> = knobs(v, &Weights::default())
        .into_iter()
        .map(|k| k.name)
        .collect();
    match only.iter().find(|n| !names.contains(n)) {
        Some(unknown) => Err(format!(
            "tune --only: no weight `{unknown}` (the weights: {})",
            names.join(", ")
        )),
        None => Ok(()),
    }
}

/// Coordinate descent from `start`: each weight moves by its step while
/// the error falls; then the steps halve, twice. Only the weights named in
/// `only` move, where it names any (an unknown name is an error:
/// [`check_only`]). Each position's target is `result_share` of its
/// game's result and the rest its score, where it has one ([`targets`]).
pub fn fit(
    v: &Arc<Variant>,
    data: &[Sample],
    start: Weights,
    only: &[String],
    result_share: f64,
    jobs: usize,
    report: &mut dyn FnMut(&str),
) -> Result<Fit, String> {
    check_only(v, only)?;
    let mut knobs = knobs(v, &start);
    if !only.is_empty() {
        knobs.retain(|k| only.contains(&k.name));
    }
    let scale = fit_scale(v, &start, data, jobs);
    let targets = targets(data, result_share, scale);
    let mut w = start.clone();
    for kn in &knobs {
        let x = (kn.get)(&w);
        (kn.set)(&mut w, x);
    }
    let error_before = error(v, &w, data, &targets, scale, jobs);
    let mut best = error_before;
    report(&format!("scale {scale:.3}, error {best:.6}"));
    for divisor in [1, 2, 4] {
        for pass in 0..25 {
            let mut moved = Vec::new();
            for kn in &knobs {
                let step = (kn.step / divisor).max(1);
                for dir in [1, -1] {
                    let mut trial = w.clone();
                    let x = (kn.get)(&trial);
                    (kn.set)(&mut trial, x + dir * step);
                    let e = error(v, &trial, data, &targets, scale, jobs);
                    if e < best {
                        best = e;
                        w = trial;
                        moved.push(format!("{} {}", kn.name, (kn.get)(&w)));
                        break;
                    }
                }
            }
            report(&format!(
                "step /{divisor}, pass {}: error {best:.6} ({})",
                pass + 1,
                moved.join(", ")
            ));
            if moved.is_empty() {
                break;
            }
        }
    }
    // Values as whole letters, every scalar kept.
    Ok(Fit {
        weights: w,
        scale,
        error_before,
        error_after: best,
    })
}

/// The cell each cell mirrors to (rank reversed), where the variant has
/// two players and the second army's start is the first's mirrored
/// piece for piece (chess, not Magna Carta).
pub fn mirror(v: &Arc<Variant>) -> Option<Vec<Cell>> {
    if v.players.len() != 2 || v.armies.len() != 2 {
        return None;
    }
    let g = &v.geometry;
    let sigma: Vec<Cell> = (0..g.size())
        .map(|c| {
            let c = c as Cell;
            g.cell(g.file_of(c) as i32, (g.ranks - 1 - g.rank_of(c)) as i32)
        })
        .collect::<Option<_>>()?;
    let start = v.start();
    g.cells
        .iter()
        .all(
            |c| match (start.piece_at(c), start.piece_at(sigma[c as usize])) {
                (None, None) => true,
                (Some(a), Some(b)) => a.kind == b.kind && a.army != b.army,
                _ => false,
            },
        )
        .then_some(sigma)
}

/// How the piece-square tables are fitted.
#[derive(Clone, Copy, Debug)]
pub struct PstPlan {
    /// Share of the game's result in each position's target; the rest is
    /// the self-play search's score through the same logistic curve.
    pub result_share: f64,
    /// Passes over the data.
    pub epochs: usize,
    /// Adam's step, centipawns.
    pub rate: f64,
    /// L2 penalty per squared centipawn of every entry: entries the data
    /// rarely sees stay near zero.
    pub penalty: f64,
    /// Fit mobility and threat tables too (else the start's are dropped).
    pub activity: bool,
}

impl Default for PstPlan {
    fn default() -> Self {
        PstPlan {
            result_share: 0.5,
            epochs: 400,
            rate: 1.0,
            penalty: 1e-8,
            activity: false,
        }
    }
}

/// What the piece-square fit did: errors on the training positions and
/// on the held-out tenth, before and after.
pub struct PstFit {
    pub weights: Weights,
    pub scale: f64,
    pub train: (f64, f64),
    pub held_out: (f64, f64),
}

/// One position as the piece-square fit sees it: the score without the
/// learnt tables, the phase, its pieces' table entries, and the target.
struct Row {
    base: f64,
    mg: f64,
    terms: std::ops::Range<usize>,
    target: f64,
}

/// Fits learnt piece-square tables (middle and end game, per player,
/// piece type and cell) on top of `start`'s other weights, by gradient
/// descent (Adam) on the squared error between each position's target and
/// the logistic of its score. The score is linear in the tables, so every
/// position is evaluated once. A tenth of the positions (blocks of 500,
/// so whole games) is held out to show whether the tables generalise.
pub fn fit_pst(
    v: &Arc<Variant>,
    data: &[Sample],
    start: Weights,
    plan: PstPlan,
    report: &mut dyn FnMut(&str),
) -> PstFit {
    let mut plain = start.clone();
    plain.clear_tables();
    let e = Eval::with_weights(v, Terms::default(), plain);
    let k = &e.know;
    let (ncells, ntypes, nplayers) = (k.ncells, k.ntypes, v.players.len());
    let pst_len = k.pst_entries();
    // Entries 2f (middle game) and 2f + 1 (end game) for feature f, from
    // the start's tables (without mobility and threats unless fitted).
    let mut init = start.clone();
    if !plan.activity {
        init.mobility_tables.clear();
        init.threats.clear();
    }
    let init = Knowledge::with_weights(v, &init);
    let mut theta = vec![0f64; 2 * k.features()];
    if init.has_pst() || init.has_activity() {
        for f in 0..k.features() {
            let [mg, eg] = init.learnt(f);
            theta[2 * f] = mg as f64;
            theta[2 * f + 1] = eg as f64;
        }
    }
    // Where the second army's start mirrors the first's, its tables are
    // the first's mirrored: one table per type learns from both sides,
    // and the evaluation stays symmetric. (Mobility and threats are one
    // table for both sides anyway.)
    let twin: Vec<u32> = match mirror(v) {
        Some(sigma) => (0..theta.len() / 2)
            .map(|i| {
                let (player, rest) = (i / (ntypes * ncells), i % (ntypes * ncells));
                let (t, c) = (rest / ncells, rest % ncells);
                if player == 1 && i < pst_len {
                    k.table_index(0, t as u8, sigma[c]) as u32
                } else {
                    i as u32
                }
            })
            .collect(),
        None => (0..(theta.len() / 2) as u32).collect(),
    };
    let mut terms: Vec<(u32, i8)> = Vec::new();
    let mut rows: Vec<Row> = Vec::with_capacity(data.len());
    for x in data {
        let (phase, t) = e.learnt_terms(&x.pos, plan.activity);
        let from = terms.len();
        terms.extend(t.into_iter().map(|(i, sign)| (twin[i as usize], sign)));
        rows.push(Row {
            base: white_score(&e, &x.pos) as f64,
            mg: phase as f64 / 256.0,
            terms: from..terms.len(),
            target: 0.0,
        });
    }
    let predict = |theta: &[f64], r: &Row| {
        let mut s = r.base;
        for &(i, sign) in &terms[r.terms.clone()] {
            let i = i as usize;
            s += sign as f64 * (theta[2 * i] * r.mg + theta[2 * i + 1] * (1.0 - r.mg));
        }
        s
    };
    // The scale from the results alone, as the other fit does.
    let scale = golden_min(|k| {
        rows.iter()
            .zip(data)
            .map(|(r, x)| (x.result - sigmoid(k, predict(&theta, r))).powi(2))
            .sum::<f64>()
            / rows.len().max(1) as f64
    });
    for (r, t) in rows.iter_mut().zip(targets(data, plan.result_share, scale)) {
        r.target = t;
    }
    // Held out in blocks: a game's positions lie together in the data and
    // are much alike, so a scattered tenth would share games with the rest.
    let held = |i: usize| (i / 500) % 10 == 9;
    let errors = |theta: &[f64]| {
        let (mut sums, mut counts) = ([0f64; 2], [0usize; 2]);
        for (i, r) in rows.iter().enumerate() {
            let h = held(i) as usize;
            sums[h] += (r.target - sigmoid(scale, predict(theta, r))).powi(2);
            counts[h] += 1;
        }
        (
            sums[0] / counts[0].max(1) as f64,
            sums[1] / counts[1].max(1) as f64,
        )
    };
    let before = errors(&theta);
    report(&format!(
        "scale {scale:.3}; error {:.6}, held out {:.6}",
        before.0, before.1
    ));
    let (mut m, mut vv) = (vec![0f64; theta.len()], vec![0f64; theta.len()]);
    let (b1, b2) = (0.9f64, 0.999f64);
    let n = rows.len().max(1) as f64;
    let mut grad = vec![0f64; theta.len()];
    for epoch in 1..=plan.epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        for (i, r) in rows.iter().enumerate() {
            if held(i) {
                continue;
            }
            let p = sigmoid(scale, predict(&theta, r));
            let d = 2.0 * (p - r.target) * p * (1.0 - p) * scale / 400.0 / n;
            for &(j, sign) in &terms[r.terms.clone()] {
                let j = j as usize;
                let ds = d * sign as f64;
                grad[2 * j] += ds * r.mg;
                grad[2 * j + 1] += ds * (1.0 - r.mg);
            }
        }
        let (c1, c2) = (1.0 - b1.powi(epoch as i32), 1.0 - b2.powi(epoch as i32));
        for j in 0..theta.len() {
            let g = grad[j] + 2.0 * plan.penalty * theta[j];
            m[j] = b1 * m[j] + (1.0 - b1) * g;
            vv[j] = b2 * vv[j] + (1.0 - b2) * g * g;
            theta[j] -= plan.rate * (m[j] / c1) / ((vv[j] / c2).sqrt() + 1e-12);
        }
        if epoch % 50 == 0 || epoch == plan.epochs {
            let (t, h) = errors(&theta);
            report(&format!("epoch {epoch}: error {t:.6}, held out {h:.6}"));
        }
    }
    let after = errors(&theta);
    for (i, &j) in twin.iter().enumerate() {
        theta[2 * i] = theta[2 * j as usize];
        theta[2 * i + 1] = theta[2 * j as usize + 1];
    }
    let mut weights = start;
    weights.clear_tables();
    let entry = |f: usize, eg: usize| theta[2 * f + eg].round() as i32;
    // A table of `n` entries per phase, entry i being feature `at(i)`:
    // kept where any entry is not zero.
    let table = |n: usize, at: &dyn Fn(usize) -> usize| {
        let t: Vec<i32> = (0..2 * n).map(|i| entry(at(i % n), i / n)).collect();
        t.iter().any(|&x| x != 0).then_some(t)
    };
    for (t, piece) in v.pieces.iter().enumerate() {
        let t = t as u8;
        for player in 0..nplayers {
            if let Some(x) = table(ncells, &|c| k.table_index(player, t, c as Cell)) {
                weights.pst.insert(format!("{}{player}", piece.letter), x);
            }
        }
        if !plan.activity {
            continue;
        }
        if let Some(x) = table(MOBILITY_BUCKETS, &|m| k.mobility_feature(t, m as u32)) {
            weights.mobility_tables.insert(piece.letter.to_string(), x);
        }
        for (b, victim) in v.pieces.iter().enumerate() {
            let at = |i: usize| k.threat_feature(t, b as u8, i);
            if let Some(x) = table(THREAT_KINDS, &at) {
                weights
                    .threats
                    .insert(format!("{}{}", piece.letter, victim.letter), x);
            }
        }
    }
    PstFit {
        weights,
        scale,
        train: (before.0, after.0),
        held_out: (before.1, after.1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quadrille_engine::embedded;

    /// A variant and the quiet positions of a few self-play games at a few
    /// hundred nodes a move.
    fn small_data(name: &str, games: usize, seed: u64) -> (Arc<Variant>, Vec<Sample>) {
        let v = embedded::variant(name).unwrap();
        let plan = Plan {
            games,
            nodes: 300,
            opening_plies: 6,
            max_plies: 120,
            jobs: 2,
            seed,
        };
        let data = samples(&v.start(), &plan, &|_| {});
        (v, data)
    }

    /// On games of a few hundred nodes a move the fit runs and never makes
    /// the error worse.
    #[test]
    fn a_small_fit_lowers_the_error() {
        let (v, data) = small_data("chess", 6, 3);
        assert!(data.len() > 50, "{}", data.len());
        assert!(data.iter().all(|s| [0.0, 0.5, 1.0].contains(&s.result)));
        let data = &data[..200.min(data.len())];
        let f = fit(&v, data, Weights::default(), &[], 1.0, 2, &mut |_| {}).unwrap();
        assert!(f.error_after <= f.error_before);
        assert!(f.scale > 0.0);
        // With `only`, the other weights stay as they were.
        let only = ["mobility".to_string()];
        let g = fit(&v, data, Weights::default(), &only, 1.0, 2, &mut |_| {}).unwrap();
        assert!(g.error_after <= g.error_before);
        let mobility_back = Weights {
            mobility: Weights::default().mobility,
            ..g.weights
        };
        assert_eq!(mobility_back, Weights::default());
        let bad = ["mobilty".to_string()];
        let e = fit(&v, data, Weights::default(), &bad, 1.0, 2, &mut |_| {}).err();
        assert!(e.is_some_and(|e| e.contains("mobilty")));
    }

    /// A target is the result where the sample has no score, the score's
    /// expected result where the share is nothing, and the mixture between.
    #[test]
    fn targets_mix_the_result_and_the_score() {
        let (_, data) = small_data("chess", 2, 3);
        let s = |score| Sample {
            score,
            result: 1.0,
            ..data[0].clone()
        };
        let t = targets(&[s(None), s(Some(0)), s(Some(400))], 0.0, 1.0);
        assert_eq!(t[0], 1.0);
        assert_eq!(t[1], 0.5);
        assert!((t[2] - 1.0 / (1.0 + (-1f64).exp())).abs() < 1e-12);
        let half = targets(&[s(Some(0))], 0.5, 1.0);
        assert_eq!(half, vec![0.75]);
        // With the scores as targets, the fit lowers its error too.
        let (v, data) = small_data("chess", 6, 3);
        let data = &data[..200.min(data.len())];
        assert!(data.iter().all(|x| x.score.is_some()));
        let f = fit(&v, data, Weights::default(), &[], 0.0, 2, &mut |_| {}).unwrap();
        assert!(f.error_after < f.error_before);
    }

    /// The piece-square fit lowers the training error, writes tables that
    /// fit the variant, and the evaluation with them adds exactly what the
    /// fit's linear model says.
    #[test]
    fn a_piece_square_fit_lowers_the_error_and_the_eval_agrees() {
        let (v, data) = small_data("magna-carta", 6, 5);
        let start = Weights::for_variant(&v);
        for activity in [false, true] {
            let plan = PstPlan {
                epochs: 60,
                activity,
                ..PstPlan::default()
            };
            let f = fit_pst(&v, &data, start.clone(), plan, &mut |_| {});
            assert!(f.train.1 < f.train.0, "{:?}", f.train);
            assert!(!f.weights.pst.is_empty() && f.weights.fits(&v));
            assert_eq!(!f.weights.mobility_tables.is_empty(), activity);
            assert_eq!(!f.weights.threats.is_empty(), activity);
            let mut without = start.clone();
            without.clear_tables();
            let (plain, learnt) = (
                Eval::with_weights(&v, Terms::default(), without),
                Eval::with_weights(&v, Terms::default(), f.weights.clone()),
            );
            // Each feature's entry read from the weights as the file lays
            // them out (not through the evaluation's own tables).
            let (n, ntypes) = (v.geometry.size(), v.pieces.len());
            let letter = |t: usize| v.pieces[t].letter;
            let get = |map: &std::collections::BTreeMap<String, Vec<i32>>,
                       key: String,
                       i: usize| { map.get(&key).map_or(0, |t| t[i]) };
            let table = |i: u32, eg: usize| {
                let i = i as usize;
                let per_player = ntypes * n;
                let pst_len = v.players.len() * per_player;
                if i < pst_len {
                    let (player, rest) = (i / per_player, i % per_player);
                    let key = format!("{}{player}", letter(rest / n));
                    return get(&f.weights.pst, key, eg * n + rest % n);
                }
                let m = i - pst_len;
                if m < ntypes * MOBILITY_BUCKETS {
                    let key = letter(m / MOBILITY_BUCKETS).to_string();
                    let at = eg * MOBILITY_BUCKETS + m % MOBILITY_BUCKETS;
                    return get(&f.weights.mobility_tables, key, at);
                }
                let x = m - ntypes * MOBILITY_BUCKETS;
                let pair = x / THREAT_KINDS;
                let key = format!("{}{}", letter(pair / ntypes), letter(pair % ntypes));
                get(
                    &f.weights.threats,
                    key,
                    eg * THREAT_KINDS + x % THREAT_KINDS,
                )
            };
            for x in data.iter().step_by(7) {
                let (phase, terms) = learnt.learnt_terms(&x.pos, activity);
                let (mg, eg): (i32, i32) = terms.iter().fold((0, 0), |(mg, eg), &(i, sign)| {
                    (
                        mg + sign as i32 * table(i, 0),
                        eg + sign as i32 * table(i, 1),
                    )
                });
                let added = white_score(&learnt, &x.pos) - white_score(&plain, &x.pos);
                // Each army's sum is divided separately: one centipawn of
                // rounding either way.
                let expected = (mg * phase + eg * (256 - phase)) / 256;
                assert!(
                    (added - expected).abs() <= 1,
                    "{activity}: {added} {expected}"
                );
            }
        }
    }

    #[test]
    fn mirrored_starts_share_their_tables() {
        let (chess, data) = small_data("chess", 4, 9);
        let sigma = mirror(&chess).unwrap();
        let g = &chess.geometry;
        let e2 = g.cell(4, 1).unwrap();
        assert_eq!(sigma[e2 as usize], g.cell(4, 6).unwrap());
        for name in ["magna-carta", "ariana"] {
            assert!(
                mirror(&embedded::variant(name).unwrap()).is_none(),
                "{name}"
            );
        }
        // A fit on chess writes Black's tables as White's mirrored.
        let pst = PstPlan {
            epochs: 30,
            ..PstPlan::default()
        };
        let f = fit_pst(&chess, &data, Weights::default(), pst, &mut |_| {});
        let (white, black) = (&f.weights.pst["N0"], &f.weights.pst["N1"]);
        let n = g.size();
        for c in 0..n {
            let m = sigma[c] as usize;
            assert_eq!((white[c], white[n + c]), (black[m], black[n + m]));
        }
        assert!(white.iter().any(|&x| x != 0));
    }

    #[test]
    fn record_lines_give_their_quiet_positions_and_bad_ones_are_named() {
        let v = embedded::variant("chess").unwrap();
        let start = v.start().to_string();
        // Captures (plies 3, 4) and the position in check (before ply 7,
        // after Qe5+) are left out: plies 1, 2, 5 and 6 stay.
        let moves = "e2e4 d7d5 e4d5 d8d5 b1c3 d5e5 g1e2";
        let line = format!("{start}\tsearch\tuci:x\t0-1\tCheckmate\t{moves}");
        let value = Eval::new(&v, Terms::default()).know.value;
        let all = Sample::from_record_line(&v, &line, 0, &value).unwrap();
        assert_eq!(all.len(), 4);
        assert!(all.iter().all(|s| s.result == 0.0 && s.score.is_none()));
        assert_eq!(all[0].pos.key(), v.start().key());
        assert_eq!(
            Sample::from_record_line(&v, &line, 2, &value)
                .unwrap()
                .len(),
            2
        );
        for (line, what) in [
            (format!("{start}\ta\tb\t1-0\tx\te2e4 e2e4"), "move 2 `e2e4`"),
            (format!("{start}\ta\tb\twon\tx\te2e4"), "result `won`"),
            (format!("{start}\ta\tb\t1-0"), "tab-separated"),
        ] {
            let e = Sample::from_record_line(&v, &line, 0, &value)
                .err()
                .unwrap();
            assert!(e.contains(what), "{e}");
        }
    }

    #[test]
    fn sample_lines_round_trip_and_bad_ones_are_named() {
        let v = embedded::variant("chess").unwrap();
        let s = Sample {
            pos: v.start(),
            result: 0.5,
            score: Some(-35),
        };
        let back = Sample::from_line(&v, &s.to_line()).unwrap();
        assert_eq!(
            (back.pos.key(), back.result, back.score),
            (s.pos.key(), 0.5, Some(-35))
        );
        let none = Sample { score: None, ..s };
        assert_eq!(Sample::from_line(&v, &none.to_line()).unwrap().score, None);
        let start = v.start().to_string();
        for (line, what) in [
            (format!("{start}\t0.7\t10"), "result"),
            (format!("{start}\t1\tten"), "score"),
            (format!("{start}\t1"), "tab-separated"),
            ("nonsense\t1\t0".to_string(), ""),
        ] {
            let e = Sample::from_line(&v, &line).err().unwrap();
            assert!(e.contains(what), "{e}");
        }
    }
}
