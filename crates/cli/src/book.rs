//! Opening books for matches: positions a few random plies from the start
//! that a short search finds balanced, one position string a line. The
//! books of the two-army variants ship embedded (`crates/cli/books/`);
//! `quadrille book` makes them.

use quadrille_engine::Position;
use quadrille_search::arena::random_opening;
use quadrille_search::{Limits, Searcher};
use std::collections::HashSet;

/// The embedded book of a variant, if it has one.
pub fn embedded(variant: &str) -> Option<&'static str> {
    match variant {
        "chess" => Some(include_str!("../books/chess.txt")),
        "magna-carta" => Some(include_str!("../books/magna-carta.txt")),
        "caissa-britannia" => Some(include_str!("../books/caissa-britannia.txt")),
        "avon" => Some(include_str!("../books/avon.txt")),
        _ => None,
    }
}

/// The position strings of a book text (blank lines and `#` comments
/// skipped).
pub fn lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// What `quadrille book` was asked for.
pub struct Settings {
    pub count: usize,
    pub plies: usize,
    pub depth: u32,
    pub max_score: i32,
    /// The score for White to aim at (default: the start's).
    pub around: Option<i32>,
    pub seed: u64,
}

/// A score for the side to move of `p`, as White's.
fn for_white(p: &Position, score: i32) -> i32 {
    if p.army_to_move() == 0 {
        score
    } else {
        -score
    }
}

/// `count` distinct positions `plies` random plies from `start` whose
/// score at `depth` is within `max_score` centipawns of the start's own
/// (the variant's natural balance: Magna Carta's armies differ, and a
/// book of even positions would be a book of White blunders), or of
/// `around` for White (such a book of blunders is what a self-play test
/// needs when the start's balance decides most games by colour).
pub fn generate(start: &Position, s: &Settings) -> Vec<String> {
    let mut searcher = Searcher::default();
    let reference = s.around.unwrap_or_else(|| {
        for_white(
            start,
            searcher.best_move(start, &Limits::depth(s.depth)).score,
        )
    });
    let mut seen = HashSet::new();
    let mut book = Vec::new();
    let mut tries = 0u64;
    while book.len() < s.count && tries < 50 * s.count as u64 {
        tries += 1;
        let p = random_opening(
            start,
            s.plies,
            s.seed.wrapping_mul(7_919).wrapping_add(tries),
        );
        if p.outcome().is_some() || !seen.insert(p.key()) {
            continue;
        }
        let r = searcher.best_move(&p, &Limits::depth(s.depth));
        if r.best.is_some() && (for_white(&p, r.score) - reference).abs() <= s.max_score {
            book.push(p.to_string());
        }
    }
    book
}

#[cfg(test)]
mod tests {
    use super::*;
    use quadrille_engine::embedded;

    #[test]
    fn around_aims_at_the_asked_balance() {
        let v = embedded::variant("magna-carta").unwrap();
        let s = Settings {
            count: 3,
            plies: 8,
            depth: 2,
            max_score: 100,
            around: Some(100),
            seed: 3,
        };
        let book = generate(&v.start(), &s);
        assert_eq!(book.len(), 3);
        for f in &book {
            let p = Position::from_string(v.clone(), f).unwrap();
            // A fresh search (the generator's kept its table): near, not
            // necessarily equal.
            let r = Searcher::default().best_move(&p, &Limits::depth(2));
            let white = for_white(&p, r.score);
            assert!((white - 100).abs() <= 150, "{f}: {white}");
        }
    }
}
