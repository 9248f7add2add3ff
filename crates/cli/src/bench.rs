//! `bench --search`: search speed on each start position - nodes per
//! second and the time to complete each depth.

use quadrille_engine::embedded;
use quadrille_search::{Limits, Options, Searcher};

/// The variants to measure: those named, or every embedded one.
pub fn names(variants: Vec<String>) -> Vec<String> {
    if variants.is_empty() {
        embedded::names().map(String::from).collect()
    } else {
        variants
    }
}

/// Searches each start position for `ms` milliseconds with a fresh
/// searcher of `threads` threads and prints the speed (of all threads) and
/// the time to each completed depth.
pub fn search(variants: &[String], ms: u64, threads: usize) -> Result<(), String> {
    outln!(
        "{:<18} {:>9} {:>5} {:>12} {:>9} {:>10}  time to depth (ms)",
        "variant",
        "algorithm",
        "depth",
        "nodes",
        "seconds",
        "nodes/s"
    );
    for name in names(variants.to_vec()) {
        let v = embedded::variant(&name).map_err(|e| e.to_string())?;
        let mut searcher = Searcher::new(Options {
            threads,
            ..Options::default()
        });
        let mut times = Vec::new();
        let r = searcher.search(&v.start(), &Limits::movetime(ms), &mut |r| {
            times.push(format!("{}:{}", r.depth, r.time.as_millis()));
        });
        outln!(
            "{name:<18} {:>9} {:>5} {:>12} {:>9.3} {:>10}  {}",
            r.algorithm.name(),
            r.depth,
            r.nodes,
            r.time.as_secs_f64(),
            r.nps(),
            times.join(" ")
        );
    }
    outln!("({threads} thread(s); depth = plies, layers for Best-Reply Search)");
    Ok(())
}
