//! `show`: a variant's board, setup, pieces and rule modules in words.

use crate::board;
use quadrille_engine::{betza, Variant};
use std::sync::Arc;

pub fn describe(v: &Arc<Variant>) -> String {
    let g = &v.geometry;
    let mut s = format!("{} ({})\n{}\n\n", v.title, v.name, v.description);
    s += &format!(
        "Board: {} files x {} ranks (ranks from {}), {} cells\n",
        g.files,
        g.ranks,
        g.first_rank,
        g.cells.len()
    );
    s += "Players in turn order:";
    for p in &v.players {
        s += &format!(
            " {} [{}, army {}, forward {:?}]",
            p.name, p.tag, v.armies[p.army as usize].name, p.forward
        );
    }
    s += "\n\nSetup:\n";
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
            s += &format!(
                "  {} promotes {} to {}",
                pl.name,
                letters(p.pieces),
                choices
            );
            if p.liberate {
                s += &format!(" or a captured type (not {})", letters(p.liberate_exclude));
            }
            s.push('\n');
        }
    }
    s += &format!(
        "  stalemate: {:?}; repetition: {}; no progress: {} moves per player{}\n",
        r.stalemate,
        r.repetition,
        r.no_progress_moves,
        if r.bare_royals_draw {
            "; bare royals draw"
        } else {
            ""
        }
    );
    s
}
