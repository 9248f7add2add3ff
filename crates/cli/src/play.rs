//! `play`: a game at the terminal between humans and random movers.

use crate::board;
use quadrille_engine::Position;
use std::io::{self, BufRead, Write};

const HELP: &str =
    "Enter a move like e2e4 (promotion: e7e8q). Commands: moves, undo, fen, help, quit.";

pub fn run(mut p: Position, random: &[char], seed: Option<u64>) -> Result<(), String> {
    let v = p.variant().clone();
    for t in random {
        if !v.players.iter().any(|pl| pl.tag == *t) {
            return Err(format!("--random: `{t}` is not a player tag of {}", v.name));
        }
    }
    let mut rng = seed.map(fastrand::Rng::with_seed).unwrap_or_default();
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    println!("{HELP}");
    loop {
        print!("\n{}", board::draw(&p));
        if let Some(o) = p.outcome() {
            let names = |ps: &[usize]| {
                ps.iter()
                    .map(|&i| v.players[i].name.clone())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            if o.is_draw() {
                println!("Game over: draw ({:?}).", o.reason);
            } else {
                println!("Game over: {} wins ({:?}).", names(o.winners()), o.reason);
            }
            if v.players.len() > 2 {
                for (place, group) in o.ranking.iter().enumerate() {
                    println!("  {}. {}", place + 1, names(group));
                }
            }
            return Ok(());
        }
        let player = &v.players[p.to_move()];
        // A player without a legal move drops out: nothing to ask.
        let moves = p.legal_moves();
        if moves.len() == 1 && moves.as_slice()[0].kind == quadrille_engine::MoveKind::DropOut {
            println!("{} has no legal move and drops out.", player.name);
            p.make(moves.as_slice()[0]);
            continue;
        }
        if random.contains(&player.tag) {
            let moves = p.legal_moves();
            let m = moves.as_slice()[rng.usize(..moves.len())];
            println!("{} plays {}", player.name, p.move_to_string(m));
            p.make(m);
            continue;
        }
        print!("{}> ", player.name);
        io::stdout().flush().map_err(|e| e.to_string())?;
        let Some(line) = lines.next() else {
            return Ok(());
        };
        let line = line.map_err(|e| e.to_string())?;
        match line.trim() {
            "" => {}
            "quit" | "exit" => return Ok(()),
            "help" => println!("{HELP}"),
            "fen" => println!("{p}"),
            "moves" => {
                let moves = p.legal_moves();
                let list: Vec<String> = moves.iter().map(|&m| p.move_to_string(m)).collect();
                println!("{}", list.join(" "));
            }
            "undo" => {
                if p.ply() == 0 {
                    println!("nothing to undo");
                } else {
                    p.unmake();
                    // Undo the random movers' replies too, back to a human.
                    while p.ply() > 0 && random.contains(&v.players[p.to_move()].tag) {
                        p.unmake();
                    }
                }
            }
            text => {
                if let Err(e) = p.play(text) {
                    println!("{e}");
                }
            }
        }
    }
}
