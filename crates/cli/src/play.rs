//! `play`: a game at the terminal between humans, the AI and random
//! movers.

use crate::board;
use quadrille_engine::{MoveKind, Position};
use quadrille_search::{score, Limits, Searcher};
use std::io::{self, BufRead, Write};

/// Who plays which seat besides the humans.
pub struct Seats {
    /// Player tags of the random movers.
    pub random: Vec<char>,
    /// Player tags of the AI.
    pub ai: Vec<char>,
    /// The AI's searcher, with its settings and weights.
    pub searcher: Searcher,
    pub limits: Limits,
}

const HELP: &str = "Enter a move like e2e4 (promotion: e7e8q; castling: the king's move, e1g1). \
Commands: moves, undo, fen, help, quit.";

pub fn run(mut p: Position, mut seats: Seats, seed: Option<u64>) -> Result<(), String> {
    let v = p.variant().clone();
    for (option, tags) in [("--random", &seats.random), ("--ai", &seats.ai)] {
        for t in tags {
            if !v.players.iter().any(|pl| pl.tag == *t) {
                let all: Vec<String> = v.players.iter().map(|pl| pl.tag.to_string()).collect();
                return Err(format!(
                    "{option}: `{t}` is not a player tag of {} (tags: {})",
                    v.name,
                    all.join(", ")
                ));
            }
        }
    }
    if let Some(t) = seats.random.iter().find(|t| seats.ai.contains(t)) {
        return Err(format!("seat `{t}` is both --random and --ai"));
    }
    let random = &seats.random;
    let machine = |tag: char| random.contains(&tag) || seats.ai.contains(&tag);
    let mut rng = seed.map(fastrand::Rng::with_seed).unwrap_or_default();
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    outln!("{HELP}");
    // Draw the board only when the position changed.
    let mut redraw = true;
    loop {
        if redraw {
            out!("\n{}", board::draw(&p));
        }
        redraw = true;
        if let Some(o) = p.outcome() {
            let names = |ps: &[usize]| {
                ps.iter()
                    .map(|&i| v.players[i].name.clone())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let why = o.reason;
            if o.is_draw() {
                outln!("Game over: draw ({why}).");
            } else {
                outln!("Game over: {} wins ({why}).", names(o.winners()));
            }
            if v.players.len() > 2 {
                for (place, group) in o.ranking.iter().enumerate() {
                    outln!("  {}. {}", place + 1, names(group));
                }
            }
            if let Some(scores) = p.series_scores() {
                let list: Vec<String> = scores
                    .iter()
                    .enumerate()
                    .map(|(i, s)| format!("{} {s}", v.players[i].name))
                    .collect();
                outln!("Series scores: {}", list.join(", "));
            }
            return Ok(());
        }
        let player = &v.players[p.to_move()];
        let moves = p.legal_moves();
        if moves.is_empty() {
            // The variant's rules give no result here (no drop-out rule);
            // nobody can move, so the game cannot go on.
            outln!("{} has no legal move; the game stops here.", player.name);
            return Ok(());
        }
        // A player without a legal move drops out: nothing to ask.
        if moves.len() == 1 && moves.as_slice()[0].kind == MoveKind::DropOut {
            outln!("{} has no legal move and drops out.", player.name);
            p.make(moves.as_slice()[0]);
            continue;
        }
        if random.contains(&player.tag) {
            let m = moves.as_slice()[rng.usize(..moves.len())];
            outln!("{} plays {}", player.name, p.move_to_string(m));
            p.make(m);
            continue;
        }
        if seats.ai.contains(&player.tag) {
            let r = seats.searcher.best_move(&p, &seats.limits);
            // The search returns a legal move whenever there is one.
            let Some(m) = r.best.filter(|m| moves.iter().any(|l| l == m)) else {
                return Err(format!("the AI found no move for {}", player.name));
            };
            outln!(
                "{} plays {} (score {}, depth {}, {} nodes, {:.2} s)",
                player.name,
                p.move_to_string(m),
                score::describe(r.score),
                r.depth,
                r.nodes,
                r.time.as_secs_f64()
            );
            p.make(m);
            continue;
        }
        out!("{}> ", player.name);
        io::stdout().flush().map_err(|e| e.to_string())?;
        let Some(line) = lines.next() else {
            // End of input: leave the game where it stands.
            outln!();
            return Ok(());
        };
        let line = line.map_err(|e| e.to_string())?;
        redraw = false;
        match line.trim() {
            "" => {}
            "quit" | "exit" => return Ok(()),
            "help" => outln!("{HELP}"),
            "fen" => outln!("{p}"),
            "moves" => {
                let list: Vec<String> = moves.iter().map(|&m| p.move_to_string(m)).collect();
                outln!("{}", list.join(" "));
            }
            "undo" => {
                if p.ply() == 0 {
                    outln!("nothing to undo");
                } else {
                    p.unmake();
                    // Undo the machines' replies too, back to a human.
                    while p.ply() > 0 && machine(v.players[p.to_move()].tag) {
                        p.unmake();
                    }
                    redraw = true;
                }
            }
            text => match p.play(text) {
                Ok(_) => redraw = true,
                Err(e) => outln!("move `{text}`: {e} (type `moves` for the legal moves)"),
            },
        }
    }
}
