//! `tune`: self-play data, Texel fit, weights file (see
//! `quadrille_search::tune`).

use indicatif::{ProgressBar, ProgressStyle};
use quadrille_engine::Variant;
use quadrille_search::tune::{self, Plan};
use quadrille_search::Weights;
use std::sync::Arc;
use std::time::Instant;

pub fn run(
    v: &Arc<Variant>,
    games: usize,
    nodes: u64,
    jobs: usize,
    seed: u64,
    fresh: bool,
    out: Option<&str>,
) -> Result<(), String> {
    if v.armies.len() != 2 {
        return Err(format!("{}: tune needs two armies", v.name));
    }
    let t = Instant::now();
    let plan = Plan {
        games,
        nodes,
        opening_plies: 8,
        max_plies: 300,
        jobs,
        seed,
    };
    let bar = ProgressBar::new(games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games [{elapsed_precise}]")
            .map_err(|e| e.to_string())?,
    );
    let data = tune::samples(&v.start(), &plan, &|n| bar.set_position(n as u64));
    bar.finish_and_clear();
    eprintln!(
        "{}: {} quiet positions from {games} games at {nodes} nodes a move in {:.0} s",
        v.name,
        data.len(),
        t.elapsed().as_secs_f64()
    );
    let start = if fresh {
        Weights::default()
    } else {
        Weights::for_variant(v)
    };
    let fit = tune::fit(v, &data, start, jobs, &mut |line| eprintln!("{line}"));
    let comment = format!(
        "quadrille tune {} --games {games} --nodes {nodes} --seed {seed}{}: {} positions, error {:.5} -> {:.5} (scale {:.3}), {:.0} s",
        v.name,
        if fresh { " --fresh" } else { "" },
        data.len(),
        fit.error_before,
        fit.error_after,
        fit.scale,
        t.elapsed().as_secs_f64()
    );
    let text = fit.weights.to_toml(&comment)?;
    match out {
        Some(path) => std::fs::write(path, &text).map_err(|e| format!("{path}: {e}"))?,
        None => outln!("{text}"),
    }
    Ok(())
}
