//! `tune`: self-play data, Texel fit, weights file (see
//! `quadrille_search::tune`).

use indicatif::{ProgressBar, ProgressStyle};
use quadrille_engine::Variant;
use quadrille_protocol::weights_file;
use quadrille_search::tune::{self, Plan, PstPlan, Sample};
use quadrille_search::{Eval, Terms, Weights};
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

/// What `quadrille tune` was asked to do.
pub struct Run {
    pub games: usize,
    pub nodes: u64,
    pub jobs: usize,
    pub seed: u64,
    pub fresh: bool,
    /// A weights file to start from instead.
    pub start: Option<String>,
    pub out: Option<String>,
    pub save_data: Option<String>,
    pub data: Option<String>,
    /// Match records (`match --record`) whose games to learn from.
    pub records: Option<String>,
    /// Move only these weights (all when empty).
    pub only: Vec<String>,
    /// The plain fit's share of the result in a scored position's target.
    pub result_share: f64,
    /// Fit the piece-square tables, with these settings.
    pub pst: Option<PstPlan>,
}

/// Calls `read` on every non-empty line of the files (comma-separated
/// paths), naming the file and line of a bad one.
fn each_line(paths: &str, mut read: impl FnMut(&str) -> Result<(), String>) -> Result<(), String> {
    for path in paths.split(',') {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.is_empty()) {
            read(line).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        }
    }
    Ok(())
}

/// Reads data files (written by `--save-data`).
fn load(v: &Arc<Variant>, paths: &str) -> Result<Vec<Sample>, String> {
    let mut data = Vec::new();
    each_line(paths, |line| {
        data.push(Sample::from_line(v, line)?);
        Ok(())
    })?;
    Ok(data)
}

/// Reads match records: the quiet positions of their games from ply 8 on,
/// as [`Sample::from_record_line`] keeps them.
fn load_records(v: &Arc<Variant>, paths: &str) -> Result<Vec<Sample>, String> {
    let value = Eval::new(v, Terms::default()).know.value;
    let mut data = Vec::new();
    each_line(paths, |line| {
        data.extend(Sample::from_record_line(v, line, RECORD_SKIP, &value)?);
        Ok(())
    })?;
    Ok(data)
}

/// Plies of a recorded game before its positions are kept (the opening
/// book's, as the self-play games skip their random plies).
const RECORD_SKIP: usize = 8;

fn save(path: &str, data: &[Sample]) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{path}: {e}"))?;
    let mut w = std::io::BufWriter::new(file);
    for s in data {
        writeln!(w, "{}", s.to_line()).map_err(|e| format!("{path}: {e}"))?;
    }
    w.flush().map_err(|e| format!("{path}: {e}"))
}

/// Self-play data (or the data files), then the fit, then the file.
pub fn run(v: &Arc<Variant>, run: &Run) -> Result<(), String> {
    if v.armies.len() != 2 {
        return Err(format!("{}: tune needs two armies", v.name));
    }
    if run.pst.is_some() && !run.only.is_empty() {
        return Err(
            "tune: --only chooses among the plain weights, which --pst leaves alone".into(),
        );
    }
    // A misspelt name fails now, not after the self-play games.
    tune::check_only(v, &run.only)?;
    let t = Instant::now();
    let (games, nodes, seed) = (run.games, run.nodes, run.seed);
    let (data, source) = match (&run.data, &run.records) {
        (None, None) => {
            let plan = Plan {
                games,
                nodes,
                opening_plies: 8,
                max_plies: 300,
                jobs: run.jobs,
                seed,
            };
            let bar = ProgressBar::new(games as u64);
            bar.set_style(
                ProgressStyle::with_template("{bar:40} {pos}/{len} games [{elapsed_precise}]")
                    .map_err(|e| e.to_string())?,
            );
            let data = tune::samples(&v.start(), &plan, &|n| bar.set_position(n as u64));
            bar.finish_and_clear();
            (
                data,
                format!("--games {games} --nodes {nodes} --seed {seed}"),
            )
        }
        (files, records) => {
            let mut data = Vec::new();
            let mut source = Vec::new();
            if let Some(paths) = files {
                data.extend(load(v, paths)?);
                source.push(format!("--data {paths}"));
            }
            if let Some(paths) = records {
                data.extend(load_records(v, paths)?);
                source.push(format!("--records {paths}"));
            }
            (data, source.join(" "))
        }
    };
    eprintln!(
        "{}: {} quiet positions ({source}) in {:.0} s",
        v.name,
        data.len(),
        t.elapsed().as_secs_f64()
    );
    if let Some(path) = &run.save_data {
        save(path, &data)?;
    }
    let (start, from) = match &run.start {
        Some(path) => (weights_file::read(path, v)?, format!(" --start {path}")),
        None if run.fresh => (Weights::default(), " --fresh".to_string()),
        None => (Weights::for_variant(v), String::new()),
    };
    let (weights, comment) = if let Some(plan) = run.pst {
        let fit = tune::fit_pst(v, &data, start, plan, &mut |line| eprintln!("{line}"));
        let comment = format!(
            "quadrille tune {} {source}{from} --pst{} --result-share {} --penalty {} --epochs {}: {} positions, error {:.5} -> {:.5}, held out {:.5} -> {:.5} (scale {:.3}), {:.0} s",
            v.name,
            if plan.activity { " --activity" } else { "" },
            plan.result_share,
            plan.penalty,
            plan.epochs,
            data.len(),
            fit.train.0,
            fit.train.1,
            fit.held_out.0,
            fit.held_out.1,
            fit.scale,
            t.elapsed().as_secs_f64()
        );
        (fit.weights, comment)
    } else {
        let share = run.result_share;
        let fit = tune::fit(v, &data, start, &run.only, share, run.jobs, &mut |line| {
            eprintln!("{line}")
        })?;
        let only = if run.only.is_empty() {
            String::new()
        } else {
            format!(" --only {}", run.only.join(","))
        };
        let comment = format!(
            "quadrille tune {} {source}{from}{only}{}: {} positions, error {:.5} -> {:.5} (scale {:.3}), {:.0} s",
            v.name,
            if share < 1.0 {
                format!(" --result-share {share}")
            } else {
                String::new()
            },
            data.len(),
            fit.error_before,
            fit.error_after,
            fit.scale,
            t.elapsed().as_secs_f64()
        );
        (fit.weights, comment)
    };
    let text = weights.to_toml(&comment)?;
    match &run.out {
        Some(path) => std::fs::write(path, &text).map_err(|e| format!("{path}: {e}"))?,
        None => outln!("{text}"),
    }
    Ok(())
}
