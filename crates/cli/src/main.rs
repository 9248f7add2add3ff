//! `quadrille`: the command-line front end.

mod board;
mod play;
mod show;

use clap::{Parser, Subcommand};
use quadrille_engine::{embedded, Position, Variant};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "quadrille",
    version,
    about = "Chess variants for two to four players"
)]
struct Cli {
    /// Load the variant from a definition file instead of the embedded ones.
    #[arg(long, global = true, value_name = "PATH")]
    variant_file: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the embedded variants.
    Variants,
    /// Count move paths to a depth (the move generator's proof).
    Perft {
        /// Variant name (ignored with --variant-file).
        variant: String,
        depth: u32,
        /// Start from this position string instead of the setup.
        #[arg(long)]
        position: Option<String>,
        /// Show the count below each first move.
        #[arg(long)]
        divide: bool,
    },
    /// Play at the terminal: humans, or a random mover in some seats.
    Play {
        variant: String,
        /// Seats (player tags, e.g. `b`) played by a random mover.
        #[arg(long, value_delimiter = ',')]
        random: Vec<char>,
        /// Start from this position string.
        #[arg(long)]
        position: Option<String>,
        /// Seed for the random mover.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Show a variant's board, setup, pieces and rules.
    Show { variant: String },
    /// Perft speed on the start position of every embedded variant.
    Bench {
        /// Plies below each variant's standard depth (0 = the full
        /// benchmark, about ten seconds per variant on one core).
        #[arg(long, default_value_t = 0)]
        shallower: u32,
    },
}

/// Depth of the speed benchmark per variant: a few seconds of work each.
fn bench_depth(v: &Variant) -> u32 {
    match v.name.as_str() {
        "chess" => 6,
        "magna-carta" => 5,
        "avon" => 8,
        _ => 4,
    }
}

fn load_variant(name: &str, file: Option<&str>) -> Result<Arc<Variant>, String> {
    match file {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            Variant::from_toml(&text)
                .map(Arc::new)
                .map_err(|e| e.in_file(path).to_string())
        }
        None => embedded::variant(name).map_err(|e| e.to_string()),
    }
}

fn position(v: &Arc<Variant>, s: Option<&str>) -> Result<Position, String> {
    match s {
        Some(s) => Position::from_string(v.clone(), s).map_err(|e| e.to_string()),
        None => Ok(v.start()),
    }
}

fn perft(v: &Arc<Variant>, depth: u32, pos: Option<&str>, divide: bool) -> Result<(), String> {
    let mut p = position(v, pos)?;
    let t = Instant::now();
    let nodes = if divide {
        let mut total = 0;
        for (m, n) in p.divide(depth) {
            println!("{} {n}", p.move_to_string(m));
            total += n;
        }
        total
    } else {
        p.perft(depth)
    };
    let secs = t.elapsed().as_secs_f64();
    println!(
        "nodes {nodes} time {secs:.3}s nps {:.0} (leaves bulk-counted)",
        nodes as f64 / secs.max(1e-9)
    );
    Ok(())
}

fn run(cli: Cli) -> Result<(), String> {
    let file = cli.variant_file.as_deref();
    match cli.command {
        Command::Variants => {
            for name in embedded::names() {
                let v = embedded::variant(name).map_err(|e| e.to_string())?;
                println!("{:<18} {} ({} players)", name, v.title, v.players.len());
            }
            Ok(())
        }
        Command::Perft {
            variant,
            depth,
            position,
            divide,
        } => perft(
            &load_variant(&variant, file)?,
            depth,
            position.as_deref(),
            divide,
        ),
        Command::Play {
            variant,
            random,
            position: pos,
            seed,
        } => {
            let v = load_variant(&variant, file)?;
            let p = position(&v, pos.as_deref())?;
            play::run(p, &random, seed)
        }
        Command::Bench { shallower } => {
            println!(
                "{:<18} {:>5} {:>14} {:>9} {:>14}",
                "variant", "depth", "nodes", "seconds", "nodes/s"
            );
            for name in embedded::names() {
                let v = embedded::variant(name).map_err(|e| e.to_string())?;
                let depth = bench_depth(&v).saturating_sub(shallower).max(1);
                let mut p = v.start();
                let t = Instant::now();
                let nodes = p.perft(depth);
                let secs = t.elapsed().as_secs_f64();
                println!(
                    "{name:<18} {depth:>5} {nodes:>14} {secs:>9.3} {:>14.0}",
                    nodes as f64 / secs.max(1e-9)
                );
            }
            println!("(perft from the start position, one thread, leaves bulk-counted)");
            Ok(())
        }
        Command::Show { variant } => {
            let v = load_variant(&variant, file)?;
            print!("{}", show::describe(&v));
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
