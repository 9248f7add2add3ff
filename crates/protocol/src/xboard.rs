//! XBoard / CECP (protocol version 2): the engine side, for the two-player
//! variants. Non-standard variants are described to the GUI with `setup`
//! (board size, piece letters, start position) and `piece` (Betza moves)
//! in reply to `variant`. Bad commands get `Error (...): ...`, illegal
//! moves `Illegal move: ...`; nothing ends the session but `quit` or the
//! end of the input.

use crate::catalog::Catalog;
use crate::output::{each_line, Output};
use crate::thinker::Thinker;
use crate::xboard_board::XboardVariant;
use quadrille_engine::{EndReason, Outcome, Position, Variant};
use quadrille_search::{result_for, score, Clock, Limits, SearchResult, Searcher};
use std::cmp::Ordering;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::sync::Arc;
use std::thread::Scope;

const NAME: &str = concat!("Quadrille ", env!("CARGO_PKG_VERSION"));
/// Time per move when the GUI sets no time control.
const DEFAULT_MOVETIME_MS: u64 = 1_000;

/// Runs an XBoard session until `quit` or the end of the input.
pub fn run<R: BufRead, W: Write + Send>(input: R, output: W, catalog: Catalog) -> io::Result<()> {
    let out = Output::new(output);
    // Only variants XBoard can be told about.
    let mut known = Catalog::empty();
    for v in catalog.variants() {
        if XboardVariant::new(v).is_some() {
            known = known.with(v.clone());
        }
    }
    let Some(variant) = known.default_variant() else {
        return out.line("Error (no variant): no two-player variant to play");
    };
    let Some(board) = XboardVariant::new(&variant) else {
        return Ok(());
    };
    std::thread::scope(|scope| {
        let mut x = Xboard {
            catalog: known,
            pos: variant.start(),
            variant,
            board,
            force: false,
            engine: Some(1),
            post: false,
            depth: None,
            movetime: None,
            level: None,
            clock_cs: None,
            hash_mb: None,
            threads: None,
            thinker: Thinker::new(Searcher::default()),
            cancel: Arc::new(AtomicBool::new(false)),
            out: &out,
        };
        each_line(input, |line| x.command(scope, line))?;
        x.cancel.store(true, AtomicOrdering::Relaxed);
        x.thinker.stop();
        Ok(())
    })
}

/// `level MPS BASE INC`.
#[derive(Clone, Copy, Debug)]
struct Level {
    moves: u32,
    increment_ms: u64,
}

struct Xboard<'a, 'scope, W: Write> {
    catalog: Catalog,
    variant: Arc<Variant>,
    board: XboardVariant,
    pos: Position,
    /// Force mode: the engine only records moves.
    force: bool,
    /// The player the engine moves for.
    engine: Option<usize>,
    post: bool,
    depth: Option<u32>,
    movetime: Option<u64>,
    level: Option<Level>,
    /// The engine's clock (centiseconds), from `time`.
    clock_cs: Option<u64>,
    hash_mb: Option<usize>,
    /// Search threads (`cores`), if the GUI set them.
    threads: Option<usize>,
    thinker: Thinker<'scope>,
    /// Set when the running search is called off: its move is dropped.
    cancel: Arc<AtomicBool>,
    out: &'a Output<W>,
}

/// A command's failure: the error line to print.
type Reply = Result<(), String>;

impl<'a, 'scope, W: Write + Send> Xboard<'a, 'scope, W>
where
    'a: 'scope,
{
    /// Handles one line; false to quit.
    fn command<'env>(
        &mut self,
        scope: &'scope Scope<'scope, 'env>,
        line: &str,
    ) -> io::Result<bool> {
        let (cmd, arg) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        if cmd.is_empty() {
            return Ok(true);
        }
        if cmd == "quit" {
            return Ok(false);
        }
        // Commands that may arrive while the engine thinks: "?" asks for
        // the move now, "ping" waits for it, the others call it off.
        match cmd {
            "?" => self.thinker.stop(),
            "ping" => {
                self.sync();
                return self.out.line(format!("pong {arg}")).map(|_| true);
            }
            "force" | "new" | "result" | "undo" | "remove" | "setboard" | "variant" | "edit" => {
                self.cancel.store(true, AtomicOrdering::Relaxed);
                self.thinker.stop();
            }
            _ => {}
        }
        // Settings and notices are taken while the engine thinks; anything
        // that reads or changes the position waits for its move.
        let settings = matches!(
            cmd,
            "xboard"
                | "random"
                | "hard"
                | "easy"
                | "computer"
                | "name"
                | "rating"
                | "ics"
                | "accepted"
                | "rejected"
                | "draw"
                | "hint"
                | "bk"
                | "otim"
                | "cores"
                | "post"
                | "nopost"
                | "sd"
                | "st"
                | "level"
                | "time"
                | "memory"
                | "protover"
        );
        if settings {
            self.thinker.poll();
        } else {
            self.sync();
        }
        let reply = match cmd {
            "xboard" | "?" | "random" | "hard" | "easy" | "computer" | "name" | "rating"
            | "ics" | "accepted" | "rejected" | "draw" | "hint" | "bk" | "white" | "black"
            | "otim" => Ok(()),
            "cores" => number(cmd, arg)
                .map(|n| self.threads = Some((n.max(1) as usize).min(crate::uci::MAX_THREADS))),
            "protover" => self.features(),
            "new" => {
                self.pos = self.variant.start();
                self.force = false;
                self.engine = Some(1);
                self.depth = None;
                self.thinker.with(|s| s.clear());
                Ok(())
            }
            "variant" => self.select_variant(arg),
            "force" => {
                self.force = true;
                Ok(())
            }
            "go" => {
                self.force = false;
                self.engine = Some(self.pos.to_move());
                match result_line(&mut self.pos) {
                    // Decided already (no-progress count, bare Kings).
                    Some(line) => self.say(line),
                    None => self.think(scope),
                }
            }
            "playother" => {
                self.force = false;
                self.engine = Some(1 - self.pos.to_move().min(1));
                Ok(())
            }
            "usermove" => self.user_move(scope, arg),
            "setboard" => self.set_board(arg),
            "undo" => self.take_back(1),
            "remove" => self.take_back(2),
            "result" => {
                self.force = true;
                Ok(())
            }
            "post" | "nopost" => {
                self.post = cmd == "post";
                Ok(())
            }
            "sd" => number(cmd, arg).map(|d| self.depth = Some(d.clamp(1, 64) as u32)),
            "st" => number(cmd, arg).map(|s| {
                self.movetime = Some(s.max(0) as u64 * 1000);
                self.level = None;
            }),
            "level" => self.set_level(arg),
            "time" => number(cmd, arg).map(|cs| self.clock_cs = Some(cs.max(0) as u64)),
            "memory" => number(cmd, arg).map(|mb| self.hash_mb = Some(mb.clamp(1, 4096) as usize)),
            // A bare move (for GUIs that do not say "usermove").
            _ if looks_like_move(cmd) => self.user_move(scope, cmd),
            _ => Err(format!("Error (unknown command): {line}")),
        };
        match reply {
            Ok(()) => Ok(true),
            Err(e) => self.out.line(e).map(|_| true),
        }
    }

    fn say(&self, text: impl std::fmt::Display) -> Reply {
        self.out.line(text).map_err(|e| e.to_string())
    }

    /// Takes the engine's finished move into the position (the search
    /// thread has already announced it).
    fn sync(&mut self) {
        let result = self.thinker.take_result();
        if self.cancel.load(AtomicOrdering::Relaxed) {
            return;
        }
        if let Some(r) = result {
            if let Some(m) = r.best {
                let legal = self.pos.legal_moves().iter().any(|&l| l == m);
                if legal {
                    self.pos.make(m);
                }
            }
        }
    }

    fn features(&self) -> Reply {
        let variants: Vec<String> = self
            .catalog
            .names()
            .map(|n| {
                if n == "chess" {
                    "normal".to_string()
                } else {
                    n.to_string()
                }
            })
            .collect();
        self.say("feature done=0")?;
        self.say(format!(
            "feature myname=\"{NAME}\" ping=1 setboard=1 playother=1 usermove=1 time=1 draw=0 \
             sigint=0 sigterm=0 reuse=1 analyze=0 colors=0 san=0 name=0 memory=1 smp=1 \
             variants=\"{}\"",
            variants.join(",")
        ))?;
        self.say("feature done=1")
    }

    fn select_variant(&mut self, name: &str) -> Reply {
        let v = self
            .catalog
            .get(name)
            .ok_or_else(|| format!("Error (unknown variant): {name}"))?;
        let board =
            XboardVariant::new(&v).ok_or_else(|| format!("Error (unknown variant): {name}"))?;
        if v.name != "chess" {
            self.say(board.setup_command(&v))?;
            for line in board.piece_commands(&v) {
                self.say(line)?;
            }
        }
        self.pos = v.start();
        self.variant = v;
        self.board = board;
        Ok(())
    }

    fn set_board(&mut self, fen: &str) -> Reply {
        let ours = self.board.fen_in(fen);
        let pos = Position::from_string(self.variant.clone(), &ours)
            .map_err(|e| format!("tellusererror Illegal position: {e}"))?;
        self.pos = pos;
        Ok(())
    }

    fn take_back(&mut self, plies: usize) -> Reply {
        if self.pos.ply() < plies {
            return Err("Error (command not legal now): no move to take back".into());
        }
        for _ in 0..plies {
            self.pos.unmake();
        }
        Ok(())
    }

    fn set_level(&mut self, arg: &str) -> Reply {
        let parts: Vec<&str> = arg.split_whitespace().collect();
        let bad = || format!("Error (bad level): level {arg}");
        let [moves, _base, inc] = parts[..] else {
            return Err(bad());
        };
        let moves: u32 = moves.parse().map_err(|_| bad())?;
        let inc: f64 = inc.parse().map_err(|_| bad())?;
        if !inc.is_finite() || inc < 0.0 {
            return Err(bad());
        }
        self.level = Some(Level {
            moves,
            increment_ms: (inc * 1000.0) as u64,
        });
        self.movetime = None;
        Ok(())
    }

    fn user_move<'env>(&mut self, scope: &'scope Scope<'scope, 'env>, text: &str) -> Reply {
        let ours = self.board.move_in(text);
        if self.pos.outcome().is_some() {
            return Err(format!("Illegal move (the game is over): {text}"));
        }
        self.pos
            .play(&ours)
            .map_err(|e| format!("Illegal move ({e}): {text}"))?;
        if let Some(line) = result_line(&mut self.pos) {
            return self.say(line);
        }
        self.think(scope)
    }

    /// Starts thinking if it is the engine's turn.
    fn think<'env>(&mut self, scope: &'scope Scope<'scope, 'env>) -> Reply {
        if self.force || self.engine != Some(self.pos.to_move()) || self.pos.outcome().is_some() {
            return Ok(());
        }
        let (hash_mb, threads) = (self.hash_mb, self.threads);
        if hash_mb.is_some() || threads.is_some() {
            self.thinker.with(|s| {
                let mut o = *s.options();
                o.hash_mb = hash_mb.unwrap_or(o.hash_mb);
                o.threads = threads.unwrap_or(o.threads);
                s.set_options(o);
            });
        }
        let limits = self.limits();
        let out = self.out;
        let post = self.post;
        self.cancel = Arc::new(AtomicBool::new(false));
        let cancel = self.cancel.clone();
        let board = self.board.clone();
        let shown = self.pos.clone();
        let mut after = self.pos.clone();
        let board_done = board.clone();
        self.thinker
            .start(
                scope,
                self.pos.clone(),
                limits,
                move |r| {
                    if post {
                        let _ = out.line(thinking_line(&shown, &board, r));
                    }
                },
                move |r| {
                    let Some(m) = r.best.filter(|_| !cancel.load(AtomicOrdering::Relaxed)) else {
                        return;
                    };
                    let _ = out.line(format!("move {}", board_done.move_out(&after, m)));
                    after.make(m);
                    if let Some(line) = result_line(&mut after) {
                        let _ = out.line(line);
                    }
                },
            )
            .map_err(|e| format!("Error (cannot think): {e}"))
    }

    fn limits(&self) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            ..Limits::default()
        };
        match (self.movetime, self.level, self.clock_cs) {
            (Some(ms), _, _) => limits.movetime = Some(ms),
            (None, Some(level), Some(cs)) => {
                let played = self.pos.fullmove().saturating_sub(1);
                let moves_to_go = (level.moves > 0).then(|| level.moves - played % level.moves);
                limits.clock = Some(Clock {
                    remaining_ms: cs * 10,
                    increment_ms: level.increment_ms,
                    moves_to_go,
                });
            }
            _ if self.depth.is_none() => limits.movetime = Some(DEFAULT_MOVETIME_MS),
            _ => {}
        }
        limits
    }
}

fn number(cmd: &str, arg: &str) -> Result<i64, String> {
    arg.parse()
        .map_err(|_| format!("Error (bad number): {cmd} {arg}"))
}

/// Does the text look like a coordinate move (`e2e4`, `a7a8q`, `b10b9`)?
fn looks_like_move(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 4
        && b.len() <= 7
        && b[0].is_ascii_lowercase()
        && b[1].is_ascii_digit()
        && s.chars().all(|c| c.is_ascii_alphanumeric())
}

/// `DEPTH SCORE TIME NODES PV` (time in centiseconds, mates as 100000+N).
fn thinking_line(pos: &Position, board: &XboardVariant, r: &SearchResult) -> String {
    let s = match score::mate_moves(r.score) {
        Some(m) if m > 0 => 100_000 + m,
        Some(m) => -100_000 + m,
        None => r.score,
    };
    let mut p = pos.clone();
    let mut pv = Vec::new();
    for &m in &r.pv {
        pv.push(board.move_out(&p, m));
        p.make(m);
    }
    format!(
        "{} {} {} {} {}",
        r.depth,
        s,
        r.time.as_millis() / 10,
        r.nodes,
        pv.join(" ")
    )
}

/// `1-0 {White mates}` and the like, if the game is over.
fn result_line(pos: &mut Position) -> Option<String> {
    let o: Outcome = pos.outcome()?;
    let v = pos.variant().clone();
    let first = v.players[0].army;
    let (result, winner) = match result_for(&o, &v, first) {
        Ordering::Less => ("1-0", &v.players[0].name),
        Ordering::Greater => ("0-1", &v.players[1].name),
        Ordering::Equal => ("1/2-1/2", &v.players[0].name),
    };
    let why = match (o.reason, result) {
        (EndReason::Checkmate, _) => format!("{winner} mates"),
        (reason, "1/2-1/2") => format!("Draw: {reason}"),
        (reason, _) => format!("{winner} wins: {reason}"),
    };
    Some(format!("{result} {{{why}}}"))
}
