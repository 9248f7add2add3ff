//! Position strings: FEN extended to any board shape and N armies.
//!
//! `<board> <to move> <castling> <en passant> [<halfmove> <fullmove>] [out=<tags>]`
//!
//! - board: ranks from the top, separated by `/`; each lists only the cells
//!   that exist, left to right; a number is a run of empty cells. With two
//!   armies upper case is the first army, lower case the second; with more,
//!   each piece is the army's tag followed by the upper-case letter (`rK`).
//! - to move: the player's tag; castling: the variant's symbols or `-`;
//!   en passant: the target cell or `-`; `out=`: tags of the players out,
//!   in the order they went out.

use crate::geometry::Cell;
use crate::position::{army_of, kind_of, Piece, Position};
use crate::variant::{Attackers, PieceType, Variant};
use std::fmt;
use std::sync::Arc;

/// A position string that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// Which field: `board`, `to move`, `castling`, `en passant`, ...
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "position string, {}: {}", self.field, self.message)
    }
}

impl std::error::Error for PositionError {}

fn err(field: impl Into<String>, message: impl Into<String>) -> PositionError {
    PositionError {
        field: field.into(),
        message: message.into(),
    }
}

impl Position {
    /// Reads a position string of `variant`.
    pub fn from_string(variant: Arc<Variant>, s: &str) -> Result<Position, PositionError> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        if fields.len() < 2 {
            return Err(err(
                "string",
                "needs at least the board and the player to move",
            ));
        }
        let mut pos = Position::empty(variant.clone());
        let v = &*variant;
        let g = &v.geometry;

        // Board.
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != g.ranks as usize {
            return Err(err(
                "board",
                format!("{} ranks given, the board has {}", ranks.len(), g.ranks),
            ));
        }
        for (i, text) in ranks.iter().enumerate() {
            let r = g.ranks as usize - 1 - i;
            let rank_name = r as u32 + g.first_rank as u32;
            let field = || format!("board, rank {rank_name}");
            let cells: Vec<Cell> = (0..g.files)
                .map(|f| (r * g.files as usize + f as usize) as Cell)
                .filter(|&c| g.cells.contains(c))
                .collect();
            let mut k = 0;
            let chars: Vec<char> = text.chars().collect();
            let mut j = 0;
            while j < chars.len() {
                let ch = chars[j];
                if ch.is_ascii_digit() {
                    let mut n = 0usize;
                    while j < chars.len() && chars[j].is_ascii_digit() {
                        n = n * 10 + chars[j].to_digit(10).unwrap_or(0) as usize;
                        if n > 16 {
                            return Err(err(field(), "run of empty cells longer than the rank"));
                        }
                        j += 1;
                    }
                    if n == 0 {
                        return Err(err(field(), "empty run of length 0"));
                    }
                    k += n;
                    if k > cells.len() {
                        return Err(err(field(), format!("more than {} cells", cells.len())));
                    }
                    continue;
                }
                let (army, letter) = if v.armies.len() <= 2 {
                    if ch.is_ascii_uppercase() {
                        (0u8, ch)
                    } else if v.armies.len() == 2 {
                        (1u8, ch.to_ascii_uppercase())
                    } else {
                        return Err(err(field(), format!("`{ch}` is not a piece")));
                    }
                } else {
                    let a = v
                        .armies
                        .iter()
                        .position(|a| a.tag == ch)
                        .ok_or_else(|| err(field(), format!("`{ch}` is not an army tag")))?;
                    j += 1;
                    let l = chars.get(j).copied().ok_or_else(|| {
                        err(field(), format!("army tag `{ch}` without a piece letter"))
                    })?;
                    (a as u8, l)
                };
                let kind = v.piece_by_letter(letter).ok_or_else(|| {
                    err(field(), format!("`{letter}` is not a piece of {}", v.name))
                })?;
                let Some(&c) = cells.get(k) else {
                    return Err(err(field(), format!("more than {} cells", cells.len())));
                };
                pos.put(c, Piece { army, kind }.code());
                k += 1;
                j += 1;
            }
            if k != cells.len() {
                return Err(err(
                    field(),
                    format!("{k} cells given, the rank has {}", cells.len()),
                ));
            }
        }

        // Player to move.
        let tag = fields[1];
        let player = v
            .players
            .iter()
            .position(|p| tag.len() == 1 && tag.starts_with(p.tag))
            .ok_or_else(|| err("to move", format!("`{tag}` is not a player tag")))?;

        // Optional trailing `out=` field.
        let mut rest: Vec<&str> = fields[2..].to_vec();
        if let Some(last) = rest.last() {
            if let Some(tags) = last.strip_prefix("out=") {
                for t in tags.chars() {
                    let p = v
                        .players
                        .iter()
                        .position(|p| p.tag == t)
                        .ok_or_else(|| err("out", format!("`{t}` is not a player tag")))?;
                    if pos.is_out(p) {
                        return Err(err("out", format!("`{t}` is listed twice")));
                    }
                    // One at a time, as far as the string can tell.
                    let others = v.players.len() - 1 - pos.out.count_ones() as usize;
                    pos.set_out(p as u8, others as u8);
                }
                rest.pop();
            }
        }
        if pos.out >> player & 1 != 0 {
            return Err(err("to move", "that player is out of the game"));
        }
        pos.to_move = player as u8;

        // Castling.
        let castling = rest.first().copied().unwrap_or("-");
        if castling != "-" {
            for ch in castling.chars() {
                let i = v
                    .rules
                    .castling
                    .iter()
                    .position(|c| c.symbol == ch)
                    .ok_or_else(|| {
                        err(
                            "castling",
                            format!("`{ch}` is not a castling of {}", v.name),
                        )
                    })?;
                let c = &v.rules.castling[i];
                let king = pos.board[c.king as usize];
                let rook = pos.board[c.rook as usize];
                let is = |code: u8, t: Option<PieceType>| {
                    code != 0 && army_of(code) == c.army && t.is_none_or(|t| kind_of(code) == t)
                };
                if !is(king, c.pieces.map(|p| p.0)) || !is(rook, c.pieces.map(|p| p.1)) {
                    return Err(err(
                        "castling",
                        format!(
                            "`{ch}` needs the king on {} and the rook on {}",
                            g.name(c.king),
                            g.name(c.rook)
                        ),
                    ));
                }
                pos.castling |= 1 << i;
            }
        }

        // En passant.
        let ep = rest.get(1).copied().unwrap_or("-");
        if ep != "-" {
            let target = g
                .parse_cell(ep)
                .ok_or_else(|| err("en passant", format!("`{ep}` is not a cell")))?;
            let victim = pos
                .ep_victim(target)
                .ok_or_else(|| err("en passant", format!("no pawn that just stepped past {ep}")))?;
            pos.ep = Some((target, victim));
        }

        // Counters.
        if let Some(h) = rest.get(2) {
            pos.halfmove = h
                .parse()
                .map_err(|_| err("halfmove clock", format!("`{h}` is not a number")))?;
        }
        if let Some(f) = rest.get(3) {
            pos.fullmove =
                f.parse().ok().filter(|&n: &u32| n >= 1).ok_or_else(|| {
                    err("fullmove number", format!("`{f}` is not a number from 1"))
                })?;
        }
        if rest.len() > 4 {
            return Err(err("string", format!("unexpected field `{}`", rest[4])));
        }
        pos.key = pos.compute_key();
        pos.check_reachable()?;
        Ok(pos)
    }

    /// Refuses what no game can reach, per rule module:
    /// - `royal` with `attackers = "enemies"` (the two-army games): the
    ///   player to move could take a hostile royal piece at once (the side
    ///   not to move is in check). Under `attackers = "next"` (the
    ///   four-player games) such a position is where the checkmate ruling
    ///   starts: the move that follows puts that player out, so it is
    ///   accepted as a set-up;
    /// - `promotion`: a piece that must promote stands in its compulsory
    ///   zone (for every player who moves its army), where its move would
    ///   have promoted it; not judged under `liberate`, where a piece may
    ///   have had nothing to become.
    fn check_reachable(&self) -> Result<(), PositionError> {
        let v = &*self.variant;
        let g = &v.geometry;
        let mover = self.to_move as usize;
        if v.rules
            .royal
            .as_ref()
            .is_some_and(|r| r.attackers == Attackers::Enemies)
        {
            let mine = v.players[mover].army;
            for a in (0..v.armies.len() as u8).filter(|&a| v.hostile(a, mine)) {
                let playing = v
                    .players
                    .iter()
                    .enumerate()
                    .any(|(p, pl)| pl.army == a && !self.is_out(p));
                if !playing {
                    continue;
                }
                for c in self.royal_cells(a).unwrap_or_default().iter() {
                    if self.is_attacked_by(c, mover) {
                        return Err(err(
                            "board",
                            format!(
                                "{} could take the royal piece on {} at once: the side not to \
                                 move is in check, which no game reaches",
                                v.players[mover].name,
                                g.name(c)
                            ),
                        ));
                    }
                }
            }
        }
        if let Some(pr) = v.rules.promotion.as_ref().filter(|pr| !pr.liberate) {
            for c in g.cells.iter() {
                let code = self.board[c as usize];
                if code == 0 || pr.pieces >> kind_of(code) & 1 == 0 {
                    continue;
                }
                let army = army_of(code);
                let mut owners = v
                    .players
                    .iter()
                    .enumerate()
                    .filter(|(_, pl)| pl.army == army);
                if owners.all(|(p, _)| pr.zone[p].contains(c)) {
                    return Err(err(
                        "board",
                        format!(
                            "the {} on {} stands where it must have promoted",
                            v.pieces[kind_of(code) as usize].name,
                            g.name(c)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The cell of the piece that can be taken en passant on `target`: one
    /// step beyond it in the direction of the player who moved last.
    fn ep_victim(&self, target: Cell) -> Option<Cell> {
        let v = &*self.variant;
        let ds = v.rules.double_step.as_ref()?;
        if self.board[target as usize] != 0 {
            return None;
        }
        let n = v.players.len();
        let prev = (0..n)
            .map(|k| (self.to_move as usize + n - 1 - k) % n)
            .find(|&p| self.out >> p & 1 == 0)?;
        let pl = &v.players[prev];
        let (dx, dy) = pl.forward.rotate((0, 1));
        let victim = v.geometry.offset(target, dx, dy)?;
        let code = self.board[victim as usize];
        (code != 0 && army_of(code) == pl.army && ds.pieces >> kind_of(code) & 1 != 0)
            .then_some(victim)
    }

    /// Writes the position string.
    pub fn to_string_fen(&self) -> String {
        let v = &*self.variant;
        let g = &v.geometry;
        let mut s = String::new();
        for r in (0..g.ranks as usize).rev() {
            let mut empty = 0;
            for f in 0..g.files as usize {
                let c = (r * g.files as usize + f) as Cell;
                if !g.cells.contains(c) {
                    continue;
                }
                match self.piece_at(c) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        let letter = v.pieces[p.kind as usize].letter;
                        if v.armies.len() <= 2 {
                            s.push(if p.army == 0 {
                                letter
                            } else {
                                letter.to_ascii_lowercase()
                            });
                        } else {
                            s.push(v.armies[p.army as usize].tag);
                            s.push(letter);
                        }
                    }
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if r > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(v.players[self.to_move as usize].tag);
        s.push(' ');
        if self.castling == 0 {
            s.push('-');
        } else {
            for (i, c) in v.rules.castling.iter().enumerate() {
                if self.castling >> i & 1 != 0 {
                    s.push(c.symbol);
                }
            }
        }
        s.push(' ');
        match self.ep {
            Some((e, _)) => s += &g.name(e),
            None => s.push('-'),
        }
        s += &format!(" {} {}", self.halfmove, self.fullmove);
        if self.out != 0 {
            s += " out=";
            // In the order the players went out: it decides the ranking.
            for &p in self.out_order() {
                s.push(v.players[p as usize].tag);
            }
        }
        s
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_fen())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_string_fen())
    }
}
