//! Match statistics the way engine testing does them: games are played in
//! pairs (one opening, colours swapped), each pair scores 0, 1/2, 1, 3/2
//! or 2 points (the pentanomial counts), the Elo difference comes from the
//! mean score with an interval from the pairs' variance, and a sequential
//! probability ratio test (SPRT) decides between two Elo hypotheses as soon
//! as the evidence allows.
//!
//! Pairs rather than single games: an unbalanced opening gives one side an
//! edge in both games, so the pair's variance is smaller than two games'
//! and the test needs fewer games. Four-player self-play has no pairs: its
//! test takes every game's points as one sample ([`llr_of_games`]).

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
        if self.pairs() == 0 {
            return None;
        }
        Some(Self::moments_of(self.0.map(|c| c as f64)))
    }

    /// Mean and variance of pair counts given as numbers (at least one
    /// positive).
    fn moments_of(counts: [f64; 5]) -> (f64, f64) {
        let n = counts.iter().sum::<f64>();
        let score = |k: usize| k as f64 / 4.0;
        let mean = (0..5).map(|k| counts[k] * score(k)).sum::<f64>() / n;
        let var = (0..5)
            .map(|k| counts[k] * (score(k) - mean).powi(2))
            .sum::<f64>()
            / n;
        (mean, var)
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
    ///
    /// The counts start from a prior of one pair spread evenly over the
    /// five kinds: otherwise a run where every pair scores alike (a random
    /// mover losing them all) has no variance and never decides. (Fishtest
    /// puts a thousandth of a pair in each empty kind instead, which lets a
    /// single lost pair decide; this prior needs a dozen. Over hundreds of
    /// real pairs it moves the ratio by about one percent, toward playing
    /// on.)
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        let (mean, var) = Self::moments_of(self.0.map(|c| c as f64 + 0.2));
        normal_llr(self.pairs() as f64, mean, var, elo0, elo1)
    }
}

/// The generalised SPRT's log-likelihood ratio of `elo1` against `elo0`
/// for `n` samples of this mean and variance (normal approximation).
fn normal_llr(n: f64, mean: f64, var: f64, elo0: f64, elo1: f64) -> f64 {
    let (s0, s1) = (expected_score(elo0), expected_score(elo1));
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// The same ratio with each game's score (0 to 1: a share of the points,
/// as four-player games score by finishing places) as one sample. The
/// seatings of one opening balance each other out, so the games' spread
/// overstates the mean's: the test errs on the side of playing on.
pub fn llr_of_games(scores: &[f64], elo0: f64, elo1: f64) -> f64 {
    let n = scores.len() as f64;
    if n == 0.0 {
        return 0.0;
    }
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n;
    if var <= 1e-12 {
        return 0.0;
    }
    normal_llr(n, mean, var, elo0, elo1)
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

impl std::str::FromStr for Sprt {
    type Err = String;

    /// Reads the bounds as given on the command line: `0,10`.
    fn from_str(s: &str) -> Result<Sprt, String> {
        s.split_once(',')
            .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)))
            .filter(|(a, b): &(f64, f64)| a < b && a.is_finite() && b.is_finite())
            .map(|(a, b)| Sprt::new(a, b))
            .ok_or_else(|| format!("SPRT bounds `{s}`: expected ELO0,ELO1 with ELO0 < ELO1"))
    }
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

impl Verdict {
    /// The verdict in words, for a match's last line (`A` is the player
    /// under test).
    pub fn describe(self) -> &'static str {
        match self {
            Verdict::H1 => "H1 accepted: A is stronger by the upper bound",
            Verdict::H0 => "H0 accepted: A does not gain the upper bound",
            Verdict::Continue => "no verdict within the games allowed",
        }
    }
}

/// The first verdict of an SPRT whose games run several at once: the
/// games still being played when it decided finish and count in the
/// score, but cannot undo it (the test stopped there, as Stockfish's
/// framework stops).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Decision(Option<(Verdict, usize, f64)>);

impl Decision {
    /// Notes the verdict after `games` games at log-likelihood ratio
    /// `llr`; true once the test has decided (now or before).
    pub fn note(&mut self, verdict: Verdict, games: usize, llr: f64) -> bool {
        if self.0.is_none() && verdict != Verdict::Continue {
            self.0 = Some((verdict, games, llr));
        }
        self.0.is_some()
    }

    /// The test's outcome for a match's last line: the decision and where
    /// it was reached, or `last` (the verdict of every game) if none.
    pub fn describe(&self, last: Verdict) -> String {
        match self.0 {
            Some((verdict, games, llr)) => {
                format!("{} (LLR {llr:.2} after {games} games)", verdict.describe())
            }
            None => last.describe().to_string(),
        }
    }
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
        self.judge(p.llr(self.elo0, self.elo1))
    }

    /// The verdict for a log-likelihood ratio.
    pub fn judge(&self, llr: f64) -> Verdict {
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
    fn a_decision_stands_when_later_games_undo_it() {
        let mut d = Decision::default();
        assert!(!d.note(Verdict::Continue, 10, 1.0));
        assert_eq!(d.describe(Verdict::Continue), Verdict::Continue.describe());
        assert!(d.note(Verdict::H1, 314, 2.96));
        // The games in flight then bring the ratio back below the bound.
        assert!(d.note(Verdict::Continue, 316, 2.78));
        let text = d.describe(Verdict::Continue);
        assert!(text.starts_with(Verdict::H1.describe()), "{text}");
        assert!(text.contains("LLR 2.96 after 314 games"), "{text}");
    }

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
        assert_eq!(Pentanomial::default().llr(0.0, 5.0), 0.0);
    }

    #[test]
    fn unanimous_pairs_still_decide() {
        let t = Sprt::new(0.0, 10.0);
        // Every pair lost, or won: no spread, yet the verdict is plain.
        assert_eq!(t.verdict(&Pentanomial([16, 0, 0, 0, 0])), Verdict::H0);
        assert_eq!(t.verdict(&Pentanomial([0, 0, 0, 0, 16])), Verdict::H1);
        // A few lost pairs are not yet enough.
        assert_eq!(t.verdict(&Pentanomial([3, 0, 0, 0, 0])), Verdict::Continue);
        assert_eq!(t.verdict(&Pentanomial([0, 0, 7, 0, 0])), Verdict::Continue);
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

    #[test]
    fn games_as_samples_decide_like_pairs() {
        let t = Sprt::new(0.0, 10.0);
        // Four-player points: about 60 % of them, over 600 games, gains.
        let strong: Vec<f64> = (0..600)
            .map(|i| [1.0, 2.0 / 3.0, 0.5, 1.0 / 3.0, 0.5][i % 5])
            .collect();
        assert!(strong.iter().sum::<f64>() / 600.0 > 0.59);
        assert_eq!(t.judge(llr_of_games(&strong, 0.0, 10.0)), Verdict::H1);
        let weak: Vec<f64> = strong.iter().map(|s| 1.0 - s).collect();
        assert_eq!(t.judge(llr_of_games(&weak, 0.0, 10.0)), Verdict::H0);
        assert_eq!(
            t.judge(llr_of_games(&strong[..10], 0.0, 10.0)),
            Verdict::Continue
        );
        // Every game alike, or none: nothing to weigh.
        assert_eq!(llr_of_games(&[0.5; 40], 0.0, 10.0), 0.0);
        assert_eq!(llr_of_games(&[], 0.0, 10.0), 0.0);
    }

    #[test]
    fn bounds_read_from_text() {
        let t: Sprt = "0, 10".parse().unwrap();
        assert_eq!((t.elo0, t.elo1), (0.0, 10.0));
        for bad in ["10,0", "5", "a,b", "0,inf", ""] {
            let e = bad.parse::<Sprt>().unwrap_err();
            assert!(e.contains(&format!("`{bad}`")), "{e}");
        }
    }
}
