//! The AI's command-line settings (shared by `analyze` and `play`), and
//! `analyze` itself: best move, score, line and speed for one position.

use quadrille_engine::{Position, Variant};
use quadrille_search::{score, Limits, MultiAlgorithm, Options, Params, SearchResult, Searcher};
use std::io::Write;

/// How strong and how long the AI thinks.
#[derive(clap::Args, Clone, Debug)]
pub struct EngineArgs {
    /// Strength from 1 (weakest) to 8 (full strength, 2.5 s a move), the
    /// web app's levels; instead of the limits below.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=8))]
    pub level: Option<u8>,
    /// Search to this depth (plies; layers for four players).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Milliseconds per move.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Nodes per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Transposition table size in megabytes.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: u64,
    /// Search threads (Lazy SMP).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Turn null-move pruning off.
    #[arg(long)]
    pub no_null: bool,
    /// Turn late move reductions off.
    #[arg(long)]
    pub no_lmr: bool,
    /// Games of more than two sides: the search (`auto`: the one measured
    /// the stronger, Paranoid; Best-Reply Search, Paranoid or MaxN).
    #[arg(long, default_value = "auto", value_parser = multi_parser())]
    pub multi: MultiAlgorithm,
    /// Same as `--multi paranoid`.
    #[arg(long, conflicts_with = "multi")]
    pub paranoid: bool,
    /// Set a search parameter, `NAME:VALUE` (the fields of
    /// `quadrille_search::Params`); may be repeated.
    #[arg(long, value_name = "NAME:VALUE")]
    pub tune: Vec<String>,
    /// Evaluation weights from this file (as `tune` writes them) instead
    /// of the variant's shipped ones.
    #[arg(long, value_name = "PATH")]
    pub weights: Option<String>,
}

/// `--multi`: the names of [`MultiAlgorithm`], listed in `--help`.
fn multi_parser() -> impl clap::builder::TypedValueParser<Value = MultiAlgorithm> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(MultiAlgorithm::NAMES)
        .try_map(|name| name.parse::<MultiAlgorithm>())
}

impl EngineArgs {
    pub fn options(&self) -> Result<Options, String> {
        let mut params = Params::default();
        for t in &self.tune {
            params.apply(t).map_err(|e| format!("--tune: {e}"))?;
        }
        Ok(Options {
            null_move: !self.no_null,
            lmr: !self.no_lmr,
            multi: if self.paranoid {
                MultiAlgorithm::Paranoid
            } else {
                self.multi
            },
            hash_mb: self.hash as usize,
            threads: self.threads as usize,
            params,
            ..Options::default()
        })
    }

    /// A searcher of variant `v` with these settings and weights.
    pub fn searcher(&self, v: &Variant) -> Result<Searcher, String> {
        let mut searcher = Searcher::new(self.options()?);
        if let Some(path) = &self.weights {
            let w = quadrille_protocol::weights_file::read(path, v)
                .map_err(|e| format!("--weights: {e}"))?;
            searcher.set_weights(Some(w));
        }
        Ok(searcher)
    }

    /// The limits given, or `default` when none is.
    pub fn limits(&self, default: Limits) -> Limits {
        if let Some(l) = self.level {
            return Limits::level(l);
        }
        if self.depth.is_none() && self.movetime.is_none() && self.nodes.is_none() {
            return default;
        }
        Limits {
            depth: self.depth,
            movetime: self.movetime,
            nodes: self.nodes,
            ..Limits::default()
        }
    }
}

/// The moves of a line in coordinates, played from `pos`.
pub fn line_text(pos: &Position, line: &[quadrille_engine::Move]) -> String {
    let mut p = pos.clone();
    let mut words = Vec::new();
    for &m in line {
        words.push(p.move_to_string(m));
        p.make(m);
    }
    words.join(" ")
}

/// One row of `analyze` output.
fn row(pos: &Position, r: &SearchResult) -> String {
    format!(
        "{:>5} {:>8} {:>16} {:>12} {:>10} {:>9.3}  {}",
        r.depth,
        r.seldepth,
        score::describe(r.score),
        r.nodes,
        r.nps(),
        r.time.as_secs_f64(),
        line_text(pos, &r.pv)
    )
}

/// `analyze`: searches the position and prints each iteration and the
/// result.
pub fn analyze(pos: &Position, args: &EngineArgs) -> Result<(), String> {
    let v = pos.variant();
    let mut searcher = args.searcher(v)?;
    let limits = args.limits(Limits::movetime(2_000));
    let player = &v.players[pos.to_move()];
    let values = {
        let e = searcher.evaluation(pos);
        v.pieces
            .iter()
            .zip(&e.know.value)
            .zip(&e.know.derived)
            .map(|((p, val), d)| format!("{}={val}{}", p.letter, if *d { "" } else { " (file)" }))
            .collect::<Vec<_>>()
            .join(" ")
    };
    outln!(
        "{} ({} players), {} to move: {}",
        v.name,
        v.players.len(),
        player.name,
        pos
    );
    outln!("piece values: {values}");
    outln!(
        "{:>5} {:>8} {:>16} {:>12} {:>10} {:>9}  line",
        "depth",
        "seldepth",
        "score",
        "nodes",
        "nodes/s",
        "seconds"
    );
    // Rows as they come (a failed write shows at the summary line).
    let result = searcher.search(pos, &limits, &mut |r| {
        let _ = writeln!(std::io::stdout(), "{}", row(pos, r));
    });
    match result.best {
        Some(m) => outln!(
            "best {} score {} depth {} nodes {} nodes/s {} time {:.3}s ({})",
            pos.move_to_string(m),
            score::describe(result.score),
            result.depth,
            result.nodes,
            result.nps(),
            result.time.as_secs_f64(),
            result.algorithm.name()
        ),
        None => outln!("no legal move: the game is over"),
    }
    Ok(())
}
