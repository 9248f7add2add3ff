//! Drawing a position in the terminal.

use quadrille_engine::Position;

/// The board with file letters and rank numbers, and whose turn it is.
pub fn draw(p: &Position) -> String {
    let v = p.variant();
    let g = &v.geometry;
    let wide = v.armies.len() > 2;
    let w = if wide { 3 } else { 2 };
    let mut s = String::new();
    for r in (0..g.ranks).rev() {
        s += &format!("{:>3} ", r as u32 + g.first_rank as u32);
        for f in 0..g.files {
            let c = r * g.files + f;
            let cell = if !g.cells.contains(c) {
                " ".repeat(w)
            } else {
                match p.piece_at(c) {
                    None => format!("{:<w$}", "."),
                    Some(pc) => {
                        let letter = v.pieces[pc.kind as usize].letter;
                        if wide {
                            format!("{}{} ", v.armies[pc.army as usize].tag, letter)
                        } else if pc.army == 0 {
                            format!("{letter} ")
                        } else {
                            format!("{} ", letter.to_ascii_lowercase())
                        }
                    }
                }
            };
            s += &cell;
        }
        s.push('\n');
    }
    s += "    ";
    for f in 0..g.files {
        s += &format!("{:<w$}", (b'a' + f) as char);
    }
    s.push('\n');
    let pl = &v.players[p.to_move()];
    s += &format!(
        "{} to move ({} army){}\n",
        pl.name,
        v.armies[pl.army as usize].name,
        if p.in_check() { ", in check" } else { "" }
    );
    s
}
