//! Move notation: coordinates (`e2e4`, `e7e8q`, `b10b9`, castling as the
//! king's move `e8g8`), and `out` for the forced drop-out of a player with
//! no legal move; written and read back against the legal moves.

use crate::moves::{Move, MoveKind};
use crate::position::Position;
use std::fmt;

/// A move text that is malformed or not legal here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    pub text: String,
    pub message: String,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move `{}`: {}", self.text, self.message)
    }
}

impl std::error::Error for MoveError {}

/// The text of the drop-out move.
pub const DROP_OUT: &str = "out";

impl Position {
    /// Writes a move in coordinate notation.
    pub fn move_to_string(&self, m: Move) -> String {
        if m.kind == MoveKind::DropOut {
            return DROP_OUT.to_string();
        }
        let v = &*self.variant;
        let g = &v.geometry;
        let mut s = g.name(m.from) + &g.name(m.to);
        if let Some(t) = m.promotion {
            s.push(v.pieces[t as usize].letter.to_ascii_lowercase());
        }
        s
    }

    /// Reads a move in coordinate notation and returns it if it is legal.
    pub fn parse_move(&mut self, text: &str) -> Result<Move, MoveError> {
        let e = |message: String| MoveError {
            text: text.to_string(),
            message,
        };
        let v = self.variant.clone();
        let g = &v.geometry;
        let t = text.trim();
        if t.eq_ignore_ascii_case(DROP_OUT) {
            return if self
                .legal_moves()
                .iter()
                .any(|m| m.kind == MoveKind::DropOut)
            {
                Ok(Move::DROP_OUT)
            } else {
                Err(e(
                    "a player drops out only when they have no legal move".into()
                ))
            };
        }
        let (from, n1) = g
            .parse_cell_prefix(t)
            .ok_or_else(|| e("does not start with a cell such as e2".into()))?;
        let (to, n2) = g
            .parse_cell_prefix(&t[n1..])
            .ok_or_else(|| e("the second cell is missing or off the board".into()))?;
        let rest = &t[n1 + n2..];
        let promotion = match rest.chars().count() {
            0 => None,
            1 => {
                let c = rest.chars().next().unwrap_or(' ').to_ascii_uppercase();
                Some(
                    v.piece_by_letter(c)
                        .ok_or_else(|| e(format!("`{rest}` is not a piece letter")))?,
                )
            }
            _ => return Err(e(format!("unexpected `{rest}` after the cells"))),
        };
        let legal = self.legal_moves();
        if let Some(&m) = legal
            .iter()
            .find(|m| m.from == from && m.to == to && m.promotion == promotion)
        {
            return Ok(m);
        }
        let options: Vec<String> = legal
            .iter()
            .filter(|m| m.from == from && m.to == to)
            .filter_map(|m| m.promotion)
            .map(|p| v.pieces[p as usize].letter.to_ascii_lowercase().to_string())
            .collect();
        if !options.is_empty() {
            return Err(e(format!("choose a promotion: {}", options.join(", "))));
        }
        let msg = match self.piece_at(from) {
            None => format!("no piece on {}", g.name(from)),
            Some(p) if p.army != self.army_to_move() => {
                format!("the piece on {} is not yours to move", g.name(from))
            }
            Some(_) => "not a legal move in this position".to_string(),
        };
        Err(e(msg))
    }

    /// Parses and plays a move, or leaves the position unchanged.
    pub fn play(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = self.parse_move(text)?;
        self.make(m);
        Ok(m)
    }
}
