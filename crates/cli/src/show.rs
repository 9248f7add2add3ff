//! `show`: a variant's board, setup, pieces and rule modules in words.

use crate::board;
use quadrille_engine::{betza, CellSet, Geometry, Variant};
use std::fmt::Write;
use std::sync::Arc;

/// A cell set written as rectangles (see [`Geometry::describe_cells`]).
fn cells(g: &Geometry, set: &CellSet) -> String {
    g.describe_cells(set)
}

pub fn describe(v: &Arc<Variant>) -> String {
    let g = &v.geometry;
    let mut s = format!("{} ({})\n{}\n\n", v.title, v.name, v.description);
    s += &format!(
        "Board: {} files x {} ranks (ranks from {}), {} cells: {}\n",
        g.files,
        g.ranks,
        g.first_rank,
        g.cells.len(),
        cells(g, &g.cells)
    );
    s += "Players in turn order:\n";
    for p in &v.players {
        let _ = write!(
            s,
            "  {} [tag {}, army {}, forward {}",
            p.name,
            p.tag,
            v.armies[p.army as usize].name,
            format!("{:?}", p.forward).to_lowercase()
        );
        if !p.home.is_empty() {
            let _ = write!(s, ", home {}", cells(g, &p.home));
        }
        s += "]\n";
    }
    s += "\nSetup:\n";
    s += &board::draw(&v.start());
    s += &format!("{}\n\nPieces:\n", v.setup);
    for p in &v.pieces {
        s += &format!("  {} {} ({})\n", p.letter, p.name, p.betza);
        for line in betza::describe(&p.atoms) {
            s += &format!("      {line}\n");
        }
    }
    s += "\nRules:\n";
    let r = &v.rules;
    let letters = |mask: u32| -> String {
        v.pieces
            .iter()
            .enumerate()
            .filter(|(i, _)| mask >> i & 1 != 0)
            .map(|(_, p)| p.letter)
            .collect()
    };
    let player_name = |i: usize| v.players[i].name.as_str();
    if let Some(royal) = &r.royal {
        for (i, a) in v.armies.iter().enumerate() {
            s += &format!(
                "  {} must retain {}; a lone piece of such a type is royal\n",
                a.name,
                letters(royal.must_retain[i])
            );
        }
        if royal.no_passing_attacked {
            s += "  a royal piece may not pass over an attacked cell\n";
        }
        if royal.attackers == quadrille_engine::variant::Attackers::Next {
            s += "  only the next player to move threatens royal pieces\n";
        }
    }
    if let Some(types) = r.royal_presence {
        let _ = writeln!(
            s,
            "  no check; a move must leave one of {} of the mover's army in the mover's home",
            letters(types)
        );
    }
    if let Some(d) = &r.double_step {
        s += &format!("  double step for {}", letters(d.pieces));
        s += if r.en_passant {
            ", with en passant\n"
        } else {
            "\n"
        };
    }
    for c in &r.castling {
        s += &format!(
            "  castling {}: {} king {}-{}, rook {}-{}\n",
            c.symbol,
            v.armies[c.army as usize].name,
            g.name(c.king),
            g.name(c.king_to),
            g.name(c.rook),
            g.name(c.rook_to)
        );
    }
    if let Some(p) = &r.promotion {
        for (i, pl) in v.players.iter().enumerate() {
            let choices: String = p.choices[i]
                .iter()
                .map(|&t| v.pieces[t as usize].letter)
                .collect();
            s += &format!("  {} promotes {} to ", pl.name, letters(p.pieces));
            match (choices.is_empty(), p.liberate) {
                (_, false) => s += &choices,
                (true, true) => s += "a captured type",
                (false, true) => s += &format!("{choices} or a captured type"),
            }
            if p.liberate && p.liberate_exclude != 0 {
                s += &format!(" (not {})", letters(p.liberate_exclude));
            }
            let _ = write!(s, " on {}", cells(g, &p.zone[i]));
            if !p.optional_zone[i].is_empty() {
                let _ = write!(s, " (optional on {})", cells(g, &p.optional_zone[i]));
            }
            s.push('\n');
        }
    }
    let paths = &r.paths;
    if paths.home_moves {
        s += "  while a partner is in the game, a move must start or end in the mover's home\n";
    }
    for b in &paths.boundaries {
        let _ = writeln!(
            s,
            "  a path touching both {} and {} must touch each inside {}",
            cells(g, &b.sides[0]),
            cells(g, &b.sides[1]),
            cells(g, &b.require)
        );
    }
    if let Some(c) = &paths.camps {
        let camps: Vec<String> = c.camps.iter().map(|x| cells(g, x)).collect();
        let _ = writeln!(
            s,
            "  camps {}: from one camp to another only by a slide over {}",
            camps.join(", "),
            cells(g, &c.via)
        );
    }
    for (rule, list) in [
        ("may not capture onto", &paths.no_capture_into),
        ("must end their moves on", &paths.confine),
    ] {
        for d in list {
            for i in 0..v.players.len() {
                let _ = writeln!(
                    s,
                    "  {} of {} {rule} {}",
                    letters(d.pieces),
                    player_name(i),
                    cells(g, &d.cells[i])
                );
            }
        }
    }
    if let Some(rv) = &paths.rivers {
        let sections: Vec<String> = rv
            .sections
            .iter()
            .map(|x| {
                format!(
                    "{} ({} | {})",
                    x.name,
                    cells(g, &x.sides[0]),
                    cells(g, &x.sides[1])
                )
            })
            .collect();
        let _ = writeln!(s, "  River sections: {}", sections.join(", "));
        for (i, pl) in v.players.iter().enumerate() {
            let far: Vec<&str> = rv
                .sections
                .iter()
                .enumerate()
                .filter(|(k, _)| rv.far[i] >> k & 1 != 0)
                .map(|(_, x)| x.name.as_str())
                .collect();
            let _ = writeln!(s, "  far sections of {}: {}", pl.name, far.join(" "));
        }
        if rv.no_cross != 0 {
            let _ = writeln!(s, "  {} may not cross a far section", letters(rv.no_cross));
        }
        if rv.running_jump != 0 {
            let _ = writeln!(
                s,
                "  {} cross a far section only by a move that neither starts nor ends beside it",
                letters(rv.running_jump)
            );
        }
    }
    for m in &r.region_moves {
        let _ = writeln!(
            s,
            "  {} of {} moves as {} facing {} on {}",
            letters(m.pieces),
            player_name(m.player),
            m.betza,
            format!("{:?}", m.forward).to_lowercase(),
            cells(g, &m.cells)
        );
    }
    if let Some(f) = &r.facing {
        let _ = writeln!(
            s,
            "  {} of different armies attack each other along open {} lines (facing)",
            letters(f.pieces),
            f.betza
        );
    }
    if let Some(w) = &r.swap {
        let _ = writeln!(
            s,
            "  {} may instead swap places with its own {} within {} reach{}",
            letters(w.pieces),
            letters(w.with),
            w.betza,
            if w.not_when_attacked {
                ", unless attacked"
            } else {
                ""
            }
        );
    }
    if let Some(d) = &r.dropout {
        s += "  a player without a legal move drops out";
        if !d.promote.is_empty() {
            let pairs: Vec<String> = d
                .promote
                .iter()
                .map(|&(a, b)| format!("{}->{}", letters(1 << a), letters(1 << b)))
                .collect();
            let _ = write!(
                s,
                "; a partner takes over the army with {}",
                pairs.join(" ")
            );
        }
        if d.remove_army {
            s += "; an army without players leaves the board";
        }
        s.push('\n');
    }
    if r.elimination.capturable_royal {
        s += "  after each move, a player whose royal piece the next player could capture is out\n";
    }
    if r.elimination.empty_army {
        s += "  a player whose army has no piece left is out\n";
    }
    if r.players_left > 1 {
        let _ = writeln!(
            s,
            "  the game ends when {} players are left",
            r.players_left
        );
    }
    if r.winner == quadrille_engine::variant::Winner::ToMove {
        s += "  the player about to move when the game ends ranks first\n";
    }
    if r.series_score {
        let n = v.players.len() - 1;
        let _ = writeln!(
            s,
            "  series score: the winner {n}, the others {n} minus the other players still in when they went out"
        );
    }
    s += &format!(
        "  stalemate: {}; repetition: {}; no progress: {}{}\n",
        format!("{:?}", r.stalemate).to_lowercase(),
        match r.repetition {
            0 | 1 => "off".to_string(),
            n => format!("{n}-fold"),
        },
        match r.no_progress_moves {
            0 => "off".to_string(),
            n => format!("{n} moves per player"),
        },
        if r.bare_royals_draw {
            "; bare royals draw"
        } else {
            ""
        }
    );
    s
}
