//! Match statistics the way engine testing does them: games are played in
//! pairs (one opening, colours swapped), each pair scores 0, 1/2, 1, 3/2
//! or 2 points (the pentanomial counts), the Elo difference comes from the
//! mean score with an interval from the pairs' variance, and a sequential
//! probability ratio test (SPRT) decides between two Elo hypotheses as soon
//! as the evidence allows.
//!
//! Pairs rather than single games: an unbalanced opening gives one side an
//! edge in both games, so the pair's variance is smaller than two games'
//! and the test needs fewer games.

/// Pair scores in half points: index `k` counts pairs that scored `k / 2`
/// for the first player (0, 1/2, 1, 3/2, 2 points).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

/// Expected score of the stronger side at an Elo difference (logistic).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference for an expected score in (0, 1).
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

impl Pentanomial {
    /// Adds a pair given its two game scores for the first player
    /// (each 0, 1/2 or 1).
    pub fn add_pair(&mut self, a: f64, b: f64) {
        let half_points = ((a + b) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[half_points] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Mean score per game and its variance per pair (in game-score units),
    /// or `None` before the first pair.
    fn moments(&self) -> Option<(f64, f64)> {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return None;
        }
        let score = |k: usize| k as f64 / 4.0;
        let mean = (0..5).map(|k| self.0[k] as f64 * score(k)).sum::<f64>() / n;
        let var = (0..5)
            .map(|k| self.0[k] as f64 * (score(k) - mean).powi(2))
            .sum::<f64>()
            / n;
        Some((mean, var))
    }

    /// The mean score per game (1/2 before any pair).
    pub fn score(&self) -> f64 {
        self.moments().map_or(0.5, |(m, _)| m)
    }

    /// Elo difference with a 95 % interval, from the pairs' variance. A
    /// perfect or zero score is taken as a quarter point short of it so
    /// that the estimate stays finite.
    pub fn elo(&self) -> crate::Elo {
        let Some((mean, var)) = self.moments() else {
            return crate::Elo {
                diff: 0.0,
                low: f64::NEG_INFINITY,
                high: f64::INFINITY,
            };
        };
        let n = self.pairs() as f64;
        if var <= 1e-12 {
            // Every pair alike: the pairs say nothing of the spread; take
            // Wilson's interval over the games instead.
            let games: Vec<f64> = (0..5)
                .flat_map(|k| std::iter::repeat_n(k as f64 / 4.0, 2 * self.0[k] as usize))
                .collect();
            return crate::Elo::from_scores(&games);
        }
        let eps = 0.125 / n;
        let clamp = |s: f64| s.clamp(eps, 1.0 - eps);
        let half = 1.96 * (var / n).sqrt();
        crate::Elo {
            diff: elo_of_score(clamp(mean)),
            low: elo_of_score(clamp(mean - half)),
            high: elo_of_score(clamp(mean + half)),
        }
    }

    /// The log-likelihood ratio of `elo1` against `elo0` (logistic Elo),
    /// by the generalised SPRT's normal approximation on pair scores.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let Some((mean, var)) = self.moments() else {
            return 0.0;
        };
        // No variance yet (every pair scored alike): nothing to weigh.
        if var <= 1e-12 {
            return 0.0;
        }
        let (s0, s1) = (expected_score(elo0), expected_score(elo1));
        self.pairs() as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }
}

/// A sequential probability ratio test between two Elo hypotheses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// False positive rate (accepting `elo1` when `elo0` holds).
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// What an SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// `elo1` holds: the change gains.
    H1,
    /// `elo0` holds: it does not gain as much.
    H0,
    /// Play on.
    Continue,
}

impl Sprt {
    /// The test Stockfish's framework uses: alpha = beta = 0.05.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// The lower and upper LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The verdict for these pairs.
    pub fn verdict(&self, p: &Pentanomial) -> Verdict {
        let llr = p.llr(self.elo0, self.elo1);
        let (low, high) = self.bounds();
        if llr >= high {
            Verdict::H1
        } else if llr <= low {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_score_and_back() {
        assert!((expected_score(0.0) - 0.5).abs() < 1e-12);
        assert!((expected_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
        for e in [-300.0, -5.0, 0.0, 42.0, 700.0] {
            assert!((elo_of_score(expected_score(e)) - e).abs() < 1e-9);
        }
    }

    #[test]
    fn pairs_and_scores() {
        let mut p = Pentanomial::default();
        p.add_pair(1.0, 0.5);
        p.add_pair(0.0, 0.5);
        p.add_pair(1.0, 1.0);
        assert_eq!(p.0, [0, 1, 0, 1, 1]);
        assert_eq!(p.pairs(), 3);
        assert!((p.score() - (1.5 + 0.5 + 2.0) / 6.0).abs() < 1e-12);
        let e = p.elo();
        assert!(e.low < e.diff && e.diff < e.high);
    }

    #[test]
    fn even_results_give_zero_elo_and_a_symmetric_interval() {
        let p = Pentanomial([10, 20, 40, 20, 10]);
        let e = p.elo();
        assert!(e.diff.abs() < 1e-9);
        assert!((e.low + e.high).abs() < 1e-6);
        // A single unanimous kind of pair has no variance: no verdict.
        assert_eq!(Pentanomial([0, 0, 7, 0, 0]).llr(0.0, 5.0), 0.0);
    }

    #[test]
    fn sprt_accepts_a_clear_gain_and_rejects_a_clear_loss() {
        let t = Sprt::new(0.0, 10.0);
        let (low, high) = t.bounds();
        assert!((high - (0.95f64 / 0.05).ln()).abs() < 1e-12);
        assert!((low + high).abs() < 1e-12);
        // Pairs at about +100 Elo: accepted after a few hundred pairs.
        let strong = Pentanomial([10, 40, 120, 100, 40]);
        assert_eq!(t.verdict(&strong), Verdict::H1);
        let weak = Pentanomial([40, 100, 120, 40, 10]);
        assert_eq!(t.verdict(&weak), Verdict::H0);
        let few = Pentanomial([1, 2, 3, 2, 1]);
        assert_eq!(t.verdict(&few), Verdict::Continue);
    }
}
