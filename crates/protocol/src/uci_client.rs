//! The other side of UCI: drive an external engine (Fairy-Stockfish, or
//! `quadrille uci` itself) as a match opponent. A thread reads the
//! engine's output into a channel, so that every wait has a deadline and a
//! hung or crashed engine becomes an error instead of a hung match.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long the handshake and `isready` may take.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// A running UCI engine.
pub struct UciEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The name the engine gave in `id name`.
    pub name: String,
}

/// The time rules for one `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Go {
    /// A fixed time for the move, in milliseconds.
    MoveTime(u64),
    /// Game clocks: milliseconds left and increments, White's then Black's.
    Clock {
        wtime: u64,
        btime: u64,
        winc: u64,
        binc: u64,
    },
    /// A fixed depth.
    Depth(u32),
    /// A fixed number of nodes.
    Nodes(u64),
}

impl Go {
    fn command(self) -> String {
        match self {
            Go::MoveTime(ms) => format!("go movetime {ms}"),
            Go::Clock {
                wtime,
                btime,
                winc,
                binc,
            } => format!("go wtime {wtime} btime {btime} winc {winc} binc {binc}"),
            Go::Depth(d) => format!("go depth {d}"),
            Go::Nodes(n) => format!("go nodes {n}"),
        }
    }
}

impl UciEngine {
    /// Starts `program` with `args`, does the `uci` handshake and sets the
    /// options (`name`, `value`) in order, then waits for `readyok`.
    pub fn start(
        program: &str,
        args: &[String],
        options: &[(String, String)],
    ) -> Result<Self, String> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start engine `{program}`: {e}"))?;
        let stdin = child.stdin.take().ok_or("engine has no standard input")?;
        let stdout = child.stdout.take().ok_or("engine has no standard output")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = UciEngine {
            child,
            stdin,
            lines,
            name: program.to_string(),
        };
        e.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let line = e.line_until(deadline)?;
            if let Some(name) = line.strip_prefix("id name ") {
                e.name = name.trim().to_string();
            }
            if line.trim() == "uciok" {
                break;
            }
        }
        for (name, value) in options {
            e.send(&format!("setoption name {name} value {value}"))?;
        }
        e.ready()?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("engine {}: cannot write `{line}`: {e}", self.name))
    }

    fn line_until(&mut self, deadline: Instant) -> Result<String, String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => {
                Err(format!("engine {}: no answer in time", self.name))
            }
            Err(RecvTimeoutError::Disconnected) => {
                Err(format!("engine {}: closed its output", self.name))
            }
        }
    }

    /// `isready`, waiting for `readyok`.
    pub fn ready(&mut self) -> Result<(), String> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE;
        while self.line_until(deadline)?.trim() != "readyok" {}
        Ok(())
    }

    /// `ucinewgame` and `isready`.
    pub fn new_game(&mut self) -> Result<(), String> {
        self.send("ucinewgame")?;
        self.ready()
    }

    /// The engine's move after `moves` from the position string `start`:
    /// the text of `bestmove`. Fails if none comes within `timeout`.
    pub fn best_move(
        &mut self,
        start: &str,
        moves: &[String],
        go: Go,
        timeout: Duration,
    ) -> Result<String, String> {
        let mut cmd = format!("position fen {start}");
        if !moves.is_empty() {
            cmd.push_str(" moves ");
            cmd.push_str(&moves.join(" "));
        }
        self.send(&cmd)?;
        self.send(&go.command())?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.line_until(deadline)?;
            if let Some(rest) = line.strip_prefix("bestmove") {
                return rest
                    .split_whitespace()
                    .next()
                    .map(String::from)
                    .ok_or_else(|| format!("engine {}: `bestmove` without a move", self.name));
            }
        }
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // Give it a moment to leave on its own, then make sure.
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
