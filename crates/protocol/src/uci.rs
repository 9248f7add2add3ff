//! UCI: the engine side of the Universal Chess Interface, for the
//! two-player variants (`UCI_Variant`). Positions are our position strings
//! (FEN for two armies, the same letters Fairy-Stockfish uses for Magna
//! Carta and Caïssa Britannia), moves are coordinates (`e2e4`, `e7e8q`,
//! castling as the king's move). A malformed or illegal command gets an
//! `info string error: ...` line and changes nothing.

use crate::catalog::Catalog;
use crate::output::{each_line, Output};
use crate::thinker::Thinker;
use quadrille_engine::{Position, Variant};
use quadrille_search::{score, Clock, Limits, Options, SearchResult, Searcher};
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::thread::Scope;

const NAME: &str = concat!("Quadrille ", env!("CARGO_PKG_VERSION"));
const MAX_HASH_MB: usize = 4096;
/// Most search threads a GUI may ask for.
pub(crate) const MAX_THREADS: usize = 256;

/// Runs a UCI session until `quit` or the end of the input.
pub fn run<R: BufRead, W: Write + Send>(input: R, output: W, catalog: Catalog) -> io::Result<()> {
    let out = Output::new(output);
    let Some(variant) = catalog.default_variant() else {
        return out.line("info string error: no two-player variant to play");
    };
    std::thread::scope(|scope| {
        let mut uci = Uci {
            catalog,
            pos: variant.start(),
            variant,
            options: Options::default(),
            thinker: Thinker::new(Searcher::default()),
            infinite: false,
            out: &out,
        };
        let quit = each_line(input, |line| uci.command(scope, line))?;
        // At the end of the input a bounded search may finish (so that
        // `echo "go depth 9" | quadrille uci` works); `quit` stops it.
        if quit || uci.infinite {
            uci.thinker.stop();
        } else {
            uci.thinker.wait();
        }
        Ok(())
    })
}

struct Uci<'a, 'scope, W: Write> {
    catalog: Catalog,
    variant: Arc<Variant>,
    pos: Position,
    options: Options,
    thinker: Thinker<'scope>,
    /// The running search has no bound (`go infinite`).
    infinite: bool,
    out: &'a Output<W>,
}

impl<'a, 'scope, W: Write + Send> Uci<'a, 'scope, W>
where
    'a: 'scope,
{
    /// Handles one line; false to quit.
    fn command<'env>(
        &mut self,
        scope: &'scope Scope<'scope, 'env>,
        line: &str,
    ) -> io::Result<bool> {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else {
            return Ok(true);
        };
        let rest: Vec<&str> = words.collect();
        let result = match cmd {
            "uci" => self.identify(),
            "isready" => self.say("readyok"),
            "ucinewgame" => {
                self.thinker.stop();
                self.thinker.with(|s| s.clear());
                Ok(())
            }
            "setoption" => self.set_option(&rest),
            "position" => self.position(&rest),
            "go" => self.go(scope, &rest),
            "stop" => {
                self.thinker.stop();
                Ok(())
            }
            "ponderhit" | "debug" | "register" => Ok(()),
            "d" => self.say(format!("info string position {}", self.pos)),
            "eval" => self.static_eval(),
            "quit" => return Ok(false),
            other => Err(format!("unknown command `{other}`")),
        }
        .or_else(|e: String| self.out.line(format!("info string error: {e}")).map(|_| ()));
        result.map(|_| true)
    }
}

/// A command's outcome: an I/O failure ends the loop, a `String` is an
/// error to report.
type Reply = Result<(), String>;

impl<'a, 'scope, W: Write + Send> Uci<'a, 'scope, W>
where
    'a: 'scope,
{
    fn say(&self, text: impl std::fmt::Display) -> Reply {
        self.out.line(text).map_err(|e| e.to_string())
    }

    /// `eval` (as in Stockfish): the static evaluation of the position,
    /// in pawns from the side to move, without a search.
    fn static_eval(&mut self) -> Reply {
        if self.thinker.is_busy() {
            return Err("eval: a search is running (`stop` it first)".into());
        }
        let pos = &self.pos;
        let cp = self.thinker.with(|s| s.evaluation(pos).two_sided(pos));
        self.say(format!(
            "info string static eval {:+.2} (side to move)",
            cp as f64 / 100.0
        ))
    }

    fn identify(&self) -> Reply {
        self.say(format!("id name {NAME}"))?;
        self.say("id author the Quadrille authors")?;
        let vars: String = self.catalog.names().map(|n| format!(" var {n}")).collect();
        self.say(format!(
            "option name UCI_Variant type combo default {}{vars}",
            self.variant.name
        ))?;
        self.say(format!(
            "option name Hash type spin default {} min 1 max {MAX_HASH_MB}",
            Options::default().hash_mb
        ))?;
        self.say(format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ))?;
        self.say("option name Clear Hash type button")?;
        self.say("option name NullMove type check default true")?;
        self.say("option name LateMoveReductions type check default true")?;
        self.say("option name Weights type string default <empty>")?;
        self.say("uciok")
    }

    /// `setoption name NAME [value VALUE]`.
    fn set_option(&mut self, words: &[&str]) -> Reply {
        let text = words.join(" ");
        let body = text
            .strip_prefix("name ")
            .ok_or("setoption: expected `setoption name NAME [value VALUE]`")?;
        let (name, value) = match body.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (body.trim(), ""),
        };
        // A spin option's value, 1 to `max`.
        let spin = |option: &str, v: &str, max: usize| {
            v.parse()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| format!("setoption {option}: `{v}` is not 1 to {max}"))
        };
        let flag = |v: &str| match v {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("setoption {name}: `{v}` is not true or false")),
        };
        self.thinker.stop();
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let v = self.catalog.get(value).ok_or_else(|| {
                    format!(
                        "setoption UCI_Variant: unknown variant `{value}` (known: {})",
                        self.catalog.names().collect::<Vec<_>>().join(", ")
                    )
                })?;
                self.pos = v.start();
                self.variant = v;
            }
            "hash" => self.options.hash_mb = spin("Hash", value, MAX_HASH_MB)?,
            "threads" => self.options.threads = spin("Threads", value, MAX_THREADS)?,
            "clear hash" => self.thinker.with(|s| s.clear()),
            "nullmove" => self.options.null_move = flag(value)?,
            "latemovereductions" => self.options.lmr = flag(value)?,
            // A weights file for the evaluation (`<empty>`: the variant's
            // own); refused when it does not fit the current variant.
            "weights" => {
                let weights = match value {
                    "" | "<empty>" => None,
                    path => Some(
                        crate::weights_file::read(path, &self.variant)
                            .map_err(|e| format!("setoption Weights: {e}"))?,
                    ),
                };
                self.thinker.with(|s| s.set_weights(weights));
            }
            _ => return Err(format!("setoption: unknown option `{name}`")),
        }
        let options = self.options;
        self.thinker.with(|s| s.set_options(options));
        Ok(())
    }

    /// `position (startpos | fen FEN) [moves M...]`: the whole command is
    /// checked before the position changes.
    fn position(&mut self, words: &[&str]) -> Reply {
        let split = words.iter().position(|&w| w == "moves");
        let (setup, moves) = match split {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (words, &[][..]),
        };
        let mut pos = match setup.split_first() {
            Some((&"startpos", [])) => self.variant.start(),
            Some((&"fen", fen)) if !fen.is_empty() => {
                Position::from_string(self.variant.clone(), &fen.join(" "))
                    .map_err(|e| format!("position: {e}"))?
            }
            _ => return Err("position: expected `startpos` or `fen FEN`, then `moves ...`".into()),
        };
        for m in moves {
            pos.play(m)
                .map_err(|e| format!("position: move `{m}`: {e}"))?;
        }
        self.thinker.stop();
        self.pos = pos;
        Ok(())
    }

    /// `go [wtime btime winc binc movestogo depth nodes movetime infinite]`.
    fn go<'env>(&mut self, scope: &'scope Scope<'scope, 'env>, words: &[&str]) -> Reply {
        let limits = self.limits(words)?;
        if self.thinker.is_busy() {
            return Err("go: a search is already running (send stop first)".into());
        }
        self.infinite = limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.clock.is_none();
        let out = self.out;
        let pos = self.pos.clone();
        let shown = pos.clone();
        let shown_final = pos.clone();
        self.thinker
            .start(
                scope,
                pos,
                limits,
                move |r| {
                    let _ = out.line(info_line(&shown, r));
                },
                move |r| {
                    let best = r
                        .best
                        .map_or("0000".to_string(), |m| shown_final.move_to_string(m));
                    let _ = out.line(format!("bestmove {best}"));
                },
            )
            .map_err(|e| format!("go: cannot start the search: {e}"))
    }

    fn limits(&self, words: &[&str]) -> Result<Limits, String> {
        let mut limits = Limits::default();
        let mut clocks = [None::<u64>; 2];
        let mut incs = [0u64; 2];
        let mut moves_to_go = None;
        let mut i = 0;
        while i < words.len() {
            let key = words[i];
            let number = |i: usize| -> Result<u64, String> {
                let v = words
                    .get(i + 1)
                    .ok_or_else(|| format!("go: `{key}` needs a number"))?;
                // Clocks may run negative in some GUIs: that is no time.
                if let Ok(n) = v.parse::<i64>() {
                    return Ok(n.max(0) as u64);
                }
                Err(format!("go: `{key}` needs a number, not `{v}`"))
            };
            match key {
                "wtime" => clocks[0] = Some(number(i)?),
                "btime" => clocks[1] = Some(number(i)?),
                "winc" => incs[0] = number(i)?,
                "binc" => incs[1] = number(i)?,
                "movestogo" => moves_to_go = Some(number(i)?.min(u32::MAX as u64) as u32),
                "depth" => limits.depth = Some(number(i)?.clamp(1, 64) as u32),
                "nodes" => limits.nodes = Some(number(i)?.max(1)),
                "movetime" => limits.movetime = Some(number(i)?),
                // A mate search is a depth-limited search here.
                "mate" => limits.depth = Some((number(i)? * 2).clamp(1, 64) as u32),
                "infinite" | "ponder" => {
                    i += 1;
                    continue;
                }
                other => return Err(format!("go: unknown parameter `{other}`")),
            }
            i += 2;
        }
        let side = self.pos.to_move().min(1);
        if let Some(remaining_ms) = clocks[side] {
            limits.clock = Some(Clock {
                remaining_ms,
                increment_ms: incs[side],
                moves_to_go,
            });
        }
        Ok(limits)
    }
}

/// `info depth ... score ... pv ...` for one iteration.
pub fn info_line(pos: &Position, r: &SearchResult) -> String {
    let score = match score::mate_moves(r.score) {
        Some(m) => format!("mate {m}"),
        None => format!("cp {}", r.score),
    };
    let mut line = format!(
        "info depth {} seldepth {} score {score} nodes {} nps {} hashfull {} time {}",
        r.depth,
        r.seldepth,
        r.nodes,
        r.nps(),
        r.hashfull,
        r.time.as_millis()
    );
    if !r.pv.is_empty() {
        line.push_str(" pv");
        let mut p = pos.clone();
        for &m in &r.pv {
            line.push(' ');
            line.push_str(&p.move_to_string(m));
            p.make(m);
        }
    }
    line
}
