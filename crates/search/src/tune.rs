//! Learning a variant's evaluation weights from self-play (Texel's method):
//! play games with a short search, keep the quiet positions with the
//! game's result, then move each weight up or down while that lowers the
//! squared error between the result and the evaluation's predicted score
//! (a logistic curve of the centipawns). Deterministic for a seed; no I/O
//! (`quadrille tune` writes the file).
//!
//! Why this and not a network: the weights are few and readable (a file a
//! person can check), the fit takes seconds, and the data a two-core
//! machine makes in minutes is enough for them (docs/performance.md).

use crate::arena::random_opening;
use crate::eval::{Eval, Terms};
use crate::limits::Limits;
use crate::ordering::is_tactical;
use crate::searcher::{result_for, Options, Searcher};
use crate::weights::Weights;
use quadrille_engine::{Position, Variant};
use std::cmp::Ordering as CmpOrdering;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// A position and how its game ended for the first army (1, 1/2, 0).
#[derive(Clone)]
pub struct Sample {
    pub pos: Position,
    pub result: f64,
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
        let Some(m) = searcher.best_move(&pos, &limits).best else {
            break;
        };
        if !pos.in_check() && !is_tactical(&pos, m, &values) {
            quiet.push(pos.clone());
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
        .map(|pos| Sample { pos, result })
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

/// Mean squared error of the predicted scores at scale `k`.
fn error(v: &Arc<Variant>, w: &Weights, data: &[Sample], k: f64, jobs: usize) -> f64 {
    let e = Eval::with_weights(v, Terms::default(), w.clone());
    let chunk = data.len().div_ceil(jobs.max(1)).max(1);
    let sum: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = data
            .chunks(chunk)
            .map(|part| {
                let e = &e;
                s.spawn(move || {
                    part.iter()
                        .map(|x| {
                            let p =
                                1.0 / (1.0 + (-k * white_score(e, &x.pos) as f64 / 400.0).exp());
                            (x.result - p).powi(2)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
    });
    sum / data.len().max(1) as f64
}

/// The scale that best fits the start weights (golden-section search).
fn fit_scale(v: &Arc<Variant>, w: &Weights, data: &[Sample], jobs: usize) -> f64 {
    let (mut a, mut b) = (0.05f64, 4.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..30 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if error(v, w, data, c, jobs) < error(v, w, data, d, jobs) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
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
    k
}

/// What the fit did.
pub struct Fit {
    pub weights: Weights,
    pub scale: f64,
    pub error_before: f64,
    pub error_after: f64,
}

/// Coordinate descent from `start`: each weight moves by its step while
/// the error falls; then the steps halve, twice.
pub fn fit(
    v: &Arc<Variant>,
    data: &[Sample],
    start: Weights,
    jobs: usize,
    report: &mut dyn FnMut(&str),
) -> Fit {
    let scale = fit_scale(v, &start, data, jobs);
    let knobs = knobs(v, &start);
    let mut w = start.clone();
    for kn in &knobs {
        let x = (kn.get)(&w);
        (kn.set)(&mut w, x);
    }
    let error_before = error(v, &w, data, scale, jobs);
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
                    let e = error(v, &trial, data, scale, jobs);
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
    Fit {
        weights: w,
        scale,
        error_before,
        error_after: best,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quadrille_engine::embedded;

    /// On games of a few hundred nodes a move the fit runs and never makes
    /// the error worse.
    #[test]
    fn a_small_fit_lowers_the_error() {
        let v = embedded::variant("chess").unwrap();
        let plan = Plan {
            games: 6,
            nodes: 300,
            opening_plies: 6,
            max_plies: 120,
            jobs: 2,
            seed: 3,
        };
        let data = samples(&v.start(), &plan, &|_| {});
        assert!(data.len() > 50, "{}", data.len());
        assert!(data.iter().all(|s| [0.0, 0.5, 1.0].contains(&s.result)));
        let f = fit(
            &v,
            &data[..200.min(data.len())],
            Weights::default(),
            2,
            &mut |_| {},
        );
        assert!(f.error_after <= f.error_before);
        assert!(f.scale > 0.0);
    }
}
