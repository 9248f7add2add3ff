//! `quadrille`: the command-line front end.

/// `print!` that returns an error from the calling function instead of
/// panicking when standard output fails, and ends the program quietly
/// when the reader has gone away (`quadrille perft chess 5 --divide | head`).
macro_rules! out {
    ($($arg:tt)*) => {
        if let Err(e) = std::io::Write::write_fmt(&mut std::io::stdout(), format_args!($($arg)*)) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            return Err(format!("writing to standard output: {e}"));
        }
    };
}

/// `println!` in the manner of [`out!`].
macro_rules! outln {
    () => { out!("\n") };
    ($($arg:tt)*) => { out!("{}\n", format_args!($($arg)*)) };
}

mod ai;
mod bench;
mod board;
mod book;
mod duel;
mod play;
mod selfplay;
mod show;
mod tune;

use ai::EngineArgs;
use clap::{Parser, Subcommand};
use quadrille_engine::{embedded, Position, Variant};
use quadrille_protocol::Catalog;
use quadrille_search::tune::PstPlan;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "quadrille",
    version,
    about = "Chess variants for two to four players",
    after_help = "Examples:
  quadrille                      (serve the web app on http://127.0.0.1:8080)
  quadrille serve --port 9000 --db games.db
  quadrille variants
  quadrille show magna-carta
  quadrille perft chess 5
  quadrille perft chess 2 --divide --position '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1'
  quadrille play chess --random b --seed 7
  quadrille play magna-carta --ai b --movetime 500
  quadrille analyze chess --depth 8
  quadrille selfplay chess --a search:movetime=50 --b greedy --games 20
  quadrille uci
  quadrille --variant-file my-variant.toml perft my-variant 3"
)]
struct Cli {
    /// Load the variant from a definition file instead of the embedded ones.
    #[arg(long, global = true, value_name = "PATH")]
    variant_file: Option<String>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the web app and its JSON API (the default with no command).
    Serve(ServeArgs),
    /// List the embedded variants.
    Variants,
    /// Count move paths to a depth (the move generator's proof).
    Perft {
        /// Variant name, as listed by `variants` (ignored with --variant-file).
        variant: String,
        /// Plies to count (the last one bulk-counted).
        depth: u32,
        /// Start from this position string instead of the setup.
        #[arg(long)]
        position: Option<String>,
        /// Show the count below each first move.
        #[arg(long)]
        divide: bool,
    },
    /// Play at the terminal: humans, the AI or a random mover in each seat.
    Play {
        /// Variant name, as listed by `variants` (ignored with --variant-file).
        variant: String,
        /// Seats (player tags, e.g. `b`) played by a random mover.
        #[arg(long, value_delimiter = ',')]
        random: Vec<char>,
        /// Seats (player tags, e.g. `b` or `o,g,b`) played by the AI.
        #[arg(long, value_delimiter = ',')]
        ai: Vec<char>,
        /// Start from this position string.
        #[arg(long)]
        position: Option<String>,
        /// Seed for the random mover.
        #[arg(long)]
        seed: Option<u64>,
        /// The AI's strength and time (default: level 5).
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Search a position: best move, score, line, nodes per second.
    Analyze {
        /// Variant name, as listed by `variants` (ignored with --variant-file).
        variant: String,
        /// Start from this position string.
        #[arg(long)]
        position: Option<String>,
        /// Moves to play first, separated by spaces.
        #[arg(long, default_value = "")]
        moves: String,
        /// Limits and settings (default: 2 seconds).
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// A match between two players over many games, seats alternating:
    /// `random`, `greedy` (1 ply) or `search[:key=value,...]` (keys depth,
    /// nodes, movetime, noise, hidden, level, hash, null, lmr, mobility, multi).
    Selfplay {
        /// Variant name, as listed by `variants` (ignored with --variant-file).
        variant: String,
        /// The first contender.
        #[arg(long, default_value = "search:movetime=100")]
        a: String,
        /// The second contender.
        #[arg(long, default_value = "greedy")]
        b: String,
        /// Number of games.
        #[arg(long, default_value_t = 20)]
        games: usize,
        /// A game still going after this many plies counts as unfinished
        /// (players still in share the place).
        #[arg(long, default_value_t = 400)]
        max_plies: usize,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Seed for the random and greedy players and the openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Random plies played before each game (every seating plays each
        /// opening once), for varied games.
        #[arg(long, default_value_t = 4)]
        opening_plies: usize,
        /// Start from this position string.
        #[arg(long)]
        position: Option<String>,
        /// Stop when the SPRT between these Elo bounds decides: `0,10`
        /// (each game's share of the points is one sample).
        #[arg(long, value_name = "ELO0,ELO1")]
        sprt: Option<String>,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// A match in a two-army variant between Quadrille configurations or
    /// against a UCI engine (`uci:PROGRAM`, e.g. Fairy-Stockfish): pairs
    /// of games from the variant's opening book, clocks, W/D/L, pair
    /// counts, Elo with a 95% interval and an optional SPRT.
    Match {
        /// Variant name, as listed by `variants` (ignored with --variant-file).
        variant: String,
        /// Player A: `search[:key=value,...]`, `greedy`, `random` or
        /// `uci:PROGRAM [ARGS]` (e.g. `uci:/tmp/old/quadrille uci`).
        #[arg(long, default_value = "search")]
        a: String,
        /// Player B, the same forms.
        #[arg(long)]
        b: String,
        /// A UCI option for player A, NAME=VALUE (repeatable).
        #[arg(long = "a-option", value_name = "NAME=VALUE")]
        a_options: Vec<String>,
        /// A UCI option for player B, NAME=VALUE (repeatable).
        #[arg(long = "b-option", value_name = "NAME=VALUE")]
        b_options: Vec<String>,
        /// Time control: `100ms` a move, `10+0.1` (seconds + increment),
        /// `own` (each player's own depth or nodes), `depth=N` or
        /// `nodes=N` (both; the moves then do not depend on the load).
        #[arg(long, default_value = "100ms")]
        tc: String,
        /// Games to play at most (in pairs).
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        concurrency: usize,
        /// Stop when the SPRT between these Elo bounds decides: `0,10`.
        #[arg(long, value_name = "ELO0,ELO1")]
        sprt: Option<String>,
        /// Opening book file (one position string a line); default: the
        /// variant's embedded book, else 4 random plies per pair.
        #[arg(long, value_name = "PATH")]
        book: Option<String>,
        /// A game still going after this many plies is a draw.
        #[arg(long, default_value_t = 400)]
        max_plies: usize,
        /// Milliseconds a clock may run over before its flag falls.
        #[arg(long, default_value_t = 50)]
        margin: u64,
        /// Seed for the order of the openings. Under `own`, `depth=N` or
        /// `nodes=N` an opening replays the same games: a match plays each
        /// opening once (two games) at most, and runs with other seeds on
        /// the same book replay the same games; give each run its own book.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Only the final result, no running line per pair.
        #[arg(long)]
        quiet: bool,
        /// Write every game to this file, a line each: opening, the
        /// players of the two armies, result, ending, moves (tab-separated).
        #[arg(long)]
        record: Option<std::path::PathBuf>,
    },
    /// Make an opening book: positions a few random plies from the start
    /// that a short search scores near even (one position string a line).
    Book {
        /// Variant name, as listed by `variants` (ignored with --variant-file).
        variant: String,
        /// Positions to make.
        #[arg(long, default_value_t = 200)]
        count: usize,
        /// Random plies from the start.
        #[arg(long, default_value_t = 6)]
        plies: usize,
        /// Search depth of the balance test.
        #[arg(long, default_value_t = 6)]
        depth: u32,
        /// Largest distance (centipawns, either way) from the aimed score
        /// kept.
        #[arg(long, default_value_t = 60)]
        max_score: i32,
        /// Aim at this score for White (centipawns) instead of the start's
        /// own: a book for self-play tests in a game whose start favours
        /// one side so much that most pairs split by colour.
        #[arg(long, allow_hyphen_values = true)]
        around: Option<i32>,
        /// Seed of the random plies.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Learn a two-army variant's evaluation weights from self-play
    /// (Texel's method) and write them as a weights file.
    Tune {
        /// Variant name, as listed by `variants` (ignored with --variant-file).
        variant: String,
        /// Self-play games to learn from.
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// Nodes per move in those games.
        #[arg(long, default_value_t = 4000)]
        nodes: u64,
        /// Threads.
        #[arg(long, default_value_t = 2)]
        jobs: usize,
        /// Seed of the openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Start from the derived weights, not the shipped ones.
        #[arg(long)]
        fresh: bool,
        /// Start from the weights in this file (e.g. an earlier fit's, to
        /// fit the tables on top of learnt plain weights).
        #[arg(long, value_name = "PATH", conflicts_with = "fresh")]
        start: Option<String>,
        /// Where to write the weights (default: standard output).
        #[arg(long, value_name = "PATH")]
        out: Option<String>,
        /// Also write the self-play positions (position, result, search
        /// score; a line each) to this file.
        #[arg(long, value_name = "PATH")]
        save_data: Option<String>,
        /// Learn from the positions in this file (written by --save-data;
        /// several files may be given, comma-separated) instead of playing.
        #[arg(long, value_name = "PATH")]
        data: Option<String>,
        /// Learn from the games of match records (`match --record`; several
        /// comma-separated) as well: their quiet positions from ply 8 on,
        /// each by its game's result alone (e.g. games against a stronger
        /// engine, which teach what self-play cannot).
        #[arg(long, value_name = "PATH")]
        records: Option<String>,
        /// Move only these weights (comma-separated, e.g.
        /// `hanging,king_attack` or `value P`); the others stay as the
        /// start weights have them. Not with --pst.
        #[arg(long, value_name = "NAMES", value_delimiter = ',')]
        only: Vec<String>,
        /// Fit the piece-square tables (middle and end game) instead of
        /// the other weights, which stay as the start weights have them.
        #[arg(long)]
        pst: bool,
        /// The share of the game's result in the target of a position
        /// that has a search score (the rest is the score: self-play's, or
        /// one written into a data file by another engine). Default: 1
        /// (results alone) for the plain weights, 0.5 with --pst.
        #[arg(long)]
        result_share: Option<f64>,
        /// With --pst: the L2 penalty per squared centipawn of the tables.
        #[arg(long, default_value_t = PstPlan::default().penalty)]
        penalty: f64,
        /// With --pst: passes of gradient descent over the data.
        #[arg(long, default_value_t = PstPlan::default().epochs)]
        epochs: usize,
        /// With --pst: fit learnt mobility (per piece type and number of
        /// moves) and threats (per attacker and victim type) as well.
        #[arg(long)]
        activity: bool,
    },
    /// Talk UCI on standard input and output (two-player variants).
    Uci,
    /// Talk XBoard/CECP on standard input and output (two-player variants).
    Xboard,
    /// Show a variant's board, setup, pieces and rules.
    Show {
        /// Variant name, as listed by `variants` (ignored with --variant-file).
        variant: String,
    },
    /// Perft speed (or, with --search, search speed) on the start
    /// position of every embedded variant.
    Bench {
        /// Variants to measure (default: every embedded variant).
        variants: Vec<String>,
        /// Plies below each variant's standard depth (0 = the full
        /// benchmark, a few seconds per variant on one core).
        #[arg(long, default_value_t = 0)]
        shallower: u32,
        /// Measure the search instead: nodes per second and the time to
        /// reach each depth, searching this many milliseconds.
        #[arg(long, value_name = "MS")]
        search: Option<u64>,
        /// With --search: search threads (Lazy SMP).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
    },
}

#[derive(clap::Args)]
struct ServeArgs {
    /// Address to listen on (127.0.0.1: this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Port to listen on.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// SQLite database file for the games (created if missing).
    #[arg(long, default_value = "quadrille.db", value_name = "PATH")]
    db: std::path::PathBuf,
    /// Threads for AI searches (default: the number of cores).
    #[arg(long, value_name = "N")]
    ai_threads: Option<usize>,
    /// Games with AI seats that may be on at once; more are refused.
    #[arg(long, default_value_t = 64, value_name = "N")]
    max_ai_games: usize,
    /// Longest AI time per move a seat may ask for, in milliseconds.
    #[arg(long, default_value_t = 10_000, value_name = "MS")]
    max_ai_time: u32,
    /// Connections open at once; more are closed at once.
    #[arg(long, default_value_t = 512, value_name = "N")]
    max_connections: usize,
    /// Seconds a client has to send a request's headers, and its body.
    #[arg(long, default_value_t = 10, value_name = "SECONDS")]
    request_timeout: u64,
    /// Moves a client (an address) may send per second, after a burst of
    /// six times as many.
    #[arg(long, default_value_t = 20, value_name = "N")]
    moves_per_sec: u32,
    /// Games a client may create in a burst, then one every two seconds.
    #[arg(long, default_value_t = 60, value_name = "N")]
    create_burst: u32,
    /// Delete games nobody has moved in for this many days (0: keep all).
    #[arg(long, default_value_t = 30, value_name = "DAYS")]
    expire_days: u64,
}

impl Default for ServeArgs {
    fn default() -> Self {
        ServeArgs {
            host: "127.0.0.1".into(),
            port: 8080,
            db: "quadrille.db".into(),
            ai_threads: None,
            max_ai_games: 64,
            max_ai_time: 10_000,
            max_connections: 512,
            request_timeout: 10,
            moves_per_sec: 20,
            create_burst: 60,
            expire_days: 30,
        }
    }
}

/// Serves the web app; `--variant-file` adds a variant to the offered ones.
fn serve(args: ServeArgs, file: Option<&str>) -> Result<(), String> {
    let mut config = quadrille_server::Config::new(args.db);
    if let Some(n) = args.ai_threads {
        config.ai_threads = n.max(1);
    }
    config.max_ai_games = args.max_ai_games;
    config.max_ai_time_ms = args.max_ai_time;
    let h = &mut config.http;
    h.max_connections = args.max_connections.max(1);
    h.header_timeout = std::time::Duration::from_secs(args.request_timeout.max(1));
    h.body_timeout = h.header_timeout;
    h.moves_per_sec = args.moves_per_sec.max(1);
    h.move_burst = h.moves_per_sec.saturating_mul(6);
    h.create_burst = args.create_burst.max(1);
    h.hosts = quadrille_server::http::Limits::hosts_for(&args.host);
    config.expire_after = (args.expire_days > 0)
        .then(|| std::time::Duration::from_secs(args.expire_days.saturating_mul(86_400)));
    if let Some(path) = file {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        config.variant_files.push((path.to_string(), text));
    }
    let picker = Arc::new(quadrille_server::Search::new());
    quadrille_server::serve(&args.host, args.port, config, picker)
}

/// Depth of the speed benchmark per variant: chess 6 and Magna Carta 5,
/// the depths Fairy-Stockfish's reference numbers use; for the others the
/// first depth with at least five million nodes (a few seconds of work).
fn bench_depth(v: &Arc<Variant>) -> u32 {
    match v.name.as_str() {
        "chess" => 6,
        "magna-carta" => 5,
        _ => {
            let p = v.start();
            (1..12)
                .find(|&d| p.perft_narrowed(d) >= 5_000_000)
                .unwrap_or(12)
        }
    }
}

/// `--sprt ELO0,ELO1`, if given.
fn sprt_bounds(arg: Option<String>) -> Result<Option<quadrille_search::stats::Sprt>, String> {
    arg.map(|s| s.parse().map_err(|e| format!("--sprt: {e}")))
        .transpose()
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

/// The two-player variants for the GUI protocols, with the one from
/// --variant-file added.
fn catalog(file: Option<&str>) -> Result<Catalog, String> {
    let catalog = Catalog::embedded();
    Ok(match file {
        Some(path) => catalog.with(load_variant("", Some(path))?),
        None => catalog,
    })
}

fn position(v: &Arc<Variant>, s: Option<&str>) -> Result<Position, String> {
    match s {
        Some(s) => Position::from_string(v.clone(), s).map_err(|e| e.to_string()),
        None => Ok(v.start()),
    }
}

fn perft(v: &Arc<Variant>, depth: u32, pos: Option<&str>, divide: bool) -> Result<(), String> {
    if divide && depth == 0 {
        return Err("perft --divide needs a depth of 1 or more".into());
    }
    let p = position(v, pos)?;
    let t = Instant::now();
    let nodes = if divide {
        let mut total = 0;
        for (m, n) in p.divide_narrowed(depth) {
            outln!("{} {n}", p.move_to_string(m));
            total += n;
        }
        total
    } else {
        p.perft_narrowed(depth)
    };
    let secs = t.elapsed().as_secs_f64();
    outln!(
        "nodes {nodes} time {secs:.3}s nps {:.0} (leaves bulk-counted)",
        nodes as f64 / secs.max(1e-9)
    );
    Ok(())
}

fn run(cli: Cli) -> Result<(), String> {
    let file = cli.variant_file.as_deref();
    let Some(command) = cli.command else {
        return serve(ServeArgs::default(), file);
    };
    match command {
        Command::Serve(args) => serve(args, file),
        Command::Variants => {
            for name in embedded::names() {
                let v = embedded::variant(name).map_err(|e| e.to_string())?;
                outln!("{:<18} {} ({} players)", name, v.title, v.players.len());
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
            ai,
            position: pos,
            seed,
            engine,
        } => {
            let v = load_variant(&variant, file)?;
            let p = position(&v, pos.as_deref())?;
            let seats = play::Seats {
                random,
                ai,
                searcher: engine.searcher(&v)?,
                limits: engine.limits(quadrille_search::Limits::level(5)),
            };
            play::run(p, seats, seed)
        }
        Command::Analyze {
            variant,
            position: pos,
            moves,
            engine,
        } => {
            let v = load_variant(&variant, file)?;
            let mut p = position(&v, pos.as_deref())?;
            for m in moves.split_whitespace() {
                p.play(m).map_err(|e| format!("--moves: move `{m}`: {e}"))?;
            }
            ai::analyze(&p, &engine)
        }
        Command::Selfplay {
            variant,
            a,
            b,
            games,
            max_plies,
            jobs,
            seed,
            opening_plies,
            position: pos,
            sprt,
            quiet,
        } => {
            let v = load_variant(&variant, file)?;
            let p = position(&v, pos.as_deref())?;
            let settings = selfplay::Settings {
                sprt: sprt_bounds(sprt)?,
                a,
                b,
                games,
                max_plies,
                jobs: jobs.max(1),
                seed,
                opening_plies,
                quiet,
            };
            selfplay::run(p, &settings)
        }
        Command::Match {
            variant,
            a,
            b,
            a_options,
            b_options,
            tc,
            games,
            concurrency,
            sprt,
            book: book_file,
            max_plies,
            margin,
            seed,
            quiet,
            record,
        } => {
            let v = load_variant(&variant, file)?;
            let sprt = sprt_bounds(sprt)?;
            let openings = match book_file {
                Some(path) => book::lines(
                    &std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?,
                ),
                None => book::embedded(&v.name).map(book::lines).unwrap_or_default(),
            };
            let settings = duel::Settings {
                a: duel::PlayerSpec::parse(&a, &a_options, &v)?,
                b: duel::PlayerSpec::parse(&b, &b_options, &v)?,
                tc: duel::TimeControl::parse(&tc)?,
                games,
                concurrency: concurrency.max(1),
                max_plies,
                margin_ms: margin,
                sprt,
                openings,
                seed,
                quiet,
                record,
            };
            duel::run(v.start(), &settings)
        }
        Command::Book {
            variant,
            count,
            plies,
            depth,
            max_score,
            around,
            seed,
        } => {
            let v = load_variant(&variant, file)?;
            let settings = book::Settings {
                count,
                plies,
                depth,
                max_score,
                around,
                seed,
            };
            let aim = around.map_or("the start".to_string(), |a| format!("{a:+} cp for White"));
            outln!(
                "# {}: {count} positions {plies} random plies from the start, scored at depth {depth} within {max_score} cp of {aim} (quadrille book --seed {seed})",
                v.name
            );
            for line in book::generate(&v.start(), &settings) {
                outln!("{line}");
            }
            Ok(())
        }
        Command::Tune {
            variant,
            games,
            nodes,
            jobs,
            seed,
            fresh,
            start,
            out,
            save_data,
            data,
            records,
            only,
            pst,
            result_share,
            penalty,
            epochs,
            activity,
        } => {
            let v = load_variant(&variant, file)?;
            let run = tune::Run {
                games,
                nodes,
                jobs: jobs.max(1),
                seed,
                fresh,
                start,
                out,
                save_data,
                data,
                records,
                only,
                result_share: result_share.unwrap_or(1.0).clamp(0.0, 1.0),
                pst: pst.then_some(PstPlan {
                    result_share: result_share
                        .unwrap_or(PstPlan::default().result_share)
                        .clamp(0.0, 1.0),
                    penalty: penalty.max(0.0),
                    epochs,
                    activity,
                    ..Default::default()
                }),
            };
            tune::run(&v, &run)
        }
        Command::Uci => {
            let catalog = catalog(file)?;
            quadrille_protocol::uci::run(std::io::stdin().lock(), std::io::stdout(), catalog)
                .map_err(|e| format!("uci: {e}"))
        }
        Command::Xboard => {
            let catalog = catalog(file)?;
            quadrille_protocol::xboard::run(std::io::stdin().lock(), std::io::stdout(), catalog)
                .map_err(|e| format!("xboard: {e}"))
        }
        Command::Bench {
            variants,
            search: Some(ms),
            threads,
            ..
        } => bench::search(&variants, ms, threads as usize),
        Command::Bench {
            variants,
            shallower,
            search: None,
            ..
        } => {
            outln!(
                "{:<18} {:>5} {:>14} {:>9} {:>14}",
                "variant",
                "depth",
                "nodes",
                "seconds",
                "nodes/s"
            );
            for name in bench::names(variants) {
                let v = embedded::variant(&name).map_err(|e| e.to_string())?;
                let depth = bench_depth(&v).saturating_sub(shallower).max(1);
                let p = v.start();
                let t = Instant::now();
                let nodes = p.perft_narrowed(depth);
                let secs = t.elapsed().as_secs_f64();
                outln!(
                    "{name:<18} {depth:>5} {nodes:>14} {secs:>9.3} {:>14.0}",
                    nodes as f64 / secs.max(1e-9)
                );
            }
            outln!("(perft from the start position, one thread, leaves bulk-counted)");
            Ok(())
        }
        Command::Show { variant } => {
            let v = load_variant(&variant, file)?;
            out!("{}", show::describe(&v));
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
